/* rv32_fp: the computational instructions of the RISC-V "F" standard
 * extension (unprivileged ISA) to the letter: IEEE 754 results, the
 * exception flags NV DZ OF UF NX accumulated in fflags, the five rounding
 * modes from the instruction's rm field or from frm, canonical NaNs,
 * across the active lanes of a warp.  rv32_exec calls it; see rv32_fp.c
 * for how the host's floating-point environment is used. */
#ifndef RV32_FP_H
#define RV32_FP_H

#include <stdint.h>

/* fflags bits */
#define RV_FF_NX 0x01u /* inexact */
#define RV_FF_UF 0x02u /* underflow */
#define RV_FF_OF 0x04u /* overflow */
#define RV_FF_DZ 0x08u /* divide by zero */
#define RV_FF_NV 0x10u /* invalid operation */

/* rounding modes (rm field, frm) */
enum { RV_RNE = 0, RV_RTZ, RV_RDN, RV_RUP, RV_RMM, RV_DYN = 7 };

#define RV_CANON_NAN 0x7fc00000u

/* Rounding mode that `op` uses with rm field `rm` while frm holds `frm`:
 * rm, or frm when rm is RV_DYN; -1 when that is reserved (rm 5 or 6, or
 * DYN with frm > 4): an illegal instruction.  RV_RNE for ops that do not
 * round (their funct3 is not a rounding mode). */
int rv_fp_rm(unsigned op, unsigned rm, unsigned frm);

/* Executes `op` for the lanes in m (ops: fadd fsub fmul fdiv fsqrt
 * fmadd fmsub fnmsub fnmadd fmin fmax feq flt fle fcvt.w[u].s fcvt.s.w[u]): d[l] = op(a[l], b[l],
 * c[l]) (c only for fused multiply-add) rounded in mode rm (RV_RNE..RV_RMM),
 * and ORs the exception flags the lanes raise into *fflags.  d may be a, b
 * or c (rd = rs). */
void rv_fp_exec(unsigned op, unsigned rm, uint32_t m, uint32_t *d, const uint32_t *a, const uint32_t *b,
                const uint32_t *c, uint32_t *fflags);

#endif
