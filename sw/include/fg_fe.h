/* fg_fe.h: word accesses with an explicit F/E trigger and action, from a
 * kernel (F/E 4.1, 4.5; docs/FE_E2E.md "Kernel side").
 *
 * In synchronized global memory (the F/E-tracked region; the host allocates
 * it with fe_malloc_sync, sim/fe/fe_host.h) ordinary C loads and stores
 * already behave as the F/E 4.1 GPU defaults: a load waits until its words
 * are full, a store marks them full.  These functions give one 4-byte access
 * its own trigger / action instead:
 *
 *   fg_ld_wait_full(p)       load once the word is full, leave it full (= a plain load)
 *   fg_ld_wait_empty(p)      load once the word is empty
 *   fg_ld_consume(p)         load once full, then mark it empty (one consumer)
 *   fg_ld_none(p)            load, ignoring and keeping the bit
 *   fg_st_fill(p, v)         store, mark full (= a plain store)
 *   fg_st_empty(p, v)        store, mark empty
 *   fg_st_produce(p, v)      store once the word is empty, mark full (one producer)
 *   fg_st_none(p, v)         store, keeping the bit
 *
 * and float spellings (fg_ldf_*, fg_stf_*).  p must be 4-byte aligned.
 * Outside the tracked region they are plain word loads / stores.  A trigger
 * nobody satisfies is NACKed by the memory controller's watchdog and the
 * core sends the access again a few times before it faults ([gpu]
 * fe_retry_max, fe_retry_backoff).
 *
 * Encoding (sim/simt/rv32.h, decoded by sim/simt/rv32_decode.c): R-type,
 * major opcode custom-0 (0x0B) for the load, custom-1 (0x2B) for the store,
 * funct3 = 010 (word), funct7 = action << 2 | trigger with trigger 0 none,
 * 1 wait-full, 2 wait-empty and action 0 none, 1 fill, 2 empty; rs1 = the
 * address (no offset), rs2 = x0 (load) or the data (store), rd = x0
 * (store).  GNU as emits it from `.insn r`, so no custom assembler is
 * needed, and the custom major opcodes cannot collide with RV32IMAF. */
#ifndef FG_FE_H
#define FG_FE_H

#include <stdint.h>

/* funct7 values: action << 2 | trigger */
#define FG_FE_LD_WAIT_FULL 1  /* wait-full, none */
#define FG_FE_LD_WAIT_EMPTY 2 /* wait-empty, none */
#define FG_FE_LD_CONSUME 9    /* wait-full, empty */
#define FG_FE_LD_NONE 0       /* none, none */
#define FG_FE_ST_FILL 4       /* none, fill */
#define FG_FE_ST_EMPTY 8      /* none, empty */
#define FG_FE_ST_PRODUCE 6    /* wait-empty, fill */
#define FG_FE_ST_NONE 0       /* none, none */

#define FG_FE_STR_(x) #x
#define FG_FE_STR(x) FG_FE_STR_(x)
#define FG_FE_LD(f7, p)                                                                            \
    ({                                                                                             \
        uint32_t v_;                                                                               \
        __asm__ volatile(".insn r 0x0b, 2, " FG_FE_STR(f7) ", %0, %1, x0" : "=r"(v_) : "r"(p) : "memory"); \
        v_;                                                                                        \
    })
#define FG_FE_ST(f7, p, v) __asm__ volatile(".insn r 0x2b, 2, " FG_FE_STR(f7) ", x0, %0, %1" ::"r"(p), "r"(v) : "memory")

static inline uint32_t fg_ld_wait_full(const volatile void *p) { return FG_FE_LD(FG_FE_LD_WAIT_FULL, p); }
static inline uint32_t fg_ld_wait_empty(const volatile void *p) { return FG_FE_LD(FG_FE_LD_WAIT_EMPTY, p); }
static inline uint32_t fg_ld_consume(const volatile void *p) { return FG_FE_LD(FG_FE_LD_CONSUME, p); }
static inline uint32_t fg_ld_none(const volatile void *p) { return FG_FE_LD(FG_FE_LD_NONE, p); }
static inline void fg_st_fill(volatile void *p, uint32_t v) { FG_FE_ST(FG_FE_ST_FILL, p, v); }
static inline void fg_st_empty(volatile void *p, uint32_t v) { FG_FE_ST(FG_FE_ST_EMPTY, p, v); }
static inline void fg_st_produce(volatile void *p, uint32_t v) { FG_FE_ST(FG_FE_ST_PRODUCE, p, v); }
static inline void fg_st_none(volatile void *p, uint32_t v) { FG_FE_ST(FG_FE_ST_NONE, p, v); }

/* float spellings (the word's bits, moved through an integer register) */
static inline float fg_fe_f(uint32_t u) {
    union { uint32_t u; float f; } x = {u};
    return x.f;
}
static inline uint32_t fg_fe_u(float f) {
    union { float f; uint32_t u; } x = {f};
    return x.u;
}
static inline float fg_ldf_wait_full(const volatile float *p) { return fg_fe_f(fg_ld_wait_full(p)); }
static inline float fg_ldf_wait_empty(const volatile float *p) { return fg_fe_f(fg_ld_wait_empty(p)); }
static inline float fg_ldf_consume(const volatile float *p) { return fg_fe_f(fg_ld_consume(p)); }
static inline float fg_ldf_none(const volatile float *p) { return fg_fe_f(fg_ld_none(p)); }
static inline void fg_stf_fill(volatile float *p, float v) { fg_st_fill(p, fg_fe_u(v)); }
static inline void fg_stf_empty(volatile float *p, float v) { fg_st_empty(p, fg_fe_u(v)); }
static inline void fg_stf_produce(volatile float *p, float v) { fg_st_produce(p, fg_fe_u(v)); }
static inline void fg_stf_none(volatile float *p, float v) { fg_st_none(p, fg_fe_u(v)); }

#endif
