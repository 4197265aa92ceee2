/*
 * Gate thresholds, Go's ParseFloat / path.Match / %g, and the host
 * allowlist.  See threshold.h for the contract and the upstream names.
 */
#include "engine/threshold.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"

static int lower(int c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_hex_letter(int c)
{
	c = lower(c);
	return c >= 'a' && c <= 'f';
}

/* Length of the common prefix of @s and the lower-case @prefix, ignoring the case of @s. */
static size_t common_prefix_len_ignore_case(const char *s, const char *prefix)
{
	size_t i = 0;

	while (prefix[i] && s[i] && lower((unsigned char)s[i]) == prefix[i])
		i++;
	return i;
}

/*
 * special(): "inf"/"infinity" with an optional sign, "nan" without one.
 * Returns the number of bytes consumed (0 when not special) and the value.
 */
static size_t special(const char *s, double *f)
{
	int sign = 1;
	size_t nsign = 0, n;

	switch (s[0]) {
	case '+':
	case '-':
		if (s[0] == '-')
			sign = -1;
		nsign = 1;
		s++;
		/* fall through */
	case 'i':
	case 'I':
		n = common_prefix_len_ignore_case(s, "infinity");
		if (n > 3 && n < 8)
			n = 3;
		if (n == 3 || n == 8) {
			*f = sign > 0 ? HUGE_VAL : -HUGE_VAL;
			return nsign + n;
		}
		break;
	case 'n':
	case 'N':
		if (common_prefix_len_ignore_case(s, "nan") == 3) {
			*f = NAN;
			return 3;
		}
		break;
	default:
		break;
	}
	return 0;
}

/* underscoreOK(): '_' only between digits, or between a base prefix and a digit. */
static bool underscore_ok(const char *s, size_t len)
{
	char saw = '^';
	size_t i = 0;
	bool hex = false;

	if (len >= 1 && (s[0] == '-' || s[0] == '+')) {
		s++;
		len--;
	}
	if (len >= 2 && s[0] == '0' &&
	    (lower((unsigned char)s[1]) == 'b' || lower((unsigned char)s[1]) == 'o' ||
	     lower((unsigned char)s[1]) == 'x')) {
		i = 2;
		saw = '0';
		hex = lower((unsigned char)s[1]) == 'x';
	}
	for (; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (is_digit(c) || (hex && is_hex_letter(c))) {
			saw = '0';
			continue;
		}
		if (c == '_') {
			if (saw != '0')
				return false;
			saw = '_';
			continue;
		}
		if (saw == '_')
			return false;
		saw = '!';
	}
	return saw != '_';
}

/*
 * The syntax of readFloat().  Copies the number without underscores into
 * @clean (at least strlen(s) + 1 bytes) in a form C's strtod reads the same
 * way.  Returns the number of bytes of @s consumed, 0 on a syntax error.
 */
static size_t read_float(const char *s, char *clean)
{
	size_t i = 0, o = 0;
	bool hex = false, underscores = false, sawdot = false, sawdigits = false;
	char exp_char = 'e';

	if (s[i] == '+' || s[i] == '-')
		clean[o++] = s[i++];
	if (s[i] == '0' && lower((unsigned char)s[i + 1]) == 'x' && s[i + 2] != '\0') {
		hex = true;
		exp_char = 'p';
		clean[o++] = '0';
		clean[o++] = 'x';
		i += 2;
	}
	for (;; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '_') {
			underscores = true;
			continue;
		}
		if (c == '.') {
			if (sawdot)
				break;
			sawdot = true;
			clean[o++] = '.';
			continue;
		}
		if (is_digit(c) || (hex && is_hex_letter(c))) {
			sawdigits = true;
			clean[o++] = (char)c;
			continue;
		}
		break;
	}
	if (!sawdigits)
		return 0;
	if (lower((unsigned char)s[i]) == exp_char) {
		clean[o++] = exp_char;
		i++;
		if (s[i] == '\0')
			return 0;
		if (s[i] == '+' || s[i] == '-')
			clean[o++] = s[i++];
		if (!is_digit((unsigned char)s[i]))
			return 0;
		for (; is_digit((unsigned char)s[i]) || s[i] == '_'; i++) {
			if (s[i] == '_') {
				underscores = true;
				continue;
			}
			clean[o++] = s[i];
		}
	} else if (hex) {
		return 0; /* a hexadecimal mantissa must have an exponent */
	}
	if (underscores && !underscore_ok(s, i))
		return 0;
	clean[o] = '\0';
	return i;
}

int thr_parse_float(const char *s, double *out)
{
	double f = 0;
	size_t n = special(s, &f), len = strlen(s);
	char *clean;

	if (n > 0) {
		if (n != len) {
			f = 0;
			goto out_syntax;
		}
		if (out)
			*out = f;
		return THR_OK;
	}
	clean = xmalloc(len + 1);
	n = read_float(s, clean);
	if (n == 0 || n != len) {
		free(clean);
		goto out_syntax;
	}
	/* strtod rounds correctly in the C locale; its ERANGE on underflow is not Go's. */
	f = strtod(clean, NULL);
	free(clean);
	if (out)
		*out = f;
	return isinf(f) ? THR_ERANGE : THR_OK;

out_syntax:
	if (out)
		*out = 0;
	return THR_ESYNTAX;
}

char *thr_parse_float_error(const char *s, int rc, char *buf, size_t len)
{
	char *q = lbl_go_quote(s);

	snprintf(buf, len, "strconv.ParseFloat: parsing %s: %s", q,
		 rc == THR_ERANGE ? "value out of range" : "invalid syntax");
	free(q);
	return buf;
}

/* One bound of ThresholdSatisfied: parse, or write the error. */
static int parse_bound(const char *which, const char *text, double *out, char *err, size_t errlen)
{
	int rc = thr_parse_float(text, out);

	if (rc != THR_OK && errlen > 0) {
		char perr[THR_ERRLEN];
		char *q = lbl_go_quote(text);

		thr_parse_float_error(text, rc, perr, sizeof(perr));
		snprintf(err, errlen, "threshold %s %s is not a number: %s", which, q, perr);
		free(q);
	}
	return rc;
}

int thr_satisfied(const char *min, const char *max, double value, bool *ok, char *err,
		  size_t errlen)
{
	double b;
	int rc;

	*ok = false;
	if (min) {
		rc = parse_bound("min", min, &b, err, errlen);
		if (rc != THR_OK)
			return rc;
		if (value < b)
			return THR_OK;
	}
	if (max) {
		rc = parse_bound("max", max, &b, err, errlen);
		if (rc != THR_OK)
			return rc;
		if (value > b)
			return THR_OK;
	}
	*ok = true;
	return THR_OK;
}

/* ---- path.Match ---- */

/*
 * utf8.DecodeRuneInString over @n bytes: the rune and its length; invalid
 * or truncated encodings give U+FFFD with length 1; n == 0 gives U+FFFD, 0.
 */
static int32_t decode_rune(const char *p, size_t n, size_t *len)
{
	const unsigned char *s = (const unsigned char *)p;
	int32_t r;
	size_t need, k;

	if (n == 0) {
		*len = 0;
		return 0xFFFD;
	}
	if (s[0] < 0x80) {
		*len = 1;
		return s[0];
	}
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		need = 2;
		r = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		need = 3;
		r = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		need = 4;
		r = s[0] & 0x07;
	} else {
		goto out_invalid;
	}
	if (n < need)
		goto out_invalid;
	for (k = 1; k < need; k++) {
		unsigned char lo = 0x80, hi = 0xBF;

		if (k == 1) {
			if (s[0] == 0xE0)
				lo = 0xA0;
			else if (s[0] == 0xED)
				hi = 0x9F;
			else if (s[0] == 0xF0)
				lo = 0x90;
			else if (s[0] == 0xF4)
				hi = 0x8F;
		}
		if (s[k] < lo || s[k] > hi)
			goto out_invalid;
		r = (r << 6) | (s[k] & 0x3F);
	}
	*len = need;
	return r;

out_invalid:
	*len = 1;
	return 0xFFFD;
}

/* A string slice: what Go's string values are. */
struct slice {
	const char *p;
	size_t n;
};

static void advance(struct slice *s, size_t k)
{
	s->p += k;
	s->n -= k;
}

/* scanChunk(): the next star flag and non-star chunk; @pattern is left at the rest. */
static bool scan_chunk(struct slice *pattern, struct slice *chunk)
{
	bool star = false, inrange = false;
	size_t i;

	while (pattern->n > 0 && pattern->p[0] == '*') {
		advance(pattern, 1);
		star = true;
	}
	for (i = 0; i < pattern->n; i++) {
		char c = pattern->p[i];

		if (c == '\\') {
			if (i + 1 < pattern->n)
				i++;
		} else if (c == '[') {
			inrange = true;
		} else if (c == ']') {
			inrange = false;
		} else if (c == '*' && !inrange) {
			break;
		}
	}
	chunk->p = pattern->p;
	chunk->n = i;
	advance(pattern, i);
	return star;
}

/* getEsc(): a possibly escaped rune of a character class. */
static int get_esc(struct slice *chunk, int32_t *r)
{
	size_t n;
	int rc = THR_OK;

	if (chunk->n == 0 || chunk->p[0] == '-' || chunk->p[0] == ']')
		return THR_EBADPATTERN;
	if (chunk->p[0] == '\\') {
		advance(chunk, 1);
		if (chunk->n == 0)
			return THR_EBADPATTERN;
	}
	*r = decode_rune(chunk->p, chunk->n, &n);
	if (*r == 0xFFFD && n == 1)
		rc = THR_EBADPATTERN;
	advance(chunk, n);
	if (chunk->n == 0)
		rc = THR_EBADPATTERN;
	return rc;
}

/*
 * matchChunk(): does @chunk match the start of @s?  On a match *@ok is true
 * and *@rest the remainder.  Returns THR_OK or THR_EBADPATTERN.
 */
static int match_chunk(struct slice chunk, struct slice s, struct slice *rest, bool *ok)
{
	bool failed = false;
	int rc;

	*ok = false;
	while (chunk.n > 0) {
		if (!failed && s.n == 0)
			failed = true;
		switch (chunk.p[0]) {
		case '[': {
			int32_t r = 0, lo, hi;
			bool negated = false, match = false;
			size_t nrange = 0, n;

			if (!failed) {
				r = decode_rune(s.p, s.n, &n);
				advance(&s, n);
			}
			advance(&chunk, 1);
			if (chunk.n > 0 && chunk.p[0] == '^') {
				negated = true;
				advance(&chunk, 1);
			}
			for (;;) {
				if (chunk.n > 0 && chunk.p[0] == ']' && nrange > 0) {
					advance(&chunk, 1);
					break;
				}
				rc = get_esc(&chunk, &lo);
				if (rc != THR_OK)
					return rc;
				hi = lo;
				if (chunk.p[0] == '-') {
					advance(&chunk, 1);
					rc = get_esc(&chunk, &hi);
					if (rc != THR_OK)
						return rc;
				}
				if (lo <= r && r <= hi)
					match = true;
				nrange++;
			}
			if (match == negated)
				failed = true;
			break;
		}
		case '?':
			if (!failed) {
				size_t n;

				if (s.p[0] == '/')
					failed = true;
				decode_rune(s.p, s.n, &n);
				advance(&s, n);
			}
			advance(&chunk, 1);
			break;
		case '\\':
			advance(&chunk, 1);
			if (chunk.n == 0)
				return THR_EBADPATTERN;
			/* fall through */
		default:
			if (!failed) {
				if (chunk.p[0] != s.p[0])
					failed = true;
				advance(&s, 1);
			}
			advance(&chunk, 1);
			break;
		}
	}
	if (failed)
		return THR_OK;
	*rest = s;
	*ok = true;
	return THR_OK;
}

int thr_path_match(const char *pattern_s, const char *name_s, bool *matched)
{
	struct slice pattern = { pattern_s, strlen(pattern_s) };
	struct slice name = { name_s, strlen(name_s) };
	struct slice chunk, t;
	bool star, ok;
	int rc;

	*matched = false;
next_chunk:
	while (pattern.n > 0) {
		star = scan_chunk(&pattern, &chunk);
		if (star && chunk.n == 0) {
			/* a trailing '*' matches the rest unless it holds a '/' */
			*matched = memchr(name.p, '/', name.n) == NULL;
			return THR_OK;
		}
		rc = match_chunk(chunk, name, &t, &ok);
		if (ok && (t.n == 0 || pattern.n > 0)) {
			name = t;
			continue;
		}
		if (rc != THR_OK)
			return rc;
		if (star) {
			for (size_t i = 0; i < name.n && name.p[i] != '/'; i++) {
				struct slice from = { name.p + i + 1, name.n - i - 1 };

				rc = match_chunk(chunk, from, &t, &ok);
				if (ok) {
					if (pattern.n == 0 && t.n > 0)
						continue;
					name = t;
					goto next_chunk;
				}
				if (rc != THR_OK)
					return rc;
			}
		}
		/* before answering "no", the rest of the pattern must be well-formed */
		while (pattern.n > 0) {
			struct slice empty = { "", 0 };

			scan_chunk(&pattern, &chunk);
			rc = match_chunk(chunk, empty, &t, &ok);
			if (rc != THR_OK)
				return rc;
		}
		return THR_OK;
	}
	*matched = name.n == 0;
	return THR_OK;
}

/* ---- addresses and the allowlist ---- */

static bool valid_port(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_digit((unsigned char)p[i]))
			return false;
	return true;
}

int thr_url_hostname(const char *address, char *buf, size_t len)
{
	const char *p = address, *auth, *end, *at, *host, *host_end;
	size_t n;

	if (len > 0)
		buf[0] = '\0';
	/* scheme: letter then letters, digits, '+', '-', '.' up to ':' */
	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return THR_EURL;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || is_digit((unsigned char)*p) ||
	       *p == '+' || *p == '-' || *p == '.')
		p++;
	if (*p != ':')
		return THR_EURL;
	n = (size_t)(p - address);
	if (!((n == 4 && common_prefix_len_ignore_case(address, "http") == 4) ||
	      (n == 5 && common_prefix_len_ignore_case(address, "https") == 5)))
		return THR_EURL;
	p++;
	if (p[0] != '/' || p[1] != '/')
		return THR_EURL;
	auth = p + 2;
	end = auth + strcspn(auth, "/?#");
	at = NULL;
	for (const char *q = auth; q < end; q++)
		if (*q == '@')
			at = q;
	host = at ? at + 1 : auth;
	if (host == end)
		return THR_EURL; /* url.URL.Host is empty */
	for (const char *q = host; q < end; q++) {
		unsigned char c = (unsigned char)*q;

		if (c <= ' ' || c == 0x7F || strchr("<>\"{}|\\^`", c))
			return THR_EURL;
	}
	if (host < end && *host == '[') {
		const char *rb = memchr(host, ']', (size_t)(end - host));

		if (!rb)
			return THR_EURL;
		if (rb + 1 < end && (rb[1] != ':' || !valid_port(rb + 2, (size_t)(end - rb - 2))))
			return THR_EURL;
		host++;
		host_end = rb;
	} else {
		const char *colon = NULL;

		for (const char *q = host; q < end; q++)
			if (*q == ':')
				colon = q;
		host_end = end;
		if (colon) {
			if (!valid_port(colon + 1, (size_t)(end - colon - 1)))
				return THR_EURL;
			host_end = colon;
		}
	}
	snprintf(buf, len, "%.*s", (int)(host_end - host), host);
	return THR_OK;
}

bool thr_host_allowed(const char *const *patterns, size_t n, const char *host)
{
	size_t hl = strlen(host);
	char *h;
	bool allowed = false;

	if (n == 0)
		return true;
	h = xstrdup(host);
	if (hl > 0 && h[hl - 1] == '.')
		h[hl - 1] = '\0';
	for (size_t i = 0; i < n && !allowed; i++) {
		bool m;

		if (thr_path_match(patterns[i], h, &m) == THR_OK && m)
			allowed = true;
	}
	free(h);
	return allowed;
}

/* ---- %g ---- */

char *thr_format_g(double v, int prec, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else if (isinf(v))
		snprintf(buf, len, "%s", v > 0 ? "+Inf" : "-Inf");
	else
		/*
		 * Go's 'g' with a precision rounds the exact binary value to
		 * prec digits (half to even), trims trailing zeros and picks %e
		 * when exp < -4 || exp >= prec, with a two-digit minimum
		 * exponent: the same rules as C's %g, so glibc's output is
		 * Go's output byte for byte.
		 */
		snprintf(buf, len, "%.*g", prec, v);
	return buf;
}
