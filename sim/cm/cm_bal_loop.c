/* cm_bal_loop: the schemes of CM Sec. 5-6 in the CM machine's loop
 * (cm_bal_loop.h; docs/CM_BAL.md "In the loop"). */
#include "cm_bal_loop.h"
#include "fg_wave.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cmbal_scheme_names[] = {"baseline", "static",  "cm_cpu",  "cm_bal1", "cm_bal2",
                                          "cm_bal3",  "cm_bal4", "dyncta", NULL};

const char *const cmbal_protect_names[] = {"off", "core", "gpu", NULL};

struct cmbal_loop {
    cmbal_config c;
    gpu_t *g;
    unsigned cores, nsched, maxw;
    fg_block *mon;            /* NULL: a scheme without the monitor */
    cm_dyncta *dyn;           /* DYNCTA */
    unsigned mode;            /* the scheme's mode_i once started */
    bool on;
    uint64_t kstart, kend;    /* kernel boundaries of this cycle (all cores) */
    unsigned sel;             /* rd_core_i of the next edge */
    /* per core (cores entries each): */
    unsigned *lim;            /* the scheme's limit */
    unsigned *applied;        /* what the scheduler obeys (lim, capped while protecting) */
    bool *ev;                 /* the protection covers it this cycle */
    bool dirty;               /* a scheme limit changed since the last apply */
    uint64_t *wsum, *csum;    /* since cmbal_take_averages */
    uint64_t cycles;
    uint64_t prot_cycles, prot_core_cycles;
    char err[300];
};

void cmbal_config_default(cmbal_config *c) {
    memset(c, 0, sizeof *c);
    const cm_bal_monitor_params d = cm_bal_monitor_defaults(8, 28);
    c->scheme = CMBAL_BASELINE;
    c->static_warps = 48;
    c->impl = FG_IMPL_RTL;
    c->t_high = d.th_q4 / 4.0;
    c->t_low = d.tl_q4 / 4.0;
    c->k[0] = CM_K_BAL1;
    c->k[1] = CM_K_BAL2;
    c->k[2] = CM_K_BAL3;
    c->k[3] = CM_K_BAL4;
    c->interval = d.interval;
    c->fine = d.fine;
    c->explore_warps = d.explore_warps;
    c->explore_n = d.explore_n;
    c->nlvl = d.nlvl;
    memcpy(c->levels, d.levels, sizeof c->levels);
    /* DYNCTA: see docs/CM_BAL.md "DYNCTA" for where these come from */
    c->dyn = (cm_dyncta_params){.period = 2048, .t_idle = 16, .t_mem_l = 128, .t_mem_h = 384, .init = 0, .pause = true};
    c->protect = CMBAL_PROTECT_OFF;
    c->protect_warps = 8; /* CM 4.1's fine_warps: no paper sets it (docs/CM_BAL.md "Protecting events") */
}

/* "1, 2, 3, 4, 6, 8, 16, 24, 48": increasing, 2 .. CM_MAX_LVL entries */
static int parse_levels(cmbal_config *c, const char *s, char *err, size_t errlen) {
    unsigned n = 0, prev = 0;
    const char *p = s;
    for (;;) {
        char *end;
        while (*p == ' ' || *p == '\t') p++;
        errno = 0;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p || errno || *p == '-' || v < 1 || v > 255 || v <= prev || n == CM_MAX_LVL) break;
        c->levels[n++] = prev = (unsigned)v;
        p = end;
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) {
            if (n < 2) break;
            c->nlvl = n;
            return 0;
        }
        if (*p++ != ',') break;
    }
    snprintf(err, errlen, "[cmbal] levels = '%s': 2 to %u increasing warp counts 1..255, comma-separated", s,
             CM_MAX_LVL);
    return -1;
}

/* a threshold in stalls per cycle, kept in quarters (TH_Q4 / TL_Q4) */
static int quarters(const char *key, double v, char *err, size_t errlen) {
    if (fabs(v * 4 - nearbyint(v * 4)) > 1e-9) {
        snprintf(err, errlen, "[cmbal] %s = %g: the monitor compares in quarters of a stall per cycle; use a "
                 "multiple of 0.25", key, v);
        return -1;
    }
    return 0;
}

int cmbal_config_load(cmbal_config *c, fg_config *cfg, char *err, size_t errlen) {
    uint64_t v;
    unsigned im = (unsigned)c->impl;
    if (fg_config_enum(cfg, "cmbal", "scheme", cmbal_scheme_names, &c->scheme, err, errlen) ||
        fg_config_enum(cfg, "cmbal", "protect_events", cmbal_protect_names, &c->protect, err, errlen) ||
        fg_config_enum(cfg, "cmbal", "impl", fg_impl_names, &im, err, errlen) ||
        fg_config_double(cfg, "cmbal", "t_high", 0, 64, &c->t_high, err, errlen) ||
        fg_config_double(cfg, "cmbal", "t_low", 0, 64, &c->t_low, err, errlen) ||
        quarters("t_high", c->t_high, err, errlen) || quarters("t_low", c->t_low, err, errlen))
        return -1;
    c->impl = (fg_impl)im;
    if (c->t_low > c->t_high) {
        snprintf(err, errlen, "[cmbal] t_low = %g must not exceed t_high = %g", c->t_low, c->t_high);
        return -1;
    }
    static const struct { const char *key; size_t off; uint64_t min, max; } U[] = {
        {"static_warps", offsetof(cmbal_config, static_warps), 1, 63},
        {"k_bal1", offsetof(cmbal_config, k[0]), 0, 8191},
        {"k_bal2", offsetof(cmbal_config, k[1]), 0, 8191},
        {"k_bal3", offsetof(cmbal_config, k[2]), 0, 8191},
        {"k_bal4", offsetof(cmbal_config, k[3]), 0, 8191},
        {"interval", offsetof(cmbal_config, interval), 2, 1u << 20},
        {"fine_warps", offsetof(cmbal_config, fine), 1, 255},
        {"explore_warps", offsetof(cmbal_config, explore_warps), 0, 255},
        {"explore_intervals", offsetof(cmbal_config, explore_n), 2, 4}, /* the 2-bit stay count */
        {"dyncta_period", offsetof(cmbal_config, dyn.period), 1, 1u << 24},
        {"dyncta_t_idle", offsetof(cmbal_config, dyn.t_idle), 0, 1u << 24},
        {"dyncta_t_mem_l", offsetof(cmbal_config, dyn.t_mem_l), 0, 1u << 24},
        {"dyncta_t_mem_h", offsetof(cmbal_config, dyn.t_mem_h), 0, 1u << 24},
        {"dyncta_init_ctas", offsetof(cmbal_config, dyn.init), 0, 64},
        {"protect_warps", offsetof(cmbal_config, protect_warps), 1, 63},
    };
    for (size_t i = 0; i < sizeof U / sizeof *U; i++) {
        unsigned *f = (unsigned *)((char *)c + U[i].off);
        v = *f;
        if (fg_config_u64(cfg, "cmbal", U[i].key, U[i].min, U[i].max, &v, err, errlen)) return -1;
        *f = (unsigned)v;
    }
    if (fg_config_bool(cfg, "cmbal", "dyncta_pause", &c->dyn.pause, err, errlen)) return -1;
    if (c->dyn.t_mem_l > c->dyn.t_mem_h) {
        snprintf(err, errlen, "[cmbal] dyncta_t_mem_l = %u must not exceed dyncta_t_mem_h = %u", c->dyn.t_mem_l,
                 c->dyn.t_mem_h);
        return -1;
    }
    const char *lv = fg_config_str(cfg, "cmbal", "levels");
    return lv ? parse_levels(c, lv, err, errlen) : 0;
}

static bool uses_monitor(const cmbal_config *c) { return c->scheme != CMBAL_BASELINE && c->scheme != CMBAL_DYNCTA; }

const char *cmbal_monitor_impl(const cmbal_config *c) { return uses_monitor(c) ? fg_impl_name(c->impl) : "none"; }

static unsigned clog2u(uint64_t x) {
    unsigned n = 0;
    while ((1ull << n) < x) n++;
    return n;
}

/* The monitor's parameters at the machine's size; -1 with a message when the
 * machine or [cmbal] is outside what the block takes. */
static int monitor_params(const cmbal_config *c, const gpu_config *k, cm_bal_monitor_params *q, char *err,
                          size_t errlen) {
    *q = cm_bal_monitor_defaults(k->mem.partitions, k->num_cores);
    q->nsched = k->schedulers_per_core;
    q->maxw = k->max_threads_per_core / 32;
    q->interval = c->interval;
    q->th_q4 = (unsigned)nearbyint(c->t_high * 4);
    q->tl_q4 = (unsigned)nearbyint(c->t_low * 4);
    q->fine = c->fine;
    q->explore_warps = c->explore_warps;
    q->explore_n = c->explore_n;
    q->nlvl = c->nlvl;
    memcpy(q->levels, c->levels, sizeof q->levels);
    const char *why = NULL;
    char b[200];
    if (q->p > 64 || q->c > CM_MAX_CORES || q->c * q->nsched > 64)
        why = "the machine is too large for the monitor's ports (partitions <= 64, cores x schedulers <= 64)";
    else if (q->maxw > 63)
        why = "the monitor's limits are 6 bits: at most 63 warps per core ([gpu] max_threads_per_core)";
    else if (c->interval < q->c + CM_BAL_COMMIT_EDGES)
        why = "[cmbal] interval must be at least the cores + 5 (the serial walk ends within the interval)";
    else if (q->th_q4 > 4 * q->p)
        why = "[cmbal] t_high must be at most the partitions (a stall per partition per cycle)";
    else if (c->fine > q->maxw) why = "[cmbal] fine_warps must be at most the warps per core";
    else if (q->levels[q->nlvl - 1] != q->maxw)
        why = (snprintf(b, sizeof b, "[cmbal] levels must end at the warps per core (%u)", q->maxw), b);
    else if (c->scheme == CMBAL_STATIC && c->static_warps > q->maxw)
        why = (snprintf(b, sizeof b, "[cmbal] static_warps = %u: at most the warps per core (%u)", c->static_warps,
                        q->maxw), b);
    else if (c->scheme >= CMBAL_BAL1 && c->scheme <= CMBAL_BAL4 &&
             c->k[c->scheme - CMBAL_BAL1] >> (clog2u((uint64_t)q->nsched * q->interval) + 1))
        why = "[cmbal] k_bal*: wider than the monitor's k_i port (stallGPU bits + 1)";
    if (why) {
        snprintf(err, errlen, "%s", why);
        return -1;
    }
    return 0;
}

cmbal_loop *cmbal_new(const cmbal_config *c, gpu_t *g, char *err, size_t errlen) {
    const gpu_config *k = gpu_get_config(g);
    cmbal_loop *l = calloc(1, sizeof *l);
    if (!l) {
        snprintf(err, errlen, "cmbal: out of memory");
        return NULL;
    }
    l->c = *c;
    l->g = g;
    l->cores = k->num_cores;
    l->nsched = k->schedulers_per_core;
    l->maxw = k->max_threads_per_core / 32;
    l->lim = calloc(l->cores, sizeof *l->lim);
    l->applied = calloc(l->cores, sizeof *l->applied);
    l->ev = calloc(l->cores, sizeof *l->ev);
    l->wsum = calloc(l->cores, sizeof *l->wsum);
    l->csum = calloc(l->cores, sizeof *l->csum);
    if (!l->lim || !l->applied || !l->ev || !l->wsum || !l->csum) {
        snprintf(err, errlen, "cmbal: out of memory");
        goto fail;
    }
    if (c->protect && c->protect_warps > l->maxw) {
        snprintf(err, errlen, "[cmbal] protect_warps = %u: at most the warps per core (%u)", c->protect_warps, l->maxw);
        goto fail;
    }
    for (unsigned i = 0; i < l->cores; i++) l->lim[i] = l->applied[i] = l->maxw;
    if (c->scheme == CMBAL_DYNCTA && !(l->dyn = cm_dyncta_new(&c->dyn, g))) {
        snprintf(err, errlen, "cmbal: out of memory");
        goto fail;
    }
    if (uses_monitor(c)) {
        cm_bal_monitor_params q;
        char e[1024];
        if (monitor_params(c, k, &q, err, errlen)) goto fail;
        if (!(l->mon = fg_block_new(&cm_bal_monitor_class, c->impl, &q, e, sizeof e))) {
            snprintf(err, errlen, "[cmbal] impl = %s%s: %s", fg_impl_name(c->impl),
                     c->impl != FG_IMPL_C ? " (impl = c runs the twin at any parameters)" : "", e);
            goto fail;
        }
        fg_wave_place(l->mon, "cm");
        l->mode = c->scheme == CMBAL_STATIC ? CM_MODE_STATIC : c->scheme == CMBAL_CM_CPU ? CM_MODE_CPU : CM_MODE_BAL;
    }
    return l;
fail:
    cmbal_free(l);
    return NULL;
}

void cmbal_free(cmbal_loop *l) {
    if (!l) return;
    fg_block_free(l->mon);
    cm_dyncta_free(l->dyn);
    free(l->lim), free(l->applied), free(l->ev), free(l->wsum), free(l->csum);
    free(l);
}

void cmbal_start(cmbal_loop *l) {
    l->on = true;
    if (l->dyn) cm_dyncta_start(l->dyn);
}

void cmbal_kernel_start(cmbal_loop *l) { l->kstart = ~0ull; }
void cmbal_kernel_end(cmbal_loop *l) { l->kend = ~0ull; }

static void set_limit(cmbal_loop *l, unsigned core, unsigned lim) {
    if (l->lim[core] == lim) return;
    l->lim[core] = lim;
    l->dirty = true;
}
static void monitor_step(cmbal_loop *l, uint64_t stall_mc, uint64_t stall_net);

/* The limits the scheduler obeys: the scheme's, capped at protect_warps on
 * the cores the protection covers; the GPU hears of changes only. */
static void apply(cmbal_loop *l) {
    bool any = false;
    l->dirty = false;
    if (l->c.protect) {
        bool all = gpu_event_cores(l->g, l->ev); /* (an event waiting for a core) */
        if (l->c.protect == CMBAL_PROTECT_GPU) {
            for (unsigned c = 0; c < l->cores; c++) all |= l->ev[c];
            for (unsigned c = 0; c < l->cores; c++) l->ev[c] = all;
        }
    }
    for (unsigned c = 0; c < l->cores; c++) {
        unsigned lim = l->lim[c];
        if (l->c.protect && l->ev[c] && l->c.protect_warps < lim) {
            lim = l->c.protect_warps;
            l->prot_core_cycles++;
            any = true;
        }
        if (lim != l->applied[c]) {
            l->applied[c] = lim;
            gpu_set_active_warp_limit(l->g, c, lim);
        }
    }
    l->prot_cycles += any;
}

void cmbal_tick(cmbal_loop *l, uint64_t stall_mc, uint64_t stall_net) {
    l->cycles++;
    for (unsigned c = 0; c < l->cores; c++) l->wsum[c] += l->applied[c];
    if (l->dyn) {
        cm_dyncta_tick(l->dyn);
        for (unsigned c = 0; c < l->cores; c++) l->csum[c] += cm_dyncta_limit(l->dyn, c);
    } else if (l->mon && !l->err[0])
        monitor_step(l, stall_mc, stall_net);
    /* unprotected, the applied limits change only with the scheme's; the
     * protection follows the events every cycle */
    if (l->c.protect || l->dirty) apply(l);
}

void cmbal_stall_bits(gpu_t *g, uint64_t *stall_mc, uint64_t *stall_net) {
    mem_system *m = gpu_mem_system(g);
    const unsigned np = gpu_get_config(g)->mem.partitions;
    *stall_mc = *stall_net = 0;
    for (unsigned p = 0; p < np && p < 64; p++) {
        bool mc, net;
        mem_partition_stall(m, p, &mc, &net);
        *stall_mc |= (uint64_t)mc << p;
        *stall_net |= (uint64_t)net << p;
    }
}

void cmbal_tick_gpu(cmbal_loop *l) {
    uint64_t mc, net;
    cmbal_stall_bits(l->g, &mc, &net);
    cmbal_tick(l, mc, net);
}

void cmbal_protect_stats(const cmbal_loop *l, uint64_t *cycles, uint64_t *core_cycles) {
    *cycles = l->prot_cycles;
    *core_cycles = l->prot_core_cycles;
}

/* one edge of the CM-CPU / CM-BAL monitor: the scheme's limits */
static void monitor_step(cmbal_loop *l, uint64_t stall_mc, uint64_t stall_net) {
    cm_bal_monitor_in_t in = {.stall_mc_i = stall_mc, .stall_net_i = stall_net, .kstart_i = l->kstart,
                              .kend_i = l->kend, .mode_i = l->on ? l->mode : CM_MODE_OFF,
                              .static_i = l->c.static_warps, .rd_core_i = l->sel};
    if (l->mode == CM_MODE_BAL) in.k_i = l->c.k[l->c.scheme - CMBAL_BAL1];
    for (unsigned c = 0; c < l->cores; c++) in.issue_stall_i |= (uint64_t)gpu_issue_stall(l->g, c) << (c * l->nsched);
    l->kstart = l->kend = 0;
    if (fg_block_step(l->mon, &in)) {
        snprintf(l->err, sizeof l->err, "CM-BAL monitor: %s", l->mon->error);
        return;
    }
    const cm_bal_monitor_out_t *o = fg_block_out(l->mon);
    if (in.mode_i == CM_MODE_CPU) /* CM 4.1: the central unit's limit goes to every core */
        for (unsigned c = 0; c < l->cores; c++) set_limit(l, c, (unsigned)o->cpu_limit_o);
    else
        set_limit(l, l->sel, (unsigned)o->rd_limit_o);
    /* the next core to read: core 0 at the edge after its commit (E + 5),
     * core c c edges later */
    l->sel = o->interval_o ? (l->cores - CM_BAL_COMMIT_EDGES % l->cores) % l->cores : (l->sel + 1) % l->cores;
}

unsigned cmbal_warp_limit(const cmbal_loop *l, unsigned core) { return core < l->cores ? l->applied[core] : 0; }

void cmbal_take_averages(cmbal_loop *l, double *warp_limit, double *cta_limit) {
    for (unsigned c = 0; c < l->cores; c++) {
        warp_limit[c] = l->cycles ? (double)l->wsum[c] / (double)l->cycles : l->applied[c];
        cta_limit[c] = l->cycles ? (double)l->csum[c] / (double)l->cycles : 0;
        l->wsum[c] = l->csum[c] = 0;
    }
    l->cycles = 0;
}

const char *cmbal_error(const cmbal_loop *l) { return l->err[0] ? l->err : NULL; }
