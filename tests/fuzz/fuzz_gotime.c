/*
 * Go durations and RFC 3339 times (sim/base/gotime.h) on any text.
 * Oracles: round trips.  A duration that parses formats to a text that
 * parses back to the same nanoseconds (Go's String() is ParseDuration's
 * inverse); a time that parses formats (UTC, millisecond fraction) to a text
 * that parses back to the same millisecond whenever its UTC year is in
 * 0000..9999; the millisecond parsers agree with the nanosecond ones.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "sim/base/gotime.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z in Unix ms. */
#define MIN_MS (-62167219200000LL)
#define MAX_MS 253402300799999LL

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_string(data, size);
	char buf[128], err[256];
	int64_t ns, ns2, ms, ms2, sec;
	int32_t nsec;

	if (gt_parse_duration_ns(s, &ns, err, sizeof(err)) == 0) {
		gt_format_duration_ns(ns, buf, sizeof(buf));
		if (gt_parse_duration_ns(buf, &ns2, NULL, 0) != 0 || ns2 != ns)
			fuzz_fail("a duration does not survive format and parse", size);
		if (gt_parse_duration(s, &ms, NULL, 0) != 0)
			fuzz_fail("a duration parses in ns but not in ms", size);
	} else if (gt_parse_duration(s, &ms, NULL, 0) == 0) {
		fuzz_fail("a duration parses in ms but not in ns", size);
	}
	if (gt_parse_rfc3339(s, &ms, err, sizeof(err)) == 0) {
		if (gt_parse_rfc3339_ns(s, &sec, &nsec, NULL, 0) != 0 ||
		    ms != sec * 1000 + nsec / 1000000)
			fuzz_fail("the ms and ns time parsers disagree", size);
		gt_format_rfc3339_nano(ms, buf, sizeof(buf));
		if (ms >= MIN_MS && ms <= MAX_MS &&
		    (gt_parse_rfc3339(buf, &ms2, NULL, 0) != 0 || ms2 != ms))
			fuzz_fail("a time does not survive format and parse", size);
		gt_format_rfc3339(ms, buf, sizeof(buf));
	} else if (gt_parse_rfc3339_ns(s, &sec, &nsec, NULL, 0) == 0) {
		fuzz_fail("a time parses in ns but not in ms", size);
	}
	free(s);
	return 0;
}
