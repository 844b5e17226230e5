/* fe_json: what the F/E experiment programs (fe_fig11, fe_fig12) share:
 * their common command-line options, the machine they load (configs/fe.ini
 * by default), and a benchmark run as a point's JSON (runtime, statistics,
 * the command timeline). */
#ifndef FE_JSON_H
#define FE_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "cpu/cpu_core.h"
#include "fe/fe_bench.h"

#define FE_CLI_MAX_SETS 64
typedef struct {
    const char *config, *impl, *kdir, *out;
    const char *sets[FE_CLI_MAX_SETS];
    unsigned n_sets;
    uint64_t seed;
    bool point, check; /* check: --check-config (load and check, run nothing) */
} fe_cli;

void fe_cli_init(fe_cli *c);
/* One of --config FILE, --set s.k=v, --impl I, --seed N, --kdir DIR,
 * --out FILE, --point, --check-config at argv[i]: the arguments it used (1 or 2), 0 if it
 * is not one of them, -1 with a message when its value is missing. */
int fe_cli_arg(fe_cli *c, int argc, char **argv, int i, char *err, size_t errlen);

typedef struct {
    gpu_config gpu;
    fe_host_params host;
    cpu_config cpu;           /* [cpu]: the host CPU of F/E Fig. 12 (sim/fe/fe_cpu.h) */
    unsigned cpu_mem_latency; /* [fe] cpu_mem_latency: its L3, CPU cycles after the L2 lookup */
    char kdir[400];
    char config[400];
    uint64_t seed;
} fe_machine;
/* The machine file, the --set overrides, --impl (the F/E queues, [mem]
 * fe_impl); [gpu], [mem], [host], [pcie], [fe], [cpu]; unread keys are an
 * error. */
int fe_machine_load(const fe_cli *c, fe_machine *m, char *err, size_t errlen);

/* A run as a point: bench, variant, size, runtime, its breakdown, GPU and
 * memory figures, the F/E queues' implementation ("blocks") and the
 * timeline of every command (ns). */
cJSON *fe_result_json(const fe_machine *m, const char *bench, const char *variant, const fe_bench_result *r);

#endif
