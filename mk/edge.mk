# EDGE front-end blocks (rtl/edge/): event kernel table and doorbell decoder.
# Their files, parameters and configurations: rtl/edge/edge_ekt.toml,
# rtl/edge/edge_doorbell.toml (mk/blocks.mk, generated).
TESTS     += test_edge_ekt test_edge_doorbell
SOAK_TESTS += test_edge_ekt test_edge_doorbell
PROGRAMS  += edge_demo
DEMO_STEPS += $(BUILD)/bin/edge_demo
WAVE_TESTS += test_edge_ekt test_edge_doorbell
WAVES     += scripts/wave_edge_demo.sh
