/* The RTL SIMT core (rtl/simt/simt_core.sv) in retire lockstep with the C
 * model's architecture (docs/SIMT_RTL.md "Checking"; tb/simt/): every
 * retired instruction's warp, order, pc, mask, rd and values, done and
 * fault pulses, and the memory image at the end, in each verilated
 * configuration (mk/simt_rtl.mk: default, odd).
 *
 *   conformance  riscv-tests rv32ui and rv32um (mk/rvtest.mk), by one thread
 *                and by a full warp, every thread's status "passed"; ma_data
 *                must stop on an ALIGN fault (this core refuses misaligned
 *                accesses).  rv32ua by one thread only, as in
 *                tests/test_riscv_conformance.c: its tests check the old
 *                values their AMOs return, which differ by design when 32
 *                threads hit one word.  Without the suite one test says it
 *                was not checked.
 *   directed     divergence and reconvergence, loops, early exits, barriers
 *                in divergent code, every warp slot and more warps than
 *                slots, the id and counter CSRs, a compiled kernel, atomics
 *                of a full warp on one word and on each other's words, LR / SC
 *                locks with threads contending, and each fault with its code
 *                and pc.
 *   random       simt_rand.c programs (atomics included), several warps at
 *                once, random memory latency and backpressure: FG_SEED
 *                (default 1) repeats them, FG_CYCLES=N runs programs until N
 *                cycles per configuration (default: SIMT_RAND_PROGRAMS
 *                programs); random_short is one small set.
 *   checker      the lockstep's checks themselves fail on wrong beats.
 *
 * FG_WAVE_DIR=dir writes dir/simt_rtl-<config>-<test>.fst per test;
 * FG_SIMT_REF_ONLY=1 runs the conformance tests on the reference alone.
 *
 * FG_SIMT_TRACE_DIR=dir records the runs of the tests of rec_tests[] (in
 * both configurations) for the Icarus replay (scripts/check_simt_icarus.sh,
 * tb/simt/simt_core_tb.sv): they run on the plain memory (read data the
 * cycle after the request, always ready) with the launches back to back,
 * and write dir/<config>-<test>.{mem,launch,trace,memout}
 * (tb/simt/simt_lockstep.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "fg_util.h"
#include "gen/simt_core_enc.h"
#include "simt/simt_abi.h"
#include "simt_asm.h"
#include "simt_elf.h"
#include "simt_lockstep.h"
#include "simt_rand.h"

#define MEM_BYTES (64u << 20)
/* NW * 32 threads' stacks (8 * 32 * 1 KiB), below 8 MiB: the Icarus bench's memory */
#define LOCAL_BASE 0x00400000u
#define PARAM 0x00008000u
#define RESULT 0x00009000u
#define CODE 0x00010000u
#define DATA 0x00100000u
#define RAND_CODE 0x00040000u
#define RAND_DATA 0x00200000u
#define RAND_AMO 0x001f0000u /* simt_rand_opts.amo_base: below RAND_DATA */
#define MAX_CYCLES 4000000u
/* per configuration: 100 take ~14 s each on a 2-core machine, which keeps the
 * whole test under 45 s (150: 52 s for the two) */
#define SIMT_RAND_PROGRAMS 50
#define NCONF 2

static const char *const configs[NCONF] = {"default", "odd"};
static simt_mem rtl_mem, ref_mem;
static uint64_t base_seed;

/* ------------------------------------------------------------- helpers */

static void mem_reset(void) {
    simt_mem_clear(&rtl_mem);
    simt_mem_clear(&ref_mem);
}

static void put(uint32_t a, const void *p, size_t n) {
    simt_mem_write(&rtl_mem, a, p, n);
    simt_mem_write(&ref_mem, a, p, n);
}

static void put32(uint32_t a, uint32_t v) { put(a, &v, 4); }

static uint32_t rtl32(uint32_t a) { return simt_mem_rd32(&rtl_mem, a); }

static simt_rtl_params params_of(const char *config) {
    simt_rtl_params p;
    if (simt_rtl_config_params(config, &p)) fail_msg("no configuration %s", config);
    return p;
}

/* the program of a into both memories */
static void load_asm(simt_asm *a) {
    char err[128];
    if (simt_asm_end(a, err, sizeof err)) fail_msg("%s", err);
    put(a->base, a->w, 4 * a->n);
}

/* a 1-D launch of warp `wib` of block `block` (blocks of `bthreads` threads) */
static simt_launch launch1(uint32_t pc, uint32_t param, uint32_t live, unsigned block, unsigned wib, unsigned bthreads,
                           unsigned nblocks) {
    simt_launch l = {.pc = pc, .param = param, .live = live, .wib = wib};
    l.ctaid[0] = block;
    l.ntid[0] = bthreads;
    l.ntid[1] = l.ntid[2] = 1;
    l.nctaid[0] = nblocks;
    l.nctaid[1] = l.nctaid[2] = 1;
    return l;
}

/* FG_WAVE_DIR: <dir>/simt_rtl-<config>-<test>.fst */
static const char *wave_path(const char *config, const char *test, char *buf, size_t n) {
    const char *dir = getenv("FG_WAVE_DIR");
    if (!dir || !*dir) return NULL;
    int k = snprintf(buf, n, "%s/simt_rtl-%s-", dir, config);
    for (const char *c = test; *c && k + 5 < (int)n; c++) buf[k++] = (*c == ' ' || *c == '/') ? '_' : *c;
    snprintf(buf + k, n - (size_t)k, ".fst");
    return buf;
}

/* The runs FG_SIMT_TRACE_DIR records (the test names run() is given; the
 * tests scripts/check_simt_icarus.sh runs): a riscv-test by a full warp,
 * divergence and barriers, atomics and LR / SC locks, a small random program
 * set; each a few thousand cycles, which the Icarus replay takes seconds for. */
static const char *const rec_tests[] = {"rv32um-mul-32", "barrier", "lrsc_lock_small", "random_short"};

/* FG_SIMT_TRACE_DIR/<config>-<test>, when test is recorded; else NULL */
static const char *record_path(const char *config, const char *test, char *buf, size_t n) {
    const char *dir = getenv("FG_SIMT_TRACE_DIR");
    if (!dir || !*dir) return NULL;
    for (unsigned i = 0; i < sizeof rec_tests / sizeof rec_tests[0]; i++)
        if (!strcmp(test, rec_tests[i])) {
            snprintf(buf, n, "%s/%s-%s", dir, config, test);
            return buf;
        }
    return NULL;
}

/* Runs the launches in lockstep; any failure fails the test with its line.
 * A recorded run (record_path) takes the plain memory and no launch gap. */
static void run(const char *test, const char *config, const simt_launch *l, unsigned n, unsigned max_lat,
                unsigned ready_pct, uint64_t mem_seed, uint64_t gap, simt_run_result *res) {
    char wave[512], err[1024], rec[512];
    const char *record = record_path(config, test, rec, sizeof rec);
    if (record) {
        max_lat = 1;
        ready_pct = 100;
        gap = 0;
    }
    simt_run_cfg c = {.config = config,
                      .wave = wave_path(config, test, wave, sizeof wave),
                      .local_base = LOCAL_BASE,
                      .mem_seed = mem_seed,
                      .max_lat = max_lat,
                      .ready_pct = ready_pct,
                      .max_cycles = MAX_CYCLES,
                      .launches = l,
                      .nlaunch = n,
                      .launch_gap = gap,
                      .record = record};
    if (simt_lockstep_run(&c, &rtl_mem, &ref_mem, res, err, sizeof err)) fail_msg("%s [%s]: %s", test, config, err);
    if (record) printf("# recorded %s: %" PRIu64 " cycles\n", record, res->cycles);
}

/* FG_SIMT_REF_ONLY=1: the conformance runs on the reference alone (no RTL) */
static bool ref_only;
static void ref_alone(const char *config, const simt_launch *l, simt_run_result *res) {
    simt_ref *ref = calloc(1, sizeof *ref);
    memset(res, 0, sizeof *res);
    res->p = params_of(config);
    simt_ref_init(ref, &ref_mem, LOCAL_BASE, res->p.stack_bytes, res->p.core_id);
    simt_ref_launch(ref, 0, l);
    for (;;) {
        simt_rec rec;
        unsigned code = 0;
        uint32_t pc = 0;
        const int st = simt_ref_step(ref, 0, &rec, &code, &pc);
        if (st == SIMT_REF_ERROR) fail_msg("%s", ref->err);
        if (st == SIMT_REF_RETIRED) { res->instrs++; continue; }
        res->end[0].ended = true;
        res->end[0].faulted = st == SIMT_REF_FAULT;
        res->end[0].fault_code = code;
        res->end[0].fault_pc = pc;
        break;
    }
    free(ref);
}

static void expect_end(const simt_run_result *res, unsigned launch, bool faulted, unsigned code, uint32_t pc) {
    const simt_launch_end *e = &res->end[launch];
    if (!e->ended) fail_msg("launch %u did not end", launch);
    if (e->faulted != faulted || (faulted && (e->fault_code != code || e->fault_pc != pc)))
        fail_msg("launch %u: %s (code %u, pc 0x%08x), expected %s (code %u, pc 0x%08x)", launch,
                 e->faulted ? "faulted" : "done", e->fault_code, e->fault_pc, faulted ? "a fault" : "done", code, pc);
}

/* t0 = tid.x, t4 = out + 4 * tid.x (out = param[0]) */
#define T0 5
#define T1 6
#define T2 7
#define T3 28
#define T4 29
#define T5 30
#define T6 31
#define S0 8
#define A0 10
static void prologue_out(simt_asm *a) {
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_TID_X));
    simt_asm_emit(a, A_LW(T4, A0, 0));
    simt_asm_emit(a, A_SLLI(T3, T0, 2));
    simt_asm_emit(a, A_ADD(T4, T4, T3));
}

/* ---------------------------------------------------------- conformance */

typedef struct {
    char suite[16], name[48];
    unsigned conf, threads;
    int ran, passed;
} rv_case;

#define MAX_RV 128
static rv_case rv_cases[NCONF * 2 * MAX_RV];
static unsigned n_rv;

static void conformance(void **state) {
    rv_case *t = *state;
    char path[512], err[256], test[128];
    snprintf(path, sizeof path, "%s/rvtest/%s/%s.elf", fg_build_dir(), t->suite, t->name);
    snprintf(test, sizeof test, "%s-%s-%u", t->suite, t->name, t->threads);
    t->ran = 1;
    mem_reset();
    simt_elf_image im;
    if (simt_elf_load(&rtl_mem, path, CODE, NULL, &im, err, sizeof err) ||
        simt_elf_load(&ref_mem, path, CODE, NULL, &im, err, sizeof err))
        fail_msg("%s", err);
    put32(PARAM, RESULT);
    const bool warp = t->threads > 1;
    const simt_launch l = launch1(im.entry, PARAM, warp ? 0xffffffffu : 1u, 0, 0, t->threads, 1);
    simt_run_result res;
    if (ref_only) {
        ref_alone(configs[t->conf], &l, &res);
        simt_mem_clear(&rtl_mem);
        simt_mem_copy(&rtl_mem, &ref_mem);
    } else {
        /* the full warp under random latency and backpressure, one thread on the plain memory */
        run(test, configs[t->conf], &l, 1, warp ? 6 : 1, warp ? 75 : 100, 0x5eed0000u + t->threads, 0, &res);
    }
    if (!strcmp(t->name, "ma_data")) {
        if (!res.end[0].faulted || res.end[0].fault_code != SIMT_FAULT_ALIGN)
            fail_msg("%s: expected an ALIGN fault (misaligned access), got %s", test,
                     res.end[0].faulted ? "another fault" : "no fault");
        t->passed = 1;
        return;
    }
    if (res.end[0].faulted)
        fail_msg("%s: fault %u at pc 0x%08x", test, res.end[0].fault_code, res.end[0].fault_pc);
    unsigned bad = 0;
    for (unsigned i = 0; i < t->threads; i++) {
        const uint32_t st = rtl32(RESULT + 8 * i), num = rtl32(RESULT + 8 * i + 4);
        if (st == 1 && num == rtl32(RESULT + 4)) continue;
        if (!bad++)
            printf("# %s thread %u: %s (TESTNUM %u)\n", test, i,
                   st == 1 ? "passed" : st == 2 ? "FAILED" : "did not finish", num);
    }
    if (bad) fail_msg("%s: %u of %u threads failed or disagree", test, bad, t->threads);
    t->passed = 1;
}

static void not_checked(void **state) {
    printf("# report: RTL SIMT conformance NOT checked: %s\n", (const char *)*state);
    printf("# report: get the official riscv-tests (riscv-software-src/riscv-tests) and build with "
           "RISCV_TESTS=DIR\n");
    skip();
}

/* $BUILD/rvtest/tests.list's rv32ui / rv32um / rv32ua runs; the suite's directory or NULL */
static const char *read_list(char *why, size_t whylen) {
    static char dir[512];
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/rvtest/tests.list", fg_build_dir());
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whylen, "%s missing (build with make)", path);
        return NULL;
    }
    const char *found = NULL;
    while (fgets(line, sizeof line, f)) {
        char a[16], c[48];
        if (sscanf(line, "suite %511s", dir) == 1) found = dir;
        else if (sscanf(line, "absent %511s", dir) == 1) snprintf(why, whylen, "riscv-tests not found at %s", dir);
        else if (sscanf(line, "run %15s %47s", a, c) == 2 &&
                 (!strcmp(a, "rv32ui") || !strcmp(a, "rv32um") || !strcmp(a, "rv32ua")))
            for (unsigned conf = 0; conf < NCONF; conf++)
                /* rv32ua: one thread (the file's header says why) */
                for (unsigned threads = 1; threads <= (strcmp(a, "rv32ua") ? 32u : 1u) &&
                                           n_rv < sizeof rv_cases / sizeof rv_cases[0];
                     threads += 31) {
                    rv_case *t = &rv_cases[n_rv++];
                    snprintf(t->suite, sizeof t->suite, "%s", a);
                    snprintf(t->name, sizeof t->name, "%s", c);
                    t->conf = conf;
                    t->threads = threads;
                }
    }
    fclose(f);
    return found;
}

/* ------------------------------------------------------------- directed */

typedef struct {
    unsigned conf;
} dcase;

#define CONF(state) (configs[((const dcase *)*(state))->conf])

/* if / else on the thread's parity, then one store by all: reconverged */
static void t_if_else(void **state) {
    const char *cf = CONF(state);
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    prologue_out(a);
    simt_asm_emit(a, A_ANDI(T1, T0, 1));
    simt_asm_branch(a, RV_BEQ, T1, 0, 1);
    simt_asm_emit(a, A_ADDI(T2, T0, 100));
    simt_asm_jal(a, 0, 2);
    simt_asm_label(a, 1);
    simt_asm_emit(a, A_ADDI(T2, T0, 200));
    simt_asm_emit(a, A_SLLI(T2, T2, 1));
    simt_asm_label(a, 2);
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_emit(a, A_ECALL);
    load_asm(a);
    put32(PARAM, DATA);
    const simt_launch l = launch1(CODE, PARAM, 0xffffffffu, 0, 0, 32, 1);
    simt_run_result res;
    run("if_else", cf, &l, 1, 3, 90, 1, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    for (unsigned t = 0; t < 32; t++)
        assert_int_equal(rtl32(DATA + 4 * t), (t & 1) ? t + 100 : 2 * (t + 200));
    free(a);
}

/* a while loop of tid & 7 iterations and a do-while of tid % 5 + 1 */
static void t_loops(void **state) {
    const char *cf = CONF(state);
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    prologue_out(a);
    simt_asm_emit(a, A_ANDI(T1, T0, 7));
    simt_asm_emit(a, A_ADDI(T2, 0, 0));
    simt_asm_emit(a, A_ADDI(T3, 0, 0));
    simt_asm_label(a, 1);
    simt_asm_branch(a, RV_BGE, T3, T1, 2);
    simt_asm_emit(a, A_ADD(T2, T2, T3));
    simt_asm_emit(a, A_ADDI(T3, T3, 1));
    simt_asm_jal(a, 0, 1);
    simt_asm_label(a, 2);
    simt_asm_emit(a, A_ADDI(T5, 0, 5));
    simt_asm_emit(a, A_REM(T1, T0, T5));
    simt_asm_emit(a, A_ADDI(T1, T1, 1));
    simt_asm_label(a, 3);
    simt_asm_emit(a, A_ADD(T6, T2, T2));
    simt_asm_emit(a, A_ADD(T2, T6, T2)); /* * 3 */
    simt_asm_emit(a, A_ADDI(T1, T1, -1));
    simt_asm_branch(a, RV_BNE, T1, 0, 3);
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_emit(a, A_ECALL);
    load_asm(a);
    put32(PARAM, DATA);
    const simt_launch l = launch1(CODE, PARAM, 0xffffffffu, 0, 0, 32, 1);
    simt_run_result res;
    run("loops", cf, &l, 1, 1, 100, 0, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    for (unsigned t = 0; t < 32; t++) {
        uint32_t n = t & 7, v = n * (n - 1) / 2;
        for (unsigned i = 0; i < t % 5 + 1; i++) v *= 3;
        assert_int_equal(rtl32(DATA + 4 * t), v);
    }
    free(a);
}

/* exits: tid % 4 == 0 by ecall, 1 by returning through ra, 2 by ecall inside
 * a called function, 3 store and return */
static void t_early_exit(void **state) {
    const char *cf = CONF(state);
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    prologue_out(a);
    simt_asm_emit(a, A_ANDI(T1, T0, 3));
    simt_asm_emit(a, A_ADDI(T2, 0, 0xAA));
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_branch(a, RV_BNE, T1, 0, 1);
    simt_asm_emit(a, A_ECALL);
    simt_asm_label(a, 1);
    simt_asm_emit(a, A_ADDI(T2, 0, 1));
    simt_asm_branch(a, RV_BNE, T1, T2, 2);
    simt_asm_emit(a, A_JALR(0, 1, 0));
    simt_asm_label(a, 2);
    simt_asm_emit(a, A_ADDI(S0, 1, 0));
    simt_asm_jal(a, 1, 10);
    simt_asm_emit(a, A_ADDI(1, S0, 0));
    simt_asm_emit(a, A_ADDI(T2, 0, 0xBB));
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_emit(a, A_JALR(0, 1, 0));
    simt_asm_label(a, 10); /* the callee, above its callers */
    simt_asm_emit(a, A_ADDI(T2, 0, 2));
    simt_asm_branch(a, RV_BNE, T1, T2, 11);
    simt_asm_emit(a, A_ADDI(T5, 0, 0xCC));
    simt_asm_emit(a, A_SW(T5, T4, 0));
    simt_asm_emit(a, A_ECALL);
    simt_asm_label(a, 11);
    simt_asm_emit(a, A_JALR(0, 1, 0));
    load_asm(a);
    put32(PARAM, DATA);
    const simt_launch l = launch1(CODE, PARAM, 0xfffffff7u, 0, 0, 32, 1); /* thread 3 not live */
    simt_run_result res;
    run("early_exit", cf, &l, 1, 4, 80, 2, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    static const uint32_t want[4] = {0xAA, 0xAA, 0xCC, 0xBB};
    for (unsigned t = 0; t < 32; t++) assert_int_equal(rtl32(DATA + 4 * t), t == 3 ? 0 : want[t % 4]);
    free(a);
}

/* A barrier in divergent code: odd threads write and wait at one barrier,
 * even threads loop, write and wait at another; after it every thread reads
 * its neighbour's word.  Threads 28..31 exit first (no longer counted);
 * csrrwi reads the barrier CSR as 0. */
static void t_barrier(void **state) {
    const char *cf = CONF(state);
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    prologue_out(a);
    simt_asm_emit(a, A_ADDI(T1, 0, 28));
    simt_asm_branch(a, RV_BLT, T0, T1, 1);
    simt_asm_emit(a, A_ECALL);
    simt_asm_label(a, 1);
    simt_asm_emit(a, A_ANDI(T1, T0, 1));
    simt_asm_branch(a, RV_BEQ, T1, 0, 2);
    simt_asm_emit(a, A_ADDI(T2, T0, 1000));
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_emit(a, A_CSRRWI(T6, FG_CSR_BARRIER, 1));
    simt_asm_jal(a, 0, 4);
    simt_asm_label(a, 2);
    simt_asm_emit(a, A_ANDI(T1, T0, 6)); /* a loop of tid & 6 iterations first */
    simt_asm_emit(a, A_ADDI(T2, 0, 0));
    simt_asm_label(a, 3);
    simt_asm_emit(a, A_ADDI(T2, T2, 7));
    simt_asm_emit(a, A_ADDI(T1, T1, -1));
    simt_asm_branch(a, RV_BGE, T1, 0, 3);
    simt_asm_emit(a, A_ADD(T2, T2, T0));
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_emit(a, A_CSRRW(T6, FG_CSR_BARRIER, 0));
    simt_asm_label(a, 4);
    simt_asm_emit(a, A_XORI(T3, T0, 1));
    simt_asm_emit(a, A_SLLI(T3, T3, 2));
    simt_asm_emit(a, A_LW(T1, A0, 0));
    simt_asm_emit(a, A_ADD(T3, T3, T1));
    simt_asm_emit(a, A_LW(T5, T3, 0)); /* the neighbour's word */
    simt_asm_emit(a, A_ADD(T5, T5, T6));
    simt_asm_emit(a, A_SW(T5, T4, 256));
    simt_asm_emit(a, A_ECALL);
    load_asm(a);
    put32(PARAM, DATA);
    const simt_launch l = launch1(CODE, PARAM, 0xffffffffu, 0, 0, 32, 1);
    simt_run_result res;
    run("barrier", cf, &l, 1, 5, 70, 3, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    for (unsigned t = 0; t < 28; t++) {
        const unsigned n = t ^ 1;
        const uint32_t v = (n & 1) ? n + 1000 : 7 * ((n & 6) + 1) + n;
        assert_int_equal(rtl32(DATA + 256 + 4 * t), v);
    }
    free(a);
}

/* a program of a few hundred instructions for many warps: out[g], g =
 * ctaid.x * ntid.x + tid.x */
static void many_warps_prog(simt_asm *a) {
    simt_asm_init(a, CODE);
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_CTAID_X));
    simt_asm_emit(a, A_CSRR(T1, FG_CSR_NTID_X));
    simt_asm_emit(a, A_MUL(T0, T0, T1));
    simt_asm_emit(a, A_CSRR(T1, FG_CSR_TID_X));
    simt_asm_emit(a, A_ADD(T0, T0, T1));
    simt_asm_emit(a, A_LW(T4, A0, 0));
    simt_asm_emit(a, A_SLLI(T3, T0, 2));
    simt_asm_emit(a, A_ADD(T4, T4, T3));
    simt_asm_emit(a, A_ANDI(T1, T0, 15));
    simt_asm_emit(a, A_ADDI(T1, T1, 4));
    simt_asm_emit(a, A_ADDI(T2, T0, 0));
    simt_asm_label(a, 1);
    simt_asm_emit(a, A_MUL(T2, T2, T2));
    simt_asm_emit(a, A_ADDI(T2, T2, 3));
    simt_asm_emit(a, A_SW(T2, 2, -4));
    simt_asm_emit(a, A_LW(T5, 2, -4));
    simt_asm_emit(a, A_ADD(T2, T2, T5));
    simt_asm_emit(a, A_ADDI(T1, T1, -1));
    simt_asm_branch(a, RV_BNE, T1, 0, 1);
    simt_asm_emit(a, A_DIVU(T5, T2, T0));
    simt_asm_emit(a, A_ADD(T2, T2, T5));
    simt_asm_emit(a, A_SW(T2, T4, 0));
    simt_asm_emit(a, A_ECALL);
}

static uint32_t many_warps_value(uint32_t g) {
    uint32_t v = g;
    for (unsigned i = 0; i < (g & 15) + 4; i++) {
        v = v * v + 3;
        v += v;
    }
    return v + (g ? v / g : 0xffffffffu);
}

static void many_warps(void **state, unsigned nwarps, const char *name, uint64_t gap) {
    const char *cf = CONF(state);
    const simt_rtl_params p = params_of(cf);
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    many_warps_prog(a);
    load_asm(a);
    put32(PARAM, DATA);
    simt_launch *l = calloc(nwarps, sizeof *l);
    for (unsigned w = 0; w < nwarps; w++) /* blocks of two warps, the last warp of each odd block partial */
        l[w] = launch1(CODE, PARAM, (w / 2) % 2 && (w & 1) ? 0x0000ffffu : 0xffffffffu, w / 2, w % 2, 64,
                       (nwarps + 1) / 2);
    simt_run_result res;
    run(name, cf, l, nwarps, 4, 85, 4, gap, &res);
    for (unsigned w = 0; w < nwarps; w++) {
        expect_end(&res, w, false, 0, 0);
        for (unsigned t = 0; t < 32; t++)
            if (l[w].live >> t & 1) assert_int_equal(rtl32(DATA + 4 * (32 * w + t)), many_warps_value(32 * w + t));
    }
    if (nwarps <= p.nw && res.max_warps != nwarps)
        fail_msg("%s: %u warps launched, at most %u in the core at once", name, nwarps, res.max_warps);
    if (nwarps > p.nw && res.max_warps != p.nw)
        fail_msg("%s: %u warps launched on %u slots, at most %u in the core at once", name, nwarps, p.nw,
                 res.max_warps);
    free(l);
    free(a);
}

static void t_all_slots(void **state) { many_warps(state, params_of(CONF(state)).nw, "all_slots", 0); }
static void t_more_warps(void **state) { many_warps(state, 2 * params_of(CONF(state)).nw + 1, "more_warps", 3); }

/* every id CSR of warp 1 of block 3 (of 64 threads; ids y, z of the grid
 * arbitrary), the barrier CSR's read, and the counters (not compared, taken
 * from the RTL; cycle and instret grow) */
static void t_csrs(void **state) {
    const char *cf = CONF(state);
    const simt_rtl_params p = params_of(cf);
    static const uint16_t csr[] = {0xCC0, 0xCC1, 0xCC2, 0xCC3, 0xCC4, 0xCC5, 0xCC6, 0xCC7,
                                   0xCC8, 0xCC9, 0xCCA, 0xCCB, 0xCCC, 0xCCD, 0xCCE, 0xCCF, 0x8C0};
    const unsigned nc = sizeof csr / sizeof csr[0];
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_LANEID));
    simt_asm_emit(a, A_LW(T4, A0, 0));
    simt_asm_emit(a, A_ADDI(T1, 0, 4 * 32));
    simt_asm_emit(a, A_MUL(T3, T0, T1));
    simt_asm_emit(a, A_ADD(T4, T4, T3)); /* 32 words per thread */
    for (unsigned i = 0; i < nc; i++) {
        simt_asm_emit(a, A_CSRR(T2, csr[i]));
        simt_asm_emit(a, A_SW(T2, T4, (int32_t)(4 * i)));
    }
    static const uint16_t cnt[] = {0xC00, 0xC01, 0xC02, 0xC80, 0xC81, 0xC82, 0xC00, 0xC02};
    for (unsigned i = 0; i < 8; i++) {
        simt_asm_emit(a, A_CSRR(T2, cnt[i]));
        simt_asm_emit(a, A_SW(T2, T4, (int32_t)(4 * (nc + i))));
    }
    simt_asm_emit(a, A_ECALL);
    load_asm(a);
    put32(PARAM, DATA);
    simt_launch l = launch1(CODE, PARAM, 0xffffffffu, 3, 1, 64, 5);
    l.ctaid[1] = 7;
    l.ctaid[2] = 9;
    l.nctaid[1] = 8;
    l.nctaid[2] = 10;
    l.shmem = 0x123;
    simt_run_result res;
    run("csrs", cf, &l, 1, 2, 100, 5, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    for (unsigned t = 0; t < 32; t++) {
        const uint32_t b = DATA + 128 * t;
        const uint32_t want[] = {32 + t, 0, 0, 3, 7, 9, 64, 1, 1, 5, 8, 10, t, 1, p.core_id, 0x123, 0};
        for (unsigned i = 0; i < nc; i++)
            if (rtl32(b + 4 * i) != want[i])
                fail_msg("thread %u CSR 0x%03x: 0x%08x, expected 0x%08x", t, csr[i], rtl32(b + 4 * i), want[i]);
        if (rtl32(b + 4 * (nc + 6)) <= rtl32(b + 4 * nc) || rtl32(b + 4 * (nc + 7)) <= rtl32(b + 4 * (nc + 2)))
            fail_msg("thread %u: cycle or instret did not grow", t);
    }
    free(a);
}

/* ------------------------------------------------------------ atomics */

#define S1 9
#define A1 11
#define A2 12
#define A3 13
#define A4 14
#define A5 15

/* The full warp's atomics on one word and on each other's words, in thread
 * order (docs/SIMT_RTL.md "Atomics"): out[k][t] = what thread t's k-th
 * atomic returned.  Layout from the out base: 12 result arrays of 32 words
 * at 0x80 * k, the words C, S, M at 0x600, W[32] at 0x700, V[32] at 0x780. */
enum { AW_C = 0x600, AW_S = 0x604, AW_M = 0x608, AW_W = 0x700, AW_V = 0x780 };

static void amo_warp_prog(simt_asm *a) {
    simt_asm_init(a, CODE);
    prologue_out(a);
    simt_asm_emit(a, A_LW(A1, A0, 0));
    /* 0: amoadd tid + 1 on C */
    simt_asm_emit(a, A_ADDI(T1, T0, 1));
    simt_asm_emit(a, A_ADDI(T2, A1, AW_C));
    simt_asm_emit(a, A_AMO(RV_AMOADD, T3, T1, T2));
    simt_asm_emit(a, A_SW(T3, T4, 0x000));
    /* 1: amoswap tid + 100 on S */
    simt_asm_emit(a, A_ADDI(T1, T0, 100));
    simt_asm_emit(a, A_ADDI(T2, A1, AW_S));
    simt_asm_emit(a, A_AMO(RV_AMOSWAP, T3, T1, T2));
    simt_asm_emit(a, A_SW(T3, T4, 0x080));
    /* 2: amomax (tid * 37 & 63) - 32 on M */
    simt_asm_emit(a, A_ADDI(T1, 0, 37));
    simt_asm_emit(a, A_MUL(T1, T0, T1));
    simt_asm_emit(a, A_ANDI(T1, T1, 63));
    simt_asm_emit(a, A_ADDI(T1, T1, -32));
    simt_asm_emit(a, A_ADDI(T2, A1, AW_M));
    simt_asm_emit(a, A_AMO(RV_AMOMAX, T3, T1, T2));
    simt_asm_emit(a, A_SW(T3, T4, 0x100));
    simt_asm_emit(a, A_ADDI(A2, A1, AW_W));
    /* 3: amoor 1 << tid on W[tid >> 2] */
    simt_asm_emit(a, A_SRLI(T1, T0, 2));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T2, A2, T1));
    simt_asm_emit(a, A_ADDI(T3, 0, 1));
    simt_asm_emit(a, A_SLL(T3, T3, T0));
    simt_asm_emit(a, A_AMO(RV_AMOOR, T5, T3, T2));
    simt_asm_emit(a, A_SW(T5, T4, 0x180));
    /* 4: amoand ~(1 << tid) on W[(tid + 1) & 31] */
    simt_asm_emit(a, A_ADDI(T1, T0, 1));
    simt_asm_emit(a, A_ANDI(T1, T1, 31));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T2, A2, T1));
    simt_asm_emit(a, A_XORI(T3, T3, -1));
    simt_asm_emit(a, A_AMO(RV_AMOAND, T5, T3, T2));
    simt_asm_emit(a, A_SW(T5, T4, 0x200));
    /* 5: amominu tid << 27 on W[tid * 7 & 31] */
    simt_asm_emit(a, A_ADDI(T1, 0, 7));
    simt_asm_emit(a, A_MUL(T1, T0, T1));
    simt_asm_emit(a, A_ANDI(T1, T1, 31));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T2, A2, T1));
    simt_asm_emit(a, A_SLLI(T3, T0, 27));
    simt_asm_emit(a, A_AMO(RV_AMOMINU, T5, T3, T2));
    simt_asm_emit(a, A_SW(T5, T4, 0x280));
    /* 6: amomin (tid - 16) << 26 on W[tid ^ 3] */
    simt_asm_emit(a, A_XORI(T1, T0, 3));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T2, A2, T1));
    simt_asm_emit(a, A_ADDI(T3, T0, -16));
    simt_asm_emit(a, A_SLLI(T3, T3, 26));
    simt_asm_emit(a, A_AMO(RV_AMOMIN, T5, T3, T2));
    simt_asm_emit(a, A_SW(T5, T4, 0x300));
    /* amoxor tid * 0x9e3779b9 on W[31 - tid], rd = x0 */
    simt_asm_emit(a, A_ADDI(T1, 0, 31));
    simt_asm_emit(a, A_SUB(T1, T1, T0));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T2, A2, T1));
    simt_asm_li(a, T3, 0x9e3779b9u);
    simt_asm_emit(a, A_MUL(T3, T3, T0));
    simt_asm_emit(a, A_AMO(RV_AMOXOR, 0, T3, T2));
    /* 7: amomaxu tid * 0x12345 on W[(tid + 5) & 31] */
    simt_asm_emit(a, A_ADDI(T1, T0, 5));
    simt_asm_emit(a, A_ANDI(T1, T1, 31));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T2, A2, T1));
    simt_asm_li(a, T3, 0x12345u);
    simt_asm_emit(a, A_MUL(T3, T3, T0));
    simt_asm_emit(a, A_AMO(RV_AMOMAXU, T5, T3, T2));
    simt_asm_emit(a, A_SW(T5, T4, 0x380));
    /* 8: the odd threads only: amoadd 1000 on C */
    simt_asm_emit(a, A_ANDI(T1, T0, 1));
    simt_asm_branch(a, RV_BEQ, T1, 0, 1);
    simt_asm_emit(a, A_ADDI(T2, A1, AW_C));
    simt_asm_emit(a, A_ADDI(T3, 0, 1000));
    simt_asm_emit(a, A_AMO(RV_AMOADD, T5, T3, T2));
    simt_asm_emit(a, A_SW(T5, T4, 0x400));
    simt_asm_label(a, 1);
    /* 9: amoadd tid on the thread's stack word (3 * tid), plus the word after */
    simt_asm_emit(a, A_ADD(T1, T0, T0));
    simt_asm_emit(a, A_ADD(T1, T1, T0));
    simt_asm_emit(a, A_SW(T1, 2, -4));
    simt_asm_emit(a, A_ADDI(T2, 2, -4));
    simt_asm_emit(a, A_AMO(RV_AMOADD, T5, T0, T2));
    simt_asm_emit(a, A_LW(T6, 2, -4));
    simt_asm_emit(a, A_ADD(T5, T5, T6));
    simt_asm_emit(a, A_SW(T5, T4, 0x480));
    /* 10: amoswap rd = rs1 = rs2 = &V[tid] */
    simt_asm_emit(a, A_ADDI(T2, A1, AW_V));
    simt_asm_emit(a, A_SLLI(T1, T0, 2));
    simt_asm_emit(a, A_ADD(T2, T2, T1));
    simt_asm_emit(a, A_AMO(RV_AMOSWAP, T2, T2, T2));
    simt_asm_emit(a, A_SW(T2, T4, 0x500));
    simt_asm_emit(a, A_ECALL);
}

static uint32_t aw_w0(unsigned k) { return 0x0f0f0000u ^ (k * 0x01030507u); }

/* what amo_warp_prog leaves, by thread order over the live threads */
static void amo_warp_expect(uint32_t live, uint32_t out[11][32], uint32_t *c, uint32_t *sw, uint32_t *m,
                            uint32_t w[32]) {
    *c = 1000;
    *sw = 0xabc;
    *m = (uint32_t)-40;
    for (unsigned k = 0; k < 32; k++) w[k] = aw_w0(k);
    memset(out, 0, 11 * 32 * sizeof out[0][0]);
#define EACH for (unsigned t = 0; t < 32; t++) if (live >> t & 1)
    EACH { out[0][t] = *c; *c += t + 1; }
    EACH { out[1][t] = *sw; *sw = t + 100; }
    EACH {
        const int32_t v = (int32_t)((t * 37) & 63) - 32;
        out[2][t] = *m;
        if (v > (int32_t)*m) *m = (uint32_t)v;
    }
    EACH { out[3][t] = w[t >> 2]; w[t >> 2] |= 1u << t; }
    EACH { out[4][t] = w[(t + 1) & 31]; w[(t + 1) & 31] &= ~(1u << t); }
    EACH {
        uint32_t *p = &w[(t * 7) & 31], v = t << 27;
        out[5][t] = *p;
        if (v < *p) *p = v;
    }
    EACH {
        uint32_t *p = &w[t ^ 3], v = (uint32_t)((int32_t)t - 16) << 26;
        out[6][t] = *p;
        if ((int32_t)v < (int32_t)*p) *p = v;
    }
    EACH w[31 - t] ^= t * 0x9e3779b9u;
    EACH {
        uint32_t *p = &w[(t + 5) & 31], v = t * 0x12345u;
        out[7][t] = *p;
        if (v > *p) *p = v;
    }
    EACH if (t & 1) { out[8][t] = *c; *c += 1000; }
    EACH out[9][t] = 3 * t + 4 * t;
    EACH out[10][t] = 0x1000u + t;
#undef EACH
}

static void amo_warp_run(const char *cf, uint32_t live) {
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    amo_warp_prog(a);
    load_asm(a);
    put32(PARAM, DATA);
    put32(DATA + AW_C, 1000);
    put32(DATA + AW_S, 0xabc);
    put32(DATA + AW_M, (uint32_t)-40);
    for (unsigned k = 0; k < 32; k++) {
        put32(DATA + AW_W + 4 * k, aw_w0(k));
        put32(DATA + AW_V + 4 * k, 0x1000u + k);
    }
    const simt_launch l = launch1(CODE, PARAM, live, 0, 0, 32, 1);
    simt_run_result res;
    run("amo_warp", cf, &l, 1, 4, 80, 8, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    uint32_t out[11][32], c, sw, m, w[32];
    amo_warp_expect(live, out, &c, &sw, &m, w);
    for (unsigned k = 0; k < 11; k++)
        for (unsigned t = 0; t < 32; t++)
            if (rtl32(DATA + 0x80 * k + 4 * t) != out[k][t])
                fail_msg("amo_warp live 0x%08x: thread %u's atomic %u returned 0x%08x, expected 0x%08x", live, t, k,
                         rtl32(DATA + 0x80 * k + 4 * t), out[k][t]);
    if (rtl32(DATA + AW_C) != c || rtl32(DATA + AW_S) != sw || rtl32(DATA + AW_M) != m)
        fail_msg("amo_warp live 0x%08x: C S M = 0x%08x 0x%08x 0x%08x, expected 0x%08x 0x%08x 0x%08x", live,
                 rtl32(DATA + AW_C), rtl32(DATA + AW_S), rtl32(DATA + AW_M), c, sw, m);
    for (unsigned k = 0; k < 32; k++) {
        if (rtl32(DATA + AW_W + 4 * k) != w[k])
            fail_msg("amo_warp live 0x%08x: W[%u] = 0x%08x, expected 0x%08x", live, k, rtl32(DATA + AW_W + 4 * k),
                     w[k]);
        const uint32_t v = (live >> k & 1) ? DATA + AW_V + 4 * k : 0x1000u + k;
        if (rtl32(DATA + AW_V + 4 * k) != v)
            fail_msg("amo_warp live 0x%08x: V[%u] = 0x%08x, expected 0x%08x", live, k, rtl32(DATA + AW_V + 4 * k), v);
    }
    free(a);
}

static void t_amo_warp(void **state) {
    amo_warp_run(CONF(state), 0xffffffffu);
    amo_warp_run(CONF(state), 0x7fe1ff5eu);
}

/* LR / SC (docs/SIMT_RTL.md "Atomics"), two warps of one block contending:
 *   A  memc_get's shared-lock increment (sw/kernels/memc_get.c): read the
 *      lock, LR, compare, SC old + 1, again on failure; in each round of a
 *      warp only its lowest thread still trying can succeed;
 *   B  an exclusive spin lock (LR, SC 1; waiting threads branch forward, so
 *      that the min-PC holder runs) around a plain read-modify-write of a
 *      counter, by the threads with tid % 3 != 0: tickets 0..n-1, once each;
 *   C  SC without LR, after an LR of another word, after a second LR of
 *      another word, twice after one LR (both times finding the reserved
 *      value), after a failed SC; an SC that finds its reserved value again
 *      after a store of that value (succeeds: the reservation is the value)
 *      and one after an AMO changed it (fails).
 * Param block per warp: [0] its out base, [1] the shared words. */
enum { LK_A = 0x000, LK_AF = 0x080, LK_B = 0x100, LK_C = 0x180, LK_Z = 0x600, LK_Z2 = 0x604, LK_P = 0x700,
       LK_Q = 0x780 };
enum { SH_L1 = 0x0, SH_L2 = 0x4, SH_CNT = 0x8, SH_LIST = 0x100 };
#define LK_SHARED (DATA + 0x4000)

static void lrsc_prologue(simt_asm *a) {
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_TID_X));
    simt_asm_emit(a, A_LW(A1, A0, 0));
    simt_asm_emit(a, A_LW(A2, A0, 4));
    simt_asm_emit(a, A_ANDI(T1, T0, 31));
    simt_asm_emit(a, A_SLLI(T1, T1, 2));
    simt_asm_emit(a, A_ADD(T4, A1, T1));     /* this thread's result words */
    simt_asm_emit(a, A_ADDI(A3, T4, LK_P));  /* P[lane] */
}

static void lrsc_lock_prog(simt_asm *a) {
    lrsc_prologue(a);
    /* C1: an SC first thing after the launch: no reservation */
    simt_asm_emit(a, A_SC(T5, T0, A3));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x000));
    /* A */
    simt_asm_emit(a, A_ADDI(T2, A2, SH_L1));
    simt_asm_emit(a, A_ADDI(S0, 0, 0));
    simt_asm_emit(a, A_ADDI(A4, 0, -1)); /* memc_get's MEMC_PRIVATE_LOCK: never there */
    simt_asm_label(a, 1);
    simt_asm_emit(a, A_LW(T1, T2, 0));
    simt_asm_branch(a, RV_BEQ, T1, A4, 1);
    simt_asm_emit(a, A_LR(T5, T2));
    simt_asm_branch(a, RV_BNE, T5, T1, 1);
    simt_asm_emit(a, A_ADDI(T3, T1, 1));
    simt_asm_emit(a, A_SC(T5, T3, T2));
    simt_asm_branch(a, RV_BEQ, T5, 0, 2);
    simt_asm_emit(a, A_ADDI(S0, S0, 1));
    simt_asm_jal(a, 0, 1);
    simt_asm_label(a, 2);
    simt_asm_emit(a, A_SW(T1, T4, LK_A));
    simt_asm_emit(a, A_SW(S0, T4, LK_AF));
    /* B */
    simt_asm_emit(a, A_ADDI(T1, 0, 3));
    simt_asm_emit(a, A_REM(T1, T0, T1));
    simt_asm_branch(a, RV_BEQ, T1, 0, 5);
    simt_asm_emit(a, A_ADDI(T2, A2, SH_L2));
    simt_asm_emit(a, A_ADDI(A5, 0, 1));
    simt_asm_label(a, 3);
    simt_asm_emit(a, A_LR(T5, T2));
    simt_asm_branch(a, RV_BNE, T5, 0, 4);
    simt_asm_emit(a, A_SC(T5, A5, T2));
    simt_asm_branch(a, RV_BNE, T5, 0, 4);
    simt_asm_emit(a, A_LW(T1, A2, SH_CNT)); /* held: a plain read-modify-write */
    simt_asm_emit(a, A_SLLI(T3, T1, 2));
    simt_asm_emit(a, A_ADD(T3, A2, T3));
    simt_asm_emit(a, A_SW(T0, T3, SH_LIST));
    simt_asm_emit(a, A_SW(T1, T4, LK_B));
    simt_asm_emit(a, A_ADDI(T1, T1, 1));
    simt_asm_emit(a, A_SW(T1, A2, SH_CNT));
    simt_asm_emit(a, A_AMO(RV_AMOSWAP, 0, 0, T2)); /* release */
    simt_asm_jal(a, 0, 5);
    simt_asm_label(a, 4);
    simt_asm_jal(a, 0, 3);
    simt_asm_label(a, 5);
    /* C2: LR P, SC Q */
    simt_asm_emit(a, A_ADDI(A4, T4, LK_Q));
    simt_asm_emit(a, A_LR(T5, A3));
    simt_asm_emit(a, A_SC(T5, T0, A4));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x080));
    /* C3: LR P, LR Q, SC P */
    simt_asm_emit(a, A_LR(T5, A3));
    simt_asm_emit(a, A_LR(T5, A4));
    simt_asm_emit(a, A_SC(T5, T0, A3));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x100));
    /* C4: LR P, SC P of the value read (succeeds), the same SC again (the
     * word still holds the value, the reservation is gone): 0 + 2 * 1; then
     * an SC of P after a failed SC of Q: 1; then LR, SC P = tid + 500: 0 + P */
    simt_asm_emit(a, A_LR(T1, A3));
    simt_asm_emit(a, A_SC(T5, T1, A3));
    simt_asm_emit(a, A_SC(T6, T1, A3));
    simt_asm_emit(a, A_ADD(T6, T6, T6));
    simt_asm_emit(a, A_ADD(T5, T5, T6));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x180));
    simt_asm_emit(a, A_LR(T1, A3));
    simt_asm_emit(a, A_SC(T5, T1, A4));
    simt_asm_emit(a, A_ADDI(T1, T0, 500));
    simt_asm_emit(a, A_SC(T5, T1, A3));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x300));
    simt_asm_emit(a, A_LR(T6, A3));
    simt_asm_emit(a, A_SC(T5, T1, A3));
    simt_asm_emit(a, A_LW(T6, A3, 0));
    simt_asm_emit(a, A_ADD(T5, T5, T6));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x380));
    /* C5: all LR Z (5); lane 31 stores 5 there; all SC Z: the first succeeds */
    simt_asm_emit(a, A_ADDI(T2, A1, LK_Z));
    simt_asm_emit(a, A_LR(T5, T2));
    simt_asm_emit(a, A_ANDI(T1, T0, 31));
    simt_asm_emit(a, A_ADDI(T3, 0, 31));
    simt_asm_branch(a, RV_BNE, T1, T3, 6);
    simt_asm_emit(a, A_ADDI(T3, 0, 5));
    simt_asm_emit(a, A_SW(T3, T2, 0));
    simt_asm_label(a, 6);
    simt_asm_emit(a, A_ADDI(T1, T0, 100));
    simt_asm_emit(a, A_SC(T5, T1, T2));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x200));
    /* C6: all LR Z2 (7); lane 31 adds 1 by an AMO; all SC Z2: none succeeds */
    simt_asm_emit(a, A_ADDI(T2, A1, LK_Z2));
    simt_asm_emit(a, A_LR(T5, T2));
    simt_asm_emit(a, A_ANDI(T1, T0, 31));
    simt_asm_emit(a, A_ADDI(T3, 0, 31));
    simt_asm_branch(a, RV_BNE, T1, T3, 7);
    simt_asm_emit(a, A_ADDI(T3, 0, 1));
    simt_asm_emit(a, A_AMO(RV_AMOADD, 0, T3, T2));
    simt_asm_label(a, 7);
    simt_asm_emit(a, A_SC(T5, T0, T2));
    simt_asm_emit(a, A_SW(T5, T4, LK_C + 0x280));
    simt_asm_emit(a, A_ECALL);
}

static void lrsc_lock_run(const char *cf, const char *name, const uint32_t live[2]) {
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    lrsc_lock_prog(a);
    load_asm(a);
    simt_launch l[2];
    for (unsigned w = 0; w < 2; w++) {
        put32(PARAM + 16 * w, DATA + 0x1000 * w);
        put32(PARAM + 16 * w + 4, LK_SHARED);
        put32(DATA + 0x1000 * w + LK_Z, 5);
        put32(DATA + 0x1000 * w + LK_Z2, 7);
        l[w] = launch1(CODE, PARAM + 16 * w, live[w], 0, w, 64, 1);
    }
    simt_run_result res;
    run(name, cf, l, 2, 3, 85, 9, 0, &res);
    unsigned n = 0, nb = 0;
    uint8_t seen_a[64] = {0}, seen_b[64] = {0};
    for (unsigned w = 0; w < 2; w++) {
        expect_end(&res, w, false, 0, 0);
        const uint32_t o = DATA + 0x1000 * w;
        unsigned rank = 0, first = 32;
        uint32_t prev = 0;
        for (unsigned t = 0; t < 32; t++) {
            if (!(live[w] >> t & 1)) continue;
            const uint32_t g = 32 * w + t, va = rtl32(o + LK_A + 4 * t), fails = rtl32(o + LK_AF + 4 * t);
            if (first == 32) first = t;
            /* A: a warp's threads get the lock in thread order, the k-th after at least k failed SCs */
            if (va >= 64 || seen_a[va]++ || (rank && va <= prev) || fails < rank)
                fail_msg("%s A: warp %u thread %u saw %u after %u failures (rank %u in its warp)", name, w, t, va,
                         fails, rank);
            prev = va;
            rank++;
            n++;
            if (g % 3) {
                const uint32_t tk = rtl32(o + LK_B + 4 * t);
                if (tk >= 64 || seen_b[tk]++ || rtl32(LK_SHARED + SH_LIST + 4 * tk) != g)
                    fail_msg("%s B: thread %u got ticket %u (list there: %u)", name, g, tk,
                             tk < 64 ? rtl32(LK_SHARED + SH_LIST + 4 * tk) : 0);
                nb++;
            }
            const uint32_t c5 = t == first ? 0 : 1, c6 = (live[w] >> 31 & 1) ? 1 : t == first ? 0 : 1;
            const uint32_t want[8] = {1, 1, 1, 2, c5, c6, 1, g + 500}; /* C7, C8 (P) */
            for (unsigned k = 0; k < 8; k++)
                if (rtl32(o + LK_C + 0x80 * k + 4 * t) != want[k])
                    fail_msg("%s C%u: warp %u thread %u's SC gave %u, expected %u", name, k + 1, w, t,
                             rtl32(o + LK_C + 0x80 * k + 4 * t), want[k]);
        }
        const uint32_t z = 100 + 32 * w + first, z2 = (live[w] >> 31 & 1) ? 8 : 32 * w + first;
        if (rtl32(o + LK_Z) != z || rtl32(o + LK_Z2) != z2)
            fail_msg("%s: warp %u Z Z2 = %u %u, expected %u %u", name, w, rtl32(o + LK_Z), rtl32(o + LK_Z2), z, z2);
    }
    if (rtl32(LK_SHARED + SH_L1) != n || rtl32(LK_SHARED + SH_L2) != 0 || rtl32(LK_SHARED + SH_CNT) != nb)
        fail_msg("%s: L1 L2 count = %u %u %u, expected %u 0 %u", name, rtl32(LK_SHARED + SH_L1),
                 rtl32(LK_SHARED + SH_L2), rtl32(LK_SHARED + SH_CNT), n, nb);
    free(a);
}

/* two full-ish warps; then a few threads of each (lane 31 in one of them
 * only), short enough for the Icarus replay (rec_tests) */
static void t_lrsc_lock(void **state) {
    static const uint32_t big[2] = {0xffffffffu, 0x57ff3ffeu}, small[2] = {0x80000107u, 0x00000042u};
    lrsc_lock_run(CONF(state), "lrsc_lock", big);
    lrsc_lock_run(CONF(state), "lrsc_lock_small", small);
}

/* A launch clears its slot's reservations: a warp leaves one on every
 * thread's word, ends; the next warp, in the same slot, SCs that word
 * (still holding the reserved value) without an LR of its own: it fails. */
static void t_lrsc_relaunch(void **state) {
    const char *cf = CONF(state);
    simt_asm *a = calloc(1, sizeof *a);
    mem_reset();
    simt_asm_init(a, CODE);
    lrsc_prologue(a);
    simt_asm_emit(a, A_LR(T5, A3));
    simt_asm_emit(a, A_ECALL);
    const uint32_t second = simt_asm_pc(a);
    lrsc_prologue(a);
    simt_asm_emit(a, A_SC(T5, T0, A3));
    simt_asm_emit(a, A_SW(T5, T4, LK_C));
    simt_asm_emit(a, A_ECALL);
    load_asm(a);
    put32(PARAM, DATA);
    put32(PARAM + 4, LK_SHARED);
    const simt_launch l[2] = {launch1(CODE, PARAM, 0xffffffffu, 0, 0, 32, 1),
                              launch1(second, PARAM, 0xffffffffu, 0, 0, 32, 1)};
    simt_run_result res;
    run("lrsc_relaunch", cf, l, 2, 2, 90, 10, 2000, &res);
    expect_end(&res, 0, false, 0, 0);
    expect_end(&res, 1, false, 0, 0);
    if (res.end[0].slot != res.end[1].slot)
        fail_msg("lrsc_relaunch: the second warp ran in slot %u, the first in %u (it had not ended)", res.end[1].slot,
                 res.end[0].slot);
    for (unsigned t = 0; t < 32; t++)
        if (rtl32(DATA + LK_C + 4 * t) != 1)
            fail_msg("lrsc_relaunch: thread %u's SC after a new launch gave %u, expected 1 (fail)", t,
                     rtl32(DATA + LK_C + 4 * t));
    free(a);
}

/* the compiled kernel tb/simt/kernels/simt_rtl_k.c (diverge), two warps */
static void t_kernel(void **state) {
    const char *cf = CONF(state);
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/tb/simt/simt_rtl_k.elf", fg_build_dir());
    mem_reset();
    simt_elf_image im;
    if (simt_elf_load(&rtl_mem, path, CODE, "diverge", &im, err, sizeof err) ||
        simt_elf_load(&ref_mem, path, CODE, "diverge", &im, err, sizeof err))
        fail_msg("%s", err);
    const simt_launch l[2] = {launch1(im.entry, DATA, 0xffffffffu, 0, 0, 64, 1),
                              launch1(im.entry, DATA, 0xffffffffu, 0, 1, 64, 1)};
    simt_run_result res;
    run("kernel", cf, l, 2, 6, 80, 6, 0, &res);
    expect_end(&res, 0, false, 0, 0);
    expect_end(&res, 1, false, 0, 0);
    unsigned written = 0;
    for (unsigned t = 0; t < 64; t++) written += rtl32(DATA + 4 * t) != 0;
    if (written < 40) fail_msg("kernel: only %u of 64 threads wrote their word", written);
}

/* Faults: one warp per case, each stopping on its own; the code and pc as
 * the case expects (and as the reference has them). */
typedef struct {
    const char *what;
    unsigned code;
    uint32_t pc;
    uint32_t entry, live;
} fault_case;

static void t_faults(void **state) {
    const char *cf = CONF(state);
    const simt_rtl_params p = params_of(cf);
    simt_asm *a = calloc(1, sizeof *a);
    fault_case fc[40];
    unsigned n = 0;
    mem_reset();
    simt_asm_init(a, CODE);
#define CASE(w, c, live_)                                                                                       \
    do {                                                                                                        \
        simt_asm_emit(a, A_NOP); /* a gap: no case runs into the next */                                        \
        fc[n] = (fault_case){(w), (c), 0, simt_asm_pc(a), (live_)};                                             \
    } while (0)
#define AT() (fc[n].pc = simt_asm_pc(a))
#define END() (n++)
    CASE("all ones", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    simt_asm_emit(a, A_ADDI(T0, 0, 1));
    AT(); simt_asm_emit(a, 0xffffffffu); END();
    CASE("flw (F)", SIMT_FAULT_ILLEGAL, 0x1u);
    AT(); simt_asm_emit(a, rv_i(0, A0, 2, 0, 0x07)); END();
    CASE("fadd.s (F)", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, rv_r(0, 2, 1, 7, 3, 0x53)); END();
    CASE("lr.w with rs2 != 0 (reserved)", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, A_AMO(RV_LR, T1, T0, A0)); END();
    CASE("amo funct5 0x05 (no such AMO)", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, A_AMO(0x05, T1, T0, A0)); END();
    CASE("amoadd.d (no RV64A)", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, rv_r(RV_AMOADD << 2, T0, A0, 3, T1, 0x2f)); END();
    CASE("compressed", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, 0x00010001u); END();
    CASE("ebreak", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, A_EBREAK); END();
    CASE("F/E load (custom-0)", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    AT(); simt_asm_emit(a, rv_r(0, 0, A0, 2, T1, 0x0b)); END();
    CASE("csrw tid.x (read-only)", SIMT_FAULT_CSR, 0xffffffffu);
    AT(); simt_asm_emit(a, A_CSRRW(0, FG_CSR_TID_X, T0)); END();
    CASE("csrs cycle (read-only)", SIMT_FAULT_CSR, 0xffffffffu);
    simt_asm_emit(a, A_ADDI(T0, 0, 4));
    AT(); simt_asm_emit(a, A_CSRRS(T1, 0xC00, T0)); END();
    CASE("csrr fflags (no F here)", SIMT_FAULT_CSR, 0xffffffffu);
    AT(); simt_asm_emit(a, A_CSRR(T1, 0x001)); END();
    CASE("csrr 0x7c0 (no such CSR)", SIMT_FAULT_CSR, 0xffffffffu);
    AT(); simt_asm_emit(a, A_CSRR(T1, 0x7C0)); END();
    CASE("misaligned lw", SIMT_FAULT_ALIGN, 0xffffffffu);
    simt_asm_emit(a, A_LW(T1, A0, 0));
    AT(); simt_asm_emit(a, A_LW(T2, A0, 2)); END();
    CASE("misaligned sh", SIMT_FAULT_ALIGN, 0xffffffffu);
    AT(); simt_asm_emit(a, A_SH(T0, 2, -3)); END();
    CASE("misaligned amoadd.w", SIMT_FAULT_ALIGN, 0xffffffffu);
    simt_asm_emit(a, A_ADDI(T2, A0, 2));
    AT(); simt_asm_emit(a, A_AMO(RV_AMOADD, T1, T0, T2)); END();
    CASE("misaligned sc.w after lr.w", SIMT_FAULT_ALIGN, 0xffffffffu);
    simt_asm_emit(a, A_LR(T1, A0));
    simt_asm_emit(a, A_ADDI(T2, A0, 1));
    AT(); simt_asm_emit(a, A_SC(T1, T0, T2)); END();
    CASE("amoswap.w to the null guard", SIMT_FAULT_ADDR, 0xffffffffu);
    simt_asm_emit(a, A_ADDI(T2, 0, 0x40));
    AT(); simt_asm_emit(a, A_AMO(RV_AMOSWAP, T1, T0, T2)); END();
    CASE("lr.w at the local top", SIMT_FAULT_ADDR, 0xffffffffu);
    AT(); simt_asm_emit(a, A_LR(T1, 2)); END();
    CASE("amoor.w: threads 0..19 on their words, 20..31 misaligned", SIMT_FAULT_ALIGN, 0xffffffffu);
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_TID_X));
    simt_asm_emit(a, A_SLTI(T1, T0, 20));
    simt_asm_emit(a, A_XORI(T1, T1, 1));      /* 1 from thread 20 on */
    simt_asm_emit(a, A_SLLI(T3, T0, 2));
    simt_asm_emit(a, A_ADD(T2, A0, T3));
    simt_asm_emit(a, A_ADD(T2, T2, T1));
    simt_asm_emit(a, A_ADDI(T2, T2, 0x400));
    simt_asm_emit(a, A_ADDI(T3, 0, -1));
    AT(); simt_asm_emit(a, A_AMO(RV_AMOOR, T1, T3, T2)); END();
    CASE("sw to the null guard", SIMT_FAULT_ADDR, 0xffffffffu);
    AT(); simt_asm_emit(a, A_SW(T0, 0, 16)); END();
    CASE("lw from shared memory", SIMT_FAULT_ADDR, 0xffffffffu);
    simt_asm_emit(a, A_LUI(T0, 0xC0000));
    AT(); simt_asm_emit(a, A_LW(T1, T0, 0)); END();
    CASE("lw below the local window", SIMT_FAULT_ADDR, 0xffffffffu);
    simt_asm_li(a, T0, FG_LOCAL_TOP - p.stack_bytes - 4);
    AT(); simt_asm_emit(a, A_LW(T1, T0, 0)); END();
    CASE("sw at the local top", SIMT_FAULT_ADDR, 0xffffffffu);
    AT(); simt_asm_emit(a, A_SW(T0, 2, 0)); END();
    CASE("sw to the null guard by threads 20..31 only", SIMT_FAULT_ADDR, 0xffffffffu);
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_TID_X));
    simt_asm_emit(a, A_SLTI(T1, T0, 20));
    simt_asm_emit(a, A_SUB(T1, 0, T1));       /* -1 below 20, else 0 */
    simt_asm_emit(a, A_AND(T2, A0, T1));      /* DATA, or 0 */
    simt_asm_emit(a, A_SLLI(T3, T0, 2));
    simt_asm_emit(a, A_ADD(T2, T2, T3));
    AT(); simt_asm_emit(a, A_SW(T0, T2, 0x400)); END();
    CASE("jump to a misaligned pc", SIMT_FAULT_FETCH, 0xffffffffu);
    simt_asm_emit(a, A_AUIPC(T0, 0));
    fc[n].pc = simt_asm_pc(a) - 4 + 0x22;
    simt_asm_emit(a, A_JALR(T1, T0, 0x23)); END();
    CASE("jump into the null guard", SIMT_FAULT_FETCH, 0xffffffffu);
    fc[n].pc = 0x100;
    simt_asm_emit(a, A_JALR(0, 0, 0x100)); END();
    CASE("jump to shared memory", SIMT_FAULT_FETCH, 0xffffffffu);
    simt_asm_emit(a, A_LUI(T0, 0xC0000));
    fc[n].pc = 0xC0000000u;
    simt_asm_emit(a, A_JALR(0, T0, 0)); END();
    CASE("illegal in the odd threads' path", SIMT_FAULT_ILLEGAL, 0xffffffffu);
    simt_asm_emit(a, A_CSRR(T0, FG_CSR_TID_X));
    simt_asm_emit(a, A_ANDI(T0, T0, 1));
    simt_asm_emit(a, A_LW(T3, A0, 0)); /* a load in flight at the fault */
    simt_asm_branch(a, RV_BEQ, T0, 0, 20);
    AT(); simt_asm_emit(a, 0); END();
    simt_asm_label(a, 20);
    simt_asm_emit(a, A_ECALL);
#undef CASE
#undef AT
#undef END
    load_asm(a);
    put32(PARAM, DATA);
    simt_launch l[40];
    for (unsigned i = 0; i < n; i++) l[i] = launch1(fc[i].entry, DATA, fc[i].live, i, 0, 32, n);
    simt_run_result res;
    run("faults", cf, l, n, 3, 85, 7, 1, &res);
    for (unsigned i = 0; i < n; i++) {
        const simt_launch_end *e = &res.end[i];
        if (!e->faulted || e->fault_code != fc[i].code || e->fault_pc != fc[i].pc)
            fail_msg("%s: %s code %u pc 0x%08x, expected code %u pc 0x%08x", fc[i].what,
                     e->faulted ? "fault" : "no fault", e->fault_code, e->fault_pc, fc[i].code, fc[i].pc);
    }
    for (unsigned t = 0; t < 32; t++)
        if (rtl32(DATA + 0x400 + 4 * t)) fail_msg("a faulting store or atomic wrote thread %u's word", t);
    free(a);
}

/* --------------------------------------------------------------- random */

typedef struct {
    unsigned conf;
    uint64_t programs, cycles;
    simt_ls_stats st;
} rcase;

static rcase rand_cases[NCONF];

/* A random program set into both memories: nprog programs of min_items +
 * [0, span_items) items (with atomics: most of them, or all), nwarps
 * launches of them in blocks of 64 threads (partial warps among them), the
 * atomics' shared words seeded. */
static unsigned rand_set(simt_asm *a, uint64_t *rng, unsigned nprog, unsigned nwarps, unsigned min_items,
                         unsigned span_items, bool all_atomics, simt_launch *l) {
    uint32_t entry[3];
    for (unsigned i = 0; i < nprog && i < 3; i++) {
        char err[128];
        const simt_rand_opts o = {.items = min_items + simt_rng_below(rng, span_items),
                                  .barriers = simt_rng_below(rng, 3) != 0,
                                  .exits = simt_rng_below(rng, 2) != 0,
                                  .counters = simt_rng_below(rng, 4) == 0,
                                  .atomics = simt_rng_below(rng, 4) != 0 || all_atomics,
                                  .amo_base = RAND_AMO};
        simt_asm_init(a, RAND_CODE + 0x8000 * i);
        if (simt_rand_program(a, rng, &o, err, sizeof err)) fail_msg("%s", err);
        put(a->base, a->w, 4 * a->n);
        entry[i] = a->base;
    }
    put32(PARAM, RAND_DATA);
    const unsigned words = SIMT_RAND_COMMON_WORDS + SIMT_RAND_WARP_WORDS * ((nwarps + 1) / 2 * 2);
    for (unsigned i = 0; i < words; i++) put32(RAND_AMO + 4 * i, simt_rng_below(rng, 4) ? (uint32_t)simt_rng(rng) : 0);
    for (unsigned w = 0; w < nwarps; w++) {
        uint32_t live = 0xffffffffu;
        switch (simt_rng_below(rng, 4)) {
        case 0: live = (uint32_t)simt_rng(rng) | 1u; break;
        case 1: live = 0xffffffffu >> simt_rng_below(rng, 32); break;
        default: break;
        }
        l[w] = launch1(entry[simt_rng_below(rng, nprog)], PARAM, live, w / 2, w % 2, 64, (nwarps + 1) / 2);
        /* ids the programs only read */
        l[w].ctaid[1] = simt_rng_below(rng, 100);
        l[w].ctaid[2] = simt_rng_below(rng, 100);
        l[w].nctaid[1] = l[w].ctaid[1] + 1;
        l[w].nctaid[2] = l[w].ctaid[2] + 1;
        l[w].shmem = (uint32_t)simt_rng(rng);
    }
    return nwarps;
}

static void add_stats(simt_ls_stats *to, const simt_ls_stats *from) {
    const uint64_t *f = &from->instrs;
    uint64_t *t = &to->instrs;
    for (unsigned i = 0; i < sizeof *to / sizeof *t; i++) t[i] += f[i];
}

static void t_random(void **state) {
    rcase *rc = *state;
    const char *cf = configs[rc->conf];
    const simt_rtl_params p = params_of(cf);
    const uint64_t budget = fg_env_u64("FG_CYCLES", 0);
    simt_asm *a = calloc(1, sizeof *a);
    for (unsigned k = 0; budget ? rc->cycles < budget : k < SIMT_RAND_PROGRAMS; k++) {
        uint64_t rng = base_seed ^ (0x9e3779b97f4a7c15ull * (2 * k + 1 + 1000003ull * rc->conf));
        mem_reset();
        /* three programs, more warps of them than the slots */
        simt_launch l[40];
        const unsigned nwarps = rand_set(a, &rng, 3, p.nw + 1 + simt_rng_below(&rng, 4), 40, 160, false, l);
        static const unsigned ready[] = {100, 90, 60, 30};
        char name[64], wave[512], err[1024];
        snprintf(name, sizeof name, "random-%u", k);
        simt_run_cfg c = {.config = cf,
                          .wave = wave_path(cf, name, wave, sizeof wave),
                          .local_base = LOCAL_BASE,
                          .mem_seed = simt_rng(&rng),
                          .max_lat = 1 + simt_rng_below(&rng, 12),
                          .ready_pct = ready[simt_rng_below(&rng, 4)],
                          .max_cycles = MAX_CYCLES,
                          .launches = l,
                          .nlaunch = nwarps,
                          .launch_gap = simt_rng_below(&rng, 2) ? 0 : simt_rng_below(&rng, 30)};
        simt_run_result res;
        if (simt_lockstep_run(&c, &rtl_mem, &ref_mem, &res, err, sizeof err)) {
            printf("# random [%s]: program set %u of seed %" PRIu64 " failed (repeat with FG_SEED=%" PRIu64
                   " FG_XSEED=%" PRIu64 " FG_TEST='random %s')\n",
                   cf, k, base_seed, base_seed, simt_rtl_xseed(), cf);
            fail_msg("random [%s] FG_SEED=%" PRIu64 " set %u: %s", cf, base_seed, k, err);
        }
        for (unsigned w = 0; w < nwarps; w++)
            if (res.end[w].faulted)
                fail_msg("random [%s] FG_SEED=%" PRIu64 " set %u: warp %u faulted (code %u, pc 0x%08x): the generator"
                         " must not make faults", cf, base_seed, k, w, res.end[w].fault_code, res.end[w].fault_pc);
        rc->programs++;
        rc->cycles += res.cycles;
        add_stats(&rc->st, &res.st);
    }
    free(a);
}

/* One small random set (two programs, three warps), FG_SEED's: the Icarus
 * replay's random run (rec_tests). */
static void t_random_short(void **state) {
    const char *cf = CONF(state);
    simt_asm *a = calloc(1, sizeof *a);
    uint64_t rng = base_seed ^ 0x5107u;
    mem_reset();
    simt_launch l[3];
    const unsigned n = rand_set(a, &rng, 2, 2, 8, 8, true, l);
    simt_run_result res;
    run("random_short", cf, l, n, 5, 80, simt_rng(&rng), 0, &res);
    for (unsigned w = 0; w < n; w++)
        if (res.end[w].faulted)
            fail_msg("random_short [%s] FG_SEED=%" PRIu64 ": warp %u faulted (code %u, pc 0x%08x)", cf, base_seed, w,
                     res.end[w].fault_code, res.end[w].fault_pc);
    free(a);
}

/* --------------------------------------------------------------- checker */

/* The lockstep's checks fail on wrong beats: a tiny warp (two
 * instructions, one thread) against made-up retire beats. */
static void t_checker(void **state) {
    (void)state;
    simt_ref *ref = calloc(1, sizeof *ref);
    simt_lockstep *ls = calloc(1, sizeof *ls);
    mem_reset();
    put32(CODE, A_ADDI(T0, 0, 42));
    put32(CODE + 4, A_ECALL);
    put32(CODE + 8, 0xffffffffu);
    const simt_launch l = launch1(CODE, 0, 1, 0, 0, 32, 1);
    const simt_launch lbad = launch1(CODE + 8, 0, 1, 0, 0, 32, 1);
    struct {
        const char *what, *expect;
        simt_rtl_out beat;
        int then; /* 0: only the beat, 1: a done pulse, 2: a fault pulse (ILLEGAL at CODE + 8) */
        bool from_bad;
    } cases[] = {
        {"right", NULL, {.rvfi_valid = 1, .rvfi_pc = CODE, .rvfi_mask = 1, .rvfi_rd = T0, .rvfi_data = {42}}, 0, 0},
        {"value", "x5 of thread 0 rtl=0x0000002b ref=0x0000002a",
         {.rvfi_valid = 1, .rvfi_pc = CODE, .rvfi_mask = 1, .rvfi_rd = T0, .rvfi_data = {43}}, 0, 0},
        {"mask", "mask rtl=0x00000003 ref=0x00000001",
         {.rvfi_valid = 1, .rvfi_pc = CODE, .rvfi_mask = 3, .rvfi_rd = T0, .rvfi_data = {42}}, 0, 0},
        {"pc", "pc rtl=0x00010004 ref=0x00010000",
         {.rvfi_valid = 1, .rvfi_pc = CODE + 4, .rvfi_mask = 1, .rvfi_rd = T0, .rvfi_data = {42}}, 0, 0},
        {"rd", "rd rtl=x6 ref=x5", {.rvfi_valid = 1, .rvfi_pc = CODE, .rvfi_mask = 1, .rvfi_rd = T1}, 0, 0},
        {"early done", "done rtl=warp done ref=mask 0x00000001 still to run",
         {.rvfi_valid = 1, .rvfi_pc = CODE, .rvfi_mask = 1, .rvfi_rd = T0, .rvfi_data = {42}}, 1, 0},
        {"wrong fault", "fault rtl=ADDR at pc 0x00010008 ref=fault ILLEGAL", {0}, 2, 1},
        {"fault instead of retiring", "fault rtl=ADDR at pc 0x00010008 ref=retires", {0}, 2, 0},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        simt_ref_init(ref, &ref_mem, LOCAL_BASE, 1024, 0);
        simt_lockstep_free(ls);
        if (simt_lockstep_init(ls, ref, 8, 8)) fail_msg("out of memory");
        simt_lockstep_launch(ls, 0, 0, 0, cases[i].from_bad ? &lbad : &l);
        int rc = 0;
        simt_rtl_out b = cases[i].beat;
        if (b.rvfi_valid)
            for (unsigned pass = 0; pass < 4 && !rc; pass++) {
                b.rvfi_pass = pass;
                if (pass) memset(b.rvfi_data, 0, sizeof b.rvfi_data);
                rc = simt_lockstep_beat(ls, 10 + pass, &b);
            }
        if (!rc && cases[i].then == 1) rc = simt_lockstep_done(ls, 20, 0);
        if (!rc && cases[i].then == 2) rc = simt_lockstep_fault(ls, 20, 0, SIMT_FAULT_ADDR, CODE + 8);
        if (!cases[i].expect) {
            if (rc) fail_msg("checker %s: failed: %s", cases[i].what, ls->err);
            /* the same beat again: retired twice */
            b = cases[i].beat;
            if (!simt_lockstep_beat(ls, 30, &b) || !strstr(ls->err, "retired again"))
                fail_msg("checker: a second beat of order 0 pass 0 was not refused (%s)", ls->err);
            continue;
        }
        if (!rc || !strstr(ls->err, cases[i].expect) || !strstr(ls->err, "simt lockstep: first difference at cycle"))
            fail_msg("checker %s: expected \"%s\", got %s", cases[i].what, cases[i].expect,
                     rc ? ls->err : "no failure");
    }
    /* the memory images */
    simt_mem_wr32(&rtl_mem, DATA, 1);
    const int64_t d = simt_mem_diff(&rtl_mem, &ref_mem);
    if (d != (int64_t)DATA) fail_msg("checker: memory difference at 0x%08x found at %" PRId64, DATA, d);
    simt_lockstep_free(ls);
    free(ls);
    free(ref);
}

/* ------------------------------------------------------------------ main */

int main(void) {
    static char why[600], names[NCONF * 2 * MAX_RV + 64][96];
    static struct CMUnitTest tests[NCONF * 2 * MAX_RV + 64];
    static dcase dc[NCONF];
    if (simt_mem_init(&rtl_mem, MEM_BYTES) || simt_mem_init(&ref_mem, MEM_BYTES)) {
        fprintf(stderr, "test_simt_rtl: out of memory\n");
        return 1;
    }
    base_seed = fg_env_u64("FG_SEED", 1);
    ref_only = fg_env_u64("FG_SIMT_REF_ONLY", 0) != 0;
    printf("# random programs: FG_SEED=%" PRIu64 "; RTL initial state: FG_XSEED=%" PRIu64 "%s\n", base_seed,
           simt_rtl_xseed(), simt_rtl_xseed() ? "" : " (FG_XINIT=0: all zero)");
    unsigned n = 0;
    const char *dir = read_list(why, sizeof why);
    if (dir && !n_rv) snprintf(why, sizeof why, "no tests of rv32ui/um/ua under %s/isa", dir);
    if (!dir || !n_rv) {
        n_rv = 0;
        tests[n++] = (struct CMUnitTest){"conformance_not_checked", not_checked, NULL, NULL, why};
    } else {
        printf("# riscv-tests from %s\n", dir);
    }
    for (unsigned i = 0; i < n_rv; i++, n++) {
        snprintf(names[n], sizeof names[n], "%s %.15s-%.47s %s", configs[rv_cases[i].conf], rv_cases[i].suite,
                 rv_cases[i].name, rv_cases[i].threads == 1 ? "1-thread" : "warp");
        tests[n] = (struct CMUnitTest){names[n], conformance, NULL, NULL, &rv_cases[i]};
    }
    static const struct {
        const char *name;
        CMUnitTestFunction fn;
    } directed[] = {{"if_else", t_if_else},     {"loops", t_loops},         {"early_exit", t_early_exit},
                    {"barrier", t_barrier},     {"all_slots", t_all_slots}, {"more_warps", t_more_warps},
                    {"csrs", t_csrs},           {"kernel", t_kernel},       {"amo_warp", t_amo_warp},
                    {"lrsc_lock", t_lrsc_lock}, {"lrsc_relaunch", t_lrsc_relaunch},
                    {"faults", t_faults},       {"random_short", t_random_short}};
    const unsigned nd = sizeof directed / sizeof directed[0];
    for (unsigned c = 0; c < NCONF; c++) {
        dc[c].conf = c;
        for (unsigned i = 0; i < nd; i++, n++) {
            snprintf(names[n], sizeof names[n], "%s %s", configs[c], directed[i].name);
            tests[n] = (struct CMUnitTest){names[n], directed[i].fn, NULL, NULL, &dc[c]};
        }
    }
    for (unsigned c = 0; c < NCONF; c++, n++) {
        rand_cases[c].conf = c;
        snprintf(names[n], sizeof names[n], "random %s", configs[c]);
        tests[n] = (struct CMUnitTest){names[n], t_random, NULL, NULL, &rand_cases[c]};
    }
    tests[n++] = (struct CMUnitTest){"checker", t_checker, NULL, NULL, NULL};
    const double t0 = fg_now(FG_CLOCK_WALL);
    const int rc = _cmocka_run_group_tests("simt_rtl", tests, n, NULL, NULL);
    for (unsigned c = 0; c < NCONF && n_rv; c++) {
        /* [ui / um / ua][warp] */
        unsigned nn[3][2] = {{0, 0}, {0, 0}, {0, 0}}, pp[3][2] = {{0, 0}, {0, 0}, {0, 0}}, ran = 0;
        for (unsigned i = 0; i < n_rv; i++) {
            const rv_case *t = &rv_cases[i];
            if (t->conf != c) continue;
            const unsigned s = !strcmp(t->suite, "rv32um") ? 1 : !strcmp(t->suite, "rv32ua") ? 2 : 0;
            const unsigned w = t->threads > 1;
            nn[s][w]++;
            pp[s][w] += (unsigned)t->passed;
            ran += (unsigned)t->ran;
        }
        if (!ran) continue;
        const simt_rtl_params p = params_of(configs[c]);
        printf("# report: simt_core %s (NW=%u NL=%u GTO=%u): rv32ui %u/%u single-thread, %u/%u full warp; rv32um "
               "%u/%u single-thread, %u/%u full warp; rv32ua %u/%u single-thread (ma_data: the ALIGN fault "
               "expected)\n",
               configs[c], p.nw, p.nl, p.gto, pp[0][0], nn[0][0], pp[0][1], nn[0][1], pp[1][0], nn[1][0], pp[1][1],
               nn[1][1], pp[2][0], nn[2][0]);
    }
    for (unsigned c = 0; c < NCONF; c++) {
        const rcase *r = &rand_cases[c];
        if (!r->programs) continue;
        const double n = r->st.instrs ? (double)r->st.instrs / 100 : 1;
        printf("# report: simt_core %s random: %" PRIu64 " program sets, %" PRIu64 " warp instructions in %" PRIu64
               " cycles (FG_SEED=%" PRIu64 "): divergent %.0f%%, loads %.0f%%, stores %.0f%%, atomics %.1f%%, "
               "mul/div %.0f%%, branches %.0f%%, CSR %.0f%%, %" PRIu64 " barriers, %" PRIu64 " ecalls\n",
               configs[c], r->programs, r->st.instrs, r->cycles, base_seed, r->st.divergent / n, r->st.loads / n,
               r->st.stores / n, r->st.atomics / n, r->st.muldiv / n, r->st.branches / n, r->st.csr / n,
               r->st.barriers, r->st.exits);
    }
    printf("# report: test_simt_rtl: %.1f s\n", fg_now(FG_CLOCK_WALL) - t0);
    simt_mem_free(&rtl_mem);
    simt_mem_free(&ref_mem);
    return rc;
}
