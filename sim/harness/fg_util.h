/* Small shared helpers: a seeded PRNG for reproducible random stimulus and
 * the seed/cycle options every test and program accepts. */
#ifndef FG_UTIL_H
#define FG_UTIL_H

#include <stdbool.h>
#include <stddef.h>
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
/* Integer from the environment with a default (e.g. FG_CYCLES); a malformed
 * value (fg_num_u64) exits with status 2 and a message naming the variable. */
uint64_t fg_env_u64(const char *name, uint64_t dflt);

/* The message fmt, ... into err (errlen bytes); returns -1, so that a
 * checker can `return fg_errf(err, errlen, ...)`. */
int fg_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Strict numbers: the one reader of every command-line option, config value
 * and environment variable (docs/ARCHITECTURE.md "Options and numbers").
 * Whole numbers: decimal digits, or 0x / 0X and hex digits; nothing else (no
 * sign, space, suffix, exponent or underscore); no leading zero on a decimal
 * (010 is refused, not read as octal 8); range-checked.  Real numbers
 * (fg_num_double): decimal, optional fraction and exponent (1.5, 2e-3); no
 * hex, inf or nan.  Each returns 0 and stores *out, or -1 with a one-line
 * message in err naming `name` (e.g. "--cycles" or "configs/x.ini: [gpu]
 * num_cores") and the accepted forms; *out is unchanged on error. */
int fg_num_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
               size_t errlen);
/* As fg_num_u64, and a power of two (sizes: refused, never rounded). */
int fg_num_pow2(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
                size_t errlen);
/* A '-' and a whole number as above (the 0x form is two's complement-free:
 * -0x10 is -16). */
int fg_num_i64(const char *name, const char *s, int64_t min, int64_t max, int64_t *out, char *err,
               size_t errlen);
int fg_num_double(const char *name, const char *s, double min, double max, double *out, char *err,
                  size_t errlen);
/* Programs' option values: fg_num_u64 / fg_num_double for argv, printing
 * "prog: message" to stderr and exiting with status 2 on error. */
uint64_t fg_arg_u64(const char *prog, const char *opt, const char *s, uint64_t min, uint64_t max);
double fg_arg_double(const char *prog, const char *opt, const char *s, double min, double max);

/* Seconds on the monotonic wall clock or of this process's CPU time (for
 * programs that report their own speed). */
typedef enum { FG_CLOCK_WALL = 0, FG_CLOCK_CPU = 1 } fg_clock_kind;
double fg_now(fg_clock_kind which);
/* The build directory programs find kernels under ($BUILD, default "build"). */
const char *fg_build_dir(void);
/* Where make puts the kernels' ELFs: buf := $BUILD/sw, or with a name
 * $BUILD/sw/<name>.elf; 0, or -1 with err when it does not fit in len. */
int fg_kernel_path(char *buf, size_t len, const char *name, char *err, size_t errlen);

#endif
