#include "simt_lockstep.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen/edge_preempt_enc.h"
#include "gen/simt_core_enc.h"
#include "simt/simt_abi.h"

static const char *fault_name(unsigned c) {
    static const char *const n[] = {"NONE", "ILLEGAL", "CSR", "FETCH", "ADDR", "ALIGN"};
    return c < sizeof n / sizeof n[0] ? n[c] : "?";
}

__attribute__((format(printf, 2, 3))) static int fail(simt_lockstep *ls, const char *fmt, ...) {
    if (ls->failed) return -1;
    ls->failed = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ls->err, sizeof ls->err, fmt, ap);
    va_end(ap);
    return -1;
}

/* the one line of a comparison that failed */
__attribute__((format(printf, 6, 7))) static int diff(simt_lockstep *ls, uint64_t cycle, unsigned slot,
                                                      uint64_t order, uint32_t pc, const char *fmt, ...) {
    if (ls->failed) return -1;
    ls->failed = true;
    int k = snprintf(ls->err, sizeof ls->err, "simt lockstep: first difference at cycle %" PRIu64
                     ", warp slot %u, order %" PRIu64 ", pc 0x%08x: ", cycle, slot, order, pc);
    if (k < 0 || (size_t)k >= sizeof ls->err) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ls->err + k, sizeof ls->err - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

int simt_lockstep_init(simt_lockstep *ls, simt_ref *ref, unsigned nw, unsigned nl) {
    memset(ls, 0, sizeof *ls);
    ls->ref = ref;
    ls->nw = nw < SIMT_REF_SLOTS ? nw : SIMT_REF_SLOTS;
    ls->nl = nl;
    for (unsigned i = 0; i < ls->nw; i++)
        if (!(ls->s[i].e = calloc(SIMT_LS_WINDOW, sizeof *ls->s[i].e)) ||
            !(ls->park[i].e = calloc(SIMT_LS_WINDOW, sizeof *ls->park[i].e)))
            return -1;
    return 0;
}

void simt_lockstep_free(simt_lockstep *ls) {
    for (unsigned i = 0; i < SIMT_REF_SLOTS; i++) {
        free(ls->s[i].e);
        free(ls->park[i].e);
        ls->s[i].e = ls->park[i].e = NULL;
    }
}

int simt_lockstep_launch(simt_lockstep *ls, uint64_t cycle, unsigned slot, unsigned launch, const simt_launch *l) {
    if (ls->failed) return -1;
    if (slot >= ls->nw || ls->s[slot].active)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": launch into warp slot %u, %s", cycle, slot,
                    slot >= ls->nw ? "beyond the core's slots" : "which holds a warp");
    simt_ls_slot *s = &ls->s[slot];
    s->active = true; /* its window is empty: the warp before it ended with every instruction compared */
    s->launch = launch;
    s->next = 0;
    simt_ref_launch(ls->ref, slot, l);
    return 0;
}

static const char *ref_fault_text(const simt_ref *r, unsigned code, uint32_t pc, char *buf, size_t n) {
    snprintf(buf, n, "fault %s at pc 0x%08x (%s)", fault_name(code), pc, r->why);
    return buf;
}

static void count(simt_ls_stats *st, const simt_rec *r) {
    st->instrs++;
    st->divergent += r->mask != r->live;
    switch (r->op) {
    case OP_LB: case OP_LH: case OP_LW: case OP_LBU: case OP_LHU: st->loads++; break;
    case OP_SB: case OP_SH: case OP_SW: st->stores++; break;
    case OP_LR: case OP_SC: case OP_AMOSWAP: case OP_AMOADD: case OP_AMOXOR: case OP_AMOAND: case OP_AMOOR:
    case OP_AMOMIN: case OP_AMOMAX: case OP_AMOMINU: case OP_AMOMAXU:
        st->atomics++;
        break;
    case OP_MUL: case OP_MULH: case OP_MULHSU: case OP_MULHU: case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU:
        st->muldiv++;
        break;
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU: case OP_BGEU: case OP_JALR: st->branches++; break;
    case OP_ECALL: st->exits++; break;
    case OP_CSRRW: case OP_CSRRS: case OP_CSRRC: case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI:
        st->csr++;
        st->barriers += (r->insn >> 20) == FG_CSR_BARRIER && (((r->insn >> 12) & 3) == 1 || ((r->insn >> 15) & 31));
        break;
    default: break;
    }
}

/* Compares the complete instructions at the front of slot s's window. */
static int drain(simt_lockstep *ls, unsigned slot) {
    simt_ls_slot *s = &ls->s[slot];
    const uint32_t all = (uint32_t)((1ull << (32 / ls->nl)) - 1);
    for (;;) {
        simt_ls_entry *e = &s->e[s->next % SIMT_LS_WINDOW];
        if (!e->used || e->passes != all) return 0;
        simt_rec rec;
        unsigned code = 0;
        uint32_t fpc = 0;
        char buf[256];
        const uint64_t cyc = e->cycle, n = s->next;
        const int st = simt_ref_step(ls->ref, slot, &rec, &code, &fpc);
        if (st == SIMT_REF_ERROR) return fail(ls, "%s", ls->ref->err);
        if (st == SIMT_REF_DONE)
            return diff(ls, cyc, slot, n, e->pc, "retired rtl=pc 0x%08x ref=none (every thread has exited)", e->pc);
        if (st == SIMT_REF_FAULT)
            return diff(ls, cyc, slot, n, fpc, "retired rtl=pc 0x%08x ref=%s", e->pc,
                        ref_fault_text(ls->ref, code, fpc, buf, sizeof buf));
        if (e->pc != rec.pc) return diff(ls, cyc, slot, n, rec.pc, "pc rtl=0x%08x ref=0x%08x", e->pc, rec.pc);
        if (e->mask != rec.mask)
            return diff(ls, cyc, slot, n, rec.pc, "mask rtl=0x%08x ref=0x%08x", e->mask, rec.mask);
        if (e->rd != rec.rd)
            return diff(ls, cyc, slot, n, rec.pc, "rd rtl=x%u ref=x%u (insn 0x%08x)", e->rd, rec.rd, rec.insn);
        if (rec.rd && rec.no_compare) {
            simt_ref_set_reg(ls->ref, slot, rec.rd, rec.mask, e->data);
        } else if (rec.rd) {
            for (unsigned t = 0; t < 32; t++)
                if ((rec.mask >> t & 1) && e->data[t] != rec.values[t])
                    return diff(ls, cyc, slot, n, rec.pc, "x%u of thread %u rtl=0x%08x ref=0x%08x (insn 0x%08x)",
                                rec.rd, t, e->data[t], rec.values[t], rec.insn);
        }
        count(&ls->st, &rec);
        memset(e, 0, sizeof *e);
        s->next++;
    }
}

int simt_lockstep_beat(simt_lockstep *ls, uint64_t cycle, const simt_rtl_out *o) {
    if (ls->failed) return -1;
    ls->st.beats++;
    const unsigned slot = o->rvfi_slot, pass = o->rvfi_pass, P = 32 / ls->nl;
    if (slot >= ls->nw || !ls->s[slot].active)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": retire beat of warp slot %u (order %" PRIu64
                        ", pc 0x%08x), which holds no warp",
                    cycle, slot, o->rvfi_order, o->rvfi_pc);
    simt_ls_slot *s = &ls->s[slot];
    if (pass >= P)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u order %" PRIu64 ": pass %u of %u", cycle, slot,
                    o->rvfi_order, pass, P);
    /* the order port is 32 bits: the instruction is the one of the window it names */
    const uint64_t order = s->next + (uint32_t)(o->rvfi_order - (uint32_t)s->next);
    if ((uint32_t)(o->rvfi_order - (uint32_t)s->next) >= 0x80000000u)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u order %" PRIu64 " pass %u (pc 0x%08x) retired"
                        " again: every instruction before order %" PRIu64 " has retired",
                    cycle, slot, o->rvfi_order, pass, o->rvfi_pc, s->next);
    if (order - s->next >= SIMT_LS_WINDOW)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u order %" PRIu64 " retired while order %" PRIu64
                        " has not (more than %u instructions apart)",
                    cycle, slot, order, s->next, SIMT_LS_WINDOW);
    simt_ls_entry *e = &s->e[order % SIMT_LS_WINDOW];
    if (!e->used) {
        e->used = true;
        e->pc = o->rvfi_pc;
        e->mask = o->rvfi_mask;
        e->rd = o->rvfi_rd;
    } else if (e->pc != o->rvfi_pc || e->mask != o->rvfi_mask || e->rd != o->rvfi_rd) {
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u order %" PRIu64 ": pass %u says pc 0x%08x mask"
                        " 0x%08x rd x%u, an earlier pass pc 0x%08x mask 0x%08x rd x%u",
                    cycle, slot, order, pass, o->rvfi_pc, o->rvfi_mask, o->rvfi_rd, e->pc, e->mask, e->rd);
    }
    if (e->passes >> pass & 1)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u order %" PRIu64 " pass %u (pc 0x%08x) retired"
                        " twice",
                    cycle, slot, order, pass, o->rvfi_pc);
    e->passes |= 1u << pass;
    e->cycle = cycle;
    for (unsigned i = 0; i < ls->nl; i++) e->data[pass * ls->nl + i] = o->rvfi_data[i];
    return drain(ls, slot);
}

/* A done or fault pulse: every beat of the warp's instructions came and
 * was compared. */
static int all_retired(simt_lockstep *ls, uint64_t cycle, unsigned slot, const char *what) {
    simt_ls_slot *s = &ls->s[slot];
    for (unsigned k = 0; k < SIMT_LS_WINDOW; k++) {
        const simt_ls_entry *e = &s->e[(s->next + k) % SIMT_LS_WINDOW];
        if (!e->used) continue;
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": %s pulse of warp slot %u while order %" PRIu64
                        " (pc 0x%08x) has retired %s",
                    cycle, what, slot, s->next + k, e->pc,
                    k ? "but an older instruction has not" : "only some of its passes");
    }
    return 0;
}

int simt_lockstep_done(simt_lockstep *ls, uint64_t cycle, unsigned slot) {
    if (ls->failed) return -1;
    if (slot >= ls->nw || !ls->s[slot].active)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": done pulse of warp slot %u, which holds no warp", cycle,
                    slot);
    if (all_retired(ls, cycle, slot, "done")) return -1;
    simt_ls_slot *s = &ls->s[slot];
    simt_rec rec;
    unsigned code = 0;
    uint32_t fpc = 0;
    char buf[256];
    const int st = simt_ref_step(ls->ref, slot, &rec, &code, &fpc);
    if (st == SIMT_REF_ERROR) return fail(ls, "%s", ls->ref->err);
    if (st == SIMT_REF_RETIRED)
        return diff(ls, cycle, slot, s->next, rec.pc, "done rtl=warp done ref=mask 0x%08x still to run (insn 0x%08x)",
                    rec.mask, rec.insn);
    if (st == SIMT_REF_FAULT)
        return diff(ls, cycle, slot, s->next, fpc, "done rtl=warp done ref=%s",
                    ref_fault_text(ls->ref, code, fpc, buf, sizeof buf));
    s->active = false;
    return 0;
}

int simt_lockstep_park(simt_lockstep *ls, uint64_t cycle, unsigned slot) {
    if (ls->failed) return -1;
    if (slot >= ls->nw || !ls->s[slot].active || ls->park[slot].active)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u preempted, but it %s", cycle, slot,
                    slot >= ls->nw ? "is beyond the core's slots" : ls->park[slot].active ? "holds a parked victim"
                                                                               : "holds no warp");
    if (all_retired(ls, cycle, slot, "preemption")) return -1;
    const simt_ls_slot t = ls->park[slot];
    ls->park[slot] = ls->s[slot];
    ls->s[slot] = t; /* an idle entry, with its own window */
    ls->park_w[slot] = ls->ref->w[slot];
    memset(ls->park_w[slot].lr_addr, 0, sizeof ls->park_w[slot].lr_addr);
    ls->ref->w[slot].valid = false;
    return 0;
}

int simt_lockstep_resume(simt_lockstep *ls, uint64_t cycle, unsigned slot) {
    if (ls->failed) return -1;
    if (slot >= ls->nw || ls->s[slot].active || !ls->park[slot].active)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": warp slot %u resumed, but it %s", cycle, slot,
                    slot >= ls->nw ? "is beyond the core's slots" : ls->s[slot].active ? "still holds a warp"
                                                                           : "holds no parked victim");
    const simt_ls_slot t = ls->s[slot];
    ls->s[slot] = ls->park[slot];
    ls->park[slot] = t;
    ls->ref->w[slot] = ls->park_w[slot];
    return 0;
}

int simt_lockstep_fault(simt_lockstep *ls, uint64_t cycle, unsigned slot, unsigned code, uint32_t pc) {
    if (ls->failed) return -1;
    if (slot >= ls->nw || !ls->s[slot].active)
        return fail(ls, "simt lockstep: cycle %" PRIu64 ": fault pulse of warp slot %u, which holds no warp", cycle,
                    slot);
    if (all_retired(ls, cycle, slot, "fault")) return -1;
    simt_ls_slot *s = &ls->s[slot];
    simt_rec rec;
    unsigned rcode = 0;
    uint32_t rpc = 0;
    char buf[256];
    const int st = simt_ref_step(ls->ref, slot, &rec, &rcode, &rpc);
    if (st == SIMT_REF_ERROR) return fail(ls, "%s", ls->ref->err);
    if (st == SIMT_REF_RETIRED)
        return diff(ls, cycle, slot, s->next, rec.pc,
                    "fault rtl=%s at pc 0x%08x ref=retires mask 0x%08x (insn 0x%08x)", fault_name(code), pc, rec.mask,
                    rec.insn);
    if (st == SIMT_REF_DONE)
        return diff(ls, cycle, slot, s->next, pc, "fault rtl=%s at pc 0x%08x ref=none (every thread has exited)",
                    fault_name(code), pc);
    if (code != rcode || pc != rpc)
        return diff(ls, cycle, slot, s->next, rpc, "fault rtl=%s at pc 0x%08x ref=%s", fault_name(code), pc,
                    ref_fault_text(ls->ref, rcode, rpc, buf, sizeof buf));
    s->active = false;
    return 0;
}

/* ------------------------------------------------------------ recording */

static const char *const rec_ext[] = {".mem", ".launch", ".trace", ".memout"};
enum { REC_MEM, REC_LAUNCH, REC_TRACE, REC_MEMOUT, REC_N };

typedef struct {
    char path[REC_N][600];
    FILE *trace;
    uint8_t *written; /* one bit per memory word */
    uint32_t *init;   /* the words nonzero before cycle 0 (word addresses, ascending) */
    size_t ninit;
} recorder;

static void rec_free(recorder *rc, bool keep) {
    if (rc->trace) fclose(rc->trace);
    rc->trace = NULL;
    if (!keep)
        for (unsigned i = 0; i < REC_N; i++) remove(rc->path[i]);
    free(rc->written);
    free(rc->init);
    rc->written = NULL;
    rc->init = NULL;
}

static int rec_open(recorder *rc, const simt_run_cfg *cfg, const simt_rtl_params *p, const simt_mem *m, char *err,
                    size_t errlen) {
    memset(rc, 0, sizeof *rc);
    for (unsigned i = 0; i < REC_N; i++) snprintf(rc->path[i], sizeof rc->path[i], "%s%s", cfg->record, rec_ext[i]);
    const uint64_t words = m->size / 4, np = (m->size + SIMT_MEM_PAGE - 1) / SIMT_MEM_PAGE;
    size_t cap = 0;
    rc->written = calloc((words + 7) / 8, 1);
    FILE *f = fopen(rc->path[REC_MEM], "w");
    if (!rc->written || !f) goto fail;
    /* only pages written since the last clear can hold a nonzero word */
    for (uint64_t pg = 0; pg < np; pg++) {
        if (!m->dirty[pg]) continue;
        for (uint64_t a = pg * SIMT_MEM_PAGE; a < (pg + 1) * SIMT_MEM_PAGE && a + 4 <= m->size; a += 4) {
            const uint32_t v = simt_mem_rd32(m, a);
            if (!v) continue;
            if (rc->ninit == cap) {
                cap = cap ? 2 * cap : 4096;
                uint32_t *n = realloc(rc->init, cap * sizeof *n);
                if (!n) goto fail;
                rc->init = n;
            }
            rc->init[rc->ninit++] = (uint32_t)(a / 4);
            fprintf(f, "@%08" PRIx64 " %08x\n", a / 4, v);
        }
    }
    if (fclose(f)) { f = NULL; goto fail; }
    if (!(f = fopen(rc->path[REC_LAUNCH], "w"))) goto fail;
    fprintf(f, "config %s nw %u nl %u gto %u stack_bytes %u core_id %u local_base %08x\n", cfg->config, p->nw, p->nl,
            p->gto, p->stack_bytes, p->core_id, cfg->local_base);
    for (unsigned i = 0; i < cfg->nlaunch; i++) {
        const simt_launch *l = &cfg->launches[i];
        fprintf(f, "L %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x %08x\n", l->pc, l->param,
                l->live, l->wib, l->ctaid[0], l->ctaid[1], l->ctaid[2], l->ntid[0], l->ntid[1], l->ntid[2],
                l->nctaid[0], l->nctaid[1], l->nctaid[2], l->shmem);
    }
    if (fclose(f)) { f = NULL; goto fail; }
    f = NULL;
    if (!(rc->trace = fopen(rc->path[REC_TRACE], "w"))) goto fail;
    return 0;
fail:
    if (f) fclose(f);
    snprintf(err, errlen, "simt lockstep: cannot record to %s.*", cfg->record);
    rec_free(rc, false);
    return -1;
}

static void rec_beat(recorder *rc, uint64_t cycle, const simt_rtl_out *o, unsigned nl) {
    fprintf(rc->trace, "R %" PRIu64 " %u %u %08x %08x %u %u", cycle, o->rvfi_slot, (uint32_t)o->rvfi_order, o->rvfi_pc,
            o->rvfi_mask, o->rvfi_rd, o->rvfi_pass);
    unsigned n = 0;
    for (unsigned i = 0; i < nl && o->rvfi_rd; i++) {
        if (!(o->rvfi_mask >> (o->rvfi_pass * nl + i) & 1)) continue;
        fprintf(rc->trace, " %08x", o->rvfi_data[i]);
        n++;
    }
    fputs(n ? "\n" : " -\n", rc->trace);
}

/* the end: the trace's last line and the final values of the words the run wrote or began with */
static int rec_close(recorder *rc, uint64_t end_cycle, const simt_mem *m, char *err, size_t errlen) {
    fprintf(rc->trace, "E %" PRIu64 "\n", end_cycle);
    FILE *f = fopen(rc->path[REC_MEMOUT], "w");
    int bad = fclose(rc->trace) != 0 || !f;
    rc->trace = NULL;
    size_t k = 0;
    for (uint64_t wd = 0; f && wd < m->size / 4; wd++) {
        const bool was = k < rc->ninit && rc->init[k] == wd;
        k += was;
        if (was || (rc->written[wd / 8] >> (wd % 8) & 1))
            fprintf(f, "@%08" PRIx64 " %08x\n", wd, simt_mem_rd32(m, 4 * wd));
    }
    if (f) bad |= fclose(f) != 0;
    if (bad) {
        snprintf(err, errlen, "simt lockstep: cannot write the recording %s", rc->path[REC_MEMOUT]);
        rec_free(rc, false);
        return -1;
    }
    rec_free(rc, true);
    return 0;
}

/* ------------------------------------------------------------------ run */

static void slots_state(const simt_lockstep *ls, char *buf, size_t n) {
    size_t k = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < ls->nw && k < n; i++) {
        if (!ls->s[i].active) continue;
        const simt_ref_warp *w = &ls->ref->w[i];
        k += (size_t)snprintf(buf + k, n - k, "%s slot %u: order %" PRIu64 ", ref pc 0x%08x live 0x%08x barrier 0x%08x",
                              k ? ";" : "", i, ls->s[i].next, w->x.pc, w->live, w->bar_wait);
    }
}

int simt_lockstep_run(const simt_run_cfg *cfg, simt_mem *rtl_mem, simt_mem *ref_mem, simt_run_result *res, char *err,
                      size_t errlen) {
    memset(res, 0, sizeof *res);
    const unsigned nev = cfg->nevent, nall = cfg->nlaunch + nev;
    if (nall > sizeof res->end / sizeof res->end[0] || nev > sizeof res->ev_push / sizeof res->ev_push[0]) {
        snprintf(err, errlen, "simt lockstep: %u launches and %u events, at most %zu together and %zu events",
                 cfg->nlaunch, nev, sizeof res->end / sizeof res->end[0], sizeof res->ev_push / sizeof res->ev_push[0]);
        return -1;
    }
    simt_rtl *rtl = simt_rtl_new(cfg->config, &res->p, err, errlen);
    if (!rtl) return -1;
    if ((nev && !res->p.edge) || (res->p.edge && cfg->record)) {
        snprintf(err, errlen, "simt lockstep: %s", nev && !res->p.edge ? "events need an EDGE configuration"
                                                                       : "the recording is of the core alone");
        simt_rtl_free(rtl);
        return -1;
    }
    if (cfg->wave && simt_rtl_trace(rtl, cfg->wave)) {
        snprintf(err, errlen, "simt lockstep: cannot write %s", cfg->wave);
        simt_rtl_free(rtl);
        return -1;
    }
    simt_ref *ref = calloc(1, sizeof *ref);
    simt_lockstep *ls = calloc(1, sizeof *ls);
    simt_tbmem tb;
    simt_ref_init(ref, ref_mem, cfg->local_base, res->p.stack_bytes, res->p.core_id);
    if (simt_lockstep_init(ls, ref, res->p.nw, res->p.nl)) {
        snprintf(err, errlen, "simt lockstep: out of memory");
        simt_lockstep_free(ls);
        free(ls);
        free(ref);
        simt_rtl_free(rtl);
        return -1;
    }
    recorder recd;
    if (cfg->record && rec_open(&recd, cfg, &res->p, rtl_mem, err, errlen)) {
        simt_lockstep_free(ls);
        free(ls);
        free(ref);
        simt_rtl_free(rtl);
        return -1;
    }
    simt_tbmem_init(&tb, rtl_mem, cfg->mem_seed, cfg->max_lat, cfg->ready_pct);
    simt_rtl_reset(rtl);

    simt_rtl_in in;
    simt_rtl_out out = {0};
    unsigned next = 0, ended = 0, ev_next = 0, ev_started = 0, cpls = 0;
    uint64_t cycle = 0, gap = 0, last_end = 0;
    bool *cpl_seen = calloc(nev + 1, sizeof *cpl_seen);
    int rc = 0;
    for (; ended < nall || cpls < nev; cycle++) {
        if (cycle >= cfg->max_cycles) {
            char st[400];
            slots_state(ls, st, sizeof st);
            snprintf(err, errlen, "simt lockstep: %u of %u warps (%u events pushed, %u started, %u complete) not ended"
                     " after %" PRIu64 " cycles:%s", nall - ended, nall, ev_next, ev_started, cpls, cycle, st);
            rc = -1;
            break;
        }
        memset(&in, 0, sizeof in);
        in.local_base = cfg->local_base;
        if (res->p.edge) {
            const simt_edge_cfg *g = &cfg->edge;
            in.save_base = g->save_base;
            in.save_mask = g->save_mask;
            in.cfg_en = (uint8_t)g->en;
            in.cfg_policy = (uint8_t)g->policy;
            in.cfg_opt = (uint8_t)g->opt;
            in.cfg_save_base = (uint16_t)g->save_cycles_base;
            in.cfg_save_per_reg = (uint8_t)g->save_cycles_per_reg;
            if (ev_next < nev && cycle >= cfg->events[ev_next].at) {
                const simt_event *v = &cfg->events[ev_next];
                in.ev_valid = 1;
                in.ev_kernel = v->pc;
                in.ev_param = v->param;
                in.ev_tag = v->tag;
                in.ev_threads = (uint8_t)v->threads;
                in.ev_regs = (uint8_t)v->regs;
            }
        }
        if (next < cfg->nlaunch && gap == 0) {
            const simt_launch *l = &cfg->launches[next];
            in.launch_valid = 1;
            in.launch_pc = l->pc;
            in.launch_param = l->param;
            in.launch_live = l->live;
            in.launch_wib = l->wib;
            memcpy(in.launch_ctaid, l->ctaid, sizeof in.launch_ctaid);
            memcpy(in.launch_ntid, l->ntid, sizeof in.launch_ntid);
            memcpy(in.launch_nctaid, l->nctaid, sizeof in.launch_nctaid);
            in.launch_shmem = l->shmem;
        }
        simt_tbmem_drive(&tb, cycle, &in.mem_req_ready, &in.mem_rsp_valid, &in.mem_rsp_rdata);
        simt_rtl_eval(rtl, &in, &out);
        if (cfg->record) {
            if (out.rvfi_valid) rec_beat(&recd, cycle, &out, res->p.nl);
            if (out.done_valid) fprintf(recd.trace, "D %" PRIu64 " %u\n", cycle, out.done_slot);
            if (out.fault_valid)
                fprintf(recd.trace, "F %" PRIu64 " %u %u %08x\n", cycle, out.fault_slot, out.fault_code, out.fault_pc);
            if (out.mem_req_valid && out.mem_req_we && tb.ready && simt_mem_in(rtl_mem, out.mem_req_addr, 4))
                recd.written[out.mem_req_addr / 32] |= (uint8_t)(1u << (out.mem_req_addr / 4 % 8));
        }
        if (out.done_valid || out.fault_valid) last_end = cycle;
        if (res->p.edge && (out.err_valid || out.ev_bad)) {
            snprintf(err, errlen, "simt lockstep: cycle %" PRIu64 ": %s (PEWT error %u, controller error %u)", cycle,
                     out.err_valid ? "the PEWT or the preemption controller reports an error"
                                   : "an event refused (ev_bad_o)", out.err_code >> 2, out.err_code & 3u);
            rc = -1;
            break;
        }
        /* an ending warp: one of the launches, or an event's (its index after them) */
        if ((out.done_valid || out.fault_valid) && res->p.edge) {
            const unsigned sl = out.done_valid ? out.done_slot : out.fault_slot;
            const bool is_ev = sl < ls->nw && ls->s[sl].active && ls->s[sl].launch >= cfg->nlaunch;
            if (is_ev != (out.end_event != 0)) {
                snprintf(err, errlen, "simt lockstep: cycle %" PRIu64 ": warp slot %u ends with end_event_o=%u, but"
                         " it runs %s", cycle, sl, out.end_event, is_ev ? "an event" : "a launch");
                rc = -1;
                break;
            }
            if (is_ev) res->ev_end[ls->s[sl].launch - cfg->nlaunch] = cycle;
        }
        if (res->p.edge && out.cpl_valid) {
            unsigned k = 0;
            while (k < ev_started && (cpl_seen[k] || cfg->events[k].tag != out.cpl_tag ||
                                      !res->end[cfg->nlaunch + k].ended))
                k++;
            if (k == ev_started) {
                snprintf(err, errlen, "simt lockstep: cycle %" PRIu64 ": completion of tag %u, which no ended event"
                         " waits for", cycle, out.cpl_tag);
                rc = -1;
                break;
            }
            cpl_seen[k] = true;
            cpls++;
        }

        if (out.rvfi_valid) rc |= simt_lockstep_beat(ls, cycle, &out);
        if (out.done_valid && !rc) {
            rc |= simt_lockstep_done(ls, cycle, out.done_slot);
            if (!rc) {
                simt_launch_end *e = &res->end[ls->s[out.done_slot].launch];
                e->ended = true;
                e->slot = out.done_slot;
                e->instrs = ls->s[out.done_slot].next;
                ended++;
            }
        }
        if (out.fault_valid && !rc) {
            const unsigned launch = ls->s[out.fault_slot < SIMT_REF_SLOTS ? out.fault_slot : 0].launch;
            rc |= simt_lockstep_fault(ls, cycle, out.fault_slot, out.fault_code, out.fault_pc);
            if (!rc) {
                simt_launch_end *e = &res->end[launch];
                e->ended = e->faulted = true;
                e->slot = out.fault_slot;
                e->fault_code = out.fault_code;
                e->fault_pc = out.fault_pc;
                e->instrs = ls->s[out.fault_slot].next;
                ended++;
            }
        }
        if (!rc) {
            /* a warp starts in the lowest slot holding neither a warp nor a
             * parked victim, unless an event is pending or pushed now; busy_o
             * while a slot holds either */
            unsigned low = 0, warps = 0, parked = 0;
            while (low < ls->nw && (ls->s[low].active || ls->park[low].active)) low++;
            for (unsigned i = 0; i < ls->nw; i++) {
                warps += ls->s[i].active;
                parked += ls->park[i].active;
            }
            const bool held = res->p.edge && (ev_next > ev_started || (in.ev_valid && out.ev_ready) ||
                                              ((out.done_valid || out.fault_valid) && out.end_event));
            const bool ready = low < ls->nw && !held;
            if (out.launch_ready != ready || (ready && out.launch_slot != low) || out.busy != (warps + parked > 0)) {
                snprintf(err, errlen, "simt lockstep: cycle %" PRIu64 ": launch_ready_o=%u launch_slot_o=%u busy_o=%u"
                         " with %u warps and %u parked in %u slots (lowest free slot: %u)%s",
                         cycle, out.launch_ready, out.launch_slot, out.busy, warps, parked, ls->nw, low,
                         held ? ", an event pending" : "");
                rc = -1;
                break;
            }
            if (warps > res->max_warps) res->max_warps = warps;
        }
        /* the controller's command, carried out by the core this cycle */
        if (!rc && res->p.edge && out.cmd == PRE_CMD_START) {
            if (ev_started >= ev_next) {
                snprintf(err, errlen, "simt lockstep: cycle %" PRIu64 ": START in slot %u with no event pushed", cycle,
                         out.cmd_slot);
                rc = -1;
                break;
            }
            const simt_event *v = &cfg->events[ev_started];
            const simt_launch el = {.pc = v->pc, .param = v->param,
                                    .live = v->threads >= 32 ? 0xffffffffu : (1u << v->threads) - 1,
                                    .ntid = {v->threads, 1, 1}, .nctaid = {1, 1, 1}};
            if (out.cmd_arg & PRE_ARG_PREEMPTED) rc |= simt_lockstep_park(ls, cycle, out.cmd_slot);
            if (!rc) rc |= simt_lockstep_launch(ls, cycle, out.cmd_slot, cfg->nlaunch + ev_started, &el);
            if (!rc) ls->ref->w[out.cmd_slot].window = res->p.nw + out.cmd_slot;
            res->ev_start[ev_started++] = cycle;
        }
        if (!rc && res->p.edge && out.cmd == PRE_CMD_RESUME) rc |= simt_lockstep_resume(ls, cycle, out.cmd_slot);
        if (in.ev_valid && out.ev_ready) res->ev_push[ev_next++] = cycle;
        if (in.launch_valid && out.launch_ready && !rc) {
            rc |= simt_lockstep_launch(ls, cycle, out.launch_slot, next, &cfg->launches[next]);
            next++;
            gap = cfg->launch_gap;
        } else if (gap) {
            gap--;
        }
        if (simt_tbmem_clock(&tb, cycle, out.mem_req_valid, out.mem_req_we, out.mem_req_addr, out.mem_req_be,
                             out.mem_req_wdata)) {
            snprintf(err, errlen, "%s", tb.err);
            rc = -1;
        }
        if (rc) {
            if (ls->failed) snprintf(err, errlen, "%s", ls->err);
            break;
        }
        simt_rtl_tick(rtl);
        if (simt_rtl_error(rtl)) {
            snprintf(err, errlen, "simt_core, at the rising edge of cycle %" PRIu64 ": %s", cycle, simt_rtl_error(rtl));
            rc = -1;
            break;
        }
    }
    if (res->p.edge) {
        res->start_free = out.cnt_start_free;
        res->start_pre = out.cnt_start_pre;
        res->resumes = out.cnt_resume;
        res->aborts = out.cnt_abort;
        res->cpls = cpls;
    }
    free(cpl_seen);
    if (!rc && res->p.edge && res->resumes != res->start_pre) {
        snprintf(err, errlen, "simt lockstep: %" PRIu64 " victims preempted, %" PRIu64 " resumed", res->start_pre,
                 res->resumes);
        rc = -1;
    }
    if (!rc) {
        /* the core is idle once every warp ended, and the memories agree */
        memset(&in, 0, sizeof in);
        in.local_base = cfg->local_base;
        simt_rtl_eval(rtl, &in, &out);
        /* the save area is the core's own: the reference has none */
        const uint64_t sa = cfg->edge.save_base, sn = (uint64_t)res->p.nw * 32 * 32 * 4;
        if (res->p.edge && simt_mem_in(rtl_mem, sa, sn))
            for (uint64_t a = sa; a < sa + sn; a += 4) simt_mem_wr32(rtl_mem, a, 0);
        const int64_t d = simt_mem_diff(rtl_mem, ref_mem);
        if (out.busy || simt_tbmem_pending(&tb)) {
            snprintf(err, errlen, "simt lockstep: cycle %" PRIu64 ": every warp ended but busy_o=%u with %u reads"
                     " unanswered", cycle, out.busy, simt_tbmem_pending(&tb));
            rc = -1;
        } else if (d >= 0) {
            const uint64_t a = (uint64_t)d & ~3ull;
            snprintf(err, errlen, "simt lockstep: memory differs at the end: first at physical 0x%08" PRIx64
                     ": word 0x%08" PRIx64 " rtl=0x%08x ref=0x%08x",
                     (uint64_t)d, a, simt_mem_rd32(rtl_mem, a), simt_mem_rd32(ref_mem, a));
            rc = -1;
        }
    }
    if (cfg->record) {
        if (!rc) rc = rec_close(&recd, last_end, rtl_mem, err, errlen);
        else rec_free(&recd, false);
    }
    res->cycles = cycle;
    res->instrs = ls->st.instrs;
    res->st = ls->st;
    res->mem_reads = tb.reads;
    res->mem_writes = tb.writes;
    res->mem_stalls = tb.stalls;
    simt_tbmem_free(&tb);
    simt_rtl_free(rtl);
    simt_lockstep_free(ls);
    free(ls);
    free(ref);
    return rc;
}
