/* host_api: the CUDA-like baseline host API timing model (F/E Sec. 6.1 and
 * Table 2).  Each call has a call latency (control returns to the CPU
 * thread) and, for asynchronous calls, a driver latency after which the
 * operation is complete.  The driver is a serial resource: a command waits
 * for the previous one to leave the driver (F/E 6.1: "followed by a wait for
 * the driver to become available").  Data moves over the PCIe link model.
 *
 *   call                 call latency        driver latency
 *   memcpy (blocking)    7 us + size/BW      -
 *   memcpyAsync          1.2 us              6 us + size/BW
 *   launch               1.5 us              3 us   (then the KMU->SIMT dispatch)
 *   stream/device sync   1 us, then 1 us after the work is done
 *
 * EDGE VI-A measured about 5 us for a launch on a Titan V; 1.5 + 3 us plus
 * the 300-cycle KMU->SIMT-core dispatch at 700 MHz (0.43 us) gives 4.93 us.
 * All times in ns; every constant is a [host] key. */
#ifndef SYS_HOST_API_H
#define SYS_HOST_API_H

#include <stddef.h>
#include <stdint.h>

#include "fg_config.h"
#include "dev_port.h"
#include "pcie.h"

typedef struct {
    double memcpy_ns;              /* 7000 */
    double memcpy_async_call_ns;   /* 1200 */
    double memcpy_async_driver_ns; /* 6000 */
    double launch_call_ns;         /* 1500 */
    double launch_driver_ns;       /* 3000 */
    double sync_call_ns;           /* 1000 */
    double sync_after_ns;          /* 1000 */
} host_params;

void host_params_default(host_params *p);
int host_params_load(host_params *p, fg_config *cfg, char *err, size_t errlen);

typedef struct {
    host_params p;
    pcie_link *link;
    double driver_free_at; /* the driver is a serial resource */
} host_api;

void host_api_init(host_api *h, const host_params *p, pcie_link *link);

/* Blocking copy host->GPU issued at now: returns when control returns (done). */
double host_memcpy(host_api *h, double now, uint64_t bytes);
/* Asynchronous copy: *ret = control returns, *done = copy complete. */
void host_memcpy_async(host_api *h, double now, uint64_t bytes, double *ret, double *done);
/* Kernel launch: *ret = control returns to the CPU thread, *at_gpu = the
 * launch command has reached the GPU's kernel management unit (the dispatch
 * to a SIMT core follows, modeled by the GPU side). */
void host_launch(host_api *h, double now, double *ret, double *at_gpu);
/* Stream synchronize issued at now for work completing at work_done:
 * returns when control returns. */
double host_sync(const host_api *h, double now, double work_done);

/* The baseline host as a device of the launch-path system (EDGE Fig. 8b):
 * a launch thread polls host memory for the device's task notices and
 * launches each event's kernel through the API above; a completion thread
 * waits in a stream synchronize for each launch and then writes the
 * completion into the device's memory.  Each thread is a serial resource. */
typedef struct {
    host_api api;
    double poll_ns;      /* [host] poll_ns: the launch thread's polling period */
    double launch_free;  /* the launch thread is free from then on */
    double cpl_free;     /* ... the completion thread */
} host_cpu;

void host_cpu_init(host_cpu *h, const host_params *p, pcie_link *to_gpu, double poll_ns);
/* A task notice landed in host memory at t: the launch thread sees it at
 * its next poll once free and calls launch: *start = the call, *ret =
 * control back, *at_gpu = the command in the GPU's kernel management unit. */
void host_cpu_notice(host_cpu *h, double t, double *start, double *ret, double *at_gpu);
/* The launched work was done at t_done: returns when the completion
 * thread's stream synchronize has returned (F/E Table 2: sync_after_ns
 * after the work) and its write to the device leaves. */
double host_cpu_complete(host_cpu *h, double t_done);

#endif
