# Sourced by the system-wave checks (check_sys_wave.sh, check_ring_wave.sh,
# check_early_wave.sh): wave_pair OUT FST WHAT PROG ARGS... runs PROG ARGS
# once with the blocks as verilated RTL and once as their C twins (--impl),
# tracing into $tmp/FST_<impl>.fst, its output in $tmp/OUT_<impl>.txt, and
# checks that GTKWave's save file names only signals the trace has
# (scripts/gtkw.py --check); a failure prints WHAT and exits the check.
wave_pair() {
    local out=$1 fst=$2 what=$3 prog=$4 impl rc
    shift 4
    for impl in rtl c; do
        "$prog" "$@" --impl "$impl" --wave "$tmp/${fst}_$impl.fst" >"$tmp/${out}_$impl.txt" 2>&1
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "FAIL ${prog##*/} --impl $impl --wave ($what): exit $rc"; cat "$tmp/${out}_$impl.txt"; exit 1
        fi
        scripts/gtkw.py --check "$tmp/${fst}_$impl.gtkw" || exit 1
    done
}
