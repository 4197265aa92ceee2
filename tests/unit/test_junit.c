/* Unit tests of the check writers: JUnit XML, GitHub annotations, Markdown summary. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reports/annotations.h"
#include "reports/ghsummary.h"
#include "reports/junit.h"
#include "reports/tool.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* @s (freed) with every @from replaced by @to.  Returns new. */
static char *subst(char *s, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to);
	char *out = malloc(strlen(s) * (nt > nf ? nt : nf) / (nf ? nf : 1) + strlen(s) + 1), *p = out;

	for (const char *c = s; *c;) {
		if (nf && !strncmp(c, from, nf)) {
			memcpy(p, to, nt);
			p += nt;
			c += nf;
		} else {
			*p++ = *c++;
		}
	}
	*p = '\0';
	free(s);
	return out;
}

/*
 * Runs @fn into a memory stream and returns what it wrote (new), the build's
 * commit and version written as COMMIT and VERSION: expectations must not
 * depend on the build.
 */
static char *capture(int (*fn)(FILE *, const struct exp_scenario_report *, size_t),
		     const struct exp_scenario_report *r, size_t n)
{
	struct fx_cap c;
	char from[128], *out;

	CU_ASSERT_EQUAL(fn(fx_cap_open(&c), r, n), 0);
	/* Only where the commit is written: a build without git says "unknown",
	 * which a message may also contain. */
	snprintf(from, sizeof(from), "\"magos-sim.commit\" value=\"%s\"", tool_commit());
	out = subst(fx_cap_text(&c), from, "\"magos-sim.commit\" value=\"COMMIT\"");
	snprintf(from, sizeof(from), "commit %s", tool_commit());
	out = subst(out, from, "commit COMMIT");
	snprintf(from, sizeof(from), "\"magos-sim.version\" value=\"%s\"", tool_version());
	out = subst(out, from, "\"magos-sim.version\" value=\"VERSION\"");
	snprintf(from, sizeof(from), "magos-sim %s, commit", tool_version());
	return subst(out, from, "magos-sim VERSION, commit");
}

static struct val_mark at(uint32_t line, uint32_t col)
{
	struct val_mark m = { line, col };

	return m;
}

/* Two inputs: one with a pass, a failure and a warning; one that did not load. */
static void sample(struct exp_scenario_report r[2])
{
	exp_report_init(&r[0], "ci/a.yaml");
	r[0].name = strdup("a");
	exp_report_add(&r[0], "timeToComplete.p95", EXP_PASSED, "1h0m0s", "<= 6h0m0s",
		       "p95 time to complete 1h0m0s is within the limit <= 6h0m0s", "ci/a.yaml", at(12, 5));
	exp_report_add(&r[0], "blastRadius", EXP_FAILED, "2", "<= 1",
		       "blast radius 2 exceeds the limit 1 <&> \"q\" 'a'\n%x, y: z", "ci/a.yaml", at(14, 7));
	exp_report_add(&r[0], "MS105", EXP_WARNED, NULL, NULL, "workspace w is in no step", "ci/m,1.yaml",
		       at(3, 1));
	r[0].fig.have = true;
	r[0].fig.ntrials = 20;
	r[0].fig.completed = 19;
	r[0].fig.halted = 1;
	r[0].fig.horizon_ms = 86400000;
	r[0].fig.ttc_p50 = 3600000;
	r[0].fig.ttc_p95 = 5400000;
	r[0].fig.blast_max = 2;
	r[0].fig.blast_share_max = 0.5;
	r[0].start_unix_ms = 1772438400000; /* 2026-03-02T08:00:00Z */
	exp_report_init(&r[1], "ci/bad.yaml");
	r[1].invalid = true;
}

static void test_junit_escape(void)
{
	char *e = junit_escape("a<b>&\"c\" 'd'\x01\tz");

	CU_ASSERT_STRING_EQUAL(e, "a&lt;b&gt;&amp;&quot;c&quot; &apos;d&apos;\tz");
	free(e);
}

static void test_junit_write(void)
{
	struct exp_scenario_report r[2];
	char *out;

	sample(r);
	out = capture(junit_write, r, 2);
	CU_ASSERT_STRING_EQUAL(
		out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites>\n"
		"  <testsuite name=\"ci/a.yaml\" package=\"ci/a.yaml\" id=\"0\" timestamp=\"2026-03-02T08:00:00\" "
		"hostname=\"localhost\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
		"    <properties>\n"
		"      <property name=\"magos-sim.version\" value=\"VERSION\"/>\n"
		"      <property name=\"magos-sim.commit\" value=\"COMMIT\"/>\n"
		"      <property name=\"scenario\" value=\"a\"/>\n"
		"      <property name=\"trials\" value=\"20\"/>\n"
		"    </properties>\n"
		"    <testcase classname=\"ci/a.yaml\" name=\"timeToComplete.p95 ci/a.yaml:12:5\" time=\"0\"/>\n"
		"    <testcase classname=\"ci/a.yaml\" name=\"blastRadius ci/a.yaml:14:7\" time=\"0\">\n"
		"      <failure message=\"blast radius 2 exceeds the limit 1 &lt;&amp;&gt; &quot;q&quot; &apos;a&apos;\n%x, y: z (measured 2, limit &lt;= 1)\" type=\"expectation\">"
		"ci/a.yaml:14:7: blast radius 2 exceeds the limit 1 &lt;&amp;&gt; &quot;q&quot; &apos;a&apos;\n%x, y: z</failure>\n"
		"    </testcase>\n"
		"    <testcase classname=\"ci/m,1.yaml\" name=\"MS105 ci/m,1.yaml:3:1\" time=\"0\"/>\n"
		"    <system-out>warning: ci/m,1.yaml:3:1: workspace w is in no step\n</system-out>\n"
		"    <system-err/>\n"
		"  </testsuite>\n"
		"  <testsuite name=\"ci/bad.yaml\" package=\"ci/bad.yaml\" id=\"1\" timestamp=\"1970-01-01T00:00:00\" "
		"hostname=\"localhost\" tests=\"1\" failures=\"0\" errors=\"1\" skipped=\"0\" time=\"0\">\n"
		"    <properties>\n"
		"      <property name=\"magos-sim.version\" value=\"VERSION\"/>\n"
		"      <property name=\"magos-sim.commit\" value=\"COMMIT\"/>\n"
		"    </properties>\n"
		"    <testcase classname=\"ci/bad.yaml\" name=\"load\" time=\"0\">\n"
		"      <error message=\"ci/bad.yaml: invalid input (see the diagnostics on stderr)\" type=\"invalid\"/>\n"
		"    </testcase>\n"
		"    <system-out></system-out>\n"
		"    <system-err/>\n"
		"  </testsuite>\n"
		"</testsuites>\n");
	free(out);
	exp_report_release(&r[0]);
	exp_report_release(&r[1]);
}

static int ghs_full(FILE *f, const struct exp_scenario_report *r, size_t n);

/* An invalid input with diagnostics: errors, a finding, a repeated name, a skipped expectation. */
static void test_junit_invalid(void)
{
	struct exp_scenario_report r;
	struct exp_set e;
	struct exp_item it = { 0 };
	char *out;

	exp_report_init(&r, "ci/web.yaml");
	r.invalid = true;
	exp_report_mark_input_error(&r, exp_report_add(&r, "MS001", EXP_FAILED, NULL, NULL,
						      "unknown field", "ci/web.yaml", at(4, 3)));
	exp_report_add(&r, "MS202", EXP_FAILED, NULL, NULL, "first", "ci/web.yaml", at(29, 7));
	exp_report_add(&r, "MS202", EXP_FAILED, NULL, NULL, "second", "ci/web.yaml", at(29, 7));
	exp_report_add(&r, "MS202", EXP_FAILED, NULL, NULL, "third", "ci/web.yaml", at(29, 7));
	/* A passed result is not an input error, whatever the caller says. */
	exp_report_mark_input_error(&r, exp_report_add(&r, "MS003", EXP_WARNED, NULL, NULL, "w",
						      "ci/web.yaml", at(30, 1)));
	exp_set_init(&e);
	e.file = "ci/web.yaml";
	it.name = (char *)"completes";
	it.mark = at(6, 5);
	e.items = &it;
	e.n = 1;
	exp_report_add_skipped(&r, &e, "the input is invalid");
	CU_ASSERT_EQUAL(r.nfailed, 4);
	CU_ASSERT_EQUAL(r.nerrors, 1);
	CU_ASSERT_EQUAL(r.nskipped, 1);
	out = capture(junit_write, &r, 1);
	CU_ASSERT_STRING_EQUAL(
		out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuites>\n"
		"  <testsuite name=\"ci/web.yaml\" package=\"ci/web.yaml\" id=\"0\" timestamp=\"1970-01-01T00:00:00\" "
		"hostname=\"localhost\" tests=\"6\" failures=\"3\" errors=\"1\" skipped=\"1\" time=\"0\">\n"
		"    <properties>\n"
		"      <property name=\"magos-sim.version\" value=\"VERSION\"/>\n"
		"      <property name=\"magos-sim.commit\" value=\"COMMIT\"/>\n"
		"    </properties>\n"
		"    <testcase classname=\"ci/web.yaml\" name=\"MS001 ci/web.yaml:4:3\" time=\"0\">\n"
		"      <error message=\"unknown field\" type=\"invalid\">ci/web.yaml:4:3: unknown field</error>\n"
		"    </testcase>\n"
		"    <testcase classname=\"ci/web.yaml\" name=\"MS202 ci/web.yaml:29:7\" time=\"0\">\n"
		"      <failure message=\"first\" type=\"lint\">ci/web.yaml:29:7: first</failure>\n"
		"    </testcase>\n"
		"    <testcase classname=\"ci/web.yaml\" name=\"MS202 ci/web.yaml:29:7 #2\" time=\"0\">\n"
		"      <failure message=\"second\" type=\"lint\">ci/web.yaml:29:7: second</failure>\n"
		"    </testcase>\n"
		"    <testcase classname=\"ci/web.yaml\" name=\"MS202 ci/web.yaml:29:7 #3\" time=\"0\">\n"
		"      <failure message=\"third\" type=\"lint\">ci/web.yaml:29:7: third</failure>\n"
		"    </testcase>\n"
		"    <testcase classname=\"ci/web.yaml\" name=\"MS003 ci/web.yaml:30:1\" time=\"0\"/>\n"
		"    <testcase classname=\"ci/web.yaml\" name=\"completes ci/web.yaml:6:5\" time=\"0\">\n"
		"      <skipped message=\"not evaluated: the input is invalid\"/>\n"
		"    </testcase>\n"
		"    <system-out>warning: ci/web.yaml:30:1: w\n</system-out>\n"
		"    <system-err/>\n"
		"  </testsuite>\n"
		"</testsuites>\n");
	free(out);
	/* Skipped checks make no annotation. */
	out = capture(gha_write, &r, 1);
	CU_ASSERT_PTR_NULL(strstr(out, "completes"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "::error file=ci/web.yaml,line=4,col=3,title=MS001::unknown field\n"));
	free(out);
	/* The summary marks a never-evaluated expectation as skipped, not as passed or failed. */
	out = capture(ghs_full, &r, 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "| ⏭️ | `completes` | `ci/web.yaml:6:5` | not evaluated: the input is invalid |\n"));
	free(out);
	exp_report_release(&r);
}

static void test_gha(void)
{
	struct exp_scenario_report r[2];
	char *out, *e;

	static const struct {
		char *(*escape)(const char *);
		const char *in, *want;
	} cases[] = {
		{ gha_escape_prop, "a%b:c,d\r\ne", "a%25b%3Ac%2Cd%0D%0Ae" },
		{ gha_escape_data, "a%b:c,d\r\ne", "a%25b:c,d%0D%0Ae" },
		/* no other control character reaches the log raw: ESC, BEL, DEL, C1, invalid UTF-8 */
		{ gha_escape_data, "k\x1b[2J\a\x7f\xc2\x85\xff\t→\n::stop-commands::t",
		  "k\\x1b[2J\\a\\x7f\\u0085\\xff\\t→%0A::stop-commands::t" },
		{ gha_escape_prop, "f\x1b]0;x\a.yaml", "f\\x1b]0;x\\a.yaml" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		e = cases[i].escape(cases[i].in);
		CU_ASSERT_STRING_EQUAL(e, cases[i].want);
		free(e);
	}
	sample(r);
	out = capture(gha_write, r, 2);
	CU_ASSERT_STRING_EQUAL(
		out,
		"::error file=ci/a.yaml,line=14,col=7,title=blastRadius::blast radius 2 exceeds the limit 1 <&> \"q\" 'a'%0A%25x, y: z\n"
		"::warning file=ci/m%2C1.yaml,line=3,col=1,title=MS105::workspace w is in no step\n"
		"::error file=ci/bad.yaml,title=invalid input::the input could not be loaded\n");
	free(out);
	exp_report_release(&r[0]);
	exp_report_release(&r[1]);
}

/* Lines of @s that start with @prefix. */
static size_t count_lines(const char *s, const char *prefix)
{
	size_t n = 0, len = strlen(prefix);

	for (const char *l = s; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		n += !strncmp(l, prefix, len);
	return n;
}

/* GitHub shows 10 annotations of a kind per step: the 10th place says how many more there are. */
static void test_gha_cap(void)
{
	struct exp_scenario_report r;
	char *out;

	exp_report_init(&r, "ci/many.yaml");
	for (unsigned i = 1; i <= 14; i++)
		exp_report_add(&r, "MS101", EXP_FAILED, NULL, NULL, "bad", "ci/many.yaml", at(i, 1));
	for (unsigned i = 1; i <= 10; i++)
		exp_report_add(&r, "MS105", EXP_WARNED, NULL, NULL, "w", "ci/many.yaml", at(20 + i, 1));
	exp_report_add(&r, "MS217", EXP_NOTED, NULL, NULL, "i", "ci/many.yaml", at(40, 1));
	out = capture(gha_write, &r, 1);
	CU_ASSERT_EQUAL(count_lines(out, "::error "), GHA_MAX_PER_KIND);
	CU_ASSERT_EQUAL(count_lines(out, "::error file="), GHA_MAX_PER_KIND - 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "::error file=ci/many.yaml,line=9,col=1,title=MS101::bad\n"));
	CU_ASSERT_PTR_NULL(strstr(out, "line=10,col=1,title=MS101"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "::error title=magos-sim::5 more failed checks not annotated: "
					   "GitHub shows 10 error annotations per step"));
	/* Exactly 10 warnings all fit; one info is one notice. */
	CU_ASSERT_EQUAL(count_lines(out, "::warning file="), 10);
	CU_ASSERT_PTR_NULL(strstr(out, "more warnings"));
	CU_ASSERT_EQUAL(count_lines(out, "::notice file="), 1);
	free(out);
	exp_report_release(&r);
}

static void rel_is(const char *path, const char *base, const char *cwd, const char *want)
{
	char *got = gha_relative_path(path, base, cwd);

	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_gha_relative(void)
{
	/* Under $GITHUB_WORKSPACE: relative to it, wherever check runs. */
	rel_is("/work/repo/ci/web.yaml", "/work/repo", "/tmp", "ci/web.yaml");
	rel_is("/work/repo/ci/web.yaml", "/work/repo/", "/tmp", "ci/web.yaml");
	rel_is("ci/web.yaml", "/work/repo", "/work/repo/sub", "sub/ci/web.yaml");
	rel_is("./ci/web.yaml", "/work/repo", "/work/repo", "ci/web.yaml");
	/* No workspace: relative to the current directory. */
	rel_is("/work/repo/ci/web.yaml", NULL, "/work/repo", "ci/web.yaml");
	rel_is("/work/repo/ci/web.yaml", "", "/work/repo", "ci/web.yaml");
	/* A prefix of a name is not a parent directory. */
	rel_is("/work/repository/x.yaml", "/work/repo", "/", "/work/repository/x.yaml");
	/* Outside the base: as given. */
	rel_is("/etc/x.yaml", "/work/repo", "/work/repo", "/etc/x.yaml");
	rel_is("../x.yaml", NULL, "/work/repo", "../x.yaml");
	rel_is("ci/x.yaml", NULL, "", "ci/x.yaml");
	rel_is("/x/y.yaml", "/", "/", "x/y.yaml");
}

static int ghs_full(FILE *f, const struct exp_scenario_report *r, size_t n)
{
	return ghs_write(f, r, n, GHS_MAX_BYTES);
}

static int ghs_small(FILE *f, const struct exp_scenario_report *r, size_t n)
{
	return ghs_write(f, r, n, 4096);
}

static void test_summary(void)
{
	struct exp_scenario_report r[2];
	char *out;

	sample(r);
	out = capture(ghs_full, r, 2);
	CU_ASSERT_STRING_EQUAL(
		out,
		"## magos-sim check ❌\n\n"
		"3 checks in 2 scenarios: **1 failed**, 1 warning, 1 invalid, not run.\n\n"
		"### Key figures\n\n"
		"| scenario | trials | completed | time to complete p50 / p95 | halt probability | blast radius (largest) |\n"
		"|---|---:|---:|---|---:|---|\n"
		"| a | 20 | 19 | 1h0m0s / 1h30m0s | 5% | 2 (50%) |\n"
		"| ci/bad.yaml | – | – | – | – | – |\n\n"
		"### Checks\n\n"
		"| | check | where | result |\n|---|---|---|---|\n"
		"| ✅ | `timeToComplete.p95` | `ci/a.yaml:12:5` | p95 time to complete 1h0m0s is within the limit \\<= 6h0m0s |\n"
		"| ❌ | `blastRadius` | `ci/a.yaml:14:7` | blast radius 2 exceeds the limit 1 \\<\\&\\> \"q\" 'a' %x, y: z |\n"
		"| ⚠️ | `MS105` | `ci/m,1.yaml:3:1` | workspace w is in no step |\n"
		"| ❌ | load | `ci/bad.yaml` | invalid input |\n"
		"\n<sub>magos-sim VERSION, commit COMMIT</sub>\n");
	free(out);
	exp_report_release(&r[0]);
	exp_report_release(&r[1]);
}

static void test_markdown_escapes(void)
{
	char *t = ghs_cell("a_*b*_ [l](u) `c` \\ x|y <i>&amp; ~~s~~ $m$ http://h/p www.x.org me@x.org\nz");
	char *c1 = ghs_code("a|b"), *c2 = ghs_code("x `y` z"), *c3 = ghs_code("`q``");

	CU_ASSERT_STRING_EQUAL(t, "a\\_\\*b\\*\\_ \\[l\\](u) \\`c\\` \\\\ x\\|y \\<i\\>\\&amp; "
				  "\\~\\~s\\~\\~ \\$m\\$ http\\://h/p www\\.x.org me\\@x.org z");
	CU_ASSERT_STRING_EQUAL(c1, "`a\\|b`");
	CU_ASSERT_STRING_EQUAL(c2, "``x `y` z``");
	CU_ASSERT_STRING_EQUAL(c3, "``` `q`` ```");
	free(t);
	free(c1);
	free(c2);
	free(c3);
}

static void test_markdown_controls(void)
{
	char *t = ghs_cell("a\x1b[2J\tb\r\nc\xc2\x85\x7f");
	char *c = ghs_code("k\x1b]0;x\a|\n");

	CU_ASSERT_STRING_EQUAL(t, "a\\\\x1b\\[2J\\\\tb  c\\\\u0085\\\\x7f");
	CU_ASSERT_STRING_EQUAL(c, "`k\\x1b]0;x\\a\\| `");
	free(t);
	free(c);
}

static void test_summary_truncated(void)
{
	struct exp_scenario_report r;
	char *out, msg[200];

	exp_report_init(&r, "big.yaml");
	for (int i = 0; i < 200; i++) {
		snprintf(msg, sizeof(msg), "check number %d | with a pipe and a long text to fill the table quickly", i);
		exp_report_add(&r, "assert[0]", EXP_FAILED, "x", "y", msg, "big.yaml", at((uint32_t)i + 1, 3));
	}
	out = capture(ghs_small, &r, 1);
	CU_ASSERT(strlen(out) <= 4096);
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "check number 0 \\| with a pipe"));
	CU_ASSERT_PTR_NULL(strstr(out, "check number 199 "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, "more checks not shown (a step summary must stay under 4096 bytes)"));
	free(out);
	exp_report_release(&r);
}

static CU_TestInfo tests[] = {
	{ "junit escapes markup and controls", test_junit_escape },
	{ "junit document", test_junit_write },
	{ "junit invalid input: errors, unique names, skipped", test_junit_invalid },
	{ "github annotations and escaping", test_gha },
	{ "github annotations: 10 of a kind per step, the last place says how many more", test_gha_cap },
	{ "github annotation paths relative to the workspace", test_gha_relative },
	{ "markdown summary", test_summary },
	{ "markdown summary truncated at the limit", test_summary_truncated },
	{ "markdown escapes: text and code spans read as written", test_markdown_escapes },
	{ "markdown escapes: control characters as Go's %q, line breaks as spaces", test_markdown_controls },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("check writers", tests);
}
