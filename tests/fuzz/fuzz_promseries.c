/*
 * promtool series notation (sim/load/promseries.h) on any text, then
 * sampled.  Oracles: the runs tile the expanded series (contiguous, each at
 * least one sample, their counts adding up to nsamples); ps_at() beyond the
 * end is missing; an instant query returns the value of the last present,
 * non-stale sample within the lookback, checked by a scan of ps_at() near
 * the start; parsing is a function of the text.
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/load/promseries.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the query at @t returns, by scanning back over ps_at() (interval 1, lookback @lb). */
static int scan(const struct ps_series *s, int64_t t, int64_t lb, double *v)
{
	for (int64_t i = t; i > t - lb && i >= 0; i--) {
		double x;
		enum ps_kind k = ps_at(s, (uint64_t)i, &x);

		if (k == PS_MISSING)
			continue;
		if (k == PS_STALE)
			return 0;
		*v = x;
		return 1;
	}
	return 0;
}

static bool same(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof(a)) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size);
	struct ps_series s, s2;
	struct ps_error e;
	uint64_t at = 0;

	if (ps_parse_max(text, 20000, &s, &e) != PS_OK) {
		if (!e.msg[0] || e.line < 1 || e.col < 1 || e.offset > size)
			fuzz_fail("an error without a message or a position", size);
		ps_series_release(&s);
		free(text);
		return 0;
	}
	if (ps_parse_max(text, 20000, &s2, NULL) != PS_OK || s2.nsamples != s.nsamples ||
	    s2.nruns != s.nruns)
		fuzz_fail("two parses of the same text differ", size);
	for (size_t r = 0; r < s.nruns; r++) {
		if (s.runs[r].start != at || s.runs[r].count == 0)
			fuzz_fail("runs do not tile the series", size);
		at += s.runs[r].count;
	}
	if (at != s.nsamples || ps_at(&s, s.nsamples, NULL) != PS_MISSING)
		fuzz_fail("the runs do not add up to nsamples", size);
	for (int64_t t = 0; t < 64 && (uint64_t)t <= s.nsamples; t++) {
		double a = 0, b = 0;
		int ra = ps_sample_lookback(&s, 1, t, 5, &a), rb = scan(&s, t, 5, &b);

		if (ra != rb || (ra && !same(a, b)))
			fuzz_fail("an instant query disagrees with a scan of the samples", size);
	}
	ps_series_release(&s);
	ps_series_release(&s2);
	free(text);
	return 0;
}
