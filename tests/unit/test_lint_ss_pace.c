/*
 * The StageSet pacing rules of lint (sim/lint/lint_ss_pace.c, MS242..):
 * for each rule a manifest that triggers it, with the exact finding
 * (file:line:col, id, severity, message), and near misses that do not.
 *
 * Each manifest is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(); only lint_fleet() runs (it calls the pacing rules
 * for every FleetRollout whose waves it assigned, and MS244, MS245 for
 * every StageSet), and only the findings of
 * MS242..MS249 are compared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* The MS242..MS249 findings of lint_fleet() over @yaml as m.yaml, one line each (new). */
static char *pace_findings(const char *yaml)
{
	const char *path = "m.yaml";
	struct scenario s;
	struct diag d;
	struct lint_report r;
	char *out = xstrdup("");

	fx_tmp_enter("test_lint_ss_pace");
	fx_put(path, yaml);
	diag_init(&d);
	scn_load(&path, 1, &s, &d);
	lint_report_init(&r);
	lint_fleet(&r, &s);
	lint_report_sort(&r);
	for (size_t i = 0; i < r.n; i++) {
		const struct lint_finding *f = &r.items[i];
		char *next;

		if (strcmp(f->rule->id, "MS242") < 0 || strcmp(f->rule->id, "MS249") > 0)
			continue;
		next = xasprintf("%s%s%s:%u:%u: %s %s: %s", out, out[0] ? "\n" : "", f->file,
				 f->mark.line, f->mark.col, f->rule->id, lint_sev_name(f->sev),
				 f->msg);
		free(out);
		out = next;
	}
	lint_report_release(&r);
	scn_release(&s);
	diag_release(&d);
	fx_tmp_leave();
	return out;
}

/*
 * 21 new members at 3m1s a pass (1s apply, 3m readiness): the k-th first
 * pass starts at about k × 3m1s / 4 = k × 45.25s, so those from k = 14
 * (10m33.5s) start after a publish at 10m: 7 members of wave broad, which
 * opens no sooner than 10m + the canary's 1h soak.  %s: the publish time,
 * %s: the status of tenant-20 ("" or a status block), %s: targetVersion,
 * %s: a spec.api line or "".
 */
static char *fleet_api(const char *publish_at, const char *status, const char *target,
		       const char *api)
{
	return xasprintf(
		"apiVersion: magos-sim/v1alpha1\n"
		"kind: Scenario\n"
		"metadata: {name: pace}\n"
		"spec:\n"
		"  seed: 1\n"
		"  horizon: 4h\n"
		"%s"
		"  models:\n"
		"    stagesets:\n"
		"      readiness: {delay: 3m}\n"
		"  generate:\n"
		"    - count: 20\n"
		"      namespace: \"tenant-{i:02}\"\n"
		"      name: shop\n"
		"      labels: {app: shop}\n"
		"      labelMix:\n"
		"        - {labels: {ring: \"0\"}, weight: 1}\n"
		"        - {labels: {ring: \"1\"}, weight: 19}\n"
		"      template:\n"
		"        version: {value: \"1.0.0\", approvalMode: Always}\n"
		"        stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n"
		"  events:\n"
		"    - at: %s\n"
		"      publish: {selector: {matchLabels: {app: shop}}, version: \"1.1.0\"}\n"
		"---\n"
		"apiVersion: stages.metio.wtf/v1\n"
		"kind: StageSet\n"
		"metadata: {name: shop, namespace: tenant-20, labels: {app: shop, ring: \"1\"}}\n"
		"spec:\n"
		"  version: {value: \"1.0.0\", approvalMode: Always}\n"
		"  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n"
		"%s"
		"---\n"
		"apiVersion: stages.metio.wtf/v1\n"
		"kind: FleetRollout\n"
		"metadata: {name: shop}\n"
		"spec:\n"
		"  targetVersion: \"%s\"\n"
		"  selector: {matchLabels: {app: shop}}\n"
		"  waves:\n"
		"    - {name: canary, selector: {matchLabels: {ring: \"0\"}}, soak: 1h}\n"
		"    - {name: broad, selector: {matchLabels: {ring: \"1\"}}}\n",
		api, publish_at, status, target);
}

static char *fleet(const char *publish_at, const char *status, const char *target)
{
	return fleet_api(publish_at, status, target, "");
}

static void expect(const char *what, char *yaml, const char *want)
{
	char *got = pace_findings(yaml);

	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n--- %s: got\n%s\n--- want\n%s\n", what, got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
	free(yaml);
}

static void test_baseline_fires(void)
{
	expect("publish at 10m", fleet("10m", "", "1.1.0"),
	       "m.yaml:23:7: MS242 warning: FleetRollout shop: the publish of 1.1.0 at 10m0s "
	       "reaches members that have not adopted a version yet: the StageSet controller "
	       "gives each new StageSet a first pass on its 4 workers (3m1s a pass at the median "
	       "modelled durations, the last first pass starting about 15m5s after the start), "
	       "and a first version is never held for approval (approvalMode Always holds only a "
	       "change from a deployed version), so about 7 members of 1 later wave (e.g. "
	       "tenant-14/shop of wave \"broad\", which opens no sooner than 1h10m0s) take 1.1.0 "
	       "as their first version before their wave opens; publish after the members have "
	       "baselined (from about 15m50s here), or give them a status.version");
}

/* A member with a status.version is not new: its next version is held, and it takes no first pass. */
static void test_baseline_deployed(void)
{
	expect("publish at 10m, tenant-20 deployed",
	       fleet("10m", "status: {version: \"1.0.0\"}\n", "1.1.0"),
	       "m.yaml:23:7: MS242 warning: FleetRollout shop: the publish of 1.1.0 at 10m0s "
	       "reaches members that have not adopted a version yet: the StageSet controller "
	       "gives each new StageSet a first pass on its 4 workers (3m1s a pass at the median "
	       "modelled durations, the last first pass starting about 14m20s after the start), "
	       "and a first version is never held for approval (approvalMode Always holds only a "
	       "change from a deployed version), so about 6 members of 1 later wave (e.g. "
	       "tenant-14/shop of wave \"broad\", which opens no sooner than 1h10m0s) take 1.1.0 "
	       "as their first version before their wave opens; publish after the members have "
	       "baselined (from about 15m5s here), or give them a status.version");
}

/* Near misses: published after the last first pass, or a version the fleet does not roll out. */
static void test_baseline_near_miss(void)
{
	expect("publish at 16m", fleet("16m", "", "1.1.0"), "");
	expect("a pinned fleet of another version", fleet("10m", "", "1.2.0"), "");
}

/*
 * 20 broad members held from a publish at 1h (every first pass is over by
 * about 16m), each poll 10s: 20 × 10s = 3m20s a minute of the
 * workers' 4m (83%); at 5s, 1m40s (42%): nothing.
 */
static void test_held_polls(void)
{
	expect("20 held at 10s a pass", fleet_api("1h", "", "1.1.0", "  api: {reconcileDuration: 10s}\n"),
	       "m.yaml:24:7: MS243 warning: FleetRollout shop: the publish of 1.1.0 at 1h0m0s leaves "
	       "20 members of its later waves (e.g. tenant-01/shop) AwaitingApproval until their "
	       "wave opens, and the StageSet controller requeues each held member every 1m, "
	       "without jitter; each such pass holds a worker for spec.api.reconcileDuration 10s, "
	       "so they ask 3m20s of worker time a minute of the 4 workers' 4m0s (83%): every "
	       "other pass (the open wave's adoptions, retries, soak and window requeues) shares "
	       "the workers with them; hold fewer members at once (publish to a wave's members "
	       "when it opens, or split the fleet) or shorten the pass");
	expect("20 held at 5s a pass", fleet_api("1h", "", "1.1.0", "  api: {reconcileDuration: 5s}\n"),
	       "");
	expect("no reconcile duration", fleet("1h", "", "1.1.0"), "");
}

/* Two StageSets; %s: the dependent's namespace, %s: its dependsOn, %s: more spec lines. */
static char *deps(const char *ns, const char *dep, const char *more)
{
	return xasprintf("apiVersion: stages.metio.wtf/v1\n"
			 "kind: StageSet\n"
			 "metadata: {name: db, namespace: data}\n"
			 "spec:\n"
			 "  stages: [{name: db, sourceRef: {kind: GitRepository, name: db}}]\n"
			 "---\n"
			 "apiVersion: stages.metio.wtf/v1\n"
			 "kind: StageSet\n"
			 "metadata: {name: shop, namespace: %s}\n"
			 "spec:\n"
			 "%s"
			 "  dependsOn: [%s]\n"
			 "  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n",
			 ns, more, dep);
}

static void test_cross_namespace(void)
{
	expect("retryInterval 2m", deps("web", "{name: db, namespace: data}", "  retryInterval: 2m\n"),
	       "m.yaml:12:15: MS244 info: StageSet web/shop depends on data/db in another namespace: "
	       "the controller wakes a StageSet's dependents only in its own namespace, so shop sees "
	       "db become ready only at its next pass (its own retry after a DependencyNotReady "
	       "pass, up to 2m0s ±5% later: its retryInterval; or an event of its own), and stays "
	       "DependencyNotReady until then; keep the two in one namespace, or set a shorter "
	       "spec.retryInterval on shop (e.g. 30s)");
	expect("interval 20m", deps("web", "{name: db, namespace: data}", "  interval: 20m\n"),
	       "m.yaml:12:15: MS244 info: StageSet web/shop depends on data/db in another namespace: "
	       "the controller wakes a StageSet's dependents only in its own namespace, so shop sees "
	       "db become ready only at its next pass (its own retry after a DependencyNotReady "
	       "pass, up to 20m0s ±5% later: its interval, which retryInterval follows when unset; "
	       "or an event of its own), and stays DependencyNotReady until then; keep the two in "
	       "one namespace, or set a shorter spec.retryInterval on shop (e.g. 30s)");
	/* near misses: one namespace, spelt or not; no timed retry at all is MS225's */
	expect("same namespace", deps("data", "{name: db, namespace: data}", ""), "");
	expect("namespace omitted", deps("data", "{name: db}", ""), "");
	expect("retryInterval 0s", deps("web", "{name: db, namespace: data}", "  retryInterval: 0s\n"),
	       "");
}

/* A StageSet of namespace web reading GitRepository shop of namespace @ns (NULL: its own); @more: spec lines. */
static char *sourced(const char *ns, const char *more)
{
	return xasprintf("apiVersion: stages.metio.wtf/v1\n"
			 "kind: StageSet\n"
			 "metadata: {name: shop, namespace: web}\n"
			 "spec:\n"
			 "%s"
			 "  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop%s%s}}]\n",
			 more, ns ? ", namespace: " : "", ns ? ns : "");
}

static void test_cross_namespace_source(void)
{
	expect("interval 5m, retryInterval 1m", sourced("infra", "  interval: 5m\n  retryInterval: 1m\n"),
	       "m.yaml:7:35: MS245 info: StageSet web/shop stage \"app\" reads GitRepository "
	       "infra/shop in another namespace: a source wakes only the StageSets of its own "
	       "namespace, so shop sees a new revision of it, or the source ready again, only at "
	       "its next pass: up to 5m0s ±5% later when steady (its interval), up to 1m0s ±5% "
	       "later (its retryInterval) after a SourceNotReady hold; keep the source in the "
	       "StageSet's namespace, or shorten spec.interval and spec.retryInterval");
	expect("its own namespace, spelt", sourced("web", ""), "");
	expect("its own namespace, implied", sourced(NULL, ""), "");
}

static CU_TestInfo tests[] = {
	{ "MS242 a publish before the members baselined", test_baseline_fires },
	{ "MS242 a deployed member takes no first pass", test_baseline_deployed },
	{ "MS242 near misses", test_baseline_near_miss },
	{ "MS243 held members' polls", test_held_polls },
	{ "MS244 a dependency in another namespace", test_cross_namespace },
	{ "MS245 a source in another namespace", test_cross_namespace_source },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_pace", tests);
}
