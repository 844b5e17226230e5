# Benchmarks (issue 3, item 7): not tests; `make bench` builds and runs them.
# sim_speed times the launch-latency run with its RTL blocks as RTL, C
# twins and lockstep (simulated GPU cycles per wall second; docs/RESULTS.md).
PROGRAMS    += sim_speed
BENCH_STEPS += $(BUILD)/bin/sim_speed

.PHONY: bench
bench: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@set -e; $(foreach s,$(BENCH_STEPS),$(s);)
