/* fg_hw: EDGE, F/E and CM helpers over fg_host (fg_hw.h). */
#include "fg_hw.h"

#include <stdio.h>

#define TRIES 200

/* the bursts below rely on these registers being consecutive words */
_Static_assert(FGR_EKT_CMD_BLOCK_Z == FGR_EKT_CMD_GRID_X + 20, "EKT dims");
_Static_assert(FGR_EKT_EVW_PRIO == FGR_EKT_EVW_VALID + 13 * 4, "evw descriptor");
_Static_assert(FGR_EKT_PKQ_PRIO == FGR_EKT_PKQ_VALID + 13 * 4, "pkq descriptor");
_Static_assert(FGR_FE_REQ_TAG == FGR_FE_REQ_SRC + 7 * 4, "F/E request");
_Static_assert(FGR_FE_OUT_Q == FGR_FE_OUT_VALID + 8 * 4, "F/E output");
_Static_assert(FGR_FE_NACK_Q == FGR_FE_NACK_VALID + 8 * 4, "F/E NACK");

#define W(win, reg, v)                                                                             \
    do {                                                                                           \
        if (fg_host_write(h, (win) + (reg), (uint32_t)(v))) return -1;                             \
    } while (0)
#define WF(win, reg, width, v)                                                                     \
    do {                                                                                           \
        if (fg_host_write_field(h, (win) + (reg), (width), (v))) return -1;                        \
    } while (0)

static int rd(fg_host *h, uint32_t a, unsigned width, uint64_t *v) { return fg_host_read_field(h, a, width, v); }

int fg_hw_wait_clear(fg_host *h, uint32_t win, uint32_t bits, unsigned tries) {
    uint32_t c = 0;
    for (unsigned i = 0; i < tries; i++) {
        if (fg_host_read(h, win + FGR_EKT_CTRL, &c)) return -1;
        if (!(c & bits)) return 0;
    }
    return fg_host_fail(h, "window 0x%x: CTRL 0x%x still has 0x%x after %u reads", win, c, bits, tries);
}

int fg_hw_ekt_cmd(fg_host *h, unsigned op, unsigned id, const fg_hw_kernel *k, fg_hw_rsp *rsp) {
    const uint32_t E = FG_WIN_EKT;
    W(E, FGR_EKT_CMD_OP, op);
    W(E, FGR_EKT_CMD_ID, id);
    if (k) {
        WF(E, FGR_EKT_CMD_KERNEL_PTR, 64, k->kernel_ptr);
        WF(E, FGR_EKT_CMD_PARAM_BASE, 64, k->param_base);
        WF(E, FGR_EKT_CMD_PARAM_SIZE, 64, k->param_size);
        WF(E, FGR_EKT_CMD_PARAM_END, 64, k->param_end);
        uint32_t dims[6] = {k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1], k->block[2]};
        /* grid x..z and block x..z are consecutive words */
        if (fg_host_write_burst(h, E + FGR_EKT_CMD_GRID_X, dims, 6)) return -1;
        W(E, FGR_EKT_CMD_SHMEM, k->shmem);
        W(E, FGR_EKT_CMD_PRIO, k->prio);
        W(E, FGR_EKT_CMD_MAX_EVENTS, k->max_events);
    }
    W(E, FGR_EKT_CTRL, FGR_EKT_CTRL_CMD_VALID);
    if (fg_hw_wait_clear(h, E, FGR_EKT_CTRL_CMD_VALID, TRIES)) return -1;
    uint64_t v = 0;
    for (unsigned i = 0; i < TRIES && !v; i++)
        if (rd(h, E + FGR_EKT_RSP_VALID, 1, &v)) return -1;
    if (!v) return fg_host_fail(h, "EKT: no response");
    uint64_t st, rid, head, inf;
    if (rd(h, E + FGR_EKT_RSP_STATUS, 3, &st) || rd(h, E + FGR_EKT_RSP_ID, 5, &rid) ||
        rd(h, E + FGR_EKT_RSP_HEAD, 64, &head) || rd(h, E + FGR_EKT_RSP_INFLIGHT, 16, &inf))
        return -1;
    *rsp = (fg_hw_rsp){(unsigned)st, (unsigned)rid, (unsigned)inf, head};
    W(E, FGR_EKT_CTRL, FGR_EKT_CTRL_RSP_READY);
    return 0;
}

int fg_hw_ekt_complete(fg_host *h, unsigned id) {
    W(FG_WIN_EKT, FGR_EKT_CPL_ID, id);
    W(FG_WIN_EKT, FGR_EKT_CTRL, FGR_EKT_CTRL_CPL_VALID);
    return fg_hw_wait_clear(h, FG_WIN_EKT, FGR_EKT_CTRL_CPL_VALID, TRIES);
}

int fg_hw_ekt_pop_desc(fg_host *h, int pkq, fg_hw_desc *d) {
    const uint32_t base = FG_WIN_EKT + (pkq ? FGR_EKT_PKQ_VALID : FGR_EKT_EVW_VALID);
    /* valid, id, kernel_ptr (2), param_addr (2), grid x..z, block x..z, shmem, prio: 14 words */
    uint32_t w[14];
    if (fg_host_read_burst(h, base, w, 14)) return -1;
    *d = (fg_hw_desc){.valid = w[0] & 1, .id = w[1], .kernel_ptr = (uint64_t)w[3] << 32 | w[2],
                      .param_addr = (uint64_t)w[5] << 32 | w[4], .grid = {w[6], w[7], w[8]},
                      .block = {w[9], w[10], w[11]}, .shmem = w[12], .prio = w[13]};
    if (d->valid) W(FG_WIN_EKT, FGR_EKT_CTRL, pkq ? FGR_EKT_CTRL_PKQ_READY : FGR_EKT_CTRL_EVW_READY);
    return 0;
}

int fg_hw_frontend_write(fg_host *h, uint32_t offset, uint32_t data) {
    /* beyond the aperture window the address would land in the next window */
    if (offset >= FG_WIN_BYTES)
        return fg_host_fail(h, "frontend write: offset 0x%x outside the 0x%x-byte aperture", offset, FG_WIN_BYTES);
    return fg_host_write(h, FG_WIN_AP + (offset & ~3u), data);
}

int fg_hw_ring(fg_host *h, unsigned id) {
    uint32_t stride;
    if (fg_host_read(h, FG_WIN_DB + FGR_DB_CFG_STRIDE_LOG2, &stride)) return -1;
    return fg_hw_frontend_write(h, id << stride, id);
}

int fg_hw_fe_push(fg_host *h, const fg_hw_fe_req *r) {
    const uint32_t F = FG_WIN_FE;
    /* src, we, dflt, trig, act, addr, mask, tag: consecutive words */
    uint32_t w[8] = {r->src, r->we, r->dflt, r->trig, r->act, r->addr, r->mask, r->tag};
    if (fg_host_write_burst(h, F + FGR_FE_REQ_SRC, w, 8)) return -1;
    W(F, FGR_FE_CTRL, FGR_FE_CTRL_REQ_VALID);
    return fg_hw_wait_clear(h, F, FGR_FE_CTRL_REQ_VALID, TRIES);
}

int fg_hw_fe_pop(fg_host *h, int nack, fg_hw_fe_out *o) {
    /* valid, src, we, trig, act, addr, mask, tag, q: 9 consecutive words */
    uint32_t w[9];
    if (fg_host_read_burst(h, FG_WIN_FE + (nack ? FGR_FE_NACK_VALID : FGR_FE_OUT_VALID), w, 9)) return -1;
    *o = (fg_hw_fe_out){.valid = w[0], .src = w[1], .we = w[2], .trig = w[3], .act = w[4],
                        .addr = w[5], .mask = w[6], .tag = w[7], .q = w[8]};
    if (o->valid) W(FG_WIN_FE, FGR_FE_CTRL, nack ? FGR_FE_CTRL_NACK_READY : FGR_FE_CTRL_OUT_READY);
    return 0;
}

int fg_hw_fe_init(fg_host *h, int full, uint32_t addr, unsigned lines) {
    W(FG_WIN_FE, FGR_FE_INIT_FULL, full ? 1 : 0);
    W(FG_WIN_FE, FGR_FE_INIT_ADDR, addr);
    W(FG_WIN_FE, FGR_FE_INIT_LINES, lines);
    W(FG_WIN_FE, FGR_FE_CTRL, FGR_FE_CTRL_INIT_VALID);
    if (fg_hw_wait_clear(h, FG_WIN_FE, FGR_FE_CTRL_INIT_VALID, TRIES)) return -1;
    uint64_t ready = 0; /* the sequencer runs one line per cycle after the handshake */
    for (unsigned i = 0; i < TRIES && !ready; i++)
        if (rd(h, FG_WIN_FE + FGR_FE_INIT_READY, 1, &ready)) return -1;
    return ready ? 0 : fg_host_fail(h, "F/E: init did not finish");
}

int fg_hw_cm_config(fg_host *h, unsigned mode, unsigned static_limit, unsigned k) {
    W(FG_WIN_CM, FGR_CM_MODE, mode);
    W(FG_WIN_CM, FGR_CM_STATIC, static_limit);
    W(FG_WIN_CM, FGR_CM_K, k);
    return 0;
}

int fg_hw_cm_stall(fg_host *h, uint32_t mc, uint32_t net, uint64_t issue) {
    W(FG_WIN_CM, FGR_CM_STALL_MC_IN, mc);
    W(FG_WIN_CM, FGR_CM_STALL_NET_IN, net);
    WF(FG_WIN_CM, FGR_CM_ISSUE_STALL, 64, issue);
    return 0;
}

int fg_hw_cm_wait_intervals(fg_host *h, unsigned n, unsigned tries) {
    uint32_t start, now;
    if (fg_host_read(h, FG_WIN_CM + FGR_CM_INTERVAL_EVENTS, &start)) return -1;
    for (unsigned i = 0; i < tries; i++) {
        if (fg_host_read(h, FG_WIN_CM + FGR_CM_INTERVAL_EVENTS, &now)) return -1;
        if (now - start >= n) return 0;
    }
    return fg_host_fail(h, "CM: %u intervals did not end within %u reads", n, tries);
}

int fg_hw_cm_limit(fg_host *h, unsigned *cpu_limit, unsigned *decision) {
    uint32_t l, d;
    if (fg_host_read(h, FG_WIN_CM + FGR_CM_CPU_LIMIT, &l) || fg_host_read(h, FG_WIN_CM + FGR_CM_DECISION, &d))
        return -1;
    *cpu_limit = l;
    *decision = d;
    return 0;
}

int fg_hw_cm_core(fg_host *h, unsigned core, unsigned *limit, unsigned *level) {
    uint32_t l, v;
    W(FG_WIN_CM, FGR_CM_RD_CORE, core);
    if (fg_host_read(h, FG_WIN_CM + FGR_CM_RD_LIMIT, &l) || fg_host_read(h, FG_WIN_CM + FGR_CM_RD_LEVEL, &v))
        return -1;
    *limit = l;
    *level = v;
    return 0;
}
