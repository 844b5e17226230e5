/* cm_args: parameter blocks of the CM Table II applications' own kernels
 * (sw/kernels/cm_*.c, RV32), shared with their host side
 * (sim/work/cm_apps.c).  Plain C99, fixed-width fields, GPU addresses as
 * uint32_t.  docs/CM_APPS.md describes the applications, inputs and sizes. */
#ifndef CM_ARGS_H
#define CM_ARGS_H

#include <stdint.h>

/* MUM (MUMmerGPU): a suffix tree of the reference, one query per thread.
 * Node: the edge into it is ref[start, start + len); children by base
 * A C G T (-1: none; the '$' leaves of the host's tree are not stored). */
#define CM_MUM_THREADS 256
typedef struct {
    int32_t start, len;
    int32_t child[4];
} cm_mum_node;
typedef struct {
    uint32_t nodes;          /* cm_mum_node[], node 0 = the root */
    uint32_t ref;            /* uint8 reference text, '$'-terminated */
    uint32_t queries;        /* uint8: query i at i * stride, qlen bases then 0 */
    uint32_t out;            /* int32 [n_queries][qlen]: match length at each offset */
    int32_t n_queries, qlen, stride;
} cm_mum_args;

/* IIX (Mars InvertedIndex): one HTML document per thread; map_count counts
 * its links, map emits (url hash, document) at the document's offset (the
 * host's prefix sum of the counts, as Mars's MapCount / prefix sum / Map). */
#define CM_IIX_THREADS 256
typedef struct {
    uint32_t docs;           /* uint8: document i at i * stride, doc_len bytes */
    uint32_t counts;         /* int32 [n_docs] (map_count) */
    uint32_t offsets;        /* int32 [n_docs] (map: the exclusive prefix sum) */
    uint32_t keys, vals;     /* int32 [links]: FNV-1a hash of the URL, document id */
    int32_t n_docs, doc_len, stride;
} cm_iix_args;

/* The URL hash of IIX, the same on both sides: 32-bit FNV-1a. */
#define CM_IIX_FNV_BASIS 2166136261u
#define CM_IIX_FNV_PRIME 16777619u

/* PATH (Rodinia pathfinder): dynproc_kernel, BLOCK_SIZE 256, HALO 1; each
 * launch advances `iteration` rows of the dynamic programme in shared memory
 * (the pyramid), ping-ponging src / results. */
#define CM_PATH_BLOCK 256
typedef struct {
    int32_t iteration;
    uint32_t wall, src, results; /* int32: wall[rows - 1][cols] (rows 1..), src / results [cols] */
    int32_t cols, rows, start_step, border;
} cm_path_args;

/* SSSP (LonestarGPU sssp, topology-driven Bellman-Ford): every thread relaxes
 * the out-edges of its nodes with atomicMin until no distance changes. */
#define CM_SSSP_THREADS 256
#define CM_SSSP_INF 0x3fffffff
typedef struct {
    uint32_t row;            /* int32 [n + 1]: CSR row starts */
    uint32_t col, w;         /* int32 [m]: destinations, weights */
    uint32_t dist;           /* int32 [n] */
    uint32_t changed;        /* int32 flag, set when a distance dropped */
    int32_t n;
} cm_sssp_args;

/* PVC (Mars PageViewCount): web-log records, one per thread in a grid-stride
 * loop; the map extracts the URL (the record's second field) and emits
 * (URL, 1), reduced here by atomicAdd into a table of buckets indexed by the
 * URL's FNV-1a hash (Mars groups by sorting, then sums). */
#define CM_PVC_THREADS 256
#define CM_PVC_BUCKETS 65536
typedef struct {
    uint32_t log;            /* uint8 text, records back to back, each ending in '\n' */
    uint32_t offsets;        /* int32 [n + 1]: record starts (Mars's input index) */
    uint32_t table;          /* int32 [CM_PVC_BUCKETS] views per bucket */
    int32_t n;
} cm_pvc_args;

#endif
