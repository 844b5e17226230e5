#!/usr/bin/env bash
# Test wrapper: every proof of `make formal` must pass (run by make test as one
# test; about a minute: the RTL they cover - the primitives, the doorbell and the PEWT -
# is shared by every block, and a change to it must not break a proof unseen).
make --no-print-directory formal
