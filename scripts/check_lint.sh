#!/usr/bin/env bash
# Test wrapper: `make lint` must exit 0 (run by make test as one test).
make --no-print-directory lint
