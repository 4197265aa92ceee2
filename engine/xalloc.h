#ifndef MAGOS_ENGINE_XALLOC_H
#define MAGOS_ENGINE_XALLOC_H

#include <stdarg.h>
#include <stddef.h>

/*
 * Allocation that cannot fail.  On out-of-memory these end the process
 * through xalloc_fail(): a simulator that ran out of memory has no
 * meaningful partial result, and the callers stay free of error paths that
 * would never be tested.  Every layer may use them.
 *
 * engine/ does no I/O, so saying what happened is the program's business: it
 * installs a handler (xalloc_set_oom()) that prints one line and exits, and
 * names what each thread is building (xalloc_what()) so that the line can
 * say it.  Without a handler, out-of-memory is abort().
 */

/*
 * The out-of-memory handler: @n is the size of the request that failed
 * (0 when unknown), @what the calling thread's xalloc_what() label (NULL
 * when none).  It must not return, and may run on any thread.
 */
typedef void (*xalloc_oom_fn)(size_t n, const char *what);

/* xalloc_set_oom() - installs @fn (NULL: abort()).  Call before starting threads. */
void xalloc_set_oom(xalloc_oom_fn fn);

/*
 * xalloc_what() - names what the calling thread is building from now on
 * ("loading scenario.yaml"), for the out-of-memory message.
 * @what: borrowed; must stay valid until replaced; NULL for nothing.
 * Returns: the previous label, to restore when done.
 */
const char *xalloc_what(const char *what);

/*
 * xalloc_fail() - an allocation of @n bytes failed (here, or in a library
 * that reports it): calls the handler, or abort()s without one.  Does not
 * return.
 */
_Noreturn void xalloc_fail(size_t n);

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
 * Cost: a format whose conversions are all "%s", "%%" or plain integers
 * ("%d", "%i", "%u", with lengths l, ll or z; no flag, width or precision)
 * is joined directly, O(output length); any other goes through vsnprintf().
 */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * xvasprintf() - xasprintf() of a va_list: only copies of @ap are read
 * (va_copy()), so @ap is as the caller left it, and the caller va_end()s it.
 * Returns: a new NUL-terminated string; caller frees.  Aborts on OOM.
 */
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/*
 * xstrjoin() - the @n strings of @v joined with @sep between them (Go's
 * strings.Join): "a, b, c"; "" for none.
 * Returns: a new string; caller frees.  Aborts on OOM.  Cost: O(total length).
 */
char *xstrjoin(const char *const *v, size_t n, const char *sep);

#endif
