# The blocks as FuseSoC cores (docs/FUSESOC.md): rtl/<area>/<block>.core per
# block, rtl/include/ and rtl/prim/ cores for what they share, smoke test
# benches as cores of their own in tb/fusesoc/.  make test lints every block
# through its core, runs the benches on Icarus and Verilator, and checks each
# core's files against the block's source list here (<block>_SRCS).
EXTRA_TEST_CMDS += scripts/check_fusesoc.py
COV_SKIP += scripts/check_fusesoc.py
