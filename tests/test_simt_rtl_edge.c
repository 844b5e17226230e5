/* The RTL SIMT core with EDGE's PEWT and preemption controller
 * (rtl/simt/simt_edge_core.sv, docs/SIMT_RTL.md "EDGE hooks") in retire
 * lockstep with the C model's architecture (tb/simt/simt_lockstep.h): events
 * pushed into the PEWT start in free slots or preempt background warps,
 * whose registers are saved and restored through the memory port; every
 * instruction of the background warps (before and after their preemption)
 * and of the event warps is compared, every event must complete, and the
 * memories must agree at the end.  Configurations edge (NW 8, NL 8, GTO)
 * and edge_odd (NW 3, NL 4, loose round-robin).
 *
 *   random       simt_rand.c programs in the background (more warps than
 *                slots, atomics and LR / SC among them) and as events, pushed
 *                at random cycles; the controller's policy, flush options,
 *                save / restore counts and register needs at random; random
 *                memory latency and backpressure.  FG_SEED (default 1).
 *   no_preempt   the controller disabled: events wait for free slots.
 *   abort        short background programs: victims end while being flushed
 *                and the controller aborts the flush.
 *   caught       a save set too small (save_mask_i = 0) must fail the
 *                lockstep: the event warps' writes reach the victims.
 *   bad_event    an event of 0 or 33 threads is refused with ev_bad_o and
 *                leaves the PEWT empty.
 *
 * FG_WAVE_DIR=dir writes dir/simt_rtl_edge-<config>.fst of each run (the
 * last run of a test is what stays: FG_TEST and FG_SEED pick one). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "fg_util.h"
#include "simt_lockstep.h"
#include "gen/edge_preempt_enc.h"
#include "simt/simt_abi.h"
#include "simt_rand.h"

#define MEM_BYTES (16u << 20)
#define LOCAL_BASE 0x00400000u /* 2 * NW windows of 32 threads * 1 KiB: background and event warps */
#define SAVE_BASE 0x00600000u  /* NW * 32 registers * 32 threads * 4 B */
#define PARAM 0x00008000u
#define EV_PARAM 0x00008100u   /* one word per event: its data region */
#define RAND_CODE 0x00040000u
#define EV_CODE 0x00060000u
#define RAND_AMO 0x001f0000u
#define RAND_DATA 0x00200000u
#define EV_DATA 0x00300000u    /* event k: 32 threads' regions at EV_DATA + k * 32 * SIMT_RAND_REGION */
#define MAX_CYCLES 6000000u
#define MAX_EV 12
/* program sets per configuration: about 0.2 s each */
#define RAND_SETS 30
#define NCONF 2

static const char *const configs[NCONF] = {"edge", "edge_odd"};
static simt_mem rtl_mem, ref_mem;
static uint64_t base_seed;

static void put(uint32_t a, const void *p, size_t n) {
    simt_mem_write(&rtl_mem, a, p, n);
    simt_mem_write(&ref_mem, a, p, n);
}
static void put32(uint32_t a, uint32_t v) { put(a, &v, 4); }

static simt_rtl_params params_of(const char *config) {
    simt_rtl_params p;
    if (simt_rtl_config_params(config, &p)) fail_msg("no configuration %s", config);
    return p;
}

/* what the random sets did, per configuration */
typedef struct {
    unsigned conf;
    uint64_t sets, events, start_free, start_pre, aborts, cycles, instrs;
    uint64_t lat_sum, lat_max; /* push to end of the event warp */
} ecase;
static ecase cases[NCONF];

/* nprog programs at code (min_items + [0, span) items each) into both memories; their entries */
static void programs(uint64_t *rng, uint32_t code, unsigned nprog, unsigned min_items, unsigned span, bool atomics,
                     uint32_t *entry) {
    simt_asm *a = calloc(1, sizeof *a);
    for (unsigned i = 0; i < nprog; i++) {
        char err[128];
        const simt_rand_opts o = {.items = min_items + simt_rng_below(rng, span),
                                  .barriers = simt_rng_below(rng, 3) != 0,
                                  .exits = simt_rng_below(rng, 2) != 0,
                                  .atomics = atomics && simt_rng_below(rng, 4) != 0,
                                  .amo_base = RAND_AMO};
        simt_asm_init(a, code + 0x8000 * i);
        if (simt_rand_program(a, rng, &o, err, sizeof err)) fail_msg("%s", err);
        put(a->base, a->w, 4 * a->n);
        entry[i] = a->base;
    }
    free(a);
}

/* One random set: background warps (blocks of 64 threads) and events, as
 * the set's seed makes them.  Events carry no atomics: the words their
 * warps would share are the background's (simt_rand.h). */
static unsigned random_set(uint64_t *rng, const simt_rtl_params *p, unsigned bg_items, simt_launch *l, simt_event *ev,
                           unsigned *nev) {
    simt_mem_clear(&rtl_mem);
    simt_mem_clear(&ref_mem);
    uint32_t bg[3], evp[3];
    programs(rng, RAND_CODE, 3, bg_items, bg_items * 3 + 1, true, bg);
    programs(rng, EV_CODE, 3, 8, 40, false, evp);
    put32(PARAM, RAND_DATA);
    /* mostly more warps than slots; now and then fewer (free slots for events) */
    const unsigned nwarps = simt_rng_below(rng, 4) ? p->nw + 1 + simt_rng_below(rng, 4) : 1 + simt_rng_below(rng, p->nw);
    const unsigned words = SIMT_RAND_COMMON_WORDS + SIMT_RAND_WARP_WORDS * ((nwarps + 1) / 2 * 2);
    for (unsigned i = 0; i < words; i++) put32(RAND_AMO + 4 * i, simt_rng_below(rng, 4) ? (uint32_t)simt_rng(rng) : 0);
    for (unsigned w = 0; w < nwarps; w++) {
        uint32_t live = 0xffffffffu;
        if (simt_rng_below(rng, 4) == 0) live = (uint32_t)simt_rng(rng) | 1u;
        l[w] = (simt_launch){.pc = bg[simt_rng_below(rng, 3)], .param = PARAM, .live = live, .wib = w % 2};
        l[w].ctaid[0] = w / 2;
        l[w].ntid[0] = 64;
        l[w].ntid[1] = l[w].ntid[2] = 1;
        l[w].nctaid[0] = (nwarps + 1) / 2;
        l[w].nctaid[1] = l[w].nctaid[2] = 1;
    }
    *nev = 2 + simt_rng_below(rng, MAX_EV - 1);
    uint64_t at = 20 + simt_rng_below(rng, 400);
    for (unsigned k = 0; k < *nev; k++) {
        put32(EV_PARAM + 4 * k, EV_DATA + k * 32 * SIMT_RAND_REGION);
        ev[k] = (simt_event){.pc = evp[simt_rng_below(rng, 3)], .param = EV_PARAM + 4 * k,
                             .tag = (uint32_t)(simt_rng(rng) & 0xffff),
                             .threads = simt_rng_below(rng, 3) ? 32 : 1 + simt_rng_below(rng, 32),
                             .regs = 8 + simt_rng_below(rng, 25), .at = at};
        at += simt_rng_below(rng, 3) ? simt_rng_below(rng, 800) : 0; /* bursts now and then */
    }
    return nwarps;
}

static simt_edge_cfg random_edge_cfg(uint64_t *rng) {
    return (simt_edge_cfg){.save_base = SAVE_BASE, .save_mask = 0xfffffffeu, .en = 1,
                           .policy = simt_rng_below(rng, 3),
                           /* any of the four options: the core reports nothing to skip or drop,
                            * so BARSKIP and DROP must never come as commands */
                           .opt = simt_rng_below(rng, PRE_OPT_ALL + 1),
                           .save_cycles_base = simt_rng_below(rng, 2) ? 0 : simt_rng_below(rng, 24),
                           .save_cycles_per_reg = simt_rng_below(rng, 3)};
}

/* FG_WAVE_DIR: <dir>/simt_rtl_edge-<config>.fst, else NULL */
static const char *wave_path(const char *cf, char *buf, size_t n) {
    const char *wd = getenv("FG_WAVE_DIR");
    if (!wd || !*wd) return NULL;
    snprintf(buf, n, "%s/simt_rtl_edge-%s.fst", wd, cf);
    return buf;
}

static int run_set(const char *cf, uint64_t *rng, const simt_edge_cfg *g, unsigned bg_items, simt_run_result *res,
                   unsigned *nev, char *err, size_t errlen) {
    const simt_rtl_params p = params_of(cf);
    simt_launch l[16];
    simt_event ev[MAX_EV];
    const unsigned nwarps = random_set(rng, &p, bg_items, l, ev, nev);
    static const unsigned ready[] = {100, 90, 60, 30};
    char wave[512];
    simt_run_cfg c = {.config = cf,
                      .wave = wave_path(cf, wave, sizeof wave),
                      .local_base = LOCAL_BASE,
                      .mem_seed = simt_rng(rng),
                      .max_lat = 1 + simt_rng_below(rng, 12),
                      .ready_pct = ready[simt_rng_below(rng, 4)],
                      .max_cycles = MAX_CYCLES,
                      .launches = l,
                      .nlaunch = nwarps,
                      .launch_gap = simt_rng_below(rng, 2) ? 0 : simt_rng_below(rng, 30),
                      .events = ev,
                      .nevent = *nev,
                      .edge = *g};
    const int rc = simt_lockstep_run(&c, &rtl_mem, &ref_mem, res, err, errlen);
    for (unsigned w = 0; !rc && w < nwarps + *nev; w++)
        if (res->end[w].faulted) {
            snprintf(err, errlen, "warp %u faulted (code %u, pc 0x%08x): the generator must not make faults", w,
                     res->end[w].fault_code, res->end[w].fault_pc);
            return -1;
        }
    return rc;
}

static void t_random(void **state) {
    ecase *ec = *state;
    const char *cf = configs[ec->conf];
    for (unsigned k = 0; k < RAND_SETS; k++) {
        uint64_t rng = base_seed ^ (0x9e3779b97f4a7c15ull * (2 * k + 1 + 1000003ull * ec->conf));
        const simt_edge_cfg g = random_edge_cfg(&rng);
        simt_run_result res;
        unsigned nev;
        char err[1024];
        if (run_set(cf, &rng, &g, 60, &res, &nev, err, sizeof err)) {
            printf("# random [%s]: set %u of seed %" PRIu64 " failed (policy %u, options 0x%x, save cycles %u + %u per"
                   " register; repeat with FG_SEED=%" PRIu64 " FG_XSEED=%" PRIu64 ")\n", cf, k, base_seed, g.policy,
                   g.opt, g.save_cycles_base, g.save_cycles_per_reg, base_seed, simt_rtl_xseed());
            fail_msg("random [%s] FG_SEED=%" PRIu64 " set %u: %s", cf, base_seed, k, err);
        }
        ec->sets++;
        ec->events += nev;
        ec->start_free += res.start_free;
        ec->start_pre += res.start_pre;
        ec->aborts += res.aborts;
        ec->cycles += res.cycles;
        ec->instrs += res.instrs;
        for (unsigned i = 0; i < nev; i++) {
            const uint64_t lat = res.ev_end[i] - res.ev_push[i];
            ec->lat_sum += lat;
            if (lat > ec->lat_max) ec->lat_max = lat;
        }
    }
    /* the sets must have exercised both ways an event starts */
    if (!ec->start_pre || !ec->start_free)
        fail_msg("random [%s]: %" PRIu64 " events started in free slots, %" PRIu64 " by preemption: both must happen",
                 cf, ec->start_free, ec->start_pre);
}

/* The controller off: no preemption, every event waits for a free slot. */
static void t_no_preempt(void **state) {
    const char *cf = configs[*(unsigned *)*state];
    uint64_t rng = base_seed ^ 0x70e1u;
    simt_edge_cfg g = random_edge_cfg(&rng);
    g.en = 0;
    simt_run_result res;
    unsigned nev;
    char err[1024];
    if (run_set(cf, &rng, &g, 60, &res, &nev, err, sizeof err)) fail_msg("no_preempt [%s]: %s", cf, err);
    if (res.start_pre || res.start_free != nev)
        fail_msg("no_preempt [%s]: %" PRIu64 " preemptions, %" PRIu64 " free starts of %u events", cf, res.start_pre,
                 res.start_free, nev);
}

/* Victims that end while being flushed: background warps whose last
 * instruction, a jump to the exit address, waits in the i-buffer for a
 * division that computes it (long: a bit a cycle, thread after thread).
 * With no i-buffer flush, a victim picked meanwhile drains, issues the jump
 * and exits during its flush: the controller ABORTs the flush (the core
 * clears the victim's fetch stop and boost) and the event takes another
 * victim. */
static void t_abort(void **state) {
    const char *cf = configs[*(unsigned *)*state];
    const simt_rtl_params p = params_of(cf);
    uint64_t aborts = 0, pre = 0;
    for (unsigned k = 0; k < 6; k++) {
        uint64_t rng = base_seed ^ (0xab0u + 7919u * k);
        simt_mem_clear(&rtl_mem);
        simt_mem_clear(&ref_mem);
        simt_asm *a = calloc(1, sizeof *a);
        simt_asm_init(a, RAND_CODE);
        simt_asm_li(a, 6, FG_EXIT_ADDR);
        simt_asm_emit(a, A_ADDI(7, 0, 1));
        simt_asm_emit(a, A_DIVU(5, 6, 7));
        simt_asm_emit(a, A_JALR(0, 5, 0));
        char err[1024];
        if (simt_asm_end(a, err, sizeof err)) fail_msg("%s", err);
        put(a->base, a->w, 4 * a->n);
        free(a);
        uint32_t evp[3];
        programs(&rng, EV_CODE, 3, 4, 8, false, evp);
        simt_launch l[64];
        const unsigned nwarps = 8 * p.nw;
        for (unsigned w = 0; w < nwarps; w++) {
            l[w] = (simt_launch){.pc = RAND_CODE, .param = PARAM, .live = 0xffffffffu};
            l[w].ntid[0] = 32;
            l[w].ntid[1] = l[w].ntid[2] = l[w].nctaid[0] = l[w].nctaid[1] = l[w].nctaid[2] = 1;
        }
        simt_event ev[MAX_EV];
        uint64_t at = 0;
        for (unsigned i = 0; i < MAX_EV; i++) {
            put32(EV_PARAM + 4 * i, EV_DATA + i * 32 * SIMT_RAND_REGION);
            at += 40 + simt_rng_below(&rng, 400);
            ev[i] = (simt_event){.pc = evp[simt_rng_below(&rng, 3)], .param = EV_PARAM + 4 * i, .tag = i,
                                 .threads = 32, .regs = 16, .at = at};
        }
        simt_edge_cfg g = random_edge_cfg(&rng);
        g.opt &= ~(unsigned)PRE_OPT_IBUF;
        char wave[512];
        simt_run_cfg c = {.config = cf, .wave = wave_path(cf, wave, sizeof wave), .local_base = LOCAL_BASE,
                          .mem_seed = simt_rng(&rng), .max_lat = 1,
                          .ready_pct = 100, .max_cycles = MAX_CYCLES, .launches = l, .nlaunch = nwarps,
                          .events = ev, .nevent = MAX_EV, .edge = g};
        simt_run_result res;
        if (simt_lockstep_run(&c, &rtl_mem, &ref_mem, &res, err, sizeof err)) fail_msg("abort [%s] set %u: %s", cf, k, err);
        aborts += res.aborts;
        pre += res.start_pre;
    }
    if (!aborts) fail_msg("abort [%s]: no flush was aborted in 6 sets (%" PRIu64 " preemptions)", cf, pre);
    printf("# abort [%s]: %" PRIu64 " flushes aborted, %" PRIu64 " preemptions in 6 sets\n", cf, aborts, pre);
}

/* Nothing saved: an event warp's register writes must reach a victim and
 * the lockstep must see it (the save and restore are what keeps it right). */
static void t_caught(void **state) {
    const char *cf = configs[*(unsigned *)*state];
    for (unsigned k = 0; k < 8; k++) {
        uint64_t rng = base_seed ^ (0xca7u + 7919u * k);
        simt_edge_cfg g = random_edge_cfg(&rng);
        g.save_mask = 0;
        simt_run_result res;
        unsigned nev;
        char err[1024];
        if (run_set(cf, &rng, &g, 60, &res, &nev, err, sizeof err)) {
            if (!strstr(err, "first difference") && !strstr(err, "memory differs"))
                fail_msg("caught [%s]: failed, but not on a difference: %s", cf, err);
            return;
        }
    }
    fail_msg("caught [%s]: eight sets ran clean with no register saved", cf);
}

/* An event of 0 or 33 threads: ev_bad_o the cycle after, nothing pending. */
static void t_bad_event(void **state) {
    const char *cf = configs[*(unsigned *)*state];
    char err[256];
    simt_rtl_params p;
    simt_rtl *r = simt_rtl_new(cf, &p, err, sizeof err);
    if (!r) fail_msg("%s", err);
    simt_rtl_reset(r);
    static const unsigned bad[] = {0, 33, 63};
    for (unsigned i = 0; i < 3; i++) {
        simt_rtl_in in = {.local_base = LOCAL_BASE, .save_base = SAVE_BASE, .cfg_en = 1, .mem_req_ready = 1,
                          .ev_valid = 1, .ev_kernel = EV_CODE, .ev_param = EV_PARAM, .ev_tag = 7,
                          .ev_threads = (uint8_t)bad[i], .ev_regs = 8};
        simt_rtl_out o;
        simt_rtl_eval(r, &in, &o);
        if (!o.ev_ready || !o.launch_ready) fail_msg("bad_event [%s]: %u threads: ev_ready_o=%u launch_ready_o=%u", cf,
                                                     bad[i], o.ev_ready, o.launch_ready);
        simt_rtl_tick(r);
        memset(&in, 0, sizeof in);
        in.mem_req_ready = 1;
        simt_rtl_eval(r, &in, &o);
        if (!o.ev_bad || o.err_valid) fail_msg("bad_event [%s]: %u threads: ev_bad_o=%u err_valid_o=%u", cf, bad[i],
                                               o.ev_bad, o.err_valid);
        for (unsigned c = 0; c < 20; c++) {
            simt_rtl_tick(r);
            simt_rtl_eval(r, &in, &o);
            if (!o.launch_ready || o.cmd || o.busy || o.cpl_valid)
                fail_msg("bad_event [%s]: %u threads: the refused event is pending (launch_ready_o=%u cmd_o=%u)", cf,
                         bad[i], o.launch_ready, o.cmd);
        }
    }
    if (simt_rtl_error(r)) fail_msg("bad_event [%s]: %s", cf, simt_rtl_error(r));
    simt_rtl_free(r);
}

int main(void) {
    static unsigned conf[NCONF];
    static char names[NCONF * 5][64];
    static struct CMUnitTest tests[NCONF * 5];
    if (simt_mem_init(&rtl_mem, MEM_BYTES) || simt_mem_init(&ref_mem, MEM_BYTES)) {
        fprintf(stderr, "test_simt_rtl_edge: out of memory\n");
        return 1;
    }
    base_seed = fg_env_u64("FG_SEED", 1);
    printf("# FG_SEED=%" PRIu64 "; RTL initial state: FG_XSEED=%" PRIu64 "\n", base_seed, simt_rtl_xseed());
    unsigned n = 0;
    static const struct {
        const char *name;
        CMUnitTestFunction fn;
    } directed[] = {{"no_preempt", t_no_preempt}, {"abort", t_abort}, {"caught", t_caught}, {"bad_event", t_bad_event}};
    for (unsigned c = 0; c < NCONF; c++) {
        conf[c] = c;
        cases[c].conf = c;
        snprintf(names[n], sizeof names[n], "%s random", configs[c]);
        tests[n] = (struct CMUnitTest){names[n], t_random, NULL, NULL, &cases[c]};
        n++;
        for (unsigned i = 0; i < sizeof directed / sizeof directed[0]; i++, n++) {
            snprintf(names[n], sizeof names[n], "%s %s", configs[c], directed[i].name);
            tests[n] = (struct CMUnitTest){names[n], directed[i].fn, NULL, NULL, &conf[c]};
        }
    }
    const double t0 = fg_now(FG_CLOCK_WALL);
    const int rc = _cmocka_run_group_tests("simt_rtl_edge", tests, n, NULL, NULL);
    for (unsigned c = 0; c < NCONF; c++) {
        const ecase *e = &cases[c];
        if (!e->sets) continue;
        const simt_rtl_params p = params_of(configs[c]);
        printf("# report: simt_edge_core %s (NW=%u NL=%u GTO=%u) random: %" PRIu64 " sets, %" PRIu64 " events (%" PRIu64
               " in free slots, %" PRIu64 " preempting a warp, %" PRIu64 " flushes aborted), %" PRIu64
               " warp instructions in %" PRIu64 " cycles; push to event end %.0f cycles mean, %" PRIu64
               " most (FG_SEED=%" PRIu64 ")\n",
               configs[c], p.nw, p.nl, p.gto, e->sets, e->events, e->start_free, e->start_pre, e->aborts, e->instrs,
               e->cycles, e->events ? (double)e->lat_sum / (double)e->events : 0.0, e->lat_max, base_seed);
    }
    printf("# report: test_simt_rtl_edge: %.1f s\n", fg_now(FG_CLOCK_WALL) - t0);
    simt_mem_free(&rtl_mem);
    simt_mem_free(&ref_mem);
    return rc;
}
