/* edge_demo: the EDGE front-end blocks on their own.  A scripted device
 * writes doorbells (one unregistered, one beyond the table, one misaligned,
 * and more rings than maxNumEvents allows); the doorbell decoder feeds the
 * event kernel table; the demo prints each launch and each error with the
 * cycles from the doorbell write to the event descriptor.
 *
 *   edge_demo [--impl rtl|c|lockstep] [--wave FILE.fst]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "edge_doorbell.h"
#include "edge_ekt.h"
#include "fg_cli.h"

#define DB_BASE 0xfe000000ULL

typedef struct {
    fg_block *db, *ekt;
    edge_doorbell_in_t dbi;
    edge_ekt_in_t ei;
    uint64_t cycle;
    uint64_t write_cycle[64]; /* cycle each queued doorbell write was accepted */
    unsigned wq_head, wq_n;
} fe;

static int step(fe *f) {
    const edge_doorbell_out_t *d = fg_block_out(f->db);
    const edge_ekt_out_t *e = fg_block_out(f->ekt);
    /* decoder ring queue -> EKT ring input (state-only outputs: no comb loop) */
    f->ei.ring_valid_i = d->ring_valid_o;
    f->ei.ring_id_i = d->ring_id_o;
    f->dbi.ring_ready_i = e->ring_ready_o;
    f->dbi.pt_ready_i = 1;
    f->ei.evw_ready_i = f->ei.pkq_ready_i = 1;
    f->ei.rsp_ready_i = 1;
    if (e->evw_valid_o || e->pkq_valid_o) {
        int w = e->evw_valid_o;
        printf("  cycle %4" PRIu64 "  LAUNCH  doorbell %2" PRIu64 " -> %-24s params @0x%06" PRIx64
               "  (%" PRIu64 " cycles after the write)\n",
               f->cycle, w ? e->evw_id_o : e->pkq_id_o,
               w ? "SIMT core scheduler" : "pending kernel queue",
               w ? e->evw_param_addr_o : e->pkq_param_addr_o, f->cycle - f->write_cycle[f->wq_head]);
        f->wq_head = (f->wq_head + 1) % 64;
        f->wq_n--;
    }
    if (e->err_valid_o) {
        static const char *const names[] = {"", "unregistered doorbell", "overrun (maxNumEvents)",
                                            "spurious completion", "completion of unregistered"};
        printf("  cycle %4" PRIu64 "  ERROR   doorbell %2" PRIu64 ": %s\n", f->cycle, e->err_id_o,
               names[e->err_code_o < 5 ? e->err_code_o : 0]);
        if (e->err_code_o <= 2) {
            f->wq_head = (f->wq_head + 1) % 64;
            f->wq_n--;
        }
    }
    if (d->err_valid_o)
        printf("  cycle %4" PRIu64 "  ERROR   write 0x%" PRIx64 ": %s\n", f->cycle, d->err_addr_o,
               d->err_code_o == DB_ERR_RANGE ? "doorbell beyond the table" : "misaligned doorbell");
    if (fg_block_step(f->db, &f->dbi) || fg_block_step(f->ekt, &f->ei)) {
        fprintf(stderr, "edge_demo: %s%s\n", f->db->error, f->ekt->error);
        return -1;
    }
    f->cycle++;
    return 0;
}

static int device_write(fe *f, uint64_t addr, const char *what) {
    printf("  cycle %4" PRIu64 "  device writes 0x%" PRIx64 " (%s)\n", f->cycle, addr, what);
    f->dbi.wr_valid_i = 1;
    f->dbi.wr_addr_i = addr;
    f->dbi.wr_data_i = 1;
    for (;;) {
        int ready = (int)((const edge_doorbell_out_t *)fg_block_out(f->db))->wr_ready_o;
        uint64_t id = (addr - DB_BASE) >> 3;
        if (ready && addr >= DB_BASE && id < 32 && !(addr & 7)) {
            f->write_cycle[(f->wq_head + f->wq_n) % 64] = f->cycle;
            f->wq_n++;
        }
        if (step(f)) return -1;
        if (ready) break;
    }
    f->dbi.wr_valid_i = 0;
    return 0;
}

static int run(fe *f, int n) {
    for (int i = 0; i < n; i++)
        if (step(f)) return -1;
    return 0;
}

static int reg(fe *f, uint64_t kptr, uint64_t base, unsigned entries, unsigned maxev, unsigned bx,
               unsigned gx, const char *name) {
    edge_ekt_in_t *in = &f->ei;
    in->cmd_valid_i = 1;
    in->cmd_op_i = EKT_OP_REG;
    in->cmd_kernel_ptr_i = kptr;
    in->cmd_param_base_i = base;
    in->cmd_param_size_i = 0x40;
    in->cmd_param_end_i = base + 0x40 * (entries - 1);
    in->cmd_grid_x_i = gx, in->cmd_grid_y_i = in->cmd_grid_z_i = 1;
    in->cmd_block_x_i = bx, in->cmd_block_y_i = in->cmd_block_z_i = 1;
    in->cmd_shmem_i = 0;
    in->cmd_prio_i = 3;
    in->cmd_max_events_i = maxev;
    for (;;) {
        const edge_ekt_out_t *e = fg_block_out(f->ekt);
        int fire = (int)e->cmd_ready_o;
        if (step(f)) return -1;
        if (fire) break;
    }
    in->cmd_valid_i = 0;
    const edge_ekt_out_t *e = fg_block_out(f->ekt);
    while (!e->rsp_valid_o) { /* the response (the doorbell id) comes cycles after the command */
        if (step(f)) return -1;
        e = fg_block_out(f->ekt);
    }
    printf("  register %-10s grid %u x block %-3u maxNumEvents %u -> %s, doorbell %" PRIu64
           " at 0x%" PRIx64 "\n",
           name, gx, bx, maxev, e->rsp_status_o == EKT_RSP_OK ? "ok" : "FAILED", e->rsp_id_o,
           (uint64_t)(DB_BASE + 8 * e->rsp_id_o));
    return step(f);
}

int main(int argc, char **argv) {
    fg_impl impl = FG_IMPL_RTL;
    const char *wave = NULL;
    const fg_opt opts[] = {FG_OPT_IMPL("--impl", &impl, "the doorbell decoder and the EKT (default rtl)"),
                           FG_OPT_STR("--wave", &wave, "FILE.fst", "trace the EKT block into FILE.fst"),
                           FG_OPT_END};
    fg_cli_parse(&(fg_cli){"edge_demo", NULL, NULL, opts, NULL}, argc, argv);
    edge_doorbell_params dp;
    edge_ekt_params ep;
    edge_doorbell_params_default(&dp);
    edge_ekt_params_default(&ep);
    char err[256];
    fe f;
    memset(&f, 0, sizeof f);
    f.db = fg_block_new(&edge_doorbell_class, impl, &dp, err, sizeof err);
    f.ekt = f.db ? fg_block_new(&edge_ekt_class, impl, &ep, err, sizeof err) : NULL;
    if (!f.db || !f.ekt) {
        fprintf(stderr, "edge_demo: %s\n", err);
        return 1;
    }
    if (wave && (fg_block_trace(f.ekt, wave, 0, 0) || (fg_block_reset(f.ekt), 0))) {
        fprintf(stderr, "edge_demo: cannot trace to %s\n", wave);
        return 1;
    }
    f.dbi.cfg_base_i = DB_BASE;
    f.dbi.cfg_region_log2_i = 12;
    f.dbi.cfg_stride_log2_i = 3;
    printf("EDGE front-end demo: doorbell decoder + event kernel table (%s)\n", fg_impl_name(impl));
    int rc = reg(&f, 0x80000100, 0x100000, 4, 2, 32, 1, "ipv4_fwd") ||
             reg(&f, 0x80000800, 0x200000, 8, 8, 256, 4, "ipsec") ||
             device_write(&f, DB_BASE + 0, "doorbell 0") || run(&f, 6) ||
             device_write(&f, DB_BASE + 8, "doorbell 1") || run(&f, 6) ||
             device_write(&f, DB_BASE + 8 * 5, "doorbell 5, never registered") || run(&f, 6) ||
             device_write(&f, DB_BASE + 8 * 40, "beyond the 32-entry table") || run(&f, 3) ||
             device_write(&f, DB_BASE + 8 + 4, "misaligned") || run(&f, 3) ||
             device_write(&f, DB_BASE + 0, "doorbell 0 again") ||
             device_write(&f, DB_BASE + 0, "doorbell 0, third event in flight") || run(&f, 8);
    if (rc) return 1;
    const edge_ekt_out_t *e = fg_block_out(f.ekt);
    const edge_doorbell_out_t *d = fg_block_out(f.db);
    printf("counters: rings %" PRIu64 ", launches %" PRIu64 ", unregistered %" PRIu64
           ", overruns %" PRIu64 ", bad range %" PRIu64 ", misaligned %" PRIu64 "\n",
           d->cnt_rings_o, e->cnt_launch_o, e->cnt_err_unreg_o, e->cnt_err_overrun_o,
           d->cnt_err_range_o, d->cnt_err_align_o);
    fg_block_free(f.db);
    fg_block_free(f.ekt);
    return 0;
}
