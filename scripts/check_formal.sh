#!/usr/bin/env bash
# Test wrapper: every proof of `make formal` must pass (run by make test as one
# test; about 80 s on an idle 2-core machine: every RTL block has a proof, and a
# change to a block or to the primitives it shares must not break one unseen).
make --no-print-directory formal
