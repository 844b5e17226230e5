/* cm_sys: the CM machine's CPU cores, GPU side and shared memory system on
 * one clock (cm_sys.h; docs/CM_MACHINE.md). */
#include "cm_sys.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm/gpu_traffic.h"

struct cm_sys {
    cm_config c;
    uint8_t *backing;
    mem_system *m;
    cpu_gen gen[CM_MAX_CPU];
    cpu_core *cpu[CM_MAX_CPU];
    gpu_traffic *gt;
    bool gpu_on;
    uint64_t tick, f_core, f_cpu; /* kHz */
    uint64_t cpu_now;             /* CPU cycles run */
    /* statistics since the last reset */
    uint64_t t0, cpu0, mc, net, lines0;
    uint64_t iv_start, iv_cpu0, iv_ret[CM_MAX_CPU], iv_lines;
    unsigned iv_mc, iv_net;
    cm_interval *iv;
    unsigned n_iv, cap_iv;
    char err[300];
};

void cm_config_default(cm_config *c) {
    memset(c, 0, sizeof *c);
    mem_config_default(&c->mem);
    cpu_config_default(&c->cpu);
    cpu_gen_params_default(&c->gen);
    c->gpu_cores = 28;
    c->cpu_cores = 14;
    c->cpu_port0 = 29;
    c->cpu_base = 1ull << 30;
    c->gpu_base = 256ull << 20;
    c->gpu_bytes = 768ull << 20;
    c->mem_bytes = 3ull << 30;
    c->interval = 1024;
    c->gpu_outstanding = 32;
}

int cm_config_load(cm_config *c, fg_config *cfg, char *err, size_t errlen) {
    uint64_t v[7] = {c->gpu_cores, c->cpu_cores, c->cpu_port0, c->interval, c->gpu_outstanding};
    if (mem_config_load(&c->mem, cfg, err, errlen) || cpu_config_load(&c->cpu, cfg, err, errlen) ||
        fg_config_u64(cfg, "gpu", "num_cores", 0, CM_MAX_GPU, &v[0], err, errlen) ||
        fg_config_u64(cfg, "cm", "cpu_cores", 1, CM_MAX_CPU, &v[1], err, errlen) ||
        fg_config_u64(cfg, "cm", "cpu_port0", 0, 1000, &v[2], err, errlen) ||
        fg_config_u64(cfg, "cm", "interval", 1, 1u << 20, &v[3], err, errlen) ||
        fg_config_u64(cfg, "cm", "gpu_outstanding", 1, 1024, &v[4], err, errlen) ||
        fg_config_u64(cfg, "cm", "cpu_base", 0, UINT64_MAX, &c->cpu_base, err, errlen) ||
        fg_config_u64(cfg, "cm", "gpu_base", 0, UINT64_MAX, &c->gpu_base, err, errlen) ||
        fg_config_u64(cfg, "cm", "gpu_bytes", 0, UINT64_MAX, &c->gpu_bytes, err, errlen) ||
        fg_config_u64(cfg, "cm", "mem_bytes", 1, UINT64_MAX, &c->mem_bytes, err, errlen))
        return -1;
    c->gpu_cores = (unsigned)v[0];
    c->cpu_cores = (unsigned)v[1];
    c->cpu_port0 = (unsigned)v[2];
    c->interval = (unsigned)v[3];
    c->gpu_outstanding = (unsigned)v[4];
    if (c->cpu_port0 < c->gpu_cores) {
        snprintf(err, errlen, "[cm] cpu_port0 = %u overlaps the %u GPU cores' ports", c->cpu_port0,
                 c->gpu_cores);
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
    for (unsigned i = 0; i < s->c.cpu_cores; i++) cpu_core_free(s->cpu[i]);
    gpu_traffic_free(s->gt);
    mem_free(s->m);
    free(s->backing);
    free(s->iv);
    free(s);
}

cm_sys *cm_new(const cm_config *c, const char *const *apps, cm_gpu_kind gpu, uint64_t seed, char *err,
               size_t errlen) {
    unsigned n_ports = c->cpu_port0 + c->cpu_cores;
    uint64_t top = c->cpu_base + cpu_stride(c) * c->cpu_cores;
    if (top > c->mem_bytes || c->gpu_base + c->gpu_bytes > c->mem_bytes) {
        snprintf(err, errlen, "[cm] mem_bytes = %llu: the CPU footprints end at %llu, the GPU arrays at "
                 "%llu", (unsigned long long)c->mem_bytes, (unsigned long long)top,
                 (unsigned long long)(c->gpu_base + c->gpu_bytes));
        return NULL;
    }
    cm_sys *s = calloc(1, sizeof *s);
    if (!s) goto oom;
    s->c = *c;
    s->backing = calloc(1, c->mem_bytes); /* virtual: timing-only traffic never touches it */
    if (!s->backing) goto oom;
    s->m = mem_new(&c->mem, n_ports, s->backing, c->mem_bytes, err, errlen);
    if (!s->m) goto fail;
    for (unsigned i = 0; i < c->cpu_cores; i++) {
        const cpu_app *a = cpu_app_find(apps[i]);
        if (!a) {
            snprintf(err, errlen, "cm: CPU core %u: no application '%s' in CM Table III", i, apps[i]);
            goto fail;
        }
        cpu_gen_init(&s->gen[i], a, &c->gen, c->cpu_base + i * cpu_stride(c), seed * 1000003 + i);
        s->cpu[i] = cpu_core_new(&c->cpu, cpu_gen_source, &s->gen[i], err, errlen);
        if (!s->cpu[i]) goto fail;
    }
    if (gpu == CM_GPU_STREAM) {
        gpu_traffic_config g = {c->gpu_cores, c->gpu_outstanding, c->gpu_base, c->gpu_bytes, c->mem.line_bytes};
        s->gt = gpu_traffic_new(&g);
        if (!s->gt) goto oom;
    }
    s->f_core = (uint64_t)llround(c->mem.core_mhz * 1000);
    s->f_cpu = (uint64_t)llround(c->cpu.clock_mhz * 1000);
    cm_reset_stats(s);
    return s;
oom:
    snprintf(err, errlen, "cm: out of memory");
fail:
    cm_free(s);
    return NULL;
}

void cm_gpu_on(cm_sys *s, bool on) { s->gpu_on = on; }

static void close_interval(cm_sys *s) {
    if (s->n_iv == s->cap_iv) {
        unsigned cap = s->cap_iv ? 2 * s->cap_iv : 256;
        cm_interval *p = realloc(s->iv, cap * sizeof *p);
        if (!p) return;
        s->iv = p;
        s->cap_iv = cap;
    }
    cm_interval *v = &s->iv[s->n_iv++];
    memset(v, 0, sizeof *v);
    uint64_t cyc = s->cpu_now - s->iv_cpu0;
    for (unsigned i = 0; i < s->c.cpu_cores; i++) {
        cpu_stats st;
        cpu_core_stats(s->cpu[i], &st);
        v->cpu_ipc[i] = cyc ? (double)(st.retired - s->iv_ret[i]) / (double)cyc : 0;
        s->iv_ret[i] = st.retired;
    }
    uint64_t lines = s->gt ? gpu_traffic_lines(s->gt) : 0;
    v->gpu_ipc = -1; /* no SIMT kernel on this machine yet */
    v->gpu_lines = (double)(lines - s->iv_lines) / (double)(s->tick - s->iv_start);
    v->stall_mc = s->iv_mc;
    v->stall_net = s->iv_net;
    s->iv_lines = lines;
    s->iv_mc = s->iv_net = 0;
    s->iv_start = s->tick;
    s->iv_cpu0 = s->cpu_now;
}

void cm_tick(cm_sys *s) {
    const cm_config *c = &s->c;
    /* 1. responses of the last mem_tick */
    for (unsigned i = 0; i < c->cpu_cores; i++) {
        const mem_rsp *r;
        while ((r = mem_rsp_peek(s->m, c->cpu_port0 + i))) {
            cpu_core_fill(s->cpu[i], r->id);
            mem_rsp_pop(s->m, c->cpu_port0 + i);
        }
    }
    /* 2. the CPU cycles before GPU tick n + 1 */
    uint64_t to = (s->tick + 1) * s->f_cpu / s->f_core;
    for (; s->cpu_now < to; s->cpu_now++)
        for (unsigned i = 0; i < c->cpu_cores; i++) cpu_core_cycle(s->cpu[i]);
    /* 3. one request per CPU port */
    for (unsigned i = 0; i < c->cpu_cores; i++) {
        const cpu_req *q = cpu_core_req(s->cpu[i]);
        if (!q) continue;
        mem_req r = {.id = q->id, .addr = q->addr, .bmask = {~0ull, ~0ull}, .op = q->write ? MEM_WRITE : MEM_READ,
                     .src = MEM_SRC_CPU, .kind = MEM_K_DATA, .fe_trig = MEM_FE_DEFAULT,
                     .fe_act = MEM_FE_DEFAULT, .amo_ops = 1};
        if (c->mem.line_bytes < 128) {
            r.bmask[1] = 0;
            r.bmask[0] = c->mem.line_bytes == 64 ? ~0ull : (1ull << c->mem.line_bytes) - 1;
        }
        int rc = mem_send(s->m, c->cpu_port0 + i, &r);
        if (!rc) cpu_core_req_pop(s->cpu[i]);
        else if (rc < 0 && !s->err[0]) snprintf(s->err, sizeof s->err, "CPU core %u: %s", i, mem_error(s->m));
    }
    /* 4. the GPU side, the memory system */
    if (s->gt) gpu_traffic_tick(s->gt, s->m, s->gpu_on);
    mem_tick(s->m);
    /* 5. congestion (CM 4.1) */
    for (unsigned p = 0; p < c->mem.partitions; p++) {
        bool mc, net;
        mem_partition_stall(s->m, p, &mc, &net);
        s->iv_mc += mc;
        s->iv_net += net;
        s->mc += mc;
        s->net += net;
    }
    s->tick++;
    if (s->tick - s->iv_start == c->interval) close_interval(s);
}

uint64_t cm_cycle(const cm_sys *s) { return s->tick; }
uint64_t cm_cpu_cycle(const cm_sys *s) { return s->cpu_now; }
const cpu_core *cm_cpu(const cm_sys *s, unsigned i) { return i < s->c.cpu_cores ? s->cpu[i] : NULL; }
mem_system *cm_mem(cm_sys *s) { return s->m; }
const char *cm_error(const cm_sys *s) { return s->err[0] ? s->err : mem_error(s->m); }

uint64_t cm_min_retired(const cm_sys *s) {
    uint64_t m = UINT64_MAX;
    for (unsigned i = 0; i < s->c.cpu_cores; i++) {
        cpu_stats st;
        cpu_core_stats(s->cpu[i], &st);
        if (st.retired < m) m = st.retired;
    }
    return m;
}

void cm_reset_stats(cm_sys *s) {
    for (unsigned i = 0; i < s->c.cpu_cores; i++) {
        cpu_core_reset_stats(s->cpu[i]);
        s->iv_ret[i] = 0;
    }
    s->t0 = s->iv_start = s->tick;
    s->cpu0 = s->iv_cpu0 = s->cpu_now;
    s->mc = s->net = s->iv_mc = s->iv_net = 0;
    s->lines0 = s->iv_lines = s->gt ? gpu_traffic_lines(s->gt) : 0;
    s->n_iv = 0;
}

unsigned cm_intervals(const cm_sys *s) { return s->n_iv; }
const cm_interval *cm_interval_at(const cm_sys *s, unsigned i) { return i < s->n_iv ? &s->iv[i] : NULL; }

void cm_get_totals(const cm_sys *s, cm_totals *t) {
    t->cycles = s->tick - s->t0;
    t->cpu_cycles = s->cpu_now - s->cpu0;
    t->stall_mc = s->mc;
    t->stall_net = s->net;
    t->gpu_lines = (s->gt ? gpu_traffic_lines(s->gt) : 0) - s->lines0;
}
