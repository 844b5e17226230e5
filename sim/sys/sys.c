/* sys: the event loop of the launch-path system and its wiring: the GPU,
 * the EDGE front-end, the NIC (nic.c) and the host (host_api.c) as device
 * models behind their ports, the PCIe links between them.  See sys.h and
 * docs/LAUNCH_PATH.md for the path of one event and each latency. */
#include "sys.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/ev_work.h"
#include "work/ipv4_work.h"

/* ------------------------------------------------------------ parameters */
void sys_params_default(sys_params *p) {
    memset(p, 0, sizeof *p);
    gpu_config_default(&p->gpu);
    pcie_params_default(&p->pcie);
    host_params_default(&p->host);
    edge_fe_params_default(&p->edge);
    nic_params_default(&p->nic);
    route_gen_params_default(&p->routes);
    p->cpu_poll_ns = 100.0;
    p->count_cq_write = true;
    p->gap_ns = 2000.0;
    snprintf(p->kernel_elf, sizeof p->kernel_elf, "build/sw/ipv4_fwd.elf");
    snprintf(p->ring_kernel_elf, sizeof p->ring_kernel_elf, "build/sw/ipv4_fwd_ring.elf");
    p->seed = 1;
    p->max_cycles = 2000000000ull;
}

unsigned sys_params_blocks(const sys_params *p, fg_block_use *out, unsigned max) {
    const fg_block_use fe[] = {{"edge_doorbell", p->edge.impl}, {"edge_ekt", p->edge.impl}};
    unsigned n = 0;
    for (; n < 2 && n < max; n++) out[n] = fe[n];
    return n + gpu_config_blocks(&p->gpu, out + n, max - n);
}

int sys_params_load(sys_params *p, fg_config *cfg, char *err, size_t errlen) {
    if (gpu_config_load(&p->gpu, cfg, err, errlen) || pcie_params_load(&p->pcie, cfg, err, errlen) ||
        host_params_load(&p->host, cfg, err, errlen) ||
        edge_fe_params_load(&p->edge, cfg, err, errlen) ||
        nic_params_load(&p->nic, cfg, err, errlen) ||
        route_gen_params_load(&p->routes, cfg, err, errlen))
        return -1;
    if (fg_config_double(cfg, "host", "poll_ns", 0, 1e9, &p->cpu_poll_ns, err, errlen) ||
        fg_config_bool(cfg, "launch_latency", "count_cq_write", &p->count_cq_write, err, errlen) ||
        fg_config_double(cfg, "launch_latency", "gap_ns", 0, 1e9, &p->gap_ns, err, errlen) ||
        fg_config_u64(cfg, "sys", "seed", 0, UINT64_MAX, &p->seed, err, errlen) ||
        fg_config_u64(cfg, "sys", "max_cycles", 1, UINT64_MAX, &p->max_cycles, err, errlen) ||
        fg_config_bool(cfg, "sys", "corrupt_table", &p->corrupt_table, err, errlen))
        return -1;
    const char *k = fg_config_str(cfg, "sys", "kernel_elf");
    if (k) snprintf(p->kernel_elf, sizeof p->kernel_elf, "%s", k);
    if ((k = fg_config_str(cfg, "sys", "ring_kernel_elf"))) snprintf(p->ring_kernel_elf, sizeof p->ring_kernel_elf, "%s", k);
    if (p->nic.slots > (1u << p->edge.ekt.maxev_w) - 1) {
        snprintf(err, errlen, "[nic] slots %u exceeds the EKT's maxNumEvents range", p->nic.slots);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ actions */
/* The system's own actions (the NIC's are nic.h's NIC_*). */
enum { A_DB_ARRIVE, A_HOST_NOTIFY, A_KMU, A_GPU_LAUNCH };
enum { DEV_SYS, DEV_NIC }; /* whose action */

typedef struct {
    double t;
    uint64_t seq; /* FIFO among equal times */
    unsigned dev, type;
    uint64_t ev;
} action;

typedef struct { /* one event's timeline at the GPU and the host (the NIC's: nic_event) */
    double t_db_vis, t_start, t_ret, t_at_gpu, t_done, t_cq;
    uint64_t c_write, c_desc, c_dispatch, c_first, c_done, c_kmu;
    uint64_t wr_addr;    /* the NIC's posted write to the front-end (its doorbell) */
    uint32_t wr_data;
    bool dma_acked;      /* every DMA write of the NIC's for it is acknowledged */
    bool gate;           /* the doorbell (EDGE) or the launch (baseline) waits for them */
    bool first_seen;
} evrec;

typedef struct {
    const sys_params *p;
    sys_path path;
    uint64_t n_events;
    double period; /* ns per GPU cycle */
    gpu_t *gpu;
    edge_fe *fe;
    ipv4_work w;   /* the GPU side: route table, kernel, parameter slots, buffers */
    nic nic;
    host_cpu host;
    pcie_link nic_gpu, nic_host, host_gpu;
    action *heap;
    size_t nheap, capheap;
    uint64_t seq;
    evrec *ev;
    unsigned ekt_id;
    uint64_t cycle;
    sys_result *r;
    int failed;
    char *err;
    size_t errlen;
} sys;

static int push(sys *s, double t, unsigned dev, unsigned type, uint64_t ev) {
    if (s->nheap == s->capheap) {
        size_t c = s->capheap ? 2 * s->capheap : 256;
        action *h = realloc(s->heap, c * sizeof *h);
        if (!h) return -1;
        s->heap = h;
        s->capheap = c;
    }
    action a = {t, s->seq++, dev, type, ev};
    size_t i = s->nheap++;
    while (i) {
        size_t par = (i - 1) / 2;
        action *q = &s->heap[par];
        if (q->t < a.t || (q->t == a.t && q->seq < a.seq)) break;
        s->heap[i] = *q;
        i = par;
    }
    s->heap[i] = a;
    return 0;
}

static action pop(sys *s) {
    action top = s->heap[0], last = s->heap[--s->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->nheap) break;
        if (c + 1 < s->nheap && (s->heap[c + 1].t < s->heap[c].t ||
                                 (s->heap[c + 1].t == s->heap[c].t && s->heap[c + 1].seq < s->heap[c].seq)))
            c++;
        if (last.t < s->heap[c].t || (last.t == s->heap[c].t && last.seq < s->heap[c].seq)) break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    s->heap[i] = last;
    return top;
}

static void fail(sys *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(sys *s, const char *fmt, ...) {
    if (s->failed) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->err, s->errlen, fmt, ap);
    va_end(ap);
    s->failed = 1;
}

static double now_ns(const sys *s) { return (double)s->cycle * s->period; }

/* warp_event: EDGE path (an EKT evw descriptor goes to a core's PEWT, EDGE IV-C) */
static void gpu_launch_event(sys *s, uint64_t e, unsigned prio, bool warp_event) {
    gpu_launch_desc d = ipv4_work_desc(&s->w, s->nic.ev[e].slot, IPV4_PKTS_PER_EVENT, prio, e);
    d.warp_event = warp_event; /* false: the baseline's kernel launch path */
    char err[256];
    if (gpu_launch(s->gpu, &d, err, sizeof err)) fail(s, "gpu_launch: %s", err);
}

/* The NIC's doorbell write reaches the doorbell decoder. */
static void doorbell(sys *s, uint64_t e) {
    if (edge_fe_write(s->fe, s->ev[e].wr_addr, s->ev[e].wr_data, e)) fail(s, "out of memory");
}

/* Harness: a slot's results poisoned so a kernel that does not write one
 * is caught (the untimed backdoor: a check, not device traffic). */
static void poison_results(sys *s, unsigned slot) {
    uint32_t poison[IPV4_PKTS_PER_EVENT];
    memset(poison, 0xA5, sizeof poison);
    gpu_mem_write(s->gpu, s->w.out_base + (uint64_t)slot * IPV4_PKTS_PER_EVENT * 4, poison, sizeof poison);
}

/* ------------------------------------------------------------ the NIC's port */
static int port_at(void *u, double t, unsigned what, uint64_t e) { return push(u, t, DEV_NIC, what, e); }

static int port_dma_write(void *u, uint64_t addr, const void *src, size_t len, double bpc, dev_dma_cb cb,
                          void *user, uint64_t tag) {
    return gpu_dma_write(((sys *)u)->gpu, addr, src, len, bpc, cb, user, tag);
}

static int port_dma_read(void *u, uint64_t addr, size_t len, double bpc, dev_dma_cb cb, void *user, uint64_t tag) {
    return gpu_dma_read(((sys *)u)->gpu, addr, len, bpc, cb, user, tag);
}

static int port_dma_fill(void *u, uint64_t addr, const void *src, size_t len, double bpc, dev_dma_cb cb, void *user,
                         uint64_t tag) {
    return ev_ring_dma(((sys *)u)->gpu, addr, src, len, bpc, cb, user, tag);
}

static unsigned port_dma_free(void *u) { return gpu_dma_free(((sys *)u)->gpu); }

/* The NIC's posted write arrives: its doorbell at the front-end (acting
 * once its DMA writes are acknowledged, A_DB_ARRIVE) or its task notice in
 * host memory (A_HOST_NOTIFY). */
static void port_post(void *u, double t, unsigned target, uint64_t addr, uint32_t data, uint64_t e) {
    sys *s = u;
    s->ev[e].wr_addr = addr;
    s->ev[e].wr_data = data;
    if (push(s, t, DEV_SYS, target == DEV_TO_GPU_MMIO ? A_DB_ARRIVE : A_HOST_NOTIFY, e)) fail(s, "out of memory");
}

/* The NIC's DMA writes of event e are acknowledged: a doorbell (EDGE) or a
 * launch (baseline) that came after them may now take effect (PCIe
 * posted-write order). */
static void port_dma_acked(void *u, uint64_t e, double t) {
    sys *s = u;
    evrec *v = &s->ev[e];
    v->dma_acked = true;
    if (!v->gate) return;
    v->gate = false;
    if (s->path == SYS_EDGE) {
        v->t_db_vis = t;
        doorbell(s, e);
    } else {
        gpu_launch_event(s, e, 0, false);
    }
}

static void port_checked(void *u, uint64_t e) {
    sys *s = u;
    poison_results(s, s->nic.ev[e].slot);
}

static void port_fail(void *u, const char *msg) { fail(u, "%s", msg); }

static void act(sys *s, const action *a) {
    uint64_t e = a->ev;
    evrec *v = &s->ev[e];
    switch (a->type) {
    case A_DB_ARRIVE: /* the doorbell write reaches the GPU front-end, once the
                       * DMA writes before it are acknowledged (posted-write
                       * order); an early doorbell at once (the ring's F/E
                       * bits hold the kernel's loads instead) */
        v->t_db_vis = a->t;
        if (!v->dma_acked && !s->p->nic.early) v->gate = true;
        else doorbell(s, e);
        break;
    case A_HOST_NOTIFY: /* baseline: a polling CPU thread launches the kernel (Fig. 8b) */
        host_cpu_notice(&s->host, a->t, &v->t_start, &v->t_ret, &v->t_at_gpu);
        if (push(s, v->t_at_gpu, DEV_SYS, A_KMU, e)) fail(s, "out of memory");
        break;
    case A_KMU: /* baseline: the launch command is in the KMU; dispatch follows */
        v->c_kmu = s->cycle;
        v->c_dispatch = s->cycle + s->p->edge.dispatch_cycles;
        if (push(s, (double)v->c_dispatch * s->period, DEV_SYS, A_GPU_LAUNCH, e)) fail(s, "out of memory");
        break;
    case A_GPU_LAUNCH: /* (the packets are long in memory by now; the gate is for correctness) */
        if (!v->dma_acked) v->gate = true;
        else gpu_launch_event(s, e, 0, false);
        break;
    }
}

/* ------------------------------------------------------------ callbacks */
static void cb_first(void *u, uint64_t tag, uint64_t cycle) {
    sys *s = u;
    if (tag >= s->n_events) return; /* setup kernels */
    s->ev[tag].c_first = cycle;
    s->ev[tag].first_seen = true;
}

static void cb_complete(void *u, uint64_t tag, uint64_t cycle) {
    sys *s = u;
    if (tag >= s->n_events) return;
    evrec *v = &s->ev[tag];
    v->c_done = cycle;
    v->t_done = (double)cycle * s->period;
    if (s->path == SYS_EDGE) {
        /* completion: free the in-flight event in the EKT and write the
         * completion-queue flag in device memory (EDGE III-B/C) */
        if (edge_fe_complete(s->fe, s->ekt_id)) fail(s, "out of memory");
        v->t_cq = pcie_link_write(&s->nic_gpu, PCIE_FROM_GPU, v->t_done, 4);
    } else {
        /* baseline: the host's completion thread sits in a stream
         * synchronize, then tells the device over PCIe */
        v->t_cq = pcie_link_write(&s->nic_host, PCIE_FROM_GPU, host_cpu_complete(&s->host, v->t_done), 8);
    }
    nic_mem_write(&s->nic, NIC_CQ_BASE + (uint64_t)s->nic.ev[tag].slot * NIC_CQ_STEP, CQ_DONE, v->t_cq);
}

static void fe_launch(void *u, const edge_fe_event *x) {
    sys *s = u;
    if (x->key >= s->n_events) {
        fail(s, "front-end launched an event with unknown key %llu", (unsigned long long)x->key);
        return;
    }
    evrec *v = &s->ev[x->key];
    uint64_t want = ipv4_work_param(&s->w, s->nic.ev[x->key].slot);
    if (x->param_addr != want || x->kernel_ptr != s->w.k.entry || !x->single)
        fail(s, "EKT descriptor of event %llu: param 0x%llx (expected 0x%llx), kernel 0x%llx, %s",
             (unsigned long long)x->key, (unsigned long long)x->param_addr,
             (unsigned long long)want, (unsigned long long)x->kernel_ptr,
             x->single ? "single warp" : "not single warp");
    v->c_write = x->c_write;
    v->c_desc = x->c_desc;
    v->c_dispatch = x->c_dispatch;
    gpu_launch_event(s, x->key, x->prio, true);
}

static void fe_error(void *u, const char *msg, uint64_t key, uint64_t cycle) {
    sys *s = u;
    s->r->errors++;
    if (!s->r->first_error[0])
        snprintf(s->r->first_error, sizeof s->r->first_error, "cycle %llu, event %lld: %s",
                 (unsigned long long)cycle, key == UINT64_MAX ? -1LL : (long long)key, msg);
}

/* An ordinary device write the doorbell decoder passed through: a timed
 * write into GPU memory through the host port. */
static void fe_passthrough(void *u, uint64_t addr, uint32_t data) {
    sys *s = u;
    int rc = gpu_dma_write(s->gpu, addr, &data, 4, 0, NULL, NULL, 0);
    if (rc < 0) fail(s, "pass-through write outside GPU memory");
    else if (rc > 0) fail(s, "pass-through write: host DMA queue full");
}

/* ------------------------------------------------------------ the loop */
static int tick(sys *s) {
    while (s->nheap && s->heap[0].t <= now_ns(s) + 1e-9) {
        action a = pop(s);
        if (a.dev == DEV_NIC) nic_act(&s->nic, a.type, a.ev, a.t);
        else act(s, &a);
    }
    char err[512];
    if (edge_fe_step(s->fe, err, sizeof err)) fail(s, "%s", err);
    gpu_tick(s->gpu);
    if (gpu_error(s->gpu)) fail(s, "GPU fault: %s", gpu_error(s->gpu));
    s->cycle++;
    if (s->cycle > s->p->max_cycles) fail(s, "run exceeded [sys] max_cycles = %llu", (unsigned long long)s->p->max_cycles);
    return s->failed ? -1 : 0;
}

static int tick_void(void *s) { return tick(s); }

/* EDGE API (EDGE Table I): edgeRegisterEvent -> doorbell id. */
static int edge_register_event(sys *s, uint64_t sq, unsigned entries, unsigned *id) {
    /* a kernel that can never run on a core is refused before the EKT */
    char why[256];
    const gpu_launch_desc d = ipv4_work_desc(&s->w, 0, IPV4_PKTS_PER_EVENT, 1, 0);
    if (gpu_launch_check(s->gpu, &d, why, sizeof why)) {
        fail(s, "edgeRegisterEvent refused: %s", why);
        return -1;
    }
    edge_fe_cmd c = {0};
    c.op = EKT_OP_REG;
    c.kernel_ptr = s->w.k.entry;
    c.param_base = sq;
    c.param_size = s->w.param_bytes;
    c.param_end = sq + (uint64_t)(entries - 1) * s->w.param_bytes;
    c.grid[0] = c.grid[1] = c.grid[2] = 1;
    c.block[0] = IPV4_PKTS_PER_EVENT, c.block[1] = c.block[2] = 1;
    c.shmem = s->w.k.static_shmem;
    c.prio = 1;
    c.max_events = entries;
    if (edge_fe_command(s->fe, &c)) return -1;
    edge_fe_rsp r;
    for (unsigned i = 0; i < 1000; i++) {
        if (tick(s)) return -1;
        if (edge_fe_response(s->fe, &r)) {
            if (r.status != EKT_RSP_OK) {
                fail(s, "edgeRegisterEvent: EKT refused (status %u%s)", r.status,
                     r.status == EKT_RSP_BUF_SHORT ? ": the parameter buffer holds fewer than maxNumEvents entries"
                                                   : "");
                return -1;
            }
            *id = r.id;
            return 0;
        }
    }
    fail(s, "edgeRegisterEvent: no response from the EKT");
    return -1;
}

static int edge_unregister_event(sys *s, unsigned id) {
    edge_fe_cmd c = {0};
    c.op = EKT_OP_UNREG;
    c.id = id;
    if (edge_fe_command(s->fe, &c)) return -1;
    edge_fe_rsp r;
    for (unsigned i = 0; i < 1000; i++) {
        if (tick(s)) return -1;
        if (edge_fe_response(s->fe, &r)) {
            if (r.status != EKT_RSP_OK) fail(s, "edgeUnregisterEvent: status %u", r.status);
            return s->failed ? -1 : 0;
        }
    }
    fail(s, "edgeUnregisterEvent: no response");
    return -1;
}

static int setup(sys *s) {
    const sys_params *p = s->p;
    char e2[256];
    unsigned slots = p->nic.slots;
    s->gpu = gpu_new(&p->gpu, e2, sizeof e2);
    if (!s->gpu) return fail(s, "gpu: %s", e2), -1;
    gpu_callbacks cb = {cb_first, cb_complete, s};
    gpu_set_callbacks(s->gpu, &cb);
    /* the GPU side: route table, kernel, buffers, and the parameter memory
     * pre-configured once (EDGE III-B, Fig. 8: configureEdgeParamMemory /
     * configureBaseParamMem), each entry naming its slot's completion flag
     * in the NIC's memory */
    ipv4_work_opts o = {NIC_CQ_BASE, NIC_CQ_STEP, p->corrupt_table, p->nic.ring_sync ? EV_RING_SYNC : EV_RING_PLAIN};
    const uint64_t sync_lo = gpu_sync_brk(s->gpu);
    if (ipv4_work_init_opts(&s->w, s->gpu, &p->routes, p->nic.ring_sync ? p->ring_kernel_elf : p->kernel_elf, slots,
                            &o, s->err, s->errlen))
        return -1;
    edge_fe_callbacks fcb = {fe_launch, fe_error, fe_passthrough, s};
    s->fe = edge_fe_new(&p->edge, &fcb, e2, sizeof e2);
    if (!s->fe) return fail(s, "edge front-end: %s", e2), -1;
    /* the driver marks the ring empty before the device starts (the system
     * ticks, so every part counts the same cycles) */
    if (p->nic.ring_sync && ev_ring_setup_ticked(s->gpu, sync_lo, gpu_sync_brk(s->gpu), "[nic]", tick_void, s,
                                                 s->err, s->errlen))
        return -1;
    for (unsigned i = 0; i < slots; i++) poison_results(s, i);
    pcie_link_init(&s->nic_gpu, &p->pcie);
    pcie_link_init(&s->nic_host, &p->pcie);
    pcie_link_init(&s->host_gpu, &p->pcie);
    host_cpu_init(&s->host, &p->host, &s->host_gpu, p->cpu_poll_ns);
    dev_port port = {s,           s->period,     &s->nic_gpu,    &s->nic_host,   port_at,      port_dma_write,
                     port_dma_fill, port_dma_read, port_dma_free, port_post, port_dma_acked, port_checked,
                     port_fail};
    if (nic_init(&s->nic, &p->nic, &port, &p->routes, s->w.routes, s->w.n_routes, s->w.ref, p->seed, s->err,
                 s->errlen))
        return -1;
    if (s->path == SYS_EDGE && edge_register_event(s, s->w.sq_base, slots, &s->ekt_id)) return -1;
    return 0;
}

static void summarize(sys *s) {
    sys_result *r = s->r;
    const nic_stats *ns = &s->nic.st;
    double P = s->period;
    for (uint64_t e = 0; e < s->n_events; e++) {
        evrec *v = &s->ev[e];
        const nic_event *nv = &s->nic.ev[e];
        if (!nv->done || !v->first_seen) continue;
        double t_first = (double)v->c_first * P;
        sys_stat_add(&r->to_first_ns, t_first - nv->t_req);
        sys_stat_add(&r->kernel_cycles, (double)(v->c_done - v->c_first));
        r->before_data += t_first < nv->t_dma_done;
        if (s->path == SYS_EDGE) {
            double cq = v->t_cq - v->t_done;
            sys_stat_add(&r->launch_ns, t_first - nv->t_req + (s->p->count_cq_write ? cq : 0));
            sys_stat_add(&r->pcie_db_ns, nv->t_db - nv->t_req);
            sys_stat_add(&r->dma_wait_ns, v->t_db_vis - nv->t_db);
            sys_stat_add(&r->pcie_cq_ns, cq);
            sys_stat_add(&r->quant_ns, (double)v->c_write * P - v->t_db_vis);
            sys_stat_add(&r->fe_cycles, (double)(v->c_desc - v->c_write + 1));
            sys_stat_add(&r->dispatch_cycles, (double)(v->c_dispatch - v->c_desc - 1));
            sys_stat_add(&r->simt_cycles, (double)(v->c_first - v->c_dispatch));
        } else {
            sys_stat_add(&r->launch_ns, t_first - v->t_start);
            sys_stat_add(&r->notify_ns, v->t_start - nv->t_req);
            sys_stat_add(&r->call_ns, v->t_ret - v->t_start);
            sys_stat_add(&r->driver_ns, v->t_at_gpu - v->t_ret);
            sys_stat_add(&r->kmu_quant_ns, (double)v->c_kmu * P - v->t_at_gpu);
            sys_stat_add(&r->dispatch_cycles, (double)(v->c_dispatch - v->c_kmu));
            sys_stat_add(&r->simt_cycles, (double)(v->c_first - v->c_dispatch));
        }
    }
    r->events = ns->finished;
    r->packets = ns->checked;
    r->wrong = ns->wrong;
    r->routed = ns->routed;
    r->dropped = ns->dropped;
    r->noroute = ns->noroute;
    snprintf(r->first_wrong, sizeof r->first_wrong, "%s", ns->first_wrong);
    r->dma_ns = ns->dma_ns;
    r->read_ns = ns->read_ns;
    r->pkt_latency_ns = ns->pkt_latency_ns;
    r->first_arrival_ns = ns->first_arrival_ns;
    r->last_result_ns = ns->last_result_ns;
    double span = r->last_result_ns - r->first_arrival_ns;
    r->throughput_mpps = span > 0 ? (double)r->packets / span * 1000.0 : 0;
    r->gpu_cycles = s->cycle;
    gpu_get_stats(s->gpu, &r->gpu);
    r->warp_instrs = r->gpu.warp_instrs;
    r->thread_instrs = r->gpu.thread_instrs;
    edge_fe_get_stats(s->fe, &r->fe);
}

/* Where the driver maps the NIC's slots (EDGE III-B): the packets and the
 * count of ipv4_work's slot regions, plain or in the ring. */
static void nic_slots(const ipv4_work *w, nic_map *m) {
    ev_io a, b;
    char e[128];
    ipv4_work_io(w, 0, 1, &a, e, sizeof e);
    ipv4_work_io(w, w->slots > 1 ? 1 : 0, 1, &b, e, sizeof e);
    m->pkt_base = a.in[0].addr;
    m->pkt_step = b.in[0].addr - a.in[0].addr;
    m->cnt_base = a.in[1].addr;
    m->cnt_step = b.in[1].addr - a.in[1].addr;
}

int sys_run(const sys_params *p, sys_path path, bool closed_loop, uint64_t n_events, sys_result *r,
            char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    r->first_arrival_ns = -1;
    sys s = {0};
    s.p = p;
    s.path = path;
    s.n_events = n_events;
    s.period = 1000.0 / p->gpu.clock_mhz;
    s.r = r;
    s.err = err;
    s.errlen = errlen;
    s.ev = calloc(n_events ? n_events : 1, sizeof *s.ev);
    if (!s.ev) fail(&s, "out of memory");
    if (path == SYS_BASELINE && p->nic.early)
        fail(&s, "[nic] doorbell = early needs the EDGE path: the baseline has no doorbell, its task notice follows "
                 "the data");
    if (!s.failed && !setup(&s)) {
        /* the driver has configured the NIC: packets arrive from the end of setup on */
        nic_map m = {0};
        nic_slots(&s.w, &m);
        m.out_base = s.w.out_base;
        m.doorbell = path == SYS_EDGE;
        m.doorbell_addr = path == SYS_EDGE ? edge_fe_doorbell_addr(s.fe, s.ekt_id) : 0;
        nic_traffic tr = {n_events, closed_loop, p->gap_ns, now_ns(&s)};
        if (nic_run(&s.nic, &m, &tr)) fail(&s, "out of memory");
        while (!s.failed &&
               (s.nic.st.finished < n_events || s.nheap || !edge_fe_idle(s.fe) || !gpu_idle(s.gpu)))
            if (tick(&s)) break;
        if (!s.failed && path == SYS_EDGE) edge_unregister_event(&s, s.ekt_id);
        if (!s.failed) summarize(&s);
    }
    int rc = s.failed ? -1 : 0;
    if (s.fe) edge_fe_free(s.fe);
    if (s.gpu) gpu_free(s.gpu);
    nic_free(&s.nic);
    free(s.heap);
    free(s.ev);
    ipv4_work_free(&s.w);
    return rc;
}
