#ifndef MAGOS_SIM_KEYTAB_H
#define MAGOS_SIM_KEYTAB_H

/*
 * keytab - records of one type kept in a growable array, in the order they
 * were added, and found by "namespace/name" through a strindex beside it:
 * the find-or-add of the run's end-of-run observers, which follow each
 * object the timeline names.
 * Invariants: @v holds @n records of @size bytes within @cap; @idx maps the
 * "ns/name" of each to its position; a record is never moved to another
 * position (the array may move as it grows).
 * Initialise with KEYTAB_INIT(type), or kt_init().
 */

#include <stdbool.h>
#include <stddef.h>

#include "sim/base/strindex.h"

struct keytab {
	struct strindex idx; /* "ns/name" → position in @v */
	void *v;             /* @n records of @size bytes (owned) */
	size_t size;         /* bytes a record */
	size_t n, cap;       /* records held, and room for */
};

#define KEYTAB_INIT(type) { .size = sizeof(type) }

/* kt_init() - an empty table of records of @size bytes (> 0) into @t. */
void kt_init(struct keytab *t, size_t size);

/*
 * kt_at() - the position of the record of @ns/@name (NUL-terminated), added
 * at the end, all bytes zero, when there was none.
 * @added: receives whether it was added (may be NULL).
 * Returns: its position, < t->n; kt_item() gives the record.
 * Errors:  cannot fail (aborts through xalloc on out-of-memory).
 * Cost:    O(1) expected, amortised.
 */
size_t kt_at(struct keytab *t, const char *ns, const char *name, bool *added);

/*
 * kt_get() - the record of @ns/@name, NULL when it has none: borrowed, valid
 * until the next kt_at() that adds one.  Cost: O(1) expected.
 */
void *kt_get(const struct keytab *t, const char *ns, const char *name);

/*
 * kt_item() - the record at position @pos (< t->n, asserted): borrowed,
 * valid until the next kt_at() that adds one (the array may move).
 */
void *kt_item(const struct keytab *t, size_t pos);

/* kt_release() - frees the records and the index; @t is empty again.  Accepts NULL. */
void kt_release(struct keytab *t);

#endif
