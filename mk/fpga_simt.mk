# The SIMT top for the ULX3S (fpga/finegrain_simt_ulx3s.sv, docs/FPGA.md
# "SIMT top"): the RTL SIMT core with its PEWT and preemption controller fed
# by the doorbell and the EKT, its kernels and data in block RAM.  Verilated
# with the blocks top's C UART model on a TCP port (build/bin/fpga_simt_sim,
# the same main as fpga_sim), driven by `fg_host WHERE run-events`
# (scripts/test_fpga_simt.sh in make test).

FPGA_SIMT_RTL := $(shell cat fpga/simt_top.f)
FPGA_SIMT_VL  := $(BUILD)/vl/fpga_simt

EXTRA_BUILD     += $(BUILD)/bin/fpga_simt_sim $(BUILD)/tests/test_fpga_simt
EXTRA_TEST_CMDS += scripts/test_fpga_simt.sh

$(FPGA_SIMT_VL)/Vfinegrain_simt_ulx3s__ALL.a: $(FPGA_SIMT_RTL) fpga/simt_top.vlt $(wildcard rtl/include/*.svh) \
                                              mk/fpga_simt.mk mk/fpga_top.mk $(VLBUILD)/vl/vlflags.txt | $(BUILD)/.deps
	@rm -rf $(FPGA_SIMT_VL) && mkdir -p $(FPGA_SIMT_VL)
	$(VERILATOR) --cc -Wall --assert --trace-fst --x-assign 0 --x-initial 0 -O3 $(VLCOV) \
	  --top-module finegrain_simt_ulx3s -Mdir $(FPGA_SIMT_VL) -GBAUD=$(FPGA_SIM_BAUD) -Irtl/include \
	  fpga/simt_top.vlt $(FPGA_SIMT_RTL)
	$(MAKE) -s -C $(FPGA_SIMT_VL) -f Vfinegrain_simt_ulx3s.mk Vfinegrain_simt_ulx3s__ALL.a \
	  $(call VL_MODEL_CXXOPT,fpga_simt) CXX=$(CXX) >/dev/null
$(BUILD)/obj/fpga/sim/fg_simt_top_model.o: fpga/sim/fg_top_model.cpp $(FPGA_SIMT_VL)/Vfinegrain_simt_ulx3s__ALL.a
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -DFG_VTOP=Vfinegrain_simt_ulx3s -Ifpga/sim -isystem $(FPGA_SIMT_VL) -c $< -o $@
$(BUILD)/bin/fpga_simt_sim: $(BUILD)/obj/fpga/sim/fpga_sim_main.o $(BUILD)/obj/fpga/sim/fg_simt_top_model.o \
                            $(FPGA_SIMT_VL)/Vfinegrain_simt_ulx3s__ALL.a $(BUILD)/vlrt/libvlrt.a \
                            $(BUILD)/obj/sim/harness/fg_util.o
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ -lz -lpthread

# make fpga FPGA_TOP=simt: the SIMT top through `make fpga`'s flow
# (scripts/fpga_top.py: Yosys synth_ecp5, nextpnr-ecp5, ecppack) at
# FPGA_SIMT_MHZ, into build/fpga/finegrain_simt_ulx3s.bit, results/fpga.json
# simt_top.* and simt_top_seeds.*, and each seed's figures into the
# committed record fpga/simt_timing.json.
FPGA_SIMT_MHZ ?= 50
.PHONY: fpga-simt fpga-depth fpga-units
fpga-simt: $(BUILD)/.deps
	@fpga/regmap.py --check
	@FPGA_TOP_MODULE=finegrain_simt_ulx3s FPGA_TOP_KEY=simt_top \
	  FPGA_TOP_RECORD=$${FPGA_TOP_RECORD-fpga/simt_timing.json} FPGA_SYNTH_FLAGS="$(FPGA_TOP_SYNTH)" \
	  scripts/fpga_top.py --mhz $(FPGA_SIMT_MHZ) $(FPGA_SIMT_RTL)

# The top FPGA_TOP names, for the two steps below: how fpga_top.py is
# called for it (its module and key), its design clock and its sources.
ifeq ($(FPGA_TOP),simt)
FPGA_SEL = FPGA_TOP_MODULE=finegrain_simt_ulx3s FPGA_TOP_KEY=simt_top FPGA_SYNTH_FLAGS="$(FPGA_TOP_SYNTH)" \
           scripts/fpga_top.py --mhz $(FPGA_SIMT_MHZ) $(FPGA_SIMT_RTL)
else
FPGA_SEL = FPGA_SYNTH_FLAGS="$(FPGA_TOP_SYNTH)" scripts/fpga_top.py --mhz $(FPGA_TOP_MHZ) $(FPGA_TOP_RTL)
endif

# make fpga-depth [FPGA_TOP=simt]: the top synthesized as make fpga does it
# (or its netlist reused) and its long paths estimated in seconds
# (scripts/logic_depth.py), no place and route
fpga-depth: $(BUILD)/.deps
	@$(FPGA_SEL) --depth

# make fpga-units [FPGA_TOP=simt]: the top synthesized with its hierarchy
# kept and each unit's LUT4, flip-flops, DP16KD and MULT18X18D into
# results/fpga.json (simt_top_units or top_units; scripts/netlist_units.py)
fpga-units: $(BUILD)/.deps
	@$(FPGA_SEL) --units
