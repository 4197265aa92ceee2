/*
 * The `stagesetctl fleet` view (spec §4.3): header, phase and reason lines,
 * wave counts and suffixes, member marks — exact text.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/fleet_view.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static struct val *str(const char *s)
{
	return val_new_string(s);
}

static struct obj *member(const char *ns, const char *ring, const char *version, const char *pending,
			  bool ready)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", ns, "app");

	obj_strmap_set(&o->labels, "app", "shop");
	obj_strmap_set(&o->labels, "ring", ring);
	o->status = val_new_map();
	if (version)
		val_map_set(o->status, "version", str(version));
	if (pending)
		val_map_set(o->status, "pendingVersion", str(pending));
	val_map_set(o->status, "observedGeneration", val_new_int(1));
	val_map_set(o->status, "conditions", fx_ready_conditions(ready ? "True" : "False", NULL));
	return o;
}

static struct val *wave_status(const char *name, int total, int at, int ready, bool settled,
			       const char *health)
{
	struct val *w = val_new_map();

	val_map_set(w, "name", str(name));
	val_map_set(w, "total", val_new_int(total));
	val_map_set(w, "atTarget", val_new_int(at));
	val_map_set(w, "ready", val_new_int(ready));
	val_map_set(w, "settled", val_new_bool(settled));
	if (health)
		val_map_set(w, "health", str(health));
	return w;
}

static void test_pinned_halted_view(void)
{
	struct obj *fr = obj_new("stages.metio.wtf/v1", "FleetRollout", NULL, "shop");
	struct obj *m[3];
	struct val *waves, *w, *sw, *conds, *c;
	char *view;
	const char *want =
		"FleetRollout shop  →  version 2.0.0\n"
		"  phase: Halted   wave: canary\n"
		"  Halted: wave \"canary\" failed its health gate: metric 0.5 is outside the threshold\n"
		"  wave canary   1/2 at 2.0.0, 0 ready   health: Failing\n"
		"    ⚠ a/app                        2.0.0  not Ready (regressed)\n"
		"    … b/app                        1.0.0  held → awaiting 2.0.0\n"
		"  wave rest   0/0 at 2.0.0, 0 ready\n"
		"    … c/app                        (none)  held → awaiting 2.0.0\n";

	fr->spec = val_new_map();
	val_map_set(fr->spec, "targetVersion", str("2.0.0"));
	val_map_set(fr->spec, "selector", fx_match_labels("app", "shop"));
	waves = val_map_set(fr->spec, "waves", val_new_list());
	w = val_list_push(waves, val_new_map());
	val_map_set(w, "name", str("canary"));
	val_map_set(w, "selector", fx_match_labels("ring", "0"));
	w = val_list_push(waves, val_new_map());
	val_map_set(w, "name", str("rest"));
	val_map_set(w, "selector", fx_match_labels("ring", "1"));
	fr->status = val_new_map();
	val_map_set(fr->status, "phase", str("Halted"));
	val_map_set(fr->status, "currentWave", str("canary"));
	sw = val_map_set(fr->status, "waves", val_new_list());
	val_list_push(sw, wave_status("canary", 2, 1, 0, true, "Failing"));
	conds = val_map_set(fr->status, "conditions", val_new_list());
	c = val_list_push(conds, val_new_map());
	val_map_set(c, "type", str("Ready"));
	val_map_set(c, "status", str("False"));
	val_map_set(c, "reason", str("Halted"));
	val_map_set(c, "message",
		    str("wave \"canary\" failed its health gate: metric 0.5 is outside the threshold"));

	/* Given out of order: the view sorts members by "ns/name". */
	m[0] = member("b", "0", "1.0.0", "2.0.0", false);
	m[1] = member("a", "0", "2.0.0", NULL, false);
	m[2] = member("c", "1", NULL, NULL, false);
	view = fv_write_fleet_view(fr, (const struct obj *const *)m, 3, NULL, 0);
	CU_ASSERT_STRING_EQUAL(view, want);
	free(view);
	for (int i = 0; i < 3; i++)
		obj_free(m[i]);
	obj_free(fr);
}

static void test_derived_settled_view(void)
{
	struct obj *fr = obj_new("stages.metio.wtf/v1", "FleetRollout", NULL, "shop");
	struct obj *m[2];
	struct val *waves, *w, *sw;
	char *view;

	fr->spec = val_new_map();
	val_map_set(fr->spec, "selector", fx_match_labels("app", "shop"));
	waves = val_map_set(fr->spec, "waves", val_new_list());
	w = val_list_push(waves, val_new_map());
	val_map_set(w, "name", str("all"));
	val_map_set(w, "selector", val_new_map());
	fr->status = val_new_map();
	sw = val_map_set(fr->status, "waves", val_new_list());
	val_list_push(sw, wave_status("all", 2, 2, 2, true, NULL));
	m[0] = member("a", "0", "1.1.0", NULL, true);
	m[1] = member("b", "0", "1.1.0", NULL, true);
	view = fv_write_fleet_view(fr, (const struct obj *const *)m, 2, NULL, 0);
	/* No phase yet prints Pending; derived counts say "adopted". */
	CU_ASSERT_STRING_EQUAL(view, "FleetRollout shop  →  the current version\n"
				     "  phase: Pending\n"
				     "  wave all   2/2 adopted, 2 ready   settled\n"
				     "    ✓ a/app                        1.1.0  Ready\n"
				     "    ✓ b/app                        1.1.0  Ready\n");
	free(view);
	obj_free(m[0]);
	obj_free(m[1]);
	obj_free(fr);
}

void register_tests(void)
{
	static CU_TestInfo tests[] = {
		{ "§4.3 pinned, halted: reason line, Failing suffix, marks", test_pinned_halted_view },
		{ "§4.3 derived, settled: Pending phase, adopted unit", test_derived_settled_view },
		CU_TEST_INFO_NULL,
	};
	CU_ADD_SUITE("fleet_view", tests);
}
