/* Test-bench helpers of the GPU-level tests (SIMT model, preemption, memory
 * path, conformance): a small GPU, kernel ELF paths, buffers in global
 * memory, one-block runs. */
#ifndef GPU_TB_H
#define GPU_TB_H

#include <stddef.h>
#include <stdint.h>

#include "simt/gpu.h"

/* $BUILD/sw (BUILD defaults to build), where make puts the kernels' ELFs;
 * a static buffer. */
const char *tb_kernel_dir(void);
/* $BUILD/sw/<name>.elf in buf. */
const char *tb_kernel_path(char *buf, size_t len, const char *name);
/* A fresh buffer of n bytes in global memory holding p (backdoor write);
 * fails the test when memory is full. */
uint64_t tb_gpu_put(gpu_t *g, const void *p, size_t n);
/* A GPU of the default configuration with `cores` cores and 16 MiB of
 * global memory without an F/E-tracked region; fails the test if it cannot
 * be made. */
gpu_t *tb_simt_gpu(unsigned cores);
/* The same with [gpu] atomics = `atomics` (GPU_ATOMICS_*). */
gpu_t *tb_simt_gpu_atomics(unsigned cores, unsigned atomics);
/* Launches `k` as one block of `threads` threads with parameter block
 * `param` and runs it to completion; fails the test (naming `what`) on a
 * fault or when it has not finished after max_cycles. */
void tb_simt_run1(gpu_t *g, const gpu_kernel *k, unsigned threads, uint64_t param, uint64_t max_cycles,
                  const char *what);

#endif
