#!/usr/bin/env bash
# Test wrapper (make test): a fixed subset of make mutate's mutants, each caught
# by its block's proof and by its tests (scripts/mutate.py: a mutant that
# survives either fails this test).  One per kind of proof: the doorbell
# (k-induction), the PEWT (PDR), and a shared FIFO (its own proof and the F/E
# depth-3 order proof).  About 2 minutes on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
exec scripts/mutate.py --seeds 1 --dir "${BUILD:-build}/mut" --out "${BUILD:-build}/mutation_subset.json" \
  --only "doorbell_range_le pewt_cpl_head_tag fifo_push_overtakes_second"
