#!/usr/bin/env bash
# Test: `make wave` writes an FST per block, and every signal named in each
# GTKWave save file (tb/waves/*.gtkw) exists in its FST.
set -u
make --no-print-directory wave >/dev/null || { echo "make wave failed"; exit 1; }
fail=0
for g in tb/waves/*.gtkw; do
  fst=$(sed -n 's/^\[dumpfile\] "\(.*\)"/\1/p' "$g" | sed "s|^build/|${BUILD:-build}/|")
  if [ ! -s "$fst" ]; then echo "FAIL $g: $fst missing"; fail=1; continue; fi
  have=$(fst2vcd "$fst" 2>/dev/null | awk '/\$scope/{s[++d]=$3} /\$upscope/{d--} /\$var/{p=s[1]; for(i=2;i<=d;i++)p=p"."s[i]; print p"."$5}' | sort -u)
  missing=0
  for sig in $(grep '^top\.' "$g"); do
    grep -qxF "$sig" <<<"$have" || { echo "FAIL $g: $sig not in $fst"; missing=1; }
  done
  [ $missing = 0 ] && echo "ok   $g ($(grep -c '^top\.' "$g") signals)" || fail=1
done
exit $fail
