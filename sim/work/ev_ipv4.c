/* ev_ipv4: the IPv4 forwarding event kernel (sim/work/ipv4_work.h, tables
 * from [routes]) behind the ev_work interface. */
#include <stdio.h>
#include <stdlib.h>

#include "work/ev_work.h"
#include "work/ipv4_work.h"

EV_WORK_DEFINE(ev_ipv4_ops, "ipv4", "ipv4_fwd", IPV4_PKTS_PER_EVENT, ipv4, route_gen_params, route_gen_params_default,
               route_gen_params_load, ipv4_work_check, ev_idle_none);
