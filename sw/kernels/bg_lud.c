/* LUD background kernels (EDGE Sec. V: LU Decomposition from Rodinia).  C
 * ports of Rodinia lud's lud_diagonal, lud_perimeter and lud_internal: per
 * step (offset = 16 k) the diagonal 16x16 block is factored by one block of
 * 16 threads (2 barriers per column), the blocks right of it and below it by
 * (dim - offset) / 16 - 1 blocks of 32 threads (16 for the row, 16 for the
 * column, 1 barrier between load, solve and store), and the trailing matrix
 * updated by 16x16 blocks (one barrier).  The host launches the triple per
 * step and a last lud_diagonal (sim/work/bg_edge_apps.c, lud_*, with the
 * reference).  One ELF holds all three, and its static shared section is the
 * sum of their arrays, so the kernels share three 16x16 tiles (3 KB a
 * block; Rodinia's lud_internal alone uses 2 KB). */
#include "fg_kernel.h"
#include "bg_args.h"

#define BS BG_LUD_BLOCK

FG_SHARED static float dia[BS][BS];
FG_SHARED static float peri_row[BS][BS];
FG_SHARED static float peri_col[BS][BS];

void bg_lud_diagonal(const bg_lud_args *a) {
    float(*shadow)[BS] = dia;
    float *m = (float *)(uintptr_t)a->m;
    const int dim = a->dim, offset = a->offset, tx = (int)fg_thread_idx_x();
    int array_offset = offset * dim + offset;
    for (int i = 0; i < BS; i++) {
        shadow[i][tx] = m[array_offset + tx];
        array_offset += dim;
    }
    fg_sync();
    for (int i = 0; i < BS - 1; i++) {
        if (tx > i) {
            for (int j = 0; j < i; j++) shadow[tx][i] -= shadow[tx][j] * shadow[j][i];
            shadow[tx][i] /= shadow[i][i];
        }
        fg_sync();
        if (tx > i)
            for (int j = 0; j < i + 1; j++) shadow[i + 1][tx] -= shadow[i + 1][j] * shadow[j][tx];
        fg_sync();
    }
    /* the first row is not modified */
    array_offset = (offset + 1) * dim + offset;
    for (int i = 1; i < BS; i++) {
        m[array_offset + tx] = shadow[i][tx];
        array_offset += dim;
    }
}

void bg_lud_perimeter(const bg_lud_args *a) {
    float *m = (float *)(uintptr_t)a->m;
    const int dim = a->dim, offset = a->offset, tx = (int)fg_thread_idx_x();
    const int bcol = ((int)fg_block_idx_x() + 1) * BS;
    if (tx < BS) {
        const int idx = tx;
        int array_offset = offset * dim + offset;
        for (int i = 0; i < BS / 2; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += dim;
        }
        array_offset = offset * dim + offset;
        for (int i = 0; i < BS; i++) {
            peri_row[i][idx] = m[array_offset + bcol + idx];
            array_offset += dim;
        }
    } else {
        const int idx = tx - BS;
        int array_offset = (offset + BS / 2) * dim + offset;
        for (int i = BS / 2; i < BS; i++) {
            dia[i][idx] = m[array_offset + idx];
            array_offset += dim;
        }
        array_offset = (offset + bcol) * dim + offset;
        for (int i = 0; i < BS; i++) {
            peri_col[i][idx] = m[array_offset + idx];
            array_offset += dim;
        }
    }
    fg_sync();
    if (tx < BS) { /* the row block: forward substitution with L's unit diagonal */
        const int idx = tx;
        for (int i = 1; i < BS; i++)
            for (int j = 0; j < i; j++) peri_row[i][idx] -= dia[i][j] * peri_row[j][idx];
    } else { /* the column block: thread idx solves its row against U */
        const int idx = tx - BS;
        for (int i = 0; i < BS; i++) {
            for (int j = 0; j < i; j++) peri_col[idx][i] -= peri_col[idx][j] * dia[j][i];
            peri_col[idx][i] /= dia[i][i];
        }
    }
    fg_sync();
    if (tx < BS) {
        const int idx = tx;
        int array_offset = (offset + 1) * dim + offset;
        for (int i = 1; i < BS; i++) {
            m[array_offset + bcol + idx] = peri_row[i][idx];
            array_offset += dim;
        }
    } else {
        const int idx = tx - BS;
        int array_offset = (offset + bcol) * dim + offset;
        for (int i = 0; i < BS; i++) {
            m[array_offset + idx] = peri_col[i][idx];
            array_offset += dim;
        }
    }
}

void bg_lud_internal(const bg_lud_args *a) {
    float *m = (float *)(uintptr_t)a->m;
    const int dim = a->dim, offset = a->offset;
    const int tx = (int)fg_thread_idx_x(), ty = (int)fg_thread_idx_y();
    const int global_row_id = offset + ((int)fg_block_idx_y() + 1) * BS;
    const int global_col_id = offset + ((int)fg_block_idx_x() + 1) * BS;
    peri_row[ty][tx] = m[(offset + ty) * dim + global_col_id + tx];
    peri_col[ty][tx] = m[(global_row_id + ty) * dim + offset + tx];
    fg_sync();
    float sum = 0;
    for (int i = 0; i < BS; i++) sum += peri_col[ty][i] * peri_row[i][tx];
    m[(global_row_id + ty) * dim + global_col_id + tx] -= sum;
}
