/* Small shared helpers: a seeded PRNG for reproducible random stimulus and
 * the seed/cycle options every test and program accepts. */
#ifndef FG_UTIL_H
#define FG_UTIL_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
    uint64_t s;
} fg_rng;

void fg_rng_seed(fg_rng *r, uint64_t seed);
uint64_t fg_rng_next(fg_rng *r);
/* Uniform in [0, n) (n > 0). */
uint64_t fg_rng_below(fg_rng *r, uint64_t n);
/* True with probability num/den. */
bool fg_rng_chance(fg_rng *r, unsigned num, unsigned den);

/* Seed for random tests: $FG_SEED if set, otherwise from the clock.  Always
 * printed by the caller so that a failing run can be repeated. */
uint64_t fg_seed_from_env(void);
/* Integer from the environment with a default (e.g. FG_CYCLES). */
uint64_t fg_env_u64(const char *name, uint64_t dflt);

/* Seconds on the monotonic wall clock or of this process's CPU time (for
 * programs that report their own speed). */
typedef enum { FG_CLOCK_WALL = 0, FG_CLOCK_CPU = 1 } fg_clock_kind;
double fg_now(fg_clock_kind which);
/* The build directory programs find kernels under ($BUILD, default "build"). */
const char *fg_build_dir(void);

#endif
