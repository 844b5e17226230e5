// F/E trigger check (F/E paper Sec. 4.1, 4.3): does a line's F/E bits satisfy
// a request's trigger?  Purely combinational, used inside fe_sched_queues only
// (three per queue head: on the bits a lookup returns, on the bits a write
// snoops, and on the head-bit register for an assertion).
//   sat_o - every masked word satisfies the trigger: wait-full (1) all masked
//           bits full, wait-empty (2) all masked bits empty, none (0, 3)
//           always (a coalesced request proceeds only when all its bits are
//           ready, Sec. 4.1).
module fe_trigger_check #(
  parameter int WORDS = 32
) (
  input  logic [1:0]       trig_i,       // 0 none, 1 wait-full, 2 wait-empty
  input  logic [WORDS-1:0] mask_i,
  input  logic [WORDS-1:0] bits_i,
  output logic             sat_o
);
  logic all_full, all_empty;
  assign all_full  = ((bits_i & mask_i) == mask_i);
  assign all_empty = ((bits_i & mask_i) == '0);
  assign sat_o = (trig_i == 2'd1) ? all_full : (trig_i == 2'd2) ? all_empty : 1'b1;
endmodule
