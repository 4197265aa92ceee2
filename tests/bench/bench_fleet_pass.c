/*
 * bench_fleet_pass - the cost of one FleetRollout pass (fr_reconcile) over a
 * fleet of N StageSets, from scratch (as upstream computes it) and with the
 * caches sim/wire/fleet_rc keeps (assignment, member facts and the tally), while
 * one member changes between passes.
 *
 * Fleet: N members in N/10 namespaces, labels {app: bench, wave: "<k>"},
 * one FleetRollout in derived mode with 10 waves selecting wave k; every
 * member starts adopted and Ready on 1.0.0.  Each timed pass follows a
 * change of one member (held for 1.1.0 or settled on it, in turn), which
 * the cached path learns through fr_tally_update().
 *
 * Prints, per N (default 1000, 10000 and 100000; or the first argument):
 *   fleet pass <N> members: full <us> us/pass, cached <us> us/pass (<ratio>x)
 * The cached figure should stay flat as N grows: a pass is O(waves +
 * changed members) with the caches, O(members) without.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/fleet_rollout.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"

#define NWAVES 10

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct val *yaml(const char *text)
{
	struct yl_stream s;
	struct diag d;
	struct val *v = NULL;

	diag_init(&d);
	if (yl_load_string("spec", text, strlen(text), &s, &d) == 0 && s.n == 1) {
		v = val_copy(s.docs[0].root);
		yl_stream_release(&s);
	}
	diag_release(&d);
	if (!v) {
		fprintf(stderr, "bench_fleet_pass: bad spec\n");
		exit(1);
	}
	return v;
}

/* Ready @status with version/pendingVersion as given, observedGeneration 1. */
static void set_status(struct obj *m, const char *version, const char *pending, const char *status)
{
	struct val *conds = val_new_list(), *c = val_new_map();

	val_map_set(m->status, "version", val_new_string(version));
	val_map_set(m->status, "pendingVersion", val_new_string(pending));
	val_map_set(m->status, "observedGeneration", val_new_int(1));
	val_map_set(c, "type", val_new_string("Ready"));
	val_map_set(c, "status", val_new_string(status));
	val_list_push(conds, c);
	val_map_set(m->status, "conditions", conds);
}

static void bench(size_t n)
{
	struct obj **ss = xcalloc(n, sizeof(*ss));
	struct fr_member_facts *facts = xcalloc(n, sizeof(*facts));
	struct fr_result first, r;
	struct fr_assignment as;
	struct fr_tally *tally;
	struct fr_input in;
	struct obj *fr;
	char *spec;
	size_t len = 0;
	int passes = 2000, full_passes = n >= 100000 ? 20 : 200;
	double t0, full_us, cached_us;

	spec = xmalloc(4096);
	len += (size_t)snprintf(spec, 4096, "{selector: {matchLabels: {app: bench}}, waves: [");
	for (int k = 0; k < NWAVES; k++)
		len += (size_t)snprintf(spec + len, 4096 - len,
					"%s{name: w%d, selector: {matchLabels: {wave: '%d'}}, soak: 5m}",
					k ? ", " : "", k, k);
	snprintf(spec + len, 4096 - len, "]}");
	fr = obj_new("stages.metio.wtf/v1", "FleetRollout", NULL, "fleet");
	fr->spec = yaml(spec);
	free(spec);
	/* names sort as the List does: namespace, then name */
	for (size_t i = 0; i < n; i++) {
		char ns[32], name[32], wave[32];

		snprintf(ns, sizeof(ns), "tenant-%07zu", i / 10);
		snprintf(name, sizeof(name), "app-%zu", i % 10);
		snprintf(wave, sizeof(wave), "%zu", i * NWAVES / n);
		ss[i] = obj_new("stages.metio.wtf/v1", "StageSet", ns, name);
		obj_strmap_set(&ss[i]->labels, "app", "bench");
		obj_strmap_set(&ss[i]->labels, "wave", wave);
		ss[i]->status = val_new_map();
		set_status(ss[i], "1.0.0", "", "True");
	}
	memset(&in, 0, sizeof(in));
	in.fr = fr;
	in.stagesets = (const struct obj *const *)ss;
	in.nstagesets = n;
	in.now_ms = 1784462400000LL;
	in.now_text = "2026-07-19T12:00:00Z";
	if (fr_reconcile(&in, &first) != FR_OK || !first.version_label) {
		fprintf(stderr, "bench_fleet_pass: the first pass did not assign the members\n");
		exit(1);
	}
	as = (struct fr_assignment){ first.members, first.nmembers, first.waves, first.nwaves,
				     first.noverlap, first.first_overlap };
	for (size_t i = 0; i < n; i++)
		fr_member_facts_of(ss[i], &facts[i]);
	tally = fr_tally_new(fr, &as, facts, n);

	t0 = wall_seconds();
	for (int k = 0; k < full_passes; k++) {
		size_t i = (size_t)k * 7919 % n;

		if (k % 2 == 0)
			set_status(ss[i], "1.0.0", "1.1.0", "False");
		else
			set_status(ss[i], "1.1.0", "", "True");
		fr_reconcile(&in, &r);
		fr_result_release(&r);
	}
	full_us = (wall_seconds() - t0) * 1e6 / full_passes;
	for (size_t i = 0; i < n; i++) {
		fr_member_facts_of(ss[i], &facts[i]);
		fr_tally_update(tally, i, &facts[i]);
	}

	in.assignment = &as;
	in.facts = facts;
	in.tally = tally;
	t0 = wall_seconds();
	for (int k = 0; k < passes; k++) {
		size_t i = (size_t)k * 7919 % n;

		if (k % 2 == 0)
			set_status(ss[i], "1.0.0", "1.1.0", "False");
		else
			set_status(ss[i], "1.1.0", "", "True");
		fr_member_facts_of(ss[i], &facts[i]);
		fr_tally_update(tally, i, &facts[i]);
		fr_reconcile(&in, &r);
		fr_result_release(&r);
	}
	cached_us = (wall_seconds() - t0) * 1e6 / passes;
	printf("fleet pass %zu members: full %.1f us/pass, cached %.1f us/pass (%.0fx)\n", n,
	       full_us, cached_us, cached_us > 0 ? full_us / cached_us : 0.0);

	fr_tally_free(tally);
	fr_result_release(&first);
	for (size_t i = 0; i < n; i++)
		obj_free(ss[i]);
	free(ss);
	free(facts);
	obj_free(fr);
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		long n = strtol(argv[1], NULL, 10);

		if (n < NWAVES) {
			fprintf(stderr, "usage: bench_fleet_pass [N >= %d]\n", NWAVES);
			return 2;
		}
		bench((size_t)n);
		return 0;
	}
	bench(1000);
	bench(10000);
	bench(100000);
	return 0;
}
