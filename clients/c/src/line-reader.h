/* Cuts the bytes read from the daemon into lines, with the daemon's line limit. No I/O, no JSON. */
#ifndef PRESSURED_LINE_READER_H
#define PRESSURED_LINE_READER_H

#include <stddef.h>

struct line_reader {
	char *buffer;
	size_t cap;     /* allocated */
	size_t start;   /* first byte of the line being read */
	size_t len;     /* bytes held, from 0 */
	size_t scanned; /* bytes from start known to hold no newline */
	size_t max;     /* longest line, without its newline */
};

/* A reader for lines of at most @p max bytes. 0 or -ENOMEM. */
int line_reader_init(struct line_reader *r, size_t max);
void line_reader_release(struct line_reader *r);
/* Forgets what is buffered (a new connection). */
void line_reader_reset(struct line_reader *r);
/* Where the next read may write, at least 4 KiB, and how much fits; NULL on ENOMEM. */
char *line_reader_space(struct line_reader *r, size_t *avail);
/* @p n bytes were written at line_reader_space's pointer. */
void line_reader_commit(struct line_reader *r, size_t n);
/* Copies in what fits of @p len bytes (tests, fuzzing, benchmarks): returns how many were taken (call
 * line_reader_next until it returns 0 before feeding the rest), or -ENOMEM. */
long line_reader_feed(struct line_reader *r, const char *data, size_t len);
/* How many bytes of an unfinished line are held (after line_reader_next returned 0). */
size_t line_reader_pending(const struct line_reader *r);
/* The next complete line (without its newline; blank lines, only spaces, tabs and \r, skipped) in
 * *line / *len: 1. 0 when none is complete yet, -EMSGSIZE when the line being read is over the limit
 * (the reader is then unusable until reset). The line stays valid until the next call of any function. */
int line_reader_next(struct line_reader *r, const char **line, size_t *len);

#endif
