/* ipsec_3des: layout shared by the IPSec event kernel
 * (sw/kernels/ipsec_3des.c, RV32) and the host side
 * (sim/work/ipsec_work.c).  Plain C99, fixed-width fields, no pointers.
 *
 * The EDGE artifact's IPSec kernel (benchmarks/edge/des_encryption/des.cu,
 * from NetBench's ipsec) runs 3DES (FIPS 46-3, TDEA: E_K3(D_K2(E_K1(x))))
 * in ECB mode over a packet's payload with one warp per packet, one 8-byte
 * block per thread: it encrypts the payload in place with the encryption
 * key schedule, then decrypts it into the output buffer with the
 * decryption schedule.  This kernel does the same.
 *
 * Tables the host builds (docs/EVENT_KERNELS.md, "IPSec"):
 *   sp[8][64]: the S-boxes combined with the permutation P, one 64-word
 *     table per S-box, in the order the round uses them: S1 S3 S5 S7 (the
 *     bytes of R ^ K0) then S8 S2 S4 S6 (the bytes of ror(R, 4) ^ K1).
 *     Words are in the round's rotated form: ror(P(S-box output), 3).
 *   esk, dsk[IPSEC_SK_WORDS]: per round two words K0, K1 holding the 48-bit
 *     subkey's eight 6-bit groups at bits 29..24, 21..16, 13..8, 5..0 in the
 *     sp order; 16 rounds of K1, K2, K3 (esk: encrypt K1, decrypt K2,
 *     encrypt K3; dsk: decrypt K3, encrypt K2, decrypt K1). */
#ifndef IPSEC_3DES_H
#define IPSEC_3DES_H

#include <stdint.h>

#define IPSEC_BLOCK_BYTES 8u
#define IPSEC_SK_WORDS 96u /* 3 keys x 16 rounds x 2 words */
#define IPSEC_SP_WORDS 512u
#define IPSEC_THREADS 32u  /* one warp per packet */
#define IPSEC_MAX_PAYLOAD 4096u

/* One submission-queue entry (EDGE III-B parameter memory). */
typedef struct {
    uint32_t payload; /* GPU address of this entry's payload, encrypted in place */
    uint32_t out;     /* GPU address of this entry's output: the payload decrypted again */
    uint32_t esk;     /* encryption key schedule (IPSEC_SK_WORDS) */
    uint32_t dsk;     /* decryption key schedule */
    uint32_t sp;      /* SP tables (IPSEC_SP_WORDS) */
    uint32_t nbytes;  /* payload bytes, a multiple of IPSEC_BLOCK_BYTES */
    uint32_t entry;   /* index of this submission-queue entry */
    uint32_t cq_lo, cq_hi;
} ipsec_params;

#endif
