/* The CM machine (sim/cm/cm_sys.c, docs/CM_MACHINE.md) from configs/cm.ini:
 *   - clock domains: after n GPU ticks exactly floor(n x 2000 / 1400) CPU
 *     cycles have run, 1 or 2 per tick;
 *   - the CPU cores' misses and write-backs are the memory system's CPU
 *     traffic (every line read it was sent is a core's L2 miss), on the ports
 *     after the 28 SIMT cores' and the host's;
 *   - the GPU side is the SIMT model running the STREAM triad (test size):
 *     every run is checked against its host reference (a corrupted input is
 *     caught), the runs follow one another while the GPU side is on, each GPU
 *     core's stallGPU is counted (within 0 .. schedulers x cycles, the
 *     intervals adding up to the totals);
 *   - the same seed gives the same run, cycle for cycle, CPU and GPU;
 *   - a High-MPKI mix beside the GPU kernel runs slower than alone, with the
 *     memory partitions congested (stallMC + stallnet, CM 3.2, 4.1; at the
 *     test size the triad's arrays fit in the LLC, so mostly stallnet) and
 *     intervals of 1024 GPU cycles recorded;
 *   - bad configurations and kernel names are refused with a message. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/cm_sys.h"
#include "fg_tb.h"
#include "gpu_tb.h"
#include "work/bg_kernels.h"

static void load(cm_config *c) {
    cm_config_default(c);
    fg_config *cf = fg_config_new();
    char err[512];
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err) || cm_config_load(c, cf, err, sizeof err) ||
        fg_config_check_unused(cf, err, sizeof err))
        fail_msg("%s", err);
    fg_config_free(cf);
    c->gpu.mem.fe_impl = FG_IMPL_C; /* the F/E queues are not what this tests */
}

/* mix NULL: no CPU cores; kernel NULL: no GPU kernel ("test" size) */
static cm_sys *make(const cm_config *c, const char *mix, const char *kernel, uint64_t seed) {
    char err[512];
    cm_gpu_work w = {kernel, "test", tb_kernel_dir()};
    cm_sys *s = cm_new(c, mix ? cpu_mix_find(mix)->apps : NULL, &w, seed, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

static void tick(cm_sys *s, uint64_t n) {
    for (uint64_t i = 0; i < n; i++) {
        cm_tick(s);
        if (cm_error(s)) fail_msg("tick %" PRIu64 ": %s", cm_cycle(s), cm_error(s));
    }
}

static double ipc_sum(const cm_sys *s) {
    double sum = 0;
    for (unsigned i = 0; i < cm_cpu_cores(s); i++) {
        cpu_stats st;
        cpu_core_stats(cm_cpu(s, i), &st);
        sum += (double)st.retired / (double)st.cycles;
    }
    return sum;
}

static void test_clocks_and_traffic(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    assert_int_equal(c.cpu_cores, 14);
    assert_int_equal(c.gpu.num_cores, 28);
    cm_sys *s = make(&c, "M1", NULL, 1);
    assert_int_equal(gpu_extra_port(cm_gpu(s), 0), 29); /* GPU cores 0..27, host 28, CPU cores 29..42 */
    uint64_t prev = 0;
    for (uint64_t n = 1; n <= 70000; n++) {
        cm_tick(s);
        uint64_t cpu = cm_cpu_cycle(s);
        assert_int_equal(cpu, n * 2000 / 1400);
        assert_true(cpu - prev == 1 || cpu - prev == 2);
        prev = cpu;
    }
    assert_null(cm_error(s));
    uint64_t misses = 0, wbs = 0;
    for (unsigned i = 0; i < c.cpu_cores; i++) {
        cpu_stats st;
        cpu_core_stats(cm_cpu(s, i), &st);
        misses += st.l2_misses;
        wbs += st.writebacks;
    }
    mem_stats ms;
    mem_get_stats(cm_mem(s), MEM_ALL, &ms);
    cm_totals t;
    cm_get_totals(s, &t);
    printf("# M1 alone, 70000 GPU cycles: %" PRIu64 " L2 misses, %" PRIu64 " write-backs; memory saw %" PRIu64
           " reads, %" PRIu64 " writes (CPU queues hold the rest)\n",
           misses, wbs, ms.req[MEM_K_DATA][MEM_READ], ms.req[MEM_K_DATA][MEM_WRITE]);
    assert_true(misses > 1000);
    assert_true(ms.req[MEM_K_DATA][MEM_READ] <= misses);
    assert_true(misses - ms.req[MEM_K_DATA][MEM_READ] <= c.cpu_cores * (c.cpu.mshrs + c.cpu.out_queue));
    assert_true(ms.req[MEM_K_DATA][MEM_WRITE] <= wbs);
    /* no kernel: every request the memory system saw was a CPU core's */
    assert_int_equal(t.gpu_requests, 0);
    assert_int_equal(t.gpu_warp_instrs, 0);
    assert_int_equal(t.cpu_requests, ms.req[MEM_K_DATA][MEM_READ] + ms.req[MEM_K_DATA][MEM_WRITE]);
    cm_free(s);
}

/* The GPU side alone: the STREAM triad run again and again, every run checked;
 * per-core stallGPU within its bounds and the intervals adding up. */
static void test_gpu_runs_checked(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    cm_sys *s = make(&c, NULL, "stream", 5);
    assert_int_equal(cm_cpu_cores(s), 0);
    assert_non_null(strstr(cm_gpu_describe(s), "stream triad"));
    assert_false(cm_gpu_busy(s));
    cm_gpu_on(s, true);
    assert_true(cm_gpu_busy(s));
    const unsigned n_iv = 40;
    tick(s, (uint64_t)n_iv * c.interval);
    cm_totals t;
    cm_get_totals(s, &t);
    assert_int_equal(cm_intervals(s), n_iv);
    printf("# STREAM (test size) alone on the CM GPU, %u intervals: %u runs checked, GPU IPC %.2f, stallGPU %.2f "
           "per scheduler-cycle (%.0f %% of it a full pipeline), %" PRIu64 " GPU requests\n",
           n_iv, t.gpu_runs, (double)t.gpu_warp_instrs / (double)t.cycles,
           (double)t.stall_gpu / (double)(c.gpu.schedulers_per_core * t.gpu_warp_cycles),
           100.0 * (double)t.stall_pipe / (double)t.stall_gpu, t.gpu_requests);
    assert_true(t.gpu_runs >= 2); /* started again after each checked run */
    assert_true(t.gpu_requests > 0);
    uint64_t iv_stall[CM_MAX_GPU] = {0}, iv_wi = 0;
    for (unsigned k = 0; k < n_iv; k++) {
        const cm_interval *v = cm_interval_at(s, k);
        for (unsigned i = 0; i < c.gpu.num_cores; i++) {
            assert_true(v->stall_gpu[i] <= c.gpu.schedulers_per_core * c.interval);
            iv_stall[i] += v->stall_gpu[i];
            iv_wi += (uint64_t)(v->gpu_core_ipc[i] * c.interval + 0.5);
        }
    }
    unsigned busy = 0;
    for (unsigned i = 0; i < c.gpu.num_cores; i++) {
        const gpu_core_stats *g = &t.core[i];
        assert_int_equal(iv_stall[i], g->stall_gpu);
        assert_true(g->stall_gpu <= c.gpu.schedulers_per_core * g->warp_cycles);
        assert_true(g->stall_pipe <= g->stall_gpu);
        assert_true(g->warp_cycles <= t.cycles);
        busy += g->stall_gpu > 0 && g->warp_instrs > 0;
    }
    assert_int_equal(busy, c.gpu.num_cores); /* every core ran warps and stalled on memory */
    assert_int_equal(iv_wi, t.gpu_warp_instrs);
    /* a memory-bound kernel: most scheduler-cycles issue nothing */
    assert_true(t.stall_gpu > t.gpu_warp_cycles);
    /* off: the run in progress finishes and is checked, none follows */
    cm_gpu_on(s, false);
    const unsigned runs = cm_gpu_runs(s);
    while (cm_gpu_busy(s)) tick(s, 1);
    assert_int_equal(cm_gpu_runs(s), runs + 1);
    tick(s, 2 * c.interval);
    assert_false(cm_gpu_busy(s));
    assert_int_equal(cm_gpu_runs(s), runs + 1);
    cm_free(s);
}

/* A GPU result that differs from the host reference stops the machine with
 * a message: b[n - 1] (b follows a, STREAM's allocation order) is changed
 * before the last block has read it. */
static void test_gpu_wrong_result_caught(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    cm_sys *s = make(&c, NULL, "stream", 5);
    cm_gpu_on(s, true);
    uint64_t bytes, a = bg_output(cm_gpu_run(s), &bytes);
    assert_true(a != 0 && bytes > 4);
    const uint64_t last_b = a + bytes + bytes - 4;
    float v;
    assert_int_equal(gpu_mem_read(cm_gpu(s), last_b, &v, 4), 0);
    v += 1.0f;
    assert_int_equal(gpu_mem_write(cm_gpu(s), last_b, &v, 4), 0);
    while (!cm_error(s) && cm_cycle(s) < 1000000) cm_tick(s);
    assert_non_null(cm_error(s));
    printf("# a corrupted input: %s\n", cm_error(s));
    assert_non_null(strstr(cm_error(s), "GPU run 1"));
    char want[32];
    snprintf(want, sizeof want, "[%" PRIu64 "]", bytes / 4 - 1);
    assert_non_null(strstr(cm_error(s), want));
    assert_int_equal(cm_gpu_runs(s), 0);
    cm_free(s);
}

static void test_deterministic(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    double ipc[2];
    cm_totals t[2];
    for (unsigned k = 0; k < 2; k++) {
        cm_sys *s = make(&c, "H1", "stream", 7);
        cm_gpu_on(s, true);
        tick(s, 20000);
        cm_get_totals(s, &t[k]);
        ipc[k] = ipc_sum(s);
        cm_free(s);
    }
    assert_true(ipc[0] == ipc[1]);
    assert_int_equal(t[0].stall_mc, t[1].stall_mc);
    assert_int_equal(t[0].stall_net, t[1].stall_net);
    assert_int_equal(t[0].gpu_warp_instrs, t[1].gpu_warp_instrs);
    assert_int_equal(t[0].stall_gpu, t[1].stall_gpu);
    assert_int_equal(t[0].cpu_requests, t[1].cpu_requests);
    assert_true(t[0].gpu_warp_instrs > 0);
}

/* CM Sec. 3's motivation, small: the H2 mix alone and beside the STREAM
 * kernel (the same GPU cycles after the same warm-up). */
static void test_gpu_slows_cpu(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    double ipc[2];
    const unsigned n_iv = 40;
    for (unsigned gpu = 0; gpu < 2; gpu++) {
        cm_sys *s = make(&c, "H2", gpu ? "stream" : NULL, 3);
        while (cm_min_retired(s) < 10000) tick(s, 1);
        cm_reset_stats(s);
        cm_gpu_on(s, gpu);
        tick(s, (uint64_t)n_iv * c.interval);
        cm_totals t;
        cm_get_totals(s, &t);
        ipc[gpu] = ipc_sum(s);
        assert_int_equal(cm_intervals(s), n_iv);
        const cm_interval *v = cm_interval_at(s, n_iv - 1);
        printf("# H2 %s: IPC sum %.3f, stallMC %.2f, stallnet %.3f per cycle; GPU IPC %.2f, %u runs; "
               "last interval stallMC %u\n",
               gpu ? "beside STREAM" : "alone", ipc[gpu], (double)t.stall_mc / (double)t.cycles,
               (double)t.stall_net / (double)t.cycles, (double)t.gpu_warp_instrs / (double)t.cycles, t.gpu_runs,
               v->stall_mc);
        if (gpu) { /* the test size's arrays fit in the LLC: the reply network congests rather than the MCs */
            assert_true(t.stall_mc + t.stall_net > t.cycles / 4);
            assert_true(t.gpu_runs >= 1);
        } else {
            assert_int_equal(t.gpu_warp_instrs, 0);
        }
        cm_free(s);
    }
    assert_true(ipc[1] < 0.8 * ipc[0]);
}

static void test_bad_config(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    char err[512];
    cm_gpu_work none = {NULL, "test", tb_kernel_dir()};
    c.gpu.global_mem_bytes = 1u << 30; /* the CPU footprints start at 1 GiB */
    assert_null(cm_new(&c, cpu_mix_find("L1")->apps, &none, 1, err, sizeof err));
    assert_non_null(strstr(err, "global_mem_bytes"));
    load(&c);
    const char *apps[14] = {"gcc", "nonesuch"};
    for (unsigned i = 2; i < 14; i++) apps[i] = "gcc";
    assert_null(cm_new(&c, apps, &none, 1, err, sizeof err));
    assert_non_null(strstr(err, "nonesuch"));
    cm_gpu_work fft = {"fft", "test", tb_kernel_dir()};
    assert_null(cm_new(&c, cpu_mix_find("L1")->apps, &fft, 1, err, sizeof err));
    assert_non_null(strstr(err, "fft"));
    cm_gpu_work nodir = {"stream", "test", "/nonexistent"};
    assert_null(cm_new(&c, cpu_mix_find("L1")->apps, &nodir, 1, err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    fg_config *cf = fg_config_new();
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err)) fail_msg("%s", err);
    if (fg_config_set(cf, "gpu.num_cores=65", err, sizeof err)) fail_msg("%s", err);
    cm_config_default(&c);
    assert_int_equal(cm_config_load(&c, cf, err, sizeof err), -1);
    assert_non_null(strstr(err, "num_cores"));
    fg_config_free(cf);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clocks_and_traffic),
        cmocka_unit_test(test_gpu_runs_checked),
        cmocka_unit_test(test_gpu_wrong_result_caught),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_gpu_slows_cpu),
        cmocka_unit_test(test_bad_config),
    };
    return tb_run_tests("cm_sys", tests);
}
