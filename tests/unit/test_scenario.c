/*
 * Scenario loading: inputs (files, directories, includes), the Scenario
 * document's fields and defaults, scripted events, and the exact diagnostics
 * for bad input.  Each test writes its files into a fresh temporary directory
 * and loads them by relative name, so the expected messages are short.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/xalloc.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* expect_diags() - loading @path fails with exactly @want as diagnostics. */
static void expect_diags(const char *path, const char *want)
{
	struct scenario s;
	char *got;
	int rc = fx_scn_load(&path, 1, &s, &got);

	CU_ASSERT_EQUAL(rc, -1);
	fx_same_text(got, want);
	free(got);
	scn_release(&s);
}

#define NS(name) "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " name "\n"
#define PROJECT(name)                                                                      \
	"apiVersion: magosproject.io/v1alpha1\nkind: Project\nmetadata:\n  name: " name     \
	"\n  namespace: default\nspec:\n  description: test\n"
#define HEAD "apiVersion: magos-sim/v1alpha1\nkind: Scenario\nmetadata:\n  name: t\n"

static void test_bare_manifests_defaults(void)
{
	struct scenario s;
	char *text;
	const char *p = "dir/demo.yaml";

	fx_tmp_enter("test_scenario");
	fx_put("dir/demo.yaml", NS("a") "---\n" PROJECT("p") "---\n" NS("b"));
	CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_FALSE(s.has_scenario_doc);
	CU_ASSERT_PTR_NULL(s.scenario_file);
	CU_ASSERT_STRING_EQUAL(s.name, "demo");
	CU_ASSERT_EQUAL(s.seed, 1);
	CU_ASSERT_EQUAL(s.horizon_ms, 86400000);
	CU_ASSERT_EQUAL(s.start_unix_ms, 1767225600000LL);
	CU_ASSERT_EQUAL(s.api_latency_ms, 0);
	CU_ASSERT_EQUAL(s.reconcile_ms, 0);
	CU_ASSERT_EQUAL(s.event_budget, 0);
	CU_ASSERT_EQUAL(scn_event_budget(&s), 1000000);
	/* Without spec.limits.eventBudget the budget grows by 500 events an object. */
	s.nobjs += 4000;
	CU_ASSERT_EQUAL(scn_event_budget(&s), 500 * (uint64_t)s.nobjs);
	s.nobjs -= 4000;
	CU_ASSERT_EQUAL(s.events_per_instant, 0);
	CU_ASSERT_EQUAL(s.nevents, 0);
	CU_ASSERT_EQUAL_FATAL(s.nobjs, 3);
	CU_ASSERT_STRING_EQUAL(s.objs[0]->name, "a");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->kind, "Project");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->ns, "default");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->name, "b");
	CU_ASSERT_EQUAL_FATAL(s.nfiles, 1);
	CU_ASSERT_STRING_EQUAL(s.files[0], "dir/demo.yaml");
	CU_ASSERT_PTR_EQUAL(s.objs[2]->src.file, s.files[0]);
	CU_ASSERT_EQUAL(s.objs[2]->src.mark.line, 14);
	free(text);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_scenario_fields(void)
{
	struct scenario s;
	char *text;
	const char *p = "s.yaml";

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", "apiVersion: magos-sim/v1alpha1\n"
			 "kind: Scenario\n"
			 "metadata:\n"
			 "  name: payments\n"
			 "spec:\n"
			 "  seed: 42\n"
			 "  horizon: 1h30m\n"
			 "  start: 2026-04-26T10:00:00+02:00\n"
			 "  api:\n"
			 "    latency: 5ms\n"
			 "    reconcileDuration: 1.5s\n"
			 "  limits:\n"
			 "    eventBudget: 1000\n"
			 "    eventsPerInstant: 50\n"
			 "---\n" NS("a"));
	CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_TRUE(s.has_scenario_doc);
	CU_ASSERT_PTR_EQUAL(s.scenario_file, s.files[0]);
	CU_ASSERT_STRING_EQUAL(s.name, "payments");
	CU_ASSERT_EQUAL(s.seed, 42);
	CU_ASSERT_EQUAL(s.horizon_ms, 5400000);
	CU_ASSERT_EQUAL(s.start_unix_ms, 1777190400000LL);
	CU_ASSERT_EQUAL(s.api_latency_ms, 5);
	CU_ASSERT_EQUAL(s.reconcile_ms, 1500);
	CU_ASSERT_EQUAL(s.event_budget, 1000);
	CU_ASSERT_EQUAL(s.events_per_instant, 50);
	CU_ASSERT_EQUAL(s.nobjs, 1);
	free(text);
	scn_release(&s);

	/* A Scenario with nothing but its name takes every default. */
	fx_put("s.yaml", HEAD "---\n" NS("a"));
	CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_STRING_EQUAL(s.name, "t");
	CU_ASSERT_EQUAL(s.seed, 1);
	CU_ASSERT_EQUAL(s.horizon_ms, 86400000);
	CU_ASSERT_EQUAL(s.start_unix_ms, 1767225600000LL);
	CU_ASSERT_EQUAL(s.event_budget, 0);
	CU_ASSERT_EQUAL(scn_event_budget(&s), 1000000);
	CU_ASSERT_EQUAL(s.events_per_instant, 0);
	free(text);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_directory_input(void)
{
	struct scenario s;
	char *text;
	const char *p[] = { "m", "extra.yaml" };

	fx_tmp_enter("test_scenario");
	fx_put("m/b.yml", NS("b"));
	fx_put("m/a.yaml", NS("a"));
	fx_put("m/c.json", "{\"apiVersion\": \"v1\", \"kind\": \"Namespace\",\n"
			   "\t\"metadata\": {\"name\": \"c\"}}\n");
	fx_put("m/c.yaml.txt", NS("not-read"));
	fx_put("m/.hidden.yaml", NS("hidden"));
	fx_put("m/README.md", "not yaml: [\n");
	mkdir("m/sub.yaml", 0755);
	fx_put("m/sub.yaml/x.yaml", NS("nested"));
	fx_put("extra.yaml", NS("e"));
	CU_ASSERT_EQUAL(fx_scn_load(p, 2, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_STRING_EQUAL(s.name, "m");
	/* .json as kubectl apply -f DIR reads it */
	CU_ASSERT_EQUAL_FATAL(s.nobjs, 4);
	CU_ASSERT_STRING_EQUAL(s.objs[0]->name, "a");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->name, "b");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->name, "c");
	CU_ASSERT_STRING_EQUAL(s.objs[3]->name, "e");
	CU_ASSERT_EQUAL_FATAL(s.nfiles, 4);
	CU_ASSERT_STRING_EQUAL(s.files[0], "m/a.yaml");
	CU_ASSERT_STRING_EQUAL(s.files[1], "m/b.yml");
	CU_ASSERT_STRING_EQUAL(s.files[2], "m/c.json");
	CU_ASSERT_STRING_EQUAL(s.files[3], "extra.yaml");
	free(text);
	scn_release(&s);

	fx_put("empty/notes.txt", "x\n");
	expect_diags("empty", "empty: error: no *.yaml, *.yml or *.json files in this directory");
	expect_diags("missing.yaml", "missing.yaml: error: cannot read: No such file or directory");
	/* Only subdirectories: the note names the first by name (never a hidden one). */
	fx_put("nest/notes.txt", "x\n");
	fx_put("nest/b/x.yaml", NS("a"));
	fx_put("nest/a/y.yaml", NS("b"));
	fx_put("nest/.git/z.yaml", NS("c"));
	expect_diags("nest", "nest: error: no *.yaml, *.yml or *.json files in this directory\n"
			     "nest: note: subdirectories are not read (the walk is not recursive): "
			     "'nest/a' is one; name it, or its files, as an input");
	fx_tmp_leave();
}

static void test_includes(void)
{
	struct scenario s;
	char *text;
	const char *p = "sc/main.yaml";

	fx_tmp_enter("test_scenario");
	fx_put("sc/main.yaml", HEAD "spec:\n"
				    "  include:\n"
				    "    - manifests/*.yaml\n"
				    "    - one.yaml\n"
				    "    - '*.yaml'\n"
				    "---\n" NS("own"));
	fx_put("sc/manifests/z.yaml", NS("z"));
	fx_put("sc/manifests/k.yaml", NS("k"));
	fx_put("sc/one.yaml", NS("one"));
	CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	/* The scenario file's own manifests, then the includes in list order. */
	CU_ASSERT_EQUAL_FATAL(s.nobjs, 4);
	CU_ASSERT_STRING_EQUAL(s.objs[0]->name, "own");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->name, "k");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->name, "z");
	CU_ASSERT_STRING_EQUAL(s.objs[3]->name, "one");
	/* '*.yaml' matched main.yaml and one.yaml, both read already. */
	CU_ASSERT_EQUAL_FATAL(s.nfiles, 4);
	CU_ASSERT_STRING_EQUAL(s.files[1], "sc/manifests/k.yaml");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->src.file, "sc/manifests/k.yaml");
	free(text);
	scn_release(&s);

	fx_put("sc/main.yaml", HEAD "spec:\n"
				    "  include:\n"
				    "    - manifests/*.yml\n"
				    "    - nothere.yaml\n"
				    "    - manifests\n");
	expect_diags("sc/main.yaml",
		     "sc/main.yaml:7:7: error: spec.include[0]: pattern \"sc/manifests/*.yml\" "
		     "matches no file\n"
		     "sc/main.yaml:7:7: note: include paths are relative to the scenario file's "
		     "directory\n"
		     "sc/main.yaml:8:7: error: spec.include[1]: cannot read \"sc/nothere.yaml\": No "
		     "such file or directory\n"
		     "sc/main.yaml:8:7: note: include paths are relative to the scenario file's "
		     "directory\n"
		     "sc/main.yaml:9:7: error: spec.include[2]: \"sc/manifests\" is a directory\n"
		     "sc/main.yaml:9:7: note: include its files with a pattern such as "
		     "\"manifests/*.yaml\"");
	fx_tmp_leave();
}

static void test_two_scenarios(void)
{
	struct scenario s;
	char *text;
	const char *p[] = { "a.yaml", "b.yaml" };

	fx_tmp_enter("test_scenario");
	fx_put("a.yaml", HEAD);
	fx_put("b.yaml", NS("x") "---\n" HEAD);
	CU_ASSERT_EQUAL(fx_scn_load(p, 2, &s, &text), -1);
	CU_ASSERT_STRING_EQUAL(text,
			       "b.yaml:5:1: error: a second Scenario document; the inputs may "
			       "hold only one\n"
			       "a.yaml:1:1: note: the first Scenario document is here\n"
			       "b.yaml:5:1: note: a folder of separate scenarios is run one file at a "
			       "time, or checked together with `magos-sim check FOLDER`");
	CU_ASSERT_STRING_EQUAL(s.name, "t");
	free(text);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_field_errors(void)
{
	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  horizn: 2h\n"
			      "  seed: \"42\"\n"
			      "  horizon: 5 m\n"
			      "  start: 2026-02-30T00:00:00Z\n"
			      "  api:\n"
			      "    latency: -1ms\n"
			      "    reconcileDuration: 1d\n"
			      "  limits:\n"
			      "    eventBudget: 0\n"
			      "    eventsPerInstant: 1.5\n"
			      "  variants: {}\n");
	expect_diags(
		"s.yaml",
		"s.yaml:6:3: error: unknown field \"spec.horizn\"\n"
		"s.yaml:6:3: note: did you mean \"horizon\"?\n"
		"s.yaml:6:3: note: accepted fields: seed, horizon, start, include, api, limits, "
		"events, models, metrics, fleet, generate, expect, variants, sweep\n"
		"s.yaml:7:9: error: spec.seed: Invalid value: \"string\": spec.seed in body must be "
		"of type integer: \"42\"\n"
		"s.yaml:8:12: error: spec.horizon: Invalid value: \"5 m\": time: unknown unit "
		"\" m\" in duration \"5 m\"\n"
		"s.yaml:8:12: note: durations use Go syntax, e.g. 90s, 5m, 1h30m\n"
		"s.yaml:9:10: error: spec.start: Invalid value: \"2026-02-30T00:00:00Z\": parsing "
		"time \"2026-02-30T00:00:00Z\": day out of range\n"
		"s.yaml:9:10: note: expected an RFC 3339 time such as 2026-01-01T00:00:00Z\n"
		"s.yaml:11:14: error: spec.api.latency: Invalid value: \"-1ms\": must be greater "
		"than or equal to 0\n"
		"s.yaml:12:24: error: spec.api.reconcileDuration: Invalid value: \"1d\": time: "
		"unknown unit \"d\" in duration \"1d\"\n"
		"s.yaml:12:24: note: durations use Go syntax, e.g. 90s, 5m, 1h30m\n"
		"s.yaml:14:18: error: spec.limits.eventBudget: Invalid value: 0: "
		"spec.limits.eventBudget in body should be greater than or equal to 1\n"
		"s.yaml:15:23: error: spec.limits.eventsPerInstant: Invalid value: \"number\": "
		"spec.limits.eventsPerInstant in body must be of type integer: 1.5\n"
		"s.yaml:16:13: error: spec.variants: Invalid value: \"object\": spec.variants in "
		"body must be of type array: \"object\"");

	fx_put("s.yaml", HEAD "spec:\n  seed: -1\n  horizon: -5m\n");
	expect_diags("s.yaml",
		     "s.yaml:6:9: error: spec.seed: Invalid value: -1: spec.seed in body should be "
		     "greater than or equal to 0\n"
		     "s.yaml:7:12: error: spec.horizon: Invalid value: \"-5m\": must be greater "
		     "than 0");

	fx_put("s.yaml", "apiVersion: magos-sim/v1\nkind: Scenario\nmetadata: {}\n");
	expect_diags("s.yaml",
		     "s.yaml:1:13: error: apiVersion: Unsupported value: \"magos-sim/v1\": "
		     "supported values: \"magos-sim/v1alpha1\"\n"
		     "s.yaml:3:11: error: metadata.name: Required value");

	fx_put("s.yaml", "apiVersion: magos-sim/v1alpha1\nkind: Scenaro\nmetadata: {name: x}\n");
	expect_diags("s.yaml", "s.yaml:2:7: error: kind: Unsupported value: \"Scenaro\": "
			       "supported values: \"Scenario\"");
	fx_tmp_leave();
}

static void test_events(void)
{
	struct scenario s;
	char *text;
	const char *p = "s.yaml";
	const struct scn_event *e;

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  horizon: 2h\n"
			      "  events:\n"
			      "    - at: 30m\n"
			      "      label: {kind: Namespace, namespace: x, name: a, set: {ring: \"1\"}, remove: [old]}\n"
			      "    - at: 10m\n"
			      "      apply:\n"
			      "        apiVersion: v1\n"
			      "        kind: Namespace\n"
			      "        metadata: {name: late}\n"
			      "    - at: 10m\n"
			      "      annotate:\n"
			      "        kind: Namespace\n"
			      "        name: late\n"
			      "        set: {b: \"2\", a: \"1\"}\n"
			      "    - at: 1h\n"
			      "      patch:\n"
			      "        kind: Project\n"
			      "        name: p\n"
			      "        merge: {metadata: {labels: {x: null}}, spec: {description: \"y\"}}\n"
			      "    - at: 1h\n"
			      "      status: {kind: Project, namespace: default, name: p, merge: {phase: "
			      "Ready}}\n"
			      "    - at: 3h\n"
			      "      delete: {apiVersion: v1, kind: Namespace, name: a}\n"
			      "---\n" NS("a") "---\n" PROJECT("p"));
	CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "s.yaml:27:11: warning: spec.events[5].at: \"3h\" is after "
				     "the horizon (2h0m0s); the event will not happen");
	CU_ASSERT_EQUAL_FATAL(s.nevents, 6);
	e = &s.events[0];
	CU_ASSERT_EQUAL(e->type, SCN_EV_LABEL);
	CU_ASSERT_EQUAL(e->at_ms, 1800000);
	CU_ASSERT_STRING_EQUAL(e->target.kind, "Namespace");
	CU_ASSERT_STRING_EQUAL(e->target.ns, "");
	CU_ASSERT_PTR_NULL(e->target.api_version);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&e->set, "ring"), "1");
	CU_ASSERT_EQUAL_FATAL(e->nremove, 1);
	CU_ASSERT_STRING_EQUAL(e->remove[0], "old");
	CU_ASSERT_EQUAL(e->mark.line, 8);
	CU_ASSERT_PTR_EQUAL(e->file, s.files[0]);
	e = &s.events[1];
	CU_ASSERT_EQUAL(e->type, SCN_EV_APPLY);
	CU_ASSERT_EQUAL(e->at_ms, 600000);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e->obj);
	CU_ASSERT_STRING_EQUAL(e->obj->name, "late");
	CU_ASSERT_STRING_EQUAL(e->target.name, "late");
	CU_ASSERT_STRING_EQUAL(e->target.api_version, "v1");
	e = &s.events[2];
	CU_ASSERT_EQUAL(e->type, SCN_EV_ANNOTATE);
	CU_ASSERT_EQUAL(e->set.n, 2);
	CU_ASSERT_STRING_EQUAL(e->set.items[0].key, "a");
	e = &s.events[3];
	CU_ASSERT_EQUAL(e->type, SCN_EV_PATCH);
	CU_ASSERT_STRING_EQUAL(e->target.ns, "default");
	CU_ASSERT_EQUAL(val_path(e->merge, "metadata.labels.x")->type, VAL_NULL);
	CU_ASSERT_STRING_EQUAL(val_str(val_path(e->merge, "spec.description"), ""), "y");
	e = &s.events[4];
	CU_ASSERT_EQUAL(e->type, SCN_EV_STATUS);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(e->merge, "phase"), ""), "Ready");
	e = &s.events[5];
	CU_ASSERT_EQUAL(e->type, SCN_EV_DELETE);
	CU_ASSERT_EQUAL(e->at_ms, 3 * 3600000);
	CU_ASSERT_STRING_EQUAL(scn_event_type_name(e->type), "delete");
	free(text);
	scn_release(&s);
	fx_tmp_leave();
}

static void test_event_errors(void)
{
	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  events:\n"
			      "    - at: 1m\n"
			      "      delete: {kind: Namespace, name: a}\n"
			      "      label: {kind: Namespace, name: a, set: {x: \"y\"}}\n"
			      "    - at: 1m\n"
			      "    - at: soon\n"
			      "      delete: {kind: Namespace, name: a}\n"
			      "    - at: 2m\n"
			      "      annotate: {kind: Namespace, name: ghost, set: {x: \"y\"}}\n"
			      "    - at: 2m\n"
			      "      label: {kind: Namespace, name: a}\n"
			      "    - at: 5m\n"
			      "      patch: {kind: Namespace, name: a, merge: {status: {}, metadata: "
			      "{name: b}}}\n"
			      "    - at: 1m\n"
			      "      delete: {kind: Namespace, name: later}\n"
			      "    - at: 3m\n"
			      "      apply: {apiVersion: v1, kind: Namespace, metadata: {name: later}}\n"
			      "    - at: 1m\n"
			      "      delete: {apiVersion: v2, kind: Namespace, name: a}\n"
			      "    - at: 1m\n"
			      "      label: {kind: Namespace, name: a, set: {\"bad key!\": x, ok: \"-no\"}}\n"
			      "---\n" NS("a"));
	expect_diags(
		"s.yaml",
		"s.yaml:9:7: error: spec.events[0]: more than one action: 'delete' and 'label'; "
		"an event does exactly one thing\n"
		"s.yaml:9:7: note: write a second event with the same 'at' instead\n"
		"s.yaml:10:7: error: spec.events[1]: no action\n"
		"s.yaml:10:7: note: accepted actions: apply, delete, annotate, label, patch, status, "
		"commit, failNext, succeedNext, violate, reconcileRequest, approve, publish, regress, drift, inventory\n"
		"s.yaml:11:11: error: spec.events[2].at: Invalid value: \"soon\": time: invalid "
		"duration \"soon\"\n"
		"s.yaml:11:11: note: durations use Go syntax, e.g. 90s, 5m, 1h30m\n"
		"s.yaml:16:14: error: spec.events[4].label: nothing to do: give 'set' or 'remove'\n"
		"s.yaml:18:49: error: spec.events[5].patch.merge: cannot patch 'status'\n"
		"s.yaml:18:49: note: use a 'status' event to change status\n"
		"s.yaml:18:72: error: spec.events[5].patch.merge.metadata: cannot patch 'name'\n"
		"s.yaml:18:72: note: a patch may change metadata.labels, metadata.annotations and "
		"spec\n"
		"s.yaml:26:47: error: spec.events[9].label.set: Invalid value: \"bad key!\": not a "
		"valid label key\n"
		"s.yaml:26:47: note: name part must consist of alphanumeric characters, '-', '_' or "
		"'.', and must start and end with an alphanumeric character (e.g. 'MyName',  or "
		"'my.name',  or '123-abc', regex used for validation is "
		"'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\n"
		"s.yaml:26:66: error: spec.events[9].label.set: Invalid value: \"-no\": not a valid "
		"value for label \"ok\"\n"
		"s.yaml:26:66: note: a valid label must be an empty string or consist of alphanumeric "
		"characters, '-', '_' or '.', and must start and end with an alphanumeric character "
		"(e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is "
		"'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n"
		"s.yaml:14:7: error: spec.events[3].annotate: Namespace \"ghost\" not found\n"
		"s.yaml:14:7: note: no input defines it and no 'apply' event creates it earlier\n"
		"s.yaml:20:7: error: spec.events[6].delete: Namespace \"later\" not found\n"
		"s.yaml:20:7: note: no input defines it and no 'apply' event creates it earlier\n"
		"s.yaml:24:7: error: spec.events[8].delete.apiVersion: Invalid value: \"v2\": "
		"Namespace \"a\" is defined with apiVersion \"v1\"");
	fx_tmp_leave();
}

static void test_empty_and_broken_files(void)
{
	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n  events:\n    - at: 90\n      delete: {kind: Namespace, name: a}\n");
	expect_diags("s.yaml",
		     "s.yaml:7:11: error: spec.events[0].at: Invalid value: 90: must be a duration "
		     "such as \"90s\", \"5m\" or \"1h30m\"\n"
		     "s.yaml:7:11: note: a duration needs a unit: ns, us, ms, s, m or h");
	fx_put("empty.yaml", "# nothing here\n");
	expect_diags("empty.yaml",
		     "empty.yaml:1:1: error: no documents: the file is empty or holds only comments");
	fx_tmp_leave();
}

static void test_upstream_samples(void)
{
	struct scenario s;
	char *text;
	char *dir = xasprintf("%s%s%s/magos-samples", cu_shared()[0] == '/' ? "" : fx_origin(),
			      cu_shared()[0] == '/' ? "" : "/", cu_shared());
	const char *p = dir;

	fx_tmp_enter("test_scenario");
	CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_STRING_EQUAL(s.name, "magos-samples");
	CU_ASSERT_FALSE(s.has_scenario_doc);
	CU_ASSERT_EQUAL_FATAL(s.nobjs, 7);
	/* Files in name order: project, rollout, two policies, three workspaces. */
	CU_ASSERT_STRING_EQUAL(s.objs[0]->kind, "Project");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->kind, "Rollout");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->kind, "ValidatingPolicy");
	CU_ASSERT_STRING_EQUAL(s.objs[4]->name, "demo-dev");
	CU_ASSERT_STRING_EQUAL(s.objs[6]->name, "demo-staging");
	CU_ASSERT_EQUAL(s.nfiles, 7);
	free(text);
	scn_release(&s);
	fx_tmp_leave();
	free(dir);
}

static void test_loader_review_fixes(void)
{
	struct scenario s;
	const char *path = "s.yaml";
	char *got;

	fx_tmp_enter("test_scenario");
	/* A positive duration below 1ms would truncate to 0 (the horizon then became 24h). */
	fx_put("s.yaml", HEAD "spec:\n  horizon: 1us\n  api: {latency: 500us, reconcileDuration: 0s}\n"
			      "  models:\n    git:\n      repositories:\n        - url: u\n"
			      "          unreachable: [{from: 1ms, until: 1.5ms}]\n");
	expect_diags("s.yaml",
		     "s.yaml:6:12: error: spec.horizon: Invalid value: \"1us\": must be at least 1ms\n"
		     "s.yaml:6:12: note: simulated time counts whole milliseconds: \"1us\" would "
		     "become 0\n"
		     "s.yaml:7:18: error: spec.api.latency: Invalid value: \"500us\": must be 0 or at "
		     "least 1ms\n"
		     "s.yaml:7:18: note: simulated time counts whole milliseconds: \"500us\" would "
		     "become 0\n"
		     "s.yaml:12:44: error: spec.models.git.repositories[0].unreachable[0]: Invalid "
		     "value: \"object\": until (1ms) must be later than from (1ms)");

	/* Go's duration limit is named; a seed above 2^64-1 gets the accepted range
	 * (2^63, above a YAML integer, is a seed trials print: accepted). */
	fx_put("s.yaml", HEAD "spec:\n  seed: 18446744073709551616\n  horizon: 2562048h\n");
	expect_diags("s.yaml",
		     "s.yaml:6:9: error: spec.seed: Invalid value: \"number\": spec.seed in body "
		     "must be of type integer: 18446744073709551616\n"
		     "s.yaml:6:9: note: a seed is an integer from 0 to 18446744073709551615, as "
		     "the trial seeds of run -n's CSV and JSON\n"
		     "s.yaml:7:12: error: spec.horizon: Invalid value: \"2562048h\": time: invalid "
		     "duration \"2562048h\": out of range, the maximum is 2562047h47m16.854775807s");
	{
		const char *p = "s.yaml";
		struct scenario big;
		char *text;

		fx_put("s.yaml", HEAD "spec:\n  seed: 18446744073709551615\n");
		CU_ASSERT_EQUAL(fx_scn_load(&p, 1, &big, &text), 0);
		CU_ASSERT_STRING_EQUAL(text, "");
		CU_ASSERT_EQUAL(big.seed, UINT64_MAX);
		free(text);
		scn_release(&big);
	}

	/* Cluster-scoped kinds are named without a namespace. */
	fx_put("s.yaml", HEAD "spec:\n  events:\n    - at: 1h\n"
			      "      delete: {kind: Namespace, namespace: x, name: nope}\n"
			      "    - at: 1h\n      label: {kind: ValidatingPolicy, name: p, set: {a: b}}\n");
	expect_diags("s.yaml",
		     "s.yaml:8:7: error: spec.events[0].delete: Namespace \"nope\" not found\n"
		     "s.yaml:8:7: note: no input defines it and no 'apply' event creates it earlier\n"
		     "s.yaml:10:7: error: spec.events[1].label: ValidatingPolicy \"p\" not found\n"
		     "s.yaml:10:7: note: no input defines it and no 'apply' event creates it earlier");

	/* An event on an object whose manifest was refused: the manifest's error only. */
	fx_put("s.yaml", HEAD "spec:\n  events:\n    - at: 1h\n"
			      "      label: {kind: Namespace, name: Bad_1, set: {a: b}}\n"
			      "    - at: 1h\n      approve: {name: w}\n"
			      "---\n" NS("Bad_1") "---\n"
			      "apiVersion: magosproject.io/v1alpha1\nkind: Workspace\n"
			      "metadata: {name: w}\nspec: {}\n");
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &got), -1);
	CU_ASSERT_PTR_NULL(strstr(got, "not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "s.yaml:15:9: error: Namespace \"Bad_1\": metadata.name"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "Workspace \"default/w\": spec.projectRef: Required value"));
	free(got);
	scn_release(&s);
	fx_tmp_leave();
}

/* ---------------------------------------------------------------- fleet side */

/* A FleetRollout with one wave whose prometheus gate reads @query at @address. */
#define FLEET(name, query, address)                                                        \
	"apiVersion: stages.metio.wtf/v1\nkind: FleetRollout\nmetadata:\n  name: " name "\n"  \
	"spec:\n  selector: {matchLabels: {app: moodle}}\n  waves:\n"                          \
	"    - name: canary\n      selector: {matchLabels: {ring: \"0\"}}\n"                  \
	"      gate:\n        threshold: {max: \"0.01\"}\n        source:\n"                   \
	"          prometheus:\n            address: " address "\n"                          \
	"            query: " query "\n"

static void test_metrics_series_and_gates(void)
{
	struct scenario s;
	char *text;
	const char *path = "s.yaml";
	const struct scn_series *x;
	double v;

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  metrics:\n"
			      "    - query: errors\n"                                 /* 7 */
			      "      values: \"0.001x2 _ stale\"\n"
			      "    - query: errors\n"                                 /* 9 */
			      "      address: http://prom-b:9090\n"
			      "      interval: 30s\n"
			      "      values: 1.5\n"
			      "---\n" FLEET("a", "errors", "http://prom-a:9090")
			      "---\n" FLEET("b", "errors", "http://prom-b:9090"));
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_EQUAL_FATAL(s.nseries, 2);
	CU_ASSERT_STRING_EQUAL(s.series[0].query, "errors");
	CU_ASSERT_PTR_NULL(s.series[0].address);
	CU_ASSERT_EQUAL(s.series[0].interval_ms, 60000);
	CU_ASSERT_STRING_EQUAL(s.series[0].values, "0.001x2 _ stale");
	CU_ASSERT_EQUAL(s.series[0].series.nsamples, 5);
	CU_ASSERT_EQUAL(s.series[0].mark.line, 7);
	CU_ASSERT_PTR_EQUAL(s.series[0].file, s.scenario_file);
	CU_ASSERT_STRING_EQUAL(s.series[1].address, "http://prom-b:9090");
	CU_ASSERT_EQUAL(s.series[1].interval_ms, 30000);
	/* A plain number keeps its text. */
	CU_ASSERT_STRING_EQUAL(s.series[1].values, "1.5");
	CU_ASSERT_EQUAL(ps_at(&s.series[1].series, 0, &v), PS_VALUE);
	CU_ASSERT_DOUBLE_EQUAL(v, 1.5, 0);
	/* The exact address wins; otherwise the entry without address. */
	x = scn_find_series(&s, "errors", "http://prom-b:9090");
	CU_ASSERT_PTR_EQUAL(x, &s.series[1]);
	x = scn_find_series(&s, "errors", "http://prom-a:9090");
	CU_ASSERT_PTR_EQUAL(x, &s.series[0]);
	CU_ASSERT_PTR_EQUAL(scn_find_series(&s, "errors", NULL), &s.series[0]);
	CU_ASSERT_PTR_NULL(scn_find_series(&s, "Errors", NULL));
	CU_ASSERT_EQUAL(s.fleet.nallowed_action_hosts, 0);
	free(text);
	scn_release(&s);

	/*
	 * A gate without series names the FleetRollout, the wave and the query;
	 * a series of another address is pointed at; an unused series warns.
	 */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  metrics:\n"
			      "    - query: errors\n"
			      "      address: http://elsewhere\n"
			      "      values: \"1\"\n"
			      "    - {query: unused, values: \"1\"}\n"
			      "---\n" FLEET("a", "errors", "http://prom-a:9090")
			      "---\n" FLEET("b", "'sum(rate(x{code=~\"5..\"}[5m]))'", "http://prom-a:9090"));
	expect_diags("s.yaml",
		     "s.yaml:26:20: error: FleetRollout \"a\": wave \"canary\": no series in "
		     "spec.metrics for the gate query \"errors\"\n"
		     "s.yaml:7:14: note: spec.metrics[0] has this query for address "
		     "\"http://elsewhere\", not \"http://prom-a:9090\"\n"
		     "s.yaml:42:20: error: FleetRollout \"b\": wave \"canary\": no series in "
		     "spec.metrics for the gate query \"sum(rate(x{code=~\\\"5..\\\"}[5m]))\"\n"
		     "s.yaml:42:20: note: every prometheus gate reads a synthetic series: add an "
		     "entry with this exact query to the Scenario's spec.metrics\n"
		     "s.yaml:7:14: warning: spec.metrics[0]: no FleetRollout gate reads this series\n"
		     "s.yaml:10:15: warning: spec.metrics[1]: no FleetRollout gate reads this series");

	/* Without a Scenario document the note says how to add one. */
	fx_put("f.yaml", FLEET("a", "errors", "http://prom-a:9090"));
	expect_diags("f.yaml",
		     "f.yaml:15:20: error: FleetRollout \"a\": wave \"canary\": no series in "
		     "spec.metrics for the gate query \"errors\"\n"
		     "f.yaml:15:20: note: every prometheus gate reads a synthetic series: add a "
		     "Scenario document (apiVersion: magos-sim/v1alpha1) whose spec.metrics has an "
		     "entry with this exact query");

	/* A FleetRollout created by an apply event is checked too. */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  events:\n"
			      "    - at: 1h\n"
			      "      apply:\n"
			      "        apiVersion: stages.metio.wtf/v1\n"
			      "        kind: FleetRollout\n"
			      "        metadata: {name: late}\n"
			      "        spec:\n"
			      "          selector: {}\n"
			      "          waves:\n"
			      "            - name: w1\n"
			      "              selector: {}\n"
			      "              gate:\n"
			      "                threshold: {min: \"1\"}\n"
			      "                source: {prometheus: {address: \"http://p\", query: up}}\n");
	expect_diags("s.yaml",
		     "s.yaml:19:67: error: FleetRollout \"late\": wave \"w1\": no series in "
		     "spec.metrics for the gate query \"up\"\n"
		     "s.yaml:19:67: note: every prometheus gate reads a synthetic series: add an "
		     "entry with this exact query to the Scenario's spec.metrics");
	fx_tmp_leave();
}

static void test_metrics_errors(void)
{
	fx_tmp_enter("test_scenario");
	/* promtool's message at the bad token's column, for plain and quoted scalars. */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  metrics:\n"
			      "    - query: a\n"
			      "      values: 1 2 3x\n"                    /* plain: cut short at the end */
			      "    - query: b\n"
			      "      values: \"0+1x5 * 2\"\n"             /* double-quoted */
			      "    - query: c\n"
			      "      values: '1 2 5m'\n"                  /* single-quoted, a duration */
			      "    - query: d\n"
			      "      values: \"1 \\t *\"\n"               /* an escape: the scalar's column */
			      "    - query: e\n"
			      "      values: |\n"
			      "        1 2 *\n"                           /* block: the scalar's column */
			      "    - query: f\n"
			      "      interval: 0s\n"
			      "      values: true\n"
			      "    - query: a\n"
			      "      values: \"1\"\n");
	expect_diags(
		"s.yaml",
		"s.yaml:8:21: error: spec.metrics[0].values: Invalid value: \"1 2 3x\": unexpected "
		"end of input in series values\n"
		"s.yaml:10:22: error: spec.metrics[1].values: Invalid value: \"0+1x5 * 2\": "
		"unexpected character in series sequence: '*'\n"
		"s.yaml:12:20: error: spec.metrics[2].values: Invalid value: \"1 2 5m\": bad number "
		"syntax: \"5\"\n"
		"s.yaml:12:20: note: series values are numbers; promtool reads no durations there "
		"(the sample spacing is 'interval')\n"
		"s.yaml:14:15: error: spec.metrics[3].values: Invalid value: \"1 \\t *\": unexpected "
		"character in series sequence: '*'\n"
		"s.yaml:16:15: error: spec.metrics[4].values: Invalid value: \"1 2 *\\n\": "
		"unexpected character in series sequence: '*'\n"
		"s.yaml:19:17: error: spec.metrics[5].interval: Invalid value: \"0s\": must be "
		"greater than 0\n"
		"s.yaml:20:15: error: spec.metrics[5].values: Invalid value: \"boolean\": must be a "
		"string in promtool's expanding notation: true\n"
		"s.yaml:20:15: note: e.g. values: \"0.001x30 0.05x10 _x5 stale\"\n"
		"s.yaml:21:14: error: spec.metrics[6].query: Duplicate value: \"a\"\n"
		"s.yaml:7:14: note: spec.metrics[0] gives a series for it already\n"
		"s.yaml:7:14: warning: spec.metrics[0]: no FleetRollout gate reads this series\n"
		"s.yaml:9:14: warning: spec.metrics[1]: no FleetRollout gate reads this series\n"
		"s.yaml:11:14: warning: spec.metrics[2]: no FleetRollout gate reads this series\n"
		"s.yaml:13:14: warning: spec.metrics[3]: no FleetRollout gate reads this series\n"
		"s.yaml:15:14: warning: spec.metrics[4]: no FleetRollout gate reads this series\n"
		"s.yaml:18:14: warning: spec.metrics[5]: no FleetRollout gate reads this series\n"
		"s.yaml:21:14: warning: spec.metrics[6]: no FleetRollout gate reads this series");

	/* Required keys, unknown keys. */
	fx_put("s.yaml", HEAD "spec:\n  metrics:\n    - {values: \"1\", step: 1m}\n");
	expect_diags("s.yaml",
		     "s.yaml:7:21: error: unknown field \"spec.metrics[0].step\"\n"
		     "s.yaml:7:21: note: accepted fields: query, address, interval, values, labels, url, jsonPath, "
		     "unavailable\n"
		     "s.yaml:7:7: error: spec.metrics[0].query: Required value");
	fx_tmp_leave();
}

static void test_fleet_hosts(void)
{
	struct scenario s;
	char *text;
	const char *path = "s.yaml";

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  fleet:\n"
			      "    allowedActionHosts: [\"prometheus.*\", \"*.svc\"]\n"
			      "  metrics: [{query: errors, values: \"0\"}]\n"
			      "---\n" FLEET("a", "errors", "http://prometheus.monitoring:9090"));
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_EQUAL_FATAL(s.fleet.nallowed_action_hosts, 2);
	CU_ASSERT_STRING_EQUAL(s.fleet.allowed_action_hosts[0], "prometheus.*");
	CU_ASSERT_STRING_EQUAL(s.fleet.allowed_action_hosts[1], "*.svc");
	free(text);
	scn_release(&s);

	/* A host outside the list, an address that is no URL: warnings (the gate holds). */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  fleet:\n"
			      "    allowedActionHosts: [\"*.svc\"]\n"
			      "  metrics: [{query: errors, values: \"0\"}]\n"
			      "---\n" FLEET("a", "errors", "http://prometheus.monitoring:9090")
			      "---\n" FLEET("b", "errors", "\"://nope\""));
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	fx_same_text(
		text,
		"s.yaml:23:22: warning: FleetRollout \"a\": wave \"canary\": gate host "
		"\"prometheus.monitoring\" is not in spec.fleet.allowedActionHosts; the gate's "
		"verdict is Unknown on every pass and the wave holds\n"
		"s.yaml:39:22: warning: FleetRollout \"b\": wave \"canary\": gate address \"://nope\" "
		"is not an http(s) URL with a host; the gate's verdict is Unknown on every pass and "
		"the wave holds");
	free(text);
	scn_release(&s);

	fx_put("s.yaml", HEAD "spec:\n  fleet:\n    allowedActionHosts: [\"a[\", \"\", ok, 5]\n"
			      "    allowedHosts: []\n");
	expect_diags("s.yaml",
		     "s.yaml:7:26: error: spec.fleet.allowedActionHosts[0]: Invalid value: \"a[\": "
		     "syntax error in pattern\n"
		     "s.yaml:7:26: note: patterns use Go's path.Match syntax: '*', '?', '[a-z]', "
		     "'\\' escapes\n"
		     "s.yaml:7:32: error: spec.fleet.allowedActionHosts[1]: Invalid value: \"\": "
		     "spec.fleet.allowedActionHosts[1] in body should be at least 1 chars long\n"
		     "s.yaml:7:40: error: spec.fleet.allowedActionHosts[3]: Invalid value: "
		     "\"integer\": spec.fleet.allowedActionHosts[3] in body must be of type string: 5\n"
		     "s.yaml:7:40: note: YAML reads 5 as a number: quote it (\"5\") if a string is "
		     "meant; the cluster rejects the unquoted form too\n"
		     "s.yaml:8:5: error: unknown field \"spec.fleet.allowedHosts\"\n"
		     "s.yaml:8:5: note: accepted fields: allowedActionHosts");
	fx_tmp_leave();
}

static void test_stageset_models(void)
{
	struct scenario s;
	char *text;
	const char *path = "s.yaml";
	struct scn_stageset_model m;
	struct obj_strmap ring0, ring1, other;

	fx_tmp_enter("test_scenario");
	/* Defaults. */
	fx_put("s.yaml", HEAD);
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	obj_strmap_init(&other);
	scn_stageset_model_for(&s.models, &other, &m);
	CU_ASSERT_EQUAL(m.adoption_duration->kind, DIST_CONSTANT);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.adoption_duration), 120000, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.adoption_failure_probability, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.regression_probability, 0, 0);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.regression_duration), 600000, 0);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.regression_after), 0, 0);
	CU_ASSERT_TRUE(m.regression_all_versions);
	free(text);
	scn_release(&s);

	fx_put("s.yaml", HEAD "spec:\n"
			      "  models:\n"
			      "    stagesets:\n"
			      "      adoption: {duration: {uniform: {min: 1m, max: 3m}}, failureProbability: 0.02}\n"
			      "      regression: {probability: 0.1, duration: 30m, versions: [1.10, \"4.6.0\"]}\n"
			      "      rules:\n"
			      "        - selector: {matchLabels: {ring: \"0\"}}\n"
			      "          adoption: {duration: 5m}\n"
			      "          regression: {after: 10m}\n"
			      "        - selector: {matchExpressions: [{key: ring, operator: Exists}]}\n"
			      "          adoption: {duration: 7m, failureProbability: 0.5}\n"
			      "          regression: {versions: []}\n");
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_EQUAL_FATAL(s.models.stagesets.nrules, 2);
	CU_ASSERT_STRING_EQUAL(s.models.stagesets.rules[0].selector_text, "ring=0");
	CU_ASSERT_EQUAL(s.models.stagesets.rules[0].mark.line, 11);
	/* Versions keep the text as written: 1.10 is not the number 1.1. */
	CU_ASSERT_EQUAL_FATAL(s.models.stagesets.regression.nversions, 2);
	CU_ASSERT_STRING_EQUAL(s.models.stagesets.regression.versions[0], "1.10");
	obj_strmap_init(&ring0);
	obj_strmap_set(&ring0, "ring", "0");
	obj_strmap_init(&ring1);
	obj_strmap_set(&ring1, "ring", "1");

	/* ring 0: the first rule's duration and after, the second's failure, top-level rest. */
	scn_stageset_model_for(&s.models, &ring0, &m);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.adoption_duration), 300000, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.adoption_failure_probability, 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.regression_probability, 0.1, 0);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.regression_duration), 1800000, 0);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.regression_after), 600000, 0);
	CU_ASSERT_FALSE(m.regression_all_versions);
	CU_ASSERT_EQUAL(m.nregression_versions, 0);

	/* ring 1: only the second rule matches. */
	scn_stageset_model_for(&s.models, &ring1, &m);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.adoption_duration), 420000, 0);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.regression_after), 0, 0);

	/* No label: top level only. */
	scn_stageset_model_for(&s.models, &other, &m);
	CU_ASSERT_EQUAL(m.adoption_duration->kind, DIST_UNIFORM);
	CU_ASSERT_DOUBLE_EQUAL(dist_mean(m.adoption_duration), 120000, 0);
	CU_ASSERT_DOUBLE_EQUAL(m.adoption_failure_probability, 0.02, 0);
	CU_ASSERT_TRUE(!m.regression_all_versions && m.nregression_versions == 2);
	obj_strmap_release(&ring0);
	obj_strmap_release(&ring1);
	obj_strmap_release(&other);
	free(text);
	scn_release(&s);

	fx_put("s.yaml", HEAD "spec:\n"
			      "  models:\n"
			      "    stagesets:\n"
			      "      adoption: {duration: 5, failureProbability: 2}\n"
			      "      regression: {probability: -1, versions: [true], onset: 1m}\n"
			      "      migrations: [{to: \"one\"}, {down: \"yes\"}]\n"
			      "      rules: [{adoption: {}}]\n");
	expect_diags(
		"s.yaml",
		"s.yaml:8:28: error: spec.models.stagesets.adoption.duration: Invalid value: 5: must "
		"be a duration or a distribution\n"
		"s.yaml:8:28: note: a duration needs a unit: ns, us, ms, s, m or h\n"
		"s.yaml:8:51: error: spec.models.stagesets.adoption.failureProbability: Invalid "
		"value: 2: spec.models.stagesets.adoption.failureProbability in body should be less "
		"than or equal to 1\n"
		"s.yaml:8:51: note: a probability is a ratio from 0 to 1: write 0.05 for 5%\n"
		"s.yaml:9:33: error: spec.models.stagesets.regression.probability: Invalid value: "
		"-1: spec.models.stagesets.regression.probability in body should be greater than or "
		"equal to 0\n"
		"s.yaml:9:48: error: spec.models.stagesets.regression.versions[0]: Invalid value: "
		"\"boolean\": must be a version such as \"1.10.0\": true\n"
		"s.yaml:9:55: error: unknown field \"spec.models.stagesets.regression.onset\"\n"
		"s.yaml:9:55: note: accepted fields: probability, duration, after, versions, effect\n"
		"s.yaml:10:25: error: spec.models.stagesets.migrations[0].to: Invalid value: "
		"\"one\": invalid semantic version\n"
		"s.yaml:10:25: note: a migration's 'to' is a semantic version such as 2.0.0\n"
		"s.yaml:10:40: error: spec.models.stagesets.migrations[1].down: Invalid value: "
		"\"string\": spec.models.stagesets.migrations[1].down in body must be of type "
		"boolean: \"yes\"\n"
		"s.yaml:10:33: error: spec.models.stagesets.migrations[1].to: Required value\n"
		"s.yaml:11:15: error: spec.models.stagesets.rules[0].selector: Required value\n"
		"s.yaml:10:7: error: spec.models.stagesets: Forbidden: migrations are not a model any more: "
		"the StageSet controller runs each StageSet's own spec.migrations (or "
		"spec.migrationsSourceRef)\n"
		"s.yaml:10:7: note: move the ladder into the StageSets' spec.migrations, with its actions and "
		"down actions");
	fx_tmp_leave();
}

static void test_fleet_events(void)
{
	struct scenario s;
	char *text;
	const char *path = "s.yaml";
	const struct scn_fevent *e;

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  events:\n"
			      "    - at: 1h\n"
			      "      publish: {selector: {matchLabels: {app: moodle}}, version: \"4.10\"}\n"
			      "    - at: 2h\n"
			      "      publish:\n"
			      "        selector: {}\n"
			      "        namespaceSelector: {matchLabels: {tier: gold}}\n"
			      "        version: \"v5.0.0-rc.1\"\n"
			      "    - at: 3h\n"
			      "      regress: {namespace: t1, name: moodle, for: 30m}\n"
			      "    - at: 3h\n"
			      "      regress: {kind: StageSet, selector: {matchLabels: {ring: \"0\"}}, for: 1h}\n"
			      "    - at: 4h\n"
			      "      label: {kind: StageSet, namespace: t1, name: moodle, set: {ring: \"0\"}}\n"
			      "---\n" NS("t1") "  labels: {tier: gold}\n"
			      "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\n"
			      "metadata: {name: moodle, namespace: t1, labels: {app: moodle, ring: \"0\"}}\n"
			      "spec: {stages: [{name: app, sourceRef: {kind: GitRepository, name: m}}]}\n");
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_EQUAL(s.nevents, 1);
	CU_ASSERT_EQUAL(s.nmevents, 0);
	CU_ASSERT_EQUAL_FATAL(s.nfevents, 4);
	e = &s.fevents[0];
	CU_ASSERT_EQUAL(e->type, SCN_FEV_PUBLISH);
	CU_ASSERT_STRING_EQUAL(scn_fevent_type_name(e->type), "publish");
	CU_ASSERT_EQUAL(e->at_ms, 3600000);
	CU_ASSERT_EQUAL(e->index, 0);
	CU_ASSERT_EQUAL(e->mark.line, 8);
	CU_ASSERT_EQUAL(e->mark.col, 7);
	CU_ASSERT_TRUE(e->by_selector);
	CU_ASSERT_STRING_EQUAL(e->selector_text, "app=moodle");
	CU_ASSERT_FALSE(e->has_ns_selector);
	CU_ASSERT_STRING_EQUAL(e->version, "4.10");
	e = &s.fevents[1];
	CU_ASSERT_TRUE(e->has_ns_selector);
	CU_ASSERT_STRING_EQUAL(e->ns_selector_text, "tier=gold");
	CU_ASSERT_STRING_EQUAL(e->selector_text, "");
	CU_ASSERT_STRING_EQUAL(e->version, "v5.0.0-rc.1");
	e = &s.fevents[2];
	CU_ASSERT_EQUAL(e->type, SCN_FEV_REGRESS);
	CU_ASSERT_STRING_EQUAL(scn_fevent_type_name(e->type), "regress");
	CU_ASSERT_FALSE(e->by_selector);
	CU_ASSERT_STRING_EQUAL(e->target.kind, "StageSet");
	CU_ASSERT_STRING_EQUAL(e->target.ns, "t1");
	CU_ASSERT_STRING_EQUAL(e->target.name, "moodle");
	CU_ASSERT_EQUAL(e->for_ms, 1800000);
	CU_ASSERT_EQUAL(e->index, 2);
	e = &s.fevents[3];
	CU_ASSERT_TRUE(e->by_selector);
	CU_ASSERT_PTR_NULL(e->target.ns);
	CU_ASSERT_PTR_NULL(e->target.name);
	CU_ASSERT_STRING_EQUAL(e->selector_text, "ring=0");
	CU_ASSERT_EQUAL(e->for_ms, 3600000);
	CU_ASSERT_EQUAL(s.events[0].index, 4);
	free(text);
	scn_release(&s);

	fx_put("s.yaml", HEAD "spec:\n"
			      "  events:\n"
			      "    - at: 1h\n"
			      "      publish: {selector: {matchLabels: {app: x}}, version: latest}\n"
			      "    - at: 1h\n"
			      "      publish: {version: true, selector: {matchLabels: {a: \"-\"}}}\n"
			      "    - at: 1h\n"
			      "      regress: {name: moodle, selector: {}, for: 1h}\n"
			      "    - at: 1h\n"
			      "      regress: {namespace: t1, for: 1h}\n"
			      "    - at: 1h\n"
			      "      regress: {kind: Workspace, name: w, for: 500us}\n"
			      "    - at: 1h\n"
			      "      regress: {namespace: t2, name: moodle, for: 1h}\n"
			      "    - at: 1h\n"
			      "      regress: {namespace: t2, selector: {}, for: 1h}\n");
	expect_diags(
		"s.yaml",
		"s.yaml:10:26: error: spec.events[1].publish.version: Invalid value: \"boolean\": "
		"must be a version such as \"1.10.0\": true\n"
		"s.yaml:10:42: error: spec.events[1].publish.selector: Invalid value: \"object\": "
		"values[0][a]: Invalid value: \"-\": a valid label must be an empty string or consist "
		"of alphanumeric characters, '-', '_' or '.', and must start and end with an "
		"alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for "
		"validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')\n"
		"s.yaml:12:31: error: spec.events[2].regress: Invalid value: \"object\": give 'name' "
		"or 'selector', not both\n"
		"s.yaml:14:16: error: spec.events[3].regress: Required value: give 'name' or "
		"'selector'\n"
		"s.yaml:14:16: note: e.g. regress: {namespace: tenant-a, name: moodle, for: 30m} or "
		"regress: {selector: {matchLabels: {ring: \"0\"}}, for: 30m}\n"
		"s.yaml:16:23: error: spec.events[4].regress.kind: Unsupported value: \"Workspace\": "
		"supported values: \"StageSet\"\n"
		"s.yaml:16:48: error: spec.events[4].regress.for: Invalid value: \"500us\": must be "
		"at least 1ms\n"
		"s.yaml:16:48: note: simulated time counts whole milliseconds: \"500us\" would "
		"become 0\n"
		"s.yaml:8:7: warning: spec.events[0].publish.version: \"latest\" is not a semantic "
		"version (invalid semantic version); the members offered it will report Ready False "
		"InvalidVersion\n"
		"s.yaml:8:7: warning: spec.events[0].publish: no StageSet of the inputs matches "
		"selector \"app=x\"\n"
		"s.yaml:18:7: error: spec.events[5].regress: StageSet \"t2/moodle\" not found\n"
		"s.yaml:18:7: note: no input defines it and no 'apply' event creates it earlier\n"
		"s.yaml:20:7: warning: spec.events[6].regress: no StageSet of the inputs in "
		"namespace \"t2\" matches selector \"\"");
	fx_tmp_leave();
}

/* inventory events: the StageSet by name, delete or a backup's shards parsed as a snapshot's. */
static void test_inventory_events(void)
{
	struct scenario s;
	char *text;
	const char *path = "s.yaml";
	const struct scn_fevent *e;

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  events:\n"
			      "    - at: 1h\n"
			      "      inventory: {namespace: t1, name: moodle, delete: true}\n"
			      "    - at: 2h\n"
			      "      inventory: {namespace: t1, name: moodle, restore: "
			      "\"app=2:apps_Deployment_t1_moodle-app;_ConfigMap_t1_cm,db=1\"}\n"
			      "---\n" NS("t1")
			      "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\n"
			      "metadata: {name: moodle, namespace: t1}\n"
			      "spec: {stages: [{name: app, sourceRef: {kind: GitRepository, name: m}},"
			      " {name: db, sourceRef: {kind: GitRepository, name: m}}]}\n");
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_EQUAL_FATAL(s.nfevents, 2);
	e = &s.fevents[0];
	CU_ASSERT_EQUAL(e->type, SCN_FEV_INVENTORY);
	CU_ASSERT_STRING_EQUAL(scn_fevent_type_name(e->type), "inventory");
	CU_ASSERT_EQUAL(e->at_ms, 3600000);
	CU_ASSERT_FALSE(e->by_selector);
	CU_ASSERT_STRING_EQUAL(e->target.ns, "t1");
	CU_ASSERT_STRING_EQUAL(e->target.name, "moodle");
	CU_ASSERT_EQUAL(e->ninv_restore, 0);
	e = &s.fevents[1];
	CU_ASSERT_EQUAL_FATAL(e->ninv_restore, 2);
	CU_ASSERT_STRING_EQUAL(e->inv_restore[0].stage, "app");
	CU_ASSERT_EQUAL(e->inv_restore[0].what, SCN_INV_SHARD);
	CU_ASSERT_EQUAL(e->inv_restore[0].entries, 2);
	CU_ASSERT_EQUAL_FATAL(e->inv_restore[0].nids, 2);
	CU_ASSERT_STRING_EQUAL(e->inv_restore[0].ids[1], "_ConfigMap_t1_cm");
	CU_ASSERT_STRING_EQUAL(e->inv_restore[1].stage, "db");
	CU_ASSERT_EQUAL(e->inv_restore[1].entries, 1);
	CU_ASSERT_PTR_NULL(e->inv_restore[1].ids);
	free(text);
	scn_release(&s);
	fx_tmp_leave();
}

/* Checks a reviewer found missing: numeric versions, empty series, bad bounds, cascades. */
static void test_fleet_input_checks(void)
{
	fx_tmp_enter("test_scenario");
	/* a YAML number as a published version is refused; an empty series too */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  metrics:\n"
			      "    - {query: up, values: \"\"}\n"
			      "  events:\n"
			      "    - at: 1h\n"
			      "      publish: {selector: {}, version: 4.6}\n");
	expect_diags(
		"s.yaml",
		"s.yaml:7:27: error: spec.metrics[0].values: Invalid value: \"\": must not be empty\n"
		"s.yaml:7:27: note: e.g. values: \"0.001x30 0.05x10 _x5 stale\"\n"
		"s.yaml:10:40: error: spec.events[0].publish.version: Invalid value: 4.6: a YAML "
		"number, not a semantic version\n"
		"s.yaml:10:40: note: quote it, and give the semantic version the members offer, such "
		"as \"1.10.0\"; unquoted, YAML reads 4.6 as a number\n"
		"s.yaml:7:15: warning: spec.metrics[0]: no FleetRollout gate reads this series");
	/* a refused spec.generate item: no follow-up about publish matching nothing */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  generate:\n"
			      "    - {count: 0, namespace: t, name: m, template: {}}\n"
			      "  events:\n"
			      "    - at: 1h\n"
			      "      publish: {selector: {matchLabels: {app: m}}, version: \"1.0.0\"}\n"
			      "    - at: 1h\n"
			      "      regress: {namespace: t, name: m, for: 1h}\n");
	expect_diags("s.yaml",
		     "s.yaml:7:15: error: spec.generate[0].count: Invalid value: 0: "
		     "spec.generate[0].count in body should be greater than or equal to 1");
	fx_tmp_leave();
}

static void test_expand_pattern(void)
{
	char err[128];
	char *x;

	x = scn_expand_pattern("tenant-{i}", 7, err, sizeof(err));
	CU_ASSERT_STRING_EQUAL(x, "tenant-7");
	free(x);
	x = scn_expand_pattern("tenant-{i:03}-{i}", 7, err, sizeof(err));
	CU_ASSERT_STRING_EQUAL(x, "tenant-007-7");
	free(x);
	x = scn_expand_pattern("{i:02}", 1234, err, sizeof(err));
	CU_ASSERT_STRING_EQUAL(x, "1234");
	free(x);
	x = scn_expand_pattern("{{i}}{i}", 0, err, sizeof(err));
	CU_ASSERT_STRING_EQUAL(x, "{i}0");
	free(x);
	x = scn_expand_pattern("plain", 3, err, sizeof(err));
	CU_ASSERT_STRING_EQUAL(x, "plain");
	free(x);
	CU_ASSERT_PTR_NULL(scn_expand_pattern("t-{n}", 0, err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "unknown placeholder \"{n}\"");
	CU_ASSERT_PTR_NULL(scn_expand_pattern("t-{i:3}", 0, err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "unknown placeholder \"{i:3}\"");
	CU_ASSERT_PTR_NULL(scn_expand_pattern("t-{i", 0, err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "'{' at byte 3 is not closed");
	CU_ASSERT_PTR_NULL(scn_expand_pattern("t}", 0, err, sizeof(err)));
	CU_ASSERT_STRING_EQUAL(err, "a lone '}' at byte 2");
	CU_ASSERT_PTR_NULL(scn_expand_pattern("{j}", 0, NULL, 0));
	x = scn_expand_pattern("{i:09}", UINT64_MAX, NULL, 0);
	CU_ASSERT_STRING_EQUAL(x, "18446744073709551615");
	free(x);
}

#define SS_TEMPLATE                                                                           \
	"      template:\n"                                                                   \
	"        version: {value: \"4.5.0\", approvalMode: Always}\n"                           \
	"        stages: [{name: app, sourceRef: {kind: GitRepository, name: moodle}}]\n"

static void test_generate(void)
{
	struct scenario s;
	char *text;
	const char *path = "s.yaml";
	size_t nss = 0, nns = 0, ring0 = 0;

	fx_tmp_enter("test_scenario");
	fx_put("s.yaml", HEAD "spec:\n"
			      "  generate:\n"
			      "    - count: 10\n"
			      "      firstIndex: 1\n"
			      "      namespace: tenant-{i:03}\n"
			      "      name: moodle\n"
			      "      labels: {app: moodle, tenant: \"t{i}\"}\n"
			      "      namespaceLabels: {tier: gold}\n"
			      "      labelMix:\n"
			      "        - {labels: {ring: \"0\"}, weight: 1}\n"
			      "        - {labels: {ring: \"1\"}, weight: 2}\n"
			      "        - {labels: {ring: \"2\"}, weight: 0}\n"
			      SS_TEMPLATE
			      "    - count: 2\n"
			      "      namespace: tenant-{i:03}\n"
			      "      name: cron\n"
			      SS_TEMPLATE
			      "---\n" NS("tenant-002") "  labels: {own: \"yes\"}\n");
	CU_ASSERT_EQUAL(fx_scn_load(&path, 1, &s, &text), 0);
	fx_same_text(text, "");
	/*
	 * The manifest's Namespace, then 9 new Namespaces and 10 StageSets, then
	 * one more Namespace (tenant-000) and 2 StageSets.
	 */
	CU_ASSERT_EQUAL_FATAL(s.nobjs, 1 + 9 + 10 + 1 + 2);
	CU_ASSERT_EQUAL(s.ngenerated, 22);
	CU_ASSERT_STRING_EQUAL(s.objs[1]->kind, "Namespace");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->name, "tenant-001");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&s.objs[1]->labels, "tier"), "gold");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->kind, "StageSet");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->ns, "tenant-001");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->name, "moodle");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->api_version, "stages.metio.wtf/v1");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&s.objs[2]->labels, "tenant"), "t1");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(s.objs[2]->spec, "version.value"), ""), "4.5.0");
	CU_ASSERT_PTR_EQUAL(s.objs[2]->src.file, s.scenario_file);
	CU_ASSERT_EQUAL(s.objs[2]->src.mark.line, 7);
	/* tenant-002 is the manifest's: kept as written, not generated again. */
	CU_ASSERT_STRING_EQUAL(s.objs[3]->kind, "StageSet");
	CU_ASSERT_STRING_EQUAL(s.objs[3]->ns, "tenant-002");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&s.objs[0]->labels, "tier"));
	/*
	 * Weights 1:2:0 over 10: quotas 3.33, 6.67, 0 → 3, 6, 0 and the one left
	 * to the largest remainder (ring 1): indices 1-3 ring 0, 4-10 ring 1.
	 */
	for (size_t i = 0; i < s.nobjs; i++) {
		const struct obj *o = s.objs[i];
		const char *ring = obj_strmap_get(&o->labels, "ring");

		if (strcmp(o->kind, "Namespace") == 0) {
			nns++;
			continue;
		}
		nss++;
		if (strcmp(o->name, "moodle") != 0) {
			CU_ASSERT_PTR_NULL(ring);
			continue;
		}
		CU_ASSERT_PTR_NOT_NULL_FATAL(ring);
		CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->labels, "app"), "moodle");
		if (strcmp(ring, "0") == 0) {
			ring0++;
			CU_ASSERT_TRUE(strcmp(o->ns, "tenant-003") <= 0);
		} else {
			CU_ASSERT_STRING_EQUAL(ring, "1");
			CU_ASSERT_TRUE(strcmp(o->ns, "tenant-004") >= 0);
		}
	}
	CU_ASSERT_EQUAL(nns, 11);
	CU_ASSERT_EQUAL(nss, 12);
	CU_ASSERT_EQUAL(ring0, 3);
	/* The second entry makes tenant-000 and shares tenant-001 with the first. */
	CU_ASSERT_STRING_EQUAL(s.objs[19]->kind, "StageSet");
	CU_ASSERT_STRING_EQUAL(s.objs[19]->ns, "tenant-010");
	CU_ASSERT_STRING_EQUAL(s.objs[20]->kind, "Namespace");
	CU_ASSERT_STRING_EQUAL(s.objs[20]->name, "tenant-000");
	CU_ASSERT_STRING_EQUAL(s.objs[21]->name, "cron");
	CU_ASSERT_STRING_EQUAL(s.objs[21]->ns, "tenant-000");
	CU_ASSERT_STRING_EQUAL(s.objs[22]->name, "cron");
	CU_ASSERT_STRING_EQUAL(s.objs[22]->ns, "tenant-001");
	free(text);
	scn_release(&s);

	/* A bad template is reported once, at the template, and generation stops. */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  generate:\n"
			      "    - count: 300\n"
			      "      namespace: tenant-{i}\n"
			      "      name: moodle\n"
			      "      template:\n"
			      "        version: {value: 4.5}\n");
	expect_diags("s.yaml",
		     "s.yaml:11:9: error: StageSet \"tenant-0/moodle\": spec.stages: Required value\n"
		     "s.yaml:11:26: error: StageSet \"tenant-0/moodle\": spec.version.value: Invalid "
		     "value: \"number\": spec.version.value in body must be of type string: 4.5\n"
		     "s.yaml:11:26: note: YAML reads 4.5 as a number: quote it (\"4.5\") if a string "
		     "is meant; the cluster rejects the unquoted form too\n"
		     "s.yaml:7:7: note: spec.generate[0]: stopped at the first refused object "
		     "(index 0, 1 of 300)");

	/* Patterns, names, labels, counts, weights. */
	fx_put("s.yaml", HEAD "spec:\n"
			      "  generate:\n"
			      "    - count: 3\n"
			      "      namespace: tenant-{n}\n"
			      "      name: \"{i\"\n"
			      "      labels: {ring: \"r{x}\"}\n"
			      "      template: {}\n"
			      "    - count: 3\n"
			      "      namespace: tenants\n"
			      "      name: moodle\n"
			      "      template: {}\n"
			      "    - count: 2000000\n"
			      "      namespace: t{i}\n"
			      "      name: m\n"
			      "      template: {}\n"
			      "    - {count: 0, namespace: a, name: b, template: [], extra: 1}\n"
			      "    - count: 2\n"
			      "      namespace: a{i}\n"
			      "      name: b\n"
			      "      labelMix: [{labels: {a: b}, weight: 0}]\n"
			      "      template: {}\n"
			      "    - count: 2\n"
			      "      namespace: Tenant-{i}\n"
			      "      name: m\n"
			      SS_TEMPLATE);
	expect_diags(
		"s.yaml",
		"s.yaml:8:18: error: spec.generate[0].namespace: Invalid value: \"tenant-{n}\": "
		"unknown placeholder \"{n}\"\n"
		"s.yaml:8:18: note: write {i} for the index, {i:03} for it zero-padded to 3 digits, "
		"{{ and }} for literal braces\n"
		"s.yaml:9:13: error: spec.generate[0].name: Invalid value: \"{i\": '{' at byte 1 is "
		"not closed\n"
		"s.yaml:9:13: note: write {i} for the index, {i:03} for it zero-padded to 3 digits, "
		"{{ and }} for literal braces\n"
		"s.yaml:10:22: error: spec.generate[0].labels.ring: Invalid value: \"r{x}\": unknown "
		"placeholder \"{x}\"\n"
		"s.yaml:10:22: note: write {i} for the index, {i:03} for it zero-padded to 3 digits, "
		"{{ and }} for literal braces\n"
		"s.yaml:14:13: error: spec.generate[1]: Invalid value: \"object\": 3 StageSets would "
		"all be named \"tenants/moodle\"\n"
		"s.yaml:14:13: note: put {i} in namespace or name, e.g. namespace: tenant-{i:03}\n"
		"s.yaml:16:14: error: spec.generate[2]: Invalid value: 2000000: count must be at "
		"most 1000000 (limit generated-objects; raise it with --limit "
		"generated-objects=N)\n"
		"s.yaml:20:15: error: spec.generate[3].count: Invalid value: 0: "
		"spec.generate[3].count in body should be greater than or equal to 1\n"
		"s.yaml:20:51: error: spec.generate[3].template: Invalid value: \"array\": "
		"spec.generate[3].template in body must be of type object: \"array\"\n"
		"s.yaml:20:55: error: unknown field \"spec.generate[3].extra\"\n"
		"s.yaml:20:55: note: accepted fields: count, firstIndex, namespace, name, labels, "
		"labelMix, namespaceLabels, template\n"
		"s.yaml:24:17: error: spec.generate[4].labelMix: Invalid value: \"array\": the "
		"weights add up to 0\n"
		"s.yaml:27:18: error: Namespace \"Tenant-0\": metadata.name: Invalid value: "
		"\"Tenant-0\": a lowercase RFC 1123 label must consist of lower case alphanumeric "
		"characters or '-', and must start and end with an alphanumeric character (e.g. "
		"'my-name',  or '123-abc', regex used for validation is "
		"'[a-z0-9]([-a-z0-9]*[a-z0-9])?')\n"
		"s.yaml:26:7: note: spec.generate[5]: stopped at the first refused object (index 0, "
		"1 of 2)");
	fx_tmp_leave();
}

static CU_TestInfo tests[] = {
	{ "bare manifests take the defaults", test_bare_manifests_defaults },
	{ "Scenario fields and defaults", test_scenario_fields },
	{ "directories: sorted *.yaml/*.yml, not recursive", test_directory_input },
	{ "includes: files and globs, in order, once", test_includes },
	{ "a second Scenario document", test_two_scenarios },
	{ "field errors name file:line:col", test_field_errors },
	{ "events of each type", test_events },
	{ "event errors", test_event_errors },
	{ "empty files, numbers for durations", test_empty_and_broken_files },
	{ "sub-ms durations, ranges, scopes, refused targets", test_loader_review_fixes },
	{ "metrics: series read, matched to gates, missing series", test_metrics_series_and_gates },
	{ "metrics: promtool errors at the token's column", test_metrics_errors },
	{ "fleet: allowedActionHosts patterns and gate hosts", test_fleet_hosts },
	{ "models.stagesets: defaults, rules field by field, errors", test_stageset_models },
	{ "fleet input checks and no follow-up errors", test_fleet_input_checks },
	{ "fleet events: publish and regress", test_fleet_events },
	{ "fleet events: inventory delete and restore", test_inventory_events },
	{ "generate: name patterns", test_expand_pattern },
	{ "generate: objects, label mix, errors once", test_generate },
	CU_TEST_INFO_NULL,
};

/* make conformance: against the upstream fixtures in ../shared (cu_shared()). */
static CU_TestInfo conformance[] = {
	{ "upstream samples load unchanged", test_upstream_samples },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("scenario", tests);
	CU_ADD_CONFORMANCE_SUITE("scenario against ../shared", conformance);
}
