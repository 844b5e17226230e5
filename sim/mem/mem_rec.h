/* mem_rec: what the units of the memory system hand each other (nothing
 * outside sim/mem/ includes it): the in-flight request record, the pool
 * records come from, and the bounded queues between units.  Header only, so
 * that mem.c (the wiring), l2.c and partition.c all use it without any of
 * them depending on another. */
#ifndef MEM_REC_H
#define MEM_REC_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "fe_sched_queues.h"
#include "mem_types.h"

#define MEM_NONE UINT32_MAX

enum { REC_EXT = 0, REC_FILL, REC_WB };

/* One in-flight request: a requester's (REC_EXT) or the L2's own (a line
 * fill or a write-back).  Preallocated; no malloc per request. */
typedef struct {
    mem_req q;
    mem_rsp rsp;
    uint64_t t_send;  /* core tick mem_send took it */
    uint64_t local;   /* partition-local byte address of the line */
    uint32_t next;    /* free list */
    uint32_t mshr;    /* REC_FILL: its MSHR in the slice */
    uint16_t port;
    uint8_t type, part, slice; /* slice: global index */
    bool tracked;     /* in the F/E region: bypasses the L2 */
    uint8_t fe_q, fe_src, fe_trig, fe_act, fe_dflt; /* F/E request fields */
    uint16_t bytes;   /* bytes of bmask */
    uint64_t fe_epoch; /* fe_l2_cache, a tracked read: its slice's F/E clock when it left the tag pipeline */
    bool fe_counted;   /* fe_l2_cache, a tracked write or action: its line's way counts it (l2.c) */
    /* Where its time went, in L2 cycles (mem_stats' breakdown; nothing times by them): entered the tag
     * pipeline, left it, (a fill or tracked request) taken by the F/E queues, passed to the DRAM
     * queue, back at the slice, and (a requester's) its response put on the reply network. */
    uint8_t path; /* MEM_PATH_*: how the slice answered it */
    uint64_t t_pipe, t_served, t_mc, t_dram, t_fill, t_reply;
} mem_rec;

/* The F/E fields of a request outside the F/E region (an untracked one, the
 * L2's fills and write-backs): no trigger, no action, the non-triggered
 * queue, which is what fe_sched_queue_of() gives for it. */
static inline void mem_rec_fe_plain(mem_rec *r) {
    r->fe_src = FE_SRC_GPU;
    r->fe_trig = FE_TRIG_NONE;
    r->fe_act = FE_ACT_NONE;
    r->fe_dflt = 0;
    r->fe_q = FE_Q_NT;
}

/* The records, with a free list; requesters (mem_send) may not take the last
 * `reserve`, which are the L2's for its own fills and write-backs. */
typedef struct {
    mem_rec *rec;
    unsigned n_rec, n_free, reserve;
    uint32_t free_head;
} mem_pool;

/* A free record (MEM_NONE when there is none). */
static inline uint32_t mem_rec_alloc(mem_pool *p) {
    if (!p->n_free) return MEM_NONE;
    uint32_t i = p->free_head;
    p->free_head = p->rec[i].next;
    p->n_free--;
    return i;
}

static inline void mem_rec_free(mem_pool *p, uint32_t i) {
    p->rec[i].next = p->free_head;
    p->free_head = i;
    p->n_free++;
}

/* Bounded FIFO of (record, time). */
typedef struct {
    uint32_t rec;
    uint64_t t;
} mq_ent;
typedef struct {
    mq_ent *e;
    unsigned cap, head, n;
} mq;
static inline int mq_init(mq *q, unsigned cap) {
    q->e = calloc(cap, sizeof *q->e);
    q->cap = cap;
    q->head = q->n = 0;
    return q->e ? 0 : -1;
}
static inline void mq_free(mq *q) { free(q->e); }
static inline bool mq_full(const mq *q) { return q->n == q->cap; }
static inline unsigned mq_room(const mq *q) { return q->cap - q->n; }
static inline mq_ent *mq_head(const mq *q) { return q->n ? &q->e[q->head] : NULL; }
static inline void mq_push(mq *q, uint32_t rec, uint64_t t) {
    q->e[(q->head + q->n++) % q->cap] = (mq_ent){rec, t};
}
static inline void mq_pop(mq *q) {
    q->head = (q->head + 1) % q->cap;
    q->n--;
}

#endif
