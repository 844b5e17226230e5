/* ev_work: the EDGE event kernels (EDGE Sec. V: IPv4, IPv6, MemC GET,
 * IPSec) as uniform GPU workloads, so an experiment can loop over the four
 * kinds: each kind's ops build its tables and load its ELF (init),
 * pre-configure `slots` parameter entries (EDGE III-B), build a warp-level
 * launch for a slot (desc), write a slot's inputs and poison its outputs
 * through the untimed backdoor (fill) or send the inputs as a device does,
 * through the host DMA port (send), compare every output word with a host
 * reference (check), or, for an event whose execution was skipped
 * ([preempt] skip_exec), check that its inputs arrived and no output was
 * written (check_skipped).  docs/EVENT_KERNELS.md. */
#ifndef WORK_EV_WORK_H
#define WORK_EV_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"

/* An event's memory in one slot: the input regions fill / send write (src:
 * the host copy; NULL = the 4-byte `word`, e.g. a request count) and the
 * output regions they poison (every byte = poison). */
#define EV_MAX_REGIONS 4
typedef struct {
    uint64_t addr;
    const void *src;
    size_t len;
    uint32_t word;
} ev_region;
typedef struct {
    ev_region in[EV_MAX_REGIONS], out[EV_MAX_REGIONS];
    unsigned nin, nout;
    uint8_t poison;
} ev_io;

/* A send in flight (one per slot): cb(user, tag) when all nin writes are acknowledged. */
typedef void (*ev_sent_cb)(void *user, uint64_t tag);
typedef struct {
    ev_sent_cb cb;
    void *user;
    uint64_t tag;
    unsigned left;
} ev_send_state;

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
    /* The same new inputs as fill, as a device sends them: each input region
     * through the host DMA port at bytes_per_cycle (gpu_dma_write, in
     * order), the outputs poisoned through the backdoor (a test instrument,
     * not traffic); cb(user, tag) in the tick the last write is acknowledged,
     * when the launch may follow (PCIe posted-write order).  0 sent; 1 the
     * host DMA queue has no room (nothing done, rng untouched: try again
     * after a tick); -1 error.  One send per slot at a time. */
    int (*send)(void *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, double bytes_per_cycle, ev_sent_cb cb,
                void *user, uint64_t tag, char *err, size_t errlen);
    /* Every output word of the slot against the host reference: 0, or -1
     * with the first difference in err. */
    int (*check)(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
    /* check while other events of this kind may still be running: state
     * they share (MemC's set locks) is left to check_idle.  Equals check for
     * the kinds without such state. */
    int (*check_running)(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
    /* The shared state once no event of this kind runs (MemC: every set
     * lock back at 0); 0 for the other kinds. */
    int (*check_idle)(void *w, gpu_t *g, char *err, size_t errlen);
    /* An event whose execution was skipped ([preempt] skip_exec, EDGE
     * VI-C): every input byte in GPU memory equals what was sent, every
     * output byte still holds the poison.  0, or -1 naming the first
     * difference. */
    int (*check_skipped)(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
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
/* check_idle of the kinds whose events share no state (always 0) */
int ev_idle_none(const void *w, gpu_t *g, char *err, size_t errlen);
/* <kdir>/<name>.elf into buf */
const char *ev_elf_path(char *buf, size_t len, const char *kdir, const char *name);
/* A slot's regions (ev_io) through the backdoor: inputs written, outputs
 * poisoned.  -1 when a region lies outside GPU memory. */
int ev_io_put(gpu_t *g, const ev_io *io);
/* ... as a device sends them (ops->send); the caller has checked that the
 * DMA queue takes io->nin jobs.  st: the slot's send state. */
int ev_io_send(gpu_t *g, const ev_io *io, double bytes_per_cycle, ev_send_state *st, ev_sent_cb cb, void *user,
               uint64_t tag);
/* ops->check_skipped over a slot's regions; name / slot for the message. */
int ev_io_check_skipped(gpu_t *g, const ev_io *io, const char *name, unsigned slot, char *err, size_t errlen);

/* The launch every kind uses: one block of `threads` threads, warp_event set. */
gpu_launch_desc ev_warp_desc(const gpu_kernel *k, uint64_t param, unsigned threads, unsigned priority,
                             uint64_t tag);

/* Defines `const ev_work_ops OPS` for a kind whose module follows the
 * <x>_work pattern: W has a gpu_kernel `k` and `ev_send_state *send` (one per
 * slot); PT is its generator parameters with PDEF(&p) defaults and
 * PLOAD(&p, cfg, err, errlen) from the config; X##_work_init / _free / _desc
 * / _check as in ipv4_work.h, X##_work_io(w, slot, n, &io) the
 * slot's regions (-1 when slot or n is out of range) and X##_work_gen(w,
 * slot, n, rng) new inputs in the host copy; CHECK_RUNNING / CHECK_IDLE the
 * functions behind check_running / check_idle (X##_work_check and
 * ev_idle_none for a kind whose events share no state). */
#define EV_WORK_DEFINE(OPS, NAME, ELF, REQS, X, PT, PDEF, PLOAD, CHECK_RUNNING, CHECK_IDLE)                       \
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
        ev_io io;                                                                                                   \
        if (X##_work_io(w, slot, n, &io, err, errlen) || X##_work_gen(w, slot, n, rng)) return -1;                  \
        if (ev_io_put(g, &io)) {                                                                                    \
            snprintf(err, errlen, "%s: input upload of slot %u failed", NAME, slot);                                \
            return -1;                                                                                              \
        }                                                                                                           \
        return 0;                                                                                                   \
    }                                                                                                               \
    static int OPS##_check(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {                \
        return X##_work_check(w, g, slot, n, err, errlen);                                                          \
    }                                                                                                               \
    static int OPS##_send(void *vw, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, double bpc, ev_sent_cb cb,      \
                          void *user, uint64_t tag, char *err, size_t errlen) {                                     \
        X##_work *w = vw;                                                                                           \
        ev_io io;                                                                                                   \
        if (X##_work_io(w, slot, n, &io, err, errlen)) return -1;                                                   \
        if (gpu_dma_free(g) < io.nin) return 1;                                                                     \
        if (X##_work_gen(w, slot, n, rng) || ev_io_send(g, &io, bpc, &w->send[slot], cb, user, tag)) {              \
            snprintf(err, errlen, "%s: input DMA of slot %u failed", NAME, slot);                                   \
            return -1;                                                                                              \
        }                                                                                                           \
        return 0;                                                                                                   \
    }                                                                                                               \
    static int OPS##_check_running(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {        \
        return CHECK_RUNNING(w, g, slot, n, err, errlen);                                                           \
    }                                                                                                               \
    static int OPS##_check_idle(void *w, gpu_t *g, char *err, size_t errlen) { return CHECK_IDLE(w, g, err, errlen); } \
    static int OPS##_check_skipped(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {        \
        ev_io io;                                                                                                   \
        if (X##_work_io(w, slot, n, &io, err, errlen)) return -1;                                                   \
        return ev_io_check_skipped(g, &io, NAME, slot, err, errlen);                                                \
    }                                                                                                               \
    static unsigned OPS##_regs(const void *w) { return ((const X##_work *)w)->k.regs_per_thread; }                  \
    static int OPS##_load_config(fg_config *cfg, char *err, size_t errlen) {                                        \
        PT gp;                                                                                                      \
        PDEF(&gp);                                                                                                  \
        return PLOAD(&gp, cfg, err, errlen);                                                                        \
    }                                                                                                               \
    const ev_work_ops OPS = {NAME,        ELF,                 REQS,               OPS##_init,                     \
                             OPS##_free,  OPS##_desc,          OPS##_fill,         OPS##_send,                     \
                             OPS##_check, OPS##_check_running, OPS##_check_idle,   OPS##_check_skipped,            \
                             OPS##_regs,  OPS##_load_config}

#endif
