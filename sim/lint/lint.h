#ifndef MAGOS_SIM_LINT_H
#define MAGOS_SIM_LINT_H

/*
 * Static checks of wave policies: rules over the manifests of a loaded
 * scenario (or plain manifest files), without running anything.  Each
 * finding has a stable rule id, a severity, the file:line:col of the
 * offending field, a one-line explanation and what to do about it.
 *
 * Rule ids are stable across releases (CI configurations and suppressions
 * name them): "MS0xx" for admission (what the API server would refuse),
 * "MS1xx" for the Magos Rollout/Project/Workspace, "MS2xx" for the
 * FleetRollout and its StageSet members.  Every rule is listed, with its
 * id, what triggers it and the fix, in lint_rules() and in the README.
 *
 * Invariants: a report's findings are sorted by lint_report_sort() in
 * (file, line, column, rule id, message) order, so output is the same
 * whatever order the rules ran in.
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/load/scenario.h"

enum lint_sev { LINT_ERROR, LINT_WARNING, LINT_INFO };

/* One rule: static data, listed by lint_rules(). */
struct lint_rule {
	const char *id;      /* "MS201" */
	const char *name;    /* short kebab-case name, "member-unassigned" */
	enum lint_sev sev;   /* default severity */
	const char *summary; /* what triggers it, one line */
	const char *fix;     /* what to do, one line */
};

struct lint_finding {
	const struct lint_rule *rule; /* borrowed, static */
	enum lint_sev sev;            /* usually rule->sev */
	char *file;                   /* owned; NULL when no file applies */
	struct val_mark mark;         /* 1-based; {0,0} unknown */
	char *msg;                    /* owned: the finding, naming the objects */
	char *fix;                    /* owned: what to do about this one; NULL: rule->fix */
};

struct lint_report {
	struct lint_finding *items; /* owned array */
	size_t n, cap;
	size_t nerrors, nwarnings, ninfos; /* every one, those not kept included */
	/*
	 * Errors and warnings the loader counted past the errors limit
	 * (sim/base/diag.h) without keeping them: counted in nerrors and
	 * nwarnings, never findings of their own (lint_hidden_text() says so).
	 */
	size_t nhidden_errors, nhidden_warnings;
};

/* lint_report_init() - empty report.  lint_report_release() frees it; accepts NULL. */
void lint_report_init(struct lint_report *r);
void lint_report_release(struct lint_report *r);

/*
 * lint_add() - appends a finding of rule @id (which must be in lint_rules();
 * an unknown id is a programming error and aborts) at @file:@mark with the
 * rule's default severity.  @file is copied (NULL allowed).
 */
void lint_add(struct lint_report *r, const char *id, const char *file, struct val_mark mark,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * lint_finding_fix() - what to do about @f: its own fix (an unknown field's
 * nearest accepted name and the names accepted there), else its rule's.
 * Borrowed from @f or static.
 */
const char *lint_finding_fix(const struct lint_finding *f);

/* lint_finding_release() - frees what @f owns (file, message, fix); @f itself stays. */
void lint_finding_release(struct lint_finding *f);

/* lint_report_sort() - sorts the findings into the order of the invariant. */
void lint_report_sort(struct lint_report *r);

/*
 * lint_rules() - every rule, in id order.  @n receives the count.  The
 * returned array is static.
 */
const struct lint_rule *lint_rules(size_t *n);

/* lint_rule() - the rule with id @id, or NULL. */
const struct lint_rule *lint_rule(const char *id);

/* lint_sev_name() - "error", "warning" or "info". */
const char *lint_sev_name(enum lint_sev s);

/*
 * lint_from_diag() - turns the errors (and warnings) the loader found into
 * admission findings (MS001 for schema/CEL/required/enum refusals, MS002 for
 * YAML that does not parse or is not a manifest; warnings become MS003),
 * keeping their file:line:col and message.  Notes that follow an error are
 * appended to its message after "; ", except those of an unknown field
 * ("did you mean", "accepted fields"): they become the finding's own fix,
 * naming the nearest accepted field and every one accepted at that level.
 * An error about a scripted event (its path starts at spec.events) gets a
 * fix of its own about events, not MS002's advice on paths and YAML.  The
 * errors and warnings @d only counted (past the errors limit) are added to
 * r->nhidden_errors and r->nhidden_warnings, and to the totals.
 */
void lint_from_diag(struct lint_report *r, const struct diag *d);

/*
 * lint_hidden_text() - "and N more errors (and M more warnings) not shown
 * (limit errors; ...)" for the findings @r counted without keeping them,
 * or NULL when it kept them all.  Returns a new string.
 */
char *lint_hidden_text(const struct lint_report *r);

/*
 * lint_scenario() - runs every rule over the objects of @s (borrowed) and
 * appends the findings to @r.  Works on a partially loaded scenario (objects
 * whose admission failed are simply absent).  A loader warning already in
 * @r (MS003, from lint_from_diag()) at the file:line:col of a rule's finding
 * is removed: the rule tells the same problem with its id and fix.  Never
 * fails.
 */
void lint_scenario(struct lint_report *r, const struct scenario *s);

/*
 * lint_unselected_workspaces() - the Workspaces of a Rollout's project that
 * no step of the Rollout selects (rule MS105; the run's end-of-run hazard
 * note uses it too), matched as the Rollout controller matches them: a
 * missing or null step selector is the empty one, as Go decodes the
 * value-typed field.
 * @steps:   the Rollout's spec.strategy.steps (borrowed); NULL or not a
 *           list: no steps.
 * @project: the Rollout's spec.projectRef.
 * @ws:      @n Workspaces of the Rollout's namespace (borrowed).
 * @out:     @n flags, each set when that Workspace names @project in
 *           spec.projectRef.name and no step selects it.
 * Returns:  true when every step's selector converts; when one does not, the
 *           controller fails before granting anything and @out says nothing
 *           useful.  Cannot fail otherwise.
 * Cost: O((@n + steps + matches) log @n): a step is matched only against the
 * Workspaces carrying the rarest label its matchLabels (or one-valued In)
 * name; against all @n when it names none.
 */
bool lint_unselected_workspaces(const struct val *steps, const char *project,
				const struct obj *const *ws, size_t n, bool *out);

/*
 * lint_merge_variant() - appends to @r the findings of @v (the report of a
 * variant of the scenario @r was made from) that @r's own findings do not
 * hold (same rule, severity, file, place and message), each message
 * prefixed with `variant "NAME": `, so that a variant's own problems are
 * told once and the base's are not told again; @v's counts of findings not
 * kept (nhidden_errors, nhidden_warnings) are added to @r's.  @v borrowed;
 * strings copied.
 */
void lint_merge_variant(struct lint_report *r, const struct lint_report *v, const char *name);

/*
 * lint_drop_read_series() - removes from @r the loader's warnings that a
 * spec.metrics entry is read by no gate (MS003 at the entry's query) for the
 * entries a prometheus gate of @s reads (its FleetRollouts and those of its
 * apply events).  For a variant: a series only its gates read is not unread.
 * @s borrowed (a variant scenario shares the base's series).
 */
void lint_drop_read_series(struct lint_report *r, const struct scenario *s);

/* The two rule families, called by lint_scenario(). */
void lint_magos(struct lint_report *r, const struct scenario *s);
void lint_fleet(struct lint_report *r, const struct scenario *s);

/*
 * lint_ss_hold_ms() - how long one pass of StageSet @ss towards a new
 * @version (NULL: not known statically) holds a StageSet controller worker
 * at the medians of the StageSet world of @s: the reconcile duration, and
 * per stage the apply and the waits for readiness (and the ready-check
 * expressions), each cut at the stage's verify timeout (MS222's estimate).
 * Returns: ms, >= 0.  Cannot fail.
 */
int64_t lint_ss_hold_ms(const struct scenario *s, const struct obj *ss, const char *version);

/*
 * lint_stage_timeout_ms() - the verify timeout T of stage @st (an item of
 * spec.stages) of a StageSet whose spec is @spec, as upstream's stageTimeout
 * picks it (StageSet spec §2.3): readyChecks.timeout, stages[].timeout,
 * spec.timeout, the first that is a Go duration above zero, else 15m.
 * Returns: ms, > 0.  Cannot fail.
 */
int64_t lint_stage_timeout_ms(const struct val *spec, const struct val *st);

#endif
