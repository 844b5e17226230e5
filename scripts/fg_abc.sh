#!/usr/bin/env bash
# SymbiYosys's `abc pdr` engine with Debian's yosys-abc (used by
# scripts/formal.py as sby --abc; docs/FORMAL.md): the YoWASP packages ship no
# ABC binary, and this ABC's pdr has no -l (which SymbiYosys passes for its
# invariant log), so the flag is dropped; everything else as given.
args=()
for a in "$@"; do args+=("${a//pdr -v -l/pdr -v}"); done
exec yosys-abc "${args[@]}"
