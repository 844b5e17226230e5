/* BLK (CM Table II) on the CM machine: the F/E benchmarks' kernel
 * (sw/kernels/fe_blackscholes.c, included, not copied) compiled with s0-s11 and
 * fs0-fs11 reserved (bg_args.h), so that it names few enough registers for a
 * CM core's 32768 registers to hold 48 warps (1536 threads: 21 per thread);
 * as compiled for F/E it names more and a core could hold only
 * docs/CM_APPS.md's fewer warps. */
#include "bg_args.h"
BG_RESERVE_S_REGS
BG_RESERVE_FS_REGS
#include "fe_blackscholes.c"
