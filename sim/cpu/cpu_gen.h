/* cpu_gen: synthetic instruction streams standing for the CPU applications
 * of CM Table III (SPEC CPU2000/2006 and commercial workloads, named as in
 * the paper) and the 14-core mixes of CM Table IV.  The paper ran PinPoints
 * traces; here each application is a random stream whose one calibrated
 * property is its L2 MPKI (misses of the core's private 256 KB L2 per 1000
 * instructions, run alone), the property the paper classifies them by.
 * docs/CPU_MODEL.md describes the distributions and shows the measured MPKI.
 *
 * A stream is generated on the fly (nothing stored), deterministic per seed. */
#ifndef CPU_GEN_H
#define CPU_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "fg_util.h"

/* Instruction classes (result latencies: cpu_config.lat). */
typedef enum { CPU_ALU = 0, CPU_BR, CPU_MUL, CPU_FP, CPU_LOAD, CPU_STORE, CPU_CLASSES } cpu_class;

typedef struct {
    uint8_t cls;       /* cpu_class */
    uint8_t dep[2];    /* producer distances: 1 = the previous instruction; 0 = none */
    uint64_t addr;     /* loads and stores: byte address */
} cpu_inst;

/* How an application's misses walk its large region. */
enum { CPU_PAT_STREAM = 0, CPU_PAT_RANDOM };

typedef struct {
    const char *name;
    double mpki;      /* CM Table III: L2 MPKI */
    char type;        /* CM Table III: 'L', 'M' or 'H' (MPKI class) */
    uint8_t pattern;  /* CPU_PAT_*: sequential lines, or uniform random lines */
    double chase;     /* fraction of cold loads whose address depends on the previous cold load */
} cpu_app;

/* The 34 applications of CM Table III, in table order. */
extern const cpu_app cpu_apps[];
extern const unsigned cpu_n_apps;
const cpu_app *cpu_app_find(const char *name); /* NULL if unknown */

#define CPU_MIX_CORES 14
typedef struct {
    const char *name; /* L1, L2, M1, M2, H1, H2 */
    const char *apps[CPU_MIX_CORES];
} cpu_mix;
extern const cpu_mix cpu_mixes[];
extern const unsigned cpu_n_mixes;
const cpu_mix *cpu_mix_find(const char *name);

/* Distributions shared by every application (docs/CPU_MODEL.md). */
typedef struct {
    double load_frac, store_frac, br_frac, mul_frac, fp_frac; /* the rest is ALU */
    double src_prob;     /* an ALU/MUL/FP/branch instruction has each of 2 sources with this probability */
    double dep_mean;     /* mean producer distance (1 + geometric) */
    unsigned dep_max;    /* longest distance (<= 255) */
    uint64_t hot_bytes;  /* region reused constantly (fits the L1) */
    double hot_share;    /* of the accesses that are not cold */
    uint64_t warm_min, warm_max; /* region that fits the L2: bytes, chosen per application */
    uint64_t cold_bytes; /* region the misses walk (far beyond the L2 and the LLC share) */
    unsigned line_bytes; /* 128 */
    unsigned l2_sets, l2_ways; /* of the private L2 (the warm region is sized against it) */
} cpu_gen_params;

void cpu_gen_params_default(cpu_gen_params *p);

#define CPU_GEN_DIST 4096 /* quantiles of the producer-distance distribution */
typedef struct {
    cpu_gen_params p;
    const cpu_app *app;
    fg_rng rng;
    uint64_t base, cold_base, seq, last_cold, stream;
    uint64_t warm_lines, cold_lines;
    uint32_t t_cls[5], t_src, t_cold, t_hot, t_chase; /* probabilities on 32 (t_src: 16) bits */
    uint8_t dist[CPU_GEN_DIST];
} cpu_gen;

/* A stream of `app` over [base, base + cpu_gen_footprint()). */
void cpu_gen_init(cpu_gen *g, const cpu_app *app, const cpu_gen_params *p, uint64_t base,
                  uint64_t seed);
uint64_t cpu_gen_footprint(const cpu_gen_params *p);
void cpu_gen_next(cpu_gen *g, cpu_inst *out);

#endif
