/* simt_core_base: the SIMT core's layer under its pipeline (simt_core.c)
 * and its LSU (simt_lsu.c), which both use it: faults and the cycle's
 * deferred work (the calls up to the GPU at the commit), the GTO order, a
 * warp's and a block's end, the timed heaps and the writeback queue.  It calls
 * neither of them (simt_core_state.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt_core_state.h"

/* Room for one more element in a deferred-work array (doubling); a failed
 * allocation stops the simulator with the reason: the cycle cannot go on
 * without the work it has already done. */
static void *room(void *a, unsigned n, unsigned *cap, size_t sz) {
    if (n < *cap) return a;
    unsigned nc = *cap ? 2 * *cap : 16;
    void *b = realloc(a, (size_t)nc * sz);
    if (!b) {
        fprintf(stderr, "finegrain: out of memory for a core's deferred work (%u entries)\n", nc);
        exit(2);
    }
    *cap = nc;
    return b;
}

bool simt_core_defer(simt_core *c, simt_dcall_fn fn, void *user, uint64_t a, const void *payload, size_t n) {
    if (n > SIMT_DCALL_PAYLOAD) return false;
    c->dq = room(c->dq, c->dq_n, &c->dq_cap, sizeof *c->dq);
    simt_dcall *d = &c->dq[c->dq_n++];
    d->fn = fn;
    d->user = user;
    d->a = a;
    if (n) memcpy(d->payload, payload, n);
    return true;
}

simt_dmem *simt_core_defer_mem(simt_core *c) {
    c->dm = room(c->dm, c->dm_n, &c->dm_cap, sizeof *c->dm);
    c->dq = room(c->dq, c->dq_n, &c->dq_cap, sizeof *c->dq);
    simt_dcall *d = &c->dq[c->dq_n++];
    d->fn = NULL;
    d->mem = c->dm_n;
    return &c->dm[c->dm_n++];
}

/* the calls up to the GPU, made at the commit */
static void call_fault(void *user, uint64_t a, const void *p) {
    (void)a; (void)p;
    simt_core *c = user;
    c->cb.fault(c->cb.user, c->id, c->err);
}

static void call_block_done(void *user, uint64_t a, const void *p) {
    (void)p;
    simt_core *c = user;
    c->cb.block_done(c->cb.user, (const simt_grid *)(uintptr_t)a);
}

void simt_call_first_instr(void *user, uint64_t a, const void *p) {
    (void)p;
    simt_core *c = user;
    c->cb.first_instr(c->cb.user, (const simt_grid *)(uintptr_t)a);
}

/* a call up to the GPU: at the commit during the core's cycle, else now */
void simt_core_up(simt_core *c, simt_dcall_fn fn, uint64_t a) {
    if (c->ticking) simt_core_defer(c, fn, c, a, NULL, 0);
    else fn(c, a, NULL);
}

void simt_core_fault(simt_core *c, const char *fmt, ...) {
    if (c->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    c->failed = true;
    if (c->cb.fault) simt_core_up(c, call_fault, 0);
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
    c->n_exempt = 0;
    for (unsigned i = 0; i < c->nwarps; i++) c->order_pos[i] = UINT16_MAX;
    for (unsigned s = 0; s < c->k->schedulers_per_core; s++) c->sorder_n[s] = 0;
    for (unsigned i = 0; i < c->nwarps; i++) c->spos[i] = UINT16_MAX;
    memset(c->rdy, 0, sizeof c->rdy);
    memset(c->ldst, 0, sizeof c->ldst);
    for (unsigned i = 0; i < n; i++) {
        const unsigned slot = c->order[i], s = c->sched_of[slot], j = c->sorder_n[s];
        c->order_pos[slot] = (uint16_t)i;
        c->n_exempt += simt_limit_exempt(&c->w[slot]);
        c->spos[slot] = (uint16_t)j;
        c->sorder[s * c->nwarps + c->sorder_n[s]++] = (uint16_t)slot;
        if (c->gcls[slot] == CL_LDST) c->ldst[s][j >> 6] |= 1ull << (j & 63);
        if (c->gate[slot] <= c->now + SIMT_GATE_NEAR) simt_view_ready(c, slot);
        else if (c->gate[slot] != UINT64_MAX) /* (a second entry for the same gate is harmless) */
            simt_heap_push(&c->wake, (simt_timed){.when = c->gate[slot], .slot = (uint16_t)slot});
    }
    /* DYNCTA's CTA pausing: the blocks beyond the limit, the youngest, wait
     * (a block's warps are adjacent in GTO order: consecutive ages) */
    c->pause_lim = c->nwarps;
    for (unsigned i = 0, nb = 0, last = ~0u; c->block_pause && c->block_limit && i < n; i++) {
        const simt_warp *w = &c->w[c->order[i]];
        if (w->event || w->block == last) continue;
        last = w->block;
        if (++nb > c->block_limit) {
            c->pause_lim = i;
            break;
        }
    }
}

static void block_finish(simt_core *c, unsigned bs) {
    simt_block *b = &c->blk[bs];
    c->used_blocks--;
    c->used_threads -= b->nwarps * SIMT_LANES;
    c->used_warps -= b->nwarps;
    c->used_regs -= b->regs;
    c->used_shmem -= b->shmem_size;
    b->valid = false;
    simt_core_up(c, call_block_done, (uintptr_t)b->grid);
}

/* The slot's warp is gone: no scheduler keeps greedily to it. */
void simt_forget_last_issued(simt_core *c, unsigned slot) {
    for (unsigned s = 0; s < SIMT_MAX_UNITS; s++)
        if (c->last_issued[s] == (int)slot) c->last_issued[s] = -1;
}

static void warp_finish(simt_core *c, simt_warp *w) {
    w->state = WS_FREE;
    simt_forget_last_issued(c, w->slot);
    if (w->event) { /* EDGE IV-D: the victim waits in its slot for RESUME, or the context is free */
        simt_slot_ev *se = &c->sev[w->slot];
        w->event = false;
        if (se->parked) {
            w->state = WS_PARKED;
            simt_warp_touch(c, w);
        } else {
            c->used_warps--;
            c->used_threads -= SIMT_LANES;
            c->used_regs -= se->ev_regs * SIMT_LANES;
        }
        simt_warp_touch(c, w);
        simt_core_sort(c);
        c->hooks->warp_exit(c->ext, w->slot);
        return;
    }
    simt_warp_touch(c, w);
    simt_block *b = &c->blk[w->block];
    simt_core_sort(c);
    if (++b->warps_done == b->nwarps) block_finish(c, w->block);
}

/* A warp whose threads all exited finishes when its loads are back and its
 * stores acknowledged (the kernel is complete only when its stores are
 * performed). */
void simt_warp_check_done(simt_core *c, simt_warp *w) {
    if (w->state == WS_DRAIN && !w->n_ld && !w->n_st) warp_finish(c, w);
}

void simt_heap_push(simt_heap *h, simt_timed e) {
    h->e = room(h->e, h->n, &h->cap, sizeof *h->e);
    unsigned i = h->n++;
    while (i && h->e[(i - 1) / 2].when > e.when) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = e;
}

simt_timed simt_heap_pop(simt_heap *h) {
    simt_timed top = h->e[0], e = h->e[--h->n];
    unsigned i = 0;
    for (;;) {
        unsigned j = 2 * i + 1;
        if (j >= h->n) break;
        if (j + 1 < h->n && h->e[j + 1].when < h->e[j].when) j++;
        if (h->e[j].when >= e.when) break;
        h->e[i] = h->e[j];
        i = j;
    }
    if (h->n) h->e[i] = e;
    return top;
}

void simt_wb_push(simt_core *c, unsigned slot, unsigned ldi) {
    const simt_load *ld = &c->w[slot].ld[ldi];
    simt_heap_push(&c->wbq, (simt_timed){ld->done, ld->uid, (uint16_t)slot, (uint8_t)ldi});
    if (ld->done < c->next_wb) c->next_wb = ld->done;
}
