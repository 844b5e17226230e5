/* fg_wave: see fg_wave.h.  Each instance writes its own FST while the run
 * goes (Verilator's for the RTL, fstapi here for a twin's ports) in its own
 * cycles; fg_wave_finish() shifts each to the system's cycles, crops them to
 * the window and merges them, in time order, into the one FST.  A block the
 * simulator skips while idle (fg_block_skip) is not clocked, so its clk_i
 * pauses and its registers hold; sys.clk is the system's clock throughout. */
#define _GNU_SOURCE /* strverscmp: core10 after core9 */
#include "fg_wave.h"

#include <errno.h>
#include <gtkwave/fstapi.h>
#include <inttypes.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fg_shim.h"
#include "fg_util.h"

extern char **environ;

enum { PS = 1000 }; /* FST time units per cycle, as sim/harness/fg_shim.cpp */

/* The events --wave-at centres on: when a block's ports show one. */
enum { HANDSHAKE, COUNT_UP, CHANGE };
static const struct {
    const char *kind, *block, *port, *ready, *focus, *what;
    int rule;
} MARKS[] = {
    {"ring", "edge_doorbell", "ring_valid_o", "ring_ready_i", "ring_valid_o", "doorbell ring", HANDSHAKE},
    {"preempt", "edge_preempt", "cnt_start_pre_o", NULL, "cmd_o", "preemption start", COUNT_UP},
    {"nack", "fe_sched_queues", "nack_valid_o", "nack_ready_i", "nack_valid_o", "F/E NACK", HANDSHAKE},
    {"limit", "cm_bal_monitor", "cpu_limit_o", NULL, "cpu_limit_o", "warp-limit change", CHANGE},
};
enum { N_MARKS = sizeof MARKS / sizeof *MARKS };

/* A ring is followed to its event warp's START (EDGE III-C, IV-C): the EKT
 * sends the descriptor, the dispatch hands it to one core's PEWT, that core's
 * preemption controller starts it.  FOLLOW_TAIL cycles after the START are kept. */
enum { FOLLOW_NONE, FOLLOW_EVW, FOLLOW_PUSH, FOLLOW_START, FOLLOW_DONE };
enum { FOLLOW_LEAD = 50, FOLLOW_TAIL = 50 };

typedef struct {
    fg_block *b; /* NULL once detached */
    const fg_block_class *cls;
    unsigned seq;
    char place[128];
    uint64_t offset;                     /* block cycles before the system's cycle 0 (no clock) */
    bool placed, on;                     /* named; this edge is dumped */
    uint64_t cur, last;                  /* this edge's system cycle; the last dumped + 1 (0: none) */
    char rtl_path[700], twin_path[700];  /* per-instance FSTs ("" = none) */
    void *tw;                            /* the twin's port writer */
    fstHandle tw_clk, *tw_h;             /* in ports then out ports */
    uint64_t *tw_v;                      /* their last values */
    bool tw_any;
} inst;

static struct {
    bool on, finished, merging, second_run;
    char path[512], parts[600];
    uint64_t start, end; /* the window, system cycles (end 0: the run's end) */
    int at;              /* MARKS index, or -1 */
    int at_prog;         /* or the program's event: an index into its kinds (fg_wave_kinds), or -1 */
    char at_arg[64];     /* the program's event's argument (not N) */
    uint64_t at_n, span, seen, at_cycle;
    const inst *at_inst; /* where a block's event showed */
    char at_place[128];  /* the event's place ("" none) */
    char (*show)[128];   /* the places shown first without an event (fg_wave_show) */
    unsigned n_show;
    bool at_found, span_given;
    /* a ring's window runs on to its event warp's START: the stage of that
     * chain being followed (FOLLOW_*), the descriptor's parameter entry (which
     * tells the warp in a PEWT), the core whose PEWT took it */
    int follow;
    uint64_t follow_param, start_cycle;
    char follow_core[128];
    inst **v;
    unsigned n, cap;
    const uint64_t *clock; /* the system's cycle counter, or NULL: each block's own */
    uint64_t clock_end;    /* its largest value when it went away (0: none) */
} W = {.at = -1, .at_prog = -1, .span = 1000};

/* the events the program reports itself (fg_wave_kinds) */
static const fg_wave_kind *PK;
static unsigned N_PK;

/* An event was asked for (--wave-at). */
static bool asked(void) { return W.at >= 0 || W.at_prog >= 0; }

/* The asked-for event in words: "doorbell ring #2", "kernel fault", "first issue of pc saxpy+0x68". */
static void at_what(char *buf, size_t len) {
    if (W.at >= 0) {
        snprintf(buf, len, "%s #%" PRIu64, MARKS[W.at].what, W.at_n);
        return;
    }
    const fg_wave_kind *k = &PK[W.at_prog];
    if (!k->arg) snprintf(buf, len, "%s", k->what);
    else if (!strcmp(k->arg, "N")) snprintf(buf, len, "%s #%" PRIu64, k->what, W.at_n);
    else snprintf(buf, len, "%s %s", k->what, W.at_arg);
}

/* What fg_block calls for each instance while a wave is asked for (installed
 * by the --wave option, removed by fg_wave_finish). */
static void wave_attach(fg_block *b);
static void wave_edge(fg_block *b);
static void wave_step(fg_block *b, const void *in, const void *out_before);
static void wave_detach(fg_block *b);
static const fg_block_tracer tracer;

/* (nothing to do without a wave: a program's sweep may create GPUs on several threads) */
void fg_wave_clock(const uint64_t *cycle) {
    if (!W.on) return;
    if (W.clock && !cycle && *W.clock > W.clock_end) W.clock_end = *W.clock;
    W.clock = cycle;
}

bool fg_wave_on(void) { return W.on && !W.finished; }

/* A program that ends early (an error, a lockstep divergence) still writes
 * what it traced; one that ran no block (a bad option) writes nothing. */
static void at_exit(void) {
    if (W.on && !W.finished && W.n) fg_wave_finish();
}

/* one wave option's value: 0, or -1 with err (fg_cli.h) */
static int wave_opt(void *ctx, const char *a, const char *v, char *err, size_t errlen) {
    (void)ctx;
    if (!strcmp(a, "--wave")) {
        size_t n = strlen(v);
        if (n < 5 || strcmp(v + n - 4, ".fst") || n >= sizeof W.path) {
            snprintf(err, errlen, "--wave %s: give a file name ending in .fst (at most %zu characters)", v,
                     sizeof W.path - 1);
            return -1;
        }
        strcpy(W.path, v);
        if (!W.on) atexit(at_exit);
        W.on = true;
        fg_block_set_tracer(&tracer);
        return 0;
    }
    if (!strcmp(a, "--wave-start")) return fg_num_u64(a, v, 0, UINT64_MAX / (2 * PS), &W.start, err, errlen);
    if (!strcmp(a, "--wave-end")) return fg_num_u64(a, v, 1, UINT64_MAX / (2 * PS), &W.end, err, errlen);
    if (!strcmp(a, "--wave-span")) {
        W.span_given = true;
        return fg_num_u64(a, v, 2, 100000000, &W.span, err, errlen);
    }
    const char *colon = strchr(v, ':');
    const size_t klen = colon ? (size_t)(colon - v) : strlen(v);
    int k = -1, p = -1;
    for (int m = 0; m < N_MARKS; m++)
        if (strlen(MARKS[m].kind) == klen && !strncmp(v, MARKS[m].kind, klen)) k = m;
    for (unsigned m = 0; m < N_PK; m++)
        if (strlen(PK[m].kind) == klen && !strncmp(v, PK[m].kind, klen)) p = (int)m;
    const bool counted = k >= 0 || (p >= 0 && PK[p].arg && !strcmp(PK[p].arg, "N"));
    if ((k < 0 && p < 0) || (colon != NULL) != (k >= 0 || (p >= 0 && PK[p].arg)) || (colon && !colon[1])) {
        int n = snprintf(err, errlen, "--wave-at %s: give KIND:N, KIND one of ring, preempt, nack, limit", v);
        for (unsigned m = 0; m < N_PK && n > 0 && (size_t)n < errlen; m++)
            n += snprintf(err + n, errlen - n, "%s%s%s%s", m ? ", " : "; or this program's ", PK[m].kind,
                          PK[m].arg ? ":" : "", PK[m].arg ? PK[m].arg : "");
        if (k < 0 && p < 0 && n > 0 && (size_t)n < errlen)
            snprintf(err + n, errlen - n, "%s", N_PK ? "" : " (this program reports no events of its own)");
        return -1;
    }
    W.at_n = 1;
    W.at_arg[0] = 0;
    if (counted && fg_num_u64("--wave-at's N", colon + 1, 1, UINT64_MAX, &W.at_n, err, errlen)) return -1;
    if (!counted && colon) {
        if (strlen(colon + 1) >= sizeof W.at_arg) {
            snprintf(err, errlen, "--wave-at %s: %s is too long", v, PK[p].arg);
            return -1;
        }
        strcpy(W.at_arg, colon + 1);
    }
    W.at = k;
    W.at_prog = k >= 0 ? -1 : p;
    return 0;
}

void fg_wave_kinds(const fg_wave_kind *kinds, unsigned n) {
    PK = kinds;
    N_PK = n;
}

const char *fg_wave_at(const char **arg) {
    if (!fg_wave_on() || W.at_prog < 0) return NULL;
    if (arg) *arg = W.at_arg[0] ? W.at_arg : NULL;
    return PK[W.at_prog].kind;
}

void fg_wave_show(const char *place) {
    if (!fg_wave_on()) return;
    for (unsigned i = 0; i < W.n_show; i++)
        if (!strcmp(W.show[i], place)) return;
    char (*ns)[128] = realloc(W.show, (W.n_show + 1) * sizeof *ns);
    if (!ns) return;
    W.show = ns;
    snprintf(W.show[W.n_show++], sizeof *ns, "%s", place);
}

/* The window options shape a trace: without --wave they would be dropped unsaid. */
static int wave_needs_file(void *ctx, const char *name, const char *value, char *err, size_t errlen) {
    (void)ctx, (void)name, (void)value;
    const char *given = asked() ? "--wave-at" : W.span_given ? "--wave-span"
                        : W.start ? "--wave-start" : W.end ? "--wave-end" : NULL;
    if (W.on || !given) return 0;
    snprintf(err, errlen, "%s shapes a waveform: give --wave FILE.fst too", given);
    return -1;
}

const fg_opt fg_wave_opts[] = {
    FG_OPT_CALL("--wave", wave_opt, NULL, "FILE.fst",
                "one FST of every RTL block instance of the run, and FILE.gtkw (docs/WAVES.md)"),
    FG_OPT_CALL("--wave-start", wave_opt, NULL, "N", "the cycle window's start (default: the whole run)"),
    FG_OPT_CALL("--wave-end", wave_opt, NULL, "N", "the cycle window's end"),
    FG_OPT_CALL("--wave-at", wave_opt, NULL, "KIND:N",
                "centre the window on the Nth ring | preempt | nack | limit (from 1), or an event the program "
                "reports (fg_run: fault, barrier:N, pc:ADDR)"),
    FG_OPT_CALL("--wave-span", wave_opt, NULL, "N", "the window's width with --wave-at (default 1000 cycles; a ring's runs on to its event warp's START)"),
    FG_OPT_CHECK(wave_needs_file, NULL),
    FG_OPT_END};

/* The per-instance files live in FILE.fst.parts/ until the merge. */
static int parts_dir(void) {
    if (W.parts[0]) return 0;
    snprintf(W.parts, sizeof W.parts, "%s.parts", W.path);
    if (mkdir(W.parts, 0777) && errno != EEXIST) {
        fprintf(stderr, "fg_wave: cannot create %s: %s\n", W.parts, strerror(errno));
        W.parts[0] = 0;
        return -1;
    }
    return 0;
}

static inst *inst_of(const fg_block *b) { return (inst *)b->wave; }

static uint64_t field(const void *s, unsigned i) {
    uint64_t v;
    memcpy(&v, (const unsigned char *)s + (size_t)i * 8, 8);
    return v;
}

static void twin_emit(inst *w, unsigned first, unsigned n, const void *vals, bool all) {
    char bits[65];
    for (unsigned i = 0; i < n; i++) {
        uint64_t v = field(vals, i);
        unsigned k = first + i;
        if (!all && v == w->tw_v[k]) continue;
        w->tw_v[k] = v;
        const fg_port *p = k < w->cls->n_in ? &w->cls->in_ports[k] : &w->cls->out_ports[k - w->cls->n_in];
        for (unsigned j = 0; j < p->width; j++) bits[j] = (v >> (p->width - 1 - j)) & 1 ? '1' : '0';
        bits[p->width] = 0;
        fstWriterEmitValueChange(w->tw, w->tw_h[k], bits);
    }
}

/* The twin's outputs as the block sees them (lockstep: the twin's own view). */
static const void *twin_out(const fg_block *b) { return b->impl == FG_IMPL_LOCKSTEP ? b->out_other : b->out; }

static int twin_open(inst *w) {
    const fg_block_class *c = w->cls;
    snprintf(w->twin_path, sizeof w->twin_path, "%s/%u_%s_twin.fst", W.parts, w->seq, c->name);
    w->tw = fstWriterCreate(w->twin_path, 1);
    w->tw_h = calloc(c->n_in + c->n_out, sizeof *w->tw_h);
    w->tw_v = calloc(c->n_in + c->n_out, sizeof *w->tw_v);
    if (!w->tw || !w->tw_h || !w->tw_v) {
        fprintf(stderr, "fg_wave: cannot write %s\n", w->twin_path);
        w->twin_path[0] = 0;
        return -1;
    }
    fstWriterSetTimescale(w->tw, -12);
    /* the same shape as Verilator's: top, then the module */
    fstWriterSetScope(w->tw, FST_ST_VCD_MODULE, "top", NULL);
    fstWriterSetScope(w->tw, FST_ST_VCD_MODULE, c->name, NULL);
    w->tw_clk = fstWriterCreateVar(w->tw, FST_VT_VCD_WIRE, FST_VD_INPUT, 1, "clk_i", 0);
    char nm[96];
    for (unsigned i = 0; i < c->n_in + c->n_out; i++) {
        const fg_port *p = i < c->n_in ? &c->in_ports[i] : &c->out_ports[i - c->n_in];
        if (p->width > 1) snprintf(nm, sizeof nm, "%s [%u:0]", p->name, p->width - 1);
        else snprintf(nm, sizeof nm, "%s", p->name);
        w->tw_h[i] = fstWriterCreateVar(w->tw, FST_VT_VCD_WIRE, i < c->n_in ? FST_VD_INPUT : FST_VD_OUTPUT,
                                        p->width, nm, 0);
    }
    fstWriterSetUpscope(w->tw);
    fstWriterSetUpscope(w->tw);
    return 0;
}

static void wave_attach(fg_block *b) {
    if (!fg_wave_on() || W.merging || W.second_run) return;
    inst *w = calloc(1, sizeof *w);
    if (!w || parts_dir()) {
        free(w);
        return;
    }
    if (W.n == W.cap) {
        inst **nv = realloc(W.v, (W.cap ? 2 * W.cap : 16) * sizeof *nv);
        if (!nv) {
            free(w);
            return;
        }
        W.v = nv;
        W.cap = W.cap ? 2 * W.cap : 16;
    }
    w->b = b;
    w->cls = b->cls;
    w->seq = W.n;
    snprintf(w->place, sizeof w->place, "unplaced.%s%u", b->cls->name, w->seq);
    W.v[W.n++] = w;
    b->wave = w;
    if (b->rtl) {
        snprintf(w->rtl_path, sizeof w->rtl_path, "%s/%u_%s.fst", W.parts, w->seq, b->cls->name);
        if (fg_rtl_trace(b->rtl, w->rtl_path, 0, 0)) {
            fprintf(stderr, "fg_wave: cannot trace %s to %s\n", b->cls->name, w->rtl_path);
            w->rtl_path[0] = 0;
        }
    }
    if (b->twin) twin_open(w);
}

static void close_traces(inst *w);

/* An instance left out of the wave (its files removed). */
static void drop(inst *w) {
    close_traces(w);
    if (w->rtl_path[0]) remove(w->rtl_path);
    if (w->twin_path[0]) remove(w->twin_path);
    w->rtl_path[0] = w->twin_path[0] = 0;
    w->place[0] = 0;
}

void fg_wave_place(fg_block *b, const char *fmt, ...) {
    inst *w = b ? inst_of(b) : NULL;
    if (!w) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->place, sizeof w->place, fmt, ap);
    va_end(ap);
    w->offset = b->cycle;
    w->placed = true;
    for (unsigned i = 0; i < W.n; i++)
        if (W.v[i] != w && W.v[i]->cls == w->cls && !strcmp(W.v[i]->place, w->place)) {
            /* the same place twice: a program that runs one system after another */
            if (asked() && !W.at_found) { /* the event was not in the earlier run: trace this one */
                for (unsigned j = 0; j < W.n; j++)
                    if (!W.v[j]->b) drop(W.v[j]);
                W.seen = 0;
                break;
            }
            if (!W.second_run)
                fprintf(stderr, "fg_wave: this program runs more than one system; %s holds the %s "
                                "(choose one run, e.g. one point, benchmark or size)\n",
                        W.path, W.at_found ? "one with the event" : "first");
            W.second_run = true;
            drop(w);
            return;
        }
    /* the state it starts from, for every window that begins before its first edge */
    uint64_t c = W.clock ? *W.clock : 0;
    w->last = c;
    if (b->rtl && w->rtl_path[0]) {
        fg_rtl_trace_sync(b->rtl, c, 1);
        fg_rtl_trace_sample(b->rtl);
    }
    if (w->tw) {
        static const uint64_t zero[128];
        fstWriterEmitTimeChange(w->tw, c * PS);
        fstWriterEmitValueChange(w->tw, w->tw_clk, "1");
        if (b->cls->n_in <= 128) twin_emit(w, 0, b->cls->n_in, zero, true);
        twin_emit(w, b->cls->n_in, b->cls->n_out, twin_out(b), true);
        w->tw_any = true;
    }
}

static void mark_found(uint64_t cycle) {
    W.at_found = true;
    W.at_cycle = cycle;
    bool ring = W.at >= 0 && !strcmp(MARKS[W.at].kind, "ring");
    uint64_t before = ring && !W.span_given ? FOLLOW_LEAD : W.span / 2;
    uint64_t lo = cycle > before ? cycle - before : 0;
    W.start = lo > W.start ? lo : W.start;
    W.end = cycle + (W.span - W.span / 2);
    if (ring) { /* traced on until the START says where the window ends */
        W.follow = FOLLOW_EVW;
        W.end = 0;
    }
}

void fg_wave_event(const char *kind, uint64_t cycle, const char *place) {
    if (!fg_wave_on() || W.at_prog < 0 || W.at_found || strcmp(kind, PK[W.at_prog].kind)) return;
    if (++W.seen < W.at_n) return;
    snprintf(W.at_place, sizeof W.at_place, "%s", place ? place : "");
    mark_found(cycle);
}

/* One step of following a ring to its event warp's START. */
static void follow_step(const inst *w, const void *in, const void *before, const void *after, uint64_t c) {
    const fg_block_class *k = w->cls;
#define OUT(s, name) fg_port_get(k->out_ports, k->n_out, s, name)
#define IN(name) fg_port_get(k->in_ports, k->n_in, in, name)
    if (W.follow == FOLLOW_EVW && !strcmp(k->name, "edge_ekt")) {
        /* the descriptor leaves as an event warp, or for the pending-kernel queue */
        if (OUT(before, "evw_valid_o") && IN("evw_ready_i")) W.follow_param = OUT(before, "evw_param_addr_o");
        else if (OUT(before, "pkq_valid_o") && IN("pkq_ready_i")) W.follow_param = OUT(before, "pkq_param_addr_o");
        else return;
        W.follow = FOLLOW_PUSH;
    } else if (W.follow == FOLLOW_PUSH && !strcmp(k->name, "edge_pewt") && IN("ev_valid_i") &&
               OUT(before, "ev_ready_o") && IN("ev_param_i") == W.follow_param) {
        snprintf(W.follow_core, sizeof W.follow_core, "%s", w->place);
        W.follow = FOLLOW_START;
    } else if (W.follow == FOLLOW_START && !strcmp(k->name, "edge_preempt") &&
               !strcmp(w->place, W.follow_core) &&
               OUT(after, "cnt_start_free_o") + OUT(after, "cnt_start_pre_o") >
                   OUT(before, "cnt_start_free_o") + OUT(before, "cnt_start_pre_o")) {
        W.follow = FOLLOW_DONE;
        W.start_cycle = c + 1; /* the cycle its cmd_o shows the START */
        uint64_t end = c + FOLLOW_TAIL, asked = W.at_cycle + (W.span - W.span / 2);
        W.end = W.span_given && asked > end ? asked : end;
    }
#undef OUT
#undef IN
}

static bool mark_seen(const inst *w, const void *in, const void *before, const void *after) {
    const fg_block_class *c = w->cls;
    if (W.at < 0 || W.at_found || strcmp(c->name, MARKS[W.at].block)) return false;
    uint64_t a = fg_port_get(c->out_ports, c->n_out, after, MARKS[W.at].port);
    uint64_t p = fg_port_get(c->out_ports, c->n_out, before, MARKS[W.at].port);
    switch (MARKS[W.at].rule) {
    case HANDSHAKE: return p && fg_port_get(c->in_ports, c->n_in, in, MARKS[W.at].ready);
    case COUNT_UP: return a > p;
    default: return a != p;
    }
}

/* Before an edge: its system cycle, and whether it is dumped (named, in the
 * window, later than the last: FST time only grows). */
static void wave_edge(fg_block *b) {
    inst *w = inst_of(b);
    if (!w) return;
    uint64_t c = W.clock ? *W.clock : b->cycle - w->offset;
    w->cur = c;
    w->on = w->placed && !W.merging && c + 1 > w->last && c >= W.start && (!W.end || c <= W.end);
    if (w->on) w->last = c + 1;
    if (b->rtl && w->rtl_path[0]) fg_rtl_trace_sync(b->rtl, c, w->on);
}

static void wave_step(fg_block *b, const void *in, const void *out_before) {
    inst *w = inst_of(b);
    if (!w || W.merging || !w->placed) return;
    uint64_t c = w->cur; /* the edge just given */
    if (mark_seen(w, in, out_before, b->out) && ++W.seen == W.at_n) {
        W.at_inst = w;
        snprintf(W.at_place, sizeof W.at_place, "%s", w->place);
        mark_found(c);
    } else if (W.follow > FOLLOW_NONE && W.follow < FOLLOW_DONE) {
        follow_step(w, in, out_before, b->out, c);
    }
    if (w->tw && w->on) {
        if (!w->tw_any) { /* the state before the first dumped edge */
            fstWriterEmitTimeChange(w->tw, c * PS);
            fstWriterEmitValueChange(w->tw, w->tw_clk, "1");
            twin_emit(w, b->cls->n_in, b->cls->n_out, out_before, true);
        }
        fstWriterEmitTimeChange(w->tw, c * PS + PS / 2);
        fstWriterEmitValueChange(w->tw, w->tw_clk, "0");
        twin_emit(w, 0, b->cls->n_in, in, !w->tw_any);
        fstWriterEmitTimeChange(w->tw, (c + 1) * PS);
        fstWriterEmitValueChange(w->tw, w->tw_clk, "1");
        twin_emit(w, b->cls->n_in, b->cls->n_out, twin_out(b), !w->tw_any);
        w->tw_any = true;
    }
}

static void close_traces(inst *w) {
    if (w->b && w->b->rtl && w->rtl_path[0]) fg_rtl_trace_close(w->b->rtl);
    if (w->tw) fstWriterClose(w->tw);
    w->tw = NULL;
    if (w->b) w->b->wave = NULL;
    w->b = NULL;
}

static void wave_detach(fg_block *b) {
    inst *w = inst_of(b);
    if (w) close_traces(w);
}

static const fg_block_tracer tracer = {wave_attach, wave_edge, wave_step, wave_detach};

void fg_wave_cancel(void) {
    if (!W.on || W.finished) return;
    W.finished = true;
    fg_block_set_tracer(NULL);
    for (unsigned i = 0; i < W.n; i++) drop(W.v[i]);
    if (W.parts[0]) rmdir(W.parts);
}

/* ------------------------------------------------------------- the merge */

typedef struct {
    const char *path;
    char place[160]; /* where its module scope goes */
    inst *w;
    bool twin;
    void *r;
    fstHandle *map; /* source handle -> merged handle */
    fstHandle maxh;
} source;

typedef struct {
    uint64_t t;
    uint32_t h, seq;
    size_t val;
} change;

typedef struct { /* one merged variable */
    unsigned src;
    uint32_t len;
    char *name; /* full path, without the range */
    unsigned depth; /* scopes below the source's place (1: the module's own) */
    uint64_t active; /* changes inside the window after its first value */
    size_t init;     /* value at the window's start, or (size_t)-1 */
    bool seen;
} mvar;

static struct {
    char *arena;
    size_t used, cap;
    change *ch;
    size_t nch, capch;
    mvar *var; /* by merged handle */
    size_t nvar;
    source *cur;
    unsigned cur_i;
    uint64_t t0, t1; /* window in FST time */
    bool oom, unread;
} M;

static size_t keep(const unsigned char *v, size_t n) {
    if (M.used + n + 1 > M.cap) {
        size_t nc = M.cap ? 2 * M.cap : 1 << 20;
        while (nc < M.used + n + 1) nc *= 2;
        char *na = realloc(M.arena, nc);
        if (!na) {
            M.oom = true;
            return (size_t)-1;
        }
        M.arena = na;
        M.cap = nc;
    }
    memcpy(M.arena + M.used, v, n);
    M.arena[M.used + n] = 0;
    M.used += n + 1;
    return M.used - n - 1;
}

static void push_change(uint64_t t, uint32_t h, size_t val) {
    if (M.nch == M.capch) {
        size_t nc = M.capch ? 2 * M.capch : 1 << 16;
        change *n = realloc(M.ch, nc * sizeof *n);
        if (!n) {
            M.oom = true;
            return;
        }
        M.ch = n;
        M.capch = nc;
    }
    M.ch[M.nch] = (change){t, h, (uint32_t)M.nch, val};
    M.nch++;
}

static void on_change(void *user, uint64_t t, fstHandle fac, const unsigned char *value) {
    source *s = user;
    if (fac > s->maxh || !s->map[fac] || M.oom) return;
    uint32_t h = s->map[fac];
    mvar *v = &M.var[h];
    if (t < M.t0) { /* before the window: only its last value counts */
        v->init = keep(value, v->len);
        v->seen = true;
        return;
    }
    if (M.t1 && t > M.t1) return;
    v->active += v->seen;
    v->seen = true;
    push_change(t, h, keep(value, v->len));
}

static int by_time(const void *a, const void *b) {
    const change *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int by_place(const void *a, const void *b) {
    const source *x = a, *y = b;
    int c = strverscmp(x->place, y->place);
    return c ? c : (int)x->w->seq - (int)y->w->seq;
}

/* Copies one source's hierarchy below `top` into the writer. */
static int copy_hier(void *wr, source *s, unsigned si, unsigned *enum_next) {
    uint64_t emap_old[64], emap_new[64];
    unsigned ne = 0, depth = 0;
    char scope[16][96];
    struct fstHier *h;
    while ((h = fstReaderIterateHier(s->r))) {
        switch (h->htyp) {
        case FST_HT_SCOPE:
            if (depth < 16) snprintf(scope[depth], sizeof scope[depth], "%s", h->u.scope.name);
            depth++;
            if (depth >= 2) fstWriterSetScope(wr, h->u.scope.typ, h->u.scope.name, h->u.scope.component);
            break;
        case FST_HT_UPSCOPE:
            if (depth >= 2) fstWriterSetUpscope(wr);
            if (depth) depth--;
            break;
        case FST_HT_VAR: {
            if (depth < 2) break; /* the wrapper's copies of the ports */
            /* an alias of a skipped wrapper port (Verilator's module ports
             * are) becomes the variable the port's values go to */
            fstHandle src = h->u.var.handle, alias = 0;
            if (src <= s->maxh) alias = s->map[src];
            fstHandle out = fstWriterCreateVar(wr, h->u.var.typ, h->u.var.direction, h->u.var.length,
                                               h->u.var.name, alias);
            if (!alias && src <= s->maxh) s->map[src] = out;
            if (out >= M.nvar) {
                size_t nn = M.nvar ? 2 * M.nvar : 4096;
                while (nn <= out) nn *= 2;
                mvar *nv = realloc(M.var, nn * sizeof *nv);
                if (!nv) return -1;
                memset(nv + M.nvar, 0, (nn - M.nvar) * sizeof *nv);
                M.var = nv;
                M.nvar = nn;
            }
            if (!alias) {
                char full[512];
                int k = snprintf(full, sizeof full, "%s", s->place);
                for (unsigned d = 1; d < depth && d < 16; d++) k += snprintf(full + k, sizeof full - k, ".%s", scope[d]);
                snprintf(full + k, sizeof full - k, ".%s", h->u.var.name);
                char *sp = strchr(full, ' ');
                if (sp) *sp = 0;
                M.var[out] = (mvar){si, h->u.var.length, strdup(full), depth - 1, 0, (size_t)-1, false};
            }
            break;
        }
        case FST_HT_ATTRBEGIN:
            if (h->u.attr.typ == FST_AT_MISC && h->u.attr.subtype == FST_MT_ENUMTABLE) {
                if (h->u.attr.name && h->u.attr.name[0]) { /* a table: always, with a handle of ours */
                    if (ne < 64) {
                        emap_old[ne] = h->u.attr.arg;
                        emap_new[ne++] = ++*enum_next;
                    }
                    fstWriterSetAttrBegin(wr, FST_AT_MISC, FST_MT_ENUMTABLE, h->u.attr.name, *enum_next);
                } else if (depth >= 2) {
                    for (unsigned e = 0; e < ne; e++)
                        if (emap_old[e] == h->u.attr.arg) fstWriterEmitEnumTableRef(wr, emap_new[e]);
                }
            } else if (depth >= 2) {
                fstWriterSetAttrBegin(wr, h->u.attr.typ, h->u.attr.subtype, h->u.attr.name, h->u.attr.arg);
            }
            break;
        case FST_HT_ATTREND:
            if (depth >= 2) fstWriterSetAttrEnd(wr);
            break;
        default: break;
        }
    }
    return 0;
}

/* Enters the scopes of `place` from the ones open (stack of n names). */
static void goto_scope(void *wr, char open[][64], unsigned *n, const char *place) {
    char parts[16][64];
    unsigned np = 0;
    const char *p = place;
    while (*p && np < 16) {
        const char *dot = strchr(p, '.');
        size_t len = dot ? (size_t)(dot - p) : strlen(p);
        snprintf(parts[np++], sizeof parts[0], "%.*s", (int)len, p);
        p += len + (dot ? 1 : 0);
    }
    unsigned common = 0;
    while (common < *n && common < np && !strcmp(open[common], parts[common])) common++;
    while (*n > common) {
        fstWriterSetUpscope(wr);
        (*n)--;
    }
    for (unsigned i = common; i < np; i++) {
        fstWriterSetScope(wr, FST_ST_VCD_MODULE, parts[i], NULL);
        snprintf(open[(*n)++], 64, "%s", parts[i]);
    }
}

static bool is_port(const fg_block_class *c, const char *leaf) {
    for (unsigned i = 0; i < c->n_in; i++)
        if (!strcmp(c->in_ports[i].name, leaf)) return true;
    for (unsigned i = 0; i < c->n_out; i++)
        if (!strcmp(c->out_ports[i].name, leaf)) return true;
    return false;
}

/* One source's group: state registers, the inputs, the outputs, then the
 * configuration inputs (constant in a run). */
static void spec_group(FILE *f, const source *src, unsigned s) {
    const fg_block_class *c = src[s].w->cls;
    fprintf(f, "-%s.%s%s\n", src[s].place, c->name, src[s].twin ? " (C twin)" : "");
    for (int kind = 0; kind < 4; kind++) {
        unsigned n = kind == 0 ? 1 : kind == 2 ? c->n_out : c->n_in;
        for (unsigned p = 0; p < n; p++) {
            const char *want = kind == 0 ? NULL : kind == 2 ? c->out_ports[p].name : c->in_ports[p].name;
            if (want && (kind == 3) != !strncmp(want, "cfg_", 4)) continue;
            for (size_t h = 1; h < M.nvar; h++) {
                if (!M.var[h].name || M.var[h].src != s || M.var[h].depth != 1) continue;
                const char *leaf = strrchr(M.var[h].name, '.') + 1;
                size_t len = strlen(leaf);
                if (want ? !strcmp(leaf, want) : len >= 7 && !strcmp(leaf + len - 7, "state_q"))
                    fprintf(f, "%s\n", M.var[h].name);
            }
        }
    }
    fprintf(f, "-%s.%s%s\n", src[s].place, c->name, src[s].twin ? " (C twin)" : "");
}

/* The source the event showed in: its RTL trace, or its twin's when the
 * blocks run as C twins (--impl c); ns when no event was found. */
static unsigned event_source(const source *src, unsigned ns) {
    unsigned twin = ns;
    for (unsigned s = 0; s < ns && W.at_found; s++)
        if (src[s].w == W.at_inst) {
            if (!src[s].twin) return s;
            if (twin == ns) twin = s;
        }
    return twin;
}

/* Where a place goes in the save file: 0 the event's, 1 the core a ring's
 * event warp started on, 2 one the program named (fg_wave_show), 3 any other. */
static int place_rank(const char *place) {
    if (W.at_found && W.at_place[0] && !strcmp(place, W.at_place)) return 0;
    if (W.follow == FOLLOW_DONE && !strcmp(place, W.follow_core)) return 1;
    for (unsigned i = 0; i < W.n_show; i++)
        if (!strcmp(place, W.show[i])) return 2;
    return 3;
}

/* Open when the file opens: the event's places; without an event (or one
 * with no place) the program's. */
static bool place_open(const char *place) {
    int r = place_rank(place);
    return W.at_found && W.at_place[0] ? r <= 1 : r == 2;
}

static int by_rank(const void *a, const void *b) {
    const char *const *x = a, *const *y = b;
    int r = place_rank(*x) - place_rank(*y);
    return r ? r : strverscmp(*x, *y);
}

/* The save file's spec: one group per place holding its instances' groups,
 * the places in place_rank's order, "[*] open:" naming those open
 * (scripts/gtkw.py closes the others, adds ranges and enum names).  Shown:
 * the event's instance, every instance of a ranked place, and every other
 * one whose ports moved in the window (everything when none did). */
static int write_spec(const char *spec, source *src, unsigned ns, const char *focus) {
    FILE *f = fopen(spec, "w");
    bool *show = calloc(ns, sizeof *show);
    const char **places = calloc(ns, sizeof *places);
    if (!f || !show || !places) {
        if (f) fclose(f);
        free(show);
        free(places);
        return -1;
    }
    fprintf(f, "[*] finegrain GTKWave save file spec (fg_wave)\n");
    if (focus) fprintf(f, "[*] focus: %s\n", focus);
    if (W.at_found) fprintf(f, "[*] at: %" PRIu64 "\n", W.at_cycle * PS);
    unsigned first = W.at_found ? event_source(src, ns) : ns, shown = 0, np = 0;
    for (int pass = 0; pass < 2 && !shown; pass++) /* pass 1: nothing to show, show everything */
        for (unsigned s = 0; s < ns; s++) {
            const fg_block_class *c = src[s].w->cls;
            bool on = pass == 1 || s == first || place_rank(src[s].w->place) < 3;
            for (size_t h = 1; h < M.nvar && !on; h++) {
                const char *leaf = M.var[h].name ? strrchr(M.var[h].name, '.') + 1 : NULL;
                on = leaf && M.var[h].src == s && M.var[h].depth == 1 && M.var[h].active && is_port(c, leaf) &&
                     strncmp(leaf, "cfg_", 4);
            }
            show[s] = on;
            shown += on;
        }
    for (unsigned s = 0; s < ns; s++) {
        unsigned i = 0;
        while (i < np && strcmp(places[i], src[s].w->place)) i++;
        if (show[s] && i == np) places[np++] = src[s].w->place;
    }
    qsort(places, np, sizeof *places, by_rank);
    fprintf(f, "[*] open:");
    for (unsigned i = 0; i < np; i++)
        if (place_open(places[i])) fprintf(f, " %s", places[i]);
    fprintf(f, "\n");
    for (unsigned i = 0; i < np; i++) {
        fprintf(f, "-%s\n", places[i]);
        if (first < ns && !strcmp(src[first].w->place, places[i])) spec_group(f, src, first);
        for (unsigned s = 0; s < ns; s++)
            if (show[s] && s != first && !strcmp(src[s].w->place, places[i])) spec_group(f, src, s);
        fprintf(f, "-%s\n", places[i]);
    }
    free(show);
    free(places);
    return fclose(f);
}

/* scripts/gtkw.py beside the binary's build tree (build/bin/X -> scripts/). */
static int find_gtkw(char *out, size_t len) {
    char exe[600];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return -1;
    exe[n] = 0;
    for (int up = 0; up < 5; up++) {
        char *s = strrchr(exe, '/');
        if (!s) return -1;
        *s = 0;
        snprintf(out, len, "%s/scripts/gtkw.py", exe);
        if (!access(out, X_OK)) return 0;
    }
    return -1;
}

static int run_gtkw(const char *spec, const char *save) {
    char tool[700];
    if (find_gtkw(tool, sizeof tool)) {
        fprintf(stderr, "fg_wave: scripts/gtkw.py not found beside this binary; write the save file with\n"
                        "  scripts/gtkw.py %s %s -o %s\n", spec, W.path, save);
        return -1;
    }
    char *argv[] = {tool, (char *)spec, W.path, "-o", (char *)save, "--dumpfile", W.path, NULL};
    pid_t pid;
    int st;
    if (posix_spawn(&pid, tool, NULL, NULL, argv, environ) || waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) ||
        WEXITSTATUS(st)) {
        fprintf(stderr, "fg_wave: %s did not write %s\n", tool, save);
        return -1;
    }
    return 0;
}

static void remove_parts(source *src, unsigned ns) {
    if (getenv("FG_WAVE_KEEP")) return;
    for (unsigned i = 0; i < ns; i++) remove(src[i].path);
    rmdir(W.parts);
}

int fg_wave_finish(void) {
    if (!W.on || W.finished) return 0;
    W.finished = true;
    fg_block_set_tracer(NULL); /* blocks created from now on are not traced */
    W.merging = true;
    int rc = 0;
    char what[200] = "";
    if (asked()) at_what(what, sizeof what);
    if (asked() && !W.at_found) {
        fprintf(stderr, "fg_wave: no %s in this run (%" PRIu64 " seen): %s holds cycles %" PRIu64
                        " to the end instead\n",
                what, W.seen, W.path, W.start);
        W.end = 0;
        rc = -1;
    }
    for (unsigned i = 0; i < W.n; i++) close_traces(W.v[i]);
    source *src = calloc(2 * W.n + 1, sizeof *src);
    unsigned ns = 0;
    for (unsigned i = 0; i < W.n && src; i++) {
        inst *w = W.v[i];
        if (w->rtl_path[0]) {
            src[ns] = (source){.path = w->rtl_path, .w = w};
            snprintf(src[ns++].place, sizeof src[0].place, "%s", w->place);
        }
        if (w->twin_path[0]) { /* lockstep: the twin beside the RTL */
            src[ns] = (source){.path = w->twin_path, .w = w, .twin = true};
            snprintf(src[ns++].place, sizeof src[0].place, w->rtl_path[0] ? "%s.c_twin" : "%s", w->place);
        }
    }
    if (!src || !ns) {
        fprintf(stderr, "fg_wave: no RTL block instance ran in this program: %s not written\n", W.path);
        free(src);
        return -1;
    }
    qsort(src, ns, sizeof *src, by_place);
    void *wr = fstWriterCreate(W.path, 1);
    if (!wr) {
        fprintf(stderr, "fg_wave: cannot write %s\n", W.path);
        free(src);
        return -1;
    }
    fstWriterSetTimescale(wr, -12);
    M.t0 = W.start * PS;
    M.t1 = W.end ? W.end * PS + PS - 1 : 0;
    char open[16][64];
    unsigned nopen = 0, enums = 0;
    fstWriterSetScope(wr, FST_ST_VCD_MODULE, "sys", NULL);
    fstHandle clk = fstWriterCreateVar(wr, FST_VT_VCD_WIRE, FST_VD_IMPLICIT, 1, "clk", 0);
    fstWriterSetUpscope(wr);
    for (unsigned s = 0; s < ns; s++) {
        src[s].r = fstReaderOpen(src[s].path);
        if (!src[s].r) {
            fprintf(stderr, "fg_wave: cannot read %s (left in place)\n", src[s].path);
            M.unread = true;
            rc = -1;
            continue;
        }
        src[s].maxh = fstReaderGetMaxHandle(src[s].r);
        src[s].map = calloc(src[s].maxh + 1, sizeof *src[s].map);
        goto_scope(wr, open, &nopen, src[s].place);
        if (!src[s].map || copy_hier(wr, &src[s], s, &enums)) M.oom = true;
    }
    goto_scope(wr, open, &nopen, "");
    for (unsigned s = 0; s < ns && !M.oom; s++) {
        if (!src[s].r) continue;
        fstReaderSetFacProcessMaskAll(src[s].r);
        fstReaderIterBlocks2(src[s].r, on_change, NULL, &src[s], NULL);
    }
    if (M.oom) {
        fprintf(stderr, "fg_wave: out of memory merging the traces (narrow the window)\n");
        rc = -1;
    }
    uint64_t tend = M.t0;
    for (size_t i = 0; i < M.nch; i++)
        if (M.ch[i].t > tend) tend = M.ch[i].t;
    if (M.t1) tend = M.t1;
    /* a window past the run's end (an event near it: a fault) ends with the run */
    uint64_t run_end = W.clock && *W.clock > W.clock_end ? *W.clock : W.clock_end;
    if (run_end && run_end * PS >= M.t0 && run_end * PS < tend) tend = run_end * PS;
    static const unsigned char one = '1', zero = '0';
    size_t v1 = keep(&one, 1), v0 = keep(&zero, 1);
    for (uint64_t t = M.t0 - M.t0 % PS; !M.oom && t <= tend; t += PS / 2)
        if (t >= M.t0) push_change(t, clk, t % PS ? v0 : v1);
    qsort(M.ch, M.nch, sizeof *M.ch, by_time);
    fstWriterEmitTimeChange(wr, M.t0);
    for (size_t h = 1; h < M.nvar; h++)
        if (M.var[h].name && M.var[h].init != (size_t)-1) fstWriterEmitValueChange(wr, h, M.arena + M.var[h].init);
    uint64_t t = M.t0, last = M.t0;
    for (size_t i = 0; i < M.nch; i++) {
        if (M.ch[i].t != t) fstWriterEmitTimeChange(wr, t = M.ch[i].t);
        fstWriterEmitValueChange(wr, M.ch[i].h, M.arena + M.ch[i].val);
        last = t;
    }
    fstWriterClose(wr);
    char focus[300] = "", save[560], spec[700];
    unsigned ev = W.at >= 0 ? event_source(src, ns) : ns; /* the instance the event showed in */
    if (ev < ns) snprintf(focus, sizeof focus, "%s.%s.%s", src[ev].place, MARKS[W.at].block, MARKS[W.at].focus);
    snprintf(save, sizeof save, "%.*s.gtkw", (int)(strlen(W.path) - 4), W.path);
    snprintf(spec, sizeof spec, "%s/spec.gtkw", W.parts);
    fprintf(stderr, "fg_wave: wrote %s: %u traces, cycles %" PRIu64 "-%" PRIu64, W.path, ns, M.t0 / PS, last / PS);
    if (W.at_found) fprintf(stderr, ", %s at cycle %" PRIu64, what, W.at_cycle);
    if (W.at_found && W.at_place[0]) fprintf(stderr, " (%s)", W.at_place);
    if (W.follow == FOLLOW_DONE)
        fprintf(stderr, ", its event warp's START at cycle %" PRIu64 " (%s)", W.start_cycle, W.follow_core);
    else if (W.follow > FOLLOW_NONE)
        fprintf(stderr, " (its event warp did not START in this run)");
    fprintf(stderr, "\n");
    /* (rc -1 so far: the event did not happen, or a trace could not be read or merged) */
    const bool merged = !M.oom && !M.unread;
    const bool saved = !write_spec(spec, src, ns, focus[0] ? focus : NULL) && !run_gtkw(spec, save);
    if (!saved) rc = -1;
    else fprintf(stderr, "fg_wave: open with: gtkwave -a %s\n", save);
    for (unsigned s = 0; s < ns; s++) {
        if (src[s].r) fstReaderClose(src[s].r);
        free(src[s].map);
    }
    if (merged && saved) { /* the per-instance files are done with */
        remove(spec);
        remove_parts(src, ns);
    }
    for (size_t h = 1; h < M.nvar; h++) free(M.var[h].name);
    free(M.var);
    free(M.ch);
    free(M.arena);
    free(src);
    free(W.show);
    W.show = NULL;
    W.n_show = 0;
    return rc;
}
