# make mutate (docs/MUTATION.md): every mutant of tests/mutants/<block>.txt
# against its block's proofs and its tests, in a scratch copy of the tree
# (build-mut/); results/mutation.json says which caught each and by what.
# MUT_BLOCKS="b ..." / MUT_ONLY="mutant ..." / MUT_SEEDS="1,2" narrow it.
# make test runs a fixed subset (scripts/check_mutate.sh).
.PHONY: mutate mutants
mutate: build
	@scripts/mutate.py
mutants: mutate
EXTRA_TEST_CMDS += scripts/check_mutate.sh
# make coverage: the subset's runs are in a scratch tree the counts do not see
COV_SKIP += scripts/check_mutate.sh
