/* bg_kernels: the background kernels of the EDGE warp-level preemption
 * study (EDGE Sec. V and VI-B/C: CONV, MM, BP, BFS, CONV2, SC, KMN, SRAD, LUD "that
 * fully occupy the GPU"), as a small driver over the SIMT model
 * (sim/simt/gpu.h).
 *
 * A bg_run owns one background workload: its kernels (sw/kernels/bg_*.c,
 * loaded from kdir), its inputs in GPU memory, and the host side of its
 * multi-kernel flow (BP's two phases, BFS's per-level kernel pair).  The
 * owner of the gpu callbacks forwards every completion to bg_on_complete();
 * launches carry tags in [BG_TAG_BASE, 2 * BG_TAG_BASE) so the owner can
 * tell them apart from its own.  Launches use priority 0.  Host work between
 * kernels (reading BFS's `over` flag, BP's hidden-layer step) takes no GPU
 * cycles.  docs/BG_KERNELS.md lists kernels, sizes and figures. */
#ifndef BG_KERNELS_H
#define BG_KERNELS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../sw/kernels/bg_args.h"
#include "fg_util.h"
#include "simt/gpu.h"

/* tag = BG_TAG_BASE | run id (bits 61..20) | launch sequence (bits 19..0) */
#define BG_TAG_BASE (1ull << 62)

typedef struct bg_run bg_run; /* opaque */

/* name: "conv" | "mm" | "bp" | "bfs" | "stream" (the STREAM triad of the CM
 * machine; "paper" = 2^22 floats per array), "conv2" | "sc" | "kmn" |
 * "srad" | "lud" (EDGE's further kernels, sim/work/bg_edge_apps.c), or one
 * of the GPU applications of CM Table II in sim/work/cm_apps*.c
 * (bg_kernel_name lists every name; docs/CM_APPS.md; "paper" is their
 * CM-machine size); size: "paper" |
 * "test"; kdir: the directory holding the ELFs (bg_<name>.elf, an
 * application's own; e.g. "$BUILD/sw").  Loads the kernels and generates the
 * inputs (deterministic in seed).  NULL + message on error. */
bg_run *bg_new(gpu_t *g, const char *name, const char *size, const char *kdir, uint64_t seed, char *err,
               size_t errlen);
/* Allocates (first call only) and initialises the inputs in GPU memory and
 * launches the first kernel.  May be called again once bg_done() to run the
 * same workload again (same inputs, same GPU buffers). */
int bg_start(bg_run *b, char *err, size_t errlen);
/* The owner of the gpu callbacks forwards completions here; true if tag
 * belonged to this run (it may then launch the next phase / level). */
bool bg_on_complete(bg_run *b, uint64_t tag, uint64_t cycle);
bool bg_done(const bg_run *b);
bool bg_running(const bg_run *b); /* started and not yet done */
/* The i-th name bg_new accepts (the kernels above, then the CM
 * applications), NULL past the last; whether name is one of them. */
const char *bg_kernel_name(unsigned i);
bool bg_kernel_known(const char *name);
/* Compares the GPU results with the host reference (computed on first use):
 * integers exactly, floats within a relative 1e-5 (absolute 1e-6 near zero;
 * the reference uses the kernels' operation order, so they normally match
 * bit for bit).  -1 with a message naming the first wrong element. */
int bg_check(bg_run *b, char *err, size_t errlen);
/* Registers per thread from the loaded ELFs (max over the run's kernels). */
unsigned bg_regs_per_thread(const bg_run *b);
/* e.g. "mm 512x512, 1024 blocks of 16x16 threads" */
const char *bg_describe(const bg_run *b);
void bg_free(bg_run *b);

/* For tests: installs its own gpu callbacks (replacing the owner's), starts
 * the run, ticks until it is done; returns the cycles from bg_start to the
 * last completion, or 0 with a message (fault, launch error, max_cycles). */
uint64_t bg_run_alone(gpu_t *g, bg_run *b, uint64_t max_cycles, char *err, size_t errlen);

/* ---- extras ---- */
/* Cycles from bg_start to the last completion of the latest run (0 while running). */
uint64_t bg_cycles(const bg_run *b);
/* Kernel launches of the latest run so far (BFS: 2 per level). */
unsigned bg_launches(const bg_run *b);
/* GPU address and size of the main output (CONV targets, MM C, BP weights,
 * BFS costs, CONV2 targets, SC work_mem, KMN membership, SRAD image, LUD matrix), e.g. for a test that
 * corrupts one element. */
uint64_t bg_output(const bg_run *b, uint64_t *bytes);

/* A Rodinia graphgen-style graph of n nodes: node i draws 2..4 neighbours
 * uniformly at random, each edge stored both ways (about 6 n edges),
 * self-loops and duplicates kept; connected: a node's first neighbour is an
 * earlier node, so every node is reachable from node 0 (the F/E BFS,
 * sim/fe/fe_bench.c).  nodes / edges malloc'd; -1 when out of memory. */
int bg_bfs_graph(fg_rng *r, size_t n, bool connected, bg_bfs_node **nodes, int32_t **edges, size_t *n_edges);

#endif
