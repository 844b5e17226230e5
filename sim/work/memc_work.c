/* memc_work: see memc_work.h and docs/EVENT_KERNELS.md ("MemC"). */
#include "work/memc_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/ev_work.h"

#define POISON 0xA5u
#define REQ_BYTES 72u /* headers, frame header, "get " + 16 B key + "\r\n" */

void memc_gen_params_default(memc_gen_params *p) {
    p->hash_power = 14;
    p->warm_sets = 8192;
    p->hit_pct = 90;
    p->non_get_pct = 0;
    p->empty_event_pct = 0;
    p->non_get_locks = 0;
    p->seed = 1;
}

int memc_gen_params_load(memc_gen_params *p, fg_config *cfg, char *err, size_t errlen) {
    const ev_cfg_key k[] = {{"hash_power", &p->hash_power, 3, 22},
                            {"warm_sets", &p->warm_sets, 1, 1u << 22},
                            {"hit_pct", &p->hit_pct, 0, 100},
                            {"non_get_pct", &p->non_get_pct, 0, 100},
                            {"empty_event_pct", &p->empty_event_pct, 0, 100},
                            {"non_get_locks", &p->non_get_locks, 0, 1}};
    return ev_cfg_load(cfg, "memc", k, sizeof k / sizeof k[0], &p->seed, err, errlen);
}

/* lookup3 hashlittle(key, len, 0), reading bytes (equal to its word and
 * halfword paths on a little-endian machine). */
uint32_t memc_hash_ref(const uint8_t *k, size_t len) {
    uint32_t a, b, c;
    a = b = c = 0xdeadbeefu + (uint32_t)len;
    for (; len > 12; len -= 12, k += 12) {
        a += k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 24;
        b += k[4] | (uint32_t)k[5] << 8 | (uint32_t)k[6] << 16 | (uint32_t)k[7] << 24;
        c += k[8] | (uint32_t)k[9] << 8 | (uint32_t)k[10] << 16 | (uint32_t)k[11] << 24;
        MEMC_MIX(a, b, c);
    }
    if (!len) return c;
    uint32_t w[3] = {0, 0, 0};
    for (size_t i = 0; i < len; i++) w[i / 4] |= (uint32_t)k[i] << (8 * (i % 4));
    a += w[0], b += w[1], c += w[2];
    MEMC_FINAL(a, b, c);
    return c;
}

/* ------------------------------------------------------------ direct map */
struct memc_map {
    struct slot {
        uint8_t key[MEMC_KEY_BYTES];
        uint8_t val[MEMC_VAL_BYTES];
        int32_t entry; /* -1 = empty */
    } *s;
    size_t mask;
};

static size_t fnv1a(const uint8_t *k) { /* not the kernel's hash: the reference stays independent */
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < MEMC_KEY_BYTES; i++) h = (h ^ k[i]) * 0x100000001b3ull;
    return (size_t)(h ^ h >> 29);
}

static const struct slot *map_find(const memc_map *m, const uint8_t *key) {
    for (size_t i = fnv1a(key) & m->mask;; i = (i + 1) & m->mask) {
        if (m->s[i].entry < 0) return NULL;
        if (!memcmp(m->s[i].key, key, MEMC_KEY_BYTES)) return &m->s[i];
    }
}

/* The keys the warm-up left in the table, with their values. */
static memc_map *map_build(const memc_entry *t, const memc_value *v, size_t n) {
    memc_map *m = malloc(sizeof *m);
    size_t cap = 16;
    while (cap < 2 * n) cap <<= 1;
    if (!m || !(m->s = malloc(cap * sizeof *m->s))) {
        free(m);
        return NULL;
    }
    m->mask = cap - 1;
    for (size_t i = 0; i < cap; i++) m->s[i].entry = -1;
    for (size_t e = 0; e < n; e++) {
        if (!t[e].valid || t[e].key_len != MEMC_KEY_BYTES) continue;
        size_t i = fnv1a(t[e].key) & m->mask;
        while (m->s[i].entry >= 0 && memcmp(m->s[i].key, t[e].key, MEMC_KEY_BYTES)) i = (i + 1) & m->mask;
        memcpy(m->s[i].key, t[e].key, MEMC_KEY_BYTES);
        memcpy(m->s[i].val, v[t[e].value_idx].value, MEMC_VAL_BYTES);
        m->s[i].entry = (int32_t)e;
    }
    return m;
}

static void map_free(memc_map *m) {
    if (m) free(m->s);
    free(m);
}

long memc_work_entry(const memc_work *w, const uint8_t key[MEMC_KEY_BYTES]) {
    const struct slot *s = map_find(w->map, key);
    return s ? s->entry : -1;
}

/* ------------------------------------------------------------ warm-up */
static void gen_key(fg_rng *r, uint8_t *key) { /* memaslap-like printable keys */
    static const char cs[] = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    for (unsigned i = 0; i < MEMC_KEY_BYTES; i++) key[i] = (uint8_t)cs[fg_rng_below(r, sizeof cs - 1)];
}

/* MemcachedGPU's SET (initHashTable) on the host: the key's set, the entry
 * with the same key, else the first free way, else the least recently set
 * way is evicted; entry e keeps value slot e (initDataStructures). */
static void host_set(memc_work *w, const uint8_t *key, const uint8_t *val, uint32_t stamp) {
    const uint32_t hv = memc_hash_ref(key, MEMC_KEY_BYTES), base = (hv & (w->sets - 1)) * MEMC_ASSOC;
    long target = -1, oldest = -1;
    for (uint32_t i = base; i < base + MEMC_ASSOC; i++) {
        const memc_entry *e = &w->table[i];
        if (!e->valid) {
            target = i;
            break;
        }
        if (e->key_hash == (hv & MEMC_KEY_HASH_MASK) && !memcmp(e->key, key, MEMC_KEY_BYTES)) {
            target = i;
            break;
        }
        if (oldest < 0 || e->last_access < w->table[oldest].last_access) oldest = i;
    }
    if (target < 0) target = oldest, w->evicted++;
    memc_entry *e = &w->table[target];
    e->value_idx = (uint32_t)target;
    e->last_access = stamp;
    e->valid = 1;
    e->key_hash = hv & MEMC_KEY_HASH_MASK;
    e->key_len = MEMC_KEY_BYTES;
    e->value_len = MEMC_VAL_BYTES;
    memcpy(e->key, key, MEMC_KEY_BYTES);
    w->values[target].valid = 1;
    memcpy(w->values[target].value, val, MEMC_VAL_BYTES);
}

/* ------------------------------------------------------------ packets */
static void put16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)(v >> 8), p[1] = (uint8_t)v; }
static uint32_t get16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* RFC 1071 one's-complement sum of n bytes (n even). */
static uint32_t ones_sum(const uint8_t *p, size_t n) {
    uint32_t s = 0;
    for (size_t i = 0; i < n; i += 2) s += get16(p + i);
    while (s >> 16) s = (s & 0xFFFF) + (s >> 16);
    return s;
}

enum { REQ_GET, REQ_OTHER_PORT, REQ_BAD_CKSUM, REQ_SET_CMD, REQ_KINDS };

static void gen_request(fg_rng *r, unsigned kind, const uint8_t *key, uint8_t pkt[MEMC_PKT_BYTES]) {
    static const uint8_t server_mac[6] = {0x02, 0x00, 0x5e, 0x10, 0x00, 0x01};
    memset(pkt, 0, MEMC_PKT_BYTES);
    memcpy(pkt, server_mac, 6);
    for (int i = 6; i < 12; i++) pkt[i] = (uint8_t)fg_rng_next(r);
    pkt[6] = (pkt[6] & 0xFC) | 0x02; /* locally administered unicast */
    put16(pkt + 12, 0x0800);
    uint8_t *ip = pkt + MEMC_IP_OFF, *udp = pkt + MEMC_UDP_OFF;
    ip[0] = 0x45;
    put16(ip + 2, REQ_BYTES - MEMC_ETH_BYTES);
    put16(ip + 4, (uint32_t)fg_rng_next(r));
    put16(ip + 6, 0x4000); /* DF */
    ip[8] = 64;
    ip[9] = 17;
    ip[12] = 10, ip[13] = (uint8_t)fg_rng_next(r), ip[14] = (uint8_t)fg_rng_next(r), ip[15] = (uint8_t)(1 + fg_rng_below(r, 254));
    ip[16] = 10, ip[17] = 0, ip[18] = 0, ip[19] = 1;
    put16(ip + 10, ~ones_sum(ip, 20) & 0xFFFF);
    if (kind == REQ_BAD_CKSUM) ip[11] ^= 0x40;
    put16(udp, 1024 + (uint32_t)fg_rng_below(r, 64512));
    put16(udp + 2, kind == REQ_OTHER_PORT ? 11211 : MEMC_UDP_PORT);
    put16(udp + 4, REQ_BYTES - MEMC_UDP_OFF);
    put16(pkt + MEMC_HDR_BYTES, (uint32_t)fg_rng_next(r)); /* frame header: request id, seq 0, 1 datagram */
    put16(pkt + MEMC_HDR_BYTES + 4, 1);
    memcpy(pkt + MEMC_PAYLOAD_OFF, kind == REQ_SET_CMD ? "set " : "get ", 4);
    memcpy(pkt + MEMC_KEY_OFF, key, MEMC_KEY_BYTES);
    memcpy(pkt + MEMC_KEY_OFF + MEMC_KEY_BYTES, "\r\n", 2);
}

int memc_response_ref(const memc_work *w, const uint8_t *req, uint8_t poison, uint8_t *resp) {
    memset(resp, poison, MEMC_PKT_BYTES);
    const uint8_t *ip = req + MEMC_IP_OFF, *udp = req + MEMC_UDP_OFF, *key = req + MEMC_KEY_OFF;
    if (get16(udp + 2) != MEMC_UDP_PORT) return -1;
    if (get16(ip + 10) && ones_sum(ip, (ip[0] & 15u) * 4) != 0xFFFF) return -1;
    if (memcmp(req + MEMC_PAYLOAD_OFF, "get ", 4)) return -1;
    size_t nkey = MEMC_KEY_BYTES;
    while (nkey < MEMC_MAX_KEY && memcmp(key + nkey, "\r\n", 2)) nkey++;
    if (nkey >= MEMC_MAX_KEY) return -1;
    const struct slot *s = nkey == MEMC_KEY_BYTES ? map_find(w->map, key) : NULL;
    const uint32_t len = MEMC_HDR_BYTES + MEMC_VALUE_HDR_BYTES + (s ? MEMC_VAL_BYTES : 0);
    memcpy(resp, req + 6, 6); /* Ethernet: swap the addresses */
    memcpy(resp + 6, req, 6);
    memcpy(resp + 12, req + 12, 2);
    uint8_t *rip = resp + MEMC_IP_OFF, *rudp = resp + MEMC_UDP_OFF;
    memcpy(rip, ip, 20); /* IPv4: swap the addresses, new length and checksum */
    memcpy(rip + 12, ip + 16, 4);
    memcpy(rip + 16, ip + 12, 4);
    put16(rip + 2, len - MEMC_ETH_BYTES);
    put16(rip + 10, 0);
    put16(rip + 10, ~ones_sum(rip, 20) & 0xFFFF);
    put16(rudp, get16(udp + 2)); /* UDP: swap the ports, new length, no checksum */
    put16(rudp + 2, get16(udp));
    put16(rudp + 4, len - MEMC_UDP_OFF);
    put16(rudp + 6, 0);
    memcpy(resp + MEMC_HDR_BYTES, "VALUE ", MEMC_VALUE_HDR_BYTES);
    if (s) memcpy(resp + MEMC_HDR_BYTES + MEMC_VALUE_HDR_BYTES, s->val, MEMC_VAL_BYTES);
    return s != NULL;
}

/* ------------------------------------------------------------ workload */
int memc_work_init(memc_work *w, gpu_t *g, const memc_gen_params *gp, const char *elf, unsigned slots, ev_ring ring,
                   char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    w->gp = *gp;
    w->slots = slots;
    w->ring = ring;
    if (gp->hash_power < 3 || gp->hash_power > 22) {
        snprintf(err, errlen, "memc: hash_power %u out of 3..22", gp->hash_power);
        return -1;
    }
    const size_t n = (size_t)1 << gp->hash_power;
    w->sets = (unsigned)(n / MEMC_ASSOC);
    w->keys = malloc((size_t)gp->warm_sets * MEMC_KEY_BYTES);
    w->table = calloc(n, sizeof *w->table);
    w->values = calloc(n, sizeof *w->values);
    w->rx = calloc((size_t)slots * MEMC_REQS_PER_EVENT, MEMC_PKT_BYTES);
    w->send = calloc(slots, sizeof *w->send);
    if (!w->keys || !w->table || !w->values || !w->rx || !w->send) {
        snprintf(err, errlen, "memc: out of memory");
        return -1;
    }
    fg_rng rng;
    fg_rng_seed(&rng, gp->seed);
    for (unsigned i = 0; i < gp->warm_sets; i++) { /* EDGE V: warmed with 8k SETs */
        uint8_t val[MEMC_VAL_BYTES];
        gen_key(&rng, w->keys[i]);
        for (unsigned j = 0; j < MEMC_VAL_BYTES; j++) val[j] = (uint8_t)fg_rng_next(&rng);
        host_set(w, w->keys[i], val, i + 1);
    }
    for (size_t e = 0; e < n; e++)
        if (!w->table[e].valid) w->table[e].value_idx = (uint32_t)e; /* initDataStructures */
    if (!(w->map = map_build(w->table, w->values, n))) {
        snprintf(err, errlen, "memc: out of memory");
        return -1;
    }
    char lock_elf[512]; /* [memc] non_get_locks: the same kernel with the artifact's non-GET path, beside it */
    const char *slash = strrchr(elf, '/');
    if (gp->non_get_locks) {
        snprintf(lock_elf, sizeof lock_elf, "%.*smemc_get_lock%s.elf", slash ? (int)(slash - elf + 1) : 0, elf,
                 ring ? "_ring" : "");
        elf = lock_elf;
    }
    if (gpu_load_kernel(g, elf, "memc_get", &w->k, err, errlen)) return -1;
    const uint64_t bufb = (uint64_t)slots * MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES;
    w->table_addr = gpu_malloc(g, n * sizeof *w->table);
    w->values_addr = gpu_malloc(g, n * sizeof *w->values);
    w->locks_addr = gpu_malloc(g, (uint64_t)w->sets * 4);
    w->param_bytes = (unsigned)ev_param_bytes(sizeof(memc_params), ring);
    w->sq_base = gpu_malloc(g, (uint64_t)slots * w->param_bytes);
    w->rx_base = gpu_malloc(g, bufb);
    w->ring_base = ring ? ev_ring_alloc(g, slots, MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES) : 0;
    w->tx_base = gpu_malloc(g, bufb);
    if (!w->table_addr || !w->values_addr || !w->locks_addr || !w->sq_base || !w->rx_base || !w->tx_base ||
        (ring && !w->ring_base) ||
        (w->tx_base + bufb) >> 32) {
        snprintf(err, errlen, "memc: GPU memory too small for the table and %u slots", slots);
        return -1;
    }
    int32_t *locks = calloc(w->sets, 4); /* all unlocked */
    int bad = !locks || gpu_mem_write(g, w->table_addr, w->table, n * sizeof *w->table) ||
              gpu_mem_write(g, w->values_addr, w->values, n * sizeof *w->values) ||
              gpu_mem_write(g, w->locks_addr, locks, (size_t)w->sets * 4);
    free(locks);
    if (bad) {
        snprintf(err, errlen, "memc: table upload failed");
        return -1;
    }
    for (unsigned i = 0; i < slots; i++) { /* EDGE III-B: parameter memory configured once */
        uint64_t off = (uint64_t)i * MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES;
        memc_params q = {(uint32_t)(w->rx_base + off), (uint32_t)(w->tx_base + off), (uint32_t)w->table_addr,
                         (uint32_t)w->locks_addr, (uint32_t)w->values_addr, w->sets - 1, 0, i, 0, 0};
        const uint64_t rd = ev_ring_data(w->ring_base, i, MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES);
        if (ev_param_write(g, memc_work_param(w, i), &q, sizeof q, ring, rd)) {
            snprintf(err, errlen, "memc: parameter memory upload failed");
            return -1;
        }
    }
    return 0;
}

void memc_work_free(memc_work *w) {
    free(w->keys);
    free(w->table);
    free(w->values);
    free(w->rx);
    free(w->send);
    map_free(w->map);
    memset(w, 0, sizeof *w);
}

uint64_t memc_work_param(const memc_work *w, unsigned slot) {
    return w->sq_base + (uint64_t)slot * w->param_bytes;
}

gpu_launch_desc memc_work_desc(const memc_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag) {
    return ev_warp_desc(&w->k, memc_work_param(w, slot), n, priority, tag);
}

int memc_work_io(const memc_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen) {
    if (slot >= w->slots || n == 0 || n > MEMC_REQS_PER_EVENT) {
        snprintf(err, errlen, "memc: slot %u / %u requests out of range", slot, n);
        return -1;
    }
    const size_t sb = (size_t)MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES;
    memset(io, 0, sizeof *io);
    ev_slot_regions(io, w->ring, ev_ring_data(w->ring_base, slot, sb), w->rx_base + slot * sb, w->rx + slot * sb,
                    (size_t)n * MEMC_PKT_BYTES, memc_work_param(w, slot) + offsetof(memc_params, npkts), n);
    io->out[0] = (ev_region){w->tx_base + slot * sb, NULL, sb, 0}; /* every response byte */
    io->nout = 1;
    io->poison = POISON;
    return 0;
}

int memc_work_gen(memc_work *w, unsigned slot, unsigned n, fg_rng *rng) {
    uint8_t *rx = w->rx + slot * (size_t)MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES;
    if (w->gp.empty_event_pct && fg_rng_below(rng, 100) < w->gp.empty_event_pct) {
        memset(rx, 0, (size_t)n * MEMC_PKT_BYTES); /* a slot never filled: no request is a GET */
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        uint8_t key[MEMC_KEY_BYTES];
        unsigned kind = REQ_GET;
        if (fg_rng_below(rng, 100) < w->gp.non_get_pct) kind = 1 + (unsigned)fg_rng_below(rng, REQ_KINDS - 1);
        if (w->gp.warm_sets && fg_rng_below(rng, 100) < w->gp.hit_pct) {
            memcpy(key, w->keys[fg_rng_below(rng, w->gp.warm_sets)], MEMC_KEY_BYTES); /* evicted ones miss */
        } else {
            do gen_key(rng, key);
            while (map_find(w->map, key));
        }
        gen_request(rng, kind, key, rx + i * MEMC_PKT_BYTES);
    }
    return 0;
}

int memc_work_fill(memc_work *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, char *err, size_t errlen) {
    return ev_memc_ops.fill(w, g, slot, n, rng, err, errlen);
}

int memc_work_check_running(memc_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {
    const size_t sb = (size_t)MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES;
    uint8_t got[MEMC_REQS_PER_EVENT * MEMC_PKT_BYTES];
    if (slot >= w->slots || n > MEMC_REQS_PER_EVENT || gpu_mem_read(g, w->tx_base + slot * sb, got, sb)) {
        snprintf(err, errlen, "memc: cannot read the results of slot %u", slot);
        return -1;
    }
    int rc = 0;
#define MEMC_FAIL(...)                                                                                              \
    do {                                                                                                            \
        if (!rc) snprintf(err, errlen, __VA_ARGS__);                                                                \
        w->wrong++;                                                                                                 \
        rc = -1;                                                                                                    \
    } while (0)
    for (unsigned i = 0; i < MEMC_REQS_PER_EVENT; i++) {
        const uint8_t *req = w->rx + slot * sb + (size_t)i * MEMC_PKT_BYTES, *g8 = got + (size_t)i * MEMC_PKT_BYTES;
        uint8_t want[MEMC_PKT_BYTES];
        int kind = -1;
        if (i < n) kind = memc_response_ref(w, req, POISON, want);
        else memset(want, POISON, sizeof want); /* no request: untouched */
        if (i < n && kind == 1) w->hits++;
        else if (i < n && kind == 0) w->misses++;
        else if (i < n) w->others++;
        for (unsigned j = 0; j < MEMC_PKT_BYTES; j += 4) {
            uint32_t a, b;
            memcpy(&a, g8 + j, 4), memcpy(&b, want + j, 4);
            w->checked++;
            if (a != b)
                MEMC_FAIL("memc: slot %u request %u (%s) response word %u: GPU 0x%08x, host reference 0x%08x", slot, i,
                          kind == 1 ? "hit" : kind == 0 ? "miss" : i < n ? "not a GET" : "none", j / 4, a, b);
        }
        if (kind == 1) { /* a hit marks its entry: last access was a GET */
            uint32_t valid = 0;
            long e = memc_work_entry(w, req + MEMC_KEY_OFF);
            if (gpu_mem_read(g, w->table_addr + (uint64_t)e * sizeof(memc_entry) + offsetof(memc_entry, valid), &valid,
                             4) ||
                valid != 2)
                MEMC_FAIL("memc: slot %u request %u: hit entry %ld valid = %u, want 2", slot, i, e, valid);
        }
    }
#undef MEMC_FAIL
    return rc;
}

int memc_work_check_idle(memc_work *w, gpu_t *g, char *err, size_t errlen) {
    int32_t *locks = malloc((size_t)w->sets * 4);
    if (!locks || gpu_mem_read(g, w->locks_addr, locks, (size_t)w->sets * 4)) {
        free(locks);
        snprintf(err, errlen, "memc: cannot read the set locks");
        return -1;
    }
    int rc = 0;
    for (unsigned s = 0; s < w->sets && !rc; s++)
        if (locks[s]) {
            snprintf(err, errlen, "memc: set %u lock = %d with no event running, want 0", s, locks[s]);
            w->wrong++;
            rc = -1;
        }
    free(locks);
    return rc;
}

int memc_work_check(memc_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {
    if (memc_work_check_running(w, g, slot, n, err, errlen)) return -1;
    if (!memc_work_check_idle(w, g, err, errlen)) return 0;
    char e2[256];
    snprintf(e2, sizeof e2, "%s", err);
    snprintf(err, errlen, "memc: slot %u: after the event, %s", slot, e2 + 6); /* the run's only event */
    return -1;
}


/* ------------------------------------------------------------ ev_work */
EV_WORK_DEFINE(ev_memc_ops, "memc", "memc_get", MEMC_REQS_PER_EVENT, memc, memc_gen_params, memc_gen_params_default,
               memc_gen_params_load, memc_work_check_running, memc_work_check_idle);
