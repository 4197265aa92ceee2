/*
 * The core of lint: the rule table, the report, admission findings from the
 * loader's diagnostics, and the driver that runs both rule families.
 */
#include "sim/lint/lint.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/limits.h"
#include "sim/load/yamlload.h"
#include "sim/lint/lint_fleet_adoption.h"
#include "sim/lint/lint_fleet_quirks.h"
#include "sim/lint/lint_magos_policy.h"
#include "sim/lint/lint_magos_jobs.h"
#include "sim/lint/lint_magos_quirks.h"
#include "sim/lint/lint_magos_resume.h"
#include "sim/lint/lint_ss_deps.h"
#include "sim/lint/lint_ss_downgrade.h"
#include "sim/lint/lint_ss_failure.h"
#include "sim/lint/lint_ss_holds.h"
#include "sim/lint/lint_ss_lag.h"
#include "sim/lint/lint_ss_prune.h"
#include "sim/lint/lint_ss_spec.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/lint/lint_ss_reset.h"
#include "sim/lint/lint_ss_sources.h"
#include "sim/lint/lint_ss_stale.h"
#include "sim/lint/lint_ss_tokens.h"

/*
 * Every rule, in id order (a unit test checks the order and that ids are
 * unique).  Ids never change meaning once released: retire a rule by leaving
 * its id unused, never by giving it to another check.
 */
static const struct lint_rule rules[] = {
	/* ---- MS0xx: admission and input ------------------------------------------ */
	{ "MS001", "admission-refused", LINT_ERROR,
	  "the API server would refuse this manifest (CRD schema, required field, enum, CEL rule, "
	  "duplicate object)",
	  "correct the field the message names; `kubectl apply --dry-run=server` shows the same "
	  "refusal" },
	{ "MS002", "unreadable-input", LINT_ERROR,
	  "an input cannot be read, is not YAML, or a document is not a Kubernetes object (or the "
	  "Scenario document is invalid)",
	  "check that the path exists and names a readable file or directory; fix the file so it "
	  "parses as YAML and every document has apiVersion, kind and "
	  "metadata.name; an unknown field's finding names the fields accepted there and the "
	  "nearest one" },
	{ "MS003", "load-warning", LINT_WARNING,
	  "the loader accepted the input but found something suspicious",
	  "read the warning and correct the manifest or the scenario" },
	{ "MS004", "gate-series-missing", LINT_ERROR,
	  "a FleetRollout gate's Prometheus query has no synthetic series in the Scenario's "
	  "spec.metrics: `run` and `check` cannot evaluate the gate and refuse the input (`lint` "
	  "alone does not ask for series: only a run reads them; the API server accepts the "
	  "manifest)",
	  "add an entry with the gate's exact query (and address, when the gate names one) to "
	  "spec.metrics of a Scenario document that includes the manifests (scenarios/README.md, "
	  "*Gate series*)" },

	/* ---- MS1xx: Magos Rollout, Project and Workspace ------------------------- */
	{ "MS101", "step-matches-nothing", LINT_ERROR,
	  "a Rollout step's selector matches no Workspace of the Rollout's project: the controller "
	  "halts the whole Rollout with NoWorkspacesFound",
	  "fix the step's selector or add the Workspace it should select (same namespace, "
	  "spec.projectRef.name = the Rollout's projectRef)" },
	{ "MS102", "empty-steps", LINT_WARNING,
	  "a Rollout has no steps while its Project exists: it reports Ready/NoSteps and grants "
	  "nothing, and the Project defers to it, so the project's Workspaces that hold no grant "
	  "from before never run (upstream treats an empty Rollout as a valid no-op)",
	  "add steps to spec.strategy.steps, or delete the Rollout to let the Project grant every "
	  "Workspace at once" },
	{ "MS103", "overlapping-steps", LINT_WARNING,
	  "a Workspace is selected by two steps that form different levels: while it is pending it "
	  "is granted in one pass and revoked in the next (grant/revoke flapping)",
	  "make the step selectors disjoint, e.g. with a NotIn expression on the label the other "
	  "step selects" },
	{ "MS104", "repeated-steps", LINT_WARNING,
	  "two steps that are not next to each other select the same Workspaces: only consecutive "
	  "identical steps merge into one level, so those Workspaces belong to two levels and flap",
	  "remove the repeated step or move it next to its twin" },
	{ "MS105", "workspace-not-selected", LINT_WARNING,
	  "a Workspace of a project with a Rollout is selected by no step: nothing ever grants it "
	  "execution",
	  "add a step whose selector matches the Workspace, or change its labels" },
	{ "MS106", "rollout-project-missing", LINT_WARNING,
	  "a Rollout's spec.projectRef names no Project in its namespace (the Rollout does not check "
	  "and still orchestrates the Workspaces naming that project)",
	  "create the Project, or fix spec.projectRef and metadata.name of the Rollout" },
	{ "MS107", "reconcile-interval-not-positive", LINT_ERROR,
	  "annotation magosproject.io/reconcile-interval is zero or negative: the Workspace "
	  "controller loops forever computing the next reconcile time and stops processing",
	  "use a positive Go duration such as 3m or 1h, or remove the annotation (default 3m)" },
	{ "MS108", "reconcile-interval-invalid", LINT_WARNING,
	  "annotation magosproject.io/reconcile-interval is not a Go duration: the controller "
	  "silently uses the default 3m",
	  "write a Go duration such as 90s, 5m or 1h30m" },
	{ "MS109", "auto-apply-off", LINT_WARNING,
	  "a Workspace orchestrated by a Rollout has autoApply: false: its plan waits for a human "
	  "to set magosproject.io/approved, and the Rollout waits with it",
	  "set autoApply: true, or plan for someone to approve each plan during the rollout" },
	{ "MS110", "selector-crosses-projects", LINT_WARNING,
	  "a Rollout step's selector also matches Workspaces of other projects: the Rollout "
	  "ignores them, so they are not rolled out by this step",
	  "narrow the selector to the project's Workspaces, or move those Workspaces into the "
	  "project" },
	{ "MS111", "step-selector-invalid", LINT_ERROR,
	  "a Rollout step's selector is accepted by the API server but does not convert to a label "
	  "selector (unknown operator, values with Exists, none with In): ReconcileError and "
	  "back-off retries",
	  "use the operators In, NotIn, Exists, DoesNotExist with values only for In and NotIn" },
	{ "MS112", "workspace-project-missing", LINT_WARNING,
	  "a Workspace's spec.projectRef.name names a project with neither a Project nor a Rollout "
	  "in its namespace: nothing ever grants it execution",
	  "create the Project (and its Rollout), or fix spec.projectRef.name" },
	{ "MS113", "git-poll-interval-invalid", LINT_WARNING,
	  "annotation magosproject.io/git-poll-interval is not a Go duration above zero: the "
	  "RefWatcher silently polls at its default interval (30s) instead",
	  "write a positive Go duration such as 1m or 5m, or remove the annotation" },
	{ "MS114", "granted-before-rollout", LINT_WARNING,
	  "a Workspace holds execution-allowed before its Rollout exists (in its manifest, or "
	  "granted by the Project as DefaultParallel while the Rollout was not there yet): the "
	  "grant survives the hand-off (upstream TODO #7), so a Workspace no step selects plans and "
	  "applies outside the Rollout's order, and one of a later step starts planning before its "
	  "step opens",
	  "create the Rollout with (or before) the Project, or remove the annotation from the "
	  "manifest; select every Workspace of the project in some step" },
	{ "MS115", "reconcile-interval-too-short", LINT_WARNING,
	  "a Workspace of a step before the last has a reconcile interval no longer than the later "
	  "steps take at the median modelled Job durations: its scheduled reconcile resets it while "
	  "they run, re-opening its step, so the Rollout cannot complete in one pass and completes "
	  "only when a reset happens to leave the later steps Applied, much later or never",
	  "set magosproject.io/reconcile-interval on the Workspace well above the time the later "
	  "steps take (the finding says how long they take and suggests a value), or model "
	  "shorter Jobs if those are what you run" },
	{ "MS116", "revision-seen-late-first", LINT_WARNING,
	  "a scenario's commit lands on a ref that Workspaces of two steps track, and the later "
	  "step's Workspace polls for commits at least as often as the earlier one's: each "
	  "RefWatcher polls on its own timer from a random offset, so the later one often sees "
	  "the commit first, and if the earlier steps are all Applied then, it is granted and "
	  "plans the commit before them (upstream ordering hazard)",
	  "give the later steps' Workspaces a longer magosproject.io/git-poll-interval than the "
	  "earlier ones' (e.g. 5m against 1m), so that they usually see a commit last" },
	{ "MS117", "detected-revision-empty", LINT_ERROR,
	  "annotation magosproject.io/detected-revision is present but empty on a Workspace whose "
	  "spec.source.targetRevision is not: the Workspace resets (NewRevisionDetected) after "
	  "every apply, because the empty value differs from the observedRevision each apply "
	  "records, and an apply removes the key only when it has a value, so it plans and "
	  "applies forever and a Rollout's step with it never completes (spec §7 #20)",
	  "remove the annotation (the RefWatcher writes it with the commit SHA)" },
	{ "MS118", "job-timeout-not-positive", LINT_ERROR,
	  "a Workspace's spec.plan.timeoutSeconds or spec.apply.timeoutSeconds is zero or "
	  "negative: it becomes the Job's activeDeadlineSeconds, which the Job API refuses below "
	  "0 (ReconcileError; for the plan a Failed / ConfigurationChanged loop), and at 0 the "
	  "Job fails with DeadlineExceeded before it runs (spec §7 #23, #24)",
	  "set timeoutSeconds above the time the Job takes (e.g. 3600), or remove it (the "
	  "controller then uses 86400)" },
	{ "MS119", "auto-apply-changed", LINT_WARNING,
	  "a scenario's patch event changes a Workspace's spec.autoApply: autoApply is part of the "
	  "spec hash, so the Workspace takes the change for a new spec and plans again, and a plan "
	  "waiting in Planned for approval is replaced instead of applied (spec §7 #25)",
	  "approve the waiting plan with magosproject.io/approved: \"true\" (an approve event) "
	  "instead of changing autoApply" },
	/* MS120, MS121: policy validation against the field docs (sim/lint/lint_magos_policy.c). */
	{ "MS120", "policy-selector-empty", LINT_WARNING,
	  "the validation.policySelector that applies to a Workspace (its own, or its Project's "
	  "that it falls back to) is the empty selector {}: the field's doc says {} matches every "
	  "ValidatingPolicy, but the Workspace controller turns it into an empty selector string, "
	  "which means no validation, so the Workspace's plans are checked against no policy and "
	  "never end ValidationFailed (spec §7 #21)",
	  "select the policies by a label they carry (e.g. matchExpressions: [{key: "
	  "policy.example.com/category, operator: Exists}]), or remove the selector if no "
	  "validation is meant" },
	{ "MS121", "validation-empty-inherits", LINT_WARNING,
	  "a Workspace sets spec.validation without a policySelector (validation: {}), which the "
	  "field's doc says overrides its Project's default, while the Project has a "
	  "policySelector: the Workspace controller falls back to the Project's selector whenever "
	  "the Workspace's own is nil, so the Workspace's plans are checked against the Project's "
	  "policies (spec §7 #21)",
	  "give the Workspace its own policySelector; to check it against no policy, one that no "
	  "ValidatingPolicy matches (e.g. matchLabels: {policy.example.com/none: \"true\"}); or "
	  "remove validation: {} if the Project's policies are meant" },
	/* MS122: sim/lint/lint_magos_resume.c. */
	{ "MS122", "refwatcher-seeded-from-branch", LINT_WARNING,
	  "a Workspace comes with a status.observedRevision that is not a commit SHA (the branch "
	  "name, which every run but a revision run records) and without the RefWatcher's memory "
	  "(a plain kubectl snapshot, not one the simulator wrote): the RefWatcher seeds the SHA it "
	  "last saw from observedRevision, as a restarted RefWatcher does, so its first poll reads "
	  "the branch's head as a new revision and the Workspace resets NewRevisionDetected for a "
	  "new run (plan, and apply) with no new commit (spec §7 #18)",
	  "resume from a snapshot the simulator wrote (run --snapshot), which carries the "
	  "RefWatcher's memory; or expect one more plan and apply of each such Workspace at its "
	  "first poll, as a RefWatcher restart or leader change causes on the cluster" },
	{ "MS126", "job-event-names-no-job", LINT_WARNING,
	  "a scripted event (status, patch, annotate, label, delete) names a Job that no input, "
	  "earlier apply event or Workspace creates: the Workspace controller names its Jobs "
	  "<workspace>-plan-<spec hash> and <workspace>-apply-<spec hash>, so the event does not "
	  "apply at run time (NotFound)",
	  "correct the Job's name: the finding names the nearest one that will exist" },

	/* ---- MS2xx: FleetRollout and StageSet members ---------------------------- */
	/* BEGIN MS2xx: rows owned by the FleetRollout rules (sim/lint/lint_fleet.c), in id order. */
	{ "MS201", "member-unassigned", LINT_ERROR,
	  "a StageSet the FleetRollout selects matches no wave selector: every pass stops with "
	  "MembersUnassigned and nothing is approved (spec §2.3 S4)",
	  "add a wave whose selector matches it (a last wave with selector {} takes the rest), or "
	  "narrow spec.selector / namespaceSelector so it is not selected" },
	{ "MS202", "member-several-waves", LINT_WARNING,
	  "a StageSet matches several wave selectors: the controller puts it in every one, approves "
	  "it when the first of them opens and counts it in each, with no error (spec §2.3 S4, §6 #6)",
	  "make the wave selectors disjoint, e.g. one label (ring) with a different value per wave" },
	{ "MS203", "members-contested", LINT_ERROR,
	  "a StageSet is selected by two FleetRollouts: both stop with MembersContested and approve "
	  "nothing (spec §2.3.2)",
	  "narrow one rollout's selector or namespaceSelector (e.g. DoesNotExist on the label the "
	  "other selects) so that each StageSet has one FleetRollout" },
	{ "MS204", "gate-secret-ref", LINT_ERROR,
	  "a wave gate's prometheus or webhook source has a secretRef: a cluster-scoped FleetRollout "
	  "cannot read it, so the controller stops with GateUnsupported and never retries (spec "
	  "§1.8, §2.3 S3)",
	  "expose the metric to the controller without authentication, or gate on a StageSet-level "
	  "source that carries the Secret" },
	{ "MS205", "threshold-unparseable", LINT_ERROR,
	  "a gate threshold bound is not a number Go's ParseFloat accepts: the gate never passes "
	  "(verdict Unknown) and the wave is held forever, with no event or condition saying why "
	  "(spec §1.4, §2.3.7, §6 #23)",
	  "write the bound as a plain number in a string, e.g. max: \"0.01\" (no %, no unit, not "
	  "empty)" },
	{ "MS206", "gate-host-not-allowed", LINT_ERROR,
	  "a gate's address host matches none of --allowed-action-hosts (the scenario's "
	  "spec.fleet.allowedActionHosts; none given = every host allowed): every query is refused, "
	  "the verdict is Unknown and the wave is held forever (spec §2.3.7)",
	  "point the gate at an allowed host, or add a pattern for its host to "
	  "--allowed-action-hosts" },
	{ "MS207", "rollback-derived", LINT_WARNING,
	  "onRegression Rollback without targetVersion: each new version after Completed halts once "
	  "and stamps rollback-to previousVersion, which is never removed, and the derived fleet "
	  "approves the downgrade and the re-upgrade in turn, so members oscillate (spec §2.8, §6 "
	  "#4, #5)",
	  "pin targetVersion (moving previousVersion with it), or use onRegression Halt for a "
	  "standing derived policy" },
	{ "MS208", "rollback-pinned-stall", LINT_WARNING,
	  "onRegression Rollback with targetVersion: under approvalMode Always the downgrade itself "
	  "needs approval and the fleet only ever approves targetVersion, so rolled-back members "
	  "stay AwaitingApproval (spec §2.8, §6 #3)",
	  "use onRegression Halt and roll back at the source: offer the previous version again and "
	  "set targetVersion to it" },
	{ "MS209", "member-not-always", LINT_WARNING,
	  "a selected StageSet does not use spec.version.approvalMode Always: it takes new versions "
	  "without approval, so the waves do not pace it, and a derived fleet counts it adopted at "
	  "once (spec §2.3.1, §6 #24)",
	  "set spec.version.approvalMode: Always on every member of the fleet" },
	{ "MS210", "member-no-downgrade", LINT_WARNING,
	  "under onRegression Rollback a selected StageSet lacks spec.version.allowDowngrade: true: "
	  "it refuses the rollback-to with DowngradeNotAllowed, and the fleet, which never reads "
	  "member reasons, does not notice (spec §2.8, §3.4, §6 #2)",
	  "set spec.version.allowDowngrade: true (with down actions for the migrations a rollback "
	  "crosses), or use onRegression Halt" },
	{ "MS211", "duplicate-wave-name", LINT_ERROR,
	  "two waves share a name: status.waves is a list keyed by name, so every status write is "
	  "refused and the controller backs off forever (spec §1.5, §6 #19)",
	  "give every wave a unique name" },
	{ "MS212", "empty-wave", LINT_WARNING,
	  "a wave selects none of the FleetRollout's members: it is settled from the start, so its "
	  "gate runs before the wave opens and can halt the fleet, and a StageSet that joins it "
	  "later trips a regression halt (spec §2.3.4, §2.5, §6 #11)",
	  "fix the wave's selector or the members' labels, or remove the wave" },
	{ "MS213", "fleet-selector-invalid", LINT_ERROR,
	  "spec.selector, spec.namespaceSelector or a wave selector is accepted by the API server "
	  "but does not convert to a label selector (unknown operator, values with Exists, none "
	  "with In): the controller stops with InvalidSelector and never retries (spec §1.5, "
	  "§2.3.1)",
	  "use the operators In, NotIn, Exists, DoesNotExist, with values only for In and NotIn, "
	  "and valid label keys and values" },
	{ "MS214", "gate-no-source", LINT_ERROR,
	  "a wave gate's source has neither prometheus nor webhook: the verdict is Unknown and the "
	  "wave is held forever (spec §1.4, §6 #23)",
	  "set source.prometheus with the address and the query" },
	{ "MS215", "threshold-never-passes", LINT_ERROR,
	  "a gate's threshold min is above its max: both bounds are inclusive, so every value "
	  "fails and the fleet halts as soon as the wave is settled and soaked (spec §1.4)",
	  "correct the bounds so that min <= max" },
	{ "MS216", "gate-address-unusable", LINT_ERROR,
	  "a gate's address is not an http(s) URL with a host, or names a loopback, link-local, "
	  "multicast or unspecified address the controller refuses to dial: the verdict is Unknown "
	  "and the wave is held forever (spec §2.3.7)",
	  "use the http(s) URL of the Prometheus service, by cluster DNS name or private address" },
	{ "MS217", "fleet-no-members", LINT_INFO,
	  "a FleetRollout selects none of the StageSets in the inputs: every wave is empty and it "
	  "completes without approving anything (spec §5 G7)",
	  "check spec.selector against the members' labels and namespaceSelector against their "
	  "namespaces' labels" },
	{ "MS218", "rollback-version-ignored", LINT_WARNING,
	  "under onRegression Rollback, previousVersion is not a semantic version, or not below "
	  "targetVersion: members ignore the rollback-to annotation, so a halt rolls nothing back "
	  "(spec §3.4)",
	  "set previousVersion to the semantic version the members ran before targetVersion" },
	{ "MS219", "target-not-semver", LINT_ERROR,
	  "targetVersion is not a semantic version: a StageSet only adopts semantic versions, so "
	  "no member reaches it and the first wave never settles (spec §2.6, §3.2)",
	  "write targetVersion as the exact version text the members' source offers, e.g. 4.6.0" },
	{ "MS220", "gate-both-sources", LINT_INFO,
	  "a gate source sets both prometheus and webhook: the controller queries prometheus and "
	  "ignores the webhook (spec §1.4)",
	  "remove the source you do not mean" },
	{ "MS221", "threshold-unbounded", LINT_WARNING,
	  "a gate's threshold sets neither min nor max, or only bounds that admit every value "
	  "(NaN, min -Inf, max +Inf): the gate passes whatever the metric says, so it never halts "
	  "the fleet (spec §1.4, §2.3.7)",
	  "set max (or min) to the limit the metric must stay within, as a plain number in a "
	  "string, e.g. max: \"0.01\"" },
	{ "MS222", "wave-worker-bound", LINT_WARNING,
	  "a wave has more members than the StageSet controller's 4 workers (concurrentReconciles "
	  "4), and each member's pass holds a worker through its apply and the wait for readiness: "
	  "at the median modelled durations the wave cannot settle in less than its members' "
	  "worker time over 4, an hour or more here, and every other StageSet's requeue (soak "
	  "deadlines, retries) waits behind them (spec §2.3.3; StageSet spec §5 Q-1, §2.4)",
	  "split the wave so that each settles in the time you want (the message gives the "
	  "members that fit in 30m), or shorten what a pass waits for (readiness, ready checks)" },
	{ "MS223", "wave-unsettled-no-rollback", LINT_WARNING,
	  "members of a wave may fail to become ready on the new version (the StageSet world's "
	  "readiness failedProbability or neverProbability): a member that fails keeps the wave "
	  "unsettled, and the FleetRollout halts only a settled wave (a failing gate after the "
	  "soak, a settled member regressing), so it neither halts nor stamps rollback-to; it "
	  "stays InProgress with the wave open and the members that adopted keep the version "
	  "(spec §2.3.3, §2.3.4, §2.4)",
	  "alert on members that are Ready False (StageFailed, StageProgressing) while the fleet "
	  "is InProgress, and roll those that adopted back by hand (stages.metio.wtf/rollback-to); "
	  "the FleetRollout will not" },
	{ "MS224", "soak-restarts-on-flap", LINT_WARNING,
	  "a wave soaks, and the StageSet world lets its members' workload regress sooner after "
	  "becoming ready than the soak lasts: a member no longer Ready during the soak halts the "
	  "fleet for one pass (a regression halt, with onRegression Rollback a rollback-to stamp "
	  "on the wave) and the next pass starts the soak over, so flaps more frequent than the "
	  "soak keep it from ever ending (spec §2.3.4, §2.5, §6 #1)",
	  "fix what makes the members flap, or make the soak shorter than the time they stay "
	  "healthy; a soak restarts at every flap a pass sees" },
	{ "MS225", "retry-interval-disabled", LINT_WARNING,
	  "a StageSet's spec.retryInterval is zero or negative: the controller accepts any value "
	  "and then never retries a hold on a timer (SourceNotReady, ArtifactNotFound, "
	  "DependencyNotReady, StageProgressing, a parked revision, a restart, event or manual "
	  "promotion gate, and budget and analysis holds without their own interval), so the "
	  "StageSet stays as it is until an event wakes it (StageSet spec §2.2, §2.3, §5 Q-19)",
	  "remove retryInterval (it then follows spec.interval) or set it above zero, e.g. 1m" },
	{ "MS226", "rollback-loop", LINT_WARNING,
	  "a StageSet sets rollbackOnFailure and the StageSet world makes one of its stages fail on "
	  "every try: the whole-run rollback restores the last-applied revisions and never parks, "
	  "so the next pass applies the same failing revision again, forever, with error back-off "
	  "up to 16m40s, and onRollback fires on every cycle (StageSet spec §3.11.2, §5 Q-5)",
	  "fix or withdraw the failing revision, or remove rollbackOnFailure (the StageSet then stays "
	  "Failed on it); a promotion gate with onFailure: Rollback parks a reverted revision instead" },
	{ "MS227", "terminal-failure-no-requeue", LINT_WARNING,
	  "the StageSet world can make a stage's apply fail terminally (RBACDenied, ImageUnverified, "
	  "a terminal fetch) or a rollback's restore end PreviousRevisionUnavailable or "
	  "ImageUnverified: the controller does not requeue these, so the StageSet stays Ready False "
	  "until an event wakes it, also after the cause is gone; the same RBAC denial while "
	  "resolving a source is retried within a minute (StageSet spec §2.2, §3.11, §5 Q-7)",
	  "fix the cause before the change, and after a terminal failure wake the StageSet "
	  "(flux reconcile or stagesetctl reconcile, which stamp reconcile.fluxcd.io/requestedAt)" },
	{ "MS228", "verify-double-timeout", LINT_WARNING,
	  "a stage with readyChecks.exprs whose modelled verify outlasts its timeout T: the kstatus "
	  "wait and the ready-check expression poll each get the whole T, so the verify can block "
	  "2·T (a verify longer than T succeeds) and the pass holds its worker that long (StageSet "
	  "spec §3.9, §5 Q-2)",
	  "to bound the whole verify at T set readyChecks.timeout to T/2, or count 2·T per stage "
	  "(plus action timeouts) when sizing waves and update windows" },
	{ "MS229", "migration-dirty-not-a-halt", LINT_WARNING,
	  "a migration action the StageSet world can make fail: five failed passes in a row reach "
	  "MigrationDirty within moments (error back-off 5, 10, 20, 40 ms), and Dirty only removes "
	  "the requeue: nothing checks the count before running, so any later trigger (a new "
	  "revision, a spec edit, a FleetRollout approval) runs the destructive action again "
	  "(StageSet spec §3.4, §5 Q-6)",
	  "make the migration's actions idempotent, hold later revisions (approvalMode "
	  "OnMigrations) until it is fixed, and after fixing it request a reconcile (flux reconcile "
	  "or stagesetctl reconcile), which resets the count" },
	{ "MS230", "steady-fault-rollback", LINT_WARNING,
	  "a StageSet sets rollbackOnFailure and the StageSet world can make its running workload "
	  "Failed in steady state (a regress event, or a regression that starts after the verify): "
	  "every pass re-verifies every stage, so the next steady pass fails the run and the "
	  "controller rolls back to the snapshot of the same revision and runs onRollback, on every "
	  "retry while the fault lasts (StageSet spec §3.11.2, §5 Q-4)",
	  "keep onRollback free of effects that assume a revision change (paging, reverting data), "
	  "or drop rollbackOnFailure where steady-state faults are expected" },
	{ "MS231", "failed-stage-claims-revision", LINT_WARNING,
	  "the StageSet world can make a stage's apply fail and be retried (a drawn failure, or an "
	  "immutable-field conflict its conflict handling leaves at Fail): the failed stage's "
	  "status records the new revision as applied although nothing was, so the retry's real "
	  "apply is reported as a DriftCorrected Warning and the stage's own errorBudget is not "
	  "consulted for that revision (StageSet spec §3.13, §5 Q-14)",
	  "do not alert on a DriftCorrected right after a failed attempt of the same revision, and do "
	  "not rely on a stage's errorBudget to stop a revision whose first attempt failed" },
	/* MS234..MS241: StageSet holds (sim/lint/lint_ss_holds.c). */
	{ "MS234", "edit-passes-freeze", LINT_WARNING,
	  "a scenario event edits a StageSet's spec (an inline version.value bump, any other spec "
	  "edit) or stamps stages.metio.wtf/rollback-to on it while its update windows hold new "
	  "revisions or its error budget is exhausted (below freezeThreshold in the scenario's "
	  "series): both gate only a new artifact revision of the stage sources, so the controller "
	  "applies the change at once, version change, migrations and downgrades included "
	  "(StageSet spec §3 R-9.4, R-11, §5 Q-8)",
	  "make the change when updates are allowed, or deliver it through the source (a new "
	  "artifact revision is held); windowScope: All holds every change while a window is "
	  "closed" },
	{ "MS235", "update-window-never-opens", LINT_WARNING,
	  "a StageSet's update windows allow no update from some instant before the scenario's "
	  "horizon on, for good (an absolute Allow window in the past or ending then, an Allow "
	  "whose schedule never fires): every new revision is "
	  "deferred forever with Ready 'delivery held by update window' and no next opening, "
	  "re-checked every retryInterval (StageSet spec §3 R-9, §5 Q-20)",
	  "correct the Allow window (its from/to, its schedule) or remove it; with no Allow window "
	  "declared, only Deny windows hold updates" },
	{ "MS236", "hold-before-plan-half-rolled", LINT_WARNING,
	  "a StageSet has update windows or an error budget and a stage before the last with a "
	  "promotion gate (soak, manual promotion, analysis, restart or event gate): windows and "
	  "budget are checked before the plan on every pass, so a window closing (or the budget "
	  "freezing) while that stage holds the new revision defers the later stages and reports "
	  "Ready True 'Deployed; …' on a half-rolled StageSet, status.version still the old one "
	  "(StageSet spec §3 R-9, R-11, §5 Q-9)",
	  "do not read Ready True 'Deployed; …' as rolled out: compare status.stages' applied "
	  "revisions; keep promotion gates short of the windows' closing times (a Deny starting "
	  "after the soak), or put the gated stage in a StageSet of its own" },
	{ "MS237", "budget-hold-invisible", LINT_WARNING,
	  "a StageSet that other StageSets dependsOn has an error budget that the scenario's series "
	  "make read exhausted: a budget hold keeps a deployed StageSet Ready True with no "
	  "pendingUpdate (unlike an update window's hold), and dependsOn looks only at "
	  "pendingUpdate.revisions, so its dependents roll out against its old revision while the "
	  "budget holds its new one (StageSet spec §3 R-7.4, R-11, §5 Q-10)",
	  "give the dependents the same errorBudget, or a dependsOn minVersion that the held "
	  "revision's version satisfies and the old one does not" },
	{ "MS238", "soak-edit-keeps-deadline", LINT_WARNING,
	  "a scenario event changes a stage's promotion.soak while, at the median modelled "
	  "durations, that stage soaks: the controller derives the soak's start from the deadline "
	  "it recorded (since = soakUntil - soak), so the running soak keeps its deadline; a "
	  "shorter soak does not release the stage sooner, a longer one does not hold it longer "
	  "(StageSet spec §3.7.1 G-8, §5 Q-21)",
	  "to promote a soaking stage now, stamp stages.metio.wtf/promote: <stage>@<token>; to "
	  "soak the current revision longer, hold it with requireManualPromotion; a soak edit "
	  "applies from the next revision on" },
	{ "MS239", "one-shot-token-burned", LINT_WARNING,
	  "a scenario event stamps stages.metio.wtf/update-now while update windows hold (or "
	  "stages.metio.wtf/budget-override while the budget is exhausted) on a StageSet whose "
	  "next pass a later gate holds (the approval gate with approvalMode Always and the offered "
	  "version not approved; for update-now also an exhausted budget): the pass records the "
	  "token as handled anyway, so once that gate opens the next pass meets the window (or the "
	  "budget) again and the token is spent (StageSet spec §3 R-9.1, R-10, §5 Q-11)",
	  "approve the version (and let the budget recover or override it) before stamping the "
	  "token, or stamp a fresh token after the other gate opened" },
	{ "MS240", "gate-revert-impossible", LINT_WARNING,
	  "a stage's promotion gate (a non-dryRun analysis, a restart or event gate or check) has "
	  "onFailure Rollback, but the StageSet does not set rollbackOnFailure: the controller "
	  "keeps the last-good snapshot a revert needs only with rollbackOnFailure, so when the gate "
	  "fails the stage is not reverted, keeps the failing revision, holds PromotionBlocked and "
	  "warns PromotionBlocked on every pass (StageSet spec §3 R-21, §3.2 S-14, §5 Q-18)",
	  "set spec.rollbackOnFailure: true so a last-good snapshot is kept, or use onFailure: Hold "
	  "if holding is what you want" },
	{ "MS241", "promoted-gate-read-fails", LINT_WARNING,
	  "a stage has a restart or event promotion gate, and the StageSet world fails the pod (or "
	  "event) list it reads (spec.models.stagesets.podListErrors) within the horizon: the "
	  "gate reads on every pass, also for a stage promoted long ago, so a forbidden list turns "
	  "a deployed StageSet Ready False RBACDenied although nothing rolls out (a regression for "
	  "FleetRollouts, not ready for dependsOn dependents), and a transient one ends every pass "
	  "in back-off with a stale Ready (StageSet spec §3.2 S-13, §3.3 H-5, H-6, §5 Q-16)",
	  "grant the StageSet's ServiceAccount list on pods and events in its namespace; treat "
	  "RBACDenied on a steady StageSet as a read failure, not a rollout failure" },
	/* MS242..MS249: StageSet pacing (sim/lint/lint_ss_pace.c). */
	{ "MS242", "baseline-not-paced", LINT_WARNING,
	  "a publish reaches members of a FleetRollout's later waves before the StageSet "
	  "controller's 4 workers have given them their first pass (at the median modelled "
	  "durations): a first version is never held for approval, whatever approvalMode, so "
	  "those members take the published version as their baseline before their wave opens "
	  "(StageSet spec §5 Q-22, Q-1)",
	  "publish after the members have adopted their first version (the message says when), "
	  "or give them a status.version" },
	{ "MS243", "held-polls-load", LINT_WARNING,
	  "from a publish until their wave opens, the members of a FleetRollout's later waves "
	  "hold AwaitingApproval, and the StageSet controller requeues each one every minute "
	  "without jitter, each pass holding a worker for the reconcile duration: those polls ask "
	  "half the 4 workers' time or more, so the open wave's passes and every other requeue "
	  "wait their turn behind them (StageSet spec §5 Q-3, Q-35)",
	  "hold fewer members at once (publish to a wave's members when it opens, or split the "
	  "fleet) or shorten the pass" },
	{ "MS244", "cross-namespace-dependency", LINT_INFO,
	  "a StageSet's dependsOn names a StageSet of another namespace: the controller wakes a "
	  "StageSet's dependents only in its own namespace, so the dependent sees the "
	  "dependency become ready only at its own next retry (retryInterval, jittered), and "
	  "stays DependencyNotReady until then (StageSet spec §5 Q-24, §2.1)",
	  "keep the two StageSets in one namespace, or set a shorter spec.retryInterval on the "
	  "dependent (e.g. 30s)" },
	{ "MS245", "cross-namespace-source", LINT_INFO,
	  "a StageSet's stage reads a source (sourceRef) of another namespace: a source wakes "
	  "only the StageSets of its own namespace, so this one sees a new revision, or the "
	  "source ready again, only at its next pass (spec.interval when steady, retryInterval "
	  "after a SourceNotReady hold, jittered) (StageSet spec §5 Q-25, §2.1)",
	  "keep the source in the StageSet's namespace, or shorten spec.interval and "
	  "spec.retryInterval" },
	/* END MS2xx */
	/* MS250, MS251: the FleetRollout surprises of sim/lint/lint_fleet_quirks.c. */
	{ "MS250", "target-version-spelling", LINT_ERROR,
	  "a pinned targetVersion is the same semantic version as one the scenario offers the "
	  "members (a StageSet's spec.version.value, a publish, a source's initialVersion) spelled "
	  "differently (v2.0.0 against 2.0.0, build metadata), and none offers it as written: the "
	  "fleet and the StageSets compare versions as text, so no member adopts it and the first "
	  "wave with members never settles (spec §6 #13)",
	  "write targetVersion exactly as the members' source offers the version" },
	{ "MS251", "manual-approval-overwritten", LINT_WARNING,
	  "a scenario's annotate or patch event sets stages.metio.wtf/approved-version on a "
	  "StageSet that a pinned FleetRollout selects, to another version than its targetVersion: "
	  "the fleet stamps targetVersion on every member of its open waves on each pass that does "
	  "not halt, so the manual approval is overwritten (spec §6 #14)",
	  "change the FleetRollout's targetVersion instead, or take the StageSet out of its "
	  "selector before approving it by hand" },
	/* MS252..MS258: StageSet ledgers (sim/lint/lint_ss_ledgers.c). */
	{ "MS252", "promote-token-replays", LINT_WARNING,
	  "a stages.metio.wtf/promote token is stamped for a stage with a promotion gate, a later "
	  "revision follows, and the StageSet world can fail that stage then (a plain apply failure, "
	  "objects that become Failed, a pre or post action that fails): a failed stage's status "
	  "entry is written without lastHandledPromotion while the annotation stays, so the pass "
	  "after the failure takes the handled token as fresh and promotes the later revision past "
	  "the gate (manual promotion, soak, analysis, restart and event gates) with no operator "
	  "(StageSet spec §3.13, §5 Q-12)",
	  "remove the annotation once the promotion took (kubectl annotate stageset NAME "
	  "stages.metio.wtf/promote-), so no handled token is left to replay" },
	{ "MS253", "preloop-failure-wipes-ledgers", LINT_WARNING,
	  "a scenario event deletes the Secret a StageSet reads before its stages "
	  "(spec.kubeConfig.secretRef, spec.decryption.secretRef) while its first stage has "
	  "completed Revision-scoped pre or post actions or a soak: a pass while the Secret is gone "
	  "fails before the stage loop and writes the first stage with empty ledgers and no applied "
	  "revision, so once the Secret is back those actions run again and its soak starts over "
	  "(StageSet spec R-12, R-15, §5 Q-13)",
	  "rotate the Secret in place (update its data) instead of deleting and re-creating it; make "
	  "the first stage's actions idempotent" },
	{ "MS254", "on-failure-once-per-revision", LINT_WARNING,
	  "a stage has onFailure actions and the StageSet world can fail it with a failure the "
	  "controller retries: onFailure's completions go into the revision's ledger, so they run at "
	  "the first failure of each revision only, and the retries that fail the same revision "
	  "again run none (StageSet spec §3.10.3, §5 Q-15)",
	  "alert on the StageSet's Ready condition (StageFailed) rather than through onFailure, or "
	  "expect one onFailure run per revision, not per failure" },
	{ "MS255", "suspend-stale-generation", LINT_INFO,
	  "a StageSet is suspended (spec.suspend true in its manifest or by a patch event): the "
	  "Suspended pass writes the Ready condition alone, so status.observedGeneration stays at the "
	  "generation last reconciled while the suspend, a spec edit, raised metadata.generation; "
	  "readers that trust a status only while the two are equal (kstatus, a Flux Kustomization's "
	  "health check, kubectl wait on observedGeneration) see it in progress, not suspended, until "
	  "it is resumed (StageSet spec R-4, §5 Q-23)",
	  "judge a suspended StageSet by its Ready condition (reason Suspended, whose own "
	  "observedGeneration is current); leave it out of health checks while it is suspended" },
	{ "MS256", "event-gate-no-baseline", LINT_WARNING,
	  "a stage's promotion event gate counts Warning events of its pods with no baseline, and "
	  "when a new revision arrives (a publish, a spec edit) the scenario's pods model holds more "
	  "of the check's reasons than its maxEvents, from before that revision: its first "
	  "evaluation counts them against the new revision and, unless the check's onFailure is "
	  "Rollback, holds it PromotionBlocked until they expire (StageSet spec §5 Q-17)",
	  "select only the new revision's pods (a label that changes with each revision) or set "
	  "maxEvents above the events the running pods keep" },
	{ "MS257", "promote-token-replays-after-progress-hold", LINT_WARNING,
	  "a stages.metio.wtf/promote token is stamped for a stage with a promotion gate, a later "
	  "revision follows, and the StageSet world's readiness delay can outlast that stage's verify "
	  "timeout (onTimeout not Rollback): the progress hold writes the stage's status entry "
	  "without lastHandledPromotion while the annotation stays, so the retry that finds the "
	  "later revision ready takes the handled token as fresh and promotes it past the gate "
	  "(manual promotion, soak, analysis, restart and event gates) with no operator (StageSet "
	  "spec §3.13, §5 Q-12)",
	  "remove the annotation once the promotion took (kubectl annotate stageset NAME "
	  "stages.metio.wtf/promote-), and give the stage a verify timeout its objects meet" },
	{ "MS258", "restart-gate-forgives-promoted", LINT_WARNING,
	  "a stage's promotion restart check selects pods that the scenario's pods model restarts "
	  "more than its maxRestarts at a time when the stage has held its revision for its soak and "
	  "one interval (promoted): the restart gate refreshes its baseline at every pass of a "
	  "promoted stage, so the next pass takes those restarts in and nothing blocks or tells "
	  "them, the StageSet staying Ready True; the gate judges restarts only between a new "
	  "revision's arrival and its promotion (StageSet spec §3.7.3, §5 Q-17)",
	  "watch the restarts of promoted workloads with a monitor of their own (e.g. an alert on "
	  "kube_pod_container_status_restarts_total); do not count on the restart gate past a "
	  "promotion" },
	/* MS259: sim/lint/lint_ss_reset.c. */
	{ "MS259", "reset-scope-burned-early", LINT_WARNING,
	  "a scenario event stamps stages.metio.wtf/reset-scope on a StageSet while the StageSet "
	  "world fails its first stage (a regress event's fault window, an apply failure certain "
	  "then), and a later stage has Version-scoped actions: the pass that reads the token records "
	  "it as handled but stops at the failing stage, and the status it writes keeps the later "
	  "stages' version ledgers, so their Version-scoped actions never run again for it (StageSet "
	  "spec R-16, §5 Q-11)",
	  "stamp reset-scope once the StageSet is Ready again, or stamp a new token value after a "
	  "failed pass read the first one" },
	/* MS262..MS269: StageSet status left stale (sim/lint/lint_ss_stale.c). */
	{ "MS262", "last-stage-soak-stale-version", LINT_INFO,
	  "the last stage of a StageSet has a promotion soak: no stage comes after it, but "
	  "status.version and status.lastAppliedRevisions are written only by the success that "
	  "follows the soak, so for the whole soak after a version is applied and verified on every "
	  "stage they still name the version before it, while pendingVersion is already empty and "
	  "Ready is False (Soaking) (StageSet spec R-21, §5 Q-21)",
	  "judge progress by the Ready condition and status.stages (appliedRevision), not by "
	  "status.version; if the soak only delays the bookkeeping, drop it from the last stage (a "
	  "FleetRollout wave's soak waits after adoption instead)" },
	{ "MS263", "stale-rollback-snapshot", LINT_WARNING,
	  "a scenario event switches spec.rollbackOnFailure off on a StageSet that had it, while one "
	  "of its stages is rolled back by a failed promotion gate (onFailure Rollback) and a later "
	  "version reaches it: status.lastAppliedSnapshot is not cleared and no success refreshes it "
	  "any more, yet gate reverts still read it, so a revert goes back to the revision of the last "
	  "success before the switch, past every version adopted since (StageSet spec S-14, §5 Q-27)",
	  "keep rollbackOnFailure on while a gate has onFailure: Rollback, or set those gates' "
	  "onFailure to Hold in the same edit that switches it off" },
	{ "MS264", "removed-stage-kept", LINT_WARNING,
	  "a scenario event drops a stage from a StageSet's stages while a published version cannot "
	  "yet have passed the promotion soaks of the stages kept: the controller deletes a removed "
	  "stage's objects (its StageInventory) only in the prune of a full success, so they stay in "
	  "the cluster for as long as a promotion gate holds the rollout under way, while "
	  "status.stages drops the stage at once (StageSet spec R-20, §5 Q-28)",
	  "remove a stage while the StageSet is steady (Ready True, no rollout under way), or expect "
	  "its objects to live until the rollout completes" },
	{ "MS265", "approval-changed-mid-rollout", LINT_WARNING,
	  "a scenario event changes stages.metio.wtf/approved-version on a StageSet with approvalMode "
	  "Always while the transition the previous value approved cannot yet have passed the "
	  "promotion soaks of its stages: the approval gate runs on every pass, before the stages, so "
	  "the next pass holds that transition AwaitingApproval half-applied (the stages it reached on "
	  "the new version, the later ones on the old) until it is approved again or another version "
	  "comes (StageSet spec R-14, §5 Q-22)",
	  "approve the next version only once the rollout under way has completed (Ready True, "
	  "status.version at the approved one)" },
	{ "MS266", "plan-error-writes-nothing", LINT_WARNING,
	  "a StageSet reads its version from an artifact (fromArtifact, fromObject) or its migration "
	  "ladder from migrationsSourceRef, and the scenario's sources model cannot fetch that source "
	  "for a while: every pass then fails at the version plan with a transient error, which "
	  "writes nothing, so the StageSet's status (Ready, observedGeneration, pendingVersion) goes on "
	  "saying what the last pass before said while the controller retries in error back-off "
	  "(StageSet spec R-13, §5 Q-23)",
	  "watch the source's Ready condition and the controller's reconcile errors during such "
	  "outages, not the StageSet's status" },
	{ "MS267", "approval-of-replaced-version", LINT_WARNING,
	  "a scenario event sets stages.metio.wtf/approved-version, on a StageSet with approvalMode "
	  "Always, to a version that a later publish replaced before the approval: the approval gate "
	  "compares the annotation with the version the source offers now, exactly, so the approval "
	  "approves nothing pending and the newer version stays held AwaitingApproval (StageSet spec "
	  "R-14, §5 Q-32)",
	  "approve the version the StageSet's status.pendingVersion names when the approval is given "
	  "(a FleetRollout pinning targetVersion stamps its target instead)" },
	/* MS270..: StageSet and FleetRollout surprises of sim/lint/lint_ss_sources.c (MS270). */
	{ "MS270", "analysis-source-error-reverts", LINT_WARNING,
	  "a stage's promotion analysis has onFailure Rollback, onSourceError Hold (the default) and "
	  "failureLimit 0 on a StageSet with rollbackOnFailure: one evaluation its metric source "
	  "cannot answer counts as a failure, so a source outage at a pass that gates a new "
	  "revision rolls the stage back to its last-good revision however healthy the new one is, "
	  "and that revision stays aborted (the later stages never get it) until another one comes "
	  "(StageSet spec §3.2 S-13, S-14, S-1, §5 Q-16)",
	  "set promotion.analysis.failureLimit above 0 (e.g. 2: an outage shorter than two analysis "
	  "intervals is then tolerated), or onSourceError: Allow if an unanswered evaluation may pass" },
	/* MS271: sim/lint/lint_fleet_adoption.c. */
	{ "MS271", "derived-fleet-budget-hold", LINT_WARNING,
	  "a FleetRollout without targetVersion (derived) selects a StageSet whose error budget "
	  "reads exhausted within the horizon: a budget hold keeps a deployed StageSet Ready True "
	  "with no pendingVersion, and a derived fleet counts a member without a pendingVersion as "
	  "adopted, so the member's wave can settle and the fleet complete while it still runs its "
	  "old version (fleetrollout-controller.md §6 #12; StageSet spec §5 Q-10)",
	  "pin the fleet's targetVersion (a member then counts adopted only at that version), or "
	  "let the member's budget recover (or stamp stages.metio.wtf/budget-override) before its "
	  "wave opens" },
	/* MS272: sim/lint/lint_ss_deps.c. */
	{ "MS272", "dependency-rollout-flips-dependent", LINT_WARNING,
	  "a StageSet dependsOn one that a scenario publish reaches alone: the controller checks "
	  "dependencies on every pass, and a StageSet is not ready while it rolls a version out "
	  "(for the whole of a soak, or while it waits for an approval), so the deployed dependent "
	  "turns Ready False DependencyNotReady and skips its own drift correction until the "
	  "dependency is Ready again, which a FleetRollout reads as a regression (StageSet spec §5 "
	  "Q-24)",
	  "expect DependencyNotReady on the dependent while its dependency rolls out (do not alert "
	  "on it alone), publish to both together, or drop dependsOn if it only guards the first "
	  "deployment" },
	/* MS273: sim/lint/lint_ss_tokens.c. */
	{ "MS273", "token-not-watched", LINT_WARNING,
	  "a scenario's annotate or patch event stamps stages.metio.wtf/update-now, budget-override "
	  "or reset-scope on a StageSet and changes nothing the StageSet watch passes (no "
	  "reconcile.fluxcd.io/requestedAt, no spec change): the controller drops annotation "
	  "changes other than its own request keys, so the StageSet reads the token only at its "
	  "next pass of another cause, which after a hold may be the very window or budget "
	  "recovery the token was meant to skip (StageSet spec §2.1 W1, §5 Q-25)",
	  "stamp the token with stagesetctl, which also sets reconcile.fluxcd.io/requestedAt, or set "
	  "requestedAt to a new value in the same edit" },
	/* MS274: sim/lint/lint_ss_downgrade.c. */
	{ "MS274", "downgrade-blocked-by-skipped-migration", LINT_WARNING,
	  "a StageSet's migration has a from constraint and no down actions, an upgrade of the "
	  "scenario crosses its to from a version that from does not match (so it never runs), and "
	  "a later downgrade crosses that to again: the controller picks a downgrade's migrations by "
	  "their to alone, not by what ran on the way up, so the downgrade is refused "
	  "DowngradeRequiresMigration for a migration that never ran, and the StageSet stays on the "
	  "newer version (fleetrollout-controller.md §6 #17; StageSet spec §3.1 P-9)",
	  "declare down actions on the migration (ones harmless where it never ran), or downgrade "
	  "only to a version at or above its to" },
	/* MS275: sim/lint/lint_ss_ledgers.c. */
	{ "MS275", "reconcile-stage-token-replays", LINT_WARNING,
	  "a stages.metio.wtf/reconcile-stage token is stamped for a stage with Revision-scoped pre "
	  "or post actions, and the StageSet world can fail that stage afterwards (a plain apply "
	  "failure, objects that become Failed, a pre or post action that fails) or hold it "
	  "StageProgressing: a failed or held stage's status entry is written without "
	  "lastHandledReconcileAt while the annotation stays, so every pass after it takes the "
	  "handled token as fresh, treats the stage's revision ledger as empty and runs its "
	  "completed actions again, for the same revision (StageSet spec R-16, §3.13, §5 Q-12)",
	  "remove the annotation once the stage was reconciled (kubectl annotate stageset NAME "
	  "stages.metio.wtf/reconcile-stage-), so no handled token is left to replay; make the "
	  "stage's actions idempotent" },
	/* MS276: sim/lint/lint_ss_holds.c. */
	{ "MS276", "pending-version-stale", LINT_WARNING,
	  "a publish reaches a StageSet with approvalMode Always while its update windows or error "
	  "budget defer new revisions, and the version published before it is held for approval "
	  "then: windows and budgets are checked before the plan and the approval gate, so the "
	  "deferred passes leave status.pendingVersion naming the earlier version while the source "
	  "offers the later one, and stagesetctl, a FleetRollout without targetVersion (which "
	  "approves whatever pendingVersion names) and anyone approving by it approve a version no "
	  "longer offered (StageSet spec R-9, R-11, R-14, §5 Q-9; fleetrollout-controller.md §3.5)",
	  "while a window or budget holds, approve the version the source offers now, not the one "
	  "status.pendingVersion names (a FleetRollout: pin targetVersion to it); or publish the next "
	  "version only once the held one was approved or the hold is over" },
	/* MS277: sim/lint/lint_ss_ledgers.c. */
	{ "MS277", "soak-restarts-after-failure", LINT_WARNING,
	  "a publish starts a promotion soak at a StageSet's first gated stage, and the StageSet world "
	  "fails that stage for certain (a regress event, an apply failure of probability 1) at a pass "
	  "during the soak (the hold requeues at most an hour apart): a failed stage's status entry is "
	  "written without promotionState, so once a pass finds the stage healthy again its soak "
	  "starts over from that pass, and the revision waits the whole soak again instead of the "
	  "rest of it (StageSet spec §3.7.1 G-8, §3.13, §5 Q-12)",
	  "expect the whole soak again after a failure during it (a soak measures healthy time since "
	  "the last failure, not since the revision came); shorten the soak by the wait you accept, "
	  "or keep faults of the stage's workload out of its soaks" },
	/* MS278: sim/lint/lint_ss_ledgers.c. */
	{ "MS278", "restart-gate-forgiven-after-failure", LINT_WARNING,
	  "a stage's promotion restart check selects pods that the scenario's pods model restarts "
	  "more than its maxRestarts while the stage gates a new revision (holding it "
	  "PromotionBlocked), and the StageSet world then fails the stage for certain (a regress "
	  "event, an apply failure of probability 1): a failed stage's status entry is written "
	  "without promotionState, whose restartBaseline the check counts from, so the pass that finds "
	  "the stage healthy again takes the restarts so far as its baseline and promotes the "
	  "revision the check had blocked (StageSet spec §3.7.3, §3.13, §5 Q-12)",
	  "do not count on the restart gate to keep a blocked revision out once the stage has failed "
	  "in between: roll the revision back (a new one, or rollback-to) when the gate blocks it, or "
	  "set the check's onFailure to Rollback (with spec.rollbackOnFailure) so the block reverts "
	  "the stage at once" },
	/* MS279, MS280: StageSet status and approvals (sim/lint/lint_ss_stale.c). */
	{ "MS279", "pending-version-after-early-exit", LINT_WARNING,
	  "a version held AwaitingApproval (approvalMode Always) wrote status.pendingVersion, and "
	  "before its approval or the next publish the scenario's sources model makes a stage's "
	  "source not Ready, absent or Forbidden, an event deletes the kubeConfig Secret, or a publish "
	  "to a dependency alone holds it not ready (a soak, an approval): those passes stop at the "
	  "dependency check, source resolution or the target connection, before the approval gate, "
	  "the one writer of pendingVersion, so it goes on naming the held version, approved or not, "
	  "beside Ready False DependencyNotReady (SourceNotReady, ArtifactNotFound, RBACDenied, "
	  "StageFailed); an API error reading the StageLedger or the StageInventory (MS283) writes "
	  "no status at all (StageSet spec R-7, R-8, R-12, R-14, §5 Q-23)",
	  "read status.pendingVersion only while Ready says AwaitingApproval; judge the StageSet by "
	  "its Ready reason while a dependency, its source or its target is down" },
	{ "MS280", "approval-reused", LINT_WARNING,
	  "a StageSet with approvalMode Always carries stages.metio.wtf/approved-version in its "
	  "manifest for a version other than its spec.version.value (its first adoption is never "
	  "held), or a version approved and adopted comes back after another one was adopted while "
	  "approvalMode was switched off: the controller never clears the annotation, so when that "
	  "version is published the old approval lets the transition through with nobody approving "
	  "it (StageSet spec R-14, §5 Q-22)",
	  "keep stages.metio.wtf/approved-version out of the manifest, and remove it once the version "
	  "it approves is adopted (kubectl annotate stageset NAME stages.metio.wtf/approved-version-)" },
	/* MS281: a sourced ladder that lags its version (sim/lint/lint_ss_lag.c). */
	{ "MS281", "migration-after-its-version", LINT_WARNING,
	  "a StageSet reads its migration ladder from spec.migrationsSourceRef, and the scenario's "
	  "sources model gives that source, in an update of its own (spec.models.sources[].updates), "
	  "a migration that an upgrade published to the StageSet earlier crosses: a pass that plans "
	  "the upgrade before the update reads the ladder without it and adopts the version, and as "
	  "the controller runs only migrations whose to lies above status.version, no later pass runs "
	  "it; the migrations source is not watched either, so the update alone wakes no StageSet "
	  "(StageSet spec §5 Q-25, §2.1 W5)",
	  "deliver a migration to the migrations source before the version it belongs to (or in the "
	  "same revision, when the ladder lives in a stage source); for a major upgrade, "
	  "spec.version.requireMigrationCoverage holds it until a migration covers the boundary; a "
	  "migration that came late has to be run by hand" },
	/* MS282: objects a render drops that no prune deletes (sim/lint/lint_ss_prune.c). */
	{ "MS282", "dropped-object-never-pruned", LINT_WARNING,
	  "the scenario's sources model drops an object from a stage's render "
	  "(spec.models.sources[].updates[].objects) of a StageSet whose stage, or a later stage reading the "
	  "same source, holds every new revision at its promotion gate (a soak or a manual promotion): the "
	  "pass that applies the revision rewrites "
	  "the stage's StageInventory without the object before the gate holds, and the prune, which runs "
	  "only when every stage promotes, reads the StageInventory as that pass left it, so the object "
	  "stays in the cluster for good, listed by no StageInventory (StageSet spec R-20, §5 Q-28)",
	  "drop an object in a revision that the stage promotes in its first pass (remove the soak or "
	  "manual gate for that change), or delete the object by hand once the revision is promoted" },
	/* MS283: sim/lint/lint_ss_stale.c. */
	{ "MS283", "ledger-read-error-writes-nothing", LINT_WARNING,
	  "the scenario's StageSet world fails the reads of a StageSet's StageLedger or StageInventory "
	  "(spec.models.stagesets.ledgerErrors) while it reconciles (its first pass, a publish that "
	  "reaches it, or an outage longer than its steady or retry interval): every pass Gets the "
	  "StageLedger, Lifetime actions or not, and Lists the StageInventory before the stages, and an "
	  "API error there returns before any status write, so the StageSet's status (Ready, "
	  "observedGeneration, pendingVersion) goes on saying what the last write before said while "
	  "the controller retries in error back-off (StageSet spec R-17, R-18, §2.2, §5 Q-23)",
	  "during such API outages read the controller's reconcile errors (\"Reconciler error\" in its "
	  "log) and the API server's health, not the StageSet's status; judge the rollout by the first "
	  "status written after the outage" },
	/* MS284: sim/lint/lint_ss_spec.c. */
	{ "MS284", "stageset-invalid-spec", LINT_ERROR,
	  "a StageSet's spec passes the CRD schema but not the controller's own validation "
	  "(ValidateSpec: a recurring update window's schedule or timeZone, unique stage and action "
	  "names, migration anchors, one version source, ...) or its spec decode: the StageSet "
	  "reports Ready False InvalidSpec from its first pass and never reconciles (StageSet spec "
	  "§1.9, R-6)",
	  "correct the field the message names; the message is the controller's own" },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

const struct lint_rule *lint_rules(size_t *n)
{
	*n = NRULES;
	return rules;
}

const struct lint_rule *lint_rule(const char *id)
{
	if (!id)
		return NULL;
	for (size_t i = 0; i < NRULES; i++)
		if (strcmp(rules[i].id, id) == 0)
			return &rules[i];
	return NULL;
}

const char *lint_sev_name(enum lint_sev s)
{
	switch (s) {
	case LINT_ERROR:
		return "error";
	case LINT_WARNING:
		return "warning";
	case LINT_INFO:
		return "info";
	}
	return "?";
}

void lint_report_init(struct lint_report *r)
{
	memset(r, 0, sizeof(*r));
}

void lint_report_release(struct lint_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		lint_finding_release(&r->items[i]);
	free(r->items);
	memset(r, 0, sizeof(*r));
}

const char *lint_finding_fix(const struct lint_finding *f)
{
	return f->fix ? f->fix : f->rule->fix;
}

void lint_finding_release(struct lint_finding *f)
{
	free(f->file);
	free(f->msg);
	free(f->fix);
	f->file = f->msg = f->fix = NULL;
}

/* Appends a finding that owns @msg (stolen). */
static struct lint_finding *push(struct lint_report *r, const struct lint_rule *rule,
				 const char *file, struct val_mark mark, char *msg)
{
	struct lint_finding *f;

	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->items = xreallocarray(r->items, r->cap, sizeof(*r->items));
	}
	f = &r->items[r->n++];
	f->rule = rule;
	f->sev = rule->sev;
	f->file = file ? xstrdup(file) : NULL;
	f->mark = mark;
	f->msg = msg;
	f->fix = NULL;
	switch (f->sev) {
	case LINT_ERROR:
		r->nerrors++;
		break;
	case LINT_WARNING:
		r->nwarnings++;
		break;
	case LINT_INFO:
		r->ninfos++;
		break;
	}
	return f;
}

static char *vformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
static char *vformat(const char *fmt, va_list ap)
{
	va_list aq;
	int len;
	char *s;

	va_copy(aq, ap);
	len = vsnprintf(NULL, 0, fmt, aq);
	va_end(aq);
	if (len < 0)
		abort(); /* only an invalid format does this: a bug in the caller */
	s = xmalloc((size_t)len + 1);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	return s;
}

void lint_add(struct lint_report *r, const char *id, const char *file, struct val_mark mark,
	      const char *fmt, ...)
{
	const struct lint_rule *rule = lint_rule(id);
	va_list ap;
	char *msg;

	if (!rule) {
		fprintf(stderr, "lint_add: unknown rule id \"%s\"\n", id ? id : "(null)");
		abort();
	}
	va_start(ap, fmt);
	msg = vformat(fmt, ap);
	va_end(ap);
	push(r, rule, file, mark, msg);
}

static int cmp_finding(const void *pa, const void *pb)
{
	const struct lint_finding *a = pa, *b = pb;
	int c;

	if (a->file != b->file) {
		if (!a->file)
			return -1;
		if (!b->file)
			return 1;
		if ((c = strcmp(a->file, b->file)) != 0)
			return c;
	}
	if (a->mark.line != b->mark.line)
		return a->mark.line < b->mark.line ? -1 : 1;
	if (a->mark.col != b->mark.col)
		return a->mark.col < b->mark.col ? -1 : 1;
	if ((c = strcmp(a->rule->id, b->rule->id)) != 0)
		return c;
	return strcmp(a->msg, b->msg);
}

void lint_report_sort(struct lint_report *r)
{
	if (r->n > 1)
		qsort(r->items, r->n, sizeof(*r->items), cmp_finding);
}

/*
 * True when @msg is one of sim/cluster/admission.c's refusals: they start with the
 * object's identity as kubectl prints it (`Workspace "ns/name": ...`,
 * `Rollout (no name): ...`), or name an unknown kind of a modelled group.
 * Everything else the loader says about an input (YAML syntax, unreadable
 * files, documents that are not objects, the Scenario document) is MS002.
 */
static bool is_admission_message(const char *msg)
{
	const char *p = msg;

	if (strncmp(msg, "unknown kind \"", 14) == 0)
		return true;
	if (*p < 'A' || *p > 'Z')
		return false;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9'))
		p++;
	return strncmp(p, " \"", 2) == 0 || strncmp(p, " (no name)", 10) == 0;
}

/*
 * The level an unknown field's @msg (`unknown field "spec.models.x"`, after
 * any `Kind "ns/name": `) names, as words: "spec.models", or "the document"
 * at the top.  Returns NULL when @msg is no unknown-field message.  Owned by
 * the caller.
 */
static char *unknown_field_level(const char *msg)
{
	const char *p = strstr(msg, "unknown field \""), *end, *dot = NULL;

	if (!p)
		return NULL;
	p += strlen("unknown field \"");
	if (!(end = strchr(p, '"')))
		return NULL;
	for (const char *c = p; c < end; c++)
		if (*c == '.')
			dot = c;
	if (!dot)
		return xstrdup("the document");
	return xasprintf("%.*s", (int)(dot - p), p);
}

/*
 * Gives @f (an unknown field's finding) its own fix from the loader's notes:
 * @near (the nearest accepted name, "did you mean" note; NULL: none close)
 * and @accepted (the names accepted at that level; NULL: not said).
 */
static void set_unknown_field_fix(struct lint_finding *f, const char *near, const char *accepted)
{
	char *level = unknown_field_level(f->msg);

	if (!level || (!near && !accepted)) {
		free(level);
		return;
	}
	free(f->fix); /* the name is the problem: whatever fix the message's words suggested yields */
	if (near && accepted)
		f->fix = xasprintf("rename it to \"%s\", the nearest of the fields %s accepts: %s",
				   near, level, accepted);
	else if (near)
		f->fix = xasprintf("rename it to \"%s\", the nearest field %s accepts", near, level);
	else
		f->fix = xasprintf("use one of the fields %s accepts: %s, or remove it", level,
				   accepted);
	free(level);
}

/*
 * True when @msg is the loader's error about a scripted event: its path
 * starts at spec.events ("spec.events[2].delete.name: Required value",
 * "spec.events: ..."); an unknown field's message names it in quotes and
 * gets the unknown-field fix instead.  MS002's fix speaks of paths and
 * documents, which is no help with an event.
 */
static bool is_event_message(const char *msg)
{
	return strncmp(msg, "spec.events", 11) == 0 && (msg[11] == '[' || msg[11] == ':');
}

/* What to do about an event's error (MS002 otherwise advises on paths and YAML). */
static const char event_fix[] =
	"correct the event the message names: each entry of spec.events has an `at` (0, or a "
	"duration of at least 1ms since the start) and exactly one action with that action's "
	"fields, naming an object the inputs or an earlier apply define (scenarios/README.md, "
	"Events)";

/* Whether @msg is libyaml's (or the reader's) word on text that is not YAML. */
static bool is_syntax_message(const char *msg)
{
	static const char *const starts[] = {
		"did not find expected", "could not find expected", "found ",
		"mapping keys are not allowed", "mapping values are not allowed",
		"block sequence entries are not allowed", "invalid UTF-8 byte", "syntax error",
	};

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
		if (!strncmp(msg, starts[i], strlen(starts[i])))
			return true;
	return strstr(msg, " at byte offset ") != NULL;
}

/*
 * MS002's fix for @msg by the kind of error it is, or NULL for the rule's
 * own (a document that is no object).  The rule's fix speaks of paths,
 * YAML and apiVersion/kind, which fits none of a path, a syntax error or a
 * Scenario field alone.
 */
static const char *input_fix(const char *msg)
{
	if (is_event_message(msg))
		return event_fix;
	if (!strncmp(msg, "cannot read", 11) || strstr(msg, ": cannot read ") ||
	    !strncmp(msg, "no input files", 14) || strstr(msg, "files in this directory"))
		return "check that the path exists and names a readable file, or a directory "
		       "holding *.yaml, *.yml or *.json files";
	if (is_syntax_message(msg))
		return "correct the YAML at the place named: an unclosed bracket or quote, a "
		       "missing ':', a tab, an indentation out of line";
	if (!strncmp(msg, "nothing to simulate: the Scenario document", 42))
		return "give the Scenario its manifests: as more inputs, in a directory with it, or "
		       "in its spec.include";
	if (!strncmp(msg, "nothing to simulate", 19))
		return "give the manifests of a Rollout (with its Workspaces and Project) or of a "
		       "FleetRollout (with its StageSets), or a `kubectl get` of them that found "
		       "resources";
	if (strncmp(msg, "spec.", 5) != 0)
		return NULL;
	if (strstr(msg, ": Duplicate value: "))
		return "give the entry a name no other entry of the list has; the message names "
		       "the one that has it";
	if (!strncmp(msg, "spec.variants", 13) && strstr(msg, ": variant '"))
		return "correct the variant's patch as the message says; scenarios/README.md, "
		       "Variants and sweeps, tells what a patch may change";
	if (strstr(msg, ": Required value"))
		return "add the field the message names; scenarios/README.md shows every field "
		       "of the Scenario document with an example";
	if (!strncmp(msg, "spec.models", 11))
		return "write a value of the kind the message accepts; scenarios/README.md, "
		       "Models, gives each distribution and its parameters";
	return "write a value of the kind the message accepts; scenarios/README.md, The "
	       "Scenario document, gives the type and bounds of each key";
}

/* What each bound of the loader counts, for the fix of an input past it (MS002). */
static const struct {
	enum lim_id id;
	const char *why;
} bound_why[] = {
	{ LIM_ALIAS_NODES, "each alias and merge key (<<) copies the nodes of its anchor, so anchors "
			   "that name anchors multiply (an alias bomb); expand fewer aliases" },
	{ LIM_YAML_NODES, "the loader holds every node in memory; give fewer or smaller inputs" },
	{ LIM_INPUT_BYTES, "give fewer or smaller inputs" },
	{ LIM_FILES, "give fewer files, or narrower directories and include patterns" },
	{ LIM_DOCUMENTS, "give fewer documents" },
	{ LIM_INCLUDE_SCAN, "narrow the pattern so it walks fewer directories" },
	{ LIM_SERIES_SAMPLES, "shorten the series (fewer a+bxN steps)" },
	{ LIM_GENERATED, "lower spec.generate's counts" },
	{ LIM_RUN_EVENTS, "lower spec.limits" },
};

/*
 * The fix of an MS002 @msg about a bound of the loader: which bound, the
 * value in force (the message's "more than N" or "at most N") and how to
 * raise it; or of
 * the fixed nesting bound.  NULL when @msg is about neither.  Owned by the caller.
 */
static char *bound_fix(const char *msg)
{
	const struct lim_def *defs = lim_defs();
	const char *more = strstr(msg, "more than ");
	const char *most = strstr(msg, "at most ");
	const char *num = more ? more + 10 : most ? most + 8 : "";
	/* the input's own words are quoted: a bound's tag counts only after the last quote */
	const char *quote = strrchr(msg, '"'), *tail = quote ? quote + 1 : msg;
	unsigned long long value;

	if (!strncmp(num, "the ", 4))
		num += 4; /* "more than the 10000000 events one run may take" */
	value = strtoull(num, NULL, 10);

	if (strstr(msg, "nesting deeper than "))
		return xasprintf("YAML nested deeper than %d collections is refused whatever the "
				 "options (a fixed bound, docs/limits.md: no manifest nests so deep): "
				 "flatten the document, or find what generated it", YL_MAX_DEPTH);
	for (size_t i = 0; i < sizeof(bound_why) / sizeof(bound_why[0]); i++) {
		const struct lim_def *l = &defs[bound_why[i].id];
		char tag[64];

		snprintf(tag, sizeof(tag), "(limit %s;", l->name);
		if (!strstr(tail, tag))
			continue;
		return xasprintf("the input passes the %s limit of %llu %s (docs/limits.md): %s; "
				 "when it is meant to be this large, raise the limit with --limit "
				 "%s=N (N above %llu)", l->name, value, l->unit, bound_why[i].why,
				 l->name, value);
	}
	return NULL;
}

/* The quoted name of a "did you mean "x"?" note, or NULL; owned by the caller. */
static char *did_you_mean(const char *note)
{
	const char *p = note + strlen("did you mean \""), *end;

	if (strncmp(note, "did you mean \"", strlen("did you mean \"")) != 0 ||
	    !(end = strchr(p, '"')))
		return NULL;
	return xasprintf("%.*s", (int)(end - p), p);
}

/* The words of the loader's error for a gate without a series (sim/load/scn_metrics.c). */
#define GATE_SERIES_MISSING ": no series in spec.metrics for the gate query "

void lint_from_diag(struct lint_report *r, const struct diag *d)
{
	struct lint_finding *last = NULL;
	/* The notes of the unknown field @last is, if it is one: its fix-to-be. */
	bool unknown = false;
	char *near = NULL, *accepted = NULL;

	for (size_t i = 0; i <= d->n; i++) {
		const struct diag_item *it = i < d->n ? &d->items[i] : NULL;
		const char *id;

		if (unknown && (!it || it->sev != DIAG_NOTE)) {
			/* (a note of its own in between, the ignored documents', ends the finding) */
			if (last)
				set_unknown_field_fix(last, near, accepted);
			free(near);
			free(accepted);
			near = accepted = NULL;
			unknown = false;
		}
		if (!it)
			break;
		if (it->sev == DIAG_NOTE) {
			char *dym;

			if (unknown && !near && (dym = did_you_mean(it->msg)) != NULL) {
				near = dym;
				continue;
			}
			if (unknown && !accepted && !strncmp(it->msg, "accepted fields: ", 17)) {
				accepted = xstrdup(it->msg + 17);
				continue;
			}
			/*
			 * A note belongs to the error or warning just before it; alone it
			 * is dropped.  A note added alone (diag_note_alone(): the loader's
			 * summary of the documents it ignored, of the sources it models) is
			 * a fact about the load whatever precedes it, not part of any
			 * problem, and ends the notes of the one before.
			 */
			if (it->alone) {
				last = NULL;
				continue;
			}
			/* A YAML 1.1 scalar where a string is required: quoting it is the fix. */
			if (last && !last->fix && !strncmp(it->msg, "YAML reads ", 11))
				last->fix = xstrdup(it->msg);
			if (last) {
				/* a note elsewhere ("first defined here") keeps its place in the text */
				bool elsewhere = it->file && it->mark.line &&
						 (!last->file || strcmp(it->file, last->file) ||
						  it->mark.line != last->mark.line ||
						  it->mark.col != last->mark.col);
				char *msg = elsewhere ? xasprintf("%s; %s:%u:%u: %s", last->msg, it->file,
								  it->mark.line, it->mark.col, it->msg)
						      : xasprintf("%s; %s", last->msg, it->msg);

				free(last->msg);
				last->msg = msg;
			}
			continue;
		}
		if (it->sev == DIAG_WARNING)
			id = "MS003";
		else if (strstr(it->msg, GATE_SERIES_MISSING))
			id = "MS004"; /* a run's requirement (sim/load/scn_metrics.c), not admission's */
		else
			id = is_admission_message(it->msg) ? "MS001" : "MS002";
		last = push(r, lint_rule(id), it->file, it->mark, xstrdup(it->msg));
		if (!strcmp(id, "MS002")) {
			/* a bound's fix names the bound; else the fix that fits the kind of error */
			last->fix = bound_fix(it->msg);
			if (!last->fix && input_fix(it->msg))
				last->fix = xstrdup(input_fix(it->msg));
		}
		unknown = it->sev == DIAG_ERROR && strstr(it->msg, "unknown field \"") != NULL;
	}
	/* Past the errors limit the loader only counted: the totals hold them, no finding does. */
	r->nhidden_errors += d->nhidden_errors;
	r->nhidden_warnings += d->nhidden_warnings;
	r->nerrors += d->nhidden_errors;
	r->nwarnings += d->nhidden_warnings;
}

char *lint_hidden_text(const struct lint_report *r)
{
	struct diag d;
	char *text;

	diag_init(&d);
	d.nhidden_errors = r->nhidden_errors;
	d.nhidden_warnings = r->nhidden_warnings;
	text = diag_hidden_text(&d);
	diag_release(&d);
	return text;
}

/* Orders findings by (file, line, column), for the search in drop_told_twice(). */
static int cmp_spot(const void *pa, const void *pb)
{
	const struct lint_finding *a = *(const struct lint_finding *const *)pa;
	const struct lint_finding *b = *(const struct lint_finding *const *)pb;
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");

	if (c)
		return c;
	if (a->mark.line != b->mark.line)
		return a->mark.line < b->mark.line ? -1 : 1;
	return a->mark.col < b->mark.col ? -1 : a->mark.col > b->mark.col;
}

static bool is_rule_finding(const struct lint_finding *f)
{
	return strncmp(f->rule->id, "MS0", 3) != 0;
}

/*
 * Drops the loader's warnings (MS003) at the file:line:col of a rule's
 * finding: both tell one problem (a gate address the loader and MS206/MS216
 * judge alike), and the rule's finding says it with its id and fix.  A
 * warning without a line is never dropped: it names no spot.
 */
static void drop_told_twice(struct lint_report *r)
{
	const struct lint_finding **spots;
	bool *drop;
	size_t nspots = 0, k = 0;

	if (r->n < 2)
		return;
	spots = xcalloc(r->n, sizeof(*spots));
	drop = xcalloc(r->n, sizeof(*drop));
	for (size_t i = 0; i < r->n; i++)
		if (is_rule_finding(&r->items[i]) && r->items[i].mark.line)
			spots[nspots++] = &r->items[i];
	qsort(spots, nspots, sizeof(*spots), cmp_spot);
	/* decided before any item moves: spots point into r->items */
	for (size_t i = 0; i < r->n && nspots; i++) {
		const struct lint_finding *key = &r->items[i];

		drop[i] = key->mark.line && strcmp(key->rule->id, "MS003") == 0 &&
			  bsearch(&key, spots, nspots, sizeof(*spots), cmp_spot) != NULL;
	}
	for (size_t i = 0; i < r->n; i++) {
		struct lint_finding *x = &r->items[i];

		if (drop[i]) {
			lint_finding_release(x);
			r->nwarnings--;
			continue;
		}
		r->items[k++] = *x;
	}
	r->n = k;
	free(drop);
	free(spots);
}

void lint_scenario(struct lint_report *r, const struct scenario *s)
{
	lint_magos(r, s);
	lint_magos_quirks(r, s);
	lint_magos_jobs(r, s);
	lint_magos_policy(r, s);
	lint_magos_resume(r, s);
	lint_fleet(r, s);
	lint_fleet_quirks(r, s);
	lint_fleet_adoption(r, s);
	lint_ss_failure(r, s);
	lint_ss_holds(r, s);
	lint_ss_ledgers(r, s);
	lint_ss_sources(r, s);
	lint_ss_deps(r, s);
	lint_ss_downgrade(r, s);
	lint_ss_reset(r, s);
	lint_ss_tokens(r, s);
	lint_ss_stale(r, s);
	lint_ss_lag(r, s);
	lint_ss_prune(r, s);
	lint_ss_spec(r, s);
	drop_told_twice(r);
}

/* Whether @r holds a finding equal to @f: same rule, severity, file, place and message. */
static bool has_finding(const struct lint_report *r, const struct lint_finding *f)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct lint_finding *x = &r->items[i];

		if (x->rule == f->rule && x->sev == f->sev && x->mark.line == f->mark.line &&
		    x->mark.col == f->mark.col && !strcmp(x->msg, f->msg) &&
		    !strcmp(x->file ? x->file : "", f->file ? f->file : ""))
			return true;
	}
	return false;
}

void lint_merge_variant(struct lint_report *r, const struct lint_report *v, const char *name)
{
	size_t nbase = r->n;

	for (size_t i = 0; i < v->n; i++) {
		const struct lint_finding *f = &v->items[i];
		struct lint_report base = { .items = r->items, .n = nbase };
		struct lint_finding *x;

		/* (against the base's own findings only: another variant's are prefixed anyway) */
		if (has_finding(&base, f))
			continue;
		x = push(r, f->rule, f->file, f->mark, xasprintf("variant \"%s\": %s", name, f->msg));
		x->fix = f->fix ? xstrdup(f->fix) : NULL;
		x->sev = f->sev;
		if (x->sev != f->rule->sev) {
			/* push() counted the rule's default severity; count the finding's */
			r->nerrors -= f->rule->sev == LINT_ERROR;
			r->nwarnings -= f->rule->sev == LINT_WARNING;
			r->ninfos -= f->rule->sev == LINT_INFO;
			r->nerrors += f->sev == LINT_ERROR;
			r->nwarnings += f->sev == LINT_WARNING;
			r->ninfos += f->sev == LINT_INFO;
		}
	}
	r->nhidden_errors += v->nhidden_errors;
	r->nhidden_warnings += v->nhidden_warnings;
	r->nerrors += v->nhidden_errors;
	r->nwarnings += v->nhidden_warnings;
}

/* The series the prometheus gates of FleetRollout @o read in @s: flags in @read (per s->series). */
static void mark_read_series(const struct scenario *s, const struct obj *o, bool *read)
{
	const struct val *waves;

	if (!o || strcmp(o->kind, "FleetRollout") != 0)
		return;
	waves = val_map_get(o->spec, "waves");
	for (size_t w = 0; waves && waves->type == VAL_LIST && w < waves->u.list.n; w++) {
		const struct val *prom = val_path(waves->u.list.items[w], "gate.source.prometheus");
		const char *q = val_str(val_map_get(prom, "query"), NULL);
		const struct scn_series *sr;

		if (!q || val_map_get(prom, "secretRef"))
			continue; /* as the loader: such a gate is never queried */
		sr = scn_find_series(s, q, val_str(val_map_get(prom, "address"), NULL));
		/* every series of its group: entries of one query and address differing in labels */
		for (size_t j = 0; sr && j < s->nseries; j++) {
			const struct scn_series *x = &s->series[j];

			if (x->query && strcmp(x->query, sr->query) == 0 &&
			    (x->address ? sr->address && strcmp(x->address, sr->address) == 0 : !sr->address))
				read[j] = true;
		}
	}
}

void lint_drop_read_series(struct lint_report *r, const struct scenario *s)
{
	bool *read;
	size_t k = 0;

	if (!s->nseries)
		return;
	read = xcalloc(s->nseries, sizeof(*read));
	for (size_t i = 0; i < s->nobjs; i++)
		mark_read_series(s, s->objs[i], read);
	for (size_t i = 0; i < s->nevents; i++)
		mark_read_series(s, s->events[i].obj, read);
	for (size_t i = 0; i < r->n; i++) {
		struct lint_finding *x = &r->items[i];
		bool drop = false;

		if (!strcmp(x->rule->id, "MS003") && strstr(x->msg, "no FleetRollout gate reads this series"))
			for (size_t j = 0; j < s->nseries && !drop; j++)
				drop = read[j] && s->series[j].mark.line == x->mark.line &&
				       s->series[j].mark.col == x->mark.col &&
				       !strcmp(s->series[j].file ? s->series[j].file : "",
					       x->file ? x->file : "");
		if (drop) {
			lint_finding_release(x);
			r->nwarnings -= x->sev == LINT_WARNING;
			r->nerrors -= x->sev == LINT_ERROR;
			r->ninfos -= x->sev == LINT_INFO;
			continue;
		}
		r->items[k++] = *x;
	}
	r->n = k;
	free(read);
}
