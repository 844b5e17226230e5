/* MM background kernel (EDGE Sec. V: Matrix Multiply from the CUDA SDK).
 * A C port of the SDK's matrixMul: C = A * B with 16x16 thread blocks; per
 * step the block stages a 16x16 tile of A and of B in shared memory, waits
 * at a barrier, does 16 multiply-adds per thread, and waits again (two
 * barriers per tile step, wA / 16 steps).  Grid (wB / 16, hA / 16).
 * Host reference: sim/work/bg_kernels.c (mm_ref, same summation order). */
#include "fg_kernel.h"
#include "bg_args.h"

BG_RESERVE_S_REGS
BG_RESERVE_FS_REGS

#define BS BG_MM_BLOCK

FG_SHARED static float As[BS][BS];
FG_SHARED static float Bs[BS][BS];

void bg_mm(const bg_mm_args *p) {
    const int bx = (int)fg_block_idx_x(), by = (int)fg_block_idx_y();
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const int wa = p->wa, wb = p->wb;
    const float *A = (const float *)(uintptr_t)p->a;
    const float *B = (const float *)(uintptr_t)p->b;
    float *C = (float *)(uintptr_t)p->c;
    const int a_begin = wa * BS * by, a_end = a_begin + wa - 1, a_step = BS;
    const int b_begin = BS * bx, b_step = BS * wb;
    float csub = 0;
    for (int a = a_begin, b = b_begin; a <= a_end; a += a_step, b += b_step) {
        As[ty][tx] = A[a + wa * ty + tx];
        Bs[ty][tx] = B[b + wb * ty + tx];
        fg_sync();
#pragma GCC unroll 16
        for (int k = 0; k < BS; k++) csub += As[ty][k] * Bs[k][tx];
        fg_sync();
    }
    C[wb * BS * by + BS * bx + wb * ty + tx] = csub;
}
