/* rv32_fp: F-extension arithmetic with exception flags and rounding modes;
 * see rv32_fp.h.
 *
 * The host's C99 floating-point environment (fenv.h) does the IEEE 754
 * work: float arithmetic, square root, fmaf and int->float conversion in
 * the modes the host has (RNE, RTZ, RDN, RUP) and their flags NX UF OF DZ
 * NV.  RISC-V detects tininess after rounding, as x86-64's SSE does (and
 * as IEEE 754 allows), so the host's UF is RISC-V's.  The rest is exact
 * and written here:
 * - RMM (round to nearest, ties away from zero; no host mode): the RNE
 *   result, moved one unit in the last place away from zero where the
 *   exact result is a tie, i.e. lies exactly halfway between two floats
 *   (rmm_fix).  Only a tie can round differently, and RMM raises the same
 *   flags as RNE (overflow and tininess thresholds are ties that RNE also
 *   rounds away: FLT_MAX and 2^-126 - 2^-150 have odd significands).
 * - Flags whose RISC-V rule differs from what C on the host raises, or
 *   that C does not define: min/max (NV only for a signalling NaN), feq
 *   (quiet: NV for a signalling NaN), flt/fle (signalling: NV for any NaN),
 *   float->int conversion (NV and saturation out of range or NaN, else NX
 *   when inexact), computed from the operands.
 * - NaN results are the canonical NaN 0x7fc00000 (the host's default NaN
 *   is negative).
 *
 * The host's environment does not leak in either direction.  Rounding: the
 * simulator runs in the host's default RNE; a directed mode is set for one
 * instruction and the previous mode restored.  Flags: before an
 * instruction the host's flags are made equal to the warp's fflags (both
 * are sticky and accumulate alike), after it they are read back as the new
 * fflags; they are reloaded only when they differ, which in an FP-heavy
 * kernel is rare (every warp soon holds NX), so the usual cost is two flag
 * reads per warp instruction.  This file is compiled with -frounding-math
 * -fsignaling-nans -ffp-contract=off (mk/simt.mk) so that GCC keeps every
 * operation as written, in order, at run time. */
#include "simt/rv32_fp.h"

#include <fenv.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "simt/rv32.h"
#include "simt/rv32_exec.h"

#define EACH_LANE(...) RV_EACH_LANE(m, __VA_ARGS__)

static inline float f32(uint32_t x) { float f; memcpy(&f, &x, 4); return f; }
static inline uint32_t u32(float f) { uint32_t x; memcpy(&x, &f, 4); return x; }
static inline uint32_t canon(float f) { return f != f ? RV_CANON_NAN : u32(f); }
static inline bool is_nan(uint32_t x) { return (x & 0x7fffffffu) > 0x7f800000u; }
static inline bool is_snan(uint32_t x) { return is_nan(x) && !(x & 0x00400000u); }
static inline bool inf_u(uint32_t x) { return (x & 0x7fffffffu) == 0x7f800000u; }
static inline bool zero_u(uint32_t x) { return (x & 0x7fffffffu) == 0; }

/* fflags <-> the host's exception bits */
static inline int to_host(uint32_t ff) {
    return (ff & RV_FF_NX ? FE_INEXACT : 0) | (ff & RV_FF_UF ? FE_UNDERFLOW : 0) | (ff & RV_FF_OF ? FE_OVERFLOW : 0) |
           (ff & RV_FF_DZ ? FE_DIVBYZERO : 0) | (ff & RV_FF_NV ? FE_INVALID : 0);
}
static inline uint32_t from_host(int fe) {
    return (fe & FE_INEXACT ? RV_FF_NX : 0) | (fe & FE_UNDERFLOW ? RV_FF_UF : 0) | (fe & FE_OVERFLOW ? RV_FF_OF : 0) |
           (fe & FE_DIVBYZERO ? RV_FF_DZ : 0) | (fe & FE_INVALID ? RV_FF_NV : 0);
}

/* The operations the host rounds, each as one expression. */
#define HOST_OPS(X) X(OP_FADD) X(OP_FSUB) X(OP_FMUL) X(OP_FDIV) X(OP_FSQRT) \
    X(OP_FMADD) X(OP_FMSUB) X(OP_FNMSUB) X(OP_FNMADD) X(OP_FCVT_S_W) X(OP_FCVT_S_WU)

static inline uint32_t host_op(unsigned op, uint32_t a, uint32_t b, uint32_t c) {
    float x = f32(a), y = f32(b), z = f32(c);
    switch (op) {
    case OP_FADD: return canon(x + y);
    case OP_FSUB: return canon(x - y);
    case OP_FMUL: return canon(x * y);
    case OP_FDIV: return canon(x / y);
    case OP_FSQRT: return canon(sqrtf(x));
    case OP_FMADD: return canon(fmaf(x, y, z));
    case OP_FMSUB: return canon(fmaf(x, y, -z));
    case OP_FNMSUB: return canon(fmaf(-x, y, z));
    case OP_FNMADD: return canon(fmaf(-x, y, -z));
    case OP_FCVT_S_W: return canon((float)(int32_t)a);
    default: return canon((float)a); /* OP_FCVT_S_WU */
    }
}

/* s = a + b in double; true when that is exact (Knuth's TwoSum error is 0). */
static bool two_sum(double a, double b, double *s) {
    *s = a + b;
    double bb = *s - a;
    return (a - (*s - bb)) + (b - bb) == 0;
}

/* The exact result of op as a double, when it is one.  A tie has at most
 * 25 significant bits, so a result that is not a double is not a tie. */
static bool exact_double(unsigned op, uint32_t a, uint32_t b, uint32_t c, double *r) {
    double x = f32(a), y = f32(b), z = f32(c), p = x * y; /* 24 x 24 bits: exact */
    switch (op) {
    case OP_FADD: return two_sum(x, y, r);
    case OP_FSUB: return two_sum(x, -y, r);
    case OP_FMUL: *r = p; return true;
    case OP_FDIV: *r = x / y; return fma(*r, y, -x) == 0;
    case OP_FMADD: return two_sum(p, z, r);
    case OP_FMSUB: return two_sum(p, -z, r);
    case OP_FNMSUB: return two_sum(-p, z, r);
    case OP_FNMADD: return two_sum(-p, -z, r);
    case OP_FCVT_S_W: *r = (int32_t)a; return true;
    case OP_FCVT_S_WU: *r = a; return true;
    default: return false; /* OP_FSQRT: a root is never a tie (a 25-bit midpoint squared has 49+ bits) */
    }
}

/* RMM from the RNE result r: away from zero where the exact result is a tie
 * that RNE rounded toward zero. */
static uint32_t rmm_fix(unsigned op, uint32_t a, uint32_t b, uint32_t c, uint32_t r) {
    double x;
    if ((r & 0x7f800000u) == 0x7f800000u || !exact_double(op, a, b, c, &x)) return r; /* inf, NaN, no tie */
    double near = f32(r), away = f32(r + 1); /* r + 1: the next float away from zero */
    return fabs(x) > fabs(near) && 2 * x == near + away ? r + 1 : r;
}

static uint32_t fminmax(uint32_t a, uint32_t b, bool max, uint32_t *ff) {
    if (is_snan(a) || is_snan(b)) *ff |= RV_FF_NV;
    if (is_nan(a)) return is_nan(b) ? RV_CANON_NAN : b;
    if (is_nan(b)) return a;
    float x = f32(a), y = f32(b);
    if (x == y) return max ? a & b : a | b; /* -0 < +0 */
    return max ? (x > y ? a : b) : (x < y ? a : b);
}

/* rounding to an integer in each mode (RNE: the host's current mode) */
static float (*const round_int[RV_RMM + 1])(float) = {nearbyintf, truncf, floorf, ceilf, roundf};

/* fcvt.w.s / fcvt.wu.s: out of range or NaN saturate with NV (NaN as +inf).
 * Inlined into its two loops, so is_unsigned folds away. */
static inline __attribute__((always_inline)) uint32_t fcvt_int(uint32_t x, float (*rnd)(float), bool is_unsigned,
                                                               uint32_t *ff) {
    const float hi = is_unsigned ? 4294967296.0f : 2147483648.0f, lo = is_unsigned ? 0.0f : -2147483648.0f;
    const uint32_t sat_hi = is_unsigned ? 0xffffffffu : 0x7fffffffu, sat_lo = is_unsigned ? 0 : 0x80000000u;
    float f = f32(x), r = rnd(f);
    if (is_nan(x) || r >= hi) { *ff |= RV_FF_NV; return sat_hi; }
    if (r < lo) { *ff |= RV_FF_NV; return sat_lo; }
    if (r != f) *ff |= RV_FF_NX;
    return is_unsigned ? (uint32_t)r : (uint32_t)(int32_t)r;
}

int rv_fp_rm(unsigned op, unsigned rm, unsigned frm) {
    switch (op) {
#define X(o) case o:
    HOST_OPS(X)
#undef X
    case OP_FCVT_W_S: case OP_FCVT_WU_S: break;
    default: return RV_RNE;
    }
    if (rm == RV_DYN) rm = frm;
    return rm <= RV_RMM ? (int)rm : -1;
}

void rv_fp_exec(unsigned op, unsigned rm, uint32_t m, uint32_t *d, const uint32_t *a, const uint32_t *b,
                const uint32_t *c, uint32_t *fflags) {
    uint32_t ff = 0;
    switch (op) { /* flags from the operands */
    case OP_FMIN: EACH_LANE(d[l] = fminmax(a[l], b[l], false, &ff)); *fflags |= ff; return;
    case OP_FMAX: EACH_LANE(d[l] = fminmax(a[l], b[l], true, &ff)); *fflags |= ff; return;
    case OP_FEQ:
        EACH_LANE(ff |= is_snan(a[l]) || is_snan(b[l]) ? RV_FF_NV : 0; d[l] = f32(a[l]) == f32(b[l]));
        *fflags |= ff;
        return;
    case OP_FLT:
        EACH_LANE(ff |= is_nan(a[l]) || is_nan(b[l]) ? RV_FF_NV : 0; d[l] = f32(a[l]) < f32(b[l]));
        *fflags |= ff;
        return;
    case OP_FLE:
        EACH_LANE(ff |= is_nan(a[l]) || is_nan(b[l]) ? RV_FF_NV : 0; d[l] = f32(a[l]) <= f32(b[l]));
        *fflags |= ff;
        return;
    case OP_FCVT_W_S: EACH_LANE(d[l] = fcvt_int(a[l], round_int[rm], false, &ff)); *fflags |= ff; return;
    case OP_FCVT_WU_S: EACH_LANE(d[l] = fcvt_int(a[l], round_int[rm], true, &ff)); *fflags |= ff; return;
    default: break;
    }
    /* rounded by the host, with the warp's flags in the host's */
    /* inf * 0 + c is invalid even for a quiet NaN c (the host's fmaf need not say so) */
    if (op >= OP_FMADD && op <= OP_FNMADD)
        EACH_LANE(ff |= (inf_u(a[l]) && zero_u(b[l])) || (zero_u(a[l]) && inf_u(b[l])) ? RV_FF_NV : 0);
    uint32_t sa[32], sb[32], sc[32]; /* RMM: operands kept for rmm_fix (d may overwrite them) */
    if (rm == RV_RMM) EACH_LANE(sa[l] = a[l]; sb[l] = b[l]; sc[l] = c[l]);
    int want = to_host(*fflags);
    if (fetestexcept(FE_ALL_EXCEPT) != want) {
        feclearexcept(FE_ALL_EXCEPT);
        if (want) feraiseexcept(want);
    }
    static const int host_mode[RV_RMM + 1] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};
    int saved_mode = -1;
    if (host_mode[rm] != FE_TONEAREST) {
        saved_mode = fegetround();
        fesetround(host_mode[rm]);
    }
    switch (op) {
#define X(o) case o: EACH_LANE(d[l] = host_op(o, a[l], b[l], c[l])); break;
    HOST_OPS(X)
#undef X
    default: break;
    }
    if (saved_mode >= 0) fesetround(saved_mode);
    *fflags = from_host(fetestexcept(FE_ALL_EXCEPT)) | ff;
    if (rm == RV_RMM) EACH_LANE(d[l] = rmm_fix(op, sa[l], sb[l], sc[l], d[l]));
}
