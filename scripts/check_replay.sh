#!/usr/bin/env bash
# Test wrapper: `make replay` (every block's lockstep trace replayed through
# the RTL in Icarus, mk/replay.mk) must exit 0; run by make test as one test.
make --no-print-directory replay
