/*
 * magos-sim run: one seeded run of a scenario, its timeline and outcome; or,
 * with -n N > 1, N Monte Carlo trials on -j threads and their statistics.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sim/cli/cmd.h"
#include "sim/base/gotime.h"
#include "engine/xalloc.h"
#include "sim/cli/compare.h"
#include "sim/cli/merge.h"
#include "sim/load/yamlload.h"
#include "sim/observe/kubeget.h"
#include "sim/plan/stats.h"
#include "sim/plan/sweep.h"
#include "sim/plan/trials.h"
#include "sim/plan/variant.h"
#include "sim/wire/stageset_rc.h"
#include "reports/html.h"
#include "reports/html_mc.h"
#include "reports/plan_text.h"
#include "reports/variants_text.h"
#include "reports/mermaid.h"
#include "reports/trace.h"

/* Bounds of -n and -j. */
#define RUN_MAX_TRIALS 10000000u
#define RUN_MAX_JOBS 256u

/* How many trials stopped by a bound get a warning line each. */
#define RUN_BOUND_WARNED 10

enum run_optcode {
	RUN_OPT_CSV = CMD_OPT_FIRST_FREE,
	RUN_OPT_TRACE,
	RUN_OPT_MERMAID,
	RUN_OPT_VARIANT,
	RUN_OPT_SWEEP,
	RUN_OPT_SHARD,
	RUN_OPT_HTML,
	RUN_OPT_EVENTS,
	RUN_OPT_SNAPSHOT,
	RUN_OPT_AT,
};

void cmd_usage_run(FILE *f)
{
	fprintf(f,
		"usage: %s run [OPTIONS] SCENARIO|MANIFEST|DIR...\n"
		"\n"
		"Loads the inputs (YAML or JSON files, or directories of *.yaml, *.yml and\n"
		"*.json; - is standard input, as in kubectl get -o yaml | %s run -),\n"
		"admits every manifest as the API server would, runs the\n"
		"simulation once and prints the timeline and the outcome.  Without a\n"
		"Scenario document the defaults of scenarios/README.md apply (seed 1,\n"
		"horizon 24h).\n"
		"\n"
		"Options:\n"
		"  -s, --seed N          seed of the run (overrides spec.seed),\n"
		"                        0..18446744073709551615\n"
		"      --horizon DUR     end of simulated time, a Go duration of at least 1ms\n"
		"                        on the Scenario's clock (overrides spec.horizon; a\n"
		"                        run resumed from a --snapshot counts it, as\n"
		"                        spec.horizon, from the original run's start)\n"
		"      --now TIME        wall-clock time of simulated time 0, RFC 3339\n"
		"                        (2026-11-30T14:00:00Z; overrides spec.start, when a\n"
		"                        --snapshot FILE was taken and, for a kubectl\n"
		"                        snapshot, its latest timestamp)\n"
		"      --snapshot T FILE write the simulated cluster at time T as the v1 List\n"
		"                        `kubectl get -A -o yaml` prints to FILE, atomically\n"
		"                        ('-': standard output, instead of the report; T: a\n"
		"                        Go duration on the Scenario's clock, as --horizon,\n"
		"                        or an RFC 3339 time); a run of FILE starts at T\n"
		"                        (single run)\n"
		"      --at T            print the objects at time T (as for --snapshot) as\n"
		"                        kubectl get (the CRDs' printer columns) and\n"
		"                        stagesetctl fleet show them, after the report\n"
		"                        (single run); with --at or --snapshot the run goes\n"
		"                        on to T at least (past the change's completion), T\n"
		"                        within the horizon\n"
		"      --until WHEN      complete (default): end the run when the change\n"
		"                        completes; horizon: run on to the horizon\n"
		"  -n, --trials N        Monte Carlo: run N trials (1..10000000, default 1);\n"
		"                        trial 0 has the run's seed, trial i a seed mixed from\n"
		"                        it and i; with N > 1 the output is statistics tables\n"
		"  -j, --jobs J          threads for the trials (1..256, default: the online\n"
		"                        CPUs); the results do not depend on J\n"
		"      --csv FILE        write one CSV row per trial to FILE, atomically (with\n"
		"                        variants: the base's trials and each variant's, named\n"
		"                        in a last column, variant; with a sweep: one row per\n"
		"                        value)\n"
		"      --trace FILE      write the run as a Chrome trace (opens in Perfetto and\n"
		"                        chrome://tracing) to FILE, atomically (single run)\n"
		"      --mermaid FILE    write a Mermaid gantt block of the steps/waves (and the\n"
		"                        targets when few) to FILE, atomically (single run)\n"
		"      --shard K/N       run only the K-th (1-based) contiguous slice of the -n\n"
		"                        trials and write a partial result (schema\n"
		"                        magos-sim/partial/v1; v2 with variants, a sweep or\n"
		"                        --variant: every set's slice) to the --json FILE;\n"
		"                        `%s merge` combines the N partials into the\n"
		"                        unsharded output\n"
		"      --variant NAME    run only the variant NAME of spec.variants, as if\n"
		"                        it were the scenario (with N > 1 and variants but no\n"
		"                        --variant: the base and every variant, one table)\n"
		"      --sweep P=V1,V2,...|P=FROM..TO/STEPS\n"
		"                        run the trials once per value of parameter P\n"
		"                        (capacity, models.apply.median, ...; overrides\n"
		"                        spec.sweep; once per run) and print a table of\n"
		"                        value x metrics\n"
		"      --json FILE       write timeline and summary as JSON to FILE, atomically;\n"
		"                        with N > 1 the trials and their statistics (schema\n"
		"                        magos-sim/trials/v1); '-' writes to stdout instead\n"
		"                        of the terminal report\n"
		"      --events FILE     write every transition of one run as JSON Lines (one\n"
		"                        object per line: UTC wall time from spec.start,\n"
		"                        elapsed ms, object, change, phase, reason, message;\n"
		"                        schema magos-sim/event/v1) to FILE, atomically;\n"
		"                        '-' writes to stdout instead of the terminal report\n"
		"      --html FILE       write the run as one self-contained HTML page with\n"
		"                        SVG charts to FILE, atomically; with N > 1, variants\n"
		"                        or a sweep: the Monte Carlo page (CDF, halts, blast\n"
		"                        radius, step/wave box plots, sweep curve)\n"
		"      --timeline WHAT   changes (default): phases, reasons, grants, edits;\n"
		"                        all: every object transition with its detail;\n"
		"                        none: only the steps view and the summary\n"
		"  -q, --quiet           print the summary only, no progress bar (with -n:\n"
		"                        outcomes and time to complete alone)\n"
		"      --width N         columns of the terminal timeline (60..1000, default 80)\n"
		"      --color WHEN      auto (default: only on a terminal), always or never\n"
		"      --no-color        same as --color never\n"
		CMD_HELP_LIMIT
		"  -h, --help            this help\n"
		"\n"
		"Examples:\n"
		"  %s run scenarios/payments-platform.yaml\n"
		"      one seeded run: the timeline, the steps and the outcome\n"
		"  %s run scenarios/checkout/\n"
		"      plain manifests without a Scenario document, with the defaults\n"
		"  %s run --html report.html -q scenarios/fleet-gate-halt.yaml\n"
		"      the summary only, and the run as an HTML page with charts\n"
		"  %s run -n 1000 --csv trials.csv scenarios/three-environments.yaml\n"
		"      1000 trials: percentiles, halt probability; a CSV row per trial\n"
		"  %s run -n 200 --sweep capacity=1,2,4,8 scenarios/parallel-cohorts.yaml\n"
		"      the same trials once per runner capacity, one table\n"
		"\n"
		"%s",
		cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog,
		cmd_exit_codes_help);
}

static int write_rep_events(FILE *f, const void *arg)
{
	return rep_events(f, arg);
}

static int write_rep_json(FILE *f, const void *arg)
{
	return rep_json(f, arg);
}

static int write_rep_html(FILE *f, const void *arg)
{
	return rep_html(f, arg);
}

static int write_html_mc(FILE *f, const void *arg)
{
	return rep_html_mc(f, arg);
}

struct picture_arg {
	const struct rep_run *run;
	const struct sp_set *sp;
};

static int write_trace(FILE *f, const void *arg)
{
	const struct picture_arg *a = arg;

	return rep_trace(f, a->run, a->sp, NULL);
}

static int write_mermaid(FILE *f, const void *arg)
{
	const struct picture_arg *a = arg;

	return rep_mermaid(f, a->run, a->sp);
}

/* The default -j: the online CPUs, within 1..RUN_MAX_JOBS. */
static unsigned default_jobs(void)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	if (c < 1)
		return 1;
	return c > (long)RUN_MAX_JOBS ? RUN_MAX_JOBS : (unsigned)c;
}

/*
 * Where the rows of trials_each() go: into the statistics, and kept in
 * @rows (at their index) only when an output lists every trial (--csv,
 * --json, --html); otherwise released at once, so memory does not grow
 * with the trials beyond the statistics' exact budget.
 */
struct trial_sink {
	struct plan_acc *acc;
	struct trial_row *rows; /* n of them, or NULL */
};

static void take_row(void *ctx, struct trial_row *row)
{
	struct trial_sink *k = ctx;

	plan_acc_add(k->acc, row);
	if (k->rows)
		k->rows[row->index] = *row;
	else
		trial_row_release(row);
}

/*
 * Trials 0..@n-1 of @s into @st, their rows kept in a new array *@keep
 * (the caller frees it) when @keep is non-NULL.  CLI_OK, or CLI_INTERNAL
 * when no thread started (said on stderr).
 */
static int stream_trials(const struct scenario *s, const struct cmd_opts *o, uint32_t n,
			 unsigned jobs, struct prog_trials *pt, struct plan_stats *st,
			 struct trial_row **keep)
{
	struct trials_opts to = { 0 };
	struct trials_over over;
	struct trial_sink k;
	int rc;

	to.first = 0;
	to.n = n;
	to.jobs = jobs;
	to.run = o->run;
	to.progress = prog_trials_cb;
	to.progress_ctx = pt;
	k.acc = plan_acc_new(o->run.horizon_set ? o->run.horizon_ms : s->horizon_ms,
			     (size_t)o->lim.v[LIM_EXACT_VALUES]);
	k.rows = keep ? xcalloc(n ? n : 1, sizeof(*k.rows)) : NULL;
	to.max_events = o->lim.v[LIM_TOTAL_EVENTS];
	to.over = &over;
	rc = trials_each(s, &to, take_row, &k);
	if (rc != 0) {
		prog_clear(pt->p);
		if (rc == 1) {
			char key[48];

			snprintf(key, sizeof(key), "-n %" PRIu32, n);
			cmd_over_total_events("run", s, &over, to.max_events, key);
		} else {
			fprintf(stderr, "%s run: cannot start threads: %s\n", cmd_prog,
				strerror(errno));
		}
		plan_acc_free(k.acc);
		for (uint32_t i = 0; k.rows && i < n; i++)
			trial_row_release(&k.rows[i]);
		free(k.rows);
		return rc == 1 ? CLI_INVALID : CLI_INTERNAL;
	}
	plan_acc_finish(k.acc, st);
	plan_acc_free(k.acc);
	if (keep)
		*keep = k.rows;
	return CLI_OK;
}

/* N > 1: the trials, their statistics and the reports of them. */
static int run_trials(const struct scenario *s, const struct cmd_opts *o, uint32_t n,
		      unsigned jobs, const char *csv, const char *html, struct prog *prog)
{
	struct prog_trials pt = { prog, 0, n };
	struct trial_row *rows = NULL;
	struct plan_stats st;
	struct rep_plan rp;
	struct cmd_csv_rows ca;
	struct rep_mc_set bs;
	struct rep_mc_page pg;
	int rc = CLI_OK;

	prog_start(prog, "trials");
	rc = stream_trials(s, o, n, jobs, &pt, &st, csv || o->json || html ? &rows : NULL);
	if (rc != CLI_OK)
		return rc;
	prog_clear(prog);
	_Static_assert(RUN_BOUND_WARNED <= PLAN_BOUND_KEPT, "the statistics keep the trials warned of");
	for (size_t i = 0; i < st.nbound_kept && i < RUN_BOUND_WARNED; i++) {
		const struct plan_bound_trial *r = &st.bound[i];

		fprintf(stderr,
			"%s run: warning: trial %" PRIu32 " (seed %" PRIu64
			") stopped by %s; counted as not completed; %s\n",
			cmd_prog, r->index, r->seed,
			r->stop == DES_LOOP ? "a zero-delay loop" : "the event budget",
			r->note ? r->note : "no object named");
	}
	if (st.nbound > RUN_BOUND_WARNED)
		fprintf(stderr, "%s run: warning: %zu more trials stopped by a bound\n", cmd_prog,
			st.nbound - RUN_BOUND_WARNED);

	memset(&rp, 0, sizeof(rp));
	rp.name = s->name;
	rp.files = (const char *const *)s->files;
	rp.nfiles = s->nfiles;
	rp.seed = o->run.seed_set ? o->run.seed : s->seed;
	rp.horizon_ms = st.horizon_ms;
	rp.clock_said = scn_clock_said(s);
	/* spec.start written is as real an instant as --now or a snapshot's */
	rp.start_given = s->clock != SCN_CLOCK_DEFAULT;
	rp.start_unix_ms = s->start_unix_ms;
	rp.resumed_ms = s->resumed ? s->resumed_ms : 0;
	rp.first = 0;
	rp.rows = rows;
	rp.n = n;
	rp.st = &st;
	/* (What the writers read lives until cmd_outputs_done(): a stream is written then.) */
	ca = (struct cmd_csv_rows){ rows, n };
	bs = (struct rep_mc_set){ "base", NULL, rows, n, &st };
	pg = (struct rep_mc_page){ s->name, rp.seed, st.horizon_ms, &bs, NULL, 0, NULL, NULL, 0 };
	if (csv)
		rc = cmd_write_file("run", NULL, csv, cmd_put_rows_csv, &ca);
	if (rc == CLI_OK && o->json)
		rc = cmd_write_file("run", NULL, o->json, cmd_put_plan_json, &rp);
	if (rc == CLI_OK && html)
		rc = cmd_write_file("run", NULL, html, write_html_mc, &pg);
	rc = cmd_outputs_done("run", rc);
	if (rc == CLI_OK && !cmd_outputs_stdout()) {
		struct rep_plan_text_opts po = { cli_color_wanted(o->color, 1), o->width, o->quiet };

		if (rep_plan_text(stdout, &rp, &po) != 0)
			rc = CLI_IO;
	}
	plan_stats_release(&st);
	for (uint32_t i = 0; rows && i < n; i++)
		trial_row_release(&rows[i]);
	free(rows);
	return rc;
}

/* ---- variants and sweeps (sim/plan/variant.h, sim/plan/sweep.h) -------------- */

/* Prints @d to stderr; CLI_INVALID when it holds an error, else CLI_OK. */
static int report_diag(struct diag *d, bool color)
{
	int rc = diag_has_errors(d) ? CLI_INVALID : CLI_OK;

	diag_print(d, stderr, color);
	diag_release(d);
	diag_init(d);
	return rc;
}

/* --variant NAME: @s with that variant applied, into @out. */
static int pick_variant(const struct scenario *s, const char *name, struct var_scenario *out,
			bool color)
{
	struct var_set vs;
	const struct var_def *v;
	struct diag d;
	int rc;

	diag_init(&d);
	var_parse(s, &vs, &d);
	if ((rc = report_diag(&d, color)) != CLI_OK)
		goto out_release_set;
	v = var_find(&vs, name);
	if (!v) {
		fprintf(stderr, "%s run: unknown variant '%s'; ", cmd_prog, name);
		if (!vs.n)
			fprintf(stderr, "the scenario has no spec.variants\n");
		for (size_t i = 0; i < vs.n; i++)
			fprintf(stderr, "%s'%s'%s", i ? ", " : "the variants are ", vs.v[i].name,
				i + 1 == vs.n ? "\n" : "");
		rc = CLI_USAGE;
		goto out_release_set;
	}
	var_apply(s, v, out, &d);
	rc = report_diag(&d, color);
out_release_set:
	var_set_release(&vs);
	diag_release(&d);
	return rc;
}

/*
 * The trials of @s and their statistics; @rows kept (caller frees) when
 * non-NULL.  @pt: the progress over every set (its before is this set's
 * first trial among them all).
 */
static int whatif_trials(const struct scenario *s, const struct cmd_opts *o, uint32_t n,
			 unsigned jobs, struct plan_stats *st, struct trial_row **keep,
			 struct prog_trials *pt)
{
	int rc = stream_trials(s, o, n, jobs, pt, st, keep);

	if (rc == CLI_OK)
		pt->before += n;
	return rc;
}

/*
 * N trials of the base, of every variant of spec.variants (unless @cli_sweep)
 * and of every value of the sweep (@cli_sweep, else spec.sweep), all on the
 * same trial seeds; the variant table and/or the sweep table.
 */
static int run_whatif(const struct scenario *s, const struct cmd_opts *o, uint32_t n,
		      unsigned jobs, const char *csv, const char *html, const struct sweep *cli_sweep,
		      struct prog *prog)
{
	struct prog_trials pt = { prog, 0, 0 };
	bool color = cli_color_wanted(o->color, 2);
	struct var_set vs = { 0 };
	struct sweep ssw = { 0 };
	const struct sweep *sw = cli_sweep;
	struct var_def *defs = NULL;
	struct plan_stats *st = NULL, base_st;
	struct rep_variant *rv = NULL;
	struct trial_row *rows = NULL, **vrows = NULL; /* vrows: per variant/value, for --html */
	struct rep_plan rp;
	struct cmd_whatif_out w = { 0 }, jw = { 0 };
	struct rep_variant *jrv = NULL; /* rv with the sweep values named for the JSON */
	struct rep_mc_set *ms = NULL;   /* the sets of the --html page */
	struct rep_mc_page pg;
	struct cmd_csv_rows ca;
	struct diag d;
	size_t nv = 0, ns = 0, nst = 0;
	char err[1024], (*vals)[64] = NULL;
	int rc;

	diag_init(&d);
	if (!cli_sweep) {
		var_parse(s, &vs, &d);
		if (sweep_from_scenario(s, &ssw, &d) == 0)
			sw = &ssw;
	}
	if ((rc = report_diag(&d, color)) != CLI_OK)
		goto out_release;
	nv = vs.n;
	ns = sw ? sw->n : 0;
	defs = xcalloc(ns ? ns : 1, sizeof(*defs));
	vals = xcalloc(ns ? ns : 1, sizeof(*vals));
	for (size_t i = 0; i < ns; i++) {
		if (sweep_variant(s, sw, i, &defs[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "%s run: %s\n", cmd_prog, err);
			rc = cli_sweep ? CLI_USAGE : CLI_INVALID;
			goto out_release;
		}
		sweep_value_text(sw, i, vals[i], sizeof(vals[i]));
	}
	/* Every variant applies before anything runs: a bad one costs no trials. */
	for (size_t i = 0; i < nv + ns; i++) {
		struct var_scenario t;

		if (var_apply(s, i < nv ? &vs.v[i] : &defs[i - nv], &t, &d) == 0)
			var_scenario_release(&t);
	}
	if ((rc = report_diag(&d, color)) != CLI_OK)
		goto out_release;

	/* One line over the trials of the base and of every variant and value. */
	pt.total = (uint64_t)n * (1 + nv + ns);
	prog_start(prog, nv + ns ? "trials of every set" : "trials");
	rc = whatif_trials(s, o, n, jobs, &base_st, csv || o->json || html ? &rows : NULL, &pt);
	if (rc)
		goto out_release;
	if (sw && !strcmp(sw->param, "capacity") && base_st.peak_jobs.max == 0)
		fprintf(stderr, "%s run: warning: sweep of capacity: no trial of the base ran a Job "
				"(this scenario has no Workspaces to plan or apply), so capacity "
				"changes nothing\n",
			cmd_prog);
	st = xcalloc(nv + ns + 1, sizeof(*st));
	rv = xcalloc(nv + ns + 1, sizeof(*rv));
	vrows = xcalloc(nv + ns + 1, sizeof(*vrows));
	rv[0] = (struct rep_variant){ "base", NULL, &base_st };
	for (size_t i = 0; i < nv + ns; i++) {
		struct var_scenario t;

		var_apply(s, i < nv ? &vs.v[i] : &defs[i - nv], &t, &d);
		/* (the CSV lists the variants' trials; with a sweep it is the sweep's table) */
		rc = whatif_trials(&t.s, o, n, jobs, &st[i],
				   html || (csv && !ns && i < nv) ? &vrows[i] : NULL, &pt);
		var_scenario_release(&t);
		if (rc)
			goto out_release_stats;
		nst = i + 1;
		if (i < nv)
			rv[i + 1] = (struct rep_variant){ vs.v[i].name, vs.v[i].description, &st[i] };
		else
			rv[i + 1] = (struct rep_variant){ vals[i - nv], NULL, &st[i] };
	}

	prog_clear(prog);
	memset(&rp, 0, sizeof(rp));
	rp.name = s->name;
	rp.files = (const char *const *)s->files;
	rp.nfiles = s->nfiles;
	rp.seed = o->run.seed_set ? o->run.seed : s->seed;
	rp.horizon_ms = base_st.horizon_ms;
	rp.resumed_ms = s->resumed ? s->resumed_ms : 0;
	rp.rows = rows;
	rp.n = n;
	rp.st = &base_st;
	w = (struct cmd_whatif_out){ &rp, rv + 1, nv, ns, sw ? sw->param : NULL,
				     (const struct trial_row *const *)vrows };
	ca = (struct cmd_csv_rows){ rows, n };
	if (csv && ns)
		rc = cmd_write_file("run", NULL, csv, cmd_put_sweep_csv, &w);
	else if (csv && nv)
		rc = cmd_write_file("run", NULL, csv, cmd_put_variants_csv, &w);
	else if (csv)
		rc = cmd_write_file("run", NULL, csv, cmd_put_rows_csv, &ca);
	if (rc == CLI_OK && o->json) {
		/*
		 * In the JSON a sweep value is named as its variant is: "PARAM=VALUE"
		 * (a copy of the names: a stream is written when the outputs commit).
		 */
		jrv = xcalloc(nv + ns + 1, sizeof(*jrv));
		memcpy(jrv, rv, (nv + ns + 1) * sizeof(*jrv));
		for (size_t i = 0; i < ns; i++)
			jrv[1 + nv + i].name = defs[i].name;
		jw = (struct cmd_whatif_out){ &rp, jrv + 1, nv, ns, sw ? sw->param : NULL, NULL };
		rc = cmd_write_file("run", NULL, o->json, cmd_put_whatif_json, &jw);
	}
	if (rc == CLI_OK && html) {
		ms = xcalloc(nv + ns + 1, sizeof(*ms));
		pg = (struct rep_mc_page){ s->name, rp.seed, base_st.horizon_ms, &ms[0], &ms[1], nv,
					   ns ? sw->param : NULL, &ms[1 + nv], ns };
		ms[0] = (struct rep_mc_set){ "base", NULL, rows, n, &base_st };
		for (size_t i = 0; i < nv + ns; i++)
			ms[1 + i] = (struct rep_mc_set){ rv[1 + i].name, rv[1 + i].description,
							 vrows[i], n, &st[i] };
		rc = cmd_write_file("run", NULL, html, write_html_mc, &pg);
	}
	rc = cmd_outputs_done("run", rc);
	free(ms);
	if (rc == CLI_OK && !cmd_outputs_stdout()) {
		bool tcolor = cli_color_wanted(o->color, 1);

		if (nv && rep_variants_text(stdout, rv, nv + 1, rp.seed, n, tcolor) != 0)
			rc = CLI_IO;
		if (rc == CLI_OK && nv && ns && fputc('\n', stdout) == EOF)
			rc = CLI_IO;
		if (rc == CLI_OK && ns &&
		    rep_sweep_text(stdout, sw->param, rv + 1 + nv, ns, rp.seed, n, tcolor) != 0)
			rc = CLI_IO;
	}

out_release_stats:
	prog_clear(prog);
	for (size_t i = 0; i < nst; i++) {
		plan_stats_release(&st[i]);
		for (uint32_t k = 0; vrows[i] && k < n; k++)
			trial_row_release(&vrows[i][k]);
		free(vrows[i]);
	}
	free(vrows);
	free(jrv);
	plan_stats_release(&base_st);
	for (uint32_t i = 0; rows && i < n; i++)
		trial_row_release(&rows[i]);
	free(rows);
	free(st);
	free(rv);
out_release:
	for (size_t i = 0; i < ns && defs; i++)
		var_def_release(&defs[i]);
	free(defs);
	free(vals);
	var_set_release(&vs);
	sweep_release(&ssw);
	diag_release(&d);
	return rc;
}

/*
 * --snapshot T FILE and --at T: what the world looks like at T, taken by a
 * probe of the run (after everything else due at T).  The run goes on to T
 * at least (a completed change does not end it before), so the world at T
 * is what the controllers did by then; only a run that failed before T (its
 * event budget, a zero-delay loop) is looked at where it stopped, and says so.
 */
struct look {
	const char *arg;  /* T as given; NULL: not asked for */
	int64_t at_ms;    /* T in simulated ms, resolved after loading */
	bool taken;
	int64_t taken_ms; /* when it was taken: T, or the end of a run that stopped before */
	struct val *list; /* --snapshot: the List */
	char *tables;     /* --at: the kubectl tables and fleet views */
};

struct looks {
	const struct scenario *s;
	const struct run_result *r; /* the run looked at (its StageSet world) */
	struct look snap, at;
	const char *snap_file;
	uint64_t seed;              /* the run's */
	struct look *probe_of[2]; /* the probe index's look */
	int64_t probe_ms[2];
};

static void take_look(struct look *l, bool snapshot, struct des *w, const struct scenario *s,
		      const struct run_result *r, uint64_t seed)
{
	int64_t anchor = s->start_unix_ms;
	const struct ssrc *ss = r ? fleet_glue_ssrc(r->fleet) : NULL;

	if (snapshot) {
		l->list = kg_snapshot(w, anchor, anchor - s->resumed_ms,
				      s->has_scenario_doc ? s->name : NULL, seed, r ? r->models : NULL, ss);
		if (r && r->obs)
			run_snapshot_state(l->list, r, w, s);
	} else {
		static const char *const objects_h[] = { "NAMESPACE", "NAME", "STAGESET", "STAGE", "STAGEINVENTORY",
							 NULL };
		size_t nrows;
		char ***rows = ssrc_object_rows(ss, &nrows);

		l->tables = kg_tables(des_api(w), des_now(w), anchor);
		if (nrows)
			l->tables = kg_append_table(l->tables,
						    "# objects the StageSets applied besides their workloads "
						    "(spec.models.sources[].objects), and whose StageInventory lists each",
						    objects_h, rows, nrows);
	}
	l->taken = true;
	l->taken_ms = des_now(w);
}

static void look_probe(void *ctx, size_t i, struct des *w)
{
	struct looks *ls = ctx;
	struct look *l = ls->probe_of[i];

	if (!l->taken)
		take_look(l, l == &ls->snap, w, ls->s, ls->r, ls->seed);
}

/*
 * resolve_look() - T of @l in simulated ms: a Go duration since the start of
 * the Scenario's clock (a resumed run's: the original run's start, so T is
 * the same instant as in the uninterrupted run; scenario.resumed_ms), or an
 * RFC 3339 time.  A T before this run's start is refused: the world then is
 * not in what the run starts from.  Prints the error.
 * Returns: 0, or CLI_USAGE.
 */
static int resolve_look(struct look *l, const char *opt, const struct scenario *s)
{
	int64_t unix_ms, ms;
	char err[128] = "", start[GT_RFC3339_BUFSZ], since[GT_DURATION_BUFSZ];

	if (!l->arg)
		return 0;
	gt_format_rfc3339(s->start_unix_ms, start, sizeof(start));
	gt_format_duration(s->resumed_ms, since, sizeof(since));
	if (gt_parse_duration(l->arg, &ms, err, sizeof(err)) == 0 && ms >= 0) {
		l->at_ms = ms - s->resumed_ms;
		if (l->at_ms >= 0)
			return 0;
		fprintf(stderr,
			"%s run: %s %s is before the snapshot this run resumes from (taken at %s of "
			"the original run, %s): a duration counts from the original run's start; "
			"give %s or later\n",
			cmd_prog, opt, l->arg, since, start, since);
		return CLI_USAGE;
	}
	if (gt_parse_rfc3339(l->arg, &unix_ms, NULL, 0) == 0) {
		l->at_ms = unix_ms - s->start_unix_ms;
		if (l->at_ms >= 0)
			return 0;
		if (s->resumed)
			fprintf(stderr,
				"%s run: %s %s is before the snapshot this run resumes from (%s, "
				"%s of the original run)\n",
				cmd_prog, opt, l->arg, start, since);
		else
			fprintf(stderr, "%s run: %s %s is before the run's clock starts (%s)\n",
				cmd_prog, opt, l->arg, start);
		return CLI_USAGE;
	}
	fprintf(stderr,
		"%s run: invalid %s '%s': expected a Go duration on the Scenario's clock (90s, "
		"1h30m; a resumed run's counts from the original run's start) or an RFC 3339 "
		"time (2026-11-30T14:00:00Z)\ntry '%s run --help'\n",
		cmd_prog, opt, l->arg, cmd_prog);
	return CLI_USAGE;
}

/*
 * check_look_horizon() - T of @l within @horizon_ms (ms on this run's
 * clock): simulated time ends at the horizon, so there is no world after it.
 * A resumed run (@s->resumed_ms) says the horizon and T on the original
 * run's clock, where --horizon counts.
 * Prints the error.  Returns: 0, or CLI_USAGE.
 */
static int check_look_horizon(const struct look *l, const char *opt, int64_t horizon_ms,
			      const struct scenario *s)
{
	char t[GT_DURATION_BUFSZ], h[GT_DURATION_BUFSZ];

	if (!l->arg || l->at_ms <= horizon_ms)
		return 0;
	/* both on the Scenario's clock, as --horizon counts */
	gt_format_duration(l->at_ms + s->resumed_ms, t, sizeof(t));
	gt_format_duration(horizon_ms + s->resumed_ms, h, sizeof(h));
	fprintf(stderr,
		"%s run: %s %s is after the run's horizon (%s), where simulated time ends:\n"
		"give --horizon %s or more, or an earlier %s\ntry '%s run --help'\n",
		cmd_prog, opt, l->arg, h, t, opt, cmd_prog);
	return CLI_USAGE;
}

/* After the run: a look the run stopped before (budget, loop) is taken at its end, and said so. */
static void finish_look(struct look *l, bool snapshot, const char *opt, struct run_result *r,
			const struct scenario *s, uint64_t seed)
{
	char t[GT_DURATION_BUFSZ], end[GT_DURATION_BUFSZ];

	if (!l->arg || l->taken)
		return;
	/* on the Scenario's clock (a resumed run's: the original run's), as T was given */
	gt_format_duration(l->at_ms + s->resumed_ms, t, sizeof(t));
	gt_format_duration(r->end_ms + s->resumed_ms, end, sizeof(end));
	fprintf(stderr,
		"%s run: note: the run stopped at %s (%s), before %s %s: %s the state at %s%s\n",
		cmd_prog, end, des_stop_name(r->stop), opt, t,
		snapshot ? "the snapshot is" : "showing", end,
		r->stop == DES_STOPPED ? " (--until horizon runs on)" : "");
	take_look(l, snapshot, r->world, s, r, seed);
}

static int write_snapshot(FILE *f, const void *arg)
{
	const struct looks *ls = arg;
	char when[GT_RFC3339_BUFSZ], t[GT_DURATION_BUFSZ], *text, *comment;
	int rc;

	/* at (or past) this run's horizon: a resumed run has no time left without --horizon */
	bool at_end = ls->snap.taken_ms >= ls->s->horizon_ms;

	/* to the millisecond: a resumed run's clock starts at the snapshot's instant */
	gt_format_rfc3339_nano(ls->s->start_unix_ms + ls->snap.taken_ms, when, sizeof(when));
	gt_format_duration(ls->s->resumed_ms + ls->snap.taken_ms, t, sizeof(t));
	comment = xasprintf("%s at %s (%s), simulated by magos-sim.\n"
			    "Resume it: magos-sim run %s[scenario.yaml] THIS-FILE (the run's Scenario\n"
			    "document alone, without the spec.include and spec.generate whose objects\n"
			    "this file holds; its times on the original run's clock); it starts where\n"
			    "it was taken, as with run --now %s%s%s%s",
			    ls->s->name, t, when, at_end ? "--horizon LATER " : "", when,
			    at_end ? "\n(taken at the horizon, where simulated time ended: give --horizon\n"
				     "later than " : "",
			    at_end ? t : "",
			    at_end ? " on the original run's clock to run on)" : "");
	rc = yl_emit(ls->snap.list, comment, &text);
	free(comment);
	if (rc != 0) {
		errno = ENOMEM;
		return -1;
	}
	rc = fputs(text, f) < 0 ? -1 : 0;
	free(text);
	return rc;
}

const struct option cmd_run_longopts[] = {
	CMD_LONGOPT_SEED, CMD_LONGOPT_HORIZON, CMD_LONGOPT_JSON, CMD_LONGOPT_QUIET,
	CMD_LONGOPT_WIDTH, CMD_LONGOPT_UNTIL, CMD_LONGOPT_TIMELINE, CMD_LONGOPT_COLOR,
	CMD_LONGOPT_NO_COLOR, CMD_LONGOPT_HELP, CMD_LONGOPT_LIMIT,
	{ "trials", required_argument, NULL, 'n' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "csv", required_argument, NULL, RUN_OPT_CSV },
	{ "trace", required_argument, NULL, RUN_OPT_TRACE },
	{ "mermaid", required_argument, NULL, RUN_OPT_MERMAID },
	{ "variant", required_argument, NULL, RUN_OPT_VARIANT },
	{ "sweep", required_argument, NULL, RUN_OPT_SWEEP },
	{ "shard", required_argument, NULL, RUN_OPT_SHARD },
	{ "html", required_argument, NULL, RUN_OPT_HTML },
	{ "events", required_argument, NULL, RUN_OPT_EVENTS },
	CMD_LONGOPT_NOW,
	{ "snapshot", required_argument, NULL, RUN_OPT_SNAPSHOT },
	{ "at", required_argument, NULL, RUN_OPT_AT },
	{ NULL, 0, NULL, 0 },
};

int cmd_run(int argc, char **argv)
{
	struct cmd_opts o;
	struct scenario s;
	struct run_result r = { 0 };
	struct rep_run rep;
	struct trial_row row;                 /* --csv of the single run */
	struct cmd_csv_rows ca = { &row, 1 };
	struct sp_set sp;                     /* --trace and --mermaid */
	struct picture_arg pa = { &rep, &sp };
	const char *csv = NULL;
	const char *html = NULL;
	const char *variant = NULL;
	uint32_t shard_k = 0, shard_n = 0;
	char shard_err[256];
	struct sweep cli_sweep = { 0 };
	struct var_scenario vsc = { 0 };
	const struct scenario *rs = &s;
	char serr[1024];
	uint64_t v;
	const char *trace = NULL, *mermaid = NULL, *events = NULL;
	uint32_t ntrials = 1;
	unsigned jobs = 0;
	struct prog prog;
	struct cmd_tick tick;
	struct looks looks = { 0 };
	struct cmd_seen seen = { 0 };
	int rc, c;

	cmd_opts_init(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:qhn:j:", cmd_run_longopts, NULL)) != -1) {
		/* (a second --sweep has its own words below) */
		if (c != RUN_OPT_SWEEP && (rc = cmd_once("run", cmd_run_longopts, c, &seen)) != CLI_OK) {
			sweep_release(&cli_sweep);
			return rc;
		}
		switch (c) {
		case 'n':
			if (cli_parse_count(optarg, 1, RUN_MAX_TRIALS, &v) != 0) {
				fprintf(stderr,
					"%s run: invalid trial count '%s': expected a whole number from 1 to %u\n"
					"try '%s run --help'\n",
					cmd_prog, optarg, RUN_MAX_TRIALS, cmd_prog);
				return CLI_USAGE;
			}
			ntrials = (uint32_t)v;
			continue;
		case 'j':
			if (cli_parse_count(optarg, 1, RUN_MAX_JOBS, &v) != 0) {
				fprintf(stderr,
					"%s run: invalid job count '%s': expected a whole number of threads from 1 to %u\n"
					"try '%s run --help'\n",
					cmd_prog, optarg, RUN_MAX_JOBS, cmd_prog);
				return CLI_USAGE;
			}
			jobs = (unsigned)v;
			continue;
		case RUN_OPT_CSV:
			csv = optarg;
			continue;
		case RUN_OPT_HTML:
			html = optarg;
			continue;
		case RUN_OPT_SHARD:
			if (partial_parse_shard(optarg, CMD_MAX_SHARDS, &shard_k, &shard_n, shard_err,
						sizeof(shard_err)) != 0) {
				fprintf(stderr, "%s run: %s\ntry '%s run --help'\n", cmd_prog, shard_err,
					cmd_prog);
				return CLI_USAGE;
			}
			continue;
		case RUN_OPT_VARIANT:
			variant = optarg;
			continue;
		case RUN_OPT_EVENTS:
			events = optarg;
			continue;
		case RUN_OPT_SNAPSHOT:
			/* --snapshot T FILE: the word after T is the file ("-" is one, an option is not) */
			if (optind >= argc || !argv[optind][0] ||
			    (argv[optind][0] == '-' && argv[optind][1])) {
				fprintf(stderr, "%s run: --snapshot needs a time and a file: --snapshot T FILE\n"
						"try '%s run --help'\n",
					cmd_prog, cmd_prog);
				return CLI_USAGE;
			}
			looks.snap.arg = optarg;
			looks.snap_file = argv[optind++];
			continue;
		case RUN_OPT_AT:
			looks.at.arg = optarg;
			continue;
		case RUN_OPT_TRACE:
			trace = optarg;
			continue;
		case RUN_OPT_MERMAID:
			mermaid = optarg;
			continue;
		case RUN_OPT_SWEEP:
			if (cli_sweep.n) {
				/* One sweep per run: a second would silently replace the first. */
				fprintf(stderr, "%s run: --sweep given twice: one parameter per run "
						"(run once per parameter)\ntry '%s run --help'\n",
					cmd_prog, cmd_prog);
				sweep_release(&cli_sweep);
				return CLI_USAGE;
			}
			if (sweep_parse(optarg, &cli_sweep, serr, sizeof(serr)) != 0) {
				fprintf(stderr, "%s run: %s\ntry '%s run --help'\n", cmd_prog, serr,
					cmd_prog);
				return CLI_USAGE;
			}
			continue;
		default:
			break;
		}
		if ((rc = cmd_opt_common(c, "run", cmd_usage_run, argv, &o)) >= 0) {
			sweep_release(&cli_sweep);
			return rc;
		}
	}
	if (optind >= argc && looks.snap_file) {
		/*
		 * `--snapshot 10m scenario.yaml`: the word after T is FILE, so the
		 * scenario meant was taken for the file to write (and would have
		 * been replaced by the snapshot).
		 */
		struct stat st;

		if (strcmp(looks.snap_file, "-") && stat(looks.snap_file, &st) == 0)
			fprintf(stderr, "%s run: --snapshot takes T FILE: '%s' was taken as the FILE "
					"to write and no scenario is left; give both: --snapshot %s "
					"SNAPSHOT.yaml %s\n",
				cmd_prog, looks.snap_file, looks.snap.arg, looks.snap_file);
		else
			fprintf(stderr, "%s run: no scenario given (--snapshot takes T FILE: '%s' "
					"is the FILE to write)\n",
				cmd_prog, looks.snap_file);
		fprintf(stderr, "try '%s run --help'\n", cmd_prog);
		sweep_release(&cli_sweep);
		return CLI_USAGE;
	}
	if (optind >= argc || (variant && cli_sweep.n)) {
		fprintf(stderr, "%s run: %s\ntry '%s run --help'\n", cmd_prog,
			variant && cli_sweep.n ? "--variant and --sweep cannot be combined"
					       : "no scenario given",
			cmd_prog);
		sweep_release(&cli_sweep);
		return CLI_USAGE;
	}
	{
		static const char *const opts[] = { "--json", "--csv", "--html", "--trace",
						    "--mermaid", "--events", "--snapshot" };
		const char *const outs[] = { o.json, csv, html, trace, mermaid, events, looks.snap_file };

		if ((rc = cmd_distinct_outputs("run", opts, outs, 7)) != CLI_OK) {
			sweep_release(&cli_sweep);
			return rc;
		}
	}
	if ((looks.snap.arg || looks.at.arg) && (ntrials > 1 || shard_n || cli_sweep.n)) {
		sweep_release(&cli_sweep);
		fprintf(stderr, "%s run: --snapshot and --at show a single run (no -n above 1,\n"
				"--shard or --sweep)\ntry '%s run --help'\n",
			cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	{
		/* Before any simulation: an output that cannot be written fails now, not after it. */
		const char *const outs[] = { o.json, csv, html, trace, mermaid, events, looks.snap_file };

		if ((rc = cmd_check_outputs("run", outs, NULL, 7, argv + optind, (size_t)(argc - optind))) != CLI_OK) {
			sweep_release(&cli_sweep);
			return rc;
		}
	}
	if ((trace || mermaid || events) && (ntrials > 1 || shard_n || cli_sweep.n)) {
		sweep_release(&cli_sweep);
		fprintf(stderr, "%s run: --trace, --mermaid and --events show a single run (no -n above 1,\n"
				"--shard or --sweep)\ntry '%s run --help'\n",
			cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	if (html && shard_n) {
		sweep_release(&cli_sweep);
		fprintf(stderr, "%s run: --html draws the whole run, not a shard (merge the shards, or run without --shard)\n"
				"try '%s run --help'\n",
			cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	if (shard_n && (!o.json || csv)) {
		sweep_release(&cli_sweep);
		fprintf(stderr, "%s run: --shard writes its partial result to --json FILE (and takes no\n"
				"--csv: give --csv to merge)\ntry '%s run --help'\n",
			cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	if (!jobs)
		jobs = default_jobs();
	/* (JSON on stdout is no reason to be quiet: the line goes to stderr) */
	prog_init(&prog, o.quiet);
	rc = cmd_load(argv + optind, (size_t)(argc - optind), &o.lim, &s,
		      cli_color_wanted(o.color, 2), &prog);
	if (rc)
		goto out_release_scenario;
	{
		/* The files spec.include read are known now: none of them is an output either. */
		const char *const outs[] = { o.json, csv, html, trace, mermaid, events, looks.snap_file };

		if ((rc = cmd_outputs_not_read("run", outs, NULL, 7, &s)) != CLI_OK)
			goto out_release_scenario;
	}
	{
		struct diag d;

		diag_init(&d);
		rc = cmd_clock("run", &o, &s, &d);
		if (d.n)
			diag_print(&d, stderr, cli_color_wanted(o.color, 2));
		diag_release(&d);
		if (rc)
			goto out_release_scenario;
	}
	if ((rc = resolve_look(&looks.snap, "--snapshot", &s)) != 0 ||
	    (rc = resolve_look(&looks.at, "--at", &s)) != 0)
		goto out_release_scenario;
	if (shard_n && variant) {
		/* One variant as if it were the scenario; the partial names it. */
		rc = pick_variant(&s, variant, &vsc, cli_color_wanted(o.color, 2));
		if (rc == CLI_OK)
			rc = cmd_run_shard_variant(&vsc.s, variant, &o, ntrials, jobs, shard_k,
						   shard_n);
		goto out_release_scenario;
	}
	if (shard_n && (cli_sweep.n || s.variants || s.sweep)) {
		/* The base and every variant / sweep value, each its slice of the trials. */
		rc = cmd_run_shard_sets(&s, &o, ntrials, jobs, shard_k, shard_n,
					cli_sweep.n ? &cli_sweep : NULL);
		goto out_release_scenario;
	}
	if (shard_n) {
		rc = cmd_run_shard(&s, &o, ntrials, jobs, shard_k, shard_n);
		goto out_release_scenario;
	}
	if (variant) {
		rc = pick_variant(&s, variant, &vsc, cli_color_wanted(o.color, 2));
		if (rc)
			goto out_release_scenario;
		rs = &vsc.s;
	} else if (cli_sweep.n || (ntrials > 1 && (s.variants || s.sweep))) {
		rc = run_whatif(&s, &o, ntrials, jobs, csv, html, cli_sweep.n ? &cli_sweep : NULL,
				&prog);
		goto out_release_scenario;
	}
	if (ntrials > 1) {
		rc = run_trials(rs, &o, ntrials, jobs, csv, html, &prog);
		goto out_release_scenario;
	}
	/* One run is the base: say the variants and sweep are there, and how to run them. */
	if (!variant && (s.variants || s.sweep) && !o.quiet)
		fprintf(stderr,
			"%s run: note: one run of the base; the scenario's %s run with -n N%s\n",
			cmd_prog,
			s.variants && s.sweep ? "variants and sweep" : s.variants ? "variants" : "sweep",
			s.variants ? " (--variant NAME runs one)" : "");

	{
		/* The one run's progress: simulated time (a copy: trials never tick). */
		struct run_opts ro = o.run;
		int64_t r_horizon = o.run.horizon_set ? o.run.horizon_ms : rs->horizon_ms;

		tick = (struct cmd_tick){ &prog, r_horizon };
		ro.tick = cmd_run_tick;
		ro.tick_ctx = &tick;
		looks.s = rs;
		looks.r = &r;
		looks.seed = o.run.seed_set ? o.run.seed : rs->seed;
		if ((rc = check_look_horizon(&looks.snap, "--snapshot", r_horizon, rs)) != 0 ||
		    (rc = check_look_horizon(&looks.at, "--at", r_horizon, rs)) != 0)
			goto out_release_scenario;
		if (looks.snap.arg) {
			looks.probe_of[ro.nprobes] = &looks.snap;
			looks.probe_ms[ro.nprobes++] = looks.snap.at_ms;
		}
		if (looks.at.arg) {
			looks.probe_of[ro.nprobes] = &looks.at;
			looks.probe_ms[ro.nprobes++] = looks.at.at_ms;
		}
		if (ro.nprobes) {
			/* the world at T is what the controllers did by T: a completed change runs on */
			ro.run_to_set = true;
			ro.run_to_ms = looks.probe_ms[0];
			if (ro.nprobes > 1 && looks.probe_ms[1] > ro.run_to_ms)
				ro.run_to_ms = looks.probe_ms[1];
			ro.probe_ms = looks.probe_ms;
			ro.probe = look_probe;
			ro.probe_ctx = &looks;
		}
		cmd_building("running the simulation of %s", rs->name);
		prog_start(&prog, "simulating");
		run_scenario(rs, &ro, &r);
		prog_clear(&prog);
	}
	cmd_fill_rep(&rep, rs, &r);
	finish_look(&looks.snap, true, "--snapshot", &r, rs, looks.seed);
	finish_look(&looks.at, false, "--at", &r, rs, looks.seed);

	if (looks.snap_file)
		rc = cmd_write_file("run", "snapshot", looks.snap_file, write_snapshot, &looks);
	if (rc == CLI_OK && csv) {
		trial_row_from_run(&r, 0, &row);
		rc = cmd_write_file("run", NULL, csv, cmd_put_rows_csv, &ca);
	}
	if (rc == CLI_OK && (trace || mermaid)) {
		sp_build(&sp, &rep);
		if (trace)
			rc = cmd_write_file("run", NULL, trace, write_trace, &pa);
		if (rc == CLI_OK && mermaid)
			rc = cmd_write_file("run", NULL, mermaid, write_mermaid, &pa);
	}
	if (rc == CLI_OK && o.json)
		rc = cmd_write_file("run", NULL, o.json, write_rep_json, &rep);
	if (rc == CLI_OK && html)
		rc = cmd_write_file("run", NULL, html, write_rep_html, &rep);
	if (rc == CLI_OK && events)
		rc = cmd_write_file("run", NULL, events, write_rep_events, &rep);
	/* Every file or none; the streams' arguments (row, sp, rep) live until here. */
	rc = cmd_outputs_done("run", rc);
	if (csv)
		trial_row_release(&row);
	if (trace || mermaid)
		sp_release(&sp);
	if (rc)
		goto out_release_run;
	if (!cmd_outputs_stdout()) {
		struct rep_text_opts to = { cli_color_wanted(o.color, 1), o.quiet, o.width,
					    o.timeline };

		if (rep_text(stdout, &rep, &to) != 0)
			rc = CLI_IO;
	} else if (looks.at.tables) {
		/* standard output holds a document: the view goes to standard error */
		if (fprintf(stderr, "%s", looks.at.tables) < 0)
			rc = CLI_IO;
		free(looks.at.tables);
		looks.at.tables = NULL;
	}
	if (rc == CLI_OK && looks.at.tables) {
		char t[GT_DURATION_BUFSZ], when[GT_RFC3339_BUFSZ];

		/* on the Scenario's clock (a resumed run's: the original run's), as --at was given */
		gt_format_duration(rs->resumed_ms + looks.at.taken_ms, t, sizeof(t));
		gt_format_rfc3339(rs->start_unix_ms + looks.at.taken_ms, when, sizeof(when));
		if (printf("\nAt %s (%s):\n\n%s", t, when, looks.at.tables) < 0 || fflush(stdout))
			rc = CLI_IO;
	}

out_release_run:
	val_free(looks.snap.list);
	free(looks.at.tables);
	run_result_release(&r);
out_release_scenario:
	var_scenario_release(&vsc);
	sweep_release(&cli_sweep);
	scn_release(&s);
	return rc;
}
