/* SC background kernel (EDGE Sec. V: Stream Cluster from Rodinia).
 * A C port of streamcluster's kernel_compute_cost, the GPU part of pgain:
 * for a candidate centre x, every point (one thread each, 512-thread blocks,
 * no barriers) computes its weighted squared distance to x; if that is below
 * its current cost it marks itself to switch and adds the saving to its
 * work_mem slot K, else it adds the loss to the slot of its current centre.
 * Each thread writes only its own row of work_mem.  The host (pgain's CPU
 * half) sums the rows and decides whether to open x: sim/work/bg_edge_apps.c
 * (sc_*), which also holds the reference. */
#include "fg_kernel.h"
#include "bg_args.h"

void bg_sc_cost(const bg_sc_args *a) {
    const int bid = (int)(fg_block_idx_x() + fg_grid_dim_x() * fg_block_idx_y());
    const int tid = (int)fg_block_dim_x() * bid + (int)fg_thread_idx_x();
    const int num = a->num;
    if (tid < num) {
        const bg_sc_point *p = (const bg_sc_point *)(uintptr_t)a->points;
        const float *coord = (const float *)(uintptr_t)a->coord;
        float *lower = (float *)(uintptr_t)a->work_mem + tid * a->stride;
        /* d_dist(tid, x): dimension order, as Rodinia */
        float dist = 0.0f;
        const int x = a->x;
        for (int i = 0; i < a->dim; i++) {
            const float t = coord[i * num + tid] - coord[i * num + x];
            dist += t * t;
        }
        const float x_cost = dist * p[tid].weight;
        const float cost = p[tid].cost;
        if (x_cost < cost) {
            ((uint8_t *)(uintptr_t)a->switch_membership)[tid] = 1;
            lower[a->k] += x_cost - cost;
        } else {
            const int32_t *center_table = (const int32_t *)(uintptr_t)a->center_table;
            lower[center_table[p[tid].assign]] += cost - x_cost;
        }
    }
}
