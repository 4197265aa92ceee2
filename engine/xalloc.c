#include "engine/xalloc.h"

#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
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

/* At most this many conversions in a format that concat_only() takes (more go to vsnprintf()). */
#define CONCAT_MAX_ARGS 16

/* The integer conversions concat_only() formats itself: %d, %i and %u with no flag, width or precision. */
enum conv {
	CONV_STR,   /* %s */
	CONV_INT,   /* %d %i */
	CONV_LONG,  /* %ld %li */
	CONV_LLONG, /* %lld %lli */
	CONV_SSIZE, /* %zd %zi */
	CONV_UINT,  /* %u */
	CONV_ULONG, /* %lu */
	CONV_ULLONG, /* %llu */
	CONV_SIZE,  /* %zu */
};

/*
 * The conversion at @f (just past its '%'), or -1 for one concat_only()
 * leaves to vsnprintf(); *@len is its length in the format.
 */
static int conv_at(const char *f, size_t *len)
{
	int lmod = 0; /* 1 l, 2 ll, 3 z */
	size_t n = 0;

	if (f[0] == 's') {
		*len = 1;
		return CONV_STR;
	}
	if (f[0] == 'l' && f[1] == 'l')
		lmod = 2, n = 2;
	else if (f[0] == 'l')
		lmod = 1, n = 1;
	else if (f[0] == 'z')
		lmod = 3, n = 1;
	*len = n + 1;
	if (f[n] == 'd' || f[n] == 'i')
		return lmod == 0 ? CONV_INT : lmod == 1 ? CONV_LONG : lmod == 2 ? CONV_LLONG : CONV_SSIZE;
	if (f[n] == 'u')
		return lmod == 0 ? CONV_UINT : lmod == 1 ? CONV_ULONG : lmod == 2 ? CONV_ULLONG : CONV_SIZE;
	return -1;
}

/* @v in decimal at the end of @buf (of 24 bytes: 20 digits and a sign fit), with @neg a minus sign; returns the start. */
static char *decimal(char *buf, unsigned long long v, bool neg)
{
	char *d = buf + 24;

	do {
		*--d = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (neg)
		*--d = '-';
	return d;
}

/* The magnitude of @v as unsigned (LLONG_MIN included), for decimal(). */
static unsigned long long magnitude(long long v)
{
	return v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
}

/*
 * When every conversion in @fmt is "%s", "%%" or an integer's plain "%d",
 * "%i" or "%u" (lengths l, ll and z; no flag, width or precision), the
 * formatted text needs no vsnprintf(): returns it, a new string, the bytes
 * vsnprintf() would give.  Returns NULL, reading no argument, for any other
 * conversion or more than CONCAT_MAX_ARGS arguments.  A NULL string
 * argument gives "(null)", as glibc's printf does.  Most of the simulator's
 * xasprintf()s join names, messages and counts this way, and vsnprintf()
 * costs about a thousand instructions a call.
 */
static char *concat_only(const char *fmt, va_list ap)
{
	const char *arg[CONCAT_MAX_ARGS];
	char num[CONCAT_MAX_ARGS][24];
	signed char kind[CONCAT_MAX_ARGS];
	size_t alen[CONCAT_MAX_ARGS], narg = 0, len = 0, clen;
	const char *f;
	char *s, *d;

	for (f = fmt; *f; f++) {
		int k;

		if (*f != '%') {
			len++;
			continue;
		}
		if (f[1] == '%') {
			len++;
			f++;
			continue;
		}
		k = conv_at(f + 1, &clen);
		if (k < 0 || narg == CONCAT_MAX_ARGS)
			return NULL;
		kind[narg++] = (signed char)k;
		f += clen;
	}
	for (size_t i = 0; i < narg; i++) {
		switch ((enum conv)kind[i]) {
		case CONV_STR:
			arg[i] = va_arg(ap, const char *);
			if (!arg[i])
				arg[i] = "(null)";
			break;
		case CONV_INT: {
			int v = va_arg(ap, int);

			arg[i] = decimal(num[i], magnitude(v), v < 0);
			break;
		}
		case CONV_LONG: {
			long v = va_arg(ap, long);

			arg[i] = decimal(num[i], magnitude(v), v < 0);
			break;
		}
		case CONV_LLONG: {
			long long v = va_arg(ap, long long);

			arg[i] = decimal(num[i], magnitude(v), v < 0);
			break;
		}
		case CONV_SSIZE: {
			/* %zd: the signed type of size_t's width, which ptrdiff_t is here */
			ptrdiff_t v = va_arg(ap, ptrdiff_t);

			arg[i] = decimal(num[i], magnitude(v), v < 0);
			break;
		}
		case CONV_UINT:
			arg[i] = decimal(num[i], va_arg(ap, unsigned int), false);
			break;
		case CONV_ULONG:
			arg[i] = decimal(num[i], va_arg(ap, unsigned long), false);
			break;
		case CONV_ULLONG:
			arg[i] = decimal(num[i], va_arg(ap, unsigned long long), false);
			break;
		case CONV_SIZE:
			arg[i] = decimal(num[i], va_arg(ap, size_t), false);
			break;
		}
		alen[i] = kind[i] == CONV_STR ? strlen(arg[i]) : (size_t)(num[i] + 24 - arg[i]);
		if (alen[i] > (size_t)INT_MAX - len)
			xalloc_fail((size_t)INT_MAX + 1); /* as vsnprintf()'s EOVERFLOW below */
		len += alen[i];
	}
	d = s = xmalloc(len + 1);
	narg = 0;
	for (f = fmt; *f; f++) {
		if (*f != '%') {
			*d++ = *f;
		} else if (f[1] == '%') {
			*d++ = '%';
			f++;
		} else {
			conv_at(f + 1, &clen);
			f += clen;
			memcpy(d, arg[narg], alen[narg]);
			d += alen[narg++];
		}
	}
	*d = '\0';
	return s;
}

char *xvasprintf(const char *fmt, va_list ap)
{
	va_list aq;
	int len;
	char *s;
	char buf[256];

	va_copy(aq, ap);
	s = concat_only(fmt, aq);
	va_end(aq);
	if (s)
		return s;
	/* One formatting pass when the text fits the stack buffer (most do), two otherwise. */
	va_copy(aq, ap);
	len = vsnprintf(buf, sizeof(buf), fmt, aq);
	va_end(aq);
	if (len < 0)
		xalloc_fail((size_t)INT_MAX + 1); /* EOVERFLOW: longer than INT_MAX bytes */
	s = xmalloc((size_t)len + 1);
	if ((size_t)len < sizeof(buf)) {
		memcpy(s, buf, (size_t)len + 1);
		return s;
	}
	va_copy(aq, ap);
	vsnprintf(s, (size_t)len + 1, fmt, aq);
	va_end(aq);
	return s;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
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
