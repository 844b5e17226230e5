/* l2: one L2 slice (GPGPU-Sim's memory sub-partition) as a unit of its own
 * (docs/MEM.md "L2 slice").  Above it the interconnect: requests arrive on
 * the request network at its node, responses leave on the reply network
 * from there (its one reply port).  Below it the memory partition, which
 * takes requests from the slice's miss queues and puts fills, F/E-tracked
 * responses and NACKs into its return queue (partition.h).  Records come
 * from the memory system's pool; the data part of a request is performed on
 * the backing store when it leaves the tag pipeline (mem_data.h).  It knows
 * nothing else of the system (mem.c wires it). */
#ifndef L2_H
#define L2_H

#include <stdbool.h>
#include <stdint.h>

#include "icnt.h"
#include "mem_config.h"
#include "mem_data.h"
#include "mem_rec.h"

/* What a slice is handed (l2_init copies it). */
typedef struct {
    const mem_config *c;
    mem_pool *pool;         /* records: requests in flight; the slice's own fills and write-backs */
    const mem_data *data;   /* where data requests are performed */
    const icnt_ops *net_ops;
    icnt *net;
    unsigned node;          /* the slice's node on both networks */
    bool *stall_in;         /* set when the slice's input queue is full (l2_in_queue): GPGPU-Sim's
                             * gpu_stall_dramfull, stallMC with [mem] stall_mc = l2_input; the owner clears it */
    bool *stall_net;        /* set when a response finds the reply network full: the stallnet (CM 3.2)
                             * of its partition, shared by the partition's slices; the owner clears it */
    unsigned *admitted;     /* [3] [mem] fe_admit: the slice's triggered requests admitted by mem_send and
                             * not yet taken by the partition, by class (a kept line's hit takes one) */
} l2_env;

/* The slice's counters (the memory system adds them to its partition's). */
typedef struct {
    uint64_t hits, misses, merges, writebacks; /* merges: misses that joined an MSHR */
    uint64_t fe_tracked;                       /* requests passed to the F/E queues */
    uint64_t fe_hits, fe_installs;             /* fe_l2_cache: tracked reads answered here, lines kept */
    uint64_t nacks;                            /* NACK responses sent */
    uint64_t blk[MEM_BLK_COUNT];               /* cycles the tag pipeline's head waited, by reason */
    uint64_t in_wait;                          /* cycles a request waited on the network for a full pipeline */
    uint64_t in_full;                          /* cycles the input queue (l2_in_queue) was full */
} l2_stats;

typedef struct {
    uint64_t line; /* global line number */
    uint64_t valid[2], dirty[2];
    uint64_t lru;
    uint32_t mshr; /* fill pending: its MSHR, else MEM_NONE */
    bool present;
    /* fe_l2_cache: a tracked line; valid = its bytes known full (clean); fe_pending = tracked writes or
     * actions on it in flight (the way stays while any is); fe_changed = the slice's F/E clock at the last
     * such request's lookup or response */
    bool fe;
    uint32_t fe_pending;
    uint64_t fe_changed;
} l2_way;

typedef struct {
    uint32_t way;   /* set * assoc + way */
    uint32_t *wait; /* l2_mshr_merge records */
    unsigned n;
    bool busy;
    uint64_t t_mc, t_dram, t_fill; /* its fill's stamps (mem_rec), for its waiters' breakdown */
} l2_mshr;

typedef struct {
    l2_env e;
    l2_way *ways;
    uint64_t *tag;  /* per way: its line + 1 when present, else 0 (the lookups scan these) */
    l2_mshr *mshr;
    uint32_t *mshr_wait;
    unsigned mshr_used;
    mq pipe;    /* tag pipeline (with l2_in_queue: the ROP delay before the input queue): ready L2 cycle */
    mq in;      /* l2_in_queue: the input queue the pipeline's head is served from */
    mq miss[3]; /* toward the partition, per F/E queue class: ready L2 cycle */
    mq ret;     /* from the partition: fills, F/E-tracked responses, NACKs */
    mq amo;     /* atomic unit: done L2 cycle */
    uint64_t amo_free, stamp;
    uint32_t drain; /* MSHR whose waiters are being answered, or MEM_NONE */
    unsigned drain_i;
    bool refused;   /* this cycle: the reply network refused a response it had room for */
    uint64_t now;   /* this L2 cycle (the breakdown's stamps) */
    unsigned why;   /* MEM_BLK_*: why the tag pipeline's head waited this cycle */
    /* fe_l2_cache: a read keeps the bytes it read only if no tracked write or action on its line passed
     * the slice or was in flight between its tag lookup and its response (l2.c).  fe_clock counts those
     * events; fe_floor is the clock of the last one no way records (its line had no way, or its way
     * was evicted; an F/E init), fe_untracked the ones in flight that no way counts */
    uint64_t fe_clock, fe_floor;
    unsigned fe_untracked;
    l2_stats st;
} l2_slice;

/* 0, or -1 out of memory (l2_free cleans up either way). */
int l2_init(l2_slice *l, const l2_env *e);
void l2_free(l2_slice *l);
/* Anything to do in a cycle: a request waiting at its node, one in the tag
 * pipeline, the atomic unit or the return queue, waiters being answered. */
bool l2_busy(const l2_slice *l);
/* One L2 cycle (`now` counts L2 cycles).  Returns 0, or -1 when the reply
 * network refused a response it had room for (an internal error). */
int l2_cycle(l2_slice *l, uint64_t now);
/* fe_l2_cache: the tracked lines of [addr, addr + bytes) are dropped and no
 * read in flight keeps its line (an F/E init of the range was queued). */
void l2_fe_drop(l2_slice *l, uint64_t addr, uint64_t bytes);

#endif
