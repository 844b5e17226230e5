/* ipv6_work: the IPv6 forwarding event kernel as a GPU workload, beside
 * ipv4_work: a synthetic BGP-like IPv6 route table (the prefix-length
 * distribution of the public IPv6 table, docs/EVENT_KERNELS.md) and its
 * reference trie from the generator IPv4 uses too (sys/lpm.h: routes are
 * lpm_route over the upper 64 address bits), the DIR-16-8-8-8-8-8-8 table the
 * kernel walks (sw/kernels/ipv6_fwd.h) in GPU memory, pre-configured
 * parameter slots (EDGE III-B), packets written straight into GPU memory. */
#ifndef WORK_IPV6_WORK_H
#define WORK_IPV6_WORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../sw/kernels/ipv6_fwd.h"
#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"
#include "sys/lpm.h"
#include "work/ev_work.h"

/* [ipv6]: count 16384, next_hops 64, blocks32 (n_blocks: allocated /32
 * blocks the routes cluster in) 4096, seed 1, hit_pct (packets aimed
 * inside a route) 90, hl_drop_pct (drop_pct: packets with hop limit <= 1) 2. */
typedef lpm_gen_params ipv6_gen_params;

void ipv6_gen_params_default(ipv6_gen_params *p);
int ipv6_gen_params_load(ipv6_gen_params *p, fg_config *cfg, char *err, size_t errlen);
/* Percentage of routes per prefix length 0..64 (sums to 100). */
const double *ipv6_len_dist(void);
/* p->n_routes distinct routes (malloc'd, caller frees); the reference trie
 * over them is lpm_ref_build(r, n, 64). */
int ipv6_route_gen(const ipv6_gen_params *p, lpm_route **out, size_t *n, char *err, size_t errlen);

/* DIR-16-8-8-8-8-8-8 table in the layout of ipv6_fwd.h. */
typedef struct {
    uint32_t *l1;     /* 65536 entries */
    uint32_t *chunks; /* n_chunks * 256 entries */
    size_t n_chunks;
} ipv6_dir;
int ipv6_dir_build(ipv6_dir *d, const lpm_route *r, size_t n, char *err, size_t errlen);
void ipv6_dir_free(ipv6_dir *d);
uint32_t ipv6_dir_lookup(const ipv6_dir *d, uint64_t addr); /* the kernel's walk, in host C */

/* One IPV6_PKT_BYTES-byte packet: destination inside a random route with
 * probability hit_pct, otherwise uniform; hop limit <= 1 with drop_pct. */
void ipv6_gen_packet(fg_rng *rng, const ipv6_gen_params *p, const lpm_route *r, size_t n,
                     uint8_t pkt[IPV6_PKT_BYTES]);
/* Host reference of the whole kernel for one packet. */
uint32_t ipv6_forward_ref(const lpm_ref *t, const uint8_t pkt[IPV6_PKT_BYTES]);

typedef struct {
    ipv6_gen_params gp;
    lpm_route *routes;
    size_t n_routes;
    lpm_ref *ref;
    ipv6_dir dir;
    gpu_kernel k;
    unsigned slots;
    uint64_t l1, chunks, sq_base, pkt_base, out_base;
    uint8_t *pkts; /* host copy of every slot's packets */
    ev_ring ring;         /* where the device writes the packets (ev_work.h) */
    uint64_t ring_base;   /* the synchronized receive ring (0: plain) */
    unsigned param_bytes; /* a parameter entry's (ev_param_bytes) */
    ev_send_state *send; /* per slot */
    uint64_t checked, wrong;
} ipv6_work;

int ipv6_work_init(ipv6_work *w, gpu_t *g, const ipv6_gen_params *gp, const char *elf, unsigned slots, ev_ring ring,
                   char *err, size_t errlen);
void ipv6_work_free(ipv6_work *w);
uint64_t ipv6_work_param(const ipv6_work *w, unsigned slot);
gpu_launch_desc ipv6_work_desc(const ipv6_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag);
/* ev_work's pattern (ev_work.h): the slot's memory (packets and count in,
 * 32 result words out, poison 0xA5) and new packets in the host copy. */
int ipv6_work_io(const ipv6_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen);
int ipv6_work_gen(ipv6_work *w, unsigned slot, unsigned n, fg_rng *rng);
int ipv6_work_check(ipv6_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);

#endif
