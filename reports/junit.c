/* JUnit XML for `magos-sim check` (see reports/junit.h). */
#include "reports/junit.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

char *junit_escape(const char *s)
{
	size_t n = 0;
	char *out, *p;

	for (const char *c = s; *c; c++)
		n += 6;
	out = p = xmalloc(n + 1);
	for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
		switch (*c) {
		case '&': memcpy(p, "&amp;", 5); p += 5; break;
		case '<': memcpy(p, "&lt;", 4); p += 4; break;
		case '>': memcpy(p, "&gt;", 4); p += 4; break;
		case '"': memcpy(p, "&quot;", 6); p += 6; break;
		case '\'': memcpy(p, "&apos;", 6); p += 6; break;
		default:
			/* XML 1.0 has no way to write the other C0 controls, even as references. */
			if (*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r')
				break;
			*p++ = (char)*c;
		}
	}
	*p = '\0';
	return out;
}

/* Writes @s escaped. */
static void put(FILE *f, const char *s)
{
	char *e = junit_escape(s ? s : "");

	fputs(e, f);
	free(e);
}

static void put_location(FILE *f, const struct exp_result *x)
{
	if (x->mark.line && x->mark.col)
		fprintf(f, " %u:%u", x->mark.line, x->mark.col);
	else if (x->mark.line)
		fprintf(f, " %u", x->mark.line);
}

static void write_case(FILE *f, const struct exp_scenario_report *r, const struct exp_result *x)
{
	fputs("    <testcase classname=\"", f);
	put(f, x->file ? x->file : r->input);
	fputs("\" name=\"", f);
	put(f, x->id);
	put_location(f, x);
	fputs("\"", f);
	switch (x->outcome) {
	case EXP_PASSED:
		fputs("/>\n", f);
		return;
	case EXP_FAILED:
		fputs(">\n      <failure message=\"", f);
		put(f, x->message);
		if (x->measured && x->limit) {
			fputs(" (measured ", f);
			put(f, x->measured);
			fputs(", limit ", f);
			put(f, x->limit);
			fputs(")", f);
		}
		fprintf(f, "\" type=\"%s\">", x->measured ? "expectation" : "lint");
		put(f, x->file ? x->file : r->input);
		if (x->mark.line)
			fprintf(f, ":%u:%u", x->mark.line, x->mark.col);
		fputs(": ", f);
		put(f, x->message);
		fputs("</failure>\n    </testcase>\n", f);
		return;
	case EXP_WARNED:
	case EXP_NOTED:
		fputs(">\n      <system-out>", f);
		fputs(x->outcome == EXP_WARNED ? "warning: " : "info: ", f);
		put(f, x->message);
		fputs("</system-out>\n    </testcase>\n", f);
		return;
	}
}

int junit_write(FILE *f, const struct exp_scenario_report *r, size_t n)
{
	size_t tests = 0, failures = 0, errors = 0;

	for (size_t i = 0; i < n; i++) {
		tests += r[i].n + (r[i].invalid && !r[i].n);
		failures += r[i].nfailed;
		errors += r[i].invalid && !r[i].n;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"magos-sim check\" tests=\"%zu\" failures=\"%zu\" errors=\"%zu\">\n",
		tests, failures, errors);
	for (size_t i = 0; i < n; i++) {
		const struct exp_scenario_report *s = &r[i];

		fputs("  <testsuite name=\"", f);
		put(f, s->input);
		fprintf(f, "\" tests=\"%zu\" failures=\"%zu\" errors=\"%d\">\n",
			s->n + (s->invalid && !s->n), s->nfailed, s->invalid && !s->n);
		/* An input that did not load shows its diagnostics as failed checks; without any, one error. */
		if (s->invalid && !s->n) {
			fputs("    <testcase classname=\"", f);
			put(f, s->input);
			fputs("\" name=\"load\">\n      <error message=\"", f);
			put(f, s->input);
			fputs(": invalid input (see the diagnostics on stderr)\" type=\"invalid\"/>\n"
			      "    </testcase>\n", f);
		}
		for (size_t k = 0; k < s->n; k++)
			write_case(f, s, &s->items[k]);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}
