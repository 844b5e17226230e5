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
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "edge_preempt.h"
#include "fg_config.h"
#include "fg_util.h"
#include "simt/gpu.h"
#include "work/bg_kernels.h"
#include "work/ipv4_work.h"

#define SLOTS 128
#define NVS 6

typedef struct {
    unsigned policy, opts;
    bool enable;
    char label[24];
} pconf;

typedef struct { /* [preemption_latency] */
    char size[16], kernels[64];
    uint64_t seed, gap, warmup, max_events, prio;
} exp_params;

typedef struct { /* one run, sent from the worker process through a pipe */
    int ok;
    char err[384];
    uint64_t events, preempted, saved, aborts, drops, skips, resumes;
    double avg_start, avg_first, avg_start_pre;
    uint64_t p50_start, p99_start, max_start, max_first;
    uint64_t vs[NVS], bg_cycles, gpu_cycles, ipv4_packets;
    unsigned regs_bg, regs_ev;
    char desc[96];
    double wall;
} run_res;

typedef struct {
    uint64_t *start, *first;
    unsigned n, cap;
    run_res *r;
    bool *busy;
    unsigned pending[SLOTS], npend;
    bg_run *bg;
} run_ctx;

static const char *const VS_NAMES[NVS] = {"pipeline", "scoreboard", "load", "icache_miss", "barrier", "ibuf"};

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void on_first(void *u, uint64_t tag, uint64_t cyc) { (void)u, (void)tag, (void)cyc; }
static void on_done(void *u, uint64_t tag, uint64_t cyc) {
    run_ctx *x = u;
    if (tag >= BG_TAG_BASE) bg_on_complete(x->bg, tag, cyc);
    else x->pending[x->npend++] = (unsigned)tag;
}
static void on_event(void *u, uint64_t tag, const gpu_event_info *i) {
    run_ctx *x = u;
    (void)tag;
    if (x->n == x->cap) {
        x->cap = x->cap ? 2 * x->cap : 256;
        x->start = realloc(x->start, x->cap * sizeof *x->start);
        x->first = realloc(x->first, x->cap * sizeof *x->first);
        if (!x->start || !x->first) abort();
    }
    x->start[x->n] = i->start - i->arrive;
    x->first[x->n++] = i->first - i->arrive;
    if (i->preempted) {
        x->r->preempted++;
        x->r->avg_start_pre += (double)(i->start - i->arrive);
        for (unsigned b = 0; b < NVS; b++) x->r->vs[b] += i->vstat >> b & 1;
    }
    x->r->saved += i->saved;
}

/* One run: a fresh GPU, the background kernel, the seeded arrivals. */
static void run_one(const exp_params *x, const gpu_config *gc0, const char *kern, const pconf *pc, fg_impl impl,
                    run_res *r) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(r, 0, sizeof *r);
    gpu_config gc = *gc0;
    gc.pre.policy = pc->policy;
    gc.pre.opts = pc->opts;
    gc.pre.enable = pc->enable;
    gc.pre.impl = impl;
    char err[256], kdir[256];
    const char *bd = getenv("BUILD");
    snprintf(kdir, sizeof kdir, "%s/sw", bd && *bd ? bd : "build");
    char ipv4elf[300];
    snprintf(ipv4elf, sizeof ipv4elf, "%s/ipv4_fwd.elf", kdir);
    run_ctx c = {.r = r};
    ipv4_work w = {0};
    bool wok = false;
    gpu_t *g = gpu_new(&gc, err, sizeof err);
    if (!g) { snprintf(r->err, sizeof r->err, "gpu: %s", err); return; }
    route_gen_params rp;
    route_gen_params_default(&rp);
    c.bg = bg_new(g, kern, x->size, kdir, x->seed, err, sizeof err);
    if (!c.bg) { snprintf(r->err, sizeof r->err, "%s", err); goto out; }
    if (ipv4_work_init(&w, g, &rp, ipv4elf, SLOTS, err, sizeof err)) {
        snprintf(r->err, sizeof r->err, "%s", err);
        goto out;
    }
    wok = true;
    snprintf(r->desc, sizeof r->desc, "%s", bg_describe(c.bg));
    r->regs_bg = bg_regs_per_thread(c.bg);
    r->regs_ev = w.k.regs_per_thread;
    bool busy[SLOTS] = {0};
    gpu_callbacks cb = {on_first, on_done, &c};
    gpu_set_callbacks(g, &cb);
    gpu_set_event_callback(g, on_event, &c);
    if (bg_start(c.bg, err, sizeof err)) { snprintf(r->err, sizeof r->err, "%s", err); goto out; }
    /* arrivals: the same for every configuration of this kernel */
    fg_rng arr, pk;
    uint64_t ks = 0;
    for (const char *p = kern; *p; p++) ks = ks * 131 + (unsigned char)*p;
    fg_rng_seed(&arr, x->seed ^ ks);
    fg_rng_seed(&pk, x->seed ^ ks ^ 0x5eed);
    uint64_t next = x->warmup + fg_rng_below(&arr, x->gap), sent = 0;
    const uint64_t limit = 2000000000ull;
    while (!gpu_idle(g) && gpu_cycle(g) < limit) {
        uint64_t now = gpu_cycle(g);
        if (now >= next && sent < x->max_events && !bg_done(c.bg)) {
            unsigned slot = (unsigned)(sent % SLOTS);
            if (!busy[slot]) { /* else the arrival waits for its slot's previous event */
                if (ipv4_work_fill(&w, g, slot, IPV4_PKTS_PER_EVENT, &pk, err, sizeof err)) {
                    snprintf(r->err, sizeof r->err, "%s", err);
                    goto out;
                }
                gpu_launch_desc d = ipv4_work_desc(&w, slot, IPV4_PKTS_PER_EVENT, (unsigned)x->prio, slot);
                if (gpu_launch(g, &d, err, sizeof err)) {
                    snprintf(r->err, sizeof r->err, "%s", err);
                    goto out;
                }
                busy[slot] = true;
                sent++;
                next = now + x->gap / 2 + fg_rng_below(&arr, x->gap);
            }
        }
        gpu_tick(g);
        while (c.npend) {
            unsigned slot = c.pending[--c.npend];
            busy[slot] = false;
            if (ipv4_work_check(&w, g, slot, IPV4_PKTS_PER_EVENT, err, sizeof err)) {
                snprintf(r->err, sizeof r->err, "%s", err);
                goto out;
            }
        }
    }
    if (gpu_error(g)) { snprintf(r->err, sizeof r->err, "gpu: %s", gpu_error(g)); goto out; }
    if (!gpu_idle(g)) { snprintf(r->err, sizeof r->err, "no progress after %llu cycles", (unsigned long long)limit); goto out; }
    if (!bg_done(c.bg)) { snprintf(r->err, sizeof r->err, "background kernel did not finish"); goto out; }
    if (bg_check(c.bg, err, sizeof err)) { snprintf(r->err, sizeof r->err, "%s", err); goto out; }
    if (c.n != sent) {
        snprintf(r->err, sizeof r->err, "%llu events sent, %u started", (unsigned long long)sent, c.n);
        goto out;
    }
    gpu_preempt_stats ps;
    gpu_get_preempt_stats(g, &ps);
    if (ps.errors) { snprintf(r->err, sizeof r->err, "%llu PEWT/controller errors", (unsigned long long)ps.errors); goto out; }
    r->events = c.n;
    r->aborts = ps.aborts;
    r->drops = ps.drops;
    r->skips = ps.skips;
    r->resumes = ps.resumes;
    r->bg_cycles = bg_cycles(c.bg);
    r->gpu_cycles = gpu_cycle(g);
    r->ipv4_packets = w.checked;
    if (c.n) {
        double ss = 0, sf = 0;
        for (unsigned i = 0; i < c.n; i++) ss += (double)c.start[i], sf += (double)c.first[i];
        r->avg_start = ss / c.n;
        r->avg_first = sf / c.n;
        if (r->preempted) r->avg_start_pre /= (double)r->preempted;
        qsort(c.first, c.n, sizeof *c.first, cmp_u64);
        r->max_first = c.first[c.n - 1];
        qsort(c.start, c.n, sizeof *c.start, cmp_u64);
        r->p50_start = c.start[c.n / 2];
        r->p99_start = c.start[(c.n * 99) / 100 < c.n ? (c.n * 99) / 100 : c.n - 1];
        r->max_start = c.start[c.n - 1];
    }
    r->ok = 1;
out:
    clock_gettime(CLOCK_MONOTONIC, &t1);
    r->wall = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    if (wok) ipv4_work_free(&w);
    bg_free(c.bg);
    free(c.start);
    free(c.first);
    gpu_free(g);
}

/* ------------------------------------------------------------ driver */

typedef struct {
    const char *kern;
    pconf pc;
    fg_impl impl;
    run_res res;
    pid_t pid;
    int fd;
    bool done;
} job;

static int run_jobs(job *jobs, unsigned n, unsigned par, const exp_params *x, const gpu_config *gc) {
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
                run_res r;
                run_one(x, gc, jobs[next].kern, &jobs[next].pc, jobs[next].impl, &r);
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
            const run_res *r = &jobs[i].res;
            fprintf(stderr, "  %-5s %-16s %s: %s (%.1f s)\n", jobs[i].kern, jobs[i].pc.label,
                    fg_impl_name(jobs[i].impl), r->ok ? "ok" : r->err, r->wall);
        }
    }
    return 0;
}

static int load_params(exp_params *x, fg_config *cfg, char *err, size_t errlen) {
    snprintf(x->size, sizeof x->size, "paper");
    snprintf(x->kernels, sizeof x->kernels, "conv,mm,bp,bfs");
    x->seed = 1;
    x->gap = 2000;
    x->warmup = 2000;
    x->max_events = 300;
    x->prio = 3;
    const char *s = fg_config_str(cfg, "preemption_latency", "size");
    if (s) snprintf(x->size, sizeof x->size, "%s", s);
    s = fg_config_str(cfg, "preemption_latency", "kernels");
    if (s) snprintf(x->kernels, sizeof x->kernels, "%s", s);
    if (fg_config_u64(cfg, "preemption_latency", "seed", 0, UINT64_MAX, &x->seed, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "gap_cycles", 2, 100000000, &x->gap, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "warmup_cycles", 0, 100000000, &x->warmup, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "max_events", 1, 1000000, &x->max_events, err, errlen) ||
        fg_config_u64(cfg, "preemption_latency", "event_priority", 1, 3, &x->prio, err, errlen))
        return -1;
    return 0;
}

static cJSON *res_json(const job *j) {
    const run_res *r = &j->res;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "config", j->pc.label);
    cJSON_AddStringToObject(o, "policy", j->pc.enable ? (const char *[]){"oldest", "newest", "cheapest"}[j->pc.policy] : "draining");
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
    for (unsigned b = 0; b < NVS; b++)
        cJSON_AddNumberToObject(vs, VS_NAMES[b], r->preempted ? (double)r->vs[b] / (double)r->preempted : 0);
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
    exp_params x;
    if (gpu_config_load(&gc, cfg, err, sizeof err) || load_params(&x, cfg, err, sizeof err)) goto cfg_err;
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
        {PRE_OPT_DROP, "drop"}, {PRE_OPT_BOOST | PRE_OPT_IBUF | PRE_OPT_BARSKIP | PRE_OPT_DROP, "all"}};
    static const char *const POL[] = {"oldest", "newest", "cheapest"};
    pconf confs[16];
    unsigned nconf = 0;
    for (unsigned p = 0; p < 3; p++)
        for (unsigned o = 0; o < 6; o++) {
            if (p == PRE_POL_CHEAPEST && o != 0 && o != 5) continue;
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
    unsigned check_conf = nconf - 2; /* cheapest/all: every mechanism in use */
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
            const run_res *a = &jobs[k * nconf + check_conf].res, *b = &jobs[nk * nconf + k].res;
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
        const run_res *r0 = &jobs[k * nconf].res;
        printf("%s: %s; regs/thread background %u, event %u%s\n", kernels[k], r0->desc, r0->regs_bg, r0->regs_ev,
               r0->regs_bg < r0->regs_ev ? " (no victim is eligible: events wait for free contexts)" : "");
        printf("  %-17s %6s %6s %9s %9s %7s %8s %9s   victims waiting on: pipe  sb  load  i$  bar\n", "config",
               "events", "preem", "avg-preem", "avg-all", "p50", "p99", "max");
        for (unsigned c = 0; c < nconf; c++) {
            const run_res *r = &jobs[k * nconf + c].res;
            if (!r->ok) { printf("  %-17s FAILED: %s\n", confs[c].label, r->err); continue; }
            printf("  %-17s %6llu %6llu %9.1f %9.1f %7llu %8llu %9llu   ", confs[c].label,
                   (unsigned long long)r->events, (unsigned long long)r->preempted, r->avg_start_pre, r->avg_start,
                   (unsigned long long)r->p50_start, (unsigned long long)r->p99_start,
                   (unsigned long long)r->max_start);
            double d = r->preempted ? (double)r->preempted : 1;
            printf("%4.0f%% %3.0f%% %4.0f%% %3.0f%% %3.0f%%\n", 100 * r->vs[0] / d, 100 * r->vs[1] / d,
                   100 * r->vs[2] / d, 100 * r->vs[3] / d, 100 * r->vs[4] / d);
        }
    }
    /* summary: the paper averages each policy's average latency over the benchmarks */
    cJSON *root = cJSON_CreateObject(), *summ = cJSON_CreateObject();
    printf("\nAverage over kernels (EDGE Fig. 11c)       none      all   reduction   paper\n");
    static const char *const PAPER[] = {"35.9x, ~50 cycles", "33.7x, ~220 cycles", "(ours)"};
    for (unsigned p = 0; p < 3; p++) {
        unsigned cn = 0, ca = 0;
        for (unsigned c = 0; c < nconf; c++) {
            if (!confs[c].enable || confs[c].policy != p) continue;
            if (confs[c].opts == 0) cn = c;
            if (confs[c].opts == 15) ca = c;
        }
        double sn = 0, sa = 0;
        unsigned n = 0;
        for (unsigned k = 0; k < nk; k++) {
            const run_res *a = &jobs[k * nconf + cn].res, *b = &jobs[k * nconf + ca].res;
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
            const run_res *d = &jobs[k * nconf + nconf - 1].res, *a = &jobs[k * nconf + 5].res;
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
    char *txt = cJSON_Print(root);
    mkdir("results", 0777);
    FILE *f = fopen(out, "w");
    if (!f || !txt || fputs(txt, f) < 0 || fclose(f)) {
        fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], out, strerror(errno));
        bad = 1;
    } else {
        printf("\nwrote %s\n", out);
    }
    free(txt);
    cJSON_Delete(root);
    free(jobs);
    free(sets);
    fg_config_free(cfg);
    return bad;
cfg_err:
    fprintf(stderr, "%s: %s\n", argv[0], err);
    return 2;
}
