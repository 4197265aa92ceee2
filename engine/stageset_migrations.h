#ifndef MAGOS_ENGINE_STAGESET_MIGRATIONS_H
#define MAGOS_ENGINE_STAGESET_MIGRATIONS_H

/*
 * Versions and migrations of the StageSet controller
 * (metio/stageset-controller@f2c7604; spec §1.4, §3.1, §3.4, R-13, R-14):
 *
 *  - the version plan of a pass: the desired version (spec.version.value,
 *    fromArtifact or fromObject through the world), the rollback-to
 *    directive, baseline / no change / upgrade / downgrade, the migrations
 *    the transition crosses and the stage each runs before
 *    (internal/controller/migrations.go planVersionMigrations, planDowngrade,
 *    resolveDesiredVersion, coverageGap, resolveAnchors, anchorStage);
 *  - the migration ladder: inline spec.migrations, or sourced from an
 *    artifact (resolveMigrationLadder, the source's verification and pinning
 *    gates), parsed strictly (internal/migrations ParseLadder, as
 *    sigs.k8s.io/yaml.UnmarshalStrict decodes []Migration) and validated
 *    (ValidateLadder, ValidateMigration), and the selection of the crossed
 *    boundaries (Explain, Select, SelectDown) with Masterminds constraints
 *    for `from` (engine/stageset.h);
 *  - the approval gate's test and the rollback-to and approved-version
 *    annotations (migration_approval.go);
 *  - running the migrations anchored to a stage with their two ledgers
 *    (runStageMigrations, runStageDowngrades, pruneSupersededLedger,
 *    actionsDoneFor) and the content digest that keys them (migrationDigest:
 *    the first 12 hex digits of SHA-256 over Go's json.Marshal of the
 *    migration);
 *  - the status preview of what will run (pendingDetails).
 *
 * Messages, reasons and event texts are upstream's exactly (Go %q quoting,
 * Version.String() where upstream prints a parsed version).  Messages are
 * undecorated: the controller adds the runbook suffix (decorateMessage).
 *
 * Time: the pass clock (struct ssc_clock, Unix ms) advances by every
 * duration the world reports (artifact fetches, builds, actions); events
 * carry the clock at emission.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset.h"
#include "engine/stageset_actions.h"
#include "engine/stageset_controller.h"
#include "engine/stageset_env.h"
#include "engine/stageset_resolve.h"
#include "engine/stageset_types.h"
#include "engine/value.h"

/* Ready reasons a plan can end with (COND constants). */
#define MIG_REASON_INVALID_VERSION "InvalidVersion"
#define MIG_REASON_INVALID_SPEC "InvalidSpec"
#define MIG_REASON_RBAC_DENIED "RBACDenied"
#define MIG_REASON_RESOLVE_FAILED "ResolveFailed"
#define MIG_REASON_DOWNGRADE_NOT_ALLOWED "DowngradeNotAllowed"
#define MIG_REASON_DOWNGRADE_REQUIRES_MIGRATION "DowngradeRequiresMigration"
#define MIG_REASON_MIGRATION_STAGE_NOT_FOUND "MigrationStageNotFound"
#define MIG_REASON_MIGRATION_ARTIFACT_INVALID "MigrationArtifactInvalid"
#define MIG_REASON_MIGRATION_SOURCE_NOT_VERIFIED "MigrationSourceNotVerified"
#define MIG_REASON_MIGRATION_SOURCE_NOT_PINNED "MigrationSourceNotPinned"
#define MIG_REASON_MIGRATION_COVERAGE_MISSING "MigrationCoverageMissing"

/* Event reasons (migrations.go). */
#define MIG_EVENT_STARTED "MigrationStarted"
#define MIG_EVENT_COMPLETED "MigrationCompleted"
#define MIG_EVENT_FAILED "MigrationFailed"
#define MIG_EVENT_SOURCE_MUTABLE "MigrationSourceMutable"
#define MIG_EVENT_BASELINED "MigrationsBaselined"
#define MIG_EVENT_ACTION_SKIPPED "ActionSkipped"

/* The DoS caps of a ladder (internal/migrations). */
#define MIG_MAX_MIGRATIONS_PER_LADDER 200
#define MIG_MAX_ACTIONS_PER_MIGRATION 100
#define MIG_MAX_ACTION_RETRIES 10

/* ---- the ladder ------------------------------------------------------------ */

/*
 * A migration ladder.  The inline one borrows spec.migrations; a sourced
 * one owns its migrations and their trees (`owned_`), built by
 * mig_parse_ladder().
 */
struct mig_ladder {
	const struct sst_migration *items;
	size_t n;
	void *owned_; /* internal: a parsed ladder's storage, NULL when borrowed */
};

/* mig_ladder_release() - frees a parsed ladder's storage; @l is then empty.  Accepts NULL. */
void mig_ladder_release(struct mig_ladder *l);

/*
 * mig_parse_ladder() - ParseLadder: the files of a migrations artifact into
 * one ladder.  Only paths whose extension is .yaml, .yml or .json (any
 * case) count; they are taken in byte order of the path.  Each file is
 * parsed by env->parse_ladder_file and decoded as UnmarshalStrict does:
 * first as a list of Migration, else as one Migration; unknown fields are
 * errors, and a number or boolean where a string belongs becomes its text
 * (sigs.k8s.io/yaml's conversion: integers in decimal, floats as Go's
 * FormatFloat(f, 'g', -1, 32)).  An empty or null file adds nothing.
 * @env:   its parse_ladder_file is called once per counted file.
 * @paths, @contents: @n file paths and texts (borrowed).
 * @out:   filled on success (release with mig_ladder_release()).
 * Returns: NULL, or a new message (caller frees): `migrations artifact
 *          contains no .yaml, .yml, or .json files`, `parsing migrations
 *          file "<p>": error converting YAML to JSON: <parser error>`,
 *          `parsing migrations file "<p>": error unmarshaling JSON: while
 *          decoding JSON: <decode error>` (e.g. `json: unknown field
 *          "acions"`), or `migrations artifact defined no migrations`.
 * Decoding follows encoding/json: keys in byte order, exact then
 * case-folded field names, a key spelled twice decoded into what the first
 * left, the first type or unknown-field error kept unless a duration error
 * ends decoding (engine/PROVENANCE.md has the details).
 * Source: metio/stageset-controller@f2c7604 internal/migrations/migrations.go ParseLadder;
 *         sigs.k8s.io/yaml@v1.6.0 UnmarshalStrict, convertToJSONableObject;
 *         Go encoding/json (v1) Decoder with DisallowUnknownFields;
 *         k8s.io/apimachinery metav1.Duration.UnmarshalJSON.
 */
char *mig_parse_ladder(const struct ssc_env *env, char *const *paths, char *const *contents, size_t n,
		       struct mig_ladder *out);

/*
 * mig_validate_migration() - ValidateMigration: a name, a `to` that
 * NewVersion accepts, an optional `from` that NewConstraint accepts and is
 * not a bare version, and each direction's actions (at most 100, exactly one
 * verb, a unique non-empty name, no scope, no completionAnchor, retries in
 * 0..10).
 * Returns: NULL, or a new message (caller frees), upstream's text exactly.
 * Source: metio/stageset-controller@f2c7604 internal/migrations/migrations.go
 *         ValidateMigration, validateMigrationActions, semverIsBare.
 */
char *mig_validate_migration(const struct sst_migration *m);

/*
 * mig_validate_ladder() - ValidateLadder: at most 200 migrations, each
 * valid, names unique.
 * Returns: NULL, or a new message (caller frees).
 * Cost: O(n log n) in the number of migrations (plus their actions).
 * Source: metio/stageset-controller@f2c7604 internal/migrations/migrations.go ValidateLadder.
 */
char *mig_validate_ladder(const struct sst_migration *ladder, size_t n);

/* One migration's verdict for a transition (Outcome). */
struct mig_outcome {
	const struct sst_migration *m; /* borrowed from the ladder */
	bool fires;
	char *reason; /* owned; why it does not fire, NULL when it fires */
};

/*
 * mig_explain() - Explain: every migration of @ladder with whether the
 * transition @cur → @des fires it (cur < to <= des and `from`, when set,
 * admits @cur) and why not, ordered by ascending `to`, equal targets in
 * ladder order.
 * @out, @nout: a new array (free with mig_outcomes_free()).
 * Returns: NULL, or a new message for an unparseable `to` / `from`
 *          (`migration "<m>" has invalid to "<to>": <err>`).
 * Source: metio/stageset-controller@f2c7604 internal/migrations/migrations.go Explain.
 */
char *mig_explain(const struct sst_migration *ladder, size_t n, const struct ss_semver *cur,
		  const struct ss_semver *des, struct mig_outcome **out, size_t *nout);
void mig_outcomes_free(struct mig_outcome *o, size_t n);

/*
 * mig_select() - Select: the migrations @cur → @des fires, in run order.
 * @out: a new array of borrowed pointers (caller frees the array), NULL when none.
 * Returns: NULL, or a new message as mig_explain().
 */
char *mig_select(const struct sst_migration *ladder, size_t n, const struct ss_semver *cur,
		 const struct ss_semver *des, const struct sst_migration ***out, size_t *nout);

/*
 * mig_select_down() - SelectDown: the migrations a downgrade @cur → @des
 * crosses (des < to <= cur, `from` not consulted), newest boundary first,
 * equal targets in ladder order.  Output and errors as mig_select().
 */
char *mig_select_down(const struct sst_migration *ladder, size_t n, const struct ss_semver *cur,
		      const struct ss_semver *des, const struct sst_migration ***out, size_t *nout);

/* mig_ladder_has_http() - ladderHasHTTP: some action, up or down, sets `http`. */
bool mig_ladder_has_http(const struct sst_migration *ladder, size_t n);

/* ---- the digest -------------------------------------------------------------- */

/*
 * mig_migration_json() - json.Marshal(stagesv1.Migration) of @m->raw: the
 * fields of api/v1/stageset_types.go (and of the kustomize/meta/metav1 types
 * inside the action verbs) in declaration order, `omitempty` ones left out
 * when empty, map keys sorted, durations as Go's Duration.String(), strings
 * with Go's escaping (<, >, & as \u003c, \u003e, \u0026; U+2028/U+2029;
 * invalid UTF-8 as \ufffd).  Fields the Go types do not have are ignored,
 * as the controller's decoder ignores them.
 * Returns: a new string; caller frees.
 * Source: metio/stageset-controller@f2c7604 api/v1/stageset_types.go Migration, Action,
 *         PatchAction, PatchTarget, HTTPAction, WaitAction, JobAction, DeleteAction,
 *         ApplyAction, CompletionAnchor, SourceReference; fluxcd/pkg/apis/meta@v1.31.0
 *         NamespacedObjectKindReference, SecretKeyReference; k8s.io/apimachinery
 *         metav1.LabelSelector, LabelSelectorRequirement, Duration.
 * Deviations: 1. a value of a type the field cannot hold (the API
 *         server's schema refuses those) marshals as the field's zero value,
 *         a duration text that does not parse as written.
 */
char *mig_migration_json(const struct sst_migration *m);

/*
 * mig_migration_digest() - migrationDigest: the first 12 hex digits of
 * SHA-256 over mig_migration_json(@m), into @out (13 bytes).  Returns @out.
 */
const char *mig_migration_digest(const struct sst_migration *m, char out[13]);

/* mig_migration_key() - migrationKey: "<name>@<digest>".  Returns a new string. */
char *mig_migration_key(const struct sst_migration *m);

/* ---- the plan ------------------------------------------------------------------ */

/* The migrations anchored before one stage (an entry of byStage). */
struct mig_stage_bucket {
	const char *stage;                   /* the stage's name (borrowed from the spec) */
	const struct sst_migration **items;  /* in plan order; borrowed from the ladder */
	size_t n;
};

/*
 * migrationPlan.  Invariants: every pointer into a ladder points into the
 * spec's migrations or into `ladder` (a sourced ladder the plan owns);
 * `by_stage` holds each pending migration once.
 */
struct mig_plan {
	bool version_set;
	char *desired;          /* owned; NULL when !version_set */
	bool baseline;
	bool downgrade;         /* pending is in unwind order and runs `down` */
	const struct sst_migration **pending;
	size_t npending;
	struct mig_stage_bucket *by_stage;
	size_t nby_stage;
	char *source_revision;  /* owned; "" for an inline ladder, NULL (read as "") before a ladder is resolved */
	char *source_digest;    /* owned; "" for an inline ladder, NULL (read as "") before a ladder is resolved */
	struct mig_ladder ladder; /* a sourced ladder the pointers lead into (empty when inline) */
};

/* mig_plan_release() - frees what @p owns; @p is then empty.  Accepts NULL. */
void mig_plan_release(struct mig_plan *p);

/*
 * The resolver the ladder loading calls: engine/stageset_resolve.h
 * res_resolve() (the controller passes it; tests pass a fake).
 */
typedef int (*mig_resolve_fn)(const struct ssc_env *env, const struct sst_source_ref *ref,
			      const char *owner_ns, bool no_cross_namespace, int64_t at_ms,
			      struct ssc_resolved *out, struct res_error *err);

/* What a plan reads (all borrowed). */
struct mig_ctx {
	const struct ssc_env *env;
	struct ssc_clock *clock;        /* advanced by fetches and builds */
	struct ssc_events *events;      /* gets MigrationSourceMutable */
	const struct obj *ss;           /* namespace; annotations (rollback-to) */
	const struct sst_spec *spec;
	const struct sst_status *status; /* status.version */
	const struct ssc_options *opt;  /* require_verified/pinned_migration_sources, allowed_action_hosts_set */
	const struct ssc_resolved *resolved; /* one per spec stage, for fromArtifact / fromObject */
	size_t nresolved;
	mig_resolve_fn resolve;         /* res_resolve */
};

/* How a plan (or a part of it) ended. */
enum mig_result {
	MIG_PROCEED = 0, /* go on */
	MIG_REFUSED = 1, /* a terminal Ready reason: write Ready False, requeue 1 m */
	MIG_ERROR = -1,  /* a transient error: return it (back-off), write nothing */
};

/* The reason of a MIG_REFUSED, or the error of a MIG_ERROR. */
struct mig_verdict {
	const char *reason; /* static Ready reason (MIG_REFUSED) */
	char *message;      /* owned: the undecorated Ready message (MIG_REFUSED) */
	struct ssc_err err; /* the error (MIG_ERROR): class and text */
};

/* mig_verdict_release() - frees @v's message; @v is then empty.  Accepts NULL. */
void mig_verdict_release(struct mig_verdict *v);

/*
 * mig_plan_version_migrations() - planVersionMigrations: the version plan of
 * a pass (spec §3.1 P-1…P-10).
 * @cx:   the pass (borrowed); cx->resolved must hold every stage's artifact.
 * @plan: filled on MIG_PROCEED (release with mig_plan_release()); empty
 *        otherwise.  Previous content is ignored (release it first).
 * @v:    filled on MIG_REFUSED / MIG_ERROR (release with mig_verdict_release());
 *        previous content is ignored.
 * Returns: MIG_PROCEED, MIG_REFUSED or MIG_ERROR.
 * Order: no spec.version → unversioned plan; desired version (P-2, errors
 *   InvalidVersion `invalid version: <detail>` or transient); rollback-to
 *   directive (P-3); desired must parse (P-4); status.version "" → baseline
 *   (P-5); status.version must parse (P-6); desired < current → downgrade
 *   (P-9, mig_plan_downgrade()); equal → no transition (P-7); upgrade: the
 *   ladder (mig_resolve_migration_ladder()), Select, coverage gap, anchors
 *   (P-8, P-10).
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go planVersionMigrations.
 */
int mig_plan_version_migrations(const struct mig_ctx *cx, struct mig_plan *plan, struct mig_verdict *v);

/*
 * mig_plan_downgrade() - planDowngrade: refused without allowDowngrade;
 * else the ladder, SelectDown, the first crossed migration without `down`
 * refuses (DowngradeRequiresMigration), anchors.
 * @cur, @des: the parsed versions; @desired: the desired text.
 * Returns and fills as mig_plan_version_migrations().
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go planDowngrade.
 */
int mig_plan_downgrade(const struct mig_ctx *cx, const struct ss_semver *cur, const struct ss_semver *des,
		       const char *desired, struct mig_plan *plan, struct mig_verdict *v);

/*
 * mig_resolve_desired_version() - resolveDesiredVersion: spec.version.value
 * trimmed (Unicode white space, as strings.TrimSpace), or the version file
 * of a stage's artifact (env->artifact_file), or a field of a rendered
 * object (env->object_version); spec.version must be set.
 * @desired: set to a new string on MIG_PROCEED.
 * Returns: MIG_PROCEED; MIG_REFUSED with InvalidVersion `invalid version:
 *          <detail>`; MIG_ERROR for a fetch (or postBuild) failure.
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go
 *         resolveDesiredVersion, stageIndex, versionFromArtifact,
 *         versionFromObject; internal/actionplan/version.go VersionStageIndex.
 */
int mig_resolve_desired_version(const struct mig_ctx *cx, char **desired, struct mig_verdict *v);

/*
 * mig_resolve_migration_ladder() - resolveMigrationLadder: the inline
 * ladder (ValidateLadder → InvalidSpec), or the one of
 * spec.migrationsSourceRef: resolved in the StageSet's namespace only
 * (RBACDenied, transient `migrations source not ready: <err>`, ResolveFailed
 * `migrations source: <err>`), its verification and pinning gates
 * (MigrationSourceNotVerified, MigrationSourceNotPinned, or a Warning
 * MigrationSourceMutable event), the files (env->ladder_files: a terminal
 * fetch error is MigrationArtifactInvalid `fetch migrations artifact:
 * <err>`, others transient), ParseLadder and ValidateLadder
 * (MigrationArtifactInvalid), and the http-action refusal (InvalidSpec).
 * @ladder:   filled on MIG_PROCEED (release with mig_ladder_release()).
 * @revision, @digest: set to new strings naming the source artifact on
 *            MIG_PROCEED ("" for an inline ladder).
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go
 *         resolveMigrationLadder, checkMigrationSourceVerified,
 *         checkMigrationSourcePinned, ladderHasHTTP; errors.go rbacDenialMessage.
 */
int mig_resolve_migration_ladder(const struct mig_ctx *cx, struct mig_ladder *ladder, char **revision,
				 char **digest, struct mig_verdict *v);

/*
 * mig_check_migration_source_verified() - checkMigrationSourceVerified:
 * @verified is ResolvedArtifact.Verified (-1 nil, 0 false, 1 true).
 * Returns: NULL to proceed, or the static message of MigrationSourceNotVerified.
 */
const char *mig_check_migration_source_verified(const struct ssc_options *opt, int verified);

/*
 * mig_check_migration_source_pinned() - checkMigrationSourcePinned:
 * @pinned as ResolvedArtifact.Pinned.  An unpinned source without the flag
 * adds the Warning MigrationSourceMutable event at the clock.
 * Returns: NULL to proceed, or the static message of MigrationSourceNotPinned.
 */
const char *mig_check_migration_source_pinned(const struct ssc_options *opt, int pinned,
					      const struct ssc_clock *clk, struct ssc_events *ev);

/* mig_coverage_gap() - coverageGap: @require, nothing pending, and a higher major. */
bool mig_coverage_gap(bool require, const struct ss_semver *cur, const struct ss_semver *des,
		      size_t npending);

/*
 * mig_anchor_stage() - anchorStage: "" → the first stage; else the first
 * stage whose migrationAnchor equals @anchor, else the first whose name does.
 * Returns: the stage's name (borrowed from @spec), or "" when none.
 */
const char *mig_anchor_stage(const struct sst_spec *spec, const char *anchor);

/*
 * mig_resolve_anchors() - resolveAnchors: fills @plan->by_stage from
 * @plan->pending.
 * Returns: MIG_PROCEED, or MIG_REFUSED with MigrationStageNotFound
 *          `migration "<m>" anchors to "<v>", which matches no stage name or
 *          migrationAnchor`.
 */
int mig_resolve_anchors(const struct sst_spec *spec, struct mig_plan *plan, struct mig_verdict *v);

/*
 * mig_plan_for_stage() - forStage: the migrations anchored before @stage.
 * @n: set to their count.  Returns: borrowed array, NULL when none.
 */
const struct sst_migration *const *mig_plan_for_stage(const struct mig_plan *plan, const char *stage,
						       size_t *n);

/*
 * mig_pending_details() - pendingDetails: one status entry per pending
 * migration (name, to, from, the resolved anchor stage, the verbs of the
 * actions it will run — `down` for a downgrade — and its digest).
 * @out, @n: a new array (NULL, 0 when nothing is pending); free each with
 *           mig_pending_migration_release() and the array with free().
 */
void mig_pending_details(const struct mig_plan *plan, const struct sst_spec *spec,
			 struct sst_pending_migration **out, size_t *n);
void mig_pending_migration_release(struct sst_pending_migration *p);

/* ---- approval (migration_approval.go) -------------------------------------- */

/*
 * mig_rollback_directive() - rollbackDirective: the rollback-to annotation
 * of @ss when it and @status_version are set, both parse and it is below.
 * Returns: the annotation's value (borrowed from @ss), or NULL.
 */
const char *mig_rollback_directive(const struct obj *ss, const char *status_version);

/*
 * mig_version_approval_needed() - versionApprovalNeeded: never for a
 * missing, unversioned or baselining plan; @mode "Always": desired differs
 * from @current_version as text; "OnMigrations": something is pending;
 * otherwise ("Never", "") no.
 */
bool mig_version_approval_needed(const char *mode, const struct mig_plan *plan,
				 const char *current_version);

/*
 * mig_migration_approval_predicate_update() - migrationApprovalPredicate
 * Update: the approved-version or rollback-to annotation differs between
 * @old and @new (NULL objects: false).
 */
bool mig_migration_approval_predicate_update(const struct obj *old, const struct obj *new);

/* ---- running (runStageMigrations) ------------------------------------------ */

/*
 * The executor a migration's actions run through (upstream's actionExecutor
 * seam): Executor.Run of @acts skipping names @done says are done, calling
 * @record after each success; act_run() with the env, clock, stage and
 * phase "migration" bound by the caller.  Returns 0, or -1 with @err.
 */
struct mig_executor {
	int (*run)(void *arg, const struct sst_actions *acts, act_done_fn done, const void *done_arg,
		   act_record_fn record, void *record_arg, struct ssc_err *err);
	void *arg;
};

/* A sorted set of names (actionsDoneFor's result); owned strings. */
struct mig_name_set {
	char **names;
	size_t n;
};

/*
 * mig_actions_done_for() - actionsDoneFor: the action names recorded in
 * @ledger under "<@mig_key>/", into @out (filled; release with
 * mig_name_set_release()).
 */
void mig_actions_done_for(const struct sst_string_list *ledger, const char *mig_key, struct mig_name_set *out);

/* mig_name_set_has() - whether @set (a struct mig_name_set) holds @name; an act_done_fn.  O(log n). */
bool mig_name_set_has(const void *set, const char *name);
void mig_name_set_release(struct mig_name_set *s);

/*
 * mig_prune_superseded_ledger() - pruneSupersededLedger: drops from
 * executedMigrations and executedMigrationActions the entries of migration
 * @name whose "<name>@<digest>" is not @keep.
 */
void mig_prune_superseded_ledger(struct sst_status *st, const char *name, const char *keep);

/*
 * mig_run_stage_migrations() - runStageMigrations (and runStageDowngrades
 * for a downgrade plan): the migrations anchored before @stage, in plan
 * order, each skipped when "<name>@<digest>" is in executedMigrations; the
 * actions (or `down`) run through @ex skipping those recorded under
 * "<key>/" (or "<key>/down/"), each success appended there; a completed
 * migration appends its key (an upgrade then drops its superseded entries).
 * Events at the clock: Normal MigrationStarted / MigrationCompleted, Warning
 * MigrationFailed (a downgrade's prefixed "rollback of "), with the source
 * suffix of a sourced ladder.
 * @st:   the status the ledgers live on (changed in place).
 * @clk:  read for event times (the executor advances it).
 * Returns: 0, or -1 with @err: `migration "<m>": <action error>` (or
 *          `rollback of migration "<m>": ...`), the action error's class kept.
 * Nothing runs for a missing or baselining plan.
 * Source: metio/stageset-controller@f2c7604 internal/controller/migrations.go
 *         runStageMigrations, runStageDowngrades, migrationSourceSuffix.
 */
int mig_run_stage_migrations(struct sst_status *st, const char *stage, const struct mig_plan *plan,
			     const struct mig_executor *ex, const struct ssc_clock *clk,
			     struct ssc_events *ev, struct ssc_err *err);

/*
 * mig_migration_source_suffix() - migrationSourceSuffix: " from source
 * revision <rev> (artifact <digest>)" for a sourced plan, "" otherwise.
 * Returns: a new string.
 */
char *mig_migration_source_suffix(const struct mig_plan *plan);

#endif
