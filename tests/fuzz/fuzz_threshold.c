/*
 * Gate thresholds and the text they parse (engine/threshold.h): Go's
 * ParseFloat, %g, ThresholdSatisfied, path.Match and the address check.
 * The input is up to three lines: MIN, MAX and VALUE (or a pattern and a
 * name, or an address).  Oracles: on plain decimal text ParseFloat agrees
 * with strtod(3) bit for bit (both round correctly) and overflows exactly
 * when it does; %.Ng of a finite value is C's %.*g; 17 significant digits
 * parse back to the same value; ThresholdSatisfied is min <= v <= max.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/threshold.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* [+-]?(d+(.d*)?|.d+)([eE][+-]?d+)? : the text strtod and ParseFloat read alike. */
static bool plain_decimal(const char *s)
{
	bool digits = false;

	if (*s == '+' || *s == '-')
		s++;
	while (*s >= '0' && *s <= '9')
		s++, digits = true;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++)
			digits = true;
	if (!digits)
		return false;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			s++;
		if (!(*s >= '0' && *s <= '9'))
			return false;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return *s == '\0';
}

static void check_float(const char *s, size_t size)
{
	double v = 0, back = 0;
	int rc = thr_parse_float(s, &v);
	char g[THR_GBUFSZ], c[64], err[THR_ERRLEN];

	if (rc != THR_OK) {
		thr_parse_float_error(s, rc, err, sizeof(err));
		if (strncmp(err, "strconv.ParseFloat: parsing ", 28) != 0)
			fuzz_fail("a ParseFloat error without Go's prefix", size);
	}
	if (plain_decimal(s)) {
		double d;

		errno = 0;
		d = strtod(s, NULL);
		if ((isinf(d) != 0) != (rc == THR_ERANGE) || (rc == THR_OK && memcmp(&d, &v, sizeof(d)) != 0))
			fuzz_fail("ParseFloat disagrees with strtod", size);
	}
	if (rc != THR_OK || !isfinite(v))
		return;
	for (int p = 0; p <= 17; p++) {
		thr_format_g(v, p, g, sizeof(g));
		snprintf(c, sizeof(c), "%.*g", p, v);
		if (strcmp(g, c) != 0)
			fuzz_fail("%g differs from C's", size);
	}
	thr_format_g(v, 17, g, sizeof(g));
	if (thr_parse_float(g, &back) != THR_OK || memcmp(&back, &v, sizeof(v)) != 0)
		fuzz_fail("17 digits do not parse back to the value", size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_string(data, size), *line[3] = { NULL, NULL, NULL }, *p = text, host[256];
	char err[THR_ERRLEN];
	double v = 0, lo = 0, hi = 0;
	bool ok, matched;
	int rc;

	for (int i = 0; i < 3 && p; i++) {
		line[i] = p;
		p = strchr(p, '\n');
		if (p)
			*p++ = '\0';
	}
	check_float(line[0], size);
	if (line[1]) {
		check_float(line[1], size);
		thr_path_match(line[0], line[1], &matched);
	}
	thr_url_hostname(line[0], host, sizeof(host));
	if (line[2] && thr_parse_float(line[2], &v) == THR_OK) {
		rc = thr_satisfied(line[0], line[1], v, &ok, err, sizeof(err));
		if (rc == THR_OK && thr_parse_float(line[0], &lo) == THR_OK &&
		    thr_parse_float(line[1], &hi) == THR_OK && ok != (!(v < lo) && !(v > hi)))
			fuzz_fail("ThresholdSatisfied is not min <= v <= max", size);
	}
	free(text);
	return 0;
}
