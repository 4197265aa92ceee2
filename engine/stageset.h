#ifndef MAGOS_ENGINE_STAGESET_H
#define MAGOS_ENGINE_STAGESET_H

/*
 * The StageSet-side rules a FleetRollout depends on (spec
 * ../shared/specs/fleetrollout-controller.md §3.2-3.4, §3.7), as pure
 * functions: semantic versions as the controller's semver library reads and
 * orders them, the desired version (source-offered, overridden by a
 * rollback-to directive), the version plan (baseline, no change, upgrade,
 * downgrade with its two refusals), the approval gate and the Ready
 * condition, pendingVersion and requeue a member shows after that part of
 * its reconcile.
 *
 * A member model drives one StageSet pass with ss_plan_compute(): given spec.version
 * (the offered version, approvalMode, allowDowngrade, the migration ladder),
 * status.version, status.pendingVersion and the approved-version /
 * rollback-to annotations, it returns the desired version, whether the pass
 * holds (AwaitingApproval), is refused (InvalidVersion, DowngradeNotAllowed,
 * DowngradeRequiresMigration, MigrationCoverageMissing, InvalidSpec) or
 * proceeds to the stage loop, with the exact Ready reason and message and
 * the new status.pendingVersion.  When it proceeds, the model decides how the
 * adoption ends: success writes status.version = desired and Ready True
 * `Succeeded` with ss_succeeded_message(); failure writes Ready False
 * `StageFailed` and leaves status.version.
 *
 * Source: metio/stageset-controller@f2c7604, which uses
 * github.com/Masterminds/semver/v3 v3.5.0 (go.mod) through NewVersion (with
 * the package default CoerceNewVersion = true), Version.LessThan / Equal /
 * GreaterThan, and Version.String() in messages.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Annotation keys (MA: approvedVersionAnnotation, rollbackToAnnotation). */
#define SS_ANN_APPROVED_VERSION "stages.metio.wtf/approved-version"
#define SS_ANN_ROLLBACK_TO "stages.metio.wtf/rollback-to"

/* Ready reasons this module writes or names (COND constants). */
#define SS_REASON_SUCCEEDED "Succeeded"
#define SS_REASON_SUSPENDED "Suspended"
#define SS_REASON_AWAITING_APPROVAL "AwaitingApproval"
#define SS_REASON_INVALID_VERSION "InvalidVersion"
#define SS_REASON_INVALID_SPEC "InvalidSpec"
#define SS_REASON_DOWNGRADE_NOT_ALLOWED "DowngradeNotAllowed"
#define SS_REASON_DOWNGRADE_REQUIRES_MIGRATION "DowngradeRequiresMigration"
#define SS_REASON_MIGRATION_COVERAGE_MISSING "MigrationCoverageMissing"
#define SS_REASON_STAGE_FAILED "StageFailed"

/* The runbook base URL of decorateMessage (SC: RunbookBaseURL). */
#define SS_RUNBOOK_BASE "https://stageset.projects.metio.wtf/runbooks/"

/* permanentRetryInterval: the requeue after a hold or a refused plan. */
#define SS_PERMANENT_RETRY_MS INT64_C(60000)

/* Return codes. */
enum {
	SS_OK = 0,
	SS_EINVAL = -1, /* not a semantic version */
};

/*
 * A parsed version (Masterminds Version).  pre and meta point into the text
 * that was parsed (borrowed: valid while that text is); absent parts have
 * length 0.
 */
struct ss_semver {
	uint64_t major, minor, patch;
	const char *pre;  /* pre-release identifiers, without the '-' */
	size_t npre;
	const char *meta; /* build metadata, without the '+' */
	size_t nmeta;
};

/*
 * ss_semver_parse() - semver.NewVersion: accepts `v?MAJOR(.MINOR)?(.PATCH)?`
 * then `-pre` and `+meta`, where a missing minor or patch is 0, leading zeros
 * in the numbers are accepted (1.02.3 is 1.2.3) but not in numeric
 * pre-release identifiers, and only a lower-case `v` is accepted in front.
 * No white space anywhere (callers trim where upstream trims).
 * @s:   NUL-terminated text.
 * @out: receives the version (pointing into @s); untouched on error.
 * @err: receives the library's error text (may be NULL): `invalid semantic
 *       version`, `version segment starts with 0`, or `error parsing version
 *       segment: strconv.ParseUint: parsing "N": value out of range`.
 * Returns: SS_OK or SS_EINVAL.
 * Source: Masterminds/semver/v3@v3.5.0 version.go coerceNewVersion,
 *         validatePrerelease, validateMetadata
 */
int ss_semver_parse(const char *s, struct ss_semver *out, char *err, size_t errlen);

/*
 * ss_semver_compare() - Version.Compare: -1, 0 or 1.  Numbers first, then a
 * release ranks above its pre-releases; pre-releases compare identifier by
 * identifier (a missing one ranks lower), numerically when both parse as
 * uint64, else numeric below alphanumeric, else bytewise.  Build metadata is
 * ignored.  Quirk kept: an all-digit identifier beyond uint64 counts as
 * alphanumeric (1.0.0-99999999999999999999 > 1.0.0-100000000000000000000).
 * Source: Masterminds/semver/v3@v3.5.0 version.go Compare, comparePrerelease,
 *         comparePrePart
 */
int ss_semver_compare(const struct ss_semver *a, const struct ss_semver *b);

/*
 * ss_semver_string() - Version.String(): `MAJOR.MINOR.PATCH[-pre][+meta]`,
 * without a `v` (what upstream messages print for a parsed version).
 * Returns: a new string; caller frees.
 */
char *ss_semver_string(const struct ss_semver *v);

/*
 * ss_semver_parse_strict() - semver.StrictNewVersion: exactly
 * MAJOR.MINOR.PATCH (no `v`, no leading zeros, all three numbers) with an
 * optional `-pre` and `+meta` taken out of the third part (metadata first).
 * @s, @out: as for ss_semver_parse().
 * @err: the library's error text: `version string empty`, `invalid semantic
 *       version` (not three parts), `invalid characters in version`, `version
 *       segment starts with 0`, `invalid prerelease string`, `invalid metadata
 *       string`, or strconv's `strconv.ParseUint: parsing "N": ...`.
 * Returns: SS_OK or SS_EINVAL.
 * Source: Masterminds/semver/v3@v3.5.0 version.go StrictNewVersion,
 *         validatePrerelease, validateMetadata
 */
int ss_semver_parse_strict(const char *s, struct ss_semver *out, char *err, size_t errlen);

/*
 * One constraint (Masterminds `constraint`): an operator and a version in
 * which `x`, `X` or `*` (or a missing part) leaves a part open.
 * Invariants: `con` points into `ver`; strings owned.
 */
struct ss_constraint {
	char op[3];        /* origfunc: "", "=", "!=", ">", "<", ">=", "=>", "<=", "=<", "~", "~>" or "^" */
	char *orig;        /* the version as written (`orig`, e.g. "1.x") */
	char *ver;         /* the text `con` was parsed from ("1.0.0" for "1.x") */
	struct ss_semver con;
	bool dirty;        /* some part is open */
	bool minor_dirty;  /* the minor (and so the patch) is open */
	bool patch_dirty;  /* only the patch is open */
};

/* The constraints joined by "&&" (space or comma) in one "||" alternative. */
struct ss_constraint_group {
	struct ss_constraint *items;
	size_t n;
	bool contains_pre; /* some constraint names a pre-release: the group then looks at pre-releases */
};

/* Constraints: alternatives joined by "||". */
struct ss_constraints {
	struct ss_constraint_group *groups;
	size_t ngroups;
	bool include_prerelease; /* IncludePrerelease; false after parsing (upstream's default) */
};

/*
 * ss_constraints_parse() - semver.NewConstraint: `a - b` ranges rewritten to
 * `>= a, <= b`, then "||" alternatives, each one or more "operator version"
 * units separated by white space or commas (`>=1.0.0, <2.0.0`, `~1.2`,
 * `^1`, `1.x`, `!=4.1`, `*`).
 * @text: NUL-terminated.
 * @out:  filled on success (release with ss_constraints_release()).
 * @err:  the library's error text (may be NULL): `improper constraint: "<seg>"`
 *        (Go %q of the offending alternative) or `constraint parser error` (a
 *        unit whose version does not parse, e.g. `1.2.3-01` or `1|2`).
 * Returns: SS_OK or SS_EINVAL.
 * Cost: O(n) in the length of @text, plus O(n) per rewritten range.
 * Source: Masterminds/semver/v3@v3.5.0 constraints.go NewConstraint,
 *         rewriteRange, parseConstraint, isX and the regular expressions of
 *         init() (decided by scans that pick what Go's regexp picks; see
 *         engine/stageset.c)
 */
int ss_constraints_parse(const char *text, struct ss_constraints *out, char *err, size_t errlen);

/*
 * ss_constraints_check() - Constraints.Check: some "||" alternative whose
 * every constraint admits @v.  A pre-release @v is refused by an
 * alternative unless it names a pre-release itself or include_prerelease is
 * set.  Cannot fail.
 * Source: Masterminds/semver/v3@v3.5.0 constraints.go Check and the
 *         constraint functions (constraintTildeOrEqual, constraintNotEqual,
 *         constraintGreaterThan, constraintLessThan,
 *         constraintGreaterThanEqual, constraintLessThanEqual,
 *         constraintTilde, constraintCaret)
 */
bool ss_constraints_check(const struct ss_constraints *cs, const struct ss_semver *v);

/* ss_constraints_release() - frees what @cs owns; @cs is then empty.  Accepts NULL. */
void ss_constraints_release(struct ss_constraints *cs);

/*
 * ss_constraint_parse() - parseConstraint: one "operator version" unit (white
 * space around it allowed); "" is `*`.  Errors as ss_constraints_parse().
 * Release @out with ss_constraint_release().
 */
int ss_constraint_parse(const char *text, struct ss_constraint *out, char *err, size_t errlen);

/* ss_constraint_check() - constraint.check(@v, @include_pre).  Cannot fail. */
bool ss_constraint_check(const struct ss_constraint *c, const struct ss_semver *v, bool include_pre);

/* ss_constraint_release() - frees what @c owns.  Accepts NULL. */
void ss_constraint_release(struct ss_constraint *c);

/*
 * ss_constraint_rewrite_range() - rewriteRange: every `a - b` (white space
 * around the dash required) becomes `>= a, <= b `.
 * Returns: a new string; caller frees.
 */
char *ss_constraint_rewrite_range(const char *text);

/* ---- obsolete once the member model is replaced ---------------------------
 *
 * What follows serves sim/models/stageset_model.c, the member model that
 * stands in for the StageSet controller today.  The port of the controller
 * replaces it: engine/stageset_migrations.h (mig_) has rollbackDirective,
 * resolveDesiredVersion, planVersionMigrations / planDowngrade,
 * ValidateLadder and versionApprovalNeeded in full, and the controller
 * (engine/stageset_controller.h) the approval gate, setReady and
 * decorateMessage.  Remove these with the model; the semver functions above
 * stay.
 */

/*
 * ss_rollback_directive() - rollbackDirective: @rollback_to when it is
 * non-empty, @status_version is non-empty, both parse and @rollback_to is
 * strictly below @status_version; NULL otherwise (unset, unparseable, equal,
 * higher, or nothing deployed).
 * Returns: @rollback_to (borrowed) or NULL.
 * Source: metio/stageset-controller@f2c7604 internal/controller/migration_approval.go
 *         rollbackDirective
 */
const char *ss_rollback_directive(const char *rollback_to, const char *status_version);

/*
 * ss_resolve_desired_version() - the desired version of a pass: the offered
 * version with surrounding white space trimmed (resolveDesiredVersion of
 * spec.version.value), replaced by the rollback-to annotation when
 * ss_rollback_directive() applies (then a downgrade, §3.4).
 * @offered:     the version the source offers; NULL or "" means none.
 * @status_version, @rollback_to: as for ss_rollback_directive() (NULL = unset).
 * @directed:    set to whether the rollback-to directive applied (may be NULL).
 * Returns: a new string (caller frees), or NULL when nothing is offered
 *          (upstream: InvalidVersion, see ss_plan_compute()).
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go
 *         resolveDesiredVersion, planVersionMigrations (the directive)
 */
char *ss_resolve_desired_version(const char *offered, const char *status_version, const char *rollback_to,
				 bool *directed);

/* spec.version.approvalMode. */
enum ss_approval_mode {
	SS_APPROVAL_NEVER = 0,    /* "Never" or unset */
	SS_APPROVAL_ON_MIGRATIONS, /* "OnMigrations" */
	SS_APPROVAL_ALWAYS,       /* "Always" (what fleet members set) */
};

/* One rung of the migration ladder, as far as version planning reads it. */
struct ss_migration {
	const char *name; /* borrowed; the idempotency-ledger key */
	const char *to;   /* borrowed; the version boundary (semver text) */
	bool has_down;    /* declares down actions */
};

/* Everything one pass reads (all borrowed; NULL strings mean unset/""). */
struct ss_member {
	bool versioned;                  /* spec.version is set */
	const char *offered;             /* the version the source resolves to */
	enum ss_approval_mode approval_mode;
	bool allow_downgrade;            /* spec.version.allowDowngrade */
	bool require_migration_coverage; /* spec.version.requireMigrationCoverage */
	const struct ss_migration *migrations;
	size_t nmigrations;
	const char *status_version;      /* status.version; "" before the first adoption */
	const char *pending_version;     /* status.pendingVersion before the pass */
	const char *approved_version;    /* annotation SS_ANN_APPROVED_VERSION */
	const char *rollback_to;         /* annotation SS_ANN_ROLLBACK_TO */
	const char *prev_ready_status;   /* Ready condition before the pass ("True", ...; NULL: none) */
	const char *prev_ready_reason;
};

/* What the version part of the pass concluded. */
enum ss_outcome {
	SS_OUT_UNVERSIONED,        /* no spec.version: nothing planned, nothing held */
	SS_OUT_REFUSED,            /* a terminal plan reason; Ready False, requeue 1 min */
	SS_OUT_AWAITING_APPROVAL,  /* held; Ready False AwaitingApproval, requeue 1 min */
	SS_OUT_PROCEED_BASELINE,   /* first adoption: no migrations, never held */
	SS_OUT_PROCEED_NO_CHANGE,  /* desired semver-equal to status.version */
	SS_OUT_PROCEED_UPGRADE,
	SS_OUT_PROCEED_DOWNGRADE,
};

/*
 * The result of ss_plan_compute(); owns its strings and arrays (release with
 * ss_plan_release()).  For the PROCEED outcomes Ready is not written here
 * (the stage loop writes it) and status.pendingVersion becomes "".
 */
struct ss_plan {
	enum ss_outcome outcome;
	char *desired;          /* the desired version text; NULL when none resolved */
	bool directed;          /* the rollback-to annotation set @desired */
	bool versioned;         /* migrationPlan.versionSet */
	bool baseline;
	bool downgrade;
	size_t *pending;        /* indices into ss_member.migrations, in run order */
	size_t npending;
	/* the status writes of the pass */
	bool writes_ready;      /* REFUSED and AWAITING_APPROVAL */
	const char *ready_status; /* "False" when writes_ready */
	const char *reason;     /* static upstream literal when writes_ready */
	char *message;          /* decorated with the runbook suffix, when writes_ready */
	char *pending_version;  /* status.pendingVersion after the pass ("" = nothing held) */
	bool event;             /* a Ready event is recorded (AwaitingApproval when status/reason changed) */
	const char *event_type; /* "Warning" when event */
	int64_t requeue_after_ms; /* SS_PERMANENT_RETRY_MS for REFUSED/AWAITING_APPROVAL, else 0 */
};

/*
 * ss_version_approval_needed() - versionApprovalNeeded: false when the plan
 * is missing, unversioned or a baseline; Always: desired differs from
 * @current_version as a string (upgrades, downgrades, and a semver-equal
 * re-spelling such as v2.0.0 for 2.0.0); OnMigrations: the plan has pending
 * migrations; Never: false.
 * Source: metio/stageset-controller@f2c7604 internal/controller/migration_approval.go
 *         versionApprovalNeeded
 */
bool ss_version_approval_needed(enum ss_approval_mode mode, const struct ss_plan *plan,
				const char *current_version);

/*
 * ss_plan_compute() - the version plan and approval gate of one StageSet reconcile.
 * @m:   the member as this pass sees it.
 * @out: receives the result (initialised here; release with ss_plan_release()).
 * Order (SC:Reconcile step 8-9): unversioned -> no plan; resolve desired
 * (none -> InvalidVersion); rollback directive; desired must parse
 * (InvalidVersion); status.version "" -> baseline; status.version must parse
 * (InvalidVersion); desired < current -> downgrade: allowDowngrade false ->
 * DowngradeNotAllowed, ladder invalid -> InvalidSpec, a crossed boundary
 * (desired < to <= current, descending by to) without down actions ->
 * DowngradeRequiresMigration; equal -> no change; upgrade: ladder invalid
 * -> InvalidSpec, boundaries current < to <= desired ascending by to,
 * requireMigrationCoverage with none pending across a major -> 
 * MigrationCoverageMissing.  Then the gate: approval needed and the
 * approved-version annotation differs from desired (exact string) ->
 * AwaitingApproval with pendingVersion = desired.  A refused plan leaves
 * pendingVersion as it was.
 * Errors:  cannot fail (every outcome is a result).
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go
 *         planVersionMigrations, planDowngrade, coverageGap,
 *         resolveMigrationLadder (inline ladder); internal/migrations/migrations.go
 *         ValidateLadder, ValidateMigration, Select, SelectDown;
 *         internal/controller/stageset_controller.go Reconcile (approval gate),
 *         setReady, decorateMessage, emitReadyEvent
 * Deviations: migrations carry no `from` constraint (every crossed boundary
 *         fires on an upgrade), no anchors (MigrationStageNotFound cannot
 *         happen) and no actions (their validation is not modelled); only
 *         inline ladders; the offered version is a value (fromObject /
 *         fromArtifact failures are not modelled); white space trimmed is
 *         ASCII only (Go trims Unicode white space).
 */
void ss_plan_compute(const struct ss_member *m, struct ss_plan *out);

/* ss_plan_release() - free what @p owns; NULL is fine. */
void ss_plan_release(struct ss_plan *p);

/*
 * ss_decorate_message() - decorateMessage: @message plus
 * ` (runbook: https://stageset.projects.metio.wtf/runbooks/<lower-case reason>/)`,
 * except for Succeeded and Suspended, which get none.
 * Returns: a new string; caller frees.
 */
char *ss_decorate_message(const char *reason, const char *message);

/*
 * ss_succeeded_message() - the Ready True Succeeded message of a fully
 * successful pass: `Applied and verified <nstages> stage(s)`.
 * Returns: a new string; caller frees.
 * Source: metio/stageset-controller@f2c7604 internal/controller/stageset_controller.go
 *         Reconcile (success tail)
 */
char *ss_succeeded_message(size_t nstages);

/* ss_outcome_name() - a stable name for an outcome ("AwaitingApproval", ...), for output. */
const char *ss_outcome_name(enum ss_outcome o);

#endif
