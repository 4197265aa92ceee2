/* GitHub Actions annotations for `magos-sim check --github` (see reports/annotations.h). */
#include "reports/annotations.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

/* Escapes %, CR, LF and, for properties, ':' and ','. */
static char *escape(const char *s, bool prop)
{
	char *out = xmalloc(strlen(s) * 3 + 1), *p = out;

	for (; *s; s++) {
		const char *rep = NULL;

		switch (*s) {
		case '%': rep = "%25"; break;
		case '\r': rep = "%0D"; break;
		case '\n': rep = "%0A"; break;
		case ':': rep = prop ? "%3A" : NULL; break;
		case ',': rep = prop ? "%2C" : NULL; break;
		default: break;
		}
		if (rep) {
			memcpy(p, rep, 3);
			p += 3;
		} else {
			*p++ = *s;
		}
	}
	*p = '\0';
	return out;
}

char *gha_escape_data(const char *s)
{
	return escape(s, false);
}

char *gha_escape_prop(const char *s)
{
	return escape(s, true);
}

static void write_one(FILE *f, const struct exp_scenario_report *r, const struct exp_result *x)
{
	const char *cmd = x->outcome == EXP_FAILED   ? "error"
			  : x->outcome == EXP_WARNED ? "warning"
						     : "notice";
	char *file = gha_escape_prop(x->file ? x->file : r->input);
	char *title = gha_escape_prop(x->id);
	char *msg = gha_escape_data(x->message);

	fprintf(f, "::%s file=%s", cmd, file);
	if (x->mark.line)
		fprintf(f, ",line=%u", x->mark.line);
	if (x->mark.line && x->mark.col)
		fprintf(f, ",col=%u", x->mark.col);
	fprintf(f, ",title=%s::%s\n", title, msg);
	free(file);
	free(title);
	free(msg);
}

int gha_write(FILE *f, const struct exp_scenario_report *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (r[i].invalid && !r[i].n) {
			char *file = gha_escape_prop(r[i].input);

			fprintf(f, "::error file=%s,title=invalid input::the input could not be loaded\n",
				file);
			free(file);
		}
		for (size_t k = 0; k < r[i].n; k++)
			if (r[i].items[k].outcome != EXP_PASSED)
				write_one(f, &r[i], &r[i].items[k]);
	}
	return ferror(f) ? -1 : 0;
}
