/*
 * The StageSet ledger rules of lint (sim/lint/lint_ss_ledgers.c,
 * MS252..MS258, MS275, MS277, MS278): for each rule a manifest that triggers it, with the exact
 * finding (line:col, id, severity, message), and the near misses that must
 * not.  Only lint_ss_ledgers() runs (fx_lint_yaml); each test keeps the
 * findings of its own rule.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

/* The findings of rule @rule for @yaml, one a line (new). */
static char *lint_of(const char *rule, const char *yaml)
{
	char *all = fx_lint_yaml("test_lint_ss_ledgers", yaml, lint_ss_ledgers);
	char *out = xstrdup(""), *save = NULL;

	for (char *line = strtok_r(all, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *next;

		if (!strstr(line, rule))
			continue;
		next = xasprintf("%s%s%s", out, out[0] ? "\n" : "", line);
		free(out);
		out = next;
	}
	free(all);
	return out;
}

static void expect(const char *rule, const char *yaml, const char *want)
{
	char *got = lint_of(rule, yaml);

	fx_same_text(got, want);
	free(got);
}

#define HEAD                                                                                       \
	"apiVersion: magos-sim/v1alpha1\n"                                                         \
	"kind: Scenario\n"                                                                         \
	"metadata: {name: t}\n"                                                                    \
	"spec:\n"

/* StageSet shop/shop with spec @extra, a first stage "staging" with @stage0, and "prod". */
#define STAGESET(annotations, extra, stage0)                                                       \
	"---\n"                                                                                    \
	"apiVersion: stages.metio.wtf/v1\n"                                                        \
	"kind: StageSet\n"                                                                         \
	"metadata: {name: shop, namespace: shop, labels: {app: shop}" annotations "}\n"            \
	"spec:\n" extra "  stages:\n"                                                              \
	"    - name: staging\n"                                                                    \
	"      sourceRef: {kind: GitRepository, name: shop}\n" stage0                              \
	"    - name: prod\n"                                                                       \
	"      sourceRef: {kind: GitRepository, name: shop}\n"

#define PROMOTE_AT_10M                                                                             \
	"    - at: 10m\n"                                                                          \
	"      annotate: {kind: StageSet, namespace: shop, name: shop, set: "                      \
	"{stages.metio.wtf/promote: \"staging@t1\"}}\n"
#define PUBLISH_AT_1H "    - {at: 1h, publish: {selector: {matchLabels: {app: shop}}, version: \"2.1.0\"}}\n"
#define OUTAGE "  models: {stagesets: {apply: {failure: {during: [{from: 1h, until: 1h5m}]}}}}\n"
#define MANUAL "      promotion: {requireManualPromotion: true}\n"

#define REPLAY_TAIL                                                                                \
	": a failed stage's status entry is written without lastHandledPromotion while the "       \
	"annotation stays, so when that stage fails on a later revision (2.1.0, published at "     \
	"1h0m0s) the pass after the failure takes this handled token as fresh and promotes that "  \
	"revision past the gate with no operator"

static void test_promote_replay(void)
{
	expect("MS252", HEAD OUTAGE "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", MANUAL),
	       "7:11: MS252 warning: the annotate event at 10m0s stamps stages.metio.wtf/promote "
	       "\"staging@t1\" on StageSet shop/shop, whose stage \"staging\" holds each revision at its "
	       "promotion gate (manual promotion), and its apply can fail at \"apply\" (apply.failure, "
	       "probability 1 per apply from 1h0m0s until 1h5m0s)" REPLAY_TAIL);
	expect("MS252",
	       HEAD "  models: {stagesets: {readiness: {failedProbability: 0.2}}}\n  events:\n" PUBLISH_AT_1H
		    STAGESET(", annotations: {stages.metio.wtf/promote: \"staging@t0\"}", "",
			     "      promotion: {soak: 1h}\n"),
	       "9:1: MS252 warning: the manifest at 0s stamps stages.metio.wtf/promote \"staging@t0\" on "
	       "StageSet shop/shop, whose stage \"staging\" holds each revision at its promotion gate "
	       "(soak 1h0m0s), and its objects can become Failed after an apply "
	       "(readiness.failedProbability 0.2)" REPLAY_TAIL);
	/* near misses */
	expect("MS252", HEAD "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", MANUAL), "");
	expect("MS252", HEAD OUTAGE "  events:\n" PROMOTE_AT_10M STAGESET("", "", MANUAL), ""); /* no later revision */
	expect("MS252", HEAD OUTAGE "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", ""), ""); /* no gate */
	expect("MS252",
	       HEAD "  models: {stagesets: {apply: {failure: {during: [{from: 0s, until: 5m}]}}}}\n"
		    "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", MANUAL),
	       ""); /* the failures end before the later revision */
	expect("MS252",
	       HEAD OUTAGE "  events:\n"
		    "    - at: 10m\n"
		    "      annotate: {kind: StageSet, namespace: shop, name: shop, set: "
		    "{stages.metio.wtf/promote: \"staging\"}}\n" PUBLISH_AT_1H STAGESET("", "", MANUAL),
	       ""); /* no '@': parsePromote ignores it */
	expect("MS252",
	       HEAD "  models: {stagesets: {apply: {failure: {class: forbidden}}}}\n"
		    "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", MANUAL),
	       ""); /* a terminal failure is MS227's */
}

#define SLOW "  models: {stagesets: {readiness: {delay: 1m}}}\n"
#define MANUAL_30S "      timeout: 30s\n" MANUAL

static void test_promote_progress(void)
{
	expect("MS257", HEAD SLOW "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", MANUAL_30S),
	       "7:11: MS257 warning: the annotate event at 10m0s stamps stages.metio.wtf/promote "
	       "\"staging@t1\" on StageSet shop/shop, whose stage \"staging\" holds each revision at its "
	       "promotion gate (manual promotion), and its objects can take 1m0s to become ready "
	       "(readiness.delay, 99th percentile), longer than its 30s verify timeout, whose end holds the "
	       "stage StageProgressing until a retry finds it ready: the progress hold writes the stage's "
	       "status entry without lastHandledPromotion while the annotation stays, so when a later "
	       "revision (2.1.0, published at 1h0m0s) outlasts the timeout there the retry that finds it "
	       "ready takes this handled token as fresh and promotes that revision past the gate with no "
	       "operator");
	expect("MS257",
	       HEAD SLOW "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H
		    STAGESET("", "  timeout: 45s\n", "      promotion: {soak: 1h}\n"),
	       "7:11: MS257 warning: the annotate event at 10m0s stamps stages.metio.wtf/promote "
	       "\"staging@t1\" on StageSet shop/shop, whose stage \"staging\" holds each revision at its "
	       "promotion gate (soak 1h0m0s), and its objects can take 1m0s to become ready "
	       "(readiness.delay, 99th percentile), longer than its 45s verify timeout, whose end holds the "
	       "stage StageProgressing until a retry finds it ready: the progress hold writes the stage's "
	       "status entry without lastHandledPromotion while the annotation stays, so when a later "
	       "revision (2.1.0, published at 1h0m0s) outlasts the timeout there the retry that finds it "
	       "ready takes this handled token as fresh and promotes that revision past the gate with no "
	       "operator"); /* the StageSet's timeout */
	/* near misses */
	expect("MS257", HEAD SLOW "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H
		   STAGESET("", "", "      timeout: 2m\n" MANUAL), ""); /* the pods meet the timeout */
	expect("MS257", HEAD SLOW "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H
		   STAGESET("", "", "      onTimeout: Rollback\n" MANUAL_30S), ""); /* a failure: MS252's */
	expect("MS257", HEAD SLOW "  events:\n" PROMOTE_AT_10M STAGESET("", "", MANUAL_30S), ""); /* no later revision */
	expect("MS257", HEAD SLOW "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", "      timeout: 30s\n"),
	       ""); /* no gate */
	expect("MS257",
	       HEAD "  models: {stagesets: {readiness: {delay: 1m, neverProbability: 1}}}\n"
		    "  events:\n" PROMOTE_AT_10M PUBLISH_AT_1H STAGESET("", "", MANUAL_30S),
	       ""); /* never ready: no retry passes the gate */
}

#define SECRET_EVENTS                                                                              \
	"  events:\n"                                                                              \
	"    - {at: 30m, delete: {kind: Secret, namespace: shop, name: kc}}\n"                     \
	"    - at: 35m\n"                                                                          \
	"      apply: {apiVersion: v1, kind: Secret, metadata: {name: kc, namespace: shop}, "      \
	"stringData: {value: x}}\n"
#define SEED                                                                                       \
	"      actions: {post: [{name: seed, http: {url: \"http://seed.shop.svc/\"}}]}\n"
#define KUBECONFIG "  kubeConfig: {secretRef: {name: kc}}\n"

static void test_preloop_wipe(void)
{
	expect("MS253", HEAD SECRET_EVENTS STAGESET("", KUBECONFIG, SEED "      promotion: {soak: 30m}\n"),
	       "6:12: MS253 warning: the delete event at 30m0s removes Secret shop/kc, which StageSet "
	       "shop/shop reads before its stages (spec.kubeConfig.secretRef): a pass while it is gone "
	       "fails before the stage loop, and that failure writes the first stage \"staging\" with "
	       "empty ledgers and no applied revision, so once the Secret is back (the apply at 35m0s "
	       "brings it back) its completed Revision-scoped action \"seed\" runs again and its 30m0s "
	       "soak starts over");
	expect("MS253",
	       HEAD "  events:\n    - {at: 30m, delete: {kind: Secret, namespace: shop, name: age}}\n" STAGESET(
		       "", "  decryption: {provider: sops, secretRef: {name: age}}\n", "      promotion: {soak: 1h}\n"),
	       "6:12: MS253 warning: the delete event at 30m0s removes Secret shop/age, which StageSet "
	       "shop/shop reads before its stages (spec.decryption.secretRef): a pass while it is gone "
	       "fails before the stage loop, and that failure writes the first stage \"staging\" with "
	       "empty ledgers and no applied revision, so once the Secret is back its 1h0m0s soak starts "
	       "over");
	/* near misses */
	expect("MS253", HEAD SECRET_EVENTS STAGESET("", "", SEED), ""); /* the StageSet reads no Secret */
	expect("MS253", HEAD SECRET_EVENTS STAGESET("", KUBECONFIG, ""), ""); /* nothing to wipe */
	expect("MS253",
	       HEAD SECRET_EVENTS STAGESET("", KUBECONFIG,
					   "      actions: {post: [{name: seed, scope: Lifetime, http: "
					   "{url: \"http://seed.shop.svc/\"}}]}\n"),
	       ""); /* a Lifetime action keeps its own ledger */
	expect("MS253",
	       HEAD "  events:\n    - {at: 30m, delete: {kind: Secret, namespace: other, name: kc}}\n" STAGESET(
		       "", KUBECONFIG, SEED),
	       ""); /* another namespace's Secret */
}

#define PAGE "      actions: {onFailure: [{name: page, http: {url: \"http://pager.shop.svc/\"}}]}\n"

static void test_on_failure_once(void)
{
	expect("MS254", HEAD OUTAGE STAGESET("", "", PAGE),
	       "14:17: MS254 warning: StageSet shop/shop: stage \"staging\" has onFailure action \"page\" "
	       "and its apply can fail at \"apply\" (apply.failure, probability 1 per apply from 1h0m0s "
	       "until 1h5m0s): onFailure's completions are recorded in the revision's ledger, so they "
	       "run at the first failure of each revision only; the retries that fail the same revision "
	       "again (error back-off, 5ms doubling up to 16m40s) run no onFailure");
	expect("MS254",
	       HEAD "  models: {stagesets: {actions: [{name: smoke, phase: post, failure: {probability: 0.1}}]}}\n"
		    STAGESET("", "",
			     "      actions:\n"
			     "        post: [{name: smoke, http: {url: \"http://smoke.shop.svc/\"}}]\n"
			     "        onFailure: [{name: page, http: {url: \"http://pager.shop.svc/\"}}, "
			     "{name: ticket, http: {url: \"http://tickets.shop.svc/\"}}]\n"),
	       "16:9: MS254 warning: StageSet shop/shop: stage \"staging\" has onFailure actions \"page\" "
	       "and more and its post action \"smoke\" can fail (probability 0.1 per attempt): onFailure's "
	       "completions are recorded in the revision's ledger, so they run at the first failure of "
	       "each revision only; the retries that fail the same revision again (error back-off, 5ms "
	       "doubling up to 16m40s) run no onFailure");
	/* near misses */
	expect("MS254", HEAD STAGESET("", "", PAGE), ""); /* nothing fails */
	expect("MS254", HEAD "  models: {stagesets: {apply: {failure: {class: forbidden}}}}\n" STAGESET("", "", PAGE),
	       ""); /* terminal: not retried */
	expect("MS254", HEAD OUTAGE STAGESET("", "", ""), ""); /* no onFailure */
}

static void test_suspend_generation(void)
{
	expect("MS255",
	       HEAD "  events:\n"
		    "    - {at: 1h, patch: {kind: StageSet, namespace: shop, name: shop, merge: {spec: {suspend: true}}}}\n"
		    STAGESET("", "", ""),
	       "6:12: MS255 info: the patch event at 1h0m0s suspends StageSet shop/shop (spec.suspend true): the "
	       "Suspended pass writes the Ready condition (with the current generation on the condition) but "
	       "leaves status.observedGeneration at the generation the controller last reconciled, while the "
	       "suspend, a spec edit, raised metadata.generation: readers that trust a status only while "
	       "status.observedGeneration equals metadata.generation (kstatus, a Flux Kustomization's health "
	       "check, kubectl wait on observedGeneration) see it in progress, not suspended, for as long as it "
	       "stays suspended");
	expect("MS255", HEAD STAGESET("", "  suspend: true\n", ""),
	       "10:12: MS255 info: StageSet shop/shop is suspended from the start (spec.suspend true): its "
	       "Suspended passes write the Ready condition alone, never status.observedGeneration, which does "
	       "not reach metadata.generation until it is resumed: readers that trust a status only while "
	       "status.observedGeneration equals metadata.generation (kstatus, a Flux Kustomization's health "
	       "check, kubectl wait on observedGeneration) see it in progress, not suspended, for as long as it "
	       "stays suspended");
	/* near misses */
	expect("MS255", HEAD STAGESET("", "  suspend: false\n", ""), "");
	expect("MS255",
	       HEAD "  events:\n"
		    "    - {at: 1h, patch: {kind: StageSet, namespace: shop, name: shop, merge: {spec: {suspend: false}}}}\n"
		    "    - {at: 1h, patch: {kind: StageSet, namespace: shop, name: other, merge: {spec: {suspend: true}}}}\n"
		    STAGESET("", "", ""),
	       ""); /* a resume, and another StageSet's suspend */
}

#define PODS(at)                                                                                   \
	"  models:\n"                                                                               \
	"    stagesets:\n"                                                                          \
	"      pods: [{labels: {app: shop}, warnings: [{at: " at ", until: 2h, reason: BackOff, count: 2}]}]\n"
#define EVENT_GATE(extra)                                                                          \
	"      promotion: {eventGate: {checks: [{name: backoff, selector: {matchLabels: {app: shop}}, " \
	"reasons: [BackOff], maxEvents: 1" extra "}]}}\n"

static void test_event_baseline(void)
{
	expect("MS256", HEAD PODS("40m") "  events:\n" PUBLISH_AT_1H STAGESET("", "", EVENT_GATE("")),
	       "18:19: MS256 warning: StageSet shop/shop: the event check \"backoff\" of stage \"staging\" counts "
	       "the Warning events its pods carry, with no baseline, and when a later revision arrives (2.1.0, "
	       "published at 1h0m0s) the pods model holds 2 of them (from 40m0s on), over its maxEvents 1: they "
	       "predate that revision, yet its first evaluation counts them and holds it PromotionBlocked until "
	       "they expire");
	/* near misses */
	expect("MS256", HEAD PODS("1h1m") "  events:\n" PUBLISH_AT_1H STAGESET("", "", EVENT_GATE("")),
	       ""); /* raised after the revision arrived: the gate's purpose */
	expect("MS256", HEAD PODS("40m") STAGESET("", "", EVENT_GATE("")), ""); /* no later revision */
	expect("MS256", HEAD PODS("40m") "  events:\n" PUBLISH_AT_1H STAGESET("", "", EVENT_GATE(", onFailure: Rollback")),
	       ""); /* a Rollback verdict reverts instead of holding */
	expect("MS256",
	       HEAD PODS("40m") "  events:\n" PUBLISH_AT_1H STAGESET(
		       "", "",
		       "      promotion: {eventGate: {checks: [{name: backoff, selector: {matchLabels: {app: shop}}, "
		       "reasons: [OOMKilling], maxEvents: 0}]}}\n"),
	       ""); /* another reason */
}

#define RESTART_GATE                                                                               \
	"      promotion:\n"                                                                        \
	"        restartGate:\n"                                                                    \
	"          checks: [{name: crash, selector: {matchLabels: {app: shop}}, maxRestarts: 2}]\n"
#define RESTART_PODS(restarts) "  models: {stagesets: {pods: [{labels: {app: shop}, restarts: [" restarts "]}]}}\n"

static void test_restarts_promoted(void)
{
	expect("MS258", HEAD RESTART_PODS("{at: 30m, total: 3}") STAGESET("", "", RESTART_GATE),
	       "15:9: MS258 warning: StageSet shop/shop: the restart check \"crash\" of stage \"staging\" "
	       "(maxRestarts 2) selects pods the pods model restarts 3 times at 30m0s, when the stage has held "
	       "its revision (new at 0s) past its 10m0s interval: the restart gate refreshes its baseline at "
	       "every pass of a promoted stage, so the pass after 30m0s takes these restarts in, nothing "
	       "blocks or tells them, and Ready stays True; the gate judges restarts only between a new "
	       "revision's arrival and its promotion");
	expect("MS258",
	       HEAD RESTART_PODS("{at: 5m, total: 1}, {at: 2h, total: 9}") "  events:\n" PUBLISH_AT_1H
		       STAGESET("", "  interval: 5m\n", RESTART_GATE "        soak: 30m\n"),
	       "18:9: MS258 warning: StageSet shop/shop: the restart check \"crash\" of stage \"staging\" "
	       "(maxRestarts 2) selects pods the pods model restarts 8 times at 2h0m0s, when the stage has held "
	       "its revision (new at 1h0m0s) past its soak and one 5m0s interval: the restart gate refreshes "
	       "its baseline at every pass of a promoted stage, so the pass after 2h0m0s takes these restarts "
	       "in, nothing blocks or tells them, and Ready stays True; the gate judges restarts only between "
	       "a new revision's arrival and its promotion"); /* the first rise is within the limit */
	/* near misses */
	expect("MS258", HEAD RESTART_PODS("{at: 30m, total: 2}") STAGESET("", "", RESTART_GATE), ""); /* within maxRestarts */
	/* before a pass went by */
	expect("MS258", HEAD RESTART_PODS("{at: 5m, total: 3}") STAGESET("", "", RESTART_GATE), "");
	expect("MS258", HEAD RESTART_PODS("{at: 55m, total: 3}") "  events:\n" PUBLISH_AT_1H STAGESET("", "", RESTART_GATE),
	       ""); /* the new revision comes first: they count against it */
	expect("MS258",
	       HEAD RESTART_PODS("{at: 30m, total: 3}")
		       STAGESET("", "", RESTART_GATE "        requireManualPromotion: true\n"),
	       ""); /* a manual gate: promoted only by a token */
	expect("MS258", HEAD "  models: {stagesets: {pods: [{labels: {app: other}, restarts: [{at: 30m, total: 3}]}]}}\n"
		   STAGESET("", "", RESTART_GATE), ""); /* pods the check does not select */
}

#define RECONCILE_AT_10M                                                                           \
	"    - at: 10m\n"                                                                          \
	"      annotate: {kind: StageSet, namespace: shop, name: shop, set: "                      \
	"{stages.metio.wtf/reconcile-stage: \"staging@r1\"}}\n"
#define RECONCILE_TAIL                                                                             \
	": a failed (or StageProgressing) stage's status entry is written without "                \
	"lastHandledReconcileAt while the annotation stays, so every pass after such a failure "    \
	"takes this handled token as fresh again, treats the stage's revision ledger as empty and " \
	"runs those actions again for the revision they completed for"

static void test_reconcile_stage_replay(void)
{
	expect("MS275", HEAD OUTAGE "  events:\n" RECONCILE_AT_10M STAGESET("", "", SEED),
	       "7:11: MS275 warning: the annotate event at 10m0s stamps stages.metio.wtf/reconcile-stage "
	       "\"staging@r1\" on StageSet shop/shop, whose stage \"staging\" has Revision-scoped actions "
	       "(\"seed\"), and its apply can fail at \"apply\" (apply.failure, probability 1 per apply "
	       "from 1h0m0s until 1h5m0s)" RECONCILE_TAIL);
	expect("MS275", HEAD SLOW STAGESET(", annotations: {stages.metio.wtf/reconcile-stage: \"staging@r0\"}", "",
					   "      timeout: 30s\n" SEED),
	       "7:1: MS275 warning: the manifest at 0s stamps stages.metio.wtf/reconcile-stage \"staging@r0\" "
	       "on StageSet shop/shop, whose stage \"staging\" has Revision-scoped actions (\"seed\"), and "
	       "its objects can take 1m0s to become ready (readiness.delay, 99th percentile), longer than "
	       "its 30s verify timeout, whose end holds the stage StageProgressing until a retry finds it "
	       "ready" RECONCILE_TAIL);
	/* near misses */
	expect("MS275", HEAD "  events:\n" RECONCILE_AT_10M STAGESET("", "", SEED), ""); /* nothing fails it */
	expect("MS275", HEAD OUTAGE "  events:\n" RECONCILE_AT_10M STAGESET("", "", ""), ""); /* no actions */
	expect("MS275",
	       HEAD OUTAGE "  events:\n" RECONCILE_AT_10M STAGESET("", "",
							      "      actions: {pre: [{name: seed, scope: Version, "
							      "http: {url: \"http://seed.shop.svc/\"}}]}\n"),
	       ""); /* a Version-scoped action: the token empties the revision ledger only */
	expect("MS275",
	       HEAD OUTAGE "  events:\n" RECONCILE_AT_10M
		    "    - at: 20m\n"
		    "      annotate: {kind: StageSet, namespace: shop, name: shop, remove: "
		    "[stages.metio.wtf/reconcile-stage]}\n" STAGESET("", "", SEED),
	       ""); /* removed before the failures can come */
	expect("MS275",
	       HEAD "  models: {stagesets: {apply: {failure: {during: [{from: 0s, until: 5m}]}}}}\n"
		    "  events:\n" RECONCILE_AT_10M STAGESET("", "", SEED),
	       ""); /* the failures end before the token */
	expect("MS275",
	       HEAD OUTAGE "  events:\n"
		    "    - at: 10m\n"
		    "      annotate: {kind: StageSet, namespace: shop, name: shop, set: "
		    "{stages.metio.wtf/reconcile-stage: \"other@r1\"}}\n" STAGESET("", "", SEED),
	       ""); /* an unknown stage: ignored by the controller */
}

#define SOAK_3H "      promotion: {soak: 3h}\n"
#define PUBLISH_AT_3H10M "    - {at: 3h10m, publish: {selector: {matchLabels: {app: shop}}, version: \"2.1.0\"}}\n"

static void test_soak_restarts(void)
{
	expect("MS277",
	       HEAD "  horizon: 8h\n  events:\n" PUBLISH_AT_3H10M
		    "    - {at: 4h5m, regress: {namespace: shop, name: shop, for: 20m}}\n" STAGESET("", "", SOAK_3H),
	       "7:19: MS277 warning: the publish of 2.1.0 at 3h10m0s starts a 3h0m0s soak at stage \"staging\" "
	       "of StageSet shop/shop, whose hold requeues it at most an hour apart, and at the pass of "
	       "4h10m0s the regress event at 4h5m0s fails its workload for 20m0s: the stage fails there, and "
	       "a failed stage's status entry is written without promotionState, so once a pass finds it "
	       "healthy again its soak starts over from that pass instead of ending at 6h10m0s");
	/* near misses */
	expect("MS277",
	       HEAD "  horizon: 8h\n  events:\n" PUBLISH_AT_3H10M
		    "    - {at: 3h40m, regress: {namespace: shop, name: shop, for: 20m}}\n" STAGESET("", "", SOAK_3H),
	       ""); /* between two polls: no pass sees it */
	expect("MS277",
	       HEAD "  horizon: 8h\n  events:\n" PUBLISH_AT_3H10M
		    "    - {at: 4h5m, regress: {namespace: shop, name: shop, for: 20m}}\n"
		    STAGESET("", "", "      promotion: {soak: 50m}\n"),
	       ""); /* a soak of an hour or less has no poll before its end */
	expect("MS277",
	       HEAD "  horizon: 8h\n  events:\n" PUBLISH_AT_3H10M
		    "    - {at: 4h5m, regress: {namespace: other, name: shop, for: 20m}}\n" STAGESET("", "", SOAK_3H),
	       ""); /* another StageSet's fault */
	expect("MS277",
	       HEAD "  horizon: 8h\n  events:\n"
		    "    - {at: 4h5m, regress: {namespace: shop, name: shop, for: 20m}}\n" STAGESET("", "", SOAK_3H),
	       ""); /* no publish: the first soak is not followed */
}

#define CRASHLOOP                                                                                  \
	"      promotion:\n"                                                                       \
	"        restartGate: {checks: [{name: crashloop, selector: {matchLabels: {app: shop}}, "    \
	"maxRestarts: 0}]}\n"
#define PODS_5_AT(at) "  models: {stagesets: {pods: [{labels: {app: shop}, restarts: [{at: " at ", total: 5}]}]}}\n"

static void test_restarts_forgiven(void)
{
	expect("MS278",
	       HEAD PODS_5_AT("1h0m30s") "  events:\n" PUBLISH_AT_1H
		    "    - {at: 1h20m, regress: {namespace: shop, name: shop, for: 10m}}\n" STAGESET("", "", CRASHLOOP),
	       "18:9: MS278 warning: StageSet shop/shop: the restart check \"crashloop\" of stage \"staging\" "
	       "(maxRestarts 0) selects pods the pods model restarts 5 times at 1h0m30s, while the stage gates "
	       "the revision new at 1h0m0s, which it holds PromotionBlocked; at 1h20m0s the regress event at "
	       "1h20m0s fails its workload for 10m0s: a failed stage's status entry is written without "
	       "promotionState, whose restartBaseline the check counts from, so the pass that finds the stage "
	       "healthy again takes those restarts as its baseline, the check passes and the revision goes on "
	       "past the gate");
	/* near misses */
	expect("MS278", HEAD PODS_5_AT("1h0m30s") "  events:\n" PUBLISH_AT_1H STAGESET("", "", CRASHLOOP),
	       ""); /* nothing fails the stage: the block holds */
	expect("MS278",
	       HEAD PODS_5_AT("1h0m30s") "  events:\n" PUBLISH_AT_1H
		    "    - {at: 50m, regress: {namespace: shop, name: shop, for: 5m}}\n" STAGESET("", "", CRASHLOOP),
	       ""); /* the fault comes before the block */
	expect("MS278",
	       HEAD PODS_5_AT("1h30m") "  events:\n" PUBLISH_AT_1H
		    "    - {at: 1h40m, regress: {namespace: shop, name: shop, for: 10m}}\n" STAGESET("", "", CRASHLOOP),
	       ""); /* restarts after promotion: MS258's case */
	expect("MS278",
	       HEAD PODS_5_AT("1h0m30s") "  events:\n" PUBLISH_AT_1H
		    "    - {at: 1h20m, regress: {namespace: shop, name: shop, for: 10m}}\n"
		    STAGESET("", "", CRASHLOOP "        requireManualPromotion: true\n"),
	       ""); /* a manual gate holds it all the same */
}

static void test_rows(void)
{
	static const char *const ids[] = { "MS252", "MS253", "MS254", "MS255", "MS256",
					   "MS257", "MS258", "MS275", "MS277", "MS278" };
	static const char *const names[] = { "promote-token-replays", "preloop-failure-wipes-ledgers",
					     "on-failure-once-per-revision", "suspend-stale-generation",
					     "event-gate-no-baseline", "promote-token-replays-after-progress-hold",
					     "restart-gate-forgives-promoted", "reconcile-stage-token-replays",
					     "soak-restarts-after-failure", "restart-gate-forgiven-after-failure" };
	static const char *const cites[] = { "§5 Q-12", "§5 Q-13", "§5 Q-15", "§5 Q-23", "§5 Q-17",
					     "§5 Q-12", "§5 Q-17", "§5 Q-12", "§5 Q-12", "§5 Q-12" };

	for (size_t i = 0; i < 10; i++) {
		const struct lint_rule *r = lint_rule(ids[i]);

		CU_ASSERT_PTR_NOT_NULL_FATAL(r);
		CU_ASSERT_EQUAL(r->sev, i == 3 ? LINT_INFO : LINT_WARNING);
		CU_ASSERT_STRING_EQUAL(r->name, names[i]);
		CU_ASSERT_PTR_NOT_NULL(strstr(r->summary, cites[i]));
		CU_ASSERT(r->fix && r->fix[0]);
	}
}

static CU_TestInfo tests[] = {
	{ "MS252 a handled promote token replays after a failure", test_promote_replay },
	{ "MS253 a deleted Secret wipes the first stage's ledgers", test_preloop_wipe },
	{ "MS254 onFailure runs once per revision", test_on_failure_once },
	{ "MS255 a suspended StageSet keeps an old observedGeneration", test_suspend_generation },
	{ "MS256 an event gate counts Warning events from before the revision", test_event_baseline },
	{ "MS257 a handled promote token replays after a progress hold", test_promote_progress },
	{ "MS258 restarts while promoted are forgiven", test_restarts_promoted },
	{ "MS275 a handled reconcile-stage token replays after a failure", test_reconcile_stage_replay },
	{ "MS277 a failure during a soak starts it over", test_soak_restarts },
	{ "MS278 a failure forgives a restart block", test_restarts_forgiven },
	{ "the MS252..MS258, MS275, MS277 and MS278 rows", test_rows },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_ledgers", tests);
}
