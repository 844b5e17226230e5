/* lpm: longest-prefix-match routes of any address width up to 64 bits, the
 * part IPv4 (sim/sys/route_gen.h, 32-bit addresses) and IPv6
 * (sim/work/ipv6_work.h, the upper 64 address bits) share: the synthetic
 * BGP-like route generator, the reference trie the hosts check the kernels
 * against, and the packet generators' draws of a destination and a hop
 * count.  docs/ROUTE_GEN.md (IPv4) and docs/EVENT_KERNELS.md (IPv6). */
#ifndef SYS_LPM_H
#define SYS_LPM_H

#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "fg_util.h"

/* The reference trie's "no prefix matches" (IPV4_NO_ROUTE = IPV6_NO_ROUTE). */
#define LPM_NO_ROUTE 0xFFFFu

typedef struct {
    uint64_t prefix; /* the address's upper `len` bits, host order, in the low `width` bits; the rest zero */
    uint8_t len;     /* 1..width */
    uint16_t nh;     /* next hop */
} lpm_route;

/* The upper len bits of a width-bit address set (len 0: none). */
uint64_t lpm_mask(unsigned len, unsigned width);

/* One address family's generator: routes cluster in allocated blocks of
 * block_len bits (pick_block draws one, as an address); a route's bits
 * below the block come from inside().  Its parameters are the config
 * section's keys count, next_hops, <blocks_key>, hit_pct, <drop_key>, seed. */
typedef struct {
    const char *what;       /* message prefix: "route_gen", "ipv6 routes" */
    const char *section;    /* config section: "routes", "ipv6" */
    const char *blocks_key; /* "blocks16", "blocks32" */
    const char *drop_key;   /* "ttl_drop_pct", "hl_drop_pct" */
    unsigned blocks_default, blocks_max, nh_max;
    unsigned width;         /* address bits routed: 32 or 64 */
    unsigned block_len;     /* 16 (IPv4) or 32 (IPv6) */
    const double *len_dist; /* percent of routes per prefix length 0..width */
    uint64_t (*pick_block)(fg_rng *r);
    uint64_t (*inside)(fg_rng *r);
} lpm_family;

typedef struct {
    unsigned n_routes;    /* count, 16384 */
    unsigned n_next_hops; /* next_hops, 64 */
    unsigned n_blocks;    /* <blocks_key>: allocated blocks the routes cluster in (family's default) */
    uint64_t seed;        /* seed, 1 */
    unsigned hit_pct;     /* hit_pct: packets aimed inside a route, 90 */
    unsigned drop_pct;    /* <drop_key>: packets whose TTL / hop limit is <= 1, 2 */
} lpm_gen_params;

void lpm_gen_params_default(const lpm_family *f, lpm_gen_params *p);
/* Reads the family's section of cfg over p (NULL cfg: nothing read). */
int lpm_gen_params_load(const lpm_family *f, lpm_gen_params *p, fg_config *cfg, char *err, size_t errlen);

/* p->n_routes distinct routes (prefix and length), next hops below
 * p->n_next_hops, from p->n_blocks blocks drawn first; the rng seeded with
 * p->seed.  *out malloc'd (caller frees); -1 with a message when out of
 * memory or when the blocks cannot hold n_routes distinct prefixes. */
int lpm_gen(const lpm_family *f, const lpm_gen_params *p, lpm_route **out, size_t *n, char *err, size_t errlen);

/* Reference LPM: a plain binary trie over width-bit addresses (a different
 * algorithm from the kernels' multibit table walks).  NULL when out of memory. */
typedef struct lpm_ref lpm_ref;
lpm_ref *lpm_ref_build(const lpm_route *r, size_t n, unsigned width);
void lpm_ref_free(lpm_ref *t);
uint32_t lpm_ref_lookup(const lpm_ref *t, uint64_t addr); /* nh or LPM_NO_ROUTE */

/* A packet's destination: inside a random route with probability hit_pct,
 * otherwise uniform over the width-bit addresses. */
uint64_t lpm_pick_dst(fg_rng *rng, unsigned hit_pct, const lpm_route *r, size_t n, unsigned width);
/* A packet's TTL / hop limit: 0 or 1 (the packet expires) with probability
 * drop_pct, otherwise 2..255. */
unsigned lpm_pick_hops(fg_rng *rng, unsigned drop_pct);

#endif
