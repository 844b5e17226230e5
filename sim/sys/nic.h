/* nic: the external device (EDGE Sec. III-D, Fig. 8c device side; Fig. 8b
 * for the baseline).  Packets arrive at a configurable rate and are batched
 * 32 per event; each batch takes a free slot (the device's own head/tail
 * over the circular completion queue), is DMA'd into that slot's GPU input
 * buffer, and is launched (doorbell write, or hand-off to the polling CPU
 * threads).  When the slot's completion flag turns done the NIC reads the
 * results back, checks every packet against the host reference
 * (ipv4_forward_ref) and frees the slot.  Timing is done by sys.c. */
#ifndef SYS_NIC_H
#define SYS_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "route_gen.h"
#include "sys_queue.h"

typedef struct {
    double rate_mpps;       /* [nic] rate_mpps: offered packets per us; 0 = saturate */
    unsigned pkts_per_event;/* [nic] pkts_per_event, 32 (one warp, EDGE V) */
    unsigned slots;         /* [nic] slots: maxNumEvents = submission/completion queue entries, 16 */
    double poll_ns;         /* [nic] poll_ns: completion-queue polling period (device-local memory), 20 */
} nic_params;

void nic_params_default(nic_params *p);
int nic_params_load(nic_params *p, fg_config *cfg, char *err, size_t errlen);

enum { CQ_FREE = 0, CQ_BUSY = 1, CQ_DONE = 2 };

typedef struct {
    nic_params p;
    route_gen_params rp;
    const lpm_route *routes;
    size_t n_routes;
    const lpm_ref *ref;
    fg_rng rng;
    uint8_t *cq;        /* completion queue in device memory, one flag per slot */
    unsigned head, tail;/* circular completion-queue pointers (EDGE Fig. 8c) */
    uint8_t *pkts;      /* per slot: the packets as sent, for checking */
    double *arrive;     /* per slot and packet: arrival time at the NIC */
    uint64_t *event_of; /* per slot: event number */
    uint64_t checked, wrong, routed, dropped, noroute;
    char first_wrong[256];
} nic;

int nic_init(nic *n, const nic_params *p, const route_gen_params *rp, const lpm_route *r, size_t nr,
             const lpm_ref *ref, uint64_t seed, char *err, size_t errlen);
void nic_free(nic *n);
/* True when the slot at head is free (EDGE Fig. 8c: eventCompQ[head] == free). */
bool nic_can_start(const nic *n);
/* Takes the head slot for a new batch arriving at times arrive[0..cnt):
 * generates the packets into buf (cnt * IPV4_PKT_BYTES) and returns the slot. */
unsigned nic_start(nic *n, uint64_t event, const double *arrive, unsigned cnt, uint8_t *buf);
/* Checks the results of slot against the reference; returns the number of
 * wrong results (also accumulated), frees the slot (tail advances). */
unsigned nic_finish(nic *n, unsigned slot, const uint32_t *results, unsigned cnt);

#endif
