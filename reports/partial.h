#ifndef MAGOS_REPORTS_PARTIAL_H
#define MAGOS_REPORTS_PARTIAL_H

/*
 * Partial results of sharded trials (`run --shard K/N`, `compare --shard
 * K/N`) and their merge (`magos-sim merge`).  A shard runs a contiguous slice
 * of the trial indices and writes the rows of its trials, with what makes
 * them belong together, as JSON, schema "magos-sim/partial/v1":
 *
 *   schema      "magos-sim/partial/v1"
 *   tool        {name, version, commit} of the program (reports/tool.h)
 *   command     "run" or "compare"
 *   seed        base seed (a decimal string above 2^63-1)
 *   horizon_ms  ms
 *   until       "complete" or "horizon"
 *   total       trials of the whole set (-n)
 *   shard       [K, N] as given
 *   first, n    the slice: trials first..first+n-1
 *   inputs      one object per scenario ("scenario" for run; "base" then
 *               "head" for compare): {role, name, files, digest, rows},
 *               digest being partial_digest() of the files read, rows the
 *               trial rows with every field of struct trial_row (absent
 *               times as -1; already_complete and nothing_to_complete
 *               only when true, and read as false when absent) in index
 *               order
 *
 * A run of a scenario's variants or a sweep (spec.variants, spec.sweep,
 * --sweep) or of one variant (--variant) writes schema
 * "magos-sim/partial/v2": the same fields, plus
 *
 *   variant     the --variant NAME whose rows "scenario" holds, or null
 *   sweep       the swept parameter ("capacity"), or null
 *   sets        one object per variant, then per sweep value, in the order
 *               of the unsharded run: {kind "variant" or "sweep", name (the
 *               variant's, or "PARAM=VALUE"), value (the sweep value as
 *               written, null for a variant), description (or null), rows}
 *               with rows as above: the same trial indices as the base's,
 *               so every set keeps common random numbers
 *
 * A partial without variant and sets (has_sets false) is written as v1, byte for byte as
 * before; both schemas are read.
 *
 * Merging checks that every file has the same command, seed, horizon, until,
 * total and inputs (roles, names and digests), the same variant, sweep and
 * sets (kinds, names, values, descriptions, in order), that the slices are
 * disjoint and cover 0..total-1, and concatenates the rows of each set: the
 * statistics of the merged rows are those one machine would compute (they
 * are a pure function of the rows, sim/plan/stats.h, sim/plan/compare.h).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/plan/trials.h"

/* Digest length: 16 hex digits and the NUL. */
#define PARTIAL_DIGEST_LEN 17
/* The most trials (run -n, compare -n) and shards (--shard K/N) a partial can describe. */
#define PARTIAL_MAX_TRIALS 10000000u
#define PARTIAL_MAX_SHARDS 100000u
/*
 * What one row may hold: the steps and waves of a scenario's drivers (each
 * row lists all of them, the same in every row), the kinds of notice its run
 * ended with, and the bytes of one name or notice.  Far above any real run;
 * a forged row beyond them is refused rather than carried into the tables.
 */
#define PARTIAL_MAX_PHASES 10000u
#define PARTIAL_MAX_NOTICES 4096u
#define PARTIAL_MAX_NAME 1024u
#define PARTIAL_MAX_TEXT 16384u

/* The rows of one scenario in a partial. */
struct partial_input {
	char *role;              /* owned: "scenario", "base" or "head" */
	char *name;              /* owned: scenario name */
	char **files;            /* owned: the files read, as displayed */
	size_t nfiles;
	char digest[PARTIAL_DIGEST_LEN];
	struct trial_row *rows;  /* owned, n of them (struct partial.n) */
};

/* The rows of one variant or sweep value in a partial (v2). */
struct partial_set {
	bool sweep;              /* a sweep value, else a variant */
	char *name;              /* owned: variant name, or "PARAM=VALUE" */
	char *value;             /* owned: the sweep value as written ("4", "5m0s"); NULL for a variant */
	char *description;       /* owned or NULL */
	struct trial_row *rows;  /* owned, n of them (struct partial.n) */
};

struct partial {
	char *command;           /* owned: "run" or "compare" */
	uint64_t seed;
	int64_t horizon_ms;
	bool until_horizon;
	uint32_t total;          /* trials of the whole set */
	uint32_t shard_k, shard_n; /* as given (1-based K); 0/0 for a merged result */
	uint32_t first, n;       /* the slice */
	struct partial_input in[2];
	size_t nin;              /* 1 (run) or 2 (compare) */
	bool start_given;        /* the start is an instant the user gave (spec.start written,
				  * --now, a snapshot): rep_plan.start_given */
	int64_t start_unix_ms;   /* wall-clock time of simulated time 0, Unix ms, when start_given */
	int64_t resumed_ms;      /* a run resumed from a simulator snapshot: the original run's
				  * ms at this run's 0 (rep_plan.resumed_ms), else 0 */
	char *variant;           /* owned: the --variant NAME of in[0], or NULL */
	char *sweep_param;       /* owned: the swept parameter, or NULL */
	bool has_sets;           /* a run of variants and/or a sweep: "sets" is written */
	struct partial_set *sets;/* owned: variants, then sweep values (run only) */
	size_t nsets;
};

/*
 * partial_parse_shard() - @s as "K/N", 1 <= K <= N <= @max_n, decimal.
 * Returns: 0 with *@k and *@n, or -1 with a lower-case reason in @err.
 */
int partial_parse_shard(const char *s, uint32_t max_n, uint32_t *k, uint32_t *n, char *err,
			size_t errlen);

/*
 * partial_slice() - the contiguous slice of shard @k of @n over @total
 * trials: first = floor((k-1) * total / n), end = floor(k * total / n), so
 * the slices of 1..n are disjoint, cover 0..total-1 and differ in size by at
 * most one (a slice may be empty when n > total).  *@count = end - first.
 */
void partial_slice(uint32_t total, uint32_t k, uint32_t n, uint32_t *first, uint32_t *count);

/*
 * partial_digest() - FNV-1a 64 over the contents of the @n files (each
 * followed by its length as 8 little-endian bytes, so boundaries count;
 * names do not: shards may read the same files from other paths), as 16
 * lower-case hex digits in @out.  Files are read with rf_read(): "-" and a
 * pipe the process holds give the bytes the loader read from them.
 * Returns: 0, or -1 with errno set when a file cannot be read (@out then "").
 */
int partial_digest(const char *const *files, size_t n, char out[PARTIAL_DIGEST_LEN]);

/*
 * partial_write() - writes @p as the JSON document above to @f: schema v1
 * when @p has no variant and no sets, else v2.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int partial_write(FILE *f, const struct partial *p);

/*
 * partial_read() - reads the partial result in @path into @out (release with
 * partial_release() whatever the outcome).  Every field is checked for its
 * type and its range, so that nothing a hand-edited or corrupted file holds
 * can print as a figure: the shard (1 <= K <= N <= PARTIAL_MAX_SHARDS, the
 * slice exactly partial_slice()'s), total (1..PARTIAL_MAX_TRIALS), the inputs
 * (a role, a name, at least one file, a 16-hex-digit digest), and each row:
 * its index and seed (trials_seed() of the base seed and the index), its
 * times (end, time to complete, halt, detection, phases: -1 for none where
 * that is allowed, else 0..horizon), completion and halt agreeing with their
 * times, blast count within blast total, exposure and Job wait >= 0.
 * @budget: bytes still allowed to the partials of one merge (the limit
 *          input-bytes); decreased by this file's size.
 * Returns: 0, or -1 with a lower-case reason (naming @path) in @err: an
 *          unreadable file or one that is not a regular file, more bytes
 *          than @budget, not JSON, another schema, a missing, mistyped or
 *          out-of-range field, rows out of the slice, sets in a v1 file or
 *          in a compare.
 */
int partial_read(const char *path, uint64_t *budget, struct partial *out, char *err,
		 size_t errlen);

/*
 * partial_merge() - checks that the @n partials @p (read from @paths, for
 * messages) belong together and make a whole set, and fills @out with the
 * merged set (first 0, n = total, shard 0/0; release with
 * partial_release()).  The rows are moved out of @p (their row arrays are
 * left empty), so @p only needs releasing afterwards.
 * Returns: 0, or -1 with a lower-case reason in @err (different command,
 *          scenario, digest, variant, sets, seed, horizon, until or total;
 *          overlapping or missing slices); @out is then empty.
 */
int partial_merge(struct partial *p, size_t n, const char *const *paths, struct partial *out,
		  char *err, size_t errlen);

/* partial_release() - frees what @p owns; accepts NULL. */
void partial_release(struct partial *p);

#endif
