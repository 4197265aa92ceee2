/* JUnit XML for `magos-sim check` (see reports/junit.h). */
#include "reports/junit.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/tool.h"
#include "sim/base/gotime.h"

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

/* Whether @a and @b point at the same check: same id, file and place. */
static bool same_case(const struct exp_result *a, const struct exp_result *b)
{
	return !strcmp(a->id, b->id) && a->mark.line == b->mark.line &&
	       a->mark.col == b->mark.col &&
	       (a->file == b->file || (a->file && b->file && !strcmp(a->file, b->file)));
}

/* "MS202 ci/web.yaml:29:7", " #2" on the second case of that name in the suite. */
static void put_name(FILE *f, const struct exp_scenario_report *r, size_t k)
{
	const struct exp_result *x = &r->items[k];
	size_t dup = 0;

	put(f, x->id);
	fputc(' ', f);
	put(f, x->file ? x->file : r->input);
	if (x->mark.line && x->mark.col)
		fprintf(f, ":%u:%u", x->mark.line, x->mark.col);
	else if (x->mark.line)
		fprintf(f, ":%u", x->mark.line);
	for (size_t i = 0; i < k; i++)
		dup += same_case(&r->items[i], x);
	if (dup)
		fprintf(f, " #%zu", dup + 1);
}

static void put_where(FILE *f, const struct exp_scenario_report *r, const struct exp_result *x)
{
	put(f, x->file ? x->file : r->input);
	if (x->mark.line)
		fprintf(f, ":%u:%u", x->mark.line, x->mark.col);
	fputs(": ", f);
	put(f, x->message);
}

static void write_case(FILE *f, const struct exp_scenario_report *r, size_t k)
{
	const struct exp_result *x = &r->items[k];

	fputs("    <testcase classname=\"", f);
	put(f, x->file ? x->file : r->input);
	fputs("\" name=\"", f);
	put_name(f, r, k);
	fputs("\" time=\"0\"", f);
	switch (x->outcome) {
	case EXP_PASSED:
	case EXP_WARNED:
	case EXP_NOTED:
		/* Ant's schema allows no <system-out> in a case: the suite's holds their text. */
		fputs("/>\n", f);
		return;
	case EXP_FAILED:
		if (x->input_error) {
			fputs(">\n      <error message=\"", f);
			put(f, x->message);
			fputs("\" type=\"invalid\">", f);
			put_where(f, r, x);
			fputs("</error>\n    </testcase>\n", f);
			return;
		}
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
		put_where(f, r, x);
		fputs("</failure>\n    </testcase>\n", f);
		return;
	case EXP_SKIPPED:
		fputs(">\n      <skipped message=\"", f);
		put(f, x->message);
		fputs("\"/>\n    </testcase>\n", f);
		return;
	}
}

/* The suite's <system-out>: one line per warning and info, "warning: file:line:col: message". */
static void write_system_out(FILE *f, const struct exp_scenario_report *s)
{
	fputs("    <system-out>", f);
	for (size_t k = 0; k < s->n; k++) {
		const struct exp_result *x = &s->items[k];

		if (x->outcome != EXP_WARNED && x->outcome != EXP_NOTED)
			continue;
		fputs(x->outcome == EXP_WARNED ? "warning: " : "info: ", f);
		put_where(f, s, x);
		fputc('\n', f);
	}
	fputs("</system-out>\n    <system-err/>\n", f);
}

static void write_property(FILE *f, const char *name, const char *value)
{
	fputs("      <property name=\"", f);
	put(f, name);
	fputs("\" value=\"", f);
	put(f, value);
	fputs("\"/>\n", f);
}

/* The counts of one suite: a lone "load" case stands for an invalid input with nothing to show. */
static void suite_counts(const struct exp_scenario_report *s, size_t *tests, size_t *failures,
			 size_t *errors, size_t *skipped)
{
	bool load = s->invalid && !s->n;

	*tests = s->n + load;
	*failures = s->nfailed - s->nerrors;
	*errors = s->nerrors + load;
	*skipped = s->nskipped;
}

int junit_write(FILE *f, const struct exp_scenario_report *r, size_t n)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	/* Ant's schema allows no attribute here: consumers add up the suites. */
	fputs("<testsuites>\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct exp_scenario_report *s = &r[i];
		size_t t, fl, e, sk;
		char ts[GT_RFC3339_BUFSZ];

		suite_counts(s, &t, &fl, &e, &sk);
		/* Ant's timestamp has no zone: the UTC time without its 'Z'. */
		gt_format_rfc3339(s->start_unix_ms, ts, sizeof(ts));
		ts[strcspn(ts, "Z")] = '\0';
		fputs("  <testsuite name=\"", f);
		put(f, s->input);
		fputs("\" package=\"", f);
		put(f, s->input);
		fprintf(f, "\" id=\"%zu\" timestamp=\"%s\" hostname=\"localhost\" tests=\"%zu\" "
			   "failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"0\">\n",
			i, ts, t, fl, e, sk);
		fputs("    <properties>\n", f);
		write_property(f, "magos-sim.version", tool_version());
		write_property(f, "magos-sim.commit", tool_commit());
		if (s->name)
			write_property(f, "scenario", s->name);
		if (s->fig.have) {
			char nt[32];

			snprintf(nt, sizeof(nt), "%zu", s->fig.ntrials);
			write_property(f, "trials", nt);
		}
		fputs("    </properties>\n", f);
		/* An input that did not load shows its diagnostics as errors; without any, one error. */
		if (s->invalid && !s->n) {
			fputs("    <testcase classname=\"", f);
			put(f, s->input);
			fputs("\" name=\"load\" time=\"0\">\n      <error message=\"", f);
			put(f, s->input);
			fputs(": invalid input (see the diagnostics on stderr)\" type=\"invalid\"/>\n"
			      "    </testcase>\n", f);
		}
		for (size_t k = 0; k < s->n; k++)
			write_case(f, s, k);
		write_system_out(f, s);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	return ferror(f) ? -1 : 0;
}
