/* lpm: see lpm.h. */
#include "lpm.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t lpm_mask(unsigned len, unsigned width) {
    uint64_t all = width >= 64 ? ~0ull : (1ull << width) - 1;
    return len ? (~0ull << (width - len)) & all : 0;
}

void lpm_gen_params_default(const lpm_family *f, lpm_gen_params *p) {
    p->n_routes = 16384;
    p->n_next_hops = 64;
    p->n_blocks = f->blocks_default;
    p->seed = 1;
    p->hit_pct = 90;
    p->drop_pct = 2;
}

int lpm_gen_params_load(const lpm_family *f, lpm_gen_params *p, fg_config *cfg, char *err, size_t errlen) {
    if (!cfg) return 0;
    struct {
        const char *key;
        unsigned *dst;
        uint64_t min, max;
    } k[] = {{"count", &p->n_routes, 1, 1u << 20},
             {"next_hops", &p->n_next_hops, 1, f->nh_max},
             {f->blocks_key, &p->n_blocks, 1, f->blocks_max},
             {"hit_pct", &p->hit_pct, 0, 100},
             {f->drop_key, &p->drop_pct, 0, 100}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        uint64_t v = *k[i].dst;
        if (fg_config_u64(cfg, f->section, k[i].key, k[i].min, k[i].max, &v, err, errlen)) return -1;
        *k[i].dst = (unsigned)v;
    }
    return fg_config_u64(cfg, f->section, "seed", 0, UINT64_MAX, &p->seed, err, errlen);
}

int lpm_gen(const lpm_family *f, const lpm_gen_params *p, lpm_route **out, size_t *n, char *err, size_t errlen) {
    const unsigned n_routes = p->n_routes, n_blocks = p->n_blocks;
    fg_rng rng;
    fg_rng_seed(&rng, p->seed);
    uint64_t *blocks = malloc(sizeof *blocks * n_blocks);
    size_t hcap = 1;
    while (hcap < 4u * n_routes) hcap <<= 1;
    struct hkey {
        uint64_t prefix;
        unsigned len; /* 0 = empty */
    } *hash = calloc(hcap, sizeof *hash);
    lpm_route *r = malloc(sizeof *r * n_routes);
    if (!blocks || !hash || !r) {
        free(blocks), free(hash), free(r);
        snprintf(err, errlen, "%s: out of memory for %u routes", f->what, n_routes);
        return -1;
    }
    for (unsigned i = 0; i < n_blocks; i++) blocks[i] = f->pick_block(&rng);
    double cum[65], s = 0;
    for (unsigned l = 0; l <= f->width; l++) cum[l] = (s += f->len_dist[l]);
    size_t cnt = 0;
    uint64_t tries = 0;
    while (cnt < n_routes) {
        if (++tries > 100ull * n_routes + 100000) {
            free(blocks), free(hash), free(r);
            snprintf(err, errlen, "%s: cannot draw %u distinct routes from %u /%u blocks; raise [%s] %s", f->what,
                     n_routes, n_blocks, f->block_len, f->section, f->blocks_key);
            return -1;
        }
        double u = (double)fg_rng_below(&rng, 1000000) / 1000000.0 * s;
        unsigned len = 1;
        while (len < f->width && cum[len] <= u) len++;
        /* routes up to the block length cover a block (aggregates); longer ones sit inside one */
        uint64_t a = blocks[fg_rng_below(&rng, n_blocks)];
        a = (a | f->inside(&rng)) & lpm_mask(len, f->width);
        size_t h = (size_t)(((a ^ len) * 0x9E3779B97F4A7C15ull) >> 20) & (hcap - 1);
        while (hash[h].len && (hash[h].prefix != a || hash[h].len != len)) h = (h + 1) & (hcap - 1);
        if (hash[h].len) continue; /* duplicate prefix */
        hash[h].prefix = a, hash[h].len = len;
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
    unsigned width;
    uint32_t (*child)[2]; /* 0 = none */
    uint32_t *nh;         /* LPM_NO_ROUTE when no prefix ends here */
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
    t->nh[t->n] = LPM_NO_ROUTE;
    return (uint32_t)t->n++;
}

lpm_ref *lpm_ref_build(const lpm_route *r, size_t n, unsigned width) {
    lpm_ref *t = calloc(1, sizeof *t);
    if (!t || node_new(t) != 0) goto fail; /* root is node 0 */
    t->width = width;
    for (size_t i = 0; i < n; i++) {
        uint32_t x = 0;
        for (unsigned b = 0; b < r[i].len; b++) {
            unsigned bit = (unsigned)(r[i].prefix >> (width - 1 - b)) & 1;
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

uint32_t lpm_ref_lookup(const lpm_ref *t, uint64_t addr) {
    uint32_t x = 0, best = t->nh[0];
    for (unsigned b = 0; b < t->width; b++) {
        x = t->child[x][(addr >> (t->width - 1 - b)) & 1];
        if (!x) break;
        if (t->nh[x] != LPM_NO_ROUTE) best = t->nh[x];
    }
    return best;
}

/* ------------------------------------------------------------ packets */
uint64_t lpm_pick_dst(fg_rng *rng, unsigned hit_pct, const lpm_route *r, size_t n, unsigned width) {
    uint64_t all = lpm_mask(width, width);
    if (n && fg_rng_below(rng, 100) < hit_pct) {
        const lpm_route *x = &r[fg_rng_below(rng, n)];
        return x->prefix | (fg_rng_next(rng) & all & ~lpm_mask(x->len, width));
    }
    return fg_rng_next(rng) & all;
}

unsigned lpm_pick_hops(fg_rng *rng, unsigned drop_pct) {
    return fg_rng_below(rng, 100) < drop_pct ? (unsigned)fg_rng_below(rng, 2) : 2 + (unsigned)fg_rng_below(rng, 254);
}
