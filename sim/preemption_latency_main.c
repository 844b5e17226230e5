/* preemption_latency: the EDGE Fig. 11 experiment (issue 6, item 6).
 *
 * Each background kernel (CONV, MM, BP, BFS; sim/work/bg_kernels.h) fills
 * the whole GPU while IPv4 event warps (sim/work/ipv4_work.h) arrive at
 * seeded random times at the SIMT core scheduler, which sends each to a
 * core's PEWT; the core's preemption controller borrows a victim warp's
 * context (sim/simt/simt_edge_core.c).  For every run configuration — victim
 * policy x flush optimizations, and draining — the same arrivals are
 * replayed.  Per event:
 *   preemption latency = event enters the core's PEWT -> its warp context is
 *                        ready (the controller's START; EDGE Fig. 11)
 *   first-instruction latency = ... -> the event warp's first instruction
 *                        (adds the event kernel's instruction fetch)
 * and, for preempted events, what the victim was waiting on when selected
 * (EDGE Fig. 11b).  Background and event results are checked against host
 * references in every run; a wrong word fails the run.
 *
 *   preemption_latency [--config configs/edge.ini] [--exp configs/preemption_latency.ini]
 *                      [--set section.key=value]...
 *                      [--impl rtl|c|lockstep] [--size paper|test] [--kernels conv,mm,bp,bfs]
 *                      [--jobs N] [--out results/preemption_latency.json] [--rtl-check]
 *
 * Runs are independent processes (fork), --jobs at a time.  --rtl-check
 * repeats one configuration per kernel with the blocks as verilated RTL and
 * requires the same figures as the sweep's (C twin) run. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "edge_preempt.h"
#include "fg_config.h"
#include "fg_json.h"
#include "simt/gpu.h"
#include "work/preempt_run.h"

/* ------------------------------------------------------------ driver */

typedef struct {
    unsigned policy, opts;
    bool enable;
    char label[24];
} pconf;

typedef struct {
    const char *kern;
    pconf pc;
    fg_impl impl;
    prun_result res;
    pid_t pid;
    int fd;
    bool done;
} job;

/* index of a configuration in the sweep (draining: enable false) */
static unsigned conf_index(const pconf *c, unsigned n, unsigned policy, unsigned opts, bool enable) {
    for (unsigned i = 0; i < n; i++)
        if (c[i].enable == enable && (!enable || (c[i].policy == policy && c[i].opts == opts))) return i;
    return 0;
}

static int run_jobs(job *jobs, unsigned n, unsigned par, const prun_params *x, const gpu_config *gc) {
    unsigned next = 0, running = 0, finished = 0;
    while (finished < n) {
        while (running < par && next < n) {
            int p[2];
            if (pipe(p)) { perror("pipe"); return -1; }
            fflush(NULL);
            pid_t pid = fork();
            if (pid < 0) { perror("fork"); return -1; }
            if (pid == 0) {
                close(p[0]);
                prun_result r;
                gpu_config g = *gc;
                g.pre.policy = jobs[next].pc.policy;
                g.pre.opts = jobs[next].pc.opts;
                g.pre.enable = jobs[next].pc.enable;
                g.pre.impl = jobs[next].impl;
                prun_run(x, &g, jobs[next].kern, &r);
                size_t off = 0;
                while (off < sizeof r) {
                    ssize_t k = write(p[1], (char *)&r + off, sizeof r - off);
                    if (k <= 0) _exit(3);
                    off += (size_t)k;
                }
                _exit(0);
            }
            close(p[1]);
            jobs[next].pid = pid;
            jobs[next].fd = p[0];
            next++;
            running++;
        }
        int st;
        pid_t pid = wait(&st);
        if (pid < 0) { perror("wait"); return -1; }
        for (unsigned i = 0; i < n; i++) {
            if (jobs[i].pid != pid || jobs[i].done) continue;
            size_t off = 0;
            while (off < sizeof jobs[i].res) {
                ssize_t k = read(jobs[i].fd, (char *)&jobs[i].res + off, sizeof jobs[i].res - off);
                if (k <= 0) break;
                off += (size_t)k;
            }
            close(jobs[i].fd);
            if (off != sizeof jobs[i].res) {
                memset(&jobs[i].res, 0, sizeof jobs[i].res);
                snprintf(jobs[i].res.err, sizeof jobs[i].res.err, "worker died (status 0x%x)", st);
            }
            jobs[i].done = true;
            running--;
            finished++;
            const prun_result *r = &jobs[i].res;
            fprintf(stderr, "  %-5s %-16s %s: %s (%.1f s)\n", jobs[i].kern, jobs[i].pc.label,
                    fg_impl_name(jobs[i].impl), r->ok ? "ok" : r->err, r->wall);
        }
    }
    return 0;
}

static cJSON *res_json(const job *j) {
    const prun_result *r = &j->res;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "config", j->pc.label);
    cJSON_AddStringToObject(o, "policy", j->pc.enable ? edge_preempt_policy_names[j->pc.policy] : "draining");
    cJSON_AddNumberToObject(o, "opts", j->pc.opts);
    cJSON_AddStringToObject(o, "impl", fg_impl_name(j->impl));
    cJSON_AddNumberToObject(o, "events", (double)r->events);
    cJSON_AddNumberToObject(o, "preempted", (double)r->preempted);
    cJSON_AddNumberToObject(o, "registers_saved", (double)r->saved);
    cJSON_AddNumberToObject(o, "avg_preemption_cycles", r->avg_start);
    cJSON_AddNumberToObject(o, "avg_preemption_cycles_preempted_only", r->avg_start_pre);
    cJSON_AddNumberToObject(o, "p50_preemption_cycles", (double)r->p50_start);
    cJSON_AddNumberToObject(o, "p99_preemption_cycles", (double)r->p99_start);
    cJSON_AddNumberToObject(o, "max_preemption_cycles", (double)r->max_start);
    cJSON_AddNumberToObject(o, "avg_first_instr_cycles", r->avg_first);
    cJSON_AddNumberToObject(o, "max_first_instr_cycles", (double)r->max_first);
    cJSON *vs = cJSON_AddObjectToObject(o, "victim_waiting_on");
    for (unsigned b = 0; b < PRUN_NVS; b++)
        cJSON_AddNumberToObject(vs, PRUN_VS_NAMES[b], r->preempted ? (double)r->vs[b] / (double)r->preempted : 0);
    cJSON_AddNumberToObject(o, "aborts", (double)r->aborts);
    cJSON_AddNumberToObject(o, "loads_dropped", (double)r->drops);
    cJSON_AddNumberToObject(o, "barriers_skipped", (double)r->skips);
    cJSON_AddNumberToObject(o, "background_cycles", (double)r->bg_cycles);
    cJSON_AddNumberToObject(o, "ipv4_packets_checked", (double)r->ipv4_packets);
    cJSON_AddNumberToObject(o, "wall_seconds", r->wall);
    return o;
}

int main(int argc, char **argv) {
    const char *cfgpath = "configs/edge.ini", *exppath = "configs/preemption_latency.ini";
    const char *out = "results/preemption_latency.json";
    const char *impl_s = NULL, *size_s = NULL, *kern_s = NULL;
    unsigned par = 0;
    bool rtl_check = false;
    char err[512];
    fg_config *cfg = fg_config_new();
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0;
    if (!cfg || !sets) return 2;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc) cfgpath = argv[++i];
        else if (!strcmp(argv[i], "--exp") && i + 1 < argc) exppath = argv[++i];
        else if (!strcmp(argv[i], "--set") && i + 1 < argc) sets[nsets++] = argv[++i];
        else if (!strcmp(argv[i], "--impl") && i + 1 < argc) impl_s = argv[++i];
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) size_s = argv[++i];
        else if (!strcmp(argv[i], "--kernels") && i + 1 < argc) kern_s = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc) par = (unsigned)strtoul(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--rtl-check")) rtl_check = true;
        else {
            fprintf(stderr,
                    "usage: %s [--config FILE] [--exp FILE] [--set section.key=value]... [--impl rtl|c|lockstep]\n"
                    "          [--size paper|test] [--kernels conv,mm,bp,bfs] [--jobs N] [--out FILE] [--rtl-check]\n",
                    argv[0]);
            return 2;
        }
    }
    if (fg_config_load(cfg, cfgpath, err, sizeof err) || fg_config_load(cfg, exppath, err, sizeof err)) goto cfg_err;
    for (int i = 0; i < nsets; i++)
        if (fg_config_set(cfg, sets[i], err, sizeof err)) goto cfg_err;
    gpu_config gc;
    gpu_config_default(&gc);
    prun_params x;
    prun_params_default(&x);
    if (gpu_config_load(&gc, cfg, err, sizeof err) || prun_params_load(&x, cfg, err, sizeof err)) goto cfg_err;
    if (fg_config_check_unused_section(cfg, "gpu", err, sizeof err) ||
        fg_config_check_unused_section(cfg, "preempt", err, sizeof err) ||
        fg_config_check_unused_section(cfg, "preemption_latency", err, sizeof err))
        goto cfg_err;
    if (size_s) snprintf(x.size, sizeof x.size, "%s", size_s);
    if (kern_s) snprintf(x.kernels, sizeof x.kernels, "%s", kern_s);
    fg_impl impl = gc.pre.impl;
    if (impl_s && fg_impl_parse(impl_s, &impl)) {
        fprintf(stderr, "%s: --impl %s: expected rtl, c or lockstep\n", argv[0], impl_s);
        return 2;
    }
    if (!par) par = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (!par) par = 1;
    /* configurations: EDGE Fig. 11 (each optimization alone, none, all) for
     * both paper policies, CHEAPEST without and with all, draining */
    static const struct { unsigned opts; const char *name; } OPTS[] = {
        {0, "none"}, {PRE_OPT_BOOST, "boost"}, {PRE_OPT_IBUF, "ibuf"}, {PRE_OPT_BARSKIP, "barskip"},
        {PRE_OPT_DROP, "drop"}, {PRE_OPT_ALL, "all"}};
    const char *const *POL = edge_preempt_policy_names;
    pconf confs[16];
    unsigned nconf = 0;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned o = 0; o < 6; o++) {
            if (p == PRE_POL_CHEAPEST && OPTS[o].opts != 0 && OPTS[o].opts != PRE_OPT_ALL) continue;
            confs[nconf] = (pconf){p, OPTS[o].opts, true, ""};
            snprintf(confs[nconf].label, sizeof confs[nconf].label, "%s/%s", POL[p], OPTS[o].name);
            nconf++;
        }
    confs[nconf] = (pconf){0, 0, false, "draining"};
    nconf++;
    char kl[64], *kernels[8];
    unsigned nk = 0;
    snprintf(kl, sizeof kl, "%s", x.kernels);
    for (char *t = strtok(kl, ","); t && nk < 8; t = strtok(NULL, ",")) kernels[nk++] = t;
    unsigned nj = nk * nconf + (rtl_check ? nk : 0);
    job *jobs = calloc(nj, sizeof *jobs);
    if (!jobs) return 2;
    unsigned j = 0;
    for (unsigned k = 0; k < nk; k++)
        for (unsigned c = 0; c < nconf; c++) jobs[j++] = (job){.kern = kernels[k], .pc = confs[c], .impl = impl};
    unsigned check_conf = conf_index(confs, nconf, PRE_POL_CHEAPEST, PRE_OPT_ALL, true); /* every mechanism in use */
    if (rtl_check)
        for (unsigned k = 0; k < nk; k++)
            jobs[j++] = (job){.kern = kernels[k], .pc = confs[check_conf], .impl = FG_IMPL_RTL};
    fprintf(stderr, "preemption_latency: %u runs (%u kernels x %u configurations%s), %u at a time, blocks: %s\n", nj,
            nk, nconf, rtl_check ? " + RTL checks" : "", par, fg_impl_name(impl));
    if (run_jobs(jobs, nj, par, &x, &gc)) return 1;
    int bad = 0;
    for (unsigned i = 0; i < nj; i++)
        if (!jobs[i].res.ok) {
            fprintf(stderr, "%s: %s %s: %s\n", argv[0], jobs[i].kern, jobs[i].pc.label, jobs[i].res.err);
            bad = 1;
        }
    if (rtl_check)
        for (unsigned k = 0; k < nk; k++) {
            const prun_result *a = &jobs[k * nconf + check_conf].res, *b = &jobs[nk * nconf + k].res;
            if (a->ok && b->ok &&
                (a->avg_start != b->avg_start || a->max_start != b->max_start || a->gpu_cycles != b->gpu_cycles ||
                 a->preempted != b->preempted)) {
                fprintf(stderr, "%s: %s: RTL run differs from the C-twin run (avg %.3f vs %.3f, cycles %llu vs %llu)\n",
                        argv[0], kernels[k], b->avg_start, a->avg_start, (unsigned long long)b->gpu_cycles,
                        (unsigned long long)a->gpu_cycles);
                bad = 1;
            }
        }
    /* ---- report ---- */
    printf("\nWarp-level preemption latency (EDGE Fig. 11): IPv4 event warps on a GPU full of each background\n"
           "kernel, %s sizes, arrivals every %llu +- %llu cycles (seed %llu), blocks: %s\n",
           x.size, (unsigned long long)x.gap, (unsigned long long)x.gap / 2, (unsigned long long)x.seed,
           fg_impl_name(impl));
    printf("preemption latency = event enters the core's PEWT -> warp context ready (cycles);\n"
           "avg-preem over events that preempted a victim (EDGE Fig. 11), avg-all / p50 / p99 / max over\n"
           "all events (those finding a free context start in 2 cycles)\n\n");
    for (unsigned k = 0; k < nk; k++) {
        const prun_result *r0 = &jobs[k * nconf].res;
        printf("%s: %s; regs/thread background %u, event %u%s\n", kernels[k], r0->desc, r0->regs_bg, r0->regs_ev,
               r0->regs_bg < r0->regs_ev ? " (no victim is eligible: events wait for free contexts)" : "");
        printf("  %-17s %6s %6s %9s %9s %7s %8s %9s   victims waiting on: pipe  sb  load  i$  bar  membar\n", "config",
               "events", "preem", "avg-preem", "avg-all", "p50", "p99", "max");
        for (unsigned c = 0; c < nconf; c++) {
            const prun_result *r = &jobs[k * nconf + c].res;
            if (!r->ok) { printf("  %-17s FAILED: %s\n", confs[c].label, r->err); continue; }
            printf("  %-17s %6llu %6llu %9.1f %9.1f %7llu %8llu %9llu   ", confs[c].label,
                   (unsigned long long)r->events, (unsigned long long)r->preempted, r->avg_start_pre, r->avg_start,
                   (unsigned long long)r->p50_start, (unsigned long long)r->p99_start,
                   (unsigned long long)r->max_start);
            double d = r->preempted ? (double)r->preempted : 1;
            printf("%4.0f%% %3.0f%% %4.0f%% %3.0f%% %3.0f%% %5.0f%%\n", 100 * r->vs[0] / d, 100 * r->vs[1] / d,
                   100 * r->vs[2] / d, 100 * r->vs[3] / d, 100 * r->vs[4] / d, 100 * r->vs[6] / d);
        }
    }
    /* summary: the paper averages each policy's average latency over the benchmarks */
    cJSON *root = cJSON_CreateObject(), *summ = cJSON_CreateObject();
    printf("\nAverage over kernels (EDGE Fig. 11c)       none      all   reduction   paper\n");
    static const char *const PAPER[] = {"35.9x, ~50 cycles", "33.7x, ~220 cycles", "(ours)"};
    for (unsigned p = 0; p < 3; p++) {
        unsigned cn = conf_index(confs, nconf, p, 0, true), ca = conf_index(confs, nconf, p, PRE_OPT_ALL, true);
        double sn = 0, sa = 0;
        unsigned n = 0;
        for (unsigned k = 0; k < nk; k++) {
            const prun_result *a = &jobs[k * nconf + cn].res, *b = &jobs[k * nconf + ca].res;
            if (!a->ok || !b->ok || !a->preempted) continue;
            sn += a->avg_start_pre, sa += b->avg_start_pre, n++;
        }
        if (!n) continue;
        sn /= n, sa /= n;
        printf("  %-8s (%u kernels)                  %8.1f %8.1f %10.1fx   %s\n", POL[p], n, sn, sa,
               sa > 0 ? sn / sa : 0, PAPER[p]);
        cJSON *o = cJSON_AddObjectToObject(summ, POL[p]);
        cJSON_AddNumberToObject(o, "avg_none_cycles", sn);
        cJSON_AddNumberToObject(o, "avg_all_cycles", sa);
        cJSON_AddNumberToObject(o, "reduction", sa > 0 ? sn / sa : 0);
        cJSON_AddNumberToObject(o, "kernels", n);
    }
    {
        double sd = 0, sa = 0;
        unsigned n = 0;
        for (unsigned k = 0; k < nk; k++) {
            const prun_result *d = &jobs[k * nconf + conf_index(confs, nconf, 0, 0, false)].res,
                              *a = &jobs[k * nconf + conf_index(confs, nconf, PRE_POL_OLDEST, PRE_OPT_ALL, true)].res;
            if (!d->ok || !a->ok) continue;
            sd += d->avg_start, sa += a->avg_start, n++; /* every event: draining never preempts */
        }
        if (n) {
            sd /= n, sa /= n;
            printf("  draining vs oldest/all (all events)    %8.1f %8.1f %10.1fx   (EDGE Fig. 12: 2.6x avg)\n", sd, sa,
                   sa > 0 ? sd / sa : 0);
            cJSON *o = cJSON_AddObjectToObject(summ, "draining");
            cJSON_AddNumberToObject(o, "avg_cycles", sd);
            cJSON_AddNumberToObject(o, "vs_oldest_all", sa > 0 ? sd / sa : 0);
        }
    }
    cJSON_AddStringToObject(root, "experiment", "EDGE Fig. 11 warp-level preemption latency");
    cJSON_AddStringToObject(root, "size", x.size);
    cJSON_AddStringToObject(root, "impl", fg_impl_name(impl));
    cJSON_AddNumberToObject(root, "seed", (double)x.seed);
    cJSON_AddNumberToObject(root, "gap_cycles", (double)x.gap);
    cJSON_AddItemToObject(root, "summary", summ);
    cJSON *pap = cJSON_AddObjectToObject(root, "paper");
    cJSON_AddNumberToObject(pap, "oldest_reduction", 35.9);
    cJSON_AddNumberToObject(pap, "newest_reduction", 33.7);
    cJSON_AddNumberToObject(pap, "oldest_all_cycles", 50);
    cJSON_AddNumberToObject(pap, "newest_all_cycles", 220);
    cJSON *kk = cJSON_AddObjectToObject(root, "kernels");
    for (unsigned k = 0; k < nk; k++) {
        cJSON *o = cJSON_AddObjectToObject(kk, kernels[k]);
        cJSON_AddStringToObject(o, "description", jobs[k * nconf].res.desc);
        cJSON_AddNumberToObject(o, "regs_background", jobs[k * nconf].res.regs_bg);
        cJSON_AddNumberToObject(o, "regs_event", jobs[k * nconf].res.regs_ev);
        cJSON *runs = cJSON_AddArrayToObject(o, "runs");
        for (unsigned c = 0; c < nconf; c++) cJSON_AddItemToArray(runs, res_json(&jobs[k * nconf + c]));
    }
    if (rtl_check) {
        cJSON *rc = cJSON_AddArrayToObject(root, "rtl_check");
        for (unsigned k = 0; k < nk; k++) cJSON_AddItemToArray(rc, res_json(&jobs[nk * nconf + k]));
    }
    if (fg_json_write(root, out, err, sizeof err)) {
        fprintf(stderr, "%s: %s\n", argv[0], err);
        bad = 1;
    } else {
        printf("\nwrote %s\n", out);
    }
    cJSON_Delete(root);
    free(jobs);
    free(sets);
    fg_config_free(cfg);
    return bad;
cfg_err:
    fprintf(stderr, "%s: %s\n", argv[0], err);
    return 2;
}
