/* A growable string: see engine/strbuf.h. */
#include "engine/strbuf.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

void strbuf_addn(struct strbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 32;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void strbuf_add(struct strbuf *b, const char *s)
{
	strbuf_addn(b, s, strlen(s));
}

void strbuf_addc(struct strbuf *b, char c)
{
	strbuf_addn(b, &c, 1);
}

void strbuf_add_free(struct strbuf *b, char *s)
{
	strbuf_add(b, s);
	free(s);
}

char *strbuf_take(struct strbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	*b = (struct strbuf){ 0 };
	return s;
}

void strbuf_release(struct strbuf *b)
{
	if (!b)
		return;
	free(b->s);
	*b = (struct strbuf){ 0 };
}
