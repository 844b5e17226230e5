/* gpu: top of the SIMT model — configuration ([gpu] of configs/NAME.ini),
 * global memory and the memory system over it (sim/mem/: one port per core,
 * the host port last), the host DMA engine, kernel management unit (pending
 * launches by priority, at most max_kernels running), thread-block
 * scheduler (one block per core per cycle, round robin over the cores,
 * honouring each core's limits on blocks, threads, registers and shared
 * memory), the SIMT core scheduler for warp-level events, callbacks. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/gpu_state.h"
#include "simt/simt_abi.h"
#include "fg_pool.h"
#include "fg_wave.h"
#include "edge_preempt.h"

/* core i (the cores are opaque here: simt_core.h) */
static inline simt_core *core_at(const gpu_t *g, unsigned i) { return simt_core_nth(g->core, i); }

#define DC_ENTRIES 16384u

void gpu_config_default(gpu_config *c) {
    memset(c, 0, sizeof *c);
    c->num_cores = 16;             /* EDGE Table II */
    c->clock_mhz = 700;
    c->warp_size = 32;
    c->max_blocks_per_core = 16;
    c->max_threads_per_core = 2048;
    c->regs_per_core = 65536;
    c->shmem_per_core = 48 * 1024;
    c->l1_bytes = 64 * 1024;
    c->l2_bytes = 1024 * 1024;
    c->global_mem_bytes = 256ull << 20;
    c->schedulers_per_core = 2;
    c->ibuf_depth = 2;
    c->line_bytes = 128;
    c->icache_bytes = 16 * 1024;
    c->icache_assoc = 4;
    c->icache_mshrs = 4;
    c->port_queue = 8;
    c->port_rsp_per_cycle = 1;
    c->port_tags = 128;
    c->dma_queue = 16;
    c->dma_chans = 8;
    c->dma_read_window = 32;
    c->fe_retry_max = 4;
    c->fe_retry_backoff = 256;
    c->l1_assoc = 4;
    c->l1_mshrs = 32;
    c->l1_hit_latency = 20;
    c->shmem_latency = 24;
    c->max_inflight_loads = 8;
    c->stack_bytes = 1024;
    c->max_kernels = 32;
    /* GPGPU-Sim GTX480-like latencies / initiation intervals */
    static const unsigned units[6] = {2, 2, 1, 2, 1, 1};
    static const unsigned lat[6] = {4, 4, 145, 4, 39, 1};
    static const unsigned ii[6] = {1, 2, 8, 1, 4, 1};
    memcpy(c->units, units, sizeof units);
    memcpy(c->lat, lat, sizeof lat);
    memcpy(c->ii, ii, sizeof ii);
    /* EDGE warp-level events / preemption (EDGE IV-C..E) */
    c->pre.warp_events = true;
    c->pre.impl = FG_IMPL_C;
    c->pre.pewt_entries = 4;
    c->pre.set_max = 1;
    c->pre.enable = true;
    c->pre.policy = PRE_POL_OLDEST;
    c->pre.opts = PRE_OPT_ALL;
    c->pre.save_base = 20;  /* stores are posted: LDST pipeline latency (= L1 hit latency) */
    c->pre.save_per_reg = 1; /* one 128 B line (a register of 32 lanes) per cycle */
    c->pre.idle_skip = true;
    /* dynamic reservation, off; sized for a PEWT's 4 events a core, a
     * period shorter than one event (~1000 cycles at EDGE Fig. 13's rates) */
    c->pre.reserve_period = 1000;
    c->pre.reserve_per_core = 4;
    c->pre.reserve_ewma_shift = 2;
    mem_config_default(&c->mem);
    c->mem.core_mhz = c->clock_mhz;
}

const char *const gpu_drain_names[] = {"gpu", "core", NULL};
const char *const gpu_place_names[] = {"cost", "issue_rr", NULL};
const char *const gpu_drop_names[] = {"exact", "pipe", NULL};
const char *const gpu_atomics_names[] = {"issue", "memory", NULL};

static const struct { const char *key; unsigned bit; } OPTS[] = {
    {"opt_boost", PRE_OPT_BOOST}, {"opt_ibuf", PRE_OPT_IBUF}, {"opt_barskip", PRE_OPT_BARSKIP}, {"opt_drop", PRE_OPT_DROP}};

/* [preempt] section: warp-level events, PEWT and preemption controller */
static int pre_config_load(gpu_config *c, fg_config *cfg, char *err, size_t errlen) {
    bool b = c->pre.warp_events;
    if (fg_config_bool(cfg, "preempt", "warp_events", &b, err, errlen)) return -1;
    c->pre.warp_events = b;
    b = c->pre.enable;
    if (fg_config_bool(cfg, "preempt", "enable", &b, err, errlen)) return -1;
    c->pre.enable = b;
    b = c->pre.idle_skip;
    if (fg_config_bool(cfg, "preempt", "idle_skip", &b, err, errlen)) return -1;
    c->pre.idle_skip = b;
    for (unsigned i = 0; i < 4; i++) {
        b = c->pre.opts & OPTS[i].bit;
        if (fg_config_bool(cfg, "preempt", OPTS[i].key, &b, err, errlen)) return -1;
        c->pre.opts = b ? c->pre.opts | OPTS[i].bit : c->pre.opts & ~OPTS[i].bit;
    }
    if (fg_config_enum(cfg, "preempt", "policy", edge_preempt_policy_names, &c->pre.policy, err, errlen)) return -1;
    unsigned im = (unsigned)c->pre.impl;
    if (fg_config_enum(cfg, "preempt", "impl", fg_impl_names, &im, err, errlen)) return -1;
    c->pre.impl = (fg_impl)im;
    uint64_t v = c->pre.pewt_entries;
    if (fg_config_u64(cfg, "preempt", "pewt_entries", 1, 64, &v, err, errlen)) return -1;
    c->pre.pewt_entries = (unsigned)v;
    v = c->pre.save_base;
    if (fg_config_u64(cfg, "preempt", "save_base_cycles", 0, 65535, &v, err, errlen)) return -1;
    c->pre.save_base = (unsigned)v;
    v = c->pre.save_per_reg;
    if (fg_config_u64(cfg, "preempt", "save_cycles_per_reg", 0, 255, &v, err, errlen)) return -1;
    c->pre.save_per_reg = (unsigned)v;
    b = c->pre.skip_exec;
    if (fg_config_bool(cfg, "preempt", "skip_exec", &b, err, errlen)) return -1;
    c->pre.skip_exec = b;
    b = c->pre.extra_regs;
    if (fg_config_bool(cfg, "preempt", "extra_regs", &b, err, errlen)) return -1;
    c->pre.extra_regs = b;
    v = c->pre.reserve_cores;
    if (fg_config_u64(cfg, "preempt", "reserve_cores", 0, 1023, &v, err, errlen)) return -1;
    c->pre.reserve_cores = (unsigned)v;
    b = c->pre.reserve_dynamic;
    if (fg_config_bool(cfg, "preempt", "reserve_dynamic", &b, err, errlen)) return -1;
    c->pre.reserve_dynamic = b;
    static const struct { const char *key; size_t off; uint64_t min, max; } RK[] = {
        {"reserve_min", offsetof(gpu_config, pre.reserve_min), 0, 1023},
        {"reserve_period", offsetof(gpu_config, pre.reserve_period), 1, 1u << 24},
        {"reserve_per_core", offsetof(gpu_config, pre.reserve_per_core), 1, 4096},
        {"reserve_ewma_shift", offsetof(gpu_config, pre.reserve_ewma_shift), 0, 16},
        {"event_reg_reserve", offsetof(gpu_config, pre.event_reg_reserve), 0, 1u << 24},
        {"set_max", offsetof(gpu_config, pre.set_max), 1, 4}};
    for (size_t i = 0; i < sizeof RK / sizeof RK[0]; i++) {
        unsigned *f = (unsigned *)((char *)c + RK[i].off);
        v = *f;
        if (fg_config_u64(cfg, "preempt", RK[i].key, RK[i].min, RK[i].max, &v, err, errlen)) return -1;
        *f = (unsigned)v;
    }
    if (fg_config_enum(cfg, "preempt", "drain", gpu_drain_names, &c->pre.drain, err, errlen)) return -1;
    if (fg_config_enum(cfg, "preempt", "reserve_place", gpu_place_names, &c->pre.reserve_place, err, errlen)) return -1;
    if (fg_config_enum(cfg, "preempt", "drop_rule", gpu_drop_names, &c->pre.drop_rule, err, errlen)) return -1;
    b = c->pre.event_fetch_priority;
    if (fg_config_bool(cfg, "preempt", "event_fetch_priority", &b, err, errlen)) return -1;
    c->pre.event_fetch_priority = b;
    return 0;
}

#define U(field, min, max) {#field, offsetof(gpu_config, field), min, max}
static const struct { const char *key; size_t off; uint64_t min, max; } UKEYS[] = {
    U(num_cores, 1, 1024), U(warp_size, 32, 32), U(max_blocks_per_core, 1, 64),
    U(max_threads_per_core, 32, 4096), U(regs_per_core, 1, 1u << 24), U(shmem_per_core, 0, 1u << 24),
    U(l1_bytes, 128, 1u << 24), U(l2_bytes, 0, 1u << 30),
    U(schedulers_per_core, 1, SIMT_MAX_UNITS), U(ibuf_depth, 1, 64), U(line_bytes, 16, 4096),
    U(icache_bytes, 16, 1u << 24), U(icache_assoc, 1, 64), U(l1_assoc, 1, 64), U(l1_mshrs, 1, 1024),
    U(l1_hit_latency, 1, 10000), U(shmem_latency, 1, 10000), U(max_inflight_loads, 1, SIMT_MAX_LD),
    U(stack_bytes, 16, 1u << 16), U(max_kernels, 1, 64), U(icache_mshrs, 1, 64), U(port_queue, 1, 256),
    U(port_rsp_per_cycle, 1, 64), U(port_tags, 1, 65535), U(dma_queue, 1, 1024), U(dma_chans, 1, 64),
    U(dma_read_window, 1, 4096), U(fe_retry_max, 0, 255), U(fe_retry_backoff, 1, 1u << 20), U(threads, 0, 256),
};
static const char *const CLS[6] = {"alu", "mul", "div", "fpu", "sfu", "ldst"};

int gpu_config_load(gpu_config *c, fg_config *cfg, char *err, size_t errlen) {
    for (size_t i = 0; i < sizeof UKEYS / sizeof UKEYS[0]; i++) {
        unsigned *f = (unsigned *)((char *)c + UKEYS[i].off);
        uint64_t v = *f;
        /* cache sizes: a size that is not a power of two is refused, never rounded */
        bool p2 = !strcmp(UKEYS[i].key, "l1_bytes") || !strcmp(UKEYS[i].key, "icache_bytes") ||
                  !strcmp(UKEYS[i].key, "line_bytes");
        if ((p2 ? fg_config_pow2 : fg_config_u64)(cfg, "gpu", UKEYS[i].key, UKEYS[i].min, UKEYS[i].max, &v, err,
                                                  errlen))
            return -1;
        *f = (unsigned)v;
    }
    uint64_t gm = c->global_mem_bytes;
    if (fg_config_u64(cfg, "gpu", "global_mem_bytes", 1u << 16, FG_SHARED_BASE, &gm, err, errlen)) return -1;
    c->global_mem_bytes = gm;
    if (fg_config_double(cfg, "gpu", "clock_mhz", 1, 100000, &c->clock_mhz, err, errlen)) return -1;
    for (unsigned k = 0; k < 6; k++) {
        char key[32];
        uint64_t v;
        snprintf(key, sizeof key, "units_%s", CLS[k]);
        v = c->units[k];
        if (fg_config_u64(cfg, "gpu", key, 1, SIMT_MAX_UNITS, &v, err, errlen)) return -1;
        c->units[k] = (unsigned)v;
        snprintf(key, sizeof key, "lat_%s", CLS[k]);
        v = c->lat[k];
        if (fg_config_u64(cfg, "gpu", key, 1, 10000, &v, err, errlen)) return -1;
        c->lat[k] = (unsigned)v;
        snprintf(key, sizeof key, "ii_%s", CLS[k]);
        v = c->ii[k];
        if (fg_config_u64(cfg, "gpu", key, 1, 10000, &v, err, errlen)) return -1;
        c->ii[k] = (unsigned)v;
    }
    static const char *const sched_names[] = {"gto", "lrr", NULL};
    if (fg_config_enum(cfg, "gpu", "warp_scheduler", sched_names, &c->warp_scheduler, err, errlen)) return -1;
    if (fg_config_enum(cfg, "gpu", "atomics", gpu_atomics_names, &c->atomics, err, errlen)) return -1;
    bool ked = c->kernel_end_drain;
    if (fg_config_bool(cfg, "gpu", "kernel_end_drain", &ked, err, errlen)) return -1;
    c->kernel_end_drain = ked;
    if (pre_config_load(c, cfg, err, errlen)) return -1;
    c->mem.core_mhz = c->clock_mhz; /* the memory system ticks at the core clock */
    return mem_config_load(&c->mem, cfg, err, errlen);
}

static int check_config(const gpu_config *c, char *err, size_t errlen) {
    const char *why = NULL;
    if (c->warp_size != 32) why = "warp_size must be 32";
    else if (c->max_threads_per_core % 32) why = "max_threads_per_core must be a multiple of 32";
    else if (c->line_bytes & (c->line_bytes - 1)) why = "line_bytes must be a power of two";
    else if (c->stack_bytes % 16) why = "stack_bytes must be a multiple of 16";
    else if (c->l1_bytes % (c->line_bytes * c->l1_assoc) || c->icache_bytes % (c->line_bytes * c->icache_assoc))
        why = "l1_bytes and icache_bytes must be whole sets (a multiple of line_bytes x their assoc)";
    else if (c->global_mem_bytes < (1u << 16) || c->global_mem_bytes > FG_SHARED_BASE)
        why = "global_mem_bytes must be in [64 KiB, 3 GiB]";
    else if (c->max_inflight_loads < 1 || c->max_inflight_loads > SIMT_MAX_LD) why = "max_inflight_loads must be 1..16";
    else if (c->schedulers_per_core < 1 || c->schedulers_per_core > SIMT_MAX_UNITS) why = "schedulers_per_core must be 1..8";
    else if (c->num_cores < 1 || c->ibuf_depth < 1 || c->l1_mshrs < 1) why = "num_cores, ibuf_depth, l1_mshrs must be >= 1";
    else if (c->line_bytes != c->mem.line_bytes) why = "line_bytes must equal [mem] line_bytes (an L1 line is one request)";
    else if (c->line_bytes > MEM_LINE_MAX) why = "line_bytes must be at most 128 (MEM_LINE_MAX)";
    else if (!c->icache_mshrs || !c->port_queue || !c->port_rsp_per_cycle || !c->port_tags || !c->dma_queue ||
             !c->dma_chans || !c->dma_read_window || !c->fe_retry_backoff)
        why = "icache_mshrs, port_queue, port_rsp_per_cycle, port_tags, dma_queue, dma_chans, dma_read_window, "
              "fe_retry_backoff must be >= 1";
    else if (c->fe_retry_max > 255) why = "fe_retry_max must be 0..255";
    else if (c->global_mem_bytes % c->line_bytes) why = "global_mem_bytes must be whole lines";
    else if (c->pre.warp_events && c->max_threads_per_core / 32 > 64)
        why = "warp-level events support at most 64 warp slots per core (max_threads_per_core <= 2048)";
    else if (c->pre.pewt_entries < 1 || c->pre.pewt_entries > 64) why = "[preempt] pewt_entries must be 1..64";
    else if (c->extra_ports > 1024) why = "extra_ports must be at most 1024";
    else if (c->pre.policy > PRE_POL_CHEAPEST) why = "[preempt] policy must be oldest, newest or cheapest";
    else if (c->pre.reserve_cores >= c->num_cores) why = "[preempt] reserve_cores must leave a core for the background";
    else if (c->pre.reserve_dynamic && !c->pre.reserve_cores)
        why = "[preempt] reserve_dynamic needs reserve_cores >= 1 (the most cores it may reserve)";
    else if (c->pre.reserve_dynamic && c->pre.reserve_min > c->pre.reserve_cores)
        why = "[preempt] reserve_min must be at most reserve_cores";
    else if (c->pre.reserve_dynamic && (!c->pre.reserve_period || !c->pre.reserve_per_core || c->pre.reserve_ewma_shift > 16))
        why = "[preempt] reserve_period and reserve_per_core must be >= 1, reserve_ewma_shift 0..16";
    else if (c->pre.event_reg_reserve >= c->regs_per_core)
        why = "[preempt] event_reg_reserve must leave registers for the background (below regs_per_core)";
    else if (c->pre.set_max < 1 || c->pre.set_max > 4) why = "[preempt] set_max must be 1..4";
    else if (c->pre.impl != FG_IMPL_C && c->pre.set_max != 1 && c->pre.set_max != 4)
        why = "[preempt] set_max: the verilated controller is built for 1 and 4 (impl = c takes 1..4)";
    else if (c->atomics > GPU_ATOMICS_MEMORY) why = "atomics must be issue or memory";
    for (unsigned k = 0; k < 6 && !why; k++)
        if (c->units[k] < 1 || c->units[k] > SIMT_MAX_UNITS || c->ii[k] < 1) why = "units_* must be 1..8 and ii_* >= 1";
    if (why) { snprintf(err, errlen, "gpu config: %s", why); return -1; }
    return 0;
}

void gpu_fault(gpu_t *g, const char *fmt, ...) {
    if (g->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    gpu_image_annotate_pcs(g->img, g->n_img, g->err, sizeof g->err);
    g->failed = true;
    g->err_core = -1;
    g->err_cycle = g->cycle;
}

/* ---- from the cores (simt_core_cbs) and their EDGE parts (simt_edge_cbs) ---- */

static simt_launch *launch_of(gpu_t *g, unsigned li) { return g->lq[li]; }

/* a block of launch li finished (for a warp-level event: its PEWT entry was freed) */
static void block_done(gpu_t *g, unsigned li) {
    simt_launch *L = launch_of(g, li);
    if (++L->blocks_done < L->nblocks) return;
    L->state = LS_FREE;
    g->running--;
    g->ev_live -= L->is_event;
    if (g->cb.complete) g->cb.complete(g->cb.user, L->tag, g->cycle);
}

static void cb_block_done(void *u, const simt_grid *k) { block_done(u, k->id); }

static void cb_first_instr(void *u, const simt_grid *k) {
    gpu_t *g = u;
    simt_launch *L = launch_of(g, k->id);
    if (L->k.first_done) return; /* another core's first instruction of the same cycle came first */
    L->k.first_done = true;
    if (g->cb.first_instr) g->cb.first_instr(g->cb.user, L->tag, g->cycle);
    if (L->warp_event) {
        L->ev.first = g->cycle;
        if (g->ev_cb) g->ev_cb(g->ev_user, L->tag, &L->ev);
    }
}

static void cb_fault(void *u, unsigned core, const char *msg) {
    gpu_t *g = u;
    if (g->failed) return;
    gpu_fault(g, "%s", msg);
    g->err_core = (int)core;
}

static void cb_event_fault(void *u, const simt_grid *k, const char *msg) {
    gpu_t *g = u;
    g->evf_cb(g->evf_user, launch_of(g, k->id)->tag, msg);
}

/* the waiting warp-level event behind a PEWT tag (the launch index) */
static const simt_grid *cb_ev_grid(void *u, uint64_t tag) {
    gpu_t *g = u;
    return tag < g->n_lq && g->lq[tag]->state == LS_EV_CORE ? &g->lq[tag]->k : NULL;
}

static void cb_ev_started(void *u, uint64_t tag, const gpu_event_info *i) {
    gpu_event_info *ev = &launch_of(u, (unsigned)tag)->ev;
    ev->start = i->start;
    ev->preempted = i->preempted;
    ev->saved = i->saved;
    ev->victim_slot = i->victim_slot;
    ev->set_warps = i->set_warps;
    if (i->preempted) {
        ev->select = i->select;
        ev->vstat = i->vstat;
        ev->victim_age = i->victim_age;
    }
    gpu_t *g = u;
    if (g->cfg.pre.skip_exec) { /* EDGE VI-C: it will not issue; report it now */
        ev->first = ev->start;
        if (g->ev_cb) g->ev_cb(g->ev_user, launch_of(g, (unsigned)tag)->tag, ev);
    }
}

static void cb_ev_done(void *u, uint64_t tag) { block_done(u, (unsigned)tag); }

unsigned gpu_config_blocks(const gpu_config *c, fg_block_use *out, unsigned max) {
    const fg_block_use all[] = {{"edge_pewt", c->pre.impl}, {"edge_preempt", c->pre.impl},
                                {"fe_sched_queues", c->mem.fe_impl}};
    unsigned n = 0;
    for (unsigned i = c->pre.warp_events ? 0 : 2; i < 3 && n < max; i++) out[n++] = all[i];
    return n;
}

gpu_t *gpu_new(const gpu_config *cfg, char *err, size_t errlen) {
    if (check_config(cfg, err, errlen)) return NULL;
    gpu_t *g = calloc(1, sizeof *g);
    if (!g) goto oom;
    fg_wave_clock(&g->cycle); /* a system trace's time (sim/harness/fg_wave.h) */
    g->cfg = *cfg;
    g->resv_now = cfg->pre.reserve_dynamic ? cfg->pre.reserve_min : cfg->pre.reserve_cores;
    g->mem_size = cfg->global_mem_bytes;
    g->mem = calloc(g->mem_size, 1);
    g->brk = FG_GUARD_END;
    g->dc.e = calloc(DC_ENTRIES, sizeof *g->dc.e);
    g->dc.mask = DC_ENTRIES - 1;
    g->dc.mem = g->mem;
    g->dc.mem_size = g->mem_size;
    g->dc.img = &g->img;
    g->dc.n_img = &g->n_img;
    g->core = simt_core_array(cfg->num_cores);
    g->edge = calloc(cfg->num_cores, sizeof *g->edge);
    g->dma = calloc(cfg->dma_queue, sizeof *g->dma);
    g->dma_ring = calloc((size_t)cfg->dma_chans * cfg->dma_queue, sizeof *g->dma_ring);
    g->dma_head = calloc(cfg->dma_chans, sizeof *g->dma_head);
    g->dma_sending = calloc(cfg->dma_chans, sizeof *g->dma_sending);
    g->fe_sync_brk = cfg->mem.fe_region_base;
    if (!g->mem || !g->dc.e || !g->core || !g->edge || !g->dma || !g->dma_ring || !g->dma_head || !g->dma_sending)
        goto oom;
    g->cfg.mem.core_mhz = cfg->clock_mhz;
    char e2[384];
    g->ms = mem_new(&g->cfg.mem, cfg->num_cores + 1 + cfg->extra_ports, g->mem, g->mem_size, e2, sizeof e2);
    if (!g->ms) {
        snprintf(err, errlen, "gpu_new: %s", e2);
        gpu_free(g);
        return NULL;
    }
    /* threads: a pool when more than one, each thread its own decode cache */
    unsigned nt = cfg->threads;
    if (!nt && fg_threads_default(&nt, e2, sizeof e2)) {
        snprintf(err, errlen, "gpu_new: %s", e2);
        gpu_free(g);
        return NULL;
    }
    if (nt > cfg->num_cores) nt = cfg->num_cores;
    g->n_threads = nt;
    g->stats = getenv("FG_THREADS_STATS") != NULL;
    g->on = calloc(cfg->num_cores, sizeof *g->on);
    g->dcp = calloc(nt, sizeof *g->dcp);
    if (!g->on || !g->dcp) goto oom;
    g->dcp[0] = &g->dc;
    for (unsigned t = 1; t < nt; t++) {
        g->dcp[t] = calloc(1, sizeof *g->dcp[t]);
        if (!g->dcp[t]) goto oom;
        *g->dcp[t] = g->dc;
        g->dcp[t]->e = calloc(DC_ENTRIES, sizeof *g->dc.e);
        if (!g->dcp[t]->e) goto oom;
    }
    if (nt > 1 && !(g->pool = fg_pool_new(nt, e2, sizeof e2))) {
        snprintf(err, errlen, "gpu_new: %s", e2);
        gpu_free(g);
        return NULL;
    }
    g->serial = getenv("FG_PREEMPT_TRACE") != NULL; /* its lines in core order */
    const simt_core_cbs ccb = {cb_block_done, cb_first_instr, cb_fault, cb_event_fault, g};
    for (unsigned i = 0; i < cfg->num_cores; i++) {
        if (simt_core_init(core_at(g, i), i, &g->cfg, g->mem, g->mem_size, &g->dc, g->ms, i, &ccb)) goto oom;
        simt_core_set_cycle_wrote(core_at(g, i), &g->cycle_wrote);
    }
    if (cfg->pre.warp_events) {
        /* register save area of preempted victims: 64 registers x 32 lanes x 4 B per warp slot */
        uint64_t per_core = (uint64_t)simt_core_nwarps(core_at(g, 0)) * RV_NREGS * SIMT_LANES * 4;
        g->save_base = gpu_malloc(g, per_core * cfg->num_cores);
        if (!g->save_base) {
            snprintf(err, errlen, "gpu_new: global memory too small for the preemption register save area");
            gpu_free(g);
            return NULL;
        }
        const simt_edge_cbs ecb = {cb_ev_grid, cb_ev_started, cb_ev_done, g};
        for (unsigned i = 0; i < cfg->num_cores; i++) {
            simt_core_set_save_base(core_at(g, i), g->save_base + per_core * i);
            g->edge[i] = simt_edge_new(core_at(g, i), &g->cfg, &ecb, err, errlen);
            if (!g->edge[i]) {
                gpu_free(g);
                return NULL;
            }
        }
    }
    return g;
oom:
    snprintf(err, errlen, "gpu_new: out of memory");
    gpu_free(g);
    return NULL;
}

const gpu_config *gpu_get_config(const gpu_t *g) { return &g->cfg; }

void gpu_free(gpu_t *g) {
    if (!g) return;
    fg_wave_clock(NULL);
    if (g->core)
        for (unsigned i = 0; i < g->cfg.num_cores; i++) {
            if (g->edge) simt_edge_free(g->edge[i]);
            simt_core_free(core_at(g, i));
        }
    for (unsigned i = 0; i < g->n_lq; i++) free(g->lq[i]);
    for (unsigned i = 0; g->dma && i < g->cfg.dma_queue; i++) free(g->dma[i].buf);
    mem_free(g->ms);
    for (unsigned i = 0; i < g->n_img; i++) free(g->img[i].sym);
    if (g->stats)
        fprintf(stderr, "gpu: %u thread%s, %llu of %llu cycles with the cores' pipelines on them; %.2f s in the "
                "pipelines' part of the cycles, %.2f s in their serial parts (wall)\n", g->n_threads,
                g->n_threads == 1 ? "" : "s", (unsigned long long)g->par_cycles, (unsigned long long)g->cycle,
                g->t_par, g->t_serial);
    fg_pool_free(g->pool);
    for (unsigned t = 1; g->dcp && t < g->n_threads; t++) {
        if (g->dcp[t]) free(g->dcp[t]->e);
        free(g->dcp[t]);
    }
    free(g->dcp); free(g->on);
    free(g->core); free(g->edge); free(g->mem); free(g->dc.e); free(g->img); free(g->lq);
    free(g->dma); free(g->dma_ring); free(g->dma_head); free(g->dma_sending);
    free(g);
}

void gpu_decode_flush(gpu_t *g) {
    memset(g->dc.e, 0, (g->dc.mask + 1) * sizeof *g->dc.e);
    for (unsigned t = 1; g->dcp && t < g->n_threads; t++)
        if (g->dcp[t] && g->dcp[t]->e) memset(g->dcp[t]->e, 0, (g->dc.mask + 1) * sizeof *g->dc.e);
    /* the warps' remembered scoreboard checks were of the old instructions */
    for (unsigned i = 0; g->core && i < g->cfg.num_cores; i++) simt_core_decode_flushed(core_at(g, i));
}

static void dc_flush_range(gpu_t *g, uint64_t addr, size_t len) {
    for (unsigned i = 0; i < g->n_img; i++)
        if (addr < g->img[i].end && addr + len > g->img[i].base) {
            gpu_decode_flush(g);
            return;
        }
}

int gpu_mem_write(gpu_t *g, uint64_t addr, const void *src, size_t len) {
    if (addr > g->mem_size || len > g->mem_size - addr) {
        snprintf(g->err, sizeof g->err, "gpu_mem_write out of range: 0x%llx + %zu (memory is %llu bytes)",
                 (unsigned long long)addr, len, (unsigned long long)g->mem_size);
        return -1;
    }
    memcpy(g->mem + addr, src, len);
    dc_flush_range(g, addr, len);
    return 0;
}

int gpu_mem_read(gpu_t *g, uint64_t addr, void *dst, size_t len) {
    if (addr > g->mem_size || len > g->mem_size - addr) {
        snprintf(g->err, sizeof g->err, "gpu_mem_read out of range: 0x%llx + %zu (memory is %llu bytes)",
                 (unsigned long long)addr, len, (unsigned long long)g->mem_size);
        return -1;
    }
    memcpy(dst, g->mem + addr, len);
    return 0;
}

/* ------------------------------------------------------------ host DMA */

static int dma_queue(gpu_t *g, bool read, uint64_t addr, const void *src, size_t len, double rate, gpu_dma_cb cb,
                     void *user, uint64_t tag, const gpu_copy_opts *o) {
    if (!len || addr > g->mem_size || len > g->mem_size - addr || rate < 0) return -1;
    if (o && (o->chan >= g->cfg.dma_chans || (o->fe_trig > 3 && o->fe_trig != MEM_FE_DEFAULT) ||
              (o->fe_act > 3 && o->fe_act != MEM_FE_DEFAULT) || (read && rate <= 0)))
        return -1;
    if (g->dma_jobs == g->cfg.dma_queue) return 1;
    unsigned j = 0;
    while (g->dma[j].used) j++;
    gpu_dma_job *d = &g->dma[j];
    uint8_t *buf = malloc(len);
    if (!buf) return -1;
    if (src) memcpy(buf, src, len);
    free(d->buf);
    *d = (gpu_dma_job){.used = true, .read = read, .windowed = o && read, .addr = addr, .len = len, .buf = buf,
                       .rate = rate, .cb = cb, .user = user, .tag = tag,
                       .fe_trig = o ? o->fe_trig : MEM_FE_DEFAULT, .fe_act = o ? o->fe_act : MEM_FE_DEFAULT,
                       .chan = o ? o->chan : 0};
    unsigned c = d->chan;
    g->dma_ring[c * g->cfg.dma_queue + (g->dma_head[c] + g->dma_sending[c]++) % g->cfg.dma_queue] = j;
    g->dma_jobs++;
    return 0;
}

int gpu_dma_write(gpu_t *g, uint64_t addr, const void *src, size_t len, double bytes_per_cycle, gpu_dma_cb cb,
                  void *user, uint64_t tag) {
    return dma_queue(g, false, addr, src, len, bytes_per_cycle, cb, user, tag, NULL);
}

int gpu_dma_read(gpu_t *g, uint64_t addr, size_t len, double bytes_per_cycle, gpu_dma_cb cb, void *user,
                 uint64_t tag) {
    return dma_queue(g, true, addr, NULL, len, bytes_per_cycle, cb, user, tag, NULL);
}

int gpu_copy(gpu_t *g, bool to_host, uint64_t addr, const void *src, size_t len, const gpu_copy_opts *o,
             gpu_dma_cb cb, void *user, uint64_t tag) {
    if (!o || (!to_host && !src)) return -1;
    return dma_queue(g, to_host, addr, to_host ? NULL : src, len, o->bytes_per_cycle, cb, user, tag, o);
}

bool gpu_dma_idle(const gpu_t *g) { return g->dma_jobs == 0; }
unsigned gpu_dma_free(const gpu_t *g) { return g->cfg.dma_queue - g->dma_jobs; }

static void dma_finish(gpu_t *g, gpu_dma_job *d) {
    g->dma_bytes += d->len;
    if (d->cb) d->cb(d->user, d->tag, g->cycle, d->read ? d->buf : NULL, d->len);
    d->used = false; /* after the callback: its data is this job's buffer */
    g->dma_jobs--;
}

/* The job still sending at the head of channel c, or NULL. */
static gpu_dma_job *dma_head_of(gpu_t *g, unsigned c) {
    return g->dma_sending[c] ? &g->dma[g->dma_ring[c * g->cfg.dma_queue + g->dma_head[c]]] : NULL;
}

/* The next paced job (writes, gpu_dma_read) in channel order from the
 * round-robin start, or windowed read with room in its window; *ch = its
 * channel.  Only the chosen paced job gains the link's bytes this cycle, so
 * jobs of several channels share the link. */
static gpu_dma_job *dma_pick(gpu_t *g, bool win, unsigned *ch) {
    const unsigned nc = g->cfg.dma_chans, start = win ? g->dma_rr_win : g->dma_rr_paced;
    for (unsigned i = 0; i < nc; i++) {
        unsigned c = (start + i) % nc;
        gpu_dma_job *d = dma_head_of(g, c);
        if (!d || d->windowed != win) continue;
        if (win && d->lines - d->done >= g->cfg.dma_read_window) continue;
        *ch = c;
        return d;
    }
    return NULL;
}

/* Offers the next line of job d (channel c): 0 sent, 1 not this cycle. */
static int dma_send(gpu_t *g, gpu_dma_job *d, unsigned c) {
    const unsigned port = g->cfg.num_cores, lb = g->cfg.line_bytes;
    uint64_t a = d->addr + d->sent, off = a % lb;
    size_t n = lb - off < d->len - d->sent ? lb - off : d->len - d->sent;
    if (!d->windowed && d->rate > 0 && d->credit < (double)n) return 1;
    mem_req q;
    memset(&q, 0, offsetof(mem_req, wdata));
    q.id = (uint64_t)(d - g->dma);
    q.addr = a - off;
    q.op = d->read ? MEM_READ : MEM_WRITE;
    q.src = MEM_SRC_CPU; /* F/E 4.3: host requests take the CPU side, with the copy's trigger / action (4.4) */
    q.kind = MEM_K_DMA;
    q.fe_trig = d->fe_trig;
    q.fe_act = d->fe_act;
    q.amo_ops = 1;
    q.data = true;
    for (unsigned i = (unsigned)off; i < off + n; i++) q.bmask[i >> 6] |= 1ull << (i & 63);
    if (!d->read) memcpy(q.wdata + off, d->buf + d->sent, n);
    int rc = mem_send(g->ms, port, &q);
    if (rc < 0) gpu_fault(g, "host DMA: memory system refused a request: %s", mem_error(g->ms));
    if (rc) return 1;
    d->sent += n;
    d->lines++;
    if (!d->windowed && d->rate > 0) d->credit -= (double)n;
    if (d->sent == d->len) {
        g->dma_head[c] = (g->dma_head[c] + 1) % g->cfg.dma_queue;
        g->dma_sending[c]--;
    }
    return 0;
}

/* One cycle of the host port: responses; windowed reads whose last byte has
 * crossed the link finish; then one line request: the paced jobs (writes and
 * gpu_dma_read, PCIe writes and read requests leaving the link in order) and
 * the windowed reads take turns going first, channels round robin within
 * each, so that one refused request (a trigger's admission, F/E queues) does
 * not hold up another channel's. */
static void dma_step(gpu_t *g) {
    const unsigned port = g->cfg.num_cores, lb = g->cfg.line_bytes;
    const mem_rsp *r;
    while (!g->failed && (r = mem_rsp_peek(g->ms, port))) {
        gpu_dma_job *d = r->id < g->cfg.dma_queue ? &g->dma[r->id] : NULL;
        if (!d || !d->used || d->done == d->lines) {
            gpu_fault(g, "host DMA: response id %llu matches no request in flight", (unsigned long long)r->id);
            return;
        }
        if (r->status == MEM_NACK) {
            gpu_fault(g, "host DMA %s of line 0x%08llx: F/E watchdog NACK (trigger %u never satisfied; the host "
                      "interface does not retry, docs/FE_E2E.md)", d->read ? "read" : "write",
                      (unsigned long long)r->addr, d->fe_trig);
            return;
        }
        uint64_t lo = r->addr > d->addr ? r->addr : d->addr, hi = r->addr + lb;
        if (hi > d->addr + d->len) hi = d->addr + d->len;
        if (d->read) memcpy(d->buf + (lo - d->addr), r->rdata + (lo - r->addr), hi - lo); /* its bytes on this line */
        if (d->windowed) { /* the line's data crosses the link to the host after the ones before it */
            double t = g->dma_up_free > (double)g->cycle ? g->dma_up_free : (double)g->cycle;
            g->dma_up_free = d->cross_end = t + (double)(hi - lo) / d->rate;
        }
        mem_rsp_pop(g->ms, port);
        if (++d->done == d->lines && d->sent == d->len) {
            if (d->windowed) {
                d->crossing = true;
                g->dma_crossing++;
            } else {
                dma_finish(g, d);
            }
        }
    }
    for (unsigned j = 0; g->dma_crossing && j < g->cfg.dma_queue && !g->failed; j++) {
        gpu_dma_job *d = &g->dma[j];
        if (d->used && d->crossing && d->cross_end <= (double)g->cycle + 1) {
            d->crossing = false;
            g->dma_crossing--;
            dma_finish(g, d);
        }
    }
    if (g->failed) return;
    unsigned cp = 0, cw = 0;
    gpu_dma_job *p = dma_pick(g, false, &cp), *w = dma_pick(g, true, &cw);
    if (p && p->rate > 0) { /* the link's bytes of this cycle; the host interface buffers two lines */
        p->credit += p->rate;
        if (p->credit > 2.0 * lb) p->credit = 2.0 * lb;
    }
    gpu_dma_job *first = g->dma_win_first ? w : p, *second = g->dma_win_first ? p : w;
    unsigned c1 = g->dma_win_first ? cw : cp, c2 = g->dma_win_first ? cp : cw;
    g->dma_win_first = !g->dma_win_first;
    if (p) g->dma_rr_paced = (cp + 1) % g->cfg.dma_chans;
    if (w) g->dma_rr_win = (cw + 1) % g->cfg.dma_chans;
    if (first && !dma_send(g, first, c1)) return;
    if (second && !g->failed) dma_send(g, second, c2);
}

uint64_t gpu_malloc(gpu_t *g, uint64_t bytes) {
    uint64_t a = (g->brk + 255) & ~255ull;
    if (bytes == 0) bytes = 1;
    /* ordinary allocations stay out of the F/E-tracked region (gpu_fe_region)
     * and the gpu_reserve ranges: moved past each one they overlap */
    uint64_t fb = g->cfg.mem.fe_region_base, fe = fb + g->cfg.mem.fe_region_bytes;
    for (bool moved = true; moved && a <= g->mem_size;) {
        uint64_t a0 = a;
        if (g->cfg.mem.fe_region_bytes && a < fe && a + bytes > fb) a = (fe + 255) & ~255ull;
        for (unsigned i = 0; i < g->n_resv; i++)
            if (a < g->resv[i][1] && a + bytes > g->resv[i][0]) a = (g->resv[i][1] + 255) & ~255ull;
        moved = a != a0;
    }
    if (a > g->mem_size) return 0;
    if (bytes > g->mem_size - a) return 0;
    g->brk = a + bytes;
    return a;
}

uint64_t gpu_malloc_sync(gpu_t *g, uint64_t bytes) {
    uint64_t a = g->fe_sync_brk, end = g->cfg.mem.fe_region_base + g->cfg.mem.fe_region_bytes;
    bytes = (bytes ? bytes + 127 : 128) & ~127ull; /* whole F/E lines */
    if (a > end || bytes > end - a) return 0;
    g->fe_sync_brk = a + bytes;
    return a;
}

uint64_t gpu_sync_brk(const gpu_t *g) { return g->fe_sync_brk; }

int gpu_reserve(gpu_t *g, uint64_t addr, uint64_t bytes) {
    if (g->n_resv == 4 || addr < g->brk || addr > g->mem_size || bytes > g->mem_size - addr) return -1;
    g->resv[g->n_resv][0] = addr;
    g->resv[g->n_resv][1] = addr + bytes;
    g->n_resv++;
    return 0;
}

mem_system *gpu_mem_system(gpu_t *g) { return g->ms; }
unsigned gpu_extra_port(const gpu_t *g, unsigned i) { return g->cfg.num_cores + 1 + i; }

int gpu_fe_init(gpu_t *g, uint64_t addr, uint64_t bytes, bool full) { return mem_fe_init(g->ms, addr, bytes, full); }
bool gpu_fe_init_busy(const gpu_t *g) { return mem_fe_init_busy(g->ms); }

void gpu_fe_region(const gpu_t *g, uint64_t *base, uint64_t *bytes) {
    *base = g->cfg.mem.fe_region_base;
    *bytes = g->cfg.mem.fe_region_bytes;
}

void gpu_set_callbacks(gpu_t *g, const gpu_callbacks *cb) { g->cb = *cb; }
void gpu_set_event_callback(gpu_t *g, gpu_event_cb cb, void *user) {
    g->ev_cb = cb;
    g->ev_user = user;
}

int gpu_set_event_fault_callback(gpu_t *g, gpu_event_fault_cb cb, void *user, char *err, size_t errlen) {
    g->evf_cb = cb;
    g->evf_user = user;
    for (unsigned i = 0; i < g->cfg.num_cores; i++)
        if (simt_core_set_event_faults(core_at(g, i), cb != NULL)) {
            g->evf_cb = NULL;
            snprintf(err, errlen, "gpu_set_event_fault_callback: out of memory");
            return -1;
        }
    return 0;
}

gpu_launch_desc gpu_desc_1d(const gpu_kernel *k, unsigned grid, unsigned block, uint64_t param) {
    gpu_launch_desc d = {0};
    d.kernel_ptr = k->entry;
    d.regs_per_thread = k->regs_per_thread;
    d.grid[0] = grid, d.grid[1] = d.grid[2] = 1;
    d.block[0] = block, d.block[1] = d.block[2] = 1;
    d.param_addr = param;
    return d;
}

/* A launch's image and resources, and whether it can ever run: one core
 * must hold a block (gpu_launch, gpu_launch_check). */
typedef struct {
    const simt_image *im;
    uint64_t threads, blocks, warps, regs, shmem;
} launch_shape;

static int shape_of(const gpu_t *g, const gpu_launch_desc *d, launch_shape *s, char *err, size_t errlen) {
    const gpu_config *k = &g->cfg;
    s->im = NULL;
    for (unsigned i = 0; i < g->n_img; i++)
        if (d->kernel_ptr >= g->img[i].base && d->kernel_ptr < g->img[i].end) s->im = &g->img[i];
    if (!s->im || (d->kernel_ptr & 3)) {
        snprintf(err, errlen, "gpu_launch: bad kernel pointer 0x%llx (not inside a loaded kernel)",
                 (unsigned long long)d->kernel_ptr);
        return -1;
    }
    for (int i = 0; i < 3; i++)
        if (!d->grid[i] || !d->block[i]) {
            snprintf(err, errlen, "gpu_launch %s: zero grid or block dimension", s->im->name);
            return -1;
        }
    s->threads = (uint64_t)d->block[0] * d->block[1] * d->block[2];
    s->blocks = (uint64_t)d->grid[0] * d->grid[1] * d->grid[2];
    s->warps = (s->threads + 31) / 32;
    s->regs = (uint64_t)(d->regs_per_thread ? d->regs_per_thread : s->im->regs) * s->warps * 32;
    s->shmem = (uint64_t)s->im->shmem_static + d->shmem;
    const char *why = NULL;
    if (s->threads > k->max_threads_per_core || s->warps > 64) why = "too many threads per block for one core";
    else if (s->regs > k->regs_per_core) why = "too many registers per block for one core";
    else if (!d->priority && !d->warp_event && s->regs > k->regs_per_core - k->pre.event_reg_reserve)
        why = "too many registers per block for one core beside [preempt] event_reg_reserve";
    else if (s->shmem > k->shmem_per_core) why = "too much shared memory per block for one core";
    else if (s->blocks > UINT32_MAX) why = "grid too large";
    else if (d->param_addr >= g->mem_size) why = "param_addr outside global memory";
    if (why) {
        snprintf(err, errlen, "gpu_launch %s: %s (%llu threads, %llu registers, %llu B shared)", s->im->name, why,
                 (unsigned long long)s->threads, (unsigned long long)s->regs, (unsigned long long)s->shmem);
        return -1;
    }
    return 0;
}

int gpu_launch_check(const gpu_t *g, const gpu_launch_desc *d, char *err, size_t errlen) {
    launch_shape s;
    return shape_of(g, d, &s, err, errlen);
}

int gpu_launch(gpu_t *g, const gpu_launch_desc *d, char *err, size_t errlen) {
    const gpu_config *k = &g->cfg;
    launch_shape sh;
    if (shape_of(g, d, &sh, err, errlen)) return -1;
    const simt_image *im = sh.im;
    const uint64_t threads = sh.threads, blocks = sh.blocks, warps = sh.warps, regs = sh.regs, shmem = sh.shmem;
    unsigned li = 0;
    while (li < g->n_lq && g->lq[li]->state != LS_FREE) li++;
    if (li == g->n_lq) {
        unsigned n = g->n_lq ? g->n_lq * 2 : 16;
        simt_launch **p = realloc(g->lq, n * sizeof *p);
        if (!p) { snprintf(err, errlen, "gpu_launch: out of memory"); return -1; }
        g->lq = p;
        for (; g->n_lq < n; g->n_lq++)
            if (!(g->lq[g->n_lq] = calloc(1, sizeof **g->lq))) { snprintf(err, errlen, "gpu_launch: out of memory"); return -1; }
    }
    simt_launch *L = g->lq[li];
    memset(L, 0, sizeof *L);
    L->state = LS_PENDING;
    L->tag = d->tag;
    L->seq = g->launch_seq++;
    L->nblocks = (uint32_t)blocks;
    simt_grid *K = &L->k;
    K->id = li;
    K->kernel_ptr = d->kernel_ptr;
    K->param_addr = d->param_addr;
    memcpy(K->grid, d->grid, sizeof K->grid);
    memcpy(K->block, d->block, sizeof K->block);
    K->threads = (unsigned)threads;
    K->nwarps = (unsigned)warps;
    K->regs = (unsigned)regs;
    K->regs_pt = (unsigned)(regs / (warps * 32));
    K->reg_mask = im->reg_mask;
    K->shmem = (unsigned)shmem;
    K->priority = d->priority;
    /* EDGE IV-C: a single-warp event kernel without shared memory bypasses the
     * KMU and goes to the SIMT core scheduler, then to a PEWT */
    if (d->warp_event && k->pre.warp_events && blocks == 1 && warps == 1 && shmem == 0) {
        L->warp_event = true;
        L->state = LS_EV_WAIT;
        L->ev_queued = g->cycle; /* the SIMT core scheduler sees it this cycle */
        g->ev_waiting++;
    }
    L->is_event = L->warp_event || K->priority > 0;
    g->ev_live += L->is_event;
    g->running++;
    return 0;
}

/* Reservation (EDGE IV-A, VI-D): the last R cores take only event kernels
 * (warp-level events, and launches with priority > 0: EDGE's event kernels
 * run at raised priority), the other cores only the rest; R = [preempt]
 * reserve_cores, or what reserve_step sets with reserve_dynamic.  R = 0:
 * every core takes everything. */
static bool core_takes(const gpu_t *g, unsigned core, bool event) {
    const unsigned r = g->resv_now;
    return !r || (core >= g->cfg.num_cores - r) == event;
}

/* Dynamic reservation (EDGE V-A / VII, [preempt] reserve_dynamic): once a
 * period, the period's mean events in flight enters the moving average
 * (integers in 1/256 of an event, so every host computes the same); the
 * reserve grows to the target at once and shrinks one core a period.  A
 * core that joins the reserve starts no new background block (those it runs
 * finish); one that leaves it takes background blocks again. */
static void reserve_step(gpu_t *g) {
    const gpu_config *c = &g->cfg;
    g->resv_acc += g->ev_live;
    if (++g->resv_tick == c->pre.reserve_period) {
        const uint64_t mean = (g->resv_acc << 8) / c->pre.reserve_period;
        const unsigned k = c->pre.reserve_ewma_shift;
        g->resv_avg = g->resv_avg - (g->resv_avg >> k) + (mean >> k);
        const uint64_t per = (uint64_t)c->pre.reserve_per_core << 8;
        uint64_t t = (g->resv_avg + per - 1) / per;
        if (t < c->pre.reserve_min) t = c->pre.reserve_min;
        if (t > c->pre.reserve_cores) t = c->pre.reserve_cores;
        const unsigned r = t > g->resv_now ? (unsigned)t : t < g->resv_now ? g->resv_now - 1 : g->resv_now;
        g->resv_st.changes += r != g->resv_now;
        g->resv_now = r;
        g->resv_acc = 0;
        g->resv_tick = 0;
    }
}

void gpu_get_reserve_stats(const gpu_t *g, gpu_reserve_stats *s) {
    *s = g->resv_st;
    s->now = g->resv_now;
    if (!s->cycles) s->min = s->max = g->resv_now;
}

/* launch a before b? (priority, then arrival) */
static bool before(const simt_launch *a, const simt_launch *b) {
    return a->k.priority != b->k.priority ? a->k.priority > b->k.priority : a->seq < b->seq;
}

static void kmu_and_dispatch(gpu_t *g) {
    unsigned nrun = 0;
    /* launches in priority order (small n: selection by repeated scans) */
    unsigned order[64], n = 0;
    for (unsigned i = 0; i < g->n_lq; i++) if (g->lq[i]->state == LS_RUNNING) nrun++;
    /* KMU: pending launches (queued before this cycle) become running */
    while (nrun < g->cfg.max_kernels) {
        int best = -1;
        for (unsigned i = 0; i < g->n_lq; i++)
            if (g->lq[i]->state == LS_PENDING && (best < 0 || before(g->lq[i], g->lq[best]))) best = (int)i;
        if (best < 0) break;
        g->lq[best]->state = LS_RUNNING;
        nrun++;
    }
    for (unsigned i = 0; i < g->n_lq && n < 64; i++) {
        simt_launch *L = g->lq[i];
        if (L->state != LS_RUNNING || L->next_block >= L->nblocks) continue;
        unsigned j = n++;
        while (j > 0 && before(L, g->lq[order[j - 1]])) { order[j] = order[j - 1]; j--; }
        order[j] = i;
    }
    if (!n) return;
    /* Draining (EDGE IV-B): below this priority a core that takes event
     * kernels starts no block. */
    unsigned hold = 0;
    if (g->cfg.pre.drain == GPU_DRAIN_GPU)
        for (unsigned i = 0; i < g->n_lq; i++) {
            const simt_launch *L = g->lq[i];
            const bool blocks_left = L->state == LS_RUNNING && L->next_block < L->nblocks;
            if ((blocks_left || L->state == LS_EV_WAIT) && L->k.priority > hold) hold = L->k.priority;
        }
    /* block scheduler: at most one new block per core per cycle */
    unsigned nc = g->cfg.num_cores;
    for (unsigned ci = 0; ci < nc; ci++) {
        const unsigned cn = (g->rr_core + ci) % nc;
        simt_core *c = core_at(g, cn);
        const unsigned hold_here = core_takes(g, cn, true) ? hold : 0;
        for (unsigned j = 0; j < n; j++) {
            simt_launch *L = g->lq[order[j]];
            if (L->next_block >= L->nblocks || !core_takes(g, cn, L->k.priority > 0)) continue;
            if (L->k.priority < hold_here) break; /* launches are in priority order */
            if (simt_core_try_block(c, &L->k, L->next_block)) { L->next_block++; g->last_issue = cn; break; }
        }
    }
    g->rr_core = (g->rr_core + 1) % nc;
}

/* SIMT core scheduler (EDGE IV-C): each waiting warp-level event, oldest
 * first, goes to the PEWT of the cheapest core (simt_edge_cost), at most one
 * per core per cycle, ties round-robin.  Draining GPU-wide (IV-B: the event
 * takes the first context that frees anywhere): a core where it could only
 * wait for a context to drain (draining, or no eligible victim) is not
 * chosen; the event waits here until a context frees or a victim appears. */
static void ev_schedule(gpu_t *g) {
    const unsigned nc = g->cfg.num_cores;
    const bool drain_gpu = g->cfg.pre.drain == GPU_DRAIN_GPU;
    for (unsigned n = 0; n < nc; n++) {
        simt_launch *L = NULL;
        for (unsigned j = 0; j < g->n_lq; j++)
            if (g->lq[j]->state == LS_EV_WAIT && (!L || g->lq[j]->seq < L->seq)) L = g->lq[j];
        if (!L) return;
        int bestc = -1;
        unsigned bestcost = ~0u;
        const bool issue_rr = g->resv_now && g->cfg.pre.reserve_place == GPU_PLACE_ISSUE_RR;
        for (unsigned i = 0; i < nc && !(issue_rr && bestc >= 0); i++) {
            unsigned ci = ((issue_rr ? g->last_issue + 1 : g->ev_rr) + i) % nc;
            if (!core_takes(g, ci, true) || !simt_edge_can_push(g->edge[ci])) continue;
            unsigned cost = simt_edge_cost(g->edge[ci], &L->k);
            if (drain_gpu && cost % SIMT_EDGE_COST_PENDING == SIMT_EDGE_COST_DRAIN) continue;
            if (cost < bestcost) { bestcost = cost; bestc = (int)ci; }
        }
        /* dynamic reservation: no reserved core can start it without a drain,
         * so preempt on a background core (EDGE VII) */
        if (g->cfg.pre.reserve_dynamic && g->cfg.pre.enable && g->resv_now &&
            (bestc < 0 || bestcost % SIMT_EDGE_COST_PENDING == SIMT_EDGE_COST_DRAIN))
            for (unsigned i = 0; i < nc; i++) {
                unsigned ci = (g->ev_rr + i) % nc;
                if (core_takes(g, ci, true) || !simt_edge_can_push(g->edge[ci])) continue;
                unsigned cost = simt_edge_cost(g->edge[ci], &L->k);
                if (cost % SIMT_EDGE_COST_PENDING == SIMT_EDGE_COST_DRAIN) continue;
                if (cost < bestcost) { bestcost = cost; bestc = (int)ci; }
            }
        if (bestc < 0) return; /* no core can take it this cycle: wait */
        simt_edge_push(g->edge[bestc], &L->k, L->k.id);
        L->state = LS_EV_CORE;
        g->ev_waiting--;
        memset(&L->ev, 0, sizeof L->ev);
        L->ev.core = (unsigned)bestc;
        L->ev.arrive = L->ev_queued;
        L->ev.pewt = g->cycle;
        g->ev_rr = (unsigned)(bestc + 1) % nc;
        g->last_issue = (unsigned)bestc;
    }
}

/* thread t of n: every n-th core ticked this cycle, with its decode cache
 * (n = 1: all of them on the caller, as one thread steps them), its begin
 * and its pipeline, then its share of the side work */
static void cycle_part(void *arg, unsigned t, unsigned n) {
    gpu_t *g = arg;
    for (unsigned j = t; j < g->n_on; j += n) {
        simt_core *c = core_at(g, g->on[j]);
        simt_core_set_dcache(c, g->dcp[t]);
        simt_core_begin(c, g->cycle);
        simt_core_set_threaded(c, n > 1);
        simt_core_cycle(c);
        simt_core_set_threaded(c, false);
    }
    if (g->side_par) g->side_par(g->side_user, t, n);
}

void gpu_set_side_work(gpu_t *g, gpu_side_par par, gpu_side_serial serial, void *user) {
    g->side_par = par;
    g->side_serial = serial;
    g->side_user = user;
}

void gpu_tick(gpu_t *g) {
    if (g->failed) return;
    const double t0 = g->stats ? fg_now(FG_CLOCK_WALL) : 0;
    if (g->cfg.pre.reserve_dynamic) reserve_step(g);
    g->resv_st.core_cycles += g->resv_now;
    if (!g->resv_st.cycles++ || g->resv_now < g->resv_st.min) g->resv_st.min = g->resv_now;
    if (g->resv_now > g->resv_st.max) g->resv_st.max = g->resv_now;
    if (g->running) {
        /* SIMT core scheduler first: a core with an event waiting takes no new block */
        if (g->ev_waiting) ev_schedule(g);
        for (unsigned i = 0; i < g->n_lq; i++)
            if (g->lq[i]->state == LS_PENDING || (g->lq[i]->state == LS_RUNNING && g->lq[i]->next_block < g->lq[i]->nblocks)) {
                kmu_and_dispatch(g);
                break;
            }
    }
    /* cores run while launches run, and until their memory requests are
     * answered.  Each core's cycle in three parts (simt_core.h): the begin
     * and the pipeline on the pool's threads when more than one core holds
     * warps (a begin reads the core's responses and changes nothing shared),
     * the commits in core order; with one thread the same parts in the same
     * order, so the threads change nothing but the speed. */
    unsigned held = 0;
    g->n_on = 0;
    for (unsigned i = 0; i < g->cfg.num_cores; i++) {
        simt_core *c = core_at(g, i);
        if (g->running || simt_core_mem_busy(c)) {
            g->on[g->n_on++] = i;
            held += simt_core_holds_warps(c);
        } else
            simt_core_clear_issue_stall(c);
    }
    const double t1 = g->stats ? fg_now(FG_CLOCK_WALL) : 0;
    if (g->pool && (held > 1 || g->side_par) && !g->serial && !fg_wave_on()) {
        g->par_cycles += fg_pool_run_adaptive(g->pool, cycle_part, g) > 0;
    } else {
        cycle_part(g, 0, 1);
    }
    const double t2 = g->stats ? fg_now(FG_CLOCK_WALL) : 0;
    if (g->side_serial) g->side_serial(g->side_user);
    g->cycle_wrote = false;
    for (unsigned j = 0; j < g->n_on && !g->failed; j++) {
        simt_core *c = core_at(g, g->on[j]);
        simt_core_set_dcache(c, &g->dc);
        simt_core_commit(c);
    }
    if (!g->failed) dma_step(g);
    mem_tick(g->ms);
    if (mem_error(g->ms)) gpu_fault(g, "memory system: %s", mem_error(g->ms));
    g->cycle++;
    if (g->stats) {
        const double t3 = fg_now(FG_CLOCK_WALL);
        g->t_par += t2 - t1;
        g->t_serial += (t1 - t0) + (t3 - t2);
    }
}

uint64_t gpu_cycle(const gpu_t *g) { return g->cycle; }
unsigned gpu_threads_used(const gpu_t *g, uint64_t *threaded_cycles) {
    if (threaded_cycles) *threaded_cycles = g->par_cycles;
    return g->n_threads;
}
bool gpu_idle(const gpu_t *g) {
    if (g->failed) return true;
    if (g->running || g->dma_jobs || !mem_idle(g->ms) || mem_fe_init_busy(g->ms)) return false;
    for (unsigned i = 0; i < g->cfg.num_cores; i++)
        if (simt_core_mem_busy(core_at(g, i))) return false;
    return true;
}
const char *gpu_error(const gpu_t *g) { return g->failed ? g->err : NULL; }
int gpu_error_core(const gpu_t *g, uint64_t *cycle) {
    if (cycle) *cycle = g->failed ? g->err_cycle : 0;
    return g->failed ? g->err_core : -1;
}

const char *const gpu_evb_names[GPU_EVB_N] = {"issue", "memory", "depend", "fetch", "unit", "sched", "other"};

void gpu_set_event_breakdown(gpu_t *g, bool on) {
    for (unsigned i = 0; i < g->cfg.num_cores; i++) simt_core_set_event_breakdown(core_at(g, i), on);
}

void gpu_get_event_breakdown(const gpu_t *g, uint64_t out[GPU_EVB_N]) {
    memset(out, 0, GPU_EVB_N * sizeof *out);
    for (unsigned i = 0; i < g->cfg.num_cores; i++) simt_core_add_event_breakdown(core_at(g, i), out);
}

void gpu_set_active_warp_limit(gpu_t *g, unsigned core, unsigned limit) {
    if (core >= g->cfg.num_cores) return;
    simt_core_set_warp_limit(core_at(g, core), limit);
}

bool gpu_event_cores(const gpu_t *g, bool *on) {
    for (unsigned i = 0; i < g->cfg.num_cores; i++) on[i] = simt_core_holds_events(core_at(g, i));
    for (unsigned j = 0; j < g->n_lq; j++)
        if (g->lq[j]->state == LS_EV_CORE) on[g->lq[j]->ev.core] = true;
    return g->ev_waiting > 0;
}

void gpu_set_block_limit(gpu_t *g, unsigned core, unsigned limit, bool pause) {
    if (core >= g->cfg.num_cores) return;
    simt_core_set_block_limit(core_at(g, core), limit, pause);
}

unsigned gpu_blocks_per_core(const gpu_t *g) {
    const simt_launch *L = NULL;
    for (unsigned i = 0; i < g->n_lq; i++)
        if (g->lq[i]->state == LS_RUNNING && (!L || before(g->lq[i], L))) L = g->lq[i];
    if (!L) return 0;
    const gpu_config *k = &g->cfg;
    const simt_grid *K = &L->k;
    unsigned n = k->max_blocks_per_core, t = k->max_threads_per_core / (K->nwarps * SIMT_LANES);
    if (t < n) n = t;
    if (K->regs && k->regs_per_core / K->regs < n) n = k->regs_per_core / K->regs;
    if (K->shmem && k->shmem_per_core / K->shmem < n) n = k->shmem_per_core / K->shmem;
    return n;
}

uint64_t gpu_take_issued_warps(gpu_t *g, unsigned core) {
    if (core >= g->cfg.num_cores) return 0;
    return simt_core_take_issued_warps(core_at(g, core));
}

void gpu_get_stats(const gpu_t *g, gpu_stats *s) {
    memset(s, 0, sizeof *s);
    s->cycles = g->cycle;
    for (unsigned i = 0; i < g->cfg.num_cores; i++) simt_core_add_stats(core_at(g, i), s);
    s->avg_load_latency = s->loads ? (double)s->load_cycles / (double)s->loads : 0;
    s->dma_bytes = g->dma_bytes;
    mem_stats m;
    mem_get_stats(g->ms, MEM_ALL, &m);
    s->l2_hits = m.l2_hits;
    s->l2_misses = m.l2_misses;
    s->fe_tracked = m.fe_tracked;
    s->fe_l2_hits = m.fe_l2_hits;
    s->l2_hit_rate = m.l2_hits + m.l2_misses ? (double)m.l2_hits / (double)(m.l2_hits + m.l2_misses) : 0;
    s->dram_reads = m.dram_reads;
    s->dram_writes = m.dram_writes;
    s->row_hits = m.row_hits;
    s->row_misses = m.row_misses;
    s->row_conflicts = m.row_conflicts;
    double secs = (double)g->cycle / (g->cfg.clock_mhz * 1e6);
    /* bytes moved = data-bus cycles / cycles per burst x bytes per burst */
    const mem_config *mc = &g->cfg.mem;
    double bytes = (double)m.dram_bus_busy / mem_config_burst_cycles(mc) * mc->dram_bus_bytes * mc->dram_burst;
    s->dram_gbps = secs > 0 ? bytes / secs / 1e9 : 0;
    s->dram_util = m.dram_cycles ? (double)m.dram_bus_busy / (double)m.dram_cycles / g->cfg.mem.partitions : 0;
}

void gpu_get_core_stats(const gpu_t *g, unsigned core, gpu_core_stats *s) {
    memset(s, 0, sizeof *s);
    if (core >= g->cfg.num_cores) return;
    simt_core_get_stats(core_at(g, core), s);
}

unsigned gpu_issue_stall(const gpu_t *g, unsigned core) {
    return core < g->cfg.num_cores ? simt_core_issue_stall(core_at(g, core)) : 0;
}

void gpu_get_preempt_stats(const gpu_t *g, gpu_preempt_stats *s) {
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i < g->cfg.num_cores; i++)
        if (g->edge[i]) simt_edge_stats(g->edge[i], s);
}
