/* IPv6 forwarding over a receive ring in synchronized memory (fg_ring.h), in
 * place: the count once it has landed, ipv6_fwd.c's body reading the packets
 * where they land (each load waits for its words), then the slot handed
 * back.  [mt] ring = sync runs it (sim/work/ev_work.h). */
#define FG_RING
#include "ipv6_fwd.c"
#include "fg_ring.h"

typedef FG_RING_PARAMS(ipv6_params) ipv6_ring_params;

void ipv6_fwd(const ipv6_ring_params *r) {
    ipv6_fwd_n(&r->p, fg_ring_count(r->ring));
    fg_ring_release(r->ring, IPV6_PKTS_PER_EVENT * IPV6_PKT_BYTES);
}
