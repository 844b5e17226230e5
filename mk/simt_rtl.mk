# The RTL SIMT core (rtl/simt/, docs/SIMT_RTL.md) and its retire lockstep
# against the C model's architecture (tests/test_simt_rtl.c, tb/simt/).
#
# The core is verilated here, once per configuration, with the flags of the
# project's other models (Makefile MODEL_RULES: -Wall, --assert, FST,
# randomized initial state); the test links only these models, its test
# bench, the C model's decoder and executor and the harness pieces it calls,
# not the project's library and the other blocks' models.  Not in BLOCKS:
# that needs a manifest (rtl/simt/simt_core.toml) and 64-bit ports, and
# rvfi_data_o is wider.  The core instantiates the FIFO primitive, hence
# rtl/prim/fg_fifo.sv after rtl/simt/.
SIMT_RTL_SRCS    := rtl/edge/edge_pkg.sv rtl/simt/simt_pkg.sv \
                    $(filter-out rtl/simt/simt_pkg.sv rtl/simt/simt_edge_core.sv,$(sort $(wildcard rtl/simt/*.sv))) \
                    rtl/prim/fg_fifo.sv
# the core with EDGE's PEWT and preemption controller (rtl/simt/simt_edge_core.sv)
SIMT_EDGE_SRCS   := $(SIMT_RTL_SRCS) rtl/edge/edge_pewt.sv rtl/edge/edge_preempt_timer.sv \
                    rtl/edge/edge_preempt_age.sv rtl/edge/edge_preempt.sv rtl/simt/simt_edge_core.sv
# the core alone (default, odd) and with EDGE (edge, edge_odd: the same parameters)
SIMT_RTL_CONFIGS := default odd edge edge_odd
SIMT_RTL_CORE_CONFIGS := default odd
# every configuration names all five (the shim's -DSIMT_P_<config>_<NAME>)
SIMT_RTL_P_default  := NW=8 NL=8 GTO=1 STACK_BYTES=1024 CORE_ID=0
SIMT_RTL_P_odd      := NW=3 NL=4 GTO=0 STACK_BYTES=512 CORE_ID=5
SIMT_RTL_P_edge     := $(SIMT_RTL_P_default)
SIMT_RTL_P_edge_odd := $(SIMT_RTL_P_odd)
SIMT_RTL_MODEL_default  := simt_core
SIMT_RTL_MODEL_odd      := simt_core_odd
SIMT_RTL_MODEL_edge     := simt_edge_core
SIMT_RTL_MODEL_edge_odd := simt_edge_core_odd
$(foreach c,default odd,$(eval SIMT_RTL_TOP_$(c) := simt_core)$(eval SIMT_RTL_SRC_$(c) := $$(SIMT_RTL_SRCS)))
$(foreach c,edge edge_odd,$(eval SIMT_RTL_TOP_$(c) := simt_edge_core)$(eval SIMT_RTL_SRC_$(c) := $$(SIMT_EDGE_SRCS)))
SIMT_RTL_VL   = $(VLBUILD)/vl/tb_$(SIMT_RTL_MODEL_$(1))
SIMT_RTL_LIBS := $(foreach c,$(SIMT_RTL_CONFIGS),$(call SIMT_RTL_VL,$(c))/V$(SIMT_RTL_MODEL_$(c))__ALL.a)

# $(1) = configuration
define SIMT_RTL_MODEL_RULE
$(call SIMT_RTL_VL,$(1))/V$(SIMT_RTL_MODEL_$(1))__ALL.a: $$(SIMT_RTL_SRC_$(1)) $$(wildcard rtl/include/*.svh) \
    $(VLBUILD)/vl/vlflags.txt mk/simt_rtl.mk | $(BUILD)/.deps
	@rm -rf $$(@D) && mkdir -p $$(@D)
	$$(VERILATOR) --cc $$(VL_WFLAGS) --assert --trace-fst $$(VL_XFLAGS) -O3 $$(VLCOV) \
	  --top-module $(SIMT_RTL_TOP_$(1)) --prefix V$(SIMT_RTL_MODEL_$(1)) -Mdir $$(@D) \
	  $$(addprefix -G,$$(SIMT_RTL_P_$(1))) -Irtl/include $$(SIMT_RTL_SRC_$(1))
	$$(MAKE) -s -C $$(@D) -f V$(SIMT_RTL_MODEL_$(1)).mk V$(SIMT_RTL_MODEL_$(1))__ALL.a \
	  $$(call VL_MODEL_CXXOPT,tb_$(SIMT_RTL_MODEL_$(1))) CXX=$$(CXX) >/dev/null
endef
$(foreach c,$(SIMT_RTL_CONFIGS),$(eval $(call SIMT_RTL_MODEL_RULE,$(c))))

SIMT_TB_C    := tb/simt/simt_asm.c tb/simt/simt_tbmem.c tb/simt/simt_ref.c tb/simt/simt_elf.c \
                tb/simt/simt_lockstep.c tb/simt/simt_rand.c
SIMT_TB_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(SIMT_TB_C)) $(BUILD)/obj/tb/simt/simt_rtl_shim.o
$(BUILD)/obj/tb/simt/%.o: CFLAGS += -Itb/simt
$(BUILD)/obj/tests/test_simt_rtl.o: CFLAGS += -Itb/simt
$(BUILD)/obj/tb/simt/simt_rtl_shim.o: tb/simt/simt_rtl_shim.cpp $(SIMT_RTL_LIBS) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -Itb/simt $(foreach c,$(SIMT_RTL_CONFIGS),-isystem $(call SIMT_RTL_VL,$(c)) \
	  $(addprefix -DSIMT_P_$(c)_,$(SIMT_RTL_P_$(c)))) -c $< -o $@

# what the test calls of the rest of the project: the C model's decoder and
# executor (rv32_exec needs the F unit's entry points), the harness's
# environment helpers, the model wrapper, cmocka's test filter
SIMT_RTL_SIM_OBJS := $(addprefix $(BUILD)/obj/,sim/simt/rv32_decode.o sim/simt/rv32_exec.o sim/simt/rv32_fp.o \
                       sim/harness/fg_util.o tb/fg_tb_filter.o) $(BUILD)/obj/shim/fg_shim.o

# Test kernels in C: tb/simt/kernels/<name>.c -> $(BUILD)/tb/simt/<name>.elf, built as sw/kernels are (mk/simt.mk).
SIMT_RTL_KERNELS := $(patsubst tb/simt/kernels/%.c,$(BUILD)/tb/simt/%.elf,$(wildcard tb/simt/kernels/*.c))
$(BUILD)/tb/simt/%.elf: tb/simt/kernels/%.c $(RV_CRT) sw/crt/kernel.ld $(wildcard sw/include/*.h)
	@mkdir -p $(dir $@)
	$(RV_CC) $(RV_CFLAGS) $(RV_LDFLAGS) -o $@ $(RV_CRT) $<

# riscv-tests rv32ui, rv32um and rv32ua (mk/rvtest.mk), which the test runs in lockstep
SIMT_RTL_RVTESTS := $(filter $(BUILD)/rvtest/rv32ui/% $(BUILD)/rvtest/rv32um/% $(BUILD)/rvtest/rv32ua/%,$(RVTEST_ELFS)) \
                    $(RVTEST_LIST)

$(BUILD)/tests/test_simt_rtl: $(BUILD)/obj/tests/test_simt_rtl.o $(SIMT_TB_OBJS) $(SIMT_RTL_SIM_OBJS) $(SIMT_RTL_LIBS) \
                              $(VLBUILD)/vlrt/libvlrt.a | $(SIMT_RTL_KERNELS) $(SIMT_RTL_RVTESTS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $(filter %.o,$^) $(SIMT_RTL_LIBS) $(VLBUILD)/vlrt/libvlrt.a $(LDLIBS)

# (not in SOAK_TESTS: a soak runs the whole program per seed; soak the random
# part with FG_TEST='*random*' FG_SEED=<n>)
TESTS += test_simt_rtl

# the core with EDGE's PEWT and preemption controller (tests/test_simt_rtl_edge.c)
$(BUILD)/obj/tests/test_simt_rtl_edge.o: CFLAGS += -Itb/simt
$(BUILD)/tests/test_simt_rtl_edge: $(BUILD)/obj/tests/test_simt_rtl_edge.o $(SIMT_TB_OBJS) $(SIMT_RTL_SIM_OBJS) \
                                   $(SIMT_RTL_LIBS) $(VLBUILD)/vlrt/libvlrt.a
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $(filter %.o,$^) $(SIMT_RTL_LIBS) $(VLBUILD)/vlrt/libvlrt.a $(LDLIBS)
TESTS += test_simt_rtl_edge

# The core in Icarus, 4-state: runs test_simt_rtl records, replayed by
# tb/simt/simt_core_tb.sv in each configuration, events and final memory
# compared byte for byte (about 45 s).  make coverage: the recording runs
# repeat what test_simt_rtl counts.
EXTRA_TEST_CMDS += scripts/check_simt_icarus.sh
COV_SKIP        += scripts/check_simt_icarus.sh

# make lint: Verilator -Wall, Icarus and Yosys on the core at its defaults
LINT_TOPS      += simt_core simt_edge_core
simt_core_TOP  := simt_core
simt_core_SRCS := $(SIMT_RTL_SRCS)
simt_edge_core_TOP  := simt_edge_core
simt_edge_core_SRCS := $(SIMT_EDGE_SRCS)
