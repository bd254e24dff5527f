/* A growable byte buffer. */
#include <stdlib.h>
#include <string.h>
#include "buffer.h"

#define INITIAL_CAP 16

typedef struct buffer {
    char *data;
    size_t len;
    size_t cap;
} buffer_t;

enum grow_policy { GROW_DOUBLE, GROW_LINEAR };

/* Ensure room for n more bytes. */
static int reserve(buffer_t *b, size_t n)
{
    if (b->len + n <= b->cap) {
        return 0;
    }
    size_t cap = b->cap ? b->cap * 2 : INITIAL_CAP;
    char *p = realloc(b->data, cap);
    if (!p) {
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

/* Append bytes to the buffer. */
int buffer_append(buffer_t *b, const char *s, size_t n)
{
    if (reserve(b, n) != 0) {
        return -1;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    return 0;
}
