#include "simt_ref.h"

#include <stdio.h>
#include <string.h>

#include "gen/simt_core_enc.h"
#include "simt/simt_abi.h"

void simt_ref_init(simt_ref *r, simt_mem *m, uint32_t local_base, uint32_t stack_bytes, uint32_t core_id) {
    memset(r, 0, sizeof *r);
    r->m = m;
    r->local_base = local_base;
    r->stack_bytes = stack_bytes;
    r->core_id = core_id;
}

void simt_ref_launch(simt_ref *r, unsigned slot, const simt_launch *l) {
    simt_ref_warp *w = &r->w[slot];
    memset(w, 0, sizeof *w);
    w->valid = true;
    w->window = slot;
    w->live = l->live;
    for (unsigned t = 0; t < RV_LANES; t++) {
        w->x.lane_pc[t] = l->pc;
        w->x.r[1][t] = FG_EXIT_ADDR;
        w->x.r[2][t] = FG_LOCAL_TOP;
        w->x.r[10][t] = l->param;
    }
    w->x.pc = l->pc;
    memcpy(w->ids.ntid, l->ntid, sizeof w->ids.ntid);
    memcpy(w->ids.ctaid, l->ctaid, sizeof w->ids.ctaid);
    memcpy(w->ids.nctaid, l->nctaid, sizeof w->ids.nctaid);
    w->ids.wib = l->wib;
    w->ids.core = r->core_id;
    w->ids.shmem = l->shmem;
}

void simt_ref_set_reg(simt_ref *r, unsigned slot, unsigned rd, uint32_t mask, const uint32_t *values) {
    if (!rd || rd >= 32) return;
    for (unsigned t = 0; t < RV_LANES; t++)
        if (mask >> t & 1) r->w[slot].x.r[rd][t] = values[t];
}

/* cycle, time, instret and their high halves: the core's own counts */
static bool csr_counter(unsigned c) {
    return c == 0xC00 || c == 0xC01 || c == 0xC02 || c == 0xC80 || c == 0xC81 || c == 0xC82;
}

/* The CSRs this core has (docs/SIMT_RTL.md "CSRs read"): rv_exec also knows
 * fflags / frm / fcsr, which this core refuses. */
static bool csr_exists(unsigned c) {
    return csr_counter(c) || (c >= FG_CSR_TID_X && c <= FG_CSR_SHMEM) || c == FG_CSR_BARRIER;
}

/* RV32IMA + Zicsr (and MISC-MEM as a no-op, as rv_decode): the rest is ILLEGAL */
static bool op_legal(const rv_inst *in) {
    if (in->fe) return false;
    switch (in->op) {
    case OP_ILLEGAL: case OP_EBREAK: return false;
    default: return in->op < OP_FLW;
    }
}

/* A kernel address of thread t of slot s as the memory port sees it: 0, or
 * the fault code.  Misaligned before out of range, as RISC-V orders its
 * exceptions (the doc names no order; nor does the C model, which has no
 * ALIGN fault). */
static unsigned translate(const simt_ref *r, unsigned slot, unsigned t, uint32_t a, unsigned size, uint32_t *phys) {
    const uint32_t lo = FG_LOCAL_TOP - r->stack_bytes;
    if (a & (size - 1)) return SIMT_FAULT_ALIGN;
    if (a >= lo && a < FG_LOCAL_TOP) {
        *phys = r->local_base + (r->w[slot].window * 32 + t) * r->stack_bytes + (a - lo);
        return 0;
    }
    if (a >= FG_GUARD_END && a < FG_SHARED_BASE) {
        *phys = a;
        return 0;
    }
    return SIMT_FAULT_ADDR;
}

/* the warp stops: its slot is free */
static int fault(simt_ref_warp *w, unsigned code, uint32_t pc, unsigned *pcode, uint32_t *ppc) {
    w->valid = false;
    w->fault_code = code;
    w->fault_pc = pc;
    *pcode = code;
    *ppc = pc;
    return SIMT_REF_FAULT;
}

/* The threads at FG_EXIT_ADDR exit; a barrier every live thread has
 * reached opens; the group at the smallest PC issues. */
static uint32_t reconverge(simt_ref_warp *w) {
    uint32_t sched = w->live & ~w->bar_wait;
    for (uint32_t mm = sched; mm; mm &= mm - 1) {
        const unsigned t = (unsigned)__builtin_ctz(mm);
        if (w->x.lane_pc[t] == FG_EXIT_ADDR) w->live &= ~(1u << t);
    }
    if (w->bar_wait && !(w->live & ~w->bar_wait)) w->bar_wait = 0;
    sched = w->live & ~w->bar_wait;
    uint32_t minpc = UINT32_MAX, act = 0;
    for (uint32_t mm = sched; mm; mm &= mm - 1) {
        const unsigned t = (unsigned)__builtin_ctz(mm);
        const uint32_t p = w->x.lane_pc[t];
        if (p < minpc) { minpc = p; act = 1u << t; }
        else if (p == minpc) act |= 1u << t;
    }
    if (act) w->x.pc = minpc;
    return act;
}

/* Thread t's atomic on the word at p (kernel address a, operand s): the
 * value for rd (sim/simt/simt_lsu.c amo_lane). */
static uint32_t amo_thread(simt_ref *r, simt_ref_warp *w, unsigned op, unsigned t, uint32_t p, uint32_t a, uint32_t s) {
    const uint32_t old = simt_mem_rd32(r->m, p);
    uint32_t nv;
    switch (op) {
    case OP_LR:
        w->lr_addr[t] = a + 1;
        w->lr_val[t] = old;
        return old;
    case OP_SC: {
        const bool ok = w->lr_addr[t] == a + 1 && w->lr_val[t] == old;
        w->lr_addr[t] = 0;
        if (ok) simt_mem_wr32(r->m, p, s);
        return !ok;
    }
    case OP_AMOSWAP: nv = s; break;
    case OP_AMOADD: nv = old + s; break;
    case OP_AMOXOR: nv = old ^ s; break;
    case OP_AMOAND: nv = old & s; break;
    case OP_AMOOR: nv = old | s; break;
    case OP_AMOMIN: nv = (int32_t)old < (int32_t)s ? old : s; break;
    case OP_AMOMAX: nv = (int32_t)old > (int32_t)s ? old : s; break;
    case OP_AMOMINU: nv = old < s ? old : s; break;
    default: nv = old > s ? old : s; break; /* amomaxu */
    }
    simt_mem_wr32(r->m, p, nv);
    return old;
}

static int mem_op(simt_ref *r, unsigned slot, const rv_inst *in, uint32_t m, uint32_t pc, unsigned *code,
                  uint32_t *fpc) {
    simt_ref_warp *w = &r->w[slot];
    uint32_t phys[RV_LANES] = {0}, addr[RV_LANES] = {0};
    /* every thread's address first: a faulting instruction has no effect;
     * the fault is the lowest faulting thread's */
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        const unsigned t = (unsigned)__builtin_ctz(mm);
        const uint32_t a = addr[t] = w->x.r[in->rs1][t] + (uint32_t)in->imm; /* an atomic's imm is 0 */
        const unsigned c = translate(r, slot, t, a, in->size, &phys[t]);
        if (c) {
            snprintf(r->why, sizeof r->why, "%s of %u bytes at 0x%08x by thread %u", rv_op_name(in->op), in->size,
                     a, t);
            return fault(w, c, pc, code, fpc);
        }
        if (!simt_mem_in(r->m, phys[t], in->size)) {
            snprintf(r->err, sizeof r->err,
                     "simt ref: slot %u pc 0x%08x thread %u: %s at 0x%08x = physical 0x%08x beyond the %llu MiB memory",
                     slot, pc, t, rv_op_name(in->op), a, phys[t], (unsigned long long)(r->m->size >> 20));
            return SIMT_REF_ERROR;
        }
    }
    /* in thread order: of stores of one instruction to one address the last
     * thread's stays; a thread's atomic sees the threads' before it */
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        const unsigned t = (unsigned)__builtin_ctz(mm);
        if (in->flags & RVF_AMO) {
            w->x.r[in->rd][t] = amo_thread(r, w, in->op, t, phys[t], addr[t], w->x.r[in->rs2][t]);
            continue;
        }
        if (in->flags & RVF_STORE) {
            const uint32_t v = w->x.r[in->rs2][t];
            simt_mem_write(r->m, phys[t], &v, in->size);
            continue;
        }
        uint32_t v = 0;
        simt_mem_read(r->m, phys[t], &v, in->size);
        switch (in->op) {
        case OP_LB: v = (uint32_t)(int32_t)(int8_t)v; break;
        case OP_LH: v = (uint32_t)(int32_t)(int16_t)v; break;
        default: break;
        }
        w->x.r[in->rd][t] = v;
    }
    for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = pc + 4;
    return SIMT_REF_RETIRED;
}

int simt_ref_step(simt_ref *r, unsigned slot, simt_rec *rec, unsigned *code, uint32_t *fpc) {
    simt_ref_warp *w = &r->w[slot];
    r->why[0] = 0;
    if (!w->valid) {
        snprintf(r->err, sizeof r->err, "simt ref: slot %u holds no warp", slot);
        return SIMT_REF_ERROR;
    }
    const uint32_t m = reconverge(w);
    if (!m) {
        w->valid = false;
        return SIMT_REF_DONE;
    }
    const uint32_t pc = w->x.pc;
    if ((pc & 3) || pc < FG_GUARD_END || pc >= FG_SHARED_BASE) {
        snprintf(r->why, sizeof r->why, "fetch from 0x%08x", pc);
        return fault(w, SIMT_FAULT_FETCH, pc, code, fpc);
    }
    if (!simt_mem_in(r->m, pc, 4)) {
        snprintf(r->err, sizeof r->err, "simt ref: slot %u: fetch from 0x%08x beyond the %llu MiB memory", slot, pc,
                 (unsigned long long)(r->m->size >> 20));
        return SIMT_REF_ERROR;
    }
    const uint32_t word = simt_mem_rd32(r->m, pc);
    rv_inst in;
    rv_decode(word, &in);
    if (!op_legal(&in)) {
        snprintf(r->why, sizeof r->why, "illegal instruction 0x%08x", word);
        return fault(w, SIMT_FAULT_ILLEGAL, pc, code, fpc);
    }
    memset(rec, 0, sizeof *rec);
    rec->slot = slot;
    rec->order = w->order;
    rec->pc = pc;
    rec->mask = m;
    rec->insn = word;
    rec->live = w->live;
    rec->op = in.op;
    rec->rd = in.rd < 32 ? in.rd : 0;
    if (in.cls == CL_LDST) {
        const int st = mem_op(r, slot, &in, m, pc, code, fpc);
        if (st != SIMT_REF_RETIRED) return st;
    } else {
        if ((in.flags & RVF_CSR) && !csr_exists(in.csr)) {
            snprintf(r->why, sizeof r->why, "CSR 0x%03x does not exist", in.csr);
            return fault(w, SIMT_FAULT_CSR, pc, code, fpc);
        }
        uint32_t npc = pc + 4;
        char err[128];
        const int ex = rv_exec(&w->x, &w->ids, &in, m, &npc, err, sizeof err);
        switch (ex) {
        case EX_NEXT:
            for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = pc + 4;
            break;
        case EX_JUMP:
            for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = npc;
            break;
        case EX_SPLIT: break; /* rv_exec wrote the threads' PCs */
        case EX_BARRIER:
            for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = pc + 4;
            w->bar_wait |= m;
            break;
        case EX_EXIT:
            for (uint32_t mm = m; mm; mm &= mm - 1) w->x.lane_pc[__builtin_ctz(mm)] = FG_EXIT_ADDR;
            break;
        default:
            snprintf(r->why, sizeof r->why, "%s", err);
            return fault(w, (in.flags & RVF_CSR) ? SIMT_FAULT_CSR : SIMT_FAULT_ILLEGAL, pc, code, fpc);
        }
        rec->no_compare = (in.flags & RVF_CSR) && csr_counter(in.csr) && rec->rd;
    }
    if (rec->rd)
        for (unsigned t = 0; t < RV_LANES; t++) rec->values[t] = (m >> t & 1) ? w->x.r[rec->rd][t] : 0;
    w->order++;
    return SIMT_REF_RETIRED;
}
