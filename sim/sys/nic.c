/* nic: see nic.h. */
#include "nic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nic_params_default(nic_params *p) {
    p->rate_mpps = 4.0;
    p->pkts_per_event = IPV4_PKTS_PER_EVENT;
    p->slots = 16;
    p->poll_ns = 20.0;
}

int nic_params_load(nic_params *p, fg_config *cfg, char *err, size_t errlen) {
    uint64_t v;
    if (fg_config_double(cfg, "nic", "rate_mpps", 0, 1e6, &p->rate_mpps, err, errlen)) return -1;
    v = p->pkts_per_event;
    if (fg_config_u64(cfg, "nic", "pkts_per_event", 1, IPV4_PKTS_PER_EVENT, &v, err, errlen)) return -1;
    p->pkts_per_event = (unsigned)v;
    v = p->slots;
    if (fg_config_u64(cfg, "nic", "slots", 1, 4096, &v, err, errlen)) return -1;
    p->slots = (unsigned)v;
    static const char *const RING[] = {"plain", "sync", NULL}, *const DB[] = {"after_ack", "early", NULL};
    unsigned rv = p->ring_sync, dv = p->early;
    if (fg_config_double(cfg, "nic", "poll_ns", 0, 1e9, &p->poll_ns, err, errlen) ||
        fg_config_enum(cfg, "nic", "ring", RING, &rv, err, errlen) ||
        fg_config_enum(cfg, "nic", "doorbell", DB, &dv, err, errlen))
        return -1;
    p->ring_sync = rv;
    p->early = dv;
    if (p->early && !p->ring_sync) {
        snprintf(err, errlen, "[nic] doorbell = early needs [nic] ring = sync: in plain memory the event kernel "
                              "would read its packets before they land");
        return -1;
    }
    return 0;
}

int nic_init(nic *n, const nic_params *p, const dev_port *port, const route_gen_params *rp, const lpm_route *r,
             size_t nr, const lpm_ref *ref, uint64_t seed, char *err, size_t errlen) {
    memset(n, 0, sizeof *n);
    n->p = *p;
    n->port = *port;
    n->rp = *rp;
    n->routes = r;
    n->n_routes = nr;
    n->ref = ref;
    fg_rng_seed(&n->rng, seed);
    sys_queue_init(&n->waiting, sizeof(uint64_t));
    n->st.first_arrival_ns = -1;
    n->cq = calloc(p->slots, 1);
    n->pkts = calloc((size_t)p->slots * p->pkts_per_event, IPV4_PKT_BYTES);
    n->arrive = calloc((size_t)p->slots * p->pkts_per_event, sizeof *n->arrive);
    n->event_of = calloc(p->slots, sizeof *n->event_of);
    if (!n->cq || !n->pkts || !n->arrive || !n->event_of) {
        nic_free(n);
        snprintf(err, errlen, "nic: out of memory");
        return -1;
    }
    return 0;
}

void nic_free(nic *n) {
    free(n->cq);
    free(n->pkts);
    free(n->arrive);
    free(n->event_of);
    free(n->ev);
    sys_queue_free(&n->waiting);
    n->cq = NULL, n->pkts = NULL, n->arrive = NULL, n->event_of = NULL, n->ev = NULL;
}

static void at(nic *n, double t, unsigned what, uint64_t e) {
    if (n->port.at(n->port.sys, t, what, e)) n->port.fail(n->port.sys, "out of memory");
}

static uint8_t *slot_pkts(const nic *n, unsigned slot) {
    return n->pkts + (size_t)slot * n->p.pkts_per_event * IPV4_PKT_BYTES;
}

/* ------------------------------------------------------------ batching */
/* True when the slot at head is free (EDGE Fig. 8c: eventCompQ[head] == free). */
static bool can_start(const nic *n) { return n->cq[n->head] == CQ_FREE; }

/* Event e's batch takes the head slot: its packets are generated (arriving
 * at arrive[0..cnt)) into the slot's buffer; returns the slot. */
static unsigned take_slot(nic *n, uint64_t e, const double *arrive, unsigned cnt) {
    unsigned s = n->head;
    n->cq[s] = CQ_BUSY;
    n->head = (n->head + 1) % n->p.slots;
    n->event_of[s] = e;
    for (unsigned i = 0; i < cnt; i++) {
        ipv4_gen_packet(&n->rng, &n->rp, n->routes, n->n_routes, slot_pkts(n, s) + (size_t)i * IPV4_PKT_BYTES);
        n->arrive[(size_t)s * n->p.pkts_per_event + i] = arrive[i];
    }
    return s;
}

/* Event e's doorbell write (EDGE) leaves the NIC at t. */
static void ring_doorbell(nic *n, uint64_t e, double t) {
    nic_event *v = &n->ev[e];
    v->t_req = t;
    v->t_db = pcie_link_write(n->port.to_gpu, PCIE_TO_GPU, t, 4);
    n->port.post(n->port.sys, v->t_db, DEV_TO_GPU_MMIO, n->map.doorbell_addr, 1, e);
}

/* The batch has a slot: DMA its packets and packet count into the slot's GPU
 * buffers, then issue the launch request. */
static void start_batch(nic *n, uint64_t e, double t) {
    nic_event *v = &n->ev[e];
    const pcie_params *lp = &n->port.to_gpu->p;
    unsigned cnt = n->p.pkts_per_event;
    double arrive[IPV4_PKTS_PER_EVENT];
    double rate = n->p.rate_mpps;
    for (unsigned i = 0; i < cnt; i++)
        arrive[i] = n->tr.closed || rate <= 0 ? v->t_ready : n->tr.t0 + (double)(e * cnt + i) * 1000.0 / rate;
    v->slot = take_slot(n, e, arrive, cnt);
    v->cnt = cnt;
    uint64_t bytes = (uint64_t)cnt * IPV4_PKT_BYTES + 4;
    /* doorbell = early (EDGE III-C with F/E 4.1): the doorbell goes on the
     * link ahead of the data and acts on arrival; the ring's F/E bits hold
     * the event kernel's loads until their words land */
    if (n->p.early) ring_doorbell(n, e, t);
    /* the link serializes the data (pcie.c); its lines enter the GPU's
     * memory system from the first byte's arrival on (NIC_DMA_START) */
    double t_data = pcie_link_write(n->port.to_gpu, PCIE_TO_GPU, t, bytes);
    v->dma_left = 2;
    at(n, t_data - pcie_xfer_ns(lp, bytes), NIC_DMA_START, e);
    /* otherwise the launch request is issued once the data has left the
     * NIC; posted writes stay ordered, so it never overtakes the data */
    double t_req = t_data - lp->round_trip_ns / 2.0;
    if (n->map.doorbell) {
        if (!n->p.early) ring_doorbell(n, e, t_req);
    } else { /* the task notice names the slot (EDGE Fig. 8b) */
        v->t_req = t_req;
        v->t_db = pcie_link_write(n->port.to_host, PCIE_TO_GPU, t_req, 8);
        n->port.post(n->port.sys, v->t_db, DEV_TO_HOST_MEM, 0, v->slot, e);
    }
    if (n->st.first_arrival_ns < 0 || arrive[0] < n->st.first_arrival_ns) n->st.first_arrival_ns = arrive[0];
    n->st.started++;
}

/* Event e's last packet has arrived: it starts, or waits for a free slot;
 * open loop at a rate, the next batch's last arrival is scheduled. */
static void batch_ready(nic *n, uint64_t e, double t) {
    n->ev[e].t_ready = t;
    if (!n->waiting.n && can_start(n)) start_batch(n, e, t);
    else if (sys_queue_push(&n->waiting, &e)) n->port.fail(n->port.sys, "out of memory");
    if (!n->tr.closed && n->p.rate_mpps > 0 && e + 1 < n->tr.n_events) {
        unsigned cnt = n->p.pkts_per_event;
        double tn = n->tr.t0 + (double)((e + 2) * cnt - 1) * 1000.0 / n->p.rate_mpps;
        at(n, tn, NIC_BATCH, e + 1);
    }
}

int nic_run(nic *n, const nic_map *map, const nic_traffic *tr) {
    n->map = *map;
    n->tr = *tr;
    n->ev = calloc(tr->n_events ? tr->n_events : 1, sizeof *n->ev);
    if (!n->ev) return -1;
    if (!tr->n_events) return 0;
    if (!tr->closed && n->p.rate_mpps > 0)
        at(n, tr->t0 + (double)(n->p.pkts_per_event - 1) * 1000.0 / n->p.rate_mpps, NIC_BATCH, 0);
    else if (!tr->closed) /* saturate: fill every slot */
        for (; n->next_batch < tr->n_events && n->next_batch < n->p.slots; n->next_batch++)
            at(n, tr->t0, NIC_BATCH, n->next_batch);
    else
        at(n, tr->t0, NIC_BATCH, 0);
    return 0;
}

/* ------------------------------------------------------------ DMA */
/* Both DMA writes of an event are acknowledged: a doorbell (EDGE) or a
 * launch (baseline) that came after them may now take effect. */
static void dma_acked(void *u, uint64_t e, uint64_t cycle, const void *data, size_t len) {
    nic *n = u;
    nic_event *v = &n->ev[e];
    (void)data, (void)len;
    if (--v->dma_left) return;
    v->t_dma_done = (double)cycle * n->port.cycle_ns;
    sys_stat_add(&n->st.dma_ns, v->t_dma_done - v->t_dma0);
    n->port.dma_acked(n->port.sys, e, v->t_dma_done);
}

/* The packets and the packet count reach the GPU's host port (first byte at
 * t): line writes through the memory system at the link's rate. */
static void dma_start(nic *n, uint64_t e, double t) {
    nic_event *v = &n->ev[e];
    uint64_t pk = n->map.pkt_base + (uint64_t)v->slot * n->map.pkt_step;
    uint64_t np = n->map.cnt_base + (uint64_t)v->slot * n->map.cnt_step;
    const void *pkts = slot_pkts(n, v->slot);
    size_t len = (size_t)v->cnt * IPV4_PKT_BYTES;
    uint32_t n32 = v->cnt;
    double bpc = n->port.to_gpu->p.bw_gbps * n->port.cycle_ns; /* bytes per ns x ns per cycle */
    if (n->port.dma_free(n->port.sys) < 2) { /* the host DMA queue is full: the link holds the data a cycle */
        at(n, t + n->port.cycle_ns, NIC_DMA_START, e);
        return;
    }
    v->t_dma0 = t;
    v->dma_left = 2;
    int rc;
    if (n->p.ring_sync) /* the count first: a kernel already running gets past it while its packets cross */
        rc = n->port.dma_fill(n->port.sys, np, &n32, 4, bpc, dma_acked, n, e) ||
             n->port.dma_fill(n->port.sys, pk, pkts, len, bpc, dma_acked, n, e);
    else
        rc = n->port.dma_write(n->port.sys, pk, pkts, len, bpc, dma_acked, n, e) ||
             n->port.dma_write(n->port.sys, np, &n32, 4, bpc, dma_acked, n, e);
    if (rc) n->port.fail(n->port.sys, "NIC DMA outside GPU memory");
}

/* ------------------------------------------------------------ results */
void nic_mem_write(nic *n, uint64_t addr, uint32_t data, double t) {
    if (addr - NIC_CQ_BASE >= (uint64_t)n->p.slots * NIC_CQ_STEP) {
        n->port.fail(n->port.sys, "write outside the NIC's completion queue");
        return;
    }
    unsigned slot = (unsigned)((addr - NIC_CQ_BASE) / NIC_CQ_STEP);
    n->cq[slot] = (uint8_t)data;
    if (data == CQ_DONE) at(n, dev_poll_seen(t, n->p.poll_ns), NIC_CQ_SEEN, n->event_of[slot]);
}

/* The NIC's read of the results was served by GPU memory: the data crosses
 * the link back (serialized with the link's other traffic, then rtt/2). */
static void read_done(void *u, uint64_t e, uint64_t cycle, const void *data, size_t len) {
    nic *n = u;
    nic_event *v = &n->ev[e];
    memcpy(v->res, data, len);
    v->t_rd = (double)cycle * n->port.cycle_ns;
    sys_stat_add(&n->st.read_ns, v->t_rd - v->t_rd0);
    at(n, pcie_link_write(n->port.to_gpu, PCIE_FROM_GPU, v->t_rd, len), NIC_RESULTS, e);
}

/* Checks the results of slot against the reference; returns the number of
 * wrong results (also accumulated), frees the slot (tail advances). */
static unsigned finish(nic *n, unsigned slot, const uint32_t *results, unsigned cnt) {
    unsigned bad = 0;
    for (unsigned i = 0; i < cnt; i++) {
        const uint8_t *pk = slot_pkts(n, slot) + (size_t)i * IPV4_PKT_BYTES;
        uint32_t want = ipv4_forward_ref(n->ref, pk);
        n->st.checked++;
        if (want == IPV4_DROP_TTL) n->st.dropped++;
        else if (want == IPV4_NO_ROUTE) n->st.noroute++;
        else n->st.routed++;
        if (results[i] != want) {
            if (!n->st.wrong && !bad)
                snprintf(n->st.first_wrong, sizeof n->st.first_wrong,
                         "event %llu packet %u (dst %u.%u.%u.%u ttl %u): GPU 0x%x, reference 0x%x",
                         (unsigned long long)n->event_of[slot], i, pk[16], pk[17], pk[18], pk[19], pk[8],
                         results[i], want);
            bad++;
        }
    }
    n->st.wrong += bad;
    n->cq[slot] = CQ_FREE; /* EDGE Fig. 8c: eventCompQ[tail] = free; tail++ */
    if (slot == n->tail) n->tail = (n->tail + 1) % n->p.slots;
    return bad;
}

/* The results are back: checked, the slot freed; batches waiting for a
 * slot start; closed loop or saturated, the next batch is made ready. */
static void results(nic *n, uint64_t e, double t) {
    nic_event *v = &n->ev[e];
    for (unsigned i = 0; i < v->cnt; i++)
        sys_stat_add(&n->st.pkt_latency_ns, t - n->arrive[(size_t)v->slot * n->p.pkts_per_event + i]);
    finish(n, v->slot, v->res, v->cnt);
    n->port.checked(n->port.sys, e);
    v->t_results = t;
    v->done = true;
    n->st.finished++;
    n->st.last_result_ns = t;
    uint64_t w;
    while (n->waiting.n && can_start(n) && sys_queue_pop(&n->waiting, &w)) start_batch(n, w, t);
    if (n->tr.closed && e + 1 < n->tr.n_events) {
        at(n, t + n->tr.gap_ns, NIC_BATCH, e + 1);
    } else if (!n->tr.closed && n->p.rate_mpps <= 0 && n->next_batch < n->tr.n_events) {
        batch_ready(n, n->next_batch++, t);
    }
}

void nic_act(nic *n, unsigned what, uint64_t e, double t) {
    nic_event *v = &n->ev[e];
    switch (what) {
    case NIC_BATCH:
        batch_ready(n, e, t);
        break;
    case NIC_DMA_START:
        dma_start(n, e, t);
        break;
    case NIC_CQ_SEEN: /* the poller sees the completion: the read request crosses the link */
        at(n, t + n->port.to_gpu->p.round_trip_ns / 2.0, NIC_READ_START, e);
        break;
    case NIC_READ_START: { /* ... and reads the results out of GPU memory through the host port */
        uint64_t out = n->map.out_base + (uint64_t)v->slot * IPV4_PKTS_PER_EVENT * 4;
        int rc = n->port.dma_read(n->port.sys, out, (size_t)v->cnt * 4, 0, read_done, n, e);
        if (rc > 0) at(n, t + n->port.cycle_ns, NIC_READ_START, e);
        if (rc < 0) n->port.fail(n->port.sys, "result buffer outside GPU memory");
        if (rc == 0) v->t_rd0 = t;
        break;
    }
    case NIC_RESULTS:
        results(n, e, t);
        break;
    }
}
