/* icnt_xbar: input-queued crossbar, one per network (request, reply), as
 * GPGPU-Sim's Fermi configuration (config_fermi_islip.icnt: one router, 32 B
 * flits, separate request and reply networks).
 *
 * Each node has an injection queue and an ejection queue, both bounded in
 * flits.  Every cycle each free output grants one input whose head packet is
 * for it and fits in its ejection queue, round robin over the inputs
 * (fg_rr_c, the twin of rtl/prim/fg_rr_arb.sv); the packet then holds its
 * input and its output for one cycle per flit (finite bandwidth: one flit
 * per port per cycle) and is ejectable icnt_latency cycles after its tail.
 * Head-of-line blocking at the inputs is modelled (one queue per input).
 * Cost per cycle: nothing when empty, otherwise the inputs holding packets. */
#include <stdio.h>
#include <stdlib.h>

#include "fg_prims.h"
#include "icnt.h"
#include "mem_config.h"

typedef struct { /* packet ring bounded in flits */
    icnt_pkt *p;
    unsigned cap, head, n, flits, max_flits;
} pring;

typedef struct {
    pring *in, *out;          /* by source / destination index within the network */
    uint64_t *in_busy, *out_busy; /* next cycle the port may start a packet */
    fg_rr_c *arb;             /* per output */
    uint64_t *req;            /* per output: requesting inputs this cycle */
    unsigned *touched;
    unsigned n_src, src0, n_dst, dst0;
    uint64_t active;          /* inputs with packets */
    unsigned packets;         /* in the network (injection + ejection queues) */
} xnet;

struct icnt {
    xnet net[2];
    unsigned lat;
    uint64_t now;
};

static int pring_init(pring *r, unsigned flits) {
    r->p = calloc(flits, sizeof *r->p);
    r->cap = flits;
    r->max_flits = flits;
    return r->p ? 0 : -1;
}
static bool pring_fits(const pring *r, unsigned flits) { return r->flits + flits <= r->max_flits; }
static void pring_push(pring *r, const icnt_pkt *p) {
    r->p[(r->head + r->n) % r->cap] = *p;
    r->n++;
    r->flits += p->flits;
}
static void pring_pop(pring *r) {
    r->flits -= r->p[r->head].flits;
    r->head = (r->head + 1) % r->cap;
    r->n--;
}

static void net_free(xnet *x) {
    for (unsigned i = 0; x->in && i < x->n_src; i++) free(x->in[i].p);
    for (unsigned i = 0; x->out && i < x->n_dst; i++) free(x->out[i].p);
    free(x->in);
    free(x->out);
    free(x->in_busy);
    free(x->out_busy);
    free(x->arb);
    free(x->req);
    free(x->touched);
}

static int net_init(xnet *x, const mem_config *c, unsigned n_src, unsigned src0, unsigned n_dst,
                    unsigned dst0) {
    x->n_src = n_src;
    x->src0 = src0;
    x->n_dst = n_dst;
    x->dst0 = dst0;
    x->in = calloc(n_src, sizeof *x->in);
    x->out = calloc(n_dst, sizeof *x->out);
    x->in_busy = calloc(n_src, sizeof *x->in_busy);
    x->out_busy = calloc(n_dst, sizeof *x->out_busy);
    x->arb = calloc(n_dst, sizeof *x->arb);
    x->req = calloc(n_dst, sizeof *x->req);
    x->touched = calloc(n_dst, sizeof *x->touched);
    if (!x->in || !x->out || !x->in_busy || !x->out_busy || !x->arb || !x->req || !x->touched)
        return -1;
    for (unsigned i = 0; i < n_src; i++)
        if (pring_init(&x->in[i], c->icnt_in_flits)) return -1;
    for (unsigned i = 0; i < n_dst; i++) {
        if (pring_init(&x->out[i], c->icnt_out_flits)) return -1;
        fg_rr_c_reset(&x->arb[i], n_src);
    }
    return 0;
}

static void xb_destroy(icnt *n) {
    if (!n) return;
    net_free(&n->net[0]);
    net_free(&n->net[1]);
    free(n);
}

static icnt *xb_create(const mem_config *c, unsigned n_req, unsigned n_mem, char *err,
                       size_t errlen) {
    if (n_req < 1 || n_req > 64 || n_mem < 1 || n_mem > 64) {
        snprintf(err, errlen, "crossbar: 1..64 requester ports and 1..64 L2 slices (asked %u, %u)",
                 n_req, n_mem);
        return NULL;
    }
    icnt *n = calloc(1, sizeof *n);
    if (!n || net_init(&n->net[ICNT_REQ], c, n_req, 0, n_mem, n_req) ||
        net_init(&n->net[ICNT_REP], c, n_mem, n_req, n_req, 0)) {
        xb_destroy(n);
        snprintf(err, errlen, "crossbar: out of memory");
        return NULL;
    }
    n->lat = c->icnt_latency;
    return n;
}

static bool xb_can_inject(const icnt *n, unsigned net, unsigned node, unsigned flits) {
    const xnet *x = &n->net[net];
    return pring_fits(&x->in[node - x->src0], flits);
}

static int xb_inject(icnt *n, unsigned net, const icnt_pkt *p) {
    xnet *x = &n->net[net];
    unsigned s = p->src - x->src0;
    if (!pring_fits(&x->in[s], p->flits)) return 1;
    pring_push(&x->in[s], p);
    x->active |= 1ull << s;
    x->packets++;
    return 0;
}

static const icnt_pkt *xb_peek_at(const icnt *n, unsigned net, unsigned node, unsigned k) {
    const pring *r = &n->net[net].out[node - n->net[net].dst0];
    if (k >= r->n) return NULL;
    const icnt_pkt *p = &r->p[(r->head + k) % r->cap];
    return p->ready >= n->now ? NULL : p;
}
static const icnt_pkt *xb_peek(const icnt *n, unsigned net, unsigned node) { return xb_peek_at(n, net, node, 0); }

static void xb_pop(icnt *n, unsigned net, unsigned node) {
    xnet *x = &n->net[net];
    pring_pop(&x->out[node - x->dst0]);
    x->packets--;
}

static void net_cycle(xnet *x, uint64_t now, unsigned lat) {
    unsigned nt = 0;
    for (uint64_t a = x->active; a; a &= a - 1) {
        unsigned s = (unsigned)__builtin_ctzll(a);
        if (x->in_busy[s] > now) continue;
        const icnt_pkt *h = &x->in[s].p[x->in[s].head];
        unsigned d = h->dst - x->dst0;
        if (x->out_busy[d] > now || !pring_fits(&x->out[d], h->flits)) continue;
        if (!x->req[d]) x->touched[nt++] = d;
        x->req[d] |= 1ull << s;
    }
    for (unsigned i = 0; i < nt; i++) {
        unsigned d = x->touched[i];
        int g = fg_rr_c_pick(&x->arb[d], x->req[d]);
        fg_rr_c_edge(&x->arb[d], x->req[d], true);
        x->req[d] = 0;
        pring *in = &x->in[g];
        icnt_pkt p = in->p[in->head];
        pring_pop(in);
        if (!in->n) x->active &= ~(1ull << g);
        p.ready = now + p.flits + lat - 1; /* tail leaves after `flits` cycles */
        x->in_busy[g] = x->out_busy[d] = now + p.flits;
        pring_push(&x->out[d], &p);
    }
}

static void xb_tick(icnt *n) {
    for (unsigned k = 0; k < 2; k++)
        if (n->net[k].active) net_cycle(&n->net[k], n->now, n->lat);
    n->now++;
}

static bool xb_idle(const icnt *n) { return !n->net[0].packets && !n->net[1].packets; }
static uint64_t xb_cycle(const icnt *n) { return n->now; }

static unsigned xb_zero_load(const mem_config *c, unsigned port, unsigned slice, unsigned flits) {
    (void)port;
    (void)slice;
    return flits + c->icnt_latency;
}

static unsigned xb_internal_flits(const mem_config *c) {
    (void)c;
    return 0;
}

const icnt_ops icnt_xbar_ops = {"xbar",  xb_create, xb_destroy, xb_can_inject, xb_inject,    xb_peek, xb_peek_at,
                                xb_pop,  xb_tick,   xb_idle,    xb_cycle,      xb_zero_load, xb_internal_flits};
