# F/E bits end to end (docs/FE_E2E.md): the F/E runtime (host API
# with triggers/actions, streams, the staged F/E Table 2 latency model, the
# GPU host interface of F/E 6.2), the seven F/E Table 3 benchmarks in four
# variants, F/E Figs. 11 and 12.
SIM_SRCS += sim/fe/fe_host.c
SIM_SRCS += sim/fe/fe_bench.c sim/fe/fe_json.c sim/fe/fe_cpu.c
PROGRAMS += fe_fig12
PROGRAMS += fe_fig11
TESTS    += test_fe_e2e
# make results / make demo: both figures at the paper's sizes (under a
# minute together on an idle machine, so the demo runs them full size)
EXPERIMENTS += experiments/fe_fig11.ini experiments/fe_fig12.ini
# without F/E lines in the L2: what keeping them does (docs/RESULTS.md "F/E Fig. 11")
EXPERIMENTS += experiments/fe_fig11_nol2.ini
