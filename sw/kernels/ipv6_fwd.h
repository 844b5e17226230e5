/* ipv6_fwd: layout shared by the IPv6 forwarding event kernel
 * (sw/kernels/ipv6_fwd.c, RV32) and the host side (sim/work/ipv6_work.c).
 * Plain C99, fixed-width fields, no pointers: both compilers see the same
 * bytes.  docs/EVENT_KERNELS.md gives the design and why it is a trie.
 *
 * Route table: DIR-16-8-8-8-8-8-8 multibit trie over the upper 64 bits of
 * the destination (routes are at most /64, IPV6_MAX_LEN): the EDGE
 * artifact's IPv6 kernel walks DPDK's rte_lpm6 (a 24-bit first level, then
 * 8-bit tbl8 groups); here the first level has 16 bits, as the IPv4
 * table's (ipv4_fwd.h), and every entry has the IPv4 format:
 *   bit 31 = 1: pointer, bits 30..0 = index of a 256-entry chunk
 *   bit 31 = 0: leaf, bits 15..0 = next hop (IPV6_NO_ROUTE = no match)
 *   level 1: l1[dst bytes 0..1]; level k = 2..7: chunks[c * 256 + dst byte k]
 * so a lookup is at most seven dependent loads (a /48 route: five).
 *
 * Packets: IPV6_PKT_BYTES-byte slots, IPv6 header at offset 0 (network byte
 * order): hop limit at byte 7, destination address at bytes 24..39.
 * Result per packet (u32): next hop, IPV6_NO_ROUTE, or IPV6_DROP_HL when the
 * hop limit is <= 1 (RFC 8200 4.3 / RFC 4443 3.3: a router discards it). */
#ifndef IPV6_FWD_H
#define IPV6_FWD_H

#include <stdint.h>

#define IPV6_MAX_LEN 64u
#define IPV6_PTR_BIT 0x80000000u
#define IPV6_NO_ROUTE 0xFFFFu
#define IPV6_DROP_HL 0xFFFEu
#define IPV6_MAX_NH 0xFFF0u
#define IPV6_MAX_CHUNKS (1u << 23) /* chunk index << 8 must not reach the pointer bit */
#define IPV6_PKT_BYTES 64u
#define IPV6_DST_OFF 24u
#define IPV6_PKTS_PER_EVENT 32u

/* One submission-queue entry (EDGE III-B parameter memory): pre-configured
 * once, the device updates npkts per event.  Same shape as ipv4_params. */
typedef struct {
    uint32_t pkts;   /* GPU address of this entry's packet buffer */
    uint32_t out;    /* GPU address of this entry's result buffer (u32 each) */
    uint32_t l1;     /* GPU address of the 65536-entry level-1 table */
    uint32_t chunks; /* GPU address of the chunk array */
    uint32_t npkts;  /* packets in this event (<= IPV6_PKTS_PER_EVENT) */
    uint32_t entry;  /* index of this submission-queue entry */
    uint32_t cq_lo;  /* completion-queue flag pointer (device memory), low */
    uint32_t cq_hi;  /* ... high word */
} ipv6_params;

#endif
