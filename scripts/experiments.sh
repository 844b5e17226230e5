#!/usr/bin/env bash
# make demo's experiments: every registered experiment ($EXPERIMENTS, from
# mk/*.mk, and the reduced ones of $DEMO_EXPERIMENTS) on the sweep runner,
# locally; each prints its figures; then the
# PNGs (results/*.png).  Points already run with the same program and inputs
# are not run again (docs/SWEEPS.md).  `make results` also regenerates
# docs/RESULTS.md.
set -euo pipefail
py=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}   # Debian's, with python3-matplotlib
# shellcheck disable=SC2086
nice "$py" scripts/sweep.py run $EXPERIMENTS ${DEMO_EXPERIMENTS:-}
"$py" scripts/figures.py plot
