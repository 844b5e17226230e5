/* cm_dyncta: DYNCTA (Kayiran et al., PACT'13), the comparison point of CM
 * Sec. 6, as a C model beside the CM machine's GPU (docs/CM_BAL.md
 * "DYNCTA").  Per SIMT core, every `period` GPU cycles: C_idle (cycles with
 * no warp ready to run) and C_mem (cycles no scheduler issued and every
 * ready-to-run warp waited for a load) of the period set the core's block
 * (CTA) limit n:
 *     C_idle >= t_idle   -> n + 1   (the core lacks work)
 *     C_mem  <  t_mem_l  -> n + 1   (little memory waiting: more TLP)
 *     C_mem  >  t_mem_h  -> n - 1   (memory contention: less TLP)
 *     otherwise            n
 * within 1 .. N, N = the blocks of the running kernel a core can hold
 * (gpu_blocks_per_core).  The block scheduler then gives the core no new
 * block while it holds n and, with `pause`, only the warps of its n oldest
 * blocks issue (gpu_set_block_limit). */
#ifndef CM_DYNCTA_H
#define CM_DYNCTA_H

#include <stdbool.h>

#include "simt/gpu.h"

typedef struct {
    unsigned period;          /* GPU cycles per decision */
    unsigned t_idle;          /* C_idle threshold (cycles of the period) */
    unsigned t_mem_l, t_mem_h;/* C_mem thresholds (cycles of the period) */
    unsigned init;            /* n at the start (0: N, the baseline's) */
    bool pause;               /* blocks beyond n wait instead of running to their end */
} cm_dyncta_params;

typedef struct cm_dyncta cm_dyncta;

/* NULL when out of memory. */
cm_dyncta *cm_dyncta_new(const cm_dyncta_params *p, gpu_t *g);
void cm_dyncta_free(cm_dyncta *d);
/* The GPU side starts: limits set, counts from here. */
void cm_dyncta_start(cm_dyncta *d);
/* After every gpu_tick(). */
void cm_dyncta_tick(cm_dyncta *d);
/* Core's block limit now (0 before the start: none). */
unsigned cm_dyncta_limit(const cm_dyncta *d, unsigned core);

#endif
