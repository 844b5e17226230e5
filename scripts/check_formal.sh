#!/usr/bin/env bash
# Test wrapper: every proof of `make formal` must PASS (run by make test as one
# test; FAIL, UNKNOWN, ERROR and TIMEOUT all fail it, each printed with what it
# found: docs/FORMAL.md).  Every RTL block has a proof, and a change to a block
# or to the primitives it shares must not break one unseen.
make --no-print-directory formal
