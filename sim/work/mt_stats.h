/* mt_stats: the arithmetic of EDGE Figs. 12-13 (sim/work/mt_run.h runs;
 * build/bin/edge_fig12 and edge_fig13 report), kept apart so that
 * tests/test_edge_mt.c checks it against hand-computed cases.
 *
 *   percentile   nearest rank: the ceil(p / 100 * n)-th smallest value
 *   slowdown     runtime shared with the other program(s) / runtime alone
 *   ANTT         average normalized turnaround time (Eyerman & Eeckhout,
 *                IEEE Micro 2008, EDGE [14]): the mean over the programs of
 *                T_shared / T_alone; in one Fig. 13 run the programs are
 *                every event kernel and the background kernel
 *   ratio        of means over pairs: mean(a) / mean(b) (how EDGE's overall
 *                2.6x / 2.9x relate to its per-pair values; the geometric
 *                mean of the per-pair ratios is reported beside it) */
#ifndef WORK_MT_STATS_H
#define WORK_MT_STATS_H

#include <stddef.h>

typedef struct {
    size_t n;
    double avg, p50, p99, max;
} mt_summary;

double mt_mean(const double *x, size_t n);
/* x sorted in place; p in (0, 100]; 0 when n = 0 */
double mt_percentile(double *x, size_t n, double p);
/* n, mean, p50, p99, max (x sorted in place) */
mt_summary mt_summarize(double *x, size_t n);
double mt_slowdown(double shared, double alone);
/* events ev[0..n) run ev[i] cycles each beside a background of bg cycles;
 * alone, an event takes ev_alone and the background bg_alone */
double mt_antt(const double *ev, size_t n, double ev_alone, double bg, double bg_alone);
double mt_ratio_of_means(const double *a, const double *b, size_t n);
double mt_geomean_ratio(const double *a, const double *b, size_t n);

#endif
