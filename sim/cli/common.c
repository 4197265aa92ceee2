/*
 * What the commands share: the shared options, loading with diagnostics, the
 * report of one run, and output files written atomically (with the writers
 * run and merge both use).
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

#include "sim/cli/cmd.h"
#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/base/gotime.h"
#include "sim/base/suggest.h"
#include "sim/cli/compare.h"
#include "sim/cli/outfile.h"
#include "reports/plan_json.h"
#include "sim/load/yamlload.h"
#include "sim/plan/expect.h"
#include "sim/plan/variant.h"

const char *const cmd_prog = "magos-sim";

const char cmd_exit_codes_help[] =
	"Exit codes:\n"
	"  0   success\n"
	"  1   an expectation or a check failed\n"
	"  2   usage error (bad command line)\n"
	"  3   invalid input: an input that cannot be read (missing, unreadable, not\n"
	"      a regular file), is not YAML or is refused, with file:line:col\n"
	"      (lint reports a manifest the API server would refuse as its finding\n"
	"      MS001 and exits 1)\n"
	"  4   an output cannot be written (a file, or stdout on a full disk)\n"
	"  5   out of memory (the message says what was being built)\n"
	"  70  internal error (a bug in magos-sim)\n";

/*
 * The option tables of every command, so that an option given to the wrong
 * command is told apart from a typo.  They are the tables the commands parse
 * with: an option added to a command is known here without more ado.
 */
static const struct {
	const char *cmd;
	const struct option *opts;
} command_longopts[] = {
	{ "run", cmd_run_longopts },         { "check", cmd_check_longopts },
	{ "lint", cmd_lint_longopts },       { "compare", cmd_compare_longopts },
	{ "merge", cmd_merge_longopts },
};

void cmd_opts_init(struct cmd_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->color = "auto";
	o->width = 80;
	lim_init(&o->lim);
}

/* True when @arg ("--json=x", "--json") names an option of some other command. */
static bool known_elsewhere(const char *arg)
{
	size_t len;

	if (strncmp(arg, "--", 2) != 0)
		return false;
	arg += 2;
	len = strcspn(arg, "=");
	for (size_t t = 0; t < sizeof(command_longopts) / sizeof(command_longopts[0]); t++)
		for (const struct option *lo = command_longopts[t].opts; lo->name; lo++)
			if (strlen(lo->name) == len && !strncmp(lo->name, arg, len))
				return true;
	return false;
}

/*
 * The long option of the table @own closest to the unknown @arg ("--jsn" or
 * "--jsn=x"), or NULL when none is close or @arg is not a long option.
 */
static const char *closest_option(const char *arg, const struct option *own)
{
	struct sug s;

	if (strncmp(arg, "--", 2) != 0 || !own)
		return NULL;
	arg += 2;
	sug_init_len(&s, arg, strcspn(arg, "="));
	for (const struct option *lo = own; lo->name; lo++)
		sug_offer(&s, lo->name);
	return sug_best(&s);
}

/* The option table of command @cmd ("run"), or NULL. */
static const struct option *own_options(const char *cmd)
{
	for (size_t t = 0; t < sizeof(command_longopts) / sizeof(command_longopts[0]); t++)
		if (!strcmp(cmd, command_longopts[t].cmd))
			return command_longopts[t].opts;
	return NULL;
}

int cmd_once(const char *cmd, const struct option *opts, int c, struct cmd_seen *seen)
{
	/* Each of these adds to what the ones before it gave: given again, it is not lost. */
	static const char *const repeatable[] = { "limit", "max-regression", "disable" };
	const struct option *lo = opts;

	while (lo->name && !(lo->val == c && lo->has_arg == required_argument))
		lo++;
	if (!lo->name)
		return CLI_OK; /* a flag, or not an option of @cmd (cmd_opt_common() says so) */
	for (size_t i = 0; i < sizeof(repeatable) / sizeof(repeatable[0]); i++)
		if (!strcmp(lo->name, repeatable[i]))
			return CLI_OK;
	for (size_t i = 0; i < seen->n; i++)
		if (seen->c[i] == c) {
			fprintf(stderr, "%s %s: --%s given twice: it takes one value, give it once\n"
					"try '%s %s --help'\n",
				cmd_prog, cmd, lo->name, cmd_prog, cmd);
			return CLI_USAGE;
		}
	if (seen->n < sizeof(seen->c) / sizeof(seen->c[0]))
		seen->c[seen->n++] = c;
	return CLI_OK;
}

int cmd_opt_common(int c, const char *cmd, void (*usage)(FILE *), char **argv,
		   struct cmd_opts *o)
{
	char err[256] = "";
	uint64_t n;
	const char *bad = argv[optind - 1];

	switch (c) {
	case 's':
		if (cli_parse_u64(optarg, &o->run.seed) != 0) {
			fprintf(stderr,
				"%s %s: invalid seed '%s': expected a decimal integer from 0 to 18446744073709551615\n",
				cmd_prog, cmd, optarg);
			return CLI_USAGE;
		}
		o->run.seed_set = true;
		return -1;
	case CMD_OPT_HORIZON:
		if (gt_parse_duration(optarg, &o->run.horizon_ms, err, sizeof(err)) != 0 ||
		    o->run.horizon_ms <= 0) {
			int64_t ns;

			/* Simulated time counts whole milliseconds; Go's text alone
			 * does not say that a well-formed value was too large. */
			if (gt_parse_duration_ns(optarg, &ns, NULL, 0) == GT_ERANGE)
				snprintf(err, sizeof(err),
					 "out of range, the maximum is 2562047h47m16.854775807s");
			fprintf(stderr, "%s %s: invalid horizon '%s': %s\n", cmd_prog, cmd, optarg,
				err[0] ? err : "must be at least 1ms");
			return CLI_USAGE;
		}
		o->run.horizon_set = true;
		return -1;
	case CMD_OPT_TIMELINE:
		if (!strcmp(optarg, "changes"))
			o->timeline = REP_TL_CHANGES;
		else if (!strcmp(optarg, "all"))
			o->timeline = REP_TL_ALL;
		else if (!strcmp(optarg, "none"))
			o->timeline = REP_TL_NONE;
		else {
			fprintf(stderr,
				"%s %s: invalid --timeline '%s': expected changes, all or none\n",
				cmd_prog, cmd, optarg);
			return CLI_USAGE;
		}
		return -1;
	case CMD_OPT_UNTIL:
		if (!strcmp(optarg, "horizon"))
			o->run.until_horizon = true;
		else if (!strcmp(optarg, "complete"))
			o->run.until_horizon = false;
		else {
			fprintf(stderr, "%s %s: invalid --until '%s': expected complete or horizon\n",
				cmd_prog, cmd, optarg);
			return CLI_USAGE;
		}
		return -1;
	case CMD_OPT_JSON:
		o->json = optarg;
		return -1;
	case CMD_OPT_NOW:
		if (gt_parse_rfc3339(optarg, &o->now_ms, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s %s: invalid --now '%s': %s\n", cmd_prog, cmd, optarg, err);
			return CLI_USAGE;
		}
		o->now_set = true;
		return -1;
	case CMD_OPT_LIMIT:
		if (lim_set(&o->lim, optarg, err, sizeof(err)) != 0) {
			fprintf(stderr, "%s %s: %s\n", cmd_prog, cmd, err);
			break;
		}
		return -1;
	case 'q':
		o->quiet = true;
		return -1;
	case CMD_OPT_WIDTH:
		if (cli_parse_count(optarg, 60, 1000, &n) != 0) {
			fprintf(stderr,
				"%s %s: invalid width '%s': expected a whole number of columns from 60 to 1000\n",
				cmd_prog, cmd, optarg);
			return CLI_USAGE;
		}
		o->width = (unsigned)n;
		return -1;
	case CMD_OPT_COLOR:
		if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
			fprintf(stderr, "%s %s: invalid --color '%s': expected auto, always or never\n",
				cmd_prog, cmd, optarg);
			return CLI_USAGE;
		}
		o->color = optarg;
		return -1;
	case CMD_OPT_NO_COLOR:
		o->color = "never";
		return -1;
	case 'h':
		usage(stdout);
		return CLI_OK;
	case ':':
		fprintf(stderr, "%s %s: option '%s' needs a value\n", cmd_prog, cmd, bad);
		break;
	default:
		if (known_elsewhere(bad))
			fprintf(stderr, "%s %s: option '%s' does not apply to this command\n", cmd_prog,
				cmd, bad);
		else if (closest_option(bad, own_options(cmd)))
			fprintf(stderr, "%s %s: unknown option '%s': did you mean '--%s'?\n", cmd_prog,
				cmd, bad, closest_option(bad, own_options(cmd)));
		else
			fprintf(stderr, "%s %s: unknown option '%s'\n", cmd_prog, cmd, bad);
		break;
	}
	fprintf(stderr, "try '%s %s --help'\n", cmd_prog, cmd);
	return CLI_USAGE;
}

static void on_yaml_progress(void *ctx, uint64_t done, uint64_t total)
{
	prog_bytes(ctx, done, total);
}

static struct prog *loading;

void cmd_loading(struct prog *p, const char *label)
{
	if (p && p->on) {
		prog_start(p, label);
		yl_set_progress(on_yaml_progress, p);
		loading = p;
	} else if (!p && loading) {
		yl_set_progress(NULL, NULL);
		prog_clear(loading);
		loading = NULL;
	}
}

void cmd_run_tick(void *ctx, int64_t now_ms, uint64_t events)
{
	const struct cmd_tick *t = ctx;

	prog_sim(t->p, now_ms, t->horizon_ms, events);
}

/* The out-of-memory label of the main thread while it loads or writes (engine/xalloc.h). */
static char what_buf[512];

char *cmd_resume_horizon_refusal(const struct cmd_opts *o, const struct scenario *s)
{
	/* the horizon on the Scenario's clock (a resumed run's: the original run's) */
	int64_t h = o->run.horizon_set ? o->run.horizon_ms : s->horizon_ms + s->horizon_cut_ms;
	char taken[GT_DURATION_BUFSZ], when[GT_RFC3339_BUFSZ], hz[GT_DURATION_BUFSZ],
		more[GT_DURATION_BUFSZ];

	if (!s->resumed || h > s->resumed_ms)
		return NULL;
	gt_format_duration(s->resumed_ms, taken, sizeof(taken));
	gt_format_rfc3339_nano(s->start_unix_ms, when, sizeof(when));
	gt_format_duration(h, hz, sizeof(hz));
	gt_format_duration(s->resumed_ms + h, more, sizeof(more));
	if (o->run.horizon_set)
		return xasprintf("--horizon %s ends at or before the snapshot this run resumes "
				 "from (taken at %s of the original run, %s): --horizon counts from "
				 "the original run's start; give more than %s",
				 hz, taken, when, taken);
	return xasprintf("the snapshot was taken at %s of the original run (%s), at or "
			 "after its horizon (%s), where simulated time ended: nothing is left "
			 "to simulate; give --horizon to run on, counted from the original "
			 "run's start (--horizon %s: as long again)",
			 taken, when, hz, more);
}

int cmd_resume_horizon(const char *cmd, struct cmd_opts *o, struct scenario *s)
{
	char *why = cmd_resume_horizon_refusal(o, s);

	if (why) {
		fprintf(stderr, "%s %s: %s\ntry '%s %s --help'\n", cmd_prog, cmd, why, cmd_prog, cmd);
		free(why);
		return CLI_USAGE;
	}
	if (o->run.horizon_set) {
		/* the run's own length from here on, as every run_opts reader takes it */
		scn_set_horizon(s, o->run.horizon_ms);
		o->run.horizon_ms = s->horizon_ms;
	}
	return CLI_OK;
}

int cmd_clock(const char *cmd, struct cmd_opts *o, struct scenario *s, struct diag *d)
{
	if (o->now_set)
		scn_set_clock(s, o->now_ms, SCN_CLOCK_NOW);
	scn_warn_later_times(s, d);
	scn_warn_other_run(s, o->run.seed_set ? o->run.seed : s->seed, o->run.seed_set, d);
	return cmd_resume_horizon(cmd, o, s);
}

void cmd_building(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what_buf, sizeof(what_buf), fmt, ap);
	va_end(ap);
	xalloc_what(what_buf);
}

int cmd_load(char *const *paths, size_t n, const struct limits *lim, struct scenario *s,
	     bool color, struct prog *p)
{
	struct diag d, vd;
	int rc = 0;

	if (n > 1)
		cmd_building("loading %s and %zu more input%s", paths[0], n - 1, n > 2 ? "s" : "");
	else
		cmd_building("loading %s", n ? paths[0] : "the inputs");
	diag_init(&d);
	diag_init(&vd);
	diag_set_max(&d, (size_t)lim->v[LIM_ERRORS]);
	diag_set_max(&vd, (size_t)lim->v[LIM_ERRORS]);
	scn_init(s);
	cmd_loading(p, "loading");
	if (scn_load_lim((const char *const *)paths, n, lim, s, &d) != 0 || diag_has_errors(&d))
		rc = CLI_INVALID;
	cmd_loading(NULL, NULL);
	if (!rc) {
		struct diag ed;
		struct exp_set e;

		/*
		 * spec.expect is not evaluated here, but a scenario `check` refuses
		 * for it is refused here too, with the same diagnostics printed first
		 * as `check` prints them: a typo in an expectation must not pass a
		 * run unnoticed and fail only in CI.
		 */
		diag_init(&ed);
		if (exp_parse(s, &e, &ed) != 0)
			rc = CLI_INVALID;
		if (ed.n)
			diag_print(&ed, stderr, color);
		exp_set_release(&e);
		diag_release(&ed);
		/*
		 * Nor do invalid variants pass a run of the base: `run -n`, `lint`
		 * and `check` refuse them.  Their warnings are left to the commands
		 * that run them (printed once, there).
		 */
		if (var_check(s, &vd) != 0)
			rc = CLI_INVALID;
	}
	/* said last, and only of inputs with nothing else wrong: the other errors say more */
	if (!rc && scn_refuse_nothing_to_simulate(s, &d) != 0)
		rc = CLI_INVALID;
	if (d.n)
		diag_print(&d, stderr, color);
	if (diag_has_errors(&vd))
		diag_print(&vd, stderr, color);
	diag_release(&vd);
	diag_release(&d);
	return rc;
}

void cmd_fill_rep(struct rep_run *rep, const struct scenario *s, const struct run_result *r)
{
	memset(rep, 0, sizeof(*rep));
	rep->name = s->name;
	rep->seed = r->seed;
	rep->horizon_ms = r->horizon_ms;
	rep->resumed_ms = s->resumed ? s->resumed_ms : 0;
	rep->start_unix_ms = s->start_unix_ms;
	rep->clock_said = scn_clock_said(s);
	rep->files = (const char *const *)s->files;
	rep->nfiles = s->nfiles;
	rep->nobjects = s->nobjs;
	rep->nevents = s->nevents + s->nmevents + s->nfevents;
	rep->stop = des_stop_name(r->stop);
	rep->end_ms = r->end_ms;
	rep->events = des_events(r->world);
	rep->tl = des_timeline(r->world);
	rep->summary = &r->summary;
	rep->obs = r->obs;
	rep->fleets = r->fobs;
	rep->member_attempts = r->fleet != NULL;
	rep->stageset_workers = fleet_glue_ssrc(r->fleet) ? SSC_CONCURRENT_RECONCILES : 0;
	if (r->models) {
		const struct mdl_job_stat *js;
		size_t n = mdl_jobs(r->models, &js);

		rep->capacity.capacity = mdl_capacity(r->models);
		rep->capacity.peak = mdl_capacity_peak(r->models);
		for (size_t i = 0; i < n; i++) {
			int64_t wait;

			rep->capacity.resumed += js[i].resumed;
			if (js[i].resumed || js[i].slot_ms < 0 || js[i].seen_ms < 0)
				continue;
			wait = js[i].slot_ms - js[i].seen_ms;
			rep->capacity.jobs++;
			rep->capacity.total_wait_ms += wait;
			if (wait > rep->capacity.max_wait_ms)
				rep->capacity.max_wait_ms = wait;
		}
	}
}

/*
 * The output files of the running command (sim/cli/outfile.h): each
 * cmd_write_file() writes a temporary, cmd_outputs_done() renames them all
 * or none.
 */
static struct outset outputs;

/* Whether one of them is "-": standard output then holds that document, and no report. */
static bool outputs_stdout;

/* Whether @st (an existing output) is the input @in, or a file directly in it if a directory. */
static bool is_input(const struct stat *st, const char *in)
{
	struct stat ist, est;
	struct dirent *e;
	bool same = false;
	DIR *d;

	if (!strcmp(in, "-") || stat(in, &ist) != 0)
		return false;
	if (!S_ISDIR(ist.st_mode))
		return ist.st_dev == st->st_dev && ist.st_ino == st->st_ino;
	if (ist.st_dev != st->st_dev || !(d = opendir(in)))
		return false;
	while (!same && (e = readdir(d)))
		same = e->d_ino == st->st_ino && fstatat(dirfd(d), e->d_name, &est, 0) == 0 &&
		       est.st_dev == st->st_dev && est.st_ino == st->st_ino;
	closedir(d);
	return same;
}

/* @path without leading "./" (so "./x" and "x" compare equal). */
static const char *bare_path(const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return path;
}

int cmd_distinct_outputs(const char *cmd, const char *const *opts, const char *const *paths,
			 size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!paths[i])
			continue;
		if (!*paths[i]) {
			fprintf(stderr, "%s %s: %s needs a file name, not an empty one\n"
					"try '%s %s --help'\n",
				cmd_prog, cmd, opts[i], cmd_prog, cmd);
			return CLI_USAGE;
		}
		for (size_t j = 0; j < i; j++) {
			if (!paths[j])
				continue;
			if (!strcmp(paths[i], "-") && !strcmp(paths[j], "-")) {
				fprintf(stderr, "%s %s: %s - and %s - both write to stdout: give one a "
						"file\ntry '%s %s --help'\n",
					cmd_prog, cmd, opts[j], opts[i], cmd_prog, cmd);
				return CLI_USAGE;
			}
			if (!strcmp(bare_path(paths[i]), bare_path(paths[j])) ||
			    of_same_file(paths[i], paths[j])) {
				fprintf(stderr, "%s %s: %s and %s both write to '%s': give each its "
						"own file\ntry '%s %s --help'\n",
					cmd_prog, cmd, opts[j], opts[i], paths[i], cmd_prog, cmd);
				return CLI_USAGE;
			}
		}
	}
	return CLI_OK;
}

int cmd_check_outputs(const char *cmd, const char *const *paths, const char *const *what,
		      size_t n, char *const *inputs, size_t ninputs)
{
	for (size_t i = 0; i < n; i++) {
		const char *w = what ? what[i] : NULL;
		struct stat st;

		if (!paths[i] || !strcmp(paths[i], "-") || stat(paths[i], &st) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		for (size_t j = 0; j < ninputs; j++) {
			if (!is_input(&st, inputs[j]))
				continue;
			fprintf(stderr,
				"%s %s: %s%s'%s' is also an input (%s): writing it would replace what "
				"was read; give the output another name\n",
				cmd_prog, cmd, w ? w : "", w ? " " : "", paths[i], inputs[j]);
			return CLI_USAGE;
		}
	}
	for (size_t i = 0; i < n; i++) {
		const char *w = what ? what[i] : NULL;
		const char *why = paths[i] ? of_refused(paths[i]) : NULL;

		if (why) {
			fprintf(stderr, "%s %s: cannot write %s%s'%s': it is %s, not a place for "
				"an output\n", cmd_prog, cmd, w ? w : "", w ? " " : "", paths[i], why);
			return CLI_IO;
		}
		if (!paths[i] || of_check(paths[i]) == 0)
			continue;
		/* The words cmd_write_file() would print for the same failure. */
		fprintf(stderr, "%s %s: cannot write %s%s'%s': %s\n", cmd_prog, cmd, w ? w : "",
			w ? " " : "", paths[i], strerror(errno));
		return CLI_IO;
	}
	return CLI_OK;
}

int cmd_outputs_not_read(const char *cmd, const char *const *paths, const char *const *what,
			 size_t n, const struct scenario *s)
{
	for (size_t j = 0; j < s->nfiles; j++) {
		struct stat in;

		if (!strcmp(s->files[j], "-") || stat(s->files[j], &in) != 0)
			continue;
		for (size_t i = 0; i < n; i++) {
			const char *w = what ? what[i] : NULL;
			struct stat st;

			if (!paths[i] || !strcmp(paths[i], "-") || stat(paths[i], &st) != 0 ||
			    !S_ISREG(st.st_mode) || st.st_dev != in.st_dev || st.st_ino != in.st_ino)
				continue;
			fprintf(stderr,
				"%s %s: %s%s'%s' is also an input (%s, read by the load): writing it "
				"would replace what was read; give the output another name\n",
				cmd_prog, cmd, w ? w : "", w ? " " : "", paths[i], s->files[j]);
			return CLI_USAGE;
		}
	}
	return CLI_OK;
}

/*
 * Adds @path to the outputs with @add (os_add() or os_add_append()): CLI_OK,
 * or on failure tells why on stderr, drops every output added so far and
 * gives CLI_IO.  The arguments are those of cmd_write_file().
 */
static int add_output(int (*add)(struct outset *, const char *, int (*)(FILE *, const void *), const void *),
		      const char *cmd, const char *what, const char *path, int (*write)(FILE *f, const void *arg),
		      const void *arg)
{
	if (!strcmp(path, "-"))
		outputs_stdout = true;
	if (add(&outputs, path, write, arg) == 0)
		return CLI_OK;
	fprintf(stderr, "%s %s: cannot write %s%s'%s': %s\n", cmd_prog, cmd, what ? what : "",
		what ? " " : "", path, strerror(errno));
	os_abort(&outputs);
	return CLI_IO;
}

int cmd_write_file(const char *cmd, const char *what, const char *path,
		   int (*write)(FILE *f, const void *arg), const void *arg)
{
	cmd_building("writing %s", path);
	return add_output(os_add, cmd, what, path, write, arg);
}

int cmd_append_file(const char *cmd, const char *what, const char *path,
		    int (*write)(FILE *f, const void *arg), const void *arg)
{
	return add_output(os_add_append, cmd, what, path, write, arg);
}

int cmd_outputs_done(const char *cmd, int rc)
{
	char bad[4096];

	if (rc != CLI_OK) {
		os_abort(&outputs);
		return rc;
	}
	cmd_building("writing the output files");
	if (os_commit(&outputs, bad, sizeof(bad)) == 0)
		return CLI_OK;
	fprintf(stderr, "%s %s: cannot write '%s': %s; no output file was replaced\n", cmd_prog,
		cmd, bad,
		errno == ENXIO ? "a FIFO that no process has open for reading" : strerror(errno));
	return CLI_IO;
}

bool cmd_outputs_stdout(void)
{
	return outputs_stdout;
}

void cmd_outputs_abort(void)
{
	os_abort(&outputs);
}

int cmd_put_plan_json(FILE *f, const void *arg)
{
	return rep_plan_json(f, arg);
}

int cmd_put_rows_csv(FILE *f, const void *arg)
{
	const struct cmd_csv_rows *c = arg;

	return rep_plan_csv(f, c->rows, c->n);
}

int cmd_put_whatif_json(FILE *f, const void *arg)
{
	const struct cmd_whatif_out *w = arg;

	return rep_plan_json_variants(f, w->rp, w->v, w->nv + w->ns);
}

int cmd_put_variants_csv(FILE *f, const void *arg)
{
	const struct cmd_whatif_out *w = arg;
	struct rep_csv_set *sets = xcalloc(w->nv + 1, sizeof(*sets));
	int rc;

	sets[0] = (struct rep_csv_set){ "base", w->rp->rows, w->rp->n };
	for (size_t i = 0; i < w->nv; i++)
		sets[1 + i] = (struct rep_csv_set){ w->v[i].name, w->vrows[i], w->rp->n };
	rc = rep_variants_csv(f, sets, w->nv + 1);
	free(sets);
	return rc;
}

int cmd_put_sweep_csv(FILE *f, const void *arg)
{
	const struct cmd_whatif_out *w = arg;

	return rep_sweep_csv(f, w->param, w->v + w->nv, w->ns);
}

void cmd_over_total_events(const char *cmd, const struct scenario *s, const struct trials_over *ov,
			   uint64_t max, const char *trials_key)
{
	const char *budget = scn_event_budget_capped(s) ? "limit run-events" :
			     s->event_budget ? "spec.limits.eventBudget" :
					       "the budget by the objects";

	fprintf(stderr,
		"%s %s: error: trial %" PRIu32 " takes the events of the trials past %" PRIu64
		": the trials up to it ran %" PRIu64 " (%s; each run may take %" PRIu64
		" events: %s) %s\n",
		cmd_prog, cmd, ov->index, max, ov->events, trials_key, scn_event_budget(s), budget,
		lim_hint(LIM_TOTAL_EVENTS));
}
