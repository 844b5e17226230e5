/* ipsec_work: see ipsec_work.h and docs/EVENT_KERNELS.md ("IPSec"). */
#include "work/ipsec_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "work/des_ref.h"
#include "work/ev_work.h"

#define POISON 0xA5u

void ipsec_gen_params_default(ipsec_gen_params *p) {
    p->payload_bytes = 256;
    p->seed = 1;
}

int ipsec_gen_params_load(ipsec_gen_params *p, fg_config *cfg, char *err, size_t errlen) {
    const ev_cfg_key k[] = {{"payload_bytes", &p->payload_bytes, IPSEC_BLOCK_BYTES, IPSEC_MAX_PAYLOAD}};
    if (ev_cfg_load(cfg, "ipsec", k, 1, &p->seed, err, errlen)) return -1;
    if (p->payload_bytes % IPSEC_BLOCK_BYTES) {
        snprintf(err, errlen, "[ipsec] payload_bytes = %u: must be a multiple of %u (3DES blocks)", p->payload_bytes,
                 IPSEC_BLOCK_BYTES);
        return -1;
    }
    return 0;
}

static uint32_t ror32(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

/* The round takes the S-boxes in this order (ipsec_3des.h). */
static const uint8_t SP_BOX[8] = {0, 2, 4, 6, 7, 1, 3, 5};

void ipsec_build_sp(uint32_t sp[IPSEC_SP_WORDS]) {
    for (unsigned t = 0; t < 8; t++)
        for (unsigned v = 0; v < 64; v++) {
            unsigned b = SP_BOX[t];
            sp[t * 64 + v] = ror32(des_ref_p(des_ref_sbox(b, v) << (28 - 4 * b)), 3);
        }
}

/* Round r of one key into two words: the subkey's 6-bit groups in SP_BOX order. */
static void put_round(const uint64_t sk48, uint32_t *w) {
    w[0] = w[1] = 0;
    for (unsigned t = 0; t < 8; t++) {
        uint32_t g = (uint32_t)(sk48 >> (42 - 6 * SP_BOX[t])) & 63;
        w[t / 4] |= g << (24 - 8 * (t % 4));
    }
}

static void put_key(const uint64_t sk[16], int decrypt, uint32_t *w) {
    for (unsigned r = 0; r < 16; r++) put_round(sk[decrypt ? 15 - r : r], w + 2 * r);
}

void ipsec_build_schedules(const uint64_t key[3], uint32_t esk[IPSEC_SK_WORDS], uint32_t dsk[IPSEC_SK_WORDS]) {
    uint64_t s[3][16];
    for (unsigned i = 0; i < 3; i++) des_ref_subkeys(key[i], s[i]);
    put_key(s[0], 0, esk), put_key(s[1], 1, esk + 32), put_key(s[2], 0, esk + 64); /* E_K1, D_K2, E_K3 */
    put_key(s[2], 1, dsk), put_key(s[1], 0, dsk + 32), put_key(s[0], 1, dsk + 64); /* D_K3, E_K2, D_K1 */
}

/* A random DES key with odd parity in every byte (FIPS 46-3 key format). */
static uint64_t gen_key(fg_rng *r) {
    uint64_t k = fg_rng_next(r), out = 0;
    for (int i = 7; i >= 0; i--) {
        unsigned b = (unsigned)(k >> (8 * i)) & 0xFE;
        out = out << 8 | b | !(__builtin_popcount(b) & 1);
    }
    return out;
}

static uint64_t get_be64(const uint8_t *p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

int ipsec_work_init(ipsec_work *w, gpu_t *g, const ipsec_gen_params *gp, const char *elf, unsigned slots, ev_ring ring,
                    char *err, size_t errlen) {
    memset(w, 0, sizeof *w);
    w->gp = *gp;
    w->slots = slots;
    w->ring = ring;
    if (ring != EV_RING_PLAIN) { /* ev_work.h: the slot holds the in-place result until it is checked */
        snprintf(err, errlen, "ipsec: no synchronized receive ring: the kernel encrypts its payload in place, so "
                              "the slot cannot be handed back before its result is read");
        return -1;
    }
    if (!gp->payload_bytes || gp->payload_bytes % IPSEC_BLOCK_BYTES || gp->payload_bytes > IPSEC_MAX_PAYLOAD) {
        snprintf(err, errlen, "ipsec: payload of %u bytes: want a multiple of %u up to %u", gp->payload_bytes,
                 IPSEC_BLOCK_BYTES, IPSEC_MAX_PAYLOAD);
        return -1;
    }
    fg_rng rng;
    fg_rng_seed(&rng, gp->seed);
    do {
        for (unsigned i = 0; i < 3; i++) w->key[i] = gen_key(&rng);
    } while (w->key[0] == w->key[1] || w->key[1] == w->key[2] || w->key[0] == w->key[2]); /* keying option 1 */
    uint32_t sp[IPSEC_SP_WORDS], esk[IPSEC_SK_WORDS], dsk[IPSEC_SK_WORDS];
    ipsec_build_sp(sp);
    ipsec_build_schedules(w->key, esk, dsk);
    w->plain = calloc(slots, gp->payload_bytes);
    w->send = calloc(slots, sizeof *w->send);
    if (!w->plain || !w->send) {
        snprintf(err, errlen, "ipsec: out of memory");
        return -1;
    }
    if (gpu_load_kernel(g, elf, "ipsec_3des", &w->k, err, errlen)) return -1;
    const uint64_t pb = gp->payload_bytes;
    w->sp = gpu_malloc(g, sizeof sp);
    w->esk = gpu_malloc(g, sizeof esk);
    w->dsk = gpu_malloc(g, sizeof dsk);
    w->sq_base = gpu_malloc(g, (uint64_t)slots * sizeof(ipsec_params));
    w->pay_base = gpu_malloc(g, slots * pb);
    w->out_base = gpu_malloc(g, slots * pb);
    if (!w->sp || !w->esk || !w->dsk || !w->sq_base || !w->pay_base || !w->out_base ||
        (w->out_base + slots * pb) >> 32) {
        snprintf(err, errlen, "ipsec: GPU memory too small for %u slots", slots);
        return -1;
    }
    if (gpu_mem_write(g, w->sp, sp, sizeof sp) || gpu_mem_write(g, w->esk, esk, sizeof esk) ||
        gpu_mem_write(g, w->dsk, dsk, sizeof dsk)) {
        snprintf(err, errlen, "ipsec: table upload failed");
        return -1;
    }
    for (unsigned i = 0; i < slots; i++) { /* EDGE III-B: parameter memory configured once */
        ipsec_params q = {(uint32_t)(w->pay_base + i * pb), (uint32_t)(w->out_base + i * pb), (uint32_t)w->esk,
                          (uint32_t)w->dsk, (uint32_t)w->sp, (uint32_t)pb, i, 0, 0};
        if (gpu_mem_write(g, ipsec_work_param(w, i), &q, sizeof q)) {
            snprintf(err, errlen, "ipsec: parameter memory upload failed");
            return -1;
        }
    }
    return 0;
}

void ipsec_work_free(ipsec_work *w) {
    free(w->plain);
    free(w->send);
    memset(w, 0, sizeof *w);
}

uint64_t ipsec_work_param(const ipsec_work *w, unsigned slot) {
    return w->sq_base + (uint64_t)slot * sizeof(ipsec_params);
}

unsigned ipsec_work_threads(const ipsec_work *w) {
    unsigned blocks = w->gp.payload_bytes / IPSEC_BLOCK_BYTES;
    return blocks < IPSEC_THREADS ? blocks : IPSEC_THREADS;
}

gpu_launch_desc ipsec_work_desc(const ipsec_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag) {
    (void)n; /* always one packet: all threads of the warp on it */
    return ev_warp_desc(&w->k, ipsec_work_param(w, slot), ipsec_work_threads(w), priority, tag);
}

int ipsec_work_io(const ipsec_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen) {
    const size_t pb = w->gp.payload_bytes;
    if (slot >= w->slots || n != 1) {
        snprintf(err, errlen, "ipsec: slot %u / %u packets out of range (one packet per event)", slot, n);
        return -1;
    }
    memset(io, 0, sizeof *io);
    io->in[0] = (ev_region){w->pay_base + slot * pb, w->plain + slot * pb, pb, 0};
    io->nin = 1;
    io->out[0] = (ev_region){w->out_base + slot * pb, NULL, pb, 0};
    io->nout = 1;
    io->poison = POISON;
    return 0;
}

int ipsec_work_gen(ipsec_work *w, unsigned slot, unsigned n, fg_rng *rng) {
    const size_t pb = w->gp.payload_bytes;
    uint8_t *pl = w->plain + slot * pb;
    (void)n;
    for (size_t i = 0; i < pb; i++) pl[i] = (uint8_t)fg_rng_next(rng);
    return 0;
}

int ipsec_work_check(ipsec_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen) {
    const size_t pb = w->gp.payload_bytes;
    uint8_t ct[IPSEC_MAX_PAYLOAD], back[IPSEC_MAX_PAYLOAD];
    if (slot >= w->slots || n != 1 || gpu_mem_read(g, w->pay_base + slot * pb, ct, pb) ||
        gpu_mem_read(g, w->out_base + slot * pb, back, pb)) {
        snprintf(err, errlen, "ipsec: cannot read the results of slot %u", slot);
        return -1;
    }
    const uint8_t *pl = w->plain + slot * pb;
    uint8_t want[IPSEC_MAX_PAYLOAD]; /* the host's ECB encryption of the plaintext */
    for (size_t b = 0; b < pb; b += IPSEC_BLOCK_BYTES) {
        uint64_t c = des3_ref_encrypt(w->key, get_be64(pl + b));
        for (int i = 0; i < 8; i++) want[b + i] = (uint8_t)(c >> (56 - 8 * i));
    }
    const struct {
        const char *what;
        const uint8_t *got, *want;
    } out[2] = {{"ciphertext", ct, want}, {"decrypted output", back, pl}};
    int rc = 0;
    for (unsigned o = 0; o < 2; o++)
        for (size_t j = 0; j < pb; j += 4) {
            uint32_t got, exp;
            memcpy(&got, out[o].got + j, 4), memcpy(&exp, out[o].want + j, 4);
            w->checked++;
            if (got == exp) continue;
            if (!rc)
                snprintf(err, errlen, "ipsec: slot %u %s word %zu (block %zu): GPU 0x%08x, host reference 0x%08x", slot,
                         out[o].what, j / 4, j / 8, got, exp);
            w->wrong++;
            rc = -1;
        }
    return rc;
}

/* ------------------------------------------------------------ ev_work */
/* one packet per event warp (EDGE V) */
EV_WORK_DEFINE(ev_ipsec_ops, "ipsec", "ipsec_3des", 1, ipsec, ipsec_gen_params, ipsec_gen_params_default,
               ipsec_gen_params_load, ipsec_work_check, ev_idle_none);
