# Whole-project checks that make test runs as tests (one each).
EXTRA_TEST_CMDS += scripts/check_lint.sh scripts/check_waves.sh
