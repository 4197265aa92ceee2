#include "sim/base/limits.h"

#include <stdio.h>
#include <string.h>

/*
 * The defaults keep a hostile or mistaken input within seconds and well
 * under 1 GiB (the loader holds about 100 bytes a YAML node, 874 MB for 8
 * million in the debug build, and a node may be two bytes of input:
 * `[1,1,...]`; yaml-nodes bounds that), and stay above what the examples
 * and benchmarks need; docs/limits.md explains each.  The event bounds are counts, never a clock, so a command
 * stops at the same trial with the same output at every -j: a million
 * events take 1 to 4 s of CPU, so one run stops within about a minute and
 * all the trials of one command within a few minutes.
 */
static const struct lim_def defs[LIM_COUNT] = {
	[LIM_INPUT_BYTES] = { "input-bytes", UINT64_C(64) << 20, 1, UINT64_C(1) << 40, "bytes",
			      "bytes read from all input files of one load" },
	[LIM_FILES] = { "files", 10000, 1, 100000000, "files",
			"files one load reads (inputs, directories' files, includes)" },
	[LIM_INCLUDE_SCAN] = { "include-scan", 100000, 1, UINT64_C(1) << 40, "directory entries",
			       "directory entries the spec.include patterns of one load examine" },
	[LIM_DOCUMENTS] = { "documents", 1000000, 1, UINT64_C(1) << 40, "documents",
			    "YAML documents in all inputs of one load" },
	[LIM_ALIAS_NODES] = { "alias-nodes", 1000000, 0, UINT64_C(1) << 40, "nodes",
			      "nodes that YAML aliases and merge keys create, in all documents" },
	[LIM_YAML_NODES] = { "yaml-nodes", 5000000, 1, UINT64_C(1) << 40, "nodes",
			     "YAML nodes (scalars, mappings, sequences) of all inputs, alias and merge-key copies included" },
	[LIM_SERIES_SAMPLES] = { "series-samples", UINT64_C(1) << 22, 0, UINT64_C(1) << 32,
				 "samples",
				 "computed samples (a+bxN) of all spec.metrics series together" },
	[LIM_GENERATED] = { "generated-objects", 1000000, 0, UINT64_C(1) << 32, "objects",
			    "objects spec.generate makes, all entries together" },
	[LIM_ERRORS] = { "errors", 100, 1, UINT64_C(1) << 32, "diagnostics",
			 "errors and warnings printed (the others are counted)" },
	[LIM_EXACT_VALUES] = { "exact-values", UINT64_C(16) << 20, 0, UINT64_C(1) << 40, "values",
			       "values of the trials kept for exact percentiles (then a sketch)" },
	[LIM_RUN_EVENTS] = { "run-events", 10000000, 1, UINT64_C(1) << 40, "events",
			     "events one run (one trial) may take, whatever the scenario asks" },
	[LIM_TOTAL_EVENTS] = { "total-events", 100000000, 1, UINT64_C(1) << 50, "events",
			       "events all the trials of one command take together" },
};

static const char *const hints[LIM_COUNT] = {
	[LIM_INPUT_BYTES] = "(limit input-bytes; raise it with --limit input-bytes=N)",
	[LIM_FILES] = "(limit files; raise it with --limit files=N)",
	[LIM_INCLUDE_SCAN] = "(limit include-scan; raise it with --limit include-scan=N)",
	[LIM_DOCUMENTS] = "(limit documents; raise it with --limit documents=N)",
	[LIM_ALIAS_NODES] = "(limit alias-nodes; raise it with --limit alias-nodes=N)",
	[LIM_YAML_NODES] = "(limit yaml-nodes; raise it with --limit yaml-nodes=N)",
	[LIM_SERIES_SAMPLES] = "(limit series-samples; raise it with --limit series-samples=N)",
	[LIM_GENERATED] = "(limit generated-objects; raise it with --limit generated-objects=N)",
	[LIM_ERRORS] = "(limit errors; raise it with --limit errors=N)",
	[LIM_EXACT_VALUES] = "(limit exact-values; raise it with --limit exact-values=N)",
	[LIM_RUN_EVENTS] = "(limit run-events; raise it with --limit run-events=N)",
	[LIM_TOTAL_EVENTS] = "(limit total-events; raise it with --limit total-events=N)",
};

const struct lim_def *lim_defs(void)
{
	return defs;
}

void lim_init(struct limits *l)
{
	for (int i = 0; i < LIM_COUNT; i++)
		l->v[i] = defs[i].dflt;
}

uint64_t lim_default(enum lim_id id)
{
	return defs[id].dflt;
}

const char *lim_name(enum lim_id id)
{
	return defs[id].name;
}

const char *lim_hint(enum lim_id id)
{
	return hints[id];
}

/* @s as a decimal uint64 (digits only); 0 or -1. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!*s)
		return -1;
	for (; *s; s++) {
		unsigned d = (unsigned)(*s - '0');

		if (*s < '0' || *s > '9' || v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int lim_set(struct limits *l, const char *arg, char *err, size_t errlen)
{
	const char *eq = strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);
	uint64_t v;

	for (int i = 0; i < LIM_COUNT; i++) {
		const struct lim_def *d = &defs[i];

		if (strlen(d->name) != len || strncmp(d->name, arg, len) != 0)
			continue;
		if (!eq || parse_u64(eq + 1, &v) != 0 || v < d->min || v > d->max) {
			snprintf(err, errlen,
				 "invalid --limit '%s': %s takes a whole number of %s from %llu to %llu",
				 arg, d->name, d->unit, (unsigned long long)d->min,
				 (unsigned long long)d->max);
			return -1;
		}
		l->v[i] = v;
		return 0;
	}
	{
		size_t k = (size_t)snprintf(err, errlen, "invalid --limit '%s': unknown limit '%.*s'; the limits are ",
					    arg, (int)(len > 64 ? 64 : len), arg);

		for (int i = 0; i < LIM_COUNT && k < errlen; i++)
			k += (size_t)snprintf(err + k, errlen - k, "%s%s", i ? ", " : "", defs[i].name);
	}
	return -1;
}
