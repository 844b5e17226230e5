/* fg_host: UARTBone over a serial device or TCP (fg_host.h). */
#include "fg_host.h"
#include "fg_util.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

struct fg_host {
    int fd;
    int is_tty;
    unsigned timeout_ms;
    char err[256];
};

int fg_host_fail(fg_host *h, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(h->err, sizeof h->err, fmt, ap);
    va_end(ap);
    return -1;
}
#define fail fg_host_fail

size_t fg_ub_frame(uint8_t *buf, uint8_t cmd, unsigned n, uint32_t byte_addr, const uint32_t *data) {
    uint32_t wa = byte_addr >> 2;
    size_t k = 0;
    buf[k++] = cmd;
    buf[k++] = (uint8_t)(n & 0xff);
    for (int s = 24; s >= 0; s -= 8) buf[k++] = (uint8_t)(wa >> s);
    if (data && (cmd == FG_UB_WRITE || cmd == FG_UB_WRITE_FIXED)) {
        for (unsigned i = 0; i < n; i++)
            for (int s = 24; s >= 0; s -= 8) buf[k++] = (uint8_t)(data[i] >> s);
    }
    return k;
}

static int open_tcp(fg_host *h, const char *spec) {
    char host[256];
    const char *colon = strrchr(spec, ':');
    if (!colon || (size_t)(colon - spec) >= sizeof host) return fail(h, "tcp: expected tcp:HOST:PORT");
    memcpy(host, spec, (size_t)(colon - spec));
    host[colon - spec] = 0;
    uint64_t port;
    char why[160];
    if (fg_num_u64("tcp: PORT", colon + 1, 1, 65535, &port, why, sizeof why)) return fail(h, "%s", why);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM}, *res = NULL;
    int rc = getaddrinfo(host, colon + 1, &hints, &res);
    if (rc) return fail(h, "tcp: %s: %s", spec, gai_strerror(rc));
    int fd = -1;
    for (struct addrinfo *a = res; a; a = a->ai_next) {
        fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
        if (fd < 0) continue;
        if (connect(fd, a->ai_addr, a->ai_addrlen) == 0) break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) return fail(h, "tcp: cannot connect to %s: %s", spec, strerror(errno));
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    h->fd = fd;
    return 0;
}

static speed_t baud_const(unsigned long b) {
    switch (b) {
    case 9600: return B9600;
    case 19200: return B19200;
    case 38400: return B38400;
    case 57600: return B57600;
    case 115200: return B115200;
    case 230400: return B230400;
    case 460800: return B460800;
    case 921600: return B921600;
    case 1000000: return B1000000;
    case 2000000: return B2000000;
    case 3000000: return B3000000;
    default: return 0;
    }
}

static int open_serial(fg_host *h, const char *spec) {
    char path[256];
    unsigned long baud = 115200;
    const char *at = strchr(spec, '@');
    size_t n = at ? (size_t)(at - spec) : strlen(spec);
    if (n >= sizeof path) return fail(h, "serial: path too long");
    memcpy(path, spec, n);
    path[n] = 0;
    uint64_t b = baud;
    char why[160];
    if (at && fg_num_u64("serial: BAUD", at + 1, 1, 4000000, &b, why, sizeof why)) return fail(h, "%s", why);
    baud = (unsigned long)b;
    speed_t sp = baud_const(baud);
    if (!sp) return fail(h, "serial: unsupported baud %lu", baud);
    int fd = open(path, O_RDWR | O_NOCTTY);
    if (fd < 0) return fail(h, "serial: %s: %s", path, strerror(errno));
    struct termios t;
    if (tcgetattr(fd, &t) != 0) {
        close(fd);
        return fail(h, "serial: %s is not a terminal", path);
    }
    cfmakeraw(&t);
    t.c_cflag |= CLOCAL | CREAD;
    t.c_cflag &= ~(unsigned)(CSTOPB | CRTSCTS);
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    cfsetispeed(&t, sp);
    cfsetospeed(&t, sp);
    if (tcsetattr(fd, TCSANOW, &t) != 0) {
        close(fd);
        return fail(h, "serial: cannot configure %s", path);
    }
    tcflush(fd, TCIOFLUSH);
    h->fd = fd;
    h->is_tty = 1;
    return 0;
}

fg_host *fg_host_open(const char *where, char *err, size_t errlen) {
    fg_host *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->fd = -1;
    h->timeout_ms = 2000;
    int rc;
    if (strncmp(where, "tcp:", 4) == 0) rc = open_tcp(h, where + 4);
    else if (strncmp(where, "socket://", 9) == 0) rc = open_tcp(h, where + 9); /* LiteX's spelling */
    else rc = open_serial(h, strncmp(where, "serial:", 7) == 0 ? where + 7 : where);
    if (rc) {
        snprintf(err, errlen, "%s", h->err);
        free(h);
        return NULL;
    }
    return h;
}

void fg_host_close(fg_host *h) {
    if (!h) return;
    if (h->fd >= 0) close(h->fd);
    free(h);
}

const char *fg_host_error(const fg_host *h) { return h->err; }
void fg_host_set_timeout(fg_host *h, unsigned ms) { h->timeout_ms = ms; }

static int send_all(fg_host *h, const uint8_t *buf, size_t n) {
    while (n) {
        ssize_t w = write(h->fd, buf, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            return fail(h, "write: %s", strerror(errno));
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

static int recv_all(fg_host *h, uint8_t *buf, size_t n) {
    while (n) {
        struct pollfd p = {.fd = h->fd, .events = POLLIN};
        int r = poll(&p, 1, (int)h->timeout_ms);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return fail(h, "no answer within %u ms (%zu bytes missing)", h->timeout_ms, n);
        ssize_t got = read(h->fd, buf, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return fail(h, "read: %s", got == 0 ? "connection closed" : strerror(errno));
        buf += got;
        n -= (size_t)got;
    }
    return 0;
}

/* Drops stale bytes (an answer to a request that timed out). */
static void drain(fg_host *h) {
    uint8_t junk[256];
    for (;;) {
        struct pollfd p = {.fd = h->fd, .events = POLLIN};
        if (poll(&p, 1, 0) <= 0) return;
        if (read(h->fd, junk, sizeof junk) <= 0) return;
    }
}

int fg_host_read_burst(fg_host *h, uint32_t addr, uint32_t *vals, unsigned n) {
    if (n == 0 || n > 256 || (addr & 3)) return fail(h, "read: bad length %u or address 0x%x", n, addr);
    uint8_t f[8], rx[1024];
    drain(h);
    size_t k = fg_ub_frame(f, FG_UB_READ, n, addr, NULL);
    if (send_all(h, f, k) || recv_all(h, rx, 4 * (size_t)n)) return -1;
    for (unsigned i = 0; i < n; i++)
        vals[i] = (uint32_t)rx[4 * i] << 24 | (uint32_t)rx[4 * i + 1] << 16 | (uint32_t)rx[4 * i + 2] << 8 |
                  rx[4 * i + 3];
    return 0;
}

int fg_host_write_burst(fg_host *h, uint32_t addr, const uint32_t *vals, unsigned n) {
    if (n == 0 || n > 256 || (addr & 3)) return fail(h, "write: bad length %u or address 0x%x", n, addr);
    uint8_t f[6 + 1024];
    size_t k = fg_ub_frame(f, FG_UB_WRITE, n, addr, vals);
    return send_all(h, f, k);
}

int fg_host_write_fixed(fg_host *h, uint32_t addr, const uint32_t *vals, unsigned n) {
    if (n == 0 || n > 256 || (addr & 3)) return fail(h, "write: bad length %u or address 0x%x", n, addr);
    uint8_t f[6 + 1024];
    size_t k = fg_ub_frame(f, FG_UB_WRITE_FIXED, n, addr, vals);
    return send_all(h, f, k);
}

int fg_host_read(fg_host *h, uint32_t addr, uint32_t *val) { return fg_host_read_burst(h, addr, val, 1); }
int fg_host_write(fg_host *h, uint32_t addr, uint32_t val) { return fg_host_write_burst(h, addr, &val, 1); }

int fg_host_read_field(fg_host *h, uint32_t addr, unsigned width, uint64_t *val) {
    uint32_t w[2] = {0, 0};
    unsigned n = width > 32 ? 2 : 1;
    if (fg_host_read_burst(h, addr, w, n)) return -1;
    *val = (uint64_t)w[1] << 32 | w[0];
    return 0;
}

int fg_host_write_field(fg_host *h, uint32_t addr, unsigned width, uint64_t val) {
    uint32_t w[2] = {(uint32_t)val, (uint32_t)(val >> 32)};
    return fg_host_write_burst(h, addr, w, width > 32 ? 2 : 1);
}

int fg_host_check_id(fg_host *h) {
    uint32_t v[3];
    if (fg_host_read_burst(h, FG_WIN_SYS + FG_SYS_ID, v, 3)) return -1;
    if (v[0] != FG_ID) return fail(h, "ID 0x%08x, expected 0x%08x: not a finegrain top", v[0], FG_ID);
    if (v[1] != FG_VERSION || v[2] != FG_MAP_HASH)
        return fail(h, "register map 0x%08x/0x%08x, this program has 0x%08x/0x%08x: rebuild one of them",
                    v[1], v[2], FG_VERSION, FG_MAP_HASH);
    return 0;
}

int fg_host_reset_blocks(fg_host *h) {
    uint32_t v;
    if (fg_host_write(h, FG_WIN_SYS + FG_SYS_RESET, 1)) return -1;
    return fg_host_read(h, FG_WIN_SYS + FG_SYS_ID, &v); /* the reset is over when this answers */
}

int fg_host_cycles(fg_host *h, uint64_t *cycles) {
    uint32_t hi, lo, hi2;
    do {
        if (fg_host_read(h, FG_WIN_SYS + FG_SYS_CYCLE_HI, &hi) ||
            fg_host_read(h, FG_WIN_SYS + FG_SYS_CYCLE_LO, &lo) ||
            fg_host_read(h, FG_WIN_SYS + FG_SYS_CYCLE_HI, &hi2))
            return -1;
    } while (hi != hi2);
    *cycles = (uint64_t)hi << 32 | lo;
    return 0;
}
