/* route_gen: synthetic BGP-like IPv4 routes, LPM reference, DIR-16-8-8 table.
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

void route_gen_params_default(route_gen_params *p) {
    p->n_routes = 16384;
    p->n_next_hops = 64;
    p->n_blocks16 = 1024;
    p->seed = 1;
    p->hit_pct = 90;
    p->ttl_drop_pct = 2;
}

int route_gen_params_load(route_gen_params *p, fg_config *cfg, char *err, size_t errlen) {
    uint64_t v;
    struct {
        const char *key;
        unsigned *dst;
        uint64_t min, max;
    } k[] = {{"count", &p->n_routes, 1, 1u << 20},
             {"next_hops", &p->n_next_hops, 1, IPV4_MAX_NH},
             {"blocks16", &p->n_blocks16, 1, 60000},
             {"hit_pct", &p->hit_pct, 0, 100},
             {"ttl_drop_pct", &p->ttl_drop_pct, 0, 100}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        v = *k[i].dst;
        if (fg_config_u64(cfg, "routes", k[i].key, k[i].min, k[i].max, &v, err, errlen)) return -1;
        *k[i].dst = (unsigned)v;
    }
    return fg_config_u64(cfg, "routes", "seed", 0, UINT64_MAX, &p->seed, err, errlen);
}

static uint32_t mask_of(unsigned len) { return len ? 0xFFFFFFFFu << (32 - len) : 0; }

/* Public unicast /16 blocks only: not 0/8, 10/8, 127/8, 224/3. */
static uint32_t pick_block16(fg_rng *r) {
    for (;;) {
        uint32_t b = (uint32_t)fg_rng_below(r, 65536);
        unsigned a = b >> 8;
        if (a == 0 || a == 10 || a == 127 || a >= 224) continue;
        return b << 16;
    }
}

int route_gen(const route_gen_params *p, route **out, size_t *n, char *err, size_t errlen) {
    fg_rng rng;
    fg_rng_seed(&rng, p->seed);
    uint32_t *blocks = malloc(sizeof *blocks * p->n_blocks16);
    size_t hcap = 1;
    while (hcap < 4u * p->n_routes) hcap <<= 1;
    uint64_t *hash = calloc(hcap, sizeof *hash); /* key (prefix << 8 | len) + 1, 0 = empty */
    route *r = malloc(sizeof *r * p->n_routes);
    if (!blocks || !hash || !r) {
        free(blocks), free(hash), free(r);
        snprintf(err, errlen, "route_gen: out of memory for %u routes", p->n_routes);
        return -1;
    }
    for (unsigned i = 0; i < p->n_blocks16; i++) blocks[i] = pick_block16(&rng);
    double cum[33], s = 0;
    for (int l = 0; l <= 32; l++) cum[l] = (s += LEN_DIST[l]);
    size_t cnt = 0;
    uint64_t tries = 0;
    while (cnt < p->n_routes) {
        if (++tries > 100ull * p->n_routes + 100000) {
            free(blocks), free(hash), free(r);
            snprintf(err, errlen,
                     "route_gen: cannot draw %u distinct routes from %u /16 blocks; raise "
                     "[routes] blocks16",
                     p->n_routes, p->n_blocks16);
            return -1;
        }
        double u = (double)fg_rng_below(&rng, 1000000) / 1000000.0 * s;
        unsigned len = 8;
        while (len < 32 && cum[len] <= u) len++;
        uint32_t a = blocks[fg_rng_below(&rng, p->n_blocks16)] |
                     (uint32_t)fg_rng_below(&rng, 65536);
        a &= mask_of(len);
        uint64_t key = ((uint64_t)a << 8 | len) + 1;
        size_t h = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (hcap - 1);
        while (hash[h] && hash[h] != key) h = (h + 1) & (hcap - 1);
        if (hash[h]) continue; /* duplicate prefix */
        hash[h] = key;
        r[cnt].prefix = a;
        r[cnt].len = (uint8_t)len;
        r[cnt].nh = (uint16_t)fg_rng_below(&rng, p->n_next_hops);
        cnt++;
    }
    free(blocks);
    free(hash);
    *out = r;
    *n = cnt;
    return 0;
}

/* ------------------------------------------------------------ binary trie */
struct lpm_ref {
    uint32_t (*child)[2]; /* 0 = none */
    uint32_t *nh;         /* IPV4_NO_ROUTE when no prefix ends here */
    size_t n, cap;
};

static uint32_t node_new(lpm_ref *t) {
    if (t->n == t->cap) {
        size_t c = t->cap ? 2 * t->cap : 1024;
        void *a = realloc(t->child, c * sizeof *t->child), *b = a ? realloc(t->nh, c * sizeof *t->nh) : NULL;
        if (a) t->child = a;
        if (!b) return 0;
        t->nh = b;
        t->cap = c;
    }
    t->child[t->n][0] = t->child[t->n][1] = 0;
    t->nh[t->n] = IPV4_NO_ROUTE;
    return (uint32_t)t->n++;
}

lpm_ref *lpm_ref_build(const route *r, size_t n) {
    lpm_ref *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    if (node_new(t) != 0) goto fail; /* root is node 0 */
    for (size_t i = 0; i < n; i++) {
        uint32_t x = 0;
        for (unsigned b = 0; b < r[i].len; b++) {
            unsigned bit = (r[i].prefix >> (31 - b)) & 1;
            if (!t->child[x][bit]) {
                uint32_t c = node_new(t);
                if (!c) goto fail;
                t->child[x][bit] = c;
            }
            x = t->child[x][bit];
        }
        t->nh[x] = r[i].nh;
    }
    return t;
fail:
    lpm_ref_free(t);
    return NULL;
}

void lpm_ref_free(lpm_ref *t) {
    if (!t) return;
    free(t->child);
    free(t->nh);
    free(t);
}

uint32_t lpm_ref_lookup(const lpm_ref *t, uint32_t addr) {
    uint32_t x = 0, best = t->nh[0];
    for (unsigned b = 0; b < 32; b++) {
        x = t->child[x][(addr >> (31 - b)) & 1];
        if (!x) break;
        if (t->nh[x] != IPV4_NO_ROUTE) best = t->nh[x];
    }
    return best;
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
    const route *x = a, *y = b;
    return (int)x->len - (int)y->len;
}

/* Routes are inserted from short to long prefixes, so a longer prefix always
 * overwrites (or pushes down into a new chunk) what a shorter one wrote. */
int ipv4_dir_build(ipv4_dir *d, const route *r, size_t n, char *err, size_t errlen) {
    memset(d, 0, sizeof *d);
    size_t cap = 0;
    route *s = malloc(n * sizeof *s + 1);
    d->l1 = malloc(65536 * sizeof *d->l1);
    if (!s || !d->l1) goto oom;
    memcpy(s, r, n * sizeof *s);
    qsort(s, n, sizeof *s, by_len);
    for (unsigned i = 0; i < 65536; i++) d->l1[i] = IPV4_NO_ROUTE;
    for (size_t i = 0; i < n; i++) {
        uint32_t a = s[i].prefix, nh = s[i].nh;
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
void ipv4_gen_packet(fg_rng *rng, const route_gen_params *p, const route *r, size_t n,
                     uint8_t pkt[IPV4_PKT_BYTES]) {
    uint32_t dst;
    if (n && fg_rng_below(rng, 100) < p->hit_pct) {
        const route *x = &r[fg_rng_below(rng, n)];
        dst = x->prefix | ((uint32_t)fg_rng_next(rng) & ~mask_of(x->len));
    } else {
        dst = (uint32_t)fg_rng_next(rng);
    }
    unsigned ttl = fg_rng_below(rng, 100) < p->ttl_drop_pct ? (unsigned)fg_rng_below(rng, 2)
                                                            : 2 + (unsigned)fg_rng_below(rng, 254);
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
