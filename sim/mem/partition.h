/* partition: one memory partition as a unit of its own (docs/MEM.md
 * "Memory partition"): the F/E-bit DRAM scheduler queues (fg_block: rtl, c
 * or lockstep) in front of the FR-FCFS scheduler of its DRAM channel
 * (dram.h).  Above it its L2 slices, seen only through their queues
 * (part_slice): it takes requests from their miss queues and puts fills,
 * F/E-tracked responses and NACKs into their return queues.  Records come
 * from the memory system's pool; F/E-tracked requests are performed on the
 * backing store at the DRAM scheduler (mem_data.h).  It knows nothing else
 * of the system (mem.c wires it). */
#ifndef PARTITION_H
#define PARTITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dram.h"
#include "fe_sched_queues.h"
#include "fg_block.h"
#include "mem_config.h"
#include "mem_data.h"
#include "mem_rec.h"

/* One of the partition's slices, as the partition sees it. */
typedef struct {
    mq *miss;           /* its miss queues, [3] by F/E queue class: requests to take (ready L2 cycle) */
    mq *ret;            /* its return queue */
    unsigned *admitted; /* [3] [mem] fe_admit: its triggered requests not yet taken, by class (mem_send
                         * counts them in, the partition out) */
} part_slice;

/* What a partition is handed (part_init copies it). */
typedef struct {
    const mem_config *c;
    mem_pool *pool;
    const mem_data *data;
    const part_slice *slices; /* its c->slices slices, in order */
} part_env;

/* A queued F/E init command (mem_fe_init): F/E-relative lines to mark. */
typedef struct {
    uint64_t rel;  /* F/E-relative byte address */
    uint32_t lines;
    bool full;
} fe_init_cmd;
#define FE_INIT_RING 8

typedef struct {
    part_env e;
    part_slice *up;    /* e.slices, copied */
    unsigned p;        /* its index: its share of the address space, messages, the wave's place */
    fg_block *fe;
    fe_sched_queues_params fp;
    fe_sched_queues_in_t in;
    uint32_t *tag_rec; /* side table: tag -> record */
    uint32_t *tag_free;
    unsigned n_tag_free;
    unsigned rr;       /* slice offered first */
    fe_init_cmd init[FE_INIT_RING];
    unsigned init_head, init_n;
    unsigned quiet;    /* consecutive idle F/E cycles (fg_block_skip) */
    uint64_t fe_base;  /* partition-local address of the F/E region */
    dram_chan *dram;
    bool stall_mc;     /* CM 3.2 stallMC of the last cycle */
    uint64_t dram_q_full; /* cycles the F/E queues' output waited for room in the DRAM queue */
    char err[320];     /* part_cycle's failure */
} mem_part;

/* Builds partition p: its F/E block (through its power-up clear) and DRAM
 * channel.  0, or -1 with a message (part_free cleans up either way). */
int part_init(mem_part *pt, unsigned p, const part_env *e, char *err, size_t errlen);
void part_free(mem_part *pt);
/* One core cycle of the F/E block, with what it takes from the slices' miss
 * queues (those ready before L2 cycle l2_now) and gives to the DRAM queue or,
 * NACKed, back to a slice.  0, or -1 with the reason in pt->err (lockstep
 * divergence, RTL assertion, an F/E output that is not its request). */
int part_cycle(mem_part *pt, uint64_t l2_now);
/* The F/E block can skip the cycle (no init queued, idle two cycles). */
bool part_quiet(const mem_part *pt);
/* The F/E queue class and fields of a record mapped to this partition
 * (fe_sched_queue_of()). */
void part_fe_fields(const mem_part *pt, mem_rec *r);
/* mem_fe_init in two steps, so that all partitions queue or none: the
 * partition's F/E-relative share span[0..1) of [addr, addr + bytes), and
 * whether its init queue has room for it (0) or not (1); then queues it. */
int part_fe_init_span(const mem_part *pt, uint64_t addr, uint64_t bytes, uint64_t span[2]);
void part_fe_init_push(mem_part *pt, const uint64_t span[2], bool full);
/* An init command queued or being carried out. */
bool part_init_busy(const mem_part *pt);

#endif
