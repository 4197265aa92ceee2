/*
 * magos-sim compare: the change review.  Runs N trials of a base and a head
 * scenario on common random numbers (trial i of both has the same seed),
 * compares them with paired methods (sim/plan/compare.h) and fails when the head
 * is significantly worse than a --max-regression limit allows.
 */
#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/cli/compare.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/base/gotime.h"
#include "reports/compare_json.h"
#include "reports/compare_text.h"
#include "reports/html_mc.h"

#define CMP_DEFAULT_TRIALS 200u
#define CMP_MAX_TRIALS 10000000u
#define CMP_MAX_JOBS 256u

enum compare_optcode {
	COMPARE_OPT_MAXREG = CMD_OPT_FIRST_FREE,
	COMPARE_OPT_MARKDOWN,
	COMPARE_OPT_SHARD,
	COMPARE_OPT_HTML,
};

void cmd_usage_compare(FILE *f)
{
	fprintf(f,
		"usage: %s compare [OPTIONS] BASE HEAD\n"
		"\n"
		"The change review: runs N trials of two scenarios (files or directories,\n"
		"typically the same scenario with the wave policy before and after a pull\n"
		"request) on common random numbers (trial i of both has the same seed), and\n"
		"prints per metric base, head, delta (absolute and %%) and whether the\n"
		"difference is significant.  Both run with the base's seed and horizon unless\n"
		"--seed / --horizon give them (a base resumed from a snapshot of the\n"
		"simulator without a Scenario document: the seed the snapshot names).\n"
		"\n"
		"Methods (two-sided, 5 %% level; trials paired by index):\n"
		"  time-to-complete p50, p90, p95, p99\n"
		"                        paired bootstrap: 1000 resamples (200 above 100000\n"
		"                        trials) drawn from PCG32 seeded by the seed, so\n"
		"                        deterministic; the 95 %% interval of head - base is\n"
		"                        significant when it excludes 0; a censored trial\n"
		"                        counts as the horizon\n"
		"  mean time to complete paired t-test over the trials completed in both\n"
		"  completion and halt probability\n"
		"                        exact McNemar test (binomial on the trials where\n"
		"                        base and head disagree)\n"
		"  blast radius          mean targets reached per trial, paired t-test\n"
		"\n"
		"Options:\n"
		"  -n, --trials N        trials per side (1..10000000, default 200)\n"
		"  -j, --jobs J          threads (1..256, default: the online CPUs); the results\n"
		"                        do not depend on J\n"
		"  -s, --seed N          base seed of both (default: the base's spec.seed)\n"
		"      --horizon DUR     horizon of both (default: the base's spec.horizon), on\n"
		"                        the Scenario's clock as for run: a side resumed from\n"
		"                        a snapshot counts it from the original run's start\n"
		"      --now TIME        wall-clock time of simulated time 0 of both, RFC 3339,\n"
		"                        as for run (overrides spec.start and when a snapshot\n"
		"                        was taken)\n"
		"      --until WHEN      complete (default) or horizon, as for run\n"
		"      --max-regression METRIC=LIMIT[,...]\n"
		"                        exit 1 when the head is worse than LIMIT allows and the\n"
		"                        difference is significant; METRIC p50, p90, p95, p99 or\n"
		"                        mean with LIMIT a percentage of the base (10%%) or a\n"
		"                        duration (5m); haltProbability with an absolute\n"
		"                        probability (0.05 or 5%%: at most 5 points worse);\n"
		"                        blastRadius with an absolute number of targets (2).\n"
		"                        Repeatable\n"
		"      --json FILE       write the comparison as JSON (magos-sim/compare/v1);\n"
		"                        '-' writes to stdout instead of the table\n"
		"      --markdown FILE   write a Markdown table for a pull-request comment\n"
		"      --html FILE       write an HTML page: the table and both CDFs of time\n"
		"                        to complete on one chart\n"
		"      --shard K/N       run only the K-th (1-based) contiguous slice of the\n"
		"                        trials and write a partial result (magos-sim/partial/v1)\n"
		"                        to the --json FILE; combine with `%s merge`\n"
		"  -q, --quiet           no progress line or shard summary on stderr\n"
		"      --color WHEN      auto (default: only on a terminal), always or never\n"
		"      --no-color        same as --color never\n"
		CMD_HELP_LIMIT
		"  -h, --help            this help\n"
		"\n"
		"Examples:\n"
		"  %s compare scenarios/compare/base.yaml scenarios/compare/head.yaml\n"
		"      200 trials of each, the table of deltas and their significance\n"
		"  %s compare --max-regression p95=10%%,haltProbability=5%% a.yaml b.yaml\n"
		"      exit 1 when the head is significantly worse beyond these limits\n"
		"  %s compare -n 1000 --markdown comment.md base.yaml head.yaml\n"
		"      a Markdown table for the pull request\n"
		"\n"
		"%s",
		cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_exit_codes_help);
}

static int put_partial(FILE *f, const void *arg)
{
	return partial_write(f, arg);
}

static int put_json(FILE *f, const void *arg)
{
	return rep_cmp_json(f, arg);
}

static int put_markdown(FILE *f, const void *arg)
{
	return rep_cmp_markdown(f, arg);
}

int cmd_write_partial(const char *cmd, const char *path, const struct partial *p)
{
	return cmd_outputs_done(cmd, cmd_write_file(cmd, NULL, path, put_partial, p));
}

int cmd_fill_input(const char *cmd, const char *role, const struct scenario *s,
		   struct partial_input *in)
{
	memset(in, 0, sizeof(*in));
	in->role = xstrdup(role);
	in->name = xstrdup(s->name ? s->name : "");
	in->nfiles = s->nfiles;
	in->files = xcalloc(s->nfiles ? s->nfiles : 1, sizeof(*in->files));
	for (size_t i = 0; i < s->nfiles; i++)
		in->files[i] = xstrdup(s->files[i]);
	if (partial_digest((const char *const *)s->files, s->nfiles, in->digest) != 0) {
		fprintf(stderr, "%s %s: cannot read the inputs again for their digest: %s\n", cmd_prog,
			cmd, strerror(errno));
		return CLI_INVALID; /* an input that cannot be read, as at loading */
	}
	return CLI_OK;
}

/*
 * compare --html FILE.  Kept here rather than in struct cmd_cmp_out, whose
 * positional initialiser in sim/cli/merge.c would then miss a field; merge has
 * no --html, so only cmd_compare() sets it.
 */
static const char *compare_html;

struct html_arg {
	struct rep_mc_set base, head;
	const struct cmp_result *r;
};

static int put_html(FILE *f, const void *arg)
{
	const struct html_arg *h = arg;

	return rep_html_compare(f, &h->base, &h->head, h->r);
}

int cmd_compare_report(const struct partial *p, const struct cmd_cmp_out *o)
{
	struct cmp_result r;
	struct rep_cmp c;
	struct html_arg ha;
	int rc = CLI_OK;

	cmp_compute(p->in[0].rows, p->in[1].rows, p->n, p->horizon_ms, p->seed, 0, &r);
	memset(&c, 0, sizeof(c));
	c.base_name = p->in[0].name;
	c.head_name = p->in[1].name;
	c.base_files = (const char *const *)p->in[0].files;
	c.nbase_files = p->in[0].nfiles;
	c.head_files = (const char *const *)p->in[1].files;
	c.nhead_files = p->in[1].nfiles;
	c.r = &r;
	c.resumed_ms = p->resumed_ms;
	c.limits = o->limits;
	c.nlimits = o->nlimits;
	if (o->json)
		rc = cmd_write_file(o->cmd, NULL, o->json, put_json, &c);
	if (rc == CLI_OK && o->markdown)
		rc = cmd_write_file(o->cmd, NULL, o->markdown, put_markdown, &c);
	if (rc == CLI_OK && compare_html && !strcmp(o->cmd, "compare")) {
		ha = (struct html_arg){ { p->in[0].name, NULL, p->in[0].rows, p->n, NULL },
					{ p->in[1].name, NULL, p->in[1].rows, p->n, NULL }, &r };
		rc = cmd_write_file(o->cmd, NULL, compare_html, put_html, &ha);
	}
	/* All the files or none, before the table (c, ha and r live until here). */
	rc = cmd_outputs_done(o->cmd, rc);
	if (rc == CLI_OK && !cmd_outputs_stdout() &&
	    rep_cmp_text(stdout, &c, cli_color_wanted(o->color, 1)) != 0)
		rc = CLI_IO;
	if (rc == CLI_OK && rep_cmp_failed(&c)) {
		for (size_t i = 0; i < o->nlimits; i++)
			if (cmp_limit_failed(&r, &o->limits[i]))
				fprintf(stderr, "%s %s: regression: the head breaks --max-regression %s\n",
					cmd_prog, o->cmd, o->limits[i].text);
		rc = CLI_FAILED;
	}
	return rc;
}

/* The trials first..first+count-1 of @s into @in->rows; progress to @pt. */
static int run_side(const struct scenario *s, const struct cmd_opts *o, uint32_t first,
		    uint32_t count, unsigned jobs, struct partial_input *in, struct prog_trials *pt)
{
	struct trials_opts to = { 0 };
	struct trials_over over;
	int rc;

	if (count == 0) {
		in->rows = NULL;
		return CLI_OK;
	}
	to.first = first;
	to.n = count;
	to.jobs = jobs;
	to.run = o->run;
	to.progress = prog_trials_cb;
	to.progress_ctx = pt;
	to.max_events = o->lim.v[LIM_TOTAL_EVENTS];
	to.over = &over;
	rc = trials_run(s, &to, &in->rows);
	if (rc == 1) {
		char key[48];

		prog_clear(pt->p);
		snprintf(key, sizeof(key), "-n %" PRIu32, count);
		cmd_over_total_events("compare", s, &over, to.max_events, key);
		return CLI_INVALID;
	}
	if (rc != 0) {
		prog_clear(pt->p);
		fprintf(stderr, "%s compare: cannot start threads: %s\n", cmd_prog, strerror(errno));
		return CLI_INTERNAL;
	}
	pt->before += count;
	return CLI_OK;
}

static unsigned online_cpus(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	if (c < 1)
		return 1;
	return c > (long)CMP_MAX_JOBS ? CMP_MAX_JOBS : (unsigned)c;
}

const struct option cmd_compare_longopts[] = {
	CMD_LONGOPT_SEED, CMD_LONGOPT_HORIZON, CMD_LONGOPT_UNTIL, CMD_LONGOPT_JSON,
	CMD_LONGOPT_QUIET, CMD_LONGOPT_COLOR, CMD_LONGOPT_NO_COLOR, CMD_LONGOPT_HELP, CMD_LONGOPT_LIMIT,
	CMD_LONGOPT_NOW,
	{ "trials", required_argument, NULL, 'n' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "max-regression", required_argument, NULL, COMPARE_OPT_MAXREG },
	{ "markdown", required_argument, NULL, COMPARE_OPT_MARKDOWN },
	{ "shard", required_argument, NULL, COMPARE_OPT_SHARD },
	{ "html", required_argument, NULL, COMPARE_OPT_HTML },
	{ NULL, 0, NULL, 0 },
};

/* Which engine @s drives: "Magos" (Rollouts), "fleet" (FleetRollouts), both, or NULL (neither). */
static const char *engine_of(const struct scenario *s)
{
	bool magos = false, fleet = false;

	for (size_t i = 0; i < s->nobjs; i++) {
		magos = magos || !strcmp(s->objs[i]->kind, "Rollout");
		fleet = fleet || !strcmp(s->objs[i]->kind, "FleetRollout");
	}
	return magos && fleet ? "Magos and fleet" : magos ? "Magos" : fleet ? "fleet" : NULL;
}

/*
 * note_sides() - says on stderr, once, what of HEAD @head the comparison
 * does not use: its own seed and horizon (what is left of it, once the
 * clock options apply) when they differ from BASE @base's (both sides run
 * with BASE's unless --seed / --horizon choose), and that the two drive
 * different engines, whose times compare only loosely.
 */
static void note_sides(const struct scenario *base, const struct scenario *head,
		       const struct cmd_opts *o)
{
	const char *eb = engine_of(base), *eh = engine_of(head);
	char hb[GT_DURATION_BUFSZ], hh[GT_DURATION_BUFSZ], what[160] = "";

	if (!o->run.seed_set && head->seed != base->seed)
		snprintf(what, sizeof(what), "seed %" PRIu64 " (BASE's: %" PRIu64 ")", head->seed,
			 base->seed);
	if (head->horizon_ms != base->horizon_ms) {
		gt_format_duration(head->horizon_ms, hh, sizeof(hh));
		gt_format_duration(base->horizon_ms, hb, sizeof(hb));
		snprintf(what + strlen(what), sizeof(what) - strlen(what), "%shorizon %s (BASE's: %s)",
			 what[0] ? " and " : "", hh, hb);
	}
	if (what[0])
		fprintf(stderr, "%s compare: note: HEAD's %s not used: both sides run with BASE's, "
				"for common random numbers (--seed and --horizon choose them)\n",
			cmd_prog, what);
	if (eb && eh && strcmp(eb, eh))
		fprintf(stderr, "%s compare: note: BASE drives the %s engine and HEAD the %s engine: "
				"their times compare different controllers\n",
			cmd_prog, eb, eh);
}

/*
 * clock_sides() - the clock options of @o on both sides @s, as run applies
 * them (cmd_clock(): --now, --horizon on the Scenario's clock, a resumed
 * side's horizon, the warnings), each on its own copy of the options; the
 * head is warned about with the seed it runs with, the base's.  Afterwards
 * each side's horizon_ms is what is left of its horizon.
 * Returns: CLI_OK, or CLI_USAGE after printing why.
 */
static int clock_sides(struct scenario *s, const struct cmd_opts *o)
{
	int rc = CLI_OK;

	for (int i = 0; i < 2 && rc == CLI_OK; i++) {
		struct cmd_opts side = *o;
		struct diag d;

		if (i && !side.run.seed_set) {
			side.run.seed_set = true;
			side.run.seed = s[0].seed;
		}
		diag_init(&d);
		rc = cmd_clock("compare", &side, &s[i], &d);
		if (d.n)
			diag_print(&d, stderr, cli_color_wanted(o->color, 2));
		diag_release(&d);
	}
	return rc;
}

int cmd_compare(int argc, char **argv)
{
	struct cmd_opts o;
	struct cmd_cmp_out out = { 0 };
	struct cmp_limit *limits = NULL;
	size_t nlimits = 0;
	struct scenario s[2];
	struct partial p;
	const char *shard = NULL;
	uint32_t ntrials = CMP_DEFAULT_TRIALS, sk = 0, sn = 0, first = 0, count;
	unsigned jobs = 0;
	char err[256];
	uint64_t v;
	struct prog prog;
	struct prog_trials pt = { &prog, 0, 0 };
	struct cmd_seen seen = { 0 };
	int rc = CLI_OK, c, loaded = 0;

	cmd_opts_init(&o);
	memset(&p, 0, sizeof(p));
	compare_html = NULL;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:qhn:j:", cmd_compare_longopts, NULL)) != -1) {
		if ((rc = cmd_once("compare", cmd_compare_longopts, c, &seen)) != CLI_OK)
			goto out_free_limits;
		switch (c) {
		case 'n':
			if (cli_parse_count(optarg, 1, CMP_MAX_TRIALS, &v) != 0) {
				fprintf(stderr,
					"%s compare: invalid trial count '%s': expected a whole number from 1 to %u\n",
					cmd_prog, optarg, CMP_MAX_TRIALS);
				rc = CLI_USAGE;
				goto out_free_limits;
			}
			ntrials = (uint32_t)v;
			continue;
		case 'j':
			if (cli_parse_count(optarg, 1, CMP_MAX_JOBS, &v) != 0) {
				fprintf(stderr,
					"%s compare: invalid job count '%s': expected a whole number of threads from 1 to %u\n",
					cmd_prog, optarg, CMP_MAX_JOBS);
				rc = CLI_USAGE;
				goto out_free_limits;
			}
			jobs = (unsigned)v;
			continue;
		case COMPARE_OPT_MAXREG:
			if (cmp_parse_limits(optarg, &limits, &nlimits, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s compare: --max-regression: %s\n", cmd_prog, err);
				rc = CLI_USAGE;
				goto out_free_limits;
			}
			continue;
		case COMPARE_OPT_MARKDOWN:
			out.markdown = optarg;
			continue;
		case COMPARE_OPT_SHARD:
			shard = optarg;
			continue;
		case COMPARE_OPT_HTML:
			compare_html = optarg;
			continue;
		default:
			break;
		}
		if ((rc = cmd_opt_common(c, "compare", cmd_usage_compare, argv, &o)) >= 0)
			goto out_free_limits;
		rc = CLI_OK;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "%s compare: expected BASE and HEAD, got %d input(s)\ntry '%s compare --help'\n",
			cmd_prog, argc - optind, cmd_prog);
		rc = CLI_USAGE;
		goto out_free_limits;
	}
	if (shard) {
		if (partial_parse_shard(shard, CMD_MAX_SHARDS, &sk, &sn, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s compare: %s\n", cmd_prog, err);
			rc = CLI_USAGE;
			goto out_free_limits;
		}
		if (!o.json || compare_html) {
			fprintf(stderr, "%s compare: --shard needs --json FILE for the partial result "
					"(and takes no --html: merge the shards first)\n",
				cmd_prog);
			rc = CLI_USAGE;
			goto out_free_limits;
		}
	}
	{
		/*
		 * Before any trial: one document on standard output (a second would
		 * run into the first), one output per file, and each writable.
		 */
		static const char *const opts[] = { "--json", "--markdown", "--html" };
		const char *const outs[] = { o.json, out.markdown, compare_html };

		if ((rc = cmd_distinct_outputs("compare", opts, outs, 3)) != CLI_OK)
			goto out_free_limits;
		if ((rc = cmd_check_outputs("compare", outs, NULL, 3, argv + optind,
					     optind < argc ? (size_t)(argc - optind) : 0)) != CLI_OK)
			goto out_free_limits;
	}
	if (!jobs)
		jobs = online_cpus();
	prog_init(&prog, o.quiet);
	for (; loaded < 2; loaded++)
		if ((rc = cmd_load(&argv[optind + loaded], 1, &o.lim, &s[loaded],
				   cli_color_wanted(o.color, 2), &prog)) != 0) {
			loaded++;
			goto out_release_scenarios;
		}
	{
		/* The files spec.include read are known now: none of them is an output either. */
		const char *const outs[] = { o.json, out.markdown, compare_html };

		for (int i = 0; i < loaded; i++)
			if ((rc = cmd_outputs_not_read("compare", outs, NULL, 3, &s[i])) != CLI_OK)
				goto out_release_scenarios;
	}
	if ((rc = clock_sides(s, &o)) != CLI_OK)
		goto out_release_scenarios;
	if (!o.quiet)
		note_sides(&s[0], &s[1], &o);
	/* Common random numbers: one seed and one horizon (the base's length) for both sides. */
	if (!o.run.seed_set) {
		o.run.seed_set = true;
		o.run.seed = s[0].seed;
	}
	o.run.horizon_set = true;
	o.run.horizon_ms = s[0].horizon_ms;
	p.command = xstrdup("compare");
	p.seed = o.run.seed;
	p.horizon_ms = o.run.horizon_ms;
	/* as run's shards: merge refuses shards whose clocks start apart */
	p.start_given = s[0].clock != SCN_CLOCK_DEFAULT;
	p.start_unix_ms = s[0].start_unix_ms;
	p.resumed_ms = s[0].resumed ? s[0].resumed_ms : 0;
	p.until_horizon = o.run.until_horizon;
	p.total = ntrials;
	p.shard_k = sk;
	p.shard_n = sn;
	count = ntrials;
	if (shard)
		partial_slice(ntrials, sk, sn, &first, &count);
	p.first = first;
	p.n = count; /* partial_release() frees the rows of a side that has them */
	p.nin = 2;
	pt.total = 2 * (uint64_t)count;
	prog_start(&prog, "trials of base and head");
	for (int i = 0; i < 2; i++) {
		if ((rc = cmd_fill_input("compare", i ? "head" : "base", &s[i], &p.in[i])) != 0)
			goto out_release_partial;
		if ((rc = run_side(&s[i], &o, first, count, jobs, &p.in[i], &pt)) != 0)
			goto out_release_partial;
	}
	prog_clear(&prog);
	if (shard) {
		rc = cmd_write_partial("compare", o.json, &p);
		if (rc == CLI_OK && !o.quiet && count == 0)
			fprintf(stderr, "%s compare: shard %" PRIu32 "/%" PRIu32 ": no trials in this "
					"slice of %" PRIu32 " (0 written to '%s')\n",
				cmd_prog, sk, sn, ntrials, o.json);
		else if (rc == CLI_OK && !o.quiet)
			fprintf(stderr, "%s compare: shard %" PRIu32 "/%" PRIu32 ": trials %" PRIu32
					"..%" PRIu32 " of %" PRIu32 " written to '%s'\n",
				cmd_prog, sk, sn, first, first + count - 1, ntrials, o.json);
		goto out_release_partial;
	}
	out.cmd = "compare";
	out.json = o.json;
	out.color = o.color;
	out.limits = limits;
	out.nlimits = nlimits;
	rc = cmd_compare_report(&p, &out);

out_release_partial:
	prog_clear(&prog);
	partial_release(&p);
out_release_scenarios:
	for (int i = 0; i < loaded; i++)
		scn_release(&s[i]);
out_free_limits:
	cmp_limits_free(limits, nlimits);
	return rc;
}
