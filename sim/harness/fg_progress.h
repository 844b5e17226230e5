/* fg_progress: a progress line on stderr for long programs.
 *
 * On a terminal, fg_progress_status() redraws one status line in place (at
 * most four times a second) and fg_progress_line() prints a line that stays,
 * the status line redrawn below it.  When stderr is not a terminal the status
 * line is never printed, so logs and pipes get nothing extra. */
#ifndef FG_PROGRESS_H
#define FG_PROGRESS_H

#include <stdbool.h>

typedef struct {
    bool tty;            /* stderr is a terminal */
    bool shown;          /* a status line is on screen */
    double start, drawn; /* monotonic seconds */
} fg_progress;

void fg_progress_init(fg_progress *p);
/* Seconds since fg_progress_init. */
double fg_progress_elapsed(const fg_progress *p);
/* "m:ss" (or "h:mm:ss") of s seconds into buf; "?" for s < 0. */
const char *fg_progress_time(double s, char *buf, unsigned len);
/* The status line (terminal only; rate-limited unless force). */
void fg_progress_status(fg_progress *p, bool force, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* "done/total done, running, failed | elapsed | ETA" from counts, the ETA
 * from the rate at which items finished so far. */
void fg_progress_counts(fg_progress *p, const char *what, unsigned done, unsigned running, unsigned failed,
                        unsigned total);
/* A line that stays (printed whether or not stderr is a terminal). */
void fg_progress_line(fg_progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Removes the status line. */
void fg_progress_clear(fg_progress *p);

#endif
