#include "fg_util.h"

#include <stdlib.h>
#include <time.h>

/* splitmix64: tiny, fast, good enough for stimulus, identical on every host. */
void fg_rng_seed(fg_rng *r, uint64_t seed) { r->s = seed; }

uint64_t fg_rng_next(fg_rng *r) {
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

uint64_t fg_rng_below(fg_rng *r, uint64_t n) { return n ? fg_rng_next(r) % n : 0; }

bool fg_rng_chance(fg_rng *r, unsigned num, unsigned den) { return fg_rng_below(r, den) < num; }

uint64_t fg_env_u64(const char *name, uint64_t dflt) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char *end;
    unsigned long long x = strtoull(v, &end, 0);
    return *end ? dflt : (uint64_t)x;
}

uint64_t fg_seed_from_env(void) {
    const char *v = getenv("FG_SEED");
    if (v && *v) return fg_env_u64("FG_SEED", 1);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((uint64_t)ts.tv_sec * 1000000007ULL) ^ (uint64_t)ts.tv_nsec;
}

double fg_now(fg_clock_kind which) {
    struct timespec t;
    clock_gettime(which == FG_CLOCK_CPU ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

const char *fg_build_dir(void) {
    const char *bd = getenv("BUILD");
    return bd && *bd ? bd : "build";
}
