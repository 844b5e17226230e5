/* sys: the whole system for the EDGE launch path: SIMT GPU model, EDGE
 * front-end (RTL blocks), the host CPU with the CUDA-like baseline API
 * (host_api.h) and the NIC (nic.h) as device models behind their ports
 * (dev_port.h), and the PCIe links between them, advanced one GPU core
 * cycle at a time.  sys.c holds the event loop and the wiring.  Host, PCIe
 * and NIC times are in ns and act at the first GPU cycle at or after them.
 * See docs/LAUNCH_PATH.md. */
#ifndef SYS_SYS_H
#define SYS_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "edge_frontend.h"
#include "fg_config.h"
#include "host_api.h"
#include "nic.h"
#include "pcie.h"
#include "route_gen.h"
#include "simt/gpu.h"
#include "sys_stat.h"

typedef enum { SYS_BASELINE = 0, SYS_EDGE = 1 } sys_path;

typedef struct {
    gpu_config gpu;
    pcie_params pcie;
    host_params host;
    edge_fe_params edge;
    nic_params nic;
    route_gen_params routes;
    double cpu_poll_ns;     /* [host] poll_ns: baseline CPU threads poll host memory, 100 */
    bool count_cq_write;    /* [launch_latency] count_cq_write: add the completion-queue
                               write to EDGE's launch latency as EDGE VI-A does, true */
    double gap_ns;          /* [launch_latency] gap_ns: idle time between serial events, 2000 */
    char kernel_elf[512];   /* [sys] kernel_elf, build/sw/ipv4_fwd.elf */
    char ring_kernel_elf[512]; /* [sys] ring_kernel_elf: the kernel with [nic] ring = sync,
                               build/sw/ipv4_fwd_ring.elf */
    uint64_t seed;          /* [sys] seed, 1 */
    uint64_t max_cycles;    /* [sys] max_cycles: a run longer than this fails, 2e9 */
    bool corrupt_table;     /* [sys] corrupt_table: fault injection for tests: flips the next
                               hop of every leaf of the GPU's copy of the table, false */
} sys_params;

void sys_params_default(sys_params *p);
int sys_params_load(sys_params *p, fg_config *cfg, char *err, size_t errlen);
/* The RTL blocks of the system: the EDGE front-end's doorbell decoder and
 * event kernel table, then the GPU's (gpu_config_blocks).  Returns how many. */
unsigned sys_params_blocks(const sys_params *p, fg_block_use *out, unsigned max);


typedef struct {
    uint64_t events, packets, wrong, routed, dropped, noroute;
    char first_wrong[256];
    char first_error[256];
    uint64_t errors;
    sys_stat launch_ns;     /* headline launch latency (see docs/LAUNCH_PATH.md) */
    sys_stat to_first_ns;   /* device request -> first instruction */
    /* EDGE parts (dma_wait_ns: the doorbell arrived before the packet DMA's
     * writes were acknowledged and waited for them, PCIe posted-write order) */
    sys_stat pcie_db_ns, dma_wait_ns, pcie_cq_ns, quant_ns, fe_cycles, dispatch_cycles, simt_cycles;
    /* baseline parts */
    sys_stat notify_ns, call_ns, driver_ns, kmu_quant_ns;
    sys_stat kernel_cycles;  /* first instruction -> completion */
    uint64_t before_data;    /* events whose first instruction issued before their packet DMA's
                                last acknowledgement ([nic] doorbell = early) */
    sys_stat dma_ns;         /* packet DMA: first byte at the GPU -> every line acknowledged */
    sys_stat read_ns;        /* result read: request at the GPU -> data read from GPU memory */
    sys_stat pkt_latency_ns; /* packet arrival at the NIC -> its result back at the NIC */
    double first_arrival_ns, last_result_ns, throughput_mpps;
    uint64_t gpu_cycles;     /* simulated GPU cycles of the whole run, setup included */
    uint64_t warp_instrs, thread_instrs; /* instructions the GPU executed in the run */
    gpu_stats gpu;           /* the GPU's counters at the end of the run (memory system included) */
    edge_fe_stats fe;
} sys_result;

/* Runs n_events through one path.  closed_loop: one event at a time,
 * gap_ns apart (launch-latency mode); otherwise packets arrive at
 * nic.rate_mpps (0 = as fast as slots free up).  Returns -1 with a message
 * on a setup error, a model fault, a lockstep divergence or a timeout;
 * wrong forwarding results are counted in r->wrong (the caller fails). */
int sys_run(const sys_params *p, sys_path path, bool closed_loop, uint64_t n_events, sys_result *r,
            char *err, size_t errlen);

#endif
