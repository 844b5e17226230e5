# The CM machine (docs/CM_MACHINE.md): CPU cores and the GPU side
# sharing the 6x6 mesh, LLC and DRAM; cm_run runs a CPU mix alone or beside
# a kernel on the SIMT cores.
SIM_SRCS += sim/cm/cm_sys.c sim/cm/cm_bal_loop.c sim/cm/cm_dyncta.c
PROGRAMS += cm_run
TESTS    += test_cm_sys test_cm_bal_loop
# cm_run end to end at a small size: the per-interval JSON (seconds)
EXTRA_TEST_CMDS += scripts/check_cm_run.sh
# make demo: the mesh load curve, the CPU streams alone, the CM Sec. 3
# motivation run and their figures; make bench: the machine's speed
DEMO_STEPS  += scripts/cm_machine_demo.sh
BENCH_STEPS += scripts/cm_machine_bench.sh
