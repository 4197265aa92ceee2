#ifndef MAGOS_CLI_MERGE_H
#define MAGOS_CLI_MERGE_H

/*
 * `run --shard K/N` of what-if runs (sim/cli/merge.c): the base with its
 * variants and/or sweep values, or one --variant, each as the K-th slice of
 * the trials, written as a partial result (schema magos-sim/partial/v2,
 * reports/partial.h) that `magos-sim merge` turns into the tables, JSON and
 * CSV of the unsharded run.  The plain base shard is cmd_run_shard()
 * (sim/cli/compare.h).
 */

#include <stdint.h>

#include "sim/cli/cmd.h"
#include "sim/plan/sweep.h"
#include "sim/load/scenario.h"

/*
 * cmd_run_shard_sets() - the slice of shard @k of @n over @ntrials trials
 * of the base @s and of every set the unsharded `run -n` would run: the
 * variants of spec.variants and the values of spec.sweep, or (@cli_sweep
 * non-NULL, borrowed) the values of --sweep instead of both; all on the
 * same trial indices (common random numbers), on @jobs threads, written to
 * @o->json (required by the caller).  Variant and sweep problems are
 * reported before any trial runs, as run reports them.
 * Returns: an exit code (enum cli_exit): CLI_INVALID for a bad variant or
 *          spec.sweep, CLI_USAGE for a --sweep the base cannot take.
 */
int cmd_run_shard_sets(const struct scenario *s, const struct cmd_opts *o, uint32_t ntrials,
		       unsigned jobs, uint32_t k, uint32_t n, const struct sweep *cli_sweep);

/*
 * cmd_run_shard_variant() - as cmd_run_shard() for @vs, the scenario with
 * the variant @variant (its name, borrowed) applied: the partial names the
 * variant, so merge refuses to mix it with shards of the base or of another
 * variant.  Returns: an exit code (enum cli_exit).
 */
int cmd_run_shard_variant(const struct scenario *vs, const char *variant,
			  const struct cmd_opts *o, uint32_t ntrials, unsigned jobs, uint32_t k,
			  uint32_t n);

#endif
