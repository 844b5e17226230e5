/* Unit tests of the host/device-side models: PCIe and CUDA-like API latency
 * arithmetic (F/E Table 2, EDGE VI-A), the route generator, the LPM
 * reference and the DIR-16-8-8 table the IPv4 event kernel walks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "sys/host_api.h"
#include "sys/pcie.h"
#include "sys/route_gen.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6)

static void test_pcie_arith(void **state) {
    (void)state;
    pcie_params p;
    pcie_params_default(&p);
    NEAR(p.round_trip_ns, 700.0);
    NEAR(pcie_write_ns(&p, 0), 350.0);
    NEAR(pcie_read_ns(&p, 0), 700.0);
    NEAR(pcie_xfer_ns(&p, 6800), 1000.0); /* 6.8 GB/s = 6.8 bytes/ns */
    NEAR(pcie_write_ns(&p, 2048), 350.0 + 2048 / 6.8);
    pcie_link l;
    pcie_link_init(&l, &p);
    /* two back-to-back 6800-byte writes: the second waits for the link */
    NEAR(pcie_link_write(&l, PCIE_TO_GPU, 0, 6800), 1350.0);
    NEAR(pcie_link_write(&l, PCIE_TO_GPU, 0, 6800), 2350.0);
    /* the other direction is independent; a read pays the full round trip */
    NEAR(pcie_link_read(&l, PCIE_FROM_GPU, 100, 680), 100 + 700 + 100);
    assert_int_equal(l.bytes[PCIE_TO_GPU], 13600);
}

static void test_pcie_config(void **state) {
    (void)state;
    char err[256];
    fg_config *c = fg_config_new();
    pcie_params p;
    pcie_params_default(&p);
    assert_int_equal(fg_config_set(c, "pcie.round_trip_ns=1000", err, sizeof err), 0);
    assert_int_equal(pcie_params_load(&p, c, err, sizeof err), 0);
    NEAR(p.round_trip_ns, 1000.0);
    assert_int_equal(fg_config_set(c, "pcie.bandwidth_gbps=0", err, sizeof err), 0);
    assert_int_equal(pcie_params_load(&p, c, err, sizeof err), -1);
    assert_non_null(strstr(err, "bandwidth_gbps"));
    fg_config_free(c);
}

static void test_host_api(void **state) {
    (void)state;
    pcie_params pp;
    pcie_params_default(&pp);
    pcie_link l;
    pcie_link_init(&l, &pp);
    host_params hp;
    host_params_default(&hp);
    host_api h;
    host_api_init(&h, &hp, &l);
    double ret, at;
    /* launch: 1.5 us call, 3 us driver (F/E Table 2) */
    host_launch(&h, 0, &ret, &at);
    NEAR(ret, 1500);
    NEAR(at, 4500);
    /* a second launch right after the first returns waits for the driver */
    host_launch(&h, ret, &ret, &at);
    NEAR(ret, 3000);
    NEAR(at, 7500);
    /* sync: 1 us call, then 1 us after the work is done */
    NEAR(host_sync(&h, 0, 10000), 11000);
    NEAR(host_sync(&h, 0, 0), 2000);
    /* blocking memcpy 7 us + size/BW */
    pcie_link_init(&l, &pp);
    NEAR(host_memcpy(&h, 0, 68000), 7000 + 10000);
    /* async memcpy: 1.2 us call, then 6 us driver + size/BW after the driver frees */
    host_api_init(&h, &hp, &l);
    pcie_link_init(&l, &pp);
    double done;
    host_memcpy_async(&h, 0, 6800, &ret, &done);
    NEAR(ret, 1200);
    NEAR(done, 1200 + 6000 + 1000);
    /* the launch total the EDGE paper measured (about 5 us) = call + driver +
     * 300-cycle dispatch at 700 MHz */
    NEAR(hp.launch_call_ns + hp.launch_driver_ns + 300 / 0.7, 4928.571428571);
}

static void test_route_gen(void **state) {
    (void)state;
    char err[256];
    route_gen_params p;
    route_gen_params_default(&p);
    double s = 0;
    for (int l = 0; l <= 32; l++) s += route_len_dist()[l];
    NEAR(s, 100.0);
    lpm_route *r;
    size_t n;
    assert_int_equal(route_gen(&p, &r, &n, err, sizeof err), 0);
    assert_int_equal(n, p.n_routes);
    unsigned hist[33] = {0};
    for (size_t i = 0; i < n; i++) {
        assert_true(r[i].len >= 8 && r[i].len <= 32);
        assert_int_equal(r[i].prefix & ~(0xFFFFFFFFu << (32 - r[i].len)), 0);
        assert_true(r[i].nh < p.n_next_hops);
        unsigned a = r[i].prefix >> 24;
        assert_true(a != 0 && a != 10 && a != 127 && a < 224);
        hist[r[i].len]++;
    }
    /* /24 dominates (60 % nominal), /22 + /23 about 20 % */
    double p24 = 100.0 * hist[24] / n, p2223 = 100.0 * (hist[22] + hist[23]) / n;
    print_message("# /24 %.1f %%, /22+/23 %.1f %%\n", p24, p2223);
    assert_true(p24 > 55 && p24 < 65);
    assert_true(p2223 > 16 && p2223 < 24);
    /* deterministic from the seed */
    lpm_route *r2;
    size_t n2;
    assert_int_equal(route_gen(&p, &r2, &n2, err, sizeof err), 0);
    assert_memory_equal(r, r2, n * sizeof *r);
    free(r2);
    free(r);
    /* impossible request is an error, not a hang */
    p.n_blocks = 1;
    p.n_routes = 200000;
    assert_int_equal(route_gen(&p, &r, &n, err, sizeof err), -1);
    assert_non_null(strstr(err, "blocks16"));
}

/* Small hand-made table: nested prefixes across all three levels. */
static void test_lpm_directed(void **state) {
    (void)state;
    char err[256];
    const lpm_route r[] = {
        {0x0A000000u, 8, 1},  /* 10/8 */
        {0x0A010000u, 16, 2}, /* 10.1/16 */
        {0x0A010200u, 24, 3}, /* 10.1.2/24 */
        {0x0A010280u, 25, 4}, /* 10.1.2.128/25 */
        {0x0A010284u, 32, 5}, /* 10.1.2.132/32 */
        {0x0A018000u, 17, 6}, /* 10.1.128/17 */
        {0xC0000000u, 2, 7},  /* 192/2 */
    };
    const struct {
        uint32_t a, nh;
    } q[] = {{0x0A000001u, 1},   {0x0A010001u, 2},   {0x0A010201u, 3},   {0x0A010281u, 4},
             {0x0A010284u, 5},   {0x0A010285u, 4},   {0x0A01FFFFu, 6},   {0x0A018000u, 6},
             {0x0B000000u, IPV4_NO_ROUTE},           {0xC1020304u, 7},   {0xFFFFFFFFu, 7},
             {0x0A02FFFFu, 1},   {0x09FFFFFFu, IPV4_NO_ROUTE}};
    lpm_ref *t = lpm_ref_build(r, sizeof r / sizeof r[0], 32);
    assert_non_null(t);
    ipv4_dir d;
    assert_int_equal(ipv4_dir_build(&d, r, sizeof r / sizeof r[0], err, sizeof err), 0);
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++) {
        assert_int_equal(lpm_ref_lookup(t, q[i].a), q[i].nh);
        assert_int_equal(ipv4_dir_lookup(&d, q[i].a), q[i].nh);
    }
    ipv4_dir_free(&d);
    lpm_ref_free(t);
}

/* Generated table: the DIR walk equals the trie on random addresses, on
 * every prefix's first and last address and just outside them. */
static void test_lpm_random(void **state) {
    (void)state;
    char err[256];
    route_gen_params p;
    route_gen_params_default(&p);
    fg_rng rng;
    fg_rng_seed(&rng, p.seed = tb_seed("lpm random"));
    lpm_route *r;
    size_t n;
    assert_int_equal(route_gen(&p, &r, &n, err, sizeof err), 0);
    lpm_ref *t = lpm_ref_build(r, n, 32);
    ipv4_dir d;
    assert_int_equal(ipv4_dir_build(&d, r, n, err, sizeof err), 0);
    print_message("# %zu routes, %zu chunks (%zu KB table)\n", n, d.n_chunks,
                  (65536 + d.n_chunks * 256) * 4 / 1024);
    for (size_t i = 0; i < n; i++) {
        uint32_t lo = r[i].prefix, hi = lo | ~(0xFFFFFFFFu << (32 - r[i].len));
        uint32_t a[4] = {lo, hi, lo - 1, hi + 1};
        for (int k = 0; k < 4; k++) assert_int_equal(ipv4_dir_lookup(&d, a[k]), lpm_ref_lookup(t, a[k]));
        assert_true(lpm_ref_lookup(t, lo) != IPV4_NO_ROUTE);
    }
    unsigned hits = 0, drops = 0;
    for (unsigned i = 0; i < 200000; i++) {
        uint8_t pkt[IPV4_PKT_BYTES];
        ipv4_gen_packet(&rng, &p, r, n, pkt);
        uint32_t dst = (uint32_t)pkt[16] << 24 | (uint32_t)pkt[17] << 16 | (uint32_t)pkt[18] << 8 | pkt[19];
        uint32_t ref = ipv4_forward_ref(t, pkt);
        if (pkt[8] <= 1) {
            assert_int_equal(ref, IPV4_DROP_TTL);
            drops++;
        } else {
            assert_int_equal(ipv4_dir_lookup(&d, dst), ref);
            hits += ref != IPV4_NO_ROUTE;
        }
    }
    print_message("# 200000 packets: %u routed, %u TTL drops\n", hits, drops);
    assert_true(hits > 150000); /* hit_pct 90 */
    assert_true(drops > 2000 && drops < 6000); /* ttl_drop_pct 2 */
    ipv4_dir_free(&d);
    lpm_ref_free(t);
    free(r);
}

/* A corrupted table entry must be caught by the comparison the tests rely on. */
static void test_lpm_detects_wrong(void **state) {
    (void)state;
    char err[256];
    route_gen_params p;
    route_gen_params_default(&p);
    lpm_route *r;
    size_t n;
    assert_int_equal(route_gen(&p, &r, &n, err, sizeof err), 0);
    lpm_ref *t = lpm_ref_build(r, n, 32);
    ipv4_dir d;
    assert_int_equal(ipv4_dir_build(&d, r, n, err, sizeof err), 0);
    /* flip the next hop of the chunk entry a /24 maps to */
    size_t i = 0;
    while (r[i].len != 24) i++;
    uint32_t e = d.l1[r[i].prefix >> 16];
    assert_true(e & IPV4_PTR_BIT);
    d.chunks[(e & ~IPV4_PTR_BIT) * 256 + ((r[i].prefix >> 8) & 255)] ^= 1;
    assert_int_not_equal(ipv4_dir_lookup(&d, r[i].prefix), lpm_ref_lookup(t, r[i].prefix));
    ipv4_dir_free(&d);
    lpm_ref_free(t);
    free(r);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pcie_arith),    cmocka_unit_test(test_pcie_config),
        cmocka_unit_test(test_host_api),      cmocka_unit_test(test_route_gen),
        cmocka_unit_test(test_lpm_directed),  cmocka_unit_test(test_lpm_random),
        cmocka_unit_test(test_lpm_detects_wrong),
    };
    return cmocka_run_group_tests_name("sys", tests, NULL, NULL);
}
