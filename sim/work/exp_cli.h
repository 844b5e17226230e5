/* exp_cli: the command line the experiment programs on the sweep runner
 * share (docs/SWEEPS.md "What an experiment program provides"):
 *
 *   --config FILE   the machine (default per program, e.g. configs/edge.ini)
 *   --exp FILE      the experiment's own file, loaded after it
 *   --set s.k=v     overrides, after both, in order (repeatable)
 *   --threads N     = --set gpu.threads=N
 *   --impl rtl|c|lockstep   every RTL block of the run: each core's PEWT and
 *                   preemption controller and each partition's F/E queues
 *   --point         run one point        --merge LIST   merge point files
 *   --out FILE      the point's or the result's JSON
 *   --check-config  load and check the configuration and overrides, run
 *                   nothing, write nothing (scripts/sweep.py, every point
 *                   before the first runs)
 *   --wave FILE.fst, --wave-start/-end/-at/-span   one FST of the point's
 *                   run (sim/harness/fg_wave.h)
 *
 * A group of options of fg_cli (sim/harness/fg_cli.h), spliced into each
 * program's table.  Used by build/bin/preemption_latency, edge_fig12,
 * edge_fig13 and launch_latency (no --exp), and by fe_fig11 / fe_fig12
 * through fe_cli (sim/fe/fe_json.h). */
#ifndef WORK_EXP_CLI_H
#define WORK_EXP_CLI_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>

#include "fg_cli.h"
#include "fg_config.h"
#include "simt/gpu.h"

typedef struct {
    const char *config, *exp, *out, *merge, *impl; /* impl: NULL, or rtl, c or lockstep */
    fg_cli_list sets;                              /* --set and --threads, in order */
    bool point, check;
    fg_opt opts[16];  /* the options above and fg_wave_opts: a group for the program's table (fg_cli.h) */
    char help[3][160];
} exp_cli;

/* The defaults (out may be NULL: required; exp NULL: no --exp option) and
 * the group a->opts; a is not to be moved or copied after. */
void exp_cli_init(exp_cli *a, const char *config, const char *exp, const char *out);
void exp_cli_free(exp_cli *a);
/* --config, --exp, then every --set, into cfg; -1 with err */
int exp_cli_load(const exp_cli *a, fg_config *cfg, char *err, size_t errlen);
/* --impl (when given) onto gc's RTL blocks; -1 with err */
int exp_cli_impl(const exp_cli *a, gpu_config *gc, char *err, size_t errlen);
/* --merge's point files as one array, or NULL after printing why */
cJSON *exp_cli_points(const exp_cli *a, const char *prog);
/* no key of [gpu], [preempt], [mem] or [own] went unread (a typo) and no
 * override or file section is one the program does not read
 * (fg_config_check_sections); -1 with err */
int exp_cli_check_unused(fg_config *cfg, const char *own, char *err, size_t errlen);
/* --check-config: after the configuration was loaded and checked, prints
 * "prog: configuration ok" and returns 1 (the caller exits 0); else 0 */
int exp_cli_checked(const exp_cli *a, const char *prog);
/* writes a result file and says so ("wrote FILE"), or prints why not
 * (prefixed with prog); 0 written, 1 not */
int exp_write_result(cJSON *root, const char *out, const char *prog);

#endif
