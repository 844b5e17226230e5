/* fe_cpu: vectorAdd on the CPU core model (fe_cpu.h, docs/FE_E2E.md). */
#include "fe/fe_cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const fe_cpu_code_names[FE_CPU_CODES] = {"O2", "O0"};

/* One instruction of the loop body: class, the body indices of its two
 * producers (P(j): instruction j of the previous element; N: none) and
 * what it addresses. */
enum { M_NONE = 0, M_A, M_B, M_C, M_I, M_N, M_PA, M_PB, M_PC };
#define N 127
#define P(j) (64 + (j))
typedef struct {
    uint8_t cls, src[2], mem;
} body_inst;

static const body_inst O2[] = {
    {CPU_LOAD, {P(4), N}, M_A}, /* movss (a,i,4), xmm0 */
    {CPU_LOAD, {P(4), N}, M_B}, /* addss (b,i,4), xmm0: the load ... */
    {CPU_FP, {0, 1}, M_NONE},   /* ... and the add */
    {CPU_STORE, {2, P(4)}, M_C}, /* movss xmm0, (c,i,4) */
    {CPU_ALU, {P(4), N}, M_NONE}, /* add $1, i */
    {CPU_BR, {4, N}, M_NONE},     /* cmp i, n; jne */
};

static const body_inst O0[] = {
    {CPU_LOAD, {P(18), N}, M_I},  /*  0 mov -4(%rbp), %eax       i */
    {CPU_ALU, {0, N}, M_NONE},    /*  1 cltq; lea 0(,%rax,4)    */
    {CPU_LOAD, {N, N}, M_PA},     /*  2 mov -24(%rbp), %rax      a */
    {CPU_ALU, {1, 2}, M_NONE},    /*  3 add %rdx, %rax          */
    {CPU_LOAD, {3, N}, M_A},      /*  4 movss (%rax), %xmm1      a[i] */
    {CPU_LOAD, {P(18), N}, M_I},  /*  5 i */
    {CPU_ALU, {5, N}, M_NONE},    /*  6 */
    {CPU_LOAD, {N, N}, M_PB},     /*  7 b */
    {CPU_ALU, {6, 7}, M_NONE},    /*  8 */
    {CPU_LOAD, {8, N}, M_B},      /*  9 movss (%rax), %xmm0      b[i] */
    {CPU_FP, {9, 4}, M_NONE},     /* 10 addss %xmm1, %xmm0 */
    {CPU_LOAD, {P(18), N}, M_I},  /* 11 i */
    {CPU_ALU, {11, N}, M_NONE},   /* 12 */
    {CPU_LOAD, {N, N}, M_PC},     /* 13 c */
    {CPU_ALU, {12, 13}, M_NONE},  /* 14 */
    {CPU_STORE, {10, 14}, M_C},   /* 15 movss %xmm0, (%rax)      c[i] */
    {CPU_LOAD, {P(18), N}, M_I},  /* 16 addl $1, -4(%rbp): load ... */
    {CPU_ALU, {16, N}, M_NONE},   /* 17 ... add ... */
    {CPU_STORE, {17, N}, M_I},    /* 18 ... store i */
    {CPU_LOAD, {18, N}, M_I},     /* 19 mov -4(%rbp), %eax (forwarded from 18) */
    {CPU_LOAD, {N, N}, M_N},      /* 20 cmp -44(%rbp), %eax      n */
    {CPU_BR, {19, 20}, M_NONE},   /* 21 jl */
};

static const struct {
    const body_inst *body;
    unsigned n;
} CODE[FE_CPU_CODES] = {{O2, sizeof O2 / sizeof *O2}, {O0, sizeof O0 / sizeof *O0}};

unsigned fe_cpu_vecadd_instrs(fe_cpu_code code) { return code < FE_CPU_CODES ? CODE[code].n : 0; }

#define A_BASE 0x10000000ull
#define B_BASE 0x20000000ull
#define C_BASE 0x30000000ull
#define STACK 0x40000000ull /* the frame: i at -4, n at -44, a b c at -24 -32 -40 */

typedef struct {
    const body_inst *body;
    unsigned n;
    uint64_t i, k; /* element, instruction within it */
} stream;

static void next(void *ctx, cpu_inst *o) {
    stream *s = ctx;
    const body_inst *b = &s->body[s->k];
    memset(o, 0, sizeof *o);
    o->cls = b->cls;
    for (int j = 0; j < 2; j++) {
        unsigned p = b->src[j];
        if (p == N || (p >= 64 && !s->i)) continue; /* none, or from before the loop: ready */
        o->dep[j] = (uint8_t)(p >= 64 ? s->k + s->n - (p - 64) : s->k - p);
    }
    static const uint64_t FRAME[] = {0, 0, 0, 0, STACK - 4, STACK - 44, STACK - 24, STACK - 32, STACK - 40};
    if (b->mem == M_A) o->addr = A_BASE + 4 * s->i;
    else if (b->mem == M_B) o->addr = B_BASE + 4 * s->i;
    else if (b->mem == M_C) o->addr = C_BASE + 4 * s->i;
    else if (b->mem) o->addr = FRAME[b->mem];
    if (++s->k == s->n) s->k = 0, s->i++;
}

int fe_cpu_vecadd(const cpu_config *c, const fe_cpu_env *env, fe_cpu_code code, uint64_t n, fe_cpu_result *r,
                  char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    if (!n || n > (1ull << 26) || code >= FE_CPU_CODES) {
        snprintf(err, errlen, "fe_cpu_vecadd: %llu elements (1 .. 64M), code %d", (unsigned long long)n, (int)code);
        return -1;
    }
    if (!env->page_bytes || (env->page_bytes & (env->page_bytes - 1)) || C_BASE % env->page_bytes) {
        snprintf(err, errlen, "fe_cpu_vecadd: page of %u bytes (a power of two, at most 256 MiB)", env->page_bytes);
        return -1;
    }
    stream s = {CODE[code].body, CODE[code].n, 0, 0};
    cpu_core *k = cpu_core_new(c, next, &s, err, errlen);
    if (!k) return -1;
    cpu_fixmem *m = malloc(sizeof *m); /* 64 KB */
    if (!m) {
        cpu_core_free(k);
        snprintf(err, errlen, "fe_cpu_vecadd: out of memory");
        return -1;
    }
    cpu_fixmem_init(m, env->mem_latency);
    r->instrs = n * s.n;
    const uint64_t limit = 100 * r->instrs + 100000;
    r->cycles = cpu_fixmem_run(k, m, r->instrs, limit);
    cpu_core_stats(k, &r->st);
    cpu_core_free(k);
    free(m);
    if (!r->cycles) {
        snprintf(err, errlen, "fe_cpu_vecadd: %llu elements not done after %llu CPU cycles", (unsigned long long)n,
                 (unsigned long long)limit);
        return -1;
    }
    r->faults = (4 * n + env->page_bytes - 1) / env->page_bytes; /* c starts on a page */
    r->fault_ns = (double)r->faults * env->first_touch_ns;
    r->ns = (double)r->cycles * 1000.0 / c->clock_mhz + r->fault_ns;
    r->ipc = (double)r->instrs / (double)r->cycles;
    r->cycles_per_elem = (double)r->cycles / (double)n;
    return 0;
}
