# Background kernels of the EDGE preemption study (CONV, MM, BP, BFS; CONV2, SC, KMN, SRAD, LUD in sim/work/bg_edge_apps.c):
# kernels sw/kernels/bg_*.c (built by mk/simt.mk), host driver and
# references sim/work/bg_kernels.c, docs/BG_KERNELS.md.
SIM_SRCS += sim/work/bg_kernels.c sim/work/bg_edge_apps.c
TESTS    += test_bg_kernels
TB_SRCS  += tb/bg_tb.c
