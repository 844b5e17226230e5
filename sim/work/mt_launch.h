/* mt_launch: the launch-path report of EDGE Fig. 13's runs (build/bin/edge_fig13
 * --merge of points run with [edge_fig13] timeline = true; sim/work/mt_run.h
 * launch / ring): for every event kind, background and rate, each path's
 * end-to-end request latency (first byte at the device -> the device told
 * of the completion), mean and p99, and where a mean request's time goes:
 *
 *   first_byte  the device -> GPU half round trip of its first byte
 *   slot_wait   waiting for a free slot ([mt] overflow = hold)
 *   to_start    the DMA's start at the GPU -> the event warp's START (host:
 *               its first instruction): the DMA, the launch, preemption
 *   exec        START -> complete (early: includes waiting for its words)
 *   notify      complete -> the device told
 *
 * and, beside them, the DMA (start -> last line acknowledged), the launch
 * after it (acknowledged -> launch; early: 0, it came first) and the part of
 * the execution that overlapped the DMA (START -> acknowledged, when START
 * came first).  Paths are named launch/ring (after_ack/plain, early/sync,
 * host/plain, ...); the result's cells are cells.<event>/<background>.<rate>.<path>.  docs/RESULTS.md "Launching before the data lands". */
#ifndef WORK_MT_LAUNCH_H
#define WORK_MT_LAUNCH_H

#include <cjson/cJSON.h>
#include <stdbool.h>

/* True when some point carries a timeline. */
bool mt_launch_points(const cJSON *points);
/* The report of `points` written to `out` and printed; 0, or 1 with a
 * message on stderr naming prog. */
int mt_launch_report(const cJSON *points, const char *out, const char *prog);

#endif
