/* fg_play: a block's port trace (`fgtrace 1`, docs/TRACES.md), recorded by a
 * verilated model (FG_TRACE_DIR), replayed by the FPGA top's trace player
 * (fpga/fg_trace_player.sv, docs/FPGA.md "The trace player") into the same
 * block at the design clock, its outputs compared on chip.
 *
 *   fg_trace t;
 *   if (fg_trace_read("edge_ekt.trace", "ekt", 0, &t, err, sizeof err)) ...;   checks only
 *   fg_play_result r;
 *   if (fg_play_run(h, &t, NULL, &r)) ...;         I/O or a player that misbehaved
 *   fg_play_print(stdout, &t, &r);                 "N cycles identical" or the first mismatch
 *   fg_trace_free(&t);
 *
 * The trace is run-length coded into rows (one per run of identical
 * consecutive lines, at most FG_PLAY_RUN_MAX cycles each); a trace that
 * needs more rows than the memory has is refused, never cut, unless the
 * caller asks for its first max_lines lines. */
#ifndef FG_PLAY_H
#define FG_PLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fg_host.h"

typedef struct {
    const fg_play_block *blk;  /* the block it replays into */
    char path[256];
    uint64_t lines;            /* trace lines (cycles) taken */
    uint64_t file_lines;       /* trace lines in the file */
    uint64_t reset_lines;      /* of those taken, lines with rst_ni = 0 */
    unsigned rows;             /* run-length rows */
    uint32_t *words;           /* blk->passes x rows x blk->words: what is loaded (a row's header: the next
                                  row's run; every pass's row the inputs and that pass's outputs) */
    uint32_t run0;             /* the first row's run (FG_PLAY_RUN0) */
    uint64_t *first;           /* rows: the first line of each row */
    uint64_t *fileno;          /* rows: its line number in the file (from 1) */
    uint64_t *vals;            /* rows x blk->ncols: the row's column values */
} fg_trace;

/* The player's block by any of its names: "ekt", "edge_ekt", "EKT", "pewt0",
 * "PRE0", ...; NULL when none. */
const fg_play_block *fg_play_find(const char *name);
/* "db, ekt, fe, cm, pewt0, pre0" */
const char *fg_play_names(void);

/* Reads and checks a trace for block `block` (a name fg_play_find takes):
 * the format, the model (the verilated configuration whose parameters are
 * the FPGA's), the columns (names, widths, order), every value against its
 * width; then codes it into rows.  max_lines > 0: only the first max_lines
 * lines.  Returns 0, or -1 with a message naming the file and line. */
int fg_trace_read(const char *path, const char *block, uint64_t max_lines, fg_trace *t, char *err,
                  size_t errlen);
void fg_trace_free(fg_trace *t);
/* The row of line `line` (a line index, from 0). */
unsigned fg_trace_row_of(const fg_trace *t, uint64_t line);

typedef struct {
    unsigned stall_ms;    /* a replay whose line count stands still this long is stopped (default 5000) */
    unsigned timeout_s;   /* and one that runs longer than this (default 600) */
    FILE *progress;       /* NULL: quiet; else one line per step */
} fg_play_opts;

#define FG_PLAY_MAX_DIFF 64
typedef struct {
    int mismatch;              /* 1: the player reported a mismatch */
    unsigned passes;           /* replays run (a block whose line is wider than a row: one per output group) */
    unsigned pass;             /* the one that found the mismatch */
    uint64_t lines, compared;  /* what the player counted */
    uint64_t mm_line;          /* the first mismatch's line (0 = the first) */
    unsigned mm_port;          /* its lowest output (0 = the first out column) */
    unsigned row;              /* the row of mm_line */
    /* the outputs that differ at mm_line (and the reported one): expected
     * (the trace's, which the memory holds: the load's checksums matched) and
     * got (the block window's view, frozen at that cycle) */
    unsigned ndiff;
    struct { unsigned col; uint64_t expected, got; } diff[FG_PLAY_MAX_DIFF];
    double seconds_load, seconds_run;
} fg_play_result;

/* Loads t into the player, plays it, reads the result; once per pass when
 * the block's outputs come in passes (r: the earliest mismatch of any
 * pass, the window's frozen view shows every output).  Returns 0 when the
 * player ran to its end (r says identical or the first mismatch), -1 on an
 * I/O error, a refused request, a load that lost words, or a replay that
 * stalled or ran out of time, a mismatch the window does not show (fg_host_error()
 * says which, and where). */
int fg_play_run(fg_host *h, const fg_trace *t, const fg_play_opts *o, fg_play_result *r);
void fg_play_print(FILE *f, const fg_trace *t, const fg_play_result *r);

#endif
