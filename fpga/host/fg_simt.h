/* fg_simt: the host side of the SIMT top (fpga/finegrain_simt_ulx3s.sv,
 * docs/FPGA.md "SIMT top"): EDGE's event path run in logic and checked
 * against the C model.
 *
 * fg_simt_run_events builds the workload in a C GPU (sim/simt/gpu.h) the size
 * of the board's memory: one of the four event kinds (sim/work/ev_work.h:
 * its tables, kernel and parameter entries, with settings that fit the
 * board), every slot's first inputs, and the background kernel
 * (sw/kernels/t_preempt.c, one-warp blocks chasing pointers), and copies
 * that image into the board's memory (runs of equal words by the fill
 * engine).  It registers the event kernel in the EKT, launches the
 * background grid and rings the doorbells: each ring becomes an event warp
 * that preempts a background warp (or takes a free slot) and exits.  The
 * same events and background run on the C model; every output word of the
 * board is compared with the C model's (a mismatch), every event's outputs
 * with the host reference, and at the end every word of the image (tables,
 * locks, inputs, outputs) with the C model's memory.  Events beyond the
 * slots wait for a completion and reuse its slot with new inputs. */
#ifndef FG_SIMT_H
#define FG_SIMT_H

#include <stdint.h>
#include <stdio.h>

#include "fg_host.h"

typedef struct {
    const char *kind;       /* fg_simt_kinds() */
    const char *kdir;       /* kernel ELFs (build/sw) */
    unsigned packets;       /* requests in all, the kind's reqs_per_event per event */
    unsigned slots;         /* parameter entries (the EKT's max_events) */
    const char *sets[16];   /* "section.key=value" for the kind's section, after its board settings */
    unsigned nsets;
    unsigned bg_blocks;     /* background one-warp blocks (0: no background) */
    unsigned bg_iters;      /* background rounds per thread (t_preempt) */
    unsigned policy;        /* victim policy (PRE_POL_*) */
    unsigned opts;          /* flush options (PRE_OPT_*; default the C model's, gpu_config_default) */
    uint64_t seed;
    unsigned timeout_s;     /* the board has that long to finish */
    unsigned reply_ms;      /* a read's reply may wait this long behind the writes queued before it */
    int read_image;         /* the image read back word by word, not compared by the board's sums */
    FILE *progress;         /* NULL: quiet */
} fg_simt_opts;

void fg_simt_opts_default(fg_simt_opts *o);
/* "ipv4, ipv6, memc or ipsec"; whether name is one of them */
const char *fg_simt_kinds(void);
int fg_simt_kind_known(const char *name);

typedef struct {
    unsigned events, packets;
    unsigned mismatches;     /* output words unlike the C model's */
    unsigned out_words;      /* output words compared */
    unsigned ref_mismatches; /* events whose outputs the host reference refuses (+1: shared state at the end) */
    unsigned image_words, image_mismatches; /* the image's words at the end, those unlike the C model's */
    int image_read;          /* the image was read back (--read-image, or its sums differed) */
    unsigned start_free, start_pre, resumes, aborts;
    uint64_t cyc_min, cyc_max, cyc_sum; /* PEWT push to completion, per event */
    unsigned bg_warps, bg_words, bg_mismatches;
    uint64_t image_bytes, cycles;
    double seconds_load, seconds_run;
} fg_simt_result;

/* 0, or -1 with the reason in fg_host_error(h) (I/O, a refused setting, a
 * sticky error of the top, a fault, a timeout). */
int fg_simt_run_events(fg_host *h, const fg_simt_opts *o, fg_simt_result *r);
void fg_simt_print(FILE *f, const fg_simt_opts *o, const fg_simt_result *r);
/* Fletcher's two sums of n words (mod 2^32), as the SIMT window's check engine forms them */
void fg_simt_sums(const uint32_t *w, size_t n, uint32_t s[2]);

#endif
