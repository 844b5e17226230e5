/* fg_run: runs any kernel ELF on the SIMT model with buffers and arguments
 * given on the command line, so that a new kernel needs no host code
 * (docs/SIMT.md "Writing and running a kernel").
 *
 *   fg_run --kernel build/sw/saxpy.elf --entry saxpy --grid 4 --block 256 \
 *          --buf x=f32:1024:ramp --buf y=f32:1024:file:in.bin --buf out=f32:1024 \
 *          --arg u32:1000 --arg f32:2.5 --arg buf:x --arg buf:y --arg buf:out \
 *          --dump out=out.bin --print out:8
 *
 * Buffers are allocated in GPU global memory in the order given and filled
 * before the launch (an `empty` one in the F/E-tracked region, its words
 * marked empty); the kernel's parameter block (a0 at entry) is the
 * --arg list packed in order, 4 bytes each, buffer arguments becoming the
 * buffer's 32-bit GPU address.  After the kernel completes, --dump writes
 * buffers as raw bytes and --print shows their first elements.
 *
 * Diagnostics (docs/SIMT.md "When a kernel misbehaves"): each buffer and
 * the parameter block is followed by a guard gap (--guard) checked after the
 * run; --check bounds-checks every global access; a kernel that does not
 * finish within --max-cycles / --max-seconds gets a report of its live
 * warps (pcs as function+offset and file:line, barrier waits, barrier
 * deadlocks); faults name the pc as function+offset and file:line; the --arg count is compared with the
 * kernel's argument struct from its DWARF.  With --wave, --wave-at fault |
 * barrier:N | pc:ADDR centres the trace on the kernel's fault, the Nth
 * barrier release or the first issue of a pc, its core's group first
 * (docs/WAVES.md).
 *
 * Exit status: 0 the kernel ran to completion; 1 it faulted, did not finish
 * within --max-cycles or --max-seconds, wrote into a guard gap, or an output
 * file could not be written; 2 bad
 * command line or input (config, ELF, buffer, file, dimensions, a launch the
 * GPU refuses).  Every error is one line "fg_run: ..." on stderr.  On a
 * terminal, stderr shows a status line while the kernel runs (cycles,
 * instructions, simulation rate); nothing extra otherwise. */
#include <elfutils/libdw.h>
#include <gelf.h>
#include <dwarf.h>
#include <errno.h>
#include <float.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fg_progress.h"
#include "fg_run_cli.h"
#include "fg_wave.h"
#include "fg_util.h"
#include "simt/gpu.h"
#include "simt/rv32_exec.h"
#include "simt/simt_abi.h"

typedef struct {
    uint64_t first, done;
    int seen_first, seen_done;
} fcb;

static void cb_first(void *u, uint64_t tag, uint64_t cycle) {
    (void)tag;
    fcb *c = u;
    if (!c->seen_first++) c->first = cycle;
}
static void cb_done(void *u, uint64_t tag, uint64_t cycle) {
    (void)tag;
    fcb *c = u;
    c->seen_done++;
    c->done = cycle;
}

/* The events fg_run reports for --wave-at (docs/WAVES.md): each placed in
 * the core it happened on, whose group the save file opens first. */
static const fg_wave_kind wave_kinds[] = {
    {"fault", NULL, "kernel fault"},         /* the cycle the fault stopped the GPU */
    {"barrier", "N", "barrier release"},     /* any block's barrier, every live thread arrived */
    {"pc", "ADDR", "first issue of pc"},     /* 0x hex, or function[+0xoff] from the ELF */
};

static void wave_core_event(const char *kind, unsigned core, uint64_t cycle) {
    char place[32];
    snprintf(place, sizeof place, "gpu.core%u", core); /* as sim/simt/simt_edge_core.c places its blocks */
    fg_wave_event(kind, cycle, place);
}
static void wave_barrier(void *u, unsigned core, uint64_t cycle) {
    (void)u;
    wave_core_event("barrier", core, cycle);
}
static void wave_pc(void *u, unsigned core, uint64_t cycle) {
    (void)u;
    wave_core_event("pc", core, cycle);
}

/* Watches the GPU for the event --wave-at asks of fg_run (nothing when it
 * asks none: no watch, no cost); 0, or exit status 2 after saying why. */
static int wave_watch(gpu_t *g, const char *kpath) {
    const char *arg, *kind = fg_wave_at(&arg);
    if (!kind || !strcmp(kind, "fault")) return 0;
    gpu_watch w = {0};
    if (!strcmp(kind, "barrier")) {
        w.barrier = wave_barrier;
    } else {
        uint64_t pc = 0;
        char at[96];
        char *end;
        if (!strncmp(arg, "0x", 2)) pc = strtoull(arg + 2, &end, 16);
        if (!strncmp(arg, "0x", 2) ? end == arg + 2 || *end : gpu_symbol_pc(g, arg, &pc))
            return fg_run_die(2, "--wave-at pc:%s: give a 0x hex address or function[+0xoff], a function of %s",
                              arg, kpath);
        if (pc % 4 || gpu_pc_symbol(g, pc, at, sizeof at))
            return fg_run_die(2, "--wave-at pc:%s: 0x%llx is no instruction of %s's code", arg,
                              (unsigned long long)pc, kpath);
        printf("wave: at the first issue of pc 0x%08llx (%s)\n", (unsigned long long)pc, at);
        w.pc = wave_pc;
        w.watch_pc = (uint32_t)pc;
    }
    gpu_set_watch(g, &w);
    return 0;
}

/* What the trace is to know after the run: where the kernel faulted, and
 * the cores that ran its blocks (shown first without an event). */
static void wave_after(gpu_t *g, unsigned cores) {
    if (!fg_wave_on()) return;
    uint64_t cycle;
    int core = gpu_error_core(g, &cycle);
    if (gpu_error(g) && core >= 0) wave_core_event("fault", (unsigned)core, cycle);
    else if (gpu_error(g)) fg_wave_event("fault", cycle, NULL);
    for (unsigned i = 0; i < cores; i++) {
        gpu_core_stats cs;
        gpu_get_core_stats(g, i, &cs);
        char place[32];
        snprintf(place, sizeof place, "gpu.core%u", i);
        if (cs.warp_instrs) fg_wave_show(place);
    }
}

static void put_elem(uint8_t *p, int t, uint32_t bits) { memcpy(p, &bits, fg_run_type_size[t]); }

static int fill_buf(const fbuf *b, uint8_t *h) {
    unsigned es = fg_run_type_size[b->type];
    const char *in = b->init;
    if (!strcmp(in, "zero")) {
        memset(h, 0, b->bytes);
    } else if (!strcmp(in, "ramp")) {
        for (uint64_t i = 0; i < b->count; i++) {
            uint32_t bits = (uint32_t)i;
            if (b->type == T_F32) {
                float f = (float)i;
                memcpy(&bits, &f, 4);
            }
            put_elem(h + i * es, b->type, bits);
        }
    } else if (!strncmp(in, "fill:", 5)) {
        uint32_t bits = 0;
        fg_run_parse_value(b->type, in + 5, &bits);
        for (uint64_t i = 0; i < b->count; i++) put_elem(h + i * es, b->type, bits);
    } else if (!strncmp(in, "random:", 7)) {
        uint64_t seed = 0;
        fg_run_parse_u64(in + 7, UINT64_MAX, &seed);
        fg_rng r;
        fg_rng_seed(&r, seed);
        for (uint64_t i = 0; i < b->count; i++) {
            uint64_t x = fg_rng_next(&r);
            uint32_t bits = (uint32_t)x;
            if (b->type == T_F32) { /* uniform in [0, 1) */
                float f = (float)(x >> 40) / 16777216.0f;
                memcpy(&bits, &f, 4);
            }
            put_elem(h + i * es, b->type, bits);
        }
    } else { /* file:PATH */
        const char *path = in + 5;
        FILE *f = fopen(path, "rb");
        if (!f) return fg_run_die(2, "buffer %s: cannot open %s: %s", b->name, path, strerror(errno));
        if (fseek(f, 0, SEEK_END)) {
            fclose(f);
            return fg_run_die(2, "buffer %s: cannot read %s: %s", b->name, path, strerror(errno));
        }
        long sz = ftell(f);
        rewind(f);
        if (sz < 0 || (uint64_t)sz != b->bytes) {
            fclose(f);
            return fg_run_die(2, "buffer %s: size mismatch: file %s has %ld bytes, the buffer %llu (%llu x %s)", b->name,
                       path, sz, (unsigned long long)b->bytes, (unsigned long long)b->count, fg_run_type_name[b->type]);
        }
        size_t got = fread(h, 1, b->bytes, f);
        fclose(f);
        if (got != b->bytes) return fg_run_die(2, "buffer %s: read error on %s", b->name, path);
    }
    return 0;
}

static void print_elem(const uint8_t *p, int t) {
    uint32_t v = 0;
    memcpy(&v, p, fg_run_type_size[t]);
    switch (t) {
    case T_U8: case T_U16: case T_U32: printf(" %u", v); break;
    case T_I8: printf(" %d", (int)(int8_t)v); break;
    case T_I16: printf(" %d", (int)(int16_t)v); break;
    case T_I32: printf(" %d", (int)(int32_t)v); break;
    default: {
        float f;
        memcpy(&f, &v, 4);
        printf(" %.9g", (double)f);
    }
    }
}

/* ------------------------------------------------------------- diagnostics
 * (docs/SIMT.md "When a kernel misbehaves").  What fg_run placed in global
 * memory, in address order: the kernel image, then each buffer and the
 * parameter block, with guard gaps between them (filled with a pattern and
 * checked after the run), so that an overrun lands in a gap instead of the
 * next buffer and is reported; --check refuses every access outside them. */
enum { R_IMAGE, R_BUF, R_PARAM, R_END /* end of the last guard gap */ };
typedef struct {
    int kind;
    uint64_t lo, hi; /* [lo, hi) */
    const fbuf *b;   /* R_BUF */
} fregion;

typedef struct {
    fregion *r;
    int n;
    int nguard;      /* r[0..nguard) are in address order with guard gaps between them (to R_END); the
                      * F/E buffers (--buf ...:empty, in the F/E region) come after */
    int nargs;       /* --arg count (the parameter block's 4-byte words) */
    uint64_t guard;  /* --guard */
    /* --check's provenance: the region each argument word points into (its
     * index in r, 0: not a buf: argument), and the buffer accesses whose
     * pointer had none (loaded from memory, computed) or a lost one */
    unsigned char *arg_region;
    uint64_t untracked, lost;
} fmap;

static uint8_t guard_byte(uint64_t a) { return (uint8_t)(0xA5 ^ (a * 131)); }

/* Region r by name: "buffer 'out' (100 x u32 at 0x...-0x..., elements
 * 0..99)", "the 8-byte parameter block at 0x... (2 --arg)". */
static void region_name(const fmap *m, const fregion *r, char *s, size_t len) {
    if (r->kind == R_PARAM)
        snprintf(s, len, "the %d-byte parameter block at 0x%08llx (%d --arg)", m->nargs * 4,
                 (unsigned long long)r->lo, m->nargs);
    else if (r->kind == R_IMAGE)
        snprintf(s, len, "the kernel image (0x%08llx-0x%08llx)", (unsigned long long)r->lo, (unsigned long long)r->hi);
    else
        snprintf(s, len, "buffer '%s' (%llu x %s at 0x%08llx-0x%08llx, elements 0..%llu)", r->b->name,
                 (unsigned long long)r->b->count, fg_run_type_name[r->b->type], (unsigned long long)r->lo,
                 (unsigned long long)r->hi, (unsigned long long)r->b->count - 1);
}

/* Index of the element (the argument, 1-based, of the parameter block; the
 * byte of the image) at a in region r: negative before it. */
static long long elem_index(const fregion *r, uint64_t a) {
    long long off = (long long)(a - r->lo), es = r->kind == R_BUF ? fg_run_type_size[r->b->type] : r->kind == R_PARAM ? 4 : 1;
    return (off >= 0 ? off / es : -1 - (-off - 1) / es) + (r->kind == R_PARAM);
}

/* An access at a outside region r, relative to it: "element 100 of buffer
 * 'out' (...)", "argument 5 of the 16-byte parameter block (...): ...". */
static void describe_near(const fmap *m, const fregion *r, uint64_t a, char *s, size_t len) {
    char nm[200];
    region_name(m, r, nm, sizeof nm);
    long long e = elem_index(r, a);
    if (r->kind == R_PARAM)
        snprintf(s, len, "argument %lld of %s: %s", e, nm, e > m->nargs ? "the kernel expects more arguments "
                 "than --arg gives" : "before the parameter block");
    else if (r->kind == R_IMAGE)
        snprintf(s, len, "%s %lld bytes %s", nm, a >= r->hi ? (long long)(a - r->hi) : (long long)(r->lo - a),
                 a >= r->hi ? "past its end" : "before its start");
    else
        snprintf(s, len, "element %lld of %s", e, nm);
}

/* The region an out-of-bounds access belongs to: the one it overlaps, else
 * the nearer of the two around the gap it is in; NULL when it is further
 * than one guard gap from every region. */
static const fregion *nearest_region(const fmap *m, uint64_t a, unsigned size) {
    const fregion *best = NULL;
    uint64_t bd = UINT64_MAX;
    for (int i = 0; i < m->n; i++) {
        const fregion *r = &m->r[i];
        if (r->kind == R_END) continue;
        uint64_t d = a + size <= r->lo ? r->lo - a : a >= r->hi ? a - r->hi + 1 : 0;
        if (d < bd) { bd = d; best = &m->r[i]; }
    }
    return bd <= m->guard + 256 ? best : NULL;
}

/* The region a write into gap i (between r[i] and r[i + 1]) at [a0, a1]
 * strayed from, and the gap by name in gap ("the guard gap between it and
 * the parameter block").  A kernel never indexes its parameter block
 * backwards, so the gap below it is the region below's; in the gap after it
 * the lower half is the parameter block's (a kernel that expects more
 * arguments than --arg gives) and the upper half a stray from the nearest
 * buffer below; elsewhere the nearer neighbour's. */
static const fregion *gap_owner(const fmap *m, int i, uint64_t a0, uint64_t a1, char *gap, size_t len) {
    const fregion *lo = &m->r[i], *hi = &m->r[i + 1], *r;
    if (hi->kind == R_PARAM) r = lo;
    else if (lo->kind == R_PARAM) r = a1 - lo->hi < (hi->lo - lo->hi) / 2 || i == 0 || m->r[i - 1].kind != R_BUF ? lo : &m->r[i - 1];
    else r = a0 - lo->hi <= hi->lo - 1 - a1 ? lo : hi;
    const fregion *other = r == lo ? hi : r == hi ? lo : NULL;
    char on[96];
    if (!other || other->kind == R_END) {
        snprintf(gap, len, "the guard gap after %s", r == lo ? "it" : "the parameter block");
        return r;
    }
    if (other->kind == R_PARAM) snprintf(on, sizeof on, "the parameter block");
    else if (other->kind == R_IMAGE) snprintf(on, sizeof on, "the kernel image");
    else snprintf(on, sizeof on, "buffer '%s'", other->b->name);
    snprintf(gap, len, "the guard gap between it and %s", on);
    return r;
}

/* The gap holding [a, a + size), or -1 */
static int gap_of(const fmap *m, uint64_t a, unsigned size) {
    for (int i = 0; i + 1 < m->nguard; i++)
        if (a >= m->r[i].hi && a + size <= m->r[i + 1].lo) return i;
    return -1;
}

/* gpu_prov_load for --check: a load of a buf: argument's word gives its buffer */
static unsigned prov_load(void *u, uint64_t a) {
    const fmap *m = u;
    for (int i = 0; i < m->n; i++)
        if (m->r[i].kind == R_PARAM && a >= m->r[i].lo && a < m->r[i].hi && !((a - m->r[i].lo) & 3))
            return m->arg_region[(a - m->r[i].lo) / 4];
    return RV_PROV_NONE;
}

/* "argument 2 (buffer 'in')": where a pointer of region p came from */
static void origin(const fmap *m, unsigned p, char *s, size_t len) {
    int k = 0;
    while (k < m->nargs && m->arg_region[k] != p) k++;
    snprintf(s, len, "argument %d (buffer '%s')", k + 1, m->r[p].b->name);
}

/* gpu_access_check for --check: inside a buffer, the parameter block or the
 * image, and, for a pointer derived from a buf: argument, inside that one */
static int check_access(void *u, uint64_t a, unsigned size, bool wr, unsigned prov, char *msg, size_t len) {
    fmap *m = u;
    const bool from_arg = prov != RV_PROV_NONE && prov != RV_PROV_LOST && (int)prov < m->n;
    char d[480], o[160];
    for (int i = 0; i < m->n; i++) {
        const fregion *r = &m->r[i];
        if (a < r->lo || a + size > r->hi) continue;
        if (r->kind == R_PARAM && wr) {
            snprintf(msg, len, "--check: write to the parameter block (argument %llu; it is read-only)",
                     (unsigned long long)(a - r->lo) / 4 + 1);
            return 1;
        }
        if (from_arg && (unsigned)i != prov) {
            origin(m, prov, o, sizeof o);
            describe_near(m, r, a, d, sizeof d);
            snprintf(msg, len, "--check: a %s through a pointer from %s lands in another region: %s",
                     wr ? "write" : "read", o, d);
            return 1;
        }
        if (r->kind == R_BUF && prov == RV_PROV_LOST) m->lost++;
        else if (r->kind == R_BUF && !from_arg) m->untracked++;
        return 0;
    }
    const int gi = gap_of(m, a, size);
    char gap[128];
    const fregion *r = gi >= 0 ? gap_owner(m, gi, a, a + size - 1, gap, sizeof gap) : nearest_region(m, a, size);
    if (r) describe_near(m, r, a, d, sizeof d);
    else snprintf(d, sizeof d, "not in any buffer, the parameter block or the kernel image");
    if (r && gi >= 0) snprintf(d + strlen(d), sizeof d - strlen(d), ", in %s", gap);
    if (from_arg) {
        origin(m, prov, o, sizeof o);
        snprintf(msg, len, "--check: out of bounds: %s (the pointer came from %s)", d, o);
    } else {
        snprintf(msg, len, "--check: out of bounds: %s", d);
    }
    return 1;
}

/* Fills the gaps between the regions with the guard pattern. */
static int guard_fill(gpu_t *g, const fmap *m) {
    for (int i = 0; i + 1 < m->nguard; i++) {
        uint64_t lo = m->r[i].hi, hi = m->r[i + 1].lo;
        if (hi <= lo) continue;
        uint8_t *h = malloc(hi - lo);
        if (!h) return -1;
        for (uint64_t a = lo; a < hi; a++) h[a - lo] = guard_byte(a);
        int rc = gpu_mem_write(g, lo, h, hi - lo);
        free(h);
        if (rc) return -1;
    }
    return 0;
}

/* After the kernel: every guard byte the kernel changed, by gap, as
 * "OVERRUN" lines on stdout; returns how many gaps were written into. */
static int guard_check(gpu_t *g, const fmap *m, char *first, size_t flen) {
    int bad = 0;
    for (int i = 0; i + 1 < m->nguard; i++) {
        uint64_t lo = m->r[i].hi, hi = m->r[i + 1].lo, a0 = 0, a1 = 0;
        if (hi <= lo) continue;
        uint8_t *h = malloc(hi - lo);
        if (!h || gpu_mem_read(g, lo, h, hi - lo)) {
            free(h);
            continue;
        }
        unsigned long long n = 0;
        for (uint64_t a = lo; a < hi; a++)
            if (h[a - lo] != guard_byte(a)) {
                if (!n++) a0 = a;
                a1 = a;
            }
        free(h);
        if (!n) continue;
        char nm[200], gap[128], line[700];
        const fregion *r = gap_owner(m, i, a0, a1, gap, sizeof gap);
        region_name(m, r, nm, sizeof nm);
        const char *unit = r->kind == R_BUF ? "elements" : r->kind == R_PARAM ? "arguments" : "bytes";
        snprintf(line, sizeof line, "%s: the kernel wrote %s it, into %s: %s %lld..%lld (bytes "
                 "0x%08llx-0x%08llx) changed", nm, r->lo >= hi ? "before" : "past the end of", gap, unit,
                 elem_index(r, a0), elem_index(r, a1), (unsigned long long)a0, (unsigned long long)a1);
        printf("OVERRUN: %s\n", line);
        if (!bad++) snprintf(first, flen, "%s", line);
    }
    return bad;
}

/* The kernel's argument size from its DWARF (kernels are built with -g):
 * the entry function's first parameter, a pointer to a struct.  Returns the
 * struct's byte size and names it in tname; -1 when not known (no debug
 * information, no such function, or its parameter is not a struct
 * pointer), why says which. */
static Dwarf_Die *peel(Dwarf_Die *d, Dwarf_Die *mem) {
    Dwarf_Attribute at;
    while (d) {
        int t = dwarf_tag(d);
        if (t != DW_TAG_typedef && t != DW_TAG_const_type && t != DW_TAG_volatile_type && t != DW_TAG_restrict_type)
            return d;
        if (!dwarf_attr_integrate(d, DW_AT_type, &at)) return NULL;
        d = dwarf_formref_die(&at, mem);
    }
    return NULL;
}

/* "file:line" of a GPU pc from the kernel's DWARF line table; delta = the
 * entry's GPU address - its link address (the image may be relocated).
 * "" when the kernel has no line information there. */
static void pc_file_line(const char *path, const char *entry, uint64_t entry_gpu, uint64_t pc, char *buf,
                         size_t len) {
    buf[0] = '\0';
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    Dwarf_Addr link = 0;
    bool found = false;
    Dwarf_Off off = 0, next;
    size_t hsz;
    while (dw && !found && dwarf_nextcu(dw, off, &next, &hsz, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu, d;
        if (dwarf_offdie(dw, off + hsz, &cu) && dwarf_child(&cu, &d) == 0)
            do {
                const char *nm = dwarf_diename(&d);
                if (dwarf_tag(&d) == DW_TAG_subprogram && nm && !strcmp(nm, entry) && dwarf_lowpc(&d, &link) == 0)
                    found = true;
            } while (!found && dwarf_siblingof(&d, &d) == 0);
        off = next;
    }
    Dwarf_Die cu;
    Dwarf_Line *ln;
    int line;
    const char *file;
    if (found && dwarf_addrdie(dw, pc - entry_gpu + link, &cu) && (ln = dwarf_getsrc_die(&cu, pc - entry_gpu + link)) &&
        (file = dwarf_linesrc(ln, NULL, NULL)) && dwarf_lineno(ln, &line) == 0) {
        const char *slash = strrchr(file, '/');
        int n = snprintf(buf, len, "%s:%d", slash ? slash + 1 : file, line);
        /* in an inlined function (fg_sync, a helper): also the call site in
         * the function that was compiled, from the outermost inlined scope */
        Dwarf_Die *sc = NULL;
        int ns = dwarf_getscopes(&cu, pc - entry_gpu + link, &sc);
        for (int i = ns - 1; i >= 0 && n > 0 && (size_t)n < len; i--) {
            if (dwarf_tag(&sc[i]) != DW_TAG_inlined_subroutine) continue;
            Dwarf_Attribute af, al;
            Dwarf_Word fi, cl;
            Dwarf_Files *files;
            size_t nf;
            const char *cf;
            if (dwarf_formudata(dwarf_attr(&sc[i], DW_AT_call_file, &af), &fi) == 0 &&
                dwarf_formudata(dwarf_attr(&sc[i], DW_AT_call_line, &al), &cl) == 0 &&
                dwarf_getsrcfiles(&cu, &files, &nf) == 0 && fi < nf && (cf = dwarf_filesrc(files, fi, NULL, NULL))) {
                slash = strrchr(cf, '/');
                snprintf(buf + n, len - (size_t)n, " inlined at %s:%llu", slash ? slash + 1 : cf, (unsigned long long)cl);
            }
            break;
        }
        free(sc);
    }
    if (dw) dwarf_end(dw);
    close(fd);
}

/* Where a GPU pc is in the kernel's source: "function+offset, file:line"
 * (the symbol table, then the DWARF line table when it has the pc). */
typedef struct {
    const gpu_t *g;
    const char *kpath, *entry;
    uint64_t entry_gpu;
} ksrc;

static void pc_where(const ksrc *ks, uint64_t pc, char *buf, size_t len) {
    char ln[96];
    gpu_pc_symbol(ks->g, pc, buf, len);
    pc_file_line(ks->kpath, ks->entry, ks->entry_gpu, pc, ln, sizeof ln);
    size_t n = strlen(buf);
    if (*ln && n < len) snprintf(buf + n, len - n, ", %s", ln);
}

static long kernel_arg_bytes(const char *path, const char *entry, char *tname, size_t tlen, const char **why) {
    long bytes = -1;
    *why = "the kernel has no debug information (build it with -g, as mk/simt.mk does)";
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    Dwarf_Off off = 0, next;
    size_t hsz;
    while (dw && bytes < 0 && dwarf_nextcu(dw, off, &next, &hsz, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu, d;
        if (dwarf_offdie(dw, off + hsz, &cu) && dwarf_child(&cu, &d) == 0) {
            *why = "no debug information for the entry function";
            do {
                const char *nm = dwarf_diename(&d);
                if (dwarf_tag(&d) != DW_TAG_subprogram || !nm || strcmp(nm, entry) || !dwarf_hasattr(&d, DW_AT_low_pc))
                    continue;
                Dwarf_Die p, tm1, tm2, *t;
                Dwarf_Attribute at;
                *why = "the entry function takes no pointer to a struct";
                if (dwarf_child(&d, &p) != 0) break;
                while (dwarf_tag(&p) != DW_TAG_formal_parameter)
                    if (dwarf_siblingof(&p, &p) != 0) goto done;
                if (!dwarf_attr_integrate(&p, DW_AT_type, &at) || !(t = peel(dwarf_formref_die(&at, &tm1), &tm1)) ||
                    dwarf_tag(t) != DW_TAG_pointer_type || !dwarf_attr_integrate(t, DW_AT_type, &at) ||
                    !(t = peel(dwarf_formref_die(&at, &tm2), &tm2)) ||
                    (dwarf_tag(t) != DW_TAG_structure_type && dwarf_tag(t) != DW_TAG_union_type))
                    goto done;
                Dwarf_Word sz;
                if (dwarf_aggregate_size(t, &sz) == 0) {
                    bytes = (long)sz;
                    snprintf(tname, tlen, "%s %s", dwarf_tag(t) == DW_TAG_union_type ? "union" : "struct",
                             dwarf_diename(t) ? dwarf_diename(t) : "(anonymous)");
                }
                goto done;
            } while (dwarf_siblingof(&d, &d) == 0);
        }
        off = next;
    }
done:
    if (dw) dwarf_end(dw);
    close(fd);
    return bytes;
}

/* "lanes 0-15,20" of a lane mask */
static void lanes_str(uint32_t m, char *s, size_t len) {
    size_t n = 0;
    s[0] = 0;
    for (int l = 0; l < 32 && n < len; l++) {
        if (!(m >> l & 1)) continue;
        int e = l;
        while (e + 1 < 32 && (m >> (e + 1) & 1)) e++;
        n += (size_t)snprintf(s + n, len - n, n ? ",%d" : "%d", l);
        if (e > l && n < len) n += (size_t)snprintf(s + n, len - n, "-%d", e);
        l = e;
    }
}

/* The report of a kernel that did not finish: each live warp's threads by
 * pc (function+offset) and what they wait for, then each block whose
 * barrier has waited for at least half the run (a barrier deadlock: the
 * threads that did not arrive are stuck elsewhere).  Returns the number of
 * such blocks; the first is named in dl. */
#define REPORT_WARPS 64
static int report_unfinished(const ksrc *ks, const uint32_t *block, uint64_t t0, char *dl, size_t dlen) {
    const gpu_t *g = ks->g;
    uint64_t now = gpu_cycle(g), ran = now - t0;
    unsigned n = gpu_warps(g, NULL, 0);
    gpu_warp_info *w = calloc(n ? n : 1, sizeof *w);
    if (!w) return 0;
    gpu_warps(g, w, n);
    printf("unfinished: %u warps still live at cycle %llu\n", n, (unsigned long long)ran);
    int ndl = 0;
    for (unsigned i = 0; i < n && i < REPORT_WARPS; i++) {
        const gpu_warp_info *x = &w[i];
        char sym[192], ls[128];
        printf("  core %u warp slot %u: block (%u,%u,%u) warp %u%s, %llu instructions%s", x->core, x->slot,
               x->ctaid[0], x->ctaid[1], x->ctaid[2], x->warp_in_block, x->event ? " (event warp)" : "",
               (unsigned long long)x->instrs, x->draining ? ", every thread exited, memory in flight" : "");
        if (x->loads || x->stores) printf(", %u loads / %u stores in flight", x->loads, x->stores);
        if (x->at_fence) printf(", at a FENCE waiting for its stores");
        printf("\n");
        uint32_t done = 0;
        for (unsigned l = 0; l < 32; l++) {
            if (!(x->live >> l & 1) || (done >> l & 1)) continue;
            bool bar = x->bar_wait >> l & 1;
            uint32_t pc = x->lane_pc[l], m = 0;
            for (unsigned j = l; j < 32; j++)
                if ((x->live >> j & 1) && x->lane_pc[j] == pc && (bool)(x->bar_wait >> j & 1) == bar) m |= 1u << j;
            done |= m;
            uint32_t at = bar ? pc - 4 : pc; /* a waiting lane's pc is past the barrier's CSR write */
            pc_where(ks, at, sym, sizeof sym);
            lanes_str(m, ls, sizeof ls);
            bool one = !(m & (m - 1));
            printf("    lane%s %s: %s pc 0x%08x (%s)\n", one ? "" : "s", ls, bar ? (one ? "waits at the barrier at"
                   : "wait at the barrier at") : "at", at, sym);
        }
    }
    if (n > REPORT_WARPS) printf("  ... and %u more warps\n", n - REPORT_WARPS);
    for (unsigned i = 0; i < n; i++) { /* each block's barrier, from its first warp */
        const gpu_warp_info *x = &w[i];
        bool first = true;
        for (unsigned j = 0; j < i && first; j++)
            first = w[j].core != x->core || memcmp(w[j].ctaid, x->ctaid, sizeof x->ctaid) || w[j].event || x->event;
        if (!first || x->event || !x->block_arrived) continue;
        uint64_t waited = now - x->bar_since;
        bool dead = waited * 2 >= ran;
        printf("  %sblock (%u,%u,%u) on core %u: %u of its %u live threads have waited at the barrier for %llu "
               "cycles; %u %s not arrived%s\n", dead ? "BARRIER DEADLOCK: " : "", x->ctaid[0], x->ctaid[1],
               x->ctaid[2], x->core, x->block_arrived, x->block_live, (unsigned long long)waited,
               x->block_live - x->block_arrived, x->block_live - x->block_arrived == 1 ? "has" : "have",
               dead ? " in all that time (they are stuck elsewhere, see their pcs above; the barrier releases only "
                      "when every live thread of the block reaches a barrier or exits)" : "");
        if (dead && !ndl++) {
            /* the barrier's pc and one thread that has not arrived, from the block's warps */
            uint32_t bar_pc = 0, stuck_pc = 0;
            unsigned stuck_t = 0;
            bool has_bar = false, has_stuck = false;
            for (unsigned j = i; j < n; j++) {
                const gpu_warp_info *y = &w[j];
                if (y->core != x->core || memcmp(y->ctaid, x->ctaid, sizeof x->ctaid) || y->event) continue;
                for (unsigned l = 0; l < 32; l++) {
                    if (!(y->live >> l & 1)) continue;
                    if (y->bar_wait >> l & 1) {
                        if (!has_bar) bar_pc = y->lane_pc[l] - 4, has_bar = true;
                    } else if (!has_stuck) {
                        stuck_pc = y->lane_pc[l], stuck_t = y->warp_in_block * 32 + l, has_stuck = true;
                    }
                }
            }
            char bs[192] = "?", ss[192] = "?", tail[512] = "";
            if (has_bar) pc_where(ks, bar_pc, bs, sizeof bs);
            if (has_stuck) {
                pc_where(ks, stuck_pc, ss, sizeof ss);
                snprintf(tail, sizeof tail, "; thread (%u,%u,%u), which has not arrived, is at pc 0x%08x (%s)",
                         stuck_t % block[0], stuck_t / block[0] % block[1], stuck_t / (block[0] * block[1]), stuck_pc, ss);
            }
            snprintf(dl, dlen, "barrier deadlock in block (%u,%u,%u): %u of %u live threads wait at the barrier at pc "
                     "0x%08x (%s)%s", x->ctaid[0], x->ctaid[1], x->ctaid[2], x->block_arrived, x->block_live, bar_pc, bs,
                     tail);
        }
    }
    free(w);
    return ndl;
}

/* ------------------------------------------------------------- progress */
static void show_progress(fg_progress *pr, const gpu_t *g, uint64_t cycles, uint64_t max_cycles) {
    gpu_stats st;
    gpu_get_stats(g, &st);
    double el = fg_progress_elapsed(pr), rate = el > 0 ? (double)cycles / el : 0;
    char a[32], b[32];
    fg_progress_status(pr, false, "fg_run: cycle %llu, %llu warp instructions, %.0f k cycles/s, elapsed %s "
                       "(--max-cycles reached in %s)", (unsigned long long)cycles,
                       (unsigned long long)st.warp_instrs, rate / 1e3, fg_progress_time(el, a, sizeof a),
                       fg_progress_time(rate > 0 ? (double)(max_cycles - cycles) / rate : -1, b, sizeof b));
}

/* ------------------------------------------------------ command line */
/* --racecheck: per word of each core's shared memory, the last write and the
 * last read since the block's last barrier (bar_gen); an access by another
 * thread of the block in another warp that conflicts with either (one is a
 * write, not both atomic) is a race.  Threads of one warp run in lock step
 * here and are not compared.  Each pair of pcs is reported once. */
typedef struct {
    uint64_t buid, gen;
    uint32_t tid, pc;
    uint16_t warp;
    bool valid, atomic;
} rc_acc;
typedef struct {
    rc_acc w, r;
} rc_word;
typedef struct {
    uint32_t pc[2], tid[2], ctaid[3], off;
    bool write[2], global;
} rc_race;
#define RC_MAX 16
typedef struct {
    rc_word **sh;      /* per core, shmem_per_core / 4 words */
    unsigned words;
    const fmap *map;   /* global memory: a shadow per buffer word (gsh[i] for map->r[i]) */
    rc_word **gsh;
    unsigned n, total;  /* races reported (distinct pc pairs), conflicting accesses seen */
    rc_race race[RC_MAX];
} racecheck;

static void rc_note(racecheck *rc, const rc_acc *a, bool a_write, const gpu_shared_access *b) {
    rc->total++;
    for (unsigned i = 0; i < rc->n; i++)
        if ((rc->race[i].pc[0] == a->pc && rc->race[i].pc[1] == b->pc) ||
            (rc->race[i].pc[1] == a->pc && rc->race[i].pc[0] == b->pc))
            return;
    if (rc->n == RC_MAX) return;
    rc_race *r = &rc->race[rc->n++];
    *r = (rc_race){{a->pc, b->pc}, {a->tid, b->tid}, {b->ctaid[0], b->ctaid[1], b->ctaid[2]}, b->off, {a_write, b->write},
                   b->global};
}

static bool rc_conflict(const rc_acc *a, const gpu_shared_access *b) {
    return a->valid && a->buid == b->block_uid && a->gen == b->bar_gen && a->warp != b->warp_slot &&
           a->tid != b->tid && !(a->atomic && b->atomic);
}

static void rc_hook(void *user, const gpu_shared_access *x) {
    racecheck *rc = user;
    rc_word *e = NULL;
    if (x->global) { /* only the buffers: kernels do not write the image or parameters (--check) */
        for (int i = 0; !e && i < rc->map->n; i++)
            if (rc->gsh[i] && x->off >= rc->map->r[i].lo && x->off < rc->map->r[i].hi)
                e = &rc->gsh[i][(x->off - rc->map->r[i].lo) >> 2];
        if (!e) return;
    } else {
        if (x->core >= 1024 || !rc->sh[x->core] || x->word >= rc->words) return;
        e = &rc->sh[x->core][x->word];
    }
    if (rc_conflict(&e->w, x)) rc_note(rc, &e->w, true, x);             /* after a write: any access */
    if (x->write && rc_conflict(&e->r, x)) rc_note(rc, &e->r, false, x); /* a write after a read */
    rc_acc a = {x->block_uid, x->bar_gen, x->tid, x->pc, (uint16_t)x->warp_slot, true, x->atomic};
    if (x->write) e->w = a;
    else e->r = a;
}

/* The kernel's static shared arrays (FG_SHARED objects, linked from
 * FG_SHARED_BASE up to __shared_end) and whether the run touched each: every
 * one of a file is allocated for each of its entries (docs/SIMT.md), so an
 * entry that uses some is warned about the rest. */
typedef struct {
    char name[64];
    uint32_t off, size;
    bool used;
} sh_arr;
typedef struct {
    sh_arr a[64];
    unsigned n;
    uint64_t end;  /* __shared_end: dynamic shared memory from here (0: unknown) */
    racecheck *rc; /* also --racecheck's hook, or NULL */
} sh_use;

static void shared_arrays(const char *path, sh_use *u) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) return;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    uint64_t end = 0;
    while (e && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL))) continue;
        for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym y;
            const char *nm;
            if (!gelf_getsym(d, (int)i, &y) || !(nm = elf_strptr(e, sh.sh_link, y.st_name))) continue;
            if (!strcmp(nm, "__shared_end")) end = y.st_value;
            if (GELF_ST_TYPE(y.st_info) == STT_OBJECT && y.st_size && y.st_value >= FG_SHARED_BASE && u->n < 64) {
                sh_arr *a = &u->a[u->n++];
                snprintf(a->name, sizeof a->name, "%s", nm);
                a->off = (uint32_t)(y.st_value - FG_SHARED_BASE);
                a->size = (uint32_t)y.st_size;
            }
        }
    }
    unsigned k = 0; /* only what lies below __shared_end */
    for (unsigned i = 0; i < u->n; i++)
        if (end && FG_SHARED_BASE + (uint64_t)u->a[i].off < end) u->a[k++] = u->a[i];
    u->n = k;
    u->end = end;
    if (e) elf_end(e);
    close(fd);
}

static void use_hook(void *user, const gpu_shared_access *x) {
    sh_use *u = user;
    if (!x->global)
        for (unsigned i = 0; i < u->n; i++)
            if (x->off < u->a[i].off + u->a[i].size && x->off + x->size > u->a[i].off) u->a[i].used = true;
    if (u->rc) rc_hook(u->rc, x);
}

/* Which static shared array holds byte off of a block's shared memory:
 * "name+byte"; past __shared_end it is the dynamic shared memory. */
static void shared_array_name(const sh_use *u, uint32_t off, char *buf, size_t len) {
    for (unsigned i = 0; i < u->n; i++)
        if (off >= u->a[i].off && off < u->a[i].off + u->a[i].size) {
            snprintf(buf, len, "%s+%u", u->a[i].name, off - u->a[i].off);
            return;
        }
    if (u->end && FG_SHARED_BASE + (uint64_t)off >= u->end)
        snprintf(buf, len, "dynamic shared memory+%llu",
                 (unsigned long long)(FG_SHARED_BASE + (uint64_t)off - u->end));
    else
        snprintf(buf, len, "?");
}

/* After a run that used some of its static shared arrays: the others, by name. */
static void shared_unused_warning(const sh_use *u, const char *entry) {
    unsigned used = 0, unused = 0, bytes = 0;
    char list[512] = "";
    for (unsigned i = 0; i < u->n; i++) {
        if (u->a[i].used) { used++; continue; }
        unused++;
        bytes += u->a[i].size;
        size_t l = strlen(list);
        if (l < sizeof list - 80) snprintf(list + l, sizeof list - l, "%s%s (%u B)", l ? ", " : "", u->a[i].name, u->a[i].size);
    }
    if (used && unused)
        fprintf(stderr, "fg_run: warning: entry %s never touched %u of the %u FG_SHARED arrays it was given: %s; every "
                "FG_SHARED array of a kernel's file is allocated for each of its entries (%u B per block here), "
                "which lowers how many blocks fit on a core: move them to their entry's file or into dynamic shared "
                "memory (--shmem)\n", entry, unused, u->n, list, bytes);
}

static int rc_report(const ksrc *ks, const racecheck *rc, const sh_use *sh) {
    if (!rc->n) {
        printf("racecheck: no shared-memory race, no global-memory race within a block\n");
        return 0;
    }
    for (unsigned i = 0; i < rc->n; i++) {
        const rc_race *r = &rc->race[i];
        char s0[192] = "?", s1[192] = "?";
        pc_where(ks, r->pc[0], s0, sizeof s0);
        pc_where(ks, r->pc[1], s1, sizeof s1);
        char arr[224], where[320];
        const fregion *gr = NULL;
        for (int j = 0; r->global && j < rc->map->n; j++)
            if (r->off >= rc->map->r[j].lo && r->off < rc->map->r[j].hi) gr = &rc->map->r[j];
        if (gr) {
            region_name(rc->map, gr, arr, sizeof arr);
            snprintf(where, sizeof where, "global-memory race at element %lld of %s, in block (%u,%u,%u)",
                     elem_index(gr, r->off), arr, r->ctaid[0], r->ctaid[1], r->ctaid[2]);
        } else {
            shared_array_name(sh, r->off, arr, sizeof arr);
            snprintf(where, sizeof where, "shared-memory race at %s (byte offset %u of block (%u,%u,%u)'s shared memory)",
                     arr, r->off, r->ctaid[0], r->ctaid[1], r->ctaid[2]);
        }
        fprintf(stderr,
                "racecheck: %s: %s by thread %u "
                "at pc 0x%08x (%s), then %s by thread %u at pc 0x%08x (%s), no barrier (__syncthreads / fg_sync) "
                "between them\n",
                where, r->write[0] ? "write" : "read", r->tid[0], r->pc[0],
                s0, r->write[1] ? "write" : "read", r->tid[1], r->pc[1], s1);
    }
    fprintf(stderr, "racecheck: %u race%s (distinct pc pairs%s), %u conflicting accesses\n", rc->n,
            rc->n == 1 ? "" : "s", rc->n == RC_MAX ? ", the first 16" : "", rc->total);
    return 1;
}

/* The kernel's entries, for a run without --entry: its global functions in
 * code, by address (so in source order), less the four that sw/crt/fg_libc.c
 * provides because GCC may call them in a freestanding program (memcpy,
 * memmove, memset, memcmp: GCC manual, "C Language" / -ffreestanding).
 * Returns how many (names, up to max, in names[]), or -1 when the file's
 * file is no RISC-V kernel or has no symbol table (gpu_load_kernel then
 * says why). */
typedef struct {
    char name[64];
    uint64_t addr;
} kentry;

static int kentry_cmp(const void *a, const void *b) {
    const kentry *x = a, *y = b;
    return (x->addr > y->addr) - (x->addr < y->addr);
}

static int kernel_entries(const char *path, kentry *names, int max) {
    static const char *const runtime[] = {"memcpy", "memmove", "memset", "memcmp"};
    int fd = open(path, O_RDONLY), n = -1;
    if (fd < 0) return -1;
    elf_version(EV_CURRENT);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    GElf_Ehdr eh;
    /* only a RISC-V ELF32 executable; the loader refuses anything else, in its words */
    bool rv = e && gelf_getehdr(e, &eh) && eh.e_ident[EI_CLASS] == ELFCLASS32 && eh.e_machine == EM_RISCV &&
              eh.e_type == ET_EXEC;
    while (rv && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh, ts;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !(d = elf_getdata(scn, NULL))) continue;
        n = 0;
        for (size_t i = 0; sh.sh_entsize && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym y;
            const char *nm;
            Elf_Scn *ys;
            if (!gelf_getsym(d, (int)i, &y) || !(nm = elf_strptr(e, sh.sh_link, y.st_name)) || !nm[0] ||
                GELF_ST_TYPE(y.st_info) != STT_FUNC || GELF_ST_BIND(y.st_info) == STB_LOCAL ||
                y.st_shndx == SHN_UNDEF || y.st_shndx >= SHN_LORESERVE || !(ys = elf_getscn(e, y.st_shndx)) ||
                !gelf_getshdr(ys, &ts) || !(ts.sh_flags & SHF_EXECINSTR))
                continue;
            bool rt = false;
            for (size_t r = 0; r < sizeof runtime / sizeof *runtime; r++) rt |= !strcmp(nm, runtime[r]);
            if (rt) continue;
            if (n < max) {
                snprintf(names[n].name, sizeof names[n].name, "%s", nm);
                names[n].addr = y.st_value;
            }
            n++;
        }
        break;
    }
    if (n > 0) qsort(names, (size_t)(n < max ? n : max), sizeof *names, kentry_cmp);
    if (e) elf_end(e);
    close(fd);
    return n;
}

/* ------------------------------------------------------------- main */
int main(int argc, char **argv) {
    fg_run_opts o;
    fg_wave_kinds(wave_kinds, sizeof wave_kinds / sizeof *wave_kinds);
    int prc = fg_run_parse(argc, argv, &o);
    if (prc >= 0) {
        fg_run_opts_free(&o);
        return prc;
    }
    const char *kpath = o.kpath, *entry = o.entry;
    uint32_t *grid = o.grid, *block = o.block;
    uint64_t shmem = o.shmem, max_cycles = o.max_cycles, guard = o.guard;
    double max_seconds = o.max_seconds;
    int check = o.check, entry_given = o.entry_given, nb = o.nb, na = o.na, nd = o.nd, np = o.np;
    fbuf *bufs = o.bufs;
    farg *args = o.args;
    fout *dumps = o.dumps, *prints = o.prints;
    gpu_config gc = o.gc;
    char err[512];

    gpu_t *g = gpu_new(&gc, err, sizeof err);
    if (!g) return fg_run_die(2, "%s", err);
    gpu_kernel k;
    kentry ents[16];
    if (!entry_given) {
        /* no default name (no kernel is called main): the file's only entry */
        int ne = kernel_entries(kpath, ents, 16);
        if (ne == 1) entry = ents[0].name;
        else if (ne == 0)
            return fg_run_die(2, "%s has no kernel entry (no global function but the runtime's memcpy, memmove, "
                              "memset, memcmp): name one with --entry", kpath);
        else if (ne > 1) {
            char list[16 * (sizeof ents[0].name + 2)];
            size_t at = 0;
            for (int i = 0; i < ne && i < 16; i++) {
                size_t l = strlen(ents[i].name);
                if (i) memcpy(list + at, ", ", 2), at += 2;
                memcpy(list + at, ents[i].name, l);
                at += l;
            }
            list[at] = '\0';
            return fg_run_die(2, "%s has %d kernel entries (%s%s): choose one with --entry", kpath, ne, list,
                              ne > 16 ? ", ..." : "");
        }
    }
    if (!entry) {
        /* the symbol table could not be read: the loader names the problem */
        if (gpu_load_kernel(g, kpath, NULL, &k, err, sizeof err)) return fg_run_die(2, "%s", err);
        return fg_run_die(2, "kernel %s: cannot read its symbol table to find its entry: name it with --entry", kpath);
    }
    if (gpu_load_kernel(g, kpath, entry, &k, err, sizeof err)) return fg_run_die(2, "%s", err);
    const ksrc ks = {g, kpath, entry, k.entry};

    /* the kernel's argument struct against the --arg list (from its DWARF) */
    char tname[128];
    const char *why;
    long abytes = kernel_arg_bytes(kpath, entry, tname, sizeof tname, &why);
    if (abytes >= 0 && abytes != na * 4) {
        fflush(stdout);
        fprintf(stderr, "fg_run: warning: the kernel's argument %s is %ld bytes (%ld 4-byte arguments), but --arg "
                "gives %d (%d bytes): %s\n", tname, abytes, (abytes + 3) / 4, na, na * 4,
                abytes > na * 4 ? "it reads past the parameter block (--check names the thread that does)"
                                : "the extra arguments are not read");
    }

    /* the kernel image, then the buffers in order and the parameter block,
     * each followed by a guard gap */
    fregion *reg = calloc((size_t)nb + 3, sizeof *reg);
    if (!reg) return fg_run_die(2, "out of memory");
    fmap map = {reg, 0, 0, na, guard, NULL, 0, 0};
    reg[map.n++] = (fregion){R_IMAGE, k.image_base, k.image_end, NULL};
    int n_fe = 0;
    uint64_t fe_base, fe_bytes;
    gpu_fe_region(g, &fe_base, &fe_bytes);
    for (int i = 0; i < nb; i++) {
        fbuf *b = &bufs[i];
        if (!strcmp(b->init, "empty")) {
            /* F/E 4.2's synchronized memory, every word marked empty (F/E
             * 4.5's init), so that a load waits for a store to fill it; its
             * region goes after the guarded chain (no guard gaps there) */
            if (!fe_bytes)
                return fg_run_die(2, "buffer %s: 'empty' needs the F/E-tracked region, and this machine has none "
                                  "([mem] fe_region_bytes = 0)", b->name);
            if (!(b->addr = gpu_malloc_sync(g, b->bytes)))
                return fg_run_die(2, "buffer %s: %llu bytes do not fit in the F/E-tracked region (%llu bytes at "
                                  "0x%08llx, [mem] fe_region_base / fe_region_bytes)", b->name,
                                  (unsigned long long)b->bytes, (unsigned long long)fe_bytes,
                                  (unsigned long long)fe_base);
            uint8_t *h = calloc(1, b->bytes);
            if (!h || gpu_mem_write(g, b->addr, h, b->bytes)) return fg_run_die(2, "buffer %s: write to GPU memory failed", b->name);
            free(h);
            int frc;
            while ((frc = gpu_fe_init(g, b->addr, (b->bytes + 127) & ~127ull, false)) == 1) gpu_tick(g);
            if (frc) return fg_run_die(2, "buffer %s: cannot mark its F/E bits empty", b->name);
            n_fe++;
            continue;
        }
        if (guard && !gpu_malloc(g, guard))
            return fg_run_die(2, "no room in GPU global memory for the --guard gaps (gpu.global_mem_bytes = %llu)",
                       (unsigned long long)gc.global_mem_bytes);
        b->addr = gpu_malloc(g, b->bytes);
        if (!b->addr || b->addr + b->bytes > FG_SHARED_BASE)
            return fg_run_die(2, "buffer %s: %llu bytes do not fit in GPU global memory (gpu.global_mem_bytes = %llu)",
                       b->name, (unsigned long long)b->bytes, (unsigned long long)gc.global_mem_bytes);
        uint8_t *h = malloc(b->bytes);
        if (!h) return fg_run_die(2, "buffer %s: out of host memory", b->name);
        if (fill_buf(b, h)) return 2;
        if (gpu_mem_write(g, b->addr, h, b->bytes)) return fg_run_die(2, "buffer %s: write to GPU memory failed", b->name);
        free(h);
        reg[map.n++] = (fregion){R_BUF, b->addr, b->addr + b->bytes, b};
    }
    uint32_t *pb = calloc((size_t)na + 1, 4);
    if (!pb) return fg_run_die(2, "out of memory");
    for (int i = 0; i < na; i++)
        pb[i] = args[i].is_buf ? (uint32_t)fg_run_find_buf(bufs, nb, args[i].buf, strlen(args[i].buf))->addr : args[i].bits;
    uint64_t gap = guard ? gpu_malloc(g, guard) : 1, param = gap ? gpu_malloc(g, (uint64_t)(na ? na : 1) * 4) : 0;
    uint64_t tail = param && guard ? gpu_malloc(g, guard) : param + (uint64_t)(na ? na : 1) * 4;
    if (!param || !tail || gpu_mem_write(g, param, pb, (size_t)(na ? na : 1) * 4))
        return fg_run_die(2, "no room in GPU global memory for the %d-byte parameter block", na * 4);
    reg[map.n++] = (fregion){R_PARAM, param, param + (uint64_t)na * 4, NULL};
    reg[map.n++] = (fregion){R_END, tail + guard, tail + guard, NULL};
    map.nguard = map.n;
    if (guard_fill(g, &map)) return fg_run_die(2, "no room in GPU global memory for the --guard gaps");
    for (int i = 0; i < nb && n_fe; i++) /* the F/E buffers' regions, outside the guarded chain */
        if (!strcmp(bufs[i].init, "empty")) reg[map.n++] = (fregion){R_BUF, bufs[i].addr, bufs[i].addr + bufs[i].bytes, &bufs[i]};
    if (n_fe)
        while (!gpu_idle(g)) gpu_tick(g); /* the F/E bits are set before the kernel starts */
    unsigned char *arg_region = calloc((size_t)na + 1, 1);
    if (!arg_region) return fg_run_die(2, "out of memory");
    for (int i = 0; i < na; i++) /* its buffer's region index; past 254 regions: untracked */
        if (args[i].is_buf) {
            const fbuf *b = fg_run_find_buf(bufs, nb, args[i].buf, strlen(args[i].buf));
            int j = 0;
            while (j < map.n && map.r[j].b != b) j++;
            arg_region[i] = j < map.n && j < RV_PROV_LOST ? (unsigned char)j : RV_PROV_NONE;
        }
    map.arg_region = arg_region;
    if (check) gpu_set_access_check(g, check_access, prov_load, &map);
    racecheck rck = {0};
    if (o.racecheck) {
        rck.words = o.gc.shmem_per_core / 4;
        rck.sh = calloc(o.gc.num_cores, sizeof *rck.sh);
        for (unsigned i = 0; rck.sh && i < o.gc.num_cores; i++)
            if (!(rck.sh[i] = calloc(rck.words ? rck.words : 1, sizeof **rck.sh))) return fg_run_die(2, "out of memory");
        if (!rck.sh) return fg_run_die(2, "out of memory");
        rck.map = &map;
        if (!(rck.gsh = calloc((size_t)map.n, sizeof *rck.gsh))) return fg_run_die(2, "out of memory");
        for (int i = 0; i < map.n; i++)
            if (map.r[i].kind == R_BUF && !(rck.gsh[i] = calloc((map.r[i].hi - map.r[i].lo + 3) / 4 + 1, sizeof **rck.gsh)))
                return fg_run_die(2, "out of memory");
    }
    sh_use shu = {.rc = o.racecheck ? &rck : NULL};
    shared_arrays(kpath, &shu);
    if (shu.n || o.racecheck) gpu_set_shared_hook(g, use_hook, &shu);

    printf("kernel: %s, entry %s at 0x%llx, %u registers/thread, %u B static shared memory\n", kpath, entry,
           (unsigned long long)k.entry, k.regs_per_thread, k.static_shmem);
    uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    printf("launch: grid %ux%ux%u, block %ux%ux%u (%llu threads, %llu warps per block), %llu B dynamic shared; "
           "%u cores at %.0f MHz\n",
           grid[0], grid[1], grid[2], block[0], block[1], block[2], (unsigned long long)threads,
           (unsigned long long)((threads + 31) / 32), (unsigned long long)shmem, gc.num_cores, gc.clock_mhz);
    for (int i = 0; i < nb; i++)
        printf("buffer %s: %llu x %s at 0x%08llx (%s)\n", bufs[i].name, (unsigned long long)bufs[i].count,
               fg_run_type_name[bufs[i].type], (unsigned long long)bufs[i].addr, bufs[i].init);
    printf("params: %d bytes at 0x%08llx:", na * 4, (unsigned long long)param);
    for (int i = 0; i < na; i++) printf(" %s=0x%08x", args[i].spec, pb[i]);
    printf("\n");
    if (abytes >= 0) printf("kernel arguments: %s, %ld bytes (from the kernel's debug information)\n", tname, abytes);
    else printf("kernel arguments: size not known: %s\n", why);
    if (guard || check)
        printf("checks: %llu-byte guard gaps around the buffers and the parameter block%s\n",
               (unsigned long long)guard, check ? "; --check: every global access bounds-checked, and against the buffer its pointer came from" : "");

    gpu_launch_desc d = {0};
    d.kernel_ptr = k.entry;
    d.regs_per_thread = k.regs_per_thread;
    memcpy(d.grid, grid, sizeof d.grid);
    memcpy(d.block, block, sizeof d.block);
    d.shmem = (uint32_t)shmem;
    d.param_addr = param;
    fcb rec = {0};
    gpu_callbacks cb = {.first_instr = cb_first, .complete = cb_done, .user = &rec};
    gpu_set_callbacks(g, &cb);
    if (wave_watch(g, kpath)) return 2;
    if (gpu_launch(g, &d, err, sizeof err)) return fg_run_die(2, "%s", err);
    uint64_t t0 = gpu_cycle(g);
    fg_progress pr; /* a status line on a terminal: how far, how fast (a kernel's length is unknown ahead) */
    fg_progress_init(&pr);
    gpu_stats st;
    int out_of_time = 0;
    while (!gpu_idle(g) && gpu_cycle(g) - t0 < max_cycles) {
        gpu_tick(g);
        if (!(gpu_cycle(g) & 0xfff)) {
            if (max_seconds > 0 && fg_progress_elapsed(&pr) >= max_seconds) {
                out_of_time = 1;
                break;
            }
            if (pr.tty && !(gpu_cycle(g) & 0x3fff)) show_progress(&pr, g, gpu_cycle(g) - t0, max_cycles);
        }
    }
    fg_progress_clear(&pr);
    wave_after(g, gc.num_cores);
    uint64_t cycles = gpu_cycle(g) - t0;
    gpu_get_stats(g, &st);
    /* what the kernel wrote where it should not: guard gaps, its parameter block */
    char over[1024] = "";
    int n_over = guard_check(g, &map, over, sizeof over);
    uint32_t *pa = calloc((size_t)na + 1, 4);
    if (pa && na && !gpu_mem_read(g, param, pa, (size_t)na * 4))
        for (int i = 0; i < na; i++)
            if (pa[i] != pb[i])
                printf("WARNING: the kernel changed argument %d (%s) of its parameter block: 0x%08x -> 0x%08x\n",
                       i + 1, args[i].spec, pb[i], pa[i]);
    free(pa);
    free(pb);
    if (check && map.untracked)
        printf("--check: %llu buffer accesses through pointers not derived from a buf: argument (loaded from "
               "memory, or computed): checked against every buffer, not against their own\n",
               (unsigned long long)map.untracked);
    if (check && map.lost)
        printf("--check: %llu buffer accesses through pointers whose provenance was lost (two pointers "
               "combined): checked against every buffer, not against their own\n", (unsigned long long)map.lost);
    free(map.arg_region);
    if (gpu_error(g)) {
        printf("FAULT after %llu cycles\n", (unsigned long long)cycles);
        /* the faulting pc's source line, from the kernel's DWARF */
        const char *e = gpu_error(g), *pcs = strstr(e, "pc 0x"), *nk = strstr(e, "F/E watchdog NACK: ");
        char at[128] = "", el[400] = "";
        if (pcs) pc_file_line(kpath, entry, k.entry, strtoull(pcs + 5, NULL, 16), at, sizeof at);
        /* the buffer element an F/E access waited on, or a wild jump landed in */
        const char *of = nk ? strstr(nk, " of 0x") : NULL;
        uint64_t a = 0;
        if (of) a = strtoull(of + 6, NULL, 16);
        else if (!strncmp(e, "instruction fetch from bad address 0x", 37)) a = strtoull(e + 37, NULL, 16);
        for (int i = 0; a && i < map.n; i++)
            if (map.r[i].kind == R_BUF && a >= map.r[i].lo && a < map.r[i].hi) {
                char nm[200];
                region_name(&map, &map.r[i], nm, sizeof nm);
                snprintf(el, sizeof el, "; %s is element %lld of %s%s", of ? "the word" : "the address",
                         elem_index(&map.r[i], a), nm, strcmp(map.r[i].b->init, "empty") ? "" : ", which started empty");
            }
        return fg_run_die(1, "kernel fault: %s%s%s%s", gpu_error(g), *at ? "; at " : "", at, el);
    }
    if (!gpu_idle(g)) {
        char dl[1024] = "";
        report_unfinished(&ks, block, t0, dl, sizeof dl);
        char lim[96];
        if (out_of_time) snprintf(lim, sizeof lim, "%g s of wall-clock time (--max-seconds)", max_seconds);
        else snprintf(lim, sizeof lim, "%llu cycles (--max-cycles)", (unsigned long long)max_cycles);
        return fg_run_die(1, "kernel did not finish within %s, at cycle %llu with %llu warp instructions%s%s%s", lim,
                   (unsigned long long)cycles, (unsigned long long)st.warp_instrs, *dl ? "; " : "", dl,
                   n_over ? "; it also wrote into a guard gap (OVERRUN above)" : "");
    }

    printf("cycles: %llu (launch to completion, %.2f us at %.0f MHz; first instruction at cycle %llu)\n",
           (unsigned long long)cycles, (double)cycles / gc.clock_mhz, gc.clock_mhz,
           (unsigned long long)(rec.seen_first ? rec.first - t0 : 0));
    printf("warp instructions: %llu\nthread instructions: %llu (%.1f active threads per warp instruction)\n",
           (unsigned long long)st.warp_instrs, (unsigned long long)st.thread_instrs,
           st.warp_instrs ? (double)st.thread_instrs / (double)st.warp_instrs : 0.0);
    printf("L1: %llu hits, %llu misses, %llu MSHR stalls\n", (unsigned long long)st.l1_hits,
           (unsigned long long)st.l1_misses, (unsigned long long)st.mshr_stalls);
    printf("memory: global load latency %.1f cycles on average, L2 %llu hits / %llu misses, DRAM %llu reads / "
           "%llu writes (%.2f GB/s)\n", st.avg_load_latency, (unsigned long long)st.l2_hits,
           (unsigned long long)st.l2_misses, (unsigned long long)st.dram_reads, (unsigned long long)st.dram_writes,
           st.dram_gbps);

    int rc = 0;
    for (int i = 0; i < np; i++) {
        const char *c = strchr(prints[i].buf, ':');
        const fbuf *b = fg_run_find_buf(bufs, nb, prints[i].buf, c ? (size_t)(c - prints[i].buf) : strlen(prints[i].buf));
        uint64_t n = prints[i].n < b->count ? prints[i].n : b->count;
        uint8_t *h = malloc(n * fg_run_type_size[b->type]);
        if (!h || gpu_mem_read(g, b->addr, h, n * fg_run_type_size[b->type])) return fg_run_die(1, "print %s: read failed", b->name);
        printf("%s[0..%llu]:", b->name, (unsigned long long)n);
        for (uint64_t j = 0; j < n; j++) print_elem(h + j * fg_run_type_size[b->type], b->type);
        printf("\n");
        free(h);
    }
    for (int i = 0; i < nd; i++) {
        const fbuf *b = fg_run_find_buf(bufs, nb, dumps[i].buf, (size_t)(strchr(dumps[i].buf, '=') - dumps[i].buf));
        uint8_t *h = malloc(b->bytes);
        if (!h || gpu_mem_read(g, b->addr, h, b->bytes)) return fg_run_die(1, "dump %s: read failed", b->name);
        FILE *f = fopen(dumps[i].path, "wb");
        int wbad = !f || fwrite(h, 1, b->bytes, f) != b->bytes;
        if (f && fclose(f)) wbad = 1;
        if (wbad) {
            fg_run_die(1, "dump %s: cannot write %s: %s", b->name, dumps[i].path, strerror(errno));
            rc = 1;
        } else {
            printf("wrote %s: %s, %llu bytes\n", dumps[i].path, b->name, (unsigned long long)b->bytes);
        }
        free(h);
    }
    if (n_over) {
        fg_run_die(1, "kernel wrote outside its buffers: %s (--check names the thread and pc)", over);
        rc = 1;
    }
    if (!gpu_error(g)) shared_unused_warning(&shu, entry);
    if (o.racecheck) {
        if (rc_report(&ks, &rck, &shu)) rc = 1;
        for (unsigned i = 0; i < o.gc.num_cores; i++) free(rck.sh[i]);
        free(rck.sh);
        for (int i = 0; i < map.n; i++) free(rck.gsh[i]);
        free(rck.gsh);
    }
    gpu_free(g);
    free(reg);
    free(bufs);
    free(args);
    free(dumps);
    free(prints);
    free(o.sets);
    if (fg_wave_finish() && !rc) rc = 1;
    return rc;
}
