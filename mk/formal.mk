# Formal proofs (issue 15 item 1, docs/FORMAL.md): `make formal` runs every
# SymbiYosys proof of formal/*.sby (yowasp-sby, engine smtbmc z3; both from
# scripts/deps.sh), at most two at a time, and writes results/formal.json.
# make test runs it too (scripts/check_formal.sh: the nine proofs take about
# 80 s on an idle 2-core machine); FORMAL_TIMEOUT bounds each proof (seconds).
.PHONY: formal
formal: $(BUILD)/.deps
	@nice -n 5 scripts/formal.py -j $(JOBS)
EXTRA_TEST_CMDS += scripts/check_formal.sh
