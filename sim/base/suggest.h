#ifndef MAGOS_SIM_SUGGEST_H
#define MAGOS_SIM_SUGGEST_H

/*
 * "Did you mean": the closest of a set of known words to a word that is not
 * one of them, for the messages about an unknown command, option, kind,
 * scenario or manifest key, and gate query.  The caller offers each known
 * word in turn; the closest one within reach wins, the first offered among
 * equals (so the answer does not depend on anything but the order of the
 * offers).
 *
 * Distance: the optimal string alignment distance (Levenshtein with
 * transpositions of adjacent characters) over ASCII-lowercased bytes; a word
 * that differs only in case is at distance 1.  Within reach: at most 1 for
 * words of up to 4 bytes, 2 up to 8, 3 beyond, and less than the length of
 * the candidate (so "x" does not suggest "y").  Words longer than
 * SUG_MAX_LEN bytes are never compared (no suggestion).
 *
 * Invariants: @word and @best are borrowed from the caller and must outlive
 * the struct; nothing is allocated.
 */

#include <stddef.h>

/* The longest word compared, in bytes. */
#define SUG_MAX_LEN 256

struct sug {
	const char *word; /* the unknown word (borrowed) */
	size_t wlen;      /* the bytes of @word compared (see sug_init_len()) */
	const char *best; /* the closest candidate so far (borrowed), or NULL */
	unsigned best_d;  /* its distance */
};

/* sug_init() - starts a search for words close to @word (borrowed). Cannot fail. */
void sug_init(struct sug *s, const char *word);

/*
 * sug_init_len() - as sug_init() for the first @len bytes of @word only
 * (an option "--jsn=x" compares "jsn").
 */
void sug_init_len(struct sug *s, const char *word, size_t len);

/* sug_offer() - considers @cand (borrowed; NULL and "" are ignored). Cost: O(len(word) × len(cand)). */
void sug_offer(struct sug *s, const char *cand);

/* sug_best() - the closest candidate within reach, or NULL when none is. */
const char *sug_best(const struct sug *s);

/*
 * sug_distance() - the distance defined above between @a (@alen bytes) and
 * @b (@blen bytes), or SUG_FAR when either is longer than SUG_MAX_LEN.
 */
#define SUG_FAR 1000u
unsigned sug_distance(const char *a, size_t alen, const char *b, size_t blen);

#endif
