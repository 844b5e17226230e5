/* Tests of the CM-CPU / CM-BAL stall monitor (rtl/cm/): directed
 * scripted stall traces with literal expected decisions, closed-loop
 * Fig.12-like stallGPU curves, and random lockstep against an independent
 * interval-level reference model of CM Sec. 4.1-4.2. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_bal_monitor.h"
#include "cm_traces.h"
#include "fg_tb.h"

#define NC 4
#define NP 4
#define NL 9
#define IV 1024
#define WALK (NC + CM_BAL_COMMIT_EDGES) /* core c's interval-end decision is visible from cycle c + 5 of the next interval */
#define RD0 WALK       /* cycles RD0..RD0+NC-1 read the cores, then 9 table entries each */
#define RDEND (RD0 + NC + NC * NL) /* end of the read-out cycles */
#define S0 40 /* stall bits start here (after the cores' limits were read) */

static const unsigned LV[NL] = {1, 2, 3, 4, 6, 8, 16, 24, 48};

static unsigned lvl_index(unsigned warps) {
    for (unsigned i = 0; i < NL; i++)
        if (LV[i] == warps) return i;
    fail_msg("%u is not a CM-BAL level", warps);
    return 0;
}

/* ------------------------------------------------------------- driver */
typedef struct {
    unsigned limit, level, stay, valid, why;
    unsigned avg[NL];
} core_view;

typedef struct {
    fg_block *b;
    cm_bal_monitor_in_t in;
    core_view v[NC]; /* state at the start of the last interval run */
    uint64_t intervals;
} drv;

typedef unsigned (*curve_fn)(unsigned warps, unsigned core);

typedef struct {
    unsigned smc, snet;   /* interval totals over all partitions */
    unsigned g[NC];       /* stallGPU per core (used when curve is NULL) */
    curve_fn curve;       /* closed loop: stallGPU from the level in use */
    bool full_gpu;        /* every scheduler stalls every cycle (2048) */
    unsigned kpos;        /* 1 + cycle of a kernel boundary pulse (0: none) */
    unsigned kstart_mask, kend_mask;
} stim;

static const cm_bal_monitor_out_t *out(const drv *d) { return fg_block_out(d->b); }

static void drv_init(drv *d, unsigned mode, unsigned k, const char *wave) {
    memset(d, 0, sizeof *d);
    cm_bal_monitor_params p = cm_bal_monitor_test_params();
    d->b = tb_block(&cm_bal_monitor_class, &p, wave);
    d->in.mode_i = mode;
    d->in.k_i = k;
}

/* One whole interval (the block's interval counter and ours stay aligned
 * because both start at reset).  Cycles RD0..RD0+3 read cores 0..3 (after
 * the serial walk has committed the last interval end's decisions), the
 * next 36 cycles the 9 table entries of every core. */
static void run_interval(drv *d, const stim *s) {
    unsigned g[NC], per[NP], pern[NP];
    for (unsigned q = 0; q < NP; q++) {
        per[q] = s->smc / NP + (q < s->smc % NP);
        pern[q] = s->snet / NP + (q < s->snet % NP);
        assert_true(per[q] <= IV - S0 && pern[q] <= IV - S0);
    }
    for (unsigned pos = 0; pos < IV; pos++) {
        cm_bal_monitor_in_t *in = &d->in;
        unsigned rp = pos >= RD0 ? pos - RD0 : ~0u; /* read-out position */
        bool rd_tab = pos >= RD0 + NC && pos < RDEND;
        in->rd_core_i = rp < NC ? rp : (rd_tab ? (rp - NC) / NL : 0);
        in->rd_entry_i = rd_tab ? (rp - NC) % NL : 0;
        if (rp == NC)
            for (unsigned c = 0; c < NC; c++) {
                g[c] = s->curve ? s->curve(d->v[c].limit, c) : s->g[c];
                assert_true(s->full_gpu || g[c] <= 2 * (IV - S0));
            }
        in->stall_mc_i = in->stall_net_i = 0;
        for (unsigned q = 0; q < NP; q++) {
            in->stall_mc_i |= (uint64_t)(pos >= S0 && pos < S0 + per[q]) << q;
            in->stall_net_i |= (uint64_t)(pos >= S0 && pos < S0 + pern[q]) << q;
        }
        in->issue_stall_i = 0;
        for (unsigned c = 0; c < NC; c++) {
            unsigned b0 = s->full_gpu || (pos >= S0 && pos < S0 + (g[c] + 1) / 2);
            unsigned b1 = s->full_gpu || (pos >= S0 && pos < S0 + g[c] / 2);
            in->issue_stall_i |= (uint64_t)(b0 | b1 << 1) << (2 * c);
        }
        in->kstart_i = (s->kpos && pos + 1 == s->kpos) ? s->kstart_mask : 0;
        in->kend_i = (s->kpos && pos + 1 == s->kpos) ? s->kend_mask : 0;
        tb_step(d->b, in);
        const cm_bal_monitor_out_t *o = out(d);
        if (rp < NC) {
            core_view *v = &d->v[rp];
            v->limit = (unsigned)o->rd_limit_o;
            v->level = (unsigned)o->rd_level_o;
            v->stay = (unsigned)o->rd_stay_o;
            v->valid = (unsigned)o->rd_valid_o;
            v->why = (unsigned)o->rd_why_o;
        } else if (rd_tab) {
            d->v[(rp - NC) / NL].avg[(rp - NC) % NL] = (unsigned)o->rd_avg_o;
        }
        assert_int_equal(o->interval_o, pos == IV - 1);
    }
    d->in.kstart_i = d->in.kend_i = 0;
    d->intervals++;
}

/* Runs one more idle-congestion interval only to observe the state the last
 * interval left (its cycles 0..39 read the port). */
static void observe(drv *d, const stim *s) { run_interval(d, s); }

/* ------------------------------------------------- reference (Sec. 4) */
/* Independent interval-level model: what one interval end does, written
 * from the paper's text, not from the RTL. */
static unsigned ref_dec(unsigned smc, unsigned snet) {
    const unsigned th = IV * 1, tl = IV / 4; /* tH = 1, tL = 0.25 stalls/cycle */
    if (smc >= th || snet >= th) return CM_DEC_DOWN;
    if (smc < tl && snet < tl) return CM_DEC_UP;
    return CM_DEC_HOLD;
}
static unsigned ref_cpu(unsigned lim, unsigned dec) {
    if (dec == CM_DEC_DOWN) return lim > 8 ? lim - 2 : (lim > 1 ? lim - 1 : 1);
    if (dec == CM_DEC_UP) return lim < 8 ? lim + 1 : (lim + 2 > 48 ? 48 : lim + 2);
    return lim;
}
typedef struct {
    unsigned warps, stay; /* level in use, intervals already spent at it */
    bool ok[NL];
    unsigned avg[NL];
} ref_core;
static void ref_core_reset(ref_core *r) { memset(r, 0, sizeof *r), r->warps = 48; }
static void ref_invalidate(ref_core *r) {
    memset(r->ok, 0, sizeof r->ok);
    r->stay = 0;
}
/* Interval end in CM-BAL mode.  kb_now: a kernel boundary in this very cycle. */
/* Functional coverage of Part-2's two compares at their boundary: the
 * difference (cur - upper average for the raise, lower average - cur for the
 * refusal) one below k, at k (no override: the compare is strict) and one
 * above (test_random_lockstep steers samples there). */
typedef struct {
    uint64_t up[3], keep[3]; /* [0]: k - 1, [1]: k, [2]: k + 1 */
} p2_bins;
static p2_bins p2b;
static void p2_bin(uint64_t *b, int diff, unsigned k) {
    if (diff + 1 == (int)k) b[0]++;
    if (diff == (int)k) b[1]++;
    if (diff == (int)k + 1) b[2]++;
}
static void ref_bal(ref_core *r, unsigned dec, unsigned sample, unsigned k, bool kb_now) {
    unsigned i = lvl_index(r->warps);
    if (sample > 2047) sample = 2047;
    unsigned cur = r->ok[i] ? (r->avg[i] + 3 * sample) / 4 : sample; /* 0.25 old + 0.75 new */
    if (kb_now) {
        ref_invalidate(r);
    } else {
        r->avg[i] = cur;
        r->ok[i] = true;
    }
    int step = dec == CM_DEC_DOWN ? -1 : dec == CM_DEC_UP ? 1 : 0; /* Part-1 */
    if (i == 0 && step < 0) step = 0;
    if (i == NL - 1 && step > 0) step = 0;
    bool up_ok = !kb_now && i + 1 < NL && r->ok[i + 1], lo_ok = !kb_now && i > 0 && r->ok[i - 1];
    if (up_ok) p2_bin(p2b.up, (int)cur - (int)r->avg[i + 1], k);
    if (step < 0 && lo_ok && !(up_ok && (int)cur - (int)r->avg[i + 1] > (int)k))
        p2_bin(p2b.keep, (int)r->avg[i - 1] - (int)cur, k);
    if (up_ok && (int)cur - (int)r->avg[i + 1] > (int)k) step = 1;          /* Part-2 raise */
    else if (step < 0 && lo_ok && (int)r->avg[i - 1] - (int)cur > (int)k) step = 0; /* refuse */
    if (step == 0 && r->stay + 1 == 4) step = (r->warps < 6) ? 1 : -1;      /* exploration */
    if (i == 0 && step < 0) step = 0;
    if (i == NL - 1 && step > 0) step = 0;
    r->stay = (step == 0 && !kb_now) ? r->stay + 1 : 0;
    if (r->stay == 4) r->stay = 0;
    r->warps = LV[i + step];
}

/* ------------------------------------------------------------ tests */
/* CM-CPU (Sec. 4.1): high stallMC or stallnet lowers by 2 above 8 and by 1
 * at or below 8; both low raises the same way; medium holds.  Threshold
 * boundaries exact: 1024 stalls per 1024 cycles is high, 1023 medium, 256
 * medium, 255 low. */
static void test_cpu_steps(void **st) {
    (void)st;
    drv d;
    drv_init(&d, CM_MODE_CPU, 0, "cm_bal_monitor_cpu");
    static const unsigned down[] = {46, 44, 42, 40, 38, 36, 34, 32, 30, 28, 26, 24, 22, 20, 18, 16, 14,
                                    12, 10, 8, 7, 6, 5, 4, 3, 2, 1, 1};
    for (unsigned i = 0; i < sizeof down / sizeof *down; i++) {
        stim s = {.smc = (i & 1) ? 1024 : 100, .snet = (i & 1) ? 10 : 1024}; /* either one high */
        run_interval(&d, &s);
        assert_int_equal(out(&d)->decision_o, CM_DEC_DOWN);
        assert_int_equal(out(&d)->cpu_limit_o, down[i]);
        assert_int_equal(out(&d)->stall_mc_o, s.smc);
        assert_int_equal(out(&d)->stall_net_o, s.snet);
    }
    /* medium in several shapes: limit holds at 1 */
    static const unsigned med[][2] = {{1023, 0}, {256, 0}, {0, 256}, {1023, 1023}, {255, 256}};
    for (unsigned i = 0; i < 5; i++) {
        stim s = {.smc = med[i][0], .snet = med[i][1]};
        run_interval(&d, &s);
        assert_int_equal(out(&d)->decision_o, CM_DEC_HOLD);
        assert_int_equal(out(&d)->cpu_limit_o, 1);
    }
    static const unsigned up[] = {2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32,
                                  34, 36, 38, 40, 42, 44, 46, 48, 48};
    for (unsigned i = 0; i < sizeof up / sizeof *up; i++) {
        stim s = {.smc = 255, .snet = i % 3 == 0 ? 0 : 255};
        run_interval(&d, &s);
        assert_int_equal(out(&d)->decision_o, CM_DEC_UP);
        assert_int_equal(out(&d)->cpu_limit_o, up[i]);
        /* every core's registered limit follows (read in the next interval) */
        if (i == 9) {
            stim m = {.smc = 500};
            observe(&d, &m);
            for (unsigned c = 0; c < NC; c++) assert_int_equal(d.v[c].limit, 14);
            assert_int_equal(out(&d)->cpu_limit_o, 14);
        }
    }
    fg_block_free(d.b);
}

/* Off, static N (clamped to 1..48) and a run-time switch between modes. */
static void test_modes(void **st) {
    (void)st;
    drv d;
    drv_init(&d, CM_MODE_OFF, 0, NULL);
    stim hi = {.smc = 2000};
    run_interval(&d, &hi);
    run_interval(&d, &hi);
    for (unsigned c = 0; c < NC; c++) assert_int_equal(d.v[c].limit, 48);
    assert_int_equal(out(&d)->cpu_limit_o, 48); /* CM-CPU logic idles at max */
    static const unsigned sv[][2] = {{13, 13}, {0, 1}, {60, 48}, {1, 1}, {48, 48}};
    for (unsigned i = 0; i < 5; i++) {
        d.in.mode_i = CM_MODE_STATIC;
        d.in.static_i = sv[i][0];
        run_interval(&d, &hi); /* the port reads happen in the next interval */
        run_interval(&d, &hi);
        for (unsigned c = 0; c < NC; c++) assert_int_equal(d.v[c].limit, sv[i][1]);
    }
    d.in.mode_i = CM_MODE_CPU;
    run_interval(&d, &hi);
    run_interval(&d, &hi);
    assert_int_equal(d.v[0].limit, 46);
    assert_int_equal(out(&d)->cpu_limit_o, 44);
    d.in.mode_i = CM_MODE_BAL; /* CM-BAL starts at the top level */
    run_interval(&d, &hi);
    run_interval(&d, &hi);
    assert_int_equal(d.v[0].limit, 24);
    assert_int_equal(d.v[0].why, CM_WHY_DOWN);
    assert_int_equal(out(&d)->cpu_limit_o, 48);
    fg_block_free(d.b);
}

/* Moving average in fixed point: new = floor((old + 3 sample) / 4); first
 * use takes the sample; 2048 stall cycles clamp to 2047 (11-bit entry). */
static void test_moving_average(void **st) {
    (void)st;
    drv d;
    drv_init(&d, CM_MODE_BAL, 2047, NULL);
    stim s = {.smc = 500, .g = {400, 0, 1001, 7}};
    run_interval(&d, &s); /* level 48 */
    s.g[0] = 800;
    s.g[1] = 1960;
    s.g[2] = 2;
    run_interval(&d, &s);
    s.g[0] = 1001;
    run_interval(&d, &s);
    observe(&d, &(stim){.smc = 500}); /* 4th interval at 48: sample 0, then explores down */
    assert_int_equal(d.v[0].valid, 1u << 8);
    assert_int_equal(d.v[0].avg[8], 925);  /* 400 -> (400+3*800)/4=700 -> (700+3*1001)/4=925 */
    assert_int_equal(d.v[1].avg[8], 1837); /* 0 -> (0+5880)/4=1470 -> (1470+5880)/4=1837 */
    assert_int_equal(d.v[2].avg[8], 64);   /* 1001 -> 1007/4=251 -> 257/4=64 */
    assert_int_equal(d.v[3].avg[8], 7);    /* constant 7: (7+21)/4 = 7 */
    stim full = {.smc = 500, .full_gpu = true};
    run_interval(&d, &full); /* level 24 (exploration), every scheduler stalls every cycle */
    observe(&d, &(stim){.smc = 500});
    for (unsigned c = 0; c < NC; c++) {
        assert_int_equal(d.v[c].limit, 24);
        assert_int_equal(d.v[c].valid, 3u << 7);
        assert_int_equal(d.v[c].avg[7], 2047); /* 2048 clamped */
    }
    assert_int_equal(d.v[0].avg[8], 231); /* (925 + 0) / 4 */
    fg_block_free(d.b);
}

/* The 4-interval exploration (Sec. 4.2, third Part-2 decision): medium
 * congestion (Part-1 holds) and a flat stallGPU (Part-2 never overrides):
 * after 4 intervals at a level CM-BAL moves one level, down from >= 6 warps,
 * up below 6. */
static void test_exploration(void **st) {
    (void)st;
    drv d;
    drv_init(&d, CM_MODE_BAL, CM_K_BAL1, "cm_bal_monitor_explore");
    static const unsigned exp_lvl[] = {48, 48, 48, 48, 24, 24, 24, 24, 16, 16, 16, 16, 8, 8, 8, 8,
                                       6,  6,  6,  6,  4,  4,  4,  4,  6,  6,  6,  6,  4, 4, 4, 4, 6};
    stim s = {.smc = 300, .snet = 700, .g = {300, 300, 300, 300}};
    for (unsigned i = 0; i < sizeof exp_lvl / sizeof *exp_lvl; i++) {
        run_interval(&d, &s);
        for (unsigned c = 0; c < NC; c++) {
            assert_int_equal(d.v[c].limit, exp_lvl[i]);
            assert_int_equal(d.v[c].stay, i % 4);
            unsigned why = i == 0 ? CM_WHY_HOLD
                           : i % 4 ? CM_WHY_HOLD
                                   : (exp_lvl[i] > exp_lvl[i - 1] ? CM_WHY_XUP : CM_WHY_XDOWN);
            assert_int_equal(d.v[c].why, why);
        }
        assert_int_equal(out(&d)->decision_o, CM_DEC_HOLD);
    }
    /* every visited level now has a valid average of 300 */
    for (unsigned e = 3; e < NL; e++) {
        assert_true(d.v[0].valid >> e & 1);
        assert_int_equal(d.v[0].avg[e], 300);
    }
    assert_int_equal(d.v[0].valid & 7, 0);
    fg_block_free(d.b);
}

/* The Fig. 12-like curve (tb/cm_traces.h), the same on every core. */
static unsigned fig12(unsigned warps, unsigned core) {
    (void)core;
    return cm_fig12_stall_gpu(warps);
}

/* Runs n intervals of always-high congestion with the Fig.12 curve; returns
 * the limit each interval ran at (core 0; all cores must agree) and checks
 * every interval against the reference model. */
static void run_fig12(unsigned mode, unsigned k, unsigned n, unsigned *traj) {
    drv d;
    drv_init(&d, mode, k, NULL);
    ref_core r;
    ref_core_reset(&r);
    unsigned lim = 48;
    stim s = {.smc = 300, .snet = 1500, .curve = fig12};
    for (unsigned i = 0; i < n; i++) {
        run_interval(&d, &s);
        traj[i] = d.v[0].limit;
        for (unsigned c = 1; c < NC; c++) assert_int_equal(d.v[c].limit, traj[i]);
        assert_int_equal(traj[i], mode == CM_MODE_BAL ? r.warps : lim);
        if (mode == CM_MODE_BAL) ref_bal(&r, CM_DEC_DOWN, fig12(r.warps, 0), k, false);
        lim = ref_cpu(lim, CM_DEC_DOWN);
    }
    fg_block_free(d.b);
}

/* In the last 20 intervals the level is the knee, except one exploration
 * interval in five at the given neighbour. */
static void check_knee(const unsigned *traj, unsigned n, unsigned knee, unsigned nb) {
    unsigned at_knee = 0;
    for (unsigned i = n - 20; i < n; i++) {
        if (traj[i] == knee) at_knee++;
        else assert_int_equal(traj[i], nb);
    }
    assert_int_equal(at_knee, 16);
}

/* CM-CPU goes all the way down; CM-BAL1 stops at the knee (8 warps). */
static void test_fig12_knee(void **st) {
    (void)st;
    unsigned cpu[48], bal[48];
    run_fig12(CM_MODE_CPU, 0, 48, cpu);
    run_fig12(CM_MODE_BAL, CM_K_BAL1, 48, bal);
    for (unsigned i = 30; i < 48; i++) assert_int_equal(cpu[i], 1);
    static const unsigned head[] = {48, 24, 16, 8, 6, 8, 8, 8, 8, 6, 8, 8, 8, 8, 6};
    for (unsigned i = 0; i < sizeof head / sizeof *head; i++) assert_int_equal(bal[i], head[i]);
    check_knee(bal, 48, 8, 6);
    printf("# fig12: CM-CPU ends at %u warps, CM-BAL1 at %u warps\n", cpu[47], bal[47]);
}

/* Each k level (Sec. 4.2, 5): a larger k makes raising TLP harder, so the
 * level CM-BAL settles at falls with k; k = max converges to CM-CPU. */
static void test_k_levels(void **st) {
    (void)st;
    static const struct { unsigned k, knee, nb; } kk[] = {
        {CM_K_BAL1, 8, 6}, {CM_K_BAL2, 6, 4}, {CM_K_BAL3, 3, 4}, {CM_K_BAL4, 2, 3}, {2047, 1, 2}};
    unsigned traj[48];
    for (unsigned i = 0; i < 5; i++) {
        run_fig12(CM_MODE_BAL, kk[i].k, 48, traj);
        check_knee(traj, 48, kk[i].knee, kk[i].nb);
        printf("# k=%u: settles at %u warps\n", kk[i].k, kk[i].knee);
    }
}

/* Kernel start / end invalidate a core's table (Sec. 4.2): with the entry
 * below invalid, Part-2 no longer refuses Part-1's step down. */
static void test_kernel_invalidation(void **st) {
    (void)st;
    drv d;
    drv_init(&d, CM_MODE_BAL, CM_K_BAL1, "cm_bal_monitor_kernel");
    stim s = {.smc = 300, .snet = 1500, .curve = fig12};
    for (unsigned i = 0; i < 11; i++) run_interval(&d, &s); /* I0..I10, see test_fig12_knee */
    assert_int_equal(d.v[0].limit, 8);
    assert_int_equal(d.v[0].stay, 0);
    stim ks = s;
    ks.kpos = 501; /* mid-interval kernel start on core 1 */
    ks.kstart_mask = 1u << 1;
    run_interval(&d, &ks); /* I11 */
    assert_int_equal(d.v[1].valid, 0x1f0);
    assert_int_equal(d.v[1].stay, 1);
    ks.kpos = IV; /* kernel end on core 2 in the interval's last cycle */
    ks.kstart_mask = 0;
    ks.kend_mask = 1u << 2;
    run_interval(&d, &ks); /* I12: core 1 left 8 at I11's end */
    assert_int_equal(d.v[0].limit, 8);
    assert_int_equal(d.v[0].why, CM_WHY_KEEP);
    assert_int_equal(d.v[0].valid, 0x1f0);
    assert_int_equal(d.v[1].limit, 6);
    assert_int_equal(d.v[1].why, CM_WHY_DOWN);
    assert_int_equal(d.v[1].valid, 1u << 5); /* only 8 warps re-learned */
    assert_int_equal(d.v[1].stay, 0);
    run_interval(&d, &s); /* I13 */
    assert_int_equal(d.v[2].limit, 6);       /* no override at the boundary */
    assert_int_equal(d.v[2].why, CM_WHY_DOWN);
    assert_int_equal(d.v[2].valid, 0);       /* and no update in that cycle */
    assert_int_equal(d.v[2].stay, 0);
    assert_int_equal(d.v[0].limit, 8);
    assert_int_equal(d.v[0].stay, 3);
    assert_int_equal(d.v[3].limit, 8);
    fg_block_free(d.b);
}

/* The serial walk: after an interval end (its last cycle, edge
 * E), core c's decision is committed at edge E + 5 + c, so reading core c in
 * cycle c + 4 of the next interval still shows its old level, in cycle c + 5
 * the new one; the central decision and CM-CPU limit change at E itself.  A
 * kernel boundary between the interval end and the commit clears the valid
 * bits and stay count on top of the decision, as if it had come after it. */
static void test_walk_timing(void **st) {
    (void)st;
    drv d;
    drv_init(&d, CM_MODE_BAL, 32, NULL);
    stim hi = {.smc = 2000, .g = {100, 200, 300, 400}};
    run_interval(&d, &hi); /* every core: 48 -> 24 (Part-1 DOWN); table entry 8 learned */
    for (unsigned c = 0; c < NC; c++) assert_int_equal(d.v[c].limit, 48); /* read before that end */
    /* the next interval, cycle by cycle: one more DOWN (24 -> 16) */
    cm_bal_monitor_in_t *in = &d.in;
    in->stall_mc_i = 0xf;
    for (unsigned pos = 0; pos < IV; pos++) {
        unsigned c = pos % NC;
        in->rd_core_i = c;
        in->rd_entry_i = 8;
        in->kstart_i = pos == 1 ? 1u << 3 : 0; /* core 3: a kernel start before its commit */
        tb_step(d.b, in);
        const cm_bal_monitor_out_t *o = out(&d);
        if (pos == 0) { /* central results: at the interval end itself */
            assert_int_equal(o->decision_o, CM_DEC_DOWN);
            assert_int_equal(o->cpu_limit_o, 48);
        }
        if (pos < 12) {
            bool done = pos >= c + 5; /* a literal: CM_BAL_COMMIT_EDGES is what is tested */
            assert_int_equal(o->rd_limit_o, done ? 24 : 48);
            assert_int_equal(o->rd_level_o, done ? 7 : 8);
            assert_int_equal(o->rd_why_o, done ? CM_WHY_DOWN : CM_WHY_HOLD);
            assert_int_equal(o->rd_avg_o, done && c != 3 ? 100 * (c + 1) : 0); /* 0 while not valid */
            if (c == 3) assert_int_equal(o->rd_valid_o, 0); /* cleared at edge 1, and again at the commit */
            else assert_int_equal(o->rd_valid_o, done ? 1u << 8 : 0);
        }
    }
    fg_block_free(d.b);
}

/* Lockstep only (RTL vs twin, every port, every cycle) of the configuration
 * p, with mode changes, knob changes and kernel boundaries anywhere, above all
 * between an interval end and the commits of the serial walk, where the RTL
 * applies them on top of the decision and the twin keeps a one-cycle state
 * beside the visible one.  A reset comes with probability 1 / reset_den per
 * cycle (0: never) and, with walk_resets, 1 / 64 per cycle of a walk (the
 * interval end and the C + CM_BAL_COMMIT_EDGES cycles after it), so that
 * walks are cut short; RTL and twin are reset together (fg_block_reset) and
 * the comparison goes on.  Returns the resets during walks. */
static uint64_t walk_events(const cm_bal_monitor_params *p, const char *what, uint64_t ncyc, unsigned reset_den,
                            bool walk_resets) {
    fg_rng g;
    fg_rng_seed(&g, tb_seed(what));
    fg_block *b = tb_block(&cm_bal_monitor_class, p, NULL);
    const unsigned nc = p->c, np = p->p, ns = p->nsched, iv = p->interval, walk_len = nc + CM_BAL_COMMIT_EDGES;
    unsigned ciw = 1, kw = 1; /* rd_core_i and k_i widths: clog2(C), clog2(NSCHED x INTERVAL) + 1 */
    while ((1u << ciw) < nc) ciw++;
    while ((1u << (kw - 1)) < ns * iv) kw++;
    cm_bal_monitor_in_t in = {.mode_i = CM_MODE_BAL, .k_i = CM_K_BAL1};
    unsigned pm = 0, pg[CM_MAX_CORES] = {0};
    uint64_t ev_walk = 0, resets = 0, walk_cut = 0, since = 0; /* since: cycles since the last reset */
    for (uint64_t cyc = 0; cyc < ncyc; cyc++, since++) {
        unsigned pos = (unsigned)(since % iv);
        if (pos == 0) { /* congestion: one interval in 4 up to every partition stalled every cycle */
            pm = (unsigned)fg_rng_below(&g, fg_rng_chance(&g, 1, 4) ? 257 : 140);
            for (unsigned c = 0; c < nc; c++) pg[c] = (unsigned)fg_rng_below(&g, 257);
        }
        bool walk = (since >= iv && pos < walk_len) || pos == iv - 1;
        if (fg_rng_chance(&g, 1, walk ? 40 : 3000)) {
            in.mode_i = fg_rng_chance(&g, 2, 3) ? CM_MODE_BAL : fg_rng_below(&g, 4);
            ev_walk += walk;
        }
        if (fg_rng_chance(&g, 1, walk ? 40 : 3000)) /* now and then any k the port takes */
            in.k_i = fg_rng_below(&g, fg_rng_chance(&g, 1, 8) ? 1ull << kw : 300);
        if (fg_rng_chance(&g, 1, walk ? 40 : 3000)) in.static_i = fg_rng_below(&g, 64);
        in.kstart_i = fg_rng_chance(&g, 1, walk ? 10 : 2000) ? 1ull << fg_rng_below(&g, nc) : 0;
        in.kend_i = fg_rng_chance(&g, 1, walk ? 10 : 2000) ? 1ull << fg_rng_below(&g, nc) : 0;
        ev_walk += walk && (in.kstart_i | in.kend_i);
        in.stall_mc_i = in.stall_net_i = in.issue_stall_i = 0;
        for (unsigned q = 0; q < np; q++) {
            in.stall_mc_i |= (uint64_t)(fg_rng_below(&g, 256) < pm) << q;
            in.stall_net_i |= (uint64_t)(fg_rng_below(&g, 256) < pm / 2) << q;
        }
        for (unsigned c = 0; c < ns * nc; c++) in.issue_stall_i |= (uint64_t)(fg_rng_below(&g, 256) < pg[c / ns]) << c;
        in.rd_core_i = fg_rng_below(&g, 1u << ciw); /* cores beyond C too: they read 0 */
        in.rd_entry_i = fg_rng_below(&g, 16);
        if ((reset_den && fg_rng_chance(&g, 1, reset_den)) || (walk_resets && walk && fg_rng_chance(&g, 1, 64))) {
            fg_block_reset(b); /* RTL and twin; the comparison goes on from here */
            resets++;
            walk_cut += walk && pos != iv - 1;
            since = 0;
            pos = 0;
        }
        tb_step(b, &in);
    }
    printf("# %s: %" PRIu64 " cycles (P=%u C=%u NSCHED=%u INTERVAL=%u), %" PRIu64
           " mode changes / kernel boundaries during walks, %" PRIu64 " resets (%" PRIu64 " cutting a walk short)\n",
           what, ncyc, np, nc, ns, iv, ev_walk, resets, walk_cut);
    assert_true(ncyc < 100000 || ev_walk > ncyc / 2000);
    fg_block_free(b);
    return walk_cut;
}

static void test_random_walk_events(void **st) {
    (void)st;
    cm_bal_monitor_params p = cm_bal_monitor_test_params();
    walk_events(&p, "cm_bal_monitor walk events", tb_cycles(1100000) / 2, 200000, false);
}

/* The second verilated configuration (cm_bal_monitor_odd, rtl/cm/cm_bal_monitor.toml):
 * P = 6, C = 20, 3 schedulers, a 1000-cycle interval, tH = 0.75,
 * FINE = 7, exploration after 3 intervals, in random lockstep. */
static void test_odd_random(void **st) {
    (void)st;
    cm_bal_monitor_params p = cm_bal_monitor_odd_params();
    walk_events(&p, "cm_bal_monitor odd configuration", tb_cycles(1100000) / 4, 0, false);
}

/* Directed, in the second configuration (its cores' valid
 * bits and interval-end snapshots, and its wider statistics and knob, were
 * left untoggled by the random runs): every core is walked through every
 * level and back, in lockstep, with literal checks through the read port.
 * With k at the port's maximum Part-2 never overrides, so full congestion
 * (every partition stalled every cycle: stallMC = stallnet = 6000 >= 4096,
 * the statistics' top bit) lowers every core one level per interval (exploring up
 * from level 0 after 3 intervals there) until all 9 entries are valid; a
 * kernel boundary on every core in an interval-end cycle then clears them all
 * (that interval end updates no entry) and no congestion raises every core
 * back to the top. */
static void test_odd_levels(void **st) {
    (void)st;
    cm_bal_monitor_params p = cm_bal_monitor_odd_params();
    const unsigned nc = p.c, iv = p.interval, walk_len = nc + CM_BAL_COMMIT_EDGES;
    fg_rng g;
    fg_rng_seed(&g, tb_seed("cm_bal_monitor odd levels"));
    fg_block *b = tb_block(&cm_bal_monitor_class, &p, NULL);
    cm_bal_monitor_in_t in = {.mode_i = CM_MODE_BAL, .k_i = (1u << 13) - 1}; /* k_i: 13 bits here */
    unsigned valid[CM_MAX_CORES] = {0}, level[CM_MAX_CORES] = {0};
    for (unsigned it = 0; it < 24; it++) {
        bool congested = it < 12;
        for (unsigned pos = 0; pos < iv; pos++) {
            in.stall_mc_i = in.stall_net_i = congested ? 0x3f : 0;
            in.issue_stall_i = 0;
            for (unsigned c = 0; c < 3 * nc; c++) in.issue_stall_i |= (uint64_t)fg_rng_chance(&g, 1, 2) << c;
            in.kstart_i = (it == 12 && pos == iv - 1) ? (1ull << nc) - 1 : 0; /* at the interval end */
            bool rd = pos >= walk_len && pos < walk_len + nc; /* after the walk: core pos - walk_len */
            in.rd_core_i = rd ? pos - walk_len : 0;
            tb_step(b, &in);
            const cm_bal_monitor_out_t *o = fg_block_out(b);
            if (rd) {
                valid[pos - walk_len] = (unsigned)o->rd_valid_o;
                level[pos - walk_len] = (unsigned)o->rd_level_o;
            }
            if (pos == 0 && it > 0) { /* the last interval's statistics */
                assert_int_equal(o->stall_mc_o, it <= 12 ? 6000 : 0);
                assert_int_equal(o->stall_net_o, it <= 12 ? 6000 : 0);
            }
        }
        for (unsigned c = 0; c < nc; c++) { /* the state the last interval end left */
            if (it >= 1 && it <= 8) assert_int_equal(level[c], 8 - it); /* one level down per interval */
            if (it == 10) assert_int_equal(valid[c], 0x1ff);             /* every level visited */
            if (it == 13) assert_int_equal(valid[c], 0);                 /* cleared by the kernel boundary ... */
            if (it == 13) assert_int_equal(level[c], 1);                 /* ... which left the level's step up */
            if (it == 21) assert_int_equal(level[c], NL - 1);            /* back at the top, 48 warps */
            if (it == 21) assert_int_equal(valid[c], 0x1fe);             /* entry 0 not rewritten since */
        }
    }
    fg_block_free(b);
}

/* Mid-run resets in lockstep, both configurations: resets
 * at random cycles, many of them during a serial walk. */
static void test_reset_lockstep(void **st) {
    (void)st;
    cm_bal_monitor_params p = cm_bal_monitor_test_params(), q = cm_bal_monitor_odd_params();
    uint64_t n = tb_cycles(1100000) / 8;
    uint64_t cut = walk_events(&p, "cm_bal_monitor resets", n, 5000, true);
    cut += walk_events(&q, "cm_bal_monitor odd resets", n, 5000, true);
    assert_true(n < 100000 || cut > 4);
}

/* Random lockstep (RTL vs twin every cycle, every port) with an independent
 * interval-level reference model checking decisions, limits, levels, stay
 * counters, valid bits and averages of every core. */
static void test_random_lockstep(void **st) {
    (void)st;
    fg_rng g;
    fg_rng_seed(&g, tb_seed("cm_bal_monitor random"));
    uint64_t ncyc = tb_cycles(1100000);
    cm_bal_monitor_params p = cm_bal_monitor_test_params();
    fg_block *b = tb_block(&cm_bal_monitor_class, &p, NULL);
    cm_bal_monitor_in_t in = {0};
    ref_core r[NC];
    for (unsigned c = 0; c < NC; c++) ref_core_reset(&r[c]);
    unsigned lim = 48, dec = CM_DEC_HOLD, mode = CM_MODE_BAL, last_mode = mode;
    unsigned pm = 0, pn = 0, pg[NC] = {0}, sm = 0, sn = 0, sg[NC] = {0};
    uint64_t nint = 0, moves = 0, p2 = 0, kbs = 0;
    bool nonbal = false, noncpu = false;
    /* boundary stimulus: a CM-CPU streak (the mode held at CPU for 50
     * intervals, 25 of high then 25 of no congestion, so that the limit
     * walks down through FINE = 8 and back up), and the samples of some
     * cores steered in the last 64 cycles of an interval so that Part-2's
     * difference lands at k - 1, k or k + 1 */
    unsigned cpu_hold = 0;
    int steer[NC];
    uint64_t cpu_bins[4] = {0}; /* at 8 DOWN, at 8 UP, at 7 UP, at 10 DOWN */
    /* and the thresholds (CM 4.1): some intervals (not in CM-BAL mode) drive
     * stallMC or stallnet to land exactly at tH or tL, or one below or above,
     * the other channel below tL */
    const unsigned thr[2] = {IV * 1, IV / 4}; /* tH = 1, tL = 0.25 stalls per cycle, as ref_dec */
    int thr_target = -1, thr_chan = 0;        /* the interval's target sum and channel (0: MC, 1: net) */
    unsigned thr_next = 0;
    uint64_t thr_bins[2][2][3] = {{{0}}};     /* [channel][tH, tL][one below, at, one above] */
    memset(&p2b, 0, sizeof p2b);
    in.mode_i = mode;
    in.k_i = CM_K_BAL1;
    for (uint64_t cyc = 0; cyc < ncyc; cyc++) {
        unsigned pos = (unsigned)(cyc % IV);
        if (pos == 0) {
            pm = (unsigned)fg_rng_below(&g, 140);
            pn = (unsigned)fg_rng_below(&g, 80);
            if (cpu_hold) {
                cpu_hold--;
                pm = cpu_hold >= 25 ? 100 + (unsigned)fg_rng_below(&g, 40) : 0;
                pn = cpu_hold >= 25 ? pn : 0;
            }
            for (unsigned c = 0; c < NC; c++) steer[c] = -1;
            thr_target = -1;
            /* outside CM-BAL mode, so that Part-2's stimulus above keeps its mix */
            if (!cpu_hold && mode != CM_MODE_BAL && fg_rng_chance(&g, 1, 2)) { /* the 12 bins in turn */
                thr_chan = (int)(thr_next % 2);
                thr_target = (int)thr[thr_next / 2 % 2] + (int)(thr_next / 4 % 3) - 1;
                thr_next++;
                if (thr_chan) pm = 0; else pn = 0; /* the other channel quiet (below tL) */
            }
            for (unsigned c = 0; c < NC; c++) pg[c] = (unsigned)fg_rng_below(&g, 257);
            sm = sn = 0;
            memset(sg, 0, sizeof sg);
            nonbal = mode != CM_MODE_BAL;
            noncpu = mode != CM_MODE_CPU;
        }
        if (pos == 512 && !cpu_hold && !cpu_bins[0] && cyc >= ncyc / 2 && mode != CM_MODE_CPU) { /* no streak yet: one now */
            mode = CM_MODE_CPU;
            cpu_hold = 51;
            in.mode_i = mode;
            nonbal = noncpu = true;
        } else if (pos == 512 && !cpu_hold && fg_rng_chance(&g, 1, 16)) {
            mode = (unsigned)fg_rng_below(&g, 4);
            if (fg_rng_chance(&g, 1, 2)) mode = CM_MODE_BAL;
            if (mode == CM_MODE_CPU && fg_rng_chance(&g, 2, 3)) cpu_hold = 51; /* a streak from the next interval */
            in.mode_i = mode;
            nonbal |= mode != CM_MODE_BAL;
            noncpu |= mode != CM_MODE_CPU;
        }
        if (pos == 700 && fg_rng_chance(&g, 1, 8)) {
            static const unsigned ks[] = {0, 32, 64, 96, 128, 200};
            in.k_i = fg_rng_chance(&g, 1, 8) ? fg_rng_below(&g, 4096) : ks[fg_rng_below(&g, 6)];
            in.static_i = fg_rng_below(&g, 64);
        }
        in.stall_mc_i = in.stall_net_i = in.issue_stall_i = 0;
        for (unsigned q = 0; q < NP; q++) {
            in.stall_mc_i |= (uint64_t)(fg_rng_below(&g, 256) < pm) << q;
            in.stall_net_i |= (uint64_t)(fg_rng_below(&g, 256) < pn) << q;
        }
        if (thr_target >= 0) { /* the stalls still needed, spread over the cycles left */
            const unsigned have = thr_chan ? sn : sm, left = IV - pos;
            const unsigned need = (unsigned)thr_target > have ? (unsigned)thr_target - have : 0;
            const unsigned x = (need + left - 1) / left > NP ? NP : (need + left - 1) / left;
            if (thr_chan) in.stall_net_i = (1u << x) - 1;
            else in.stall_mc_i = (1u << x) - 1;
        }
        for (unsigned c = 0; c < 2 * NC; c++)
            in.issue_stall_i |= (uint64_t)(fg_rng_below(&g, 256) < pg[c / 2]) << c;
        if (pos == IV - 64 && mode == CM_MODE_BAL)
            for (unsigned c = 0; c < NC; c++) {
                const ref_core *rc = &r[c];
                unsigned i = lvl_index(rc->warps), k = (unsigned)in.k_i;
                bool can_up = i + 1 < NL && rc->ok[i + 1], can_lo = i > 0 && rc->ok[i - 1];
                if (!can_up && !can_lo) continue;
                /* the least-hit bin of the compares this core can reach, so that
                 * every bin is hit whatever the seed (a random pick missed the
                 * refusal's k - 1 at some seeds) */
                unsigned bu = 0, bk = 0;
                for (unsigned j = 1; j < 3; j++) {
                    if (p2b.up[j] < p2b.up[bu]) bu = j;
                    if (p2b.keep[j] < p2b.keep[bk]) bk = j;
                }
                bool lo = can_lo && (!can_up || p2b.keep[bk] < p2b.up[bu] ||
                                     (p2b.keep[bk] == p2b.up[bu] && fg_rng_chance(&g, 1, 2)));
                int want = lo ? (int)rc->avg[i - 1] - (int)k - ((int)bk - 1) : (int)rc->avg[i + 1] + (int)k + ((int)bu - 1);
                for (unsigned smp = sg[c]; smp <= sg[c] + 2 * 64 && smp <= 2047; smp++) /* a reachable sample */
                    if ((int)(rc->ok[i] ? (rc->avg[i] + 3 * smp) / 4 : smp) == want) {
                        steer[c] = (int)smp;
                        break;
                    }
            }
        if (pos >= IV - 64)
            for (unsigned c = 0; c < NC; c++)
                if (steer[c] >= 0) { /* the stalls still needed, as late as possible: 2 per cycle at most */
                    int need = steer[c] - (int)sg[c], x = need - 2 * (int)(IV - 1 - pos);
                    x = x < 0 ? 0 : (x > 2 ? 2 : x);
                    in.issue_stall_i = (in.issue_stall_i & ~(3ull << (2 * c))) | ((uint64_t)(x == 2 ? 3 : x) << (2 * c));
                }
        sm += (unsigned)__builtin_popcountll(in.stall_mc_i);
        sn += (unsigned)__builtin_popcountll(in.stall_net_i);
        for (unsigned c = 0; c < NC; c++) sg[c] += (unsigned)__builtin_popcountll(in.issue_stall_i >> (2 * c) & 3);
        /* kernel boundaries: rare, anywhere but in the read-out cycles (also
         * while the walk commits the last decisions), sometimes exactly at
         * the interval end */
        in.kstart_i = in.kend_i = 0;
        bool kok = pos < RD0 || (pos >= RD0 + NC && pos < IV - 1);
        if (kok && fg_rng_chance(&g, 1, pos < RD0 ? 100 : 4000)) in.kstart_i = 1u << fg_rng_below(&g, NC);
        if (kok && fg_rng_chance(&g, 1, pos < RD0 ? 100 : 4000)) in.kend_i = 1u << fg_rng_below(&g, NC);
        if (pos == IV - 1 && fg_rng_chance(&g, 1, 12)) in.kend_i = 1u << fg_rng_below(&g, NC);
        for (unsigned c = 0; c < NC; c++)
            if (((in.kstart_i | in.kend_i) >> c & 1) && pos != IV - 1) ref_invalidate(&r[c]), kbs++;
        in.rd_core_i = pos >= RD0 && pos < RD0 + NC ? pos - RD0 : fg_rng_below(&g, 4);
        in.rd_entry_i = fg_rng_below(&g, 16);
        unsigned rd_entry = (unsigned)in.rd_entry_i;
        tb_step(b, &in);
        const cm_bal_monitor_out_t *o = fg_block_out(b);
        assert_int_equal(o->interval_o, pos == IV - 1);
        if (pos >= RD0 && pos < RD0 + NC) { /* the state the last interval end left (the walk is done) */
            const ref_core *rc = &r[pos - RD0];
            unsigned want = last_mode == CM_MODE_OFF      ? 48
                            : last_mode == CM_MODE_STATIC ? 0
                            : last_mode == CM_MODE_CPU    ? lim
                                                          : rc->warps;
            if (last_mode != CM_MODE_STATIC && o->rd_limit_o != want)
                fail_msg("interval %" PRIu64 " core %u mode %u: limit %u, reference %u (dec %u k %u)", nint, pos - RD0,
                         last_mode, (unsigned)o->rd_limit_o, want, dec, (unsigned)in.k_i);
            assert_true(o->rd_limit_o >= 1 && o->rd_limit_o <= 48);
            assert_int_equal(o->rd_level_o, last_mode == CM_MODE_BAL ? lvl_index(rc->warps) : 8);
            assert_int_equal(o->rd_stay_o, last_mode == CM_MODE_BAL ? rc->stay : 0);
            unsigned vm = 0;
            for (unsigned e = 0; e < NL; e++) vm |= (unsigned)rc->ok[e] << e;
            assert_int_equal(o->rd_valid_o, vm);
            assert_int_equal(o->rd_avg_o, rd_entry < NL && rc->ok[rd_entry] ? rc->avg[rd_entry] : 0); /* 0 while not valid */
        }
        if (pos == IV - 1) { /* interval end: apply the reference */
            dec = ref_dec(sm, sn);
            for (unsigned ch = 0; ch < 2; ch++)
                for (unsigned t = 0; t < 2; t++)
                    for (unsigned d = 0; d < 3; d++)
                        thr_bins[ch][t][d] += (ch ? sn : sm) + 1 == thr[t] + d && (ch ? sm : sn) < thr[1];
            assert_int_equal(o->decision_o, dec);
            assert_int_equal(o->stall_mc_o, sm > 4095 ? 4095 : sm);
            assert_int_equal(o->stall_net_o, sn > 4095 ? 4095 : sn);
            if (noncpu) lim = 48;
            if (mode == CM_MODE_CPU) {
                cpu_bins[0] += lim == 8 && dec == CM_DEC_DOWN;
                cpu_bins[1] += lim == 8 && dec == CM_DEC_UP;
                cpu_bins[2] += lim == 7 && dec == CM_DEC_UP;
                cpu_bins[3] += lim == 10 && dec == CM_DEC_DOWN;
                lim = ref_cpu(lim, dec);
            }
            assert_int_equal(o->cpu_limit_o, lim);
            for (unsigned c = 0; c < NC; c++) {
                bool kb_now = ((in.kstart_i | in.kend_i) >> c & 1) != 0;
                if (nonbal) r[c].warps = 48, r[c].stay = 0;
                if (mode == CM_MODE_BAL) {
                    unsigned before = r[c].warps;
                    if (getenv("CM_DBG") && c == (unsigned)atoi(getenv("CM_DBG")))
                        printf("# I%" PRIu64 " c%u warps %u stay %u dec %u sample %u k %u kb %d\n", nint, c,
                               r[c].warps, r[c].stay, dec, sg[c], (unsigned)in.k_i, kb_now);
                    ref_bal(&r[c], dec, sg[c], (unsigned)in.k_i, kb_now);
                    moves += r[c].warps != before;
                    p2 += (o->decision_o == CM_DEC_DOWN && r[c].warps >= before);
                } else if (kb_now) {
                    ref_invalidate(&r[c]);
                }
                if (kb_now) kbs++;
            }
            last_mode = mode;
            nint++;
        }
    }
    printf("# random: %" PRIu64 " cycles, %" PRIu64 " intervals, %" PRIu64 " level moves, %" PRIu64
           " DOWN decisions the level did not follow, %" PRIu64 " kernel boundaries\n",
           ncyc, nint, moves, p2, kbs);
    assert_true(ncyc < 1000000 || (moves > 100 && p2 > 10 && kbs > 20));
    printf("# boundary bins: CM-CPU limit 8 DOWN / 8 UP / 7 UP / 10 DOWN %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
           "; Part-2 raise difference k-1 / k / k+1 %" PRIu64 " %" PRIu64 " %" PRIu64 ", refusal %" PRIu64 " %" PRIu64
           " %" PRIu64 "\n",
           cpu_bins[0], cpu_bins[1], cpu_bins[2], cpu_bins[3], p2b.up[0], p2b.up[1], p2b.up[2], p2b.keep[0],
           p2b.keep[1], p2b.keep[2]);
    printf("# boundary bins: stallMC at tH -1/0/+1 %" PRIu64 " %" PRIu64 " %" PRIu64 ", at tL %" PRIu64 " %" PRIu64
           " %" PRIu64 "; stallnet at tH %" PRIu64 " %" PRIu64 " %" PRIu64 ", at tL %" PRIu64 " %" PRIu64 " %" PRIu64
           " (the other channel below tL)\n",
           thr_bins[0][0][0], thr_bins[0][0][1], thr_bins[0][0][2], thr_bins[0][1][0], thr_bins[0][1][1],
           thr_bins[0][1][2], thr_bins[1][0][0], thr_bins[1][0][1], thr_bins[1][0][2], thr_bins[1][1][0],
           thr_bins[1][1][1], thr_bins[1][1][2]);
    if (ncyc >= 1000000) { /* every boundary reached */
        for (int i = 0; i < 4; i++) assert_true(cpu_bins[i] > 0 && (i > 2 || (p2b.up[i] > 0 && p2b.keep[i] > 0)));
        for (unsigned ch = 0; ch < 2; ch++)
            for (unsigned t = 0; t < 2; t++)
                for (unsigned d = 0; d < 3; d++) assert_true(thr_bins[ch][t][d] > 0);
    }
    fg_block_free(b);
}

/* Parameters differing from the verilated ones are refused clearly; the
 * twin accepts the CM Table I defaults. */
static void test_params(void **st) {
    (void)st;
    char err[1024] = "";
    cm_bal_monitor_params p = cm_bal_monitor_defaults(8, 28);
    /* the CM machine's size is verilated (cm_bal_monitor_sys, rtl/cm/cm_bal_monitor.toml) */
    fg_block *b = fg_block_new(&cm_bal_monitor_class, FG_IMPL_RTL, &p, err, sizeof err);
    if (!b) fail_msg("%s", err);
    fg_block_free(b);
    p.th_q4 = 3; /* tH = 0.75: no configuration */
    assert_null(fg_block_new(&cm_bal_monitor_class, FG_IMPL_RTL, &p, err, sizeof err));
    assert_non_null(strstr(err, "P (asked 8, built 4)"));
    assert_non_null(strstr(err, "P (asked 8, built 6)")); /* every configuration is named */
    assert_non_null(strstr(err, "TH_Q4 (asked 3, built 4)"));
    b = fg_block_new(&cm_bal_monitor_class, FG_IMPL_C, &p, err, sizeof err);
    assert_non_null(b);
    fg_block_free(b);
    p.th_q4 = 4;
    p.levels[3] = 2; /* not increasing */
    assert_null(fg_block_new(&cm_bal_monitor_class, FG_IMPL_C, &p, err, sizeof err));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_steps),
        cmocka_unit_test(test_modes),
        cmocka_unit_test(test_moving_average),
        cmocka_unit_test(test_exploration),
        cmocka_unit_test(test_fig12_knee),
        cmocka_unit_test(test_k_levels),
        cmocka_unit_test(test_kernel_invalidation),
        cmocka_unit_test(test_walk_timing),
        cmocka_unit_test(test_random_lockstep),
        cmocka_unit_test(test_random_walk_events),
        cmocka_unit_test(test_odd_random),
        cmocka_unit_test(test_odd_levels),
        cmocka_unit_test(test_reset_lockstep),
        cmocka_unit_test(test_params),
    };
    return tb_run_tests("cm_bal_monitor", tests);
}
