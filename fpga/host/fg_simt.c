/* fg_simt: see fg_simt.h. */
#include "fg_simt.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../sw/kernels/t_preempt.h"
#include "fg_hw.h"
#include "fg_regmap_simt.h"
#include "fg_util.h"
#include "gen/edge_ekt_enc.h"
#include "fg_config.h"
#include "simt/gpu.h"
#include "work/ipsec_work.h"
#include "work/ipv4_work.h"
#include "work/ipv6_work.h"
#include "work/memc_work.h"

#define S(off) (FG_WIN_SIMT + (off))
#define MEM(a) (FG_SIMT_MEM_BASE + (uint32_t)(a))
#define IMG_LO 0x1000u /* the core's global memory starts here (docs/SIMT_RTL.md) */
#define FILL_MIN 16u   /* runs of equal words at least this long go to the fill engine */
#define BG_MASK 1023u  /* the background's pointer-chase table: 1024 words */
#define EV_ID 0u       /* the doorbell / EKT entry of the event kernel */

void fg_simt_opts_default(fg_simt_opts *o) {
    gpu_config c; /* the controller's policy and flush options: the C model's defaults */
    gpu_config_default(&c);
    *o = (fg_simt_opts){.kind = "ipv4", .kdir = "build/sw", .packets = 64, .slots = 8, .bg_blocks = 16,
                        .bg_iters = 64, .policy = c.pre.policy, .opts = c.pre.opts, .seed = 1, .timeout_s = 600,
                        .reply_ms = 60000};
}

/* ------------------------------------------------------------ the kinds */
/* A kind of event on the SIMT top: ev_work's ops (sim/work/ev_work.h), its
 * config section, the settings that make its tables fit the board's memory
 * (before the user's --set), what its requests are called, and the two
 * things the ops keep inside: a slot's memory regions and its parameter
 * entry. */
typedef struct {
    const ev_work_ops *ops;
    const char *section;
    const char *board[3];
    const char *done; /* "packets forwarded" */
    int (*io)(const void *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen);
    uint64_t (*param)(const void *w, unsigned slot);
} simt_kind;

#define KIND_FNS(X)                                                                                \
    static int X##_io(const void *w, unsigned s, unsigned n, ev_io *io, char *err, size_t errlen) { \
        return X##_work_io(w, s, n, io, err, errlen);                                               \
    }                                                                                               \
    static uint64_t X##_param(const void *w, unsigned s) { return X##_work_param(w, s); }
KIND_FNS(ipv4)
KIND_FNS(ipv6)
KIND_FNS(memc)
KIND_FNS(ipsec)

/* the board's 368 KiB hold a DIR-16 first level (256 KiB) and little more */
static const simt_kind kinds[] = {
    {&ev_ipv4_ops, "routes", {"routes.count=64", "routes.blocks16=4"}, "packets forwarded", ipv4_io, ipv4_param},
    {&ev_ipv6_ops, "ipv6", {"ipv6.count=16", "ipv6.blocks32=1"}, "packets forwarded", ipv6_io, ipv6_param},
    {&ev_memc_ops, "memc", {"memc.hash_power=9", "memc.warm_sets=256"}, "GET requests answered", memc_io,
     memc_param},
    {&ev_ipsec_ops, "ipsec", {NULL}, "packets encrypted", ipsec_io, ipsec_param},
};
#define NKINDS (sizeof kinds / sizeof *kinds)

static const simt_kind *kind_find(const char *name) {
    for (unsigned i = 0; i < NKINDS; i++)
        if (!strcmp(kinds[i].ops->name, name)) return &kinds[i];
    return NULL;
}

int fg_simt_kind_known(const char *name) { return kind_find(name) != NULL; }

const char *fg_simt_kinds(void) {
    static char buf[64];
    if (!buf[0])
        for (unsigned i = 0; i < NKINDS; i++)
            snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? i + 1 < NKINDS ? ", " : " or " : "",
                     kinds[i].ops->name);
    return buf;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ------------------------------------------------------------ board memory */
/* polls the engine count register reg until it reads 0 (at most tries reads) */
static int wait_zero(fg_host *h, uint32_t reg, size_t tries, const char *what, uint32_t a, size_t n) {
    uint32_t left = 1;
    for (size_t t = 0; left && t < tries; t++)
        if (fg_host_read(h, reg, &left)) return -1;
    if (left) return fg_host_fail(h, "SIMT %s of %zu words at 0x%x never ended (%u left)", what, n, a, left);
    return 0;
}

/* words [a, a + 4n) of the board's memory from src: runs of equal words by
 * the fill engine, the rest in bursts */
static int mem_put(fg_host *h, uint32_t a, const uint32_t *src, size_t n) {
    size_t i = 0;
    while (i < n) {
        size_t run = 1;
        while (i + run < n && src[i + run] == src[i]) run++;
        if (run >= FILL_MIN) {
            if (fg_host_write(h, S(FG_SIMT_FILL_ADDR), a + 4 * (uint32_t)i) ||
                fg_host_write(h, S(FG_SIMT_FILL_VALUE), src[i]) ||
                fg_host_write(h, S(FG_SIMT_FILL_COUNT), (uint32_t)run) ||
                wait_zero(h, S(FG_SIMT_FILL_COUNT), 100000, "fill", a + 4 * (uint32_t)i, run))
                return -1;
            i += run;
            continue;
        }
        /* a burst up to the next long run */
        size_t j = i, m = 0;
        while (j < n && m < 256) {
            size_t r = 1;
            while (j + r < n && src[j + r] == src[j] && r < FILL_MIN) r++;
            if (r >= FILL_MIN) break;
            j++, m++;
        }
        if (fg_host_write_burst(h, MEM(a + 4 * i), src + i, (unsigned)m)) return -1;
        i += m;
    }
    return 0;
}

static int mem_get(fg_host *h, uint32_t a, uint32_t *dst, size_t n) {
    for (size_t i = 0; i < n; i += 256) {
        const unsigned m = n - i < 256 ? (unsigned)(n - i) : 256u;
        if (fg_host_read_burst(h, MEM(a + 4 * i), dst + i, m)) return -1;
    }
    return 0;
}

/* bytes [a, a + len) of the C GPU's memory onto the board (whole words) */
static int gpu_to_board(fg_host *h, gpu_t *g, uint64_t a, size_t len) {
    const uint64_t lo = a & ~3ull, hi = (a + len + 3) & ~3ull;
    const size_t n = (size_t)(hi - lo) / 4;
    uint32_t *buf = malloc(n * 4);
    if (!buf) return fg_host_fail(h, "out of memory");
    int rc = gpu_mem_read(g, lo, buf, n * 4) ? fg_host_fail(h, "C model: cannot read 0x%" PRIx64, lo)
                                             : mem_put(h, (uint32_t)lo, buf, n);
    free(buf);
    return rc;
}

/* ------------------------------------------------------------ the top */
static int status_ok(fg_host *h) {
    uint32_t st, v[4];
    if (fg_host_read(h, S(FG_SIMT_STATUS), &st)) return -1;
    const uint32_t bad = FG_SIMT_ST_MEM_ERR | FG_SIMT_ST_FAULT | FG_SIMT_ST_EV_BAD | FG_SIMT_ST_ERR |
                         FG_SIMT_ST_REC_LOST | FG_SIMT_ST_REFUSED | FG_SIMT_ST_CPL_LOST;
    if (!(st & bad)) return 0;
    if (fg_host_read(h, S(FG_SIMT_FAULT), &v[0]) || fg_host_read(h, S(FG_SIMT_FAULT_PC), &v[1]) ||
        fg_host_read(h, S(FG_SIMT_MEM_ERR_ADDR), &v[2]) || fg_host_read(h, S(FG_SIMT_ERR_CODE), &v[3]))
        return -1;
    if (st & FG_SIMT_ST_FAULT)
        return fg_host_fail(h, "SIMT top: %s warp in slot %u faulted (code %u) at pc 0x%08x",
                            (v[0] >> 16 & 1) ? "an event" : "a background", v[0] >> 8 & 0xFF, v[0] & 7, v[1]);
    if (st & FG_SIMT_ST_MEM_ERR) return fg_host_fail(h, "SIMT top: an access at 0x%08x, outside the memory", v[2]);
    if (st & FG_SIMT_ST_EV_BAD) return fg_host_fail(h, "SIMT top: an event not of one warp was refused");
    if (st & FG_SIMT_ST_ERR) return fg_host_fail(h, "SIMT top: PEWT / controller error code 0x%x", v[3]);
    if (st & FG_SIMT_ST_REC_LOST) return fg_host_fail(h, "SIMT top: event records lost (FIFO full)");
    if (st & FG_SIMT_ST_CPL_LOST) return fg_host_fail(h, "SIMT top: a completion found the EKT's queue full");
    return fg_host_fail(h, "SIMT top: a LAUNCH or fill was refused (status 0x%x)", st);
}

typedef struct {
    fg_host *h;
    const fg_simt_opts *o;
    fg_simt_result *r;
    const simt_kind *k;
    gpu_t *g;
    fg_config *cfg;
    void *w;              /* the kind's workload (ops->init) */
    fg_rng rng;
    unsigned nw, stack, mem_bytes;
    unsigned reqs;        /* requests an event carries at most */
    unsigned out_words;   /* words of a slot's output regions */
    unsigned *slot_n;     /* requests of the event in each slot (0: the slot is free) */
    unsigned *slot_ev;    /* the index of that event (rung order = the tag's sequence) */
    uint32_t *c_out;      /* the C model's outputs, out_words per slot */
    unsigned rung, done;  /* events rung, completed */
    unsigned gpu_busy;    /* C model launches still running */
} run;

static void on_done(void *u, uint64_t tag, uint64_t cyc) {
    (void)tag, (void)cyc;
    ((run *)u)->gpu_busy--;
}

/* one launch run to completion on the C model alone */
static int c_run(run *x, const gpu_launch_desc *d) {
    char err[256];
    x->gpu_busy++;
    if (gpu_launch(x->g, d, err, sizeof err)) return fg_host_fail(x->h, "C model: %s", err);
    for (uint64_t c = 0; x->gpu_busy; c++) {
        gpu_tick(x->g);
        if (gpu_error(x->g)) return fg_host_fail(x->h, "C model: %s", gpu_error(x->g));
        if (c > 500000000ull) return fg_host_fail(x->h, "C model: a launch ran 500 M cycles");
    }
    return 0;
}

/* the slot's memory regions; every output region whole words, as the board
 * reads them */
static int slot_io(run *x, unsigned slot, unsigned n, ev_io *io) {
    char err[256];
    if (x->k->io(x->w, slot, n, io, err, sizeof err)) return fg_host_fail(x->h, "%s", err);
    for (unsigned i = 0; i < io->nout; i++)
        if ((io->out[i].addr | io->out[i].len) & 3)
            return fg_host_fail(x->h, "%s: output region %u of slot %u is not whole words", x->k->ops->name, i, slot);
    return 0;
}

/* new inputs for the event in `slot` (outputs poisoned) in the C model and
 * (board) in the board's memory */
static int slot_fill(run *x, unsigned slot, unsigned n, int board) {
    char err[256];
    ev_io io;
    if (x->k->ops->fill(x->w, x->g, slot, n, &x->rng, err, sizeof err)) return fg_host_fail(x->h, "%s", err);
    if (slot_io(x, slot, n, &io)) return -1;
    if (board) {
        for (unsigned i = 0; i < io.nin; i++)
            if (gpu_to_board(x->h, x->g, io.in[i].addr, io.in[i].len)) return -1;
        for (unsigned i = 0; i < io.nout; i++)
            if (gpu_to_board(x->h, x->g, io.out[i].addr, io.out[i].len)) return -1;
    }
    x->slot_n[slot] = n;
    return 0;
}

/* the C model runs the slot's event with the EKT registration's threads */
static int slot_c_model(run *x, unsigned slot) {
    const gpu_launch_desc d = x->k->ops->desc(x->w, slot, x->reqs, 3, slot);
    ev_io io;
    if (c_run(x, &d) || slot_io(x, slot, x->slot_n[slot], &io)) return -1;
    uint32_t *c = x->c_out + (size_t)slot * x->out_words;
    for (unsigned i = 0; i < io.nout; c += io.out[i].len / 4, i++)
        if (gpu_mem_read(x->g, io.out[i].addr, c, io.out[i].len))
            return fg_host_fail(x->h, "C model: cannot read the outputs of slot %u", slot);
    return 0;
}

/* the board's outputs of the slot's event against the C model's, then (in
 * the C model's memory) against the host reference */
static int slot_check(run *x, unsigned slot) {
    const unsigned n = x->slot_n[slot];
    const uint32_t *c = x->c_out + (size_t)slot * x->out_words;
    char err[256];
    ev_io io;
    if (slot_io(x, slot, n, &io)) return -1;
    for (unsigned i = 0; i < io.nout; i++) {
        const unsigned nw = (unsigned)(io.out[i].len / 4);
        uint32_t *got = malloc((size_t)nw * 4);
        if (!got) return fg_host_fail(x->h, "out of memory");
        if (mem_get(x->h, (uint32_t)io.out[i].addr, got, nw)) {
            free(got);
            return -1;
        }
        for (unsigned j = 0; j < nw; j++)
            if (got[j] != c[j]) {
                if (!x->r->mismatches && x->o->progress)
                    fprintf(x->o->progress, "run-events: event in slot %u, output 0x%" PRIx64 ": board 0x%x, C model 0x%x\n",
                            slot, io.out[i].addr + 4 * (uint64_t)j, got[j], c[j]);
                x->r->mismatches++;
            }
        x->r->out_words += nw;
        const int bad = gpu_mem_write(x->g, io.out[i].addr, got, (size_t)nw * 4);
        free(got);
        if (bad) return fg_host_fail(x->h, "C model: cannot write 0x%" PRIx64, io.out[i].addr);
        c += nw;
    }
    if (x->k->ops->check_running(x->w, x->g, slot, n, err, sizeof err)) {
        if (x->o->progress && !x->r->ref_mismatches) fprintf(x->o->progress, "run-events: %s\n", err);
        x->r->ref_mismatches++;
    }
    x->r->packets += n;
    return 0;
}

/* pops the records the board has; events in different warp slots end in
 * any order, so each record names its event by the tag's sequence */
static int drain(run *x) {
    uint32_t cnt;
    if (fg_host_read(x->h, S(FG_SIMT_REC_COUNT), &cnt)) return -1;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t v[3];
        if (fg_host_read_burst(x->h, S(FG_SIMT_REC_TAG), v, 3) || fg_host_write(x->h, S(FG_SIMT_REC_TAG), 0))
            return -1;
        const unsigned seq = v[0] >> 5 & 0x7FFu, id = v[0] & 31u;
        unsigned s = 0;
        while (s < x->o->slots && !(x->slot_n[s] && (x->slot_ev[s] & 0x7FFu) == seq)) s++;
        if (id != EV_ID || s == x->o->slots)
            return fg_host_fail(x->h, "SIMT top: completion tag 0x%x (doorbell %u, sequence %u) is no event in flight",
                                v[0], id, seq);
        if (slot_check(x, s)) return -1;
        x->slot_n[s] = 0;
        x->r->cyc_sum += v[1];
        if (!x->done || v[1] < x->r->cyc_min) x->r->cyc_min = v[1];
        if (v[1] > x->r->cyc_max) x->r->cyc_max = v[1];
        x->done++;
    }
    return 0;
}

/* the kind's workload from its board settings and the user's --set, every
 * setting read (a typo refused) */
static int setup_kind(run *x) {
    const fg_simt_opts *o = x->o;
    char err[512], seed[64];
    x->cfg = fg_config_new();
    if (!x->cfg) return fg_host_fail(x->h, "out of memory");
    snprintf(seed, sizeof seed, "%s.seed=%" PRIu64, x->k->section, o->seed);
    for (unsigned i = 0; i < 3 && x->k->board[i]; i++)
        if (fg_config_set(x->cfg, x->k->board[i], err, sizeof err))
            return fg_host_fail(x->h, "run-events: %s", err);
    if (fg_config_set(x->cfg, seed, err, sizeof err)) return fg_host_fail(x->h, "run-events: %s", err);
    for (unsigned i = 0; i < o->nsets; i++)
        if (fg_config_set(x->cfg, o->sets[i], err, sizeof err)) return fg_host_fail(x->h, "run-events: --set %s", err);
    x->w = x->k->ops->init(x->g, x->cfg, o->kdir, o->slots, EV_RING_PLAIN, err, sizeof err);
    if (!x->w) return fg_host_fail(x->h, "run-events: %s (the board has %u bytes of memory)", err, x->mem_bytes);
    if (fg_config_check_unused(x->cfg, err, sizeof err)) return fg_host_fail(x->h, "run-events: --set: %s", err);
    ev_io io;
    if (slot_io(x, 0, 1, &io)) return -1;
    for (unsigned i = 0; i < io.nout; i++) x->out_words += (unsigned)(io.out[i].len / 4);
    return 0;
}

static int setup(run *x, uint64_t *bg_next, uint64_t *bg_out, gpu_kernel *bk, uint64_t *bg_args) {
    const fg_simt_opts *o = x->o;
    fg_host *h = x->h;
    char err[512], elf[1024];
    uint32_t id, params;
    if (fg_host_check_id(h) || fg_host_read(h, S(FG_SIMT_ID), &id)) return -1;
    if (id != FG_SIMT_ID_VALUE)
        return fg_host_fail(h, "run-events: no SIMT window (reads 0x%08x): not the SIMT top "
                               "(make fpga FPGA_TOP=simt, or build/bin/fpga_simt_sim)", id);
    if (fg_host_reset_blocks(h) || fg_host_read(h, S(FG_SIMT_PARAMS), &params) ||
        fg_host_read(h, S(FG_SIMT_MEM_BYTES), &x->mem_bytes) || fg_host_read(h, S(FG_SIMT_STACK_BYTES), &x->stack))
        return -1;
    x->nw = params & 0xFF;

    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 1;
    /* the board's memory is the low part of the C GPU's; the image is
     * checked to fit in it */
    c.global_mem_bytes = 16u << 20;
    /* the reference runs each launch alone: events as ordinary one-block
     * launches, no PEWT (and no save area of its own in the image) */
    c.pre.warp_events = false;
    c.mem.fe_region_bytes = 0;
    x->g = gpu_new(&c, err, sizeof err);
    if (!x->g) return fg_host_fail(h, "C model: %s", err);
    gpu_callbacks cb = {NULL, on_done, x};
    gpu_set_callbacks(x->g, &cb);
    if (setup_kind(x)) return -1;
    if (o->bg_blocks) {
        if (gpu_load_kernel(x->g, ev_elf_path(elf, sizeof elf, o->kdir, "t_preempt"), "t_preempt", bk, err,
                            sizeof err))
            return fg_host_fail(h, "run-events: %s", err);
        *bg_next = gpu_malloc(x->g, (BG_MASK + 1) * 4);
        *bg_out = gpu_malloc(x->g, (uint64_t)o->bg_blocks * 32 * 4);
        *bg_args = gpu_malloc(x->g, sizeof(struct t_pre_args));
        if (!*bg_next || !*bg_out || !*bg_args)
            return fg_host_fail(h, "run-events: the background does not fit in %u bytes", x->mem_bytes);
        uint32_t next[BG_MASK + 1];
        for (unsigned i = 0; i <= BG_MASK; i++) next[i] = (uint32_t)fg_rng_next(&x->rng);
        const struct t_pre_args a = {(uint32_t)*bg_next, (uint32_t)*bg_out, T_PRE_LOAD, o->bg_iters, 0, BG_MASK};
        if (gpu_mem_write(x->g, *bg_next, next, sizeof next) || gpu_mem_write(x->g, *bg_args, &a, sizeof a))
            return fg_host_fail(h, "C model: cannot write the background's data");
    }
    return 0;
}

void fg_simt_sums(const uint32_t *w, size_t n, uint32_t s[2]) {
    uint32_t a = 0, b = 0;
    for (size_t i = 0; i < n; i++) {
        a += w[i];
        b += a;
    }
    s[0] = a, s[1] = b;
}

/* the board's sums of its words [a, a + 4n) (fg_simt_ctl.sv "Check") */
static int board_sums(fg_host *h, uint32_t a, size_t n, uint32_t s[2]) {
    /* each poll takes many cycles, and the check gets the memory at least every other cycle */
    if (fg_host_write(h, S(FG_SIMT_CHK_ADDR), a) || fg_host_write(h, S(FG_SIMT_CHK_COUNT), (uint32_t)n) ||
        wait_zero(h, S(FG_SIMT_CHK_COUNT), n + 1000, "check", a, n))
        return -1;
    return fg_host_read_burst(h, S(FG_SIMT_CHK_SUM), s, 2);
}

/* the image's every word on the board against the C model's memory, which
 * holds the board's outputs by now: a stray write anywhere (a table, a
 * lock left taken, another slot) shows.  The board's sums first (two words
 * instead of the image over the UART); the words themselves when asked, or
 * when the sums differ (to count and name the words that do) */
static int image_check(run *x, uint64_t end) {
    const size_t n = (size_t)(end - IMG_LO) / 4;
    uint32_t *want = malloc(n * 4), *got = NULL, s_want[2], s_got[2];
    int rc = 0;
    if (!want) rc = fg_host_fail(x->h, "out of memory");
    else if (gpu_mem_read(x->g, IMG_LO, want, n * 4)) rc = fg_host_fail(x->h, "C model: cannot read the image");
    if (!rc && !x->o->read_image) {
        fg_simt_sums(want, n, s_want);
        if (board_sums(x->h, IMG_LO, n, s_got)) rc = -1;
        else if (s_got[0] == s_want[0] && s_got[1] == s_want[1]) {
            free(want);
            return 0;
        } else if (x->o->progress)
            fprintf(x->o->progress, "run-events: the image's sums differ (board 0x%08x 0x%08x, C model 0x%08x "
                    "0x%08x): reading it back\n", s_got[0], s_got[1], s_want[0], s_want[1]);
    }
    x->r->image_read = 1;
    if (!rc && !(got = malloc(n * 4))) rc = fg_host_fail(x->h, "out of memory");
    if (!rc && mem_get(x->h, IMG_LO, got, n)) rc = -1;
    for (size_t i = 0; !rc && i < n; i++)
        if (got[i] != want[i]) {
            if (!x->r->image_mismatches && x->o->progress)
                fprintf(x->o->progress, "run-events: image word 0x%zx: board 0x%x, C model 0x%x\n", IMG_LO + 4 * i,
                        got[i], want[i]);
            x->r->image_mismatches++;
        }
    if (!rc && !x->o->read_image && !x->r->image_mismatches)
        rc = fg_host_fail(x->h, "run-events: the board's sums of the image differ from the C model's, but every "
                                "word read back is the C model's: the check engine or the link is wrong");
    free(got), free(want);
    return rc;
}

int fg_simt_run_events(fg_host *h, const fg_simt_opts *o, fg_simt_result *r) {
    memset(r, 0, sizeof *r);
    run x = {.h = h, .o = o, .r = r, .k = kind_find(o->kind)};
    if (!x.k) return fg_host_fail(h, "run-events: kind '%s': %s", o->kind, fg_simt_kinds());
    if (o->packets == 0 || o->slots == 0 || o->slots > 65535)
        return fg_host_fail(h, "run-events: --packets and --slots must be at least 1 (slots at most 65535)");
    /* writes get no reply: a read waits behind every byte queued before it
     * (an image's bursts: seconds at 115200 baud, more in a loaded simulator) */
    fg_host_set_timeout(h, o->reply_ms);
    x.reqs = x.k->ops->reqs_per_event;
    fg_rng_seed(&x.rng, o->seed);
    x.slot_n = calloc(o->slots, sizeof *x.slot_n);
    x.slot_ev = calloc(o->slots, sizeof *x.slot_ev);
    uint64_t bg_next = 0, bg_out = 0, bg_args = 0;
    gpu_kernel bk = {0};
    const unsigned nev = (o->packets + x.reqs - 1) / x.reqs;
    const double t0 = now_s();
    int rc = -1;
    if (!x.slot_n || !x.slot_ev) {
        fg_host_fail(h, "out of memory");
        goto out;
    }
    if (setup(&x, &bg_next, &bg_out, &bk, &bg_args)) goto out;
    x.c_out = calloc((size_t)o->slots * x.out_words, 4);
    if (!x.c_out) {
        fg_host_fail(h, "out of memory");
        goto out;
    }
    /* the first slots' inputs before the image goes over */
    const unsigned first = nev < o->slots ? nev : o->slots;
    for (unsigned k = 0; k < first; k++) {
        const unsigned n = k + 1 < nev ? x.reqs : o->packets - k * x.reqs;
        if (slot_fill(&x, k, n, 0)) goto out;
        x.slot_ev[k] = k;
    }
    /* the image, then the local windows and the save area above it */
    const uint64_t end = gpu_malloc(x.g, 256);
    const uint32_t local = (uint32_t)((end + 4095) & ~4095ull), save = local + 2 * x.nw * 32 * x.stack;
    if (!end || (uint64_t)save + x.nw * 4096ull > x.mem_bytes) {
        fg_host_fail(h, "run-events: image [0x%x, 0x%" PRIx64 ") + local windows + save area do not fit in %u bytes "
                        "(smaller tables by --set %s.KEY=VALUE, or fewer --slots)", IMG_LO, end, x.mem_bytes,
                     x.k->section);
        goto out;
    }
    r->image_bytes = end - IMG_LO;
    if (o->progress)
        fprintf(o->progress, "run-events: %s image [0x%x, 0x%" PRIx64 ") to the board, %u warp slots\n", o->kind,
                IMG_LO, end, x.nw);
    if (gpu_to_board(h, x.g, IMG_LO, (size_t)(end - IMG_LO))) goto out;
    const uint32_t cfg[6] = {local, save, 0xFFFFFFFFu, 1u | (o->policy & 3u) << 1 | (o->opts & 15u) << 4, 0,
                             x.k->ops->regs(x.w)};
    if (fg_host_write_burst(h, S(FG_SIMT_LOCAL_BASE), cfg, 6) ||
        fg_host_write(h, S(FG_SIMT_CTRL), FG_SIMT_CTRL_CLEAR))
        goto out;
    /* the event kernel in the EKT (EDGE Table I): one warp, the kind's
     * parameter entries (a launch of the slot's full warp, as the C model's) */
    const gpu_launch_desc d0 = x.k->ops->desc(x.w, 0, x.reqs, 3, 0);
    const fg_hw_kernel k = {.kernel_ptr = d0.kernel_ptr, .param_base = x.k->param(x.w, 0),
                            .param_size = (uint32_t)(x.k->param(x.w, 1) - x.k->param(x.w, 0)),
                            .param_end = x.k->param(x.w, o->slots - 1), /* the last entry's start */
                            .grid = {1, 1, 1}, .block = {d0.block[0], 1, 1}, .max_events = o->slots};
    fg_hw_rsp rsp;
    if (fg_hw_ekt_cmd(h, EKT_OP_REG, EV_ID, &k, &rsp)) goto out;
    if (rsp.status) {
        fg_host_fail(h, "EKT: registration refused (status %u)", rsp.status);
        goto out;
    }
    r->seconds_load = now_s() - t0;
    const double t1 = now_s();
    uint64_t c0, c1;
    if (fg_host_cycles(h, &c0)) goto out;
    /* the background, then the first doorbells back to back */
    if (o->bg_blocks) {
        const uint32_t bg[4] = {(uint32_t)bk.entry, (uint32_t)bg_args, o->bg_blocks, 32};
        if (fg_host_write_burst(h, S(FG_SIMT_BG_PC), bg, 4) || fg_host_write(h, S(FG_SIMT_CTRL), FG_SIMT_CTRL_LAUNCH))
            goto out;
    }
    for (; x.rung < first; x.rung++)
        if (fg_hw_ring(h, EV_ID)) goto out;
    /* the C model meanwhile: the background alone, then each event alone */
    if (o->bg_blocks) {
        const gpu_launch_desc bd = gpu_desc_1d(&bk, o->bg_blocks, 32, bg_args);
        if (c_run(&x, &bd)) goto out;
    }
    for (unsigned k = 0; k < first; k++)
        if (slot_c_model(&x, k)) goto out;
    /* completions; each frees its slot for the next event */
    while (x.done < nev) {
        if (now_s() - t1 > o->timeout_s) {
            fg_host_fail(h, "run-events: %u of %u events done after %u s", x.done, nev, o->timeout_s);
            goto out;
        }
        if (status_ok(h) || drain(&x)) goto out;
        /* event k takes parameter entry k % slots (the EKT's head): once its last event is checked */
        while (x.rung < nev && !x.slot_n[x.rung % o->slots]) {
            const unsigned slot = x.rung % o->slots;
            x.slot_ev[slot] = x.rung;
            const unsigned n = x.rung + 1 < nev ? x.reqs : o->packets - x.rung * x.reqs;
            if (slot_fill(&x, slot, n, 1) || slot_c_model(&x, slot) || fg_hw_ring(h, EV_ID)) goto out;
            x.rung++;
        }
    }
    /* the background's end and its every word */
    if (o->bg_blocks) {
        uint32_t done = 0;
        while (done < o->bg_blocks) {
            if (now_s() - t1 > o->timeout_s) {
                fg_host_fail(h, "run-events: %u of %u background warps done after %u s", done, o->bg_blocks,
                             o->timeout_s);
                goto out;
            }
            if (status_ok(h) || fg_host_read(h, S(FG_SIMT_BG_DONE), &done)) goto out;
        }
        const unsigned nwd = o->bg_blocks * 32;
        uint32_t *got = malloc(nwd * 4), *want = malloc(nwd * 4);
        if (!got || !want || mem_get(h, (uint32_t)bg_out, got, nwd) || gpu_mem_read(x.g, bg_out, want, nwd * 4)) {
            free(got), free(want);
            if (!fg_host_error(h)[0]) fg_host_fail(h, "out of memory");
            goto out;
        }
        for (unsigned i = 0; i < nwd; i++) r->bg_mismatches += got[i] != want[i];
        free(got), free(want);
        r->bg_warps = o->bg_blocks;
        r->bg_words = nwd;
    }
    uint32_t cnt[4];
    if (status_ok(h) || fg_host_cycles(h, &c1) || fg_host_read_burst(h, S(FG_SIMT_CNT_START_FREE), cnt, 4)) goto out;
    r->events = nev;
    r->start_free = cnt[0];
    r->start_pre = cnt[1];
    r->resumes = cnt[2];
    r->aborts = cnt[3];
    r->cycles = c1 - c0;
    r->seconds_run = now_s() - t1;
    /* the kind's shared state once idle (MemC's set locks), then every word */
    char err[256];
    if (x.k->ops->check_idle(x.w, x.g, err, sizeof err)) {
        if (o->progress && !r->ref_mismatches) fprintf(o->progress, "run-events: %s\n", err);
        r->ref_mismatches++;
    }
    if (image_check(&x, end)) goto out;
    r->image_words = (unsigned)((end - IMG_LO) / 4);
    rc = 0;
out:
    if (x.w) x.k->ops->free(x.w);
    if (x.g) gpu_free(x.g);
    fg_config_free(x.cfg);
    free(x.slot_n);
    free(x.slot_ev);
    free(x.c_out);
    return rc;
}

void fg_simt_print(FILE *f, const fg_simt_opts *o, const fg_simt_result *r) {
    const simt_kind *k = kind_find(o->kind);
    fprintf(f, "%s: %u events, %u %s, %u mismatches against the C model (%u output words), %u events unlike the "
               "host reference\n", o->kind, r->events, r->packets, k ? k->done : "requests", r->mismatches,
            r->out_words, r->ref_mismatches);
    fprintf(f, "events: launch (PEWT push) to exit %" PRIu64 " cycles mean, %" PRIu64 " least, %" PRIu64 " most\n",
            r->events ? r->cyc_sum / r->events : 0, r->cyc_min, r->cyc_max);
    fprintf(f, "preemptions: %u (events in a background warp's slot), %u in free slots, %u resumes, %u aborts\n",
            r->start_pre, r->start_free, r->resumes, r->aborts);
    if (r->bg_warps)
        fprintf(f, "background: %u warps (t_preempt), %u words, %u mismatches against the C model\n", r->bg_warps,
                r->bg_words, r->bg_mismatches);
    fprintf(f, "image: %u words, %u mismatches against the C model's memory (%s)\n", r->image_words,
            r->image_mismatches, r->image_read ? "read back" : "the board's sums");
    fprintf(f, "board: %" PRIu64 " cycles from the background's launch to the last check; image %" PRIu64 " bytes\n",
            r->cycles, r->image_bytes);
}
