/* edge_frontend: see edge_frontend.h.  One call of edge_fe_step() is one
 * GPU core cycle: read both blocks' outputs (state only), compute their
 * inputs, step both (EDGE Sec. III-C). */
#include "edge_frontend.h"
#include "fg_wave.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sys_queue.h"

typedef struct {
    uint64_t addr, key, c_first;
    uint32_t data;
    bool presented;
} fe_write;

typedef struct { /* an accepted doorbell write, waiting for its ring / descriptor */
    uint64_t addr, key, c_write;
    unsigned id;
} fe_ring;

struct edge_fe {
    edge_fe_params p;
    edge_fe_callbacks cb;
    fg_block *db, *ekt;
    uint64_t cycle;
    sys_queue writes;     /* fe_write: MMIO writes waiting for the decoder */
    sys_queue accepted;   /* fe_ring: accepted doorbell writes, before the ring reaches the EKT */
    sys_queue *pend;      /* per EKT id, fe_ring: rings inside the EKT */
    sys_queue cpls;       /* unsigned ids waiting for cpl_* */
    sys_queue cmds;       /* edge_fe_cmd waiting for cmd_* */
    sys_queue rsps;       /* edge_fe_rsp */
    sys_queue pkq;        /* edge_fe_event: pending kernel queue (larger event kernels) */
    sys_queue dispatch;   /* edge_fe_event in the dispatch pipeline, ordered by c_dispatch */
    unsigned cmds_in_flight;
    edge_fe_stats st;
};

void edge_fe_params_default(edge_fe_params *p) {
    memset(p, 0, sizeof *p);
    p->impl = FG_IMPL_RTL;
    p->dispatch_cycles = 300;
    p->doorbell_base = 0x4000000000ull; /* MMIO aperture above global memory */
    p->doorbell_region_log2 = 12;
    p->doorbell_stride_log2 = 3;
    p->event_priority = 3;
    edge_ekt_params_default(&p->ekt);
    edge_doorbell_params_default(&p->db);
}

int edge_fe_params_load(edge_fe_params *p, fg_config *cfg, char *err, size_t errlen) {
    unsigned ii = (unsigned)p->impl;
    if (fg_config_enum(cfg, "edge", "impl", fg_impl_names, &ii, err, errlen)) return -1;
    p->impl = (fg_impl)ii;
    uint64_t v = p->dispatch_cycles;
    if (fg_config_u64(cfg, "edge", "dispatch_cycles", 0, 1000000, &v, err, errlen)) return -1;
    p->dispatch_cycles = (unsigned)v;
    if (fg_config_u64(cfg, "edge", "doorbell_base", 0, UINT64_MAX, &p->doorbell_base, err, errlen))
        return -1;
    v = p->doorbell_region_log2;
    if (fg_config_u64(cfg, "edge", "doorbell_region_log2", 2, 40, &v, err, errlen)) return -1;
    p->doorbell_region_log2 = (unsigned)v;
    v = p->doorbell_stride_log2;
    if (fg_config_u64(cfg, "edge", "doorbell_stride_log2", 2, 20, &v, err, errlen)) return -1;
    p->doorbell_stride_log2 = (unsigned)v;
    v = p->event_priority;
    if (fg_config_u64(cfg, "edge", "event_priority", 0, 255, &v, err, errlen)) return -1;
    p->event_priority = (unsigned)v;
    if (p->doorbell_base & ((1ull << p->doorbell_region_log2) - 1)) {
        snprintf(err, errlen, "[edge] doorbell_base 0x%llx is not aligned to the 2^%u-byte region",
                 (unsigned long long)p->doorbell_base, p->doorbell_region_log2);
        return -1;
    }
    if ((p->ekt.entries << p->doorbell_stride_log2) > (1ull << p->doorbell_region_log2)) {
        snprintf(err, errlen, "[edge] %u doorbells of 2^%u bytes do not fit in the 2^%u region",
                 p->ekt.entries, p->doorbell_stride_log2, p->doorbell_region_log2);
        return -1;
    }
    return 0;
}

edge_fe *edge_fe_new(const edge_fe_params *p, const edge_fe_callbacks *cb, char *err,
                     size_t errlen) {
    edge_fe *f = calloc(1, sizeof *f);
    if (!f) {
        snprintf(err, errlen, "edge_fe: out of memory");
        return NULL;
    }
    f->p = *p;
    f->cb = *cb;
    if (p->db.entries != p->ekt.entries) {
        snprintf(err, errlen, "edge_fe: doorbell entries %u != EKT entries %u", p->db.entries,
                 p->ekt.entries);
        free(f);
        return NULL;
    }
    f->db = fg_block_new(&edge_doorbell_class, p->impl, &p->db, err, errlen);
    if (!f->db) goto fail;
    f->ekt = fg_block_new(&edge_ekt_class, p->impl, &p->ekt, err, errlen);
    if (!f->ekt) goto fail;
    fg_wave_place(f->db, "frontend");
    fg_wave_place(f->ekt, "frontend");
    /* idle most cycles, the same inputs while idle: skip the edges that change nothing */
    if (fg_block_idle_skip(f->db) || fg_block_idle_skip(f->ekt)) {
        snprintf(err, errlen, "edge_fe: out of memory");
        goto fail;
    }
    f->pend = calloc(p->ekt.entries, sizeof *f->pend);
    if (!f->pend) goto fail;
    for (unsigned i = 0; i < p->ekt.entries; i++) sys_queue_init(&f->pend[i], sizeof(fe_ring));
    sys_queue_init(&f->writes, sizeof(fe_write));
    sys_queue_init(&f->accepted, sizeof(fe_ring));
    sys_queue_init(&f->cpls, sizeof(unsigned));
    sys_queue_init(&f->cmds, sizeof(edge_fe_cmd));
    sys_queue_init(&f->rsps, sizeof(edge_fe_rsp));
    sys_queue_init(&f->pkq, sizeof(edge_fe_event));
    sys_queue_init(&f->dispatch, sizeof(edge_fe_event));
    return f;
fail:
    if (f->db) fg_block_free(f->db);
    if (f->ekt) fg_block_free(f->ekt);
    free(f);
    return NULL;
}

void edge_fe_free(edge_fe *f) {
    if (!f) return;
    fg_block_free(f->db);
    fg_block_free(f->ekt);
    for (unsigned i = 0; i < f->p.ekt.entries; i++) sys_queue_free(&f->pend[i]);
    free(f->pend);
    sys_queue_free(&f->writes);
    sys_queue_free(&f->accepted);
    sys_queue_free(&f->cpls);
    sys_queue_free(&f->cmds);
    sys_queue_free(&f->rsps);
    sys_queue_free(&f->pkq);
    sys_queue_free(&f->dispatch);
    free(f);
}

const edge_fe_params *edge_fe_get_params(const edge_fe *f) { return &f->p; }
uint64_t edge_fe_cycle(const edge_fe *f) { return f->cycle; }

uint64_t edge_fe_doorbell_addr(const edge_fe *f, unsigned id) {
    return f->p.doorbell_base + ((uint64_t)id << f->p.doorbell_stride_log2);
}

int edge_fe_write(edge_fe *f, uint64_t addr, uint32_t data, uint64_t key) {
    fe_write w = {addr, key, 0, data, false};
    f->st.writes++;
    return sys_queue_push(&f->writes, &w);
}

int edge_fe_complete(edge_fe *f, unsigned id) {
    f->st.completions++;
    return sys_queue_push(&f->cpls, &id);
}

static void raise(edge_fe *f, uint64_t key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* The driver's side of edgeRegisterEvent (EDGE Table I): a parameter buffer
 * that is not a whole number of entries is refused here, before the EKT
 * (which checks that it holds maxNumEvents entries, EKT_RSP_BUF_SHORT, but
 * has no divider for this). */
int edge_fe_command(edge_fe *f, const edge_fe_cmd *c) {
    if (c->op == EKT_OP_REG && c->param_size && c->param_end >= c->param_base &&
        (c->param_end - c->param_base) % c->param_size) {
        raise(f, c->id,
              "edgeRegisterEvent refused: parameter buffer 0x%llx..0x%llx is not a whole number of "
              "%llu-byte entries (end must be the last entry's address)",
              (unsigned long long)c->param_base, (unsigned long long)c->param_end,
              (unsigned long long)c->param_size);
        return -1;
    }
    return sys_queue_push(&f->cmds, c);
}
bool edge_fe_response(edge_fe *f, edge_fe_rsp *r) { return sys_queue_pop(&f->rsps, r); }

bool edge_fe_idle(const edge_fe *f) {
    const edge_doorbell_out_t *d = fg_block_out(f->db);
    const edge_ekt_out_t *e = fg_block_out(f->ekt);
    size_t pend = 0;
    for (unsigned i = 0; i < f->p.ekt.entries; i++) pend += f->pend[i].n;
    return !f->writes.n && !f->accepted.n && !pend && !f->cpls.n && !f->cmds.n &&
           !f->cmds_in_flight && !f->pkq.n && !f->dispatch.n && !d->ring_valid_o &&
           !d->pt_valid_o && !e->evw_valid_o && !e->pkq_valid_o && e->ring_ready_o &&
           e->cpl_ready_o;
}

#include <stdarg.h>
static void raise(edge_fe *f, uint64_t key, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    f->st.errors++;
    if (f->cb.error) f->cb.error(f->cb.user, msg, key, f->cycle);
}

static bool in_aperture(const edge_fe *f, uint64_t addr) {
    return addr >= f->p.doorbell_base &&
           addr - f->p.doorbell_base < (1ull << f->p.doorbell_region_log2);
}

static edge_fe_event take_desc(edge_fe *f, const edge_ekt_out_t *e, bool evw) {
    edge_fe_event ev = {0};
    ev.single = evw;
#define D(field) (evw ? e->evw_##field : e->pkq_##field)
    ev.id = (unsigned)D(id_o);
    ev.kernel_ptr = D(kernel_ptr_o);
    ev.param_addr = D(param_addr_o);
    ev.grid[0] = (uint32_t)D(grid_x_o), ev.grid[1] = (uint32_t)D(grid_y_o);
    ev.grid[2] = (uint32_t)D(grid_z_o);
    ev.block[0] = (uint32_t)D(block_x_o), ev.block[1] = (uint32_t)D(block_y_o);
    ev.block[2] = (uint32_t)D(block_z_o);
    ev.shmem = (uint32_t)D(shmem_o);
    ev.prio = (uint32_t)D(prio_o);
#undef D
    ev.c_desc = f->cycle;
    fe_ring r;
    if (ev.id < f->p.ekt.entries && sys_queue_pop(&f->pend[ev.id], &r)) {
        ev.key = r.key;
        ev.c_write = r.c_write;
    } else {
        raise(f, 0, "EKT descriptor for entry %u without a matching doorbell ring", ev.id);
        ev.key = UINT64_MAX;
        ev.c_write = f->cycle;
    }
    return ev;
}

int edge_fe_step(edge_fe *f, char *err, size_t errlen) {
    const edge_doorbell_out_t *dout = fg_block_out(f->db);
    const edge_ekt_out_t *eout = fg_block_out(f->ekt);
    edge_doorbell_in_t di = {0};
    edge_ekt_in_t ei = {0};

    /* ---- decoder: configuration, one queued write, pass-through sink ---- */
    di.cfg_base_i = f->p.doorbell_base;
    di.cfg_region_log2_i = f->p.doorbell_region_log2;
    di.cfg_stride_log2_i = f->p.doorbell_stride_log2;
    fe_write *w = sys_queue_head(&f->writes);
    if (w) {
        if (!w->presented) w->presented = true, w->c_first = f->cycle;
        di.wr_valid_i = 1;
        di.wr_addr_i = w->addr;
        di.wr_data_i = w->data;
        if (dout->wr_ready_o) { /* transfer at this edge */
            if (in_aperture(f, w->addr)) {
                fe_ring r = {w->addr, w->key, w->c_first,
                             (unsigned)((w->addr - f->p.doorbell_base) >> f->p.doorbell_stride_log2)};
                f->st.doorbells++;
                if (sys_queue_push(&f->accepted, &r)) goto oom;
            }
            sys_queue_pop(&f->writes, NULL);
        }
    }
    di.pt_ready_i = 1;
    if (dout->pt_valid_o) {
        f->st.passthrough++;
        if (f->cb.passthrough) f->cb.passthrough(f->cb.user, dout->pt_addr_o, (uint32_t)dout->pt_data_o);
    }
    if (dout->err_valid_o) { /* a bad doorbell write: never a ring */
        uint64_t key = UINT64_MAX;
        for (size_t i = 0; i < f->accepted.n; i++) {
            fe_ring *r = sys_queue_at(&f->accepted, i);
            if (r->addr == dout->err_addr_o) {
                key = r->key;
                sys_queue_remove(&f->accepted, i);
                break;
            }
        }
        raise(f, key, "doorbell decoder error %s at address 0x%llx",
              dout->err_code_o == DB_ERR_RANGE ? "RANGE (no such EKT entry)"
              : dout->err_code_o == DB_ERR_ALIGN ? "ALIGN (not a doorbell register)" : "?",
              (unsigned long long)dout->err_addr_o);
    }

    /* ---- decoder ring -> EKT ring ---- */
    ei.ring_valid_i = dout->ring_valid_o;
    ei.ring_id_i = dout->ring_id_o;
    di.ring_ready_i = eout->ring_ready_o;
    if (dout->ring_valid_o && eout->ring_ready_o) {
        fe_ring r;
        if (sys_queue_pop(&f->accepted, &r)) {
            if (r.id != dout->ring_id_o)
                raise(f, r.key, "decoder rang doorbell %u for a write to doorbell %u",
                      (unsigned)dout->ring_id_o, r.id);
            r.id = (unsigned)dout->ring_id_o;
            if (r.id < f->p.ekt.entries && sys_queue_push(&f->pend[r.id], &r)) goto oom;
        } else {
            raise(f, 0, "decoder rang doorbell %u without a write", (unsigned)dout->ring_id_o);
        }
    }

    /* ---- host commands ---- */
    edge_fe_cmd *c = f->cmds_in_flight ? NULL : sys_queue_head(&f->cmds);
    if (c) {
        ei.cmd_valid_i = 1;
        ei.cmd_op_i = c->op;
        ei.cmd_id_i = c->id;
        ei.cmd_kernel_ptr_i = c->kernel_ptr;
        ei.cmd_param_base_i = c->param_base;
        ei.cmd_param_size_i = c->param_size;
        ei.cmd_param_end_i = c->param_end;
        ei.cmd_grid_x_i = c->grid[0], ei.cmd_grid_y_i = c->grid[1], ei.cmd_grid_z_i = c->grid[2];
        ei.cmd_block_x_i = c->block[0], ei.cmd_block_y_i = c->block[1];
        ei.cmd_block_z_i = c->block[2];
        ei.cmd_shmem_i = c->shmem;
        ei.cmd_prio_i = c->prio;
        ei.cmd_max_events_i = c->max_events;
        if (eout->cmd_ready_o) {
            sys_queue_pop(&f->cmds, NULL);
            f->cmds_in_flight = 1;
        }
    }
    ei.rsp_ready_i = 1;
    if (eout->rsp_valid_o) {
        edge_fe_rsp r = {(unsigned)eout->rsp_status_o, (unsigned)eout->rsp_id_o, eout->rsp_head_o,
                         (unsigned)eout->rsp_inflight_o};
        if (sys_queue_push(&f->rsps, &r)) goto oom;
        f->cmds_in_flight = 0;
    }

    /* ---- completions ---- */
    unsigned *cid = sys_queue_head(&f->cpls);
    if (cid) {
        ei.cpl_valid_i = 1;
        ei.cpl_id_i = *cid;
        if (eout->cpl_ready_o) sys_queue_pop(&f->cpls, NULL);
    }

    /* ---- descriptors: evw straight to dispatch, pkq via the pending queue ---- */
    ei.evw_ready_i = 1;
    ei.pkq_ready_i = 1;
    if (eout->evw_valid_o) {
        edge_fe_event ev = take_desc(f, eout, true);
        ev.c_dispatch = f->cycle + 1 + f->p.dispatch_cycles;
        ev.prio = f->p.event_priority;
        f->st.descriptors_evw++;
        if (sys_queue_push(&f->dispatch, &ev)) goto oom;
    }
    if (eout->pkq_valid_o) {
        edge_fe_event ev = take_desc(f, eout, false);
        f->st.descriptors_pkq++;
        if (sys_queue_push(&f->pkq, &ev)) goto oom;
    }
    /* the KMU schedules one pending event kernel per cycle into the dispatch pipeline */
    edge_fe_event pk;
    if (sys_queue_pop(&f->pkq, &pk)) {
        pk.c_dispatch = f->cycle + 1 + f->p.dispatch_cycles;
        if (sys_queue_push(&f->dispatch, &pk)) goto oom;
    }

    /* ---- EKT error pulses: the ring (or completion) they belong to ---- */
    if (eout->err_valid_o) {
        unsigned id = (unsigned)eout->err_id_o, code = (unsigned)eout->err_code_o;
        uint64_t key = UINT64_MAX;
        if ((code == EKT_ERR_UNREGISTERED || code == EKT_ERR_OVERRUN) && id < f->p.ekt.entries) {
            fe_ring r;
            if (sys_queue_pop(&f->pend[id], &r)) key = r.key;
        }
        static const char *const names[] = {"none", "ring of an unregistered entry",
                                            "overrun (more events than maxNumEvents in flight)",
                                            "spurious completion", "completion of an unregistered entry"};
        raise(f, key, "EKT error on entry %u: %s", id, code < 5 ? names[code] : "unknown code");
    }

    /* ---- step both blocks ---- */
    if (fg_block_step(f->db, &di) || fg_block_step(f->ekt, &ei)) {
        snprintf(err, errlen, "edge front-end: %s%s", f->db->failed ? f->db->error : "",
                 f->ekt->failed ? f->ekt->error : "");
        return -1;
    }
    f->cycle++;

    /* ---- dispatch pipeline: events whose delay elapsed go to the SIMT cores ---- */
    edge_fe_event *ev;
    while ((ev = sys_queue_head(&f->dispatch)) && ev->c_dispatch <= f->cycle) {
        edge_fe_event x;
        sys_queue_pop(&f->dispatch, &x);
        if (f->cb.launch) f->cb.launch(f->cb.user, &x);
    }
    return 0;
oom:
    snprintf(err, errlen, "edge front-end: out of memory");
    return -1;
}

void edge_fe_get_stats(const edge_fe *f, edge_fe_stats *s) {
    *s = f->st;
    const edge_doorbell_out_t *d = fg_block_out(f->db);
    const edge_ekt_out_t *e = fg_block_out(f->ekt);
    s->db_rings = d->cnt_rings_o;
    s->db_err_range = d->cnt_err_range_o;
    s->db_err_align = d->cnt_err_align_o;
    s->ekt_launches = e->cnt_launch_o;
    s->ekt_err_unreg = e->cnt_err_unreg_o;
    s->ekt_err_overrun = e->cnt_err_overrun_o;
    s->ekt_err_cpl = e->cnt_err_cpl_o;
}
