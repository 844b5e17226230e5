// F/E trigger check for the head of one scheduler queue (F/E paper Sec. 4.1,
// 4.3).  Purely combinational, used inside fe_sched_queues only.  The check of
// the bits is registered by the scheduler (timing): sat_o is the check of
// the bits the head will have at the next edge, and the leave
// decision uses the registered result (chk_valid_i, chk_sat_i) of the check
// made one cycle before.
//   need_o    - the head must see its line's F/E bits before it can leave:
//               it is in the tracked region and has a trigger or an action
//               (an action is a read-modify-write of the line's bits);
//               computed at intake (need_i, the head entry's flag: 0 while
//               the queue is empty, as fg_fifo's data_o is, so the queue's
//               count is not on this path).  free_i is the opposite
//               for a head that is there (the non-triggered queue's entries
//               carry it; 0 in the triggered queues, whose entries all need
//               their bits).
//   sat_o     - every masked word of the bits the head has at the next edge
//               (snoop_bits_i on a snoop hit, else bits_i) satisfies the
//               trigger (a coalesced request proceeds only when all its bits
//               are ready, Sec. 4.1).
//   ok_o      - the head may leave now: no bits needed, or a registered check
//               of its bits is valid and satisfied (a valid check implies a
//               head that needs bits).
//   blocked_o - a registered check is valid and NOT satisfied: the head stalls
//               its queue until another queue's action releases it (4.3).
`include "fg_assert.svh"
`include "fg_enum.svh"
module fe_trigger_check #(
  parameter int WORDS = 32
) (
  input  logic             free_i,       // a head is there and needs no bits (from intake)
  input  logic             need_i,       // in the region with a trigger or an action (from intake)
  input  logic [1:0]       trig_i,       // 0 none, 1 wait-full, 2 wait-empty
  input  logic [WORDS-1:0] mask_i,
  input  logic [WORDS-1:0] bits_i,       // the head bits (register)
  input  logic [WORDS-1:0] snoop_bits_i, // a write to the head's line this cycle
  input  logic             snoop_hit_i,  // ... which the head bits take at the edge
  input  logic             chk_valid_i,  // registered check of the head's bits valid
  input  logic             chk_sat_i,    // its result
  output logic             need_o,
  output logic             sat_o,        // the check of the bits at the next edge
  output logic             snoop_sat_o,  // the check of snoop_bits_i
  output logic             ok_o,
  output logic             blocked_o
);
  `FG_IMPORT(fe_pkg)
  `FG_ASSERT_PARAM(g_chk_words, WORDS >= 1 && WORDS <= 64, "fe_trigger_check: WORDS must be 1..64")
  // both checks computed side by side, the snoop's hit only picks one (the
  // hit compare is not in front of the 32-bit reductions).  The trigger and
  // mask are arguments, not read from the module: a continuous assignment is
  // re-evaluated only when its operands change, so an event-driven simulator
  // would keep a stale check when the head changes (docs/RTL_STYLE.md).
  function automatic logic check(input logic [1:0] trig, input logic [WORDS-1:0] mask,
                                 input logic [WORDS-1:0] b);
    check = (trig == fe_pkg::FE_TRIG_FULL)  ? ((b & mask) == mask) :
            (trig == fe_pkg::FE_TRIG_EMPTY) ? ((b & mask) == '0) : 1'b1;
  endfunction
  logic held_sat;
  assign held_sat    = check(trig_i, mask_i, bits_i);
  assign snoop_sat_o = check(trig_i, mask_i, snoop_bits_i);
  assign sat_o       = snoop_hit_i ? snoop_sat_o : held_sat;
  assign need_o = need_i;
  assign ok_o   = free_i || (chk_valid_i && chk_sat_i);
  assign blocked_o = chk_valid_i && !chk_sat_i;  // (a valid check is of a head needing bits)
endmodule
