#include "sim/base/suggest.h"

#include <string.h>

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c - 'A' + 'a') : c;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned sug_distance(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Three rows of the dynamic programme: i-2, i-1, i. */
	unsigned rows[3][SUG_MAX_LEN + 1];
	unsigned *pp = rows[0], *p = rows[1], *c = rows[2];
	const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;

	if (alen > SUG_MAX_LEN || blen > SUG_MAX_LEN)
		return SUG_FAR;
	for (size_t j = 0; j <= blen; j++)
		p[j] = (unsigned)j;
	for (size_t i = 1; i <= alen; i++) {
		unsigned *t;

		c[0] = (unsigned)i;
		for (size_t j = 1; j <= blen; j++) {
			unsigned cost = lower(x[i - 1]) != lower(y[j - 1]);

			c[j] = min3(p[j] + 1, c[j - 1] + 1, p[j - 1] + cost);
			if (i > 1 && j > 1 && lower(x[i - 1]) == lower(y[j - 2]) &&
			    lower(x[i - 2]) == lower(y[j - 1]) && pp[j - 2] + 1 < c[j])
				c[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	/* Equal but for case: still not the same word. */
	if (p[blen] == 0 && (alen != blen || memcmp(a, b, alen) != 0))
		return 1;
	return p[blen];
}

void sug_init_len(struct sug *s, const char *word, size_t len)
{
	s->word = word;
	s->wlen = len;
	s->best = NULL;
	s->best_d = SUG_FAR;
}

void sug_init(struct sug *s, const char *word)
{
	sug_init_len(s, word, strlen(word));
}

/* How far a word of @len bytes may be from a suggestion. */
static unsigned reach(size_t len)
{
	return len <= 4 ? 1 : len <= 8 ? 2 : 3;
}

void sug_offer(struct sug *s, const char *cand)
{
	size_t clen;
	unsigned d;

	if (!cand || !*cand)
		return;
	clen = strlen(cand);
	d = sug_distance(s->word, s->wlen, cand, clen);
	if (d == 0 || d > reach(s->wlen) || d >= clen || d >= s->best_d)
		return;
	s->best = cand;
	s->best_d = d;
}

const char *sug_best(const struct sug *s)
{
	return s->best;
}
