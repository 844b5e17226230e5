# Coverage (docs/COVERAGE.md).  `make coverage` builds the
# COV=1 variant in build-cov/ (every verilated model with Verilator
# --coverage-line --coverage-toggle; Makefile: VLCOV), runs make test's
# programs and scripts there, each freed model writing its counts under
# build-cov/coverage/dat/, then scripts/coverage.py merges them with
# verilator_coverage into an lcov HTML report (build-cov/coverage/html/) and
# results/coverage.json per block.
#
# COV_GROUPS: a block = the RTL files it owns (a file counts wherever it was
# instantiated: the primitives in every block, every block in the FPGA top).
# The blocks' groups come from their manifests (cov_group, default the block;
# the primitives share one, prims): mk/blocks.mk, generated; the FPGA top's here.
COV_GROUPS += fpga_top=fpga/*.sv,fpga/gen/*.sv
# Tests that run no verilated model, left out of the coverage run: the lint
# check (Verilator --lint-only, Icarus, Yosys; ~14 min) and the sanitizer run
# (its own build-san/ models, not instrumented).
COV_SKIP   := scripts/check_lint.sh scripts/check_san.sh
# The FPGA top's host test is long under coverage (771 s on the loaded
# 2-core machine when the top held four 64-slot controllers, docs/COVERAGE.md),
# so the cov-run recipe below raises scripts/test_fpga_top.sh's limits
# The goals: a whole run fails when a block's line or
# toggle figure is under its goal (scripts/coverage.py --goal, one line per
# block and figure).  COV_ONLY runs a subset of the tests, whose figure may
# be below a whole run's by design (fpga_top's, docs/COVERAGE.md): not checked
COV_GOALS  := line=95 toggle=90
# COV_SHOW=block: also list that block's uncovered points
COV_SHOW   ?=
# COV_ONLY=block: measure one block cheaply while iterating (the lead runs the
# whole `make coverage`): builds only the models and programs that block's
# tests need, runs only those tests, reports only that block (coverage.py
# --only) and writes $(BUILD)/coverage/coverage.json, not results/.  Blocks
# that support it: the ones with COV_ONLY_<block>_BUILD / _TESTS below.
COV_ONLY   ?=
# fpga_top's files are instantiated only in the FPGA top (fpga_sim); here
# only test_fpga_top.sh runs it (the host-library test and LiteX), not
# test_fpga_replay.sh, whose traces come from system runs that need the
# whole build: the figure is below a whole run's (docs/COVERAGE.md)
COV_ONLY_fpga_top_BUILD := $(BUILD)/bin/fpga_sim $(BUILD)/tests/test_fpga_host
COV_ONLY_fpga_top_TESTS := scripts/test_fpga_top.sh
# edge_preempt: its own test program, whose random lockstep runs reach most
# of its points; the FPGA top's controllers and the system tests count in a
# whole run besides
COV_ONLY_edge_preempt_BUILD := $(BUILD)/tests/test_edge_preempt
COV_ONLY_edge_preempt_TESTS := $(BUILD)/tests/test_edge_preempt
ifeq ($(COV_ONLY),fpga_top)
# The host test runs the blocks' twins only (FG_IMPL_C; the shims'
# constructors are weak symbols, sim/harness/fg_block.h): linked without the
# verilated models, so COV_ONLY=fpga_top does not build every block's
# coverage model (most of a whole build-cov/).
$(BUILD)/tests/test_fpga_host: $(BUILD)/obj/tests/test_fpga_host.o $(BUILD)/libfg.a $(BUILD)/obj/shim/fg_shim.o \
                              $(VLBUILD)/vlrt/libvlrt.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $^ $(LDLIBS)
endif
ifeq ($(COV_ONLY),edge_preempt)
# linked with edge_preempt's models only (the other blocks' constructors are
# weak symbols, the test builds none of them): COV_ONLY=edge_preempt does not
# build every block's coverage model
$(BUILD)/tests/test_edge_preempt: $(BUILD)/obj/tests/test_edge_preempt.o $(BUILD)/libfg.a \
                                  $(BUILD)/obj/shim/edge_preempt_shim.o $(BUILD)/obj/shim/fg_shim.o \
                                  $(foreach m,edge_preempt $(addprefix edge_preempt_,$(edge_preempt_CONFIGS)),$(VLBUILD)/vl/$(m)/V$(m)__ALL.a) \
                                  $(VLBUILD)/vlrt/libvlrt.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $< -Wl,--start-group $(filter-out $<,$^) -Wl,--end-group $(LDLIBS)
endif

.PHONY: coverage cov-run
coverage:
	@$(MAKE) --no-print-directory COV=1 BUILD=build-cov cov-run
cov-run: $(BUILD)/.deps
	@test "$(COV)" = 1 || { echo "cov-run: use make coverage" >&2; exit 1; }
	@test -z "$(COV_ONLY)" -o -n "$(COV_ONLY_$(COV_ONLY)_TESTS)" || { echo "cov-run: COV_ONLY=$(COV_ONLY)" \
	  "not supported (blocks with COV_ONLY_<block>_TESTS in mk/cov.mk: fpga_top edge_preempt)" >&2; exit 1; }
	@rm -rf $(BUILD)/coverage && mkdir -p $(FG_COV_DAT)
	@$(MAKE) --no-print-directory -j$(JOBS) $(if $(COV_ONLY),$(COV_ONLY_$(COV_ONLY)_BUILD),build)
	@start=$$SECONDS; rc=0; \
	  FG_XINIT=0 FG_COV_DIR=$(FG_COV_DAT) FPGA_HOST_SECONDS=2700 FPGA_SIM_SECONDS=3000 \
	    scripts/run_tests.sh $(JOBS) $(if $(COV_ONLY), \
	    $(COV_ONLY_$(COV_ONLY)_TESTS),$(TEST_BINS) $(filter-out $(COV_SKIP),$(EXTRA_TEST_CMDS))) || rc=$$?; \
	  echo "coverage: test run $$((SECONDS - start)) s"; \
	  scripts/coverage.py --dat $(FG_COV_DAT) --out $(BUILD)/coverage \
	    --json $(if $(COV_ONLY),$(BUILD)/coverage/coverage.json --only $(COV_ONLY),results/coverage.json) \
	    --exclude tests/coverage_exclude.txt $(if $(COV_ONLY),,$(addprefix --goal ,$(COV_GOALS))) \
	    $(addprefix --show ,$(COV_SHOW)) $(foreach g,$(COV_GROUPS),'$(g)') || rc=1; \
	  exit $$rc
