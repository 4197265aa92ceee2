#include "sim/base/quote.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/xalloc.h"

/*
 * The length of the valid UTF-8 sequence at @p (1..4), or 0 when the bytes
 * there are not one (RFC 3629: no overlong form, no surrogate, at most
 * U+10FFFF); @cp receives the code point.
 */
static size_t u8_seq(const unsigned char *p, uint32_t *cp)
{
	size_t n;
	uint32_t c, min;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if ((p[0] & 0xE0) == 0xC0) {
		n = 2, c = p[0] & 0x1F, min = 0x80;
	} else if ((p[0] & 0xF0) == 0xE0) {
		n = 3, c = p[0] & 0x0F, min = 0x800;
	} else if ((p[0] & 0xF8) == 0xF0) {
		n = 4, c = p[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80) /* also stops at the NUL */
			return 0;
		c = c << 6 | (p[i] & 0x3F);
	}
	if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

/* The escape of code point @c when it is a control character, else NULL. */
static const char *c0_name(uint32_t c)
{
	switch (c) {
	case '\a': return "\\a";
	case '\b': return "\\b";
	case '\f': return "\\f";
	case '\n': return "\\n";
	case '\r': return "\\r";
	case '\t': return "\\t";
	case '\v': return "\\v";
	default: return NULL;
	}
}

static int is_control(uint32_t c)
{
	return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F);
}

int qt_needed(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (p && *p) {
		uint32_t c;
		size_t n = u8_seq(p, &c);

		if (!n || is_control(c))
			return 1;
		p += n;
	}
	return 0;
}

char *qt_text(const char *s)
{
	return qt_text_keep(s, "");
}

char *qt_text_keep(const char *s, const char *keep)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *q;

	if (!s)
		return NULL;
	/* At most 6 bytes ("\u0085") for each byte of the input. */
	out = q = xmalloc(strlen(s) * 6 + 1);
	while (*p) {
		uint32_t c;
		size_t n = u8_seq(p, &c);
		const char *name;

		if (!n) {
			q += sprintf(q, "\\x%02x", *p);
			p++;
			continue;
		}
		if (!is_control(c) || (c < 0x80 && strchr(keep, (int)c))) {
			memcpy(q, p, n);
			q += n;
		} else if ((name = c0_name(c)) != NULL) {
			q += sprintf(q, "%s", name);
		} else if (c < 0x80) {
			q += sprintf(q, "\\x%02x", (unsigned)c);
		} else {
			q += sprintf(q, "\\u%04x", (unsigned)c);
		}
		p += n;
	}
	*q = '\0';
	return out;
}
