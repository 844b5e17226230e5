/* mem_internal: the memory system's state, shared by its units (mem.c, l2.c,
 * partition.c); nothing outside sim/mem/ includes it. */
#ifndef MEM_INTERNAL_H
#define MEM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "dram.h"
#include "fe_sched_queues.h"
#include "icnt.h"
#include "mem.h"
#include "mem_config.h"

#define MEM_NONE UINT32_MAX

/* ------------------------------------------------------------ clocks */
/* Domain d runs floor(n * f_d / f_core) cycles before core tick n
 * (GPGPU-Sim-style multi-rate stepping, exact in integer kHz). */
typedef struct {
    uint64_t f_core, f; /* kHz */
} mem_clk;
static inline uint64_t clk_before(const mem_clk *k, uint64_t tick) { return tick * k->f / k->f_core; }
/* The core tick in which domain cycle j runs. */
static inline uint64_t clk_tick_of(const mem_clk *k, uint64_t j) {
    return ((j + 1) * k->f_core + k->f - 1) / k->f - 1;
}

/* ------------------------------------------------------------ records */
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
} mem_rec;

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

/* ------------------------------------------------------------ L2 slice */
typedef struct {
    uint64_t line; /* global line number */
    uint64_t valid[2], dirty[2];
    uint64_t lru;
    uint32_t mshr; /* fill pending: its MSHR, else MEM_NONE */
    bool present;
} l2_way;

typedef struct {
    uint32_t way;   /* set * assoc + way */
    uint32_t *wait; /* l2_mshr_merge records */
    unsigned n;
    bool busy;
} l2_mshr;

typedef struct {
    unsigned node; /* interconnect node */
    l2_way *ways;
    uint64_t *tag;  /* per way: its line + 1 when present, else 0 (the lookups scan these) */
    l2_mshr *mshr;
    uint32_t *mshr_wait;
    unsigned mshr_used;
    mq pipe;    /* tag pipeline: ready L2 cycle */
    mq miss[3]; /* toward the partition, per F/E queue class: ready L2 cycle */
    mq ret;     /* from the partition: fills, F/E-tracked responses, NACKs */
    mq amo;     /* atomic unit: done L2 cycle */
    uint64_t amo_free, stamp;
    uint32_t drain; /* MSHR whose waiters are being answered, or MEM_NONE */
    unsigned drain_i;
    unsigned admitted[3]; /* fe_admit: triggered requests to this slice between mem_send and leaving
                           * their miss queue, per F/E queue class (never above l2_miss_queue) */
} l2_slice;

/* ------------------------------------------------------------ partition */
typedef struct {
    uint64_t rel;  /* F/E-relative byte address */
    uint32_t lines;
    bool full;
} fe_init_cmd;
#define FE_INIT_RING 8

typedef struct {
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
    void *hook;        /* the DRAM hooks' context */
    bool stall_net;    /* a reply of this partition could not enter the network this cycle */
    bool stall_mc;
    mem_stats st;
} mem_part;

/* ------------------------------------------------------------ system */
struct mem_system {
    mem_config c;
    unsigned n_ports, n_slices;
    uint8_t *mem;
    uint64_t size;
    uint64_t stripe; /* interleave_bytes x slices in all */
    /* records */
    mem_rec *rec;
    unsigned n_rec, n_free, reserve; /* requesters may not take the last `reserve` */
    uint32_t free_head;
    /* units */
    const icnt_ops *net_ops;
    icnt *net;
    l2_slice *sl;
    mem_part *pt;
    uint64_t *port_last; /* tick + 1 of each port's last accepted request */
    /* time */
    uint64_t tick;
    mem_clk k_icnt, k_l2, k_dram;
    uint64_t l2_now, dram_now; /* cycles done */
    uint64_t line_mask[2];     /* every byte of a line */
    char err[320];
    bool failed;
};

/* mem.c */
/* Partition, global slice and partition-local address of a byte address. */
void mem_map(const mem_system *m, uint64_t addr, unsigned *part, unsigned *slice, uint64_t *local);
uint32_t mem_rec_alloc(mem_system *m);
void mem_rec_free(mem_system *m, uint32_t r);
void mem_fail(mem_system *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The data part of a request, at its point of coherence (docs/MEM.md). */
void mem_perform(mem_system *m, mem_rec *r);
/* Flits of a record's response; puts it on the reply network from slice s
 * (the caller has checked the room with can_inject). */
unsigned mem_reply_flits(const mem_system *m, uint32_t rec);
void mem_reply(mem_system *m, unsigned s, uint32_t rec);

/* l2.c */
int l2_init(mem_system *m, unsigned s);
void l2_free(l2_slice *l);
void l2_cycle(mem_system *m, unsigned s, uint64_t now);
bool l2_busy(const mem_system *m, unsigned s);

/* partition.c */
int part_init(mem_system *m, unsigned p, char *err, size_t errlen);
void part_free(mem_part *pt);
void part_core_cycle(mem_system *m, unsigned p);
int part_fe_init(mem_system *m, uint64_t addr, uint64_t bytes, bool full);
bool part_init_busy(const mem_system *m, unsigned p);
/* F/E queue class and fields of a record (fe_sched_queue_of()). */
void part_fe_fields(const mem_system *m, mem_rec *r);

#endif
