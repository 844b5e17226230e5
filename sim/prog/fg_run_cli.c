/* fg_run's command line (fg_run_cli.h). */
#include "fg_run_cli.h"

#include <float.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fg_config.h"
#include "fg_util.h"
#include "fg_wave.h"

#define USAGE                                                                                          \
    "usage: fg_run --kernel FILE.elf [--entry SYMBOL] [--grid X[,Y[,Z]]] [--block X[,Y[,Z]]]\n"          \
    "              [--shmem BYTES] [--buf NAME=TYPE:COUNT[:INIT]]... [--arg TYPE:VALUE]...\n"          \
    "              [--dump NAME=FILE]... [--print NAME[:N]]... [--max-cycles N] [--max-seconds S]\n"   \
    "              [--guard BYTES] [--check] [--racecheck] [--config FILE]\n"                          \
    "              [--set gpu.key=value | mem.key=value]... [--threads N] [--wave FILE.fst ...]\n"    \
    "  TYPE of a buffer: u8 i8 u16 i16 u32 i32 f32\n"                                                  \
    "  INIT: zero (default) | ramp (element i = i) | fill:VALUE | random:SEED | file:PATH (raw bytes,\n" \
    "        exactly COUNT elements)\n"                                                                \
    "  --arg (4 bytes each, packed in order into the parameter block = a0):\n"                         \
    "        u32:VALUE | i32:VALUE | f32:VALUE | buf:NAME (the buffer's GPU address)\n"                \
    "  --guard: bytes of guard gap around each buffer and the parameter block (checked after the run)\n"  \
    "  --check: refuse (fault) every global access outside the buffers, parameter block and kernel image,\n" \
    "        and one through a pointer derived from a buf: argument that lands outside that buffer\n"       \
    "  --racecheck: report shared-memory and --buf accesses of two threads of a block (different warps) with no\n" \
    "        barrier between them, at least one a write and not both atomic; exit 1 if any\n"             \
    "  --max-seconds: give up after S seconds of wall-clock time (0 = no limit)\n"                      \
    "  --threads N: host threads that step the SIMT cores (gpu.threads; 0 = $FG_THREADS or the processors;\n" \
    "        --check and --racecheck step them on one)\n"                                          \
    "  defaults: --entry main, --grid 1, --block 32, --max-cycles 10000000, --max-seconds 0, --guard 4096,\n" \
    "            --config configs/edge.ini\n"

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
static int parse_buf(const char *spec, fbuf *bufs, int nb, fbuf *out) {
    const char *eq = strchr(spec, '=');
    if (!eq || !valid_name(spec, (size_t)(eq - spec)))
        return fg_run_die(2, "--buf %s: expected NAME=TYPE:COUNT[:INIT] with NAME a C identifier", spec);
    if (fg_run_find_buf(bufs, nb, spec, (size_t)(eq - spec)))
        return fg_run_die(2, "--buf %s: buffer '%.*s' defined twice", spec, (int)(eq - spec), spec);
    memset(out, 0, sizeof *out);
    memcpy(out->name, spec, (size_t)(eq - spec));
    const char *ty = eq + 1, *c1 = strchr(ty, ':');
    if (!c1 || (out->type = find_type(ty, (size_t)(c1 - ty))) < 0)
        return fg_run_die(2, "--buf %s: unknown or missing element type (u8 i8 u16 i16 u32 i32 f32)", spec);
    const char *cnt = c1 + 1, *c2 = strchr(cnt, ':');
    char num[32];
    size_t ln = c2 ? (size_t)(c2 - cnt) : strlen(cnt);
    if (ln >= sizeof num) ln = sizeof num - 1;
    memcpy(num, cnt, ln);
    num[ln] = 0;
    if (fg_run_parse_u64(num, UINT32_MAX, &out->count) || !out->count)
        return fg_run_die(2, "--buf %s: bad element count '%s' (expected a number >= 1)", spec, num);
    out->bytes = out->count * fg_run_type_size[out->type];
    out->init = c2 ? c2 + 1 : "zero";
    const char *in = out->init;
    uint32_t bits;
    uint64_t seed;
    if (!strcmp(in, "zero") || !strcmp(in, "ramp")) return 0;
    if (!strncmp(in, "fill:", 5)) {
        if (fg_run_parse_value(out->type, in + 5, &bits))
            return fg_run_die(2, "--buf %s: fill value '%s' is not a valid %s", spec, in + 5, fg_run_type_name[out->type]);
        return 0;
    }
    if (!strncmp(in, "random:", 7)) {
        if (fg_run_parse_u64(in + 7, UINT64_MAX, &seed)) return fg_run_die(2, "--buf %s: bad random seed '%s'", spec, in + 7);
        return 0;
    }
    if (!strncmp(in, "file:", 5) && in[5]) return 0;
    return fg_run_die(2, "--buf %s: unknown initialiser '%s' (zero, ramp, fill:VALUE, random:SEED, file:PATH)", spec, in);
}

/* TYPE:VALUE or buf:NAME */
static int parse_arg(const char *spec, farg *a) {
    memset(a, 0, sizeof *a);
    a->spec = spec;
    const char *c = strchr(spec, ':');
    if (!c) return fg_run_die(2, "--arg %s: expected TYPE:VALUE (u32, i32, f32) or buf:NAME", spec);
    if (!strncmp(spec, "buf:", 4)) {
        a->is_buf = 1;
        a->buf = spec + 4;
        return 0;
    }
    int t = find_type(spec, (size_t)(c - spec));
    if (t != T_U32 && t != T_I32 && t != T_F32)
        return fg_run_die(2, "--arg %s: argument type must be u32, i32, f32 or buf (every argument takes 4 bytes)", spec);
    if (fg_run_parse_value(t, c + 1, &a->bits)) return fg_run_die(2, "--arg %s: '%s' is not a valid %s", spec, c + 1, fg_run_type_name[t]);
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

/* Parses and checks argv up to, not including, building the GPU: -1 to go
 * on, else the exit status (0 after --help; 2 with the error on stderr).
 * tests/fuzz/fuzz_cli.c fuzzes it. */
int fg_run_parse(int argc, char **argv, fg_run_opts *op) {
    fg_run_opts o = {.entry = "main", .cfgpath = "configs/edge.ini", .grid = {1, 1, 1}, .block = {32, 1, 1},
                     .max_cycles = 10000000ull, .guard = 4096};
    o.bufs = calloc((size_t)argc, sizeof *o.bufs);
    o.args = calloc((size_t)argc, sizeof *o.args);
    o.dumps = calloc((size_t)argc, sizeof *o.dumps);
    o.prints = calloc((size_t)argc, sizeof *o.prints);
    o.sets = calloc((size_t)argc, sizeof *o.sets);
    *op = o;
    if (!o.bufs || !o.args || !o.dumps || !o.prints || !o.sets) return fg_run_die(2, "out of memory");
    const char *kpath = NULL, *entry = o.entry, *cfgpath = o.cfgpath;
    uint32_t *grid = op->grid, *block = op->block;
    uint64_t shmem = o.shmem, max_cycles = o.max_cycles, guard = o.guard;
    double max_seconds = 0;
    int check = 0;
    int nb = 0, na = 0, nd = 0, np = 0, ns = 0;
    fbuf *bufs = o.bufs;
    farg *args = o.args;
    fout *dumps = o.dumps, *prints = o.prints;
    const char **sets = o.sets;

    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            fputs(USAGE, stdout);
            fputs(fg_wave_usage, stdout);
            return 0;
        }
        if (!strcmp(o, "--check")) {
            check = 1;
            continue;
        }
        if (!strcmp(o, "--racecheck")) {
            op->racecheck = 1;
            continue;
        }
        if (fg_wave_arg("fg_run", argc, argv, &i)) continue;
        if (o[0] != '-' || i + 1 >= argc)
            return fg_run_die(2, o[0] == '-' ? "option %s needs a value (fg_run --help lists the options)"
                                      : "unexpected argument '%s' (fg_run --help lists the options)", o);
        const char *v = argv[++i];
        if (!strcmp(o, "--kernel")) kpath = v;
        else if (!strcmp(o, "--entry")) entry = v;
        else if (!strcmp(o, "--config")) cfgpath = v;
        else if (!strcmp(o, "--set")) sets[ns++] = v;
        else if (!strcmp(o, "--threads")) sets[ns++] = fg_config_threads_set(v);
        else if (!strcmp(o, "--grid") || !strcmp(o, "--block")) {
            if (parse_dims(v, o[2] == 'g' ? grid : block))
                return fg_run_die(2, "%s %s: expected X[,Y[,Z]], each a whole number from 1 to 2^31-1 (decimal or 0x hex, no leading zero)", o, v);
        } else if (!strcmp(o, "--shmem")) {
            if (fg_run_parse_u64(v, UINT32_MAX, &shmem)) return fg_run_die(2, "--shmem %s: expected a byte count", v);
        } else if (!strcmp(o, "--max-cycles")) {
            if (fg_run_parse_u64(v, UINT64_MAX, &max_cycles) || !max_cycles)
                return fg_run_die(2, "--max-cycles %s: expected a number >= 1", v);
        } else if (!strcmp(o, "--max-seconds")) {
            char e[256];
            if (fg_num_double("--max-seconds", v, 0, 1e9, &max_seconds, e, sizeof e))
                return fg_run_die(2, "--max-seconds %s: expected seconds >= 0 (0 = no limit)", v);
        } else if (!strcmp(o, "--guard")) {
            if (fg_run_parse_u64(v, 1u << 24, &guard)) return fg_run_die(2, "--guard %s: expected a byte count up to 16 MiB", v);
        } else if (!strcmp(o, "--buf")) {
            if (parse_buf(v, bufs, nb, &bufs[nb])) return 2;
            nb++;
        } else if (!strcmp(o, "--arg")) {
            if (parse_arg(v, &args[na])) return 2;
            na++;
        } else if (!strcmp(o, "--dump")) {
            const char *eq = strchr(v, '=');
            if (!eq || !eq[1]) return fg_run_die(2, "--dump %s: expected NAME=FILE", v);
            dumps[nd].buf = v;
            dumps[nd].path = eq + 1;
            nd++;
        } else if (!strcmp(o, "--print")) {
            const char *c = strchr(v, ':');
            prints[np].buf = v;
            prints[np].n = 8;
            if (c && (fg_run_parse_u64(c + 1, UINT64_MAX, &prints[np].n) || !prints[np].n))
                return fg_run_die(2, "--print %s: expected NAME[:N] with N >= 1", v);
            np++;
        } else {
            return fg_run_die(2, "unknown option %s (fg_run --help lists the options)", o);
        }
    }
    if (!kpath) {
        fputs(USAGE, fg_run_errf ? fg_run_errf : stderr);
        return fg_run_die(2, "no --kernel given");
    }
    int entry_given = 0;
    for (int i = 1; i < argc; i++) entry_given |= !strcmp(argv[i], "--entry");
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
    char err[512];
    gpu_config_default(&op->gc);
    fg_config *cfg = fg_config_new();
    if (!cfg) return fg_run_die(2, "out of memory");
    int rc = -1;
    char cfgbuf[4096];
    if (cfgpath == o.cfgpath) cfgpath = default_config(o.cfgpath, cfgbuf, sizeof cfgbuf);
    if (fg_config_load(cfg, cfgpath, err, sizeof err)) rc = fg_run_die(2, "%s", err);
    for (int i = 0; rc < 0 && i < ns; i++) {
        if (strncmp(sets[i], "gpu.", 4) && strncmp(sets[i], "mem.", 4))
            rc = fg_run_die(2, "--set %s: fg_run models the GPU and its memory system; only gpu.KEY=VALUE and "
                        "mem.KEY=VALUE apply", sets[i]);
        else if (fg_config_set(cfg, sets[i], err, sizeof err)) rc = fg_run_die(2, "%s", err);
    }
    if (rc < 0 && (gpu_config_load(&op->gc, cfg, err, sizeof err) ||
                   fg_config_check_unused_section(cfg, "gpu", err, sizeof err) ||
                   fg_config_check_unused_section(cfg, "mem", err, sizeof err)))
        rc = fg_run_die(2, "%s", err);
    fg_config_free(cfg);
    op->kpath = kpath;
    op->entry = entry;
    op->cfgpath = cfgpath;
    op->shmem = shmem;
    op->max_cycles = max_cycles;
    op->guard = guard;
    op->max_seconds = max_seconds;
    op->check = check;
    op->entry_given = entry_given;
    op->nb = nb, op->na = na, op->nd = nd, op->np = np, op->ns = ns;
    return rc;
}
