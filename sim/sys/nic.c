/* nic: see nic.h. */
#include "nic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void nic_params_default(nic_params *p) {
    p->rate_mpps = 4.0;
    p->pkts_per_event = IPV4_PKTS_PER_EVENT;
    p->slots = 16;
    p->poll_ns = 20.0;
}

int nic_params_load(nic_params *p, fg_config *cfg, char *err, size_t errlen) {
    uint64_t v;
    if (fg_config_double(cfg, "nic", "rate_mpps", 0, 1e6, &p->rate_mpps, err, errlen)) return -1;
    v = p->pkts_per_event;
    if (fg_config_u64(cfg, "nic", "pkts_per_event", 1, IPV4_PKTS_PER_EVENT, &v, err, errlen)) return -1;
    p->pkts_per_event = (unsigned)v;
    v = p->slots;
    if (fg_config_u64(cfg, "nic", "slots", 1, 4096, &v, err, errlen)) return -1;
    p->slots = (unsigned)v;
    return fg_config_double(cfg, "nic", "poll_ns", 0, 1e9, &p->poll_ns, err, errlen);
}

int nic_init(nic *n, const nic_params *p, const route_gen_params *rp, const lpm_route *r, size_t nr,
             const lpm_ref *ref, uint64_t seed, char *err, size_t errlen) {
    memset(n, 0, sizeof *n);
    n->p = *p;
    n->rp = *rp;
    n->routes = r;
    n->n_routes = nr;
    n->ref = ref;
    fg_rng_seed(&n->rng, seed);
    n->cq = calloc(p->slots, 1);
    n->pkts = calloc((size_t)p->slots * p->pkts_per_event, IPV4_PKT_BYTES);
    n->arrive = calloc((size_t)p->slots * p->pkts_per_event, sizeof *n->arrive);
    n->event_of = calloc(p->slots, sizeof *n->event_of);
    if (!n->cq || !n->pkts || !n->arrive || !n->event_of) {
        nic_free(n);
        snprintf(err, errlen, "nic: out of memory");
        return -1;
    }
    return 0;
}

void nic_free(nic *n) {
    free(n->cq);
    free(n->pkts);
    free(n->arrive);
    free(n->event_of);
    n->cq = NULL, n->pkts = NULL, n->arrive = NULL, n->event_of = NULL;
}

bool nic_can_start(const nic *n) { return n->cq[n->head] == CQ_FREE; }

unsigned nic_start(nic *n, uint64_t event, const double *arrive, unsigned cnt, uint8_t *buf) {
    unsigned s = n->head;
    n->cq[s] = CQ_BUSY;
    n->head = (n->head + 1) % n->p.slots;
    n->event_of[s] = event;
    for (unsigned i = 0; i < cnt; i++) {
        uint8_t *pk = n->pkts + ((size_t)s * n->p.pkts_per_event + i) * IPV4_PKT_BYTES;
        ipv4_gen_packet(&n->rng, &n->rp, n->routes, n->n_routes, pk);
        memcpy(buf + (size_t)i * IPV4_PKT_BYTES, pk, IPV4_PKT_BYTES);
        n->arrive[(size_t)s * n->p.pkts_per_event + i] = arrive[i];
    }
    return s;
}

unsigned nic_finish(nic *n, unsigned slot, const uint32_t *results, unsigned cnt) {
    unsigned bad = 0;
    for (unsigned i = 0; i < cnt; i++) {
        const uint8_t *pk = n->pkts + ((size_t)slot * n->p.pkts_per_event + i) * IPV4_PKT_BYTES;
        uint32_t want = ipv4_forward_ref(n->ref, pk);
        n->checked++;
        if (want == IPV4_DROP_TTL) n->dropped++;
        else if (want == IPV4_NO_ROUTE) n->noroute++;
        else n->routed++;
        if (results[i] != want) {
            if (!n->wrong && !bad)
                snprintf(n->first_wrong, sizeof n->first_wrong,
                         "event %llu packet %u (dst %u.%u.%u.%u ttl %u): GPU 0x%x, reference 0x%x",
                         (unsigned long long)n->event_of[slot], i, pk[16], pk[17], pk[18], pk[19],
                         pk[8], results[i], want);
            bad++;
        }
    }
    n->wrong += bad;
    n->cq[slot] = CQ_FREE; /* EDGE Fig. 8c: eventCompQ[tail] = free; tail++ */
    if (slot == n->tail) n->tail = (n->tail + 1) % n->p.slots;
    return bad;
}
