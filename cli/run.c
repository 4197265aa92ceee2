/* magos-sim run: one seeded run of a scenario, its timeline and outcome. */
#include <errno.h>
#include <string.h>

#include "cli/cmd.h"
#include "sim/outfile.h"

void cmd_usage_run(FILE *f)
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
		cmd_prog, cmd_exit_codes_help);
}

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_LONGOPT_SEED, CMD_LONGOPT_HORIZON, CMD_LONGOPT_JSON, CMD_LONGOPT_QUIET,
		CMD_LONGOPT_WIDTH, CMD_LONGOPT_UNTIL, CMD_LONGOPT_TIMELINE, CMD_LONGOPT_COLOR,
		CMD_LONGOPT_NO_COLOR, CMD_LONGOPT_HELP, { NULL, 0, NULL, 0 },
	};
	struct cmd_opts o;
	struct scenario s;
	struct run_result r = { 0 };
	struct rep_run rep;
	bool json_stdout;
	int rc, c;

	cmd_opts_init(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:qh", longopts, NULL)) != -1)
		if ((rc = cmd_opt_common(c, "run", cmd_usage_run, argv, &o)) >= 0)
			return rc;
	if (optind >= argc) {
		fprintf(stderr, "%s run: no scenario given\ntry '%s run --help'\n", cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	json_stdout = o.json && strcmp(o.json, "-") == 0;
	rc = cmd_load(argv + optind, (size_t)(argc - optind), &s, cli_color_wanted(o.color, 2));
	if (rc)
		goto out_release_scenario;

	run_scenario(&s, &o.run, &r);
	cmd_fill_rep(&rep, &s, &r);

	if (o.json) {
		struct outfile of;

		if (of_open(&of, o.json) != 0) {
			fprintf(stderr, "%s run: cannot write '%s': %s\n", cmd_prog, o.json, strerror(errno));
			rc = CLI_IO;
			goto out_release_run;
		}
		if (rep_json(of.f, &rep) != 0) {
			int e = errno;

			of_abort(&of);
			fprintf(stderr, "%s run: cannot write '%s': %s\n", cmd_prog, o.json, strerror(e));
			rc = CLI_IO;
			goto out_release_run;
		}
		if (of_commit(&of) != 0) {
			fprintf(stderr, "%s run: cannot write '%s': %s\n", cmd_prog, o.json, strerror(errno));
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
