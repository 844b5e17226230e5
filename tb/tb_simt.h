/* Test-bench helpers for tests that run one kernel on a small SIMT model. */
#ifndef TB_SIMT_H
#define TB_SIMT_H

#include <stdint.h>

#include "simt/gpu.h"

/* A GPU of the default configuration with `cores` cores and 16 MiB of
 * global memory without an F/E-tracked region; fails the test if it cannot
 * be made. */
gpu_t *tb_simt_gpu(unsigned cores);
/* Launches `k` as one block of `threads` threads with parameter block
 * `param` and runs it to completion; fails the test (naming `what`) on a
 * fault or when it has not finished after max_cycles. */
void tb_simt_run1(gpu_t *g, const gpu_kernel *k, unsigned threads, uint64_t param, uint64_t max_cycles,
                  const char *what);

#endif
