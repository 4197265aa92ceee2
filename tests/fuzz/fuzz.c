#include "tests/fuzz/fuzz.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/xalloc.h"

const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
	static char dir[64], path[128];
	FILE *f;

	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "/tmp/magos-fuzz-XXXXXX");
		if (!mkdtemp(dir))
			abort();
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
		abort();
	return path;
}

char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

FILE *fuzz_null(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	if (!f)
		abort();
	return f;
}

void fuzz_limits(struct limits *l)
{
	lim_init(l);
	l->v[LIM_INPUT_BYTES] = 1 << 20;
	l->v[LIM_FILES] = 8;
	l->v[LIM_INCLUDE_SCAN] = 200;
	l->v[LIM_DOCUMENTS] = 2000;
	l->v[LIM_ALIAS_NODES] = 20000;
	l->v[LIM_SERIES_SAMPLES] = 20000;
	l->v[LIM_GENERATED] = 300;
	l->v[LIM_ERRORS] = 20;
}

_Noreturn void fuzz_fail(const char *what, size_t size)
{
	fprintf(stderr, "fuzz oracle failed: %s (input of %zu bytes)\n", what, size);
	abort();
}
