/*
 * Partial results and `magos-sim merge` (reports/partial.h, sim/cli/merge.c):
 * the input is a partial result's JSON.  It is read, merged alone (a shard
 * 1/1 is a whole set) and through the merge command with every output (the
 * tables, JSON and CSV, to /dev/null), and merged with itself (two copies of
 * a slice overlap).  Oracles: a partial that reads merges alone exactly when
 * its slice is the whole set, and never merges with itself unless empty;
 * the statistics of its rows sketched from the first value (sim/plan/stats.h)
 * have the exact counts, censoring, min and max, and every percentile within
 * PLAN_SKETCH_REL_ERR of the exact one.
 */
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include <math.h>

#include "reports/partial.h"
#include "sim/plan/stats.h"
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

/* The sketched @sk against the exact @ex (sim/plan/stats.h's promise). */
static void same_within(const struct plan_dist *ex, const struct plan_dist *sk, size_t size)
{
	if (sk->n != ex->n || sk->ncensored != ex->ncensored)
		fuzz_fail("the sketch counts other trials than the exact statistics", size);
	if (sk->n == sk->ncensored)
		return;
	if (sk->min != ex->min || sk->max != ex->max)
		fuzz_fail("the sketch has another min or max", size);
	for (int k = 0; k < PLAN_NPCT; k++) {
		if (sk->p_censored[k] != ex->p_censored[k])
			fuzz_fail("the sketch censors another percentile", size);
		if (!ex->p_censored[k] &&
		    fabs(sk->p[k] - ex->p[k]) > PLAN_SKETCH_REL_ERR * ex->p[k] * (1 + 1e-9) + 1e-9)
			fuzz_fail("a sketched percentile is further from the exact one than its error",
				  size);
	}
}

/* The statistics of @p's rows, exact and sketched from the first value, agree. */
static void sketch_oracle(const struct partial *p, size_t size)
{
	struct plan_stats ex, sk;

	if (!p->nin || !p->in[0].rows)
		return;
	plan_stats_compute(p->in[0].rows, p->n, p->horizon_ms, SIZE_MAX, &ex);
	plan_stats_compute(p->in[0].rows, p->n, p->horizon_ms, 0, &sk);
	if (p->n && !sk.sketched)
		fuzz_fail("a budget of 0 values kept the statistics exact", size);
	same_within(&ex.ttc, &sk.ttc, size);
	same_within(&ex.blast_count, &sk.blast_count, size);
	same_within(&ex.blast_share, &sk.blast_share, size);
	same_within(&ex.detection, &sk.detection, size);
	same_within(&ex.exposure, &sk.exposure, size);
	same_within(&ex.peak_jobs, &sk.peak_jobs, size);
	same_within(&ex.peak_adopting, &sk.peak_adopting, size);
	same_within(&ex.job_wait, &sk.job_wait, size);
	if (ex.nphases != sk.nphases || ex.nhalts != sk.nhalts || ex.nbound != sk.nbound)
		fuzz_fail("the sketch counts other phases, halts or bound trials", size);
	for (size_t i = 0; i < ex.nphases; i++) {
		same_within(&ex.phases[i].duration, &sk.phases[i].duration, size);
		if (ex.phases[i].ncritical != sk.phases[i].ncritical)
			fuzz_fail("the sketch counts another critical path", size);
	}
	plan_stats_release(&ex);
	plan_stats_release(&sk);
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
	sketch_oracle(&p[0], size);
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
