/*
 * Strict JSON check of the *.json inputs (sim/load/jsonstrict.h): a scanner
 * of RFC 8259's grammar with an explicit stack of open containers.
 */

#include "sim/load/jsonstrict.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

struct scan {
	const unsigned char *s;
	size_t len, pos;
	struct val_mark m;      /* of s[pos] */
	struct val_mark comma;  /* of the last ',' read */
	bool after_comma;       /* the last token was a ',' */
	char *stack;            /* '{' or '[' of each open container, owned */
	size_t depth, cap;
	struct val_mark *at;
	char *msg;
	size_t msglen;
};

static bool at_end(const struct scan *c)
{
	return c->pos >= c->len;
}

/* Steps over one byte; the column counts characters (it moves past a UTF-8 sequence's last byte). */
static void step(struct scan *c)
{
	unsigned char b = c->s[c->pos++];

	if (b == '\n') {
		c->m.line++;
		c->m.col = 1;
	} else if (c->pos >= c->len || (c->s[c->pos] & 0xC0) != 0x80) {
		c->m.col++;
	}
}

static void skip_ws(struct scan *c)
{
	while (!at_end(c) && strchr(" \t\r\n", c->s[c->pos]) && c->s[c->pos])
		step(c);
}

static int fail_at(struct scan *c, struct val_mark m, const char *what)
{
	*c->at = m;
	snprintf(c->msg, c->msglen, "%s", what);
	return -1;
}

/* What stands at the current byte, for the messages. */
static int fail_here(struct scan *c, const char *expected)
{
	char buf[192];

	if (at_end(c)) {
		snprintf(buf, sizeof(buf), "the file ends where JSON expects %s", expected);
		return fail_at(c, c->m, buf);
	}
	if (c->s[c->pos] == '#' || (c->s[c->pos] == '/' && c->pos + 1 < c->len &&
				    (c->s[c->pos + 1] == '/' || c->s[c->pos + 1] == '*')))
		snprintf(buf, sizeof(buf), "a comment, where JSON expects %s (JSON has no comments)",
			 expected);
	else if (c->s[c->pos] == '\'')
		snprintf(buf, sizeof(buf), "a single quote, where JSON expects %s (JSON strings take "
			 "double quotes)", expected);
	else if (c->s[c->pos] >= 0x21 && c->s[c->pos] < 0x7F)
		snprintf(buf, sizeof(buf), "unexpected '%c', where JSON expects %s", c->s[c->pos],
			 expected);
	else
		snprintf(buf, sizeof(buf), "unexpected byte 0x%02x, where JSON expects %s", c->s[c->pos],
			 expected);
	return fail_at(c, c->m, buf);
}

/* A ',' right before a closing bracket: reported at the comma. */
static int trailing_comma(struct scan *c)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "a comma before '%c': JSON takes no trailing comma (remove it)",
		 c->s[c->pos]);
	return fail_at(c, c->comma, buf);
}

static int string(struct scan *c)
{
	step(c); /* the opening quote */
	for (;;) {
		unsigned char b;

		if (at_end(c))
			return fail_here(c, "the closing '\"' of a string");
		b = c->s[c->pos];
		if (b == '"') {
			step(c);
			return 0;
		}
		if (b < 0x20)
			return fail_at(c, c->m, "a control character inside a string: JSON writes it "
						"escaped (\\n, \\t, \\u00XX)");
		if (b != '\\') {
			step(c);
			continue;
		}
		step(c);
		if (at_end(c))
			return fail_here(c, "an escape after '\\'");
		b = c->s[c->pos];
		if (b == 'u') {
			step(c);
			for (int i = 0; i < 4; i++) {
				if (at_end(c) || !strchr("0123456789abcdefABCDEF", c->s[c->pos]) ||
				    !c->s[c->pos])
					return fail_here(c, "four hex digits after \\u");
				step(c);
			}
			continue;
		}
		if (!strchr("\"\\/bfnrt", b) || !b)
			return fail_at(c, c->m, "an escape JSON does not have: it takes \\\" \\\\ \\/ "
						"\\b \\f \\n \\r \\t and \\uXXXX");
		step(c);
	}
}

static bool is_digit(const struct scan *c)
{
	return !at_end(c) && c->s[c->pos] >= '0' && c->s[c->pos] <= '9';
}

static int digits(struct scan *c, const char *what)
{
	if (!is_digit(c))
		return fail_here(c, what);
	while (is_digit(c))
		step(c);
	return 0;
}

static int number(struct scan *c)
{
	if (c->s[c->pos] == '-')
		step(c);
	if (!is_digit(c))
		return fail_here(c, "a digit after '-'");
	if (c->s[c->pos] == '0') {
		step(c);
		if (is_digit(c))
			return fail_at(c, c->m, "a digit after a leading 0: JSON numbers have no "
						"leading zeros");
	} else {
		digits(c, "a digit");
	}
	if (!at_end(c) && c->s[c->pos] == '.') {
		step(c);
		if (digits(c, "a digit after the decimal point") != 0)
			return -1;
	}
	if (!at_end(c) && (c->s[c->pos] == 'e' || c->s[c->pos] == 'E')) {
		step(c);
		if (!at_end(c) && (c->s[c->pos] == '+' || c->s[c->pos] == '-'))
			step(c);
		if (digits(c, "a digit of the exponent") != 0)
			return -1;
	}
	return 0;
}

static int literal(struct scan *c)
{
	static const char *const words[] = { "true", "false", "null" };

	for (size_t i = 0; i < 3; i++) {
		size_t n = strlen(words[i]);

		if (c->len - c->pos >= n && memcmp(c->s + c->pos, words[i], n) == 0) {
			for (size_t k = 0; k < n; k++)
				step(c);
			return 0;
		}
	}
	return fail_here(c, "a value (an object, array, string in double quotes, number, true, "
			    "false or null)");
}

static void push(struct scan *c, char open)
{
	if (c->depth == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		c->stack = xreallocarray(c->stack, c->cap, 1);
	}
	c->stack[c->depth++] = open;
}

/* The grammar's three places: before a value, before an object's key, after a value. */
enum place { VALUE, KEY, AFTER };

static int scan_all(struct scan *c)
{
	enum place p = VALUE;

	for (;;) {
		unsigned char b;

		skip_ws(c);
		if (p == AFTER && c->depth == 0) {
			if (at_end(c))
				return 0;
			p = VALUE; /* the next value of the stream */
		}
		if (at_end(c) && p == VALUE && c->depth == 0)
			return 0;
		b = at_end(c) ? 0 : c->s[c->pos];
		switch (p) {
		case VALUE:
			if (c->after_comma && (b == ']' || b == '}'))
				return trailing_comma(c);
			c->after_comma = false;
			if (b == '{' || b == '[') {
				push(c, (char)b);
				step(c);
				skip_ws(c);
				if (!at_end(c) && c->s[c->pos] == (b == '{' ? '}' : ']')) {
					c->depth--;
					step(c);
					p = AFTER;
				} else {
					p = b == '{' ? KEY : VALUE;
				}
				continue;
			}
			if (at_end(c))
				return fail_here(c, "a value");
			if (b == '"') {
				if (string(c) != 0)
					return -1;
			} else if (b == '-' || (b >= '0' && b <= '9')) {
				if (number(c) != 0)
					return -1;
			} else if (literal(c) != 0) {
				return -1;
			}
			p = AFTER;
			continue;
		case KEY:
			if (c->after_comma && b == '}')
				return trailing_comma(c);
			c->after_comma = false;
			if (b != '"')
				return fail_here(c, "a key in double quotes");
			if (string(c) != 0)
				return -1;
			skip_ws(c);
			if (at_end(c) || c->s[c->pos] != ':')
				return fail_here(c, "':' after a key");
			step(c);
			p = VALUE;
			continue;
		case AFTER: {
			char open = c->stack[c->depth - 1];
			char close = open == '{' ? '}' : ']';

			if (b == ',') {
				c->comma = c->m;
				c->after_comma = true;
				step(c);
				p = open == '{' ? KEY : VALUE;
				continue;
			}
			if (b == (unsigned char)close) {
				c->depth--;
				step(c);
				continue;
			}
			return fail_here(c, open == '{' ? "',' or '}'" : "',' or ']'");
		}
		}
	}
}

int js_strict_check(const char *text, size_t len, struct val_mark *at, char *msg, size_t msglen)
{
	struct scan c = { .s = (const unsigned char *)text, .len = len, .m = { 1, 1 },
			  .at = at, .msg = msg, .msglen = msglen };
	int rc;

	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
		c.pos = 3;
	rc = scan_all(&c);
	free(c.stack);
	return rc;
}
