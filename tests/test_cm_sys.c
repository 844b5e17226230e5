/* The CM machine (sim/cm/cm_sys.c, docs/CM_MACHINE.md) from configs/cm.ini:
 *   - clock domains: after n GPU ticks exactly floor(n x 2000 / 1400) CPU
 *     cycles have run, 1 or 2 per tick;
 *   - the CPU cores' misses and write-backs are the memory system's CPU
 *     traffic (every line read it was sent is a core's L2 miss);
 *   - the same seed gives the same run, cycle for cycle;
 *   - a High-MPKI mix beside the GPU side runs slower than alone, with the
 *     memory controllers' queues full (stallMC, CM 3.2) and intervals of
 *     1024 GPU cycles recorded. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/cm_sys.h"
#include "fg_tb.h"

static void load(cm_config *c) {
    cm_config_default(c);
    fg_config *cf = fg_config_new();
    char err[512];
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err) || cm_config_load(c, cf, err, sizeof err) ||
        fg_config_check_unused(cf, err, sizeof err))
        fail_msg("%s", err);
    fg_config_free(cf);
    c->mem.fe_impl = FG_IMPL_C; /* the F/E queues are not what this tests */
}

static cm_sys *make(const cm_config *c, const char *mix, cm_gpu_kind gpu, uint64_t seed) {
    char err[512];
    cm_sys *s = cm_new(c, cpu_mix_find(mix)->apps, gpu, seed, err, sizeof err);
    if (!s) fail_msg("%s", err);
    return s;
}

static double ipc_sum(const cm_sys *s, unsigned n) {
    double sum = 0;
    for (unsigned i = 0; i < n; i++) {
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
    assert_int_equal(c.cpu_port0, 29);
    cm_sys *s = make(&c, "M1", CM_GPU_NONE, 1);
    uint64_t prev = 0;
    for (uint64_t n = 1; n <= 70000; n++) {
        cm_tick(s);
        uint64_t cpu = cm_cpu_cycle(s);
        assert_int_equal(cpu, n * 2000 / 1400);
        assert_true(cpu - prev == 1 || cpu - prev == 2);
        prev = cpu;
    }
    assert_null(cm_error(s));
    uint64_t misses = 0, wbs = 0, pending = 0;
    for (unsigned i = 0; i < c.cpu_cores; i++) {
        cpu_stats st;
        cpu_core_stats(cm_cpu(s, i), &st);
        misses += st.l2_misses;
        wbs += st.writebacks;
        pending += cpu_core_req(cm_cpu(s, i)) != NULL;
    }
    mem_stats ms;
    mem_get_stats(cm_mem(s), MEM_ALL, &ms);
    printf("# M1 alone, 70000 GPU cycles: %" PRIu64 " L2 misses, %" PRIu64 " write-backs; memory saw %" PRIu64
           " reads, %" PRIu64 " writes (CPU queues hold the rest)\n",
           misses, wbs, ms.req[MEM_K_DATA][MEM_READ], ms.req[MEM_K_DATA][MEM_WRITE]);
    assert_true(misses > 1000);
    assert_true(ms.req[MEM_K_DATA][MEM_READ] <= misses);
    assert_true(misses - ms.req[MEM_K_DATA][MEM_READ] <= c.cpu_cores * (c.cpu.mshrs + c.cpu.out_queue));
    assert_true(ms.req[MEM_K_DATA][MEM_WRITE] <= wbs);
    cm_free(s);
}

static void test_deterministic(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    double ipc[2];
    uint64_t mc[2];
    for (unsigned k = 0; k < 2; k++) {
        cm_sys *s = make(&c, "H1", CM_GPU_STREAM, 7);
        cm_gpu_on(s, true);
        for (unsigned n = 0; n < 30000; n++) cm_tick(s);
        cm_totals t;
        cm_get_totals(s, &t);
        ipc[k] = ipc_sum(s, c.cpu_cores);
        mc[k] = t.stall_mc;
        cm_free(s);
    }
    assert_true(ipc[0] == ipc[1]);
    assert_int_equal(mc[0], mc[1]);
}

/* CM Sec. 3's motivation, small: the H2 mix alone and beside the GPU side
 * (the same CPU cycles after the same warm-up). */
static void test_gpu_slows_cpu(void **state) {
    (void)state;
    cm_config c;
    load(&c);
    double ipc[2];
    for (unsigned gpu = 0; gpu < 2; gpu++) {
        cm_sys *s = make(&c, "H2", gpu ? CM_GPU_STREAM : CM_GPU_NONE, 3);
        while (cm_min_retired(s) < 20000) cm_tick(s);
        cm_reset_stats(s);
        cm_gpu_on(s, gpu);
        for (unsigned n = 0; n < 150 * 1024; n++) cm_tick(s);
        cm_totals t;
        cm_get_totals(s, &t);
        ipc[gpu] = ipc_sum(s, c.cpu_cores);
        assert_int_equal(cm_intervals(s), 150);
        const cm_interval *v = cm_interval_at(s, 149);
        printf("# H2 %s: IPC sum %.3f, stallMC %.2f, stallnet %.2f per cycle; GPU %.2f lines per cycle; "
               "last interval stallMC %u\n",
               gpu ? "beside the GPU side" : "alone", ipc[gpu], (double)t.stall_mc / (double)t.cycles,
               (double)t.stall_net / (double)t.cycles, (double)t.gpu_lines / (double)t.cycles, v->stall_mc);
        if (gpu) {
            assert_true(t.stall_mc > t.cycles / 4);
            assert_true(t.gpu_lines > t.cycles / 4);
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
    c.mem_bytes = 1u << 30;
    assert_null(cm_new(&c, cpu_mix_find("L1")->apps, CM_GPU_NONE, 1, err, sizeof err));
    assert_non_null(strstr(err, "mem_bytes"));
    load(&c);
    const char *apps[14] = {"gcc", "nonesuch"};
    for (unsigned i = 2; i < 14; i++) apps[i] = "gcc";
    assert_null(cm_new(&c, apps, CM_GPU_NONE, 1, err, sizeof err));
    assert_non_null(strstr(err, "nonesuch"));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_clocks_and_traffic),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_gpu_slows_cpu),
        cmocka_unit_test(test_bad_config),
    };
    return tb_run_tests("cm_sys", tests);
}
