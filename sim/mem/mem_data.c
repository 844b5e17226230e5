/* mem_data: see mem_data.h. */
#include "mem_data.h"

#include <string.h>

static uint32_t amo_op(unsigned op, uint32_t a, uint32_t b) {
    switch (op) {
    case MEM_AMO_SWAP: return b;
    case MEM_AMO_ADD: return a + b;
    case MEM_AMO_XOR: return a ^ b;
    case MEM_AMO_AND: return a & b;
    case MEM_AMO_OR: return a | b;
    case MEM_AMO_MIN: return (int32_t)a < (int32_t)b ? a : b;
    case MEM_AMO_MAX: return (int32_t)a > (int32_t)b ? a : b;
    case MEM_AMO_MINU: return a < b ? a : b;
    default: return a > b ? a : b; /* MEM_AMO_MAXU */
    }
}

static bool bit(const uint64_t bm[2], unsigned i) { return bm[i >> 6] >> (i & 63) & 1; }

/* A lane-form atomic (mem.h): its operations one after another in lane
 * order, each reading the word the one before it left. */
static void perform_lanes(uint8_t *line, const mem_req *q, uint8_t *rdata) {
    for (unsigned i = 0; i < q->amo_ops; i++) {
        const mem_lane *l = &q->lane[i];
        uint32_t old, res;
        memcpy(&old, line + l->off, 4);
        switch (l->op) {
        case MEM_AMO_LR: res = old; break;
        case MEM_AMO_SC:
            res = old != l->cmp;
            if (!res) memcpy(line + l->off, &l->opnd, 4);
            break;
        case MEM_AMO_SC_FAIL: res = 1; break;
        default: {
            uint32_t nv = amo_op(l->op, old, l->opnd);
            memcpy(line + l->off, &nv, 4);
            res = old;
        }
        }
        memcpy(rdata + 4 * i, &res, 4);
    }
}

void mem_data_perform(const mem_data *d, mem_rec *r) {
    if (r->type != REC_EXT || !r->q.data) return;
    uint8_t *mem = d->mem + r->q.addr;
    unsigned lb = d->line_bytes;
    bool full = r->q.bmask[0] == d->line_mask[0] && r->q.bmask[1] == d->line_mask[1];
    switch (r->q.op) {
    case MEM_READ:
        if (full) memcpy(r->rsp.rdata, mem, lb);
        else
            for (unsigned i = 0; i < lb; i++)
                if (bit(r->q.bmask, i)) r->rsp.rdata[i] = mem[i];
        break;
    case MEM_WRITE:
        if (full) memcpy(mem, r->q.wdata, lb);
        else
            for (unsigned i = 0; i < lb; i++)
                if (bit(r->q.bmask, i)) mem[i] = r->q.wdata[i];
        break;
    default: /* atomics, word by word (mem_send checked whole words) */
        if (r->q.lanes) {
            perform_lanes(mem, &r->q, r->rsp.rdata);
            break;
        }
        for (unsigned i = 0; i < lb; i += 4) {
            if (!bit(r->q.bmask, i)) continue;
            uint32_t old, opnd, nv;
            memcpy(&old, mem + i, 4);
            memcpy(&opnd, r->q.wdata + i, 4);
            nv = amo_op(r->q.amo, old, opnd);
            memcpy(mem + i, &nv, 4);
            memcpy(r->rsp.rdata + i, &old, 4);
        }
    }
}
