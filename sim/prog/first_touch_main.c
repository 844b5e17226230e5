/* first_touch: what a freshly allocated output costs the host CPU's
 * vectorAdd, measured on this machine (a benchmark, not a simulation; the
 * figure F/E Fig. 12's modelled CPU takes as [fe] cpu_first_touch_ns,
 * docs/FE_E2E.md "CPU model").
 *
 *   first_touch [--reps N] [--out FILE]     (default results/first_touch.json)
 *
 * For each size of F/E Table 3 (8K..256K elements) the scalar loop
 * c[i] = a[i] + b[i] runs into an output already written (warm) and into a
 * fresh anonymous mapping of 4 KiB pages (transparent huge pages off, as
 * for a malloc of under 2 MiB): the difference over the pages is what one
 * page's first store costs (fault, map, zero).  Each figure is the median
 * of --reps runs.  Wall times depend on the machine and its load: the JSON
 * is a measurement, not a result to reproduce. */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>

#include "fg_cli.h"
#include "fg_json.h"

#define PAGE 4096

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* the loop F/E 7.2's single-threaded CPU runs, scalar as fe_cpu models it */
__attribute__((noinline, optimize("no-tree-vectorize"))) static void vecadd(const float *a, const float *b,
                                                                           float *c, size_t n) {
    for (size_t i = 0; i < n; i++) c[i] = a[i] + b[i];
}

static int cmp_double(const void *x, const void *y) {
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, unsigned n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* one loop into a fresh mapping: its time, or -1 if the mapping failed */
static double fresh_run(const float *a, const float *b, size_t n) {
    size_t bytes = (n * sizeof(float) + PAGE - 1) / PAGE * PAGE;
    float *c = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (c == MAP_FAILED) return -1;
    madvise(c, bytes, MADV_NOHUGEPAGE);
    double t = now_ns();
    vecadd(a, b, c, n);
    t = now_ns() - t;
    volatile float keep = c[n - 1];
    (void)keep;
    munmap(c, bytes);
    return t;
}

static void cpu_name(char *out, size_t len) {
    snprintf(out, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10)) {
            const char *v = strchr(line, ':');
            if (v) snprintf(out, len, "%.*s", (int)strcspn(v + 2, "\n"), v + 2);
            break;
        }
    fclose(f);
}

int main(int argc, char **argv) {
    const char *out = "results/first_touch.json";
    uint64_t reps = 31;
    const fg_opt opts[] = {
        FG_OPT_U64("--reps", &reps, 3, 10001, "N", "runs per figure, the median reported (31)"),
        FG_OPT_STR("--out", &out, "FILE", "the measurements (default results/first_touch.json)"),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"first_touch", "[--reps N] [--out FILE]", NULL, opts, NULL}, argc, argv);
    enum { NSIZES = 6, MAXN = 8192 << (NSIZES - 1) };
    float *a = malloc(MAXN * sizeof(float)), *b = malloc(MAXN * sizeof(float)), *c = malloc(MAXN * sizeof(float));
    double *t = malloc(reps * sizeof *t), *u = malloc(reps * sizeof *u);
    if (!a || !b || !c || !t || !u) {
        fprintf(stderr, "first_touch: out of memory\n");
        return 1;
    }
    for (size_t i = 0; i < MAXN; i++) a[i] = (float)i, b[i] = 2.0f * (float)i, c[i] = 0;
    cJSON *root = cJSON_CreateObject(), *pts = cJSON_CreateArray();
    char name[256];
    cpu_name(name, sizeof name);
    struct utsname un;
    cJSON_AddStringToObject(root, "measurement", "host vectorAdd into a fresh output against a written one");
    cJSON_AddStringToObject(root, "cpu", name);
    cJSON_AddStringToObject(root, "kernel", uname(&un) ? "unknown" : un.release);
    cJSON_AddNumberToObject(root, "page_bytes", PAGE);
    cJSON_AddNumberToObject(root, "reps", (double)reps);
    printf("first_touch: %s, Linux %s, median of %llu runs\n", name, uname(&un) ? "?" : un.release,
           (unsigned long long)reps);
    printf("  %8s %12s %12s %14s\n", "elements", "warm ns/el", "fresh ns/el", "ns per page");
    double per_page[NSIZES];
    for (unsigned s = 0; s < NSIZES; s++) {
        size_t n = (size_t)8192 << s, pages = (n * sizeof(float) + PAGE - 1) / PAGE;
        vecadd(a, b, c, n); /* c written: warm */
        for (unsigned r = 0; r < reps; r++) {
            double t0 = now_ns();
            vecadd(a, b, c, n);
            t[r] = now_ns() - t0;
            u[r] = fresh_run(a, b, n);
            if (u[r] < 0) {
                fprintf(stderr, "first_touch: mmap of %zu elements failed\n", n);
                return 1;
            }
        }
        double warm = median(t, (unsigned)reps), fresh = median(u, (unsigned)reps);
        per_page[s] = (fresh - warm) / (double)pages;
        printf("  %8zu %12.3f %12.3f %14.0f\n", n, warm / n, fresh / n, per_page[s]);
        cJSON *p = cJSON_CreateObject();
        cJSON_AddNumberToObject(p, "elements", (double)n);
        cJSON_AddNumberToObject(p, "warm_ns", warm);
        cJSON_AddNumberToObject(p, "fresh_ns", fresh);
        cJSON_AddNumberToObject(p, "first_touch_ns_per_page", per_page[s]);
        cJSON_AddItemToArray(pts, p);
    }
    double m = median(per_page, NSIZES);
    printf("  a page's first store costs %.0f ns (median over the sizes)\n", m);
    cJSON_AddNumberToObject(root, "first_touch_ns_per_page", m);
    cJSON_AddItemToObject(root, "sizes", pts);
    int rc = 0;
    char err[256];
    if (fg_json_write(root, out, err, sizeof err)) {
        fprintf(stderr, "first_touch: %s\n", err);
        rc = 1;
    }
    cJSON_Delete(root);
    free(a), free(b), free(c), free(t), free(u);
    return rc;
}
