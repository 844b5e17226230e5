/* fe_json: what the F/E experiment programs (fe_fig11, fe_fig12) share:
 * their common command-line options, the machine they load (configs/fe.ini
 * by default), and a benchmark run as a point's JSON (runtime, statistics,
 * the command timeline). */
#ifndef FE_JSON_H
#define FE_JSON_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "fe/fe_cpu.h"
#include "fe/fe_bench.h"
#include "work/exp_cli.h"

typedef struct {
    exp_cli e; /* --config (default configs/fe.ini), --set, --threads, --impl, --point, --merge, --out,
                  --check-config, the wave options */
    const char *kdir;
    uint64_t seed;
    fg_opt opts[4]; /* e's group, --seed N, --kdir DIR: a group for the program's table (fg_cli.h) */
} fe_cli;

/* the defaults and the group c->opts; c is not to be moved or copied after */
void fe_cli_init(fe_cli *c);
void fe_cli_free(fe_cli *c);

typedef struct {
    gpu_config gpu;
    fe_host_params host;
    cpu_config cpu;           /* [cpu]: the host CPU of F/E Fig. 12 (sim/fe/fe_cpu.h) */
    fe_cpu_env cpu_env;       /* [fe] cpu_mem_latency, cpu_first_touch_ns, cpu_page_bytes (sim/fe/fe_cpu.h) */
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
