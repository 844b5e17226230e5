/* mem: the memory system's top (mem.h) and its wiring: ports, request
 * records, the interconnect, the L2 slices and the partitions, the
 * multi-rate clocking that orders their cycles, statistics, and the
 * unloaded-latency formula.  Units: icnt_xbar.c / icnt_mesh.c, l2.c,
 * partition.c, dram.c, mem_data.c; docs/MEM.md for the model. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "icnt.h"
#include "l2.h"
#include "mem.h"
#include "mem_config.h"
#include "mem_data.h"
#include "mem_rec.h"
#include "partition.h"

/* ------------------------------------------------------------ clocks */
/* Domain d runs floor(n * f_d / f_core) cycles before core tick n
 * (GPGPU-Sim-style multi-rate stepping, exact in integer kHz). */
typedef struct {
    uint64_t f_core, f; /* kHz */
} mem_clk;
static inline uint64_t clk_before(const mem_clk *k, uint64_t tick) { return tick * k->f / k->f_core; }
/* The core tick in which domain cycle j runs. */
static inline uint64_t clk_tick_of(const mem_clk *k, uint64_t j) {
    return ((j + 1) * k->f_core + k->f - 1) / k->f - 1;
}

/* ------------------------------------------------------------ system */
struct mem_system {
    mem_config c;
    unsigned n_ports, n_slices;
    uint64_t size;
    mem_data data;  /* the backing store */
    mem_pool pool;  /* request records */
    /* units */
    const icnt_ops *net_ops;
    icnt *net;
    l2_slice *sl;
    mem_part *pt;
    part_slice *up;           /* each slice as its partition sees it */
    unsigned (*admitted)[3];  /* fe_admit: per slice, triggered requests between mem_send and leaving
                               * their miss queue, per F/E queue class (never above l2_miss_queue) */
    mem_stats *st;            /* per partition: requests, latencies, stalls (mem_get_stats adds the units') */
    bool *stall_in;           /* per partition, this cycle: one of its slices' input queues was full
                               * (l2_in_queue; GPGPU-Sim's gpu_stall_dramfull) */
    bool *stall_net;          /* per partition, this cycle: a reply of one of its slices could not enter
                               * the reply network (CM 3.2 stallnet; the slices set it) */
    uint64_t *port_last; /* tick + 1 of each port's last accepted request */
    /* time */
    uint64_t tick;
    mem_clk k_icnt, k_l2, k_dram;
    uint64_t l2_now, dram_now; /* cycles done */
    char err[320];
    bool failed;
};

static void mem_fail(mem_system *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mem_fail(mem_system *m, const char *fmt, ...) {
    if (m->failed) return;
    m->failed = true;
    int n = snprintf(m->err, sizeof m->err, "mem, core cycle %" PRIu64 ": ", m->tick);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof m->err) vsnprintf(m->err + n, sizeof m->err - (size_t)n, fmt, ap);
    va_end(ap);
}

/* The interconnect of a configuration: the one place that picks it. */
static const icnt_ops *icnt_of(const mem_config *c) {
    return c->icnt == MEM_ICNT_MESH ? &icnt_mesh_ops : &icnt_xbar_ops;
}

/* ------------------------------------------------------------ life */
static mem_clk clk(double core_mhz, double mhz) {
    return (mem_clk){(uint64_t)llround(core_mhz * 1000), (uint64_t)llround(mhz * 1000)};
}

void mem_free(mem_system *m) {
    if (!m) return;
    if (m->net) m->net_ops->destroy(m->net);
    for (unsigned s = 0; m->sl && s < m->n_slices; s++) l2_free(&m->sl[s]);
    for (unsigned p = 0; m->pt && p < m->c.partitions; p++) part_free(&m->pt[p]);
    free(m->sl);
    free(m->pt);
    free(m->up);
    free(m->admitted);
    free(m->st);
    free(m->stall_net);
    free(m->stall_in);
    free(m->pool.rec);
    free(m->port_last);
    free(m);
}

mem_system *mem_new(const mem_config *c, unsigned n_ports, uint8_t *backing, uint64_t size,
                    char *err, size_t errlen) {
    if (mem_config_check(c, err, errlen)) return NULL;
    uint64_t stripe = (uint64_t)c->interleave_bytes * c->partitions * c->slices;
    if (!backing || size < c->line_bytes || size % c->line_bytes) {
        snprintf(err, errlen, "mem: backing store of %" PRIu64 " bytes is not whole lines", size);
        return NULL;
    }
    if ((size + stripe) / c->partitions > (1ull << 32)) {
        snprintf(err, errlen, "mem: %" PRIu64 " bytes over %u partitions exceed the 4 GiB a "
                 "partition addresses", size, c->partitions);
        return NULL;
    }
    if (c->fe_region_bytes && c->fe_region_base + c->fe_region_bytes > size) {
        snprintf(err, errlen, "mem: [mem] fe_region_base + fe_region_bytes = %" PRIu64
                 " is beyond the %" PRIu64 "-byte memory", c->fe_region_base + c->fe_region_bytes, size);
        return NULL;
    }
    mem_system *m = calloc(1, sizeof *m);
    if (!m) goto oom;
    m->c = *c;
    m->n_ports = n_ports;
    m->n_slices = c->partitions * c->slices;
    m->size = size;
    m->data.mem = backing;
    m->data.line_bytes = c->line_bytes;
    for (unsigned i = 0; i < c->line_bytes; i++) m->data.line_mask[i >> 6] |= 1ull << (i & 63);
    m->k_icnt = clk(c->core_mhz, c->icnt_mhz);
    m->k_l2 = clk(c->core_mhz, c->l2_mhz);
    m->k_dram = clk(c->core_mhz, c->dram_mhz);
    /* Records: an upper bound of what every queue can hold, so the pool
     * never limits anything by itself; the L2's own fills and write-backs
     * may use the last `reserve` (mem_send may not). */
    unsigned S = m->n_slices, P = c->partitions, fe = c->fe_qd_nt + c->fe_qd_cpu + c->fe_qd_gpu + 3;
    mem_pool *pool = &m->pool;
    pool->reserve = S * (c->l2_mshrs + c->l2_miss_queue) + P * (fe + 2 * c->dram_queue);
    pool->n_rec = pool->reserve + n_ports * (c->icnt_in_flits + c->icnt_out_flits) +
               icnt_of(c)->internal_flits(c) +
               S * (c->icnt_in_flits + c->icnt_out_flits + c->l2_latency + c->l2_mshrs * c->l2_mshr_merge +
                    3 * c->l2_miss_queue + c->l2_return_queue + c->l2_amo_queue) +
               P * (fe + 2 * c->dram_queue);
    pool->rec = calloc(pool->n_rec, sizeof *pool->rec);
    m->sl = calloc(S, sizeof *m->sl);
    m->pt = calloc(P, sizeof *m->pt);
    m->up = calloc(S, sizeof *m->up);
    m->admitted = calloc(S, sizeof *m->admitted);
    m->st = calloc(P, sizeof *m->st);
    m->stall_net = calloc(P, sizeof *m->stall_net);
    m->stall_in = calloc(P, sizeof *m->stall_in);
    m->port_last = calloc(n_ports ? n_ports : 1, sizeof *m->port_last);
    if (!pool->rec || !m->sl || !m->pt || !m->up || !m->admitted || !m->st || !m->stall_net || !m->stall_in ||
        !m->port_last)
        goto oom;
    for (unsigned i = pool->n_rec; i-- > 0;) mem_rec_free(pool, i);
    m->net_ops = icnt_of(c);
    m->net = m->net_ops->create(c, n_ports, S, err, errlen);
    if (!m->net) goto fail;
    /* the slices on the networks (nodes after the ports), each partition over its slices' queues */
    for (unsigned s = 0; s < S; s++) {
        l2_env e = {&m->c, pool, &m->data, m->net_ops, m->net, n_ports + s, &m->stall_in[s / c->slices],
                    &m->stall_net[s / c->slices], m->admitted[s]};
        if (l2_init(&m->sl[s], &e)) goto oom;
        m->up[s] = (part_slice){m->sl[s].miss, &m->sl[s].ret, m->admitted[s]};
    }
    for (unsigned p = 0; p < P; p++) {
        part_env e = {&m->c, pool, &m->data, &m->up[p * c->slices]};
        if (part_init(&m->pt[p], p, &e, err, errlen)) goto fail;
    }
    return m;
oom:
    snprintf(err, errlen, "mem: out of memory");
fail:
    mem_free(m);
    return NULL;
}

/* ------------------------------------------------------------ requests */
static int bad(mem_system *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(mem_system *m, const char *fmt, ...) {
    int n = snprintf(m->err, sizeof m->err, "mem_send: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->err + n, sizeof m->err - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static bool fe_code_ok(unsigned v) { return v <= 3 || v == MEM_FE_DEFAULT; }

int mem_send(mem_system *m, unsigned port, const mem_req *r) {
    const mem_config *c = &m->c;
    if (!m->failed) m->err[0] = '\0';
    if (port >= m->n_ports) return bad(m, "port %u of %u", port, m->n_ports);
    if (r->op > MEM_ATOMIC || r->src > MEM_SRC_CPU || r->kind >= MEM_K_COUNT)
        return bad(m, "op %u / src %u / kind %u out of range", r->op, r->src, r->kind);
    if (r->addr % c->line_bytes) return bad(m, "address 0x%" PRIx64 " is not line aligned", r->addr);
    if (r->addr >= m->size || m->size - r->addr < c->line_bytes)
        return bad(m, "line 0x%" PRIx64 " is outside the %" PRIu64 "-byte memory", r->addr, m->size);
    if (!(r->bmask[0] | r->bmask[1])) return bad(m, "empty byte mask (line 0x%" PRIx64 ")", r->addr);
    if ((r->bmask[0] & ~m->data.line_mask[0]) | (r->bmask[1] & ~m->data.line_mask[1]))
        return bad(m, "byte mask crosses the %u-byte line 0x%" PRIx64, c->line_bytes, r->addr);
    if (!fe_code_ok(r->fe_trig) || !fe_code_ok(r->fe_act))
        return bad(m, "fe_trig %u / fe_act %u: FE_TRIG_* / FE_ACT_* or MEM_FE_DEFAULT", r->fe_trig,
                   r->fe_act);
    bool tracked = mem_fe_tracked(m, r->addr);
    if (r->op == MEM_ATOMIC) {
        if (!r->amo_ops) return bad(m, "atomic with amo_ops = 0");
        if (tracked) return bad(m, "atomic on F/E-tracked line 0x%" PRIx64 " (F/E 4.1 defines "
                                   "reads and writes only)", r->addr);
        if (r->data && !r->lanes && r->amo > MEM_AMO_MAXU) return bad(m, "amo %u out of range", r->amo);
        for (unsigned i = 0; r->data && i < c->line_bytes; i += 4) {
            unsigned w = (unsigned)(r->bmask[i >> 6] >> (i & 63) & 0xf);
            if (w && w != 0xf) return bad(m, "data atomic mask must cover whole 4-byte words");
        }
        if (r->lanes) {
            if (!r->data) return bad(m, "lane-form atomic without data");
            if (r->amo_ops > MEM_LANES) return bad(m, "lane-form atomic with %u operations (at most %u)",
                                                    r->amo_ops, MEM_LANES);
            for (unsigned i = 0; i < r->amo_ops; i++) {
                const mem_lane *l = &r->lane[i];
                if (l->op > MEM_AMO_SC_FAIL) return bad(m, "lane %u: amo %u out of range", i, l->op);
                if (l->off % 4 || l->off >= c->line_bytes || !(r->bmask[l->off >> 6] >> (l->off & 63) & 1))
                    return bad(m, "lane %u: word at offset %u is not a word of the byte mask", i, l->off);
            }
        }
    } else if (r->lanes) {
        return bad(m, "lane form on a non-atomic request");
    }
    if (m->port_last[port] == m->tick + 1) return 1; /* one request per port per cycle */
    if (m->pool.n_free <= m->pool.reserve) return 1;
    /* most tries of a busy port meet a full injection queue: refused before
     * they take a record (inject refuses the same ones, and more) */
    const unsigned bytes = (unsigned)(__builtin_popcountll(r->bmask[0]) + __builtin_popcountll(r->bmask[1]));
    const unsigned flits = mem_config_flits(c, r->op == MEM_READ ? 0 : bytes);
    if (!m->net_ops->can_inject(m->net, ICNT_REQ, port, flits)) return 1;
    uint32_t i = mem_rec_alloc(&m->pool);
    mem_rec *x = &m->pool.rec[i];
    unsigned p, sg;
    memcpy(&x->q, r, offsetof(mem_req, lane)); /* the lane operations only when there are any */
    if (r->lanes) memcpy(x->q.lane, r->lane, r->amo_ops * sizeof *r->lane);
    memset(&x->rsp, 0, offsetof(mem_rsp, rdata));
    x->rsp.status = MEM_OK;
    x->t_send = m->tick;
    x->type = REC_EXT;
    x->port = (uint16_t)port;
    x->mshr = MEM_NONE;
    x->tracked = tracked;
    mem_config_map(c, r->addr, &p, &sg, &x->local);
    x->part = (uint8_t)p;
    x->slice = (uint8_t)sg;
    x->bytes = (uint16_t)bytes;
    part_fe_fields(&m->pt[p], x);
    /* fe_admit: a triggered request enters only if its class's miss queue in
     * the slice can hold it with every other one in flight there, so that a
     * blocked trigger waits at its requester, never in the tag pipeline */
    bool admit = c->fe_admit && tracked && x->fe_q != FE_Q_NT;
    if (admit && m->admitted[sg][x->fe_q] >= c->l2_miss_queue) {
        mem_rec_free(&m->pool, i);
        return 1;
    }
    icnt_pkt pk = {i, (uint16_t)port, (uint16_t)m->sl[sg].e.node, (uint16_t)flits, 0};
    if (m->net_ops->inject(m->net, ICNT_REQ, &pk)) {
        mem_rec_free(&m->pool, i);
        return 1;
    }
    m->port_last[port] = m->tick + 1;
    if (admit) m->admitted[sg][x->fe_q]++;
    mem_stats *st = &m->st[p];
    st->req[r->kind][r->op]++;
    st->bytes[r->kind] += x->bytes;
    return 0;
}

const mem_rsp *mem_rsp_peek_at(const mem_system *m, unsigned port, unsigned k) {
    if (port >= m->n_ports) return NULL;
    const icnt_pkt *p = m->net_ops->peek_at(m->net, ICNT_REP, port, k);
    return p ? &m->pool.rec[p->rec].rsp : NULL;
}

const mem_rsp *mem_rsp_peek(mem_system *m, unsigned port) { return mem_rsp_peek_at(m, port, 0); }

/* A response's stages (mem_brk) in core cycles: its stamps are L2 cycles. */
static void brk_add(const mem_system *m, mem_brk *b, const mem_rec *r, uint64_t ready) {
    const mem_clk *k = &m->k_l2;
    uint64_t pipe = clk_tick_of(k, r->t_pipe), served = clk_tick_of(k, r->t_served),
             rep = clk_tick_of(k, r->t_reply);
    b->n++;
    b->req += pipe - r->t_send;
    b->pipe += served - pipe;
    b->wait += rep - served;
    b->rep += ready - rep;
    b->port += m->tick > ready ? m->tick - ready : 0;
    if (r->path != MEM_PATH_MISS) return;
    uint64_t mc = clk_tick_of(k, r->t_mc), dram = clk_tick_of(k, r->t_dram), fill = clk_tick_of(k, r->t_fill);
    b->missq += mc - served;
    b->mcq += dram - mc;
    b->dram += fill - dram;
    b->drain += rep - fill;
}

uint32_t mem_rsp_take(mem_system *m, unsigned port) {
    if (port >= m->n_ports) return UINT32_MAX;
    const icnt_pkt *p = m->net_ops->peek(m->net, ICNT_REP, port);
    if (!p) return UINT32_MAX;
    mem_rec *r = &m->pool.rec[p->rec];
    uint32_t ri = p->rec;
    mem_stats *st = &m->st[r->part];
    uint64_t ready = clk_tick_of(&m->k_icnt, p->ready) + 1;
    st->lat_sum[r->q.kind] += ready - r->t_send;
    st->lat_n[r->q.kind]++;
    brk_add(m, &st->brk[r->q.src][r->path], r, ready);
    m->net_ops->pop(m->net, ICNT_REP, port);
    return ri;
}

void mem_rsp_release(mem_system *m, uint32_t rec) {
    if (rec < m->pool.n_rec) mem_rec_free(&m->pool, rec);
}

void mem_rsp_pop(mem_system *m, unsigned port) { mem_rsp_release(m, mem_rsp_take(m, port)); }

/* ------------------------------------------------------------ time */
static bool all_quiet(const mem_system *m) {
    if (m->pool.n_free != m->pool.n_rec || !m->c.fe_idle_skip) return false;
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (!part_quiet(&m->pt[p])) return false;
    return true;
}

/* stallMC of partition p this cycle, as [mem] stall_mc counts it. */
static bool part_stall_mc(const mem_system *m, unsigned p) {
    return m->c.stall_mc == MEM_STALL_MC_L2_INPUT ? m->stall_in[p] : m->pt[p].stall_mc;
}

void mem_tick(mem_system *m) {
    uint64_t n = m->tick;
    uint64_t i_to = clk_before(&m->k_icnt, n + 1), l_to = clk_before(&m->k_l2, n + 1),
             d_to = clk_before(&m->k_dram, n + 1);
    unsigned P = m->c.partitions;
    for (unsigned p = 0; p < P; p++) m->stall_net[p] = m->stall_in[p] = false;
    /* fe_l2_cache: while a partition's F/E init runs, none of its slices' reads in flight keeps its line */
    for (unsigned p = 0; m->c.fe_l2_cache && p < P; p++)
        if (part_init_busy(&m->pt[p]))
            for (unsigned k = 0; k < m->c.slices; k++) {
                l2_slice *l = &m->sl[p * m->c.slices + k];
                l->fe_floor = ++l->fe_clock;
            }
    while (m->net_ops->cycle(m->net) < i_to) m->net_ops->tick(m->net);
    if (all_quiet(m)) { /* nothing anywhere: time passes, the F/E blocks are not clocked */
        m->l2_now = l_to;
        m->dram_now = d_to;
        for (unsigned p = 0; p < P; p++) fg_block_skip(m->pt[p].fe);
    } else if (!m->failed) {
        for (; m->l2_now < l_to; m->l2_now++)
            for (unsigned s = 0; s < m->n_slices; s++)
                if (l2_busy(&m->sl[s]) && l2_cycle(&m->sl[s], m->l2_now))
                    mem_fail(m, "slice %u: reply refused after room check", s);
        for (unsigned p = 0; p < P; p++)
            if (part_cycle(&m->pt[p], m->l2_now)) mem_fail(m, "partition %u: %s", p, m->pt[p].err);
        for (; m->dram_now < d_to; m->dram_now++)
            for (unsigned p = 0; p < P; p++)
                if (!dram_idle(m->pt[p].dram)) dram_cycle(m->pt[p].dram, m->dram_now);
    }
    for (unsigned p = 0; p < P; p++) {
        m->st[p].stall_mc += part_stall_mc(m, p);
        m->st[p].mc_q_full += m->pt[p].stall_mc;
        m->st[p].stall_net += m->stall_net[p];
    }
    m->tick++;
}

bool mem_idle(const mem_system *m) {
    if (m->pool.n_free != m->pool.n_rec) return false;
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (part_init_busy(&m->pt[p])) return false;
    return true;
}

const char *mem_error(const mem_system *m) { return m->err[0] ? m->err : NULL; }
fg_impl mem_fe_impl(const mem_system *m) { return m->c.fe_impl; }
uint64_t mem_cycle(const mem_system *m) { return m->tick; }

/* ------------------------------------------------------------ F/E, CM */
int mem_fe_init(mem_system *m, uint64_t addr, uint64_t bytes, bool full) {
    if (addr % 128 || bytes % 128) {
        snprintf(m->err, sizeof m->err, "mem_fe_init: [0x%" PRIx64 ", +%" PRIu64
                 ") is not in whole 128-byte F/E lines", addr, bytes);
        return -1;
    }
    uint64_t span[64][2]; /* all partitions queue their share, or none */
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (part_fe_init_span(&m->pt[p], addr, bytes, span[p])) return 1;
    for (unsigned p = 0; p < m->c.partitions; p++) part_fe_init_push(&m->pt[p], span[p], full);
    if (m->c.fe_l2_cache)
        for (unsigned s = 0; s < m->n_slices; s++) l2_fe_drop(&m->sl[s], addr, bytes);
    return 0;
}

bool mem_fe_init_busy(const mem_system *m) {
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (part_init_busy(&m->pt[p])) return true;
    return false;
}

bool mem_fe_tracked(const mem_system *m, uint64_t addr) {
    return addr >= m->c.fe_region_base && addr - m->c.fe_region_base < m->c.fe_region_bytes;
}

bool mem_fe_overlaps(const mem_system *m, uint64_t lo, uint64_t hi) {
    const uint64_t b = m->c.fe_region_base, n = m->c.fe_region_bytes;
    return n && hi >= b && (lo < b || lo - b < n);
}

unsigned mem_partitions(const mem_system *m) { return m->c.partitions; }

void mem_partition_stall(const mem_system *m, unsigned p, bool *stall_mc, bool *stall_net) {
    *stall_mc = p < m->c.partitions && part_stall_mc(m, p);
    *stall_net = p < m->c.partitions && m->stall_net[p];
}

/* ------------------------------------------------------------ statistics */
void mem_get_stats(const mem_system *m, unsigned p, mem_stats *s) {
    memset(s, 0, sizeof *s);
    for (unsigned q = 0; q < m->c.partitions; q++) {
        if (p != MEM_ALL && q != p) continue;
        const mem_part *pt = &m->pt[q];
        mem_stats one = m->st[q];
        for (unsigned k = 0; k < m->c.slices; k++) {
            const l2_stats *l = &m->sl[q * m->c.slices + k].st;
            one.l2_hits += l->hits;
            one.l2_misses += l->misses;
            one.l2_merges += l->merges;
            one.l2_writebacks += l->writebacks;
            one.fe_tracked += l->fe_tracked;
            one.fe_l2_hits += l->fe_hits;
            one.fe_l2_keeps += l->fe_installs;
            one.nacks += l->nacks;
            for (unsigned b = 0; b < MEM_BLK_COUNT; b++) one.l2_blk[b] += l->blk[b];
            one.l2_in_wait += l->in_wait;
            one.l2_in_full += l->in_full;
        }
        one.dram_q_full = pt->dram_q_full;
        const dram_stats *d = dram_get_stats(pt->dram);
        const fe_sched_queues_out_t *o = fg_block_out(pt->fe);
        one.dram_reads = d->reads;
        one.dram_writes = d->writes;
        one.row_hits = d->row_hits;
        one.row_misses = d->row_misses;
        one.row_conflicts = d->row_conflicts;
        one.dram_bus_busy = d->bus_busy;
        one.fe_releases = o->releases_o;
        one.fe_nacks = o->nacks_o;
        uint64_t *a = (uint64_t *)s;
        const uint64_t *b = (const uint64_t *)&one;
        for (size_t i = 0; i < sizeof *s / sizeof *a; i++) a[i] += b[i];
    }
    s->cycles = m->tick;
    s->dram_cycles = m->dram_now;
    s->l2_cycles = m->l2_now * (p == MEM_ALL ? m->n_slices : m->c.slices);
}

void mem_stats_delta(mem_stats *d, const mem_stats *a, const mem_stats *b) {
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    uint64_t *z = (uint64_t *)d;
    for (size_t i = 0; i < sizeof *d / sizeof *z; i++) z[i] = y[i] - x[i];
}

/* ------------------------------------------------------------ latency */
/* The stages of mem_tick, walked for one read on an empty system: each
 * hand-off happens at the first cycle of the next unit's clock that runs in
 * a later (or, for units later in the tick's order icnt -> L2 -> F/E -> DRAM,
 * the same) core tick.  test_mem_dram checks it against a real run. */
int mem_unloaded_latency(const mem_config *c, uint64_t t0, mem_lat_case k, unsigned bytes, mem_lat *o) {
    return mem_unloaded_latency_at(c, 0, 0, t0, k, bytes, o);
}

int mem_unloaded_latency_at(const mem_config *c, unsigned port, unsigned slice, uint64_t t0, mem_lat_case k,
                            unsigned bytes, mem_lat *o) {
    char err[200];
    if (mem_config_check(c, err, sizeof err) || k > MEM_LAT_ROW_CONFLICT || !bytes ||
        bytes > c->line_bytes)
        return -1;
    mem_clk ki = clk(c->core_mhz, c->icnt_mhz), kl = clk(c->core_mhz, c->l2_mhz),
            kd = clk(c->core_mhz, c->dram_mhz);
    const icnt_ops *net = icnt_of(c);
    memset(o, 0, sizeof *o);
    /* request network: arbitrated in the first icnt cycle of tick t0 */
    uint64_t ready = clk_before(&ki, t0) + net->zero_load(c, port, slice, mem_config_flits(c, 0)) - 1;
    uint64_t t1 = clk_tick_of(&ki, ready);
    o->req_net = t1 - t0;
    /* L2: ejected in the first L2 cycle of tick t1, tag pipeline */
    /* (l2_in_queue: out of the ROP delay into the input queue after the cycle's service, served the next) */
    uint64_t j = clk_before(&kl, t1) + c->l2_latency + (c->l2_in_queue ? 1 : 0), t2 = clk_tick_of(&kl, j), t6;
    o->l2 = t2 - t1;
    if (k == MEM_LAT_L2_HIT) {
        t6 = t2;
    } else {
        /* L2 -> memory controller: offered to the F/E block in the tick that
         * runs L2 cycle j + l2_dram_latency; accepted, at its head the next
         * cycle, on its output the cycle after: into the DRAM queue then */
        uint64_t t3 = clk_tick_of(&kl, j + c->l2_dram_latency), t4 = t3 + 2;
        o->to_mc = t3 - t2;
        o->fe = t4 - t3;
        unsigned bl = mem_config_burst_cycles(c), nb = mem_config_bursts(c, c->line_bytes);
        uint64_t d = clk_before(&kd, t4); /* first DRAM cycle after the push */
        if (k == MEM_LAT_ROW_MISS) d += c->tRCD;
        if (k == MEM_LAT_ROW_CONFLICT) d += c->tRP + c->tRCD;
        d += (uint64_t)(nb - 1) * (c->tCCD > bl ? c->tCCD : bl) + c->tCL + bl;
        uint64_t t5 = clk_tick_of(&kd, d); /* retired into the slice's return queue */
        o->dram = t5 - t4;
        t6 = clk_tick_of(&kl, clk_before(&kl, t5 + 1)); /* the fill answers its waiter */
        o->to_l2 = t6 - t5;
    }
    /* reply network: arbitrated in the first icnt cycle after the L2 cycle */
    ready = clk_before(&ki, t6 + 1) + net->zero_load(c, port, slice, mem_config_flits(c, bytes)) - 1;
    uint64_t t7 = clk_tick_of(&ki, ready) + 1;
    o->reply_net = t7 - t6;
    o->total = t7 - t0;
    return 0;
}
