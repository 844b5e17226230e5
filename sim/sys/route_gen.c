/* route_gen: synthetic BGP-like IPv4 routes (lpm.c generates them), DIR-16-8-8 table.
 *
 * Prefix-length distribution (percent of routes): the well-known shape of the
 * public IPv4 BGP table (e.g. the CIDR Report / APNIC routing-table reports of
 * 2019-2021: /24 about 60 %, /22 and /23 about 10 % each, /16-/21 a few
 * percent each, shorter than /16 about 1 %), rounded; /25-/32 (about 1.3 %)
 * stand for the more-specifics of an internal table and exercise the third
 * trie level.  See docs/ROUTE_GEN.md. */
#include "route_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double LEN_DIST[33] = {
    /* /0../7 */ 0, 0, 0, 0, 0, 0, 0, 0,
    /* /8 */ 0.1, /* /9 */ 0.05, /* /10 */ 0.05, /* /11 */ 0.1, /* /12 */ 0.15,
    /* /13 */ 0.15, /* /14 */ 0.2, /* /15 */ 0.2, /* /16 */ 1.6, /* /17 */ 0.9,
    /* /18 */ 1.7, /* /19 */ 3.4, /* /20 */ 4.8, /* /21 */ 5.2, /* /22 */ 10.5,
    /* /23 */ 9.6, /* /24 */ 60.0, /* /25 */ 0.3, /* /26 */ 0.3, /* /27 */ 0.2,
    /* /28 */ 0.15, /* /29 */ 0.1, /* /30 */ 0.1, /* /31 */ 0.05, /* /32 */ 0.1};

const double *route_len_dist(void) { return LEN_DIST; }

/* Public unicast /16 blocks only: not 0/8, 10/8, 127/8, 224/3. */
static uint64_t pick_block16(fg_rng *r) {
    for (;;) {
        uint32_t b = (uint32_t)fg_rng_below(r, 65536);
        unsigned a = b >> 8;
        if (a == 0 || a == 10 || a == 127 || a >= 224) continue;
        return (uint64_t)b << 16;
    }
}

/* a route's low 16 bits inside its /16 block */
static uint64_t inside16(fg_rng *r) { return fg_rng_below(r, 65536); }

_Static_assert(IPV4_NO_ROUTE == LPM_NO_ROUTE, "the reference trie's no-route is the kernel's");

static const lpm_family IPV4 = {.what = "route_gen", .section = "routes", .blocks_key = "blocks16",
                                .drop_key = "ttl_drop_pct", .blocks_default = 1024, .blocks_max = 60000,
                                .nh_max = IPV4_MAX_NH, .width = 32, .block_len = 16, .len_dist = LEN_DIST,
                                .pick_block = pick_block16, .inside = inside16};

void route_gen_params_default(route_gen_params *p) { lpm_gen_params_default(&IPV4, p); }

int route_gen_params_load(route_gen_params *p, fg_config *cfg, char *err, size_t errlen) {
    return lpm_gen_params_load(&IPV4, p, cfg, err, errlen);
}

int route_gen(const route_gen_params *p, lpm_route **out, size_t *n, char *err, size_t errlen) {
    return lpm_gen(&IPV4, p, out, n, err, errlen);
}

/* ------------------------------------------------------------ DIR-16-8-8 */
static int add_chunk(ipv4_dir *d, size_t *cap, uint32_t fill, uint32_t *idx) {
    if (d->n_chunks == *cap) {
        size_t c = *cap ? 2 * *cap : 256;
        uint32_t *p = realloc(d->chunks, c * 256 * sizeof *p);
        if (!p) return -1;
        d->chunks = p;
        *cap = c;
    }
    for (unsigned i = 0; i < 256; i++) d->chunks[d->n_chunks * 256 + i] = fill;
    *idx = (uint32_t)d->n_chunks++;
    return 0;
}

static int by_len(const void *a, const void *b) {
    const lpm_route *x = a, *y = b;
    return (int)x->len - (int)y->len;
}

/* Routes are inserted from short to long prefixes, so a longer prefix always
 * overwrites (or pushes down into a new chunk) what a shorter one wrote. */
int ipv4_dir_build(ipv4_dir *d, const lpm_route *r, size_t n, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    size_t cap = 0;
    lpm_route *s = malloc(n * sizeof *s + 1);
    d->l1 = malloc(65536 * sizeof *d->l1);
    if (!s || !d->l1) goto oom;
    memcpy(s, r, n * sizeof *s);
    qsort(s, n, sizeof *s, by_len);
    for (unsigned i = 0; i < 65536; i++) d->l1[i] = IPV4_NO_ROUTE;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = (uint32_t)s[i].prefix, nh = s[i].nh;
        unsigned len = s[i].len;
        if (len <= 16) {
            uint32_t first = a >> 16, cnt = 1u << (16 - len);
            for (uint32_t j = 0; j < cnt; j++) d->l1[first + j] = nh;
            continue;
        }
        uint32_t *e1 = &d->l1[a >> 16];
        if (!(*e1 & IPV4_PTR_BIT)) {
            uint32_t c;
            if (add_chunk(d, &cap, *e1, &c)) goto oom;
            e1 = &d->l1[a >> 16];
            *e1 = IPV4_PTR_BIT | c;
        }
        uint32_t c2 = *e1 & ~IPV4_PTR_BIT;
        if (len <= 24) {
            uint32_t first = (a >> 8) & 255, cnt = 1u << (24 - len);
            for (uint32_t j = 0; j < cnt; j++) d->chunks[c2 * 256 + first + j] = nh;
            continue;
        }
        uint32_t e2 = d->chunks[c2 * 256 + ((a >> 8) & 255)];
        if (!(e2 & IPV4_PTR_BIT)) {
            uint32_t c;
            if (add_chunk(d, &cap, e2, &c)) goto oom;
            d->chunks[c2 * 256 + ((a >> 8) & 255)] = IPV4_PTR_BIT | c;
            e2 = IPV4_PTR_BIT | c;
        }
        uint32_t c3 = e2 & ~IPV4_PTR_BIT, first = a & 255, cnt = 1u << (32 - len);
        for (uint32_t j = 0; j < cnt; j++) d->chunks[c3 * 256 + first + j] = nh;
    }
    free(s);
    return 0;
oom:
    free(s);
    ipv4_dir_free(d);
    snprintf(err, errlen, "ipv4_dir_build: out of memory");
    return -1;
}

void ipv4_dir_free(ipv4_dir *d) {
    free(d->l1);
    free(d->chunks);
    memset(d, 0, sizeof *d);
}

uint32_t ipv4_dir_lookup(const ipv4_dir *d, uint32_t addr) {
    uint32_t e = d->l1[addr >> 16];
    if (e & IPV4_PTR_BIT) e = d->chunks[(e & ~IPV4_PTR_BIT) * 256 + ((addr >> 8) & 255)];
    if (e & IPV4_PTR_BIT) e = d->chunks[(e & ~IPV4_PTR_BIT) * 256 + (addr & 255)];
    return e;
}

/* ------------------------------------------------------------ packets */
void ipv4_gen_packet(fg_rng *rng, const route_gen_params *p, const lpm_route *r, size_t n,
                     uint8_t pkt[IPV4_PKT_BYTES]) {
    uint32_t dst = (uint32_t)lpm_pick_dst(rng, p->hit_pct, r, n, 32);
    unsigned ttl = lpm_pick_hops(rng, p->drop_pct);
    memset(pkt, 0, IPV4_PKT_BYTES);
    pkt[0] = 0x45;                         /* version 4, IHL 5 */
    pkt[2] = 0, pkt[3] = IPV4_PKT_BYTES;   /* total length */
    pkt[8] = (uint8_t)ttl;
    pkt[9] = 17;                           /* UDP */
    uint32_t src = (uint32_t)fg_rng_next(rng);
    for (int i = 0; i < 4; i++) {
        pkt[12 + i] = (uint8_t)(src >> (24 - 8 * i));
        pkt[16 + i] = (uint8_t)(dst >> (24 - 8 * i));
    }
    for (unsigned i = 20; i < IPV4_PKT_BYTES; i++) pkt[i] = (uint8_t)fg_rng_next(rng);
}

uint32_t ipv4_forward_ref(const lpm_ref *t, const uint8_t pkt[IPV4_PKT_BYTES]) {
    if (pkt[8] <= 1) return IPV4_DROP_TTL;
    uint32_t dst = (uint32_t)pkt[16] << 24 | (uint32_t)pkt[17] << 16 | (uint32_t)pkt[18] << 8 | pkt[19];
    return lpm_ref_lookup(t, dst);
}
