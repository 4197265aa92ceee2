/*
 * The FleetRollout lint rules (sim/lint/lint_fleet.c, MS201..MS221): for each
 * rule a manifest that triggers it, with the exact finding (file:line:col,
 * id, severity, message), and one that does not; the worked fleet examples
 * under scenarios/ pinned to their findings; a 10 000-StageSet fleet linted
 * in well under a second.
 *
 * Each manifest is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * the first line of the string.  Only lint_fleet() runs (the Magos rules
 * and the loader's own diagnostics are not part of these expectations).
 * With LINT_FLEET_DUMP=1 in the environment a mismatch prints what lint
 * said.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"


/* lint_fleet() over the inputs @paths (relative to the cwd); the findings as text (new). */
static char *lint_paths(const char *const *paths, size_t n)
{
	struct scenario s;
	struct diag d;
	struct lint_report r;
	char *text;

	diag_init(&d);
	scn_load(paths, n, &s, &d); /* lint works on what loaded, errors or not */
	lint_report_init(&r);
	lint_fleet(&r, &s);
	lint_report_sort(&r);
	text = fx_lint_text(&r, true);
	lint_report_release(&r);
	scn_release(&s);
	diag_release(&d);
	return text;
}

/* lint_fleet() of @yaml written as m.yaml; the findings as text (new). */
static char *lint_yaml(const char *yaml)
{
	const char *path = "m.yaml";
	char *text;

	fx_tmp_enter("test_lint_fleet");
	fx_put(path, yaml);
	text = lint_paths(&path, 1);
	fx_tmp_leave();
	return text;
}

static void expect_text(const char *what, char *got, const char *want)
{
	if (strcmp(got, want) != 0 && getenv("LINT_FLEET_DUMP"))
		fprintf(stderr, "\n--- %s: got\n%s\n--- want\n%s\n", what, got, want);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

#define EXPECT_LINT(yaml, want) expect_text(#yaml, lint_yaml(yaml), want)

/* ---------------------------------------------------------------- manifests */

/* A StageSet shop in namespace NS with LABELS and spec.version VERSION: 7 lines. */
#define SS(ns, labels, version)                                                        \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: " ns ", labels: " labels "}\n"              \
	"spec:\n"                                                                      \
	"  version: " version "\n"                                                     \
	"  stages: [{name: app, sourceRef: {kind: GitRepository, name: shop}}]\n"

#define ALWAYS "{value: \"1.0.0\", approvalMode: Always}"
#define ALWAYS_DOWN "{value: \"1.0.0\", approvalMode: Always, allowDowngrade: true}"
#define RING0 "{app: shop, ring: \"0\"}"
#define RING1 "{app: shop, ring: \"1\"}"

/* Members a/shop (ring 0) and b/shop (ring 1), both Always. */
#define MEMBERS SS("a", RING0, ALWAYS) SS("b", RING1, ALWAYS)

/* FleetRollout shop up to its waves (5 lines), then EXTRA spec lines. */
#define FR_HEAD(extra)                                                                 \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: FleetRollout\n"                                                         \
	"metadata: {name: shop}\n"                                                     \
	"spec:\n"                                                                      \
	"  selector: {matchLabels: {app: shop}}\n" extra

/* Waves canary (ring 0, line +1..+2) and rest (ring 1, line +3..+4). */
#define WAVES                                                                          \
	"  waves:\n"                                                                   \
	"    - name: canary\n"                                                         \
	"      selector: {matchLabels: {ring: \"0\"}}\n"                               \
	"    - name: rest\n"                                                           \
	"      selector: {matchLabels: {ring: \"1\"}}\n"

#define PINNED "  targetVersion: \"2.0.0\"\n"

/* A gate of 6 lines under a wave, with prometheus address ADDR and threshold TH. */
#define GATE(addr, th)                                                                 \
	"      gate:\n"                                                                \
	"        source:\n"                                                            \
	"          prometheus:\n"                                                      \
	"            address: " addr "\n"                                              \
	"            query: errors\n"                                                  \
	"        threshold: " th "\n"

static void test_clean(void)
{
	EXPECT_LINT(FR_HEAD(PINNED WAVES) MEMBERS, "");
	/* no StageSet in the inputs: the member rules have nothing to say */
	EXPECT_LINT(FR_HEAD(PINNED WAVES), "");
}

static void test_unassigned(void)
{
	EXPECT_LINT(FR_HEAD(PINNED WAVES) MEMBERS SS("c", "{app: shop, ring: \"2\"}", ALWAYS),
		    "m.yaml:7:3: MS201 error: FleetRollout shop selects StageSet c/shop that no "
		    "wave selector matches; the controller stops with MembersUnassigned and "
		    "approves nothing");
	/* a label that is not selected at all is no member */
	EXPECT_LINT(FR_HEAD(PINNED WAVES) MEMBERS SS("c", "{app: web, ring: \"2\"}", ALWAYS), "");
}

static void test_unassigned_many(void)
{
	EXPECT_LINT(FR_HEAD(PINNED WAVES) MEMBERS SS("c", "{app: shop}", ALWAYS)
			    SS("d", "{app: shop}", ALWAYS) SS("e", "{app: shop}", ALWAYS)
				    SS("f", "{app: shop}", ALWAYS),
		    "m.yaml:7:3: MS201 error: FleetRollout shop selects 4 StageSets (e.g. c/shop, "
		    "d/shop) that no wave selector matches; the controller stops with "
		    "MembersUnassigned and approves nothing");
}

static void test_several_waves(void)
{
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {matchLabels: {ring: \"0\"}}\n"
				   "    - name: rest\n"
				   "      selector: {}\n") MEMBERS,
		    "m.yaml:11:17: MS202 warning: FleetRollout shop wave \"rest\" also selects "
		    "StageSet a/shop of wave \"canary\"; a member is approved when the first of "
		    "its waves opens and counted in every wave that selects it");
	/* a catch-all third wave: one finding per earlier wave it overlaps */
	EXPECT_LINT(FR_HEAD(PINNED WAVES "    - name: all\n"
					 "      selector: {}\n") MEMBERS,
		    "m.yaml:13:17: MS202 warning: FleetRollout shop wave \"all\" also selects "
		    "StageSet a/shop of wave \"canary\"; a member is approved when the first of "
		    "its waves opens and counted in every wave that selects it\n"
		    "m.yaml:13:17: MS202 warning: FleetRollout shop wave \"all\" also selects "
		    "StageSet b/shop of wave \"rest\"; a member is approved when the first of "
		    "its waves opens and counted in every wave that selects it");
	/* disjoint selectors: nothing */
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {matchLabels: {ring: \"0\"}}\n"
				   "    - name: rest\n"
				   "      selector: {matchExpressions: [{key: ring, operator: NotIn, "
				   "values: [\"0\"]}]}\n") MEMBERS,
		    "");
}

/* A second FleetRollout "eu" (6 lines) selecting SELECTOR with one catch-all wave. */
#define FR_EU(selector)                                                                \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: FleetRollout\n"                                                         \
	"metadata: {name: eu}\n"                                                       \
	"spec:\n"                                                                      \
	"  selector: " selector "\n"                                                   \
	"  waves: [{name: all, selector: {}}]\n"

static void test_contested(void)
{
	EXPECT_LINT(FR_HEAD(PINNED WAVES) FR_EU("{matchLabels: {ring: \"0\"}}") MEMBERS,
		    "m.yaml:5:13: MS203 error: FleetRollout shop selects StageSet a/shop that "
		    "FleetRollout eu also selects; both rollouts stop with MembersContested and "
		    "approve nothing\n"
		    "m.yaml:17:13: MS203 error: FleetRollout eu selects StageSet a/shop that "
		    "FleetRollout shop also selects; both rollouts stop with MembersContested and "
		    "approve nothing");
	/* three claimants: each names the first other rollout in name order (§2.3.2) */
	EXPECT_LINT(FR_HEAD(PINNED WAVES) FR_EU("{matchLabels: {ring: \"0\"}}")
			    "---\n"
			    "apiVersion: stages.metio.wtf/v1\n"
			    "kind: FleetRollout\n"
			    "metadata: {name: ab}\n"
			    "spec:\n"
			    "  selector: {matchLabels: {ring: \"0\"}}\n"
			    "  waves: [{name: all, selector: {}}]\n" MEMBERS,
		    "m.yaml:5:13: MS203 error: FleetRollout shop selects StageSet a/shop that "
		    "FleetRollout ab also selects; both rollouts stop with MembersContested and "
		    "approve nothing\n"
		    "m.yaml:17:13: MS203 error: FleetRollout eu selects StageSet a/shop that "
		    "FleetRollout ab also selects; both rollouts stop with MembersContested and "
		    "approve nothing\n"
		    "m.yaml:24:13: MS203 error: FleetRollout ab selects StageSet a/shop that "
		    "FleetRollout eu also selects; both rollouts stop with MembersContested and "
		    "approve nothing");
	EXPECT_LINT(FR_HEAD(PINNED WAVES) FR_EU("{matchLabels: {app: web}}") MEMBERS
			    SS("w", "{app: web}", ALWAYS),
		    "");
}

static void test_secret_ref(void)
{
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {}\n"
				   "      gate:\n"
				   "        source:\n"
				   "          prometheus:\n"
				   "            address: http://prometheus:9090\n"
				   "            query: errors\n"
				   "            secretRef: {name: token}\n"
				   "        threshold: {max: \"0.01\"}\n"),
		    "m.yaml:15:13: MS204 error: FleetRollout shop wave \"canary\" gate "
		    "source.prometheus.secretRef: a cluster-scoped FleetRollout has no namespace to "
		    "read the Secret in; the controller stops with GateUnsupported and approves "
		    "nothing");
	/* a webhook's secretRef counts when prometheus carries none */
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {}\n"
				   "      gate:\n"
				   "        source:\n"
				   "          webhook:\n"
				   "            url: http://hook.monitoring/errors\n"
				   "            jsonPath: \"{.value}\"\n"
				   "            secretRef: {name: token}\n"
				   "        threshold: {max: \"0.01\"}\n"),
		    "m.yaml:15:13: MS204 error: FleetRollout shop wave \"canary\" gate "
		    "source.webhook.secretRef: a cluster-scoped FleetRollout has no namespace to "
		    "read the Secret in; the controller stops with GateUnsupported and approves "
		    "nothing");
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {}\n" GATE("http://prometheus:9090",
								"{max: \"0.01\"}")),
		    "");
}

#define ONE_GATED_WAVE(addr, th)                                                       \
	FR_HEAD(PINNED "  waves:\n"                                                    \
		       "    - name: canary\n"                                          \
		       "      selector: {}\n" GATE(addr, th))

static void test_threshold_unparseable(void)
{
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{max: \"1%\"}"),
		    "m.yaml:15:26: MS205 error: FleetRollout shop wave \"canary\" gate threshold "
		    "max \"1%\" is not a number (strconv.ParseFloat: parsing \"1%\": invalid "
		    "syntax); the gate never passes: its verdict is Unknown, so the wave is held "
		    "forever");
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \"\", max: \"0.5\"}"),
		    "m.yaml:15:26: MS205 error: FleetRollout shop wave \"canary\" gate threshold "
		    "min \"\" is not a number (strconv.ParseFloat: parsing \"\": invalid syntax); "
		    "the gate never passes: its verdict is Unknown, so the wave is held forever");
	/* Go's ParseFloat forms: exponent, leading dot, Inf */
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \".5e-3\", max: \"Inf\"}"), "");
}

static void test_threshold_never_passes(void)
{
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \"0.5\", max: \"0.1\"}"),
		    "m.yaml:15:20: MS215 error: FleetRollout shop wave \"canary\" gate threshold "
		    "min 0.5 is above max 0.1: every value fails, so the fleet halts once the wave "
		    "is settled and soaked");
	/* inclusive bounds: equal is satisfiable */
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \"0.1\", max: \"0.1\"}"), "");
}

static void test_threshold_unbounded(void)
{
	/* Nothing is wrong with a bound: they are missing, so the key (docs/lint-rules.md). */
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{}"),
		    "m.yaml:15:9: MS221 warning: FleetRollout shop wave \"canary\" gate threshold "
		    "sets neither min nor max: every value passes, so the gate never halts the "
		    "fleet");
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{max: \"NaN\"}"),
		    "m.yaml:15:20: MS221 warning: FleetRollout shop wave \"canary\" gate threshold "
		    "max NaN admits every value (a NaN bound never fails, min -Inf and max +Inf "
		    "hold every number): the gate never halts the fleet");
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \"-Inf\", max: \"+Inf\"}"),
		    "m.yaml:15:20: MS221 warning: FleetRollout shop wave \"canary\" gate threshold "
		    "min -Inf max +Inf admits every value (a NaN bound never fails, min -Inf and "
		    "max +Inf hold every number): the gate never halts the fleet");
	/* one bound that limits is enough; infinities on the failing side limit too */
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \"NaN\", max: \"0.01\"}"), "");
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{min: \"0\"}"), "");
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{max: \"-Inf\"}"), "");
	/* an unparseable bound is MS205 alone */
	EXPECT_LINT(ONE_GATED_WAVE("http://prometheus:9090", "{max: \"x\"}"),
		    "m.yaml:15:26: MS205 error: FleetRollout shop wave \"canary\" gate threshold "
		    "max \"x\" is not a number (strconv.ParseFloat: parsing \"x\": invalid "
		    "syntax); the gate never passes: its verdict is Unknown, so the wave is held "
		    "forever");
}

static void test_gate_address(void)
{
	EXPECT_LINT(ONE_GATED_WAVE("prometheus:9090", "{max: \"1\"}"),
		    "m.yaml:13:22: MS216 error: FleetRollout shop wave \"canary\" gate address "
		    "\"prometheus:9090\" is not an http(s) URL with a host; every query fails, the "
		    "verdict is Unknown and the wave is held forever");
	EXPECT_LINT(ONE_GATED_WAVE("http://127.0.0.1:9090", "{max: \"1\"}"),
		    "m.yaml:13:22: MS216 error: FleetRollout shop wave \"canary\" gate address "
		    "host 127.0.0.1 is a loopback address, which the controller refuses to dial; "
		    "the verdict is Unknown and the wave is held forever");
	EXPECT_LINT(ONE_GATED_WAVE("http://[fe80::1]:9090", "{max: \"1\"}"),
		    "m.yaml:13:22: MS216 error: FleetRollout shop wave \"canary\" gate address "
		    "host fe80::1 is a link-local address, which the controller refuses to dial; "
		    "the verdict is Unknown and the wave is held forever");
	/* private ranges are allowed */
	EXPECT_LINT(ONE_GATED_WAVE("http://10.0.0.5:9090", "{max: \"1\"}"), "");
}

/* A Scenario document of 8 lines allowing hosts prometheus.* only. */
#define SCENARIO_ALLOWING                                                              \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: hosts}\n"                                                    \
	"spec:\n"                                                                      \
	"  fleet: {allowedActionHosts: [\"prometheus.*\"]}\n"                          \
	"  metrics:\n"                                                                 \
	"    - {query: errors, values: \"0x10\"}\n"                                    \
	"---\n"

static void test_gate_host_not_allowed(void)
{
	EXPECT_LINT(SCENARIO_ALLOWING ONE_GATED_WAVE("http://grafana.monitoring:9090",
						     "{max: \"1\"}"),
		    "m.yaml:21:22: MS206 error: FleetRollout shop wave \"canary\" gate address host "
		    "grafana.monitoring is not in the allowed action hosts (prometheus.*); every "
		    "query is refused, the verdict is Unknown and the wave is held forever");
	EXPECT_LINT(SCENARIO_ALLOWING ONE_GATED_WAVE("http://prometheus.monitoring:9090",
						     "{max: \"1\"}"),
		    "");
}

static void test_gate_sources(void)
{
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {}\n"
				   "      gate:\n"
				   "        source: {}\n"
				   "        threshold: {max: \"1\"}\n"),
		    "m.yaml:11:9: MS214 error: FleetRollout shop wave \"canary\" gate source has "
		    "neither prometheus nor webhook; every verdict is Unknown and the wave is held "
		    "forever");
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {}\n"
				   "      gate:\n"
				   "        source:\n"
				   "          prometheus: {address: \"http://p:9090\", query: errors}\n"
				   "          webhook: {url: \"http://h/x\", jsonPath: \"{.v}\"}\n"
				   "        threshold: {max: \"1\"}\n"),
		    "m.yaml:13:11: MS220 info: FleetRollout shop wave \"canary\" gate source sets "
		    "both prometheus and webhook; the controller queries prometheus and never the "
		    "webhook");
	/* a webhook alone is a source */
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {}\n"
				   "      gate:\n"
				   "        source:\n"
				   "          webhook: {url: \"http://h/x\", jsonPath: \"{.v}\"}\n"
				   "        threshold: {max: \"1\"}\n"),
		    "");
}

#define ROLLBACK "  onRegression: Rollback\n  previousVersion: \"1.0.0\"\n"

static void test_rollback_derived(void)
{
	EXPECT_LINT(FR_HEAD(ROLLBACK WAVES) SS("a", RING0, ALWAYS_DOWN) SS("b", RING1, ALWAYS_DOWN),
		    "m.yaml:6:17: MS207 warning: FleetRollout shop: onRegression Rollback without "
		    "targetVersion: each new version after Completed trips a regression halt that "
		    "stamps rollback-to 1.0.0, which is never removed, and this fleet approves "
		    "whatever members hold, so they roll back, upgrade again and roll back again");
	EXPECT_LINT(FR_HEAD("  onRegression: Halt\n" WAVES) MEMBERS, "");
}

static void test_rollback_pinned(void)
{
	EXPECT_LINT(FR_HEAD(PINNED ROLLBACK WAVES) SS("a", RING0, ALWAYS_DOWN)
			    SS("b", RING1, ALWAYS_DOWN),
		    "m.yaml:7:17: MS208 warning: FleetRollout shop: onRegression Rollback with "
		    "targetVersion 2.0.0: the rollback to 1.0.0 is a version transition that "
		    "members under approvalMode Always hold for approval, and this fleet only ever "
		    "approves 2.0.0, so rolled-back members stay AwaitingApproval; affected: 2 "
		    "StageSets (a/shop, b/shop)");
	/* without StageSets in the inputs the hazard stands on its own */
	EXPECT_LINT(FR_HEAD(PINNED ROLLBACK WAVES),
		    "m.yaml:7:17: MS208 warning: FleetRollout shop: onRegression Rollback with "
		    "targetVersion 2.0.0: the rollback to 1.0.0 is a version transition that "
		    "members under approvalMode Always hold for approval, and this fleet only ever "
		    "approves 2.0.0, so rolled-back members stay AwaitingApproval");
	EXPECT_LINT(FR_HEAD(PINNED "  onRegression: Halt\n  previousVersion: \"1.0.0\"\n" WAVES)
			    MEMBERS,
		    "");
}

static void test_member_not_always(void)
{
	EXPECT_LINT(FR_HEAD(PINNED WAVES) SS("a", RING0, "{value: \"1.0.0\", approvalMode: Never}")
			    SS("b", RING1, ALWAYS),
		    "m.yaml:17:43: MS209 warning: FleetRollout shop selects StageSet a/shop "
		    "without spec.version.approvalMode Always; it takes new versions on its own, "
		    "so the waves do not pace it");
	/* no approvalMode at all (derived fleet): the mark is the version key */
	EXPECT_LINT(FR_HEAD(WAVES) SS("a", RING0, "{value: \"1.0.0\"}") SS("b", RING1, ALWAYS),
		    "m.yaml:16:3: MS209 warning: FleetRollout shop selects StageSet a/shop "
		    "without spec.version.approvalMode Always; it takes new versions on its own, "
		    "so the waves do not pace it, and this derived fleet counts it adopted as "
		    "soon as it holds nothing");
	EXPECT_LINT(FR_HEAD(WAVES) MEMBERS, "");
}

static void test_member_no_downgrade(void)
{
	EXPECT_LINT(FR_HEAD(PINNED ROLLBACK WAVES) SS("a", RING0, ALWAYS_DOWN)
			    SS("b", RING1,
			       "{value: \"1.0.0\", approvalMode: Always, allowDowngrade: false}"),
		    "m.yaml:7:17: MS208 warning: FleetRollout shop: onRegression Rollback with "
		    "targetVersion 2.0.0: the rollback to 1.0.0 is a version transition that "
		    "members under approvalMode Always hold for approval, and this fleet only ever "
		    "approves 2.0.0, so rolled-back members stay AwaitingApproval; affected: "
		    "StageSet a/shop\n"
		    "m.yaml:26:67: MS210 warning: FleetRollout shop rolls back to 1.0.0 on a "
		    "regression, but StageSet b/shop does not set spec.version.allowDowngrade; it "
		    "refuses the rollback-to (DowngradeNotAllowed) and the fleet does not notice");
	/* under Halt allowDowngrade does not matter */
	EXPECT_LINT(FR_HEAD(PINNED WAVES) MEMBERS, "");
}

static void test_duplicate_wave_name(void)
{
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {matchLabels: {ring: \"0\"}}\n"
				   "    - name: rest\n"
				   "      selector: {matchLabels: {ring: \"1\"}}\n"
				   "    - name: canary\n"
				   "      selector: {matchLabels: {ring: \"2\"}}\n"),
		    "m.yaml:12:13: MS211 error: FleetRollout shop waves[2] repeats the name "
		    "\"canary\" of waves[0]; the status list is keyed by wave name, so every status "
		    "write is refused and the controller retries forever");
	/* three of one name: each later one names the first */
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - {name: a, selector: {matchLabels: {ring: \"0\"}}}\n"
				   "    - {name: a, selector: {matchLabels: {ring: \"1\"}}}\n"
				   "    - {name: a, selector: {matchLabels: {ring: \"2\"}}}\n"),
		    "m.yaml:9:14: MS211 error: FleetRollout shop waves[1] repeats the name \"a\" of "
		    "waves[0]; the status list is keyed by wave name, so every status write is "
		    "refused and the controller retries forever\n"
		    "m.yaml:10:14: MS211 error: FleetRollout shop waves[2] repeats the name \"a\" of "
		    "waves[0]; the status list is keyed by wave name, so every status write is "
		    "refused and the controller retries forever");
	EXPECT_LINT(FR_HEAD(PINNED WAVES), "");
}

static void test_empty_wave(void)
{
	EXPECT_LINT(FR_HEAD(PINNED WAVES "    - name: late\n"
					 "      selector: {matchLabels: {ring: \"9\"}}\n"
					 "      soak: 10m\n" GATE("http://p:9090", "{max: \"1\"}"))
			    MEMBERS,
		    "m.yaml:13:17: MS212 warning: FleetRollout shop wave \"late\" selects none of "
		    "its 2 members: it is settled from the start, so its gate is queried once its "
		    "soak elapses, before the wave opens, and a Failing verdict halts the fleet");
	EXPECT_LINT(FR_HEAD(PINNED WAVES "    - name: late\n"
					 "      selector: {matchLabels: {ring: \"9\"}}\n") MEMBERS,
		    "m.yaml:13:17: MS212 warning: FleetRollout shop wave \"late\" selects none of "
		    "its 2 members: it passes at once, and a StageSet that joins it after it "
		    "settled trips a regression halt");
}

static void test_invalid_selector(void)
{
	EXPECT_LINT(FR_HEAD(PINNED "  waves:\n"
				   "    - name: canary\n"
				   "      selector: {matchExpressions: [{key: ring, operator: Foo}]}\n")
			    MEMBERS,
		    "m.yaml:9:17: MS213 error: FleetRollout shop wave \"canary\" selector: \"Foo\" is "
		    "not a valid label selector operator; the controller stops with InvalidSelector "
		    "and never retries");
	EXPECT_LINT("apiVersion: stages.metio.wtf/v1\n"
		    "kind: FleetRollout\n"
		    "metadata: {name: shop}\n"
		    "spec:\n"
		    "  selector: {matchExpressions: [{key: app, operator: In}]}\n"
		    "  waves: [{name: all, selector: {}}]\n" MEMBERS,
		    "m.yaml:5:13: MS213 error: FleetRollout shop selector: values: Invalid value: "
		    "null: for 'in', 'notin' operators, values set can't be empty; the controller "
		    "stops with InvalidSelector and never retries");
}

static void test_no_members(void)
{
	EXPECT_LINT("apiVersion: stages.metio.wtf/v1\n"
		    "kind: FleetRollout\n"
		    "metadata: {name: shop}\n"
		    "spec:\n"
		    "  selector: {matchLabels: {app: shoop}}\n"
		    "  waves: [{name: all, selector: {}}]\n" MEMBERS,
		    "m.yaml:5:13: MS217 info: FleetRollout shop selects none of the 2 StageSets of "
		    "the inputs; every wave is empty, so it completes without approving anything");
	/* namespaces without Namespace objects have no labels: the finding says so */
	EXPECT_LINT(FR_HEAD(PINNED "  namespaceSelector: {matchLabels: {team: shop}}\n"
				   "  waves: [{name: all, selector: {}}]\n") MEMBERS,
		    "m.yaml:7:22: MS217 info: FleetRollout shop selects none of the 2 StageSets of "
		    "the inputs: 2 match spec.selector but not namespaceSelector (a namespace "
		    "without a Namespace object in the inputs has no labels); every wave is empty, "
		    "so it completes without approving anything");
	/* a namespaceSelector counts: namespace a is labelled, b is not */
	EXPECT_LINT(FR_HEAD(PINNED "  namespaceSelector: {matchLabels: {team: shop}}\n"
				   "  waves: [{name: all, selector: {}}]\n")
		    "---\n"
		    "apiVersion: v1\n"
		    "kind: Namespace\n"
		    "metadata: {name: a, labels: {team: shop}}\n" MEMBERS,
		    "");
}

static void test_versions(void)
{
	EXPECT_LINT(FR_HEAD("  targetVersion: latest\n" WAVES) MEMBERS,
		    "m.yaml:6:18: MS219 error: FleetRollout shop targetVersion \"latest\" is not a "
		    "semantic version (invalid semantic version): a StageSet only adopts semantic "
		    "versions, so no member ever reaches it and the first wave never settles");
	EXPECT_LINT(FR_HEAD("  targetVersion: v2.0.0\n" WAVES) MEMBERS, "");
	EXPECT_LINT(FR_HEAD(PINNED "  onRegression: Rollback\n  previousVersion: \"2.1.0\"\n" WAVES),
		    "m.yaml:8:20: MS218 warning: FleetRollout shop previousVersion 2.1.0 is not "
		    "below targetVersion 2.0.0: members at the target ignore the rollback-to "
		    "annotation, so a halt rolls nothing back");
	EXPECT_LINT(FR_HEAD("  onRegression: Rollback\n  previousVersion: last\n" WAVES),
		    "m.yaml:6:17: MS207 warning: FleetRollout shop: onRegression Rollback without "
		    "targetVersion: each new version after Completed trips a regression halt that "
		    "stamps rollback-to last, which is never removed, and this fleet approves "
		    "whatever members hold, so they roll back, upgrade again and roll back again\n"
		    "m.yaml:7:20: MS218 warning: FleetRollout shop previousVersion \"last\" is not a "
		    "semantic version (invalid semantic version): members ignore the rollback-to "
		    "annotation, so a halt rolls nothing back");
}

/* A FleetRollout applied by an event is linted too, against the inputs' StageSets. */
static void test_applied_by_event(void)
{
	EXPECT_LINT("apiVersion: magos-sim/v1alpha1\n"
		    "kind: Scenario\n"
		    "metadata: {name: later}\n"
		    "spec:\n"
		    "  events:\n"
		    "    - at: 1h\n"
		    "      apply:\n"
		    "        apiVersion: stages.metio.wtf/v1\n"
		    "        kind: FleetRollout\n"
		    "        metadata: {name: shop}\n"
		    "        spec:\n"
		    "          selector: {matchLabels: {app: shop}}\n"
		    "          waves: [{name: canary, selector: {matchLabels: {ring: \"0\"}}}]\n" MEMBERS,
		    "m.yaml:13:11: MS201 error: FleetRollout shop selects StageSet b/shop that no "
		    "wave selector matches; the controller stops with MembersUnassigned and "
		    "approves nothing");
}

/* ---------------------------------------------------------------- the worked examples */

static char *lint_example(const char *path)
{
	return lint_paths(&path, 1);
}

#define EXAMPLE(name) "scenarios/" name ".yaml"

static void test_examples(void)
{
	expect_text("fleet-moodle", lint_example(EXAMPLE("fleet-moodle")), "");
	expect_text("fleet-gate-halt", lint_example(EXAMPLE("fleet-gate-halt")), "");
	expect_text("fleet-member-regression", lint_example(EXAMPLE("fleet-member-regression")), "");
	expect_text("fleet-standing-policy", lint_example(EXAMPLE("fleet-standing-policy")), "");
	expect_text("fleet-unassigned", lint_example(EXAMPLE("fleet-unassigned")),
		    "scenarios/fleet-unassigned.yaml:78:3: MS201 error: FleetRollout moodle selects "
		    "2 StageSets (tenant-12/moodle, tenant-13/moodle) that no wave selector matches; "
		    "the controller stops with MembersUnassigned and approves nothing");
	expect_text("fleet-contested", lint_example(EXAMPLE("fleet-contested")),
		    "scenarios/fleet-contested.yaml:72:13: MS203 error: FleetRollout moodle selects "
		    "2 StageSets (tenant-10/moodle, tenant-11/moodle) that FleetRollout moodle-eu "
		    "also selects; both rollouts stop with MembersContested and approve nothing\n"
		    "scenarios/fleet-contested.yaml:94:13: MS203 error: FleetRollout moodle-eu "
		    "selects 2 StageSets (tenant-10/moodle, tenant-11/moodle) that FleetRollout "
		    "moodle also selects; both rollouts stop with MembersContested and approve "
		    "nothing");
	/* strict/moodle is the member without allowDowngrade (in its spec.generate template) */
	expect_text("fleet-rollback-pinned", lint_example(EXAMPLE("fleet-rollback-pinned")),
		    "scenarios/fleet-rollback-pinned.yaml:81:73: MS210 warning: FleetRollout moodle "
		    "rolls back to 4.5.0 on a regression, but StageSet strict/moodle does not set "
		    "spec.version.allowDowngrade; it refuses the rollback-to (DowngradeNotAllowed) "
		    "and the fleet does not notice\n"
		    "scenarios/fleet-rollback-pinned.yaml:138:17: MS208 warning: FleetRollout "
		    "moodle: onRegression Rollback with targetVersion 4.6.0: the rollback to 4.5.0 "
		    "is a version transition that members under approvalMode Always hold for "
		    "approval, and this fleet only ever approves 4.6.0, so rolled-back members stay "
		    "AwaitingApproval; affected: 11 StageSets (e.g. one-way/moodle, "
		    "tenant-00/moodle)");
	/* the FleetRollout is applied by an event at 11m */
	expect_text("fleet-rollback-derived", lint_example(EXAMPLE("fleet-rollback-derived")),
		    "scenarios/fleet-rollback-derived.yaml:77:73: MS210 warning: FleetRollout moodle "
		    "rolls back to 4.5.0 on a regression, but StageSet strict/moodle does not set "
		    "spec.version.allowDowngrade; it refuses the rollback-to (DowngradeNotAllowed) "
		    "and the fleet does not notice\n"
		    "scenarios/fleet-rollback-derived.yaml:109:25: MS207 warning: FleetRollout "
		    "moodle: onRegression Rollback without targetVersion: each new version after "
		    "Completed trips a regression halt that stamps rollback-to 4.5.0, which is never "
		    "removed, and this fleet approves whatever members hold, so they roll back, "
		    "upgrade again and roll back again");
}

/* ---------------------------------------------------------------- scale */

/*
 * 10 000 StageSets in 10 rings, two FleetRollouts over them (one with 10
 * waves, one selecting nothing), one member unlabelled: the findings are
 * exact at scale.  How long it takes is a benchmark figure (BENCHMARKS.md),
 * not something a unit test on a shared machine can decide.
 */
static void test_scale(void)
{
	struct scenario s;
	struct lint_report r;
	struct obj *fr, *other;
	struct val *waves, *ml;
	const size_t n = 10000;
	char *text;

	scn_init(&s);
	s.objs = xcalloc(n + 2, sizeof(*s.objs));
	fr = obj_new("stages.metio.wtf/v1", "FleetRollout", "", "big");
	fr->spec = val_new_map();
	ml = val_map_set(val_map_set(fr->spec, "selector", val_new_map()), "matchLabels",
			 val_new_map());
	val_map_set(ml, "app", val_new_string("shop"));
	waves = val_map_set(fr->spec, "waves", val_new_list());
	for (int w = 0; w < 10; w++) {
		char name[32], ring[16];
		struct val *wv = val_list_push(waves, val_new_map());

		snprintf(name, sizeof(name), "wave-%d", w);
		snprintf(ring, sizeof(ring), "%d", w);
		val_map_set(wv, "name", val_new_string(name));
		val_map_set(wv, "selector", fx_match_labels("ring", ring));
	}
	other = obj_new("stages.metio.wtf/v1", "FleetRollout", "", "other");
	other->spec = val_new_map();
	val_map_set(val_map_set(other->spec, "selector", val_new_map()), "matchLabels",
		    val_new_map());
	val_map_set(val_map_get(val_map_get(other->spec, "selector"), "matchLabels"), "app",
		    val_new_string("none"));
	val_map_set(val_list_push(val_map_set(other->spec, "waves", val_new_list()), val_new_map()),
		    "name", val_new_string("all"));
	s.objs[s.nobjs++] = fr;
	s.objs[s.nobjs++] = other;
	for (size_t i = 0; i < n; i++) {
		char ns[32], ring[32];

		snprintf(ns, sizeof(ns), "tenant-%05zu", i);
		snprintf(ring, sizeof(ring), "%zu", i % 10);
		s.objs[s.nobjs++] = fx_fleet_member(ns, "app", "shop", i == 4242 ? NULL : ring);
	}
	lint_report_init(&r);
	lint_fleet(&r, &s);
	lint_report_sort(&r);
	text = fx_lint_text(&r, true);
	expect_text("scale", text,
		    ":0:0: MS201 error: FleetRollout big selects StageSet tenant-04242/app that no "
		    "wave selector matches; the controller stops with MembersUnassigned and "
		    "approves nothing\n"
		    ":0:0: MS217 info: FleetRollout other selects none of the 10000 StageSets of the "
		    "inputs; every wave is empty, so it completes without approving anything");
	lint_report_release(&r);
	scn_release(&s);
}

/* The MS2xx rows of lint_fleet.c and the StageSet topics: in id order,
 * MS201..MS231 without gaps (later StageSet topics take ranges of their own,
 * so gaps may follow), each with a name, a summary and a fix citing the spec
 * (the FleetRollout's, or the StageSet controller's).  MS250 and MS251 are
 * lint_fleet_quirks.c's (test_lint_fleet_quirks), MS252 and up
 * lint_ss_ledgers.c's (test_lint_ss_ledgers). */
static void test_rule_rows(void)
{
	size_t n, k = 0;
	long last = 200;
	const struct lint_rule *rules = lint_rules(&n);

	for (size_t i = 0; i < n; i++) {
		char want[8];
		long id;

		if (strncmp(rules[i].id, "MS2", 3) != 0 || strcmp(rules[i].id, "MS250") >= 0)
			continue;
		id = strtol(rules[i].id + 2, NULL, 10);
		CU_ASSERT(id > last);
		last = id;
		if (id <= 231) {
			snprintf(want, sizeof(want), "MS%03zu", 201 + k++);
			CU_ASSERT_STRING_EQUAL(rules[i].id, want);
		}
		CU_ASSERT(rules[i].name && rules[i].name[0]);
		CU_ASSERT(rules[i].summary && (strstr(rules[i].summary, "(spec §") ||
					       strstr(rules[i].summary, "(StageSet spec §")));
		CU_ASSERT(rules[i].fix && rules[i].fix[0]);
	}
	CU_ASSERT_EQUAL(k, 31);
	CU_ASSERT_EQUAL(lint_rule("MS221")->sev, LINT_WARNING);
	CU_ASSERT_EQUAL(lint_rule("MS222")->sev, LINT_WARNING);
	CU_ASSERT_EQUAL(lint_rule("MS223")->sev, LINT_WARNING);
	CU_ASSERT_EQUAL(lint_rule("MS224")->sev, LINT_WARNING);
	CU_ASSERT_EQUAL(lint_rule("MS225")->sev, LINT_WARNING);
	CU_ASSERT_EQUAL(lint_rule("MS201")->sev, LINT_ERROR);
	CU_ASSERT_EQUAL(lint_rule("MS202")->sev, LINT_WARNING);
	CU_ASSERT_EQUAL(lint_rule("MS217")->sev, LINT_INFO);
}

static CU_TestInfo tests[] = {
	{ "the MS2xx rows of the rule table", test_rule_rows },
	{ "clean fleet: no finding", test_clean },
	{ "MS201 member matched by no wave", test_unassigned },
	{ "MS201 many members: count and examples", test_unassigned_many },
	{ "MS202 member in several waves", test_several_waves },
	{ "MS203 members of two FleetRollouts", test_contested },
	{ "MS204 gate with secretRef", test_secret_ref },
	{ "MS205 threshold not a number", test_threshold_unparseable },
	{ "MS215 threshold min above max", test_threshold_never_passes },
	{ "MS221 threshold that admits every value", test_threshold_unbounded },
	{ "MS216 gate address unusable", test_gate_address },
	{ "MS206 gate host not allowed", test_gate_host_not_allowed },
	{ "MS214/MS220 gate sources", test_gate_sources },
	{ "MS207 Rollback with a derived target", test_rollback_derived },
	{ "MS208 Rollback with a pinned target", test_rollback_pinned },
	{ "MS209 member without approvalMode Always", test_member_not_always },
	{ "MS210 member without allowDowngrade under Rollback", test_member_no_downgrade },
	{ "MS211 duplicate wave names", test_duplicate_wave_name },
	{ "MS212 empty wave", test_empty_wave },
	{ "MS213 selector that does not convert", test_invalid_selector },
	{ "MS217 FleetRollout selecting no StageSet", test_no_members },
	{ "MS218/MS219 versions", test_versions },
	{ "a FleetRollout applied by an event", test_applied_by_event },
	{ "the worked fleet examples", test_examples },
	{ "10 000 StageSets", test_scale },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_fleet", tests);
}
