/* The line reader alone: lines cut anywhere, blank lines, the limit. */
#include <errno.h>
#include <string.h>

#include "helpers.h"
#include "line-reader.h"

static int count_lines(struct line_reader *r, const char *data, size_t len, size_t chunk, char out[][64], int max)
{
	int n = 0;
	for (size_t off = 0; off < len;) {
		size_t take = len - off < chunk ? len - off : chunk;
		long fed = line_reader_feed(r, data + off, take);
		if (fed < 0)
			return (int)fed;
		off += (size_t)fed;
		const char *line;
		size_t l;
		int rc;
		while ((rc = line_reader_next(r, &line, &l)) > 0) {
			if (n < max)
				snprintf(out[n], 64, "%.*s", (int)l, line);
			n++;
		}
		if (rc < 0)
			return rc;
	}
	return n;
}

int main(void)
{
	struct line_reader r;
	const char *text = "{\"a\":1}\n\n  \t\r\n{\"b\":2}\r\n{\"c\":3}\npartial";
	for (size_t chunk = 1; chunk < 50; chunk++) {
		char lines[8][64];
		REQUIRE(line_reader_init(&r, 16) == 0);
		int n = count_lines(&r, text, strlen(text), chunk, lines, 8);
		CHECK(n == 3);
		if (n == 3) {
			CHECK(strcmp(lines[0], "{\"a\":1}") == 0);
			CHECK(strcmp(lines[1], "{\"b\":2}\r") == 0);
			CHECK(strcmp(lines[2], "{\"c\":3}") == 0);
		}
		line_reader_release(&r);
	}
	/* A line of exactly the limit passes; one byte more does not, complete or not. */
	REQUIRE(line_reader_init(&r, 8) == 0);
	char lines[4][64];
	CHECK(count_lines(&r, "12345678\n", 9, 100, lines, 4) == 1);
	CHECK(count_lines(&r, "123456789\n", 10, 100, lines, 4) == -EMSGSIZE);
	line_reader_reset(&r);
	CHECK(count_lines(&r, "123456789", 9, 3, lines, 4) == -EMSGSIZE);
	line_reader_reset(&r);
	CHECK(count_lines(&r, "ok\n", 3, 1, lines, 4) == 1);
	line_reader_release(&r);
	/* The real limit, fed in big chunks. */
	REQUIRE(line_reader_init(&r, PRESSURED_LINE_MAX) == 0);
	size_t big = PRESSURED_LINE_MAX + 10;
	char *data = malloc(big);
	memset(data, 'x', big);
	data[PRESSURED_LINE_MAX] = '\n';
	CHECK(count_lines(&r, data, PRESSURED_LINE_MAX + 1, 70000, lines, 4) == 1);
	line_reader_reset(&r);
	data[PRESSURED_LINE_MAX] = 'x';
	CHECK(count_lines(&r, data, big, 70000, lines, 4) == -EMSGSIZE);
	free(data);
	line_reader_release(&r);
	printf("line reader: %d failures\n", failures);
	return failures ? 1 : 0;
}
