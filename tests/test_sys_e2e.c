/* End to end: IPv4 events through the baseline path and the EDGE path
 * (SIMT model running build/sw/ipv4_fwd.elf, EDGE front-end blocks in
 * lockstep unless FG_IMPL says otherwise), every packet checked against the
 * host reference; a corrupted route table must be caught; the launch
 * latencies must follow the model (F/E Table 2, EDGE VI-A). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "fg_util.h"
#include "gpu_tb.h"
#include "sys/sys.h"

static void params(sys_params *p) {
    sys_params_default(p);
    tb_kernel_path(p->kernel_elf, sizeof p->kernel_elf, "ipv4_fwd");
    p->edge.impl = FG_IMPL_LOCKSTEP;
    const char *impl = getenv("FG_IMPL");
    if (impl) assert_int_equal(fg_impl_parse(impl, &p->edge.impl), 0);
    p->routes.n_routes = 4096;
    p->routes.n_blocks = 256;
    p->seed = tb_seed("e2e packets");
}

static void run(const sys_params *p, sys_path path, bool closed, uint64_t n, sys_result *r) {
    char err[512];
    if (sys_run(p, path, closed, n, r, err, sizeof err)) fail_msg("%s", err);
    print_message("# %s %s: %llu events, %llu packets (%llu routed, %llu TTL drops, %llu no route), "
                  "%llu wrong, launch avg %.0f ns\n",
                  path == SYS_EDGE ? "EDGE" : "baseline", closed ? "serial" : "streamed",
                  (unsigned long long)r->events, (unsigned long long)r->packets,
                  (unsigned long long)r->routed, (unsigned long long)r->dropped,
                  (unsigned long long)r->noroute, (unsigned long long)r->wrong,
                  sys_stat_avg(&r->launch_ns));
}

static void test_both_paths_correct(void **state) {
    (void)state;
    sys_params p;
    params(&p);
    sys_result r;
    for (int path = 0; path < 2; path++) {
        run(&p, (sys_path)path, true, 40, &r);
        assert_int_equal(r.events, 40);
        assert_int_equal(r.packets, 40 * 32);
        assert_int_equal(r.wrong, 0);
        assert_int_equal(r.errors, 0);
        assert_true(r.routed > 1000);
        run(&p, (sys_path)path, false, 60, &r); /* streamed, slots reused */
        assert_int_equal(r.events, 60);
        assert_int_equal(r.wrong, 0);
        assert_int_equal(r.errors, 0);
    }
    p.nic.rate_mpps = 0; /* saturated: all slots in flight */
    run(&p, SYS_EDGE, false, 80, &r);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.errors, 0);
    assert_int_equal(r.fe.ekt_launches, 80);
    assert_int_equal(r.fe.completions, 80);
}

static void test_wrong_result_caught(void **state) {
    (void)state;
    sys_params p;
    params(&p);
    p.corrupt_table = true;
    sys_result r;
    for (int path = 0; path < 2; path++) {
        run(&p, (sys_path)path, true, 10, &r);
        assert_true(r.wrong > 100);
        assert_non_null(strstr(r.first_wrong, "reference"));
    }
}

/* Latency arithmetic of the two paths, from the run's own timestamps. */
static void test_latency_model(void **state) {
    (void)state;
    sys_params p;
    params(&p);
    sys_result b, e;
    run(&p, SYS_BASELINE, true, 40, &b);
    run(&p, SYS_EDGE, true, 40, &e);
    double P = 1000.0 / p.gpu.clock_mhz;
    /* baseline: 1.5 us call + 3 us driver + 300-cycle dispatch + SIMT issue */
    assert_true(b.call_ns.min == 1500 && b.call_ns.max == 1500);
    assert_true(b.driver_ns.min == 3000 && b.driver_ns.max == 3000);
    assert_true(b.dispatch_cycles.min == 300 && b.dispatch_cycles.max == 300);
    double want_b = 4500 + (300 + sys_stat_avg(&b.simt_cycles)) * P;
    assert_true(sys_stat_avg(&b.launch_ns) > want_b - 2 * P && sys_stat_avg(&b.launch_ns) < want_b + 2 * P);
    /* EDGE: 350 ns doorbell + the wait for the packet DMA's acknowledgements
     * (posted-write order: the doorbell takes effect after the writes before
     * it) + front-end (RTL) + 300 dispatch + SIMT + 350 ns CQ write */
    assert_true(e.pcie_db_ns.min > 350 && e.pcie_db_ns.max < 352);
    print_message("# EDGE doorbell waited %.1f ns on average for the packet DMA (%.1f ns from first byte to last ack)\n",
                  sys_stat_avg(&e.dma_wait_ns), sys_stat_avg(&e.dma_ns));
    assert_true(e.dma_wait_ns.min >= 0 && e.dma_wait_ns.max < sys_stat_avg(&e.dma_ns));
    assert_true(e.fe_cycles.min >= 2 && e.fe_cycles.max <= 16);
    assert_true(e.dispatch_cycles.min == 300 && e.dispatch_cycles.max == 300);
    double want_e = sys_stat_avg(&e.pcie_db_ns) + sys_stat_avg(&e.dma_wait_ns) + sys_stat_avg(&e.pcie_cq_ns) +
                    sys_stat_avg(&e.quant_ns) + (sys_stat_avg(&e.fe_cycles) + 300 + sys_stat_avg(&e.simt_cycles)) * P;
    assert_true(sys_stat_avg(&e.launch_ns) > want_e - 1 && sys_stat_avg(&e.launch_ns) < want_e + 1);
    double sp = sys_stat_avg(&b.launch_ns) / sys_stat_avg(&e.launch_ns);
    print_message("# speedup %.2fx\n", sp);
    assert_true(sp > 3.5 && sp < 5.0);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_both_paths_correct),
                                       cmocka_unit_test(test_wrong_result_caught),
                                       cmocka_unit_test(test_latency_model)};
    return cmocka_run_group_tests_name("sys_e2e", tests, NULL, NULL);
}
