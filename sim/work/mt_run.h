/* mt_run: one run of EDGE's multitasking experiments (EDGE VI-C Fig. 12,
 * VI-D Fig. 13): a fresh GPU in one scheduling mode ([preempt]: draining,
 * preemption or reservation, skip_exec, extra_regs), a background kernel
 * filling it (sim/work/bg_kernels.h; or none: events in isolation) and
 * event kernels of one kind (sim/work/ev_work.h; or none: the background in
 * isolation).  Events are offered at seeded random times (the same offers
 * in every mode); an offered event is sent when fewer than max_inflight
 * events are in flight, else dropped (EDGE's artifact: "generate events
 * with a preconfigured rate until the maximum of running events"): its
 * inputs go through the host DMA port at the PCIe link's rate (ops->send)
 * and it is launched at the SIMT core scheduler when they are acknowledged
 * ([mt] launch = after_ack) or as soon as its DMA starts (early; with ring =
 * sync its kernel waits for each word to land, sim/work/ev_work.h).
 * Every event's results (or, with skip_exec, its untouched outputs and
 * delivered inputs) and the background's results are checked; a wrong word
 * fails the run.  Used by build/bin/edge_fig12, build/bin/edge_fig13 and
 * tests/test_edge_mt.c. */
#ifndef WORK_MT_RUN_H
#define WORK_MT_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "fg_config.h"
#include "simt/gpu.h"
#include "sys/host_api.h"
#include "sys/pcie.h"
#include "work/ev_work.h"

/* How an event is launched (docs/LAUNCH_PATH.md):
 *   after_ack  at the SIMT core scheduler once its inputs' DMA is
 *              acknowledged (EDGE's doorbell after the data, PCIe
 *              posted-write order);
 *   early      when the DMA starts (the doorbell rung first; needs ring =
 *              sync for the kernel to see its data, EDGE III-C with F/E 4.1);
 *   host       the baseline (EDGE Fig. 8b): the device's task notice lands
 *              in host memory with its data, a polling CPU thread launches
 *              an ordinary kernel through the host API ([host], sim/sys/
 *              host_api.h), [edge] dispatch_cycles from the KMU to a core,
 *              and never before the DMA is acknowledged.
 * Completion reaches the device ("told") by the GPU's completion-queue write
 * over PCIe (EDGE) or the host's completion thread, then its write. */
typedef enum { MT_LAUNCH_AFTER_ACK = 0, MT_LAUNCH_EARLY = 1, MT_LAUNCH_HOST = 2 } mt_launch;

typedef struct {
    char event[16];       /* ipv4 | ipv6 | memc | ipsec | none */
    char bg[16];          /* conv | mm | bp | bfs | none */
    char size[16];        /* background size: paper | test */
    uint64_t seed;        /* arrivals, event inputs (background inputs: bg_seed) */
    uint64_t bg_seed;     /* background inputs (1: the same data in every run) */
    uint64_t gap_min, gap_max; /* gap between offers, uniform in [min, max] cycles */
    uint64_t warmup;      /* first offer this long after the background started */
    uint64_t warm_events; /* before the background: events one at a time, not counted (warm state) */
    unsigned max_inflight; /* events sent and not complete */
    uint64_t max_events;  /* events sent at most (0: no limit; required when bg is none) */
    unsigned priority;    /* event launches' priority (1..3) */
    pcie_params pcie;     /* [pcie]: each event's input crosses the link at its rate (EDGE VI-A, F/E Table 2) */
    mt_launch launch;     /* launch: after_ack | early | host */
    host_params host;     /* [host]: the host API's latencies (launch = host) */
    double host_poll_ns;  /* [host] poll_ns: the launch thread's polling period (100) */
    unsigned dispatch_cycles; /* [edge] dispatch_cycles: KMU -> SIMT core (launch = host; 300) */
    ev_ring ring;         /* ring: plain | sync, where the events' inputs land (ev_work.h) */
    bool timeline;        /* timeline: the points carry every event's DMA and end-to-end cycles */
    bool hold;            /* overflow = drop | hold: an offer beyond max_inflight is dropped (EDGE's artifact) or
                           * held by the device until a slot frees, in order (back-pressure) */
    uint64_t ring_stall;  /* ring_stall_cycles: a DMA into a ring slot that waits longer for the slot to be
                           * handed back stops the run naming the slot (below [mem] fe_wdog_limit; 200000) */
    /* link_fault_event = N (0: off): the Nth measured event's DMA fails after link_fault_bytes (a
     * multiple of 4; 4: its count lands, none of its data) and is never acknowledged; needs launch =
     * early.  Its kernel's loads are NACKed by the F/E watchdog past [gpu] fe_retry_max, the event ends
     * alone (gpu_set_event_fault_callback), its slot is marked empty again, and the run goes on. */
    uint64_t link_fault, link_fault_bytes;
} mt_params;

/* One event, cycles: input DMA began, launch at the SIMT core scheduler
 * (DMA acknowledged, at `sent` when early, after the host's launch when
 * host), warp context ready (the controller's START; host: the first
 * instruction), complete; its DMA's last line acknowledged; the device told
 * of the completion (mt_launch). */
typedef struct {
    uint64_t sent, launch, start, done, acked, told;
    uint64_t arrived;     /* offered (= sent unless held) */
    unsigned core;        /* the SIMT core it ran on */
    unsigned slot;        /* its parameter / ring slot */
    bool preempted, saved;
    unsigned set_warps; /* background warps it borrowed (gpu_event_info.set_warps) */
    bool faulted;         /* ended by a fault that stopped only it (ring = sync), results not checked */
} mt_event;

typedef struct {
    int ok;
    char err[384];
    mt_event *ev;         /* every event sent, in send order */
    unsigned n_ev;
    uint64_t offered, dropped; /* offers, and those dropped at max_inflight */
    uint64_t held, max_backlog; /* overflow = hold: offers that waited for a slot, the most waiting at once */
    uint64_t bg_cycles;   /* background: bg_start -> last completion (0: none) */
    uint64_t gpu_cycles;
    uint64_t warm_cycles; /* the warm-up's cycles (warm_events), before the background started */
    unsigned regs_bg, regs_ev;
    char bg_desc[160];
    uint64_t checked;     /* events whose results (or untouched outputs) were checked */
    uint64_t faulted;     /* events ended by a fault that stopped only them; ok only if each was injected */
    char fault[384];      /* the first one's diagnostic (its kind, number, ring slot and why) */
    gpu_preempt_stats ps;
    gpu_reserve_stats rs; /* reserved cores over the measured part (cycles, core_cycles, changes; max: the run's) */
    uint64_t evb[GPU_EVB_N]; /* event warps' cycles by class, summed over the run (gpu.h) */
    uint64_t end_drains, end_drain_cycles, end_drain_stalls; /* [gpu] kernel_end_drain, summed over the cores (gpu_stats) */
    double wall;
} mt_result;

/* Something in the run's loop beside the GPU (the CM-BAL monitor of
 * build/bin/edge_fig13, sim/prog/edge_fig13_main.c); every member may be
 * NULL.  The hooks' owner frees what attach made, after mt_run. */
typedef struct {
    void *user;
    /* the GPU is made (before the warm-up events); -1 with a message */
    int (*attach)(void *user, gpu_t *g, char *err, size_t errlen);
    void (*bg_start)(void *user); /* the background kernel was launched */
    void (*bg_first)(void *user); /* it issued its first instruction */
    void (*bg_end)(void *user);   /* it completed */
    /* after every gpu_tick: a message stops the run with it */
    const char *(*tick)(void *user);
} mt_hooks;

void mt_params_default(mt_params *x);
/* [section] of cfg: event, background, size, seed, bg_seed, gap_min, gap_max,
 * warmup, warm_events, max_inflight, max_events, priority (keys absent keep
 * x's values). */
int mt_params_load(mt_params *x, fg_config *cfg, const char *section, char *err, size_t errlen);

/* Runs x on a GPU configured by gc; cfg (may be NULL) gives the event
 * kind's tables ([routes], [ipv6], [memc], [ipsec]).  r->ok = 0 and r->err
 * say why on any failure, wrong results included.  h (may be NULL): what
 * runs beside the GPU.  mt_result_free frees r->ev. */
void mt_run(const mt_params *x, const gpu_config *gc, fg_config *cfg, const mt_hooks *h, mt_result *r);
void mt_result_free(mt_result *r);

/* "D" draining, "P" preemption, "X" preemption with extra_regs, "V"
 * preemption beside a register reserve for events, "R" reservation, "A"
 * adaptive (dynamic) reservation, from gc's [preempt]. */
const char *mt_mode_name(const gpu_config *gc);

#endif
