# Experiments on the sweep runner (docs/SWEEPS.md).  Each
# experiment's fragment registers its description: EXPERIMENTS +=
# experiments/NAME.ini.  `make results` runs every experiment's points
# (locally, JOBS at a time; SLURM=1: as Slurm job arrays, SWEEP_ARGS for more
# runner options), draws the figures as PNG (results/*.png) and regenerates
# the generated tables of docs/RESULTS.md from the JSON.  `make demo` runs the
# same sweeps and figures (scripts/experiments.sh) but leaves the docs alone.
# An experiment too long for make demo registers its full size in
# RESULTS_EXPERIMENTS (make results only) and a reduced description in
# DEMO_EXPERIMENTS (make demo only).
PYTHON     ?= $(firstword $(wildcard /usr/bin/python3) python3)
SWEEP_ARGS ?=
export EXPERIMENTS DEMO_EXPERIMENTS PYTHON

EXTRA_TEST_CMDS += tests/sweep/test_sweep.py tests/sweep/test_slurm.py tests/results/test_provenance.py tests/results/test_figures.py
DEMO_STEPS      += scripts/experiments.sh

.PHONY: results
results: $(BUILD)/.deps
	@$(MAKE) --no-print-directory -j$(JOBS) build
	@nice $(PYTHON) scripts/sweep.py run $(if $(SLURM),--slurm,-j $(JOBS)) $(SWEEP_ARGS) $(EXPERIMENTS) $(RESULTS_EXPERIMENTS)
	@set -e; $(foreach s,$(RESULTS_STEPS),nice $(s);)
	@$(PYTHON) scripts/figures.py plot
	@$(PYTHON) scripts/figures.py docs

# Where every experiment stands (done / stale / to do) and what its done points cost to run.
.PHONY: results-status
results-status:
	@$(PYTHON) scripts/sweep.py status $(EXPERIMENTS) $(RESULTS_EXPERIMENTS) $(DEMO_EXPERIMENTS)
