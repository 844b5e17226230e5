/* fg_run's command line (fg_run_cli.h). */
#include "fg_run_cli.h"

#include <float.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fg_cli.h"
#include "fg_config.h"
#include "fg_util.h"
#include "fg_wave.h"

/* printed after the options' lines of fg_run --help */
#define ABOUT                                                                                          \
    "  TYPE of a buffer: u8 i8 u16 i16 u32 i32 f32\n"                                                  \
    "  INIT: zero (default) | ramp (element i = i) | fill:VALUE | random:SEED | file:PATH (raw bytes,\n" \
    "        exactly COUNT elements) | empty (in the F/E-tracked region, zero, every word marked empty:\n" \
    "        a load waits until a store fills it; one nobody fills ends in the F/E watchdog's NACK fault)\n" \
    "  --arg (4 bytes each, packed in order into the parameter block = a0):\n"                         \
    "        u32:VALUE | i32:VALUE | f32:VALUE | buf:NAME (the buffer's GPU address)\n"                \
    "  --guard: bytes of guard gap around each buffer and the parameter block (checked after the run)\n"  \
    "  --check: refuse (fault) every global access outside the buffers, parameter block and kernel image,\n" \
    "        and one through a pointer derived from a buf: argument that lands outside that buffer\n"       \
    "  --racecheck: report shared-memory and --buf accesses of two threads of a block (different warps) with no\n" \
    "        barrier between them, at least one a write and not both atomic; exit 1 if any\n"             \
    "  --threads N: host threads that step the SIMT cores (gpu.threads; 0 = $FG_THREADS or the processors;\n" \
    "        --check and --racecheck step them on one)\n"

const char *const fg_run_type_name[T_N] = {"u8", "i8", "u16", "i16", "u32", "i32", "f32"};
const unsigned fg_run_type_size[T_N] = {1, 1, 2, 2, 4, 4, 4};

FILE *fg_run_errf;

int fg_run_die(int rc, const char *fmt, ...) {
    FILE *e = fg_run_errf ? fg_run_errf : stderr;
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout); /* what was printed so far comes first */
    fputs("fg_run: ", e);
    vfprintf(e, fmt, ap);
    fputc('\n', e);
    va_end(ap);
    if (rc == 2) fg_wave_cancel(); /* nothing ran: no trace */
    return rc;
}

/* ------------------------------------------------------------- parsing */
/* fg_num_u64's forms (decimal or 0x hex, no octal); the caller's message */
int fg_run_parse_u64(const char *s, uint64_t max, uint64_t *out) {
    char err[256];
    return fg_num_u64("", s, 0, max, out, err, sizeof err);
}

static int find_type(const char *s, size_t len) {
    for (int t = 0; t < T_N; t++)
        if (strlen(fg_run_type_name[t]) == len && !strncmp(s, fg_run_type_name[t], len)) return t;
    return -1;
}

/* A value of type t as its little-endian bits (integers: range-checked). */
int fg_run_parse_value(int t, const char *s, uint32_t *bits) {
    char err[256];
    if (t == T_F32) {
        double d;
        if (fg_num_double("", s, -FLT_MAX, FLT_MAX, &d, err, sizeof err)) return -1;
        float f = (float)d;
        memcpy(bits, &f, 4);
        return 0;
    }
    int sgn = t == T_I8 || t == T_I16 || t == T_I32;
    unsigned bitsz = fg_run_type_size[t] * 8;
    if (sgn) {
        int64_t v;
        long long lo = -(1ll << (bitsz - 1)), hi = (1ll << (bitsz - 1)) - 1;
        if (fg_num_i64("", s, lo, hi, &v, err, sizeof err)) return -1;
        *bits = (uint32_t)v & (bitsz == 32 ? 0xffffffffu : (1u << bitsz) - 1);
    } else {
        uint64_t v;
        if (fg_num_u64("", s, 0, bitsz == 32 ? 0xffffffffull : (1ull << bitsz) - 1, &v, err, sizeof err)) return -1;
        *bits = (uint32_t)v;
    }
    return 0;
}

/* "X[,Y[,Z]]" or "XxYxZ", each in [1, 2^31) */
/* X[,Y[,Z]] (or X[xY[xZ]]), each read by the one number reader (decimal or
 * 0x hex, no leading zero), 1 .. 2^31-1. */
static int parse_dims(const char *s, uint32_t d[3]) {
    d[0] = d[1] = d[2] = 1;
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        size_t n = 0; /* up to ',' or 'x', but the x of a 0x prefix */
        while (p[n] && p[n] != ',' && !(p[n] == 'x' && !(n == 1 && p[0] == '0'))) n++;
        char part[32];
        uint64_t v;
        if (n == 0 || n >= sizeof part) return -1;
        memcpy(part, p, n);
        part[n] = 0;
        if (fg_run_parse_u64(part, (1ul << 31) - 1, &v) || v == 0) return -1;
        d[i] = (uint32_t)v;
        if (!p[n]) return 0;
        p += n + 1;
    }
    return -1;
}

static int valid_name(const char *s, size_t len) {
    if (!len || len >= 64) return 0;
    for (size_t i = 0; i < len; i++) {
        char c = s[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i && c >= '0' && c <= '9')))
            return 0;
    }
    return 1;
}

fbuf *fg_run_find_buf(fbuf *b, int n, const char *name, size_t len) {
    for (int i = 0; i < n; i++)
        if (strlen(b[i].name) == len && !strncmp(b[i].name, name, len)) return &b[i];
    return NULL;
}

/* NAME=TYPE:COUNT[:INIT] */
static int parse_buf(const char *spec, fbuf *bufs, int nb, fbuf *out, char *err, size_t errlen) {
    const char *eq = strchr(spec, '=');
    if (!eq || !valid_name(spec, (size_t)(eq - spec)))
        return fg_errf(err, errlen, "--buf %s: expected NAME=TYPE:COUNT[:INIT] with NAME a C identifier", spec);
    if (fg_run_find_buf(bufs, nb, spec, (size_t)(eq - spec)))
        return fg_errf(err, errlen, "--buf %s: buffer '%.*s' defined twice", spec, (int)(eq - spec), spec);
    memset(out, 0, sizeof *out);
    memcpy(out->name, spec, (size_t)(eq - spec));
    const char *ty = eq + 1, *c1 = strchr(ty, ':');
    if (!c1 || (out->type = find_type(ty, (size_t)(c1 - ty))) < 0)
        return fg_errf(err, errlen, "--buf %s: unknown or missing element type (u8 i8 u16 i16 u32 i32 f32)", spec);
    const char *cnt = c1 + 1, *c2 = strchr(cnt, ':');
    char num[32];
    size_t ln = c2 ? (size_t)(c2 - cnt) : strlen(cnt);
    if (ln >= sizeof num) ln = sizeof num - 1;
    memcpy(num, cnt, ln);
    num[ln] = 0;
    if (fg_run_parse_u64(num, UINT32_MAX, &out->count) || !out->count)
        return fg_errf(err, errlen, "--buf %s: bad element count '%s' (expected a number >= 1)", spec, num);
    out->bytes = out->count * fg_run_type_size[out->type];
    out->init = c2 ? c2 + 1 : "zero";
    const char *in = out->init;
    uint32_t bits;
    uint64_t seed;
    if (!strcmp(in, "zero") || !strcmp(in, "ramp") || !strcmp(in, "empty")) return 0;
    if (!strncmp(in, "fill:", 5)) {
        if (fg_run_parse_value(out->type, in + 5, &bits))
            return fg_errf(err, errlen, "--buf %s: fill value '%s' is not a valid %s", spec, in + 5, fg_run_type_name[out->type]);
        return 0;
    }
    if (!strncmp(in, "random:", 7)) {
        if (fg_run_parse_u64(in + 7, UINT64_MAX, &seed)) return fg_errf(err, errlen, "--buf %s: bad random seed '%s'", spec, in + 7);
        return 0;
    }
    if (!strncmp(in, "file:", 5) && in[5]) return 0;
    return fg_errf(err, errlen, "--buf %s: unknown initialiser '%s' (zero, ramp, fill:VALUE, random:SEED, file:PATH, empty)", spec, in);
}

/* TYPE:VALUE or buf:NAME */
static int parse_arg(const char *spec, farg *a, char *err, size_t errlen) {
    memset(a, 0, sizeof *a);
    a->spec = spec;
    const char *c = strchr(spec, ':');
    if (!c) return fg_errf(err, errlen, "--arg %s: expected TYPE:VALUE (u32, i32, f32) or buf:NAME", spec);
    if (!strncmp(spec, "buf:", 4)) {
        a->is_buf = 1;
        a->buf = spec + 4;
        return 0;
    }
    int t = find_type(spec, (size_t)(c - spec));
    if (t != T_U32 && t != T_I32 && t != T_F32)
        return fg_errf(err, errlen, "--arg %s: argument type must be u32, i32, f32 or buf (every argument takes 4 bytes)", spec);
    if (fg_run_parse_value(t, c + 1, &a->bits)) return fg_errf(err, errlen, "--arg %s: '%s' is not a valid %s", spec, c + 1, fg_run_type_name[t]);
    return 0;
}

/* ------------------------------------------------------------- buffers */

void fg_run_opts_free(fg_run_opts *o) {
    free(o->bufs);
    free(o->args);
    free(o->dumps);
    free(o->prints);
    free(o->sets);
}

/* The default config (no --config) from any working directory: `rel` as given
 * when it exists there, else beside the repository this fg_run was built in
 * (build/bin/fg_run -> configs/edge.ini, found through /proc/self/exe). */
static const char *default_config(const char *rel, char *buf, size_t len) {
    if (access(rel, R_OK) == 0) return rel;
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0) return rel;
    buf[n] = '\0';
    for (int up = 0; up < 3; up++) { /* strip fg_run, bin, build */
        char *slash = strrchr(buf, '/');
        if (!slash) return rel;
        *slash = '\0';
    }
    size_t used = strlen(buf);
    if ((size_t)snprintf(buf + used, len - used, "/%s", rel) >= len - used || access(buf, R_OK)) return rel;
    return buf;
}

/* the specs that need more than a number: each checked as it comes */
static int dims_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    if (!parse_dims(v, ctx)) return 0;
    return fg_errf(err, errlen, "%s %s: expected X[,Y[,Z]], each a whole number from 1 to 2^31-1 (decimal or 0x hex, no leading zero)",
               name, v);
}

static int buf_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    fg_run_opts *o = ctx;
    (void)name;
    if (parse_buf(v, o->bufs, o->nb, &o->bufs[o->nb], err, errlen)) return -1;
    o->nb++;
    return 0;
}

static int arg_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    fg_run_opts *o = ctx;
    (void)name;
    if (parse_arg(v, &o->args[o->na], err, errlen)) return -1;
    o->na++;
    return 0;
}

static int dump_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    fg_run_opts *o = ctx;
    const char *eq = strchr(v, '=');
    if (!eq || !eq[1]) return fg_errf(err, errlen, "%s %s: expected NAME=FILE", name, v);
    o->dumps[o->nd++] = (fout){.buf = v, .path = eq + 1};
    return 0;
}

static int print_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    fg_run_opts *o = ctx;
    const char *c = strchr(v, ':');
    fout *p = &o->prints[o->np];
    *p = (fout){.buf = v, .n = 8};
    if (c && (fg_run_parse_u64(c + 1, UINT64_MAX, &p->n) || !p->n))
        return fg_errf(err, errlen, "%s %s: expected NAME[:N] with N >= 1", name, v);
    o->np++;
    return 0;
}

static int entry_opt(void *ctx, const char *name, const char *v, char *err, size_t errlen) {
    fg_run_opts *o = ctx;
    (void)name, (void)err, (void)errlen;
    o->entry = v;
    o->entry_given = 1;
    return 0;
}

/* Parses and checks argv up to, not including, building the GPU: -1 to go
 * on, else the exit status (0 after --help; 2 with the error on stderr).
 * tests/fuzz/fuzz_cli.c fuzzes it. */
int fg_run_parse(int argc, char **argv, fg_run_opts *op) {
    static const char DEFAULT_CONFIG[] = "configs/edge.ini";
    fg_run_opts o = {.entry = NULL, .cfgpath = DEFAULT_CONFIG, .grid = {1, 1, 1}, .block = {32, 1, 1},
                     .max_cycles = 10000000ull, .guard = 4096};
    o.bufs = calloc((size_t)argc, sizeof *o.bufs);
    o.args = calloc((size_t)argc, sizeof *o.args);
    o.dumps = calloc((size_t)argc, sizeof *o.dumps);
    o.prints = calloc((size_t)argc, sizeof *o.prints);
    *op = o;
    if (!o.bufs || !o.args || !o.dumps || !o.prints) return fg_run_die(2, "out of memory");
    bool check = false, racecheck = false;
    fg_cli_list sets = {0};
    const fg_opt opts[] = {
        FG_OPT_STR("--kernel", &op->kpath, "FILE.elf", "the kernel (required)"),
        FG_OPT_CALL("--entry", entry_opt, op, "SYMBOL", "the kernel's function (default: the file's only one)"),
        FG_OPT_CALL("--grid", dims_opt, op->grid, "X[,Y[,Z]]", "blocks (default 1)"),
        FG_OPT_CALL("--block", dims_opt, op->block, "X[,Y[,Z]]", "threads per block (default 32)"),
        FG_OPT_U64("--shmem", &op->shmem, 0, UINT32_MAX, "BYTES", "shared memory per block (default 0)"),
        FG_OPT_CALL("--buf", buf_opt, op, "NAME=TYPE:COUNT[:INIT]", "a buffer in GPU memory (repeatable)"),
        FG_OPT_CALL("--arg", arg_opt, op, "TYPE:VALUE", "the next kernel argument (repeatable)"),
        FG_OPT_CALL("--dump", dump_opt, op, "NAME=FILE", "a buffer's bytes after the run into FILE (repeatable)"),
        FG_OPT_CALL("--print", print_opt, op, "NAME[:N]", "a buffer's first N elements after the run (default 8; repeatable)"),
        FG_OPT_U64("--max-cycles", &op->max_cycles, 1, UINT64_MAX, "N", "give up after N cycles (default 10000000)"),
        FG_OPT_DOUBLE("--max-seconds", &op->max_seconds, 0, 1e9, "S", "give up after S seconds of wall-clock time (default 0: no limit)"),
        FG_OPT_U64("--guard", &op->guard, 0, 1u << 24, "BYTES", "guard gap around each buffer, up to 16 MiB (default 4096)"),
        FG_OPT_FLAG("--check", &check, "refuse every global access outside the buffers (below)"),
        FG_OPT_FLAG("--racecheck", &racecheck, "report data races between warps of a block (below)"),
        FG_OPT_STR("--config", &op->cfgpath, "FILE", "the machine's [gpu] and [mem] (default configs/edge.ini)"),
        FG_OPT_LIST("--set", &sets, "gpu.KEY=VALUE|mem.KEY=VALUE", "an override, after the file (repeatable, in order)"),
        FG_OPT_THREADS(&sets),
        FG_OPT_GROUP(fg_wave_opts),
        FG_OPT_END};
    const fg_cli cli = {"fg_run", "--kernel FILE.elf [options]", ABOUT, opts, NULL};
    char err[600];
    int rc = fg_cli_scan(&cli, argc, argv, err, sizeof err);
    op->check = check;
    op->racecheck = racecheck;
    op->sets = sets.v;
    op->ns = sets.n;
    if (rc == FG_CLI_HELP) {
        fg_cli_usage(&cli, stdout);
        return 0;
    }
    if (rc) return fg_run_die(2, "%s", err);
    const char *kpath = op->kpath, *cfgpath = op->cfgpath;
    int nb = op->nb, na = op->na, nd = op->nd, np = op->np, ns = op->ns;
    fbuf *bufs = op->bufs;
    farg *args = op->args;
    fout *dumps = op->dumps, *prints = op->prints;
    if (!kpath) {
        fg_cli_usage(&cli, fg_run_errf ? fg_run_errf : stderr);
        return fg_run_die(2, "no --kernel given");
    }
    /* every buffer reference must name a --buf */
    for (int i = 0; i < na; i++)
        if (args[i].is_buf && !fg_run_find_buf(bufs, nb, args[i].buf, strlen(args[i].buf)))
            return fg_run_die(2, "--arg %s: unknown buffer '%s' (define it with --buf)", args[i].spec, args[i].buf);
    for (int i = 0; i < nd; i++) {
        size_t l = (size_t)(strchr(dumps[i].buf, '=') - dumps[i].buf);
        if (!fg_run_find_buf(bufs, nb, dumps[i].buf, l))
            return fg_run_die(2, "--dump %s: unknown buffer '%.*s'", dumps[i].buf, (int)l, dumps[i].buf);
    }
    for (int i = 0; i < np; i++) {
        const char *c = strchr(prints[i].buf, ':');
        size_t l = c ? (size_t)(c - prints[i].buf) : strlen(prints[i].buf);
        if (!fg_run_find_buf(bufs, nb, prints[i].buf, l))
            return fg_run_die(2, "--print %s: unknown buffer '%.*s'", prints[i].buf, (int)l, prints[i].buf);
    }

    /* machine: [gpu] and [mem] of the config file, then --set gpu.key=value / mem.key=value */
    gpu_config_default(&op->gc);
    fg_config *cfg = fg_config_new();
    if (!cfg) return fg_run_die(2, "out of memory");
    rc = -1;
    char cfgbuf[4096];
    if (cfgpath == DEFAULT_CONFIG) cfgpath = default_config(DEFAULT_CONFIG, cfgbuf, sizeof cfgbuf);
    if (fg_config_load(cfg, cfgpath, err, sizeof err)) rc = fg_run_die(2, "%s", err);
    for (int i = 0; rc < 0 && i < ns; i++) {
        if (strncmp(op->sets[i], "gpu.", 4) && strncmp(op->sets[i], "mem.", 4))
            rc = fg_run_die(2, "--set %s: fg_run models the GPU and its memory system; only gpu.KEY=VALUE and "
                        "mem.KEY=VALUE apply", op->sets[i]);
        else if (fg_config_set(cfg, op->sets[i], err, sizeof err)) rc = fg_run_die(2, "%s", err);
    }
    if (rc < 0 && (gpu_config_load(&op->gc, cfg, err, sizeof err) ||
                   fg_config_check_unused_section(cfg, "gpu", err, sizeof err) ||
                   fg_config_check_unused_section(cfg, "mem", err, sizeof err)))
        rc = fg_run_die(2, "%s", err);
    fg_config_free(cfg);
    return rc;
}
