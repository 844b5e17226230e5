# Fuzzing (issue 15 item 4).  `make fuzz` builds each harness of
# tests/fuzz/fuzz_<t>.c with clang's libFuzzer + ASan + UBSan and runs it for
# FUZZ_SECONDS (default 60) from its kept corpus tests/fuzz/corpus/<t>/ plus
# seeds (the machine configs; the built kernels); crashing inputs land in
# $(BUILD)/fuzz/<t>/ (docs/VERIFICATION.md: fix, then keep the input in the
# corpus).  make test replays every kept input through the same harness
# built with gcc (tests/fuzz/fuzz_main.c), so a fixed crash stays fixed.
FUZZ_TARGETS := config elf
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -std=c11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
                -D_DEFAULT_SOURCE $(INCS)
FUZZ_SEEDS_config := configs
FUZZ_SEEDS_elf    := $(BUILD)/sw

# the replay programs (gcc, the normal build) and their make-test commands
FUZZ_REPLAY := $(addprefix $(BUILD)/tests/fuzz_,$(addsuffix _replay,$(FUZZ_TARGETS)))
EXTRA_BUILD += $(FUZZ_REPLAY)
EXTRA_TEST_CMDS += scripts/check_fuzz_corpus.sh
# LINK_LIBS is defined after mk/*.mk are read: expanded a second time, at
# rule-matching time, or -j builds could link before libfg.a is current
.SECONDEXPANSION:
$(BUILD)/tests/fuzz_%_replay: $(BUILD)/obj/tests/fuzz/fuzz_%.o $(BUILD)/obj/tests/fuzz/fuzz_main.o $$(LINK_LIBS)
	@mkdir -p $(dir $@)
	$(CXX) $(LDFLAGS) -o $@ $(filter $(BUILD)/obj/tests/fuzz/%.o,$^) $(LINK_CMD) $(LDLIBS)

# the libFuzzer programs: the code under test compiled with coverage, the
# rest linked from the normal build
$(BUILD)/fuzz/fuzz_config: tests/fuzz/fuzz_config.c sim/harness/fg_config.c | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^ -linih -lm
$(BUILD)/fuzz/fuzz_elf: tests/fuzz/fuzz_elf.c sim/simt/elf_load.c $$(LINK_LIBS) | $(BUILD)/.deps
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $(filter %.c,$^) $(LINK_CMD) $(LDLIBS) -lstdc++

.PHONY: fuzz
fuzz: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@$(MAKE) --no-print-directory -j$(JOBS) $(addprefix $(BUILD)/fuzz/fuzz_,$(FUZZ_TARGETS))
	@set -e; for t in $(FUZZ_TARGETS); do \
	  mkdir -p $(BUILD)/fuzz/$$t/corpus; \
	  echo "fuzz: $$t for $(FUZZ_SECONDS) s (corpus $(BUILD)/fuzz/$$t/corpus, crashes $(BUILD)/fuzz/$$t/)"; \
	  seeds=$$t; [ $$t = config ] && seeds="$(FUZZ_SEEDS_config)" || seeds="$(FUZZ_SEEDS_elf)"; \
	  $(BUILD)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -max_len=65536 \
	    -artifact_prefix=$(BUILD)/fuzz/$$t/ $(BUILD)/fuzz/$$t/corpus tests/fuzz/corpus/$$t $$seeds \
	    2>$(BUILD)/fuzz/$$t/log.txt || { tail -40 $(BUILD)/fuzz/$$t/log.txt; \
	      echo "fuzz: $$t found a crash: $$(ls $(BUILD)/fuzz/$$t/crash-* 2>/dev/null | head -1)"; exit 1; }; \
	  grep -E "stat::number_of_executed_units|stat::new_units_added" $(BUILD)/fuzz/$$t/log.txt | sed "s/^/  /"; \
	done
