#!/usr/bin/env bash
# Opens a report page in headless Chromium and takes a screenshot: Chromium must exit 0 and the PNG must be
# there and non-trivial (> 20 KB: a blank 1400x1000 page compresses to a few KB).
# Usage: html_in_chromium.sh REPORT.html SCREENSHOT.png
set -euo pipefail
html=$(realpath "$1")
png=$2
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
  echo "html_in_chromium: chromium is not installed (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
rm -f "$png"
log=$(mktemp)
status=0
timeout 60 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
  --disable-background-networking --disable-component-update --disable-sync --user-data-dir="$profile" \
  --screenshot="$png" --window-size=1400,1000 "file://$html" >"$log" 2>&1 || status=$?
if [ "$status" -ne 0 ]; then
  echo "html_in_chromium: chromium exited with $status" >&2
  cat "$log" >&2
  rm -f "$log"
  exit 1
fi
rm -f "$log"
if [ ! -s "$png" ]; then
  echo "html_in_chromium: no screenshot at $png" >&2
  exit 1
fi
size=$(stat -c %s "$png")
if [ "$size" -lt 20000 ]; then
  echo "html_in_chromium: the screenshot is only $size bytes (a blank page?)" >&2
  exit 1
fi
echo "html_in_chromium: $png ($size bytes)"
