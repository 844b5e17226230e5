/* Directed DRAM timing tests (sim/mem/dram.c, docs/MEM.md "DRAM"): row hit,
 * row miss, row conflict (with tRAS / tRC), tRRD and tCCD spacing, write ->
 * read and read -> write turnaround, same-line order, bank parallelism; every
 * expected cycle computed here from the configuration by the documented
 * rules.  Then the whole hierarchy: one read (L2 miss to a closed bank, a row
 * hit, an L2 hit) end to end equals mem_unloaded_latency() in each machine
 * configuration and at several clock phases. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "fg_tb.h"
#include "fg_util.h"
#include "mem/dram.h"
#include "mem/mem.h"
#include "mem/mem_config.h"

typedef struct {
    dram_cmd cmd;
    unsigned bank;
    uint64_t row;
    uint32_t rec;
    uint64_t cycle;
} ev;

typedef struct {
    mem_config c;
    dram_chan *d;
    uint64_t now;
    ev ev[512];
    unsigned n;
    uint64_t done[64];
} bench;

static bool on_retire(void *ctx, uint32_t rec) {
    bench *b = ctx;
    b->done[rec] = b->now;
    return true;
}
static void on_cmd(void *ctx, dram_cmd cmd, unsigned bank, uint64_t row, uint32_t rec, uint64_t cycle) {
    bench *b = ctx;
    if (b->n < 512) b->ev[b->n++] = (ev){cmd, bank, row, rec, cycle};
}

static void open_bench(bench *b, const mem_config *c) {
    memset(b, 0, sizeof *b);
    b->c = *c;
    dram_hooks h = {b, on_retire, NULL, on_cmd};
    b->d = dram_new(c, &h);
    assert_non_null(b->d);
    for (unsigned i = 0; i < 64; i++) b->done[i] = UINT64_MAX;
}
/* A channel of the default (EDGE) configuration. */
static const mem_config *open_default(bench *b) {
    mem_config c;
    mem_config_default(&c);
    open_bench(b, &c);
    return &b->c;
}
static void run(bench *b, unsigned cycles) {
    while (cycles--) {
        dram_cycle(b->d, b->now);
        b->now++;
    }
}
static void drain(bench *b) {
    for (unsigned i = 0; i < 100000 && !dram_idle(b->d); i++) run(b, 1);
    assert_true(dram_idle(b->d));
}
/* A partition-local address in (bank, row), column line `col`. */
static uint64_t at(const mem_config *c, unsigned bank, uint64_t row, unsigned col) {
    return (row * c->dram_banks + bank) * c->dram_row_bytes + (uint64_t)col * c->line_bytes;
}
/* The k-th command of a kind for record rec. */
static const ev *find(const bench *b, dram_cmd cmd, uint32_t rec, unsigned k) {
    for (unsigned i = 0; i < b->n; i++)
        if (b->ev[i].cmd == cmd && b->ev[i].rec == rec && k-- == 0) return &b->ev[i];
    fail_msg("no command %d #%u for record %u", cmd, k, rec);
    return NULL;
}

static unsigned BL(const mem_config *c) { return mem_config_burst_cycles(c); }
static unsigned NB(const mem_config *c) { return mem_config_bursts(c, c->line_bytes); }
static unsigned STEP(const mem_config *c) { return c->tCCD > BL(c) ? c->tCCD : BL(c); }
/* Read data of a line: column commands STEP apart, CAS latency, last burst. */
static unsigned RD_TAIL(const mem_config *c) { return (NB(c) - 1) * STEP(c) + c->tCL + BL(c); }

static void test_row_miss_hit_conflict(void **state) {
    (void)state;
    bench b;
    const mem_config *c = open_default(&b);
    /* row miss (bank closed): ACT now, first RD tRCD later */
    dram_push(b.d, 0, at(c, 3, 7, 0), false, NB(c));
    drain(&b);
    assert_int_equal(find(&b, DRAM_ACT, 0, 0)->cycle, 0);
    assert_int_equal(find(&b, DRAM_RD, 0, 0)->cycle, c->tRCD);
    assert_int_equal(find(&b, DRAM_RD, 0, NB(c) - 1)->cycle, c->tRCD + (NB(c) - 1) * STEP(c));
    assert_int_equal(b.done[0], c->tRCD + RD_TAIL(c));
    /* row hit, long after: RD at once */
    run(&b, 100);
    uint64_t t = b.now;
    dram_push(b.d, 1, at(c, 3, 7, 5), false, NB(c));
    drain(&b);
    assert_int_equal(find(&b, DRAM_RD, 1, 0)->cycle, t);
    assert_int_equal(b.done[1] - t, RD_TAIL(c));
    /* row conflict, long after: PRE, ACT tRP later, RD tRCD later */
    run(&b, 100);
    t = b.now;
    dram_push(b.d, 2, at(c, 3, 9, 0), false, NB(c));
    drain(&b);
    assert_int_equal(find(&b, DRAM_PRE, 2, 0)->cycle, t);
    assert_int_equal(find(&b, DRAM_ACT, 2, 0)->cycle, t + c->tRP);
    assert_int_equal(b.done[2] - t, c->tRP + c->tRCD + RD_TAIL(c));
    const dram_stats *s = dram_get_stats(b.d);
    assert_int_equal(s->row_misses, 1);
    assert_int_equal(s->row_hits, 1);
    assert_int_equal(s->row_conflicts, 1);
    assert_int_equal(s->bus_busy, 3 * NB(c) * BL(c));
    dram_free(b.d);
}

/* A conflict right behind an ACT waits for tRAS (PRE) and tRC (ACT). */
static void test_tras_trc(void **state) {
    (void)state;
    bench b;
    const mem_config *c = open_default(&b);
    dram_push(b.d, 0, at(c, 0, 1, 0), false, NB(c));
    dram_push(b.d, 1, at(c, 0, 2, 0), false, NB(c));
    drain(&b);
    uint64_t act0 = find(&b, DRAM_ACT, 0, 0)->cycle, rd_last = find(&b, DRAM_RD, 0, NB(c) - 1)->cycle;
    uint64_t pre = act0 + c->tRAS > rd_last + BL(c) ? act0 + c->tRAS : rd_last + BL(c);
    assert_int_equal(find(&b, DRAM_PRE, 1, 0)->cycle, pre);
    uint64_t act1 = pre + c->tRP > act0 + c->tRC ? pre + c->tRP : act0 + c->tRC;
    assert_int_equal(find(&b, DRAM_ACT, 1, 0)->cycle, act1);
    assert_int_equal(b.done[1], act1 + c->tRCD + RD_TAIL(c));
    dram_free(b.d);
}

/* ACTs to different banks are tRRD apart; column commands STEP apart. */
static void test_trrd_tccd(void **state) {
    (void)state;
    for (unsigned ccd = 2; ccd <= 4; ccd += 2) {
        mem_config c;
        mem_config_default(&c);
        c.tCCD = ccd;
        assert_true(c.tRRD < c.tRCD); /* so the second ACT is not held by a column command */
        bench b;
        open_bench(&b, &c);
        dram_push(b.d, 0, at(&c, 0, 1, 0), false, NB(&c));
        dram_push(b.d, 1, at(&c, 1, 1, 0), false, NB(&c));
        drain(&b);
        assert_int_equal(find(&b, DRAM_ACT, 1, 0)->cycle - find(&b, DRAM_ACT, 0, 0)->cycle, c.tRRD);
        /* both rows open: four reads, two per bank, back to back */
        run(&b, 100);
        uint64_t t = b.now;
        for (uint32_t r = 2; r < 6; r++) dram_push(b.d, r, at(&c, r & 1, 1, r), false, NB(&c));
        drain(&b);
        uint64_t prev = 0;
        unsigned cols = 0;
        for (unsigned i = 0; i < b.n; i++) {
            if (b.ev[i].rec < 2) continue;
            assert_int_equal(b.ev[i].cmd, DRAM_RD);
            assert_int_equal(b.ev[i].cycle, cols ? prev + STEP(&c) : t);
            prev = b.ev[i].cycle;
            cols++;
        }
        assert_int_equal(cols, 4 * NB(&c));
        dram_free(b.d);
    }
}

/* Write -> read: tWL + burst + tCDLR after the last write burst; read ->
 * write: tCL + burst + gap - tWL after the last read burst. */
static void test_turnaround(void **state) {
    (void)state;
    bench b;
    const mem_config *c = open_default(&b);
    dram_push(b.d, 0, at(c, 0, 1, 0), false, NB(c));
    dram_push(b.d, 1, at(c, 1, 1, 0), false, NB(c));
    drain(&b);
    run(&b, 100);
    dram_push(b.d, 2, at(c, 0, 1, 1), true, NB(c));
    dram_push(b.d, 3, at(c, 1, 1, 1), false, NB(c));
    drain(&b);
    uint64_t wr_last = find(&b, DRAM_WR, 2, NB(c) - 1)->cycle;
    assert_int_equal(find(&b, DRAM_RD, 3, 0)->cycle, wr_last + c->tWL + BL(c) + c->tCDLR);
    run(&b, 100);
    dram_push(b.d, 4, at(c, 1, 1, 2), false, NB(c));
    dram_push(b.d, 5, at(c, 0, 1, 2), true, NB(c));
    drain(&b);
    uint64_t rd_last = find(&b, DRAM_RD, 4, NB(c) - 1)->cycle;
    assert_int_equal(find(&b, DRAM_WR, 5, 0)->cycle, rd_last + c->tCL + BL(c) + c->tRTW_gap - c->tWL);
    assert_int_equal(b.done[2], wr_last + c->tWL + BL(c));
    dram_free(b.d);
}

/* Accesses to one line are performed in arrival order, even when a younger
 * one could go first (here: a read behind a write that waits for turnaround). */
static void test_same_line_order(void **state) {
    (void)state;
    bench b;
    const mem_config *c = open_default(&b);
    dram_push(b.d, 0, at(c, 0, 1, 0), false, NB(c));
    drain(&b);
    dram_push(b.d, 1, at(c, 0, 1, 0), false, 1); /* read: the bus is in read mode */
    dram_push(b.d, 2, at(c, 0, 1, 3), true, 1);  /* write, other line */
    dram_push(b.d, 3, at(c, 0, 1, 3), false, 1); /* read of the written line */
    drain(&b);
    assert_true(find(&b, DRAM_RD, 3, 0)->cycle > find(&b, DRAM_WR, 2, 0)->cycle);
    dram_free(b.d);
}

/* First ready, first come: a younger row hit goes before an older conflict,
 * and the open row is not closed while a queued access still hits it. */
static void test_fr_fcfs(void **state) {
    (void)state;
    bench b;
    const mem_config *c = open_default(&b);
    dram_push(b.d, 0, at(c, 0, 1, 0), false, NB(c));
    drain(&b);
    run(&b, 100);
    uint64_t t = b.now;
    dram_push(b.d, 1, at(c, 0, 2, 0), false, NB(c)); /* conflict, older */
    dram_push(b.d, 2, at(c, 0, 1, 4), false, NB(c)); /* hit, younger */
    drain(&b);
    assert_int_equal(find(&b, DRAM_RD, 2, 0)->cycle, t);
    assert_true(find(&b, DRAM_PRE, 1, 0)->cycle > find(&b, DRAM_RD, 2, NB(c) - 1)->cycle);
    assert_true(b.done[2] < b.done[1]);
    dram_free(b.d);
}

/* N rows of one bank take tRC each; N banks overlap their activations. */
static void test_bank_parallelism(void **state) {
    (void)state;
    mem_config c;
    mem_config_default(&c);
    const unsigned N = 8;
    /* with these timings the row cycle, not the data, spaces the ACTs */
    assert_true(c.tRAS >= c.tRCD + NB(&c) * STEP(&c) && c.tRC >= c.tRAS + c.tRP);
    bench b;
    open_bench(&b, &c);
    for (uint32_t r = 0; r < N; r++) dram_push(b.d, r, at(&c, 0, r + 1, 0), false, NB(&c));
    drain(&b);
    uint64_t serial = b.done[N - 1];
    assert_int_equal(serial, (N - 1) * c.tRC + c.tRCD + RD_TAIL(&c));
    dram_free(b.d);
    open_bench(&b, &c);
    for (uint32_t r = 0; r < N; r++) dram_push(b.d, r, at(&c, r, 1, 0), false, NB(&c));
    drain(&b);
    uint64_t parallel = 0;
    for (uint32_t r = 0; r < N; r++) parallel = b.done[r] > parallel ? b.done[r] : parallel;
    printf("# %u reads, one bank: %" PRIu64 " cycles; %u banks: %" PRIu64 " cycles\n", N, serial, N,
           parallel);
    assert_true(parallel * 3 < serial);
    for (uint32_t r = 1; r < N; r++)
        assert_true(find(&b, DRAM_ACT, r, 0)->cycle - find(&b, DRAM_ACT, r - 1, 0)->cycle >= c.tRRD);
    dram_free(b.d);
}

/* ------------------------------------------------------------ end to end */
static void machine(mem_config *c, const char *path) {
    mem_config_default(c);
    if (!path) return;
    fg_config *cf = fg_config_new();
    char err[512];
    if (fg_config_load(cf, path, err, sizeof err)) fail_msg("%s", err);
    if (mem_config_load(c, cf, err, sizeof err)) fail_msg("%s", err);
    fg_config_free(cf);
    c->fe_impl = FG_IMPL_C;
}

/* Sends one read at tick t and returns the ticks until its response. */
static uint64_t one_read(mem_system *m, uint64_t addr, uint64_t bm0, uint64_t t) {
    while (mem_cycle(m) < t) mem_tick(m);
    mem_req r = {.id = 7, .addr = addr, .bmask = {bm0, 0}, .op = MEM_READ, .kind = MEM_K_DATA,
                 .fe_trig = MEM_FE_DEFAULT, .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
    assert_int_equal(mem_send(m, 0, &r), 0);
    for (uint64_t n = 1; n < 100000; n++) {
        mem_tick(m);
        const mem_rsp *p = mem_rsp_peek(m, 0);
        if (p) {
            assert_int_equal(p->id, 7);
            mem_rsp_pop(m, 0);
            return n;
        }
    }
    fail_msg("no response");
    return 0;
}

static void test_unloaded_latency(void **state) {
    (void)state;
    const char *machines[] = {NULL, "configs/edge.ini", "configs/fe.ini", "configs/cm.ini"};
    static uint8_t backing[256u << 20];
    for (unsigned k = 0; k < 4; k++) {
        mem_config c;
        machine(&c, machines[k]);
        for (uint64_t t0 = 0; t0 < 7; t0 += 3) {
            char err[256];
            mem_system *m = mem_new(&c, 2, backing, sizeof backing, err, sizeof err);
            if (!m) fail_msg("%s", err);
            mem_lat miss, hit, l2;
            assert_int_equal(mem_unloaded_latency(&c, t0, MEM_LAT_ROW_MISS, 4, &miss), 0);
            uint64_t got = one_read(m, 0x10000, 0xf, t0);
            printf("# %s, sent at %" PRIu64 ": %" PRIu64 " cycles (net %" PRIu64 " + L2 %" PRIu64
                   " + to MC %" PRIu64 " + F/E %" PRIu64 " + DRAM %" PRIu64 " + to L2 %" PRIu64
                   " + reply %" PRIu64 ")\n",
                   machines[k] ? machines[k] : "defaults", t0, got, miss.req_net, miss.l2, miss.to_mc,
                   miss.fe, miss.dram, miss.to_l2, miss.reply_net);
            assert_int_equal(got, miss.total);
            assert_int_equal(miss.req_net + miss.l2 + miss.to_mc + miss.fe + miss.dram + miss.to_l2 +
                                 miss.reply_net, miss.total);
            /* the same line again: an L2 hit */
            uint64_t t = mem_cycle(m) + 50;
            assert_int_equal(mem_unloaded_latency(&c, t, MEM_LAT_L2_HIT, 64, &l2), 0);
            assert_int_equal(one_read(m, 0x10000, ~0ull, t), l2.total);
            /* another line of the same DRAM row (the next stripe): a row hit */
            uint64_t stripe = (uint64_t)c.interleave_bytes * c.partitions * c.slices;
            t = mem_cycle(m) + 50;
            assert_int_equal(mem_unloaded_latency(&c, t, MEM_LAT_ROW_HIT, 4, &hit), 0);
            assert_int_equal(one_read(m, 0x10000 + stripe, 0xf, t), hit.total);
            assert_true(l2.total < hit.total && hit.total < miss.total);
            if (t0 == 0) { /* docs/MEM.md's table: a 128-byte read sent at cycle 0 */
                uint64_t v[4];
                for (unsigned k = 0; k < 4; k++) {
                    mem_lat x;
                    assert_int_equal(mem_unloaded_latency(&c, 0, (mem_lat_case)k, 128, &x), 0);
                    v[k] = x.total;
                }
                printf("#   128-byte read at 0: L2 hit %" PRIu64 ", row hit %" PRIu64 ", closed bank %" PRIu64
                       ", row conflict %" PRIu64 "\n", v[0], v[1], v[2], v[3]);
            }
            mem_stats s;
            mem_get_stats(m, MEM_ALL, &s);
            assert_int_equal(s.row_misses, 1);
            assert_int_equal(s.row_hits, 1);
            assert_int_equal(s.l2_hits, 1);
            assert_int_equal(s.lat_n[MEM_K_DATA], 3);
            assert_int_equal(s.lat_sum[MEM_K_DATA], miss.total + l2.total + hit.total);
            /* the breakdown (docs/MEM.md "Where a request's time goes"): its stages are the model's */
            const mem_brk *bh = &s.brk[MEM_SRC_GPU][MEM_PATH_HIT], *bm = &s.brk[MEM_SRC_GPU][MEM_PATH_MISS];
            assert_int_equal(bh->n, 1);
            assert_int_equal(bm->n, 2);
            /* (a request that reaches the slice in a core cycle without an L2 cycle: the model counts
             * the wait for the next L2 cycle in the L2 stage, the breakdown in the request network) */
            assert_int_equal(bh->req + bh->pipe, l2.req_net + l2.l2);
            assert_int_equal(bh->wait, 0);
            assert_int_equal(bh->rep, l2.reply_net);
            assert_int_equal(bm->req + bm->pipe, miss.req_net + miss.l2 + hit.req_net + hit.l2);
            assert_int_equal(bm->wait, miss.to_mc + miss.fe + miss.dram + miss.to_l2 + hit.to_mc + hit.fe +
                                           hit.dram + hit.to_l2);
            assert_int_equal(bm->missq + bm->mcq + bm->dram + bm->drain, bm->wait);
            /* the miss's stages are the model's, the memory controller's exactly; its stamp of the
             * accept is taken after the tick's L2 cycles, one L2 cycle late */
            assert_int_equal(bm->mcq, miss.fe + hit.fe);
            const uint64_t late = 2 * (uint64_t)llround(c.core_mhz / c.l2_mhz);
            assert_true(bm->missq >= miss.to_mc + hit.to_mc && bm->missq <= miss.to_mc + hit.to_mc + late);
            assert_int_equal(bm->rep, miss.reply_net + hit.reply_net);
            assert_int_equal(bh->port + bm->port, 0);
            mem_free(m);
        }
    }
}

/* Streaming from 16 ports over 64 MiB (far beyond the L2): reads, then a
 * copy (read a line of A, write the same line of B: write-allocate without
 * fetch, so DRAM sees A's reads and B's write-backs).  Data-bus utilisation
 * of every channel over a steady window; the scheduler and the queues must
 * sustain >= 80 % of peak (the EDGE configuration). */
static double stream(const mem_config *c, bool copy, double *gbps, double *ns) {
    static uint8_t backing[256u << 20];
    char err[256];
    const unsigned P = 16;
    mem_system *m = mem_new(c, P, backing, sizeof backing, err, sizeof err);
    if (!m) fail_msg("%s", err);
    uint64_t next[16] = {0}, lines = (64u << 20) / c->line_bytes;
    mem_stats a, b;
    clock_t t0 = clock();
    for (uint64_t t = 0; t < 60000; t++) {
        if (t == 20000) mem_get_stats(m, MEM_ALL, &a);
        for (unsigned p = 0; p < P; p++) {
            while (mem_rsp_peek(m, p)) mem_rsp_pop(m, p);
            uint64_t i = next[p] * P + p, line = copy ? i / 2 : i;
            mem_req r = {.addr = (line % lines) * c->line_bytes + (copy && (i & 1) ? 128u << 20 : 0),
                         .bmask = {~0ull, ~0ull}, .op = copy && (i & 1) ? MEM_WRITE : MEM_READ,
                         .amo_ops = 1, .fe_trig = MEM_FE_DEFAULT, .fe_act = MEM_FE_DEFAULT};
            if (mem_send(m, p, &r) == 0) next[p]++;
        }
        mem_tick(m);
    }
    mem_get_stats(m, MEM_ALL, &b);
    *ns = (double)(clock() - t0) / CLOCKS_PER_SEC * 1e9 / 60000;
    double util = (double)(b.dram_bus_busy - a.dram_bus_busy) / ((double)(b.dram_cycles - a.dram_cycles) * c->partitions);
    *gbps = util * mem_config_peak_gbps(c);
    mem_free(m);
    return util;
}

static void test_stream_bandwidth(void **state) {
    (void)state;
    mem_config c;
    mem_config_default(&c);
    c.fe_impl = FG_IMPL_C;
    for (int rtl = 0; rtl < 2; rtl++) {
        c.fe_impl = rtl ? FG_IMPL_RTL : FG_IMPL_C;
        double g, ns, u = stream(&c, false, &g, &ns);
        printf("# read stream: %.1f of %.1f GB/s peak (%.0f %%); mem_tick %.2f us (F/E %s)\n", g,
               mem_config_peak_gbps(&c), u * 100, ns / 1000, fg_impl_name(c.fe_impl));
        assert_true(u >= 0.8);
        u = stream(&c, true, &g, &ns);
        printf("# copy: %.1f of %.1f GB/s peak (%.0f %%); mem_tick %.2f us (F/E %s)\n", g,
               mem_config_peak_gbps(&c), u * 100, ns / 1000, fg_impl_name(c.fe_impl));
        assert_true(u >= 0.8);
    }
    /* an idle system costs almost nothing */
    static uint8_t backing[1u << 20];
    char err[256];
    c.fe_region_base = c.fe_region_bytes = 0;
    mem_system *m = mem_new(&c, 16, backing, sizeof backing, err, sizeof err);
    assert_non_null(m);
    clock_t t0 = clock();
    for (unsigned i = 0; i < 1000000; i++) mem_tick(m);
    printf("# idle mem_tick: %.0f ns\n", (double)(clock() - t0) / CLOCKS_PER_SEC * 1e9 / 1e6);
    mem_free(m);
}

/* The scheduler's skip of its scan while no command can issue (dram.c
 * d->wake) changes nothing: one random stream of reads and writes of 1-4
 * bursts over few rows (hits, misses, conflicts, same-line order), with the
 * return path refusing retirements at random and for long stretches (a full
 * data path holds column commands back), on a channel with the skip
 * and one scanning every cycle: the same commands at the same cycles and
 * the same retirements. */
typedef struct {
    fg_rng g;     /* the return path's refusals */
    uint64_t now, hash;
} wake_ctx;
static bool wake_retire(void *ctx, uint32_t rec) {
    wake_ctx *w = ctx;
    if (w->now % 3000 < 600 || fg_rng_chance(&w->g, 1, 4)) return false; /* long stalls fill the data path */
    tb_hash_mix(&w->hash, rec);
    tb_hash_mix(&w->hash, w->now);
    return true;
}
static void wake_cmd(void *ctx, dram_cmd cmd, unsigned bank, uint64_t row, uint32_t rec, uint64_t cycle) {
    wake_ctx *w = ctx;
    tb_hash_mix(&w->hash, ((uint64_t)cmd << 56) ^ ((uint64_t)bank << 48) ^ (row << 32) ^ rec);
    tb_hash_mix(&w->hash, cycle);
}
static void test_wake_exact(void **state) {
    (void)state;
    mem_config c;
    mem_config_default(&c);
    const uint64_t seed = tb_seed("dram wake");
    const unsigned cycles = (unsigned)tb_cycles(200000);
    wake_ctx ctx[2];
    dram_chan *d[2];
    for (unsigned k = 0; k < 2; k++) {
        memset(&ctx[k], 0, sizeof ctx[k]);
        fg_rng_seed(&ctx[k].g, seed ^ 0x5eed);
        ctx[k].hash = TB_HASH_INIT;
        dram_hooks h = {&ctx[k], wake_retire, NULL, wake_cmd};
        d[k] = dram_new(&c, &h);
        assert_non_null(d[k]);
    }
    dram_set_wake(d[1], false);
    fg_rng g;
    fg_rng_seed(&g, seed);
    uint32_t rec = 0;
    for (uint64_t t = 0; t < cycles || !dram_idle(d[0]) || !dram_idle(d[1]); t++) {
        if (t > (uint64_t)cycles + 100000) fail_msg("the channels did not drain");
        /* bursts of traffic and quiet stretches, so that both the busy and the idle waits are skipped */
        const bool busy = (t / 2000) % 2 == 0;
        if (t < cycles && fg_rng_chance(&g, 1, busy ? 2 : 40)) {
            assert_int_equal(dram_can_accept(d[0]), dram_can_accept(d[1]));
            const uint64_t local = at(&c, (unsigned)fg_rng_below(&g, c.dram_banks), fg_rng_below(&g, 3),
                                      (unsigned)fg_rng_below(&g, 4));
            const bool wr = fg_rng_chance(&g, 1, 3);
            const unsigned bursts = 1 + (unsigned)fg_rng_below(&g, 4);
            if (dram_can_accept(d[0])) {
                for (unsigned k = 0; k < 2; k++) dram_push(d[k], rec, local, wr, bursts);
                rec++;
            }
        }
        for (unsigned k = 0; k < 2; k++) {
            ctx[k].now = t;
            dram_cycle(d[k], t);
        }
    }
    printf("# %u accesses, %" PRIu64 " row hits, %" PRIu64 " misses, %" PRIu64 " conflicts\n", rec,
           dram_get_stats(d[0])->row_hits, dram_get_stats(d[0])->row_misses, dram_get_stats(d[0])->row_conflicts);
    assert_memory_equal(dram_get_stats(d[0]), dram_get_stats(d[1]), sizeof(dram_stats));
    if (ctx[0].hash != ctx[1].hash)
        fail_msg("the commands or retirements differ with the skip (hash %016" PRIx64 " against %016" PRIx64 ")",
                 ctx[0].hash, ctx[1].hash);
    for (unsigned k = 0; k < 2; k++) dram_free(d[k]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wake_exact),
        cmocka_unit_test(test_row_miss_hit_conflict), cmocka_unit_test(test_tras_trc),
        cmocka_unit_test(test_trrd_tccd),             cmocka_unit_test(test_turnaround),
        cmocka_unit_test(test_same_line_order),       cmocka_unit_test(test_fr_fcfs),
        cmocka_unit_test(test_bank_parallelism),
        cmocka_unit_test(test_unloaded_latency),      cmocka_unit_test(test_stream_bandwidth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
