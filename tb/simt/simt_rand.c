#include "simt_rand.h"

#include "simt/simt_abi.h"
#include "simt_tbmem.h"

/* x1 ra, x2 sp, x3 the thread's region, x4 the loop counter, x8 the
 * caller's ra and x9 the warp's shared words are written only where the
 * generator means to; x10 (a0) is a data register once the prologue has read
 * param[0], so its first write may come from some threads only (the others
 * must go on reading their launch value) */
#define R_RA 1
#define R_SP 2
#define R_REGION 3
#define R_LOOP 4
#define R_SAVE 8
#define R_WARP 9

typedef struct {
    simt_asm *a;
    uint64_t *rng;
    const simt_rand_opts *o;
    unsigned labels;
} gen;

static uint32_t rnd(gen *g, uint32_t n) { return simt_rng_below(g->rng, n); }

static unsigned data_reg(gen *g) {
    static const uint8_t d[] = {5,  6,  7,  10, 11, 12, 13, 14, 15, 16, 17, 18,
                                19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31};
    return d[rnd(g, sizeof d)];
}

/* a source: mostly a data register, sometimes x0 */
static unsigned src_reg(gen *g) { return rnd(g, 16) ? data_reg(g) : 0; }
/* a destination: now and then x0 (the result dropped) */
static unsigned dst_reg(gen *g) { return rnd(g, 32) ? data_reg(g) : 0; }

static void emit(gen *g, uint32_t w) { simt_asm_emit(g->a, w); }

static unsigned label(gen *g) { return g->labels++; }

static uint32_t rnd_value(gen *g) {
    static const uint32_t special[] = {0, 1, 0xffffffffu, 0x80000000u, 0x7fffffffu, 0xfffff800u, 0x800u, 31, 32};
    return rnd(g, 4) ? (uint32_t)simt_rng(g->rng) : special[rnd(g, sizeof special / sizeof special[0])];
}

static void alu_rr(gen *g) {
    static const uint8_t f3[] = {0, 0, 1, 2, 3, 4, 5, 5, 6, 7};
    const unsigned k = rnd(g, sizeof f3);
    emit(g, rv_r(k == 1 || k == 7 ? 0x20 : 0, src_reg(g), src_reg(g), f3[k], dst_reg(g), 0x33));
}

static void alu_imm(gen *g) {
    const unsigned f3 = rnd(g, 8), rd = dst_reg(g), rs = src_reg(g);
    if (f3 == 1) emit(g, A_SLLI(rd, rs, rnd(g, 32)));
    else if (f3 == 5) emit(g, rnd(g, 2) ? A_SRAI(rd, rs, rnd(g, 32)) : A_SRLI(rd, rs, rnd(g, 32)));
    else emit(g, rv_i((int32_t)rnd(g, 4096) - 2048, rs, f3, rd, 0x13));
}

static void mul_div(gen *g) {
    const unsigned f3 = rnd(g, 8), rd = dst_reg(g);
    unsigned a = src_reg(g), b = src_reg(g);
    if (f3 >= 4 && rnd(g, 3) == 0) {
        /* the corner cases: x / 0, INT_MIN / -1 */
        a = data_reg(g);
        b = data_reg(g);
        if (a == b) b = a == 5 ? 6 : 5;
        if (rnd(g, 2)) {
            emit(g, A_ADDI(b, 0, 0));
        } else {
            emit(g, A_LUI(a, 0x80000));
            emit(g, A_ADDI(b, 0, -1));
        }
    }
    emit(g, rv_r(1, b, a, f3, rd, 0x33));
}

static void upper(gen *g) {
    const uint32_t imm = (uint32_t)simt_rng(g->rng) & 0xfffff;
    emit(g, rnd(g, 2) ? A_LUI(dst_reg(g), imm) : A_AUIPC(dst_reg(g), imm));
}

/* a load or store of the thread's stack ([sp - SIMT_RAND_STACK, sp)) or
 * region ([x3, x3 + REGION)), at a fixed offset or at one from the thread's
 * data */
static void mem(gen *g) {
    const bool stack = rnd(g, 2), store = rnd(g, 5) < 2;
    const unsigned size_log = rnd(g, 3), size = 1u << size_log;
    const unsigned span = stack ? SIMT_RAND_STACK : SIMT_RAND_REGION;
    unsigned base = stack ? R_SP : R_REGION;
    int32_t off;
    if (rnd(g, 3) == 0) {
        const unsigned t = data_reg(g);
        unsigned v = data_reg(g);
        if (store && v == t) v = 0;
        emit(g, A_ANDI(t, data_reg(g), (int32_t)((span - 1) & ~(size - 1))));
        emit(g, stack ? A_SUB(t, R_SP, t) : A_ADD(t, R_REGION, t));
        base = t;
        off = stack ? -(int32_t)size : 0;
        if (store) {
            emit(g, rv_s(off, v, base, size_log, 0x23));
            return;
        }
    } else {
        off = (int32_t)(rnd(g, span / size) * size);
        if (stack) off -= (int32_t)span;
    }
    if (store) {
        emit(g, rv_s(off, src_reg(g), base, size_log, 0x23));
    } else {
        unsigned f3 = size_log;
        if (size_log < 2 && rnd(g, 2)) f3 |= 4; /* lbu, lhu */
        emit(g, rv_i(off, base, f3, dst_reg(g), 0x03));
    }
}

/* a data register other than the ones given (0: none) */
static unsigned other_reg(gen *g, unsigned a, unsigned b, unsigned c) {
    for (;;) {
        const unsigned r = data_reg(g);
        if (r != a && r != b && r != c) return r;
    }
}

/* t = a word of the thread's own (region or stack) or of its warp's shared
 * words, at a fixed index or at one from the thread's data */
static void amo_addr(gen *g, unsigned t) {
    const unsigned where = rnd(g, 3); /* region, stack, warp */
    const unsigned words = where == 2 ? SIMT_RAND_WARP_WORDS : (where ? SIMT_RAND_STACK : SIMT_RAND_REGION) / 4;
    const unsigned base = where == 2 ? R_WARP : where ? R_SP : R_REGION;
    if (rnd(g, 3) == 0) {
        emit(g, A_ANDI(t, data_reg(g), (int32_t)(4 * (words - 1))));
        if (where == 1) {
            emit(g, A_SUB(t, R_SP, t));
            emit(g, A_ADDI(t, t, -4));
        } else {
            emit(g, A_ADD(t, base, t));
        }
    } else {
        const int32_t k = (int32_t)rnd(g, words);
        emit(g, A_ADDI(t, base, where == 1 ? -4 * (k + 1) : 4 * k));
    }
}

static const uint8_t amo_ops[] = {RV_AMOSWAP, RV_AMOADD, RV_AMOXOR, RV_AMOAND, RV_AMOOR,
                                  RV_AMOMIN,  RV_AMOMAX, RV_AMOMINU, RV_AMOMAXU};

/* An atomic item (o->atomics): an AMO, an AMO on a word all warps share, an
 * LR / SC pair, or an LR / SC retry loop (every round one SC per word
 * succeeds: the loop's threads are the only ones on their words between
 * its LR and SC). */
static void atomic(gen *g) {
    const unsigned k = rnd(g, 10);
    const unsigned t = data_reg(g);
    if (k < 4) {
        amo_addr(g, t);
        emit(g, A_AMO(amo_ops[rnd(g, sizeof amo_ops)], dst_reg(g), src_reg(g), t));
    } else if (k < 6) {
        static const uint8_t order_free[8] = {RV_AMOADD, RV_AMOXOR, RV_AMOOR,  RV_AMOAND,
                                              RV_AMOMIN, RV_AMOMAX, RV_AMOMINU, RV_AMOMAXU};
        const unsigned w = rnd(g, SIMT_RAND_COMMON_WORDS);
        simt_asm_li(g->a, t, g->o->amo_base + 4 * w);
        emit(g, A_AMO(order_free[w % 8], 0, src_reg(g), t));
    } else if (k < 9) {
        const unsigned v = other_reg(g, t, 0, 0);
        amo_addr(g, t);
        if (k != 8 || rnd(g, 2)) emit(g, A_LR(v, t)); /* else an SC with no LR of its own just before */
        for (unsigned i = rnd(g, 3); i; i--) emit(g, A_XORI(other_reg(g, t, 0, 0), src_reg(g), (int32_t)rnd(g, 2048)));
        if (k == 8) amo_addr(g, t); /* most likely another word */
        emit(g, A_SC(dst_reg(g), src_reg(g), t));
    } else {
        const unsigned v = other_reg(g, t, 0, 0), n = other_reg(g, t, v, 0), r = other_reg(g, t, v, n);
        const unsigned top = label(g);
        amo_addr(g, t);
        simt_asm_label(g->a, top);
        emit(g, A_LR(v, t));
        emit(g, rnd(g, 2) ? A_ADDI(n, v, (int32_t)rnd(g, 64) + 1) : A_ADD(n, v, src_reg(g)));
        emit(g, A_SC(r, n, t));
        simt_asm_branch(g->a, RV_BNE, r, 0, top);
    }
}

static void csr_read(gen *g) {
    static const uint16_t ids[] = {FG_CSR_TID_X,   FG_CSR_TID_Y,   FG_CSR_CTAID_X, FG_CSR_NTID_X,
                                   FG_CSR_NCTAID_X, FG_CSR_LANEID, FG_CSR_WARPID,  FG_CSR_COREID,
                                   FG_CSR_SHMEM,   FG_CSR_BARRIER, FG_CSR_NTID_Y,  FG_CSR_CTAID_Z};
    static const uint16_t counters[] = {0xC00, 0xC01, 0xC02, 0xC80, 0xC81, 0xC82};
    const unsigned rd = dst_reg(g);
    const uint32_t csr = g->o->counters && rnd(g, 8) == 0 ? counters[rnd(g, 6)]
                                                           : ids[rnd(g, sizeof ids / sizeof ids[0])];
    switch (rnd(g, 4)) { /* the reading forms: csrrs / csrrc with x0, csrrsi / csrrci with 0 */
    case 0: emit(g, rv_i((int32_t)csr, 0, 3, rd, 0x73)); break;
    case 1: emit(g, rv_i((int32_t)csr, 0, 6 + rnd(g, 2), rd, 0x73)); break;
    default: emit(g, A_CSRR(rd, csr)); break;
    }
}

/* a condition that differs between threads: a few low bits of a register
 * against a small constant */
static void lane_branch(gen *g, unsigned lbl) {
    static const uint8_t f3[] = {RV_BEQ, RV_BNE, RV_BLT, RV_BGE, RV_BLTU, RV_BGEU};
    const unsigned a = data_reg(g);
    unsigned b = data_reg(g);
    if (a == b) b = a == 5 ? 6 : 5;
    if (rnd(g, 4)) {
        emit(g, A_ANDI(a, data_reg(g), (int32_t)rnd(g, 8)));
        emit(g, A_ADDI(b, 0, (int32_t)rnd(g, 8)));
    }
    simt_asm_branch(g->a, f3[rnd(g, sizeof f3)], a, b, lbl);
}

/* where the random items may be: nesting depth, inside a loop (x4 is its
 * count), inside a called function (ra is its return) */
typedef struct {
    unsigned depth;
    bool loop, call;
} ctx;

static void block(gen *g, ctx c, unsigned n);

/* a jalr to one of four targets by the thread's data: a jump table of jals */
static void switch4(gen *g, ctx c) {
    const unsigned t = data_reg(g), end = label(g);
    unsigned u = data_reg(g);
    if (u == t) u = t == 5 ? 6 : 5;
    unsigned arm[4];
    for (unsigned k = 0; k < 4; k++) arm[k] = label(g);
    emit(g, A_ANDI(u, data_reg(g), 3));
    emit(g, A_SLLI(u, u, 2));
    emit(g, A_AUIPC(t, 0));
    emit(g, A_ADD(t, t, u));
    emit(g, A_JALR(rnd(g, 2) ? 0 : dst_reg(g), t, 12)); /* auipc + 12: the table */
    for (unsigned k = 0; k < 4; k++) simt_asm_jal(g->a, 0, arm[k]);
    for (unsigned k = 0; k < 4; k++) {
        simt_asm_label(g->a, arm[k]);
        block(g, c, 1 + rnd(g, 3));
        if (k < 3) simt_asm_jal(g->a, 0, end);
    }
    simt_asm_label(g->a, end);
}

/* a call of a function placed just after it: jal ra; the function returns
 * through ra, which is saved around it */
static void call(gen *g, ctx c) {
    const unsigned fn = label(g), after = label(g);
    emit(g, A_ADDI(R_SAVE, R_RA, 0));
    simt_asm_jal(g->a, R_RA, fn);
    emit(g, A_ADDI(R_RA, R_SAVE, 0));
    simt_asm_jal(g->a, 0, after);
    simt_asm_label(g->a, fn);
    c.call = true;
    block(g, c, 1 + rnd(g, 6));
    emit(g, A_JALR(0, R_RA, 0));
    simt_asm_label(g->a, after);
}

static void item(gen *g, ctx c) {
    const bool ctrl = g->labels + 8 < SIMT_ASM_LABELS;
    ctx in = c;
    in.depth++;
    const unsigned k = rnd(g, 100);
    if (k < 20) alu_rr(g);
    else if (k < 36) alu_imm(g);
    else if (k < 40) upper(g);
    else if (k < 50) mul_div(g);
    else if (k < 68) {
        if (g->o->atomics && rnd(g, 3) == 0 && ctrl) atomic(g);
        else mem(g);
    }
    else if (k < 73) csr_read(g);
    else if (k < 82 && ctrl && c.depth < 3) {
        /* if (cond) { ... } and if/else */
        const unsigned skip = label(g);
        lane_branch(g, skip);
        block(g, in, 1 + rnd(g, 6));
        if (rnd(g, 3) == 0) {
            const unsigned end = label(g);
            simt_asm_jal(g->a, 0, end);
            simt_asm_label(g->a, skip);
            block(g, in, 1 + rnd(g, 4));
            simt_asm_label(g->a, end);
        } else {
            simt_asm_label(g->a, skip);
        }
    } else if (k < 87 && ctrl && !c.loop && c.depth < 2) {
        /* a loop of 1..8 iterations, the count from the thread's data */
        const unsigned top = label(g);
        emit(g, A_ANDI(R_LOOP, data_reg(g), 7));
        emit(g, A_ADDI(R_LOOP, R_LOOP, 1));
        simt_asm_label(g->a, top);
        in.loop = true;
        block(g, in, 1 + rnd(g, 5));
        emit(g, A_ADDI(R_LOOP, R_LOOP, -1));
        simt_asm_branch(g->a, RV_BNE, R_LOOP, 0, top);
    } else if (k < 90 && ctrl && c.depth < 3) {
        switch4(g, in);
    } else if (k < 92 && ctrl && !c.call && c.depth < 3) {
        call(g, in);
    } else if (k < 94 && g->o->barriers) {
        emit(g, rnd(g, 2) ? A_CSRRW(0, FG_CSR_BARRIER, 0) : A_CSRRWI(dst_reg(g), FG_CSR_BARRIER, 1 + rnd(g, 31)));
    } else if (k < 95 && g->o->exits && ctrl) {
        /* the threads that do not branch leave here (a return leaves only outside a call) */
        const unsigned stay = label(g);
        lane_branch(g, stay);
        emit(g, rnd(g, 2) || c.call ? A_ECALL : A_JALR(0, R_RA, 0));
        simt_asm_label(g->a, stay);
    } else if (k < 96) {
        emit(g, rnd(g, 2) ? A_FENCE : 0x0000100fu); /* fence, fence.i: no-ops */
    } else {
        alu_rr(g);
    }
}

static void block(gen *g, ctx c, unsigned n) {
    for (unsigned i = 0; i < n; i++) item(g, c);
}

int simt_rand_program(simt_asm *a, uint64_t *rng, const simt_rand_opts *o, char *err, unsigned errlen) {
    gen g = {a, rng, o, 0};
    /* x3 = param[0] + (ctaid.x * ntid.x + tid.x) * REGION */
    emit(&g, A_LW(R_REGION, 10, 0));
    emit(&g, A_CSRR(5, FG_CSR_CTAID_X));
    emit(&g, A_CSRR(6, FG_CSR_NTID_X));
    emit(&g, A_MUL(5, 5, 6));
    emit(&g, A_CSRR(6, FG_CSR_TID_X));
    emit(&g, A_ADD(5, 5, 6));
    /* x9 = the warp's shared words */
    simt_asm_li(a, R_WARP, o->amo_base + 4 * SIMT_RAND_COMMON_WORDS);
    emit(&g, A_SRLI(6, 5, 5));
    emit(&g, A_SLLI(6, 6, __builtin_ctz(4 * SIMT_RAND_WARP_WORDS)));
    emit(&g, A_ADD(R_WARP, R_WARP, 6));
    emit(&g, A_SLLI(5, 5, __builtin_ctz(SIMT_RAND_REGION)));
    emit(&g, A_ADD(R_REGION, R_REGION, 5));
    /* every data register but a0 a different function of the thread */
    emit(&g, A_CSRR(5, FG_CSR_LANEID));
    for (unsigned r = 6; r < 32; r++) {
        if (r == 10 || r == R_SAVE || r == R_WARP) continue;
        simt_asm_li(a, r, rnd_value(&g));
        switch (rnd(&g, 4)) {
        case 0: emit(&g, A_ADD(r, r, 5)); break;
        case 1: emit(&g, A_MUL(r, r, 5)); break;
        case 2: emit(&g, rv_r(0, 5, r, 1, r, 0x33)); break; /* sll by the lane */
        default: emit(&g, rv_r(0, 5, r, 4, r, 0x33)); break; /* xor */
        }
    }
    emit(&g, A_ADDI(5, 5, (int32_t)rnd(&g, 64)));
    block(&g, (ctx){0, false, false}, o->items);
    /* every register into the region: the memory images compare them too */
    for (unsigned r = 1; r < 32; r++) emit(&g, A_SW(r, R_REGION, (int32_t)(4 * (r - 1))));
    emit(&g, rnd(&g, 2) ? A_ECALL : A_JALR(0, R_RA, 0));
    return simt_asm_end(a, err, errlen);
}
