/* ipv6_work: see ipv6_work.h; the generator is documented in
 * docs/EVENT_KERNELS.md ("IPv6 routes and packets"). */
#include "work/ipv6_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/ev_work.h"

/* Percent of routes per prefix length: the shape of the public IPv6 BGP
 * table (RIPE NCC RIS, "Visibility of prefix lengths in IPv4 and IPv6",
 * 2011 and 2019: /48 and /32 dominate, almost nothing longer than /48
 * propagates; bgp.potaroo.net AS6447 IPv6 report, Oct 2024: 226,415
 * entries, average prefix length 43.2), rounded; this table's mean is
 * 43.0.  /56 and /64 stand for an internal table's more-specifics and
 * exercise the trie's last levels. */
static const double LEN_DIST6[65] = {
    [19] = 0.05, [20] = 0.15, [21] = 0.05, [22] = 0.1, [23] = 0.05, [24] = 0.3, [25] = 0.05,
    [26] = 0.1,  [27] = 0.1,  [28] = 0.8,  [29] = 4.5, [30] = 0.5,  [31] = 0.4, [32] = 9.5,
    [33] = 1.5,  [34] = 1.6,  [35] = 0.6,  [36] = 2.8, [37] = 0.5,  [38] = 1.0, [39] = 0.5,
    [40] = 4.8,  [41] = 0.6,  [42] = 1.4,  [43] = 0.5, [44] = 9.5,  [45] = 1.2, [46] = 3.0,
    [47] = 2.8,  [48] = 50.75, [56] = 0.1, [64] = 0.2};

const double *ipv6_len_dist(void) { return LEN_DIST6; }

/* A /32 inside the RIRs' global-unicast pools (IANA IPv6 unicast address
 * space registry): 2001::/16 and the /12s of APNIC 2400::, ARIN 2600::,
 * LACNIC 2800::, RIPE NCC 2a00::, AFRINIC 2c00::. */
static uint64_t pick_block32(fg_rng *r) {
    static const struct {
        uint16_t top;
        unsigned len;
    } pool[] = {{0x2001, 16}, {0x2400, 12}, {0x2600, 12}, {0x2800, 12}, {0x2a00, 12}, {0x2c00, 12}};
    unsigned i = (unsigned)fg_rng_below(r, sizeof pool / sizeof pool[0]);
    uint64_t m = lpm_mask(pool[i].len, 64);
    return ((uint64_t)pool[i].top << 48 & m) | (fg_rng_next(r) & ~m & lpm_mask(32, 64));
}

/* a route's low 32 bits inside its /32 block */
static uint64_t inside32(fg_rng *r) { return fg_rng_next(r) >> 32; }

_Static_assert(IPV6_NO_ROUTE == LPM_NO_ROUTE, "the reference trie's no-route is the kernel's");

static const lpm_family IPV6 = {.what = "ipv6 routes", .section = "ipv6", .blocks_key = "blocks32",
                                .drop_key = "hl_drop_pct", .blocks_default = 4096, .blocks_max = 1u << 20,
                                .nh_max = IPV6_MAX_NH, .width = 64, .block_len = 32, .len_dist = LEN_DIST6,
                                .pick_block = pick_block32, .inside = inside32};

void ipv6_gen_params_default(ipv6_gen_params *p) { lpm_gen_params_default(&IPV6, p); }

int ipv6_gen_params_load(ipv6_gen_params *p, fg_config *cfg, char *err, size_t errlen) {
    return lpm_gen_params_load(&IPV6, p, cfg, err, errlen);
}

int ipv6_route_gen(const ipv6_gen_params *p, lpm_route **out, size_t *n, char *err, size_t errlen) {
    return lpm_gen(&IPV6, p, out, n, err, errlen);
}

/* ------------------------------------------------- DIR-16-8-8-8-8-8-8 */
static int add_chunk6(ipv6_dir *d, size_t *cap, uint32_t fill, uint32_t *idx) {
    if (d->n_chunks == IPV6_MAX_CHUNKS) return -1;
    if (d->n_chunks == *cap) {
        size_t c = *cap ? 2 * *cap : 1024;
        uint32_t *p = realloc(d->chunks, c * 256 * sizeof *p);
        if (!p) return -1;
        d->chunks = p;
        *cap = c;
    }
    for (unsigned i = 0; i < 256; i++) d->chunks[d->n_chunks * 256 + i] = fill;
    *idx = (uint32_t)d->n_chunks++;
    return 0;
}

static int by_len6(const void *a, const void *b) { return (int)((const lpm_route *)a)->len - ((const lpm_route *)b)->len; }

/* Level 0 holds address bits 0..15, level j >= 1 bits 8j+8 .. 8j+15. */
static unsigned lvl_end(unsigned j) { return 16 + 8 * j; }
static uint32_t lvl_idx(uint64_t a, unsigned j) { return j ? (uint32_t)(a >> (48 - 8 * j)) & 255 : (uint32_t)(a >> 48); }

/* Routes go in from short to long, so a longer prefix always overwrites (or
 * pushes down into a new chunk) what a shorter one wrote. */
int ipv6_dir_build(ipv6_dir *d, const lpm_route *r, size_t n, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    size_t cap = 0;
    lpm_route *s = malloc(n * sizeof *s + 1);
    d->l1 = malloc(65536 * sizeof *d->l1);
    if (!s || !d->l1) goto oom;
    memcpy(s, r, n * sizeof *s);
    qsort(s, n, sizeof *s, by_len6);
    for (unsigned i = 0; i < 65536; i++) d->l1[i] = IPV6_NO_ROUTE;
    for (size_t i = 0; i < n; i++) {
        const uint64_t a = s[i].prefix;
        const unsigned len = s[i].len;
        unsigned j = 0;
        uint32_t *tab = d->l1; /* level j's table: l1, or chunk c of chunks */
        size_t base = 0;
        while (len > lvl_end(j)) {
            uint32_t e = tab[base + lvl_idx(a, j)], c;
            if (!(e & IPV6_PTR_BIT)) {
                if (add_chunk6(d, &cap, e, &c)) goto oom;
                if (j) tab = d->chunks; /* add_chunk6 may have moved the chunks */
                tab[base + lvl_idx(a, j)] = e = IPV6_PTR_BIT | c;
            }
            tab = d->chunks, base = (size_t)(e & ~IPV6_PTR_BIT) * 256, j++;
        }
        uint32_t first = lvl_idx(a, j), cnt = 1u << (lvl_end(j) - len);
        for (uint32_t k = 0; k < cnt; k++) tab[base + first + k] = s[i].nh;
    }
    free(s);
    return 0;
oom:
    free(s);
    ipv6_dir_free(d);
    snprintf(err, errlen, "ipv6_dir_build: out of memory (or more than %u chunks)", IPV6_MAX_CHUNKS);
    return -1;
}

void ipv6_dir_free(ipv6_dir *d) {
    free(d->l1);
    free(d->chunks);
    memset(d, 0, sizeof *d);
}

uint32_t ipv6_dir_lookup(const ipv6_dir *d, uint64_t addr) {
    uint32_t e = d->l1[addr >> 48];
    for (unsigned j = 1; e & IPV6_PTR_BIT; j++) e = d->chunks[(size_t)(e & ~IPV6_PTR_BIT) * 256 + lvl_idx(addr, j)];
    return e;
}

/* ------------------------------------------------------------ packets */
static void put_be64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (56 - 8 * i));
}

void ipv6_gen_packet(fg_rng *rng, const ipv6_gen_params *p, const lpm_route *r, size_t n,
                     uint8_t pkt[IPV6_PKT_BYTES]) {
    uint64_t dst = lpm_pick_dst(rng, p->hit_pct, r, n, 64);
    unsigned hl = lpm_pick_hops(rng, p->drop_pct);
    memset(pkt, 0, IPV6_PKT_BYTES);
    pkt[0] = 0x60;                                /* version 6 */
    pkt[5] = IPV6_PKT_BYTES - 40;                 /* payload length */
    pkt[6] = 17;                                  /* next header: UDP */
    pkt[7] = (uint8_t)hl;                         /* hop limit */
    put_be64(pkt + 8, fg_rng_next(rng));          /* source */
    put_be64(pkt + 16, fg_rng_next(rng));
    put_be64(pkt + IPV6_DST_OFF, dst);            /* destination: routed part */
    put_be64(pkt + IPV6_DST_OFF + 8, fg_rng_next(rng)); /* interface identifier */
    for (unsigned i = 40; i < IPV6_PKT_BYTES; i++) pkt[i] = (uint8_t)fg_rng_next(rng);
}

uint32_t ipv6_forward_ref(const lpm_ref *t, const uint8_t pkt[IPV6_PKT_BYTES]) {
    if (pkt[7] <= 1) return IPV6_DROP_HL;
    uint64_t dst = 0;
    for (int i = 0; i < 8; i++) dst = dst << 8 | pkt[IPV6_DST_OFF + i];
    return lpm_ref_lookup(t, dst);
}

#define SLOT_BYTES (IPV6_PKTS_PER_EVENT * IPV6_PKT_BYTES)

/* the slot's packets: in a synchronized ring the kernel reads them in place */
static uint64_t pkt_addr(const ipv6_work *w, unsigned slot) {
    return w->ring ? ev_ring_data(w->ring_base, slot, SLOT_BYTES) : w->pkt_base + (uint64_t)slot * SLOT_BYTES;
}

/* ------------------------------------------------------------ workload */
int ipv6_work_init(ipv6_work *w, gpu_t *g, const ipv6_gen_params *gp, const char *elf, unsigned slots, ev_ring ring,
                   char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    w->gp = *gp;
    w->slots = slots;
    w->ring = ring;
    if (ipv6_route_gen(gp, &w->routes, &w->n_routes, err, errlen)) return -1;
    w->ref = lpm_ref_build(w->routes, w->n_routes, 64);
    w->pkts = calloc((size_t)slots * IPV6_PKTS_PER_EVENT, IPV6_PKT_BYTES);
    w->send = calloc(slots, sizeof *w->send);
    if (!w->ref || !w->pkts || !w->send) {
        snprintf(err, errlen, "ipv6: out of memory");
        return -1;
    }
    if (ipv6_dir_build(&w->dir, w->routes, w->n_routes, err, errlen)) return -1;
    if (gpu_load_kernel(g, elf, "ipv6_fwd", &w->k, err, errlen)) return -1;
    size_t l1b = 65536 * 4, chb = w->dir.n_chunks * 256 * 4;
    w->l1 = gpu_malloc(g, l1b);
    w->chunks = gpu_malloc(g, chb ? chb : 4);
    w->param_bytes = (unsigned)ev_param_bytes(sizeof(ipv6_params), ring);
    w->sq_base = gpu_malloc(g, (uint64_t)slots * w->param_bytes);
    if (ring) w->pkt_base = w->ring_base = ev_ring_alloc(g, slots, SLOT_BYTES);
    else w->pkt_base = gpu_malloc(g, (uint64_t)slots * SLOT_BYTES);
    w->out_base = gpu_malloc(g, (uint64_t)slots * IPV6_PKTS_PER_EVENT * 4);
    if (!w->l1 || !w->chunks || !w->sq_base || !w->pkt_base || !w->out_base ||
        (w->out_base + (uint64_t)slots * IPV6_PKTS_PER_EVENT * 4) >> 32) {
        snprintf(err, errlen, "ipv6: GPU memory too small for the route table (%zu chunks) and %u slots",
                 w->dir.n_chunks, slots);
        return -1;
    }
    if (gpu_mem_write(g, w->l1, w->dir.l1, l1b) || (chb && gpu_mem_write(g, w->chunks, w->dir.chunks, chb))) {
        snprintf(err, errlen, "ipv6: route table upload failed");
        return -1;
    }
    for (unsigned i = 0; i < slots; i++) { /* EDGE III-B: parameter memory configured once */
        ipv6_params q = {(uint32_t)pkt_addr(w, i),
                         (uint32_t)(w->out_base + (uint64_t)i * IPV6_PKTS_PER_EVENT * 4),
                         (uint32_t)w->l1, (uint32_t)w->chunks, 0, i, 0, 0};
        if (ev_param_write(g, ipv6_work_param(w, i), &q, sizeof q, ring, pkt_addr(w, i))) {
            snprintf(err, errlen, "ipv6: parameter memory upload failed");
            return -1;
        }
    }
    return 0;
}

void ipv6_work_free(ipv6_work *w) {
    ipv6_dir_free(&w->dir);
    lpm_ref_free(w->ref);
    free(w->routes);
    free(w->pkts);
    free(w->send);
    memset(w, 0, sizeof *w);
}

uint64_t ipv6_work_param(const ipv6_work *w, unsigned slot) {
    return w->sq_base + (uint64_t)slot * w->param_bytes;
}

gpu_launch_desc ipv6_work_desc(const ipv6_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag) {
    return ev_warp_desc(&w->k, ipv6_work_param(w, slot), n, priority, tag);
}

int ipv6_work_io(const ipv6_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen) {
    if (slot >= w->slots || n == 0 || n > IPV6_PKTS_PER_EVENT) {
        snprintf(err, errlen, "ipv6: slot %u / %u packets out of range", slot, n);
        return -1;
    }
    memset(io, 0, sizeof *io);
    ev_slot_regions(io, w->ring, pkt_addr(w, slot), pkt_addr(w, slot),
                    w->pkts + (size_t)slot * SLOT_BYTES, (size_t)n * IPV6_PKT_BYTES,
                    ipv6_work_param(w, slot) + offsetof(ipv6_params, npkts), n);
    io->out[0] = (ev_region){w->out_base + (uint64_t)slot * IPV6_PKTS_PER_EVENT * 4, NULL, IPV6_PKTS_PER_EVENT * 4, 0};
    io->nout = 1;
    io->poison = 0xA5;
    return 0;
}

int ipv6_work_gen(ipv6_work *w, unsigned slot, unsigned n, fg_rng *rng) {
    uint8_t *pk = w->pkts + (size_t)slot * IPV6_PKTS_PER_EVENT * IPV6_PKT_BYTES;
    for (unsigned i = 0; i < n; i++) ipv6_gen_packet(rng, &w->gp, w->routes, w->n_routes, pk + i * IPV6_PKT_BYTES);
    return 0;
}

int ipv6_work_check(ipv6_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {
    uint32_t got[IPV6_PKTS_PER_EVENT];
    if (slot >= w->slots || n > IPV6_PKTS_PER_EVENT ||
        gpu_mem_read(g, w->out_base + (uint64_t)slot * IPV6_PKTS_PER_EVENT * 4, got, sizeof got)) {
        snprintf(err, errlen, "ipv6: cannot read the results of slot %u", slot);
        return -1;
    }
    const uint8_t *pk = w->pkts + (size_t)slot * IPV6_PKTS_PER_EVENT * IPV6_PKT_BYTES;
    int rc = 0;
    for (unsigned i = 0; i < IPV6_PKTS_PER_EVENT; i++) { /* beyond n: still the poison */
        uint32_t want = i < n ? ipv6_forward_ref(w->ref, pk + i * IPV6_PKT_BYTES) : 0xA5A5A5A5u;
        w->checked++;
        if (got[i] != want) {
            if (!rc)
                snprintf(err, errlen, "ipv6: slot %u packet %u: GPU result 0x%x, host reference 0x%x", slot, i, got[i],
                         want);
            w->wrong++;
            rc = -1;
        }
    }
    return rc;
}

/* ------------------------------------------------------------ ev_work */
EV_WORK_DEFINE(ev_ipv6_ops, "ipv6", "ipv6_fwd", IPV6_PKTS_PER_EVENT, ipv6, ipv6_gen_params, ipv6_gen_params_default,
               ipv6_gen_params_load, ipv6_work_check, ev_idle_none);
