/* ipv4_fwd: layout shared by the IPv4 forwarding event kernel
 * (sw/kernels/ipv4_fwd.c, RV32) and the host side (sim/sys/route_gen.c,
 * sim/sys/nic.c).  Plain C99, fixed-width fields, no pointers: both
 * compilers see the same bytes.
 *
 * Route table: DIR-16-8-8 multibit trie (strides 16, 8, 8), 32-bit entries.
 *   entry bit 31 = 1: pointer, bits 30..0 = index of a 256-entry chunk
 *   entry bit 31 = 0: leaf, bits 15..0 = next hop (IPV4_NO_ROUTE = no match)
 *   level 1: l1[dst >> 16]; level 2: chunks[c * 256 + ((dst >> 8) & 255)];
 *   level 3: chunks[c * 256 + (dst & 255)].
 *
 * Packets: IPV4_PKT_BYTES-byte slots, IPv4 header at offset 0 (network byte
 * order): TTL at byte 8, destination address at bytes 16..19.
 * Result per packet (u32): next hop, IPV4_NO_ROUTE, or IPV4_DROP_TTL when
 * TTL <= 1 (the packet would expire, RFC 1812 5.3.1). */
#ifndef IPV4_FWD_H
#define IPV4_FWD_H

#include <stdint.h>

#define IPV4_PTR_BIT 0x80000000u
#define IPV4_NO_ROUTE 0xFFFFu
#define IPV4_DROP_TTL 0xFFFEu
#define IPV4_MAX_NH 0xFFF0u
#define IPV4_PKT_BYTES 64u
#define IPV4_PKTS_PER_EVENT 32u

/* One submission-queue entry (the event kernel's parameter memory, EDGE
 * III-B): pre-configured once, the device updates npkts per event. */
typedef struct {
    uint32_t pkts;     /* GPU address of this entry's packet buffer */
    uint32_t out;      /* GPU address of this entry's result buffer (u32 each) */
    uint32_t l1;       /* GPU address of the 65536-entry level-1 table */
    uint32_t chunks;   /* GPU address of the chunk array */
    uint32_t npkts;    /* packets in this event (<= IPV4_PKTS_PER_EVENT) */
    uint32_t entry;    /* index of this submission-queue entry */
    uint32_t cq_lo;    /* completion-queue flag pointer (device memory), low */
    uint32_t cq_hi;    /* ... high word */
} ipv4_params;

#endif
