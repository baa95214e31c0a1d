/* UTF-8 as RFC 3629 has it, both ways: strings a request carries, and lines the daemon sends. */
#include "private.h"

bool pressured_utf8(const char *s, size_t len)
{
	const unsigned char *u = (const unsigned char *)s, *end = u + len;
	while (u < end) {
		unsigned char c = *u++;
		int more;
		unsigned char lo = 0x80, hi = 0xbf; /* the first continuation byte's range */
		if (c < 0x80)
			continue;
		else if (c >= 0xc2 && c <= 0xdf)
			more = 1;
		else if (c >= 0xe0 && c <= 0xef) {
			more = 2;
			lo = c == 0xe0 ? 0xa0 : 0x80; /* not overlong */
			hi = c == 0xed ? 0x9f : 0xbf; /* not a surrogate */
		} else if (c >= 0xf0 && c <= 0xf4) {
			more = 3;
			lo = c == 0xf0 ? 0x90 : 0x80; /* not overlong */
			hi = c == 0xf4 ? 0x8f : 0xbf; /* not beyond U+10FFFF */
		} else
			return false; /* a continuation byte first, an overlong lead, or beyond U+10FFFF */
		for (int i = 0; i < more; i++, u++) {
			if (u == end || *u < lo || *u > hi)
				return false;
			lo = 0x80, hi = 0xbf;
		}
	}
	return true;
}
