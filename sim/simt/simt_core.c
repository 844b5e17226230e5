/* simt_core: one SIMT core — warps, GTO schedulers (priority field and an
 * active-warp-limit hook), per-warp i-buffer and scoreboard, functional
 * units with per-class latency / initiation interval, instruction fetch
 * through a small i-cache, L1 data cache with MSHRs in front of the
 * fixed-latency global memory, shared memory, block barriers, and the
 * resources a block holds (threads, warp slots, registers, shared memory).
 *
 * Instructions execute functionally when they issue; their results become
 * visible to dependent instructions through the scoreboard (register ready
 * cycle).  Loads read memory at issue and write their register when they
 * complete, so an in-flight load can be dropped and replayed. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/gpu_internal.h"

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

int simt_core_init(gpu_t *g, simt_core *c, unsigned id) {
    const gpu_config *k = &g->cfg;
    memset(c, 0, sizeof *c);
    c->id = id;
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
    if (cache_init(&c->l1, k->l1_bytes, k->line_bytes, k->l1_assoc)) return -1;
    if (cache_init(&c->icache, k->icache_bytes, k->line_bytes, k->icache_assoc)) return -1;
    for (unsigned i = 0; i < c->nwarps; i++) c->w[i].slot = i;
    c->next_wb = UINT64_MAX;
    return 0;
}

void simt_core_free(simt_core *c) {
    simt_edge_free(c);
    free(c->w); free(c->blk); free(c->shmem); free(c->local); free(c->order); free(c->mshr);
    free(c->l1.tag); free(c->l1.lru); free(c->icache.tag); free(c->icache.lru);
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

/* A fresh warp (index wib of its block) of launch li in slot w: registers
 * zero but ra = exit, sp = top of its local memory, a0 = parameters. */
void simt_warp_start(gpu_t *g, simt_warp *w, unsigned li, unsigned block, unsigned wib) {
    const simt_launch *L = &g->lq[li];
    unsigned slot = w->slot;
    memset(w, 0, offsetof(simt_warp, r));
    memset(w->r, 0, sizeof w->r);
    w->slot = slot;
    w->local_idx = slot;
    w->state = WS_RUN;
    w->block = block;
    w->wib = wib;
    w->launch = li;
    w->priority = L->d.priority;
    w->age = g->warp_seq++;
    unsigned n = L->threads - wib * SIMT_LANES;
    w->live = n >= SIMT_LANES ? FULL : (1u << n) - 1;
    w->active = w->live;
    w->pc = (uint32_t)L->d.kernel_ptr;
    for (unsigned l = 0; l < SIMT_LANES; l++) {
        w->r[1][l] = FG_EXIT_ADDR;
        w->r[2][l] = FG_LOCAL_TOP;
        w->r[10][l] = (uint32_t)L->d.param_addr;
    }
}

bool simt_core_try_block(gpu_t *g, simt_core *c, unsigned li, uint32_t bi) {
    const gpu_config *k = &g->cfg;
    const simt_launch *L = &g->lq[li];
    if (c->used_blocks + 1 > k->max_blocks_per_core) return false;
    if (c->edge && simt_edge_blocks_held(c)) return false;
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
    b->launch = li;
    uint32_t gx = L->d.grid[0], gy = L->d.grid[1];
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
        simt_warp_start(g, &c->w[ws], li, bs, i);
        b->warp_slot[i] = (uint16_t)ws;
        c->alloc_mask |= 1ull << ws;
    }
    c->alloc_regs = L->regs_pt;
    simt_core_sort(c);
    return true;
}

static void block_finish(gpu_t *g, simt_core *c, unsigned bs) {
    simt_block *b = &c->blk[bs];
    unsigned li = b->launch;
    c->used_blocks--;
    c->used_threads -= b->nwarps * SIMT_LANES;
    c->used_warps -= b->nwarps;
    c->used_regs -= b->regs;
    c->used_shmem -= b->shmem_size;
    b->valid = false;
    gpu_block_done(g, li);
}

void simt_forget_last_issued(simt_core *c, unsigned slot) {
    for (unsigned s = 0; s < SIMT_MAX_UNITS; s++)
        if (c->last_issued[s] == (int)slot) c->last_issued[s] = -1;
}

static void warp_finish(gpu_t *g, simt_core *c, simt_warp *w) {
    w->state = WS_FREE;
    simt_forget_last_issued(c, w->slot);
    if (w->event) { simt_edge_warp_exit(g, c, w); return; }
    simt_block *b = &c->blk[w->block];
    simt_core_sort(c);
    if (++b->warps_done == b->nwarps) block_finish(g, c, w->block);
}

/* ------------------------------------------------- divergence control */

/* Recomputes the issuing group: lanes at FG_EXIT_ADDR exit; among the
 * schedulable lanes (live, not at the barrier) the smallest PC wins. */
void simt_reconverge(gpu_t *g, simt_core *c, simt_warp *w) {
    uint32_t sched = w->live & ~w->bar_wait, exited = 0;
    for (uint32_t mm = sched; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        if (w->lane_pc[l] == FG_EXIT_ADDR) exited |= 1u << l;
    }
    if (exited) {
        w->live &= ~exited;
        sched &= ~exited;
        if (!w->event) {
            simt_block *b = &c->blk[w->block];
            b->live_threads -= popc(exited);
            simt_barrier_check(g, c, b); /* may call reconverge on this warp again */
        } else if (w->bar_wait && !(w->live & ~w->bar_wait)) {
            w->bar_wait = 0; /* warp-local barrier of an event warp */
        }
        sched = w->live & ~w->bar_wait;
    }
    uint32_t minpc = UINT32_MAX, act = 0;
    for (uint32_t mm = sched; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        uint32_t p = w->lane_pc[l];
        if (p < minpc) { minpc = p; act = 1u << l; }
        else if (p == minpc) act |= 1u << l;
    }
    if (act && (act != w->active || minpc != w->pc)) w->ibuf_n = 0;
    w->active = act;
    if (act) w->pc = minpc;
}

void simt_barrier_check(gpu_t *g, simt_core *c, simt_block *b) {
    if (b->bar_arrived == 0 || b->bar_arrived < b->live_threads) return;
    b->bar_arrived = 0;
    for (unsigned i = 0; i < b->nwarps; i++) {
        simt_warp *x = &c->w[b->warp_slot[i]];
        if (x->state == WS_RUN && !x->event && x->bar_wait) { /* (an event warp may sit in a victim's slot) */
            x->bar_wait = 0;
            simt_reconverge(g, c, x);
        }
    }
}

/* Moves the issuing group (mask m) to npc and re-forms the group. */
static void advance(gpu_t *g, simt_core *c, simt_warp *w, uint32_t m, uint32_t npc) {
    uint32_t oldpc = w->pc;
    if (((w->live & ~w->bar_wait) & ~m) == 0 && npc != FG_EXIT_ADDR) {
        w->pc = npc;
        if (npc == oldpc + 4 && w->ibuf_n) w->ibuf_n--;
        else w->ibuf_n = 0;
        return;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) w->lane_pc[__builtin_ctz(mm)] = npc;
    uint32_t oldact = w->active;
    w->pc = npc; /* placeholder so the ibuf logic below sees a change */
    simt_reconverge(g, c, w);
    if (w->pc == oldpc + 4 && w->active == oldact && w->ibuf_n) w->ibuf_n--;
    else w->ibuf_n = 0;
}

/* ------------------------------------------------------------ memory */

enum { RG_BAD = 0, RG_GLOBAL, RG_SHARED, RG_LOCAL };

static inline uint8_t *translate(gpu_t *g, simt_core *c, simt_warp *w, unsigned lane, uint32_t a,
                                 unsigned size, int *rg) {
    if (a >= FG_GUARD_END && (uint64_t)a + size <= g->mem_size) { *rg = RG_GLOBAL; return g->mem + a; }
    if (a >= FG_SHARED_BASE && a < FG_LOCAL_TOP - g->cfg.stack_bytes) {
        const simt_block *b = &c->blk[w->block];
        uint32_t off = a - FG_SHARED_BASE;
        if ((uint64_t)off + size <= b->shmem_size) { *rg = RG_SHARED; return c->shmem + b->shmem_off + off; }
        *rg = RG_BAD;
        return NULL;
    }
    uint32_t lb = FG_LOCAL_TOP - g->cfg.stack_bytes;
    if (a >= lb && (uint64_t)a + size <= FG_LOCAL_TOP) {
        *rg = RG_LOCAL;
        return c->local + ((size_t)w->local_idx * SIMT_LANES + lane) * g->cfg.stack_bytes + (a - lb);
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
void simt_drop_loads(gpu_t *g, simt_core *c, simt_warp *w) {
    const uint64_t now = g->cycle;
    for (uint32_t mm = w->active; mm; mm &= mm - 1) w->lane_pc[__builtin_ctz(mm)] = w->pc;
    while (w->n_ld) {
        simt_load *ld = NULL; /* youngest first, so the oldest load's PC wins */
        for (unsigned i = 0; i < SIMT_MAX_LD; i++)
            if (w->ld[i].valid && (!ld || w->ld[i].seq > ld->seq)) ld = &w->ld[i];
        for (uint32_t mm = ld->mask; mm; mm &= mm - 1) w->lane_pc[__builtin_ctz(mm)] = ld->pc;
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
    simt_reconverge(g, c, w);
}

/* Issues a memory instruction.  0 = issued, 1 = structural stall (no side
 * effects), -1 = fault. */
static int exec_mem(gpu_t *g, simt_core *c, simt_warp *w, const rv_inst *in, uint32_t m) {
    const gpu_config *k = &g->cfg;
    const uint64_t now = g->cycle;
    const bool is_ld = in->flags & RVF_LOAD;
    const bool is_amo = in->flags & RVF_AMO;
    uint8_t *hp[SIMT_LANES];
    uint32_t addr[SIMT_LANES];
    uint32_t lines[SIMT_LANES];
    unsigned nl = 0, nglob = 0, nshared = 0, nlocal = 0;
    const uint32_t *base = w->r[in->rs1];
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
            gpu_fault(g, "misaligned atomic %s at 0x%08x (pc 0x%08x, core %u warp %u lane %u)",
                      rv_op_name(in->op), a, w->pc, c->id, w->slot, l);
            return -1;
        }
        hp[l] = translate(g, c, w, l, a, in->size, &rg);
        if (!hp[l]) {
            gpu_fault(g, "bad address 0x%08x: %s of %u bytes at pc 0x%08x (core %u warp %u lane %u)", a,
                      rv_op_name(in->op), in->size, w->pc, c->id, w->slot, l);
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
        ld->valid = true; ld->rd = in->rd; ld->pc = w->pc; ld->mask = m; ld->mshr = -1;
        ld->replay = !is_amo;
        ld->seq = w->instrs;
        w->n_ld++;
    }
    const uint32_t *src = w->r[in->rs2];
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

static bool can_issue(gpu_t *g, simt_core *c, simt_warp *w, const rv_inst **pin, int *unit) {
    const uint64_t now = g->cycle;
    if (w->state != WS_RUN || !w->active || !w->ibuf_n) return false;
    const rv_inst *in = gpu_decode(g, w->pc);
    if (!in) return false; /* fault raised */
    uint64_t regs = in->src_mask | in->dst_mask;
    while (regs) {
        unsigned r = (unsigned)__builtin_ctzll(regs);
        if (w->sb_ready[r] > now) return false;
        regs &= regs - 1;
    }
    if (!unit_free(&g->cfg, c, in->cls, now, unit)) return false;
    *pin = in;
    return true;
}

static void issue(gpu_t *g, simt_core *c, simt_warp *w, const rv_inst *in, int unit) {
    const gpu_config *k = &g->cfg;
    const uint64_t now = g->cycle;
    uint32_t m = w->active, npc = w->pc + 4;
    if (in->cls == CL_LDST) {
        int r = exec_mem(g, c, w, in, m);
        if (r) return; /* stall (retry later) or fault */
        advance(g, c, w, m, npc);
    } else {
        int r = rv_exec(g, c, w, in, m, &npc);
        c->busy[in->cls][unit] = now + k->ii[in->cls];
        if (in->rd != RV_SINK) w->sb_ready[in->rd] = now + k->lat[in->cls];
        switch (r) {
        case EX_FAULT: return;
        case EX_NEXT: case EX_JUMP: advance(g, c, w, m, npc); break;
        case EX_SPLIT: w->ibuf_n = 0; simt_reconverge(g, c, w); break;
        case EX_EXIT: advance(g, c, w, m, FG_EXIT_ADDR); break;
        case EX_BARRIER: {
            for (uint32_t mm = m; mm; mm &= mm - 1) w->lane_pc[__builtin_ctz(mm)] = w->pc + 4;
            w->bar_wait |= m;
            w->ibuf_n = 0;
            if (w->event) { /* one warp, no TB: the barrier is warp-local */
                if (!(w->live & ~w->bar_wait)) w->bar_wait = 0;
                simt_reconverge(g, c, w);
                break;
            }
            simt_block *b = &c->blk[w->block];
            b->bar_arrived += popc(m);
            simt_reconverge(g, c, w);
            simt_barrier_check(g, c, b);
            break;
        }
        }
    }
    w->instrs++;
    g->warp_instrs++;
    g->thread_instrs += popc(m);
    if (!g->lq[w->launch].first_done) gpu_first_instr(g, w->launch);
    if (!w->live && w->state == WS_RUN) {
        w->state = WS_DRAIN;
        if (w->n_ld == 0) warp_finish(g, c, w);
    }
}

/* --------------------------------------------------------------- tick */

static void writeback(gpu_t *g, simt_core *c) {
    const uint64_t now = g->cycle;
    uint64_t next = UINT64_MAX;
    for (unsigned i = 0; i < c->nwarps; i++) {
        simt_warp *w = &c->w[i];
        if (!w->n_ld) continue;
        for (unsigned j = 0; j < SIMT_MAX_LD; j++) {
            simt_load *ld = &w->ld[j];
            if (!ld->valid) continue;
            if (ld->done <= now) {
                uint32_t *d = w->r[ld->rd];
                for (uint32_t mm = ld->mask; mm; mm &= mm - 1) {
                    unsigned l = (unsigned)__builtin_ctz(mm);
                    d[l] = ld->val[l];
                }
                ld->valid = false;
                w->n_ld--;
            } else if (ld->done < next) next = ld->done;
        }
        if (w->state == WS_DRAIN && w->n_ld == 0) warp_finish(g, c, w);
    }
    c->next_wb = next;
}

static void core_cycle(gpu_t *g, simt_core *c);

void simt_core_tick(gpu_t *g, simt_core *c) {
    if (c->edge) simt_edge_begin(g, c);
    core_cycle(g, c);
    if (c->edge) simt_edge_end(g, c);
    c->alloc_mask = 0;
}

static void core_cycle(gpu_t *g, simt_core *c) {
    const gpu_config *k = &g->cfg;
    const uint64_t now = g->cycle;
    if (c->next_wb <= now) writeback(g, c);
    if (!c->n_order) return;
    /* issue: one instruction per scheduler per cycle (GTO) */
    for (unsigned s = 0; s < k->schedulers_per_core && !g->failed; s++) {
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
            if (can_issue(g, c, w, &in, &unit)) { best = w; bin = in; bunit = unit; break; }
        }
        /* greedy: stay on the last-issued warp unless a higher-priority warp is ready */
        int li = c->last_issued[s];
        if (li >= 0 && (!best || (int)best->slot != li)) {
            simt_warp *w = &c->w[li];
            bool in_lim = false;
            for (unsigned i = 0; i < lim; i++) in_lim |= c->order[i] == li;
            const rv_inst *in;
            int unit;
            if (in_lim && (!best || w->priority >= best->priority) && can_issue(g, c, w, &in, &unit)) {
                best = w; bin = in; bunit = unit;
            }
        }
        if (!best) continue;
        c->last_issued[s] = (int)best->slot;
        issue(g, c, best, bin, bunit);
    }
    /* fetch: one warp per cycle, round robin, fills its i-buffer from one i-cache line */
    for (unsigned i = 0; i < c->nwarps; i++) {
        unsigned slot = (c->fetch_rr + i) % c->nwarps;
        simt_warp *w = &c->w[slot];
        if (w->state != WS_RUN || !w->active || w->ibuf_n >= k->ibuf_depth || w->fetch_ready > now ||
            w->stop_fetch)
            continue;
        uint32_t a = w->pc + 4 * w->ibuf_n;
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

void gpu_fault(gpu_t *g, const char *fmt, ...) {
    if (g->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    g->failed = true;
}
