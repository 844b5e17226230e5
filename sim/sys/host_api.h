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

#endif
