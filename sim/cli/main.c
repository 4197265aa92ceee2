/*
 * magos-sim: command-line entry point.  Dispatches to the commands of cli/
 * and funnels every exit through one place that checks stdout really was
 * written (a report piped into a full disk must not look like success).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/xalloc.h"

#include "sim/base/suggest.h"
#include "sim/cli/cmd.h"
#include "sim/cli/compare.h"
#include "reports/tool.h"
#include "sim/core/rng.h"
#include "sim/wire/stageset_rc.h"

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
		"  run       run a scenario: its timeline and outcome, or -n N trials\n"
		"  check     for CI: lint scenarios and test their spec.expect (exit 1 on a\n"
		"            failure; JUnit, GitHub annotations, a Markdown summary)\n"
		"  lint      load and admit manifests as the API server would, report problems\n"
		"  compare   change review: trials of BASE and HEAD, deltas and significance\n"
		"  merge     combine the partial results of --shard runs into one\n"
		"  version   print the version\n"
		"  help      show this help, or `help COMMAND` for one command\n"
		"\n"
		"Examples:\n"
		"  %s run scenarios/payments-platform.yaml        one run: the timeline\n"
		"  %s run -n 1000 scenarios/three-environments.yaml      1000 trials\n"
		"  %s check scenarios/ci/               for CI: exit 1 when one fails\n"
		"  %s help run                          the options of run\n"
		"\n"
		"More: man magos-sim, and the README.\n"
		"\n"
		"%s",
		cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_prog, cmd_exit_codes_help);
}

/* The commands, for "did you mean". */
static const char *const commands[] = { "run", "check", "lint", "compare", "merge", "version",
					"help", NULL };

/* Says that @cmd is not a command, with the closest one when there is one; CLI_USAGE. */
static int unknown_command(const char *how, const char *cmd)
{
	struct sug s;

	sug_init(&s, cmd);
	for (size_t i = 0; commands[i]; i++)
		sug_offer(&s, commands[i]);
	fprintf(stderr, "%s%s: unknown command '%s'", cmd_prog, how, cmd);
	if (sug_best(&s))
		fprintf(stderr, ": did you mean '%s'?", sug_best(&s));
	fprintf(stderr, "\ncommands: run, check, lint, compare, merge, version, help\n");
	return CLI_USAGE;
}

static void usage_version(FILE *f)
{
	fprintf(f,
		"usage: %s version\n"
		"       %s --version\n"
		"\n"
		"Prints the version of magos-sim and the commit it was built from\n"
		"(\"magos-sim X.Y.Z (commit SHA)\", SHA ending -dirty for a build of\n"
		"uncommitted changes) and exits 0.\n"
		"\n"
		"Example:\n"
		"  %s version\n",
		cmd_prog, cmd_prog, cmd_prog);
}

static void usage_help(FILE *f)
{
	fprintf(f,
		"usage: %s help [COMMAND]\n"
		"\n"
		"Prints the overview of the commands, or the help of COMMAND (as\n"
		"`%s COMMAND --help` does).  The manual page has all of it: man magos-sim.\n"
		"\n"
		"Examples:\n"
		"  %s help\n"
		"  %s help run\n",
		cmd_prog, cmd_prog, cmd_prog, cmd_prog);
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
		if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
			usage_version(stdout);
			return CLI_OK;
		}
		if (argc > 2) {
			fprintf(stderr, "%s version: takes no arguments (but --help)\n", cmd_prog);
			return CLI_USAGE;
		}
		printf("%s %s (commit %s)\n", tool_name(), tool_version(), tool_commit());
		return CLI_OK;
	}
	if (!strcmp(cmd, "help") || !strcmp(cmd, "--help") || !strcmp(cmd, "-h")) {
		const char *sub = argc > 2 ? argv[2] : NULL;

		if (argc > 3) {
			fprintf(stderr, "%s help: one command at most\n", cmd_prog);
			return CLI_USAGE;
		}
		if (!sub)
			usage_main(stdout);
		else if (!strcmp(sub, "help") || !strcmp(sub, "--help") || !strcmp(sub, "-h"))
			usage_help(stdout);
		else if (!strcmp(sub, "version"))
			usage_version(stdout);
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
		else
			return unknown_command(" help", sub);
		return CLI_OK;
	}
	return unknown_command("", cmd);
}

/*
 * Out of memory anywhere (engine/xalloc.h): one line naming what the thread
 * was building, then exit CLI_OOM at once -- no abort(), so no core dump,
 * and no cleanup that could itself allocate.  snprintf of these formats and
 * write(2) do not allocate.
 */
static void on_oom(size_t n, const char *what)
{
	char line[512];
	int len;

	if (n == 0 || n == SIZE_MAX)
		len = snprintf(line, sizeof(line), "%s: out of memory while %s\n", cmd_prog,
			       what ? what : "working");
	else
		len = snprintf(line, sizeof(line),
			       "%s: out of memory while %s (a request for %zu bytes failed)\n", cmd_prog,
			       what ? what : "working", n);
	if (len > 0)
		(void)!write(STDERR_FILENO, line, (size_t)len < sizeof(line) ? (size_t)len
									     : sizeof(line) - 1);
	_exit(CLI_OOM);
}

int main(int argc, char **argv)
{
	int rc;

	xalloc_set_oom(on_oom);
	rng_gsl_init();
	/*
	 * A test hook: every StageSet pass is run, none is taken from the one
	 * before (sim/wire/stageset_rc.h); the outputs are the same either way.
	 */
	if (getenv("MAGOS_SIM_RUN_EVERY_PASS"))
		ssrc_reuse_passes = false;
	rc = dispatch(argc, argv);
	/* A command returns with its outputs committed; anything left is removed. */
	cmd_outputs_abort();
	/* Whatever the command printed must really have reached stdout. */
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "%s: error writing to standard output: %s\n", cmd_prog,
			strerror(errno ? errno : EIO));
		if (rc == CLI_OK || rc == CLI_FAILED)
			rc = CLI_IO;
	}
	return rc;
}
