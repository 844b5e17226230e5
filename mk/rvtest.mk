# RISC-V conformance: the official riscv-tests rv32ui, rv32um,
# rv32ua and rv32uf on the SIMT model, read where the suite is (never copied
# here), with this project's environment sw/rvtest/riscv_test.h, and run by
# tests/test_riscv_conformance.c by one thread and by a full warp
# (docs/SIMT.md, "Conformance").
#
#   RISCV_TESTS=DIR   the suite (default ../shared/riscv-tests beside the repo)
#
# Left out: rv32ui/fence_i (self-modifying code: the model keeps decoded
# instructions and has no Zifencei).  Without the suite the test run says that
# conformance was not checked and where to get it.
RISCV_TESTS   ?= $(abspath ../shared/riscv-tests)
RVTEST_SUITES := rv32ui rv32um rv32ua rv32uf
RVTEST_SKIP   := rv32ui/fence_i
RVTEST_SKIP_WHY_rv32ui/fence_i := self-modifying code: the model keeps decoded instructions and has no Zifencei
RVTEST_ALL    := $(patsubst $(RISCV_TESTS)/isa/%.S,%,\
                   $(foreach s,$(RVTEST_SUITES),$(sort $(wildcard $(RISCV_TESTS)/isa/$(s)/*.S))))
RVTEST_RUN    := $(filter-out $(RVTEST_SKIP),$(RVTEST_ALL))
RVTEST_ELFS   := $(patsubst %,$(BUILD)/rvtest/%.elf,$(RVTEST_RUN))
RVTEST_LIST   := $(BUILD)/rvtest/tests.list
RVTEST_FLAGS  := -march=rv32imaf_zicsr -mabi=ilp32f -mcmodel=medany -nostdlib -Isw/rvtest -Isim \
                 -I$(RISCV_TESTS)/isa/macros/scalar

$(BUILD)/rvtest/%.elf: $(RISCV_TESTS)/isa/%.S sw/rvtest/riscv_test.h sim/simt/simt_abi.h sw/crt/kernel.ld
	@mkdir -p $(dir $@)
	$(RV_CC) $(RVTEST_FLAGS) $(RV_LDFLAGS) -o $@ $<

# What the conformance test runs: "suite DIR" (or "absent DIR"), then one
# "run SUITE NAME" / "skip SUITE NAME REASON" line per test; rewritten only
# when it changes.
$(RVTEST_LIST): FORCE
	@mkdir -p $(dir $@)
	@{ if [ -d $(RISCV_TESTS)/isa ]; then echo "suite $(RISCV_TESTS)"; else echo "absent $(RISCV_TESTS)"; fi; \
	   $(foreach t,$(RVTEST_RUN),echo "run $(subst /, ,$(t))";) \
	   $(foreach t,$(filter $(RVTEST_SKIP),$(RVTEST_ALL)),echo "skip $(subst /, ,$(t)) $(RVTEST_SKIP_WHY_$(t))";) \
	 } > $@.tmp; cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

TESTS       += test_riscv_conformance
EXTRA_BUILD += $(RVTEST_ELFS) $(RVTEST_LIST)
