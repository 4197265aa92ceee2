#include "sim/base/diag.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/quote.h"
#include "sim/base/limits.h"

void diag_init(struct diag *d)
{
	memset(d, 0, sizeof(*d));
	d->max_shown = (size_t)lim_default(LIM_ERRORS);
}

void diag_set_max(struct diag *d, size_t n)
{
	d->max_shown = n ? n : 1;
}

void diag_release(struct diag *d)
{
	size_t max;

	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->items[i].file);
		free(d->items[i].msg);
	}
	free(d->items);
	/* Empty again and usable as it was: the bound stays. */
	max = d->max_shown;
	memset(d, 0, sizeof(*d));
	d->max_shown = max;
}

/* add() - diag_vadd(), or with @always an error kept past the bound (diag_vfatal()). */
static void add(struct diag *d, enum diag_sev sev, const char *file, struct val_mark mark,
		bool always, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

static void add(struct diag *d, enum diag_sev sev, const char *file, struct val_mark mark,
		bool always, const char *fmt, va_list ap)
{
	struct diag_item *it;
	va_list ap2;
	int len;

	if (sev == DIAG_ERROR)
		d->nerrors++;
	else if (sev == DIAG_WARNING)
		d->nwarnings++;
	if (sev != DIAG_NOTE) {
		/* A zeroed struct (not through diag_init()) has the default bound. */
		size_t max = d->max_shown ? d->max_shown : (size_t)lim_default(LIM_ERRORS);

		d->hiding = !always && d->nshown >= max;
		if (d->hiding) {
			if (sev == DIAG_ERROR)
				d->nhidden_errors++;
			else
				d->nhidden_warnings++;
			return;
		}
		d->nshown++;
	} else if (d->hiding) {
		return;
	}
	if (d->n == d->cap) {
		d->cap = d->cap ? d->cap * 2 : 8;
		d->items = xreallocarray(d->items, d->cap, sizeof(*d->items));
	}
	it = &d->items[d->n++];
	it->sev = sev;
	it->alone = false;
	it->file = xstrdup(file);
	it->mark = mark;
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (len < 0)
		len = 0;
	it->msg = xmalloc((size_t)len + 1);
	vsnprintf(it->msg, (size_t)len + 1, fmt, ap);
}

void diag_vadd(struct diag *d, enum diag_sev sev, const char *file, struct val_mark mark,
	       const char *fmt, va_list ap)
{
	add(d, sev, file, mark, false, fmt, ap);
}

void diag_vfatal(struct diag *d, const char *file, struct val_mark mark, const char *fmt,
		 va_list ap)
{
	add(d, DIAG_ERROR, file, mark, true, fmt, ap);
}

void diag_fatal(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add(d, DIAG_ERROR, file, mark, true, fmt, ap);
	va_end(ap);
}

void diag_add(struct diag *d, enum diag_sev sev, const char *file, struct val_mark mark,
	      const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, sev, file, mark, fmt, ap);
	va_end(ap);
}

void diag_error(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, file, mark, fmt, ap);
	va_end(ap);
}

void diag_warning(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_WARNING, file, mark, fmt, ap);
	va_end(ap);
}

void diag_note(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(d, DIAG_NOTE, file, mark, fmt, ap);
	va_end(ap);
}

void diag_note_alone(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
{
	bool hiding = d->hiding;
	size_t n = d->n;
	va_list ap;

	/* no error's note: kept whether the error before it was or not */
	d->hiding = false;
	va_start(ap, fmt);
	diag_vadd(d, DIAG_NOTE, file, mark, fmt, ap);
	va_end(ap);
	d->hiding = hiding;
	if (d->n > n)
		d->items[d->n - 1].alone = true;
}

bool diag_has_errors(const struct diag *d)
{
	return d->nerrors > 0;
}

static const char *sev_word(enum diag_sev s)
{
	switch (s) {
	case DIAG_ERROR:
		return "error";
	case DIAG_WARNING:
		return "warning";
	case DIAG_NOTE:
		return "note";
	}
	return "error";
}

static const char *sev_color(enum diag_sev s)
{
	switch (s) {
	case DIAG_ERROR:
		return "\033[1;31m";
	case DIAG_WARNING:
		return "\033[1;35m";
	case DIAG_NOTE:
		return "\033[1;36m";
	}
	return "";
}

static char *format_item(const struct diag_item *it, bool color)
{
	char where[64] = "";
	const char *on = color ? sev_color(it->sev) : "";
	const char *off = color ? "\033[0m" : "";

	if (it->mark.line && it->mark.col)
		snprintf(where, sizeof(where), "%u:%u:", it->mark.line, it->mark.col);
	else if (it->mark.line)
		snprintf(where, sizeof(where), "%u:", it->mark.line);
	/* The name and the message may hold input text: never raw control characters. */
	char *file = qt_text(it->file), *msg = qt_text(it->msg), *line;

	if (file)
		line = xasprintf("%s:%s %s%s:%s %s", file, where, on, sev_word(it->sev), off, msg);
	else
		line = xasprintf("magos-sim: %s%s:%s %s", on, sev_word(it->sev), off, msg);
	free(file);
	free(msg);
	return line;
}

char *diag_format_item(const struct diag *d, size_t i)
{
	return format_item(&d->items[i], false);
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

char *diag_hidden_text(const struct diag *d)
{
	const char *hint = lim_hint(LIM_ERRORS);

	if (d->nhidden_errors && d->nhidden_warnings)
		return xasprintf("and %zu more %s and %zu more %s not shown %s", d->nhidden_errors,
				 plural(d->nhidden_errors, "error", "errors"), d->nhidden_warnings,
				 plural(d->nhidden_warnings, "warning", "warnings"), hint);
	if (d->nhidden_errors)
		return xasprintf("and %zu more %s not shown %s", d->nhidden_errors,
				 plural(d->nhidden_errors, "error", "errors"), hint);
	if (d->nhidden_warnings)
		return xasprintf("and %zu more %s not shown %s", d->nhidden_warnings,
				 plural(d->nhidden_warnings, "warning", "warnings"), hint);
	return NULL;
}

int diag_print(const struct diag *d, FILE *f, bool color)
{
	char *more = diag_hidden_text(d);

	for (size_t i = 0; i < d->n; i++) {
		char *line = format_item(&d->items[i], color);
		int rc = fprintf(f, "%s\n", line);

		free(line);
		if (rc < 0)
			goto out_write_error;
	}
	if (more) {
		struct diag_item it = { DIAG_NOTE, NULL, { 0, 0 }, more, true };
		char *line = format_item(&it, color);
		int rc = fprintf(f, "%s\n", line);

		free(line);
		if (rc < 0)
			goto out_write_error;
	}
	free(more);
	return fflush(f) == 0 ? 0 : -1;

out_write_error:
	free(more);
	return -1;
}
