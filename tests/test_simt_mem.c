/* The SIMT core's memory path through the memory system (sim/mem/): a load
 * miss costs the L1 plus the memory system's unloaded latency
 * (mem_unloaded_latency), stores are acknowledged and FENCE waits for them,
 * F/E-tracked loads get their value when the F/E queues release them and a
 * load the queues never satisfy is NACKed into a clear GPU fault (not a
 * hang), host DMA through the host port, a spin lock under contention is
 * slower with its atomics performed at the L2 ([gpu] atomics = memory) than
 * at issue, and no request is lost or duplicated (requests sent = responses
 * taken when idle).  The F/E blocks run as FG_IMPL says (lockstep by
 * default). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "gpu_tb.h"
#include "mem/mem.h"
#include "simt/gpu.h"

static char kpath_buf[512];
static const char *kpath(const char *name) { return tb_kernel_path(kpath_buf, sizeof kpath_buf, name); }

typedef struct { uint32_t in, out, n, counter; } t_args;

static fg_impl impl_from_env(void) { return tb_impl(); }

static gpu_config cfg(unsigned cores) {
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = cores;
    c.mem.fe_impl = impl_from_env();
    return c;
}

static gpu_t *mk(const gpu_config *c) {
    char err[384];
    gpu_t *g = gpu_new(c, err, sizeof err);
    if (!g) fail_msg("gpu_new: %s", err);
    return g;
}

static gpu_kernel load(gpu_t *g, const char *sym) {
    gpu_kernel k;
    char err[256];
    if (gpu_load_kernel(g, kpath("t_isa"), sym, &k, err, sizeof err)) fail_msg("%s", err);
    return k;
}

static uint64_t put(gpu_t *g, const void *p, size_t n) { return tb_gpu_put(g, p, n); }

/* Launches one grid and ticks until idle (or max cycles); the GPU's error or NULL. */
static const char *run(gpu_t *g, const gpu_kernel *k, unsigned gx, unsigned bx, uint64_t param, uint64_t max) {
    gpu_launch_desc d = gpu_desc_1d(k, gx, bx, param);
    char err[256];
    if (gpu_launch(g, &d, err, sizeof err)) fail_msg("launch: %s", err);
    uint64_t t0 = gpu_cycle(g);
    while (!gpu_idle(g)) {
        gpu_tick(g);
        if (gpu_cycle(g) - t0 > max) fail_msg("no progress after %llu cycles", (unsigned long long)max);
    }
    return gpu_error(g);
}

/* Every request a core sent came back once (and the memory system is empty). */
static void no_request_lost(gpu_t *g) {
    gpu_stats s;
    gpu_get_stats(g, &s);
    assert_true(s.mem_requests > 0);
    assert_int_equal(s.mem_requests, s.mem_responses);
}

/* min / max of the unloaded latency of case k over the send cycle's phase */
static void mem_lat_range(const gpu_config *c, mem_lat_case k, uint64_t *lo, uint64_t *hi) {
    *lo = UINT64_MAX, *hi = 0;
    for (uint64_t t = 1000; t < 1064; t++) {
        mem_lat l;
        assert_int_equal(mem_unloaded_latency(&c->mem, t, k, c->line_bytes, &l), 0);
        if (l.total < *lo) *lo = l.total;
        if (l.total > *hi) *hi = l.total;
    }
}

/* One thread times single loads (t_lat: clock, load, use, clock): a cold
 * line (L2 miss, DRAM), the same line again (L1 hit: the L1 latency plus the
 * few cycles of the clock reads and the use), and after four other lines of
 * its L1 set pushed it out, once more (L1 miss, L2 hit).  A miss costs
 * exactly the L1 hit plus the memory system's unloaded latency of its case
 * (mem_unloaded_latency, over the clock phases of the send cycle). */
static void test_load_latency(void **st) {
    (void)st;
    gpu_config c = cfg(1);
    gpu_t *g = mk(&c);
    gpu_kernel k = load(g, "t_lat");
    uint64_t buf = gpu_malloc(g, 1u << 20);
    uint64_t x = (buf + 64 * 1024) & ~(uint64_t)(64 * 1024 - 1); /* set 0 of the L1 */
    uint32_t l1_span = c.l1_bytes / c.l1_assoc;                   /* same set, next way */
    uint32_t in[8] = {(uint32_t)(x + 4096 + 128), (uint32_t)x, (uint32_t)x, (uint32_t)(x + l1_span),
                      (uint32_t)(x + 2 * l1_span), (uint32_t)(x + 3 * l1_span), (uint32_t)(x + 4 * l1_span),
                      (uint32_t)x};
    for (unsigned i = 0; i < 8; i++) {
        uint32_t v = 100 + i; /* x (in[1], in[2], in[7]) ends up holding 107 */
        gpu_mem_write(g, in[i], &v, 4);
    }
    t_args a = {(uint32_t)put(g, in, sizeof in), (uint32_t)gpu_malloc(g, 9 * 4), 8, 0};
    const char *e = run(g, &k, 1, 1, put(g, &a, sizeof a), 100000);
    if (e) fail_msg("%s", e);
    uint32_t out[9];
    gpu_mem_read(g, a.out, out, sizeof out);
    uint32_t want = 0;
    for (unsigned i = 0; i < 8; i++) want += i == 1 || i == 2 || i == 7 ? 107 : 100 + i;
    assert_int_equal(out[8], want);
    uint64_t miss_lo, miss_hi, l2_lo, l2_hi, unused;
    mem_lat_range(&c, MEM_LAT_ROW_HIT, &miss_lo, &unused);
    mem_lat_range(&c, MEM_LAT_ROW_CONFLICT, &unused, &miss_hi);
    mem_lat_range(&c, MEM_LAT_L2_HIT, &l2_lo, &l2_hi);
    const uint32_t hit = out[2], dram = out[1] - hit, l2 = out[7] - hit;
    printf("# load latency as the warp sees it: L1 hit %u (L1 %u); an L1 miss adds %u to DRAM (unloaded %llu..%llu), "
           "%u to an L2 hit (unloaded %llu..%llu)\n", hit, c.l1_hit_latency, dram, (unsigned long long)miss_lo,
           (unsigned long long)miss_hi, l2, (unsigned long long)l2_lo, (unsigned long long)l2_hi);
    assert_true(hit >= c.l1_hit_latency + 2 && hit <= c.l1_hit_latency + 6);
    assert_true(dram >= miss_lo && dram <= miss_hi);
    assert_true(l2 >= l2_lo && l2 <= l2_hi);
    gpu_stats s;
    gpu_get_stats(g, &s);
    assert_true(s.l2_hits >= 1 && s.l2_misses >= 6);
    no_request_lost(g);
    gpu_free(g);
}

/* A warp stores to 4 lines and fences: the FENCE waits for the 4
 * acknowledgements (a visible stall); with nothing stored it does not. */
static void test_fence_waits_for_stores(void **st) {
    (void)st;
    uint32_t took[2];
    for (unsigned stores = 0; stores < 2; stores++) {
        gpu_config c = cfg(1);
        gpu_t *g = mk(&c);
        gpu_kernel k = load(g, "t_fence");
        uint32_t n = stores ? 4 : 0;
        t_args a = {(uint32_t)gpu_malloc(g, 4 * 128), (uint32_t)gpu_malloc(g, 32 * 4), 0, (uint32_t)put(g, &n, 4)};
        const char *e = run(g, &k, 1, 32, put(g, &a, sizeof a), 100000);
        if (e) fail_msg("%s", e);
        uint32_t out[32], mem[4 * 32];
        gpu_mem_read(g, a.out, out, sizeof out);
        gpu_mem_read(g, a.in, mem, sizeof mem);
        for (unsigned i = 0; i < 32; i++) {
            assert_int_equal(out[i], out[0]);
            for (unsigned q = 0; q < n; q++) assert_int_equal(mem[q * 32 + i], q + i);
        }
        took[stores] = out[0];
        gpu_stats s;
        gpu_get_stats(g, &s);
        assert_int_equal(s.stores, n + 1); /* the kernel's line writes + the out[] line */
        assert_int_equal(s.fences, stores);
        if (stores) assert_true(s.fence_wait_cycles > 0);
        no_request_lost(g);
        gpu_free(g);
    }
    printf("# FENCE: %u cycles after 4 line stores, %u with none outstanding\n", took[1], took[0]);
    assert_true(took[0] <= 4);
    assert_true(took[1] > took[0] + 50);
}

/* F/E-tracked memory (F/E 4.1): a GPU load of an empty word waits in the
 * F/E queues and returns the value of the GPU store (another warp, some 2000
 * cycles later) that fills it, not the value at issue; a load nobody fills
 * is NACKed by the watchdog (5000 cycles here): a clear fault naming
 * address, pc, core, warp. */
static void test_fe_load(void **st) {
    (void)st;
    for (unsigned filled = 0; filled < 2; filled++) {
        gpu_config c = cfg(1);
        c.mem.fe_wdog_limit = 5000;
        gpu_t *g = mk(&c);
        gpu_kernel k = load(g, "t_fe");
        uint64_t fb, fn;
        gpu_fe_region(g, &fb, &fn);
        assert_true(fn >= 128);
        uint32_t old = 0x0badf00d;
        gpu_mem_write(g, fb, &old, 4);
        while (gpu_fe_init(g, fb, 128, false)) gpu_tick(g);
        while (!gpu_idle(g)) gpu_tick(g);
        t_args a = {(uint32_t)fb, (uint32_t)gpu_malloc(g, 8), filled ? 250 : 0, 0};
        const char *e = run(g, &k, 1, 64, put(g, &a, sizeof a), 200000);
        if (filled) {
            if (e) fail_msg("%s", e);
            uint32_t out;
            gpu_mem_read(g, a.out, &out, 4);
            printf("# F/E load released by the store: 0x%08x\n", out);
            assert_int_equal(out, 0x600dcafeu);
            no_request_lost(g);
        } else {
            assert_non_null(e);
            printf("# F/E watchdog: %s\n", e);
            assert_non_null(strstr(e, "NACK"));
            char where[96];
            snprintf(where, sizeof where, "line 0x%08llx", (unsigned long long)fb);
            assert_non_null(strstr(e, where));
            assert_non_null(strstr(e, "core 0 warp 0"));
            assert_non_null(strstr(e, "pc 0x"));
        }
        gpu_free(g);
    }
}

typedef struct { int n; uint64_t cycle; uint8_t data[1000]; } dma_rec;
static void on_dma(void *u, uint64_t tag, uint64_t cycle, const void *data, size_t len) {
    dma_rec *r = u;
    (void)tag;
    r->n++;
    r->cycle = cycle;
    if (data) memcpy(r->data, data, len);
}

/* Host DMA through the host port: an unaligned 1000-byte write at the PCIe
 * rate completes no earlier than the link delivers it, the bytes are in
 * memory, a read through the port returns them; a full queue says so. */
static void test_dma(void **st) {
    (void)st;
    gpu_config c = cfg(2);
    c.dma_queue = 2;
    gpu_t *g = mk(&c);
    uint64_t a = gpu_malloc(g, 4096) + 37;
    uint8_t src[1000];
    for (unsigned i = 0; i < sizeof src; i++) src[i] = (uint8_t)(i * 7 + 1);
    const double rate = 6.8 * 1000.0 / c.clock_mhz; /* 6.8 GB/s at 700 MHz */
    dma_rec w = {0}, r = {0};
    uint64_t t0 = gpu_cycle(g);
    assert_int_equal(gpu_dma_write(g, a, src, sizeof src, rate, on_dma, &w, 1), 0);
    assert_int_equal(gpu_dma_read(g, a, sizeof src, 0, on_dma, &r, 2), 0);
    assert_int_equal(gpu_dma_write(g, a, src, 1, 0, NULL, NULL, 3), 1); /* queue of 2 full */
    assert_int_equal(gpu_dma_write(g, 1ull << 40, src, 4, 0, NULL, NULL, 3), -1);
    while (!gpu_idle(g)) gpu_tick(g);
    assert_null(gpu_error(g));
    assert_int_equal(w.n, 1);
    assert_int_equal(r.n, 1);
    printf("# DMA of 1000 B at %.2f B/cycle: written after %llu cycles, read back after %llu\n", rate,
           (unsigned long long)(w.cycle - t0), (unsigned long long)(r.cycle - t0));
    assert_true((double)(w.cycle - t0) >= sizeof src / rate);
    assert_true(r.cycle > w.cycle); /* sent after the write's lines (same port, in order) */
    assert_memory_equal(r.data, src, sizeof src);
    uint8_t back[1000];
    gpu_mem_read(g, a, back, sizeof back);
    assert_memory_equal(back, src, sizeof src);
    gpu_stats s;
    gpu_get_stats(g, &s);
    assert_int_equal(s.dma_bytes, 2000);
    gpu_free(g);
}

/* One t_lock run: `warps` warps on `cores` cores (2 warps per block), each
 * taking the amoswap spin lock `iters` times around a plain load-add-store
 * of the counter.  Returns the cycles; *spins = failed acquire attempts. */
static uint64_t lock_run(unsigned atomics, unsigned cores, unsigned warps, unsigned iters, uint64_t *spins) {
    gpu_config c = cfg(cores);
    c.atomics = atomics;
    gpu_t *g = mk(&c);
    gpu_kernel k = load(g, "t_lock");
    uint32_t ctr[64] = {0}; /* the lock (word 0) and the counter (word 32) on two lines */
    uint64_t ca = gpu_malloc(g, sizeof ctr + 128);
    ca = (ca + 127) & ~(uint64_t)127;
    gpu_mem_write(g, ca, ctr, sizeof ctr);
    t_args a = {0, (uint32_t)gpu_malloc(g, warps * 4), iters, (uint32_t)ca};
    uint64_t t0 = gpu_cycle(g);
    const char *e = run(g, &k, warps / 2, 64, put(g, &a, sizeof a), 5000000);
    if (e) fail_msg("%s", e);
    uint64_t cyc = gpu_cycle(g) - t0;
    gpu_mem_read(g, ca, ctr, sizeof ctr);
    assert_int_equal(ctr[0], 0);              /* released */
    assert_int_equal(ctr[32], warps * iters); /* every increment under the lock */
    uint32_t sp[64];
    gpu_mem_read(g, a.out, sp, warps * 4);
    *spins = 0;
    for (unsigned w = 0; w < warps; w++) *spins += sp[w];
    no_request_lost(g);
    gpu_free(g);
    return cyc;
}

/* A spin lock taken by 32 warps on 4 cores, 4 times each ([gpu] atomics,
 * docs/SIMT.md "Atomics"): the counter is right with either mode; with
 * atomics = memory an acquire or release takes effect only when it reaches
 * the L2 slice, behind the other warps' attempts queued there, so the lock
 * is held longer and the run takes longer than with atomics performed at
 * issue. */
static void test_lock_contention(void **st) {
    (void)st;
    enum { CORES = 4, WARPS = 32, ITERS = 4 };
    uint64_t spins[2], cyc[2];
    for (unsigned m = 0; m < 2; m++) cyc[m] = lock_run(m, CORES, WARPS, ITERS, &spins[m]);
    printf("# spin lock, %u warps on %u cores x %u acquisitions: atomics = issue %llu cycles (%llu failed "
           "attempts), memory %llu cycles (%llu failed attempts), %.2fx\n", WARPS, CORES, ITERS,
           (unsigned long long)cyc[0], (unsigned long long)spins[0], (unsigned long long)cyc[1],
           (unsigned long long)spins[1], (double)cyc[1] / (double)cyc[0]);
    assert_true(cyc[1] > cyc[0]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_latency), cmocka_unit_test(test_fence_waits_for_stores),
        cmocka_unit_test(test_fe_load), cmocka_unit_test(test_dma), cmocka_unit_test(test_lock_contention),
    };
    return cmocka_run_group_tests_name("simt_mem", tests, NULL, NULL);
}
