/* C twin of rtl/cm/cm_bal_monitor.sv: CM-CPU / CM-BAL stall monitor (CM paper
 * Sec. 4, Fig. 11).  Cycle-exact at the ports; see docs/CM_BAL.md.
 *
 * The port list below is the verilated configuration (rtl/cm/cm_bal_monitor.toml): P = 4
 * partitions, C = 4 cores, NSCHED = 2, MAXW = 48, INTERVAL = 1024.  The twin
 * itself takes any parameters within the port widths. */
#ifndef CM_BAL_MONITOR_H
#define CM_BAL_MONITOR_H

#include <stdint.h>

#include "fg_block.h"

#define CM_BAL_MONITOR_INPUTS(X)                                                     \
    X(stall_mc_i, 4) X(stall_net_i, 4) X(issue_stall_i, 8) X(kstart_i, 4) X(kend_i, 4) \
    X(mode_i, 2) X(static_i, 6) X(k_i, 12) X(rd_core_i, 2) X(rd_entry_i, 4)
#define CM_BAL_MONITOR_OUTPUTS(X)                                                    \
    X(interval_o, 1) X(decision_o, 2) X(cpu_limit_o, 6) X(stall_mc_o, 12)              \
    X(stall_net_o, 12) X(rd_limit_o, 6) X(rd_level_o, 4) X(rd_stay_o, 2)               \
    X(rd_valid_o, 9) X(rd_avg_o, 11) X(rd_why_o, 3)
typedef struct { CM_BAL_MONITOR_INPUTS(FG_FIELD) } cm_bal_monitor_in_t;
typedef struct { CM_BAL_MONITOR_OUTPUTS(FG_FIELD) } cm_bal_monitor_out_t;

/* mode_i (cm_mode_e), decision_o (cm_dec_e), rd_why_o (cm_why_e): generated
 * from rtl/cm/cm_enc.toml, the list the RTL's cm_pkg comes from */
#include "gen/cm_bal_monitor_enc.h"

/* CM-BAL1..4 (CM Sec. 5, Mechanism Parameters) */
#define CM_K_BAL1 32u
#define CM_K_BAL2 64u
#define CM_K_BAL3 96u
#define CM_K_BAL4 128u

/* The serial walk (docs/CM_BAL.md): core c's interval-end decision is
 * committed c + CM_BAL_COMMIT_EDGES edges after the interval end (the walk
 * feeds core c at edge c + 1, the decision datapath's stages A, B, M, C take
 * four more). */
#define CM_BAL_COMMIT_EDGES 5u

#define CM_MAX_LVL 16
#define CM_MAX_CORES 64

typedef struct {
    unsigned p, c, nsched, maxw, interval;
    unsigned th_q4, tl_q4;  /* thresholds in quarters of a stall per cycle */
    unsigned fine;          /* CM-CPU steps of 1 at or below this limit */
    unsigned nlvl;
    unsigned levels[CM_MAX_LVL];
    unsigned explore_warps, explore_n;
} cm_bal_monitor_params;

/* verilated parameters (field, RTL name), checked by the shim */
#define CM_BAL_MONITOR_PARAMS(X)                                                                   \
    X(p, P) X(c, C) X(nsched, NSCHED) X(maxw, MAXW) X(interval, INTERVAL) X(th_q4, TH_Q4)          \
    X(tl_q4, TL_Q4) X(fine, FINE) X(explore_warps, EXPLORE_WARPS) X(explore_n, EXPLORE_N)

/* CM Table I / Sec. 4-5 defaults with P partitions and C cores. */
cm_bal_monitor_params cm_bal_monitor_defaults(unsigned p, unsigned c);
/* The verilated configuration (P = 4, C = 4, other values as defaults). */
static inline cm_bal_monitor_params cm_bal_monitor_test_params(void) { return cm_bal_monitor_defaults(4, 4); }
/* The second verilated configuration, cm_bal_monitor_odd (rtl/cm/cm_bal_monitor.toml):
 * non-default, non-power-of-two parameters.  Its ports are wider than
 * the widths listed above (issue_stall_i 60, kstart_i / kend_i 20, stall_*_i 6,
 * k_i 13, rd_core_i 5, rd_avg_o 12 bits); the twin masks by its parameters. */
static inline cm_bal_monitor_params cm_bal_monitor_odd_params(void) {
    cm_bal_monitor_params q = cm_bal_monitor_defaults(6, 20);
    q.nsched = 3;
    q.interval = 1000;
    q.th_q4 = 3;
    q.fine = 7;
    q.explore_n = 3;
    return q;
}

extern const fg_block_class cm_bal_monitor_class;

#endif
