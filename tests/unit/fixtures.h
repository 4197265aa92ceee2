#ifndef MAGOS_TESTS_FIXTURES_H
#define MAGOS_TESTS_FIXTURES_H

/*
 * Fixtures shared by the CUnit programs (tests/unit/test_*.c, each linked
 * with fixtures.o beside cu_main.o): temporary directories and files, YAML
 * and diagnostics as text, the objects the engines read (Magos Workspaces,
 * Rollouts and Projects; FleetRollouts, StageSets and Namespaces), worlds
 * with recorders and scripted writes, a fake Job runner, StageSet model
 * parameters, trial rows and captured output.
 *
 * Errors, the same for every fixture: what the test itself got wrong (a
 * YAML text that does not load, an object the API server refuses) fails the
 * running test through a CUnit assertion; what the machine refuses (no
 * temporary directory, a file that cannot be written, no way back to the
 * starting directory) prints the reason and aborts, since no later test
 * could be trusted.  Out-of-memory exits through xalloc.
 *
 * Compact notations of the Magos builders:
 *  - labels "env=dev,tier=web";
 *  - Workspace annotations "allowed" (execution-allowed: "true"),
 *    "allowed=yes" (any other value), "rev=<sha>" (detected-revision, may be
 *    empty), "req=<v>" (reconcile-request), other "k=v" as written, joined
 *    by ',';
 *  - step selectors: NULL (no selector key), "{}" (empty map), "env=dev"
 *    (matchLabels), or "expr:<key>:<op>:<v1|v2>" (one matchExpression; an
 *    empty value list is written "expr:k:In:" and no values key "expr:k:Exists").
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/cluster/apiserver.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"
#include "sim/plan/trials.h"
#include "sim/world/des.h"

/* ---- temporary directories and files ------------------------------------------ */

/*
 * fx_origin() - the directory the program started in (the repository root,
 * where `make check` runs the tests), as an absolute path.
 * Returns: borrowed, valid for the whole run.
 * Errors:  aborts when the working directory cannot be read.
 */
const char *fx_origin(void);

/*
 * fx_tmp_enter() - make a new empty directory /tmp/<@tag>.XXXXXX and make it
 * the working directory, so a test writes and loads files by short relative
 * names (and its diagnostics name them so).
 * @tag: the program's name, e.g. "test_scenario"; at most 40 bytes.
 * Errors: aborts when the directory cannot be made or entered.
 */
void fx_tmp_enter(const char *tag);

/*
 * fx_tmp_leave() - go back to the directory the program started in and
 * remove the directory of the last fx_tmp_enter() with everything in it.
 * Errors: aborts when the way back fails; a directory that cannot be removed
 * is reported on stderr and left behind.
 */
void fx_tmp_leave(void);

/*
 * fx_put() - write @text to the file @name, relative to the working
 * directory, replacing it; the directory part of @name ("dir/x.yaml") is
 * made when missing (one level).
 * Errors: aborts when the file cannot be written.
 */
void fx_put(const char *name, const char *text);

/* ---- YAML, loading and diagnostics --------------------------------------------- */

/*
 * fx_yaml() - the value of one YAML document in @text (flow or block style).
 * Returns: new (free with val_free()); its marks are lines and columns of @text.
 * Errors:  fails the running test (fatally) when @text is not exactly one
 *          document, after printing the loader's diagnostics (file "spec") to
 *          stderr.
 */
struct val *fx_yaml(const char *text);

/*
 * fx_scn_load() - scn_load() of @n @paths into @s, as the commands do.
 * @diags: NULL to drop the diagnostics; else every one, as fx_diag_text()
 *         gives them, lands in *@diags (new, "" when none).
 * Returns: scn_load()'s result; release @s with scn_release() either way.
 * Errors:  none of its own (no assertion: the caller checks the result).
 */
int fx_scn_load(const char *const *paths, size_t n, struct scenario *s, char **diags);

/*
 * fx_diag_item() - diagnostic @i of @d as diag_print() prints it, without
 * the newline, or "" when @d holds fewer.
 * Returns: borrowed from one static buffer, valid until the next call.
 * Errors:  cannot fail.
 */
const char *fx_diag_item(const struct diag *d, size_t i);

/*
 * fx_diag_text() - every diagnostic of @d as printed, joined by '\n' (no
 * newline after the last).
 * Returns: new string ("" when @d is empty); free() it.  Cannot fail.
 */
char *fx_diag_text(const struct diag *d);

/*
 * fx_same_text() - assert that @got is @want; on a mismatch both go to
 * stderr in full (CUnit shows only the expressions).
 */
void fx_same_text(const char *got, const char *want);

/*
 * fx_lint_text() - the findings of @r, one a line (no newline after the
 * last): "LINE:COL: ID SEV: MESSAGE", with "FILE:" first when @with_file.
 * Returns: new string ("" when @r has none); free() it.  Cannot fail.
 */
char *fx_lint_text(const struct lint_report *r, bool with_file);

/*
 * fx_lint_yaml() - @yaml written as m.yaml in the temporary folder of
 * @tag (fx_tmp_enter), loaded as a scenario, checked by @rules alone and
 * sorted: its findings as fx_lint_text() without the file.  With
 * LINT_QUIRKS_DUMP set, the load's diagnostics go to stderr (the
 * scenario may have errors; the rules read what loaded).
 * Returns: new string; free() it.  Cannot fail.
 */
char *fx_lint_yaml(const char *tag, const char *yaml,
		   void (*rules)(struct lint_report *r, const struct scenario *s));

/* ---- Magos objects ------------------------------------------------------------- */

#define FX_API "magosproject.io/v1alpha1"

/*
 * fx_ws_ref() - a bare Workspace @ns/@name whose spec is only
 * {projectRef: {name: @project}}: no labels, annotations or status.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_ws_ref(const char *ns, const char *name, const char *project);

/*
 * fx_workspace() - the Workspace of fx_ws_ref() with spec.autoApply true,
 * @labels and @ann in the notations above ("" or NULL for none), and
 * status {phase: @phase} (no status when @phase is NULL).
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_workspace(const char *ns, const char *name, const char *labels,
			 const char *project, const char *phase, const char *ann);

/*
 * fx_tf_workspace() - a Workspace default/@name that can run: Project
 * "proj", spec.autoApply true, source {repoURL:
 * https://example.invalid/repo.git, targetRevision: main, path: "."},
 * terraform {version: 1.14.8}, serviceAccountName magos-job (in that key
 * order, which the spec hash sees); no labels, annotations, finalizer or
 * status.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_tf_workspace(const char *name);

/*
 * fx_selector() - a label selector value from the step notation above.
 * Returns: new (val_free()), or NULL when @sel is NULL.
 * Errors:  @sel must follow the notation (a "k=v" without '=' or an "expr:"
 *          without its operator is a defect of the test; not checked).
 */
struct val *fx_selector(const char *sel);

/* One step of a Rollout built by fx_rollout(): its name and selector notation. */
struct fx_step {
	const char *name;
	const char *sel;
};

/*
 * fx_rollout() - a Rollout @ns/@project (named after its Project) with the
 * @nsteps @steps in order; with @status_phase, status {phase: @status_phase,
 * currentStep: @step}, else no status.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_rollout(const char *ns, const char *project, const struct fx_step *steps,
		       size_t nsteps, const char *status_phase, int64_t step);

/*
 * fx_project() - a Project @ns/@name with an empty spec and the Magos
 * finalizer, unless @no_finalizer.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_project(const char *ns, const char *name, int no_finalizer);

/*
 * fx_join() - the @n @names as "a,b,c".
 * Returns: new string ("" when @n is 0); free() it.  Cannot fail.
 */
char *fx_join(char *const *names, size_t n);

/* ---- fleet objects ------------------------------------------------------------- */

/*
 * fx_match_labels() - the selector {matchLabels: {@key: @value}}.
 * Returns: new (val_free()).  Cannot fail.
 */
struct val *fx_match_labels(const char *key, const char *value);

/*
 * fx_fleet_rollout() - a cluster-scoped FleetRollout @name whose spec is
 * the YAML @spec (see fx_yaml(), which also gives its errors).
 * Returns: new (obj_free()).
 */
struct obj *fx_fleet_rollout(const char *name, const char *spec);

/*
 * fx_fleet_member() - a StageSet @ns/@name as the upstream envtest helper
 * fleetMember(ns, name, app, ring) makes it: labels {app: @app, ring: @ring}
 * (no ring label when @ring is NULL), spec.version {value: 1.0.0,
 * approvalMode: Always}, generation 1, no status.
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_fleet_member(const char *ns, const char *name, const char *app,
			    const char *ring);

/*
 * fx_ready_conditions() - the condition list [{type: Ready, status: @status,
 * reason: @reason}] of a StageSet's or FleetRollout's status (no reason key
 * when @reason is NULL).
 * Returns: new (val_free(), or hand it to val_map_set()).  Cannot fail.
 */
struct val *fx_ready_conditions(const char *status, const char *reason);

/*
 * fx_namespace() - a Namespace @name with the label @key=@value (no label
 * when @key is NULL).
 * Returns: new (obj_free()).  Cannot fail.
 */
struct obj *fx_namespace(const char *name, const char *key, const char *value);

/* ---- worlds ---------------------------------------------------------------------- */

/*
 * fx_des_new() - a world at time 0 with the default parameters but for the
 * scenario seed @seed and the API latency @api_latency_ms (ms, >= 0).
 * Returns: new (des_free()).  Cannot fail.
 */
struct des *fx_des_new(uint64_t seed, int64_t api_latency_ms);

/*
 * fx_create() - store @o in @w's API server, as a test's set-up does.
 * Steals @o.  Fails the running test when the API server refuses it.
 */
void fx_create(struct des *w, struct obj *o);

/*
 * fx_create_copies() - fx_create() a copy of every object of @s (borrowed),
 * in the scenario's order.
 */
void fx_create_copies(struct des *w, const struct scenario *s);

/*
 * fx_script_status() - schedule every event of @s as the status merge patch
 * it describes, at its time (DES_PRIO_SCRIPT): a stand-in for the controller
 * that would write those statuses.  @s must outlive the run of @w (its events
 * are borrowed).  Fails the running test for an event that is not a status
 * event, and, when it fires, for a patch the API server refuses.
 */
void fx_script_status(struct des *w, const struct scenario *s);

/* A record of what a watch saw: one line per change, in order, with the world's clock. */
struct fx_rec {
	char **lines; /* owned, n of them */
	size_t n;
	struct des *w; /* borrowed: the world whose clock a line is stamped with */
};

/*
 * fx_rec_watch() - an empty record @r of world @w, fed by @fn watching @kind
 * (@fn gets @r as its context and calls fx_rec_add()).  @r must stay where
 * it is while @w can deliver events; release it with fx_rec_release().
 * Cannot fail.
 */
void fx_rec_watch(struct fx_rec *r, struct des *w, const char *kind, api_watch_fn fn);

/* fx_rec_add() - append @line (steals it: a string from malloc). Cannot fail. */
void fx_rec_add(struct fx_rec *r, char *line);

/* fx_rec_release() - frees the lines @r owns (not @r).  Accepts an empty record. */
void fx_rec_release(struct fx_rec *r);

/*
 * fx_expect_lines() - assert that @r holds exactly the @n lines @want, in
 * order; on a mismatch both lists go to stderr under the heading @what.
 */
void fx_expect_lines(const struct fx_rec *r, const char *const *want, size_t n, const char *what);

/* An annotation write: set @key of @kind @ns/@name to @value (NULL removes it). */
struct fx_annotation {
	const char *kind, *ns, *name, *key, *value;
};

/*
 * fx_annotate_at() - make the write @a at @t_ms (simulated ms, not in the
 * past; DES_PRIO_SCRIPT), as an operator or another controller would.  @a is
 * borrowed and must outlive the run.  Cannot fail; the API server's answer
 * is not checked (a write to a missing object does nothing).
 */
void fx_annotate_at(struct des *w, int64_t t_ms, const struct fx_annotation *a);

/* ---- a fake Job runner ----------------------------------------------------------- */

/*
 * A stand-in for the Kubernetes Job controller in the "default" namespace:
 * every Job created there completes @job_ms later with the status a real Job
 * would get (succeeded 1, completionTime, condition Complete True), except
 * that the next @plan_failures plan Jobs (label magosproject.io/job-type
 * "plan") fail instead (failed 1, condition Failed True,
 * BackoffLimitExceeded).  A Job deleted before then is left alone.
 * Set plan_failures at any time; the other fields belong to the runner.
 */
struct fx_runner {
	struct des *w;          /* borrowed */
	int64_t anchor_unix_ms; /* wall time of simulated 0, for completionTime */
	int64_t job_ms;         /* run time of every Job, ms */
	int plan_failures;      /* plan Jobs still to fail */
	char names[64][64];     /* the Jobs seen, by creation order (64 at most) */
	size_t n;
};

/*
 * fx_runner_start() - @r, emptied, runs the Jobs of world @w from now on,
 * each for @job_ms (ms); completion times are @anchor_unix_ms + the
 * simulated clock.  @r must outlive the run of @w; nothing to release.
 * Jobs past the 64th are never run.  Cannot fail.
 */
void fx_runner_start(struct fx_runner *r, struct des *w, int64_t anchor_unix_ms,
		     int64_t job_ms);

/* ---- trial rows -------------------------------------------------------------------- */

/*
 * fx_trial_row() - trial @i with seed 100 + @i: completed at @ttc_ms (its
 * clock stopped there), or censored at 10 s (DES_HORIZON) when @ttc_ms < 0;
 * no halt, no detection, no phases.
 * Returns: the row by value; it owns nothing.  Cannot fail.
 */
struct trial_row fx_trial_row(uint32_t i, int64_t ttc_ms);

/* fx_rows_free() - trial_row_release() on @n @rows, then free(@rows); accepts NULL. */
void fx_rows_free(struct trial_row *rows, size_t n);

/* ---- captured output --------------------------------------------------------------- */

/* A memory stream and what it collected. */
struct fx_cap {
	char *buf; /* the text once fx_cap_text() closed the stream; the caller frees it */
	size_t len;
	FILE *f;
};

/*
 * fx_cap_open() - an empty memory stream in @c for a writer under test.
 * Returns: the stream (borrowed; closed by fx_cap_text()).
 * Errors:  fails the running test (fatally) when no stream can be opened.
 */
FILE *fx_cap_open(struct fx_cap *c);

/*
 * fx_cap_text() - close @c's stream.
 * Returns: what was written, NUL-terminated; the same pointer as c->buf,
 *          which the caller frees.  Cannot fail.
 */
char *fx_cap_text(struct fx_cap *c);

/* fx_count() - how many times @what occurs in @s, overlaps counted.  @what must not be "". */
size_t fx_count(const char *s, const char *what);

#endif
