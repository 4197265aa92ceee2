/*
 * Partial results and `magos-sim merge` (reports/partial.h, sim/cli/merge.c):
 * the input is a partial result's JSON.  It is read, merged alone (a shard
 * 1/1 is a whole set) and through the merge command with every output (the
 * tables, JSON and CSV, to /dev/null), and merged with itself (two copies of
 * a slice overlap).  Oracles: a partial that reads merges alone exactly when
 * its slice is the whole set, and never merges with itself unless empty.
 */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include "reports/partial.h"
#include "sim/cli/compare.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	int fd = open("/dev/null", O_WRONLY);

	/* The command prints its tables on stdout: not in the fuzzer's log. */
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		abort();
	close(fd);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "partial.json");
	const char *paths[2] = { path, path };
	struct partial p[2], out;
	char err[1024];
	uint64_t budget = 1 << 20;
	bool whole;
	/* getopt wants writable strings. */
	char a0[] = "merge", a1[] = "-q", a2[] = "--json", a3[] = "/dev/null", a4[] = "--csv",
	     a5[] = "/dev/./null", a6[64];
	char *argv[] = { a0, a1, a2, a3, a4, a5, a6, NULL };

	if (partial_read(path, &budget, &p[0], err, sizeof(err)) != 0) {
		if (!strstr(err, "partial.json"))
			fuzz_fail("a refusal that does not name the file", size);
		partial_release(&p[0]);
		return 0;
	}
	if (partial_read(path, &budget, &p[1], err, sizeof(err)) != 0)
		fuzz_fail("the same file reads once but not twice", size);
	/* (partial_merge() moves the rows out: read the slice before.) */
	whole = p[0].first == 0 && p[0].n == p[0].total;
	if (partial_merge(p, 1, paths, &out, err, sizeof(err)) == 0) {
		if (!whole || out.n != out.total)
			fuzz_fail("a partial slice merged alone into a whole set", size);
		partial_release(&out);
	} else if (whole && strstr(err, "missing")) {
		fuzz_fail("a whole slice is reported as missing trials", size);
	}
	partial_release(&p[0]);
	partial_release(&p[1]);
	if (partial_read(path, &budget, &p[0], err, sizeof(err)) == 0 &&
	    partial_read(path, &budget, &p[1], err, sizeof(err)) == 0) {
		uint32_t n = p[0].n;

		if (partial_merge(p, 2, paths, &out, err, sizeof(err)) == 0) {
			if (n != 0)
				fuzz_fail("a slice merged with itself", size);
			partial_release(&out);
		}
	}
	partial_release(&p[0]);
	partial_release(&p[1]);
	snprintf(a6, sizeof(a6), "%s", path);
	cmd_merge(7, argv);
	return 0;
}
