# Event-driven, 4-state replay of every block's lockstep trace in Icarus
# (docs/TRACES.md): each recording program runs with FG_TRACE_DIR set (its
# lockstep runs write one trace per verilated model, sim/harness/fg_shim.cpp),
# then scripts/trace_replay.py drives the trace through the RTL in iverilog
# -g2012 (registers X at start) and compares every output every cycle.
# `make replay`; make test runs it as one test (scripts/check_replay.sh).
#
# REPLAY_MODELS: the verilated models (b or b_c, mk/README.md) replayed.
# REPLAY_PROG_<prog>: the models program tests/<prog> records, and
# REPLAY_ENV_<prog> the environment of that run (which tests, how many random
# cycles, the trace's length: FG_TRACE_CYCLES lines in all, FG_TRACE_INST from
# one block instance), sized so that the whole replay takes a few minutes.
# REPLAY_XOK_<model>: outputs read from storage without reset (an SRAM's
# unwritten words), where an X bit is the RTL's honest value and the twin's
# 0 (XINIT_OFF in the Makefile) is not compared; every other output must
# match bit for bit.  REPLAY_DEFPARAM_<model>: submodule parameters of the
# replay (INST.PARAM=V): edge_preempt's age matrix in its row form, the form
# Verilator runs, proven equal to the bit form synthesis takes
# (formal/edge_preempt_age.sby) and run in lockstep besides (model
# edge_preempt_bits, not replayed); the bit form's 4,096 one-bit processes took
# Icarus 94 s for 256 cycles against 5 s in the row form.
REPLAY_PROGS := test_prims test_edge_doorbell test_edge_ekt test_edge_pewt test_edge_preempt \
                test_fe_sched_queues test_cm_bal_monitor
REPLAY_PROG_test_prims          := fg_fifo fg_rr fg_sram
REPLAY_ENV_test_prims           := FG_TEST_SKIP=test_lockstep_catches_divergence FG_TRACE_INST=20000
REPLAY_PROG_test_edge_doorbell  := edge_doorbell
REPLAY_ENV_test_edge_doorbell   := FG_CYCLES=20000
REPLAY_PROG_test_edge_ekt       := edge_ekt
REPLAY_ENV_test_edge_ekt        := FG_CYCLES=20000 FG_TRACE_CYCLES=10000
REPLAY_PROG_test_edge_pewt      := edge_pewt
REPLAY_ENV_test_edge_pewt       := FG_CYCLES=20000
REPLAY_PROG_test_edge_preempt   := edge_preempt
REPLAY_ENV_test_edge_preempt    := FG_TEST_SKIP=test_seed_* FG_CYCLES=5000 FG_TRACE_CYCLES=8000 FG_TRACE_INST=4000
REPLAY_PROG_test_fe_sched_queues := fe_sched_queues fe_sched_queues_sys
REPLAY_ENV_test_fe_sched_queues := FG_CYCLES=20000
REPLAY_PROG_test_cm_bal_monitor := cm_bal_monitor
REPLAY_ENV_test_cm_bal_monitor  := FG_CYCLES=20000
REPLAY_XOK_fg_sram := rdata_o
REPLAY_DEFPARAM_edge_preempt := u_age.ROWS=1
REPLAY_MODELS := $(foreach p,$(REPLAY_PROGS),$(REPLAY_PROG_$(p)))

# the block of model m: m itself, or b for m = b_c
replay_block_of = $(firstword $(foreach b,$(BLOCKS),$(if $(filter $(1),$(call MODELS_OF,$(b))),$(b))))
.PHONY: replay
replay: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) $(addprefix $(BUILD)/tests/,$(REPLAY_PROGS))
	@scripts/replay.sh \
	  $(foreach p,$(REPLAY_PROGS),"prog|$(p)|$(REPLAY_ENV_$(p))") \
	  $(foreach m,$(REPLAY_MODELS),"model|$(m)|$($(call replay_block_of,$(m))_TOP)|$(call VL_PARAMS,$(m))|$($(call replay_block_of,$(m))_SRCS)|$(REPLAY_XOK_$(m))|$(REPLAY_DEFPARAM_$(m))")
EXTRA_TEST_CMDS += scripts/check_replay.sh

# make coverage: the recording runs repeat the block tests it already counts
COV_SKIP += scripts/check_replay.sh
