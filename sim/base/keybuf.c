/* Lookup keys in a caller's buffer (sim/base/keybuf.h). */
#include <stdlib.h>
#include <string.h>

#include "sim/base/keybuf.h"
#include "engine/xalloc.h"

char *kb_join_sep(char *buf, size_t len, const char *a, char sep, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *k = la + lb + 2 <= len ? buf : xmalloc(la + lb + 2);

	memcpy(k, a, la);
	k[la] = sep;
	memcpy(k + la + 1, b, lb + 1);
	return k;
}

char *kb_join2(char *buf, size_t len, const char *a, const char *b)
{
	return kb_join_sep(buf, len, a, '/', b);
}

char *kb_join3(char *buf, size_t len, const char *a, const char *b, const char *c)
{
	size_t la = strlen(a), lb = strlen(b), lc = strlen(c);
	char *k = la + lb + lc + 3 <= len ? buf : xmalloc(la + lb + lc + 3);

	memcpy(k, a, la);
	k[la] = '/';
	memcpy(k + la + 1, b, lb);
	k[la + 1 + lb] = '/';
	memcpy(k + la + lb + 2, c, lc + 1);
	return k;
}

void kb_drop(char *k, const char *buf)
{
	if (k != buf)
		free(k);
}

char *kb_field(char *p, const char *str)
{
	size_t len = strlen(str), n = len, nd = 0;
	char digits[24];

	/* The length's digits, built without printf: a key is made per object change. */
	do
		digits[nd++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	while (nd > 0)
		*p++ = digits[--nd];
	*p++ = ':';
	memcpy(p, str, len);
	return p + len;
}
