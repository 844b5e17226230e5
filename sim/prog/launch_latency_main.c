/* launch_latency: the EDGE Sec. VI-A experiment.
 *
 * N IPv4-forwarding events (32 packets each) go one at a time through the
 * baseline path (NIC -> polling CPU thread -> CUDA-like launch, F/E Table 2)
 * and through the EDGE path (NIC -> doorbell -> decoder + EKT RTL -> dispatch
 * -> SIMT core).  Per-event launch latency = device request -> first
 * instruction of the kernel (docs/LAUNCH_PATH.md gives the exact
 * accounting).  Then both paths run open loop at [nic] rate_mpps and
 * saturated for end-to-end packet latency and throughput.  Every packet's
 * result is checked against the host reference; a wrong one fails the run.
 *
 *   launch_latency [--config configs/edge.ini] [--impl rtl|c|lockstep]
 *                  [--set section.key=value ...] [--out results/launch_latency.json]
 *                  [--events N] [--no-e2e] [--point]
 *   launch_latency --merge LIST --out FILE
 *
 * --point (the sweep runner's one-point mode, scripts/sweep.py): the same
 * run, the JSON written, the figures not printed.  --merge: the listed point
 * file (the experiment is one point) becomes the result file, its figures
 * printed.  The figures are always printed from the JSON. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_json.h"
#include "fg_wave.h"
#include "work/exp_cli.h"
#include "sys/launch_exp.h"
#include "sys/sys.h"
#include "fg_util.h"

static cJSON *stat_json(const sys_stat *s, double scale) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "min", s->n ? s->min * scale : 0);
    cJSON_AddNumberToObject(o, "avg", sys_stat_avg(s) * scale);
    cJSON_AddNumberToObject(o, "max", s->n ? s->max * scale : 0);
    return o;
}

static void add_lat(cJSON *o, const sys_stat *ns, double mhz) {
    cJSON_AddNumberToObject(o, "min_ns", ns->n ? ns->min : 0);
    cJSON_AddNumberToObject(o, "avg_ns", sys_stat_avg(ns));
    cJSON_AddNumberToObject(o, "max_ns", ns->n ? ns->max : 0);
    cJSON_AddNumberToObject(o, "min_cycles", ns->n ? ns->min * mhz / 1000 : 0);
    cJSON_AddNumberToObject(o, "avg_cycles", sys_stat_avg(ns) * mhz / 1000);
    cJSON_AddNumberToObject(o, "max_cycles", ns->n ? ns->max * mhz / 1000 : 0);
}

static cJSON *e2e_json(const sys_result *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "events", (double)r->events);
    cJSON_AddNumberToObject(o, "packets", (double)r->packets);
    cJSON_AddNumberToObject(o, "wrong", (double)r->wrong);
    cJSON_AddItemToObject(o, "packet_latency_ns", stat_json(&r->pkt_latency_ns, 1));
    cJSON_AddNumberToObject(o, "throughput_mpps", r->throughput_mpps);
    cJSON_AddItemToObject(o, "kernel_cycles", stat_json(&r->kernel_cycles, 1));
    return o;
}

#define N(path) fg_json_num(root, path)

/* The figures, from the result file's JSON (one source for a run and --merge). */
static void print_report(const cJSON *root) {
    double b = N("baseline.avg_ns"), e = N("edge.avg_ns"), to_first = N("edge.request_to_first_instr_ns.avg");
    const cJSON *impl = cJSON_GetObjectItemCaseSensitive(root, "impl");
    printf("\nEvent-kernel launch latency (EDGE Sec. VI-A), %.0f serial IPv4 events per path,\n"
           "GPU %.0f MHz, EDGE front-end blocks: %s\n\n",
           N("events"), N("gpu_clock_mhz"), cJSON_IsString(impl) ? impl->valuestring : "?");
    printf("  %-34s %10s %10s %10s %9s   %s\n", "", "min ns", "avg ns", "max ns", "avg cyc", "paper");
    printf("  %-34s %10.0f %10.0f %10.0f %9.0f   %s\n", "baseline (CPU launch)", N("baseline.min_ns"), b,
           N("baseline.max_ns"), N("baseline.avg_cycles"), "~5000 ns");
    printf("  %-34s %10.0f %10.0f %10.0f %9.0f   %s\n", "EDGE (doorbell)", N("edge.min_ns"), e, N("edge.max_ns"),
           N("edge.avg_cycles"), "~1100 ns");
    printf("  %-34s %32.2fx %9s   %s\n", "speedup", N("speedup"), "", "4.4x");
    printf("\n  EDGE breakdown (avg):\n");
    printf("    PCIe doorbell write            %8.1f ns\n", N("edge.pcie_doorbell_ns.avg"));
    printf("    wait for the packet DMA's acks %8.1f ns  (posted-write order: the doorbell acts after the data is "
           "in GPU memory)\n", N("edge.dma_wait_ns.avg"));
    printf("    PCIe completion-queue write    %8.1f ns  (%s in the launch latency, as EDGE VI-A)\n",
           N("edge.pcie_cq_write_ns.avg"),
           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(root, "edge"), "counts_cq_write"))
               ? "counted" : "NOT counted");
    printf("    arrival -> next GPU edge       %8.2f ns\n", N("edge.arrival_to_gpu_edge_ns.avg"));
    printf("    front-end (RTL: doorbell write -> EKT descriptor) %5.1f cycles (min %.0f, max %.0f)\n",
           N("edge.frontend_cycles_rtl.avg"), N("edge.frontend_cycles_rtl.min"), N("edge.frontend_cycles_rtl.max"));
    printf("    dispatch to SIMT core (modeled) %7.1f cycles\n", N("edge.dispatch_cycles.avg"));
    printf("    SIMT scheduler -> first instr   %7.1f cycles\n", N("edge.simt_cycles.avg"));
    printf("    request -> first instruction    %7.0f ns (speedup %.2fx on this measure)\n", to_first,
           to_first > 0 ? b / to_first : 0);
    printf("  baseline breakdown (avg): launch call %.0f ns, driver %.0f ns, dispatch %.0f cycles, "
           "SIMT %.1f cycles;\n    device -> CPU thread notice %.0f ns (not in the launch latency, as in EDGE VI-A)\n",
           N("baseline.launch_call_ns"), N("baseline.driver_ns"), N("baseline.dispatch_cycles"),
           N("baseline.simt_cycles"), N("baseline.device_to_cpu_notify_ns"));
    printf("  IPv4 results checked against the host reference: %.0f + %.0f packets, %.0f wrong\n",
           N("baseline.packets"), N("edge.packets"), N("packets_wrong"));
    if (cJSON_GetObjectItemCaseSensitive(root, "end_to_end")) {
        printf("\n  End-to-end (packet arrives at NIC -> its result back at NIC), %.0f events of 32 packets:\n",
               N("end_to_end.events"));
        printf("  %-30s %12s %12s %12s %14s\n", "", "avg lat ns", "max lat ns", "Mpps", "kernel cyc");
        static const char *const rows[4][2] = {{"baseline @ offered load", "baseline"},
                                               {"EDGE @ offered load", "edge"},
                                               {"baseline saturated", "baseline_saturated"},
                                               {"EDGE saturated", "edge_saturated"}};
        const cJSON *j = cJSON_GetObjectItemCaseSensitive(root, "end_to_end");
        for (int i = 0; i < 4; i++) {
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, rows[i][1]);
            printf("  %-30s %12.0f %12.0f %12.2f %14.0f\n", rows[i][0], fg_json_num(r, "packet_latency_ns.avg"),
                   fg_json_num(r, "packet_latency_ns.max"), fg_json_num(r, "throughput_mpps"),
                   fg_json_num(r, "kernel_cycles.avg"));
        }
        printf("  (offered load %.2f Mpps; saturated = a new batch as soon as one of %.0f slots frees)\n",
               N("end_to_end.offered_mpps"), N("end_to_end.slots"));
    }
    printf("\n  simulated %.0f GPU cycles (%.0f warp instructions) in %.1f s wall time, %.1f s CPU\n",
           N("simulated_gpu_cycles"), N("simulated_warp_instrs"), N("wall_seconds"), N("cpu_seconds"));
}

/* --merge: the experiment is one point, whose file is the result file */
static int merge_points(const char *list, const char *out) {
    char err[600];
    cJSON *pts = fg_json_read_list(list, err, sizeof err);
    int bad = !pts || cJSON_GetArraySize(pts) != 1;
    if (pts && bad) snprintf(err, sizeof err, "%s: --merge takes one point (the whole experiment)", list);
    if (!bad) bad = fg_json_write(cJSON_GetArrayItem(pts, 0), out, err, sizeof err);
    if (bad) fprintf(stderr, "launch_latency: %s\n", err);
    else print_report(cJSON_GetArrayItem(pts, 0)), printf("  wrote %s\n", out);
    cJSON_Delete(pts);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    uint64_t events = 0;
    bool no_e2e = false;
    char err[512];
    exp_cli cli;
    exp_cli_init(&cli, "configs/edge.ini", NULL, "results/launch_latency.json");
    const fg_opt opts[] = {
        FG_OPT_GROUP(cli.opts),
        FG_OPT_U64("--events", &events, 1, 100000000, "N", "events through each path (default: [launch] events)"),
        FG_OPT_FLAG("--no-e2e", &no_e2e, "no open-loop and saturated end-to-end runs"),
        FG_OPT_END};
    fg_cli_parse(&(fg_cli){"launch_latency", "[options]\n--merge LIST --out FILE", NULL, opts, NULL}, argc, argv);
    const char *out = cli.out, *impl = cli.impl;
    int e2e = !no_e2e;
    fg_config *cfg = fg_config_new();
    if (!cfg) return 2;
    if (cli.merge) return merge_points(cli.merge, out);
    if (launch_exp_config(cfg, cli.config, cli.sets.v, cli.sets.n, err, sizeof err)) {
        fprintf(stderr, "launch_latency: %s\n", err);
        return 2;
    }
    if (impl) {
        /* every RTL block of the run: front-end, per-core PEWT / controller, per-partition F/E queues */
        char a[64], b[64], c[64];
        snprintf(a, sizeof a, "edge.impl=%s", impl);
        snprintf(b, sizeof b, "preempt.impl=%s", impl);
        snprintf(c, sizeof c, "mem.fe_impl=%s", impl);
        if (fg_config_set(cfg, a, err, sizeof err) || fg_config_set(cfg, b, err, sizeof err) ||
            fg_config_set(cfg, c, err, sizeof err)) {
            fprintf(stderr, "launch_latency: %s\n", err);
            return 2;
        }
    }
    sys_params p;
    launch_exp_params x;
    if (launch_exp_load(&p, &x, cfg, err, sizeof err)) { /* [gpu], [mem] (the GPU's memory system), ... */
        fprintf(stderr, "launch_latency: %s\n", err);
        return 2;
    }
    if (cli.check) {
        printf("launch_latency: configuration ok\n");
        return 0;
    }
    if (events) x.events = events;
    x.e2e = e2e;
    events = x.events;
    double mhz = p.gpu.clock_mhz;

    launch_exp_result *res = calloc(1, sizeof *res);
    if (!res) return 2;
    if (launch_exp_run(&p, &x, res, err, sizeof err)) {
        fprintf(stderr, "launch_latency: %s\n", err);
        return 1;
    }
    int bad = launch_exp_check("launch_latency", &x, res);
    const sys_result base = res->base, edge = res->edge, e2e_b = res->e2e_b, e2e_e = res->e2e_e,
                     sat_b = res->sat_b, sat_e = res->sat_e;
    double b = sys_stat_avg(&base.launch_ns), e = sys_stat_avg(&edge.launch_ns);
    double speedup = e > 0 ? b / e : 0;

    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "experiment", "launch-latency");
    cJSON_AddStringToObject(root, "impl", fg_impl_name(p.edge.impl));
    fg_block_use uses[8];
    fg_json_add_blocks(root, uses, sys_params_blocks(&p, uses, 8));
    cJSON_AddNumberToObject(root, "events", (double)events);
    cJSON_AddNumberToObject(root, "gpu_clock_mhz", mhz);
    cJSON *jb = cJSON_AddObjectToObject(root, "baseline");
    add_lat(jb, &base.launch_ns, mhz);
    cJSON_AddNumberToObject(jb, "packets", (double)base.packets);
    cJSON_AddNumberToObject(jb, "launch_call_ns", sys_stat_avg(&base.call_ns));
    cJSON_AddNumberToObject(jb, "driver_ns", sys_stat_avg(&base.driver_ns));
    cJSON_AddNumberToObject(jb, "dispatch_cycles", sys_stat_avg(&base.dispatch_cycles));
    cJSON_AddNumberToObject(jb, "simt_cycles", sys_stat_avg(&base.simt_cycles));
    cJSON_AddNumberToObject(jb, "device_to_cpu_notify_ns", sys_stat_avg(&base.notify_ns));
    cJSON *je = cJSON_AddObjectToObject(root, "edge");
    add_lat(je, &edge.launch_ns, mhz);
    cJSON_AddNumberToObject(je, "packets", (double)edge.packets);
    cJSON_AddBoolToObject(je, "counts_cq_write", p.count_cq_write);
    cJSON_AddItemToObject(je, "pcie_doorbell_ns", stat_json(&edge.pcie_db_ns, 1));
    cJSON_AddItemToObject(je, "dma_wait_ns", stat_json(&edge.dma_wait_ns, 1));
    cJSON_AddItemToObject(je, "pcie_cq_write_ns", stat_json(&edge.pcie_cq_ns, 1));
    cJSON_AddNumberToObject(je, "pcie_ns", sys_stat_avg(&edge.pcie_db_ns) + (p.count_cq_write ? sys_stat_avg(&edge.pcie_cq_ns) : 0));
    cJSON_AddItemToObject(je, "arrival_to_gpu_edge_ns", stat_json(&edge.quant_ns, 1));
    cJSON_AddItemToObject(je, "frontend_cycles_rtl", stat_json(&edge.fe_cycles, 1));
    cJSON_AddItemToObject(je, "dispatch_cycles", stat_json(&edge.dispatch_cycles, 1));
    cJSON_AddItemToObject(je, "simt_cycles", stat_json(&edge.simt_cycles, 1));
    cJSON_AddItemToObject(je, "request_to_first_instr_ns", stat_json(&edge.to_first_ns, 1));
    cJSON_AddNumberToObject(je, "frontend_errors", (double)edge.errors);
    cJSON_AddNumberToObject(root, "speedup", speedup);
    cJSON *jp = cJSON_AddObjectToObject(root, "paper");
    cJSON_AddNumberToObject(jp, "baseline_ns", 5000);
    cJSON_AddNumberToObject(jp, "edge_ns", 1100);
    cJSON_AddNumberToObject(jp, "speedup", 4.4);
    cJSON_AddNumberToObject(root, "packets_checked", (double)(base.packets + edge.packets));
    cJSON_AddNumberToObject(root, "packets_wrong", (double)(base.wrong + edge.wrong));
    if (e2e) {
        cJSON *j = cJSON_AddObjectToObject(root, "end_to_end");
        cJSON_AddNumberToObject(j, "offered_mpps", p.nic.rate_mpps);
        cJSON_AddNumberToObject(j, "slots", p.nic.slots);
        cJSON_AddNumberToObject(j, "events", (double)x.e2e_events);
        cJSON_AddItemToObject(j, "baseline", e2e_json(&e2e_b));
        cJSON_AddItemToObject(j, "edge", e2e_json(&e2e_e));
        cJSON_AddItemToObject(j, "baseline_saturated", e2e_json(&sat_b));
        cJSON_AddItemToObject(j, "edge_saturated", e2e_json(&sat_e));
    }
    cJSON_AddNumberToObject(root, "simulated_gpu_cycles", (double)res->gpu_cycles);
    cJSON_AddNumberToObject(root, "simulated_warp_instrs", (double)res->warp_instrs);
    cJSON_AddNumberToObject(root, "wall_seconds", res->wall_seconds);
    cJSON_AddNumberToObject(root, "cpu_seconds", res->cpu_seconds);
    if (fg_json_write(root, out, err, sizeof err)) {
        fprintf(stderr, "launch_latency: %s\n", err);
        bad = 1;
    } else if (!cli.point) {
        print_report(root);
        printf("  wrote %s\n", out);
    } else {
        printf("launch_latency: speedup %.2fx (%.0f / %.0f ns); wrote %s\n", speedup, b, e, out);
    }
    cJSON_Delete(root);
    free(res);
    exp_cli_free(&cli);
    fg_config_free(cfg);
    if (fg_wave_finish()) bad = 1;
    return bad ? 1 : 0;
}
