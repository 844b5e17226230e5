/* fg_run's command line (sim/prog/fg_run_main.c runs what it describes;
 * tests/fuzz/fuzz_cli.c fuzzes fg_run_parse): the options, buffer and
 * argument specs, dimensions, numbers, --dump / --print references, and
 * --config / --set into the GPU configuration, each checked. */
#ifndef FG_RUN_CLI_H
#define FG_RUN_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "simt/gpu.h"

/* element types of --buf and --arg */
enum { T_U8, T_I8, T_U16, T_I16, T_U32, T_I32, T_F32, T_N };
extern const char *const fg_run_type_name[T_N];
extern const unsigned fg_run_type_size[T_N];

typedef struct {
    char name[64];
    int type;
    uint64_t count, bytes, addr;
    const char *init; /* "zero", "ramp", "fill:V", "random:S", "file:P", "empty" (F/E region, zero, every word empty) */
} fbuf;

typedef struct {
    int is_buf;
    uint32_t bits;
    const char *buf;
    const char *spec;
} farg;

typedef struct {
    const char *buf, *path; /* --dump */
    uint64_t n;             /* --print */
} fout;

/* Everything the command line says, checked: the options, the buffer
 * references, the machine ([gpu] and [mem] of --config, then --set). */
typedef struct {
    const char *kpath, *entry, *cfgpath;
    uint32_t grid[3], block[3];
    uint64_t shmem, max_cycles, guard;
    double max_seconds;
    int check, racecheck, entry_given;
    int nb, na, nd, np, ns;
    fbuf *bufs;
    farg *args;
    fout *dumps, *prints;
    const char **sets;
    gpu_config gc;
} fg_run_opts;

/* where errors go: stderr, or what the fuzz harness sets */
extern FILE *fg_run_errf;
/* "fg_run: <message>" on fg_run_errf; returns rc */
int fg_run_die(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* fg_num_u64's forms (decimal or 0x hex, no octal), up to max: 0, else -1 */
int fg_run_parse_u64(const char *s, uint64_t max, uint64_t *out);
/* A value of type t as its little-endian bits (integers: range-checked): 0, else -1 */
int fg_run_parse_value(int t, const char *s, uint32_t *bits);
/* the --buf among b[0..n) named name[0..len), or NULL */
fbuf *fg_run_find_buf(fbuf *b, int n, const char *name, size_t len);
/* Parses and checks argv up to, not including, building the GPU: -1 to go
 * on, else the exit status (0 after --help; 2 with the error on
 * fg_run_errf).  *op is to be freed with fg_run_opts_free either way. */
int fg_run_parse(int argc, char **argv, fg_run_opts *op);
void fg_run_opts_free(fg_run_opts *o);

#endif
