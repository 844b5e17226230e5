/* fg_shim: the C view of a verilated model.  Implemented once in
 * fg_shim.cpp (the only shared C++ in the project); each block adds a few
 * lines in sim/shim/<block>_shim.cpp that bind its ports. */
#ifndef FG_SHIM_H
#define FG_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct fg_rtl fg_rtl;

/* Holds rst_ni low for two clock cycles, then releases it. */
void fg_rtl_reset(fg_rtl *r);
/* Copies the C input struct onto the model's input ports, gives one rising
 * edge, dumps the waveform when inside the trace window. */
void fg_rtl_step(fg_rtl *r, const void *in);
/* Advances the cycle count without an edge (fg_block_skip). */
void fg_rtl_skip(fg_rtl *r);
/* on = 0: every edge evaluates its low phase too (the exactness test's
 * reference).  Returns 1 when on and the model can leave that eval out. */
int fg_rtl_set_quiet_fall(fg_rtl *r, int on);
/* Copies the model's output ports into the C output struct. */
void fg_rtl_outputs(fg_rtl *r, void *out);
/* Opens an FST file; only cycles in [start, end] are dumped (end 0: no end). */
int fg_rtl_trace(fg_rtl *r, const char *path, uint64_t start, uint64_t end);
/* A system trace (sim/harness/fg_wave.c): the next edge is the system's
 * cycle `cycle` (FST time from it, not from the block's own count), dumped
 * only when on. */
void fg_rtl_trace_sync(fg_rtl *r, uint64_t cycle, int on);
/* Dumps the present state (at the synced cycle's start). */
void fg_rtl_trace_sample(fg_rtl *r);
/* The model's state as bytes (fg_block's idle skip), or 0 bytes while it is
 * traced or recorded (every edge must then be given). */
size_t fg_rtl_state(const fg_rtl *r, const void **bytes);
/* The design's variables in the model's state (fg_rtl_state without the
 * instance's own pointers): equal in two instances in the same state. */
size_t fg_rtl_design_state(const fg_rtl *r, const void **bytes);
/* Writes out and closes the trace; the model runs on untraced. */
void fg_rtl_trace_close(fg_rtl *r);
/* Non-NULL once an immediate assertion in the RTL has failed. */
const char *fg_rtl_error(const fg_rtl *r);
void fg_rtl_free(fg_rtl *r);
/* The base seed of the randomized initial state of every verilated model in
 * this process: $FG_XSEED, else derived from $FG_SEED,
 * else fresh; FG_XSEED=<it> repeats the same initial state.  0 when
 * FG_XINIT=0 (every model starts all-zero). */
uint64_t fg_rtl_xseed(void);

#ifdef __cplusplus
}
#endif
#endif
