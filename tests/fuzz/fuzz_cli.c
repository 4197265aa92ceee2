/*
 * The command line's value parsers (sim/cli/cli.h, reports/partial.h,
 * sim/plan/sweep.h, sim/base/limits.h) on any text.  Oracles: a count or a
 * seed that parses is what strtoull(3) reads from digits-only text (and
 * nothing else parses); a shard K/N that parses has 1 <= K <= N <= max; a
 * sweep that parses has at least one value; --limit accepts exactly
 * NAME=digits within the bound's range.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reports/partial.h"
#include "sim/base/limits.h"
#include "sim/cli/cli.h"
#include "sim/plan/sweep.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size), err[1024];
	uint64_t v, c;
	uint32_t k, n;
	struct sweep sw;
	struct limits lim;
	const char *eq;

	if (cli_parse_u64(s, &v) == 0) {
		errno = 0;
		if (!all_digits(s) || strtoull(s, NULL, 10) != v || errno)
			fuzz_fail("cli_parse_u64 disagrees with strtoull", size);
	} else if (all_digits(s) && strlen(s) == size) {
		errno = 0;
		(void)strtoull(s, NULL, 10);
		if (errno != ERANGE)
			fuzz_fail("digits refused without overflow", size);
	}
	if (cli_parse_count(s, 1, 256, &c) == 0 && (c < 1 || c > 256))
		fuzz_fail("a count out of its range", size);
	if (partial_parse_shard(s, 100000, &k, &n, err, sizeof(err)) == 0) {
		if (k < 1 || k > n || n > 100000)
			fuzz_fail("a shard out of range", size);
	} else if (!err[0]) {
		fuzz_fail("a shard refused without a reason", size);
	}
	if (sweep_parse(s, &sw, err, sizeof(err)) == 0) {
		if (sw.n == 0)
			fuzz_fail("a sweep of no value", size);
		for (size_t i = 0; i < sw.n; i++) {
			char text[64];

			sweep_value_text(&sw, i, text, sizeof(text));
		}
	}
	sweep_release(&sw);
	lim_init(&lim);
	eq = strchr(s, '=');
	if (lim_set(&lim, s, err, sizeof(err)) == 0) {
		if (!eq || !all_digits(eq + 1))
			fuzz_fail("--limit accepted what is not NAME=digits", size);
	} else if (!strstr(err, "invalid --limit")) {
		fuzz_fail("--limit refused without its message", size);
	}
	free(s);
	return 0;
}
