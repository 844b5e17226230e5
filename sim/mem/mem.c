/* mem: the memory system's top (mem.h): ports, request records, address
 * mapping, multi-rate clocking, functional data, statistics, and the
 * unloaded-latency formula.  Units: icnt_xbar.c, l2.c, partition.c, dram.c;
 * docs/MEM.md for the model. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "mem_internal.h"

/* ------------------------------------------------------------ mapping */
void mem_map(const mem_system *m, uint64_t addr, unsigned *part, unsigned *slice, uint64_t *local) {
    const mem_config *c = &m->c;
    uint64_t chunk = addr / c->interleave_bytes, sg = chunk % m->n_slices;
    *slice = (unsigned)sg;
    *part = (unsigned)(sg / c->slices);
    *local = chunk / m->n_slices * c->slices * c->interleave_bytes +
             sg % c->slices * c->interleave_bytes + addr % c->interleave_bytes;
}

/* ------------------------------------------------------------ records */
uint32_t mem_rec_alloc(mem_system *m) {
    if (!m->n_free) return MEM_NONE;
    uint32_t i = m->free_head;
    m->free_head = m->rec[i].next;
    m->n_free--;
    return i;
}

void mem_rec_free(mem_system *m, uint32_t i) {
    m->rec[i].next = m->free_head;
    m->free_head = i;
    m->n_free++;
}

void mem_fail(mem_system *m, const char *fmt, ...) {
    if (m->failed) return;
    m->failed = true;
    int n = snprintf(m->err, sizeof m->err, "mem, core cycle %" PRIu64 ": ", m->tick);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof m->err) vsnprintf(m->err + n, sizeof m->err - (size_t)n, fmt, ap);
    va_end(ap);
}

/* ------------------------------------------------------------ data */
static uint32_t amo(unsigned op, uint32_t a, uint32_t b) {
    switch (op) {
    case MEM_AMO_SWAP: return b;
    case MEM_AMO_ADD: return a + b;
    case MEM_AMO_XOR: return a ^ b;
    case MEM_AMO_AND: return a & b;
    case MEM_AMO_OR: return a | b;
    case MEM_AMO_MIN: return (int32_t)a < (int32_t)b ? a : b;
    case MEM_AMO_MAX: return (int32_t)a > (int32_t)b ? a : b;
    case MEM_AMO_MINU: return a < b ? a : b;
    default: return a > b ? a : b; /* MEM_AMO_MAXU */
    }
}

static bool bit(const uint64_t bm[2], unsigned i) { return bm[i >> 6] >> (i & 63) & 1; }

/* A lane-form atomic (mem.h): its operations one after another in lane
 * order, each reading the word the one before it left. */
static void perform_lanes(uint8_t *line, const mem_req *q, uint8_t *rdata) {
    for (unsigned i = 0; i < q->amo_ops; i++) {
        const mem_lane *l = &q->lane[i];
        uint32_t old, res;
        memcpy(&old, line + l->off, 4);
        switch (l->op) {
        case MEM_AMO_LR: res = old; break;
        case MEM_AMO_SC:
            res = old != l->cmp;
            if (!res) memcpy(line + l->off, &l->opnd, 4);
            break;
        case MEM_AMO_SC_FAIL: res = 1; break;
        default: {
            uint32_t nv = amo(l->op, old, l->opnd);
            memcpy(line + l->off, &nv, 4);
            res = old;
        }
        }
        memcpy(rdata + 4 * i, &res, 4);
    }
}

void mem_perform(mem_system *m, mem_rec *r) {
    if (r->type != REC_EXT || !r->q.data) return;
    uint8_t *mem = m->mem + r->q.addr;
    unsigned lb = m->c.line_bytes;
    bool full = r->q.bmask[0] == m->line_mask[0] && r->q.bmask[1] == m->line_mask[1];
    switch (r->q.op) {
    case MEM_READ:
        if (full) memcpy(r->rsp.rdata, mem, lb);
        else
            for (unsigned i = 0; i < lb; i++)
                if (bit(r->q.bmask, i)) r->rsp.rdata[i] = mem[i];
        break;
    case MEM_WRITE:
        if (full) memcpy(mem, r->q.wdata, lb);
        else
            for (unsigned i = 0; i < lb; i++)
                if (bit(r->q.bmask, i)) mem[i] = r->q.wdata[i];
        break;
    default: /* atomics, word by word (mem_send checked whole words) */
        if (r->q.lanes) {
            perform_lanes(mem, &r->q, r->rsp.rdata);
            break;
        }
        for (unsigned i = 0; i < lb; i += 4) {
            if (!bit(r->q.bmask, i)) continue;
            uint32_t old, opnd, nv;
            memcpy(&old, mem + i, 4);
            memcpy(&opnd, r->q.wdata + i, 4);
            nv = amo(r->q.amo, old, opnd);
            memcpy(mem + i, &nv, 4);
            memcpy(r->rsp.rdata + i, &old, 4);
        }
    }
}

unsigned mem_reply_flits(const mem_system *m, uint32_t ri) {
    const mem_rec *r = &m->rec[ri];
    bool data = r->rsp.status == MEM_OK && r->q.op != MEM_WRITE;
    return mem_config_flits(&m->c, data ? r->bytes : 0);
}

void mem_reply(mem_system *m, unsigned s, uint32_t ri) {
    mem_rec *r = &m->rec[ri];
    r->rsp.id = r->q.id;
    r->rsp.addr = r->q.addr;
    r->rsp.op = r->q.op;
    icnt_pkt p = {ri, (uint16_t)m->sl[s].node, r->port, (uint16_t)mem_reply_flits(m, ri), 0};
    if (r->rsp.status == MEM_NACK) m->pt[r->part].st.nacks++;
    if (m->net_ops->inject(m->net, ICNT_REP, &p)) mem_fail(m, "slice %u: reply refused after room check", s);
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
    free(m->rec);
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
    m->mem = backing;
    m->size = size;
    m->stripe = stripe;
    for (unsigned i = 0; i < c->line_bytes; i++) m->line_mask[i >> 6] |= 1ull << (i & 63);
    m->k_icnt = clk(c->core_mhz, c->icnt_mhz);
    m->k_l2 = clk(c->core_mhz, c->l2_mhz);
    m->k_dram = clk(c->core_mhz, c->dram_mhz);
    /* Records: an upper bound of what every queue can hold, so the pool
     * never limits anything by itself; the L2's own fills and write-backs
     * may use the last `reserve` (mem_send may not). */
    unsigned S = m->n_slices, P = c->partitions, fe = c->fe_qd_nt + c->fe_qd_cpu + c->fe_qd_gpu + 3;
    m->reserve = S * (c->l2_mshrs + c->l2_miss_queue) + P * (fe + 2 * c->dram_queue);
    m->n_rec = m->reserve + n_ports * (c->icnt_in_flits + c->icnt_out_flits) +
               icnt_of(c)->internal_flits(c) +
               S * (c->icnt_in_flits + c->icnt_out_flits + c->l2_latency + c->l2_mshrs * c->l2_mshr_merge +
                    3 * c->l2_miss_queue + c->l2_return_queue + c->l2_amo_queue) +
               P * (fe + 2 * c->dram_queue);
    m->rec = calloc(m->n_rec, sizeof *m->rec);
    m->sl = calloc(S, sizeof *m->sl);
    m->pt = calloc(P, sizeof *m->pt);
    m->port_last = calloc(n_ports ? n_ports : 1, sizeof *m->port_last);
    if (!m->rec || !m->sl || !m->pt || !m->port_last) goto oom;
    for (unsigned i = m->n_rec; i-- > 0;) mem_rec_free(m, i);
    m->net_ops = icnt_of(c);
    m->net = m->net_ops->create(c, n_ports, S, err, errlen);
    if (!m->net) goto fail;
    for (unsigned s = 0; s < S; s++)
        if (l2_init(m, s)) goto oom;
    for (unsigned p = 0; p < P; p++)
        if (part_init(m, p, err, errlen)) goto fail;
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
    if ((r->bmask[0] & ~m->line_mask[0]) | (r->bmask[1] & ~m->line_mask[1]))
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
    if (m->n_free <= m->reserve) return 1;
    uint32_t i = mem_rec_alloc(m);
    mem_rec *x = &m->rec[i];
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
    mem_map(m, r->addr, &p, &sg, &x->local);
    x->part = (uint8_t)p;
    x->slice = (uint8_t)sg;
    x->bytes = (uint16_t)(__builtin_popcountll(r->bmask[0]) + __builtin_popcountll(r->bmask[1]));
    part_fe_fields(m, x);
    /* fe_admit: a triggered request enters only if its class's miss queue in
     * the slice can hold it with every other one in flight there, so that a
     * blocked trigger waits at its requester, never in the tag pipeline */
    bool admit = c->fe_admit && tracked && x->fe_q != FE_Q_NT;
    if (admit && m->sl[sg].admitted[x->fe_q] >= c->l2_miss_queue) {
        mem_rec_free(m, i);
        return 1;
    }
    icnt_pkt pk = {i, (uint16_t)port, (uint16_t)m->sl[sg].node,
                   (uint16_t)mem_config_flits(c, r->op == MEM_READ ? 0 : x->bytes), 0};
    if (m->net_ops->inject(m->net, ICNT_REQ, &pk)) {
        mem_rec_free(m, i);
        return 1;
    }
    m->port_last[port] = m->tick + 1;
    if (admit) m->sl[sg].admitted[x->fe_q]++;
    mem_stats *st = &m->pt[p].st;
    st->req[r->kind][r->op]++;
    st->bytes[r->kind] += x->bytes;
    return 0;
}

const mem_rsp *mem_rsp_peek_at(const mem_system *m, unsigned port, unsigned k) {
    if (port >= m->n_ports) return NULL;
    const icnt_pkt *p = m->net_ops->peek_at(m->net, ICNT_REP, port, k);
    return p ? &m->rec[p->rec].rsp : NULL;
}

const mem_rsp *mem_rsp_peek(mem_system *m, unsigned port) { return mem_rsp_peek_at(m, port, 0); }

uint32_t mem_rsp_take(mem_system *m, unsigned port) {
    if (port >= m->n_ports) return UINT32_MAX;
    const icnt_pkt *p = m->net_ops->peek(m->net, ICNT_REP, port);
    if (!p) return UINT32_MAX;
    mem_rec *r = &m->rec[p->rec];
    uint32_t ri = p->rec;
    mem_stats *st = &m->pt[r->part].st;
    st->lat_sum[r->q.kind] += clk_tick_of(&m->k_icnt, p->ready) + 1 - r->t_send;
    st->lat_n[r->q.kind]++;
    m->net_ops->pop(m->net, ICNT_REP, port);
    return ri;
}

void mem_rsp_release(mem_system *m, uint32_t rec) {
    if (rec < m->n_rec) mem_rec_free(m, rec);
}

void mem_rsp_pop(mem_system *m, unsigned port) { mem_rsp_release(m, mem_rsp_take(m, port)); }

/* ------------------------------------------------------------ time */
static bool all_quiet(const mem_system *m) {
    if (m->n_free != m->n_rec || !m->c.fe_idle_skip) return false;
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (m->pt[p].init_n || m->pt[p].quiet < 2) return false;
    return true;
}

void mem_tick(mem_system *m) {
    uint64_t n = m->tick;
    uint64_t i_to = clk_before(&m->k_icnt, n + 1), l_to = clk_before(&m->k_l2, n + 1),
             d_to = clk_before(&m->k_dram, n + 1);
    unsigned P = m->c.partitions;
    for (unsigned p = 0; p < P; p++) m->pt[p].stall_net = false;
    while (m->net_ops->cycle(m->net) < i_to) m->net_ops->tick(m->net);
    if (all_quiet(m)) { /* nothing anywhere: time passes, the F/E blocks are not clocked */
        m->l2_now = l_to;
        m->dram_now = d_to;
        for (unsigned p = 0; p < P; p++) fg_block_skip(m->pt[p].fe);
    } else if (!m->failed) {
        for (; m->l2_now < l_to; m->l2_now++)
            for (unsigned s = 0; s < m->n_slices; s++)
                if (l2_busy(m, s)) l2_cycle(m, s, m->l2_now);
        for (unsigned p = 0; p < P; p++) part_core_cycle(m, p);
        for (; m->dram_now < d_to; m->dram_now++)
            for (unsigned p = 0; p < P; p++)
                if (!dram_idle(m->pt[p].dram)) dram_cycle(m->pt[p].dram, m->dram_now);
    }
    for (unsigned p = 0; p < P; p++) {
        m->pt[p].st.stall_mc += m->pt[p].stall_mc;
        m->pt[p].st.stall_net += m->pt[p].stall_net;
    }
    m->tick++;
}

bool mem_idle(const mem_system *m) {
    if (m->n_free != m->n_rec) return false;
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (part_init_busy(m, p)) return false;
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
    return part_fe_init(m, addr, bytes, full);
}

bool mem_fe_init_busy(const mem_system *m) {
    for (unsigned p = 0; p < m->c.partitions; p++)
        if (part_init_busy(m, p)) return true;
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
    *stall_mc = p < m->c.partitions && m->pt[p].stall_mc;
    *stall_net = p < m->c.partitions && m->pt[p].stall_net;
}

/* ------------------------------------------------------------ statistics */
void mem_get_stats(const mem_system *m, unsigned p, mem_stats *s) {
    memset(s, 0, sizeof *s);
    for (unsigned q = 0; q < m->c.partitions; q++) {
        if (p != MEM_ALL && q != p) continue;
        const mem_part *pt = &m->pt[q];
        mem_stats one = pt->st;
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
}

/* ------------------------------------------------------------ latency */
/* The stages of mem_tick, walked for one read on an empty system: each
 * hand-off happens at the first cycle of the next unit's clock that runs in
 * a later (or, for units later in the tick's order icnt -> L2 -> F/E -> DRAM,
 * the same) core tick.  test_mem_dram checks it against a real run. */
int mem_unloaded_latency(const mem_config *c, uint64_t t0, mem_lat_case k, unsigned bytes,
                         mem_lat *o) {
    char err[200];
    if (mem_config_check(c, err, sizeof err) || k > MEM_LAT_ROW_CONFLICT || !bytes ||
        bytes > c->line_bytes)
        return -1;
    mem_clk ki = clk(c->core_mhz, c->icnt_mhz), kl = clk(c->core_mhz, c->l2_mhz),
            kd = clk(c->core_mhz, c->dram_mhz);
    const icnt_ops *net = icnt_of(c);
    memset(o, 0, sizeof *o);
    /* request network: arbitrated in the first icnt cycle of tick t0 */
    uint64_t ready = clk_before(&ki, t0) + net->zero_load(c, 0, 0, mem_config_flits(c, 0)) - 1;
    uint64_t t1 = clk_tick_of(&ki, ready);
    o->req_net = t1 - t0;
    /* L2: ejected in the first L2 cycle of tick t1, tag pipeline */
    uint64_t j = clk_before(&kl, t1) + c->l2_latency, t2 = clk_tick_of(&kl, j), t6;
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
    ready = clk_before(&ki, t6 + 1) + net->zero_load(c, 0, 0, mem_config_flits(c, bytes)) - 1;
    uint64_t t7 = clk_tick_of(&ki, ready) + 1;
    o->reply_net = t7 - t6;
    o->total = t7 - t0;
    return 0;
}
