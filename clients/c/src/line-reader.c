/* The line reader (line-reader.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "line-reader.h"

#define READ_CHUNK 65536

int line_reader_init(struct line_reader *r, size_t max)
{
	memset(r, 0, sizeof(*r));
	r->max = max;
	r->cap = max + 1 + READ_CHUNK;
	r->buffer = malloc(r->cap);
	return r->buffer ? 0 : -ENOMEM;
}

void line_reader_release(struct line_reader *r)
{
	free(r->buffer);
	memset(r, 0, sizeof(*r));
}

void line_reader_reset(struct line_reader *r)
{
	r->start = r->len = r->scanned = 0;
}

char *line_reader_space(struct line_reader *r, size_t *avail)
{
	if (!r->buffer)
		return NULL;
	if (r->start > 0) { /* move the partial line to the front */
		memmove(r->buffer, r->buffer + r->start, r->len - r->start);
		r->len -= r->start;
		r->start = 0;
	}
	/* The buffer holds at most max + 1 bytes without a newline (more is an error), so there is always
	 * READ_CHUNK of room at least. */
	*avail = r->cap - r->len;
	return r->buffer + r->len;
}

void line_reader_commit(struct line_reader *r, size_t n)
{
	r->len += n;
}

long line_reader_feed(struct line_reader *r, const char *data, size_t len)
{
	size_t avail;
	char *space = line_reader_space(r, &avail);
	if (!space)
		return -ENOMEM;
	size_t n = len < avail ? len : avail;
	memcpy(space, data, n);
	line_reader_commit(r, n);
	return (long)n;
}

static int blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

int line_reader_next(struct line_reader *r, const char **line, size_t *len)
{
	for (;;) {
		char *from = r->buffer + r->start + r->scanned;
		size_t left = r->len - r->start - r->scanned;
		char *nl = left ? memchr(from, '\n', left) : NULL;
		if (!nl) {
			r->scanned = r->len - r->start;
			if (r->scanned > r->max)
				return -EMSGSIZE;
			return 0;
		}
		char *begin = r->buffer + r->start;
		size_t n = (size_t)(nl - begin);
		r->start += n + 1;
		r->scanned = 0;
		if (n > r->max)
			return -EMSGSIZE;
		if (blank(begin, n))
			continue;
		*nl = '\0'; /* json-c and printing like a terminated line */
		*line = begin;
		*len = n;
		return 1;
	}
}

size_t line_reader_pending(const struct line_reader *r)
{
	return r->len - r->start;
}
