#!/usr/bin/env python3
# The work of scripts/tidy.sh (read its head for what it does and what a verdict depends on):
#   scripts/tidy.py BUILD_DIR ROOT PATH_REGEX CLANG_TIDY CLANG RECORD(0|1)
import concurrent.futures, hashlib, json, os, re, shlex, shutil, subprocess, sys, tempfile, time

build, root, pattern, tidy, clang, record = sys.argv[1:7]
pattern = re.compile(pattern)
cache = os.path.join(build, "tidy-cache")
os.makedirs(cache, exist_ok=True)
record_path = os.path.join(root, ".ci", "tidy-clean.txt")
recorded = {}  # path -> key of its last recorded clean run
if os.path.exists(record_path):
    for line in open(record_path):
        parts = line.split()
        if len(parts) == 2:
            recorded[parts[1]] = parts[0]

# The options clang cannot take: the precompiled header of the test binaries (cmake/evg_test.cmake; GCC's, which
# clang cannot read; each test file includes what it uses itself) with -Winvalid-pch, and GCC-only switches
# (-Wno-stringop-* of the same binaries, -fno-tree-sra of evgcheck_use_catlass in cmake/evgcheck_program.cmake).
GCC_ONLY = ("-Winvalid-pch", "-fno-tree-sra")
GCC_ONLY_PREFIXES = ("-Wno-stringop-",)


def clean_command(command):
    out, clean, i = shlex.split(command), [], 0
    while i < len(out):
        if out[i] == "-include" and i + 1 < len(out) and out[i + 1].endswith("cmake_pch.hxx"):
            i += 2
            continue
        if out[i] not in GCC_ONLY and not out[i].startswith(GCC_ONLY_PREFIXES):
            clean.append(out[i])
        i += 1
    return clean


def preprocess_command(clean):
    # The same command with clang, preprocessing to standard output: no object, no dependency file.
    pp, i = [clang], 1
    while i < len(clean):
        if clean[i] in ("-o", "-MF", "-MT", "-MQ"):
            i += 2
            continue
        if clean[i] in ("-c", "-MD", "-MMD"):
            i += 1
            continue
        pp.append(clean[i])
        i += 1
    return pp + ["-E", "-o", "-"]


# A unity batch (EVG_UNITY_BUILD, CMakeLists.txt) is a file in the build folder that includes a target's sources;
# clang-tidy checks each source as its own unit, with the command CMake gives it in a build without batches
# (the same flags, its own object): so a source's key is the same in either build, and .ci/tidy-clean.txt
# serves both. The object of a source is the batch's object folder (<binary subdir>/CMakeFiles/<target>.dir/)
# and the source's path (below), the target's source folder mirroring the binary subdir.
UNITY_OBJECT = re.compile(r"^(?P<dir>(?:(?P<sub>.*)/)?CMakeFiles/[^/]+\.dir/)Unity/unity_\d+_cxx\.cxx\.o$")
UNITY_INCLUDE = re.compile(r'^#include "(?P<path>[^"]+)"$', re.M)


def unity_sources(e):
    """The entries of the sources a unity batch includes, or None when e is not a batch."""
    args = shlex.split(e["command"])
    if "-o" not in args or "-c" not in args:
        return None
    o, c = args.index("-o") + 1, args.index("-c") + 1
    m = UNITY_OBJECT.match(args[o]) if o < len(args) else None
    if m is None or c >= len(args):
        return None
    source_dir = os.path.join(root, m["sub"]) if m["sub"] else root
    binary_dir = os.path.join(e["directory"], m["sub"]) if m["sub"] else e["directory"]
    try:
        batch = open(args[c]).read()
    except OSError as err:
        print(f"tidy: the unity batch {args[c]} of compile_commands.json cannot be read ({err.strerror}): "
              "configure the build again", file=sys.stderr)
        sys.exit(2)
    out = []
    for inc in UNITY_INCLUDE.finditer(batch):
        f = inc["path"]
        # CMake's naming: from the target's binary folder for a generated file, from its source folder for a
        # file of the project (a parent folder written "__"), the whole path for a file outside both.
        if f.startswith(e["directory"] + "/"):
            rel = os.path.relpath(f, binary_dir)
        elif f.startswith(root + "/"):
            rel = os.path.relpath(f, source_dir)
        else:
            rel = f.lstrip("/")
        rel = "/".join("__" if part == ".." else part for part in rel.split("/"))
        one = list(args)
        one[o], one[c] = m["dir"] + rel + ".o", f
        out.append(dict(e, file=f, command=shlex.join(one)))
    return out


def compile_entries():
    for e in json.load(open(os.path.join(build, "compile_commands.json"))):
        yield from unity_sources(e) or [e]


entries, seen = [], set()
for e in compile_entries():
    f = e["file"]
    if not f.startswith(root + "/") or "/build/" in f[len(root):] or f in seen:
        continue
    rel = f[len(root) + 1:]
    if pattern.search(rel):
        seen.add(f)
        entries.append((rel, dict(e, command=shlex.join(clean_command(e["command"])))))
if not entries:
    print(f"tidy: no translation unit matches '{pattern.pattern}'", file=sys.stderr)
    sys.exit(2)

version = subprocess.run([tidy, "--version"], capture_output=True, text=True, check=True).stdout
config = open(os.path.join(root, ".clang-tidy"), "rb").read()
db = tempfile.mkdtemp()
json.dump([e for _, e in entries], open(os.path.join(db, "compile_commands.json"), "w"))
finding = re.compile(r": (warning|error): ")


def check(item):
    """Returns (rel, lines to print, how it was known clean: "cache", "record" or "", its key)."""
    rel, e = item
    pp = subprocess.run(preprocess_command(shlex.split(e["command"])), cwd=e["directory"], capture_output=True)
    key = None
    if pp.returncode == 0:
        h = hashlib.sha256()
        here = root.encode()
        for part in (version.encode(), config, e["command"].encode(), e["directory"].encode(), pp.stdout):
            part = part.replace(here, b"<root>")
            h.update(len(part).to_bytes(8, "little"))
            h.update(part)
        key = h.hexdigest()
        path = os.path.join(cache, key)
        if os.path.exists(path):
            os.utime(path)
            return rel, [], "cache", key
        if recorded.get(rel) == key:
            return rel, [], "record", key
    run = subprocess.run([tidy, "-p", db, "--quiet", os.path.join(root, rel)], capture_output=True, text=True)
    lines = [l for l in (run.stdout + run.stderr).splitlines() if finding.search(l)]
    if run.returncode != 0 and not lines:
        # No finding line but a failure (an option clang rejects, a crash): say so with what it printed.
        lines = [f"tidy-failed: {rel}"] + [f"  {l}" for l in (run.stdout + run.stderr).splitlines()[-20:]]
    if run.returncode == 0 and not lines and key is not None:
        open(os.path.join(cache, key), "w").close()
    return rel, lines, "", (key if not lines else None)


found, cached, from_record, failing = [], 0, 0, 0
clean_keys = {}  # rel -> key, every unit of this run found clean
try:
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for rel, lines, known, key in pool.map(check, entries):
            cached += bool(known)
            from_record += known == "record"
            failing += bool(lines)
            found.extend(lines)
            if key is not None:
                clean_keys[rel] = key
finally:
    shutil.rmtree(db, ignore_errors=True)
if record == "1":
    # This run's units: their clean keys, or no line when they had a finding; other units keep theirs.
    for rel, _ in entries:
        recorded.pop(rel, None)
    recorded.update(clean_keys)
    os.makedirs(os.path.dirname(record_path), exist_ok=True)
    with open(record_path, "w") as out:
        for rel in sorted(recorded):
            out.write(f"{recorded[rel]} {rel}\n")
# What no run has used for two weeks goes: the folder holds about one entry per unit and version of it.
for name in os.listdir(cache):
    path = os.path.join(cache, name)
    if time.time() - os.path.getmtime(path) > 14 * 86400:
        os.remove(path)
count = len(entries)
checked = f"{count - cached} checked, {cached} unchanged since a clean run ({from_record} of them recorded in .ci/tidy-clean.txt)"
if found:
    seen_lines = set()
    for l in found:
        if l not in seen_lines:
            seen_lines.add(l)
            print(l)
    print(f"tidy: findings in {failing} of {count} translation units ({checked}; checks: .clang-tidy)")
    sys.exit(1)
print(f"tidy: {count} translation units clean ({checked})")
