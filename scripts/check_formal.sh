#!/usr/bin/env bash
# Test wrapper: every proof of `make formal` must pass (run by make test as one
# test; about 75 s: every RTL block but the preemption controller has a proof, and
# a change to a block or to the primitives it shares must not break one unseen).
make --no-print-directory formal
