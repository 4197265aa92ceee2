/*
 * magos-sim: command-line entry point.  Parses the command, wires loading,
 * running and reporting together, and funnels every exit through one place
 * that checks stdout really was written (a report piped into a full disk must
 * not look like success).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reports/report.h"
#include "sim/cli.h"
#include "sim/diag.h"
#include "sim/gotime.h"
#include "sim/outfile.h"
#include "sim/rng.h"
#include "sim/run.h"
#include "sim/scenario.h"

#ifndef MAGOS_VERSION
#define MAGOS_VERSION "0.1.0"
#endif

static const char *prog = "magos-sim";

static const char exit_codes_help[] =
	"Exit codes:\n"
	"  0   success\n"
	"  1   an expectation or a check failed\n"
	"  2   usage error (bad command line)\n"
	"  3   invalid input (scenario or manifest), with file:line:col diagnostics\n"
	"  4   reading or writing a file failed\n"
	"  70  internal error (a bug in magos-sim)\n";

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: %s COMMAND [OPTIONS] [FILES...]\n"
		"\n"
		"Offline discrete-event simulator of the Magos Rollout and the\n"
		"stageset-controller FleetRollout: loads a scenario (a Scenario document plus\n"
		"Kubernetes manifests) and runs it on a simulated clock.\n"
		"\n"
		"Commands:\n"
		"  run       run a scenario once and print its timeline and outcome\n"
		"  check     load and run scenarios, for CI (exit 1 when a run hits a bound)\n"
		"  lint      load and admit manifests as the API server would, report problems\n"
		"  compare   run two scenarios and show their outcomes side by side\n"
		"  version   print the version\n"
		"  help      show this help, or `help COMMAND` for one command\n"
		"\n"
		"%s",
		prog, exit_codes_help);
}

static void usage_run(FILE *f)
{
	fprintf(f,
		"usage: %s run [OPTIONS] SCENARIO|MANIFEST|DIR...\n"
		"\n"
		"Loads the inputs (YAML files, or directories of *.yaml/*.yml), admits every\n"
		"manifest as the API server would, runs the simulation once and prints the\n"
		"timeline and the outcome.  Without a Scenario document the defaults of\n"
		"scenarios/README.md apply (seed 1, horizon 24h).\n"
		"\n"
		"Options:\n"
		"  -s, --seed N          seed of the run (overrides spec.seed),\n"
		"                        0..18446744073709551615\n"
		"      --horizon DUR     end of simulated time, a Go duration of at least 1ms\n"
		"                        (overrides spec.horizon)\n"
		"      --until WHEN      complete (default): end the run when the change\n"
		"                        completes; horizon: run on to the horizon\n"
		"      --json FILE       write timeline and summary as JSON to FILE, atomically;\n"
		"                        '-' writes to stdout instead of the terminal timeline\n"
		"      --timeline WHAT   changes (default): phases, reasons, grants, edits;\n"
		"                        all: every object transition with its detail;\n"
		"                        none: only the steps view and the summary\n"
		"  -q, --quiet           print the summary only\n"
		"      --width N         columns of the terminal timeline (60..1000, default 80)\n"
		"      --color WHEN      auto (default: only on a terminal), always or never\n"
		"      --no-color        same as --color never\n"
		"  -h, --help            this help\n"
		"\n"
		"%s",
		prog, exit_codes_help);
}

static void usage_check(FILE *f)
{
	fprintf(f,
		"usage: %s check [OPTIONS] SCENARIO...\n"
		"\n"
		"Loads and runs each scenario in turn and prints one line per scenario with its\n"
		"outcome.  A scenario fails its check when its run is stopped by a bound (a\n"
		"zero-delay loop, or the event budget).  Exit 0 when all pass, 1 when any fails,\n"
		"3 when any is invalid.\n"
		"\n"
		"Options:\n"
		"  -s, --seed N          seed for every run (overrides spec.seed)\n"
		"      --until WHEN      complete (default) or horizon, as for run\n"
		"      --color WHEN      auto, always or never;  --no-color\n"
		"  -h, --help            this help\n"
		"\n"
		"%s",
		prog, exit_codes_help);
}

static void usage_lint(FILE *f)
{
	fprintf(f,
		"usage: %s lint [OPTIONS] FILE|DIR...\n"
		"\n"
		"Loads each input (a scenario, a manifest file or a directory of them) on its\n"
		"own and admits every manifest as the API server would (schema, defaults, CEL\n"
		"rules) without running anything; prints each problem as file:line:col.\n"
		"Exit 0 when all inputs are valid, 3 otherwise.\n"
		"\n"
		"Options:\n"
		"      --color WHEN      auto, always or never;  --no-color\n"
		"  -h, --help            this help\n"
		"\n"
		"%s",
		prog, exit_codes_help);
}

static void usage_compare(FILE *f)
{
	fprintf(f,
		"usage: %s compare [OPTIONS] BASE HEAD\n"
		"\n"
		"Runs two scenarios (files or directories) and prints their outcomes side by\n"
		"side: completion, time to complete, halt.  Each uses its own spec.seed unless\n"
		"--seed gives both the same one.\n"
		"\n"
		"Options:\n"
		"  -s, --seed N          seed for both runs (overrides spec.seed)\n"
		"      --until WHEN      complete (default) or horizon, as for run\n"
		"      --color WHEN      auto, always or never;  --no-color\n"
		"  -h, --help            this help\n"
		"\n"
		"%s",
		prog, exit_codes_help);
}

enum { OPT_HORIZON = 256, OPT_JSON, OPT_COLOR, OPT_NO_COLOR, OPT_WIDTH, OPT_UNTIL, OPT_TIMELINE };

struct opts {
	struct run_opts run;
	const char *json;
	const char *color;
	bool quiet;
	unsigned width;
	enum rep_timeline timeline;
};

/* Parses the options shared by the commands.  Returns the exit code on error, -1 to go on. */
static int parse_opts(int argc, char **argv, const char *cmd, void (*usage)(FILE *),
		      struct opts *o)
{
	static const struct option longopts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "horizon", required_argument, NULL, OPT_HORIZON },
		{ "json", required_argument, NULL, OPT_JSON },
		{ "quiet", no_argument, NULL, 'q' },
		{ "width", required_argument, NULL, OPT_WIDTH },
		{ "until", required_argument, NULL, OPT_UNTIL },
		{ "timeline", required_argument, NULL, OPT_TIMELINE },
		{ "color", required_argument, NULL, OPT_COLOR },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool is_run = strcmp(cmd, "run") == 0;
	int c;

	memset(o, 0, sizeof(*o));
	o->color = "auto";
	o->width = 80;
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1) {
		char err[256] = "";
		uint64_t n;

		switch (c) {
		case 's':
			if (cli_parse_u64(optarg, &o->run.seed) != 0) {
				fprintf(stderr,
					"%s %s: invalid seed '%s': expected a decimal integer from 0 to 18446744073709551615\n",
					prog, cmd, optarg);
				return CLI_USAGE;
			}
			o->run.seed_set = true;
			break;
		case OPT_HORIZON:
			if (!is_run)
				goto not_here;
			if (gt_parse_duration(optarg, &o->run.horizon_ms, err, sizeof(err)) != 0 ||
			    o->run.horizon_ms <= 0) {
				/* Simulated time counts whole milliseconds. */
				fprintf(stderr,
					"%s %s: invalid horizon '%s': %s\n", prog, cmd, optarg,
					err[0] ? err : "must be at least 1ms");
				return CLI_USAGE;
			}
			o->run.horizon_set = true;
			break;
		case OPT_TIMELINE:
			if (!is_run)
				goto not_here;
			if (!strcmp(optarg, "changes"))
				o->timeline = REP_TL_CHANGES;
			else if (!strcmp(optarg, "all"))
				o->timeline = REP_TL_ALL;
			else if (!strcmp(optarg, "none"))
				o->timeline = REP_TL_NONE;
			else {
				fprintf(stderr,
					"%s %s: invalid --timeline '%s': expected changes, all or none\n",
					prog, cmd, optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_UNTIL:
			if (!strcmp(optarg, "horizon"))
				o->run.until_horizon = true;
			else if (!strcmp(optarg, "complete"))
				o->run.until_horizon = false;
			else {
				fprintf(stderr,
					"%s %s: invalid --until '%s': expected complete or horizon\n",
					prog, cmd, optarg);
				return CLI_USAGE;
			}
			break;
		case OPT_JSON:
			if (!is_run)
				goto not_here;
			o->json = optarg;
			break;
		case 'q':
			if (!is_run)
				goto not_here;
			o->quiet = true;
			break;
		case OPT_WIDTH:
			if (!is_run)
				goto not_here;
			if (cli_parse_count(optarg, 60, 1000, &n) != 0) {
				fprintf(stderr,
					"%s %s: invalid width '%s': expected a whole number of columns from 60 to 1000\n",
					prog, cmd, optarg);
				return CLI_USAGE;
			}
			o->width = (unsigned)n;
			break;
		case OPT_COLOR:
			if (strcmp(optarg, "auto") && strcmp(optarg, "always") && strcmp(optarg, "never")) {
				fprintf(stderr,
					"%s %s: invalid --color '%s': expected auto, always or never\n",
					prog, cmd, optarg);
				return CLI_USAGE;
			}
			o->color = optarg;
			break;
		case OPT_NO_COLOR:
			o->color = "never";
			break;
		case 'h':
			usage(stdout);
			return CLI_OK;
		case ':':
			fprintf(stderr, "%s %s: option '%s' needs a value\n", prog, cmd, argv[optind - 1]);
			fprintf(stderr, "try '%s %s --help'\n", prog, cmd);
			return CLI_USAGE;
		default:
			fprintf(stderr, "%s %s: unknown option '%s'\n", prog, cmd, argv[optind - 1]);
			fprintf(stderr, "try '%s %s --help'\n", prog, cmd);
			return CLI_USAGE;
		}
		err[0] = '\0';
		continue;
not_here:
		fprintf(stderr, "%s %s: option '%s' does not apply to this command\n", prog, cmd,
			argv[optind - 1]);
		fprintf(stderr, "try '%s %s --help'\n", prog, cmd);
		return CLI_USAGE;
	}
	if (!is_run && (o->run.horizon_set || o->json))
		return CLI_USAGE;
	return -1;
}

/* Loads @paths; prints diagnostics (also warnings of a good load).  Returns 0 or CLI_INVALID. */
static int load(char *const *paths, size_t n, struct scenario *s, bool color)
{
	struct diag d;
	int rc = 0;

	diag_init(&d);
	scn_init(s);
	if (scn_load((const char *const *)paths, n, s, &d) != 0 || diag_has_errors(&d))
		rc = CLI_INVALID;
	if (d.n)
		diag_print(&d, stderr, color);
	diag_release(&d);
	return rc;
}

static void fill_rep(struct rep_run *rep, const struct scenario *s, const struct run_result *r)
{
	memset(rep, 0, sizeof(*rep));
	rep->name = s->name;
	rep->seed = r->seed;
	rep->horizon_ms = r->horizon_ms;
	rep->start_unix_ms = s->start_unix_ms;
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
	if (r->models) {
		const struct mdl_job_stat *js;
		size_t n = mdl_jobs(r->models, &js);

		rep->capacity.capacity = mdl_capacity(r->models);
		rep->capacity.peak = mdl_capacity_peak(r->models);
		for (size_t i = 0; i < n; i++) {
			int64_t wait;

			if (js[i].slot_ms < 0 || js[i].seen_ms < 0)
				continue;
			wait = js[i].slot_ms - js[i].seen_ms;
			rep->capacity.jobs++;
			rep->capacity.total_wait_ms += wait;
			if (wait > rep->capacity.max_wait_ms)
				rep->capacity.max_wait_ms = wait;
		}
	}
}

static int cmd_run(int argc, char **argv)
{
	struct opts o;
	struct scenario s;
	struct run_result r = { 0 };
	struct rep_run rep;
	int rc = parse_opts(argc, argv, "run", usage_run, &o);
	bool json_stdout;

	if (rc >= 0)
		return rc;
	if (optind >= argc) {
		fprintf(stderr, "%s run: no scenario given\ntry '%s run --help'\n", prog, prog);
		return CLI_USAGE;
	}
	json_stdout = o.json && strcmp(o.json, "-") == 0;
	rc = load(argv + optind, (size_t)(argc - optind), &s, cli_color_wanted(o.color, 2));
	if (rc)
		goto out_release_scenario;

	run_scenario(&s, &o.run, &r);
	fill_rep(&rep, &s, &r);

	if (o.json) {
		struct outfile of;

		if (of_open(&of, o.json) != 0) {
			fprintf(stderr, "%s run: cannot write '%s': %s\n", prog, o.json, strerror(errno));
			rc = CLI_IO;
			goto out_release_run;
		}
		if (rep_json(of.f, &rep) != 0) {
			int e = errno;

			of_abort(&of);
			fprintf(stderr, "%s run: cannot write '%s': %s\n", prog, o.json, strerror(e));
			rc = CLI_IO;
			goto out_release_run;
		}
		if (of_commit(&of) != 0) {
			fprintf(stderr, "%s run: cannot write '%s': %s\n", prog, o.json, strerror(errno));
			rc = CLI_IO;
			goto out_release_run;
		}
	}
	if (!json_stdout) {
		struct rep_text_opts to = { cli_color_wanted(o.color, 1), o.quiet, o.width,
					    o.timeline };

		if (rep_text(stdout, &rep, &to) != 0)
			rc = CLI_IO;
	}

out_release_run:
	run_result_release(&r);
out_release_scenario:
	scn_release(&s);
	return rc;
}

static int cmd_check(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, "check", usage_check, &o);
	bool color;

	if (rc >= 0)
		return rc;
	if (optind >= argc) {
		fprintf(stderr, "%s check: no scenario given\ntry '%s check --help'\n", prog, prog);
		return CLI_USAGE;
	}
	color = cli_color_wanted(o.color, 1);
	rc = CLI_OK;
	for (int i = optind; i < argc; i++) {
		struct scenario s;
		struct run_result r = { 0 };
		char ttc[GT_DURATION_BUFSZ];
		int lrc = load(&argv[i], 1, &s, cli_color_wanted(o.color, 2));

		if (lrc) {
			printf("%sINVALID%s %s\n", color ? "\033[31m" : "", color ? "\033[0m" : "", argv[i]);
			rc = CLI_INVALID;
			scn_release(&s);
			continue;
		}
		run_scenario(&s, &o.run, &r);
		if (r.stop == DES_LOOP || r.stop == DES_BUDGET) {
			printf("%sFAIL%s    %s: the run was stopped by the %s bound (see `magos-sim run`)\n",
			       color ? "\033[31m" : "", color ? "\033[0m" : "", argv[i],
			       r.stop == DES_LOOP ? "zero-delay loop" : "event budget");
			if (rc == CLI_OK)
				rc = CLI_FAILED;
		} else if (r.summary.completed) {
			gt_format_duration(r.summary.time_to_complete_ms, ttc, sizeof(ttc));
			printf("%sPASS%s    %s: completed in %s%s\n", color ? "\033[32m" : "",
			       color ? "\033[0m" : "", argv[i], ttc,
			       r.summary.halted ? " after a halt" : "");
		} else {
			gt_format_duration(r.end_ms, ttc, sizeof(ttc));
			printf("%sPASS%s    %s: ran to %s, %s, not completed%s\n",
			       color ? "\033[32m" : "", color ? "\033[0m" : "", argv[i], ttc,
			       des_stop_name(r.stop), r.summary.halted ? ", halted" : "");
		}
		run_result_release(&r);
		scn_release(&s);
	}
	return rc;
}

static int cmd_lint(int argc, char **argv)
{
	struct opts o;
	int rc = parse_opts(argc, argv, "lint", usage_lint, &o);
	size_t objs = 0, files = 0, bad = 0;

	if (rc >= 0)
		return rc;
	if (optind >= argc) {
		fprintf(stderr, "%s lint: no file given\ntry '%s lint --help'\n", prog, prog);
		return CLI_USAGE;
	}
	/* Each input on its own: two scenario files are two scenarios, not one. */
	for (int i = optind; i < argc; i++) {
		struct scenario s;

		if (load(&argv[i], 1, &s, cli_color_wanted(o.color, 2)) != 0)
			bad++;
		objs += s.nobjs;
		files += s.nfiles;
		scn_release(&s);
	}
	if (bad) {
		printf("%zu of %d inputs have problems\n", bad, argc - optind);
		return CLI_INVALID;
	}
	printf("%zu object%s in %zu file%s admitted, no problems found\n", objs,
	       objs == 1 ? "" : "s", files, files == 1 ? "" : "s");
	return CLI_OK;
}

static int cmd_compare(int argc, char **argv)
{
	struct opts o;
	struct scenario s[2];
	struct run_result r[2];
	const char *label[2] = { "base", "head" };
	int rc = parse_opts(argc, argv, "compare", usage_compare, &o);

	if (rc >= 0)
		return rc;
	if (argc - optind != 2) {
		fprintf(stderr, "%s compare: expected BASE and HEAD, got %d input(s)\ntry '%s compare --help'\n",
			prog, argc - optind, prog);
		return CLI_USAGE;
	}
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 2; i++) {
		if (load(&argv[optind + i], 1, &s[i], cli_color_wanted(o.color, 2))) {
			rc = CLI_INVALID;
			scn_release(&s[i]);
			if (i == 1) {
				run_result_release(&r[0]);
				scn_release(&s[0]);
			}
			return rc;
		}
		run_scenario(&s[i], &o.run, &r[i]);
	}
	printf("%-22s %-24s %-24s\n", "", label[0], label[1]);
	printf("%-22s %-24s %-24s\n", "scenario", s[0].name, s[1].name);
	printf("%-22s %-24llu %-24llu\n", "seed", (unsigned long long)r[0].seed,
	       (unsigned long long)r[1].seed);
	{
		char a[GT_DURATION_BUFSZ + 2], b[GT_DURATION_BUFSZ + 2];

		for (int i = 0; i < 2; i++) {
			char *dst = i ? b : a;
			char d[GT_DURATION_BUFSZ];

			if (r[i].summary.completed)
				gt_format_duration(r[i].summary.time_to_complete_ms, dst, sizeof(a));
			else {
				gt_format_duration(r[i].end_ms, d, sizeof(d));
				snprintf(dst, sizeof(a), "> %s", d);
			}
		}
		printf("%-22s %-24s %-24s\n", "completed", r[0].summary.completed ? "yes" : "no",
		       r[1].summary.completed ? "yes" : "no");
		printf("%-22s %-24s %-24s\n", "time to complete", a, b);
		printf("%-22s %-24s %-24s\n", "halted", r[0].summary.halted ? "yes" : "no",
		       r[1].summary.halted ? "yes" : "no");
	}
	for (int i = 0; i < 2; i++) {
		run_result_release(&r[i]);
		scn_release(&s[i]);
	}
	return CLI_OK;
}

static int dispatch(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2) {
		usage_main(stderr);
		return CLI_USAGE;
	}
	cmd = argv[1];
	if (!strcmp(cmd, "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc - 1, argv + 1);
	if (!strcmp(cmd, "lint"))
		return cmd_lint(argc - 1, argv + 1);
	if (!strcmp(cmd, "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		if (argc > 2) {
			fprintf(stderr, "%s version: takes no arguments\n", prog);
			return CLI_USAGE;
		}
		printf("magos-sim %s\n", MAGOS_VERSION);
		return CLI_OK;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		const char *sub = argc > 2 ? argv[2] : NULL;

		if (!sub || !strcmp(sub, "help") || !strcmp(sub, "version"))
			usage_main(stdout);
		else if (!strcmp(sub, "run"))
			usage_run(stdout);
		else if (!strcmp(sub, "check"))
			usage_check(stdout);
		else if (!strcmp(sub, "lint"))
			usage_lint(stdout);
		else if (!strcmp(sub, "compare"))
			usage_compare(stdout);
		else {
			fprintf(stderr, "%s help: unknown command '%s'\n", prog, sub);
			return CLI_USAGE;
		}
		return CLI_OK;
	}
	fprintf(stderr, "%s: unknown command '%s'\n", prog, cmd);
	fprintf(stderr, "commands: run, check, lint, compare, version, help\n");
	return CLI_USAGE;
}

int main(int argc, char **argv)
{
	int rc;

	rng_gsl_init();
	rc = dispatch(argc, argv);
	/* Whatever the command printed must really have reached stdout. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: error writing to standard output: %s\n", prog,
			strerror(errno ? errno : EIO));
		if (rc == CLI_OK || rc == CLI_FAILED)
			rc = CLI_IO;
	}
	return rc;
}
