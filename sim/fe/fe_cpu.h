/* fe_cpu: the single-threaded CPU side of F/E Fig. 12 - vectorAdd on the
 * CPU core model of sim/cpu/ (docs/CPU_MODEL.md), configured as the F/E
 * paper's host CPU (F/E Table 1: Intel Xeon E3-1245, Sandy Bridge; the
 * [cpu] section of configs/fe.ini, sources in docs/FE_E2E.md "CPU model").
 *
 * The instruction stream is the loop c[i] = a[i] + b[i] (F/E 7.2 footnote
 * 2: sequential code) as gcc emits it for x86-64 with scalar SSE, in two
 * builds, each instruction with its register dependences:
 *   FE_CPU_O2 (-O2), 6 instructions an element:
 *     load a[i]; load b[i] (addss's memory operand); fp add; store c[i];
 *     i += 1; cmp + jne (macro-fused: one branch)
 *   FE_CPU_O0 (-O0), 22: i, n and the three pointers live in the stack
 *     frame; every use of i loads it, the increment is a load, an add and
 *     a store, so the loop-carried chain runs through memory.  The model
 *     has no store-to-load forwarding of its own: a load of i depends on
 *     the store of i as on a register (store result 1 cycle + L1 hit 4 =
 *     Sandy Bridge's 5-cycle forwarding).
 * The arrays lie at separate 1 MiB-aligned places (the stack frame apart);
 * their lines miss the core's L1 and L2 at first and come from a
 * fixed-latency memory that stands for the shared L3 (the inputs were just
 * written by the host program; 3 x 4 B x 256K = 3 MiB fits the E3-1245's
 * 8 MiB L3): [fe] cpu_mem_latency CPU cycles after the L2 lookup.
 *
 * First touch: F/E 7.2 measured its CPU on the real machine, where the
 * output c is freshly allocated: the loop's first store to each of c's
 * pages takes a page fault (the OS maps and zeroes the page).  The fault
 * is taken at retirement with the window flushed and the loop resumes
 * after the handler, so each page adds [fe] cpu_first_touch_ns to the
 * loop's time: the extra time per page that `make bench`'s first_touch
 * measures (fresh against already-written output) on a real host.  The
 * inputs were written by the host before the loop: no faults. */
#ifndef FE_CPU_H
#define FE_CPU_H

#include <stdint.h>

#include "cpu/cpu_core.h"

typedef enum { FE_CPU_O2 = 0, FE_CPU_O0, FE_CPU_CODES } fe_cpu_code;
extern const char *const fe_cpu_code_names[FE_CPU_CODES]; /* "O2", "O0" */
/* Instructions per element of each build. */
unsigned fe_cpu_vecadd_instrs(fe_cpu_code code);

/* What the core runs against beside its [cpu] configuration. */
typedef struct {
    unsigned mem_latency;    /* [fe] cpu_mem_latency: the L3, CPU cycles after the L2 lookup */
    unsigned first_touch_ns; /* [fe] cpu_first_touch_ns: per page of c first written (0: c already written) */
    unsigned page_bytes;     /* [fe] cpu_page_bytes (4096) */
} fe_cpu_env;

typedef struct {
    double ns;           /* the loop's runtime, faults included */
    double fault_ns;     /* of which the first-touch faults */
    uint64_t faults;     /* pages of c first written */
    uint64_t cycles, instrs;
    double ipc, cycles_per_elem;
    cpu_stats st;
} fe_cpu_result;

/* Runs vectorAdd of n elements on a fresh core (cold caches); 0, or -1 with
 * a message (bad configuration, no progress). */
int fe_cpu_vecadd(const cpu_config *c, const fe_cpu_env *env, fe_cpu_code code, uint64_t n, fe_cpu_result *r,
                  char *err, size_t errlen);

#endif
