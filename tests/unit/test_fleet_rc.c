/*
 * The FleetRollout controller wired into a world (sim/wire/fleet_rc), driven by
 * scripted member statuses instead of a StageSet controller: a script
 * patches a member's status as the member would report it (settle / hold /
 * unsettle of the upstream envtest helpers, spec §5) and the tests watch the
 * fleet's status, the annotations it stamps, the times it reconciles and
 * the timeline notices.
 *
 * Cases are named after spec sections (§2.1 triggers, §2.3 early exits and
 * passes, §2.3.6 requeue, §2.3.7 gates, §2.4 halt, §2.5 halt persistence,
 * §2.6 pinned/derived) and the §5.D metric-source cases they exercise.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet_rollout.h"
#include "engine/xalloc.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "sim/wire/fleet_rc.h"
#include "sim/load/promseries.h"
#include "sim/core/timeline.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define T0 1784462400000LL /* 2026-07-19T12:00:00Z */
#define GATE_ADDR "http://prometheus.monitoring.svc:9090"

/* ---- recording ------------------------------------------------------------------ */

static const char *st(const struct obj *o, const char *path, const char *dflt)
{
	return o ? val_str(val_path(o->status, path), dflt) : dflt;
}

static const char *ready_field(const struct obj *o, const char *k)
{
	const struct val *c = o ? obj_ready_condition(o) : NULL;

	return val_str(val_map_get(c, k), "-");
}

/* "<t> <name> <phase>/<currentWave> <reason> | <message>" when any of them changed. */
static void watch_fleet(void *ctx, enum api_event_type type, const struct obj *old,
			const struct obj *new)
{
	struct fx_rec *r = ctx;
	static const char *const keys[] = { "reason", "message" };
	bool same = old != NULL;

	if (type == API_DELETED || !new->status)
		return;
	if (same)
		same = strcmp(st(old, "phase", "-"), st(new, "phase", "-")) == 0 &&
		       strcmp(st(old, "currentWave", "-"), st(new, "currentWave", "-")) == 0;
	for (size_t i = 0; same && i < 2; i++)
		same = strcmp(ready_field(old, keys[i]), ready_field(new, keys[i])) == 0;
	if (same)
		return;
	fx_rec_add(r, xasprintf("%lld %s %s/%s %s | %s", (long long)des_now(r->w), new->name,
				st(new, "phase", "-"), st(new, "currentWave", "-"),
				ready_field(new, "reason"), ready_field(new, "message")));
}

/* "<t> ns/name <annotation>=<value>" for the two fleet annotations. */
static void watch_members(void *ctx, enum api_event_type type, const struct obj *old,
			  const struct obj *new)
{
	struct fx_rec *r = ctx;
	static const char *const keys[] = { FR_ANN_APPROVED_VERSION, FR_ANN_ROLLBACK_TO };

	if (type == API_DELETED)
		return;
	for (size_t i = 0; i < 2; i++) {
		const char *was = old ? obj_strmap_get(&old->annotations, keys[i]) : NULL;
		const char *is = obj_strmap_get(&new->annotations, keys[i]);

		if (is && (!was || strcmp(was, is) != 0))
			fx_rec_add(r, xasprintf("%lld %s/%s %s=%s", (long long)des_now(r->w), new->ns,
						new->name, strchr(keys[i], '/') + 1, is));
	}
}

/* ---- metric series for gates ------------------------------------------------------ */

struct series {
	const char *query;
	struct ps_series s;
	int64_t interval_ms;
};

struct metrics {
	struct series table[4];
	size_t n;
	int calls;
};

static int metric(void *ctx, const char *address, const char *query, int64_t t_ms, double *value,
		  char *err, size_t errlen)
{
	struct metrics *m = ctx;

	(void)address;
	m->calls++;
	for (size_t i = 0; i < m->n; i++)
		if (strcmp(m->table[i].query, query) == 0)
			return frc_metric_from_series(&m->table[i].s, m->table[i].interval_ms, t_ms,
						      value, err, errlen);
	return frc_metric_from_series(NULL, 1, t_ms, value, err, errlen);
}

static void add_series(struct metrics *m, const char *query, const char *values, int64_t interval)
{
	struct series *s = &m->table[m->n++];

	s->query = query;
	s->interval_ms = interval;
	CU_ASSERT_EQUAL_FATAL(ps_parse(values, &s->s, NULL), PS_OK);
}

/* ---- a world with the controller ----------------------------------------------------- */

struct fixture {
	struct des *w;
	struct frc *f;
	struct fx_rec fleet, ann;
	struct metrics m;
	uint64_t seen; /* reconciles counted by run_to() so far */
};

static void setup_hosts(struct fixture *x, const char *const *hosts, size_t nhosts)
{
	struct frc_params p = { T0, hosts, nhosts, metric, NULL };

	memset(x, 0, sizeof(*x));
	p.metric_ctx = &x->m;
	x->w = des_new(NULL);
	x->f = frc_register(x->w, &p);
	fx_rec_watch(&x->fleet, x->w, "FleetRollout", watch_fleet);
	fx_rec_watch(&x->ann, x->w, "StageSet", watch_members);
}

static void setup(struct fixture *x)
{
	setup_hosts(x, NULL, 0);
}

static void teardown(struct fixture *x)
{
	des_free(x->w);
	frc_free(x->f);
	fx_rec_release(&x->fleet);
	fx_rec_release(&x->ann);
	for (size_t i = 0; i < x->m.n; i++)
		ps_series_release(&x->m.table[i].s);
}

/* Runs to @t (inclusive); returns the reconciles started since the last call. */
static uint64_t run_to(struct fixture *x, int64_t t)
{
	uint64_t now, d;

	des_run(x->w, t, NULL);
	now = ctl_reconciles(frc_ctl(x->f));
	d = now - x->seen;
	x->seen = now;
	return d;
}

static void fleet(struct fixture *x, const char *name, const char *spec)
{
	fx_create(x->w, fx_fleet_rollout(name, spec));
}

static void namespace(struct fixture *x, const char *name, const char *k, const char *v)
{
	fx_create(x->w, fx_namespace(name, k, v));
}

/* Member reports, as status merge patches (§5 settle / hold / unsettle). */
static struct val *report(const char *version, const char *pending, const char *ready,
			  const char *reason)
{
	char *text = xasprintf("{%s%s%s pendingVersion: '%s', observedGeneration: 1, conditions: "
			       "[{type: Ready, status: '%s', reason: %s}]}",
			       version ? "version: '" : "", version ? version : "",
			       version ? "'," : "", pending, ready, reason);
	struct val *v = fx_yaml(text);

	free(text);
	return v;
}

/* fleetMember(ns, name, app, ring) with an initial report. */
static void member(struct fixture *x, const char *ns, const char *name, const char *app,
		   const char *ring, struct val *status)
{
	struct obj *o = fx_fleet_member(ns, name, app, ring);

	o->status = status ? status : val_new_map();
	fx_create(x->w, o);
}

/* A scripted step: at its time, patch a member's status (or labels). */
enum op_kind { OP_SETTLE, OP_HOLD, OP_UNSETTLE, OP_LABEL };

struct op {
	enum op_kind kind;
	const char *ns, *name;
	const char *v; /* version; for OP_LABEL "key=value" */
};

static void run_op(struct des *w, void *ctx, void *arg)
{
	const struct op *o = arg;
	struct val *p = NULL;

	(void)ctx;
	switch (o->kind) {
	case OP_SETTLE:
		p = report(o->v, "", "True", "Succeeded");
		break;
	case OP_HOLD:
		p = report(NULL, o->v, "False", "AwaitingApproval");
		break;
	case OP_UNSETTLE:
		p = fx_yaml("{conditions: [{type: Ready, status: 'False', reason: StageFailed}]}");
		break;
	case OP_LABEL: {
		char *k = xstrdup(o->v);
		char *eq = strchr(k, '=');

		*eq = '\0';
		CU_ASSERT_EQUAL(api_set_label(des_api(w), "StageSet", o->ns, o->name, k, eq + 1), 0);
		free(k);
		return;
	}
	}
	CU_ASSERT_EQUAL(api_patch_status(des_api(w), "StageSet", o->ns, o->name, p), 0);
	val_free(p);
}

static void at(struct fixture *x, int64_t t, const struct op *o)
{
	des_at(x->w, t, DES_PRIO_SCRIPT, run_op, NULL, (void *)o);
}

static const struct obj *get_fleet(struct fixture *x, const char *name)
{
	return api_get(des_api(x->w), "FleetRollout", "", name);
}

/* Notices with @sev and text @text at @t (any time when < 0); each is about a FleetRollout. */
static size_t count_notices(struct fixture *x, enum tl_severity sev, const char *text, int64_t t)
{
	size_t n = 0;

	for (size_t i = 0; i < tl_notice_count(des_timeline(x->w)); i++) {
		struct tl_notice no;

		tl_notice_get(des_timeline(x->w), i, &no);
		if (no.severity != sev || strcmp(no.text, text) != 0 || (t >= 0 && no.t_ms != t))
			continue;
		CU_ASSERT_EQUAL(no.nrelated, 1);
		if (no.nrelated == 1) {
			CU_ASSERT_STRING_EQUAL(no.related[0].kind, "FleetRollout");
			CU_ASSERT_STRING_EQUAL(no.related[0].ns, "");
		}
		n++;
	}
	return n;
}

static size_t count_notices_prefix(struct fixture *x, enum tl_severity sev, const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < tl_notice_count(des_timeline(x->w)); i++) {
		struct tl_notice no;

		tl_notice_get(des_timeline(x->w), i, &no);
		if (no.severity == sev && strncmp(no.text, prefix, strlen(prefix)) == 0)
			n++;
	}
	return n;
}

#define RINGS3 \
	"waves: [{name: canary, selector: {matchLabels: {ring: '0'}}}," \
	" {name: early, selector: {matchLabels: {ring: '1'}}}," \
	" {name: rest, selector: {matchLabels: {ring: '2'}}}]"

/* pinned: every member runs 1.0.0; derived: each holds 2.0.0 for approval */
static struct val *start_report(bool derived)
{
	return derived ? report("1.0.0", "2.0.0", "False", "AwaitingApproval")
		       : report("1.0.0", "", "True", "Succeeded");
}

static void three_rings(struct fixture *x, bool derived)
{
	member(x, "a", "m0", "web", "0", start_report(derived));
	member(x, "b", "m1", "web", "1", start_report(derived));
	member(x, "c", "m2", "web", "2", start_report(derived));
	member(x, "c", "m3", "web", "2", start_report(derived));
}

static const struct op settle_m0 = { OP_SETTLE, "a", "m0", "2.0.0" };
static const struct op settle_m1 = { OP_SETTLE, "b", "m1", "2.0.0" };
static const struct op settle_m2 = { OP_SETTLE, "c", "m2", "2.0.0" };
static const struct op settle_m3 = { OP_SETTLE, "c", "m3", "2.0.0" };

/* ---- §2.3 / §2.6 pinned: three waves open one by one as members adopt ------------- */

static void test_s2_6_pinned_three_waves(void)
{
	static const char *const want[] = {
		"0 fleet InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
		"10000 fleet InProgress/early Progressing | rolling out version 2.0.0; wave \"early\" open",
		"20000 fleet InProgress/rest Progressing | rolling out version 2.0.0; wave \"rest\" open",
		"40000 fleet Completed/- Completed | all 3 wave(s) have adopted version 2.0.0",
	};
	static const char *const want_ann[] = {
		"0 a/m0 approved-version=2.0.0",
		"10000 b/m1 approved-version=2.0.0",
		"20000 c/m2 approved-version=2.0.0",
		"20000 c/m3 approved-version=2.0.0",
	};
	static const char *const until[] = { "2026-07-19T12:00:10Z", "2026-07-19T12:00:20Z",
					     "2026-07-19T12:00:40Z" };
	struct fixture x;
	const struct obj *fr;

	setup(&x);
	three_rings(&x, false);
	fleet(&x, "fleet", "{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, " RINGS3 "}");
	at(&x, 10000, &settle_m0);
	at(&x, 20000, &settle_m1);
	at(&x, 25000, &settle_m2);
	at(&x, 40000, &settle_m3);
	CU_ASSERT_EQUAL(des_run(x.w, 3600000, NULL), DES_QUIESCENT);
	/*
	 * Completed returns no requeue, and the 30 s requeue the pass at 25 s
	 * left is the key's one queue entry, which m3's event at 40 s made
	 * ready (an immediate add ends a delay): the world is quiet at 40 s.
	 */
	CU_ASSERT_EQUAL(des_now(x.w), 40000);
	fx_expect_lines(&x.fleet, want, 4, "fleet statuses");
	fx_expect_lines(&x.ann, want_ann, 4, "annotations");
	fr = get_fleet(&x, "fleet");
	for (size_t i = 0; i < 3; i++) {
		char p[64];

		snprintf(p, sizeof(p), "waves.%zu.soakUntil", i);
		CU_ASSERT_STRING_EQUAL(st(fr, p, ""), until[i]);
		snprintf(p, sizeof(p), "waves.%zu.settled", i);
		CU_ASSERT_TRUE(val_bool(val_path(fr->status, p), false));
	}
	CU_ASSERT_EQUAL(val_int(val_path(fr->status, "waves.2.total"), 0), 2);
	CU_ASSERT_EQUAL(val_int(val_path(fr->status, "waves.2.atTarget"), 0), 2);
	CU_ASSERT_EQUAL(val_int(val_path(fr->status, "observedGeneration"), 0), 1);
	CU_ASSERT_PTR_NULL(val_map_get(fr->status, "currentWave")); /* omitempty */
	CU_ASSERT_STRING_EQUAL(ready_field(fr, "status"), "True");
	CU_ASSERT_STRING_EQUAL(ready_field(fr, "lastTransitionTime"), "2026-07-19T12:00:40Z");
	CU_ASSERT_EQUAL(val_int(val_map_get(obj_ready_condition(fr), "observedGeneration"), 0), 1);
	CU_ASSERT_STRING_EQUAL(ctl_name(frc_ctl(x.f)), "fleetrollout-controller");
	CU_ASSERT_EQUAL(count_notices_prefix(&x, TL_WARNING, ""), 0);
	teardown(&x);
}

/* §2.6 derived: each member is approved to its own pending version; the label follows them. */
static void test_s2_6_derived_three_waves(void)
{
	static const char *const want[] = {
		"0 fleet InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
		"10000 fleet InProgress/early Progressing | rolling out version 2.0.0; wave \"early\" open",
		"20000 fleet InProgress/rest Progressing | rolling out version 2.0.0; wave \"rest\" open",
		/* nothing is pending any more: the label is computed from pending versions */
		"40000 fleet Completed/- Completed | all 3 wave(s) have adopted the current version",
	};
	static const char *const want_ann[] = {
		"0 a/m0 approved-version=2.0.0",
		"10000 b/m1 approved-version=2.0.0",
		"20000 c/m2 approved-version=2.0.0",
		"20000 c/m3 approved-version=2.0.0",
	};
	struct fixture x;

	setup(&x);
	three_rings(&x, true);
	fleet(&x, "fleet", "{selector: {matchLabels: {app: web}}, " RINGS3 "}");
	at(&x, 10000, &settle_m0);
	at(&x, 20000, &settle_m1);
	at(&x, 25000, &settle_m2);
	at(&x, 40000, &settle_m3);
	CU_ASSERT_EQUAL(des_run(x.w, 3600000, NULL), DES_QUIESCENT);
	fx_expect_lines(&x.fleet, want, 4, "fleet statuses");
	fx_expect_lines(&x.ann, want_ann, 4, "annotations");
	teardown(&x);
}

/* ---- §2.3.6 soak: 30 s polls, the last one at the exact remaining time --------------- */

static void test_s2_3_6_soak_requeue_timing(void)
{
	static const char *const want[] = {
		"0 fleet InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
		"100000 fleet InProgress/rest Progressing | rolling out version 2.0.0; wave \"rest\" open",
	};
	static const char *const want_ann[] = {
		"0 a/m0 approved-version=2.0.0",
		"100000 b/m1 approved-version=2.0.0",
	};
	struct fixture x;

	setup(&x);
	member(&x, "a", "m0", "web", "0", report("2.0.0", "", "True", "Succeeded"));
	member(&x, "b", "m1", "web", "1", report("1.0.0", "", "True", "Succeeded"));
	fleet(&x, "fleet",
	      "{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, waves: ["
	      "{name: canary, selector: {matchLabels: {ring: '0'}}, soak: 100s},"
	      "{name: rest, selector: {matchLabels: {ring: '1'}}}]}");
	CU_ASSERT_TRUE(run_to(&x, 0) >= 1);
	CU_ASSERT_STRING_EQUAL(st(get_fleet(&x, "fleet"), "waves.0.soakUntil", ""),
			       "2026-07-19T12:01:40Z");
	CU_ASSERT_EQUAL(run_to(&x, 29999), 0);
	CU_ASSERT_EQUAL(run_to(&x, 30000), 1);
	CU_ASSERT_EQUAL(run_to(&x, 59999), 0);
	CU_ASSERT_EQUAL(run_to(&x, 60000), 1);
	CU_ASSERT_EQUAL(run_to(&x, 89999), 0);
	CU_ASSERT_EQUAL(run_to(&x, 90000), 1);
	/* 10 s left (< 30 s): the next pass is at the deadline, not 30 s later */
	CU_ASSERT_EQUAL(run_to(&x, 99999), 0);
	CU_ASSERT_TRUE(run_to(&x, 100000) >= 1);
	CU_ASSERT_EQUAL(run_to(&x, 129999), 0);
	CU_ASSERT_EQUAL(run_to(&x, 130000), 1);
	fx_expect_lines(&x.fleet, want, 2, "fleet statuses");
	fx_expect_lines(&x.ann, want_ann, 2, "annotations");
	teardown(&x);
}

/* ---- §2.3.7 / §2.4 / §2.5 a failing gate halts on every pass, then recovers --------------- */

#define GATED_SPEC(extra)                                                                    \
	"{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, " extra " waves: ["     \
	"{name: canary, selector: {matchLabels: {ring: '0'}}, gate: {source: {prometheus: "  \
	"{address: '" GATE_ADDR "', query: error_rate}}, threshold: {max: '0.01'}}},"        \
	"{name: rest, selector: {matchLabels: {ring: '1'}}}]}"

#define GATE_FAIL_MSG "wave \"canary\" failed its health gate: metric 0.05 is outside the threshold"

static void gated_world(struct fixture *x, bool two_canaries, const char *spec)
{
	/* samples every 10 s: 0..50 s 0.001, 60..110 s 0.05, from 120 s 0.002 */
	add_series(&x->m, "error_rate", "0.001x5 0.05x5 0.002x10", 10000);
	member(x, "a", "m0", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	if (two_canaries)
		member(x, "a", "m4", "web", "0", report("2.0.0", "", "True", "Succeeded"));
	member(x, "b", "m1", "web", "1", report("1.0.0", "", "True", "Succeeded"));
	fleet(x, "fleet", spec);
	at(x, 5000, &settle_m0);
}

static void test_s2_5_gate_halt_every_pass_and_recovery(void)
{
	static const char *const want[] = {
		"0 fleet InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
		"5000 fleet InProgress/rest Progressing | rolling out version 2.0.0; wave \"rest\" open",
		"65000 fleet Halted/canary Halted | " GATE_FAIL_MSG,
		"125000 fleet InProgress/rest Progressing | rolling out version 2.0.0; wave \"rest\" open",
	};
	struct fixture x;
	const struct obj *fr;

	setup(&x);
	gated_world(&x, false, GATED_SPEC(""));
	/*
	 * Passes every 30 s from the last one: m0's settle at 5 s made the
	 * pending requeue (due at 30 s) ready at once, so they fall at 35 s,
	 * 65 s (the 60 s sample: 0.05), 95 s, 125 s (0.002).
	 */
	run_to(&x, 65000);
	fr = get_fleet(&x, "fleet");
	CU_ASSERT_STRING_EQUAL(st(fr, "waves.0.health", ""), "Failing");
	CU_ASSERT_STRING_EQUAL(ready_field(fr, "status"), "False");
	run_to(&x, 130000);
	fx_expect_lines(&x.fleet, want, 4, "fleet statuses");
	/* the halting pass, the pass its own status write triggers, the 30 s requeue */
	CU_ASSERT_EQUAL(count_notices(&x, TL_WARNING, GATE_FAIL_MSG, 65000), 2);
	CU_ASSERT_EQUAL(count_notices(&x, TL_WARNING, GATE_FAIL_MSG, 95000), 1);
	CU_ASSERT_EQUAL(count_notices(&x, TL_WARNING, GATE_FAIL_MSG, -1), 3);
	/* the quirk note is told once, however often it happens */
	CU_ASSERT_EQUAL(count_notices_prefix(&x, TL_INFO,
					     "the gate of wave \"canary\" still fails"), 1);
	CU_ASSERT_EQUAL(count_notices_prefix(&x, TL_INFO,
					     "the gate of wave \"canary\" was queried again"), 1);
	fr = get_fleet(&x, "fleet");
	CU_ASSERT_STRING_EQUAL(st(fr, "waves.0.health", ""), "Passing");
	CU_ASSERT_TRUE(x.m.calls >= 5);
	/* no rollback-to under Halt */
	CU_ASSERT_EQUAL(x.ann.n, 2);
	teardown(&x);
}

/* §2.4 Rollback: every member of the halted wave gets rollback-to, once. */
static void test_s2_4_rollback_stamps_halted_wave(void)
{
	static const char *const want_ann[] = {
		"0 a/m0 approved-version=2.0.0",
		"0 a/m4 approved-version=2.0.0",
		"5000 b/m1 approved-version=2.0.0",
		"65000 a/m0 rollback-to=1.0.0",
		"65000 a/m4 rollback-to=1.0.0",
	};
	const char *msg = GATE_FAIL_MSG "; rolling wave \"canary\" back to 1.0.0";
	struct fixture x;
	char *line;

	setup(&x);
	gated_world(&x, true, GATED_SPEC("onRegression: Rollback, previousVersion: 1.0.0,"));
	run_to(&x, 100000);
	fx_expect_lines(&x.ann, want_ann, 5, "annotations");
	CU_ASSERT_EQUAL_FATAL(x.fleet.n, 3);
	line = xasprintf("65000 fleet Halted/canary Halted | %s", msg);
	CU_ASSERT_STRING_EQUAL(x.fleet.lines[2], line);
	free(line);
	CU_ASSERT_EQUAL(count_notices(&x, TL_WARNING, msg, 65000), 2);
	CU_ASSERT_EQUAL(count_notices(&x, TL_WARNING, msg, 95000), 1);
	CU_ASSERT_EQUAL(count_notices_prefix(&x, TL_INFO, "rollback-to=1.0.0 is on every member"), 1);
	teardown(&x);
}

/* §2.3.7 / §5.D M11, M14, M16: refused addresses are Unknown without a query. */
static void test_s2_3_7_refused_address_is_unknown_hold(void)
{
	static const char *const allow[] = { "*.monitoring.svc" };
	static const struct {
		const char *address;
		bool allowlist;
		const char *health;
		bool queried;
	} cases[] = {
		{ "http://prometheus.example.com:9090", true, "Unknown", false }, /* M16 */
		{ "://nope", false, "Unknown", false },                              /* M11 */
		{ "ftp://prometheus.monitoring.svc", false, "Unknown", false },     /* M11 */
		{ "http://127.0.0.1:9090", false, "Unknown", false },              /* M14 */
		{ "http://localhost:9090", false, "Unknown", false },              /* M14 */
		{ "http://169.254.169.254/", false, "Unknown", false },            /* M14 */
		{ GATE_ADDR, true, "Passing", true },                                 /* allowed */
		{ "http://10.0.0.5:9090", false, "Passing", true },                 /* M14 private ok */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture x;
		const struct obj *fr;
		char *spec = xasprintf(
			"{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, waves: ["
			"{name: canary, selector: {matchLabels: {ring: '0'}}, gate: {source: "
			"{prometheus: {address: '%s', query: q}}, threshold: {max: '1'}}},"
			"{name: rest, selector: {matchLabels: {ring: '1'}}}]}",
			cases[i].address);

		setup_hosts(&x, cases[i].allowlist ? allow : NULL, cases[i].allowlist ? 1 : 0);
		add_series(&x.m, "q", "0.5x100", 10000);
		member(&x, "a", "m0", "web", "0", report("2.0.0", "", "True", "Succeeded"));
		member(&x, "b", "m1", "web", "1", report("1.0.0", "", "True", "Succeeded"));
		fleet(&x, "fleet", spec);
		free(spec);
		run_to(&x, 100000);
		fr = get_fleet(&x, "fleet");
		CU_ASSERT_STRING_EQUAL(st(fr, "waves.0.health", ""), cases[i].health);
		CU_ASSERT_EQUAL(x.m.calls > 0, cases[i].queried);
		/* Unknown holds: the wave stays open, Ready True, no halt, nothing for wave rest */
		CU_ASSERT_STRING_EQUAL(st(fr, "currentWave", ""),
				       cases[i].queried ? "rest" : "canary");
		CU_ASSERT_STRING_EQUAL(ready_field(fr, "reason"), "Progressing");
		CU_ASSERT_EQUAL(x.ann.n, cases[i].queried ? 2 : 1);
		CU_ASSERT_EQUAL(count_notices_prefix(&x, TL_WARNING, ""), 0);
		if (strcmp(st(fr, "waves.0.health", ""), cases[i].health) != 0)
			fprintf(stderr, "\ncase %zu (%s)\n", i, cases[i].address);
		teardown(&x);
	}
}

/* ---- §2.3 early exits: messages and requeues ------------------------------------------- */

/* S4: MembersUnassigned, 30 s, until the member gets a wave label. */
static void test_s2_3_s4_members_unassigned(void)
{
	static const struct op relabel = { OP_LABEL, "b", "m1", "ring=0" };
	static const char *const want[] = {
		"0 fleet -/- MembersUnassigned | 1 selected StageSet(s) match no wave: b/m1",
		"45000 fleet InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
	};
	struct fixture x;

	setup(&x);
	member(&x, "a", "m0", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	member(&x, "b", "m1", "web", "1", report("1.0.0", "", "True", "Succeeded"));
	fleet(&x, "fleet", "{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, waves: ["
			   "{name: canary, selector: {matchLabels: {ring: '0'}}}]}");
	at(&x, 45000, &relabel);
	CU_ASSERT_TRUE(run_to(&x, 0) >= 1);
	CU_ASSERT_EQUAL(x.ann.n, 0); /* nothing is stamped in an early exit */
	CU_ASSERT_EQUAL(run_to(&x, 29999), 0);
	CU_ASSERT_EQUAL(run_to(&x, 30000), 1);
	CU_ASSERT_TRUE(run_to(&x, 45000) >= 1);
	run_to(&x, 50000);
	fx_expect_lines(&x.fleet, want, 2, "fleet statuses");
	CU_ASSERT_EQUAL(x.ann.n, 2);
	teardown(&x);
}

/* S2: MembersContested both ways, 30 s; deleting one is seen only at the requeue (§2.1 item 5). */
static void del_f2(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	CU_ASSERT_EQUAL(api_delete(des_api(w), "FleetRollout", "", "f2"), 0);
}

static void test_s2_3_s2_members_contested(void)
{
	static const char *const want[] = {
		"0 f1 -/- MembersContested | 1 selected StageSet(s) are governed by another "
		"FleetRollout: a/m0 (also governed by FleetRollout f2)",
		"0 f2 -/- MembersContested | 1 selected StageSet(s) are governed by another "
		"FleetRollout: a/m0 (also governed by FleetRollout f1)",
		"60000 f1 InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
	};
	const char *spec = "{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, waves: ["
			   "{name: canary, selector: {}}]}";
	struct fixture x;

	setup(&x);
	member(&x, "a", "m0", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	fleet(&x, "f1", spec);
	fleet(&x, "f2", spec);
	des_at(x.w, 50000, DES_PRIO_SCRIPT, del_f2, NULL, NULL);
	run_to(&x, 0);
	CU_ASSERT_EQUAL(run_to(&x, 29999), 0);
	CU_ASSERT_EQUAL(run_to(&x, 30000), 2); /* both requeue after 30 s */
	CU_ASSERT_EQUAL(run_to(&x, 50000), 1); /* f2's own deletion event; f1 is not told */
	CU_ASSERT_EQUAL(run_to(&x, 59999), 0);
	run_to(&x, 60000);
	fx_expect_lines(&x.fleet, want, 3, "fleet statuses");
	teardown(&x);
}

/* S1 / S3: InvalidSelector without requeue; a top-level one is never woken by StageSets (§2.1). */
static void test_s2_3_s1_s3_invalid_selector(void)
{
	static const struct op unsettle = { OP_UNSETTLE, "a", "m0", NULL };
	static const char *const want[] = {
		/* the member's ADDED event enqueues "wave" before the fleets' own events */
		"0 wave -/- InvalidSelector | wave \"canary\" selector: \"Bar\" is not a valid label "
		"selector operator",
		"0 top -/- InvalidSelector | selector: \"Foo\" is not a valid label selector operator",
	};
	struct fixture x;

	setup(&x);
	member(&x, "a", "m0", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	fleet(&x, "top", "{selector: {matchExpressions: [{key: app, operator: Foo}]}, waves: ["
			 "{name: canary, selector: {}}]}");
	fleet(&x, "wave", "{selector: {matchLabels: {app: web}}, waves: [{name: canary, selector: "
			  "{matchExpressions: [{key: ring, operator: Bar}]}}]}");
	at(&x, 10000, &unsettle);
	run_to(&x, 0);
	/* the member event wakes only the fleet whose top-level selector parses */
	CU_ASSERT_EQUAL(run_to(&x, 10000), 1);
	CU_ASSERT_EQUAL(des_run(x.w, 3600000, NULL), DES_QUIESCENT); /* no requeue */
	CU_ASSERT_EQUAL(run_to(&x, 3600000), 0);
	fx_expect_lines(&x.fleet, want, 2, "fleet statuses");
	CU_ASSERT_PTR_NULL(val_map_get(get_fleet(&x, "top")->status, "phase"));
	teardown(&x);
}

/* S3: GateUnsupported for a secretRef, no requeue; prometheus is checked before webhook. */
static void test_s2_3_s3_gate_unsupported(void)
{
	static const char *const want[] = {
		"0 fleet -/- GateUnsupported | wave \"canary\" gate source.webhook.secretRef: a "
		"FleetRollout is cluster-scoped, so it has no namespace to resolve a bearer-token "
		"Secret in; expose the metric without authentication, or gate the rollout on a "
		"StageSet-level source that carries one",
	};
	struct fixture x;

	setup(&x);
	member(&x, "a", "m0", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	fleet(&x, "fleet",
	      "{selector: {matchLabels: {app: web}}, waves: [{name: canary, selector: {}, gate: "
	      "{source: {webhook: {url: 'http://hook', jsonPath: '{.v}', secretRef: {name: s}}}, "
	      "threshold: {}}}]}");
	CU_ASSERT_EQUAL(des_run(x.w, 3600000, NULL), DES_QUIESCENT);
	CU_ASSERT_EQUAL(des_now(x.w), 0);
	fx_expect_lines(&x.fleet, want, 1, "fleet statuses");
	CU_ASSERT_EQUAL(x.m.calls, 0);
	teardown(&x);
}

/* ---- §2.1 what wakes the controller ---------------------------------------------------- */

static void create_ns_z(struct des *w, void *ctx, void *arg)
{
	struct obj *o = obj_new("v1", "Namespace", NULL, "z");

	(void)ctx;
	(void)arg;
	CU_ASSERT_EQUAL(api_create(des_api(w), o), 0);
}

static void label_ns_x(struct des *w, void *ctx, void *arg)
{
	(void)ctx;
	(void)arg;
	CU_ASSERT_EQUAL(api_set_label(des_api(w), "Namespace", "", "x", "tier", "prod"), 0);
}

static void test_s2_1_triggers(void)
{
	static const struct op outside_ns = { OP_UNSETTLE, "x", "m9", NULL };
	static const struct op other_app = { OP_UNSETTLE, "o", "m8", NULL };
	static const struct op leave = { OP_LABEL, "a", "m5", "app=other" };
	static const char *const want[] = {
		"0 fleet InProgress/canary Progressing | rolling out version 2.0.0; wave \"canary\" open",
	};
	struct fixture x;
	const struct obj *fr;

	setup(&x);
	namespace(&x, "a", "tier", "prod");
	namespace(&x, "x", NULL, NULL);
	namespace(&x, "o", "tier", "prod");
	member(&x, "a", "m0", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	member(&x, "a", "m5", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	member(&x, "x", "m9", "web", "0", report("1.0.0", "", "True", "Succeeded"));
	member(&x, "o", "m8", "other", "0", report("1.0.0", "", "True", "Succeeded"));
	fleet(&x, "fleet", "{targetVersion: 2.0.0, selector: {matchLabels: {app: web}}, "
			   "namespaceSelector: {matchLabels: {tier: prod}}, waves: ["
			   "{name: canary, selector: {}}]}");
	at(&x, 10000, &outside_ns);
	at(&x, 12000, &other_app);
	des_at(x.w, 14000, DES_PRIO_SCRIPT, create_ns_z, NULL, NULL);
	at(&x, 16000, &leave);
	des_at(x.w, 20000, DES_PRIO_SCRIPT, label_ns_x, NULL, NULL);
	run_to(&x, 0);
	fr = get_fleet(&x, "fleet");
	CU_ASSERT_EQUAL(val_int(val_path(fr->status, "waves.0.total"), 0), 2); /* a/m0, a/m5 */
	/* a StageSet outside the namespaceSelector still wakes the fleet (selector only) */
	CU_ASSERT_EQUAL(run_to(&x, 10000), 1);
	/* a StageSet the selector does not match does not */
	CU_ASSERT_EQUAL(run_to(&x, 12000), 0);
	/* Namespaces are not watched: a new one wakes nothing */
	CU_ASSERT_EQUAL(run_to(&x, 14000), 0);
	/* a member leaving the selector wakes it through its old labels; that pass
	   writes the smaller counts, and its own status write wakes it once more */
	CU_ASSERT_EQUAL(run_to(&x, 16000), 2);
	fr = get_fleet(&x, "fleet");
	CU_ASSERT_EQUAL(val_int(val_path(fr->status, "waves.0.total"), 0), 1); /* a/m0 */
	/* nor does a Namespace label change ... */
	CU_ASSERT_EQUAL(run_to(&x, 45999), 0);
	/*
	 * ... which the 30 s requeue sees: x/m9 joins the open wave and is
	 * approved.  Each event's pass restarted the 30 s (one queue entry per
	 * key, the earliest ready time wins): due 30 s after the passes at 16 s.
	 */
	CU_ASSERT_TRUE(run_to(&x, 46000) >= 1);
	fr = get_fleet(&x, "fleet");
	CU_ASSERT_EQUAL(val_int(val_path(fr->status, "waves.0.total"), 0), 2);
	CU_ASSERT_EQUAL_FATAL(x.ann.n, 3);
	CU_ASSERT_STRING_EQUAL(x.ann.lines[2], "46000 x/m9 approved-version=2.0.0");
	fx_expect_lines(&x.fleet, want, 1, "fleet statuses");
	teardown(&x);
}

/* ---- frc_metric_from_series (§2.3.7 step 6, §5.D M4, M7) ------------------------------- */

static void test_s2_3_7_metric_from_series(void)
{
	static const struct {
		int64_t t;
		int rc;
		double v;
		const char *err;
	} cases[] = {
		{ 0, 0, 1, NULL },
		{ 10000, -1, 0, "metric source unavailable: sample value is NaN (a misconfigured "
				 "query returns NaN/Inf)" },
		{ 20000, -1, 0, "metric source unavailable: sample value is +Inf (a misconfigured "
				 "query returns NaN/Inf)" },
		{ 40000, -1, 0, "metric source unavailable: sample value is -Inf (a misconfigured "
				 "query returns NaN/Inf)" },
		{ 340000, -1, 0, "metric source unavailable: query returned 0 samples, want exactly "
				  "1 (the query must reduce to a single scalar)" },
		{ 445000, 0, 5, NULL },
		{ 450000, -1, 0, "metric source unavailable: query returned 0 samples, want exactly "
				  "1 (the query must reduce to a single scalar)" },
		{ -1, -1, 0, "metric source unavailable: query returned 0 samples, want exactly "
			      "1 (the query must reduce to a single scalar)" },
	};
	struct ps_series s;
	char err[256];
	double v;

	/* 0 s: 1; 10 s NaN; 20 s +Inf; 30 s -Inf; 40..430 s missing; 440 s 5; 450 s stale */
	CU_ASSERT_EQUAL_FATAL(ps_parse("1 NaN Inf -Inf _x40 5 stale", &s, NULL), PS_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		v = -7;
		err[0] = '\0';
		CU_ASSERT_EQUAL(frc_metric_from_series(&s, 10000, cases[i].t, &v, err, sizeof(err)),
				cases[i].rc);
		if (cases[i].rc == 0) {
			CU_ASSERT_DOUBLE_EQUAL(v, cases[i].v, 0);
		} else {
			CU_ASSERT_STRING_EQUAL(err, cases[i].err);
		}
	}
	CU_ASSERT_EQUAL(frc_metric_from_series(NULL, 10000, 0, &v, err, sizeof(err)), -1);
	CU_ASSERT_STRING_EQUAL(err, cases[4].err);
	ps_series_release(&s);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "s2_6_pinned_three_waves", test_s2_6_pinned_three_waves },
		{ "s2_6_derived_three_waves", test_s2_6_derived_three_waves },
		{ "s2_3_6_soak_requeue_timing", test_s2_3_6_soak_requeue_timing },
		{ "s2_5_gate_halt_every_pass_and_recovery", test_s2_5_gate_halt_every_pass_and_recovery },
		{ "s2_4_rollback_stamps_halted_wave", test_s2_4_rollback_stamps_halted_wave },
		{ "s2_3_7_refused_address_is_unknown_hold", test_s2_3_7_refused_address_is_unknown_hold },
		{ "s2_3_s4_members_unassigned", test_s2_3_s4_members_unassigned },
		{ "s2_3_s2_members_contested", test_s2_3_s2_members_contested },
		{ "s2_3_s1_s3_invalid_selector", test_s2_3_s1_s3_invalid_selector },
		{ "s2_3_s3_gate_unsupported", test_s2_3_s3_gate_unsupported },
		{ "s2_1_triggers", test_s2_1_triggers },
		{ "s2_3_7_metric_from_series", test_s2_3_7_metric_from_series },
		CU_TEST_INFO_NULL,
	};

	CU_ADD_SUITE("fleet_rc", tests);
}
