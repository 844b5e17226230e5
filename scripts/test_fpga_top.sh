#!/usr/bin/env bash
# make test: the host library and LiteX against the verilated FPGA top.
# Starts build/bin/fpga_sim on a free local port, runs the host-library test
# (build/tests/test_fpga_host, TAP: every value checked against the C twins),
# then litex_server + RemoteClient (scripts/litex_check.py, one TAP line).
# Bounded: the simulator stops itself after FPGA_SIM_SECONDS and is always
# killed on exit.  The host test moves about 11 M cycles of UART traffic (the
# register-map walk half of it): ~35 s on an idle machine with 16-slot
# controllers, 164 s in a loaded `make test` with the 64-slot ones; 771 s
# under a loaded `make coverage` (its top is several times slower), which sets
# FPGA_HOST_SECONDS and FPGA_SIM_SECONDS higher (mk/cov.mk).
set -u
cd "$(dirname "$0")/.."
B=${BUILD:-build}
mkdir -p "$B/test-logs"
simlog=$B/test-logs/fpga_sim.log
. scripts/fpga_sim_lib.sh
if ! fpga_sim_start "$B/bin/fpga_sim" "$simlog" "${FPGA_SIM_SECONDS:-1000}"; then
  echo "not ok 1 - fpga_sim did not start"; cat "$simlog"; exit 1
fi
port=$FPGA_SIM_PORT
echo "# fpga_sim on 127.0.0.1:$port"
rc=0
FG_FPGA=tcp:127.0.0.1:$port CMOCKA_MESSAGE_OUTPUT=TAP timeout "${FPGA_HOST_SECONDS:-900}" "$B/tests/test_fpga_host" || rc=1
timeout 120 scripts/litex_check.py --uart-port "socket://127.0.0.1:$port" --tap 6 || rc=1
kill -0 "$FPGA_SIM_PID" 2>/dev/null || { echo "# fpga_sim died:"; tail -5 "$simlog"; rc=1; }
exit $rc
