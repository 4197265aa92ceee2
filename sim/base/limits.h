#ifndef MAGOS_SIM_LIMITS_H
#define MAGOS_SIM_LIMITS_H

/*
 * The bounds on what one command reads and keeps, in one table.  Each bound
 * is per input stream (everything one load reads: the files given, the
 * directories' files and the includes), never per document or per series,
 * so splitting an input does not get around it.  docs/limits.md lists them
 * with their defaults and messages; `--limit NAME=N` raises (or lowers) one
 * on every command.
 *
 * A bound that is exceeded is an input error naming the bound and how to
 * raise it (lim_hint()); nothing is cut short silently.
 */

#include <stddef.h>
#include <stdint.h>

enum lim_id {
	LIM_INPUT_BYTES,    /* bytes read from all input files of one load */
	LIM_FILES,          /* files read by one load (inputs, directories, includes) */
	LIM_INCLUDE_SCAN,   /* directory entries the spec.include patterns of one load examine */
	LIM_DOCUMENTS,      /* YAML documents in all inputs of one load */
	LIM_ALIAS_NODES,    /* nodes created by YAML aliases and merge keys, all documents */
	LIM_YAML_NODES,     /* YAML nodes of all inputs of one load, alias and merge-key copies included */
	LIM_SERIES_SAMPLES, /* computed (a+bxN) samples of all spec.metrics series */
	LIM_GENERATED,      /* objects spec.generate makes, all entries (Namespaces included) */
	LIM_ERRORS,         /* errors and warnings printed; the rest are counted */
	LIM_EXACT_VALUES,   /* trial values kept for exact statistics (sim/plan/stats.h) */
	LIM_RUN_EVENTS,     /* events one run (one trial) may take, whatever the scenario asks */
	LIM_TOTAL_EVENTS,   /* events all the trials of one command take together */
	LIM_COUNT
};

/* One bound: its name on the command line, default and accepted range. */
struct lim_def {
	const char *name; /* "input-bytes" */
	uint64_t dflt;
	uint64_t min, max; /* what --limit accepts */
	const char *unit;  /* "bytes", "files", ... (plural) */
	const char *what;  /* one line: what is counted */
};

/* The values in force; lim_init() gives the defaults. */
struct limits {
	uint64_t v[LIM_COUNT];
};

/* lim_defs() - the table, indexed by enum lim_id (static, LIM_COUNT entries). */
const struct lim_def *lim_defs(void);

/* lim_init() - every bound at its default.  Cannot fail. */
void lim_init(struct limits *l);

/* lim_default() - the default value of bound @id. */
uint64_t lim_default(enum lim_id id);

/* lim_name() - the command-line name of bound @id ("alias-nodes"). */
const char *lim_name(enum lim_id id);

/*
 * lim_set() - applies one `NAME=N` (as --limit takes it) to @l.
 * @arg:  "alias-nodes=2000000"; N is a decimal integer in the bound's range.
 * @err:  receives the reason on failure ("unknown limit 'x'; the limits are
 *        input-bytes, files, ..."), NUL-terminated, truncated to @errlen.
 * Returns: 0, or -1 with @err filled (@l unchanged).
 */
int lim_set(struct limits *l, const char *arg, char *err, size_t errlen);

/*
 * lim_hint() - the advice every "limit exceeded" message ends with:
 * "(limit NAME; raise it with --limit NAME=N)".  Static string.
 */
const char *lim_hint(enum lim_id id);

#endif
