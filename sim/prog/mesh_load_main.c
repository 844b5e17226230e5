/* mesh_load: accepted throughput and latency of the CM mesh (sim/mem/icnt_mesh.c,
 * docs/MESH.md) against offered load, written to results/mesh_load.json
 * (scripts/cm_figures.py draws results/mesh_load.png):
 *   - uniform: one endpoint per router on both sides, every router sends
 *     packets of 1 or 5 flits (half each) to a uniformly random router
 *     (Bernoulli injection); saturation bound 4 / k flits per node per cycle
 *     for XY on a k x k mesh (the bisection);
 *   - cm: the CM placement, 43 requesters send 1-flit reads to the 8 slices
 *     (address-interleaved = uniform), each slice answers with a 5-flit reply;
 *     bound: a slice injects one flit per cycle, so 8 / 5 replies per cycle.
 * Latency: from the packet's creation (its source queue included) to
 * ejection (cm: the read's creation to its reply's ejection), mesh cycles.
 *
 *   mesh_load [--out results/mesh_load.json] [--cycles N]            */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_cli.h"
#include "fg_config.h"
#include "fg_json.h"
#include "fg_util.h"
#include "mem/icnt.h"
#include "mem/mem_config.h"

#define MAXN 64
#define SQ 4096 /* per-source queue of created packets */

typedef struct {
    icnt_pkt q[SQ];
    uint64_t born[SQ];
    unsigned head, n;
} srcq;

typedef struct {
    double offered, accepted, latency; /* per node per cycle (flits or replies); cycles */
} point;

/* One run of `cycles` after a warm-up; returns the accepted load and the
 * mean latency.  mode 0: uniform, 1: CM reads and replies. */
static point run(const mem_config *c, unsigned n_req, unsigned n_mem, int mode, double rate,
                 uint64_t cycles, uint64_t seed) {
    const icnt_ops *o = &icnt_mesh_ops;
    char err[256];
    icnt *n = o->create(c, n_req, n_mem, err, sizeof err);
    if (!n) {
        fprintf(stderr, "mesh_load: %s\n", err);
        exit(1);
    }
    static srcq sq[2][MAXN + MAXN];
    memset(sq, 0, sizeof sq);
    static uint64_t born[1u << 22];
    fg_rng g;
    fg_rng_seed(&g, seed);
    uint32_t next = 0;
    uint64_t warm = cycles / 5, t_end = warm + cycles, got = 0, lat = 0, npk = 0;
    unsigned thr = (unsigned)(rate * 4294967296.0 > 4294967295.0 ? 4294967295u : rate * 4294967296.0);
    for (uint64_t t = 0; t < t_end; t++) {
        for (unsigned s = 0; s < n_req; s++) { /* creation (Bernoulli) */
            if ((uint32_t)fg_rng_next(&g) >= thr) continue;
            srcq *q = &sq[ICNT_REQ][s];
            if (q->n == SQ) continue; /* far beyond saturation: the source drops */
            unsigned flits = mode ? 1 : (fg_rng_next(&g) & 1 ? 5 : 1);
            unsigned d = n_req + (unsigned)fg_rng_below(&g, n_mem);
            q->q[(q->head + q->n) % SQ] = (icnt_pkt){next & ((1u << 22) - 1), (uint16_t)s, (uint16_t)d, (uint16_t)flits, 0};
            born[next & ((1u << 22) - 1)] = t;
            next++;
            q->n++;
        }
        for (unsigned net = 0; net < 2; net++) /* injection from the source queues */
            for (unsigned s = 0; s < n_req + n_mem; s++) {
                srcq *q = &sq[net][s];
                if (q->n && !o->inject(n, net, &q->q[q->head])) {
                    q->head = (q->head + 1) % SQ;
                    q->n--;
                }
            }
        o->tick(n);
        for (unsigned e = 0; e < n_req + n_mem; e++) { /* ejection */
            unsigned net = e < n_req ? ICNT_REP : ICNT_REQ;
            const icnt_pkt *p = o->peek(n, net, e);
            if (!p) continue;
            if (mode && net == ICNT_REQ) { /* the slice answers: a 5-flit reply */
                srcq *q = &sq[ICNT_REP][e];
                if (q->n == SQ) continue;
                q->q[(q->head + q->n) % SQ] = (icnt_pkt){p->rec, (uint16_t)e, p->src, 5, 0};
                q->n++;
            } else if (t >= warm) {
                got += mode ? 1 : p->flits;
                lat += t + 1 - born[p->rec];
                npk++;
            }
            o->pop(n, net, e);
        }
    }
    o->destroy(n);
    point r;
    r.offered = mode ? rate : rate * 3; /* uniform: 3 flits per packet on average */
    r.accepted = (double)got / (double)cycles / n_req;
    r.latency = npk ? (double)lat / (double)npk : 0;
    return r;
}

/* The CM placement as a map: each router's endpoints (ports: GPU cores
 * 0..27, H the host port 28, C0..C13 the CPU cores at ports 29..42; Mp the
 * slice of partition p). */
static void print_map(const mem_config *c) {
    unsigned nr[43 + 8], R = c->mesh_cols * c->mesh_rows;
    char err[200];
    if (icnt_mesh_place(c, 43, 8, nr, err, sizeof err)) {
        fprintf(stderr, "mesh_load: %s\n", err);
        exit(1);
    }
    printf("CM placement (router = %u y + x):\n      ", c->mesh_cols);
    for (unsigned x = 0; x < c->mesh_cols; x++) printf("  x=%-7u", x);
    for (unsigned r = 0; r < R; r++) {
        char cell[64] = "";
        int n = 0;
        for (unsigned i = 0; i < 51; i++) {
            if (nr[i] != r) continue;
            if (i < 28) n += snprintf(cell + n, sizeof cell - (size_t)n, "%sG%u", n ? "," : "", i);
            else if (i == 28) n += snprintf(cell + n, sizeof cell - (size_t)n, "%sH", n ? "," : "");
            else if (i < 43) n += snprintf(cell + n, sizeof cell - (size_t)n, "%sC%u", n ? "," : "", i - 29);
            else n += snprintf(cell + n, sizeof cell - (size_t)n, "%sM%u", n ? "," : "", i - 43);
        }
        if (r % c->mesh_cols == 0) printf("\n  y=%u ", r / c->mesh_cols);
        printf("  %-9s", cell);
    }
    printf("\n");
}

int main(int argc, char **argv) {
    const char *out = "results/mesh_load.json";
    uint64_t cycles = 20000;
    const fg_opt opts[] = {FG_OPT_STR("--out", &out, "FILE", "the result (default results/mesh_load.json)"),
                           FG_OPT_U64("--cycles", &cycles, 1, UINT64_MAX, "N", "cycles per load point (default 20000)"),
                           FG_OPT_END};
    fg_cli_parse(&(fg_cli){"mesh_load", NULL, NULL, opts, NULL}, argc, argv);
    char err[512];
    mem_config cm;
    mem_config_default(&cm);
    fg_config *cf = fg_config_new();
    if (fg_config_load(cf, "configs/cm.ini", err, sizeof err) || mem_config_load(&cm, cf, err, sizeof err)) {
        fprintf(stderr, "mesh_load: %s\n", err);
        return 1;
    }
    fg_config_free(cf);
    print_map(&cm);
    mem_config uni = cm; /* one endpoint of each side per router */
    unsigned k = cm.mesh_cols, R = k * cm.mesh_rows;
    uni.mesh_n_ports = uni.mesh_n_slices = R;
    for (unsigned r = 0; r < R; r++) uni.mesh_port_router[r] = uni.mesh_slice_router[r] = (uint8_t)r;
    cJSON *root = cJSON_CreateObject();
    fg_json_add_blocks(root, NULL, 0); /* C models only: no RTL block runs here */
    cJSON_AddNumberToObject(root, "router_cycles", cm.mesh_router_cycles);
    cJSON_AddNumberToObject(root, "link_cycles", cm.mesh_link_cycles);
    cJSON_AddNumberToObject(root, "vcs", cm.mesh_vcs);
    cJSON_AddNumberToObject(root, "vc_flits", cm.mesh_vc_flits);
    cJSON_AddNumberToObject(root, "cycles", (double)cycles);
    for (int mode = 0; mode < 2; mode++) {
        cJSON *o = cJSON_AddObjectToObject(root, mode ? "cm" : "uniform");
        cJSON *pts = cJSON_AddArrayToObject(o, "points");
        double bound = mode ? 8.0 / 5 / 43 : 4.0 / k;
        cJSON_AddNumberToObject(o, "bound", bound);
        cJSON_AddStringToObject(o, "unit", mode ? "reads per requester per cycle" : "flits per node per cycle");
        printf("%s (bound %.3f %s)\n", mode ? "cm: 43 requesters, 8 slices" : "uniform: 36 nodes", bound,
               mode ? "reads/requester/cycle" : "flits/node/cycle");
        for (unsigned i = 1; i <= 16; i++) {
            double offered = bound * 0.1 * i; /* 0.1 .. 1.6 x the bound */
            double rate = mode ? offered : offered / 3;
            point p = mode ? run(&cm, 43, 8, 1, rate, cycles, 100 + i) : run(&uni, R, R, 0, rate, cycles, i);
            cJSON *e = cJSON_CreateObject();
            cJSON_AddNumberToObject(e, "offered", offered);
            cJSON_AddNumberToObject(e, "accepted", p.accepted);
            cJSON_AddNumberToObject(e, "latency", p.latency);
            cJSON_AddItemToArray(pts, e);
            printf("  offered %.4f accepted %.4f latency %.1f\n", offered, p.accepted, p.latency);
        }
    }
    if (fg_json_write(root, out, err, sizeof err)) {
        fprintf(stderr, "mesh_load: %s\n", err);
        return 1;
    }
    cJSON_Delete(root);
    printf("wrote %s\n", out);
    return 0;
}
