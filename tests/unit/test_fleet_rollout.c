/*
 * The FleetRollout port (engine/fleet_rollout): given/when/then cases named
 * after the rules of ../shared/specs/fleetrollout-controller.md (§1.7-§1.9,
 * §2.3 S0-S9 and its subsections, §2.4-§2.8) and the code-derived scenarios
 * §5.G G1-G11, written as sequences of passes over scripted member statuses.
 *
 * A small world stands in for the API server: members follow the upstream
 * envtest conventions (§5: fleetMember(ns, name, app, ring) with labels
 * {app, ring}, generation 1, empty status; settle / hold / unsettle), each
 * pass applies the result's annotation patches to the members and stores
 * the written status as the next pass's prior status.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet_rollout.h"
#include "engine/xalloc.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define T0 1784462400000LL /* 2026-07-19T12:00:00Z */
#define MIN 60000LL

struct world {
	struct obj *fr;
	struct obj *ss[32];
	size_t nss;
	struct obj *ns[8];
	size_t nns;
	struct obj *others[4];
	size_t nothers;
	int64_t soak[8];
	struct fr_gate_value gv[8];
	bool no_querier;
	struct fr_status prior;
	bool has_prior;
	int64_t now;
	const char *list_error;
	int fail_patch_at; /* 1-based patch call to refuse; 0 none */
	int npatch;
	struct fr_result r;
};

static void w_init(struct world *w, const char *spec)
{
	memset(w, 0, sizeof(*w));
	w->fr = fx_fleet_rollout("fleet", spec);
	w->now = T0;
	for (size_t i = 0; i < 8; i++)
		w->gv[i] = (struct fr_gate_value){ true, 0, NULL };
}

static void w_release(struct world *w)
{
	obj_free(w->fr);
	for (size_t i = 0; i < w->nss; i++)
		obj_free(w->ss[i]);
	for (size_t i = 0; i < w->nns; i++)
		obj_free(w->ns[i]);
	for (size_t i = 0; i < w->nothers; i++)
		obj_free(w->others[i]);
	fr_status_release(&w->prior);
	fr_result_release(&w->r);
}

/* fleetMember(ns, name, app, ring); ring NULL: no ring label. */
static struct obj *member(struct world *w, const char *ns, const char *name, const char *app,
			  const char *ring)
{
	struct obj *o = fx_fleet_member(ns, name, app, ring);

	o->status = val_new_map();
	w->ss[w->nss++] = o;
	return o;
}

static void namespace(struct world *w, const char *name, const char *k, const char *v)
{
	w->ns[w->nns++] = fx_namespace(name, k, v);
}

static void set_ready(struct obj *m, const char *status, const char *reason)
{
	val_map_set(m->status, "conditions", fx_ready_conditions(status, reason));
}

/* settle(m, v): version v, no pending, observedGeneration = generation, Ready True. */
static void settle(struct obj *m, const char *v)
{
	val_map_set(m->status, "version", val_new_string(v));
	val_map_set(m->status, "pendingVersion", val_new_string(""));
	val_map_set(m->status, "observedGeneration", val_new_int(m->generation));
	set_ready(m, "True", "Succeeded");
}

/* hold(m, v): pendingVersion v, observedGeneration = generation, Ready False AwaitingApproval. */
static void hold(struct obj *m, const char *v)
{
	val_map_set(m->status, "pendingVersion", val_new_string(v));
	val_map_set(m->status, "observedGeneration", val_new_int(m->generation));
	set_ready(m, "False", "AwaitingApproval");
}

/* unsettle(m): Ready False StageFailed. */
static void unsettle(struct obj *m)
{
	set_ready(m, "False", "StageFailed");
}

static const char *ann(const struct obj *m, const char *key)
{
	const char *v = obj_strmap_get(&m->annotations, key);

	return v ? v : "(none)";
}

static int cmp_ss(const void *a, const void *b)
{
	const struct obj *x = *(const struct obj *const *)a, *y = *(const struct obj *const *)b;
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->name, y->name);
}

static int refuse_patch(void *ctx, const struct fr_action *a)
{
	struct world *w = ctx;

	(void)a;
	return ++w->npatch == w->fail_patch_at ? -1 : 0;
}

/* @b decided exactly as @a: status, outcome, patches, notes, label, requeue, event. */
static void expect_same_pass(const struct fr_result *a, const struct fr_result *b)
{
	CU_ASSERT_EQUAL(b->outcome, a->outcome);
	CU_ASSERT_TRUE(fr_status_equal(&b->status, &a->status));
	CU_ASSERT_EQUAL(b->status_changed, a->status_changed);
	CU_ASSERT_EQUAL(b->requeue_after_ms, a->requeue_after_ms);
	CU_ASSERT_EQUAL(b->event_halted, a->event_halted);
	CU_ASSERT_EQUAL(b->first_open, a->first_open);
	CU_ASSERT_EQUAL(b->ngates, a->ngates);
	CU_ASSERT_EQUAL((b->version_label == NULL), (a->version_label == NULL));
	if (a->version_label && b->version_label)
		CU_ASSERT_STRING_EQUAL(b->version_label, a->version_label);
	CU_ASSERT_EQUAL_FATAL(b->nquirks, a->nquirks);
	for (size_t i = 0; i < a->nquirks; i++) {
		CU_ASSERT_EQUAL(b->quirks[i].quirk, a->quirks[i].quirk);
		CU_ASSERT_EQUAL(b->quirks[i].wave, a->quirks[i].wave);
		CU_ASSERT_STRING_EQUAL(b->quirks[i].text, a->quirks[i].text);
	}
	CU_ASSERT_EQUAL_FATAL(b->nactions, a->nactions);
	for (size_t i = 0; i < a->nactions; i++) {
		CU_ASSERT_EQUAL(b->actions[i].kind, a->actions[i].kind);
		CU_ASSERT_EQUAL(b->actions[i].member, a->actions[i].member);
		CU_ASSERT_EQUAL(b->actions[i].wave, a->actions[i].wave);
		CU_ASSERT_STRING_EQUAL(b->actions[i].value, a->actions[i].value);
		CU_ASSERT_EQUAL((b->actions[i].previous == NULL), (a->actions[i].previous == NULL));
		if (a->actions[i].previous && b->actions[i].previous)
			CU_ASSERT_STRING_EQUAL(b->actions[i].previous, a->actions[i].previous);
	}
}

/* One reconcile: run, apply the patches, store the status.  Returns the rc. */
static int pass(struct world *w)
{
	struct fr_input in = { 0 };
	char *now_text = fr_format_time(w->now);
	int rc;

	qsort(w->ss, w->nss, sizeof(w->ss[0]), cmp_ss);
	in.fr = w->fr;
	in.prior = w->has_prior ? &w->prior : NULL;
	in.stagesets = (const struct obj *const *)w->ss;
	in.nstagesets = w->nss;
	in.namespaces = (const struct obj *const *)w->ns;
	in.nnamespaces = w->nns;
	in.others = (const struct obj *const *)w->others;
	in.nothers = w->nothers;
	in.wave_soak_ms = w->soak;
	in.now_ms = w->now;
	in.now_text = now_text;
	in.gate_values = w->no_querier ? NULL : w->gv;
	in.members_list_error = w->list_error;
	if (w->fail_patch_at) {
		in.patch = refuse_patch;
		in.patch_ctx = w;
	}
	fr_result_release(&w->r);
	rc = fr_reconcile(&in, &w->r);
	/*
	 * Every case also checks the caches sim/wire/fleet_rc hands in: the same pass
	 * with the assignment this one computed and the members' facts must
	 * decide exactly the same (status, outcome, patches, requeue, event).
	 */
	/* As sim/wire/fleet_rc keeps it: only from a pass that got past S4 (a version label). */
	if (!w->fail_patch_at && w->r.version_label) {
		struct fr_result shadow;
		struct fr_assignment as = { w->r.members, w->r.nmembers, w->r.waves, w->r.nwaves,
					    w->r.noverlap, w->r.first_overlap };
		struct fr_member_facts *facts = calloc(w->nss ? w->nss : 1, sizeof(*facts));

		for (size_t i = 0; i < w->nss; i++)
			fr_member_facts_of(w->ss[i], &facts[i]);
		in.assignment = &as;
		in.facts = facts;
		CU_ASSERT_EQUAL(fr_reconcile(&in, &shadow), rc);
		expect_same_pass(&w->r, &shadow);
		CU_ASSERT_TRUE(shadow.borrowed);
		CU_ASSERT_PTR_EQUAL(shadow.members, w->r.members);
		fr_result_release(&shadow);
		/* and with the tally sim/wire/fleet_rc keeps over that assignment */
		in.tally = fr_tally_new(w->fr, &as, facts, w->nss);
		CU_ASSERT_EQUAL(fr_reconcile(&in, &shadow), rc);
		expect_same_pass(&w->r, &shadow);
		fr_result_release(&shadow);
		fr_tally_free(in.tally);
		free(facts);
	}
	for (size_t i = 0; i < w->r.nactions; i++) {
		const struct fr_action *a = &w->r.actions[i];

		if (w->r.patch_failed && i + 1 == w->r.nactions)
			break;
		obj_strmap_set(&((struct obj *)w->ss[a->member])->annotations, a->annotation, a->value);
	}
	fr_status_release(&w->prior);
	fr_status_copy(&w->prior, &w->r.status);
	w->has_prior = true;
	free(now_text);
	return rc;
}

static const struct fr_wave_status *wave(const struct world *w, size_t i)
{
	CU_ASSERT_FATAL(i < w->r.status.nwaves);
	return &w->r.status.waves[i];
}

static bool has_quirk(const struct world *w, enum fr_quirk q)
{
	for (size_t i = 0; i < w->r.nquirks; i++)
		if (w->r.quirks[i].quirk == q)
			return true;
	return false;
}

#define EXPECT_READY(w, st, rsn, msg)                                                       \
	do {                                                                                \
		CU_ASSERT_TRUE_FATAL((w)->r.status.has_ready);                             \
		CU_ASSERT_STRING_EQUAL((w)->r.status.ready.status, st);                    \
		CU_ASSERT_STRING_EQUAL((w)->r.status.ready.reason, rsn);                   \
		CU_ASSERT_STRING_EQUAL((w)->r.status.ready.message, msg);                  \
	} while (0)

#define EXPECT_PHASE(w, ph, cw)                                                             \
	do {                                                                                \
		CU_ASSERT_STRING_EQUAL((w)->r.status.phase, ph);                           \
		CU_ASSERT_STRING_EQUAL((w)->r.status.current_wave, cw);                    \
	} while (0)

#define EXPECT_WAVE(w, i, tot, at, rdy, stl, hl)                                        \
	do {                                                                                \
		const struct fr_wave_status *ws_ = wave(w, i);                             \
		CU_ASSERT_EQUAL(ws_->total, tot);                                          \
		CU_ASSERT_EQUAL(ws_->at_target, at);                                       \
		CU_ASSERT_EQUAL(ws_->ready, rdy);                                          \
		CU_ASSERT_EQUAL(ws_->settled, stl);                                        \
		CU_ASSERT_STRING_EQUAL(ws_->health, hl);                                   \
	} while (0)

/* Pinned two-wave fleet of §5 (canary ring 0 with 30m soak, broad ring 1). */
#define PINNED2                                                                             \
	"{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: ["                \
	"{name: canary, selector: {matchLabels: {ring: '0'}}, soak: 30m},"                  \
	"{name: broad, selector: {matchLabels: {ring: '1'}}}]}"
#define DERIVED2                                                                            \
	"{selector: {matchLabels: {app: a}}, waves: ["                                      \
	"{name: canary, selector: {matchLabels: {ring: '0'}}},"                             \
	"{name: broad, selector: {matchLabels: {ring: '1'}}}]}"
#define GATE(max) "gate: {source: {prometheus: {address: 'http://prom:9090', query: q}}, threshold: {max: '" max "'}}"
/* PINNED2 with a gate of threshold max @max on the canary instead of the soak. */
#define GATED2(max)                                                                         \
	"{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: ["                \
	"{name: canary, selector: {matchLabels: {ring: '0'}}, " GATE(max) "},"              \
	"{name: broad, selector: {matchLabels: {ring: '1'}}}]}"

/* The fleet @spec over two members of app a in namespace n: m0 (ring 0) settled on 2.0.0, m1 (ring 1) new. */
static void settled_canary(struct world *w, const char *spec)
{
	w_init(w, spec);
	settle(member(w, "n", "m0", "a", "0"), "2.0.0");
	member(w, "n", "m1", "a", "1");
}

/* ---------------- §2.3 S0, S1, §2.3.1 ---------------- */

static void s0_observed_generation_even_on_early_exit(void)
{
	struct world w;

	w_init(&w, "{selector: {matchLabels: {app: a}}, waves: [{name: x, selector: {matchLabels: {ring: '9'}}}]}");
	w.fr->generation = 3;
	member(&w, "n", "m", "a", "0");
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_MEMBERS_UNASSIGNED);
	CU_ASSERT_EQUAL(w.r.status.observed_generation, 3);
	CU_ASSERT_EQUAL(w.r.status.ready.observed_generation, 3);
	w_release(&w);
}

static void s1_invalid_top_level_selector(void)
{
	struct world w;

	w_init(&w, "{selector: {matchExpressions: [{key: app, operator: Foo}]}, waves: [{name: x, selector: {}}]}");
	CU_ASSERT_EQUAL(pass(&w), FR_OK);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_INVALID_SELECTOR);
	EXPECT_READY(&w, "False", "InvalidSelector", "selector: \"Foo\" is not a valid label selector operator");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 0);
	CU_ASSERT_STRING_EQUAL(w.r.status.phase, "");
	CU_ASSERT_TRUE(w.r.status_changed);
	w_release(&w);
}

static void s1_invalid_namespace_selector(void)
{
	struct world w;

	w_init(&w, "{selector: {}, namespaceSelector: {matchExpressions: [{key: t, operator: In}]}, waves: [{name: x, selector: {}}]}");
	pass(&w);
	EXPECT_READY(&w, "False", "InvalidSelector",
		     "namespaceSelector: values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty");
	w_release(&w);
}

static void s1_list_error_is_invalid_selector(void)
{
	struct world w;

	w_init(&w, DERIVED2);
	w.list_error = "etcdserver: request timed out";
	pass(&w);
	EXPECT_READY(&w, "False", "InvalidSelector", "etcdserver: request timed out");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 0);
	w_release(&w);
}

static void s2_3_1_namespace_selector_bounds_members(void)
{
	struct world w;

	w_init(&w, "{selector: {matchLabels: {app: a}}, namespaceSelector: {matchLabels: {tier: prod}}, "
		   "waves: [{name: all, selector: {}}]}");
	namespace(&w, "p1", "tier", "prod");
	namespace(&w, "d1", "tier", "dev");
	member(&w, "p1", "m", "a", "0");
	member(&w, "d1", "m", "a", "0");
	member(&w, "gone", "m", "a", "0"); /* no Namespace object: not listed */
	member(&w, "p1", "other", "b", "0");
	pass(&w);
	CU_ASSERT_EQUAL(w.r.nmembers, 1);
	CU_ASSERT_STRING_EQUAL(w.ss[w.r.members[0]]->ns, "p1");
	EXPECT_WAVE(&w, 0, 1, 1, 0, false, "");
	w_release(&w);
}

static void s2_3_1_nil_and_empty_selectors_select_all(void)
{
	struct world w;

	/* no spec.selector (Go zero value) and namespaceSelector {} */
	w_init(&w, "{namespaceSelector: {}, waves: [{name: all}]}");
	namespace(&w, "n1", NULL, NULL);
	namespace(&w, "n2", NULL, NULL);
	member(&w, "n1", "a", "x", NULL);
	member(&w, "n2", "b", "y", NULL);
	pass(&w);
	CU_ASSERT_EQUAL(w.r.nmembers, 2);
	EXPECT_WAVE(&w, 0, 2, 2, 0, false, "");
	w_release(&w);
}

/* ---------------- S2 §2.3.2 contests ---------------- */

static void s2_members_contested(void)
{
	struct world w;

	w_init(&w, DERIVED2 );
	member(&w, "n", "m0", "a", "0");
	member(&w, "n", "m1", "a", "1");
	w.others[w.nothers++] = fx_fleet_rollout("zeta", "{selector: {matchLabels: {ring: '0'}}, waves: [{name: x, selector: {}}]}");
	w.others[w.nothers++] = fx_fleet_rollout("alpha", "{selector: {}, waves: [{name: x, selector: {}}]}");
	w.others[w.nothers++] = fx_fleet_rollout("fleet", "{selector: {}, waves: [{name: x, selector: {}}]}");
	w.others[w.nothers++] = fx_fleet_rollout("broken", "{selector: {matchExpressions: [{key: a, operator: Bad}]}, waves: []}");
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_MEMBERS_CONTESTED);
	EXPECT_READY(&w, "False", "MembersContested",
		     "2 selected StageSet(s) are governed by another FleetRollout: "
		     "n/m0 (also governed by FleetRollout alpha), n/m1 (also governed by FleetRollout alpha)");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 30000);
	CU_ASSERT_EQUAL(w.r.nactions, 0);
	w_release(&w);
}

static void s2_contest_uses_other_namespace_selector_and_beats_gate_unsupported(void)
{
	struct world w;

	w_init(&w, "{selector: {matchLabels: {app: a}}, waves: [{name: w, selector: {}, "
		   "gate: {source: {prometheus: {address: 'http://p', query: q, secretRef: {name: s}}}, threshold: {}}}]}");
	namespace(&w, "n", "team", "x");
	namespace(&w, "o", "team", "y");
	member(&w, "n", "m", "a", "0");
	member(&w, "o", "m", "a", "0");
	w.others[w.nothers++] = fx_fleet_rollout("other", "{selector: {}, namespaceSelector: {matchLabels: {team: \"y\"}}, waves: [{name: x, selector: {}}]}");
	pass(&w);
	EXPECT_READY(&w, "False", "MembersContested",
		     "1 selected StageSet(s) are governed by another FleetRollout: o/m (also governed by FleetRollout other)");
	w_release(&w);
}

/* ---------------- S3 ---------------- */

static void s3_wave_invalid_selector_and_gate_unsupported_order(void)
{
	struct world w;

	w_init(&w, "{selector: {}, waves: [{name: \"c\\\"1\", selector: {matchLabels: {'bad key': x}}},"
		   "{name: w2, selector: {}, gate: {source: {webhook: {url: 'http://h', jsonPath: '{.x}', secretRef: {name: s}}}, threshold: {}}}]}");
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_INVALID_SELECTOR);
	CU_ASSERT_EQUAL(strncmp(w.r.status.ready.message, "wave \"c\\\"1\" selector: ", 21), 0);
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 0);
	w_release(&w);

	w_init(&w, "{selector: {}, waves: [{name: w1, selector: {}, gate: {source: {webhook: {url: 'http://h', jsonPath: '{.x}', secretRef: {name: s}}}, threshold: {}}},"
		   "{name: w2, selector: {matchLabels: {'bad key': x}}}]}");
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_GATE_UNSUPPORTED);
	EXPECT_READY(&w, "False", "GateUnsupported",
		     "wave \"w1\" gate source.webhook.secretRef: a FleetRollout is cluster-scoped, so it has no "
		     "namespace to resolve a bearer-token Secret in; expose the metric without authentication, "
		     "or gate the rollout on a StageSet-level source that carries one");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 0);
	w_release(&w);
}

static void s3_gate_unsupported_prometheus_checked_first(void)
{
	struct world w;

	w_init(&w, "{selector: {}, waves: [{name: w, selector: {}, gate: {source: {"
		   "prometheus: {address: 'http://p', query: q, secretRef: {name: s}},"
		   "webhook: {url: 'http://h', jsonPath: '{.x}', secretRef: {name: s}}}, threshold: {}}}]}");
	member(&w, "n", "unassigned", "a", NULL);
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_GATE_UNSUPPORTED);
	CU_ASSERT_PTR_NOT_NULL(strstr(w.r.status.ready.message, "gate source.prometheus.secretRef: "));
	w_release(&w);
}

/* ---------------- S4 ---------------- */

static void s4_members_unassigned_sorted(void)
{
	struct world w;

	w_init(&w, PINNED2);
	member(&w, "z", "m", "a", "7");
	member(&w, "b", "m", "a", NULL);
	member(&w, "b", "ok", "a", "0");
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_MEMBERS_UNASSIGNED);
	EXPECT_READY(&w, "False", "MembersUnassigned", "2 selected StageSet(s) match no wave: b/m, z/m");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 30000);
	CU_ASSERT_EQUAL(w.r.nactions, 0);
	CU_ASSERT_EQUAL(w.r.status.nwaves, 0); /* frozen: nothing written before */
	w_release(&w);
}

/*
 * The same with 30 members: a pass issues 30 patches (the index of the
 * pass's patches grows past its first sizes) and each member is still
 * approved once, its second wave seeing the first wave's patch.
 */
static void s4_many_members_in_two_waves_approved_once(void)
{
	struct world w;
	char name[16];

	w_init(&w, "{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: ["
		   "{name: ring0, selector: {matchLabels: {ring: '0'}}, soak: 1h},"
		   "{name: everything, selector: {matchLabels: {app: a}}}]}");
	for (int i = 0; i < 30; i++) {
		snprintf(name, sizeof name, "m%02d", i);
		member(&w, "n", name, "a", "0");
	}
	CU_ASSERT_EQUAL(pass(&w), FR_OK);
	CU_ASSERT_EQUAL(w.r.nactions, 30);
	for (size_t i = 0; i < w.r.nactions; i++) {
		CU_ASSERT_EQUAL(w.r.actions[i].member, i);
		CU_ASSERT_EQUAL(w.r.actions[i].wave, 0);
		CU_ASSERT_PTR_NULL(w.r.actions[i].previous);
	}
	/* approved now: the next pass patches nothing */
	CU_ASSERT_EQUAL(pass(&w), FR_OK);
	CU_ASSERT_EQUAL(w.r.nactions, 0);
	w_release(&w);
}

static void s4_member_in_every_matching_wave_g6(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: ["
		   "{name: ring0, selector: {matchLabels: {ring: '0'}}, soak: 1h},"
		   "{name: everything, selector: {matchLabels: {app: a}}}]}");
	member(&w, "n", "m", "a", "0");
	CU_ASSERT_EQUAL(pass(&w), FR_OK);
	EXPECT_WAVE(&w, 0, 1, 0, 0, false, "");
	EXPECT_WAVE(&w, 1, 1, 0, 0, false, "");
	CU_ASSERT_EQUAL(w.r.nactions, 1); /* approved once, when wave 0 opens */
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "2.0.0");
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_OVERLAPPING_WAVES));
	EXPECT_PHASE(&w, "InProgress", "ring0");
	w_release(&w);
}

/* ---------------- §1.8 label, S9 messages ---------------- */

static void s5_version_label_pinned_and_derived(void)
{
	struct world w;

	w_init(&w, DERIVED2);
	settle(member(&w, "n", "m0", "a", "0"), "2.0.0");
	settle(member(&w, "n", "m1", "a", "1"), "2.0.0");
	pass(&w);
	EXPECT_READY(&w, "True", "Completed", "all 2 wave(s) have adopted the current version");
	hold(w.ss[0], "3.0.0");
	w.has_prior = false;
	pass(&w);
	EXPECT_READY(&w, "True", "Progressing", "rolling out version 3.0.0; wave \"canary\" open");
	hold(w.ss[1], "3.1.0");
	w.has_prior = false; /* (with the prior status broad would regress: see G2) */
	pass(&w);
	EXPECT_READY(&w, "True", "Progressing", "rolling out mixed versions; wave \"canary\" open");
	w_release(&w);
}

/* ---------------- PASS 1 §2.3.3 ---------------- */

static void pass1_member_progress_predicates(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: [{name: w, selector: {}}]}");
	settle(member(&w, "n", "ok", "a", "0"), "2.0.0");
	settle(member(&w, "n", "oldgen", "a", "0"), "2.0.0");
	w.ss[1]->generation = 2; /* observedGeneration 1 lags */
	settle(member(&w, "n", "window", "a", "0"), "2.0.0");
	val_map_set(w.ss[2]->status, "pendingUpdate", fx_yaml("{revisions: {src: abc}}"));
	settle(member(&w, "n", "emptyrev", "a", "0"), "2.0.0");
	val_map_set(w.ss[3]->status, "pendingUpdate", fx_yaml("{revisions: {}}"));
	settle(member(&w, "n", "v", "a", "0"), "v2.0.0"); /* exact string compare (§6 #13) */
	pass(&w);
	EXPECT_WAVE(&w, 0, 5, 4, 3, false, "");
	w_release(&w);
}

static void pass1_empty_wave_settles_with_soak_deadline(void)
{
	struct world w;

	w_init(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	member(&w, "n", "m1", "a", "1");
	pass(&w);
	EXPECT_WAVE(&w, 0, 0, 0, 0, true, "");
	CU_ASSERT_TRUE(wave(&w, 0)->has_soak_until);
	CU_ASSERT_STRING_EQUAL(wave(&w, 0)->soak_until, "2026-07-19T12:30:00Z");
	CU_ASSERT_FALSE(wave(&w, 1)->has_soak_until);
	EXPECT_PHASE(&w, "InProgress", "canary");
	w_release(&w);
}

static void pass1_soak_until_carried_then_cleared(void)
{
	struct world w;

	settled_canary(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	pass(&w);
	CU_ASSERT_EQUAL(wave(&w, 0)->soak_until_ms, T0 + 30 * MIN);
	w.now += 10 * MIN;
	pass(&w);
	CU_ASSERT_EQUAL(wave(&w, 0)->soak_until_ms, T0 + 30 * MIN); /* carried, not now+soak */
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 30000);
	/* a wave without a prior deadline that is unsettled keeps none */
	CU_ASSERT_FALSE(wave(&w, 1)->has_soak_until);
	w_release(&w);
}

static void pass1_soak_until_floored_to_seconds(void)
{
	struct world w;

	settled_canary(&w, PINNED2);
	w.soak[0] = 10000;
	w.now = T0 + 700;
	pass(&w);
	CU_ASSERT_EQUAL(wave(&w, 0)->soak_until_ms, T0 + 10000);
	CU_ASSERT_STRING_EQUAL(wave(&w, 0)->soak_until, "2026-07-19T12:00:10Z");
	/* within the pass full precision: the remaining soak is 10 s exactly */
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 10000);
	/* the next pass at now + 10 s reads the floored deadline back and passes */
	w.now += 10000;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "broad");
	w_release(&w);
}

/* ---------------- PASS 2 §2.3.4 ---------------- */

static void pass2_soak_is_inclusive_and_zero_soak_passes_at_once(void)
{
	struct world w;

	settled_canary(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	w.now = T0 + 30 * MIN - 1000;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 1000); /* §2.3.6: remaining soak under 30 s */
	w.now = T0 + 30 * MIN;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "broad");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "2.0.0");
	settle(w.ss[1], "2.0.0");
	pass(&w); /* broad has no soak: settles and passes in the same pass */
	EXPECT_PHASE(&w, "Completed", "");
	EXPECT_READY(&w, "True", "Completed", "all 2 wave(s) have adopted version 2.0.0");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 0);
	CU_ASSERT_FALSE(w.r.event_halted);
	w_release(&w);
}

static void pass2_gate_verdicts(void)
{
	struct world w;

	settled_canary(&w, GATED2("0.01"));
	/* Unknown (query failed): hold, no halt, health Unknown */
	w.gv[0] = (struct fr_gate_value){ false, 0, "no series" };
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	EXPECT_WAVE(&w, 0, 1, 1, 1, true, "Unknown");
	CU_ASSERT_EQUAL(w.r.ngates, 1);
	CU_ASSERT_STRING_EQUAL(w.r.gates[0].error, "no series");
	CU_ASSERT_FALSE(w.r.event_halted);
	CU_ASSERT_EQUAL(w.r.nactions, 1); /* the open canary is still approved */
	w_release(&w);
}

static void pass2_gate_unknown_holds_and_passing_opens(void)
{
	struct world w;

	settled_canary(&w, GATED2("0.01"));
	w.gv[0] = (struct fr_gate_value){ false, 0, "no series" };
	pass(&w);
	EXPECT_WAVE(&w, 0, 1, 1, 1, true, "Unknown");
	EXPECT_PHASE(&w, "InProgress", "canary");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "(none)");
	/* Passing: the wave passes, broad opens and is approved in the same pass */
	w.gv[0] = (struct fr_gate_value){ true, 0.01, NULL };
	w.now += 30000;
	pass(&w);
	EXPECT_WAVE(&w, 0, 1, 1, 1, true, "Passing");
	EXPECT_PHASE(&w, "InProgress", "broad");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "2.0.0");
	CU_ASSERT_TRUE(w.r.gates[0].available);
	CU_ASSERT_TRUE(w.r.gates[0].wave_open);
	w_release(&w);
}

static void pass2_threshold_parse_error_is_unknown(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, selector: {}, waves: [{name: w, selector: {}, " GATE("1%") "}]}");
	w.gv[0] = (struct fr_gate_value){ true, 5, NULL };
	pass(&w);
	EXPECT_WAVE(&w, 0, 0, 0, 0, true, "Unknown");
	CU_ASSERT_TRUE(w.r.gates[0].available);
	CU_ASSERT_DOUBLE_EQUAL(w.r.gates[0].value, 5, 0);
	CU_ASSERT_STRING_EQUAL(w.r.gates[0].error,
			       "threshold max \"1%\" is not a number: strconv.ParseFloat: parsing \"1%\": invalid syntax");
	EXPECT_PHASE(&w, "InProgress", "w");
	w_release(&w);
}

static void pass2_no_querier_is_unknown(void)
{
	struct world w;

	w_init(&w, "{selector: {}, waves: [{name: w, selector: {}, " GATE("1") "}]}");
	w.no_querier = true;
	pass(&w);
	CU_ASSERT_STRING_EQUAL(w.r.gates[0].error, "no metric querier configured");
	EXPECT_WAVE(&w, 0, 0, 0, 0, true, "Unknown");
	w_release(&w);
}

static void pass2_gate_failing_halts_with_g4_message(void)
{
	struct world w;

	settled_canary(&w, GATED2("0.01"));
	w.gv[0] = (struct fr_gate_value){ true, 0.123456, NULL };
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_HALTED);
	EXPECT_PHASE(&w, "Halted", "canary");
	EXPECT_READY(&w, "False", "Halted", "wave \"canary\" failed its health gate: metric 0.1235 is outside the threshold");
	EXPECT_WAVE(&w, 0, 1, 1, 1, true, "Failing");
	CU_ASSERT_TRUE(w.r.event_halted);
	CU_ASSERT_STRING_EQUAL(w.r.event_note, w.r.status.ready.message);
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 30000);
	CU_ASSERT_EQUAL(w.r.nactions, 0); /* no approvals in a halting pass */
	/* §2.5 level-triggered: the next pass halts again, with another event */
	w.gv[0].value = 12346;
	w.now += 30000;
	pass(&w);
	EXPECT_READY(&w, "False", "Halted", "wave \"canary\" failed its health gate: metric 1.235e+04 is outside the threshold");
	CU_ASSERT_TRUE(w.r.event_halted);
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_HALT_EVERY_PASS));
	/* back within the threshold: the fleet proceeds */
	w.gv[0].value = 0.001;
	w.now += 30000;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "broad");
	CU_ASSERT_FALSE(w.r.event_halted);
	w_release(&w);
}

/* ---------------- §2.3.5 approvals ---------------- */

static void approvals_pinned_stamp_every_member_of_open_waves(void)
{
	struct world w;

	w_init(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	member(&w, "n", "a0", "a", "0");
	member(&w, "n", "b0", "a", "0");
	member(&w, "n", "c1", "a", "1");
	obj_strmap_set(&w.ss[1]->annotations, FR_ANN_APPROVED_VERSION, "9.9.9"); /* manual: overwritten */
	pass(&w);
	CU_ASSERT_EQUAL(w.r.nactions, 2);
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "2.0.0");
	CU_ASSERT_STRING_EQUAL(w.r.actions[1].previous, "9.9.9");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[2], FR_ANN_APPROVED_VERSION), "(none)");
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_APPROVAL_OVERWRITTEN));
	/* skip when equal: the next pass patches nothing */
	pass(&w);
	CU_ASSERT_EQUAL(w.r.nactions, 0);
	CU_ASSERT_FALSE(w.r.status_changed);
	w_release(&w);
}

static void approvals_derived_stamp_own_pending_version(void)
{
	struct world w;

	w_init(&w, DERIVED2);
	hold(member(&w, "n", "a0", "a", "0"), "3.0.0");
	hold(member(&w, "n", "b0", "a", "0"), "3.1.0");
	settle(member(&w, "n", "c0", "a", "0"), "2.0.0");
	hold(member(&w, "n", "d1", "a", "1"), "3.0.0");
	pass(&w);
	EXPECT_WAVE(&w, 0, 3, 1, 1, false, "");
	CU_ASSERT_EQUAL(w.r.nactions, 2);
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "3.0.0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "3.1.0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[2], FR_ANN_APPROVED_VERSION), "(none)");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[3], FR_ANN_APPROVED_VERSION), "(none)");
	EXPECT_READY(&w, "True", "Progressing", "rolling out mixed versions; wave \"canary\" open");
	w_release(&w);
}

static void approvals_stop_at_first_patch_error(void)
{
	struct world w;

	w_init(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	member(&w, "n", "a0", "a", "0");
	member(&w, "n", "b0", "a", "0");
	member(&w, "n", "c0", "a", "0");
	w.fail_patch_at = 2;
	CU_ASSERT_EQUAL(pass(&w), FR_EPATCH);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_PATCH_ERROR);
	CU_ASSERT_EQUAL(w.r.nactions, 2);
	CU_ASSERT_TRUE(w.r.patch_failed);
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "2.0.0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "(none)");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[2], FR_ANN_APPROVED_VERSION), "(none)");
	/* waves and observedGeneration written; phase and condition untouched */
	CU_ASSERT_EQUAL(w.r.status.nwaves, 2);
	CU_ASSERT_STRING_EQUAL(w.r.status.phase, "");
	CU_ASSERT_FALSE(w.r.status.has_ready);
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 0);
	w_release(&w);
}

/* ---------------- §2.3.6 requeue ---------------- */

static void requeue_first_settled_wave_under_30s(void)
{
	struct world w;

	w_init(&w, "{selector: {}, waves: [{name: a, selector: {matchLabels: {r: a}}}, "
		   "{name: b, selector: {matchLabels: {r: b}}}, {name: c, selector: {matchLabels: {r: c}}}]}");
	w.soak[0] = 10 * MIN; /* empty waves: all settle now */
	w.soak[1] = 20000;
	w.soak[2] = 5000;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "a");
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 20000); /* b is the first under 30 s, not c */
	w_release(&w);
}

/* ---------------- §1.9 condition mechanics ---------------- */

static void condition_last_transition_time(void)
{
	struct world w;

	settled_canary(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	w.fr->generation = 4;
	pass(&w);
	CU_ASSERT_STRING_EQUAL(w.r.status.ready.last_transition_time, "2026-07-19T12:00:00Z");
	CU_ASSERT_EQUAL(w.r.status.ready.observed_generation, 4);
	w.now += 5 * MIN; /* same status, reason, message: kept */
	pass(&w);
	CU_ASSERT_STRING_EQUAL(w.r.status.ready.last_transition_time, "2026-07-19T12:00:00Z");
	w.now = T0 + 30 * MIN; /* message changes (next wave): reset */
	pass(&w);
	EXPECT_READY(&w, "True", "Progressing", "rolling out version 2.0.0; wave \"broad\" open");
	CU_ASSERT_STRING_EQUAL(w.r.status.ready.last_transition_time, "2026-07-19T12:30:00Z");
	w_release(&w);
}

/* ---------------- §2.4 halt and rollback ---------------- */

static void halt_rollback_stamps_every_member_of_halting_wave(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, previousVersion: 1.0.0, onRegression: Rollback, selector: {matchLabels: {app: a}}, waves: ["
		   "{name: canary, selector: {matchLabels: {ring: '0'}}, soak: 30m},"
		   "{name: broad, selector: {matchLabels: {ring: '1'}}}]}");
	w.soak[0] = 30 * MIN;
	settle(member(&w, "n", "w0", "a", "0"), "2.0.0");
	settle(member(&w, "n", "x0", "a", "0"), "2.0.0");
	obj_strmap_set(&w.ss[1]->annotations, FR_ANN_ROLLBACK_TO, "1.0.0"); /* already: skipped */
	member(&w, "n", "w1", "a", "1");
	pass(&w);
	unsettle(w.ss[0]);
	w.now += MIN;
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_HALTED);
	EXPECT_READY(&w, "False", "Halted",
		     "wave \"canary\" regressed: a member is no longer adopted and Ready; rolling wave \"canary\" back to 1.0.0");
	CU_ASSERT_EQUAL(w.r.nactions, 1);
	CU_ASSERT_EQUAL(w.r.actions[0].kind, FR_ACT_ROLLBACK);
	CU_ASSERT_STRING_EQUAL(w.ss[2]->name, "x0"); /* List order: w0, w1, x0 */
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_ROLLBACK_TO), "1.0.0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_ROLLBACK_TO), "(none)"); /* broad is not the halting wave */
	CU_ASSERT_STRING_EQUAL(ann(w.ss[2], FR_ANN_ROLLBACK_TO), "1.0.0");
	CU_ASSERT_TRUE(w.r.event_halted);
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_ROLLBACK_NEVER_CLEARED));
	CU_ASSERT_EQUAL(w.r.requeue_after_ms, 30000);
	w_release(&w);
}

static void halt_without_rollback_or_previous_version(void)
{
	struct world w;
	const char *specs[] = {
		"{targetVersion: 2.0.0, previousVersion: 1.0.0, onRegression: Halt, selector: {}, waves: [{name: w, selector: {}}]}",
		"{targetVersion: 2.0.0, onRegression: Rollback, selector: {}, waves: [{name: w, selector: {}}]}",
		"{targetVersion: 2.0.0, previousVersion: 1.0.0, onRegression: rollback, selector: {}, waves: [{name: w, selector: {}}]}",
	};

	for (size_t i = 0; i < 3; i++) {
		w_init(&w, specs[i]);
		w.soak[0] = MIN;
		settle(member(&w, "n", "m", "a", "0"), "2.0.0");
		pass(&w);
		unsettle(w.ss[0]);
		pass(&w);
		EXPECT_READY(&w, "False", "Halted", "wave \"w\" regressed: a member is no longer adopted and Ready");
		CU_ASSERT_EQUAL(w.r.nactions, 0);
		w_release(&w);
	}
}

static void halt_rollback_patch_error_leaves_phase(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, previousVersion: 1.0.0, onRegression: Rollback, selector: {}, waves: [{name: w, selector: {}}]}");
	w.soak[0] = MIN;
	settle(member(&w, "n", "m", "a", "0"), "2.0.0");
	pass(&w);
	unsettle(w.ss[0]);
	w.fail_patch_at = 1;
	CU_ASSERT_EQUAL(pass(&w), FR_EPATCH);
	EXPECT_PHASE(&w, "InProgress", "w");
	CU_ASSERT_FALSE(w.r.event_halted);
	CU_ASSERT_FALSE(wave(&w, 0)->has_soak_until); /* PASS 1 already cleared it */
	w_release(&w);
}

/* ---------------- §5.G code-derived scenarios ---------------- */

/* G1 (F5 step 3): a regression halt lasts one pass. */
static void g1_regression_halt_is_one_shot(void)
{
	struct world w;

	w_init(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	member(&w, "n", "w0", "a", "0");
	member(&w, "n", "w1", "a", "1");
	pass(&w);
	settle(w.ss[0], "2.0.0");
	pass(&w); /* wave 0 settled + soaking */
	CU_ASSERT_TRUE(wave(&w, 0)->has_soak_until);
	unsettle(w.ss[0]);
	w.now += MIN;
	pass(&w);
	EXPECT_PHASE(&w, "Halted", "canary");
	EXPECT_READY(&w, "False", "Halted", "wave \"canary\" regressed: a member is no longer adopted and Ready");
	CU_ASSERT_TRUE(w.r.event_halted);
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_REGRESSION_ONE_PASS));
	CU_ASSERT_FALSE(wave(&w, 0)->has_soak_until);
	/* next pass, nothing recovered: InProgress again */
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	EXPECT_READY(&w, "True", "Progressing", "rolling out version 2.0.0; wave \"canary\" open");
	CU_ASSERT_FALSE(w.r.event_halted);
	/* recovery: the soak restarts from scratch */
	settle(w.ss[0], "2.0.0");
	w.now += MIN;
	pass(&w);
	CU_ASSERT_EQUAL(wave(&w, 0)->soak_until_ms, w.now + 30 * MIN);
	w_release(&w);
}

/* Completes a DERIVED2 world at 2.0.0 (both members settled). */
static void complete_derived(struct world *w)
{
	settle(member(w, "n", "c0", "a", "0"), "2.0.0");
	settle(member(w, "n", "b1", "a", "1"), "2.0.0");
	pass(w);
	EXPECT_PHASE(w, "Completed", "");
}

/* G2: a new version after Completed (derived) first trips a regression halt. */
static void g2_new_version_after_completed_derived(void)
{
	struct world w;

	w_init(&w, DERIVED2);
	complete_derived(&w);
	hold(w.ss[0], "3.0.0");
	hold(w.ss[1], "3.0.0");
	pass(&w);
	EXPECT_PHASE(&w, "Halted", "canary");
	CU_ASSERT_TRUE(w.r.event_halted);
	CU_ASSERT_FALSE(wave(&w, 0)->has_soak_until);
	CU_ASSERT_FALSE(wave(&w, 1)->has_soak_until);
	CU_ASSERT_EQUAL(w.r.nactions, 0);
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_NEW_VERSION_AFTER_COMPLETED));
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	EXPECT_READY(&w, "True", "Progressing", "rolling out version 3.0.0; wave \"canary\" open");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "3.0.0"); /* c0 (canary) sorts after b1 */
	CU_ASSERT_STRING_EQUAL(w.ss[1]->name, "c0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "(none)");
	/* then as a fresh rollout: canary adopts, broad opens */
	settle(w.ss[1], "3.0.0");
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "broad");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "3.0.0");
	w_release(&w);
}

/* G3: same with Rollback: the first pass stamps rollback-to on the canary members. */
static void g3_new_version_after_completed_rollback(void)
{
	struct world w;

	w_init(&w, "{previousVersion: 1.0.0, onRegression: Rollback, selector: {matchLabels: {app: a}}, waves: ["
		   "{name: canary, selector: {matchLabels: {ring: '0'}}},"
		   "{name: broad, selector: {matchLabels: {ring: '1'}}}]}");
	complete_derived(&w);
	hold(w.ss[0], "3.0.0");
	hold(w.ss[1], "3.0.0");
	pass(&w);
	EXPECT_PHASE(&w, "Halted", "canary");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_ROLLBACK_TO), "1.0.0"); /* c0 */
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_ROLLBACK_TO), "(none)"); /* b1 (broad) */
	/* member side (§3.4, allowDowngrade, reversible): re-holds for 1.0.0 */
	hold(w.ss[1], "1.0.0");
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "1.0.0"); /* the fleet approves the rollback */
	EXPECT_READY(&w, "True", "Progressing", "rolling out mixed versions; wave \"canary\" open");
	w_release(&w);
}

/* G4: pinned re-target after Completed. */
static void g4_pinned_retarget(void)
{
	struct world w;

	w_init(&w, PINNED2);
	settle(member(&w, "n", "c0", "a", "0"), "2.0.0");
	settle(member(&w, "n", "d1", "a", "1"), "2.0.0");
	pass(&w);
	EXPECT_PHASE(&w, "Completed", "");
	val_map_set(w.fr->spec, "targetVersion", val_new_string("3.0.0"));
	w.fr->generation = 2;
	pass(&w);
	EXPECT_PHASE(&w, "Halted", "canary");
	CU_ASSERT_EQUAL(w.r.nactions, 0);
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "3.0.0");
	CU_ASSERT_STRING_EQUAL(ann(w.ss[1], FR_ANN_APPROVED_VERSION), "2.0.0");
	w_release(&w);
}

/* G5: an empty later wave's gate runs before the wave opens and can halt the fleet. */
static void g5_empty_wave_gate_halts_before_open(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: ["
		   "{name: canary, selector: {matchLabels: {ring: '0'}}},"
		   "{name: empty, selector: {matchLabels: {ring: none}}, soak: 10m, " GATE("0.01") "}]}");
	w.soak[1] = 10 * MIN;
	member(&w, "n", "c0", "a", "0");
	pass(&w);
	EXPECT_WAVE(&w, 1, 0, 0, 0, true, "");
	CU_ASSERT_EQUAL(wave(&w, 1)->soak_until_ms, T0 + 10 * MIN);
	CU_ASSERT_EQUAL(w.r.ngates, 0);
	w.now = T0 + 10 * MIN;
	w.gv[1] = (struct fr_gate_value){ true, 0.5, NULL };
	pass(&w);
	CU_ASSERT_EQUAL(w.r.ngates, 1);
	CU_ASSERT_FALSE(w.r.gates[0].wave_open);
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_GATE_BEFORE_OPEN));
	EXPECT_PHASE(&w, "Halted", "empty");
	EXPECT_READY(&w, "False", "Halted", "wave \"empty\" failed its health gate: metric 0.5 is outside the threshold");
	w_release(&w);
}

/* G7: zero members ⇒ every wave empty and settled ⇒ Completed after soaks and gates. */
static void g7_zero_members_complete(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, selector: {matchLabels: {app: nothing}}, waves: ["
		   "{name: a, selector: {}, soak: 1m, " GATE("1") "}, {name: b, selector: {}}]}");
	w.soak[0] = MIN;
	w.gv[0] = (struct fr_gate_value){ true, 0.5, NULL };
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "a");
	w.now += MIN;
	pass(&w);
	EXPECT_PHASE(&w, "Completed", "");
	EXPECT_READY(&w, "True", "Completed", "all 2 wave(s) have adopted version 2.0.0");
	w_release(&w);
}

/* G8: a passed wave's gate goes Unknown ⇒ currentWave moves back, Ready stays True. */
static void g8_gate_unknown_on_passed_wave(void)
{
	struct world w;

	settled_canary(&w, "{targetVersion: 2.0.0, selector: {matchLabels: {app: a}}, waves: ["
			   "{name: a, selector: {matchLabels: {ring: '0'}}, " GATE("1") "},"
			   "{name: b, selector: {matchLabels: {ring: '1'}}}]}");
	w.gv[0] = (struct fr_gate_value){ true, 0.5, NULL };
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "b");
	w.gv[0] = (struct fr_gate_value){ false, 0, "connection refused" };
	w.now += 30000;
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "a");
	EXPECT_WAVE(&w, 0, 1, 1, 1, true, "Unknown");
	EXPECT_READY(&w, "True", "Progressing", "rolling out version 2.0.0; wave \"a\" open");
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_GATE_ON_PASSED_WAVE));
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_WAVE_REOPENED));
	w_release(&w);
}

/* G9: a window-held new revision on a settled wave's member ⇒ one-shot regression halt. */
static void g9_update_window_on_settled_wave(void)
{
	struct world w;

	settled_canary(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	pass(&w);
	val_map_set(w.ss[0]->status, "pendingUpdate", fx_yaml("{revisions: {src: def}, nextWindowOpens: '2026-07-20T00:00:00Z'}"));
	pass(&w);
	EXPECT_PHASE(&w, "Halted", "canary");
	pass(&w);
	EXPECT_PHASE(&w, "InProgress", "canary");
	EXPECT_WAVE(&w, 0, 1, 1, 0, false, "");
	w_release(&w);
}

/* G10 (fleet side): pinned Rollback stalls: the member holds 1.0.0, the fleet keeps stamping 2.0.0. */
static void g10_pinned_rollback_stalls(void)
{
	struct world w;

	w_init(&w, "{targetVersion: 2.0.0, previousVersion: 1.0.0, onRegression: Rollback, selector: {matchLabels: {app: a}}, waves: ["
		   "{name: canary, selector: {matchLabels: {ring: '0'}}, soak: 30m},"
		   "{name: broad, selector: {matchLabels: {ring: '1'}}}]}");
	w.soak[0] = 30 * MIN;
	member(&w, "n", "w0", "a", "0");
	member(&w, "n", "w1", "a", "1");
	pass(&w);
	settle(w.ss[0], "2.0.0");
	pass(&w);
	unsettle(w.ss[0]);
	w.now += MIN;
	pass(&w); /* F6: regression, rollback-to stamped */
	CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_ROLLBACK_TO), "1.0.0");
	hold(w.ss[0], "1.0.0"); /* member: downgrade needs approval (Always) */
	for (int i = 0; i < 3; i++) {
		w.now += 30000;
		pass(&w);
		EXPECT_PHASE(&w, "InProgress", "canary");
		EXPECT_WAVE(&w, 0, 1, 1, 0, false, "");
		CU_ASSERT_EQUAL(w.r.nactions, 0); /* approved-version stays 2.0.0 */
		CU_ASSERT_STRING_EQUAL(ann(w.ss[0], FR_ANN_APPROVED_VERSION), "2.0.0");
		CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_PINNED_HOLD_MISMATCH));
	}
	w_release(&w);
}

/* G11: an early exit freezes phase, currentWave and waves; the next full pass resumes. */
static void g11_early_exit_freezes_status(void)
{
	struct world w;
	struct obj *late;

	w_init(&w, PINNED2);
	w.soak[0] = 30 * MIN;
	settle(member(&w, "n", "c0", "a", "0"), "2.0.0");
	settle(member(&w, "n", "d1", "a", "1"), "2.0.0");
	pass(&w);
	w.now = T0 + 30 * MIN;
	pass(&w);
	EXPECT_PHASE(&w, "Completed", "");
	late = member(&w, "n", "e", "a", NULL);
	w.now += MIN;
	pass(&w);
	CU_ASSERT_EQUAL(w.r.outcome, FR_OUT_MEMBERS_UNASSIGNED);
	EXPECT_PHASE(&w, "Completed", "");
	EXPECT_WAVE(&w, 0, 1, 1, 1, true, "");
	CU_ASSERT_EQUAL(wave(&w, 0)->soak_until_ms, T0 + 30 * MIN);
	CU_ASSERT_TRUE(has_quirk(&w, FR_QUIRK_EARLY_EXIT_FROZEN));
	/* labelled into canary, unsettled: the frozen soak deadline makes it a regression */
	obj_strmap_set(&late->labels, "ring", "0");
	pass(&w);
	EXPECT_PHASE(&w, "Halted", "canary");
	w_release(&w);
}

static void format_time(void)
{
	char *a = fr_format_time(T0 + 999), *b = fr_format_time(-1), *c = fr_format_time(951782400000LL);

	CU_ASSERT_STRING_EQUAL(a, "2026-07-19T12:00:00Z");
	CU_ASSERT_STRING_EQUAL(b, "1969-12-31T23:59:59Z");
	CU_ASSERT_STRING_EQUAL(c, "2000-02-29T00:00:00Z");
	free(a);
	free(b);
	free(c);
}


/* ---------------- the tally kept by updates = the pass from scratch ---------------- */

static uint32_t lcg(uint32_t *seed)
{
	*seed = *seed * 1664525u + 1013904223u;
	return *seed >> 8;
}

/* One random change of what the fleet reads of member @m. */
static void random_change(struct obj *m, uint32_t *seed)
{
	static const char *const vers[] = { "1.0.0", "1.1.0", "1.2.0" };
	const char *v = vers[lcg(seed) % 3];

	switch (lcg(seed) % 8) {
	case 0:
	case 1:
		settle(m, v);
		break;
	case 2:
	case 3:
		hold(m, v);
		break;
	case 4:
		unsettle(m);
		break;
	case 5:
		if (lcg(seed) % 2)
			obj_strmap_set(&m->annotations, FR_ANN_APPROVED_VERSION, v);
		else
			obj_strmap_del(&m->annotations, FR_ANN_APPROVED_VERSION);
		break;
	case 6:
		val_map_set(m->status, "observedGeneration", val_new_int(m->generation + (lcg(seed) % 2)));
		break;
	default:
		val_map_set(m->status, "pendingVersion", val_new_string(lcg(seed) % 2 ? "" : v));
		break;
	}
}

/*
 * Randomized sequences of member changes: after each step the tally, told
 * only about the members that changed (fr_tally_update), must make the pass
 * decide exactly as the pass that reads every member, at every step.
 */
static void tally_property_run(const char *spec, uint32_t seed)
{
	struct world w;
	struct fr_result full = { 0 }, fast = { 0 }, first = { 0 };
	struct fr_member_facts facts[32];
	struct fr_assignment as;
	struct fr_tally *tally;
	struct fr_input in = { 0 };
	char names[16];

	w_init(&w, spec);
	for (int i = 0; i < 18; i++) {
		char ring[2] = { (char)('0' + i % 3), 0 };
		char ns[3] = { 'n', (char)('a' + i % 4), 0 };

		snprintf(names, sizeof(names), "m%02d", i);
		member(&w, ns, names, "a", ring);
	}
	qsort(w.ss, w.nss, sizeof(w.ss[0]), cmp_ss);
	in.fr = w.fr;
	in.stagesets = (const struct obj *const *)w.ss;
	in.nstagesets = w.nss;
	in.wave_soak_ms = w.soak;
	in.gate_values = w.gv;
	in.now_ms = w.now;
	in.now_text = "2026-07-19T12:00:00Z";
	CU_ASSERT_EQUAL_FATAL(fr_reconcile(&in, &first), FR_OK);
	CU_ASSERT_PTR_NOT_NULL_FATAL(first.version_label);
	as = (struct fr_assignment){ first.members, first.nmembers, first.waves, first.nwaves,
				     first.noverlap, first.first_overlap };
	for (size_t i = 0; i < w.nss; i++)
		fr_member_facts_of(w.ss[i], &facts[i]);
	tally = fr_tally_new(w.fr, &as, facts, w.nss);
	for (int step = 0; step < 300; step++) {
		int nchange = 1 + (int)(lcg(&seed) % 3);
		char *now_text;

		for (int c = 0; c < nchange; c++) {
			size_t i = lcg(&seed) % w.nss;

			random_change(w.ss[i], &seed);
			fr_member_facts_of(w.ss[i], &facts[i]);
			fr_tally_update(tally, i, &facts[i]);
		}
		w.gv[1].value = (lcg(&seed) % 10 == 0) ? 1.0 : 0.0; /* a gate that fails now and then */
		w.now += MIN;
		now_text = fr_format_time(w.now);
		memset(&in, 0, sizeof(in));
		in.fr = w.fr;
		in.prior = w.has_prior ? &w.prior : NULL;
		in.stagesets = (const struct obj *const *)w.ss;
		in.nstagesets = w.nss;
		in.wave_soak_ms = w.soak;
		in.gate_values = w.gv;
		in.now_ms = w.now;
		in.now_text = now_text;
		CU_ASSERT_EQUAL(fr_reconcile(&in, &full), FR_OK);
		in.assignment = &as;
		in.facts = facts;
		in.tally = tally;
		CU_ASSERT_EQUAL(fr_reconcile(&in, &fast), FR_OK);
		expect_same_pass(&full, &fast);
		/* the approvals and stamps land, and the tally hears of them */
		for (size_t k = 0; k < full.nactions; k++) {
			const struct fr_action *a = &full.actions[k];

			obj_strmap_set(&w.ss[a->member]->annotations, a->annotation, a->value);
			fr_member_facts_of(w.ss[a->member], &facts[a->member]);
			fr_tally_update(tally, a->member, &facts[a->member]);
		}
		fr_status_release(&w.prior);
		fr_status_copy(&w.prior, &full.status);
		w.has_prior = true;
		fr_result_release(&fast);
		fr_result_release(&full);
		free(now_text);
	}
	fr_tally_free(tally);
	fr_result_release(&first);
	w_release(&w);
}

static void tally_property_derived_and_pinned(void)
{
	/* wave "late" overlaps rings 1 and 2: members counted and approved in two waves */
	static const char *const waves =
		"waves: [{name: r0, selector: {matchLabels: {ring: '0'}}},"
		"{name: r1, selector: {matchLabels: {ring: '1'}}, gate: {source: {prometheus: "
		"{address: 'http://prom:9090', query: q}}, threshold: {max: '0.5'}}},"
		"{name: late, selector: {matchExpressions: [{key: ring, operator: In, values: ['1', '2']}]}},"
		"{name: r2, selector: {matchLabels: {ring: '2'}}}]";
	char *derived = xasprintf("{selector: {matchLabels: {app: a}}, %s}", waves);
	char *pinned = xasprintf("{targetVersion: 1.1.0, selector: {matchLabels: {app: a}}, %s}", waves);
	char *rollback = xasprintf("{onRegression: Rollback, previousVersion: 1.0.0, selector: "
				   "{matchLabels: {app: a}}, %s}",
				   waves);

	for (uint32_t seed = 1; seed <= 4; seed++) {
		tally_property_run(derived, seed);
		tally_property_run(pinned, seed * 7919u);
		tally_property_run(rollback, seed * 104729u);
	}
	free(derived);
	free(pinned);
	free(rollback);
}

static CU_TestInfo tests[] = {
	{ "§2.3.4 30 members in two waves approved once each", s4_many_members_in_two_waves_approved_once },
	{ "S0 observedGeneration, also on an early exit", s0_observed_generation_even_on_early_exit },
	{ "S1 InvalidSelector: selector", s1_invalid_top_level_selector },
	{ "S1 InvalidSelector: namespaceSelector", s1_invalid_namespace_selector },
	{ "S1 / §6 #9 a List error reads as InvalidSelector", s1_list_error_is_invalid_selector },
	{ "§2.3.1 namespaceSelector bounds the members", s2_3_1_namespace_selector_bounds_members },
	{ "§2.3.1 nil selector and {} namespaceSelector select all", s2_3_1_nil_and_empty_selectors_select_all },
	{ "S2 §2.3.2 MembersContested, others by name", s2_members_contested },
	{ "S2 contest uses the other's namespaceSelector, beats GateUnsupported",
	  s2_contest_uses_other_namespace_selector_and_beats_gate_unsupported },
	{ "S3 wave InvalidSelector, GateUnsupported in wave order", s3_wave_invalid_selector_and_gate_unsupported_order },
	{ "S3 GateUnsupported: prometheus checked first, before S4", s3_gate_unsupported_prometheus_checked_first },
	{ "S4 MembersUnassigned sorted, nothing stamped", s4_members_unassigned_sorted },
	{ "S4 / G6 a member in every matching wave", s4_member_in_every_matching_wave_g6 },
	{ "S5 §1.8 fleetVersionLabel", s5_version_label_pinned_and_derived },
	{ "PASS 1 memberProgress: adopted and ready", pass1_member_progress_predicates },
	{ "PASS 1 empty wave settles with a soak deadline", pass1_empty_wave_settles_with_soak_deadline },
	{ "PASS 1 soakUntil carried, cleared when unsettled", pass1_soak_until_carried_then_cleared },
	{ "PASS 1 §2.10 soakUntil floored to seconds", pass1_soak_until_floored_to_seconds },
	{ "PASS 2 soak inclusive, zero soak passes at once, Completed", pass2_soak_is_inclusive_and_zero_soak_passes_at_once },
	{ "PASS 2 gate Unknown recorded", pass2_gate_verdicts },
	{ "PASS 2 gate Unknown holds, Passing opens the next wave", pass2_gate_unknown_holds_and_passing_opens },
	{ "PASS 2 threshold parse error is Unknown", pass2_threshold_parse_error_is_unknown },
	{ "PASS 2 no querier is Unknown", pass2_no_querier_is_unknown },
	{ "PASS 2 / §2.5 gate Failing halts every pass (%.4g)", pass2_gate_failing_halts_with_g4_message },
	{ "§2.3.5 pinned approvals, skip when equal", approvals_pinned_stamp_every_member_of_open_waves },
	{ "§2.3.5 derived approvals stamp own pendingVersion", approvals_derived_stamp_own_pending_version },
	{ "§2.3.5 stop at the first patch error", approvals_stop_at_first_patch_error },
	{ "§2.3.6 requeueAfter", requeue_first_settled_wave_under_30s },
	{ "§1.9 lastTransitionTime and observedGeneration", condition_last_transition_time },
	{ "§2.4 Rollback stamps every member of the halting wave", halt_rollback_stamps_every_member_of_halting_wave },
	{ "§2.4 no stamp under Halt, without previousVersion, or not exactly Rollback",
	  halt_without_rollback_or_previous_version },
	{ "§2.4 a rollback patch error leaves phase", halt_rollback_patch_error_leaves_phase },
	{ "G1 regression halt is one-shot", g1_regression_halt_is_one_shot },
	{ "G2 / §2.7 new version after Completed (derived)", g2_new_version_after_completed_derived },
	{ "G3 / §2.8 same with Rollback", g3_new_version_after_completed_rollback },
	{ "G4 pinned re-target", g4_pinned_retarget },
	{ "G5 empty wave's gate halts before it opens", g5_empty_wave_gate_halts_before_open },
	{ "G7 zero members complete", g7_zero_members_complete },
	{ "G8 gate Unknown on a passed wave", g8_gate_unknown_on_passed_wave },
	{ "G9 window-held revision on a settled wave", g9_update_window_on_settled_wave },
	{ "G10 pinned Rollback stalls", g10_pinned_rollback_stalls },
	{ "G11 early exit freezes status", g11_early_exit_freezes_status },
	{ "fr_format_time", format_time },
	{ "tally kept by member updates decides as the full pass (randomized)",
	  tally_property_derived_and_pinned },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("fleet_rollout", tests);
}
