/*
 * magos-sim check: for CI.  For each scenario: lint it, run its trials, and
 * evaluate its `expect`; print one line per check, write JUnit, GitHub
 * annotations and a Markdown summary on request, and map it all to an exit
 * code.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/cli/cmd.h"
#include "engine/xalloc.h"
#include "sim/base/quote.h"
#include "sim/plan/expect.h"
#include "sim/plan/stats.h"
#include "sim/plan/trials.h"
#include "reports/annotations.h"
#include "reports/ghsummary.h"
#include "reports/junit.h"
#include "sim/base/diag.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint.h"
#include "sim/load/dirlist.h"

#define CHECK_MAX_JOBS 256

enum check_optcode {
	OPT_JUNIT = CMD_OPT_FIRST_FREE,
	OPT_GITHUB,
	OPT_SUMMARY,
};

void cmd_usage_check(FILE *f)
{
	fprintf(f,
		"usage: %s check [OPTIONS] FILE|DIR...\n"
		"\n"
		"For CI.  Each scenario file is checked on its own.  A directory (its *.yaml,\n"
		"*.yml and *.json files, not recursively) is one input, as `run DIR` loads it;\n"
		"one holding several Scenario documents stands for each of those files, in\n"
		"name order, and for its plain manifests that none of them includes, together.\n"
		"The manifests are linted (the rules of `magos-sim lint`), and so is each of its\n"
		"variants (findings named by the variant), its trials are run\n"
		"(spec.expect.trials, default 1; trial 0 is the seeded run) and every\n"
		"expectation of spec.expect is evaluated on the base scenario.  One line per\n"
		"check:\n"
		"  PASS|FAIL|WARN|INFO|SKIP  file:line:col: check: message\n"
		"An invalid input is named first (INVALID file), then its findings; its\n"
		"expectations are SKIPped (not run).\n"
		"A check fails on an error finding, a failed expectation, or a run stopped by a\n"
		"bound (zero-delay loop, event budget); the findings of rules a scenario lists\n"
		"in spec.expect.findings pass (it shows them on purpose).  Exit 0 when every\n"
		"check holds, 1 when any fails, 3 when any input is invalid or cannot be\n"
		"read.  The lines are the report, on stdout; an invalid input's diagnostics\n"
		"(file:line:col with their notes, as run prints them) go to stderr as well, so\n"
		"a log of both shows each problem twice: read stdout for the report.  When\n"
		"--junit or --summary is '-', stdout holds that document alone and the lines\n"
		"go to stderr.\n"
		"\n"
		"Options:\n"
		"  -n, --trials N        trials per scenario (1..%d) instead of expect.trials\n"
		"  -j, --jobs J          threads for the trials (1..%d, default: online CPUs)\n"
		"  -s, --seed N          seed for every scenario (overrides spec.seed)\n"
		"      --until WHEN      complete (default) or horizon, as for run\n"
		"      --now TIME        wall-clock time of simulated time 0, RFC 3339, for\n"
		"                        every scenario, as for run (a snapshot's: where its\n"
		"                        run starts)\n"
		"      --horizon DUR     end of simulated time for every scenario, as for\n"
		"                        run (a resumed run's: on the original run's clock)\n"
		"      --junit FILE      JUnit XML: one testcase per finding and expectation\n"
		"                        ('-': stdout)\n"
		"      --github          GitHub Actions annotations (::error file=...) on stdout\n"
		"      --summary FILE    Markdown summary appended to FILE (made when not\n"
		"                        there), as each step adds to \"$GITHUB_STEP_SUMMARY\"\n"
		"                        (< 1 MiB; '-': stdout)\n"
		"  -q, --quiet           no progress line on stderr (the report is the same)\n"
		"      --color WHEN      auto (default: only on a terminal), always or never\n"
		"      --no-color        same as --color never\n"
		CMD_HELP_LIMIT
		"  -h, --help            this help\n"
		"\n"
		"Examples:\n"
		"  %s check scenarios/ci/\n"
		"      every scenario of the folder: PASS/FAIL lines, exit 1 on a failure\n"
		"  %s check --junit junit.xml --github scenarios/ci/*.yaml\n"
		"      the same in a GitHub Actions job: annotations and a JUnit report\n"
		"  %s check -n 200 --summary \"$GITHUB_STEP_SUMMARY\" policy.yaml\n"
		"      200 trials instead of spec.expect.trials, a Markdown step summary\n"
		"\n"
		"%s",
		cmd_prog, EXP_MAX_TRIALS, CHECK_MAX_JOBS, cmd_prog, cmd_prog, cmd_prog,
		cmd_exit_codes_help);
}

/* ---------------------------------------------------------------- inputs */

/*
 * One input of the check: the files loaded together as one scenario (as
 * `run` loads its arguments), reported under @name.
 */
struct check_input {
	char *name;   /* owned: the file or directory the report names */
	char **paths; /* owned, @npaths of them */
	size_t npaths;
};

static void add_input(struct check_input **in, size_t *n, const char *name, char **paths,
		      size_t npaths)
{
	*in = xreallocarray(*in, *n + 1, sizeof(**in));
	(*in)[*n] = (struct check_input){ xstrdup(name), paths, npaths };
	(*n)++;
}

/* An input of one file (or one directory, loaded whole): @path itself. */
static void add_single(struct check_input **in, size_t *n, const char *path)
{
	char **p = xcalloc(1, sizeof(*p));

	p[0] = xstrdup(path);
	add_input(in, n, path, p, 1);
}

static void release_input(struct check_input *in)
{
	for (size_t i = 0; i < in->npaths; i++)
		free(in->paths[i]);
	free(in->paths);
	free(in->name);
}

/* The file @path names, by device and inode (false when it cannot be read). */
static bool file_key(const char *path, dev_t *dev, ino_t *ino)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return false;
	*dev = st.st_dev;
	*ino = st.st_ino;
	return true;
}

/*
 * expand() - the inputs of argument @arg appended to @in.  A directory with
 * at most one Scenario document is one input, loaded whole as `run DIR`
 * loads it: its plain manifests are one cluster (a Rollout in one file, its
 * Workspaces in another).  A directory of several scenario files stands for
 * each of them on its own (two Scenario documents cannot be loaded as one),
 * and its plain manifests that none of them reads (includes) are one more
 * input, named by the directory.  Anything else is itself (the loader
 * reports what is wrong with it).  @lim bounds the look into each file.
 */
static void expand(const char *arg, const struct limits *lim, struct check_input **in, size_t *n)
{
	size_t nfiles, nscn = 0, nplain = 0, nread = 0;
	char **files = dl_paths(arg, &nfiles), **plain;
	bool *is_scn;
	struct read_key {
		dev_t dev;
		ino_t ino;
	} *read = NULL; /* the files the scenarios read */

	if (!nfiles) {
		/* Not a directory, or one the loader will say holds no scenario. */
		free(files);
		add_single(in, n, arg);
		return;
	}
	is_scn = xcalloc(nfiles, sizeof(*is_scn));
	for (size_t i = 0; i < nfiles; i++) {
		struct scenario s;
		struct diag d;

		/* Only a look: the input's own load reports what is wrong. */
		diag_init(&d);
		diag_set_max(&d, 1);
		scn_init(&s);
		scn_load_static_lim((const char *const *)&files[i], 1, lim, &s, &d);
		is_scn[i] = s.has_scenario_doc;
		nscn += is_scn[i];
		for (size_t k = 0; is_scn[i] && k < s.nfiles; k++) {
			read = xreallocarray(read, nread + 1, sizeof(*read));
			if (file_key(s.files[k], &read[nread].dev, &read[nread].ino))
				nread++;
		}
		scn_release(&s);
		diag_release(&d);
	}
	if (nscn <= 1) {
		add_single(in, n, arg);
		goto out_free_files;
	}
	plain = xcalloc(nfiles, sizeof(*plain));
	for (size_t i = 0; i < nfiles; i++) {
		dev_t dev;
		ino_t ino;
		bool covered = false;

		if (is_scn[i]) {
			add_single(in, n, files[i]);
			continue;
		}
		for (size_t k = 0; k < nread && !covered; k++)
			covered = file_key(files[i], &dev, &ino) && read[k].dev == dev &&
				  read[k].ino == ino;
		if (!covered)
			plain[nplain++] = xstrdup(files[i]);
	}
	if (nplain)
		add_input(in, n, arg, plain, nplain);
	else
		free(plain);
out_free_files:
	free(read);
	free(is_scn);
	for (size_t i = 0; i < nfiles; i++)
		free(files[i]);
	free(files);
}

/* ---------------------------------------------------------------- one input */

struct check_cfg {
	struct cmd_opts o;
	bool trials_set;
	uint32_t trials;
	unsigned jobs;
	bool color_err;
	struct prog *prog;  /* the progress line */
	char where[64];     /* "scenario 3/17", the progress line's prefix */
	const char *outs[2]; /* --junit and --summary (NULL: none), never an input */
};

/* The diagnostics of @d as results: each error (notes appended) becomes a failed check @id. */
/* Appends @from's items to @to, in order, for stderr after @to's own. */
static void append_diag(struct diag *to, const struct diag *from)
{
	for (size_t i = 0; i < from->n; i++)
		diag_add(to, from->items[i].sev, from->items[i].file, from->items[i].mark, "%s", from->items[i].msg);
}

static void add_diag_results(struct exp_scenario_report *r, const struct diag *d, const char *id)
{
	for (size_t i = 0; i < d->n; i++) {
		const struct diag_item *it = &d->items[i];
		char *msg;

		if (it->sev != DIAG_ERROR)
			continue;
		msg = xstrdup(it->msg);
		for (size_t k = i + 1; k < d->n && d->items[k].sev == DIAG_NOTE && !d->items[k].alone; k++) {
			char *m = xasprintf("%s; %s", msg, d->items[k].msg);

			free(msg);
			msg = m;
		}
		exp_report_mark_input_error(r, exp_report_add(r, id, EXP_FAILED, NULL, NULL, msg,
							      it->file, it->mark));
		free(msg);
	}
}

/*
 * run_expectations() - trial 0 with the probes of @e, then trials 1..n-1 on
 * the thread pool (with @run, the options of this scenario), statistics,
 * evaluation into @r.  Returns 0, -1 when the threads could not start
 * (reported), or -2 when the trials would pass --limit total-events (reported).
 */
static int run_expectations(const struct scenario *s, const struct exp_set *e,
			    const struct check_cfg *cfg, const struct run_opts *run,
			    struct exp_scenario_report *r)
{
	uint32_t n = cfg->trials_set ? cfg->trials : e->trials;
	struct trial_row *rows = xcalloc(n, sizeof(*rows));
	struct run_opts ro = *run;
	struct run_result rr = { 0 };
	struct exp_probes p;
	struct plan_stats st;
	int64_t horizon;
	int rc;

	struct cmd_tick tick = { cfg->prog, run->horizon_set ? run->horizon_ms : s->horizon_ms };
	char label[96];

	exp_probes_init(&p, e);
	exp_probes_attach(&p, &ro);
	ro.tick = cmd_run_tick;
	ro.tick_ctx = &tick;
	snprintf(label, sizeof(label), "%s: trial 0", cfg->where);
	prog_start(cfg->prog, label);
	run_scenario(s, &ro, &rr);
	prog_clear(cfg->prog);
	exp_probes_finish(&p, rr.world, rr.end_ms, rr.stop);
	trial_row_from_run(&rr, 0, &rows[0]);
	horizon = rr.horizon_ms;
	run_result_release(&rr);
	if (n > 1) {
		struct trials_opts to = { 0 };
		struct trials_over over = { 0, 0 };
		struct trial_row *more = NULL;
		struct prog_trials pt = { cfg->prog, 1, n };
		uint64_t max_events = cfg->o.lim.v[LIM_TOTAL_EVENTS];

		to.first = 1;
		to.n = n - 1;
		to.jobs = cfg->jobs;
		to.run = *run;
		to.progress = prog_trials_cb;
		to.progress_ctx = &pt;
		snprintf(label, sizeof(label), "%s: trials", cfg->where);
		prog_start(cfg->prog, label);
		/* Trial 0 ran above: what it took counts too. */
		to.max_events = rows[0].events < max_events ? max_events - rows[0].events : 1;
		to.over = &over;
		if (rows[0].events > max_events) {
			over = (struct trials_over){ 0, rows[0].events };
			rc = 1;
		} else {
			rc = trials_run(s, &to, &more);
			over.events += rows[0].events;
		}
		prog_clear(cfg->prog);
		if (rc != 0) {
			if (rc == 1) {
				char key[64];

				snprintf(key, sizeof(key), "%s %" PRIu32,
					 cfg->trials_set ? "-n" : "spec.expect.trials:", n);
				cmd_over_total_events("check", s, &over, max_events, key);
			} else {
				fprintf(stderr, "%s check: cannot start threads: %s\n", cmd_prog,
					strerror(errno));
			}
			trial_row_release(&rows[0]);
			free(rows);
			exp_probes_release(&p);
			return rc == 1 ? -2 : -1;
		}
		memcpy(rows + 1, more, (size_t)(n - 1) * sizeof(*rows));
		free(more);
	}
	plan_stats_compute(rows, n, horizon, (size_t)cfg->o.lim.v[LIM_EXACT_VALUES], &st);
	exp_evaluate(e, &st, rows, n, &p, r);
	plan_stats_release(&st);
	for (uint32_t i = 0; i < n; i++)
		trial_row_release(&rows[i]);
	free(rows);
	exp_probes_release(&p);
	return 0;
}

/*
 * drop_unread_warnings() - the loader's "no FleetRollout gate reads this
 * series" warnings of @d (and their notes) that @lr no longer holds as MS003
 * findings: a variant's gate reads the series (exp_lint_variants()).
 */
static void drop_unread_warnings(struct diag *d, const struct lint_report *lr)
{
	size_t k = 0;
	bool dropping = false;

	for (size_t i = 0; i < d->n; i++) {
		struct diag_item *it = &d->items[i];
		bool keep = true;

		if (it->sev == DIAG_NOTE) {
			keep = it->alone || !dropping;
		} else if (it->sev == DIAG_WARNING &&
			   strstr(it->msg, "no FleetRollout gate reads this series")) {
			keep = false;
			for (size_t j = 0; j < lr->n && !keep; j++)
				keep = !strcmp(lr->items[j].rule->id, "MS003") &&
				       lr->items[j].mark.line == it->mark.line &&
				       lr->items[j].mark.col == it->mark.col &&
				       strstr(lr->items[j].msg, "no FleetRollout gate reads this series");
			dropping = !keep;
		} else {
			dropping = false;
		}
		if (keep) {
			d->items[k++] = *it;
			continue;
		}
		d->nwarnings -= it->sev == DIAG_WARNING;
		d->nshown -= it->sev == DIAG_WARNING;
		free(it->file);
		free(it->msg);
	}
	d->n = k;
}

/*
 * check_one() - everything about input @in into @r.  Returns 0, -1 on an
 * internal failure, -2 when its trials passed `--limit total-events`, or -3
 * when an output is a file its load read (said on stderr).
 */
static int check_one(const struct check_input *in, const struct check_cfg *cfg,
		     struct exp_scenario_report *r)
{
	struct scenario s;
	struct diag d;
	struct lint_report lr;
	struct exp_set e;
	bool loaded;
	/* this scenario's: cmd_clock() sets the horizon it has left */
	struct cmd_opts o = cfg->o;
	int rc = 0;

	exp_report_init(r, in->name);
	diag_init(&d);
	scn_init(&s);
	lint_report_init(&lr);
	exp_set_init(&e);
	{
		char label[96];

		snprintf(label, sizeof(label), "%s: loading", cfg->where);
		cmd_loading(cfg->prog, label);
	}
	diag_set_max(&d, (size_t)cfg->o.lim.v[LIM_ERRORS]);
	if (scn_load_lim((const char *const *)in->paths, in->npaths, &cfg->o.lim, &s, &d) != 0 ||
	    diag_has_errors(&d))
		r->invalid = true;
	cmd_loading(NULL, NULL);
	/* A file this scenario includes is no place for a report: stop before any is written. */
	if (cmd_outputs_not_read("check", cfg->outs, (const char *const[]){ "JUnit report", "summary" },
				 2, &s) != CLI_OK) {
		rc = -3;
		goto out_release_scenario;
	}
	if (s.name)
		r->name = xstrdup(s.name);
	lint_from_diag(&lr, &d);
	/* the clock before the expectations are read: a resumed run's `at` is on the original clock */
	if (!r->invalid && cmd_clock("check", &o, &s, &d) != CLI_OK) {
		char *why = cmd_resume_horizon_refusal(&o, &s);

		r->invalid = true;
		/* a FAIL line says why the checks do not run, not stderr alone */
		if (why)
			exp_report_mark_input_error(r, exp_report_add(r, "horizon", EXP_FAILED, NULL, NULL, why,
								      s.scenario_file ? s.scenario_file : in->name,
								      s.scenario_file ? s.scenario_mark
										      : (struct val_mark){ 0, 0 }));
		free(why);
	}
	r->start_unix_ms = s.start_unix_ms;
	lint_scenario(&lr, &s);
	/* the manifests and spec loaded: spec.expect is checked whatever the variants' errors */
	loaded = !r->invalid;
	/* Variants are linted; their expectations are not evaluated (docs/ci.md). */
	if (!r->invalid) {
		struct diag vd;

		diag_init(&vd);
		if (exp_lint_variants(&lr, &s, &vd) != 0)
			r->invalid = true;
		lint_from_diag(&lr, &vd);
		/* (after the loader's, as the loader's own come first on stderr) */
		append_diag(&d, &vd);
		diag_release(&vd);
		drop_unread_warnings(&d, &lr);
	}
	lint_report_sort(&lr);
	{
		struct diag ed;

		/*
		 * Parsed even when the manifests did not load, only to list the
		 * expectations that will not run; the diagnostics then say nothing
		 * the loader's do not (a step of a refused Rollout is "unknown").
		 */
		diag_init(&ed);
		if (exp_parse(&s, &e, &ed) != 0 && loaded)
			r->invalid = true;
		/* said last, and only of inputs with nothing else wrong: the other errors say more */
		if (!r->invalid) {
			struct diag nd;

			diag_init(&nd);
			if (scn_refuse_nothing_to_simulate(&s, &nd) != 0)
				r->invalid = true;
			lint_from_diag(&lr, &nd);
			append_diag(&d, &nd);
			diag_release(&nd);
		}
		if (loaded && ed.n)
			diag_print(&ed, stderr, cfg->color_err);
		if (d.n)
			diag_print(&d, stderr, cfg->color_err);
		if (loaded)
			add_diag_results(r, &ed, "expect");
		/* An invalid input is not checked: its listed findings are neither excused nor required. */
		exp_report_add_lint(r, &lr, r->invalid ? NULL : &e);
		diag_release(&ed);
	}
	if (r->invalid)
		exp_report_add_skipped(r, &e, "the input is invalid");
	else
		rc = run_expectations(&s, &e, cfg, &o.run, r);
out_release_scenario:
	exp_set_release(&e);
	lint_report_release(&lr);
	scn_release(&s);
	diag_release(&d);
	return rc;
}

/* ---------------------------------------------------------------- output */

/* print_lines() - the check lines of @r to @out (stdout, or stderr when a document goes to stdout). */
static void print_lines(FILE *out, const struct exp_scenario_report *r, bool color)
{
	static const char *const word[] = { "PASS", "FAIL", "WARN", "INFO", "SKIP" };
	static const char *const col[] = { "\033[32m", "\033[31m", "\033[33m", "\033[36m",
					   "\033[2m" };

	/* An invalid input is named first; its findings follow as for a valid one. */
	/* Names and messages may hold input text: quoted, never raw control characters. */
	char *input = qt_text(r->input);

	if (r->invalid)
		fprintf(out, "%sINVALID%s %s\n", color ? "\033[31m" : "", color ? "\033[0m" : "",
			input);
	if (!r->n && !r->invalid) {
		char ttc[GT_DURATION_BUFSZ] = "";

		if (r->fig.completed == r->fig.ntrials && r->fig.ntrials == 1)
			gt_format_duration((int64_t)r->fig.ttc_p50, ttc, sizeof(ttc));
		fprintf(out, "%sPASS%s  %s: no findings and no expectations (trial 0 %s%s%s%s%s)\n",
			color ? col[0] : "", color ? "\033[0m" : "", input,
			r->fig.completed ? "completed" : "did not complete", ttc[0] ? " in " : "",
			ttc, ttc[0] && r->fig.ttc_from ? ", " : "",
			ttc[0] && r->fig.ttc_from ? r->fig.ttc_from : "");
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct exp_result *x = &r->items[i];
		char *file = qt_text(x->file), *id = qt_text(x->id), *msg = qt_text(x->message);

		fprintf(out, "%s%s%s  %s", color ? col[x->outcome] : "", word[x->outcome],
			color ? "\033[0m" : "", file ? file : input);
		if (x->mark.line)
			fprintf(out, ":%u:%u", x->mark.line, x->mark.col);
		fprintf(out, ": %s: %s\n", id, msg);
		free(file);
		free(id);
		free(msg);
	}
	free(input);
}

/* The reports of every checked scenario, for the writers of cmd_write_file(). */
struct reports_arg {
	const struct exp_scenario_report *r;
	size_t n;
};

static int put_junit(FILE *f, const void *arg)
{
	const struct reports_arg *a = arg;

	return junit_write(f, a->r, a->n);
}

static int put_summary(FILE *f, const void *arg)
{
	const struct reports_arg *a = arg;

	return ghs_write(f, a->r, a->n, GHS_MAX_BYTES);
}

static unsigned default_jobs(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	if (c < 1)
		return 1;
	return c > CHECK_MAX_JOBS ? CHECK_MAX_JOBS : (unsigned)c;
}

const struct option cmd_check_longopts[] = {
	{ "trials", required_argument, NULL, 'n' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "github", no_argument, NULL, OPT_GITHUB },
	{ "summary", required_argument, NULL, OPT_SUMMARY },
	CMD_LONGOPT_SEED, CMD_LONGOPT_UNTIL, CMD_LONGOPT_NOW, CMD_LONGOPT_HORIZON,
	CMD_LONGOPT_QUIET, CMD_LONGOPT_COLOR, CMD_LONGOPT_NO_COLOR,
	CMD_LONGOPT_HELP, CMD_LONGOPT_LIMIT, { NULL, 0, NULL, 0 },
};

int cmd_check(int argc, char **argv)
{
	struct check_cfg cfg = { 0 };
	const char *junit = NULL, *summary = NULL;
	bool github = false, color;
	FILE *lines;
	struct check_input *inputs = NULL;
	size_t ninputs = 0, ndone = 0, failed = 0, invalid = 0, checks = 0, skipped = 0;
	struct exp_scenario_report *reps;
	uint64_t v;
	struct prog prog;
	struct cmd_seen seen = { 0 };
	int rc, c;

	cmd_opts_init(&cfg.o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:qhn:j:", cmd_check_longopts, NULL)) != -1) {
		if ((rc = cmd_once("check", cmd_check_longopts, c, &seen)) != CLI_OK)
			return rc;
		switch (c) {
		case 'n':
			if (cli_parse_count(optarg, 1, EXP_MAX_TRIALS, &v) != 0) {
				fprintf(stderr,
					"%s check: invalid trial count '%s': expected a whole number from 1 to %d\n"
					"try '%s check --help'\n",
					cmd_prog, optarg, EXP_MAX_TRIALS, cmd_prog);
				return CLI_USAGE;
			}
			cfg.trials_set = true;
			cfg.trials = (uint32_t)v;
			continue;
		case 'j':
			if (cli_parse_count(optarg, 1, CHECK_MAX_JOBS, &v) != 0) {
				fprintf(stderr,
					"%s check: invalid job count '%s': expected a whole number of threads from 1 to %d\n"
					"try '%s check --help'\n",
					cmd_prog, optarg, CHECK_MAX_JOBS, cmd_prog);
				return CLI_USAGE;
			}
			cfg.jobs = (unsigned)v;
			continue;
		case OPT_JUNIT:
			junit = optarg;
			continue;
		case OPT_SUMMARY:
			summary = optarg;
			continue;
		case OPT_GITHUB:
			github = true;
			continue;
		default:
			break;
		}
		if ((rc = cmd_opt_common(c, "check", cmd_usage_check, argv, &cfg.o)) >= 0)
			return rc;
	}
	if (optind >= argc) {
		fprintf(stderr, "%s check: no scenario given\ntry '%s check --help'\n", cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	{
		/* stdout holds one document or the lines, never a mix. */
		static const char *const opts[] = { "--junit", "--summary" };
		const char *const outs[] = { junit, summary };
		bool junit_out = junit && !strcmp(junit, "-");
		bool summary_out = summary && !strcmp(summary, "-");

		if ((rc = cmd_distinct_outputs("check", opts, outs, 2)) != CLI_OK)
			return rc;
		if ((junit_out || summary_out) && github) {
			fprintf(stderr, "%s check: %s both write to stdout: give the report a file\n"
					"try '%s check --help'\n",
				cmd_prog, junit_out ? "--junit - and --github" : "--summary - and --github",
				cmd_prog);
			return CLI_USAGE;
		}
		lines = junit_out || summary_out ? stderr : stdout;
	}
	{
		/* Before any trial: a report that cannot be written fails now, not after the work. */
		const char *const outs[] = { junit, summary };
		const char *const whats[] = { "JUnit report", "summary" };

		if ((rc = cmd_check_outputs("check", outs, whats, 2, argv + optind, (size_t)(argc - optind))) != CLI_OK)
			return rc;
	}
	cfg.outs[0] = junit;
	cfg.outs[1] = summary;
	if (!cfg.jobs)
		cfg.jobs = default_jobs();
	color = cli_color_wanted(cfg.o.color, lines == stderr ? 2 : 1);
	cfg.color_err = cli_color_wanted(cfg.o.color, 2);
	for (int i = optind; i < argc; i++)
		expand(argv[i], &cfg.o.lim, &inputs, &ninputs);
	reps = xcalloc(ninputs, sizeof(*reps));
	/* (--github writes to stdout too: the line goes to stderr, apart) */
	prog_init(&prog, cfg.o.quiet);
	cfg.prog = &prog;
	rc = CLI_OK;
	for (size_t i = 0; i < ninputs; i++) {
		int one;

		ndone = i + 1;
		snprintf(cfg.where, sizeof(cfg.where), "scenario %zu/%zu", i + 1, ninputs);
		one = check_one(&inputs[i], &cfg, &reps[i]);
		if (one == -2) {
			/* Past --limit total-events: the command stops, reporting nothing. */
			rc = CLI_INVALID;
			goto release_reports;
		}
		if (one == -3) {
			/* An output is an included file: nothing is written. */
			rc = CLI_USAGE;
			goto release_reports;
		}
		if (one != 0) {
			rc = CLI_INTERNAL;
			break;
		}
		print_lines(lines, &reps[i], color);
		failed += reps[i].nfailed;
		invalid += reps[i].invalid;
		/* Each PASS/FAIL/WARN/INFO/SKIP line is a check, "no findings and no expectations" too. */
		checks += reps[i].n ? reps[i].n : !reps[i].invalid;
		skipped += reps[i].nskipped;
	}
	if (rc == CLI_OK)
		rc = invalid ? CLI_INVALID : failed ? CLI_FAILED : CLI_OK;
	if (github)
		gha_write(stdout, reps, ndone);
	/*
	 * "3 checks in 2 scenarios (1 invalid, not run): 3 failed": an invalid
	 * input is a scenario whose checks are its findings only, not a check.
	 */
	fprintf(lines, "%zu check%s in %zu scenario%s", checks, checks == 1 ? "" : "s", ndone,
		ndone == 1 ? "" : "s");
	if (invalid)
		fprintf(lines, " (%zu invalid, not run)", invalid);
	fprintf(lines, ": %zu failed", failed);
	if (skipped)
		fprintf(lines, ", %zu not run", skipped);
	fputc('\n', lines);
	{
		/* Both files or neither, whatever the checks gave. */
		struct reports_arg ra = { reps, ndone };
		int w = CLI_OK;

		if (junit)
			w = cmd_write_file("check", "JUnit report", junit, put_junit, &ra);
		if (w == CLI_OK && summary)
			w = cmd_append_file("check", "summary", summary, put_summary, &ra);
		w = cmd_outputs_done("check", w);
		if (w && rc != CLI_INTERNAL)
			rc = w;
	}
release_reports:
	for (size_t i = 0; i < ndone; i++)
		exp_report_release(&reps[i]);
	free(reps);
	for (size_t i = 0; i < ninputs; i++)
		release_input(&inputs[i]);
	free(inputs);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s check: cannot write to stdout\n", cmd_prog);
		return CLI_IO;
	}
	return rc;
}
