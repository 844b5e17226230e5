/* simt_core: one SIMT core of the GPU model (timing model around the
 * functional executor rv32_exec): warps, GTO schedulers, i-buffers,
 * scoreboard, functional units, barriers and the resources a block holds
 * (simt_core.c); instruction fetch, the load/store unit with its L1 and
 * MSHRs, shared and local memory, and the core's one port into the memory
 * system (simt_lsu.c).  docs/SIMT.md.
 *
 * This is the core's public API: the core is opaque (its layout is in
 * simt_core_state.h, for the core's own files), the only owner of its
 * warps and resources.  Dependencies go one way: rv32_exec <- simt_core <-
 * simt_edge_core <- gpu.  The core knows no GPU: it reports block
 * completion, first instructions and faults through callbacks
 * (simt_core_cbs); an extension (EDGE warp-level events, simt_edge_core.c)
 * plugs in through a hooks table (simt_core_hooks) and acts on the core only
 * through the functions below (claim / park / resume / start an event warp,
 * stop-fetch, priority boost, barrier skip, load drop, drain). */
#ifndef SIMT_CORE_H
#define SIMT_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem/mem.h"
#include "simt/gpu.h"
#include "simt/simt_core_types.h"

/* ---- set-up and the cycle ---- */
/* n cores, zeroed, in one array (free() it after simt_core_free of each);
 * NULL when out of memory.  simt_core_nth: the i-th of them. */
simt_core *simt_core_array(unsigned n);
simt_core *simt_core_nth(simt_core *cores, unsigned i);
/* ms / port: the memory system and the core's port in it. */
int simt_core_init(simt_core *c, unsigned id, const gpu_config *k, uint8_t *gmem, uint64_t gmem_size,
                   simt_dcache *dc, mem_system *ms, unsigned port, const simt_core_cbs *cb);
void simt_core_free(simt_core *c);
void simt_core_set_hooks(simt_core *c, const simt_core_hooks *h, void *ext);
/* The GPU's flag that a commit of this cycle wrote memory (a store or an atomic). */
void simt_core_set_cycle_wrote(simt_core *c, bool *flag);
/* This core's register save area (EDGE IV-D): 64 registers x 32 lanes x 4 B per warp slot. */
void simt_core_set_save_base(simt_core *c, uint64_t base);
/* The core's cycle in three parts (gpu_tick): begin (the extension's
 * start-of-cycle hook and the port's responses read, not yet taken) and
 * cycle (the pipeline and the extension's end-of-cycle hook) touch nothing
 * another core's do, so the cores' begins and cycles may run on several
 * threads; commit (the responses taken from the port, the deferred work,
 * then the port's request to the memory system) runs core by core in core
 * order after them.  simt_core_tick = the three in a row. */
void simt_core_begin(simt_core *c, uint64_t now);
void simt_core_cycle(simt_core *c);
void simt_core_commit(simt_core *c);
void simt_core_tick(simt_core *c, uint64_t now);
/* The decode cache the next parts use (one per GPU thread); threaded: the
 * cycle runs on one of the GPU's threads, its memory work deferred to the
 * commit. */
void simt_core_set_dcache(simt_core *c, simt_dcache *dc);
void simt_core_set_threaded(simt_core *c, bool threaded);
/* on: an event warp whose F/E access the watchdog NACKs past [gpu]
 * fe_retry_max ends alone (cb.event_fault names it and why; it exits as
 * usual), instead of the fault stopping the core.  -1: out of memory.
 * How many event warps were ended so. */
int simt_core_set_event_faults(simt_core *c, bool on);
uint64_t simt_core_event_aborts(const simt_core *c);
/* Every decoded instruction was forgotten (gpu_decode_flush): so are the
 * warps' remembered scoreboard checks of them. */
void simt_core_decode_flushed(simt_core *c);
/* Leaves fn(user, a, payload copy) for the commit (n <= SIMT_DCALL_PAYLOAD
 * bytes of payload); false when out of memory (the core faults). */
bool simt_core_defer(simt_core *c, simt_dcall_fn fn, void *user, uint64_t a, const void *payload, size_t n);
/* The core still has memory work: requests queued or in flight, responses
 * to take (it must be ticked even with no warp). */
bool simt_core_mem_busy(const simt_core *c);
/* The core holds warps (its GTO order is not empty). */
bool simt_core_holds_warps(const simt_core *c);
/* Stops the model: formats the message, marks the core failed, calls cb.fault. */
void simt_core_fault(simt_core *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
unsigned simt_core_id(const simt_core *c);
unsigned simt_core_nwarps(const simt_core *c);  /* warp slots */
uint64_t simt_core_now(const simt_core *c);     /* the cycle simt_core_begin started */

/* ---- the block scheduler (gpu.c) and the CM hooks ---- */
/* Tries to place block bi of grid k on core c; true on success. */
bool simt_core_try_block(simt_core *c, const simt_grid *k, uint32_t bi);
/* CM-BAL: only the first limit background warps in GTO order issue (0: no
 * limit); event kernels' warps are never held. */
void simt_core_set_warp_limit(simt_core *c, unsigned limit);
/* The core holds a warp of an event kernel (the limit's exemption). */
bool simt_core_holds_events(const simt_core *c);
/* DYNCTA: at most limit blocks (0: no limit); pause: only the warps of the
 * oldest limit blocks issue.  Counts C_idle / C_mem from now on. */
void simt_core_set_block_limit(simt_core *c, unsigned limit, bool pause);
/* Slots (< 64) that issued since the last call. */
uint64_t simt_core_take_issued_warps(simt_core *c);
/* Bit s: scheduler s issued nothing in the core's last cycle while it held
 * warps (CM 4.2 stallGPU); cleared for a cycle the core was not ticked. */
unsigned simt_core_issue_stall(const simt_core *c);
void simt_core_clear_issue_stall(simt_core *c);
/* Statistics: adds the core's counters to s; fills the per-core ones. */
void simt_core_add_stats(const simt_core *c, gpu_stats *s);
void simt_core_get_stats(const simt_core *c, gpu_core_stats *s);
/* Event warps' cycles by class (GPU_EVB_*): counting on / off, added to out. */
void simt_core_set_event_breakdown(simt_core *c, bool on);
void simt_core_add_event_breakdown(const simt_core *c, uint64_t out[GPU_EVB_N]);

/* ---- diagnostics (gpu_diag.c) ---- */
/* The warp in slot when it runs or drains: fills o (zeroed first; not its
 * core, not its tag) and returns its launch; NULL (o untouched) otherwise. */
const simt_grid *simt_core_warp_info(const simt_core *c, unsigned slot, gpu_warp_info *o);
/* gpu_set_access_check / gpu_set_shared_hook for this core; -1 when out of
 * memory (the registers' provenance). */
int simt_core_set_access_check(simt_core *c, gpu_access_check fn, gpu_prov_load prov_load, void *user);
void simt_core_set_shared_hook(simt_core *c, gpu_shared_hook fn, void *user);
void simt_core_set_watch(simt_core *c, const gpu_watch *w);

/* ---- the extension's view of the warps (EDGE IV-C, IV-D) ---- */
void simt_core_warp(const simt_core *c, unsigned slot, simt_warp_status *st);
void simt_core_slot_masks(const simt_core *c, simt_slot_masks *m);
void simt_core_warp_pipe(const simt_core *c, unsigned slot, simt_warp_pipe *p);
/* The warp in slot may have its in-flight loads dropped (EDGE IV-D). */
bool simt_core_loads_droppable(const simt_core *c, unsigned slot);
/* The warp's next instruction is a FENCE waiting for its stores. */
bool simt_core_at_fence(simt_core *c, unsigned slot);
/* The slot holds a parked victim whose event warp has exited. */
bool simt_core_parked(const simt_core *c, unsigned slot);
/* The slots given to a new block this cycle and their registers per thread
 * (the preemption controller's w_alloc inputs). */
uint64_t simt_core_alloc_mask(const simt_core *c, unsigned *regs_pt);

/* ---- resources of one warp context (EDGE IV-D), for the extension ---- */
/* A free warp slot, 32 threads and regs_pt x 32 registers are available. */
bool simt_core_free_ctx(const simt_core *c, unsigned regs_pt, unsigned *slot);
/* regs_pt x 32 more registers fit in the register file. */
bool simt_core_regs_fit(const simt_core *c, unsigned regs_pt);
/* An event warp takes the free slot: its warp slot, threads, registers. */
void simt_core_claim(simt_core *c, unsigned slot, unsigned regs_pt);
/* The slot's running victim is set aside for an event warp with regs_pt
 * registers (mask ev_mask): saved = the victim's registers the event uses go
 * to the save area in global memory (values at once; posted MEM_K_SAVE
 * writes, one line per register, cost the bandwidth), else the event's are
 * reserved. */
void simt_core_park(simt_core *c, unsigned slot, unsigned regs_pt, uint64_t ev_mask, bool saved);
/* A companion of a victim set (EDGE VI-C, docs/PREEMPT.md "Victim sets") is
 * set aside with no event warp in its slot: its registers are the event's,
 * timed and saved with the set's first slot's, and the slot idles until its
 * RESUME. */
void simt_core_park_idle(simt_core *c, unsigned slot, bool saved);
/* The parked victim comes back (registers read back when saved: exact values
 * at once, and the restore reads in flight keep it from issuing until they
 * are back). */
void simt_core_resume(simt_core *c, unsigned slot);
/* Starts an event warp of grid k in slot (claimed or parked before) with
 * local-memory region local_idx at the given GTO priority. */
void simt_core_start_event(simt_core *c, unsigned slot, const simt_grid *k, unsigned local_idx, unsigned priority);

/* ---- acting on one warp, for the extension ---- */
/* Recomputes the GTO order (after priorities changed). */
void simt_core_sort(simt_core *c);
/* Stop (or resume) the warp's fetch; flush_ibuf also empties its i-buffer. */
void simt_core_stop_fetch(simt_core *c, unsigned slot, bool stop, bool flush_ibuf);
/* The warp's GTO priority (a boost; simt_core_sort makes it count). */
void simt_core_set_priority(simt_core *c, unsigned slot, unsigned priority);
/* Barrier skipping: a running warp's lanes waiting at its block's barrier
 * leave it (returned; 0: none), and rejoin it later (nothing when lanes is 0
 * or the warp no longer runs). */
uint32_t simt_core_barrier_skip(simt_core *c, unsigned slot);
void simt_core_barrier_rejoin(simt_core *c, unsigned slot, uint32_t lanes);
/* A running warp's in-flight loads dropped when they may be (replayed when
 * it issues again); false when not. */
bool simt_core_drop_loads(simt_core *c, unsigned slot);
/* The warp issues nothing more: no live lanes, draining ([preempt]
 * skip_exec); simt_core_finish_drained finishes it once its memory work is
 * done. */
void simt_core_drain_warp(simt_core *c, unsigned slot);
void simt_core_finish_drained(simt_core *c, unsigned slot);
/* A kernel finished on the core (an event warp exited): with [gpu]
 * kernel_end_drain the core's memory instructions wait for its data requests
 * in flight (simt_core_state.h end_drain). */
void simt_core_kernel_end(simt_core *c);

#endif
