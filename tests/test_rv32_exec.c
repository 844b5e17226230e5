/* rv32_exec alone: instructions encoded here, decoded by rv_decode and
 * executed on a lane context (rv_lanes) with no core or GPU around it —
 * integer and M, branches and jumps (uniform and divergent), F, CSRs
 * (ids, counters, FP CSRs, barrier, faults), masked lanes and x0. */
#include <math.h>
#include <string.h>

#include "fg_tb.h"
#include "simt/rv32_exec.h"
#include "simt/simt_abi.h"

#define FULL 0xffffffffu
#define F(n) (32 + (n)) /* unified number of f<n> */

/* ---- encoders (RISC-V unprivileged spec, chapter 2 formats) ---- */
static uint32_t R(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd, unsigned opc) {
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t I(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned opc) {
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t B(int32_t off, unsigned rs2, unsigned rs1, unsigned f3) {
    uint32_t o = (uint32_t)off;
    return (o >> 12 & 1) << 31 | (o >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (o >> 1 & 0xf) << 8 |
           (o >> 11 & 1) << 7 | 0x63;
}
static uint32_t J(int32_t off, unsigned rd) {
    uint32_t o = (uint32_t)off;
    return (o >> 20 & 1) << 31 | (o >> 1 & 0x3ff) << 21 | (o >> 11 & 1) << 20 | (o >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}
static uint32_t CSR(unsigned csr, unsigned rs1, unsigned f3, unsigned rd) { return csr << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x73; }

static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

typedef struct {
    rv_lanes x;
    rv_csr_ids id;
    char err[128];
    uint32_t npc;
} ctx;

static void init(ctx *c) {
    memset(c, 0, sizeof *c);
    c->x.pc = 0x1000;
    for (unsigned l = 0; l < RV_LANES; l++) {
        c->x.r[5][l] = l;              /* t0 = lane */
        c->x.r[6][l] = 100 - 7 * l;    /* t1 */
        c->x.r[7][l] = 3;              /* t2 */
    }
}

static int ex(ctx *c, uint32_t word, uint32_t m) {
    rv_inst in;
    rv_decode(word, &in);
    assert_int_not_equal(in.op, OP_ILLEGAL);
    c->npc = 0xdeadbeef;
    return rv_exec(&c->x, &c->id, &in, m, &c->npc, c->err, sizeof c->err);
}

static void test_integer(void **st) {
    (void)st;
    ctx c;
    init(&c);
    assert_int_equal(ex(&c, R(0, 6, 5, 0, 10, 0x33), FULL), EX_NEXT);       /* add a0, t0, t1 */
    assert_int_equal(ex(&c, R(0x20, 6, 5, 0, 11, 0x33), FULL), EX_NEXT);    /* sub a1, t0, t1 */
    assert_int_equal(ex(&c, R(0, 6, 5, 2, 12, 0x33), FULL), EX_NEXT);       /* slt a2, t0, t1 */
    assert_int_equal(ex(&c, I(0x400 | 2, 11, 5, 13, 0x13), FULL), EX_NEXT); /* srai a3, a1, 2 */
    assert_int_equal(ex(&c, I(-5, 5, 0, 14, 0x13), FULL), EX_NEXT);         /* addi a4, t0, -5 */
    assert_int_equal(ex(&c, 0x12345000u | 15 << 7 | 0x37, FULL), EX_NEXT);  /* lui a5, 0x12345 */
    assert_int_equal(ex(&c, 0x00002000u | 16 << 7 | 0x17, FULL), EX_NEXT);  /* auipc a6, 2 */
    for (unsigned l = 0; l < RV_LANES; l++) {
        int32_t t0 = (int32_t)l, t1 = 100 - 7 * (int32_t)l;
        assert_int_equal(c.x.r[10][l], (uint32_t)(t0 + t1));
        assert_int_equal(c.x.r[11][l], (uint32_t)(t0 - t1));
        assert_int_equal(c.x.r[12][l], t0 < t1);
        assert_int_equal(c.x.r[13][l], (uint32_t)((t0 - t1) >> 2));
        assert_int_equal(c.x.r[14][l], (uint32_t)(t0 - 5));
        assert_int_equal(c.x.r[15][l], 0x12345000u);
        assert_int_equal(c.x.r[16][l], 0x1000u + 0x2000u);
    }
    /* M: mul, div by zero, remu (RISC-V defined results) */
    c.x.r[7][3] = 0;
    assert_int_equal(ex(&c, R(1, 6, 5, 0, 17, 0x33), FULL), EX_NEXT); /* mul a7, t0, t1 */
    assert_int_equal(ex(&c, R(1, 7, 6, 4, 28, 0x33), FULL), EX_NEXT); /* div t3, t1, t2 */
    assert_int_equal(ex(&c, R(1, 7, 6, 7, 29, 0x33), FULL), EX_NEXT); /* remu t4, t1, t2 */
    for (unsigned l = 0; l < RV_LANES; l++) {
        int32_t t1 = 100 - 7 * (int32_t)l;
        assert_int_equal(c.x.r[17][l], (uint32_t)((int32_t)l * t1));
        assert_int_equal(c.x.r[28][l], l == 3 ? 0xffffffffu : (uint32_t)(t1 / 3));
        assert_int_equal(c.x.r[29][l], l == 3 ? (uint32_t)t1 : (uint32_t)t1 % 3u);
    }
    /* only the lanes of the mask are written; x0 is never written */
    assert_int_equal(ex(&c, I(77, 0, 0, 10, 0x13), 0x0000f00fu), EX_NEXT); /* addi a0, x0, 77 */
    for (unsigned l = 0; l < RV_LANES; l++)
        assert_int_equal(c.x.r[10][l], (0x0000f00fu >> l & 1) ? 77u : (uint32_t)(l + 100 - 7 * l));
    assert_int_equal(ex(&c, I(5, 5, 0, 0, 0x13), FULL), EX_NEXT); /* addi x0, t0, 5 */
    for (unsigned l = 0; l < RV_LANES; l++) assert_int_equal(c.x.r[0][l], 0);
}

static void test_control(void **st) {
    (void)st;
    ctx c;
    init(&c);
    /* beq t2, t2: every lane agrees -> a jump, no divergence */
    assert_int_equal(ex(&c, B(64, 7, 7, 0), FULL), EX_JUMP);
    assert_int_equal(c.npc, 0x1040);
    /* bne t2, t2: no lane takes it -> fall through */
    assert_int_equal(ex(&c, B(64, 7, 7, 1), FULL), EX_NEXT);
    /* blt t0, t2 with a mask: lanes 0..2 of the active ones jump, the rest fall through */
    uint32_t m = 0x0000ff0fu;
    assert_int_equal(ex(&c, B(-16, 7, 5, 4), m), EX_SPLIT);
    for (unsigned l = 0; l < RV_LANES; l++)
        if (m >> l & 1) assert_int_equal(c.x.lane_pc[l], l < 3 ? 0x1000u - 16 : 0x1004u);
    /* blt t0, t2 with only lanes 0..2 active: uniform again */
    assert_int_equal(ex(&c, B(-16, 7, 5, 4), 0x7), EX_JUMP);
    assert_int_equal(c.npc, 0x1000 - 16);
    /* jal ra: link and jump */
    assert_int_equal(ex(&c, J(0x800, 1), FULL), EX_JUMP);
    assert_int_equal(c.npc, 0x1800);
    for (unsigned l = 0; l < RV_LANES; l++) assert_int_equal(c.x.r[1][l], 0x1004);
    /* jalr ra, 0(t0*4 + 0x2000): per-lane targets -> split, rd written after the targets were read */
    for (unsigned l = 0; l < RV_LANES; l++) c.x.r[1][l] = 0x2000 + 4 * l;
    assert_int_equal(ex(&c, I(0, 1, 0, 1, 0x67), FULL), EX_SPLIT);
    for (unsigned l = 0; l < RV_LANES; l++) {
        assert_int_equal(c.x.lane_pc[l], 0x2000 + 4 * l);
        assert_int_equal(c.x.r[1][l], 0x1004);
    }
    /* jalr x0, 8(t2): same target everywhere -> jump */
    assert_int_equal(ex(&c, I(8, 7, 0, 0, 0x67), FULL), EX_JUMP);
    assert_int_equal(c.npc, 11 & ~1u);
    assert_int_equal(ex(&c, 0x00000073u, FULL), EX_EXIT);  /* ecall */
    assert_int_equal(ex(&c, 0x00100073u, FULL), EX_FAULT); /* ebreak */
    assert_non_null(strstr(c.err, "ebreak at pc 0x00001000"));
}

static void test_fp(void **st) {
    (void)st;
    ctx c;
    init(&c);
    for (unsigned l = 0; l < RV_LANES; l++) {
        c.x.r[F(1)][l] = fbits(1.5f * (float)l - 7.0f);
        c.x.r[F(2)][l] = fbits(0.25f + (float)l);
        c.x.r[F(3)][l] = fbits(-2.0f);
    }
    c.x.r[F(1)][5] = 0x7fc00001u; /* a NaN */
    assert_int_equal(ex(&c, R(0x00, 2, 1, 7, 4, 0x53), FULL), EX_NEXT);          /* fadd.s f4, f1, f2 */
    assert_int_equal(ex(&c, R(0x0c, 2, 1, 7, 5, 0x53), FULL), EX_NEXT);          /* fdiv.s f5, f1, f2 */
    assert_int_equal(ex(&c, R(0x2c, 0, 2, 7, 6, 0x53), FULL), EX_NEXT);          /* fsqrt.s f6, f2 */
    assert_int_equal(ex(&c, R(0x14, 2, 1, 0, 7, 0x53), FULL), EX_NEXT);          /* fmin.s f7, f1, f2 */
    assert_int_equal(ex(&c, 3u << 27 | R(0, 2, 1, 7, 8, 0x43), FULL), EX_NEXT);  /* fmadd.s f8, f1, f2, f3 */
    assert_int_equal(ex(&c, R(0x10, 3, 1, 1, 9, 0x53), FULL), EX_NEXT);          /* fsgnjn.s f9, f1, f3 */
    assert_int_equal(ex(&c, R(0x60, 0, 1, 1, 10, 0x53), FULL), EX_NEXT);         /* fcvt.w.s a0, f1, rtz */
    assert_int_equal(ex(&c, R(0x50, 2, 1, 2, 11, 0x53), FULL), EX_NEXT);         /* feq.s a1, f1, f2 */
    assert_int_equal(ex(&c, R(0x70, 0, 1, 1, 12, 0x53), FULL), EX_NEXT);         /* fclass.s a2, f1 */
    assert_int_equal(ex(&c, R(0x68, 0, 6, 7, 10, 0x53), FULL), EX_NEXT);         /* fcvt.s.w f10, t1 */
    for (unsigned l = 0; l < RV_LANES; l++) {
        float a = 1.5f * (float)l - 7.0f, b = 0.25f + (float)l;
        if (l == 5) {
            assert_int_equal(c.x.r[F(4)][l], 0x7fc00000u); /* canonical NaN */
            assert_int_equal(c.x.r[F(7)][l], fbits(b));    /* fmin of NaN and b = b */
            assert_int_equal(c.x.r[10][l], 0x7fffffffu);   /* fcvt.w.s of NaN */
            assert_int_equal(c.x.r[12][l], 1u << 9);       /* quiet NaN */
        } else {
            assert_int_equal(c.x.r[F(4)][l], fbits(a + b));
            assert_int_equal(c.x.r[F(5)][l], fbits(a / b));
            assert_int_equal(c.x.r[F(7)][l], fbits(a < b ? a : b));
            assert_int_equal(c.x.r[F(8)][l], fbits(fmaf(a, b, -2.0f)));
            assert_int_equal(c.x.r[F(9)][l], fbits(fabsf(a)));
            assert_int_equal(c.x.r[10][l], (uint32_t)(int32_t)truncf(a));
            assert_int_equal(c.x.r[11][l], a == b);
            assert_int_equal(c.x.r[12][l], a < 0 ? 1u << 1 : a == 0 ? 1u << 4 : 1u << 6);
        }
        assert_int_equal(c.x.r[F(6)][l], fbits(sqrtf(b)));
        assert_int_equal(c.x.r[F(10)][l], fbits((float)(int32_t)(100 - 7 * (int32_t)l)));
    }
}

static void test_csr(void **st) {
    (void)st;
    ctx c;
    init(&c);
    const uint32_t ntid[3] = {5, 4, 3}, ctaid[3] = {2, 1, 0}, nctaid[3] = {3, 2, 2};
    memcpy(c.id.ntid, ntid, sizeof ntid);
    memcpy(c.id.ctaid, ctaid, sizeof ctaid);
    memcpy(c.id.nctaid, nctaid, sizeof nctaid);
    c.id.wib = 1;
    c.id.core = 7;
    c.id.shmem = 4096;
    c.id.cycle = 0x100000005ull;
    c.id.instret = 42;
    static const struct { unsigned csr, reg; } rd[] = {
        {FG_CSR_TID_X, 10}, {FG_CSR_TID_Y, 11}, {FG_CSR_TID_Z, 12}, {FG_CSR_CTAID_X, 13}, {FG_CSR_NTID_Y, 14},
        {FG_CSR_NCTAID_Z, 15}, {FG_CSR_LANEID, 16}, {FG_CSR_WARPID, 17}, {FG_CSR_COREID, 18}, {FG_CSR_SHMEM, 19},
        {0xC00, 20}, {0xC80, 21}, {0xC02, 22}};
    for (unsigned i = 0; i < sizeof rd / sizeof rd[0]; i++)
        assert_int_equal(ex(&c, CSR(rd[i].csr, 0, 2, rd[i].reg), 0x0fffffffu), EX_NEXT); /* csrr */
    for (unsigned l = 0; l < 28; l++) {
        uint32_t t = 32 + l; /* warp 1 of a 5x4x3 block */
        assert_int_equal(c.x.r[10][l], t % 5);
        assert_int_equal(c.x.r[11][l], (t / 5) % 4);
        assert_int_equal(c.x.r[12][l], t / 20);
        assert_int_equal(c.x.r[13][l], 2);
        assert_int_equal(c.x.r[14][l], 4);
        assert_int_equal(c.x.r[15][l], 2);
        assert_int_equal(c.x.r[16][l], l);
        assert_int_equal(c.x.r[17][l], 1);
        assert_int_equal(c.x.r[18][l], 7);
        assert_int_equal(c.x.r[19][l], 4096);
        assert_int_equal(c.x.r[20][l], 5);
        assert_int_equal(c.x.r[21][l], 1);
        assert_int_equal(c.x.r[22][l], 42);
    }
    /* frm via csrrwi, then fcvt.w.s with the dynamic rounding mode (rm = 7) */
    assert_int_equal(ex(&c, CSR(0x002, 2 /* RDN */, 5, 0), FULL), EX_NEXT);
    assert_int_equal(c.x.frm, 2);
    c.x.r[F(1)][0] = fbits(-1.5f);
    c.x.r[F(1)][1] = fbits(2.5f);
    assert_int_equal(ex(&c, R(0x60, 0, 1, 7, 10, 0x53), 3), EX_NEXT);
    assert_int_equal(c.x.r[10][0], (uint32_t)-2);
    assert_int_equal(c.x.r[10][1], 2);
    /* fcsr = frm << 5 | fflags (NX: -1.5 and 2.5 are not integers) */
    assert_int_equal(ex(&c, CSR(0x003, 0, 2, 10), 1), EX_NEXT);
    assert_int_equal(c.x.r[10][0], 2u << 5 | 1u);
    /* the barrier CSR; a read-only id CSR written; a CSR that does not exist */
    assert_int_equal(ex(&c, CSR(FG_CSR_BARRIER, 5, 1, 0), FULL), EX_BARRIER);
    assert_int_equal(ex(&c, CSR(FG_CSR_TID_X, 5, 1, 0), FULL), EX_FAULT);
    assert_non_null(strstr(c.err, "read-only CSR 0xcc0"));
    assert_int_equal(ex(&c, CSR(0x7c0, 0, 2, 10), FULL), EX_FAULT);
    assert_non_null(strstr(c.err, "illegal CSR 0x7c0"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integer), cmocka_unit_test(test_control), cmocka_unit_test(test_fp),
        cmocka_unit_test(test_csr),
    };
    return cmocka_run_group_tests_name("rv32_exec", tests, NULL, NULL);
}
