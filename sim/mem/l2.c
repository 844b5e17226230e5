/* l2: one L2 slice (GPGPU-Sim's memory sub-partition): set-associative, LRU,
 * write-back, write-allocate without fetch (per-byte valid masks; a read of
 * bytes not valid fetches the line: GPGPU-Sim's lazy fetch on read), MSHRs
 * with merging, an atomic unit, finite queues everywhere.
 *
 * One L2 cycle, in this order:
 *   1. returns from the partition: a fill (then its MSHR's waiters are
 *      answered, one per cycle), an F/E-tracked response, a NACK;
 *   2. the atomic unit's finished operation answers;
 *   3. the tag pipeline's head is served (it waits while a resource it needs
 *      is full: MSHRs, the miss queue, the atomic queue, the reply network);
 *   4. one request leaves the request network into the tag pipeline.
 * A slice has one reply port: at most one response per cycle enters the
 * reply network, in the priority above.
 *
 * F/E-tracked requests (F/E 4.3: requests "pass through the L2 cache, and
 * then enter one of three queues") go from the pipeline to the partition's
 * F/E queues, so a trigger is checked against the real bits; the data part
 * is performed at the DRAM scheduler.  They allocate nothing, except with
 * fe_l2_cache: a GPU read that waited for full keeps the bytes it read, and
 * a write that filled its bytes keeps them (F/E 4.2: once the data is in
 * DRAM it "can be sent to the GPU cores and placed into the cache"); later
 * default GPU reads of bytes kept hit.  The
 * line stays right because every request that could change it passes this
 * slice first: a tracked write or action drops it, and a read keeps its line
 * only if no such request passed or was in flight between its lookup and its
 * response (a CPU write emptying the line may be performed after the read
 * in another F/E queue). */
#include "l2.h"

#include <string.h>

int l2_init(l2_slice *l, const l2_env *e) {
    const mem_config *c = e->c;
    memset(l, 0, sizeof *l);
    l->e = *e;
    l->ways = calloc((size_t)c->l2_sets * c->l2_assoc, sizeof *l->ways);
    l->tag = calloc((size_t)c->l2_sets * c->l2_assoc, sizeof *l->tag);
    l->mshr = calloc(c->l2_mshrs, sizeof *l->mshr);
    l->mshr_wait = calloc((size_t)c->l2_mshrs * c->l2_mshr_merge, sizeof *l->mshr_wait);
    if (!l->ways || !l->tag || !l->mshr || !l->mshr_wait || mq_init(&l->pipe, c->l2_latency) ||
        (c->l2_in_queue && mq_init(&l->in, c->l2_in_queue)) ||
        mq_init(&l->ret, c->l2_return_queue) || mq_init(&l->amo, c->l2_amo_queue))
        return -1;
    for (unsigned q = 0; q < 3; q++)
        if (mq_init(&l->miss[q], c->l2_miss_queue)) return -1;
    for (unsigned i = 0; i < c->l2_sets * c->l2_assoc; i++) l->ways[i].mshr = MEM_NONE;
    for (unsigned i = 0; i < c->l2_mshrs; i++) l->mshr[i].wait = &l->mshr_wait[i * c->l2_mshr_merge];
    l->drain = MEM_NONE;
    return 0;
}

void l2_free(l2_slice *l) {
    free(l->ways);
    free(l->tag);
    free(l->mshr);
    free(l->mshr_wait);
    mq_free(&l->pipe);
    if (l->e.c->l2_in_queue) mq_free(&l->in);
    mq_free(&l->ret);
    mq_free(&l->amo);
    for (unsigned q = 0; q < 3; q++) mq_free(&l->miss[q]);
}

bool l2_busy(const l2_slice *l) {
    return l->pipe.n || l->in.n || l->ret.n || l->amo.n || l->drain != MEM_NONE ||
           l->e.net_ops->peek(l->e.net, ICNT_REQ, l->e.node);
}

static bool covers(const uint64_t have[2], const uint64_t want[2]) {
    return (have[0] & want[0]) == want[0] && (have[1] & want[1]) == want[1];
}

/* Set of a record's line: the slice-local line number modulo the sets (the
 * partition and slice bits of the address stripped, docs/MEM.md). */
static unsigned set_of(const mem_config *c, const mem_rec *r) {
    uint64_t span = (uint64_t)c->slices * c->interleave_bytes;
    uint64_t sl = r->local / span * c->interleave_bytes + r->local % c->interleave_bytes;
    return (unsigned)(sl / c->line_bytes % c->l2_sets);
}

/* A record for the L2's own traffic (a line fill or a write-back), bound for
 * the partition's non-triggered queue.  The caller has checked the pool's
 * n_free. */
static uint32_t internal_rec(l2_slice *l, unsigned type, uint64_t line, const uint64_t mask[2],
                             unsigned kind) {
    uint32_t i = mem_rec_alloc(l->e.pool);
    mem_rec *r = &l->e.pool->rec[i];
    unsigned p, sg;
    memset(&r->q, 0, sizeof r->q);
    r->q.addr = line * l->e.c->line_bytes;
    r->q.bmask[0] = mask[0];
    r->q.bmask[1] = mask[1];
    r->q.op = type == REC_WB ? MEM_WRITE : MEM_READ;
    r->q.kind = (uint8_t)kind;
    r->type = (uint8_t)type;
    r->port = UINT16_MAX;
    r->mshr = MEM_NONE;
    r->tracked = false;
    mem_config_map(l->e.c, r->q.addr, &p, &sg, &r->local);
    r->part = (uint8_t)p;
    r->slice = (uint8_t)sg;
    r->bytes = (uint16_t)(__builtin_popcountll(mask[0]) + __builtin_popcountll(mask[1]));
    mem_rec_fe_plain(r);
    return i;
}

static l2_way *lookup(l2_slice *l, unsigned set, uint64_t line, unsigned assoc) {
    const uint64_t *t = &l->tag[set * assoc];
    for (unsigned w = 0; w < assoc; w++)
        if (t[w] == line + 1) return &l->ways[set * assoc + w];
    return NULL;
}

/* LRU victim among the ways with no fill pending; -1 when all are pending. */
static int victim(const l2_slice *l, unsigned set, unsigned assoc) {
    int v = -1;
    for (unsigned w = 0; w < assoc; w++) {
        const l2_way *x = &l->ways[set * assoc + w];
        if (!l->tag[set * assoc + w]) return (int)(set * assoc + w);
        if (x->mshr == MEM_NONE && !x->fe_pending && (v < 0 || x->lru < l->ways[v].lru)) v = (int)(set * assoc + w);
    }
    return v;
}

static bool dirty(const l2_way *w) { return w->present && (w->dirty[0] | w->dirty[1]); }

/* A way takes a new line: an evicted tracked line's last change becomes the
 * floor, since no way records it any more. */
static void fe_evicting(l2_slice *l, const l2_way *w) {
    if (w->fe && w->fe_changed > l->fe_floor) l->fe_floor = w->fe_changed;
}

/* Evicts way v (its dirty bytes written back) and installs `line` there. */
static void install(l2_slice *l, unsigned v, uint64_t line, unsigned kind, uint64_t ready) {
    l2_way *w = &l->ways[v];
    fe_evicting(l, w);
    if (dirty(w)) {
        mq_push(&l->miss[FE_Q_NT], internal_rec(l, REC_WB, w->line, w->dirty, kind), ready);
        l->st.writebacks++;
    }
    memset(w, 0, sizeof *w);
    w->line = line;
    w->present = true;
    w->mshr = MEM_NONE;
    l->tag[v] = line + 1;
}

/* Flits of a record's response on the reply network. */
static unsigned reply_flits(const l2_slice *l, const mem_rec *r) {
    bool data = r->rsp.status == MEM_OK && r->q.op != MEM_WRITE;
    return mem_config_flits(l->e.c, data ? r->bytes : 0);
}

/* The slice's one reply port, free this cycle and with room in the reply
 * network; a full network is the partition's stallnet (CM 3.2). */
static bool reply_ok(l2_slice *l, uint32_t ri, const bool *port) {
    if (*port) return false;
    if (l->e.net_ops->can_inject(l->e.net, ICNT_REP, l->e.node, reply_flits(l, &l->e.pool->rec[ri])))
        return true;
    *l->e.stall_net = true;
    return false;
}

/* Puts a record's response on the reply network (reply_ok said it fits). */
static void reply(l2_slice *l, uint32_t ri, bool *port) {
    mem_rec *r = &l->e.pool->rec[ri];
    r->rsp.id = r->q.id;
    r->rsp.addr = r->q.addr;
    r->rsp.op = r->q.op;
    r->t_reply = l->now;
    icnt_pkt p = {ri, (uint16_t)l->e.node, r->port, (uint16_t)reply_flits(l, r), 0};
    if (r->rsp.status == MEM_NACK) l->st.nacks++;
    if (l->e.net_ops->inject(l->e.net, ICNT_REP, &p)) l->refused = true;
    *port = true;
}

static void amo_push(l2_slice *l, uint32_t ri, uint64_t now) {
    uint64_t start = l->amo_free > now ? l->amo_free : now;
    l->amo_free = start + (uint64_t)l->e.pool->rec[ri].q.amo_ops * l->e.c->l2_amo_cycles;
    mq_push(&l->amo, ri, l->amo_free);
}

/* F/E 4.1's default GPU read: it waits for full and leaves the bits. */
static bool fe_plain_read(const mem_rec *r) {
    return r->fe_src == FE_SRC_GPU && r->q.op == MEM_READ &&
           (r->fe_dflt || (r->fe_trig == FE_TRIG_FULL && r->fe_act == FE_ACT_NONE));
}

/* A write whose action fills its words: F/E 4.1's default GPU write, or a
 * CPU write given cudaMemcpyActionFill (F/E 4.4). */
static bool fe_fills(const mem_rec *r) { return r->q.op == MEM_WRITE && (r->fe_dflt || r->fe_act == FE_ACT_FILL); }

/* A tracked request that may change a line's data or bits. */
static bool fe_changes(const mem_rec *r) { return r->q.op != MEM_READ || (!r->fe_dflt && r->fe_act != FE_ACT_NONE); }

void l2_fe_drop(l2_slice *l, uint64_t addr, uint64_t bytes) {
    const mem_config *c = l->e.c;
    for (unsigned i = 0; i < c->l2_sets * c->l2_assoc; i++) {
        l2_way *w = &l->ways[i];
        uint64_t a = w->line * c->line_bytes;
        if (!w->fe || a < addr || a - addr >= bytes) continue;
        w->valid[0] = w->valid[1] = 0; /* a way counting requests in flight stays, knowing nothing */
        if (!w->fe_pending) {
            l->tag[i] = 0;
            memset(w, 0, sizeof *w);
            w->mshr = MEM_NONE;
        }
    }
    l->fe_floor = ++l->fe_clock;
}

/* A way for tracked line `line` (clean, nothing known full), or NULL when
 * every way of its set is busy or would need a write-back. */
static l2_way *fe_way(l2_slice *l, unsigned set, uint64_t line) {
    int v = victim(l, set, l->e.c->l2_assoc);
    if (v < 0 || dirty(&l->ways[v])) return NULL;
    l2_way *w = &l->ways[v];
    fe_evicting(l, w);
    memset(w, 0, sizeof *w);
    w->line = line;
    w->present = w->fe = true;
    w->mshr = MEM_NONE;
    l->tag[v] = line + 1;
    return w;
}

/* fe_l2_cache: a tracked write or action leaves the tag pipeline for the
 * F/E queues: nothing of its line is known full any more, and its way
 * counts it until its response. */
static void fe_change_out(l2_slice *l, mem_rec *r, l2_way *w) {
    const mem_config *c = l->e.c;
    if (!w) w = fe_way(l, set_of(c, r), r->q.addr / c->line_bytes);
    r->fe_counted = w != NULL;
    if (!w) {
        l->fe_untracked++;
        l->fe_floor = ++l->fe_clock;
        return;
    }
    w->valid[0] = w->valid[1] = 0;
    w->fe_pending++;
    w->fe_changed = ++l->fe_clock;
}

/* fe_l2_cache: a tracked request's response is leaving the slice. */
static void fe_answered(l2_slice *l, const mem_rec *r) {
    const mem_config *c = l->e.c;
    if (r->type != REC_EXT) return;
    unsigned set = set_of(c, r);
    uint64_t line = r->q.addr / c->line_bytes;
    l2_way *w = lookup(l, set, line, c->l2_assoc);
    if (fe_changes(r)) {
        if (!r->fe_counted) {
            l->fe_untracked--;
            l->fe_floor = ++l->fe_clock;
            return;
        }
        w->fe_pending--;
        w->fe_changed = ++l->fe_clock;
        /* a write that filled its bytes, the line's last change: they are full, with its data (the
         * write-allocate of an ordinary line) */
        if (fe_fills(r) && r->rsp.status == MEM_OK && !w->fe_pending) {
            w->valid[0] |= r->q.bmask[0];
            w->valid[1] |= r->q.bmask[1];
            w->lru = ++l->stamp;
        }
        return;
    }
    /* a default GPU read keeps the bytes it found full if no change of its line is in flight (one that
     * passed before the read may be performed after it: a CPU take held behind another in its queue)
     * and none passed since its lookup (responses leave in the order the partition performed them, so
     * such a change was performed before the read; the check keeps this right on a path that reorders) */
    if (!fe_plain_read(r) || r->rsp.status != MEM_OK || l->fe_untracked || l->fe_floor > r->fe_epoch) return;
    if (w && (w->fe_pending || w->fe_changed > r->fe_epoch)) return;
    if (!w && !(w = fe_way(l, set, line))) return;
    if (!w->valid[0] && !w->valid[1]) l->st.fe_installs++;
    w->valid[0] |= r->q.bmask[0];
    w->valid[1] |= r->q.bmask[1];
    w->lru = ++l->stamp;
}

/* 1: a fill is answered (its waiters one per cycle); an F/E-tracked response
 * or a NACK goes out. */
static void returns(l2_slice *l, uint64_t now, bool *port) {
    mem_rec *rec = l->e.pool->rec;
    if (l->drain == MEM_NONE) {
        mq_ent *h = mq_head(&l->ret);
        if (!h) return;
        mem_rec *r = &rec[h->rec];
        if (r->type != REC_FILL) {
            if (reply_ok(l, h->rec, port)) {
                r->t_fill = now;
                if (r->tracked && l->e.c->fe_l2_cache) fe_answered(l, r);
                reply(l, h->rec, port);
                mq_pop(&l->ret);
            }
            return;
        }
        l2_mshr *f = &l->mshr[r->mshr];
        f->t_mc = r->t_mc;
        f->t_dram = r->t_dram;
        f->t_fill = now;
        l2_way *w = &l->ways[f->way];
        w->valid[0] = l->e.data->line_mask[0];
        w->valid[1] = l->e.data->line_mask[1];
        l->drain = r->mshr;
        l->drain_i = 0;
        mem_rec_free(l->e.pool, h->rec);
        mq_pop(&l->ret);
    }
    l2_mshr *x = &l->mshr[l->drain];
    uint32_t wi = x->wait[l->drain_i];
    mem_rec *r = &rec[wi];
    if (r->q.op == MEM_ATOMIC) {
        if (mq_full(&l->amo)) return;
        l2_way *w = &l->ways[x->way];
        w->dirty[0] |= r->q.bmask[0];
        w->dirty[1] |= r->q.bmask[1];
        amo_push(l, wi, now);
    } else {
        if (!reply_ok(l, wi, port)) return;
        r->t_mc = x->t_mc;
        r->t_dram = x->t_dram;
        r->t_fill = x->t_fill;
        reply(l, wi, port);
    }
    if (++l->drain_i < x->n) return;
    l->ways[x->way].mshr = MEM_NONE;
    x->busy = false;
    x->n = 0;
    l->mshr_used--;
    l->drain = MEM_NONE;
}

/* 3, a tracked request: a hit on a kept line (fe_l2_cache), else to the F/E
 * queues; false when it must wait. */
static bool serve_tracked(l2_slice *l, uint32_t ri, uint64_t ready, bool *port) {
    const mem_config *c = l->e.c;
    mem_rec *r = &l->e.pool->rec[ri];
    l2_way *w = c->fe_l2_cache ? lookup(l, set_of(c, r), r->q.addr / c->line_bytes, c->l2_assoc) : NULL;
    r->path = MEM_PATH_OTHER;
    if (w && w->fe && fe_plain_read(r) && covers(w->valid, r->q.bmask)) { /* (fe_pending: nothing valid) */
        l->why = MEM_BLK_REPLY;
        if (!reply_ok(l, ri, port)) return false;
        mem_data_perform(l->e.data, r);
        reply(l, ri, port);
        if (c->fe_admit && r->fe_q != FE_Q_NT) l->e.admitted[r->fe_q]--; /* as the partition would have */
        w->lru = ++l->stamp;
        l->st.hits++;
        l->st.fe_hits++;
        return true;
    }
    l->why = MEM_BLK_MISSQ;
    if (mq_full(&l->miss[r->fe_q])) return false;
    if (c->fe_l2_cache && fe_changes(r)) fe_change_out(l, r, w);
    r->fe_epoch = l->fe_clock;
    mq_push(&l->miss[r->fe_q], ri, ready);
    l->st.fe_tracked++;
    return true;
}

/* 3: the tag pipeline's head; false when it must wait. */
static bool serve(l2_slice *l, uint32_t ri, uint64_t now, bool *port) {
    const mem_config *c = l->e.c;
    mem_pool *pool = l->e.pool;
    mem_rec *r = &pool->rec[ri];
    uint64_t ready = now + c->l2_dram_latency;
    if (r->tracked) return serve_tracked(l, ri, ready, port);
    unsigned set = set_of(c, r);
    uint64_t line = r->q.addr / c->line_bytes;
    l2_way *w = lookup(l, set, line, c->l2_assoc);
    if (r->q.op == MEM_WRITE) { /* allocate without fetch */
        int v = w ? (int)(w - l->ways) : victim(l, set, c->l2_assoc);
        bool wb = !w && v >= 0 && dirty(&l->ways[v]);
        if (v < 0 || (wb && (mq_full(&l->miss[FE_Q_NT]) || !pool->n_free)) || !reply_ok(l, ri, port)) {
            l->why = v < 0 || (wb && !mq_full(&l->miss[FE_Q_NT]) && !pool->n_free) ? MEM_BLK_OTHER
                     : wb && mq_full(&l->miss[FE_Q_NT])                            ? MEM_BLK_MISSQ
                                                                                   : MEM_BLK_REPLY;
            return false;
        }
        r->path = MEM_PATH_WRITE;
        if (w) l->st.hits++;
        else l->st.misses++;
        if (!w) install(l, (unsigned)v, line, r->q.kind, ready);
        w = &l->ways[v];
        w->valid[0] |= r->q.bmask[0];
        w->valid[1] |= r->q.bmask[1];
        w->dirty[0] |= r->q.bmask[0];
        w->dirty[1] |= r->q.bmask[1];
        w->lru = ++l->stamp;
        mem_data_perform(l->e.data, r);
        reply(l, ri, port);
        return true;
    }
    bool atomic = r->q.op == MEM_ATOMIC;
    if (w && covers(w->valid, r->q.bmask)) { /* hit */
        if (atomic ? mq_full(&l->amo) : !reply_ok(l, ri, port)) {
            l->why = atomic ? MEM_BLK_OTHER : MEM_BLK_REPLY;
            return false;
        }
        r->path = atomic ? MEM_PATH_OTHER : MEM_PATH_HIT;
        mem_data_perform(l->e.data, r);
        if (atomic) {
            w->dirty[0] |= r->q.bmask[0];
            w->dirty[1] |= r->q.bmask[1];
            amo_push(l, ri, now);
        } else {
            reply(l, ri, port);
        }
        w->lru = ++l->stamp;
        l->st.hits++;
        return true;
    }
    if (w && w->mshr != MEM_NONE) { /* the line's fill is pending: merge */
        l2_mshr *x = &l->mshr[w->mshr];
        if (x->n == c->l2_mshr_merge) {
            l->why = MEM_BLK_MSHR;
            return false;
        }
        r->path = atomic ? MEM_PATH_OTHER : MEM_PATH_MERGE;
        x->wait[x->n++] = ri;
        mem_data_perform(l->e.data, r);
        w->lru = ++l->stamp;
        l->st.misses++;
        l->st.merges++;
        return true;
    }
    /* miss: an MSHR, a fill toward DRAM (+ a write-back if the victim is dirty) */
    int v = w ? (int)(w - l->ways) : victim(l, set, c->l2_assoc);
    unsigned need = (!w && v >= 0 && dirty(&l->ways[v])) ? 2 : 1;
    if (v < 0 || l->mshr_used == c->l2_mshrs || mq_room(&l->miss[FE_Q_NT]) < need || pool->n_free < need) {
        l->why = v >= 0 && l->mshr_used == c->l2_mshrs                    ? MEM_BLK_MSHR
                 : v >= 0 && mq_room(&l->miss[FE_Q_NT]) < need            ? MEM_BLK_MISSQ
                                                                          : MEM_BLK_OTHER;
        return false;
    }
    r->path = atomic ? MEM_PATH_OTHER : MEM_PATH_MISS;
    if (!w) install(l, (unsigned)v, line, r->q.kind, ready);
    unsigned h = 0;
    while (l->mshr[h].busy) h++;
    l2_mshr *x = &l->mshr[h];
    x->busy = true;
    x->way = (uint32_t)v;
    x->n = 1;
    x->wait[0] = ri;
    l->mshr_used++;
    l->ways[v].mshr = h;
    l->ways[v].lru = ++l->stamp;
    uint32_t f = internal_rec(l, REC_FILL, line, l->e.data->line_mask, r->q.kind);
    pool->rec[f].mshr = h;
    mq_push(&l->miss[FE_Q_NT], f, ready);
    mem_data_perform(l->e.data, r);
    l->st.misses++;
    return true;
}

int l2_cycle(l2_slice *l, uint64_t now) {
    bool port = false;
    l->refused = false;
    l->now = now;
    returns(l, now, &port);
    mq_ent *a = mq_head(&l->amo); /* 2: the atomic unit */
    if (a && a->t <= now && reply_ok(l, a->rec, &port)) {
        reply(l, a->rec, &port);
        mq_pop(&l->amo);
    }
    mq *head = l->e.c->l2_in_queue ? &l->in : &l->pipe;
    mq_ent *h = mq_head(head);
    if (h && h->t <= now) {
        if (serve(l, h->rec, now, &port)) {
            l->e.pool->rec[h->rec].t_served = now;
            mq_pop(head);
        } else {
            l->st.blk[l->why]++;
        }
    }
    if (l->e.c->l2_in_queue) { /* GPGPU-Sim's cache_cycle: the ROP delay's ready head into the input queue */
        mq_ent *d = mq_head(&l->pipe);
        if (d && d->t <= now && !mq_full(&l->in)) {
            mq_push(&l->in, d->rec, 0);
            mq_pop(&l->pipe);
        }
        if (mq_full(&l->in)) { /* the partition takes nothing from the network (gpu_stall_dramfull) */
            l->st.in_full++;
            *l->e.stall_in = true;
            if (l->e.net_ops->peek(l->e.net, ICNT_REQ, l->e.node)) l->st.in_wait++;
            return l->refused ? -1 : 0;
        }
    }
    if (mq_full(&l->pipe)) {
        if (l->e.net_ops->peek(l->e.net, ICNT_REQ, l->e.node)) l->st.in_wait++;
    } else { /* 4 */
        const icnt_pkt *p = l->e.net_ops->peek(l->e.net, ICNT_REQ, l->e.node);
        if (p) {
            l->e.pool->rec[p->rec].t_pipe = now;
            mq_push(&l->pipe, p->rec, now + l->e.c->l2_latency);
            l->e.net_ops->pop(l->e.net, ICNT_REQ, l->e.node);
        }
    }
    return l->refused ? -1 : 0;
}
