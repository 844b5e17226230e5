/* The EDGE event kernels (IPv4 and IPv6 forwarding, MemC GET, IPSec 3DES;
 * sim/work/ev_work.h) on the RTL SIMT core (rtl/simt/simt_core.sv) in
 * retire lockstep with the C model's architecture (tb/simt/simt_lockstep.h),
 * in each verilated configuration (mk/simt_rtl.mk), every output word
 * checked against the host references of tests/test_event_kernels.c.
 *
 * A C-model gpu_t is the setup and checking vehicle only: the kind's ops
 * load the kernel ELF, build its tables and fill each event's inputs in its
 * global memory; that image goes into the test bench's memory (RTL and
 * reference alike; the core's global addresses are the kernel's), each
 * event runs as one warp (the ops' launch descriptor: entry, parameter
 * block, one 1-D block of its threads), and the RTL's memory comes back into
 * the gpu_t for the ops' check.  Per kind and configuration: events one at a
 * time on the plain memory (a full one, then a partial one where the kind
 * has several requests per event), then twice more events than warp slots
 * at once: with random memory latency and backpressure, and on the plain
 * memory.  On the default configuration each lone event also runs on the C
 * model (one core of the EDGE Table II GPU) for its cycles.  The "caught" tests show that a table
 * word changed in the RTL's memory alone stops the lockstep, and that a
 * wrong output byte fails the check.
 *
 * With EDGE (configurations edge, edge_odd: rtl/simt/simt_edge_core.sv), per
 * kind: BFS (sw/kernels/bg_bfs.c, Rodinia's two kernels per level, one
 * thread per node) runs in the background level by level, more warps than
 * slots, and SLOTS events of the kind are pushed into the PEWT during its
 * first levels: they start in free slots or preempt BFS warps, which resume
 * after them.  Every instruction of both is in lockstep, every event's
 * outputs are checked as above and the BFS costs against a host BFS.
 *
 * FG_SEED (default 1) repeats the inputs and the memory's randomness. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "fg_util.h"
#include "gpu_tb.h"
#include "simt/gpu.h"
#include "simt_lockstep.h"
#include "gen/edge_preempt_enc.h"
#include "simt_elf.h"
#include "work/bg_kernels.h"
#include "work/ev_work.h"
#include "work/ipsec_work.h"
#include "work/ipv4_work.h"
#include "work/ipv6_work.h"
#include "work/memc_work.h"

#define MEM_BYTES (64u << 20)
/* the gpu_t's global memory lies below the local memory (<= 8 slots * 32
 * threads * 1 KiB above it) */
#define LOCAL_BASE 0x03000000u
#define GPU_BYTES LOCAL_BASE
#define IMG_LO 0x1000u /* the core's global memory starts here */
#define SLOTS 16        /* parameter entries per kind: more than the core's warp slots */
#define CONC_EXTRA 4    /* concurrent events beyond the warp slots */
#define MAX_CYCLES 40000000u
#define NCONF 2
#define NKIND 4

static const char *const configs[NCONF] = {"default", "odd"};
static const char *const edge_configs[NCONF] = {"edge", "edge_odd"};
static simt_mem rtl_mem, ref_mem;
static uint64_t base_seed;

/* what one (kind, configuration) ran, for the report */
typedef struct {
    unsigned kind, conf;
    bool ran;
    unsigned alone, conc;
    uint64_t instrs, cycles, alone_cycles, conc_cycles[2], atomics, words, image_end;
    uint64_t cm_events, cm_cycles, cm_words; /* the C model, the lone events */
    unsigned max_lat, ready_pct;
} ecase;
static ecase cases[NKIND * NCONF];

typedef struct {
    const ev_work_ops *ops;
    gpu_t *g;
    void *w;
    uint64_t end; /* the gpu_t's image is [IMG_LO, end) */
    uint64_t first, done;
    unsigned completions;
} kenv;

static void on_first(void *u, uint64_t tag, uint64_t cyc) {
    (void)tag;
    ((kenv *)u)->first = cyc;
}
static void on_done(void *u, uint64_t tag, uint64_t cyc) {
    (void)tag;
    kenv *e = u;
    e->done = cyc;
    e->completions++;
}

static uint64_t words_checked(const kenv *e) {
    const char *n = e->ops->name;
    if (!strcmp(n, "ipv4")) return ((const ipv4_work *)e->w)->checked;
    if (!strcmp(n, "ipv6")) return ((const ipv6_work *)e->w)->checked;
    if (!strcmp(n, "memc")) return ((const memc_work *)e->w)->checked;
    return ((const ipsec_work *)e->w)->checked;
}

/* One core of the EDGE Table II GPU, its global memory no larger than fits
 * below LOCAL_BASE (no F/E region: the kinds run with plain rings). */
static void kenv_new(kenv *e, const ev_work_ops *ops) {
    char err[512];
    gpu_config c;
    gpu_config_default(&c);
    c.num_cores = 1;
    c.global_mem_bytes = GPU_BYTES;
    c.mem.fe_region_bytes = 0;
    memset(e, 0, sizeof *e);
    e->ops = ops;
    e->g = gpu_new(&c, err, sizeof err);
    if (!e->g) fail_msg("gpu_new: %s", err);
    gpu_callbacks cb = {on_first, on_done, e};
    gpu_set_callbacks(e->g, &cb);
    e->w = ops->init(e->g, NULL, tb_kernel_dir(), SLOTS, EV_RING_PLAIN, err, sizeof err);
    if (!e->w) fail_msg("%s: %s", ops->name, err);
    e->end = gpu_malloc(e->g, 256); /* above every allocation of the kind */
    if (!e->end) fail_msg("%s: the kind's memory does not fit in %u bytes", ops->name, GPU_BYTES);
}

static void kenv_free(kenv *e) {
    e->ops->free(e->w);
    gpu_free(e->g);
}

/* The gpu_t's image into both test-bench memories (its nonzero pages: the
 * rest is zero after the clear). */
static void image_to_tb(kenv *e) {
    static uint8_t page[SIMT_MEM_PAGE];
    static const uint8_t zero[SIMT_MEM_PAGE];
    simt_mem_clear(&rtl_mem);
    simt_mem_clear(&ref_mem);
    for (uint64_t a = IMG_LO; a < e->end; a += SIMT_MEM_PAGE) {
        const size_t n = e->end - a < SIMT_MEM_PAGE ? (size_t)(e->end - a) : SIMT_MEM_PAGE;
        if (gpu_mem_read(e->g, a, page, n)) fail_msg("%s: gpu_mem_read 0x%" PRIx64 " failed", e->ops->name, a);
        if (!memcmp(page, zero, n)) continue;
        simt_mem_write(&rtl_mem, a, page, n);
        simt_mem_write(&ref_mem, a, page, n);
    }
}

/* The RTL's memory back into the gpu_t: the pages loaded or written (any
 * other page of the image is zero in both). */
static void tb_to_image(kenv *e) {
    static uint8_t page[SIMT_MEM_PAGE];
    for (uint64_t a = IMG_LO; a < e->end; a += SIMT_MEM_PAGE) {
        if (!rtl_mem.dirty[a / SIMT_MEM_PAGE]) continue;
        const size_t n = e->end - a < SIMT_MEM_PAGE ? (size_t)(e->end - a) : SIMT_MEM_PAGE;
        simt_mem_read(&rtl_mem, a, page, n);
        if (gpu_mem_write(e->g, a, page, n)) fail_msg("%s: gpu_mem_write 0x%" PRIx64 " failed", e->ops->name, a);
    }
}

/* The ops' launch of an event as the core's warp launch. */
static simt_launch event_launch(const kenv *e, unsigned slot, unsigned n) {
    const gpu_launch_desc d = e->ops->desc(e->w, slot, n, 3, slot);
    if (d.grid[0] != 1 || d.grid[1] != 1 || d.grid[2] != 1 || d.block[0] < 1 || d.block[0] > 32 || d.block[1] != 1 ||
        d.block[2] != 1 || d.shmem || d.kernel_ptr >= 0xC0000000u || d.param_addr >= 0xC0000000u)
        fail_msg("%s: slot %u: not a warp-level event the core runs (grid %u, block %ux%ux%u, shmem %u)", e->ops->name,
                 slot, d.grid[0], d.block[0], d.block[1], d.block[2], d.shmem);
    simt_launch l = {.pc = (uint32_t)d.kernel_ptr,
                     .param = (uint32_t)d.param_addr,
                     .live = d.block[0] == 32 ? 0xFFFFFFFFu : (1u << d.block[0]) - 1};
    l.ntid[0] = d.block[0];
    l.ntid[1] = l.ntid[2] = 1;
    l.nctaid[0] = l.nctaid[1] = l.nctaid[2] = 1;
    return l;
}

static void fill(kenv *e, unsigned slot, unsigned n, fg_rng *rng) {
    char err[512];
    if (e->ops->fill(e->w, e->g, slot, n, rng, err, sizeof err)) fail_msg("%s: %s", e->ops->name, err);
}

/* Runs the launches in lockstep (the image already in the test bench);
 * 0, or -1 with the failure in err. */
static int lockstep(const char *config, const simt_launch *l, unsigned n, uint64_t mem_seed, unsigned max_lat,
                    unsigned ready_pct, simt_run_result *res, char *err, size_t errlen) {
    const simt_run_cfg c = {.config = config,
                            .local_base = LOCAL_BASE,
                            .mem_seed = mem_seed,
                            .max_lat = max_lat,
                            .ready_pct = ready_pct,
                            .max_cycles = MAX_CYCLES,
                            .launches = l,
                            .nlaunch = n};
    return simt_lockstep_run(&c, &rtl_mem, &ref_mem, res, err, errlen);
}

/* Every launch ended without a fault. */
static void expect_ended(const ecase *k, const kenv *e, const simt_run_result *res, const unsigned *slot, unsigned n) {
    for (unsigned i = 0; i < n; i++)
        if (!res->end[i].ended || res->end[i].faulted)
            fail_msg("%s [%s] FG_SEED=%" PRIu64 ": event in slot %u (launch %u) %s (code %u, pc 0x%08x)",
                     e->ops->name, configs[k->conf], base_seed, slot[i], i,
                     res->end[i].faulted ? "faulted" : "did not end", res->end[i].fault_code, res->end[i].fault_pc);
}

static void check_slot(const ecase *k, kenv *e, unsigned slot, unsigned n, const char *when) {
    char err[512];
    if (e->ops->check(e->w, e->g, slot, n, err, sizeof err))
        fail_msg("%s [%s] FG_SEED=%" PRIu64 ", %s, slot %u: %s", e->ops->name, configs[k->conf], base_seed, when, slot,
                 err);
}

/* The same event alone on the C model: its cycles from the first
 * instruction to completion (as tests/test_event_kernels.c counts them). */
static uint64_t cmodel_alone(const ecase *k, kenv *e, unsigned slot, unsigned n) {
    char err[512];
    const gpu_launch_desc d = e->ops->desc(e->w, slot, n, 3, slot);
    const unsigned c0 = e->completions;
    if (gpu_launch(e->g, &d, err, sizeof err)) fail_msg("%s: C model: %s", e->ops->name, err);
    for (uint64_t i = 0; e->completions == c0 || !gpu_idle(e->g); i++) {
        if (gpu_error(e->g)) fail_msg("%s: C model: %s", e->ops->name, gpu_error(e->g));
        if (i > 4000000) fail_msg("%s: C model: slot %u not finished after %" PRIu64 " cycles", e->ops->name, slot, i);
        gpu_tick(e->g);
    }
    check_slot(k, e, slot, n, "the C model alone");
    return e->done - e->first;
}

static void t_kind(void **state) {
    ecase *k = *state;
    const char *config = configs[k->conf];
    simt_rtl_params p;
    if (simt_rtl_config_params(config, &p)) fail_msg("no configuration %s", config);
    kenv e;
    kenv_new(&e, ev_work_kinds[k->kind]);
    const unsigned full = e.ops->reqs_per_event;
    uint64_t rs = base_seed * 0x9e3779b97f4a7c15ull + 17 * k->kind + 1;
    fg_rng rng;
    fg_rng_seed(&rng, simt_rng(&rs));
    char err[1024];
    simt_run_result *res = calloc(1, sizeof *res);

    /* events one at a time: a full one, a partial one */
    const unsigned sizes[2] = {full, full > 1 ? 5 : full};
    for (unsigned i = 0; i < 2; i++) {
        const unsigned slot = i, n = sizes[i];
        const fg_rng before = rng;
        fill(&e, slot, n, &rng);
        image_to_tb(&e);
        const simt_launch l = event_launch(&e, slot, n);
        if (lockstep(config, &l, 1, simt_rng(&rs), 1, 100, res, err, sizeof err))
            fail_msg("%s [%s] FG_SEED=%" PRIu64 ", event alone in slot %u: %s", e.ops->name, config, base_seed, slot,
                     err);
        expect_ended(k, &e, res, &slot, 1);
        tb_to_image(&e);
        check_slot(k, &e, slot, n, "alone on the RTL");
        k->alone++, k->instrs += res->instrs, k->cycles += res->cycles, k->alone_cycles += res->cycles;
        k->atomics += res->st.atomics;
        if (k->conf == 0) { /* the same inputs again, outputs poisoned again, on the C model */
            fg_rng again = before;
            const uint64_t w0 = words_checked(&e);
            fill(&e, slot, n, &again);
            k->cm_cycles += cmodel_alone(k, &e, slot, n);
            k->cm_events++;
            k->cm_words += words_checked(&e) - w0;
        }
    }

    /* more events than warp slots at once: on the random memory, then on
     * the plain one (the memory a replay uses) */
    const unsigned nc = p.nw + CONC_EXTRA;
    if (nc > SLOTS) fail_msg("%u concurrent events, %u slots", nc, SLOTS);
    k->max_lat = 2 + simt_rng_below(&rs, 10);
    k->ready_pct = 50 + simt_rng_below(&rs, 40);
    for (unsigned round = 0; round < 2; round++) {
        const unsigned lat = round ? 1 : k->max_lat, ready = round ? 100 : k->ready_pct, first = 2 + round * nc;
        simt_launch l[SLOTS];
        unsigned slot[SLOTS];
        for (unsigned i = 0; i < nc; i++) {
            slot[i] = (first + i) % SLOTS;
            fill(&e, slot[i], full, &rng);
        }
        image_to_tb(&e);
        for (unsigned i = 0; i < nc; i++) l[i] = event_launch(&e, slot[i], full);
        if (lockstep(config, l, nc, simt_rng(&rs), lat, ready, res, err, sizeof err))
            fail_msg("%s [%s] FG_SEED=%" PRIu64 ", %u events at once (launch i = slot (%u + i) %% %u), max_lat %u, "
                     "ready %u%%: %s", e.ops->name, config, base_seed, nc, first, SLOTS, lat, ready, err);
        expect_ended(k, &e, res, slot, nc);
        tb_to_image(&e);
        for (unsigned i = 0; i < nc; i++) check_slot(k, &e, slot[i], full, "at once on the RTL");
        if (e.ops->check_idle(e.w, e.g, err, sizeof err))
            fail_msg("%s [%s] FG_SEED=%" PRIu64 ": after the events at once: %s", e.ops->name, config, base_seed, err);
        if (res->max_warps != p.nw)
            fail_msg("%s [%s]: at most %u warps at once, want %u", e.ops->name, config, res->max_warps, p.nw);
        k->conc += nc, k->conc_cycles[round] = res->cycles;
        k->instrs += res->instrs, k->cycles += res->cycles, k->atomics += res->st.atomics;
    }
    k->words = words_checked(&e) - k->cm_words;
    k->image_end = e.end;
    k->ran = true;
    free(res);
    kenv_free(&e);
}

/* ------------------------------------------------------ with EDGE */

#define BFS_NODES 1024u
#define SAVE_BASE (LOCAL_BASE + 0x00100000u) /* above the 2 * NW local windows */
#define EV_PER_LEVEL 6u                      /* events pushed during each of the first levels */

typedef struct {
    uint32_t expand, update, args, cost, over;
    int32_t *ref; /* the host's costs */
} bfs_tb;

static uint32_t tb_alloc(uint32_t *top, uint32_t bytes) {
    const uint32_t a = *top;
    *top = (a + bytes + 63) & ~63u;
    if (*top > LOCAL_BASE) fail_msg("bfs: the test bench's memory below 0x%08x is full", LOCAL_BASE);
    return a;
}

/* BFS over a connected graph from node 0 into both memories above the
 * kind's image, and the host's costs (a plain queue BFS). */
static void bfs_setup(bfs_tb *b, const kenv *e, fg_rng *rng) {
    bg_bfs_node *nodes;
    int32_t *edges;
    size_t ne;
    if (bg_bfs_graph(rng, BFS_NODES, true, &nodes, &edges, &ne)) fail_msg("bfs: out of memory");
    uint32_t top = ((uint32_t)e->end + 0xfffu) & ~0xfffu;
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/bg_bfs.elf", tb_kernel_dir());
    simt_elf_image im;
    const uint32_t code = tb_alloc(&top, 0x10000);
    if (simt_elf_load(&rtl_mem, path, code, "bg_bfs_expand", &im, err, sizeof err) ||
        simt_elf_load(&ref_mem, path, code, "bg_bfs_expand", &im, err, sizeof err))
        fail_msg("%s", err);
    b->expand = im.entry;
    if (simt_elf_load(&rtl_mem, path, code, "bg_bfs_update", &im, err, sizeof err) ||
        simt_elf_load(&ref_mem, path, code, "bg_bfs_update", &im, err, sizeof err))
        fail_msg("%s", err);
    b->update = im.entry;
    if (im.end > top) fail_msg("bfs: the ELF is larger than 64 KiB");
    bg_bfs_args a = {.n = BFS_NODES};
    a.nodes = tb_alloc(&top, BFS_NODES * sizeof *nodes);
    a.edges = tb_alloc(&top, (uint32_t)ne * 4);
    a.mask = tb_alloc(&top, BFS_NODES);
    a.updating = tb_alloc(&top, BFS_NODES);
    a.visited = tb_alloc(&top, BFS_NODES);
    a.cost = b->cost = tb_alloc(&top, BFS_NODES * 4);
    a.over = b->over = tb_alloc(&top, 4);
    b->args = tb_alloc(&top, sizeof a);
    simt_mem_write(&rtl_mem, a.nodes, nodes, BFS_NODES * sizeof *nodes);
    simt_mem_write(&ref_mem, a.nodes, nodes, BFS_NODES * sizeof *nodes);
    simt_mem_write(&rtl_mem, a.edges, edges, ne * 4);
    simt_mem_write(&ref_mem, a.edges, edges, ne * 4);
    b->ref = malloc(BFS_NODES * sizeof *b->ref);
    int32_t *q = malloc(BFS_NODES * sizeof *q);
    for (unsigned i = 0; i < BFS_NODES; i++) {
        const int32_t c = i ? -1 : 0;
        simt_mem_wr32(&rtl_mem, a.cost + 4 * i, (uint32_t)c);
        simt_mem_wr32(&ref_mem, a.cost + 4 * i, (uint32_t)c);
        b->ref[i] = c;
    }
    const uint8_t one = 1;
    simt_mem_write(&rtl_mem, a.mask, &one, 1); /* node 0: the frontier, visited */
    simt_mem_write(&ref_mem, a.mask, &one, 1);
    simt_mem_write(&rtl_mem, a.visited, &one, 1);
    simt_mem_write(&ref_mem, a.visited, &one, 1);
    simt_mem_write(&rtl_mem, b->args, &a, sizeof a);
    simt_mem_write(&ref_mem, b->args, &a, sizeof a);
    unsigned qh = 0, qt = 0;
    q[qt++] = 0;
    while (qh < qt) {
        const int32_t u = q[qh++];
        for (int32_t j = nodes[u].starting; j < nodes[u].starting + nodes[u].no_of_edges; j++)
            if (b->ref[edges[j]] < 0) {
                b->ref[edges[j]] = b->ref[u] + 1;
                q[qt++] = edges[j];
            }
    }
    free(q);
    free(nodes);
    free(edges);
}

/* the warps of one BFS kernel: blocks of BG_BFS_THREADS threads, each warp
 * a launch of its own (no barriers in either kernel) */
static unsigned bfs_launches(const bfs_tb *b, uint32_t pc, simt_launch *l) {
    const unsigned nw = BFS_NODES / 32, wpb = BG_BFS_THREADS / 32;
    for (unsigned w = 0; w < nw; w++) {
        l[w] = (simt_launch){.pc = pc, .param = b->args, .live = 0xffffffffu, .wib = w % wpb};
        l[w].ctaid[0] = w / wpb;
        l[w].ntid[0] = BG_BFS_THREADS;
        l[w].ntid[1] = l[w].ntid[2] = 1;
        l[w].nctaid[0] = (BFS_NODES + BG_BFS_THREADS - 1) / BG_BFS_THREADS;
        l[w].nctaid[1] = l[w].nctaid[2] = 1;
    }
    return nw;
}

typedef struct {
    unsigned kind, conf;
    bool ran;
    unsigned levels, events;
    uint64_t start_free, start_pre, cycles, instrs, ev_lat_sum, ev_lat_max;
} edge_case;
static edge_case edge_cases[NKIND * NCONF];

static void t_edge(void **state) {
    edge_case *k = *state;
    const char *config = edge_configs[k->conf];
    kenv e;
    kenv_new(&e, ev_work_kinds[k->kind]);
    const unsigned full = e.ops->reqs_per_event;
    uint64_t rs = base_seed * 0x9e3779b97f4a7c15ull + 31 * k->kind + 7 + 1000 * k->conf;
    fg_rng rng;
    fg_rng_seed(&rng, simt_rng(&rs));
    for (unsigned i = 0; i < SLOTS; i++) fill(&e, i, full, &rng);
    image_to_tb(&e);
    bfs_tb b;
    bfs_setup(&b, &e, &rng);
    const simt_edge_cfg g = {.save_base = SAVE_BASE, .save_mask = 0xfffffffeu, .en = 1, .policy = PRE_POL_OLDEST,
                             .opt = PRE_OPT_BOOST | PRE_OPT_IBUF,
                             .save_cycles_base = 0, .save_cycles_per_reg = 0};
    simt_launch l[BFS_NODES / 32];
    simt_event ev[EV_PER_LEVEL];
    simt_run_result *res = calloc(1, sizeof *res);
    char err[1024];
    unsigned pushed = 0;
    for (unsigned level = 0;; level++) {
        if (level > BFS_NODES) fail_msg("bfs: no end after %u levels", level);
        for (unsigned kk = 0; kk < 2; kk++) {
            const uint32_t zero = 0;
            if (!kk) {
                simt_mem_write(&rtl_mem, b.over, &zero, 4);
                simt_mem_write(&ref_mem, b.over, &zero, 4);
            }
            const unsigned nl = bfs_launches(&b, kk ? b.update : b.expand, l);
            /* events during the expand kernels of the first levels */
            unsigned nev = 0;
            if (!kk)
                for (; nev < EV_PER_LEVEL && pushed < SLOTS; nev++, pushed++) {
                    const simt_launch el = event_launch(&e, pushed, full);
                    ev[nev] = (simt_event){.pc = el.pc, .param = el.param, .tag = pushed, .threads = el.ntid[0],
                                           .regs = 32, .at = 200 + simt_rng_below(&rs, 3000)};
                }
            for (unsigned i = 1; i < nev; i++) /* pushed in order of their cycles */
                for (unsigned j = i; j > 0 && ev[j].at < ev[j - 1].at; j--) {
                    const simt_event t = ev[j];
                    ev[j] = ev[j - 1];
                    ev[j - 1] = t;
                }
            const simt_run_cfg c = {.config = config, .local_base = LOCAL_BASE, .mem_seed = simt_rng(&rs),
                                    .max_lat = 1 + simt_rng_below(&rs, 8), .ready_pct = 60 + simt_rng_below(&rs, 41),
                                    .max_cycles = MAX_CYCLES, .launches = l, .nlaunch = nl, .events = ev,
                                    .nevent = nev, .edge = g};
            if (simt_lockstep_run(&c, &rtl_mem, &ref_mem, res, err, sizeof err))
                fail_msg("%s [%s] FG_SEED=%" PRIu64 ", BFS level %u %s with %u events: %s", e.ops->name, config,
                         base_seed, level, kk ? "update" : "expand", nev, err);
            for (unsigned i = 0; i < nl + nev; i++)
                if (!res->end[i].ended || res->end[i].faulted)
                    fail_msg("%s [%s]: BFS level %u: %s %u faulted (code %u, pc 0x%08x)", e.ops->name, config, level,
                             i < nl ? "warp" : "event", i < nl ? i : i - nl, res->end[i].fault_code,
                             res->end[i].fault_pc);
            k->start_free += res->start_free, k->start_pre += res->start_pre;
            k->cycles += res->cycles, k->instrs += res->instrs, k->events += nev;
            for (unsigned i = 0; i < nev; i++) {
                const uint64_t lat = res->ev_end[i] - res->ev_push[i];
                k->ev_lat_sum += lat;
                if (lat > k->ev_lat_max) k->ev_lat_max = lat;
            }
        }
        k->levels = level + 1;
        if (!simt_mem_rd32(&rtl_mem, b.over)) break;
    }
    if (pushed < SLOTS) fail_msg("%s [%s]: BFS ended after %u levels, before all %u events were pushed", e.ops->name,
                                 config, k->levels, SLOTS);
    if (!k->start_pre) fail_msg("%s [%s]: no event preempted a BFS warp", e.ops->name, config);
    for (unsigned i = 0; i < BFS_NODES; i++)
        if ((int32_t)simt_mem_rd32(&rtl_mem, b.cost + 4 * i) != b.ref[i])
            fail_msg("%s [%s]: BFS cost of node %u: %d, the host's %d", e.ops->name, config, i,
                     (int32_t)simt_mem_rd32(&rtl_mem, b.cost + 4 * i), b.ref[i]);
    tb_to_image(&e);
    for (unsigned i = 0; i < SLOTS; i++) check_slot(&(ecase){.kind = k->kind, .conf = k->conf}, &e, i, full,
                                                    "pushed into the PEWT beside BFS");
    k->ran = true;
    free(b.ref);
    free(res);
    kenv_free(&e);
}

/* A routing-table word that an IPv4 event reads, changed in the RTL's
 * memory only: the lockstep must stop at the load that reads it. */
static void t_caught_table(void **state) {
    (void)state;
    kenv e;
    kenv_new(&e, &ev_ipv4_ops);
    ipv4_work *w = e.w;
    fg_rng rng;
    fg_rng_seed(&rng, base_seed);
    const unsigned n = e.ops->reqs_per_event;
    fill(&e, 0, n, &rng);
    image_to_tb(&e);
    ev_io io;
    char err[1024];
    if (ipv4_work_io(w, 0, n, &io, err, sizeof err)) fail_msg("%s", err);
    unsigned i = 0; /* a packet that reaches the table (TTL > 1) */
    uint8_t ttl = 0, d[4];
    for (; i < n; i++) {
        simt_mem_read(&rtl_mem, io.in[0].addr + (uint64_t)i * IPV4_PKT_BYTES + 8, &ttl, 1);
        if (ttl > 1) break;
    }
    if (i == n) fail_msg("ipv4: no packet of the event reaches the table");
    simt_mem_read(&rtl_mem, io.in[0].addr + (uint64_t)i * IPV4_PKT_BYTES + 16, d, 4);
    const uint64_t a = w->l1 + 4ull * (((uint32_t)d[0] << 8) | d[1]);
    simt_mem_wr32(&rtl_mem, a, simt_mem_rd32(&rtl_mem, a) ^ 0x5u);
    simt_run_result *res = calloc(1, sizeof *res);
    const simt_launch l = event_launch(&e, 0, n);
    if (!lockstep("default", &l, 1, 1, 1, 100, res, err, sizeof err))
        fail_msg("ipv4: the table word at 0x%" PRIx64 " changed in the RTL's memory alone was not caught", a);
    if (!strstr(err, "simt lockstep: first difference at cycle"))
        fail_msg("ipv4: expected the lockstep's first difference, got: %s", err);
    printf("# caught: table word 0x%" PRIx64 " changed in the RTL's memory: %s\n", a, err);
    free(res);
    kenv_free(&e);
}

/* An output byte flipped after a correct run: the ops' check must fail. */
static void t_caught_output(void **state) {
    (void)state;
    kenv e;
    kenv_new(&e, &ev_ipsec_ops);
    fg_rng rng;
    fg_rng_seed(&rng, base_seed);
    fill(&e, 0, 1, &rng);
    image_to_tb(&e);
    ev_io io;
    char err[1024];
    if (ipsec_work_io(e.w, 0, 1, &io, err, sizeof err)) fail_msg("%s", err);
    simt_run_result *res = calloc(1, sizeof *res);
    const simt_launch l = event_launch(&e, 0, 1);
    if (lockstep("default", &l, 1, 1, 1, 100, res, err, sizeof err)) fail_msg("ipsec: %s", err);
    const uint64_t a = io.out[0].addr + io.out[0].len / 2;
    uint8_t b;
    simt_mem_read(&rtl_mem, a, &b, 1);
    b ^= 0x10;
    simt_mem_write(&rtl_mem, a, &b, 1);
    tb_to_image(&e);
    if (!e.ops->check(e.w, e.g, 0, 1, err, sizeof err))
        fail_msg("ipsec: the output byte at 0x%" PRIx64 " flipped was not caught", a);
    printf("# caught: output byte 0x%" PRIx64 " flipped: %s\n", a, err);
    free(res);
    kenv_free(&e);
}

int main(void) {
    static char names[2 * NKIND * NCONF + 2][64];
    static struct CMUnitTest tests[2 * NKIND * NCONF + 2];
    if (simt_mem_init(&rtl_mem, MEM_BYTES) || simt_mem_init(&ref_mem, MEM_BYTES)) {
        fprintf(stderr, "test_simt_rtl_events: out of memory\n");
        return 1;
    }
    base_seed = fg_env_u64("FG_SEED", 1);
    printf("# FG_SEED=%" PRIu64 "; RTL initial state: FG_XSEED=%" PRIu64 "\n", base_seed, simt_rtl_xseed());
    unsigned n = 0;
    for (unsigned c = 0; c < NCONF; c++)
        for (unsigned k = 0; k < NKIND && ev_work_kinds[k]; k++, n++) {
            cases[n] = (ecase){.kind = k, .conf = c};
            snprintf(names[n], sizeof names[n], "%s %s", configs[c], ev_work_kinds[k]->name);
            tests[n] = (struct CMUnitTest){names[n], t_kind, NULL, NULL, &cases[n]};
        }
    const unsigned nk = n;
    unsigned ne = 0;
    for (unsigned c = 0; c < NCONF; c++)
        for (unsigned k = 0; k < NKIND && ev_work_kinds[k]; k++, n++, ne++) {
            edge_cases[ne] = (edge_case){.kind = k, .conf = c};
            snprintf(names[n], sizeof names[n], "%s %s beside bfs", edge_configs[c], ev_work_kinds[k]->name);
            tests[n] = (struct CMUnitTest){names[n], t_edge, NULL, NULL, &edge_cases[ne]};
        }
    tests[n++] = (struct CMUnitTest){"caught table", t_caught_table, NULL, NULL, NULL};
    tests[n++] = (struct CMUnitTest){"caught output", t_caught_output, NULL, NULL, NULL};
    const double t0 = fg_now(FG_CLOCK_WALL);
    const int rc = _cmocka_run_group_tests("simt_rtl_events", tests, n, NULL, NULL);
    for (unsigned i = 0; i < nk; i++) {
        const ecase *k = &cases[i];
        if (!k->ran) continue;
        simt_rtl_params p;
        simt_rtl_config_params(configs[k->conf], &p);
        printf("# report: simt_core %s (NW=%u NL=%u GTO=%u) %s: %u events (%u alone: %" PRIu64 " cycles; %u at once, "
               "%u warps at a time, on the random memory (max_lat %u, ready %u%%): %" PRIu64 " cycles, on the plain "
               "one: %" PRIu64 " cycles), %" PRIu64 " warp instructions (%" PRIu64 " atomic), %" PRIu64 " RTL cycles, %"
               PRIu64 " output words checked, image [0x1000, 0x%" PRIx64 ")",
               configs[k->conf], p.nw, p.nl, p.gto, ev_work_kinds[k->kind]->name, k->alone + k->conc, k->alone,
               k->alone_cycles, k->conc, p.nw, k->max_lat, k->ready_pct, k->conc_cycles[0], k->conc_cycles[1],
               k->instrs, k->atomics, k->cycles, k->words, k->image_end);
        if (k->cm_events)
            printf("; C model, the %" PRIu64 " lone events: %" PRIu64 " cycles", k->cm_events, k->cm_cycles);
        printf("\n");
    }
    for (unsigned i = 0; i < ne; i++) {
        const edge_case *k = &edge_cases[i];
        if (!k->ran) continue;
        simt_rtl_params p;
        simt_rtl_config_params(edge_configs[k->conf], &p);
        printf("# report: simt_edge_core %s (NW=%u NL=%u GTO=%u) %s beside BFS (%u nodes, %u levels): %u events (%"
               PRIu64 " in free slots, %" PRIu64 " preempting a BFS warp), push to event end %.0f cycles mean, %"
               PRIu64 " most; %" PRIu64 " warp instructions in %" PRIu64 " cycles\n",
               edge_configs[k->conf], p.nw, p.nl, p.gto, ev_work_kinds[k->kind]->name, BFS_NODES, k->levels,
               k->events, k->start_free, k->start_pre, k->events ? (double)k->ev_lat_sum / k->events : 0.0,
               k->ev_lat_max, k->instrs, k->cycles);
    }
    printf("# report: test_simt_rtl_events: %.1f s\n", fg_now(FG_CLOCK_WALL) - t0);
    simt_mem_free(&rtl_mem);
    simt_mem_free(&ref_mem);
    return rc;
}
