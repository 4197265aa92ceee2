/*
 * The lint rule on objects a render drops that no prune deletes
 * (sim/lint/lint_ss_prune.c, MS282): the exact finding (line:col, id,
 * severity, message) for an update of the sources model that drops objects
 * from a stage with a soak, from one with a manual promotion and from one
 * followed by a gated stage of the same source, and the near misses where
 * it must stay quiet: no gate, a gate on an earlier stage or on a later
 * stage of another source, prune: false, a source the inputs hold, an update that adds only, an
 * update past the horizon.
 *
 * Each input is written into a fresh temporary directory as m.yaml and
 * loaded with scn_load(), so marks are those of the text below: line 1 is
 * its first line.  Only lint_ss_prune() runs.
 */
#include <stdlib.h>

#include "sim/lint/lint.h"
#include "sim/lint/lint_ss_prune.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void expect_lint(const char *yaml, const char *want)
{
	char *got = fx_lint_yaml("test_lint_ss_prune", yaml, lint_ss_prune);

	fx_same_text(got, want);
	free(got);
}

/* The Scenario document whose source shop/shop renders cm-a, cm-b for "app" and drops cm-b at AT (line 14). */
#define SCENARIO(at, after)                                                            \
	"apiVersion: magos-sim/v1alpha1\n"                                             \
	"kind: Scenario\n"                                                             \
	"metadata: {name: q}\n"                                                        \
	"spec:\n"                                                                      \
	"  horizon: 3h\n"                                                              \
	"  models:\n"                                                                  \
	"    sources:\n"                                                               \
	"      - kind: GitRepository\n"                                                \
	"        namespace: shop\n"                                                    \
	"        name: shop\n"                                                         \
	"        objects:\n"                                                           \
	"          app: [ConfigMap/cm-a, ConfigMap/cm-b, Service/app]\n"               \
	"        updates:\n"                                                           \
	"          - {at: " at ", objects: {app: " after "}}\n"

/* StageSet shop/shop with STAGES lines (line 15 on). */
#define SS(stages)                                                                     \
	"---\n"                                                                        \
	"apiVersion: stages.metio.wtf/v1\n"                                            \
	"kind: StageSet\n"                                                             \
	"metadata: {name: shop, namespace: shop}\n"                                    \
	"spec:\n"                                                                      \
	"  stages:\n" stages

#define APP(extra) "    - {name: app, sourceRef: {kind: GitRepository, name: shop}" extra "}\n"

static void test_dropped_object(void)
{
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a]") SS(APP(", promotion: {soak: 30m}")),
		    "14:13: MS282 warning: the sources model's update at 1h0m0s drops ConfigMap/cm-b, Service/app from "
		    "stage \"app\"'s render (GitRepository shop/shop) of StageSet shop/shop, whose promotion gate (a "
		    "30m0s soak) holds every new revision: the pass that applies it rewrites the stage's "
		    "StageInventory without them before the gate holds, and the prune, which runs only when every "
		    "stage promotes, reads the StageInventory as that pass left it, so ConfigMap/cm-b, Service/app "
		    "stay in namespace shop for good, listed by no StageInventory");
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a, Service/app]") SS(APP(", promotion: {requireManualPromotion: true}")),
		    "14:13: MS282 warning: the sources model's update at 1h0m0s drops ConfigMap/cm-b from stage "
		    "\"app\"'s render (GitRepository shop/shop) of StageSet shop/shop, whose promotion gate (a manual "
		    "promotion) holds every new revision: the pass that applies it rewrites the stage's "
		    "StageInventory without it before the gate holds, and the prune, which runs only when every "
		    "stage promotes, reads the StageInventory as that pass left it, so ConfigMap/cm-b stays in "
		    "namespace shop for good, listed by no StageInventory");
	/* a later stage of the same source gets the new revision in the same pass and holds it there */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a, Service/app]")
			    SS(APP("") "    - {name: db, sourceRef: {kind: GitRepository, name: shop}, "
				       "promotion: {requireManualPromotion: true}}\n"),
		    "14:13: MS282 warning: the sources model's update at 1h0m0s drops ConfigMap/cm-b from stage "
		    "\"app\"'s render (GitRepository shop/shop) of StageSet shop/shop, whose later stage \"db\", which "
		    "reads the same source, holds every new revision at its promotion gate (a manual promotion): the "
		    "pass that applies it rewrites the stage's StageInventory without it before the gate holds, and "
		    "the prune, which runs only when every stage promotes, reads the StageInventory as that pass left "
		    "it, so ConfigMap/cm-b stays in namespace shop for good, listed by no StageInventory");
}

static void test_quiet(void)
{
	/* no gate: the pass that applies the drop prunes it */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a]") SS(APP("")), "");
	/* the gate on an earlier stage holds before app is applied */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a]")
			    SS("    - {name: canary, sourceRef: {kind: GitRepository, name: shop}, promotion: {soak: 30m}}\n"
			       APP("")),
		    "");
	/* a later stage of another source keeps the revision it was promoted at: its gate holds nothing */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a]")
			    SS(APP("") "    - {name: db, sourceRef: {kind: GitRepository, name: db}, "
				       "promotion: {soak: 30m}}\n"),
		    "");
	/* prune: false keeps what it drops anyway */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a]") SS(APP(", prune: false, promotion: {soak: 30m}")), "");
	/* an update that adds only */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a, ConfigMap/cm-b, Service/app, Secret/s]")
			    SS(APP(", promotion: {soak: 30m}")),
		    "");
	/* past the horizon */
	expect_lint(SCENARIO("4h", "[ConfigMap/cm-a]") SS(APP(", promotion: {soak: 30m}")), "");
	/* the inputs hold the source: it is read as it is, not modelled */
	expect_lint(SCENARIO("1h", "[ConfigMap/cm-a]") SS(APP(", promotion: {soak: 30m}"))
			    "---\n"
			    "apiVersion: source.toolkit.fluxcd.io/v1\n"
			    "kind: GitRepository\n"
			    "metadata: {name: shop, namespace: shop}\n"
			    "spec: {url: https://example.com/shop.git, interval: 1m}\n",
		    "");
}

static CU_TestInfo tests[] = {
	{ "MS282 an update drops objects from a stage with a soak or a manual gate, or before a gated stage of "
	  "its source",
	  test_dropped_object },
	{ "MS282 quiet: no gate, an earlier stage's gate, a later one's of another source, prune false, added "
	  "only, late, an input source",
	  test_quiet },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("lint_ss_prune", tests);
}
