/* fg_progress: see fg_progress.h. */
#include "fg_progress.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void fg_progress_init(fg_progress *p) {
    const char *term = getenv("TERM");
    memset(p, 0, sizeof *p);
    p->tty = isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb"));
    p->start = now();
}

double fg_progress_elapsed(const fg_progress *p) { return now() - p->start; }

const char *fg_progress_time(double s, char *buf, unsigned len) {
    if (s < 0) {
        snprintf(buf, len, "?");
        return buf;
    }
    unsigned long t = (unsigned long)(s + 0.5);
    if (t >= 3600) snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
    return buf;
}

void fg_progress_clear(fg_progress *p) {
    if (!p->shown) return;
    fputs("\r\033[K", stderr);
    fflush(stderr);
    p->shown = false;
}

void fg_progress_status(fg_progress *p, bool force, const char *fmt, ...) {
    double t = now();
    if (!p->tty || (!force && t - p->drawn < 0.25)) return;
    p->drawn = t;
    va_list ap;
    va_start(ap, fmt);
    fputs("\r\033[K", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fflush(stderr);
    p->shown = true;
}

void fg_progress_counts(fg_progress *p, const char *what, unsigned done, unsigned running, unsigned failed,
                        unsigned total) {
    double el = fg_progress_elapsed(p);
    unsigned fin = done + failed, left = total - fin;
    double eta = fin ? el / fin * left : -1; /* at the rate items finished so far */
    char a[32], b[32];
    fg_progress_status(p, false, "%s: %u/%u done, %u running, %u failed | elapsed %s | ETA %s", what, done, total,
                       running, failed, fg_progress_time(el, a, sizeof a), fg_progress_time(eta, b, sizeof b));
}

void fg_progress_line(fg_progress *p, const char *fmt, ...) {
    bool was = p->shown;
    fg_progress_clear(p);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    if (was) p->drawn = 0; /* redraw at the next status */
}
