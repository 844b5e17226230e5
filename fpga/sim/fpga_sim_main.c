/* build/bin/fpga_sim: the verilated FPGA top with a bit-level UART model on
 * its FTDI pins, bridged to a local TCP port, so that the host library
 * (tcp:127.0.0.1:PORT) and LiteX's litex_server (--uart --uart-port
 * socket://127.0.0.1:PORT) reach the simulated board as they reach the
 * real one (docs/FPGA.md).
 *
 *   fpga_sim [--port N] [--port-file PATH] [--div N] [--max-seconds S] [--trace F.fst]
 *
 * Bytes from the TCP client are sent into ftdi_txd bit by bit (start bit,
 * 8 data bits LSB first, stop bit, DIV cycles each); ftdi_rxd is sampled in
 * the middle of every bit and each byte whose stop bit is 1 goes back to the
 * client.  The RTL UART runs at the same DIV: the top is verilated with a
 * baud of clock / FG_SIM_DIV (mk/fpga.mk), a short bit so that a register
 * access costs about 2,000 cycles instead of 50,000.  One client at a time;
 * a new one is accepted when the last one has gone.  The design clock runs
 * freely (the design sees time pass between requests, as on the board);
 * while nothing is on the line it is throttled to about 1,024 cycles per
 * millisecond to leave the CPU to the host program. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "fg_top_model.h"
#include "fg_util.h"

#ifndef FG_SIM_DIV
#define FG_SIM_DIV 16
#endif

#define BUF 65536

typedef struct {
    uint8_t d[BUF];
    size_t head, len;
} ring;

static int ring_put(ring *r, uint8_t b) {
    if (r->len == BUF) return -1;
    r->d[(r->head + r->len) % BUF] = b;
    r->len++;
    return 0;
}

static int ring_get(ring *r) {
    if (!r->len) return -1;
    int b = r->d[r->head];
    r->head = (r->head + 1) % BUF;
    r->len--;
    return b;
}

/* UART line into the FPGA: one frame at a time from the queue */
typedef struct {
    int bit;      /* -1 idle, 0 start, 1..8 data, 9 stop */
    unsigned cnt; /* cycles left in this bit */
    uint8_t byte;
} uart_out;

static int uart_out_level(uart_out *u, ring *q, unsigned div) {
    if (u->bit < 0) {
        int b = ring_get(q);
        if (b < 0) return 1;
        u->byte = (uint8_t)b;
        u->bit = 0;
        u->cnt = div;
    }
    int level = u->bit == 0 ? 0 : u->bit == 9 ? 1 : (u->byte >> (u->bit - 1)) & 1;
    if (--u->cnt == 0) {
        u->bit = u->bit == 9 ? -1 : u->bit + 1;
        u->cnt = div;
    }
    return level;
}

/* UART line out of the FPGA, sampled mid-bit */
typedef struct {
    int bit; /* -1 idle, 0 start, 1..8 data, 9 stop */
    unsigned cnt;
    uint8_t byte;
    unsigned long framing_errors;
} uart_in;

static void uart_in_sample(uart_in *u, int level, unsigned div, ring *out) {
    if (u->bit < 0) {
        if (!level) {
            u->bit = 0;
            u->cnt = div / 2;
        }
        return;
    }
    if (--u->cnt) return;
    u->cnt = div;
    if (u->bit == 0) {
        if (level) u->bit = -1; /* glitch */
        else u->bit = 1;
    } else if (u->bit <= 8) {
        u->byte = (uint8_t)((u->byte >> 1) | (level ? 0x80 : 0));
        u->bit++;
    } else {
        if (level) ring_put(out, u->byte);
        else u->framing_errors++;
        u->bit = -1;
    }
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec * 1e-9;
}

static volatile sig_atomic_t stop;
static void on_signal(int s) {
    (void)s;
    stop = 1;
}

int main(int argc, char **argv) {
    unsigned port = 0, div = FG_SIM_DIV;
    double max_s = 0;
    const char *port_file = NULL, *trace = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc) port = (unsigned)fg_arg_u64("fpga_sim", "--port", argv[++i], 0, 65535);
        else if (!strcmp(argv[i], "--port-file") && i + 1 < argc) port_file = argv[++i];
        else if (!strcmp(argv[i], "--div") && i + 1 < argc) div = (unsigned)fg_arg_u64("fpga_sim", "--div", argv[++i], 1, 1u << 20);
        else if (!strcmp(argv[i], "--max-seconds") && i + 1 < argc) max_s = fg_arg_double("fpga_sim", "--max-seconds", argv[++i], 0, 1e9);
        else if (!strcmp(argv[i], "--trace") && i + 1 < argc) trace = argv[++i];
        else {
            const bool known = !strcmp(argv[i], "--port") || !strcmp(argv[i], "--port-file") ||
                               !strcmp(argv[i], "--div") || !strcmp(argv[i], "--max-seconds") || !strcmp(argv[i], "--trace");
            fprintf(stderr, known ? "fpga_sim: %s needs a value\n" : "fpga_sim: unknown option %s\n", argv[i]);
            fprintf(stderr, "usage: fpga_sim [--port N] [--port-file PATH] [--div N] [--max-seconds S] [--trace F.fst]\n");
            return 2;
        }
    }
    if (div < 4) {
        fprintf(stderr, "fpga_sim: --div must be >= 4\n");
        return 2;
    }
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGPIPE, SIG_IGN);

    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    int one = 1;
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(lfd, (struct sockaddr *)&a, sizeof a) || listen(lfd, 1)) {
        fprintf(stderr, "fpga_sim: cannot listen on 127.0.0.1:%u: %s\n", port, strerror(errno));
        return 1;
    }
    socklen_t al = sizeof a;
    getsockname(lfd, (struct sockaddr *)&a, &al);
    port = ntohs(a.sin_port);
    fcntl(lfd, F_SETFL, O_NONBLOCK);

    fg_top_model *m = fg_top_model_new();
    if (trace && fg_top_model_trace(m, trace)) {
        fprintf(stderr, "fpga_sim: cannot write %s\n", trace);
        return 1;
    }
    /* settle the reset (PLL lock + 16 cycles) before anyone talks */
    for (int i = 0; i < 64; i++) fg_top_model_step(m, 1);

    if (port_file) {
        FILE *f = fopen(port_file, "w");
        if (!f) {
            fprintf(stderr, "fpga_sim: cannot write %s\n", port_file);
            return 1;
        }
        fprintf(f, "%u\n", port);
        fclose(f);
    }
    printf("fpga_sim: listening on 127.0.0.1:%u (UART %u cycles per bit)\n", port, div);
    fflush(stdout);

    static ring in, out;
    uart_out txm = {.bit = -1};
    uart_in rxm = {.bit = -1};
    int cfd = -1;
    uint64_t cycle = 0, idle = 0, bytes_in = 0, bytes_out = 0;
    double t0 = now_s();
    int rc = 0;
    while (!stop) {
        /* service the sockets every 64 cycles; every 1024 with a 1 ms wait when idle */
        int quiet = idle > 20000;
        if ((cycle & (quiet ? 1023 : 63)) == 0) {
            if (max_s > 0 && now_s() - t0 > max_s) {
                fprintf(stderr, "fpga_sim: --max-seconds %g reached\n", max_s);
                break;
            }
            struct pollfd p = {.fd = cfd >= 0 ? cfd : lfd, .events = POLLIN};
            poll(&p, 1, quiet ? 1 : 0);
            if (cfd < 0) {
                cfd = accept(lfd, NULL, NULL);
                if (cfd >= 0) {
                    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    fcntl(cfd, F_SETFL, O_NONBLOCK);
                }
            }
            if (cfd >= 0) {
                uint8_t b[4096];
                size_t room = BUF - in.len;
                ssize_t n = read(cfd, b, room < sizeof b ? room : sizeof b);
                if (n > 0) {
                    for (ssize_t i = 0; i < n; i++) ring_put(&in, b[i]);
                    bytes_in += (uint64_t)n;
                } else if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) {
                    close(cfd);
                    cfd = -1;
                    in.len = 0;
                }
            }
        }
        if (out.len) {
            if (cfd >= 0) {
                uint8_t b[256];
                size_t n = 0;
                while (out.len && n < sizeof b) b[n++] = (uint8_t)ring_get(&out);
                bytes_out += n;
                for (size_t k = 0; k < n;) {
                    ssize_t w = write(cfd, b + k, n - k);
                    if (w > 0) k += (size_t)w;
                    else if (errno != EAGAIN && errno != EINTR) break;
                }
            } else {
                out.len = 0;
            }
        }
        int level = uart_out_level(&txm, &in, div);
        int tx = fg_top_model_step(m, level);
        uart_in_sample(&rxm, tx, div, &out);
        cycle++;
        idle = (txm.bit < 0 && rxm.bit < 0 && !in.len) ? idle + 1 : 0;
        const char *e = fg_top_model_error(m);
        if (e) {
            fprintf(stderr, "fpga_sim: %s\n", e);
            rc = 1;
            break;
        }
    }
    fprintf(stderr, "fpga_sim: %llu cycles in %.1f s, %llu bytes in, %llu out, %lu framing errors\n",
            (unsigned long long)cycle, now_s() - t0, (unsigned long long)bytes_in,
            (unsigned long long)bytes_out, rxm.framing_errors);
    if (cfd >= 0) close(cfd);
    close(lfd);
    fg_top_model_free(m);
    return rc;
}
