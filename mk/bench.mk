# Benchmarks: not tests; `make bench` builds and runs them.
# sim_speed times the launch-latency run with its RTL blocks as RTL, C
# twins and lockstep (simulated GPU cycles per wall second; docs/RESULTS.md).
PROGRAMS    += sim_speed
BENCH_STEPS += $(BUILD)/bin/sim_speed
# BENCH_STEPS: one word each (a program or script), as DEMO_STEPS: the recipe
# splits the list on spaces.
#
# Then this build against the commit the CM machine's speed work is measured
# from, built side by side under $(BUILD)/bench-base/src, into its own build/
# there, from a clean environment (BENCH_BASE; BENCH_ARGS=--no-base skips it):
# busy MM with 1 and N threads, the CM machine (cm_run --bench, and H2 beside
# MM, BFS and MUM), rtl / c (results/sim_speed.json "compare",
# docs/RESULTS.md "Simulation speed").  It takes arguments: its own line.
BENCH_BASE  ?= ac41b50
.PHONY: bench
bench: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@set -e; $(foreach s,$(BENCH_STEPS),$(s);)
	@BUILD=$(abspath $(BUILD)) python3 scripts/bench_speed.py --base $(BENCH_BASE) $(BENCH_ARGS)
# mem_bench: streaming copy, pointer chase against the
# modelled stages, latency under load; results/mem_bench.json and, through
# scripts/figures.py, results/mem_latency_load.png.
# first_touch: what a fresh output's pages cost this host's vectorAdd, the
# measurement behind F/E Fig. 12's [fe] cpu_first_touch_ns (docs/FE_E2E.md).
PROGRAMS    += first_touch
BENCH_STEPS += $(BUILD)/bin/first_touch
PROGRAMS    += mem_bench
BENCH_STEPS += $(BUILD)/bin/mem_bench scripts/mem_bench_cm.sh scripts/mem_bench_plot.sh
EXTRA_TEST_CMDS += scripts/check_mem_bench.sh
# the base build leaves this build alone; the step lists hold one command per word
EXTRA_TEST_CMDS += tests/bench/test_bench.py
RESULTS_STEPS += $(BUILD)/bin/mem_bench scripts/mem_bench_cm.sh
