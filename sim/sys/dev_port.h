/* dev_port: how a device model of the launch-path system (the NIC, nic.h)
 * reaches the rest of the system.  sys.c wires one port per device; the
 * device holds nothing of the system but this.
 *
 *   links      the device's PCIe links (pcie.h): it times its own transfers
 *              on them, and shares their serializers with whatever else
 *              crosses them (the GPU's completion-flag writes);
 *   at         its own timed actions: the system's event loop calls the
 *              device's act function back at the first GPU cycle at or
 *              after t (FIFO among equal times);
 *   DMA        GPU memory through the GPU's host port (gpu_dma_write /
 *              gpu_dma_read: line requests through the memory system, the
 *              callback in the GPU cycle the last line is acknowledged or
 *              the last data is back; into a synchronized receive ring with
 *              wait-empty / fill on every line);
 *   post       a posted register or memory write that reaches its target at
 *              t: the GPU front-end's register space (the doorbell decoder,
 *              EDGE III-C; the system lets it act only once the device's
 *              DMA writes before it are acknowledged, PCIe posted-write
 *              order, unless it is an early doorbell into a ring) or host memory (the baseline's task notice, EDGE
 *              Fig. 8b).
 *
 * Writes into the device's own memory (its completion queue) come the other
 * way, through the device's MMIO target function (nic_mem_write). */
#ifndef SYS_DEV_PORT_H
#define SYS_DEV_PORT_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "pcie.h"

/* The targets of a posted write. */
enum { DEV_TO_GPU_MMIO = 0, DEV_TO_HOST_MEM = 1 };

/* Called in the GPU cycle a DMA job completes (gpu_dma_cb's shape): data
 * NULL for a write, the len bytes read for a read (valid during the call). */
typedef void (*dev_dma_cb)(void *user, uint64_t tag, uint64_t cycle, const void *data, size_t len);

typedef struct {
    void *sys;
    double cycle_ns;   /* ns per GPU cycle: DMA callbacks report GPU cycles */
    pcie_link *to_gpu; /* the device's link to the GPU (data, doorbell, results) */
    pcie_link *to_host;/* ... and to the host (the baseline's notices, its completions) */
    /* The device's action `what` for `tag` at t ns; -1 when out of memory. */
    int (*at)(void *sys, double t, unsigned what, uint64_t tag);
    /* DMA at bytes_per_cycle (0: as fast as the host port takes the lines):
     * 0 queued; 1 the host DMA queue is full (nothing done, try again a
     * cycle later); -1 outside GPU memory. */
    int (*dma_write)(void *sys, uint64_t addr, const void *src, size_t len, double bytes_per_cycle, dev_dma_cb cb,
                     void *user, uint64_t tag);
    /* ... into a receive ring in synchronized memory: each line waits for
     * its words to be empty and fills them (F/E 4.4 trigger and action on
     * the device's writes); returns as dma_write. */
    int (*dma_fill)(void *sys, uint64_t addr, const void *src, size_t len, double bytes_per_cycle, dev_dma_cb cb,
                    void *user, uint64_t tag);
    int (*dma_read)(void *sys, uint64_t addr, size_t len, double bytes_per_cycle, dev_dma_cb cb, void *user,
                    uint64_t tag);
    unsigned (*dma_free)(void *sys); /* DMA jobs the host port's queue takes now */
    /* A posted write of event `tag` reaches target (DEV_TO_*) at t ns. */
    void (*post)(void *sys, double t, unsigned target, uint64_t addr, uint32_t data, uint64_t tag);
    /* Every DMA write of event `tag` is acknowledged (at t ns): a write
     * posted after them may act now. */
    void (*dma_acked)(void *sys, uint64_t tag, double t);
    /* The harness's hook: event `tag`'s results were read back and checked
     * (the system poisons the result buffer: a check, not device traffic). */
    void (*checked)(void *sys, uint64_t tag);
    /* A fault the run cannot go on from (the first message is kept). */
    void (*fail)(void *sys, const char *msg);
} dev_port;

/* When a poller that looks every period ns (0: continuously) first sees
 * what appeared at t. */
static inline double dev_poll_seen(double t, double period) { return period > 0 ? ceil(t / period) * period : t; }

#endif
