/* gpu_traffic: a stand-in for the GPU side of the CM machine until the SIMT
 * cores run on the memory system (sim/simt, issue 10 part B; docs/CM_MACHINE.md):
 * each of the GPU cores' ports streams line requests like the L1 misses of a
 * memory-bound streaming kernel (a STREAM-triad-like a[i] = b[i] + s c[i]:
 * two reads and one write per element, 128 B lines, consecutive lines per
 * core), keeping up to `outstanding` requests in flight per core (writes
 * until acknowledged).  Lines are 128 B (full-line masks).  It is line
 * traffic, not a kernel: it has no IPC and no warps, so no stallGPU. */
#ifndef GPU_TRAFFIC_H
#define GPU_TRAFFIC_H

#include <stdbool.h>
#include <stdint.h>

#include "mem/mem.h"

typedef struct {
    unsigned cores;        /* ports 0..cores-1 */
    unsigned outstanding;  /* requests in flight per core (an L1's MSHRs) */
    uint64_t base, bytes;  /* the three arrays, split across the cores */
    unsigned line_bytes;   /* 128 */
} gpu_traffic_config;

typedef struct gpu_traffic gpu_traffic;

gpu_traffic *gpu_traffic_new(const gpu_traffic_config *c);
void gpu_traffic_free(gpu_traffic *t);
/* One GPU core cycle: takes the cores' responses, offers one request per core. */
void gpu_traffic_tick(gpu_traffic *t, mem_system *m, bool on);
/* Lines read and written so far, and whether nothing is in flight. */
uint64_t gpu_traffic_lines(const gpu_traffic *t);
bool gpu_traffic_idle(const gpu_traffic *t);

#endif
