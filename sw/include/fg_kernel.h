/* fg_kernel.h: the kernel ABI of the finegrain SIMT model (docs/SIMT.md).
 *
 * A kernel is a C function `void name(const struct my_params *p)`: a0 holds
 * the launch's param_addr, so the parameter block in global memory is the
 * function's only argument.  Returning from it (or fg_exit()) ends the
 * thread.  Ids come from CSRs; fg_sync() is the block barrier.
 *
 *   #include "fg_kernel.h"
 *   struct args { float *a, *b, *c; unsigned n; };
 *   void vecadd(const struct args *p) {
 *       unsigned i = fg_global_id_x();
 *       if (i < p->n) p->c[i] = p->a[i] + p->b[i];
 *   }
 *
 * Shared memory: `FG_SHARED float tile[256];` (static, per block), and
 * fg_dyn_shmem() for the launch's dynamic part (after the static part).
 * Atomics: the GCC __atomic / __sync builtins compile to RV32A AMOs and
 * work on global and shared memory. */
#ifndef FG_KERNEL_H
#define FG_KERNEL_H

#include <stdint.h>

#define FG_SHARED_BASE 0xC0000000u

#define FG_CSR_READ(csr)                                          \
    ({                                                            \
        uint32_t v_;                                              \
        __asm__ volatile("csrr %0, " #csr : "=r"(v_));            \
        v_;                                                       \
    })

static inline uint32_t fg_tid_x(void) { return FG_CSR_READ(0xCC0); }
static inline uint32_t fg_tid_y(void) { return FG_CSR_READ(0xCC1); }
static inline uint32_t fg_tid_z(void) { return FG_CSR_READ(0xCC2); }
static inline uint32_t fg_ctaid_x(void) { return FG_CSR_READ(0xCC3); }
static inline uint32_t fg_ctaid_y(void) { return FG_CSR_READ(0xCC4); }
static inline uint32_t fg_ctaid_z(void) { return FG_CSR_READ(0xCC5); }
static inline uint32_t fg_ntid_x(void) { return FG_CSR_READ(0xCC6); }
static inline uint32_t fg_ntid_y(void) { return FG_CSR_READ(0xCC7); }
static inline uint32_t fg_ntid_z(void) { return FG_CSR_READ(0xCC8); }
static inline uint32_t fg_nctaid_x(void) { return FG_CSR_READ(0xCC9); }
static inline uint32_t fg_nctaid_y(void) { return FG_CSR_READ(0xCCA); }
static inline uint32_t fg_nctaid_z(void) { return FG_CSR_READ(0xCCB); }
static inline uint32_t fg_lane_id(void) { return FG_CSR_READ(0xCCC); }
static inline uint32_t fg_warp_id(void) { return FG_CSR_READ(0xCCD); }
static inline uint32_t fg_core_id(void) { return FG_CSR_READ(0xCCE); }
static inline uint32_t fg_shmem_bytes(void) { return FG_CSR_READ(0xCCF); }
static inline uint32_t fg_clock(void) { return FG_CSR_READ(0xC00); }

/* CUDA-style spellings: threadIdx, blockIdx, blockDim, gridDim */
static inline uint32_t fg_thread_idx_x(void) { return fg_tid_x(); }
static inline uint32_t fg_thread_idx_y(void) { return fg_tid_y(); }
static inline uint32_t fg_thread_idx_z(void) { return fg_tid_z(); }
static inline uint32_t fg_block_idx_x(void) { return fg_ctaid_x(); }
static inline uint32_t fg_block_idx_y(void) { return fg_ctaid_y(); }
static inline uint32_t fg_block_idx_z(void) { return fg_ctaid_z(); }
static inline uint32_t fg_block_dim_x(void) { return fg_ntid_x(); }
static inline uint32_t fg_block_dim_y(void) { return fg_ntid_y(); }
static inline uint32_t fg_block_dim_z(void) { return fg_ntid_z(); }
static inline uint32_t fg_grid_dim_x(void) { return fg_nctaid_x(); }
static inline uint32_t fg_grid_dim_y(void) { return fg_nctaid_y(); }
static inline uint32_t fg_grid_dim_z(void) { return fg_nctaid_z(); }

static inline uint32_t fg_global_id_x(void) { return fg_ctaid_x() * fg_ntid_x() + fg_tid_x(); }
static inline uint32_t fg_global_id_y(void) { return fg_ctaid_y() * fg_ntid_y() + fg_tid_y(); }

/* Block barrier (__syncthreads): waits until every live thread of the block
 * has arrived; exited threads no longer count. */
static inline void fg_sync(void) { __asm__ volatile("csrw 0x8C0, zero" ::: "memory"); }

/* Ends the calling thread. */
static inline __attribute__((noreturn)) void fg_exit(void) {
    __asm__ volatile("ecall" ::: "memory");
    __builtin_unreachable();
}

#define FG_SHARED __attribute__((section(".shared")))
extern char __shared_end[];
/* Start of the launch's dynamic shared memory (gpu_launch_desc.shmem bytes). */
static inline void *fg_dyn_shmem(void) { return (void *)__shared_end; }

static inline uint32_t fg_atomic_add(uint32_t *p, uint32_t v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }

/* atomicMin (signed): RV32A amomin.w, as GCC has no __atomic_fetch_min for C */
static inline int32_t fg_atomic_min(int32_t *p, int32_t v) {
    int32_t old;
    __asm__ volatile("amomin.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(v) : "memory");
    return old;
}

#endif
