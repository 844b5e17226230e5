/* fg_cli: the one command-line reader of every program (sim/prog/).
 *
 * A program describes its options in a table, one fg_opt each, ended by
 * FG_OPT_END; a FG_OPT_GROUP entry splices in another table (the wave
 * options of fg_wave.h, the experiment options of work/exp_cli.h).  One call
 * reads argv against it:
 *
 *   bool quiet = false; uint64_t cycles = 20000; const char *out = "r.json";
 *   const fg_opt opts[] = {
 *       FG_OPT_U64("--cycles", &cycles, 1, UINT64_MAX, "N", "cycles to run (default 20000)"),
 *       FG_OPT_STR("--out", &out, "FILE", "the result file (default r.json)"),
 *       FG_OPT_FLAG("--quiet", &quiet, "no progress lines"),
 *       FG_OPT_END};
 *   fg_cli_parse(&(fg_cli){"mesh_load", NULL, NULL, opts, NULL}, argc, argv);
 *
 * Every option is "--name" or "--name VALUE" (the next argument, whatever it
 * starts with); a later value of a single-valued option replaces an earlier
 * one.  Numbers are read by fg_num_* (fg_util.h: decimal or 0x hex, no
 * leading zero, range-checked).  -h / --help prints the usage generated from
 * the table (one line per option) on stdout.  Every error is one line,
 * "prog: --opt VALUE: why" (or "prog: --opt needs a value", "prog: unknown
 * option --x (prog --help lists the options)"), exit status 2. */
#ifndef FG_CLI_H
#define FG_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fg_block.h"

/* The values of a repeatable option (--set), in command-line order; they
 * point into argv (or at what a callback added). */
typedef struct {
    const char **v;
    int n, cap;
} fg_cli_list;
/* 0, or -1 when out of memory */
int fg_cli_list_add(fg_cli_list *l, const char *s);
void fg_cli_list_free(fg_cli_list *l);

typedef enum {
    FG_OPT_KIND_END = 0,
    FG_OPT_KIND_FLAG,   /* bool *, set true */
    FG_OPT_KIND_STR,    /* const char ** */
    FG_OPT_KIND_U64,    /* uint64_t *, in [min, max] */
    FG_OPT_KIND_UINT,   /* unsigned *, in [min, max] (max <= UINT_MAX) */
    FG_OPT_KIND_DOUBLE, /* double *, in [dmin, dmax] */
    FG_OPT_KIND_CHOICE, /* const char **, one of choices ("a|b|c") */
    FG_OPT_KIND_IMPL,   /* fg_impl *, rtl | c | lockstep */
    FG_OPT_KIND_LIST,   /* fg_cli_list *, repeatable */
    FG_OPT_KIND_CALL,   /* call(ctx, name, value, err, errlen): 0, or -1 with err */
    FG_OPT_KIND_GROUP,  /* group: another table */
    FG_OPT_KIND_CHECK,  /* call(ctx, NULL, NULL, err, errlen) once all options are read: options that need others */
} fg_opt_kind;

typedef struct fg_opt {
    const char *name; /* "--cycles" */
    fg_opt_kind kind;
    void *dst;        /* what the kind says; CALL: its ctx */
    const char *arg;  /* the value's name in the usage ("N", "FILE"); NULL: a flag */
    const char *help; /* one line */
    uint64_t min, max;
    double dmin, dmax;
    const char *choices;
    int (*call)(void *ctx, const char *name, const char *value, char *err, size_t errlen);
    const struct fg_opt *group;
} fg_opt;

/* p, checked to be a T * (a mismatch is a compile-time warning) */
#define FG_OPT_PTR(T, p) (1 ? (p) : (T *)0)
#define FG_OPT_FLAG(n, p, h) {.name = (n), .kind = FG_OPT_KIND_FLAG, .dst = FG_OPT_PTR(bool, p), .help = (h)}
#define FG_OPT_STR(n, p, a, h) {.name = (n), .kind = FG_OPT_KIND_STR, .dst = FG_OPT_PTR(const char *, p), .arg = (a), .help = (h)}
#define FG_OPT_U64(n, p, lo, hi, a, h)                                                                         \
    {.name = (n), .kind = FG_OPT_KIND_U64, .dst = FG_OPT_PTR(uint64_t, p), .arg = (a), .help = (h), .min = (lo), .max = (hi)}
#define FG_OPT_UINT(n, p, lo, hi, a, h)                                                                        \
    {.name = (n), .kind = FG_OPT_KIND_UINT, .dst = FG_OPT_PTR(unsigned, p), .arg = (a), .help = (h), .min = (lo), .max = (hi)}
#define FG_OPT_DOUBLE(n, p, lo, hi, a, h)                                                                      \
    {.name = (n), .kind = FG_OPT_KIND_DOUBLE, .dst = FG_OPT_PTR(double, p), .arg = (a), .help = (h), .dmin = (lo), .dmax = (hi)}
#define FG_OPT_CHOICE(n, p, c, h)                                                                              \
    {.name = (n), .kind = FG_OPT_KIND_CHOICE, .dst = FG_OPT_PTR(const char *, p), .arg = (c), .help = (h), .choices = (c)}
#define FG_OPT_IMPL(n, p, h)                                                                                   \
    {.name = (n), .kind = FG_OPT_KIND_IMPL, .dst = FG_OPT_PTR(fg_impl, p), .arg = "rtl|c|lockstep", .help = (h)}
#define FG_OPT_LIST(n, p, a, h) {.name = (n), .kind = FG_OPT_KIND_LIST, .dst = FG_OPT_PTR(fg_cli_list, p), .arg = (a), .help = (h)}
#define FG_OPT_CALL(n, fn, ctx, a, h) {.name = (n), .kind = FG_OPT_KIND_CALL, .dst = (ctx), .arg = (a), .help = (h), .call = (fn)}
#define FG_OPT_GROUP(g) {.name = "", .kind = FG_OPT_KIND_GROUP, .group = (g)}
#define FG_OPT_CHECK(fn, ctx) {.name = "", .kind = FG_OPT_KIND_CHECK, .dst = (ctx), .call = (fn)}
#define FG_OPT_END {.name = NULL}
/* --threads N onto a --set list, as gpu.threads=N (docs/SIMT.md "Threads") */
#define FG_OPT_THREADS(list)                                                                                   \
    FG_OPT_CALL("--threads", fg_cli_threads, FG_OPT_PTR(fg_cli_list, list), "N",                                      \
                "host threads stepping the SIMT cores (= --set gpu.threads=N; 0: $FG_THREADS or the processors)")
int fg_cli_threads(void *list, const char *name, const char *value, char *err, size_t errlen);

typedef struct {
    const char *prog;     /* in messages and the usage */
    const char *synopsis; /* the usage's forms after "usage: prog ", '\n' between two (each printed as
                             "prog FORM"); NULL: "[options]" */
    const char *about;    /* printed after the options (NULL: nothing) */
    const fg_opt *opts;
    fg_cli_list *operands; /* arguments not starting with '-' (NULL: refused) */
} fg_cli;

enum { FG_CLI_OK = 0, FG_CLI_HELP = 1, FG_CLI_ERROR = -1 };
/* Reads argv[1..argc) into the table's destinations: FG_CLI_OK, FG_CLI_HELP
 * (-h / --help: nothing printed), or FG_CLI_ERROR with the one-line message
 * in err (without "prog: "). */
int fg_cli_scan(const fg_cli *c, int argc, char **argv, char *err, size_t errlen);
/* fg_cli_scan for a program: on --help the usage on stdout and exit 0; on an
 * error "prog: message" on stderr and exit 2. */
void fg_cli_parse(const fg_cli *c, int argc, char **argv);
/* "usage: prog SYNOPSIS", one line per option, the about text */
void fg_cli_usage(const fg_cli *c, FILE *f);

#endif
