/*
 * magos-sim: command-line entry point.  Dispatches to the commands of cli/
 * and funnels every exit through one place that checks stdout really was
 * written (a report piped into a full disk must not look like success).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cli/cmd.h"
#include "sim/cli/compare.h"
#include "sim/core/rng.h"
#include "sim/wire/stageset_rc.h"

#ifndef MAGOS_VERSION
#define MAGOS_VERSION "0.1.0"
#endif

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
		"  compare   change review: trials of BASE and HEAD, deltas and significance\n"
		"  merge     combine the partial results of --shard runs into one\n"
		"  version   print the version\n"
		"  help      show this help, or `help COMMAND` for one command\n"
		"\n"
		"%s",
		cmd_prog, cmd_exit_codes_help);
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
	if (!strcmp(cmd, "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(cmd, "version") || !strcmp(cmd, "--version")) {
		if (argc > 2) {
			fprintf(stderr, "%s version: takes no arguments\n", cmd_prog);
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
			cmd_usage_run(stdout);
		else if (!strcmp(sub, "check"))
			cmd_usage_check(stdout);
		else if (!strcmp(sub, "lint"))
			cmd_usage_lint(stdout);
		else if (!strcmp(sub, "compare"))
			cmd_usage_compare(stdout);
		else if (!strcmp(sub, "merge"))
			cmd_usage_merge(stdout);
		else {
			fprintf(stderr, "%s help: unknown command '%s'\n", cmd_prog, sub);
			return CLI_USAGE;
		}
		return CLI_OK;
	}
	fprintf(stderr, "%s: unknown command '%s'\n", cmd_prog, cmd);
	fprintf(stderr, "commands: run, check, lint, compare, merge, version, help\n");
	return CLI_USAGE;
}

int main(int argc, char **argv)
{
	int rc;

	rng_gsl_init();
	/*
	 * A test hook: every StageSet pass is run, none is taken from the one
	 * before (sim/wire/stageset_rc.h); the outputs are the same either way.
	 */
	if (getenv("MAGOS_SIM_RUN_EVERY_PASS"))
		ssrc_reuse_passes = false;
	rc = dispatch(argc, argv);
	/* Whatever the command printed must really have reached stdout. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: error writing to standard output: %s\n", cmd_prog,
			strerror(errno ? errno : EIO));
		if (rc == CLI_OK || rc == CLI_FAILED)
			rc = CLI_IO;
	}
	return rc;
}
