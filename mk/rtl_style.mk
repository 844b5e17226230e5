# RTL style infrastructure (docs/RTL_STYLE.md).
#
# Encodings: one list per area, rtl/<area>/<area>_enc.toml, generates the
# area's SystemVerilog package rtl/<area>/<area>_pkg.sv and the twins' C
# headers sim/twin/gen/<block>_enc.h (scripts/rtl_pkg.py; the generated files
# are committed).  `make rtl-pkg` regenerates them; make test checks that they
# are current and that blocks not converted yet agree with the lists
# (scripts/check_rtl_style.sh).
#
# Every block's sources begin with the packages of the areas its files come
# from (dependency order: packages first), so that every flow reading
# $(b)_SRCS (models, make lint, make fpga-blocks, coverage) has them: the
# manifests' generator resolves them (scripts/manifest.py, mk/blocks.mk).
RTL_SVH    := $(wildcard rtl/include/*.svh)
# the models are verilated again when a macro header changes
$(foreach b,$(BLOCKS),$(foreach m,$(b) $(addprefix $(b)_,$($(b)_CONFIGS)),\
  $(eval $(VLBUILD)/vl/$(m)/V$(m)__ALL.a: $(RTL_SVH))))

.PHONY: rtl-pkg
rtl-pkg:
	@scripts/rtl_pkg.py
EXTRA_TEST_CMDS += scripts/check_rtl_style.sh
# a variable's value, for scripts (scripts/check_fusesoc.sh: the blocks'
# source lists against their .core files)
print-%:
	@echo '$($*)'
