/* sys_queue: a growable FIFO of fixed-size records (no global state). */
#ifndef SYS_QUEUE_H
#define SYS_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    unsigned char *buf;
    size_t elem, cap, head, n;
} sys_queue;

static inline void sys_queue_init(sys_queue *q, size_t elem) {
    memset(q, 0, sizeof *q);
    q->elem = elem;
}
static inline void sys_queue_free(sys_queue *q) {
    free(q->buf);
    q->buf = NULL;
    q->cap = q->n = q->head = 0;
}
static inline int sys_queue_push(sys_queue *q, const void *x) {
    if (q->n == q->cap) {
        size_t c = q->cap ? 2 * q->cap : 16;
        unsigned char *b = malloc(c * q->elem);
        if (!b) return -1;
        for (size_t i = 0; i < q->n; i++)
            memcpy(b + i * q->elem, q->buf + ((q->head + i) % q->cap) * q->elem, q->elem);
        free(q->buf);
        q->buf = b;
        q->cap = c;
        q->head = 0;
    }
    memcpy(q->buf + ((q->head + q->n) % q->cap) * q->elem, x, q->elem);
    q->n++;
    return 0;
}
static inline void *sys_queue_at(const sys_queue *q, size_t i) {
    return i < q->n ? q->buf + ((q->head + i) % q->cap) * q->elem : NULL;
}
static inline void *sys_queue_head(const sys_queue *q) { return sys_queue_at(q, 0); }
static inline bool sys_queue_pop(sys_queue *q, void *out) {
    if (!q->n) return false;
    if (out) memcpy(out, sys_queue_head(q), q->elem);
    q->head = (q->head + 1) % q->cap;
    q->n--;
    return true;
}
/* Removes element i (order kept). */
static inline void sys_queue_remove(sys_queue *q, size_t i) {
    for (size_t k = i; k + 1 < q->n; k++) memcpy(sys_queue_at(q, k), sys_queue_at(q, k + 1), q->elem);
    q->n--;
}

#endif
