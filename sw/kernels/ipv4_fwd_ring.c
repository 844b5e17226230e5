/* IPv4 forwarding over a receive ring in synchronized memory (fg_ring.h), in
 * place: the count once it has landed, ipv4_fwd.c's body reading the packets
 * where they land (each load waits for its words), then the slot handed
 * back.  [mt] ring = sync runs it (sim/work/ev_work.h). */
#define FG_RING
#include "ipv4_fwd.c"
#include "fg_ring.h"

typedef FG_RING_PARAMS(ipv4_params) ipv4_ring_params;

void ipv4_fwd(const ipv4_ring_params *r) {
    ipv4_fwd_n(&r->p, fg_ring_count(r->ring));
    fg_ring_release(r->ring, IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES);
}
