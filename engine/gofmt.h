#ifndef MAGOS_ENGINE_GOFMT_H
#define MAGOS_ENGINE_GOFMT_H

/*
 * Go's text formats that the ported controllers print in their messages,
 * events and JSON: one copy for every engine module.  Pure functions, no
 * I/O; each gives the bytes the named Go function gives (Go 1.22 and later:
 * the JSON short escapes), checked by tests/unit/test_gofmt.c against a table
 * Go printed.
 *
 *   time.Duration.String   gofmt_duration(), gofmt_duration_ms()
 *   strconv.FormatUint     gofmt_uint() (base 10; fmt's %d of an unsigned value)
 *   strconv.FormatFloat    gofmt_float() (shortest: precision -1)
 *   encoding/json float64  gofmt_json_float()
 *   strconv.Quote, %q      gofmt_quote()
 *   time's quote()         gofmt_time_quote() (the quoting of time.ParseDuration's errors)
 *   encoding/json string   gofmt_json_string()
 *
 * Strings in are NUL-terminated UTF-8 (invalid bytes are handled as Go
 * handles them); a string cannot hold NUL, so neither can what is quoted.
 */

#include <stddef.h>
#include <stdint.h>

#define GOFMT_DURATION_LEN 32 /* the longest Duration text ("-2562047h47m16.854775808s") and NUL */
#define GOFMT_FLOAT_LEN 400   /* the longest shortest 'f' text (5e-324: 326 bytes) and NUL */
#define GOFMT_UINT_LEN 21     /* the 20 digits of UINT64_MAX and NUL */

/*
 * gofmt_uint() - strconv.FormatUint(@v, 10): @v in decimal, no sign or
 * leading zeros ("0" for 0), without printf.
 * @out: receives the digits at its end.
 * Returns: a pointer into @out to the NUL-terminated text.  Cannot fail.
 */
const char *gofmt_uint(uint64_t v, char out[GOFMT_UINT_LEN]);

/*
 * gofmt_duration() - time.Duration(@ns).String(): "0s"; under a second in
 * ns, µs (U+00B5) or ms with the fraction trimmed ("1.5ms"); from a second
 * on h, m and s ("1h0m0.5s", "2m3s").
 * @out: receives the text.
 * Returns: @out.
 */
const char *gofmt_duration(int64_t ns, char out[GOFMT_DURATION_LEN]);

/*
 * gofmt_duration_ms() - gofmt_duration(@ms × 1e6) for a duration in ms,
 * without the product's overflow: beyond Go's range (about ±292 years) the
 * same form goes on ("2562047788015h12m55.807s").
 * Returns: @out.
 */
const char *gofmt_duration_ms(int64_t ms, char out[GOFMT_DURATION_LEN]);

/*
 * gofmt_float() - strconv.FormatFloat(@v, @fmt, -1, @bits): the shortest
 * digits that read back as @v at @bits (32: as float32, after rounding @v to
 * one; 64: as float64).
 * @fmt: 'e' (d.ddde±dd), 'f' (no exponent) or 'g' ('e' when the decimal
 *       exponent is below -4 or at least 6, as Go's shortest 'g' decides,
 *       else 'f').
 * @v: any double; NaN and ±Inf print as Go prints them ("NaN", "+Inf", "-Inf").
 * Returns: @out.
 */
const char *gofmt_float(double v, char fmt, int bits, char out[GOFMT_FLOAT_LEN]);

/*
 * gofmt_json_float() - the text encoding/json writes for a float64 @v
 * (shortest; exponent form below 1e-6 and from 1e21 on, "e-07" as "e-7").
 * @v: finite (json refuses NaN and ±Inf; here they print as gofmt_float()).
 * Returns: @out.
 */
const char *gofmt_json_float(double v, char out[GOFMT_FLOAT_LEN]);

/*
 * gofmt_quote() - @s as strconv.Quote (and so fmt's %q) prints it:
 * double-quoted, " and \ escaped, \a \b \f \n \r \t \v, other non-printable
 * runes as \xHH, \uHHHH or \UHHHHHHHH, invalid bytes as \xHH.  Printability
 * of non-ASCII runes is unicode.IsPrint approximated: C1 controls, non-ASCII
 * spaces, line/paragraph separators, the common format characters, private
 * use and non-characters are escaped, every other rune (unassigned ones too)
 * printed.
 * Returns: a new string (caller frees).  Cannot fail (aborts on OOM).
 */
char *gofmt_quote(const char *s);

/*
 * gofmt_time_quote() - @s as the time package's quote() prints it in
 * time.ParseDuration's errors: double-quoted, " and \ escaped, every byte
 * outside printable ASCII as \xHH.
 * Returns: a new string (caller frees).  Cannot fail (aborts on OOM).
 */
char *gofmt_time_quote(const char *s);

/*
 * gofmt_json_string() - @s as encoding/json (Go >= 1.22) marshals a string:
 * HTML-safe (<, >, & as \u003c, \u003e, \u0026), \b \f \n \r \t, other
 * controls as \u00XX, U+2028 and U+2029 escaped, invalid UTF-8 as \ufffd.
 * Returns: a new string with the quotes (caller frees).  Cannot fail.
 */
char *gofmt_json_string(const char *s);

#endif
