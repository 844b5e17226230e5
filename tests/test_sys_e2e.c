/* End to end: IPv4 events through the baseline path and the EDGE path
 * (SIMT model running build/sw/ipv4_fwd.elf, EDGE front-end blocks in
 * lockstep unless FG_IMPL says otherwise), every packet checked against the
 * host reference, also with the early doorbell into the synchronized
 * receive ring; a corrupted route table must be caught; bad [nic] ring /
 * doorbell settings are refused; the launch latencies must follow the model
 * (F/E Table 2, EDGE VI-A). */
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

/* The early doorbell into the synchronized receive ring (EDGE III-C with
 * F/E 4.1-4.4): the event warp starts while its packets cross and its loads
 * wait at the F/E queues; every packet's result checked, serial, streamed
 * (slots reused: the next DMA waits for the kernel to empty the slot) and
 * saturated.  Against the doorbell behind the data it reaches the first
 * instruction sooner, with no wait for the DMA's acknowledgements. */
static void test_early_ring_correct(void **state) {
    (void)state;
    sys_params p;
    params(&p);
    tb_kernel_path(p.ring_kernel_elf, sizeof p.ring_kernel_elf, "ipv4_fwd_ring");
    p.nic.ring_sync = true;
    sys_result late, r;
    run(&p, SYS_EDGE, true, 20, &late);
    assert_int_equal(late.wrong, 0);
    assert_int_equal(late.packets, 20 * 32);
    p.nic.early = true;
    run(&p, SYS_EDGE, true, 20, &r);
    assert_int_equal(r.events, 20);
    assert_int_equal(r.packets, 20 * 32);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.errors, 0);
    assert_true(r.dma_wait_ns.max == 0);
    print_message("# request -> first instruction: %.0f ns early, %.0f ns after the acknowledgements; "
                  "packet latency %.0f / %.0f ns; %llu of 20 early events started before their data was in\n",
                  sys_stat_avg(&r.to_first_ns), sys_stat_avg(&late.to_first_ns), sys_stat_avg(&r.pkt_latency_ns),
                  sys_stat_avg(&late.pkt_latency_ns), (unsigned long long)r.before_data);
    assert_int_equal(late.before_data, 0);
    assert_true(r.before_data >= 10); /* dispatch is shorter than the DMA and its writes */
    assert_true(sys_stat_avg(&r.to_first_ns) < sys_stat_avg(&late.to_first_ns));
    assert_true(sys_stat_avg(&r.pkt_latency_ns) < sys_stat_avg(&late.pkt_latency_ns));
    run(&p, SYS_EDGE, false, 60, &r);
    assert_int_equal(r.events, 60);
    assert_int_equal(r.packets, 60 * 32);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.errors, 0);
    p.nic.rate_mpps = 0;
    run(&p, SYS_EDGE, false, 60, &r);
    assert_int_equal(r.packets, 60 * 32);
    assert_int_equal(r.wrong, 0);
    assert_int_equal(r.fe.completions, 60);
}

/* Each bad [nic] ring / doorbell setting is refused in one line naming the
 * key; the baseline, which has no doorbell, refuses doorbell = early. */
static void test_ring_config_refused(void **state) {
    (void)state;
    static const struct {
        const char *set[2], *says;
    } bad[] = {{{"nic.ring=fast", NULL}, "[nic] ring = 'fast' is not one of: plain sync"},
               {{"nic.doorbell=soon", NULL}, "[nic] doorbell = 'soon' is not one of: after_ack early"},
               {{"nic.doorbell=early", NULL}, "[nic] doorbell = early needs [nic] ring = sync"},
               {{"nic.doorbell=early", "nic.ring=plain"}, "[nic] doorbell = early needs [nic] ring = sync"}};
    char err[512];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        fg_config *c = fg_config_new();
        sys_params p;
        sys_params_default(&p);
        for (int k = 0; k < 2 && bad[i].set[k]; k++)
            assert_int_equal(fg_config_set(c, bad[i].set[k], err, sizeof err), 0);
        err[0] = 0;
        assert_int_equal(sys_params_load(&p, c, err, sizeof err), -1);
        if (!strstr(err, bad[i].says) || strchr(err, '\n')) fail_msg("%s: said '%s'", bad[i].set[0], err);
        fg_config_free(c);
    }
    sys_params p;
    params(&p);
    p.nic.ring_sync = p.nic.early = true;
    sys_result r;
    assert_int_equal(sys_run(&p, SYS_BASELINE, true, 1, &r, err, sizeof err), -1);
    assert_non_null(strstr(err, "[nic] doorbell = early needs the EDGE path"));
    /* an event kernel no core can hold is refused at edgeRegisterEvent, before any packet */
    params(&p);
    p.gpu.regs_per_core = 32;
    assert_int_equal(sys_run(&p, SYS_EDGE, true, 1, &r, err, sizeof err), -1);
    if (!strstr(err, "edgeRegisterEvent refused") || !strstr(err, "too many registers") || strchr(err, '\n'))
        fail_msg("said '%s'", err);
    print_message("# %s\n", err);
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
                                       cmocka_unit_test(test_early_ring_correct),
                                       cmocka_unit_test(test_ring_config_refused),
                                       cmocka_unit_test(test_latency_model)};
    return cmocka_run_group_tests_name("sys_e2e", tests, NULL, NULL);
}
