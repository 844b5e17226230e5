/* fe_host: the F/E runtime, a CUDA-like host API with F/E triggers and
 * actions (F/E 4.4), streams (4.4, 5), the staged latency model of F/E 6.1
 * and Table 2, and the GPU host interface of F/E 6.2, over the SIMT model
 * (sim/simt/gpu.h).  docs/FE_E2E.md.
 *
 * Three stages per command (F/E 6.1), each a separate resource, with stalls
 * between them:
 *   1. enqueue: the call latency, on the CPU thread (control returns after it);
 *   2. driver: a serial resource; a command waits for the driver to be free
 *      ("followed by a wait for the driver to become available");
 *   3. execution on the GPU: the command waits in its stream's queue at the
 *      host interface until the stream's previous command is complete, then
 *      runs: a copy through the host port at the PCIe rate (gpu_copy: one
 *      channel per stream, each line a functional request with the copy's
 *      trigger / action), a kernel on the SIMT cores.  A copy is complete
 *      when the memory system has acknowledged every line (host -> GPU) or
 *      its last byte has crossed the link (GPU -> host); a kernel when its
 *      every store is acknowledged (F/E 6.2).
 *
 *   call (F/E Table 2)   enqueue ([host] key)                driver                 execution
 *   memcpyAsync          1.2 us (memcpy_async_call_ns)       6 us (..._driver_ns)   size / 6.8 GB/s + ACKs
 *   launch               1.5 us (launch_call_ns)             3 us (launch_driver_ns) the kernel
 *   stream/device sync   1 us (sync_call_ns), returns 1 us (sync_after_ns) after the work is done
 *   memcpy (blocking)    the driver's 7 us (memcpy_ns) after every earlier command of every stream
 *                        is complete (the legacy default stream), then the copy; returns when done
 *
 * Time: the CPU thread's clock in ns (fe_now); the GPU is ticked only while
 * the CPU thread blocks (syncs, blocking copies), so it never runs ahead of
 * the thread: every command a call creates reaches the GPU after the GPU's
 * present time.  A GPU cycle c is at c * 1000 / clock_mhz ns. */
#ifndef FE_HOST_H
#define FE_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "simt/gpu.h"
#include "sys/host_api.h"
#include "sys/pcie.h"

/* F/E 4.4 flags (cudaMemcpyTrigger* / cudaMemcpyAction*), the codes of the
 * F/E queues (sim/twin/fe_sched_queues.h). */
enum { FE_TRIGGER_NONE = 0, FE_TRIGGER_FILLED = 1, FE_TRIGGER_EMPTIED = 2 };
enum { FE_ACTION_NONE = 0, FE_ACTION_FILL = 1, FE_ACTION_EMPTY = 2 };
typedef enum { FE_H2D = 0, FE_D2H = 1 } fe_dir;

#define FE_MAX_STREAMS 8

typedef struct {
    host_params api;        /* [host]: F/E Table 2 */
    pcie_params pcie;       /* [pcie]: bandwidth_gbps 6.8 (F/E Table 1) */
    unsigned streams;       /* [fe] streams, 1..FE_MAX_STREAMS (< [gpu] dma_chans: the last
                             * channel carries the blocking memcpy) */
    uint64_t max_cycles;    /* [fe] max_cycles: a blocking call gives up after this many GPU cycles */
} fe_host_params;

void fe_host_params_default(fe_host_params *p);
int fe_host_params_load(fe_host_params *p, fg_config *cfg, char *err, size_t errlen);

/* One command's stages (ns): the CPU thread's view and the GPU's. */
typedef enum { FE_CMD_COPY = 0, FE_CMD_LAUNCH, FE_CMD_MEMCPY, FE_CMD_SYNC } fe_cmd_kind;
typedef struct {
    fe_cmd_kind kind;
    int stream;             /* -1: the blocking memcpy / device sync */
    fe_dir dir;
    unsigned trig, act;
    uint64_t dev, bytes;
    double t_call, t_return;          /* CPU thread: call made, control back */
    double t_drv_start, t_drv_end;    /* driver (0, 0 for syncs) */
    double t_exec_start, t_exec_end;  /* GPU: started at the host interface, complete */
    uint64_t first_cycle;             /* kernels: first instruction issued (GPU cycle) */
    char label[32];
} fe_cmd;

typedef struct fe_host fe_host;

/* The runtime over g (which it drives: it installs g's callbacks).  NULL
 * with a message on bad parameters. */
fe_host *fe_host_new(gpu_t *g, const fe_host_params *p, char *err, size_t errlen);
void fe_host_free(fe_host *h);
gpu_t *fe_gpu(fe_host *h);
/* First error (a GPU fault, a call that cannot be made, a blocking call
 * that ran out of cycles) or NULL; every call after one returns -1. */
const char *fe_error(const fe_host *h);

/* ---- the CPU thread ---- */
double fe_now(const fe_host *h);
/* The thread computes for ns (no GPU time passes until it blocks). */
void fe_cpu_work(fe_host *h, double ns);
/* The time the driver is free again (every command so far has left it). */
double fe_driver_free(const fe_host *h);
double fe_cycle_ns(const fe_host *h, uint64_t cycle);

/* ---- set-up, outside the measured time (cudaMalloc, F/E 4.5 start-up) ----
 * Device memory, ordinary (L2-cached, no F/E bits) or synchronized (F/E 4.2:
 * in the F/E region, whole F/E lines, its bits set full or empty; the GPU
 * runs until the partitions' init ports are done and the thread's clock
 * moves to that time).  0 on failure (message in fe_error). */
uint64_t fe_malloc(fe_host *h, uint64_t bytes);
uint64_t fe_malloc_sync(fe_host *h, uint64_t bytes, bool full);
/* Untimed writes of static data (kernel parameters, tables loaded long
 * before the experiment): gpu_mem_write. */
int fe_poke(fe_host *h, uint64_t dev, const void *src, size_t bytes);

/* ---- the API (F/E Table 2, F/E 4.4) ----
 * label names the command in the timeline (may be NULL).  H2D copies take
 * src's bytes at the call; D2H copies write dst when they complete (valid
 * after a sync that covers them). */
int fe_memcpy_async(fe_host *h, unsigned stream, fe_dir dir, uint64_t dev, void *host, uint64_t bytes,
                    unsigned trig, unsigned act, const char *label);
int fe_memcpy(fe_host *h, fe_dir dir, uint64_t dev, void *host, uint64_t bytes, unsigned trig, unsigned act,
              const char *label);
int fe_launch(fe_host *h, unsigned stream, const gpu_launch_desc *d, const char *label);
int fe_stream_sync(fe_host *h, unsigned stream);
int fe_device_sync(fe_host *h);

/* ---- what happened ---- */
const fe_cmd *fe_commands(const fe_host *h, unsigned *n);

#endif
