#!/usr/bin/env python3
"""The FPGA top's register map: the one description of every register, from
which the RTL and the C side are generated (docs/FPGA.md, "Register map").

    fpga/regmap.py            write fpga/gen/* and the table in docs/FPGA.md
    fpga/regmap.py --check    exit 1 when a generated file is not current

Generated:
  fpga/gen/fg_regmap_pkg.sv   SystemVerilog package: ID, clocking, window
                              numbers, the blocks' FPGA parameters, offsets
  fpga/gen/fgr_<block>.sv     one register wrapper per block type: the
                              block's inputs from registers, its outputs
                              readable, valid/ready handshakes, pulse
                              strobes and capture FIFOs for one-cycle outputs
  fpga/gen/fg_regmap.h        C: window bases, register offsets, widths,
                              CTRL bits, a port table per block
  fpga/gen/fg_regmap_simt.h   C: the offsets of the SIMT top's windows that
                              the FPGA top does not have (build_simt; their
                              fgr_ / fgs_ files as above, no trace player)
  docs/FPGA.md                the register map table between its markers

Each block's port list is checked against its twin's X-macro lists
(sim/twin/<block>.h): every input is drivable (a register, a strobe, or a
link from a neighbour named here), every output readable.

Register windows: a bus word address is window << 8 | offset (256 words
per window; byte address = word address * 4, as LiteX's UARTBone and
RemoteClient count).  In every block window, word 0 is CTRL: writing a 1 to
bit b fires strobe b (set a held valid, give a one-cycle pulse, or pop a
capture FIFO); reading it shows which held valids are still pending and
which capture FIFOs hold an entry.
"""
import hashlib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEN = os.path.join(ROOT, "fpga", "gen")

# ----------------------------------------------------------------- identity
ID_VALUE = 0x4647524E        # "FGRN"
VERSION = (1, 1)             # register map major.minor
BAUD = 115200                # UART baud on the board
WIN_BITS = 8                 # words per window = 2^WIN_BITS

# --------------------------------------------------- the blocks' FPGA configuration
# Parameters the blocks are instantiated with in the FPGA top (they reach
# every level of hierarchy through the instances' #(...), no chparam).
# Defaults of the RTL unless a comment says why not.
P_EKT = dict(ENTRIES=32, ADDR_W=64, PSIZE_W=64, DIM_W=32, SHMEM_W=16, PRIO_W=2, MAXEV_W=16,
             WARP_THREADS=32, OUT_DEPTH=2)
P_DB = dict(ENTRIES=32, ADDR_W=64, DATA_W=32, RING_DEPTH=16, PT_DEPTH=2)
P_PEWT = dict(ENTRIES=4, ADDR_W=64, TAG_W=64, SLOT_W=6, THR_W=6, REGS_W=7)
# The preemption controller at the RTL defaults: 64 warp slots per core
# (2048 threads / 32) on core 0 (docs/FPGA.md, "Figures").
P_PRE = dict(NW=64, SLOT_W=6, REGS_W=7, CYC_W=16)
# The F/E queues in the memory system's configuration (fe_sched_queues_sys in
# rtl/fe/fe_sched_queues.toml: 16384 tracked lines of 128 B per partition, queues of 16, a
# 32-bit watchdog), so that the traces of a system run replay on the board
# (the trace player below); 32 block RAMs for the F/E bits.
P_FE = dict(ADDR_W=32, WORDS=32, GRAN=4, REGION_BASE=0, REGION_LINES=16384, QD_NT=16, QD_CPU=16,
            QD_GPU=16, TAG_W=8, WD_W=32, CNT_W=32, INIT_W=16, LK_REG=1)
# CM Table I: 8 memory partitions, 28 GPU cores, 2 schedulers, 48 warps
P_CM = dict(P=8, C=28, NSCHED=2, MAXW=48, INTERVAL=1024, TH_Q4=4, TL_Q4=1, FINE=8,
            EXPLORE_WARPS=6, EXPLORE_N=4)
CM_NLVL = 9
# SIMT cores: one PEWT + one preemption controller each; PRE_CORE_NW[c] is
# core c's warp slots.  Two cores, not the four the top once had: the player
# replays into core 0, the others are the host's, and with four the top does
# not route on the 85F (router1 left > 100,000 arcs after 30 min, 44 % of
# router2's overuse in the controllers' age order and selection) where two
# route (docs/FPGA_TIMING.md).  Core 0 replays the system's
# traces, so it has the paper's 64 slots (P_PRE); core 1, the host's, 16:
# the age order grows with the square of the slots, and a 64-slot core 1 left
# most placements of the top unroutable at its clock (docs/FPGA_TIMING.md;
# SYS CORE_NW tells the host).
PRE_CORE_NW = (P_PRE["NW"], 16)
NCORES = len(PRE_CORE_NW)
assert PRE_CORE_NW[0] == P_PRE["NW"] and NCORES <= 4 and all(2 <= n <= 64 for n in PRE_CORE_NW), \
    "PRE_CORE_NW: core 0 replays the traces (P_PRE's NW), SYS CORE_NW holds 4 cores of 2..64 slots"

# The trace player (fpga/fg_trace_player.sv, docs/FPGA.md "The trace player"):
# one trace memory of DEPTH rows shared by the blocks (one block replays at a
# time), each row one entry: a 16-bit header (the next row's run length - 1 in
# [14:0], [15] set when that run is one cycle) and the block's trace columns packed from bit
# 16 (rst_ni, the inputs, then the expected outputs, in the trace's order).
# A row is PLAY_WORDS 32-bit words, each word one block-RAM bank; a row's header
# holds the NEXT row's run (the first row's is the RUN0 register), so that the
# player decides each advance from registers, not from the block RAMs' read
# data.  A block whose line is wider than a row (the EKT: 505 input and 904
# output bits) compares its outputs in passes: every pass plays all its
# inputs and one group of its output ports (the PASS register), and the host
# replays the trace once per pass.  22 words keep the EKT's line at 688 bits
# (its 1,410 columns in one line kept the top from routing,
# docs/FPGA_TIMING.md); the preemption controller's 708 columns take two
# passes, the other blocks' one.  The
# banks come in depth tiers, so that a narrow block (whose row uses only the
# first words) has more rows than a wide one: words [0, 8) 4096 rows (8 DP16KD
# a bank), [8, 22) 2048 (4): 120 DP16KD, 152 with the F/E bits' 32, of the
# LFE5U-85F's 208.  A block's rows are those of the tier of its last word.
PLAY_WORDS = 22
PLAY_TIERS = [(8, 4096), (None, 2048)]   # (end word, rows)
PLAY_NPASS_MAX = 8                       # passes a block may have
PLAY_PASS_W = (PLAY_NPASS_MAX - 1).bit_length()  # PASS's bits (pl_pass, pass_q)
PLAY_HDR_W = 16
PLAY_RUN_MAX = 1 << (PLAY_HDR_W - 1)   # cycles one entry can hold
PLAY_GROUP = 5                         # banks per register copy (fanout)

# Doorbell aperture defaults (EDGE III-C): 32 doorbells x 8 B inside a
# 512 B region, so ids 32..63 of the region are range errors.
DB_BASE = 0x80000000
DB_REGION_LOG2 = 9
DB_STRIDE_LOG2 = 3


FE_ACC = """  fg_fe_accept #(
    .ADDR_W({ADDR_W}), .WORDS({WORDS}), .GRAN({GRAN}), .REGION_BASE({REGION_BASE}),
    .REGION_LINES({REGION_LINES})
  ) u_acc (
    .valid_i(b_req_valid_i), .src_i(b_req_src_i), .we_i(b_req_we_i), .dflt_i(b_req_dflt_i),
    .trig_i(b_req_trig_i), .addr_i(b_req_addr_i), .ready_i(b_req_ready_o),
    .accept_o(b_req_valid_i_acc));
"""


# the preemption controller's victim-status inputs that are bits of its
# per-warp vectors: the core's multiplexer, in the slice (docs/PREEMPT.md).
# Registered a cycle ahead, from the window's w_* registers, while the block
# takes those w_* a cycle later (d_w_*, the lag ports), so that v_* are the
# bits of slot victim_o in the w_* the block sees wherever it reads them (in
# FLUSH, its contract pre_v_status_is_victims) and p_* the pick's at S+5
# (pre_p_status_is_picks).  From registered outputs only: v_* are the bits of
# slot victim_o of the cycle before (0 if the edge resets the block), p_*
# those of the group winner (grp_win_o) of the group pick_grp_o names after
# the edge that loaded the pick into victim_o (rtl/edge/edge_preempt.sv).  So
# neither the selection tournament nor a 64:1 multiplexer, nor a choice
# between the two registers, stands in front of the FSM (docs/FPGA_TIMING.md).
# The trace player drives w_* from its line and bypasses the registers; v_*
# it loads into vq_* and p_* into every group's gq_* (spl_*, sreg ports), so
# that no choice between the player's register and the slice's stands in
# front of the FSM either: the choice is made before the registers, from
# pl_on_i, a cycle ahead of the block seeing it, as the wrapper's registers
# take their columns.  Every group's register holds the line's p_*: the block
# reads p_* only at S+5 with the selection live (pre_p_status_is_picks), when
# pick_grp_o is one-hot, so p_* is the line's wherever the block reads it
# (elsewhere 0 while pick_grp_o is 0, which the block does not read).
PRE_VSTAT = """  localparam int PNG = (NW + 7) / 8;  // the controller's tournament groups (slice parameter NW)
  logic [{NW_1}:0] d_w_live_i, d_w_exit_i, d_w_bar_i, d_w_ld_i;
  logic [{SLOT_W_1}:0] vcur;
  logic [{SLOT_W_1}:0] gslot [PNG];
  logic vq_left, vq_bar, vq_ld;            // slot victim_o's bits
  logic [PNG-1:0] gq_left, gq_bar, gq_ld;  // each group winner's
  assign vcur = m_rst_ni ? b_victim_o : '0;
  for (genvar g = 0; g < PNG; g++) begin : g_win
    assign gslot[g] = {SLOT_W}'(g * 8) | {SLOT_W}'(b_grp_win_o[3*g +: 3]);
  end
  always_ff @(posedge clk_i) begin
    d_w_live_i <= b_w_live_i;
    d_w_exit_i <= b_w_exit_i;
    d_w_bar_i  <= b_w_bar_i;
    d_w_ld_i   <= b_w_ld_i;
    vq_left    <= spl_on ? spl_v_left_i : b_w_exit_i[vcur] || !b_w_live_i[vcur];
    vq_bar     <= spl_on ? spl_v_bar_i : b_w_bar_i[vcur];
    vq_ld      <= spl_on ? spl_v_ld_i : b_w_ld_i[vcur];
    for (int g = 0; g < PNG; g++) begin
      gq_left[g] <= spl_on ? spl_p_left_i : b_w_exit_i[gslot[g]] || !b_w_live_i[gslot[g]];
      gq_bar[g]  <= spl_on ? spl_p_bar_i : b_w_bar_i[gslot[g]];
      gq_ld[g]   <= spl_on ? spl_p_ld_i : b_w_ld_i[gslot[g]];
    end
  end
  assign b_v_left_i = vq_left;
  assign b_v_bar_i  = vq_bar;
  assign b_v_ld_i   = vq_ld;
  // the pick loaded into victim_o at the last edge (0 when none was)
  assign b_p_left_i = (PNG'(b_pick_grp_o) & gq_left) != '0;
  assign b_p_bar_i  = (PNG'(b_pick_grp_o) & gq_bar) != '0;
  assign b_p_ld_i   = (PNG'(b_pick_grp_o) & gq_ld) != '0;
"""


def clog2(n):
    return max(0, (n - 1).bit_length())


# ------------------------------------------------------------------ model
class Port:
    def __init__(self, name, width, kind, role, ready=None, rst=0, doc="", ext=False, export=False,
                 local=False, lag=False, sreg=False):
        self.name, self.width, self.kind, self.role = name, width, kind, role
        self.ext, self.export = ext, export
        self.local = local  # a link input driven inside the slice (acc_sv), not a slice port
        self.lag = lag      # the block takes the register a cycle later (d_<name>, acc_sv)
        # a local link that is a register of acc_sv's which the trace player
        # loads with the line's column (spl_on, spl_<name>) instead of a
        # multiplexer after it
        self.sreg = sreg
        self.ready, self.rst, self.doc = ready, rst, doc
        self.words = (width + 31) // 32
        self.off = None   # word offset of the register (None: no register)
        self.bit = None   # CTRL strobe bit

    def has_reg(self):
        """A window register: every output, every aux port, a held input, a multi-bit pulse's staging."""
        return (self.kind in ("out", "aux_in", "aux_out") or
                (self.kind == "in" and (self.role == "reg" or (self.role == "pulse" and self.width > 1))))

    def has_bit(self):
        """A CTRL strobe bit: a held valid or a pulse."""
        return self.kind == "in" and self.role in ("valid", "pulse")


class Cap:
    def __init__(self, name, trig, fields, depth, doc=""):
        self.name, self.trig, self.fields, self.depth, self.doc = name, trig, fields, depth, doc
        self.bit = None
        self.stat_off = self.ev_off = None
        self.field_off = {}


class Block:
    """A register window type.  kind: in (block input), out (block output),
    aux_out (a register the top's glue reads), aux_in (a glue status the host
    reads).  role of an input: reg (held level), valid (held until the
    block's ready), pulse (one cycle on the strobe; a multi-bit pulse gives
    its staged register value for that cycle, 0 otherwise), link (driven by
    the top's glue, not by the host; local: by the slice's own glue, acc_sv,
    from the block's other ports).  player: the slice has the trace player's
    port (PLAYER = 1 possible); without it, no player logic is generated."""

    def __init__(self, name, module, params, twin, doc, pfx, acc_sv="", mux="case", player=True):
        self.name, self.module, self.params, self.twin, self.doc = name, module, params, twin, doc
        self.pfx, self.acc_sv, self.player = pfx, acc_sv, player
        # read mux style: "case" (a parallel mux) or "array" (an indexed array,
        # a mux tree).  Synthesized alone the array is smaller for the wide
        # windows (EKT 2.3k vs 3.1k LUT4); in the whole top it came out 1.7k
        # LUT4 larger (ABC), so every window uses case.
        self.mux = mux
        self.ports, self.caps = [], []
        # a parameter of the slice (fgs_<block>), not of the window: the block
        # takes it (bparams: block parameter -> SV expression of it) and the
        # ports in bw are that SV width at the block, narrower than their
        # registers (the window keeps the layout of the default)
        self.sparam, self.bparams, self.bw = None, {}, {}
        self.like = None  # the block whose layout this one keeps (layout like=)
        self.cheader = "fg_regmap.h"  # the C header of its window's layout

    def inp(self, name, width, role="reg", **kw):
        self.ports.append(Port(name, width, "in", role, **kw))

    def out(self, name, width, **kw):
        self.ports.append(Port(name, width, "out", "ro", **kw))

    def aux_out(self, name, width, **kw):
        self.ports.append(Port(name, width, "aux_out", "reg", **kw))

    def aux_in(self, name, width, **kw):
        self.ports.append(Port(name, width, "aux_in", "ro", **kw))

    def slice_param(self, name, default, doc, bparams, bw):
        self.sparam = (name, default, doc)
        self.bparams, self.bw = bparams, bw

    def cap(self, name, trig, fields, depth=8, doc=""):
        self.caps.append(Cap(name, trig, fields, depth, doc))

    def port(self, name):
        return next(p for p in self.ports if p.name == name)

    def layout(self, like=None):
        """CTRL bits in port order, then the captures' pop bits; word offsets
        from 1: the captures', then the ports' registers in port order.
        like: a laid-out block whose layout this one keeps: a port (capture)
        of the same name and shape takes like's bit and offset, the others are
        placed after like's; like's bits and words this block has no use for
        stay holes (a CTRL bit that fires nothing and reads 0, a word that
        reads 0)."""
        self.like = like
        if like is not None:
            return self.layout_like(like)
        bit = 0
        for p in self.ports:
            if p.has_bit():
                p.bit = bit
                bit += 1
        for c in self.caps:
            if c.depth:
                c.bit = bit
                bit += 1
        assert bit <= 32, self.name
        off = 1
        for c in self.caps:
            if c.depth:
                c.stat_off = off
                off += 1
            c.ev_off = off
            off += 1
            for f in c.fields:
                c.field_off[f] = off
                off += self.port(f).words
        for p in self.ports:
            if p.has_reg():
                p.off = off
                off += p.words
        assert off <= (1 << WIN_BITS), self.name
        self.nwords = off

    def layout_like(self, like):
        lp = {p.name: p for p in like.ports}
        lc = {c.name: c for c in like.caps}
        bit = 1 + max([p.bit for p in like.ports if p.bit is not None] +
                      [c.bit for c in like.caps if c.bit is not None] + [-1])
        off = like.nwords
        for p in self.ports:
            q = lp.get(p.name)
            if p.has_bit():
                if q is not None and q.bit is not None:
                    p.bit = q.bit
                else:
                    p.bit, bit = bit, bit + 1
            if p.has_reg():
                if q is not None and q.off is not None and q.words == p.words:
                    p.off = q.off
                else:
                    p.off, off = off, off + p.words
        for c in self.caps:
            k = lc.get(c.name)
            same = (k is not None and bool(k.depth) == bool(c.depth) and k.fields == c.fields and
                    all(self.port(f).words == like.port(f).words for f in c.fields))
            if same:
                c.bit, c.stat_off, c.ev_off, c.field_off = k.bit, k.stat_off, k.ev_off, dict(k.field_off)
                continue
            if c.depth:
                c.bit, bit = bit, bit + 1
                c.stat_off, off = off, off + 1
            c.ev_off, off = off, off + 1
            for f in c.fields:
                c.field_off[f], off = off, off + self.port(f).words
        bits = [p.bit for p in self.ports if p.bit is not None] + [c.bit for c in self.caps if c.bit is not None]
        words = [o for p in self.ports if p.off is not None for o in range(p.off, p.off + p.words)]
        for c in self.caps:
            words += [o for o in (c.stat_off, c.ev_off) if o is not None]
            words += [o for f, o0 in c.field_off.items() for o in range(o0, o0 + self.port(f).words)]
        assert len(set(bits)) == len(bits) and max(bits + [0]) < 32, self.name
        assert len(set(words)) == len(words) and 0 not in words, self.name
        assert off <= (1 << WIN_BITS), self.name
        self.nwords = off


def desc_ports(b, pfx, P, export=False):
    idw = clog2(P["ENTRIES"])
    for n, w in (("id", idw), ("kernel_ptr", P["ADDR_W"]), ("param_addr", P["ADDR_W"]),
                 ("grid_x", P["DIM_W"]), ("grid_y", P["DIM_W"]), ("grid_z", P["DIM_W"]),
                 ("block_x", P["DIM_W"]), ("block_y", P["DIM_W"]), ("block_z", P["DIM_W"]),
                 ("shmem", P["SHMEM_W"]), ("prio", P["PRIO_W"])):
        b.out(f"{pfx}_{n}_o", w, export=export)


EKT_DOC = ("Event kernel table (EDGE III-A..C, IV-E). Commands from registers; rings from the "
           "doorbell decoder; descriptors and responses read and popped by the host.")
EKT_EV_DOC = ("Event kernel table (EDGE III-A..C, IV-E) whose single-warp events go to the SIMT "
              "core's PEWT and whose completions come from the core")


def ekt_block(name, pfx, doc, core=False):
    """The event kernel table's window.  core = False: the FPGA top's (edge_ekt),
    every port but the ring link the host's.  core = True: the SIMT top's
    (edge_ekt_ev, fpga/finegrain_simt_ulx3s.sv): the single-warp descriptors
    go to the core's PEWT (evw_ready_i a link, the evw_* outputs exported) and
    the completions come from the core (cpl_valid_i / cpl_id_i links,
    cpl_ready_o exported); no trace player.  Every other port is the same."""
    P = P_EKT
    idw = clog2(P["ENTRIES"])
    b = Block(name, "edge_ekt", P, "edge_ekt.h", pfx=pfx, doc=doc, player=not core)
    b.inp("cmd_valid_i", 1, "valid", ready="cmd_ready_o")
    for n, w in (("op", 2), ("id", idw), ("kernel_ptr", P["ADDR_W"]), ("param_base", P["ADDR_W"]),
                 ("param_size", P["PSIZE_W"]), ("param_end", P["ADDR_W"]), ("grid_x", P["DIM_W"]),
                 ("grid_y", P["DIM_W"]), ("grid_z", P["DIM_W"]), ("block_x", P["DIM_W"]),
                 ("block_y", P["DIM_W"]), ("block_z", P["DIM_W"]), ("shmem", P["SHMEM_W"]),
                 ("prio", P["PRIO_W"]), ("max_events", P["MAXEV_W"])):
        b.inp(f"cmd_{n}_i", w)
    b.inp("rsp_ready_i", 1, "pulse", doc="pop the response")
    b.inp("ring_valid_i", 1, "link", doc="the ring link's head (doorbell ring_valid_o through a 2-entry FIFO)")
    b.inp("ring_id_i", idw, "link")
    if core:
        b.inp("cpl_valid_i", 1, "link", doc="the core's completion of a single-warp event")
        b.inp("cpl_id_i", idw, "link")
        b.inp("evw_ready_i", 1, "link", doc="the core's PEWT takes the single-warp descriptor")
    else:
        b.inp("cpl_valid_i", 1, "valid", ready="cpl_ready_o")
        b.inp("cpl_id_i", idw)
        b.inp("evw_ready_i", 1, "pulse", doc="pop the single-warp descriptor")
    b.inp("pkq_ready_i", 1, "pulse", doc="pop the kernel descriptor")
    b.out("cmd_ready_o", 1)
    b.out("rsp_valid_o", 1)
    b.out("rsp_status_o", 3)
    b.out("rsp_id_o", idw)
    b.out("rsp_head_o", P["ADDR_W"])
    b.out("rsp_inflight_o", P["MAXEV_W"])
    b.out("ring_ready_o", 1, export=True)
    b.out("cpl_ready_o", 1, export=core)
    b.out("evw_valid_o", 1, export=core)
    desc_ports(b, "evw", P, export=core)
    b.out("pkq_valid_o", 1)
    desc_ports(b, "pkq", P)
    b.out("err_valid_o", 1)
    b.out("err_code_o", 3)
    b.out("err_id_o", idw)
    b.out("registered_o", P["ENTRIES"])
    b.out("cnt_launch_o", 32)
    b.out("cnt_err_unreg_o", 16)
    b.out("cnt_err_overrun_o", 16)
    b.out("cnt_err_cpl_o", 16)
    b.out("err_status_o", 3)
    b.cap("err", "err_valid_o", ["err_code_o", "err_id_o"], doc="one entry per launch / completion error")
    return b


def build():
    blocks = []
    # ---- doorbell decoder
    P = P_DB
    b = Block("edge_doorbell", "edge_doorbell", P, "edge_doorbell.h", pfx="DB", doc=
              "Doorbell decoder (EDGE III-C). Its front-end writes come from the doorbell aperture "
              "window: a bus write at byte offset x of the aperture is a front-end write of the "
              "data to AP_BASE + x. Rings go to the EKT.")
    b.inp("cfg_base_i", P["ADDR_W"], rst=DB_BASE, doc="doorbell region base")
    b.inp("cfg_region_log2_i", 6, rst=DB_REGION_LOG2)
    b.inp("cfg_stride_log2_i", 6, rst=DB_STRIDE_LOG2)
    b.inp("wr_valid_i", 1, "link", doc="aperture write FIFO")
    b.inp("wr_addr_i", P["ADDR_W"], "link")
    b.inp("wr_data_i", P["DATA_W"], "link")
    b.inp("pt_ready_i", 1, "pulse", doc="pop the pass-through write")
    b.inp("ring_ready_i", 1, "link", doc="the ring link's ready (a 2-entry FIFO before the EKT)")
    b.out("wr_ready_o", 1, export=True)
    b.out("pt_valid_o", 1)
    b.out("pt_addr_o", P["ADDR_W"])
    b.out("pt_data_o", P["DATA_W"])
    b.out("ring_valid_o", 1, export=True)
    b.out("ring_id_o", clog2(P["ENTRIES"]), export=True)
    b.out("ring_count_o", clog2(P["RING_DEPTH"] + 1))
    b.out("err_valid_o", 1)
    b.out("err_code_o", 2)
    b.out("err_addr_o", P["ADDR_W"])
    b.out("cnt_rings_o", 32)
    b.out("cnt_err_range_o", 16)
    b.out("cnt_err_align_o", 16)
    b.out("err_status_o", 2)
    b.aux_out("ap_base", P["ADDR_W"], rst=DB_BASE, doc="front-end address of aperture offset 0")
    b.aux_in("ap_drops", 16, doc="aperture writes dropped (aperture FIFO full)")
    b.aux_in("ap_count", 8, doc="aperture writes waiting for the decoder")
    b.cap("err", "err_valid_o", ["err_code_o", "err_addr_o"],
          doc="one entry per doorbell error pulse")
    blocks.append(b)

    # ---- event kernel table
    blocks.append(ekt_block("edge_ekt", "EKT", EKT_DOC))

    # ---- F/E queues
    P = P_FE
    aw, wd, tw, cw = P["ADDR_W"], P["WORDS"], P["TAG_W"], P["CNT_W"]
    b = Block("fe_sched_queues", "fe_sched_queues", P, "fe_sched_queues.h", pfx="FE", acc_sv=FE_ACC, doc=
              "F/E-bit DRAM scheduler queues of one memory partition (F/E 4.1-4.5). Requests from "
              "registers (held until the queue they go to takes them); output and NACK popped by "
              "the host.")
    # accepted when req_ready_o has the bit of the request's queue: the top
    # computes that (fpga/fg_fe_accept.sv) and gives it as req_valid_i_acc
    b.inp("req_valid_i", 1, "valid", ready=None)
    b.inp("req_src_i", 1)
    b.inp("req_we_i", 1)
    b.inp("req_dflt_i", 1)
    b.inp("req_trig_i", 2)
    b.inp("req_act_i", 2)
    b.inp("req_addr_i", aw)
    b.inp("req_mask_i", wd)
    b.inp("req_tag_i", tw)
    b.inp("out_ready_i", 1, "pulse", doc="pop the output request")
    b.inp("nack_ready_i", 1, "pulse", doc="pop the NACK")
    b.inp("init_valid_i", 1, "valid", ready="init_ready_o")
    b.inp("init_full_i", 1)
    b.inp("init_addr_i", aw)
    b.inp("init_lines_i", P["INIT_W"])
    b.inp("wdog_limit_i", P["WD_W"])
    b.out("req_ready_o", 3)
    b.out("stall_mc_o", 1)
    for s in ("out", "nack"):
        b.out(f"{s}_valid_o", 1)
        b.out(f"{s}_src_o", 1)
        b.out(f"{s}_we_o", 1)
        b.out(f"{s}_trig_o", 2)
        b.out(f"{s}_act_o", 2)
        b.out(f"{s}_addr_o", aw)
        b.out(f"{s}_mask_o", wd)
        b.out(f"{s}_tag_o", tw)
        b.out(f"{s}_q_o", 2)
    b.out("init_ready_o", 1)
    b.out("head_blocked_o", 3)
    b.out("q_count_o", 24)
    for n in ("stall_nt_o", "stall_cpu_o", "stall_gpu_o", "releases_o", "nacks_o"):
        b.out(n, cw)
    b.out("err_o", 1)
    b.cap("stall_mc", "stall_mc_o", [], depth=0, doc="cycles with stall_mc_o (count only)")
    blocks.append(b)

    # ---- CM-BAL monitor
    P = P_CM
    lw = clog2(P["MAXW"] + 1)
    sgw = clog2(P["NSCHED"] * P["INTERVAL"])
    b = Block("cm_bal_monitor", "cm_bal_monitor", P, "cm_bal_monitor.h", pfx="CM", doc=
              "CM-CPU / CM-BAL stall monitor (CM 4.1-4.2): stall inputs as held levels (a bit "
              "held at 1 stalls every cycle), kernel start / end as pulses, per-core readout "
              "through rd_core_i / rd_entry_i.")
    b.inp("stall_mc_i", P["P"])
    b.inp("stall_net_i", P["P"])
    b.inp("issue_stall_i", P["C"] * P["NSCHED"])
    b.inp("kstart_i", P["C"], "pulse")
    b.inp("kend_i", P["C"], "pulse")
    b.inp("mode_i", 2)
    b.inp("static_i", lw, rst=P["MAXW"])
    b.inp("k_i", sgw + 1, rst=32)
    b.inp("rd_core_i", clog2(P["C"]))
    b.inp("rd_entry_i", clog2(CM_NLVL))
    b.out("interval_o", 1)
    b.out("decision_o", 2)
    b.out("cpu_limit_o", lw)
    b.out("stall_mc_o", clog2(P["P"] * P["INTERVAL"]))
    b.out("stall_net_o", clog2(P["P"] * P["INTERVAL"]))
    b.out("rd_limit_o", lw)
    b.out("rd_level_o", clog2(CM_NLVL))
    b.out("rd_stay_o", clog2(P["EXPLORE_N"]))
    b.out("rd_valid_o", CM_NLVL)
    b.out("rd_avg_o", sgw)
    b.out("rd_why_o", 3)
    b.cap("interval", "interval_o", [], depth=0, doc="interval ends (count only)")
    blocks.append(b)

    # ---- PEWT (one per core)
    P = P_PEWT
    b = Block("edge_pewt", "edge_pewt", P, "edge_pewt.h", pfx="PEWT", doc=
              "Pending event warp table of one SIMT core (EDGE IV-C). With the core's LINK bit "
              "(preemption window) its start comes from the controller's START commands.")
    b.inp("ev_valid_i", 1, "valid", ready="ev_ready_o")
    b.inp("ev_kernel_i", P["ADDR_W"])
    b.inp("ev_param_i", P["ADDR_W"])
    b.inp("ev_tag_i", P["TAG_W"])
    b.inp("ev_threads_i", P["THR_W"])
    b.inp("ev_regs_i", P["REGS_W"])
    b.inp("start_valid_i", 1, "pulse", ext=True)
    b.inp("start_slot_i", P["SLOT_W"], ext=True)
    b.inp("exit_valid_i", 1, "pulse", ext=True)
    b.inp("exit_slot_i", P["SLOT_W"], ext=True)
    cw = clog2(P["ENTRIES"] + 1)
    b.out("ev_ready_o", 1)
    b.out("hd_valid_o", 1, export=True)
    b.out("hd_idx_o", clog2(P["ENTRIES"]))
    b.out("hd_kernel_o", P["ADDR_W"])
    b.out("hd_param_o", P["ADDR_W"])
    b.out("hd_tag_o", P["TAG_W"])
    b.out("hd_threads_o", P["THR_W"])
    b.out("hd_regs_o", P["REGS_W"], export=True)
    b.out("cpl_valid_o", 1)
    b.out("cpl_tag_o", P["TAG_W"])
    b.out("cpl_slot_o", P["SLOT_W"])
    b.out("n_pending_o", cw)
    b.out("n_running_o", cw)
    b.out("n_free_o", cw)
    b.out("err_valid_o", 1)
    b.out("err_code_o", 2)
    b.out("cnt_err_o", 16)
    b.out("cnt_push_o", 32)
    b.cap("cpl", "cpl_valid_o", ["cpl_tag_o", "cpl_slot_o"], doc="one entry per completion")
    b.cap("err", "err_valid_o", ["err_code_o"], doc="one entry per error pulse")
    blocks.append(b)

    # ---- preemption controller (one per core)
    P = P_PRE
    nw, sw, rw = P["NW"], P["SLOT_W"], P["REGS_W"]
    b = Block("edge_preempt", "edge_preempt", P, "edge_preempt.h", pfx="PRE", acc_sv=PRE_VSTAT, doc=
              "Warp preemption / flush controller of one SIMT core (EDGE IV-D); the host plays "
              "the core. LINK = 1: req_valid_i / req_regs_i come from the core's PEWT head and "
              "each START command starts the PEWT head (the system's wiring).")
    # the slots are the slice's parameter (PRE_CORE_NW, one per core); every
    # core's window keeps the 64-slot layout, its bits at and above NW read 0
    # and are ignored (the twin masks them the same way)
    sws = "$clog2(NW)"
    b.slice_param("NW", nw, "warp slots (PRE_CORE_NW); PLAYER needs the traces' " + str(nw),
                  {"NW": "NW", "SLOT_W": sws},
                  {**{n: sws for n in ("free_slot_i", "ev_exit_slot_i", "cmd_slot_o", "victim_o")},
                   **{n: "NW" for n in ("w_alloc_i", "w_live_i", "w_exit_i", "w_bar_i", "w_ld_i",
                                        "event_mask_o", "victim_mask_o")},
                   "grp_win_o": "3*((NW+7)/8)", "pick_grp_o": "(NW+7)/8"})
    b.inp("cfg_en_i", 1)
    b.inp("cfg_policy_i", 2)
    b.inp("cfg_opt_i", 4)
    b.inp("cfg_save_base_i", P["CYC_W"])
    b.inp("cfg_save_per_reg_i", 8)
    b.inp("req_valid_i", 1, "pulse", ext=True, doc="one-cycle request (LINK = 0)")
    b.inp("req_regs_i", rw, ext=True)
    b.inp("free_ctx_i", 1)
    b.inp("free_slot_i", sw)
    b.inp("rf_free_i", 1)
    b.inp("w_alloc_i", nw, "pulse")
    b.inp("w_alloc_regs_i", rw)
    # the vectors v_left_i / v_bar_i / v_ld_i are bits of, a cycle later (PRE_VSTAT)
    b.inp("w_live_i", nw, lag=True)
    b.inp("w_exit_i", nw, "pulse", lag=True)
    b.inp("w_bar_i", nw, lag=True)
    b.inp("w_ld_i", nw, lag=True)
    for n in ("v_pipe_i", "v_sb_i", "v_ibuf_i", "v_imiss_i", "v_ldok_i"):
        b.inp(n, 1)
    # the core's bits of the warp in slot victim_o, as the SIMT core muxes them
    # (sim/simt/simt_edge_core.c): from the vectors the host writes
    for n, d in (("v_left_i", "w_exit_i[victim_o] || !w_live_i[victim_o]"),
                 ("v_bar_i", "w_bar_i[victim_o]"), ("v_ld_i", "w_ld_i[victim_o]"),
                 ("p_left_i", "w_exit_i[victim_o] || !w_live_i[victim_o]"), ("p_bar_i", "w_bar_i[victim_o]"),
                 ("p_ld_i", "w_ld_i[victim_o]")):
        b.inp(n, 1, "link", local=True, sreg=True, doc=d)
    b.inp("ev_exit_i", 1, "pulse", ext=True)
    b.inp("ev_exit_slot_i", sw, ext=True)
    b.out("cmd_o", 3, export=True)
    b.out("cmd_slot_o", sw, export=True)
    b.out("cmd_arg_o", 4)
    b.out("state_o", 2)
    b.out("victim_o", sw)
    b.out("grp_win_o", 3 * ((nw + 7) // 8))
    b.out("pick_grp_o", (nw + 7) // 8)
    b.out("vstat_o", 6)
    b.out("event_mask_o", nw)
    b.out("victim_mask_o", nw)
    b.out("err_valid_o", 1)
    b.out("err_code_o", 2)
    b.out("cnt_err_o", 16)
    b.out("cnt_start_free_o", 32)
    b.out("cnt_start_pre_o", 32)
    b.out("cnt_abort_o", 16)
    b.out("cnt_resume_o", 32)
    b.aux_out("link", 1, doc="1: request from the PEWT head, START starts it")
    b.cap("cmd", "cmd_o", ["cmd_o", "cmd_slot_o", "cmd_arg_o", "vstat_o"], depth=16,
          doc="one entry per command")
    b.cap("err", "err_valid_o", ["err_code_o"], doc="one entry per error pulse")
    blocks.append(b)

    for b in blocks:
        b.layout()
    play_layout(blocks)
    return blocks


def build_simt(blocks):
    """The windows of the SIMT top (fpga/finegrain_simt_ulx3s.sv) that the FPGA
    top does not have, each laid out like its FPGA-top flavour (layout like=):
    the registers and CTRL bits both have stay where the host library
    (fpga/host/fg_hw.c) finds them.  Not in windows(), the trace player or
    map_hash: the FPGA top's map does not change."""
    by = {b.name: b for b in blocks}
    simt = [ekt_block("edge_ekt_ev", "EKTEV", EKT_EV_DOC, core=True)]
    simt[0].layout(like=by["edge_ekt"])
    for b in simt:
        b.cheader = "fg_regmap_simt.h"
    return simt


# ------------------------------------------------------------ trace player
def mk_models():
    """{model: {K: V}}: every verilated configuration in mk/*.mk (b_GPARAMS,
    b_c_GPARAMS), the models whose traces FG_TRACE_DIR records."""
    models = {}
    mkdir = os.path.join(ROOT, "mk")
    for f in sorted(os.listdir(mkdir)):
        if not f.endswith(".mk"):
            continue
        text = open(os.path.join(mkdir, f)).read().replace("\\\n", " ")
        for m in re.finditer(r"^(\w+)_GPARAMS\s*:?=\s*(.*)$", text, re.M):
            kv = dict(t.split("=", 1) for t in m.group(2).split() if "=" in t)
            try:
                models[m.group(1)] = {k: int(v, 0) for k, v in kv.items()}
            except ValueError:
                continue
    return models


def play_layout(blocks):
    """Each block's trace columns (rst_ni, then the twin's X-macro inputs and
    outputs in their order: the order FG_TRACE_DIR writes), their bit offsets
    in a row, and the verilated model whose parameters are the FPGA's (the
    trace a system run records of that model replays here)."""
    models = mk_models()
    for i, b in enumerate(blocks):
        b.play_idx = i
        ins, outs = twin_ports(b.twin)
        # the inputs (every pass), then the outputs in groups that fit a row
        # beside them, in trace order: b.cols' lsb is the column's place in
        # its pass's line, col_pass its pass, col_olsb its place among all
        # the outputs (the window's frozen view)
        b.cols, b.col_pass, b.col_olsb = [], {}, {}
        pos = 0
        for n, w in [("rst_ni", 1)] + [(n, b.port(n).width) for n in ins]:
            b.cols.append((n, w, "in", pos))
            pos += w
        b.in_w = pos
        cap = 32 * PLAY_WORDS - PLAY_HDR_W - b.in_w
        g, used, olsb, b.exp_w = 0, 0, 0, 0
        for n in outs:
            w = b.port(n).width
            if w > cap:
                raise SystemExit(f"regmap: {b.name}: output {n} ({w} b) does not fit a row of {PLAY_WORDS} words "
                                 f"beside the {b.in_w} input columns")
            if used + w > cap:
                g, used = g + 1, 0
            b.cols.append((n, w, "out", b.in_w + used))
            b.col_pass[n], b.col_olsb[n] = g, olsb
            used += w
            olsb += w
            b.exp_w = max(b.exp_w, used)
        b.npass = g + 1
        if b.npass > PLAY_NPASS_MAX:
            raise SystemExit(f"regmap: {b.name}: {b.npass} passes, PASS holds {PLAY_NPASS_MAX}")
        b.out_w = olsb
        b.lw = b.in_w + b.exp_w
        b.nout = sum(1 for c in b.cols if c[2] == "out")
        b.wpr = (PLAY_HDR_W + b.lw + 31) // 32
        # (a model may have parameters the FPGA's instance leaves at their
        # defaults, e.g. edge_preempt's AGE_ROWS, the form of its age order:
        # the same behaviour; the block's own model then wins over its
        # configurations, as the system runs record that one)
        same = [m for m, kv in models.items()
                if {k: kv.get(k) for k in b.params} == b.params and (m == b.name or m.startswith(b.name + "_"))]
        if len(same) > 1 and b.name in same:
            same = [b.name]
        if len(same) != 1:
            raise SystemExit(f"regmap: {b.name}: the FPGA's parameters {b.params} are "
                             f"{'no' if not same else 'more than one'} verilated configuration in mk/*.mk "
                             f"({same}): a trace of it could not be recorded")
        b.model = same[0]


def play_nbanks(blocks):
    assert max(b.wpr for b in blocks) <= PLAY_WORDS
    return PLAY_WORDS


def play_depth(word, nb):
    """Rows of the bank of word `word`."""
    for end, rows in PLAY_TIERS:
        if end is None or word < min(end, nb):
            return rows
    raise SystemExit("regmap: PLAY_TIERS does not end with (None, rows)")


def play_rows(b, nb):
    """Rows a block can play: its last word's tier."""
    return play_depth(b.wpr - 1, nb)


def play_groups(nb):
    """Register-copy groups of banks: (first bank, banks, rows), within a tier."""
    groups, k = [], 0
    while k < nb:
        d = play_depth(k, nb)
        n = 1
        while k + n < nb and n < PLAY_GROUP and play_depth(k + n, nb) == d:
            n += 1
        groups.append((k, n, d))
        k += n
    return groups


def play_bram(nb):
    """DP16KD of the trace memory: a 32-bit bank of d rows takes d / 512 (x36)."""
    return sum(max(1, play_depth(k, nb) // 512) for k in range(nb))


# The PLAY window: (name, word offset, access, meaning)
PLAY_REGS = [
    ("CTRL", 0, "w", "strobes: bit 0 START (play NENT rows into block SEL), bit 1 STOP; reads as STATUS"),
    ("STATUS", 1, "ro", "[0] busy, [1] done, [2] mismatch, [3] stopped by STOP, [4] a request refused, "
                        "[10:8] why (1 START while busy, 2 SEL not a block, 3 NENT 0 or above the block's "
                        "rows, 4 a write while busy, 5 LOAD beyond the block's last row, 6 PASS not below "
                        "the block's passes)"),
    ("SEL", 2, "rw", "the block played: 0 doorbell, 1 EKT, 2 F/E, 3 CM, 4 PEWT0, 5 PRE0"),
    ("NENT", 3, "rw", "rows to play, 1 .. the block's rows"),
    ("ROW", 4, "rw", "row of the next LOAD word (a write restarts at its word 0 and clears SUM1 / SUM2)"),
    ("LOAD", 5, "wo", "one word of a row: word k of row ROW, then k + 1; after SEL's last word of a "
                      "row, word 0 of the next row"),
    ("LOADED", 6, "ro", "the load pointer: [15:0] row, [23:16] word"),
    ("LINES", 7, "ro", "trace lines (cycles) played since START"),
    ("COMPARED", 8, "ro", "of them, lines whose outputs were compared (rst_ni = 1)"),
    ("MM_LINE", 9, "ro", "the first mismatch: its line, 0 = the first line played"),
    ("MM_PORT", 10, "ro", "its lowest mismatching output: 0 = the first output column"),
    ("ROWS", 11, "ro", "rows block SEL can play"),
    ("WORDS", 12, "ro", "32-bit words per row"),
    ("SUM1", 13, "ro", "the sum of the words loaded since ROW was written, mod 2^32"),
    ("SUM2", 14, "ro", "the sum of SUM1 after each of them, mod 2^32 (order-sensitive)"),
    ("RUN0", 15, "rw", "the first row's run: [14:0] cycles - 1, [15] set for one cycle (a row's header "
                       "holds the next row's)"),
    ("PASS", 16, "rw", "the output group compared, 0 .. the block's passes - 1 (a block whose line is wider "
                       "than a row compares its outputs in passes, one replay each)"),
    ("PASSES", 17, "ro", "passes of block SEL"),
]


# Windows: (C name, block type or None, instance count)
def windows(blocks):
    by = {b.name: b for b in blocks}
    return [
        ("SYS", None, 0, "identity, clock, scratch, cycle counter, soft reset, LEDs"),
        ("DB", by["edge_doorbell"], 1, by["edge_doorbell"].doc),
        ("AP", None, 2, "doorbell aperture: write-only, each write is one front-end write"),
        ("EKT", by["edge_ekt"], 3, by["edge_ekt"].doc),
        ("FE", by["fe_sched_queues"], 4, by["fe_sched_queues"].doc),
        ("CM", by["cm_bal_monitor"], 5, by["cm_bal_monitor"].doc),
        ("PLAY", None, 6, "trace player: a recorded trace replayed into one block at the design clock, "
                          "its outputs compared on chip"),
    ] + [(f"PEWT{i}", by["edge_pewt"], 8 + i, f"pending event warp table of SIMT core {i}")
         for i in range(NCORES)] + \
        [(f"PRE{i}", by["edge_preempt"], 12 + i, f"preemption / flush controller of SIMT core {i}")
         for i in range(NCORES)]


SYS_REGS = [  # name, word offset, access, doc
    ("ID", 0, "ro", f"0x{ID_VALUE:08X} (\"FGRN\")"),
    ("VERSION", 1, "ro", "register map major << 16 | minor << 8"),
    ("MAP_HASH", 2, "ro", "first 32 bits of the SHA-256 of the register map (header and bitstream agree)"),
    ("CLK_HZ", 3, "ro", "design clock in Hz"),
    ("BAUD", 4, "ro", "UART baud the divider was derived for"),
    ("NCORES", 5, "ro", "SIMT cores (PEWT + preemption controller pairs)"),
    ("SCRATCH", 6, "rw", "free for the host"),
    ("CYCLE_LO", 7, "ro", "cycles since the last reset, low word"),
    ("CYCLE_HI", 8, "ro", "high word (both live: read HI, LO, HI and retry when HI moved)"),
    ("RESET", 9, "wo", "write 1: reset every block and its registers (not the bus) for 8 cycles"),
    ("LED", 10, "rw", "led[7:2] (led[0] heartbeat, led[1] UART activity)"),
    ("CORE_NW", 11, "ro", "warp slots of each core's preemption controller: core c in bits [8c+7:8c]"),
]


def map_hash(blocks):
    h = hashlib.sha256()
    for wname, b, win, _ in windows(blocks):
        h.update(f"{wname}:{win}\n".encode())
        if b:
            for p in b.ports:
                h.update(f"{p.name}:{p.kind}:{p.role}:{p.width}:{p.off}:{p.bit}\n".encode())
            for c in b.caps:
                h.update(f"{c.name}:{c.bit}:{c.stat_off}:{c.field_off}\n".encode())
    for r in SYS_REGS + PLAY_REGS:
        h.update(repr(r).encode())
    h.update(f"play:{PLAY_TIERS}:{PLAY_HDR_W}:{play_nbanks(blocks)}:{PLAY_GROUP}\n".encode())
    for b in blocks:
        h.update(f"{b.name}:{b.play_idx}:{b.model}:{b.cols}:{sorted(b.col_pass.items())}\n".encode())
    h.update(f"{ID_VALUE}{VERSION}:{PRE_CORE_NW}".encode())
    return int(h.hexdigest()[:8], 16)


# --------------------------------------------------------------- twin check
def twin_ports(hdr):
    text = open(os.path.join(ROOT, "sim", "twin", hdr)).read()
    text = text.replace("\\\n", " ")
    macros = dict(re.findall(r"#define\s+(\w+)\(X(?:,\s*p)?\)\s+(.*)", text))
    def expand(body, pfx=None):
        out = []
        for m in re.finditer(r"(\w+)\(X,\s*(\w+)\)|X\(([\w#]+),", body):
            if m.group(1):
                out += expand(macros[m.group(1)], m.group(2))
            else:
                n = m.group(3)
                out.append(n.replace("p##", pfx) if pfx else n)
        return out
    ins = next(v for k, v in macros.items() if k.endswith("_INPUTS"))
    outs = next(v for k, v in macros.items() if k.endswith("_OUTPUTS"))
    return expand(ins), expand(outs)


def check_twins(blocks):
    errs = []
    for b in blocks:
        ins, outs = twin_ports(b.twin)
        mine_in = [p.name for p in b.ports if p.kind == "in"]
        mine_out = [p.name for p in b.ports if p.kind == "out"]
        if sorted(ins) != sorted(mine_in):
            errs.append(f"{b.name}: inputs differ from {b.twin}: {sorted(set(ins) ^ set(mine_in))}")
        if sorted(outs) != sorted(mine_out):
            errs.append(f"{b.name}: outputs differ from {b.twin}: {sorted(set(outs) ^ set(mine_out))}")
    return errs


# ------------------------------------------------------------------ SV gen
def sv_pkg(blocks):
    L = ["// GENERATED by fpga/regmap.py from its tables; do not edit.",
         "// The FPGA top's register map: identity, windows, block parameters, offsets.",
         "package fg_regmap_pkg;",
         f"  localparam logic [31:0] ID       = 32'h{ID_VALUE:08X};",
         f"  localparam logic [31:0] VERSION  = 32'h{VERSION[0] << 16 | VERSION[1] << 8:08X};",
         f"  localparam logic [31:0] MAP_HASH = 32'h{map_hash(blocks):08X};",
         f"  localparam int WIN_BITS = {WIN_BITS};",
         f"  localparam int NCORES   = {NCORES};",
         "  // warp slots of each core's preemption controller, core 0 in the low byte",
         "  localparam logic [8*NCORES-1:0] PRE_CORE_NW = {" +
         ", ".join(f"8'd{n}" for n in reversed(PRE_CORE_NW)) + "};"]
    for wname, b, win, _ in windows(blocks):
        if not wname[-1].isdigit():
            L.append(f"  localparam int WIN_{wname} = {win};")
        elif wname[-1] == "0":  # core n: WIN_PEWT + n, WIN_PRE + n
            L.append(f"  localparam int WIN_{wname[:-1]} = {win};")
    for name, off, acc, doc in SYS_REGS:
        L.append(f"  localparam logic [{WIN_BITS - 1}:0] SYS_{name} = {WIN_BITS}'d{off};  // {acc}: {doc}")
    L.append("  // the trace player (fpga/fg_trace_player.sv): memory, registers, blocks")
    L.append(f"  localparam int PLAY_NBLK = {len(blocks)};")
    nb = play_nbanks(blocks)
    gs = play_groups(nb)
    L.append(f"  localparam int PLAY_ROWS = {max(r for _, r in PLAY_TIERS)};  // rows of the deepest banks")
    L.append(f"  localparam int PLAY_NB = {nb};  // 32-bit words (banks) per row")
    L.append(f"  // register-copy groups of banks (fg_play_group), one depth each; group 0 in the low byte")
    L.append(f"  localparam int PLAY_NG = {len(gs)};")
    for nm, i in (("BASE", 0), ("N", 1)):
        v = ", ".join(f"8'd{g[i]}" for g in reversed(gs))
        L.append(f"  localparam logic [8*PLAY_NG-1:0] PLAY_G_{nm} = {{{v}}};")
    v = ", ".join(f"8'd{clog2(g[2])}" for g in reversed(gs))
    L.append(f"  localparam logic [8*PLAY_NG-1:0] PLAY_G_AW = {{{v}}};  // log2 rows")
    v = ", ".join(f"16'd{play_rows(b, nb)}" for b in reversed(blocks))
    L.append(f"  localparam logic [16*PLAY_NBLK-1:0] PLAY_BROWS = {{{v}}};  // rows each block can play")
    L.append(f"  localparam int PLAY_HDR_W = {PLAY_HDR_W};  // row header: run - 1 [14:0], one-cycle run [15]")
    for name, off, acc, doc in PLAY_REGS:
        L.append(f"  localparam logic [{WIN_BITS - 1}:0] PLAYR_{name} = {WIN_BITS}'d{off};  // {acc}")
    for b in blocks:
        B = PFX[b.name]
        L.append(f"  localparam int PLAY_{B} = {b.play_idx};  // {b.name}: trace model {b.model}")
        L.append(f"  localparam int PLAY_LW_{B} = {b.lw};  // columns: rst_ni + {b.in_w - 1} input + "
                 f"{b.exp_w} output bits{f' a pass ({b.out_w} in {b.npass} passes)' if b.npass > 1 else ''}")
    L.append(f"  localparam int PLAY_LW_MAX = {max(b.lw for b in blocks)};  // the widest line")
    L.append(f"  localparam int PLAY_PASS_W = {PLAY_PASS_W};  // PASS's bits: up to {PLAY_NPASS_MAX} passes")
    v = ", ".join(f"{PLAY_PASS_W}'d{b.npass - 1}" for b in reversed(blocks))
    L.append(f"  localparam logic [PLAY_PASS_W*PLAY_NBLK-1:0] PLAY_LAST_PASS = {{{v}}};  // passes - 1 of each block")
    wpr = "".join(f"8'd{b.wpr}" + (", " if i else "") for i, b in reversed(list(enumerate(blocks))))
    L.append(f"  // words per row of each block, block 0 in the low byte")
    L.append(f"  localparam logic [8*PLAY_NBLK-1:0] PLAY_WPR = {{{wpr}}};")
    L.append("  // the blocks' parameters the hand-written top needs (all of them: fgs_*.sv)")
    for pfx, P, keys in (("DB", P_DB, ("ENTRIES", "ADDR_W")), ("EKT", P_EKT, ("ENTRIES",)),
                         ("PEWT", P_PEWT, ("SLOT_W", "REGS_W")), ("PRE", P_PRE, ("SLOT_W", "REGS_W"))):
        for k in keys:
            L.append(f"  localparam int {pfx}_{k} = {P[k]};")
    L.append("endpackage")
    return "\n".join(L) + "\n"


PFX = {"edge_doorbell": "DB", "edge_ekt": "EKT", "fe_sched_queues": "FE",
       "cm_bal_monitor": "CM", "edge_pewt": "PEWT", "edge_preempt": "PRE"}


def rng(w):
    return f"[{w - 1}:0] " if w > 1 else ""


def sv_wrapper(b):
    A = WIN_BITS
    L = [f"// GENERATED by fpga/regmap.py from its tables; do not edit.",
         f"// Register wrapper of {b.module}: every input from a register, a strobe or a",
         f"// link, every output readable (docs/FPGA.md, window layout in fpga/gen/{b.cheader}).",
         f"// CTRL (word 0) write: bit b fires strobe b; read: held valids pending, captures non-empty.",
         f"// Read data is registered: rdata_o is the word at addr_i of the edge before.",
         f"module fgr_{b.name} ("
         ]
    ports = ["  input  logic clk_i", "  input  logic rst_ni",
             "  input  logic we_i", f"  input  logic [{A - 1}:0] addr_i",
             "  input  logic [31:0] wdata_i", "  output logic [31:0] rdata_o"]
    for p in b.ports:
        if p.kind == "in" and p.role == "valid" and p.ready is None:
            ports.append(f"  output logic b_{p.name}")
            ports.append(f"  input  logic b_{p.name}_acc")
        elif p.kind == "in" and p.role != "link":
            ports.append(f"  output logic {rng(p.width)}b_{p.name}")
        elif p.kind == "in":
            ports.append(f"  input  logic {rng(p.width)}b_{p.name}")
        elif p.kind == "out":
            if p.name in live_outputs(b):
                ports.append(f"  input  logic {rng(p.width)}b_{p.name}")
            ports.append(f"  input  logic {rng(p.width)}v_{p.name}")
        elif p.kind == "aux_out":
            ports.append(f"  output logic {rng(p.width)}{p.name}_o")
        else:
            ports.append(f"  input  logic {rng(p.width)}{p.name}_i")
    if b.player:
        npl = sum(w for _, w, _ in wrapper_loaded(b))
        ports += ["  input  logic pl_on_i", f"  input  logic [{npl - 1}:0] pl_in_i"]
    L.append(",\n".join(ports))
    L.append(");")
    if b.player:
        L.append("  // pl_on_i: the trace player plays this block (fpga/fg_trace_player.sv): the registers")
        L.append("  // that drive its inputs take the line's columns (pl_in_i, in column order) each cycle")
    used = [p.bit for p in b.ports if p.bit is not None] + [c.bit for c in b.caps if c.bit is not None]
    nbits = 1 + max(used + [0])
    L.append(f"  localparam int NSTB = {nbits};")
    L.append("  logic [NSTB-1:0] stb;  // strobes written this cycle")
    L.append("  assign stb = (we_i && addr_i == '0) ? wdata_i[NSTB-1:0] : '0;")
    L.append("  logic [NSTB-1:0] ctrl_rd;")
    holes = [k for k in range(nbits) if k not in used]
    if holes:  # bits of the block this window is laid out like (Block.layout like=) it has no use for
        L.append(f"  // CTRL bits {', '.join(map(str, holes))}: no strobe here (kept free: the layout of "
                 f"the window this one is laid out like)")
        for k in holes:
            L.append(f"  assign ctrl_rd[{k}] = 1'b0;")
        L.append("  logic unused_stb;")
        L.append(f"  assign unused_stb = ^{{{', '.join(f'stb[{k}]' for k in reversed(holes))}}};")

    def word_we(off):
        return f"(we_i && addr_i == {A}'d{off})"

    seq, rd = [], []  # always_ff lines, read-mux cases
    rstl = []
    for p in b.ports:
        if p.kind == "in" and p.role == "link":
            continue
        # held register (reg, multi-bit pulse staging, aux_out)
        if p.off is not None and p.kind in ("in", "aux_out"):
            r = f"{p.name}_q"
            L.append(f"  logic {rng(p.width)}{r};")
            rstl.append(f"      {r} <= {p.width}'h{p.rst:x};")
            for k in range(p.words):
                lo, hi = 32 * k, min(p.width, 32 * k + 32) - 1
                sl = f"[{hi}:{lo}]" if p.width > 1 else ""
                seq.append(f"      if ({word_we(p.off + k)}) {r}{sl} <= wdata_i[{hi - lo}:0];")
            if p.kind == "aux_out":
                L.append(f"  assign {p.name}_o = {r};")
            elif p.role == "reg":
                L.append(f"  assign b_{p.name} = {r};")
        if p.kind == "in" and p.role == "valid":
            r = f"{p.name}_v_q"
            L.append(f"  logic {r};")
            rstl.append(f"      {r} <= 1'b0;")
            acc = f"b_{p.ready}" if p.ready else f"b_{p.name}_acc"
            seq.append(f"      if (stb[{p.bit}]) {r} <= 1'b1;\n"
                       f"      else if ({r} && {acc}) {r} <= 1'b0;")
            L.append(f"  assign b_{p.name} = {r};")
            L.append(f"  assign ctrl_rd[{p.bit}] = {r};")
        if p.kind == "in" and p.role == "pulse":
            r = f"{p.name}_p_q"
            L.append(f"  logic {rng(p.width)}{r};")
            rstl.append(f"      {r} <= '0;")
            if p.width == 1:
                seq.append(f"      {r} <= stb[{p.bit}];")
            else:
                seq.append(f"      {r} <= stb[{p.bit}] ? {p.name}_q : '0;")
            L.append(f"  assign b_{p.name} = {r};")
            L.append(f"  assign ctrl_rd[{p.bit}] = 1'b0;")
    for c in b.caps:
        trig = b.port(c.trig)
        L.append(f"  // capture '{c.name}': {c.doc}")
        L.append(f"  logic {c.name}_hit;")
        L.append(f"  assign {c.name}_hit = |b_{trig.name};")
        L.append(f"  logic [31:0] {c.name}_ev_q;")
        rstl.append(f"      {c.name}_ev_q <= '0;")
        if c.depth:
            L.append(f"  logic [15:0] {c.name}_drop_q;")
            rstl.append(f"      {c.name}_drop_q <= '0;")
        seq.append(f"      if ({c.name}_hit && {c.name}_ev_q != '1) {c.name}_ev_q <= {c.name}_ev_q + 1'b1;")
        if c.depth:
            fw = sum(b.port(f).width for f in c.fields)
            cw = clog2(c.depth + 1)
            L.append(f"  logic [{fw - 1}:0] {c.name}_din, {c.name}_dout;")
            L.append(f"  assign {c.name}_din = {{{', '.join('b_' + f for f in c.fields)}}};")
            L.append(f"  logic {c.name}_full_n, {c.name}_ne, {c.name}_pop_q;")
            L.append(f"  logic [{cw - 1}:0] {c.name}_cnt;")
            rstl.append(f"      {c.name}_pop_q <= 1'b0;")
            seq.append(f"      {c.name}_pop_q <= stb[{c.bit}];")
            seq.append(f"      if ({c.name}_hit && !{c.name}_full_n && {c.name}_drop_q != '1) "
                       f"{c.name}_drop_q <= {c.name}_drop_q + 1'b1;")
            L.append(f"  fg_fifo #(.WIDTH({fw}), .DEPTH({c.depth})) u_cap_{c.name} (\n"
                     f"    .clk_i, .rst_ni, .valid_i({c.name}_hit), .ready_o({c.name}_full_n),\n"
                     f"    .data_i({c.name}_din), .valid_o({c.name}_ne), .ready_i({c.name}_pop_q),\n"
                     f"    .data_o({c.name}_dout), .count_o({c.name}_cnt));")
            L.append(f"  assign ctrl_rd[{c.bit}] = {c.name}_ne;")
            rd.append((c.stat_off, f"{{{c.name}_drop_q, 8'd0, 8'({c.name}_cnt)}}"))
            # field words from the FIFO head
            pos = fw
            for f in c.fields:
                w = b.port(f).width
                hi, lo = pos - 1, pos - w
                pos -= w
                L.append(f"  logic {rng(w)}{c.name}_f_{f};")
                L.append(f"  assign {c.name}_f_{f} = {c.name}_dout[{hi}:{lo}];")
                for k in range((w + 31) // 32):
                    rd.append((c.field_off[f] + k, word_expr(f"{c.name}_f_{f}", w, k)))
        rd.append((c.ev_off, f"{c.name}_ev_q"))
    # readable words
    for p in b.ports:
        if p.off is None:
            continue
        if p.kind == "out":
            src = f"v_{p.name}"
        elif p.kind == "aux_in":
            src = f"{p.name}_i"
        else:
            src = f"{p.name}_q"
        if p.kind == "in" and p.role == "pulse":
            src = f"{p.name}_q"
        for k in range(p.words):
            rd.append((p.off + k, word_expr(src, p.width, k)))
    # the trace player's line, last (it wins)
    if b.player:
        seq.append("      if (pl_on_i) begin")
        pos = 0
        for n, w, _ in wrapper_loaded(b):
            p = b.port(n)
            r = {"reg": f"{n}_q", "valid": f"{n}_v_q", "pulse": f"{n}_p_q"}[p.role]
            sl = f"pl_in_i[{pos}]" if w == 1 else f"pl_in_i[{pos + w - 1}:{pos}]"
            seq.append(f"        {r} <= {sl};")
            pos += w
        seq.append("      end")
    # flops
    L.append("  always_ff @(posedge clk_i) begin")
    L.append("    if (!rst_ni) begin")
    L += rstl
    L.append("    end else begin")
    L += seq
    L.append("    end")
    L.append("  end")
    # link inputs are read back nowhere but must be used for lint
    links = [p for p in b.ports if p.kind == "in" and p.role == "link"]
    words = dict(sorted(rd))
    words[0] = "32'(ctrl_rd)"
    L.append(f"  // read mux ({b.mux}), registered")
    L.append("  logic [31:0] rdata_d, rdata_q;")
    if b.mux == "array":
        n = 1 << max(1, (b.nwords - 1).bit_length())
        aw = (n - 1).bit_length()
        L.append(f"  logic [31:0] rword [{n}];")
        zero = "32'd0"
        for i in range(n):
            L.append(f"  assign rword[{i}] = {words.get(i, zero)};")
        if aw < A:
            L.append(f"  assign rdata_d = (addr_i[{A - 1}:{aw}] == '0) ? rword[addr_i[{aw - 1}:0]] : 32'd0;")
        else:
            L.append("  assign rdata_d = rword[addr_i];")
    else:
        L.append("  always_comb begin")
        L.append("    unique case (addr_i)")
        for off, e in sorted(words.items()):
            L.append(f"      {A}'d{off}: rdata_d = {e};")
        L.append("      default: rdata_d = 32'd0;")
        L.append("    endcase")
        L.append("  end")
    L.append("  always_ff @(posedge clk_i) rdata_q <= rdata_d;")
    L.append("  logic unused_wdata;  // not every register is 32 bits wide")
    L.append("  assign unused_wdata = ^wdata_i;")
    L.append("  assign rdata_o = rdata_q;")
    if links:
        L.append("  // link inputs are driven by the top's glue; not read here")
        L.append("  logic unused_links;")
        L.append(f"  assign unused_links = ^{{{', '.join('b_' + p.name for p in links)}}};")
    L.append("endmodule")
    return "\n".join(L) + "\n"


def slice_loaded(b):
    """Input columns whose block input is a register of the slice's own glue
    (acc_sv) that the trace player loads with the line (sreg ports): spl_on
    and spl_<name>, so that the block's input stays a register output with no
    multiplexer after it.  [(name, width, lsb in the line)]."""
    return [(n, w, lsb) for n, w, d, lsb in b.cols
            if d == "in" and n != "rst_ni" and b.port(n).sreg]


def wrapper_loaded(b):
    """Input columns whose block input is a wrapper register (reg, held valid,
    pulse; not a link or an ext port): while the trace player plays, the
    wrapper loads those registers with the line, so that the block's inputs
    stay register outputs.  [(name, width, lsb in the line)]."""
    out = []
    for n, w, d, lsb in b.cols:
        if d != "in" or n == "rst_ni":
            continue
        p = b.port(n)
        if p.role in ("reg", "valid", "pulse") and not p.ext:
            out.append((n, w, lsb))
    return out


def live_outputs(b):
    """Outputs the wrapper needs as they are (handshake readies, capture
    triggers and fields); every output is also read through its view v_."""
    used = {p.ready for p in b.ports if p.kind == "in" and p.role == "valid" and p.ready}
    for c in b.caps:
        used.add(c.trig)
        used.update(c.fields)
    return used


def slice_ports(b):
    """A slice's ports (fgs_<block>) but the trace player's: the bus, the
    links the top's glue drives (not the slice's own, local), the inputs
    the top may take over (h_ / x_), the exported outputs, the glue registers."""
    ports = ["  input  logic clk_i", "  input  logic rst_ni", "  input  logic we_i",
             f"  input  logic [{WIN_BITS - 1}:0] addr_i", "  input  logic [31:0] wdata_i",
             "  output logic [31:0] rdata_o"]
    for p in b.ports:
        if p.kind == "in" and p.role == "link" and p.local:
            continue
        if p.kind == "in" and p.role == "link":
            ports.append(f"  input  logic {rng(p.width)}{p.name}")
        elif p.kind == "in" and p.ext:
            ports.append(f"  output logic {rng(p.width)}h_{p.name}")
            ports.append(f"  input  logic {rng(p.width)}x_{p.name}")
        elif p.kind == "out" and p.export:
            ports.append(f"  output logic {rng(p.width)}{p.name}")
        elif p.kind == "aux_out":
            ports.append(f"  output logic {rng(p.width)}{p.name}_o")
        elif p.kind == "aux_in":
            ports.append(f"  input  logic {rng(p.width)}{p.name}_i")
    return ports


def wrapper_conns(b, live, v_conn):
    """A slice's connections to its register wrapper fgr_<block>: the bus, each
    block input (h_ for an input the slice drives), each output the window
    reads (v_<port>, connected as v_conn.format(port); "" by name), the glue
    registers."""
    conns = [".clk_i", ".rst_ni", ".we_i", ".addr_i", ".wdata_i", ".rdata_o"]
    for p in b.ports:
        if p.kind == "in" and p.ext:
            conns.append(f".b_{p.name}(h_{p.name})")
        elif p.kind == "in":
            conns.append(f".b_{p.name}")
            if p.role == "valid" and p.ready is None:
                conns.append(f".b_{p.name}_acc")
        elif p.kind == "out":
            if p.name in live:
                conns.append(f".b_{p.name}")
            conns.append(f".v_{p.name}" + v_conn.format(p.name))
        elif p.kind == "aux_out":
            conns.append(f".{p.name}_o")
        else:
            conns.append(f".{p.name}_i")
    return conns


def sv_slice(b):
    """fgs_<block>: the block and its register wrapper, every port connected.
    Link inputs are slice inputs; ext inputs leave as h_<port> (the host's
    value) and come back as x_<port> (what drives the block: the top's glue
    may choose another source); exported outputs are slice outputs too.

    PLAYER = 1: the trace player's port (fpga/fg_trace_player.sv).  While
    pl_on_i, every input of the block and its reset come from the trace line
    (pl_line_i): the wrapper's registers that drive the block take their
    columns (so those inputs stay register outputs, no multiplexer on their
    paths), the reset and the inputs the top's glue drives are registered
    here and multiplexed; the block's outputs are compared with the line's
    expected ones (registered: the expected values beside the block, one
    difference bit per output port, in the cycle the block shows them), and at the
    first difference the window's view of the outputs (what the host reads)
    freezes on the outputs of that cycle.
    PLAYER = 0: no player logic; the view is the outputs.
    A block without a player (Block.player False): sv_slice_noplayer."""
    if not b.player:
        return sv_slice_noplayer(b)
    L = ["// GENERATED by fpga/regmap.py from its tables; do not edit.",
         f"// {b.module} and its register wrapper fgr_{b.name}, every port connected;",
         "// with PLAYER = 1 the trace player's port in front of the block (docs/FPGA.md).",
         f"module fgs_{b.name} #("]
    if b.sparam:
        n, d, doc = b.sparam
        L.insert(-1, '`include "fg_assert.svh"')
        L += ["  parameter bit PLAYER = 1'b0,", f"  parameter int {n} = {d}  // {doc}", ") ("]
    else:
        L += ["  parameter bit PLAYER = 1'b0", ") ("]
    ports = slice_ports(b)
    # the trace player's port: on (the player drives the block), clr (a
    # replay starts), v (pl_line_i is a trace line), the line (rst_ni, inputs,
    # expected outputs); the first mismatch (one cycle) and its lowest output
    ports += ["  input  logic pl_on_i", "  input  logic pl_clr_i", "  input  logic pl_v_i",
              f"  input  logic [{b.lw - 1}:0] pl_line_i", "  input  logic [fg_regmap_pkg::PLAY_PASS_W-1:0] pl_pass_i",
              "  output logic pl_mm_o",
              "  output logic [7:0] pl_port_o"]
    L.append(",\n".join(ports))
    L.append(");")
    L.append("  // pl_*: the trace player's port (PLAYER = 1): pl_on_i the player drives the block,")
    L.append("  // pl_clr_i a replay starts, pl_v_i pl_line_i is a trace line (rst_ni, inputs,")
    L.append("  // expected outputs of the ports of pass pl_pass_i); pl_mm_o the first mismatch (one")
    L.append("  // cycle), pl_port_o its lowest output column.")
    live = live_outputs(b)
    for p in b.ports:
        if p.kind in ("in", "out") and not p.ext:
            L.append(f"  logic {rng(p.width)}b_{p.name};")
        if p.kind == "in":
            L.append(f"  logic {rng(p.width)}m_{p.name};  // what drives the block")
        if p.kind == "out":
            L.append(f"  logic {rng(p.width)}v_{p.name};  // what the window reads")
        if p.kind == "in" and p.role == "valid" and p.ready is None:
            L.append(f"  logic b_{p.name}_acc;")
    L.append("  logic m_rst_ni;")
    sregs = slice_loaded(b)
    if sregs:
        L.append("  logic spl_on;  // the trace player loads the slice's registers below (spl_*)")
        for n, w, _ in sregs:
            L.append(f"  logic {rng(w)}spl_{n};")
    for p in b.ports:
        if p.kind == "in" and p.role == "link" and not p.local:
            L.append(f"  assign b_{p.name} = {p.name};")
        if p.kind == "out" and p.export:
            L.append(f"  assign {p.name} = b_{p.name};")
    conns = wrapper_conns(b, live, "")
    npl_w = sum(w for _, w, _ in wrapper_loaded(b))
    L.append("  logic wpl_on;  // the trace player loads the wrapper's input registers")
    L.append(f"  logic [{npl_w - 1}:0] wpl_in;")
    conns += [".pl_on_i(wpl_on)", ".pl_in_i(wpl_in)"]
    L.append(f"  fgr_{b.name} u_regs (\n    " + ",\n    ".join(conns) + ");")
    fmt = dict(b.params, **{f"{k}_1": v - 1 for k, v in b.params.items()})
    L.append(b.acc_sv.rstrip("\n").format(**fmt)) if b.acc_sv else None

    def normal(n):
        if n == "rst_ni":
            return "rst_ni"
        p = b.port(n)
        return f"x_{n}" if p.ext else f"d_{n}" if p.lag else f"b_{n}"
    ins = [c for c in b.cols if c[2] == "in"]
    outs = [c for c in b.cols if c[2] == "out"]
    loaded = wrapper_loaded(b)
    lnames = {n for n, _, _ in loaded}
    snames = {n for n, _, _ in sregs}
    muxed = [c for c in ins if c[0] != "rst_ni" and c[0] not in lnames | snames]
    npl = sum(w for _, w, _ in loaded)
    nmx = sum(c[1] for c in muxed)
    ow, o0 = b.out_w, b.in_w
    m = {"rst_ni": "m_rst_ni"}

    def sl(v, lo, w):
        return f"{v}[{lo}]" if w == 1 else f"{v}[{lo + w - 1}:{lo}]"
    L.append("  if (PLAYER) begin : g_pl")
    L.append("    // The line's inputs: the wrapper's registers take their columns (the block's")
    L.append("    // inputs stay register outputs); the reset and the inputs the top's glue drives")
    L.append("    // (links, ext ports) are registered here and multiplexed in front of the block.")
    L.append("    logic on_q, v_q, clr_q, rst_q, m_rst_q;")
    if nmx:
        L.append(f"    logic [{nmx - 1}:0] pin_q;  // {', '.join(c[0] for c in muxed)}")
    L.append(f"    logic [{b.exp_w - 1}:0] pexp_q;  // the expected outputs of the line the block sees")
    if b.npass > 1:
        L.append("    logic [fg_regmap_pkg::PLAY_PASS_W-1:0] pass_q;  // the outputs compared: those of this pass "
                 "(static during a replay)")
    L.append("    always_ff @(posedge clk_i) begin")
    L.append("      on_q   <= pl_on_i;")
    L.append("      v_q    <= pl_v_i;")
    L.append("      clr_q  <= pl_clr_i;")
    L.append("      rst_q  <= pl_line_i[0];")
    L.append("      // the block's reset from a register (it reaches every flip-flop of the block):")
    L.append("      // the line's while the player plays, else the window's (a cycle later)")
    L.append("      m_rst_q <= pl_on_i ? pl_line_i[0] : rst_ni;")
    if nmx:
        L.append(f"      pin_q  <= {{{', '.join(sl('pl_line_i', c[3], c[1]) for c in reversed(muxed))}}};")
    L.append(f"      pexp_q <= pl_line_i[{b.lw - 1}:{o0}];")
    if b.npass > 1:
        L.append("      pass_q <= pl_pass_i;")
    L.append("    end")
    L.append("    assign wpl_on = on_q;  // a cycle after the player's, still before its first line")
    L.append(f"    assign wpl_in = {{{', '.join(sl('pl_line_i', lsb, w) for _, w, lsb in reversed(loaded))}}};")
    L.append("    assign m_rst_ni = m_rst_q;")
    if sregs:
        # the same edge as pin_q's: a cycle after pl_on_i and the line
        L.append("    assign spl_on = pl_on_i;  // the slice's registers take the line's columns")
        for n, w, lsb in sregs:
            L.append(f"    assign spl_{n} = {sl('pl_line_i', lsb, w)};")
    pos = 0
    for n, w, d, lsb in ins:
        if n == "rst_ni":
            continue
        if n in lnames and b.port(n).lag:   # the line loads b_<name>: no lag while it plays
            L.append(f"    assign m_{n} = on_q ? b_{n} : {normal(n)};")
        elif n in lnames or n in snames:
            L.append(f"    assign m_{n} = {normal(n)};")
        else:
            L.append(f"    assign m_{n} = on_q ? {sl('pin_q', pos, w)} : {normal(n)};")
            pos += w
    L.append("    // the block's outputs against the line's expected ones, a cycle after it shows")
    L.append("    // them: both registered first (out_q, pexp2_q: some outputs are adds of the")
    L.append("    // block's registers, and the compare of an add's carry chain was the top's")
    L.append("    // critical path, docs/FPGA_TIMING.md), one difference bit per output port,")
    L.append("    // registered; the view (hold_q) takes the registered outputs every cycle until a")
    L.append("    // difference, and keeps the differing cycle's after it")
    # several passes: only the pass's group is registered and held, each port at its
    # place in the pass's line (PASS is static during a replay, so the choice is
    # not on a timing path); registering all of them twice made the EKT's slice the
    # top's most congested part (docs/FPGA_TIMING.md)
    mp = b.npass > 1
    cw = b.exp_w if mp else ow

    def cpos(n, lsb):  # a port's place in out_q / hold_q
        return lsb - o0 if mp else b.col_olsb[n]
    L.append(f"    logic [{cw - 1}:0] out_q, hold_q;")
    L.append(f"    logic [{b.exp_w - 1}:0] pexp2_q;")
    L.append("    logic cmp, cmp_q, frz_q, mm_q, any_diff;")
    L.append(f"    logic [{len(outs) - 1}:0] diff_d, diff_q;")
    L.append("    logic [7:0] first, port_q;")
    L.append("    assign cmp = v_q && rst_q;  // not on reset lines")
    if b.npass > 1:
        L.append(f"    // {b.npass} passes: a port is compared in its own pass, against its place in that")
        L.append("    // pass's line (the host replays the trace once per pass)")
    for k, (n, w, d, lsb) in enumerate(outs):
        lo = lsb - o0
        g = f" && pass_q == {PLAY_PASS_W}'d{b.col_pass[n]}" if b.npass > 1 else ""
        L.append(f"    assign diff_d[{k}] = cmp_q{g} && ({sl('out_q', cpos(n, lsb), w)} != {sl('pexp2_q', lo, w)});")
    if mp:
        # each pass's group at its places, zeros between; a chain on pass_q
        grp = []
        for g in range(b.npass):
            parts, at = [], cw
            for n, w, d, lsb in sorted((c for c in outs if b.col_pass[c[0]] == g), key=lambda c: -c[3]):
                lo = lsb - o0
                if lo + w < at:
                    parts.append(f"{at - lo - w}'d0")
                parts.append(f"b_{n}")
                at = lo
            if at:
                parts.append(f"{at}'d0")
            grp.append(f"{{{', '.join(parts)}}}")
        sel = grp[-1]
        for g in range(b.npass - 2, -1, -1):
            sel = f"pass_q == {PLAY_PASS_W}'d{g} ? {grp[g]} :\n                 {sel}"
        L.append(f"    logic [{cw - 1}:0] grp_d;  // the outputs of pass pass_q")
        L.append(f"    assign grp_d = {sel};")
    L.append("    assign any_diff = (diff_q != '0);")
    L.append("    always_ff @(posedge clk_i) begin")
    L.append(f"      out_q   <= {'grp_d' if mp else '{' + ', '.join('b_' + n for n, _, _, _ in reversed(outs)) + '}'};")
    L.append("      pexp2_q <= pexp_q;")
    L.append("      cmp_q   <= cmp;")
    L.append("      diff_q  <= diff_d;")
    L.append("      if (!(frz_q || any_diff)) hold_q <= out_q;")
    L.append("    end")
    lowest_set(L, "diff_q", len(outs), "first")
    L.append("    always_ff @(posedge clk_i) begin")
    L.append("      if (!rst_ni || clr_q) begin")
    L.append("        frz_q <= 1'b0;")
    L.append("        mm_q  <= 1'b0;")
    L.append("      end else begin")
    L.append("        frz_q <= frz_q || any_diff;")
    L.append("        mm_q  <= !frz_q && any_diff;")
    L.append("      end")
    L.append("      port_q <= first;")
    L.append("    end")
    L.append("    assign pl_mm_o   = mm_q;")
    L.append("    assign pl_port_o = port_q;")
    for n, w, d, lsb in outs:
        if mp:  # the held value in its own pass after a difference, else the block's
            L.append(f"    assign v_{n} = frz_q && pass_q == {PLAY_PASS_W}'d{b.col_pass[n]} ? "
                     f"{sl('hold_q', cpos(n, lsb), w)} : b_{n};")
        else:
            L.append(f"    assign v_{n} = {sl('hold_q', cpos(n, lsb), w)};")
    if b.npass == 1:
        L.append("    logic unused_pass;  // one pass: every output in every replay")
        L.append("    assign unused_pass = ^pl_pass_i;")
    L.append("  end else begin : g_nopl")
    for n, w, d, lsb in ins:
        L.append(f"    assign {m.get(n, 'm_' + n)} = {normal(n)};")
    for n, w, d, lsb in outs:
        L.append(f"    assign v_{n} = b_{n};")
    L.append("    assign wpl_on    = 1'b0;")
    L.append("    assign wpl_in    = '0;")
    if sregs:
        L.append("    assign spl_on    = 1'b0;")
        for n, _, _ in sregs:
            L.append(f"    assign spl_{n} = '0;")
    L.append("    assign pl_mm_o   = 1'b0;")
    L.append("    assign pl_port_o = '0;")
    L.append("    logic unused_pl;")
    L.append("    assign unused_pl = ^{pl_on_i, pl_clr_i, pl_v_i, pl_line_i, pl_pass_i};")
    L.append("  end")
    prm = ", ".join(f".{k}({b.bparams.get(k, v)})" for k, v in b.params.items())
    bc = [".clk_i", ".rst_ni(m_rst_ni)"]
    if b.sparam:
        n, d, _ = b.sparam
        L.append(f"  `FG_ASSERT_PARAM(g_chk_player_{n.lower()}, !PLAYER || {n} == {d},")
        L.append(f"                   \"fgs_{b.name}: the trace player's lines are those of {n} = {d}\")")
        nin = [p.name for p in b.ports if p.kind == "in" and p.name in b.bw]
        L.append(f"  logic unused_{n.lower()};  // the registers' bits at and above the block's widths")
        L.append(f"  assign unused_{n.lower()} = ^{{{', '.join('m_' + x for x in nin)}}};")
        for p in b.ports:
            if p.kind == "out" and p.name in b.bw:
                L.append(f"  logic [{b.bw[p.name]}-1:0] n_{p.name};  // the block's width")
                L.append(f"  assign b_{p.name} = {p.width}'(n_{p.name});")
    for p in b.ports:
        w = b.bw.get(p.name)
        if p.kind == "in":
            bc.append(f".{p.name}(m_{p.name}[{w}-1:0])" if w else f".{p.name}(m_{p.name})")
        elif p.kind == "out":
            bc.append(f".{p.name}(n_{p.name})" if w else f".{p.name}(b_{p.name})")
    L.append(f"  {b.module} #({prm}) u_blk (\n    " + ",\n    ".join(bc) + ");")
    L.append("endmodule")
    return "\n".join(l for l in L if l is not None) + "\n"


def sv_slice_noplayer(b):
    """fgs_<block> of a block with no trace player: the block and its register
    wrapper, the slice's ports as sv_slice's without the player's port;
    PLAYER stays a parameter (instances name it) that must be 0."""
    assert not (b.sparam or b.acc_sv or
                any(p.local or p.lag or p.sreg or (p.role == "valid" and p.ready is None) for p in b.ports)), \
        f"{b.name}: a slice without the trace player has no slice parameter, glue, lag, local or _acc ports"
    L = ["// GENERATED by fpga/regmap.py from its tables; do not edit.",
         f"// {b.module} and its register wrapper fgr_{b.name}, every port connected;",
         "// no trace player (PLAYER must be 0; docs/FPGA.md).",
         '`include "fg_assert.svh"',
         f"module fgs_{b.name} #(",
         "  parameter bit PLAYER = 1'b0  // no trace player for this window: must be 0",
         ") ("]
    ports = slice_ports(b)
    L.append(",\n".join(ports))
    L.append(");")
    L.append(f"  `FG_ASSERT_PARAM(g_chk_player, !PLAYER, \"fgs_{b.name}: no trace player (PLAYER = 0)\")")
    live = live_outputs(b)
    for p in b.ports:
        if p.kind in ("in", "out") and not p.ext:
            L.append(f"  logic {rng(p.width)}b_{p.name};")
        if p.kind == "in" and p.role == "valid" and p.ready is None:
            L.append(f"  logic b_{p.name}_acc;")
    for p in b.ports:
        if p.kind == "in" and p.role == "link":
            L.append(f"  assign b_{p.name} = {p.name};")
        if p.kind == "out" and p.export:
            L.append(f"  assign {p.name} = b_{p.name};")
    conns = wrapper_conns(b, live, "(b_{})")  # the window reads the outputs as they are
    L.append(f"  fgr_{b.name} u_regs (\n    " + ",\n    ".join(conns) + ");")
    prm = ", ".join(f".{k}({v})" for k, v in b.params.items())
    bc = [".clk_i", ".rst_ni"]
    for p in b.ports:
        if p.kind == "in":
            bc.append(f".{p.name}(x_{p.name})" if p.ext else f".{p.name}(b_{p.name})")
        elif p.kind == "out":
            bc.append(f".{p.name}(b_{p.name})")
    L.append(f"  {b.module} #({prm}) u_blk (\n    " + ",\n    ".join(bc) + ");")
    L.append("endmodule")
    return "\n".join(L) + "\n"


def lowest_set(L, vec, n, out):
    """SV lines setting the 8-bit `out` to the index of the lowest set bit of
    vec[n-1:0] (0 when none) as a tree of 4-bit groups: a group's any and
    lowest index, then the lowest group with a bit set among four, and so on.
    A priority loop over the bits synthesizes to a chain of one LUT per bit;
    the tree has two to three LUT levels per level of four (docs/FPGA_TIMING.md)."""
    assert 1 <= n <= 256
    L.append(f"    // {out}: the lowest set bit of {vec}, a tree of 4-bit groups (fpga/regmap.py lowest_set)")
    cur = []
    for c, lo in enumerate(range(0, n, 4)):
        m = min(4, n - lo)
        a, i = f"ls0_any{c}", f"ls0_idx{c}"
        e = f"2'd{m - 1}"
        for k in range(m - 2, -1, -1):
            e = f"{vec}[{lo + k}] ? 2'd{k} : {e}"
        L.append(f"    logic {a};")
        L.append(f"    logic [1:0] {i};")
        L.append(f"    assign {a} = |{vec}[{lo + m - 1}:{lo}];")
        L.append(f"    assign {i} = {e};")
        cur.append((a, i))
    lvl, w = 0, 2
    while len(cur) > 1:
        lvl += 1
        nxt = []
        for g, s0 in enumerate(range(0, len(cur), 4)):
            ch = cur[s0:s0 + 4]
            a, sel, i = f"ls{lvl}_any{g}", f"ls{lvl}_sel{g}", f"ls{lvl}_idx{g}"
            e = f"2'd{len(ch) - 1}"
            for k in range(len(ch) - 2, -1, -1):
                e = f"{ch[k][0]} ? 2'd{k} : {e}"
            mux = f"{ch[-1][1]}"
            for k in range(len(ch) - 2, -1, -1):
                mux = f"{sel} == 2'd{k} ? {ch[k][1]} : {mux}"
            L.append(f"    logic {a};")
            L.append(f"    logic [1:0] {sel};")
            L.append(f"    logic [{w + 1}:0] {i};")
            L.append(f"    assign {a} = {' || '.join(c[0] for c in ch)};")
            L.append(f"    assign {sel} = {e};")
            L.append(f"    assign {i} = {{{sel}, {mux}}};")
            nxt.append((a, i))
        cur, w = nxt, w + 2
    L.append(f"    assign {out} = {cur[0][0]} ? 8'({cur[0][1]}) : 8'd0;")


def word_expr(sig, w, k):
    lo = 32 * k
    hi = min(w, lo + 32) - 1
    n = hi - lo + 1
    if w == 1:
        return f"32'({sig})"
    s = f"{sig}[{hi}:{lo}]"
    return s if n == 32 else f"32'({s})"


# -------------------------------------------------------------------- C gen
def cname(s):
    return re.sub(r"_(i|o)$", "", s).upper()


def reg_names(b):
    """C register names: the port name without _i / _o, upper case; where an
    input and an output would share one, INx / OUTx suffixes (_IN / _OUT)."""
    base = {p.name: cname(p.name) for p in b.ports}
    seen = {}
    for p in b.ports:
        seen.setdefault(base[p.name], []).append(p)
    names = {}
    for n, ps in seen.items():
        for p in ps:
            names[p.name] = n if len(ps) == 1 else n + ("_IN" if p.kind.endswith("in") else "_OUT")
    assert len(set(names.values())) == len(names), b.name
    return names


def c_header(blocks):
    L = ["/* GENERATED by fpga/regmap.py from its tables; do not edit.",
         " * The FPGA top's register map (docs/FPGA.md).  Addresses are byte addresses",
         " * as LiteX's RemoteClient / wishbone-tool use them (the UARTBone wire carries",
         " * address / 4).  A block register is FG_WIN_<WINDOW> + FGR_<BLOCK>_<REG>. */",
         "#ifndef FG_REGMAP_H", "#define FG_REGMAP_H", "", "#include <stdint.h>", "",
         f"#define FG_ID 0x{ID_VALUE:08X}u",
         f"#define FG_VERSION 0x{VERSION[0] << 16 | VERSION[1] << 8:08X}u",
         f"#define FG_MAP_HASH 0x{map_hash(blocks):08X}u",
         f"#define FG_WIN_BYTES {4 << WIN_BITS}u",
         f"#define FG_NCORES {NCORES}u",
         "/* warp slots of core c's preemption controller (SYS CORE_NW byte c) */",
         f"#define FG_PRE_CORE_NW(c) ((0x{sum(n << 8 * i for i, n in enumerate(PRE_CORE_NW)):08X}u >> (8u * (c))) & 0xFFu)",
         ""]
    for wname, b, win, _ in windows(blocks):
        L.append(f"#define FG_WIN_{wname} 0x{win << (WIN_BITS + 2):05X}u")
    L.append(f"#define FG_WIN_PEWT(n) (FG_WIN_PEWT0 + (n) * FG_WIN_BYTES)")
    L.append(f"#define FG_WIN_PRE(n) (FG_WIN_PRE0 + (n) * FG_WIN_BYTES)")
    L.append("/* every block window: X(name as the host tools spell it, FG_WIN_ base, block) */")
    L.append("#define FG_BLOCK_WINDOWS(X) \\")
    L += [f"    X(\"{w.lower()}\", FG_WIN_{w}, {b.name}) \\" for w, b, _, _ in windows(blocks) if b]
    L.append("")
    L.append("")
    for name, off, acc, doc in SYS_REGS:
        L.append(f"#define FG_SYS_{name} 0x{off * 4:03X}u /* {acc}: {doc} */")
    L.append("")
    L.append("/* The trace player's window (docs/FPGA.md, \"The trace player\") */")
    for name, off, acc, doc in PLAY_REGS:
        L.append(f"#define FG_PLAY_{name} 0x{off * 4:03X}u /* {acc}: {doc} */")
    L.append("#define FG_PLAY_CTRL_START (1u << 0)")
    L.append("#define FG_PLAY_CTRL_STOP (1u << 1)")
    for n, bit in (("BUSY", 0), ("DONE", 1), ("MISMATCH", 2), ("STOPPED", 3), ("REFUSED", 4)):
        L.append(f"#define FG_PLAY_ST_{n} (1u << {bit})")
    L.append(f"#define FG_PLAY_NROWS {max(r for _, r in PLAY_TIERS)}u /* rows of the deepest banks */")
    L.append(f"#define FG_PLAY_NWORDS {play_nbanks(blocks)}u /* 32-bit words per row */")
    L.append(f"#define FG_PLAY_HDR_W {PLAY_HDR_W}u /* row header: run - 1 in [14:0], [15] run of one */")
    L.append(f"#define FG_PLAY_RUN_MAX {PLAY_RUN_MAX}u /* cycles one row holds at most */")
    L.append("")
    for pfx, P in (("EKT", P_EKT), ("DB", P_DB), ("PEWT", P_PEWT), ("PRE", P_PRE), ("FE", P_FE), ("CM", P_CM)):
        for k, v in P.items():
            L.append(f"#define FG_P_{pfx}_{k} {v}u")
    L.append("")
    L.append("/* One register of a window: byte offset, width in bits (words = (width + 31) / 32,")
    L.append(" * word k holds bits 32k..32k+31), access ('w' written by the host, 'r' read only), reset value.")
    L.append(" * The name is the block port's (or the top glue's) name. */")
    L.append("typedef struct { const char *name; uint32_t off; unsigned width; char acc; uint64_t rst; } fg_reg_desc;")
    L.append("")
    for b in blocks:
        L += c_block(b, PFX[b.name])
    L.append("/* The trace player's blocks: the columns of a trace line in the order FG_TRACE_DIR")
    L.append(" * writes them (rst_ni, inputs, outputs) and where each sits in a row (lsb from bit")
    L.append(" * FG_PLAY_HDR_W; an output in the row of its pass: every pass holds all the inputs and")
    L.append(" * the outputs of that pass); the verilated model whose traces replay here (its")
    L.append(" * parameters are the FPGA's); the window that shows the block's outputs. */")
    L.append("typedef struct { const char *name; unsigned width; char dir; unsigned lsb, pass; } fg_play_col;")
    L.append("typedef struct {")
    L.append("    const char *name, *model, *window;")
    L.append("    unsigned index;      /* SEL */")
    L.append("    uint32_t win;        /* the window of the instance played */")
    L.append("    unsigned ncols, nout, words, line_bits;")
    L.append("    unsigned rows;       /* rows it can play (the depth of its last word's bank) */")
    L.append("    unsigned passes;     /* replays that compare every output: PASS 0 .. passes - 1 */")
    L.append("    const fg_play_col *cols;")
    L.append("    const fg_reg_desc *regs;")
    L.append("    unsigned nregs;")
    L.append("} fg_play_block;")
    for b in blocks:
        L.append(f"static const fg_play_col fg_play_cols_{b.name}[] = {{")
        for n, w, d, lsb in b.cols:
            L.append(f"    {{\"{n}\", {w}u, '{'i' if d == 'in' else 'o'}', {lsb}u, {b.col_pass.get(n, 0)}u}},")
        L.append("};")
    L.append("static const fg_play_block fg_play_blocks[] = {")
    for b in blocks:
        w = PLAY_WIN[b.name]
        L.append(f"    {{\"{b.name}\", \"{b.model}\", \"{w}\", {b.play_idx}u, FG_WIN_{w}, {len(b.cols)}u, {b.nout}u, "
                 f"{b.wpr}u, {b.lw}u, {play_rows(b, play_nbanks(blocks))}u, {b.npass}u, fg_play_cols_{b.name}, "
                 f"fgr_{b.name}_regs, "
                 f"sizeof fgr_{b.name}_regs / sizeof *fgr_{b.name}_regs}},")
    L.append("};")
    L.append(f"#define FG_PLAY_NBLOCKS {len(blocks)}u")
    L.append("")
    L.append("#endif")
    return "\n".join(L) + "\n"


def c_block(b, B):
    """C defines of one block window (FGR_<B>_*) and its register table."""
    L = []
    L.append(f"/* ---- {b.name}: {b.doc} */")
    L.append(f"#define FGR_{B}_CTRL 0x000u")
    rn = reg_names(b)
    for p in b.ports:
        if p.bit is not None:
            L.append(f"#define FGR_{B}_CTRL_{rn[p.name]} (1u << {p.bit}) /* {p.role} */")
    for c in b.caps:
        if c.depth:
            L.append(f"#define FGR_{B}_CTRL_POP_{c.name.upper()} (1u << {c.bit})")
    for c in b.caps:
        if c.depth:
            L.append(f"#define FGR_{B}_{c.name.upper()}_STAT 0x{c.stat_off * 4:03X}u "
                     f"/* [7:0] entries, [31:16] dropped */")
        L.append(f"#define FGR_{B}_{c.name.upper()}_EVENTS 0x{c.ev_off * 4:03X}u")
        for f in c.fields:
            L.append(f"#define FGR_{B}_{c.name.upper()}_{cname(f)} 0x{c.field_off[f] * 4:03X}u")
    for p in b.ports:
        if p.off is not None:
            L.append(f"#define FGR_{B}_{rn[p.name]} 0x{p.off * 4:03X}u /* {p.width} b */")
    L.append(f"#define FGR_{B}_NREGS {sum(1 for p in b.ports if p.off is not None)}u")
    L.append(f"#define FGR_{B}_NWORDS {b.nwords}u /* words in use from offset 0 */")
    L.append(f"static const fg_reg_desc fgr_{b.name}_regs[] = {{")
    for p in b.ports:
        if p.off is not None:
            acc = "r" if p.kind in ("out", "aux_in") else "w"
            L.append(f"    {{\"{p.name}\", 0x{p.off * 4:03X}u, {p.width}u, '{acc}', 0x{p.rst:x}ull}},")
    L.append("};")
    L.append("")
    return L


# ---------------------------------------------------------------- SIMT top
# The SIMT top's own window (fpga/fg_simt_ctl.sv) and memory region, and the
# top's defaults (fpga/finegrain_simt_ulx3s.sv): fpga/gen/fg_simt_pkg.sv and
# fg_regmap_simt.h.
SIMT_WIN = 7                  # a window the FPGA top leaves empty
SIMT_ID_VALUE = 0x53494D54    # "SIMT"
SIMT_NW, SIMT_NL = 4, 4       # warp slots, lanes of the board's core
SIMT_STACK = 128              # per-thread local memory (bytes; t_preempt's frame is 80)
SIMT_MEM = 368 * 1024         # block RAM for kernels and data (184 DP16KD)
SIMT_MEM_LAT = 3              # cycles from a read taken to its data (fg_simt_mem's pipeline)
SIMT_MEM_WBASE = 1 << 20      # bus word address of memory byte 0 (host byte address 4 MiB)
SIMT_MEM_WBITS = 20           # the region: word addresses with bits [31:20] = 1
SIMT_REC_DEPTH = 32           # event records the host has not read
SIMT_PRE_CFG_RESET = 0x1      # controller on, policy 0, no flush options
SIMT_REGS = [  # name, word offset, access, doc
    ("ID", 0, "ro", f"0x{SIMT_ID_VALUE:08X} (\"SIMT\")"),
    ("PARAMS", 1, "ro", "NW [7:0], NL [15:8], GTO [16], PEWT entries [31:24]"),
    ("MEM_BYTES", 2, "ro", "bytes of memory (physical [0, MEM_BYTES))"),
    ("STACK_BYTES", 3, "ro", "local memory per thread"),
    ("CTRL", 4, "wo", "bit 0 LAUNCH the background grid, bit 1 CLEAR counters, errors and records, and stop a check"),
    ("STATUS", 5, "ro", "bits: see FG_SIMT_ST_*"),
    ("LOCAL_BASE", 6, "rw", "physical address of the 2 x NW local windows (NW x 32 x 2 x STACK_BYTES)"),
    ("SAVE_BASE", 7, "rw", "physical address of the save area (a parked victim's PCs and registers)"),
    ("SAVE_MASK", 8, "rw", "registers an event may write (saved when the victim wrote them)"),
    ("PRE_CFG", 9, "rw", "controller: enable [0], policy [2:1], flush options [7:4] ([preempt])"),
    ("PRE_COST", 10, "rw", "save / restore cycles: base [15:0], per register [23:16]"),
    ("EV_REGS", 11, "rw", "registers per event thread told to the controller"),
    ("BG_PC", 12, "rw", "background kernel entry"),
    ("BG_PARAM", 13, "rw", "background parameter block"),
    ("BG_NCTA", 14, "rw", "background one-warp blocks"),
    ("BG_NTID", 15, "rw", "threads per background block (1..32)"),
    ("BG_LAUNCHED", 16, "ro", "background warps launched"),
    ("BG_DONE", 17, "ro", "background warps done"),
    ("EV_DONE", 18, "ro", "events completed"),
    ("CNT_START_FREE", 19, "ro", "events started in a free slot"),
    ("CNT_START_PRE", 20, "ro", "events started in a preempted warp's slot"),
    ("CNT_RESUME", 21, "ro", "victims resumed"),
    ("CNT_ABORT", 22, "ro", "flushes aborted"),
    ("FAULTS", 23, "ro", "warps stopped by a fault"),
    ("REC_COUNT", 24, "ro", "event records waiting"),
    ("REC_TAG", 25, "rw", "head record: the event's tag ({sequence, doorbell id}; all ones: none); write: pop"),
    ("REC_CYCLES", 26, "ro", "head record: cycles from the PEWT push to the completion"),
    ("REC_END", 27, "ro", "head record: the completion's cycle (the window's counter)"),
    ("FAULT", 28, "ro", "first fault: code [2:0], slot [15:8], event warp [16]"),
    ("FAULT_PC", 29, "ro", "first fault's pc"),
    ("MEM_ERR_ADDR", 30, "ro", "first access outside the memory"),
    ("ERR_CODE", 31, "ro", "first PEWT / controller error {pewt [3:2], controller [1:0]}"),
    ("FILL_ADDR", 32, "rw", "fill: first byte address (word aligned)"),
    ("FILL_VALUE", 33, "rw", "fill: the word written"),
    ("FILL_COUNT", 34, "rw", "fill: write = words to fill (starts it); read = words left"),
    ("CHK_ADDR", 35, "rw", "check: first byte address (word aligned)"),
    ("CHK_COUNT", 36, "rw", "check: write = words to sum (starts it, the sums from 0); read = words not yet summed"),
    ("CHK_SUM", 37, "ro", "check: the words' sum (mod 2^32; Fletcher's first sum)"),
    ("CHK_SUM2", 38, "ro", "check: the sum of the running sums (mod 2^32; Fletcher's second)"),
]
SIMT_CTRL_BITS = [("LAUNCH", 0), ("CLEAR", 1)]
SIMT_ST_BITS = [("BUSY", 0, "the core holds a warp"), ("LAUNCHING", 1, "the grid launcher runs"),
                ("MEM_ERR", 2, "an access outside the memory (MEM_ERR_ADDR)"),
                ("FAULT", 3, "a warp faulted (FAULT, FAULT_PC)"),
                ("EV_BAD", 4, "an event the core cannot run (not one block of one warp, or shared memory) was refused"),
                ("ERR", 5, "the PEWT or the controller flagged an error (ERR_CODE)"),
                ("REC_LOST", 6, "an event record found the record FIFO full"),
                ("FILLING", 7, "the fill engine runs"),
                ("REFUSED", 8, "a LAUNCH (grid running or shape bad), FILL_COUNT (fill running) or CHK_COUNT "
                 "(check running) refused"),
                ("CPL_LOST", 9, "a completion found the EKT's queue full"),
                ("CHECKING", 10, "the check engine runs")]


def sv_simt_pkg():
    L = ["// GENERATED by fpga/regmap.py from its tables; do not edit.",
         "// The SIMT top's window (fpga/fg_simt_ctl.sv), memory region and defaults.",
         "package fg_simt_pkg;",
         f"  localparam int WIN_SIMT = {SIMT_WIN};",
         f"  localparam int SIMT_NW = {SIMT_NW};",
         f"  localparam int SIMT_NL = {SIMT_NL};",
         f"  localparam int SIMT_STACK = {SIMT_STACK};",
         f"  localparam int SIMT_MEM = {SIMT_MEM};",
         f"  localparam int SIMT_MEM_LAT = {SIMT_MEM_LAT};",
         f"  localparam int MEM_WBASE = 32'h{SIMT_MEM_WBASE:08X};",
         f"  localparam int MEM_WBITS = {SIMT_MEM_WBITS};",
         f"  localparam int SIMT_REC_DEPTH = {SIMT_REC_DEPTH};",
         f"  localparam int EKT_ADDR_W = {P_EKT['ADDR_W']};  // the EKT's descriptor widths",
         f"  localparam int EKT_DIM_W = {P_EKT['DIM_W']};",
         f"  localparam logic [31:0] SIMT_ID_VALUE = 32'h{SIMT_ID_VALUE:08X};",
         f"  localparam logic [31:0] SIMT_PRE_CFG_RESET = 32'h{SIMT_PRE_CFG_RESET:X};"]
    for name, off, acc, doc in SIMT_REGS:
        L.append(f"  localparam logic [{WIN_BITS - 1}:0] SIMT_{name} = {WIN_BITS}'d{off};  // {acc}: {doc}")
    for name, bit in SIMT_CTRL_BITS:
        L.append(f"  localparam int SIMT_CTRL_{name} = {bit};")
    for name, bit, doc in SIMT_ST_BITS:
        L.append(f"  localparam int SIMT_ST_{name} = {bit};  // {doc}")
    L.append(f"  localparam int SIMT_ST_W = {max(b for _, b, _ in SIMT_ST_BITS) + 1};")
    L.append("endpackage")
    return "\n".join(L) + "\n"


def c_simt_regs():
    L = ["", "/* ---- the SIMT window (fpga/fg_simt_ctl.sv) and the memory region */",
         f"#define FG_WIN_SIMT 0x{SIMT_WIN << (WIN_BITS + 2):05X}u",
         f"#define FG_SIMT_MEM_BASE 0x{SIMT_MEM_WBASE * 4:08X}u /* host byte address of memory byte 0 */",
         f"#define FG_SIMT_ID_VALUE 0x{SIMT_ID_VALUE:08X}u",
         f"#define FG_SIMT_REC_DEPTH {SIMT_REC_DEPTH}u"]
    for name, off, acc, doc in SIMT_REGS:
        L.append(f"#define FG_SIMT_{name} 0x{off * 4:03X}u /* {acc}: {doc} */")
    for name, bit in SIMT_CTRL_BITS:
        L.append(f"#define FG_SIMT_CTRL_{name} (1u << {bit})")
    for name, bit, doc in SIMT_ST_BITS:
        L.append(f"#define FG_SIMT_ST_{name} (1u << {bit}) /* {doc} */")
    return L


def c_header_simt(simt):
    """fpga/gen/fg_regmap_simt.h: the SIMT top's windows that fg_regmap.h does not have."""
    L = ["/* GENERATED by fpga/regmap.py from its tables; do not edit.",
         " * Register windows of the SIMT top (fpga/finegrain_simt_ulx3s.sv) that the FPGA top's",
         " * map (fg_regmap.h) does not have: offsets within a window (the window bases are",
         " * that top's).  Byte offsets, as in fg_regmap.h. */",
         "#ifndef FG_REGMAP_SIMT_H", "#define FG_REGMAP_SIMT_H", "",
         "#include \"fg_regmap.h\" /* fg_reg_desc, FG_P_*, the windows these are laid out like */", ""]
    for b in simt:
        r, B = b.like, b.pfx
        if r is not None:
            R, mine, rrn = PFX[r.name], {p.name: p for p in b.ports}, reg_names(r)
            free = [f"FGR_{R}_CTRL_{rrn[q.name]}" for q in r.ports
                    if q.bit is not None and getattr(mine.get(q.name), "bit", None) != q.bit]
            free += [f"FGR_{R}_{rrn[q.name]}" for q in r.ports
                     if q.off is not None and getattr(mine.get(q.name), "off", None) != q.off]
            L.append(f"/* {b.name} is laid out like {r.name}: every FGR_{B}_* with an FGR_{R}_* namesake")
            L.append(f" * has its offset / CTRL bit (the host library's FGR_{R}_* code works on this")
            L.append(f" * window too).  Not here: {', '.join(free) if free else 'none'}. */")
        L += c_block(b, B)
    L += c_simt_regs()
    L.append("#endif")
    return "\n".join(L) + "\n"


# the window of the block instance the player drives
PLAY_WIN = {"edge_doorbell": "DB", "edge_ekt": "EKT", "fe_sched_queues": "FE", "cm_bal_monitor": "CM",
            "edge_pewt": "PEWT0", "edge_preempt": "PRE0"}


# ------------------------------------------------------------------ doc gen
def doc_table(blocks):
    L = ["| window | byte base | what |", "|---|---|---|"]
    for wname, b, win, doc in windows(blocks):
        L.append(f"| `{wname}` | 0x{win << (WIN_BITS + 2):05X} | {doc} |")
    L += ["", "`SYS` window:", "", "| byte offset | register | access | meaning |", "|---|---|---|---|"]
    for name, off, acc, doc in SYS_REGS:
        L.append(f"| 0x{off * 4:03X} | `{name}` | {acc} | {doc.replace('|', 'OR')} |")
    L += ["", "`PLAY` window (`fpga/fg_trace_player.sv`):", "",
          "| byte offset | register | access | meaning |", "|---|---|---|---|"]
    for name, off, acc, doc in PLAY_REGS:
        L.append(f"| 0x{off * 4:03X} | `{name}` | {acc} | {doc} |")
    nb = play_nbanks(blocks)
    tiers = ", ".join(f"words {a}..{b - 1}: {d} rows" for a, b, d in
                      [(0 if i == 0 else min(PLAY_TIERS[i - 1][0], nb), min(e or nb, nb), d)
                       for i, (e, d) in enumerate(PLAY_TIERS)] if b > a)
    L += ["", f"Trace memory: rows of {nb} 32-bit words, one block-RAM bank per word, in depth tiers "
          f"({tiers}; {play_bram(nb)} DP16KD). The blocks, the traces they replay and their rows:", "",
          "| SEL | block | window | trace model | columns | bits a line | words per row | rows | passes |",
          "|---|---|---|---|---|---|---|---|---|"]
    for b in blocks:
        L.append(f"| {b.play_idx} | `{b.name}` | `{PLAY_WIN[b.name]}` | `{b.model}` | {len(b.cols)} "
                 f"(1 + {len(b.cols) - 1 - b.nout} in, {b.nout} out) | {b.lw} | {b.wpr} | {play_rows(b, nb)} "
                 f"| {b.npass} |")
    for b in blocks:
        L += ["", f"`{b.name}` window (`fpga/gen/fgr_{b.name}.sv`):", "",
              "| byte offset | register | bits | access |", "|---|---|---|---|"]
        bits = []
        for p in b.ports:
            if p.bit is not None:
                bits.append(f"{p.bit} {p.name} ({p.role})")
        for c in b.caps:
            if c.depth:
                bits.append(f"{c.bit} pop {c.name}")
        L.append(f"| 0x000 | `CTRL` | strobes: {', '.join(bits)} | w strobe / r pending |")
        for c in b.caps:
            if c.depth:
                L.append(f"| 0x{c.stat_off * 4:03X} | `{c.name.upper()}_STAT` | [7:0] entries, [31:16] dropped | r |")
            L.append(f"| 0x{c.ev_off * 4:03X} | `{c.name.upper()}_EVENTS` | 32 ({c.doc}) | r |")
            for f in c.fields:
                L.append(f"| 0x{c.field_off[f] * 4:03X} | `{c.name.upper()}_{cname(f)}` | "
                         f"{b.port(f).width} (FIFO head) | r |")
        for p in b.ports:
            if p.off is None:
                continue
            acc = {"out": "r", "aux_in": "r"}.get(p.kind, "rw")
            what = p.name
            notes = []
            if p.kind == "in" and p.role == "pulse":
                notes.append("staged; driven for one cycle by its strobe")
            if p.lag:
                notes.append("the block takes it a cycle later")
            if notes:
                what += f" ({'; '.join(notes)})"
            if p.kind.startswith("aux"):
                what += f" (top glue: {p.doc})"
            L.append(f"| 0x{p.off * 4:03X} | `{reg_names(b)[p.name]}` | {p.width} | {acc} — {what} |")
        links = [p.name for p in b.ports if p.kind == "in" and p.role == "link" and not p.local]
        if links:
            L.append(f"\nDriven by the top, not by a register: {', '.join('`' + n + '`' for n in links)}.")
        for p in b.ports:
            if p.kind == "in" and p.role == "link" and p.local:
                src = ("the bits of slot `victim_o` (read in FLUSH)" if p.name.startswith("v_") else
                       "the bits of the winner (`grp_win_o`) of the group `pick_grp_o` names, i.e. of the "
                       "pick (read at the selection's step 5)")
                L.append(f"\n`{p.name}` = `{p.doc}`: no window register; the slice's glue, as the SIMT "
                         f"core reports the warp in slot `victim_o`, registered a cycle ahead from the "
                         f"window's w_* registers (which the block takes a cycle later): {src}.")
    return "\n".join(L) + "\n"


BEGIN = "<!-- regmap: generated by fpga/regmap.py, do not edit -->"
END = "<!-- /regmap -->"
BEGIN_SIMT = "<!-- regmap-simt: generated by fpga/regmap.py, do not edit -->"
END_SIMT = "<!-- /regmap-simt -->"


def doc_simt_table():
    """The SIMT window's registers and status bits, for docs/FPGA.md "The SIMT top"."""
    L = [f"SIMT window (`FG_WIN_SIMT` 0x{SIMT_WIN << (WIN_BITS + 2):05X}, fpga/fg_simt_ctl.sv; "
         f"`FG_SIMT_*` in fpga/gen/fg_regmap_simt.h):", "",
         "| offset | register | access | what |", "|---|---|---|---|"]
    L += [f"| 0x{off * 4:03X} | `{name}` | {acc} | {doc} |" for name, off, acc, doc in SIMT_REGS]
    L += ["", "`CTRL` bits: " + ", ".join(f"{b} `{n}`" for n, b in SIMT_CTRL_BITS) + ".  `STATUS` bits:", "",
          "| bit | name | set while / when |", "|---|---|---|"]
    L += [f"| {b} | `{n}` | {doc} |" for n, b, doc in SIMT_ST_BITS]
    return "\n".join(L) + "\n"


def outputs(blocks, simt):
    out = {os.path.join(GEN, "fg_regmap_pkg.sv"): sv_pkg(blocks),
           os.path.join(GEN, "fg_regmap.h"): c_header(blocks),
           os.path.join(GEN, "fg_regmap_simt.h"): c_header_simt(simt),
           os.path.join(GEN, "fg_simt_pkg.sv"): sv_simt_pkg()}
    for b in blocks + simt:
        out[os.path.join(GEN, f"fgr_{b.name}.sv")] = sv_wrapper(b)
        out[os.path.join(GEN, f"fgs_{b.name}.sv")] = sv_slice(b)
    doc = os.path.join(ROOT, "docs", "FPGA.md")
    if os.path.exists(doc):
        text = open(doc).read()
        if BEGIN in text and END in text:
            a, rest = text.split(BEGIN, 1)
            _, z = rest.split(END, 1)
            text = a + BEGIN + "\n" + doc_table(blocks) + END + z
        if BEGIN_SIMT in text and END_SIMT in text:
            a, rest = text.split(BEGIN_SIMT, 1)
            _, z = rest.split(END_SIMT, 1)
            text = a + BEGIN_SIMT + "\n" + doc_simt_table() + END_SIMT + z
        out[doc] = text
    return out


def main():
    blocks = build()
    simt = build_simt(blocks)
    errs = check_twins(blocks + simt)
    if errs:
        print("regmap: " + "\n regmap: ".join(errs), file=sys.stderr)
        return 1
    out = outputs(blocks, simt)
    if "--check" in sys.argv:
        stale = [p for p, t in out.items() if not os.path.exists(p) or open(p).read() != t]
        for p in stale:
            print(f"regmap: {os.path.relpath(p, ROOT)} is not current: run fpga/regmap.py", file=sys.stderr)
        if not stale:
            print("regmap: generated files current; every block port covered")
        return 1 if stale else 0
    os.makedirs(GEN, exist_ok=True)
    for p, t in out.items():
        if not os.path.exists(p) or open(p).read() != t:
            open(p, "w").write(t)
            print(f"regmap: wrote {os.path.relpath(p, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
