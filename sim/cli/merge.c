/*
 * Scale-out: `run --shard K/N` writes the rows of one slice of the trials as
 * a partial result; `magos-sim merge FILES...` checks that the partials make
 * one whole set and prints exactly what one machine would have printed (the
 * statistics are a pure function of the rows in index order).
 */
#include <errno.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/compare.h"
#include "sim/cli/merge.h"
#include "engine/xalloc.h"
#include "sim/plan/stats.h"
#include "sim/plan/sweep.h"
#include "sim/plan/variant.h"
#include "reports/plan_text.h"
#include "reports/variants_text.h"

/* As in sim/cli/run.c: how many trials stopped by a bound get a warning line each. */
#define MERGE_BOUND_WARNED 10

enum merge_optcode {
	MERGE_OPT_MAXREG = CMD_OPT_FIRST_FREE,
	MERGE_OPT_MARKDOWN,
	MERGE_OPT_CSV,
};

void cmd_usage_merge(FILE *f)
{
	fprintf(f,
		"usage: %s merge [OPTIONS] PARTIAL.json...\n"
		"\n"
		"Combines the partial results that `run --shard K/N --json FILE` or\n"
		"`compare --shard K/N --json FILE` wrote (schema magos-sim/partial/v1, or v2\n"
		"for the variants and sweep values of a run) and prints exactly what the\n"
		"unsharded command would have printed.  The files must belong together (same\n"
		"command, scenario names and file digests, --variant, variants and sweep\n"
		"values, seed, horizon, --until, start and trial count) and their slices must\n"
		"be disjoint and cover every trial; otherwise merge says which files disagree\n"
		"(exit 3).  Each partial carries the start (--now, spec.start, a snapshot's)\n"
		"and the horizon its shard ran with, so merge takes neither option.\n"
		"\n"
		"Options:\n"
		"      --json FILE       write the merged result as the unsharded command would\n"
		"                        (magos-sim/trials/v1 or magos-sim/compare/v1); '-'\n"
		"                        writes to stdout instead of the tables\n"
		"      --csv FILE        for run partials: the CSV the unsharded run writes\n"
		"                        (a row per trial, the variants' too; with a sweep, a\n"
		"                        row per value)\n"
		"      --max-regression METRIC=LIMIT[,...]\n"
		"                        for compare partials: as for compare (exit 1)\n"
		"      --markdown FILE   for compare partials: the Markdown table\n"
		"  -q, --quiet           no progress line; for run partials: the outcome\n"
		"                        tables only\n"
		"      --width N         columns (60..1000, default 80)\n"
		"      --color WHEN      auto (default: only on a terminal), always or never\n"
		"      --no-color        same as --color never\n"
		CMD_HELP_LIMIT
		"  -h, --help            this help\n"
		"\n"
		"Examples:\n"
		"  %s run -n 10000 --shard 1/2 --json p1.json scenario.yaml   (machine 1)\n"
		"  %s run -n 10000 --shard 2/2 --json p2.json scenario.yaml   (machine 2)\n"
		"  %s merge p1.json p2.json\n"
		"      what `run -n 10000 scenario.yaml` prints, from the two halves\n"
		"  %s merge --json trials.json --csv trials.csv shard-*.json\n"
		"      the unsharded JSON and CSV\n"
		"\n"
		"%s",
		cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_exit_codes_help);
}

/* The header of a run partial of @s for shard @k of @n, and the base's identity in in[0]. */
static int shard_init(const struct scenario *s, const struct cmd_opts *o, uint32_t ntrials,
		      uint32_t k, uint32_t n, struct partial *p)
{
	memset(p, 0, sizeof(*p));
	p->command = xstrdup("run");
	p->seed = o->run.seed_set ? o->run.seed : s->seed;
	p->horizon_ms = o->run.horizon_set ? o->run.horizon_ms : s->horizon_ms;
	p->until_horizon = o->run.until_horizon;
	/* As run_report() of sim/cli/run.c gives it: merge prints the same UTC lines. */
	p->start_given = s->clock != SCN_CLOCK_DEFAULT;
	p->start_unix_ms = s->start_unix_ms;
	p->resumed_ms = s->resumed ? s->resumed_ms : 0;
	p->total = ntrials;
	p->shard_k = k;
	p->shard_n = n;
	partial_slice(ntrials, k, n, &p->first, &p->n);
	p->nin = 1;
	return cmd_fill_input("run", "scenario", s, &p->in[0]);
}

/* The rows of @p's slice for scenario @s into *@rows (an empty slice runs nothing). */
static int shard_rows(const struct scenario *s, const struct cmd_opts *o, unsigned jobs,
		      const struct partial *p, struct trial_row **rows)
{
	struct trials_opts to = { 0 };
	struct trials_over over;
	struct prog prog;
	struct prog_trials pt = { &prog, 0, p->n };
	int rc;

	if (!p->n)
		return CLI_OK;
	to.first = p->first;
	to.n = p->n;
	to.jobs = jobs;
	to.run = o->run;
	to.progress = prog_trials_cb;
	to.progress_ctx = &pt;
	prog_init(&prog, o->quiet);
	prog_start(&prog, "trials of this shard");
	to.max_events = o->lim.v[LIM_TOTAL_EVENTS];
	to.over = &over;
	rc = trials_run(s, &to, rows);
	prog_clear(&prog);
	if (rc == 1) {
		char key[64];

		snprintf(key, sizeof(key), "--shard: %" PRIu32 " trials", p->n);
		cmd_over_total_events("run", s, &over, to.max_events, key);
		return CLI_INVALID;
	}
	if (rc != 0) {
		fprintf(stderr, "%s run: cannot start threads: %s\n", cmd_prog, strerror(errno));
		return CLI_INTERNAL;
	}
	return CLI_OK;
}

/* Writes @p to --json and says which slice went there (unless -q). */
static int shard_finish(const struct cmd_opts *o, const struct partial *p)
{
	int rc = cmd_write_partial("run", o->json, p);

	if (rc == CLI_OK && !o->quiet && p->n == 0)
		fprintf(stderr,
			"%s run: shard %" PRIu32 "/%" PRIu32 ": no trials in this slice of %" PRIu32
			" (0 written to '%s')\n",
			cmd_prog, p->shard_k, p->shard_n, p->total, o->json);
	else if (rc == CLI_OK && !o->quiet)
		fprintf(stderr,
			"%s run: shard %" PRIu32 "/%" PRIu32 ": trials %" PRIu32 "..%" PRIu32 " of %" PRIu32
			" written to '%s'\n",
			cmd_prog, p->shard_k, p->shard_n, p->first, p->first + p->n - 1, p->total,
			o->json);
	return rc;
}

int cmd_run_shard(const struct scenario *s, const struct cmd_opts *o, uint32_t ntrials,
		  unsigned jobs, uint32_t k, uint32_t n)
{
	struct partial p;
	int rc;

	if ((rc = shard_init(s, o, ntrials, k, n, &p)) == CLI_OK &&
	    (rc = shard_rows(s, o, jobs, &p, &p.in[0].rows)) == CLI_OK)
		rc = shard_finish(o, &p);
	partial_release(&p);
	return rc;
}

int cmd_run_shard_variant(const struct scenario *vs, const char *variant,
			  const struct cmd_opts *o, uint32_t ntrials, unsigned jobs, uint32_t k,
			  uint32_t n)
{
	struct partial p;
	int rc;

	if ((rc = shard_init(vs, o, ntrials, k, n, &p)) == CLI_OK) {
		p.variant = xstrdup(variant);
		if ((rc = shard_rows(vs, o, jobs, &p, &p.in[0].rows)) == CLI_OK)
			rc = shard_finish(o, &p);
	}
	partial_release(&p);
	return rc;
}

/* Prints @d to stderr and empties it; CLI_INVALID when it held an error, else CLI_OK. */
static int flush_diag(struct diag *d, bool color)
{
	int rc = diag_has_errors(d) ? CLI_INVALID : CLI_OK;

	diag_print(d, stderr, color);
	diag_release(d);
	diag_init(d);
	return rc;
}

int cmd_run_shard_sets(const struct scenario *s, const struct cmd_opts *o, uint32_t ntrials,
		       unsigned jobs, uint32_t k, uint32_t n, const struct sweep *cli_sweep)
{
	bool color = cli_color_wanted(o->color, 2);
	struct var_set vs = { 0 };
	struct sweep ssw = { 0 };
	const struct sweep *sw = cli_sweep;
	struct var_def *defs = NULL;
	struct partial p;
	struct diag d;
	size_t nv = 0, ns = 0; /* read at out_release, also before they are known */
	char err[1024];
	int rc;

	memset(&p, 0, sizeof(p));
	diag_init(&d);
	/* As run -n does: --sweep replaces spec.variants and spec.sweep. */
	if (!cli_sweep) {
		var_parse(s, &vs, &d);
		if (sweep_from_scenario(s, &ssw, &d) == 0)
			sw = &ssw;
	}
	if ((rc = flush_diag(&d, color)) != CLI_OK)
		goto out_release;
	nv = vs.n;
	ns = sw ? sw->n : 0;
	defs = xcalloc(ns ? ns : 1, sizeof(*defs));
	if ((rc = shard_init(s, o, ntrials, k, n, &p)) != CLI_OK)
		goto out_release;
	p.has_sets = true;
	p.nsets = nv + ns;
	p.sets = xcalloc(p.nsets ? p.nsets : 1, sizeof(*p.sets));
	p.sweep_param = sw ? xstrdup(sw->param) : NULL;
	for (size_t i = 0; i < nv; i++) {
		p.sets[i].name = xstrdup(vs.v[i].name);
		p.sets[i].description = vs.v[i].description ? xstrdup(vs.v[i].description) : NULL;
	}
	for (size_t i = 0; i < ns; i++) {
		char val[64];

		if (sweep_variant(s, sw, i, &defs[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s run: %s\n", cmd_prog, err);
			rc = cli_sweep ? CLI_USAGE : CLI_INVALID;
			goto out_release;
		}
		sweep_value_text(sw, i, val, sizeof(val));
		p.sets[nv + i].sweep = true;
		p.sets[nv + i].name = xstrdup(defs[i].name);
		p.sets[nv + i].value = xstrdup(val);
	}
	/* Every variant applies before anything runs: a bad one costs no trials. */
	for (size_t i = 0; i < nv + ns; i++) {
		struct var_scenario t;

		if (var_apply(s, i < nv ? &vs.v[i] : &defs[i - nv], &t, &d) == 0)
			var_scenario_release(&t);
	}
	if ((rc = flush_diag(&d, color)) != CLI_OK)
		goto out_release;
	if ((rc = shard_rows(s, o, jobs, &p, &p.in[0].rows)) != CLI_OK)
		goto out_release;
	for (size_t i = 0; i < nv + ns; i++) {
		struct var_scenario t;

		var_apply(s, i < nv ? &vs.v[i] : &defs[i - nv], &t, &d);
		rc = shard_rows(&t.s, o, jobs, &p, &p.sets[i].rows);
		var_scenario_release(&t);
		if (rc != CLI_OK)
			goto out_release;
	}
	rc = shard_finish(o, &p);

out_release:
	partial_release(&p);
	for (size_t i = 0; i < ns && defs; i++)
		var_def_release(&defs[i]);
	free(defs);
	var_set_release(&vs);
	sweep_release(&ssw);
	diag_release(&d);
	return rc;
}

/*
 * The report of merged run partials: what sim/cli/run.c's run_trials() prints
 * after its trials (warnings for trials stopped by a bound, the JSON, the
 * tables), from the rows alone.  tests/compare.sh holds the two to the same
 * bytes.
 */
static int run_report(const struct partial *p, const struct cmd_opts *o, const char *csv)
{
	const struct partial_input *in = &p->in[0];
	struct plan_stats st;
	struct rep_plan rp;
	struct cmd_csv_rows cr;
	size_t warned = 0;
	int rc = CLI_OK;

	plan_stats_compute(in->rows, p->n, p->horizon_ms, (size_t)o->lim.v[LIM_EXACT_VALUES], &st);
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
	rp.start_given = p->start_given;
	rp.start_unix_ms = p->start_unix_ms;
	rp.resumed_ms = p->resumed_ms;
	rp.first = 0;
	rp.rows = in->rows;
	rp.n = p->n;
	rp.st = &st;
	cr = (struct cmd_csv_rows){ in->rows, p->n };
	if (csv)
		rc = cmd_write_file("merge", NULL, csv, cmd_put_rows_csv, &cr);
	if (rc == CLI_OK && o->json)
		rc = cmd_write_file("merge", NULL, o->json, cmd_put_plan_json, &rp);
	rc = cmd_outputs_done("merge", rc);
	if (rc == CLI_OK && !cmd_outputs_stdout()) {
		struct rep_plan_text_opts po = { cli_color_wanted(o->color, 1), o->width, o->quiet };

		if (rep_plan_text(stdout, &rp, &po) != 0)
			rc = CLI_IO;
	}
	plan_stats_release(&st);
	return rc;
}

/*
 * The report of merged what-if partials: what sim/cli/run.c's run_whatif()
 * prints after its trials (the capacity warning, the CSV, the JSON, the
 * variant and sweep tables), from the rows alone.
 */
static int whatif_report(const struct partial *p, const struct cmd_opts *o, const char *csv)
{
	const struct partial_input *in = &p->in[0];
	size_t nv = 0, ns, nsets = p->nsets;
	struct plan_stats base_st, *st = xcalloc(nsets ? nsets : 1, sizeof(*st));
	struct rep_variant *rv = xcalloc(nsets + 1, sizeof(*rv)), *jrv = NULL;
	const struct trial_row **vrows; /* the variants' rows, for the CSV */
	struct cmd_whatif_out w, jw;
	struct cmd_csv_rows cr;
	struct rep_plan rp;
	int rc = CLI_OK;

	while (nv < nsets && !p->sets[nv].sweep)
		nv++;
	ns = nsets - nv;
	plan_stats_compute(in->rows, p->n, p->horizon_ms, (size_t)o->lim.v[LIM_EXACT_VALUES],
			   &base_st);
	if (p->sweep_param && !strcmp(p->sweep_param, "capacity") && base_st.peak_jobs.max == 0)
		fprintf(stderr, "%s merge: warning: sweep of capacity: no trial of the base ran a Job "
				"(this scenario has no Workspaces to plan or apply), so capacity "
				"changes nothing\n",
			cmd_prog);
	rv[0] = (struct rep_variant){ "base", NULL, &base_st };
	for (size_t i = 0; i < nsets; i++) {
		const struct partial_set *ps = &p->sets[i];

		plan_stats_compute(ps->rows, p->n, p->horizon_ms, (size_t)o->lim.v[LIM_EXACT_VALUES],
				   &st[i]);
		rv[1 + i] = (struct rep_variant){ ps->sweep ? ps->value : ps->name, ps->description,
						  &st[i] };
	}
	memset(&rp, 0, sizeof(rp));
	rp.name = in->name;
	rp.files = (const char *const *)in->files;
	rp.nfiles = in->nfiles;
	rp.seed = p->seed;
	rp.horizon_ms = base_st.horizon_ms;
	rp.resumed_ms = p->resumed_ms;
	rp.rows = in->rows;
	rp.n = p->n;
	rp.st = &base_st;
	vrows = xcalloc(nv ? nv : 1, sizeof(*vrows));
	for (size_t i = 0; i < nv; i++)
		vrows[i] = p->sets[i].rows;
	w = (struct cmd_whatif_out){ &rp, rv + 1, nv, ns, p->sweep_param, vrows };
	cr = (struct cmd_csv_rows){ in->rows, p->n };
	if (csv && ns)
		rc = cmd_write_file("merge", NULL, csv, cmd_put_sweep_csv, &w);
	else if (csv && nv)
		rc = cmd_write_file("merge", NULL, csv, cmd_put_variants_csv, &w);
	else if (csv)
		rc = cmd_write_file("merge", NULL, csv, cmd_put_rows_csv, &cr);
	if (rc == CLI_OK && o->json) {
		/*
		 * In the JSON a sweep value is named as its variant is: "PARAM=VALUE"
		 * (a copy of the names: a stream is written when the outputs commit).
		 */
		jrv = xcalloc(nsets + 1, sizeof(*jrv));
		memcpy(jrv, rv, (nsets + 1) * sizeof(*jrv));
		for (size_t i = nv; i < nsets; i++)
			jrv[1 + i].name = p->sets[i].name;
		jw = (struct cmd_whatif_out){ &rp, jrv + 1, nv, ns, p->sweep_param, NULL };
		rc = cmd_write_file("merge", NULL, o->json, cmd_put_whatif_json, &jw);
	}
	rc = cmd_outputs_done("merge", rc);
	free(jrv);
	free(vrows);
	if (rc == CLI_OK && !cmd_outputs_stdout()) {
		bool tcolor = cli_color_wanted(o->color, 1);

		if (nv && rep_variants_text(stdout, rv, nv + 1, rp.seed, p->n, tcolor) != 0)
			rc = CLI_IO;
		if (rc == CLI_OK && nv && ns && fputc('\n', stdout) == EOF)
			rc = CLI_IO;
		if (rc == CLI_OK && ns &&
		    rep_sweep_text(stdout, p->sweep_param, rv + 1 + nv, ns, rp.seed, p->n, tcolor) != 0)
			rc = CLI_IO;
	}
	for (size_t i = 0; i < nsets; i++)
		plan_stats_release(&st[i]);
	plan_stats_release(&base_st);
	free(st);
	free(rv);
	return rc;
}

const struct option cmd_merge_longopts[] = {
	CMD_LONGOPT_JSON, CMD_LONGOPT_QUIET, CMD_LONGOPT_WIDTH, CMD_LONGOPT_COLOR,
	CMD_LONGOPT_NO_COLOR, CMD_LONGOPT_HELP, CMD_LONGOPT_LIMIT,
	{ "max-regression", required_argument, NULL, MERGE_OPT_MAXREG },
	{ "markdown", required_argument, NULL, MERGE_OPT_MARKDOWN },
	{ "csv", required_argument, NULL, MERGE_OPT_CSV },
	{ NULL, 0, NULL, 0 },
};

/*
 * given_once() - refuses a partial result named twice (the same path, the
 * same file by device and inode, or standard input twice): its trials would
 * count twice, which partial_merge() could only call an overlap.  Prints the
 * error.  Returns: CLI_OK, or CLI_USAGE.
 */
static int given_once(char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct stat a, b;
		bool sa = strcmp(paths[i], "-") != 0 && stat(paths[i], &a) == 0;

		for (size_t j = 0; j < i; j++) {
			bool same = !strcmp(paths[i], paths[j]) ||
				    (sa && strcmp(paths[j], "-") != 0 && stat(paths[j], &b) == 0 &&
				     a.st_dev == b.st_dev && a.st_ino == b.st_ino);

			if (!same)
				continue;
			if (!strcmp(paths[i], paths[j]))
				fprintf(stderr, "%s merge: '%s' is given twice: name each partial result once\n",
					cmd_prog, paths[i]);
			else
				fprintf(stderr, "%s merge: '%s' and '%s' are the same file: name each partial "
						"result once\n",
					cmd_prog, paths[j], paths[i]);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

int cmd_merge(int argc, char **argv)
{
	struct cmd_opts o;
	struct cmp_limit *limits = NULL;
	size_t nlimits = 0, nparts = 0;
	uint64_t budget; /* bytes the partials may still hold (--limit input-bytes) */
	const char *markdown = NULL, *csv = NULL;
	struct partial *parts = NULL, merged;
	char err[512];
	struct prog prog;
	struct cmd_seen seen = { 0 };
	int rc = CLI_OK, c;

	cmd_opts_init(&o);
	memset(&merged, 0, sizeof(merged));
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":qh", cmd_merge_longopts, NULL)) != -1) {
		if ((rc = cmd_once("merge", cmd_merge_longopts, c, &seen)) != CLI_OK)
			goto out_free_limits;
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
		if (c == MERGE_OPT_CSV) {
			csv = optarg;
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
	{
		/* Before reading anything: one output per file, and each writable. */
		static const char *const opts[] = { "--json", "--csv", "--markdown" };
		const char *const outs[] = { o.json, csv, markdown };

		if ((rc = cmd_distinct_outputs("merge", opts, outs, 3)) != CLI_OK)
			goto out_free_limits;
		if ((rc = cmd_check_outputs("merge", outs, NULL, 3, argv + optind, (size_t)(argc - optind))) != CLI_OK)
			goto out_free_limits;
	}
	if ((rc = given_once(argv + optind, (size_t)(argc - optind))) != CLI_OK)
		goto out_free_limits;
	nparts = (size_t)(argc - optind);
	parts = xcalloc(nparts, sizeof(*parts));
	budget = o.lim.v[LIM_INPUT_BYTES];
	prog_init(&prog, o.quiet);
	prog_start(&prog, "reading");
	for (size_t i = 0; i < nparts; i++) {
		prog_count(&prog, i, nparts, "partial results");
		if (partial_read(argv[optind + i], &budget, &parts[i], err, sizeof(err)) != 0) {
			prog_clear(&prog);
			fprintf(stderr, "%s merge: %s\n", cmd_prog, err);
			rc = CLI_INVALID;
			goto out_release_parts;
		}
	}
	prog_clear(&prog);
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
		rc = merged.has_sets ? whatif_report(&merged, &o, csv) : run_report(&merged, &o, csv);
	} else if (csv) {
		fprintf(stderr, "%s merge: --csv applies to run partials only\n", cmd_prog);
		rc = CLI_USAGE;
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
