# CM-CPU / CM-BAL stall monitor (issue 5; CM paper Sec. 4-5).  Verilated in a
# small configuration (4 partitions, 4 cores) with the paper's interval,
# thresholds, levels and 48 warps; `make lint` synthesizes the RTL defaults
# (CM Table I: 8 partitions, 28 cores, 2 schedulers, 48 warps).
BLOCKS += cm_bal_monitor
cm_bal_monitor_TOP  := cm_bal_monitor
cm_bal_monitor_SRCS := rtl/cm/cm_cpu_central.sv \
                       rtl/cm/cm_bal_core.sv rtl/cm/cm_bal_decide.sv rtl/cm/cm_bal_monitor.sv
cm_bal_monitor_GPARAMS := P=4 C=4 NSCHED=2 MAXW=48 INTERVAL=1024 TH_Q4=4 TL_Q4=1 FINE=8 \
                          EXPLORE_WARPS=6 EXPLORE_N=4
# A second configuration at non-default, non-power-of-two parameters (issue 15
# item 3): 6 partitions, 20 cores of 3 schedulers, a 1000-cycle interval,
# tH = 0.75, CM-CPU steps of 1 at or below 7 warps, exploration after 3
# intervals (tests/test_cm_bal_monitor.c, test_odd_*).
cm_bal_monitor_CONFIGS := odd sys
cm_bal_monitor_odd_GPARAMS := P=6 C=20 NSCHED=3 MAXW=48 INTERVAL=1000 TH_Q4=3 TL_Q4=1 FINE=7 \
                              EXPLORE_WARPS=6 EXPLORE_N=3
# The CM machine's size (configs/cm.ini, CM Table I: 8 partitions, 28 cores
# of 2 schedulers, 48 warps) with the paper's interval, thresholds, steps and
# exploration: the monitor in the loop of sim/cm/cm_bal_loop.c (docs/CM_BAL.md
# "In the loop").  Other [cmbal] values run on the twin (impl = c).
cm_bal_monitor_sys_GPARAMS := P=8 C=28 NSCHED=2 MAXW=48 INTERVAL=1024 TH_Q4=4 TL_Q4=1 FINE=8 \
                              EXPLORE_WARPS=6 EXPLORE_N=4

TWIN_SRCS  += sim/twin/cm_bal_monitor.c
TESTS      += test_cm_bal_monitor
SOAK_TESTS += test_cm_bal_monitor
PROGRAMS   += cm_demo
DEMO_STEPS += $(BUILD)/bin/cm_demo
WAVE_TESTS += test_cm_bal_monitor
