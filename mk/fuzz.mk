# Fuzzing.  `make fuzz` builds each harness of
# tests/fuzz/fuzz_<t>.c with clang's libFuzzer + ASan + UBSan and runs it for
# FUZZ_SECONDS (default 60) from its kept corpus tests/fuzz/corpus/<t>/ plus
# seeds FUZZ_SEEDS_<t> (the machine configs; the built kernels); crashing inputs land in
# $(BUILD)/fuzz/<t>/ (docs/ARCHITECTURE.md: fix, then keep the input in the
# corpus).  make test replays every kept input through the same harness
# built with gcc (tests/fuzz/fuzz_main.c), so a fixed crash stays fixed.
FUZZ_TARGETS := config elf cli
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -D_DEFAULT_SOURCE $(INCS)
FUZZ_SEEDS_config := configs
FUZZ_SEEDS_elf    := $(BUILD)/sw
FUZZ_SEEDS_cli    :=

# the replay programs (gcc, the normal build) and their make-test commands
FUZZ_REPLAY := $(addprefix $(BUILD)/tests/fuzz_,$(addsuffix _replay,$(FUZZ_TARGETS)))
EXTRA_BUILD += $(FUZZ_REPLAY)
EXTRA_TEST_CMDS += scripts/check_fuzz_corpus.sh
# LINK_LIBS is defined after mk/*.mk are read: expanded a second time, at
# rule-matching time, or -j builds could link before libfg.a is current
.SECONDEXPANSION:
# (FUZZ_OBJS_<t>: the objects of the code under test outside libfg.a)
FUZZ_OBJS_cli := $(BUILD)/obj/sim/prog/fg_run_cli.o
$(BUILD)/tests/fuzz_%_replay: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(BUILD)/obj/tests/fuzz/fuzz_main.o $$(FUZZ_OBJS_$$*) \
                              $$(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) $(NOLTO_LDFLAGS) -o $@ $(filter $(BUILD)/obj/tests/fuzz/%.o,$^) $(FUZZ_OBJS_$*) $(LINK_CMD) $(LDLIBS)

# the libFuzzer programs: the code under test compiled with coverage, the
# rest linked from the normal build
$(BUILD)/fuzz/fuzz_config: tests/fuzz/fuzz_config.c sim/harness/fg_config.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -linih -lm
$(BUILD)/fuzz/fuzz_elf: tests/fuzz/fuzz_elf.c sim/simt/elf_load.c $$(LINK_LIBS) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^) $(LINK_CMD) $(LDLIBS) -lstdc++
# fg_run's command line (sim/prog/fg_run_cli.c), instrumented with the
# option reader and the config reader it calls
$(BUILD)/fuzz/fuzz_cli: tests/fuzz/fuzz_cli.c sim/prog/fg_run_cli.c sim/harness/fg_cli.c sim/harness/fg_config.c \
                        $$(LINK_LIBS) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isim/prog -o $@ $(filter %.c,$^) $(LINK_CMD) $(LDLIBS) -ldw -lelf -lstdc++
$(BUILD)/tests/fuzz_cli_replay: LDLIBS += -ldw -lelf
$(BUILD)/obj/tests/fuzz/fuzz_cli.o: CFLAGS += -Isim/prog

# one harness's run: $(1) = target, $(2) = its seed directories
define FUZZ_RUN
mkdir -p $(BUILD)/fuzz/$(1)/corpus; \
echo "fuzz: $(1) for $(FUZZ_SECONDS) s (corpus $(BUILD)/fuzz/$(1)/corpus, crashes $(BUILD)/fuzz/$(1)/)"; \
$(BUILD)/fuzz/fuzz_$(1) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -max_len=65536 -close_fd_mask=1 \
  -artifact_prefix=$(BUILD)/fuzz/$(1)/ $(BUILD)/fuzz/$(1)/corpus tests/fuzz/corpus/$(1) $(2) \
  2>$(BUILD)/fuzz/$(1)/log.txt || { tail -40 $(BUILD)/fuzz/$(1)/log.txt; \
    echo "fuzz: $(1) found a crash: $$(ls $(BUILD)/fuzz/$(1)/crash-* 2>/dev/null | head -1)"; exit 1; }; \
grep -E "stat::number_of_executed_units|stat::new_units_added" $(BUILD)/fuzz/$(1)/log.txt | sed "s/^/  /";
endef

.PHONY: fuzz
fuzz: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@$(MAKE) --no-print-directory -j$(JOBS) $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))
	@set -e; $(foreach t,$(FUZZ_TARGETS),$(call FUZZ_RUN,$(t),$(FUZZ_SEEDS_$(t))))
