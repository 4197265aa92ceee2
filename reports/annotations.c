/* GitHub Actions annotations for `magos-sim check --github` (see reports/annotations.h). */
#include "reports/annotations.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/xalloc.h"
#include "sim/base/quote.h"

/*
 * Escapes the other control characters as qt_text() does (an ESC must not
 * reach the log, where it would drive the terminal of whoever reads it),
 * then %, CR, LF and, for properties, ':' and ','.
 */
static char *escape(const char *text, bool prop)
{
	char *quoted = qt_text_keep(text, "\r\n");
	char *out = xmalloc(strlen(quoted) * 3 + 1), *p = out;

	for (const char *s = quoted; *s; s++) {
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
	free(quoted);
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

/* @p without its leading "./" segments (and the slashes after them). */
static const char *skip_dot(const char *p)
{
	while (p[0] == '.' && p[1] == '/') {
		p += 2;
		while (*p == '/')
			p++;
	}
	return p;
}

char *gha_relative_path(const char *path, const char *base, const char *cwd)
{
	char *abs, *out;
	size_t blen;

	if (!base || base[0] != '/')
		base = cwd;
	if (!base || base[0] != '/')
		return xstrdup(path);
	if (path[0] == '/')
		abs = xstrdup(path);
	else if (cwd && cwd[0] == '/')
		abs = xasprintf("%s/%s", cwd, skip_dot(path));
	else
		return xstrdup(path);
	blen = strlen(base);
	while (blen > 1 && base[blen - 1] == '/')
		blen--;
	if (blen == 1) /* base "/": every absolute path is under it */
		out = xstrdup(skip_dot(abs + 1));
	else if (!strncmp(abs, base, blen) && abs[blen] == '/')
		out = xstrdup(skip_dot(abs + blen + 1));
	else
		out = xstrdup(path[0] == '/' ? path : skip_dot(path));
	free(abs);
	return out;
}

static void write_one(FILE *f, const struct exp_scenario_report *r, const struct exp_result *x,
		      const char *base, const char *cwd)
{
	const char *cmd = x->outcome == EXP_FAILED   ? "error"
			  : x->outcome == EXP_WARNED ? "warning"
						     : "notice";
	char *rel = gha_relative_path(x->file ? x->file : r->input, base, cwd);
	char *file = gha_escape_prop(rel);
	char *title = gha_escape_prop(x->id);
	char *msg = gha_escape_data(x->message);

	fprintf(f, "::%s file=%s", cmd, file);
	if (x->mark.line)
		fprintf(f, ",line=%u", x->mark.line);
	if (x->mark.line && x->mark.col)
		fprintf(f, ",col=%u", x->mark.col);
	fprintf(f, ",title=%s::%s\n", title, msg);
	free(rel);
	free(file);
	free(title);
	free(msg);
}

/* The annotation kind of a check: 0 error, 1 warning, 2 notice; -1 for none. */
static int kind_of(enum exp_outcome o)
{
	switch (o) {
	case EXP_FAILED: return 0;
	case EXP_WARNED: return 1;
	case EXP_NOTED: return 2;
	default: return -1; /* passed and never-evaluated checks have nothing to point at */
	}
}

int gha_write(FILE *f, const struct exp_scenario_report *r, size_t n)
{
	static const char *const cmd[3] = { "error", "warning", "notice" };
	static const char *const what[3] = { "failed checks", "warnings", "infos" };
	const char *base = getenv("GITHUB_WORKSPACE");
	char cwd[4096];
	size_t total[3] = { 0 }, shown[3] = { 0 };

	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		total[0] += r[i].invalid && !r[i].n;
		for (size_t k = 0; k < r[i].n; k++) {
			int c = kind_of(r[i].items[k].outcome);

			if (c >= 0)
				total[c]++;
		}
	}
	for (size_t i = 0; i < n; i++) {
		/* Of more than GHA_MAX_PER_KIND of a kind, the last place goes to the note below. */
		if (r[i].invalid && !r[i].n &&
		    (total[0] <= GHA_MAX_PER_KIND || shown[0] < GHA_MAX_PER_KIND - 1)) {
			char *rel = gha_relative_path(r[i].input, base, cwd);
			char *file = gha_escape_prop(rel);

			fprintf(f, "::error file=%s,title=invalid input::the input could not be loaded\n",
				file);
			free(file);
			free(rel);
			shown[0]++;
		}
		for (size_t k = 0; k < r[i].n; k++) {
			int c = kind_of(r[i].items[k].outcome);

			if (c < 0 || (total[c] > GHA_MAX_PER_KIND && shown[c] >= GHA_MAX_PER_KIND - 1))
				continue;
			write_one(f, &r[i], &r[i].items[k], base, cwd);
			shown[c]++;
		}
	}
	for (int c = 0; c < 3; c++)
		if (total[c] > shown[c])
			fprintf(f, "::%s title=magos-sim::%zu more %s not annotated: GitHub shows %d "
				   "%s annotations per step; every check is in the log above, --summary "
				   "and --junit\n",
				cmd[c], total[c] - shown[c], what[c], GHA_MAX_PER_KIND, cmd[c]);
	return ferror(f) ? -1 : 0;
}
