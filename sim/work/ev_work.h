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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"
#include "../../sw/include/fg_ring.h"

/* Where a kind keeps the memory a device writes per event (its parameter
 * entries and input buffers; docs/EVENT_KERNELS.md "Receive ring"):
 *   EV_RING_PLAIN  ordinary global memory: an event may be launched only
 *                  once its inputs' DMA is acknowledged;
 *   EV_RING_SYNC   a receive ring in synchronized memory (F/E 4.2) and the
 *                  kind's *_ring kernel (sw/include/fg_ring.h): a slot is a
 *                  header line with the count, then the data; the DMA waits
 *                  for each word to be empty and fills it (F/E 4.4 trigger /
 *                  action on the device's writes); the kernel's loads of the
 *                  slot wait until their words are full and empty them as
 *                  it copies the slot into its buffer in ordinary memory, so
 *                  an event may start before its data lands (EDGE III-C with
 *                  F/E 4.1).  Its parameter entry is the plain one (in
 *                  ordinary memory, its data pointer naming that buffer)
 *                  and one more word, the slot's data in the ring.  IPSec has no such kernel: it encrypts its
 *                  payload in place, so the slot holds a result until it is
 *                  checked. */
typedef enum { EV_RING_PLAIN = 0, EV_RING_SYNC = 1 } ev_ring;

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

/* A send in flight (one per slot): cb(user, tag) when all nin writes are
 * acknowledged.  cut (ops->link_fault, for the slot's next send): the link
 * fails after cut_bytes of it, the rest is never written and the send never
 * acknowledged. */
typedef void (*ev_sent_cb)(void *user, uint64_t tag);
typedef struct {
    ev_sent_cb cb;
    void *user;
    uint64_t tag;
    unsigned left;
    bool cut;
    size_t cut_bytes;
} ev_send_state;

typedef struct {
    const char *name;      /* "ipv4", "ipv6", "memc", "ipsec" */
    const char *elf;       /* kernel ELF under the kernel directory, without ".elf" */
    unsigned reqs_per_event; /* requests an event carries at most (packets; IPSec: 1) */
    /* Builds the tables from cfg's section for this kind (NULL cfg: the
     * defaults, which are the paper's values), loads <kdir>/<elf>.elf and
     * pre-configures `slots` parameter entries, in ordinary or synchronized
     * memory (ring; with EV_RING_SYNC the parameter entries are marked full
     * and every device-written word empty before it returns, ticking g).
     * NULL and err on failure. */
    void *(*init)(gpu_t *g, fg_config *cfg, const char *kdir, unsigned slots, ev_ring ring, char *err,
                  size_t errlen);
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
     * when the launch may follow (PCIe posted-write order).  In a
     * synchronized ring each write waits for its words to be empty and fills
     * them, the count word first, and the launch need not wait.  0 sent; 1 the
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
    /* A link fault injected into the slot's next send, or (on = false) no
     * longer (a test instrument, ev_send_state): only its first `bytes`
     * bytes (the count word first in a synchronized ring) reach GPU memory,
     * and it is never acknowledged. */
    void (*link_fault)(void *w, unsigned slot, bool on, size_t bytes);
    /* The words of the slot's synchronized ring marked empty again, as a
     * driver recovers a slot whose event ended by a fault without emptying
     * them (gpu_set_event_fault_callback): 0 queued (done once the GPU's F/E
     * initialization is idle, gpu_fe_init_busy), 1 not now (try again after
     * a tick), -1 error. */
    int (*rearm)(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
    /* Bytes the device sends for an event of n requests (its input regions). */
    size_t (*in_bytes)(const void *w, unsigned n);
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
int ev_io_send(gpu_t *g, const ev_io *io, ev_ring ring, double bytes_per_cycle, ev_send_state *st, ev_sent_cb cb,
               void *user, uint64_t tag);
/* ops->rearm: the lines of io's input regions marked empty (gpu_fe_init). */
int ev_io_rearm(gpu_t *g, const ev_io *io);
/* A parameter entry's bytes: the plain kernel's, and in a synchronized ring
 * the slot's ring address after it (FG_RING_PARAMS). */
static inline uint64_t ev_param_bytes(uint64_t plain, ev_ring ring) { return plain + (ring == EV_RING_SYNC ? 4 : 0); }
/* A synchronized ring of `slots` slots of data_bytes (each a header line
 * and the data in whole lines; 0 when it does not fit), and slot `slot`'s
 * data in it (its count word FG_RING_HDR_BYTES before). */
uint64_t ev_ring_alloc(gpu_t *g, unsigned slots, uint64_t data_bytes);
uint64_t ev_ring_data(uint64_t ring, unsigned slot, uint64_t data_bytes);
/* A slot's device-written regions (ev_io in[0] and in[1]): the data and the
 * count word, in the ring or, plain, at the kernel's buffer (data) and the
 * parameter entry's count field (count). */
void ev_slot_regions(ev_io *io, ev_ring ring, uint64_t ring_data, uint64_t data, const void *src, size_t len,
                     uint64_t count, uint32_t n);
/* A slot's parameter entry written: the plain entry (plain bytes of q) and,
 * in a synchronized ring, the slot's ring address after it.  -1 outside
 * GPU memory. */
int ev_param_write(gpu_t *g, uint64_t addr, const void *q, size_t plain, ev_ring ring, uint64_t ring_data);
/* The ring made ready as a driver does before the device starts: its words
 * [lo, hi) (the kind's synchronized allocations) marked empty; ticks g
 * until done.  -1 with err. */
int ev_ring_setup(gpu_t *g, uint64_t lo, uint64_t hi, const char *name, char *err, size_t errlen);
/* ... advancing the system with tick(user) instead of g alone (a system
 * whose other parts count the same cycles); tick returns nonzero on a
 * fault. */
int ev_ring_setup_ticked(gpu_t *g, uint64_t lo, uint64_t hi, const char *name, int (*tick)(void *), void *user,
                         char *err, size_t errlen);
/* A device's DMA write into a ring slot (gpu_dma_write's arguments): each
 * line waits for its words to be empty and fills them (F/E 4.4 trigger and
 * action on the host interface's line requests). */
int ev_ring_dma(gpu_t *g, uint64_t addr, const void *src, size_t len, double bytes_per_cycle, gpu_dma_cb cb,
                void *user, uint64_t tag);
/* ops->check_skipped over a slot's regions; name / slot for the message. */
int ev_io_check_skipped(gpu_t *g, const ev_io *io, const char *name, unsigned slot, char *err, size_t errlen);

/* The launch every kind uses: one block of `threads` threads, warp_event set. */
gpu_launch_desc ev_warp_desc(const gpu_kernel *k, uint64_t param, unsigned threads, unsigned priority,
                             uint64_t tag);

/* Defines `const ev_work_ops OPS` for a kind whose module follows the
 * <x>_work pattern: W has a gpu_kernel `k` and `ev_send_state *send` (one per
 * slot); PT is its generator parameters with PDEF(&p) defaults and
 * PLOAD(&p, cfg, err, errlen) from the config; X##_work_init / _free / _desc
 * / _check as in ipv4_work.h (init taking the ev_ring, kept in w->ring;
 * with EV_RING_SYNC it loads ELF "_ring" and allocates its ring with
 * ev_ring_alloc, nothing else in synchronized memory, so that the ring is
 * what lies between the two gpu_sync_brk readings),
 * X##_work_io(w, slot, n, &io) the
 * slot's regions (-1 when slot or n is out of range) and X##_work_gen(w,
 * slot, n, rng) new inputs in the host copy; CHECK_RUNNING / CHECK_IDLE the
 * functions behind check_running / check_idle (X##_work_check and
 * ev_idle_none for a kind whose events share no state). */
#define EV_WORK_DEFINE(OPS, NAME, ELF, REQS, X, PT, PDEF, PLOAD, CHECK_RUNNING, CHECK_IDLE)                       \
    static void *OPS##_init(gpu_t *g, fg_config *cfg, const char *kdir, unsigned slots, ev_ring ring, char *err,    \
                            size_t errlen) {                                                                        \
        PT gp;                                                                                                      \
        char path[512];                                                                                             \
        PDEF(&gp);                                                                                                  \
        if (cfg && PLOAD(&gp, cfg, err, errlen)) return NULL;                                                       \
        X##_work *w = calloc(1, sizeof *w);                                                                         \
        if (!w) {                                                                                                   \
            snprintf(err, errlen, "%s: out of memory", NAME);                                                       \
            return NULL;                                                                                            \
        }                                                                                                           \
        const uint64_t lo = gpu_sync_brk(g);                                                                        \
        if (X##_work_init(w, g, &gp, ev_elf_path(path, sizeof path, kdir, ring ? ELF "_ring" : ELF), slots, ring,   \
                          err, errlen) ||                                                                           \
            (ring && ev_ring_setup(g, lo, gpu_sync_brk(g), NAME, err, errlen))) {                                 \
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
        if (X##_work_gen(w, slot, n, rng) || ev_io_send(g, &io, w->ring, bpc, &w->send[slot], cb, user, tag)) {     \
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
    static void OPS##_link_fault(void *w, unsigned slot, bool on, size_t bytes) {                                   \
        ev_send_state *st = &((X##_work *)w)->send[slot];                                                           \
        st->cut = on;                                                                                               \
        st->cut_bytes = bytes;                                                                                      \
    }                                                                                                               \
    static int OPS##_rearm(void *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {                \
        ev_io io;                                                                                                   \
        if (X##_work_io(w, slot, n, &io, err, errlen)) return -1;                                                   \
        const int rc = ev_io_rearm(g, &io);                                                                         \
        if (rc < 0) snprintf(err, errlen, "%s: slot %u: its ring words could not be marked empty", NAME, slot);     \
        return rc;                                                                                                  \
    }                                                                                                               \
    static size_t OPS##_in_bytes(const void *w, unsigned n) {                                                       \
        ev_io io;                                                                                                   \
        char e[128];                                                                                                \
        size_t b = 0;                                                                                               \
        if (X##_work_io(w, 0, n, &io, e, sizeof e)) return 0;                                                       \
        for (unsigned i = 0; i < io.nin; i++) b += io.in[i].len;                                                    \
        return b;                                                                                                   \
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
                             OPS##_link_fault, OPS##_rearm, OPS##_in_bytes, OPS##_regs, OPS##_load_config}

#endif
