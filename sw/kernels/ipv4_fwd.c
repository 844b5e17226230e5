/* IPv4 forwarding event kernel (EDGE Sec. V: IPv4 forwarding, 32 packets per
 * event warp).  One thread per packet: TTL check, then longest-prefix match
 * by walking the DIR-16-8-8 table (layout in ipv4_fwd.h; at most three
 * dependent loads).  a0 = the event's submission-queue entry (ipv4_params).
 * The host reference is ipv4_forward_ref() in sim/sys/route_gen.c. */
#include <stdint.h>

#include "ipv4_fwd.h"
#include "fg_kernel.h"

static inline uint32_t load_be32(const volatile uint8_t *p) {
    uint32_t w = *(const volatile uint32_t *)p; /* little-endian load of big-endian bytes */
    return (w >> 24) | ((w >> 8) & 0xFF00u) | ((w << 8) & 0xFF0000u) | (w << 24);
}

/* npkts: the packet count (the parameter entry's, or the receive ring's,
 * ipv4_fwd_ring.c) */
static inline void ipv4_fwd_n(const ipv4_params *p, uint32_t npkts) {
    uint32_t i = fg_block_idx_x() * fg_block_dim_x() + fg_thread_idx_x();
    if (i >= npkts) return;
    const volatile uint8_t *pkt = (const volatile uint8_t *)(uintptr_t)(p->pkts + i * IPV4_PKT_BYTES);
    volatile uint32_t *out = (volatile uint32_t *)(uintptr_t)p->out;
    if (pkt[8] <= 1) {
        out[i] = IPV4_DROP_TTL;
        return;
    }
    uint32_t dst = load_be32(pkt + 16);
    const uint32_t *l1 = (const uint32_t *)(uintptr_t)p->l1;
    const uint32_t *ch = (const uint32_t *)(uintptr_t)p->chunks;
    uint32_t e = l1[dst >> 16];
    if (e & IPV4_PTR_BIT) e = ch[(e & ~IPV4_PTR_BIT) * 256u + ((dst >> 8) & 255u)];
    if (e & IPV4_PTR_BIT) e = ch[(e & ~IPV4_PTR_BIT) * 256u + (dst & 255u)];
    out[i] = e;
}

#ifndef FG_RING
void ipv4_fwd(const ipv4_params *p) { ipv4_fwd_n(p, p->npkts); }
#endif
