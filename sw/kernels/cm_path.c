/* PATH (CM Table II, Rodinia pathfinder): a C port of dynproc_kernel.  Each
 * 256-thread block loads its columns of the previous row (with a halo of
 * `border` columns each side) into shared memory and advances `iteration`
 * rows: result = the cheapest of the three cells above + this row's wall
 * cost; the valid area shrinks by one column per row.  Host reference:
 * path_ref in sim/work/cm_apps.c (the plain row-by-row programme). */
#include "fg_kernel.h"
#include "cm_args.h"

#define B CM_PATH_BLOCK
#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

FG_SHARED static int32_t prev[B];
FG_SHARED static int32_t result[B];

void cm_path(const cm_path_args *p) {
    const int32_t *wall = (const int32_t *)(uintptr_t)p->wall, *src = (const int32_t *)(uintptr_t)p->src;
    int32_t *dst = (int32_t *)(uintptr_t)p->results;
    const int iteration = p->iteration, cols = p->cols;
    const int bx = (int)fg_block_idx_x(), tx = (int)fg_thread_idx_x();
    const int small_block_cols = B - iteration * 2;
    const int blk_x = small_block_cols * bx - p->border, blk_xmax = blk_x + B - 1, xidx = blk_x + tx;
    const int valid_xmin = blk_x < 0 ? -blk_x : 0;
    const int valid_xmax = blk_xmax > cols - 1 ? B - 1 - (blk_xmax - cols + 1) : B - 1;
    int w = tx - 1, e = tx + 1;
    w = w < valid_xmin ? valid_xmin : w;
    e = e > valid_xmax ? valid_xmax : e;
    const int is_valid = IN_RANGE(tx, valid_xmin, valid_xmax);
    if (IN_RANGE(xidx, 0, cols - 1)) prev[tx] = src[xidx];
    fg_sync();
    int computed = 0;
    for (int i = 0; i < iteration; i++) {
        computed = 0;
        if (IN_RANGE(tx, i + 1, B - i - 2) && is_valid) {
            computed = 1;
            const int left = prev[w], up = prev[tx], right = prev[e];
            int shortest = MIN(left, up);
            shortest = MIN(shortest, right);
            result[tx] = shortest + wall[cols * (p->start_step + i) + xidx];
        }
        fg_sync();
        if (i == iteration - 1) break;
        if (computed) prev[tx] = result[tx];
        fg_sync();
    }
    if (computed) dst[xidx] = result[tx];
}
