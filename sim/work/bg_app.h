/* bg_app: the interface through which an application outside bg_kernels.c
 * (the GPU applications of CM Table II, sim/work/cm_apps*.c) runs as a
 * bg_run: bg_new() finds it by name, and bg_start / bg_on_complete /
 * bg_check / bg_free call its hooks, while bg_kernels.c keeps the launches,
 * tags, timing and the owner's callbacks as for its own kernels.  Private to
 * sim/work/ (the public API stays bg_kernels.h); docs/CM_APPS.md. */
#ifndef BG_APP_H
#define BG_APP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_util.h"
#include "simt/gpu.h"
#include "work/bg_kernels.h"

#define BG_APP_KMAX 4   /* kernels per application (one ELF) */
#define BG_APP_DONE (-2) /* next(): the run is complete */

typedef struct {
    const char *name;                /* bg_new's name, e.g. "mum" */
    const char *elf;                 /* <kdir>/<elf>.elf */
    const char *syms[BG_APP_KMAX];   /* its kernels, NULL-terminated */
    /* Sizes ("paper": the CM machine's size; else "test"), inputs from r,
     * launch shapes (bg_app_shape), description; the state or NULL + err. */
    void *(*create)(bg_run *b, bool paper, fg_rng *r, char *err, size_t errlen);
    /* Inputs into GPU memory (allocating on the first call, bg_app_alloc),
     * parameter blocks; the first kernel's index, or -1 + err. */
    int (*start)(bg_run *b, void *st, char *err, size_t errlen);
    /* Host step after kernel ki completed: the next kernel's index,
     * BG_APP_DONE, or -1 + err. */
    int (*next)(bg_run *b, void *st, unsigned ki, char *err, size_t errlen);
    /* GPU results against the host reference; -1 + err naming the first wrong element. */
    int (*check)(bg_run *b, void *st, char *err, size_t errlen);
    void (*destroy)(void *st);
} bg_app;

/* The applications of sim/work/cm_apps*.c, NULL-terminated. */
extern const bg_app *const bg_cm_apps[];
/* EDGE's background kernels beyond bg_kernels.c's own (CONV2, SC, KMN, SRAD, LUD;
 * sim/work/bg_edge_apps.c), NULL-terminated. */
extern const bg_app *const bg_edge_apps[];

/* ---- services of bg_kernels.c to the applications ---- */
/* Grid, block and parameter block of kernel ki (2-D; z = 1). */
void bg_app_shape(bg_run *b, unsigned ki, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by, uint64_t param);
/* Only the parameter block of kernel ki (e.g. once allocated by start). */
void bg_app_param(bg_run *b, unsigned ki, uint64_t param);
void bg_app_describe(bg_run *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The main output (bg_output), e.g. for a test that corrupts one element. */
void bg_app_output(bg_run *b, uint64_t addr, uint64_t bytes);
/* GPU memory below 4 GiB (the kernels' pointers are 32-bit); 0 + err when full. */
uint64_t bg_app_alloc(bg_run *b, uint64_t bytes, char *err, size_t errlen);
int bg_app_write(bg_run *b, uint64_t addr, const void *p, size_t n, char *err, size_t errlen);
int bg_app_read(bg_run *b, uint64_t addr, void *p, size_t n, char *err, size_t errlen);
/* GPU array against a reference: floats as bg_check's (relative 1e-5),
 * integers exactly; -1 + "<app>: <what>[i] = got, expected ref". */
int bg_app_cmp_f(bg_run *b, const char *what, uint64_t addr, const float *ref, size_t n, char *err, size_t errlen);
int bg_app_cmp_i(bg_run *b, const char *what, uint64_t addr, const int32_t *ref, size_t n, char *err, size_t errlen);
/* Uniform float in [lo, hi) (24 random bits). */
float bg_app_frand(fg_rng *r, float lo, float hi);

#endif
