# CM-CPU / CM-BAL in the loop of the CM machine: CM Figs. 8, 16-19 as
# experiments on the sweep runner (docs/RESULTS.md "CM Figs. 8, 16-19"; the
# point program scripts/cm_point.py, the metrics and figures
# scripts/cm_figs.py).  make results: the 36 workloads under every scheme,
# the static-TLP classification and threshold calibration, the
# window-doubling check, the window convergence (experiments/cm_window.ini),
# the paper's own window on three workloads (experiments/cm_paper_window.ini) and why six applications gain
# from lower TLP (experiments/cm_tlp_cause.ini); make demo: the static-TLP sweep and three
# workloads at a short window; both: where the memory requests' time goes
# (experiments/cm_breakdown.ini, 8 points); make test: the metrics against hand-computed values and a
# 4-point sweep of the machine (experiments/cm_tiny.ini).
RESULTS_EXPERIMENTS += experiments/cm_figs.ini experiments/cm_tlp.ini experiments/cm_double.ini experiments/cm_window.ini experiments/cm_paper_window.ini experiments/cm_tlp_cause.ini
DEMO_EXPERIMENTS    += experiments/cm_tlp_demo.ini experiments/cm_figs_demo.ini
EXPERIMENTS         += experiments/cm_breakdown.ini
EXTRA_TEST_CMDS     += tests/cm/test_cm_figs.py
