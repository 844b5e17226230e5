/* preemption_latency: the EDGE Fig. 11 experiment.
 *
 * Each background kernel (EDGE Sec. V's nine; sim/work/bg_kernels.h) fills
 * the whole GPU while IPv4 event warps (sim/work/ipv4_work.h) arrive at
 * seeded random times at the SIMT core scheduler, which sends each to a
 * core's PEWT; the core's preemption controller borrows a victim warp's
 * context (sim/simt/simt_edge_core.c).  For every run configuration — victim
 * policy x flush optimizations, and draining — the same arrivals are
 * replayed.  Per event:
 *   preemption latency = event reaches the SIMT core scheduler -> its warp
 *                        context is ready (the controller's START; EDGE Fig. 11)
 *   first-instruction latency = ... -> the event warp's first instruction
 *                        (adds the event kernel's instruction fetch)
 * and, for preempted events, what the victim was waiting on when selected
 * (EDGE Fig. 11b).  Background and event results are checked against host
 * references in every run; a wrong word fails the run.
 *
 *   preemption_latency [--config configs/edge.ini] [--exp configs/preemption_latency.ini]
 *                      [--set section.key=value]...
 *                      [--impl rtl|c|lockstep] [--size paper|test] [--kernels conv,mm,bp,bfs,conv2,sc,kmn,srad,lud]
 *                      [--jobs N] [--out results/preemption_latency.json] [--rtl-check]
 *   preemption_latency ... --point --out POINT.json     one run: the kernel of
 *                      [preemption_latency] kernels, the configuration of [preempt]
 *   preemption_latency --merge LIST --out RESULT.json   the point files listed
 *                      (one path a line) -> the result file and the report
 *
 * The sweep runner (scripts/sweep.py, experiments/edge_fig11.ini) runs the
 * points and merges them; run alone, the program runs every configuration
 * of the listed kernels itself, as independent processes (fork), --jobs at
 * a time, with a progress line on a terminal.  --impl picks every RTL block
 * of a run: each core's PEWT and preemption controller and each memory
 * partition's F/E queues.  --rtl-check repeats one
 * configuration per kernel with the blocks as verilated RTL and requires
 * the same figures as the sweep's run. */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "edge_preempt.h"
#include "fg_wave.h"
#include "fg_config.h"
#include "fg_json.h"
#include "fg_progress.h"
#include "simt/gpu.h"
#include "work/exp_cli.h"
#include "work/preempt_run.h"

/* ------------------------------------------------------ configurations */

typedef struct {
    unsigned policy, opts;
    bool enable;
    char label[24];
} pconf;

#define MAXCONF 16

/* EDGE Fig. 11 (each optimization alone, none, all) for both paper
 * policies, CHEAPEST without and with all, draining */
static unsigned make_confs(pconf *confs) {
    static const struct { unsigned opts; const char *name; } OPTS[] = {
        {0, "none"}, {PRE_OPT_BOOST, "boost"}, {PRE_OPT_IBUF, "ibuf"}, {PRE_OPT_BARSKIP, "barskip"},
        {PRE_OPT_DROP, "drop"}, {PRE_OPT_ALL, "all"}};
    unsigned n = 0;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned o = 0; o < 6; o++) {
            if (p == PRE_POL_CHEAPEST && OPTS[o].opts != 0 && OPTS[o].opts != PRE_OPT_ALL) continue;
            confs[n] = (pconf){p, OPTS[o].opts, true, ""};
            snprintf(confs[n].label, sizeof confs[n].label, "%s/%s", edge_preempt_policy_names[p], OPTS[o].name);
            n++;
        }
    confs[n++] = (pconf){0, 0, false, "draining"};
    return n;
}

/* index of a configuration in the sweep (draining: enable false), n if none */
static unsigned conf_index(const pconf *c, unsigned n, unsigned policy, unsigned opts, bool enable) {
    for (unsigned i = 0; i < n; i++)
        if (c[i].enable == enable && (!enable || (c[i].policy == policy && c[i].opts == opts))) return i;
    return n;
}

static unsigned conf_by_label(const pconf *c, unsigned n, const char *label) {
    for (unsigned i = 0; i < n; i++)
        if (label && !strcmp(c[i].label, label)) return i;
    return n;
}

/* ---------------------------------------------------------- JSON */

static cJSON *res_json(const pconf *pc, fg_impl impl, const prun_result *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "config", pc->label);
    cJSON_AddStringToObject(o, "policy", pc->enable ? edge_preempt_policy_names[pc->policy] : "draining");
    cJSON_AddNumberToObject(o, "opts", pc->opts);
    cJSON_AddStringToObject(o, "impl", fg_impl_name(impl));
    cJSON_AddNumberToObject(o, "events", (double)r->events);
    cJSON_AddNumberToObject(o, "preempted", (double)r->preempted);
    cJSON_AddNumberToObject(o, "registers_saved", (double)r->saved);
    cJSON_AddNumberToObject(o, "avg_preemption_cycles", r->avg_start);
    cJSON_AddNumberToObject(o, "avg_preemption_cycles_preempted_only", r->avg_start_pre);
    cJSON_AddNumberToObject(o, "avg_flush_cycles_preempted_only", r->avg_flush_pre);
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

/* One point: a run of one kernel in one configuration, with what the
 * report needs about the kernel and the arrivals. */
static cJSON *point_json(const prun_params *x, const char *kern, const pconf *pc, fg_impl impl,
                         const prun_result *r) {
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "kernel", kern);
    cJSON_AddStringToObject(o, "size", x->size);
    cJSON_AddNumberToObject(o, "seed", (double)x->seed);
    cJSON_AddNumberToObject(o, "gap_cycles", (double)x->gap);
    cJSON_AddStringToObject(o, "description", r->desc);
    cJSON_AddNumberToObject(o, "regs_background", r->regs_bg);
    cJSON_AddNumberToObject(o, "regs_event", r->regs_ev);
    cJSON_AddBoolToObject(o, "ok", r->ok);
    cJSON_AddStringToObject(o, "error", r->ok ? "" : r->err);
    cJSON_AddItemToObject(o, "run", res_json(pc, impl, r));
    return o;
}

static const char *jstr(const cJSON *o, const char *key) {
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(s) ? s->valuestring : "";
}

/* ------------------------------------------------------------ report */

#define MAXK 12 /* background kernels in one report (EDGE Sec. V lists nine) */

/* Prints the tables and writes the result file from the points (objects
 * of point_json, any order); rtl_check (or NULL) is kept in the file.
 * 0, or 1 if a point failed, is missing or the file cannot be written. */
static int report(const cJSON *points, cJSON *rtl_check, const char *out, const char *prog) {
    pconf confs[MAXCONF];
    unsigned nconf = make_confs(confs), nk = 0;
    const char *kernels[MAXK];
    const cJSON *pt[MAXK][MAXCONF] = {{0}}, *first = cJSON_GetArrayItem(points, 0), *p;
    int bad = 0;
    cJSON_ArrayForEach(p, points) {
        const cJSON *run = cJSON_GetObjectItemCaseSensitive(p, "run");
        const char *kern = jstr(p, "kernel");
        unsigned c = conf_by_label(confs, nconf, jstr(run, "config")), k = 0;
        while (k < nk && strcmp(kernels[k], kern)) k++;
        if (!*kern || c == nconf || (k == nk && nk == MAXK)) {
            fprintf(stderr, "%s: a point with kernel '%s' and configuration '%s' is not part of EDGE Fig. 11\n", prog,
                    kern, jstr(run, "config"));
            return 1;
        }
        if (strcmp(jstr(p, "size"), jstr(first, "size")) || fg_json_num(p, "seed") != fg_json_num(first, "seed") ||
            fg_json_num(p, "gap_cycles") != fg_json_num(first, "gap_cycles") ||
            strcmp(jstr(run, "impl"), jstr(cJSON_GetObjectItemCaseSensitive(first, "run"), "impl"))) {
            fprintf(stderr, "%s: points differ in size, seed, gap or impl: report one setting at a time\n", prog);
            return 1;
        }
        if (k == nk) kernels[nk++] = kern;
        if (pt[k][c]) {
            fprintf(stderr, "%s: two points for %s %s\n", prog, kern, confs[c].label);
            return 1;
        }
        pt[k][c] = p;
    }
    const char *size = jstr(first, "size"), *impl = jstr(cJSON_GetObjectItemCaseSensitive(first, "run"), "impl");
    double seed = fg_json_num(first, "seed"), gap = fg_json_num(first, "gap_cycles");
    printf("\nWarp-level preemption latency (EDGE Fig. 11): IPv4 event warps on a GPU full of each background\n"
           "kernel, %s sizes, arrivals every %.0f +- %.0f cycles (seed %.0f), blocks: %s\n",
           size, gap, (double)((unsigned long long)gap / 2), seed, impl);
    printf("preemption latency = event reaches the SIMT core scheduler -> warp context ready (cycles);\n"
           "avg-preem over events that preempted a victim (EDGE Fig. 11), avg-all / p50 / p99 / max over\n"
           "all events (those finding a free context start in 2 cycles)\n\n");
    /* a point is usable when present and ok; a configuration no kernel ran
     * is not part of this experiment (a counterfactual runs a subset:
     * experiments/edge_fig11_*.ini), one some kernels lack is a failure */
    const cJSON *use[MAXK][MAXCONF];
    bool ran[MAXCONF] = {0};
    for (unsigned k = 0; k < nk; k++)
        for (unsigned c = 0; c < nconf; c++) ran[c] |= pt[k][c] != NULL;
    for (unsigned k = 0; k < nk; k++) {
        for (unsigned c = 0; c < nconf; c++) {
            use[k][c] = pt[k][c] && cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(pt[k][c], "ok"))
                            ? cJSON_GetObjectItemCaseSensitive(pt[k][c], "run") : NULL;
            if (!use[k][c] && ran[c]) bad = 1;
        }
        const cJSON *k0 = pt[k][0] ? pt[k][0] : first;
        double rb = fg_json_num(k0, "regs_background"), re = fg_json_num(k0, "regs_event");
        printf("%s: %s; regs/thread background %.0f, event %.0f%s\n", kernels[k], jstr(k0, "description"), rb, re,
               rb < re ? " (no victim is eligible: events wait for free contexts)" : "");
        printf("  %-17s %6s %6s %9s %9s %7s %8s %9s   victims waiting on: pipe  sb  load  i$  bar  membar\n", "config",
               "events", "preem", "avg-preem", "avg-all", "p50", "p99", "max");
        for (unsigned c = 0; c < nconf; c++) {
            const cJSON *r = use[k][c];
            if (!r && !ran[c]) continue;
            if (!r) {
                printf("  %-17s FAILED: %s\n", confs[c].label, pt[k][c] ? jstr(pt[k][c], "error") : "no point");
                continue;
            }
            printf("  %-17s %6.0f %6.0f %9.1f %9.1f %7.0f %8.0f %9.0f   ", confs[c].label, fg_json_num(r, "events"),
                   fg_json_num(r, "preempted"), fg_json_num(r, "avg_preemption_cycles_preempted_only"),
                   fg_json_num(r, "avg_preemption_cycles"), fg_json_num(r, "p50_preemption_cycles"),
                   fg_json_num(r, "p99_preemption_cycles"), fg_json_num(r, "max_preemption_cycles"));
            const cJSON *vs = cJSON_GetObjectItemCaseSensitive(r, "victim_waiting_on");
            printf("%4.0f%% %3.0f%% %4.0f%% %3.0f%% %3.0f%% %5.0f%%\n", 100 * fg_json_num(vs, PRUN_VS_NAMES[0]),
                   100 * fg_json_num(vs, PRUN_VS_NAMES[1]), 100 * fg_json_num(vs, PRUN_VS_NAMES[2]),
                   100 * fg_json_num(vs, PRUN_VS_NAMES[3]), 100 * fg_json_num(vs, PRUN_VS_NAMES[4]),
                   100 * fg_json_num(vs, PRUN_VS_NAMES[6]));
        }
    }
    /* summary: the paper averages each policy's average latency over the benchmarks */
    cJSON *root = cJSON_CreateObject(), *summ = cJSON_CreateObject();
    printf("\nAverage over kernels (EDGE Fig. 11c)       none      all   reduction   paper\n");
    static const char *const PAPER[] = {"35.9x, ~50 cycles", "33.7x, ~220 cycles", "(ours)"};
    for (unsigned pol = 0; pol < 3; pol++) {
        unsigned cn = conf_index(confs, nconf, pol, 0, true), ca = conf_index(confs, nconf, pol, PRE_OPT_ALL, true);
        double sn = 0, sa = 0, fn = 0, fa = 0; /* from arrival; from the victim's choice (the artifact's) */
        unsigned n = 0;
        for (unsigned k = 0; k < nk; k++) {
            const cJSON *a = use[k][cn], *b = use[k][ca];
            if (!a || !b || !fg_json_num(a, "preempted")) continue;
            sn += fg_json_num(a, "avg_preemption_cycles_preempted_only");
            sa += fg_json_num(b, "avg_preemption_cycles_preempted_only");
            fn += fg_json_num(a, "avg_flush_cycles_preempted_only");
            fa += fg_json_num(b, "avg_flush_cycles_preempted_only");
            n++;
        }
        if (!n) continue;
        sn /= n, sa /= n, fn /= n, fa /= n;
        printf("  %-8s (%u kernels)                  %8.1f %8.1f %10.1fx   %s\n", edge_preempt_policy_names[pol], n, sn,
               sa, sa > 0 ? sn / sa : 0, PAPER[pol]);
        printf("    from the victim's choice (artifact)  %8.1f %8.1f %10.1fx\n", fn, fa, fa > 0 ? fn / fa : 0);
        cJSON *o = cJSON_AddObjectToObject(summ, edge_preempt_policy_names[pol]);
        cJSON_AddNumberToObject(o, "avg_none_cycles", sn);
        cJSON_AddNumberToObject(o, "avg_all_cycles", sa);
        cJSON_AddNumberToObject(o, "reduction", sa > 0 ? sn / sa : 0);
        /* EDGE's artifact counts from the victim's choice to its drained context (shader.cc's
         * _edgeCurrentIntSchedStallCycles): without the scheduler, PEWT and selection cycles */
        cJSON_AddNumberToObject(o, "avg_none_flush_cycles", fn);
        cJSON_AddNumberToObject(o, "avg_all_flush_cycles", fa);
        cJSON_AddNumberToObject(o, "reduction_flush", fa > 0 ? fn / fa : 0);
        cJSON_AddNumberToObject(o, "kernels", n);
    }
    {
        unsigned cd = conf_index(confs, nconf, 0, 0, false), ca = conf_index(confs, nconf, PRE_POL_OLDEST, PRE_OPT_ALL, true);
        double sd = 0, sa = 0;
        unsigned n = 0;
        for (unsigned k = 0; k < nk; k++) {
            if (!use[k][cd] || !use[k][ca]) continue;
            /* every event: draining never preempts */
            sd += fg_json_num(use[k][cd], "avg_preemption_cycles");
            sa += fg_json_num(use[k][ca], "avg_preemption_cycles");
            n++;
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
    cJSON_AddStringToObject(root, "size", size);
    cJSON_AddStringToObject(root, "impl", impl);
    {   /* one --impl switches every RTL block of the run (run_one) */
        gpu_config g;
        gpu_config_default(&g);
        fg_impl im = FG_IMPL_C;
        fg_impl_parse(impl, &im);
        g.pre.impl = g.mem.fe_impl = im;
        fg_block_use uses[4];
        fg_json_add_blocks(root, uses, gpu_config_blocks(&g, uses, 4));
    }
    cJSON_AddNumberToObject(root, "seed", seed);
    cJSON_AddNumberToObject(root, "gap_cycles", gap);
    cJSON_AddItemToObject(root, "summary", summ);
    cJSON *pap = cJSON_AddObjectToObject(root, "paper");
    cJSON_AddNumberToObject(pap, "oldest_reduction", 35.9);
    cJSON_AddNumberToObject(pap, "newest_reduction", 33.7);
    cJSON_AddNumberToObject(pap, "oldest_all_cycles", 50);
    cJSON_AddNumberToObject(pap, "newest_all_cycles", 220);
    cJSON *kk = cJSON_AddObjectToObject(root, "kernels");
    for (unsigned k = 0; k < nk; k++) {
        cJSON *o = cJSON_AddObjectToObject(kk, kernels[k]);
        const cJSON *k0 = pt[k][0] ? pt[k][0] : first;
        cJSON_AddStringToObject(o, "description", jstr(k0, "description"));
        cJSON_AddNumberToObject(o, "regs_background", fg_json_num(k0, "regs_background"));
        cJSON_AddNumberToObject(o, "regs_event", fg_json_num(k0, "regs_event"));
        cJSON *runs = cJSON_AddArrayToObject(o, "runs");
        for (unsigned c = 0; c < nconf; c++)
            if (pt[k][c])
                cJSON_AddItemToArray(runs, cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(pt[k][c], "run"), 1));
    }
    if (rtl_check) cJSON_AddItemToObject(root, "rtl_check", rtl_check);
    bad |= exp_write_result(root, out, prog);
    cJSON_Delete(root);
    return bad;
}

/* ------------------------------------------------- the sweep on its own */

typedef struct {
    const char *kern;
    pconf pc;
    fg_impl impl;
    prun_result res;
    pid_t pid;
    int fd;
    bool done;
} job;

static void run_one(const job *j, const prun_params *x, const gpu_config *gc, prun_result *r) {
    gpu_config g = *gc;
    g.pre.policy = j->pc.policy;
    g.pre.opts = j->pc.opts;
    g.pre.enable = j->pc.enable;
    g.pre.impl = j->impl; /* every RTL block of the run: PEWTs, controllers, the partitions' F/E queues */
    g.mem.fe_impl = j->impl;
    prun_run(x, &g, j->kern, r);
}

static int run_jobs(job *jobs, unsigned n, unsigned par, const prun_params *x, const gpu_config *gc) {
    unsigned next = 0, running = 0, finished = 0, failed = 0;
    fg_progress pr;
    fg_progress_init(&pr);
    if (par > 1) setenv("FG_THREADS", "1", 0); /* --jobs side by side: one thread each (gpu.threads = 0) */
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
                run_one(&jobs[next], x, gc, &r);
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
        fg_progress_counts(&pr, "preemption_latency", finished - failed, running, failed, n);
        int st;
        pid_t pid = pr.tty ? waitpid(-1, &st, WNOHANG) : wait(&st); /* a terminal: keep the ETA moving */
        if (pid == 0) {
            nanosleep(&(struct timespec){0, 200000000}, NULL);
            continue;
        }
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
            failed += !r->ok;
            fg_progress_line(&pr, "  %-5s %-16s %s: %s (%.1f s)", jobs[i].kern, jobs[i].pc.label,
                             fg_impl_name(jobs[i].impl), r->ok ? "ok" : r->err, r->wall);
        }
    }
    fg_progress_clear(&pr);
    return 0;
}

static int sweep(const prun_params *x, const gpu_config *gc, fg_impl impl, unsigned par, bool rtl_check,
                 const char *out, const char *prog) {
    pconf confs[MAXCONF];
    unsigned nconf = make_confs(confs);
    char kl[64], *kernels[MAXK];
    unsigned nk = 0;
    snprintf(kl, sizeof kl, "%s", x->kernels);
    for (char *t = strtok(kl, ","); t && nk < MAXK; t = strtok(NULL, ",")) kernels[nk++] = t;
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
    fprintf(stderr, "%s: %u runs (%u kernels x %u configurations%s), %u at a time, blocks: %s\n", prog, nj, nk,
            nconf, rtl_check ? " + RTL checks" : "", par, fg_impl_name(impl));
    if (run_jobs(jobs, nj, par, x, gc)) return 1;
    int bad = 0;
    for (unsigned i = 0; i < nj; i++)
        if (!jobs[i].res.ok) {
            fprintf(stderr, "%s: %s %s: %s\n", prog, jobs[i].kern, jobs[i].pc.label, jobs[i].res.err);
            bad = 1;
        }
    cJSON *rc = NULL;
    if (rtl_check) {
        rc = cJSON_CreateArray();
        for (unsigned k = 0; k < nk; k++) {
            const prun_result *a = &jobs[k * nconf + check_conf].res, *b = &jobs[nk * nconf + k].res;
            if (a->ok && b->ok &&
                (a->avg_start != b->avg_start || a->max_start != b->max_start || a->gpu_cycles != b->gpu_cycles ||
                 a->preempted != b->preempted)) {
                fprintf(stderr, "%s: %s: RTL run differs from the C-twin run (avg %.3f vs %.3f, cycles %llu vs %llu)\n",
                        prog, kernels[k], b->avg_start, a->avg_start, (unsigned long long)b->gpu_cycles,
                        (unsigned long long)a->gpu_cycles);
                bad = 1;
            }
            cJSON_AddItemToArray(rc, res_json(&jobs[nk * nconf + k].pc, FG_IMPL_RTL, b));
        }
    }
    cJSON *points = cJSON_CreateArray();
    for (unsigned i = 0; i < nk * nconf; i++)
        cJSON_AddItemToArray(points, point_json(x, jobs[i].kern, &jobs[i].pc, jobs[i].impl, &jobs[i].res));
    bad |= report(points, rc, out, prog);
    cJSON_Delete(points);
    free(jobs);
    return bad;
}

/* --point: one run, as the configuration says */
static int one_point(const prun_params *x, const gpu_config *gc, const char *out, const char *prog) {
    if (strchr(x->kernels, ',')) {
        fprintf(stderr, "%s: --point runs one kernel; [preemption_latency] kernels = %s\n", prog, x->kernels);
        return 2;
    }
    pconf confs[MAXCONF];
    unsigned nconf = make_confs(confs), c = conf_index(confs, nconf, gc->pre.policy, gc->pre.opts, gc->pre.enable);
    pconf pc = {gc->pre.policy, gc->pre.opts, gc->pre.enable, ""};
    if (c < nconf) pc = confs[c];
    else snprintf(pc.label, sizeof pc.label, "%s/0x%x", edge_preempt_policy_names[pc.policy], pc.opts);
    prun_result r;
    prun_run(x, gc, x->kernels, &r);
    if (!r.ok) {
        fprintf(stderr, "%s: %s %s: %s\n", prog, x->kernels, pc.label, r.err);
        return 1;
    }
    cJSON *o = point_json(x, x->kernels, &pc, gc->pre.impl, &r);
    char err[600];
    int bad = fg_json_write(o, out, err, sizeof err);
    if (bad) fprintf(stderr, "%s: %s\n", prog, err);
    else printf("%s %s: %llu events, %llu preempted, avg %.1f cycles (%.1f s); wrote %s\n", x->kernels, pc.label,
                (unsigned long long)r.events, (unsigned long long)r.preempted, r.avg_start_pre, r.wall, out);
    cJSON_Delete(o);
    return bad ? 1 : 0;
}

int main(int argc, char **argv) {
    const char *size_s = NULL, *kern_s = NULL;
    unsigned par = 0;
    bool rtl_check = false;
    char err[512];
    exp_cli a;
    exp_cli_init(&a, "configs/edge.ini", "configs/preemption_latency.ini", "results/preemption_latency.json");
    const fg_opt opts[] = {
        FG_OPT_GROUP(a.opts),
        FG_OPT_STR("--size", &size_s, "paper|test", "the kernels' input size (default: [preemption_latency] size)"),
        FG_OPT_STR("--kernels", &kern_s, "LIST", "comma-separated, of conv,mm,bp,bfs,conv2,sc,kmn,srad,lud"),
        FG_OPT_UINT("--jobs", &par, 0, 1024, "N", "points run at once (default 0: the processors)"),
        FG_OPT_FLAG("--rtl-check", &rtl_check, "repeat one configuration per kernel with the blocks as RTL; same figures required"),
        FG_OPT_END};
    const fg_cli cli = {"preemption_latency", "[options]\n... --point --out POINT.json\n--merge LIST --out FILE", NULL, opts, NULL};
    fg_cli_parse(&cli, argc, argv);
    fg_config *cfg = fg_config_new();
    if (!cfg) return 2;
    const char *out = a.out;
    int rc = 2;
    if (a.merge) {
        cJSON *points = exp_cli_points(&a, cli.prog);
        rc = points ? report(points, NULL, out, cli.prog) : 2;
        cJSON_Delete(points);
        goto done;
    }
    if (exp_cli_load(&a, cfg, err, sizeof err)) goto cfg_err;
    gpu_config gc;
    gpu_config_default(&gc);
    prun_params x;
    prun_params_default(&x);
    if (gpu_config_load(&gc, cfg, err, sizeof err) || prun_params_load(&x, cfg, err, sizeof err) ||
        exp_cli_check_unused(cfg, "preemption_latency", err, sizeof err))
        goto cfg_err;
    if (exp_cli_checked(&a, cli.prog)) {
        rc = 0;
        goto done;
    }
    if (size_s) snprintf(x.size, sizeof x.size, "%s", size_s);
    if (kern_s) snprintf(x.kernels, sizeof x.kernels, "%s", kern_s);
    if (exp_cli_impl(&a, &gc, err, sizeof err)) goto cfg_err;
    if (a.point) {
        rc = one_point(&x, &gc, out, cli.prog);
        if (fg_wave_finish() && !rc) rc = 1;
        goto done;
    }
    if (fg_wave_on()) {
        fprintf(stderr, "%s: --wave traces one run: give --point\n", cli.prog);
        rc = 2;
        goto done;
    }
    if (!par) par = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    if (!par) par = 1;
    rc = sweep(&x, &gc, gc.pre.impl, par, rtl_check, out, cli.prog);
done:
    exp_cli_free(&a);
    fg_config_free(cfg);
    return rc;
cfg_err:
    fprintf(stderr, "%s: %s\n", cli.prog, err);
    goto done;
}
