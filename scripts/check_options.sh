#!/usr/bin/env bash
# Test: bad numbers, overrides and test names are refused by every program
# (docs/ARCHITECTURE.md "Options and numbers"): exit status != 0, exactly one
# line on stderr naming the problem, and no result file written.  TAP.
set -u
b=${BUILD:-build}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
out=$tmp/out.json
n=0 fail=0
# refused WANT CMD...: WANT is a text the one stderr line must hold; a
# program of $b/bin names itself by its short name ("fg_run: ...")
refused() {
  local want=$1; shift
  n=$((n + 1)); rm -f "$out"
  timeout 120 "$@" >"$tmp/stdout" 2>"$tmp/stderr"; local rc=$?
  local lines; lines=$(grep -v '^usage: ' "$tmp/stderr" | grep -c .)  # (argparse: its usage line too)
  local name=ok; case $1 in "$P"/*) grep -q "^${1##*/}: " "$tmp/stderr" || name="not '${1##*/}: ...'";; esac
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] && [ "$lines" = 1 ] && grep -qF -- "$want" "$tmp/stderr" && [ ! -e "$out" ] \
     && [ "$name" = ok ]; then
    echo "ok $n - ${*#$b/} : $(grep -v '^usage: ' "$tmp/stderr" | cut -c1-160)"
  else
    echo "not ok $n - ${*#$b/} (exit $rc, $lines stderr line(s), result file $([ -e "$out" ] && echo written || echo absent), name $name; wanted '$want')"
    sed 's/^/#   /' "$tmp/stderr" | head -5; fail=1
  fi
}
W="expected a whole number"
P=$b/bin
refused "--cycles '1e6': $W"        $P/cm_run --cycles 1e6 --out "$out"
refused "--seed '12abc'"            $P/cm_run --seed 12abc --out "$out"
refused "does not read section [cmx]" $P/cm_run --set cmx.a=1 --gpu none --out "$out"
refused "--cycles '2e4'"            $P/mesh_load --cycles 2e4 --out "$out"
refused "--size 'abc'"              $P/fe_fig11 --size abc --out "$out"
refused "--seed '-1'"               $P/fe_fig11 --seed -1 --out "$out"
refused "--sizes 'abc'"             $P/fe_fig12 --sizes 1024,abc --out "$out"
refused "--events 'abc'"            $P/launch_latency --events abc --out "$out"
refused "give a file name ending in .fst" $P/launch_latency --wave "$tmp/x.vcd" --out "$out"
refused "KIND one of ring, preempt, nack, limit" $P/edge_fig13 --point --wave "$tmp/x.fst" --wave-at nak:1 --out "$out"
refused "--wave-at's N 0: outside [1," $P/fe_fig11 --wave "$tmp/x.fst" --wave-at nack:0 --out "$out"
refused "--wave traces one run: give --point" $P/preemption_latency --wave "$tmp/x.fst" --out "$out"
refused "--wave-at shapes a waveform: give --wave FILE.fst too" $P/preemption_latency --point --wave-at preempt:3 --out "$out"
refused "--wave-span shapes a waveform: give --wave" $P/fg_run --kernel "$b/sw/saxpy.elf" --wave-span 100
refused "--jobs 'x'"                $P/preemption_latency --jobs x --out "$out"
refused "does not read section [preemt] (it reads [gpu]" $P/preemption_latency --set preemt.enable=0 --out "$out"
refused "does not read section [gpux]" $P/preemption_latency --set gpux.num_cores=4 --out "$out"
refused "reads no key enabel in [preempt]" $P/preemption_latency --set preempt.enabel=0 --out "$out"
refused "num_cores = '010': a decimal with a leading zero" $P/preemption_latency --set gpu.num_cores=010 --out "$out"
refused "l1_bytes = 1000: must be a power of two" $P/preemption_latency --set gpu.l1_bytes=1000 --out "$out"
refused "does not read section [preemt]" $P/edge_fig12 --set preemt.enable=0 --point --out "$out"
refused "does not read section [gpux]"   $P/edge_fig13 --set gpux.num_cores=4 --point --out "$out"
refused "[gpu] atomics = 'l2' is not one of: issue memory" $P/edge_fig13 --set gpu.atomics=l2 --point --out "$out"
refused "[preempt] drain = 'sm' is not one of: gpu core" $P/edge_fig13 --set preempt.drain=sm --point --out "$out"
refused "event_fetch_priority"      $P/edge_fig13 --set preempt.event_fetch_priority=maybe --point --out "$out"
refused "reads no key low_gap in [edge_fig13]" $P/edge_fig13 --set edge_fig13.low_gap=1000 --point --out "$out"
refused "memc_high_gap"             $P/edge_fig13 --set edge_fig13.memc_high_gap=0 --point --out "$out"
refused "warm_events"               $P/edge_fig13 --set edge_fig13.warm_events=x --point --out "$out"
refused "does not read section [preemt]" $P/launch_latency --set preemt.enable=0 --out "$out"
refused "[nic] ring = 'fast' is not one of" $P/launch_latency --point --set nic.ring=fast --out "$out"
refused "[nic] doorbell = 'soon' is not one of" $P/launch_latency --point --set nic.doorbell=soon --out "$out"
refused "[nic] doorbell = early needs [nic] ring = sync" $P/launch_latency --point --set nic.doorbell=early --out "$out"
refused "does not read section [preemt]" $P/fe_fig11 --set preemt.enable=0 --out "$out"
refused "does not read section [preemt]" $P/fe_fig12 --set preemt.enable=0 --out "$out"
refused "does not read section [gpux]"   $P/mem_bench --set gpux.num_cores=4 --out "$out"
refused "clock_mhz = 'fast'"             $P/mem_bench --set gpu.clock_mhz=fast --out "$out"
refused "--lat '3x'"                $P/cpu_char --lat 3x --out "$out"
refused "--intervals '0x'"          $P/cm_demo --intervals 0x
refused "--events '1e3'"            $P/sim_speed --events 1e3 --out "$out"
refused "--max-seconds"             $P/fg_run --kernel "$b/sw/vecadd.elf" --max-seconds 1h
refused "--grid 4,010: expected"     $P/fg_run --kernel "$b/sw/vecadd.elf" --grid 4,010
refused "--block 1e3: expected"     $P/fg_run --kernel "$b/sw/vecadd.elf" --block 1e3
refused "t_diag.elf has 8 kernel entries (t_overrun, t_underrun," $P/fg_run --kernel "$b/sw/t_diag.elf"
refused "--after-window 'later'"    $P/cm_run --after-window later --out "$out"
refused "reads no key t_hgh in [cmbal]" scripts/cm_point.py --set run.mix=H2 --set cmbal.t_hgh=1 --check-config
refused "VALUE 'hello': $W"         $P/fg_host tcp:127.0.0.1:9 write 0x18 hello
refused "ADDR '0x18z'"              $P/fg_host tcp:127.0.0.1:9 read 0x18z
refused "N 0: outside"                  $P/fg_host tcp:127.0.0.1:9 read 0x18 0
refused "tcp: PORT 'http'"          $P/fg_host tcp:127.0.0.1:http id
refused "--port '8o'"               $P/fpga_sim --port 8o
refused "fpga_sim: unknown option --bogus" $P/fpga_sim --bogus
refused "FG_CYCLES '1e6'"           env FG_CYCLES=1e6 FG_TEST='*random*' "$b/tests/test_prims"
refused "FG_SEED '12x'"             env FG_SEED=12x "$b/tests/test_prims"
refused "FG_XSEED '0x'"             env FG_XSEED=0x "$b/tests/test_prims"
refused "FG_XSEED '0x'"             env FG_XINIT=0 FG_XSEED=0x "$b/tests/test_prims"
refused "FG_TEST=test_fifo_rnadom matches none" env FG_TEST=test_fifo_rnadom "$b/tests/test_prims"
refused "FG_TEST=nosuch matches none" env FG_TEST=nosuch "$b/tests/test_simt"
refused "CYCLES '2e8'"              env SOAK_CYCLES=2e8 scripts/soak.sh --check 2
refused "SOAK_SEEDS '010'"          env SOAK_SEEDS=010 scripts/soak.sh --check 2
refused "-j: '1e6'"                 scripts/formal.py -j 1e6 --out "$out"
refused "FPGA_SEEDS 'x'"            env FPGA_SEEDS=x FPGA_JSON="$out" python3 scripts/fpga_ooc.py
refused "--mhz: 'fast'"             python3 scripts/fpga_top.py --mhz fast x.sv
refused "threads = 'abc'"           $P/cm_run --threads abc --gpu none --out "$out"
refused "threads = 999: outside"    $P/preemption_latency --point --size test --kernels mm --threads 999 --out "$out"
refused "FG_THREADS 'zz'"           env FG_THREADS=zz $P/launch_latency --point --events 2 --out "$out"
# a config file that sets nothing the program reads would run on the built-in defaults
: >"$tmp/empty.ini"
E="empty.ini sets nothing this program reads"
refused "$E (the file's sections: none; it reads [gpu]" $P/fg_run --kernel "$b/sw/saxpy.elf" --entry saxpy --config "$tmp/empty.ini"
refused "$E"                        $P/preemption_latency --config "$tmp/empty.ini" --point --out "$out"
refused "$E"                        $P/edge_fig13 --config "$tmp/empty.ini" --point --out "$out"
refused "$E"                        $P/cm_run --config "$tmp/empty.ini" --out "$out"
# a syntax error says where and what
printf '[gpu]\nnum_cores = 2\nl1_bytes 4096\n' >"$tmp/bad.ini"
refused "bad.ini:3: syntax error: expected key = value, [section] or a ; comment: 'l1_bytes 4096'" \
  $P/preemption_latency --config "$tmp/bad.ini" --point --out "$out"
echo "1..$n"
exit $fail
