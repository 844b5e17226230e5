/* Event kernel table: directed tests of every operation and error, exact
 * launch timing, and a random lockstep run (RTL vs C twin) with a
 * scoreboard: every accepted ring gives exactly one launch or one error, and
 * every launch uses the parameter entry the circular buffer rules predict. */
#include <stdio.h>
#include <string.h>

#include "edge_ekt.h"
#include "fg_tb.h"

#define N_ENT 32

typedef struct {
    fg_block *b;
    edge_ekt_in_t in;
    /* scoreboard, per doorbell id */
    uint64_t rings[N_ENT], launches[N_ENT], ring_errs[N_ENT], cpl_errs[N_ENT];
    uint64_t overruns[N_ENT];
    edge_ekt_out_t last_evw, last_pkq; /* last descriptor taken on each path */
    unsigned n_evw, n_pkq;
    bool hold_evw, hold_pkq; /* back-pressure the output paths */
    bool cmd_taken;          /* a command was accepted and awaits its response */
} ekt_tb;

static const edge_ekt_out_t *out(const ekt_tb *t) { return fg_block_out(t->b); }

static void tb_init(ekt_tb *t, const char *wave) {
    memset(t, 0, sizeof *t);
    edge_ekt_params p;
    edge_ekt_params_default(&p);
    t->b = tb_block(&edge_ekt_class, &p, wave);
}

/* One cycle: drive ready on the outputs, observe handshakes, step. */
static void cycle(ekt_tb *t) {
    const edge_ekt_out_t *o = out(t);
    t->in.evw_ready_i = !t->hold_evw;
    t->in.pkq_ready_i = !t->hold_pkq;
    if (o->evw_valid_o && t->in.evw_ready_i) {
        t->last_evw = *o;
        t->n_evw++;
        t->launches[o->evw_id_o]++;
    }
    if (o->pkq_valid_o && t->in.pkq_ready_i) {
        t->last_pkq = *o;
        t->n_pkq++;
        t->launches[o->pkq_id_o]++;
    }
    if (o->err_valid_o) {
        if (o->err_code_o == EKT_ERR_UNREGISTERED || o->err_code_o == EKT_ERR_OVERRUN)
            t->ring_errs[o->err_id_o]++;
        else t->cpl_errs[o->err_id_o]++;
        if (o->err_code_o == EKT_ERR_OVERRUN) t->overruns[o->err_id_o]++;
    }
    bool ring_fire = t->in.ring_valid_i && o->ring_ready_o;
    bool cmd_fire = t->in.cmd_valid_i && o->cmd_ready_o;
    bool cpl_fire = t->in.cpl_valid_i && o->cpl_ready_o;
    if (ring_fire) t->rings[t->in.ring_id_i]++;
    tb_step(t->b, &t->in);
    /* a transfer happened at this edge: the source drops valid */
    if (ring_fire) t->in.ring_valid_i = 0;
    if (cmd_fire) {
        t->in.cmd_valid_i = 0;
        t->cmd_taken = true;
    }
    if (cpl_fire) t->in.cpl_valid_i = 0;
}

typedef struct {
    uint64_t kptr, base, size, end, grid[3], block[3], shmem, prio, maxev;
} reg_args;

static reg_args warp_kernel(uint64_t base, uint64_t size, unsigned n, unsigned maxev) {
    return (reg_args){0x80001000, base, size, base + (uint64_t)(n - 1) * size, {1, 1, 1}, {32, 1, 1},
                      0, 3, maxev};
}

/* Issues one host command and returns its response (status, id, head, infl). */
static edge_ekt_out_t command(ekt_tb *t, unsigned op, unsigned id, const reg_args *a) {
    edge_ekt_in_t *in = &t->in;
    in->cmd_valid_i = 1;
    in->cmd_op_i = op;
    in->cmd_id_i = id;
    if (a) {
        in->cmd_kernel_ptr_i = a->kptr;
        in->cmd_param_base_i = a->base;
        in->cmd_param_size_i = a->size;
        in->cmd_param_end_i = a->end;
        in->cmd_grid_x_i = a->grid[0], in->cmd_grid_y_i = a->grid[1], in->cmd_grid_z_i = a->grid[2];
        in->cmd_block_x_i = a->block[0], in->cmd_block_y_i = a->block[1], in->cmd_block_z_i = a->block[2];
        in->cmd_shmem_i = a->shmem;
        in->cmd_prio_i = a->prio;
        in->cmd_max_events_i = a->maxev;
    }
    for (int i = 0; i < 100 && !out(t)->cmd_ready_o; i++) cycle(t);
    assert_true(out(t)->cmd_ready_o);
    cycle(t);
    in->cmd_valid_i = 0;
    for (int i = 0; i < 100 && !out(t)->rsp_valid_o; i++) cycle(t);
    assert_true(out(t)->rsp_valid_o);
    edge_ekt_out_t r = *out(t);
    in->rsp_ready_i = 1;
    cycle(t);
    in->rsp_ready_i = 0;
    return r;
}

static void ring(ekt_tb *t, unsigned id) {
    t->in.ring_valid_i = 1;
    t->in.ring_id_i = id;
    for (int i = 0; i < 1000 && t->in.ring_valid_i; i++) cycle(t);
    assert_int_equal(t->in.ring_valid_i, 0);
}

static void complete(ekt_tb *t, unsigned id) {
    t->in.cpl_valid_i = 1;
    t->in.cpl_id_i = id;
    while (!out(t)->cpl_ready_o) cycle(t);
    cycle(t);
    t->in.cpl_valid_i = 0;
}

static void settle(ekt_tb *t, int n) {
    for (int i = 0; i < n; i++) cycle(t);
}

static void test_register_read_unregister(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, "edge_ekt");
    for (unsigned i = 0; i < 3; i++) {
        reg_args a = warp_kernel(0x10000 + 0x1000 * i, 64, 8, 8);
        edge_ekt_out_t r = command(&t, EKT_OP_REG, 0, &a);
        assert_int_equal(r.rsp_status_o, EKT_RSP_OK);
        assert_int_equal(r.rsp_id_o, i); /* lowest free entry is the doorbell id */
        assert_int_equal(r.rsp_head_o, a.base);
    }
    assert_int_equal(out(&t)->registered_o, 0x7);
    edge_ekt_out_t r = command(&t, EKT_OP_READ, 1, NULL);
    assert_int_equal(r.rsp_status_o, EKT_RSP_OK);
    assert_int_equal(r.rsp_head_o, 0x11000);
    assert_int_equal(r.rsp_inflight_o, 0);
    assert_int_equal(command(&t, EKT_OP_UNREG, 1, NULL).rsp_status_o, EKT_RSP_OK);
    assert_int_equal(out(&t)->registered_o, 0x5);
    assert_int_equal(command(&t, EKT_OP_UNREG, 1, NULL).rsp_status_o, EKT_RSP_NOT_REGISTERED);
    assert_int_equal(command(&t, EKT_OP_READ, 1, NULL).rsp_status_o, EKT_RSP_NOT_REGISTERED);
    assert_int_equal(command(&t, 3, 0, NULL).rsp_status_o, EKT_RSP_INVALID); /* unknown op */
    /* the freed entry is reused first */
    reg_args a = warp_kernel(0x50000, 32, 4, 4);
    r = command(&t, EKT_OP_REG, 0, &a);
    assert_int_equal(r.rsp_id_o, 1);
    fg_block_free(t.b);
}

/* Reads every entry: registration state, head and in-flight count. */
static void snapshot(ekt_tb *t, uint64_t *heads, uint64_t *infl, uint64_t *reg) {
    *reg = out(t)->registered_o;
    for (unsigned i = 0; i < N_ENT; i++) {
        edge_ekt_out_t r = command(t, EKT_OP_READ, i, NULL);
        heads[i] = r.rsp_status_o == EKT_RSP_OK ? r.rsp_head_o : ~0ULL;
        infl[i] = r.rsp_inflight_o;
    }
}

static void test_register_invalid_and_full(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    for (unsigned i = 0; i < 5; i++) {
        reg_args a = warp_kernel(0x20000 + 0x100 * i, 16, 4, 2);
        command(&t, EKT_OP_REG, 0, &a);
    }
    ring(&t, 2); /* move one head so the snapshot is not all bases */
    settle(&t, 5);
    uint64_t h0[N_ENT], i0[N_ENT], r0, h1[N_ENT], i1[N_ENT], r1;
    snapshot(&t, h0, i0, &r0);
    reg_args bad[9];
    for (int i = 0; i < 9; i++) bad[i] = warp_kernel(0x30000, 16, 4, 2);
    bad[0].kptr = 0;            /* null kernel pointer */
    bad[1].kptr = 0x80001002;   /* misaligned kernel pointer */
    bad[2].size = 0;            /* zero entry size */
    bad[3].end = bad[3].base - 16; /* end below base */
    bad[4].maxev = 0;           /* no events allowed */
    bad[5].grid[1] = 0;         /* zero dimensions */
    bad[6].block[2] = 0;
    bad[7].grid[2] = 0;
    bad[8].block[0] = 0;
    for (int i = 0; i < 9; i++)
        assert_int_equal(command(&t, EKT_OP_REG, 0, &bad[i]).rsp_status_o, EKT_RSP_INVALID);
    snapshot(&t, h1, i1, &r1);
    assert_int_equal(r0, r1);
    assert_memory_equal(h0, h1, sizeof h0);
    assert_memory_equal(i0, i1, sizeof i0);
    /* fill the table, then one more is refused with nothing changed */
    for (unsigned i = 5; i < N_ENT; i++) {
        reg_args a = warp_kernel(0x40000 + 0x100 * i, 16, 4, 2);
        edge_ekt_out_t r = command(&t, EKT_OP_REG, 0, &a);
        assert_int_equal(r.rsp_status_o, EKT_RSP_OK);
        assert_int_equal(r.rsp_id_o, i);
    }
    snapshot(&t, h0, i0, &r0);
    assert_int_equal(r0, 0xffffffffULL);
    reg_args a = warp_kernel(0x90000, 16, 4, 2);
    assert_int_equal(command(&t, EKT_OP_REG, 0, &a).rsp_status_o, EKT_RSP_FULL);
    snapshot(&t, h1, i1, &r1);
    assert_int_equal(r0, r1);
    assert_memory_equal(h0, h1, sizeof h0);
    assert_memory_equal(i0, i1, sizeof i0);
    fg_block_free(t.b);
}

/* A registration whose maxNumEvents exceeds the entries of
 * its parameter buffer ((end - base) / size + 1, end being the last entry's
 * address) is refused with BUF_SHORT and nothing changed; the product
 * (maxNumEvents - 1) x size is compared without overflow. */
static void test_register_buffer_short(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    reg_args a = warp_kernel(0x30000, 0x40, 4, 4); /* 4 entries, 4 events: fits exactly */
    edge_ekt_out_t r = command(&t, EKT_OP_REG, 0, &a);
    assert_int_equal(r.rsp_status_o, EKT_RSP_OK);
    uint64_t h0[N_ENT], i0[N_ENT], r0, h1[N_ENT], i1[N_ENT], r1;
    snapshot(&t, h0, i0, &r0);
    reg_args bad[5];
    bad[0] = warp_kernel(0x40000, 0x40, 4, 5);      /* one event more than entries */
    bad[1] = warp_kernel(0x40000, 0x40, 1, 2);      /* a one-entry buffer, two events */
    bad[2] = warp_kernel(0x40000, 0x40, 4, 0xffff); /* the most events */
    bad[3] = warp_kernel(0x1000, 1ULL << 62, 2, 3); /* (3 - 1) x 2^62 overflows 64 bits */
    bad[4] = warp_kernel(0x1000, 1ULL << 48, 2, 0xffff);
    for (int i = 0; i < 5; i++) {
        r = command(&t, EKT_OP_REG, 0, &bad[i]);
        assert_int_equal(r.rsp_status_o, EKT_RSP_BUF_SHORT);
        assert_int_equal(r.rsp_id_o, 0);
        assert_int_equal(r.rsp_head_o, 0);
    }
    snapshot(&t, h1, i1, &r1);
    assert_int_equal(r0, r1);
    assert_int_equal(r1, 1);
    assert_memory_equal(h0, h1, sizeof h0);
    assert_memory_equal(i0, i1, sizeof i0);
    /* an end past the last whole entry: still 4 entries, 4 events fit, and
     * the head wraps after the 4th (the EKT does not check whole entries;
     * the driver does: sim/sys/sys.c) */
    a = warp_kernel(0x50000, 0x40, 4, 4);
    a.end += 0x3f;
    r = command(&t, EKT_OP_REG, 0, &a);
    assert_int_equal(r.rsp_status_o, EKT_RSP_OK);
    unsigned id = (unsigned)r.rsp_id_o;
    a.maxev = 5;
    assert_int_equal(command(&t, EKT_OP_REG, 0, &a).rsp_status_o, EKT_RSP_BUF_SHORT);
    for (int k = 0; k < 5; k++) {
        ring(&t, id);
        settle(&t, 4);
        assert_int_equal(t.last_evw.evw_param_addr_o, 0x50000 + 0x40 * (uint64_t)(k % 4));
        complete(&t, id);
    }
    /* a failed check outranks a short buffer, a full table too */
    bad[0].size = 0;
    assert_int_equal(command(&t, EKT_OP_REG, 0, &bad[0]).rsp_status_o, EKT_RSP_INVALID);
    for (unsigned i = 2; i < N_ENT; i++) {
        reg_args g = warp_kernel(0x60000 + 0x100 * i, 16, 4, 2);
        assert_int_equal(command(&t, EKT_OP_REG, 0, &g).rsp_status_o, EKT_RSP_OK);
    }
    assert_int_equal(command(&t, EKT_OP_REG, 0, &bad[1]).rsp_status_o, EKT_RSP_FULL);
    fg_block_free(t.b);
}

/* Exact command timing (a command is registered at the accepting
 * edge and carried out at the next; a REG's buffer check then has an edge of
 * its own): REG and READ answer three edges after they were accepted;
 * cmd_ready_o is low from the accepting edge until the response has been
 * taken. */
static void test_command_timing(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    reg_args a = warp_kernel(0x200000, 0x40, 4, 4);
    edge_ekt_in_t *in = &t.in;
    in->cmd_valid_i = 1;
    in->cmd_op_i = EKT_OP_REG;
    in->cmd_kernel_ptr_i = a.kptr;
    in->cmd_param_base_i = a.base;
    in->cmd_param_size_i = a.size;
    in->cmd_param_end_i = a.end;
    in->cmd_grid_x_i = in->cmd_grid_y_i = in->cmd_grid_z_i = 1;
    in->cmd_block_x_i = 32, in->cmd_block_y_i = in->cmd_block_z_i = 1;
    in->cmd_prio_i = 1;
    in->cmd_max_events_i = 4;
    assert_true(out(&t)->cmd_ready_o);
    cycle(&t); /* edge t: accepted */
    assert_false(out(&t)->cmd_ready_o);
    assert_false(out(&t)->rsp_valid_o);
    cycle(&t); /* edge t+1: carried out (table written, response loaded) */
    assert_false(out(&t)->rsp_valid_o);
    assert_int_equal(out(&t)->registered_o, 0);
    assert_false(out(&t)->cmd_ready_o);
    cycle(&t); /* edge t+2: the buffer check's result: the entry is valid */
    assert_true(out(&t)->rsp_valid_o);
    assert_int_equal(out(&t)->rsp_status_o, EKT_RSP_OK);
    assert_int_equal(out(&t)->rsp_head_o, 0x200000);
    assert_int_equal(out(&t)->registered_o, 1);
    assert_false(out(&t)->cmd_ready_o);
    in->rsp_ready_i = 1;
    cycle(&t);
    in->rsp_ready_i = 0;
    in->cmd_valid_i = 1;
    in->cmd_op_i = EKT_OP_READ;
    in->cmd_id_i = 0;
    assert_true(out(&t)->cmd_ready_o);
    cycle(&t); /* accepted */
    cycle(&t); /* carried out: the SRAM read */
    assert_false(out(&t)->rsp_valid_o);
    cycle(&t); /* the response */
    assert_true(out(&t)->rsp_valid_o);
    assert_int_equal(out(&t)->rsp_head_o, 0x200000);
    /* a ring right after the registration launches on the warp path: the
     * single-warp flag is there in time */
    in->rsp_ready_i = 1;
    cycle(&t);
    in->rsp_ready_i = 0;
    ring(&t, 0);
    settle(&t, 4);
    assert_int_equal(t.n_evw, 1);
    fg_block_free(t.b);
}

/* Launch: descriptor fields, head advance and wrap (Sec. III-C), exact timing. */
static void test_launch_and_wrap(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    reg_args a = warp_kernel(0x100000, 0x40, 3, 3); /* 3 parameter entries */
    a.prio = 2;
    unsigned id = (unsigned)command(&t, EKT_OP_REG, 0, &a).rsp_id_o;
    uint64_t expect[7] = {0x100000, 0x100040, 0x100080, 0x100000, 0x100040, 0x100080, 0x100000};
    for (int k = 0; k < 7; k++) {
        /* ring accepted at this edge; descriptor must be visible after 3 edges */
        t.in.ring_valid_i = 1;
        t.in.ring_id_i = id;
        t.hold_evw = true;
        assert_true(out(&t)->ring_ready_o);
        cycle(&t);
        assert_false(out(&t)->evw_valid_o);
        cycle(&t);
        assert_false(out(&t)->evw_valid_o);
        cycle(&t);
        assert_true(out(&t)->evw_valid_o);
        t.hold_evw = false;
        cycle(&t);
        assert_int_equal(t.last_evw.evw_param_addr_o, expect[k]);
        assert_int_equal(t.last_evw.evw_kernel_ptr_o, a.kptr);
        assert_int_equal(t.last_evw.evw_id_o, id);
        assert_int_equal(t.last_evw.evw_block_x_o, 32);
        assert_int_equal(t.last_evw.evw_grid_x_o, 1);
        assert_int_equal(t.last_evw.evw_prio_o, 2);
        complete(&t, id);
        settle(&t, 3);
    }
    assert_int_equal(out(&t)->cnt_launch_o, 7);
    assert_int_equal(t.n_pkq, 0);
    edge_ekt_out_t r = command(&t, EKT_OP_READ, id, NULL);
    assert_int_equal(r.rsp_head_o, 0x100040);
    assert_int_equal(r.rsp_inflight_o, 0);
    assert_int_equal(out(&t)->err_status_o, 0);
    fg_block_free(t.b);
}

/* Single-warp kernels go to the SIMT core scheduler, others to the pending queue. */
static void test_path_selection(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    struct {
        uint32_t grid[3], block[3];
        bool warp;
    } cases[] = {
        {{1, 1, 1}, {32, 1, 1}, true},  {{1, 1, 1}, {8, 4, 1}, true},  {{1, 1, 1}, {1, 1, 1}, true},
        {{1, 1, 1}, {2, 2, 8}, true},   {{1, 1, 1}, {33, 1, 1}, false}, {{1, 1, 1}, {8, 8, 1}, false},
        {{2, 1, 1}, {32, 1, 1}, false}, {{1, 1, 2}, {1, 1, 1}, false}, {{1, 1, 1}, {4096, 4096, 1}, false},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof *cases; i++) {
        reg_args a = warp_kernel(0x1000 * (i + 1), 16, 2, 2);
        for (int j = 0; j < 3; j++) {
            a.grid[j] = cases[i].grid[j];
            a.block[j] = cases[i].block[j];
        }
        unsigned id = (unsigned)command(&t, EKT_OP_REG, 0, &a).rsp_id_o;
        unsigned e = t.n_evw, p = t.n_pkq;
        ring(&t, id);
        settle(&t, 4);
        assert_int_equal(t.n_evw - e, cases[i].warp ? 1 : 0);
        assert_int_equal(t.n_pkq - p, cases[i].warp ? 0 : 1);
        if (!cases[i].warp) {
            assert_int_equal(t.last_pkq.pkq_grid_x_o, a.grid[0]);
            assert_int_equal(t.last_pkq.pkq_block_y_o, a.block[1]);
            assert_int_equal(t.last_pkq.pkq_param_addr_o, a.base);
        }
    }
    fg_block_free(t.b);
}

static void test_errors(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    reg_args a = warp_kernel(0x8000, 0x20, 4, 2); /* maxNumEvents = 2 */
    unsigned id = (unsigned)command(&t, EKT_OP_REG, 0, &a).rsp_id_o;
    /* ring of an unregistered doorbell: error, no launch */
    ring(&t, 7);
    settle(&t, 4);
    assert_int_equal(t.ring_errs[7], 1);
    assert_int_equal(t.n_evw + t.n_pkq, 0);
    assert_int_equal(out(&t)->cnt_err_unreg_o, 1);
    assert_int_equal(out(&t)->err_status_o & 1, 1);
    /* overrun: third ring with two events in flight */
    ring(&t, id);
    ring(&t, id);
    ring(&t, id);
    settle(&t, 6);
    assert_int_equal(t.launches[id], 2);
    assert_int_equal(t.overruns[id], 1);
    assert_int_equal(out(&t)->cnt_err_overrun_o, 1);
    edge_ekt_out_t r = command(&t, EKT_OP_READ, id, NULL);
    assert_int_equal(r.rsp_inflight_o, 2);
    assert_int_equal(r.rsp_head_o, 0x8040); /* the overrun did not move the head */
    /* unregister with events in flight is refused */
    assert_int_equal(command(&t, EKT_OP_UNREG, id, NULL).rsp_status_o, EKT_RSP_BUSY);
    /* a completion frees one; the next ring launches on the next entry */
    complete(&t, id);
    ring(&t, id);
    settle(&t, 5);
    assert_int_equal(t.launches[id], 3);
    assert_int_equal(t.last_evw.evw_param_addr_o, 0x8040);
    complete(&t, id);
    complete(&t, id);
    settle(&t, 3);
    /* spurious completion (nothing in flight) and completion of an unregistered id */
    complete(&t, id);
    settle(&t, 3);
    assert_int_equal(t.cpl_errs[id], 1);
    complete(&t, 9);
    settle(&t, 3);
    assert_int_equal(t.cpl_errs[9], 1);
    assert_int_equal(out(&t)->cnt_err_cpl_o, 2);
    assert_int_equal(out(&t)->err_status_o, 7);
    assert_int_equal(command(&t, EKT_OP_READ, id, NULL).rsp_inflight_o, 0);
    assert_int_equal(command(&t, EKT_OP_UNREG, id, NULL).rsp_status_o, EKT_RSP_OK);
    ring(&t, id);
    settle(&t, 4);
    assert_int_equal(t.ring_errs[id], 2); /* overrun + unregistered */
    fg_block_free(t.b);
}

/* Output back-pressure: rings queue, nothing is lost, order is kept. */
static void test_backpressure(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    reg_args a = warp_kernel(0x4000, 0x10, 16, 16);
    unsigned id = (unsigned)command(&t, EKT_OP_REG, 0, &a).rsp_id_o;
    t.hold_evw = true;
    unsigned accepted = 0;
    for (int c = 0; c < 60; c++) {
        t.in.ring_valid_i = 1;
        t.in.ring_id_i = id;
        if (out(&t)->ring_ready_o) accepted++;
        cycle(&t);
    }
    t.in.ring_valid_i = 0;
    /* OUT_DEPTH descriptors queued, one held in the FSM, one in the buffer */
    assert_int_equal(accepted, 4);
    assert_int_equal(t.n_evw, 0);
    t.hold_evw = false;
    uint64_t addr = 0x4000;
    for (unsigned k = 0; k < accepted; k++) {
        while (t.n_evw == k) cycle(&t);
        assert_int_equal(t.last_evw.evw_param_addr_o, addr);
        addr += 0x10;
    }
    settle(&t, 10);
    assert_int_equal(t.n_evw, accepted);
    fg_block_free(t.b);
}

/* The in-flight count through every bit (2^16 - 1 events
 * in flight, the most maxNumEvents allows, then all completed) and the three
 * 16-bit error counters at saturation, then a reset clears them. */
static void test_counters_saturate(void **state) {
    (void)state;
    ekt_tb t;
    tb_init(&t, NULL);
    const unsigned most = 0xffff;
    reg_args a = warp_kernel(0x1000, 4, most, most); /* 65535 entries of 4 B, as many events */
    edge_ekt_out_t r = command(&t, EKT_OP_REG, 0, &a);
    assert_int_equal(r.rsp_status_o, EKT_RSP_OK);
    unsigned id = (unsigned)r.rsp_id_o;
    for (unsigned k = 0; k < most; k++) ring(&t, id);
    settle(&t, 5);
    assert_int_equal(t.launches[id], most);
    assert_int_equal(t.last_evw.evw_param_addr_o, a.end);
    r = command(&t, EKT_OP_READ, id, NULL);
    assert_int_equal(r.rsp_inflight_o, most);
    assert_int_equal(r.rsp_head_o, a.base); /* wrapped once */
    ring(&t, id); /* one more: overrun */
    settle(&t, 5);
    assert_int_equal(t.overruns[id], 1);
    for (unsigned k = 0; k < most; k++) complete(&t, id);
    settle(&t, 3);
    assert_int_equal(command(&t, EKT_OP_READ, id, NULL).rsp_inflight_o, 0);
    /* the error counters up to saturation and one past */
    for (unsigned k = 0; k <= most; k++) ring(&t, 31);   /* unregistered */
    reg_args b = warp_kernel(0x900000, 4, 1, 1); /* one event at a time */
    unsigned one = (unsigned)command(&t, EKT_OP_REG, 0, &b).rsp_id_o;
    for (unsigned k = 0; k <= most + 1; k++) ring(&t, one); /* one launch, then overruns */
    for (unsigned k = 0; k <= most + 1; k++) complete(&t, 30); /* an unregistered entry */
    complete(&t, 1);
    settle(&t, 5);
    assert_int_equal(out(&t)->cnt_err_unreg_o, most);
    assert_int_equal(out(&t)->cnt_err_overrun_o, most);
    assert_int_equal(out(&t)->cnt_err_cpl_o, most);
    assert_int_equal(out(&t)->err_status_o, 7);
    assert_int_equal(out(&t)->cnt_launch_o, most + 1);
    fg_block_reset(t.b);
    assert_int_equal(out(&t)->cnt_err_unreg_o, 0);
    assert_int_equal(out(&t)->cnt_err_overrun_o, 0);
    assert_int_equal(out(&t)->cnt_err_cpl_o, 0);
    assert_int_equal(out(&t)->cnt_launch_o, 0);
    assert_int_equal(out(&t)->registered_o, 0);
    fg_block_free(t.b);
}

/* The scoreboard's totals (every accepted ring -> one launch or one error). */
static void conservation(ekt_tb *t, uint64_t *total, uint64_t *errs) {
    for (unsigned i = 0; i < N_ENT; i++) {
        assert_int_equal(t->rings[i], t->launches[i] + t->ring_errs[i]);
        *total += t->rings[i];
        *errs += t->ring_errs[i];
    }
}

static uint64_t wmask(unsigned w) { return w >= 64 ? ~0ULL : (1ULL << w) - 1; }

/* Full-width field values (every bit of every field, and of
 * the heads, in-flight counts and products made from them, driven both
 * ways), still mostly valid registrations so that they launch: a kernel
 * pointer, a parameter buffer anywhere in the address space (end not
 * beyond it) with an entry size of any width, grid and block dimensions of
 * any width (or those of a warp), a maxNumEvents of any width with a buffer
 * long enough for it.  *slots: the buffer's entries. */
static void wide_fields(fg_rng *r, const edge_ekt_params *p, reg_args *a, unsigned *slots) {
    uint64_t am = wmask(p->addr_w), dm = wmask(p->dim_w);
    a->kptr = fg_rng_next(r) & am & ~3ULL;
    if (!a->kptr) a->kptr = 4;
    if (fg_rng_chance(r, 1, 4)) { /* many small entries: maxNumEvents of any width */
        a->size = 1 + fg_rng_below(r, 16);
        a->maxev = 1 + (unsigned)fg_rng_below(r, wmask(p->maxev_w));
        *slots = a->maxev + (unsigned)fg_rng_below(r, 4);
    } else {
        a->size = fg_rng_next(r) & wmask(1 + (unsigned)fg_rng_below(r, p->psize_w));
        if (!a->size) a->size = 1;
        a->maxev = 1 + (unsigned)fg_rng_below(r, *slots);
    }
    unsigned __int128 span = (unsigned __int128)(*slots - 1) * a->size;
    if (span > am) { /* one entry */
        span = 0;
        *slots = 1;
        a->maxev = 1;
    }
    a->base = (am - (uint64_t)span) & fg_rng_next(r); /* end = base + span within the space */
    a->end = a->base + (uint64_t)span;
    if (fg_rng_chance(r, 1, 2)) { /* a warp-level kernel: grid 1 x 1 x 1, x * y * z <= a warp */
        uint32_t w = p->warp_threads;
        a->grid[0] = a->grid[1] = a->grid[2] = 1;
        a->block[0] = 1 + (uint32_t)fg_rng_below(r, w);
        a->block[1] = 1 + (uint32_t)fg_rng_below(r, w / a->block[0]);
        a->block[2] = 1 + (uint32_t)fg_rng_below(r, w / (a->block[0] * a->block[1]));
        return;
    }
    for (int i = 0; i < 3; i++) {
        if (fg_rng_chance(r, 1, 2)) a->grid[i] = (uint32_t)(fg_rng_next(r) & dm);
        if (fg_rng_chance(r, 1, 2)) a->block[i] = (uint32_t)(fg_rng_next(r) & dm);
        else if (fg_rng_chance(r, 1, 2)) a->block[i] = 1 + (uint32_t)fg_rng_below(r, p->warp_threads);
        if (!a->grid[i]) a->grid[i] = 1;
        if (!a->block[i]) a->block[i] = 1;
    }
}

/* Random lockstep with scoreboard, in the configuration p (entries <= N_ENT).
 * reset_every > 0: a mid-run reset (fg_block_reset: RTL and twin together)
 * with probability 1 / reset_every per cycle, the stimulus left as it was;
 * the scoreboard restarts from an empty table, the comparison continues. */
static void random_lockstep(const edge_ekt_params *p, const char *what, uint64_t n,
                            unsigned reset_every) {
    fg_rng r;
    fg_rng_seed(&r, tb_seed(what));
    ekt_tb t;
    memset(&t, 0, sizeof t);
    t.b = tb_block(&edge_ekt_class, p, NULL);
    assert_true(p->entries <= N_ENT);
    uint64_t maxev_mask = (1ULL << p->maxev_w) - 1, addr_mask = p->addr_w >= 64 ? ~0ULL : (1ULL << p->addr_w) - 1;
    reg_args regs[N_ENT];
    bool reg_ok[N_ENT] = {0};
    uint64_t head[N_ENT];
    unsigned pending_cpl[N_ENT] = {0}; /* launched, popped, not yet completed */
    bool rsp_seen = false;
    /* a bogus completion (of an unregistered id) until its error pulse: no
     * host command meanwhile, else a registration could make it real */
    int bogus = -1;
    uint64_t bogus_errs = 0;
    uint64_t resets = 0, shorts = 0, total = 0, errs = 0;
    /* functional coverage of the table's ends: a registration given id 0 and
     * ENTRIES - 1, one refused FULL, launches from both ends, a ring of the
     * first id beyond the table (when the port can carry it) refused */
    uint64_t b_reg0 = 0, b_regtop = 0, b_full = 0, b_launch0 = 0, b_launchtop = 0, b_beyond = 0;
    const unsigned E = p->entries, beyond_ok = E < N_ENT; /* N_ENT = 2^IDW of both configurations */
    for (uint64_t c = 0; c < n; c++) {
        /* a quarter of the run fills the table: mostly registrations, rings
         * and completions of every id, so that the last entry is used */
        const bool fill = (c >> 15) % 4 == 3;
        const edge_ekt_out_t *o = out(&t);
        edge_ekt_in_t *in = &t.in;
        if (reset_every && fg_rng_chance(&r, 1, reset_every)) {
            for (unsigned i = 0; i < N_ENT; i++) { /* a ring still buffered at the reset is lost */
                assert_true(t.rings[i] >= t.launches[i] + t.ring_errs[i]);
                assert_true(t.rings[i] <= t.launches[i] + t.ring_errs[i] + 2 + 2 * p->out_depth);
                total += t.rings[i];
                errs += t.ring_errs[i];
            }
            fg_block_reset(t.b);
            resets++;
            memset(t.rings, 0, sizeof t.rings);
            memset(t.launches, 0, sizeof t.launches);
            memset(t.ring_errs, 0, sizeof t.ring_errs);
            memset(reg_ok, 0, sizeof reg_ok);
            memset(pending_cpl, 0, sizeof pending_cpl);
            rsp_seen = false;
            t.cmd_taken = false;
            in->cmd_valid_i = 0;
            in->cpl_valid_i = 0;
            bogus = -1;
            o = out(&t);
            assert_int_equal(o->registered_o, 0);
            assert_int_equal(o->cnt_launch_o, 0);
            assert_false(o->evw_valid_o || o->pkq_valid_o || o->rsp_valid_o);
        }
        /* a ring or completion offered before a reset and accepted after
         * it counts from the accepting edge; a ring of a launch lost in the
         * reset is neither launched nor an error: forgotten above */
        /* new stimulus */
        t.hold_evw = fg_rng_chance(&r, 1, 4);
        t.hold_pkq = fg_rng_chance(&r, 1, 3);
        in->rsp_ready_i = fg_rng_chance(&r, 3, 4);
        /* observe response */
        if (o->rsp_valid_o && !rsp_seen) { /* the effect is live from this cycle */
            rsp_seen = true;
            if (in->cmd_op_i == EKT_OP_REG && o->rsp_status_o == EKT_RSP_BUF_SHORT) shorts++;
            if (in->cmd_op_i == EKT_OP_REG && o->rsp_status_o == EKT_RSP_FULL) b_full++;
            if (in->cmd_op_i == EKT_OP_REG && o->rsp_status_o == EKT_RSP_OK) {
                b_reg0 += o->rsp_id_o == 0;
                b_regtop += o->rsp_id_o == E - 1;
            }
            if (in->cmd_op_i == EKT_OP_REG && o->rsp_status_o == EKT_RSP_OK) {
                unsigned id = (unsigned)o->rsp_id_o;
                assert_false(reg_ok[id]);
                /* never more events in flight than parameter entries */
                uint64_t size = in->cmd_param_size_i, span = in->cmd_param_end_i - in->cmd_param_base_i;
                assert_true(in->cmd_max_events_i <= span / size + 1);
                reg_ok[id] = true;
                regs[id] = (reg_args){in->cmd_kernel_ptr_i, in->cmd_param_base_i, in->cmd_param_size_i,
                                      in->cmd_param_end_i, {0}, {0}, 0, 0, 0};
                head[id] = in->cmd_param_base_i;
            }
            if (in->cmd_op_i == EKT_OP_UNREG && o->rsp_status_o == EKT_RSP_OK) {
                assert_true(reg_ok[o->rsp_id_o]);
                assert_int_equal(pending_cpl[o->rsp_id_o], 0);
                reg_ok[o->rsp_id_o] = false;
            }
        }
        if (o->rsp_valid_o && in->rsp_ready_i) {
            rsp_seen = false;
            t.cmd_taken = false;
        }
        /* check each taken descriptor against the circular-buffer rule */
        for (int path = 0; path < 2; path++) {
            bool v = path ? o->pkq_valid_o : o->evw_valid_o;
            bool rdy = path ? !t.hold_pkq : !t.hold_evw;
            if (!(v && rdy)) continue;
            unsigned id = (unsigned)(path ? o->pkq_id_o : o->evw_id_o);
            uint64_t pa = path ? o->pkq_param_addr_o : o->evw_param_addr_o;
            assert_true(reg_ok[id]);
            b_launch0 += id == 0;
            b_launchtop += id == E - 1;
            assert_int_equal(pa, head[id]);
            /* head + size > end, without overflowing 64 bits (head <= end) */
            head[id] = regs[id].size > regs[id].end - head[id] ? regs[id].base : head[id] + regs[id].size;
            head[id] &= addr_mask;
            pending_cpl[id]++;
        }
        if (bogus >= 0 && t.cpl_errs[bogus] > bogus_errs) bogus = -1;
        if (bogus < 0 && !t.cmd_taken && !in->cmd_valid_i && fg_rng_chance(&r, 1, 40)) {
            unsigned op = fill && fg_rng_chance(&r, 4, 5) ? EKT_OP_REG : (unsigned)fg_rng_below(&r, 3);
            unsigned slots = 1 + (unsigned)fg_rng_below(&r, 6);
            reg_args a = warp_kernel(0x10000 * (1 + fg_rng_below(&r, 200)), 8 << fg_rng_below(&r, 4),
                                     slots, 1 + (unsigned)fg_rng_below(&r, slots));
            if (fg_rng_chance(&r, 1, 3)) a.block[1] = 1 + (uint32_t)fg_rng_below(&r, 4);
            if (fg_rng_chance(&r, 1, 3)) wide_fields(&r, p, &a, &slots);
            if (fg_rng_chance(&r, 1, 40)) a.kptr |= 1 + fg_rng_below(&r, 3); /* invalid: misaligned */
            if (fg_rng_chance(&r, 1, 10)) a.size = 0; /* invalid */
            /* a buffer shorter than maxNumEvents (refused, BUF_SHORT), or an
             * end that is not on an entry boundary (the wrap rule decides) */
            if (fg_rng_chance(&r, 1, 8)) a.maxev = slots + 1 + (unsigned)fg_rng_below(&r, 3);
            /* maxNumEvents of any width (the buffer check's products), mostly BUF_SHORT */
            if (fg_rng_chance(&r, 1, 8)) a.maxev = (unsigned)fg_rng_next(&r);
            if (fg_rng_chance(&r, 1, 8) && addr_mask - a.end >= a.size) a.end += fg_rng_below(&r, a.size ? a.size : 1);
            if (fg_rng_chance(&r, 1, 16)) { /* one entry larger than the rest of the address space */
                a.size = 1ULL << (20 + fg_rng_below(&r, 44));
                a.end = a.base;
                a.maxev = 1 + (unsigned)fg_rng_below(&r, 2);
            }
            a.maxev &= maxev_mask;
            in->cmd_valid_i = 1;
            in->cmd_op_i = op;
            in->cmd_id_i = fg_rng_below(&r, N_ENT); /* beyond entries: NOT_REGISTERED */
            in->cmd_kernel_ptr_i = a.kptr;
            in->cmd_param_base_i = a.base;
            in->cmd_param_size_i = a.size;
            in->cmd_param_end_i = a.end;
            in->cmd_grid_x_i = a.grid[0];
            in->cmd_grid_y_i = a.grid[1];
            in->cmd_grid_z_i = a.grid[2];
            in->cmd_block_x_i = a.block[0];
            in->cmd_block_y_i = a.block[1];
            in->cmd_block_z_i = a.block[2];
            in->cmd_max_events_i = a.maxev;
            in->cmd_prio_i = fg_rng_below(&r, 4);
            in->cmd_shmem_i = fg_rng_below(&r, 65536);
            /* the port widths of the configuration (the verilated model
             * takes the bits beyond a port's width as they come) */
            in->cmd_kernel_ptr_i &= addr_mask;
            in->cmd_param_base_i &= addr_mask;
            in->cmd_param_end_i &= addr_mask;
            in->cmd_param_size_i &= p->psize_w >= 64 ? ~0ULL : (1ULL << p->psize_w) - 1;
        }
        if (!in->ring_valid_i && fg_rng_chance(&r, 1, 3)) {
            in->ring_valid_i = 1;
            in->ring_id_i = !fill && fg_rng_chance(&r, 9, 10) ? fg_rng_below(&r, 8) : fg_rng_below(&r, N_ENT);
        }
        if (!in->cpl_valid_i && fg_rng_chance(&r, 1, 4)) {
            unsigned id = (unsigned)fg_rng_below(&r, fill ? E : 8);
            if (pending_cpl[id]) {
                pending_cpl[id]--;
                in->cpl_valid_i = 1;
                in->cpl_id_i = id;
            } else if (!reg_ok[id] && !t.cmd_taken && !in->cmd_valid_i && fg_rng_chance(&r, 1, 20)) {
                bogus = (int)id;
                bogus_errs = t.cpl_errs[id];
                in->cpl_valid_i = 1; /* bogus completion of an unregistered id */
                in->cpl_id_i = id;
            }
        }
        cycle(&t);
    }
    /* drain and check conservation: every accepted ring -> one launch or one error */
    t.in.ring_valid_i = 0;
    t.in.cmd_valid_i = 0;
    t.hold_evw = t.hold_pkq = false;
    t.in.rsp_ready_i = 1;
    settle(&t, 50);
    conservation(&t, &total, &errs);
    for (unsigned i = E; i < N_ENT; i++) b_beyond += t.ring_errs[i];
    printf("# %s: %llu rings: %u warp launches, %u queue launches, %llu errors (unregistered/overrun), "
           "%llu registrations refused BUF_SHORT, %llu resets\n", what,
           (unsigned long long)total, t.n_evw, t.n_pkq, (unsigned long long)errs,
           (unsigned long long)shorts, (unsigned long long)resets);
    printf("# %s: boundary bins (registered at id 0 / %u, refused FULL, launched from id 0 / %u, rings "
           "of ids %u.. refused): %llu %llu %llu %llu %llu %llu%s\n", what, E - 1, E - 1, E,
           (unsigned long long)b_reg0, (unsigned long long)b_regtop, (unsigned long long)b_full,
           (unsigned long long)b_launch0, (unsigned long long)b_launchtop, (unsigned long long)b_beyond,
           beyond_ok ? "" : " (no id beyond the table fits the port)");
    if (n >= 200000 && !reset_every)
        assert_true(b_reg0 && b_regtop && b_full && b_launch0 && b_launchtop && (!beyond_ok || b_beyond));
    if (n >= 100000) { /* long runs must have exercised every outcome */
        assert_true(t.n_evw > n / 1000 && t.n_pkq > n / 1000 && shorts > 0);
        if (!reset_every) assert_true(out(&t)->cnt_err_overrun_o > 0 && out(&t)->cnt_err_unreg_o > 0);
        else assert_true(resets > 0);
    }
    fg_block_free(t.b);
}

static void test_random_lockstep(void **state) {
    (void)state;
    edge_ekt_params p;
    edge_ekt_params_default(&p);
    random_lockstep(&p, "edge_ekt random lockstep", tb_cycles(1000000), 0);
}

/* The second verilated configuration (rtl/edge/edge_ekt.toml
 * edge_ekt_CONFIGS: 24 entries, narrower fields, deeper output FIFOs) */
static void test_random_lockstep_e24(void **state) {
    (void)state;
    edge_ekt_params p;
    edge_ekt_params_default(&p);
    p.entries = 24, p.addr_w = 48, p.psize_w = 24, p.maxev_w = 12, p.out_depth = 3;
    random_lockstep(&p, "edge_ekt random lockstep (24 entries)", tb_cycles(1000000) / 4, 0);
}

/* Resets at random cycles in the middle of the random run */
static void test_random_lockstep_reset(void **state) {
    (void)state;
    edge_ekt_params p;
    edge_ekt_params_default(&p);
    random_lockstep(&p, "edge_ekt random lockstep with resets", tb_cycles(1000000) / 4, 5000);
    edge_ekt_params_default(&p);
    p.entries = 24, p.addr_w = 48, p.psize_w = 24, p.maxev_w = 12, p.out_depth = 3;
    random_lockstep(&p, "edge_ekt random lockstep with resets (24 entries)", tb_cycles(1000000) / 8, 3000);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_read_unregister),
        cmocka_unit_test(test_register_invalid_and_full),
        cmocka_unit_test(test_register_buffer_short),
        cmocka_unit_test(test_command_timing),
        cmocka_unit_test(test_launch_and_wrap),
        cmocka_unit_test(test_path_selection),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_backpressure),
        cmocka_unit_test(test_counters_saturate),
        cmocka_unit_test(test_random_lockstep),
        cmocka_unit_test(test_random_lockstep_e24),
        cmocka_unit_test(test_random_lockstep_reset),
    };
    return tb_run_tests("edge_ekt", tests);
}
