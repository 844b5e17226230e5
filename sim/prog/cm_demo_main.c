/* cm_demo: a short scripted trace of the CM stall monitor (rtl/cm/, CM paper
 * Sec. 4).  Two monitors see the same congestion script -- one in CM-CPU
 * mode, one in CM-BAL1 (k = 32) -- while core 0's stallGPU follows a
 * Fig.12-like curve of the level it runs at.  One line per interval.
 *
 *   cm_demo [--impl rtl|c|lockstep] [--intervals N]     (default rtl, 44)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm_bal_monitor.h"
#include "cm_traces.h"
#include "fg_block.h"
#include "fg_cli.h"
#include "fg_util.h"


/* Congestion script: stalled requests per interval (4 partitions). */
static void script(unsigned i, unsigned *mc, unsigned *net, const char **phase) {
    if (i < 30) *mc = 1600, *net = 300, *phase = "high";        /* stallMC 1.56/cycle */
    else if (i < 34) *mc = 600, *net = 200, *phase = "medium";  /* 0.59 */
    else if (i < 40) *mc = 100, *net = 120, *phase = "low";     /* both < 0.25 */
    else *mc = 200, *net = 1300, *phase = "high";               /* stallnet 1.27 */
}

static const char *WHY[] = {"hold", "down", "up", "P2 keep", "P2 up", "explore up", "explore down", "?"};
static const char *DEC[] = {"hold", "down", "up", "?"};

int main(int argc, char **argv) {
    fg_impl impl = FG_IMPL_RTL;
    unsigned n = 44;
    const fg_opt opts[] = {FG_OPT_IMPL("--impl", &impl, "the two monitors (default rtl)"),
                           FG_OPT_UINT("--intervals", &n, 1, 1000, "N", "intervals of 1024 cycles (default 44)"),
                           FG_OPT_END};
    fg_cli_parse(&(fg_cli){"cm_demo", NULL, NULL, opts, NULL}, argc, argv);
    cm_bal_monitor_params p = cm_bal_monitor_test_params();
    char err[256];
    fg_block *cpu = fg_block_new(&cm_bal_monitor_class, impl, &p, err, sizeof err);
    fg_block *bal = cpu ? fg_block_new(&cm_bal_monitor_class, impl, &p, err, sizeof err) : NULL;
    if (!cpu || !bal) {
        fprintf(stderr, "cm_demo: %s\n", err);
        fg_block_free(cpu);
        return 1;
    }
    fg_block *blk[2] = {cpu, bal};
    cm_bal_monitor_in_t in[2];
    memset(in, 0, sizeof in);
    in[0].mode_i = CM_MODE_CPU;
    in[1].mode_i = CM_MODE_BAL;
    in[1].k_i = in[0].k_i = CM_K_BAL1;

    printf("cm_demo (%s): CM-CPU vs CM-BAL1 (k=32), interval 1024 cycles, tH=1 tL=0.25,\n",
           fg_impl_name(impl));
    printf("4 partitions; core 0 stallGPU from a Fig.12-like curve of its level\n");
    printf(" int congestion stallMC stallnet dec  | CM-CPU warps | CM-BAL1 warps stallGPU  decision\n");
    /* Each interval: cycle CM_BAL_COMMIT_EDGES reads core 0 through the read
     * port (the level the interval runs at = the previous interval's
     * decision, which the serial walk commits for core 0 CM_BAL_COMMIT_EDGES
     * edges after the interval end, and why it was taken), stall bits from
     * cycle 8 on.  (Reading at cycle 0, before the commit, showed the level
     * one interval late.) */
    enum { MAXN = 1001 };
    _Static_assert(CM_BAL_COMMIT_EDGES < 8, "core 0's level is read before the stall bits start");
    static unsigned used[2][MAXN], why[MAXN], dec[MAXN];
    used[0][0] = used[1][0] = 48;
    for (unsigned i = 0; i <= n; i++) {
        unsigned mc, net;
        const char *phase;
        script(i, &mc, &net, &phase);
        for (unsigned pos = 0; pos < 1024; pos++) {
            for (unsigned k = 0; k < 2; k++) {
                cm_bal_monitor_in_t *x = &in[k];
                x->rd_core_i = 0;
                x->stall_mc_i = x->stall_net_i = 0;
                for (unsigned q = 0; q < 4; q++) {
                    x->stall_mc_i |= (uint64_t)(pos >= 8 && pos < 8 + (mc + 3 - q) / 4) << q;
                    x->stall_net_i |= (uint64_t)(pos >= 8 && pos < 8 + (net + 3 - q) / 4) << q;
                }
                unsigned g = cm_fig12_stall_gpu(used[k][i]);
                x->issue_stall_i = (uint64_t)((pos >= 8 && pos < 8 + (g + 1) / 2) |
                                              (pos >= 8 && pos < 8 + g / 2) << 1);
                if (fg_block_step(blk[k], x)) {
                    fprintf(stderr, "cm_demo: %s\n", blk[k]->error);
                    fg_block_free(cpu);
                    fg_block_free(bal);
                    return 1;
                }
                const cm_bal_monitor_out_t *o = fg_block_out(blk[k]);
                if (pos == CM_BAL_COMMIT_EDGES) {
                    used[k][i] = (unsigned)o->rd_limit_o;
                    if (k && i) why[i - 1] = (unsigned)o->rd_why_o;
                }
            }
        }
        dec[i] = (unsigned)((const cm_bal_monitor_out_t *)fg_block_out(bal))->decision_o;
        if (i < n) used[0][i + 1] = used[0][i], used[1][i + 1] = used[1][i]; /* read at next cycle 0 */
    }
    unsigned sum_cpu = 0, sum_bal = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned mc, net;
        const char *phase;
        script(i, &mc, &net, &phase);
        sum_cpu += used[0][i];
        sum_bal += used[1][i];
        printf("%4u %-10s %7.2f %8.2f %-4s | %3u -> %-3u    | %3u -> %-3u    %5u     %s\n", i, phase,
               mc / 1024.0, net / 1024.0, DEC[dec[i] & 3], used[0][i], used[0][i + 1], used[1][i],
               used[1][i + 1], cm_fig12_stall_gpu(used[1][i]), WHY[why[i] & 7]);
    }
    unsigned e = n < 30 ? n : 30;
    printf("after %u high intervals: CM-CPU %u warps, CM-BAL1 %u warps (knee); mean warps %.1f / %.1f\n", e,
           used[0][e], used[1][e], (double)sum_cpu / n, (double)sum_bal / n);
    fg_block_free(cpu);
    fg_block_free(bal);
    return 0;
}
