/* MemC GET over a receive ring in synchronized memory (fg_ring.h), staged:
 * the count once it has landed, the requests copied into the buffer the
 * parameter entry names (the slot handed back as they are), then
 * memc_get.c's body on the copy.  [mt] ring = sync runs it
 * (sim/work/ev_work.h). */
#define FG_RING
#include "memc_get.c"
#include "fg_ring.h"

typedef FG_RING_PARAMS(memc_params) memc_ring_params;

void memc_get(const memc_ring_params *r) {
    const uint32_t n = fg_ring_count(r->ring);
    fg_ring_stage(r->ring, r->p.rx, n * MEMC_PKT_BYTES);
    memc_get_n(&r->p, n);
}
