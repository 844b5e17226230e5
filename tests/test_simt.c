/* SIMT model tests: kernels compiled from C (sw/kernels/t_*.c, vecadd.c)
 * run on the model and are checked against the same computation on the
 * host; plus ELF errors, launch limits, faults, timing and scheduling. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fg_tb.h"
#include "gpu_tb.h"
#include "simt/gpu.h"
#include "simt/gpu_internal.h"
#include "mem/mem.h"
#include "simt/gpu_internal.h"
#include "../sw/kernels/simt_test_ops.h"


static char kpath_buf[512];
static const char *kpath(const char *name) { return tb_kernel_path(kpath_buf, sizeof kpath_buf, name); }

typedef struct {
    uint64_t first, done;
    int nfirst, ndone;
} cbrec;
static void cb_first(void *u, uint64_t tag, uint64_t cyc) {
    cbrec *r = (cbrec *)u + tag;
    if (!r->nfirst++) r->first = cyc;
}
static void cb_done(void *u, uint64_t tag, uint64_t cyc) {
    cbrec *r = (cbrec *)u + tag;
    r->ndone++;
    r->done = cyc;
}

static gpu_t *mk_gpu(gpu_config *c) {
    char err[256];
    gpu_t *g = gpu_new(c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

static gpu_kernel load(gpu_t *g, const char *file, const char *sym) {
    gpu_kernel k;
    char err[256];
    if (gpu_load_kernel(g, kpath(file), sym, &k, err, sizeof err)) fail_msg("%s", err);
    return k;
}

static uint64_t put(gpu_t *g, const void *p, size_t n) { return tb_gpu_put(g, p, n); }

/* Launches and runs to completion; returns cycles from launch to completion. */
static uint64_t run(gpu_t *g, const gpu_kernel *k, uint32_t gx, uint32_t bx, uint64_t param, cbrec *rec) {
    gpu_launch_desc d = gpu_desc_1d(k, gx, bx, param);
    char err[256];
    cbrec local[1] = {{0}};
    gpu_callbacks cb = {cb_first, cb_done, rec ? rec : local};
    gpu_set_callbacks(g, &cb);
    uint64_t t0 = gpu_cycle(g);
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("launch: %s", err);
    while (!gpu_idle(g)) {
        gpu_tick(g);
        if (gpu_cycle(g) - t0 > 200000000ull) fail_msg("kernel did not finish");
    }
    if (gpu_error(g)) fail_msg("kernel fault: %s", gpu_error(g));
    return gpu_cycle(g) - t0;
}

/* ---------------------------------------------------------------- vecadd */
static void test_vecadd(void **state) {
    (void)state;
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 4;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "vecadd", "vecadd");
    enum { N = 10000 };
    float *a = malloc(N * 4), *b = malloc(N * 4), *r = malloc(N * 4);
    for (int i = 0; i < N; i++) { a[i] = (float)i * 0.5f; b[i] = 3.0f - (float)i; }
    uint32_t args[4];
    args[0] = (uint32_t)put(g, a, N * 4);
    args[1] = (uint32_t)put(g, b, N * 4);
    args[2] = (uint32_t)gpu_malloc(g, N * 4);
    args[3] = N;
    uint64_t pa = put(g, args, sizeof args);
    uint64_t cyc = run(g, &k, 20, 128, pa, NULL);
    gpu_mem_read(g, args[2], r, N * 4);
    for (int i = 0; i < N; i++)
        if (r[i] != a[i] + b[i]) fail_msg("c[%d] = %g, expected %g", i, r[i], a[i] + b[i]);
    printf("# vecadd N=%d: %llu cycles, regs/thread %u\n", N, (unsigned long long)cyc, k.regs_per_thread);
    free(a); free(b); free(r);
    gpu_free(g);
}


/* ------------------------------------------------------------ helpers */
typedef struct { uint32_t in, out, n, counter; } t_args;

static gpu_config small_cfg(unsigned cores) {
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = cores;
    c.global_mem_bytes = 64u << 20;
    c.mem.fe_region_bytes = 0; /* (the default F/E region lies beyond 64 MiB) */
    return c;
}

static uint32_t rng32(uint64_t *s) {
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return (uint32_t)(*s >> 11);
}

/* interesting operand values mixed with random ones */
static uint32_t operand(uint64_t *s, unsigned i) {
    static const uint32_t sp[] = {0, 1, 2, 31, 32, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0xfffffffeu, 1000, 0x12345678u};
    if (i % 3 == 0) return sp[rng32(s) % (sizeof sp / sizeof sp[0])];
    return rng32(s);
}

/* -------------------------------------------------------- ISA: integer */
static void test_isa_int(void **state) {
    (void)state;
    gpu_config c = small_cfg(2);
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_int");
    enum { N = 1000 };
    uint64_t s = tb_seed("simt int operands");
    uint32_t *in = malloc(2 * N * 4), *out = malloc(N * T_INT_N * 4), ref[T_INT_N];
    for (unsigned i = 0; i < 2 * N; i++) in[i] = operand(&s, i);
    t_args a = {(uint32_t)put(g, in, 2 * N * 4), (uint32_t)gpu_malloc(g, N * T_INT_N * 4), N, 0};
    run(g, &k, (N + 127) / 128, 128, put(g, &a, sizeof a), NULL);
    gpu_mem_read(g, a.out, out, N * T_INT_N * 4);
    for (unsigned i = 0; i < N; i++) {
        t_int_ops(in[2 * i], in[2 * i + 1], ref);
        for (unsigned j = 0; j < T_INT_N; j++)
            if (out[i * T_INT_N + j] != ref[j])
                fail_msg("thread %u op %u (a=0x%x b=0x%x): got 0x%x expected 0x%x", i, j, in[2 * i], in[2 * i + 1],
                         out[i * T_INT_N + j], ref[j]);
    }
    /* M-extension corner cases (RISC-V defined results) */
    gpu_kernel km = load(g, "t_isa", "t_mcorner");
    uint32_t cin[64] = {7, 0, 0x80000000u, 0xffffffffu, 0xffffffffu, 0, 100, 7, 0x80000000u, 1};
    for (unsigned i = 10; i < 64; i++) cin[i] = operand(&s, i) | 1u;
    uint32_t cout[128];
    t_args am = {(uint32_t)put(g, cin, sizeof cin), (uint32_t)gpu_malloc(g, sizeof cout), 32, 0};
    run(g, &km, 1, 32, put(g, &am, sizeof am), NULL);
    gpu_mem_read(g, am.out, cout, sizeof cout);
    for (unsigned i = 0; i < 32; i++) {
        uint32_t x = cin[2 * i], y = cin[2 * i + 1];
        int32_t sx = (int32_t)x, sy = (int32_t)y;
        uint32_t q = y == 0 ? 0xffffffffu : (sx == INT32_MIN && sy == -1) ? x : (uint32_t)(sx / sy);
        uint32_t r = y == 0 ? x : (sx == INT32_MIN && sy == -1) ? 0 : (uint32_t)(sx % sy);
        uint32_t qu = y ? x / y : 0xffffffffu, ru = y ? x % y : x;
        assert_int_equal(cout[4 * i], q);
        assert_int_equal(cout[4 * i + 1], r);
        assert_int_equal(cout[4 * i + 2], qu);
        assert_int_equal(cout[4 * i + 3], ru);
    }
    free(in); free(out);
    gpu_free(g);
}

/* ------------------------------------------------------------ ISA: F */
static float rnd_float(uint64_t *s, unsigned i) {
    static const float sp[] = {0.0f, -0.0f, 1.0f, -1.5f, 2.5f, 3.5f, -2.5f, 1e30f, -1e-30f, 65536.5f, 3e9f, -3e9f};
    if (i % 4 == 0) return sp[rng32(s) % (sizeof sp / sizeof sp[0])];
    return ((float)(int32_t)rng32(s)) / (float)(1u << (rng32(s) % 24));
}

static void test_isa_fp(void **state) {
    (void)state;
    gpu_config c = small_cfg(2);
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_fp");
    enum { N = 1000 };
    uint64_t s = tb_seed("simt fp operands");
    uint32_t *in = malloc(3 * N * 4), *out = malloc(N * T_FP_N * 4), ref[T_FP_N];
    for (unsigned i = 0; i < N; i++) {
        float a = rnd_float(&s, i), b = rnd_float(&s, i + 1);
        if (b == 0) b = 0.75f;
        memcpy(&in[3 * i], &a, 4);
        memcpy(&in[3 * i + 1], &b, 4);
        in[3 * i + 2] = operand(&s, i);
    }
    t_args a = {(uint32_t)put(g, in, 3 * N * 4), (uint32_t)gpu_malloc(g, N * T_FP_N * 4), N, 0};
    run(g, &k, (N + 63) / 64, 64, put(g, &a, sizeof a), NULL);
    gpu_mem_read(g, a.out, out, N * T_FP_N * 4);
    for (unsigned i = 0; i < N; i++) {
        float fa, fb;
        memcpy(&fa, &in[3 * i], 4);
        memcpy(&fb, &in[3 * i + 1], 4);
        t_fp_ops(fa, fb, (int32_t)in[3 * i + 2], ref);
        for (unsigned j = 0; j < T_FP_N; j++)
            if (out[i * T_FP_N + j] != ref[j])
                fail_msg("thread %u fp op %u (a=%g b=%g): got 0x%08x expected 0x%08x", i, j, fa, fb,
                         out[i * T_FP_N + j], ref[j]);
    }
    free(in); free(out);
    gpu_free(g);
}

/* --------------------------------------------------------- ISA: CSRs */
static void test_isa_csr(void **state) {
    (void)state;
    gpu_config c = small_cfg(3);
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_csr");
    const uint32_t gd[3] = {3, 2, 2}, bd[3] = {5, 4, 3}; /* 60 threads: 2 warps, second partial */
    unsigned nb = gd[0] * gd[1] * gd[2], nt = bd[0] * bd[1] * bd[2], tot = nb * nt;
    t_args a = {0, (uint32_t)gpu_malloc(g, tot * 64), tot, 0};
    gpu_launch_desc d = {0};
    char err[256];
    d.kernel_ptr = k.entry;
    d.regs_per_thread = k.regs_per_thread;
    memcpy(d.grid, gd, sizeof gd);
    memcpy(d.block, bd, sizeof bd);
    d.param_addr = put(g, &a, sizeof a);
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), 0);
    while (!gpu_idle(g)) gpu_tick(g);
    assert_null(gpu_error(g));
    uint32_t *o = malloc(tot * 64);
    gpu_mem_read(g, a.out, o, tot * 64);
    for (unsigned b = 0; b < nb; b++)
        for (unsigned t = 0; t < nt; t++) {
            const uint32_t *r = o + (b * nt + t) * 16;
            uint32_t exp[16] = {t % bd[0], (t / bd[0]) % bd[1], t / (bd[0] * bd[1]),
                                b % gd[0], (b / gd[0]) % gd[1], b / (gd[0] * gd[1]),
                                bd[0], bd[1], bd[2], gd[0], gd[1], gd[2], t % 32, t / 32, 1, 0x600d};
            for (unsigned j = 0; j < 16; j++)
                if (r[j] != exp[j]) fail_msg("block %u thread %u csr field %u: %u != %u", b, t, j, r[j], exp[j]);
        }
    free(o);
    gpu_free(g);
}

/* ---------------------------------------------------------- atomics */
/* Every RV32A operation on global and shared memory from 8 blocks on 4
 * cores, with each [gpu] atomics mode (*state: GPU_ATOMICS_*): tickets, the
 * LR/SC loop's sum, OR / XOR / MIN, the shared counter and max; then a
 * block's global AMOs seen by its plain loads after the barrier, and a
 * thread's AMO ordered with its own load and store after it. */
static void test_atomics(void **state) {
    gpu_config c = small_cfg(4);
    c.atomics = *(const unsigned *)*state;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_atomic");
    enum { B = 8, T = 96, N = B * T };
    uint32_t in[N], o[4 * N], ctr[6] = {0, 0, 0, 0, 0, 12345};
    uint64_t s = tb_seed("simt atomics");
    for (unsigned i = 0; i < N; i++) in[i] = rng32(&s) % 100000;
    t_args a = {(uint32_t)put(g, in, sizeof in), (uint32_t)gpu_malloc(g, sizeof o), N, (uint32_t)put(g, ctr, sizeof ctr)};
    run(g, &k, B, T, put(g, &a, sizeof a), NULL);
    gpu_mem_read(g, a.out, o, sizeof o);
    gpu_mem_read(g, a.counter, ctr, sizeof ctr);
    assert_int_equal(ctr[0], N);
    static uint8_t seen[N];
    memset(seen, 0, sizeof seen);
    uint32_t sum = 0, x = 0, bits = 0;
    for (unsigned i = 0; i < N; i++) {
        assert_true(o[4 * i] < N);
        assert_false(seen[o[4 * i]]);
        seen[o[4 * i]] = 1;
        sum += i; x ^= i; bits |= 1u << (i & 31);
        unsigned b = i / T;
        uint32_t mx = 0;
        for (unsigned j = b * T; j < b * T + T; j++) mx = in[j] > mx ? in[j] : mx;
        assert_int_equal(o[4 * i + 1], 2 * T); /* shared counter of the block */
        assert_int_equal(o[4 * i + 2], mx);    /* shared amomaxu */
    }
    assert_int_equal(ctr[1], sum);   /* LR/SC compare-and-swap loop */
    assert_int_equal(ctr[2], bits);
    assert_int_equal(ctr[3], x);
    assert_int_equal((int32_t)ctr[4], -(int32_t)(N - 1));
    /* the block barrier orders a block's AMOs before its loads after it */
    k = load(g, "t_isa", "t_bar_atomic");
    uint32_t bc[B] = {0};
    a.counter = (uint32_t)put(g, bc, sizeof bc);
    run(g, &k, B, T, put(g, &a, sizeof a), NULL);
    gpu_mem_read(g, a.out, o, N * 4);
    for (unsigned i = 0; i < N; i++) assert_int_equal(o[i], T);
    /* a thread's load after its AMO sees it; its AMO does not undo its store after it */
    k = load(g, "t_isa", "t_amo_order");
    static uint32_t w[2 * N];
    for (unsigned i = 0; i < N; i++) w[2 * i] = 10 * i, w[2 * i + 1] = i;
    a.counter = (uint32_t)put(g, w, sizeof w);
    run(g, &k, B, T, put(g, &a, sizeof a), NULL);
    gpu_mem_read(g, a.out, o, N * 4);
    gpu_mem_read(g, a.counter, w, sizeof w);
    for (unsigned i = 0; i < N; i++) {
        assert_int_equal(o[i], 10 * i + 5);
        assert_int_equal(w[2 * i], 10 * i + 5);
        assert_int_equal(w[2 * i + 1], 7);
    }
    gpu_free(g);
}

/* ------------------------------------------------------- divergence */
static void test_divergence(void **state) {
    (void)state;
    gpu_config c = small_cfg(2);
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_div");
    enum { N = 2000 };
    uint32_t *in = malloc(N * 4), *o = malloc(N * 4);
    uint64_t s = tb_seed("simt divergence");
    for (unsigned i = 0; i < N; i++) in[i] = i < 1000 ? i : rng32(&s) % 5000;
    t_args a = {(uint32_t)put(g, in, N * 4), (uint32_t)gpu_malloc(g, N * 4), N - 7, 0};
    run(g, &k, (N + 255) / 256, 256, put(g, &a, sizeof a), NULL);
    gpu_mem_read(g, a.out, o, N * 4);
    for (unsigned i = 0; i < N - 7; i++)
        if (o[i] != t_div_work(in[i])) fail_msg("thread %u (t=%u): %u != %u", i, in[i], o[i], t_div_work(in[i]));
    gpu_stats st;
    gpu_get_stats(g, &st);
    printf("# divergence: %.1f active threads per warp instruction\n", (double)st.thread_instrs / (double)st.warp_instrs);
    free(in); free(o);
    gpu_free(g);
}

/* ---------------------------------- barrier, shared memory, multi-block */
static void test_barrier_multiblock(void **state) {
    (void)state;
    gpu_config c = small_cfg(4);
    c.max_blocks_per_core = 2;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_reduce");
    assert_int_equal(k.static_shmem, 4096 + 16);
    enum { B = 24, T = 256, N = B * T };
    uint32_t *in = malloc(N * 4), *o = malloc((1024 + N) * 4);
    uint64_t s = tb_seed("simt reduce");
    for (unsigned i = 0; i < N; i++) in[i] = rng32(&s) % 1000;
    for (unsigned live = 256; live >= 200; live -= 56) { /* all threads; and 56 exiting before the barrier */
        t_args a = {(uint32_t)put(g, in, N * 4), (uint32_t)gpu_malloc(g, (1024 + N) * 4), live, 0};
        gpu_launch_desc d = gpu_desc_1d(&k, B, T, put(g, &a, sizeof a));
        char err[256];
        assert_int_equal(gpu_launch(g, &d, err, sizeof err), 0);
        unsigned maxb = 0;
        while (!gpu_idle(g)) {
            gpu_tick(g);
            for (unsigned ci = 0; ci < c.num_cores; ci++)
                if (g->core[ci].used_blocks > maxb) maxb = g->core[ci].used_blocks;
        }
        assert_null(gpu_error(g));
        assert_int_equal(maxb, 2); /* per-core block limit honoured and reached */
        gpu_mem_read(g, a.out, o, (1024 + N) * 4);
        unsigned cores_used = 0;
        for (unsigned b = 0; b < B; b++) {
            uint32_t sum = 0;
            for (unsigned t = 0; t < live; t++) sum += in[b * T + t];
            if (o[b] != sum) fail_msg("live %u block %u: sum %u != %u", live, b, o[b], sum);
        }
        for (unsigned i = 0; i < N; i++)
            if (i % T < live) cores_used |= 1u << o[1024 + i];
        assert_int_equal(cores_used, 0xf); /* spread over all cores */
    }
    free(in); free(o);
    gpu_free(g);
}

/* --------------------------------------------------- launch errors */
static void test_never_fits(void **state) {
    (void)state;
    gpu_config c = small_cfg(1);
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "vecadd", "vecadd");
    gpu_launch_desc d = gpu_desc_1d(&k, 1, 4096, 0);
    char err[256];
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "threads"));
    d.block[0] = 1024; d.regs_per_thread = 100;
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "registers"));
    d.regs_per_thread = 0; d.shmem = 64 * 1024;
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "shared"));
    d.shmem = 0; d.grid[1] = 0;
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), -1);
    d.grid[1] = 1; d.kernel_ptr = 0x123456;
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), -1);
    assert_non_null(strstr(err, "kernel pointer"));
    assert_true(gpu_idle(g));
    gpu_free(g);
}

/* ------------------------------------------------------ ELF errors */
static void write_file(const char *p, const void *b, size_t n) {
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    fwrite(b, 1, n, f);
    fclose(f);
}
static void expect_load_err(gpu_t *g, const char *path, const char *sym, const char *what) {
    gpu_kernel k;
    char err[256] = "";
    assert_int_equal(gpu_load_kernel(g, path, sym, &k, err, sizeof err), -1);
    if (!strstr(err, what)) fail_msg("expected '%s' in: %s", what, err);
}
static void test_elf_errors(void **state) {
    (void)state;
    gpu_config c = small_cfg(1);
    gpu_t *g = mk_gpu(&c);
    FILE *f = fopen(kpath("vecadd"), "rb");
    assert_non_null(f);
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    char p[256];
    snprintf(p, sizeof p, "/tmp/simt_elf_%d", (int)getpid());
    expect_load_err(g, "/nonexistent/k.elf", NULL, "cannot open");
    write_file(p, buf, 30);
    expect_load_err(g, p, NULL, "truncated");
    write_file(p, buf, n / 2);
    expect_load_err(g, p, NULL, "truncated");
    write_file(p, "hello world, not an elf", 23);
    expect_load_err(g, p, NULL, "not an ELF");
    expect_load_err(g, "/proc/self/exe", NULL, "not ELF32");
    uint8_t *m = malloc(n);
    memcpy(m, buf, n); m[18] = 40; m[19] = 0; /* EM_ARM */
    write_file(p, m, n);
    expect_load_err(g, p, NULL, "not RISC-V");
    memcpy(m, buf, n); m[36] &= (uint8_t)~6; /* soft-float ABI */
    write_file(p, m, n);
    expect_load_err(g, p, NULL, "float ABI");
    memcpy(m, buf, n); m[36] |= 1; /* RVC */
    write_file(p, m, n);
    expect_load_err(g, p, NULL, "compressed");
    expect_load_err(g, kpath("vecadd"), "no_such_kernel", "not found");
    free(m);
    remove(p);
    /* several kernels loaded at once, each relocated */
    gpu_kernel k1 = load(g, "vecadd", "vecadd"), k2 = load(g, "t_isa", "t_div");
    assert_true(k1.entry != k2.entry);
    gpu_free(g);
}

/* ------------------------------------------------------------ faults */
static void test_fault(void **state) {
    (void)state;
    gpu_config c = small_cfg(1);
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_fault");
    t_args a = {0, (uint32_t)gpu_malloc(g, 4096), 64, 0x10};
    gpu_launch_desc d = gpu_desc_1d(&k, 2, 32, put(g, &a, sizeof a));
    char err[256];
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), 0);
    for (int i = 0; i < 100000 && !gpu_idle(g); i++) gpu_tick(g);
    assert_true(gpu_idle(g));
    assert_non_null(gpu_error(g));
    printf("# fault reported: %s\n", gpu_error(g));
    assert_non_null(strstr(gpu_error(g), "bad address 0x00000010"));
    assert_non_null(strstr(gpu_error(g), "lane 5")); /* thread 37 = block 1 lane 5 */
    gpu_free(g);
}

/* ------------------------------------------------------------ timing */
/* extra: added to the L2's tag pipeline (L2 cycles = core cycles here) */
static uint64_t chase_cycles(unsigned extra, unsigned n, cbrec *rec) {
    gpu_config c = small_cfg(1);
    c.mem.l2_latency += extra;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_chase");
    /* chain through distinct lines: every load misses L1 */
    uint64_t base = gpu_malloc(g, (uint64_t)(n + 1) * 256);
    for (unsigned i = 0; i < n; i++) {
        uint32_t nx = (uint32_t)(base + (uint64_t)(i + 1) * 256);
        gpu_mem_write(g, base + (uint64_t)i * 256, &nx, 4);
    }
    t_args a = {(uint32_t)base, (uint32_t)gpu_malloc(g, 4), n, 0};
    uint64_t cyc = run(g, &k, 1, 1, put(g, &a, sizeof a), rec);
    uint32_t r;
    gpu_mem_read(g, a.out, &r, 4);
    assert_int_equal(r, base + (uint64_t)n * 256);
    gpu_free(g);
    return cyc;
}

static void test_timing_load_chain(void **state) {
    (void)state;
    gpu_config c = small_cfg(1);
    enum { N = 50 };
    cbrec r1[1] = {{0}}, r2[1] = {{0}};
    uint64_t t1 = chase_cycles(0, N, r1), t2 = chase_cycles(200, N, r2);
    mem_lat l2hit, dram;
    mem_unloaded_latency(&c.mem, 1000, MEM_LAT_L2_HIT, c.line_bytes, &l2hit);
    mem_unloaded_latency(&c.mem, 1000, MEM_LAT_ROW_HIT, c.line_bytes, &dram);
    uint64_t per = c.l1_hit_latency + dram.total;
    printf("# load chain: %u loads, %llu cycles (%.1f per load; L1 hit + unloaded L2 miss, DRAM row hit = %llu), "
           "%llu with the L2 200 cycles slower; first instruction at cycle %llu (L2 hit %llu)\n", N,
           (unsigned long long)t1, (double)t1 / N, (unsigned long long)per, (unsigned long long)t2,
           (unsigned long long)r1->first, (unsigned long long)l2hit.total);
    /* each load waits for the previous one, every one a DRAM access (cold L2):
     * N * (l1_hit + memory) plus loop overhead */
    assert_true(t1 >= (uint64_t)N * per);
    assert_true(t1 <= (uint64_t)N * (per + 40) + 2000);
    /* the difference is N loads (+ a few i-cache misses) times the L2 delta */
    assert_true(t2 - t1 >= (uint64_t)N * 200);
    assert_true(t2 - t1 <= (uint64_t)(N + 6) * 200);
    /* the first instruction waits for an i-cache miss through the memory system */
    assert_true(r1->first >= l2hit.total);
}

/* [gpu] kernel_end_drain: two pointer chases (one thread each, every load
 * an L1 miss) side by side on one core, with the core told before every
 * cycle that a kernel ended there (kick; as an event warp's exit does).  With
 * the drain a chase's next load may not issue while the other's line is in
 * flight: never two lines out at once, the chases serialized; without it the
 * calls change nothing. */
static uint64_t chase_pair(bool drain, bool kick, unsigned *max_out, gpu_stats *st) {
    enum { N = 20 };
    gpu_config c = small_cfg(1);
    c.kernel_end_drain = drain;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_chase");
    t_args a[2];
    for (unsigned j = 0; j < 2; j++) {
        uint64_t base = gpu_malloc(g, (uint64_t)(N + 1) * 256);
        for (unsigned i = 0; i < N; i++) {
            uint32_t nx = (uint32_t)(base + (uint64_t)(i + 1) * 256);
            gpu_mem_write(g, base + (uint64_t)i * 256, &nx, 4);
        }
        a[j] = (t_args){(uint32_t)base, (uint32_t)gpu_malloc(g, 4), N, 0};
    }
    cbrec rec[2] = {{0}};
    gpu_callbacks cb = {cb_first, cb_done, rec};
    gpu_set_callbacks(g, &cb);
    char err[256];
    for (unsigned j = 0; j < 2; j++) {
        gpu_launch_desc d = gpu_desc_1d(&k, 1, 1, put(g, &a[j], sizeof a[j]));
        d.tag = j;
        if (gpu_launch(g, &d, err, sizeof err)) fail_msg("launch: %s", err);
    }
    simt_core *core = simt_core_nth(g->core, 0);
    const uint64_t t0 = gpu_cycle(g);
    *max_out = 0;
    while (!gpu_idle(g)) {
        if (kick) simt_core_kernel_end(core);
        const uint64_t lines = core->l1_hits + core->l1_misses;
        gpu_tick(g);
        /* still draining after the cycle: it drained through the issue, so no load line went out */
        if (core->end_drain) assert_int_equal(core->l1_hits + core->l1_misses, lines);
        if (core->mshrs_used > *max_out) *max_out = core->mshrs_used;
        if (gpu_cycle(g) - t0 > 10000000ull) fail_msg("chases did not finish");
    }
    assert_null(gpu_error(g));
    for (unsigned j = 0; j < 2; j++) {
        uint32_t r;
        gpu_mem_read(g, a[j].out, &r, 4);
        assert_int_equal(r, a[j].in + (uint32_t)N * 256);
    }
    gpu_get_stats(g, st);
    const uint64_t t = gpu_cycle(g) - t0;
    gpu_free(g);
    return t;
}

static void test_kernel_end_drain(void **state) {
    (void)state;
    unsigned m_none, m_off, m_on;
    gpu_stats s_none, s_off, s_on;
    const uint64_t none = chase_pair(false, false, &m_none, &s_none), off = chase_pair(false, true, &m_off, &s_off),
                   on = chase_pair(true, true, &m_on, &s_on);
    printf("# kernel_end_drain: two 20-load chases on one core, a kernel end before every cycle: %llu cycles "
           "(%u lines out at most) with the drain, %llu (%u) without, %llu with no kernel ends; %llu drains, "
           "%llu cycles in them, %llu refusing an instruction\n",
           (unsigned long long)on, m_on, (unsigned long long)off, m_off, (unsigned long long)none,
           (unsigned long long)s_on.end_drains, (unsigned long long)s_on.end_drain_cycles,
           (unsigned long long)s_on.end_drain_stalls);
    /* off: the calls change nothing */
    assert_int_equal(off, none);
    assert_int_equal(s_off.end_drains + s_off.end_drain_cycles + s_off.end_drain_stalls, 0);
    assert_int_equal(m_off, 2);
    /* on: a load waits for the other chase's line: one line out at a time, about twice the time */
    assert_int_equal(m_on, 1);
    assert_true(on > off + off * 3 / 4);
    assert_true(s_on.end_drains > 0 && s_on.end_drain_stalls > 0 && s_on.end_drain_cycles >= s_on.end_drain_stalls);
}

/* GTO + priority: a high-priority warp is not slowed by older warps; a
 * normal-priority one is. Active-warp limit: 1 warp cannot hide latency, and
 * it holds background warps only (an event kernel's warps take no place). */
static uint64_t spin_mix_n(unsigned prio, unsigned limit, uint64_t *bg_time, unsigned sched, unsigned ev_threads,
                           bool boost) {
    gpu_config c = small_cfg(1);
    c.schedulers_per_core = 1;
    c.warp_scheduler = sched;
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_spin");
    if (limit) gpu_set_active_warp_limit(g, 0, limit);
    cbrec rec[2] = {{0}};
    gpu_callbacks cb = {cb_first, cb_done, rec};
    gpu_set_callbacks(g, &cb);
    t_args a0 = {0, (uint32_t)gpu_malloc(g, 4096 * 4), 400, 0}, a1 = {0, (uint32_t)gpu_malloc(g, 4096), 100, 0};
    gpu_launch_desc d = gpu_desc_1d(&k, 1, 256, put(g, &a0, sizeof a0));
    char err[256];
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), 0);
    for (int i = 0; i < 2000; i++) gpu_tick(g);
    uint64_t t0 = gpu_cycle(g);
    d.block[0] = ev_threads; d.param_addr = put(g, &a1, sizeof a1); d.priority = prio; d.tag = 1;
    assert_int_equal(gpu_launch(g, &d, err, sizeof err), 0);
    if (boost) { /* background warp 0 above the event's priority, as a preemption victim's boost puts it */
        simt_core_set_priority(&g->core[0], 0, 0xfffeu);
        simt_core_sort(&g->core[0]);
    }
    while (!gpu_idle(g)) gpu_tick(g);
    assert_null(gpu_error(g));
    assert_int_equal(rec[1].ndone, 1);
    if (bg_time) *bg_time = rec[0].done;
    uint64_t t = rec[1].done - t0;
    gpu_free(g);
    return t;
}
static uint64_t spin_mix(unsigned prio, unsigned limit, uint64_t *bg_time, unsigned sched) {
    return spin_mix_n(prio, limit, bg_time, sched, 32, false);
}

static void test_gto_priority_limit(void **state) {
    (void)state;
    uint64_t bg_hi, bg_lo, bg_l1, bg_free;
    uint64_t hi = spin_mix(1, 0, &bg_hi, GPU_SCHED_GTO), lo = spin_mix(0, 0, &bg_lo, GPU_SCHED_GTO);
    spin_mix(1, 1, &bg_l1, GPU_SCHED_GTO);
    spin_mix(1, 0, &bg_free, GPU_SCHED_GTO);
    /* loose round-robin ([gpu] warp_scheduler = lrr): the young warp gets its
     * turn among the 8 older ones at equal priority; priority still first */
    uint64_t lrr_lo = spin_mix(0, 0, NULL, GPU_SCHED_LRR), lrr_hi = spin_mix(1, 0, NULL, GPU_SCHED_LRR);
    printf("# GTO: event warp (32 threads, 100 iterations) beside 8 older warps: %llu cycles at priority 1, "
           "%llu at priority 0\n", (unsigned long long)hi, (unsigned long long)lo);
    printf("# active-warp limit 1: background done at %llu vs %llu unlimited\n", (unsigned long long)bg_l1,
           (unsigned long long)bg_free);
    printf("# LRR: the same event warp: %llu cycles at priority 1, %llu at priority 0\n",
           (unsigned long long)lrr_hi, (unsigned long long)lrr_lo);
    assert_true(lo > 2 * hi);        /* GTO serves the older warps first at equal priority */
    assert_true(2 * lrr_lo < lo);    /* LRR does not starve it */
    assert_true(lrr_hi < lrr_lo);    /* and still serves the higher priority first */
    assert_true(lrr_hi <= hi + hi / 4);
    assert_true(bg_l1 > bg_free + bg_free / 2); /* one active warp cannot hide ALU latency */
    /* an event of two warps under a limit of 1: neither is held (were the
     * events counted, the second would wait for the first, about 2x) */
    const uint64_t e2 = spin_mix_n(1, 0, NULL, GPU_SCHED_GTO, 64, false),
                   e2_l1 = spin_mix_n(1, 1, NULL, GPU_SCHED_GTO, 64, false);
    /* and with a background warp boosted ahead of the event (the limit's one
     * place is its; the event's warps, behind it in GTO order, still issue) */
    const uint64_t e2_b = spin_mix_n(1, 0, NULL, GPU_SCHED_GTO, 64, true),
                   e2_bl1 = spin_mix_n(1, 1, NULL, GPU_SCHED_GTO, 64, true);
    printf("# active-warp limit 1: a two-warp event at priority 1 takes %llu cycles, %llu unlimited; behind a "
           "boosted background warp %llu, %llu unlimited\n", (unsigned long long)e2_l1, (unsigned long long)e2,
           (unsigned long long)e2_bl1, (unsigned long long)e2_b);
    assert_true(e2_l1 <= e2 + e2 / 8);
    assert_true(e2_bl1 <= e2_b + e2_b / 8);
}

/* ------------------------------------------------------------- speed */
static void test_speed(void **state) {
    (void)state;
    gpu_config c;
    gpu_config_default(&c); /* EDGE Table II: 16 cores */
    gpu_t *g = mk_gpu(&c);
    gpu_kernel k = load(g, "t_isa", "t_spin");
    t_args a = {0, (uint32_t)gpu_malloc(g, 65536 * 4), 300, 0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    uint64_t cyc = run(g, &k, 128, 512, put(g, &a, sizeof a), NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    gpu_stats st;
    gpu_get_stats(g, &st);
    printf("# simt speed: %.2f M warp-instr/s, %.1f M thread-instr/s, %.0f k cycles/s "
           "(%llu warp instructions, %llu cycles, IPC %.2f, %.2f s)\n",
           (double)st.warp_instrs / secs / 1e6, (double)st.thread_instrs / secs / 1e6, (double)cyc / secs / 1e3,
           (unsigned long long)st.warp_instrs, (unsigned long long)cyc, (double)st.warp_instrs / (double)cyc, secs);
    uint32_t o[64];
    gpu_mem_read(g, a.out, o, sizeof o);
    for (unsigned i = 0; i < 64; i++) {
        uint32_t x = i, y = 1;
        for (uint32_t j = 0; j < 300; j++) { x = x * 1664525u + 1013904223u; y ^= x >> 7; }
        assert_int_equal(o[i], y);
    }
    gpu_free(g);
}

/* ----------------------------------------------------------- config */
static void test_config(void **state) {
    (void)state;
    fg_config *cf = fg_config_new();
    char err[256];
    assert_int_equal(fg_config_load(cf, "configs/edge.ini", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, "gpu.num_cores=3", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, "gpu.lat_sfu=50", err, sizeof err), 0);
    gpu_config c;
    gpu_config_default(&c);
    assert_int_equal(gpu_config_load(&c, cf, err, sizeof err), 0);
    assert_int_equal(c.num_cores, 3);
    assert_int_equal(c.lat[CL_SFU], 50);
    assert_int_equal(c.max_threads_per_core, 2048);
    assert_int_equal(c.atomics, GPU_ATOMICS_ISSUE); /* configs/edge.ini keeps atomics at issue */
    assert_int_equal(fg_config_set(cf, "gpu.atomics=memory", err, sizeof err), 0);
    assert_int_equal(gpu_config_load(&c, cf, err, sizeof err), 0);
    assert_int_equal(c.atomics, GPU_ATOMICS_MEMORY);
    assert_int_equal(fg_config_set(cf, "gpu.atomics=l2", err, sizeof err), 0);
    assert_int_equal(gpu_config_load(&c, cf, err, sizeof err), -1);
    printf("# %s\n", err);
    assert_non_null(strstr(err, "[gpu] atomics = 'l2' is not one of: issue memory"));
    assert_int_equal(fg_config_set(cf, "gpu.atomics=issue", err, sizeof err), 0);
    assert_false(c.kernel_end_drain); /* configs/edge.ini keeps the end-of-kernel drain off */
    assert_int_equal(fg_config_set(cf, "gpu.kernel_end_drain=1", err, sizeof err), 0);
    assert_int_equal(gpu_config_load(&c, cf, err, sizeof err), 0);
    assert_true(c.kernel_end_drain);
    assert_int_equal(fg_config_set(cf, "gpu.kernel_end_drain=2", err, sizeof err), 0);
    assert_int_equal(gpu_config_load(&c, cf, err, sizeof err), -1);
    printf("# %s\n", err);
    assert_non_null(strstr(err, "kernel_end_drain"));
    assert_null(strchr(err, '\n'));
    assert_int_equal(fg_config_set(cf, "gpu.kernel_end_drain=0", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, "gpu.warp_size=64", err, sizeof err), 0);
    assert_int_equal(gpu_config_load(&c, cf, err, sizeof err), -1);
    fg_config_free(cf);
}

static const unsigned atomics_issue = GPU_ATOMICS_ISSUE, atomics_memory = GPU_ATOMICS_MEMORY;

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vecadd),
        cmocka_unit_test(test_isa_int),
        cmocka_unit_test(test_isa_fp),
        cmocka_unit_test(test_isa_csr),
        {"test_atomics_issue", test_atomics, NULL, NULL, (void *)&atomics_issue},
        {"test_atomics_memory", test_atomics, NULL, NULL, (void *)&atomics_memory},
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_barrier_multiblock),
        cmocka_unit_test(test_never_fits),
        cmocka_unit_test(test_elf_errors),
        cmocka_unit_test(test_fault),
        cmocka_unit_test(test_timing_load_chain),
        cmocka_unit_test(test_kernel_end_drain),
        cmocka_unit_test(test_gto_priority_limit),
        cmocka_unit_test(test_speed),
        cmocka_unit_test(test_config),
    };
    return cmocka_run_group_tests_name("simt", tests, NULL, NULL);
}
