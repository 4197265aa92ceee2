/*
 * Scale-out: `run --shard K/N` writes the rows of one slice of the trials as
 * a partial result; `magos-sim merge FILES...` checks that the partials make
 * one whole set and prints exactly what one machine would have printed (the
 * statistics are a pure function of the rows in index order).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/compare.h"
#include "engine/xalloc.h"
#include "plan/stats.h"
#include "reports/plan_json.h"
#include "reports/plan_text.h"
#include "sim/outfile.h"

/* As in cli/run.c: how many trials stopped by a bound get a warning line each. */
#define MERGE_BOUND_WARNED 10

enum merge_optcode {
	MERGE_OPT_MAXREG = CMD_OPT_FIRST_FREE,
	MERGE_OPT_MARKDOWN,
};

void cmd_usage_merge(FILE *f)
{
	fprintf(f,
		"usage: %s merge [OPTIONS] PARTIAL.json...\n"
		"\n"
		"Combines the partial results that `run --shard K/N --json FILE` or\n"
		"`compare --shard K/N --json FILE` wrote (schema magos-sim/partial/v1) and\n"
		"prints exactly what the unsharded command would have printed.  The files\n"
		"must belong together (same command, scenario names and file digests, seed,\n"
		"horizon, --until and trial count) and their slices must be disjoint and\n"
		"cover every trial; otherwise merge says which files disagree (exit 3).\n"
		"\n"
		"Options:\n"
		"      --json FILE       write the merged result as the unsharded command would\n"
		"                        (magos-sim/trials/v1 or magos-sim/compare/v1); '-'\n"
		"                        writes to stdout instead of the tables\n"
		"      --max-regression METRIC=LIMIT[,...]\n"
		"                        for compare partials: as for compare (exit 1)\n"
		"      --markdown FILE   for compare partials: the Markdown table\n"
		"  -q, --quiet           for run partials: the outcome tables only\n"
		"      --width N         columns (60..1000, default 80)\n"
		"      --color WHEN      auto, always or never;  --no-color\n"
		"  -h, --help            this help\n"
		"\n"
		"%s",
		cmd_prog, cmd_exit_codes_help);
}

static int put_plan_json(FILE *f, const void *arg)
{
	return rep_plan_json(f, arg);
}

static int write_to(const char *path, int (*write)(FILE *, const void *), const void *arg)
{
	struct outfile of;
	int e;

	if (of_open(&of, path) != 0)
		goto out_error;
	if (write(of.f, arg) != 0) {
		e = errno;
		of_abort(&of);
		errno = e;
		goto out_error;
	}
	if (of_commit(&of) != 0)
		goto out_error;
	return CLI_OK;

out_error:
	fprintf(stderr, "%s merge: cannot write '%s': %s\n", cmd_prog, path, strerror(errno));
	return CLI_IO;
}

int cmd_run_shard(const struct scenario *s, const struct cmd_opts *o, uint32_t ntrials,
		  unsigned jobs, uint32_t k, uint32_t n)
{
	struct trials_opts to = { 0 };
	struct partial p;
	int rc;

	memset(&p, 0, sizeof(p));
	p.command = xstrdup("run");
	p.seed = o->run.seed_set ? o->run.seed : s->seed;
	p.horizon_ms = o->run.horizon_set ? o->run.horizon_ms : s->horizon_ms;
	p.until_horizon = o->run.until_horizon;
	p.total = ntrials;
	p.shard_k = k;
	p.shard_n = n;
	partial_slice(ntrials, k, n, &p.first, &p.n);
	p.nin = 1;
	if ((rc = cmd_fill_input("run", "scenario", s, &p.in[0])) != 0)
		goto out_release_partial;
	if (p.n) {
		to.first = p.first;
		to.n = p.n;
		to.jobs = jobs;
		to.run = o->run;
		if (trials_run(s, &to, &p.in[0].rows) != 0) {
			fprintf(stderr, "%s run: cannot start threads: %s\n", cmd_prog, strerror(errno));
			rc = CLI_INTERNAL;
			goto out_release_partial;
		}
	}
	rc = cmd_write_partial("run", o->json, &p);
	if (rc == CLI_OK && !o->quiet && p.n == 0)
		fprintf(stderr,
			"%s run: shard %" PRIu32 "/%" PRIu32 ": no trials in this slice of %" PRIu32
			" (0 written to '%s')\n",
			cmd_prog, k, n, ntrials, o->json);
	else if (rc == CLI_OK && !o->quiet)
		fprintf(stderr,
			"%s run: shard %" PRIu32 "/%" PRIu32 ": trials %" PRIu32 "..%" PRIu32 " of %" PRIu32
			" written to '%s'\n",
			cmd_prog, k, n, p.first, p.first + p.n - 1, ntrials, o->json);

out_release_partial:
	partial_release(&p);
	return rc;
}

/*
 * The report of merged run partials: what cli/run.c's run_trials() prints
 * after its trials (warnings for trials stopped by a bound, the JSON, the
 * tables), from the rows alone.  tests/compare.sh holds the two to the same
 * bytes.
 */
static int run_report(const struct partial *p, const struct cmd_opts *o)
{
	const struct partial_input *in = &p->in[0];
	struct plan_stats st;
	struct rep_plan rp;
	size_t warned = 0;
	int rc = CLI_OK;

	plan_stats_compute(in->rows, p->n, p->horizon_ms, &st);
	for (uint32_t i = 0; i < p->n; i++) {
		const struct trial_row *r = &in->rows[i];

		if (r->stop != DES_LOOP && r->stop != DES_BUDGET)
			continue;
		if (warned++ < MERGE_BOUND_WARNED)
			fprintf(stderr,
				"%s merge: warning: trial %" PRIu32 " (seed %" PRIu64
				") stopped by %s; counted as not completed; %s\n",
				cmd_prog, r->index, r->seed,
				r->stop == DES_LOOP ? "a zero-delay loop" : "the event budget",
				r->bound_note ? r->bound_note : "no object named");
	}
	if (warned > MERGE_BOUND_WARNED)
		fprintf(stderr, "%s merge: warning: %zu more trials stopped by a bound\n", cmd_prog,
			warned - MERGE_BOUND_WARNED);
	memset(&rp, 0, sizeof(rp));
	rp.name = in->name;
	rp.files = (const char *const *)in->files;
	rp.nfiles = in->nfiles;
	rp.seed = p->seed;
	rp.horizon_ms = st.horizon_ms;
	rp.first = 0;
	rp.rows = in->rows;
	rp.n = p->n;
	rp.st = &st;
	if (o->json)
		rc = write_to(o->json, put_plan_json, &rp);
	if (rc == CLI_OK && !(o->json && !strcmp(o->json, "-"))) {
		struct rep_plan_text_opts po = { cli_color_wanted(o->color, 1), o->width, o->quiet };

		if (rep_plan_text(stdout, &rp, &po) != 0)
			rc = CLI_IO;
	}
	plan_stats_release(&st);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_LONGOPT_JSON, CMD_LONGOPT_QUIET, CMD_LONGOPT_WIDTH, CMD_LONGOPT_COLOR,
		CMD_LONGOPT_NO_COLOR, CMD_LONGOPT_HELP,
		{ "max-regression", required_argument, NULL, MERGE_OPT_MAXREG },
		{ "markdown", required_argument, NULL, MERGE_OPT_MARKDOWN },
		{ NULL, 0, NULL, 0 },
	};
	struct cmd_opts o;
	struct cmp_limit *limits = NULL;
	size_t nlimits = 0, nparts = 0;
	const char *markdown = NULL;
	struct partial *parts = NULL, merged;
	char err[512];
	int rc = CLI_OK, c;

	cmd_opts_init(&o);
	memset(&merged, 0, sizeof(merged));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":qh", longopts, NULL)) != -1) {
		if (c == MERGE_OPT_MAXREG) {
			if (cmp_parse_limits(optarg, &limits, &nlimits, err, sizeof(err)) != 0) {
				fprintf(stderr, "%s merge: --max-regression: %s\n", cmd_prog, err);
				rc = CLI_USAGE;
				goto out_free_limits;
			}
			continue;
		}
		if (c == MERGE_OPT_MARKDOWN) {
			markdown = optarg;
			continue;
		}
		if ((rc = cmd_opt_common(c, "merge", cmd_usage_merge, argv, &o)) >= 0)
			goto out_free_limits;
		rc = CLI_OK;
	}
	if (optind >= argc) {
		fprintf(stderr, "%s merge: no partial result given\ntry '%s merge --help'\n", cmd_prog,
			cmd_prog);
		rc = CLI_USAGE;
		goto out_free_limits;
	}
	nparts = (size_t)(argc - optind);
	parts = xcalloc(nparts, sizeof(*parts));
	for (size_t i = 0; i < nparts; i++)
		if (partial_read(argv[optind + i], &parts[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s merge: %s\n", cmd_prog, err);
			rc = CLI_INVALID;
			goto out_release_parts;
		}
	if (partial_merge(parts, nparts, (const char *const *)&argv[optind], &merged, err,
			  sizeof(err)) != 0) {
		fprintf(stderr, "%s merge: %s\n", cmd_prog, err);
		rc = CLI_INVALID;
		goto out_release_parts;
	}
	if (!strcmp(merged.command, "run")) {
		if (nlimits || markdown) {
			fprintf(stderr, "%s merge: --max-regression and --markdown apply to compare partials only\n",
				cmd_prog);
			rc = CLI_USAGE;
			goto out_release_merged;
		}
		rc = run_report(&merged, &o);
	} else {
		struct cmd_cmp_out out = { "merge", o.json, markdown, o.color, limits, nlimits };

		rc = cmd_compare_report(&merged, &out);
	}

out_release_merged:
	partial_release(&merged);
out_release_parts:
	for (size_t i = 0; i < nparts; i++)
		partial_release(&parts[i]);
	free(parts);
out_free_limits:
	cmp_limits_free(limits, nlimits);
	return rc;
}
