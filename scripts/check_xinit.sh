#!/usr/bin/env bash
# Test: the randomized initial state of the verilated
# models is seeded and repeatable.  test_prims's test_xinit reads the SRAM
# primitive's unreset read register at power-up with FG_XINIT=all: two seeds
# must give two values, the same seed the same value, FG_XINIT=0 zero; and the
# "repeat with" line of a run given no seed repeats its initial state.  TAP.
set -u
b=${BUILD:-build}
v() { # FG_XINIT, FG_XSEED -> the value test_xinit printed
  FG_TEST=test_xinit FG_XINIT=$1 FG_XSEED=$2 "$b/tests/test_prims" 2>&1 |
    sed -n 's/^# xinit: fg_sram rdata_o at power-up \(0x[0-9a-f]*\).*/\1/p'
}
a=$(v all 1) c=$(v all 2) a2=$(v all 1) z=$(v 0 1)
# no seed given: the printed line, run again, must give the same initial state
first=$(FG_TEST=test_xinit FG_XINIT=all "$b/tests/test_prims" 2>&1)
line=$(sed -n 's/^# xinit: seed=.*(repeat with \(.*\))$/\1/p' <<<"$first")
r1=$(sed -n 's/^# xinit: fg_sram rdata_o at power-up \(0x[0-9a-f]*\).*/\1/p' <<<"$first")
r2=$(env $line FG_TEST=test_xinit FG_XINIT=all "$b/tests/test_prims" 2>&1 |
  sed -n 's/^# xinit: fg_sram rdata_o at power-up \(0x[0-9a-f]*\).*/\1/p')
echo "# no seed: $r1; again with '$line': $r2"
echo "# FG_XSEED=1: $a, FG_XSEED=2: $c, FG_XSEED=1 again: $a2, FG_XINIT=0: $z"
fail=0
ok() { if [ "$2" = 1 ]; then echo "ok $1 - $3"; else echo "not ok $1 - $3"; fail=1; fi; }
ok 1 "$([ -n "$a" ] && [ "$a" != 0x0 ] && [ "$a" != "$c" ] && echo 1)" "two seeds, two initial states"
ok 2 "$([ -n "$a" ] && [ "$a" = "$a2" ] && echo 1)" "the same seed, the same initial state"
ok 3 "$([ "$z" = 0x0 ] && echo 1)" "FG_XINIT=0: all zero"
ok 4 "$([ -n "$r1" ] && [ -n "$line" ] && [ "$r1" = "$r2" ] && echo 1)" "a printed repeat line repeats the initial state"
echo "1..4"
exit $fail
