/* fg_run tests: runs the built kernel runner $BUILD/bin/fg_run as a user
 * would (posix_spawn, stdout/stderr to files) on sw/kernels/saxpy.c, checks
 * the dumped result against the same computation on the host, and checks
 * that bad inputs end with a non-zero exit and the expected message. */
/* posix_spawn_file_actions_addchdir_np (glibc) */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fg_tb.h"
#include "fg_util.h"

extern char **environ;

typedef struct {
    char dir[512];     /* scratch directory under $BUILD */
    char fg_run[512];  /* $BUILD/bin/fg_run */
    char kernel[512];  /* $BUILD/sw/saxpy.elf */
    char diag[512];    /* $BUILD/sw/t_diag.elf: the diagnostics' kernels */
    char race[512];    /* $BUILD/sw/t_race.elf: --racecheck's kernels */
} ctx;

typedef struct {
    char s[1100];
} pathbuf;

/* c->dir/name (by value: use .s within the same expression or keep the struct) */
static pathbuf path_in(const ctx *c, const char *name) {
    pathbuf p;
    snprintf(p.s, sizeof p.s, "%s/%s", c->dir, name);
    return p;
}

static char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) n = 0;
    fclose(f);
    if (b) b[n] = 0;
    if (len) *len = (size_t)n;
    return b;
}

/* The working directory run_fg starts fg_run in (NULL: this one). */
static const char *run_cwd;

/* Runs fg_run with the NULL-terminated argument list; returns its exit
 * status (-1: did not exit normally, e.g. crashed).  *out / *err: what it
 * printed (caller frees). */
static int run_fg(const ctx *c, char **out, char **err, ...) {
    const char *argv[64];
    int n = 0;
    argv[n++] = c->fg_run;
    va_list ap;
    va_start(ap, err);
    const char *a;
    while ((a = va_arg(ap, const char *)) && n < 63) argv[n++] = a;
    va_end(ap);
    argv[n] = NULL;
    pathbuf ob = path_in(c, "stdout.txt"), eb = path_in(c, "stderr.txt");
    const char *o = ob.s, *e = eb.s;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, o, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, e, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (run_cwd) posix_spawn_file_actions_addchdir_np(&fa, run_cwd);
    pid_t pid;
    int rc = posix_spawn(&pid, c->fg_run, &fa, NULL, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc) fail_msg("cannot start %s: %s", c->fg_run, strerror(rc));
    int st;
    if (waitpid(pid, &st, 0) != pid) fail_msg("waitpid failed");
    *out = slurp(o, NULL);
    *err = slurp(e, NULL);
    assert_non_null(*out);
    assert_non_null(*err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int setup(void **state) {
    ctx *c = calloc(1, sizeof *c);
    const char *b = fg_build_dir();
    snprintf(c->fg_run, sizeof c->fg_run, "%s/bin/fg_run", b);
    char err[700];
    if (fg_kernel_path(c->kernel, sizeof c->kernel, "saxpy", err, sizeof err) ||
        fg_kernel_path(c->diag, sizeof c->diag, "t_diag", err, sizeof err) ||
        fg_kernel_path(c->race, sizeof c->race, "t_race", err, sizeof err)) {
        fprintf(stderr, "# %s\n", err);
        return free(c), -1;
    }
    snprintf(c->dir, sizeof c->dir, "%s/test_fg_run.XXXXXX", b);
    if (!mkdtemp(c->dir)) return free(c), -1;
    if (access(c->fg_run, X_OK) || access(c->kernel, R_OK) || access(c->diag, R_OK) || access(c->race, R_OK)) {
        fprintf(stderr, "# %s, %s or %s missing: run make BUILD=%s build first\n", c->fg_run, c->kernel, c->diag, b);
        rmdir(c->dir);
        free(c);
        return -1;
    }
    *state = c;
    return 0;
}

static int teardown(void **state) {
    ctx *c = *state;
    if (!c) return 0; /* the setup failed and cleaned up */
    const char *names[] = {"stdout.txt", "stderr.txt", "y.bin", "out.bin", "x.bin", "r1.bin", "r2.bin"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) unlink(path_in(c, names[i]).s);
    rmdir(c->dir);
    free(c);
    return 0;
}

static void write_file(const char *path, const void *p, size_t n) {
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(p, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

/* ------------------------------------------------- saxpy against the host */
static void saxpy_case(const ctx *c, const char *grid, const char *block, uint32_t n, float a) {
    enum { N = 1024 };
    float x[N], y[N], out[N], xd[N];
    fg_rng r;
    fg_rng_seed(&r, tb_seed("fg_run saxpy y"));
    for (int i = 0; i < N; i++) {
        x[i] = (float)i; /* the ramp initialiser */
        y[i] = (float)(int64_t)fg_rng_below(&r, 2000001) / 1000.0f - 1000.0f;
    }
    write_file(path_in(c, "y.bin").s, y, sizeof y);
    char nbuf[32], abuf[48], ybuf[1200], obuf[1200], xbuf[1200];
    snprintf(nbuf, sizeof nbuf, "u32:%u", n);
    snprintf(abuf, sizeof abuf, "f32:%.9g", (double)a);
    snprintf(ybuf, sizeof ybuf, "y=f32:1024:file:%s", path_in(c, "y.bin").s);
    snprintf(obuf, sizeof obuf, "out=%s", path_in(c, "out.bin").s);
    snprintf(xbuf, sizeof xbuf, "x=%s", path_in(c, "x.bin").s);
    char *so, *se;
    int rc = run_fg(c, &so, &se, "--kernel", c->kernel, "--entry", "saxpy", "--grid", grid, "--block", block,
                    "--buf", "x=f32:1024:ramp", "--buf", ybuf, "--buf", "out=f32:1024:zero", "--arg", nbuf,
                    "--arg", abuf, "--arg", "buf:x", "--arg", "buf:y", "--arg", "buf:out", "--dump", obuf,
                    "--dump", xbuf, "--print", "out:4", NULL);
    if (rc != 0) fail_msg("fg_run exited %d: %s", rc, se);
    size_t len;
    char *ob = slurp(path_in(c, "out.bin").s, &len), *xb = slurp(path_in(c, "x.bin").s, NULL);
    assert_non_null(ob);
    assert_non_null(xb);
    assert_int_equal(len, sizeof out);
    memcpy(out, ob, sizeof out);
    memcpy(xd, xb, sizeof xd);
    for (int i = 0; i < N; i++) {
        if (xd[i] != x[i]) fail_msg("x[%d] = %g, the ramp gives %g", i, (double)xd[i], (double)x[i]);
        float want = (uint32_t)i < n ? a * x[i] + y[i] : 0.0f; /* beyond n: untouched zero */
        if (out[i] != want) fail_msg("out[%d] = %.9g, host computes %.9g (grid %s, block %s)", i, (double)out[i],
                                     (double)want, grid, block);
    }
    /* the report: cycles and instruction counts, and --print's elements */
    unsigned long long cyc = 0, wi = 0;
    const char *p = strstr(so, "cycles: "), *q = strstr(so, "warp instructions: ");
    assert_non_null(p);
    assert_non_null(q);
    assert_int_equal(sscanf(p, "cycles: %llu", &cyc), 1);
    assert_int_equal(sscanf(q, "warp instructions: %llu", &wi), 1);
    assert_true(cyc > 0 && wi > 0);
    char want[160];
    snprintf(want, sizeof want, "out[0..4]: %.9g %.9g %.9g %.9g", (double)(a * x[0] + y[0]),
             (double)(a * x[1] + y[1]), (double)(a * x[2] + y[2]), (double)(a * x[3] + y[3]));
    if (!strstr(so, want)) fail_msg("--print line '%s' not in:\n%s", want, so);
    printf("# saxpy n=%u grid %s block %s: %llu cycles, %llu warp instructions\n", n, grid, block, cyc, wi);
    free(ob);
    free(xb);
    free(so);
    free(se);
}

static void test_saxpy(void **state) {
    const ctx *c = *state;
    saxpy_case(c, "4", "256", 1000, 2.5f);   /* one element per thread, 24 idle threads */
    saxpy_case(c, "3", "64", 1024, -0.75f);  /* grid-stride loop: 192 threads over 1024 */
    saxpy_case(c, "2,1,1", "32x2", 700, 3.0f); /* 2-D block spelling: 64 threads per block */
}

/* ------------------------------ the entry without --entry: the only kernel */
static void test_default_entry(void **state) {
    const ctx *c = *state;
    char *so, *se;
    /* saxpy.elf has one kernel function (memcpy & co. are the runtime's) */
    int rc = run_fg(c, &so, &se, "--kernel", c->kernel, "--grid", "1", "--block", "32", "--buf", "x=f32:8:ramp",
                    "--buf", "y=f32:8:fill:1", "--buf", "out=f32:8", "--arg", "u32:8", "--arg", "f32:2", "--arg", "buf:x",
                    "--arg", "buf:y", "--arg", "buf:out", "--print", "out:4", NULL);
    if (rc || !strstr(so, "entry saxpy at") || !strstr(so, "out[0..4]: 1 3 5 7"))
        fail_msg("fg_run without --entry on saxpy.elf: exit %d\nstdout:\n%s\nstderr:\n%s", rc, so, se);
    free(so);
    free(se);
    /* t_diag.elf has several: refused in one line that names them all */
    rc = run_fg(c, &so, &se, "--kernel", c->diag, NULL);
    char want[700];
    snprintf(want, sizeof want,
             "fg_run: %s has 8 kernel entries (t_overrun, t_underrun, t_deadlock, t_spin, t_param_write, t_stack, "
             "t_stride, t_wildjump): choose one with --entry\n", c->diag);
    if (rc != 2 || strcmp(se, want)) fail_msg("fg_run without --entry on t_diag.elf: exit %d, stderr:\n%swanted:\n%s", rc, se, want);
    free(so);
    free(se);
}

/* ---------------- from any working directory, with the default machine */
static void test_any_directory(void **state) {
    const ctx *c = *state;
    char *so, *se, kernel[PATH_MAX];
    /* absolute paths (the test may run from a relative $BUILD) */
    if (!realpath(c->kernel, kernel)) fail_msg("realpath %s failed", c->kernel);
    ctx c2 = *c;
    if (!realpath(c->fg_run, c2.fg_run)) fail_msg("realpath %s failed", c->fg_run);
    /* the scratch directory has no configs/: the default machine is found beside the build */
    run_cwd = c->dir;
    int rc = run_fg(&c2, &so, &se, "--kernel", kernel, "--grid", "1", "--block", "32", "--buf", "x=f32:8:ramp",
                    "--buf", "y=f32:8:fill:1", "--buf", "out=f32:8", "--arg", "u32:8", "--arg", "f32:2", "--arg",
                    "buf:x", "--arg", "buf:y", "--arg", "buf:out", "--print", "out:4", NULL);
    run_cwd = NULL;
    if (rc || !strstr(so, "out[0..4]: 1 3 5 7") || !strstr(so, " cores at 700 MHz"))
        fail_msg("fg_run from %s without --config: exit %d\nstdout:\n%s\nstderr:\n%s", c->dir, rc, so, se);
    free(so);
    free(se);
}

/* ------------------------------------------- initialisers are reproducible */
static void test_initialisers(void **state) {
    const ctx *c = *state;
    char d1[1200], d2[1200];
    snprintf(d1, sizeof d1, "r=%s", path_in(c, "r1.bin").s);
    snprintf(d2, sizeof d2, "r=%s", path_in(c, "r2.bin").s);
    char *so, *se;
    /* n = 0: the kernel does nothing; only the buffers are exercised */
    int rc = run_fg(c, &so, &se, "--kernel", c->kernel, "--entry", "saxpy", "--arg", "u32:0", "--arg", "f32:0",
                    "--arg", "u32:0", "--arg", "u32:0", "--arg", "u32:0", "--buf", "r=u32:64:random:7", "--dump", d1,
                    "--buf", "h=i16:5:ramp", "--print", "h", "--buf", "f=i8:3:fill:-3", "--print", "f:2", NULL);
    if (rc) fail_msg("fg_run exited %d: %s", rc, se);
    if (!strstr(so, "h[0..5]: 0 1 2 3 4")) fail_msg("ramp of i16 not printed as expected:\n%s", so);
    if (!strstr(so, "f[0..2]: -3 -3")) fail_msg("fill:-3 of i8 not printed as expected:\n%s", so);
    free(so);
    free(se);
    rc = run_fg(c, &so, &se, "--kernel", c->kernel, "--entry", "saxpy", "--arg", "u32:0", "--arg", "f32:0", "--arg",
                "u32:0", "--arg", "u32:0", "--arg", "u32:0", "--buf", "r=u32:64:random:7", "--dump", d2, NULL);
    assert_int_equal(rc, 0);
    size_t l1, l2;
    char *a = slurp(path_in(c, "r1.bin").s, &l1), *b = slurp(path_in(c, "r2.bin").s, &l2);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(l1, 256);
    assert_int_equal(l2, 256);
    assert_memory_equal(a, b, 256); /* same seed, same contents */
    int nonzero = 0;
    for (int i = 0; i < 256; i++) nonzero += a[i] != 0;
    assert_true(nonzero > 200);
    free(a);
    free(b);
    free(so);
    free(se);
}

/* ----------------------------------------------------------- bad inputs */
static void expect_fail(const ctx *c, int want_rc, const char *want_msg, char **so, char **se, int rc) {
    (void)c;
    if (rc != want_rc || !strstr(*se, want_msg))
        fail_msg("expected exit %d and '%s', got exit %d and stderr: %s", want_rc, want_msg, rc, *se);
    if (strncmp(*se, "fg_run: ", 8)) fail_msg("error does not start with 'fg_run: ': %s", *se);
    free(*so);
    free(*se);
}

static void test_bad_inputs(void **state) {
    const ctx *c = *state;
    char *so, *se;
    char ybad[1200];
    float small[10] = {0};
    write_file(path_in(c, "y.bin").s, small, sizeof small);
    snprintf(ybad, sizeof ybad, "y=f32:1024:file:%s", path_in(c, "y.bin").s);
#define K "--kernel", c->kernel, "--entry", "saxpy"
#define SAXPY_ARGS "--arg", "u32:1000", "--arg", "f32:2", "--arg", "buf:x", "--arg", "buf:x", "--arg", "buf:o"
    int rc;
    rc = run_fg(c, &so, &se, "--kernel", "/nonexistent/k.elf", NULL);
    expect_fail(c, 2, "cannot open", &so, &se, rc);
    rc = run_fg(c, &so, &se, "--kernel", c->fg_run, NULL); /* an x86-64 ELF */
    expect_fail(c, 2, "not ELF32", &so, &se, rc);
    rc = run_fg(c, &so, &se, "--kernel", c->kernel, "--entry", "main", NULL); /* a name the file lacks */
    expect_fail(c, 2, "symbol 'main' not found", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--buf", "x=f32:16", "--arg", "buf:z", NULL);
    expect_fail(c, 2, "unknown buffer 'z'", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--buf", "x=f32:16", "--dump", "q=/dev/null", NULL);
    expect_fail(c, 2, "unknown buffer 'q'", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--buf", ybad, NULL);
    expect_fail(c, 2, "size mismatch", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--buf", "y=f32:4:file:/nonexistent/y.bin", NULL);
    expect_fail(c, 2, "cannot open /nonexistent/y.bin", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--grid", "0", NULL);
    expect_fail(c, 2, "--grid 0", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--block", "32,x", NULL);
    expect_fail(c, 2, "--block 32,x", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--block", "4096", NULL);
    expect_fail(c, 2, "too many threads per block", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--buf", "x=f64:4", NULL);
    expect_fail(c, 2, "unknown or missing element type", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--arg", "u32:-1", NULL);
    expect_fail(c, 2, "not a valid u32", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--set", "gpu.num_corez=2", NULL);
    expect_fail(c, 2, "reads no key num_corez in [gpu]", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--frobnicate", "1", NULL);
    expect_fail(c, 2, "unknown option --frobnicate", &so, &se, rc);
    /* kernel fault: x is a null pointer */
    rc = run_fg(c, &so, &se, K, "--buf", "o=f32:1024", "--arg", "u32:1000", "--arg", "f32:2", "--arg", "u32:0",
                "--arg", "buf:o", "--arg", "buf:o", NULL);
    if (!strstr(se, "(saxpy+0x")) fail_msg("fault without function+offset: %s", se);
    expect_fail(c, 1, "kernel fault: bad address 0x00000000", &so, &se, rc);
    /* timeout */
    rc = run_fg(c, &so, &se, K, "--grid", "4", "--block", "256", "--buf", "x=f32:1024", "--buf", "o=f32:1024",
                SAXPY_ARGS, "--max-cycles", "50", NULL);
    if (!strstr(so, "unfinished: ") || strstr(so, "DEADLOCK") || strstr(se, "deadlock"))
        fail_msg("a slow kernel is not a deadlock:\n%s%s", so, se);
    expect_fail(c, 1, "did not finish within 50 cycles", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--max-seconds", "-1", NULL);
    expect_fail(c, 2, "--max-seconds -1", &so, &se, rc);
    rc = run_fg(c, &so, &se, K, "--guard", "lots", NULL);
    expect_fail(c, 2, "--guard 'lots'", &so, &se, rc);
#undef SAXPY_ARGS
}

/* ---------------------------------------------------- diagnostics (t_diag) */
#define D "--kernel", c->diag

static void want(const char *text, const char *what, const char *so, const char *se) {
    if (!strstr(text, what)) fail_msg("'%s' missing; stdout:\n%s\nstderr:\n%s", what, so, se);
}

/* out[i] = i for i < 110 over a 100-element buffer: the next buffer stays
 * intact, the guard gap names the buffer and elements; --check names the
 * thread, and that thread is the one that writes that element. */
static void test_overrun(void **state) {
    const ctx *c = *state;
    char *so, *se;
    int rc = run_fg(c, &so, &se, D, "--entry", "t_overrun", "--grid", "2", "--block", "64", "--buf", "out=u32:100",
                    "--buf", "next=u32:4:fill:5", "--arg", "u32:110", "--arg", "buf:out", "--print", "next:4",
                    "--print", "out:100", NULL);
    want(so, "OVERRUN: buffer 'out' (100 x u32", so, se);
    want(so, "the kernel wrote past the end of it, into the guard gap between it and buffer 'next': elements 100..109", so, se);
    want(so, "next[0..4]: 5 5 5 5", so, se);  /* not corrupted */
    want(so, " 98 99\n", so, se);             /* the elements inside were written */
    expect_fail(c, 1, "kernel wrote outside its buffers: buffer 'out'", &so, &se, rc);

    rc = run_fg(c, &so, &se, D, "--entry", "t_overrun", "--grid", "2", "--block", "64", "--buf", "out=u32:100",
                "--arg", "u32:110", "--arg", "buf:out", "--check", NULL);
    want(se, "--check: out of bounds: element 1", so, se);
    want(se, "of buffer 'out' (100 x u32", so, se);
    want(se, "sw of 4 bytes at 0x", so, se);
    want(se, "(put+0x", so, se); /* the helper that stores, by name */
    long long el = -1;
    unsigned bx = 99, tx = 99, lane = 99;
    const char *p = strstr(se, "element "), *q = strstr(se, "lane ");
    assert_non_null(p);
    assert_non_null(q);
    assert_int_equal(sscanf(p, "element %lld", &el), 1);
    assert_int_equal(sscanf(q, "lane %u = block (%u,0,0) thread (%u,0,0)", &lane, &bx, &tx), 3);
    if (el != bx * 64 + tx || lane != tx % 32 || el < 100 || el > 109)
        fail_msg("element %lld, lane %u, block %u thread %u do not agree: %s", el, lane, bx, tx, se);
    expect_fail(c, 1, "kernel fault: --check", &so, &se, rc);

    rc = run_fg(c, &so, &se, D, "--entry", "t_underrun", "--buf", "a=u32:4", "--buf", "out=u32:100", "--arg",
                "u32:0", "--arg", "buf:out", NULL);
    want(so, "OVERRUN: buffer 'out' (100 x u32", so, se);
    want(so, "the kernel wrote before it, into the guard gap between it and buffer 'a': elements -1..-1", so, se);
    expect_fail(c, 1, "kernel wrote outside its buffers", &so, &se, rc);
    /* inside its bounds: no report, exit 0 */
    rc = run_fg(c, &so, &se, D, "--entry", "t_overrun", "--grid", "2", "--block", "64", "--buf", "out=u32:100",
                "--arg", "u32:100", "--arg", "buf:out", "--check", NULL);
    if (rc || strstr(so, "OVERRUN") || *se) fail_msg("clean run reported: exit %d\n%s%s", rc, so, se);
    free(so);
    free(se);
    /* a kernel writing its parameter block: a warning after the run, a fault under --check */
    rc = run_fg(c, &so, &se, D, "--entry", "t_param_write", "--buf", "out=u32:4", "--arg", "u32:0", "--arg",
                "buf:out", NULL);
    if (rc) fail_msg("exit %d: %s", rc, se);
    want(so, "WARNING: the kernel changed argument 1 (u32:0) of its parameter block: 0x00000000 -> 0x00000005", so,
         se);
    free(so);
    free(se);
    rc = run_fg(c, &so, &se, D, "--entry", "t_param_write", "--buf", "out=u32:4", "--arg", "u32:0", "--arg",
                "buf:out", "--check", NULL);
    expect_fail(c, 1, "--check: write to the parameter block (argument 1; it is read-only): sw", &so, &se, rc);
    /* a strided write that jumps the guard gap into the next buffer: silent
     * by bounds alone (next[0] is overwritten), caught by provenance */
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--buf",
                "next=u32:16", "--arg", "u32:2048", "--arg", "buf:out", "--print", "next:2", NULL);
    if (rc) fail_msg("exit %d: %s", rc, se);
    want(so, "next[0..2]: 1 0", so, se);
    free(so);
    free(se);
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--buf",
                "next=u32:16", "--arg", "u32:2048", "--arg", "buf:out", "--check", NULL);
    want(se, "lane 1 = block (0,0,0) thread (1,0,0)); at t_diag.c:", so, se); /* put's line, from DWARF */
    expect_fail(c, 1, "--check: a write through a pointer from argument 2 (buffer 'out') lands in another region: "
                "element 0 of buffer 'next'", &so, &se, rc);
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--buf",
                "next=u32:16", "--arg", "u32:512", "--arg", "buf:out", "--check", NULL);
    if (rc || *se || strstr(so, "buffer accesses through pointers")) fail_msg("in-bounds stride reported: exit %d\n%s%s", rc, so, se);
    free(so);
    free(se);
    /* a stray write into the gaps around the parameter block is the last
     * buffer's (a kernel does not index its parameters backwards), and the
     * gap is named: before the block, and far into the gap after it */
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--arg", "u32:1900",
                "--arg", "buf:out", NULL);
    want(so, "OVERRUN: buffer 'out' (1024 x u32 at 0x", so, se);
    if (strstr(so, "arguments -") || strstr(se, "arguments -")) fail_msg("blamed on the parameter block:\n%s%s", so, se);
    expect_fail(c, 1, "the kernel wrote past the end of it, into the guard gap between it and the parameter block: "
                "elements 1900..1900 (bytes 0x", &so, &se, rc);
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--arg", "u32:1900",
                "--arg", "buf:out", "--check", NULL);
    want(se, "--check: out of bounds: element 1900 of buffer 'out' (1024 x u32 at 0x", so, se);
    expect_fail(c, 1, "elements 0..1023), in the guard gap between it and the parameter block (the pointer came from "
                "argument 2 (buffer 'out')): sw of 4 bytes", &so, &se, rc);
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--arg", "u32:3000",
                "--arg", "buf:out", NULL);
    expect_fail(c, 1, "kernel wrote outside its buffers: buffer 'out' (1024 x u32 at 0x", &so, &se, rc);
    rc = run_fg(c, &so, &se, D, "--entry", "t_stride", "--block", "2", "--buf", "out=u32:1024", "--arg", "u32:3000",
                "--arg", "buf:out", NULL);
    expect_fail(c, 1, "the kernel wrote past the end of it, into the guard gap after the parameter block: elements "
                "3000..3000", &so, &se, rc);
}

/* thread 0 spins on a flag the others set after the barrier */
static void test_deadlock(void **state) {
    const ctx *c = *state;
    char *so, *se;
    int rc = run_fg(c, &so, &se, D, "--entry", "t_deadlock", "--block", "64", "--buf", "flag=u32:1", "--arg", "u32:0",
                    "--arg", "buf:flag", "--max-cycles", "20000", NULL);
    want(so, "unfinished: 2 warps still live", so, se);
    want(so, "    lane 0: at pc 0x", so, se);
    want(so, "    lanes 1-31: wait at the barrier at pc 0x", so, se);
    want(so, "    lanes 0-31: wait at the barrier at pc 0x", so, se);
    /* every pc as function+offset and file:line, as the faults give it */
    want(so, "    lane 0: at pc 0x", so, se);
    const char *l0 = strstr(so, "    lane 0: at pc 0x"), *lb = strstr(so, "    lanes 1-31: wait at the barrier at pc 0x");
    if (!l0 || !strstr(l0, "(t_deadlock+0x") || strstr(l0, "(t_deadlock+0x") > strchr(l0, '\n') ||
        !strstr(l0, ", t_diag.c:3") || strstr(l0, ", t_diag.c:3") > strchr(l0, '\n') || !lb ||
        !strstr(lb, " inlined at t_diag.c:40)\n"))
        fail_msg("lane lines without function+offset and file:line:\n%s", so);
    want(so, "BARRIER DEADLOCK: block (0,0,0) on core 0: 63 of its 64 live threads", so, se);
    want(se, "barrier deadlock in block (0,0,0): 63 of 64 live threads wait at the barrier at pc 0x", so, se);
    want(se, "(t_deadlock+0x", so, se);
    want(se, " inlined at t_diag.c:40); thread (0,0,0), which has not arrived, is at pc 0x", so, se);
    expect_fail(c, 1, "barrier deadlock in block (0,0,0): 63 of 64 live threads wait at the barrier", &so, &se, rc);
}

/* a kernel that never ends, stopped by the wall clock */
static void test_wall_clock(void **state) {
    const ctx *c = *state;
    char *so, *se;
    double t0 = fg_now(FG_CLOCK_WALL);
    int rc = run_fg(c, &so, &se, D, "--entry", "t_spin", "--buf", "flag=u32:1", "--arg", "u32:0", "--arg",
                    "buf:flag", "--max-cycles", "1000000000000", "--max-seconds", "0.2", NULL);
    double t = fg_now(FG_CLOCK_WALL) - t0;
    if (t < 0.2 || t > 10) fail_msg("--max-seconds 0.2 took %.2f s", t);
    want(so, "lanes 0-31: at pc 0x", so, se);
    want(so, "(t_spin+0x", so, se);
    expect_fail(c, 1, "did not finish within 0.2 s of wall-clock time (--max-seconds)", &so, &se, rc);
}

/* the --arg list against the kernel's argument struct (its DWARF) */
static void test_arg_count(void **state) {
    const ctx *c = *state;
    char *so, *se;
    int rc = run_fg(c, &so, &se, K, "--buf", "x=f32:8", "--arg", "u32:8", "--arg", "f32:2", "--arg", "buf:x", "--arg",
                    "buf:x", "--check", NULL);
    want(se, "warning: the kernel's argument struct saxpy_args is 20 bytes (5 4-byte arguments), but --arg gives 4",
         so, se);
    want(so, "kernel arguments: struct saxpy_args, 20 bytes", so, se);
    expect_fail(c, 1, "--check: out of bounds: argument 5 of the 16-byte parameter block", &so, &se, rc);
    rc = run_fg(c, &so, &se, D, "--entry", "t_overrun", "--buf", "out=u32:4", "--arg", "u32:0", "--arg", "buf:out",
                "--arg", "u32:3", NULL);
    if (rc) fail_msg("exit %d: %s", rc, se);
    want(se, "fg_run: warning: the kernel's argument struct t_diag_args is 8 bytes (2 4-byte arguments), but --arg "
         "gives 3 (12 bytes): the extra arguments are not read", so, se);
    free(so);
    free(se);
}

/* a call through a wild function pointer: one line that says it was an
 * instruction fetch, names the jumping instruction (pc, function+offset,
 * file:line), the warp and thread, and the target */
static void test_wild_jump(void **state) {
    const ctx *c = *state;
    char *so, *se;
    int rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_wildjump", "--buf", "out=u32:4", "--arg",
                    "u32:0x12345678", "--arg", "buf:out", NULL);
    want(se, "kernel fault: instruction fetch from bad address 0x12345678 (beyond the ", so, se);
    want(se, "-byte global memory): jalr at pc 0x", so, se);
    want(se, "(t_wildjump+0x", so, se);
    want(se, "jumped there (core 0 warp 0 lanes 0-31, first lane 0 = block (0,0,0) thread (0,0,0)); at t_diag.c:", so, se);
    if (strstr(se, "memory system refused") || strchr(se, '\n') != se + strlen(se) - 1)
        fail_msg("not one line, or the memory system's refusal: %s", se);
    expect_fail(c, 1, "kernel fault: instruction fetch", &so, &se, rc);
    /* a null function pointer: below the null guard */
    rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_wildjump", "--buf", "out=u32:4", "--arg", "u32:0",
                "--arg", "buf:out", NULL);
    want(se, "instruction fetch from bad address 0x00000000 (in the null guard below 0x00001000): jalr at pc 0x", so, se);
    expect_fail(c, 1, "(t_wildjump+0x", &so, &se, rc);
    /* a pointer into a buffer: memory, but no code (every kernel runs from a loaded image) */
    unsigned long long out = 0;
    rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_wildjump", "--buf", "out=u32:4", "--arg", "u32:0",
                "--arg", "buf:out", NULL);
    const char *p = strstr(so, "buffer out: 4 x u32 at 0x");
    if (!p || sscanf(p, "buffer out: 4 x u32 at 0x%llx", &out) != 1) fail_msg("no buffer address in:\n%s", so);
    free(so);
    free(se);
    char target[32], want_msg[200];
    snprintf(target, sizeof target, "u32:0x%llx", out + 8);
    snprintf(want_msg, sizeof want_msg, "instruction fetch from bad address 0x%08llx (outside every loaded kernel "
             "image): jalr at pc 0x", out + 8);
    rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_wildjump", "--buf", "out=u32:4", "--arg", target,
                "--arg", "buf:out", NULL);
    want(se, want_msg, so, se);
    want(se, "(t_wildjump+0x", so, se);
    expect_fail(c, 1, "; the address is element 2 of buffer 'out' (4 x u32", &so, &se, rc);
}

/* --buf NAME=TYPE:N:empty: a buffer in the F/E region with every word empty;
 * t_spin's plain load of flag waits for full (F/E 4.1), nobody fills it, and
 * the watchdog's NACKs end in a fault naming the load (pc, function+offset,
 * file:line), the thread and the buffer element */
static void test_fe_empty(void **state) {
    const ctx *c = *state;
    char *so, *se;
    int rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_spin", "--buf", "pad=u32:3", "--buf",
                    "flag=u32:64:empty", "--arg", "u32:0", "--arg", "buf:flag", "--set", "mem.fe_wdog_limit=2000",
                    "--set", "gpu.fe_retry_max=1", NULL);
    want(so, "buffer flag: 64 x u32 at 0x", so, se);
    want(se, "kernel fault: F/E watchdog NACK: load of 0x", so, se);
    want(se, "at pc 0x", so, se);
    want(se, "(t_spin+0x", so, se);
    want(se, "(core 0 warp 0 lane 0 = block (0,0,0) thread (0,0,0)) was never satisfied by the F/E queues (NACKed 2 "
         "times; [gpu] fe_retry_max = 1 retries); at t_diag.c:", so, se);
    expect_fail(c, 1, "; the word is element 0 of buffer 'flag' (64 x u32 at 0x", &so, &se, rc);
    /* a store fills it: the same load then goes through (t_overrun writes
     * out[i] = i, t_spin ... is not needed: the buffer's dump shows the fill) */
    rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_overrun", "--block", "64", "--buf",
                "out=u32:64:empty", "--arg", "u32:64", "--arg", "buf:out", "--print", "out:4", "--check", NULL);
    if (rc || !strstr(so, "out[0..4]: 0 1 2 3")) fail_msg("stores into an empty buffer: exit %d\n%s%s", rc, so, se);
    free(so);
    free(se);
    rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_spin", "--buf", "flag=u32:1:empty", "--set",
                "mem.fe_region_bytes=0", NULL);
    expect_fail(c, 2, "buffer flag: 'empty' needs the F/E-tracked region", &so, &se, rc);
}
#undef D
#undef K

/* --racecheck (sw/kernels/t_race.c): a tree reduction in shared memory
 * without its barrier is caught, named by both pcs with file:line, both
 * threads, the shared array (from the ELF symbol table) and offset, exit 1; with the barrier, and atomics on one
 * shared word, it passes; the results of the race-free kernels are right. */
static void test_racecheck(void **state) {
    const ctx *c = *state;
    char *so, *se;
#define R(entry) "--kernel", c->race, "--entry", entry, "--grid", "64", "--block", "256", "--buf", "in=u32:16384:ramp", \
                 "--buf", "out=u32:64", "--arg", "buf:in", "--arg", "buf:out", "--print", "out:2", "--racecheck"
    int rc = run_fg(c, &so, &se, R("t_reduce_nobar"), NULL);
    assert_int_equal(rc, 1);
    /* 256-thread blocks: stride 64 reads t_race_s[64], written by thread 64 */
    want(se, "racecheck: shared-memory race at t_race_s+256 (byte offset 256 of block", so, se);
    want(se, "(reduce+0x", so, se);
    want(se, "t_race.c:", so, se);
    want(se, "no barrier (__syncthreads / fg_sync) between them", so, se);
    free(so), free(se);
    rc = run_fg(c, &so, &se, R("t_reduce"), NULL);
    assert_int_equal(rc, 0);
    want(so, "racecheck: no shared-memory race", so, se);
    want(so, "out[0..2]: 32640 98176", so, se); /* sum of 0..255, of 256..511 */
    free(so), free(se);
    rc = run_fg(c, &so, &se, R("t_shared_atomic"), NULL);
    assert_int_equal(rc, 0);
    want(so, "racecheck: no shared-memory race", so, se);
    want(so, "out[0..2]: 32640 98176", so, se);
    free(so), free(se);
#undef R
    /* global memory within a block: out[g ^ 32] read with no barrier after
     * thread g ^ 32 (another warp) wrote it is caught; with barriers it passes */
#define G(entry) "--kernel", c->race, "--entry", entry, "--grid", "4", "--block", "128", "--buf", "in=u32:512:ramp", \
                 "--buf", "out=u32:512", "--arg", "buf:in", "--arg", "buf:out", "--print", "out:2", "--racecheck"
    rc = run_fg(c, &so, &se, G("t_global_nobar"), NULL);
    assert_int_equal(rc, 1);
    want(se, "racecheck: global-memory race at element ", so, se);
    want(se, "of buffer 'out' (512 x u32", so, se);
    want(se, "(t_global_nobar+0x", so, se);
    free(so), free(se);
    rc = run_fg(c, &so, &se, G("t_global"), NULL);
    assert_int_equal(rc, 0);
    want(so, "racecheck: no shared-memory race, no global-memory race within a block", so, se);
    want(so, "out[0..2]: 32 33", so, se); /* in[g ^ 32] */
    free(so), free(se);
    /* an entry is given every FG_SHARED array of its file: the ones it never
     * touched are named (t_flag uses t_race_flag, carries t_race_s) */
    rc = run_fg(c, &so, &se, G("t_flag"), NULL);
    assert_int_equal(rc, 0);
    want(se, "fg_run: warning: entry t_flag never touched 1 of the 2 FG_SHARED arrays it was given: t_race_s (1024 B)",
         so, se);
    want(so, "out[0..2]: 0 1", so, se);
    free(so), free(se);
    rc = run_fg(c, &so, &se, G("t_reduce"), NULL);
    want(se, "never touched 1 of the 2 FG_SHARED arrays it was given: t_race_flag (128 B)", so, se);
    free(so), free(se);
#undef G
}

/* A stack overflow is named: the thread, the stack's range and
 * gpu.stack_bytes; with a larger stack the kernel runs. */
static void test_stack_overflow(void **state) {
    const ctx *c = *state;
    char *so, *se;
    int rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_stack", "--buf", "out=u32:4", "--arg", "u32:1000", "--arg",
                    "buf:out", NULL);
    want(se, "block (0,0,0) thread (0,0,0)", so, se);
    want(se, "below this thread's stack", so, se);
    want(se, "gpu.stack_bytes = 1024 bytes per thread", so, se);
    expect_fail(c, 1, "a stack overflow?", &so, &se, rc);
    rc = run_fg(c, &so, &se, "--kernel", c->diag, "--entry", "t_stack", "--buf", "out=u32:4", "--arg", "u32:1000", "--arg", "buf:out",
                "--set", "gpu.stack_bytes=8192", "--print", "out:1", NULL);
    assert_int_equal(rc, 0);
    want(so, "out[0..1]: 500", so, se);
    free(so), free(se);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_saxpy),
        cmocka_unit_test(test_initialisers),
        cmocka_unit_test(test_default_entry),
        cmocka_unit_test(test_any_directory),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_overrun),
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_wild_jump),
        cmocka_unit_test(test_fe_empty),
        cmocka_unit_test(test_wall_clock),
        cmocka_unit_test(test_arg_count),
        cmocka_unit_test(test_racecheck),
        cmocka_unit_test(test_stack_overflow),
    };
    return cmocka_run_group_tests_name("fg_run", tests, setup, teardown);
}
