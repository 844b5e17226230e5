# Warp preemption / flush controller (issue 6 item 2; EDGE Sec. IV-D): RTL
# block, C twin, directed + 10^6-cycle random lockstep test with a fake SIMT
# core, waveform.  Verilated and synthesized with the default configuration
# (64 warp slots: the full 64 x 64 age matrix); a second configuration at
# non-default, non-power-of-two parameters (issue 15 item 3: 44 slots, five
# tournament groups of 8 and one of 4, a 12-bit save counter) runs in lockstep
# with the twin in tests/test_edge_preempt.c test_random_w44.
BLOCKS += edge_preempt
edge_preempt_TOP  := edge_preempt
edge_preempt_SRCS := rtl/edge/edge_preempt_timer.sv rtl/edge/edge_preempt_age.sv rtl/edge/edge_preempt.sv
edge_preempt_GPARAMS := NW=64 SLOT_W=6 REGS_W=7 CYC_W=16
edge_preempt_CONFIGS := w44
# out of context without the PFU wide-LUT multiplexers (make fpga-blocks;
# docs/FPGA_TIMING.md): ABC maps the slot sets' next-state functions onto
# LUT7s whose sub-LUTs are mostly constants (2,114 of 7,521 LUT4), the block
# then 8,505 TRELLIS_COMB at 100.06 MHz; with LUT4s only 5,668 at 102.5
# (lowest of seeds 1-3 each; at 74066d2 5,554 TRELLIS_COMB, 100.19 MHz)
edge_preempt_FPGA_SYNTH := -nowidelut
edge_preempt_w44_GPARAMS := NW=44 SLOT_W=6 REGS_W=7 CYC_W=12

TWIN_SRCS  += sim/twin/edge_preempt.c
TESTS      += test_edge_preempt
SOAK_TESTS += test_edge_preempt
WAVE_TESTS += test_edge_preempt
