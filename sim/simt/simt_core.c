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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt_core_state.h"

#define FULL 0xffffffffu

static unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

int simt_core_init(simt_core *c, unsigned id, const gpu_config *k, uint8_t *gmem, uint64_t gmem_size,
                   simt_dcache *dc, mem_system *ms, unsigned port, const simt_core_cbs *cb) {
    memset(c, 0, sizeof *c);
    c->id = id;
    c->k = k;
    c->gmem = gmem;
    c->gmem_size = gmem_size;
    c->dc = dc;
    c->ms = ms;
    c->port = port;
    c->cb = *cb;
    c->watch_pc = UINT32_MAX; /* no pc watched (simt_core_set_watch) */
    c->ev_block = k->max_blocks_per_core;
    c->nwarps = k->max_threads_per_core / SIMT_LANES;
    c->w = calloc(c->nwarps, sizeof *c->w);
    c->blk = calloc(k->max_blocks_per_core + 1, sizeof *c->blk);
    c->shmem = calloc(k->shmem_per_core ? k->shmem_per_core : 1, 1);
    /* local memory: one region per warp slot, + one per PEWT entry (event warps) */
    c->local = calloc((size_t)(c->nwarps + k->pre.pewt_entries) * SIMT_LANES, k->stack_bytes);
    c->order = calloc(c->nwarps, sizeof *c->order);
    c->order_pos = malloc(c->nwarps * sizeof *c->order_pos);
    c->sched_of = malloc(c->nwarps ? c->nwarps : 1);
    c->gate = calloc(c->nwarps ? c->nwarps : 1, sizeof *c->gate);
    c->gcls = malloc(c->nwarps ? c->nwarps : 1);
    c->sorder = calloc((size_t)(c->nwarps ? c->nwarps : 1) * k->schedulers_per_core, sizeof *c->sorder);
    c->spos = malloc((c->nwarps ? c->nwarps : 1) * sizeof *c->spos);
    c->fetch_mask = calloc((c->nwarps + 63) / 64 + 1, sizeof *c->fetch_mask);
    c->lim_ok = calloc(c->nwarps ? c->nwarps : 1, 1);
    const char *cv = getenv("FG_CHECK_VIEW");
    c->check_view = cv && *cv && strcmp(cv, "0");
    for (unsigned i = 0; c->sched_of && i < c->nwarps; i++) c->sched_of[i] = (uint8_t)(i % k->schedulers_per_core);
    c->active_limit = c->pause_lim = c->nwarps;
    for (unsigned i = 0; i < SIMT_MAX_UNITS; i++) c->last_issued[i] = -1;
    if (!c->w || !c->blk || !c->shmem || !c->local || !c->order || !c->order_pos || !c->sched_of || !c->gate ||
        !c->gcls || !c->sorder || !c->spos || !c->fetch_mask || !c->lim_ok)
        return -1;
    for (unsigned i = 0; i < c->nwarps; i++) c->spos[i] = UINT16_MAX;
    memset(c->gcls, SIMT_CLS_UNKNOWN, c->nwarps);
    for (unsigned i = 0; i < c->nwarps; i++) c->order_pos[i] = UINT16_MAX;
    if (k->pre.warp_events) {
        c->park = calloc(c->nwarps, sizeof *c->park);
        c->sev = calloc(c->nwarps, sizeof *c->sev);
        if (!c->park || !c->sev) return -1;
    }
    for (unsigned i = 0; i < c->nwarps; i++) c->w[i].slot = i;
    if (simt_lsu_init(c)) return -1;
    c->next_wb = UINT64_MAX;
    return 0;
}

void simt_core_free(simt_core *c) {
    simt_lsu_free(c);
    for (unsigned i = 0; c->w && i < c->nwarps; i++) free(c->w[i].x.prov);
    free(c->w); free(c->blk); free(c->shmem); free(c->local); free(c->order); free(c->order_pos);
    free(c->sched_of); free(c->gate); free(c->gcls); free(c->sorder); free(c->spos); free(c->fetch_mask); free(c->lim_ok);
    free(c->wbq.e); free(c->wake.e);
    free(c->park); free(c->sev);
    free(c->dq); free(c->dm); free(c->evf_msg);
}

void simt_core_set_hooks(simt_core *c, const simt_core_hooks *h, void *ext) {
    c->hooks = h;
    c->ext = ext;
}

/* Whether pc cannot be fetched (not 4-byte aligned, in the null guard,
 * beyond global memory; docs/SIMT.md's memory map), or holds no code: every
 * launch starts inside a loaded kernel image (gpu_launch), so a pc outside
 * all of them (a buffer, the heap) is a wild jump.  Why in buf. */
bool simt_fetch_bad(const simt_dcache *d, uint32_t pc, char *buf, size_t len) {
    bool in_img = !d->n_img || !*d->n_img;
    for (unsigned i = 0; !in_img && i < *d->n_img; i++) in_img = pc >= (*d->img)[i].base && pc < (*d->img)[i].end;
    if (pc & 3) snprintf(buf, len, "not 4-byte aligned");
    else if (pc < FG_GUARD_END) snprintf(buf, len, "in the null guard below 0x%08x", FG_GUARD_END);
    else if ((uint64_t)pc + 4 > d->mem_size)
        snprintf(buf, len, "beyond the %llu-byte global memory", (unsigned long long)d->mem_size);
    else if (!in_img) snprintf(buf, len, "outside every loaded kernel image");
    else return false;
    return true;
}

/* A jalr (the only jump whose target is a register: a function pointer, a
 * return address) to where no instruction can be fetched faults at the jump,
 * which names the instruction and threads that jumped; the fetch alone would
 * know only the target.  FG_EXIT_ADDR ends the thread.  true: faulted. */
static bool wild_jump(simt_core *c, const simt_warp *w, uint32_t m, int r, uint32_t npc) {
    uint32_t bad = 0, t0 = 0;
    char why[64] = "";
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        const unsigned l = (unsigned)__builtin_ctz(mm);
        const uint32_t t = r == EX_JUMP ? npc : w->x.lane_pc[l];
        if (t == FG_EXIT_ADDR || (bad && t != t0) || !simt_fetch_bad(c->dc, t, bad ? NULL : why, bad ? 0 : sizeof why))
            continue;
        if (!bad) t0 = t;
        bad |= 1u << l;
    }
    if (!bad) return false;
    const unsigned first = (unsigned)__builtin_ctz(bad), last = 31u - (unsigned)__builtin_clz(bad);
    char who[96], lanes[48];
    simt_thread_name(c, w, first, who, sizeof who);
    if (first == last) snprintf(lanes, sizeof lanes, "lane %u", first);
    else if (bad == (uint32_t)(((2ull << last) - 1) & ~((1ull << first) - 1)))
        snprintf(lanes, sizeof lanes, "lanes %u-%u, first lane %u", first, last, first);
    else snprintf(lanes, sizeof lanes, "%u lanes, first lane %u", (unsigned)__builtin_popcount(bad), first);
    simt_core_fault(c, "instruction fetch from bad address 0x%08x (%s): jalr at pc 0x%08x jumped there (core %u warp %u "
                       "%s = %s)", t0, why, w->x.pc, c->id, w->slot, lanes, who);
    return true;
}

/* The decoded instruction at pc (cached), or NULL with err on a bad fetch or
 * an illegal instruction. */
static const rv_inst *simt_decode(simt_dcache *d, uint32_t pc, char *err, size_t errlen) {
    const rv_inst *hit = simt_decode_hit(d, pc);
    if (hit) return hit;
    simt_dcache_ent *e = &d->e[(pc >> 2) & d->mask];
    char why[64];
    if (simt_fetch_bad(d, pc, why, sizeof why)) {
        snprintf(err, errlen, "instruction fetch from bad address 0x%08x (%s)", pc, why);
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
    uint8_t (*prov)[RV_LANES] = w->x.prov; /* the slot's, kept */
    memset(w, 0, sizeof *w);
    w->x.prov = prov;
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
    if (w->x.prov) memset(w->x.prov, 0, sizeof(uint8_t[RV_NREGS + 1][RV_LANES]));
    for (unsigned l = 0; l < SIMT_LANES; l++) {
        w->x.r[1][l] = FG_EXIT_ADDR;
        w->x.r[2][l] = FG_LOCAL_TOP;
        w->x.r[10][l] = (uint32_t)k->param_addr;
    }
    simt_warp_touch(c, w);
}

bool simt_core_try_block(simt_core *c, const simt_grid *L, uint32_t bi) {
    const gpu_config *k = c->k;
    /* one new block per core per cycle (the block scheduler, gpu.c, never
     * offers a second): the preemption controller learns a cycle's new warps
     * with one register count (w_alloc_regs_i, sim/twin/edge_preempt.h) */
    if (c->alloc_mask) return false;
    if (c->used_blocks + 1 > k->max_blocks_per_core) return false;
    if (c->block_limit && c->used_blocks >= c->block_limit) return false; /* DYNCTA */
    if (c->hooks && c->hooks->blocks_held(c->ext)) return false;
    if (c->used_threads + L->nwarps * SIMT_LANES > k->max_threads_per_core) return false;
    if (c->used_warps + L->nwarps > c->nwarps) return false;
    /* background blocks leave the events' reserve (EDGE VI-C) */
    if (c->used_regs + L->regs > k->regs_per_core - (L->priority ? 0 : k->pre.event_reg_reserve)) return false;
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
    b->uid = ++c->blk_uid;
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

void simt_core_park(simt_core *c, unsigned slot, unsigned regs_pt, uint64_t ev_mask, bool saved) {
    simt_warp *p = &c->park[slot];
    *p = c->w[slot];
    c->sev[slot] = (simt_slot_ev){.parked = true, .saved = saved, .ev_regs = regs_pt, .ev_mask = ev_mask};
    if (saved) {
        /* the registers the event kernel uses go to the preallocated region:
         * exact values now, posted writes for the bandwidth */
        for (unsigned r = 0; r < RV_NREGS; r++)
            if (ev_mask >> r & 1) {
                memcpy(c->gmem + simt_save_addr(c, slot, r), p->x.r[r], SIMT_LANES * 4);
                memset(p->x.r[r], 0, SIMT_LANES * 4); /* overwritten by the event warp */
            }
        simt_lsu_save(c, slot, p->age, ev_mask);
    } else {
        c->used_regs += regs_pt * SIMT_LANES; /* EDGE IV-D: free registers reserved */
    }
}

void simt_core_park_idle(simt_core *c, unsigned slot, bool saved) {
    simt_core_park(c, slot, 0, 0, saved);
    simt_warp *w = &c->w[slot];
    w->state = WS_PARKED;
    simt_forget_last_issued(c, slot);
    simt_warp_touch(c, w);
    simt_core_sort(c);
}

void simt_core_resume(simt_core *c, unsigned slot) {
    simt_slot_ev *se = &c->sev[slot];
    simt_warp *w = &c->w[slot];
    *w = c->park[slot];
    se->parked = false;
    if (se->saved) { /* values now; the victim waits for the restore reads (n_restore) */
        for (unsigned r = 0; r < RV_NREGS; r++)
            if (se->ev_mask >> r & 1) memcpy(w->x.r[r], c->gmem + simt_save_addr(c, slot, r), SIMT_LANES * 4);
        simt_lsu_restore(c, w, se->ev_mask);
    } else {
        c->used_regs -= se->ev_regs * SIMT_LANES;
    }
    w->ibuf_n = 0;
    w->imiss = 0;
    simt_warp_touch(c, w);
}

void simt_core_start_event(simt_core *c, unsigned slot, const simt_grid *k, unsigned local_idx, unsigned priority) {
    simt_warp *w = &c->w[slot];
    simt_forget_last_issued(c, slot);
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
    simt_warp_touch(c, w);
}

/* the watched moments (gpu_set_watch), called up at the commit */
static void call_watch_barrier(void *user, uint64_t a, const void *p) {
    (void)a; (void)p;
    simt_core *c = user;
    c->watch.barrier(c->watch.user, c->id, c->now);
}

static void call_watch_pc(void *user, uint64_t a, const void *p) {
    (void)a; (void)p;
    simt_core *c = user;
    c->watch.pc(c->watch.user, c->id, c->now);
}

void simt_barrier_check(simt_core *c, simt_block *b) {
    if (b->bar_arrived == 0 || b->bar_arrived < b->live_threads) return;
    b->bar_arrived = 0;
    b->bar_gen++;
    if (c->watch.barrier) simt_core_up(c, call_watch_barrier, 0);
    for (unsigned i = 0; i < b->nwarps; i++) {
        /* the slot may hold another warp by now: an event warp in a victim's
         * slot, or, once this block's warp there exited early, a warp of a
         * block placed later (it must not leave its own barrier) */
        simt_warp *x = &c->w[b->warp_slot[i]];
        if (x->state == WS_RUN && !x->event && &c->blk[x->block] == b && x->bar_wait) {
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
        simt_warp_touch(c, w);
        return;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = npc;
    uint32_t oldact = w->active;
    w->x.pc = npc; /* placeholder so the ibuf logic below sees a change */
    reconverge(c, w);
    if (w->x.pc == oldpc + 4 && w->active == oldact && w->ibuf_n) w->ibuf_n--;
    else w->ibuf_n = 0;
    simt_warp_touch(c, w);
}

/* ------------------------------------------------------------ loads */

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

/* The loads the artifact's rule ([preempt] drop_rule = pipe) drops: plain
 * loads in flight (no LR/SC/AMO, no F/E-tracked load) and no other
 * register write pending. */
static bool loads_plain(const simt_warp *w, bool pipe) {
    if (!w->n_ld || pipe) return false;
    for (unsigned i = 0; i < SIMT_MAX_LD; i++)
        if (w->ld[i].valid && !w->ld[i].replay) return false;
    return true;
}

/* A register write other than an in-flight load's is pending (a unit's
 * result on its way to the register file). */
static bool pipe_pending(const simt_core *c, const simt_warp *v) {
    uint64_t ldregs = 0;
    for (unsigned j = 0; j < SIMT_MAX_LD; j++)
        if (v->ld[j].valid && v->ld[j].rd != RV_SINK) ldregs |= 1ull << v->ld[j].rd;
    for (unsigned r = 0; r < RV_NREGS; r++)
        if (v->sb_ready[r] > c->now && !(ldregs >> r & 1)) return true;
    return false;
}

static bool droppable(const simt_core *c, const simt_warp *w) {
    if (simt_loads_droppable(w)) return true;
    return c->k->pre.drop_rule == GPU_DROP_PIPE && loads_plain(w, pipe_pending(c, w));
}

/* The artifact's drop of loads that younger completed instructions follow:
 * each load's value (read at issue) written now, its reservation released,
 * the PC left where it is; lines the LSU had not sent yet are not sent. */
static void complete_loads(simt_core *c, simt_warp *w) {
    for (unsigned i = 0; i < SIMT_MAX_LD; i++) {
        simt_load *ld = &w->ld[i];
        if (!ld->valid) continue;
        uint32_t *d = w->x.r[ld->rd];
        for (uint32_t mm = ld->mask; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            d[l] = ld->val[l];
        }
        if (ld->rd != RV_SINK) simt_sb_set(c, w, ld->rd, c->now);
        ld->valid = false;
        w->ld_mask &= ~(1u << i);
        w->n_ld--;
    }
    if (c->lsu.busy && c->lsu.slot == w->slot && c->lsu.kind == LSU_LOAD) c->lsu.busy = false;
}

/* Drops them: scoreboard reservations released, each lane's PC rolled back
 * to the oldest dropped load it took part in.  Their requests already in the
 * memory system cannot be recalled: the MSHRs stay until the responses
 * arrive (the line is installed then), which no longer find these loads;
 * lines the LSU had not sent yet are not sent. */
void simt_drop_loads(simt_core *c, simt_warp *w) {
    const uint64_t now = c->now;
    for (uint32_t mm = w->active; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = w->x.pc;
    while (w->n_ld) {
        simt_load *ld = NULL; /* youngest first, so the oldest load's PC wins */
        for (unsigned i = 0; i < SIMT_MAX_LD; i++)
            if (w->ld[i].valid && (!ld || w->ld[i].seq > ld->seq)) ld = &w->ld[i];
        for (uint32_t mm = ld->mask; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = ld->pc;
        if (ld->rd != RV_SINK) simt_sb_set(c, w, ld->rd, now);
        ld->valid = false;
        w->ld_mask &= ~(1u << (ld - w->ld));
        w->n_ld--;
    }
    if (c->lsu.busy && c->lsu.slot == w->slot && c->lsu.kind == LSU_LOAD) c->lsu.busy = false;
    w->ibuf_n = 0;
    w->active = 0;
    reconverge(c, w);
}

/* -------------------------------------------------------------- issue */

static inline bool unit_free(const gpu_config *k, simt_core *c, unsigned cls, uint64_t now, int *u) {
    unsigned n = k->units[cls];
    for (unsigned i = 0; i < n; i++)
        if (c->busy[cls][i] <= now) { *u = (int)i; return true; }
    return false;
}

/* [gpu] atomics = memory: the block barrier waits for the warp's atomics,
 * which take effect at the L2, so that the block's loads after it (at issue)
 * see them, as they see its stores. */
static bool amo_barrier_wait(const simt_warp *w, const rv_inst *in) {
    return w->n_amo && (in->flags & RVF_CSR) && in->csr == FG_CSR_BARRIER;
}

/* The decoded instruction at pc, or NULL after the core faulted (the decode
 * cache's miss path, out of the schedulers' scan: no error buffer there). */
static __attribute__((noinline)) const rv_inst *decode_miss(simt_core *c, uint32_t pc) {
    char err[128];
    const rv_inst *in = simt_decode(c->dc, pc, err, sizeof err);
    if (!in) simt_core_fault(c, "%s", err);
    return in;
}

static inline const rv_inst *decode(simt_core *c, uint32_t pc) {
    const rv_inst *in = simt_decode_hit(c->dc, pc);
    return in ? in : decode_miss(c, pc);
}

/* The warp in slot passes can_issue's checks of its own state from cycle g
 * on (UINT64_MAX: not until it changes): out of its scheduler's scan until
 * then. */
static void gate_set(simt_core *c, unsigned slot, uint64_t g) {
    c->gate[slot] = g;
    if (g <= c->now + SIMT_GATE_NEAR) { /* the scan's check of the gate is cheaper than a wake so soon */
        simt_view_ready(c, slot);
        return;
    }
    const unsigned i = c->spos[slot];
    if (i != UINT16_MAX) c->rdy[c->sched_of[slot]][i >> 6] &= ~(1ull << (i & 63));
    if (g != UINT64_MAX) simt_heap_push(&c->wake, (simt_timed){.when = g, .slot = (uint16_t)slot});
}

/* The unit class of the warp's next instruction, known. */
static void gcls_set(simt_core *c, unsigned slot, unsigned cls) {
    const unsigned i = c->spos[slot];
    c->gcls[slot] = (uint8_t)cls;
    if (i == UINT16_MAX) return;
    if (cls == CL_LDST) c->ldst[c->sched_of[slot]][i >> 6] |= 1ull << (i & 63);
    else c->ldst[c->sched_of[slot]][i >> 6] &= ~(1ull << (i & 63));
}

/* The compact view's part of can_issue, without reading the warp: false when
 * the warp cannot issue this cycle (with can_issue's pipe_full). */
static inline bool view_may_issue(simt_core *c, unsigned slot, uint64_t now) {
    if (c->gate[slot] > now) return false;
    const unsigned cls = c->gcls[slot];
    int unit;
    if (cls != SIMT_CLS_UNKNOWN && (!unit_free(c->k, c, cls, now, &unit) || (cls == CL_LDST && c->lsu.busy))) {
        c->pipe_full = true;
        return false;
    }
    return true;
}

/* within the first lim warps of the GTO order, or exempt from the limit
 * (only looked at when ev_late says an exempt warp is beyond lim) */
static inline bool within_limit(const simt_core *c, unsigned slot, unsigned lim, bool ev_late) {
    return c->order_pos[slot] < lim || (ev_late && simt_limit_exempt(&c->w[slot]));
}

/* Nothing to issue now whatever the scoreboard: not running, no lanes, an
 * empty i-buffer, or register restores in flight (EDGE IV-D). */
static inline bool warp_blocked(const simt_warp *w) {
    return w->state != WS_RUN || !w->active || !w->ibuf_n || w->n_restore;
}

/* The cycle from which every operand of in (sources and destination) is
 * free in w's scoreboard. */
static inline uint64_t operands_ready(const simt_warp *w, const rv_inst *in) {
    uint64_t until = 0;
    for (uint64_t regs = in->src_mask | in->dst_mask; regs; regs &= regs - 1) {
        const uint64_t t = w->sb_ready[__builtin_ctzll(regs)];
        if (t > until) until = t;
    }
    return until;
}

static bool can_issue(simt_core *c, simt_warp *w, const rv_inst **pin, int *unit) {
    const uint64_t now = c->now;
    if (warp_blocked(w)) {
        gate_set(c, w->slot, UINT64_MAX); /* until the warp changes (simt_warp_touch) */
        return false;
    }
    const rv_inst *in;
    if (w->sb_known && w->sb_pc == w->x.pc) { /* the scoreboard's answer for this instruction, remembered */
        gcls_set(c, w->slot, w->sb_cls);
        gate_set(c, w->slot, w->sb_until);
        if (w->sb_until > now) return false;
        if (!unit_free(c->k, c, w->sb_cls, now, unit) || (w->sb_cls == CL_LDST && c->lsu.busy)) {
            c->pipe_full = true; /* as below, without the decode */
            return false;
        }
        if (!(in = decode(c, w->x.pc))) return false;
    } else {
        if (!(in = decode(c, w->x.pc))) return false; /* fault */
        const uint64_t until = operands_ready(w, in);
        /* its last operand is ready at `until` (or at a load's writeback):
         * no scoreboard check again until then or a scoreboard write */
        w->sb_known = true;
        w->sb_pc = w->x.pc;
        w->sb_until = until;
        w->sb_cls = (uint8_t)in->cls;
        gcls_set(c, w->slot, in->cls);
        gate_set(c, w->slot, until);
        if (until > now) return false;
        /* past the scoreboard: a refusal from here on is a full next stage (CM Fig. 11 item 7) */
        if (!unit_free(c->k, c, in->cls, now, unit) || (in->cls == CL_LDST && c->lsu.busy)) { /* one memory instruction in the LSU */
            c->pipe_full = true;
            return false;
        }
    }
    if (in->op == OP_FENCE && w->n_st) { /* FENCE waits until the warp's stores are acknowledged */
        if (!w->fence_since) w->fence_since = now + 1;
        return false;
    }
    if (amo_barrier_wait(w, in)) return false;
    if (c->end_drain && simt_lsu_end_drain_refuses(c, w, in, w->active)) {
        /* the LDST unit holds it (the artifact's memory stage stalls): the
         * scheduler goes on to another warp */
        c->drain_refused = true;
        c->pipe_full = true;
        return false;
    }
    *pin = in;
    return true;
}

static bool warp_at_fence(simt_core *c, const simt_warp *w) {
    if (w->state != WS_RUN || !w->n_st || !w->ibuf_n) return false;
    char err[128];
    const rv_inst *in = simt_decode(c->dc, w->x.pc, err, sizeof err);
    return in && in->op == OP_FENCE;
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

/* false: not issued (an LSU structural stall, which is a full next stage
 * for CM's stallGPU, or a fault) */
static bool issue(simt_core *c, simt_warp *w, const rv_inst *in, int unit) {
    const gpu_config *k = c->k;
    const uint64_t now = c->now;
    const uint32_t pc = w->x.pc;
    uint32_t m = w->active, npc = pc + 4;
    if (in->cls == CL_LDST) {
        int r = simt_lsu_issue(c, w, in, m);
        if (r) { /* stall (retry later) or fault */
            c->pipe_full = r > 0;
            return false;
        }
        advance(c, w, m, npc);
    } else {
        if (w->fence_since) { /* EDGE Fig. 11b "memory barrier": how long FENCEs waited */
            c->fences++;
            c->fence_cycles += now + 1 - w->fence_since;
            w->fence_since = 0;
        }
        rv_csr_ids ids;
        char err[128];
        if (in->flags & RVF_CSR) csr_ids(c, w, &ids);
        int r = rv_exec(&w->x, &ids, in, m, &npc, err, sizeof err);
        if (in->op == OP_JALR && wild_jump(c, w, m, r, npc)) return false;
        if (w->x.prov && r != EX_FAULT) rv_prov_exec(&w->x, in, m);
        c->busy[in->cls][unit] = now + k->ii[in->cls];
        if (in->rd != RV_SINK) simt_sb_set(c, w, in->rd, now + k->lat[in->cls]);
        switch (r) {
        case EX_FAULT:
            simt_core_fault(c, "%s (core %u warp %u)", err, c->id, w->slot);
            return false;
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
            if (!b->bar_arrived) b->bar_since = now;
            b->bar_arrived += popc(m);
            reconverge(c, w);
            simt_barrier_check(c, b);
            break;
        }
        }
    }
    w->instrs++;
    c->warp_instrs++;
    if (w->slot < 64) c->issued_warps |= 1ull << w->slot;
    c->thread_instrs += popc(m);
    if (!w->grid->first_done) simt_core_up(c, simt_call_first_instr, (uintptr_t)w->grid);
    if (__builtin_expect(pc == c->watch_pc, 0)) simt_core_up(c, call_watch_pc, 0);
    if (!w->live && w->state == WS_RUN) {
        w->state = WS_DRAIN;
        simt_warp_touch(c, w);
        simt_warp_check_done(c, w);
    }
    return true;
}

/* --------------------------------------------------------------- tick */

/* The loads due this cycle write their registers (each its own register: the
 * scoreboard keeps a second write of it from issuing), then their warps, in
 * slot order, may finish. */
static void writeback(simt_core *c) {
    const uint64_t now = c->now;
    uint64_t done_warps[(SIMT_MAX_WARPS + 63) / 64] = {0};
    while (c->wbq.n && c->wbq.e[0].when <= now) {
        const simt_timed e = simt_heap_pop(&c->wbq);
        simt_warp *w = &c->w[e.slot];
        simt_load *ld = &w->ld[e.ld];
        if (!ld->valid || ld->uid != e.uid) continue; /* dropped */
        uint32_t *d = w->x.r[ld->rd];
        if (ld->mask == FULL)
            memcpy(d, ld->val, sizeof ld->val);
        else
            for (uint32_t mm = ld->mask; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                d[l] = ld->val[l];
            }
        if (ld->rd != RV_SINK) simt_sb_set(c, w, ld->rd, now);
        if (ld->global) {
            c->loads++;
            c->load_cycles += now - ld->issued;
        }
        ld->valid = false;
        w->ld_mask &= ~(1u << e.ld);
        w->n_ld--;
        done_warps[e.slot / 64] |= 1ull << (e.slot % 64);
    }
    c->next_wb = c->wbq.n ? c->wbq.e[0].when : UINT64_MAX;
    for (unsigned wd = 0; wd < (c->nwarps + 63) / 64; wd++)
        for (uint64_t wm = done_warps[wd]; wm; wm &= wm - 1)
            simt_warp_check_done(c, &c->w[wd * 64 + (unsigned)__builtin_ctzll(wm)]);
}

static void core_cycle(simt_core *c);

/* The class of an event warp's cycle (gpu.h GPU_EVB_*), after the issue
 * stage; reads only (the scheduler's checks, without their side effects). */
static unsigned evb_class(const simt_core *c, const simt_warp *w) {
    const uint64_t now = c->now;
    if (w->issued_at == now + 1) return GPU_EVB_ISSUE;
    if (!w->active || w->n_restore) return GPU_EVB_OTHER;
    if (!w->ibuf_n) return GPU_EVB_FETCH;
    char err[128];
    const rv_inst *in = simt_decode(c->dc, w->x.pc, err, sizeof err);
    if (!in) return GPU_EVB_OTHER;
    bool wait = false, mem = false;
    for (uint64_t regs = in->src_mask | in->dst_mask; regs; regs &= regs - 1) {
        const unsigned r = (unsigned)__builtin_ctzll(regs);
        if (w->sb_ready[r] <= now) continue;
        wait = true;
        for (unsigned j = 0; j < SIMT_MAX_LD && !mem; j++) mem = w->ld[j].valid && w->ld[j].rd == r;
    }
    if (wait) return mem ? GPU_EVB_MEMORY : GPU_EVB_DEPEND;
    if ((in->op == OP_FENCE && w->n_st) || amo_barrier_wait(w, in)) return GPU_EVB_MEMORY;
    const unsigned s = c->sched_of[w->slot];
    return c->issue_stall >> s & 1 ? GPU_EVB_UNIT : GPU_EVB_SCHED;
}

/* Event warps lead the GTO order (their priority is above the background's 0). */
static void event_breakdown(simt_core *c) {
    for (unsigned i = 0; i < c->n_order; i++) {
        const simt_warp *w = &c->w[c->order[i]];
        if (!w->priority) break;
        if (w->event && w->state == WS_RUN) c->evb[evb_class(c, w)]++;
    }
}

void simt_core_begin(simt_core *c, uint64_t now) {
    c->now = now;
    c->ticking = true;
    if (c->hooks) c->hooks->begin(c->ext);
    simt_lsu_responses(c);
}

void simt_core_cycle(simt_core *c) {
    core_cycle(c);
    if (c->hooks) c->hooks->end(c->ext);
    c->alloc_mask = 0;
}

static void run_deferred(simt_core *c, unsigned from) {
    for (unsigned i = from; i < c->dq_n; i++) { /* (a call may defer another: a fault) */
        const simt_dcall *d = &c->dq[i];
        if (d->fn) d->fn(d->user, d->a, d->payload);
        else simt_lsu_dmem(c, &c->dm[d->mem]);
    }
}

void simt_core_commit(simt_core *c) {
    /* the responses read at the begin leave the port, their records freed,
     * in core order (the memory system's statistics and the reply network's
     * counts are shared) */
    for (unsigned i = 0; i < c->rsp_read; i++) mem_rsp_release(c->ms, mem_rsp_take(c->ms, c->port));
    c->rsp_read = 0;
    run_deferred(c, 0);
    const unsigned n = c->dq_n;
    if (!c->failed) simt_lsu_send(c);
    run_deferred(c, n); /* a refused request's fault */
    c->dq_n = c->dm_n = 0;
    c->ticking = false;
}

void simt_core_tick(simt_core *c, uint64_t now) {
    simt_core_begin(c, now);
    simt_core_cycle(c);
    simt_core_commit(c);
}

/* $FG_CHECK_VIEW: the compact view (simt_warp_touch) against the warps it
 * describes; a difference is a missed touch, a simulator bug. */
static void check_view(simt_core *c) {
    const uint64_t now = c->now;
    for (unsigned s = 0; s < c->nwarps && !c->failed; s++) {
        const simt_warp *w = &c->w[s];
        const bool f = w->state == WS_RUN && w->active && w->ibuf_n < c->k->ibuf_depth && !w->imiss && !w->stop_fetch;
        const bool lo = w->state == WS_RUN && (w->live & ~w->bar_wait);
        const bool blocked = warp_blocked(w);
        char err[128];
        const rv_inst *in = blocked ? NULL : simt_decode(c->dc, w->x.pc, err, sizeof err);
        const uint64_t until = in ? operands_ready(w, in) : 0;
        bool gate_ok = true;
        if (c->gate[s] > now) /* the warp must fail its own checks until then */
            gate_ok = blocked ? c->gate[s] == UINT64_MAX : in && until == c->gate[s];
        if (c->gcls[s] != SIMT_CLS_UNKNOWN) /* known: it passes its state checks, the class is its instruction's */
            gate_ok = gate_ok && in && in->cls == c->gcls[s] && until == c->gate[s];
        const unsigned i = c->spos[s];
        if (i != UINT16_MAX && !(c->rdy[c->sched_of[s]][i >> 6] >> (i & 63) & 1) && c->gate[s] <= now)
            gate_ok = false; /* the scan would skip a warp whose gate is open */
        if (i != UINT16_MAX && (c->ldst[c->sched_of[s]][i >> 6] >> (i & 63) & 1) != (c->gcls[s] == CL_LDST))
            gate_ok = false; /* the memory-instruction mask disagrees with the class */
        if (f != (c->fetch_mask[s >> 6] >> (s & 63) & 1) || lo != c->lim_ok[s] || !gate_ok)
            simt_core_fault(c, "internal: core %u cycle %llu: warp slot %u's scheduling view is stale (fetch %d/%d, "
                            "limit %d/%d, gate %llu%s)", c->id, (unsigned long long)now, s, f,
                            (int)(c->fetch_mask[s >> 6] >> (s & 63) & 1), lo, c->lim_ok[s],
                            (unsigned long long)c->gate[s], gate_ok ? "" : " wrong");
    }
    unsigned ex = 0;
    for (unsigned i = 0; i < c->n_order && !c->failed; i++) {
        const simt_warp *w = &c->w[c->order[i]];
        if (!simt_limit_exempt(w)) continue;
        ex++;
        if (!w->priority) /* core_cycle's and simt_core_holds_events' scans stop at priority 0 */
            simt_core_fault(c, "internal: core %u cycle %llu: warp slot %u is exempt from the warp limit at "
                            "priority 0", c->id, (unsigned long long)now, w->slot);
    }
    if (ex != c->n_exempt && !c->failed)
        simt_core_fault(c, "internal: core %u cycle %llu: %u warps exempt from the warp limit, %u at the last "
                        "simt_core_sort", c->id, (unsigned long long)now, ex, c->n_exempt);
}

static void core_cycle(simt_core *c) {
    const gpu_config *k = c->k;
    const uint64_t now = c->now;
    if (c->next_wb <= now) writeback(c);
    simt_lsu_end_drain_step(c);
    c->drain_refused = false;
    /* issue: one instruction per scheduler per cycle (GTO).  A scheduler that
     * issues nothing while the core holds warps counts a CM 4.2 stallGPU
     * cycle, whichever the cause: no warp within the active-warp limit passed
     * the scoreboard (Fig. 11 item 6: operands from memory or a long-latency
     * unit, an empty i-buffer, a barrier, a FENCE) or one did and its unit or
     * the LSU could not take it (item 7, footnote 9). */
    const bool held = c->n_order > 0;
    uint8_t stall = 0;
    /* the active-warp limit counts the warps that can still issue: a warp
     * whose live threads all wait at a barrier, or that has exited, does not
     * take one of the `active_limit` places (GPGPU-Sim's swl scheduler sorts
     * such warps last), so a limit below the warps of a block cannot leave
     * the block's remaining warps, which the barrier waits for, unissued */
    while (c->wake.n && c->wake.e[0].when <= now) { /* gates opening now */
        const simt_timed e = simt_heap_pop(&c->wake);
        if (c->gate[e.slot] == e.when) simt_view_ready(c, e.slot);
    }
    unsigned lim = c->n_order;
    bool ev_late = false; /* an event warp beyond lim, which the scans below must not stop at */
    if (c->check_view) check_view(c);
    if (c->active_limit < c->n_order) {
        if (!c->n_exempt) { /* every warp takes a place: the warps themselves need not be read */
            for (unsigned i = 0, n = 0; i < c->n_order; i++)
                if (c->lim_ok[c->order[i]] && ++n == c->active_limit) {
                    lim = i + 1;
                    break;
                }
        } else {
            for (unsigned i = 0, n = 0; i < c->n_order; i++)
                if (c->lim_ok[c->order[i]] && !simt_limit_exempt(&c->w[c->order[i]]) && ++n == c->active_limit) {
                    lim = i + 1;
                    break;
                }
            /* GTO puts priorities first, and every exempt warp has one above 0:
             * past a warp of priority 0 there is none (a victim's boost can put a
             * background warp ahead of a kernel-level event's warps) */
            for (unsigned i = lim; i < c->n_order && c->w[c->order[i]].priority && !ev_late; i++)
                ev_late = simt_limit_exempt(&c->w[c->order[i]]);
        }
    }
    for (unsigned s = 0; s < k->schedulers_per_core && held && !c->failed; s++) {
        c->pipe_full = false;
        simt_warp *best = NULL;
        const rv_inst *bin = NULL;
        int bunit = 0;
        if (c->pause_lim < lim) lim = c->pause_lim;
        int li = c->last_issued[s];
        if (k->warp_scheduler == GPU_SCHED_LRR) {
            /* loose round-robin: from the slot after the last issued, the
             * first ready warp of the highest ready priority */
            for (unsigned j = 1; j <= c->nwarps; j++) {
                unsigned slot = (unsigned)(li + (int)j) % c->nwarps;
                if (c->sched_of[slot] != s || !within_limit(c, slot, lim, ev_late) || !view_may_issue(c, slot, now))
                    continue;
                simt_warp *w = &c->w[slot];
                const rv_inst *in;
                int unit;
                if ((!best || w->priority > best->priority) && can_issue(c, w, &in, &unit)) {
                    best = w; bin = in; bunit = unit;
                }
            }
            li = -1; /* no greedy stay */
        } else {
            /* the scheduler's warps in GTO order whose gate may be open (rdy);
             * while no memory instruction can issue, those known to have one
             * next are passed over (view_may_issue would refuse each, marking
             * the stage full: pipe_full, done below for those before the
             * scan's end) */
            int u;
            const bool ldst_off = c->lsu.busy || !unit_free(k, c, CL_LDST, now, &u);
            unsigned stop = c->sorder_n[s]; /* index the scan ended at */
            for (unsigned wd = 0; wd < (c->sorder_n[s] + 63) / 64 && stop == c->sorder_n[s]; wd++)
                for (uint64_t bm = c->rdy[s][wd] & ~(ldst_off ? c->ldst[s][wd] : 0); bm; bm &= bm - 1) {
                    const unsigned i = wd * 64 + (unsigned)__builtin_ctzll(bm), slot = c->sorder[s * c->nwarps + i];
                    if (c->order_pos[slot] >= lim) { /* beyond the active-warp limit: no more */
                        if (ev_late) {
                            if (!simt_limit_exempt(&c->w[slot])) continue;
                        } else {
                            stop = i;
                            break;
                        }
                    }
                    if (!view_may_issue(c, slot, now)) continue;
                    simt_warp *w = &c->w[slot];
                    const rv_inst *in;
                    int unit;
                    if (can_issue(c, w, &in, &unit)) {
                        best = w; bin = in; bunit = unit;
                        stop = i;
                        break;
                    }
                }
            for (unsigned wd = 0; ldst_off && !c->pipe_full && wd * 64 < stop; wd++)
                for (uint64_t bm = c->rdy[s][wd] & c->ldst[s][wd]; bm; bm &= bm - 1) {
                    const unsigned i = wd * 64 + (unsigned)__builtin_ctzll(bm);
                    if (i >= stop) break;
                    if (!within_limit(c, c->sorder[s * c->nwarps + i], lim, ev_late)) {
                        if (ev_late) continue;
                        break;
                    }
                    if (c->gate[c->sorder[s * c->nwarps + i]] <= now) { /* its gate open, its unit not */
                        c->pipe_full = true;
                        break;
                    }
                }
        }
        /* GTO's greedy: stay on the last-issued warp unless a higher-priority warp is ready */
        if (li >= 0 && (!best || (int)best->slot != li)) {
            simt_warp *w = &c->w[li];
            const bool in_lim = within_limit(c, (unsigned)li, lim, ev_late);
            const rv_inst *in;
            int unit;
            if (in_lim && (!best || w->priority >= best->priority) && view_may_issue(c, (unsigned)li, now) &&
                can_issue(c, w, &in, &unit)) {
                best = w; bin = in; bunit = unit;
            }
        }
        if (best) c->last_issued[s] = (int)best->slot;
        if (!best || !issue(c, best, bin, bunit)) {
            stall |= (uint8_t)(1u << s);
            c->stall_pipe += c->pipe_full;
        } else
            best->issued_at = now + 1;
    }
    c->issue_stall = stall;
    if (c->end_drain) { /* (a drain over before this cycle's issue, e.g. the event's own last store, is none) */
        c->end_drains += c->drain_new;
        c->end_drain_cycles++;
        c->end_drain_stalls += c->drain_refused;
    }
    c->drain_new = false;
    if (c->evb_on) event_breakdown(c);
    if (held) {
        c->warp_cycles++;
        c->stall_gpu += (unsigned)__builtin_popcount(stall);
    }
    /* DYNCTA (Kayiran et al., PACT'13), our reading: C_idle = cycles with
     * nothing to issue (no warp allowed to issue, i.e. not paused, with lanes
     * ready to run: no block, or all at a barrier or draining); C_mem =
     * cycles in which no scheduler issued and every such warp waits for a
     * load */
    if (c->count_waits && (!held || stall == (1u << k->schedulers_per_core) - 1)) {
        unsigned run = 0, mem = 0, lim = c->active_limit < c->n_order ? c->active_limit : c->n_order;
        if (c->pause_lim < lim) lim = c->pause_lim;
        for (unsigned i = 0; i < lim; i++) {
            const simt_warp *w = &c->w[c->order[i]];
            if (w->state != WS_RUN || !w->active) continue;
            run++;
            mem += w->n_ld > 0;
        }
        c->idle_cycles += run == 0;
        c->mem_cycles += run && mem == run;
    }
    /* the LSU's next line, instruction fetch, save/restore lines; the port */
    if (!c->failed) simt_lsu_requests(c);
}

/* ------------------------------------------------------ the public API */

simt_core *simt_core_array(unsigned n) { return calloc(n ? n : 1, sizeof(simt_core)); }
simt_core *simt_core_nth(simt_core *cores, unsigned i) { return &cores[i]; }
void simt_core_set_cycle_wrote(simt_core *c, bool *flag) { c->cycle_wrote = flag; }
void simt_core_set_save_base(simt_core *c, uint64_t base) { c->save_base = base; }
void simt_core_set_dcache(simt_core *c, simt_dcache *dc) { c->dc = dc; }
void simt_core_set_threaded(simt_core *c, bool threaded) { c->threaded = threaded; }
int simt_core_set_event_faults(simt_core *c, bool on) {
    if (!on) {
        free(c->evf_msg);
        c->evf_msg = NULL;
    }
    if (!on || c->evf_msg) return 0;
    c->evf_msg = calloc(c->nwarps, sizeof *c->evf_msg);
    return c->evf_msg ? 0 : -1;
}
uint64_t simt_core_event_aborts(const simt_core *c) { return c->evf_aborts; }
unsigned simt_core_id(const simt_core *c) { return c->id; }
unsigned simt_core_nwarps(const simt_core *c) { return c->nwarps; }
uint64_t simt_core_now(const simt_core *c) { return c->now; }
bool simt_core_holds_warps(const simt_core *c) { return c->n_order > 0; }
bool simt_core_mem_busy(const simt_core *c) { return simt_lsu_busy(c); }

void simt_core_decode_flushed(simt_core *c) {
    for (unsigned s = 0; c->w && s < c->nwarps; s++) {
        c->w[s].sb_known = false;
        if (c->park) c->park[s].sb_known = false;
        c->gate[s] = 0;
    }
}

void simt_core_set_warp_limit(simt_core *c, unsigned limit) { c->active_limit = limit ? limit : c->nwarps; }
bool simt_core_holds_events(const simt_core *c) { return c->n_exempt > 0; }

void simt_core_set_block_limit(simt_core *c, unsigned limit, bool pause) {
    c->block_limit = limit;
    c->block_pause = pause;
    c->count_waits = true;
    simt_core_sort(c); /* the paused warps */
}

uint64_t simt_core_take_issued_warps(simt_core *c) {
    uint64_t m = c->issued_warps;
    c->issued_warps = 0;
    return m;
}

unsigned simt_core_issue_stall(const simt_core *c) { return c->issue_stall; }
void simt_core_clear_issue_stall(simt_core *c) { c->issue_stall = 0; }

void simt_core_add_stats(const simt_core *c, gpu_stats *s) {
    s->warp_instrs += c->warp_instrs;
    s->thread_instrs += c->thread_instrs;
    s->l1_hits += c->l1_hits;
    s->l1_misses += c->l1_misses;
    s->mshr_stalls += c->stall_mshr;
    s->port_stalls += c->stall_port;
    s->mem_requests += c->req_sent;
    s->mem_responses += c->rsp_taken;
    s->loads += c->loads;
    s->load_cycles += c->load_cycles;
    s->stores += c->stores;
    s->fences += c->fences;
    s->fence_wait_cycles += c->fence_cycles;
    s->fe_nacks += c->fe_nacks;
    s->fe_retries += c->fe_retries;
    s->end_drains += c->end_drains;
    s->end_drain_cycles += c->end_drain_cycles;
    s->end_drain_stalls += c->end_drain_stalls;
}

void simt_core_get_stats(const simt_core *c, gpu_core_stats *s) {
    s->warp_instrs = c->warp_instrs;
    s->thread_instrs = c->thread_instrs;
    s->warp_cycles = c->warp_cycles;
    s->stall_gpu = c->stall_gpu;
    s->stall_pipe = c->stall_pipe;
    s->idle_cycles = c->idle_cycles;
    s->mem_cycles = c->mem_cycles;
}

void simt_core_set_event_breakdown(simt_core *c, bool on) { c->evb_on = on; }

void simt_core_add_event_breakdown(const simt_core *c, uint64_t out[GPU_EVB_N]) {
    for (unsigned j = 0; j < GPU_EVB_N; j++) out[j] += c->evb[j];
}

const simt_grid *simt_core_warp_info(const simt_core *c, unsigned slot, gpu_warp_info *o) {
    const simt_warp *w = &c->w[slot];
    if (w->state != WS_RUN && w->state != WS_DRAIN) return NULL;
    const simt_block *b = &c->blk[w->block];
    memset(o, 0, sizeof *o);
    o->slot = slot;
    o->event = w->event;
    o->draining = w->state == WS_DRAIN;
    memcpy(o->ctaid, b->ctaid, sizeof o->ctaid);
    o->warp_in_block = w->wib;
    o->live = w->live;
    o->bar_wait = w->bar_wait;
    for (unsigned l = 0; l < SIMT_LANES; l++)
        if (w->live >> l & 1) o->lane_pc[l] = (w->active >> l & 1) ? w->x.pc : w->x.lane_pc[l];
    o->loads = w->n_ld;
    o->stores = w->n_st;
    o->at_fence = w->fence_since != 0;
    o->instrs = w->instrs;
    if (!w->event) {
        o->block_arrived = b->bar_arrived;
        o->block_live = b->live_threads;
        o->bar_since = b->bar_since;
    }
    return w->grid;
}

int simt_core_set_access_check(simt_core *c, gpu_access_check fn, gpu_prov_load prov_load, void *user) {
    c->acc_check = fn;
    c->acc_user = user;
    c->prov_load = prov_load;
    for (unsigned s = 0; prov_load && s < c->nwarps; s++)
        if (!c->w[s].x.prov && !(c->w[s].x.prov = calloc(RV_NREGS + 1, sizeof *c->w[s].x.prov))) return -1;
    return 0;
}

void simt_core_set_shared_hook(simt_core *c, gpu_shared_hook fn, void *user) {
    c->sh_hook = fn;
    c->sh_user = user;
}

void simt_core_set_watch(simt_core *c, const gpu_watch *w) {
    c->watch = w ? *w : (gpu_watch){0};
    c->watch_pc = c->watch.pc ? c->watch.watch_pc : UINT32_MAX;
}

/* ------------------------------------ the extension's view and actions */

void simt_core_warp(const simt_core *c, unsigned slot, simt_warp_status *st) {
    const simt_warp *w = &c->w[slot];
    *st = (simt_warp_status){.state = w->state, .event = w->event, .stop_fetch = w->stop_fetch, .grid = w->grid,
                             .active = w->active, .live = w->live, .bar_wait = w->bar_wait, .n_ld = w->n_ld,
                             .n_st = w->n_st, .ibuf_n = w->ibuf_n, .priority = w->priority, .pc = w->x.pc,
                             .age = w->age};
}

void simt_core_slot_masks(const simt_core *c, simt_slot_masks *m) {
    uint64_t live = 0, ex = 0, bar = 0, ld = 0;
    for (unsigned i = 0; i < c->nwarps; i++) {
        const simt_warp *w = &c->w[i];
        uint64_t bit = 1ull << i;
        if (w->state != WS_FREE) live |= bit;
        if (w->state == WS_DRAIN) ex |= bit;
        if (w->state == WS_RUN && w->bar_wait && !w->active) bar |= bit;
        if (w->n_ld) ld |= bit;
    }
    *m = (simt_slot_masks){.live = live, .drain = ex, .bar = bar, .loads = ld};
}

void simt_core_warp_pipe(const simt_core *c, unsigned slot, simt_warp_pipe *p) {
    const simt_warp *v = &c->w[slot];
    bool sb = false;
    for (unsigned r = 0; r < RV_NREGS; r++) sb |= v->sb_ready[r] > c->now;
    const bool run = v->state == WS_RUN;
    p->pipe = run && (pipe_pending(c, v) || v->n_restore); /* restore reads in flight write its registers */
    p->sb = run && sb;
    p->ibuf = run && v->ibuf_n > 0;
    p->imiss = run && v->imiss;
    p->ldok = run && droppable(c, v);
}

bool simt_core_loads_droppable(const simt_core *c, unsigned slot) { return droppable(c, &c->w[slot]); }
bool simt_core_at_fence(simt_core *c, unsigned slot) { return warp_at_fence(c, &c->w[slot]); }

bool simt_core_parked(const simt_core *c, unsigned slot) {
    return c->sev && c->sev[slot].parked && c->w[slot].state == WS_PARKED;
}

uint64_t simt_core_alloc_mask(const simt_core *c, unsigned *regs_pt) {
    *regs_pt = c->alloc_regs;
    return c->alloc_mask;
}

void simt_core_stop_fetch(simt_core *c, unsigned slot, bool stop, bool flush_ibuf) {
    simt_warp *w = &c->w[slot];
    w->stop_fetch = stop;
    if (flush_ibuf) w->ibuf_n = 0;
    simt_warp_touch(c, w);
}

void simt_core_set_priority(simt_core *c, unsigned slot, unsigned priority) { c->w[slot].priority = priority; }

uint32_t simt_core_barrier_skip(simt_core *c, unsigned slot) {
    simt_warp *w = &c->w[slot];
    const uint32_t m = w->bar_wait;
    if (w->state != WS_RUN || !m) return 0;
    c->blk[w->block].bar_arrived -= popc(m);
    w->bar_wait = 0;
    simt_warp_touch(c, w);
    return m;
}

void simt_core_barrier_rejoin(simt_core *c, unsigned slot, uint32_t lanes) {
    simt_warp *w = &c->w[slot];
    if (!lanes || w->state != WS_RUN) return;
    simt_block *b = &c->blk[w->block];
    w->bar_wait |= lanes;
    w->active &= ~lanes;
    simt_warp_touch(c, w);
    b->bar_arrived += popc(lanes);
    simt_barrier_check(c, b);
}

bool simt_core_drop_loads(simt_core *c, unsigned slot) {
    simt_warp *w = &c->w[slot];
    if (w->state != WS_RUN || !droppable(c, w)) return false;
    if (simt_loads_droppable(w))
        simt_drop_loads(c, w); /* replayed from the oldest */
    else
        complete_loads(c, w);
    return true;
}

void simt_core_drain_warp(simt_core *c, unsigned slot) {
    simt_warp *w = &c->w[slot];
    w->live = w->active = 0;
    w->state = WS_DRAIN;
    simt_warp_touch(c, w);
}

void simt_core_finish_drained(simt_core *c, unsigned slot) { simt_warp_check_done(c, &c->w[slot]); }

void simt_core_kernel_end(simt_core *c) { simt_lsu_kernel_end(c); }
