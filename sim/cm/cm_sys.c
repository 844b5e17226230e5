/* cm_sys: the CM machine's CPU cores, SIMT GPU and shared memory system on
 * one clock (cm_sys.h; docs/CM_MACHINE.md). */
#include "cm_sys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/bg_kernels.h"

struct cm_sys {
    cm_config c;
    gpu_t *g;
    mem_system *m;
    unsigned ncpu, port0;         /* running CPU cores; CPU core 0's port */
    cpu_gen gen[CM_MAX_CPU];
    cpu_core *cpu[CM_MAX_CPU];
    bg_run *work;                 /* the GPU kernel (NULL: none) */
    cmbal_loop *bal;              /* the concurrency scheme (cm_bal_loop.h) */
    bool gpu_on, run_checked;
    unsigned runs;                /* GPU runs finished and checked */
    uint64_t tick, f_core, f_cpu; /* kHz */
    uint64_t cpu_now;             /* CPU cycles run */
    uint64_t cpu_to;              /* this tick: the CPU cycles run to (cpu_side) */
    uint64_t cpu_req;             /* requests the CPU cores sent */
    /* statistics since the last reset */
    uint64_t t0, cpu0, mc, net, cpu_req0, gpu_req0;
    unsigned runs0;
    gpu_core_stats g0[CM_MAX_GPU];               /* GPU cores at the reset */
    uint64_t iv_start, iv_cpu0, iv_ret[CM_MAX_CPU];
    gpu_core_stats iv_g[CM_MAX_GPU];             /* GPU cores at the interval's start */
    unsigned iv_mc, iv_net;
    cm_interval *iv;
    unsigned n_iv, cap_iv;
    char err[512];
};

static void cpu_cycles(void *user, unsigned t, unsigned n);
static void cpu_send(void *user);

void cm_config_default(cm_config *c) {
    memset(c, 0, sizeof *c);
    gpu_config_default(&c->gpu);
    cpu_config_default(&c->cpu);
    cpu_gen_params_default(&c->gen);
    c->cpu_cores = 14;
    c->cpu_base = 1ull << 30;
    c->interval = 1024;
    cmbal_config_default(&c->bal);
}

int cm_config_load(cm_config *c, fg_config *cfg, char *err, size_t errlen) {
    uint64_t v[2] = {c->cpu_cores, c->interval};
    if (gpu_config_load(&c->gpu, cfg, err, errlen) || cpu_config_load(&c->cpu, cfg, err, errlen) ||
        fg_config_u64(cfg, "cm", "cpu_cores", 1, CM_MAX_CPU, &v[0], err, errlen) ||
        fg_config_u64(cfg, "cm", "interval", 1, 1u << 20, &v[1], err, errlen) ||
        fg_config_u64(cfg, "cm", "cpu_base", 0, UINT64_MAX, &c->cpu_base, err, errlen) ||
        cmbal_config_load(&c->bal, cfg, err, errlen))
        return -1;
    c->cpu_cores = (unsigned)v[0];
    c->interval = (unsigned)v[1];
    if (c->gpu.num_cores > CM_MAX_GPU) {
        snprintf(err, errlen, "[gpu] num_cores = %u: the CM machine records at most %u", c->gpu.num_cores,
                 CM_MAX_GPU);
        return -1;
    }
    return 0;
}

/* Each core's footprint, aligned and skewed so that the cores' hot regions
 * do not all fall on the same LLC sets and DRAM banks. */
static uint64_t cpu_stride(const cm_config *c) {
    return (cpu_gen_footprint(&c->gen) + (1ull << 20) - 1) / (1ull << 20) * (1ull << 20) + (192u << 10);
}

void cm_free(cm_sys *s) {
    if (!s) return;
    for (unsigned i = 0; i < s->ncpu; i++) cpu_core_free(s->cpu[i]);
    bg_free(s->work);
    cmbal_free(s->bal);
    gpu_free(s->g);
    free(s->iv);
    free(s);
}

/* kernel boundaries: the CM-BAL monitor's kstart_i / kend_i (CM 4.2) */
static void on_complete(void *u, uint64_t tag, uint64_t cycle) {
    cm_sys *s = u;
    cmbal_kernel_end(s->bal);
    if (s->work) bg_on_complete(s->work, tag, cycle);
}

static void on_first(void *u, uint64_t tag, uint64_t cycle) {
    (void)tag;
    (void)cycle;
    cmbal_kernel_start(((cm_sys *)u)->bal);
}

cm_sys *cm_new(const cm_config *c, const char *const *apps, const cm_gpu_work *gpu, uint64_t seed, char *err,
               size_t errlen) {
    cm_sys *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "cm: out of memory");
        return NULL;
    }
    s->c = *c;
    /* the CPU cores are requesters on the GPU's memory system (gpu.h) */
    s->c.gpu.extra_ports = c->cpu_cores;
    s->g = gpu_new(&s->c.gpu, err, errlen);
    if (!s->g) goto fail;
    s->m = gpu_mem_system(s->g);
    s->port0 = gpu_extra_port(s->g, 0);
    const uint64_t cpu_bytes = cpu_stride(c) * c->cpu_cores;
    if (gpu_reserve(s->g, c->cpu_base, cpu_bytes)) {
        snprintf(err, errlen, "cm: the CPU footprints [%llu, %llu) do not fit [gpu] global_mem_bytes = %llu",
                 (unsigned long long)c->cpu_base, (unsigned long long)(c->cpu_base + cpu_bytes),
                 (unsigned long long)c->gpu.global_mem_bytes);
        goto fail;
    }
    s->ncpu = apps ? c->cpu_cores : 0;
    for (unsigned i = 0; i < s->ncpu; i++) {
        const cpu_app *a = cpu_app_find(apps[i]);
        if (!a) {
            snprintf(err, errlen, "cm: CPU core %u: no application '%s' in CM Table III", i, apps[i]);
            goto fail;
        }
        cpu_gen_init(&s->gen[i], a, &c->gen, c->cpu_base + i * cpu_stride(c), seed * 1000003 + i);
        s->cpu[i] = cpu_core_new(&c->cpu, cpu_gen_source, &s->gen[i], err, errlen);
        if (!s->cpu[i]) goto fail;
    }
    if (!(s->bal = cmbal_new(&c->bal, s->g, err, errlen))) goto fail;
    if (gpu && gpu->kernel) {
        s->work = bg_new(s->g, gpu->kernel, gpu->size, gpu->kdir, seed, err, errlen);
        if (!s->work) goto fail;
    }
    const gpu_callbacks cb = {.first_instr = on_first, .complete = on_complete, .user = s};
    gpu_set_callbacks(s->g, &cb);
    gpu_set_side_work(s->g, cpu_cycles, cpu_send, s);
    s->f_core = (uint64_t)llround(c->gpu.clock_mhz * 1000);
    s->f_cpu = (uint64_t)llround(c->cpu.clock_mhz * 1000);
    cm_reset_stats(s);
    return s;
fail:
    cm_free(s);
    return NULL;
}

static void gpu_start(cm_sys *s) {
    char e[300];
    if (bg_start(s->work, e, sizeof e) && !s->err[0]) snprintf(s->err, sizeof s->err, "GPU %s", e);
    s->run_checked = false;
}

void cm_gpu_on(cm_sys *s, bool on) {
    s->gpu_on = on;
    if (on) cmbal_start(s->bal);
    if (on && s->work && !cm_gpu_busy(s) && !s->err[0]) gpu_start(s);
}

/* A GPU run that finished: its results against the host reference (every
 * run), then the next one while the GPU side is on. */
static void gpu_progress(cm_sys *s) {
    if (!s->work || !bg_done(s->work) || s->run_checked) return;
    char e[300];
    s->run_checked = true;
    if (bg_check(s->work, e, sizeof e)) {
        if (!s->err[0]) snprintf(s->err, sizeof s->err, "GPU run %u: %s", s->runs + 1, e);
        return;
    }
    s->runs++;
    if (s->gpu_on) gpu_start(s);
}

static void close_interval(cm_sys *s) {
    if (s->n_iv == s->cap_iv) {
        unsigned cap = s->cap_iv ? 2 * s->cap_iv : 256;
        cm_interval *p = realloc(s->iv, cap * sizeof *p);
        if (!p) {
            snprintf(s->err, sizeof s->err, "cm: out of memory for intervals");
            return;
        }
        s->iv = p;
        s->cap_iv = cap;
    }
    cm_interval *v = &s->iv[s->n_iv++];
    memset(v, 0, sizeof *v);
    const uint64_t cyc = s->cpu_now - s->iv_cpu0, gcyc = s->tick - s->iv_start;
    for (unsigned i = 0; i < s->ncpu; i++) {
        cpu_stats st;
        cpu_core_stats(s->cpu[i], &st);
        v->cpu_ipc[i] = cyc ? (double)(st.retired - s->iv_ret[i]) / (double)cyc : 0;
        s->iv_ret[i] = st.retired;
    }
    uint64_t wi = 0;
    for (unsigned i = 0; i < s->c.gpu.num_cores; i++) {
        gpu_core_stats g;
        gpu_get_core_stats(s->g, i, &g);
        v->gpu_core_ipc[i] = (double)(g.warp_instrs - s->iv_g[i].warp_instrs) / (double)gcyc;
        v->stall_gpu[i] = (unsigned)(g.stall_gpu - s->iv_g[i].stall_gpu);
        v->issued_warps[i] = (unsigned)__builtin_popcountll(gpu_take_issued_warps(s->g, i));
        wi += g.warp_instrs - s->iv_g[i].warp_instrs;
        s->iv_g[i] = g;
    }
    v->gpu_ipc = (double)wi / (double)gcyc;
    cmbal_take_averages(s->bal, v->warp_limit, v->cta_limit);
    v->stall_mc = s->iv_mc;
    v->stall_net = s->iv_net;
    s->iv_mc = s->iv_net = 0;
    s->iv_start = s->tick;
    s->iv_cpu0 = s->cpu_now;
}

/* Thread t of n: its CPU cores' cycles of this tick (each core is on its
 * own until its requests are sent). */
static void cpu_cycles(void *user, unsigned t, unsigned n) {
    cm_sys *s = user;
    for (unsigned i = t; i < s->ncpu; i += n)
        for (uint64_t k = s->cpu_now; k < s->cpu_to; k++) cpu_core_cycle(s->cpu[i]);
}

/* One request per CPU port, in port order. */
static void cpu_send(void *user) {
    cm_sys *s = user;
    const cm_config *c = &s->c;
    s->cpu_now = s->cpu_to;
    for (unsigned i = 0; i < s->ncpu; i++) {
        const cpu_req *q = cpu_core_req(s->cpu[i]);
        if (!q) continue;
        mem_req r = {.id = q->id, .addr = q->addr, .bmask = {~0ull, ~0ull}, .op = q->write ? MEM_WRITE : MEM_READ,
                     .src = MEM_SRC_CPU, .kind = MEM_K_DATA, .fe_trig = MEM_FE_DEFAULT,
                     .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
        if (c->gpu.mem.line_bytes < 128) {
            r.bmask[1] = 0;
            r.bmask[0] = c->gpu.mem.line_bytes == 64 ? ~0ull : (1ull << c->gpu.mem.line_bytes) - 1;
        }
        int rc = mem_send(s->m, s->port0 + i, &r);
        if (!rc) {
            cpu_core_req_pop(s->cpu[i]);
            s->cpu_req++;
        } else if (rc < 0 && !s->err[0]) {
            snprintf(s->err, sizeof s->err, "CPU core %u: %s", i, mem_error(s->m));
        }
    }
}

void cm_tick(cm_sys *s) {
    const cm_config *c = &s->c;
    /* 1. responses of the last mem_tick */
    for (unsigned i = 0; i < s->ncpu; i++) {
        const mem_rsp *r;
        while ((r = mem_rsp_peek(s->m, s->port0 + i))) {
            cpu_core_fill(s->cpu[i], r->id);
            mem_rsp_pop(s->m, s->port0 + i);
        }
    }
    /* 2. the CPU cycles before GPU tick n + 1 (cpu_cycles, on the GPU's
     * threads beside the SIMT cores' pipelines) and 3. one request per CPU
     * port (cpu_send, before the SIMT cores' commits): inside gpu_tick */
    s->cpu_to = (s->tick + 1) * s->f_cpu / s->f_core;
    /* 4. the GPU cores, then the memory system (gpu_tick ticks it) */
    gpu_tick(s->g);
    /* 5. congestion (CM 4.1), the GPU run, the interval */
    uint64_t mc_bits, net_bits;
    cmbal_stall_bits(s->g, &mc_bits, &net_bits);
    const unsigned mc = (unsigned)__builtin_popcountll(mc_bits), net = (unsigned)__builtin_popcountll(net_bits);
    s->iv_mc += mc;
    s->iv_net += net;
    s->mc += mc;
    s->net += net;
    cmbal_tick(s->bal, mc_bits, net_bits);
    gpu_progress(s);
    s->tick++;
    if (s->tick - s->iv_start == c->interval) close_interval(s);
}

uint64_t cm_cycle(const cm_sys *s) { return s->tick; }
uint64_t cm_cpu_cycle(const cm_sys *s) { return s->cpu_now; }
unsigned cm_cpu_cores(const cm_sys *s) { return s->ncpu; }
const cpu_core *cm_cpu(const cm_sys *s, unsigned i) { return i < s->ncpu ? s->cpu[i] : NULL; }
gpu_t *cm_gpu(cm_sys *s) { return s->g; }
cmbal_loop *cm_bal(cm_sys *s) { return s->bal; }
bg_run *cm_gpu_run(cm_sys *s) { return s->work; }
mem_system *cm_mem(cm_sys *s) { return s->m; }
unsigned cm_gpu_runs(const cm_sys *s) { return s->runs; }
bool cm_gpu_busy(const cm_sys *s) { return s->work && bg_running(s->work); }
const char *cm_gpu_describe(const cm_sys *s) { return s->work ? bg_describe(s->work) : "none"; }

const char *cm_error(const cm_sys *s) {
    if (s->err[0]) return s->err;
    if (cmbal_error(s->bal)) return cmbal_error(s->bal);
    return gpu_error(s->g);
}

uint64_t cm_min_retired(const cm_sys *s) {
    uint64_t m = UINT64_MAX;
    for (unsigned i = 0; i < s->ncpu; i++) {
        cpu_stats st;
        cpu_core_stats(s->cpu[i], &st);
        if (st.retired < m) m = st.retired;
    }
    return m;
}

static uint64_t gpu_requests(const cm_sys *s) {
    gpu_stats st;
    gpu_get_stats(s->g, &st);
    return st.mem_requests;
}

void cm_reset_stats(cm_sys *s) {
    for (unsigned i = 0; i < s->ncpu; i++) {
        cpu_core_reset_stats(s->cpu[i]);
        s->iv_ret[i] = 0;
    }
    for (unsigned i = 0; i < s->c.gpu.num_cores; i++) {
        gpu_get_core_stats(s->g, i, &s->g0[i]);
        gpu_take_issued_warps(s->g, i);
    }
    memcpy(s->iv_g, s->g0, sizeof s->iv_g);
    cm_interval scratch;
    cmbal_take_averages(s->bal, scratch.warp_limit, scratch.cta_limit);
    s->t0 = s->iv_start = s->tick;
    s->cpu0 = s->iv_cpu0 = s->cpu_now;
    s->mc = s->net = s->iv_mc = s->iv_net = 0;
    s->cpu_req0 = s->cpu_req;
    s->gpu_req0 = gpu_requests(s);
    s->runs0 = s->runs;
    s->n_iv = 0;
}

unsigned cm_intervals(const cm_sys *s) { return s->n_iv; }
const cm_interval *cm_interval_at(const cm_sys *s, unsigned i) { return i < s->n_iv ? &s->iv[i] : NULL; }

void cm_get_totals(const cm_sys *s, cm_totals *t) {
    memset(t, 0, sizeof *t);
    t->cycles = s->tick - s->t0;
    t->cpu_cycles = s->cpu_now - s->cpu0;
    t->stall_mc = s->mc;
    t->stall_net = s->net;
    for (unsigned i = 0; i < s->c.gpu.num_cores; i++) {
        gpu_core_stats g;
        gpu_get_core_stats(s->g, i, &g);
        gpu_core_stats *d = &t->core[i];
        d->warp_instrs = g.warp_instrs - s->g0[i].warp_instrs;
        d->thread_instrs = g.thread_instrs - s->g0[i].thread_instrs;
        d->warp_cycles = g.warp_cycles - s->g0[i].warp_cycles;
        d->stall_gpu = g.stall_gpu - s->g0[i].stall_gpu;
        d->stall_pipe = g.stall_pipe - s->g0[i].stall_pipe;
        t->gpu_warp_instrs += d->warp_instrs;
        t->gpu_thread_instrs += d->thread_instrs;
        t->stall_gpu += d->stall_gpu;
        t->stall_pipe += d->stall_pipe;
        t->gpu_warp_cycles += d->warp_cycles;
    }
    t->cpu_requests = s->cpu_req - s->cpu_req0;
    t->gpu_requests = gpu_requests(s) - s->gpu_req0;
    t->gpu_runs = s->runs - s->runs0;
}
