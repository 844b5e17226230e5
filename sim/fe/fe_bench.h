/* fe_bench: the seven benchmarks of F/E Table 3, each written once (kernels
 * in sw/kernels/, host flow and reference here) and run in the four
 * variants of F/E Fig. 7 over the F/E runtime (fe_host.h): baseline (async
 * copies, one stream, ordinary memory), overlap-start (the kernel launched
 * in advance, the input copied with fill in another stream), overlap-finish
 * (the copy back issued in advance with wait-full in another stream),
 * full-overlap (both).  The variants differ only in host API calls, streams
 * and flags, and in where the copied buffers live (ordinary memory for the
 * baseline, synchronized memory, empty at start, for the F/E variants).
 * Every run checks its results against the host reference.
 * docs/FE_E2E.md "Benchmarks". */
#ifndef FE_BENCH_H
#define FE_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../sw/kernels/fe_args.h"
#include "fe/fe_host.h"
#include "simt/gpu.h"

typedef enum { FE_BASELINE = 0, FE_OVERLAP_START, FE_OVERLAP_FINISH, FE_FULL_OVERLAP, FE_VARIANTS } fe_variant;
extern const char *const fe_variant_names[FE_VARIANTS + 1]; /* baseline overlap_start overlap_finish full_overlap */

enum { FE_B_VECTORADD = 0, FE_B_MATRIXMUL, FE_B_HISTOGRAM64, FE_B_BLACKSCHOLES, FE_B_BFS, FE_B_HOTSPOT,
       FE_B_FIBLOOKUP, FE_BENCHES };
extern const char *const fe_bench_names[FE_BENCHES + 1]; /* vectorAdd ... FIBLookup */
/* Rodinia hotspot's constants for an n x n grid (hotspot.cu, computed in
 * double as there, kept as float) and a pyramid of that height (iterations
 * and border); the buffers are the caller's.  Also the CM machine's HOT
 * (sim/work/cm_apps.c). */
void fe_hs_params(unsigned n, int pyramid, fe_hs_args *a);
/* Index of a benchmark name, or -1. */
int fe_bench_find(const char *name);
/* The F/E Table 3 size of each benchmark (vectorAdd: elements per vector;
 * matrixMul, HotSpot: n of n x n; histogram64: bytes; BlackScholes:
 * options; BFS: nodes; FIBLookup: threads) and a small one for tests. */
unsigned fe_bench_paper_size(int bench);
unsigned fe_bench_small_size(int bench);

typedef struct {
    const char *kdir;   /* directory of the kernel ELFs ($BUILD/sw) */
    uint64_t seed;      /* inputs */
    unsigned size;      /* 0: the F/E Table 3 size */
} fe_bench_opts;

typedef struct {
    double runtime_ns;  /* t_finish - t_data_ready (F/E 2.3: the calls made in advance do not count) */
    double t_ready_ns, t_finish_ns; /* on the CPU thread's clock */
    double kernel_ns;   /* first kernel start to last kernel end at the GPU */
    unsigned size, launches, copies;
    uint64_t bytes_h2d, bytes_d2h;
    char describe[160];
    gpu_stats gs;
    fe_cmd *cmds;       /* the timeline (malloc'd; fe_bench_result_free) */
    unsigned n_cmds;
} fe_bench_result;

/* One run: a fresh GPU (gc) and runtime (hp), the benchmark's inputs,
 * the variant's calls, the check.  0, or -1 with a message (a GPU fault, a
 * wrong result naming the first bad element, a bad argument). */
int fe_bench_run(const gpu_config *gc, const fe_host_params *hp, int bench, fe_variant v, const fe_bench_opts *o,
                 fe_bench_result *r, char *err, size_t errlen);
void fe_bench_result_free(fe_bench_result *r);

#endif
