// Named assertions for finegrain's RTL (docs/RTL_STYLE.md),
// after lowRISC's prim_assert.sv and PULP common_cells' assertions.svh, cut
// down to what Verilator 5.006, Icarus 11 and Yosys 0.23 all accept.
//
//   `FG_ASSERT(name, cond)        inside an always_ff (immediate assertion):
//                                 cond holds at every clock edge where it is
//                                 reached; name is the invariant's name
//   `FG_ASSUME(name, cond)        the same, an assumption for the proofs (a
//                                 checked assertion in simulation)
//   `FG_ASSERT_KNOWN(name, sig)   inside an always_ff: sig carries no X / Z
//                                 (in 4-state simulators; always true in the
//                                 2-state models, left out under Yosys)
//   `FG_ASSERT_PARAM(name, cond, msg)  at module level: elaboration stops with
//                                 msg unless cond holds (parameter legality);
//                                 name is a generate-block name (g_chk_*)
//
// A failing assertion prints "FG_ASSERT <name> failed" with the instance
// (%m) through $error, in the verilated models (the lockstep harness then
// reports the cycle, sim/harness/fg_shim.cpp) and in Icarus.  Under Yosys read -formal
// (FORMAL) the name labels the property (formal/*.sby, results/formal.json);
// Yosys synthesis (SYNTHESIS, read_verilog -noassert) drops them.
//
// Tool notes: Yosys 0.23 has no action block (assert ... else) and no
// $isunknown; Icarus 11 has no statement labels on assertions and no
// elaboration-time $error / $fatal (FG_ASSERT_PARAM is an initial $fatal at
// time 0 there); an elaboration $error stops Yosys (ERROR: msg) and stops
// verilation too (USERERROR, a warning that is fatal: no build uses
// -Wno-fatal; Yosys 0.23 prints an elaboration $fatal's message as "FATAL: .").  A
// parameter that breaks a width (a [-1:0] range) may stop verilation with a
// width error before the check is reached.  (Packages: Yosys 0.23 has no import, so package names
// are used qualified, edge_pkg::DB_ERR_RANGE.)
`ifndef FG_ASSERT_SVH
`define FG_ASSERT_SVH

`ifdef FORMAL
  `define FG_ASSERT(name, cond) name: assert (cond);
  `define FG_ASSUME(name, cond) name: assume (cond);
  `define FG_ASSERT_KNOWN(name, sig)
`elsif SYNTHESIS
  `define FG_ASSERT(name, cond)
  `define FG_ASSUME(name, cond)
  `define FG_ASSERT_KNOWN(name, sig)
`elsif __ICARUS__
  `define FG_ASSERT(name, cond) assert (cond) else $error("%m: FG_ASSERT %s failed", `"name`");
  `define FG_ASSUME(name, cond) assert (cond) else $error("%m: FG_ASSUME %s failed", `"name`");
  `define FG_ASSERT_KNOWN(name, sig) \
    assert (!$isunknown(sig)) else $error("%m: FG_ASSERT_KNOWN %s failed", `"name`");
`else
  `define FG_ASSERT(name, cond) name: assert (cond) else $error("%m: FG_ASSERT %s failed", `"name`");
  `define FG_ASSUME(name, cond) name: assume (cond) else $error("%m: FG_ASSUME %s failed", `"name`");
  `define FG_ASSERT_KNOWN(name, sig) \
    name: assert (!$isunknown(sig)) else $error("%m: FG_ASSERT_KNOWN %s failed", `"name`");
`endif

`ifdef __ICARUS__
  `define FG_ASSERT_PARAM(name, cond, msg) \
    if (!(cond)) begin : name \
      initial $fatal(1, "illegal parameters: %s", msg); \
    end
`else
  `define FG_ASSERT_PARAM(name, cond, msg) \
    if (!(cond)) begin : name \
      $error(msg); \
    end
`endif

`endif
