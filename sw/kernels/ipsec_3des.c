/* IPSec event kernel (EDGE Sec. V: 3DES over 256 B payloads, one event warp
 * per packet, all threads on one packet).  Each thread takes 8-byte blocks
 * tid, tid + 32, ... of the payload (ECB, as the EDGE artifact's
 * des_encrypt_dev): 3DES-encrypts it in place with the encryption
 * schedule, then decrypts it into the output with the decryption schedule.
 * DES is the table form of FIPS 46-3: the initial and final permutations as
 * five swap-moves each, 16 rounds per key with the S-boxes and P merged
 * into eight 64-word tables (layout in ipsec_3des.h); the inner FP/IP pairs
 * of 3DES cancel and are skipped.  Host side and reference:
 * sim/work/ipsec_work.c, sim/work/des_ref.c. */
#include <stdint.h>

#include "fg_kernel.h"
#include "ipsec_3des.h"

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))
#define SWAPMOVE(a, b, n, m) (t = (((a) >> (n)) ^ (b)) & (m), (b) ^= t, (a) ^= t << (n))

/* One round: l ^= f(r, k), with r, l and f in the rotated form. */
#define ROUND(l, r, sk)                                                                                          \
    do {                                                                                                         \
        uint32_t u = (r) ^ (sk)[0];                                                                              \
        (l) ^= sp[u >> 24 & 63] ^ sp[64 + (u >> 16 & 63)] ^ sp[128 + (u >> 8 & 63)] ^ sp[192 + (u & 63)];     \
        u = ROR(r, 4) ^ (sk)[1];                                                                                 \
        (l) ^= sp[256 + (u >> 24 & 63)] ^ sp[320 + (u >> 16 & 63)] ^ sp[384 + (u >> 8 & 63)] ^ sp[448 + (u & 63)]; \
    } while (0)

static inline uint32_t get_be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static inline void put_be32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

/* 3DES of one block from in to out with the 96-word schedule sk. */
static void des3_block(const uint32_t *sp, const uint32_t *sk, const uint8_t *in, uint8_t *out) {
    uint32_t l = get_be32(in), r = get_be32(in + 4), t;
    /* IP */
    SWAPMOVE(l, r, 4, 0x0f0f0f0fu);
    SWAPMOVE(l, r, 16, 0x0000ffffu);
    SWAPMOVE(r, l, 2, 0x33333333u);
    SWAPMOVE(r, l, 8, 0x00ff00ffu);
    SWAPMOVE(l, r, 1, 0x55555555u);
    l = ROR(l, 3), r = ROR(r, 3);
    for (unsigned k = 0; k < 3; k++) { /* E, D, E: each pass ends with the halves swapped */
        for (unsigned i = 0; i < 8; i++, sk += 4) {
            ROUND(l, r, sk);
            ROUND(r, l, sk + 2);
        }
        t = l, l = r, r = t;
    }
    l = ROR(l, 29), r = ROR(r, 29);
    /* FP = IP^-1: the swap-moves in reverse order */
    SWAPMOVE(l, r, 1, 0x55555555u);
    SWAPMOVE(r, l, 8, 0x00ff00ffu);
    SWAPMOVE(r, l, 2, 0x33333333u);
    SWAPMOVE(l, r, 16, 0x0000ffffu);
    SWAPMOVE(l, r, 4, 0x0f0f0f0fu);
    put_be32(out, l);
    put_be32(out + 4, r);
}

void ipsec_3des(const ipsec_params *p) {
    const uint32_t *sp = (const uint32_t *)(uintptr_t)p->sp;
    uint8_t *payload = (uint8_t *)(uintptr_t)p->payload, *out = (uint8_t *)(uintptr_t)p->out;
    const uint32_t nblk = p->nbytes / IPSEC_BLOCK_BYTES, step = fg_block_dim_x();
    for (uint32_t b = fg_thread_idx_x(); b < nblk; b += step) {
        uint8_t *blk = payload + b * IPSEC_BLOCK_BYTES;
        des3_block(sp, (const uint32_t *)(uintptr_t)p->esk, blk, blk);
        des3_block(sp, (const uint32_t *)(uintptr_t)p->dsk, blk, out + b * IPSEC_BLOCK_BYTES);
    }
}
