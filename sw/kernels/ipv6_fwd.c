/* IPv6 forwarding event kernel (EDGE Sec. V: IPv6 forwarding, 32 packets
 * per event warp).  One thread per packet: hop-limit check, then
 * longest-prefix match by walking the DIR-16-8-8-8-8-8-8 trie (layout in
 * ipv6_fwd.h) one destination byte per level, as the EDGE artifact's kernel
 * walks rte_lpm6's tbl8 groups.  a0 = the event's submission-queue entry
 * (ipv6_params).  Host side and reference: sim/work/ipv6_work.c. */
#include <stdint.h>

#include "ipv6_fwd.h"
#include "fg_kernel.h"

/* npkts: the packet count (the parameter entry's, or the receive ring's,
 * ipv6_fwd_ring.c) */
static inline void ipv6_fwd_n(const ipv6_params *p, uint32_t npkts) {
    uint32_t i = fg_block_idx_x() * fg_block_dim_x() + fg_thread_idx_x();
    if (i >= npkts) return;
    const volatile uint8_t *pkt = (const volatile uint8_t *)(uintptr_t)(p->pkts + i * IPV6_PKT_BYTES);
    volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)p->out;
    if (pkt[7] <= 1) {
        out[i] = IPV6_DROP_HL;
        return;
    }
    const volatile uint8_t *dst = pkt + IPV6_DST_OFF; /* network order: byte k = level k's index */
    const uint32_t *l1 = (const uint32_t *)(uintptr_t)p->l1;
    const uint32_t *ch = (const uint32_t *)(uintptr_t)p->chunks;
    uint32_t e = l1[(uint32_t)dst[0] << 8 | dst[1]];
    /* seven levels at most (routes are at most /64): a corrupted table
     * yields a wrong result, never an endless walk */
    for (unsigned k = 2; (e & IPV6_PTR_BIT) && k < 8; k++) e = ch[(e & ~IPV6_PTR_BIT) * 256u + dst[k]];
    out[i] = e;
}

#ifndef FG_RING
void ipv6_fwd(const ipv6_params *p) { ipv6_fwd_n(p, p->npkts); }
#endif
