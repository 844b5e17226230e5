# Shared primitives (rtl/prim/): each verilated in a small configuration for
# its own lockstep unit test (tests/test_prims.c).
BLOCKS += fg_fifo fg_sram fg_rr
fg_fifo_TOP  := fg_fifo
fg_fifo_SRCS := rtl/prim/fg_fifo.sv
fg_fifo_GPARAMS := WIDTH=16 DEPTH=5
fg_sram_TOP  := fg_sram_sp
fg_sram_SRCS := rtl/prim/fg_sram_sp.sv
fg_sram_GPARAMS := WIDTH=40 DEPTH=12
fg_rr_TOP    := fg_rr_arb
fg_rr_SRCS   := rtl/prim/fg_rr_arb.sv
fg_rr_GPARAMS := N=5

TWIN_SRCS += sim/twin/fg_prims.c
TESTS     += test_prims
# the verilated-model shim's input masking (sim/harness/fg_shim.hpp)
TESTS     += test_shim_widths test_fg_num
SOAK_TESTS += test_prims
