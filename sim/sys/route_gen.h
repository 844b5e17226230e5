/* route_gen: the IPv4 family of the shared route generator and reference
 * trie (lpm.h: routes are lpm_route with 32-bit prefixes), the DIR-16-8-8
 * table the event kernel walks, and packet generation.  The prefix-length
 * distribution and the generator are documented in docs/ROUTE_GEN.md and
 * in route_gen.c. */
#ifndef SYS_ROUTE_GEN_H
#define SYS_ROUTE_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "../../sw/kernels/ipv4_fwd.h"
#include "fg_config.h"
#include "fg_util.h"
#include "lpm.h"

/* [routes]: count 16384, next_hops 64, blocks16 (n_blocks: allocated /16
 * blocks the prefixes cluster in) 1024, seed 1, hit_pct (packets aimed
 * inside a route) 90, ttl_drop_pct (drop_pct: packets with TTL <= 1) 2. */
typedef lpm_gen_params route_gen_params;

void route_gen_params_default(route_gen_params *p);
int route_gen_params_load(route_gen_params *p, fg_config *cfg, char *err, size_t errlen);

/* Percentage of routes per prefix length 0..32 (sums to 100). */
const double *route_len_dist(void);

/* Generates p->n_routes distinct IPv4 routes (malloc'd, caller frees); the
 * reference trie over them is lpm_ref_build(r, n, 32). */
int route_gen(const route_gen_params *p, lpm_route **out, size_t *n, char *err, size_t errlen);

/* DIR-16-8-8 table in the layout of ipv4_fwd.h. */
typedef struct {
    uint32_t *l1;     /* 65536 entries */
    uint32_t *chunks; /* n_chunks * 256 entries */
    size_t n_chunks;
} ipv4_dir;
int ipv4_dir_build(ipv4_dir *d, const lpm_route *r, size_t n, char *err, size_t errlen);
void ipv4_dir_free(ipv4_dir *d);
/* The kernel's walk, in host C. */
uint32_t ipv4_dir_lookup(const ipv4_dir *d, uint32_t addr);

/* One IPV4_PKT_BYTES-byte packet: destination inside a random route with
 * probability hit_pct, otherwise uniform; TTL <= 1 with drop_pct. */
void ipv4_gen_packet(fg_rng *rng, const route_gen_params *p, const lpm_route *r, size_t n,
                     uint8_t pkt[IPV4_PKT_BYTES]);
/* Host reference of the whole kernel for one packet. */
uint32_t ipv4_forward_ref(const lpm_ref *t, const uint8_t pkt[IPV4_PKT_BYTES]);

#endif
