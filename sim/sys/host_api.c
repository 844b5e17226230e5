/* host_api: CUDA-like baseline timing; see host_api.h (F/E Table 2). */
#include "host_api.h"

void host_params_default(host_params *p) {
    p->memcpy_ns = 7000.0;
    p->memcpy_async_call_ns = 1200.0;
    p->memcpy_async_driver_ns = 6000.0;
    p->launch_call_ns = 1500.0;
    p->launch_driver_ns = 3000.0;
    p->sync_call_ns = 1000.0;
    p->sync_after_ns = 1000.0;
}

int host_params_load(host_params *p, fg_config *cfg, char *err, size_t errlen) {
    struct {
        const char *key;
        double *v;
    } k[] = {{"memcpy_ns", &p->memcpy_ns},
             {"memcpy_async_call_ns", &p->memcpy_async_call_ns},
             {"memcpy_async_driver_ns", &p->memcpy_async_driver_ns},
             {"launch_call_ns", &p->launch_call_ns},
             {"launch_driver_ns", &p->launch_driver_ns},
             {"sync_call_ns", &p->sync_call_ns},
             {"sync_after_ns", &p->sync_after_ns}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (fg_config_double(cfg, "host", k[i].key, 0.0, 1e9, k[i].v, err, errlen)) return -1;
    return 0;
}

void host_api_init(host_api *h, const host_params *p, pcie_link *link) {
    h->p = *p;
    h->link = link;
    h->driver_free_at = 0.0;
}

double host_memcpy(host_api *h, double now, uint64_t bytes) {
    /* blocking: the fixed 7 us overhead, then the data over the link */
    return pcie_link_write(h->link, PCIE_TO_GPU, now + h->p.memcpy_ns, bytes) -
           h->link->p.round_trip_ns / 2.0;
}

void host_memcpy_async(host_api *h, double now, uint64_t bytes, double *ret, double *done) {
    *ret = now + h->p.memcpy_async_call_ns;
    double start = *ret > h->driver_free_at ? *ret : h->driver_free_at;
    double drv = start + h->p.memcpy_async_driver_ns;
    h->driver_free_at = drv;
    *done = pcie_link_write(h->link, PCIE_TO_GPU, drv, bytes) - h->link->p.round_trip_ns / 2.0;
}

void host_launch(host_api *h, double now, double *ret, double *at_gpu) {
    *ret = now + h->p.launch_call_ns;
    double start = *ret > h->driver_free_at ? *ret : h->driver_free_at;
    *at_gpu = start + h->p.launch_driver_ns;
    h->driver_free_at = *at_gpu;
}

double host_sync(const host_api *h, double now, double work_done) {
    double t = now + h->p.sync_call_ns;
    if (work_done > t) t = work_done;
    return t + h->p.sync_after_ns;
}

void host_cpu_init(host_cpu *h, const host_params *p, pcie_link *to_gpu, double poll_ns) {
    host_api_init(&h->api, p, to_gpu);
    h->poll_ns = poll_ns;
    h->launch_free = h->cpl_free = 0.0;
}

void host_cpu_notice(host_cpu *h, double t, double *start, double *ret, double *at_gpu) {
    double detect = dev_poll_seen(t, h->poll_ns);
    *start = detect > h->launch_free ? detect : h->launch_free;
    host_launch(&h->api, *start, ret, at_gpu);
    h->launch_free = *ret;
}

double host_cpu_complete(host_cpu *h, double t_done) {
    double t = t_done + h->api.p.sync_after_ns;
    if (t < h->cpl_free) t = h->cpl_free;
    h->cpl_free = t;
    return t;
}
