/* mem_data: the data part of a functional request (mem.h "Data"), performed
 * on the backing store at the request's point of coherence: the L2 slice, or
 * the DRAM scheduler for F/E-tracked lines (docs/MEM.md). */
#ifndef MEM_DATA_H
#define MEM_DATA_H

#include <stdint.h>

#include "mem_rec.h"

/* The backing store: the caller's flat memory, and the line geometry. */
typedef struct {
    uint8_t *mem;
    unsigned line_bytes;
    uint64_t line_mask[2]; /* every byte of a line */
} mem_data;

/* Reads, writes or atomically updates the bytes of a requester's data
 * request (the response's rdata); a timing request or the L2's own is left
 * alone. */
void mem_data_perform(const mem_data *d, mem_rec *r);

#endif
