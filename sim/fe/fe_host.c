/* fe_host: the F/E runtime (fe_host.h; F/E 4.4, 6.1, 6.2, Table 2). */
#include "fe/fe_host.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fe_host_params_default(fe_host_params *p) {
    host_params_default(&p->api);
    pcie_params_default(&p->pcie);
    p->streams = 4;
    p->max_cycles = 50000000;
}

int fe_host_params_load(fe_host_params *p, fg_config *cfg, char *err, size_t errlen) {
    uint64_t s = p->streams;
    if (host_params_load(&p->api, cfg, err, errlen) || pcie_params_load(&p->pcie, cfg, err, errlen) ||
        fg_config_u64(cfg, "fe", "streams", 1, FE_MAX_STREAMS, &s, err, errlen) ||
        fg_config_u64(cfg, "fe", "max_cycles", 1, UINT64_MAX, &p->max_cycles, err, errlen))
        return -1;
    p->streams = (unsigned)s;
    /* [host] poll_ns belongs to the EDGE launch path (sim/sys); read so the
     * machine file's unused-key check passes */
    double poll = 0;
    return fg_config_double(cfg, "host", "poll_ns", 0, 1e9, &poll, err, errlen);
}

/* A command beside its public record: when it reaches the host interface,
 * what it carries, whether it is done. */
typedef struct {
    uint64_t arrive;      /* GPU cycle the command is at the host interface (after its driver stage) */
    void *host;           /* D2H: where the data goes */
    uint8_t *data;        /* H2D: the bytes, taken at the call */
    gpu_launch_desc d;
    bool done;
} fe_item;

typedef struct {
    unsigned *q;          /* command indices, issue order */
    unsigned head, n, cap;
    bool busy;            /* its head has started and is not complete */
    double last_end;      /* completion of its latest command (ns) */
} fe_stream;

struct fe_host {
    gpu_t *g;
    fe_host_params p;
    double mhz, now, drv_free, bpc; /* bpc: link bytes per GPU cycle */
    fe_cmd *cmd;
    fe_item *it;
    unsigned n_cmd, cap_cmd, pending;
    fe_stream st[FE_MAX_STREAMS + 1]; /* + the legacy default stream of the blocking memcpy */
    bool failed;
    char err[512];
};

static int fail(fe_host *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(fe_host *h, const char *fmt, ...) {
    if (!h->failed) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(h->err, sizeof h->err, fmt, ap);
        va_end(ap);
        h->failed = true;
    }
    return -1;
}

const char *fe_error(const fe_host *h) { return h->failed ? h->err : NULL; }
gpu_t *fe_gpu(fe_host *h) { return h->g; }
double fe_now(const fe_host *h) { return h->now; }
double fe_driver_free(const fe_host *h) { return h->drv_free; }
double fe_cycle_ns(const fe_host *h, uint64_t cycle) { return (double)cycle * 1000.0 / h->mhz; }
void fe_cpu_work(fe_host *h, double ns) { h->now += ns; }
const fe_cmd *fe_commands(const fe_host *h, unsigned *n) {
    *n = h->n_cmd;
    return h->cmd;
}

/* The first GPU cycle at or after t ns. */
static uint64_t cycle_at(const fe_host *h, double t) { return (uint64_t)ceil(t * h->mhz / 1000.0 - 1e-6); }

/* ------------------------------------------------ GPU side (F/E 6.2) */

static void done(fe_host *h, unsigned i, uint64_t cycle) {
    fe_cmd *c = &h->cmd[i];
    fe_stream *s = &h->st[c->stream < 0 ? h->p.streams : (unsigned)c->stream];
    if (h->it[i].done || !s->busy || s->q[s->head] != i) {
        fail(h, "fe_host: completion of command %u (%s) out of order", i, c->label);
        return;
    }
    h->it[i].done = true;
    c->t_exec_end = fe_cycle_ns(h, cycle + 1); /* the end of the tick it completed in */
    s->last_end = c->t_exec_end;
    s->busy = false;
    s->head = (s->head + 1) % s->cap;
    s->n--;
    h->pending--;
}

static void on_copy(void *u, uint64_t tag, uint64_t cycle, const void *data, size_t len) {
    fe_host *h = u;
    if (data && h->it[tag].host) memcpy(h->it[tag].host, data, len);
    done(h, (unsigned)tag, cycle);
}

static void on_first(void *u, uint64_t tag, uint64_t cycle) {
    fe_host *h = u;
    if (tag < h->n_cmd) h->cmd[tag].first_cycle = cycle;
}

static void on_complete(void *u, uint64_t tag, uint64_t cycle) { done(u, (unsigned)tag, cycle); }

/* Every command issued before i is complete (the legacy default stream). */
static bool all_before_done(const fe_host *h, unsigned i) {
    for (unsigned j = 0; j < i; j++)
        if (!h->it[j].done) return false;
    return true;
}

/* The host interface, before each GPU cycle: each stream whose previous
 * command is complete starts its next one once it has left the driver. */
static void hif_step(fe_host *h) {
    const uint64_t now = gpu_cycle(h->g);
    for (unsigned si = 0; si <= h->p.streams && !h->failed; si++) {
        fe_stream *s = &h->st[si];
        if (s->busy || !s->n) continue;
        unsigned i = s->q[s->head];
        fe_item *it = &h->it[i];
        fe_cmd *c = &h->cmd[i];
        if (it->arrive > now || (si == h->p.streams && !all_before_done(h, i))) continue;
        if (c->kind == FE_CMD_LAUNCH) {
            char e[256];
            if (gpu_launch(h->g, &it->d, e, sizeof e)) {
                fail(h, "fe_launch %s: %s", c->label, e);
                return;
            }
        } else {
            gpu_copy_opts o = {si, (uint8_t)c->trig, (uint8_t)c->act, h->bpc};
            int rc = gpu_copy(h->g, c->dir == FE_D2H, c->dev, it->data, c->bytes, &o, on_copy, h, i);
            if (rc > 0) continue; /* the DMA queue is full: next cycle */
            if (rc < 0) {
                fail(h, "fe_memcpy %s: bad copy (0x%llx, %llu bytes)", c->label, (unsigned long long)c->dev,
                     (unsigned long long)c->bytes);
                return;
            }
            free(it->data);
            it->data = NULL;
        }
        s->busy = true;
        c->t_exec_start = fe_cycle_ns(h, now);
    }
}

/* Runs the GPU until pred(h, arg) holds; the thread is blocked meanwhile. */
static int run_until(fe_host *h, bool (*pred)(const fe_host *, unsigned), unsigned arg, const char *what) {
    uint64_t limit = gpu_cycle(h->g) + h->p.max_cycles;
    while (!h->failed && !pred(h, arg)) {
        if (gpu_error(h->g)) return fail(h, "%s: GPU fault: %s", what, gpu_error(h->g));
        if (gpu_cycle(h->g) >= limit)
            return fail(h, "%s: not done after %llu GPU cycles ([fe] max_cycles)", what,
                        (unsigned long long)h->p.max_cycles);
        hif_step(h);
        gpu_tick(h->g);
    }
    if (gpu_error(h->g)) return fail(h, "%s: GPU fault: %s", what, gpu_error(h->g));
    return h->failed ? -1 : 0;
}

static bool stream_empty(const fe_host *h, unsigned s) { return !h->st[s].n; }
static bool none_pending(const fe_host *h, unsigned unused) {
    (void)unused;
    return !h->pending;
}
static bool cmd_done(const fe_host *h, unsigned i) { return h->it[i].done; }
static bool gpu_quiet(const fe_host *h, unsigned unused) {
    (void)unused;
    return gpu_idle(h->g);
}

/* ------------------------------------------------ life, set-up */

fe_host *fe_host_new(gpu_t *g, const fe_host_params *p, char *err, size_t errlen) {
    if (!g || !p || p->streams < 1 || p->streams > FE_MAX_STREAMS || p->pcie.bw_gbps <= 0 || !p->max_cycles) {
        snprintf(err, errlen, "fe_host: bad parameters (streams 1..%d, bandwidth > 0, max_cycles > 0)",
                 FE_MAX_STREAMS);
        return NULL;
    }
    fe_host *h = calloc(1, sizeof *h);
    if (!h) goto oom;
    h->g = g;
    h->p = *p;
    h->mhz = gpu_get_config(g)->clock_mhz;
    if (gpu_get_config(g)->dma_chans < p->streams + 1) {
        snprintf(err, errlen, "fe_host: %u streams need %u host-interface channels, [gpu] dma_chans = %u",
                 p->streams, p->streams + 1, gpu_get_config(g)->dma_chans);
        free(h);
        return NULL;
    }
    h->bpc = p->pcie.bw_gbps * 1000.0 / h->mhz; /* GB/s = bytes per ns */
    for (unsigned s = 0; s <= p->streams; s++) {
        h->st[s].cap = 64;
        h->st[s].q = malloc(h->st[s].cap * sizeof *h->st[s].q);
        if (!h->st[s].q) goto oom;
    }
    gpu_callbacks cb = {on_first, on_complete, h};
    gpu_set_callbacks(g, &cb);
    h->now = fe_cycle_ns(h, gpu_cycle(g));
    return h;
oom:
    fe_host_free(h);
    snprintf(err, errlen, "fe_host: out of memory");
    return NULL;
}

void fe_host_free(fe_host *h) {
    if (!h) return;
    for (unsigned s = 0; s <= FE_MAX_STREAMS; s++) free(h->st[s].q);
    for (unsigned i = 0; i < h->n_cmd; i++) free(h->it[i].data);
    free(h->cmd);
    free(h->it);
    free(h);
}

/* The thread's clock catches up with the GPU after untimed set-up work. */
static void catch_up(fe_host *h) {
    double t = fe_cycle_ns(h, gpu_cycle(h->g));
    if (t > h->now) h->now = t;
}

uint64_t fe_malloc(fe_host *h, uint64_t bytes) {
    uint64_t a = h->failed ? 0 : gpu_malloc(h->g, bytes);
    if (!a) fail(h, "fe_malloc(%llu): device memory full", (unsigned long long)bytes);
    return a;
}

uint64_t fe_malloc_sync(fe_host *h, uint64_t bytes, bool full) {
    if (h->failed) return 0;
    uint64_t a = gpu_malloc_sync(h->g, bytes);
    if (!a) {
        fail(h, "fe_malloc_sync(%llu): the F/E region ([mem] fe_region_bytes) is full", (unsigned long long)bytes);
        return 0;
    }
    uint64_t lines = (bytes + 127) / 128 * 128;
    int rc;
    while ((rc = gpu_fe_init(h->g, a, lines, full)) == 1) gpu_tick(h->g);
    if (rc < 0) {
        fail(h, "fe_malloc_sync: F/E init of 0x%llx refused", (unsigned long long)a);
        return 0;
    }
    if (run_until(h, gpu_quiet, 0, "fe_malloc_sync")) return 0;
    catch_up(h);
    return a;
}

int fe_poke(fe_host *h, uint64_t dev, const void *src, size_t bytes) {
    if (h->failed) return -1;
    if (gpu_mem_write(h->g, dev, src, bytes)) return fail(h, "fe_poke: 0x%llx + %zu out of range", (unsigned long long)dev, bytes);
    return 0;
}

/* ------------------------------------------------ the API */

static int add(fe_host *h, fe_cmd_kind kind, int stream, const char *label) {
    if (h->n_cmd == h->cap_cmd) {
        unsigned cap = h->cap_cmd ? 2 * h->cap_cmd : 64;
        fe_cmd *c = realloc(h->cmd, cap * sizeof *c);
        if (c) h->cmd = c;
        fe_item *it = realloc(h->it, cap * sizeof *it);
        if (it) h->it = it;
        if (!c || !it) return fail(h, "fe_host: out of memory");
        h->cap_cmd = cap;
    }
    unsigned i = h->n_cmd++;
    memset(&h->cmd[i], 0, sizeof h->cmd[i]);
    memset(&h->it[i], 0, sizeof h->it[i]);
    h->cmd[i].kind = kind;
    h->cmd[i].stream = stream;
    h->cmd[i].t_call = h->now;
    snprintf(h->cmd[i].label, sizeof h->cmd[i].label, "%s", label ? label : "");
    return (int)i;
}

/* Stage 2: the driver, a serial resource; the command reaches the host
 * interface when it leaves, and joins its stream's queue. */
static int to_gpu(fe_host *h, unsigned i, double ready, double driver_ns) {
    fe_cmd *c = &h->cmd[i];
    c->t_drv_start = ready > h->drv_free ? ready : h->drv_free;
    c->t_drv_end = h->drv_free = c->t_drv_start + driver_ns;
    h->it[i].arrive = cycle_at(h, c->t_drv_end);
    fe_stream *s = &h->st[c->stream < 0 ? h->p.streams : (unsigned)c->stream];
    if (s->n == s->cap) {
        unsigned *q = malloc(2 * s->cap * sizeof *q);
        if (!q) return fail(h, "fe_host: out of memory");
        for (unsigned k = 0; k < s->n; k++) q[k] = s->q[(s->head + k) % s->cap];
        free(s->q);
        s->q = q;
        s->head = 0;
        s->cap *= 2;
    }
    s->q[(s->head + s->n++) % s->cap] = i;
    h->pending++;
    return 0;
}

static int copy_cmd(fe_host *h, int stream, fe_dir dir, uint64_t dev, void *host, uint64_t bytes, unsigned trig,
                    unsigned act, const char *label) {
    if (trig > FE_TRIGGER_EMPTIED || act > FE_ACTION_EMPTY || !bytes || !host)
        return fail(h, "fe_memcpy %s: bad arguments (trigger %u, action %u, %llu bytes)", label ? label : "", trig,
                    act, (unsigned long long)bytes);
    int i = add(h, stream < 0 ? FE_CMD_MEMCPY : FE_CMD_COPY, stream, label);
    if (i < 0) return -1;
    fe_cmd *c = &h->cmd[i];
    c->dir = dir;
    c->trig = trig;
    c->act = act;
    c->dev = dev;
    c->bytes = bytes;
    if (dir == FE_H2D) {
        h->it[i].data = malloc(bytes);
        if (!h->it[i].data) return fail(h, "fe_host: out of memory");
        memcpy(h->it[i].data, host, bytes);
    } else {
        h->it[i].host = host;
    }
    return i;
}

int fe_memcpy_async(fe_host *h, unsigned stream, fe_dir dir, uint64_t dev, void *host, uint64_t bytes,
                    unsigned trig, unsigned act, const char *label) {
    if (h->failed) return -1;
    if (stream >= h->p.streams) return fail(h, "fe_memcpy_async: stream %u of %u", stream, h->p.streams);
    int i = copy_cmd(h, (int)stream, dir, dev, host, bytes, trig, act, label);
    if (i < 0) return -1;
    h->now += h->p.api.memcpy_async_call_ns; /* 1: enqueue on the CPU thread */
    h->cmd[i].t_return = h->now;
    return to_gpu(h, (unsigned)i, h->now, h->p.api.memcpy_async_driver_ns);
}

int fe_memcpy(fe_host *h, fe_dir dir, uint64_t dev, void *host, uint64_t bytes, unsigned trig, unsigned act,
              const char *label) {
    if (h->failed) return -1;
    int i = copy_cmd(h, -1, dir, dev, host, bytes, trig, act, label);
    if (i < 0 || to_gpu(h, (unsigned)i, h->now, h->p.api.memcpy_ns)) return -1;
    if (run_until(h, cmd_done, (unsigned)i, "fe_memcpy")) return -1;
    h->now = h->cmd[i].t_return = h->cmd[i].t_exec_end; /* blocking: control returns when it is done */
    return 0;
}

int fe_launch(fe_host *h, unsigned stream, const gpu_launch_desc *d, const char *label) {
    if (h->failed) return -1;
    if (stream >= h->p.streams) return fail(h, "fe_launch: stream %u of %u", stream, h->p.streams);
    int i = add(h, FE_CMD_LAUNCH, (int)stream, label);
    if (i < 0) return -1;
    h->it[i].d = *d;
    h->it[i].d.tag = (uint64_t)i;
    h->now += h->p.api.launch_call_ns;
    h->cmd[i].t_return = h->now;
    return to_gpu(h, (unsigned)i, h->now, h->p.api.launch_driver_ns);
}

/* cudaStreamSynchronize / cudaDeviceSynchronize: 1 us, then 1 us after the
 * work is done (F/E Table 2). */
static int sync_cmd(fe_host *h, int stream) {
    if (h->failed) return -1;
    int i = add(h, FE_CMD_SYNC, stream, stream < 0 ? "device sync" : "stream sync");
    if (i < 0) return -1;
    double work = 0;
    if (stream < 0) {
        if (run_until(h, none_pending, 0, "fe_device_sync")) return -1;
        for (unsigned s = 0; s <= h->p.streams; s++)
            if (h->st[s].last_end > work) work = h->st[s].last_end;
    } else {
        if (run_until(h, stream_empty, (unsigned)stream, "fe_stream_sync")) return -1;
        work = h->st[stream].last_end;
    }
    fe_cmd *c = &h->cmd[i];
    c->t_exec_start = c->t_exec_end = work;
    double t = h->now + h->p.api.sync_call_ns; /* as host_sync (sim/sys/host_api.c) */
    h->now = c->t_return = (work > t ? work : t) + h->p.api.sync_after_ns;
    h->it[i].done = true;
    return 0;
}

int fe_stream_sync(fe_host *h, unsigned stream) {
    if (!h->failed && stream >= h->p.streams) return fail(h, "fe_stream_sync: stream %u of %u", stream, h->p.streams);
    return sync_cmd(h, (int)stream);
}

int fe_device_sync(fe_host *h) { return sync_cmd(h, -1); }
