#include "engine/xalloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		abort();
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p;

	if (count == 0 || size == 0)
		count = size = 1;
	p = calloc(count, size);
	if (!p)
		abort();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		abort();
	return q;
}

void *xreallocarray(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		abort();
	return xrealloc(p, count * size);
}

char *xstrdup(const char *s)
{
	return s ? xstrndup(s, strlen(s)) : NULL;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int len;
	char *s;

	char buf[256];

	/* One formatting pass when the text fits the stack buffer (most do), two otherwise. */
	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		abort();
	s = xmalloc((size_t)len + 1);
	if ((size_t)len < sizeof(buf)) {
		memcpy(s, buf, (size_t)len + 1);
		return s;
	}
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return s;
}

char *xstrjoin(const char *const *v, size_t n, const char *sep)
{
	size_t nsep = strlen(sep), len = 1;
	char *out, *p;

	for (size_t i = 0; i < n; i++)
		len += strlen(v[i]) + (i ? nsep : 0);
	out = p = xmalloc(len);
	for (size_t i = 0; i < n; i++) {
		size_t k = strlen(v[i]);

		if (i) {
			memcpy(p, sep, nsep);
			p += nsep;
		}
		memcpy(p, v[i], k);
		p += k;
	}
	*p = '\0';
	return out;
}
