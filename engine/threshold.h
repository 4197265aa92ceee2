#ifndef MAGOS_ENGINE_THRESHOLD_H
#define MAGOS_ENGINE_THRESHOLD_H

/*
 * Gate thresholds and the metric-source host allowlist, as
 * stageset-controller evaluates them (spec §1.4, §2.3.7), with the pieces of
 * Go's standard library they rest on:
 *
 *  - thr_parse_float():  strconv.ParseFloat(s, 64);
 *  - thr_satisfied():    metricsource.ThresholdSatisfied (inclusive bounds);
 *  - thr_path_match():   path.Match (the --allowed-action-hosts globs);
 *  - thr_url_hostname(), thr_host_allowed(): url.Parse + URL.Hostname and
 *                        HTTPQuerier.allowedHost;
 *  - thr_format_g():     fmt's %.<prec>g of a float64 (the Halted message
 *                        prints the metric with %.4g).
 *
 * Source: metio/stageset-controller@f2c7604 internal/metricsource/metricsource.go
 *         ThresholdSatisfied, allowedHost, queryPrometheus (address checks);
 *         Go 1.x src/strconv/atof.go (special, readFloat, underscoreOK,
 *         ParseFloat), src/path/match.go (Match, scanChunk, matchChunk, getEsc),
 *         src/strconv/ftoa.go + src/fmt/format.go (%g, fmtFloat).
 *
 * Everything here is pure: no locale (the C library's strtod and snprintf
 * are used only on text this module built itself, whose decimal point is
 * '.', which holds in the "C" locale the simulator never changes).
 */

#include <stdbool.h>
#include <stddef.h>

/* Return codes. */
enum {
	THR_OK = 0,
	THR_ESYNTAX = -1,     /* strconv.ErrSyntax */
	THR_ERANGE = -2,      /* strconv.ErrRange: finite text beyond float64 */
	THR_EBADPATTERN = -3, /* path.ErrBadPattern */
	THR_EURL = -4,        /* the address is not an http(s) URL with a host */
};

/* Buffer size that holds every error text of this module for bounds up to 200 bytes. */
#define THR_ERRLEN 512
/* Buffer size that always holds thr_format_g() output for prec <= 17. */
#define THR_GBUFSZ 40

/*
 * thr_parse_float() - strconv.ParseFloat(@s, 64).
 * @s:   NUL-terminated text.  Accepted, exactly as Go: an optional sign; a
 *       decimal mantissa with an optional '.' (".5", "5.", "1_000.5") and an
 *       optional exponent e/E[+-]digits; or a hexadecimal mantissa after
 *       0x/0X whose binary exponent p/P is required ("0x1p-2", "0x1.8p1");
 *       '_' only between digits or between the 0x prefix and a digit
 *       (underscoreOK); "inf", "infinity" with an optional sign and "nan"
 *       without one, in any letter case.  No spaces.
 * @out: receives the value (correctly rounded, round half to even); on
 *       THR_ERANGE ±Inf, on THR_ESYNTAX 0.  May be NULL.
 * Returns: THR_OK; THR_ESYNTAX; THR_ERANGE when well-formed text rounds
 *          beyond the largest float64 ("1e309").  Underflow is not an error:
 *          "1e-400" is 0 and denormals are kept, as in Go.
 * Deviations: Go caps a decimal exponent at 10000 while reading, which can
 *          misround text with more than 10000 leading or trailing zero
 *          digits; this port rounds the exact value.  A Go string may hold
 *          a NUL byte (always a syntax error); a C string ends there.
 */
int thr_parse_float(const char *s, double *out);

/*
 * thr_parse_float_error() - the text of Go's *NumError for a failed
 * ParseFloat, e.g. `strconv.ParseFloat: parsing "abc": invalid syntax` or
 * `strconv.ParseFloat: parsing "1e400": value out of range`.
 * @s:      the text that failed (quoted as Go's strconv.Quote does).
 * @rc:     THR_ESYNTAX or THR_ERANGE.
 * @buf, @len: output, always NUL-terminated when @len > 0, truncated.
 * Returns: @buf.
 */
char *thr_parse_float_error(const char *s, int rc, char *buf, size_t len);

/*
 * thr_satisfied() - metricsource.ThresholdSatisfied: is @value within the
 * inclusive bounds?
 * @min, @max: the bound texts, NULL when the bound is absent (no limit).
 * @value:     the metric.
 * @ok:        receives true when min <= value <= max as Go compares them
 *             (a NaN bound or a NaN value never fails a comparison, so a NaN
 *             bound is no limit); false on error.
 * @err:       on error receives `threshold min "x" is not a number: <ParseFloat error>`
 *             (or max); may be NULL when @errlen is 0.  The min bound is parsed
 *             (and compared) first: a failing min hides a malformed max.
 * Returns: THR_OK, or THR_ESYNTAX / THR_ERANGE when the bound that was
 *          reached does not parse (the fleet's verdict is then Unknown).
 */
int thr_satisfied(const char *min, const char *max, double value, bool *ok, char *err,
		  size_t errlen);

/*
 * thr_path_match() - path.Match(@pattern, @name).
 * Pattern syntax: '*' any run of non-'/' bytes; '?' one non-'/' character
 * (UTF-8 rune); '[' ['^'] ranges ']' a non-empty class of runes or lo-hi
 * ranges, '\\' escapes; any other byte matches itself.  The whole @name must
 * match.  Case-sensitive.
 * @matched: receives the result (false on a bad pattern).
 * Returns: THR_OK, or THR_EBADPATTERN when Go returns ErrBadPattern (which
 *          it does only for the part of the pattern it reached, or, on a
 *          mismatch, for any later chunk).
 */
int thr_path_match(const char *pattern, const char *name, bool *matched);

/*
 * thr_url_hostname() - what queryPrometheus / queryWebhook check of the
 * address: url.Parse must succeed, the scheme (compared lower-cased) must be
 * http or https and the host non-empty; then URL.Hostname(): the host
 * without ":port" and without the brackets of an IPv6 literal.
 * @address: NUL-terminated URL, e.g. "http://prometheus.monitoring:9090/".
 * @buf, @len: receives the host name (truncated if @len is too small).
 * Returns: THR_OK, or THR_EURL (upstream: `invalid prometheus address "..."`,
 *          verdict Unknown).
 * Deviations: url.Parse's full grammar is approximated: userinfo, query and
 *          fragment are split off as Go does, a port must be digits, and a
 *          host containing a space, control byte or one of `<>"{}|\^` is
 *          refused; Go's percent-decoding of host names is not done.
 */
int thr_url_hostname(const char *address, char *buf, size_t len);

/*
 * thr_host_allowed() - HTTPQuerier.allowedHost: with no patterns every host
 * is allowed; otherwise @host with one trailing '.' removed must
 * thr_path_match() at least one pattern (a bad pattern matches nothing).
 * @patterns: @n NUL-terminated globs (--allowed-action-hosts), borrowed.
 * @host:     a URL host name as thr_url_hostname() returns it.
 * Returns: true when allowed.  Upstream's refusal text is
 *          `<host> not in --allowed-action-hosts` (host after trimming).
 */
bool thr_host_allowed(const char *const *patterns, size_t n, const char *host);

/*
 * thr_format_g() - what Go's fmt prints for the verb %.<prec>g of a float64.
 * Finite values: @prec significant digits (0 counts as 1), rounded half to
 * even on the exact binary value, trailing zeros dropped, exponent form
 * when the exponent is < -4 or >= @prec, exponent with a sign and at least
 * two digits: 0.5, 0.1235, 1.235e+04, 1e-05, -0.  Infinities print "+Inf"
 * and "-Inf", NaN prints "NaN".
 * @prec: 0..17.
 * @buf, @len: output, NUL-terminated when @len > 0 (THR_GBUFSZ is enough).
 * Returns: @buf.
 */
char *thr_format_g(double v, int prec, char *buf, size_t len);

#endif
