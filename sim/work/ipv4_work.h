/* ipv4_work: the IPv4 forwarding event kernel as a GPU workload — route table (sim/sys/route_gen.h) and its DIR-16-8-8 table
 * in GPU memory (set up through the untimed backdoor, before the
 * experiment), pre-configured parameter slots (EDGE III-B), packets sent
 * through the GPU's host DMA port (timed: what a device sends) or written
 * straight into GPU memory (tests), results checked against the host
 * reference (backdoor: a check, not device traffic).  Used where events are
 * injected at the SIMT core scheduler (the preemption-latency experiment,
 * tests), and for the GPU side of the launch-path system (sim/sys/sys.c,
 * whose NIC sends the packets and checks the results itself). */
#ifndef WORK_IPV4_WORK_H
#define WORK_IPV4_WORK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simt/gpu.h"
#include "sys/route_gen.h"
#include "work/ev_work.h"

typedef ev_sent_cb ipv4_sent_cb;

typedef struct {
    route_gen_params rp;
    lpm_route *routes;
    size_t n_routes;
    lpm_ref *ref;
    ipv4_dir dir;
    gpu_kernel k;
    unsigned slots;
    uint64_t l1, chunks, sq_base, pkt_base, out_base;
    uint64_t ring_base;   /* the synchronized receive ring (ev_work.h; 0: plain), read in place */
    unsigned param_bytes; /* a parameter entry's (ev_param_bytes) */
    ev_ring ring;        /* where the parameter entries and packets live (ev_work.h) */
    uint8_t *pkts;       /* host copy of every slot's packets */
    uint64_t checked, wrong;
    ev_send_state *send; /* per slot */
} ipv4_work;

/* Builds the route table, loads the kernel ELF, allocates and
 * pre-configures `slots` parameter entries (in synchronized memory with
 * their packet buffers for EV_RING_SYNC: the caller loads ipv4_fwd_ring and
 * prepares the ring, as ev_ipv4_ops.init does). */
int ipv4_work_init(ipv4_work *w, gpu_t *g, const route_gen_params *rp, const char *elf, unsigned slots,
                   ev_ring ring, char *err, size_t errlen);
/* What a run with a device model (sim/sys/sys.c) sets up differently. */
typedef struct {
    uint64_t cq_base, cq_step; /* entry i's completion-queue pointer (cq_lo, cq_hi): cq_base + i *
                                  cq_step, the slot's flag in the device's memory (EDGE Fig. 8c);
                                  0, 0 without a device */
    bool corrupt_table;        /* fault injection for tests: the next hop of every leaf of the
                                  GPU's copy of the table flipped (the host reference must catch it) */
    ev_ring ring;
} ipv4_work_opts;
/* ipv4_work_init with o (NULL: all zero, as ipv4_work_init). */
int ipv4_work_init_opts(ipv4_work *w, gpu_t *g, const route_gen_params *rp, const char *elf, unsigned slots,
                        const ipv4_work_opts *o, char *err, size_t errlen);
void ipv4_work_free(ipv4_work *w);
uint64_t ipv4_work_param(const ipv4_work *w, unsigned slot);
/* A launch descriptor for one event of n packets in slot (a warp-level
 * event: one block of n <= 32 threads). */
gpu_launch_desc ipv4_work_desc(const ipv4_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag);
/* The slot's memory for n packets (ev_work.h): packets and packet count in,
 * the 32 result words out (poison 0xA5); -1 when slot / n are out of range. */
int ipv4_work_io(const ipv4_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen);
/* n new packets in the slot's host copy. */
int ipv4_work_gen(ipv4_work *w, unsigned slot, unsigned n, fg_rng *rng);
/* Fills the slot with n new packets and poisons its results (backdoor: no
 * time passes). */
int ipv4_work_fill(ipv4_work *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, char *err, size_t errlen);
/* The same packets as a device sends them: the packets and the packet count
 * go through the host DMA port at bytes_per_cycle (gpu_dma_write); cb(user,
 * tag) once both are acknowledged, when a launch may follow (PCIe posted-write
 * order).  0 sent; 1 the host DMA queue is full (nothing done: try again
 * after a tick); -1 error. */
int ipv4_work_send(ipv4_work *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, double bytes_per_cycle,
                   ipv4_sent_cb cb, void *user, uint64_t tag, char *err, size_t errlen);
/* Checks the slot's n results against the host reference: 0, or -1 with
 * the first wrong packet in err (w->wrong counts them). */
int ipv4_work_check(ipv4_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);

#endif
