/*
 * bench_trials - Monte Carlo throughput: trials/s of one scenario at several
 * thread counts, and the speed-up over one thread.
 *
 * Usage: bench_trials [SCENARIO [N [J...]]]
 *   SCENARIO  default scenarios/three-environments.yaml (run from the repo root)
 *   N         trials per measurement, default 1000
 *   J...      thread counts, default 1 2
 * The scenario is loaded once (as `run -n` does); each measurement runs the N
 * trials with trials_run() and computes their statistics, the work `run -n N`
 * does besides printing.  Each is repeated 3 times; the median wall time is
 * reported, with the CPU time (user + system) of that repetition.
 *
 * Prints one line per J:
 *   trials: J=<j> <trials/s> trials/s (<n> trials in <wall> s wall, <cpu> s CPU, speed-up <x>)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/resource.h>

#include "sim/base/limits.h"
#include "sim/plan/stats.h"
#include "sim/plan/trials.h"
#include "sim/base/diag.h"
#include "sim/core/rng.h"

#define REPS 3

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* One measurement: wall and CPU seconds of n trials on j threads. */
static int measure(const struct scenario *s, uint32_t n, unsigned j, double *wall, double *cpu)
{
	struct trials_opts o = { 0 };
	struct trial_row *rows = NULL;
	struct plan_stats st;
	double w0 = wall_seconds(), c0 = cpu_seconds();

	o.n = n;
	o.jobs = j;
	if (trials_run(s, &o, &rows) != 0)
		return -1;
	plan_stats_compute(rows, n, s->horizon_ms, lim_default(LIM_EXACT_VALUES), &st);
	*wall = wall_seconds() - w0;
	*cpu = cpu_seconds() - c0;
	plan_stats_release(&st);
	for (uint32_t i = 0; i < n; i++)
		trial_row_release(&rows[i]);
	free(rows);
	return 0;
}

int main(int argc, char **argv)
{
	const char *path = argc > 1 ? argv[1] : "scenarios/three-environments.yaml";
	uint32_t n = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 10) : 1000;
	unsigned deflt[] = { 1, 2 }, *js = deflt, nj = 2;
	struct scenario s;
	struct diag d;
	double base = 0;
	int rc = 0;

	rng_gsl_init();
	if (argc > 3) {
		nj = (unsigned)(argc - 3);
		js = calloc(nj, sizeof(*js));
		for (unsigned i = 0; i < nj; i++)
			js[i] = (unsigned)strtoul(argv[3 + i], NULL, 10);
	}
	if (n == 0) {
		fprintf(stderr, "bench_trials: N must be at least 1\n");
		return 2;
	}
	diag_init(&d);
	scn_init(&s);
	if (scn_load(&path, 1, &s, &d) != 0 || diag_has_errors(&d)) {
		diag_print(&d, stderr, false);
		rc = 3;
		goto out_release;
	}
	for (unsigned i = 0; i < nj; i++) {
		double wall[REPS], cpu[REPS], w, c = 0;

		for (int r = 0; r < REPS; r++)
			if (measure(&s, n, js[i] ? js[i] : 1, &wall[r], &cpu[r]) != 0) {
				perror("bench_trials: threads");
				rc = 70;
				goto out_release;
			}
		memcpy(&w, &wall[0], sizeof(w));
		{
			double sorted[REPS];

			memcpy(sorted, wall, sizeof(sorted));
			qsort(sorted, REPS, sizeof(double), cmp_double);
			w = sorted[REPS / 2];
			for (int r = 0; r < REPS; r++)
				if (wall[r] == w)
					c = cpu[r];
		}
		if (i == 0)
			base = w;
		printf("trials: J=%u %.0f trials/s (%u trials in %.3f s wall, %.3f s CPU, speed-up %.2f)\n",
		       js[i], (double)n / w, n, w, c, base / w);
	}

out_release:
	scn_release(&s);
	diag_release(&d);
	if (js != deflt)
		free(js);
	return rc;
}
