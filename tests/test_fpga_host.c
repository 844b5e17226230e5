/* The host library against the FPGA top: run by
 * scripts/test_fpga_top.sh with FG_FPGA=tcp:127.0.0.1:PORT pointing at
 * build/bin/fpga_sim (or, by hand, at a board: FG_FPGA=/dev/ttyUSB0).
 *
 * Every operation is done twice: on the FPGA through fg_host / fg_hw, and
 * on a reference made of the blocks' C twins wired as the top wires them
 * (doorbell aperture FIFO -> doorbell decoder -> EKT; PEWT <-> preemption
 * controller with LINK; held valids, one-cycle pulses, capture FIFOs as the
 * generated register wrappers implement them).  After each operation every
 * register of the window (each block output, each stimulus register read
 * back, CTRL) and every capture FIFO entry is compared with the reference;
 * only values that count cycles (the F/E blocked-cycle counters; the CM
 * monitor outside its steady state) are left out. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cm_bal_monitor.h"
#include "edge_doorbell.h"
#include "edge_ekt.h"
#include "edge_pewt.h"
#include "edge_preempt.h"
#include "fe_sched_queues.h"
#include "fg_prims.h"
#include "fg_host.h"
#include "fg_hw.h"

static fg_host *H;
static unsigned long n_regs_checked, n_caps_checked; /* what the comparisons covered */

/* ------------------------------------------------------------ reference */
#define NC ((int)FG_NCORES)
#define CAPN 64

typedef struct {
    uint64_t f[4][CAPN];
    unsigned n, depth;
    uint32_t events, drops; /* drops: entries lost to a full FIFO (16-bit saturating, STAT[31:16]) */
} cap_list;

static void cap_push(cap_list *c, uint64_t a, uint64_t b, uint64_t d, uint64_t e) {
    c->events++;
    if (c->n == c->depth) { /* full: the wrapper drops (and counts) it too */
        if (c->drops < 0xffff) c->drops++;
        return;
    }
    c->f[0][c->n] = a;
    c->f[1][c->n] = b;
    c->f[2][c->n] = d;
    c->f[3][c->n] = e;
    c->n++;
}

typedef struct {
    fg_block *db, *ekt, *fe, *cm, *pewt[NC], *pre[NC];
    /* what the host wrote: the twins' input structs hold the register values */
    edge_doorbell_in_t db_r;
    edge_ekt_in_t ekt_r;
    fe_sched_queues_in_t fe_r;
    cm_bal_monitor_in_t cm_r;
    edge_pewt_in_t pewt_r[NC];
    edge_preempt_in_t pre_r[NC];
    uint64_t ap_base;
    uint64_t link[NC];
    /* the core slice's LINK request register and the PEWT's start / exit
     * registers (fpga/fg_core_slice.sv) */
    uint64_t lreq_v[NC], lreq_regs[NC], st_v[NC], st_slot[NC], ex_v[NC], ex_slot[NC];
    /* the controller slice's lag registers (fpga/regmap.py PRE_VSTAT): the
     * w_live / w_exit / w_bar / w_ld the block takes in the next cycle */
    uint64_t pre_wlive[NC], pre_wexit[NC], pre_wbar[NC], pre_wld[NC];
    /* held valids */
    int ekt_cmd_v, ekt_cpl_v, fe_req_v, fe_init_v, pewt_ev_v[NC];
    /* strobes for the next cycle */
    uint32_t db_stb, ekt_stb, fe_stb, cm_stb, pewt_stb[NC], pre_stb[NC];
    /* doorbell aperture FIFO */
    uint64_t ap_addr[4];
    uint32_t ap_data[4];
    unsigned ap_n, ap_drops;
    /* capture FIFOs */
    cap_list db_err, ekt_err, pewt_cpl[NC], pewt_err[NC], pre_cmd[NC], pre_err[NC];
    uint32_t cm_intervals;
    fe_sched_queues_params fe_p;
} ref_t;

static ref_t R;
/* the top's ring link from the doorbell to the EKT (fpga/finegrain_ulx3s.sv
 * u_ring_link): outside R, whose reset clears it with memset */
static fg_fifo_c ring_link;

static void set_port(const fg_port *ports, unsigned n, void *s, const char *name, uint64_t v) {
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(ports[i].name, name)) {
            ((uint64_t *)s)[i] = v;
            return;
        }
    fail_msg("no port %s", name);
}

static int has_port(const fg_port *ports, unsigned n, const char *name) {
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(ports[i].name, name)) return 1;
    return 0;
}

/* One register window: its generated register table, its twin and its
 * reference register struct. */
typedef struct {
    const char *name;
    uint32_t base;
    const fg_reg_desc *regs;
    unsigned nregs, nwords;
    const fg_block_class *cls;
    fg_block **blk;
    void *r;
    const char *const *skip; /* outputs not compared (they count cycles) */
    int core;
} win_t;

/* Stream fields are don't-care while their valid is 0 (stale storage, not
 * reset: fg_fifo / table contents): {prefix, valid port}. */
static const char *const qualified[][2] = {
    {"pt_", "pt_valid_o"},   {"ring_id_o", "ring_valid_o"}, {"evw_", "evw_valid_o"},
    {"pkq_", "pkq_valid_o"}, {"rsp_", "rsp_valid_o"},       {"out_", "out_valid_o"},
    {"nack_", "nack_valid_o"}, {"hd_", "hd_valid_o"}};

static int dont_care(const fg_block_class *cls, const void *out, const char *name) {
    for (size_t i = 0; i < sizeof qualified / sizeof *qualified; i++) {
        const char *pfx = qualified[i][0], *v = qualified[i][1];
        if (strncmp(name, pfx, strlen(pfx)) || !strcmp(name, v) || !has_port(cls->out_ports, cls->n_out, v))
            continue;
        if (!fg_port_get(cls->out_ports, cls->n_out, out, v)) return 1;
    }
    return 0;
}

static const char *const fe_skip[] = {"stall_nt_o", "stall_cpu_o", "stall_gpu_o", NULL};
static const char *const none_skip[] = {NULL};

static win_t W_DB, W_EKT, W_FE, W_CM, W_PEWT[NC], W_PRE[NC];

static void win_init(win_t *w, const char *name, uint32_t base, const fg_reg_desc *regs, unsigned nregs,
                     unsigned nwords, const fg_block_class *cls, fg_block **blk, void *r,
                     const char *const *skip, int core) {
    *w = (win_t){name, base, regs, nregs, nwords, cls, blk, r, skip, core};
}

static uint64_t *aux_ref(const win_t *w, const char *name) {
    if (w == &W_DB && !strcmp(name, "ap_base")) return &R.ap_base;
    if (w->cls == &edge_preempt_class && !strcmp(name, "link")) return &R.link[w->core];
    return NULL;
}

static void ref_reset(void) {
    char err[256];
    edge_doorbell_params dbp;
    edge_doorbell_params_default(&dbp);
    edge_ekt_params ekp;
    edge_ekt_params_default(&ekp);
    edge_pewt_params pwp;
    edge_pewt_params_default(&pwp);
    edge_preempt_params prp = {FG_P_PRE_NW, FG_P_PRE_SLOT_W, FG_P_PRE_REGS_W, FG_P_PRE_CYC_W, 1, 1};
    assert_int_equal(FG_PRE_CORE_NW(0), FG_P_PRE_NW); /* core 0 replays the traces */
    cm_bal_monitor_params cmp = cm_bal_monitor_defaults(FG_P_CM_P, FG_P_CM_C);
    /* the FPGA's F/E parameters (fpga/regmap.py P_FE: the memory system's) */
#define FE_P_FIELD(f, K) R.fe_p.f = FG_P_FE_##K;
    FE_SCHED_QUEUES_PARAMS(FE_P_FIELD)
#undef FE_P_FIELD
    static int made;
    if (!made) {
        R.db = fg_block_new(&edge_doorbell_class, FG_IMPL_C, &dbp, err, sizeof err);
        R.ekt = fg_block_new(&edge_ekt_class, FG_IMPL_C, &ekp, err, sizeof err);
        R.fe = fg_block_new(&fe_sched_queues_class, FG_IMPL_C, &R.fe_p, err, sizeof err);
        R.cm = fg_block_new(&cm_bal_monitor_class, FG_IMPL_C, &cmp, err, sizeof err);
        assert_non_null(R.db);
        assert_non_null(R.ekt);
        assert_non_null(R.fe);
        assert_non_null(R.cm);
        for (int c = 0; c < NC; c++) {
            R.pewt[c] = fg_block_new(&edge_pewt_class, FG_IMPL_C, &pwp, err, sizeof err);
            /* each core's controller with its own slots (fpga/regmap.py PRE_CORE_NW) */
            prp.nw = FG_PRE_CORE_NW(c);
            prp.slot_w = 0;
            while ((1u << prp.slot_w) < prp.nw) prp.slot_w++;
            R.pre[c] = fg_block_new(&edge_preempt_class, FG_IMPL_C, &prp, err, sizeof err);
            assert_non_null(R.pewt[c]);
            assert_non_null(R.pre[c]);
        }
        made = 1;
        win_init(&W_DB, "doorbell", FG_WIN_DB, fgr_edge_doorbell_regs, FGR_DB_NREGS, FGR_DB_NWORDS,
                 &edge_doorbell_class, &R.db, &R.db_r, none_skip, 0);
        win_init(&W_EKT, "ekt", FG_WIN_EKT, fgr_edge_ekt_regs, FGR_EKT_NREGS, FGR_EKT_NWORDS, &edge_ekt_class,
                 &R.ekt, &R.ekt_r, none_skip, 0);
        win_init(&W_FE, "fe", FG_WIN_FE, fgr_fe_sched_queues_regs, FGR_FE_NREGS, FGR_FE_NWORDS,
                 &fe_sched_queues_class, &R.fe, &R.fe_r, fe_skip, 0);
        win_init(&W_CM, "cm", FG_WIN_CM, fgr_cm_bal_monitor_regs, FGR_CM_NREGS, FGR_CM_NWORDS,
                 &cm_bal_monitor_class, &R.cm, &R.cm_r, none_skip, 0);
        for (int c = 0; c < NC; c++) {
            win_init(&W_PEWT[c], "pewt", FG_WIN_PEWT(c), fgr_edge_pewt_regs, FGR_PEWT_NREGS, FGR_PEWT_NWORDS,
                     &edge_pewt_class, &R.pewt[c], &R.pewt_r[c], none_skip, c);
            win_init(&W_PRE[c], "pre", FG_WIN_PRE(c), fgr_edge_preempt_regs, FGR_PRE_NREGS, FGR_PRE_NWORDS,
                     &edge_preempt_class, &R.pre[c], &R.pre_r[c], none_skip, c);
        }
    }
    fg_block *keep[4 + 2 * NC] = {R.db, R.ekt, R.fe, R.cm};
    for (int c = 0; c < NC; c++) {
        keep[4 + c] = R.pewt[c];
        keep[4 + NC + c] = R.pre[c];
    }
    fe_sched_queues_params fe_p = R.fe_p;
    memset(&R, 0, sizeof R);
    R.fe_p = fe_p;
    R.db = keep[0];
    R.ekt = keep[1];
    R.fe = keep[2];
    R.cm = keep[3];
    for (int c = 0; c < NC; c++) {
        R.pewt[c] = keep[4 + c];
        R.pre[c] = keep[4 + NC + c];
    }
    for (unsigned i = 0; i < 4 + 2 * NC; i++) fg_block_reset(keep[i]);
    if (!ring_link.depth) assert_int_equal(fg_fifo_c_init(&ring_link, sizeof(uint64_t), 2), 0);
    fg_fifo_c_reset(&ring_link);
    R.db_err.depth = R.ekt_err.depth = 8; /* capture FIFO depths (fpga/regmap.py) */
    for (int c = 0; c < NC; c++) {
        R.pewt_cpl[c].depth = R.pewt_err[c].depth = R.pre_err[c].depth = 8;
        R.pre_cmd[c].depth = 16;
    }
    /* register reset values from the generated tables */
    win_t *ws[4 + 2 * NC] = {&W_DB, &W_EKT, &W_FE, &W_CM};
    for (int c = 0; c < NC; c++) {
        ws[4 + c] = &W_PEWT[c];
        ws[4 + NC + c] = &W_PRE[c];
    }
    for (unsigned k = 0; k < 4 + 2 * NC; k++) {
        win_t *w = ws[k];
        for (unsigned i = 0; i < w->nregs; i++) {
            if (w->regs[i].acc != 'w') continue;
            uint64_t *a = aux_ref(w, w->regs[i].name);
            if (a) *a = w->regs[i].rst;
            else set_port(w->cls->in_ports, w->cls->n_in, w->r, w->regs[i].name, w->regs[i].rst);
        }
    }
    /* the F/E block clears its store after reset (docs/FE_SCHED.md: one line
     * per cycle, idle meanwhile), long done on the FPGA before the host reads */
    fe_sched_queues_in_t fi = R.fe_r;
    fi.req_valid_i = fi.init_valid_i = 0;
    for (unsigned i = 0; !((const fe_sched_queues_out_t *)fg_block_out(R.fe))->init_ready_o; i++) {
        assert_true(i <= R.fe_p.region_lines);
        assert_int_equal(fg_block_step(R.fe, &fi), 0);
    }
}

static void ref_step(void) {
    edge_doorbell_out_t dbo = *(const edge_doorbell_out_t *)fg_block_out(R.db);
    edge_ekt_out_t eko = *(const edge_ekt_out_t *)fg_block_out(R.ekt);
    fe_sched_queues_out_t feo = *(const fe_sched_queues_out_t *)fg_block_out(R.fe);
    edge_pewt_out_t pwo[NC];
    edge_preempt_out_t pro[NC];
    for (int c = 0; c < NC; c++) {
        pwo[c] = *(const edge_pewt_out_t *)fg_block_out(R.pewt[c]);
        pro[c] = *(const edge_preempt_out_t *)fg_block_out(R.pre[c]);
    }
    /* doorbell: aperture FIFO head, EKT ring ready */
    edge_doorbell_in_t di = R.db_r;
    di.wr_valid_i = R.ap_n > 0;
    di.wr_addr_i = R.ap_n ? R.ap_addr[0] : 0;
    di.wr_data_i = R.ap_n ? R.ap_data[0] : 0;
    di.pt_ready_i = !!(R.db_stb & FGR_DB_CTRL_PT_READY);
    di.ring_ready_i = fg_fifo_c_ready(&ring_link);
    /* EKT: rings from the doorbell through the ring link */
    edge_ekt_in_t ei = R.ekt_r;
    ei.cmd_valid_i = (uint64_t)R.ekt_cmd_v;
    ei.cpl_valid_i = (uint64_t)R.ekt_cpl_v;
    ei.rsp_ready_i = !!(R.ekt_stb & FGR_EKT_CTRL_RSP_READY);
    ei.evw_ready_i = !!(R.ekt_stb & FGR_EKT_CTRL_EVW_READY);
    ei.pkq_ready_i = !!(R.ekt_stb & FGR_EKT_CTRL_PKQ_READY);
    ei.ring_valid_i = fg_fifo_c_valid(&ring_link);
    ei.ring_id_i = *(const uint64_t *)fg_fifo_c_head(&ring_link);
    int rl_push = dbo.ring_valid_o && fg_fifo_c_ready(&ring_link);
    int rl_pop = fg_fifo_c_valid(&ring_link) && eko.ring_ready_o;
    /* F/E */
    fe_sched_queues_in_t fi = R.fe_r;
    fi.req_valid_i = (uint64_t)R.fe_req_v;
    fi.init_valid_i = (uint64_t)R.fe_init_v;
    fi.out_ready_i = !!(R.fe_stb & FGR_FE_CTRL_OUT_READY);
    fi.nack_ready_i = !!(R.fe_stb & FGR_FE_CTRL_NACK_READY);
    unsigned q = fe_sched_queue_of(&R.fe_p, &fi, NULL, NULL);
    int fe_acc = R.fe_req_v && ((feo.req_ready_o >> q) & 1);
    int fe_init_acc = R.fe_init_v && feo.init_ready_o;
    /* CM */
    cm_bal_monitor_in_t ci = R.cm_r;
    ci.kstart_i = (R.cm_stb & FGR_CM_CTRL_KSTART) ? R.cm_r.kstart_i : 0;
    ci.kend_i = (R.cm_stb & FGR_CM_CTRL_KEND) ? R.cm_r.kend_i : 0;
    /* cores */
    edge_pewt_in_t pi[NC];
    edge_preempt_in_t qi[NC];
    for (int c = 0; c < NC; c++) {
        uint32_t ps = R.pewt_stb[c], qs = R.pre_stb[c];
        int lk = (int)R.link[c];
        pi[c] = R.pewt_r[c];
        pi[c].ev_valid_i = (uint64_t)R.pewt_ev_v[c];
        pi[c].start_valid_i = R.st_v[c], pi[c].start_slot_i = R.st_slot[c];
        pi[c].exit_valid_i = R.ex_v[c], pi[c].exit_slot_i = R.ex_slot[c];
        R.st_v[c] = lk ? pro[c].cmd_o == PRE_CMD_START : !!(ps & FGR_PEWT_CTRL_START_VALID);
        R.st_slot[c] = lk ? pro[c].cmd_slot_o : R.pewt_r[c].start_slot_i;
        R.ex_v[c] = lk ? !!(qs & FGR_PRE_CTRL_EV_EXIT) : !!(ps & FGR_PEWT_CTRL_EXIT_VALID);
        R.ex_slot[c] = lk ? R.pre_r[c].ev_exit_slot_i : R.pewt_r[c].exit_slot_i;
        qi[c] = R.pre_r[c];
        qi[c].req_valid_i = lk ? R.lreq_v[c] : !!(qs & FGR_PRE_CTRL_REQ_VALID);
        qi[c].req_regs_i = lk ? R.lreq_regs[c] : R.pre_r[c].req_regs_i;
        qi[c].w_alloc_i = (qs & FGR_PRE_CTRL_W_ALLOC) ? R.pre_r[c].w_alloc_i : 0;
        qi[c].w_exit_i = (qs & FGR_PRE_CTRL_W_EXIT) ? R.pre_r[c].w_exit_i : 0;
        qi[c].ev_exit_i = !!(qs & FGR_PRE_CTRL_EV_EXIT);
        /* the slice's glue (fgs_edge_preempt): the block takes the four vectors
         * a cycle after the window's registers, and v_* / p_* are the bits of
         * the warp in slot victim_o in what it takes (registered a cycle ahead
         * in the RTL: v_* slot victim_o's, p_* the group winner's that
         * pick_grp_o names; both equal these where the block reads them) */
        uint64_t wl = qi[c].w_live_i, wx = qi[c].w_exit_i, wb = qi[c].w_bar_i, wd = qi[c].w_ld_i;
        qi[c].w_live_i = R.pre_wlive[c], qi[c].w_exit_i = R.pre_wexit[c];
        qi[c].w_bar_i = R.pre_wbar[c], qi[c].w_ld_i = R.pre_wld[c];
        R.pre_wlive[c] = wl, R.pre_wexit[c] = wx, R.pre_wbar[c] = wb, R.pre_wld[c] = wd;
        edge_preempt_victim_bits(&qi[c], pro[c].victim_o);
    }
    for (int c = 0; c < NC; c++) {
        R.lreq_v[c] = R.link[c] && pwo[c].hd_valid_o && pro[c].cmd_o != PRE_CMD_START && !pi[c].start_valid_i;
        R.lreq_regs[c] = pwo[c].hd_regs_o;
    }
    assert_int_equal(fg_block_step(R.db, &di), 0);
    assert_int_equal(fg_block_step(R.ekt, &ei), 0);
    assert_int_equal(fg_block_step(R.fe, &fi), 0);
    assert_int_equal(fg_block_step(R.cm, &ci), 0);
    for (int c = 0; c < NC; c++) {
        assert_int_equal(fg_block_step(R.pewt[c], &pi[c]), 0);
        assert_int_equal(fg_block_step(R.pre[c], &qi[c]), 0);
    }
    /* handshakes done at this edge */
    fg_fifo_c_edge(&ring_link, rl_push, &dbo.ring_id_o, rl_pop);
    if (R.ap_n && dbo.wr_ready_o) {
        memmove(R.ap_addr, R.ap_addr + 1, sizeof R.ap_addr - sizeof *R.ap_addr);
        memmove(R.ap_data, R.ap_data + 1, sizeof R.ap_data - sizeof *R.ap_data);
        R.ap_n--;
    }
    if (R.ekt_cmd_v && eko.cmd_ready_o) R.ekt_cmd_v = 0;
    if (R.ekt_cpl_v && eko.cpl_ready_o) R.ekt_cpl_v = 0;
    if (fe_acc) R.fe_req_v = 0;
    if (fe_init_acc) R.fe_init_v = 0;
    for (int c = 0; c < NC; c++)
        if (R.pewt_ev_v[c] && pwo[c].ev_ready_o) R.pewt_ev_v[c] = 0;
    R.db_stb = R.ekt_stb = R.fe_stb = R.cm_stb = 0;
    memset(R.pewt_stb, 0, sizeof R.pewt_stb);
    memset(R.pre_stb, 0, sizeof R.pre_stb);
    /* captures: one entry per pulse */
    const edge_doorbell_out_t *dn = fg_block_out(R.db);
    const edge_ekt_out_t *en = fg_block_out(R.ekt);
    const cm_bal_monitor_out_t *cn = fg_block_out(R.cm);
    if (dn->err_valid_o) cap_push(&R.db_err, dn->err_code_o, dn->err_addr_o, 0, 0);
    if (en->err_valid_o) cap_push(&R.ekt_err, en->err_code_o, en->err_id_o, 0, 0);
    if (cn->interval_o) R.cm_intervals++;
    for (int c = 0; c < NC; c++) {
        const edge_pewt_out_t *pn = fg_block_out(R.pewt[c]);
        const edge_preempt_out_t *qn = fg_block_out(R.pre[c]);
        if (pn->cpl_valid_o) cap_push(&R.pewt_cpl[c], pn->cpl_tag_o, pn->cpl_slot_o, 0, 0);
        if (pn->err_valid_o) cap_push(&R.pewt_err[c], pn->err_code_o, 0, 0, 0);
        if (qn->cmd_o) cap_push(&R.pre_cmd[c], qn->cmd_o, qn->cmd_slot_o, qn->cmd_arg_o, qn->vstat_o);
        if (qn->err_valid_o) cap_push(&R.pre_err[c], qn->err_code_o, 0, 0, 0);
    }
}

#define SETTLE 1500 /* cycles: longer than any latency the tests cause (F/E watchdog 200) */
static void ref_settle(unsigned n) {
    for (unsigned i = 0; i < n; i++) ref_step();
}

/* ------------------------------------------------------------ operations */
static void io_ok(int rc) {
    if (rc) fail_msg("fg_host: %s", fg_host_error(H));
}

static const fg_reg_desc *reg_of(const win_t *w, const char *name) {
    for (unsigned i = 0; i < w->nregs; i++)
        if (!strcmp(w->regs[i].name, name)) return &w->regs[i];
    fail_msg("%s: no register %s", w->name, name);
    return NULL;
}

/* a stimulus register, on the FPGA and on the reference */
static void op_set(win_t *w, const char *name, uint64_t v) {
    const fg_reg_desc *d = reg_of(w, name);
    uint64_t m = d->width >= 64 ? ~0ull : (1ull << d->width) - 1;
    io_ok(fg_host_write_field(H, w->base + d->off, d->width, v));
    uint64_t *a = aux_ref(w, name);
    if (a) *a = v & m;
    else set_port(w->cls->in_ports, w->cls->n_in, w->r, name, v & m);
    ref_settle(SETTLE); /* the FPGA runs thousands of cycles between two writes */
}

/* A stimulus register, written only if it differs from what the host last
 * wrote (the registers hold; saves UART round trips). */
static void op_set_diff(win_t *w, const char *name, uint64_t v) {
    const fg_reg_desc *d = reg_of(w, name);
    uint64_t m = d->width >= 64 ? ~0ull : (1ull << d->width) - 1;
    if (fg_port_get(w->cls->in_ports, w->cls->n_in, w->r, name) != (v & m)) op_set(w, name, v);
}

/* CTRL strobes; the reference takes them at its next cycle */
static void fe_wait_ready(void);
static void op_strobe(win_t *w, uint32_t bits) {
    io_ok(fg_host_write(H, w->base + FGR_EKT_CTRL, bits));
    if (w == &W_DB) R.db_stb |= bits;
    else if (w == &W_EKT) {
        if (bits & FGR_EKT_CTRL_CMD_VALID) R.ekt_cmd_v = 1;
        if (bits & FGR_EKT_CTRL_CPL_VALID) R.ekt_cpl_v = 1;
        R.ekt_stb |= bits;
    } else if (w == &W_FE) {
        if (bits & FGR_FE_CTRL_REQ_VALID) R.fe_req_v = 1;
        if (bits & FGR_FE_CTRL_INIT_VALID) R.fe_init_v = 1;
        R.fe_stb |= bits;
    } else if (w == &W_CM) R.cm_stb |= bits;
    else if (w->cls == &edge_pewt_class) {
        if (bits & FGR_PEWT_CTRL_EV_VALID) R.pewt_ev_v[w->core] = 1;
        R.pewt_stb[w->core] |= bits;
    } else R.pre_stb[w->core] |= bits;
    ref_settle(SETTLE);
    if (w == &W_FE && (bits & FGR_FE_CTRL_INIT_VALID)) fe_wait_ready();
}

/* The F/E block clears its store after a reset and initializes lines one
 * per cycle (docs/FE_SCHED.md): with the memory system's 16384 lines that
 * outlasts the host's next accesses, so both sides wait for init_ready_o
 * (and no init pending) after a reset or an init. */
static void fe_wait_ready(void) {
    for (unsigned i = 0;; i++) {
        const fe_sched_queues_out_t *o = fg_block_out(R.fe);
        if (o->init_ready_o && !R.fe_init_v) break;
        if (i > 2 * R.fe_p.region_lines + SETTLE)
            fail_msg("the twin's F/E init does not end: init_ready_o %u, init pending %d, region %u lines",
                     (unsigned)o->init_ready_o, R.fe_init_v, (unsigned)R.fe_p.region_lines);
        ref_step();
    }
    for (unsigned i = 0;; i++) {
        uint32_t ctrl, rdy;
        io_ok(fg_host_read(H, W_FE.base + FGR_FE_CTRL, &ctrl));
        io_ok(fg_host_read(H, W_FE.base + FGR_FE_INIT_READY, &rdy));
        if (rdy && !(ctrl & FGR_FE_CTRL_INIT_VALID)) break;
        assert_true(i < 2000);
    }
}

/* a front-end write through the doorbell aperture */
static void op_frontend(uint32_t offset, uint32_t data) {
    io_ok(fg_hw_frontend_write(H, offset, data));
    if (R.ap_n < 4) {
        R.ap_addr[R.ap_n] = R.ap_base + offset;
        R.ap_data[R.ap_n] = data;
        R.ap_n++;
    } else R.ap_drops++;
    ref_settle(SETTLE);
}

/* Every register of a window against the reference. */
static void check_window(const win_t *w) {
    uint32_t wd[256];
    io_ok(fg_host_read_burst(H, w->base, wd, w->nwords));
    const void *out = fg_block_out(*w->blk);
    int bad = 0;
    for (unsigned i = 0; i < w->nregs; i++) {
        const fg_reg_desc *d = &w->regs[i];
        int skip = 0;
        for (const char *const *s = w->skip; *s; s++) skip |= !strcmp(*s, d->name);
        if (skip || (d->acc == 'r' && dont_care(w->cls, out, d->name))) continue;
        uint64_t got = wd[d->off / 4], want;
        if (d->width > 32) got |= (uint64_t)wd[d->off / 4 + 1] << 32;
        const uint64_t *a = aux_ref(w, d->name);
        if (a) want = *a;
        else if (!strcmp(d->name, "ap_drops")) want = R.ap_drops;
        else if (!strcmp(d->name, "ap_count")) want = R.ap_n;
        else if (d->acc == 'w') want = fg_port_get(w->cls->in_ports, w->cls->n_in, w->r, d->name);
        else if (has_port(w->cls->out_ports, w->cls->n_out, d->name))
            want = fg_port_get(w->cls->out_ports, w->cls->n_out, out, d->name);
        else {
            fail_msg("%s: register %s has no reference", w->name, d->name);
            return;
        }
        uint64_t m = d->width >= 64 ? ~0ull : (1ull << d->width) - 1;
        n_regs_checked++;
        if ((got & m) != (want & m)) {
            print_error("%s%d %s: FPGA 0x%llx, twin 0x%llx\n", w->name, w->core, d->name,
                        (unsigned long long)(got & m), (unsigned long long)(want & m));
            bad = 1;
        }
    }
    if (bad) fail_msg("%s%d: registers differ from the twins (above)", w->name, w->core);
}

/* A capture FIFO: count, events, then each entry popped and compared. */
static void check_cap(const win_t *w, cap_list *c, uint32_t stat, uint32_t events, uint32_t pop,
                      const uint32_t *fields, const unsigned *widths, unsigned nf) {
    uint32_t st, ev;
    io_ok(fg_host_read(H, w->base + stat, &st));
    io_ok(fg_host_read(H, w->base + events, &ev));
    if ((st & 0xff) != c->n || ev != c->events || st >> 16 != c->drops)
        fail_msg("%s%d capture at 0x%x: FPGA %u entries / %u events / %u dropped, twin %u / %u / %u", w->name,
                 w->core, stat, st & 0xff, ev, st >> 16, c->n, c->events, c->drops);
    for (unsigned k = 0; k < c->n; k++) {
        for (unsigned f = 0; f < nf; f++) {
            uint64_t v;
            io_ok(fg_host_read_field(H, w->base + fields[f], widths[f], &v));
            uint64_t m = widths[f] >= 64 ? ~0ull : (1ull << widths[f]) - 1;
            if ((v & m) != (c->f[f][k] & m))
                fail_msg("%s%d capture entry %u field %u: FPGA 0x%llx, twin 0x%llx", w->name, w->core, k, f,
                         (unsigned long long)v, (unsigned long long)(c->f[f][k] & m));
        }
        io_ok(fg_host_write(H, w->base + FGR_EKT_CTRL, pop));
        n_caps_checked++;
    }
    c->n = 0;
    io_ok(fg_host_read(H, w->base + stat, &st));
    assert_int_equal(st & 0xff, 0);
}

static void check_edge(void) {
    check_window(&W_DB);
    check_window(&W_EKT);
    static const uint32_t dbf[] = {FGR_DB_ERR_ERR_CODE, FGR_DB_ERR_ERR_ADDR};
    static const unsigned dbw[] = {2, 64};
    check_cap(&W_DB, &R.db_err, FGR_DB_ERR_STAT, FGR_DB_ERR_EVENTS, FGR_DB_CTRL_POP_ERR, dbf, dbw, 2);
    static const uint32_t ekf[] = {FGR_EKT_ERR_ERR_CODE, FGR_EKT_ERR_ERR_ID};
    static const unsigned ekw[] = {3, 5};
    check_cap(&W_EKT, &R.ekt_err, FGR_EKT_ERR_STAT, FGR_EKT_ERR_EVENTS, FGR_EKT_CTRL_POP_ERR, ekf, ekw, 2);
}

static void check_core(int c) {
    check_window(&W_PEWT[c]);
    check_window(&W_PRE[c]);
    static const uint32_t cf[] = {FGR_PEWT_CPL_CPL_TAG, FGR_PEWT_CPL_CPL_SLOT};
    static const unsigned cw[] = {64, 6};
    check_cap(&W_PEWT[c], &R.pewt_cpl[c], FGR_PEWT_CPL_STAT, FGR_PEWT_CPL_EVENTS, FGR_PEWT_CTRL_POP_CPL, cf, cw,
              2);
    static const uint32_t pef[] = {FGR_PEWT_ERR_ERR_CODE};
    static const unsigned pew[] = {2};
    check_cap(&W_PEWT[c], &R.pewt_err[c], FGR_PEWT_ERR_STAT, FGR_PEWT_ERR_EVENTS, FGR_PEWT_CTRL_POP_ERR, pef,
              pew, 1);
    static const uint32_t qf[] = {FGR_PRE_CMD_CMD, FGR_PRE_CMD_CMD_SLOT, FGR_PRE_CMD_CMD_ARG, FGR_PRE_CMD_VSTAT};
    static const unsigned qw[] = {3, FG_P_PRE_SLOT_W, 4, 6};
    check_cap(&W_PRE[c], &R.pre_cmd[c], FGR_PRE_CMD_STAT, FGR_PRE_CMD_EVENTS, FGR_PRE_CTRL_POP_CMD, qf, qw, 4);
    static const uint32_t qef[] = {FGR_PRE_ERR_ERR_CODE};
    check_cap(&W_PRE[c], &R.pre_err[c], FGR_PRE_ERR_STAT, FGR_PRE_ERR_EVENTS, FGR_PRE_CTRL_POP_ERR, qef, pew, 1);
}

static int setup(void **state) {
    (void)state;
    io_ok(fg_host_reset_blocks(H));
    ref_reset();
    fe_wait_ready();
    return 0;
}

/* ------------------------------------------------------------ tests */
static void test_id(void **state) {
    (void)state;
    uint32_t v[6], cnw;
    io_ok(fg_host_read_burst(H, FG_WIN_SYS + FG_SYS_ID, v, 6));
    io_ok(fg_host_read(H, FG_WIN_SYS + FG_SYS_CORE_NW, &cnw));
    for (unsigned c = 0; c < FG_NCORES; c++) assert_int_equal((cnw >> 8 * c) & 0xFF, FG_PRE_CORE_NW(c));
    assert_int_equal(v[0], FG_ID);
    assert_int_equal(v[1], FG_VERSION);
    assert_int_equal(v[2], FG_MAP_HASH);
    assert_int_equal(v[3], 50000000);
    assert_true(v[4] > 0);
    assert_int_equal(v[5], FG_NCORES);
    io_ok(fg_host_check_id(H));
    /* scratch: single and burst writes, incrementing and fixed-address frames */
    io_ok(fg_host_write(H, FG_WIN_SYS + FG_SYS_SCRATCH, 0xdeadbeef));
    io_ok(fg_host_read(H, FG_WIN_SYS + FG_SYS_SCRATCH, &v[0]));
    assert_int_equal(v[0], 0xdeadbeef);
    uint32_t w3[3] = {0x11111111, 0x22222222, 0x33333333};
    uint8_t f[32];
    size_t n = fg_ub_frame(f, FG_UB_WRITE_FIXED, 3, FG_WIN_SYS + FG_SYS_SCRATCH, w3);
    assert_int_equal(n, 6 + 12);
    /* a fixed-address burst leaves the last word */
    uint32_t id;
    io_ok(fg_host_write_burst(H, FG_WIN_SYS + FG_SYS_SCRATCH, w3, 1));
    io_ok(fg_host_read(H, FG_WIN_SYS + FG_SYS_ID, &id));
    /* cycles advance */
    uint64_t c0, c1;
    io_ok(fg_host_cycles(H, &c0));
    io_ok(fg_host_cycles(H, &c1));
    assert_true(c1 > c0);
    /* unmapped windows read 0; reads have no side effects */
    io_ok(fg_host_read(H, 0x1800, &v[0]));
    assert_int_equal(v[0], 0);
    io_ok(fg_host_read(H, 0x40000, &v[0]));
    assert_int_equal(v[0], 0);
}

/* The bus decode at alternating-bit addresses: a window is hit only when
 * every address bit above the window number is 0, so reads there return 0
 * and writes change nothing, even where the low bits name SCRATCH (no
 * aliasing onto the windows). */
static void test_bus_decode(void **state) {
    (void)state;
    static const uint32_t hi[] = {0x55555000u, 0xaaaaa000u, 0x00010000u, 0xfffff000u};
    const uint32_t scr = FG_WIN_SYS + FG_SYS_SCRATCH, mark = 0x0badcafeu;
    io_ok(fg_host_write(H, scr, mark));
    for (unsigned i = 0; i < sizeof hi / sizeof *hi; i++) {
        uint32_t v[2];
        io_ok(fg_host_write(H, hi[i] | scr, ~mark));
        io_ok(fg_host_read_burst(H, hi[i] | scr, v, 2));
        if (v[0] || v[1]) fail_msg("unmapped 0x%08x: read 0x%08x 0x%08x, want 0", hi[i] | scr, v[0], v[1]);
        io_ok(fg_host_read(H, scr, v));
        if (v[0] != mark) fail_msg("a write to 0x%08x changed SCRATCH to 0x%08x", hi[i] | scr, v[0]);
    }
}

/* A kernel's fields into the EKT's command registers, each through set
 * (op_set, or op_set_diff to skip the ones that already hold). */
static void ekt_kernel_fields(const fg_hw_kernel *k, void (*set)(win_t *, const char *, uint64_t)) {
    set(&W_EKT, "cmd_kernel_ptr_i", k->kernel_ptr);
    set(&W_EKT, "cmd_param_base_i", k->param_base);
    set(&W_EKT, "cmd_param_size_i", k->param_size);
    set(&W_EKT, "cmd_param_end_i", k->param_end);
    set(&W_EKT, "cmd_grid_x_i", k->grid[0]);
    set(&W_EKT, "cmd_grid_y_i", k->grid[1]);
    set(&W_EKT, "cmd_grid_z_i", k->grid[2]);
    set(&W_EKT, "cmd_block_x_i", k->block[0]);
    set(&W_EKT, "cmd_block_y_i", k->block[1]);
    set(&W_EKT, "cmd_block_z_i", k->block[2]);
    set(&W_EKT, "cmd_shmem_i", k->shmem);
    set(&W_EKT, "cmd_prio_i", k->prio);
    set(&W_EKT, "cmd_max_events_i", k->max_events);
}

static void ekt_cmd(unsigned op, unsigned id, const fg_hw_kernel *k) {
    op_set(&W_EKT, "cmd_op_i", op);
    op_set(&W_EKT, "cmd_id_i", id);
    if (k) ekt_kernel_fields(k, op_set);
    op_strobe(&W_EKT, FGR_EKT_CTRL_CMD_VALID);
    check_edge(); /* the response is on rsp_* (compared), then popped */
    op_strobe(&W_EKT, FGR_EKT_CTRL_RSP_READY);
}

static void pop_desc(int pkq, unsigned want_id) {
    const edge_ekt_out_t *o = fg_block_out(R.ekt);
    assert_true(pkq ? o->pkq_valid_o : o->evw_valid_o);
    assert_int_equal(pkq ? o->pkq_id_o : o->evw_id_o, want_id);
    check_edge();
    op_strobe(&W_EKT, pkq ? FGR_EKT_CTRL_PKQ_READY : FGR_EKT_CTRL_EVW_READY);
}

/* EDGE front-end: register event kernels, ring (good, bad, unregistered,
 * overrun), descriptors, completions, unregister, pass-through writes. */
static void test_edge_frontend(void **state) {
    (void)state;
    check_edge();
    fg_hw_kernel warp = {.kernel_ptr = 0x123456789abcull, .param_base = 0x10000, .param_size = 0x40,
                         .param_end = 0x100c0, .grid = {1, 1, 1}, .block = {32, 1, 1}, .prio = 3,
                         .max_events = 2};
    fg_hw_kernel big = {.kernel_ptr = 0xfeed0000ull, .param_base = 0x20000, .param_size = 0x100,
                        .param_end = 0x20700, .grid = {4, 2, 1}, .block = {128, 1, 1}, .shmem = 1024,
                        .prio = 1, .max_events = 8};
    ekt_cmd(EKT_OP_REG, 0, &warp); /* -> id 0 */
    ekt_cmd(EKT_OP_REG, 0, &big);  /* -> id 1 */
    ekt_cmd(EKT_OP_READ, 1, NULL);
    assert_int_equal(((const edge_ekt_out_t *)fg_block_out(R.ekt))->registered_o, 3);

    op_frontend(0 << 3, 0); /* ring 0: a single-warp event -> evw */
    check_edge();
    pop_desc(0, 0);
    op_frontend(1 << 3, 1); /* ring 1: a larger event kernel -> pkq */
    check_edge();
    pop_desc(1, 1);
    op_frontend(40 << 3, 0);        /* inside the region, id 40 >= 32: range error */
    op_frontend((2 << 3) + 4, 0);   /* not stride aligned: alignment error */
    op_frontend(5 << 3, 0);         /* no kernel registered at 5: EKT error */
    op_frontend(0x300, 0xabcd);     /* outside the region: passes through */
    check_edge();
    op_strobe(&W_DB, FGR_DB_CTRL_PT_READY);
    check_edge();
    /* overrun: kernel 0 allows 2 events in flight; one is; ring twice more */
    op_frontend(0, 0);
    op_frontend(0, 0);
    check_edge();
    pop_desc(0, 0);
    assert_int_equal(((const edge_ekt_out_t *)fg_block_out(R.ekt))->cnt_err_overrun_o, 1);
    /* unregister while events are in flight: BUSY; complete both; OK */
    ekt_cmd(EKT_OP_UNREG, 0, NULL);
    op_set(&W_EKT, "cpl_id_i", 0);
    op_strobe(&W_EKT, FGR_EKT_CTRL_CPL_VALID);
    op_strobe(&W_EKT, FGR_EKT_CTRL_CPL_VALID);
    op_strobe(&W_EKT, FGR_EKT_CTRL_CPL_VALID); /* spurious completion */
    check_edge();
    ekt_cmd(EKT_OP_UNREG, 0, NULL);
    ekt_cmd(EKT_OP_READ, 0, NULL);
    /* the helpers agree with what the registers say */
    fg_hw_rsp rsp;
    io_ok(fg_hw_ekt_cmd(H, EKT_OP_READ, 1, NULL, &rsp));
    assert_int_equal(rsp.status, EKT_RSP_OK);
    assert_int_equal(rsp.head, big.param_base + big.param_size);
    R.ekt_r.cmd_op_i = EKT_OP_READ;
    R.ekt_r.cmd_id_i = 1;
    R.ekt_cmd_v = 1;
    ref_settle(SETTLE);
    R.ekt_stb = FGR_EKT_CTRL_RSP_READY;
    ref_settle(SETTLE);
    check_edge();
}

/* One F/E request (the request registers hold: only the fields that
 * changed are written). */
static void fe_req_diff(unsigned src, unsigned we, unsigned dflt, unsigned trig, unsigned act, uint32_t addr,
                        uint32_t mask, unsigned tag) {
    op_set_diff(&W_FE, "req_src_i", src);
    op_set_diff(&W_FE, "req_we_i", we);
    op_set_diff(&W_FE, "req_dflt_i", dflt);
    op_set_diff(&W_FE, "req_trig_i", trig);
    op_set_diff(&W_FE, "req_act_i", act);
    op_set_diff(&W_FE, "req_addr_i", addr);
    op_set_diff(&W_FE, "req_mask_i", mask);
    op_set_diff(&W_FE, "req_tag_i", tag);
    op_strobe(&W_FE, FGR_FE_CTRL_REQ_VALID);
}

/* F/E queues: init, requests into each queue, a blocked head released by a
 * fill, outputs popped, a watchdog NACK. */
static void fe_req(unsigned src, unsigned we, unsigned dflt, unsigned trig, unsigned act, uint32_t addr,
                   uint32_t mask, unsigned tag) {
    fe_req_diff(src, we, dflt, trig, act, addr, mask, tag);
    check_window(&W_FE);
}

static void fe_pop_all(void) {
    for (int i = 0; i < 16; i++) {
        const fe_sched_queues_out_t *o = fg_block_out(R.fe);
        if (!o->out_valid_o && !o->nack_valid_o) break;
        check_window(&W_FE);
        op_strobe(&W_FE, (o->out_valid_o ? FGR_FE_CTRL_OUT_READY : 0) |
                             (o->nack_valid_o ? FGR_FE_CTRL_NACK_READY : 0));
    }
    check_window(&W_FE);
}

static void test_fe_queues(void **state) {
    (void)state;
    check_window(&W_FE);
    op_set(&W_FE, "init_full_i", 0);
    op_set(&W_FE, "init_addr_i", 0);
    op_set(&W_FE, "init_lines_i", 16);
    op_strobe(&W_FE, FGR_FE_CTRL_INIT_VALID);
    check_window(&W_FE);
    fe_req(FE_SRC_CPU, 0, 0, FE_TRIG_NONE, FE_ACT_NONE, 0x100000, 0xffffffff, 1); /* NT, outside */
    fe_req(FE_SRC_GPU, 0, 1, 0, 0, 0x80, 0x0000000f, 2);   /* GPU read, wait-full on an empty line */
    fe_req(FE_SRC_GPU, 0, 1, 0, 0, 0x100, 0x000000f0, 3);  /* second one behind it */
    fe_req(FE_SRC_CPU, 1, 0, FE_TRIG_EMPTY, FE_ACT_FILL, 0x80, 0x0000000f, 4); /* CPU fill releases tag 2 */
    fe_pop_all();
    fe_req(FE_SRC_GPU, 1, 1, 0, 0, 0x100, 0x000000f0, 5); /* GPU write (fill) releases tag 3 */
    fe_pop_all();
    /* watchdog: a wait-full read of an empty line with nobody to fill it */
    op_set(&W_FE, "wdog_limit_i", 200);
    fe_req(FE_SRC_CPU, 0, 0, FE_TRIG_FULL, FE_ACT_NONE, 0x200, 0x1, 6);
    fe_pop_all();
    const fe_sched_queues_out_t *o = fg_block_out(R.fe);
    assert_int_equal(o->nacks_o, 1);
    assert_int_equal(o->err_o, 1);
    /* the helper path: push, pop */
    fg_hw_fe_req r = {.src = FE_SRC_CPU, .addr = 0x300000, .mask = 1, .tag = 9};
    io_ok(fg_hw_fe_push(H, &r));
    fg_hw_fe_out out;
    io_ok(fg_hw_fe_pop(H, 0, &out));
    assert_int_equal(out.valid, 1);
    assert_int_equal(out.tag, 9);
    assert_int_equal(out.addr, 0x300000);
    assert_int_equal(out.q, FE_Q_NT);
}

/* CM-BAL monitor: held stall inputs until the twin's outputs are steady,
 * compared in static and CM-CPU modes, then the limit read by the helper. */
static void cm_steady(unsigned intervals) {
    /* the reference runs the same intervals; the FPGA at least as many */
    ref_settle(intervals * FG_P_CM_INTERVAL);
    io_ok(fg_hw_cm_wait_intervals(H, intervals, 100000));
    const cm_bal_monitor_out_t *o = fg_block_out(R.cm);
    for (unsigned core = 0; core < FG_P_CM_C; core += FG_P_CM_C - 1) {
        op_set(&W_CM, "rd_core_i", core);
        ref_settle(4);
        uint32_t w[FGR_CM_NWORDS];
        io_ok(fg_host_read_burst(H, FG_WIN_CM, w, FGR_CM_NWORDS));
        static const char *const names[] = {"decision_o", "cpu_limit_o", "stall_mc_o", "stall_net_o",
                                            "rd_limit_o", "rd_level_o", "rd_valid_o", "rd_avg_o", NULL};
        for (const char *const *n = names; *n; n++) {
            const fg_reg_desc *d = reg_of(&W_CM, *n);
            uint64_t got = w[d->off / 4] & ((1ull << d->width) - 1);
            uint64_t want = fg_port_get(cm_bal_monitor_class.out_ports, cm_bal_monitor_class.n_out, o, *n);
            if (got != want)
                fail_msg("cm core %u %s: FPGA %llu, twin %llu", core, *n, (unsigned long long)got,
                         (unsigned long long)want);
        }
    }
}

static void test_cm_monitor(void **state) {
    (void)state;
    op_set(&W_CM, "mode_i", CM_MODE_STATIC);
    op_set(&W_CM, "static_i", 20);
    cm_steady(4);
    /* CM-CPU: every partition's memory controller stalls every cycle */
    op_set(&W_CM, "mode_i", CM_MODE_CPU);
    op_set(&W_CM, "stall_mc_i", (1u << FG_P_CM_P) - 1);
    cm_steady(80);
    unsigned lim, dec;
    io_ok(fg_hw_cm_limit(H, &lim, &dec));
    const cm_bal_monitor_out_t *o = fg_block_out(R.cm);
    assert_int_equal(lim, o->cpu_limit_o);
    assert_int_equal(dec, CM_DEC_DOWN);
    assert_true(lim < FG_P_CM_MAXW);
    /* no stalls: back up to the maximum */
    op_set(&W_CM, "stall_mc_i", 0);
    cm_steady(80);
    io_ok(fg_hw_cm_limit(H, &lim, &dec));
    assert_int_equal(lim, FG_P_CM_MAXW);
    /* kernel start / end pulses are taken (counted per core in the twin) */
    op_set(&W_CM, "kstart_i", 1);
    op_strobe(&W_CM, FGR_CM_CTRL_KSTART);
    op_set(&W_CM, "kend_i", 1);
    op_strobe(&W_CM, FGR_CM_CTRL_KEND);
}

/* One SIMT core: PEWT and preemption controller driven by the host as the
 * core (LINK = 0), then wired as in the system (LINK = 1). */
static void pewt_push(int c, uint64_t kernel, uint64_t tag, unsigned regs) {
    op_set(&W_PEWT[c], "ev_kernel_i", kernel);
    op_set(&W_PEWT[c], "ev_param_i", kernel + 0x1000);
    op_set(&W_PEWT[c], "ev_tag_i", tag);
    op_set(&W_PEWT[c], "ev_threads_i", 32);
    op_set(&W_PEWT[c], "ev_regs_i", regs);
    op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_EV_VALID);
}

/* The core allocates a block of warps (each with regs registers) and makes them live. */
static void pre_block(int c, uint64_t mask, unsigned regs) {
    op_set(&W_PRE[c], "w_alloc_i", mask);
    op_set(&W_PRE[c], "w_alloc_regs_i", regs);
    op_strobe(&W_PRE[c], FGR_PRE_CTRL_W_ALLOC);
    op_set(&W_PRE[c], "w_live_i", mask);
}

static void test_simt_cores(void **state) {
    (void)state;
    for (int c = 0; c < NC; c++) {
        check_core(c);
        /* PEWT alone: push two, start one, exit it, a start error */
        pewt_push(c, 0x4000 + (uint64_t)c, 0x1000000000ull + (uint64_t)c, 16);
        pewt_push(c, 0x5000, 77, 24);
        op_set(&W_PEWT[c], "start_slot_i", 9);
        op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_START_VALID);
        op_set(&W_PEWT[c], "exit_slot_i", 9);
        op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_EXIT_VALID);
        op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_EXIT_VALID); /* nothing runs in 9 any more */
        check_core(c);
        /* the controller alone: 8 warps of a block, no free context -> flush, save, start */
        op_set(&W_PRE[c], "cfg_en_i", 1);
        op_set(&W_PRE[c], "cfg_policy_i", (unsigned)c % 3);
        op_set(&W_PRE[c], "cfg_opt_i", PRE_OPT_ALL);
        op_set(&W_PRE[c], "cfg_save_base_i", 10);
        op_set(&W_PRE[c], "cfg_save_per_reg_i", 2);
        pre_block(c, 0xff, 32);
        op_set(&W_PRE[c], "w_bar_i", 0x10);
        op_set(&W_PRE[c], "req_regs_i", 16);
        op_strobe(&W_PRE[c], FGR_PRE_CTRL_REQ_VALID);
        check_core(c);
        /* the victim leaves its barrier; the event warp exits; the victim resumes */
        op_set(&W_PRE[c], "w_bar_i", 0);
        op_set(&W_PRE[c], "ev_exit_slot_i", ((const edge_preempt_out_t *)fg_block_out(R.pre[c]))->victim_o);
        op_strobe(&W_PRE[c], FGR_PRE_CTRL_EV_EXIT);
        op_set(&W_PRE[c], "ev_exit_slot_i", 15); /* an exit of a slot with no event warp: error */
        op_strobe(&W_PRE[c], FGR_PRE_CTRL_EV_EXIT);
        op_set(&W_PRE[c], "w_exit_i", 0x80);
        op_strobe(&W_PRE[c], FGR_PRE_CTRL_W_EXIT);
        check_core(c);
        /* LINK: the PEWT head (the second push, 24 regs) starts in the free context */
        op_set(&W_PRE[c], "free_ctx_i", 1);
        op_set(&W_PRE[c], "free_slot_i", 12);
        op_set(&W_PRE[c], "link", 1);
        check_core(c);
        op_set(&W_PRE[c], "free_ctx_i", 0);
        pewt_push(c, 0x6000, 99, 8); /* no free context: preempts a victim for it */
        check_core(c);
        op_set(&W_PRE[c], "ev_exit_slot_i", 12);
        op_strobe(&W_PRE[c], FGR_PRE_CTRL_EV_EXIT); /* exits in both blocks */
        check_core(c);
    }
}

/* ------------------------------------------------------------ register map
 * The register-map test hardware teams run on a new bitstream,
 * following the generated map (fpga/gen/fg_regmap.h, from
 * fpga/regmap.py): every read-write register is bit-bashed with walking ones
 * and walking zeros and read back; the bits of a read-write word that belong
 * to no register must read 0; every read-only register must ignore writes;
 * SYS RESET (write-only) reads 0 and brings every read-write register back to
 * its reset value from the table.  The UART is slow (about 3,600 bytes/s
 * against the verilated top, 10x less with coverage), so each window's
 * read-write words go as one burst write and one burst read per pattern, and
 * the walk is staggered: in round r word j of the run carries bit
 * (r + j) mod 32, so 32 rounds walk a one (then 32 a zero) through every bit
 * of every word at once.  SYS and the EDGE, F/E and CM windows and core 0's
 * PEWT and controller windows get the walk; the other cores (more instances
 * of the same generated wrappers) four patterns (bb_quick). */
typedef struct {
    uint32_t rw[256], ro[256]; /* per word: bits of read-write / read-only registers */
} bb_masks;

static void bb_masks_of(const win_t *w, bb_masks *m) {
    memset(m, 0, sizeof *m);
    for (unsigned i = 0; i < w->nregs; i++) {
        const fg_reg_desc *d = &w->regs[i];
        assert_true(d->off % 4 == 0 && d->off / 4 + (d->width + 31) / 32 <= 256);
        for (unsigned k = 0; k < (d->width + 31) / 32; k++) {
            unsigned bits = d->width - 32 * k;
            uint32_t b = bits >= 32 ? ~0u : (1u << bits) - 1;
            uint32_t *dst = d->acc == 'w' ? &m->rw[d->off / 4 + k] : &m->ro[d->off / 4 + k];
            if ((m->rw[d->off / 4 + k] | m->ro[d->off / 4 + k]) & b)
                fail_msg("%s: register %s overlaps another in word %u", w->name, d->name, d->off / 4 + k);
            *dst |= b;
        }
    }
    assert_int_equal(m->rw[0] | m->ro[0], 0); /* word 0 is CTRL, in no table */
}

/* Walks ones and zeros through the read-write words [lo, hi) at base (masks
 * rw), or with quick set, writes 0x55555555, 0xaaaaaaaa, all ones and zero
 * (every bit set and cleared, neighbours opposite); returns the number of
 * words compared. */
static const uint32_t bb_quick[] = {0x55555555u, 0xaaaaaaaau, 0xffffffffu, 0};
static unsigned bb_walk(const char *name, uint32_t base, unsigned lo, unsigned hi, const uint32_t *rw, int quick) {
    unsigned n = hi - lo, checked = 0;
    uint32_t wr[256], rd[256];
    for (unsigned r = 0; r < (quick ? 4u : 64u); r++) {
        for (unsigned j = 0; j < n; j++) {
            uint32_t one = 1u << ((r + j) % 32);
            wr[j] = quick ? bb_quick[r] : r < 32 ? one : ~one;
        }
        io_ok(fg_host_write_burst(H, base + 4 * lo, wr, n));
        io_ok(fg_host_read_burst(H, base + 4 * lo, rd, n));
        for (unsigned j = 0; j < n; j++) {
            uint32_t m = rw[lo + j];
            if (rd[j] != (wr[j] & m))
                fail_msg("%s word 0x%03x: wrote 0x%08x, read 0x%08x, want 0x%08x (read-write bits 0x%08x)", name,
                         4 * (lo + j), wr[j], rd[j], wr[j] & m, m);
            checked++;
        }
    }
    return checked;
}

/* Every run of consecutive read-write words of a window, walked. */
static unsigned bb_window(const win_t *w, const bb_masks *m, int quick) {
    unsigned checked = 0;
    for (unsigned lo = 0; lo < w->nwords;) {
        if (!m->rw[lo]) {
            lo++;
            continue;
        }
        unsigned hi = lo;
        while (hi < w->nwords && m->rw[hi]) hi++;
        checked += bb_walk(w->name, w->base, lo, hi, m->rw, quick);
        lo = hi;
    }
    return checked;
}

static win_t *bb_windows(win_t **ws) {
    unsigned k = 0;
    ws[k++] = &W_DB;
    ws[k++] = &W_EKT;
    ws[k++] = &W_FE;
    ws[k++] = &W_CM;
    for (int c = 0; c < NC; c++) ws[k++] = &W_PEWT[c];
    for (int c = 0; c < NC; c++) ws[k++] = &W_PRE[c];
    return ws[0];
}

/* Registers whose value moves by itself after reset (they count cycles or
 * intervals): not compared before / after a write to them. */
static int bb_live(const win_t *w, const char *name) {
    if (w == &W_CM) return 1; /* interval pulse, stall counts, limits of the running monitor */
    for (const char *const *s = w->skip; *s; s++)
        if (!strcmp(*s, name)) return 1;
    return 0;
}

static void test_regmap_bitbash(void **state) {
    (void)state;
    unsigned long words = 0, words_quick = 0;
    /* SYS: SCRATCH all 32 bits, LED bits 7:2 read-write */
    uint32_t sys_rw[FG_SYS_LED / 4 + 1] = {0};
    sys_rw[FG_SYS_SCRATCH / 4] = ~0u;
    sys_rw[FG_SYS_LED / 4] = 0xfcu;
    words += bb_walk("sys", FG_WIN_SYS, FG_SYS_SCRATCH / 4, FG_SYS_SCRATCH / 4 + 1, sys_rw, 0);
    words += bb_walk("sys", FG_WIN_SYS, FG_SYS_LED / 4, FG_SYS_LED / 4 + 1, sys_rw, 0);
    win_t *ws[4 + 2 * NC];
    bb_windows(ws);
    static bb_masks m[4 + 2 * NC];
    for (unsigned k = 0; k < 4 + 2 * NC; k++) {
        bb_masks_of(ws[k], &m[k]);
        /* cores 1..3 are further instances of core 0's generated wrappers:
         * the quick patterns (the full walk costs 64 bus round trips a word) */
        int quick = ws[k]->core != 0;
        *(quick ? &words_quick : &words) += bb_window(ws[k], &m[k], quick);
    }
    /* leave every read-write register at a distinct non-reset value: word j
     * of window k holds a pattern of its address, so a write that lands in
     * the wrong word or window shows */
    for (unsigned k = 0; k < 4 + 2 * NC; k++) {
        uint32_t v[256];
        for (unsigned j = 0; j < ws[k]->nwords; j++) v[j] = (ws[k]->base + 4 * j) * 0x9e3779b1u;
        for (unsigned j = 1; j < ws[k]->nwords; j++)
            if (m[k].rw[j]) io_ok(fg_host_write(H, ws[k]->base + 4 * j, v[j]));
    }
    for (unsigned k = 0; k < 4 + 2 * NC; k++) {
        uint32_t rd[256];
        io_ok(fg_host_read_burst(H, ws[k]->base, rd, ws[k]->nwords));
        for (unsigned j = 1; j < ws[k]->nwords; j++) {
            uint32_t want = ((ws[k]->base + 4 * j) * 0x9e3779b1u) & m[k].rw[j];
            if (m[k].rw[j] && rd[j] != want)
                fail_msg("%s%d word 0x%03x: read 0x%08x, want 0x%08x", ws[k]->name, ws[k]->core, 4 * j, rd[j],
                         want);
        }
    }
    /* SYS RESET is write-only (reads 0) and restores every read-write
     * register's reset value (fg_reg_desc.rst) */
    io_ok(fg_host_write(H, FG_WIN_SYS + FG_SYS_SCRATCH, 0x5a5a5a5a));
    io_ok(fg_host_reset_blocks(H));
    uint32_t v;
    io_ok(fg_host_read(H, FG_WIN_SYS + FG_SYS_RESET, &v));
    assert_int_equal(v, 0);
    io_ok(fg_host_read(H, FG_WIN_SYS + FG_SYS_SCRATCH, &v));
    assert_int_equal(v, 0x5a5a5a5a); /* the bus and SYS are not reset by it */
    for (unsigned k = 0; k < 4 + 2 * NC; k++) {
        uint32_t rd[256];
        io_ok(fg_host_read_burst(H, ws[k]->base, rd, ws[k]->nwords));
        for (unsigned i = 0; i < ws[k]->nregs; i++) {
            const fg_reg_desc *d = &ws[k]->regs[i];
            if (d->acc != 'w') continue;
            uint64_t got = rd[d->off / 4], mk = d->width >= 64 ? ~0ull : (1ull << d->width) - 1;
            if (d->width > 32) got |= (uint64_t)rd[d->off / 4 + 1] << 32;
            if ((got & mk) != (d->rst & mk))
                fail_msg("%s%d %s after SYS RESET: 0x%llx, reset value 0x%llx", ws[k]->name, ws[k]->core, d->name,
                         (unsigned long long)got, (unsigned long long)d->rst);
        }
    }
    /* read-only: SYS identity words, then every block output register,
     * written with the complement of what it reads and read again */
    uint32_t id0[6], id1[6], inv[6];
    io_ok(fg_host_read_burst(H, FG_WIN_SYS + FG_SYS_ID, id0, 6));
    for (int i = 0; i < 6; i++) inv[i] = ~id0[i];
    io_ok(fg_host_write_burst(H, FG_WIN_SYS + FG_SYS_ID, inv, 6));
    io_ok(fg_host_read_burst(H, FG_WIN_SYS + FG_SYS_ID, id1, 6));
    assert_memory_equal(id0, id1, sizeof id0);
    unsigned long ro = 0;
    for (unsigned k = 0; k < 4 + 2 * NC; k++) {
        const win_t *w = ws[k];
        uint32_t before[256], after[256], wr[256];
        io_ok(fg_host_read_burst(H, w->base, before, w->nwords));
        for (unsigned lo = 1; lo < w->nwords;) {
            if (!m[k].ro[lo] || m[k].rw[lo]) {
                lo++;
                continue;
            }
            unsigned hi = lo;
            while (hi < w->nwords && m[k].ro[hi] && !m[k].rw[hi]) {
                wr[hi - lo] = ~before[hi];
                hi++;
            }
            io_ok(fg_host_write_burst(H, w->base + 4 * lo, wr, hi - lo));
            lo = hi;
        }
        io_ok(fg_host_read_burst(H, w->base, after, w->nwords));
        for (unsigned i = 0; i < w->nregs; i++) {
            const fg_reg_desc *d = &w->regs[i];
            if (d->acc == 'w' || bb_live(w, d->name)) continue;
            for (unsigned j = d->off / 4; j < d->off / 4 + (d->width + 31) / 32; j++) {
                if (before[j] != after[j])
                    fail_msg("%s%d %s (read-only): 0x%08x before a write of its complement, 0x%08x after",
                             w->name, w->core, d->name, before[j], after[j]);
                ro++;
            }
        }
    }
    printf("# regmap: %lu read-write word checks of the walk (64 patterns a word), %lu of the quick patterns "
           "(the other %d core%s), %lu read-only words written\n",
           words, words_quick, NC - 1, NC == 2 ? "" : "s", ro);
    io_ok(fg_host_reset_blocks(H));
}

/* CM-BAL on all 28 cores of the FPGA top's monitor (CM Table I): every
 * scheduler of every core and every partition stalled, then none.  CM-BAL
 * keeps exploring (CM 4.2: a level is re-tried after EXPLORE_N intervals),
 * so a core's level moves between neighbours interval by interval and the
 * free-running FPGA and the twin are compared by range, not value: with
 * every scheduler stalled each core's level falls to the bottom two (0-1),
 * with none it climbs back to the top two (NLVL - 2 .. NLVL - 1), on both. */
static void cm_levels(unsigned lo, unsigned hi) {
    const fg_reg_desc *d = reg_of(&W_CM, "rd_level_o");
    for (unsigned core = 0; core < FG_P_CM_C; core++) {
        op_set(&W_CM, "rd_core_i", core);
        ref_settle(4);
        uint32_t got;
        io_ok(fg_host_read(H, FG_WIN_CM + d->off, &got));
        unsigned want = ((const cm_bal_monitor_out_t *)fg_block_out(R.cm))->rd_level_o;
        if (got < lo || got > hi || want < lo || want > hi)
            fail_msg("cm core %u: level %u on the FPGA, %u on the twin, want %u..%u", core, got, want, lo, hi);
    }
}

static void test_cm_all_cores(void **state) {
    (void)state;
    const uint32_t all = (1u << FG_P_CM_C) - 1;
    op_set(&W_CM, "mode_i", CM_MODE_BAL);
    op_set(&W_CM, "kstart_i", all);
    op_strobe(&W_CM, FGR_CM_CTRL_KSTART);
    /* bit c * NSCHED + s: scheduler s of core c */
    static const uint64_t issue[] = {(1ull << (FG_P_CM_C * FG_P_CM_NSCHED)) - 1, 0};
    static const uint32_t part[] = {(1u << FG_P_CM_P) - 1, 0};
    for (unsigned ph = 0; ph < 2; ph++) {
        op_set(&W_CM, "issue_stall_i", issue[ph]);
        op_set(&W_CM, "stall_mc_i", part[ph]);
        op_set(&W_CM, "stall_net_i", part[ph]);
        ref_settle(60 * FG_P_CM_INTERVAL);
        io_ok(fg_hw_cm_wait_intervals(H, 60, 100000));
        unsigned nlvl = cm_bal_monitor_defaults(FG_P_CM_P, FG_P_CM_C).nlvl;
        if (ph == 0) cm_levels(0, 1);
        else cm_levels(nlvl - 2, nlvl - 1);
    }
    op_set(&W_CM, "kend_i", all);
    op_strobe(&W_CM, FGR_CM_CTRL_KEND);
}

/* Each core's preemption controller (core 0: P_PRE["NW"] = 64 warp slots,
 * core 1: PRE_CORE_NW[1] = 16, fpga/regmap.py) linked to its PEWT (LINK),
 * preempting each slot in turn for an event kernel: register counts 63, 64
 * and 1 (0..64 per thread) set and clear every bit of the per-slot tables,
 * the second round with the victim at a barrier (BARSKIP); every register
 * and command checked against the twins (each with its core's slots).  On a
 * core with fewer slots than the window's 64 bits, a warp written above its
 * slots is no candidate, in the twin as on the FPGA. */
static void test_preempt_slots(void **state) {
    (void)state;
    for (int c = 0; c < NC; c++) {
        const unsigned nw = FG_PRE_CORE_NW(c);
        /* slot masks are NW bits (up to 64): 64-bit arithmetic, and op_set /
         * check_window move registers wider than 32 bits as the map lays them
         * out (low word first) */
        const uint64_t all = ~0ull >> (64 - nw);
        static const unsigned regs[] = {63, 64, 1};
        op_set(&W_PRE[c], "cfg_en_i", 1);
        op_set(&W_PRE[c], "cfg_opt_i", PRE_OPT_ALL);
        op_set(&W_PRE[c], "cfg_save_base_i", 3);
        op_set(&W_PRE[c], "cfg_save_per_reg_i", 1);
        /* the regs table: every slot allocated with each count, then 64 */
        op_set(&W_PRE[c], "w_alloc_i", all);
        for (unsigned r = 0; r <= sizeof regs / sizeof *regs; r++) {
            op_set(&W_PRE[c], "w_alloc_regs_i", r < sizeof regs / sizeof *regs ? regs[r] : 64);
            op_strobe(&W_PRE[c], FGR_PRE_CTRL_W_ALLOC);
        }
        op_set(&W_PRE[c], "link", 1);
        check_core(c);
        for (unsigned r = 0; r < sizeof regs / sizeof *regs; r++) {
            op_set(&W_PRE[c], "cfg_policy_i", r % 3);
            for (unsigned s = 0; s < nw; s++) {
                int bar = r == 1;
                op_set(&W_PRE[c], "w_live_i", 1ull << s); /* the only candidate */
                op_set(&W_PRE[c], "w_bar_i", bar ? 1ull << s : 0);
                pewt_push(c, 0x8000 + 0x100 * (uint64_t)s, s, regs[r]); /* the PEWT head asks for a slot */
                if (bar) op_set(&W_PRE[c], "w_bar_i", 0); /* the flush waits for the barrier to clear */
                const edge_preempt_out_t *o = fg_block_out(R.pre[c]);
                assert_int_equal(o->victim_o, s);
                assert_int_equal(o->event_mask_o, 1ull << s);
                if (s % 4 == 3) check_window(&W_PRE[c]); /* the counters hold the earlier ones */
                op_set(&W_PRE[c], "ev_exit_slot_i", s);
                op_strobe(&W_PRE[c], FGR_PRE_CTRL_EV_EXIT); /* the event exits; the victim is restored */
                assert_int_equal(((const edge_preempt_out_t *)fg_block_out(R.pre[c]))->event_mask_o, 0);
            }
            check_core(c);
        }
        if (nw < 64) {
            /* only a warp above the core's slots, allocated as the others: the
             * request waits, nothing is flushed */
            op_set(&W_PRE[c], "w_alloc_i", 1ull << nw);
            op_set(&W_PRE[c], "w_alloc_regs_i", 64);
            op_strobe(&W_PRE[c], FGR_PRE_CTRL_W_ALLOC);
            op_set(&W_PRE[c], "w_live_i", 1ull << nw);
            pewt_push(c, 0x9000, nw, 1);
            const edge_preempt_out_t *o = fg_block_out(R.pre[c]);
            assert_int_equal(o->state_o, 0);
            assert_int_equal(o->victim_mask_o, 0);
            assert_int_equal(o->event_mask_o, 0);
            check_core(c);
        }
    }
}

/* A victim that exits while it is flushed is given up (ABORT, EDGE IV-D):
 * the core's W_EXIT pulse must reach the controller's w_exit_i and, through
 * the slice's glue (the bits of slot victim_o), its v_left_i in the same
 * cycle.  The verilated top checks the pair every FLUSH cycle (FG_ASSUME
 * pre_v_status_is_victims), so a pulse during FLUSH fails there if the two
 * are a cycle apart (a register in the glue on one side only). */
static void test_preempt_victim_exit(void **state) {
    (void)state;
    const int c = 0;
    const edge_preempt_out_t *o = fg_block_out(R.pre[c]);
    op_set(&W_PRE[c], "link", 1);
    op_set(&W_PRE[c], "cfg_en_i", 1);
    op_set(&W_PRE[c], "cfg_policy_i", 0);
    pre_block(c, 0x6, 32);
    op_set(&W_PRE[c], "w_bar_i", 0);
    op_set(&W_PRE[c], "v_pipe_i", 1); /* the victim does not drain: FLUSH waits */
    pewt_push(c, 0xa000, 0x77, 16);
    assert_int_equal(o->state_o, PRE_ST_FLUSH);
    const unsigned v = (unsigned)o->victim_o;
    const uint64_t aborts = o->cnt_abort_o;
    assert_true(v == 1 || v == 2);
    op_set(&W_PRE[c], "w_exit_i", 1ull << v);
    op_strobe(&W_PRE[c], FGR_PRE_CTRL_W_EXIT);
    assert_int_equal(o->cnt_abort_o, aborts + 1);
    op_set(&W_PRE[c], "w_live_i", 0x6 & ~(1ull << v)); /* the core retires the warp */
    check_core(c);
    op_set(&W_PRE[c], "v_pipe_i", 0); /* the other warp drains: SAVE, START */
    assert_int_equal(o->event_mask_o, 0x6 & ~(1ull << v));
    op_set(&W_PRE[c], "ev_exit_slot_i", 3 - v);
    op_strobe(&W_PRE[c], FGR_PRE_CTRL_EV_EXIT);
    assert_int_equal(o->event_mask_o, 0);
    check_core(c);
}

/* Full-width values through the EDGE windows (the register wrappers carry
 * 64-bit addresses and tags, 32-bit dimensions): kernels registered with
 * alternating-bit pointers, buffers and dimensions and rung through the
 * aperture, front-end writes from alternating-bit aperture bases passing
 * through or refused, PEWT events with such kernels and tags completed on
 * every core; all compared with the twins. */
static void test_edge_wide(void **state) {
    (void)state;
    static const uint64_t pat[] = {0x5555555555555554ull, 0xaaaaaaaaaaaaaaa8ull, 0x0000000000000004ull};
    for (unsigned p = 0; p < 3; p++) {
        uint64_t base = pat[p] & ~0xfffull;
        fg_hw_kernel big = {.kernel_ptr = pat[p], .param_base = base, .param_size = 0x40,
                            .param_end = base + 3 * 0x40, .grid = {(uint32_t)pat[p] | 1, (uint32_t)(pat[p] >> 32), 1},
                            .block = {(uint32_t)(pat[p] >> 8) | 64, 3, 1}, .shmem = (unsigned)pat[p] & 0xffff,
                            .prio = p, .max_events = 4};
        if (p == 2) big.grid[1] = 1;
        ekt_cmd(EKT_OP_REG, 0, &big); /* -> id 0 */
        op_frontend(0, (uint32_t)pat[p]);
        check_edge();
        pop_desc(1, 0);
        op_set(&W_EKT, "cpl_id_i", 0);
        op_strobe(&W_EKT, FGR_EKT_CTRL_CPL_VALID);
        ekt_cmd(EKT_OP_UNREG, 0, NULL);
        /* the aperture at an alternating-bit base: outside the doorbell
         * region, the write passes through with that address */
        op_set(&W_DB, "ap_base", pat[p] & ~7ull);
        op_frontend(0x10, ~(uint32_t)pat[p]);
        check_edge();
        op_strobe(&W_DB, FGR_DB_CTRL_PT_READY);
        /* the region there too: a misaligned ring is refused with its address */
        op_set(&W_DB, "cfg_base_i", base);
        op_set(&W_DB, "ap_base", base);
        op_frontend(4, 0);
        check_edge();
        op_set(&W_DB, "cfg_base_i", 0x80000000ull);
        op_set(&W_DB, "ap_base", 0x80000000ull);
    }
    for (int c = 0; c < NC; c++) {
        for (unsigned p = 0; p < 3; p++) {
            pewt_push(c, pat[p], ~pat[p], 8 + p);
            op_set(&W_PEWT[c], "start_slot_i", 5 + p);
            op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_START_VALID);
            op_set(&W_PEWT[c], "exit_slot_i", 5 + p);
            op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_EXIT_VALID);
        }
        check_core(c);
    }
}

/* ------------------------------------------------------------ coverage of the top
 * Stimulus the tests above do not give (the FPGA top's toggle
 * coverage, docs/COVERAGE.md says what each test drives); every value still
 * compared with the twins. */

/* One EKT command with the held fields, its response popped: the twin's
 * status checked here, the FPGA's window compared by the caller now and then
 * (REGISTERED and the last response), to spare UART round trips. */
static void ekt_cmd_held(unsigned op, unsigned id, unsigned want_status, int check) {
    op_set_diff(&W_EKT, "cmd_op_i", op);
    op_set_diff(&W_EKT, "cmd_id_i", id);
    op_strobe(&W_EKT, FGR_EKT_CTRL_CMD_VALID);
    const edge_ekt_out_t *o = fg_block_out(R.ekt);
    assert_true(o->rsp_valid_o);
    if (o->rsp_status_o != want_status)
        fail_msg("ekt op %u id %u: status %u on the twin, want %u", op, id, (unsigned)o->rsp_status_o, want_status);
    if (check) check_window(&W_EKT);
    op_strobe(&W_EKT, FGR_EKT_CTRL_RSP_READY);
}

/* The EKT's whole table through the top: single-warp kernels with
 * alternating-bit 64-bit kernel pointers and parameter buffers and every
 * block-dimension bit a warp allows (<= 32), rung to the warp-level
 * descriptor path (evw); multi-warp kernels with alternating-bit y / z
 * dimensions to the packet queue (pkq); then the table filled (REGISTERED
 * every bit set, one more refused FULL) and emptied (every bit cleared). */
static void test_ekt_table(void **state) {
    (void)state;
    static const uint64_t kp[] = {0x5555555555555554ull, 0xaaaaaaaaaaaaaaa8ull, 0x4};
    static const uint64_t pb[] = {0x5555555555555555ull, 0xaaaaaaaaaaaaaaaaull, 0x1};
    /* x * y * z <= WARP_THREADS = 32; each dimension takes 21, 10, 32, 3, 1 */
    static const uint32_t wd[][3] = {{21, 1, 1}, {10, 3, 1}, {1, 10, 3}, {1, 21, 1}, {3, 1, 10},
                                     {1, 1, 21}, {32, 1, 1}, {1, 32, 1}, {1, 1, 32}, {1, 1, 1}};
    const unsigned nsw = sizeof wd / sizeof *wd;
    unsigned id = 0;
    for (; id < nsw; id++) {
        fg_hw_kernel k = {.kernel_ptr = kp[id % 3], .param_base = pb[id % 3], .param_size = 1 + (id & 1),
                          .param_end = pb[id % 3] + 6, .grid = {1, 1, 1},
                          .block = {wd[id][0], wd[id][1], wd[id][2]}, .shmem = id & 1 ? 0xaaaa : 0x5555,
                          .prio = id & 3, .max_events = 4};
        ekt_kernel_fields(&k, op_set_diff);
        ekt_cmd_held(EKT_OP_REG, 0, EKT_RSP_OK, 0); /* -> id (compared in pop_desc) */
        op_frontend(id << 3, id);
        pop_desc(0, id); /* the single-warp descriptor, compared */
    }
    static const uint32_t yz[] = {0x55555555, 0xaaaaaaaa, 0x2};
    for (unsigned p = 0; p < 3; p++, id++) {
        fg_hw_kernel k = {.kernel_ptr = kp[p], .param_base = pb[p], .param_size = 0x10, .param_end = pb[p] + 0x30,
                          .grid = {2, yz[p], yz[(p + 1) % 3]}, .block = {64, yz[(p + 2) % 3], yz[p]},
                          .shmem = 0xffff, .prio = 3 - p, .max_events = 4};
        ekt_kernel_fields(&k, op_set_diff);
        ekt_cmd_held(EKT_OP_REG, 0, EKT_RSP_OK, 0);
        op_frontend(id << 3, ~id);
        pop_desc(1, id); /* the packet-queue descriptor, compared */
    }
    /* complete the launches (the table's in-flight counts back to 0) */
    for (unsigned i = 0; i < id; i++) {
        op_set(&W_EKT, "cpl_id_i", i);
        op_strobe(&W_EKT, FGR_EKT_CTRL_CPL_VALID);
    }
    check_edge();
    /* fill the table: REGISTERED all ones; one more is refused */
    for (; id < FG_P_EKT_ENTRIES; id++) ekt_cmd_held(EKT_OP_REG, 0, EKT_RSP_OK, id % 8 == 7);
    ekt_cmd_held(EKT_OP_REG, 0, EKT_RSP_FULL, 1);
    assert_int_equal(((const edge_ekt_out_t *)fg_block_out(R.ekt))->registered_o,
                     (uint32_t)(~0ull >> (64 - FG_P_EKT_ENTRIES)));
    check_edge();
    for (unsigned i = 0; i < FG_P_EKT_ENTRIES; i++) ekt_cmd_held(EKT_OP_UNREG, i, EKT_RSP_OK, i % 8 == 7);
    assert_int_equal(((const edge_ekt_out_t *)fg_block_out(R.ekt))->registered_o, 0);
    check_edge();
}

/* the F/E window's stall_mc capture (cycles a request waited on a full
 * queue): moving while one does, still when none does */
static void fe_stall_events(int moving) {
    uint32_t a, b;
    io_ok(fg_host_read(H, FG_WIN_FE + FGR_FE_STALL_MC_EVENTS, &a));
    io_ok(fg_host_read(H, FG_WIN_FE + FGR_FE_STALL_MC_EVENTS, &b));
    if (moving ? !(b > a) : b != a)
        fail_msg("fe stall_mc events: %u then %u, want them %s", a, b, moving ? "rising" : "equal");
}

/* Pops outputs and NACKs until neither is valid, the window compared every
 * few pops and at the end; returns how many requests left (outputs + NACKs). */
static unsigned fe_drain(void) {
    unsigned n = 0;
    for (;; n++) {
        const fe_sched_queues_out_t *o = fg_block_out(R.fe);
        int ov = !!o->out_valid_o, nv = !!o->nack_valid_o;
        if (!ov && !nv) break;
        if (n >= 64) fail_msg("fe: still an output after 64 pops");
        if (n % 4 == 0) check_window(&W_FE);
        op_strobe(&W_FE, (ov ? FGR_FE_CTRL_OUT_READY : 0) | (nv ? FGR_FE_CTRL_NACK_READY : 0));
        n += ov && nv;
    }
    check_window(&W_FE);
    return n;
}

/* F/E at full width and full depth: requests with alternating-bit addresses,
 * masks and tags through every queue, each queue filled to its depth (8 in
 * the top) behind an unpopped output or a blocked head, one more request
 * held on the full non-triggered queue (stall_mc), then the blocked heads
 * NACKed by the watchdog one after the other: every output and NACK field
 * compared with the twin. */
static void test_fe_wide(void **state) {
    (void)state;
    static const uint32_t pat[] = {0x55555555, 0xaaaaaaaa, 0};
    const uint32_t lb = FG_P_FE_WORDS * FG_P_FE_GRAN, half = FG_P_FE_REGION_LINES / 2;
    /* lines [0, half) empty, [half, end) full */
    op_set(&W_FE, "init_full_i", 0);
    op_set(&W_FE, "init_addr_i", 0);
    op_set(&W_FE, "init_lines_i", half);
    op_strobe(&W_FE, FGR_FE_CTRL_INIT_VALID);
    op_set(&W_FE, "init_full_i", 1);
    op_set(&W_FE, "init_addr_i", half * lb);
    op_strobe(&W_FE, FGR_FE_CTRL_INIT_VALID);
    check_window(&W_FE);
    /* non-triggered, outside the region, nobody popping: one in the output
     * register, QD_NT queued, one more held (stall_mc) */
    const uint32_t region_end = FG_P_FE_REGION_BASE + FG_P_FE_REGION_LINES * lb;
    for (unsigned i = 0; i < FG_P_FE_QD_NT + 2; i++) {
        uint32_t a = pat[i % 3] | region_end; /* outside the region */
        fe_req_diff(i & 1, (i >> 1) & 1, 0, FE_TRIG_NONE, i % 3, a, pat[(i + 1) % 3], (uint8_t)pat[(i + 2) % 3] ^ i);
    }
    check_window(&W_FE);
    const fe_sched_queues_out_t *o = fg_block_out(R.fe);
    assert_int_equal((o->q_count_o >> 8 * FE_Q_NT) & 0xff, FG_P_FE_QD_NT);
    assert_true(o->stall_mc_o);
    fe_stall_events(1);
    assert_int_equal(fe_drain(), FG_P_FE_QD_NT + 2); /* the held one too */
    fe_stall_events(0);
    /* the triggered queues: wait-full reads / writes on empty lines and
     * wait-empty ones on full lines, all blocked (watchdog off) */
    op_set(&W_FE, "wdog_limit_i", 0);
    for (unsigned src = 0; src < 2; src++)
        for (unsigned i = 0; i < (src ? FG_P_FE_QD_GPU : FG_P_FE_QD_CPU); i++) {
            int full = i & 1; /* a full line: wait for empty */
            uint32_t line = full ? half + (i * 37 + src * 11) % half : (i * 41 + src * 13 + 1) % half;
            uint32_t a = FG_P_FE_REGION_BASE + line * lb + (pat[i % 3] & (lb - 1) & ~(FG_P_FE_GRAN - 1u));
            fe_req_diff(src, (i >> 1) & 1, 0, full ? FE_TRIG_EMPTY : FE_TRIG_FULL, (i >> 2) % 3, a,
                        pat[(i + src) % 2] | 1u << (i % 32), (uint8_t)(0x5a ^ (i * 0x33) ^ src));
        }
    check_window(&W_FE);
    o = fg_block_out(R.fe);
    assert_int_equal(o->head_blocked_o, 1u << FE_Q_CPU | 1u << FE_Q_GPU);
    assert_int_equal(o->q_count_o >> 8 * FE_Q_CPU & 0xff, FG_P_FE_QD_CPU);
    assert_int_equal(o->q_count_o >> 8 * FE_Q_GPU & 0xff, FG_P_FE_QD_GPU);
    /* the blocked heads NACKed by the watchdog (limit 1), one after the other */
    op_set(&W_FE, "wdog_limit_i", 1);
    assert_int_equal(fe_drain(), FG_P_FE_QD_CPU + FG_P_FE_QD_GPU);
    o = fg_block_out(R.fe);
    assert_int_equal(o->q_count_o, 0);
    assert_int_equal(o->nacks_o, FG_P_FE_QD_CPU + FG_P_FE_QD_GPU);
    fe_stall_events(0);
}

/* Every capture FIFO of the EDGE windows (and core 0's) overflowed: 15
 * errors each into the 8-deep FIFOs (7 dropped and counted in STAT[31:16]),
 * and front-end writes into the 4-deep doorbell aperture FIFO with the
 * pass-through output not popped (AP_DROPS); all compared with the twins'
 * counts by check_cap / check_window. */
static void test_capture_overflow(void **state) {
    (void)state;
    const unsigned n = 15;
    /* beyond the aperture window: refused by the host library, not written */
    assert_int_not_equal(fg_hw_frontend_write(H, FG_WIN_BYTES, 0), 0);
    assert_non_null(strstr(fg_host_error(H), "outside"));
    for (unsigned i = 0; i < n; i++) op_frontend((40 + i % 8) << 3, i); /* doorbell range errors */
    for (unsigned i = 0; i < n; i++) op_frontend((8 + i % 8) << 3, i);  /* rings of no kernel: EKT errors */
    assert_int_equal(R.db_err.drops, n - 8);
    assert_int_equal(R.ekt_err.drops, n - 8);
    check_edge();
    /* pass-through writes (outside the region) with nobody taking them:
     * the doorbell's pass-through buffer, then the aperture FIFO fill, then drop */
    for (unsigned i = 0; i < 12; i++) op_frontend(0x200 + 4 * i, 0x5555aaaau ^ i);
    assert_true(R.ap_drops > 0);
    check_edge();
    for (unsigned i = 0; i < 12; i++) op_strobe(&W_DB, FGR_DB_CTRL_PT_READY);
    check_edge();
    /* core 0: PEWT start errors (nothing queued), controller exit errors
     * (no event warp in the slot) */
    const int c = 0;
    for (unsigned i = 0; i < n; i++) op_strobe(&W_PEWT[c], FGR_PEWT_CTRL_START_VALID);
    op_set(&W_PRE[c], "ev_exit_slot_i", 3);
    for (unsigned i = 0; i < n; i++) op_strobe(&W_PRE[c], FGR_PRE_CTRL_EV_EXIT);
    assert_int_equal(R.pewt_err[c].drops, n - 8);
    assert_int_equal(R.pre_err[c].drops, n - 8);
    check_core(c);
}

int main(void) {
    const char *where = getenv("FG_FPGA");
    if (!where) {
        fprintf(stderr, "test_fpga_host: set FG_FPGA=tcp:HOST:PORT (scripts/test_fpga_top.sh does)\n");
        return 1;
    }
    char err[256];
    H = fg_host_open(where, err, sizeof err);
    if (!H) {
        fprintf(stderr, "test_fpga_host: %s\n", err);
        return 1;
    }
    fg_host_set_timeout(H, 20000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_id, setup),
        cmocka_unit_test_setup(test_edge_frontend, setup),
        cmocka_unit_test_setup(test_fe_queues, setup),
        cmocka_unit_test_setup(test_cm_monitor, setup),
        cmocka_unit_test_setup(test_simt_cores, setup),
        cmocka_unit_test_setup(test_regmap_bitbash, setup),
        cmocka_unit_test_setup(test_cm_all_cores, setup),
        cmocka_unit_test_setup(test_preempt_slots, setup),
        cmocka_unit_test_setup(test_preempt_victim_exit, setup),
        cmocka_unit_test_setup(test_edge_wide, setup),
        cmocka_unit_test_setup(test_ekt_table, setup),
        cmocka_unit_test_setup(test_fe_wide, setup),
        cmocka_unit_test_setup(test_capture_overflow, setup),
        cmocka_unit_test_setup(test_bus_decode, setup),
    };
    /* FG_TEST_FILTER=test_cm*: only the matching tests (while iterating) */
    if (getenv("FG_TEST_FILTER")) cmocka_set_test_filter(getenv("FG_TEST_FILTER"));
    int rc = cmocka_run_group_tests_name("fpga_host", tests, NULL, NULL);
    printf("# compared %lu register values and %lu capture entries with the twins\n", n_regs_checked,
           n_caps_checked);
    fg_host_close(H);
    if (ring_link.depth) fg_fifo_c_free(&ring_link);
    return rc;
}
