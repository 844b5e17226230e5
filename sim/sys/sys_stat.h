/* sys_stat: count, sum, minimum and maximum of one measured quantity of the
 * launch-path system (sys.h's results, the NIC's own measurements). */
#ifndef SYS_STAT_H
#define SYS_STAT_H

#include <stdint.h>

typedef struct {
    uint64_t n;
    double sum, min, max;
} sys_stat;

static inline void sys_stat_add(sys_stat *s, double v) {
    if (!s->n || v < s->min) s->min = v;
    if (!s->n || v > s->max) s->max = v;
    s->sum += v;
    s->n++;
}
static inline double sys_stat_avg(const sys_stat *s) { return s->n ? s->sum / (double)s->n : 0.0; }

#endif
