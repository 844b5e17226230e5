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

#include "icnt.h"
#include "mem_config.h"

enum { E = 0, W = 1, N = 2, S = 3, DIRS = 4 }; /* opposite(d) = d ^ 1 */
enum { F_HEAD = 1, F_TAIL = 2 };
#define MAXEP 16 /* endpoints per router */
#define NOWHERE UINT64_MAX

typedef struct {
    uint32_t pkt;   /* pool index */
    uint16_t dst;   /* node */
    uint8_t cls;    /* VC class of its flow: (src + dst) mod VCs */
    uint8_t flags;  /* F_HEAD, F_TAIL */
    uint64_t ready; /* first cycle it may cross the switch */
} flit;

typedef struct { /* an input VC (or an endpoint's injection queue): flit FIFO */
    flit front;      /* a copy of f[head] when n > 0 (allocation reads only this) */
    flit *f;
    uint16_t cap, head, n;
    int8_t out, ovc; /* the front packet's output port and VC (-1: not yet) */
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

/* Round robin as fg_rr_c (the twin of rtl/prim/fg_rr_arb.sv): the first
 * requester at or after the pointer, which then moves past the grant. */
typedef struct {
    uint8_t ptr, n;
} rr;
static inline unsigned rr_pick(const rr *a, uint64_t req) {
    uint64_t m = req & (~0ull << a->ptr);
    return (unsigned)__builtin_ctzll(m ? m : req);
}
static inline void rr_grant(rr *a, unsigned g) { a->ptr = (uint8_t)(g + 1 == a->n ? 0 : g + 1); }

typedef struct {
    unsigned x, y;
    unsigned n_ep, ep[MAXEP]; /* endpoints attached (node numbers) */
    ivc *in;             /* DIRS x V direction VCs, then one per endpoint */
    ovc_t *out;          /* DIRS x V */
    uint64_t occ;        /* input VCs holding flits */
    uint64_t held;       /* input VCs whose front packet holds an output VC (ovc >= 0) */
    uint64_t wake;       /* it can do nothing before this cycle (router_cycle, below) */
    rr va[DIRS + MAXEP], sa[DIRS + MAXEP]; /* per output: VC and switch allocation */
    rr in_arb[DIRS];     /* per direction input port: its VCs */
    int nb[DIRS];        /* neighbour router or -1 */
} router;

typedef struct {
    router *r;
    flit *store;         /* every input VC's buffer */
    ovc_t *ovcs;
    uint64_t *creds;
    ivc *ivcs;
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
    bool no_wake; /* icnt_mesh_set_wake(n, false): every router every cycle */
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
static void net_free(mnet *m, unsigned n_nodes) {
    for (unsigned i = 0; m->ej && i < n_nodes; i++) free(m->ej[i].p);
    free(m->r);
    free(m->store);
    free(m->ovcs);
    free(m->creds);
    free(m->ivcs);
    free(m->ej);
    free(m->ep_slot);
    free(m->pool);
    free(m->free);
}

static void mesh_destroy(icnt *n) {
    if (!n) return;
    for (unsigned k = 0; k < 2; k++) net_free(&n->net[k], n->n_nodes);
    free(n->node_router);
    free(n);
}

static int net_init(icnt *n, mnet *m, const mem_config *c) {
    const unsigned V = n->V, B = n->B;
    m->r = calloc(n->nr, sizeof *m->r);
    m->ej = calloc(n->n_nodes, sizeof *m->ej);
    m->ep_slot = calloc(n->n_nodes, sizeof *m->ep_slot);
    m->ivcs = calloc((size_t)n->nr * DIRS * V + n->n_nodes, sizeof *m->ivcs);
    m->ovcs = calloc((size_t)n->nr * DIRS * V, sizeof *m->ovcs);
    m->creds = calloc((size_t)n->nr * DIRS * V * B, sizeof *m->creds);
    unsigned slots = n->nr * DIRS * V * B + n->n_nodes * c->icnt_in_flits;
    m->store = calloc(slots, sizeof *m->store);
    /* every packet in the pool has a flit in some buffer */
    m->n_pool = slots;
    m->pool = calloc(slots, sizeof *m->pool);
    m->free = calloc(slots, sizeof *m->free);
    if (!m->r || !m->ej || !m->ep_slot || !m->ivcs || !m->ovcs || !m->creds || !m->store || !m->pool ||
        !m->free)
        return -1;
    for (unsigned i = 0; i < slots; i++) m->free[i] = slots - 1 - i;
    m->n_free = slots;
    for (unsigned i = 0; i < n->n_nodes; i++) {
        router *x = &m->r[n->node_router[i]];
        m->ep_slot[i] = x->n_ep;
        x->ep[x->n_ep++] = i;
        m->ej[i].p = calloc(c->icnt_out_flits, sizeof *m->ej[i].p);
        m->ej[i].cap = c->icnt_out_flits;
        m->ej[i].lock = -1;
        if (!m->ej[i].p) return -1;
    }
    flit *st = m->store;
    ivc *iv = m->ivcs;
    for (unsigned r = 0; r < n->nr; r++) {
        router *x = &m->r[r];
        x->x = r % n->cols;
        x->y = r / n->cols;
        x->nb[E] = x->x + 1 < n->cols ? (int)r + 1 : -1;
        x->nb[W] = x->x > 0 ? (int)r - 1 : -1;
        x->nb[N] = x->y > 0 ? (int)(r - n->cols) : -1;
        x->nb[S] = x->y + 1 < n->rows ? (int)(r + n->cols) : -1;
        unsigned ni = DIRS * V + x->n_ep;
        x->in = iv;
        iv += ni;
        x->out = &m->ovcs[r * DIRS * V];
        for (unsigned i = 0; i < ni; i++) {
            ivc *v = &x->in[i];
            v->cap = (uint16_t)(i < DIRS * V ? B : c->icnt_in_flits);
            v->f = st;
            st += v->cap;
            v->out = v->ovc = -1;
        }
        for (unsigned i = 0; i < DIRS * V; i++) {
            x->out[i].cred = &m->creds[((size_t)r * DIRS * V + i) * B];
            x->out[i].cn = B; /* every slot free from cycle 0 */
        }
        for (unsigned o = 0; o < DIRS + x->n_ep; o++) {
            x->va[o].n = (uint8_t)ni;
            x->sa[o].n = (uint8_t)(DIRS + x->n_ep);
        }
        for (unsigned d = 0; d < DIRS; d++) x->in_arb[d].n = (uint8_t)V;
    }
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
        if (eps > MAXEP || DIRS * n->V + eps > 64) {
            snprintf(err, errlen, "mesh: router %u has %u endpoints; at most %u, and 4 x %u VCs + "
                     "endpoints <= 64", r, eps, MAXEP, n->V);
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
static ivc *inj(const icnt *n, const mnet *m, unsigned node, unsigned *bit) {
    router *x = &m->r[n->node_router[node]];
    *bit = DIRS * n->V + m->ep_slot[node];
    return &x->in[*bit];
}

static bool mesh_can_inject(const icnt *n, unsigned net, unsigned node, unsigned flits) {
    unsigned b;
    const ivc *q = inj(n, &n->net[net], node, &b);
    return q->n + flits <= q->cap;
}

static inline void push_flit(ivc *q, const flit *f) {
    unsigned i = q->head + q->n++;
    q->f[i >= q->cap ? i - q->cap : i] = *f;
    if (q->n == 1) q->front = *f;
}

static inline flit pop_flit(ivc *q) {
    flit f = q->front;
    if (++q->head == q->cap) q->head = 0;
    if (--q->n) q->front = q->f[q->head];
    return f;
}

static int mesh_inject(icnt *n, unsigned net, const icnt_pkt *p) {
    mnet *m = &n->net[net];
    unsigned b, r = n->node_router[p->src];
    ivc *q = inj(n, m, p->src, &b);
    if (q->n + p->flits > q->cap || !m->n_free) return 1;
    uint32_t k = m->free[--m->n_free];
    m->pool[k] = *p;
    m->pool[k].ready = NOWHERE;
    /* written before cycle now: crosses the first switch R - 1 cycles later */
    flit f = {k, p->dst, (uint8_t)((p->src + p->dst) % n->V), 0, n->now + n->R - 1};
    for (unsigned i = 0; i < p->flits; i++) {
        f.flags = (uint8_t)((i == 0 ? F_HEAD : 0) | (i + 1 == p->flits ? F_TAIL : 0));
        push_flit(q, &f);
    }
    m->r[r].occ |= 1ull << b;
    if (f.ready < m->r[r].wake) m->r[r].wake = f.ready;
    m->active |= 1ull << r;
    m->packets++;
    return 0;
}

static const icnt_pkt *mesh_peek_at(const icnt *n, unsigned net, unsigned node, unsigned k) {
    const ejq *q = &n->net[net].ej[node];
    if (k >= q->n) return NULL;
    const icnt_pkt *p = &q->p[(q->head + k) % q->cap];
    return p->ready >= n->now ? NULL : p; /* NOWHERE until the tail arrives */
}
static const icnt_pkt *mesh_peek(const icnt *n, unsigned net, unsigned node) { return mesh_peek_at(n, net, node, 0); }

static void mesh_pop(icnt *n, unsigned net, unsigned node) {
    mnet *m = &n->net[net];
    ejq *q = &m->ej[node];
    q->flits -= q->p[q->head].flits;
    q->head = (q->head + 1) % q->cap;
    q->n--;
    m->packets--;
    m->r[n->node_router[node]].wake = 0; /* room for a packet its router may be holding */
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

static inline bool has_credit(const ovc_t *o, uint64_t now) { return o->cn && o->cred[o->ch] <= now; }

/* After a cycle in which router x did nothing: the first cycle it might act
 * without being woken.  A front flit not past its pipeline delay, or a
 * credit not yet back, names its cycle; everything else it waits for comes
 * from outside and wakes it: a flit or a credit from a neighbour (their
 * cycles), an injection, room in an ejection queue (mesh_pop).  An output VC
 * or an ejection channel it waits for is freed by this router's own tail,
 * which is itself waiting on one of the above. */
static uint64_t idle_until(const icnt *n, const router *x, uint64_t now) {
    uint64_t t = UINT64_MAX;
    for (uint64_t b = x->occ; b; b &= b - 1) {
        const ivc *v = &x->in[__builtin_ctzll(b)];
        uint64_t u = v->front.ready;
        if (u <= now) {
            if (v->ovc < 0 || v->out >= DIRS) continue;
            const ovc_t *o = &x->out[(unsigned)v->out * n->V + (unsigned)v->ovc];
            if (!o->cn) continue;
            u = o->cred[o->ch];
        }
        if (u < t) t = u;
    }
    return t;
}

static void router_cycle(icnt *n, mnet *m, unsigned ri) {
    router *x = &m->r[ri];
    const unsigned V = n->V, B = n->B;
    const uint64_t now = n->now;
    if (x->wake > now) return;
    bool acted = false;
    /* 1. VC allocation */
    uint64_t want[DIRS + MAXEP], outs = 0, cls[8] = {0};
    for (uint64_t b = x->occ & ~x->held; b; b &= b - 1) { /* (a VC holding one has no head to allocate) */
        unsigned i = (unsigned)__builtin_ctzll(b);
        ivc *v = &x->in[i];
        const flit *f = &v->front;
        if (!(f->flags & F_HEAD) || f->ready > now) continue;
        if (v->out < 0) v->out = (int8_t)route(n, m, x, f->dst);
        unsigned o = (unsigned)v->out;
        want[o] = (outs >> o & 1 ? want[o] : 0) | 1ull << i;
        outs |= 1ull << o;
        cls[f->cls] |= 1ull << i;
    }
    for (uint64_t ob = outs; ob; ob &= ob - 1) {
        unsigned op = (unsigned)__builtin_ctzll(ob);
        uint64_t req = want[op];
        rr *a = &x->va[op];
        if (op < DIRS) { /* each flow keeps its VC class: point-to-point order */
            for (unsigned k = 0; k < V; k++) {
                ovc_t *ov = &x->out[op * V + k];
                uint64_t rk = req & cls[k];
                if (!rk || ov->busy) continue;
                unsigned g = rr_pick(a, rk);
                rr_grant(a, g);
                ov->busy = true;
                x->in[g].ovc = (int8_t)k;
                x->held |= 1ull << g;
                acted = true;
            }
        } else { /* ejection: one packet at a time, reserved whole */
            ejq *q = &m->ej[x->ep[op - DIRS]];
            unsigned g = rr_pick(a, req);
            const icnt_pkt *p = &m->pool[x->in[g].front.pkt];
            if (q->lock >= 0 || q->flits + p->flits > q->cap) continue;
            rr_grant(a, g);
            unsigned slot = (q->head + q->n) % q->cap;
            q->p[slot] = *p;
            q->p[slot].ready = NOWHERE;
            q->n++;
            q->flits += p->flits;
            q->lock = (int)slot;
            x->in[g].ovc = 0;
            x->held |= 1ull << g;
            acted = true;
        }
    }
    /* 2. switch allocation, input first: one VC per input port */
    uint64_t sreq[DIRS + MAXEP], souts = 0, ready_vc = 0;
    unsigned pick[DIRS + MAXEP];
    for (uint64_t b = x->occ & x->held; b; b &= b - 1) {
        unsigned i = (unsigned)__builtin_ctzll(b);
        const ivc *v = &x->in[i];
        if (v->front.ready > now) continue;
        if (v->out < DIRS && !has_credit(&x->out[(unsigned)v->out * V + (unsigned)v->ovc], now)) continue;
        ready_vc |= 1ull << i;
    }
    for (unsigned ip = 0; ip < DIRS + x->n_ep && ready_vc; ip++) {
        unsigned vi;
        if (ip < DIRS) {
            uint64_t ok = ready_vc >> (ip * V) & ((1ull << V) - 1);
            if (!ok) continue;
            vi = ip * V + rr_pick(&x->in_arb[ip], ok);
        } else {
            vi = DIRS * V + (ip - DIRS);
            if (!(ready_vc >> vi & 1)) continue;
        }
        pick[ip] = vi;
        unsigned op = (unsigned)x->in[vi].out;
        sreq[op] = (souts >> op & 1 ? sreq[op] : 0) | 1ull << ip;
        souts |= 1ull << op;
    }
    /* 3. traversal */
    for (uint64_t ob = souts; ob; ob &= ob - 1) {
        unsigned op = (unsigned)__builtin_ctzll(ob);
        unsigned ip = rr_pick(&x->sa[op], sreq[op]);
        rr_grant(&x->sa[op], ip);
        unsigned vi = pick[ip];
        ivc *v = &x->in[vi];
        acted = true;
        if (ip < DIRS) rr_grant(&x->in_arb[ip], vi - ip * V);
        flit f = pop_flit(v);
        if (!v->n) x->occ &= ~(1ull << vi);
        if (ip < DIRS) { /* the slot's credit back to the upstream router */
            router *u = &m->r[x->nb[ip]];
            ovc_t *up = &u->out[(ip ^ 1) * V + (vi - ip * V)];
            unsigned t = up->ch + up->cn++;
            up->cred[t >= B ? t - B : t] = now + n->L;
            if (now + n->L < u->wake) u->wake = now + n->L;
        }
        int8_t ovc = v->ovc;
        if (f.flags & F_TAIL) {
            v->out = v->ovc = -1;
            x->held &= ~(1ull << vi);
        }
        if (op < DIRS) {
            ovc_t *ov = &x->out[op * V + (unsigned)ovc];
            if (++ov->ch == B) ov->ch = 0;
            ov->cn--;
            unsigned yr = (unsigned)x->nb[op], yi = (op ^ 1) * V + (unsigned)ovc;
            router *y = &m->r[yr];
            f.ready = now + n->L + n->R;
            push_flit(&y->in[yi], &f);
            y->occ |= 1ull << yi;
            if (f.ready < y->wake) y->wake = f.ready;
            m->active |= 1ull << yr;
            if (f.flags & F_TAIL) ov->busy = false;
        } else if (f.flags & F_TAIL) { /* the packet is in the ejection queue after the link */
            ejq *q = &m->ej[x->ep[op - DIRS]];
            q->p[q->lock].ready = now + n->L;
            q->lock = -1;
            m->free[m->n_free++] = f.pkt;
        }
    }
    if (!x->occ) m->active &= ~(1ull << ri);
    if (!acted && !n->no_wake) x->wake = idle_until(n, x, now);
}

void icnt_mesh_set_wake(icnt *n, bool on) { n->no_wake = !on; }

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
                                mesh_inject, mesh_peek, mesh_peek_at,  mesh_pop,     mesh_tick,
                                mesh_idle, mesh_cycle,  mesh_zero_load, mesh_internal_flits};
