/* simt_lsu: the SIMT core's memory path (docs/SIMT.md "Memory path") —
 * address translation (global / shared / local), the load/store unit, the
 * L1 data cache (write-through, no write-allocate) with MSHRs that merge
 * line reads, the i-cache with its own MSHRs, register save / restore lines
 * (EDGE IV-D), and the core's one port into the memory system (sim/mem/):
 * a small queue the LSU, instruction fetch and save / restore take turns to
 * fill, one request offered per cycle, responses taken each cycle.
 *
 * Functional vs timing: ordinary loads and stores act on the flat memory
 * when they issue (correct for every kernel run here: one coherent memory)
 * and send timing-only requests; a load completes when its lines' responses
 * are back.  Atomics on global memory do the same with [gpu] atomics =
 * issue; with atomics = memory they are lane-form data requests performed at
 * the L2 slice (mem.h), the old values written at writeback from the
 * response, and the warp's later loads / stores to a line with one of its
 * atomics in flight, and its block barrier, wait for it (docs/SIMT.md
 * "Atomics").  Accesses to the F/E-tracked region are functional
 * requests instead (F/E 4.1: a load's value is the word when the F/E queues
 * release it, a store's bytes are written when performed); they bypass the
 * L1.  F/E instructions (custom-0/1, rv32.h) carry their own trigger and
 * action; an F/E watchdog NACK is sent again after a backoff, at most
 * [gpu] fe_retry_max times, then the GPU faults (docs/FE_E2E.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simt/simt_core_state.h"

/* request ids: what a response belongs to (type << 56 | index) */
enum { RQ_LINE = 1, RQ_INST, RQ_TAG, RQ_SAVE };
#define RQ(t, i) ((uint64_t)(t) << 56 | (uint64_t)(i))

static unsigned popc(uint32_t x) { return (unsigned)__builtin_popcount(x); }

/* ------------------------------------------------------------ caches */

static int cache_init(simt_cache *c, unsigned bytes, unsigned line, unsigned assoc) {
    unsigned lines = bytes / line;
    if (assoc == 0 || lines < assoc) lines = assoc = 1;
    c->assoc = assoc;
    c->sets = lines / assoc;
    c->tag = calloc((size_t)c->sets * assoc, sizeof *c->tag);
    c->lru = calloc((size_t)c->sets * assoc, sizeof *c->lru);
    return c->tag && c->lru ? 0 : -1;
}

/* true on hit; on miss installs the line (LRU victim) when install */
static bool cache_access(simt_cache *c, uint32_t line, uint64_t now, bool install) {
    unsigned set = line % c->sets;
    uint32_t *t = &c->tag[set * c->assoc];
    uint64_t *u = &c->lru[set * c->assoc];
    unsigned v = 0;
    for (unsigned i = 0; i < c->assoc; i++) {
        if (t[i] == line + 1) { u[i] = now + 1; return true; }
        if (u[i] < u[v]) v = i;
    }
    if (install) { t[v] = line + 1; u[v] = now + 1; }
    return false;
}

static void cache_inval(simt_cache *c, uint32_t line) {
    unsigned set = line % c->sets;
    for (unsigned i = 0; i < c->assoc; i++)
        if (c->tag[set * c->assoc + i] == line + 1) c->tag[set * c->assoc + i] = 0;
}

/* ------------------------------------------------------------ set-up */

int simt_lsu_init(simt_core *c) {
    const gpu_config *k = c->k;
    c->lsh = (unsigned)__builtin_ctz(k->line_bytes);
    c->mshr = calloc(k->l1_mshrs, sizeof *c->mshr);
    c->imshr = calloc(k->icache_mshrs, sizeof *c->imshr);
    c->pq = calloc(k->port_queue, sizeof *c->pq);
    c->tag = calloc(k->port_tags, sizeof *c->tag);
    c->fe_req = calloc(k->port_tags, sizeof *c->fe_req);
    c->fe_retry_at = calloc(k->port_tags, sizeof *c->fe_retry_at);
    c->fe_tries = calloc(k->port_tags, sizeof *c->fe_tries);
    if (!c->mshr || !c->imshr || !c->pq || !c->tag || !c->fe_req || !c->fe_retry_at || !c->fe_tries) return -1;
    for (unsigned i = 0; i < k->port_tags; i++) c->tag[i].next = i + 1 < k->port_tags ? i + 1 : UINT32_MAX;
    c->tag_free = 0;
    if (k->pre.warp_events) { /* at most one save and one restore of 64 registers per slot */
        c->bulk_cap = c->nwarps * RV_NREGS * 2;
        c->bulk = calloc(c->bulk_cap, sizeof *c->bulk);
        if (!c->bulk) return -1;
    }
    if (cache_init(&c->l1, k->l1_bytes, k->line_bytes, k->l1_assoc)) return -1;
    if (cache_init(&c->icache, k->icache_bytes, k->line_bytes, k->icache_assoc)) return -1;
    return 0;
}

void simt_lsu_free(simt_core *c) {
    free(c->mshr); free(c->imshr); free(c->pq); free(c->tag); free(c->bulk);
    free(c->fe_req); free(c->fe_retry_at); free(c->fe_tries);
    free(c->l1.tag); free(c->l1.lru); free(c->icache.tag); free(c->icache.lru);
}

bool simt_lsu_busy(const simt_core *c) {
    return c->pq_n || c->bulk_n || c->tags_used || c->mshrs_used || c->imshrs_used || c->n_save_out ||
           c->lsu.busy;
}

/* ------------------------------------------------- end of a kernel */

/* [gpu] kernel_end_drain.  The EDGE artifact's gem5-gpu flushes a core's
 * load/store queue when a kernel ends on it (an event: every event warp), and
 * its GPGPU-Sim, unable to send requests while the flush is pending, stalls
 * the core's global, local, constant and parameter accesses, barriers and
 * memory barriers until the queue holds none (ldst_unit::memory_cycle_gem5
 * "stall the running kernels on this SM"); shared-memory accesses go on.  The
 * stall falls on the core's other warps: the more events a core runs, the
 * more of it. */
static bool data_in_flight(const simt_core *c) { return c->lsu.busy || c->mshrs_used || c->data_tags; }

void simt_lsu_kernel_end(simt_core *c) {
    if (!c->k->kernel_end_drain || c->end_drain || !data_in_flight(c)) return;
    c->end_drain = true;
    c->drain_new = true;
}

void simt_lsu_end_drain_step(simt_core *c) {
    if (c->end_drain && !data_in_flight(c)) c->end_drain = false;
}

/* The bottom of this core's thread stacks: [FG_SHARED_BASE, stack_bottom) is
 * the shared-memory window (docs/SIMT.md's memory map). */
static inline uint32_t stack_bottom(const simt_core *c) { return FG_LOCAL_TOP - c->k->stack_bytes; }
static inline bool in_shared_window(const simt_core *c, uint32_t a) {
    return a >= FG_SHARED_BASE && a < stack_bottom(c);
}

bool simt_lsu_end_drain_refuses(const simt_core *c, const simt_warp *w, const rv_inst *in, uint32_t m) {
    if (in->op == OP_FENCE || ((in->flags & RVF_CSR) && in->csr == FG_CSR_BARRIER) || (in->flags & RVF_AMO)) return true;
    if (!(in->flags & (RVF_LOAD | RVF_STORE))) return false;
    /* only an access whose every lane is in the shared window goes on (a bad
     * address faults once the drain is over) */
    const uint32_t *base = w->x.r[in->rs1];
    for (uint32_t mm = m; mm; mm &= mm - 1)
        if (!in_shared_window(c, base[__builtin_ctz(mm)] + (uint32_t)in->imm)) return true;
    return false;
}

/* ------------------------------------------------------------ the port */

static bool port_room(const simt_core *c) { return c->pq_n < c->k->port_queue; }

static mem_req *port_push(simt_core *c, uint64_t id, uint32_t line, uint8_t op, uint8_t kind) {
    mem_req *r = &c->pq[(c->pq_head + c->pq_n++) % c->k->port_queue];
    memset(r, 0, offsetof(mem_req, wdata));
    r->id = id;
    r->addr = (uint64_t)line << c->lsh;
    r->op = op;
    r->kind = kind;
    r->src = MEM_SRC_GPU;
    r->fe_trig = r->fe_act = MEM_FE_DEFAULT; /* F/E 4.1 GPU defaults */
    r->amo_ops = 1;
    return r;
}

/* bytes [off, off + n) of a line (off + n <= MEM_LINE_MAX) */
static void mask_bytes(uint64_t bm[2], unsigned off, unsigned n) {
    for (unsigned w = 0, end = off + n; w < 2; w++) {
        const unsigned a = off > 64 * w ? off : 64 * w, b = end < 64 * w + 64 ? end : 64 * w + 64;
        if (a < b) bm[w] |= (b - a == 64 ? ~0ull : (1ull << (b - a)) - 1) << (a - 64 * w);
    }
}

static void mask_line(const simt_core *c, uint64_t bm[2]) {
    bm[0] = bm[1] = 0;
    mask_bytes(bm, 0, c->k->line_bytes);
}

static int tag_alloc(simt_core *c, uint8_t kind, unsigned slot, uint64_t age, uint32_t pc) {
    uint32_t i = c->tag_free;
    if (i == UINT32_MAX) return -1;
    simt_tag *t = &c->tag[i];
    c->tag_free = t->next;
    c->tags_used++;
    c->data_tags += kind != TG_RESTORE;
    t->kind = kind;
    t->slot = (uint16_t)slot;
    t->age = age;
    t->pc = pc;
    t->ld = 0;
    t->uid = 0;
    return (int)i;
}

static void tag_free(simt_core *c, uint32_t i) {
    c->data_tags -= c->tag[i].kind != TG_RESTORE;
    c->tag[i].kind = TG_FREE;
    c->tag[i].next = c->tag_free;
    c->tag_free = i;
    c->tags_used--;
}

/* ------------------------------------------------------------ addresses */

enum { RG_BAD = 0, RG_GLOBAL, RG_SHARED, RG_LOCAL };

static inline uint8_t *translate(simt_core *c, simt_warp *w, unsigned lane, uint32_t a, unsigned size, int *rg) {
    if (a >= FG_GUARD_END && (uint64_t)a + size <= c->gmem_size) { *rg = RG_GLOBAL; return c->gmem + a; }
    if (in_shared_window(c, a)) {
        const simt_block *b = &c->blk[w->block];
        uint32_t off = a - FG_SHARED_BASE;
        if ((uint64_t)off + size <= b->shmem_size) { *rg = RG_SHARED; return c->shmem + b->shmem_off + off; }
        *rg = RG_BAD;
        return NULL;
    }
    const uint32_t lb = stack_bottom(c);
    if (a >= lb && (uint64_t)a + size <= FG_LOCAL_TOP) {
        *rg = RG_LOCAL;
        return c->local + ((size_t)w->local_idx * SIMT_LANES + lane) * c->k->stack_bytes + (a - lb);
    }
    *rg = RG_BAD;
    return NULL;
}

static inline uint32_t ld_val(const uint8_t *p, unsigned op) {
    switch (op) {
    case OP_LB: return (uint32_t)(int32_t)(int8_t)p[0];
    case OP_LBU: return p[0];
    case OP_LH: { int16_t v; memcpy(&v, p, 2); return (uint32_t)(int32_t)v; }
    case OP_LHU: { uint16_t v; memcpy(&v, p, 2); return v; }
    default: { uint32_t v; memcpy(&v, p, 4); return v; }
    }
}

static bool is_fe(const simt_core *c, uint32_t a) { return c->ms && mem_fe_tracked(c->ms, a); }

/* ------------------------------------------------------------ issue */

/* Functional part of a store / atomic lane on ordinary memory. */
static void store_lane(uint8_t *p, uint32_t v, unsigned size) {
    if (size == 1) *p = (uint8_t)v;
    else if (size == 2) { uint16_t h = (uint16_t)v; memcpy(p, &h, 2); }
    else memcpy(p, &v, 4);
}

/* [gpu] atomics = memory: the global atomics are performed at the L2. */
static bool amo_at_mem(const simt_core *c) { return c->k->atomics == GPU_ATOMICS_MEMORY && c->ms; }

/* The memory system's operation for lane l of atomic `op` at a, performed
 * at the L2 (mem.h lane form).  LR takes the reservation now (its value
 * comes with the response); SC carries the value the lane's LR read, or
 * fails at once without one (as amo_lane). */
static uint8_t amo_mem_op(simt_warp *w, unsigned op, unsigned l, uint32_t a, uint32_t *cmp) {
    *cmp = 0;
    switch (op) {
    case OP_LR: w->lr_addr[l] = a + 1; return MEM_AMO_LR;
    case OP_SC: {
        bool held = w->lr_addr[l] == a + 1;
        w->lr_addr[l] = 0;
        *cmp = w->lr_val[l];
        return held ? MEM_AMO_SC : MEM_AMO_SC_FAIL;
    }
    case OP_AMOSWAP: return MEM_AMO_SWAP;
    case OP_AMOADD: return MEM_AMO_ADD;
    case OP_AMOXOR: return MEM_AMO_XOR;
    case OP_AMOAND: return MEM_AMO_AND;
    case OP_AMOOR: return MEM_AMO_OR;
    case OP_AMOMIN: return MEM_AMO_MIN;
    case OP_AMOMAX: return MEM_AMO_MAX;
    case OP_AMOMINU: return MEM_AMO_MINU;
    default: return MEM_AMO_MAXU;
    }
}

/* atomics = memory, program order within a warp: loads and stores act on the
 * flat memory at issue, so one may not overtake the warp's own atomic on
 * the same line still on its way to the L2 (atomics after atomics keep their
 * order on their own: one port, one slice, both in order). */
static bool amo_in_flight(const simt_core *c, const simt_warp *w, uint32_t line) {
    for (unsigned i = 0; i < c->k->port_tags; i++) {
        const simt_tag *t = &c->tag[i];
        if (t->kind == TG_ATOMIC && t->line == line && t->slot == w->slot && t->age == w->age) return true;
    }
    return false;
}

/* An SC waits while the warp's LR is in flight: it carries the value the LR
 * read at the L2. */
static bool lr_in_flight(const simt_warp *w) {
    for (unsigned i = 0; i < SIMT_MAX_LD; i++)
        if (w->ld[i].valid && w->ld[i].op == OP_LR) return true;
    return false;
}

static uint32_t amo_lane(simt_warp *w, unsigned op, unsigned l, uint8_t *p, uint32_t a, uint32_t s) {
    uint32_t old, nv;
    memcpy(&old, p, 4);
    switch (op) {
    case OP_LR: w->lr_addr[l] = a + 1; w->lr_val[l] = old; return old;
    case OP_SC: {
        uint32_t r = 1;
        if (w->lr_addr[l] == a + 1 && w->lr_val[l] == old) { memcpy(p, &s, 4); r = 0; }
        w->lr_addr[l] = 0;
        return r;
    }
    case OP_AMOSWAP: nv = s; break;
    case OP_AMOADD: nv = old + s; break;
    case OP_AMOXOR: nv = old ^ s; break;
    case OP_AMOAND: nv = old & s; break;
    case OP_AMOOR: nv = old | s; break;
    case OP_AMOMIN: nv = (int32_t)old < (int32_t)s ? old : s; break;
    case OP_AMOMAX: nv = (int32_t)old > (int32_t)s ? old : s; break;
    case OP_AMOMINU: nv = old < s ? old : s; break;
    default: nv = old > s ? old : s; break;
    }
    memcpy(p, &nv, 4);
    return old;
}

/* The functional part of lane l of a memory instruction on ordinary memory:
 * a load's value read (ld), an atomic done at issue (amo, ld), or a store
 * (no ld). */
static inline void lane_mem(simt_warp *w, simt_load *ld, unsigned op, unsigned size, bool amo, unsigned l, uint8_t *p,
                            uint32_t a, uint32_t s) {
    if (amo) ld->val[l] = amo_lane(w, op, l, p, a, s);
    else if (ld) ld->val[l] = ld_val(p, op);
    else store_lane(p, s, size);
}

void simt_thread_name(const simt_core *c, const simt_warp *w, unsigned l, char *buf, size_t len) {
    const simt_grid *k = w->grid;
    unsigned t = w->wib * SIMT_LANES + l, bx = k->block[0], by = k->block[1];
    const uint32_t *b = c->blk[w->block].ctaid;
    snprintf(buf, len, "block (%u,%u,%u) thread (%u,%u,%u)", b[0], b[1], b[2], t % bx, t / bx % by, t / (bx * by));
}

/* The optional per-access check (gpu_set_access_check): true when it
 * refused lane l's access to a, the core stopped with a fault naming the
 * thread. */
static bool access_refused(simt_core *c, const simt_warp *w, const rv_inst *in, unsigned l, uint32_t a, bool wr) {
    char why[256], who[96];
    unsigned prov = w->x.prov ? w->x.prov[in->rs1][l] : RV_PROV_NONE;
    if (!c->acc_check(c->acc_user, a, in->size, wr, prov, why, sizeof why)) return false;
    simt_thread_name(c, w, l, who, sizeof who);
    simt_core_fault(c, "%s: %s of %u bytes at 0x%08x, pc 0x%08x (core %u warp %u lane %u = %s)", why,
                    rv_op_name(in->op), in->size, a, w->x.pc, c->id, w->slot, l, who);
    return true;
}

/* What a bad address is near: the thread's stack (an overflow), or the
 * shared-memory window beyond the block's size. */
static void bad_address_why(const simt_core *c, const simt_warp *w, uint32_t a, char *buf, size_t len) {
    const uint32_t lb = stack_bottom(c);
    buf[0] = '\0';
    if (a < lb && lb - a <= 65536u)
        snprintf(buf, len, "; %u bytes below this thread's stack [0x%08x, 0x%08x): a stack overflow? the stack is "
                 "gpu.stack_bytes = %u bytes per thread (raise it with --set gpu.stack_bytes=N)",
                 lb - a, lb, FG_LOCAL_TOP, c->k->stack_bytes);
    else if (in_shared_window(c, a))
        snprintf(buf, len, "; shared memory offset %u, beyond the block's %u bytes of shared memory (static "
                 "FG_SHARED arrays + dynamic)", a - FG_SHARED_BASE, c->blk[w->block].shmem_size);
}

static void shared_access(simt_core *c, const simt_warp *w, const rv_inst *in, unsigned l, uint32_t a, bool wr,
                          bool amo, bool global) {
    const simt_block *b = &c->blk[w->block];
    const uint32_t off = global ? a : a - FG_SHARED_BASE;
    gpu_shared_access x = {.core = c->id, .warp_slot = w->slot, .lane = l,
                           .word = global ? a >> 2 : (b->shmem_off + off) >> 2, .off = off, .block_uid = b->uid, .bar_gen = b->bar_gen, .tid = w->wib * SIMT_LANES + l,
                           .pc = w->x.pc, .size = in->size, .write = wr, .atomic = amo, .global = global};
    memcpy(x.ctaid, b->ctaid, sizeof x.ctaid);
    memcpy(x.ntid, w->grid->block, sizeof x.ntid);
    c->sh_hook(c->sh_user, &x);
}

/* A load or store whose lanes all address one region of ordinary memory
 * (global memory outside the F/E-tracked region, the block's shared memory,
 * or the threads' stacks), the common case: the region is checked once at
 * the lanes' lowest and highest addresses instead of translating each lane,
 * giving the same lines in the same order and the same bank conflicts as
 * the general walk in simt_lsu_issue.  Fills hp, addr and the LSU's lines
 * (nl), or nshared / conflict, or nlocal; false, having filled nothing the
 * general walk does not overwrite, when the access is not one, or the run
 * wants each lane seen (access checks, race checks, provenance) or has
 * atomics in flight. */
static bool lsu_one_region(simt_core *c, const simt_warp *w, const rv_inst *in, uint32_t m, uint8_t **hp,
                           uint32_t *addr, unsigned *nl, unsigned *nshared, unsigned *nlocal, unsigned *conflict) {
    if (!m || c->acc_check || c->sh_hook || w->x.prov || w->n_amo) return false;
    const uint32_t *base = w->x.r[in->rs1], imm = (uint32_t)in->imm, size = in->size;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t mm = m; mm; mm &= mm - 1) {
        const unsigned l = (unsigned)__builtin_ctz(mm);
        const uint32_t a = base[l] + imm;
        addr[l] = a;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    const uint64_t end = (uint64_t)hi + size; /* one past the highest lane's last byte */
    if (lo >= FG_GUARD_END && end <= c->gmem_size) {
        if (c->ms && mem_fe_overlaps(c->ms, lo, hi)) return false;
        simt_lsu *u = &c->lsu;
        unsigned n = 0;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            const unsigned l = (unsigned)__builtin_ctz(mm);
            const uint32_t ln = addr[l] >> c->lsh;
            hp[l] = c->gmem + addr[l];
            unsigned j = n;
            if (!n || u->line[n - 1] != ln) /* lanes of a line are usually adjacent */
                for (j = 0; j < n && u->line[j] != ln; j++) {}
            else
                j = n - 1;
            if (j == n) {
                u->line[n] = ln;
                u->lanes[n] = 0;
                u->fe[n++] = false;
            }
            u->lanes[j] |= 1u << l;
        }
        *nl = n;
        return true;
    }
    const uint32_t lb = stack_bottom(c);
    if (in_shared_window(c, lo) && in_shared_window(c, hi)) {
        const simt_block *b = &c->blk[w->block];
        if (end - FG_SHARED_BASE > b->shmem_size) return false;
        uint8_t *p = c->shmem + b->shmem_off - FG_SHARED_BASE;
        unsigned cf = 1;
        if ((hi >> 2) - (lo >> 2) < 32) { /* within 32 consecutive words: one word per bank at most */
            for (uint32_t mm = m; mm; mm &= mm - 1) {
                const unsigned l = (unsigned)__builtin_ctz(mm);
                hp[l] = p + addr[l];
            }
        } else {
            uint32_t bank_word[32];
            unsigned bank_cnt[32] = {0};
            for (uint32_t mm = m; mm; mm &= mm - 1) {
                const unsigned l = (unsigned)__builtin_ctz(mm);
                const uint32_t wd = (addr[l] - FG_SHARED_BASE) >> 2, bk = wd & 31;
                hp[l] = p + addr[l];
                if (bank_cnt[bk] == 0 || bank_word[bk] != wd) {
                    if (bank_cnt[bk] == 0) bank_word[bk] = wd;
                    if (++bank_cnt[bk] > cf) cf = bank_cnt[bk];
                }
            }
        }
        *nshared = (unsigned)__builtin_popcount(m);
        *conflict = cf;
        return true;
    }
    if (lo >= lb && end <= FG_LOCAL_TOP) { /* each lane its own stack */
        uint8_t *p = c->local + (size_t)w->local_idx * SIMT_LANES * c->k->stack_bytes - lb;
        for (uint32_t mm = m; mm; mm &= mm - 1) {
            const unsigned l = (unsigned)__builtin_ctz(mm);
            hp[l] = p + (size_t)l * c->k->stack_bytes + addr[l];
        }
        *nlocal = (unsigned)__builtin_popcount(m);
        return true;
    }
    return false;
}

/* A plain load's lanes m read from their memory (the op's width and
 * extension chosen once, not per lane). */
static void load_lanes(uint32_t *val, unsigned op, uint32_t m, uint8_t *const *hp) {
#define LANES(expr)                                              \
    for (uint32_t mm = m; mm; mm &= mm - 1) {                    \
        const unsigned l = (unsigned)__builtin_ctz(mm);          \
        const uint8_t *p = hp[l];                                \
        val[l] = (expr);                                         \
    }
    switch (op) {
    case OP_LB: LANES((uint32_t)(int32_t)(int8_t)p[0]) break;
    case OP_LBU: LANES(p[0]) break;
    case OP_LH: LANES(ld_val(p, OP_LH)) break;
    case OP_LHU: LANES(ld_val(p, OP_LHU)) break;
    default: LANES(ld_val(p, OP_LW)) break;
    }
#undef LANES
}

int simt_lsu_issue(simt_core *c, simt_warp *w, const rv_inst *in, uint32_t m) {
    const gpu_config *k = c->k;
    const uint64_t now = c->now;
    const bool is_ld = in->flags & RVF_LOAD;
    const bool is_amo = in->flags & RVF_AMO;
    simt_lsu *u = &c->lsu;
    uint8_t *hp[SIMT_LANES];
    uint32_t addr[SIMT_LANES];
    unsigned nl = 0, nshared = 0, nlocal = 0;
    uint32_t fe_lanes = 0, glanes = 0;
    const uint32_t *base = w->x.r[in->rs1];
    const bool amem = is_amo && amo_at_mem(c);
    if (u->busy) return 1;
    if (is_ld && w->n_ld >= k->max_inflight_loads) return 1;
    if (amem && in->op == OP_SC && lr_in_flight(w)) return 1;
    /* bank conflicts (32 banks x 4 B): distinct words per bank */
    uint32_t bank_word[32];
    unsigned bank_cnt[32] = {0}, conflict = 1;
    const bool fast = !is_amo && lsu_one_region(c, w, in, m, hp, addr, &nl, &nshared, &nlocal, &conflict);
    if (fast) glanes = nl ? m : 0;
    for (uint32_t mm = fast ? 0 : m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        uint32_t a = base[l] + (uint32_t)(is_amo ? 0 : in->imm);
        int rg;
        addr[l] = a;
        if (is_amo && (a & 3)) {
            simt_core_fault(c, "misaligned atomic %s at 0x%08x (pc 0x%08x, core %u warp %u lane %u)",
                            rv_op_name(in->op), a, w->x.pc, c->id, w->slot, l);
            return -1;
        }
        hp[l] = translate(c, w, l, a, in->size, &rg);
        if (!hp[l]) {
            char who[96], why[256];
            simt_thread_name(c, w, l, who, sizeof who);
            bad_address_why(c, w, a, why, sizeof why);
            simt_core_fault(c, "bad address 0x%08x: %s of %u bytes at pc 0x%08x (core %u warp %u lane %u = %s)%s", a,
                            rv_op_name(in->op), in->size, w->x.pc, c->id, w->slot, l, who, why);
            return -1;
        }
        if (rg == RG_GLOBAL) {
            if (c->acc_check && access_refused(c, w, in, l, a, !is_ld || is_amo)) return -1;
            /* a pointer loaded from where fg_run put an argument (after the base's check: rd may be rs1) */
            if (w->x.prov && is_ld) w->x.prov[in->rd][l] = is_amo ? RV_PROV_NONE : c->prov_load(c->acc_user, a);
        } else if (w->x.prov && is_ld) {
            w->x.prov[in->rd][l] = RV_PROV_NONE;
        }
        if (rg == RG_GLOBAL) {
            if (c->sh_hook) shared_access(c, w, in, l, a, !is_ld || is_amo, is_amo, true);
            uint32_t ln = a >> c->lsh;
            bool fe = is_fe(c, a);
            if (fe && (is_amo || (a & (in->size - 1u)))) {
                simt_core_fault(c, "%s %s at 0x%08x in the F/E-tracked region (pc 0x%08x, core %u warp %u lane %u): "
                                "F/E accesses must be aligned loads or stores", is_amo ? "atomic" : "misaligned",
                                rv_op_name(in->op), a, w->x.pc, c->id, w->slot, l);
                return -1;
            }
            unsigned j = 0;
            while (j < nl && u->line[j] != ln) j++;
            if (j == nl) {
                if (w->n_amo && !is_amo && amo_in_flight(c, w, ln)) return 1;
                u->line[nl] = ln;
                u->lanes[nl] = 0;
                u->fe[nl++] = fe;
            }
            u->lanes[j] |= 1u << l;
            glanes |= 1u << l;
            if (fe) fe_lanes |= 1u << l;
        } else if (rg == RG_SHARED) {
            if (c->sh_hook) shared_access(c, w, in, l, a, !is_ld || is_amo, is_amo, false);
            uint32_t wd = (a - FG_SHARED_BASE) >> 2, bk = wd & 31;
            if (bank_cnt[bk] == 0 || bank_word[bk] != wd) {
                if (bank_cnt[bk] == 0) bank_word[bk] = wd;
                if (++bank_cnt[bk] > conflict) conflict = bank_cnt[bk];
            }
            nshared++;
        } else {
            nlocal++;
        }
    }
    /* functional part (F/E lanes: at the memory, from the response) */
    simt_load *ld = NULL;
    if (is_ld) {
        const unsigned i = (unsigned)__builtin_ctz(~w->ld_mask); /* the first free entry */
        ld = &w->ld[i];
        memset(ld, 0, offsetof(simt_load, val));
        ld->valid = true;
        w->ld_mask |= 1u << i;
        ld->rd = in->rd;
        ld->op = in->op;
        ld->pc = w->x.pc;
        ld->mask = m;
        ld->replay = !is_amo && !fe_lanes;
        ld->seq = w->instrs;
        ld->uid = ++c->ld_uid;
        ld->issued = now;
        ld->wait = nl;
        ld->global = nl > 0;
        ld->fe_lanes = fe_lanes;
        w->n_ld++;
        u->ld = (uint8_t)i;
        u->uid = ld->uid;
    }
    /* the lanes on memory the cores share, read or written at issue (lanes in
     * order); on the GPU's threads at the core's commit instead (simt_core_state.h
     * simt_dmem): the same values, since stepped in order a later core sees
     * this core's writes, and on the threads its own accesses wait for this
     * core's commit */
    const uint32_t *src = w->x.r[in->rs2];
    if (!c->threaded && is_ld && !is_amo && !fe_lanes) {
        load_lanes(ld->val, in->op, m, hp);
    } else if (!c->threaded) {
        for (uint32_t mm = m & ~fe_lanes; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if (amem && glanes >> l & 1) u->amo_op[l] = amo_mem_op(w, in->op, l, addr[l], &u->amo_cmp[l]);
            else lane_mem(w, ld, in->op, in->size, is_amo, l, hp[l], addr[l], src[l]);
        }
    } else {
        simt_dmem *dm = NULL;
        for (uint32_t mm = m & ~fe_lanes; mm; mm &= mm - 1) {
            unsigned l = (unsigned)__builtin_ctz(mm);
            if (amem && glanes >> l & 1) {
                u->amo_op[l] = amo_mem_op(w, in->op, l, addr[l], &u->amo_cmp[l]);
                continue;
            }
            if (!dm) {
                dm = simt_core_defer_mem(c);
                dm->w = w;
                dm->ld = ld;
                dm->op = in->op;
                dm->size = in->size;
                dm->amo = is_amo;
                dm->m = 0;
            }
            dm->m |= 1u << l;
            dm->hp[l] = hp[l];
            dm->addr[l] = addr[l];
            dm->src[l] = src[l];
            /* a plain load reads now, on this thread: no core writes memory
             * before the commits, and the commit reads it again only when a
             * commit before it in the cycle wrote (simt_lsu_dmem) */
            if (is_ld && !is_amo) ld->val[l] = ld_val(hp[l], in->op);
        }
    }
    if (!is_ld || is_amo || fe_lanes) /* what the lines' requests carry (plain loads: nothing) */
        for (unsigned j = 0; j < nl; j++)
            for (uint32_t mm = u->lanes[j]; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                u->addr[l] = addr[l];
                u->sval[l] = src[l];
                if (is_ld) ld->addr[l] = addr[l];
            }
    /* timing: global lines go through the LSU one per cycle (the first this
     * cycle); shared memory takes its bank conflicts, local memory an L1 hit */
    uint64_t done = now + 1;
    if (nshared) {
        uint64_t t = now + k->shmem_latency + conflict - 1;
        if (t > done) done = t;
    }
    if (nlocal) {
        uint64_t t = now + k->l1_hit_latency;
        if (t > done) done = t;
    }
    c->busy[CL_LDST][0] = now + (nshared ? conflict : 1);
    if (nl) {
        u->busy = true;
        u->kind = is_amo ? LSU_AMO : is_ld ? LSU_LOAD : LSU_STORE;
        u->op = in->op;
        u->size = in->size;
        u->slot = (uint16_t)w->slot;
        u->pc = w->x.pc;
        u->age = w->age;
        u->n = nl;
        u->pos = 0;
        u->fe_trig = in->fe ? (uint8_t)RV_FE_TRIG(in->fe) : MEM_FE_DEFAULT;
        u->fe_act = in->fe ? (uint8_t)RV_FE_ACT(in->fe) : MEM_FE_DEFAULT;
        if (!is_ld || is_amo) w->n_st += nl; /* FENCE waits for stores and atomics */
        if (amem) w->n_amo += nl;
    }
    if (ld) {
        ld->done = done;
        if (ld->rd != RV_SINK) simt_sb_set(c, w, ld->rd, nl ? UINT64_MAX : done);
        if (!nl) simt_wb_push(c, w->slot, (unsigned)(ld - w->ld));
    }
    return 0;
}

/* ------------------------------------------------------------ completion */

/* One global line of load (slot, ld, uid) is back; its lanes are ready at t.
 * A dropped load (no longer valid, or the slot's load index reused) is gone. */
static simt_load *line_done(simt_core *c, unsigned slot, unsigned ldi, uint64_t uid, uint64_t t) {
    simt_load *ld = &c->w[slot].ld[ldi];
    if (!ld->valid || ld->uid != uid) return NULL;
    if (t > ld->done) ld->done = t;
    if (--ld->wait == 0) simt_wb_push(c, slot, ldi);
    return ld;
}

/* the warp of a response: live in slot, or the victim parked there */
static simt_warp *warp_find(simt_core *c, unsigned slot, uint64_t age) {
    simt_warp *w = &c->w[slot];
    if (w->state != WS_FREE && w->state != WS_PARKED && w->age == age) return w;
    if (c->sev && c->sev[slot].parked && c->park[slot].age == age) return &c->park[slot];
    return NULL;
}

static void store_acked(simt_core *c, const simt_tag *t) {
    simt_warp *w = warp_find(c, t->slot, t->age);
    if (!w || !w->n_st) {
        simt_core_fault(c, "core %u: store acknowledgement for warp slot %u with no store outstanding", c->id, t->slot);
        return;
    }
    w->n_st--;
    if (w == &c->w[t->slot]) simt_warp_check_done(c, w);
}

/* atomics = memory: the old values (SC: 0 / 1) of an atomic's lanes on one
 * line, in lane order, written to rd at writeback; an LR's value is also the
 * lane's reservation value. */
static void amo_results(simt_core *c, const simt_tag *t, simt_load *ld, const mem_rsp *r) {
    simt_warp *w = warp_find(c, t->slot, t->age);
    if (!w || !w->n_amo) {
        simt_core_fault(c, "core %u: atomic response for warp slot %u with no atomic outstanding", c->id, t->slot);
        return;
    }
    w->n_amo--;
    if (!ld) return;
    unsigned i = 0;
    for (uint32_t mm = t->lanes; mm; mm &= mm - 1, i++) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        memcpy(&ld->val[l], r->rdata + 4 * i, 4);
        if (ld->op == OP_LR) c->w[t->slot].lr_val[l] = ld->val[l];
    }
}

static void call_event_fault(void *user, uint64_t slot, const void *p) {
    simt_core *c = user;
    const simt_grid *k;
    memcpy(&k, p, sizeof k);
    c->cb.event_fault(c->cb.user, k, c->evf_msg[slot]);
}

/* An event warp whose F/E access the watchdog gave up on ends alone when the
 * GPU's host takes event faults (simt_core_set_event_faults): its data never
 * came (a device's DMA that did not complete), and the other warps, the
 * background kernel's included, have nothing to do with it.  Its threads
 * stop; its requests in flight come back without data (its retries waiting
 * for their backoff at once); then it exits as every event warp does, so the
 * EDGE blocks free its PEWT entry and resume its victim (EDGE IV-D). */
static void event_abort(simt_core *c, simt_warp *w, const char *msg) {
    snprintf(c->evf_msg[w->slot], sizeof c->evf_msg[0], "%s", msg);
    simt_core_defer(c, call_event_fault, c, w->slot, &w->grid, sizeof w->grid);
    c->evf_aborts++;
    w->aborted = true;
    w->live = w->active = w->bar_wait = 0;
    w->ibuf_n = 0;
    w->state = WS_DRAIN;
    for (uint32_t i = 0; i < c->k->port_tags; i++) {
        simt_tag *t = &c->tag[i];
        if (!c->fe_retry_at[i] || t->slot != w->slot || t->age != w->age) continue;
        c->fe_retry_at[i] = 0;
        c->n_retry--;
        if (t->kind == TG_FE_LOAD) line_done(c, t->slot, t->ld, t->uid, c->now);
        else store_acked(c, t);
        tag_free(c, i);
    }
    simt_warp_touch(c, w);
}

/* An F/E access came back NACKed (the watchdog gave up on its trigger,
 * F/E 4.5): it is sent again, unchanged, fe_retry_backoff << k cycles later
 * (k = retries so far), at most fe_retry_max times; then the GPU faults.
 * true = a retry is pending (the tag stays taken). */
static bool nack(simt_core *c, const mem_rsp *r, uint32_t ti, const char *what) {
    const simt_tag *t = &c->tag[ti];
    c->fe_nacks++;
    if (c->w[t->slot].aborted && c->w[t->slot].age == t->age) return false; /* ended: not sent again */
    if (c->fe_tries[ti] < c->k->fe_retry_max) {
        c->fe_retry_at[ti] = c->now + ((uint64_t)c->k->fe_retry_backoff << c->fe_tries[ti]);
        c->fe_tries[ti]++;
        c->n_retry++;
        return true;
    }
    /* the word it waited on: a load's first F/E lane on the line (and its
     * thread), else the request's first byte */
    const uint64_t *bm = c->fe_req[ti].bmask;
    uint32_t a = (uint32_t)r->addr +
                 (bm[0] ? (unsigned)__builtin_ctzll(bm[0]) : bm[1] ? 64u + (unsigned)__builtin_ctzll(bm[1]) : 0u);
    char who[128] = "";
    const simt_warp *w = &c->w[t->slot];
    const simt_load *ld = t->kind == TG_FE_LOAD && t->ld < SIMT_MAX_LD ? &w->ld[t->ld] : NULL;
    if (ld && ld->valid && ld->uid == t->uid && w->grid)
        for (uint32_t mm = ld->fe_lanes; mm; mm &= mm - 1) {
            const unsigned l = (unsigned)__builtin_ctz(mm);
            if (ld->addr[l] >> c->lsh != r->addr >> c->lsh) continue;
            a = ld->addr[l];
            int n = snprintf(who, sizeof who, " lane %u = ", l);
            simt_thread_name(c, w, l, who + n, sizeof who - (size_t)n);
            break;
        }
    char msg[sizeof c->evf_msg[0]];
    snprintf(msg, sizeof msg, "F/E watchdog NACK: %s of 0x%08x (line 0x%08llx) at pc 0x%08x (core %u warp %u%s) was never "
                              "satisfied by the F/E queues (NACKed %u times; [gpu] fe_retry_max = %u retries)",
             what, a, (unsigned long long)r->addr, t->pc, c->id, t->slot, who, c->fe_tries[ti] + 1u, c->k->fe_retry_max);
    if (c->evf_msg && w->event && w->age == t->age) event_abort(c, &c->w[t->slot], msg);
    else simt_core_fault(c, "%s", msg);
    return false;
}

/* Sends the NACKed F/E request whose backoff ended first in slot order (one
 * per cycle, ahead of the other requesters). */
static void retry_step(simt_core *c) {
    if (!c->n_retry || !port_room(c)) return;
    for (unsigned i = 0; i < c->k->port_tags; i++)
        if (c->fe_retry_at[i] && c->fe_retry_at[i] <= c->now) {
            c->pq[(c->pq_head + c->pq_n++) % c->k->port_queue] = c->fe_req[i];
            c->fe_retry_at[i] = 0;
            c->n_retry--;
            c->fe_retries++;
            return;
        }
}

static void take(simt_core *c, const mem_rsp *r) {
    const uint64_t now = c->now;
    const uint64_t ready = now + c->k->l1_hit_latency; /* back through the L1 pipeline */
    unsigned type = (unsigned)(r->id >> 56);
    uint32_t i = (uint32_t)r->id;
    uint32_t line = (uint32_t)(r->addr >> c->lsh);
    c->rsp_taken++;
    if (type == RQ_LINE && i < c->k->l1_mshrs && c->mshr[i].valid && c->mshr[i].line == line) {
        simt_mshr *ms = &c->mshr[i];
        cache_access(&c->l1, line, now, true);
        for (unsigned j = 0; j < ms->n_wait; j++) line_done(c, ms->wait[j].slot, ms->wait[j].ld, ms->wait[j].uid, ready);
        ms->valid = false;
        c->mshr_gen++;
        c->mshrs_used--;
    } else if (type == RQ_INST && i < c->k->icache_mshrs && c->imshr[i] == line + 1) {
        cache_access(&c->icache, line, now, true);
        for (unsigned s = 0; s < c->nwarps; s++)
            if (c->w[s].imiss == line + 1) {
                c->w[s].imiss = 0;
                simt_warp_touch(c, &c->w[s]);
            }
        c->imshr[i] = 0;
        c->imshrs_used--;
    } else if (type == RQ_SAVE && c->n_save_out) {
        c->n_save_out--;
    } else if (type == RQ_TAG && i < c->k->port_tags && c->tag[i].kind != TG_FREE) {
        simt_tag *t = &c->tag[i];
        switch (t->kind) {
        case TG_FE_STORE:
            if (r->status == MEM_NACK) {
                if (nack(c, r, i, "store")) return;
                if (c->failed) break; /* else its warp was ended: the store is done with */
            }
            /* fall through */
        case TG_STORE:
            store_acked(c, t);
            break;
        case TG_ATOMIC: {
            simt_load *ld = line_done(c, t->slot, t->ld, t->uid, ready);
            if (amo_at_mem(c)) amo_results(c, t, ld, r);
            store_acked(c, t);
            break;
        }
        case TG_FE_LOAD: {
            const bool lost = r->status == MEM_NACK;
            if (lost) {
                if (nack(c, r, i, "load")) return;
                if (c->failed) break;
            }
            simt_load *ld = line_done(c, t->slot, t->ld, t->uid, ready);
            if (!ld || lost) break; /* (lost: its warp was ended, the line carries no data) */
            for (uint32_t mm = ld->fe_lanes; mm; mm &= mm - 1) {
                unsigned l = (unsigned)__builtin_ctz(mm);
                if (ld->addr[l] >> c->lsh == line) ld->val[l] = ld_val(r->rdata + (ld->addr[l] & (c->k->line_bytes - 1)), ld->op);
            }
            break;
        }
        case TG_RESTORE: {
            simt_warp *w = warp_find(c, t->slot, t->age);
            if (w && w->n_restore) {
                w->n_restore--;
                simt_warp_touch(c, w);
            } else simt_core_fault(c, "core %u: register restore for warp slot %u not waiting for one", c->id, t->slot);
            break;
        }
        }
        tag_free(c, i);
    } else {
        simt_core_fault(c, "core %u: response id 0x%016llx (line 0x%08llx) matches no request in flight", c->id,
                        (unsigned long long)r->id, (unsigned long long)r->addr);
    }
}

void simt_lsu_responses(simt_core *c) {
    if (!c->ms) return;
    /* read here, on the core's thread; taken from the port at the commit
     * (r stays valid until then) */
    for (unsigned n = 0; n < c->k->port_rsp_per_cycle && !c->failed; n++) {
        const mem_rsp *r = mem_rsp_peek_at(c->ms, c->port, n);
        if (!r) return;
        take(c, r);
        c->rsp_read++;
    }
}

/* ------------------------------------------------------------ requesters */

/* An F/E request: the instruction's trigger / action (MEM_FE_DEFAULT for
 * ordinary loads and stores: F/E 4.1), and a copy to send again after a
 * NACK. */
static void fe_keep(simt_core *c, uint32_t ti, mem_req *r) {
    r->fe_trig = c->lsu.fe_trig;
    r->fe_act = c->lsu.fe_act;
    c->fe_req[ti] = *r;
    c->fe_tries[ti] = 0;
    c->fe_retry_at[ti] = 0;
}

/* The LSU's next line: 0 done, 1 stalled (retry next cycle). */
static int lsu_line(simt_core *c) {
    simt_lsu *u = &c->lsu;
    const uint32_t line = u->line[u->pos], lanes = u->lanes[u->pos];
    const uint64_t now = c->now;
    simt_warp *w = &c->w[u->slot];
    int ti;
    if (u->kind == LSU_LOAD) {
        simt_load *ld = &w->ld[u->ld];
        if (!ld->valid || ld->uid != u->uid) { u->busy = false; return 0; } /* dropped: nothing more to send */
        if (u->fe[u->pos]) {
            if (!port_room(c) || (ti = tag_alloc(c, TG_FE_LOAD, u->slot, u->age, u->pc)) < 0) return c->stall_port++, 1;
            c->tag[ti].ld = u->ld;
            c->tag[ti].uid = u->uid;
            mem_req *r = port_push(c, RQ(RQ_TAG, ti), line, MEM_READ, MEM_K_DATA);
            for (uint32_t mm = lanes; mm; mm &= mm - 1)
                mask_bytes(r->bmask, ld->addr[__builtin_ctz(mm)] & (c->k->line_bytes - 1), u->size);
            r->data = true;
            fe_keep(c, (uint32_t)ti, r);
            return 0;
        }
        if (cache_access(&c->l1, line, now, false)) {
            c->l1_hits++;
            line_done(c, u->slot, u->ld, u->uid, now + c->k->l1_hit_latency);
            return 0;
        }
        int mi = -1;
        if (c->mshr_memo.gen == c->mshr_gen && c->mshr_memo.line == line + 1) { /* a stalled line's retry */
            mi = c->mshr_memo.mi;
        } else {
            for (unsigned i = 0; i < c->k->l1_mshrs && mi < 0; i++)
                if (c->mshr[i].valid && c->mshr[i].line == line) mi = (int)i;
            c->mshr_memo.gen = c->mshr_gen;
            c->mshr_memo.line = line + 1;
            c->mshr_memo.mi = mi;
        }
        if (mi >= 0 && c->mshr[mi].n_wait == SIMT_MSHR_MERGE) return c->stall_mshr++, 1;
        if (mi < 0) {
            if (c->mshrs_used == c->k->l1_mshrs) return c->stall_mshr++, 1;
            if (!port_room(c)) return c->stall_port++, 1;
            while (c->mshr[++mi].valid) {}
            c->mshr_gen++;
            c->mshr[mi].valid = true;
            c->mshr[mi].line = line;
            c->mshr[mi].n_wait = 0;
            c->mshrs_used++;
            mem_req *r = port_push(c, RQ(RQ_LINE, mi), line, MEM_READ, MEM_K_DATA);
            mask_line(c, r->bmask); /* the L1 fills whole lines */
        }
        simt_mshr *ms = &c->mshr[mi];
        ms->wait[ms->n_wait++] = (simt_waiter){u->slot, u->ld, u->uid};
        c->l1_misses++;
        return 0;
    }
    /* stores and atomics: one request per line, acknowledged */
    const bool fe = u->fe[u->pos], amo = u->kind == LSU_AMO;
    if (!port_room(c) || (ti = tag_alloc(c, amo ? TG_ATOMIC : fe ? TG_FE_STORE : TG_STORE, u->slot, u->age, u->pc)) < 0)
        return c->stall_port++, 1;
    mem_req *r;
    const bool lane_form = amo && amo_at_mem(c);
    if (amo) {
        /* the L2's atomic unit serializes the lanes (their values: at issue, or
         * there in lane order with atomics = memory) */
        c->tag[ti].ld = u->ld;
        c->tag[ti].uid = u->uid;
        c->tag[ti].line = line;
        c->tag[ti].lanes = lanes;
        r = port_push(c, RQ(RQ_TAG, ti), line, MEM_ATOMIC, MEM_K_ATOMIC);
        r->amo_ops = (uint8_t)popc(lanes);
        cache_inval(&c->l1, line);
    } else {
        r = port_push(c, RQ(RQ_TAG, ti), line, MEM_WRITE, MEM_K_DATA);
        if (!fe) cache_access(&c->l1, line, now, false); /* write-through, no write-allocate */
        c->stores++;
    }
    r->data = fe || lane_form;
    r->lanes = lane_form;
    unsigned i = 0;
    for (uint32_t mm = lanes; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm), o = u->addr[l] & (c->k->line_bytes - 1);
        mask_bytes(r->bmask, o, u->size);
        if (fe) memcpy(r->wdata + o, &u->sval[l], u->size); /* lanes in order: the last one wins, as at issue */
        if (lane_form) r->lane[i++] = (mem_lane){u->sval[l], u->amo_cmp[l], (uint8_t)o, u->amo_op[l]};
    }
    if (fe) fe_keep(c, (uint32_t)ti, r);
    return 0;
}

static void lsu_step(simt_core *c) {
    simt_lsu *u = &c->lsu;
    if (!u->busy || lsu_line(c)) return;
    if (u->busy && ++u->pos == u->n) u->busy = false;
}

static bool fetch_wants(const gpu_config *k, const simt_warp *w) {
    return w->state == WS_RUN && w->active && w->ibuf_n < k->ibuf_depth && !w->imiss && !w->stop_fetch;
}

/* Refills w's i-buffer from one i-cache line, or sends the line's read on a
 * miss; false when a new line finds no i-MSHR or no room in the port. */
static bool fetch_warp(simt_core *c, simt_warp *w) {
    const gpu_config *k = c->k;
    uint32_t a = w->x.pc + 4 * w->ibuf_n;
    uint32_t line = a >> c->lsh;
    if (cache_access(&c->icache, line, c->now, false)) {
        unsigned room = (k->line_bytes - a % k->line_bytes) / 4;
        unsigned want = k->ibuf_depth - w->ibuf_n;
        w->ibuf_n += want < room ? want : room;
        simt_warp_touch(c, w);
        return true;
    }
    unsigned j = 0;
    while (j < k->icache_mshrs && c->imshr[j] != line + 1) j++;
    if (j == k->icache_mshrs) { /* a new line: an i-MSHR and room in the port */
        char why[64];
        if ((uint64_t)a + 4 > c->dc->mem_size && simt_fetch_bad(c->dc, a, why, sizeof why)) {
            /* not through a jalr (which names itself): the warp ran off the end */
            simt_core_fault(c, "instruction fetch from bad address 0x%08x (%s) (core %u warp %u)", a, why, c->id,
                            w->slot);
            return false;
        }
        if (c->imshrs_used == k->icache_mshrs || !port_room(c)) {
            c->stall_port++;
            return false;
        }
        j = 0;
        while (c->imshr[j]) j++;
        c->imshr[j] = line + 1;
        c->imshrs_used++;
        mem_req *r = port_push(c, RQ(RQ_INST, j), line, MEM_READ, MEM_K_INST);
        mask_line(c, r->bmask);
    }
    w->imiss = line + 1;
    simt_warp_touch(c, w);
    return true;
}

/* Instruction fetch: one warp per cycle, round robin, refills its i-buffer
 * from one i-cache line; a miss is a MEM_K_INST read through the port (an
 * i-cache MSHR per line, later warps wait on it).  With [preempt]
 * event_fetch_priority (the EDGE artifact's -edge_int_fetch_high_priority) an
 * event warp that needs a fetch goes first, outside the round robin. */
static void fetch_step(simt_core *c) {
    const gpu_config *k = c->k;
    if (k->pre.event_fetch_priority)
        for (unsigned i = 0; i < c->n_order; i++) { /* event warps lead the GTO order */
            simt_warp *w = &c->w[c->order[i]];
            if (!w->priority) break;
            if (w->event && fetch_wants(k, w)) {
                fetch_warp(c, w);
                return;
            }
        }
    /* round robin from fetch_rr: the first slot at or after it (then from
     * slot 0) whose bit of the compact view says fetch_wants */
    const unsigned words = (c->nwarps + 63) / 64, from = c->fetch_rr < c->nwarps ? c->fetch_rr : 0;
    for (unsigned i = 0; i <= words; i++) {
        const unsigned wd = (from / 64 + i) % words;
        uint64_t m = c->fetch_mask[wd];
        if (i == 0) m &= ~0ull << (from % 64);
        else if (i == words) m &= (from % 64) ? ~(~0ull << (from % 64)) : 0;
        if (!m) continue;
        const unsigned slot = wd * 64 + (unsigned)__builtin_ctzll(m);
        fetch_warp(c, &c->w[slot]);
        c->fetch_rr = slot + 1;
        return;
    }
}

/* ------------------------------------------------ register save / restore */

uint64_t simt_save_addr(const simt_core *c, unsigned slot, unsigned r) {
    return c->save_base + ((uint64_t)slot * RV_NREGS + r) * SIMT_LANES * 4;
}

static void bulk_push(simt_core *c, unsigned slot, unsigned r, uint64_t age, bool read) {
    if (c->bulk_n == c->bulk_cap) {
        simt_core_fault(c, "core %u: register save/restore queue overflow", c->id);
        return;
    }
    c->bulk[(c->bulk_head + c->bulk_n++) % c->bulk_cap] = (simt_bulk){simt_save_addr(c, slot, r), age, (uint16_t)slot, read};
}

/* EDGE IV-D: one 128 B line (a register of 32 lanes) per saved register */
void simt_lsu_save(simt_core *c, unsigned slot, uint64_t age, uint64_t mask) {
    for (unsigned r = 0; r < RV_NREGS; r++)
        if (mask >> r & 1) bulk_push(c, slot, r, age, false);
}

void simt_lsu_restore(simt_core *c, simt_warp *w, uint64_t mask) {
    for (unsigned r = 0; r < RV_NREGS; r++)
        if (mask >> r & 1) {
            bulk_push(c, w->slot, r, w->age, true);
            w->n_restore++;
        }
    simt_warp_touch(c, w);
}

static void bulk_step(simt_core *c) {
    if (!c->bulk_n || !port_room(c)) return;
    const simt_bulk *b = &c->bulk[c->bulk_head];
    mem_req *r;
    if (b->read) {
        int ti = tag_alloc(c, TG_RESTORE, b->slot, b->age, 0);
        if (ti < 0) return;
        r = port_push(c, RQ(RQ_TAG, ti), (uint32_t)(b->addr >> c->lsh), MEM_READ, MEM_K_SAVE);
    } else {
        r = port_push(c, RQ(RQ_SAVE, b->slot), (uint32_t)(b->addr >> c->lsh), MEM_WRITE, MEM_K_SAVE);
        c->n_save_out++;
    }
    mask_line(c, r->bmask);
    c->bulk_head = (c->bulk_head + 1) % c->bulk_cap;
    c->bulk_n--;
}

/* ------------------------------------------------------------ the cycle */

void simt_lsu_requests(simt_core *c) {
    retry_step(c);
    /* the three requesters take turns at the port queue's free places */
    for (unsigned i = 0, r = c->arb_rr; i < 3; i++, r = r == 2 ? 0 : r + 1) switch (r) {
        case 0: lsu_step(c); break;
        case 1: if (c->n_order) fetch_step(c); break;
        default: bulk_step(c); break;
        }
    c->arb_rr = c->arb_rr == 2 ? 0 : c->arb_rr + 1;
}

void simt_lsu_dmem(simt_core *c, const simt_dmem *d) {
    if (d->ld && !d->amo && !*c->cycle_wrote) return; /* its values, read at issue, are this point's */
    if (!d->ld || d->amo) *c->cycle_wrote = true;
    for (uint32_t mm = d->m; mm; mm &= mm - 1) {
        unsigned l = (unsigned)__builtin_ctz(mm);
        lane_mem(d->w, d->ld, d->op, d->size, d->amo, l, d->hp[l], d->addr[l], d->src[l]);
    }
}

void simt_lsu_send(simt_core *c) {
    if (!c->pq_n || !c->ms || c->failed) return;
    int rc = mem_send(c->ms, c->port, &c->pq[c->pq_head]);
    if (rc == 0) {
        c->pq_head = (c->pq_head + 1) % c->k->port_queue;
        c->pq_n--;
        c->req_sent++;
    } else if (rc < 0) {
        simt_core_fault(c, "core %u: memory system refused a request: %s", c->id, mem_error(c->ms));
    }
}
