#!/usr/bin/env bash
# `make wave` step: the EDGE front-end demo's EKT (two registrations, doorbell
# rings, launches on both paths, errors), with a save file from the EKT's:
#   gtkwave -a $BUILD/waves/edge_demo_ekt.gtkw
set -eu
B=${BUILD:-build}
mkdir -p "$B/waves"
"$B/bin/edge_demo" --wave "$B/waves/edge_demo_ekt.fst" >/dev/null
scripts/gtkw.py tb/waves/edge_ekt.gtkw "$B/waves/edge_demo_ekt.fst" -o "$B/waves/edge_demo_ekt.gtkw"
