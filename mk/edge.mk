# EDGE front-end blocks (rtl/edge/): event kernel table and doorbell decoder.
BLOCKS += edge_ekt edge_doorbell
edge_ekt_TOP  := edge_ekt
edge_ekt_SRCS := rtl/prim/fg_sram_sp.sv rtl/prim/fg_fifo.sv rtl/prim/fg_rr_arb.sv rtl/edge/edge_ekt.sv
edge_ekt_GPARAMS := ENTRIES=32 ADDR_W=64 PSIZE_W=64 DIM_W=32 SHMEM_W=16 PRIO_W=2 MAXEV_W=16 \
                    WARP_THREADS=32 OUT_DEPTH=2
# issue 15 item 3: a second configuration at non-default, non-power-of-two
# parameters, in lockstep in tests/test_edge_ekt.c (test_random_lockstep_e24)
edge_ekt_CONFIGS := e24
edge_ekt_e24_GPARAMS := ENTRIES=24 ADDR_W=48 PSIZE_W=24 DIM_W=32 SHMEM_W=16 PRIO_W=2 MAXEV_W=12 \
                        WARP_THREADS=32 OUT_DEPTH=3
edge_doorbell_TOP  := edge_doorbell
edge_doorbell_SRCS := rtl/prim/fg_fifo.sv rtl/edge/edge_doorbell.sv
edge_doorbell_GPARAMS := ENTRIES=32 ADDR_W=64 DATA_W=32 RING_DEPTH=16 PT_DEPTH=2
# a second configuration, non-default and not powers of two (issue 15 item 3),
# in lockstep in tests/test_edge_doorbell.c (test_odd_*)
edge_doorbell_CONFIGS := odd
edge_doorbell_odd_GPARAMS := ENTRIES=24 ADDR_W=48 DATA_W=20 RING_DEPTH=5 PT_DEPTH=3

TWIN_SRCS += sim/twin/edge_ekt.c sim/twin/edge_doorbell.c
TESTS     += test_edge_ekt test_edge_doorbell
SOAK_TESTS += test_edge_ekt test_edge_doorbell
PROGRAMS  += edge_demo
DEMO_STEPS += $(BUILD)/bin/edge_demo
WAVE_TESTS += test_edge_ekt test_edge_doorbell
WAVES     += scripts/wave_edge_demo.sh
