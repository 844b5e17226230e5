/* build/bin/fg_host: talk to the FPGA top (board or build/bin/fpga_sim).
 *
 *   fg_host WHERE id                    identity, register map, clock, cycles
 *   fg_host WHERE read ADDR [N]         N words from byte address ADDR
 *   fg_host WHERE write ADDR VALUE...   consecutive words
 *   fg_host WHERE dump WINDOW           every register of a window by name
 *                                       (db ekt fe cm pewt0..3 pre0..3)
 *   fg_host WHERE reset                 every block back to reset
 *   fg_host WHERE replay BLOCK TRACE [--lines N] [--stall-ms MS] [--timeout S] [--quiet]
 *                                       a recorded trace (fgtrace 1) replayed by the
 *                                       trace player into BLOCK (db ekt fe cm pewt0
 *                                       pre0) at the design clock: prints "N cycles
 *                                       identical" (exit 0) or the first mismatch:
 *                                       cycle, port, expected, got (exit 1); a bad
 *                                       trace, I/O or a stuck replay: exit 2
 *   fg_host WHERE run-events KIND [--packets N] [--background chase|none] [options]
 *                                       the SIMT top (fpga/finegrain_simt_ulx3s.sv):
 *                                       KIND's events rung through the doorbell beside
 *                                       a background grid, every result checked against
 *                                       the C model (fpga/host/fg_simt.h): prints the
 *                                       packets forwarded, "N mismatches", the events'
 *                                       launch-to-exit cycles and the preemptions (the
 *                                       image compared by the board's sums, or read back
 *                                       word by word with --read-image); exit 0
 *                                       when nothing differs, 1 when something does, 2 on
 *                                       a bad option, I/O, an error of the top or a timeout
 *
 * WHERE: tcp:HOST:PORT, or a serial device (/dev/ttyUSB0[@BAUD]).  ADDR, N,
 * VALUE: decimal or 0x hex (fg_num_u64), checked before anything is sent. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fg_host.h"
#include "fg_play.h"
#include "fg_simt.h"
#include "gen/edge_preempt_enc.h"
#include "fg_util.h"

typedef struct {
    const char *name;
    uint32_t base;
    const fg_reg_desc *regs;
    unsigned n;
} window;

#define WIN(nm, base, blk) {nm, base, fgr_##blk##_regs, sizeof fgr_##blk##_regs / sizeof *fgr_##blk##_regs},
static const window windows[] = {FG_BLOCK_WINDOWS(WIN)};

static int usage(void) {
    fprintf(stderr, "usage: fg_host WHERE id | read ADDR [N] | write ADDR VALUE... | dump WINDOW | reset\n"
                    "       fg_host WHERE replay BLOCK TRACE [--lines N] [--stall-ms MS] [--timeout S] [--quiet]\n"
                    "       fg_host WHERE run-events ipv4|ipv6|memc|ipsec [--packets N] [--background chase|none]\n"
                    "               [--bg-blocks N] [--bg-iters N] [--slots N] [--set SECTION.KEY=VALUE]...\n"
                    "               [--policy oldest|newest|cheapest]\n"
                    "               [--opts N (flush options, PRE_OPT_* bits; default 15)] [--seed N] [--kdir DIR] [--timeout S] [--reply-ms MS] [--read-image] [--quiet]\n"
                    "  WHERE: tcp:HOST:PORT or /dev/ttyUSB0[@BAUD]\n"
                    "  BLOCK: %s\n", fg_play_names());
    return 2;
}

/* fg_host WHERE replay BLOCK TRACE [options]: the trace is read and checked
 * before the connection opens (a bad file touches no register) */
static int replay(int argc, char **argv) {
    if (argc < 5) return usage();
    fg_play_opts o = {.stall_ms = 5000, .timeout_s = 600, .progress = stderr};
    uint64_t max_lines = 0;
    for (int i = 5; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--lines") && v) max_lines = fg_arg_u64("fg_host", "--lines", argv[++i], 1, UINT32_MAX);
        else if (!strcmp(a, "--stall-ms") && v) o.stall_ms = (unsigned)fg_arg_u64("fg_host", "--stall-ms", argv[++i], 1, 3600000);
        else if (!strcmp(a, "--timeout") && v) o.timeout_s = (unsigned)fg_arg_u64("fg_host", "--timeout", argv[++i], 1, 86400);
        else if (!strcmp(a, "--quiet")) o.progress = NULL;
        else return usage();
    }
    char err[512];
    fg_trace t;
    if (fg_trace_read(argv[4], argv[3], max_lines, &t, err, sizeof err)) {
        fprintf(stderr, "fg_host: replay: %s\n", err);
        return 2;
    }
    if (o.progress)
        fprintf(stderr, "replay: %s, %" PRIu64 " lines%s as %u rows for %s (window %s%s)\n", argv[4], t.lines,
                t.lines < t.file_lines ? " taken" : "", t.rows, t.blk->name, t.blk->window,
                t.blk->passes > 1 ? "; its outputs compared in passes, one replay each" : "");
    fg_host *h = fg_host_open(argv[1], err, sizeof err);
    if (!h) {
        fprintf(stderr, "fg_host: %s\n", err);
        fg_trace_free(&t);
        return 2;
    }
    fg_play_result r;
    int rc = fg_play_run(h, &t, &o, &r);
    if (rc) fprintf(stderr, "fg_host: replay: %s\n", fg_host_error(h));
    else {
        fg_play_print(stdout, &t, &r);
        if (o.progress)
            fprintf(stderr, "replay: loaded in %.1f s, played and read back in %.1f s\n", r.seconds_load,
                    r.seconds_run);
    }
    fg_host_close(h);
    fg_trace_free(&t);
    return rc ? 2 : r.mismatch ? 1 : 0;
}

/* fg_host WHERE run-events KIND [options]: every option checked before the
 * connection opens */
static int run_events(int argc, char **argv) {
    if (argc < 4) return usage();
    fg_simt_opts o;
    fg_simt_opts_default(&o);
    o.kind = argv[3];
    o.progress = stderr;
    if (!fg_simt_kind_known(o.kind)) {
        fprintf(stderr, "fg_host: run-events: kind '%s': %s\n", o.kind, fg_simt_kinds());
        return 2;
    }
    for (int i = 4; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--quiet")) {
            o.progress = NULL;
            continue;
        }
        if (!strcmp(a, "--read-image")) {
            o.read_image = 1;
            continue;
        }
        if (!v) {
            fprintf(stderr, "fg_host: run-events: %s\n", strncmp(a, "--", 2) ? "unexpected argument" : "option needs a value");
            return usage();
        }
        i++;
        if (!strcmp(a, "--packets")) o.packets = (unsigned)fg_arg_u64("fg_host", a, v, 1, 1u << 20);
        else if (!strcmp(a, "--slots")) o.slots = (unsigned)fg_arg_u64("fg_host", a, v, 1, 64);
        else if (!strcmp(a, "--set")) {
            if (o.nsets == sizeof o.sets / sizeof *o.sets) {
                fprintf(stderr, "fg_host: run-events: at most %zu --set\n", sizeof o.sets / sizeof *o.sets);
                return 2;
            }
            o.sets[o.nsets++] = v;
        }
        else if (!strcmp(a, "--bg-blocks")) o.bg_blocks = (unsigned)fg_arg_u64("fg_host", a, v, 1, 65535);
        else if (!strcmp(a, "--bg-iters")) o.bg_iters = (unsigned)fg_arg_u64("fg_host", a, v, 1, 1u << 24);
        else if (!strcmp(a, "--opts")) o.opts = (unsigned)fg_arg_u64("fg_host", a, v, 0, PRE_OPT_ALL);
        else if (!strcmp(a, "--seed")) o.seed = fg_arg_u64("fg_host", a, v, 0, UINT64_MAX);
        else if (!strcmp(a, "--timeout")) o.timeout_s = (unsigned)fg_arg_u64("fg_host", a, v, 1, 86400);
        else if (!strcmp(a, "--reply-ms")) o.reply_ms = (unsigned)fg_arg_u64("fg_host", a, v, 100, 3600000);
        else if (!strcmp(a, "--kdir")) o.kdir = v;
        else if (!strcmp(a, "--policy")) {
            static const char *const pol[] = {"oldest", "newest", "cheapest"};
            unsigned p = 0;
            while (p < 3 && strcmp(v, pol[p])) p++;
            if (p == 3) {
                fprintf(stderr, "fg_host: run-events: --policy %s: oldest, newest or cheapest\n", v);
                return 2;
            }
            o.policy = p == 0 ? PRE_POL_OLDEST : p == 1 ? PRE_POL_NEWEST : PRE_POL_CHEAPEST;
        } else if (!strcmp(a, "--background")) {
            if (!strcmp(v, "none")) o.bg_blocks = 0;
            else if (strcmp(v, "chase")) {
                fprintf(stderr, "fg_host: run-events: --background %s: chase (sw/kernels/t_preempt.c, pointer chase) "
                                "or none (the RTL core has no shared memory, which the other background kernels use)\n", v);
                return 2;
            }
        } else {
            fprintf(stderr, "fg_host: run-events: unknown option %s\n", a);
            return usage();
        }
    }
    char err[256];
    fg_host *h = fg_host_open(argv[1], err, sizeof err);
    if (!h) {
        fprintf(stderr, "fg_host: %s\n", err);
        return 2;
    }
    fg_simt_result r;
    int rc = fg_simt_run_events(h, &o, &r);
    if (rc) fprintf(stderr, "fg_host: %s\n", fg_host_error(h));
    else {
        fg_simt_print(stdout, &o, &r);
        if (o.progress)
            fprintf(stderr, "run-events: loaded in %.1f s, ran and checked in %.1f s\n", r.seconds_load, r.seconds_run);
    }
    fg_host_close(h);
    return rc ? 2 : (r.mismatches || r.ref_mismatches || r.bg_mismatches || r.image_mismatches) ? 1 : 0;
}

/* every number before the connection opens: a malformed one touches no register */
static uint32_t arg_u32(const char *what, const char *s, uint32_t min, uint32_t max) {
    return (uint32_t)fg_arg_u64("fg_host", what, s, min, max);
}

int main(int argc, char **argv) {
    if (argc < 3) return usage();
    if (!strcmp(argv[2], "replay")) return replay(argc, argv);
    if (!strcmp(argv[2], "run-events")) return run_events(argc, argv);
    uint32_t addr = 0, n = 1, vals[256];
    const char *cmd = argv[2];
    if (argc >= 4 && (!strcmp(cmd, "read") || !strcmp(cmd, "write"))) addr = arg_u32("ADDR", argv[3], 0, UINT32_MAX);
    if (!strcmp(cmd, "read") && argc > 4) n = arg_u32("N", argv[4], 1, 256);
    if (!strcmp(cmd, "write")) {
        n = (uint32_t)(argc - 4);
        if (n > 256) return usage();
        for (unsigned i = 0; i < n; i++) vals[i] = arg_u32("VALUE", argv[4 + i], 0, UINT32_MAX);
    }
    char err[256];
    fg_host *h = fg_host_open(argv[1], err, sizeof err);
    if (!h) {
        fprintf(stderr, "fg_host: %s\n", err);
        return 1;
    }
    int rc = 0;
    if (!strcmp(cmd, "id")) {
        uint32_t v[6], cnw;
        uint64_t cyc;
        if (fg_host_read_burst(h, FG_WIN_SYS + FG_SYS_ID, v, 6) ||
            fg_host_read(h, FG_WIN_SYS + FG_SYS_CORE_NW, &cnw) || fg_host_cycles(h, &cyc))
            goto io;
        printf("id 0x%08x version 0x%08x map 0x%08x clock %u Hz baud %u cores %u", v[0], v[1], v[2], v[3], v[4],
               v[5]);
        for (unsigned c = 0; c < v[5] && c < 4; c++) printf("%s%u", c ? "/" : " (warp slots ", (cnw >> 8 * c) & 0xFF);
        printf("%s cycles %" PRIu64 "\n", v[5] ? ")" : "", cyc);
        if (fg_host_check_id(h)) {
            fprintf(stderr, "fg_host: %s\n", fg_host_error(h));
            rc = 1;
        }
    } else if (!strcmp(cmd, "read") && argc >= 4) {
        uint32_t v[256];
        if (fg_host_read_burst(h, addr, v, n)) goto io;
        for (unsigned i = 0; i < n; i++) printf("0x%05x 0x%08x\n", addr + 4 * i, v[i]);
    } else if (!strcmp(cmd, "write") && argc >= 5) {
        uint32_t id;
        if (fg_host_write_burst(h, addr, vals, n) || fg_host_read(h, FG_WIN_SYS + FG_SYS_ID, &id)) goto io;
    } else if (!strcmp(cmd, "dump") && argc >= 4) {
        const window *w = NULL;
        for (size_t i = 0; i < sizeof windows / sizeof *windows; i++)
            if (!strcmp(windows[i].name, argv[3])) w = &windows[i];
        if (!w) {
            fprintf(stderr, "fg_host: dump: no window '%s' in this register map; windows:", argv[3]);
            for (size_t i = 0; i < sizeof windows / sizeof *windows; i++) fprintf(stderr, " %s", windows[i].name);
            fprintf(stderr, "\n");
            fg_host_close(h);
            return 2;
        }
        for (unsigned i = 0; i < w->n; i++) {
            uint64_t v;
            if (fg_host_read_field(h, w->base + w->regs[i].off, w->regs[i].width, &v)) goto io;
            printf("%-22s 0x%05x %c %2u b  0x%" PRIx64 "\n", w->regs[i].name, w->base + w->regs[i].off,
                   w->regs[i].acc, w->regs[i].width, v);
        }
    } else if (!strcmp(cmd, "reset")) {
        if (fg_host_reset_blocks(h)) goto io;
    } else {
        fg_host_close(h);
        return usage();
    }
    fg_host_close(h);
    return rc;
io:
    fprintf(stderr, "fg_host: %s\n", fg_host_error(h));
    fg_host_close(h);
    return 1;
}
