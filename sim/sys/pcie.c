/* pcie: see pcie.h for the model and the source of each constant. */
#include "pcie.h"

void pcie_params_default(pcie_params *p) {
    p->round_trip_ns = 700.0; /* EDGE VI-A */
    p->bw_gbps = 6.8;         /* F/E Table 2 */
}

int pcie_params_load(pcie_params *p, fg_config *cfg, char *err, size_t errlen) {
    if (fg_config_double(cfg, "pcie", "round_trip_ns", 0.0, 1e9, &p->round_trip_ns, err, errlen))
        return -1;
    if (fg_config_double(cfg, "pcie", "bandwidth_gbps", 1e-3, 1e6, &p->bw_gbps, err, errlen))
        return -1;
    return 0;
}

double pcie_xfer_ns(const pcie_params *p, uint64_t bytes) { return (double)bytes / p->bw_gbps; }
double pcie_write_ns(const pcie_params *p, uint64_t bytes) {
    return p->round_trip_ns / 2.0 + pcie_xfer_ns(p, bytes);
}
double pcie_read_ns(const pcie_params *p, uint64_t bytes) {
    return p->round_trip_ns + pcie_xfer_ns(p, bytes);
}

void pcie_link_init(pcie_link *l, const pcie_params *p) {
    l->p = *p;
    l->free_at[0] = l->free_at[1] = 0.0;
    l->bytes[0] = l->bytes[1] = 0;
}

/* Serialization starts when the direction is free; the flight time
 * (rtt/2 for a write) follows the last byte. */
static double serialize(pcie_link *l, int dir, double start, uint64_t bytes) {
    if (l->free_at[dir] > start) start = l->free_at[dir];
    double end = start + pcie_xfer_ns(&l->p, bytes);
    l->free_at[dir] = end;
    l->bytes[dir] += bytes;
    return end;
}

double pcie_link_write(pcie_link *l, int dir, double now, uint64_t bytes) {
    return serialize(l, dir, now, bytes) + l->p.round_trip_ns / 2.0;
}

double pcie_link_read(pcie_link *l, int dir, double now, uint64_t bytes) {
    /* request travels rtt/2, data serializes on the return direction and
     * travels rtt/2 back */
    return serialize(l, dir, now + l->p.round_trip_ns / 2.0, bytes) + l->p.round_trip_ns / 2.0;
}
