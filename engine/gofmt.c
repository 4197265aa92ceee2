/*
 * Go's text formats: see engine/gofmt.h.  The texts are built in a growing
 * string (engine/strbuf.h: quotes) or backwards in a fixed buffer
 * (durations), as Go's own code builds them.
 */
#include "engine/gofmt.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* ---- UTF-8 ------------------------------------------------------------------- */

/*
 * decode_utf8() - one rune from @s (NUL-terminated), as Go's utf8.DecodeRune:
 * returns its length and stores the rune, or returns 1 and stores -1 for an
 * invalid byte (bad lead, bad continuation, overlong, surrogate, > U+10FFFF).
 */
static size_t decode_utf8(const unsigned char *s, int32_t *r)
{
	unsigned c = s[0];
	size_t n;
	uint32_t v, min;

	if (c < 0x80) {
		*r = (int32_t)c;
		return 1;
	}
	if (c >= 0xC2 && c <= 0xDF) {
		n = 2, v = c & 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		n = 3, v = c & 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		n = 4, v = c & 0x07, min = 0x10000;
	} else {
		*r = -1;
		return 1;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80) { /* also stops at the NUL */
			*r = -1;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		*r = -1;
		return 1;
	}
	*r = (int32_t)v;
	return n;
}

/* ---- durations ----------------------------------------------------------------- */

/* fmtFrac: @v's last @prec digits as a fraction, trailing zeros (and the dot) left out, written backwards at *w; returns v / 10^prec. */
static uint64_t fmt_frac(char *buf, size_t *w, uint64_t v, int prec)
{
	bool print = false;

	for (int i = 0; i < prec; i++) {
		unsigned digit = (unsigned)(v % 10);

		print = print || digit != 0;
		if (print)
			buf[--*w] = (char)('0' + digit);
		v /= 10;
	}
	if (print)
		buf[--*w] = '.';
	return v;
}

/* fmtInt: @v in decimal, written backwards at *w. */
static void fmt_int(char *buf, size_t *w, uint64_t v)
{
	if (v == 0) {
		buf[--*w] = '0';
		return;
	}
	for (; v > 0; v /= 10)
		buf[--*w] = (char)('0' + v % 10);
}

/* "[-]HhMmS[.fff]s" of @secs seconds and @nanos (< 1e9) ns backwards at *w (Duration.String from a second on). */
static void fmt_long(char *buf, size_t *w, uint64_t secs, uint64_t nanos)
{
	buf[--*w] = 's';
	fmt_frac(buf, w, nanos, 9);
	fmt_int(buf, w, secs % 60);
	secs /= 60;
	if (secs > 0) {
		buf[--*w] = 'm';
		fmt_int(buf, w, secs % 60);
		secs /= 60;
		if (secs > 0) {
			buf[--*w] = 'h';
			fmt_int(buf, w, secs);
		}
	}
}

static const char *copy_out(const char *buf, size_t w, size_t len, char out[GOFMT_DURATION_LEN])
{
	memcpy(out, buf + w, len - w);
	out[len - w] = '\0';
	return out;
}

const char *gofmt_uint(uint64_t v, char out[GOFMT_UINT_LEN])
{
	size_t w = GOFMT_UINT_LEN - 1;

	out[w] = '\0';
	fmt_int(out, &w, v);
	return out + w;
}

const char *gofmt_duration(int64_t ns, char out[GOFMT_DURATION_LEN])
{
	char buf[GOFMT_DURATION_LEN];
	size_t w = sizeof(buf);
	uint64_t u = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;

	if (u == 0)
		return strcpy(out, "0s");
	if (u < UINT64_C(1000000000)) {
		int prec;

		buf[--w] = 's';
		if (u < 1000) {
			prec = 0;
			buf[--w] = 'n';
		} else if (u < 1000000) {
			prec = 3;
			buf[--w] = '\xb5'; /* U+00B5 MICRO SIGN */
			buf[--w] = '\xc2';
		} else {
			prec = 6;
			buf[--w] = 'm';
		}
		fmt_int(buf, &w, fmt_frac(buf, &w, u, prec));
	} else {
		fmt_long(buf, &w, u / UINT64_C(1000000000), u % UINT64_C(1000000000));
	}
	if (ns < 0)
		buf[--w] = '-';
	return copy_out(buf, w, sizeof(buf), out);
}

const char *gofmt_duration_ms(int64_t ms, char out[GOFMT_DURATION_LEN])
{
	char buf[GOFMT_DURATION_LEN];
	size_t w = sizeof(buf);
	uint64_t u = ms < 0 ? (uint64_t)0 - (uint64_t)ms : (uint64_t)ms;

	if (u < 1000) /* whole ms: exact in ns, "500ms" */
		return gofmt_duration(ms * 1000000, out);
	fmt_long(buf, &w, u / 1000, u % 1000 * 1000000);
	if (ms < 0)
		buf[--w] = '-';
	return copy_out(buf, w, sizeof(buf), out);
}

/* ---- floats ---------------------------------------------------------------------- */

/*
 * The shortest decimal digits that read back as @v at @bits (32: as a
 * float, 64: as a double), as strconv's shortest mode finds them: digits
 * in @dig (NUL-terminated, no trailing zeros), value 0.d1d2... × 10^*dp.
 * @v is finite and greater than zero.
 */
static void shortest_digits(double v, int bits, char dig[24], int *dp)
{
	char buf[40];
	const char *p;
	size_t nd = 0;

	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*e", prec - 1, v);
		bool same = bits == 32 ? strtof(buf, NULL) == (float)v : strtod(buf, NULL) == v;
		if (same || prec == 17)
			break;
	}
	/* buf: d[.ddd]e±xx */
	for (p = buf; *p != 'e'; p++)
		if (*p != '.')
			dig[nd++] = *p;
	while (nd > 1 && dig[nd - 1] == '0')
		nd--;
	dig[nd] = '\0';
	*dp = atoi(p + 1) + 1;
}

const char *gofmt_float(double v, char fmt, int bits, char out[GOFMT_FLOAT_LEN])
{
	char dig[24];
	int dp, nd, prec;
	size_t w = 0;

	if (v != v)
		return strcpy(out, "NaN");
	if (v > 1.7976931348623157e308 || v < -1.7976931348623157e308)
		return strcpy(out, v > 0 ? "+Inf" : "-Inf");
	if (bits == 32)
		v = (double)(float)v;
	if (bits == 32 && (v > 3.4028234663852886e38 || v < -3.4028234663852886e38))
		return strcpy(out, v > 0 ? "+Inf" : "-Inf");
	if (v < 0 || (v == 0 && 1 / v < 0))
		out[w++] = '-';
	if (v == 0) {
		strcpy(out + w, fmt == 'e' ? "0e+00" : "0");
		return out;
	}
	shortest_digits(v < 0 ? -v : v, bits, dig, &dp);
	nd = (int)strlen(dig);
	if (fmt == 'g') {
		int exp = dp - 1;

		fmt = exp < -4 || exp >= 6 ? 'e' : 'f';
	}
	if (fmt == 'e') {
		int exp = dp - 1;

		out[w++] = dig[0];
		if (nd > 1) {
			out[w++] = '.';
			memcpy(out + w, dig + 1, (size_t)nd - 1);
			w += (size_t)nd - 1;
		}
		snprintf(out + w, GOFMT_FLOAT_LEN - w, "e%c%02d", exp < 0 ? '-' : '+',
			 exp < 0 ? -exp : exp);
		return out;
	}
	/* 'f' with nd - dp fraction digits (none when the value is whole) */
	if (dp > 0) {
		for (int i = 0; i < dp; i++)
			out[w++] = i < nd ? dig[i] : '0';
	} else {
		out[w++] = '0';
	}
	prec = nd - dp > 0 ? nd - dp : 0;
	if (prec > 0) {
		out[w++] = '.';
		for (int i = 0; i < prec; i++) {
			int k = dp + i;

			out[w++] = k >= 0 && k < nd ? dig[k] : '0';
		}
	}
	out[w] = '\0';
	return out;
}

const char *gofmt_json_float(double v, char out[GOFMT_FLOAT_LEN])
{
	double a = v < 0 ? -v : v;
	char fmt = a != 0 && (a < 1e-6 || a >= 1e21) ? 'e' : 'f';
	size_t n;

	gofmt_float(v, fmt, 64, out);
	n = strlen(out);
	if (fmt == 'e' && n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
		out[n - 2] = out[n - 1];
		out[n - 1] = '\0';
	}
	return out;
}

/* ---- quotes ---------------------------------------------------------------------- */

/*
 * go_isprint_nonascii() - unicode.IsPrint for a rune >= 0x80, approximated:
 * false for C1 controls, the non-ASCII spaces (Zs), line/paragraph
 * separators, the common format characters (Cf), private use and
 * non-characters; true otherwise (unassigned code points included).
 */
static bool go_isprint_nonascii(int32_t r)
{
	if (r <= 0xA0 || r == 0xAD)
		return false;
	if (r == 0x061C || r == 0x180E || r == 0x1680 || r == 0x3000 || r == 0xFEFF)
		return false;
	if ((r >= 0x2000 && r <= 0x200F) || (r >= 0x2028 && r <= 0x202F) ||
	    (r >= 0x205F && r <= 0x206F))
		return false;
	if (r >= 0xE000 && r <= 0xF8FF)
		return false;
	if ((r >= 0xFFF0 && r <= 0xFFFB) || (r & 0xFFFE) == 0xFFFE || (r >= 0xFDD0 && r <= 0xFDEF))
		return false;
	if ((r >= 0xE0000 && r <= 0xE0FFF) || r >= 0xF0000)
		return false;
	return true;
}

char *gofmt_quote(const char *str)
{
	struct strbuf b = { 0 };
	const unsigned char *s = (const unsigned char *)str;
	char tmp[16];

	strbuf_addc(&b, '"');
	while (*s) {
		int32_t r;
		size_t n = decode_utf8(s, &r);

		if (r < 0) {
			snprintf(tmp, sizeof tmp, "\\x%02x", s[0]);
			strbuf_add(&b, tmp);
		} else if (r == '"' || r == '\\') {
			strbuf_addc(&b, '\\');
			strbuf_addc(&b, (char)r);
		} else if (r >= 0x20 && r < 0x7F) {
			strbuf_addc(&b, (char)r);
		} else if (r >= 0x80 && go_isprint_nonascii(r)) {
			strbuf_addn(&b, (const char *)s, n);
		} else {
			switch (r) {
			case '\a': strbuf_add(&b, "\\a"); break;
			case '\b': strbuf_add(&b, "\\b"); break;
			case '\f': strbuf_add(&b, "\\f"); break;
			case '\n': strbuf_add(&b, "\\n"); break;
			case '\r': strbuf_add(&b, "\\r"); break;
			case '\t': strbuf_add(&b, "\\t"); break;
			case '\v': strbuf_add(&b, "\\v"); break;
			default:
				if (r < 0x80)
					snprintf(tmp, sizeof tmp, "\\x%02x", (unsigned)r);
				else if (r < 0x10000)
					snprintf(tmp, sizeof tmp, "\\u%04x", (unsigned)r);
				else
					snprintf(tmp, sizeof tmp, "\\U%08x", (unsigned)r);
				strbuf_add(&b, tmp);
			}
		}
		s += n;
	}
	strbuf_addc(&b, '"');
	return strbuf_take(&b);
}

char *gofmt_time_quote(const char *s)
{
	static const char hex[] = "0123456789abcdef";
	struct strbuf b = { 0 };

	strbuf_addc(&b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < ' ' || *p >= 0x80) {
			char esc[4] = { '\\', 'x', hex[*p >> 4], hex[*p & 0xf] };

			strbuf_addn(&b, esc, 4);
		} else {
			if (*p == '"' || *p == '\\')
				strbuf_addc(&b, '\\');
			strbuf_addc(&b, (char)*p);
		}
	}
	strbuf_addc(&b, '"');
	return strbuf_take(&b);
}

char *gofmt_json_string(const char *str)
{
	static const char hex[] = "0123456789abcdef";
	struct strbuf b = { 0 };
	const unsigned char *s = (const unsigned char *)str;

	strbuf_addc(&b, '"');
	while (*s) {
		int32_t r;
		size_t n = decode_utf8(s, &r);

		if (r < 0) {
			strbuf_add(&b, "\\ufffd");
		} else if (r == '"' || r == '\\') {
			strbuf_addc(&b, '\\');
			strbuf_addc(&b, (char)r);
		} else if (r == '\b' || r == '\f' || r == '\n' || r == '\r' || r == '\t') {
			strbuf_addc(&b, '\\');
			strbuf_addc(&b, r == '\b' ? 'b' : r == '\f' ? 'f' : r == '\n' ? 'n' : r == '\r' ? 'r' : 't');
		} else if (r < 0x20 || r == '<' || r == '>' || r == '&' || r == 0x2028 || r == 0x2029) {
			char esc[6] = { '\\', 'u', hex[(r >> 12) & 0xf], hex[(r >> 8) & 0xf],
					hex[(r >> 4) & 0xf], hex[r & 0xf] };

			strbuf_addn(&b, esc, 6);
		} else {
			strbuf_addn(&b, (const char *)s, n);
		}
		s += n;
	}
	strbuf_addc(&b, '"');
	return strbuf_take(&b);
}
