# The blocks' manifests (mk/README.md "Adding a block"): one TOML file per
# FuseSoC core beside its RTL, rtl/<area>/<core>.toml, is the one place a
# block's RTL files (in order, through its dependencies), its verilated
# configurations, twin, proofs, coverage group and FPGA options are typed.
# scripts/manifest.py generates from them the .core files, mk/blocks.mk (the
# make lists every flow reads), the .sby files' file lists and fpga/top.f's
# rtl/ lines (all committed); scripts/check_rtl_style.sh reads them directly.
# `make manifest` regenerates; make test checks that the generated files are
# current and that a dummy block builds from a manifest alone
# (scripts/check_manifest.sh).
.PHONY: manifest
manifest:
	@scripts/manifest.py
EXTRA_TEST_CMDS += scripts/check_manifest.sh
# (no verilated model of the tree: nothing for make coverage to count)
COV_SKIP += scripts/check_manifest.sh
