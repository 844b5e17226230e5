/* C twin of rtl/fe/fe_sched_queues.sv: the F/E-bit DRAM scheduler queues
 * (F/E paper Sec. 4.1-4.5, 6.3), cycle-exact at the ports.  See
 * docs/FE_SCHED.md for the interface and timing. */
#ifndef FE_SCHED_QUEUES_H
#define FE_SCHED_QUEUES_H

#include <stdbool.h>
#include <stdint.h>

#include "fg_block.h"

/* Trigger, action, source and queue codes (FE_TRIG_*, FE_ACT_*, FE_SRC_*,
 * FE_Q_*): generated with the RTL's fe_pkg from rtl/fe/fe_enc.toml. */
#include "gen/fe_sched_queues_enc.h"

/* Widths are those of the verilated test configuration (rtl/fe/fe_sched_queues.toml); the twin
 * itself takes any width <= 64 from its parameters. */
#define FE_SCHED_QUEUES_INPUTS(X)                                                                 \
    X(req_valid_i, 1) X(req_src_i, 1) X(req_we_i, 1) X(req_dflt_i, 1) X(req_trig_i, 2)             \
    X(req_act_i, 2) X(req_addr_i, 32) X(req_mask_i, 32) X(req_tag_i, 8) X(out_ready_i, 1)           \
    X(nack_ready_i, 1) X(init_valid_i, 1) X(init_full_i, 1) X(init_addr_i, 32)                      \
    X(init_lines_i, 16) X(wdog_limit_i, 16)
#define FE_SCHED_QUEUES_OUTPUTS(X)                                                                \
    X(req_ready_o, 3) X(stall_mc_o, 1)                                                             \
    X(out_valid_o, 1) X(out_src_o, 1) X(out_we_o, 1) X(out_trig_o, 2) X(out_act_o, 2)              \
    X(out_addr_o, 32) X(out_mask_o, 32) X(out_tag_o, 8) X(out_q_o, 2)                              \
    X(nack_valid_o, 1) X(nack_src_o, 1) X(nack_we_o, 1) X(nack_trig_o, 2) X(nack_act_o, 2)         \
    X(nack_addr_o, 32) X(nack_mask_o, 32) X(nack_tag_o, 8) X(nack_q_o, 2)                          \
    X(init_ready_o, 1) X(head_blocked_o, 3) X(q_count_o, 24) X(stall_nt_o, 32)                     \
    X(stall_cpu_o, 32) X(stall_gpu_o, 32) X(releases_o, 32) X(nacks_o, 32) X(err_o, 1)
typedef struct { FE_SCHED_QUEUES_INPUTS(FG_FIELD) } fe_sched_queues_in_t;
typedef struct { FE_SCHED_QUEUES_OUTPUTS(FG_FIELD) } fe_sched_queues_out_t;

/* The RTL parameters (same names, lower case). */
typedef struct {
    unsigned addr_w;       /* request address width, <= 64 */
    unsigned words;        /* F/E bits per line = mask width, <= 64 */
    unsigned gran;         /* bytes per F/E bit; words * gran a power of two */
    uint64_t region_base;  /* byte address of the tracked region, line aligned */
    unsigned region_lines; /* tracked lines, below 2^init_w (cleared after reset) */
    unsigned qd_nt, qd_cpu, qd_gpu; /* queue depths, 1..255 */
    unsigned tag_w, wd_w, cnt_w, init_w;
    unsigned lk_reg; /* 1: a lookup's address and data registered at the F/E RAM (two more cycles) */
} fe_sched_queues_params;

/* verilated parameters (field, RTL name), checked by the shim */
#define FE_SCHED_QUEUES_PARAMS(X)                                                                  \
    X(addr_w, ADDR_W) X(words, WORDS) X(gran, GRAN) X(region_base, REGION_BASE)                    \
    X(region_lines, REGION_LINES) X(qd_nt, QD_NT) X(qd_cpu, QD_CPU) X(qd_gpu, QD_GPU)              \
    X(tag_w, TAG_W) X(wd_w, WD_W) X(cnt_w, CNT_W) X(init_w, INIT_W) X(lk_reg, LK_REG)

/* The RTL defaults (what `make lint` synthesises). */
extern const fe_sched_queues_params fe_sched_queues_default_params;

/* The queue a request goes to (0 non-triggered, 1 triggered CPU, 2 triggered
 * GPU) after the GPU defaults: it is accepted when req_valid_i &&
 * (req_ready_o >> queue & 1).  trig/act get the effective codes. */
unsigned fe_sched_queue_of(const fe_sched_queues_params *p, const fe_sched_queues_in_t *in,
                           unsigned *trig, unsigned *act);
/* Whether a byte address lies in the tracked region. */
bool fe_sched_in_region(const fe_sched_queues_params *p, uint64_t addr);

extern const fg_block_class fe_sched_queues_class;

#endif
