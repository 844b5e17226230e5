# finegrain: one build for the RTL blocks, their C twins, the C++ shims over
# the verilated models, the simulator, the tests and the demo.
#
#   make demo   - the main job (installs deps, builds, runs the experiments)
#   make test   - every test; ends with "N passed, N failed"
#   make lint   - Verilator -Wall, Icarus parse, Yosys synthesis report
#   make wave   - FST waveforms of block tests and two system traces + GTKWave save files
#   make wave-shots - docs/WAVES.md's screenshots of the system traces
#   make soak   - every block's random test for SOAK_SEEDS fresh seeds, or CYCLES=N in all (not in make test)
#   make ... SAN=1 - the same with AddressSanitizer + UBSan on the C and C++ code,
#                 in build-san/ (make test runs the block, memory and SIMT tests so:
#                 scripts/check_san.sh)
#   make coverage - line and toggle coverage of rtl/ and fpga/ from make test
#                 run in a COV=1 build (build-cov/; mk/cov.mk, docs/COVERAGE.md)
#   make results - every experiment's sweep, the figures as PNG, docs/RESULTS.md
#                 tables (SLURM=1: on a Slurm cluster; mk/results.mk)
#
# Blocks register themselves through their manifests (rtl/<area>/<block>.toml,
# generated into mk/blocks.mk) and their own mk/<block>.mk (see mk/README.md),
# so adding a block never touches this file.

SHELL      := /bin/bash
.DEFAULT_GOAL := build
SAN        ?=
ifeq ($(SAN),1)
BUILD      ?= build-san
endif
COV        ?=
ifeq ($(COV),1)
BUILD      ?= build-cov
# scripts that call make themselves (check_waves.sh: make wave) stay in the COV=1 build
export COV
endif
BUILD      ?= build
export BUILD
CC         := gcc
CXX        := g++
VERILATOR  ?= verilator
YOSYS      ?= yosys
JOBS       ?= 2

VLROOT     := $(shell $(VERILATOR) --getenv VERILATOR_ROOT 2>/dev/null)
VLINC      := -isystem $(VLROOT)/include -isystem $(VLROOT)/include/vltstd

# (Verilator's include dir: sim/harness/fg_wave.c merges FSTs with the fstapi it ships in libvlrt)
INCS       := -Isim/harness -Isim/twin -Isim -Itb -isystem $(VLROOT)/include
# Optimization (each flag measured: docs/RESULTS.md "Simulation speed"): -O3;
# on x86-64 the x86-64-v2 level (POPCNT, SSE4.2: every x86-64 processor since
# 2009; the model counts lanes with popcount); the programs (build/bin) linked
# with link-time optimization across the model's files, whose objects carry
# both forms (the tests link them without it).  A change of flags rebuilds
# the objects ($(BUILD)/.cflags).
ARCH_OPT   := $(if $(filter x86_64,$(shell uname -m)),-march=x86-64-v2)
# SAN=1 (below) at -O1, as the sanitizers advise: its build takes 70 s of CPU
# against 162 s at -O3, its tests 76 s against 55 s.
OPT        ?= $(if $(filter 1,$(SAN)),-O1,-O3) $(ARCH_OPT)
LTO        ?= -flto=auto -ffat-lto-objects
CWARN      := -Wall -Wextra -Werror
CFLAGS     = -std=c11 $(OPT) $(LTO) -g $(CWARN) -D_DEFAULT_SOURCE $(INCS) -MMD -MP
PROG_LDFLAGS = $(if $(LTO),-flto=auto $(OPT))
AR         := $(if $(shell command -v gcc-ar),gcc-ar,ar)
CXXFLAGS   := -std=c++17 $(OPT) -g -Wall -Wextra -Werror $(INCS) $(VLINC) -MMD -MP \
              -DVM_TRACE=1 -DVM_TRACE_FST=1 -faligned-new
LDLIBS     := -lcmocka -linih -lcjson -lz -lpthread -lm
LDFLAGS    :=
# SAN=1: every C and C++ file we compile is instrumented; the verilated models
# and the Verilator runtime are not (they link against the ASan runtime as is).
# The verilated models live in $(VLBUILD): with SAN=1 the plain build's,
# since they are not instrumented either way.
VLBUILD    := $(BUILD)
ifeq ($(SAN),1)
VLBUILD    ?= build
SANFLAGS   := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
LTO        :=
CFLAGS     += $(SANFLAGS)
CXXFLAGS   += $(SANFLAGS)
LDFLAGS    += $(SANFLAGS)
endif
# COV=1: every verilated model counts line and toggle coverage (Verilator
# --coverage-line --coverage-toggle) and writes it when freed (fg_shim.hpp,
# fpga/sim/fg_top_model.cpp) as a .dat under FG_COV_DIR; mk/cov.mk merges them.
VLCOV      :=
VLRT_COV   :=
ifeq ($(COV),1)
VLCOV      := --coverage-line --coverage-toggle
VLRT_COV   := verilated_cov.cpp
FG_COV_DAT := $(abspath $(BUILD))/coverage/dat
CXXFLAGS   += -DVM_COVERAGE=1 -DFG_COV_DIR='"$(FG_COV_DAT)"'
endif

# Filled in by mk/*.mk
BLOCKS     :=
TWIN_SRCS  :=
SIM_SRCS   :=
TESTS      :=
PROGRAMS   :=
DEMO_STEPS :=
WAVES      :=
WAVE_TESTS :=
SOAK_TESTS :=
EXPERIMENTS :=
RESULTS_EXPERIMENTS :=
DEMO_EXPERIMENTS :=

include $(sort $(wildcard mk/*.mk))

HARNESS_SRCS := sim/harness/fg_block.c sim/harness/fg_util.c sim/harness/fg_config.c sim/harness/fg_json.c sim/harness/fg_cli.c \
                sim/harness/fg_progress.c sim/harness/fg_wave.c sim/harness/fg_pool.c
SHIM_CORE    := sim/harness/fg_shim.cpp

.PHONY: all build deps test demo lint lint-record wave wave-shots soak clean FORCE
.SECONDARY:
all: build

# ---------------------------------------------------------------- deps
$(BUILD)/.deps: scripts/deps.sh
	@mkdir -p $(BUILD)
	@scripts/deps.sh
	@touch $@
deps:
	@scripts/deps.sh

# ------------------------------------------------------ Verilator runtime
# Compiled once and shared by every model (each model has its own context).
VLRT_SRCS := verilated.cpp verilated_fst_c.cpp verilated_threads.cpp $(VLRT_COV)
VLRT_OBJS := $(patsubst %.cpp,$(VLBUILD)/vlrt/%.o,$(VLRT_SRCS))
$(VLBUILD)/vlrt/%.o: | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CXX) -std=c++17 -O2 $(VLINC) -DVM_TRACE=1 -DVM_TRACE_FST=1 $(if $(VLRT_COV),-DVM_COVERAGE=1) -faligned-new -w -c $(VLROOT)/include/$*.cpp -o $@
$(VLBUILD)/vlrt/libvlrt.a: $(VLRT_OBJS)
	ar rcs $@ $^

# ---------------------------------------------------- per-block RTL models
# A block b is verilated once per configuration: b itself ($(b)_GPARAMS) and
# b_c for each name c in $(b)_CONFIGS ($(b)_c_GPARAMS), each its own model
# V<b> / V<b_c> (mk/README.md).  The block's one shim is compiled against all
# of them with a generated header, fg_shim_configs.hpp, describing each.
MODELS_OF = $(1) $(addprefix $(1)_,$($(1)_CONFIGS))
#
# Randomized initial state: every model is verilated with
# X assignments and never-reset storage as values drawn at construction; the
# shim seeds them (fg_shim.cpp: FG_XSEED, else derived from FG_SEED, else
# fresh; printed by the tests), so RTL that depends on uninitialised storage
# diverges from its twin in lockstep.  XINIT_OFF: blocks whose models start
# all-zero unless FG_XINIT=all, each with the reason (docs/ARCHITECTURE.md, "Tests, lint, waveforms").
VL_XFLAGS := --x-assign unique --x-initial unique
# make mutate adds -Wno-fatal in its scratch tree: a mutant that leaves a signal
# unused is still a model to test (make lint keeps the warnings fatal here)
VL_WFLAGS := -Wall
XINIT_OFF := fg_sram
EXTRA_TEST_CMDS += scripts/check_xinit.sh
# The C++ of a verilated model: its evaluation (OPT_FAST) at -O2, the code
# run once (construction, initial values, the first trace dump: OPT_SLOW) at
# -O0.  VL_CXXOPT_<model> (the model's directory under vl/) overrides it:
# edge_preempt_bits' bit-per-flop age order at NW 64 is 5 MB of C++ (68 s of
# CPU at -O2, 27 s at -O1; its test runs 4 s longer).
VL_CXXOPT := OPT_FAST=-O2 OPT_SLOW=-O0
VL_CXXOPT_edge_preempt_bits := OPT_FAST=-O1 OPT_SLOW=-O0
VL_MODEL_CXXOPT = $(or $(VL_CXXOPT_$(1)),$(VL_CXXOPT))
# rebuilt when the Verilator flags change, so every model is verilated again
$(VLBUILD)/vl/vlflags.txt: FORCE | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	@echo '$(VL_XFLAGS) $(foreach v,$(sort $(filter VL_CXXOPT%,$(.VARIABLES))),| $(v) $($(v)))' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
# a model's Verilator parameters: its configuration's, less the keys the block
# turns into macros instead (b_VLPARAMS / b_VLDEFS, manifest vdefines)
VL_PARAMS = $(if $(filter undefined,$(origin $(1)_VLPARAMS)),$($(1)_GPARAMS),$($(1)_VLPARAMS))
# $(1) = block, $(2) = model (b or b_c)
define MODEL_RULES
$(VLBUILD)/vl/$(2)/V$(2)__ALL.a: $$($(1)_SRCS) $(VLBUILD)/vl/vlflags.txt | $(BUILD)/.deps
	@rm -rf $(VLBUILD)/vl/$(2) && mkdir -p $(VLBUILD)/vl/$(2)
	$(VERILATOR) --cc $(VL_WFLAGS) --assert --trace-fst $(VL_XFLAGS) -O3 $(VLCOV) \
	  --top-module $$($(1)_TOP) --prefix V$(2) -Mdir $(VLBUILD)/vl/$(2) \
	  $$(addprefix -G,$$(call VL_PARAMS,$(2))) $$(addprefix -D,$$($(2)_VLDEFS)) -Irtl/include $$($(1)_SRCS)
	$$(MAKE) -s -C $(VLBUILD)/vl/$(2) -f V$(2).mk V$(2)__ALL.a \
	  $(call VL_MODEL_CXXOPT,$(2)) CXX=$(CXX) >/dev/null
# The model's input widths, from Verilator's own header (VL_IN*(&port,msb,0)):
# the shim masks every input to its width in this configuration (fg_shim.hpp).
# Its root class too: the model's whole state when Verilator flattened every
# module into it, which the idle skip relies on (fg_shim.hpp state()).
$(VLBUILD)/vl/$(2)/V$(2)_inw.hpp: $(VLBUILD)/vl/$(2)/V$(2)__ALL.a
	@if ls $(VLBUILD)/vl/$(2)/V$(2)_*.h 2>/dev/null | grep -v '___024root.h$$$$\|__Syms.h$$$$' | grep -q .; then \
	  echo "V$(2): Verilator kept module classes beside the root; fg_shim.hpp's state() holds only the root"; exit 1; fi
	@{ echo '// generated from V$(2).h: the ports of this configuration and their widths'; \
	  echo '#include "V$(2).h"'; \
	  echo '#include "V$(2)___024root.h"'; \
	  echo 'template <> struct FgInWidths<V$(2)> { static constexpr FgPortWidth list[] = {'; \
	  sed -n 's/^ *VL_\(IN\|OUT\)[0-9]*(&\([A-Za-z0-9_]*\),\([0-9]*\),0);.*/  {"\2", \3 + 1},/p' $(VLBUILD)/vl/$(2)/V$(2).h; \
	  echo '  {nullptr, 0}}; };'; } >$$@.tmp && mv $$@.tmp $$@
endef
# One struct per configuration (V = its model, name, one constant per
# parameter) and FG_SHIM_MODELS(X); rewritten only when it changes.
define CFG_LINES
echo '#include "V$(2)_inw.hpp"'; \
echo 'struct fg_cfg_$(2) { using V = V$(2); static constexpr const char *name = "$(2)";'; \
$(foreach kv,$($(2)_GPARAMS),echo '  static constexpr uint64_t $(word 1,$(subst =, ,$(kv))) = $(word 2,$(subst =, ,$(kv)))ULL;';) \
echo '};';
endef
define BLOCK_RULES
$(VLBUILD)/vl/$(1)_cfg/fg_shim_configs.hpp: FORCE | $(BUILD)/.deps
	@mkdir -p $$(dir $$@)
	@{ echo '// generated from mk/*.mk: the verilated configurations of $(1)'; \
	  echo '#include <cstdint>'; \
	  $(foreach m,$(call MODELS_OF,$(1)),$(call CFG_LINES,$(1),$(m))) \
	  echo '#define FG_SHIM_MODELS(X) $(foreach m,$(call MODELS_OF,$(1)),X(fg_cfg_$(m)))'; } >$$@.tmp
	@if cmp -s $$@.tmp $$@; then rm $$@.tmp; else mv $$@.tmp $$@; fi
$(BUILD)/obj/shim/$(1)_shim.o: sim/shim/$(1)_shim.cpp $(foreach m,$(call MODELS_OF,$(1)),$(VLBUILD)/vl/$(m)/V$(m)_inw.hpp) \
                               $(VLBUILD)/vl/$(1)_cfg/fg_shim_configs.hpp
	@mkdir -p $$(dir $$@)
	$(CXX) $(CXXFLAGS) $(foreach m,$(call MODELS_OF,$(1)),-isystem $(VLBUILD)/vl/$(m)) -I$(VLBUILD)/vl/$(1)_cfg \
	  $$(addprefix -DFG_P_,$$($(1)_GPARAMS)) -c $$< -o $$@
endef
$(foreach b,$(BLOCKS),$(foreach m,$(call MODELS_OF,$(b)),$(eval $(call MODEL_RULES,$(b),$(m)))))
$(foreach b,$(BLOCKS),$(eval $(call BLOCK_RULES,$(b))))

VL_LIBS   := $(foreach b,$(BLOCKS),$(foreach m,$(call MODELS_OF,$(b)),$(VLBUILD)/vl/$(m)/V$(m)__ALL.a))
SHIM_OBJS := $(foreach b,$(BLOCKS),$(BUILD)/obj/shim/$(b)_shim.o) $(BUILD)/obj/shim/fg_shim.o

# the models XINIT_OFF names, as the shim sees them (fg_shim.cpp)
XINIT_OFF_MODELS := $(foreach b,$(XINIT_OFF),$(call MODELS_OF,$(b)))
$(BUILD)/obj/shim/fg_shim.o: $(SHIM_CORE) $(BUILD)/obj/shim/xinit_off.txt | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CXX) $(CXXFLAGS) '-DFG_XINIT_OFF="$(XINIT_OFF_MODELS)"' -c $< -o $@
$(BUILD)/obj/shim/xinit_off.txt: FORCE | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	@echo '$(XINIT_OFF_MODELS)' >$@.tmp
	@if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

# ------------------------------------------------------------------ C code
C_SRCS := $(HARNESS_SRCS) $(TWIN_SRCS) $(SIM_SRCS) tb/fg_tb.c tb/fg_tb_filter.c $(TB_SRCS)
C_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(C_SRCS))
$(BUILD)/obj/%.o: %.c $(BUILD)/.cflags | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@
# $(call fg_write_if_changed,COMMAND): COMMAND's output into $@, replaced only
# when it differs, so that what depends on it rebuilds only then.  The
# temporary file is the shell's own (make test runs several makes in one
# build: a shared one was removed under another's cmp and its mv then failed).
fg_write_if_changed = t=$@.$$$$.tmp; $(1) >$$t || { rm -f $$t; exit 1; }; \
  if cmp -s $$t $@; then rm -f $$t; else mv -f $$t $@; fi
# the compilers and flags the objects were built with: a change rebuilds them
$(BUILD)/.cflags: FORCE
	@mkdir -p $(dir $@)
	@$(call fg_write_if_changed,echo '$(CC) $(CFLAGS) | $(CXX) $(CXXFLAGS) | $(PROG_LDFLAGS)')

# The sources fingerprint (scripts/provenance.py) every result carries: the
# file changes, and the programs relink, only when a source of the simulation does.
$(BUILD)/gen/fg_sources.c: FORCE | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	@$(call fg_write_if_changed,$(PYTHON) scripts/provenance.py c-source)
# generated C (fg_sources.c; fg_programs.c, below)
$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(BUILD)/.cflags | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libfg.a: $(C_OBJS) $(BUILD)/obj/gen/fg_sources.o
	@rm -f $@
	$(AR) rcs $@ $^

LINK_LIBS := $(BUILD)/libfg.a $(SHIM_OBJS) $(VL_LIBS) $(VLBUILD)/vlrt/libvlrt.a
# shims may call their twins (in libfg.a): link as a group so the order does not matter
LINK_CMD  = -Wl,--start-group $(LINK_LIBS) -Wl,--end-group

# Tests (tests/<name>.c) and programs (sim/prog/<name>_main.c, with the
# objects PROG_OBJS_<name> of their own, or listed in mk).
# Tests: cmocka's group runner wrapped by tb/fg_tb_filter.c (FG_TEST, FG_TEST_SKIP).
# The C objects carry LTO code beside the plain code (fat objects): GCC's
# linker plugin optimises them again at every link unless told not to, so
# tests link the plain code (0.2 s a link against 6-12 s).
NOLTO_LDFLAGS := -fno-lto
TEST_LDFLAGS := -Wl,--wrap=_cmocka_run_group_tests $(NOLTO_LDFLAGS)
$(BUILD)/tests/%: $(BUILD)/obj/tests/%.o $(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(TEST_LDFLAGS) -o $@ $< $(LINK_CMD) $(LDLIBS)
# The programs are one binary, linked once: with link-time optimization each
# program's own link optimized the whole model again.  Each
# sim/prog/<name>_main.c is compiled with its main renamed fgp_<name>_main
# (into obj/prog/), a generated dispatcher (scripts/gen_programs.sh) runs the
# one named by the name it was started under, and build/bin/<name> are hard
# links to the binary.
$(BUILD)/obj/prog/%_main.o: sim/prog/%_main.c $(BUILD)/.cflags | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Dmain=fgp_$*_main -c $< -o $@
$(BUILD)/gen/fg_programs.c: FORCE | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	@$(call fg_write_if_changed,scripts/gen_programs.sh $(PROGRAMS))
PROG_OBJS = $(foreach p,$(PROGRAMS),$(BUILD)/obj/prog/$(p)_main.o $(PROG_OBJS_$(p)))
$(BUILD)/bin/.programs: $(BUILD)/obj/gen/fg_programs.o $$(PROG_OBJS) $(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(PROG_LDFLAGS) -o $@ $< $(PROG_OBJS) $(LINK_CMD) $(LDLIBS) \
	  $(sort $(foreach p,$(PROGRAMS),$(PROG_LDLIBS_$(p))))
$(BUILD)/bin/%: $(BUILD)/bin/.programs
	@ln -f $< $@

TEST_BINS := $(addprefix $(BUILD)/tests/,$(TESTS))
PROG_BINS := $(addprefix $(BUILD)/bin/,$(PROGRAMS))

build: $(BUILD)/.deps $(TEST_BINS) $(PROG_BINS) $(EXTRA_BUILD)

# ------------------------------------------------------------------- test
# The check scripts first: the proofs, the netlist check and the sanitizer
# runs are among them and take minutes, the test programs seconds, so
# started last these fill the end of the run instead of one core idling.
test: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@scripts/run_tests.sh $(JOBS) $(EXTRA_TEST_CMDS) $(TEST_BINS)

# ------------------------------------------------------------------- demo
# one line after each step (scripts/run_steps.sh); the first failing step ends it
demo: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@scripts/run_steps.sh demo $(DEMO_STEPS)

# ------------------------------------------------------------------- lint
RTL_ALL := $(sort $(wildcard rtl/*/*.sv))
# LINT_TOPS: RTL tops that are no verilated block of the programs (mk/README.md)
lint: $(BUILD)/.deps
	@scripts/lint.sh "$(CC) $(filter-out -MMD -MP,$(CFLAGS)) -Itb/simt -fsyntax-only" "$(C_SRCS) $(wildcard sim/prog/*.c)" \
	  $(foreach b,$(BLOCKS) $(LINT_TOPS),"$(b)|$($(b)_TOP)|$($(b)_SYNTH_PARAMS)|$($(b)_SRCS)")
# every top's synthesis figures recorded in fpga/lint_synth.txt (scripts/lint.sh)
lint-record: $(BUILD)/.deps
	@LINT_RECORD=1 $(MAKE) --no-print-directory lint

# ------------------------------------------------------------------- wave
wave: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@mkdir -p $(BUILD)/waves
	@set -e; $(foreach t,$(WAVE_TESTS),FG_WAVE_DIR=$(BUILD)/waves FG_CYCLES=3000 $(BUILD)/tests/$(t) >/dev/null;) \
	  $(foreach w,$(WAVES),$(w);)
	@# tb/waves' saves name build/waves/: with another BUILD, gtkw.py writes them for its FSTs
	@if [ "$(BUILD)" = build ]; then echo "open with: gtkwave -a tb/waves/<block>.gtkw   (FST files in build/waves/)"; \
	else set -e; for g in tb/waves/*.gtkw; do f=$$(sed -n 's#^\[dumpfile\] "build/waves/\(.*\)"#\1#p' $$g); \
	  scripts/gtkw.py $$g $(BUILD)/waves/$$f -o $(BUILD)/waves/$${g##*/}; done; \
	  echo "open with: gtkwave -a $(BUILD)/waves/<block>.gtkw   (tb/waves/ saves with this BUILD's FSTs)"; fi
	@echo "system traces: gtkwave -a $(BUILD)/waves/system_ring.gtkw   (and system_preempt.gtkw; docs/WAVES.md)"

# docs/WAVES.md's screenshots of the system traces, regenerated
wave-shots: wave
	@scripts/wave_shots.sh

# ------------------------------------------------------------------- soak
# SOAK_SEEDS seeds per program, SOAK_MASTER repeats a soak; CYCLES=N: random
# lockstep only until N cycles in all, stopping at the first failure (scripts/soak.sh)
SOAK_SEEDS ?= 500
soak: $(BUILD)/.deps
	@SOAK_SEEDS=$(SOAK_SEEDS) SOAK_MASTER=$(SOAK_MASTER) SOAK_CYCLES=$(CYCLES) scripts/soak.sh --check $(JOBS)
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@SOAK_SEEDS=$(SOAK_SEEDS) SOAK_MASTER=$(SOAK_MASTER) SOAK_CYCLES=$(CYCLES) scripts/soak.sh $(JOBS) \
	  $(addprefix $(BUILD)/tests/,$(SOAK_TESTS))

clean:
	rm -rf $(BUILD) results

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
