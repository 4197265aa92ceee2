#ifndef MAGOS_SIM_STRINDEX_H
#define MAGOS_SIM_STRINDEX_H

/*
 * A string → position index (open addressing, linear probing, each key's
 * 64-bit hash kept beside it), for observers that keep records in an array
 * and find them by "ns/name".
 * Invariants: keys are owned copies, unique; the table is at most half full;
 * hash[i] is the hash of keys[i].
 * A zeroed struct is an empty index.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct strindex {
	char **keys;
	size_t *pos;
	uint64_t *hash;
	size_t cap, n;
};

/*
 * si_hash() - a 64-bit hash of the NUL-terminated @s, eight bytes at a time
 * (FNV-1a took a multiply a byte), mixed at the end so that the low bits a
 * power-of-two table uses depend on every byte.  *@len (when @len is not
 * NULL) receives strlen(@s).  A pure function of the bytes: the same on
 * every run and machine of the same byte order.  Cannot fail.
 */
uint64_t si_hash(const char *s, size_t *len);

/* si_put() - maps @key (copied) to @pos, replacing an earlier mapping.  Cannot fail (aborts on OOM). */
void si_put(struct strindex *x, const char *key, size_t pos);

/* si_get() - true and *@pos when @key is mapped; false otherwise.  Cost: O(1) expected. */
bool si_get(const struct strindex *x, const char *key, size_t *pos);

/* si_release() - frees the keys and tables; @x is empty again.  Accepts NULL. */
void si_release(struct strindex *x);

#endif
