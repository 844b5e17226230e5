/* icnt_mesh: the CM machine's 2D mesh (CM Table I: 6x6, XY routing, 4 VCs,
 * 4 buffers per VC, 32 B channels; CM 2.1: separate request and reply
 * networks "to prevent protocol deadlocks").  docs/MESH.md for the model.
 *
 * Two identical physical meshes (request, reply), each cols x rows routers.
 * Every endpoint (requester port or L2 slice) sits at one router
 * (icnt_mesh_place: [mem] mesh_port_routers / mesh_slice_routers, or an
 * automatic spread) with its own injection queue (icnt_in_flits, one input
 * VC of the router) and its own ejection channel and queue (icnt_out_flits).
 *
 * Router, per cycle (input-queued, wormhole, credit flow control):
 *   1. VC allocation: a head flit at the front of an input VC, past its
 *      pipeline delay, asks its XY output port for the output VC of its
 *      flow's class, (src + dst) mod VCs, when that VC is free (round robin
 *      over input VCs per output, fg_rr_c).  A flow always travels in one VC
 *      over one path, so packets between two endpoints arrive in the order
 *      sent (the memory system relies on it: two writes to one word).  An
 *      ejection channel is held by one packet at a time and reserves the
 *      whole packet in the ejection queue;
 *   2. switch allocation, input first: each input port offers one VC whose
 *      front flit is ready, holds an output VC and (toward a router) has a
 *      credit; each output port grants one input port (round robin);
 *   3. traversal: the flit leaves; toward a router it is written into the
 *      neighbour's input VC and may cross that router's switch router_cycles
 *      later (R pipeline stages after L link cycles); its buffer slot's credit
 *      is usable upstream link_cycles after it left.  An output VC is freed
 *      when the packet's tail is sent.
 * Zero-load: a packet of F flits over H hops traverses H + 1 routers, each
 * R + L cycles (the last link being the ejection channel), then its tail
 * arrives F - 1 cycles after its head: (H + 1)(R + L) + F - 1.
 *
 * Deadlock freedom: XY routing takes every X link before any Y link, so the
 * channel dependence graph of one network is acyclic (Dally & Seitz); the
 * two networks share nothing, and a slice's reply injection depends only on
 * the reply network draining into requesters, which always pop.
 *
 * Cost: each cycle visits only routers holding flits (a bit mask); an idle
 * network costs one test per cycle. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_prims.h"
#include "icnt.h"
#include "mem_config.h"

enum { E = 0, W = 1, N = 2, S = 3, DIRS = 4 }; /* opposite(d) = d ^ 1 */
#define NOWHERE UINT64_MAX

typedef struct {
    uint32_t pkt;   /* pool index */
    bool head, tail;
    uint64_t ready; /* first cycle it may cross the switch */
} flit;

typedef struct { /* an input VC (or an endpoint's injection queue): flit FIFO */
    flit *f;
    unsigned cap, head, n;
    int out, ovc;   /* the front packet's output port and VC (-1: not yet) */
} ivc;

typedef struct {        /* an output VC toward a neighbour */
    uint64_t *cred;     /* FIFO of times from which a buffer slot is free */
    unsigned ch, cn;
    bool busy;          /* held by a packet until its tail is sent */
} ovc_t;

typedef struct { /* an endpoint's ejection queue: packets, bounded in flits */
    icnt_pkt *p;
    unsigned cap, head, n, flits;
    int lock;     /* slot of the packet being delivered, -1 free */
} ejq;

typedef struct {
    unsigned x, y;
    unsigned n_ep, *ep;  /* endpoints attached (node numbers) */
    ivc *in;             /* DIRS x V direction VCs, then one per endpoint */
    ovc_t *out;          /* DIRS x V */
    fg_rr_c va_arb[DIRS], sa_arb[DIRS]; /* direction outputs; endpoints in the ejq */
    fg_rr_c *ej_va, *ej_sa; /* per endpoint */
    fg_rr_c *in_arb;     /* per input port: its VCs */
    int nb[DIRS];        /* neighbour router or -1 */
    unsigned nbuf;       /* flits buffered in this router's inputs */
} router;

typedef struct {
    router *r;
    ejq *ej;             /* per node */
    unsigned *ep_slot;   /* per node: index among its router's endpoints */
    icnt_pkt *pool;
    uint32_t *free;
    unsigned n_free, n_pool;
    uint64_t active;     /* routers with flits */
    unsigned packets;    /* in the network (pool + ejection queues) */
} mnet;

struct icnt {
    mnet net[2];
    unsigned cols, rows, nr, V, B, R, L, n_nodes;
    unsigned *node_router;
    uint64_t now;
};

/* ------------------------------------------------------------ placement */
int icnt_mesh_place(const mem_config *c, unsigned n_req, unsigned n_mem, unsigned *node_router,
                    char *err, size_t errlen) {
    unsigned nr = c->mesh_cols * c->mesh_rows;
    bool has_slice[64] = {false};
    if (c->mesh_n_slices) {
        if (n_mem > c->mesh_n_slices) {
            snprintf(err, errlen, "mesh: %u L2 slices but mesh_slice_routers lists %u", n_mem,
                     c->mesh_n_slices);
            return -1;
        }
        for (unsigned s = 0; s < n_mem; s++) node_router[n_req + s] = c->mesh_slice_router[s];
    } else {
        for (unsigned s = 0; s < n_mem; s++) node_router[n_req + s] = (2 * s + 1) * nr / (2 * n_mem);
    }
    for (unsigned s = 0; s < n_mem; s++) has_slice[node_router[n_req + s]] = true;
    if (c->mesh_n_ports) {
        if (n_req > c->mesh_n_ports) {
            snprintf(err, errlen, "mesh: %u requester ports but mesh_port_routers lists %u", n_req,
                     c->mesh_n_ports);
            return -1;
        }
        for (unsigned p = 0; p < n_req; p++) node_router[p] = c->mesh_port_router[p];
    } else { /* round robin over the routers without a slice (all, if every one has one) */
        unsigned free_r[64], nf = 0;
        for (unsigned r = 0; r < nr; r++)
            if (!has_slice[r]) free_r[nf++] = r;
        for (unsigned p = 0; p < n_req; p++) node_router[p] = nf ? free_r[p % nf] : p % nr;
    }
    for (unsigned i = 0; i < n_req + n_mem; i++)
        if (node_router[i] >= nr) {
            snprintf(err, errlen, "mesh: router %u of %s %u is outside the %ux%u mesh", node_router[i],
                     i < n_req ? "port" : "slice", i < n_req ? i : i - n_req, c->mesh_cols, c->mesh_rows);
            return -1;
        }
    return 0;
}

static unsigned hops(const mem_config *c, unsigned a, unsigned b) {
    unsigned ax = a % c->mesh_cols, ay = a / c->mesh_cols, bx = b % c->mesh_cols, by = b / c->mesh_cols;
    return (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
}

unsigned icnt_mesh_hops(const mem_config *c, unsigned port, unsigned slice) {
    unsigned nr[128 + 64];
    char err[160];
    unsigned n_req = port + 1, n_mem = slice + 1;
    if (n_req + n_mem > sizeof nr / sizeof nr[0] || icnt_mesh_place(c, n_req, n_mem, nr, err, sizeof err))
        return 0;
    return hops(c, nr[port], nr[n_req + slice]);
}

/* ------------------------------------------------------------ life */
static void net_free(mnet *m, unsigned nr, unsigned n_nodes, unsigned V) {
    for (unsigned r = 0; m->r && r < nr; r++) {
        router *x = &m->r[r];
        for (unsigned i = 0; x->in && i < DIRS * V + x->n_ep; i++) free(x->in[i].f);
        for (unsigned i = 0; x->out && i < DIRS * V; i++) free(x->out[i].cred);
        free(x->in);
        free(x->out);
        free(x->ep);
        free(x->ej_va);
        free(x->ej_sa);
        free(x->in_arb);
    }
    for (unsigned i = 0; m->ej && i < n_nodes; i++) free(m->ej[i].p);
    free(m->r);
    free(m->ej);
    free(m->ep_slot);
    free(m->pool);
    free(m->free);
}

static void mesh_destroy(icnt *n) {
    if (!n) return;
    for (unsigned k = 0; k < 2; k++) net_free(&n->net[k], n->nr, n->n_nodes, n->V);
    free(n->node_router);
    free(n);
}

static int ivc_init(ivc *v, unsigned cap) {
    v->f = calloc(cap, sizeof *v->f);
    v->cap = cap;
    v->out = v->ovc = -1;
    return v->f ? 0 : -1;
}

static int net_init(icnt *n, mnet *m, const mem_config *c) {
    unsigned V = n->V;
    m->r = calloc(n->nr, sizeof *m->r);
    m->ej = calloc(n->n_nodes, sizeof *m->ej);
    m->ep_slot = calloc(n->n_nodes, sizeof *m->ep_slot);
    if (!m->r || !m->ej || !m->ep_slot) return -1;
    for (unsigned i = 0; i < n->n_nodes; i++) {
        router *x = &m->r[n->node_router[i]];
        m->ep_slot[i] = x->n_ep++;
        m->ej[i].p = calloc(c->icnt_out_flits, sizeof *m->ej[i].p);
        m->ej[i].cap = c->icnt_out_flits;
        m->ej[i].lock = -1;
        if (!m->ej[i].p) return -1;
    }
    unsigned slots = 0;
    for (unsigned r = 0; r < n->nr; r++) {
        router *x = &m->r[r];
        x->x = r % n->cols;
        x->y = r / n->cols;
        x->nb[E] = x->x + 1 < n->cols ? (int)r + 1 : -1;
        x->nb[W] = x->x > 0 ? (int)r - 1 : -1;
        x->nb[N] = x->y > 0 ? (int)(r - n->cols) : -1;
        x->nb[S] = x->y + 1 < n->rows ? (int)(r + n->cols) : -1;
        unsigned ni = DIRS * V + x->n_ep;
        x->ep = calloc(x->n_ep ? x->n_ep : 1, sizeof *x->ep);
        x->in = calloc(ni, sizeof *x->in);
        x->out = calloc(DIRS * V, sizeof *x->out);
        x->ej_va = calloc(x->n_ep ? x->n_ep : 1, sizeof *x->ej_va);
        x->ej_sa = calloc(x->n_ep ? x->n_ep : 1, sizeof *x->ej_sa);
        x->in_arb = calloc(DIRS + x->n_ep, sizeof *x->in_arb);
        if (!x->ep || !x->in || !x->out || !x->ej_va || !x->ej_sa || !x->in_arb) return -1;
        for (unsigned i = 0; i < DIRS * V; i++) {
            if (ivc_init(&x->in[i], n->B)) return -1;
            x->out[i].cred = calloc(n->B, sizeof *x->out[i].cred);
            if (!x->out[i].cred) return -1;
            x->out[i].cn = n->B; /* every slot free from cycle 0 */
        }
        for (unsigned e = 0; e < x->n_ep; e++)
            if (ivc_init(&x->in[DIRS * V + e], c->icnt_in_flits)) return -1;
        for (unsigned d = 0; d < DIRS; d++) {
            fg_rr_c_reset(&x->va_arb[d], ni);
            fg_rr_c_reset(&x->sa_arb[d], DIRS + x->n_ep);
            fg_rr_c_reset(&x->in_arb[d], V);
        }
        for (unsigned e = 0; e < x->n_ep; e++) {
            fg_rr_c_reset(&x->ej_va[e], ni);
            fg_rr_c_reset(&x->ej_sa[e], DIRS + x->n_ep);
            fg_rr_c_reset(&x->in_arb[DIRS + e], 1);
        }
        slots += DIRS * V * n->B + x->n_ep * c->icnt_in_flits;
        x->n_ep = 0; /* refilled below in node order */
    }
    for (unsigned i = 0; i < n->n_nodes; i++) {
        router *x = &m->r[n->node_router[i]];
        x->ep[x->n_ep++] = i;
    }
    /* every packet in the pool has a flit in some buffer */
    m->n_pool = slots;
    m->pool = calloc(slots, sizeof *m->pool);
    m->free = calloc(slots, sizeof *m->free);
    if (!m->pool || !m->free) return -1;
    for (unsigned i = 0; i < slots; i++) m->free[i] = slots - 1 - i;
    m->n_free = slots;
    return 0;
}

static icnt *mesh_create(const mem_config *c, unsigned n_req, unsigned n_mem, char *err,
                         size_t errlen) {
    unsigned nr = c->mesh_cols * c->mesh_rows;
    if (n_req < 1 || n_mem < 1 || n_req > MEM_MESH_PORTS || n_mem > 64) {
        snprintf(err, errlen, "mesh: 1..%u requester ports and 1..64 L2 slices (asked %u, %u)",
                 MEM_MESH_PORTS, n_req, n_mem);
        return NULL;
    }
    icnt *n = calloc(1, sizeof *n);
    if (!n) goto oom;
    n->cols = c->mesh_cols;
    n->rows = c->mesh_rows;
    n->nr = nr;
    n->V = c->mesh_vcs;
    n->B = c->mesh_vc_flits;
    n->R = c->mesh_router_cycles;
    n->L = c->mesh_link_cycles;
    n->n_nodes = n_req + n_mem;
    n->node_router = calloc(n->n_nodes, sizeof *n->node_router);
    if (!n->node_router) goto oom;
    if (icnt_mesh_place(c, n_req, n_mem, n->node_router, err, errlen)) {
        mesh_destroy(n);
        return NULL;
    }
    for (unsigned r = 0; r < nr; r++) {
        unsigned eps = 0;
        for (unsigned i = 0; i < n->n_nodes; i++) eps += n->node_router[i] == r;
        if (DIRS * n->V + eps > 64) {
            snprintf(err, errlen, "mesh: router %u has %u endpoints; 4 x %u VCs + endpoints must be "
                     "<= 64", r, eps, n->V);
            mesh_destroy(n);
            return NULL;
        }
    }
    if (net_init(n, &n->net[ICNT_REQ], c) || net_init(n, &n->net[ICNT_REP], c)) goto oom;
    return n;
oom:
    mesh_destroy(n);
    snprintf(err, errlen, "mesh: out of memory");
    return NULL;
}

/* ------------------------------------------------------------ endpoints */
static ivc *inj(const icnt *n, const mnet *m, unsigned node) {
    router *x = &m->r[n->node_router[node]];
    return &x->in[DIRS * n->V + m->ep_slot[node]];
}

static bool mesh_can_inject(const icnt *n, unsigned net, unsigned node, unsigned flits) {
    const ivc *q = inj(n, &n->net[net], node);
    return q->n + flits <= q->cap;
}

static void push_flit(ivc *q, flit f) { q->f[(q->head + q->n++) % q->cap] = f; }

static int mesh_inject(icnt *n, unsigned net, const icnt_pkt *p) {
    mnet *m = &n->net[net];
    ivc *q = inj(n, m, p->src);
    if (q->n + p->flits > q->cap || !m->n_free) return 1;
    uint32_t k = m->free[--m->n_free];
    m->pool[k] = *p;
    m->pool[k].ready = NOWHERE;
    /* written before cycle now: crosses the first switch R - 1 cycles later */
    for (unsigned i = 0; i < p->flits; i++)
        push_flit(q, (flit){k, i == 0, i + 1 == p->flits, n->now + n->R - 1});
    unsigned r = n->node_router[p->src];
    m->r[r].nbuf += p->flits;
    m->active |= 1ull << r;
    m->packets++;
    return 0;
}

static const icnt_pkt *mesh_peek(const icnt *n, unsigned net, unsigned node) {
    const ejq *q = &n->net[net].ej[node];
    if (!q->n || q->p[q->head].ready >= n->now) return NULL; /* NOWHERE until the tail arrives */
    return &q->p[q->head];
}

static void mesh_pop(icnt *n, unsigned net, unsigned node) {
    mnet *m = &n->net[net];
    ejq *q = &m->ej[node];
    q->flits -= q->p[q->head].flits;
    q->head = (q->head + 1) % q->cap;
    q->n--;
    m->packets--;
}

/* ------------------------------------------------------------ routers */
/* XY: output port toward dst's router, or DIRS + its endpoint slot. */
static int route(const icnt *n, const mnet *m, const router *x, unsigned dst) {
    unsigned r = n->node_router[dst], dx = r % n->cols, dy = r / n->cols;
    if (dx > x->x) return E;
    if (dx < x->x) return W;
    if (dy > x->y) return S;
    if (dy < x->y) return N;
    return DIRS + (int)m->ep_slot[dst];
}

static flit *front(ivc *v) { return v->n ? &v->f[v->head] : NULL; }

static bool has_credit(const ovc_t *o, uint64_t now) { return o->cn && o->cred[o->ch] <= now; }

static void router_cycle(icnt *n, mnet *m, unsigned ri) {
    router *x = &m->r[ri];
    const unsigned V = n->V, nvc = DIRS * V + x->n_ep;
    const uint64_t now = n->now;
    /* 1. VC allocation */
    uint64_t want[DIRS + 64] = {0}, outs = 0, cls[8] = {0};
    for (unsigned i = 0; i < nvc; i++) {
        ivc *v = &x->in[i];
        flit *f = front(v);
        if (!f || !f->head || v->ovc >= 0 || f->ready > now) continue;
        const icnt_pkt *p = &m->pool[f->pkt];
        if (v->out < 0) v->out = route(n, m, x, p->dst);
        want[v->out] |= 1ull << i;
        outs |= 1ull << v->out;
        cls[(p->src + p->dst) % V] |= 1ull << i;
    }
    for (uint64_t o = outs; o; o &= o - 1) {
        unsigned op = (unsigned)__builtin_ctzll(o);
        uint64_t req = want[op];
        if (op < DIRS) { /* each flow keeps its VC class: point-to-point order */
            fg_rr_c *a = &x->va_arb[op];
            for (unsigned k = 0; k < V; k++) {
                ovc_t *ov = &x->out[op * V + k];
                uint64_t rk = req & cls[k];
                if (!rk || ov->busy) continue;
                int g = fg_rr_c_pick(a, rk);
                fg_rr_c_edge(a, rk, true);
                ov->busy = true;
                x->in[g].ovc = (int)k;
            }
        } else { /* ejection: one packet at a time, reserved whole */
            unsigned node = x->ep[op - DIRS];
            ejq *q = &m->ej[node];
            fg_rr_c *a = &x->ej_va[op - DIRS];
            int g = fg_rr_c_pick(a, req);
            const icnt_pkt *p = &m->pool[front(&x->in[g])->pkt];
            if (q->lock >= 0 || q->flits + p->flits > q->cap) continue;
            fg_rr_c_edge(a, req, true);
            unsigned slot = (q->head + q->n) % q->cap;
            q->p[slot] = *p;
            q->p[slot].ready = NOWHERE;
            q->n++;
            q->flits += p->flits;
            q->lock = (int)slot;
            x->in[g].ovc = 0;
        }
    }
    /* 2. switch allocation, input first: one VC per input port */
    uint64_t sreq[DIRS + 64] = {0}, souts = 0;
    unsigned pick[DIRS + 64];
    for (unsigned ip = 0; ip < DIRS + x->n_ep; ip++) {
        unsigned base = ip < DIRS ? ip * V : DIRS * V + (ip - DIRS), nv = ip < DIRS ? V : 1;
        uint64_t ok = 0;
        for (unsigned k = 0; k < nv; k++) {
            ivc *v = &x->in[base + k];
            flit *f = front(v);
            if (!f || v->ovc < 0 || f->ready > now) continue;
            if (v->out < DIRS && !has_credit(&x->out[v->out * V + (unsigned)v->ovc], now)) continue;
            ok |= 1ull << k;
        }
        if (!ok) continue;
        int k = fg_rr_c_pick(&x->in_arb[ip], ok);
        pick[ip] = base + (unsigned)k;
        unsigned op = (unsigned)x->in[pick[ip]].out;
        sreq[op] |= 1ull << ip;
        souts |= 1ull << op;
    }
    /* 3. traversal */
    for (uint64_t o = souts; o; o &= o - 1) {
        unsigned op = (unsigned)__builtin_ctzll(o);
        fg_rr_c *a = op < DIRS ? &x->sa_arb[op] : &x->ej_sa[op - DIRS];
        int ip = fg_rr_c_pick(a, sreq[op]);
        fg_rr_c_edge(a, sreq[op], true);
        unsigned vi = pick[ip];
        ivc *v = &x->in[vi];
        fg_rr_c_edge(&x->in_arb[ip], 1ull << (ip < DIRS ? vi - (unsigned)ip * V : 0), true);
        flit f = *front(v);
        v->head = (v->head + 1) % v->cap;
        v->n--;
        x->nbuf--;
        if (ip < DIRS) { /* the slot's credit back to the upstream router */
            ovc_t *up = &m->r[x->nb[ip]].out[(ip ^ 1) * V + (vi - (unsigned)ip * V)];
            up->cred[(up->ch + up->cn) % n->B] = now + n->L;
            up->cn++;
        }
        if (op < DIRS) {
            ovc_t *ov = &x->out[op * V + (unsigned)v->ovc];
            ov->ch = (ov->ch + 1) % n->B;
            ov->cn--;
            router *y = &m->r[x->nb[op]];
            f.ready = now + n->L + n->R;
            push_flit(&y->in[(op ^ 1) * V + (unsigned)v->ovc], f);
            y->nbuf++;
            m->active |= 1ull << x->nb[op];
            if (f.tail) ov->busy = false;
        } else if (f.tail) { /* the packet is in the ejection queue after the link */
            ejq *q = &m->ej[x->ep[op - DIRS]];
            q->p[q->lock].ready = now + n->L;
            q->lock = -1;
            m->free[m->n_free++] = f.pkt;
        }
        if (f.tail) v->out = v->ovc = -1;
    }
    if (!x->nbuf) m->active &= ~(1ull << ri);
}

static void mesh_tick(icnt *n) {
    for (unsigned k = 0; k < 2; k++) {
        mnet *m = &n->net[k];
        /* routers marked during this cycle receive flits not ready before next cycle */
        for (uint64_t a = m->active; a; a &= a - 1) router_cycle(n, m, (unsigned)__builtin_ctzll(a));
    }
    n->now++;
}

static bool mesh_idle(const icnt *n) { return !n->net[0].packets && !n->net[1].packets; }
static uint64_t mesh_cycle(const icnt *n) { return n->now; }

static unsigned mesh_zero_load(const mem_config *c, unsigned port, unsigned slice, unsigned flits) {
    return (icnt_mesh_hops(c, port, slice) + 1) * (c->mesh_router_cycles + c->mesh_link_cycles) + flits - 1;
}

static unsigned mesh_internal_flits(const mem_config *c) {
    return 2 * c->mesh_cols * c->mesh_rows * DIRS * c->mesh_vcs * c->mesh_vc_flits;
}

const icnt_ops icnt_mesh_ops = {"mesh",    mesh_create, mesh_destroy, mesh_can_inject,
                                mesh_inject, mesh_peek,  mesh_pop,     mesh_tick,
                                mesh_idle, mesh_cycle,  mesh_zero_load, mesh_internal_flits};
