#!/usr/bin/env bash
# Test (make test): a user's kernel that does not link (a double-precision
# helper the kernel runtime does not have) is reported for that kernel and
# left out, and make goes on: the good kernel beside it builds and runs.
set -u
B=${BUILD:-build}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/k"
cat > "$dir/k/good_k.c" <<'C'
#include "fg_kernel.h"
struct good_args { uint32_t *out; };
void good_k(const struct good_args *p) { p->out[fg_tid_x()] = 7u * fg_tid_x(); }
C
cat > "$dir/k/bad_k.c" <<'C'
#include "fg_kernel.h"
struct bad_args { float *out; uint32_t n; };
void bad_k(const struct bad_args *p) { p->out[fg_tid_x()] = (float)((double)p->n * 0.1); }
C
log="$dir/make.log"
if ! make -s --no-print-directory USER_KDIR="$dir/k" BUILD="$dir/b" "$dir/b/sw/user/good_k.elf" \
     "$dir/b/sw/user/bad_k.elf" > "$log" 2>&1; then
  echo "FAIL make stopped at the user kernel that does not link:"; tail -5 "$log"; exit 1
fi
grep -q "bad_k.c: this kernel did not build (its errors above); the rest of the build goes on" "$log" ||
  { echo "FAIL no one-line report for bad_k.c:"; tail -5 "$log"; exit 1; }
[ -e "$dir/b/sw/user/bad_k.elf" ] && { echo "FAIL bad_k.elf left behind"; exit 1; }
[ -e "$dir/b/sw/user/good_k.elf" ] || { echo "FAIL good_k.elf not built"; exit 1; }
out=$("$B/bin/fg_run" --kernel "$dir/b/sw/user/good_k.elf" --grid 1 --block 4 --buf out=u32:4 --arg buf:out \
      --print out 2>&1) || { echo "FAIL fg_run of the good kernel: $out"; exit 1; }
echo "$out" | grep -Eq "0,? 7,? 14,? 21" || { echo "FAIL good_k wrote: $out"; exit 1; }
echo "ok: bad_k.c reported and left out, good_k.elf built and ran"
