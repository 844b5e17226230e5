/* mt_prog: what build/bin/edge_fig12 and build/bin/edge_fig13 share: the
 * command line, the configuration (configs/edge.ini, the experiment's file
 * configs/<name>.ini, --set), one point (one mt_run, sim/work/mt_run.h) and
 * its JSON, and the point files of --merge.
 *
 *   <name> [--config configs/edge.ini] [--exp configs/<name>.ini]
 *          [--set section.key=value]... [--impl rtl|c|lockstep]
 *          --point --out POINT.json          one run, as [<name>] says
 *   <name> --merge LIST --out results/<name>.json
 *                                            the points listed (one path a
 *                                            line) -> the result and report
 *
 * --impl picks every RTL block of the run: each core's PEWT and preemption
 * controller and each memory partition's F/E queues (default: [preempt]
 * impl and [mem] fe_impl, rtl in configs/edge.ini).  The EKT and doorbell
 * decoder are not in these runs: events enter at the SIMT core scheduler
 * (as in EDGE's Figs. 12-13, which start at the KMU / SIMT core scheduler).
 * docs/RESULTS.md, docs/SWEEPS.md. */
#ifndef WORK_MT_PROG_H
#define WORK_MT_PROG_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "fg_config.h"
#include "simt/gpu.h"
#include "work/mt_run.h"

typedef struct {
    const char *name; /* program name and its section in the experiment file */
    /* after mt_params_load: the figure's own keys of [name] (NULL: none) */
    int (*prepare)(mt_params *x, gpu_config *gc, fg_config *cfg, cJSON *point, char *err, size_t errlen);
    /* --merge: points in list order -> out and a printed report; 0 ok */
    int (*report)(const cJSON *points, const char *out, const char *prog);
    /* optional, after prepare: what runs beside the GPU (*h; its keys of cfg
     * read, impl = --impl or NULL); -1 with a message */
    int (*beside)(fg_config *cfg, const char *impl, mt_hooks *h, char *err, size_t errlen);
    /* after the run: its figures and blocks into the point; frees what
     * beside made */
    void (*beside_done)(cJSON *point);
} mt_fig;

int mt_prog_main(int argc, char **argv, const mt_fig *f);

/* for the reports: a point's string / its number array as doubles
 * (malloc'd, *n elements; NULL when absent or empty) */
const char *mt_jstr(const cJSON *o, const char *key);
double *mt_jarray(const cJSON *o, const char *key, size_t *n);
/* every point ok, of one size and block implementation; else prints why
 * and returns 1 */
int mt_points_ok(const cJSON *points, const char *prog);
/* the points' "blocks" object, copied (for the result file) */
cJSON *mt_blocks(const cJSON *points);

#endif
