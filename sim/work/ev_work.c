/* ev_work: the registry of event-kernel kinds and the helpers they share. */
#include "work/ev_work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "twin/gen/fe_sched_queues_enc.h"

const ev_work_ops *const ev_work_kinds[] = {&ev_ipv4_ops, &ev_ipv6_ops, &ev_memc_ops, &ev_ipsec_ops, NULL};

const ev_work_ops *ev_work_find(const char *name) {
    for (const ev_work_ops *const *k = ev_work_kinds; *k; k++)
        if (!strcmp((*k)->name, name)) return *k;
    return NULL;
}

int ev_work_load_configs(fg_config *cfg, char *err, size_t errlen) {
    for (const ev_work_ops *const *k = ev_work_kinds; *k; k++)
        if ((*k)->load_config(cfg, err, errlen)) return -1;
    return 0;
}

int ev_cfg_load(fg_config *cfg, const char *section, const ev_cfg_key *k, size_t n, uint64_t *seed, char *err,
                size_t errlen) {
    if (!cfg) return 0;
    for (size_t i = 0; i < n; i++) {
        uint64_t v = *k[i].dst;
        if (fg_config_u64(cfg, section, k[i].key, k[i].min, k[i].max, &v, err, errlen)) return -1;
        *k[i].dst = (unsigned)v;
    }
    return seed ? fg_config_u64(cfg, section, "seed", 0, UINT64_MAX, seed, err, errlen) : 0;
}

const char *ev_elf_path(char *buf, size_t len, const char *kdir, const char *name) {
    snprintf(buf, len, "%s/%s.elf", kdir, name);
    return buf;
}

int ev_idle_none(const void *w, gpu_t *g, char *err, size_t errlen) {
    (void)w, (void)g, (void)err, (void)errlen;
    return 0;
}

static const void *region_src(const ev_region *r) { return r->src ? r->src : &r->word; }

int ev_io_put(gpu_t *g, const ev_io *io) {
    uint8_t poison[4096];
    for (unsigned i = 0; i < io->nin; i++)
        if (gpu_mem_write(g, io->in[i].addr, region_src(&io->in[i]), io->in[i].len)) return -1;
    memset(poison, io->poison, sizeof poison);
    for (unsigned i = 0; i < io->nout; i++)
        for (size_t off = 0; off < io->out[i].len; off += sizeof poison) {
            size_t n = io->out[i].len - off < sizeof poison ? io->out[i].len - off : sizeof poison;
            if (gpu_mem_write(g, io->out[i].addr + off, poison, n)) return -1;
        }
    return 0;
}

static void io_sent(void *u, uint64_t tag, uint64_t cycle, const void *data, size_t len) {
    ev_send_state *st = u;
    (void)tag, (void)cycle, (void)data, (void)len;
    if (--st->left == 0 && st->cb) st->cb(st->user, st->tag);
}

int ev_io_send(gpu_t *g, const ev_io *io, ev_ring ring, double bytes_per_cycle, ev_send_state *st, ev_sent_cb cb,
               void *user, uint64_t tag) {
    ev_io outs = *io; /* the outputs' poison: backdoor, not traffic */
    outs.nin = 0;
    if (gpu_dma_free(g) < io->nin || ev_io_put(g, &outs)) return -1;
    const bool cut = st->cut;
    size_t keep = st->cut_bytes;
    /* cut: one part more than is ever acknowledged */
    *st = (ev_send_state){cb, user, tag, io->nin + (cut ? 1u : 0u), false, 0};
    /* in a synchronized ring each word is written once it is empty (the
     * kernel handed the slot back) and filled; the count words first, so
     * that a kernel already running gets past its count while its data is
     * still crossing the link */
    for (unsigned pass = ring == EV_RING_PLAIN; pass < 2; pass++)
        for (unsigned i = 0; i < io->nin; i++) {
            const ev_region *r = &io->in[i];
            if (ring == EV_RING_SYNC && (r->src == NULL) != (pass == 0)) continue;
            size_t len = r->len;
            if (cut) {
                len = len < keep ? len : keep;
                keep -= len;
                if (!len) continue;
            }
            if (ring == EV_RING_PLAIN ? gpu_dma_write(g, r->addr, region_src(r), len, bytes_per_cycle, io_sent, st, tag)
                                      : ev_ring_dma(g, r->addr, region_src(r), len, bytes_per_cycle, io_sent, st, tag))
                return -1;
        }
    return 0;
}

int ev_io_rearm(gpu_t *g, const ev_io *io) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (unsigned i = 0; i < io->nin; i++) {
        if (io->in[i].addr < lo) lo = io->in[i].addr;
        if (io->in[i].addr + io->in[i].len > hi) hi = io->in[i].addr + io->in[i].len;
    }
    if (hi <= lo) return -1;
    lo &= ~(uint64_t)127;
    hi = (hi + 127) & ~(uint64_t)127;
    return gpu_fe_init(g, lo, hi - lo, false);
}

int ev_ring_dma(gpu_t *g, uint64_t addr, const void *src, size_t len, double bytes_per_cycle, gpu_dma_cb cb,
                void *user, uint64_t tag) {
    const gpu_copy_opts o = {0, FE_TRIG_EMPTY, FE_ACT_FILL, bytes_per_cycle};
    return gpu_copy(g, false, addr, src, len, &o, cb, user, tag);
}

static uint64_t slot_stride(uint64_t data_bytes) { return FG_RING_HDR_BYTES + ((data_bytes + 127) & ~127ull); }

uint64_t ev_ring_alloc(gpu_t *g, unsigned slots, uint64_t data_bytes) {
    return gpu_malloc_sync(g, (uint64_t)slots * slot_stride(data_bytes));
}

uint64_t ev_ring_data(uint64_t ring, unsigned slot, uint64_t data_bytes) {
    return ring + (uint64_t)slot * slot_stride(data_bytes) + FG_RING_HDR_BYTES;
}

void ev_slot_regions(ev_io *io, ev_ring ring, uint64_t ring_data, uint64_t data, const void *src, size_t len,
                     uint64_t count, uint32_t n) {
    const bool r = ring == EV_RING_SYNC;
    io->in[0] = (ev_region){r ? ring_data : data, src, len, 0};
    io->in[1] = (ev_region){r ? ring_data - FG_RING_HDR_BYTES : count, NULL, 4, n};
    io->nin = 2;
}

int ev_param_write(gpu_t *g, uint64_t addr, const void *q, size_t plain, ev_ring ring, uint64_t ring_data) {
    const uint32_t rd = (uint32_t)ring_data;
    if (gpu_mem_write(g, addr, q, plain)) return -1;
    return ring == EV_RING_SYNC ? gpu_mem_write(g, addr + plain, &rd, 4) : 0;
}

static int tick_gpu(void *g) {
    gpu_tick(g);
    return 0;
}

int ev_ring_setup(gpu_t *g, uint64_t lo, uint64_t hi, const char *name, char *err, size_t errlen) {
    return ev_ring_setup_ticked(g, lo, hi, name, tick_gpu, g, err, errlen);
}

int ev_ring_setup_ticked(gpu_t *g, uint64_t lo, uint64_t hi, const char *name, int (*tick)(void *), void *user,
                         char *err, size_t errlen) {
    int rc = -1;
    if (hi > lo)
        while ((rc = gpu_fe_init(g, lo, hi - lo, false)) == 1 && !tick(user)) {}
    for (uint64_t i = 0; !rc && i < 10000000 && !gpu_idle(g); i++)
        if (tick(user)) rc = -1;
    if (rc || !gpu_idle(g) || gpu_error(g)) {
        snprintf(err, errlen, "%s: ring = sync: the ring [0x%llx, 0x%llx) could not be marked empty%s%s", name,
                 (unsigned long long)lo, (unsigned long long)hi, gpu_error(g) ? ": " : "",
                 gpu_error(g) ? gpu_error(g) : "");
        return -1;
    }
    return 0;
}

int ev_io_check_skipped(gpu_t *g, const ev_io *io, const char *name, unsigned slot, char *err, size_t errlen) {
    uint8_t buf[4096];
    for (unsigned o = 0; o < 2; o++) {
        const ev_region *rs = o ? io->out : io->in;
        for (unsigned i = 0; i < (o ? io->nout : io->nin); i++)
            for (size_t off = 0; off < rs[i].len; off += sizeof buf) {
                size_t n = rs[i].len - off < sizeof buf ? rs[i].len - off : sizeof buf;
                if (gpu_mem_read(g, rs[i].addr + off, buf, n)) {
                    snprintf(err, errlen, "%s: slot %u: region outside GPU memory", name, slot);
                    return -1;
                }
                for (size_t j = 0; j < n; j++) {
                    uint8_t want = o ? io->poison : ((const uint8_t *)region_src(&rs[i]))[off + j];
                    if (buf[j] == want) continue;
                    snprintf(err, errlen, "%s: slot %u skipped event: %s %u byte %zu is 0x%02x, want 0x%02x (%s)", name,
                             slot, o ? "output" : "input", i, off + j, buf[j], want,
                             o ? "an output was written" : "the input did not arrive");
                    return -1;
                }
            }
    }
    return 0;
}

gpu_launch_desc ev_warp_desc(const gpu_kernel *k, uint64_t param, unsigned threads, unsigned priority,
                             uint64_t tag) {
    gpu_launch_desc d = gpu_desc_1d(k, 1, threads, param);
    d.priority = priority;
    d.tag = tag;
    d.warp_event = true; /* EDGE IV-C: one block of <= 32 threads, no shared memory -> PEWT */
    return d;
}
