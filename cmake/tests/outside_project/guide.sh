#!/usr/bin/env bash
# Runs docs/check-your-program.md as a new user would, from the evgcheck build given: §1's install line (the
# lines before it, which install packages, configure and build, are what the build folder already is), §2's
# CMakeLists.txt and commands in a project of its own around upstream's matmul_evg_add.cpp, and every command of
# §4's first block, each as printed but for the paths a reader replaces (/path/to/catlass, build/release) and
# HOME (a temporary folder). Only the installed prefix is used: no path into the evgcheck tree or its build.
#   guide.sh <evgcheck build dir> <catlass checkout> <evgcheck source dir>
set -euo pipefail
build=$(cd "$1" && pwd) catlass=$(cd "$2" && pwd) src=$(cd "$3" && pwd)
guide=$src/docs/check-your-program.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home
mkdir -p "$HOME"

# The lines of the first code block in language $2 of the section whose heading starts with $1.
block() {
  awk -v h="$1" -v fence="\`\`\`$2" '
    index($0, h) == 1 { in_sec = 1; next }
    in_sec && /^## / { exit }
    in_sec && !in_block && $0 == fence { in_block = 1; next }
    in_block && $0 == "```" { exit }
    in_block { print }' "$guide"
}
fail() { echo "guide.sh: $*" >&2; exit 1; }

# §1: the install line and the PATH line.
install=$(block "## 1." sh | grep -E '^(cmake --install|export PATH)' || true)
[[ $(echo "$install" | wc -l) == 2 ]] || fail "§1 has no 'cmake --install' and 'export PATH' lines: $install"
(cd "$src" && eval "${install//build\/release/$build}" > "$tmp/install.log") || { cat "$tmp/install.log"; fail "§1's install failed"; }
eval "$(echo "$install" | grep '^export PATH')"
[[ "$(command -v evgcheck)" == "$HOME/evgcheck/bin/evgcheck" ]] || fail "evgcheck on PATH is '$(command -v evgcheck)', not the installed one"

# §2: the project.
project=$tmp/project
mkdir -p "$project"
block "## 2." cmake | sed "s|/path/to/catlass|$catlass|" > "$project/CMakeLists.txt"
grep -q evgcheck_add_program "$project/CMakeLists.txt" || fail "§2 has no CMakeLists.txt block"
cp "$catlass/examples/64_ascend950_matmul_evg/matmul_evg_add.cpp" "$project/"
while IFS= read -r line; do
  (cd "$project" && eval "$line") > "$tmp/step.log" 2>&1 || { cat "$tmp/step.log"; fail "§2: '$line' failed"; }
  cat "$tmp/step.log" >> "$tmp/project.log"
done < <(block "## 2." sh)
grep -q "evgcheck: no CMAKE_BUILD_TYPE: evgcheck_add_program builds its programs with -O2" "$tmp/project.log" ||
  fail "§2's configure did not say which build type it chose"
[[ -x "$project/build/matmul_evg_add" ]] || fail "§2 built no ./build/matmul_evg_add"

# §4: every line of the first block, in one shell (a line may set a variable the next ones use). The first
# command is the guide's check of a program: it passes and names the checkout. The others show the other options:
# they pass too, but for the mutated run, which must fail on the finding its dropped wait makes.
n=0
cd "$project"
while IFS= read -r line; do
  n=$((n + 1))
  status=0
  eval "$line" > "$tmp/run.log" 2>&1 || status=$?
  echo "§4 line $n (exit $status): $line"
  if [[ $n == 2 ]]; then
    sed -n '1,4p;/^catlass:/p;/^kernel compiler:/p;/^known findings/p;/^result:/p' "$tmp/run.log"
    grep -q "^catlass: $catlass (" "$tmp/run.log" || { cat "$tmp/run.log"; fail "§4's first command did not name the checkout"; }
    # §2: the kernel is built by Clang (the device compiler's order of evaluation) when it is installed.
    if command -v clang++-14 > /dev/null || command -v clang++ > /dev/null; then
      grep -q "^kernel compiler: clang .*(arguments evaluated left to right: Bisheng's order)" "$tmp/run.log" ||
        { cat "$tmp/run.log"; fail "§4's first command did not name Clang as the kernel compiler"; }
    fi
  fi
  if [[ "$line" == *--mutate* ]]; then
    [[ $status == 1 ]] && grep -q "findings: " "$tmp/run.log" || { cat "$tmp/run.log"; fail "§4 line $n: the mutation found nothing"; }
  elif [[ $status != 0 ]] || { [[ "$line" == evgcheck* && "$line" != *--list-mutations* ]] && ! grep -q "^result: PASS" "$tmp/run.log"; }; then
    cat "$tmp/run.log"; fail "§4 line $n did not pass"
  fi
done < <(block "## 4." sh)
cd - > /dev/null
[[ $n -ge 5 ]] || fail "§4's first block has $n lines"
[[ -s "$project/add.html" ]] || fail "§4's --timeline wrote no add.html"
[[ -s "$project/points.txt" ]] || fail "§4's --list-mutations wrote no points.txt"
echo "guide.sh: §1, §2 and §4 ran as printed from $HOME/evgcheck"
