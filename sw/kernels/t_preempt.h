/* t_preempt kernel arguments, shared with tests/test_preempt.c. */
#ifndef T_PREEMPT_H
#define T_PREEMPT_H
#include <stdint.h>

enum { T_PRE_LOAD = 0, T_PRE_BAR = 1, T_PRE_ALU = 2, T_PRE_FENCE = 3, T_PRE_LOADX = 4 };
#define T_PRE_ACC 8

struct t_pre_args {
    uint32_t next;  /* GPU address of the pointer-chase table (mask + 1 words) */
    uint32_t out;   /* GPU address of one result word per thread */
    uint32_t mode, iters, spin, mask;
};
#endif
