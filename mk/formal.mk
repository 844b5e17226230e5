# Formal proofs (docs/FORMAL.md): `make formal` runs every
# SymbiYosys proof of formal/*.sby (yowasp-sby; engines smtbmc z3 and abc pdr /
# bmc3; all from scripts/deps.sh), at most two at a time, and writes
# results/formal.json: PASS, FAIL (the assertion, a trace VCD), UNKNOWN (the
# induction step's; it fails make formal too), ERROR or TIMEOUT per proof.
# make test runs it (scripts/check_formal.sh), and checks what a proof that
# does not pass reports (scripts/check_formal_report.sh, formal/selftest/);
# FORMAL_TIMEOUT bounds each proof (seconds).
.PHONY: formal
formal: $(BUILD)/.deps
	@nice -n 5 scripts/formal.py -j $(JOBS)
EXTRA_TEST_CMDS += scripts/check_formal.sh scripts/check_formal_report.sh
