/* dram: GDDR5 channel model, FR-FCFS (Rixner et al.; CM Table I).
 *
 * Per cycle: retire accesses whose last data beat has passed, then issue at
 * most one command (one command bus):
 *   1. a column command (RD/WR, one burst) for the oldest queued access whose
 *      bank has its row open and whose timing allows it ("first ready");
 *   2. otherwise a row command for the oldest access that needs one: PRE of
 *      a bank open on another row (only if no queued access still hits that
 *      row), or ACT of a closed bank ("first come, first served").
 * Open-page policy; no refresh (not modelled).  An access leaves the queue
 * when its last column command issues and waits in a bounded in-flight list
 * for its data (no more column commands while that list is full). */
#include "dram.h"

#include <stdlib.h>
#include <string.h>

#include "mem_config.h"

typedef struct {
    uint32_t rec;
    uint64_t seq, line, row;
    unsigned bank, left;
    bool write, started, caused_act, caused_pre;
    int blocker;          /* slot of an older access to the same line, or -1 */
    uint64_t blocker_seq;
} dq_ent;

typedef struct {
    uint32_t rec;
    uint64_t done;
} dflight;

typedef struct {
    bool open;
    uint64_t row, next_act, next_pre, next_col;
} dbank;

struct dram_chan {
    mem_config c;
    dram_hooks h;
    unsigned bl; /* data-bus cycles per burst */
    dq_ent *q;   /* slots */
    unsigned cap, n;
    unsigned *order; /* occupied slots, oldest first */
    unsigned *free_slots;
    unsigned n_free;
    dflight *fl;
    unsigned nfl;
    dbank *bk;
    uint64_t seq, next_act_any, next_col, next_rd, next_wr, bus_free;
    /* No command can issue before this cycle unless the queue, a retirement
     * or a command changes what the scan reads (each clears it): the scan's
     * last answer, computed from the timing gates that held every access
     * back, so an idle wait costs no scan (the same commands at the same
     * cycles). */
    uint64_t wake;
    bool no_wake; /* dram_set_wake(d, false): scan every cycle */
    dram_stats st;
};

void dram_map(const mem_config *c, uint64_t local, unsigned *bank, uint64_t *row) {
    uint64_t r = local / c->dram_row_bytes;
    *bank = (unsigned)(r % c->dram_banks);
    *row = r / c->dram_banks;
}

dram_chan *dram_new(const mem_config *c, const dram_hooks *h) {
    dram_chan *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->c = *c;
    d->h = *h;
    d->bl = mem_config_burst_cycles(c);
    d->cap = c->dram_queue;
    d->q = calloc(d->cap, sizeof *d->q);
    d->order = calloc(d->cap, sizeof *d->order);
    d->free_slots = calloc(d->cap, sizeof *d->free_slots);
    d->fl = calloc(d->cap, sizeof *d->fl);
    d->bk = calloc(c->dram_banks, sizeof *d->bk);
    if (!d->q || !d->order || !d->free_slots || !d->fl || !d->bk) {
        dram_free(d);
        return NULL;
    }
    for (unsigned i = 0; i < d->cap; i++) d->free_slots[i] = d->cap - 1 - i;
    d->n_free = d->cap;
    return d;
}

void dram_free(dram_chan *d) {
    if (!d) return;
    free(d->q);
    free(d->order);
    free(d->free_slots);
    free(d->fl);
    free(d->bk);
    free(d);
}

bool dram_can_accept(const dram_chan *d) { return d->n_free > 0; }
bool dram_idle(const dram_chan *d) { return d->n == 0 && d->nfl == 0; }
const dram_stats *dram_get_stats(const dram_chan *d) { return &d->st; }

void dram_push(dram_chan *d, uint32_t rec, uint64_t local, bool write, unsigned bursts) {
    unsigned s = d->free_slots[--d->n_free];
    dq_ent *e = &d->q[s];
    memset(e, 0, sizeof *e);
    e->rec = rec;
    e->seq = d->seq++;
    e->line = local / d->c.line_bytes;
    dram_map(&d->c, local, &e->bank, &e->row);
    e->left = bursts ? bursts : 1;
    e->write = write;
    e->blocker = -1;
    d->wake = 0;
    for (unsigned k = d->n; k-- > 0;) /* youngest older access to the same line */
        if (d->q[d->order[k]].line == e->line) {
            e->blocker = (int)d->order[k];
            e->blocker_seq = d->q[d->order[k]].seq;
            break;
        }
    d->order[d->n++] = s;
}

static bool blocked(const dram_chan *d, const dq_ent *e) {
    if (e->blocker < 0) return false;
    const dq_ent *b = &d->q[e->blocker];
    return b->seq == e->blocker_seq && b->left > 0;
}

static void remove_at(dram_chan *d, unsigned k) {
    d->free_slots[d->n_free++] = d->order[k];
    d->q[d->order[k]].left = 0;
    memmove(&d->order[k], &d->order[k + 1], (d->n - k - 1) * sizeof *d->order);
    d->n--;
}

static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }
static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }

static void trace(dram_chan *d, dram_cmd cmd, const dq_ent *e, uint64_t now) {
    if (d->h.command) d->h.command(d->h.ctx, cmd, e->bank, e->row, e->rec, now);
}

static void column(dram_chan *d, unsigned k, uint64_t now) {
    dq_ent *e = &d->q[d->order[k]];
    dbank *b = &d->bk[e->bank];
    const mem_config *c = &d->c;
    unsigned lat = e->write ? c->tWL : c->tCL;
    if (e->write) {
        b->next_pre = max64(b->next_pre, now + c->tWL + d->bl + c->tWR);
        d->next_rd = max64(d->next_rd, now + c->tWL + d->bl + c->tCDLR);
    } else {
        b->next_pre = max64(b->next_pre, now + d->bl); /* tRTP = BL / data rate */
        uint64_t rtw = (uint64_t)c->tCL + d->bl + c->tRTW_gap;
        d->next_wr = max64(d->next_wr, now + (rtw > c->tWL ? rtw - c->tWL : 0));
    }
    d->next_col = now + c->tCCD;
    d->bus_free = now + lat + d->bl;
    d->st.bus_busy += d->bl;
    trace(d, e->write ? DRAM_WR : DRAM_RD, e, now);
    if (!e->started) {
        e->started = true;
        if (e->caused_pre) d->st.row_conflicts++;
        else if (e->caused_act) d->st.row_misses++;
        else d->st.row_hits++;
        if (d->h.perform) d->h.perform(d->h.ctx, e->rec);
    }
    if (--e->left) return;
    d->fl[d->nfl++] = (dflight){e->rec, d->bus_free};
    if (e->write) d->st.writes++;
    else d->st.reads++;
    remove_at(d, k);
}

void dram_cycle(dram_chan *d, uint64_t now) {
    for (unsigned i = 0; i < d->nfl;) { /* retire, oldest first */
        if (d->fl[i].done <= now && d->h.retire(d->h.ctx, d->fl[i].rec)) {
            memmove(&d->fl[i], &d->fl[i + 1], (d->nfl - i - 1) * sizeof *d->fl);
            d->nfl--;
            d->wake = 0;
        } else {
            i++;
        }
    }
    if (!d->n || now < d->wake) return;
    const mem_config *c = &d->c;
    uint64_t hit_banks = 0; /* banks with a queued access to their open row */
    uint64_t wake = UINT64_MAX; /* the first cycle a time gate below opens */
    d->wake = 0;
    for (unsigned k = 0; k < d->n; k++) {
        dq_ent *e = &d->q[d->order[k]];
        dbank *b = &d->bk[e->bank];
        if (!b->open || b->row != e->row) continue;
        hit_banks |= 1ull << e->bank;
        if (blocked(d, e)) continue;
        const unsigned lat = e->write ? c->tWL : c->tCL;
        uint64_t t = max64(max64(b->next_col, d->next_col), e->write ? d->next_wr : d->next_rd);
        t = max64(t, d->bus_free > lat ? d->bus_free - lat : 0);
        if (now < t) {
            wake = min64(wake, t);
            continue;
        }
        if (e->left == 1 && d->nfl == d->cap) continue;
        column(d, k, now);
        return;
    }
    for (unsigned k = 0; k < d->n; k++) {
        dq_ent *e = &d->q[d->order[k]];
        dbank *b = &d->bk[e->bank];
        if (b->open) {
            if (b->row == e->row || (hit_banks >> e->bank & 1)) continue;
            if (now < b->next_pre) {
                wake = min64(wake, b->next_pre);
                continue;
            }
            b->open = false;
            b->next_act = max64(b->next_act, now + c->tRP);
            e->caused_pre = true;
            d->st.pres++;
            trace(d, DRAM_PRE, e, now);
            return;
        }
        const uint64_t t = max64(b->next_act, d->next_act_any);
        if (now < t) {
            wake = min64(wake, t);
            continue;
        }
        b->open = true;
        b->row = e->row;
        b->next_col = now + c->tRCD;
        b->next_pre = now + c->tRAS;
        b->next_act = now + c->tRC;
        d->next_act_any = now + c->tRRD;
        e->caused_act = true;
        d->st.acts++;
        trace(d, DRAM_ACT, e, now);
        return;
    }
    d->wake = d->no_wake ? 0 : wake;
}

void dram_set_wake(dram_chan *d, bool on) { d->no_wake = !on; }
