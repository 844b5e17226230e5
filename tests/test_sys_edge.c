/* EDGE front-end glue (sim/sys/edge_frontend.c) over the doorbell decoder
 * and EKT blocks (lockstep by default, FG_IMPL overrides): registration,
 * doorbell -> descriptor with the circular parameter head, dispatch delay,
 * completion, and that every error pulse reaches the error callback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_tb.h"
#include "sys/edge_frontend.h"

typedef struct {
    edge_fe_event ev[64];
    unsigned nev;
    char errs[8][256];
    uint64_t err_keys[8];
    unsigned nerr;
} sink;

static void on_launch(void *u, const edge_fe_event *e) {
    sink *s = u;
    if (s->nev < 64) s->ev[s->nev++] = *e;
}
static void on_error(void *u, const char *msg, uint64_t key, uint64_t cycle) {
    sink *s = u;
    (void)cycle;
    if (s->nerr < 8) {
        snprintf(s->errs[s->nerr], 256, "%s", msg);
        s->err_keys[s->nerr] = key;
    }
    s->nerr++;
}

static edge_fe *make(sink *s, edge_fe_params *p) {
    char err[256];
    edge_fe_params_default(p);
    const char *impl = getenv("FG_IMPL");
    p->impl = FG_IMPL_LOCKSTEP;
    if (impl) assert_int_equal(fg_impl_parse(impl, &p->impl), 0);
    p->dispatch_cycles = 300;
    edge_fe_callbacks cb = {on_launch, on_error, NULL, s};
    edge_fe *f = edge_fe_new(p, &cb, err, sizeof err);
    if (!f) fail_msg("%s", err);
    return f;
}

static void run(edge_fe *f, unsigned n) {
    char err[256];
    for (unsigned i = 0; i < n; i++)
        if (edge_fe_step(f, err, sizeof err)) fail_msg("%s", err);
}

static edge_fe_rsp cmd(edge_fe *f, const edge_fe_cmd *c) {
    edge_fe_rsp r;
    assert_int_equal(edge_fe_command(f, c), 0);
    for (unsigned i = 0; i < 50; i++) {
        run(f, 1);
        if (edge_fe_response(f, &r)) return r;
    }
    fail_msg("no response to command op %u", c->op);
    return r;
}

/* Registration of a single-warp kernel with a 4-entry parameter buffer. */
static const uint64_t base = 0x100000, size = 32;
static edge_fe_cmd warp_reg(uint32_t max_events) {
    return (edge_fe_cmd){EKT_OP_REG, 0, 0x2000, base, size, base + 3 * size, {1, 1, 1}, {32, 1, 1},
                         0, 1, max_events};
}

static void test_fe_launch(void **state) {
    (void)state;
    sink s = {0};
    edge_fe_params p;
    edge_fe *f = make(&s, &p);
    edge_fe_cmd reg = warp_reg(4);
    edge_fe_rsp r = cmd(f, &reg);
    assert_int_equal(r.status, EKT_RSP_OK);
    assert_int_equal(r.head, base);
    unsigned id = r.id;
    /* five events with completions in between: heads wrap after four */
    for (unsigned k = 0; k < 5; k++) {
        uint64_t c0 = edge_fe_cycle(f);
        assert_int_equal(edge_fe_write(f, edge_fe_doorbell_addr(f, id), 1, 100 + k), 0);
        run(f, 400);
        assert_int_equal(s.nev, k + 1);
        const edge_fe_event *e = &s.ev[k];
        assert_int_equal(e->key, 100 + k);
        assert_true(e->single);
        assert_int_equal(e->id, id);
        assert_int_equal(e->kernel_ptr, 0x2000);
        assert_int_equal(e->param_addr, base + (k % 4) * size);
        assert_int_equal(e->block[0], 32);
        assert_int_equal(e->c_write, c0);
        assert_int_equal(e->c_dispatch, e->c_desc + 1 + 300);
        unsigned fe = (unsigned)(e->c_desc - e->c_write + 1);
        print_message("# event %u: front-end %u cycles (doorbell write -> descriptor)\n", k, fe);
        assert_true(fe >= 2 && fe <= 16);
        assert_int_equal(edge_fe_complete(f, id), 0);
        run(f, 10);
    }
    assert_int_equal(s.nerr, 0);
    assert_true(edge_fe_idle(f));
    edge_fe_stats st;
    edge_fe_get_stats(f, &st);
    assert_int_equal(st.ekt_launches, 5);
    assert_int_equal(st.db_rings, 5);
    /* unregister */
    edge_fe_cmd un = {.op = EKT_OP_UNREG, .id = id};
    assert_int_equal(cmd(f, &un).status, EKT_RSP_OK);
    edge_fe_free(f);
}

/* A parameter buffer with fewer entries than maxNumEvents
 * is refused by the EKT (status BUF_SHORT in the response), one that is not
 * a whole number of entries by the driver (edge_fe_command, error callback). */
static void test_fe_register_buffer(void **state) {
    (void)state;
    sink s = {0};
    edge_fe_params p;
    edge_fe *f = make(&s, &p);
    edge_fe_cmd reg = warp_reg(4);
    reg.param_end += 8; /* not on an entry boundary */
    assert_int_equal(edge_fe_command(f, &reg), -1);
    assert_int_equal(s.nerr, 1);
    assert_non_null(strstr(s.errs[0], "whole number"));
    reg = warp_reg(5); /* a 4-entry buffer for 5 events */
    assert_int_equal(cmd(f, &reg).status, EKT_RSP_BUF_SHORT);
    reg = warp_reg(4);
    assert_int_equal(cmd(f, &reg).status, EKT_RSP_OK);
    assert_int_equal(s.nerr, 1);
    edge_fe_free(f);
}

static void test_fe_errors(void **state) {
    (void)state;
    sink s = {0};
    edge_fe_params p;
    edge_fe *f = make(&s, &p);
    edge_fe_cmd reg = {EKT_OP_REG, 0, 0x2000, 0x1000, 16, 0x1010, {1, 1, 1}, {32, 1, 1}, 0, 1, 2};
    edge_fe_rsp r = cmd(f, &reg);
    assert_int_equal(r.status, EKT_RSP_OK);
    /* three rings with maxNumEvents 2 and no completion: one overrun */
    for (unsigned k = 0; k < 3; k++) edge_fe_write(f, edge_fe_doorbell_addr(f, r.id), 1, 7 + k);
    run(f, 400);
    assert_int_equal(s.nev, 2);
    assert_int_equal(s.nerr, 1);
    assert_non_null(strstr(s.errs[0], "overrun"));
    assert_int_equal(s.err_keys[0], 9);
    /* unregister while busy */
    edge_fe_cmd un = {.op = EKT_OP_UNREG, .id = r.id};
    assert_int_equal(cmd(f, &un).status, EKT_RSP_BUSY);
    /* ring of an unregistered entry, misaligned doorbell write */
    edge_fe_write(f, edge_fe_doorbell_addr(f, 5), 1, 20);
    edge_fe_write(f, edge_fe_doorbell_addr(f, 0) + 1, 1, 21);
    run(f, 50);
    assert_int_equal(s.nerr, 3);
    int unreg = strstr(s.errs[1], "unregistered") || strstr(s.errs[2], "unregistered");
    int align = strstr(s.errs[1], "ALIGN") || strstr(s.errs[2], "ALIGN");
    assert_true(unreg && align);
    /* spurious completion of an entry with nothing in flight after draining */
    edge_fe_complete(f, r.id);
    edge_fe_complete(f, r.id);
    edge_fe_complete(f, r.id);
    run(f, 50);
    assert_int_equal(s.nerr, 4);
    assert_non_null(strstr(s.errs[3], "spurious"));
    edge_fe_stats st;
    edge_fe_get_stats(f, &st);
    assert_int_equal(st.errors, 4);
    assert_int_equal(st.ekt_err_overrun + st.ekt_err_unreg + st.ekt_err_cpl + st.db_err_align, 4);
    assert_int_equal(cmd(f, &un).status, EKT_RSP_OK);
    edge_fe_free(f);
}

int main(void) {
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_fe_launch),
                                       cmocka_unit_test(test_fe_register_buffer),
                                       cmocka_unit_test(test_fe_errors)};
    return cmocka_run_group_tests_name("sys_edge", tests, NULL, NULL);
}
