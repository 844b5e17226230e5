/* Test kernel: ipv4_fwd_ring.c's kernel that never hands its slot back
 * (no fg_ring_release), so the device's next DMA into the slot waits on
 * full words (tests/test_edge_mt.c test_ring_faults). */
#define FG_RING
#include "ipv4_fwd.c"
#include "fg_ring.h"

typedef FG_RING_PARAMS(ipv4_params) ipv4_ring_params;

void ipv4_fwd(const ipv4_ring_params *r) { ipv4_fwd_n(&r->p, fg_ring_count(r->ring)); }
