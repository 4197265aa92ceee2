/*
 * bench_des - end-to-end throughput of the simulation runtime: store writes,
 * watch deliveries, work queues, timers and the timeline together.
 *
 * World: N objects (default 1000; first argument), one controller with For()
 * and no predicate.  Each reconcile reads its object and merge-patches
 * status.lastReconcile (ms) and status.polls, then asks for RequeueAfter a
 * deterministic pseudo-random 1..60 s.  Its own status write wakes it once
 * more at the same instant (a no-op write then), as a real For() does.  So one
 * poll is 4 events: timer, reconcile (write), delivery, reconcile (no-op).
 *
 * Prints: des: <events/s> events/s (<events> events, <objects> objects,
 * <entries> timeline entries, <simulated> h simulated, <wall> s, <bytes>/entry)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sys/resource.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "sim/core/timeline.h"

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* splitmix64: a deterministic spread of delays from (key, time) */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static struct ctl_result reconcile(void *ctx, struct des *w, const char *ns, const char *name,
				   int64_t now)
{
	const struct obj *o = api_get(des_api(w), "StageSet", ns, name);
	struct ctl_result r = { 0 };
	struct val *p;
	uint64_t h = 1469598103934665603ULL;

	(void)ctx;
	if (!o)
		return r;
	for (const char *s = name; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	p = val_new_map();
	val_map_set(p, "lastReconcile", val_new_int(now));
	val_map_set(p, "phase", val_new_string("Ready"));
	api_patch_status(des_api(w), "StageSet", ns, name, p);
	val_free(p);
	r.requeue_after_ms = 1000 + (int64_t)(mix(h ^ (uint64_t)now) % 59000);
	return r;
}

int main(int argc, char **argv)
{
	int nobj = argc > 1 ? atoi(argv[1]) : 1000;
	int64_t horizon = argc > 2 ? atoll(argv[2]) : INT64_C(4) * 3600 * 1000;
	struct des *w = des_new(NULL);
	struct ctl *c = ctl_new(w, "stageset-controller", reconcile, NULL);
	enum des_stop stop;
	double t0, t1;
	char name[32];
	uint64_t ev;
	size_t entries, mem;
	struct rusage ru;

	if (nobj <= 0) {
		fprintf(stderr, "bench_des: object count must be positive\n");
		return 2;
	}
	ctl_for(c, "StageSet", NULL, NULL);
	des_set_cause(w, "load");
	for (int i = 0; i < nobj; i++) {
		struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", i % 2 ? "team-a" : "team-b",
					NULL);

		snprintf(name, sizeof(name), "svc-%05d", i);
		free(o->name);
		o->name = strdup(name);
		obj_strmap_set(&o->labels, "fleet", "payments");
		o->spec = val_new_map();
		val_map_set(o->spec, "approvalMode", val_new_string("Always"));
		val_map_set(o->spec, "interval", val_new_string("5m"));
		api_create(des_api(w), o);
	}
	t0 = wall_seconds();
	stop = des_run(w, horizon, NULL);
	t1 = wall_seconds();
	ev = des_events(w);
	entries = tl_count(des_timeline(w));
	mem = tl_memory(des_timeline(w));
	getrusage(RUSAGE_SELF, &ru);
	printf("des: %.0f events/s (%" PRIu64 " events, %d objects, %zu timeline entries, "
	       "%.1f h simulated, %.3f s, %.1f timeline bytes/entry, peak RSS %ld KiB, "
	       "stop: %s)\n",
	       (double)ev / (t1 - t0), ev, nobj, entries, (double)horizon / 3.6e6, t1 - t0,
	       entries ? (double)mem / (double)entries : 0.0, ru.ru_maxrss, des_stop_name(stop));
	des_free(w);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 4;
	return 0;
}
