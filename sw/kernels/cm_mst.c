/* MST (CM Table II, LonestarGPU mst): minimum spanning tree by Boruvka's
 * rounds, as LonestarGPU's kernels do them: every node finds its lightest
 * edge to another component and atomicMins it into its component's minimum
 * (cm_mst_min); every component hooks onto the component across its minimum
 * edge, the edge joining the tree (cm_mst_union; two components that chose
 * each other's edge hook once, the larger root onto the smaller); every node
 * follows the hooks to its new root (cm_mst_jump).  The host repeats the
 * three until a round hooks nothing.  Irregular: a warp's nodes read 32
 * separate edge runs and their neighbours' labels.  Host reference: Kruskal
 * in sim/work/cm_apps.c. */
#include "fg_kernel.h"
#include "cm_args.h"

void cm_mst_min(const cm_mst_args *p) {
    const int32_t *row = (const int32_t *)(uintptr_t)p->row, *col = (const int32_t *)(uintptr_t)p->col;
    const int32_t *key = (const int32_t *)(uintptr_t)p->key, *comp = (const int32_t *)(uintptr_t)p->comp;
    int32_t *minkey = (int32_t *)(uintptr_t)p->minkey;
    const int stride = (int)(fg_grid_dim_x() * CM_MST_THREADS);
    for (int u = (int)fg_global_id_x(); u < p->n; u += stride) {
        const int cu = comp[u];
        int best = CM_MST_INF;
        for (int e = row[u]; e < row[u + 1]; e++)
            if (key[e] < best && comp[col[e]] != cu) best = key[e];
        if (best < minkey[cu]) fg_atomic_min(&minkey[cu], best);
    }
}

void cm_mst_union(const cm_mst_args *p) {
    const int32_t *comp = (const int32_t *)(uintptr_t)p->comp, *minkey = (const int32_t *)(uintptr_t)p->minkey;
    const int32_t *eu = (const int32_t *)(uintptr_t)p->eu, *ev = (const int32_t *)(uintptr_t)p->ev;
    int32_t *parent = (int32_t *)(uintptr_t)p->parent, *inmst = (int32_t *)(uintptr_t)p->inmst;
    const int stride = (int)(fg_grid_dim_x() * CM_MST_THREADS);
    int hooked = 0;
    for (int c = (int)fg_global_id_x(); c < p->n; c += stride) {
        const int k = minkey[c];
        if (comp[c] != c || k == CM_MST_INF) continue;
        const int id = k % p->n_und, a = comp[eu[id]], b = comp[ev[id]], other = a == c ? b : a;
        if (minkey[other] == k && c < other) continue; /* the same edge both ways: the other root hooks */
        parent[c] = other;
        inmst[id] = 1;
        hooked = 1;
    }
    if (hooked) *(volatile int32_t *)(uintptr_t)p->changed = 1;
}

void cm_mst_jump(const cm_mst_args *p) {
    const int32_t *parent = (const int32_t *)(uintptr_t)p->parent;
    int32_t *comp = (int32_t *)(uintptr_t)p->comp, *minkey = (int32_t *)(uintptr_t)p->minkey;
    const int stride = (int)(fg_grid_dim_x() * CM_MST_THREADS);
    for (int u = (int)fg_global_id_x(); u < p->n; u += stride) {
        int r = comp[u];
        while (parent[r] != r) r = parent[r];
        comp[u] = r;
        minkey[u] = CM_MST_INF;
    }
}
