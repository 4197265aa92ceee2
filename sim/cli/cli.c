#include "sim/cli/cli.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int cli_parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;

	if (!s || !*s)
		return -1;
	for (const char *p = s; *p; p++) {
		unsigned d;

		if (*p < '0' || *p > '9')
			return -1;
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int cli_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	uint64_t v;

	if (cli_parse_u64(s, &v) != 0 || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

bool cli_color_wanted(const char *mode, int fd)
{
	const char *term = getenv("TERM");
	const char *nc = getenv("NO_COLOR");

	if (strcmp(mode, "always") == 0)
		return true;
	if (strcmp(mode, "never") == 0)
		return false;
	if (nc && *nc)
		return false;
	if (term && strcmp(term, "dumb") == 0)
		return false;
	return isatty(fd) == 1;
}
