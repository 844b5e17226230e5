/* mem_config: every parameter of the memory system (sim/mem/, docs/MEM.md),
 * read from the [mem] section of a machine file (configs/NAME.ini).  The INI
 * key of each field is its name.  Defaults: the EDGE machine (EDGE Table II
 * where it says something, GPGPU-Sim's GTX480 configuration elsewhere). */
#ifndef MEM_CONFIG_H
#define MEM_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fe_sched_queues.h"
#include "fg_block.h"
#include "fg_config.h"

enum { MEM_ICNT_XBAR = 0, MEM_ICNT_MESH }; /* crossbar; 2D mesh (CM Table I, docs/MESH.md) */
#define MEM_MESH_PORTS 128 /* requester ports a mesh placement can list */

struct mem_config {
    /* clock domains (MHz); mem_tick() is called at core_mhz ([gpu] clock_mhz when
     * the file has one, else [mem] core_mhz); the others are ratios to it */
    double core_mhz, icnt_mhz, l2_mhz, dram_mhz;
    /* address mapping: partitions (one DRAM channel each) x L2 slices per
     * partition, interleaved every interleave_bytes */
    unsigned partitions, slices, interleave_bytes, line_bytes;
    /* interconnect: request and reply networks */
    unsigned icnt;           /* MEM_ICNT_* */
    unsigned flit_bytes;     /* packet = 1 header flit + ceil(data / flit_bytes) */
    unsigned icnt_in_flits;  /* per-node injection queue */
    unsigned icnt_out_flits; /* per-node ejection queue */
    unsigned icnt_latency;   /* crossbar: cycles from the tail flit leaving its input to ejection */
    /* mesh (icnt = mesh): routers, VCs per port and flit buffers per VC,
     * router pipeline stages and link cycles per hop; placement of every
     * requester port and slice on a router (router = y * cols + x), the lists
     * empty (n = 0) for the automatic spread */
    unsigned mesh_cols, mesh_rows, mesh_vcs, mesh_vc_flits, mesh_router_cycles, mesh_link_cycles;
    unsigned mesh_n_ports, mesh_n_slices;
    uint8_t mesh_port_router[MEM_MESH_PORTS], mesh_slice_router[64];
    /* L2 slice */
    unsigned l2_sets, l2_assoc, l2_mshrs, l2_mshr_merge;
    unsigned l2_latency;      /* tag pipeline (L2 cycles) */
    unsigned l2_in_queue;     /* 0: the pipeline admits while it has room; N: GPGPU-Sim's ROP delay, then an
                               * N-entry input queue the head is served from (-gpgpu_dram_partition_queues
                               * i2$), admitting only while that has room */
    unsigned stall_mc;        /* MEM_STALL_MC_*: what stallMC counts (docs/MEM.md "Congestion counters") */
    unsigned l2_dram_latency; /* L2 -> memory controller path (L2 cycles) */
    unsigned l2_miss_queue;   /* per slice and F/E queue class, toward the partition */
    unsigned l2_return_queue; /* DRAM -> slice returns */
    unsigned l2_amo_cycles;   /* per atomic operation in the slice's atomic unit */
    unsigned l2_amo_queue;    /* atomics waiting for / in the atomic unit */
    /* F/E-bit DRAM scheduler queues, one block per partition */
    fg_impl fe_impl;
    uint64_t fe_region_base, fe_region_bytes; /* tracked global range (may be empty) */
    unsigned fe_qd_nt, fe_qd_cpu, fe_qd_gpu;  /* the memory controller's input queues */
    uint64_t fe_wdog_limit;                   /* core cycles blocked -> NACK; 0 = off */
    bool fe_idle_skip;                        /* don't clock a provably idle block */
    bool fe_l2_cache; /* the L2 keeps the tracked bytes a GPU wait-full read found full (F/E 4.2:
                       * once full, data "can be sent to the GPU cores and placed into the cache"); any
                       * tracked write or action on it, and any init of its range, drops it (docs/MEM.md) */
    bool fe_admit;  /* end-to-end admission of triggered requests (docs/MEM.md "F/E admission"): mem_send
                     * takes a wait-full / wait-empty request only while its slice's miss queue of that
                     * class can hold every such request in flight to it, so blocked triggers never
                     * stall a slice's tag pipeline (and the fill behind it) */
    /* GDDR5 channel per partition; timings in DRAM command-clock cycles */
    unsigned dram_banks, dram_row_bytes, dram_bus_bytes, dram_burst, dram_data_rate;
    unsigned dram_queue; /* FR-FCFS scheduler queue */
    unsigned tCL, tWL, tRP, tRC, tRAS, tCCD, tRCD, tRRD, tCDLR, tWR, tRTW_gap;
};
/* stallMC (CM 3.2): a request offered to the memory controller's full input
 * queue, or (GPGPU-Sim's gpu_stall_dramfull) the partition's input full: a
 * slice's input queue full, the request network holding requests back. */
enum { MEM_STALL_MC_CONTROLLER = 0, MEM_STALL_MC_L2_INPUT };

typedef struct mem_config mem_config; /* also in mem.h (C11 allows both) */

/* The EDGE machine (configs/edge.ini [mem] names the source of each value). */
void mem_config_default(mem_config *c);
/* Reads [mem] over *c (absent keys keep their value) and checks the result.
 * Returns 0, or -1 with a message naming the key. */
int mem_config_load(mem_config *c, fg_config *cfg, char *err, size_t errlen);
/* Consistency of a filled-in config (mem_config_load and mem_new call it). */
int mem_config_check(const mem_config *c, char *err, size_t errlen);

/* Derived figures. */
unsigned mem_config_bursts(const mem_config *c, unsigned bytes); /* DRAM bursts per access */
unsigned mem_config_burst_cycles(const mem_config *c);           /* data-bus cycles per burst */
unsigned mem_config_flits(const mem_config *c, unsigned bytes);  /* packet: header + data */
double mem_config_peak_gbps(const mem_config *c);                /* DRAM, all partitions */
uint64_t mem_config_l2_bytes(const mem_config *c);               /* all slices */
/* Address mapping (docs/MEM.md): the partition, global L2 slice and
 * partition-local byte address of a byte address. */
void mem_config_map(const mem_config *c, uint64_t addr, unsigned *part, unsigned *slice,
                    uint64_t *local);

/* Parameters of the partitions' F/E blocks: the verilated system
 * configuration (fe_sched_queues_sys, rtl/fe/fe_sched_queues.toml) when the config fits it,
 * otherwise its own (C twin only).  Returns true when they are the verilated
 * ones; otherwise why_not names the [mem] keys that differ. */
bool mem_config_fe_params(const mem_config *c, fe_sched_queues_params *p, char *why_not,
                          size_t len);

#endif
