/* A fixed pool of threads that runs one function on every thread and waits
 * for all of them: the parallel part of a simulated cycle (the GPU's SIMT
 * cores, docs/SIMT.md "Threads").  The caller is thread 0.  Workers spin
 * between runs (a cycle's parallel part is microseconds apart from the
 * next) and sleep once nothing came for a while (a serial stretch of the
 * simulation, or the end of the run).
 *
 * What a run computes must not depend on how the work is split: the users
 * give each thread work that touches nothing another thread's does, and do
 * the shared part themselves, in a fixed order, between runs. */
#ifndef FG_POOL_H
#define FG_POOL_H

#include <stddef.h>

typedef struct fg_pool fg_pool;
typedef void (*fg_pool_fn)(void *arg, unsigned t, unsigned n); /* thread t of n */

/* n threads in all, counting the caller (n >= 2); NULL when one could not
 * be started (err says why). */
fg_pool *fg_pool_new(unsigned n, char *err, size_t errlen);
unsigned fg_pool_threads(const fg_pool *p);
/* fn(arg, t, n) on every thread; returns when every call has returned. */
void fg_pool_run(fg_pool *p, fg_pool_fn fn, void *arg);
/* The same work on every thread, or all of it as fn(arg, 0, 1) on the
 * caller, whichever took less wall time per call lately: on a machine whose
 * processors are busy with other work a thread may wait for one that is not
 * running, and where moving a cache line between processors is slow (a
 * virtual machine's processors placed far apart) the cores' state moving
 * between the threads every cycle costs more than it saves: one thread is
 * then faster.  Calls are timed in windows of
 * FG_POOL_WINDOW; after FG_POOL_PROBE windows two run the other way to
 * notice a change, the first of them untimed (the switch moves the cores'
 * state between the processors' caches: a cost of the switch, not of the
 * way); the interval doubles, to 64 times that, while the probes confirm
 * the choice.  $FG_POOL_ADAPT=0 keeps every call on the threads.  Returns
 * whether this call ran on the threads.  The caller's results must not
 * depend on the choice (fg_pool's rule above). */
enum { FG_POOL_WINDOW = 1024, FG_POOL_PROBE = 16 };
int fg_pool_run_adaptive(fg_pool *p, fg_pool_fn fn, void *arg);
void fg_pool_free(fg_pool *p);

/* The number of threads a simulation uses when its configuration says 0:
 * $FG_THREADS when set (a number 1..256; anything else is refused: -1 with
 * err), else the processors online. */
int fg_threads_default(unsigned *out, char *err, size_t errlen);

#endif
