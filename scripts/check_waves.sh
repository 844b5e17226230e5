#!/usr/bin/env bash
# Test: `make wave` writes an FST per block, and every GTKWave save file
# (tb/waves/*.gtkw and the ones make wave writes) opened in a real GTKWave
# under Xvfb displays every signal it lists, with a value, and every encoded
# signal by name (scripts/gtkw.py --check; GTKWave silently drops a vector
# named without its [msb:lsb], which a comparison of names cannot see).
set -u
command -v xvfb-run >/dev/null || { echo "xvfb-run missing: scripts/deps.sh installs xvfb"; exit 1; }
make --no-print-directory wave >/dev/null || { echo "make wave failed"; exit 1; }
scripts/gtkw.py --check tb/waves/*.gtkw "${BUILD:-build}"/waves/*.gtkw
