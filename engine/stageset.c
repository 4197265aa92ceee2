/*
 * StageSet version planning and approval (spec §3.2-3.4) and the semantic
 * versions of Masterminds/semver v3.5.0.  See engine/stageset.h.
 */
#include "engine/stageset.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/xalloc.h"

#define ERR_INVALID "invalid semantic version"
#define ERR_ZERO "version segment starts with 0"

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* [0-9A-Za-z-] */
static bool is_ident_char(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

static void set_err(char *err, size_t errlen, const char *text)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", text);
}

/*
 * Dot-separated non-empty identifiers of [0-9A-Za-z-] starting at s[*i];
 * advances *i past them.  Returns false when the first is empty.
 */
static bool scan_idents(const char *s, size_t *i)
{
	size_t p = *i;
	for (;;) {
		size_t start = p;
		while (is_ident_char((unsigned char)s[p]))
			p++;
		if (p == start)
			return false;
		if (s[p] != '.' || !is_ident_char((unsigned char)s[p + 1]))
			break;
		p++;
	}
	*i = p;
	return true;
}

/* strconv.ParseUint(s[0..n), 10, 64) for all-digit text; false on overflow. */
static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_digit((unsigned char)s[i]))
			return false;
	return n > 0;
}

int ss_semver_parse(const char *s, struct ss_semver *out, char *err, size_t errlen)
{
	struct ss_semver v;
	size_t i = 0, seg[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };

	assert(s && out);
	memset(&v, 0, sizeof(v));
	/* looseSemVerRegex, anchored at both ends */
	if (s[i] == 'v')
		i++;
	for (int k = 0; k < 3; k++) {
		if (k > 0) {
			if (s[i] != '.' || !is_digit((unsigned char)s[i + 1]))
				break;
			i++;
		}
		seg[k][0] = i;
		if (!is_digit((unsigned char)s[i])) {
			set_err(err, errlen, ERR_INVALID);
			return SS_EINVAL;
		}
		while (is_digit((unsigned char)s[i]))
			i++;
		seg[k][1] = i - seg[k][0];
	}
	if (s[i] == '-') {
		size_t start = ++i;
		if (!scan_idents(s, &i)) {
			set_err(err, errlen, ERR_INVALID);
			return SS_EINVAL;
		}
		v.pre = s + start;
		v.npre = i - start;
	}
	if (s[i] == '+') {
		size_t start = ++i;
		if (!scan_idents(s, &i)) {
			set_err(err, errlen, ERR_INVALID);
			return SS_EINVAL;
		}
		v.meta = s + start;
		v.nmeta = i - start;
	}
	if (s[i] != '\0') {
		set_err(err, errlen, ERR_INVALID);
		return SS_EINVAL;
	}
	/* the numbers: ParseUint, leading zeros accepted (CoerceNewVersion) */
	uint64_t *dst[3] = { &v.major, &v.minor, &v.patch };
	for (int k = 0; k < 3; k++) {
		if (seg[k][1] == 0)
			continue;
		if (!parse_u64(s + seg[k][0], seg[k][1], dst[k])) {
			if (err && errlen)
				snprintf(err, errlen,
					 "error parsing version segment: strconv.ParseUint: parsing \"%.*s\": value out of range",
					 (int)seg[k][1], s + seg[k][0]);
			return SS_EINVAL;
		}
	}
	/* validatePrerelease: numeric identifiers without leading zeros */
	for (size_t p = 0; p < v.npre;) {
		size_t q = p;
		while (q < v.npre && v.pre[q] != '.')
			q++;
		if (all_digits(v.pre + p, q - p) && q - p > 1 && v.pre[p] == '0') {
			set_err(err, errlen, ERR_ZERO);
			return SS_EINVAL;
		}
		p = q + 1;
	}
	*out = v;
	return SS_OK;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* comparePrePart over s[0..ns) and o[0..no); length 0 is Go's "". */
static int compare_pre_part(const char *s, size_t ns, const char *o, size_t no)
{
	uint64_t si = 0, oi = 0;
	if (ns == no && memcmp(s, o, ns) == 0)
		return 0;
	if (ns == 0)
		return -1;
	if (no == 0)
		return 1;
	bool o_num = all_digits(o, no) && parse_u64(o, no, &oi);
	bool s_num = all_digits(s, ns) && parse_u64(s, ns, &si);
	if (!o_num && !s_num) {
		/* Go string comparison: bytewise, a prefix ranks lower */
		size_t n = ns < no ? ns : no;
		int c = memcmp(s, o, n);
		if (c != 0)
			return c > 0 ? 1 : -1;
		return ns > no ? 1 : -1;
	}
	if (!o_num)
		return -1;
	if (!s_num)
		return 1;
	return si > oi ? 1 : -1;
}

/*
 * comparePrerelease over a[0..na) and b[0..nb): identifier by identifier, a
 * missing identifier (and an empty text, Go's strings.Split("", ".") = [""])
 * compares as "".
 */
static int compare_prerelease(const char *a, size_t na, const char *b, size_t nb)
{
	size_t pa = 0, pb = 0;
	bool ea = false, eb = false; /* past the last identifier */
	int d;

	if (!a)
		a = "";
	if (!b)
		b = "";
	while (!ea || !eb) {
		size_t qa = pa, qb = pb;
		const char *sa = "", *sb = "";
		size_t la = 0, lb = 0;
		if (!ea) {
			while (qa < na && a[qa] != '.')
				qa++;
			sa = a + pa;
			la = qa - pa;
		}
		if (!eb) {
			while (qb < nb && b[qb] != '.')
				qb++;
			sb = b + pb;
			lb = qb - pb;
		}
		if ((d = compare_pre_part(sa, la, sb, lb)) != 0)
			return d;
		if (!ea) {
			if (qa >= na)
				ea = true;
			pa = qa + 1;
		}
		if (!eb) {
			if (qb >= nb)
				eb = true;
			pb = qb + 1;
		}
	}
	return 0;
}

int ss_semver_compare(const struct ss_semver *a, const struct ss_semver *b)
{
	int d;
	if ((d = cmp_u64(a->major, b->major)) != 0)
		return d;
	if ((d = cmp_u64(a->minor, b->minor)) != 0)
		return d;
	if ((d = cmp_u64(a->patch, b->patch)) != 0)
		return d;
	if (a->npre == 0 && b->npre == 0)
		return 0;
	if (a->npre == 0)
		return 1;
	if (b->npre == 0)
		return -1;
	return compare_prerelease(a->pre, a->npre, b->pre, b->npre);
}

/* Decimal digits of @n at @p; returns the end. */
static char *put_u64(char *p, uint64_t n)
{
	char tmp[24];
	size_t k = 0;

	do
		tmp[k++] = (char)('0' + n % 10);
	while ((n /= 10) > 0);
	while (k > 0)
		*p++ = tmp[--k];
	return p;
}

char *ss_semver_string(const struct ss_semver *v)
{
	/* Without printf: the version plan formats versions on every pass. */
	char *s = xmalloc(3 * 21 + 4 + v->npre + v->nmeta), *p = s;

	p = put_u64(p, v->major);
	*p++ = '.';
	p = put_u64(p, v->minor);
	*p++ = '.';
	p = put_u64(p, v->patch);
	if (v->npre) {
		*p++ = '-';
		memcpy(p, v->pre, v->npre);
		p += v->npre;
	}
	if (v->nmeta) {
		*p++ = '+';
		memcpy(p, v->meta, v->nmeta);
		p += v->nmeta;
	}
	*p = '\0';
	return s;
}

/* ---- StrictNewVersion ---------------------------------------------------- */

/* containsOnly(p, allowed) of validatePrerelease / validateMetadata: [0-9A-Za-z-]. */
static bool only_ident_chars(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_ident_char((unsigned char)s[i]))
			return false;
	return true;
}

/*
 * validatePrerelease (@meta false) / validateMetadata (@meta true) over
 * s[0..n): dot-separated identifiers, none empty, of [0-9A-Za-z-]; numeric
 * pre-release identifiers without leading zeros.
 */
static const char *validate_extra(const char *s, size_t n, bool meta)
{
	const char *bad = meta ? "invalid metadata string" : "invalid prerelease string";
	size_t p = 0;

	for (;;) {
		size_t q = p;
		while (q < n && s[q] != '.')
			q++;
		if (q == p)
			return bad;
		if (!meta && all_digits(s + p, q - p)) {
			if (q - p > 1 && s[p] == '0')
				return ERR_ZERO;
		} else if (!only_ident_chars(s + p, q - p)) {
			return bad;
		}
		if (q >= n)
			return NULL;
		p = q + 1;
	}
}

int ss_semver_parse_strict(const char *s, struct ss_semver *out, char *err, size_t errlen)
{
	struct ss_semver v;
	const char *part[3];
	size_t len[3];
	const char *msg;

	assert(s && out);
	memset(&v, 0, sizeof(v));
	if (!*s) {
		set_err(err, errlen, "version string empty");
		return SS_EINVAL;
	}
	/* strings.SplitN(v, ".", 3) */
	const char *d1 = strchr(s, '.');
	const char *d2 = d1 ? strchr(d1 + 1, '.') : NULL;
	if (!d2) {
		set_err(err, errlen, ERR_INVALID);
		return SS_EINVAL;
	}
	part[0] = s, len[0] = (size_t)(d1 - s);
	part[1] = d1 + 1, len[1] = (size_t)(d2 - d1 - 1);
	part[2] = d2 + 1, len[2] = strlen(d2 + 1);
	/* build metadata first, then the pre-release, both out of the third part */
	const char *plus = memchr(part[2], '+', len[2]);
	if (plus) {
		v.meta = plus + 1;
		v.nmeta = len[2] - (size_t)(plus + 1 - part[2]);
		len[2] = (size_t)(plus - part[2]);
		if ((msg = validate_extra(v.meta, v.nmeta, true)) != NULL) {
			set_err(err, errlen, msg);
			return SS_EINVAL;
		}
	}
	const char *dash = memchr(part[2], '-', len[2]);
	if (dash) {
		v.pre = dash + 1;
		v.npre = len[2] - (size_t)(dash + 1 - part[2]);
		len[2] = (size_t)(dash - part[2]);
		if ((msg = validate_extra(v.pre, v.npre, false)) != NULL) {
			set_err(err, errlen, msg);
			return SS_EINVAL;
		}
	}
	for (int k = 0; k < 3; k++) {
		for (size_t i = 0; i < len[k]; i++) {
			if (!is_digit((unsigned char)part[k][i])) {
				set_err(err, errlen, "invalid characters in version");
				return SS_EINVAL;
			}
		}
		if (len[k] > 1 && part[k][0] == '0') {
			set_err(err, errlen, ERR_ZERO);
			return SS_EINVAL;
		}
	}
	uint64_t *dst[3] = { &v.major, &v.minor, &v.patch };
	for (int k = 0; k < 3; k++) {
		if (len[k] == 0) {
			set_err(err, errlen, "strconv.ParseUint: parsing \"\": invalid syntax");
			return SS_EINVAL;
		}
		if (!parse_u64(part[k], len[k], dst[k])) {
			if (err && errlen)
				snprintf(err, errlen, "strconv.ParseUint: parsing \"%.*s\": value out of range",
					 (int)len[k], part[k]);
			return SS_EINVAL;
		}
	}
	*out = v;
	return SS_OK;
}

/* ---- Masterminds constraints ----------------------------------------------
 *
 * Upstream parses constraints with four regular expressions built from
 *   cv  = v?([0-9|x|X|\*]+)(\.[0-9|x|X|\*]+)?(\.[0-9|x|X|\*]+)?
 *         (-([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?(\+([0-9A-Za-z\-]+(\.[0-9A-Za-z\-]+)*))?
 *   ops = =||!=|>|<|>=|=>|<=|=<|~|~>|\^
 * Go's regexp picks what a backtracking matcher would pick.  Every part of
 * cv is a delimiter followed by a maximal run of one character class, and no
 * cv character is white space, a comma or an operator character, so the
 * match at a position is the greedy one and the operator is the whole run
 * of operator characters in front of the version; the scans below decide
 * each expression that way in one pass over precomputed run ends.
 */

/* \s in Go's RE2: [\t\n\f\r ] (no \v). */
static bool re_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r';
}

/* [0-9|x|X|\*]: the version-number class of cv (the '|' is literal). */
static bool re_xnum(int c)
{
	return is_digit(c) || c == '|' || c == 'x' || c == 'X' || c == '*';
}

static bool re_opchar(int c)
{
	return c == '=' || c == '!' || c == '<' || c == '>' || c == '~' || c == '^';
}

/* Whether s[0..n) is one of the alternatives of ops (the empty one included). */
static bool re_is_op(const char *s, size_t n)
{
	static const char *const ops[] = { "=", "!=", ">", "<", ">=", "=>", "<=", "=<", "~", "~>", "^" };
	if (n == 0)
		return true;
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (strlen(ops[i]) == n && memcmp(ops[i], s, n) == 0)
			return true;
	return false;
}

/* Run ends over one text, so every cv match is O(1). */
struct cvscan {
	const char *s;
	size_t n;
	size_t *xrun;   /* end of the [0-9|xX*] run starting at i (i when none) */
	size_t *idtail; /* end of the greedy [0-9A-Za-z-]+(\.[0-9A-Za-z-]+)* at i (i when none) */
	size_t *nows;   /* first index >= i that is not \s (n at the end) */
};

static void cvscan_init(struct cvscan *sc, const char *s, size_t n)
{
	sc->s = s;
	sc->n = n;
	sc->xrun = xcalloc(n + 1, sizeof(size_t));
	sc->idtail = xcalloc(n + 1, sizeof(size_t));
	sc->nows = xcalloc(n + 1, sizeof(size_t));
	sc->xrun[n] = sc->idtail[n] = sc->nows[n] = n;
	/* first pass: the plain runs (idtail holds the end of the identifier run) */
	for (size_t i = n; i-- > 0;) {
		int c = (unsigned char)s[i];
		if (re_xnum(c))
			sc->xrun[i] = i + 1 < n && re_xnum((unsigned char)s[i + 1]) ? sc->xrun[i + 1] : i + 1;
		else
			sc->xrun[i] = i;
		sc->nows[i] = re_space(c) ? sc->nows[i + 1] : i;
		if (is_ident_char(c))
			sc->idtail[i] = i + 1 < n && is_ident_char((unsigned char)s[i + 1]) ? sc->idtail[i + 1] : i + 1;
		else
			sc->idtail[i] = i;
	}
	/* second pass: extend each identifier run through ".identifier" continuations */
	for (size_t i = n; i-- > 0;) {
		size_t j = sc->idtail[i];
		if (j == i)
			continue;
		if (j + 1 < n && s[j] == '.' && is_ident_char((unsigned char)s[j + 1]))
			sc->idtail[i] = sc->idtail[j + 1];
	}
}

static void cvscan_release(struct cvscan *sc)
{
	free(sc->xrun);
	free(sc->idtail);
	free(sc->nows);
}

/* Where the groups of one cv match lie (half-open offsets; b == e: the group did not take part). */
struct cvmatch {
	size_t start, end;
	size_t maj_b, maj_e; /* ([0-9|x|X|\*]+) */
	size_t min_b, min_e; /* (\.[...]+) with its dot */
	size_t pat_b, pat_e; /* (\.[...]+) with its dot */
	size_t pre_b, pre_e; /* (-(...)) with its dash */
};

/* cv matched at @q (greedy), or false. */
static bool cv_at(const struct cvscan *sc, size_t q, struct cvmatch *m)
{
	const char *s = sc->s;
	size_t n = sc->n, i = q;

	if (i < n && s[i] == 'v' && i + 1 < n && re_xnum((unsigned char)s[i + 1]))
		i++;
	if (i >= n || !re_xnum((unsigned char)s[i]))
		return false;
	m->start = q;
	m->maj_b = i;
	i = sc->xrun[i];
	m->maj_e = i;
	m->min_b = m->min_e = m->pat_b = m->pat_e = m->pre_b = m->pre_e = i;
	if (i + 1 < n && s[i] == '.' && re_xnum((unsigned char)s[i + 1])) {
		m->min_b = i;
		i = sc->xrun[i + 1];
		m->min_e = i;
		m->pat_b = m->pat_e = m->pre_b = m->pre_e = i;
		if (i + 1 < n && s[i] == '.' && re_xnum((unsigned char)s[i + 1])) {
			m->pat_b = i;
			i = sc->xrun[i + 1];
			m->pat_e = i;
			m->pre_b = m->pre_e = i;
		}
	}
	if (i + 1 < n && s[i] == '-' && is_ident_char((unsigned char)s[i + 1])) {
		m->pre_b = i;
		i = sc->idtail[i + 1];
		m->pre_e = i;
	}
	if (i + 1 < n && s[i] == '+' && is_ident_char((unsigned char)s[i + 1]))
		i = sc->idtail[i + 1];
	m->end = i;
	return true;
}

/* The end of the run of operator characters at @p. */
static size_t op_run(const struct cvscan *sc, size_t p)
{
	while (p < sc->n && re_opchar((unsigned char)sc->s[p]))
		p++;
	return p;
}

/* Appends s[0..n) to the growing string *buf of *len bytes (NUL kept). */
static void buf_add(char **buf, size_t *len, const char *s, size_t n)
{
	*buf = xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = '\0';
}

char *ss_constraint_rewrite_range(const char *in)
{
	struct cvscan sc;
	size_t n = strlen(in);
	char *o = xstrdup(in);
	size_t p = 0;

	cvscan_init(&sc, in, n);
	/* FindAllStringSubmatch of \s*(cv)\s+-\s+(cv)\s*, each match replaced in turn */
	while (p < n) {
		struct cvmatch a, b;
		size_t q = sc.nows[p];
		if (cv_at(&sc, q, &a) && a.end < n && re_space((unsigned char)in[a.end])) {
			size_t r = sc.nows[a.end];
			if (r + 1 < n && in[r] == '-' && re_space((unsigned char)in[r + 1]) &&
			    cv_at(&sc, sc.nows[r + 1], &b)) {
				size_t end = sc.nows[b.end];
				char *whole = xstrndup(in + p, end - p);
				char *t = xasprintf(">= %.*s, <= %.*s ", (int)(a.end - a.start), in + a.start,
						    (int)(b.end - b.start), in + b.start);
				/* strings.Replace(o, whole, t, 1): the first occurrence in the text so far */
				char *at = strstr(o, whole);
				if (at) {
					size_t pre = (size_t)(at - o), olen = strlen(o), wlen = strlen(whole);
					char *next = NULL;
					size_t nlen = 0;
					buf_add(&next, &nlen, o, pre);
					buf_add(&next, &nlen, t, strlen(t));
					buf_add(&next, &nlen, at + wlen, olen - pre - wlen);
					free(o);
					o = next;
				}
				free(whole);
				free(t);
				p = end;
				continue;
			}
		}
		p++;
	}
	cvscan_release(&sc);
	return o;
}

/*
 * validConstraintRegex.MatchString: ^(\s*(ops)\s*(cv)\s*)((?:\s+|,\s*)(ops)\s*(cv)\s*)*$
 * — one or more "operator, version" units, separated by white space or a
 * comma with optional white space.
 */
static bool valid_segment(const struct cvscan *sc)
{
	size_t n = sc->n, p = sc->nows[0];

	for (;;) {
		struct cvmatch m;
		size_t r = op_run(sc, p);
		if (!re_is_op(sc->s + p, r - p) || !cv_at(sc, sc->nows[r], &m))
			return false;
		size_t w = sc->nows[m.end];
		if (w == n)
			return true;
		if (sc->s[w] == ',')
			p = sc->nows[w + 1];
		else if (w > m.end)
			p = w;
		else
			return false;
	}
}

/*
 * findConstraintRegex at @p: (ops)\s*(cv) — the operator is the whole run of
 * operator characters at @p; with no operator, white space at @p belongs to
 * the match.  Returns the end of the match, or 0 when none starts at @p.
 */
static size_t find_at(const struct cvscan *sc, size_t p)
{
	struct cvmatch m;
	size_t r = op_run(sc, p);

	if (!re_is_op(sc->s + p, r - p) || !cv_at(sc, sc->nows[r], &m))
		return 0;
	return m.end;
}

static bool is_x_text(const char *s, size_t n)
{
	return n == 1 && (s[0] == 'x' || s[0] == 'X' || s[0] == '*');
}

void ss_constraint_release(struct ss_constraint *c)
{
	if (!c)
		return;
	free(c->orig);
	free(c->ver);
	memset(c, 0, sizeof(*c));
}

int ss_constraint_parse(const char *text, struct ss_constraint *out, char *err, size_t errlen)
{
	struct ss_constraint c;
	struct cvscan sc;
	struct cvmatch m;
	size_t n = strlen(text);

	memset(&c, 0, sizeof(c));
	if (n == 0) {
		/* the empty constraint is * (>= 0.0.0) */
		c.orig = xstrdup("");
		c.ver = xstrdup("0.0.0");
		c.dirty = true;
		if (ss_semver_parse(c.ver, &c.con, NULL, 0) != SS_OK)
			assert(!"0.0.0 parses");
		*out = c;
		return SS_OK;
	}
	cvscan_init(&sc, text, n);
	/* constraintRegex: ^\s*(ops)\s*(cv)\s*$ */
	size_t p = sc.nows[0], r = op_run(&sc, p);
	if (!re_is_op(text + p, r - p) || !cv_at(&sc, sc.nows[r], &m) || sc.nows[m.end] != n) {
		char *q = gofmt_quote(text);
		if (err && errlen)
			snprintf(err, errlen, "improper constraint: %s", q);
		free(q);
		cvscan_release(&sc);
		return SS_EINVAL;
	}
	memcpy(c.op, text + p, r - p);
	c.orig = xstrndup(text + m.start, m.end - m.start);
	const char *maj = text + m.maj_b, *min = text + m.min_b, *pat = text + m.pat_b, *pre = text + m.pre_b;
	size_t nmaj = m.maj_e - m.maj_b, nmin = m.min_e - m.min_b, npat = m.pat_e - m.pat_b, npre = m.pre_e - m.pre_b;
	if (is_x_text(maj, nmaj)) {
		c.ver = xasprintf("0.0.0%.*s", (int)npre, pre);
		c.dirty = true;
	} else if (nmin == 0 || is_x_text(min + 1, nmin - 1)) {
		c.minor_dirty = c.dirty = true;
		c.ver = xasprintf("%.*s.0.0%.*s", (int)nmaj, maj, (int)npre, pre);
	} else if (npat == 0 || is_x_text(pat + 1, npat - 1)) {
		c.dirty = c.patch_dirty = true;
		c.ver = xasprintf("%.*s%.*s.0%.*s", (int)nmaj, maj, (int)nmin, min, (int)npre, pre);
	} else {
		c.ver = xstrdup(c.orig);
	}
	cvscan_release(&sc);
	if (ss_semver_parse(c.ver, &c.con, NULL, 0) != SS_OK) {
		set_err(err, errlen, "constraint parser error");
		ss_constraint_release(&c);
		return SS_EINVAL;
	}
	*out = c;
	return SS_OK;
}

/* The check functions of constraintOps; @pre: pre-releases are looked at. */
static bool c_tilde(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	if (ss_semver_compare(v, &c->con) < 0)
		return false;
	/* ~0.0.0 (and ~*) accepts everything */
	if (c->con.major == 0 && c->con.minor == 0 && c->con.patch == 0 && !c->minor_dirty && !c->patch_dirty)
		return true;
	if (v->major != c->con.major)
		return false;
	if (v->minor != c->con.minor && !c->minor_dirty)
		return false;
	return true;
}

static bool c_tilde_or_equal(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	if (c->dirty)
		return c_tilde(v, c, pre);
	return ss_semver_compare(v, &c->con) == 0;
}

static bool c_not_equal(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	if (c->dirty) {
		if (c->con.major != v->major)
			return true;
		if (c->con.minor != v->minor && !c->minor_dirty)
			return true;
		else if (c->minor_dirty)
			return false;
		else if (c->con.patch != v->patch && !c->patch_dirty)
			return true;
		else if (c->patch_dirty) {
			if (v->npre || c->con.npre)
				return compare_prerelease(v->pre, v->npre, c->con.pre, c->con.npre) != 0;
			return false;
		}
	}
	return ss_semver_compare(v, &c->con) != 0;
}

static bool c_greater_than(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	if (!c->dirty)
		return ss_semver_compare(v, &c->con) == 1;
	if (v->major > c->con.major)
		return true;
	else if (v->major < c->con.major)
		return false;
	else if (c->minor_dirty)
		return false; /* >11 needs 12 or higher */
	else if (c->patch_dirty)
		return v->minor > c->con.minor;
	return ss_semver_compare(v, &c->con) == 1;
}

static bool c_less_than(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	return ss_semver_compare(v, &c->con) < 0;
}

static bool c_greater_than_equal(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	return ss_semver_compare(v, &c->con) >= 0;
}

static bool c_less_than_equal(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	if (!c->dirty)
		return ss_semver_compare(v, &c->con) <= 0;
	if (v->major > c->con.major)
		return false;
	else if (v->major == c->con.major && v->minor > c->con.minor && !c->minor_dirty)
		return false;
	return true;
}

static bool c_caret(const struct ss_semver *v, const struct ss_constraint *c, bool pre)
{
	if (v->npre && !pre)
		return false;
	if (ss_semver_compare(v, &c->con) < 0)
		return false;
	/* ^x.y.z with x > 0: the same major */
	if (c->con.major > 0 || c->minor_dirty)
		return v->major == c->con.major;
	if (c->con.major == 0 && v->major > 0)
		return false;
	/* ^0.y.z with y > 0: the same minor */
	if (c->con.minor > 0 || c->patch_dirty)
		return v->minor == c->con.minor;
	if (c->con.minor == 0 && v->minor > 0)
		return false;
	/* ^0.0.z: exactly that patch */
	return c->con.patch == v->patch;
}

bool ss_constraint_check(const struct ss_constraint *c, const struct ss_semver *v, bool include_pre)
{
	const char *op = c->op;

	if (!*op || strcmp(op, "=") == 0)
		return c_tilde_or_equal(v, c, include_pre);
	if (strcmp(op, "!=") == 0)
		return c_not_equal(v, c, include_pre);
	if (strcmp(op, ">") == 0)
		return c_greater_than(v, c, include_pre);
	if (strcmp(op, "<") == 0)
		return c_less_than(v, c, include_pre);
	if (strcmp(op, ">=") == 0 || strcmp(op, "=>") == 0)
		return c_greater_than_equal(v, c, include_pre);
	if (strcmp(op, "<=") == 0 || strcmp(op, "=<") == 0)
		return c_less_than_equal(v, c, include_pre);
	if (strcmp(op, "~") == 0 || strcmp(op, "~>") == 0)
		return c_tilde(v, c, include_pre);
	if (strcmp(op, "^") == 0)
		return c_caret(v, c, include_pre);
	assert(!"an operator the parser accepts");
	return false;
}

void ss_constraints_release(struct ss_constraints *cs)
{
	if (!cs)
		return;
	for (size_t i = 0; i < cs->ngroups; i++) {
		for (size_t j = 0; j < cs->groups[i].n; j++)
			ss_constraint_release(&cs->groups[i].items[j]);
		free(cs->groups[i].items);
	}
	free(cs->groups);
	memset(cs, 0, sizeof(*cs));
}

/* One "||" segment of NewConstraint into @g (filled). */
static int parse_group(const char *seg, size_t n, struct ss_constraint_group *g, char *err, size_t errlen)
{
	struct cvscan sc;
	char *text = xstrndup(seg, n);
	int rc = SS_OK;

	memset(g, 0, sizeof(*g));
	cvscan_init(&sc, text, n);
	if (!valid_segment(&sc)) {
		char *q = gofmt_quote(text);
		if (err && errlen)
			snprintf(err, errlen, "improper constraint: %s", q);
		free(q);
		rc = SS_EINVAL;
		goto out_release_scan;
	}
	/* FindAllString(findConstraintRegex): successive leftmost matches */
	for (size_t p = 0; p < n;) {
		size_t end = find_at(&sc, p);
		if (end == 0) {
			p++;
			continue;
		}
		char *one = xstrndup(text + p, end - p);
		struct ss_constraint c;
		rc = ss_constraint_parse(one, &c, err, errlen);
		free(one);
		if (rc != SS_OK)
			goto out_release_scan;
		g->items = xreallocarray(g->items, g->n + 1, sizeof(*g->items));
		g->items[g->n++] = c;
		if (c.con.npre)
			g->contains_pre = true;
		p = end;
	}
out_release_scan:
	cvscan_release(&sc);
	free(text);
	return rc;
}

int ss_constraints_parse(const char *text, struct ss_constraints *out, char *err, size_t errlen)
{
	struct ss_constraints cs;
	char *rw = ss_constraint_rewrite_range(text);
	const char *seg = rw;
	int rc = SS_OK;

	memset(&cs, 0, sizeof(cs));
	/* strings.Split(c, "||") */
	for (;;) {
		const char *bar = strstr(seg, "||");
		size_t n = bar ? (size_t)(bar - seg) : strlen(seg);
		cs.groups = xreallocarray(cs.groups, cs.ngroups + 1, sizeof(*cs.groups));
		rc = parse_group(seg, n, &cs.groups[cs.ngroups], err, errlen);
		cs.ngroups++;
		if (rc != SS_OK)
			break;
		if (!bar)
			break;
		seg = bar + 2;
	}
	free(rw);
	if (rc != SS_OK) {
		ss_constraints_release(&cs);
		return rc;
	}
	*out = cs;
	return SS_OK;
}

bool ss_constraints_check(const struct ss_constraints *cs, const struct ss_semver *v)
{
	for (size_t i = 0; i < cs->ngroups; i++) {
		const struct ss_constraint_group *g = &cs->groups[i];
		bool pre = cs->include_prerelease || g->contains_pre, joy = true;
		for (size_t j = 0; j < g->n && joy; j++)
			joy = ss_constraint_check(&g->items[j], v, pre);
		if (joy)
			return true;
	}
	return false;
}

static bool empty(const char *s)
{
	return !s || !*s;
}

const char *ss_rollback_directive(const char *rollback_to, const char *status_version)
{
	struct ss_semver rb, cur;
	if (empty(rollback_to) || empty(status_version))
		return NULL;
	if (ss_semver_parse(rollback_to, &rb, NULL, 0) != SS_OK)
		return NULL;
	if (ss_semver_parse(status_version, &cur, NULL, 0) != SS_OK)
		return NULL;
	return ss_semver_compare(&rb, &cur) < 0 ? rollback_to : NULL;
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

char *ss_resolve_desired_version(const char *offered, const char *status_version, const char *rollback_to,
				 bool *directed)
{
	if (directed)
		*directed = false;
	/* resolveDesiredVersion: spec.version.value "" means no value at all */
	if (empty(offered))
		return NULL;
	const char *rb = ss_rollback_directive(rollback_to, status_version);
	if (rb) {
		if (directed)
			*directed = true;
		return xstrdup(rb);
	}
	size_t b = 0, e = strlen(offered);
	while (b < e && is_space((unsigned char)offered[b]))
		b++;
	while (e > b && is_space((unsigned char)offered[e - 1]))
		e--;
	return xstrndup(offered + b, e - b);
}

bool ss_version_approval_needed(enum ss_approval_mode mode, const struct ss_plan *plan, const char *current_version)
{
	if (!plan || !plan->versioned || plan->baseline)
		return false;
	switch (mode) {
	case SS_APPROVAL_ALWAYS:
		return strcmp(plan->desired ? plan->desired : "", current_version ? current_version : "") != 0;
	case SS_APPROVAL_ON_MIGRATIONS:
		return plan->npending > 0;
	case SS_APPROVAL_NEVER:
	default:
		return false;
	}
}

char *ss_decorate_message(const char *reason, const char *message)
{
	if (strcmp(reason, SS_REASON_SUCCEEDED) == 0 || strcmp(reason, SS_REASON_SUSPENDED) == 0)
		return xstrdup(message);
	char *lower = xstrdup(reason);
	for (char *p = lower; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	char *out = xasprintf("%s (runbook: %s%s/)", message, SS_RUNBOOK_BASE, lower);
	free(lower);
	return out;
}

char *ss_succeeded_message(size_t nstages)
{
	return xasprintf("Applied and verified %zu stage(s)", nstages);
}

const char *ss_outcome_name(enum ss_outcome o)
{
	switch (o) {
	case SS_OUT_UNVERSIONED: return "Unversioned";
	case SS_OUT_REFUSED: return "Refused";
	case SS_OUT_AWAITING_APPROVAL: return "AwaitingApproval";
	case SS_OUT_PROCEED_BASELINE: return "Baseline";
	case SS_OUT_PROCEED_NO_CHANGE: return "NoChange";
	case SS_OUT_PROCEED_UPGRADE: return "Upgrade";
	case SS_OUT_PROCEED_DOWNGRADE: return "Downgrade";
	}
	return "?";
}

/* A refused plan: Ready False @reason, pendingVersion untouched, no event. */
static void refuse(struct ss_plan *out, const struct ss_member *m, const char *reason, char *msg)
{
	out->outcome = SS_OUT_REFUSED;
	out->writes_ready = true;
	out->ready_status = "False";
	out->reason = reason;
	out->message = ss_decorate_message(reason, msg);
	free(msg);
	free(out->pending_version);
	out->pending_version = xstrdup(m->pending_version ? m->pending_version : "");
	out->requeue_after_ms = SS_PERMANENT_RETRY_MS;
	free(out->pending);
	out->pending = NULL;
	out->npending = 0;
}

/* ValidateLadder for the modelled fields: count cap, name, to, unique names. */
static char *validate_ladder(const struct ss_member *m)
{
	char err[200];
	if (m->nmigrations > 200)
		return xasprintf("migration ladder has %zu migrations, exceeding the limit of %d", m->nmigrations, 200);
	for (size_t i = 0; i < m->nmigrations; i++) {
		const struct ss_migration *g = &m->migrations[i];
		struct ss_semver v;
		if (empty(g->name))
			return xstrdup("a migration has an empty name");
		char *qn = gofmt_quote(g->name);
		if (empty(g->to)) {
			char *r = xasprintf("migration %s has an empty to", qn);
			free(qn);
			return r;
		}
		if (ss_semver_parse(g->to, &v, err, sizeof(err)) != SS_OK) {
			char *qt = gofmt_quote(g->to);
			char *r = xasprintf("migration %s has an invalid to %s: %s", qn, qt, err);
			free(qt);
			free(qn);
			return r;
		}
		for (size_t j = 0; j < i; j++) {
			if (strcmp(m->migrations[j].name, g->name) == 0) {
				char *r = xasprintf("duplicate migration name %s; names are the idempotency-ledger key and must be unique",
						    qn);
				free(qn);
				return r;
			}
		}
		free(qn);
	}
	return NULL;
}

/*
 * Select (@down false: current < to <= desired, ascending) or SelectDown
 * (@down true: desired < to <= current, descending); stable for equal to.
 * The ladder has been validated, so every `to` parses.
 */
static void select_migrations(const struct ss_member *m, const struct ss_semver *cur, const struct ss_semver *des,
			      bool down, struct ss_plan *out)
{
	struct ss_semver *to = xcalloc(m->nmigrations ? m->nmigrations : 1, sizeof(*to));
	size_t n = 0;
	out->pending = xcalloc(m->nmigrations ? m->nmigrations : 1, sizeof(size_t));
	for (size_t i = 0; i < m->nmigrations; i++) {
		int rc = ss_semver_parse(m->migrations[i].to, &to[i], NULL, 0);
		assert(rc == SS_OK);
		(void)rc;
		bool crossed = down ? ss_semver_compare(&to[i], des) > 0 && ss_semver_compare(&to[i], cur) <= 0
				    : ss_semver_compare(&to[i], cur) > 0 && ss_semver_compare(&to[i], des) <= 0;
		if (!crossed)
			continue;
		/* insertion sort keeps ladder order among equal targets */
		size_t k = n;
		while (k > 0) {
			int c = ss_semver_compare(&to[out->pending[k - 1]], &to[i]);
			if (down ? c >= 0 : c <= 0)
				break;
			out->pending[k] = out->pending[k - 1];
			k--;
		}
		out->pending[k] = i;
		n++;
	}
	out->npending = n;
	free(to);
}

void ss_plan_compute(const struct ss_member *m, struct ss_plan *out)
{
	struct ss_semver des, cur;
	char err[200];
	const char *current = m->status_version ? m->status_version : "";

	assert(m && out);
	memset(out, 0, sizeof(*out));
	out->pending_version = xstrdup(m->pending_version ? m->pending_version : "");

	if (!m->versioned) {
		out->outcome = SS_OUT_UNVERSIONED;
		goto out_gate;
	}
	out->desired = ss_resolve_desired_version(m->offered, current, m->rollback_to, &out->directed);
	if (!out->desired) {
		refuse(out, m, SS_REASON_INVALID_VERSION,
		       xstrdup("invalid version: spec.version sets none of value, fromObject, or fromArtifact"));
		return;
	}
	if (ss_semver_parse(out->desired, &des, err, sizeof(err)) != SS_OK) {
		char *q = gofmt_quote(out->desired);
		refuse(out, m, SS_REASON_INVALID_VERSION, xasprintf("desired version %s is not a semver: %s", q, err));
		free(q);
		return;
	}
	out->versioned = true;
	if (*current == '\0') {
		out->baseline = true;
		out->outcome = SS_OUT_PROCEED_BASELINE;
		goto out_gate;
	}
	if (ss_semver_parse(current, &cur, err, sizeof(err)) != SS_OK) {
		char *q = gofmt_quote(current);
		refuse(out, m, SS_REASON_INVALID_VERSION,
		       xasprintf("recorded status.version %s is not a semver: %s", q, err));
		free(q);
		return;
	}
	int c = ss_semver_compare(&des, &cur);
	if (c < 0) {
		/* planDowngrade */
		char *curs = ss_semver_string(&cur);
		if (!m->allow_downgrade) {
			refuse(out, m, SS_REASON_DOWNGRADE_NOT_ALLOWED,
			       xasprintf("desired version %s is below the deployed version %s and downgrades are not enabled; set spec.version.allowDowngrade to enable reversible downgrades",
					 out->desired, curs));
			free(curs);
			return;
		}
		out->downgrade = true;
		char *bad = validate_ladder(m);
		if (bad) {
			refuse(out, m, SS_REASON_INVALID_SPEC, bad);
			free(curs);
			return;
		}
		select_migrations(m, &cur, &des, true, out);
		for (size_t i = 0; i < out->npending; i++) {
			const struct ss_migration *g = &m->migrations[out->pending[i]];
			if (g->has_down)
				continue;
			char *qn = gofmt_quote(g->name);
			refuse(out, m, SS_REASON_DOWNGRADE_REQUIRES_MIGRATION,
			       xasprintf("downgrade %s \xe2\x86\x92 %s crosses migration %s (to %s), which declares no down actions; it is irreversible",
					 curs, out->desired, qn, g->to));
			free(qn);
			free(curs);
			return;
		}
		free(curs);
		out->outcome = SS_OUT_PROCEED_DOWNGRADE;
		goto out_gate;
	}
	if (c == 0) {
		out->outcome = SS_OUT_PROCEED_NO_CHANGE;
		goto out_gate;
	}
	/* upgrade */
	char *bad = validate_ladder(m);
	if (bad) {
		refuse(out, m, SS_REASON_INVALID_SPEC, bad);
		return;
	}
	select_migrations(m, &cur, &des, false, out);
	if (m->require_migration_coverage && out->npending == 0 && des.major > cur.major) {
		refuse(out, m, SS_REASON_MIGRATION_COVERAGE_MISSING,
		       xasprintf("version crosses a major boundary %s \xe2\x86\x92 %s but no migration covers it, and requireMigrationCoverage is set",
				 current, out->desired));
		return;
	}
	out->outcome = SS_OUT_PROCEED_UPGRADE;

out_gate:
	/* the approval gate (SC:Reconcile) */
	if (m->versioned && ss_version_approval_needed(m->approval_mode, out, current) &&
	    strcmp(m->approved_version ? m->approved_version : "", out->desired) != 0) {
		char *detail = out->npending ? xasprintf(" (%zu pending migration(s))", out->npending) : xstrdup("");
		char *q = gofmt_quote(out->desired);
		char *msg = xasprintf("version transition to %s is awaiting approval%s; set annotation %s=%s to proceed",
				      out->desired, detail, SS_ANN_APPROVED_VERSION, q);
		free(q);
		free(detail);
		out->outcome = SS_OUT_AWAITING_APPROVAL;
		out->writes_ready = true;
		out->ready_status = "False";
		out->reason = SS_REASON_AWAITING_APPROVAL;
		out->message = ss_decorate_message(SS_REASON_AWAITING_APPROVAL, msg);
		free(msg);
		free(out->pending_version);
		out->pending_version = xstrdup(out->desired);
		out->requeue_after_ms = SS_PERMANENT_RETRY_MS;
		/* emitReadyEvent: only when status or reason changes */
		if (!m->prev_ready_status || strcmp(m->prev_ready_status, "False") != 0 || !m->prev_ready_reason ||
		    strcmp(m->prev_ready_reason, SS_REASON_AWAITING_APPROVAL) != 0) {
			out->event = true;
			out->event_type = "Warning";
		}
		return;
	}
	free(out->pending_version);
	out->pending_version = xstrdup("");
}

void ss_plan_release(struct ss_plan *p)
{
	if (!p)
		return;
	free(p->desired);
	free(p->pending);
	free(p->message);
	free(p->pending_version);
	memset(p, 0, sizeof(*p));
}
