#ifndef MAGOS_ENGINE_FLEET_ROLLOUT_H
#define MAGOS_ENGINE_FLEET_ROLLOUT_H

/*
 * The FleetRollout controller as a pure function (spec
 * ../shared/specs/fleetrollout-controller.md §1.6-§1.9, §2.3-§2.7, §6;
 * metio/stageset-controller@f2c7604 internal/controller/fleetrollout_controller.go).
 *
 * One call is one reconcile() pass.  It takes the FleetRollout (spec as a
 * `struct val`, the prior status already parsed into a struct fr_status),
 * every StageSet and Namespace of the cluster, the other FleetRollouts and
 * the clock, and returns:
 *   - the status to write (struct fr_status, RFC 3339 texts included),
 *     and whether it differs from the prior one (no write when equal);
 *   - the annotation patches, in upstream order (approved-version during
 *     approvals, rollback-to during a halt);
 *   - the Warning event `Halted`, the requeue, the gate evaluations, and
 *     plain-words notes for the surprising behaviours of spec §6.
 *
 * Time: @now_ms and every soakUntil are wall-clock Unix milliseconds (the
 * adapter adds its anchor); soakUntil in the written status is floored to
 * whole seconds, as a metav1.Time is stored (§2.10).
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/value.h"

/* Annotation keys (MA: approvedVersionAnnotation, rollbackToAnnotation). */
#define FR_ANN_APPROVED_VERSION "stages.metio.wtf/approved-version"
#define FR_ANN_ROLLBACK_TO "stages.metio.wtf/rollback-to"

/* Phases (FT FleetPhase); Pending exists upstream but is never written. */
#define FR_PHASE_IN_PROGRESS "InProgress"
#define FR_PHASE_HALTED "Halted"
#define FR_PHASE_COMPLETED "Completed"

/* Ready reasons (FC Reason* constants). */
#define FR_REASON_PROGRESSING "Progressing"
#define FR_REASON_COMPLETED "Completed"
#define FR_REASON_HALTED "Halted"
#define FR_REASON_MEMBERS_UNASSIGNED "MembersUnassigned"
#define FR_REASON_MEMBERS_CONTESTED "MembersContested"
#define FR_REASON_INVALID_SELECTOR "InvalidSelector"
#define FR_REASON_GATE_UNSUPPORTED "GateUnsupported"

/* Wave health (FleetWaveStatus.Health). */
#define FR_HEALTH_PASSING "Passing"
#define FR_HEALTH_FAILING "Failing"
#define FR_HEALTH_UNKNOWN "Unknown"

/* fleetRequeueInterval. */
#define FR_REQUEUE_MS 30000

/* Return codes of fr_reconcile(). */
enum {
	FR_OK = 0,
	FR_EPATCH = -1, /* a member patch failed: the pass returns that error (back-off) */
};

/* What one pass concluded. */
enum fr_outcome {
	FR_OUT_INVALID_SELECTOR,    /* S1 or S3: Ready False InvalidSelector, no requeue */
	FR_OUT_MEMBERS_CONTESTED,   /* S2: Ready False MembersContested, 30 s */
	FR_OUT_GATE_UNSUPPORTED,    /* S3: Ready False GateUnsupported, no requeue */
	FR_OUT_MEMBERS_UNASSIGNED,  /* S4: Ready False MembersUnassigned, 30 s */
	FR_OUT_HALTED,              /* §2.4: Ready False Halted, Warning event, 30 s */
	FR_OUT_COMPLETED,           /* S9: Ready True Completed, no requeue */
	FR_OUT_PROGRESSING,         /* S9: Ready True Progressing, requeueAfter */
	FR_OUT_PATCH_ERROR,         /* a member patch failed (FR_EPATCH) */
};

/* Per-wave status (FleetWaveStatus); all strings owned. */
struct fr_wave_status {
	char *name;
	int32_t total;       /* count of members assigned to the wave */
	int32_t at_target;   /* count adopted */
	int32_t ready;       /* count ready */
	bool settled;
	bool has_soak_until;
	int64_t soak_until_ms; /* Unix ms; whole seconds in a written status */
	char *soak_until;      /* RFC 3339 text of soak_until_ms (NULL when absent) */
	char *health;          /* "" (gate never evaluated), Passing, Failing or Unknown */
};

/* The Ready condition (metav1.Condition, type Ready); strings owned. */
struct fr_condition {
	char *status;  /* "True" or "False" */
	char *reason;
	char *message;
	char *last_transition_time; /* RFC 3339 */
	int64_t observed_generation;
};

/*
 * FleetRolloutStatus.  Used both for the prior status (parsed by the
 * adapter from the object: only soak_until_ms is read of the soak fields,
 * the text may be NULL) and for the status a pass writes.
 */
struct fr_status {
	int64_t observed_generation;
	char *phase;        /* "" when never set */
	char *current_wave; /* "" when none */
	struct fr_wave_status *waves;
	size_t nwaves;
	bool has_ready;
	struct fr_condition ready;
};

/*
 * A gate verdict source: the metric value of wave @wave's gate at the
 * pass's now.
 * @ctx:    the caller's context.
 * @wave:   index into spec.waves.
 * @gate:   spec.waves[@wave].gate (borrowed; has `source` and `threshold`).
 * @value:  receives the scalar on success.
 * @err, @errlen: on failure receives the reason (e.g. "sample value is NaN").
 * Returns: 0 with *@value set, or nonzero when the query is unavailable
 *          (the verdict is then Unknown).  The source-side rules (address,
 *          allowlist, NaN/Inf, several series) are the callback's job.
 */
typedef int (*fr_gate_fn)(void *ctx, size_t wave, const struct val *gate, double *value, char *err,
			  size_t errlen);

/* A pre-evaluated gate value, for callers without a callback. */
struct fr_gate_value {
	bool available;    /* false: the query failed (Unknown) */
	double value;      /* when available */
	const char *error; /* when not available (borrowed); NULL gives "metric unavailable" */
};

/* An annotation patch on a member StageSet (a JSON merge patch of one key). */
enum fr_action_kind {
	FR_ACT_APPROVE,  /* approved-version := value (§2.3.5) */
	FR_ACT_ROLLBACK, /* rollback-to := value (§2.4) */
};

struct fr_action {
	enum fr_action_kind kind;
	size_t member;          /* index into fr_input.stagesets */
	size_t wave;            /* the wave whose loop issued it */
	const char *annotation; /* static: FR_ANN_APPROVED_VERSION or FR_ANN_ROLLBACK_TO */
	char *value;            /* owned */
	char *previous;         /* owned: the annotation's value before (NULL when absent) */
};

/*
 * A patch applier: called for each action in order; nonzero means the patch
 * failed and the pass stops there (upstream returns the error).
 */
typedef int (*fr_patch_fn)(void *ctx, const struct fr_action *a);

/* Gate evaluations of a pass, in evaluation order. */
struct fr_gate_eval {
	size_t wave;
	bool available;     /* the query returned a value */
	double value;       /* when available (also kept on a threshold error) */
	const char *verdict; /* static: FR_HEALTH_* */
	char *error;        /* owned: query or threshold error text, NULL when none */
	bool wave_open;     /* the wave was at or before the first open wave when evaluated */
};

/* Surprising behaviours of spec §6 that a pass ran into, in plain words. */
enum fr_quirk {
	FR_QUIRK_REGRESSION_ONE_PASS,      /* §6 #1 / §2.5 */
	FR_QUIRK_NEW_VERSION_AFTER_COMPLETED, /* §6 #5 / §2.7 */
	FR_QUIRK_GATE_BEFORE_OPEN,         /* §6 #11: gate queried for a wave not yet open */
	FR_QUIRK_GATE_ON_PASSED_WAVE,      /* §6 #11: gate re-queried on a passed wave */
	FR_QUIRK_WAVE_REOPENED,            /* §6 #11: currentWave moved backwards */
	FR_QUIRK_ROLLBACK_NEVER_CLEARED,   /* §6 #2, #4: rollback-to stays; fleet does not stay halted */
	FR_QUIRK_OVERLAPPING_WAVES,        /* §6 #6: a member in several waves */
	FR_QUIRK_EARLY_EXIT_FROZEN,        /* §6 #15: phase/currentWave/waves left stale */
	FR_QUIRK_APPROVAL_OVERWRITTEN,     /* §6 #14: a different approval was overwritten */
	FR_QUIRK_PINNED_HOLD_MISMATCH,     /* §6 #3, §2.7: pinned fleet never approves what a member holds */
	FR_QUIRK_HALT_EVERY_PASS,          /* §2.5: a failing gate halts (and warns) on every pass */
};

struct fr_quirk_note {
	enum fr_quirk quirk;
	long wave;  /* spec index, -1 when not about one wave */
	char *text; /* owned: one sentence for the run output */
};

/* Members of one wave: indices into fr_input.stagesets, in List order. */
struct fr_wave_members {
	size_t *idx;
	size_t n;
};

/*
 * What a pass reads of one StageSet's status, extracted once per change of
 * the object (fr_member_facts_of()); strings borrowed from the object.
 */
struct fr_member_facts {
	const char *version;         /* status.version, "" when absent */
	const char *pending_version; /* status.pendingVersion, "" when absent */
	bool ready;                  /* Ready True, observedGeneration current, no pendingUpdate.revisions */
	const char *approved_version; /* annotation FR_ANN_APPROVED_VERSION, NULL when absent */
};

/*
 * A selection and wave assignment computed by an earlier pass (its
 * fr_result members, waves, noverlap, first_overlap), valid while the
 * StageSet list (identity, order, labels), every Namespace's labels and the
 * FleetRollout's spec are unchanged.  Borrowed.
 */
struct fr_assignment {
	const size_t *members;
	size_t nmembers;
	const struct fr_wave_members *waves; /* one per spec wave */
	size_t nwaves;
	size_t noverlap;      /* members in several waves */
	size_t first_overlap; /* the first of them (index into stagesets) when noverlap > 0 */
};

/*
 * Incremental state of one FleetRollout's per-wave counts (atTarget,
 * ready), the inputs of fleetVersionLabel (how many selected members hold
 * each pendingVersion) and, per wave, the members an approval pass would
 * look at (a patch or a PINNED_HOLD_MISMATCH note is due).  Built from an
 * assignment and the members' facts, then kept current with
 * fr_tally_update() as members change, so a pass costs O(waves + those
 * members) instead of O(members).  Valid for the FleetRollout spec
 * (targetVersion) and the assignment it was built from.  Opaque.
 */
struct fr_tally;

/*
 * fr_tally_new() - a tally of @asg over @facts.
 * @fr:    the FleetRollout (borrowed; spec.targetVersion is copied).
 * @asg:   the selection and wave assignment (borrowed, must outlive the
 *         tally; indices < @nstagesets).
 * @facts: @nstagesets facts, index as fr_input.stagesets (read now only).
 * Returns: new; free with fr_tally_free().  Cannot fail (aborts on OOM).
 * Cost:    O(nstagesets + assignment).
 */
struct fr_tally *fr_tally_new(const struct obj *fr, const struct fr_assignment *asg,
			      const struct fr_member_facts *facts, size_t nstagesets);

/*
 * fr_tally_update() - StageSet @i now has the facts @m (read now only; the
 * previous facts need not be valid any more).  A StageSet outside the
 * assignment is ignored.  Cost: O(waves of @i + distinct pendingVersions).
 */
void fr_tally_update(struct fr_tally *t, size_t i, const struct fr_member_facts *m);

/* fr_tally_free() - frees @t.  Accepts NULL. */
void fr_tally_free(struct fr_tally *t);

/*
 * The inputs of one pass; everything borrowed.
 * Invariants the caller keeps: @stagesets is every StageSet of the cluster
 * in List order (namespace, then name); @namespaces every Namespace.
 */
struct fr_input {
	const struct obj *fr;          /* the FleetRollout: name, generation, spec */
	const struct fr_status *prior; /* its status as parsed; NULL for none */
	const struct obj *const *stagesets;
	size_t nstagesets;
	const struct obj *const *namespaces;
	size_t nnamespaces;
	const struct obj *const *others; /* every FleetRollout (the one reconciled may be among them) */
	size_t nothers;
	const int64_t *wave_soak_ms; /* spec.waves[i].soak in ms (nil ⇒ 0); NULL: all 0 */
	int64_t now_ms;              /* Unix ms */
	const char *now_text;        /* RFC 3339 of now, whole seconds (lastTransitionTime) */
	fr_gate_fn gate;             /* gate values; NULL: use gate_values */
	void *gate_ctx;
	const struct fr_gate_value *gate_values; /* one per spec wave, or NULL (no querier) */
	fr_patch_fn patch;           /* NULL: every patch succeeds */
	void *patch_ctx;
	const char *members_list_error; /* non-NULL: the StageSet List failed with this text (§6 #9) */
	/*
	 * Optional caches (NULL: computed by the pass, as upstream does).  The
	 * caller vouches that they are what the pass would compute from the
	 * inputs above; the decisions are the same either way.
	 */
	const struct fr_assignment *assignment; /* S1 selection and S4 wave assignment */
	const struct fr_member_facts *facts;    /* one per StageSet (index as @stagesets) */
	/*
	 * Optional, only with @assignment and @facts: their tally, current with
	 * @facts (fr_tally_update() after every change).  S5, the S6 counts and
	 * the S8 approvals then read it instead of every member.  Not const: a
	 * pass may reorder its lists.
	 */
	struct fr_tally *tally;
};

/* Everything a pass produced; owned by the result (fr_result_release()). */
struct fr_result {
	enum fr_outcome outcome;
	struct fr_status status;   /* the status after the pass */
	bool status_changed;       /* differs from the prior one (a write is due) */
	int64_t requeue_after_ms;  /* 0: none (also on FR_EPATCH: the caller backs off) */
	bool event_halted;         /* a Warning event, reason and action `Halted` */
	char *event_note;          /* its note (= the Halted message), owned */
	struct fr_action *actions; /* patches issued, in order (the failed one last) */
	size_t nactions;
	/*
	 * Private to the pass: room in @actions, and an index of the latest
	 * action per (member, annotation), so that reading a member's current
	 * annotation costs O(1) however many patches the pass has issued.
	 */
	size_t capactions;
	size_t *patched;           /* open addressing: action index + 1, 0 = empty */
	size_t cappatched;
	bool patch_failed;         /* the last action failed */
	struct fr_gate_eval *gates;
	size_t ngates;
	struct fr_quirk_note *quirks;
	size_t nquirks;
	size_t *members;           /* the selected members (indices into stagesets) */
	size_t nmembers;
	struct fr_wave_members *waves; /* per spec wave (NULL before S4 succeeded) */
	/*
	 * true: @members and every waves[].idx are borrowed from
	 * fr_input.assignment (valid while it is), not copied: a pass with the
	 * caches copies nothing per member.  The @waves array itself is owned.
	 */
	bool borrowed;
	size_t nwaves;
	char *version_label;       /* fleetVersionLabel (NULL before S5) */
	long first_open;           /* firstOpen of PASS 2, -1 when every wave passed or not reached */
	size_t noverlap;           /* members in several waves (S4) */
	size_t first_overlap;      /* the first of them (index into stagesets) when noverlap > 0 */
};

/*
 * fr_reconcile() - one pass of FleetRolloutReconciler.reconcile().
 * @in:  the inputs (borrowed).
 * @out: filled by this call (previous content ignored); release with
 *       fr_result_release() whatever the return value.
 * Returns: FR_OK, or FR_EPATCH when @in->patch refused an action: the pass
 *          stops there as upstream does (the status keeps the new waves and
 *          observedGeneration, but phase, currentWave and the condition stay
 *          as before; no event), outcome FR_OUT_PATCH_ERROR.
 * Cost:    O(others × stagesets × selector) for contests (nothing when
 *          no other FleetRollout exists) plus O(stagesets × waves ×
 *          selector) for the assignment (nothing with @in->assignment),
 *          plus O(members) status reads (cheap with @in->facts; O(waves +
 *          members the approvals look at) with @in->tally).
 * Source: metio/stageset-controller@f2c7604 internal/controller/fleetrollout_controller.go
 *         reconcile, members, contestedMembers, waveStatus, memberProgress,
 *         fleetAdopted, fleetApprovalVersion, fleetVersionLabel, approve,
 *         evalGate, halt, rollbackMember, requeueAfter, gateSecretRef,
 *         setFleetReady (fluxcd conditions.Set)
 * Deviations:
 *  - other FleetRollouts are visited in ascending name order (upstream:
 *    cache list order, §6 #20);
 *  - a member in two open waves is patched once: upstream may send a
 *    second, identical (no-op) patch when the member had no annotations;
 *  - a missing or null spec.selector or wave selector is the empty
 *    selector (Go's zero LabelSelector value), matching everything;
 *  - lastTransitionTime takes @now_text (the simulator has one clock).
 */
int fr_reconcile(const struct fr_input *in, struct fr_result *out);

/*
 * fr_member_facts_of() - what a pass reads of StageSet @ss's status.
 * @ss:  the StageSet (borrowed); @out: filled, its strings borrowed from @ss
 *       (valid while @ss is unchanged).
 */
void fr_member_facts_of(const struct obj *ss, struct fr_member_facts *out);

/* fr_result_release() - frees what @r owns and zeroes it.  Accepts NULL. */
void fr_result_release(struct fr_result *r);

/* fr_status_release() - frees what @s owns and zeroes it.  Accepts NULL. */
void fr_status_release(struct fr_status *s);

/* fr_status_copy() - deep copy of @src into @dst (filled by this call). */
void fr_status_copy(struct fr_status *dst, const struct fr_status *src);

/*
 * fr_status_equal() - same fields as they would be serialised (soakUntil
 * compared as ms; the texts follow from them).
 */
bool fr_status_equal(const struct fr_status *a, const struct fr_status *b);

/*
 * fr_format_time() - RFC 3339 UTC text of @unix_ms floored to whole seconds,
 * "2026-07-19T12:00:00Z", as a metav1.Time serialises.
 * Returns: a new string; caller frees.  Cannot fail.
 */
char *fr_format_time(int64_t unix_ms);

/* fr_outcome_name() - "InvalidSelector", ..., "Progressing", "PatchError". */
const char *fr_outcome_name(enum fr_outcome o);

/* fr_quirk_name() - a short stable identifier, e.g. "regression-halt-one-pass". */
const char *fr_quirk_name(enum fr_quirk q);

#endif
