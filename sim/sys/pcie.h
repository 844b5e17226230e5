/* pcie: PCIe interconnect timing between host, GPU and the external device.
 *
 * Model (EDGE Sec. VI-A; F/E Sec. 6.1 and Table 1):
 *   - a posted write (DMA write, doorbell write, completion-flag write)
 *     arrives after half the round trip plus its serialization time;
 *   - a read (DMA read) completes after the full round trip plus its
 *     serialization time;
 *   - serialization is bytes / bandwidth, and each direction of the link is a
 *     shared resource: a transfer starts when the link is free.
 * Defaults: round trip 700 ns (EDGE VI-A, refs [16],[36],[40],[61]),
 * 6.8 GB/s (F/E Table 2, PCIe 2.0 x16 as measured).  Times are in ns. */
#ifndef SYS_PCIE_H
#define SYS_PCIE_H

#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"

typedef struct {
    double round_trip_ns; /* [pcie] round_trip_ns, 700 */
    double bw_gbps;       /* [pcie] bandwidth_gbps, 6.8 (GB/s = bytes per ns) */
} pcie_params;

void pcie_params_default(pcie_params *p);
/* Reads [pcie] keys over the defaults. */
int pcie_params_load(pcie_params *p, fg_config *cfg, char *err, size_t errlen);

/* Pure arithmetic (no link contention). */
double pcie_xfer_ns(const pcie_params *p, uint64_t bytes);           /* bytes / bandwidth */
double pcie_write_ns(const pcie_params *p, uint64_t bytes);          /* rtt/2 + xfer */
double pcie_read_ns(const pcie_params *p, uint64_t bytes);           /* rtt + xfer */

/* Link with occupancy: direction 0 = toward the GPU, 1 = from the GPU. */
enum { PCIE_TO_GPU = 0, PCIE_FROM_GPU = 1 };
typedef struct {
    pcie_params p;
    double free_at[2]; /* ns at which each direction's serializer is free */
    uint64_t bytes[2]; /* totals, for reports */
} pcie_link;

void pcie_link_init(pcie_link *l, const pcie_params *p);
/* A posted write of `bytes` issued at `now` in direction dir: returns the
 * time it is visible at the destination. */
double pcie_link_write(pcie_link *l, int dir, double now, uint64_t bytes);
/* A read issued at `now` of `bytes` flowing in direction dir (the data's
 * direction): returns the time the data is back at the reader. */
double pcie_link_read(pcie_link *l, int dir, double now, uint64_t bytes);

#endif
