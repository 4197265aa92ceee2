#ifndef MAGOS_ENGINE_STAGESET_TYPES_H
#define MAGOS_ENGINE_STAGESET_TYPES_H

/*
 * The StageSet API (stages.metio.wtf/v1) as C types: the spec as the
 * controller reads it, and the status it reads and writes, field for field
 * as api/v1/stageset_types.go declares them (metio/stageset-controller@f2c7604).
 *
 * The spec is parsed once per (uid, generation) with sst_spec_parse() and
 * kept by the caller; every string and sub-tree it holds is borrowed from the
 * spec value tree, which must outlive it.  Parts the controller hands on
 * without reading (kustomize patches, postBuild, the body of an action's
 * verb) stay as `const struct val *`.
 *
 * The status is owned C data: sst_status_parse() reads it from an object's
 * status tree, sst_status_to_val() renders it back with Go's encoding/json
 * rules (fields in declaration order, `omitempty` fields left out when zero,
 * maps with sorted keys, metav1.Time as RFC 3339 whole seconds), so a status
 * the simulator writes reads like one the controller writes.
 *
 * Times: metav1.Time fields are Unix ms (whole seconds once stored), with
 * SST_NO_TIME for a nil *metav1.Time.  Durations are ms; a nil
 * *metav1.Duration is `set == false`.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/value.h"

#define SST_NO_TIME INT64_MIN

/* A metav1.Duration or *metav1.Duration (Go duration text, parsed to ms). */
struct sst_duration {
	bool set;   /* false: field absent (nil pointer, or zero for a plain Duration) */
	int64_t ms; /* may be zero or negative when set */
};

/* SourceReference. */
struct sst_source_ref {
	const char *api_version; /* "" when absent */
	const char *kind;        /* "" when absent */
	const char *name;
	const char *ns;          /* "" when absent (defaults to the StageSet's) */
};

/* MetricSource (exactly one of prometheus / webhook; ValidateSpec checks). */
struct sst_metric_source {
	const struct val *raw;        /* the whole source mapping (what a querier reads) */
	bool has_prometheus, has_webhook;
	const char *address, *query;  /* prometheus */
	const char *url, *json_path;  /* webhook */
	const char *secret_ref;       /* secretRef.name of either, NULL when absent */
};

/* Threshold: decimal strings, NULL when absent. */
struct sst_threshold {
	const char *min, *max;
};

/* ErrorBudget. */
struct sst_error_budget {
	struct sst_metric_source source;
	const char *freeze_threshold;  /* required */
	const char *resume_threshold;  /* NULL when absent */
	const char *on_source_error;   /* "" (Allow), "Allow" or "Hold" */
	struct sst_duration interval;
	bool dry_run;
	const struct val *raw;
};

/* Action (one verb; the verb's body is not interpreted by the controller). */
enum sst_scope { SST_SCOPE_REVISION, SST_SCOPE_VERSION, SST_SCOPE_LIFETIME };
struct sst_action {
	const char *name;
	const char *scope;            /* as written, "" when absent (EffectiveScope: Revision) */
	struct sst_duration timeout;
	bool has_retries;
	int32_t retries;
	const char *verb;             /* Verb(): "patch", "http", "wait", "job", "delete", "apply" or "action" */
	int verb_count;               /* VerbCount() */
	const struct val *body;       /* the verb's mapping (NULL when none) */
	bool has_anchor;              /* completionAnchor */
	const char *anchor_api_version, *anchor_kind, *anchor_name;
	const struct val *raw;        /* the whole action mapping */
};
/* sst_action_scope() - EffectiveScope(): "" is Revision; unknown text is Revision too (ValidateSpec refuses it). */
enum sst_scope sst_action_scope(const struct sst_action *a);

struct sst_actions { const struct sst_action *items; size_t n; };

/* Migration. */
struct sst_migration {
	const char *name, *to;
	const char *from;   /* "" when absent */
	const char *stage;  /* "" when absent */
	struct sst_actions actions, down;
	const struct val *raw; /* for migrationDigest (json.Marshal of the struct) */
};

/* UpdateWindow. */
struct sst_window {
	const char *type;      /* "Allow" or "Deny" (CRD enum) */
	const char *schedule;  /* "" when absent */
	struct sst_duration duration;
	const char *time_zone; /* "" when absent (UTC) */
	int64_t from_ms, to_ms; /* SST_NO_TIME when absent */
};

/* Restart and event checks, gates, analysis, fast track, promotion. */
struct sst_restart_check {
	const char *name;
	struct lbl_selector selector; const struct val *selector_raw;
	int32_t max_restarts;
	const char *on_failure; /* "" when absent */
};
struct sst_event_check {
	const char *name;
	struct lbl_selector selector; const struct val *selector_raw;
	const char *const *reasons; size_t nreasons;
	int32_t max_events;
	const char *on_failure;
};
struct sst_analysis_check {
	const char *name;
	struct sst_metric_source source;
	struct sst_threshold threshold;
};
struct sst_promotion {
	struct sst_duration soak;
	bool require_manual;
	bool has_analysis;
	struct {
		const struct sst_analysis_check *checks; size_t nchecks;
		struct sst_duration interval;
		bool has_failure_limit; int32_t failure_limit;
		const char *on_failure, *on_source_error; /* "" when absent */
		bool dry_run;
	} analysis;
	bool has_fast_track;
	struct { struct sst_metric_source source; const char *max; struct sst_duration after; } fast_track;
	bool has_restart_gate;
	struct { const char *on_failure; const struct sst_restart_check *checks; size_t nchecks; } restart_gate;
	bool has_event_gate;
	struct { const char *on_failure; const struct sst_event_check *checks; size_t nchecks; } event_gate;
};

/* ReadyChecks. */
struct sst_ready_checks {
	struct sst_duration timeout;
	bool disable_wait;
	const struct val *checks; /* list of NamespacedObjectKindReference, NULL when absent */
	const struct val *exprs;  /* list of CustomHealthCheck, NULL when absent */
	size_t nchecks, nexprs;
};

/* Stage. */
struct sst_stage {
	const char *name;
	const char *migration_anchor; /* "" when absent */
	struct sst_source_ref source_ref;
	const char *path;
	const char *service_account;  /* "" when absent */
	bool has_prune; bool prune;   /* Prune *bool (default true) */
	struct sst_duration timeout;
	const char *on_timeout;       /* "" when absent */
	bool force;
	const struct val *conflict_policy; /* NULL when absent */
	bool has_apply_helm_hook_resources; bool apply_helm_hook_resources; /* *bool */
	const struct val *patches;    /* list of kustomize.Patch, NULL when absent */
	const struct val *post_build; /* PostBuild mapping (substitute, substituteFrom), NULL when absent */
	bool has_actions;
	struct sst_actions pre, post, on_failure;
	bool has_ready_checks; struct sst_ready_checks ready_checks;
	bool has_promotion; struct sst_promotion promotion;
	bool has_error_budget; struct sst_error_budget error_budget;
	const struct val *raw;        /* the whole stage mapping */
};

struct sst_dependency { const char *name, *ns, *min_version; /* ns, min_version "" when absent */ };

/* VersionSource. */
struct sst_version {
	const char *value;              /* "" when absent */
	bool has_from_artifact;
	const char *fa_stage, *fa_path;
	bool has_from_object;
	const char *fo_stage, *fo_kind, *fo_name, *fo_api_version, *fo_field_path;
	bool require_migration_coverage;
	const char *approval_mode;      /* "" (Never), "Never", "OnMigrations", "Always" */
	bool allow_downgrade;
};

/* StageSetSpec. */
struct sst_spec {
	struct sst_duration interval, retry_interval, drift_detection_interval, timeout;
	const char *on_timeout;         /* "" when absent */
	bool suspend;
	const struct sst_dependency *depends_on; size_t ndepends_on;
	const char *service_account;
	const struct val *kube_config;  /* NULL when absent */
	const struct val *decryption;   /* NULL when absent */
	bool has_version; struct sst_version version;
	const struct sst_migration *migrations; size_t nmigrations;
	bool has_migrations_source; struct sst_source_ref migrations_source_ref; const char *migrations_source_path;
	bool rollback_on_failure;
	struct sst_actions on_rollback;
	const struct sst_window *windows; size_t nwindows;
	const char *window_scope;       /* "" when absent (Updates) */
	bool has_error_budget; struct sst_error_budget error_budget;
	const struct sst_stage *stages; size_t nstages;
	/* internal: allocations of the parse */
	void *arena_;
};

/*
 * sst_spec_parse() - reads @spec (a StageSet's spec tree, admitted: the
 * CRD's types hold) into @out (filled; release with sst_spec_release()).
 * Strings and sub-trees are borrowed from @spec, which must outlive @out.
 * Returns: 0; or -1 with @err (size @errlen) saying which field has a shape
 *          the CRD does not allow (the admission layer refuses such objects,
 *          so this is a caller bug or a hand-built tree).
 * Cost: O(size of the spec).
 */
int sst_spec_parse(const struct val *spec, struct sst_spec *out, char *err, size_t errlen);

/* sst_spec_release() - frees what sst_spec_parse() allocated.  Accepts a zeroed @s. */
void sst_spec_release(struct sst_spec *s);

/* ---- status ------------------------------------------------------------- */

/* A metav1.Condition. */
struct sst_condition {
	char *type, *status, *reason, *message;
	int64_t observed_generation;
	int64_t last_transition_ms; /* Unix ms, whole seconds */
};

/* A string → string map with keys kept sorted (json.Marshal order). */
struct sst_strmap { char **keys; char **values; size_t n; };

struct sst_string_list { char **items; size_t n; };

struct sst_pending_migration {
	char *name, *to, *from, *stage; /* from, stage "" when absent */
	struct sst_string_list actions;
	char *digest;
};

struct sst_budget_freeze {
	char *remaining, *freeze_threshold, *resume_threshold;
	int64_t since_ms; /* SST_NO_TIME when absent */
	bool dry_run;
};

struct sst_pending_update {
	struct sst_strmap revisions;
	int64_t next_window_opens_ms; /* SST_NO_TIME when absent */
};

struct sst_artifact_ref {
	char *stage, *url, *digest, *revision, *substitution_digest;
};

struct sst_restart_baseline { char *name; int32_t restarts; };

struct sst_analysis_check_result { char *name, *value, *error; bool ok; };

struct sst_analysis_result {
	int64_t time_ms; /* SST_NO_TIME when absent */
	bool passed;
	struct sst_analysis_check_result *checks; size_t nchecks;
};

struct sst_promotion_state {
	char *phase;   /* "Soaking", "Analyzing", "Blocked", "AwaitingManual", "Promoted" or "" */
	int64_t since_ms, soak_until_ms; /* SST_NO_TIME when absent */
	int32_t analysis_failures;
	char *restart_check;
	int32_t observed_restarts;
	struct sst_restart_baseline *restart_baseline; size_t nrestart_baseline;
	char *event_check;
	int32_t observed_events;
	char *aborted_revision;
	struct sst_analysis_result *last_analysis; /* NULL when absent */
};

struct sst_stage_status {
	char *name, *phase, *applied_revision;
	int64_t entries_count;
	int32_t shards;
	char *message;
	struct sst_string_list executed_actions;
	char *ledger_revision;
	struct sst_string_list executed_version_actions;
	char *ledger_version;
	char *last_handled_reconcile_at;
	struct sst_promotion_state *promotion_state; /* NULL when absent */
	char *last_handled_promotion;
	struct sst_budget_freeze *budget_freeze;     /* NULL when absent */
};

/*
 * StageSetStatus.  Every char * is owned and never NULL ("" for an absent
 * omitempty string); pointers to structs are NULL for an absent (nil) field.
 */
struct sst_status {
	char *last_handled_reconcile_at;     /* meta.ReconcileRequestStatus (inline) */
	struct sst_condition *conditions; size_t nconditions;
	int64_t observed_generation;
	struct sst_strmap last_attempted_revisions, last_applied_revisions;
	struct sst_stage_status *stages; size_t nstages;
	char *version, *pending_version;
	struct sst_pending_migration *pending_migrations; size_t npending_migrations;
	struct sst_string_list executed_migrations, executed_migration_actions;
	int32_t migration_failure_count, action_failure_count;
	struct sst_artifact_ref *last_applied_snapshot; size_t nlast_applied_snapshot;
	struct sst_pending_update *pending_update;   /* NULL when absent */
	char *last_handled_update_override, *last_handled_reset_scope;
	struct sst_budget_freeze *budget_freeze;     /* NULL when absent */
	char *last_handled_budget_override;
};

/* sst_status_init() - an empty status (every string "").  Cannot fail. */
void sst_status_init(struct sst_status *s);

/*
 * sst_status_parse() - reads an object's status tree (NULL: empty status)
 * into @out (filled; release with sst_status_release()).  Fields of the
 * wrong type are read as absent (the simulator only writes well-formed
 * statuses; a snapshot's are admitted against the CRD).
 * Errors: cannot fail (aborts on OOM).
 */
void sst_status_parse(const struct val *status, struct sst_status *out);

/*
 * sst_status_to_val() - @s as Go's encoding/json writes a StageSetStatus.
 * Returns: a new tree; caller frees with val_free().
 */
struct val *sst_status_to_val(const struct sst_status *s);

/* sst_status_equal() - the same JSON (what decides whether a status patch is due). */
bool sst_status_equal(const struct sst_status *a, const struct sst_status *b);

/*
 * sst_status_patch() - the RFC 7386 JSON merge patch that turns the
 * rendering of @a (sst_status_to_val()) into that of @b: a field that
 * differs is rendered whole (lists replace, maps and objects key by key, a
 * field @b leaves out is null), built without rendering the fields that are
 * equal.  What patch.Helper sends for a status that changed.
 * Returns: a new map (caller frees with val_free()), NULL when equal.
 */
struct val *sst_status_patch(const struct sst_status *a, const struct sst_status *b);

/* sst_status_copy() - deep copy of @src into @dst (filled). */
void sst_status_copy(struct sst_status *dst, const struct sst_status *src);

/*
 * sst_status_assign() - makes @dst a deep copy of @src (the same content
 * sst_status_copy() gives), reusing what @dst already holds: a string equal
 * to the source's is kept, a longer one is overwritten in place, arrays keep
 * their storage when the counts match.  So a status assigned the same or a
 * slightly changed status allocates nothing or little.
 * @dst: a status (sst_status_init(), a parse, a copy) or a zeroed struct;
 *       owned by the caller, released with sst_status_release().
 * @src: borrowed; @dst == @src is a no-op.
 * Errors: cannot fail (aborts on OOM).
 */
void sst_status_assign(struct sst_status *dst, const struct sst_status *src);

/* sst_status_release() - frees what @s owns; @s is then empty.  Accepts NULL. */
void sst_status_release(struct sst_status *s);

/*
 * sst_str_assign() - makes *@dst a copy of @src (NULL read as ""), reusing
 * what *@dst holds: kept when it already holds that text, overwritten in place
 * when its buffer is long enough, freed and duplicated otherwise.  So setting
 * a field to the value it had between two passes allocates nothing.  Inline:
 * the commonest case, the same text (an empty one found without strcmp()),
 * costs no call; the rest is sst_str_assign_differs().
 * @dst: a string owned by the caller (freed with free()), or NULL (nothing to
 *       reuse); pointers others borrowed from *@dst see the new text or dangle.
 * @src: borrowed; may be *@dst itself or point into it.
 * Errors: cannot fail (aborts on OOM).
 * sst_str_assign_differs() is sst_str_assign() past that inline check, with
 * the same contract (it compares again).
 */
void sst_str_assign_differs(char **dst, const char *src);

static inline void sst_str_assign(char **dst, const char *src)
{
	const char *t = src ? src : "";

	if (*dst && (*dst)[0] == t[0] && (t[0] == '\0' || strcmp(*dst + 1, t + 1) == 0))
		return;
	sst_str_assign_differs(dst, src);
}

/* Deep copies and releases of the parts (for the stage loop's bookkeeping). */
void sst_stage_status_copy(struct sst_stage_status *dst, const struct sst_stage_status *src);
void sst_stage_status_release(struct sst_stage_status *s);
/*
 * sst_stage_status_assign() - makes @dst a deep copy of @src as
 * sst_stage_status_copy() would, reusing @dst's strings and lists
 * (sst_str_assign()).  @dst: owned by the caller, zeroed or holding owned
 * fields; released with sst_stage_status_release().  @src: borrowed, not
 * @dst.  Errors: cannot fail (aborts on OOM).
 */
void sst_stage_status_assign(struct sst_stage_status *dst, const struct sst_stage_status *src);
struct sst_promotion_state *sst_promotion_state_dup(const struct sst_promotion_state *p);
void sst_promotion_state_free(struct sst_promotion_state *p);
struct sst_budget_freeze *sst_budget_freeze_dup(const struct sst_budget_freeze *b);
void sst_budget_freeze_free(struct sst_budget_freeze *b);

/* sst_strmap_get() - the value of @key, NULL when absent.  O(log n). */
const char *sst_strmap_get(const struct sst_strmap *m, const char *key);
/* sst_strmap_set() - sets @key (copied) to @value (copied), keeping the keys sorted. */
void sst_strmap_set(struct sst_strmap *m, const char *key, const char *value);
void sst_strmap_release(struct sst_strmap *m);
/*
 * sst_strmap_assign_pairs() - makes @m the map that sst_strmap_release() and
 * then sst_strmap_set() of each pair (@key(@ctx, i), @value(@ctx, i)),
 * i = 0 .. @n-1 in order, would give (a later pair of an equal key wins),
 * but keeps the keys of @m that stay and sets their values in place
 * (sst_str_assign()): rebuilt each pass with the same keys, it allocates
 * nothing.  @key, @value: borrowed texts, not pointing into @m (a NULL value
 * is read as "").  Errors: cannot fail (aborts on OOM).
 * Cost: O(@n log @m->n + @m->n) with sst_strmap_set()'s insertions.
 */
void sst_strmap_assign_pairs(struct sst_strmap *m, size_t n, const char *(*key)(const void *ctx, size_t i),
			     const char *(*value)(const void *ctx, size_t i), const void *ctx);

/* sst_string_list_push() - appends a copy of @s. */
void sst_string_list_push(struct sst_string_list *l, const char *s);
bool sst_string_list_has(const struct sst_string_list *l, const char *s);
void sst_string_list_release(struct sst_string_list *l);
/*
 * sst_string_list_assign() - makes @dst a copy of @src (items NULL read as
 * ""), reusing @dst's items (sst_str_assign()) and array; an empty list
 * has items NULL.  @dst: owned by the caller, released with
 * sst_string_list_release().  @src: borrowed.  Errors: cannot fail (aborts
 * on OOM).
 */
void sst_string_list_assign(struct sst_string_list *dst, const struct sst_string_list *src);

/* sst_ready_condition() - the condition of type Ready, or NULL. */
const struct sst_condition *sst_ready_condition(const struct sst_status *s);

/* sst_format_time() - RFC 3339 UTC text of @unix_ms floored to whole seconds, into @buf (>= 21 bytes). */
const char *sst_format_time(int64_t unix_ms, char *buf, size_t len);

/*
 * sst_parse_duration() - time.ParseDuration of @text ("1h30m", "1.5s",
 * "500ms", "-2s", "0") into @ms, truncated toward zero to whole ms.
 * Returns: 0, or -1 when @text is not a Go duration (@ms untouched).
 */
int sst_parse_duration(const char *text, int64_t *ms);

/*
 * sst_parse_time() - an RFC 3339 time as metav1.Time reads it
 * ("2024-05-01T10:00:00Z", with an optional fraction and a numeric offset)
 * into Unix @ms.  Returns: 0, or -1 on bad text.
 */
int sst_parse_time(const char *text, int64_t *ms);

/* sst_condition_parse() - a metav1.Condition mapping into @c (filled, owned strings); wrong types read as absent. */
void sst_condition_parse(const struct val *m, struct sst_condition *c);

/* sst_condition_to_val() - @c as json.Marshal writes a metav1.Condition.  Returns a new tree. */
struct val *sst_condition_to_val(const struct sst_condition *c);

/* sst_condition_release() - frees @c's strings.  Accepts NULL. */
void sst_condition_release(struct sst_condition *c);

/* sst_condition_copy() - deep copy of @src into @dst (filled). */
void sst_condition_copy(struct sst_condition *dst, const struct sst_condition *src);
/*
 * sst_condition_assign() - makes @dst a deep copy of @src as
 * sst_condition_copy() would, reusing @dst's strings (sst_str_assign()).
 * @dst: a condition owned by the caller (its strings NULL or owned);
 *       released with sst_condition_release().
 * @src: borrowed.  Errors: cannot fail (aborts on OOM).
 */
void sst_condition_assign(struct sst_condition *dst, const struct sst_condition *src);

#endif
