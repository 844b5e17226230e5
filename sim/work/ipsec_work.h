/* ipsec_work: the IPSec (3DES) event kernel as a GPU workload: one
 * security association (three random DES keys, from [ipsec] seed), its
 * key schedules and SP tables in the kernel's layout (sw/kernels/
 * ipsec_3des.h) in GPU memory, pre-configured parameter slots (EDGE III-B),
 * one random payload per event; results checked against des_ref (FIPS
 * 46-3, bit by bit). */
#ifndef WORK_IPSEC_WORK_H
#define WORK_IPSEC_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "../../sw/kernels/ipsec_3des.h"
#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"
#include "work/ev_work.h"

typedef struct {
    unsigned payload_bytes; /* [ipsec] payload_bytes, 256 (EDGE V) */
    uint64_t seed;          /* [ipsec] seed, 1: keys */
} ipsec_gen_params;

void ipsec_gen_params_default(ipsec_gen_params *p);
int ipsec_gen_params_load(ipsec_gen_params *p, fg_config *cfg, char *err, size_t errlen);

/* The kernel's tables from three keys (big-endian 64-bit DES keys). */
void ipsec_build_sp(uint32_t sp[IPSEC_SP_WORDS]);
void ipsec_build_schedules(const uint64_t key[3], uint32_t esk[IPSEC_SK_WORDS], uint32_t dsk[IPSEC_SK_WORDS]);

typedef struct {
    ipsec_gen_params gp;
    uint64_t key[3];
    gpu_kernel k;
    unsigned slots;
    uint64_t esk, dsk, sp, sq_base, pay_base, out_base;
    uint8_t *plain; /* host copy of every slot's plaintext */
    ev_ring ring;        /* plain only (ev_work.h) */
    ev_send_state *send; /* per slot */
    uint64_t checked, wrong;
} ipsec_work;

int ipsec_work_init(ipsec_work *w, gpu_t *g, const ipsec_gen_params *gp, const char *elf, unsigned slots, ev_ring ring,
                    char *err, size_t errlen);
void ipsec_work_free(ipsec_work *w);
uint64_t ipsec_work_param(const ipsec_work *w, unsigned slot);
unsigned ipsec_work_threads(const ipsec_work *w); /* min(32, payload blocks) */
/* n must be 1: one packet per event warp (EDGE V). */
gpu_launch_desc ipsec_work_desc(const ipsec_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag);
/* ev_work's pattern (ev_work.h): the slot's memory (payload in, output
 * buffer out) and a new payload in the host copy. */
int ipsec_work_io(const ipsec_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen);
int ipsec_work_gen(ipsec_work *w, unsigned slot, unsigned n, fg_rng *rng);
/* The payload must hold the 3DES-ECB ciphertext, the output the plaintext. */
int ipsec_work_check(ipsec_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);

#endif
