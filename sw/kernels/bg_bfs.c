/* BFS background kernels (EDGE Sec. V: Breadth First Search from Rodinia).
 * C ports of Rodinia bfs's Kernel and Kernel2 (512-thread blocks, one thread
 * per node, no barriers).  The host alternates them per level until Kernel2
 * no longer sets `over` (sim/work/bg_kernels.c).  Host reference: bfs_ref. */
#include "fg_kernel.h"
#include "bg_args.h"

/* Kernel: expand the frontier (mask) into updating, costs of unvisited
 * neighbours = own cost + 1 (every writer of a level writes the same value). */
void bg_bfs_expand(const bg_bfs_args *p) {
    const int tid = (int)(fg_block_idx_x() * BG_BFS_THREADS + fg_thread_idx_x());
    uint8_t *mask = (uint8_t *)(uintptr_t)p->mask;
    if (tid < p->n && mask[tid]) {
        const bg_bfs_node *nodes = (const bg_bfs_node *)(uintptr_t)p->nodes;
        const int32_t *edges = (const int32_t *)(uintptr_t)p->edges;
        uint8_t *updating = (uint8_t *)(uintptr_t)p->updating;
        const uint8_t *visited = (const uint8_t *)(uintptr_t)p->visited;
        int32_t *cost = (int32_t *)(uintptr_t)p->cost;
        mask[tid] = 0;
        const int start = nodes[tid].starting, end = start + nodes[tid].no_of_edges;
        for (int i = start; i < end; i++) {
            const int id = edges[i];
            if (!visited[id]) {
                cost[id] = cost[tid] + 1;
                updating[id] = 1;
            }
        }
    }
}

/* Kernel2: the nodes reached this level become the next frontier. */
void bg_bfs_update(const bg_bfs_args *p) {
    const int tid = (int)(fg_block_idx_x() * BG_BFS_THREADS + fg_thread_idx_x());
    uint8_t *updating = (uint8_t *)(uintptr_t)p->updating;
    if (tid < p->n && updating[tid]) {
        ((uint8_t *)(uintptr_t)p->mask)[tid] = 1;
        ((uint8_t *)(uintptr_t)p->visited)[tid] = 1;
        *(uint8_t *)(uintptr_t)p->over = 1;
        updating[tid] = 0;
    }
}
