/* sys: the event loop of the launch-path system; see sys.h and
 * docs/LAUNCH_PATH.md for the path of one event and each latency. */
#include "sys.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    if (p->nic.slots > (1u << p->edge.ekt.maxev_w) - 1) {
        snprintf(err, errlen, "[nic] slots %u exceeds the EKT's maxNumEvents range", p->nic.slots);
        return -1;
    }
    return 0;
}

void sys_stat_add(sys_stat *s, double v) {
    if (!s->n || v < s->min) s->min = v;
    if (!s->n || v > s->max) s->max = v;
    s->sum += v;
    s->n++;
}
double sys_stat_avg(const sys_stat *s) { return s->n ? s->sum / (double)s->n : 0.0; }

/* ------------------------------------------------------------ actions */
enum { A_BATCH, A_DMA_START, A_DB_ARRIVE, A_HOST_NOTIFY, A_KMU, A_GPU_LAUNCH, A_NIC_DONE, A_READ_START, A_RESULTS };

typedef struct {
    double t;
    uint64_t seq; /* FIFO among equal times */
    unsigned type;
    uint64_t ev;
} action;

typedef struct { /* one event's timeline */
    double t_ready, t_req, t_db, t_db_vis, t_start, t_ret, t_at_gpu, t_done, t_cq, t_results;
    double t_dma0, t_dma_done, t_rd0, t_rd;
    uint64_t c_write, c_desc, c_dispatch, c_first, c_done, c_kmu;
    unsigned slot, cnt;
    unsigned dma_left;   /* packet DMA writes not acknowledged yet */
    bool gate;           /* the doorbell (EDGE) or the launch (baseline) waits for them */
    bool first_seen, done;
    uint32_t res[IPV4_PKTS_PER_EVENT]; /* results as the NIC read them back */
} evrec;

typedef struct {
    const sys_params *p;
    sys_path path;
    bool closed;
    uint64_t n_events;
    double period; /* ns per GPU cycle */
    double t0;     /* end of setup: open-loop arrivals count from here */
    gpu_t *gpu;
    edge_fe *fe;
    ipv4_work w; /* the GPU side: route table, kernel, parameter slots, buffers */
    nic nic;
    pcie_link nic_gpu, nic_host, host_gpu;
    host_api host;
    double cpu_launch_free, cpu_cpl_free;
    action *heap;
    size_t nheap, capheap;
    uint64_t seq;
    evrec *ev;
    uint64_t started, finished;
    uint64_t next_batch; /* saturated mode: next batch number to make ready */
    sys_queue waiting; /* uint64_t event numbers: batches ready, no free slot */
    uint8_t *stage;      /* per slot: the packets the NIC DMAs (the device's buffer) */
    double link_bpc;     /* PCIe bytes per GPU cycle: the host port's DMA rate */
    unsigned ekt_id;
    uint64_t cycle;
    sys_result *r;
    int failed;
    char *err;
    size_t errlen;
} sys;

static int push(sys *s, double t, unsigned type, uint64_t ev) {
    if (s->nheap == s->capheap) {
        size_t c = s->capheap ? 2 * s->capheap : 256;
        action *h = realloc(s->heap, c * sizeof *h);
        if (!h) return -1;
        s->heap = h;
        s->capheap = c;
    }
    action a = {t, s->seq++, type, ev};
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
static double poll_up(double t, double period) { return period > 0 ? ceil(t / period) * period : t; }

/* ------------------------------------------------------------ NIC side */
static void doorbell(sys *s, uint64_t e);
static void gpu_launch_event(sys *s, uint64_t e, unsigned prio, bool warp_event);

/* Both DMA writes of an event are acknowledged: a doorbell (EDGE) or a
 * launch (baseline) that came after them may now take effect. */
static void cb_dma(void *u, uint64_t e, uint64_t cycle, const void *data, size_t len) {
    sys *s = u;
    evrec *v = &s->ev[e];
    (void)data, (void)len;
    if (--v->dma_left) return;
    v->t_dma_done = (double)cycle * s->period;
    sys_stat_add(&s->r->dma_ns, v->t_dma_done - v->t_dma0);
    if (!v->gate) return;
    v->gate = false;
    if (s->path == SYS_EDGE) {
        v->t_db_vis = v->t_dma_done;
        doorbell(s, e);
    } else {
        gpu_launch_event(s, e, 0, false);
    }
}

/* The packets and the packet count reach the GPU's host port (first byte at
 * t): line writes through the memory system at the link's rate. */
static void dma_start(sys *s, uint64_t e, double t) {
    evrec *v = &s->ev[e];
    uint64_t pk = s->w.pkt_base + (uint64_t)v->slot * IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES;
    uint64_t np = s->w.sq_base + (uint64_t)v->slot * sizeof(ipv4_params) + offsetof(ipv4_params, npkts);
    uint32_t n32 = v->cnt;
    if (gpu_dma_free(s->gpu) < 2) { /* the host DMA queue is full: the link holds the data a cycle */
        if (push(s, t + s->period, A_DMA_START, e)) fail(s, "out of memory");
        return;
    }
    v->t_dma0 = t;
    v->dma_left = 2;
    if (gpu_dma_write(s->gpu, pk, s->stage + (size_t)v->slot * IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES,
                      (size_t)v->cnt * IPV4_PKT_BYTES, s->link_bpc, cb_dma, s, e) ||
        gpu_dma_write(s->gpu, np, &n32, 4, s->link_bpc, cb_dma, s, e))
        fail(s, "NIC DMA outside GPU memory");
}

static void start_batch(sys *s, uint64_t e, double t) {
    evrec *v = &s->ev[e];
    unsigned cnt = s->p->nic.pkts_per_event;
    double arrive[IPV4_PKTS_PER_EVENT];
    double rate = s->p->nic.rate_mpps;
    for (unsigned i = 0; i < cnt; i++)
        arrive[i] = s->closed || rate <= 0 ? v->t_ready
                                           : s->t0 + (double)(e * cnt + i) * 1000.0 / rate;
    uint8_t buf[IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES];
    unsigned slot = nic_start(&s->nic, e, arrive, cnt, buf);
    v->slot = slot;
    v->cnt = cnt;
    memcpy(s->stage + (size_t)slot * IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES, buf, (size_t)cnt * IPV4_PKT_BYTES);
    /* DMA the packets and the packet count into the slot's GPU buffers: the
     * link serializes them (pcie.c); their lines enter the GPU's memory
     * system from the first byte's arrival on (cb_dma when acknowledged) */
    uint64_t bytes = (uint64_t)cnt * IPV4_PKT_BYTES + 4;
    double t_data = pcie_link_write(&s->nic_gpu, PCIE_TO_GPU, t, bytes);
    v->dma_left = 2;
    if (push(s, t_data - pcie_xfer_ns(&s->p->pcie, bytes), A_DMA_START, e)) fail(s, "out of memory");
    /* the launch request is issued once the data has left the NIC; posted
     * writes stay ordered, so it never overtakes the data */
    v->t_req = t_data - s->p->pcie.round_trip_ns / 2.0;
    if (s->path == SYS_EDGE) {
        v->t_db = pcie_link_write(&s->nic_gpu, PCIE_TO_GPU, v->t_req, 4);
        if (push(s, v->t_db, A_DB_ARRIVE, e)) fail(s, "out of memory");
    } else {
        double t_n = pcie_link_write(&s->nic_host, PCIE_TO_GPU, v->t_req, 8);
        if (push(s, t_n, A_HOST_NOTIFY, e)) fail(s, "out of memory");
    }
    if (s->r->first_arrival_ns < 0 || arrive[0] < s->r->first_arrival_ns) s->r->first_arrival_ns = arrive[0];
    s->started++;
}

static void batch_ready(sys *s, uint64_t e, double t) {
    s->ev[e].t_ready = t;
    if (!s->waiting.n && nic_can_start(&s->nic)) start_batch(s, e, t);
    else if (sys_queue_push(&s->waiting, &e)) fail(s, "out of memory");
    if (!s->closed && s->p->nic.rate_mpps > 0 && e + 1 < s->n_events) {
        unsigned cnt = s->p->nic.pkts_per_event;
        double tn = s->t0 + (double)((e + 2) * cnt - 1) * 1000.0 / s->p->nic.rate_mpps;
        if (push(s, tn, A_BATCH, e + 1)) fail(s, "out of memory");
    }
}

/* The NIC's read of the results was served by GPU memory: the data crosses
 * the link back (serialized with the link's other traffic, then rtt/2). */
static void cb_read(void *u, uint64_t e, uint64_t cycle, const void *data, size_t len) {
    sys *s = u;
    evrec *v = &s->ev[e];
    memcpy(v->res, data, len);
    v->t_rd = (double)cycle * s->period;
    sys_stat_add(&s->r->read_ns, v->t_rd - v->t_rd0);
    double t = pcie_link_write(&s->nic_gpu, PCIE_FROM_GPU, v->t_rd, len);
    if (push(s, t, A_RESULTS, e)) fail(s, "out of memory");
}

static void results(sys *s, uint64_t e, double t) {
    evrec *v = &s->ev[e];
    uint64_t out = s->w.out_base + (uint64_t)v->slot * IPV4_PKTS_PER_EVENT * 4;
    for (unsigned i = 0; i < v->cnt; i++)
        sys_stat_add(&s->r->pkt_latency_ns, t - s->nic.arrive[(size_t)v->slot * s->p->nic.pkts_per_event + i]);
    nic_finish(&s->nic, v->slot, v->res, v->cnt);
    /* poison the result buffer so a kernel that does not write is caught
     * (a check of the harness, not device traffic: the backdoor) */
    uint32_t poison[IPV4_PKTS_PER_EVENT];
    memset(poison, 0xA5, sizeof poison);
    gpu_mem_write(s->gpu, out, poison, sizeof poison);
    v->t_results = t;
    v->done = true;
    s->finished++;
    s->r->last_result_ns = t;
    uint64_t w;
    while (s->waiting.n && nic_can_start(&s->nic) && sys_queue_pop(&s->waiting, &w)) start_batch(s, w, t);
    if (s->closed && e + 1 < s->n_events) {
        if (push(s, t + s->p->gap_ns, A_BATCH, e + 1)) fail(s, "out of memory");
    } else if (!s->closed && s->p->nic.rate_mpps <= 0 && s->next_batch < s->n_events) {
        batch_ready(s, s->next_batch++, t);
    }
}

/* warp_event: EDGE path (an EKT evw descriptor goes to a core's PEWT, EDGE IV-C) */
static void gpu_launch_event(sys *s, uint64_t e, unsigned prio, bool warp_event) {
    evrec *v = &s->ev[e];
    gpu_launch_desc d =
        ipv4_work_desc(&s->w, v->slot, IPV4_PKTS_PER_EVENT, prio, e);
    d.warp_event = warp_event; /* false: the baseline's kernel launch path */
    char err[256];
    if (gpu_launch(s->gpu, &d, err, sizeof err)) fail(s, "gpu_launch: %s", err);
}

static void doorbell(sys *s, uint64_t e) {
    if (edge_fe_write(s->fe, edge_fe_doorbell_addr(s->fe, s->ekt_id), 1, e)) fail(s, "out of memory");
}

static void act(sys *s, const action *a) {
    uint64_t e = a->ev;
    evrec *v = &s->ev[e];
    switch (a->type) {
    case A_BATCH:
        batch_ready(s, e, a->t);
        break;
    case A_DMA_START:
        dma_start(s, e, a->t);
        break;
    case A_DB_ARRIVE: /* the doorbell write reaches the GPU front-end, once the
                       * DMA writes before it are acknowledged (posted-write order) */
        v->t_db_vis = a->t;
        if (v->dma_left) v->gate = true;
        else doorbell(s, e);
        break;
    case A_HOST_NOTIFY: { /* baseline: a polling CPU thread launches the kernel (Fig. 8b) */
        double detect = poll_up(a->t, s->p->cpu_poll_ns);
        v->t_start = detect > s->cpu_launch_free ? detect : s->cpu_launch_free;
        host_launch(&s->host, v->t_start, &v->t_ret, &v->t_at_gpu);
        s->cpu_launch_free = v->t_ret;
        if (push(s, v->t_at_gpu, A_KMU, e)) fail(s, "out of memory");
        break;
    }
    case A_KMU: /* baseline: the launch command is in the KMU; dispatch follows */
        v->c_kmu = s->cycle;
        v->c_dispatch = s->cycle + s->p->edge.dispatch_cycles;
        if (push(s, (double)v->c_dispatch * s->period, A_GPU_LAUNCH, e)) fail(s, "out of memory");
        break;
    case A_GPU_LAUNCH: /* (the packets are long in memory by now; the gate is for correctness) */
        if (v->dma_left) v->gate = true;
        else gpu_launch_event(s, e, 0, false);
        break;
    case A_NIC_DONE: /* NIC sees the completion: its read request crosses the link */
        if (push(s, a->t + s->p->pcie.round_trip_ns / 2.0, A_READ_START, e)) fail(s, "out of memory");
        break;
    case A_READ_START: { /* ... and reads the results out of GPU memory through the host port */
        uint64_t out = s->w.out_base + (uint64_t)v->slot * IPV4_PKTS_PER_EVENT * 4;
        int rc = gpu_dma_read(s->gpu, out, (size_t)v->cnt * 4, 0, cb_read, s, e);
        if (rc > 0 && push(s, a->t + s->period, A_READ_START, e)) fail(s, "out of memory");
        if (rc < 0) fail(s, "result buffer outside GPU memory");
        if (rc == 0) v->t_rd0 = a->t;
        break;
    }
    case A_RESULTS:
        results(s, e, a->t);
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
    double t_seen;
    if (s->path == SYS_EDGE) {
        /* completion: free the in-flight event in the EKT and write the
         * completion-queue flag in device memory (EDGE III-B/C) */
        if (edge_fe_complete(s->fe, s->ekt_id)) fail(s, "out of memory");
        v->t_cq = pcie_link_write(&s->nic_gpu, PCIE_FROM_GPU, v->t_done, 4);
        s->nic.cq[v->slot] = CQ_DONE;
        t_seen = poll_up(v->t_cq, s->p->nic.poll_ns);
    } else {
        /* baseline: the completion thread sits in a stream synchronize
         * (F/E Table 2: returns 1 us after the work is done), then tells
         * the device over PCIe */
        double t = v->t_done + s->host.p.sync_after_ns;
        if (t < s->cpu_cpl_free) t = s->cpu_cpl_free;
        s->cpu_cpl_free = t;
        v->t_cq = pcie_link_write(&s->nic_host, PCIE_FROM_GPU, t, 8);
        s->nic.cq[v->slot] = CQ_DONE;
        t_seen = poll_up(v->t_cq, s->p->nic.poll_ns);
    }
    if (push(s, t_seen, A_NIC_DONE, tag)) fail(s, "out of memory");
}

static void fe_launch(void *u, const edge_fe_event *x) {
    sys *s = u;
    if (x->key >= s->n_events) {
        fail(s, "front-end launched an event with unknown key %llu", (unsigned long long)x->key);
        return;
    }
    evrec *v = &s->ev[x->key];
    uint64_t want = ipv4_work_param(&s->w, v->slot);
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
        act(s, &a);
    }
    char err[512];
    if (edge_fe_step(s->fe, err, sizeof err)) fail(s, "%s", err);
    gpu_tick(s->gpu);
    if (gpu_error(s->gpu)) fail(s, "GPU fault: %s", gpu_error(s->gpu));
    s->cycle++;
    if (s->cycle > s->p->max_cycles) fail(s, "run exceeded [sys] max_cycles = %llu", (unsigned long long)s->p->max_cycles);
    return s->failed ? -1 : 0;
}

/* EDGE API (EDGE Table I): edgeRegisterEvent -> doorbell id. */
static int edge_register_event(sys *s, uint64_t sq, unsigned entries, unsigned *id) {
    edge_fe_cmd c = {0};
    c.op = EKT_OP_REG;
    c.kernel_ptr = s->w.k.entry;
    c.param_base = sq;
    c.param_size = sizeof(ipv4_params);
    c.param_end = sq + (uint64_t)(entries - 1) * sizeof(ipv4_params);
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
     * in the NIC's memory (slot i: flag i) */
    ipv4_work_opts o = {0, 1, p->corrupt_table};
    if (ipv4_work_init_opts(&s->w, s->gpu, &p->routes, p->kernel_elf, slots, &o, s->err, s->errlen)) return -1;
    edge_fe_callbacks fcb = {fe_launch, fe_error, fe_passthrough, s};
    s->fe = edge_fe_new(&p->edge, &fcb, e2, sizeof e2);
    if (!s->fe) return fail(s, "edge front-end: %s", e2), -1;
    uint32_t poison[IPV4_PKTS_PER_EVENT * 4];
    memset(poison, 0xA5, sizeof poison);
    for (unsigned i = 0; i < slots; i++)
        gpu_mem_write(s->gpu, s->w.out_base + (uint64_t)i * 128, poison, 128);
    s->stage = calloc((size_t)slots * IPV4_PKTS_PER_EVENT, IPV4_PKT_BYTES);
    if (!s->stage) return fail(s, "out of memory"), -1;
    s->link_bpc = p->pcie.bw_gbps * s->period; /* bytes per ns x ns per cycle */
    pcie_link_init(&s->nic_gpu, &p->pcie);
    pcie_link_init(&s->nic_host, &p->pcie);
    pcie_link_init(&s->host_gpu, &p->pcie);
    host_api_init(&s->host, &p->host, &s->host_gpu);
    if (nic_init(&s->nic, &p->nic, &p->routes, s->w.routes, s->w.n_routes, s->w.ref, p->seed, s->err, s->errlen))
        return -1;
    if (s->path == SYS_EDGE && edge_register_event(s, s->w.sq_base, slots, &s->ekt_id)) return -1;
    return 0;
}

static void summarize(sys *s) {
    sys_result *r = s->r;
    double P = s->period;
    for (uint64_t e = 0; e < s->n_events; e++) {
        evrec *v = &s->ev[e];
        if (!v->done || !v->first_seen) continue;
        double t_first = (double)v->c_first * P;
        sys_stat_add(&r->to_first_ns, t_first - v->t_req);
        sys_stat_add(&r->kernel_cycles, (double)(v->c_done - v->c_first));
        if (s->path == SYS_EDGE) {
            double cq = v->t_cq - v->t_done;
            sys_stat_add(&r->launch_ns, t_first - v->t_req + (s->p->count_cq_write ? cq : 0));
            sys_stat_add(&r->pcie_db_ns, v->t_db - v->t_req);
            sys_stat_add(&r->dma_wait_ns, v->t_db_vis - v->t_db);
            sys_stat_add(&r->pcie_cq_ns, cq);
            sys_stat_add(&r->quant_ns, (double)v->c_write * P - v->t_db_vis);
            sys_stat_add(&r->fe_cycles, (double)(v->c_desc - v->c_write + 1));
            sys_stat_add(&r->dispatch_cycles, (double)(v->c_dispatch - v->c_desc - 1));
            sys_stat_add(&r->simt_cycles, (double)(v->c_first - v->c_dispatch));
        } else {
            sys_stat_add(&r->launch_ns, t_first - v->t_start);
            sys_stat_add(&r->notify_ns, v->t_start - v->t_req);
            sys_stat_add(&r->call_ns, v->t_ret - v->t_start);
            sys_stat_add(&r->driver_ns, v->t_at_gpu - v->t_ret);
            sys_stat_add(&r->kmu_quant_ns, (double)v->c_kmu * P - v->t_at_gpu);
            sys_stat_add(&r->dispatch_cycles, (double)(v->c_dispatch - v->c_kmu));
            sys_stat_add(&r->simt_cycles, (double)(v->c_first - v->c_dispatch));
        }
    }
    r->events = s->finished;
    r->packets = s->nic.checked;
    r->wrong = s->nic.wrong;
    r->routed = s->nic.routed;
    r->dropped = s->nic.dropped;
    r->noroute = s->nic.noroute;
    snprintf(r->first_wrong, sizeof r->first_wrong, "%s", s->nic.first_wrong);
    double span = r->last_result_ns - r->first_arrival_ns;
    r->throughput_mpps = span > 0 ? (double)r->packets / span * 1000.0 : 0;
    r->gpu_cycles = s->cycle;
    gpu_get_stats(s->gpu, &r->gpu);
    r->warp_instrs = r->gpu.warp_instrs;
    r->thread_instrs = r->gpu.thread_instrs;
    edge_fe_get_stats(s->fe, &r->fe);
}

int sys_run(const sys_params *p, sys_path path, bool closed_loop, uint64_t n_events, sys_result *r,
            char *err, size_t errlen) {
    memset(r, 0, sizeof *r);
    r->first_arrival_ns = -1;
    sys s = {0};
    s.p = p;
    s.path = path;
    s.closed = closed_loop;
    s.n_events = n_events;
    s.period = 1000.0 / p->gpu.clock_mhz;
    s.r = r;
    s.err = err;
    s.errlen = errlen;
    sys_queue_init(&s.waiting, sizeof(uint64_t));
    s.ev = calloc(n_events ? n_events : 1, sizeof *s.ev);
    if (!s.ev) fail(&s, "out of memory");
    if (!s.failed && !setup(&s)) {
        /* the first batch */
        if (n_events) {
            s.t0 = now_ns(&s); /* packets arrive from the end of setup on */
            if (!closed_loop && p->nic.rate_mpps > 0)
                push(&s, s.t0 + (double)(p->nic.pkts_per_event - 1) * 1000.0 / p->nic.rate_mpps,
                     A_BATCH, 0);
            else if (!closed_loop) /* saturate: fill every slot */
                for (; s.next_batch < n_events && s.next_batch < p->nic.slots; s.next_batch++)
                    push(&s, now_ns(&s), A_BATCH, s.next_batch);
            else
                push(&s, now_ns(&s), A_BATCH, 0);
        }
        while (!s.failed && (s.finished < n_events || s.nheap || !edge_fe_idle(s.fe) || !gpu_idle(s.gpu)))
            if (tick(&s)) break;
        if (!s.failed && path == SYS_EDGE) edge_unregister_event(&s, s.ekt_id);
        if (!s.failed) summarize(&s);
    }
    int rc = s.failed ? -1 : 0;
    if (s.fe) edge_fe_free(s.fe);
    if (s.gpu) gpu_free(s.gpu);
    nic_free(&s.nic);
    free(s.stage);
    free(s.heap);
    free(s.ev);
    sys_queue_free(&s.waiting);
    ipv4_work_free(&s.w);
    return rc;
}
