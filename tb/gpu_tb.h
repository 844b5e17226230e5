/* Test-bench helpers of the GPU-level tests (SIMT model, preemption, memory
 * path): kernel ELF paths and buffers in global memory. */
#ifndef GPU_TB_H
#define GPU_TB_H

#include <stddef.h>
#include <stdint.h>

#include "simt/gpu.h"

/* $BUILD/sw/<name>.elf (BUILD defaults to build) in buf. */
const char *tb_kernel_path(char *buf, size_t len, const char *name);
/* A fresh buffer of n bytes in global memory holding p (backdoor write);
 * fails the test when memory is full. */
uint64_t tb_gpu_put(gpu_t *g, const void *p, size_t n);

#endif
