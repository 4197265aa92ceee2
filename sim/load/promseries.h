#ifndef MAGOS_SIM_PROMSERIES_H
#define MAGOS_SIM_PROMSERIES_H

/*
 * Synthetic Prometheus series for fleet gates, written in promtool's
 * expanding notation (the `values` of a promtool unit-test `input_series`
 * entry, which promtool and promqltest's `load` command parse with the PromQL
 * parser's series-description grammar), and sampled with the instant-query
 * semantics of the Prometheus engine.
 *
 * Checked against prometheus/prometheus at d15adb9 (2026-08-21):
 * promql/parser/lex.go (lexValueSequence, lexNumber, scanNumber,
 * lexKeywordOrIdentifier), promql/parser/generated_parser.y (series_values,
 * series_item, series_value, number, signed_number, uint), parse.go
 * (parser.number, parser.unexpected, ParseErr, Item.desc), posrange.go
 * (StartPosInput), promql/engine.go (vectorSelectorSingle,
 * defaultLookbackDelta) and docs/configuration/unit_testing_rules.md.
 *
 * Notation (tokens separated by white space: space, tab, CR, LF):
 *   1  -2.5  +5  .5  5.  1e3  1_000  010 (octal, = 8, Go ParseInt base 0)
 *                 a plain value; Inf, NaN in any letter case, with a sign
 *                 token in front when wanted (-Inf, +Inf)
 *   _             one missing sample (a scrape that returned nothing)
 *   _xN           N missing samples (not N+1)
 *   stale         a staleness marker
 *   axN           N+1 samples equal to a (promtool's shorthand for a+0xN;
 *                 they differ only for a = -0, which a+0xN turns into +0
 *                 from the second sample on; `stalexN` is one word, an error)
 *   a+bxN, a-bxN  N+1 samples a, a+b, ..., computed by repeated addition as
 *                 promtool does (so 0.1+0.1x9 ends at 0.9999999999999999)
 *   stale+bxN     a staleness marker followed by N NaN samples (promtool adds
 *                 b to the marker's NaN, which is an ordinary NaN)
 * Durations are NOT values: promtool lexes a value sequence with its number
 * scanner only, so `1m` is `bad number syntax: "1"` there, and here.  (The
 * grammar's `number: DURATION` rule serves PromQL expressions; the series
 * lexer never produces a DURATION token.)  Native histograms (`{{...}}`) are
 * not supported.
 *
 * Time: sample i of a series sits at scenario time i * interval_ms, so every
 * series starts at scenario time 0 (promtool: at the test group's
 * start_timestamp).  Missing samples are absent; a staleness marker hides
 * every older sample.
 */

#include <stddef.h>
#include <stdint.h>

/* Return codes. */
enum {
	PS_OK = 0,
	PS_ESYNTAX = -1, /* the text is not valid expanding notation; see struct ps_error */
};

/* The default lookback of an instant query (Prometheus --query.lookback-delta). */
#define PS_LOOKBACK_MS INT64_C(300000)

/*
 * Computed (a+bxN) samples are stored; promtool would allocate every sample
 * of `0+1x10000000000`.  A series whose arithmetic repetitions need more
 * distinct values than its caller allows (ps_parse_max(); the loader passes
 * what is left of the series-samples limit of sim/base/limits.h, a budget
 * for all the series of a scenario together) is refused instead.  Runs of
 * one value (axN, _xN, and a+bxN once the sum stops changing) cost nothing,
 * whatever their length.
 */

/* What one expanded sample is. */
enum ps_kind {
	PS_MISSING = 0, /* `_`: no sample at this index */
	PS_VALUE = 1,   /* a float value (may be NaN or +-Inf) */
	PS_STALE = 2,   /* a staleness marker */
};

/*
 * A run of consecutive samples produced by one token of the notation.
 * Invariants: count >= 1; runs are in index order and contiguous
 * (runs[k+1].start == runs[k].start + runs[k].count); a PS_MISSING run has
 * first_kind == rest_kind == PS_MISSING and no other run mixes in missing
 * samples.  Sample start+k is: k == 0 -> (first_kind, first);
 * 1 <= k <= ncomputed -> (PS_VALUE, computed[off + k - 1]);
 * k > ncomputed -> (rest_kind, rest).
 */
struct ps_run {
	uint64_t start;
	uint64_t count;
	enum ps_kind first_kind;
	enum ps_kind rest_kind;
	double first;
	double rest;
	size_t off;       /* into ps_series.computed */
	size_t ncomputed; /* stored values after the first */
};

/* A parsed series (caller-owned struct; release with ps_series_release()). */
struct ps_series {
	struct ps_run *runs; /* owned, nruns */
	size_t nruns;
	double *computed;    /* owned, ncomputed: a+bxN values that differ */
	size_t ncomputed;
	uint64_t nsamples;   /* expanded length, missing samples included */
};

/*
 * Where and why a text is refused.  The message is promtool's (the text after
 * `parse error: `), e.g. `unexpected end of input in series values`,
 * `bad number syntax: "1"`, `invalid repetition in series values:
 * strconv.ParseUint: parsing "1.5": invalid syntax`.  Positions count within
 * the values text alone, as promtool's StartPosInput does (bytes; lines split
 * at LF); a loader adds the file position of the text.
 */
struct ps_error {
	size_t offset; /* 0-based byte offset of the bad token */
	int line;      /* 1-based line within the text */
	int col;       /* 1-based byte column within that line */
	char msg[256]; /* NUL-terminated, truncated if longer */
};

/*
 * ps_parse() - parse a values text in expanding notation.
 * @values: NUL-terminated text; "" (or only white space) gives an empty series.
 * @out:    receives the series (initialised here; release with
 *          ps_series_release(), also after an error, which leaves it empty).
 * @err:    receives the first error, as promtool reports the first (may be NULL).
 * Returns: PS_OK, or PS_ESYNTAX with @err filled.
 * Errors:  promtool's messages, at promtool's positions: the lexer's
 *          (`unexpected character in series sequence: '*'`, `bad number
 *          syntax: "1_"`) at the start of the bad token; the parser's
 *          `unexpected <token> in series values` at the token that cannot
 *          follow, `unexpected identifier "foo" in series values, expected
 *          number or "stale"`, `error parsing number: strconv.ParseFloat:
 *          parsing "1e400": value out of range`, `invalid repetition in
 *          series values: ...`.  Two refusals are ours (promtool would try to
 *          allocate): `series values expand to more than 9223372036854775807
 *          samples` and `series values need more than N computed samples`
 *          (N the default of the limit series-samples), both at the
 *          repetition count; and `native histogram series values are not
 *          supported` at `{{`.
 * Cost:    O(length of the text + computed samples).
 */
int ps_parse(const char *values, struct ps_series *out, struct ps_error *err);

/*
 * ps_parse_max() - ps_parse() storing at most @max_computed computed
 * samples (more is the refusal `series values need more than MAX computed
 * samples`).
 */
int ps_parse_max(const char *values, uint64_t max_computed, struct ps_series *out,
		 struct ps_error *err);

/* ps_series_release() - free what @s owns and leave it empty; NULL is fine. */
void ps_series_release(struct ps_series *s);

/*
 * ps_at() - expanded sample @i of @s.
 * @value: receives the value for PS_VALUE (may be NULL); untouched otherwise.
 * Returns: the sample's kind; PS_MISSING when @i >= s->nsamples.
 * Cost:    O(log runs).
 */
enum ps_kind ps_at(const struct ps_series *s, uint64_t i, double *value);

/*
 * ps_sample() - the instant-query value of @s at scenario time @t_ms with the
 * default 5-minute lookback: ps_sample_lookback(s, interval_ms, t_ms,
 * PS_LOOKBACK_MS, value).
 */
int ps_sample(const struct ps_series *s, int64_t interval_ms, int64_t t_ms, double *value);

/*
 * ps_sample_lookback() - what an instant query of the series returns at @t_ms,
 * as Prometheus's vectorSelectorSingle computes it: the most recent present
 * sample at or before @t_ms whose time is strictly after @t_ms - @lookback_ms
 * (the window is left-open since Prometheus 3.0: a sample exactly one
 * lookback old is out); if that sample is a staleness marker there is no
 * sample (older samples are hidden); missing samples are skipped.
 * @s:           parsed series; sample i sits at i * @interval_ms.
 * @interval_ms: sample spacing, ms, > 0 (asserted).
 * @t_ms:        evaluation time, ms since scenario start (negative: no sample).
 * @lookback_ms: window length, ms, > 0 (asserted).
 * @value:       receives the value when there is one (NaN and +-Inf as they
 *               are; the gate maps them to Unknown, spec §2.3.7 step 6).
 * Returns: 1 with *@value set, or 0 for "no sample" (the gate's Unknown).
 * Cost:    O(log runs + missing runs crossed).
 */
int ps_sample_lookback(const struct ps_series *s, int64_t interval_ms, int64_t t_ms,
		       int64_t lookback_ms, double *value);

#endif
