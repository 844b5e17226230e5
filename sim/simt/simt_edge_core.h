/* simt_edge_core: EDGE warp-level events and preemption in one SIMT core
 * (EDGE IV-C, IV-D, Figs. 9-10): the core's pending event warp table and
 * preemption / flush controller (RTL blocks, verilated, C twin or both in
 * lockstep) and the glue that carries out the controller's commands on the
 * core.  It plugs into the core through simt_core_hooks and reports to the
 * GPU through simt_edge_cbs; the GPU's SIMT core scheduler (gpu.c) asks each
 * core's cost and pushes events.  docs/PREEMPT.md. */
#ifndef SIMT_EDGE_CORE_H
#define SIMT_EDGE_CORE_H

#include "simt/gpu.h"
#include "simt/simt_core.h"

typedef struct simt_edge_core simt_edge_core;

/* Up to the GPU.  grid: the launch behind a PEWT tag (NULL: no such
 * waiting event).  started: the controller started it; info holds select,
 * start, preempted, saved, victim_slot, set_warps, vstat, victim_age.  done: the PEWT
 * freed its entry (the event kernel is complete). */
typedef struct {
    const simt_grid *(*grid)(void *user, uint64_t tag);
    void (*started)(void *user, uint64_t tag, const gpu_event_info *info);
    void (*done)(void *user, uint64_t tag);
    void *user;
} simt_edge_cbs;

/* Builds the two blocks of core c ([preempt] of k) and sets c's hooks. */
simt_edge_core *simt_edge_new(simt_core *c, const gpu_config *k, const simt_edge_cbs *cb, char *err, size_t errlen);
void simt_edge_free(simt_edge_core *e);

/* SIMT core scheduler (EDGE IV-C): whether the core's PEWT takes an event
 * this cycle, the cost of sending event k to it (lower is better), and the
 * push itself (one per core per cycle). */
bool simt_edge_can_push(const simt_edge_core *e);
unsigned simt_edge_cost(const simt_edge_core *e, const simt_grid *k);
/* The part of a cost that means "no free context, no eligible victim": the
 * event would wait there for a context to drain; each pending event adds
 * SIMT_EDGE_COST_PENDING. */
#define SIMT_EDGE_COST_DRAIN 8u
#define SIMT_EDGE_COST_PENDING 16u
void simt_edge_push(simt_edge_core *e, const simt_grid *k, uint64_t tag);

/* Adds the core's counters to s. */
void simt_edge_stats(const simt_edge_core *e, gpu_preempt_stats *s);

#endif
