/* simt_abi: the kernel ABI shared by the model and sw/include/fg_kernel.h
 * (address map, CSR numbers).  Kept free of anything host-specific so the
 * kernel header can mirror it. */
#ifndef SIMT_ABI_H
#define SIMT_ABI_H

/* Address map (32-bit kernel addresses).
 *   [FG_GUARD_END, global_mem_bytes)  global memory (below: null guard)
 *   [FG_SHARED_BASE, +block shmem)    the block's shared memory
 *   [FG_LOCAL_TOP - stack, FG_LOCAL_TOP) per-thread local memory (stack)
 *   FG_EXIT_ADDR                      returning here ends the thread      */
#define FG_GUARD_END   0x00001000u
#define FG_SHARED_BASE 0xC0000000u
#define FG_LOCAL_TOP   0xF0000000u
#define FG_EXIT_ADDR   0xFFFFFFF0u

/* Custom read-only user CSRs (0xCC0..) */
#define FG_CSR_TID_X    0xCC0
#define FG_CSR_TID_Y    0xCC1
#define FG_CSR_TID_Z    0xCC2
#define FG_CSR_CTAID_X  0xCC3
#define FG_CSR_CTAID_Y  0xCC4
#define FG_CSR_CTAID_Z  0xCC5
#define FG_CSR_NTID_X   0xCC6
#define FG_CSR_NTID_Y   0xCC7
#define FG_CSR_NTID_Z   0xCC8
#define FG_CSR_NCTAID_X 0xCC9
#define FG_CSR_NCTAID_Y 0xCCA
#define FG_CSR_NCTAID_Z 0xCCB
#define FG_CSR_LANEID   0xCCC
#define FG_CSR_WARPID   0xCCD /* warp index within the block */
#define FG_CSR_COREID   0xCCE
#define FG_CSR_SHMEM    0xCCF /* bytes of shared memory of the block (static + dynamic) */
/* Custom read/write CSR: any write = block barrier (__syncthreads). */
#define FG_CSR_BARRIER  0x8C0

#endif
