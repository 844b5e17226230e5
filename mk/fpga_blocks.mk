# Out-of-context FPGA measurement of the RTL blocks:
# `make fpga-blocks` runs scripts/fpga_ooc.py over FPGA_BLOCKS, one block at a
# time (Yosys synth_ecp5 -> nextpnr-ecp5 LFE5U-85F / CABGA381 / speed 6,
# --freq 100, --out-of-context, every port registered by a generated wrapper)
# and writes blocks.<block>.{fmax_mhz,lut4,ff,dp16kd,mult18,...} into
# results/fpga.json, keeping every other key.  `make fpga` includes it; an FPGA
# top adds its own prerequisites to `fpga` (no recipe here).
#   b_FPGA_PARAMS  K=V parameters (default: the RTL defaults)
#   b_FPGA_SYNTH   extra synth_ecp5 options for that block (default none;
#                  FPGA_SYNTH_FLAGS in the environment adds to every block)
#   FPGA_SEEDS     nextpnr seeds (default 1; fmax_mhz is the lowest of them)
#   FPGA_ONLY      run only these blocks (the others' entries stay)
# FPGA_BLOCKS and the parameters: each block's manifest, [block.fpga]
# (rtl/<area>/<block>.toml; mk/blocks.mk, generated): ooc = true measures the
# block at its RTL defaults, configs = [c] also its configuration b_c (the F/E
# block's memory-system one, one per partition), synth its b_FPGA_SYNTH.
FPGA_JSON   ?= results/fpga.json

.PHONY: fpga fpga-blocks
ifneq ($(FPGA_TOP),simt)
fpga: fpga-blocks
endif
fpga-blocks: $(BUILD)/.deps
	@FPGA_JSON=$(FPGA_JSON) python3 scripts/fpga_ooc.py \
	  $(foreach b,$(FPGA_BLOCKS),"$(b)|$($(b)_TOP)|$($(b)_FPGA_PARAMS)|$($(b)_SRCS)|$($(b)_FPGA_SYNTH)")

# make fpga-netlists (make test, scripts/check_fpga_netlists.py): each block
# synthesized as make fpga-blocks does it, its netlist fingerprint compared with
# fpga/blocks_timing.json's (written by make fpga-blocks with the figures it
# measured): fails when a block's logic changed since its figures were measured.
# Then the top's committed routes (fpga/top_timing.json): each must be of the
# top's sources as they are, byte for byte (scripts/fpga_top.py --check-record;
# no synthesis: the top takes minutes).
# A block whose synthesis inputs are those its figures were measured on
# (fpga/blocks_timing.json inputs_sha) is not synthesized again;
# FPGA_NETLISTS_SYNTH=1 synthesizes them all.  make fpga-netlists-record:
# every block synthesized, and the inputs recorded where the netlist is the
# one measured.
FPGA_NETLIST_SPECS = $(foreach b,$(FPGA_BLOCKS),"$(b)|$($(b)_TOP)|$($(b)_FPGA_PARAMS)|$($(b)_SRCS)|$($(b)_FPGA_SYNTH)")
.PHONY: fpga-netlists fpga-netlists-record
fpga-netlists: $(BUILD)/.deps
	@python3 scripts/check_fpga_netlists.py $(FPGA_NETLIST_SPECS)
	@scripts/fpga_top.py --check-record $(FPGA_TOP_RTL)
fpga-netlists-record: $(BUILD)/.deps
	@python3 scripts/check_fpga_netlists.py --record-inputs $(FPGA_NETLIST_SPECS)
EXTRA_TEST_CMDS += scripts/check_fpga_netlists.sh
