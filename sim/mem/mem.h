/* mem: the memory system behind the SIMT cores (and, in the CM machine, the
 * CPU cores): interconnect -> L2 slices -> memory partitions, each with the
 * F/E-bit DRAM scheduler queues (RTL block rtl/fe/fe_sched_queues.sv through
 * fg_block: rtl, c or lockstep) in front of an FR-FCFS scheduler over a
 * GDDR5 bank model.  BRIEF.md's picture; docs/MEM.md for the model.
 *
 * One request/response interface for every requester: a SIMT core's
 * load/store unit, instruction fetch, atomics and register save/restore;
 * the host / PCIe DMA engine; later the CPU cores.  Each requester owns one
 * port.  Finite queues everywhere: mem_send() refuses a request its port
 * cannot take this cycle (back-pressure), never buffers without bound.
 *
 * Time: the caller ticks mem_tick() once per GPU core cycle; the
 * interconnect, L2 and DRAM run in their own clock domains given as
 * frequencies in mem_config (ratios to the core clock, no RTL among them).
 *
 * Data.  A request with `data` set is functional: a write's bytes are
 * written, a read's bytes returned, an atomic performed, at the moment the
 * request is performed at its point of coherence (the L2 slice; the DRAM
 * scheduler, after the F/E queues release it, for F/E-tracked lines, which
 * the caches never hold).  The backing store is the caller's flat memory.
 * A request without `data` is timing only: the SIMT core executes ordinary
 * loads and stores functionally at issue (docs/SIMT.md) and sends timing
 * requests, atomics too with [gpu] atomics = issue; F/E-tracked accesses,
 * the SIMT core's atomics with [gpu] atomics = memory (lane form), host DMA
 * and the random traffic tests use data requests.
 *
 * Every accepted request gets exactly one response on its port: reads and
 * atomics with their data, writes with an acknowledgement once performed
 * (FENCE and the F/E host interface, F/E 6.2, wait for these), and NACK
 * when the F/E watchdog gave up on a trigger that was never satisfied. */
#ifndef MEM_H
#define MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_block.h"
#include "fg_config.h"
#include "mem_types.h" /* mem_req, mem_rsp and their codes */

typedef struct mem_config mem_config; /* sim/mem/mem_config.h */
typedef struct mem_system mem_system;

/* Builds the memory system for n_ports requesters over the caller's flat
 * backing store (size bytes; it must outlive the system).  NULL with a
 * message on a bad configuration or an RTL block that cannot be built. */
mem_system *mem_new(const mem_config *c, unsigned n_ports, uint8_t *backing, uint64_t size,
                    char *err, size_t errlen);
void mem_free(mem_system *m);

/* Offers a request on a port: 0 taken; 1 not this cycle (the port's queue is
 * full: keep it and offer it again); -1 malformed (empty mask, crossing a
 * line, outside memory, bad op; also an atomic on an F/E-tracked line, which
 * F/E 4.1 does not define) with the reason in mem_error(), nothing changed.
 * At most one request per port per cycle is taken. */
int mem_send(mem_system *m, unsigned port, const mem_req *r);
/* The port's oldest undelivered response, or NULL; valid until mem_rsp_pop()
 * or the next mem_tick().  A port that does not pop back-pressures the
 * reply network. */
const mem_rsp *mem_rsp_peek(mem_system *m, unsigned port);
void mem_rsp_pop(mem_system *m, unsigned port);
/* mem_rsp_pop in two steps: the response leaves the port (the next one can
 * be peeked; the one taken stays valid), and later its record is released.
 * mem_rsp_take returns the record for mem_rsp_release, UINT32_MAX with
 * nothing to take.  (A GPU core releases its records in its commit, so cores
 * stepped on several threads change the memory system in core order.) */
uint32_t mem_rsp_take(mem_system *m, unsigned port);
/* What mem_rsp_peek would return after k takes, changing nothing: a GPU core
 * reads its responses on its own thread and takes them in its commit. */
const mem_rsp *mem_rsp_peek_at(const mem_system *m, unsigned port, unsigned k);
void mem_rsp_release(mem_system *m, uint32_t rec);

/* One GPU core cycle. */
void mem_tick(mem_system *m);
/* Nothing in flight anywhere (every accepted request answered and popped). */
bool mem_idle(const mem_system *m);
/* Non-NULL once an internal check failed (lockstep divergence or an RTL
 * assertion in a partition's F/E queues, an impossible state); the message
 * names the unit and the cycle.  A malformed request's reason is also here
 * until the next mem_send(). */
const char *mem_error(const mem_system *m);

/* F/E bits (F/E 4.5 "zero and mark full" at start-up; the host API's
 * allocation of synchronized memory): marks the tracked words of
 * [addr, addr + bytes) full or empty through each partition's init port.
 * Takes effect over the following cycles; mem_fe_init_busy() until done.
 * 0 queued; 1 not now (a partition's init queue is full: try again after a
 * tick); -1 addr or bytes not a multiple of 128 (one F/E line). */
int mem_fe_init(mem_system *m, uint64_t addr, uint64_t bytes, bool full);
bool mem_fe_init_busy(const mem_system *m);
/* Whether a byte address lies in the F/E-tracked region (accesses there
 * bypass the caches and are performed at the DRAM scheduler). */
bool mem_fe_tracked(const mem_system *m, uint64_t addr);
/* Whether any byte address of [lo, hi] (hi included) is F/E-tracked. */
bool mem_fe_overlaps(const mem_system *m, uint64_t lo, uint64_t hi);

/* Congestion of partition p in the last cycle, CM Sec. 3.2 / 4.1 (what the
 * CM-BAL monitor samples): stall_mc = a request could not enter the memory
 * controller because its queue was full; stall_net = a reply could not
 * enter the reply network because it was full. */
unsigned mem_partitions(const mem_system *m);
void mem_partition_stall(const mem_system *m, unsigned p, bool *stall_mc, bool *stall_net);

/* ---- F/E implementation, statistics and configuration ---- */

/* The F/E blocks' implementation, the core cycles ticked so far. */
fg_impl mem_fe_impl(const mem_system *m);
uint64_t mem_cycle(const mem_system *m);

/* Where the responses' time went (docs/MEM.md "Where a request's time goes"),
 * by how the slice answered (MEM_PATH_*).  Sums of core cycles over the responses taken:
 *   req     mem_send -> entered the slice's tag pipeline (request network,
 *           and waiting for room in the pipeline)
 *   pipe    -> left the pipeline (l2_latency, then waiting at its head for
 *           what it needs: MSHR, miss queue, reply network)
 *   wait    -> its response entered the reply network; for a miss split as
 *           missq (-> taken by the memory controller's F/E queues), mcq
 *           (-> into the DRAM scheduler queue), dram (-> the fill back at the
 *           slice) and drain (-> its response on the reply network)
 *   rep     -> at the requester's ejection queue (reply network)
 *   port    -> taken by the requester. */
typedef struct {
    uint64_t n, req, pipe, wait, missq, mcq, dram, drain, rep, port;
} mem_brk;

/* Statistics of partition p (requests counted at the partition of their
 * address), or of the whole system with p = MEM_ALL. */
#define MEM_ALL 0xffffffffu
typedef struct {
    uint64_t req[MEM_K_COUNT][3]; /* accepted requests by kind and op */
    uint64_t bytes[MEM_K_COUNT];  /* bytes of their masks */
    uint64_t lat_sum[MEM_K_COUNT], lat_n[MEM_K_COUNT]; /* mem_send -> response peekable, core cycles */
    uint64_t nacks;               /* NACK responses */
    uint64_t l2_hits, l2_misses, l2_merges, l2_writebacks; /* merges: misses that joined an MSHR */
    uint64_t fe_tracked;          /* requests performed at the DRAM scheduler */
    uint64_t fe_l2_hits, fe_l2_keeps; /* fe_l2_cache: tracked reads answered by the L2, lines it kept */
    uint64_t dram_reads, dram_writes, row_hits, row_misses, row_conflicts;
    uint64_t dram_bus_busy;       /* DRAM cycles the data bus carried data */
    uint64_t stall_mc, stall_net; /* core cycles with the partition's stallMC / stallnet */
    uint64_t fe_releases, fe_nacks; /* the F/E block's own counters */
    uint64_t cycles, dram_cycles; /* elapsed core / DRAM cycles */
    mem_brk brk[2][MEM_PATHS];    /* per source (MEM_SRC_GPU, MEM_SRC_CPU) and path */
    uint64_t l2_cycles;           /* L2 cycles elapsed, times the slices counted */
    uint64_t l2_blk[MEM_BLK_COUNT]; /* slice L2 cycles the tag pipeline's head waited, by reason */
    uint64_t l2_in_wait;          /* slice L2 cycles a request waited on the request network for a full pipeline */
    uint64_t l2_in_full;          /* slice L2 cycles the input queue (l2_in_queue) was full */
    uint64_t dram_q_full;         /* core cycles the F/E queues' output waited for room in the DRAM queue */
    uint64_t mc_q_full;           /* core cycles a request met a full memory-controller input (F/E) queue,
                                   * whatever [mem] stall_mc counts */
} mem_stats;
void mem_get_stats(const mem_system *m, unsigned p, mem_stats *s);
/* d = b - a, field by field: the counters' change between two readings. */
void mem_stats_delta(mem_stats *d, const mem_stats *a, const mem_stats *b);

/* Unloaded latency of one read of `bytes` bytes sent on port 0 to a line of
 * slice 0 (the mesh: their routers' distance) before core tick t_send, as
 * the sum of the modelled stages (docs/MEM.md): the response is
 * peekable before tick t_send + total.  Each stage in core cycles (clock
 * domain crossings included); the stages sum to total. */
typedef enum { MEM_LAT_L2_HIT = 0, MEM_LAT_ROW_HIT, MEM_LAT_ROW_MISS, MEM_LAT_ROW_CONFLICT } mem_lat_case;
typedef struct {
    uint64_t total;
    uint64_t req_net;   /* injection -> ejectable at the slice */
    uint64_t l2;        /* L2 clock wait + tag pipeline */
    uint64_t to_mc;     /* L2 -> memory controller path (0 for an L2 hit) */
    uint64_t fe;        /* F/E queues, non-triggered, empty (0 for an L2 hit) */
    uint64_t dram;      /* DRAM: row commands, column commands, CAS latency, bursts */
    uint64_t to_l2;     /* return to the slice */
    uint64_t reply_net; /* reply network -> peekable at the port */
} mem_lat;
int mem_unloaded_latency(const mem_config *c, uint64_t t_send, mem_lat_case k, unsigned bytes,
                         mem_lat *out);
/* The same from requester port `port` to global slice `slice` (on the mesh
 * their routers' distance sets the networks' part). */
int mem_unloaded_latency_at(const mem_config *c, unsigned port, unsigned slice, uint64_t t_send, mem_lat_case k,
                            unsigned bytes, mem_lat *out);

#endif
