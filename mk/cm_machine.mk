# The CM machine (issue 14; docs/CM_MACHINE.md): CPU cores and the GPU side
# sharing the 6x6 mesh, LLC and DRAM; cm_run runs a CPU mix alone or beside
# the GPU side.
SIM_SRCS += sim/cm/cm_sys.c sim/cm/gpu_traffic.c
PROGRAMS += cm_run
TESTS    += test_cm_sys
# make demo: the mesh load curve, the CPU streams alone, the CM Sec. 3
# motivation run and their figures; make bench: the machine's speed
DEMO_STEPS  += scripts/cm_machine_demo.sh
BENCH_STEPS += scripts/cm_machine_bench.sh
