/* mem_types: the requests and responses of the memory system's interface
 * (mem.h, which includes this), apart so that the units behind it (l2.c,
 * partition.c, mem_data.c) use them without depending on mem.c. */
#ifndef MEM_TYPES_H
#define MEM_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define MEM_LINE_MAX 128 /* largest line; a request never crosses a line */

typedef enum {
    MEM_READ = 0, /* the bytes of bmask */
    MEM_WRITE,    /* the bytes of bmask (write-back L2; acked when performed) */
    MEM_ATOMIC,   /* read-modify-write at the L2; amo_ops operations, serialized there */
} mem_op;

typedef enum { MEM_OK = 0, MEM_NACK } mem_status;

/* Requester side for the F/E queue choice (F/E 4.3): CPU requests carry the
 * trigger/action the host API gave (F/E 4.4), GPU requests the F/E 4.1
 * defaults unless they give their own. */
enum { MEM_SRC_GPU = 0, MEM_SRC_CPU = 1 };

/* How a slice answered a request (statistics only): a read hit; a read miss
 * that took an MSHR (its fill to DRAM); a read that joined a pending fill; a
 * write (allocated without fetch: answered at once); anything else (atomics,
 * F/E-tracked requests, NACKs). */
enum { MEM_PATH_HIT = 0, MEM_PATH_MISS, MEM_PATH_MERGE, MEM_PATH_WRITE, MEM_PATH_OTHER, MEM_PATHS };
/* Why a slice's tag-pipeline head waited (statistics only): the reply
 * network, an MSHR (all taken, or the line's merge slots), the miss queue,
 * anything else (atomic queue, records, no victim way). */
enum { MEM_BLK_REPLY = 0, MEM_BLK_MSHR, MEM_BLK_MISSQ, MEM_BLK_OTHER, MEM_BLK_COUNT };

/* What a request is for (statistics and latency breakdowns only). */
enum { MEM_K_DATA = 0, MEM_K_INST, MEM_K_ATOMIC, MEM_K_SAVE, MEM_K_DMA, MEM_K_COUNT };

/* Atomic operations of data atomics.  Word form: `amo` applied per 4-byte
 * word of bmask with the operand at the same offset in wdata; the old value
 * is returned at the same offset of rdata.  Lane form (`lanes`, RV32A as a
 * SIMT core performs it at the memory: [gpu] atomics = memory): amo_ops
 * operations lane[0..amo_ops), each on its own word with its own op and
 * operand, performed one after another in that order (a warp's lanes in lane
 * order, so lanes on one word serialize deterministically); operation i's
 * result is the 4-byte word at rdata + 4 i.  LR and SC are lane form only:
 * LR returns the word and writes nothing; SC writes opnd if the word still
 * equals cmp (the value the lane's LR read) and returns 0, else 1 and
 * writes nothing; SC_FAIL (an SC without a reservation) returns 1. */
enum { MEM_AMO_SWAP = 0, MEM_AMO_ADD, MEM_AMO_XOR, MEM_AMO_AND, MEM_AMO_OR, MEM_AMO_MIN,
       MEM_AMO_MAX, MEM_AMO_MINU, MEM_AMO_MAXU, MEM_AMO_LR, MEM_AMO_SC, MEM_AMO_SC_FAIL };
#define MEM_LANES 32 /* operations of one lane-form atomic, at most */

typedef struct {
    uint32_t opnd, cmp; /* operand; MEM_AMO_SC: the value the lane's LR read */
    uint8_t off;        /* byte offset of the word in the line (a multiple of 4, in bmask) */
    uint8_t op;         /* MEM_AMO_* */
} mem_lane;

/* F/E trigger / action of a request: FE_TRIG_* / FE_ACT_* of
 * sim/twin/fe_sched_queues.h, or this for "the F/E 4.1 default of the
 * request's source and direction". */
#define MEM_FE_DEFAULT 0xff

typedef struct {
    uint64_t id;        /* the requester's, echoed in the response */
    uint64_t addr;      /* line address (a multiple of line_bytes) */
    uint64_t bmask[2];  /* bytes of the line it touches, bit i = byte i; not empty */
    uint8_t op;         /* mem_op */
    uint8_t src;        /* MEM_SRC_* */
    uint8_t kind;       /* MEM_K_* */
    uint8_t fe_trig;    /* FE_TRIG_* or MEM_FE_DEFAULT (ignored outside the F/E region) */
    uint8_t fe_act;     /* FE_ACT_* or MEM_FE_DEFAULT */
    uint8_t amo;        /* MEM_ATOMIC with data: MEM_AMO_* */
    uint8_t amo_ops;    /* MEM_ATOMIC: operations the L2 performs one after another (lanes), >= 1 */
    bool data;          /* functional request (see above) */
    bool lanes;         /* MEM_ATOMIC with data: lane form (lane[0..amo_ops), amo_ops <= MEM_LANES) */
    uint8_t wdata[MEM_LINE_MAX]; /* data writes / word-form atomics: bytes at their line offsets */
    mem_lane lane[MEM_LANES];    /* lane form (read only then: a requester may leave it unset otherwise) */
} mem_req;

typedef struct {
    uint64_t id;
    uint64_t addr;
    uint8_t op;         /* of the request */
    uint8_t status;     /* mem_status */
    uint8_t rdata[MEM_LINE_MAX]; /* data reads: the bytes of bmask; data atomics: old words (lane form:
                                  * operation i's result at 4 i) */
} mem_rsp;

#endif
