# Sourced by the tests that drive a verilated FPGA top over TCP
# (test_fpga_top.sh, test_fpga_replay.sh, test_fpga_simt.sh).
#
# fpga_sim_start BIN LOG SECONDS: starts BIN (build/bin/fpga_sim or
# fpga_simt_sim) on a free local port, stopping itself after SECONDS, its
# output into LOG; sets FPGA_SIM_PID and FPGA_SIM_PORT and installs an EXIT
# trap that stops it (resumed first, should a test have stopped it).
# Returns 1 when it did not start (LOG says why).
fpga_sim_start() {
  local portf
  portf=$(mktemp) && rm -f "$portf"
  "$1" --port 0 --port-file "$portf" --max-seconds "$3" >"$2" 2>&1 &
  FPGA_SIM_PID=$!
  trap 'kill -CONT "$FPGA_SIM_PID" 2>/dev/null; kill "$FPGA_SIM_PID" 2>/dev/null; wait "$FPGA_SIM_PID" 2>/dev/null' EXIT
  for _ in $(seq 100); do [ -s "$portf" ] && break; kill -0 "$FPGA_SIM_PID" 2>/dev/null || break; sleep 0.1; done
  FPGA_SIM_PORT=$(cat "$portf" 2>/dev/null)
  rm -f "$portf"
  [ -n "$FPGA_SIM_PORT" ]
}
