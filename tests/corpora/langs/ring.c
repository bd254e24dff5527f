/*
** A ring buffer of bytes (the file's opening comment).
*/

#include <stddef.h>

static size_t ring_next (size_t at, size_t size);

/*
** Push one byte. Drops the oldest byte when the ring is full.
*/
int ring_push (unsigned char *ring, size_t size, size_t *head, unsigned char byte) {
  ring[*head] = byte;
  *head = ring_next(*head, size);
  return 1;
}

static size_t ring_next (size_t at, size_t size) {
  return (at + 1) % size;
}

#if defined(RING_DEBUG)
/* Print the ring. */
void ring_dump (const unsigned char *ring, size_t size) {
  (void)ring; (void)size;
}
#endif
