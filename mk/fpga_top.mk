# FPGA top for the ULX3S (docs/FPGA.md): the register map
# (fpga/regmap.py -> fpga/gen/), the top's RTL (fpga/), the host library
# (fpga/host/), the verilated top with a C UART model on a TCP port
# (build/bin/fpga_sim), the host-library and LiteX tests against it, and the
# top's part of `make fpga` (scripts/fpga_top.py -> results/fpga.json top.*).

# The top's RTL, the blocks' files included: fpga/top.f, one list for
# Verilator, Icarus, Yosys, the flow and the checks.
FPGA_TOP_RTL := $(shell cat fpga/top.f)

# Design clock of `make fpga` (MHz); the PLL dividers follow from it.  75:
# fpga/top_timing.json has the top routed at 75 MHz at seeds 1-3, every seed
# met (a native nextpnr-ecp5 of YoWASP's release; docs/FPGA.md "Figures").
FPGA_TOP_MHZ ?= 75
# The top's synth_ecp5 options (scripts/ecp5_synth.py): LUT4s only, no PFU
# wide-LUT multiplexers: with wide LUTs ABC builds LUT7s of mostly constant
# LUT4s (the top of four 64-slot controllers, when area was its limit, packed
# to 60,666 TRELLIS_COMB, 72.5 %, instead of 53,014, 63.4 %: docs/FPGA.md,
# "Figures"); every route in fpga/top_timing.json used it.
FPGA_TOP_SYNTH ?= -nowidelut
# The verilated top's UART: FG_SIM_DIV cycles per bit (the RTL's baud is
# set to 50 MHz / FG_SIM_DIV; the C model uses the same count).
FPGA_SIM_DIV := 4
FPGA_SIM_BAUD := $(shell echo $$((50000000 / $(FPGA_SIM_DIV))))

CFLAGS += -Ifpga/host -Ifpga/gen -Ifpga/sim
SIM_SRCS += fpga/host/fg_host.c fpga/host/fg_hw.c fpga/host/fg_play.c fpga/host/fg_simt.c
EXTRA_BUILD += $(BUILD)/bin/fpga_sim $(BUILD)/bin/fg_host $(BUILD)/tests/test_fpga_host $(BUILD)/bin/fpga_pll_sim
EXTRA_TEST_CMDS += scripts/check_fpga_top.sh scripts/test_fpga_top.sh scripts/test_fpga_replay.sh \
                   scripts/test_fpga_pll.sh tests/fpga/test_fpga_flow.py tests/fpga/test_fpga_congestion.py

FPGA_VL := $(BUILD)/vl/fpga_top
$(FPGA_VL)/Vfinegrain_ulx3s__ALL.a: $(FPGA_TOP_RTL) $(wildcard rtl/include/*.svh) mk/fpga_top.mk $(VLBUILD)/vl/vlflags.txt \
                                    | $(BUILD)/.deps
	@rm -rf $(FPGA_VL) && mkdir -p $(FPGA_VL)
	$(VERILATOR) --cc -Wall --assert --trace-fst --x-assign 0 --x-initial 0 -O3 $(VLCOV) \
	  --top-module finegrain_ulx3s -Mdir $(FPGA_VL) -GBAUD=$(FPGA_SIM_BAUD) -Irtl/include $(FPGA_TOP_RTL)
	$(MAKE) -s -C $(FPGA_VL) -f Vfinegrain_ulx3s.mk Vfinegrain_ulx3s__ALL.a \
	  $(call VL_MODEL_CXXOPT,fpga_top) CXX=$(CXX) >/dev/null
$(BUILD)/obj/fpga/sim/fg_top_model.o: fpga/sim/fg_top_model.cpp $(FPGA_VL)/Vfinegrain_ulx3s__ALL.a
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) -Ifpga/sim -isystem $(FPGA_VL) -c $< -o $@
$(BUILD)/obj/fpga/sim/fpga_sim_main.o: CFLAGS += -DFG_SIM_DIV=$(FPGA_SIM_DIV)
$(BUILD)/obj/fpga/sim/fpga_sim_main.o: mk/fpga_top.mk
$(BUILD)/bin/fpga_sim: $(BUILD)/obj/fpga/sim/fpga_sim_main.o $(BUILD)/obj/fpga/sim/fg_top_model.o \
                       $(FPGA_VL)/Vfinegrain_ulx3s__ALL.a $(BUILD)/vlrt/libvlrt.a \
                       $(BUILD)/obj/sim/harness/fg_util.o
	@mkdir -p $(dir $@)
	$(CXX) -o $@ $^ -lz -lpthread
# fg_host links the whole simulator: run-events runs the C model beside the
# board (LINK_LIBS is set after mk/ is read, hence the second expansion)
.SECONDEXPANSION:
$(BUILD)/bin/fg_host: $(BUILD)/obj/fpga/host/fg_host_main.o $$(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $< $(LINK_CMD) $(LDLIBS)

# The top as the board runs it (scripts/test_fpga_pll.sh): the PLL in, as the
# behavioural EHXPLLL (fpga/sim/EHXPLLL.sv), at FPGA_TOP_MHZ's dividers, and
# the UART at 115200 baud with the board's divider, driven at real time by a
# SystemVerilog bench (Verilator --timing).
FPGA_PLL_VL := $(BUILD)/vl/fpga_pll
$(BUILD)/bin/fpga_pll_sim: $(FPGA_TOP_RTL) fpga/sim/EHXPLLL.sv fpga/sim/tb_fpga_pll.sv $(wildcard rtl/include/*.svh) \
                           mk/fpga_top.mk scripts/fpga_top.py | $(BUILD)/.deps
	@rm -rf $(FPGA_PLL_VL) && mkdir -p $(FPGA_PLL_VL) $(dir $@)
	$(VERILATOR) --binary --timing --timescale 1ns/1ps -Wall --assert -DFG_PLL_MODEL -O3 \
	  --top-module tb_fpga_pll $$(scripts/fpga_top.py --pll-params --mhz $(FPGA_TOP_MHZ)) \
	  -Mdir $(FPGA_PLL_VL) -o fpga_pll_sim -Irtl/include $(FPGA_TOP_RTL) fpga/sim/EHXPLLL.sv \
	  fpga/sim/tb_fpga_pll.sv >$(FPGA_PLL_VL).log 2>&1 || { tail -30 $(FPGA_PLL_VL).log; exit 1; }
	@cp $(FPGA_PLL_VL)/fpga_pll_sim $@

# ------------------------------------------------------------------- fpga
# The top's part of `make fpga`; the per-block part adds its own
# prerequisites to `fpga`.  nextpnr runs niced (scripts/fpga_top.py).
.PHONY: fpga fpga-top regmap
# FPGA_TOP: blocks (the blocks top, and every block out of context:
# mk/fpga_blocks.mk) or simt (the SIMT top alone: mk/fpga_simt.mk)
FPGA_TOP ?= blocks
ifeq ($(filter $(FPGA_TOP),blocks simt),)
$(error FPGA_TOP=$(FPGA_TOP): blocks or simt)
endif
ifeq ($(FPGA_TOP),simt)
fpga: fpga-simt
else
fpga: fpga-top
endif
fpga-top: $(BUILD)/.deps
	@fpga/regmap.py --check
	@FPGA_SYNTH_FLAGS="$(FPGA_TOP_SYNTH)" scripts/fpga_top.py --mhz $(FPGA_TOP_MHZ) $(FPGA_TOP_RTL)
# regenerate fpga/gen/ and the register table in docs/FPGA.md
regmap:
	@fpga/regmap.py

# make fpga-equiv FPGA_EQUIV_BASE=<commit>: the top's sources as they are and
# those of <commit>, the ones fpga/top_timing.json's runs were routed from,
# synthesized side by side; when their canonical netlists have the same cells
# and connections (ecp5_synth.logic_sha: a change of comments, line numbers,
# assertions or of how logic is written that leaves the mapped netlist as it
# was; net names are left out) fpga/top_timing.json records these
# sources as equivalent, and make fpga-netlists accepts its routes for them
# (scripts/fpga_top.py --prove-equivalent; two syntheses, minutes; no place
# and route).
.PHONY: fpga-equiv
fpga-equiv: $(BUILD)/.deps
	@test -n "$(FPGA_EQUIV_BASE)" || { echo "make fpga-equiv: set FPGA_EQUIV_BASE=<the commit the routes were made from>"; exit 2; }
	@FPGA_SYNTH_FLAGS="$(FPGA_TOP_SYNTH)" scripts/fpga_top.py --prove-equivalent $(FPGA_EQUIV_BASE) \
	  --mhz $(FPGA_TOP_MHZ) $(FPGA_TOP_RTL)
