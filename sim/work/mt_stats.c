/* mt_stats: see mt_stats.h. */
#include "work/mt_stats.h"

#include <math.h>
#include <stdlib.h>

double mt_mean(const double *x, size_t n) {
    double s = 0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return n ? s / (double)n : 0;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double mt_percentile(double *x, size_t n, double p) {
    if (!n) return 0;
    qsort(x, n, sizeof *x, cmp_d);
    size_t k = (size_t)ceil(p / 100.0 * (double)n - 1e-9); /* rank 1..n */
    return x[(k ? k : 1) - 1];
}

mt_summary mt_summarize(double *x, size_t n) {
    mt_summary s = {n, mt_mean(x, n), 0, 0, 0};
    s.p50 = mt_percentile(x, n, 50);
    s.p99 = mt_percentile(x, n, 99);
    s.max = n ? x[n - 1] : 0;
    return s;
}

double mt_slowdown(double shared, double alone) { return alone > 0 ? shared / alone : 0; }

double mt_antt(const double *ev, size_t n, double ev_alone, double bg, double bg_alone) {
    double s = mt_slowdown(bg, bg_alone);
    for (size_t i = 0; i < n; i++) s += mt_slowdown(ev[i], ev_alone);
    return s / (double)(n + 1);
}

double mt_ratio_of_means(const double *a, const double *b, size_t n) {
    double mb = mt_mean(b, n);
    return mb > 0 ? mt_mean(a, n) / mb : 0;
}

double mt_geomean_ratio(const double *a, const double *b, size_t n) {
    double s = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (a[i] > 0 && b[i] > 0) s += log(a[i] / b[i]), k++;
    return k ? exp(s / (double)k) : 0;
}
