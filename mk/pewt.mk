# Pending event warp table (EDGE Sec. IV-C, IV-E): RTL block, C twin, directed
# + 10^6-cycle random lockstep tests, waveform.  Its files, parameters and
# configurations: rtl/edge/edge_pewt.toml (mk/blocks.mk, generated).
TESTS      += test_edge_pewt
SOAK_TESTS += test_edge_pewt
WAVE_TESTS += test_edge_pewt
