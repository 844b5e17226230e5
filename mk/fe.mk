# F/E-bit DRAM scheduler queues (F/E paper Sec. 4.1-4.5, 6.3): RTL block,
# C twin, lockstep tests, demo, waveform.  The verilated model uses a small
# tracked region and shallow queues so the random test reaches every corner
# (queue full, blocked heads, shared lines); `make lint` reports the RTL
# defaults (256 lines x 32 bits: 32 KiB tracked with 128 B lines; queues of 8).
BLOCKS += fe_sched_queues
fe_sched_queues_TOP  := fe_sched_queues
fe_sched_queues_SRCS := rtl/prim/fg_fifo.sv rtl/prim/fg_sram_sp.sv rtl/fe/fe_trigger_check.sv \
                        rtl/fe/fe_watchdog.sv rtl/fe/fe_bits.sv rtl/fe/fe_sched_queues.sv
fe_sched_queues_GPARAMS := ADDR_W=32 WORDS=32 GRAN=4 REGION_BASE=4096 REGION_LINES=16 \
                           QD_NT=4 QD_CPU=4 QD_GPU=4 TAG_W=8 WD_W=16 CNT_W=32 INIT_W=16 LK_REG=0
# The memory system's configuration (sim/mem/partition.c, docs/MEM.md): one
# per memory partition, addresses relative to the partition's share of the
# tracked region (2 MiB = 16384 lines of 128 B), the memory controller's input
# queues (16 each: stallMC fires when one is full), tags of an 8-bit side
# table, a 32-bit watchdog (long CPU->GPU transfers may legitimately wait),
# the lookup's address and data registered at the 32 block RAMs of the F/E
# bits (LK_REG: two more cycles per lookup, for 100 MHz on the ECP5;
# docs/FPGA_TIMING.md).
fe_sched_queues_CONFIGS := sys odd
fe_sched_queues_sys_GPARAMS := ADDR_W=32 WORDS=32 GRAN=4 REGION_BASE=0 REGION_LINES=16384 \
                               QD_NT=16 QD_CPU=16 QD_GPU=16 TAG_W=8 WD_W=32 CNT_W=32 INIT_W=16 \
                               LK_REG=1
# A third, for lockstep at parameters that are not powers of two (issue 15
# item 3; test_random_lockstep_odd, test_reset_lockstep): 11 lines of 64 B at
# an odd base, queues 3/5/2, 30-bit addresses, narrow tags / watchdog /
# counters / init counts, the registered lookup (LK_REG) as the system has
# it.  (WORDS * GRAN, the line size, is a power of two.)
fe_sched_queues_odd_GPARAMS := ADDR_W=30 WORDS=16 GRAN=4 REGION_BASE=448 REGION_LINES=11 \
                               QD_NT=3 QD_CPU=5 QD_GPU=2 TAG_W=5 WD_W=7 CNT_W=20 INIT_W=5 LK_REG=1

TWIN_SRCS += sim/twin/fe_sched_queues.c
TESTS     += test_fe_sched_queues
SOAK_TESTS += test_fe_sched_queues
PROGRAMS  += fe_demo
DEMO_STEPS += $(BUILD)/bin/fe_demo
WAVE_TESTS += test_fe_sched_queues
