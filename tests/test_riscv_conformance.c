/* RISC-V conformance of the SIMT model: the official riscv-tests rv32ui,
 * rv32um, rv32ua and rv32uf (built by mk/rvtest.mk with
 * sw/rvtest/riscv_test.h from the suite's own directory), each run by one
 * thread and by a full warp of 32 threads whose results must all agree.
 * rv32ua runs single-thread only: its tests check the old values their AMOs
 * return, which differ by design when 32 lanes hit one word; it runs once
 * with each [gpu] atomics mode (issue: performed at issue; memory: at the
 * L2 slice, old values from the response, docs/SIMT.md "Atomics").
 *
 * One cmocka test per ISA test and mode; the suite counts are printed as
 * "# report:" lines (scripts/run_tests.sh shows them).  Without the suite
 * (no $BUILD/rvtest/tests.list, or "absent DIR" in it) one test says that
 * conformance was not checked and where to get the suite. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "fg_util.h"
#include "gpu_tb.h"

#define MAX_TESTS 128
#define MAX_CYCLES 2000000u
#define WARP 32u

enum { ST_NONE = 0, ST_PASSED = 1, ST_FAILED = 2 }; /* = FG_RVTEST_* (sw/rvtest/riscv_test.h) */

typedef struct {
    char suite[16], name[48];
    unsigned threads;
    bool amem; /* [gpu] atomics = memory */
    int passed;
} rv_case;

static rv_case cases[2 * MAX_TESTS];
static unsigned ncases;
static char skipped[8][160];
static unsigned nskipped;

static void run_case(void **state) {
    rv_case *t = *state;
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/rvtest/%s/%s.elf", fg_build_dir(), t->suite, t->name);
    gpu_t *g = tb_simt_gpu_atomics(1, t->amem ? GPU_ATOMICS_MEMORY : GPU_ATOMICS_ISSUE);
    gpu_kernel k;
    if (gpu_load_kernel(g, path, NULL, &k, err, sizeof err)) fail_msg("%s", err);
    /* result buffer: status, TESTNUM per thread; the parameter block points to it */
    uint32_t res[2 * WARP] = {0}, res_addr = (uint32_t)gpu_malloc(g, sizeof res);
    uint64_t param = gpu_malloc(g, 4);
    assert_true(res_addr && param);
    assert_int_equal(gpu_mem_write(g, res_addr, res, sizeof res), 0);
    assert_int_equal(gpu_mem_write(g, param, &res_addr, 4), 0);
    tb_simt_run1(g, &k, t->threads, param, MAX_CYCLES, path);
    gpu_mem_read(g, res_addr, res, sizeof res);
    gpu_free(g);
    unsigned bad = 0;
    for (unsigned l = 0; l < t->threads; l++) {
        if (res[2 * l] == ST_PASSED && res[2 * l + 1] == res[1]) continue;
        if (!bad++)
            printf("# %s/%s thread %u: %s (TESTNUM %u)\n", t->suite, t->name, l,
                   res[2 * l] == ST_PASSED ? "passed" : res[2 * l] == ST_FAILED ? "FAILED" : "did not finish",
                   res[2 * l + 1]);
    }
    if (bad) fail_msg("%s/%s: %u of %u threads failed or disagree", t->suite, t->name, bad, t->threads);
    t->passed = 1;
}

static void not_checked(void **state) {
    printf("# report: RISC-V conformance NOT checked: %s\n", (const char *)*state);
    printf("# report: get the official riscv-tests (riscv-software-src/riscv-tests: isa/rv32u{i,m,a,f}, "
           "isa/macros/scalar) and run make test RISCV_TESTS=DIR\n");
    skip(); /* not a pass: scripts/run_tests.sh counts it apart */
}

/* Reads $BUILD/rvtest/tests.list (mk/rvtest.mk); returns the suite's directory or NULL. */
static const char *read_list(char *why, size_t whylen) {
    static char dir[512];
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/rvtest/tests.list", fg_build_dir());
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(why, whylen, "%s missing (build with make)", path); return NULL; }
    const char *found = NULL;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char a[16], b[16], c[48];
        int off = 0;
        if (sscanf(line, "suite %511s", dir) == 1) found = dir;
        else if (sscanf(line, "absent %511s", dir) == 1)
            snprintf(why, whylen, "riscv-tests not found at %s", dir);
        else if (sscanf(line, "run %15s %47s", a, c) == 2 && ncases + 2 <= 2 * MAX_TESTS) {
            const bool ua = !strcmp(a, "rv32ua");
            for (unsigned threads = 1; threads <= WARP; threads += WARP - 1) {
                rv_case *t = &cases[ncases++];
                snprintf(t->suite, sizeof t->suite, "%s", a);
                snprintf(t->name, sizeof t->name, "%s", c);
                t->threads = ua ? 1 : threads; /* rv32ua: the second run is atomics = memory */
                t->amem = ua && threads > 1;
            }
        } else if (sscanf(line, "skip %15s %15s %n", a, b, &off) == 2 && off && nskipped < 8)
            snprintf(skipped[nskipped++], sizeof skipped[0], "%s/%s (%s)", a, b, line + off);
    }
    fclose(f);
    return found;
}

int main(void) {
    static char why[600], names[2 * MAX_TESTS][96];
    static struct CMUnitTest tests[2 * MAX_TESTS];
    const char *dir = read_list(why, sizeof why);
    if (!dir || !ncases) {
        if (dir) snprintf(why, sizeof why, "no tests of rv32ui/um/ua/uf under %s/isa", dir);
        const struct CMUnitTest none[] = {{"riscv_conformance_not_checked", not_checked, NULL, NULL, why}};
        return cmocka_run_group_tests_name("riscv_conformance", none, NULL, NULL);
    }
    for (unsigned i = 0; i < ncases; i++) {
        snprintf(names[i], sizeof names[i], "%.15s-%.47s %s", cases[i].suite, cases[i].name,
                 cases[i].amem ? "1-thread atomics=memory" : cases[i].threads == 1 ? "1-thread" : "warp");
        tests[i] = (struct CMUnitTest){names[i], run_case, NULL, NULL, &cases[i]};
    }
    printf("# riscv-tests from %s\n", dir);
    int rc = _cmocka_run_group_tests("riscv_conformance", tests, ncases, NULL, NULL);
    /* suite counts, as docs/SIMT.md quotes them */
    static const char *const suites[] = {"rv32ui", "rv32um", "rv32ua", "rv32uf"};
    for (unsigned s = 0; s < 4; s++) {
        unsigned n[3] = {0, 0, 0}, p[3] = {0, 0, 0}; /* single-thread, full warp, atomics = memory */
        for (unsigned i = 0; i < ncases; i++) {
            if (strcmp(cases[i].suite, suites[s])) continue;
            const unsigned k = cases[i].amem ? 2 : cases[i].threads > 1;
            n[k]++;
            p[k] += (unsigned)cases[i].passed;
        }
        if (n[1]) printf("# report: %s %u/%u passed single-thread, %u/%u full warp\n", suites[s], p[0], n[0], p[1], n[1]);
        else printf("# report: %s %u/%u passed single-thread, %u/%u single-thread with atomics = memory (no "
                    "full-warp run: lanes' AMOs on one word return different old values)\n",
                    suites[s], p[0], n[0], p[2], n[2]);
    }
    for (unsigned i = 0; i < nskipped; i++) printf("# report: skipped %s\n", skipped[i]);
    return rc;
}
