/* fg_ring.h: an event kernel's side of a receive ring in synchronized
 * memory (F/E 4.1-4.5 beside EDGE III-C; docs/EVENT_KERNELS.md "Receive
 * ring").  A ring slot is a header line holding the device-written count,
 * then the data.  The device's DMA waits for each word it writes to be
 * empty and fills it, so an event may start before its data has arrived:
 * its loads of the slot wait until their words are full.
 *
 * A ring kernel's parameter entry is the plain kernel's followed by the
 * slot's data in the ring (FG_RING_PARAMS).  Synchronized accesses are
 * performed at the DRAM scheduler (F/E 4.1), so a kernel reads its slot in
 * one of two ways:
 *
 *   in place   (IPv4, IPv6: a few words of each packet) the entry's data
 *              pointer is the slot itself; the body's loads wait for their
 *              words; fg_ring_release hands the slot back after the body;
 *   staged     (MemC: parses its request byte by byte) the entry's data
 *              pointer names a copy in ordinary memory; fg_ring_stage copies
 *              the slot there once with loads that wait for each word and
 *              empty it (consume), handing the slot back at once, and the
 *              body runs on the copy from the cache.
 *
 *   n = fg_ring_count(ring)          the count, once it has landed
 *   fg_ring_release(ring, bytes)     once every thread is done with the slot
 *                                    (a barrier: under min-PC scheduling
 *                                    lanes that returned early would run
 *                                    ahead), the warp empties the bytes and,
 *                                    from lane 0, the count
 *   fg_ring_stage(ring, copy, bytes) the warp copies the bytes, waits for
 *                                    every lane (a barrier), then lane 0
 *                                    empties the count
 *
 * Lane l takes words l, l + 32, ...: each instruction covers one line. */
#ifndef FG_RING_H
#define FG_RING_H

/* the header line before a slot's data: the count word at its start */
#define FG_RING_HDR_BYTES 128u

#ifdef __riscv
#include <stdint.h>

#include "fg_fe.h"
#include "fg_kernel.h"

#define FG_RING_PARAMS(T)                                                                                          \
    struct {                                                                                                       \
        T p;                                                                                                       \
        uint32_t ring; /* the slot's data in the ring */                                                           \
    }

/* an ordinary load: in synchronized memory it waits until the word is full
 * (F/E 4.1), and it may be answered by the L2 ([mem] fe_l2_cache) */
static inline uint32_t fg_ring_count(uint32_t ring) {
    return *(const volatile uint32_t *)(uintptr_t)(ring - FG_RING_HDR_BYTES);
}

static inline void fg_ring_release(uint32_t ring, uint32_t bytes) {
    const uint32_t lane = fg_tid_x(), step = fg_ntid_x() * 4u;
    fg_sync();
    for (uint32_t off = lane * 4u; off < bytes; off += step) fg_st_empty((volatile void *)(uintptr_t)(ring + off), 0);
    if (lane == 0) fg_st_empty((volatile void *)(uintptr_t)(ring - FG_RING_HDR_BYTES), 0);
}

/* words a lane has in flight at once: its loads issue back to back */
#define FG_RING_BURST 4u

static inline void fg_ring_stage(uint32_t ring, uint32_t copy, uint32_t bytes) {
    const uint32_t lane = fg_tid_x(), step = fg_ntid_x() * 4u;
    for (uint32_t base = lane * 4u; base < bytes; base += step * FG_RING_BURST) {
        uint32_t v[FG_RING_BURST] = {0};
#pragma GCC unroll 4
        for (uint32_t k = 0; k < FG_RING_BURST; k++)
            if (base + k * step < bytes)
                v[k] = fg_ld_consume((const volatile void *)(uintptr_t)(ring + base + k * step));
#pragma GCC unroll 4
        for (uint32_t k = 0; k < FG_RING_BURST; k++)
            if (base + k * step < bytes) *(volatile uint32_t *)(uintptr_t)(copy + base + k * step) = v[k];
    }
    fg_sync();
    if (lane == 0) fg_st_empty((volatile void *)(uintptr_t)(ring - FG_RING_HDR_BYTES), 0);
}
#endif

#endif
