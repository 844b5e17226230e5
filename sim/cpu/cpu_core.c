/* cpu_core: trace-driven out-of-order core (CM Table I); docs/CPU_MODEL.md.
 *
 * One CPU cycle, in this order:
 *   1. fills that arrived since the last cycle: the line enters the L2 and
 *      the L1 (dirty victims: below); waiting loads complete now, waiting
 *      stores are performed (the L1 line becomes dirty);
 *   2. the L2 lookup pipeline: entries whose l1 + l2 latency has passed hit
 *      (load completes now) or miss: merged into the MSHR of their line or a
 *      new MSHR and a line read toward memory; no MSHR free -> the pipeline
 *      waits (that is what bounds memory-level parallelism besides the window);
 *   3. retirement, in order, up to `width`: an instruction retires once its
 *      result time has come (a load: its data is back); a store retires into
 *      the write buffer and waits there if it is full;
 *   4. issue, oldest first, up to `width`, at most `mem_per_cycle` loads and
 *      stores: an instruction issues once every producer's result time has
 *      come.  ALU/branch/MUL/FP results come `lat` cycles later; a load that
 *      hits the L1 after l1_latency, one that misses enters the L2 pipeline
 *      (it cannot issue while that is full); a store's address and data are
 *      ready the next cycle.  When no load or store took the L1 port, the
 *      oldest write-buffer store not yet performed looks the L1 up: a hit
 *      marks the line dirty, a miss fetches it like a load (write-allocate),
 *      later stores continue behind it;
 *   5. dispatch of up to `width` instructions from the stream into the window.
 * Wakeup is by event, not by scanning: a producer whose result time becomes
 * known (at issue, or when a missing line arrives) sets each consumer's
 * earliest issue cycle, and an instruction with all its times known sits in
 * a bit mask that issue walks oldest first. */
#include "cpu_core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NEVER UINT64_MAX
#define NOLINK 0
#define WB_WAITER 0x8000u /* waiter ids: window slot, or WB_WAITER | write-buffer index */

typedef struct {
    uint64_t tag, lru;
    bool valid, dirty;
} cline;

typedef struct {
    cline *l;
    unsigned sets, assoc;
    uint64_t stamp;
} cache;

typedef struct {
    uint64_t seq, ready_at, done_at, addr;
    uint16_t cons;     /* consumers: link = 2 * slot + source + 1 */
    uint16_t cnext[2]; /* next link in the producer's list, per source */
    uint16_t wnext;    /* next waiter of the same MSHR */
    uint8_t cls, n_wait;
    bool issued;
} went;

typedef struct {
    uint64_t line, t_alloc;
    uint16_t wait;     /* waiter list (+1; 0 = none) */
    bool busy;
} mshr;

typedef struct {
    uint64_t ready, line;
    uint16_t waiter;
} l2q_ent;

typedef struct {
    uint64_t line;
    uint8_t state; /* 0 not performed, 1 waiting for its line, 2 done */
    uint16_t wnext;
} wb_ent;

struct cpu_core {
    cpu_config c;
    cpu_source next;
    void *ctx;
    uint64_t now;
    cache l1, l2;
    /* window */
    went *w;
    unsigned W;
    uint64_t head, tail; /* sequence numbers */
    uint64_t rdy[4];     /* slots with every producer time known, not issued */
    /* memory path */
    l2q_ent *l2q;
    unsigned l2q_head, l2q_n;
    mshr *m;
    unsigned m_used;
    wb_ent *wb;
    unsigned wb_head, wb_n, wb_next; /* wb_next: entries performed or in flight so far */
    cpu_req *out;
    unsigned out_cap, out_head, out_n;
    uint16_t *fills;
    unsigned n_fills;
    /* cycle skipping: actions so far; a cycle without one leaves the state as
     * it was, so the following cycles repeat it until `sleep` (the earliest
     * time a waiting instruction or lookup becomes due) or a fill / pop */
    uint64_t acts, sleep, sleep_stall[3];
    cpu_stats st;
};

/* ------------------------------------------------------------ config */
void cpu_config_default(cpu_config *c) {
    memset(c, 0, sizeof *c);
    c->clock_mhz = 2000; /* CM Table I */
    c->width = 3;
    c->window = 128;
    c->mem_per_cycle = 1;
    c->line_bytes = 128;
    c->l1_bytes = 32 << 10;
    c->l1_assoc = 4;
    c->l1_latency = 2;
    c->l2_bytes = 256 << 10;
    c->l2_assoc = 8;
    c->l2_latency = 8;
    /* ours (Nehalem-like: 10 L1 fill buffers, 16-entry L2 superqueue) */
    c->l2_queue = 16;
    c->mshrs = 16;
    c->wbuf = 16;
    c->out_queue = 8;
    c->lat[CPU_ALU] = 1;
    c->lat[CPU_BR] = 1;
    c->lat[CPU_MUL] = 3;
    c->lat[CPU_FP] = 4;
    c->lat[CPU_LOAD] = 0; /* from the caches */
    c->lat[CPU_STORE] = 1;
    c->skip_idle = true;
}

int cpu_config_load(cpu_config *c, fg_config *cfg, char *err, size_t errlen) {
    static const struct {
        const char *key;
        size_t off;
        unsigned lo, hi;
    } K[] = {
#define K_(f, lo, hi) {#f, offsetof(cpu_config, f), lo, hi}
        K_(width, 1, 16),         K_(window, 1, 256),    K_(mem_per_cycle, 1, 16),
        K_(line_bytes, 16, 128),  K_(l1_bytes, 128, 1u << 24), K_(l1_assoc, 1, 64),
        K_(l1_latency, 1, 100),   K_(l2_bytes, 128, 1u << 28), K_(l2_assoc, 1, 64),
        K_(l2_latency, 1, 1000),  K_(l2_queue, 1, 1024), K_(mshrs, 1, 256),
        K_(wbuf, 1, 1024),        K_(out_queue, 1, 1024),
#undef K_
    };
    for (size_t i = 0; i < sizeof K / sizeof K[0]; i++) {
        unsigned *f = (unsigned *)((char *)c + K[i].off);
        uint64_t v = *f;
        /* cache sizes: a size that is not a power of two is refused, never rounded */
        bool p2 = !strcmp(K[i].key, "line_bytes") || !strcmp(K[i].key, "l1_bytes") || !strcmp(K[i].key, "l2_bytes");
        if ((p2 ? fg_config_pow2 : fg_config_u64)(cfg, "cpu", K[i].key, K[i].lo, K[i].hi, &v, err, errlen)) return -1;
        *f = (unsigned)v;
    }
    static const char *const LAT[CPU_CLASSES] = {"lat_alu", "lat_branch", "lat_mul", "lat_fp", NULL, "lat_store"};
    for (unsigned k = 0; k < CPU_CLASSES; k++) {
        uint64_t v = c->lat[k];
        if (LAT[k] && fg_config_u64(cfg, "cpu", LAT[k], 1, 1000, &v, err, errlen)) return -1;
        c->lat[k] = (unsigned)v;
    }
    return fg_config_bool(cfg, "cpu", "skip_idle", &c->skip_idle, err, errlen) ||
                   fg_config_double(cfg, "cpu", "clock_mhz", 1, 100000, &c->clock_mhz, err, errlen)
               ? -1
               : 0;
}

/* ------------------------------------------------------------ caches */
static int cache_init(cache *x, unsigned bytes, unsigned assoc, unsigned line) {
    x->assoc = assoc;
    x->sets = bytes / line / assoc;
    x->l = calloc((size_t)x->sets * assoc, sizeof *x->l);
    return x->l && x->sets ? 0 : -1;
}

static cline *cache_find(cache *x, uint64_t line) {
    cline *s = &x->l[line % x->sets * x->assoc];
    for (unsigned w = 0; w < x->assoc; w++)
        if (s[w].valid && s[w].tag == line) return &s[w];
    return NULL;
}

static void touch(cache *x, cline *l) { l->lru = ++x->stamp; }

/* Installs `line` over the set's LRU way; *victim = the line it replaced. */
static cline *cache_install(cache *x, uint64_t line, cline *victim) {
    cline *s = &x->l[line % x->sets * x->assoc], *v = &s[0];
    for (unsigned w = 0; w < x->assoc && v->valid; w++)
        if (!s[w].valid || s[w].lru < v->lru) v = &s[w];
    *victim = *v;
    v->tag = line;
    v->valid = true;
    v->dirty = false;
    touch(x, v);
    return v;
}

/* ------------------------------------------------------------ life */
void cpu_core_free(cpu_core *k) {
    if (!k) return;
    free(k->l1.l);
    free(k->l2.l);
    free(k->w);
    free(k->l2q);
    free(k->m);
    free(k->wb);
    free(k->out);
    free(k->fills);
    free(k);
}

void cpu_gen_source(void *gen, cpu_inst *out) { cpu_gen_next(gen, out); }

cpu_core *cpu_core_new(const cpu_config *c, cpu_source next, void *ctx, char *err, size_t errlen) {
    if (c->window < 1 || c->window > 256 || !c->width || !c->mem_per_cycle || c->mshrs > 256 ||
        c->l1_bytes < c->line_bytes * c->l1_assoc || c->l2_bytes < c->line_bytes * c->l2_assoc ||
        c->l1_bytes % (c->line_bytes * c->l1_assoc) || c->l2_bytes % (c->line_bytes * c->l2_assoc) ||
        c->wbuf >= WB_WAITER) {
        snprintf(err, errlen, "[cpu]: window 1..256, width and mem_per_cycle >= 1, mshrs <= 256, "
                 "caches of whole sets, at least one");
        return NULL;
    }
    cpu_core *k = calloc(1, sizeof *k);
    if (!k) goto oom;
    k->c = *c;
    k->next = next;
    k->ctx = ctx;
    k->W = c->window;
    k->out_cap = c->out_queue + c->mshrs; /* every MSHR's read plus write-backs */
    k->w = calloc(k->W, sizeof *k->w);
    k->l2q = calloc(c->l2_queue, sizeof *k->l2q);
    k->m = calloc(c->mshrs, sizeof *k->m);
    k->wb = calloc(c->wbuf, sizeof *k->wb);
    k->out = calloc(k->out_cap, sizeof *k->out);
    k->fills = calloc(c->mshrs, sizeof *k->fills);
    if (!k->w || !k->l2q || !k->m || !k->wb || !k->out || !k->fills ||
        cache_init(&k->l1, c->l1_bytes, c->l1_assoc, c->line_bytes) ||
        cache_init(&k->l2, c->l2_bytes, c->l2_assoc, c->line_bytes))
        goto oom;
    return k;
oom:
    cpu_core_free(k);
    snprintf(err, errlen, "cpu_core: out of memory");
    return NULL;
}

/* ------------------------------------------------------------ helpers */
static void set_rdy(cpu_core *k, unsigned s) { k->rdy[s >> 6] |= 1ull << (s & 63); }
static void clr_rdy(cpu_core *k, unsigned s) { k->rdy[s >> 6] &= ~(1ull << (s & 63)); }

/* Producer slot p's result time is now known: tell its consumers. */
static void resolve(cpu_core *k, unsigned p, uint64_t done) {
    went *e = &k->w[p];
    e->done_at = done;
    for (uint16_t l = e->cons; l != NOLINK;) {
        unsigned cs = (l - 1u) >> 1, src = (l - 1u) & 1;
        went *c = &k->w[cs];
        if (done > c->ready_at) c->ready_at = done;
        if (!--c->n_wait) set_rdy(k, cs);
        l = c->cnext[src];
    }
    e->cons = NOLINK;
}

static bool out_push(cpu_core *k, uint64_t id, uint64_t addr, bool write) {
    if (k->out_n == k->out_cap) return false;
    k->out[(k->out_head + k->out_n++) % k->out_cap] = (cpu_req){id, addr, write};
    return true;
}

/* A waiter's line is in the L1 now. */
static void wake(cpu_core *k, uint16_t waiter) {
    if (waiter & WB_WAITER) {
        wb_ent *b = &k->wb[waiter & ~WB_WAITER];
        b->state = 2;
        cache_find(&k->l1, b->line)->dirty = true;
    } else {
        resolve(k, waiter, k->now);
    }
}

/* The caches are write-back, write-allocate and non-inclusive: a line
 * enters the L2 from memory; the L1 from the L2 or from memory; a dirty L1
 * victim is written into the L2 (allocated there if absent); a dirty L2
 * victim is written to memory.  Each install can therefore put at most one
 * write request out (the callers check the room). */
static void l2_install(cpu_core *k, uint64_t line, bool dirty) {
    cline v, *l = cache_install(&k->l2, line, &v);
    l->dirty = dirty;
    if (v.valid && v.dirty) {
        out_push(k, UINT64_MAX, v.tag * k->c.line_bytes, true);
        k->st.writebacks++;
    }
}

static void l1_install(cpu_core *k, uint64_t line) {
    cline v;
    cache_install(&k->l1, line, &v);
    if (!v.valid || !v.dirty) return;
    cline *l = cache_find(&k->l2, v.tag);
    if (l) l->dirty = true;
    else l2_install(k, v.tag, true);
}

/* ------------------------------------------------------------ the cycle */
static void do_fills(cpu_core *k) {
    unsigned i = 0;
    for (; i < k->n_fills && k->out_n + 2 <= k->out_cap; i++) {
        mshr *m = &k->m[k->fills[i]];
        l2_install(k, m->line, false);
        l1_install(k, m->line);
        for (uint16_t x = m->wait; x;) {
            uint16_t w = x - 1;
            x = w & WB_WAITER ? k->wb[w & ~WB_WAITER].wnext : k->w[w].wnext;
            wake(k, w);
        }
        k->st.miss_lat_sum += k->now - m->t_alloc;
        k->st.miss_n++;
        m->busy = false;
        m->wait = 0;
        k->m_used--;
        k->acts++;
    }
    memmove(k->fills, k->fills + i, (k->n_fills - i) * sizeof *k->fills);
    k->n_fills -= i;
}

static void add_waiter(cpu_core *k, mshr *m, uint16_t waiter) {
    uint16_t *next = waiter & WB_WAITER ? &k->wb[waiter & ~WB_WAITER].wnext : &k->w[waiter].wnext;
    *next = m->wait;
    m->wait = (uint16_t)(waiter + 1);
}

static void do_l2(cpu_core *k) {
    while (k->l2q_n) {
        l2q_ent *q = &k->l2q[k->l2q_head];
        if (q->ready > k->now) break;
        cline *l = cache_find(&k->l2, q->line);
        if (l) {
            if (k->out_n == k->out_cap) break; /* room for the L1 victim's cascade */
            touch(&k->l2, l);
            l1_install(k, q->line);
            wake(k, q->waiter);
        } else {
            mshr *m = NULL;
            for (unsigned i = 0; i < k->c.mshrs && !m; i++)
                if (k->m[i].busy && k->m[i].line == q->line) m = &k->m[i];
            if (m) {
                k->st.l2_merges++;
            } else {
                if (k->m_used == k->c.mshrs || k->out_n == k->out_cap) {
                    k->st.stall_mshr++;
                    break;
                }
                for (unsigned i = 0; !m; i++)
                    if (!k->m[i].busy) m = &k->m[i];
                *m = (mshr){q->line, k->now, 0, true};
                k->m_used++;
                out_push(k, (uint64_t)(m - k->m), q->line * k->c.line_bytes, false);
                k->st.l2_misses++;
            }
            add_waiter(k, m, q->waiter);
        }
        k->l2q_head = (k->l2q_head + 1) % k->c.l2_queue;
        k->l2q_n--;
        k->acts++;
    }
}

static bool l2q_push(cpu_core *k, uint64_t line, uint16_t waiter) {
    if (k->l2q_n == k->c.l2_queue) return false;
    k->l2q[(k->l2q_head + k->l2q_n++) % k->c.l2_queue] =
        (l2q_ent){k->now + k->c.l1_latency + k->c.l2_latency, line, waiter};
    k->st.l1_misses++;
    return true;
}

static void do_retire(cpu_core *k) {
    for (unsigned n = 0; n < k->c.width && k->head < k->tail; n++) {
        unsigned s = (unsigned)(k->head % k->W);
        went *e = &k->w[s];
        if (!e->issued || e->done_at > k->now) break;
        if (e->cls == CPU_STORE) {
            if (k->wb_n == k->c.wbuf) {
                k->st.stall_wbuf++;
                break;
            }
            unsigned b = (k->wb_head + k->wb_n++) % k->c.wbuf;
            k->wb[b] = (wb_ent){e->addr / k->c.line_bytes, 0, 0};
        }
        k->head++;
        k->st.retired++;
        k->acts++;
    }
    while (k->wb_n && k->wb[k->wb_head].state == 2) { /* performed stores leave in order */
        k->wb_head = (k->wb_head + 1) % k->c.wbuf;
        k->wb_n--;
        k->wb_next--;
        k->acts++;
    }
}

/* Issues slot s if it can; false if a structure refused it. */
static bool issue_one(cpu_core *k, unsigned s, unsigned *mem) {
    went *e = &k->w[s];
    uint64_t line = e->addr / k->c.line_bytes;
    if (e->cls == CPU_LOAD || e->cls == CPU_STORE) {
        if (*mem == k->c.mem_per_cycle) return false;
        if (e->cls == CPU_LOAD) {
            cline *l = cache_find(&k->l1, line);
            if (l) {
                touch(&k->l1, l);
                resolve(k, s, k->now + k->c.l1_latency);
            } else {
                if (!l2q_push(k, line, (uint16_t)s)) return false;
                e->done_at = NEVER;
            }
            k->st.loads++;
        } else {
            resolve(k, s, k->now + k->c.lat[CPU_STORE]);
            k->st.stores++;
        }
        ++*mem;
    } else {
        resolve(k, s, k->now + k->c.lat[e->cls]);
    }
    e->issued = true;
    clr_rdy(k, s);
    k->acts++;
    return true;
}

static void do_issue(cpu_core *k) {
    unsigned n = 0, mem = 0, h = (unsigned)(k->head % k->W);
    /* oldest first: slots h..W-1, then 0..h-1 */
    for (unsigned pass = 0; pass < 2 && n < k->c.width; pass++) {
        unsigned lo = pass ? 0 : h, hi = pass ? h : k->W;
        for (unsigned wd = lo >> 6; wd <= (hi - 1) >> 6 && hi > lo && n < k->c.width; wd++) {
            uint64_t bits = k->rdy[wd];
            if (wd == lo >> 6) bits &= ~0ull << (lo & 63);
            if (wd == (hi - 1) >> 6 && (hi & 63)) bits &= ~(~0ull << (hi & 63));
            for (; bits && n < k->c.width; bits &= bits - 1) {
                unsigned s = wd * 64 + (unsigned)__builtin_ctzll(bits);
                if (k->w[s].ready_at <= k->now && issue_one(k, s, &mem)) n++;
            }
        }
    }
    /* the L1 port, if no load or store took it: the next write-buffer store */
    if (!mem && k->wb_next < k->wb_n) {
        unsigned b = (k->wb_head + k->wb_next) % k->c.wbuf;
        wb_ent *x = &k->wb[b];
        cline *l = cache_find(&k->l1, x->line);
        if (l) {
            touch(&k->l1, l);
            wake(k, (uint16_t)(WB_WAITER | b));
            k->wb_next++;
            k->acts++;
        } else if (l2q_push(k, x->line, (uint16_t)(WB_WAITER | b))) {
            x->state = 1;
            k->wb_next++;
            k->acts++;
        }
    }
}

static void do_dispatch(cpu_core *k) {
    for (unsigned n = 0; n < k->c.width; n++) {
        if (k->tail - k->head == k->W) {
            k->st.stall_window++;
            return;
        }
        cpu_inst in;
        k->next(k->ctx, &in);
        unsigned s = (unsigned)(k->tail % k->W);
        went *e = &k->w[s];
        *e = (went){.seq = k->tail, .ready_at = k->now + 1, .done_at = NEVER, .addr = in.addr,
                    .cls = in.cls};
        for (unsigned j = 0; j < 2; j++) {
            unsigned d = in.dep[j];
            if (!d || d > k->tail || k->tail - d < k->head) continue; /* none, or retired */
            unsigned p = (unsigned)((k->tail - d) % k->W);
            went *pe = &k->w[p];
            if (pe->done_at != NEVER && pe->issued) {
                if (pe->done_at > e->ready_at) e->ready_at = pe->done_at;
            } else {
                e->cnext[j] = pe->cons;
                pe->cons = (uint16_t)(2 * s + j + 1);
                e->n_wait++;
            }
        }
        if (!e->n_wait) set_rdy(k, s);
        k->tail++;
        k->acts++;
    }
}

/* After a cycle without an action, with `now` the next cycle: the first
 * cycle in which one can come without a fill or a pop (NEVER: none can).
 * A time already past (< now) was due in the idle cycle and is held by a
 * structure that only a fill or a pop frees. */
static uint64_t wake_time(const cpu_core *k) {
    uint64_t t = NEVER;
#define AT(x) if ((x) >= k->now && (x) < t) t = (x)
    if (k->l2q_n) AT(k->l2q[k->l2q_head].ready);
    if (k->head < k->tail) AT(k->w[k->head % k->W].done_at);
    for (unsigned wd = 0; wd < (k->W + 63) / 64; wd++)
        for (uint64_t b = k->rdy[wd]; b; b &= b - 1) AT(k->w[wd * 64 + (unsigned)__builtin_ctzll(b)].ready_at);
#undef AT
    return t;
}

void cpu_core_cycle(cpu_core *k) {
    if (k->now < k->sleep && !k->n_fills) { /* the same idle cycle again */
        k->st.stall_window += k->sleep_stall[0];
        k->st.stall_mshr += k->sleep_stall[1];
        k->st.stall_wbuf += k->sleep_stall[2];
        k->now++;
        k->st.cycles++;
        return;
    }
    uint64_t a = k->acts, s0[3] = {k->st.stall_window, k->st.stall_mshr, k->st.stall_wbuf};
    do_fills(k);
    do_l2(k);
    do_retire(k);
    do_issue(k);
    do_dispatch(k);
    k->now++;
    k->st.cycles++;
    k->sleep = 0;
    if (k->acts == a && k->c.skip_idle) {
        k->sleep = wake_time(k);
        k->sleep_stall[0] = k->st.stall_window - s0[0];
        k->sleep_stall[1] = k->st.stall_mshr - s0[1];
        k->sleep_stall[2] = k->st.stall_wbuf - s0[2];
    }
}

/* ------------------------------------------------------------ ports */
uint64_t cpu_core_now(const cpu_core *k) { return k->now; }

const cpu_req *cpu_core_req(const cpu_core *k) { return k->out_n ? &k->out[k->out_head] : NULL; }

void cpu_core_req_pop(cpu_core *k) {
    if (!k->out_n) return;
    k->out_head = (k->out_head + 1) % k->out_cap;
    k->out_n--;
    k->sleep = 0; /* room for a waiting miss or fill */
}

void cpu_core_fill(cpu_core *k, uint64_t id) {
    if (id >= k->c.mshrs || !k->m[id].busy) return; /* a write's acknowledgement */
    k->fills[k->n_fills++] = (uint16_t)id;
}

unsigned cpu_core_pending(const cpu_core *k) { return k->m_used; }

void cpu_core_stats(const cpu_core *k, cpu_stats *s) { *s = k->st; }
void cpu_core_reset_stats(cpu_core *k) { memset(&k->st, 0, sizeof k->st); }

/* ------------------------------------------------------------ fixed memory */
void cpu_fixmem_init(cpu_fixmem *m, unsigned lat) {
    m->head = m->n = 0;
    m->lat = lat;
}

uint64_t cpu_fixmem_run(cpu_core *k, cpu_fixmem *m, uint64_t instrs, uint64_t max_cycles) {
    uint64_t r0 = k->st.retired, c0 = k->now;
    while (k->st.retired - r0 < instrs) {
        if (k->now - c0 >= max_cycles) return 0;
        uint64_t t = k->now;
        while (m->n && m->at[m->head] <= t) {
            cpu_core_fill(k, m->id[m->head]);
            m->head = (m->head + 1) % CPU_FIXMEM_Q;
            m->n--;
        }
        cpu_core_cycle(k);
        const cpu_req *r;
        while ((r = cpu_core_req(k))) { /* made in cycle t: back before cycle t + lat */
            if (!r->write && m->n < CPU_FIXMEM_Q) {
                unsigned i = (m->head + m->n++) % CPU_FIXMEM_Q;
                m->id[i] = r->id;
                m->at[i] = t + m->lat;
            }
            cpu_core_req_pop(k);
        }
    }
    return k->now - c0;
}
