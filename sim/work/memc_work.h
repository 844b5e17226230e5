/* memc_work: the MemC GET event kernel as a GPU workload: a MemcachedGPU
 * hash table of 2^hash_power entries warmed with warm_sets SETs (16 B
 * keys, 2 B values; the host replays MemcachedGPU's SET path), GET
 * requests as UDP datagrams (hit_pct of them for a key that was SET),
 * pre-configured parameter slots (EDGE III-B).  The reference for every
 * response is a direct map of the keys the warm-up left in the table, built
 * and looked up without the kernel's hash. */
#ifndef WORK_MEMC_WORK_H
#define WORK_MEMC_WORK_H

#include <stddef.h>
#include <stdint.h>

#include "../../sw/kernels/memc_get.h"
#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"
#include "work/ev_work.h"

typedef struct {
    unsigned hash_power;   /* [memc] hash_power: 2^14 = 16384 entries (EDGE V) */
    unsigned warm_sets;    /* [memc] warm_sets: SETs that warm the table, 8192 (EDGE V) */
    unsigned hit_pct;      /* [memc] hit_pct: GETs for a key that was SET, 90 */
    unsigned non_get_pct;  /* [memc] non_get_pct: requests that are not GETs (left to the CPU), 0 */
    /* [memc] empty_event_pct: events whose request buffers hold no request (all
     * zero), 0; the EDGE artifact's high-rate MemC runs fill 16 of their 64
     * request slots, so 75 % of its events are such */
    unsigned empty_event_pct;
    unsigned non_get_locks; /* [memc] non_get_locks: 1 runs memc_get_lock (the artifact's non-GET path), 0 */
    uint64_t seed;         /* [memc] seed, 1 */
} memc_gen_params;

void memc_gen_params_default(memc_gen_params *p);
int memc_gen_params_load(memc_gen_params *p, fg_config *cfg, char *err, size_t errlen);

/* memcached's hash (lookup3 hashlittle, initval 0), byte by byte. */
uint32_t memc_hash_ref(const uint8_t *key, size_t len);

typedef struct memc_map memc_map; /* the direct map: key -> value, table entry */

typedef struct {
    memc_gen_params gp;
    unsigned sets;
    uint8_t (*keys)[MEMC_KEY_BYTES]; /* the SET keys */
    memc_entry *table;               /* host copy after the warm-up */
    memc_value *values;
    unsigned evicted;                /* SET keys the warm-up evicted again */
    memc_map *map;
    gpu_kernel k;
    unsigned slots;
    uint64_t table_addr, locks_addr, values_addr, sq_base, rx_base, tx_base;
    uint8_t *rx; /* host copy of every slot's requests */
    ev_ring ring;         /* where the device writes the requests (ev_work.h) */
    uint64_t ring_base;   /* the synchronized receive ring (0: plain) */
    unsigned param_bytes; /* a parameter entry's (ev_param_bytes) */
    ev_send_state *send; /* per slot */
    uint64_t checked, wrong, hits, misses, others;
} memc_work;

int memc_work_init(memc_work *w, gpu_t *g, const memc_gen_params *gp, const char *elf, unsigned slots, ev_ring ring,
                   char *err, size_t errlen);
void memc_work_free(memc_work *w);
uint64_t memc_work_param(const memc_work *w, unsigned slot);
gpu_launch_desc memc_work_desc(const memc_work *w, unsigned slot, unsigned n, unsigned priority, uint64_t tag);
/* ev_work's pattern (ev_work.h): the slot's memory (requests and count in,
 * the 32 TX buffers out) and new requests in the host copy. */
int memc_work_io(const memc_work *w, unsigned slot, unsigned n, ev_io *io, char *err, size_t errlen);
int memc_work_gen(memc_work *w, unsigned slot, unsigned n, fg_rng *rng);
int memc_work_fill(memc_work *w, gpu_t *g, unsigned slot, unsigned n, fg_rng *rng, char *err, size_t errlen);
/* Every word of the slot's responses, the set locks back at zero and the
 * GET mark of every hit entry, against the direct map (the event ran alone). */
int memc_work_check(memc_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
/* The same without the locks, which other MemC events still running may
 * hold; and the locks alone, once no MemC event runs (ev_work.h). */
int memc_work_check_running(memc_work *w, gpu_t *g, unsigned slot, unsigned n, char *err, size_t errlen);
int memc_work_check_idle(memc_work *w, gpu_t *g, char *err, size_t errlen);
/* The response the reference expects for one request (MEMC_PKT_BYTES;
 * untouched bytes keep `poison`); returns 1 hit, 0 miss, -1 not a GET. */
int memc_response_ref(const memc_work *w, const uint8_t *req, uint8_t poison, uint8_t *resp);
/* Table entry holding key after the warm-up, or -1 (tests corrupt it). */
long memc_work_entry(const memc_work *w, const uint8_t key[MEMC_KEY_BYTES]);

#endif
