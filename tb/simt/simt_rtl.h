/* simt_rtl: the C view of the verilated RTL SIMT core (rtl/simt/simt_core.sv,
 * docs/SIMT_RTL.md), in each configuration mk/simt_rtl.mk verilates: the
 * core alone, or with EDGE's PEWT and preemption controller
 * (rtl/simt/simt_edge_core.sv; the edge_* fields, ignored by the others).
 *
 * A cycle is simt_rtl_eval (inputs applied, combinational outputs settled
 * and read: what the rising edge will sample) then simt_rtl_tick (the
 * edge).  A failed RTL assertion ($error of FG_ASSERT) does not stop the
 * process: simt_rtl_error returns it with its cycle. */
#ifndef SIMT_RTL_H
#define SIMT_RTL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct simt_rtl simt_rtl;

/* the parameters a configuration was verilated with */
typedef struct {
    unsigned nw, nl, gto, stack_bytes, core_id;
    bool edge; /* simt_edge_core */
} simt_rtl_params;

typedef struct {
    uint32_t local_base;
    uint8_t launch_valid;
    uint32_t launch_pc, launch_param, launch_live, launch_wib;
    uint32_t launch_ctaid[3], launch_ntid[3], launch_nctaid[3], launch_shmem;
    uint8_t mem_req_ready, mem_rsp_valid;
    uint32_t mem_rsp_rdata;
    /* simt_edge_core */
    uint32_t save_base, save_mask;
    uint8_t cfg_en, cfg_policy, cfg_opt, cfg_save_per_reg;
    uint16_t cfg_save_base;
    uint8_t ev_valid, ev_threads, ev_regs;
    uint32_t ev_kernel, ev_param, ev_tag;
} simt_rtl_in;

typedef struct {
    uint8_t launch_ready;
    uint32_t launch_slot;
    uint8_t done_valid;
    uint32_t done_slot;
    uint8_t fault_valid;
    uint32_t fault_slot, fault_code, fault_pc;
    uint8_t mem_req_valid, mem_req_we;
    uint32_t mem_req_addr, mem_req_be, mem_req_wdata;
    uint8_t rvfi_valid;
    uint32_t rvfi_slot, rvfi_pc, rvfi_mask, rvfi_rd, rvfi_pass;
    uint64_t rvfi_order;
    uint32_t rvfi_data[32]; /* [0, nl): thread rvfi_pass * nl + i */
    uint8_t busy;
    /* simt_edge_core */
    uint8_t end_event, ev_ready, cpl_valid, ev_bad, err_valid, err_code;
    uint32_t cpl_tag;
    uint8_t cmd, cmd_slot, cmd_arg;
    uint32_t event_mask, victim_mask;
    uint32_t cnt_start_free, cnt_start_pre, cnt_resume, cnt_abort;
} simt_rtl_out;

/* The configurations built, by name ("default", "odd", "edge", "edge_odd"): n of them. */
unsigned simt_rtl_configs(const char *const **names);
/* A configuration's parameters: 0, or -1 for an unknown name. */
int simt_rtl_config_params(const char *config, simt_rtl_params *p);
/* NULL with the reason in err for an unknown name. */
simt_rtl *simt_rtl_new(const char *config, simt_rtl_params *p, char *err, size_t errlen);
void simt_rtl_free(simt_rtl *r);
/* Writes an FST of every cycle from now on; -1 when the file cannot be opened. */
int simt_rtl_trace(simt_rtl *r, const char *path);
/* rst_ni low for two cycles (inputs zero), then high; cycle 0 follows. */
void simt_rtl_reset(simt_rtl *r);
void simt_rtl_eval(simt_rtl *r, const simt_rtl_in *in, simt_rtl_out *out);
void simt_rtl_tick(simt_rtl *r);
uint64_t simt_rtl_cycle(const simt_rtl *r);
/* Non-NULL once an RTL assertion has failed: which cycle, the seed of the
 * initial state (the assertion's own message is on stderr). */
const char *simt_rtl_error(const simt_rtl *r);
/* The randomized initial state's seed of this process (0: all zero). */
uint64_t simt_rtl_xseed(void);

#ifdef __cplusplus
}
#endif
#endif
