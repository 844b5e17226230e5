# EDGE warp-level events in the SIMT model: the PEWT and the
# preemption controller driven by sim/simt/simt_edge_core.c, IPv4 events
# injected at the SIMT core scheduler, the preemption-latency experiment.
SIM_SRCS += sim/work/ipv4_work.c sim/work/preempt_run.c
TESTS    += test_preempt
PROGRAMS += preemption_latency
# one preemption in core 0 of a real SIMT model: its PEWT and controller FSTs
WAVES += scripts/wave_preempt.sh scripts/wave_system.sh
# EDGE Fig. 11 on the sweep runner (make results / make demo, mk/results.mk)
EXPERIMENTS += experiments/edge_fig11.ini
# its counterfactuals (the stated causes, each tested by a run): make results only
RESULTS_EXPERIMENTS += experiments/edge_fig11_all.ini experiments/edge_fig11_lrr.ini experiments/edge_fig11_slowmem.ini experiments/edge_fig11_droppipe.ini experiments/edge_fig11_droppipe_slowmem.ini
EXTRA_TEST_CMDS += scripts/check_pl_subset.sh
