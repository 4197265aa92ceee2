#include "engine/xalloc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Set once before any thread starts, then only read. */
static xalloc_oom_fn oom_handler;
/* Per thread: what it is building, for the handler's message. */
static _Thread_local const char *building;

void xalloc_set_oom(xalloc_oom_fn fn)
{
	oom_handler = fn;
}

const char *xalloc_what(const char *what)
{
	const char *old = building;

	building = what;
	return old;
}

_Noreturn void xalloc_fail(size_t n)
{
	if (oom_handler)
		oom_handler(n, building);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		xalloc_fail(n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p;

	if (count == 0 || size == 0)
		count = size = 1;
	p = calloc(count, size);
	if (!p)
		xalloc_fail(count > SIZE_MAX / size ? SIZE_MAX : count * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q)
		xalloc_fail(n);
	return q;
}

void *xreallocarray(void *p, size_t count, size_t size)
{
	if (size && count > SIZE_MAX / size)
		xalloc_fail(SIZE_MAX);
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

	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		xalloc_fail((size_t)INT_MAX + 1); /* EOVERFLOW: longer than INT_MAX bytes */
	s = xmalloc((size_t)len + 1);
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
