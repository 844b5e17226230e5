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

/* PVR (Mars PageViewRank): PVC's output, (views, URL) per distinct URL,
 * ranked by views: the map emits (views, line offset) pairs, then Mars's
 * bitonic sort (MarsSort.cu bitonicKernel, its path for up to 256 K records)
 * orders the pair records by views, most first, one compare-and-swap step
 * (k, j) per launch.  A record is Mars's cmp_type_t: where its key and value
 * lie in the intermediate buffer; padding records (to a power of two) have
 * key_off -1 and sort before every real one. */
#define CM_PVR_THREADS 256
typedef struct {
    int32_t key_off, key_size, val_off, val_size; /* bytes into inter */
} cm_pvr_rec;
typedef struct {
    uint32_t in;             /* int32 [n][2]: map input (views, offset of the URL's line) */
    uint32_t inter;          /* int32 [n][2]: the map's emitted (key, value) pairs */
    uint32_t recs;           /* cm_pvr_rec [n_pad] */
    int32_t n, n_pad;        /* n_pad: a power of two, at least CM_PVR_THREADS */
    int32_t k, j;            /* this launch's bitonic step (cm_pvr_sort) */
} cm_pvr_args;

/* MST (LonestarGPU mst, Boruvka): each round finds every component's
 * lightest outgoing edge (atomicMin of a per-node minimum), hooks each
 * component onto the one across that edge, then flattens the component
 * labels; until a round hooks nothing.  Edge keys are unique (weight x
 * undirected edges + undirected edge id), so the tree is unique. */
#define CM_MST_THREADS 256
#define CM_MST_INF 0x7fffffff
typedef struct {
    uint32_t row, col;       /* int32: CSR, every edge both ways */
    uint32_t key;            /* int32 [m]: key of the directed edge's undirected edge (CM_MST_INF: a self-loop) */
    uint32_t eu, ev;         /* int32 [n_und]: endpoints of undirected edge i */
    uint32_t comp;           /* int32 [n]: component label, a root after cm_mst_jump */
    uint32_t parent;         /* int32 [n]: a root's hook (itself if none) */
    uint32_t minkey;         /* int32 [n]: a root's lightest outgoing key */
    uint32_t inmst;          /* int32 [n_und]: 1 if in the tree */
    uint32_t changed;        /* int32 flag, set when cm_mst_union hooked a component */
    int32_t n, n_und;
} cm_mst_args;

/* SP (LonestarGPU sp, survey propagation on random 3-SAT): each launch of
 * cm_sp_eta updates every clause's surveys eta[a][k] from the previous
 * launch's (ping-pong buffers); cm_sp_bias then computes each variable's
 * bias W+ - W-, what SP's decimation ranks variables by. */
#define CM_SP_THREADS 256
#define CM_SP_K 3
typedef struct {
    uint32_t lit;            /* int32 [m][K]: variable + 1, negative when negated */
    uint32_t vrow, vedge;    /* int32: per variable its edges a * K + k (CSR) */
    uint32_t eta_in, eta_out;/* float [m][K] */
    uint32_t bias;           /* float [n] */
    int32_t m, n;
} cm_sp_args;

#endif
