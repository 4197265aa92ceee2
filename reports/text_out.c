/*
 * Writing the terminal report into columns: display width of UTF-8 text,
 * cells padded or cut with "…", text wrapped under a "│ " rule, control
 * characters made harmless, phase colours, times.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/text_int.h"
#include "sim/base/gotime.h"
#include "sim/base/quote.h"

void txt_emit(struct out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	if (vfprintf(o->f, fmt, ap) < 0)
		o->err = -1;
	va_end(ap);
}

size_t txt_u8_width(const char *s, size_t bytes)
{
	size_t w = 0;

	for (size_t i = 0; i < bytes && s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80)
			w++;
	return w;
}

size_t txt_u8_prefix(const char *s, size_t cols)
{
	size_t i = 0, w = 0;

	while (s[i]) {
		size_t j = i + 1;

		while (((unsigned char)s[j] & 0xC0) == 0x80)
			j++;
		if (w + 1 > cols)
			break;
		w++;
		i = j;
	}
	return i;
}

void txt_cell(struct out *o, const char *s, size_t cols)
{
	size_t w = txt_u8_width(s, strlen(s));

	if (w <= cols) {
		txt_emit(o, "%s%*s", s, (int)(cols - w), "");
		return;
	}
	txt_emit(o, "%.*s…", (int)txt_u8_prefix(s, cols - 1), s);
}

/* Byte offset where the last @cols columns of @s start. */
static size_t u8_suffix(const char *s, size_t cols)
{
	size_t len = strlen(s), i = len, w = 0;

	while (i > 0 && w < cols) {
		i--;
		while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
			i--;
		w++;
	}
	return i;
}

void txt_cell_end(struct out *o, const char *s, size_t cols)
{
	size_t w = txt_u8_width(s, strlen(s)), kind = strcspn(s, " "), pad;
	const char *rest, *slash;

	if (w <= cols) {
		txt_cell(o, s, cols);
		return;
	}
	/* "Kind " kept when at least 12 columns remain for the end of the name. */
	if (s[kind] == ' ' && kind + 1 + 12 <= cols) {
		size_t room = cols - kind - 1; /* for "…" and the end */

		rest = s + kind + 1;
		slash = strrchr(rest, '/');
		if (slash && txt_u8_width(slash, strlen(slash)) + 1 <= room) {
			pad = room - 1 - txt_u8_width(slash, strlen(slash));
			txt_emit(o, "%.*s…%s%*s", (int)(kind + 1), s, slash, (int)pad, "");
			return;
		}
		txt_emit(o, "%.*s…%s", (int)(kind + 1), s, rest + u8_suffix(rest, room - 1));
		return;
	}
	txt_emit(o, "…%s", s + u8_suffix(s, cols - 1));
}

void txt_wrapped(struct out *o, const char *text, size_t indent, const char *tone)
{
	size_t avail = o->width > indent + 2 ? o->width - indent - 2 : 20;
	const char *p = text;

	while (*p) {
		size_t take = txt_u8_prefix(p, avail);
		size_t nl = strcspn(p, "\n");

		if (nl < take)
			take = nl;
		else if (p[take] && p[take] != '\n') {
			/* Break at the last space that fits, if any. */
			size_t k = take;

			while (k > 0 && p[k] != ' ')
				k--;
			if (k > 0)
				take = k;
		}
		txt_emit(o, "%*s%s│%s %s%.*s%s\n", (int)indent, "", col(o, C_DIM), col(o, C_OFF),
			 col(o, tone), (int)take, p, col(o, C_OFF));
		p += take;
		while (*p == ' ' || *p == '\n')
			p++;
	}
}

char *txt_clean(const char *s, bool keep_nl)
{
	return qt_text_keep(s, keep_nl ? "\n" : "");
}

const char *txt_phase_tone(const char *phase, const char *reason)
{
	const char *s = phase ? phase : reason;

	if (!s)
		return "";
	if (!strcmp(s, "Failed") || !strcmp(s, "Halted") || !strcmp(s, "ValidationFailed"))
		return C_RED;
	if (!strcmp(s, "Applied") || !strcmp(s, "Completed") || !strcmp(s, "Ready"))
		return C_GREEN;
	return C_YELLOW;
}

void txt_dur_or_dash(int64_t ms, char *buf, size_t len)
{
	if (ms < 0)
		snprintf(buf, len, "—");
	else
		gt_format_duration(ms, buf, len);
}
