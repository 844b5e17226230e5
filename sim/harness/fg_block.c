/* fg_block: runs a block as its C twin, its verilated RTL, or both in
 * lockstep, stopping at the first cycle where any output differs. */
#include "fg_block.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_shim.h"

/* Set once by a program's option parsing, before any thread creates blocks. */
static const fg_block_tracer *tracer;

void fg_block_set_tracer(const fg_block_tracer *t) { tracer = t; }

const char *const fg_impl_names[] = {"c", "rtl", "lockstep", NULL};

int fg_impl_parse(const char *s, fg_impl *out) {
    for (unsigned i = 0; fg_impl_names[i]; i++)
        if (!strcmp(s, fg_impl_names[i])) {
            *out = (fg_impl)i;
            return 0;
        }
    return -1;
}

const char *fg_impl_name(fg_impl impl) { return impl <= FG_IMPL_LOCKSTEP ? fg_impl_names[impl] : "?"; }

static uint64_t field(const void *s, unsigned i) {
    uint64_t v;
    memcpy(&v, (const unsigned char *)s + (size_t)i * sizeof v, sizeof v);
    return v;
}

bool fg_ports_equal(const fg_port *ports, unsigned n, const void *a, const void *b,
                    fg_mismatch *m) {
    for (unsigned i = 0; i < n; i++) {
        uint64_t va = field(a, i), vb = field(b, i);
        if (va != vb) {
            if (m) {
                m->port = ports[i].name;
                m->rtl_value = va;
                m->c_value = vb;
            }
            return false;
        }
    }
    return true;
}

uint64_t fg_port_get(const fg_port *ports, unsigned n, const void *s, const char *name) {
    for (unsigned i = 0; i < n; i++)
        if (!strcmp(ports[i].name, name)) return field(s, i);
    fprintf(stderr, "fg_port_get: no port named %s\n", name);
    abort();
}

static void refresh(fg_block *b) {
    if (b->rtl) fg_rtl_outputs(b->rtl, b->out);
    if (b->twin) b->cls->twin_outputs(b->twin, b->rtl ? b->out_other : b->out);
}

static int compare(fg_block *b) {
    if (b->impl != FG_IMPL_LOCKSTEP) return 0;
    fg_mismatch m;
    if (fg_ports_equal(b->cls->out_ports, b->cls->n_out, b->out, b->out_other, &m)) return 0;
    m.cycle = b->cycle;
    b->mismatch = m;
    b->failed = true;
    snprintf(b->error, sizeof b->error,
             "%s lockstep divergence at cycle %" PRIu64 ": port %s rtl=0x%" PRIx64 " c=0x%" PRIx64
             " (RTL initial state: FG_XSEED=%" PRIu64 ")",
             b->cls->name, m.cycle, m.port, m.rtl_value, m.c_value, fg_rtl_xseed());
    return -1;
}

fg_block *fg_block_new(const fg_block_class *cls, fg_impl impl, const void *params, char *err,
                       size_t errlen) {
    fg_block *b = calloc(1, sizeof *b);
    if (!b) {
        snprintf(err, errlen, "%s: out of memory", cls->name);
        return NULL;
    }
    b->cls = cls;
    b->impl = impl;
    b->out = calloc(1, cls->out_size);
    b->out_other = calloc(1, cls->out_size);
    if (!b->out || !b->out_other) {
        snprintf(err, errlen, "%s: out of memory", cls->name);
        fg_block_free(b);
        return NULL;
    }
    if (impl != FG_IMPL_RTL) {
        b->twin = cls->twin_new(params);
        if (!b->twin) {
            snprintf(err, errlen, "%s: invalid parameters for the C twin", cls->name);
            fg_block_free(b);
            return NULL;
        }
    }
    if (impl != FG_IMPL_C) {
        if (!cls->rtl_new) {
            snprintf(err, errlen, "%s: this binary was built without the verilated RTL", cls->name);
            fg_block_free(b);
            return NULL;
        }
        b->rtl = cls->rtl_new(params, err, errlen);
        if (!b->rtl) {
            fg_block_free(b);
            return NULL;
        }
    }
    fg_block_reset(b);
    b->tracer = tracer;
    if (b->tracer && (b->wave_prev = calloc(1, cls->out_size))) b->tracer->attach(b);
    return b;
}

void fg_block_free(fg_block *b) {
    if (!b) return;
    free(b->idle_in);
    free(b->idle_state);
    if (b->wave) b->tracer->detach(b);
    free(b->wave_prev);
    if (b->twin) b->cls->twin_free(b->twin);
    if (b->rtl) fg_rtl_free(b->rtl);
    free(b->out);
    free(b->out_other);
    free(b);
}

void fg_block_reset(fg_block *b) {
    b->idle_have = b->idle_fixed = false;
    b->idle_wait = b->idle_backoff = 0;
    b->idle_run = 0;
    if (b->twin) b->cls->twin_reset(b->twin);
    if (b->rtl) fg_rtl_reset(b->rtl);
    b->cycle = 0;
    b->failed = false;
    b->error[0] = '\0';
    refresh(b);
    compare(b);
}

const void *fg_block_out(const fg_block *b) { return b->out; }

int fg_block_idle_skip(fg_block *b) {
    const char *e = getenv("FG_IDLE_SKIP");
    if (b->impl != FG_IMPL_RTL || (e && !strcmp(e, "0"))) return 0;
    const void *st;
    size_t n = fg_rtl_state(b->rtl, &st);
    if (!n) return 0;
    b->idle_in = malloc(b->cls->in_size);
    b->idle_state = malloc(n);
    if (!b->idle_in || !b->idle_state) return -1;
    b->idle_bytes = n;
    b->idle_min = (unsigned)(n / FG_IDLE_PROBE_BYTES);
    return 0;
}

/* A probe that did not pay: wait twice as long before the next (up to FG_IDLE_BACKOFF). */
static void backoff_grow(fg_block *b) {
    b->idle_backoff = !b->idle_backoff ? 1 : b->idle_backoff < FG_IDLE_BACKOFF ? 2 * b->idle_backoff : FG_IDLE_BACKOFF;
}

/* The idle skip (fg_block_idle_skip): true when this edge is skipped. */
static bool idle_edge(fg_block *b, const void *in, bool *probe) {
    *probe = false;
    if (!b->idle_bytes || b->wave) return false;
    if (b->idle_have && !memcmp(in, b->idle_in, b->cls->in_size)) {
        if (b->idle_fixed) {
            b->idle_run++;
            return true;
        }
        if (b->idle_wait) { /* the last probe found the state moving */
            b->idle_wait--;
            return false;
        }
        const void *st;
        if (fg_rtl_state(b->rtl, &st) != b->idle_bytes) return false; /* traced now */
        memcpy(b->idle_state, st, b->idle_bytes);
        *probe = true;
        return false;
    }
    if (b->idle_fixed) { /* a fixed point found by a probe ends: did its skips pay for the probe? */
        if (b->idle_run >= b->idle_min) b->idle_backoff /= 2;
        else backoff_grow(b);
    }
    memcpy(b->idle_in, in, b->cls->in_size);
    b->idle_have = true;
    b->idle_fixed = false;
    /* that many repeats in a row before a probe: more after one that found the
     * state moving, and more for a large state (a probe copies and compares
     * all of it: worth it only before a long idle stretch) */
    b->idle_wait = b->idle_backoff > b->idle_min ? b->idle_backoff : b->idle_min;
    return false;
}

int fg_block_step(fg_block *b, const void *in) {
    if (b->failed) return -1;
    bool probe;
    if (idle_edge(b, in, &probe)) {
        fg_block_skip(b);
        b->idle_skipped++;
        return 0;
    }
    if (b->wave) {
        memcpy(b->wave_prev, b->out, b->cls->out_size);
        b->tracer->edge(b);
    }
    if (b->twin) b->cls->twin_step(b->twin, in);
    if (b->rtl) fg_rtl_step(b->rtl, in);
    b->cycle++;
    refresh(b);
    if (b->wave) b->tracer->step(b, in, b->wave_prev);
    if (probe) {
        const void *st;
        b->idle_fixed = fg_rtl_state(b->rtl, &st) == b->idle_bytes && !memcmp(st, b->idle_state, b->idle_bytes);
        if (!b->idle_fixed) {
            backoff_grow(b);
            b->idle_wait = b->idle_backoff;
        } else {
            b->idle_run = 0; /* judged when the inputs change (idle_edge) */
        }
    }
    if (b->rtl && fg_rtl_error(b->rtl)) {
        b->failed = true;
        snprintf(b->error, sizeof b->error, "%s: %s", b->cls->name, fg_rtl_error(b->rtl));
        return -1;
    }
    return compare(b);
}

void fg_block_skip(fg_block *b) {
    if (b->rtl) fg_rtl_skip(b->rtl);
    b->cycle++;
}

int fg_block_trace(fg_block *b, const char *path, uint64_t start, uint64_t end) {
    if (!b->rtl) {
        fprintf(stderr, "%s: waveforms need the RTL (--impl rtl or lockstep)\n", b->cls->name);
        return -1;
    }
    return fg_rtl_trace(b->rtl, path, start, end);
}
