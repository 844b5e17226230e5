# Warp preemption / flush controller (EDGE Sec. IV-D): RTL block, C twin,
# directed + 10^6-cycle random lockstep test with a fake SIMT core, waveform.
# Its files, parameters, configurations and FPGA options:
# rtl/edge/edge_preempt.toml (mk/blocks.mk, generated).
TESTS      += test_edge_preempt
SOAK_TESTS += test_edge_preempt
WAVE_TESTS += test_edge_preempt
# edge_preempt in Icarus, random (not a replayed trace): it settles every
# cycle (docs/RTL_STYLE.md "Simulation semantics")
EXTRA_TEST_CMDS += scripts/check_preempt_icarus.sh
# (its [block.fpga] synth = -nowidelut: out of context with the PFU wide-LUT
# multiplexers ABC maps the slot sets' next-state functions onto LUT7s whose
# sub-LUTs are mostly constants (2,114 of 7,521 LUT4), the block then 8,505
# TRELLIS_COMB; docs/FPGA_TIMING.md has the figures of both forms)
COV_SKIP += scripts/check_preempt_icarus.sh
