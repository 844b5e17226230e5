/* ev_work: the EDGE event kernels (EDGE Sec. V: IPv4, IPv6, MemC GET,
 * IPSec) as uniform GPU workloads, so an experiment can loop over the four
 * kinds: each kind's ops build its tables and load its ELF (init),
 * pre-configure `slots` parameter entries (EDGE III-B), build a warp-level
 * launch for a slot (desc), write a slot's inputs and poison its outputs
 * (fill), compare every output word with a host reference (check).
 * docs/EVENT_KERNELS.md. */
#ifndef WORK_EV_WORK_H
#define WORK_EV_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"

typedef struct {
    const char *name;      /* "ipv4", "ipv6", "memc", "ipsec" */
    const char *elf;       /* kernel ELF under the kernel directory, without ".elf" */
    unsigned reqs_per_event; /* requests an event carries at most (packets; IPSec: 1) */
    /* Builds the tables from cfg's section for this kind (NULL cfg: the
     * defaults, which are the paper's values), loads <kdir>/<elf>.elf and
     * pre-configures `slots` parameter entries.  NULL and err on failure. */
    void *(*init)(gpu_t *g, fg_config *cfg, const char *kdir, unsigned slots, char *err, size_t errlen);
    void (*free)(void *w);
    /* Warp-level event launch (one block of <= 32 threads, no shared memory)
     * for `n` requests in `slot`. */
    gpu_launch_desc (*desc)(const void *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag);
    /* New inputs for `n` requests in `slot`; its outputs poisoned. */
    int (*fill)(void *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, char *err, size_t errlen);
    /* Every output word of the slot against the host reference: 0, or -1
     * with the first difference in err. */
    int (*check)(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
    /* Registers per thread of the loaded kernel (the ELF scan). */
    unsigned (*regs)(const void *w);
    /* Reads and validates this kind's config section (without building). */
    int (*load_config)(fg_config *cfg, char *err, size_t errlen);
} ev_work_ops;

extern const ev_work_ops ev_ipv4_ops, ev_ipv6_ops, ev_memc_ops, ev_ipsec_ops;

/* The four kinds in EDGE's order, NULL-terminated. */
extern const ev_work_ops *const ev_work_kinds[];
/* By name, NULL when unknown. */
const ev_work_ops *ev_work_find(const char *name);
/* Every kind's section of cfg read and validated: a program that loads
 * configs/edge.ini and rejects keys nobody read calls this first. */
int ev_work_load_configs(fg_config *cfg, char *err, size_t errlen);

/* One unsigned INI key of a kind's section (the loaders of the kinds share it). */
typedef struct {
    const char *key;
    unsigned *dst;
    unsigned min, max;
} ev_cfg_key;
int ev_cfg_load(fg_config *cfg, const char *section, const ev_cfg_key *k, size_t n, uint64_t *seed, char *err,
                size_t errlen);
/* <kdir>/<name>.elf into buf */
const char *ev_elf_path(char *buf, size_t len, const char *kdir, const char *name);
/* The launch every kind uses: one block of `threads` threads, warp_event set. */
gpu_launch_desc ev_warp_desc(const gpu_kernel *k, uint64_t param, unsigned threads, unsigned priority,
                             uint64_t tag);

/* Defines `const ev_work_ops OPS` for a kind whose module follows the
 * <x>_work pattern: W has a gpu_kernel `k`; PT is its generator parameters
 * with PDEF(&p) defaults and PLOAD(&p, cfg, err, errlen) from the config;
 * X##_work_init / _free / _desc / _fill / _check as in ipv4_work.h. */
#define EV_WORK_DEFINE(OPS, NAME, ELF, REQS, X, PT, PDEF, PLOAD)                                                    \
    static void *OPS##_init(gpu_t *g, fg_config *cfg, const char *kdir, unsigned slots, char *err, size_t errlen) { \
        PT gp;                                                                                                      \
        char path[512];                                                                                             \
        PDEF(&gp);                                                                                                  \
        if (cfg && PLOAD(&gp, cfg, err, errlen)) return NULL;                                                       \
        X##_work *w = calloc(1, sizeof *w);                                                                         \
        if (!w) {                                                                                                   \
            snprintf(err, errlen, "%s: out of memory", NAME);                                                       \
            return NULL;                                                                                            \
        }                                                                                                           \
        if (X##_work_init(w, g, &gp, ev_elf_path(path, sizeof path, kdir, ELF), slots, err, errlen)) {              \
            X##_work_free(w);                                                                                       \
            free(w);                                                                                                \
            return NULL;                                                                                            \
        }                                                                                                           \
        return w;                                                                                                   \
    }                                                                                                               \
    static void OPS##_free(void *w) {                                                                               \
        if (w) X##_work_free(w);                                                                                    \
        free(w);                                                                                                    \
    }                                                                                                               \
    static gpu_launch_desc OPS##_desc(const void *w, unsigned slot, unsigned n, unsigned pr, uint64_t tag) {        \
        return X##_work_desc(w, slot, n, pr, tag);                                                                  \
    }                                                                                                               \
    static int OPS##_fill(void *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, char *err, size_t errlen) {    \
        return X##_work_fill(w, g, slot, n, rng, err, errlen);                                                      \
    }                                                                                                               \
    static int OPS##_check(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {                \
        return X##_work_check(w, g, slot, n, err, errlen);                                                          \
    }                                                                                                               \
    static unsigned OPS##_regs(const void *w) { return ((const X##_work *)w)->k.regs_per_thread; }                  \
    static int OPS##_load_config(fg_config *cfg, char *err, size_t errlen) {                                        \
        PT gp;                                                                                                      \
        PDEF(&gp);                                                                                                  \
        return PLOAD(&gp, cfg, err, errlen);                                                                        \
    }                                                                                                               \
    const ev_work_ops OPS = {NAME,        ELF,         REQS,       OPS##_init,       OPS##_free,                    \
                             OPS##_desc,  OPS##_fill,  OPS##_check, OPS##_regs,      OPS##_load_config}

#endif
