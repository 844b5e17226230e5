# The GPU applications of CM Table II (docs/CM_APPS.md): host drivers and
# references sim/work/cm_apps*.c behind bg_kernels' API (sim/work/bg_app.h),
# kernels sw/kernels/cm_*.c (built by mk/simt.mk) and the reused bg_* / fe_*
# kernels; cm_tlp classifies each by a static-TLP sweep on the CM machine.
SIM_SRCS += sim/work/cm_apps.c
PROGRAMS += cm_tlp
TESTS    += test_cm_apps
