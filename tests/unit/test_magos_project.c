/*
 * The Project controller port (engine/magos_project): given/when/then cases
 * named after the rules of spec §3 (3.2 steps 1-5, 3.3 no aggregation,
 * 3.4 DefaultParallel consequences) and the §7 quirks that concern it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_project.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define NOW "2026-01-01T00:00:10Z"

struct ws_def {
	const char *name, *project, *phase, *ann;
};

struct pcase {
	const char *rule;
	bool no_finalizer, deleting, with_rollout;
	struct ws_def ws[8];
	/* then */
	enum mp_outcome outcome;
	const char *reason, *message; /* NULL: no status intended */
	const char *grants;
	size_t count;
	int managed;
};

static const struct pcase cases[] = {
	{ "3.2 step 2: a missing finalizer is added first, nothing else happens",
	  true, false, false,
	  { { "a", "demo", NULL, "" } },
	  MP_OUT_ADD_FINALIZER, NULL, NULL, "", 0, -1 },
	{ "3.2 step 2: the finalizer comes before a Rollout is looked at",
	  true, false, true,
	  { { "a", "demo", NULL, "" } },
	  MP_OUT_ADD_FINALIZER, NULL, NULL, "", 0, -1 },
	{ "3.2 step 3: deletion writes Deleting and grants nothing (Workspaces are not deleted)",
	  false, true, false,
	  { { "a", "demo", NULL, "" } },
	  MP_OUT_DELETING, "Deleting", "Project is being deleted", "", 0, -1 },
	{ "3.2 step 4: a Rollout of the same name takes over; pending Workspaces are not granted",
	  false, false, true,
	  { { "a", "demo", NULL, "" }, { "b", "demo", "Pending", "" } },
	  MP_OUT_MANAGED_BY_ROLLOUT, "ManagedByRollout", "Project orchestration is deferred to Rollout demo",
	  "", 0, 1 },
	{ "§7 #2 hand-off: earlier DefaultParallel grants are not revoked under a Rollout",
	  false, false, true,
	  { { "a", "demo", "Planning", "allowed" }, { "b", "demo", "Pending", "allowed" } },
	  MP_OUT_MANAGED_BY_ROLLOUT, "ManagedByRollout", "Project orchestration is deferred to Rollout demo",
	  "", 0, 1 },
	{ "3.2 step 5: DefaultParallel grants new and Pending members at once",
	  false, false, false,
	  { { "a", "demo", NULL, "" }, { "b", "demo", "Pending", "" }, { "c", "demo", "Applied", "" } },
	  MP_OUT_DEFAULT_PARALLEL, "DefaultParallel", "Project is orchestrating workspaces in parallel",
	  "a,b", 3, 0 },
	{ "3.2 step 5: already allowed members are skipped; another value is not \"true\"",
	  false, false, false,
	  { { "a", "demo", "Pending", "allowed" }, { "b", "demo", "Pending", "allowed=yes" } },
	  MP_OUT_DEFAULT_PARALLEL, "DefaultParallel", "Project is orchestrating workspaces in parallel",
	  "b", 2, 0 },
	{ "3.2 step 5: a non-empty detected-revision or reconcile-request grants in any phase",
	  false, false, false,
	  { { "a", "demo", "Applied", "rev=abc" }, { "b", "demo", "ValidationFailed", "req=now" },
	    { "c", "demo", "Applied", "rev=" }, { "d", "demo", "Failed", "req=" } },
	  MP_OUT_DEFAULT_PARALLEL, "DefaultParallel", "Project is orchestrating workspaces in parallel",
	  "a,b", 4, 0 },
	{ "§7 #16 settled or frozen phases without triggers are not granted",
	  false, false, false,
	  { { "a", "demo", "Planning", "" }, { "b", "demo", "Planned", "" }, { "c", "demo", "Applying", "" },
	    { "d", "demo", "Failed", "" }, { "e", "demo", "ValidationFailed", "" }, { "f", "demo", "Deleting", "" } },
	  MP_OUT_DEFAULT_PARALLEL, "DefaultParallel", "Project is orchestrating workspaces in parallel",
	  "", 6, 0 },
	{ "3.2 step 5: only members of this project are counted and granted",
	  false, false, false,
	  { { "a", "demo", NULL, "" }, { "x", "other", NULL, "" } },
	  MP_OUT_DEFAULT_PARALLEL, "DefaultParallel", "Project is orchestrating workspaces in parallel",
	  "a", 1, 0 },
};

static void run_case(const struct pcase *c)
{
	struct obj *ws[8];
	size_t nws = 0;
	struct obj *pr = fx_project("default", "demo", c->no_finalizer);
	struct fx_step steps[] = { { "all", "{}" } };
	struct obj *ro = c->with_rollout ? fx_rollout("default", "demo", steps, 1, NULL, 0) : NULL;
	struct mp_result r;
	char *g;

	if (c->deleting)
		pr->deletion_ms = 1000;
	for (; nws < 8 && c->ws[nws].name; nws++)
		ws[nws] = fx_workspace("default", c->ws[nws].name, "", c->ws[nws].project,
				       c->ws[nws].phase, c->ws[nws].ann);
	CU_ASSERT_EQUAL(mp_reconcile_project(pr, ro, (const struct obj *const *)ws, nws, NOW, &r), 0);
	g = fx_join(r.grant, r.ngrant);
	if (r.outcome != c->outcome || strcmp(g, c->grants) != 0)
		fprintf(stderr, "\ncase '%s': outcome %s grants '%s'\n", c->rule,
			mp_outcome_name(r.outcome), g);
	CU_ASSERT_EQUAL(r.outcome, c->outcome);
	CU_ASSERT_STRING_EQUAL(g, c->grants);
	CU_ASSERT_EQUAL(r.has_status, c->reason != NULL);
	CU_ASSERT_EQUAL(r.managed_by_rollout, c->managed);
	if (c->outcome == MP_OUT_DEFAULT_PARALLEL)
		CU_ASSERT_EQUAL(r.workspace_count, c->count);
	if (c->reason) {
		CU_ASSERT_STRING_EQUAL(r.want.reason, c->reason);
		CU_ASSERT_STRING_EQUAL(r.want.message, c->message);
		CU_ASSERT_STRING_EQUAL(r.want.phase, c->deleting ? "Deleting" : "Ready");
		CU_ASSERT_STRING_EQUAL(r.want.ready, c->deleting ? "False" : "True");
		CU_ASSERT_PTR_NOT_NULL_FATAL(r.status);
		/* §3.3: the Project status holds no member phases and no currentStep */
		CU_ASSERT_PTR_NULL(val_map_get(r.status, "currentStep"));
		CU_ASSERT_EQUAL(r.status->u.map.n, 5);
		CU_ASSERT_STRING_EQUAL(val_str(val_path(r.status, "conditions.0.reason"), ""),
				       c->reason);
	} else {
		CU_ASSERT_PTR_NULL(r.status);
	}
	free(g);
	mp_result_release(&r);
	for (size_t i = 0; i < nws; i++)
		obj_free(ws[i]);
	obj_free(pr);
	obj_free(ro);
}

static void test_table(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(&cases[i]);
}

static void test_not_found(void)
{
	struct mp_result r;

	CU_ASSERT_EQUAL(mp_reconcile_project(NULL, NULL, NULL, 0, NOW, &r), 0);
	CU_ASSERT_EQUAL(r.outcome, MP_OUT_NONE);
	CU_ASSERT_FALSE(r.has_status);
	CU_ASSERT_PTR_NULL(r.status);
	mp_result_release(&r);
}

/* PC:updateStatus writes only on change; the mode switch changes the message. */
static void test_status_only_on_change(void)
{
	struct obj *pr = fx_project("default", "demo", 0);
	struct fx_step steps[] = { { "all", "{}" } };
	struct obj *ro = fx_rollout("default", "demo", steps, 1, NULL, 0);
	struct mp_result r;

	mp_reconcile_project(pr, NULL, NULL, 0, "2026-01-01T00:00:01Z", &r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.status);
	pr->status = r.status;
	r.status = NULL;
	mp_result_release(&r);
	mp_reconcile_project(pr, NULL, NULL, 0, "2026-01-01T00:00:09Z", &r);
	CU_ASSERT_EQUAL(r.outcome, MP_OUT_DEFAULT_PARALLEL);
	CU_ASSERT_PTR_NULL(r.status);
	mp_result_release(&r);
	/* a Rollout appears: new reason/message, Ready stays True so LTT is kept */
	mp_reconcile_project(pr, ro, NULL, 0, "2026-01-01T00:00:20Z", &r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r.status);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(r.status, "reason"), ""), "ManagedByRollout");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(r.status, "lastReconcileTime"), ""),
			       "2026-01-01T00:00:20Z");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(r.status, "conditions.0.lastTransitionTime"), ""),
			       "2026-01-01T00:00:01Z");
	mp_result_release(&r);
	obj_free(pr);
	obj_free(ro);
}

static void test_pending_work(void)
{
	struct obj *a = fx_workspace("default", "a", "", "demo", "Applied", "rev=x");
	struct obj *b = fx_workspace("default", "b", "", "demo", "Applied", "rev=");
	struct obj *c = fx_workspace("default", "c", "", "demo", "Planned", "");

	CU_ASSERT_TRUE(mp_workspace_has_pending_work(a));
	CU_ASSERT_FALSE(mp_workspace_has_pending_work(b)); /* unlike the Rollout's presence test */
	CU_ASSERT_FALSE(mp_workspace_has_pending_work(c));
	obj_free(a);
	obj_free(b);
	obj_free(c);
}

static uint32_t next_rand(uint32_t *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (*seed >> 16) & 0x7fff;
}

/*
 * A tally told of every change of its members decides as a pass over
 * every Workspace: the same grants, in List order, and the same count,
 * over random phases and annotations and Workspaces of other projects.
 */
static void test_tally_property(void)
{
	static const char *const phases[] = { NULL, "Pending", "Planning", "Applied", "Failed" };
	static const char *const anns[] = { "", "allowed", "allowed=yes", "rev=abc", "rev=",
					     "req=now", "allowed,rev=abc" };
	enum { NWS = 12 };
	uint32_t seed = 11;
	size_t granted = 0;

	for (int run = 0; run < 100; run++) {
		struct obj *pr = fx_project("default", "demo", 0);
		struct obj *ws[NWS];
		size_t pos[NWS], npos = 0;
		char name[NWS][8];
		struct mp_tally *t;

		for (size_t j = 0; j < NWS; j++) {
			snprintf(name[j], sizeof(name[j]), "w%02zu", j);
			ws[j] = fx_workspace(next_rand(&seed) % 6 ? "default" : "other", name[j], "",
					     next_rand(&seed) % 5 ? "demo" : "else",
					     phases[next_rand(&seed) % 5], anns[next_rand(&seed) % 7]);
			if (strcmp(ws[j]->ns, "default") == 0 &&
			    strcmp(val_str(val_path(ws[j]->spec, "projectRef.name"), ""), "demo") == 0)
				pos[npos++] = j;
		}
		t = mp_tally_new((const struct obj *const *)ws, pos, npos);
		for (int round = 0; round < 30; round++) {
			struct mp_result a, b;
			size_t j = next_rand(&seed) % NWS;
			struct obj *o = fx_workspace(ws[j]->ns, name[j], "",
						     val_str(val_path(ws[j]->spec, "projectRef.name"), ""),
						     phases[next_rand(&seed) % 5],
						     anns[next_rand(&seed) % 7]);
			char *ga, *gb;

			obj_free(ws[j]);
			ws[j] = o;
			mp_tally_update(t, j, o);
			mp_reconcile_project_tally(pr, NULL, t, (const struct obj *const *)ws, NOW, &a);
			mp_reconcile_project(pr, NULL, (const struct obj *const *)ws, NWS, NOW, &b);
			ga = fx_join(a.grant, a.ngrant);
			gb = fx_join(b.grant, b.ngrant);
			CU_ASSERT_EQUAL(a.outcome, MP_OUT_DEFAULT_PARALLEL);
			CU_ASSERT_STRING_EQUAL(ga, gb);
			CU_ASSERT_EQUAL(a.workspace_count, b.workspace_count);
			CU_ASSERT_TRUE(val_equal(a.status, b.status));
			granted += a.ngrant;
			free(ga);
			free(gb);
			mp_result_release(&a);
			mp_result_release(&b);
		}
		mp_tally_free(t);
		for (size_t j = 0; j < NWS; j++)
			obj_free(ws[j]);
		obj_free(pr);
	}
	CU_ASSERT_TRUE(granted > 500);
}

static CU_TestInfo tests[] = {
	{ "given/when/then table (§3.2, §3.4, §7)", test_table },
	{ "3.2 step 1 not found", test_not_found },
	{ "3.2 updateStatus only on change", test_status_only_on_change },
	{ "3.2 step 5 hasPendingWork", test_pending_work },
	{ "tally kept by member updates decides as the full pass (randomized)",
	  test_tally_property },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("magos_project", tests);
}
