#ifndef MAGOS_ENGINE_STRBUF_H
#define MAGOS_ENGINE_STRBUF_H

/*
 * A growable NUL-terminated string, for the messages, quotes and JSON the
 * engine modules build piece by piece: one copy for all of them.  A zeroed
 * struct strbuf is empty and ready; strbuf_take() hands the text over and
 * leaves it empty again.  Allocation failures abort (engine/xalloc.h).
 *
 * Invariant: @s is NULL while nothing was added; otherwise it holds @len
 * bytes and a NUL, within @cap bytes.
 */

#include <stddef.h>

struct strbuf {
	char *s;        /* owned; NULL while empty */
	size_t len;     /* bytes, without the NUL */
	size_t cap;     /* bytes allocated at @s */
};

/* strbuf_addn() - appends the @n bytes at @s (they may hold no NUL). */
void strbuf_addn(struct strbuf *b, const char *s, size_t n);

/* strbuf_add() - appends the NUL-terminated @s. */
void strbuf_add(struct strbuf *b, const char *s);

/* strbuf_addc() - appends the byte @c. */
void strbuf_addc(struct strbuf *b, char c);

/* strbuf_add_free() - appends @s (owned, not NULL) and frees it. */
void strbuf_add_free(struct strbuf *b, char *s);

/*
 * strbuf_take() - the text built so far, never NULL ("" when nothing was
 * added); the caller frees it and @b is empty again.
 */
char *strbuf_take(struct strbuf *b);

/* strbuf_release() - frees what @b holds and empties it.  Accepts NULL. */
void strbuf_release(struct strbuf *b);

#endif
