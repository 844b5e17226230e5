/* nic: the external device (EDGE Sec. III-D, Fig. 8c device side; Fig. 8b
 * for the baseline) as a device model.  It owns its traffic and all it does
 * with it, and reaches the system only through its port (dev_port.h):
 *
 *   batching   packets arrive at [nic] rate_mpps (0: as fast as slots free
 *              up; closed loop: one batch at a time, gap_ns after the
 *              previous one's results) and are batched pkts_per_event to an
 *              event; a batch takes the completion queue's head slot (the
 *              device's own head/tail, EDGE Fig. 8c) or waits for one;
 *   DMA        the packets and the packet count cross the NIC->GPU link and
 *              enter the GPU's host port at the link's rate, into the slot's
 *              packet buffer and parameter entry, or (ring = sync) the count
 *              first, then the packets, into the slot of a receive ring,
 *              each line waiting for its words to be empty and filling them;
 *   request    once the data has left the NIC: a doorbell write to the GPU
 *              front-end (EDGE) or a task notice in host memory for the
 *              polling CPU thread (baseline), a posted write either way;
 *              doorbell = early (EDGE): before the data, so the event warp
 *              starts while the data crosses and its loads wait for it;
 *   results    the GPU (EDGE) or the host's completion thread (baseline)
 *              writes the slot's flag in the NIC's memory (nic_mem_write);
 *              the NIC's poller sees it, reads the results out of GPU
 *              memory through the host port, checks every packet against
 *              the host reference (ipv4_forward_ref) and frees the slot.
 *
 * Times are in ns; the system's event loop runs the NIC's actions
 * (nic_act). */
#ifndef SYS_NIC_H
#define SYS_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dev_port.h"
#include "fg_config.h"
#include "route_gen.h"
#include "sys_queue.h"
#include "sys_stat.h"

typedef struct {
    double rate_mpps;       /* [nic] rate_mpps: offered packets per us; 0 = saturate */
    unsigned pkts_per_event;/* [nic] pkts_per_event, 32 (one warp, EDGE V) */
    unsigned slots;         /* [nic] slots: maxNumEvents = submission/completion queue entries, 16 */
    double poll_ns;         /* [nic] poll_ns: completion-queue polling period (device-local memory), 20 */
    bool ring_sync;         /* [nic] ring = sync: the slots are a receive ring in synchronized memory
                               whose words the DMA waits empty for and fills (F/E 4.2, 4.4); plain */
    bool early;             /* [nic] doorbell = early: rung before the batch's data, acting at once
                               (needs ring = sync); after_ack: behind the data, acting once it is
                               acknowledged (PCIe posted-write order) */
} nic_params;

void nic_params_default(nic_params *p);
int nic_params_load(nic_params *p, fg_config *cfg, char *err, size_t errlen);

enum { CQ_FREE = 0, CQ_BUSY = 1, CQ_DONE = 2 };
/* The completion queue in the NIC's memory: slot i's flag at device address
 * NIC_CQ_BASE + i * NIC_CQ_STEP (what each parameter entry's completion-queue
 * pointer names, EDGE Fig. 8c). */
enum { NIC_CQ_BASE = 0, NIC_CQ_STEP = 1 };

/* What the driver programs into the device (EDGE III-B, Fig. 8:
 * configureEdgeParamMemory / configureBaseParamMem, edgeRegisterEvent). */
typedef struct {
    uint64_t pkt_base, pkt_step; /* slot i's packets: pkt_base + i * pkt_step */
    uint64_t cnt_base, cnt_step; /* slot i's packet count (its parameter entry's, or its ring header's) */
    uint64_t out_base; /* slot i's results: out_base + i * IPV4_PKTS_PER_EVENT * 4 */
    bool doorbell;     /* launch requests: doorbell writes (EDGE) or task notices to the host (baseline) */
    uint64_t doorbell_addr;
} nic_map;

/* The packets offered: n_events batches; closed: one at a time, gap_ns
 * after the previous one's results are back; open loop: from t0 on. */
typedef struct {
    uint64_t n_events;
    bool closed;
    double gap_ns;
    double t0;
} nic_traffic;

/* One event as the NIC saw it (ns). */
typedef struct {
    double t_ready;    /* the batch is complete (its last packet arrived) */
    double t_req;      /* the launch request is issued: the data has left the NIC */
    double t_db;       /* the request reaches the GPU (EDGE) or host memory (baseline) */
    double t_dma0, t_dma_done; /* packet DMA: first byte at the GPU; every line acknowledged */
    double t_rd0, t_rd;        /* result read: request at the GPU; data read from GPU memory */
    double t_results;  /* results back at the NIC and checked */
    unsigned slot, cnt;
    unsigned dma_left; /* DMA writes not acknowledged yet */
    bool done;
    uint32_t res[IPV4_PKTS_PER_EVENT]; /* the results as read back */
} nic_event;

/* The NIC's measurements over a run. */
typedef struct {
    sys_stat dma_ns;         /* packet DMA: first byte at the GPU -> every line acknowledged */
    sys_stat read_ns;        /* result read: request at the GPU -> data read from GPU memory */
    sys_stat pkt_latency_ns; /* packet arrival at the NIC -> its result back at the NIC */
    double first_arrival_ns; /* -1 before the first batch */
    double last_result_ns;
    uint64_t started, finished;
    uint64_t checked, wrong, routed, dropped, noroute;
    char first_wrong[256];
} nic_stats;

/* The NIC's own actions (dev_port at / nic_act). */
enum { NIC_BATCH, NIC_DMA_START, NIC_CQ_SEEN, NIC_READ_START, NIC_RESULTS };

typedef struct {
    nic_params p;
    dev_port port;
    route_gen_params rp;
    const lpm_route *routes;
    size_t n_routes;
    const lpm_ref *ref;
    fg_rng rng;
    nic_map map;
    nic_traffic tr;
    uint8_t *cq;        /* completion queue in device memory, one flag per slot */
    unsigned head, tail;/* circular completion-queue pointers (EDGE Fig. 8c) */
    uint8_t *pkts;      /* per slot: the packets as sent (the DMA's source, and for checking) */
    double *arrive;     /* per slot and packet: arrival time at the NIC */
    uint64_t *event_of; /* per slot: event number */
    nic_event *ev;      /* per event */
    uint64_t next_batch;/* saturated: the next batch to make ready */
    sys_queue waiting;  /* uint64_t event numbers: batches ready, no free slot */
    nic_stats st;
} nic;

int nic_init(nic *n, const nic_params *p, const dev_port *port, const route_gen_params *rp, const lpm_route *r,
             size_t nr, const lpm_ref *ref, uint64_t seed, char *err, size_t errlen);
void nic_free(nic *n);
/* The driver has configured the device (map); packets arrive from tr.t0 on. */
int nic_run(nic *n, const nic_map *map, const nic_traffic *tr);
/* Runs the NIC's action `what` for event `e` at t (the event loop). */
void nic_act(nic *n, unsigned what, uint64_t e, double t);
/* The NIC's MMIO target: a write of data to device address addr lands at t
 * (a completion-queue flag: CQ_DONE turns the slot's results readable). */
void nic_mem_write(nic *n, uint64_t addr, uint32_t data, double t);

#endif
