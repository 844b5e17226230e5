/* icnt: the interconnect between requesters and L2 slices, as a small ops
 * table so that the crossbar (icnt_xbar.c, EDGE and F/E machines) and the 2D
 * mesh of the CM machine (CM Table I: 6x6, XY routing, 4 VCs, credit flow
 * control; icnt_mesh.c) plug in alike; mem.c's icnt_of() picks one by
 * [mem] icnt.
 *
 * Two networks, request (requesters -> slices) and reply (slices ->
 * requesters), never sharing buffers.  Nodes: requesters 0..n_req-1, then
 * slices n_req..n_req+n_mem-1 (global slice s = partition * slices + k is
 * node n_req + s); a mesh maps these onto its routers itself.
 *
 * Time is the interconnect's own cycle count.  inject() may be called at any
 * point between cycles; a packet is ejectable (peek) once the cycle in which
 * its tail arrives has been ticked.  Bounded everywhere: inject refuses when
 * the node's injection queue cannot take all of the packet's flits; a node
 * that does not pop its ejection queue back-pressures the network. */
#ifndef ICNT_H
#define ICNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mem_config mem_config;

enum { ICNT_REQ = 0, ICNT_REP = 1 };

typedef struct {
    uint32_t rec;   /* the memory system's request record */
    uint16_t src, dst;
    uint16_t flits;
    uint64_t ready; /* set by the network: cycle of the tail's arrival */
} icnt_pkt;

typedef struct icnt icnt;

typedef struct {
    const char *name;
    icnt *(*create)(const mem_config *c, unsigned n_req, unsigned n_mem, char *err, size_t errlen);
    void (*destroy)(icnt *n);
    /* Whether node's injection queue can take a packet of `flits` now. */
    bool (*can_inject)(const icnt *n, unsigned net, unsigned node, unsigned flits);
    /* 0 taken; 1 the source node's queue cannot take it now */
    int (*inject)(icnt *n, unsigned net, const icnt_pkt *p);
    /* the node's oldest ejectable packet, or NULL */
    const icnt_pkt *(*peek)(const icnt *n, unsigned net, unsigned node);
    /* the node's k-th packet (0: the oldest) when it is ejectable, or NULL:
     * what peek returns after k pops */
    const icnt_pkt *(*peek_at)(const icnt *n, unsigned net, unsigned node, unsigned k);
    void (*pop)(icnt *n, unsigned net, unsigned node);
    void (*tick)(icnt *n); /* one interconnect cycle, both networks */
    bool (*idle)(const icnt *n);
    uint64_t (*cycle)(const icnt *n); /* cycles ticked so far */
    /* Zero-load cycles from injection (before cycle t) to ejectable (after
     * cycle t + result - 1) for a packet of `flits` between requester port
     * `port` and global slice `slice`, either direction (mem_unloaded_latency). */
    unsigned (*zero_load)(const mem_config *c, unsigned port, unsigned slice, unsigned flits);
    /* Flits the network holds beyond the endpoints' injection and ejection
     * queues, both networks (mem_new sizes its request records with it). */
    unsigned (*internal_flits)(const mem_config *c);
} icnt_ops;

extern const icnt_ops icnt_xbar_ops;
extern const icnt_ops icnt_mesh_ops;

/* The mesh's placement: the router of every node (requesters 0..n_req-1,
 * then slices), from [mem] mesh_port_routers / mesh_slice_routers or the
 * automatic spread (docs/MESH.md).  0, or -1 with a message. */
int icnt_mesh_place(const mem_config *c, unsigned n_req, unsigned n_mem, unsigned *node_router,
                    char *err, size_t errlen);
/* XY hops between a requester port's router and a slice's router. */
unsigned icnt_mesh_hops(const mem_config *c, unsigned port, unsigned slice);
/* A mesh made by icnt_mesh_ops skips a router's cycles while it can do
 * nothing (on by default); off, every router holding flits is visited every
 * cycle: the reference tests/test_mesh.c holds the skip to. */
void icnt_mesh_set_wake(icnt *n, bool on);

#endif
