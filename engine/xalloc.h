#ifndef MAGOS_ENGINE_XALLOC_H
#define MAGOS_ENGINE_XALLOC_H

#include <stddef.h>

/*
 * Allocation that cannot fail.  On out-of-memory these abort() the process:
 * a simulator that ran out of memory has no meaningful partial result, and the
 * callers stay free of error paths that would never be tested.  Every layer
 * may use them (abort is not I/O).
 */

/* xmalloc() - malloc(@n) or abort; @n == 0 returns a unique non-NULL pointer. Caller frees. */
void *xmalloc(size_t n);

/* xcalloc() - zeroed array of @count elements of @size bytes, or abort (also on overflow). */
void *xcalloc(size_t count, size_t size);

/* xrealloc() - realloc(@p, @n) or abort; @n == 0 keeps a valid non-NULL block. */
void *xrealloc(void *p, size_t n);

/* xreallocarray() - resize @p to @count * @size bytes, aborting on overflow or OOM. */
void *xreallocarray(void *p, size_t count, size_t size);

/* xstrdup() - new copy of the NUL-terminated @s (NULL gives NULL). Caller frees. */
char *xstrdup(const char *s);

/* xstrndup() - new NUL-terminated copy of the first @n bytes of @s. Caller frees. */
char *xstrndup(const char *s, size_t n);

/*
 * xasprintf() - printf into a new string.
 * Returns: a new NUL-terminated string; caller frees.  Aborts on OOM.
 */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * xstrjoin() - the @n strings of @v joined with @sep between them (Go's
 * strings.Join): "a, b, c"; "" for none.
 * Returns: a new string; caller frees.  Aborts on OOM.  Cost: O(total length).
 */
char *xstrjoin(const char *const *v, size_t n, const char *sep);

#endif
