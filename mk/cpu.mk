# The CM machine's CPU side (docs/CPU_MODEL.md): trace-driven
# out-of-order cores with private L1/L2 and the synthetic CM Table III / IV
# workloads.
SIM_SRCS += sim/cpu/cpu_gen.c sim/cpu/cpu_core.c
TESTS    += test_cpu
PROGRAMS += cpu_char
