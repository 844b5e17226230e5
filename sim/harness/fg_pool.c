#include "fg_pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fg_util.h"

/* A waiting thread spins (a busy cycle's serial part is a few microseconds),
 * then yields the processor (more threads than free processors: the thread
 * it waits for may need this one), and a waiting worker finally sleeps (a
 * serial stretch of the simulation, or its end). */
enum { SPINS = 1 << 10, YIELDS = 1 << 6 };

/* The fields each thread writes sit on cache lines of their own: a line
 * one thread writes while another spins on it moves between the processors
 * at every write, and a run's handoff should cost a few line moves. */
struct fg_pool {
    /* written by the caller before a run (gen last), read by the workers */
    _Alignas(64) atomic_uint gen; /* bumped by every run (and by the end) */
    fg_pool_fn fn;                /* the current run */
    void *arg;
    unsigned n;
    atomic_bool quit;
    pthread_t *tid;
    _Alignas(64) atomic_uint done;     /* workers finished with the current run */
    _Alignas(64) atomic_uint sleepers; /* workers asleep on cv (or going to) */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    /* the caller's alone.  fg_pool_run_adaptive: the mode of the current
     * window (1: threads), its calls and seconds so far, each mode's last two
     * windows' seconds per call (< 0: not measured), the faster mode, the
     * windows since the last probe of the slower one and between probes,
     * whether this window is one, whether the current window is the first
     * after a change of mode (a warm-up, not timed), and whether to adapt */
    _Alignas(64) int mode;
    int best, probing, warm;
    unsigned calls, since, every;
    double secs, last[2][2];
    int adapt;
};

typedef struct {
    fg_pool *p;
    unsigned t;
} worker_arg;

static inline void relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

static void *worker(void *a) {
    worker_arg wa = *(worker_arg *)a;
    free(a);
    fg_pool *p = wa.p;
    unsigned seen = 0;
    for (;;) {
        unsigned g;
        for (unsigned s = 0; (g = atomic_load(&p->gen)) == seen; s++) {
            if (s < SPINS) {
                relax();
                continue;
            }
            if (s < SPINS + YIELDS) {
                sched_yield();
                continue;
            }
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(&p->gen) == seen) pthread_cond_wait(&p->cv, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
            s = 0;
        }
        seen = g;
        if (atomic_load(&p->quit)) return NULL;
        p->fn(p->arg, wa.t, p->n);
        atomic_fetch_add(&p->done, 1);
    }
}

static void bump(fg_pool *p) {
    atomic_fetch_add(&p->gen, 1); /* seq_cst: a worker counting itself a sleeper sees it, or is seen */
    if (atomic_load(&p->sleepers)) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->cv);
        pthread_mutex_unlock(&p->mu);
    }
}

fg_pool *fg_pool_new(unsigned n, char *err, size_t errlen) {
    if (n < 2 || n > 256) {
        snprintf(err, errlen, "threads: %u (a pool has 2..256)", n);
        return NULL;
    }
    fg_pool *p = aligned_alloc(64, (sizeof(fg_pool) + 63) / 64 * 64);
    if (p) memset(p, 0, sizeof *p);
    if (p) p->tid = calloc(n, sizeof *p->tid);
    if (!p || !p->tid) {
        free(p);
        snprintf(err, errlen, "threads: out of memory");
        return NULL;
    }
    p->n = n;
    p->mode = 1;
    p->warm = 1;
    p->every = FG_POOL_PROBE;
    p->best = 1;
    p->last[0][0] = p->last[0][1] = p->last[1][0] = p->last[1][1] = -1;
    const char *a = getenv("FG_POOL_ADAPT");
    p->adapt = !(a && !strcmp(a, "0"));
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    for (unsigned t = 1; t < n; t++) {
        worker_arg *wa = malloc(sizeof *wa);
        int rc = wa ? 0 : -1;
        if (wa) {
            *wa = (worker_arg){p, t};
            rc = pthread_create(&p->tid[t], NULL, worker, wa);
            if (rc) free(wa);
        }
        if (rc) {
            snprintf(err, errlen, "threads: cannot start thread %u of %u: %s", t + 1, n,
                     rc > 0 ? strerror(rc) : "out of memory");
            p->n = t; /* the ones started end in fg_pool_free */
            fg_pool_free(p);
            return NULL;
        }
    }
    return p;
}

unsigned fg_pool_threads(const fg_pool *p) { return p ? p->n : 1; }

void fg_pool_run(fg_pool *p, fg_pool_fn fn, void *arg) {
    p->fn = fn;
    p->arg = arg;
    atomic_store(&p->done, 0);
    bump(p);
    fn(arg, 0, p->n);
    for (unsigned s = 0; atomic_load(&p->done) < p->n - 1; s++)
        if (s < SPINS) relax();
        else sched_yield();
}

int fg_pool_run_adaptive(fg_pool *p, fg_pool_fn fn, void *arg) {
    if (!p->adapt) {
        fg_pool_run(p, fn, arg);
        return 1;
    }
    const int par = p->mode;
    const double t0 = fg_now(FG_CLOCK_WALL);
    if (par) fg_pool_run(p, fn, arg);
    else fn(arg, 0, 1);
    p->secs += fg_now(FG_CLOCK_WALL) - t0;
    if (++p->calls == FG_POOL_WINDOW) {
        if (p->warm) { /* the first window of a way moves the cores' state between caches: not its cost */
            p->warm = 0;
            p->calls = 0;
            p->secs = 0;
            return par;
        }
        /* a way's cost: the lesser of its last two windows (one window
         * slowed by a burst of other work does not flip the choice) */
        p->last[par][1] = p->last[par][0];
        p->last[par][0] = p->secs / p->calls;
        p->calls = 0;
        p->secs = 0;
        double cost[2];
        for (int m = 0; m < 2; m++)
            cost[m] = p->last[m][1] < 0 || p->last[m][0] < p->last[m][1] ? p->last[m][0] : p->last[m][1];
        if (cost[!par] < 0) { /* the other way not measured yet */
            p->mode = !par;
            p->warm = 1;
            return par;
        }
        const int best = cost[1] <= cost[0];
        /* a probe of the slower way that stays slower waits twice as long
         * for the next one (each costs a window at the slower speed); a
         * change of the choice starts again at the shortest interval */
        if (best != p->best) p->every = FG_POOL_PROBE;
        else if (p->probing && p->every < 64 * FG_POOL_PROBE) p->every *= 2;
        p->best = best;
        p->probing = ++p->since >= p->every;
        if (p->probing) p->since = 0;
        p->mode = p->probing ? !best : best;
        p->warm = p->mode != par;
    }
    return par;
}

void fg_pool_free(fg_pool *p) {
    if (!p) return;
    atomic_store(&p->quit, true);
    bump(p);
    for (unsigned t = 1; t < p->n; t++) pthread_join(p->tid[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    free(p->tid);
    free(p);
}

int fg_threads_default(unsigned *out, char *err, size_t errlen) {
    const char *s = getenv("FG_THREADS");
    if (s) {
        uint64_t v;
        if (fg_num_u64("FG_THREADS", s, 1, 256, &v, err, errlen)) return -1;
        *out = (unsigned)v;
        return 0;
    }
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    *out = n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
    return 0;
}
