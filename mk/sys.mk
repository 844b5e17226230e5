# Host, PCIe, external device (NIC) models, the EDGE front-end glue, the IPv4
# route table and the launch-latency experiment.
SIM_SRCS += sim/sys/pcie.c sim/sys/host_api.c sim/sys/lpm.c sim/sys/route_gen.c sim/sys/edge_frontend.c
TESTS    += test_sys test_sys_edge test_sys_e2e
SIM_SRCS += sim/sys/nic.c sim/sys/sys.c sim/sys/launch_exp.c
PROGRAMS += launch_latency
# the experiment on the sweep runner (make results / make demo, mk/results.mk)
EXPERIMENTS += experiments/edge_launch_latency.ini
