/* The SIMT top's registers, memory and error paths through the host
 * library: run by scripts/test_fpga_simt.sh with FG_FPGA=tcp:127.0.0.1:PORT
 * pointing at build/bin/fpga_simt_sim (or, by hand, at a board).  What
 * fg_host run-events does not reach: bad input to the top must be refused
 * with a flag that says what, and lose nothing (docs/FPGA.md "The SIMT
 * top"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "fg_host.h"
#include "fg_hw.h"
#include "fg_regmap_simt.h"
#include "fg_simt.h"
#include "gen/edge_ekt_enc.h"

static fg_host *H;

#define S(off) (FG_WIN_SIMT + (off))
#define OK(call) assert_int_equal((call), 0)

static uint32_t rd(uint32_t a) {
    uint32_t v = 0;
    OK(fg_host_read(H, a, &v));
    return v;
}
static void wr(uint32_t a, uint32_t v) { OK(fg_host_write(H, a, v)); }

/* every test from reset, counters and sticky errors clear */
static int setup(void **state) {
    (void)state;
    if (fg_host_reset_blocks(H)) return -1;
    return fg_host_write(H, S(FG_SIMT_CTRL), FG_SIMT_CTRL_CLEAR);
}

static void test_identity(void **state) {
    (void)state;
    OK(fg_host_check_id(H));
    assert_int_equal(rd(S(FG_SIMT_ID)), FG_SIMT_ID_VALUE);
    const uint32_t p = rd(S(FG_SIMT_PARAMS));
    /* SYS describes this top's one core and its slots */
    assert_int_equal(rd(FG_WIN_SYS + FG_SYS_NCORES), 1);
    assert_int_equal(rd(FG_WIN_SYS + FG_SYS_CORE_NW), p & 0xFF);
    assert_true((p & 0xFF) >= 2 && (p >> 8 & 0xFF) >= 1);
    assert_true(rd(S(FG_SIMT_MEM_BYTES)) >= 64 * 1024);
    assert_int_equal(rd(S(FG_SIMT_STATUS)), 0);
    assert_int_equal(rd(S(FG_SIMT_REC_TAG)), 0xFFFFFFFFu); /* no record */
}

static void test_memory(void **state) {
    (void)state;
    const uint32_t bytes = rd(S(FG_SIMT_MEM_BYTES));
    uint32_t w[64], r[64];
    for (unsigned i = 0; i < 64; i++) w[i] = 0x9E3779B9u * (i + 1);
    /* the first and the last words of the memory */
    OK(fg_host_write_burst(H, FG_SIMT_MEM_BASE + 0x1000, w, 64));
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + 0x1000, r, 64));
    assert_memory_equal(w, r, sizeof w);
    OK(fg_host_write_burst(H, FG_SIMT_MEM_BASE + bytes - 256, w, 64));
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + bytes - 256, r, 64));
    assert_memory_equal(w, r, sizeof w);
    /* the fill engine: 1000 words, the words around them untouched */
    wr(S(FG_SIMT_FILL_ADDR), 0x2000);
    wr(S(FG_SIMT_FILL_VALUE), 0xA5A55A5Au);
    wr(S(FG_SIMT_FILL_COUNT), 1000);
    for (unsigned t = 0; t < 1000 && rd(S(FG_SIMT_FILL_COUNT)); t++) {
    }
    assert_int_equal(rd(S(FG_SIMT_FILL_COUNT)), 0);
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + 0x2000 - 4, r, 2));
    assert_int_equal(r[1], 0xA5A55A5Au);
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + 0x2000 + 999 * 4, r, 2));
    assert_int_equal(r[0], 0xA5A55A5Au);
    assert_int_not_equal(r[1], 0xA5A55A5Au);
    assert_int_equal(rd(S(FG_SIMT_STATUS)), 0);
    /* beyond the memory: read as 0, nothing written, flagged with the address */
    wr(FG_SIMT_MEM_BASE + bytes, 0x12345678u);
    assert_int_equal(rd(FG_SIMT_MEM_BASE + bytes), 0);
    assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_MEM_ERR);
    assert_int_equal(rd(S(FG_SIMT_MEM_ERR_ADDR)), bytes);
    wr(S(FG_SIMT_CTRL), FG_SIMT_CTRL_CLEAR);
    assert_int_equal(rd(S(FG_SIMT_STATUS)), 0);
    /* a fill count written while a fill runs is refused, the running fill goes on */
    wr(S(FG_SIMT_FILL_ADDR), 0x4000);
    wr(S(FG_SIMT_FILL_COUNT), 60000);
    wr(S(FG_SIMT_FILL_COUNT), 5);
    assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_REFUSED);
    for (unsigned t = 0; t < 10000 && rd(S(FG_SIMT_FILL_COUNT)); t++) {
    }
    assert_int_equal(rd(S(FG_SIMT_FILL_COUNT)), 0);
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + 0x4000 + 59999 * 4, r, 1));
    assert_int_equal(r[0], 0xA5A55A5Au);
}

static void check_sums(uint32_t addr, unsigned n, uint32_t *a, uint32_t *b) {
    wr(S(FG_SIMT_CHK_ADDR), addr);
    wr(S(FG_SIMT_CHK_COUNT), n);
    for (unsigned t = 0; t < 100000 && rd(S(FG_SIMT_CHK_COUNT)); t++) {
    }
    assert_int_equal(rd(S(FG_SIMT_CHK_COUNT)), 0);
    assert_false(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_CHECKING);
    *a = rd(S(FG_SIMT_CHK_SUM));
    *b = rd(S(FG_SIMT_CHK_SUM2));
}

static void test_check(void **state) {
    (void)state;
    enum { N = 512 };
    static uint32_t w[N];
    uint32_t a, b, wa, wb, r[2], s[2];
    for (unsigned i = 0; i < N; i++) w[i] = 0x9E3779B9u * (i + 7) ^ (i << 20);
    for (unsigned i = 0; i < N; i += 256) OK(fg_host_write_burst(H, FG_SIMT_MEM_BASE + 0x3000 + 4 * i, w + i, 256));
    fg_simt_sums(w, N, s); /* the host's sums (run-events compares the board's with them) */
    wa = s[0], wb = s[1];
    check_sums(0x3000, N, &a, &b);
    assert_int_equal(a, wa);
    assert_int_equal(b, wb);
    /* one word changed, and two words swapped: each changes a sum */
    OK(fg_host_write(H, FG_SIMT_MEM_BASE + 0x3000 + 4 * 300, w[300] ^ 0x100));
    check_sums(0x3000, N, &a, &b);
    assert_true(a != wa || b != wb);
    OK(fg_host_write(H, FG_SIMT_MEM_BASE + 0x3000 + 4 * 300, w[301]));
    OK(fg_host_write(H, FG_SIMT_MEM_BASE + 0x3000 + 4 * 301, w[300]));
    check_sums(0x3000, N, &a, &b);
    assert_int_equal(a, wa);
    assert_int_not_equal(b, wb);
    /* a count or an address written while a check runs is refused, the check goes on; a memory
     * read of the bus waits for the check and gets its own word */
    wr(S(FG_SIMT_CHK_ADDR), 0x1000);
    wr(S(FG_SIMT_CHK_COUNT), 60000);
    wr(S(FG_SIMT_CHK_COUNT), 5);
    wr(S(FG_SIMT_CHK_ADDR), 0x2000);
    assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_REFUSED);
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + 0x3000 + 4 * 300, r, 2));
    assert_int_equal(r[0], w[301]);
    assert_int_equal(r[1], w[300]);
    for (unsigned t = 0; t < 100000 && rd(S(FG_SIMT_CHK_COUNT)); t++) {
    }
    assert_int_equal(rd(S(FG_SIMT_CHK_COUNT)), 0);
    assert_int_equal(rd(S(FG_SIMT_CHK_ADDR)), 0x1000 + 4 * 60000);
    /* CLEAR stops a check: a count of nearly 2^32 words ends at once, and the bus reads memory again */
    wr(S(FG_SIMT_CHK_ADDR), 0x1000);
    wr(S(FG_SIMT_CHK_COUNT), 0xFFFFFFF0u);
    assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_CHECKING);
    wr(S(FG_SIMT_CTRL), FG_SIMT_CTRL_CLEAR);
    assert_int_equal(rd(S(FG_SIMT_CHK_COUNT)), 0);
    assert_false(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_CHECKING);
    OK(fg_host_read_burst(H, FG_SIMT_MEM_BASE + 0x3000 + 4 * 300, r, 1));
    assert_int_equal(r[0], w[301]);
    /* a range reaching beyond the memory: its words read as 0 there, flagged with the address */
    wr(S(FG_SIMT_CTRL), FG_SIMT_CTRL_CLEAR);
    const uint32_t bytes = rd(S(FG_SIMT_MEM_BYTES));
    check_sums(bytes - 8, 4, &a, &b);
    assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_MEM_ERR);
    assert_int_equal(rd(S(FG_SIMT_MEM_ERR_ADDR)), bytes);
}

/* an EKT registration of one block (bx, by, 1) with shmem bytes of shared
 * memory; returns its doorbell id (the EKT's lowest free entry) */
static unsigned reg_kernel(unsigned bx, unsigned by, unsigned shmem) {
    const fg_hw_kernel k = {.kernel_ptr = 0x1000, .param_base = 0x8000, .param_size = 64,
                            .param_end = 0x8000 + 3 * 64, .grid = {1, 1, 1}, .block = {bx, by, 1},
                            .shmem = shmem, .max_events = 4};
    fg_hw_rsp r;
    OK(fg_hw_ekt_cmd(H, EKT_OP_REG, 0, &k, &r));
    assert_int_equal(r.status, 0);
    return r.id;
}

static unsigned inflight(unsigned id) {
    fg_hw_rsp r;
    OK(fg_hw_ekt_cmd(H, EKT_OP_READ, id, NULL, &r));
    return r.inflight;
}

static void test_refused_events(void **state) {
    (void)state;
    /* one warp, but shared memory / a 2-D block: the core cannot run either */
    const unsigned id[2] = {reg_kernel(32, 1, 64), reg_kernel(16, 2, 0)};
    assert_int_not_equal(id[0], id[1]);
    for (unsigned round = 0; round < 6; round++) { /* more than max_events: none stays in flight */
        OK(fg_hw_ring(H, id[round % 2]));
        for (unsigned t = 0; t < 100 && (inflight(id[0]) || inflight(id[1])); t++) {
        }
        assert_int_equal(inflight(id[0]), 0);
        assert_int_equal(inflight(id[1]), 0);
    }
    const uint32_t st = rd(S(FG_SIMT_STATUS));
    assert_true(st & FG_SIMT_ST_EV_BAD);
    assert_false(st & (FG_SIMT_ST_ERR | FG_SIMT_ST_CPL_LOST | FG_SIMT_ST_FAULT));
    assert_int_equal(rd(S(FG_SIMT_EV_DONE)), 0);  /* none ran */
    assert_int_equal(rd(S(FG_SIMT_REC_COUNT)), 0);
    assert_int_equal(rd(FG_WIN_EKT + FGR_EKTEV_CNT_ERR_OVERRUN), 0);
    assert_int_equal(rd(FG_WIN_EKT + FGR_EKTEV_CNT_ERR_UNREG), 0);
    assert_int_equal(rd(FG_WIN_EKT + FGR_EKTEV_CNT_LAUNCH), 6);
}

static void test_bad_launch(void **state) {
    (void)state;
    /* a grid of 0 blocks, and blocks of 0 or 33 threads: refused, nothing launched */
    const uint32_t shapes[3][2] = {{0, 32}, {4, 0}, {4, 33}};
    for (unsigned i = 0; i < 3; i++) {
        wr(S(FG_SIMT_BG_NCTA), shapes[i][0]);
        wr(S(FG_SIMT_BG_NTID), shapes[i][1]);
        wr(S(FG_SIMT_CTRL), FG_SIMT_CTRL_LAUNCH);
        assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_REFUSED);
        assert_int_equal(rd(S(FG_SIMT_BG_LAUNCHED)), 0);
        wr(S(FG_SIMT_CTRL), FG_SIMT_CTRL_CLEAR);
    }
    /* a warp at a pc below the null guard: it faults at the fetch, flagged with its pc */
    wr(S(FG_SIMT_BG_PC), 0x100);
    wr(S(FG_SIMT_BG_NCTA), 1);
    wr(S(FG_SIMT_BG_NTID), 32);
    wr(S(FG_SIMT_CTRL), FG_SIMT_CTRL_LAUNCH);
    for (unsigned t = 0; t < 100 && !(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_FAULT); t++) {
    }
    assert_true(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_FAULT);
    assert_int_equal(rd(S(FG_SIMT_FAULT)) & 7, 3); /* SIMT_FAULT_FETCH */
    assert_int_equal(rd(S(FG_SIMT_FAULT_PC)), 0x100);
    assert_int_equal(rd(S(FG_SIMT_FAULTS)), 1);
    assert_int_equal(rd(S(FG_SIMT_BG_LAUNCHED)), 1);
    assert_false(rd(S(FG_SIMT_STATUS)) & FG_SIMT_ST_BUSY); /* the warp is gone */
}

int main(void) {
    const char *where = getenv("FG_FPGA");
    if (!where) {
        fprintf(stderr, "test_fpga_simt: set FG_FPGA=tcp:HOST:PORT (scripts/test_fpga_simt.sh does)\n");
        return 1;
    }
    char err[256];
    H = fg_host_open(where, err, sizeof err);
    if (!H) {
        fprintf(stderr, "test_fpga_simt: %s\n", err);
        return 1;
    }
    fg_host_set_timeout(H, 20000);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_identity, setup),
        cmocka_unit_test_setup(test_memory, setup),
        cmocka_unit_test_setup(test_check, setup),
        cmocka_unit_test_setup(test_refused_events, setup),
        cmocka_unit_test_setup(test_bad_launch, setup),
    };
    int rc = cmocka_run_group_tests_name("fpga_simt", tests, NULL, NULL);
    fg_host_close(H);
    return rc;
}
