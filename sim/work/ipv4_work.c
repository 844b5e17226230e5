/* ipv4_work: see ipv4_work.h. */
#include "work/ipv4_work.h"
#include "work/ev_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ipv4_work_init(ipv4_work *w, gpu_t *g, const route_gen_params *rp, const char *elf, unsigned slots,
                   ev_ring ring, char *err, size_t errlen) {
    const ipv4_work_opts o = {.ring = ring};
    return ipv4_work_init_opts(w, g, rp, elf, slots, &o, err, errlen);
}

#define SLOT_BYTES (IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES)

/* the slot's packets: in a synchronized ring the kernel reads them in place */
static uint64_t pkt_addr(const ipv4_work *w, unsigned slot) {
    return w->ring ? ev_ring_data(w->ring_base, slot, SLOT_BYTES) : w->pkt_base + (uint64_t)slot * SLOT_BYTES;
}

/* Fault injection: every leaf's next hop flipped, "no route" left alone. */
static void corrupt(ipv4_dir *d) {
    for (size_t i = 0; i < 65536; i++)
        if (!(d->l1[i] & IPV4_PTR_BIT) && d->l1[i] != IPV4_NO_ROUTE) d->l1[i] ^= 1;
    for (size_t i = 0; i < d->n_chunks * 256; i++)
        if (!(d->chunks[i] & IPV4_PTR_BIT) && d->chunks[i] != IPV4_NO_ROUTE) d->chunks[i] ^= 1;
}

int ipv4_work_init_opts(ipv4_work *w, gpu_t *g, const route_gen_params *rp, const char *elf, unsigned slots,
                        const ipv4_work_opts *o, char *err, size_t errlen) {
    const ipv4_work_opts none = {0};
    if (!o) o = &none;
    memset(w, 0, sizeof *w);
    w->rp = *rp;
    w->slots = slots;
    w->ring = o->ring;
    if (route_gen(rp, &w->routes, &w->n_routes, err, errlen)) return -1;
    w->ref = lpm_ref_build(w->routes, w->n_routes, 32);
    w->pkts = calloc((size_t)slots * IPV4_PKTS_PER_EVENT, IPV4_PKT_BYTES);
    w->send = calloc(slots, sizeof *w->send);
    if (!w->ref || !w->pkts || !w->send) { snprintf(err, errlen, "ipv4: out of memory"); return -1; }
    if (ipv4_dir_build(&w->dir, w->routes, w->n_routes, err, errlen)) return -1;
    if (gpu_load_kernel(g, elf, "ipv4_fwd", &w->k, err, errlen)) return -1;
    size_t l1b = 65536 * 4, chb = w->dir.n_chunks * 256 * 4;
    w->l1 = gpu_malloc(g, l1b);
    w->chunks = gpu_malloc(g, chb ? chb : 4);
    w->param_bytes = (unsigned)ev_param_bytes(sizeof(ipv4_params), o->ring);
    w->sq_base = gpu_malloc(g, (uint64_t)slots * w->param_bytes);
    if (o->ring) w->pkt_base = w->ring_base = ev_ring_alloc(g, slots, SLOT_BYTES);
    else w->pkt_base = gpu_malloc(g, (uint64_t)slots * SLOT_BYTES);
    w->out_base = gpu_malloc(g, (uint64_t)slots * IPV4_PKTS_PER_EVENT * 4);
    if (!w->l1 || !w->chunks || !w->sq_base || !w->pkt_base || !w->out_base ||
        (w->out_base + (uint64_t)slots * IPV4_PKTS_PER_EVENT * 4) >> 32) {
        snprintf(err, errlen, "ipv4: GPU memory too small for the route table and %u slots", slots);
        return -1;
    }
    if (o->corrupt_table) corrupt(&w->dir);
    if (gpu_mem_write(g, w->l1, w->dir.l1, l1b) || (chb && gpu_mem_write(g, w->chunks, w->dir.chunks, chb))) {
        snprintf(err, errlen, "ipv4: route table upload failed");
        return -1;
    }
    for (unsigned i = 0; i < slots; i++) { /* EDGE III-B: parameter memory configured once */
        uint64_t cq = o->cq_base + (uint64_t)i * o->cq_step;
        ipv4_params q = {(uint32_t)pkt_addr(w, i),
                         (uint32_t)(w->out_base + (uint64_t)i * IPV4_PKTS_PER_EVENT * 4),
                         (uint32_t)w->l1, (uint32_t)w->chunks, 0, i, (uint32_t)cq, (uint32_t)(cq >> 32)};
        if (ev_param_write(g, ipv4_work_param(w, i), &q, sizeof q, o->ring, pkt_addr(w, i))) {
            snprintf(err, errlen, "ipv4: parameter memory upload failed");
            return -1;
        }
    }
    return 0;
}

void ipv4_work_free(ipv4_work *w) {
    ipv4_dir_free(&w->dir);
    lpm_ref_free(w->ref);
    free(w->routes);
    free(w->pkts);
    free(w->send);
    memset(w, 0, sizeof *w);
}

uint64_t ipv4_work_param(const ipv4_work *w, unsigned slot) {
    return w->sq_base + (uint64_t)slot * w->param_bytes;
}

gpu_launch_desc ipv4_work_desc(const ipv4_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag) {
    return ev_warp_desc(&w->k, ipv4_work_param(w, slot), n, priority, tag);
}


int ipv4_work_io(const ipv4_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen) {
    if (slot >= w->slots || n == 0 || n > IPV4_PKTS_PER_EVENT) {
        snprintf(err, errlen, "ipv4: slot %u / %u packets out of range", slot, n);
        return -1;
    }
    memset(io, 0, sizeof *io);
    ev_slot_regions(io, w->ring, pkt_addr(w, slot), pkt_addr(w, slot),
                    w->pkts + (size_t)slot * SLOT_BYTES, (size_t)n * IPV4_PKT_BYTES,
                    ipv4_work_param(w, slot) + offsetof(ipv4_params, npkts), n);
    /* every result word poisoned, so a kernel that does not write one is caught */
    io->out[0] = (ev_region){w->out_base + (uint64_t)slot * IPV4_PKTS_PER_EVENT * 4, NULL, IPV4_PKTS_PER_EVENT * 4, 0};
    io->nout = 1;
    io->poison = 0xA5;
    return 0;
}

int ipv4_work_gen(ipv4_work *w, unsigned slot, unsigned n, fg_rng *rng) {
    uint8_t *pk = w->pkts + (size_t)slot * IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES;
    for (unsigned i = 0; i < n; i++) ipv4_gen_packet(rng, &w->rp, w->routes, w->n_routes, pk + i * IPV4_PKT_BYTES);
    return 0;
}

int ipv4_work_fill(ipv4_work *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, char *err, size_t errlen) {
    return ev_ipv4_ops.fill(w, g, slot, n, rng, err, errlen);
}

int ipv4_work_send(ipv4_work *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, double bytes_per_cycle,
                   ipv4_sent_cb cb, void *user, uint64_t tag, char *err, size_t errlen) {
    return ev_ipv4_ops.send(w, g, slot, n, rng, bytes_per_cycle, cb, user, tag, err, errlen);
}

int ipv4_work_check(ipv4_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {
    uint32_t got[IPV4_PKTS_PER_EVENT];
    const uint8_t *pk = w->pkts + (size_t)slot * IPV4_PKTS_PER_EVENT * IPV4_PKT_BYTES;
    if (slot >= w->slots || n > IPV4_PKTS_PER_EVENT ||
        gpu_mem_read(g, w->out_base + (uint64_t)slot * IPV4_PKTS_PER_EVENT * 4, got, (size_t)n * 4)) {
        snprintf(err, errlen, "ipv4: cannot read the results of slot %u", slot);
        return -1;
    }
    int rc = 0;
    for (unsigned i = 0; i < n; i++) {
        uint32_t want = ipv4_forward_ref(w->ref, pk + i * IPV4_PKT_BYTES);
        w->checked++;
        if (got[i] != want) {
            if (!rc)
                snprintf(err, errlen, "ipv4: slot %u packet %u: GPU next hop 0x%x, host reference 0x%x", slot, i,
                         got[i], want);
            w->wrong++;
            rc = -1;
        }
    }
    return rc;
}
