/* magos-sim lint: loads and admits manifests without running them. */
#include <string.h>

#include "cli/cmd.h"
#include "sim/gotime.h"

void cmd_usage_lint(FILE *f)
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
		cmd_prog, cmd_exit_codes_help);
}

int cmd_lint(int argc, char **argv)
{
	static const struct option longopts[] = {
		CMD_LONGOPT_COLOR, CMD_LONGOPT_NO_COLOR,
		CMD_LONGOPT_HELP, { NULL, 0, NULL, 0 },
	};
	struct cmd_opts o;
	int rc, c;
	size_t objs = 0, files = 0, bad = 0;

	cmd_opts_init(&o);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1)
		if ((rc = cmd_opt_common(c, "lint", cmd_usage_lint, argv, &o)) >= 0)
			return rc;
	if (optind >= argc) {
		fprintf(stderr, "%s lint: no file given\ntry '%s lint --help'\n", cmd_prog, cmd_prog);
		return CLI_USAGE;
	}
	/* Each input on its own: two scenario files are two scenarios, not one. */
	for (int i = optind; i < argc; i++) {
		struct scenario s;

		if (cmd_load(&argv[i], 1, &s, cli_color_wanted(o.color, 2)) != 0)
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
