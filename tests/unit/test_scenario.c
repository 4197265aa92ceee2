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
#include <unistd.h>

#include "engine/xalloc.h"
#include "sim/scenario.h"
#include "tests/unit/cu_main.h"

static char origin[4096]; /* the directory the tests started in (the repository root) */
static char workdir[64];  /* this test's temporary directory, the cwd while it runs */

static void rm_tree(const char *dir)
{
	char *cmd = xasprintf("rm -rf '%s'", dir);

	if (system(cmd) != 0)
		fprintf(stderr, "test_scenario: could not remove %s\n", dir);
	free(cmd);
}

/* enter() - a fresh empty directory to work in. */
static void enter(void)
{
	if (!origin[0] && !getcwd(origin, sizeof(origin)))
		abort();
	snprintf(workdir, sizeof(workdir), "/tmp/test_scenario.XXXXXX");
	if (!mkdtemp(workdir) || chdir(workdir) != 0)
		abort();
}

static void leave(void)
{
	if (chdir(origin) != 0)
		abort();
	rm_tree(workdir);
}

static void put(const char *name, const char *text)
{
	FILE *f;
	char *slash = strrchr(name, '/');

	if (slash) {
		char *dir = xstrndup(name, (size_t)(slash - name));

		mkdir(dir, 0755);
		free(dir);
	}
	f = fopen(name, "w");
	if (!f)
		abort();
	fputs(text, f);
	fclose(f);
}

/* all_diags() - every diagnostic line joined with '\n' (new). */
static char *all_diags(const struct diag *d)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < d->n; i++) {
		char *line = diag_format_item(d, i);
		char *next = xasprintf("%s%s%s", out, i ? "\n" : "", line);

		free(line);
		free(out);
		out = next;
	}
	return out;
}

/* load() - scn_load() of @n paths; returns its result, diagnostics in *@text (new). */
static int load(const char *const *paths, size_t n, struct scenario *s, char **text)
{
	struct diag d;
	int rc;

	diag_init(&d);
	rc = scn_load(paths, n, s, &d);
	*text = all_diags(&d);
	diag_release(&d);
	return rc;
}

/* expect_diags() - loading @path fails with exactly @want as diagnostics. */
static void expect_diags(const char *path, const char *want)
{
	struct scenario s;
	char *got;
	int rc = load(&path, 1, &s, &got);

	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n--- want\n%s\n--- got\n%s\n", want, got);
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

	enter();
	put("dir/demo.yaml", NS("a") "---\n" PROJECT("p") "---\n" NS("b"));
	CU_ASSERT_EQUAL(load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_FALSE(s.has_scenario_doc);
	CU_ASSERT_PTR_NULL(s.scenario_file);
	CU_ASSERT_STRING_EQUAL(s.name, "demo");
	CU_ASSERT_EQUAL(s.seed, 1);
	CU_ASSERT_EQUAL(s.horizon_ms, 86400000);
	CU_ASSERT_EQUAL(s.start_unix_ms, 1767225600000LL);
	CU_ASSERT_EQUAL(s.api_latency_ms, 0);
	CU_ASSERT_EQUAL(s.reconcile_ms, 0);
	CU_ASSERT_EQUAL(s.event_budget, 10000000);
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
	leave();
}

static void test_scenario_fields(void)
{
	struct scenario s;
	char *text;
	const char *p = "s.yaml";

	enter();
	put("s.yaml", "apiVersion: magos-sim/v1alpha1\n"
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
	CU_ASSERT_EQUAL(load(&p, 1, &s, &text), 0);
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
	put("s.yaml", HEAD "---\n" NS("a"));
	CU_ASSERT_EQUAL(load(&p, 1, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_STRING_EQUAL(s.name, "t");
	CU_ASSERT_EQUAL(s.seed, 1);
	CU_ASSERT_EQUAL(s.horizon_ms, 86400000);
	CU_ASSERT_EQUAL(s.start_unix_ms, 1767225600000LL);
	CU_ASSERT_EQUAL(s.event_budget, 10000000);
	CU_ASSERT_EQUAL(s.events_per_instant, 0);
	free(text);
	scn_release(&s);
	leave();
}

static void test_directory_input(void)
{
	struct scenario s;
	char *text;
	const char *p[] = { "m", "extra.yaml" };

	enter();
	put("m/b.yml", NS("b"));
	put("m/a.yaml", NS("a"));
	put("m/c.yaml.txt", NS("not-read"));
	put("m/.hidden.yaml", NS("hidden"));
	put("m/README.md", "not yaml: [\n");
	mkdir("m/sub.yaml", 0755);
	put("m/sub.yaml/x.yaml", NS("nested"));
	put("extra.yaml", NS("e"));
	CU_ASSERT_EQUAL(load(p, 2, &s, &text), 0);
	CU_ASSERT_STRING_EQUAL(text, "");
	CU_ASSERT_STRING_EQUAL(s.name, "m");
	CU_ASSERT_EQUAL_FATAL(s.nobjs, 3);
	CU_ASSERT_STRING_EQUAL(s.objs[0]->name, "a");
	CU_ASSERT_STRING_EQUAL(s.objs[1]->name, "b");
	CU_ASSERT_STRING_EQUAL(s.objs[2]->name, "e");
	CU_ASSERT_EQUAL_FATAL(s.nfiles, 3);
	CU_ASSERT_STRING_EQUAL(s.files[0], "m/a.yaml");
	CU_ASSERT_STRING_EQUAL(s.files[1], "m/b.yml");
	CU_ASSERT_STRING_EQUAL(s.files[2], "extra.yaml");
	free(text);
	scn_release(&s);

	put("empty/notes.txt", "x\n");
	expect_diags("empty", "empty: error: no *.yaml or *.yml files in this directory");
	expect_diags("missing.yaml", "missing.yaml: error: cannot read: No such file or directory");
	leave();
}

static void test_includes(void)
{
	struct scenario s;
	char *text;
	const char *p = "sc/main.yaml";

	enter();
	put("sc/main.yaml", HEAD "spec:\n"
				 "  include:\n"
				 "    - manifests/*.yaml\n"
				 "    - one.yaml\n"
				 "    - '*.yaml'\n"
				 "---\n" NS("own"));
	put("sc/manifests/z.yaml", NS("z"));
	put("sc/manifests/k.yaml", NS("k"));
	put("sc/one.yaml", NS("one"));
	CU_ASSERT_EQUAL(load(&p, 1, &s, &text), 0);
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

	put("sc/main.yaml", HEAD "spec:\n"
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
	leave();
}

static void test_two_scenarios(void)
{
	struct scenario s;
	char *text;
	const char *p[] = { "a.yaml", "b.yaml" };

	enter();
	put("a.yaml", HEAD);
	put("b.yaml", NS("x") "---\n" HEAD);
	CU_ASSERT_EQUAL(load(p, 2, &s, &text), -1);
	CU_ASSERT_STRING_EQUAL(text,
			       "b.yaml:5:1: error: a second Scenario document; the inputs may "
			       "hold only one\n"
			       "a.yaml:1:1: note: the first Scenario document is here");
	CU_ASSERT_STRING_EQUAL(s.name, "t");
	free(text);
	scn_release(&s);
	leave();
}

static void test_field_errors(void)
{
	enter();
	put("s.yaml", HEAD "spec:\n"
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
			   "  metrics: {}\n");
	expect_diags(
		"s.yaml",
		"s.yaml:16:3: error: 'metrics' is not supported by this version of magos-sim\n"
		"s.yaml:16:3: note: accepted keys in spec: seed, horizon, start, include, api, "
		"limits, events, models\n"
		"s.yaml:6:3: error: unknown field \"spec.horizn\"\n"
		"s.yaml:6:3: note: accepted fields: seed, horizon, start, include, api, limits, "
		"events, models\n"
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
		"spec.limits.eventsPerInstant in body must be of type integer: 1.5");

	put("s.yaml", HEAD "spec:\n  seed: -1\n  horizon: -5m\n");
	expect_diags("s.yaml",
		     "s.yaml:6:9: error: spec.seed: Invalid value: -1: spec.seed in body should be "
		     "greater than or equal to 0\n"
		     "s.yaml:7:12: error: spec.horizon: Invalid value: \"-5m\": must be greater "
		     "than 0");

	put("s.yaml", "apiVersion: magos-sim/v1\nkind: Scenario\nmetadata: {}\n");
	expect_diags("s.yaml",
		     "s.yaml:1:13: error: apiVersion: Unsupported value: \"magos-sim/v1\": "
		     "supported values: \"magos-sim/v1alpha1\"\n"
		     "s.yaml:3:11: error: metadata.name: Required value");

	put("s.yaml", "apiVersion: magos-sim/v1alpha1\nkind: Scenaro\nmetadata: {name: x}\n");
	expect_diags("s.yaml", "s.yaml:2:7: error: kind: Unsupported value: \"Scenaro\": "
			       "supported values: \"Scenario\"");
	leave();
}

static void test_events(void)
{
	struct scenario s;
	char *text;
	const char *p = "s.yaml";
	const struct scn_event *e;

	enter();
	put("s.yaml", HEAD "spec:\n"
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
			   "        merge: {metadata: {labels: {x: null}}, spec: {description: y}}\n"
			   "    - at: 1h\n"
			   "      status: {kind: Project, namespace: default, name: p, merge: {phase: "
			   "Ready}}\n"
			   "    - at: 3h\n"
			   "      delete: {apiVersion: v1, kind: Namespace, name: a}\n"
			   "---\n" NS("a") "---\n" PROJECT("p"));
	CU_ASSERT_EQUAL(load(&p, 1, &s, &text), 0);
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
	leave();
}

static void test_event_errors(void)
{
	enter();
	put("s.yaml", HEAD "spec:\n"
			   "  events:\n"
			   "    - at: 1m\n"
			   "      delete: {kind: Namespace, name: a}\n"
			   "      label: {kind: Namespace, name: a, set: {x: y}}\n"
			   "    - at: 1m\n"
			   "    - at: soon\n"
			   "      delete: {kind: Namespace, name: a}\n"
			   "    - at: 2m\n"
			   "      annotate: {kind: Namespace, name: ghost, set: {x: y}}\n"
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
		"commit, failNext, succeedNext, violate, reconcileRequest, approve\n"
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
	leave();
}

static void test_empty_and_broken_files(void)
{
	enter();
	put("s.yaml", HEAD "spec:\n  events:\n    - at: 90\n      delete: {kind: Namespace, name: a}\n");
	expect_diags("s.yaml",
		     "s.yaml:7:11: error: spec.events[0].at: Invalid value: 90: must be a duration "
		     "such as \"90s\", \"5m\" or \"1h30m\"\n"
		     "s.yaml:7:11: note: a duration needs a unit: ns, us, ms, s, m or h");
	put("empty.yaml", "# nothing here\n");
	expect_diags("empty.yaml",
		     "empty.yaml:1:1: error: no documents: the file is empty or holds only comments");
	leave();
}

static void test_upstream_samples(void)
{
	struct scenario s;
	char *text;
	char *dir = xasprintf("%s/../shared/fixtures/upstream/magos-samples", origin);
	const char *p = dir;

	enter();
	CU_ASSERT_EQUAL(load(&p, 1, &s, &text), 0);
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
	leave();
	free(dir);
}

static void test_loader_review_fixes(void)
{
	struct scenario s;
	const char *path = "s.yaml";
	char *got;

	enter();
	/* A positive duration below 1ms would truncate to 0 (the horizon then became 24h). */
	put("s.yaml", HEAD "spec:\n  horizon: 1us\n  api: {latency: 500us, reconcileDuration: 0s}\n"
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
		     "value: \"object\": until must be later than from");

	/* Go's duration limit is named; a seed too big for YAML gets the accepted range. */
	put("s.yaml", HEAD "spec:\n  seed: 9223372036854775808\n  horizon: 2562048h\n");
	expect_diags("s.yaml",
		     "s.yaml:6:9: error: spec.seed: Invalid value: \"number\": spec.seed in body "
		     "must be of type integer: 9223372036854775808\n"
		     "s.yaml:6:9: note: a seed is an integer from 0 to 9223372036854775807 (the "
		     "largest YAML integer)\n"
		     "s.yaml:7:12: error: spec.horizon: Invalid value: \"2562048h\": time: invalid "
		     "duration \"2562048h\": out of range, the maximum is 2562047h47m16.854775807s");

	/* Cluster-scoped kinds are named without a namespace. */
	put("s.yaml", HEAD "spec:\n  events:\n    - at: 1h\n"
			   "      delete: {kind: Namespace, namespace: x, name: nope}\n"
			   "    - at: 1h\n      label: {kind: ValidatingPolicy, name: p, set: {a: b}}\n");
	expect_diags("s.yaml",
		     "s.yaml:8:7: error: spec.events[0].delete: Namespace \"nope\" not found\n"
		     "s.yaml:8:7: note: no input defines it and no 'apply' event creates it earlier\n"
		     "s.yaml:10:7: error: spec.events[1].label: ValidatingPolicy \"p\" not found\n"
		     "s.yaml:10:7: note: no input defines it and no 'apply' event creates it earlier");

	/* An event on an object whose manifest was refused: the manifest's error only. */
	put("s.yaml", HEAD "spec:\n  events:\n    - at: 1h\n"
			   "      label: {kind: Namespace, name: Bad_1, set: {a: b}}\n"
			   "    - at: 1h\n      approve: {name: w}\n"
			   "---\n" NS("Bad_1") "---\n"
			   "apiVersion: magosproject.io/v1alpha1\nkind: Workspace\n"
			   "metadata: {name: w}\nspec: {}\n");
	CU_ASSERT_EQUAL(load(&path, 1, &s, &got), -1);
	CU_ASSERT_PTR_NULL(strstr(got, "not found"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "s.yaml:15:9: error: Namespace \"Bad_1\": metadata.name"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, "Workspace \"default/w\": spec.projectRef: Required value"));
	free(got);
	scn_release(&s);
	leave();
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
	{ "upstream samples load unchanged", test_upstream_samples },
	{ "sub-ms durations, ranges, scopes, refused targets", test_loader_review_fixes },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("scenario", tests);
}
