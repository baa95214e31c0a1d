// pressured.h from C++: the header compiles as C++17 with -Wall -Wextra -Werror (an enum used before its
// definition, a C-only construct or a missing extern "C" fails the build), and the functions link unmangled.
#include <pressured.h>

#include <cstdio>

int main()
{
	struct pressured *p = pressured_new(nullptr);
	if (!p)
		return 1;
	enum pressured_event_type next = pressured_next_event_type(p);
	struct pressured_event *ev = pressured_get_event(p);
	pressured_unref(p);
	if (next != PRESSURED_EVENT_NONE || ev) {
		std::fprintf(stderr, "FAIL: a new context has a queued event\n");
		return 1;
	}
	std::printf("pressured.h: C++17 ok\n");
	return 0;
}
