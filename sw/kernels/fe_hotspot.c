/* HotSpot (F/E Table 3, Rodinia hotspot): a C port of calculate_temp, the
 * pyramid kernel: each 16 x 16 block loads a tile of temperature and power
 * with a halo of `border` cells, computes `iterations` time steps in shared
 * memory (the valid area shrinking by one cell per step), and writes its
 * inner (16 - 2 * iterations)^2 cells.  Rodinia's 2.0 (double) is 2.0f here.
 * Host reference: a plain global stencil in sim/fe/fe_bench.c. */
#include "fg_kernel.h"
#include "fe_args.h"

#define B FE_HS_BLOCK
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

FG_SHARED static float temp_on[B][B];
FG_SHARED static float power_on[B][B];
FG_SHARED static float temp_t[B][B];

void fe_hotspot(const fe_hs_args *p) {
    const float *power = (const float *)(uintptr_t)p->power, *src = (const float *)(uintptr_t)p->temp_src;
    float *dst = (float *)(uintptr_t)p->temp_dst;
    const int n = p->n, it = p->iterations;
    const int bx = (int)fg_block_idx_x(), by = (int)fg_block_idx_y();
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const float step_div_cap = p->step / p->cap, rx_1 = 1.0f / p->rx, ry_1 = 1.0f / p->ry, rz_1 = 1.0f / p->rz;
    const int small = B - it * 2;
    const int blk_y = small * by - p->border, blk_x = small * bx - p->border;
    const int blk_ymax = blk_y + B - 1, blk_xmax = blk_x + B - 1;
    const int yidx = blk_y + ty, xidx = blk_x + tx, index = n * yidx + xidx;
    if (IN_RANGE(yidx, 0, n - 1) && IN_RANGE(xidx, 0, n - 1)) {
        temp_on[ty][tx] = src[index];
        power_on[ty][tx] = power[index];
    }
    fg_sync();
    const int vymin = blk_y < 0 ? -blk_y : 0, vymax = blk_ymax > n - 1 ? B - 1 - (blk_ymax - n + 1) : B - 1;
    const int vxmin = blk_x < 0 ? -blk_x : 0, vxmax = blk_xmax > n - 1 ? B - 1 - (blk_xmax - n + 1) : B - 1;
    int nn = ty - 1, ss = ty + 1, ww = tx - 1, ee = tx + 1;
    nn = nn < vymin ? vymin : nn;
    ss = ss > vymax ? vymax : ss;
    ww = ww < vxmin ? vxmin : ww;
    ee = ee > vxmax ? vxmax : ee;
    int computed = 0;
    for (int i = 0; i < it; i++) {
        computed = 0;
        if (IN_RANGE(tx, i + 1, B - i - 2) && IN_RANGE(ty, i + 1, B - i - 2) && IN_RANGE(tx, vxmin, vxmax) &&
            IN_RANGE(ty, vymin, vymax)) {
            computed = 1;
            float t = temp_on[ty][tx];
            temp_t[ty][tx] = t + step_div_cap * (power_on[ty][tx] + (temp_on[ss][tx] + temp_on[nn][tx] - 2.0f * t) * ry_1 +
                                                 (temp_on[ty][ee] + temp_on[ty][ww] - 2.0f * t) * rx_1 +
                                                 (p->amb - t) * rz_1);
        }
        fg_sync();
        if (i == it - 1) break;
        if (computed) temp_on[ty][tx] = temp_t[ty][tx];
        fg_sync();
    }
    if (computed) dst[index] = temp_t[ty][tx];
}
