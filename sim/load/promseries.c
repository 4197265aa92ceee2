/*
 * promtool's expanding notation: a port of the value-sequence part of the
 * PromQL lexer and of the series_values rules of the PromQL grammar, plus
 * Prometheus's instant-query lookup.  See sim/load/promseries.h for the sources.
 *
 * The yacc parser is replaced by recursive descent over the same tokens.  It
 * reports the first error at the same token because the grammar's reductions
 * that can fail (number, uint, series_value: IDENTIFIER) happen in states
 * with a single default reduction, where goyacc reads no lookahead; a
 * syntax error is reported by the `series_values: error` rule at the
 * lookahead token that did not fit.
 */
#include "sim/load/promseries.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/xalloc.h"
#include "sim/base/limits.h"

enum tok_type {
	T_EOF,
	T_ERROR, /* lexer error; message in lexer.errmsg */
	T_SPACE,
	T_ADD,
	T_SUB,
	T_TIMES,
	T_BLANK,
	T_NUMBER,
	T_IDENT,
};

struct tok {
	enum tok_type type;
	size_t pos; /* byte offset of the first byte */
	size_t len;
};

struct lexer {
	const char *s;
	size_t n;
	size_t pos;
	char errmsg[200];
};

struct parser {
	struct lexer lx;
	struct ps_series *out;
	struct ps_error *err;
	uint64_t max_computed; /* computed samples this series may store */
	bool failed;
};

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(int c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_alnum(int c)
{
	return is_alpha(c) || is_digit(c);
}

/* Byte at @i, or -1 past the end (Go's eof rune). */
static int at(const struct lexer *l, size_t i)
{
	return i < l->n ? (unsigned char)l->s[i] : -1;
}

static bool in_set(int c, const char *set)
{
	return c >= 0 && c != 0 && strchr(set, c) != NULL;
}

/* Lexer.accept: consume the next byte when it is in @set. */
static bool accept(struct lexer *l, const char *set)
{
	if (in_set(at(l, l->pos), set)) {
		l->pos++;
		return true;
	}
	return false;
}

/*
 * Lexer.scanNumber in a series description (no hexadecimal): consumes what
 * it looks at and says whether that is a number token.  The token's text is
 * s[start..pos) either way (the "bad number syntax" message quotes it).
 */
static bool scan_number(struct lexer *l)
{
	static const char digits[] = "0123456789";
	static const char all[] = "0123456789._eE";
	size_t initial = l->pos;
	bool dot = false, expo = false;

	accept(l, ".");
	accept(l, digits);
	while (in_set(at(l, l->pos), all)) {
		int c = at(l, l->pos);
		if (c == '.' && dot) {
			accept(l, ".");
			return false;
		}
		if ((c == 'e' || c == 'E') && expo) {
			accept(l, "eE");
			return false;
		}
		if (accept(l, ".")) {
			dot = true;
			if (accept(l, "_."))
				return false;
			continue;
		}
		if (accept(l, "eE")) {
			expo = true;
			accept(l, "+-");
			if (accept(l, "._eE") || at(l, l->pos) < 0)
				return false;
			continue;
		}
		if (accept(l, "_")) {
			if (accept(l, "._eE") || at(l, l->pos) < 0)
				return false;
			continue;
		}
		while (accept(l, digits))
			;
	}
	if (l->pos == initial)
		return false;
	int r = at(l, l->pos);
	return r == 'x' || !is_alnum(r);
}

/* Length of the UTF-8 sequence at @p (1 for an invalid byte), and its validity. */
static size_t utf8_len(const unsigned char *p, size_t avail, bool *valid)
{
	size_t len;
	*valid = false;
	if (p[0] < 0x80) {
		*valid = true;
		return 1;
	}
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 1;
	if (avail < len)
		return 1;
	for (size_t i = 1; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 1;
	*valid = true;
	return len;
}

/*
 * Go's %q of the rune at s[pos] (the lexer reads runes): printable ASCII in
 * single quotes, with \' and \\; control bytes as \a \b \f \n \r \t \v or
 * \xHH; an invalid byte as U+FFFD, which Go's lexer decodes it to; other
 * runes as they are (Go escapes the non-printable ones as \uXXXX; see the
 * deviations in PROVENANCE).
 */
static void quote_rune(const struct lexer *l, size_t pos, char *buf, size_t len)
{
	unsigned char c = (unsigned char)l->s[pos];
	bool valid;
	size_t n = utf8_len((const unsigned char *)l->s + pos, l->n - pos, &valid);

	if (!valid) {
		snprintf(buf, len, "'\xef\xbf\xbd'");
		return;
	}
	if (n > 1) {
		snprintf(buf, len, "'%.*s'", (int)n, l->s + pos);
		return;
	}
	switch (c) {
	case '\'': snprintf(buf, len, "'\\''"); return;
	case '\\': snprintf(buf, len, "'\\\\'"); return;
	case '\a': snprintf(buf, len, "'\\a'"); return;
	case '\b': snprintf(buf, len, "'\\b'"); return;
	case '\f': snprintf(buf, len, "'\\f'"); return;
	case '\n': snprintf(buf, len, "'\\n'"); return;
	case '\r': snprintf(buf, len, "'\\r'"); return;
	case '\t': snprintf(buf, len, "'\\t'"); return;
	case '\v': snprintf(buf, len, "'\\v'"); return;
	default: break;
	}
	if (c < 0x20 || c == 0x7f)
		snprintf(buf, len, "'\\x%02x'", c);
	else
		snprintf(buf, len, "'%c'", c);
}

/* One token of lexValueSequence (the part of the lexer a value text reaches). */
static struct tok lex_next(struct lexer *l)
{
	struct tok t = { T_EOF, l->pos, 0 };
	int r = at(l, l->pos);

	if (r < 0)
		return t;
	if (is_space(r)) {
		/* SPACE is the first blank; lexSpace then skips the rest unseen. */
		t.type = T_SPACE;
		t.len = 1;
		l->pos++;
		while (is_space(at(l, l->pos)))
			l->pos++;
		return t;
	}
	if (r == '{' && at(l, l->pos + 1) == '{') {
		t.type = T_ERROR;
		snprintf(l->errmsg, sizeof(l->errmsg), "native histogram series values are not supported");
		return t;
	}
	switch (r) {
	case '+': t.type = T_ADD; break;
	case '-': t.type = T_SUB; break;
	case 'x': t.type = T_TIMES; break;
	case '_': t.type = T_BLANK; break;
	default: break;
	}
	if (t.type != T_EOF) {
		t.len = 1;
		l->pos++;
		return t;
	}
	if (is_digit(r) || (r == '.' && is_digit(at(l, l->pos + 1)))) {
		if (!scan_number(l)) {
			t.type = T_ERROR;
			snprintf(l->errmsg, sizeof(l->errmsg), "bad number syntax: \"%.*s\"",
				 (int)(l->pos - t.pos), l->s + t.pos);
			return t;
		}
		t.type = T_NUMBER;
		t.len = l->pos - t.pos;
		return t;
	}
	if (is_alpha(r)) {
		/* lexKeywordOrIdentifier: letters, digits, '_' and ':'. */
		while (is_alnum(at(l, l->pos)) || at(l, l->pos) == ':')
			l->pos++;
		t.len = l->pos - t.pos;
		/* The keywords "inf" and "nan" (any case) are number tokens. */
		if (t.len == 3 && (strncasecmp(l->s + t.pos, "inf", 3) == 0 ||
				   strncasecmp(l->s + t.pos, "nan", 3) == 0))
			t.type = T_NUMBER;
		else
			t.type = T_IDENT;
		return t;
	}
	char q[16];
	quote_rune(l, l->pos, q, sizeof(q));
	t.type = T_ERROR;
	snprintf(l->errmsg, sizeof(l->errmsg), "unexpected character in series sequence: %s", q);
	return t;
}

static void fail_at(struct parser *p, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail_at(struct parser *p, size_t pos, const char *fmt, ...)
{
	va_list ap;
	if (p->failed)
		return;
	p->failed = true;
	if (!p->err)
		return;
	p->err->offset = pos;
	p->err->line = 1;
	size_t line_start = 0;
	for (size_t i = 0; i < pos && i < p->lx.n; i++) {
		if (p->lx.s[i] == '\n') {
			p->err->line++;
			line_start = i + 1;
		}
	}
	p->err->col = (int)(pos - line_start) + 1;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
}

/* Item.desc() of a token, as `unexpected %s in series values` prints it. */
static void tok_desc(const struct parser *p, struct tok t, char *buf, size_t len)
{
	const char *v = p->lx.s + t.pos;
	switch (t.type) {
	case T_EOF: snprintf(buf, len, "end of input"); return;
	case T_ADD: snprintf(buf, len, "<op:+>"); return;
	case T_SUB: snprintf(buf, len, "<op:->"); return;
	case T_IDENT: snprintf(buf, len, "identifier \"%.*s\"", (int)t.len, v); return;
	case T_SPACE:
		/* %q of the one blank: " ", "\t", "\n" or "\r" */
		snprintf(buf, len, "\"%s\"", *v == '\t' ? "\\t" : *v == '\n' ? "\\n" : *v == '\r' ? "\\r" : " ");
		return;
	default:
		/* x, _ and numbers: %q of the text, cut to 10 runes plus "..." when longer */
		if (t.len > 10)
			snprintf(buf, len, "\"%.10s\"...", v);
		else
			snprintf(buf, len, "\"%.*s\"", (int)t.len, v);
		return;
	}
}

static void unexpected(struct parser *p, struct tok t)
{
	char d[64];
	if (t.type == T_ERROR) {
		fail_at(p, t.pos, "%s", p->lx.errmsg);
		return;
	}
	tok_desc(p, t, d, sizeof(d));
	fail_at(p, t.pos, "unexpected %s in series values", d);
}

/* Go's strconv underscoreOK: underscores only between digits (or after a base prefix). */
static bool underscore_ok(const char *s, size_t n)
{
	int saw = '^';
	size_t i = 0;
	if (n >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B' || s[1] == 'o' || s[1] == 'O' ||
				      s[1] == 'x' || s[1] == 'X')) {
		i = 2;
		saw = '0';
	}
	for (; i < n; i++) {
		if (is_digit((unsigned char)s[i])) {
			saw = '0';
			continue;
		}
		if (s[i] == '_') {
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
 * strconv.ParseInt(s, 0, 64) for an unsigned token of digits and
 * underscores: a leading 0 means octal.  Returns false where Go returns an
 * error (syntax or range); the caller then tries ParseFloat as PromQL does.
 */
static bool go_parse_int0(const char *s, size_t n, double *out)
{
	unsigned base = 10;
	size_t i = 0;
	bool underscores = false;
	uint64_t v = 0;

	if (n == 0)
		return false;
	if (s[0] == '0' && n > 1) {
		if (n >= 3 && strchr("bBoOxX", s[1]))
			return false; /* the lexer never produces these */
		base = 8;
		i = 1;
	}
	if (i == n)
		return false;
	for (; i < n; i++) {
		if (s[i] == '_') {
			underscores = true;
			continue;
		}
		if (!is_digit((unsigned char)s[i]) || (unsigned)(s[i] - '0') >= base)
			return false;
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / base)
			return false;
		v = v * base + d;
	}
	if (underscores && !underscore_ok(s, n))
		return false;
	if (v > (uint64_t)INT64_MAX)
		return false;
	*out = (double)(int64_t)v;
	return true;
}

/*
 * strconv.ParseFloat(s, 64) for the texts the series lexer produces
 * (decimal floats with optional underscores, "inf"/"nan" in any case).
 * Returns 0, or -1 with @why = "invalid syntax" / "value out of range".
 */
static int go_parse_float(const char *s, size_t n, double *out, const char **why)
{
	char *buf;
	size_t i = 0, o = 0;
	int rc = -1;
	bool digits = false, underscores = false;

	*why = "invalid syntax";
	if (n == 3 && strncasecmp(s, "inf", 3) == 0) {
		*out = INFINITY;
		return 0;
	}
	if (n == 3 && strncasecmp(s, "nan", 3) == 0) {
		*out = NAN;
		return 0;
	}
	buf = xmalloc(n + 1);
	/* mantissa: digits with at most one '.', underscores allowed */
	for (bool dot = false; i < n; i++) {
		if (s[i] == '_') {
			underscores = true;
			continue;
		}
		if (s[i] == '.') {
			if (dot)
				break;
			dot = true;
			buf[o++] = '.';
			continue;
		}
		if (!is_digit((unsigned char)s[i]))
			break;
		digits = true;
		buf[o++] = s[i];
	}
	if (!digits)
		goto out_free_buf;
	if (i < n && (s[i] == 'e' || s[i] == 'E')) {
		buf[o++] = 'e';
		i++;
		if (i < n && (s[i] == '+' || s[i] == '-'))
			buf[o++] = s[i++];
		if (i >= n || !is_digit((unsigned char)s[i]))
			goto out_free_buf;
		for (; i < n && (is_digit((unsigned char)s[i]) || s[i] == '_'); i++) {
			if (s[i] == '_')
				underscores = true;
			else
				buf[o++] = s[i];
		}
	}
	if (i != n)
		goto out_free_buf;
	if (underscores && !underscore_ok(s, n))
		goto out_free_buf;
	buf[o] = '\0';
	double v = strtod(buf, NULL);
	if (isinf(v)) {
		*why = "value out of range";
		goto out_free_buf;
	}
	*out = v;
	rc = 0;
out_free_buf:
	free(buf);
	return rc;
}

/* parser.number: ParseInt(base 0), else ParseFloat; errors as promtool words them. */
static bool number(struct parser *p, struct tok t, double *out)
{
	const char *s = p->lx.s + t.pos;
	const char *why;
	if (go_parse_int0(s, t.len, out))
		return true;
	if (go_parse_float(s, t.len, out, &why) == 0)
		return true;
	fail_at(p, t.pos, "error parsing number: strconv.ParseFloat: parsing \"%.*s\": %s", (int)t.len, s, why);
	*out = 0;
	return false;
}

/* uint: strconv.ParseUint(s, 10, 64). */
static bool parse_uint(struct parser *p, struct tok t, uint64_t *out)
{
	const char *s = p->lx.s + t.pos;
	const char *why = NULL;
	uint64_t v = 0;

	for (size_t i = 0; i < t.len; i++) {
		if (!is_digit((unsigned char)s[i])) {
			why = "invalid syntax";
			break;
		}
		unsigned d = (unsigned)(s[i] - '0');
		if (!why && v > (UINT64_MAX - d) / 10)
			why = "value out of range";
		if (!why)
			v = v * 10 + d;
	}
	if (t.len == 0)
		why = "invalid syntax";
	if (why) {
		fail_at(p, t.pos, "invalid repetition in series values: strconv.ParseUint: parsing \"%.*s\": %s",
			(int)t.len, s, why);
		return false;
	}
	*out = v;
	return true;
}

static bool same_double(double a, double b)
{
	if (isnan(a) && isnan(b))
		return true;
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/*
 * Append a run of @count samples: the first is (@fk, @first), the others
 * computed as first + step, + step, ... when @arith, else all (@rk, @rest).
 * @count_tok: the repetition count token, for the size errors.
 */
static void add_run(struct parser *p, uint64_t count, enum ps_kind fk, double first, enum ps_kind rk,
		    double rest, bool arith, double step, struct tok count_tok)
{
	struct ps_series *s = p->out;
	struct ps_run r;

	if (count == 0 || p->failed)
		return;
	if (count > (uint64_t)INT64_MAX - s->nsamples) {
		fail_at(p, count_tok.pos, "series values expand to more than %lld samples", (long long)INT64_MAX);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.start = s->nsamples;
	r.count = count;
	r.first_kind = fk;
	r.first = first;
	r.rest_kind = rk;
	r.rest = rest;
	r.off = s->ncomputed;
	if (arith && fk == PS_VALUE) {
		/* promtool: for i in 0..N { append(v); v += step } -- stop storing at a fixpoint */
		double prev = first;
		size_t cap = 0;
		for (uint64_t k = 1; k < count; k++) {
			double next = prev + step;
			if (same_double(next, prev) || isnan(next)) {
				r.rest = next;
				break;
			}
			if (s->ncomputed >= p->max_computed) {
				fail_at(p, count_tok.pos,
					"series values need more than %llu computed samples",
					(unsigned long long)p->max_computed);
				return;
			}
			if (s->ncomputed == cap || cap == 0) {
				cap = s->ncomputed ? s->ncomputed * 2 : 64;
				s->computed = xreallocarray(s->computed, cap, sizeof(double));
			}
			s->computed[s->ncomputed++] = next;
			r.ncomputed++;
			r.rest = next;
			prev = next;
		}
	}
	s->runs = xreallocarray(s->runs, s->nruns + 1, sizeof(*s->runs));
	s->runs[s->nruns++] = r;
	s->nsamples += count;
}

/* One series_item, starting at @t (not SPACE/EOF).  Returns the token after it. */
static struct tok parse_item(struct parser *p, struct tok t)
{
	struct lexer *l = &p->lx;
	struct tok none = { T_EOF, 0, 0 };
	enum ps_kind kind = PS_VALUE;
	double v = 0;
	uint64_t n;

	if (t.type == T_BLANK) {
		struct tok nx = lex_next(l);
		if (nx.type != T_TIMES) {
			add_run(p, 1, PS_MISSING, 0, PS_MISSING, 0, false, 0, t);
			return nx;
		}
		struct tok c = lex_next(l);
		if (c.type != T_NUMBER) {
			unexpected(p, c);
			return c;
		}
		if (parse_uint(p, c, &n))
			add_run(p, n, PS_MISSING, 0, PS_MISSING, 0, false, 0, c);
		return lex_next(l);
	}
	/* series_value */
	switch (t.type) {
	case T_IDENT:
		if (t.len != 5 || memcmp(l->s + t.pos, "stale", 5) != 0) {
			fail_at(p, t.pos, "unexpected identifier \"%.*s\" in series values, expected number or \"stale\"",
				(int)t.len, l->s + t.pos);
			return none;
		}
		kind = PS_STALE;
		v = NAN;
		break;
	case T_NUMBER:
		if (!number(p, t, &v))
			return none;
		break;
	case T_ADD:
	case T_SUB: {
		struct tok num = lex_next(l);
		if (num.type != T_NUMBER) {
			unexpected(p, num);
			return num;
		}
		if (!number(p, num, &v))
			return none;
		if (t.type == T_SUB)
			v = -v;
		break;
	}
	default:
		unexpected(p, t);
		return t;
	}

	struct tok nx = lex_next(l);
	if (nx.type == T_TIMES) {
		/* axN: N+1 copies of a, no addition */
		struct tok c = lex_next(l);
		if (c.type != T_NUMBER) {
			unexpected(p, c);
			return c;
		}
		if (parse_uint(p, c, &n)) {
			if (n == UINT64_MAX)
				fail_at(p, c.pos, "series values expand to more than %lld samples",
					(long long)INT64_MAX);
			else
				add_run(p, n + 1, kind, v, kind, v, false, 0, c);
		}
		return lex_next(l);
	}
	if (nx.type == T_ADD || nx.type == T_SUB) {
		double step;
		struct tok num = lex_next(l);
		if (num.type != T_NUMBER) {
			unexpected(p, num);
			return num;
		}
		if (!number(p, num, &step))
			return none;
		if (nx.type == T_SUB)
			step = -step;
		struct tok x = lex_next(l);
		if (x.type != T_TIMES) {
			unexpected(p, x);
			return x;
		}
		struct tok c = lex_next(l);
		if (c.type != T_NUMBER) {
			unexpected(p, c);
			return c;
		}
		if (parse_uint(p, c, &n)) {
			if (n == UINT64_MAX)
				fail_at(p, c.pos, "series values expand to more than %lld samples",
					(long long)INT64_MAX);
			else if (kind == PS_STALE)
				/* the marker, then NaN + step = NaN */
				add_run(p, n + 1, PS_STALE, NAN, PS_VALUE, NAN, false, 0, c);
			else
				add_run(p, n + 1, PS_VALUE, v, PS_VALUE, v, true, step, c);
		}
		return lex_next(l);
	}
	add_run(p, 1, kind, v, kind, v, false, 0, t);
	return nx;
}

int ps_parse(const char *values, struct ps_series *out, struct ps_error *err)
{
	return ps_parse_max(values, lim_default(LIM_SERIES_SAMPLES), out, err);
}

int ps_parse_max(const char *values, uint64_t max_computed, struct ps_series *out,
		 struct ps_error *err)
{
	struct parser p;

	assert(values && out);
	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	p.max_computed = max_computed;
	p.lx.s = values;
	p.lx.n = strlen(values);
	p.out = out;
	p.err = err;
	if (err)
		memset(err, 0, sizeof(*err));

	/* promtool writes "<series> <values>": the values follow a blank. */
	bool need_space = false;
	struct tok t = lex_next(&p.lx);
	while (!p.failed) {
		if (t.type == T_EOF)
			break;
		if (t.type == T_ERROR) {
			unexpected(&p, t);
			break;
		}
		if (t.type == T_SPACE) {
			need_space = false;
			t = lex_next(&p.lx);
			continue;
		}
		if (need_space) {
			unexpected(&p, t);
			break;
		}
		t = parse_item(&p, t);
		need_space = true;
	}
	if (p.failed) {
		ps_series_release(out);
		return PS_ESYNTAX;
	}
	return PS_OK;
}

void ps_series_release(struct ps_series *s)
{
	if (!s)
		return;
	free(s->runs);
	free(s->computed);
	memset(s, 0, sizeof(*s));
}

/* Index of the run holding sample @i (i < nsamples). */
static size_t find_run(const struct ps_series *s, uint64_t i)
{
	size_t lo = 0, hi = s->nruns;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->runs[mid].start <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static enum ps_kind run_at(const struct ps_series *s, const struct ps_run *r, uint64_t k, double *value)
{
	enum ps_kind kind;
	double v;
	if (k == 0) {
		kind = r->first_kind;
		v = r->first;
	} else if (k <= r->ncomputed) {
		kind = PS_VALUE;
		v = s->computed[r->off + k - 1];
	} else {
		kind = r->rest_kind;
		v = r->rest;
	}
	if (kind == PS_VALUE && value)
		*value = v;
	return kind;
}

enum ps_kind ps_at(const struct ps_series *s, uint64_t i, double *value)
{
	if (!s || i >= s->nsamples)
		return PS_MISSING;
	const struct ps_run *r = &s->runs[find_run(s, i)];
	return run_at(s, r, i - r->start, value);
}

int ps_sample_lookback(const struct ps_series *s, int64_t interval_ms, int64_t t_ms, int64_t lookback_ms,
		       double *value)
{
	assert(interval_ms > 0 && lookback_ms > 0);
	if (!s || s->nsamples == 0 || t_ms < 0)
		return 0;
	uint64_t j = (uint64_t)(t_ms / interval_ms);
	if (j >= s->nsamples)
		j = s->nsamples - 1;
	size_t ri = find_run(s, j);
	for (;;) {
		const struct ps_run *r = &s->runs[ri];
		/* sample j is at j * interval <= t; in the window iff t - that < lookback */
		if (t_ms - (int64_t)j * interval_ms >= lookback_ms)
			return 0;
		if (r->first_kind != PS_MISSING) {
			double v = 0;
			if (run_at(s, r, j - r->start, &v) != PS_VALUE)
				return 0; /* a staleness marker hides everything older */
			if (value)
				*value = v;
			return 1;
		}
		if (ri == 0)
			return 0;
		ri--;
		j = s->runs[ri].start + s->runs[ri].count - 1;
	}
}

int ps_sample(const struct ps_series *s, int64_t interval_ms, int64_t t_ms, double *value)
{
	return ps_sample_lookback(s, interval_ms, t_ms, PS_LOOKBACK_MS, value);
}
