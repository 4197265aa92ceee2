#ifndef MAGOS_CLI_COMPARE_H
#define MAGOS_CLI_COMPARE_H

/*
 * Change review and scale-out across the commands: `compare` (sim/cli/compare.c)
 * and its report, `run --shard` and `merge` (sim/cli/merge.c).  A set of trials
 * travels between them as a struct partial (reports/partial.h): a shard
 * writes one, merge reads several, and an unsharded compare builds one in
 * memory, so every path prints through the same report code.
 */

#include <stdint.h>
#include <stdio.h>

#include "sim/cli/cmd.h"
#include "sim/plan/compare.h"
#include "reports/partial.h"

/* The shard bound: --shard K/N with N up to this. */
#define CMD_MAX_SHARDS 100000u

/* Outputs of a comparison. */
struct cmd_cmp_out {
	const char *cmd;        /* "compare" or "merge", for messages */
	const char *json;       /* NULL, a path, or "-" (stdout instead of the table) */
	const char *markdown;   /* NULL, a path, or "-" */
	const char *color;      /* --color mode */
	const struct cmp_limit *limits;
	size_t nlimits;
};

/*
 * cmd_compare_report() - compares the two inputs of @p (command "compare",
 * every trial present: first 0, n = total) and prints the table to stdout
 * (unless the JSON or Markdown goes to stdout) and the requested files.
 * Returns: CLI_OK, CLI_FAILED when a limit failed, CLI_IO on a write error.
 */
int cmd_compare_report(const struct partial *p, const struct cmd_cmp_out *o);

/*
 * cmd_write_partial() - writes @p to @path ("-" for stdout) atomically for
 * command @cmd's messages.  Returns: CLI_OK or CLI_IO (message printed).
 */
int cmd_write_partial(const char *cmd, const char *path, const struct partial *p);

/*
 * cmd_fill_input() - fills @in (role @role) from the loaded scenario @s:
 * name, files, the digest of the files, no rows.  Returns: CLI_OK, or
 * CLI_INVALID when a file cannot be read again for the digest (message
 * printed): an input that cannot be read is exit 3 wherever it happens.
 */
int cmd_fill_input(const char *cmd, const char *role, const struct scenario *s,
		   struct partial_input *in);

/*
 * cmd_run_shard() - `run --shard K/N`: runs the slice of @ntrials trials of
 * @s for shard @k of @n on @jobs threads and writes the partial result to
 * @o->json (required by the caller).  Prints a one-line summary to stderr
 * unless @o->quiet.  Returns: an exit code (enum cli_exit).
 */
int cmd_run_shard(const struct scenario *s, const struct cmd_opts *o, uint32_t ntrials,
		  unsigned jobs, uint32_t k, uint32_t n);

/* `magos-sim merge FILES...`, argv[0] = "merge"; returns an exit code. */
int cmd_merge(int argc, char **argv);

/* The help of merge, for -h and `magos-sim help merge`. */
void cmd_usage_merge(FILE *f);

/* The long options of merge (a getopt_long() table; see cmd_run_longopts in cmd.h). */
extern const struct option cmd_merge_longopts[];

#endif
