/* Shared by the SIMT test kernels (sw/kernels/t_*.c) and their host
 * reference (tests/test_simt.c): the same C computed on both sides. */
#ifndef SIMT_TEST_OPS_H
#define SIMT_TEST_OPS_H
#include <stdint.h>

#define T_INT_N 24
static inline void t_int_ops(uint32_t a, uint32_t b, uint32_t *o) {
    int32_t sa = (int32_t)a, sb = (int32_t)b;
    uint32_t bnz = b ? b : 7, sh = b & 31;
    int32_t sbnz = (sb == 0 || (sa == INT32_MIN && sb == -1)) ? 5 : sb;
    o[0] = a + b; o[1] = a - b; o[2] = a ^ b; o[3] = a | b; o[4] = a & b;
    o[5] = a << sh; o[6] = a >> sh; o[7] = (uint32_t)(sa >> sh);
    o[8] = sa < sb; o[9] = a < b; o[10] = a * b;
    o[11] = (uint32_t)(((int64_t)sa * sb) >> 32); o[12] = (uint32_t)(((uint64_t)a * b) >> 32);
    o[13] = (uint32_t)(((int64_t)sa * (int64_t)(uint64_t)b) >> 32);
    o[14] = (uint32_t)(sa / sbnz); o[15] = (uint32_t)(sa % sbnz); o[16] = a / bnz; o[17] = a % bnz;
    o[18] = (uint32_t)(int32_t)(int8_t)a + (uint32_t)(int32_t)(int16_t)b;
    o[19] = (a + 0x7ff) ^ 0xfffff800u; o[20] = (a << 7) | (b >> 3);
    o[21] = sa < -5 ? 1u : 0u; o[22] = a < 1000u ? 2u : 3u;
    o[23] = (uint32_t)((a & 0xffffu) * 65537u % 1000003u);
}

#ifdef __riscv
static inline float t_fmin(float a, float b) { float r; __asm__("fmin.s %0, %1, %2" : "=f"(r) : "f"(a), "f"(b)); return r; }
static inline float t_fmax(float a, float b) { float r; __asm__("fmax.s %0, %1, %2" : "=f"(r) : "f"(a), "f"(b)); return r; }
#else
#include <math.h>
static inline float t_fmin(float a, float b) { return fminf(a, b); }
static inline float t_fmax(float a, float b) { return fmaxf(a, b); }
#endif

#define T_FP_N 20
static inline void t_fp_ops(float a, float b, int32_t i, uint32_t *o) {
    union { float f; uint32_t u; } u;
#define PF(k, e) do { u.f = (e); o[k] = u.u; } while (0)
    PF(0, a + b); PF(1, a - b); PF(2, a * b); PF(3, a / b);
    PF(4, __builtin_sqrtf(a < 0 ? -a : a)); PF(5, __builtin_fmaf(a, b, 1.5f));
    PF(6, t_fmin(a, b)); PF(7, t_fmax(a, b));
    PF(8, (float)i); PF(9, (float)(uint32_t)i);
    o[10] = a > -2e9f && a < 2e9f ? (uint32_t)(int32_t)a : 0; /* out of range is UB in C */ o[11] = a > 0 && a < 4e9f ? (uint32_t)a : 0;
    o[12] = a < b; o[13] = a <= b; o[14] = a == b;
    PF(15, __builtin_copysignf(a, b)); PF(16, -a); PF(17, __builtin_fabsf(b));
    o[18] = a > -2e9f && a < 2e9f ? (uint32_t)(int32_t)__builtin_lroundf(a * 0.25f) : 0;
    PF(19, a * 3.0f - b * 0.5f);
#undef PF
}

/* divergence work: nested ifs, per-thread loop trip counts, calls, switch */
static __attribute__((noinline, unused)) uint32_t t_fib(uint32_t n) { return n < 2 ? n : t_fib(n - 1) + t_fib(n - 2); }
static inline uint32_t t_div_work(uint32_t t) {
    uint32_t acc = t;
    if (t & 1) {
        if (t & 2) acc += 100;
        else { for (uint32_t j = 0; j < (t % 7); j++) acc = acc * 3 + j; }
    } else {
        if (t % 3 == 0) return acc ^ 0xabcdu;   /* early return */
        acc -= 5;
    }
    for (uint32_t j = 0; j < t % 13; j++) {     /* per-thread trip count */
        if ((j ^ t) & 4) continue;
        acc += j * t;
        if (acc > 5000000u) break;
    }
    switch (t % 6) {
    case 0: acc += 1; break;
    case 1: acc *= 7; break;
    case 2: acc ^= 0x55; break;
    case 3: acc = acc / 3u; break;
    case 4: acc += t_fib(t % 11); break;
    default: acc -= 9; break;
    }
    return acc;
}
#endif
