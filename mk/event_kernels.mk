# EDGE event kernels (issue 12 item 1): IPv6 forwarding, MemC GET, IPSec
# (kernels sw/kernels/{ipv6_fwd,memc_get,ipsec_3des}.c, built by
# mk/simt.mk), their workloads and host references, the uniform ev_work
# interface over all four kinds (IPv4 included); docs/EVENT_KERNELS.md.
SIM_SRCS += sim/work/ev_work.c sim/work/ev_ipv4.c sim/work/ipv6_work.c sim/work/memc_work.c \
            sim/work/ipsec_work.c sim/work/des_ref.c
TESTS    += test_event_kernels
