# Pending event warp table (EDGE Sec. IV-C, IV-E; issue 6 item 1): RTL block,
# C twin, directed + 10^6-cycle random lockstep tests, waveform.  Verilated
# and synthesized with the defaults (4 entries, the paper's table size).
BLOCKS += edge_pewt
edge_pewt_TOP  := edge_pewt
edge_pewt_SRCS := rtl/prim/fg_fifo.sv rtl/edge/edge_pewt.sv
edge_pewt_GPARAMS := ENTRIES=4 ADDR_W=64 TAG_W=64 SLOT_W=6 THR_W=6 REGS_W=7
# a second configuration: 3 entries, 32 slots, narrower fields (issue 15
# item 3), in lockstep in tests/test_edge_pewt.c (test_odd_*)
edge_pewt_CONFIGS := odd
edge_pewt_odd_GPARAMS := ENTRIES=3 ADDR_W=40 TAG_W=24 SLOT_W=5 THR_W=5 REGS_W=6

TWIN_SRCS  += sim/twin/edge_pewt.c
TESTS      += test_edge_pewt
SOAK_TESTS += test_edge_pewt
WAVE_TESTS += test_edge_pewt
