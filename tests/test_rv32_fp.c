/* rv32_fp (F extension: results, exception flags, rounding modes) against
 * GNU MPFR as the reference: every rounded operation (fadd fsub fmul fdiv
 * fsqrt, the four fused multiply-adds, fcvt.s.w[u]) in all five rounding
 * modes on random and edge operands (zeros, subnormals, the normal/subnormal
 * boundary, FLT_MAX, infinities, quiet and signalling NaNs, and short
 * significands that make exact ties); then directed cases of the operations
 * rv32_fp decides itself (RMM ties, fcvt.w[u].s, fmin/fmax, compares),
 * reserved rounding modes, flag accumulation, and that the host's
 * environment neither leaks in nor is left changed.
 *
 * The reference computes the exact result (or, for fdiv and fsqrt, one with
 * a sticky bit below 300 bits), rounds it to float with MPFR's subnormal
 * emulation (mpfr_subnormalize) in RNE/RTZ/RDN/RUP, and takes RMM as the
 * nearer of the RTZ and away-from-zero results, a tie going away.  Flags:
 * NX = inexact, OF = MPFR's overflow, UF = tiny after rounding (to 24 bits,
 * unbounded exponent) and inexact, NV and DZ from the IEEE 754 rules. */
#include <fenv.h>
#include <math.h>
#include <stdio.h> /* before mpfr.h */
#include <mpfr.h>
#include <string.h>

#include "fg_tb.h"
#include "simt/rv32.h"
#include "simt/rv32_exec.h"
#include "simt/rv32_fp.h"

static float f32(uint32_t x) { float f; memcpy(&f, &x, 4); return f; }
static uint32_t u32(float f) { uint32_t x; memcpy(&x, &f, 4); return x; }
static bool nan_u(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
static bool snan_u(uint32_t x) { return nan_u(x) && !(x & 0x400000u); }
static bool inf_u(uint32_t x) { return (x & 0x7fffffffu) == 0x7f800000u; }
static bool zero_u(uint32_t x) { return (x & 0x7fffffffu) == 0; }

static const char *const rm_name[5] = {"rne", "rtz", "rdn", "rup", "rmm"};
static const mpfr_rnd_t mrnd[4] = {MPFR_RNDN, MPFR_RNDZ, MPFR_RNDD, MPFR_RNDU};

/* rounds exact X to float (subnormals emulated); *t = ternary */
static uint32_t to_float(mpfr_t X, mpfr_rnd_t r, int *t, int *ovf) {
    mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
    mpfr_t R;
    mpfr_init2(R, 24);
    mpfr_set_emin(-148);
    mpfr_set_emax(128);
    mpfr_clear_flags();
    *t = mpfr_set(R, X, r);
    *t = mpfr_check_range(R, *t, r);
    *t = mpfr_subnormalize(R, *t, r);
    *ovf = mpfr_overflow_p();
    uint32_t v = u32(mpfr_get_flt(R, MPFR_RNDN));
    mpfr_set_emin(emin);
    mpfr_set_emax(emax);
    mpfr_clear(R);
    return v;
}

/* |X rounded to 24 bits with unbounded exponent in mode rm| < 2^-126 */
static bool tiny(mpfr_t X, unsigned rm) {
    mpfr_t R, Z, A, d1, d2;
    mpfr_inits2(24, R, Z, A, (mpfr_ptr)0);
    mpfr_inits2(400, d1, d2, (mpfr_ptr)0);
    if (rm != RV_RMM) mpfr_set(R, X, mrnd[rm]);
    else { /* nearest of toward-zero and away, a tie away */
        mpfr_set(Z, X, MPFR_RNDZ);
        mpfr_set(A, X, MPFR_RNDA);
        mpfr_sub(d1, X, Z, MPFR_RNDN);
        mpfr_sub(d2, A, X, MPFR_RNDN);
        mpfr_abs(d1, d1, MPFR_RNDN);
        mpfr_abs(d2, d2, MPFR_RNDN);
        mpfr_set(R, mpfr_cmp(d1, d2) < 0 ? Z : A, MPFR_RNDN);
    }
    mpfr_abs(R, R, MPFR_RNDN);
    bool t = !mpfr_zero_p(R) && mpfr_cmp_ui_2exp(R, 1, -126) < 0;
    mpfr_clears(R, Z, A, d1, d2, (mpfr_ptr)0);
    return t;
}

/* the reference: result bits and flags of op(a, b, c) in mode rm */
static uint32_t ref(unsigned op, unsigned rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *ff) {
    bool fma_op = op == OP_FMADD || op == OP_FMSUB || op == OP_FNMSUB || op == OP_FNMADD;
    bool conv = op == OP_FCVT_S_W || op == OP_FCVT_S_WU;
    unsigned nin = conv || op == OP_FSQRT ? 1 : fma_op ? 3 : 2;
    uint32_t in[3] = {a, b, c};
    *ff = 0;
    if (!conv) {
        bool any_nan = false;
        for (unsigned i = 0; i < nin; i++) {
            any_nan |= nan_u(in[i]);
            if (snan_u(in[i])) *ff = RV_FF_NV;
        }
        if (fma_op && ((inf_u(a) && zero_u(b)) || (zero_u(a) && inf_u(b)))) *ff = RV_FF_NV;
        if (any_nan || *ff) return RV_CANON_NAN;
    }
    mpfr_t x, y, z, X, Q;
    mpfr_inits2(32, x, y, z, (mpfr_ptr)0);
    mpfr_init2(X, 1000);
    mpfr_init2(Q, 300);
    if (op == OP_FCVT_S_W) mpfr_set_si(x, (int32_t)a, MPFR_RNDN);
    else if (op == OP_FCVT_S_WU) mpfr_set_ui(x, a, MPFR_RNDN);
    else {
        mpfr_set_flt(x, f32(a), MPFR_RNDN);
        mpfr_set_flt(y, f32(b), MPFR_RNDN);
        mpfr_set_flt(z, f32(c), MPFR_RNDN);
    }
    if (op == OP_FSUB || op == OP_FNMSUB || op == OP_FNMADD) mpfr_neg(op == OP_FSUB ? y : x, op == OP_FSUB ? y : x, MPFR_RNDN);
    if (op == OP_FMSUB || op == OP_FNMADD) mpfr_neg(z, z, MPFR_RNDN);
    mpfr_clear_flags();
    int t = 0; /* exact except fdiv / fsqrt (300 bits, then a sticky bit) */
    switch (op) {
    case OP_FADD: case OP_FSUB: mpfr_add(X, x, y, MPFR_RNDN); break;
    case OP_FMUL: mpfr_mul(X, x, y, MPFR_RNDN); break;
    case OP_FDIV: t = mpfr_div(Q, x, y, MPFR_RNDZ); break;
    case OP_FSQRT: t = mpfr_sqrt(Q, x, MPFR_RNDZ); break;
    case OP_FCVT_S_W: case OP_FCVT_S_WU: mpfr_set(X, x, MPFR_RNDN); break;
    default: mpfr_fma(X, x, y, z, rm == RV_RDN ? MPFR_RNDD : MPFR_RNDN); break; /* exact; RDN: -0 for x*y = -z */
    }
    if (mpfr_nan_p(X) && (op != OP_FDIV && op != OP_FSQRT)) { *ff = RV_FF_NV; goto nan; } /* inf - inf, inf * 0 */
    if (op == OP_FADD || op == OP_FSUB) { /* exact zero sum: -0 only in RDN (mpfr_add used RNDN) */
        if (mpfr_zero_p(X) && !(mpfr_zero_p(x) && mpfr_zero_p(y) && mpfr_signbit(x) == mpfr_signbit(y)))
            mpfr_setsign(X, X, rm == RV_RDN, MPFR_RNDN);
    }
    if (op == OP_FDIV || op == OP_FSQRT) {
        if (mpfr_nan_p(Q)) { *ff = RV_FF_NV; goto nan; } /* 0/0, inf/inf, sqrt(-x) */
        if (op == OP_FDIV && mpfr_zero_p(y) && !mpfr_inf_p(x)) *ff = RV_FF_DZ;
        mpfr_set(X, Q, MPFR_RNDN);
        if (t) { /* sticky: strictly between Q and the next 300-bit number away from zero */
            mpfr_t s;
            mpfr_init2(s, 16);
            mpfr_set_ui_2exp(s, 1, mpfr_get_exp(Q) - 310, MPFR_RNDN);
            if (mpfr_signbit(Q)) mpfr_neg(s, s, MPFR_RNDN);
            mpfr_add(X, X, s, MPFR_RNDN);
            mpfr_clear(s);
        }
    }
    uint32_t r;
    int tern, ovf = 0;
    if (mpfr_inf_p(X) || mpfr_zero_p(X)) { /* exact */
        r = u32(mpfr_get_flt(X, MPFR_RNDN));
        tern = 0;
    } else if (rm != RV_RMM) {
        r = to_float(X, mrnd[rm], &tern, &ovf);
    } else {
        int tz, ta, oz, oa;
        uint32_t rz = to_float(X, MPFR_RNDZ, &tz, &oz), ra = to_float(X, MPFR_RNDA, &ta, &oa);
        tern = tz;
        r = rz;
        if (rz != ra) { /* inexact: nearer one, a tie away; beyond FLT_MAX the away side is 2^128 */
            mpfr_t d1, d2, A;
            mpfr_inits2(1100, d1, d2, A, (mpfr_ptr)0);
            if (inf_u(ra)) mpfr_set_si_2exp(A, mpfr_signbit(X) ? -1 : 1, 128, MPFR_RNDN);
            else mpfr_set_flt(A, f32(ra), MPFR_RNDN);
            mpfr_set_flt(d1, f32(rz), MPFR_RNDN);
            mpfr_sub(d1, X, d1, MPFR_RNDN);
            mpfr_sub(d2, A, X, MPFR_RNDN);
            if (mpfr_cmpabs(d1, d2) >= 0) { r = ra; ovf = inf_u(ra); }
            mpfr_clears(d1, d2, A, (mpfr_ptr)0);
        }
    }
    if (tern) *ff |= RV_FF_NX;
    if (ovf) *ff |= RV_FF_OF | RV_FF_NX;
    if (tern && tiny(X, rm)) *ff |= RV_FF_UF;
    mpfr_clears(x, y, z, X, Q, (mpfr_ptr)0);
    return r;
nan:
    mpfr_clears(x, y, z, X, Q, (mpfr_ptr)0);
    return RV_CANON_NAN;
}

static uint32_t rng(uint64_t *s) {
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (uint32_t)(*s >> 16);
}

/* edge values, short significands (ties), near-boundary and random bits */
static uint32_t operand(uint64_t *s) {
    static const uint32_t edge[] = {0, 0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u, 0xff800000u,
                                    0x7fc00000u, 0x7f800001u, 0xffa00000u, 0x00000001u, 0x80000003u,
                                    0x007fffffu, 0x00800000u, 0x80800001u, 0x7f7fffffu, 0xff7ffffeu,
                                    0x3f7fffffu, 0x34000000u, 0x4b800001u, 0x1f800000u};
    uint32_t k = rng(s) % 8, e = rng(s);
    switch (k) {
    case 0: return edge[e % (sizeof edge / sizeof edge[0])];
    case 1: case 2: /* up to 12 significant bits, exponents around 1, 2^-63 and 2^63 */
        return (e & 0x80000000u) | (((e >> 8 & 63) + (k == 1 ? 96 : 31 + (e >> 20 & 1) * 126)) << 23) |
               (rng(s) & 0x7ff000u);
    case 3: return (e & 0x80000000u) | ((e >> 23 & 7) << 23) | (e & 0x7fffffu); /* subnormal, smallest normals */
    case 4: return (e & 0x80000000u) | ((251 + (e >> 23 & 3)) << 23) | (e & 0x7fffffu); /* near FLT_MAX */
    default: return e;
    }
}

static const unsigned rounded_ops[] = {OP_FADD, OP_FSUB, OP_FMUL, OP_FDIV, OP_FSQRT, OP_FMADD,
                                       OP_FMSUB, OP_FNMSUB, OP_FNMADD, OP_FCVT_S_W, OP_FCVT_S_WU};

static void test_rounded_vs_mpfr(void **st) {
    (void)st;
    uint64_t s = tb_seed("rv32_fp operands");
    uint64_t n = tb_cycles(6000);
    unsigned long checked = 0, inexact = 0, ties = 0;
    for (unsigned oi = 0; oi < sizeof rounded_ops / sizeof rounded_ops[0]; oi++) {
        unsigned op = rounded_ops[oi];
        for (uint64_t i = 0; i < n; i++) {
            uint32_t a = operand(&s), b = operand(&s), c = operand(&s);
            if (op == OP_FCVT_S_W || op == OP_FCVT_S_WU) a = rng(&s) % 3 ? rng(&s) << (rng(&s) % 9) : rng(&s) | 1;
            if (i % 5 == 0 && op >= OP_FMADD && op <= OP_FNMADD) c = u32(-f32(a) * f32(b)); /* cancellation */
            uint32_t rf[5];
            for (unsigned rm = 0; rm < 5; rm++) {
                uint32_t ff_exp, ff = 0, d = 0;
                uint32_t r = ref(op, rm, a, b, c, &ff_exp);
                rv_fp_exec(op, rm, 1, &d, &a, &b, &c, &ff);
                if (d != r || ff != ff_exp)
                    fail_msg("%s %s a=0x%08x b=0x%08x c=0x%08x: got 0x%08x flags 0x%02x, expected 0x%08x flags 0x%02x",
                             rv_op_name(op), rm_name[rm], a, b, c, d, ff, r, ff_exp);
                rf[rm] = r;
                checked++;
                inexact += (ff & RV_FF_NX) != 0;
            }
            ties += rf[RV_RMM] != rf[RV_RNE];
        }
    }
    printf("# %lu results checked against MPFR (%lu inexact; %lu where RMM and RNE differ: ties)\n", checked,
           inexact, ties);
    assert_true(ties > 100);
}

/* one op on lane 0; flags start at 0 */
static uint32_t one(unsigned op, unsigned rm, uint32_t a, uint32_t b, uint32_t c, uint32_t *ff) {
    uint32_t d = 0;
    *ff = 0;
    rv_fp_exec(op, rm, 1, &d, &a, &b, &c, ff);
    return d;
}
#define CHECK(op, rm, a, b, c, res, flags)                                                                     \
    do {                                                                                                       \
        uint32_t ff_, r_ = one(op, rm, a, b, c, &ff_);                                                         \
        if (r_ != (uint32_t)(res) || ff_ != (flags))                                                           \
            fail_msg("line %d: %s %s: got 0x%08x flags 0x%02x, expected 0x%08x flags 0x%02x", __LINE__,        \
                     rv_op_name(op), rm_name[rm], r_, ff_, (uint32_t)(res), (uint32_t)(flags));                \
    } while (0)

static void test_directed(void **st) {
    (void)st;
    const uint32_t NX = RV_FF_NX, NV = RV_FF_NV, UF = RV_FF_UF;
    const uint32_t qnan = 0x7fc00000u, snan = 0x7f800001u, inf = 0x7f800000u;
    /* RMM ties: 2^24 + 1, 1 + 2^-24, 2^-150 */
    CHECK(OP_FCVT_S_W, RV_RNE, 16777217, 0, 0, u32(16777216.0f), NX);
    CHECK(OP_FCVT_S_W, RV_RMM, 16777217, 0, 0, u32(16777218.0f), NX);
    CHECK(OP_FCVT_S_W, RV_RMM, (uint32_t)-16777217, 0, 0, u32(-16777218.0f), NX);
    CHECK(OP_FCVT_S_WU, RV_RMM, 0xffffff80u, 0, 0, u32(4294967296.0f), NX);
    CHECK(OP_FADD, RV_RMM, u32(1.0f), u32(0x1p-24f), 0, u32(1.0f + 0x1p-23f), NX);
    CHECK(OP_FADD, RV_RNE, u32(1.0f), u32(0x1p-24f), 0, u32(1.0f), NX);
    CHECK(OP_FMUL, RV_RNE, u32(0x1p-75f), u32(0x1p-75f), 0, 0, UF | NX);
    CHECK(OP_FMUL, RV_RMM, u32(0x1p-75f), u32(0x1p-75f), 0, 1, UF | NX);
    CHECK(OP_FMUL, RV_RMM, u32(-0x1p-75f), u32(0x1p-75f), 0, 0x80000001u, UF | NX);
    /* tininess after rounding: 2^-126 - 2^-150 is tiny; 2^-126 - 2^-160 rounds to 2^-126 in 24 bits, so it is
     * tiny in RTZ only (tininess before rounding would say UF in every mode) */
    CHECK(OP_FMUL, RV_RNE, 0x3f7fffffu, 0x00800000u, 0, 0x00800000u, UF | NX);
    CHECK(OP_FMADD, RV_RNE, u32(0x1p-80f), u32(-0x1p-80f), 0x00800000u, 0x00800000u, NX);
    CHECK(OP_FMADD, RV_RMM, u32(0x1p-80f), u32(-0x1p-80f), 0x00800000u, 0x00800000u, NX);
    CHECK(OP_FMADD, RV_RTZ, u32(0x1p-80f), u32(-0x1p-80f), 0x00800000u, 0x007fffffu, UF | NX);
    /* fma: inf * 0 + qNaN is invalid; exact zero sums' sign */
    CHECK(OP_FMADD, RV_RNE, inf, 0, qnan, qnan, NV);
    CHECK(OP_FMADD, RV_RDN, u32(1.0f), u32(1.0f), u32(-1.0f), 0x80000000u, 0);
    CHECK(OP_FMADD, RV_RMM, u32(1.0f), u32(1.0f), u32(-1.0f), 0, 0);
    CHECK(OP_FDIV, RV_RNE, u32(1.0f), 0x80000000u, 0, 0xff800000u, RV_FF_DZ);
    CHECK(OP_FSQRT, RV_RNE, u32(-1.0f), 0, 0, qnan, NV);
    CHECK(OP_FSQRT, RV_RNE, 0x80000000u, 0, 0, 0x80000000u, 0);
    CHECK(OP_FADD, RV_RTZ, 0x7f7fffffu, 0x7f7fffffu, 0, 0x7f7fffffu, RV_FF_OF | NX);
    CHECK(OP_FADD, RV_RMM, 0x7f7fffffu, 0x7f7fffffu, 0, inf, RV_FF_OF | NX);
    /* fcvt.w.s / fcvt.wu.s in every mode: +-1.5, +-2.5 */
    static const float v[4] = {1.5f, -1.5f, 2.5f, -2.5f};
    static const int32_t w[5][4] = {{2, -2, 2, -2}, {1, -1, 2, -2}, {1, -2, 2, -3}, {2, -1, 3, -2}, {2, -2, 3, -3}};
    for (unsigned rm = 0; rm < 5; rm++)
        for (unsigned i = 0; i < 4; i++) CHECK(OP_FCVT_W_S, rm, u32(v[i]), 0, 0, (uint32_t)w[rm][i], NX);
    CHECK(OP_FCVT_W_S, RV_RNE, qnan, 0, 0, 0x7fffffffu, NV);
    CHECK(OP_FCVT_W_S, RV_RNE, 0xff800000u, 0, 0, 0x80000000u, NV);
    CHECK(OP_FCVT_W_S, RV_RNE, u32(-2147483648.0f), 0, 0, 0x80000000u, 0);
    CHECK(OP_FCVT_W_S, RV_RNE, u32(2147483648.0f), 0, 0, 0x7fffffffu, NV);
    CHECK(OP_FCVT_WU_S, RV_RTZ, u32(-0.9f), 0, 0, 0, NX);
    CHECK(OP_FCVT_WU_S, RV_RNE, u32(-0.5f), 0, 0, 0, NX);
    CHECK(OP_FCVT_WU_S, RV_RMM, u32(-0.5f), 0, 0, 0, NV);
    CHECK(OP_FCVT_WU_S, RV_RNE, u32(-1.0f), 0, 0, 0, NV);
    CHECK(OP_FCVT_WU_S, RV_RNE, u32(3e9f), 0, 0, 3000000000u, 0);
    CHECK(OP_FCVT_WU_S, RV_RNE, snan, 0, 0, 0xffffffffu, NV);
    /* min/max: NV only for a signalling NaN; both NaN: canonical; -0 < +0 */
    CHECK(OP_FMIN, RV_RNE, qnan, u32(1.0f), 0, u32(1.0f), 0);
    CHECK(OP_FMAX, RV_RNE, snan, u32(1.0f), 0, u32(1.0f), NV);
    CHECK(OP_FMIN, RV_RNE, snan, qnan, 0, qnan, NV);
    CHECK(OP_FMIN, RV_RNE, 0, 0x80000000u, 0, 0x80000000u, 0);
    CHECK(OP_FMAX, RV_RNE, 0x80000000u, 0, 0, 0, 0);
    /* compares: feq quiet, flt/fle signalling */
    CHECK(OP_FEQ, RV_RNE, qnan, u32(1.0f), 0, 0, 0);
    CHECK(OP_FEQ, RV_RNE, snan, u32(1.0f), 0, 0, NV);
    CHECK(OP_FLT, RV_RNE, qnan, u32(1.0f), 0, 0, NV);
    CHECK(OP_FLE, RV_RNE, u32(1.0f), qnan, 0, 0, NV);
    CHECK(OP_FLE, RV_RNE, 0x80000000u, 0, 0, 1, 0);
}

static void test_rm_and_env(void **st) {
    (void)st;
    /* rounding mode: the field, DYN = frm, reserved values; non-rounding ops ignore funct3 */
    assert_int_equal(rv_fp_rm(OP_FADD, RV_RUP, 0), RV_RUP);
    assert_int_equal(rv_fp_rm(OP_FADD, RV_DYN, RV_RMM), RV_RMM);
    assert_int_equal(rv_fp_rm(OP_FCVT_W_S, 5, 0), -1);
    assert_int_equal(rv_fp_rm(OP_FMUL, 6, 0), -1);
    assert_int_equal(rv_fp_rm(OP_FDIV, RV_DYN, 5), -1);
    assert_int_equal(rv_fp_rm(OP_FEQ, 2, 7), RV_RNE);
    /* through rv_exec: fadd.s with rm 5 is illegal; with DYN it follows frm */
    rv_lanes x;
    memset(&x, 0, sizeof x);
    rv_inst in;
    char err[128];
    uint32_t npc;
    x.r[32 + 1][0] = u32(1.0f);
    x.r[32 + 2][0] = u32(0x1p-24f);
    rv_decode(2u << 20 | 1u << 15 | 5u << 12 | 3u << 7 | 0x53, &in); /* fadd.s f3, f1, f2, rm=5 */
    assert_int_equal(rv_exec(&x, NULL, &in, 1, &npc, err, sizeof err), EX_FAULT);
    assert_non_null(strstr(err, "rounding mode"));
    x.frm = RV_RMM;
    rv_decode(2u << 20 | 1u << 15 | 7u << 12 | 3u << 7 | 0x53, &in); /* rm = DYN */
    assert_int_equal(rv_exec(&x, NULL, &in, 1, &npc, err, sizeof err), EX_NEXT);
    assert_int_equal(x.r[32 + 3][0], u32(1.0f + 0x1p-23f));
    assert_int_equal(x.fflags, RV_FF_NX);
    /* flags accumulate; the host's flags do not leak in, its rounding mode is left as it was */
    uint32_t a[32], b[32], d[32], ff = RV_FF_DZ;
    for (unsigned l = 0; l < 32; l++) { a[l] = u32((float)l); b[l] = u32(2.0f); }
    feraiseexcept(FE_INVALID | FE_OVERFLOW);
    rv_fp_exec(OP_FMUL, RV_RTZ, 0xffffffffu, d, a, b, b, &ff); /* exact */
    assert_int_equal(ff, RV_FF_DZ);
    for (unsigned l = 0; l < 32; l++) assert_int_equal(d[l], u32(2.0f * (float)l));
    for (uint32_t f0 = 0; f0 < 32; f0++) { /* whatever the warp holds is kept exactly (loaded into the host's) */
        uint32_t f = f0, e[32];
        rv_fp_exec(OP_FADD, RV_RNE, 0xffffffffu, e, a, b, b, &f);
        assert_int_equal(f, f0);
    }
    assert_int_equal(fegetround(), FE_TONEAREST);
    rv_fp_exec(OP_FDIV, RV_RUP, 0x5u, d, b, a, a, &ff); /* lanes 0 (2/0) and 2 (2/2) only */
    assert_int_equal(ff, RV_FF_DZ);
    assert_int_equal(d[0], 0x7f800000u);
    assert_int_equal(d[1], u32(2.0f));
    rv_fp_exec(OP_FDIV, RV_RTZ, 0x8u, d, b, a, a, &ff); /* 2/3 toward zero: one below RNE's */
    assert_int_equal(ff, RV_FF_DZ | RV_FF_NX);
    assert_int_equal(d[3], u32(2.0f / 3.0f) - 1);
    assert_int_equal(fegetround(), FE_TONEAREST);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rounded_vs_mpfr),
        cmocka_unit_test(test_directed),
        cmocka_unit_test(test_rm_and_env),
    };
    return cmocka_run_group_tests_name("rv32_fp", tests, NULL, NULL);
}
