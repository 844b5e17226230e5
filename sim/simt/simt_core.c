/* simt_core: one SIMT core (see simt_core.h) — warps, GTO schedulers
 * (priority field and an active-warp-limit hook), per-warp i-buffer and
 * scoreboard, functional units with per-class latency / initiation interval,
 * instruction fetch through a small i-cache, L1 data cache with MSHRs,
 * shared memory, block barriers, and the resources a block or an event warp
 * holds (threads, warp slots, registers, shared memory).
 *
 * Instructions execute functionally when they issue (rv32_exec on the
 * warp's lane context; memory instructions here); their results become
 * visible to dependent instructions through the scoreboard (register ready
 * cycle).  Loads read memory at issue and write their register when they
 * complete, so an in-flight load can be dropped and replayed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt_core.h"

#define FULL 0xffffffffu

static unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

static int cache_init(simt_cache *c, unsigned bytes, unsigned line, unsigned assoc) {
    unsigned lines = bytes / line;
    if (assoc == 0 || lines < assoc) lines = assoc = 1;
    c->assoc = assoc;
    c->sets = lines / assoc;
    c->tag = calloc((size_t)c->sets * assoc, sizeof *c->tag);
    c->lru = calloc((size_t)c->sets * assoc, sizeof *c->lru);
    return c->tag && c->lru ? 0 : -1;
}

/* true on hit; on miss installs the line (LRU victim) when install */
static bool cache_access(simt_cache *c, uint32_t line, uint64_t now, bool install) {
    unsigned set = line % c->sets;
    uint32_t *t = &c->tag[set * c->assoc];
    uint64_t *u = &c->lru[set * c->assoc];
    unsigned v = 0;
    for (unsigned i = 0; i < c->assoc; i++) {
        if (t[i] == line + 1) { u[i] = now + 1; return true; }
        if (u[i] < u[v]) v = i;
    }
    if (install) { t[v] = line + 1; u[v] = now + 1; }
    return false;
}

static void cache_inval(simt_cache *c, uint32_t line) {
    unsigned set = line % c->sets;
    for (unsigned i = 0; i < c->assoc; i++)
        if (c->tag[set * c->assoc + i] == line + 1) c->tag[set * c->assoc + i] = 0;
}

int simt_core_init(simt_core *c, unsigned id, const gpu_config *k, uint8_t *gmem, uint64_t gmem_size,
                   simt_dcache *dc, const simt_core_cbs *cb) {
    memset(c, 0, sizeof *c);
    c->id = id;
    c->k = k;
    c->gmem = gmem;
    c->gmem_size = gmem_size;
    c->dc = dc;
    c->cb = *cb;
    c->ev_block = k->max_blocks_per_core;
    c->nwarps = k->max_threads_per_core / SIMT_LANES;
    c->w = calloc(c->nwarps, sizeof *c->w);
    c->blk = calloc(k->max_blocks_per_core + 1, sizeof *c->blk);
    c->shmem = calloc(k->shmem_per_core ? k->shmem_per_core : 1, 1);
    /* local memory: one region per warp slot, + one per PEWT entry (event warps) */
    c->local = calloc((size_t)(c->nwarps + k->pre.pewt_entries) * SIMT_LANES, k->stack_bytes);
    c->order = calloc(c->nwarps, sizeof *c->order);
    c->mshr = calloc(k->l1_mshrs ? k->l1_mshrs : 1, sizeof *c->mshr);
    c->active_limit = c->nwarps;
    for (unsigned i = 0; i < SIMT_MAX_UNITS; i++) c->last_issued[i] = -1;
    if (!c->w || !c->blk || !c->shmem || !c->local || !c->order || !c->mshr) return -1;
    if (k->pre.warp_events) {
        c->park = calloc(c->nwarps, sizeof *c->park);
        c->sev = calloc(c->nwarps, sizeof *c->sev);
        if (!c->park || !c->sev) return -1;
    }
    if (cache_init(&c->l1, k->l1_bytes, k->line_bytes, k->l1_assoc)) return -1;
    if (cache_init(&c->icache, k->icache_bytes, k->line_bytes, k->icache_assoc)) return -1;
    for (unsigned i = 0; i < c->nwarps; i++) c->w[i].slot = i;
    c->next_wb = UINT64_MAX;
    return 0;
}

void simt_core_free(simt_core *c) {
    free(c->w); free(c->blk); free(c->shmem); free(c->local); free(c->order); free(c->mshr);
    free(c->park); free(c->sev);
    free(c->l1.tag); free(c->l1.lru); free(c->icache.tag); free(c->icache.lru);
}

void simt_core_set_hooks(simt_core *c, const simt_core_hooks *h, void *ext) {
    c->hooks = h;
    c->ext = ext;
}

void simt_core_fault(simt_core *c, const char *fmt, ...) {
    if (c->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->failed = true;
    if (c->cb.fault) c->cb.fault(c->cb.user, c->err);
}

const rv_inst *simt_decode(simt_dcache *d, uint32_t pc, char *err, size_t errlen) {
    simt_dcache_ent *e = &d->e[(pc >> 2) & d->mask];
    if (e->tag == pc + 1) return &e->in;
    if ((pc & 3) || pc < FG_GUARD_END || (uint64_t)pc + 4 > d->mem_size) {
        snprintf(err, errlen, "instruction fetch from bad address 0x%08x", pc);
        return NULL;
    }
    uint32_t word;
    memcpy(&word, d->mem + pc, 4);
    rv_decode(word, &e->in);
    if (e->in.op == OP_ILLEGAL) {
        snprintf(err, errlen, "illegal instruction 0x%08x at pc 0x%08x", word, pc);
        e->tag = 0;
        return NULL;
    }
    e->tag = pc + 1;
    return &e->in;
}

/* GTO order: priority descending, then age ascending. */
void simt_core_sort(simt_core *c) {
    unsigned n = 0;
    for (unsigned i = 0; i < c->nwarps; i++)
        if (c->w[i].state != WS_FREE && c->w[i].state != WS_PARKED) c->order[n++] = (uint16_t)i;
    for (unsigned i = 1; i < n; i++) { /* insertion sort: n <= 64 */
        uint16_t x = c->order[i];
        const simt_warp *wx = &c->w[x];
        unsigned j = i;
        while (j > 0) {
            const simt_warp *wy = &c->w[c->order[j - 1]];
            if (wy->priority > wx->priority || (wy->priority == wx->priority && wy->age < wx->age)) break;
            c->order[j] = c->order[j - 1];
            j--;
        }
        c->order[j] = x;
    }
    c->n_order = n;
}

/* ------------------------------------------------------------ blocks */

static bool shmem_alloc(const gpu_config *k, simt_core *c, uint32_t size, uint32_t *off) {
    /* first fit over the blocks' intervals */
    uint32_t pos = 0;
    for (;;) {
        bool moved = false;
        for (unsigned i = 0; i < k->max_blocks_per_core; i++) {
            const simt_block *b = &c->blk[i];
            if (!b->valid || b->shmem_size == 0) continue;
            if (pos < b->shmem_off + b->shmem_size && b->shmem_off < pos + size) {
                pos = b->shmem_off + b->shmem_size;
                moved = true;
            }
        }
        if (!moved) break;
    }
    if ((uint64_t)pos + size > k->shmem_per_core) return false;
    *off = pos;
    return true;
}

/* A fresh warp (index wib of its block) of grid k in slot w: registers
 * zero but ra = exit, sp = top of its local memory, a0 = parameters. */
static void warp_start(simt_core *c, simt_warp *w, const simt_grid *k, unsigned block, unsigned wib) {
    unsigned slot = w->slot;
    memset(w, 0, sizeof *w);
    w->slot = slot;
    w->local_idx = slot;
    w->state = WS_RUN;
    w->block = block;
    w->wib = wib;
    w->grid = k;
    w->priority = k->priority;
    w->age = c->warp_seq++;
    unsigned n = k->threads - wib * SIMT_LANES;
    w->live = n >= SIMT_LANES ? FULL : (1u << n) - 1;
    w->active = w->live;
    w->x.pc = (uint32_t)k->kernel_ptr;
    for (unsigned l = 0; l < SIMT_LANES; l++) {
        w->x.r[1][l] = FG_EXIT_ADDR;
        w->x.r[2][l] = FG_LOCAL_TOP;
        w->x.r[10][l] = (uint32_t)k->param_addr;
    }
}

bool simt_core_try_block(simt_core *c, const simt_grid *L, uint32_t bi) {
    const gpu_config *k = c->k;
    if (c->used_blocks + 1 > k->max_blocks_per_core) return false;
    if (c->hooks && c->hooks->blocks_held(c->ext)) return false;
    if (c->used_threads + L->nwarps * SIMT_LANES > k->max_threads_per_core) return false;
    if (c->used_warps + L->nwarps > c->nwarps) return false;
    if (c->used_regs + L->regs > k->regs_per_core) return false;
    if (c->used_shmem + L->shmem > k->shmem_per_core) return false;
    uint32_t off = 0;
    if (L->shmem && !shmem_alloc(k, c, L->shmem, &off)) return false;
    unsigned bs = 0;
    while (c->blk[bs].valid) bs++;
    simt_block *b = &c->blk[bs];
    memset(b, 0, sizeof *b);
    b->valid = true;
    b->grid = L;
    uint32_t gx = L->grid[0], gy = L->grid[1];
    b->ctaid[0] = bi % gx;
    b->ctaid[1] = (bi / gx) % gy;
    b->ctaid[2] = bi / (gx * gy);
    b->live_threads = L->threads;
    b->nwarps = L->nwarps;
    b->shmem_off = off;
    b->shmem_size = L->shmem;
    b->regs = L->regs;
    memset(c->shmem + off, 0, L->shmem);
    c->used_blocks++;
    c->used_threads += L->nwarps * SIMT_LANES;
    c->used_warps += L->nwarps;
    c->used_regs += L->regs;
    c->used_shmem += L->shmem;
    unsigned ws = 0;
    for (unsigned i = 0; i < L->nwarps; i++) {
        while (c->w[ws].state != WS_FREE) ws++;
        warp_start(c, &c->w[ws], L, bs, i);
        b->warp_slot[i] = (uint16_t)ws;
        c->alloc_mask |= 1ull << ws;
    }
    c->alloc_regs = L->regs_pt;
    simt_core_sort(c);
    return true;
}

static void block_finish(simt_core *c, unsigned bs) {
    simt_block *b = &c->blk[bs];
    c->used_blocks--;
    c->used_threads -= b->nwarps * SIMT_LANES;
    c->used_warps -= b->nwarps;
    c->used_regs -= b->regs;
    c->used_shmem -= b->shmem_size;
    b->valid = false;
    c->cb.block_done(c->cb.user, b->grid);
}

/* The slot's warp is gone: no scheduler keeps greedily to it. */
static void forget_last_issued(simt_core *c, unsigned slot) {
    for (unsigned s = 0; s < SIMT_MAX_UNITS; s++)
        if (c->last_issued[s] == (int)slot) c->last_issued[s] = -1;
}

static void warp_finish(simt_core *c, simt_warp *w) {
    w->state = WS_FREE;
    forget_last_issued(c, w->slot);
    if (w->event) { /* EDGE IV-D: the victim waits in its slot for RESUME, or the context is free */
        simt_slot_ev *se = &c->sev[w->slot];
        w->event = false;
        if (se->parked) {
            w->state = WS_PARKED;
        } else {
            c->used_warps--;
            c->used_threads -= SIMT_LANES;
            c->used_regs -= se->ev_regs * SIMT_LANES;
        }
        simt_core_sort(c);
        c->hooks->warp_exit(c->ext, w->slot);
        return;
    }
    simt_block *b = &c->blk[w->block];
    simt_core_sort(c);
    if (++b->warps_done == b->nwarps) block_finish(c, w->block);
}

/* ------------------------------------------- resources of event warps */

bool simt_core_regs_fit(const simt_core *c, unsigned regs_pt) {
    return c->used_regs + regs_pt * SIMT_LANES <= c->k->regs_per_core;
}

bool simt_core_free_ctx(const simt_core *c, unsigned regs_pt, unsigned *slot) {
    if (c->used_warps >= c->nwarps || c->used_threads + SIMT_LANES > c->k->max_threads_per_core ||
        !simt_core_regs_fit(c, regs_pt))
        return false;
    for (unsigned i = 0; i < c->nwarps; i++)
        if (c->w[i].state == WS_FREE) { *slot = i; return true; }
    return false;
}

void simt_core_claim(simt_core *c, unsigned slot, unsigned regs_pt) {
    c->used_warps++;
    c->used_threads += SIMT_LANES;
    c->used_regs += regs_pt * SIMT_LANES;
    c->sev[slot] = (simt_slot_ev){.ev_regs = regs_pt};
}

static uint64_t save_addr(const simt_core *c, unsigned slot, unsigned r) {
    return c->save_base + ((uint64_t)slot * RV_NREGS + r) * SIMT_LANES * 4;
}

void simt_core_park(simt_core *c, unsigned slot, unsigned regs_pt, uint64_t ev_mask, bool saved) {
    simt_warp *p = &c->park[slot];
    *p = c->w[slot];
    c->sev[slot] = (simt_slot_ev){.parked = true, .saved = saved, .ev_regs = regs_pt, .ev_mask = ev_mask};
    if (saved) {
        /* the registers the event kernel uses go to the preallocated region */
        for (unsigned r = 0; r < RV_NREGS; r++)
            if (ev_mask >> r & 1) {
                memcpy(c->gmem + save_addr(c, slot, r), p->x.r[r], SIMT_LANES * 4);
                memset(p->x.r[r], 0, SIMT_LANES * 4); /* overwritten by the event warp */
            }
    } else {
        c->used_regs += regs_pt * SIMT_LANES; /* EDGE IV-D: free registers reserved */
    }
}

void simt_core_resume(simt_core *c, unsigned slot) {
    simt_slot_ev *se = &c->sev[slot];
    simt_warp *w = &c->w[slot];
    *w = c->park[slot];
    if (se->saved) {
        for (unsigned r = 0; r < RV_NREGS; r++)
            if (se->ev_mask >> r & 1) memcpy(w->x.r[r], c->gmem + save_addr(c, slot, r), SIMT_LANES * 4);
    } else {
        c->used_regs -= se->ev_regs * SIMT_LANES;
    }
    se->parked = false;
    w->ibuf_n = 0;
    w->fetch_ready = 0;
}

void simt_core_start_event(simt_core *c, unsigned slot, const simt_grid *k, unsigned local_idx, unsigned priority) {
    simt_warp *w = &c->w[slot];
    forget_last_issued(c, slot);
    warp_start(c, w, k, c->ev_block, 0);
    w->event = true;
    w->local_idx = local_idx;
    w->priority = priority;
    simt_core_sort(c);
}

/* ------------------------------------------------- divergence control */

/* Recomputes the issuing group: lanes at FG_EXIT_ADDR exit; among the
 * schedulable lanes (live, not at the barrier) the smallest PC wins. */
static void reconverge(simt_core *c, simt_warp *w) {
    uint32_t sched = w->live & ~w->bar_wait, exited = 0;
    for (uint32_t mm = sched; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        if (w->x.lane_pc[l] == FG_EXIT_ADDR) exited |= 1u << l;
    }
    if (exited) {
        w->live &= ~exited;
        sched &= ~exited;
        if (!w->event) {
            simt_block *b = &c->blk[w->block];
            b->live_threads -= popc(exited);
            simt_barrier_check(c, b); /* may call reconverge on this warp again */
        } else if (w->bar_wait && !(w->live & ~w->bar_wait)) {
            w->bar_wait = 0; /* warp-local barrier of an event warp */
        }
        sched = w->live & ~w->bar_wait;
    }
    uint32_t minpc = UINT32_MAX, act = 0;
    for (uint32_t mm = sched; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        uint32_t p = w->x.lane_pc[l];
        if (p < minpc) { minpc = p; act = 1u << l; }
        else if (p == minpc) act |= 1u << l;
    }
    if (act && (act != w->active || minpc != w->x.pc)) w->ibuf_n = 0;
    w->active = act;
    if (act) w->x.pc = minpc;
}

void simt_barrier_check(simt_core *c, simt_block *b) {
    if (b->bar_arrived == 0 || b->bar_arrived < b->live_threads) return;
    b->bar_arrived = 0;
    for (unsigned i = 0; i < b->nwarps; i++) {
        simt_warp *x = &c->w[b->warp_slot[i]];
        if (x->state == WS_RUN && !x->event && x->bar_wait) { /* (an event warp may sit in a victim's slot) */
            x->bar_wait = 0;
            reconverge(c, x);
        }
    }
}

/* Moves the issuing group (mask m) to npc and re-forms the group. */
static void advance(simt_core *c, simt_warp *w, uint32_t m, uint32_t npc) {
    uint32_t oldpc = w->x.pc;
    if (((w->live & ~w->bar_wait) & ~m) == 0 && npc != FG_EXIT_ADDR) {
        w->x.pc = npc;
        if (npc == oldpc + 4 && w->ibuf_n) w->ibuf_n--;
        else w->ibuf_n = 0;
        return;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = npc;
    uint32_t oldact = w->active;
    w->x.pc = npc; /* placeholder so the ibuf logic below sees a change */
    reconverge(c, w);
    if (w->x.pc == oldpc + 4 && w->active == oldact && w->ibuf_n) w->ibuf_n--;
    else w->ibuf_n = 0;
}

/* ------------------------------------------------------------ memory */

enum { RG_BAD = 0, RG_GLOBAL, RG_SHARED, RG_LOCAL };

static inline uint8_t *translate(simt_core *c, simt_warp *w, unsigned lane, uint32_t a,
                                 unsigned size, int *rg) {
    if (a >= FG_GUARD_END && (uint64_t)a + size <= c->gmem_size) { *rg = RG_GLOBAL; return c->gmem + a; }
    if (a >= FG_SHARED_BASE && a < FG_LOCAL_TOP - c->k->stack_bytes) {
        const simt_block *b = &c->blk[w->block];
        uint32_t off = a - FG_SHARED_BASE;
        if ((uint64_t)off + size <= b->shmem_size) { *rg = RG_SHARED; return c->shmem + b->shmem_off + off; }
        *rg = RG_BAD;
        return NULL;
    }
    uint32_t lb = FG_LOCAL_TOP - c->k->stack_bytes;
    if (a >= lb && (uint64_t)a + size <= FG_LOCAL_TOP) {
        *rg = RG_LOCAL;
        return c->local + ((size_t)w->local_idx * SIMT_LANES + lane) * c->k->stack_bytes + (a - lb);
    }
    *rg = RG_BAD;
    return NULL;
}

static inline uint32_t ld_val(const uint8_t *p, unsigned op) {
    switch (op) {
    case OP_LB: return (uint32_t)(int32_t)(int8_t)p[0];
    case OP_LBU: return p[0];
    case OP_LH: { int16_t v; memcpy(&v, p, 2); return (uint32_t)(int32_t)v; }
    case OP_LHU: { uint16_t v; memcpy(&v, p, 2); return v; }
    default: { uint32_t v; memcpy(&v, p, 4); return v; }
    }
}

static int mshr_find(simt_core *c, unsigned n, uint32_t line, uint64_t now) {
    for (unsigned i = 0; i < n; i++)
        if (c->mshr[i].valid && c->mshr[i].done > now && c->mshr[i].line == line) return (int)i;
    return -1;
}
static unsigned mshr_free(simt_core *c, unsigned n, uint64_t now) {
    unsigned f = 0;
    for (unsigned i = 0; i < n; i++) f += !(c->mshr[i].valid && c->mshr[i].done > now);
    return f;
}
static int mshr_alloc(simt_core *c, unsigned n, uint32_t line, uint64_t done, uint64_t now) {
    for (unsigned i = 0; i < n; i++)
        if (!(c->mshr[i].valid && c->mshr[i].done > now)) {
            c->mshr[i].valid = true; c->mshr[i].line = line; c->mshr[i].done = done;
            return (int)i;
        }
    return -1;
}

/* EDGE IV-D drop-and-replay: the warp's in-flight loads can be dropped when
 * every instruction it issued since the oldest of them is one of them (a
 * plain load still in flight), so no younger instruction has completed out
 * of order and rolling the PC back re-executes exactly the dropped loads. */
bool simt_loads_droppable(const simt_warp *w) {
    if (!w->n_ld) return false;
    uint64_t oldest = UINT64_MAX;
    for (unsigned i = 0; i < SIMT_MAX_LD; i++) {
        const simt_load *ld = &w->ld[i];
        if (!ld->valid) continue;
        if (!ld->replay) return false;
        if (ld->seq < oldest) oldest = ld->seq;
    }
    return w->instrs - oldest == w->n_ld;
}

/* Drops them: scoreboard reservations released, an MSHR no other load waits
 * on released (and its line, which never arrived, taken out of the L1), each
 * lane's PC rolled back to the oldest dropped load it took part in. */
void simt_drop_loads(simt_core *c, simt_warp *w) {
    const uint64_t now = c->now;
    for (uint32_t mm = w->active; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = w->x.pc;
    while (w->n_ld) {
        simt_load *ld = NULL; /* youngest first, so the oldest load's PC wins */
        for (unsigned i = 0; i < SIMT_MAX_LD; i++)
            if (w->ld[i].valid && (!ld || w->ld[i].seq > ld->seq)) ld = &w->ld[i];
        for (uint32_t mm = ld->mask; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = ld->pc;
        if (ld->rd != RV_SINK) w->sb_ready[ld->rd] = now;
        ld->valid = false;
        w->n_ld--;
        int mi = ld->mshr;
        bool shared = false;
        for (unsigned x = 0; x < c->nwarps && mi >= 0 && !shared; x++)
            for (unsigned i = 0; i < SIMT_MAX_LD; i++)
                shared |= c->w[x].ld[i].valid && c->w[x].ld[i].mshr == mi;
        if (mi >= 0 && !shared && c->mshr[mi].valid && c->mshr[mi].done > now) {
            c->mshr[mi].valid = false;
            cache_inval(&c->l1, c->mshr[mi].line);
        }
    }
    w->ibuf_n = 0;
    w->active = 0;
    reconverge(c, w);
}

/* Issues a memory instruction.  0 = issued, 1 = structural stall (no side
 * effects), -1 = fault. */
static int exec_mem(simt_core *c, simt_warp *w, const rv_inst *in, uint32_t m) {
    const gpu_config *k = c->k;
    const uint64_t now = c->now;
    const bool is_ld = in->flags & RVF_LOAD;
    const bool is_amo = in->flags & RVF_AMO;
    uint8_t *hp[SIMT_LANES];
    uint32_t addr[SIMT_LANES];
    uint32_t lines[SIMT_LANES];
    unsigned nl = 0, nglob = 0, nshared = 0, nlocal = 0;
    const uint32_t *base = w->x.r[in->rs1];
    const unsigned lsh = (unsigned)__builtin_ctz(k->line_bytes);
    if (is_ld && w->n_ld >= k->max_inflight_loads) return 1;
    /* bank conflicts (32 banks x 4 B): distinct words per bank */
    uint32_t bank_word[32];
    unsigned bank_cnt[32] = {0}, conflict = 1;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        uint32_t a = base[l] + (uint32_t)(is_amo ? 0 : in->imm);
        int rg;
        addr[l] = a;
        if (is_amo && (a & 3)) {
            simt_core_fault(c, "misaligned atomic %s at 0x%08x (pc 0x%08x, core %u warp %u lane %u)",
                      rv_op_name(in->op), a, w->x.pc, c->id, w->slot, l);
            return -1;
        }
        hp[l] = translate(c, w, l, a, in->size, &rg);
        if (!hp[l]) {
            simt_core_fault(c, "bad address 0x%08x: %s of %u bytes at pc 0x%08x (core %u warp %u lane %u)", a,
                      rv_op_name(in->op), in->size, w->x.pc, c->id, w->slot, l);
            return -1;
        }
        if (rg == RG_GLOBAL) {
            uint32_t ln = a >> lsh;
            unsigned j = nl;
            while (j > 0 && lines[j - 1] != ln) j--;
            if (j == 0) lines[nl++] = ln;
            nglob++;
        } else if (rg == RG_SHARED) {
            uint32_t wd = (a - FG_SHARED_BASE) >> 2, bk = wd & 31;
            if (bank_cnt[bk] == 0 || bank_word[bk] != wd) {
                if (bank_cnt[bk] == 0) bank_word[bk] = wd;
                if (++bank_cnt[bk] > conflict) conflict = bank_cnt[bk];
            }
            nshared++;
        } else {
            nlocal++;
        }
    }
    /* structural check: MSHRs for new global load misses */
    unsigned new_miss = 0;
    if (is_ld && !is_amo) {
        for (unsigned i = 0; i < nl; i++) {
            unsigned set = lines[i] % c->l1.sets;
            bool hit = false;
            for (unsigned a = 0; a < c->l1.assoc; a++) hit |= c->l1.tag[set * c->l1.assoc + a] == lines[i] + 1;
            if (!hit && mshr_find(c, k->l1_mshrs, lines[i], now) < 0) new_miss++;
        }
        if (new_miss > mshr_free(c, k->l1_mshrs, now)) { c->stall_mshr++; return 1; }
    }
    /* functional part */
    simt_load *ld = NULL;
    if (is_ld) {
        for (unsigned i = 0; i < SIMT_MAX_LD; i++)
            if (!w->ld[i].valid) { ld = &w->ld[i]; break; }
        ld->valid = true; ld->rd = in->rd; ld->pc = w->x.pc; ld->mask = m; ld->mshr = -1;
        ld->replay = !is_amo;
        ld->seq = w->instrs;
        w->n_ld++;
    }
    const uint32_t *src = w->x.r[in->rs2];
    if (in->flags & RVF_STORE) {
        switch (in->size) {
        case 1: for (uint32_t mm = m; mm; mm &= mm - 1) { unsigned l = (unsigned)__builtin_ctz(mm); *hp[l] = (uint8_t)src[l]; } break;
        case 2: for (uint32_t mm = m; mm; mm &= mm - 1) { unsigned l = (unsigned)__builtin_ctz(mm); uint16_t v = (uint16_t)src[l]; memcpy(hp[l], &v, 2); } break;
        default: for (uint32_t mm = m; mm; mm &= mm - 1) { unsigned l = (unsigned)__builtin_ctz(mm); memcpy(hp[l], &src[l], 4); } break;
        }
    } else if (!is_amo) {
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            ld->val[l] = ld_val(hp[l], in->op);
        }
    } else {
        /* atomics: lanes in order, each read-modify-write is indivisible */
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            uint32_t old, s = src[l], nv;
            memcpy(&old, hp[l], 4);
            switch (in->op) {
            case OP_LR: w->lr_addr[l] = addr[l] + 1; w->lr_val[l] = old; ld->val[l] = old; continue;
            case OP_SC:
                if (w->lr_addr[l] == addr[l] + 1 && w->lr_val[l] == old) { memcpy(hp[l], &s, 4); ld->val[l] = 0; }
                else ld->val[l] = 1;
                w->lr_addr[l] = 0;
                continue;
            case OP_AMOSWAP: nv = s; break;
            case OP_AMOADD: nv = old + s; break;
            case OP_AMOXOR: nv = old ^ s; break;
            case OP_AMOAND: nv = old & s; break;
            case OP_AMOOR: nv = old | s; break;
            case OP_AMOMIN: nv = (int32_t)old < (int32_t)s ? old : s; break;
            case OP_AMOMAX: nv = (int32_t)old > (int32_t)s ? old : s; break;
            case OP_AMOMINU: nv = old < s ? old : s; break;
            default: nv = old > s ? old : s; break;
            }
            memcpy(hp[l], &nv, 4);
            ld->val[l] = old;
        }
    }
    /* timing */
    uint64_t done = now + 1;
    unsigned occ = 1;
    if (nglob) {
        occ = nl;
        if (is_amo) {
            /* atomics are performed at the memory side (L2), L1 line dropped */
            for (unsigned i = 0; i < nl; i++) cache_inval(&c->l1, lines[i]);
            done = now + k->l1_hit_latency + k->mem_latency + nl;
        } else if (is_ld) {
            uint64_t t = now;
            for (unsigned i = 0; i < nl; i++) {
                uint64_t ti;
                int mi = mshr_find(c, k->l1_mshrs, lines[i], now);
                if (mi >= 0) { ti = c->mshr[mi].done; ld->mshr = mi; c->l1_misses++; }
                else if (cache_access(&c->l1, lines[i], now, false)) { ti = now + k->l1_hit_latency; c->l1_hits++; }
                else {
                    ti = now + k->l1_hit_latency + k->mem_latency;
                    mi = mshr_alloc(c, k->l1_mshrs, lines[i], ti, now);
                    cache_access(&c->l1, lines[i], now, true);
                    ld->mshr = mi;
                    c->l1_misses++;
                }
                ti += i; /* one line per cycle through the LDST unit */
                if (ti > t) t = ti;
            }
            done = t;
        } else {
            /* stores: write-through, no write-allocate */
            for (unsigned i = 0; i < nl; i++) cache_access(&c->l1, lines[i], now, false);
        }
    }
    if (nshared) {
        if (conflict > occ) occ = conflict;
        uint64_t t = now + k->shmem_latency + conflict - 1;
        if (t > done) done = t;
    }
    if (nlocal) {
        uint64_t t = now + k->l1_hit_latency;
        if (t > done) done = t;
    }
    c->busy[CL_LDST][0] = now + occ;
    if (ld) {
        ld->done = done;
        if (ld->rd != RV_SINK) w->sb_ready[ld->rd] = done;
        if (done < c->next_wb) c->next_wb = done;
    }
    return 0;
}

/* -------------------------------------------------------------- issue */

static inline bool unit_free(const gpu_config *k, simt_core *c, unsigned cls, uint64_t now, int *u) {
    unsigned n = k->units[cls];
    for (unsigned i = 0; i < n; i++)
        if (c->busy[cls][i] <= now) { *u = (int)i; return true; }
    return false;
}

static bool can_issue(simt_core *c, simt_warp *w, const rv_inst **pin, int *unit) {
    const uint64_t now = c->now;
    if (w->state != WS_RUN || !w->active || !w->ibuf_n) return false;
    char err[128];
    const rv_inst *in = simt_decode(c->dc, w->x.pc, err, sizeof err);
    if (!in) { /* fault */
        simt_core_fault(c, "%s", err);
        return false;
    }
    uint64_t regs = in->src_mask | in->dst_mask;
    while (regs) {
        unsigned r = (unsigned)__builtin_ctzll(regs);
        if (w->sb_ready[r] > now) return false;
        regs &= regs - 1;
    }
    if (!unit_free(c->k, c, in->cls, now, unit)) return false;
    *pin = in;
    return true;
}

/* What the warp's id CSRs read (an event warp: block id 0, no shared memory). */
static void csr_ids(const simt_core *c, const simt_warp *w, rv_csr_ids *id) {
    const simt_block *b = &c->blk[w->block];
    memcpy(id->ntid, w->grid->block, sizeof id->ntid);
    memcpy(id->nctaid, w->grid->grid, sizeof id->nctaid);
    memcpy(id->ctaid, b->ctaid, sizeof id->ctaid);
    id->wib = w->wib;
    id->core = c->id;
    id->shmem = b->shmem_size;
    id->cycle = c->now;
    id->instret = w->instrs;
}

static void issue(simt_core *c, simt_warp *w, const rv_inst *in, int unit) {
    const gpu_config *k = c->k;
    const uint64_t now = c->now;
    uint32_t m = w->active, npc = w->x.pc + 4;
    if (in->cls == CL_LDST) {
        int r = exec_mem(c, w, in, m);
        if (r) return; /* stall (retry later) or fault */
        advance(c, w, m, npc);
    } else {
        rv_csr_ids ids;
        char err[128];
        if (in->flags & RVF_CSR) csr_ids(c, w, &ids);
        int r = rv_exec(&w->x, &ids, in, m, &npc, err, sizeof err);
        c->busy[in->cls][unit] = now + k->ii[in->cls];
        if (in->rd != RV_SINK) w->sb_ready[in->rd] = now + k->lat[in->cls];
        switch (r) {
        case EX_FAULT:
            simt_core_fault(c, "%s (core %u warp %u)", err, c->id, w->slot);
            return;
        case EX_NEXT: case EX_JUMP: advance(c, w, m, npc); break;
        case EX_SPLIT: w->ibuf_n = 0; reconverge(c, w); break;
        case EX_EXIT: advance(c, w, m, FG_EXIT_ADDR); break;
        case EX_BARRIER: {
            for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = w->x.pc + 4;
            w->bar_wait |= m;
            w->ibuf_n = 0;
            if (w->event) { /* one warp, no TB: the barrier is warp-local */
                if (!(w->live & ~w->bar_wait)) w->bar_wait = 0;
                reconverge(c, w);
                break;
            }
            simt_block *b = &c->blk[w->block];
            b->bar_arrived += popc(m);
            reconverge(c, w);
            simt_barrier_check(c, b);
            break;
        }
        }
    }
    w->instrs++;
    c->warp_instrs++;
    c->thread_instrs += popc(m);
    if (!w->grid->first_done) c->cb.first_instr(c->cb.user, w->grid);
    if (!w->live && w->state == WS_RUN) {
        w->state = WS_DRAIN;
        if (w->n_ld == 0) warp_finish(c, w);
    }
}

/* --------------------------------------------------------------- tick */

static void writeback(simt_core *c) {
    const uint64_t now = c->now;
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < c->nwarps; i++) {
        simt_warp *w = &c->w[i];
        if (!w->n_ld) continue;
        for (unsigned j = 0; j < SIMT_MAX_LD; j++) {
            simt_load *ld = &w->ld[j];
            if (!ld->valid) continue;
            if (ld->done <= now) {
                uint32_t *d = w->x.r[ld->rd];
                for (uint32_t mm = ld->mask; mm; mm &= mm - 1) {
                    unsigned l = (unsigned)__builtin_ctz(mm);
                    d[l] = ld->val[l];
                }
                ld->valid = false;
                w->n_ld--;
            } else if (ld->done < next) next = ld->done;
        }
        if (w->state == WS_DRAIN && w->n_ld == 0) warp_finish(c, w);
    }
    c->next_wb = next;
}

static void core_cycle(simt_core *c);

void simt_core_tick(simt_core *c, uint64_t now) {
    c->now = now;
    if (c->hooks) c->hooks->begin(c->ext);
    core_cycle(c);
    if (c->hooks) c->hooks->end(c->ext);
    c->alloc_mask = 0;
}

static void core_cycle(simt_core *c) {
    const gpu_config *k = c->k;
    const uint64_t now = c->now;
    if (c->next_wb <= now) writeback(c);
    if (!c->n_order) return;
    /* issue: one instruction per scheduler per cycle (GTO) */
    for (unsigned s = 0; s < k->schedulers_per_core && !c->failed; s++) {
        simt_warp *best = NULL;
        const rv_inst *bin = NULL;
        int bunit = 0;
        unsigned lim = c->active_limit < c->n_order ? c->active_limit : c->n_order;
        for (unsigned i = 0; i < lim; i++) {
            unsigned slot = c->order[i];
            if (slot % k->schedulers_per_core != s) continue;
            simt_warp *w = &c->w[slot];
            const rv_inst *in;
            int unit;
            if (can_issue(c, w, &in, &unit)) { best = w; bin = in; bunit = unit; break; }
        }
        /* greedy: stay on the last-issued warp unless a higher-priority warp is ready */
        int li = c->last_issued[s];
        if (li >= 0 && (!best || (int)best->slot != li)) {
            simt_warp *w = &c->w[li];
            bool in_lim = false;
            for (unsigned i = 0; i < lim; i++) in_lim |= c->order[i] == li;
            const rv_inst *in;
            int unit;
            if (in_lim && (!best || w->priority >= best->priority) && can_issue(c, w, &in, &unit)) {
                best = w; bin = in; bunit = unit;
            }
        }
        if (!best) continue;
        c->last_issued[s] = (int)best->slot;
        issue(c, best, bin, bunit);
    }
    /* fetch: one warp per cycle, round robin, fills its i-buffer from one i-cache line */
    for (unsigned i = 0; i < c->nwarps; i++) {
        unsigned slot = (c->fetch_rr + i) % c->nwarps;
        simt_warp *w = &c->w[slot];
        if (w->state != WS_RUN || !w->active || w->ibuf_n >= k->ibuf_depth || w->fetch_ready > now ||
            w->stop_fetch)
            continue;
        uint32_t a = w->x.pc + 4 * w->ibuf_n;
        uint32_t line = a / k->line_bytes;
        if (cache_access(&c->icache, line, now, true)) {
            unsigned room = (k->line_bytes - a % k->line_bytes) / 4;
            unsigned want = k->ibuf_depth - w->ibuf_n;
            w->ibuf_n += want < room ? want : room;
        } else {
            w->fetch_ready = now + k->mem_latency;
        }
        c->fetch_rr = slot + 1;
        break;
    }
}
