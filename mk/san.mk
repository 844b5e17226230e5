# Sanitizers: `make <target> SAN=1` builds into build-san/
# with AddressSanitizer + UndefinedBehaviorSanitizer on every C and C++ file
# we compile (Makefile: SANFLAGS).  `make test` runs SAN_TESTS that way
# through scripts/check_san.sh (random lockstep runs shortened by FG_CYCLES).
SAN_TESTS := test_prims test_edge_ekt test_edge_doorbell test_edge_pewt test_edge_preempt \
             test_fe_sched_queues test_cm_bal_monitor test_rv32_exec test_simt test_simt_mem \
             test_mem test_mem_dram test_elf_load test_fg_run
EXTRA_TEST_CMDS += scripts/check_san.sh

.PHONY: san-tests
san-tests: $(BUILD)/.deps $(addprefix $(BUILD)/tests/,$(SAN_TESTS)) $(BUILD)/bin/fg_run \
           $(FUZZ_REPLAY)
