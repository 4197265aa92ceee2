/* magos-sim compare: two scenarios side by side. */
#include <string.h>

#include "cli/cmd.h"
#include "sim/gotime.h"

void cmd_usage_compare(FILE *f)
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
		cmd_prog, cmd_exit_codes_help);
}

int cmd_compare(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_LONGOPT_SEED, CMD_LONGOPT_UNTIL, CMD_LONGOPT_COLOR, CMD_LONGOPT_NO_COLOR,
		CMD_LONGOPT_HELP, { NULL, 0, NULL, 0 },
	};
	struct cmd_opts o;
	int rc, c;
	struct scenario s[2];
	struct run_result r[2];
	const char *label[2] = { "base", "head" };

	cmd_opts_init(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":s:h", longopts, NULL)) != -1)
		if ((rc = cmd_opt_common(c, "compare", cmd_usage_compare, argv, &o)) >= 0)
			return rc;
	if (argc - optind != 2) {
		fprintf(stderr, "%s compare: expected BASE and HEAD, got %d input(s)\ntry '%s compare --help'\n",
			cmd_prog, argc - optind, cmd_prog);
		return CLI_USAGE;
	}
	memset(r, 0, sizeof(r));
	for (int i = 0; i < 2; i++) {
		if (cmd_load(&argv[optind + i], 1, &s[i], cli_color_wanted(o.color, 2))) {
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
