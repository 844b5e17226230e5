/* SRAD background kernels (EDGE Sec. V: Speckle Reducing Anisotropic
 * Diffusion from Rodinia).  C ports of srad_v2's srad_cuda_1 and
 * srad_cuda_2: 16x16 blocks, one thread per pixel, the block's tile and its
 * north / south / west / east neighbour rows and columns staged in shared
 * memory between barriers (kernel 1: 4 barriers, kernel 2: 5).  Image
 * borders are clamped as Rodinia does (the edge block reads its own edge
 * row / column).  Two differences from the CUDA source: Rodinia loads the
 * out-of-image neighbour first and then overwrites it at the borders; the
 * port loads only the one it uses (no reads outside the image).  Rodinia's
 * double literals (0.5, 1.0 / 16.0, .25, 1.0) are float here: RV32IMAF has
 * no D extension.  The host computes q0sqr from the image's region of
 * interest before each iteration (sim/work/bg_edge_apps.c, srad_*, with the
 * reference). */
#include "fg_kernel.h"
#include "bg_args.h"

BG_RESERVE_S_REGS
BG_RESERVE_FS_REGS

#define BS BG_SRAD_BLOCK

/* both kernels' ids: block, thread, grid, the block's first pixel (base)
 * and the thread's (index) in the row-major image J */
#define SRAD_IDS(a)                                                              \
    const int bx = (int)fg_block_idx_x(), by = (int)fg_block_idx_y();           \
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();         \
    const int gx = (int)fg_grid_dim_x(), gy = (int)fg_grid_dim_y();             \
    const int cols = (a)->cols;                                                 \
    const int base = cols * BS * by + BS * bx;                                  \
    const int index = base + cols * ty + tx;                                    \
    float *J = (float *)(uintptr_t)(a)->j

FG_SHARED static float temp[BS][BS];
FG_SHARED static float temp_result[BS][BS];
FG_SHARED static float north[BS][BS];
FG_SHARED static float south[BS][BS];
FG_SHARED static float east[BS][BS];
FG_SHARED static float west[BS][BS];

void bg_srad_1(const bg_srad_args *a) {
    SRAD_IDS(a);

    if (by == 0) north[ty][tx] = J[BS * bx + tx];
    else north[ty][tx] = J[base + tx - cols];
    if (by == gy - 1) south[ty][tx] = J[cols * BS * (gy - 1) + BS * bx + cols * (BS - 1) + tx];
    else south[ty][tx] = J[base + cols * BS + tx];
    fg_sync();
    if (bx == 0) west[ty][tx] = J[cols * BS * by + cols * ty];
    else west[ty][tx] = J[base + cols * ty - 1];
    if (bx == gx - 1) east[ty][tx] = J[cols * BS * by + BS * (gx - 1) + cols * ty + BS - 1];
    else east[ty][tx] = J[base + cols * ty + BS];
    fg_sync();
    temp[ty][tx] = J[index];
    fg_sync();

    const float jc = temp[ty][tx];
    const float n = (ty == 0 ? north[ty][tx] : temp[ty - 1][tx]) - jc;
    const float s = (ty == BS - 1 ? south[ty][tx] : temp[ty + 1][tx]) - jc;
    const float w = (tx == 0 ? west[ty][tx] : temp[ty][tx - 1]) - jc;
    const float e = (tx == BS - 1 ? east[ty][tx] : temp[ty][tx + 1]) - jc;

    const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
    const float l = (n + s + w + e) / jc;
    const float num = (0.5f * g2) - ((1.0f / 16.0f) * (l * l));
    float den = 1 + (.25f * l);
    const float qsqr = num / (den * den);
    const float q0sqr = a->q0sqr;
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr)); /* diffusion coefficient (equ 33) */
    const float c = 1.0f / (1.0f + den);
    temp_result[ty][tx] = c < 0 ? 0.0f : c > 1 ? 1.0f : c; /* saturated */
    fg_sync();

    ((float *)(uintptr_t)a->c)[index] = temp_result[ty][tx];
    ((float *)(uintptr_t)a->e)[index] = e;
    ((float *)(uintptr_t)a->w)[index] = w;
    ((float *)(uintptr_t)a->s)[index] = s;
    ((float *)(uintptr_t)a->n)[index] = n;
}

/* srad_cuda_2's tiles reuse srad_cuda_1's: the ELF has one static shared
 * section for both kernels, and 6 KB per block (not 6 + 4) lets 8 blocks,
 * 2048 threads, share a core's 48 KB as in Rodinia */
#define south_c south
#define east_c east
#define c_cuda_temp north
#define c_cuda_result west

void bg_srad_2(const bg_srad_args *a) {
    SRAD_IDS(a);
    const float *C = (const float *)(uintptr_t)a->c;

    temp[ty][tx] = J[index];
    fg_sync();
    if (by == gy - 1) south_c[ty][tx] = C[cols * BS * (gy - 1) + BS * bx + cols * (BS - 1) + tx];
    else south_c[ty][tx] = C[base + cols * BS + tx];
    fg_sync();
    if (bx == gx - 1) east_c[ty][tx] = C[cols * BS * by + BS * (gx - 1) + cols * ty + BS - 1];
    else east_c[ty][tx] = C[base + cols * ty + BS];
    fg_sync();
    c_cuda_temp[ty][tx] = C[index];
    fg_sync();

    const float cc = c_cuda_temp[ty][tx];
    const float cn = cc, cw = cc;
    const float cs = ty == BS - 1 ? south_c[ty][tx] : c_cuda_temp[ty + 1][tx];
    const float ce = tx == BS - 1 ? east_c[ty][tx] : c_cuda_temp[ty][tx + 1];
    /* divergence (equ 58), image update (equ 61) */
    const float d_sum = cn * ((const float *)(uintptr_t)a->n)[index] + cs * ((const float *)(uintptr_t)a->s)[index] +
                        cw * ((const float *)(uintptr_t)a->w)[index] + ce * ((const float *)(uintptr_t)a->e)[index];
    c_cuda_result[ty][tx] = temp[ty][tx] + 0.25f * a->lambda * d_sum;
    fg_sync();
    J[index] = c_cuda_result[ty][tx];
}
