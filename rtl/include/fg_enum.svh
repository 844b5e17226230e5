// Typed enums from the area packages (docs/RTL_STYLE.md).
//
//   module edge_pewt ... ;
//     `FG_IMPORT(edge_pkg)
//     `FG_ENUM(edge_pkg, pewt_state_e) state_q;
//
// declares state_q of the package's enum type (its waveform shows the state
// names; assignments are type-checked by Verilator).  Constants are written
// qualified, edge_pkg::PEWT_ST_FREE, everywhere.  The macros exist because
// the three tools disagree: Yosys 0.23 has no `import` (only qualified
// names), and Icarus 11 crashes (segmentation fault in elaboration) on a
// variable declared with a qualified package type, edge_pkg::pewt_state_e x,
// or with $bits of one; so under Icarus the module imports the package and
// names the type unqualified, and elsewhere the type is qualified.
`ifndef FG_ENUM_SVH
`define FG_ENUM_SVH
`ifdef __ICARUS__
  `define FG_IMPORT(pkg) import pkg::*;
  `define FG_ENUM(pkg, t) t
`else
  `define FG_IMPORT(pkg)
  `define FG_ENUM(pkg, t) pkg::t
`endif
`endif
