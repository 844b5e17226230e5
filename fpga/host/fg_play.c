/* fg_play: traces replayed by the FPGA top's trace player (fg_play.h). */
#include "fg_play.h"
#include "fg_util.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* ------------------------------------------------------------ the blocks */
static const struct {
    const char *alias;
    unsigned index;
} aliases[] = {{"db", 0}, {"doorbell", 0}, {"ekt", 1}, {"fe", 2}, {"cm", 3}, {"pewt", 4}, {"pewt0", 4},
               {"pre", 5}, {"pre0", 5}, {"preempt", 5}};

const fg_play_block *fg_play_find(const char *name) {
    for (unsigned i = 0; i < FG_PLAY_NBLOCKS; i++) {
        const fg_play_block *b = &fg_play_blocks[i];
        if (!strcasecmp(name, b->name) || !strcasecmp(name, b->model) || !strcasecmp(name, b->window)) return b;
    }
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (!strcasecmp(name, aliases[i].alias))
            for (unsigned k = 0; k < FG_PLAY_NBLOCKS; k++)
                if (fg_play_blocks[k].index == aliases[i].index) return &fg_play_blocks[k];
    return NULL;
}

const char *fg_play_names(void) {
    return "db (edge_doorbell), ekt (edge_ekt), fe (fe_sched_queues), cm (cm_bal_monitor), "
           "pewt0 (edge_pewt), pre0 (edge_preempt)";
}

/* ------------------------------------------------------------ reading */
#define FG_PLAY_MAXCOLS 256
void fg_trace_free(fg_trace *t) {
    free(t->words);
    free(t->first);
    free(t->fileno);
    free(t->vals);
    memset(t, 0, sizeof *t);
}

unsigned fg_trace_row_of(const fg_trace *t, uint64_t line) {
    unsigned lo = 0, hi = t->rows;
    while (hi - lo > 1) {
        unsigned mid = lo + (hi - lo) / 2;
        if (t->first[mid] <= line) lo = mid;
        else hi = mid;
    }
    return lo;
}

/* the value of column c in a row's words */
static void put_bits(uint32_t *w, unsigned lsb, unsigned width, uint64_t v) {
    for (unsigned i = 0; i < width; i++) {
        unsigned b = lsb + i;
        if ((v >> i) & 1u) w[b / 32] |= 1u << (b % 32);
    }
}

static uint64_t width_mask(unsigned w) { return w >= 64 ? ~0ull : (1ull << w) - 1; }

typedef struct {
    uint64_t *v;
    size_t n, cap;
} vec64;

static int vec_push(vec64 *a, uint64_t x) {
    if (a->n == a->cap) {
        size_t cap = a->cap ? 2 * a->cap : 1024;
        uint64_t *p = realloc(a->v, cap * sizeof *p);
        if (!p) return -1;
        a->v = p;
        a->cap = cap;
    }
    a->v[a->n++] = x;
    return 0;
}

/* Splits a header line "# in NAME WIDTH" into its words. */
static int words3(char *s, char **a, char **b, char **c) {
    *a = strtok(s, " \t\r\n");
    *b = *a ? strtok(NULL, " \t\r\n") : NULL;
    *c = *b ? strtok(NULL, " \t\r\n") : NULL;
    return *c != NULL && strtok(NULL, " \t\r\n") == NULL;
}

int fg_trace_read(const char *path, const char *block, uint64_t max_lines, fg_trace *t, char *err,
                  size_t errlen) {
    memset(t, 0, sizeof *t);
    snprintf(t->path, sizeof t->path, "%s", path);
    const fg_play_block *b = fg_play_find(block);
    if (!b) return fg_errf(err, errlen, "unknown block '%s': the player drives %s", block, fg_play_names());
    t->blk = b;
    FILE *f = fopen(path, "r");
    if (!f) return fg_errf(err, errlen, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    uint64_t no = 0;
    int magic = 0, in_data = 0, rc = -1;
    char model[128] = "";
    unsigned ncol = 0;
    vec64 rowsv = {0}, firstv = {0}, filev = {0}; /* values of each row, first line, file line */
    uint64_t cur[FG_PLAY_MAXCOLS], prev[FG_PLAY_MAXCOLS];
    uint64_t run = 0, nlines = 0, nreset = 0;
    unsigned nrows = 0;
    size_t last_at = 0;
    int have_prev = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        no++;
        if ((size_t)len != strlen(line)) {
            fg_errf(err, errlen, "%s:%" PRIu64 ": a NUL byte: not a text trace", path, no);
            goto out;
        }
        char *s = line;
        while (*s == ' ' || *s == '\t') s++;
        if (*s == '\n' || *s == '\r' || !*s) continue;
        if (*s == '#') {
            char *a, *bw, *c;
            char tmp[512];
            snprintf(tmp, sizeof tmp, "%s", s + 1);
            if (!magic) {
                char *m = strtok(tmp, " \t\r\n"), *v = m ? strtok(NULL, " \t\r\n") : NULL;
                if (!m || strcmp(m, "fgtrace") || !v || strcmp(v, "1")) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": not an fgtrace 1 file (it starts with '# fgtrace 1', "
                            "docs/TRACES.md)", path, no);
                    goto out;
                }
                magic = 1;
                continue;
            }
            if (in_data) continue; /* other # lines are informative */
            char first[16] = "";
            sscanf(tmp, "%15s", first);
            if (!strcmp(first, "model")) {
                char *m = strtok(tmp, " \t\r\n"), *v = m ? strtok(NULL, " \t\r\n") : NULL;
                if (!v) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": '# model' without a name", path, no);
                    goto out;
                }
                snprintf(model, sizeof model, "%s", v);
                if (strcmp(model, b->model)) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": a trace of model %s; the FPGA's %s replays %s (the "
                            "verilated configuration with the FPGA's parameters, mk/*.mk)", path, no, model, b->name,
                            b->model);
                    goto out;
                }
            } else if (!strcmp(first, "in") || !strcmp(first, "out")) {
                if (!words3(tmp, &a, &bw, &c)) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": a column is '# in|out NAME WIDTH'", path, no);
                    goto out;
                }
                char *end;
                errno = 0;
                unsigned long w = strtoul(c, &end, 10);
                if (*end || errno || w < 1 || w > 64) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": column %s: width '%s' is not 1..64", path, no, bw, c);
                    goto out;
                }
                if (ncol >= b->ncols) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": column %u (%s %s %lu): %s has %u columns", path, no,
                            ncol, a, bw, w, b->name, b->ncols);
                    goto out;
                }
                const fg_play_col *pc = &b->cols[ncol];
                char dir = !strcmp(a, "in") ? 'i' : 'o';
                if (strcmp(bw, pc->name) || w != pc->width || dir != pc->dir) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": column %u is '%s %s %lu', the FPGA's %s has '%s %s %u' "
                            "there (a trace of another block or configuration)", path, no, ncol, a, bw, w,
                            b->name, pc->dir == 'i' ? "in" : "out", pc->name, pc->width);
                    goto out;
                }
                ncol++;
            }
            continue;
        }
        /* a data line */
        if (!magic) {
            fg_errf(err, errlen, "%s:%" PRIu64 ": not an fgtrace 1 file (it starts with '# fgtrace 1', "
                    "docs/TRACES.md)", path, no);
            goto out;
        }
        if (!in_data) {
            if (!model[0]) {
                fg_errf(err, errlen, "%s: no '# model' line before the first cycle", path);
                goto out;
            }
            if (strcmp(model, b->model)) {
                fg_errf(err, errlen, "%s: a trace of model %s; the FPGA's %s replays %s (the verilated "
                        "configuration with the FPGA's parameters, mk/*.mk)", path, model, b->name, b->model);
                goto out;
            }
            if (ncol != b->ncols) {
                fg_errf(err, errlen, "%s: %u columns, the FPGA's %s has %u (its first missing: %s)", path, ncol,
                        b->name, b->ncols, b->cols[ncol].name);
                goto out;
            }
            in_data = 1;
        }
        if (max_lines && nlines >= max_lines) {
            t->file_lines++;
            continue;
        }
        unsigned k = 0;
        char *p = s;
        while (*p && *p != '\n' && *p != '\r') {
            if (k == ncol) {
                fg_errf(err, errlen, "%s:%" PRIu64 ": more than %u values", path, no, ncol);
                goto out;
            }
            uint64_t v = 0;
            unsigned nd = 0;
            while (isxdigit((unsigned char)*p)) {
                if (nd == 16) {
                    fg_errf(err, errlen, "%s:%" PRIu64 ": column %s: more than 16 hex digits", path, no,
                            b->cols[k].name);
                    goto out;
                }
                int d = isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10;
                v = v << 4 | (uint64_t)d;
                nd++;
                p++;
            }
            if (!nd || (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')) {
                fg_errf(err, errlen, "%s:%" PRIu64 ": column %s: not a hexadecimal value", path, no,
                        b->cols[k].name);
                goto out;
            }
            if (v & ~width_mask(b->cols[k].width)) {
                fg_errf(err, errlen, "%s:%" PRIu64 ": column %s: 0x%" PRIx64 " does not fit %u bits", path, no,
                        b->cols[k].name, v, b->cols[k].width);
                goto out;
            }
            cur[k++] = v;
            while (*p == ' ' || *p == '\t') p++;
        }
        if (k != ncol) {
            fg_errf(err, errlen, "%s:%" PRIu64 ": %u values, the columns are %u", path, no, k, ncol);
            goto out;
        }
        if (!cur[0]) nreset++;
        if (have_prev && !memcmp(cur, prev, ncol * sizeof *cur) && run < FG_PLAY_RUN_MAX) {
            run++;
        } else {
            /* a row: its run (slot 0, known when it closes), then its values */
            if (have_prev) rowsv.v[last_at] = run;
            last_at = rowsv.n;
            if (vec_push(&rowsv, 0) || vec_push(&firstv, nlines) || vec_push(&filev, no)) goto oom;
            for (unsigned c = 0; c < ncol; c++)
                if (vec_push(&rowsv, cur[c])) goto oom;
            memcpy(prev, cur, ncol * sizeof *cur);
            have_prev = 1;
            run = 1;
            nrows++;
        }
        nlines++;
        t->file_lines++;
    }
    if (ferror(f)) {
        fg_errf(err, errlen, "%s: %s", path, strerror(errno));
        goto out;
    }
    if (!magic) {
        fg_errf(err, errlen, "%s: empty, not an fgtrace 1 file", path);
        goto out;
    }
    if (!nlines) {
        fg_errf(err, errlen, "%s: no cycles", path);
        goto out;
    }
    rowsv.v[last_at] = run;
    if (nrows > b->rows) {
        /* the lines the first b->rows rows hold */
        uint64_t fit = firstv.v[b->rows];
        fg_errf(err, errlen, "%s: %" PRIu64 " lines make %u rows (runs of identical lines); the trace memory "
                "holds %u rows of %s: replay a part of it (--lines %" PRIu64 " takes the first %" PRIu64 " lines)",
                path, nlines, nrows, b->rows, b->name, fit, fit);
        goto out;
    }
    /* the rows as the player's memory holds them */
    t->rows = nrows;
    t->lines = nlines;
    t->reset_lines = nreset;
    t->words = calloc((size_t)b->passes * nrows * b->words, sizeof *t->words);
    t->first = malloc(nrows * sizeof *t->first);
    t->fileno = malloc(nrows * sizeof *t->fileno);
    t->vals = malloc((size_t)nrows * ncol * sizeof *t->vals);
    if (!t->words || !t->first || !t->fileno || !t->vals) goto oom;
    for (unsigned r = 0; r < nrows; r++) {
        const uint64_t *rv = &rowsv.v[(size_t)r * (ncol + 1)];
        /* one row per pass: the header holds the next row's run (the last
         * row's: none, 0), then the inputs and the pass's outputs */
        for (unsigned p = 0; p < b->passes; p++) {
            uint32_t *w = &t->words[((size_t)p * nrows + r) * b->words];
            if (r + 1 < nrows) {
                uint64_t n = rowsv.v[(size_t)(r + 1) * (ncol + 1)];
                w[0] = (uint32_t)(n - 1) | (n == 1 ? 0x8000u : 0);
            }
            for (unsigned c = 0; c < ncol; c++)
                if (b->cols[c].dir == 'i' || b->cols[c].pass == p)
                    put_bits(w, FG_PLAY_HDR_W + b->cols[c].lsb, b->cols[c].width, rv[1 + c]);
        }
        memcpy(&t->vals[(size_t)r * ncol], rv + 1, ncol * sizeof *rv);
        if (r == 0) t->run0 = (uint32_t)(rv[0] - 1) | (rv[0] == 1 ? 0x8000u : 0);
        t->first[r] = firstv.v[r];
        t->fileno[r] = filev.v[r];
    }
    rc = 0;
    goto out;
oom:
    fg_errf(err, errlen, "%s: out of memory", path);
out:
    free(line);
    free(rowsv.v);
    free(firstv.v);
    free(filev.v);
    fclose(f);
    if (rc) fg_trace_free(t);
    return rc;
}

/* ------------------------------------------------------------ playing */
static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int rd(fg_host *h, uint32_t off, uint32_t *v) { return fg_host_read(h, FG_WIN_PLAY + off, v); }
static int wr(fg_host *h, uint32_t off, uint32_t v) { return fg_host_write(h, FG_WIN_PLAY + off, v); }

static const char *why_text(unsigned why) {
    switch (why) {
    case 1: return "START while busy";
    case 2: return "SEL is not a block";
    case 3: return "NENT is 0 or above the memory's rows";
    case 4: return "a write while a replay runs";
    case 5: return "LOAD beyond the last row";
    case 6: return "PASS is not below the block's passes";
    default: return "?";
    }
}

static int refused(fg_host *h, const char *when) {
    uint32_t st;
    if (rd(h, FG_PLAY_STATUS, &st)) return -1;
    if (st & FG_PLAY_ST_REFUSED)
        return fg_host_fail(h, "the player refused a request %s: %s (STATUS 0x%x)", when, why_text(st >> 8 & 7), st);
    return 0;
}

static const fg_reg_desc *reg_of(const fg_play_block *b, const char *port) {
    for (unsigned i = 0; i < b->nregs; i++)
        if (!strcmp(b->regs[i].name, port)) return &b->regs[i];
    return NULL;
}

/* One pass: its rows loaded, played, the result read back. */
static int play_pass(fg_host *h, const fg_trace *t, unsigned pass, const fg_play_opts *o, fg_play_result *r) {
    const fg_play_block *b = t->blk;
    memset(r, 0, sizeof *r);
    FILE *pf = o->progress;
    /* every block and the player back to reset, then the rows */
    double t0 = now_s();
    uint32_t rows, nw, np;
    if (fg_host_reset_blocks(h) || wr(h, FG_PLAY_SEL, b->index) || wr(h, FG_PLAY_PASS, pass) ||
        wr(h, FG_PLAY_ROW, 0) || refused(h, "before loading") || rd(h, FG_PLAY_ROWS, &rows) ||
        rd(h, FG_PLAY_WORDS, &nw) || rd(h, FG_PLAY_PASSES, &np))
        return -1;
    if (rows != b->rows || nw != FG_PLAY_NWORDS || np != b->passes)
        return fg_host_fail(h, "the player has %u rows of %u words in %u passes for %s, this program %u of %u in %u",
                            rows, nw, np, b->name, b->rows, FG_PLAY_NWORDS, b->passes);
    size_t total = (size_t)t->rows * b->words;
    const uint32_t *words = &t->words[(size_t)pass * total];
    if (pf) {
        char ps[48] = "";
        if (b->passes > 1) snprintf(ps, sizeof ps, ", pass %u of %u", pass + 1, b->passes);
        fprintf(pf, "replay: loading %u rows of %u words (%zu words%s) into the player\n", t->rows, b->words, total,
                ps);
    }
    /* in chunks, each followed by a read of the load pointer: the read's
     * answer comes when the chunk has gone through the UART (a slow line, or
     * the simulated top, takes seconds), and checks that nothing was lost */
    uint32_t loaded = 0;
    fg_host_set_timeout(h, o->stall_ms * 4 > 2000 ? o->stall_ms * 4 : 2000);
    for (size_t i = 0; i < total;) {
        size_t end = i + 1020 < total ? i + 1020 : total;
        for (; i < end;) {
            unsigned n = end - i > 255 ? 255 : (unsigned)(end - i);
            if (fg_host_write_fixed(h, FG_WIN_PLAY + FG_PLAY_LOAD, &words[i], n)) return -1;
            i += n;
        }
        if (rd(h, FG_PLAY_LOADED, &loaded)) return -1;
        uint64_t at = (uint64_t)(loaded & 0xffff) * b->words + (loaded >> 16 & 0xff);
        if (at != i)
            return fg_host_fail(h, "the load lost words: the player's pointer is at row %u word %u after %zu "
                                "words (row %zu word %zu)", loaded & 0xffff, loaded >> 16 & 0xff, i,
                                i / b->words, i % b->words);
        if (pf && total > 4096) fprintf(pf, "replay: %zu of %zu words loaded\n", i, total);
    }
    fg_host_set_timeout(h, 2000);
    if (refused(h, "while loading")) return -1;
    if ((loaded & 0xffff) != t->rows || (loaded >> 16 & 0xff) != 0)
        return fg_host_fail(h, "the load lost words: the player's pointer is at row %u word %u, it should be at "
                            "row %u word 0", loaded & 0xffff, loaded >> 16 & 0xff, t->rows);
    /* the player's checksums of what it took against those of what was sent */
    uint32_t s1 = 0, s2 = 0, p1, p2;
    for (size_t i = 0; i < total; i++) {
        s1 += words[i];
        s2 += s1;
    }
    if (rd(h, FG_PLAY_SUM1, &p1) || rd(h, FG_PLAY_SUM2, &p2)) return -1;
    if (p1 != s1 || p2 != s2)
        return fg_host_fail(h, "the load arrived changed: the player's checksums are 0x%08x / 0x%08x, the words "
                            "sent give 0x%08x / 0x%08x", p1, p2, s1, s2);
    r->seconds_load = now_s() - t0;
    /* play */
    t0 = now_s();
    if (wr(h, FG_PLAY_NENT, t->rows) || wr(h, FG_PLAY_RUN0, t->run0) || wr(h, FG_PLAY_CTRL, FG_PLAY_CTRL_START) ||
        refused(h, "at START"))
        return -1;
    uint32_t st = 0, lines = 0, last = 0;
    double moved = now_s();
    for (;;) {
        if (rd(h, FG_PLAY_STATUS, &st) || rd(h, FG_PLAY_LINES, &lines)) return -1;
        if (!(st & FG_PLAY_ST_BUSY)) break;
        double tn = now_s();
        if (lines != last) {
            last = lines;
            moved = tn;
        }
        int stalled = (tn - moved) * 1000.0 > o->stall_ms, late = tn - t0 > o->timeout_s;
        if (stalled || late) {
            wr(h, FG_PLAY_CTRL, FG_PLAY_CTRL_STOP);
            return fg_host_fail(h, "the replay %s at line %u of %" PRIu64 " (STATUS 0x%x): stopped",
                                stalled ? "stood still" : "ran out of time", lines, t->lines, st);
        }
    }
    r->seconds_run = now_s() - t0;
    uint32_t cmp, mml, mmp;
    if (rd(h, FG_PLAY_COMPARED, &cmp) || rd(h, FG_PLAY_MM_LINE, &mml) || rd(h, FG_PLAY_MM_PORT, &mmp)) return -1;
    r->lines = lines;
    r->compared = cmp;
    if (!(st & FG_PLAY_ST_DONE) || (st & FG_PLAY_ST_STOPPED))
        return fg_host_fail(h, "the replay ended without finishing (STATUS 0x%x)", st);
    if (!(st & FG_PLAY_ST_MISMATCH)) {
        if (lines != t->lines || cmp != t->lines - t->reset_lines)
            return fg_host_fail(h, "the player played %u lines and compared %u; the trace has %" PRIu64
                                " lines, %" PRIu64 " of them to compare", lines, cmp, t->lines,
                                t->lines - t->reset_lines);
        return 0;
    }
    r->mismatch = 1;
    r->pass = pass;
    r->mm_line = mml;
    r->mm_port = mmp;
    if (mml >= t->lines) return fg_host_fail(h, "a mismatch at line %u, beyond the trace's %" PRIu64, mml, t->lines);
    r->row = fg_trace_row_of(t, mml);
    /* expected: the row's value (the memory holds it: the load's checksums
     * matched); got: the block window's view of the outputs, frozen at the
     * mismatch's cycle */
    unsigned nin = b->ncols - b->nout;
    int port_differs = 0;
    for (unsigned k = 0; k < b->nout; k++) {
        const fg_play_col *c = &b->cols[nin + k];
        const fg_reg_desc *rg = reg_of(b, c->name);
        if (!rg) return fg_host_fail(h, "%s: no register for output %s", b->name, c->name);
        uint64_t got, exp = t->vals[(size_t)r->row * b->ncols + nin + k];
        if (fg_host_read_field(h, b->win + rg->off, rg->width, &got)) return -1;
        if (k == mmp) port_differs = got != exp;
        if ((got != exp || k == mmp) && r->ndiff < FG_PLAY_MAX_DIFF) {
            r->diff[r->ndiff].col = nin + k;
            r->diff[r->ndiff].expected = exp;
            r->diff[r->ndiff].got = got;
            r->ndiff++;
        }
    }
    if (!port_differs)
        return fg_host_fail(h, "the player reports a mismatch at line %u, output %s, but the window shows that "
                            "output as expected (0x%" PRIx64 ")", mml, b->cols[nin + mmp].name,
                            t->vals[(size_t)r->row * b->ncols + nin + mmp]);
    return 0;
}

int fg_play_run(fg_host *h, const fg_trace *t, const fg_play_opts *o, fg_play_result *r) {
    const fg_play_opts dflt = {.stall_ms = 5000, .timeout_s = 600};
    if (!o) o = &dflt;
    memset(r, 0, sizeof *r);
    if (fg_host_check_id(h)) return -1;
    /* every pass to its end: the first mismatch is the earliest over the
     * passes (each compares its own outputs, all of them up to its own) */
    double load = 0, run = 0;
    for (unsigned p = 0; p < t->blk->passes; p++) {
        fg_play_result pr;
        if (play_pass(h, t, p, o, &pr)) return -1;
        load += pr.seconds_load;
        run += pr.seconds_run;
        if (p == 0 || (pr.mismatch && (!r->mismatch || pr.mm_line < r->mm_line))) *r = pr;
    }
    r->passes = t->blk->passes;
    r->seconds_load = load;
    r->seconds_run = run;
    return 0;
}

void fg_play_print(FILE *f, const fg_trace *t, const fg_play_result *r) {
    const fg_play_block *b = t->blk;
    char part[96] = "";
    if (t->lines < t->file_lines)
        snprintf(part, sizeof part, " (the first %" PRIu64 " of its %" PRIu64 " lines)", t->lines, t->file_lines);
    if (!r->mismatch) {
        char ps[48] = "";
        if (r->passes > 1) snprintf(ps, sizeof ps, "; the outputs in %u passes", r->passes);
        fprintf(f, "replay %s: %" PRIu64 " cycles identical (%" PRIu64 " compared, %" PRIu64
                " reset cycles; %u rows of %u%s) in %s%s\n", b->name, r->lines, r->compared, t->reset_lines, t->rows,
                b->rows, ps, t->path, part);
        return;
    }
    uint64_t fl = t->fileno[r->row] + (r->mm_line - t->first[r->row]);
    const fg_play_col *pc = &b->cols[b->ncols - b->nout + r->mm_port];
    fprintf(f, "replay %s: first mismatch at cycle %" PRIu64 " (%s line %" PRIu64 "), port %s: ", b->name,
            r->mm_line, t->path, fl, pc->name);
    for (unsigned i = 0; i < r->ndiff; i++)
        if (r->diff[i].col == b->ncols - b->nout + r->mm_port)
            fprintf(f, "expected 0x%" PRIx64 ", got 0x%" PRIx64 "\n", r->diff[i].expected, r->diff[i].got);
    uint64_t before = 0; /* compared lines before it */
    for (unsigned k = 0; k < t->rows && t->first[k] < r->mm_line; k++) {
        uint64_t end = k + 1 < t->rows ? t->first[k + 1] : t->lines;
        if (end > r->mm_line) end = r->mm_line;
        if (t->vals[(size_t)k * b->ncols]) before += end - t->first[k];
    }
    fprintf(f, "  the %" PRIu64 " compared cycles before it identical; every output that differs at that cycle:\n",
            before);
    for (unsigned i = 0; i < r->ndiff; i++) {
        const fg_play_col *c = &b->cols[r->diff[i].col];
        if (r->diff[i].expected == r->diff[i].got) continue;
        fprintf(f, "  %-20s expected 0x%" PRIx64 ", got 0x%" PRIx64 "\n", c->name, r->diff[i].expected, r->diff[i].got);
    }
}
