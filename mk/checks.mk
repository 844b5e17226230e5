# Whole-project checks that make test runs as tests (one each).
EXTRA_TEST_CMDS += scripts/check_lint.sh scripts/check_waves.sh scripts/check_sys_wave.sh scripts/check_ring_wave.sh scripts/check_early_wave.sh scripts/check_run_wave.sh scripts/check_idle_skip.sh
# bad numbers / overrides / test names refused everywhere; formal.py retries a tool killed by a signal
EXTRA_TEST_CMDS += scripts/check_options.sh scripts/check_yowasp_retry.sh
# make fpga-depth's estimator against delays worked out by hand
EXTRA_TEST_CMDS += scripts/check_logic_depth.sh
# make fpga-units' per-unit counts against a design counted by hand
EXTRA_TEST_CMDS += scripts/check_netlist_units.sh
# the GPU's threads change no result (docs/SIMT.md "Threads")
EXTRA_TEST_CMDS += scripts/check_threads.sh
# the SIMT cores' compact scheduling view agrees with the warps every cycle ($FG_CHECK_VIEW)
EXTRA_TEST_CMDS += scripts/check_sim_view.sh
# make test's and make demo's runners print each test / step as it finishes
EXTRA_TEST_CMDS += tests/runner/test_run_tests.py
