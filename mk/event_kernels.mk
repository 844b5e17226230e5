# EDGE event kernels: IPv6 forwarding, MemC GET, IPSec
# (kernels sw/kernels/{ipv6_fwd,memc_get,ipsec_3des}.c, built by
# mk/simt.mk), their workloads and host references, the uniform ev_work
# interface over all four kinds (IPv4 included); docs/EVENT_KERNELS.md.
SIM_SRCS += sim/work/ev_work.c sim/work/ev_ipv4.c sim/work/ipv6_work.c sim/work/memc_work.c \
            sim/work/ipsec_work.c sim/work/des_ref.c
TESTS    += test_event_kernels
# EDGE Figs. 12-13: one multitasking run (background +
# events of one kind, draining / preemption / reservation, skip-execution),
# its statistics, the two experiment programs and their sweeps.
SIM_SRCS += sim/work/mt_run.c sim/work/mt_stats.c sim/work/mt_launch.c
SIM_SRCS += sim/work/mt_prog.c sim/work/exp_cli.c
PROGRAMS += edge_fig12 edge_fig13
TESTS    += test_edge_mt
# make results: full size (EDGE artifact sizes, three seeds); make demo: the
# reduced descriptions (test sizes; docs/RESULTS.md states both)
RESULTS_EXPERIMENTS += experiments/edge_fig12.ini experiments/edge_fig13.ini
RESULTS_EXPERIMENTS += experiments/edge_fig13_demo_draincore.ini experiments/edge_fig13_demo_slowmem.ini experiments/edge_fig13_demo_fetchprio.ini experiments/edge_fig13_demo_packed.ini experiments/edge_fig12_demo_draincore.ini
RESULTS_EXPERIMENTS += experiments/edge_fig13_demo_atomics.ini experiments/edge_fig13_demo_offer.ini experiments/edge_fig13_demo_offer_link.ini
RESULTS_EXPERIMENTS += experiments/edge_fig13_demo_enddrain.ini experiments/edge_fig13_demo_artifact.ini experiments/edge_fig13_demo_memclock.ini
# MemC at full size as the artifact runs it, and against the cost of a contended atomic (docs/RESULTS.md
# "EDGE Fig. 13")
RESULTS_EXPERIMENTS += experiments/edge_fig13_memc.ini experiments/edge_fig13_memc_amo.ini
# the full-size counterfactuals of Figs. 12 and 13 on the paper's four backgrounds (docs/RESULTS.md)
RESULTS_EXPERIMENTS += experiments/edge_fig13_packed.ini experiments/edge_fig13_artifact.ini experiments/edge_fig12_draincore.ini experiments/edge_fig12_slowmem.ini experiments/edge_fig13_memc_artifact.ini experiments/edge_fig13_artifact_slowmem.ini experiments/edge_fig13_place.ini experiments/edge_fig13_artifact_place.ini experiments/edge_fig13_memc_artifact_place.ini
# EDGE VI-C's register reserve for events on Fig. 12's register-restricted pairs; the dynamic
# reservation of EDGE VII runs inside edge_fig13.ini and edge_fig13_demo.ini as mode A, and two
# variants of A at the demo size (the register reserve at the demo size runs in make demo, below)
RESULTS_EXPERIMENTS += experiments/edge_fig12_reserve.ini experiments/edge_fig13_demo_dynamic_pc1.ini experiments/edge_fig13_demo_dynamic_min8.ini
# CM-BAL's protection of the events (sim/cm/cm_bal_loop.h) beside Fig. 13's, full size
RESULTS_EXPERIMENTS += experiments/edge_protect.ini
# the launch paths: host, doorbell after the DMA, early doorbell + F/E receive ring (sim/work/mt_run.h)
RESULTS_EXPERIMENTS += experiments/edge_launch.ini
DEMO_EXPERIMENTS    += experiments/edge_fig12_demo.ini experiments/edge_fig13_demo.ini experiments/edge_protect_demo.ini experiments/edge_fig12_reserve_demo.ini
DEMO_EXPERIMENTS    += experiments/edge_launch_demo.ini
