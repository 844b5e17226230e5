/* fe_demo: the F/E paper's overlap-start sequence (Sec. 5.1) on the F/E-bit
 * DRAM scheduler queues, cycle by cycle: the clear after reset marks the input
 * buffer empty, the kernel's coalesced GPU read stalls at the head of the
 * triggered-GPU queue, the CPU's memcpyHtoD write fills the line through the
 * non-triggered queue, the snooped fill releases the read.
 *   fe_demo [--impl c|rtl|lockstep]     (default: rtl, the verilated block) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fe_sched_queues.h"
#include "fg_cli.h"

/* The verilated configuration (rtl/fe/fe_sched_queues.toml). */
static const fe_sched_queues_params P = {
    .addr_w = 32, .words = 32, .gran = 4, .region_base = 4096, .region_lines = 16,
    .qd_nt = 4, .qd_cpu = 4, .qd_gpu = 4, .tag_w = 8, .wd_w = 16, .cnt_w = 32, .init_w = 16,
    .lk_reg = 0};

static const char *QN[3] = {"non-triggered", "triggered-CPU", "triggered-GPU"};

typedef struct {
    fg_block *b;
    fe_sched_queues_in_t in;
    unsigned blocked;
} demo;

static const fe_sched_queues_out_t *out(const demo *d) { return fg_block_out(d->b); }

static int step(demo *d) {
    const fe_sched_queues_out_t *o = out(d);
    uint64_t c = d->b->cycle;
    if (o->out_valid_o && d->in.out_ready_i)
        printf("  cycle %3" PRIu64 "  tag %" PRIu64 " handed from the %s queue to the DRAM scheduler\n", c,
               o->out_tag_o, QN[o->out_q_o]);
    if (o->head_blocked_o != d->blocked) {
        for (unsigned q = 0; q < 3; q++) {
            if ((o->head_blocked_o >> q & 1) && !(d->blocked >> q & 1))
                printf("  cycle %3" PRIu64 "  head of the %s queue blocked: trigger not satisfied\n", c, QN[q]);
            if (!(o->head_blocked_o >> q & 1) && (d->blocked >> q & 1))
                printf("  cycle %3" PRIu64 "  head of the %s queue released (releases=%" PRIu64 ")\n", c, QN[q],
                       o->releases_o);
        }
        d->blocked = (unsigned)o->head_blocked_o;
    }
    if (fg_block_step(d->b, &d->in)) {
        fprintf(stderr, "fe_demo: %s\n", d->b->error);
        return -1;
    }
    return 0;
}

static int send(demo *d, unsigned src, unsigned we, unsigned dflt, unsigned trig, unsigned act,
                uint32_t addr, uint32_t mask, unsigned tag, const char *what) {
    fe_sched_queues_in_t *in = &d->in;
    in->req_valid_i = 1;
    in->req_src_i = src;
    in->req_we_i = we;
    in->req_dflt_i = dflt;
    in->req_trig_i = trig;
    in->req_act_i = act;
    in->req_addr_i = addr;
    in->req_mask_i = mask;
    in->req_tag_i = tag;
    unsigned q = fe_sched_queue_of(&P, in, NULL, NULL);
    while (!(out(d)->req_ready_o >> q & 1))
        if (step(d)) return -1;
    printf("  cycle %3" PRIu64 "  tag %u %s accepted into the %s queue\n", d->b->cycle, tag, what, QN[q]);
    int rc = step(d);
    in->req_valid_i = 0;
    return rc;
}

static int run(demo *d, unsigned n) {
    while (n--)
        if (step(d)) return -1;
    return 0;
}

int main(int argc, char **argv) {
    fg_impl impl = FG_IMPL_RTL;
    const fg_opt opts[] = {FG_OPT_IMPL("--impl", &impl, "the F/E queues (default rtl, the verilated block)"), FG_OPT_END};
    fg_cli_parse(&(fg_cli){"fe_demo", NULL, NULL, opts, NULL}, argc, argv);
    char err[256];
    demo d = {0};
    d.b = fg_block_new(&fe_sched_queues_class, impl, &P, err, sizeof err);
    if (!d.b) {
        fprintf(stderr, "fe_demo: %s\n", err);
        return 1;
    }
    d.in.out_ready_i = d.in.nack_ready_i = 1;
    printf("F/E-bit DRAM scheduler queues: overlap-start (F/E Sec. 5.1), impl=%s\n", fg_impl_name(impl));
    uint32_t buf = 4096 + 2 * 128; /* input buffer line inside the tracked region */
    /* after reset the block clears its F/E store: every tracked line empty,
     * one per cycle, requests held off meanwhile */
    printf("  cycle %3" PRIu64 "  reset clears the 16 tracked lines (every line empty)\n", d.b->cycle);
    int rc = 0;
    while (!rc && !out(&d)->init_ready_o) rc = step(&d);
    if (!rc) printf("  cycle %3" PRIu64 "  clear done\n", d.b->cycle);
    if (!rc) rc = send(&d, 1, 0, 1, 0, 0, buf, 0xffffffff, 1, "GPU read (kernel launched early, 32 words)");
    if (!rc) rc = run(&d, 30);
    if (!rc)
        printf("  cycle %3" PRIu64 "  GPU head stalled %" PRIu64 " cycles so far\n", d.b->cycle,
               out(&d)->stall_gpu_o);
    if (!rc) rc = send(&d, 0, 1, 0, 0, 1, buf, 0xffffffff, 2, "CPU memcpyHtoD write (action fill)");
    if (!rc) rc = run(&d, 6);
    if (!rc)
        printf("summary: stalled-head cycles gpu=%" PRIu64 ", releases=%" PRIu64 ", NACKs=%" PRIu64 "\n",
               out(&d)->stall_gpu_o, out(&d)->releases_o, out(&d)->nacks_o);
    fg_block_free(d.b);
    return rc ? 1 : 0;
}
