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

/*
 * Up to this many bytes, malloc() and memset(): glibc's calloc() never takes
 * a block from the thread's cache of freed ones (malloc() does, for blocks
 * up to 1 032 bytes), so every small calloc() went through the allocator's
 * slow path.  Larger blocks keep calloc(), which knows when fresh pages are
 * zero already.
 */
enum { XCALLOC_SMALL = 1024 };

/*
 * malloc(@n) behind a call the compiler does not look into: GCC turns a
 * malloc() (or a realloc() of NULL) followed by a memset() to zero back
 * into calloc(), which is what xcalloc() avoids for small blocks.
 */
static __attribute__((noinline)) void *small_block(size_t n)
{
	return malloc(n);
}

void *xcalloc(size_t count, size_t size)
{
	void *p;

	if (count == 0 || size == 0)
		count = size = 1;
	if (count <= XCALLOC_SMALL / size) {
		p = small_block(count * size);
		if (!p)
			xalloc_fail(count * size);
		return memset(p, 0, count * size);
	}
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

/* At most this many "%s" in a format that concat_only() takes (more go to vsnprintf()). */
#define CONCAT_MAX_ARGS 16

/*
 * When every conversion in @fmt is "%s" (or "%%"), the formatted text is the
 * literal text and the arguments joined, which needs no vsnprintf(): returns
 * it, a new string.  Returns NULL, reading no argument, for any other
 * conversion or more than CONCAT_MAX_ARGS arguments.  A NULL argument gives
 * "(null)", as glibc's printf does.  Most of the simulator's xasprintf()s
 * join names and messages this way, and vsnprintf() costs about a thousand
 * instructions a call.
 */
static char *concat_only(const char *fmt, va_list ap)
{
	const char *arg[CONCAT_MAX_ARGS];
	size_t alen[CONCAT_MAX_ARGS], narg = 0, len = 0;
	const char *f;
	char *s, *d;

	for (f = fmt; *f; f++) {
		if (*f != '%') {
			len++;
			continue;
		}
		if (f[1] == '%') {
			len++;
			f++;
			continue;
		}
		if (f[1] != 's' || narg == CONCAT_MAX_ARGS)
			return NULL;
		narg++;
		f++;
	}
	for (size_t i = 0; i < narg; i++) {
		arg[i] = va_arg(ap, const char *);
		if (!arg[i])
			arg[i] = "(null)";
		alen[i] = strlen(arg[i]);
		if (alen[i] > (size_t)INT_MAX - len)
			xalloc_fail((size_t)INT_MAX + 1); /* as vsnprintf()'s EOVERFLOW below */
		len += alen[i];
	}
	d = s = xmalloc(len + 1);
	narg = 0;
	for (f = fmt; *f; f++) {
		if (*f != '%') {
			*d++ = *f;
		} else if (*++f == '%') {
			*d++ = '%';
		} else {
			memcpy(d, arg[narg], alen[narg]);
			d += alen[narg++];
		}
	}
	*d = '\0';
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	int len;
	char *s;

	char buf[256];

	va_start(ap, fmt);
	s = concat_only(fmt, ap);
	va_end(ap);
	if (s)
		return s;
	/* One formatting pass when the text fits the stack buffer (most do), two otherwise. */
	va_start(ap, fmt);
	len = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		xalloc_fail((size_t)INT_MAX + 1); /* EOVERFLOW: longer than INT_MAX bytes */
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
