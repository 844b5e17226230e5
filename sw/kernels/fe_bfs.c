/* BFS (F/E Table 3, Rodinia bfs): Rodinia's two kernels per level, one
 * thread per node.  Ours (docs/FE_E2E.md "BFS"): per level the host runs
 * fe_bfs_update first (Kernel2: the nodes reached last level, or the source
 * at level 0, join the frontier and get their cost = the level, written
 * once) and then fe_bfs_expand (Kernel: the frontier marks its unvisited
 * neighbours and sets `over`), until a level reaches nothing.  Every cost is
 * thus final when written, which lets a copy back with wait-full (F/E 5.2)
 * take it as soon as it is.  Host reference: sim/fe/fe_bench.c. */
#include "fg_kernel.h"
#include "fe_args.h"

void fe_bfs_update(const fe_bfs_args *p) {
    const int tid = (int)(fg_block_idx_x() * FE_BFS_THREADS + fg_thread_idx_x());
    if (tid >= p->n) return;
    uint8_t *updating = (uint8_t *)(uintptr_t)p->updating;
    if (updating[tid] || (p->level == 0 && tid == p->src)) {
        ((uint8_t *)(uintptr_t)p->mask)[tid] = 1;
        ((uint8_t *)(uintptr_t)p->visited)[tid] = 1;
        updating[tid] = 0;
        ((int32_t *)(uintptr_t)p->cost)[tid] = p->level;
    }
}

void fe_bfs_expand(const fe_bfs_args *p) {
    const int tid = (int)(fg_block_idx_x() * FE_BFS_THREADS + fg_thread_idx_x());
    uint8_t *mask = (uint8_t *)(uintptr_t)p->mask;
    if (tid >= p->n || !mask[tid]) return;
    const fe_bfs_node *nodes = (const fe_bfs_node *)(uintptr_t)p->nodes;
    const int32_t *edges = (const int32_t *)(uintptr_t)p->edges;
    uint8_t *updating = (uint8_t *)(uintptr_t)p->updating;
    const uint8_t *visited = (const uint8_t *)(uintptr_t)p->visited;
    mask[tid] = 0;
    const int start = nodes[tid].starting, end = start + nodes[tid].no_of_edges;
    for (int i = start; i < end; i++) {
        const int id = edges[i];
        if (!visited[id]) {
            updating[id] = 1;
            *(volatile uint32_t *)(uintptr_t)p->over = 1;
        }
    }
}
