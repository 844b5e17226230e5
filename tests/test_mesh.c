/* The 2D mesh (sim/mem/icnt_mesh.c, docs/MESH.md) on its own, through the
 * icnt ops table, and inside the memory system:
 *   - zero-load latency of every (port, slice) pair of the CM placement, both
 *     networks, 1- and 5-flit packets: exactly (hops + 1)(router + link) +
 *     flits - 1 cycles, hops counted here from the routers' coordinates;
 *   - saturating uniform random traffic on both networks with endpoints
 *     that stall their ejection queues for random stretches: every packet
 *     delivered exactly once, at its destination, in order per (source,
 *     destination) pair, and the network drains within a bound once
 *     injection stops (no deadlock);
 *   - an idle network: ticking it costs almost nothing;
 *   - the memory system with the mesh: one read end to end equals
 *     mem_unloaded_latency; replies back-pressured by ports that do not pop
 *     produce stallnet at the partitions (CM 3.2);
 *   - bad placements refused with a message. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fg_config.h"
#include "fg_tb.h"
#include "mem/icnt.h"
#include "mem/mem.h"
#include "mem/mem_config.h"

#define NREQ 43 /* CM: 28 GPU cores, the host port, 14 CPU cores */
#define NMEM 8

static void cm_config(mem_config *c) {
    mem_config_default(c);
    fg_config *cf = fg_config_new();
    char err[512];
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err)) fail_msg("%s", err);
    if (mem_config_load(c, cf, err, sizeof err)) fail_msg("%s", err);
    fg_config_free(cf);
    c->fe_impl = FG_IMPL_C;
    assert_int_equal(c->icnt, MEM_ICNT_MESH);
}

static icnt *make(const mem_config *c, unsigned n_req, unsigned n_mem) {
    char err[256];
    icnt *n = icnt_mesh_ops.create(c, n_req, n_mem, err, sizeof err);
    if (!n) fail_msg("%s", err);
    return n;
}

static unsigned dist(const mem_config *c, unsigned a, unsigned b) {
    int ax = (int)(a % c->mesh_cols), ay = (int)(a / c->mesh_cols);
    int bx = (int)(b % c->mesh_cols), by = (int)(b / c->mesh_cols);
    return (unsigned)(abs(ax - bx) + abs(ay - by));
}

/* ------------------------------------------------------------ zero load */
static void test_zero_load(void **state) {
    (void)state;
    mem_config c;
    cm_config(&c);
    const icnt_ops *o = &icnt_mesh_ops;
    icnt *n = make(&c, NREQ, NMEM);
    unsigned per_hop = c.mesh_router_cycles + c.mesh_link_cycles, hist[16] = {0};
    uint32_t id = 0;
    for (unsigned p = 0; p < NREQ; p++)
        for (unsigned s = 0; s < NMEM; s++)
            for (unsigned net = 0; net < 2; net++)
                for (unsigned flits = 1; flits <= 5; flits += 4) {
                    unsigned h = dist(&c, c.mesh_port_router[p], c.mesh_slice_router[s]);
                    unsigned want = (h + 1) * per_hop + flits - 1;
                    assert_int_equal(o->zero_load(&c, p, s, flits), want);
                    unsigned src = net == ICNT_REQ ? p : NREQ + s, dst = net == ICNT_REQ ? NREQ + s : p;
                    icnt_pkt pk = {++id, (uint16_t)src, (uint16_t)dst, (uint16_t)flits, 0};
                    uint64_t t0 = o->cycle(n);
                    assert_int_equal(o->inject(n, net, &pk), 0);
                    const icnt_pkt *got = NULL;
                    while (!(got = o->peek(n, net, dst))) {
                        o->tick(n);
                        assert_true(o->cycle(n) - t0 < 200);
                    }
                    assert_int_equal(got->rec, id);
                    assert_int_equal(o->cycle(n) - t0, want); /* ejectable after cycle t0 + want - 1 */
                    o->pop(n, net, dst);
                    assert_true(o->idle(n));
                    hist[h]++;
                }
    printf("# CM placement: per hop %u cycles; hops histogram (port-slice pairs x 4):", per_hop);
    for (unsigned h = 0; h < 16; h++)
        if (hist[h]) printf(" %u:%u", h, hist[h] / 4);
    printf("\n");
    o->destroy(n);
}

/* ------------------------------------------------------------ saturation */
#define MAXPKT (1u << 24)

/* Uniform random traffic on both networks, every endpoint offering a packet
 * every cycle for `cycles` (ejection stalled at random when `stalls`), then
 * drained.  Checks every delivery; returns the packets delivered and, in
 * *drain, the cycles from the end of injection until the network was empty. */
static uint64_t saturate(const mem_config *c, uint64_t seed, uint64_t cycles, bool stalls, bool wake,
                         uint64_t *drain, uint64_t *hash) {
    const icnt_ops *o = &icnt_mesh_ops;
    icnt *n = make(c, NREQ, NMEM);
    icnt_mesh_set_wake(n, wake);
    *hash = TB_HASH_INIT; /* every delivery: packet, node, tail cycle, pop cycle */
    enum { NN = NREQ + NMEM };
    fg_rng g;
    fg_rng_seed(&g, seed);
    static uint32_t sent[NN][NN], got_seq[NN][NN];
    memset(sent, 0, sizeof sent);
    memset(got_seq, 0, sizeof got_seq);
    uint32_t *seq = calloc(MAXPKT, sizeof *seq);
    uint8_t *seen = calloc(MAXPKT, 1);
    unsigned stall_left[NN] = {0};
    icnt_pkt pend[NN];
    bool has[NN] = {false};
    uint32_t next = 0;
    uint64_t got = 0, t = 0;
    for (;; t++) {
        for (unsigned e = 0; t < cycles && e < NN; e++) {
            unsigned net = e < NREQ ? ICNT_REQ : ICNT_REP;
            if (!has[e]) {
                unsigned d = e < NREQ ? NREQ + (unsigned)fg_rng_below(&g, NMEM) : (unsigned)fg_rng_below(&g, NREQ);
                if (next == MAXPKT) fail_msg("too many packets");
                pend[e] = (icnt_pkt){next, (uint16_t)e, (uint16_t)d, fg_rng_chance(&g, 1, 2) ? 1 : 5, 0};
                seq[next++] = sent[e][d]++;
                has[e] = true;
            }
            bool can = o->can_inject(n, net, e, pend[e].flits);
            if (can != !o->inject(n, net, &pend[e])) fail_msg("can_inject disagrees with inject");
            if (can) has[e] = false;
        }
        o->tick(n);
        for (unsigned e = 0; e < NN; e++) {
            unsigned net = e < NREQ ? ICNT_REP : ICNT_REQ; /* what e receives */
            if (stall_left[e]) {
                stall_left[e]--;
                continue;
            }
            if (stalls && t < cycles && fg_rng_chance(&g, 1, 200))
                stall_left[e] = (unsigned)fg_rng_below(&g, 400);
            const icnt_pkt *p = o->peek(n, net, e);
            if (!p) continue;
            if (p->dst != e) fail_msg("packet %u for node %u ejected at %u", p->rec, p->dst, e);
            if (seen[p->rec]++) fail_msg("packet %u delivered twice", p->rec);
            if (p->ready >= o->cycle(n)) fail_msg("packet %u ejectable before its tail arrived", p->rec);
            if (seq[p->rec] != got_seq[p->src][e]++)
                fail_msg("packet %u from %u to %u out of order", p->rec, p->src, e);
            got++;
            const uint64_t d[4] = {p->rec, e, p->ready, t};
            for (unsigned k = 0; k < 4; k++) tb_hash_mix(hash, d[k]);
            o->pop(n, net, e);
        }
        if (t >= cycles && o->idle(n)) break;
        if (t > cycles + 100000) fail_msg("not drained 100000 cycles after injection stopped (deadlock?)");
    }
    for (uint32_t i = 0; i < next; i++) /* the ones still pending at the end were never injected */
        if (!seen[i]) {
            bool pending = false;
            for (unsigned e = 0; e < NN; e++) pending |= has[e] && pend[e].rec == i;
            if (!pending) fail_msg("packet %u lost", i);
        }
    *drain = t + 1 - cycles;
    free(seq);
    free(seen);
    o->destroy(n);
    return got;
}

static void test_saturation(void **state) {
    (void)state;
    mem_config c;
    cm_config(&c);
    uint64_t seed = tb_seed("mesh saturation"), drain, hash;
    uint64_t cycles = tb_cycles(40000);
    uint64_t got = saturate(&c, seed, cycles, true, true, &drain, &hash);
    printf("# %" PRIu64 " packets delivered in %" PRIu64 " cycles, drained in %" PRIu64 " cycles\n", got,
           cycles, drain);
    assert_true(got > cycles); /* saturated: far more than one packet a cycle in all */
    assert_true(drain < 5000);
}

/* The routers' skip of cycles in which they can do nothing (icnt_mesh.c
 * idle_until and its wakes) changes nothing: the same random traffic with
 * stalling endpoints, with the skip and with every router visited every
 * cycle, delivers every packet at the same cycle; with CM's pipeline and
 * with a deeper one (more cycles a flit waits on time alone). */
static void test_wake_exact(void **state) {
    (void)state;
    mem_config c;
    cm_config(&c);
    uint64_t seed = tb_seed("mesh wake"), cycles = tb_cycles(20000);
    for (unsigned deep = 0; deep < 2; deep++) {
        mem_config cd = c;
        if (deep) {
            cd.mesh_router_cycles = 3;
            cd.mesh_link_cycles = 2;
        }
        uint64_t d_on, d_off, h_on, h_off;
        uint64_t g_on = saturate(&cd, seed + deep, cycles, true, true, &d_on, &h_on);
        uint64_t g_off = saturate(&cd, seed + deep, cycles, true, false, &d_off, &h_off);
        assert_int_equal(g_on, g_off);
        assert_int_equal(d_on, d_off);
        if (h_on != h_off)
            fail_msg("router %u + link %u cycles: the deliveries differ with the skip (hash %016" PRIx64
                     " against %016" PRIx64 ")", cd.mesh_router_cycles, cd.mesh_link_cycles, h_on, h_off);
    }
}

static void test_idle_cost(void **state) {
    (void)state;
    mem_config c;
    cm_config(&c);
    icnt *n = make(&c, NREQ, NMEM);
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned i = 0; i < 10000000; i++) icnt_mesh_ops.tick(n);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 1e7;
    printf("# idle mesh: %.1f ns per cycle (both networks)\n", ns);
    assert_true(ns < 50);
    icnt_mesh_ops.destroy(n);
}

static void test_bad_placement(void **state) {
    (void)state;
    mem_config c;
    cm_config(&c);
    char err[256];
    assert_null(icnt_mesh_ops.create(&c, MEM_MESH_PORTS, NMEM, err, sizeof err));
    assert_non_null(strstr(err, "mesh_port_routers lists 43"));
    c.mesh_port_router[3] = 36;
    assert_null(icnt_mesh_ops.create(&c, NREQ, NMEM, err, sizeof err));
    assert_non_null(strstr(err, "outside the 6x6 mesh"));
    fg_config *cf = fg_config_new();
    assert_int_equal(fg_config_load(cf, "configs/cm.ini", err, sizeof err), 0);
    assert_int_equal(fg_config_set(cf, "mem.mesh_slice_routers=1,2,x", err, sizeof err), 0);
    mem_config d;
    mem_config_default(&d);
    assert_int_equal(mem_config_load(&d, cf, err, sizeof err), -1);
    assert_non_null(strstr(err, "mesh_slice_routers"));
    fg_config_free(cf);
}

/* ------------------------------------------------------------ in mem */
static void test_in_memory_system(void **state) {
    (void)state;
    mem_config c;
    cm_config(&c);
    static uint8_t backing[256u << 20];
    char err[256];
    /* one read from port 0 to slice 0 (address 0x10000): mem_unloaded_latency */
    mem_system *m = mem_new(&c, NREQ, backing, sizeof backing, err, sizeof err);
    if (!m) fail_msg("%s", err);
    mem_lat l;
    assert_int_equal(mem_unloaded_latency(&c, 3, MEM_LAT_ROW_MISS, 4, &l), 0);
    while (mem_cycle(m) < 3) mem_tick(m);
    mem_req r = {.id = 1, .addr = 0x10000, .bmask = {0xf, 0}, .op = MEM_READ, .kind = MEM_K_DATA,
                 .fe_trig = MEM_FE_DEFAULT, .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
    assert_int_equal(mem_send(m, 0, &r), 0);
    uint64_t n = 0;
    while (!mem_rsp_peek(m, 0)) {
        mem_tick(m);
        n++;
        assert_true(n < 5000);
    }
    printf("# CM, port 0 -> slice 0 (%u hops): %" PRIu64 " core cycles, request net %" PRIu64
           ", reply net %" PRIu64 "\n", icnt_mesh_hops(&c, 0, 0), n, l.req_net, l.reply_net);
    assert_int_equal(n, l.total);
    mem_rsp_pop(m, 0);
    /* every GPU port reads lines of the L2 without popping: replies pile up
     * in the reply network, the slices cannot inject (stallnet) */
    for (unsigned i = 0; i < 4000; i++) {
        for (unsigned p = 0; p < 28; p++) {
            mem_req q = r;
            q.addr = ((uint64_t)(i * 28 + p) % 2048) * 128;
            q.bmask[0] = q.bmask[1] = ~0ull;
            mem_send(m, p, &q);
        }
        mem_tick(m);
    }
    mem_stats s;
    mem_get_stats(m, MEM_ALL, &s);
    printf("# ports not popping: stallnet %" PRIu64 " partition-cycles, stallMC %" PRIu64 "\n", s.stall_net,
           s.stall_mc);
    assert_true(s.stall_net > 1000);
    assert_null(mem_error(m));
    mem_free(m);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_load),      cmocka_unit_test(test_saturation),
        cmocka_unit_test(test_wake_exact),
        cmocka_unit_test(test_idle_cost),      cmocka_unit_test(test_bad_placement),
        cmocka_unit_test(test_in_memory_system),
    };
    return tb_run_tests("mesh", tests);
}
