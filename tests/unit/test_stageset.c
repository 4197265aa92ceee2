/*
 * engine/stageset: semantic versions as Masterminds/semver v3.5.0 reads and
 * orders them (the cases of its version_test.go and the SemVer 2.0.0 §11
 * precedence chain), and the StageSet version plan and approval gate as
 * given/when/then tables named after the rules of the spec
 * (../shared/specs/fleetrollout-controller.md §3.2, §3.4, §2.8, §5 G3/G10,
 * §6 items 3, 4, 13).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "tests/unit/cu_main.h"

/* ---- semver parsing ---- */

struct parse_case {
	const char *in;
	const char *canonical; /* Version.String(); NULL: an error */
	const char *err;
};

static const struct parse_case parse_cases[] = {
	{ "1.2.3", "1.2.3", NULL },
	{ "v1.2.3", "1.2.3", NULL },           /* a leading v is accepted */
	{ "V1.2.3", NULL, "invalid semantic version" }, /* only lower case */
	{ "1.2", "1.2.0", NULL },              /* coerced */
	{ "1", "1.0.0", NULL },
	{ "v2", "2.0.0", NULL },
	{ "01.02.03", "1.2.3", NULL },         /* CoerceNewVersion keeps leading zeros */
	{ "1.2.3-beta", "1.2.3-beta", NULL },
	{ "1.2-beta.1", "1.2.0-beta.1", NULL },
	{ "1.2.3-beta.1+build.345", "1.2.3-beta.1+build.345", NULL },
	{ "1.2.3+build-7", "1.2.3+build-7", NULL },
	{ "1.0.0-0.3.7", "1.0.0-0.3.7", NULL },
	{ "1.0.0-x-y-z.--", "1.0.0-x-y-z.--", NULL },
	{ "1.2.3-01", NULL, "version segment starts with 0" },
	{ "1.2.3-a.01", NULL, "version segment starts with 0" },
	{ "1.2.3+01", "1.2.3+01", NULL },       /* metadata may have leading zeros */
	{ "1.2.3-", NULL, "invalid semantic version" },
	{ "1.2.3-a..b", NULL, "invalid semantic version" },
	{ "1.2.3+", NULL, "invalid semantic version" },
	{ "1.2.3.4", NULL, "invalid semantic version" },
	{ "1.2.", NULL, "invalid semantic version" },
	{ "", NULL, "invalid semantic version" },
	{ " 1.2.3", NULL, "invalid semantic version" },
	{ "1.2.3 ", NULL, "invalid semantic version" },
	{ "latest", NULL, "invalid semantic version" },
	{ "1.2.3_4", NULL, "invalid semantic version" },
	{ "18446744073709551615.0.0", "18446744073709551615.0.0", NULL },
	{ "18446744073709551616.0.0", NULL,
	  "error parsing version segment: strconv.ParseUint: parsing \"18446744073709551616\": value out of range" },
	{ "1.99999999999999999999", NULL,
	  "error parsing version segment: strconv.ParseUint: parsing \"99999999999999999999\": value out of range" },
};

static void test_semver_parse(void)
{
	for (size_t i = 0; i < sizeof(parse_cases) / sizeof(parse_cases[0]); i++) {
		const struct parse_case *k = &parse_cases[i];
		struct ss_semver v;
		char err[200] = "";
		int rc = ss_semver_parse(k->in, &v, err, sizeof(err));
		if (k->canonical) {
			if (rc != SS_OK)
				fprintf(stderr, "\n%s: %s\n", k->in, err);
			CU_ASSERT_EQUAL_FATAL(rc, SS_OK);
			char *s = ss_semver_string(&v);
			CU_ASSERT_STRING_EQUAL(s, k->canonical);
			free(s);
		} else {
			CU_ASSERT_EQUAL(rc, SS_EINVAL);
			if (strcmp(err, k->err) != 0)
				fprintf(stderr, "\n%s: got %s\n", k->in, err);
			CU_ASSERT_STRING_EQUAL(err, k->err);
		}
	}
}

/* ---- semver precedence ---- */

static int cmp(const char *a, const char *b)
{
	struct ss_semver va, vb;
	CU_ASSERT_EQUAL_FATAL(ss_semver_parse(a, &va, NULL, 0), SS_OK);
	CU_ASSERT_EQUAL_FATAL(ss_semver_parse(b, &vb, NULL, 0), SS_OK);
	return ss_semver_compare(&va, &vb);
}

static void test_semver_compare(void)
{
	/* SemVer 2.0.0 §11: each is lower than the next */
	static const char *chain[] = { "1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta",
				       "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1",    "1.0.0",
				       "1.0.1",        "1.9.0",         "1.10.0",        "2.0.0" };
	size_t n = sizeof(chain) / sizeof(chain[0]);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			CU_ASSERT_EQUAL(cmp(chain[i], chain[j]), i < j ? -1 : i > j ? 1 : 0);
	/* build metadata is ignored; v and coercion do not change the value */
	CU_ASSERT_EQUAL(cmp("1.0.0+a", "1.0.0+b"), 0);
	CU_ASSERT_EQUAL(cmp("v1.0.0", "1.0.0"), 0);
	CU_ASSERT_EQUAL(cmp("1.2", "1.2.0"), 0);
	CU_ASSERT_EQUAL(cmp("1.0.0-rc.1+x", "1.0.0-rc.1"), 0);
	/* numeric identifiers rank below alphanumeric ones */
	CU_ASSERT_EQUAL(cmp("1.0.0-1", "1.0.0-a"), -1);
	CU_ASSERT_EQUAL(cmp("1.0.0-2", "1.0.0-10"), -1);
	CU_ASSERT_EQUAL(cmp("1.0.0-B", "1.0.0-a"), -1); /* bytewise: upper case first */
	/* quirk: all-digit identifiers beyond uint64 compare as text */
	CU_ASSERT_EQUAL(cmp("1.0.0-99999999999999999999", "1.0.0-100000000000000000000"), 1);
	CU_ASSERT_EQUAL(cmp("1.0.0-99999999999999999999", "1.0.0-5"), 1);
}

/* ---- the rollback directive and the desired version ---- */

static void test_rollback_directive(void)
{
	CU_ASSERT_STRING_EQUAL(ss_rollback_directive("1.0.0", "2.0.0"), "1.0.0");
	CU_ASSERT_STRING_EQUAL(ss_rollback_directive("v1.0.0", "2.0.0"), "v1.0.0"); /* raw text kept */
	CU_ASSERT_STRING_EQUAL(ss_rollback_directive("2.0.0-rc.1", "2.0.0"), "2.0.0-rc.1");
	CU_ASSERT_PTR_NULL(ss_rollback_directive("2.0.0", "2.0.0"));  /* equal */
	CU_ASSERT_PTR_NULL(ss_rollback_directive("v2.0.0", "2.0.0")); /* semver-equal */
	CU_ASSERT_PTR_NULL(ss_rollback_directive("3.0.0", "2.0.0"));  /* higher */
	CU_ASSERT_PTR_NULL(ss_rollback_directive("one", "2.0.0"));    /* unparseable */
	CU_ASSERT_PTR_NULL(ss_rollback_directive("1.0.0", "two"));
	CU_ASSERT_PTR_NULL(ss_rollback_directive("1.0.0", ""));       /* nothing deployed */
	CU_ASSERT_PTR_NULL(ss_rollback_directive("", "2.0.0"));
	CU_ASSERT_PTR_NULL(ss_rollback_directive(NULL, "2.0.0"));

	bool directed = true;
	char *d = ss_resolve_desired_version(" 3.0.0\n", "2.0.0", NULL, &directed);
	CU_ASSERT_STRING_EQUAL(d, "3.0.0");
	CU_ASSERT_FALSE(directed);
	free(d);
	d = ss_resolve_desired_version("3.0.0", "2.0.0", "1.0.0", &directed);
	CU_ASSERT_STRING_EQUAL(d, "1.0.0");
	CU_ASSERT_TRUE(directed);
	free(d);
	CU_ASSERT_PTR_NULL(ss_resolve_desired_version("", "2.0.0", "1.0.0", &directed));
	CU_ASSERT_PTR_NULL(ss_resolve_desired_version(NULL, "2.0.0", NULL, NULL));
}

/* ---- the plan and the approval gate ---- */

#define RB "https://stageset.projects.metio.wtf/runbooks/"
#define AWAIT(v) "version transition to " v " is awaiting approval; set annotation stages.metio.wtf/approved-version=\"" v "\" to proceed (runbook: " RB "awaitingapproval/)"
#define AWAITN(v, n) "version transition to " v " is awaiting approval (" n " pending migration(s)); set annotation stages.metio.wtf/approved-version=\"" v "\" to proceed (runbook: " RB "awaitingapproval/)"

static const struct ss_migration reversible[] = { { "add-column", "2.0.0", true } };
static const struct ss_migration irreversible[] = { { "add-column", "2.0.0", false } };
static const struct ss_migration ladder3[] = {
	{ "m3", "3.0.0", true }, { "m2a", "2.0.0", true }, { "m2b", "2.0.0", true }, { "m1", "1.0.0", false },
};
static const struct ss_migration dup[] = { { "m", "2.0.0", true }, { "m", "3.0.0", true } };
static const struct ss_migration bad_to[] = { { "m", "two", true } };

struct pcase {
	const char *rule;
	struct ss_member m;
	/* then */
	enum ss_outcome outcome;
	const char *desired;  /* NULL: none */
	const char *reason;   /* NULL: Ready not written */
	const char *message;
	const char *pending_version;
	const char *pending;  /* migration names in run order, comma-joined */
	bool event;
};

#define ALWAYS SS_APPROVAL_ALWAYS
#define MEMBER(o_, mode_, st_, pv_, ap_, rb_)                                               \
	.versioned = true, .offered = (o_), .approval_mode = (mode_), .status_version = (st_), \
	.pending_version = (pv_), .approved_version = (ap_), .rollback_to = (rb_)

static const struct pcase pcases[] = {
	/* §3.2 */
	{ "§3.2 baseline: a new member adopts the offered version without approval under Always",
	  { MEMBER("1.0.0", ALWAYS, "", "", NULL, NULL) },
	  SS_OUT_PROCEED_BASELINE, "1.0.0", NULL, NULL, "", "", false },
	{ "§3.2 baseline ignores a rollback-to (nothing deployed)",
	  { MEMBER("2.0.0", ALWAYS, "", "", NULL, "1.0.0") },
	  SS_OUT_PROCEED_BASELINE, "2.0.0", NULL, NULL, "", "", false },
	{ "§3.2 Always holds an upgrade: AwaitingApproval, pendingVersion = desired, Warning event",
	  { MEMBER("2.0.0", ALWAYS, "1.0.0", "", NULL, NULL) },
	  SS_OUT_AWAITING_APPROVAL, "2.0.0", "AwaitingApproval", AWAIT("2.0.0"), "2.0.0", "", true },
	{ "§3.2 a held member held again emits no second event",
	  { MEMBER("2.0.0", ALWAYS, "1.0.0", "2.0.0", NULL, NULL), .prev_ready_status = "False",
	    .prev_ready_reason = "AwaitingApproval" },
	  SS_OUT_AWAITING_APPROVAL, "2.0.0", "AwaitingApproval", AWAIT("2.0.0"), "2.0.0", "", false },
	{ "§3.2 approval by the exact version string proceeds and clears pendingVersion",
	  { MEMBER("2.0.0", ALWAYS, "1.0.0", "2.0.0", "2.0.0", NULL) },
	  SS_OUT_PROCEED_UPGRADE, "2.0.0", NULL, NULL, "", "", false },
	{ "§3.2 approval is bound to one version: a later transition holds again",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "", "2.0.0", NULL) },
	  SS_OUT_AWAITING_APPROVAL, "3.0.0", "AwaitingApproval", AWAIT("3.0.0"), "3.0.0", "", true },
	{ "§6 #13 approval is an exact string: v2.0.0 does not approve 2.0.0",
	  { MEMBER("2.0.0", ALWAYS, "1.0.0", "", "v2.0.0", NULL) },
	  SS_OUT_AWAITING_APPROVAL, "2.0.0", "AwaitingApproval", AWAIT("2.0.0"), "2.0.0", "", true },
	{ "§3.2 desired == current: no transition, nothing held",
	  { MEMBER("2.0.0", ALWAYS, "2.0.0", "", NULL, NULL) },
	  SS_OUT_PROCEED_NO_CHANGE, "2.0.0", NULL, NULL, "", "", false },
	{ "§6 #13 a semver-equal re-spelling is held under Always although no transition is planned",
	  { MEMBER("v2.0.0", ALWAYS, "2.0.0", "", NULL, NULL) },
	  SS_OUT_AWAITING_APPROVAL, "v2.0.0", "AwaitingApproval", AWAIT("v2.0.0"), "v2.0.0", "", true },
	{ "§3.2 the offered value is trimmed",
	  { MEMBER("  2.0.0\t", ALWAYS, "1.0.0", "", "2.0.0", NULL) },
	  SS_OUT_PROCEED_UPGRADE, "2.0.0", NULL, NULL, "", "", false },
	{ "§3.2 Always: the message counts the pending migrations",
	  { MEMBER("3.0.0", ALWAYS, "1.0.0", "", NULL, NULL), .migrations = ladder3, .nmigrations = 4 },
	  SS_OUT_AWAITING_APPROVAL, "3.0.0", "AwaitingApproval", AWAITN("3.0.0", "3"), "3.0.0", "m2a,m2b,m3", true },
	{ "§3.2 OnMigrations: an upgrade without migrations proceeds",
	  { MEMBER("1.5.0", SS_APPROVAL_ON_MIGRATIONS, "1.0.0", "", NULL, NULL), .migrations = reversible,
	    .nmigrations = 1 },
	  SS_OUT_PROCEED_UPGRADE, "1.5.0", NULL, NULL, "", "", false },
	{ "§3.2 OnMigrations: an upgrade crossing a migration is held",
	  { MEMBER("2.0.0", SS_APPROVAL_ON_MIGRATIONS, "1.0.0", "", NULL, NULL), .migrations = reversible,
	    .nmigrations = 1 },
	  SS_OUT_AWAITING_APPROVAL, "2.0.0", "AwaitingApproval", AWAITN("2.0.0", "1"), "2.0.0", "add-column", true },
	{ "§3.2 Never: an upgrade crossing a migration proceeds unapproved",
	  { MEMBER("2.0.0", SS_APPROVAL_NEVER, "1.0.0", "", NULL, NULL), .migrations = reversible,
	    .nmigrations = 1 },
	  SS_OUT_PROCEED_UPGRADE, "2.0.0", NULL, NULL, "", "add-column", false },
	{ "§3.2 unversioned: no plan, nothing held, pendingVersion cleared",
	  { .versioned = false, .offered = "2.0.0", .approval_mode = ALWAYS, .status_version = "1.0.0",
	    .pending_version = "2.0.0" },
	  SS_OUT_UNVERSIONED, NULL, NULL, NULL, "", "", false },
	{ "§3.1 step 8 InvalidVersion: an offered version that is not semver; pendingVersion kept",
	  { MEMBER("banana", ALWAYS, "1.0.0", "2.0.0", NULL, NULL) },
	  SS_OUT_REFUSED, "banana", "InvalidVersion",
	  "desired version \"banana\" is not a semver: invalid semantic version (runbook: " RB "invalidversion/)",
	  "2.0.0", "", false },
	{ "§3.1 step 8 InvalidVersion: a recorded status.version that is not semver",
	  { MEMBER("2.0.0", ALWAYS, "two", "", NULL, NULL) },
	  SS_OUT_REFUSED, "2.0.0", "InvalidVersion",
	  "recorded status.version \"two\" is not a semver: invalid semantic version (runbook: " RB "invalidversion/)",
	  "", "", false },
	{ "§3.1 step 8 InvalidVersion: no version value",
	  { MEMBER("", ALWAYS, "1.0.0", "", NULL, NULL) },
	  SS_OUT_REFUSED, NULL, "InvalidVersion",
	  "invalid version: spec.version sets none of value, fromObject, or fromArtifact (runbook: " RB "invalidversion/)",
	  "", "", false },
	{ "§3.1 step 8 MigrationCoverageMissing: a major crossed with no migration",
	  { MEMBER("2.0.0", SS_APPROVAL_NEVER, "1.4.0", "", NULL, NULL), .require_migration_coverage = true },
	  SS_OUT_REFUSED, "2.0.0", "MigrationCoverageMissing",
	  "version crosses a major boundary 1.4.0 \xe2\x86\x92 2.0.0 but no migration covers it, and requireMigrationCoverage is set (runbook: " RB "migrationcoveragemissing/)",
	  "", "", false },
	{ "§3.1 step 8 InvalidSpec: duplicate migration names",
	  { MEMBER("3.0.0", ALWAYS, "1.0.0", "", NULL, NULL), .migrations = dup, .nmigrations = 2 },
	  SS_OUT_REFUSED, "3.0.0", "InvalidSpec",
	  "duplicate migration name \"m\"; names are the idempotency-ledger key and must be unique (runbook: " RB "invalidspec/)",
	  "", "", false },
	{ "§3.1 step 8 InvalidSpec: a migration whose to is not semver",
	  { MEMBER("3.0.0", ALWAYS, "1.0.0", "", NULL, NULL), .migrations = bad_to, .nmigrations = 1 },
	  SS_OUT_REFUSED, "3.0.0", "InvalidSpec",
	  "migration \"m\" has an invalid to \"two\": invalid semantic version (runbook: " RB "invalidspec/)",
	  "", "", false },
	/* §3.4 and §2.8: rollback-to and downgrades */
	{ "§3.4 rollback-to below deployed becomes desired; allowDowngrade false => DowngradeNotAllowed, pendingVersion kept (G3)",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "3.0.0", NULL, "1.0.0") },
	  SS_OUT_REFUSED, "1.0.0", "DowngradeNotAllowed",
	  "desired version 1.0.0 is below the deployed version 2.0.0 and downgrades are not enabled; set spec.version.allowDowngrade to enable reversible downgrades (runbook: " RB "downgradenotallowed/)",
	  "3.0.0", "", false },
	{ "§3.4 DowngradeNotAllowed prints the deployed version as the library formats it",
	  { MEMBER("v1.0", ALWAYS, "v2.0", "", NULL, NULL) },
	  SS_OUT_REFUSED, "v1.0", "DowngradeNotAllowed",
	  "desired version v1.0 is below the deployed version 2.0.0 and downgrades are not enabled; set spec.version.allowDowngrade to enable reversible downgrades (runbook: " RB "downgradenotallowed/)",
	  "", "", false },
	{ "§3.4 a crossed boundary without down actions => DowngradeRequiresMigration",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "", NULL, "1.0.0"), .allow_downgrade = true,
	    .migrations = irreversible, .nmigrations = 1 },
	  SS_OUT_REFUSED, "1.0.0", "DowngradeRequiresMigration",
	  "downgrade 2.0.0 \xe2\x86\x92 1.0.0 crosses migration \"add-column\" (to 2.0.0), which declares no down actions; it is irreversible (runbook: " RB "downgraderequiresmigration/)",
	  "", "", false },
	{ "§6 #3 a reversible downgrade itself needs approval under Always: pendingVersion = previousVersion (G3, G10)",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "3.0.0", "2.0.0", "1.0.0"), .allow_downgrade = true,
	    .migrations = reversible, .nmigrations = 1 },
	  SS_OUT_AWAITING_APPROVAL, "1.0.0", "AwaitingApproval", AWAITN("1.0.0", "1"), "1.0.0", "add-column", true },
	{ "§5 G10 pinned fleet keeps stamping the target: the rollback stays held",
	  { MEMBER("2.0.0", ALWAYS, "2.0.0", "1.0.0", "2.0.0", "1.0.0"), .allow_downgrade = true,
	    .migrations = reversible, .nmigrations = 1, .prev_ready_status = "False",
	    .prev_ready_reason = "AwaitingApproval" },
	  SS_OUT_AWAITING_APPROVAL, "1.0.0", "AwaitingApproval", AWAITN("1.0.0", "1"), "1.0.0", "add-column", false },
	{ "§2.8 derived fleet approves the previous version: the downgrade proceeds",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "1.0.0", "1.0.0", "1.0.0"), .allow_downgrade = true,
	    .migrations = reversible, .nmigrations = 1 },
	  SS_OUT_PROCEED_DOWNGRADE, "1.0.0", NULL, NULL, "", "add-column", false },
	{ "§2.8 Never: a member downgrades at once, without approval",
	  { MEMBER("3.0.0", SS_APPROVAL_NEVER, "2.0.0", "", NULL, "1.0.0"), .allow_downgrade = true },
	  SS_OUT_PROCEED_DOWNGRADE, "1.0.0", NULL, NULL, "", "", false },
	{ "§3.4 boundaries unwind newest first, equal targets in ladder order; a boundary at desired is not crossed",
	  { MEMBER("1.0.0", SS_APPROVAL_NEVER, "3.0.0", "", NULL, NULL), .allow_downgrade = true,
	    .migrations = ladder3, .nmigrations = 4 },
	  SS_OUT_PROCEED_DOWNGRADE, "1.0.0", NULL, NULL, "", "m3,m2a,m2b", false },
	{ "§3.4 upgrades run boundaries oldest first, equal targets in ladder order",
	  { MEMBER("3.0.0", SS_APPROVAL_NEVER, "0.9.0", "", NULL, NULL), .migrations = ladder3,
	    .nmigrations = 4 },
	  SS_OUT_PROCEED_UPGRADE, "3.0.0", NULL, NULL, "", "m1,m2a,m2b,m3", false },
	{ "§3.4 rollback-to equal to the deployed version is ignored",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "", NULL, "2.0.0") },
	  SS_OUT_AWAITING_APPROVAL, "3.0.0", "AwaitingApproval", AWAIT("3.0.0"), "3.0.0", "", true },
	{ "§3.4 rollback-to above the deployed version is ignored",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "", "3.0.0", "2.5.0") },
	  SS_OUT_PROCEED_UPGRADE, "3.0.0", NULL, NULL, "", "", false },
	{ "§3.4 an unparseable rollback-to is ignored",
	  { MEMBER("3.0.0", ALWAYS, "2.0.0", "", "3.0.0", "previous") },
	  SS_OUT_PROCEED_UPGRADE, "3.0.0", NULL, NULL, "", "", false },
	{ "§6 #4 after the downgrade the stale rollback-to no longer applies: the newer version is held again",
	  { MEMBER("3.0.0", ALWAYS, "1.0.0", "", "1.0.0", "1.0.0"), .allow_downgrade = true,
	    .migrations = reversible, .nmigrations = 1 },
	  SS_OUT_AWAITING_APPROVAL, "3.0.0", "AwaitingApproval", AWAITN("3.0.0", "1"), "3.0.0", "add-column", true },
	{ "§6 #4 ... and once re-upgraded the stale rollback-to directs a downgrade again",
	  { MEMBER("3.0.0", ALWAYS, "3.0.0", "", "3.0.0", "1.0.0"), .allow_downgrade = true,
	    .migrations = reversible, .nmigrations = 1 },
	  SS_OUT_AWAITING_APPROVAL, "1.0.0", "AwaitingApproval", AWAITN("1.0.0", "1"), "1.0.0", "add-column", true },
};

static char *join_pending(const struct ss_member *m, const struct ss_plan *p)
{
	size_t len = 1;
	for (size_t i = 0; i < p->npending; i++)
		len += strlen(m->migrations[p->pending[i]].name) + 1;
	char *s = calloc(1, len);
	for (size_t i = 0; i < p->npending; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, m->migrations[p->pending[i]].name);
	}
	return s;
}

static bool streq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	return strcmp(a, b) == 0;
}

static void test_plan(void)
{
	for (size_t i = 0; i < sizeof(pcases) / sizeof(pcases[0]); i++) {
		const struct pcase *k = &pcases[i];
		struct ss_plan p;
		ss_plan_compute(&k->m, &p);
		char *pend = join_pending(&k->m, &p);
		bool ok = p.outcome == k->outcome && streq(p.desired, k->desired) && streq(p.reason, k->reason) &&
			  streq(p.message, k->message) && streq(p.pending_version, k->pending_version) &&
			  streq(pend, k->pending) && p.event == k->event && p.writes_ready == (k->reason != NULL) &&
			  p.requeue_after_ms == (k->reason ? SS_PERMANENT_RETRY_MS : 0) &&
			  (!p.writes_ready || streq(p.ready_status, "False")) &&
			  (!p.event || streq(p.event_type, "Warning"));
		if (!ok)
			fprintf(stderr, "\n%s:\n  outcome %s desired %s reason %s event %d\n  message %s\n  pendingVersion %s pending %s\n",
				k->rule, ss_outcome_name(p.outcome), p.desired ? p.desired : "(null)",
				p.reason ? p.reason : "(null)", p.event, p.message ? p.message : "(null)",
				p.pending_version, pend);
		CU_ASSERT(ok);
		free(pend);
		ss_plan_release(&p);
	}
	ss_plan_release(NULL);
}

static void test_approval_needed(void)
{
	struct ss_plan p = { 0 };
	char des[] = "2.0.0";
	size_t one = 0;
	CU_ASSERT_FALSE(ss_version_approval_needed(ALWAYS, NULL, "1.0.0"));
	p.versioned = true;
	p.desired = des;
	CU_ASSERT_TRUE(ss_version_approval_needed(ALWAYS, &p, "1.0.0"));
	CU_ASSERT_TRUE(ss_version_approval_needed(ALWAYS, &p, "3.0.0")); /* direction-agnostic */
	CU_ASSERT_FALSE(ss_version_approval_needed(ALWAYS, &p, "2.0.0"));
	CU_ASSERT_TRUE(ss_version_approval_needed(ALWAYS, &p, "v2.0.0"));
	CU_ASSERT_FALSE(ss_version_approval_needed(SS_APPROVAL_ON_MIGRATIONS, &p, "1.0.0"));
	p.pending = &one;
	p.npending = 1;
	CU_ASSERT_TRUE(ss_version_approval_needed(SS_APPROVAL_ON_MIGRATIONS, &p, "1.0.0"));
	CU_ASSERT_FALSE(ss_version_approval_needed(SS_APPROVAL_NEVER, &p, "1.0.0"));
	p.baseline = true;
	CU_ASSERT_FALSE(ss_version_approval_needed(ALWAYS, &p, ""));
	p.baseline = false;
	p.versioned = false;
	CU_ASSERT_FALSE(ss_version_approval_needed(ALWAYS, &p, "1.0.0"));
}

static void test_messages(void)
{
	char *s = ss_decorate_message("StageFailed", "boom");
	CU_ASSERT_STRING_EQUAL(s, "boom (runbook: " RB "stagefailed/)");
	free(s);
	s = ss_decorate_message("Succeeded", "Applied and verified 2 stage(s)");
	CU_ASSERT_STRING_EQUAL(s, "Applied and verified 2 stage(s)");
	free(s);
	s = ss_decorate_message("Suspended", "paused");
	CU_ASSERT_STRING_EQUAL(s, "paused");
	free(s);
	s = ss_succeeded_message(3);
	CU_ASSERT_STRING_EQUAL(s, "Applied and verified 3 stage(s)");
	free(s);
}

/* ---- StrictNewVersion and constraints (Masterminds' own tables) ---- */

/* TestStrictNewVersion */
static const struct {
	const char *in;
	bool err;
} strict_cases[] = {
	{ "1.2.3", false },
	{ "1.2.3-alpha.01", true },
	{ "1.2.3+test.01", false },
	{ "1.2.3-alpha.-1", false },
	{ "v1.2.3", true },
	{ "1.0", true },
	{ "v1.0", true },
	{ "1", true },
	{ "v1", true },
	{ "1.2", true },
	{ "1.2.beta", true },
	{ "v1.2.beta", true },
	{ "foo", true },
	{ "1.2-5", true },
	{ "v1.2-5", true },
	{ "1.2-beta.5", true },
	{ "v1.2-beta.5", true },
	{ "\n1.2", true },
	{ "\nv1.2", true },
	{ "1.2.0-x.Y.0+metadata", false },
	{ "v1.2.0-x.Y.0+metadata", true },
	{ "1.2.0-x.Y.0+metadata-width-hypen", false },
	{ "v1.2.0-x.Y.0+metadata-width-hypen", true },
	{ "1.2.3-rc1-with-hypen", false },
	{ "1.2.3-0abc123", false },
	{ "1.2.3-beta.01", true },
	{ "v1.2.3-rc1-with-hypen", true },
	{ "1.2.3.4", true },
	{ "v1.2.3.4", true },
	{ "1.2.2147483648", false },
	{ "1.2147483648.3", false },
	{ "2147483648.3.0", false },
	{ "20221209-update-renovatejson-v4", true },
	{ "1.1.2+.123", true },
	{ "1.0.0-alpha_beta", true },
	{ "1.0.0-alpha..", true },
	{ "1.0.0-alpha..1", true },
	{ "01.1.1", true },
	{ "1.01.1", true },
	{ "1.1.01", true },
	{ "9.8.7+meta+meta", true },
	{ "1.2.31----RC-SNAPSHOT.12.09.1--.12+788", true },
	{ "1.2.3-0123", true },
	{ "1.2.3-0123.0123", true },
	{ "+invalid", true },
	{ "-invalid", true },
	{ "-invalid.01", true },
	{ "alpha+beta", true },
	{ "1.2.3-alpha_beta+foo", true },
	{ "1.0.0-alpha..1", true },
	/* the error texts */
	{ "", true },
};

static void test_strict_new_version(void)
{
	for (size_t i = 0; i < sizeof(strict_cases) / sizeof(strict_cases[0]); i++) {
		struct ss_semver v;
		int rc = ss_semver_parse_strict(strict_cases[i].in, &v, NULL, 0);
		if ((rc != SS_OK) != strict_cases[i].err)
			fprintf(stderr, "\nStrictNewVersion(%s) rc %d\n", strict_cases[i].in, rc);
		CU_ASSERT_EQUAL(rc != SS_OK, strict_cases[i].err);
	}
	static const struct {
		const char *in, *err;
	} texts[] = {
		{ "", "version string empty" },
		{ "1.2", "invalid semantic version" },
		{ "1.2.x", "invalid characters in version" },
		{ "1.02.3", "version segment starts with 0" },
		{ "1.2.3-a..b", "invalid prerelease string" },
		{ "1.2.3+a_b", "invalid metadata string" },
		{ "1..3", "strconv.ParseUint: parsing \"\": invalid syntax" },
		{ "1.2.99999999999999999999", "strconv.ParseUint: parsing \"99999999999999999999\": value out of range" },
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct ss_semver v;
		char err[200] = "";
		CU_ASSERT_EQUAL(ss_semver_parse_strict(texts[i].in, &v, err, sizeof(err)), SS_EINVAL);
		CU_ASSERT_STRING_EQUAL(err, texts[i].err);
	}
	struct ss_semver v;
	CU_ASSERT_EQUAL_FATAL(ss_semver_parse_strict("1.2.3-rc.1+b.7", &v, NULL, 0), SS_OK);
	char *str = ss_semver_string(&v);
	CU_ASSERT_STRING_EQUAL(str, "1.2.3-rc.1+b.7");
	free(str);
}

/* TestParseConstraint: the operator and the version a unit parses to. */
static void test_parse_constraint(void)
{
	static const struct {
		const char *in, *op, *ver; /* ver NULL: an error */
	} cases[] = {
		{ ">= 1.2", ">=", "1.2.0" },  { "1.0", "", "1.0.0" },      { "foo", NULL, NULL },
		{ "<= 1.2", "<=", "1.2.0" },  { "=< 1.2", "=<", "1.2.0" },  { "=> 1.2", "=>", "1.2.0" },
		{ "v1.2", "", "1.2.0" },      { "=1.5", "=", "1.5.0" },     { "> 1.3", ">", "1.3.0" },
		{ "< 1.4.1", "<", "1.4.1" },  { "< 40.50.10", "<", "40.50.10" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_constraint c;
		char err[200] = "";
		int rc = ss_constraint_parse(cases[i].in, &c, err, sizeof(err));
		if (!cases[i].ver) {
			CU_ASSERT_EQUAL(rc, SS_EINVAL);
			CU_ASSERT_STRING_EQUAL(err, "improper constraint: \"foo\"");
			continue;
		}
		CU_ASSERT_EQUAL_FATAL(rc, SS_OK);
		CU_ASSERT_STRING_EQUAL(c.op, cases[i].op);
		char *v = ss_semver_string(&c.con);
		CU_ASSERT_STRING_EQUAL(v, cases[i].ver);
		free(v);
		ss_constraint_release(&c);
	}
	/* isX: x, X and * leave a part open; anything else is a number */
	static const struct {
		const char *in;
		bool dirty, minor, patch;
	} open_parts[] = {
		{ "X", true, false, false }, { "1.x", true, true, false }, { "1.2.*", true, false, true },
		{ "1", true, true, false },  { "1.2", true, false, true },  { "1.2.3", false, false, false },
	};
	for (size_t i = 0; i < sizeof(open_parts) / sizeof(open_parts[0]); i++) {
		struct ss_constraint c;
		CU_ASSERT_EQUAL_FATAL(ss_constraint_parse(open_parts[i].in, &c, NULL, 0), SS_OK);
		CU_ASSERT_EQUAL(c.dirty, open_parts[i].dirty);
		CU_ASSERT_EQUAL(c.minor_dirty, open_parts[i].minor);
		CU_ASSERT_EQUAL(c.patch_dirty, open_parts[i].patch);
		ss_constraint_release(&c);
	}
	struct ss_constraint c;
	char err[100] = "";
	CU_ASSERT_EQUAL(ss_constraint_parse("A", &c, err, sizeof(err)), SS_EINVAL);
	CU_ASSERT_EQUAL(ss_constraint_parse("%", &c, err, sizeof(err)), SS_EINVAL);
}

/* TestConstraintCheck: one unit, pre-releases looked at when the unit names one. */
static void test_constraint_check(void)
{
	static const struct {
		const char *c, *v;
		bool ok;
	} cases[] = {
		{ "=2.0.0", "1.2.3", false }, { "=2.0.0", "2.0.0", true }, { "=2.0", "1.2.3", false },
		{ "=2.0", "2.0.0", true }, { "=2.0", "2.0.1", true }, { "4.1", "4.1.0", true },
		{ "!=4.1.0", "4.1.0", false }, { "!=4.1.0", "4.1.1", true }, { "!=4.1", "4.1.0", false },
		{ "!=4.1", "4.1.1", false }, { "!=4.1", "5.1.0-alpha.1", false },
		{ "!=4.1.0", "5.1.0-alpha.1", false }, { "!=4.1-alpha", "4.1.0", true }, { "!=4.1", "5.1.0", true },
		{ "<11", "0.1.0", true }, { "<11", "11.1.0", false }, { "<1.1", "0.1.0", true },
		{ "<1.1", "1.1.0", false }, { "<1.1", "1.1.1", false }, { "<=11", "1.2.3", true },
		{ "<=11", "12.2.3", false }, { "<=11", "11.2.3", true }, { "<=1.1", "1.2.3", false },
		{ "<=1.1", "0.1.0", true }, { "<=1.1", "1.1.0", true }, { "<=1.1", "1.1.1", true },
		{ ">1.1", "4.1.0", true }, { ">1.1", "1.1.0", false }, { ">0", "0", false }, { ">0", "1", true },
		{ ">0", "0.0.1-alpha", false }, { ">0.0", "0.0.1-alpha", false }, { ">0-0", "0.0.1-alpha", false },
		{ ">0.0-0", "0.0.1-alpha", false }, { ">0", "0.0.0-alpha", false }, { ">0-0", "0.0.0-alpha", false },
		{ ">0.0.0-0", "0.0.0-alpha", true }, { ">1.2.3-alpha.1", "1.2.3-alpha.2", true },
		{ ">1.2.3-alpha.1", "1.3.3-alpha.2", true }, { ">11", "11.1.0", false }, { ">11.1", "11.1.0", false },
		{ ">11.1", "11.1.1", false }, { ">11.1", "11.2.1", true }, { ">=11", "11.1.2", true },
		{ ">=11.1", "11.1.2", true }, { ">=11.1", "11.0.2", false }, { ">=1.1", "4.1.0", true },
		{ ">=1.1", "1.1.0", true }, { ">=1.1", "0.0.9", false }, { ">=0", "0.0.1-alpha", false },
		{ ">=0.0", "0.0.1-alpha", false }, { ">=0-0", "0.0.1-alpha", true }, { ">=0.0-0", "0.0.1-alpha", true },
		{ ">=0", "0.0.0-alpha", false }, { ">=0-0", "0.0.0-alpha", true }, { ">=0.0.0-0", "0.0.0-alpha", true },
		{ ">=0.0.0-0", "1.2.3", true }, { ">=0.0.0-0", "3.4.5-beta.1", true }, { "<0", "0.0.0-alpha", false },
		{ "<0-z", "0.0.0-alpha", true }, { ">=0", "0", true }, { "=0", "1", false }, { "*", "1", true },
		{ "*", "4.5.6", true }, { "*", "1.2.3-alpha.1", false }, { "*-0", "1.2.3-alpha.1", true },
		{ "2.*", "1", false }, { "2.*", "3.4.5", false }, { "2.*", "2.1.1", true }, { "2.1.*", "2.1.1", true },
		{ "2.1.*", "2.2.1", false }, { "", "1", true }, { "", "4.5.6", true }, { "", "1.2.3-alpha.1", false },
		{ "2", "1", false }, { "2", "3.4.5", false }, { "2", "2.1.1", true }, { "2.1", "2.1.1", true },
		{ "2.1", "2.2.1", false }, { "~1.2.3", "1.2.4", true }, { "~1.2.3", "1.3.4", false },
		{ "~1.2", "1.2.4", true }, { "~1.2", "1.3.4", false }, { "~1", "1.2.4", true }, { "~1", "2.3.4", false },
		{ "~0.2.3", "0.2.5", true }, { "~0.2.3", "0.3.5", false }, { "~1.2.3-beta.2", "1.2.3-beta.4", true },
		{ "~1.2.3-beta.2", "1.2.4-beta.2", true }, { "~1.2.3-beta.2", "1.3.4-beta.2", false },
		{ "^1.2.3", "1.8.9", true }, { "^1.2.3", "2.8.9", false }, { "^1.2.3", "1.2.1", false },
		{ "^1.1.0", "2.1.0", false }, { "^1.2.0", "2.2.1", false }, { "^1.2.0", "1.2.1-alpha.1", false },
		{ "^1.2.0-alpha.0", "1.2.1-alpha.1", true }, { "^1.2.0-alpha.0", "1.2.1-alpha.0", true },
		{ "^1.2.0-alpha.2", "1.2.0-alpha.1", false }, { "^1.2", "1.8.9", true }, { "^1.2", "2.8.9", false },
		{ "^1", "1.8.9", true }, { "^1", "2.8.9", false }, { "^0.2.3", "0.2.5", true },
		{ "^0.2.3", "0.5.6", false }, { "^0.2", "0.2.5", true }, { "^0.2", "0.5.6", false },
		{ "^0.0.3", "0.0.3", true }, { "^0.0.3", "0.0.4", false }, { "^0.0", "0.0.3", true },
		{ "^0.0", "0.1.4", false }, { "^0.0", "1.0.4", false }, { "^0", "0.2.3", true }, { "^0", "1.1.4", false },
		{ "^0.2.3-beta.2", "0.2.3-beta.4", true }, { "^0.2.3-beta.2", "0.2.4-beta.2", true },
		{ "^0.2.3-beta.2", "0.3.4-beta.2", false }, { "^0.2.3-beta.2", "0.2.3-beta.2", true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_constraint c;
		struct ss_semver v;
		CU_ASSERT_EQUAL_FATAL(ss_constraint_parse(cases[i].c, &c, NULL, 0), SS_OK);
		CU_ASSERT_EQUAL_FATAL(ss_semver_parse(cases[i].v, &v, NULL, 0), SS_OK);
		bool got = ss_constraint_check(&c, &v, c.con.npre > 0);
		if (got != cases[i].ok)
			fprintf(stderr, "\nconstraint %s with %s: got %d\n", cases[i].c, cases[i].v, got);
		CU_ASSERT_EQUAL(got, cases[i].ok);
		ss_constraint_release(&c);
	}
}

/* TestNewConstraint: how many alternatives and units, or an error. */
static void test_new_constraint(void)
{
	static const struct {
		const char *in;
		size_t ors, count;
		bool err;
	} cases[] = {
		{ ">= 1.1", 1, 1, false },
		{ ">40.50.60, < 50.70", 1, 2, false },
		{ "2.0", 1, 1, false },
		{ "v2.3.5-20161202202307-sha.e8fc5e5", 1, 1, false },
		{ "v1.2.3-0abc", 1, 1, false },
		{ "v1.2.3-beta.01", 0, 0, true },
		{ ">= bar", 0, 0, true },
		{ "BAR >= 1.2.3", 0, 0, true },
		{ ">= 1.2.3 < 2.0", 1, 2, false },
		{ ">= 1.2.3 < 2.0 || => 3.0 < 4", 2, 2, false },
		{ ">= 1.2.3, < 2.0", 1, 2, false },
		{ ">= 1.2.3, < 2.0 || => 3.0, < 4", 2, 2, false },
		{ "3 - 4 || => 3.0, < 4", 2, 2, false },
		{ "12.3.4.1234", 0, 0, true },
		{ "12.23.4.1234", 0, 0, true },
		{ "12.3.34.1234", 0, 0, true },
		{ "12.3.34 ~1.2.3", 1, 2, false },
		{ "12.3.34~ 1.2.3", 0, 0, true },
		{ "1.0.0 - 2.0.0, <=2.0.0", 1, 3, false },
		/* FuzzNewConstraint's seeds must not crash; these parse */
		{ "1.2.3-beta.1", 1, 1, false },
		{ "1.2.3+foo", 1, 1, false },
		{ "987654321.123456789.654123789", 1, 1, false },
		{ "9.2-beta.0", 1, 1, false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ss_constraints cs;
		char err[200] = "";
		int rc = ss_constraints_parse(cases[i].in, &cs, err, sizeof(err));
		if ((rc != SS_OK) != cases[i].err)
			fprintf(stderr, "\nNewConstraint(%s): rc %d %s\n", cases[i].in, rc, err);
		CU_ASSERT_EQUAL(rc != SS_OK, cases[i].err);
		if (rc != SS_OK)
			continue;
		CU_ASSERT_EQUAL(cs.ngroups, cases[i].ors);
		CU_ASSERT_EQUAL(cs.groups[0].n, cases[i].count);
		ss_constraints_release(&cs);
	}
	static const char *const fuzz_seeds[] = { "v1.2.3", " ", "......", "1", "2.3.4-alpha.1+bar", "lorem ipsum",
						  "*", "!=1.2.3", "^4.5", "1.0.0 - 2", "1.2.3.4.5.6", ">= 1",
						  "~9.8.7", "<= 12.13.14", "1.x", "2.3.x", "", "||", "1 -",
						  "- 1", "1 - ", ">=1.0.0,", ",1", "1|2", "1 || 2 ||" };
	for (size_t i = 0; i < sizeof(fuzz_seeds) / sizeof(fuzz_seeds[0]); i++) {
		struct ss_constraints cs;
		if (ss_constraints_parse(fuzz_seeds[i], &cs, NULL, 0) == SS_OK)
			ss_constraints_release(&cs);
	}
	/* the error texts */
	static const struct {
		const char *in, *err;
	} texts[] = {
		{ ">>bad", "improper constraint: \">>bad\"" },
		{ "", "improper constraint: \"\"" },
		{ "1 || ", "improper constraint: \" \"" },
		{ ">= 1.0 || x y\tz", "improper constraint: \" x y\\tz\"" },
		{ "v1.2.3-beta.01", "constraint parser error" },
		{ "1|2", "constraint parser error" },
		{ "1.xx", "constraint parser error" },
	};
	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		struct ss_constraints cs;
		char err[200] = "";
		CU_ASSERT_EQUAL(ss_constraints_parse(texts[i].in, &cs, err, sizeof(err)), SS_EINVAL);
		if (strcmp(err, texts[i].err) != 0)
			fprintf(stderr, "\nNewConstraint(%s): %s\n", texts[i].in, err);
		CU_ASSERT_STRING_EQUAL(err, texts[i].err);
	}
}

/* TestConstraintsCheck; `inc` is the result with IncludePrerelease (TestConstraintsCheckIncludePrerelease). */
static const struct {
	const char *c, *v;
	bool ok, inc;
} constraints_check_cases[] = {
	{ "*", "1.2.3", true, true }, { "~0.0.0", "1.2.3", true, true }, { "0.x.x", "1.2.3", false, false },
	{ "0.0.x", "1.2.3", false, false }, { "0.0.0", "1.2.3", false, false }, { "^0.0.0", "1.2.3", false, false },
	{ "= 2.0", "1.2.3", false, false }, { "= 2.0", "2.0.0", true, true }, { "4.1", "4.1.0", true, true },
	{ "4.1.x", "4.1.3", true, true }, { "1.x", "1.4", true, true }, { "!=4.1", "4.1.0", false, false },
	{ "!=4.1-alpha", "4.1.0-alpha", false, false }, { "!=4.1-alpha", "4.1.1-alpha", false, false },
	{ "!=4.1-alpha", "4.1.0", true, true }, { "!=4.1", "5.1.0", true, true }, { "!=4.x", "5.1.0", true, true },
	{ "!=4.x", "4.1.0", false, false }, { "!=4.1.x", "4.2.0", true, true }, { "!=4.2.x", "4.2.3", false, false },
	{ ">1.1", "4.1.0", true, true }, { ">1.1", "1.1.0", false, false }, { "<1.1", "0.1.0", true, true },
	{ "<1.1", "1.1.0", false, false }, { "<1.1", "1.1.1", false, false }, { "<1.x", "1.1.1", false, false },
	{ "<1.x", "0.1.1", true, true }, { "<1.x", "2.0.0", false, false }, { "<1.1.x", "1.2.1", false, false },
	{ "<1.1.x", "1.1.500", false, false }, { "<1.1.x", "1.0.500", true, true }, { "<1.2.x", "1.1.1", true, true },
	{ ">=1.1", "4.1.0", true, true }, { ">=1.1", "4.1.0-beta", false, true }, { ">=1.1", "1.1.0", true, true },
	{ ">=1.1", "0.0.9", false, false }, { "<=1.1", "0.1.0", true, true }, { "<=1.1", "0.1.0-alpha", false, true },
	{ "<=1.1-a", "0.1.0-alpha", true, true }, { "<=1.1", "1.1.0", true, true }, { "<=1.x", "1.1.0", true, true },
	{ "<=2.x", "3.0.0", false, false }, { "<=1.1", "1.1.1", true, true }, { "<=1.1.x", "1.2.500", false, false },
	{ "<=4.5", "3.4.0", true, true }, { "<=4.5", "3.7.0", true, true }, { "<=4.5", "4.6.3", false, false },
	{ ">1.1, <2", "1.1.1", false, false }, { ">1.1, <2", "1.2.1", true, true }, { ">1.1, <3", "4.3.2", false, false },
	{ ">=1.1, <2, !=1.2.3", "1.2.3", false, false }, { ">1.1 <2", "1.1.1", false, false },
	{ ">1.1 <2", "1.2.1", true, true }, { ">1.1    <3", "4.3.2", false, false },
	{ ">=1.1    <2    !=1.2.3", "1.2.3", false, false }, { ">=1.1, <2, !=1.2.3 || > 3", "4.1.2", true, true },
	{ ">=1.1, <2, !=1.2.3 || > 3", "3.1.2", false, false }, { ">=1.1, <2, !=1.2.3 || >= 3", "3.0.0", true, true },
	{ ">=1.1, <2, !=1.2.3 || > 3", "3.0.0", false, false }, { ">=1.1, <2, !=1.2.3 || > 3", "1.2.3", false, false },
	{ ">=1.1 <2 !=1.2.3", "1.2.3", false, false }, { ">=1.1 <2 !=1.2.3 || > 3", "4.1.2", true, true },
	{ ">=1.1 <2 !=1.2.3 || > 3", "3.1.2", false, false }, { ">=1.1 <2 !=1.2.3 || >= 3", "3.0.0", true, true },
	{ ">=1.1 <2 !=1.2.3 || > 3", "3.0.0", false, false }, { ">=1.1 <2 !=1.2.3 || > 3", "1.2.3", false, false },
	{ "> 1.1, <     2", "1.1.1", false, false }, { ">   1.1, <2", "1.2.1", true, true },
	{ ">1.1, <  3", "4.3.2", false, false }, { ">= 1.1, <     2, !=1.2.3", "1.2.3", false, false },
	{ "> 1.1 < 2", "1.1.1", false, false }, { ">1.1 < 2", "1.2.1", true, true }, { "> 1.1    <3", "4.3.2", false, false },
	{ ">=1.1    < 2    != 1.2.3", "1.2.3", false, false }, { ">= 1.1, <2, !=1.2.3 || > 3", "4.1.2", true, true },
	{ ">= 1.1, <2, != 1.2.3 || > 3", "3.1.2", false, false }, { ">= 1.1, <2, != 1.2.3 || >= 3", "3.0.0", true, true },
	{ ">= 1.1, <2, !=1.2.3 || > 3", "3.0.0", false, false }, { ">= 1.1, <2, !=1.2.3 || > 3", "1.2.3", false, false },
	{ ">= 1.1 <2 != 1.2.3", "1.2.3", false, false }, { ">= 1.1 <2 != 1.2.3 || > 3", "4.1.2", true, true },
	{ ">= 1.1 <2 != 1.2.3 || > 3", "3.1.2", false, false }, { ">= 1.1 <2 != 1.2.3 || >= 3", "3.0.0", true, true },
	{ ">= 1.1 < 2 !=1.2.3 || > 3", "3.0.0", false, false }, { ">=1.1 < 2 !=1.2.3 || > 3", "1.2.3", false, false },
	{ ">= 1.0.0  <= 2.0.0-beta", "1.0.1-beta", true, true }, { ">= 1.0.0  <= 2.0.0-beta", "1.0.1", true, true },
	{ ">= 1.0.0  <= 2.0.0-beta", "3.0.0", false, false }, { ">= 1.0.0  <= 2.0.0-beta || > 3", "1.0.1-beta", true, true },
	{ ">= 1.0.0  <= 2.0.0-beta || > 3", "3.0.1-beta", false, false },
	{ ">= 1.0.0  <= 2.0.0-beta != 1.0.1 || > 3", "1.0.1-beta", true, true },
	{ ">= 1.0.0  <= 2.0.0-beta != 1.0.1-beta || > 3", "1.0.1-beta", false, false },
	{ ">= 1.0.0-0  <= 2.0.0", "1.0.1-beta", true, true }, { "1.1 - 2", "1.1.1", true, true },
	{ "1.5.0 - 4.5", "3.7.0", true, true }, { "1.1-3", "4.3.2", false, false }, { "^1.1", "1.1.1", true, true },
	{ "^1.1", "4.3.2", false, false }, { "^1.x", "1.1.1", true, true }, { "^2.x", "1.1.1", false, false },
	{ "^1.x", "2.1.1", false, false }, { "^1.x", "1.1.1-beta1", false, true }, { "^1.1.2-alpha", "1.2.1-beta1", true, true },
	{ "^1.2.x-alpha", "1.1.1-beta1", false, false }, { "^0.0.1", "0.0.1", true, true }, { "^0.0.1", "0.3.1", false, false },
	{ "~*", "2.1.1", true, true }, { "~1", "2.1.1", false, false }, { "~1", "1.3.5", true, true },
	{ "~1", "1.4", true, true }, { "~1.x", "2.1.1", false, false }, { "~1.x", "1.3.5", true, true },
	{ "~1.x", "1.4", true, true }, { "~1.1", "1.1.1", true, true }, { "~1.1", "1.1.1-alpha", false, true },
	{ "~1.1-alpha", "1.1.1-beta", true, true }, { "~1.1.1-beta", "1.1.1-alpha", false, false },
	{ "~1.1.1-beta", "1.1.1", true, true }, { "~1.2.3", "1.2.5", true, true }, { "~1.2.3", "1.2.2", false, false },
	{ "~1.2.3", "1.3.2", false, false }, { "~1.1", "1.2.3", false, false }, { "~1.3", "2.4.5", false, false },
	{ "1.0.0 - 2.0.0 <=2.0.0", "1.5.0", true, true }, { "1.0.0 - 2.0.0, <=2.0.0", "1.5.0", true, true },
	/* TestConstraintsCheckIncludePrerelease's own first group */
	{ ">1.1", "4.1.0-beta", false, true }, { "<1.1", "0.1.0-alpha", false, true },
	{ "*", "1.2.3-alpha", false, true }, { "= 2.0", "2.0.1-beta", false, true },
};

static void test_constraints_check(void)
{
	for (size_t i = 0; i < sizeof(constraints_check_cases) / sizeof(constraints_check_cases[0]); i++) {
		struct ss_constraints cs;
		struct ss_semver v;
		char err[200] = "";
		int rc = ss_constraints_parse(constraints_check_cases[i].c, &cs, err, sizeof(err));
		if (rc != SS_OK)
			fprintf(stderr, "\nNewConstraint(%s): %s\n", constraints_check_cases[i].c, err);
		CU_ASSERT_EQUAL_FATAL(rc, SS_OK);
		CU_ASSERT_EQUAL_FATAL(ss_semver_parse(constraints_check_cases[i].v, &v, NULL, 0), SS_OK);
		bool got = ss_constraints_check(&cs, &v);
		cs.include_prerelease = true;
		bool inc = ss_constraints_check(&cs, &v);
		if (got != constraints_check_cases[i].ok || inc != constraints_check_cases[i].inc)
			fprintf(stderr, "\n'%s' with '%s': got %d/%d\n", constraints_check_cases[i].c,
				constraints_check_cases[i].v, got, inc);
		CU_ASSERT_EQUAL(got, constraints_check_cases[i].ok);
		CU_ASSERT_EQUAL(inc, constraints_check_cases[i].inc);
		ss_constraints_release(&cs);
	}
}

/* TestRewriteRange */
static void test_rewrite_range(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "2 - 3", ">= 2, <= 3 " },
		{ "2 - 3, 2 - 3", ">= 2, <= 3 ,>= 2, <= 3 " },
		{ "2 - 3, 4.0.0 - 5.1", ">= 2, <= 3 ,>= 4.0.0, <= 5.1 " },
		{ "2 - 3 4.0.0 - 5.1", ">= 2, <= 3 >= 4.0.0, <= 5.1 " },
		{ "1.0.0 - 2.0.0 <=2.0.0", ">= 1.0.0, <= 2.0.0 <=2.0.0" },
		/* no range: the text as it was; a range needs white space on both sides of the dash */
		{ ">=1.0.0, <2.0.0", ">=1.0.0, <2.0.0" },
		{ "1.0.0 -2.0.0", "1.0.0 -2.0.0" },
		{ "1.0.0-rc.1 - v2", ">= 1.0.0-rc.1, <= v2 " },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *o = ss_constraint_rewrite_range(cases[i].in);
		CU_ASSERT_STRING_EQUAL(o, cases[i].out);
		free(o);
	}
}

static CU_TestInfo tests[] = {
	{ "semver: Masterminds NewVersion accepts and refuses", test_semver_parse },
	{ "semver: precedence (SemVer 2.0.0 §11, metadata ignored)", test_semver_compare },
	{ "§3.4 rollback directive and the desired version", test_rollback_directive },
	{ "§3.2 versionApprovalNeeded", test_approval_needed },
	{ "§3.2-3.4 plan and approval gate", test_plan },
	{ "§3.7 runbook suffix and the success message", test_messages },
	{ "semver: StrictNewVersion (TestStrictNewVersion)", test_strict_new_version },
	{ "constraints: parseConstraint (TestParseConstraint, TestIsX)", test_parse_constraint },
	{ "constraints: one unit (TestConstraintCheck)", test_constraint_check },
	{ "constraints: NewConstraint (TestNewConstraint)", test_new_constraint },
	{ "constraints: Check (TestConstraintsCheck, TestConstraintsCheckIncludePrerelease)", test_constraints_check },
	{ "constraints: rewriteRange (TestRewriteRange)", test_rewrite_range },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("stageset", tests);
}
