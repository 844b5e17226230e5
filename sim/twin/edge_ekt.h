/* Event kernel table (EKT), EDGE Sec. III-A..C and IV-E: C twin and ports of
 * rtl/edge/edge_ekt.sv.
 *
 * Operations (one at a time through a single read/write port):
 *   register   (cmd, op REG)   -> rsp OK with the doorbell id, or FULL / INVALID /
 *                                 BUF_SHORT with every entry left as it was
 *                                 (BUF_SHORT: the parameter buffer, end being
 *                                 its last entry's address, holds fewer than
 *                                 maxNumEvents entries of size bytes)
 *   unregister (cmd, op UNREG) -> rsp OK, NOT_REGISTERED, or BUSY (events in flight)
 *   read       (cmd, op READ)  -> rsp OK with head and in-flight count
 *   launch     (ring)          -> one descriptor on evw_* (single-warp kernels,
 *                                 toward the SIMT core scheduler) or pkq_*
 *                                 (larger ones, toward a pending event kernel
 *                                 queue), or one err_* pulse
 *   complete   (cpl)           -> frees one in-flight event, or one err_* pulse
 *
 * Timing: a host command accepted at edge t (cmd_valid_i && cmd_ready_o) is
 * registered and carried out at edge t+1; its response is on rsp_* after
 * t+2 (REG: the table is written at t+1, the response's status / id / head
 * are loaded then with rsp_valid_o still low, and the buffer check decides
 * at t+2 whether the entry becomes valid or the status turns BUF_SHORT;
 * UNREG / READ: t+1 reads the SRAM); cmd_ready_o is low from t until the
 * response has been taken (the checks of a command do not reach the SRAM in
 * the accepting cycle, for 100 MHz; REG takes one edge more for the buffer
 * check).  A ring accepted at edge t is read at t+1 and its
 * descriptor pushed at t+2, visible on evw_* / pkq_* after that edge.
 */
#ifndef EDGE_EKT_H
#define EDGE_EKT_H

#include "fg_block.h"

/* EKT_OP_*, EKT_RSP_*, EKT_ERR_* (and the FSM's EKT_S_*): generated from
 * rtl/edge/edge_enc.toml, the list rtl/edge/edge_pkg.sv comes from too.
 * EKT_RSP_BUF_SHORT: the parameter buffer holds fewer entries than
 * maxNumEvents ((maxNumEvents - 1) x size > end - base). */
#include "gen/edge_ekt_enc.h"

/* Widths below are those of the default configuration (EDGE IV-E). */
#define EDGE_EKT_DESC(X, p)                                                                        \
    X(p##_id_o, 5) X(p##_kernel_ptr_o, 64) X(p##_param_addr_o, 64) X(p##_grid_x_o, 32)            \
    X(p##_grid_y_o, 32) X(p##_grid_z_o, 32) X(p##_block_x_o, 32) X(p##_block_y_o, 32)             \
    X(p##_block_z_o, 32) X(p##_shmem_o, 16) X(p##_prio_o, 2)

#define EDGE_EKT_INPUTS(X)                                                                         \
    X(cmd_valid_i, 1) X(cmd_op_i, 2) X(cmd_id_i, 5) X(cmd_kernel_ptr_i, 64)                        \
    X(cmd_param_base_i, 64) X(cmd_param_size_i, 64) X(cmd_param_end_i, 64) X(cmd_grid_x_i, 32)     \
    X(cmd_grid_y_i, 32) X(cmd_grid_z_i, 32) X(cmd_block_x_i, 32) X(cmd_block_y_i, 32)              \
    X(cmd_block_z_i, 32) X(cmd_shmem_i, 16) X(cmd_prio_i, 2) X(cmd_max_events_i, 16)               \
    X(rsp_ready_i, 1) X(ring_valid_i, 1) X(ring_id_i, 5) X(cpl_valid_i, 1) X(cpl_id_i, 5)          \
    X(evw_ready_i, 1) X(pkq_ready_i, 1)

#define EDGE_EKT_OUTPUTS(X)                                                                        \
    X(cmd_ready_o, 1) X(rsp_valid_o, 1) X(rsp_status_o, 3) X(rsp_id_o, 5) X(rsp_head_o, 64)       \
    X(rsp_inflight_o, 16) X(ring_ready_o, 1) X(cpl_ready_o, 1)                                     \
    X(evw_valid_o, 1) EDGE_EKT_DESC(X, evw) X(pkq_valid_o, 1) EDGE_EKT_DESC(X, pkq)                \
    X(err_valid_o, 1) X(err_code_o, 3) X(err_id_o, 5) X(registered_o, 32) X(cnt_launch_o, 32)      \
    X(cnt_err_unreg_o, 16) X(cnt_err_overrun_o, 16) X(cnt_err_cpl_o, 16) X(err_status_o, 3)

typedef struct { EDGE_EKT_INPUTS(FG_FIELD) } edge_ekt_in_t;
typedef struct { EDGE_EKT_OUTPUTS(FG_FIELD) } edge_ekt_out_t;

typedef struct {
    unsigned entries;      /* ENTRIES, 32 */
    unsigned addr_w;       /* ADDR_W: kernel pointer and parameter buffer addresses, 64 */
    unsigned psize_w;      /* PSIZE_W: parameter entry size, 64 */
    unsigned dim_w;        /* DIM_W: grid and block dimensions, 32 */
    unsigned shmem_w;      /* SHMEM_W, 16 */
    unsigned prio_w;       /* PRIO_W, 2 */
    unsigned maxev_w;      /* MAXEV_W: maxNumEvents and in-flight counters, 16 */
    unsigned warp_threads; /* WARP_THREADS: a kernel of one block of <= this many threads is a warp-level event, 32 */
    unsigned out_depth;    /* OUT_DEPTH: descriptor FIFO depth per output path, 2 */
} edge_ekt_params;

/* verilated parameters (field, RTL name), checked by the shim */
#define EDGE_EKT_PARAMS(X)                                                                         \
    X(entries, ENTRIES) X(addr_w, ADDR_W) X(psize_w, PSIZE_W) X(dim_w, DIM_W) X(shmem_w, SHMEM_W)   \
    X(prio_w, PRIO_W) X(maxev_w, MAXEV_W) X(warp_threads, WARP_THREADS) X(out_depth, OUT_DEPTH)

void edge_ekt_params_default(edge_ekt_params *p);
extern const fg_block_class edge_ekt_class;

#endif
