# Shared primitives (rtl/prim/): each verilated in a small configuration for
# its own lockstep unit test (tests/test_prims.c).  Their files and
# parameters: rtl/prim/*.toml (mk/blocks.mk, generated).
TESTS     += test_prims
# the verilated-model shim's input masking (sim/harness/fg_shim.hpp)
TESTS     += test_shim_widths test_fg_num
# the programs' command-line reader (sim/harness/fg_cli.h)
TESTS     += test_fg_cli
SOAK_TESTS += test_prims
