#include "fg_util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
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

/* ------------------------------------------------------------ numbers */
static const char WHOLE_FORMS[] = "expected a whole number: decimal digits or 0x and hex digits "
                                  "(no sign, exponent, suffix or leading zero)";

/* 0, or -1 malformed, -2 too large, -3 a decimal with a leading zero */
static int scan_whole(const char *s, uint64_t *v) {
    if (!s || !*s) return -1;
    unsigned base = 10;
    const char *p = s;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
        if (!*p) return -1;
    } else if (p[0] == '0' && p[1]) {
        return p[1] >= '0' && p[1] <= '9' ? -3 : -1;
    }
    uint64_t x = 0;
    int rc = 0;
    for (; *p; p++) {
        unsigned d;
        if (*p >= '0' && *p <= '9') d = (unsigned)(*p - '0');
        else if (base == 16 && *p >= 'a' && *p <= 'f') d = (unsigned)(*p - 'a' + 10);
        else if (base == 16 && *p >= 'A' && *p <= 'F') d = (unsigned)(*p - 'A' + 10);
        else return -1;
        if (x > (UINT64_MAX - d) / base) rc = -2;
        else x = x * base + d;
    }
    *v = x;
    return rc;
}

static int whole_error(int rc, const char *name, const char *s, char *err, size_t errlen) {
    if (rc == -3)
        snprintf(err, errlen, "%s '%s': a decimal with a leading zero is refused (it is not read as octal)",
                 name, s);
    else if (rc == -2)
        snprintf(err, errlen, "%s '%s': too large (more than 64 bits)", name, s);
    else
        snprintf(err, errlen, "%s '%s': %s", name, s ? s : "", WHOLE_FORMS);
    return -1;
}

int fg_num_u64(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
               size_t errlen) {
    uint64_t v = 0;
    int rc = scan_whole(s, &v);
    if (rc) return whole_error(rc, name, s, err, errlen);
    if (v < min || v > max) {
        snprintf(err, errlen, "%s %s: outside [%" PRIu64 ", %" PRIu64 "]", name, s, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

int fg_num_pow2(const char *name, const char *s, uint64_t min, uint64_t max, uint64_t *out, char *err,
                size_t errlen) {
    uint64_t v = 0;
    if (fg_num_u64(name, s, min, max, &v, err, errlen)) return -1;
    if (v & (v - 1)) {
        snprintf(err, errlen, "%s %s: must be a power of two (a size is refused, not rounded)", name, s);
        return -1;
    }
    *out = v;
    return 0;
}

int fg_num_i64(const char *name, const char *s, int64_t min, int64_t max, int64_t *out, char *err,
               size_t errlen) {
    bool neg = s && s[0] == '-';
    uint64_t m = 0;
    int rc = scan_whole(s ? s + neg : s, &m);
    if (rc) return whole_error(rc, name, s, err, errlen);
    if (m > (uint64_t)INT64_MAX + neg) rc = -2;
    int64_t v = neg ? (m == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m) : (int64_t)m;
    if (rc || v < min || v > max) {
        snprintf(err, errlen, "%s %s: outside [%" PRId64 ", %" PRId64 "]", name, s, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

/* [-]digits[.digits] or [-].digits, then optionally e[+-]digits */
static bool real_form(const char *p) {
    if (*p == '-') p++;
    unsigned n = 0;
    while (*p >= '0' && *p <= '9') p++, n++;
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') p++, n++;
    }
    if (!n) return false;
    if (*p == 'e' || *p == 'E') {
        p++;
        if (*p == '+' || *p == '-') p++;
        if (!(*p >= '0' && *p <= '9')) return false;
        while (*p >= '0' && *p <= '9') p++;
    }
    return !*p;
}

int fg_num_double(const char *name, const char *s, double min, double max, double *out, char *err,
                  size_t errlen) {
    if (!s || !real_form(s)) {
        snprintf(err, errlen, "%s '%s': expected a decimal number (e.g. 10, 2.5, 1e-3; no hex, inf or nan)",
                 name, s ? s : "");
        return -1;
    }
    errno = 0;
    double v = strtod(s, NULL);
    if (errno == ERANGE || !isfinite(v) || v < min || v > max) {
        snprintf(err, errlen, "%s %s: outside [%g, %g]", name, s, min, max);
        return -1;
    }
    *out = v;
    return 0;
}

static void arg_fail(const char *prog, const char *err) {
    fprintf(stderr, "%s: %s\n", prog, err);
    exit(2);
}

uint64_t fg_arg_u64(const char *prog, const char *opt, const char *s, uint64_t min, uint64_t max) {
    char err[512];
    uint64_t v = 0;
    if (fg_num_u64(opt, s, min, max, &v, err, sizeof err)) arg_fail(prog, err);
    return v;
}

double fg_arg_double(const char *prog, const char *opt, const char *s, double min, double max) {
    char err[512];
    double v = 0;
    if (fg_num_double(opt, s, min, max, &v, err, sizeof err)) arg_fail(prog, err);
    return v;
}

uint64_t fg_env_u64(const char *name, uint64_t dflt) {
    const char *v = getenv(name);
    if (!v || !*v) return dflt;
    char err[512];
    uint64_t x = dflt;
    if (fg_num_u64(name, v, 0, UINT64_MAX, &x, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        exit(2);
    }
    return x;
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

int fg_kernel_path(char *buf, size_t len, const char *name, char *err, size_t errlen) {
    int n = name ? snprintf(buf, len, "%s/sw/%s.elf", fg_build_dir(), name)
                 : snprintf(buf, len, "%s/sw", fg_build_dir());
    if (n >= 0 && (size_t)n < len) return 0;
    if (name)
        return fg_errf(err, errlen, "the path of kernel %s.elf is longer than %zu characters (BUILD=%s)", name,
                       len - 1, fg_build_dir());
    return fg_errf(err, errlen, "the kernel directory is longer than %zu characters (BUILD=%s)", len - 1,
                   fg_build_dir());
}

int fg_errf(char *err, size_t errlen, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}
