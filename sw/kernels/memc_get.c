/* MemC GET event kernel (EDGE Sec. V: MemcachedGPU's GET request kernel,
 * 16 B keys, 2 B values, shared memory removed, 32 requests per event
 * warp).  One thread per request, the GET path of MemcachedGPU's
 * memcGetKernel (as the EDGE artifact's simpleMemcGetKernel runs it on a
 * single warp): parse and verify the UDP datagram, hash the key (memcached's
 * lookup3 hash), take the set's shared lock, search the set's 8 ways (key
 * hash, then the key), release the lock, build the response with the
 * value.  Layout in memc_get.h; host side and reference:
 * sim/work/memc_work.c. */
#include <stdbool.h>
#include <stdint.h>

#include "fg_kernel.h"
#include "memc_get.h"

/* A request that is not a GET goes to the CPU: this kernel returns.  Built
 * with MEMC_NON_GET_LOCKS (memc_get_lock.c) it does what the EDGE artifact's
 * simpleMemcGetKernel does instead: hashes an empty key and takes, searches
 * and releases that one set's lock. */
#ifdef MEMC_NON_GET_LOCKS
#define MEMC_NOT_GET goto not_get
#else
#define MEMC_NOT_GET return
#endif

/* Packet data is plain memory; the table entries and the locks, which other
 * warps may change, are volatile (as in MemcachedGPU). */
typedef const uint8_t cu8;
typedef const uint16_t cu16;
typedef const uint32_t cu32;

static inline uint32_t ntohs16(cu8 *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* RFC 1071 sum of the big-endian 16-bit words of buf (g_in_cksum). */
static uint32_t in_cksum(cu8 *buf, uint32_t nbytes) {
    uint32_t sum = 0, i;
    for (i = 0; i + 1 < nbytes; i += 2) {
        sum += ntohs16(buf + i);
        if (sum > 0xFFFF) sum -= 0xFFFF;
    }
    if (i < nbytes) {
        sum += (uint32_t)buf[i] << 8;
        if (sum > 0xFFFF) sum -= 0xFFFF;
    }
    return sum;
}

/* memcached's hash(): lookup3 hashlittle() with initval 0; it reads the key
 * as words, halfwords or bytes by its alignment (a GET's key is at offset
 * 54 of its buffer: halfwords).  The tails read whole words and mask, as
 * hashlittle does. */
static uint32_t memc_hash(cu8 *key, uint32_t len) {
    uint32_t a, b, c;
    a = b = c = 0xdeadbeefu + len;
    if (((uintptr_t)key & 3) == 0) {
        cu32 *k = (cu32 *)key;
        for (; len > 12; len -= 12, k += 3) {
            a += k[0], b += k[1], c += k[2];
            MEMC_MIX(a, b, c);
        }
        switch (len) {
        case 12: c += k[2], b += k[1], a += k[0]; break;
        case 11: c += k[2] & 0xffffff, b += k[1], a += k[0]; break;
        case 10: c += k[2] & 0xffff, b += k[1], a += k[0]; break;
        case 9: c += k[2] & 0xff, b += k[1], a += k[0]; break;
        case 8: b += k[1], a += k[0]; break;
        case 7: b += k[1] & 0xffffff, a += k[0]; break;
        case 6: b += k[1] & 0xffff, a += k[0]; break;
        case 5: b += k[1] & 0xff, a += k[0]; break;
        case 4: a += k[0]; break;
        case 3: a += k[0] & 0xffffff; break;
        case 2: a += k[0] & 0xffff; break;
        case 1: a += k[0] & 0xff; break;
        default: return c; /* zero length: no mixing */
        }
    } else if (((uintptr_t)key & 1) == 0) {
        cu16 *k = (cu16 *)key;
        for (; len > 12; len -= 12, k += 6) {
            a += k[0] + ((uint32_t)k[1] << 16);
            b += k[2] + ((uint32_t)k[3] << 16);
            c += k[4] + ((uint32_t)k[5] << 16);
            MEMC_MIX(a, b, c);
        }
        cu8 *k8 = (cu8 *)k;
        switch (len) {
        case 12:
            c += k[4] + ((uint32_t)k[5] << 16);
            b += k[2] + ((uint32_t)k[3] << 16);
            a += k[0] + ((uint32_t)k[1] << 16);
            break;
        case 11: c += (uint32_t)k8[10] << 16; /* fall through */
        case 10:
            c += k[4];
            b += k[2] + ((uint32_t)k[3] << 16);
            a += k[0] + ((uint32_t)k[1] << 16);
            break;
        case 9: c += k8[8]; /* fall through */
        case 8:
            b += k[2] + ((uint32_t)k[3] << 16);
            a += k[0] + ((uint32_t)k[1] << 16);
            break;
        case 7: b += (uint32_t)k8[6] << 16; /* fall through */
        case 6: b += k[2], a += k[0] + ((uint32_t)k[1] << 16); break;
        case 5: b += k8[4]; /* fall through */
        case 4: a += k[0] + ((uint32_t)k[1] << 16); break;
        case 3: a += (uint32_t)k8[2] << 16; /* fall through */
        case 2: a += k[0]; break;
        case 1: a += k8[0]; break;
        default: return c;
        }
    } else {
        cu8 *k = key;
        for (; len > 12; len -= 12, k += 12) {
            a += k[0] + ((uint32_t)k[1] << 8) + ((uint32_t)k[2] << 16) + ((uint32_t)k[3] << 24);
            b += k[4] + ((uint32_t)k[5] << 8) + ((uint32_t)k[6] << 16) + ((uint32_t)k[7] << 24);
            c += k[8] + ((uint32_t)k[9] << 8) + ((uint32_t)k[10] << 16) + ((uint32_t)k[11] << 24);
            MEMC_MIX(a, b, c);
        }
        switch (len) {
        case 12: c += (uint32_t)k[11] << 24; /* fall through */
        case 11: c += (uint32_t)k[10] << 16; /* fall through */
        case 10: c += (uint32_t)k[9] << 8; /* fall through */
        case 9: c += k[8]; /* fall through */
        case 8: b += (uint32_t)k[7] << 24; /* fall through */
        case 7: b += (uint32_t)k[6] << 16; /* fall through */
        case 6: b += (uint32_t)k[5] << 8; /* fall through */
        case 5: b += k[4]; /* fall through */
        case 4: a += (uint32_t)k[3] << 24; /* fall through */
        case 3: a += (uint32_t)k[2] << 16; /* fall through */
        case 2: a += (uint32_t)k[1] << 8; /* fall through */
        case 1: a += k[0]; break;
        default: return c;
        }
    }
    MEMC_FINAL(a, b, c);
    return c;
}

/* npkts: the request count (the parameter entry's, or the receive ring's,
 * memc_get_ring.c) */
static inline void memc_get_n(const memc_params *p, uint32_t npkts) {
    uint32_t i = fg_block_idx_x() * fg_block_dim_x() + fg_thread_idx_x();
    if (i >= npkts) return;
    cu8 *rx = (cu8 *)(uintptr_t)(p->rx + i * MEMC_PKT_BYTES);
    uint8_t *tx = (uint8_t *)(uintptr_t)(p->tx + i * MEMC_PKT_BYTES);

    /* parse: a GET is a UDP datagram to the memcached port with a good IPv4
     * header checksum and a "get " command; anything else goes to the CPU */
    cu8 *iph = rx + MEMC_IP_OFF, *payload = rx + MEMC_PAYLOAD_OFF;
    if (ntohs16(rx + MEMC_UDP_OFF + 2) != MEMC_UDP_PORT) MEMC_NOT_GET;
    if ((iph[10] | iph[11]) && in_cksum(iph, (iph[0] & 0x0Fu) << 2) != 0xFFFF) MEMC_NOT_GET;
    if (payload[0] != 'g' || payload[1] != 'e' || payload[2] != 't' || payload[3] != ' ') MEMC_NOT_GET;
    cu8 *key = payload + 4;
    uint32_t nkey = MEMC_KEY_BYTES; /* at least 16 B, then up to "\r\n" */
    while (nkey < MEMC_MAX_KEY && (key[nkey] != '\r' || key[nkey + 1] != '\n')) nkey++;
    if (nkey >= MEMC_MAX_KEY) MEMC_NOT_GET;

    /* look up under the set's shared lock */
    const uint32_t hv = memc_hash(key, nkey), set = hv & p->set_mask;
    volatile int32_t *lock = (volatile int32_t *)(uintptr_t)p->locks + set;
    for (;;) {
        int32_t old = *lock;
        if (old != MEMC_PRIVATE_LOCK &&
            __atomic_compare_exchange_n(lock, &old, old + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            break;
    }
    volatile memc_entry *e = (volatile memc_entry *)(uintptr_t)p->table + set * MEMC_ASSOC;
    uint32_t vlen = 0, vidx = 0;
    for (uint32_t w = 0; w < MEMC_ASSOC; w++, e++) {
        if (!e->valid || e->key_hash != (hv & MEMC_KEY_HASH_MASK)) continue;
        uint32_t j = 0; /* short_memcmp */
        while (j < nkey / 2 && ((cu16 *)key)[j] == ((const volatile uint16_t *)e->key)[j]) j++;
        if (j == nkey / 2) {
            vidx = e->value_idx;
            vlen = e->value_len;
            e->valid = 2; /* last access was a GET */
            break;
        }
    }
    __atomic_fetch_sub(lock, 1, __ATOMIC_RELEASE);

    /* response: headers swapped, "VALUE ", the value */
    const uint32_t len = MEMC_HDR_BYTES + MEMC_VALUE_HDR_BYTES + vlen;
    for (uint32_t k = 0; k < 6; k += 2) {
        *(uint16_t *)(tx + k) = *(cu16 *)(rx + 6 + k);
        *(uint16_t *)(tx + 6 + k) = *(cu16 *)(rx + k);
    }
    *(uint16_t *)(tx + 12) = *(cu16 *)(rx + 12);
    uint8_t *tip = tx + MEMC_IP_OFF;
    for (uint32_t k = 0; k < 12; k += 2) *(uint16_t *)(tip + k) = *(cu16 *)(iph + k);
    tip[2] = (uint8_t)((len - MEMC_ETH_BYTES) >> 8), tip[3] = (uint8_t)(len - MEMC_ETH_BYTES);
    tip[10] = tip[11] = 0;
    for (uint32_t k = 0; k < 4; k += 2) {
        *(uint16_t *)(tip + 12 + k) = *(cu16 *)(iph + 16 + k);
        *(uint16_t *)(tip + 16 + k) = *(cu16 *)(iph + 12 + k);
    }
    uint8_t *tudp = tx + MEMC_UDP_OFF;
    *(uint16_t *)(tudp + 0) = *(cu16 *)(rx + MEMC_UDP_OFF + 2);
    *(uint16_t *)(tudp + 2) = *(cu16 *)(rx + MEMC_UDP_OFF);
    tudp[4] = (uint8_t)((len - MEMC_UDP_OFF) >> 8), tudp[5] = (uint8_t)(len - MEMC_UDP_OFF);
    tudp[6] = tudp[7] = 0;
    const uint32_t ck = ~in_cksum(tip, 20);
    tip[10] = (uint8_t)(ck >> 8), tip[11] = (uint8_t)ck;
    uint8_t *v = tx + MEMC_HDR_BYTES;
    v[0] = 'V', v[1] = 'A', v[2] = 'L', v[3] = 'U', v[4] = 'E', v[5] = ' ';
    cu8 *val = ((const memc_value *)(uintptr_t)p->values)[vidx].value;
    for (uint32_t k = 0; k < vlen; k++) v[MEMC_VALUE_HDR_BYTES + k] = val[k];
#ifdef MEMC_NON_GET_LOCKS
    return;
not_get:; /* every such lane of every event on the one set the empty key hashes to; no response */
    volatile int32_t *nlock = (volatile int32_t *)(uintptr_t)p->locks + (memc_hash(rx, 0) & p->set_mask);
    for (;;) {
        int32_t old = *nlock;
        if (old != MEMC_PRIVATE_LOCK &&
            __atomic_compare_exchange_n(nlock, &old, old + 1, false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
            break;
    }
    volatile memc_entry *ne = (volatile memc_entry *)(uintptr_t)p->table + (memc_hash(rx, 0) & p->set_mask) * MEMC_ASSOC;
    for (uint32_t w = 0; w < MEMC_ASSOC; w++, ne++)
        if (ne->valid && ne->key_hash == (memc_hash(rx, 0) & MEMC_KEY_HASH_MASK) && !ne->key_len) break;
    __atomic_fetch_sub(nlock, 1, __ATOMIC_RELEASE);
#endif
}

#ifndef FG_RING
void memc_get(const memc_params *p) { memc_get_n(p, p->npkts); }
#endif
