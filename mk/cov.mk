# Coverage (issue 15 item 2; docs/COVERAGE.md).  `make coverage` builds the
# COV=1 variant in build-cov/ (every verilated model with Verilator
# --coverage-line --coverage-toggle; Makefile: VLCOV), runs make test's
# programs and scripts there, each freed model writing its counts under
# build-cov/coverage/dat/, then scripts/coverage.py merges them with
# verilator_coverage into an lcov HTML report (build-cov/coverage/html/) and
# results/coverage.json per block.
#
# COV_GROUPS: a block = the RTL files it owns (a file counts wherever it was
# instantiated: the primitives in every block, every block in the FPGA top).
COV_GROUPS := edge_doorbell=rtl/edge/edge_doorbell.sv edge_ekt=rtl/edge/edge_ekt.sv \
              edge_pewt=rtl/edge/edge_pewt.sv edge_preempt=rtl/edge/edge_preempt.sv,rtl/edge/edge_preempt_timer.sv \
              fe_sched_queues=rtl/fe/*.sv cm_bal_monitor=rtl/cm/*.sv prims=rtl/prim/*.sv \
              fpga_top=fpga/*.sv,fpga/gen/*.sv
# Tests that run no verilated model, left out of the coverage run: the lint
# check (Verilator --lint-only, Icarus, Yosys; ~14 min) and the sanitizer run
# (its own build-san/ models, not instrumented).
COV_SKIP   := scripts/check_lint.sh scripts/check_san.sh
# COV_SHOW=block: also list that block's uncovered points
COV_SHOW   ?=

.PHONY: coverage cov-run
coverage:
	@$(MAKE) --no-print-directory COV=1 BUILD=build-cov cov-run
cov-run: $(BUILD)/.deps
	@test "$(COV)" = 1 || { echo "cov-run: use make coverage" >&2; exit 1; }
	@rm -rf $(BUILD)/coverage && mkdir -p $(FG_COV_DAT)
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@start=$$SECONDS; rc=0; \
	  FG_XINIT=0 FG_COV_DIR=$(FG_COV_DAT) scripts/run_tests.sh $(JOBS) $(TEST_BINS) \
	    $(filter-out $(COV_SKIP),$(EXTRA_TEST_CMDS)) || rc=$$?; \
	  echo "coverage: test run $$((SECONDS - start)) s"; \
	  scripts/coverage.py --dat $(FG_COV_DAT) --out $(BUILD)/coverage --json results/coverage.json \
	    --exclude tests/coverage_exclude.txt \
	    $(addprefix --show ,$(COV_SHOW)) $(foreach g,$(COV_GROUPS),'$(g)') || rc=1; \
	  exit $$rc
