/*
 * Spans of whole runs of example scenarios at their own seeds: the exact
 * spans of a few targets, the steps and waves, halts, gate evaluations,
 * rollback stamps and counters.  The times are those the simulator gives
 * for these scenarios and seeds on any machine (it is deterministic); a
 * changed model shifts them, and then the expectations are read again from
 * SPANS_DUMP=1 build/.../test_spans, checked by eye against
 * `magos-sim run --timeline all`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/xalloc.h"
#include "sim/plan/trials.h"
#include "reports/mermaid.h"
#include "reports/spans.h"
#include "reports/trace.h"
#include "sim/world/des.h"
#include "sim/run/run.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

struct fixture {
	struct scenario s;
	struct run_result r;
	struct rep_run rep;
	struct sp_set sp;
};

static void dump(const struct sp_set *sp)
{
	char buf[256];

	printf("\nend %lld\n", (long long)sp->end_ms);
	for (size_t d = 0; d < sp->ndrivers; d++) {
		const struct sp_driver *dr = &sp->drivers[d];

		printf("driver %zu %s completed %lld halted %lld targets %zu+%zu\n", d,
		       sp_driver_label(dr, buf, sizeof(buf)), (long long)dr->completed_ms,
		       (long long)dr->halted_ms, dr->first, dr->ntargets);
		for (size_t g = 0; g < dr->ngroups; g++) {
			const struct sp_group *gr = &dr->groups[g];

			printf("  group %zu %s open %lld settled %lld soak %lld passed %lld halted %lld targets %zu+%zu\n",
			       g, gr->name, (long long)gr->opened_ms, (long long)gr->settled_ms,
			       (long long)gr->soak_end_ms, (long long)gr->passed_ms,
			       (long long)gr->halted_ms, gr->first, gr->ntargets);
		}
	}
	for (size_t i = 0; i < sp->ntargets; i++) {
		const struct sp_target *t = &sp->targets[i];

		printf("target %zu %s %s/%s d%zu g%ld:", i, t->kind, t->ns, t->name, t->driver,
		       t->group);
		for (size_t k = 0; k < t->nspans; k++)
			printf(" [%lld,%lld%s %s(%s)]", (long long)t->spans[k].start_ms,
			       (long long)t->spans[k].end_ms, t->spans[k].open_end ? "+" : "",
			       sp_phase_name(t->spans[k].phase),
			       t->spans[k].label ? t->spans[k].label : "-");
		printf("\n");
	}
	for (size_t i = 0; i < sp->ninstants; i++) {
		const struct sp_instant *in = &sp->instants[i];

		printf("instant %lld %s d%zu g%ld t%ld %s | %s | %g %d\n", (long long)in->t_ms,
		       sp_instant_kind_name(in->kind), in->driver, in->group, in->target,
		       in->label ? in->label : "-", in->message ? in->message : "-", in->value,
		       in->has_value);
	}
	for (size_t i = 0; i < sp->ncounters; i++) {
		const struct sp_counter *c = &sp->counters[i];

		printf("counter %s d%ld g%ld:", c->name, c->driver, c->group);
		for (size_t k = 0; k < c->npoints; k++)
			printf(" %lld=%g", (long long)c->points[k].t_ms, c->points[k].value);
		printf("\n");
	}
}

/* Asserts span @k of @t: [@start, @end) in @phase, open at the end or not. */
static void span_is(const struct sp_target *t, size_t k, int64_t start, int64_t end,
		    enum sp_phase phase, bool open_end)
{
	CU_ASSERT_FATAL(k < t->nspans);
	CU_ASSERT_EQUAL(t->spans[k].start_ms, start);
	CU_ASSERT_EQUAL(t->spans[k].end_ms, end);
	CU_ASSERT_EQUAL(t->spans[k].phase, phase);
	CU_ASSERT_EQUAL(t->spans[k].open_end, open_end);
}

static const struct sp_target *target_named(const struct sp_set *sp, const char *ns,
					    const char *name)
{
	for (size_t i = 0; i < sp->ntargets; i++)
		if (!strcmp(sp->targets[i].ns, ns) && !strcmp(sp->targets[i].name, name))
			return &sp->targets[i];
	CU_FAIL("no such target");
	return NULL;
}

static const struct sp_counter *counter_named(const struct sp_set *sp, const char *name)
{
	for (size_t i = 0; i < sp->ncounters; i++)
		if (!strcmp(sp->counters[i].name, name))
			return &sp->counters[i];
	CU_FAIL("no such counter");
	return NULL;
}

static size_t count_kind(const struct sp_set *sp, enum sp_instant_kind k)
{
	size_t n = 0;

	for (size_t i = 0; i < sp->ninstants; i++)
		n += sp->instants[i].kind == k;
	return n;
}

/* Loads and runs @path at its own seed, then builds the spans. */
static void setup(struct fixture *fx, const char *path)
{
	const char *paths[1] = { path };

	memset(fx, 0, sizeof(*fx));
	CU_ASSERT_EQUAL_FATAL(fx_scn_load(paths, 1, &fx->s, NULL), 0);
	run_scenario(&fx->s, NULL, &fx->r);
	fx->rep.name = fx->s.name;
	fx->rep.seed = fx->r.seed;
	fx->rep.horizon_ms = fx->r.horizon_ms;
	fx->rep.end_ms = fx->r.end_ms;
	fx->rep.tl = des_timeline(fx->r.world);
	fx->rep.summary = &fx->r.summary;
	fx->rep.obs = fx->r.obs;
	fx->rep.fleets = fx->r.fobs;
	sp_build(&fx->sp, &fx->rep);
	if (getenv("SPANS_DUMP"))
		dump(&fx->sp);
}

static void teardown(struct fixture *fx)
{
	sp_release(&fx->sp);
	sp_release(&fx->sp); /* twice: release leaves it empty */
	run_result_release(&fx->r);
	scn_release(&fx->s);
}

static void test_magos(void)
{
	struct fixture fx;

	const struct sp_driver *d;
	const struct sp_target *t;
	const struct sp_counter *c;
	char buf[64];

	setup(&fx, "scenarios/three-environments.yaml");
	CU_ASSERT_EQUAL(fx.sp.end_ms, 1805716);
	CU_ASSERT_EQUAL_FATAL(fx.sp.ndrivers, 1);
	d = &fx.sp.drivers[0];
	CU_ASSERT_STRING_EQUAL(sp_driver_label(d, buf, sizeof(buf)), "Rollout default/shop");
	CU_ASSERT_EQUAL(d->completed_ms, 1805716);
	CU_ASSERT_EQUAL(d->halted_ms, -1);
	CU_ASSERT_EQUAL_FATAL(d->ngroups, 3);
	CU_ASSERT_STRING_EQUAL(d->groups[1].name, "staging");
	CU_ASSERT_EQUAL(d->groups[1].opened_ms, 344196);
	CU_ASSERT_EQUAL(d->groups[1].passed_ms, 770150);
	CU_ASSERT_EQUAL(d->groups[1].soak_end_ms, -1);
	CU_ASSERT_EQUAL(d->groups[1].first, 1);
	CU_ASSERT_EQUAL(d->groups[1].ntargets, 1);
	CU_ASSERT_EQUAL(d->first, 0);
	CU_ASSERT_EQUAL(d->ntargets, 3);
	/* Targets in step order, not name order. */
	CU_ASSERT_EQUAL_FATAL(fx.sp.ntargets, 3);
	CU_ASSERT_STRING_EQUAL(fx.sp.targets[0].name, "shop-dev");
	CU_ASSERT_STRING_EQUAL(fx.sp.targets[2].name, "shop-prod");
	t = &fx.sp.targets[1];
	CU_ASSERT_STRING_EQUAL(t->name, "shop-staging");
	CU_ASSERT_EQUAL(t->group, 1);
	CU_ASSERT_EQUAL_FATAL(t->nspans, 4);
	span_is(t, 0, 0, 344196, SP_PENDING, false);
	span_is(t, 1, 344196, 552379, SP_PLANNING, false);
	span_is(t, 2, 552379, 770150, SP_APPLYING, false);
	span_is(t, 3, 770150, 1805716, SP_APPLIED, true);
	CU_ASSERT_STRING_EQUAL(t->spans[2].label, "Applying");
	/* The run ends as prod applies: its Applied lasts no time and is dropped. */
	t = &fx.sp.targets[2];
	CU_ASSERT_EQUAL_FATAL(t->nspans, 3);
	span_is(t, 2, 966585, 1805716, SP_APPLYING, false);
	CU_ASSERT_EQUAL(fx.sp.nspans, 10);
	CU_ASSERT_EQUAL_FATAL(fx.sp.ninstants, 2);
	CU_ASSERT_EQUAL(fx.sp.instants[1].kind, SP_I_STATUS);
	CU_ASSERT_EQUAL(fx.sp.instants[1].t_ms, 1805716);
	CU_ASSERT_STRING_EQUAL(fx.sp.instants[1].label, "Applied");
	CU_ASSERT_STRING_EQUAL(fx.sp.instants[1].message, "RolloutCompleted");
	/* One Job at a time: a Job ends where the next starts, so one change only. */
	c = counter_named(&fx.sp, "running jobs");
	CU_ASSERT_EQUAL_FATAL(c->npoints, 2);
	CU_ASSERT_EQUAL(c->points[0].t_ms, 0);
	CU_ASSERT_EQUAL(c->points[0].value, 1);
	CU_ASSERT_EQUAL(c->points[1].t_ms, 1805716);
	CU_ASSERT_EQUAL(c->points[1].value, 0);
	CU_ASSERT_EQUAL(c->driver, -1);
	teardown(&fx);
}

static void test_fleet(void)
{
	struct fixture fx;

	const struct sp_driver *d;
	const struct sp_target *t;
	const struct sp_counter *c;

	setup(&fx, "scenarios/fleet-rollback-pinned.yaml");
	CU_ASSERT_EQUAL_FATAL(fx.sp.ndrivers, 1);
	d = &fx.sp.drivers[0];
	CU_ASSERT_STRING_EQUAL(d->kind, "FleetRollout");
	CU_ASSERT_STRING_EQUAL(d->name, "moodle");
	CU_ASSERT_EQUAL(d->completed_ms, -1);
	CU_ASSERT_EQUAL(d->halted_ms, 1500000);
	CU_ASSERT_EQUAL_FATAL(d->ngroups, 3);
	CU_ASSERT_EQUAL(d->groups[0].opened_ms, 0);
	CU_ASSERT_EQUAL(d->groups[0].settled_ms, 660000);
	CU_ASSERT_EQUAL(d->groups[0].soak_end_ms, 2460000);
	CU_ASSERT_EQUAL(d->groups[0].passed_ms, -1);
	CU_ASSERT_EQUAL(d->groups[0].halted_ms, 1500000);
	CU_ASSERT_EQUAL(d->groups[0].ntargets, 4);
	CU_ASSERT_EQUAL(d->groups[2].first, 7);
	CU_ASSERT_EQUAL(d->groups[2].ntargets, 5);
	CU_ASSERT_EQUAL(d->groups[1].opened_ms, -1);
	t = target_named(&fx.sp, "strict", "moodle");
	CU_ASSERT_EQUAL(t->group, 0);
	CU_ASSERT_EQUAL_FATAL(t->nspans, 3);
	span_is(t, 0, 0, 180000, SP_ADOPTING, false);
	span_is(t, 1, 180000, 1500000, SP_READY, false);
	span_is(t, 2, 1500000, 10800000, SP_NOT_READY, true);
	CU_ASSERT_STRING_EQUAL(t->spans[2].label, "DowngradeNotAllowed");
	t = target_named(&fx.sp, "tenant-05", "moodle");
	CU_ASSERT_EQUAL(t->group, 2);
	CU_ASSERT_EQUAL_FATAL(t->nspans, 3);
	span_is(t, 0, 0, 120000, SP_PENDING, false);
	span_is(t, 1, 120000, 660000, SP_READY, false);
	span_is(t, 2, 660000, 10800000, SP_AWAITING_APPROVAL, true);
	/* The halt, then the 4 stamps on the canary members, in target order. */
	CU_ASSERT_EQUAL(count_kind(&fx.sp, SP_I_HALT), 1);
	CU_ASSERT_EQUAL_FATAL(count_kind(&fx.sp, SP_I_STAMP), 4);
	CU_ASSERT_EQUAL(fx.sp.instants[1].kind, SP_I_HALT);
	CU_ASSERT_EQUAL(fx.sp.instants[1].group, 0);
	CU_ASSERT_STRING_EQUAL(fx.sp.instants[1].label, "Halted");
	for (size_t i = 0; i < 4; i++) {
		const struct sp_instant *in = &fx.sp.instants[2 + i];

		CU_ASSERT_EQUAL(in->kind, SP_I_STAMP);
		CU_ASSERT_EQUAL(in->t_ms, 1500000);
		CU_ASSERT_EQUAL(in->target, (long)i);
		CU_ASSERT_STRING_EQUAL(in->label, "4.5.0");
	}
	CU_ASSERT_STRING_EQUAL(fx.sp.instants[3].message, "strict/moodle");
	/* Within one instant the driver's status writes keep the timeline's order. */
	CU_ASSERT_STRING_EQUAL(fx.sp.instants[6].label, "Halted");
	CU_ASSERT_STRING_EQUAL(fx.sp.instants[7].label, "InProgress");
	c = counter_named(&fx.sp, "adopting members");
	CU_ASSERT_EQUAL(c->driver, 0);
	CU_ASSERT_EQUAL_FATAL(c->npoints, 3);
	CU_ASSERT_EQUAL(c->points[0].value, 4);
	CU_ASSERT_EQUAL(c->points[1].t_ms, 60000);
	CU_ASSERT_EQUAL(c->points[1].value, 2);
	CU_ASSERT_EQUAL(c->points[2].t_ms, 180000);
	CU_ASSERT_EQUAL(c->points[2].value, 0);
	CU_ASSERT_EQUAL(counter_named(&fx.sp, "running jobs")->npoints, 0);
	teardown(&fx);
}

static void test_gate(void)
{
	struct fixture fx;

	const struct sp_driver *d;
	const struct sp_target *t;
	const struct sp_counter *c;
	const struct sp_instant *in = NULL;

	setup(&fx, "scenarios/fleet-gate-halt.yaml");
	d = &fx.sp.drivers[0];
	CU_ASSERT_EQUAL(d->completed_ms, 3840000);
	CU_ASSERT_EQUAL(d->groups[0].halted_ms, 1260000);
	CU_ASSERT_EQUAL(d->groups[0].passed_ms, 2460000);
	CU_ASSERT_EQUAL(d->groups[1].soak_end_ms, 3720000);
	t = target_named(&fx.sp, "tenant-01", "moodle");
	CU_ASSERT_EQUAL_FATAL(t->nspans, 5);
	span_is(t, 2, 600000, 2460000, SP_AWAITING_APPROVAL, false);
	span_is(t, 3, 2460000, 2520000, SP_ADOPTING, false);
	span_is(t, 4, 2520000, 3840000, SP_READY, true);
	for (size_t i = 0; i < fx.sp.ninstants && !in; i++)
		if (fx.sp.instants[i].kind == SP_I_GATE)
			in = &fx.sp.instants[i];
	CU_ASSERT_FATAL(in != NULL);
	CU_ASSERT_EQUAL(in->t_ms, 1260000);
	CU_ASSERT_STRING_EQUAL(in->label, "Failing");
	CU_ASSERT(in->has_value);
	CU_ASSERT_DOUBLE_EQUAL(in->value, 0.052347, 1e-9);
	CU_ASSERT_PTR_NULL(in->min);
	CU_ASSERT_STRING_EQUAL(in->max, "0.01");
	c = counter_named(&fx.sp, "gate canary");
	CU_ASSERT_EQUAL(c->group, 0);
	CU_ASSERT_FATAL(c->npoints > 1);
	CU_ASSERT_EQUAL(c->points[0].t_ms, 1260000);
	for (size_t i = 1; i < c->npoints; i++)
		CU_ASSERT(c->points[i].t_ms > c->points[i - 1].t_ms);
	c = counter_named(&fx.sp, "adopting members");
	CU_ASSERT_EQUAL_FATAL(c->npoints, 7);
	CU_ASSERT_EQUAL(c->points[4].t_ms, 3720000);
	CU_ASSERT_EQUAL(c->points[4].value, 8);
	teardown(&fx);
}

static void test_parallel(void)
{
	struct fixture fx;

	const struct sp_counter *c;

	setup(&fx, "scenarios/default-parallel.yaml");
	CU_ASSERT_EQUAL_FATAL(fx.sp.ndrivers, 1);
	CU_ASSERT_PTR_NULL(fx.sp.drivers[0].kind);
	CU_ASSERT_STRING_EQUAL(fx.sp.drivers[0].name, "(no rollout)");
	CU_ASSERT_EQUAL(fx.sp.drivers[0].ngroups, 0);
	CU_ASSERT_EQUAL(fx.sp.drivers[0].ntargets, 5);
	CU_ASSERT_EQUAL(fx.sp.targets[0].group, -1);
	CU_ASSERT_STRING_EQUAL(fx.sp.targets[0].name, "sandbox-checkout");
	c = counter_named(&fx.sp, "running jobs");
	CU_ASSERT_EQUAL_FATAL(c->npoints, 6);
	CU_ASSERT_EQUAL(c->points[0].value, 5);
	CU_ASSERT_EQUAL(c->points[1].t_ms, 203595);
	CU_ASSERT_EQUAL(c->points[1].value, 4);
	CU_ASSERT_EQUAL(c->points[5].value, 0);
	teardown(&fx);
}

static void test_approval(void)
{
	struct fixture fx;

	const struct sp_target *t;

	setup(&fx, "tests/scenarios/auto-apply-false.yaml");
	t = target_named(&fx.sp, "default", "shop-prod");
	CU_ASSERT_EQUAL_FATAL(t->nspans, 3);
	span_is(t, 1, 100000, 120000, SP_PLANNING, false);
	span_is(t, 2, 120000, 7200000, SP_AWAITING_APPROVAL, true);
	CU_ASSERT_STRING_EQUAL(t->spans[2].label, "Planned");
	teardown(&fx);
}

/* An empty run: no drivers, no targets, only the (empty) running-Jobs counter. */
static void test_empty(void)
{
	struct tl *tl = tl_new();
	struct rep_run run = { 0 };
	struct sp_set sp;

	run.tl = tl;
	run.end_ms = 0;
	sp_build(&sp, &run);
	CU_ASSERT_EQUAL(sp.ndrivers, 0);
	CU_ASSERT_EQUAL(sp.ntargets, 0);
	CU_ASSERT_EQUAL(sp.ninstants, 0);
	CU_ASSERT_EQUAL_FATAL(sp.ncounters, 1);
	CU_ASSERT_EQUAL(sp.counters[0].npoints, 0);
	sp_release(&sp);
	tl_free(tl);
}

static void escape_is(const char *in, size_t max, const char *want)
{
	char *got = rep_mermaid_escape(in, max);

	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_mermaid_escape(void)
{
	/* Look-alikes: Mermaid 11's gantt shows entity codes undecoded. */
	escape_is("a:b#c;d", 0, "a\u2236b\uff03c\uff1bd");
	escape_is("<x & \"y\">", 0, "\u2039x \uff06 \"y\"\u203a");
	escape_is("50% `z` {w}", 0, "50\uff05 `z` {w}");
	escape_is("tab\there\nline", 0, "tab here line");
	escape_is(NULL, 0, "");
	escape_is("abcdef", 3, "abc...");
	escape_is("abc", 3, "abc");
	/* Characters, not bytes: a UTF-8 sequence is never split. */
	escape_is("\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 2, "\xe6\x97\xa5\xe6\x9c\xac...");
	escape_is("::", 1, "\u2236...");
}

/* Writes the gantt of @sp into a new string (free() it). */
static char *mermaid_text(const struct rep_run *run, const struct sp_set *sp)
{
	struct fx_cap c;

	CU_ASSERT_EQUAL(rep_mermaid(fx_cap_open(&c), run, sp), 0);
	return fx_cap_text(&c);
}

/*
 * A hand-made run: names starting with a gantt keyword get a zero-width
 * space, times are zone-free dates from the anchor, and target bars are
 * one per busy phase, labelled with it.
 */
static void test_mermaid_shape(void)
{
	struct rep_run run = { 0 };
	struct sp_set sp = { 0 };
	struct sp_driver d = { 0 };
	struct sp_target t[2];
	struct sp_span s0[3] = {
		{ 0, 60000, SP_ADOPTING, "4.5.0", false },
		{ 60000, 600000, SP_READY, "Succeeded", false },
		{ 600000, 90000000, SP_AWAITING_APPROVAL, "AwaitingApproval", true },
	};
	struct sp_span s1[1] = { { 0, 1500, SP_NOT_READY, "StageFailed", true } };
	char *m;

	run.name = "a:b";
	run.seed = 7;
	run.stop = "horizon";
	sp.end_ms = 90000000; /* 25 h */
	t[0] = (struct sp_target){ "StageSet", "gantt-ns", "app", 0, -1, s0, 3, SP_AWAITING_APPROVAL, false };
	t[1] = (struct sp_target){ "StageSet", "x", "y", 0, -1, s1, 1, SP_NOT_READY, false };
	sp.targets = t;
	sp.ntargets = 2;
	d = (struct sp_driver){ "FleetRollout", "", "f", -1, -1, NULL, 0, 0, 2 };
	sp.drivers = &d;
	sp.ndrivers = 1;
	m = mermaid_text(&run, &sp);
	/* The left margin fits "FleetRollout f targets" (22 characters, 7 px each, + 20). */
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "```mermaid\n%%{init: {\"gantt\": {\"leftPadding\": 174}}}%%\ngantt\n    %% magos-sim "));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "    title a\u2236b, seed 7, 2 targets, time since the start\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "    dateFormat YYYY-MM-DD HH:mm:ss.SSS\n    axisFormat day %-j, %Hh\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "    run, ended at 25h0m0s (horizon) :r0, 2023-01-01 00:00:00.000, 2023-01-02 01:00:00.000\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "    \u200bgantt-ns/app - adopting :done, d0t0p0, 2023-01-01 00:00:00.000, 2023-01-01 00:01:00.000\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "    \u200bgantt-ns/app - awaiting approval :active, d0t0p2, 2023-01-01 00:10:00.000, 2023-01-02 01:00:00.000\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(m, "    x/y - not ready :crit, d0t1p0, 2023-01-01 00:00:00.000, 2023-01-01 00:00:01.500\n"));
	CU_ASSERT_PTR_NULL(strstr(m, " - ready")); /* resting phases draw no bar */
	free(m);
	/* Past REP_MERMAID_MAX_BARS busy phases: one bar per target, its busy phases named once each. */
	{
		struct sp_span many[REP_MERMAID_MAX_BARS + 1];

		for (size_t k = 0; k <= REP_MERMAID_MAX_BARS; k++)
			many[k] = (struct sp_span){ (int64_t)k * 1000, (int64_t)(k + 1) * 1000,
						    k % 2 ? SP_AWAITING_APPROVAL : SP_ADOPTING, NULL,
						    k == REP_MERMAID_MAX_BARS };
		t[0].spans = many;
		t[0].nspans = REP_MERMAID_MAX_BARS + 1;
		m = mermaid_text(&run, &sp);
		CU_ASSERT_PTR_NOT_NULL(strstr(m, "\n    \u200bgantt-ns/app - adopting, awaiting approval :active, d0t0, 2023-01-01 00:00:00.000, 2023-01-01 00:01:21.000\n"));
		CU_ASSERT_PTR_NOT_NULL(strstr(m, "\n    x/y - not ready :crit, d0t1, "));
		free(m);
		t[0].spans = s0;
		t[0].nspans = 3;
	}
	/* Keywords: only at the start, and "title" only with white space after it. */
	{
		static const struct { const char *ns, *name, *shown; bool zw; } cases[] = {
			{ "", "title", "title", true },           /* "title" + the space before " - " */
			{ "title", "y", "title/y", false },      /* "title/": no white space after it */
			{ "", "Section", "Section", true },
			{ "2026-03-02-x", "y", "2026-03-02-x/y", true }, /* a date token */
			{ "2026-03", "y", "2026-03/y", false },
			{ "GANTTx", "y", "GANTTx/y", true },       /* "gantt" needs nothing after it */
			{ "app", "y", "app/y", false },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			char want[64];

			t[1].ns = cases[i].ns;
			t[1].name = cases[i].name;
			m = mermaid_text(&run, &sp);
			snprintf(want, sizeof(want), "\n    %s%s - not ready", cases[i].zw ? "\u200b" : "",
				 cases[i].shown);
			CU_ASSERT_PTR_NOT_NULL(strstr(m, want));
			if (!strstr(m, want))
				printf("\nmissing: %s\n", want);
			free(m);
		}
	}
}

/*
 * With the member model: the canary of fleet-gate-halt adopts its baseline
 * at the start and 4.6.0 from its publish at 10m to 11m (the timeline shows
 * only the end); the adopting counter counts members with an attempt in
 * flight, and its peak is the trial row's peak_adopting.
 */
static void test_members(void)
{
	struct fixture fx;
	struct sp_set sp;
	struct trial_row row;
	const struct sp_target *t;
	const struct sp_counter *c;
	double peak = 0;

	setup(&fx, "scenarios/fleet-gate-halt.yaml");
	fx.rep.member_attempts = true;
	sp_build(&sp, &fx.rep);
	if (getenv("SPANS_DUMP"))
		dump(&sp);
	t = target_named(&sp, "tenant-00", "moodle");
	CU_ASSERT_EQUAL_FATAL(t->nspans, 4);
	span_is(t, 0, 0, 60000, SP_ADOPTING, false);
	CU_ASSERT_STRING_EQUAL(t->spans[0].label, "4.5.0");
	span_is(t, 1, 60000, 600000, SP_READY, false);
	span_is(t, 2, 600000, 660000, SP_ADOPTING, false);
	CU_ASSERT_STRING_EQUAL(t->spans[2].label, "4.6.0");
	span_is(t, 3, 660000, 3840000, SP_READY, true);
	CU_ASSERT_EQUAL(t->final, SP_READY);
	t = target_named(&sp, "tenant-11", "moodle");
	CU_ASSERT_EQUAL_FATAL(t->nspans, 5);
	span_is(t, 0, 0, 120000, SP_PENDING, false); /* 4 workers: its baseline waits */
	span_is(t, 1, 120000, 180000, SP_ADOPTING, false);
	span_is(t, 2, 180000, 600000, SP_READY, false);
	span_is(t, 3, 600000, 3780000, SP_AWAITING_APPROVAL, false);
	/* The outcome written as the run ends: done, not open. */
	span_is(t, 4, 3780000, 3840000, SP_ADOPTING, false);
	CU_ASSERT_EQUAL(t->final, SP_READY);
	c = counter_named(&sp, "adopting members");
	CU_ASSERT_EQUAL_FATAL(c->npoints, 8);
	CU_ASSERT_EQUAL(c->points[0].t_ms, 0);
	CU_ASSERT_EQUAL(c->points[0].value, 4);
	CU_ASSERT_EQUAL(c->points[1].t_ms, 180000);
	CU_ASSERT_EQUAL(c->points[1].value, 0);
	CU_ASSERT_EQUAL(c->points[2].t_ms, 600000);
	CU_ASSERT_EQUAL(c->points[2].value, 1);
	CU_ASSERT_EQUAL(c->points[3].t_ms, 660000);
	CU_ASSERT_EQUAL(c->points[3].value, 0);
	CU_ASSERT_EQUAL(c->points[6].t_ms, 3720000);
	CU_ASSERT_EQUAL(c->points[6].value, 4); /* 8 approved, 4 workers: 4 then 4 */
	CU_ASSERT_EQUAL(c->points[7].t_ms, 3840000);
	CU_ASSERT_EQUAL(c->points[7].value, 0);
	for (size_t k = 0; k < c->npoints; k++)
		peak = c->points[k].value > peak ? c->points[k].value : peak;
	trial_row_from_run(&fx.r, 0, &row);
	CU_ASSERT_EQUAL(row.peak_adopting, 4);
	CU_ASSERT_EQUAL(peak, (double)row.peak_adopting);
	trial_row_release(&row);
	/* Without the model the same run's canary shows no second adoption: why the model is used. */
	t = target_named(&fx.sp, "tenant-00", "moodle");
	CU_ASSERT_EQUAL(t->nspans, 2);
	sp_release(&sp);
	teardown(&fx);
}

/*
 * A synthetic run of 100 000 StageSets in 10 waves, three spans each: the
 * trace aggregates to per-wave counters and stays small, and the Mermaid
 * block summarises per wave.  (Simulating such a fleet takes minutes;
 * rendering it must not.)
 */
static void test_render_100k(void)
{
	enum { N = 100000, W = 10 };
	static const char *wave_names[W] = { "w0", "w1", "w2", "w3", "w4",
					     "w5", "w6", "w7", "w8", "w9" };
	struct rep_run run = { 0 };
	struct sp_set sp = { 0 };
	struct sp_driver d = { 0 };
	struct sp_group g[W];
	char (*names)[16] = xcalloc(N, sizeof(*names));
	FILE *f = tmpfile();
	json_t *doc, *ev, *other;
	json_error_t jerr;
	long size;
	size_t counters = 0, x = 0, lines = 0;
	int c;

	CU_ASSERT_FATAL(f != NULL);
	run.name = "synthetic";
	run.seed = 1;
	run.stop = "quiescent";
	sp.end_ms = 10 * 3600 * 1000;
	sp.targets = xcalloc(N, sizeof(*sp.targets));
	sp.ntargets = N;
	for (size_t i = 0; i < N; i++) {
		struct sp_target *t = &sp.targets[i];
		int64_t w = (int64_t)(i / (N / W)), t0 = w * 3600 * 1000 + (int64_t)(i % 1000) * 1000;

		snprintf(names[i], sizeof(names[i]), "app-%zu", i);
		t->kind = "StageSet";
		t->ns = "tenant";
		t->name = names[i];
		t->group = (long)w;
		t->spans = xcalloc(3, sizeof(*t->spans));
		t->nspans = 3;
		t->spans[0] = (struct sp_span){ 0, t0, SP_AWAITING_APPROVAL, "AwaitingApproval", false };
		t->spans[1] = (struct sp_span){ t0, t0 + 60000, SP_ADOPTING, NULL, false };
		t->spans[2] = (struct sp_span){ t0 + 60000, sp.end_ms, SP_READY, "Succeeded", true };
		t->final = SP_READY;
	}
	for (size_t w = 0; w < W; w++)
		g[w] = (struct sp_group){ wave_names[w], (int64_t)w * 3600000, -1, -1,
					  (int64_t)(w + 1) * 3600000, -1, w * (N / W), N / W };
	d = (struct sp_driver){ "FleetRollout", "", "big", sp.end_ms, -1, g, W, 0, N };
	sp.drivers = &d;
	sp.ndrivers = 1;

	CU_ASSERT_EQUAL_FATAL(rep_trace(f, &run, &sp, NULL), 0);
	size = ftell(f);
	CU_ASSERT(size > 0 && size < 2000000);
	rewind(f);
	doc = json_loadf(f, 0, &jerr);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	other = json_object_get(doc, "otherData");
	CU_ASSERT(json_is_true(json_object_get(other, "aggregated")));
	CU_ASSERT_EQUAL(json_integer_value(json_object_get(other, "targets")), N);
	ev = json_object_get(doc, "traceEvents");
	for (size_t i = 0; i < json_array_size(ev); i++) {
		json_t *e = json_array_get(ev, i);
		const char *ph = json_string_value(json_object_get(e, "ph"));

		counters += !strcmp(ph, "C");
		x += !strcmp(ph, "X");
	}
	CU_ASSERT_EQUAL(x, W); /* the wave bars only */
	CU_ASSERT(counters >= W && counters <= W * (REP_TRACE_BUCKETS + 1));
	json_decref(doc);

	rewind(f);
	CU_ASSERT_EQUAL_FATAL(rep_mermaid(f, &run, &sp), 0);
	fflush(f);
	size = ftell(f);
	rewind(f);
	while (ftell(f) < size && (c = fgetc(f)) != EOF)
		lines += c == '\n';
	/* fence, init, gantt, version comment, title, dateFormat, axisFormat, run section
	 * + bar, a section and W bars for the waves, a section and W summary bars, fence */
	CU_ASSERT_EQUAL(lines, 7 + 2 + 1 + W + 1 + W + 1);
	fclose(f);
	for (size_t i = 0; i < N; i++)
		free(sp.targets[i].spans);
	free(sp.targets);
	free(names);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "magos three environments", test_magos },
		{ "fleet rollback pinned", test_fleet },
		{ "fleet gate halt", test_gate },
		{ "default parallel", test_parallel },
		{ "auto-apply false", test_approval },
		{ "empty run", test_empty },
		{ "mermaid escape", test_mermaid_escape },
		{ "mermaid shape", test_mermaid_shape },
		{ "member model adoptions", test_members },
		{ "render 100 000 targets", test_render_100k },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("spans", tests);
}
