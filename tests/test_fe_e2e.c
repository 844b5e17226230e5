/* F/E bits end to end (docs/FE_E2E.md): the F/E runtime's staged
 * latency model against hand-computed F/E Table 2 cases; the trigger /
 * action semantics end to end (a kernel launched before its input arrives
 * waits exactly until the fill; a copy back with wait-full leaves only after
 * the kernel's stores; without the F/E flags the same calls return stale
 * data, so the checks can fail); every kernel-side F/E access of fg_fe.h and
 * the NACK retry-then-fault; every F/E Table 3 benchmark in every F/E Fig. 7
 * variant at a small size, checked against its host reference.  The F/E
 * queues run as FG_IMPL says (lockstep by default). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fe/fe_bench.h"
#include "fe/fe_cpu.h"
#include "fe/fe_host.h"
#include "fe/fe_json.h"
#include "fg_tb.h"
#include "gpu_tb.h"
#include "simt/gpu.h"

static char kpath_buf[512];
static const char *kpath(const char *name) { return tb_kernel_path(kpath_buf, sizeof kpath_buf, name); }

struct t_fe_args {
    uint32_t in, out, n, mode, val;
};

/* The F/E machine (configs/fe.ini) with the F/E queues as FG_IMPL says. */
static void machine(fe_machine *m) {
    fe_cli cli;
    char err[512];
    fe_cli_init(&cli);
    const char *impl = getenv("FG_IMPL");
    cli.e.impl = impl && *impl ? impl : "lockstep";
    if (fe_machine_load(&cli, m, err, sizeof err)) fail_msg("%s", err);
    fe_cli_free(&cli);
}

typedef struct {
    gpu_t *g;
    fe_host *h;
    gpu_kernel k;
} rt;

static void rt_new(rt *r, const fe_machine *m, const char *sym) {
    char err[512];
    r->g = gpu_new(&m->gpu, err, sizeof err);
    if (!r->g) fail_msg("gpu_new: %s", err);
    r->h = fe_host_new(r->g, &m->host, err, sizeof err);
    if (!r->h) fail_msg("fe_host_new: %s", err);
    if (sym && gpu_load_kernel(r->g, kpath("t_fe_e2e"), sym, &r->k, err, sizeof err)) fail_msg("%s", err);
}

static void rt_free(rt *r) {
    fe_host_free(r->h);
    gpu_free(r->g);
}

static void ok(rt *r, int rc) {
    if (rc || fe_error(r->h)) fail_msg("%s", fe_error(r->h) ? fe_error(r->h) : "call failed");
}

static const fe_cmd *cmd(rt *r, unsigned i) {
    unsigned n;
    const fe_cmd *c = fe_commands(r->h, &n);
    assert_true(i < n);
    return &c[i];
}

static gpu_launch_desc desc(const rt *r, unsigned threads, uint64_t param) {
    return gpu_desc_1d(&r->k, (threads + 63) / 64, 64, param);
}

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-6)

/* F/E Table 2 by hand, on an idle F/E machine (6.8 GB/s, 772 MHz):
 *   memcpyAsync(6800 B): control back 1.2 us after the call, driver 6 us
 *     after that, the copy at the host interface at the first GPU cycle
 *     after, 6800 B / 6.8 GB/s = 1 us on the link + the memory system's ACKs;
 *   a second memcpyAsync 1.2 us later waits for the driver (a stall between
 *     stages: driver from 7.2 to 13.2 us); a launch (1.5 + 3 us) after it
 *     waits too (13.2 .. 16.2 us) and runs after both copies (one stream);
 *   streamSynchronize: 1 us, returns 1 us after the work is done;
 *   deviceSynchronize with nothing pending: 1 + 1 us;
 *   blocking memcpy(6800 B): the driver's 7 us, then the copy, control back
 *     when it is done. */
static void test_staged_latency(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    rt r;
    rt_new(&r, &m, "t_fe_copy");
    static uint8_t buf[6800];
    const double ns_per_cycle = 1000.0 / m.gpu.clock_mhz, link = 6800 / m.host.pcie.bw_gbps;
    NEAR(link, 1000.0);
    uint64_t a = fe_malloc(r.h, sizeof buf), b = fe_malloc(r.h, sizeof buf);
    const double t0 = fe_now(r.h);

    /* device sync with nothing pending: 1 us + 1 us */
    ok(&r, fe_device_sync(r.h));
    NEAR(fe_now(r.h), t0 + 2000);
    const double t1 = fe_now(r.h);

    struct t_fe_args ka = {(uint32_t)a, (uint32_t)b, 16, 0, 0};
    uint64_t prm = fe_malloc(r.h, sizeof ka);
    ok(&r, fe_poke(r.h, prm, &ka, sizeof ka));
    gpu_launch_desc d = desc(&r, 16, prm);
    ok(&r, fe_memcpy_async(r.h, 0, FE_H2D, a, buf, sizeof buf, FE_TRIGGER_NONE, FE_ACTION_NONE, "c1"));
    ok(&r, fe_memcpy_async(r.h, 0, FE_H2D, b, buf, sizeof buf, FE_TRIGGER_NONE, FE_ACTION_NONE, "c2"));
    ok(&r, fe_launch(r.h, 0, &d, "k"));
    const fe_cmd *c1 = cmd(&r, 1), *c2 = cmd(&r, 2), *k = cmd(&r, 3);
    NEAR(c1->t_return, t1 + 1200);
    NEAR(c1->t_drv_start, t1 + 1200);
    NEAR(c1->t_drv_end, t1 + 7200);
    NEAR(c2->t_call, t1 + 1200);
    NEAR(c2->t_return, t1 + 2400);
    NEAR(c2->t_drv_start, t1 + 7200); /* waited 4.8 us for the driver */
    NEAR(c2->t_drv_end, t1 + 13200);
    NEAR(k->t_return, t1 + 3900);
    NEAR(k->t_drv_start, t1 + 13200);
    NEAR(k->t_drv_end, t1 + 16200);
    const double t_sync = fe_now(r.h);
    NEAR(t_sync, t1 + 3900);
    ok(&r, fe_stream_sync(r.h, 0));
    c1 = cmd(&r, 1), c2 = cmd(&r, 2), k = cmd(&r, 3);
    const fe_cmd *s = cmd(&r, 4);
    printf("# c1 at the host interface %.1f ns after its driver stage, done after %.1f ns (link %.0f ns)\n",
           c1->t_exec_start - c1->t_drv_end, c1->t_exec_end - c1->t_exec_start, link);
    printf("# c2 done after %.1f ns; kernel %.1f .. %.1f ns; sync returned at %.1f ns\n",
           c2->t_exec_end - c2->t_exec_start, k->t_exec_start - t1, k->t_exec_end - t1, s->t_return - t1);
    /* execution: at the first cycle after the driver; the link time plus ACKs (under 1 us here) */
    assert_true(c1->t_exec_start >= c1->t_drv_end - 1e-6 && c1->t_exec_start < c1->t_drv_end + ns_per_cycle);
    assert_true(c1->t_exec_end - c1->t_exec_start >= link && c1->t_exec_end - c1->t_exec_start < link + 1000);
    assert_true(c2->t_exec_start >= c2->t_drv_end - 1e-6 && c2->t_exec_start < c2->t_drv_end + ns_per_cycle);
    /* one stream: after c2's ACKs, and after its own driver stage (the later here) */
    assert_true(k->t_exec_start >= c2->t_exec_end && k->t_exec_start >= k->t_drv_end - 1e-6);
    assert_true(k->t_exec_start < k->t_drv_end + ns_per_cycle);
    assert_true(k->t_exec_end > k->t_exec_start);
    NEAR(s->t_return, k->t_exec_end + 1000); /* the work ends after the 1 us call: returns 1 us later */
    NEAR(fe_now(r.h), s->t_return);

    /* blocking memcpy: 7 us after every earlier command, then the copy */
    const double t2 = fe_now(r.h);
    ok(&r, fe_memcpy(r.h, FE_H2D, a, buf, sizeof buf, FE_TRIGGER_NONE, FE_ACTION_NONE, "blocking"));
    const fe_cmd *mc = cmd(&r, 5);
    NEAR(mc->t_drv_start, t2);
    NEAR(mc->t_drv_end, t2 + 7000);
    assert_true(mc->t_exec_start >= t2 + 7000 - 1e-6 && mc->t_exec_start < t2 + 7000 + ns_per_cycle);
    assert_true(mc->t_exec_end - mc->t_exec_start >= link && mc->t_exec_end - mc->t_exec_start < link + 1000);
    NEAR(fe_now(r.h), mc->t_exec_end);
    printf("# blocking memcpy of 6800 B: %.1f ns (7000 + 1000 + ACKs)\n", fe_now(r.h) - t2);
    assert_null(fe_error(r.h));
    rt_free(&r);
}

/* Bad calls are refused with a message (and every later call fails). */
static void test_bad_calls(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    char err[256];
    fe_host_params p = m.host;
    p.streams = FE_MAX_STREAMS + 1;
    gpu_t *g = gpu_new(&m.gpu, err, sizeof err);
    assert_non_null(g);
    assert_null(fe_host_new(g, &p, err, sizeof err));
    printf("# %s\n", err);
    gpu_config gc = m.gpu;
    gc.dma_chans = 2; /* 4 streams + the blocking memcpy need 5 */
    gpu_t *g2 = gpu_new(&gc, err, sizeof err);
    assert_non_null(g2);
    assert_null(fe_host_new(g2, &m.host, err, sizeof err));
    assert_non_null(strstr(err, "dma_chans"));
    gpu_free(g2);
    gpu_free(g);

    rt r;
    rt_new(&r, &m, NULL);
    uint32_t x = 0;
    uint64_t a = fe_malloc(r.h, 4);
    assert_int_equal(fe_memcpy_async(r.h, 9, FE_H2D, a, &x, 4, 0, 0, "bad stream"), -1);
    assert_non_null(strstr(fe_error(r.h), "stream 9"));
    assert_int_equal(fe_device_sync(r.h), -1); /* sticky */
    rt_free(&r);
    rt_new(&r, &m, NULL);
    assert_int_equal(fe_memcpy_async(r.h, 0, FE_H2D, a, &x, 4, 3, 0, "bad trigger"), -1);
    printf("# %s\n", fe_error(r.h));
    rt_free(&r);
    rt_new(&r, &m, NULL);
    assert_int_equal(fe_memcpy_async(r.h, 0, FE_H2D, 1ull << 40, &x, 4, 0, 0, "out of range"), 0);
    assert_int_equal(fe_stream_sync(r.h, 0), -1);
    printf("# %s\n", fe_error(r.h));
    rt_free(&r);
}

/* F/E Fig. 7(d) on one line: the kernel (t_fe_copy: out[i] = in[i] + 1,
 * thread 0 records the cycle its load returned in out[N]) is launched
 * first, the copy back of out with wait-full is issued before it, and the
 * input arrives with fill in a third stream after the CPU thread computed
 * for 20 us.  fe = false: the same calls with no flags over ordinary
 * memory (the kernel reads stale input, the copy back stale output). */
#define N 32
typedef struct {
    uint32_t in[N], out[N + 1];
    double load_ns, fill_end, fill_start, kernel_first, kernel_end, back_start, back_end;
} flow;

static void full_overlap_flow(const fe_machine *m, bool fe, flow *f) {
    rt r;
    rt_new(&r, m, "t_fe_copy");
    for (unsigned i = 0; i < N; i++) f->in[i] = 1000 + i;
    memset(f->out, 0xee, sizeof f->out);
    uint64_t in = fe ? fe_malloc_sync(r.h, N * 4, false) : fe_malloc(r.h, N * 4);
    uint64_t out = fe ? fe_malloc_sync(r.h, (N + 1) * 4, false) : fe_malloc(r.h, (N + 1) * 4);
    assert_true(in && out);
    uint32_t stale[N + 1];
    for (unsigned i = 0; i <= N; i++) stale[i] = 0xdead0000u + i;
    ok(&r, fe_poke(r.h, in, stale, N * 4)); /* what the memory held before (the bits say empty) */
    ok(&r, fe_poke(r.h, out, stale, (N + 1) * 4));
    struct t_fe_args ka = {(uint32_t)in, (uint32_t)out, N, 0, 0};
    uint64_t prm = fe_malloc(r.h, sizeof ka);
    ok(&r, fe_poke(r.h, prm, &ka, sizeof ka));
    gpu_launch_desc d = desc(&r, N, prm);
    ok(&r, fe_launch(r.h, 0, &d, "kernel"));
    ok(&r, fe_memcpy_async(r.h, 2, FE_D2H, out, f->out, (N + 1) * 4, fe ? FE_TRIGGER_FILLED : FE_TRIGGER_NONE,
                           FE_ACTION_NONE, "back"));
    fe_cpu_work(r.h, 20000);
    ok(&r, fe_memcpy_async(r.h, 1, FE_H2D, in, f->in, N * 4, FE_TRIGGER_NONE, fe ? FE_ACTION_FILL : FE_ACTION_NONE,
                           "in"));
    ok(&r, fe_device_sync(r.h));
    const fe_cmd *k = cmd(&r, 0), *back = cmd(&r, 1), *cin = cmd(&r, 2);
    f->kernel_first = fe_cycle_ns(r.h, k->first_cycle);
    f->kernel_end = k->t_exec_end;
    f->back_start = back->t_exec_start;
    f->back_end = back->t_exec_end;
    f->fill_start = cin->t_exec_start;
    f->fill_end = cin->t_exec_end;
    f->load_ns = fe_cycle_ns(r.h, f->out[N]);
    gpu_stats s;
    gpu_get_stats(r.g, &s);
    assert_int_equal(s.fe_nacks, 0);
    rt_free(&r);
}

/* A kernel launched before its input arrives waits exactly until the fill:
 * its load returns after the copy's line write reached the F/E queues and
 * within the memory system's return latency of the copy's ACK. */
static void test_wait_for_fill(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    flow f;
    full_overlap_flow(&m, true, &f);
    printf("# kernel first instruction %.1f ns, input copy %.1f .. %.1f ns, thread 0's load back at %.1f ns\n",
           f.kernel_first, f.fill_start, f.fill_end, f.load_ns);
    for (unsigned i = 0; i < N; i++) assert_int_equal(f.out[i], 1000 + i + 1);
    assert_true(f.kernel_first < f.fill_start - 10000); /* it was running 10+ us before the data */
    assert_true(f.load_ns > f.fill_start);              /* waited for the fill ... */
    assert_true(fabs(f.load_ns - f.fill_end) < 500);    /* ... and not longer (ACK vs. data return) */
    /* without F/E the kernel does not wait: it reads the stale words */
    flow s;
    full_overlap_flow(&m, false, &s);
    assert_true(s.load_ns < s.fill_start);
    for (unsigned i = 0; i < N; i++) assert_int_equal(s.out[i], 0xdead0000u + i + 1);
}

/* A copy back with wait-full leaves only after the kernel's store: it was
 * at the host interface before the kernel ran, its data is what the kernel
 * stored, and it ends after the kernel's load of the input (the stores
 * follow it).  Without wait-full it leaves before the input has arrived,
 * with whatever the memory held. */
static void test_copy_back_waits(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    flow f;
    full_overlap_flow(&m, true, &f);
    printf("# copy back at the host interface %.1f ns, done %.1f ns; kernel done %.1f ns\n", f.back_start, f.back_end,
           f.kernel_end);
    assert_true(f.back_start < f.fill_start); /* waiting before the input even arrived */
    for (unsigned i = 0; i < N; i++) assert_int_equal(f.out[i], 1000 + i + 1);
    assert_true(f.back_end > f.load_ns);
    assert_true(f.back_end < f.kernel_end + 2000); /* one line over PCIe after the last store */
    flow s;
    full_overlap_flow(&m, false, &s);
    assert_true(s.back_end < s.fill_start);
    for (unsigned i = 0; i < N; i++) assert_int_not_equal(s.out[i], 1000 + i + 1);
}

/* ---- kernel side: the accesses of fg_fe.h on one word (plain GPU) ---- */

static gpu_config small_gpu(unsigned retry_max) {
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 1;
    c.mem.fe_impl = tb_impl();
    c.mem.fe_wdog_limit = 2000;
    c.fe_retry_max = retry_max;
    c.fe_retry_backoff = 16;
    return c;
}

/* One launch of t_fe_modes; the GPU's error or NULL. */
static const char *modes(gpu_t *g, const gpu_kernel *k, uint64_t word, uint64_t out, unsigned mode, uint32_t val) {
    struct t_fe_args a = {(uint32_t)word, (uint32_t)out, 0, mode, val};
    gpu_launch_desc d = gpu_desc_1d(k, 1, 32, tb_gpu_put(g, &a, sizeof a));
    char err[256];
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("%s", err);
    for (uint64_t t = 0; !gpu_idle(g); t++) {
        if (t > 200000) fail_msg("mode %u: no progress", mode);
        gpu_tick(g);
    }
    return gpu_error(g);
}

static void test_kernel_accesses(void **st) {
    (void)st;
    gpu_config c = small_gpu(1);
    char err[256];
    gpu_t *g = gpu_new(&c, err, sizeof err);
    if (!g) fail_msg("%s", err);
    gpu_kernel k;
    if (gpu_load_kernel(g, kpath("t_fe_e2e"), "t_fe_modes", &k, err, sizeof err)) fail_msg("%s", err);
    uint64_t w = gpu_malloc_sync(g, 128), out = gpu_malloc(g, 8);
    uint32_t v = 5;
    gpu_mem_write(g, w, &v, 4);
    while (gpu_fe_init(g, w, 128, true)) gpu_tick(g);
    while (!gpu_idle(g)) gpu_tick(g);
    /* each step's access succeeds only if the bit is what the previous steps left */
    static const struct { unsigned mode; uint32_t val, want; const char *what; } seq[] = {
        {3, 0, 5, "ld none on full"},        {0, 0, 5, "ld wait-full (stays full)"},
        {2, 0, 5, "ld consume (empties)"},    {1, 0, 5, "ld wait-empty (so consume emptied it)"},
        {6, 11, 0, "st produce (fills)"},    {0, 0, 11, "ld wait-full (so produce filled it)"},
        {5, 12, 0, "st empty"},              {1, 0, 12, "ld wait-empty (so st empty emptied it)"},
        {7, 13, 0, "st none (stays empty)"}, {1, 0, 13, "ld wait-empty"},
        {4, 14, 0, "st fill"},               {0, 0, 14, "ld wait-full"},
    };
    for (unsigned i = 0; i < sizeof seq / sizeof *seq; i++) {
        uint32_t o[2] = {0, 0};
        gpu_mem_write(g, out, o, 8);
        const char *e = modes(g, &k, w, out, seq[i].mode, seq[i].val);
        if (e) fail_msg("%s: %s", seq[i].what, e);
        gpu_mem_read(g, out, o, 8);
        assert_int_equal(o[1], 1);
        if (seq[i].mode < 4) assert_int_equal(o[0], seq[i].want);
    }
    gpu_stats s;
    gpu_get_stats(g, &s);
    assert_int_equal(s.fe_nacks, 0);
    gpu_free(g);

    /* a wait-full load of an empty word nobody fills: NACKed, sent again
     * once (fe_retry_max 1), NACKed again, then a clear fault */
    g = gpu_new(&c, err, sizeof err);
    if (!g || gpu_load_kernel(g, kpath("t_fe_e2e"), "t_fe_modes", &k, err, sizeof err)) fail_msg("%s", err);
    w = gpu_malloc_sync(g, 128), out = gpu_malloc(g, 8);
    while (gpu_fe_init(g, w, 128, false)) gpu_tick(g);
    while (!gpu_idle(g)) gpu_tick(g);
    const char *e = modes(g, &k, w, out, 0, 0);
    assert_non_null(e);
    printf("# %s\n", e);
    assert_non_null(strstr(e, "NACKed 2 times"));
    gpu_get_stats(g, &s);
    assert_int_equal(s.fe_nacks, 2);
    assert_int_equal(s.fe_retries, 1);
    gpu_free(g);
}

/* ---- every benchmark in every variant at a small size ---- */
static void test_benchmarks_small(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    for (int b = 0; b < FE_BENCHES; b++) {
        double t[FE_VARIANTS];
        for (int v = 0; v < FE_VARIANTS; v++) {
            fe_bench_opts o = {m.kdir, 1, fe_bench_small_size(b)};
            fe_bench_result r;
            char err[512];
            if (fe_bench_run(&m.gpu, &m.host, b, (fe_variant)v, &o, &r, err, sizeof err))
                fail_msg("%s %s: %s", fe_bench_names[b], fe_variant_names[v], err);
            t[v] = r.runtime_ns;
            fe_bench_result_free(&r);
        }
        printf("# %-12s baseline %7.1f us, overlap-start %.3f, overlap-finish %.3f, full-overlap %.3f\n",
               fe_bench_names[b], t[0] / 1e3, t[1] / t[0], t[2] / t[0], t[3] / t[0]);
        assert_true(t[FE_FULL_OVERLAP] < t[FE_BASELINE]); /* full overlap hides at least the API latencies */
    }
    /* a wrong size is refused with a message */
    fe_bench_opts o = {m.kdir, 1, 30};
    fe_bench_result r;
    char err[512];
    assert_int_equal(fe_bench_run(&m.gpu, &m.host, FE_B_MATRIXMUL, FE_BASELINE, &o, &r, err, sizeof err), -1);
    printf("# %s\n", err);
}

/* F/E Fig. 12's CPU (configs/fe.ini [cpu]: 4 wide, 2 memory instructions
 * a cycle): the -O2 loop's 3 memory instructions per element need at least
 * 1.5 cycles an element; the -O0 loop's chain through i in memory (load 4
 * + add 1 + store 1) at least 6, its 11 memory instructions 5.5; both
 * linear in the size (the L3 latency is hidden by the window). */
static void test_cpu_vecadd(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    char err[256];
    fe_cpu_env warm = m.cpu_env;
    warm.first_touch_ns = 0;
    for (int code = 0; code < FE_CPU_CODES; code++) {
        fe_cpu_result r1, r4;
        if (fe_cpu_vecadd(&m.cpu, &warm, (fe_cpu_code)code, 4096, &r1, err, sizeof err) ||
            fe_cpu_vecadd(&m.cpu, &warm, (fe_cpu_code)code, 16384, &r4, err, sizeof err))
            fail_msg("%s", err);
        printf("# CPU -%s: %.2f cycles per element (IPC %.2f), %.3f ns per element at %g MHz\n",
               fe_cpu_code_names[code], r4.cycles_per_elem, r4.ipc, r4.ns / 16384, m.cpu.clock_mhz);
        assert_int_equal(r4.instrs, 16384ull * fe_cpu_vecadd_instrs((fe_cpu_code)code));
        assert_true(r4.cycles_per_elem >= (code ? 6.0 : 1.5));
        assert_true(r4.cycles_per_elem < (code ? 20.0 : 4.0));
        assert_true(fabs(r4.ns / r1.ns - 4.0) < 0.1);
    }
    fe_cpu_result r;
    assert_int_equal(fe_cpu_vecadd(&m.cpu, &warm, FE_CPU_O2, 0, &r, err, sizeof err), -1);
    fe_cpu_env odd = warm;
    odd.page_bytes = 3000;
    assert_int_equal(fe_cpu_vecadd(&m.cpu, &odd, FE_CPU_O2, 1024, &r, err, sizeof err), -1);
    printf("# %s\n", err);
}

/* The figure's CPU writes a fresh output: one fault per page of c, each
 * adding [fe] cpu_first_touch_ns to the loop's time and nothing else. */
static void test_cpu_first_touch(void **st) {
    (void)st;
    fe_machine m;
    machine(&m);
    char err[256];
    assert_true(m.cpu_env.first_touch_ns > 0); /* configs/fe.ini sets it */
    fe_cpu_env warm = m.cpu_env;
    warm.first_touch_ns = 0;
    const uint64_t sizes[] = {1, 1024, 1025, 16384};
    const uint64_t pages[] = {1, 1, 2, 16}; /* 4-byte elements, 4096-byte pages */
    for (int i = 0; i < 4; i++) {
        fe_cpu_result w, t;
        if (fe_cpu_vecadd(&m.cpu, &warm, FE_CPU_O2, sizes[i], &w, err, sizeof err) ||
            fe_cpu_vecadd(&m.cpu, &m.cpu_env, FE_CPU_O2, sizes[i], &t, err, sizeof err))
            fail_msg("%s", err);
        assert_int_equal(m.cpu_env.page_bytes, 4096);
        assert_int_equal(t.faults, pages[i]);
        assert_int_equal(w.cycles, t.cycles);
        assert_true(fabs(t.ns - w.ns - (double)pages[i] * m.cpu_env.first_touch_ns) < 1e-6);
        assert_true(fabs(t.fault_ns - (double)pages[i] * m.cpu_env.first_touch_ns) < 1e-6);
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_staged_latency),  cmocka_unit_test(test_bad_calls),
        cmocka_unit_test(test_wait_for_fill),   cmocka_unit_test(test_copy_back_waits),
        cmocka_unit_test(test_kernel_accesses), cmocka_unit_test(test_benchmarks_small),
        cmocka_unit_test(test_cpu_vecadd),      cmocka_unit_test(test_cpu_first_touch),
    };
    return cmocka_run_group_tests_name("fe_e2e", tests, NULL, NULL);
}
