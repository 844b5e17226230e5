/* SSSP (CM Table II, LonestarGPU): single-source shortest paths by
 * topology-driven Bellman-Ford, LonestarGPU's baseline variant: each thread
 * owns nodes (grid-stride) and relaxes every out-edge of a reached node with
 * atomicMin on the destination's distance; the host launches it again until
 * a launch changes no distance.  Irregular: a warp's 32 nodes read 32
 * separate edge runs and scatter atomics over the whole distance array.
 * Host reference: Dijkstra in sim/work/cm_apps.c. */
#include "fg_kernel.h"
#include "cm_args.h"

void cm_sssp(const cm_sssp_args *p) {
    const int32_t *row = (const int32_t *)(uintptr_t)p->row, *col = (const int32_t *)(uintptr_t)p->col;
    const int32_t *wt = (const int32_t *)(uintptr_t)p->w;
    int32_t *dist = (int32_t *)(uintptr_t)p->dist;
    const int stride = (int)(fg_grid_dim_x() * CM_SSSP_THREADS);
    int changed = 0;
    for (int u = (int)fg_global_id_x(); u < p->n; u += stride) {
        const int du = dist[u];
        if (du >= CM_SSSP_INF) continue;
        for (int e = row[u]; e < row[u + 1]; e++) {
            const int v = col[e], nd = du + wt[e];
            if (nd < dist[v] && fg_atomic_min(&dist[v], nd) > nd) changed = 1;
        }
    }
    if (changed) *(volatile int32_t *)(uintptr_t)p->changed = 1;
}
