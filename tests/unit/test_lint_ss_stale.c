/*
 * The stale-status lint rules (sim/lint/lint_ss_stale.c, MS262..MS267,
 * MS279, MS280):
 * the exact findings (line:col, id, severity, message) for a last stage's
 * soak, for rollbackOnFailure switched off under a Rollback gate, for a
 * stage removed during a held rollout, for an approval changed during the
 * approved one, for a version plan whose source cannot be fetched and for
 * an approval of a replaced version, for a pendingVersion a source outage
 * leaves behind, for an approval in a manifest reused, and the near misses where they must
 * stay quiet.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_stale() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_stale.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_stale", yaml, lint_ss_stale);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document with event lines EVENTS (lines 1-6, then the events). */
#define SCENARIO(events)                                                               \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 3h\n"                                                              \
	"  events:\n" events

/* StageSet shop/shop labelled app=shop with SPEC lines, then STAGES lines. */
#define SS(spec, stages)                                                               \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: shop, labels: {app: shop}}\n"               \
	"spec:\n" spec                                                                 \
	"  stages:\n" stages

#define PUBLISH_1H "    - {at: 1h, publish: {selector: {matchLabels: {app: shop}}, version: \"2.1.0\"}}\n"
#define OFF_20M                                                                        \
	"    - {at: 20m, patch: {kind: StageSet, namespace: shop, name: shop, merge: "    \
	"{spec: {rollbackOnFailure: false}}}}\n"
#define CANARY_ROLLBACK                                                                \
	"    - name: canary\n"                                                         \
	"      sourceRef: {kind: GitRepository, name: shop}\n"                         \
	"      promotion:\n"                                                           \
	"        restartGate:\n"                                                       \
	"          onFailure: Rollback\n"                                              \
	"          checks: [{name: crashes, selector: {matchLabels: {app: shop}}, maxRestarts: 1}]\n"

static void test_last_stage_soak(void)
{
	expect_lint(SCENARIO(PUBLISH_1H)
			    SS("  version: {value: \"2.0.0\"}\n",
			       "    - {name: canary, sourceRef: {kind: GitRepository, name: shop}}\n"
			       "    - name: prod\n"
			       "      sourceRef: {kind: GitRepository, name: shop}\n"
			       "      promotion: {soak: 45m}\n"),
		    "18:19: MS262 info: StageSet shop/shop: its last stage \"prod\" soaks 45m0s before "
		    "promotion, though no stage comes after it: status.version and status.lastAppliedRevisions "
		    "are written only by the success that follows the soak, so for 45m0s after each version has "
		    "been applied and verified on every stage they still name the version before it "
		    "(status.pendingVersion is already empty and Ready is False, Soaking), and whatever reads "
		    "status.version takes the StageSet for the old version");
	/* a soak on an earlier stage; a zero soak on the last */
	expect_lint(SCENARIO(PUBLISH_1H)
			    SS("",
			       "    - {name: canary, sourceRef: {kind: GitRepository, name: shop}, promotion: {soak: 1h}}\n"
			       "    - {name: prod, sourceRef: {kind: GitRepository, name: shop}, promotion: {soak: 0s}}\n"),
		    "");
}

static void test_stale_snapshot(void)
{
	expect_lint(SCENARIO(OFF_20M PUBLISH_1H) SS("  rollbackOnFailure: true\n", CANARY_ROLLBACK),
		    "7:12: MS263 warning: the patch event at 20m0s switches rollbackOnFailure off on StageSet "
		    "shop/shop, whose stage \"canary\" is rolled back on a failed restart check \"crashes\" "
		    "(onFailure Rollback): status.lastAppliedSnapshot is not cleared, and from then on no "
		    "success refreshes it, yet gate reverts still read it, so once a later version has been "
		    "adopted (the first: 2.1.0, published at 1h0m0s) a failed gate rolls \"canary\" back past "
		    "it, to the revision the last success before 20m0s recorded");
	/* never on; no Rollback gate; no later version */
	expect_lint(SCENARIO(OFF_20M PUBLISH_1H) SS("", CANARY_ROLLBACK), "");
	expect_lint(SCENARIO(OFF_20M PUBLISH_1H)
			    SS("  rollbackOnFailure: true\n",
			       "    - {name: canary, sourceRef: {kind: GitRepository, name: shop}}\n"),
		    "");
	expect_lint(SCENARIO(OFF_20M) SS("  rollbackOnFailure: true\n", CANARY_ROLLBACK), "");
}

#define THREE_STAGES                                                                   \
	"    - {name: canary, sourceRef: {kind: GitRepository, name: shop}}\n"           \
	"    - {name: legacy, sourceRef: {kind: GitRepository, name: shop}}\n"           \
	"    - {name: prod, sourceRef: {kind: GitRepository, name: shop}, promotion: {soak: 1h}}\n"
#define DROP_LEGACY(at)                                                                \
	"    - {at: " at ", patch: {kind: StageSet, namespace: shop, name: shop, merge: {spec: {stages: [" \
	"{name: canary, sourceRef: {kind: GitRepository, name: shop}}, "                \
	"{name: prod, sourceRef: {kind: GitRepository, name: shop}, promotion: {soak: 1h}}]}}}}\n"

/* MS262 of THREE_STAGES's prod (line 17 below the two events). */
#define PROD_SOAK_1H                                                                   \
	"17:78: MS262 info: StageSet shop/shop: its last stage \"prod\" soaks 1h0m0s before "     \
	"promotion, though no stage comes after it: status.version and status.lastAppliedRevisions " \
	"are written only by the success that follows the soak, so for 1h0m0s after each version has " \
	"been applied and verified on every stage they still name the version before it "           \
	"(status.pendingVersion is already empty and Ready is False, Soaking), and whatever reads "   \
	"status.version takes the StageSet for the old version"

static void test_removed_stage(void)
{
	expect_lint(SCENARIO(PUBLISH_1H DROP_LEGACY("1h20m")) SS("", THREE_STAGES),
		    "8:12: MS264 warning: the patch event at 1h20m0s removes stage \"legacy\" from StageSet "
		    "shop/shop while 2.1.0 (published at 1h0m0s) cannot yet have passed the promotion soaks of "
		    "the stages it keeps (prod 1h0m0s: not before 2h0m0s): the controller deletes a removed "
		    "stage's objects only at a full success, so \"legacy\"'s objects stay in the cluster until "
		    "that rollout completes, though status.stages drops \"legacy\" at once\n"
		    PROD_SOAK_1H);
	/* the soak over by the removal; the removal before the publish: prod's soak alone is told */
	expect_lint(SCENARIO(PUBLISH_1H DROP_LEGACY("2h")) SS("", THREE_STAGES), PROD_SOAK_1H);
	expect_lint(SCENARIO(PUBLISH_1H DROP_LEGACY("50m")) SS("", THREE_STAGES), PROD_SOAK_1H);
}

#define APPROVE(at, v)                                                                 \
	"    - {at: " at ", annotate: {kind: StageSet, namespace: shop, name: shop, set: "   \
	"{stages.metio.wtf/approved-version: \"" v "\"}}}\n"
#define ALWAYS "  version: {value: \"2.0.0\", approvalMode: Always}\n"
#define CANARY_SOAK                                                                    \
	"    - {name: canary, sourceRef: {kind: GitRepository, name: shop}, promotion: {soak: 1h}}\n" \
	"    - {name: prod, sourceRef: {kind: GitRepository, name: shop}}\n"

static void test_approval_rehold(void)
{
	expect_lint(SCENARIO(PUBLISH_1H APPROVE("1h10m", "2.1.0") APPROVE("1h40m", "2.2.0")) SS(ALWAYS, CANARY_SOAK),
		    "9:12: MS265 warning: the annotate event at 1h40m0s sets stages.metio.wtf/approved-version to "
		    "\"2.2.0\" on StageSet shop/shop (approvalMode Always) while 2.1.0, approved at 1h10m0s and "
		    "published at 1h0m0s, cannot yet have passed its promotion soaks (canary 1h0m0s: not before "
		    "2h10m0s): the approval gate runs on every pass, before the stages, so the next pass holds "
		    "2.1.0 AwaitingApproval half-applied, the stages it reached running it and the later ones "
		    "the old version, until \"2.1.0\" is approved again or another version comes");
	/* approved once the soaks are over; the same value again; never approved the published one */
	expect_lint(SCENARIO(PUBLISH_1H APPROVE("1h10m", "2.1.0") APPROVE("2h20m", "2.2.0")) SS(ALWAYS, CANARY_SOAK),
		    "");
	expect_lint(SCENARIO(PUBLISH_1H APPROVE("1h10m", "2.1.0") APPROVE("1h40m", "2.1.0")) SS(ALWAYS, CANARY_SOAK),
		    "");
	expect_lint(SCENARIO(PUBLISH_1H APPROVE("1h10m", "2.0.1") APPROVE("1h40m", "2.2.0")) SS(ALWAYS, CANARY_SOAK),
		    "");
}

/* The Scenario document with the sources model SOURCES (lines 1-7). */
#define SOURCES(sources)                                                               \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 3h\n"                                                              \
	"  models:\n"                                                                  \
	"    sources: [" sources "]\n"
#define APP_STAGE "    - {name: app, sourceRef: {kind: GitRepository, name: shop}}\n"

static void test_silent_plan_error(void)
{
	expect_lint(SOURCES("{name: shop, fetchErrors: [{from: 1h, until: 1h40m}, {from: 2h}]}")
			    SS("  version: {fromArtifact: {stage: app, path: VERSION}}\n", APP_STAGE),
		    "9:1: MS266 warning: StageSet shop/shop reads its version from stage \"app\"'s artifact "
		    "(GitRepository shop/shop), which the sources model cannot fetch from 1h0m0s until 1h40m0s "
		    "and from 2h0m0s on: every pass then fails at the version plan with a transient error, which "
		    "writes nothing, so its status (Ready, its message, observedGeneration, pendingVersion) goes "
		    "on saying what the last pass before said while the controller retries in error back-off "
		    "(5ms doubling up to 16m40s)");
	/* an inline version; another source's outage; a source the inputs hold */
	expect_lint(SOURCES("{name: shop, fetchErrors: [{from: 1h}]}") SS("  version: {value: \"1.0.0\"}\n", APP_STAGE),
		    "");
	expect_lint(SOURCES("{name: other, fetchErrors: [{from: 1h}]}")
			    SS("  version: {fromArtifact: {stage: app, path: VERSION}}\n", APP_STAGE),
		    "");
	expect_lint(SOURCES("{name: shop, fetchErrors: [{from: 1h}]}")
			    SS("  version: {fromArtifact: {stage: app, path: VERSION}}\n", APP_STAGE)
			    "---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\n"
			    "metadata: {name: shop, namespace: shop}\nspec: {url: https://example.com/shop, interval: 1m}\n",
		    "");
}

#define PUBLISH_1H20M "    - {at: 1h20m, publish: {selector: {matchLabels: {app: shop}}, version: \"2.2.0\"}}\n"

static void test_stale_approval(void)
{
	expect_lint(SCENARIO(PUBLISH_1H PUBLISH_1H20M APPROVE("1h30m", "2.1.0"))
			    SS(ALWAYS, "    - {name: app, sourceRef: {kind: GitRepository, name: shop}}\n"),
		    "9:12: MS267 warning: the annotate event at 1h30m0s approves 2.1.0 on StageSet shop/shop "
		    "(approvalMode Always), published at 1h0m0s, but 2.2.0, published at 1h20m0s, replaced it "
		    "before the approval: the approval gate compares stages.metio.wtf/approved-version with the "
		    "version the source offers now, exactly, so this approval approves nothing pending and 2.2.0 "
		    "stays held AwaitingApproval");
	/* the version held; approved before the newer one; approvalMode OnMigrations */
	expect_lint(SCENARIO(PUBLISH_1H PUBLISH_1H20M APPROVE("1h30m", "2.2.0"))
			    SS(ALWAYS, "    - {name: app, sourceRef: {kind: GitRepository, name: shop}}\n"),
		    "");
	expect_lint(SCENARIO(PUBLISH_1H APPROVE("1h10m", "2.1.0") PUBLISH_1H20M)
			    SS(ALWAYS, "    - {name: app, sourceRef: {kind: GitRepository, name: shop}}\n"),
		    "");
	expect_lint(SCENARIO(PUBLISH_1H PUBLISH_1H20M APPROVE("1h30m", "2.1.0"))
			    SS("  version: {value: \"2.0.0\", approvalMode: OnMigrations}\n",
			       "    - {name: app, sourceRef: {kind: GitRepository, name: shop}}\n"),
		    "");
}

/* The Scenario document with the sources model SOURCES and event lines EVENTS (lines 1-8, then the events). */
#define SOURCES_EVENTS(sources, events)                                                \
	SOURCES(sources) "  events:\n" events
#define NOT_READY "{name: shop, notReady: [{from: 1h20m, until: 2h}]}"

/* StageSet shop/db labelled app=db, with SPEC lines and a stage "schema" soaking 30m (after SS). */
#define DB(spec)                                                                       \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: db, namespace: shop, labels: {app: db}}\n"                   \
	"spec:\n" spec                                                                 \
	"  stages:\n"                                                                  \
	"    - {name: schema, sourceRef: {kind: GitRepository, name: db}, promotion: {soak: 30m}}\n"
#define DB_SOAK                                                                        \
	"25:78: MS262 info: StageSet shop/db: its last stage \"schema\" soaks 30m0s before "     \
	"promotion, though no stage comes after it: status.version and status.lastAppliedRevisions " \
	"are written only by the success that follows the soak, so for 30m0s after each version has " \
	"been applied and verified on every stage they still name the version before it "           \
	"(status.pendingVersion is already empty and Ready is False, Soaking), and whatever reads "   \
	"status.version takes the StageSet for the old version"
#define KUBECONFIG "  kubeConfig: {secretRef: {name: kc}}\n"
#define DELETE_KC(at) "    - {at: " at ", delete: {kind: Secret, namespace: shop, name: kc}}\n"

static void test_pending_after_exit(void)
{
	expect_lint(SOURCES_EVENTS(NOT_READY, PUBLISH_1H APPROVE("1h30m", "2.1.0")) SS(ALWAYS, APP_STAGE),
		    "7:15: MS279 warning: 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet "
		    "shop/shop (approvalMode Always), which writes status.pendingVersion 2.1.0; then the "
		    "sources model makes stage \"app\"'s GitRepository shop/shop not Ready from 1h20m0s until "
		    "2h0m0s: those passes stop at source resolution (SourceNotReady), before the approval gate, "
		    "the one writer of pendingVersion, so status.pendingVersion goes on naming 2.1.0 beside "
		    "Ready False SourceNotReady, also once the approval at 1h30m0s has come, until a pass gets "
		    "through again; an API error reading the StageLedger or the StageInventory "
		    "(ledgerErrors, MS283) writes no status at all");
	expect_lint(SOURCES_EVENTS("{name: shop, forbidden: [{from: 1h20m}]}", PUBLISH_1H) SS(ALWAYS, APP_STAGE),
		    "7:15: MS279 warning: 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet "
		    "shop/shop (approvalMode Always), which writes status.pendingVersion 2.1.0; then the "
		    "sources model makes stage \"app\"'s GitRepository shop/shop unreadable (Forbidden) from "
		    "1h20m0s on: those passes stop at source resolution (RBACDenied), before the approval gate, "
		    "the one writer of pendingVersion, so status.pendingVersion goes on naming 2.1.0 beside "
		    "Ready False RBACDenied until a pass gets through again; an API error reading the "
		    "StageLedger or the StageInventory (ledgerErrors, MS283) writes no status at all");
	expect_lint(SCENARIO(PUBLISH_1H DELETE_KC("1h20m")) SS(ALWAYS KUBECONFIG, APP_STAGE),
		    "8:12: MS279 warning: 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet "
		    "shop/shop (approvalMode Always), which writes status.pendingVersion 2.1.0; then the delete "
		    "event at 1h20m0s removes Secret shop/kc, which spec.kubeConfig.secretRef names, for the "
		    "rest of the run: those passes fail to connect to the target cluster (StageFailed), before "
		    "the approval gate, the one writer of pendingVersion, so status.pendingVersion goes on "
		    "naming 2.1.0 beside Ready False StageFailed until a pass gets through again; an API "
		    "error reading the StageLedger or the StageInventory (ledgerErrors, MS283) writes no status at all");
	expect_lint(SCENARIO(PUBLISH_1H "    - {at: 1h20m, publish: {selector: {matchLabels: {app: db}}, version: \"3.1.0\"}}\n")
			    SS(ALWAYS "  dependsOn: [{name: db}]\n", APP_STAGE) DB("  version: {value: \"3.0.0\"}\n"),
		    "15:15: MS279 warning: 2.1.0, published at 1h0m0s, is held AwaitingApproval on StageSet "
		    "shop/shop (approvalMode Always), which writes status.pendingVersion 2.1.0; then scenario "
		    "event 2 at 1h20m0s publishes 3.1.0 to its dependency shop/db alone, which is not ready while "
		    "it rolls that version out, soaking it for at least 30m0s (schema 30m0s): those passes stop "
		    "at the dependency check (DependencyNotReady), before the approval gate, the one writer of "
		    "pendingVersion, so status.pendingVersion goes on naming 2.1.0 beside Ready False "
		    "DependencyNotReady until a pass gets through again; an API error reading the "
		    "StageLedger or the StageInventory (ledgerErrors, MS283) writes no status at all\n"
		    DB_SOAK);
	/* a publish that reaches both; a dependency with nothing that holds it long */
	expect_lint(SCENARIO(PUBLISH_1H "    - {at: 1h20m, publish: {selector: {}, version: \"3.1.0\"}}\n")
			    SS(ALWAYS "  dependsOn: [{name: db}]\n", APP_STAGE) DB("  version: {value: \"3.0.0\"}\n"),
		    DB_SOAK);
	expect_lint(SCENARIO(PUBLISH_1H "    - {at: 1h20m, publish: {selector: {matchLabels: {app: db}}, version: \"3.1.0\"}}\n")
			    SS(ALWAYS "  dependsOn: [{name: db}]\n", APP_STAGE)
			    "---\napiVersion: stages.metio.wtf/v1\nkind: StageSet\n"
			    "metadata: {name: db, namespace: shop, labels: {app: db}}\n"
			    "spec:\n  stages: [{name: schema, sourceRef: {kind: GitRepository, name: db}}]\n",
		    "");
	/* the Secret deleted before the publish; the decryption Secret, read after the gate */
	expect_lint(SCENARIO(DELETE_KC("50m") PUBLISH_1H) SS(ALWAYS KUBECONFIG, APP_STAGE), "");
	expect_lint(SCENARIO(PUBLISH_1H DELETE_KC("1h20m"))
			    SS(ALWAYS "  decryption: {provider: sops, secretRef: {name: kc}}\n", APP_STAGE),
		    "");
	/* approved before the outage; the outage before the publish; approved ahead; not Always */
	expect_lint(SOURCES_EVENTS(NOT_READY, PUBLISH_1H APPROVE("1h10m", "2.1.0")) SS(ALWAYS, APP_STAGE), "");
	expect_lint(SOURCES_EVENTS("{name: shop, notReady: [{from: 50m, until: 2h}]}", PUBLISH_1H)
			    SS(ALWAYS, APP_STAGE),
		    "");
	expect_lint(SOURCES_EVENTS(NOT_READY, APPROVE("30m", "2.1.0") PUBLISH_1H) SS(ALWAYS, APP_STAGE), "");
	expect_lint(SOURCES_EVENTS(NOT_READY, PUBLISH_1H)
			    SS("  version: {value: \"2.0.0\", approvalMode: OnMigrations}\n", APP_STAGE),
		    "");
}

/* StageSet shop/shop as SS, with approved-version V in its manifest's annotations. */
#define SS_APPROVED(v, spec, stages)                                                   \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata:\n"                                                                  \
	"  name: shop\n"                                                               \
	"  namespace: shop\n"                                                          \
	"  labels: {app: shop}\n"                                                      \
	"  annotations: {stages.metio.wtf/approved-version: \"" v "\"}\n"              \
	"spec:\n" spec                                                                 \
	"  stages:\n" stages

static void test_approval_reused(void)
{
	expect_lint(SCENARIO(PUBLISH_1H) SS_APPROVED("2.1.0", ALWAYS, APP_STAGE),
		    "15:52: MS280 warning: StageSet shop/shop (approvalMode Always) comes with "
		    "stages.metio.wtf/approved-version \"2.1.0\" in its manifest, an approval from before, while "
		    "its spec.version.value is 2.0.0: its first pass adopts 2.0.0 without asking (a first "
		    "adoption is never held), and the controller never clears the annotation, so when 2.1.0 is "
		    "published at 1h0m0s the old approval lets the transition 2.0.0 to 2.1.0 through with nobody "
		    "approving it");
	/* the version it starts at; approved again by an event; never published; a version from an
	 * artifact; not Always */
	expect_lint(SCENARIO(PUBLISH_1H) SS_APPROVED("2.0.0", ALWAYS, APP_STAGE), "");
	expect_lint(SCENARIO(APPROVE("30m", "2.1.0") PUBLISH_1H) SS_APPROVED("2.1.0", ALWAYS, APP_STAGE), "");
	expect_lint(SCENARIO(PUBLISH_1H) SS_APPROVED("2.2.0", ALWAYS, APP_STAGE), "");
	expect_lint(SCENARIO(PUBLISH_1H)
			    SS_APPROVED("2.1.0", "  version: {fromArtifact: {stage: app, path: VERSION}, approvalMode: Always}\n",
					APP_STAGE),
		    "");
	expect_lint(SCENARIO(PUBLISH_1H)
			    SS_APPROVED("2.1.0", "  version: {value: \"2.0.0\", approvalMode: OnMigrations}\n", APP_STAGE),
		    "");
}

#define PUB(at, v) "    - {at: " at ", publish: {selector: {matchLabels: {app: shop}}, version: \"" v "\"}}\n"
#define MODE(at, m)                                                                    \
	"    - {at: " at ", patch: {kind: StageSet, namespace: shop, name: shop, merge: "  \
	"{spec: {version: {approvalMode: " m "}}}}}\n"
#define BACK_EVENTS(extra)                                                             \
	PUB("30m", "2.1.0") APPROVE("35m", "2.1.0") extra MODE("1h", "Never") PUB("1h10m", "2.0.1") \
	MODE("1h30m", "Always") PUB("2h", "2.1.0")
#define ALWAYS_DOWN "  version: {value: \"2.0.0\", approvalMode: Always, allowDowngrade: true}\n"

static void test_approval_comes_back(void)
{
	expect_lint(SCENARIO(BACK_EVENTS("")) SS(ALWAYS_DOWN, APP_STAGE),
		    "12:16: MS280 warning: the publish at 2h0m0s offers 2.1.0 again to StageSet shop/shop, whose "
		    "approvalMode is Always again (the patch at 1h30m0s), while stages.metio.wtf/approved-version "
		    "still says \"2.1.0\" from 35m0s: 2.1.0, adopted with that approval (published at 30m0s), gave "
		    "way to 2.0.1, published at 1h10m0s while approvalMode was Never (the patch at 1h0m0s) and "
		    "adopted without an approval, and the controller never clears the annotation, so the old "
		    "approval lets the transition 2.0.1 to 2.1.0 through with nobody approving it");
	/* the approval removed once adopted; a downgrade refused (no allowDowngrade); approvalMode left
	 * off */
	expect_lint(SCENARIO(BACK_EVENTS("    - {at: 40m, annotate: {kind: StageSet, namespace: shop, name: shop, "
					 "remove: [stages.metio.wtf/approved-version]}}\n"))
			    SS(ALWAYS_DOWN, APP_STAGE),
		    "");
	expect_lint(SCENARIO(BACK_EVENTS("")) SS(ALWAYS, APP_STAGE), "");
	expect_lint(SCENARIO(PUB("30m", "2.1.0") APPROVE("35m", "2.1.0") MODE("1h", "Never") PUB("1h10m", "2.0.1")
				     PUB("2h", "2.1.0"))
			    SS(ALWAYS_DOWN, APP_STAGE),
		    "");
}

static CU_TestInfo tests[] = {
	{ "MS262 a soak on the last stage, not on an earlier one", test_last_stage_soak },
	{ "MS263 rollbackOnFailure off under a Rollback gate, with a later version", test_stale_snapshot },
	{ "MS264 a stage removed while a publish is held at the soaks kept", test_removed_stage },
	{ "MS265 approved-version changed while the approved transition soaks", test_approval_rehold },
	{ "MS266 the version plan's source unfetchable for a while", test_silent_plan_error },
	{ "MS267 an approval of a version replaced before it", test_stale_approval },
	{ "MS279 a held version's pendingVersion through a source outage, a deleted kubeconfig, a dependency",
	  test_pending_after_exit },
	{ "MS280 an approval in the manifest reused by a later publish", test_approval_reused },
	{ "MS280 an approved version that comes back after approvalMode was off", test_approval_comes_back },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_stale", tests);
}
