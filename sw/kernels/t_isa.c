/* ISA test kernels (checked against the host in tests/test_simt.c). */
#include "fg_kernel.h"
#include "simt_test_ops.h"

struct t_args {
    const uint32_t *in;
    uint32_t *out;
    uint32_t n;
    uint32_t *counter;
};

void t_int(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    if (i >= p->n) return;
    t_int_ops(p->in[2 * i], p->in[2 * i + 1], p->out + i * T_INT_N);
}

/* RISC-V corner cases of M: division by zero and overflow */
void t_mcorner(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    uint32_t a = p->in[2 * i], b = p->in[2 * i + 1], q, r, qu, ru;
    __asm__ volatile("div %0, %1, %2" : "=r"(q) : "r"(a), "r"(b));
    __asm__ volatile("rem %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));
    __asm__ volatile("divu %0, %1, %2" : "=r"(qu) : "r"(a), "r"(b));
    __asm__ volatile("remu %0, %1, %2" : "=r"(ru) : "r"(a), "r"(b));
    p->out[4 * i] = q; p->out[4 * i + 1] = r; p->out[4 * i + 2] = qu; p->out[4 * i + 3] = ru;
}

void t_fp(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    if (i >= p->n) return;
    union { uint32_t u; float f; } a, b;
    a.u = p->in[3 * i];
    b.u = p->in[3 * i + 1];
    t_fp_ops(a.f, b.f, (int32_t)p->in[3 * i + 2], p->out + i * T_FP_N);
}

/* CSRs: 3-D ids */
void t_csr(const struct t_args *p) {
    uint32_t bx = fg_ntid_x(), by = fg_ntid_y();
    uint32_t lin_t = fg_tid_x() + bx * (fg_tid_y() + by * fg_tid_z());
    uint32_t lin_b = fg_ctaid_x() + fg_nctaid_x() * (fg_ctaid_y() + fg_nctaid_y() * fg_ctaid_z());
    uint32_t g = lin_b * bx * by * fg_ntid_z() + lin_t;
    uint32_t *o = p->out + g * 16;
    o[0] = fg_tid_x(); o[1] = fg_tid_y(); o[2] = fg_tid_z();
    o[3] = fg_ctaid_x(); o[4] = fg_ctaid_y(); o[5] = fg_ctaid_z();
    o[6] = fg_ntid_x(); o[7] = fg_ntid_y(); o[8] = fg_ntid_z();
    o[9] = fg_nctaid_x(); o[10] = fg_nctaid_y(); o[11] = fg_nctaid_z();
    o[12] = fg_lane_id(); o[13] = fg_warp_id(); o[14] = fg_core_id() < 64; o[15] = 0x600d;
}

/* atomics on global and shared memory */
FG_SHARED uint32_t sh_count;
FG_SHARED uint32_t sh_max;
void t_atomic(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    uint32_t old = __atomic_fetch_add(p->counter, 1, __ATOMIC_RELAXED);
    p->out[4 * i] = old;                                    /* tickets: a permutation */
    __atomic_fetch_add(&sh_count, 2, __ATOMIC_RELAXED);
    uint32_t tmp;
    __asm__ volatile("amomaxu.w %0, %2, (%1)" : "=r"(tmp) : "r"(&sh_max), "r"(p->in[i]) : "memory");
    uint32_t exp = __atomic_load_n(p->counter + 1, __ATOMIC_RELAXED), des;
    do { des = exp + i; } while (!__atomic_compare_exchange_n(p->counter + 1, &exp, des, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    __atomic_fetch_or(p->counter + 2, 1u << (i & 31), __ATOMIC_RELAXED);
    __atomic_fetch_xor(p->counter + 3, i, __ATOMIC_RELAXED);
    __asm__ volatile("amomin.w %0, %2, (%1)" : "=r"(tmp) : "r"(p->counter + 4), "r"(-(int32_t)i) : "memory");
    fg_sync();
    p->out[4 * i + 1] = sh_count;
    p->out[4 * i + 2] = sh_max;
    p->out[4 * i + 3] = __atomic_exchange_n(p->counter + 5, i, __ATOMIC_RELAXED) != i;
}

void t_div(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    if (i >= p->n) return;
    p->out[i] = t_div_work(p->in[i]);
}

/* barrier + shared memory: block tree reduction; threads >= live exit first */
FG_SHARED uint32_t red[1024];
void t_reduce(const struct t_args *p) {
    uint32_t t = fg_tid_x(), n = fg_ntid_x(), g = fg_global_id_x();
    if (t >= p->n) return;                       /* early exit before the barrier */
    uint32_t live = n < p->n ? n : p->n;
    red[t] = p->in[g];
    for (uint32_t s = 1; s < live; s *= 2) {
        fg_sync();
        uint32_t v = (t % (2 * s) == 0 && t + s < live) ? red[t + s] : 0;
        fg_sync();
        red[t] += v;
    }
    fg_sync();
    if (t == 0) p->out[fg_ctaid_x()] = red[0];
    p->out[1024 + g] = fg_core_id();
}

/* timing: dependent load chain (pointer chasing) by one thread */
void t_chase(const struct t_args *p) {
    const uint32_t *q = p->in;
    for (uint32_t k = 0; k < p->n; k++) q = (const uint32_t *)(uintptr_t)*q;
    p->out[0] = (uint32_t)(uintptr_t)q;
}

/* ALU loop for scheduling tests and speed */
void t_spin(const struct t_args *p) {
    uint32_t x = fg_global_id_x(), y = 1;
    for (uint32_t k = 0; k < p->n; k++) { x = x * 1664525u + 1013904223u; y ^= x >> 7; }
    p->out[fg_global_id_x()] = y;
}

void t_fault(const struct t_args *p) {
    if (fg_global_id_x() == 37) *(volatile uint32_t *)p->counter = 1; /* host passes a bad address */
    p->out[fg_global_id_x()] = 1;
}

/* Memory-path timing (tests/test_simt_mem.c), one thread.  t_lat: the
 * latency of each load of in[k] (an address) as the warp sees it: the
 * address is in a register first, then clock, load, a use of the value,
 * clock.  out[k] = the difference; out[n] = the sum of the values. */
void t_lat(const struct t_args *p) {
    uint32_t sum = 0;
    for (uint32_t k = 0; k < p->n; k++) {
        uint32_t a = p->in[k];
        __asm__ volatile("mv %0, %0" : "+r"(a)); /* waits for the address */
        uint32_t t0 = fg_clock();
        uint32_t v = *(const volatile uint32_t *)(uintptr_t)a;
        __asm__ volatile("mv %0, %0" : "+r"(v)); /* waits for the value */
        uint32_t t1 = fg_clock();
        p->out[k] = t1 - t0;
        sum += v;
    }
    p->out[p->n] = sum;
}

/* t_fence: thread i stores to n lines (in[] as word addresses, one line
 * apart), then out[i] = cycles one FENCE took; counter: stores before it
 * (0 = a FENCE with nothing outstanding). */
void t_fence(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    uint32_t *q = (uint32_t *)(uintptr_t)p->in + i;
    for (uint32_t k = 0; k < *p->counter; k++) q[k * 32] = k + i;
    uint32_t t0 = fg_clock();
    __asm__ volatile("fence rw, rw" ::: "memory");
    uint32_t t1 = fg_clock();
    p->out[i] = t1 - t0;
}

/* t_fe: thread 0 loads the F/E-tracked word in[0] (GPU read: waits for
 * full, F/E 4.1) into out[0]; with n > 0, thread 32 (another warp) spins n
 * iterations, then stores 0x600dcafe there (GPU write: marks it full). */
void t_fe(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    volatile uint32_t *w = (volatile uint32_t *)(uintptr_t)p->in;
    if (i == 0) {
        p->out[0] = *w;
    } else if (i == 32 && p->n) {
        uint32_t x = 1;
        for (uint32_t k = 0; k < p->n; k++) x = x * 1664525u + 1013904223u;
        p->out[1] = x;
        *w = 0x600dcafeu;
    }
}

/* t_lock (tests/test_simt_mem.c): a spin lock under contention.  Lane 0 of
 * each warp (the other lanes leave: lanes of one warp spinning on one lock
 * would never let the holder run under min-PC scheduling) n times takes the
 * lock at counter[0] with amoswap, increments counter[32] (another line)
 * with a plain load and store, and releases the lock with amoswap;
 * out[warp] = its failed attempts. */
void t_lock(const struct t_args *p) {
    if (fg_lane_id() != 0) return;
    uint32_t *lock = p->counter, spins = 0;
    volatile uint32_t *cnt = p->counter + 32;
    for (uint32_t k = 0; k < p->n; k++) {
        for (;;) { /* test and test-and-set: wait until it looks free, then try */
            while (*(volatile uint32_t *)lock) {}
            if (!__atomic_exchange_n(lock, 1, __ATOMIC_ACQUIRE)) break;
            spins++;
        }
        *cnt = *cnt + 1;
        __atomic_exchange_n(lock, 0, __ATOMIC_RELEASE);
    }
    p->out[fg_global_id_x() / 32] = spins;
}

/* t_bar_atomic: every thread adds 1 to its block's word counter[block]
 * with an AMO, then after the block barrier reads it with a plain load:
 * out[i] = the block's thread count (the barrier orders the AMOs before the
 * loads, with atomics performed at issue or at the L2). */
void t_bar_atomic(const struct t_args *p) {
    uint32_t *c = p->counter + fg_ctaid_x();
    __atomic_fetch_add(c, 1, __ATOMIC_RELAXED);
    fg_sync();
    p->out[fg_global_id_x()] = *(volatile uint32_t *)c;
}

/* t_amo_order: program order of one thread's AMO and its plain accesses to
 * the same word (counter[2 i], counter[2 i + 1]): a load after an AMO sees
 * it (out[i] = counter[2 i] + 5), an AMO does not undo a later store
 * (counter[2 i + 1] ends at 7), whether the AMO is performed at issue or at
 * the L2. */
void t_amo_order(const struct t_args *p) {
    uint32_t i = fg_global_id_x();
    uint32_t *w = p->counter + 2 * i;
    __atomic_fetch_add(w, 5, __ATOMIC_RELAXED);
    p->out[i] = *(volatile uint32_t *)w;
    __atomic_fetch_add(w + 1, 3, __ATOMIC_RELAXED);
    *(volatile uint32_t *)(w + 1) = 7;
}
