/* magos-sim check: runs scenarios for CI and reports one line each. */
#include <string.h>

#include "cli/cmd.h"
#include "sim/gotime.h"

void cmd_usage_check(FILE *f)
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
		cmd_prog, cmd_exit_codes_help);
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_LONGOPT_SEED, CMD_LONGOPT_UNTIL, CMD_LONGOPT_COLOR, CMD_LONGOPT_NO_COLOR,
		CMD_LONGOPT_HELP, { NULL, 0, NULL, 0 },
	};
	struct cmd_opts o;
	int rc, c;
	bool color;

	cmd_opts_init(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:h", longopts, NULL)) != -1)
		if ((rc = cmd_opt_common(c, "check", cmd_usage_check, argv, &o)) >= 0)
			return rc;
	if (optind >= argc) {
		fprintf(stderr, "%s check: no scenario given\ntry '%s check --help'\n", cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	color = cli_color_wanted(o.color, 1);
	rc = CLI_OK;
	for (int i = optind; i < argc; i++) {
		struct scenario s;
		struct run_result r = { 0 };
		char ttc[GT_DURATION_BUFSZ];
		int lrc = cmd_load(&argv[i], 1, &s, cli_color_wanted(o.color, 2));

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
