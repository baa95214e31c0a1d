/* Arguments the protocol refuses (docs/protocol.md, "Limits") give -EINVAL and send nothing: what the
 * daemon would refuse with an id costs an answer, and what it cannot read (bytes that are not UTF-8)
 * gets an error without the id and counts towards its errors in a row. */
#include <errno.h>
#include <string.h>

#include "helpers.h"

/* After the refused calls, a ping is the first line the daemon reads. */
static void nothing_sent(struct fake *f, struct pressured *p)
{
	int64_t id = pressured_ping(p);
	CHECK(id > 0);
	char *line = fake_read_line(f, p);
	CHECK(line && strstr(line, "\"ping\""));
	if (line && !strstr(line, "\"ping\""))
		fprintf(stderr, "sent: %s\n", line);
	free(line);
}

int main(void)
{
	struct fake f;
	struct pressured *p = fake_greeted(&f);

	/* Strings that are not UTF-8: stray continuation, truncated sequence, overlong, surrogate, beyond
	 * U+10FFFF. */
	const char *bad[] = {"org.\xff\xfe", "a\x80", "\xc3", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK(pressured_choose_action(p, bad[i], "x") == -EINVAL);
		CHECK(pressured_choose_action(p, "org.example", bad[i]) == -EINVAL);
		CHECK(pressured_subscribe(p, 0, NULL, 0, bad[i]) == -EINVAL);
		CHECK(pressured_remove_region(p, bad[i]) == -EINVAL);
		CHECK(pressured_set_region(p, bad[i], 0, 0, 1, 1, 0, 0, NULL, NULL, -1) == -EINVAL);
		CHECK(pressured_set_settings(p, -1, bad[i], -1) == -EINVAL);
		struct pressured_items *items = pressured_items_new();
		CHECK(pressured_items_add(items, "id", bad[i], NULL, NULL) == -EINVAL);
		CHECK(pressured_items_add(items, bad[i], "Title", NULL, NULL) == -EINVAL);
		CHECK(pressured_items_add(items, "id", "Title", bad[i], NULL) == -EINVAL);
		CHECK(pressured_items_add(items, "id", "Title", NULL, bad[i]) == -EINVAL);
		pressured_items_free(items);
	}
	CHECK(pressured_choose_action(p, bad[0], "x") == -EINVAL);
	CHECK(strstr(pressured_get_error_message(p), "UTF-8") != NULL);
	nothing_sent(&f, p);
	/* UTF-8 of every length is taken. */
	CHECK(pressured_choose_action(p, "org.\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "x") > 0);
	char *line = fake_read_line(&f, p);
	CHECK(line && strstr(line, "chooseAction"));
	free(line);

	/* Coordinates and sizes within ±10,000,000 pixels, sizes above 0, z within ±1,000,000. */
	CHECK(pressured_set_region(p, "r", 1e8, 0, 1, 1, 0, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, -1e7 - 1, 1, 1, 0, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, 2e7, 1, 0, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, 1, 0, 0, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, -1, 1, 0, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, 1, 1, 2000000, 0, NULL, NULL, -1) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, 1, 1, -1000001, 0, NULL, NULL, -1) == -EINVAL);
	/* haptics and force touch: 0, 1 or -1 only. */
	CHECK(pressured_set_region(p, "r", 0, 0, 1, 1, 0, 0, NULL, NULL, 2) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, 1, 1, 0, 0, NULL, NULL, -2) == -EINVAL);
	CHECK(pressured_set_settings(p, 5, NULL, -1) == -EINVAL);
	CHECK(pressured_set_settings(p, -1, NULL, 2) == -EINVAL);
	CHECK(pressured_set_settings(p, -7, NULL, -1) == -EINVAL);
	/* A sensitivity the protocol does not name. */
	CHECK(pressured_set_settings(p, -1, "extreme", -1) == -EINVAL);
	/* Device ids: integers exact up to 2^53. */
	CHECK(pressured_reset_learning(p, (int64_t)1 << 54) == -EINVAL);
	int64_t huge = (int64_t)1 << 54, negative = -1;
	CHECK(pressured_subscribe(p, 0, &huge, 1, NULL) == -EINVAL);
	CHECK(pressured_subscribe(p, 0, &negative, 1, NULL) == -EINVAL);
	/* 64 items at most in one request. */
	struct pressured_items *many = pressured_items_new();
	for (int i = 0; i < 65; i++)
		CHECK(pressured_items_add(many, "a", "A", NULL, NULL) == 0);
	CHECK(pressured_set_quick_actions(p, many) == -EINVAL);
	CHECK(pressured_set_region(p, "r", 0, 0, 1, 1, 0, 0, NULL, many, -1) == -EINVAL);
	pressured_items_free(many);
	nothing_sent(&f, p);

	/* The edges themselves are sent. */
	CHECK(pressured_set_region(p, "r", -1e7, 1e7, 1e7, 1e-3, 1000000, 0, NULL, NULL, 1) > 0);
	line = fake_read_line(&f, p);
	CHECK(line && strstr(line, "\"z\":1000000") && strstr(line, "\"haptics\":true"));
	free(line);
	CHECK(pressured_set_settings(p, 1, "light", 0) > 0);
	line = fake_read_line(&f, p);
	CHECK(line && strstr(line, "\"forceTouch\":true") && strstr(line, "\"haptics\":false"));
	free(line);

	pressured_unref(p);
	fake_stop(&f);
	printf("arguments: %d failures\n", failures);
	return failures ? 1 : 0;
}
