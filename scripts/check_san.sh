#!/usr/bin/env bash
# Test: the block, memory and SIMT tests (mk/san.mk
# SAN_TESTS) built with AddressSanitizer + UBSan (make SAN=1, in
# build-san/) and run with random lockstep shortened to FG_CYCLES; any
# sanitizer report fails that test.  TAP: one line per test program.
set -u
vl=${BUILD:-build}
san=${SAN_BUILD:-build-san}
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:halt_on_error=1
export LSAN_OPTIONS=suppressions=$(pwd)/scripts/lsan.supp:print_suppressions=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
mkdir -p "$san"
if ! make --no-print-directory -j"${JOBS:-2}" SAN=1 BUILD="$san" VLBUILD="$vl" san-tests >"$san/make.log" 2>&1; then
  tail -30 "$san/make.log"; echo "not ok 1 - make SAN=1 san-tests failed (log: $san/make.log)"; exit 1
fi
# the kernels are not instrumented: the plain build's (tb_kernel_path: $BUILD/sw)
ln -sfn "$(cd "$vl" && pwd)/sw" "$san/sw"
tests=$(make --no-print-directory -s -f Makefile -f - print-san-tests <<<'print-san-tests: ; @echo $(SAN_TESTS)')
n=0 fail=0
for t in $tests; do
  n=$((n + 1))
  log="$san/test-logs/san_$t.log"
  mkdir -p "$san/test-logs"
  if BUILD="$san" FG_CYCLES=${SAN_CYCLES:-100000} CMOCKA_MESSAGE_OUTPUT=TAP "$san/tests/$t" >"$log" 2>&1 \
     && ! grep -qE "ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer" "$log"; then
    echo "ok $n - $t under ASan+UBSan"
  else
    fail=1
    grep -m5 -E "ERROR: |runtime error:|^not ok" "$log" | sed 's/^/# /'
    echo "not ok $n - $t under ASan+UBSan (log: $log)"
  fi
done
# the fuzz corpora (mk/fuzz.mk) through the sanitizer build of the same
# replay script make test runs plain; a sanitizer report exits non-zero
while IFS= read -r line; do
  case $line in
    "ok "* | "not ok "*)
      n=$((n + 1)) st=ok
      [ "${line#not ok}" != "$line" ] && st="not ok" && fail=1
      echo "$st $n - ${line#* - } under ASan+UBSan";;
    "#"*) echo "$line";;
  esac
done < <(BUILD="$san" scripts/check_fuzz_corpus.sh)
echo "1..$n"
exit $fail
