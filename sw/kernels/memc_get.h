/* memc_get: layout shared by the MemC GET event kernel
 * (sw/kernels/memc_get.c, RV32) and the host side (sim/work/memc_work.c).
 * Plain C99, fixed-width fields, no pointers.  The structures are
 * MemcachedGPU's (Hetherington et al., SoCC '15) as the EDGE artifact
 * uses them (benchmarks/edge/memc_conv/memc_shared.h): a set-associative
 * hash table of 2^hash_power entries, HASH_SET_ASSOC = 8 ways, an 8-bit key
 * hash per entry, keys up to 32 B, values up to 8 B in a value heap, one
 * shared/private lock word per set.  docs/EVENT_KERNELS.md.
 *
 * Requests: MEMC_PKT_BYTES-byte RX buffers, one UDP datagram each:
 *   0..13 Ethernet, 14..33 IPv4 (header checksum), 34..41 UDP (dest port
 *   MEMC_UDP_PORT), 42..49 memcached UDP frame header, 50.. "get <key>\r\n".
 * Responses: MEMC_PKT_BYTES-byte TX buffers, written for GET requests only
 * (anything else is left to the CPU, untouched):
 *   0..41 the request's headers with MACs, addresses and ports swapped, IPv4
 *   total length and checksum and UDP length for the response; 42..47
 *   "VALUE "; 48.. the value bytes on a hit (none on a miss). */
#ifndef MEMC_GET_H
#define MEMC_GET_H

#include <stdint.h>

#define MEMC_PKT_BYTES 128u /* RX_BUFFER_SIZE */
#define MEMC_REQS_PER_EVENT 32u
#define MEMC_KEY_BYTES 16u  /* EDGE V: 16 B keys */
#define MEMC_VAL_BYTES 2u   /* ... and 2 B values */
#define MEMC_MAX_KEY 32u    /* MAX_KEY_SIZE */
#define MEMC_MAX_VAL 8u     /* MAX_VAL_SIZE */
#define MEMC_ASSOC 8u       /* HASH_SET_ASSOC */
#define MEMC_KEY_HASH_MASK 0xFFu
#define MEMC_UDP_PORT 9960u
#define MEMC_ETH_BYTES 14u
#define MEMC_IP_OFF 14u
#define MEMC_UDP_OFF 34u
#define MEMC_HDR_BYTES 42u     /* Ethernet + IPv4 + UDP */
#define MEMC_PAYLOAD_OFF 50u   /* after the 8-byte memcached UDP frame header */
#define MEMC_KEY_OFF 54u       /* after "get " */
#define MEMC_VALUE_HDR_BYTES 6u /* "VALUE " */
#define MEMC_PRIVATE_LOCK (-1) /* a SET holds the set; GETs count themselves in otherwise */

typedef struct {
    uint32_t value_idx;   /* index into the value heap */
    uint32_t last_access; /* SET timestamp (LRU) */
    uint32_t valid;       /* 0 free, 1 set, 2 last access was a GET */
    uint32_t key_hash;    /* hash & MEMC_KEY_HASH_MASK */
    uint32_t key_len;
    uint32_t value_len;
    uint8_t key[MEMC_MAX_KEY];
} memc_entry;

typedef struct {
    uint32_t valid;
    uint8_t value[MEMC_MAX_VAL];
} memc_value;

/* One submission-queue entry (EDGE III-B parameter memory). */
typedef struct {
    uint32_t rx;       /* GPU address of this entry's request buffers */
    uint32_t tx;       /* GPU address of this entry's response buffers */
    uint32_t table;    /* memc_entry[sets * MEMC_ASSOC] */
    uint32_t locks;    /* int32_t[sets] */
    uint32_t values;   /* memc_value[sets * MEMC_ASSOC] */
    uint32_t set_mask; /* sets - 1 (sets a power of two) */
    uint32_t npkts;    /* requests in this event (<= MEMC_REQS_PER_EVENT) */
    uint32_t entry;    /* index of this submission-queue entry */
    uint32_t cq_lo, cq_hi;
} memc_params;

/* Bob Jenkins' lookup3 mixing (memcached's hash, MemcachedGPU's hash()). */
#define MEMC_ROT(x, k) (((x) << (k)) | ((x) >> (32 - (k))))
#define MEMC_MIX(a, b, c)                                                                                           \
    do {                                                                                                            \
        a -= c, a ^= MEMC_ROT(c, 4), c += b;                                                                        \
        b -= a, b ^= MEMC_ROT(a, 6), a += c;                                                                        \
        c -= b, c ^= MEMC_ROT(b, 8), b += a;                                                                        \
        a -= c, a ^= MEMC_ROT(c, 16), c += b;                                                                       \
        b -= a, b ^= MEMC_ROT(a, 19), a += c;                                                                       \
        c -= b, c ^= MEMC_ROT(b, 4), b += a;                                                                        \
    } while (0)
#define MEMC_FINAL(a, b, c)                                                                                         \
    do {                                                                                                            \
        c ^= b, c -= MEMC_ROT(b, 14);                                                                               \
        a ^= c, a -= MEMC_ROT(c, 11);                                                                               \
        b ^= a, b -= MEMC_ROT(a, 25);                                                                               \
        c ^= b, c -= MEMC_ROT(b, 16);                                                                               \
        a ^= c, a -= MEMC_ROT(c, 4);                                                                                \
        b ^= a, b -= MEMC_ROT(a, 14);                                                                               \
        c ^= b, c -= MEMC_ROT(b, 24);                                                                               \
    } while (0)

#endif
