/* route_gen: synthetic BGP-like IPv4 route table, longest-prefix-match
 * reference, the DIR-16-8-8 table the event kernel walks, and packet
 * generation.  The prefix-length distribution and the generator are
 * documented in docs/ROUTE_GEN.md and in route_gen.c. */
#ifndef SYS_ROUTE_GEN_H
#define SYS_ROUTE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "../../sw/kernels/ipv4_fwd.h"
#include "fg_config.h"
#include "fg_util.h"

typedef struct {
    uint32_t prefix; /* host order, low (32 - len) bits zero */
    uint8_t len;     /* 1..32 */
    uint16_t nh;     /* next hop */
} route;

typedef struct {
    unsigned n_routes;    /* [routes] count, 16384 */
    unsigned n_next_hops; /* [routes] next_hops, 64 */
    unsigned n_blocks16;  /* [routes] blocks16: allocated /16 blocks prefixes cluster in, 1024 */
    uint64_t seed;        /* [routes] seed, 1 */
    unsigned hit_pct;     /* [routes] hit_pct: packets aimed inside a route, 90 */
    unsigned ttl_drop_pct;/* [routes] ttl_drop_pct: packets with TTL <= 1, 2 */
} route_gen_params;

void route_gen_params_default(route_gen_params *p);
int route_gen_params_load(route_gen_params *p, fg_config *cfg, char *err, size_t errlen);

/* Percentage of routes per prefix length 0..32 (sums to 100). */
const double *route_len_dist(void);

/* Generates p->n_routes distinct routes (malloc'd, caller frees). */
int route_gen(const route_gen_params *p, route **out, size_t *n, char *err, size_t errlen);

/* Reference LPM: a plain binary trie (a different algorithm from the
 * kernel's table walk). */
typedef struct lpm_ref lpm_ref;
lpm_ref *lpm_ref_build(const route *r, size_t n);
void lpm_ref_free(lpm_ref *t);
uint32_t lpm_ref_lookup(const lpm_ref *t, uint32_t addr); /* nh or IPV4_NO_ROUTE */

/* DIR-16-8-8 table in the layout of ipv4_fwd.h. */
typedef struct {
    uint32_t *l1;     /* 65536 entries */
    uint32_t *chunks; /* n_chunks * 256 entries */
    size_t n_chunks;
} ipv4_dir;
int ipv4_dir_build(ipv4_dir *d, const route *r, size_t n, char *err, size_t errlen);
void ipv4_dir_free(ipv4_dir *d);
/* The kernel's walk, in host C. */
uint32_t ipv4_dir_lookup(const ipv4_dir *d, uint32_t addr);

/* One IPV4_PKT_BYTES-byte packet: destination inside a random route with
 * probability hit_pct, otherwise uniform; TTL <= 1 with ttl_drop_pct. */
void ipv4_gen_packet(fg_rng *rng, const route_gen_params *p, const route *r, size_t n,
                     uint8_t pkt[IPV4_PKT_BYTES]);
/* Host reference of the whole kernel for one packet. */
uint32_t ipv4_forward_ref(const lpm_ref *t, const uint8_t pkt[IPV4_PKT_BYTES]);

#endif
