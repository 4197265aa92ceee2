/*
 * The StageSet hold rules of lint (MS234..MS241, MS276), sim/lint/lint_ss_holds.h.
 *
 * What is linted: every StageSet of the inputs and of `apply` events, and
 * the scenario's events that reach them.  A StageSet's windows are those of
 * the object as the inputs (or the latest earlier `apply` event) define it;
 * an event that edits the windows, windowScope or the error budget itself is
 * not judged (what it leaves is only known once the patch is merged).
 *
 * Limits (each one makes a rule say nothing rather than guess):
 *  - a budget is judged from its readings every SAMPLE_MS (15s), at most
 *    MAX_SAMPLES (20 000, about 83h) of them over one stretch; MS237 reads
 *    the whole horizon, with a longer step when it holds more readings;
 *  - MS235 follows a StageSet's window decision through at most
 *    MAX_CHANGES (64) changes looking for the last opening;
 *  - MS238 places a soak at the median modelled durations (the pass's
 *    reconcile, each stage's apply and readiness waits, earlier soaks) after
 *    the latest publish reaching the StageSet (or its creation).
 */
#include "sim/lint/lint_ss_holds.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/stageset_windows.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/dist.h"
#include "sim/load/promseries.h"
#include "sim/load/scn_ssworld.h"

/* The annotation a FleetRollout (or a person) stamps to direct a version (StageSet spec §1.12). */
#define ROLLBACK_TO "stages.metio.wtf/rollback-to"
/* The one-shot window bypass (StageSet spec ). */
#define UPDATE_NOW "stages.metio.wtf/update-now"
/* The approval of a version transition. */
#define APPROVED_VERSION "stages.metio.wtf/approved-version"
/* The one-shot budget bypass (StageSet spec R-10). */
#define BUDGET_OVERRIDE "stages.metio.wtf/budget-override"

/* The budget is read every SAMPLE_MS over a stretch of time, at most MAX_SAMPLES times (about 83h); beyond, nothing is claimed. */
#define SAMPLE_MS 15000
#define MAX_SAMPLES 20000

/* Upper bound of decision changes walked to find the last opening (MS235): windows flip at most this often here. */
#define MAX_CHANGES 64

const struct tz_zone *lsh_time_zone(void *ctx, const char *name, struct ssc_err *err)
{
	char text[256] = "";
	const struct tz_zone *z = tzif_cache_find(ctx, name, text, sizeof(text));

	if (!z)
		ssc_err_set(err, SSC_ERR, "%s", text);
	return z;
}

/* Appends the windows of @sp in words to @buf (@len bytes), "; " between them. */
static void describe(const struct sst_spec *sp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sp->nwindows && used + 1 < len; i++) {
		const struct sst_window *w = &sp->windows[i];
		char a[GT_RFC3339_BUFSZ], b[GT_RFC3339_BUFSZ], d[GT_DURATION_BUFSZ];
		int k;

		if (w->from_ms != SST_NO_TIME && w->to_ms != SST_NO_TIME) {
			gt_format_rfc3339(w->from_ms, a, sizeof(a));
			gt_format_rfc3339(w->to_ms, b, sizeof(b));
			k = snprintf(buf + used, len - used, "%s%s from %s to %s", i ? "; " : "", w->type, a, b);
		} else {
			gt_format_duration(w->duration.ms, d, sizeof(d));
			k = snprintf(buf + used, len - used, "%s%s \"%s\" for %s in %s", i ? "; " : "", w->type,
				     w->schedule, d, *w->time_zone ? w->time_zone : "UTC");
		}
		if (k < 0)
			break;
		used += (size_t)k;
	}
	if (used >= len && len > 4)
		memcpy(buf + len - 4, "...", 4); /* cut: say so */
}

/*
 * Whether spec map @spec has field @key set (present and not null), as
 * sst_spec_parse() reads its optional fields: without it the parsed spec has
 * no windows (nwindows 0) or no budget (has_error_budget false).
 */
static bool declared(const struct val *spec, const char *key)
{
	const struct val *v = val_map_get(spec, key);

	return v && v->type != VAL_NULL;
}

bool lsh_windows_at(const struct val *spec, struct tzif_cache *tz, int64_t unix_ms, struct lsh_windows *out)
{
	struct sst_spec sp;
	struct ssc_env env;
	char err[WIN_ERRLEN];
	bool ok = false;

	memset(out, 0, sizeof(*out));
	if (!spec || spec->type != VAL_MAP || !declared(spec, "updateWindows"))
		return false; /* no windows whether or not the rest parses: the parse is not needed */
	if (sst_spec_parse(spec, &sp, err, sizeof(err)) != 0)
		return false;
	if (sp.nwindows == 0)
		goto out_release_spec;
	memset(&env, 0, sizeof(env));
	env.ctx = tz;
	env.time_zone = lsh_time_zone;
	if (win_decision(sp.windows, sp.nwindows, &env, unix_ms, &out->allowed, &out->next_ms, err,
			 sizeof(err)) != WIN_OK)
		goto out_release_spec;
	out->scope_all = strcmp(sp.window_scope, "All") == 0;
	describe(&sp, out->what, sizeof(out->what));
	ok = true;
out_release_spec:
	sst_spec_release(&sp);
	return ok;
}

/* Whether spec.metrics entry @x serves the budget source @src (as the StageSet world matches them). */
static bool serves(const struct scn_series *x, const struct sst_metric_source *src, const char *address)
{
	if (src->has_prometheus)
		return x->query && !strcmp(x->query, src->query) &&
		       (address ? x->address && !strcmp(x->address, address) : x->address == NULL);
	return x->url && !strcmp(x->url, src->url) && (!x->json_path || !strcmp(x->json_path, src->json_path));
}

/* The one finite value the budget source @src reads at @t_ms; false when there is not exactly one. */
static bool budget_value(const struct scenario *s, const struct sst_metric_source *src, int64_t t_ms, double *value)
{
	const char *address = src->has_prometheus ? src->address : NULL;
	size_t n = 0, group = 0;
	double x;

	for (size_t i = 0; src->has_prometheus && address && i < s->nseries && !group; i++)
		group += serves(&s->series[i], src, address);
	if (!group)
		address = NULL; /* the entries without an address serve every address */
	for (size_t i = 0; i < s->nseries; i++) {
		const struct scn_series *x_ = &s->series[i];

		if (!serves(x_, src, address))
			continue;
		if (scn_sw_in_windows(&x_->unavailable, t_ms))
			return false;
		if (ps_sample(&x_->series, x_->interval_ms, t_ms, &x) == 1 && n++ == 0)
			*value = x;
	}
	return n == 1 && isfinite(*value);
}

/* lsh_budget_at() over a parsed spec. */
static bool budget_read(const struct sst_spec *sp, const struct scenario *s, int64_t t_ms, struct lsh_budget *out)
{
	char *end;

	memset(out, 0, sizeof(*out));
	if (!sp->has_error_budget || sp->error_budget.dry_run || !sp->error_budget.freeze_threshold ||
	    (!sp->error_budget.source.has_prometheus && !sp->error_budget.source.has_webhook))
		return false;
	errno = 0;
	out->freeze = strtod(sp->error_budget.freeze_threshold, &end);
	if (errno || end == sp->error_budget.freeze_threshold || *end || !isfinite(out->freeze))
		return false;
	snprintf(out->freeze_text, sizeof(out->freeze_text), "%s", sp->error_budget.freeze_threshold);
	if (!budget_value(s, &sp->error_budget.source, t_ms, &out->remaining))
		return false;
	out->frozen = out->remaining < out->freeze;
	return true;
}

bool lsh_budget_at(const struct val *spec, const struct scenario *s, int64_t t_ms, struct lsh_budget *out)
{
	struct sst_spec sp;
	char err[256];
	bool ok;

	memset(out, 0, sizeof(*out));
	if (!spec || spec->type != VAL_MAP || !declared(spec, "errorBudget"))
		return false; /* no budget whether or not the rest parses: the parse is not needed */
	if (sst_spec_parse(spec, &sp, err, sizeof(err)) != 0)
		return false;
	ok = budget_read(&sp, s, t_ms, out);
	sst_spec_release(&sp);
	return ok;
}

/*
 * Whether the budget of @spec reads not frozen at some instant of
 * [@from_ms, @until_ms] (read at both ends and every SAMPLE_MS between):
 * 1 when it does, 0 when every reading is frozen, -1 when that cannot be
 * told (a reading without a value, a stretch of more than MAX_SAMPLES
 * readings, a spec that does not parse).
 */
static int thaws_between(const struct val *spec, const struct scenario *s, int64_t from_ms, int64_t until_ms)
{
	struct sst_spec sp;
	struct lsh_budget b;
	char err[256];
	int rc = 0;

	if (until_ms < from_ms || (until_ms - from_ms) / SAMPLE_MS > MAX_SAMPLES)
		return -1;
	if (!spec || spec->type != VAL_MAP || sst_spec_parse(spec, &sp, err, sizeof(err)) != 0)
		return -1;
	for (int64_t t = from_ms;; t += SAMPLE_MS) {
		if (t > until_ms)
			t = until_ms;
		if (!budget_read(&sp, s, t, &b)) {
			rc = -1;
			break;
		}
		if (!b.frozen) {
			rc = 1;
			break;
		}
		if (t == until_ms)
			break;
	}
	sst_spec_release(&sp);
	return rc;
}

/* The time of the latest publish reaching @ss at or before @t_ms, -1 when none. */
static int64_t latest_publish(const struct scenario *s, const struct obj *ss, int64_t t_ms);

/* Where @key's value sits in map @m (its key when the value has no mark), else @fallback. */
static struct val_mark value_mark(const struct val *m, const char *key, struct val_mark fallback)
{
	const struct val *v = m ? val_map_get(m, key) : NULL;

	return v && v->mark.line ? v->mark : fallback;
}

/* ------------------------------------------------------------ the objects */

/*
 * The StageSet @ns/@name as the inputs and the apply events firing before
 * event @before (in firing order: time, then file order) define it, with the
 * time it came into being in @created_ms; NULL when none does.
 */
static const struct obj *stageset_before(const struct scenario *s, const char *ns, const char *name,
					 const struct scn_event *before, int64_t *created_ms)
{
	const struct obj *found = NULL;
	const struct scn_event *last = NULL;

	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]) && !strcmp(s->objs[i]->ns, ns) && !strcmp(s->objs[i]->name, name)) {
			found = s->objs[i];
			*created_ms = 0;
		}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];

		if (e == before || e->type != SCN_EV_APPLY || !scn_is_stageset(e->obj) || strcmp(e->obj->ns, ns) ||
		    strcmp(e->obj->name, name))
			continue;
		if (e->at_ms > before->at_ms || (e->at_ms == before->at_ms && e->index > before->index))
			continue; /* fires after @before */
		if (!found && (!last || e->at_ms < *created_ms))
			*created_ms = e->at_ms;
		if (!last || e->at_ms > last->at_ms || (e->at_ms == last->at_ms && e->index > last->index))
			last = e;
	}
	return last ? last->obj : found;
}

/* The labels of Namespace @ns of the inputs, NULL when none. */
static const struct obj_strmap *ns_labels(const struct scenario *s, const char *ns)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (!strcmp(s->objs[i]->kind, "Namespace") && !strcmp(s->objs[i]->name, ns))
			return &s->objs[i]->labels;
	return NULL;
}

/* Whether publish @p reaches StageSet @ss (its selector, and its namespaceSelector when given). */
static bool reaches(const struct scenario *s, const struct scn_fevent *p, const struct obj *ss)
{
	const struct obj_strmap *nl;

	if (p->type != SCN_FEV_PUBLISH || !lbl_matches(&p->selector, &ss->labels))
		return false;
	if (!p->has_ns_selector)
		return true;
	nl = ns_labels(s, ss->ns);
	return nl && lbl_matches(&p->ns_selector, nl);
}

static int64_t latest_publish(const struct scenario *s, const struct obj *ss, int64_t t_ms)
{
	int64_t when = -1;

	for (size_t p = 0; p < s->nfevents; p++)
		if (s->fevents[p].at_ms <= t_ms && s->fevents[p].at_ms > when && reaches(s, &s->fevents[p], ss))
			when = s->fevents[p].at_ms;
	return when;
}

/*
 * Whether the windows of @spec allow an update at some instant in [@from_ms,
 * @until_ms) (scenario ms): allowed at @from_ms, or a change before @until_ms.
 */
static bool opens_between(const struct val *spec, struct tzif_cache *tz, int64_t start_unix, int64_t from_ms,
			  int64_t until_ms)
{
	struct lsh_windows w;

	if (!lsh_windows_at(spec, tz, start_unix + from_ms, &w))
		return true;
	return w.allowed || (w.next_ms != SST_NO_TIME && w.next_ms - start_unix < until_ms);
}

/* -------------------------------------------------------------- MS234 */

/* What event @e does to a StageSet that the windows do not gate, in words into @buf; false: nothing. */
static bool bypassing_edit(const struct scn_event *e, const struct obj *ss, char *buf, size_t len)
{
	const struct val *spec, *v;

	switch (e->type) {
	case SCN_EV_ANNOTATE:
		for (size_t i = 0; i < e->set.n; i++)
			if (!strcmp(e->set.items[i].key, ROLLBACK_TO)) {
				snprintf(buf, len, "stamps %s: \"%s\"", ROLLBACK_TO, e->set.items[i].value);
				return true;
			}
		return false;
	case SCN_EV_PATCH:
		spec = e->merge ? val_map_get(e->merge, "spec") : NULL;
		break;
	case SCN_EV_APPLY:
		spec = e->obj ? e->obj->spec : NULL;
		if (spec && ss->spec && val_equal(spec, ss->spec))
			return false; /* the same spec again: no generation bump */
		break;
	default:
		return false;
	}
	if (!spec || spec->type != VAL_MAP || spec->u.map.n == 0)
		return false;
	/* an edit of what gates it is not judged: what it leaves is known only once merged */
	if (val_map_get(spec, "updateWindows") || val_map_get(spec, "windowScope") ||
	    val_map_get(spec, "errorBudget"))
		return false;
	v = val_map_get(spec, "version");
	v = v && v->type == VAL_MAP ? val_map_get(v, "value") : NULL;
	if (v && v->type == VAL_STRING)
		snprintf(buf, len, "sets spec.version.value to %s", v->u.s);
	else
		snprintf(buf, len, "edits the spec");
	return true;
}

/* The names of the migrations of @spec that end at version @to, ", " between; "" for none.  New string. */
static char *migrations_to(const struct val *spec, const char *to)
{
	const struct val *m = spec ? val_map_get(spec, "migrations") : NULL;
	char *out = xstrdup("");

	for (size_t i = 0; m && m->type == VAL_LIST && i < m->u.list.n; i++) {
		const struct val *it = m->u.list.items[i];
		const char *t = val_str(val_map_get(it, "to"), NULL), *n = val_str(val_map_get(it, "name"), "");
		char *more;

		if (!t || strcmp(t, to))
			continue;
		more = xasprintf("%s%s%s", out, *out ? ", " : "", n);
		free(out);
		out = more;
	}
	return out;
}

/* Why the windows of @ss hold new revisions at event @e, in words into @buf; false when they do not. */
static bool window_holds(const struct scenario *s, const struct scn_event *e, const struct obj *ss,
			 int64_t created, struct tzif_cache *tz, char *buf, size_t len)
{
	struct lsh_windows w;
	char next[GT_RFC3339_BUFSZ + 32];
	int64_t p;

	if (!lsh_windows_at(ss->spec, tz, s->start_unix_ms + e->at_ms, &w) || w.allowed || w.scope_all)
		return false;
	/* never deployed before the event: every revision is new to it, and the window holds it */
	if (!opens_between(ss->spec, tz, s->start_unix_ms, created, e->at_ms))
		return false;
	/*
	 * a published revision still held at the event keeps the edit held too
	 * the latest publish decides (an earlier one is delivered with
	 * it or superseded by it)
	 */
	if ((p = latest_publish(s, ss, e->at_ms)) >= 0 && !opens_between(ss->spec, tz, s->start_unix_ms, p, e->at_ms))
		return false;
	if (w.next_ms != SST_NO_TIME) {
		char t[GT_RFC3339_BUFSZ];

		gt_format_rfc3339(w.next_ms, t, sizeof(t));
		snprintf(next, sizeof(next), "; next window opens %s", t);
	} else {
		snprintf(next, sizeof(next), "; no window ever opens again");
	}
	snprintf(buf, len, "its update windows hold new revisions (%s%s)", w.what, next);
	return true;
}

/* Why the error budget of @ss holds new revisions at event @e, in words into @buf; false when it does not. */
static bool budget_holds(const struct scenario *s, const struct scn_event *e, const struct obj *ss,
			 int64_t created, char *buf, size_t len)
{
	struct lsh_budget b;
	int64_t p;

	if (obj_strmap_get(&ss->annotations, BUDGET_OVERRIDE))
		return false; /* a token may let the pass through: not judged */
	if (!lsh_budget_at(ss->spec, s, e->at_ms, &b) || !b.frozen)
		return false;
	if (thaws_between(ss->spec, s, created, e->at_ms) != 1)
		return false; /* never deployed (or not known): every revision is new to it, and the budget holds it */
	if ((p = latest_publish(s, ss, e->at_ms)) >= 0 && thaws_between(ss->spec, s, p, e->at_ms) != 1)
		return false; /* the published revision is still held, and the edit with it */
	snprintf(buf, len, "its error budget is exhausted (remaining %g < freezeThreshold %s then)", b.remaining,
		 b.freeze_text);
	return true;
}

static void rule_edit_bypasses_freeze(struct lint_report *r, const struct scenario *s, struct tzif_cache *tz)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct obj *ss;
		int64_t created = 0;
		char what[256], when[GT_RFC3339_BUFSZ], at[GT_DURATION_BUFSZ], win[512] = "", bud[160] = "";
		char *migs = NULL, *extra;
		bool by_window, by_budget;

		if (strcmp(e->target.kind, "StageSet") || !e->target.name ||
		    (e->type != SCN_EV_PATCH && e->type != SCN_EV_APPLY && e->type != SCN_EV_ANNOTATE) ||
		    (e->type == SCN_EV_ANNOTATE && !obj_strmap_get(&e->set, ROLLBACK_TO)))
			continue;
		ss = stageset_before(s, e->target.ns, e->target.name, e, &created);
		if (!ss || !bypassing_edit(e, ss, what, sizeof(what)))
			continue;
		by_window = window_holds(s, e, ss, created, tz, win, sizeof(win));
		by_budget = budget_holds(s, e, ss, created, bud, sizeof(bud));
		if (!by_window && !by_budget)
			continue;
		gt_format_rfc3339(s->start_unix_ms + e->at_ms, when, sizeof(when));
		gt_format_duration(e->at_ms, at, sizeof(at));
		if (!strncmp(what, "sets spec.version.value to ", 27))
			migs = migrations_to(ss->spec, what + 27);
		extra = migs && *migs ? xasprintf(", the migration(s) to %s (%s) included", what + 27, migs)
				      : xstrdup("");
		lint_add(r, "MS234", e->file, e->mark,
			 "the %s event at %s (%s) %s on StageSet %s/%s while %s%s%s, and %s only a new artifact "
			 "revision of its sources: the controller applies this change at once%s",
			 scn_event_type_name(e->type), at, when, what, ss->ns, ss->name, win,
			 by_window && by_budget ? " and " : "", bud,
			 by_window && by_budget ? "both gate" : by_window ? "the windows gate" : "the budget gates",
			 extra);
		free(extra);
		free(migs);
	}
}

/* -------------------------------------------------------------- MS235 */

static void rule_window_never_opens(struct lint_report *r, const struct obj *ss, int64_t from_unix,
				    int64_t end_unix, struct tzif_cache *tz)
{
	struct lsh_windows w;
	int64_t t = from_unix, since = t;
	char when[GT_RFC3339_BUFSZ];
	size_t k;

	for (k = 0; k < MAX_CHANGES; k++) {
		if (!lsh_windows_at(ss->spec, tz, t, &w))
			return;
		if (w.next_ms == SST_NO_TIME)
			break;
		since = w.next_ms;
		t = w.next_ms;
	}
	if (k == MAX_CHANGES || w.allowed)
		return; /* opens again, or flips too often to be sure */
	if (k == 0)
		since = from_unix;
	if (since >= end_unix)
		return; /* closes for good only after the scenario's horizon: nothing the run meets */
	gt_format_rfc3339(since, when, sizeof(when));
	lint_add(r, "MS235", ss->src.file, ss->src.mark,
		 "StageSet %s/%s: its update windows (%s) allow no update from %s%s on, and never again: "
		 "every new revision it is offered is deferred for good (Ready 'delivery held by update "
		 "window' without a next opening, re-checked every retryInterval)",
		 ss->ns, ss->name, w.what, when, k == 0 ? " (when the scenario has it)" : "");
}

/* -------------------------------------------------------------- MS236 */

/* The promotion gates of @st in words ("soak 1h0m0s, manual promotion"), into @buf; false for none. */
static bool gates_of(const struct sst_stage *st, char *buf, size_t len)
{
	const struct sst_promotion *p = &st->promotion;
	char d[GT_DURATION_BUFSZ];
	size_t used = 0;

	buf[0] = '\0';
	if (!st->has_promotion)
		return false;
#define ADD(...) used += (size_t)snprintf(buf + used, used < len ? len - used : 0, __VA_ARGS__)
	if (p->soak.set && p->soak.ms > 0) {
		gt_format_duration(p->soak.ms, d, sizeof(d));
		ADD("soak %s", d);
	}
	if (p->require_manual)
		ADD("%smanual promotion", used ? ", " : "");
	if (p->has_analysis)
		ADD("%sanalysis", used ? ", " : "");
	if (p->has_restart_gate)
		ADD("%srestart gate", used ? ", " : "");
	if (p->has_event_gate)
		ADD("%sevent gate", used ? ", " : "");
#undef ADD
	return used > 0;
}

/*
 * MS236: windows and budgets are checked before the plan on every pass
 * also while a stage before the last holds the new revision at
 * its promotion gate: a window closing (or the budget freezing) then defers
 * the later stages with Ready True "Deployed; …" (StageSet spec §5 Q-9).
 */
static void rule_gate_before_plan(struct lint_report *r, const struct obj *ss, struct tzif_cache *tz,
				  int64_t unix_ms)
{
	struct sst_spec sp;
	struct lsh_windows w;
	char err[256], gates[160], by[400];
	bool windows, budget;

	if (!ss->spec || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	windows = lsh_windows_at(ss->spec, tz, unix_ms, &w) && !w.scope_all;
	budget = sp.has_error_budget && !sp.error_budget.dry_run;
	if (windows && budget)
		snprintf(by, sizeof(by), "its update windows (%s) and its error budget", w.what);
	else if (windows)
		snprintf(by, sizeof(by), "its update windows (%s)", w.what);
	else
		snprintf(by, sizeof(by), "its error budget");
	for (size_t i = 0; (windows || budget) && i + 1 < sp.nstages; i++) {
		const struct sst_stage *st = &sp.stages[i];

		if (!gates_of(st, gates, sizeof(gates)))
			continue;
		lint_add(r, "MS236", ss->src.file, st->raw ? st->raw->mark : ss->src.mark,
			 "StageSet %s/%s: stage \"%s\" holds a new revision at its promotion gate (%s) before "
			 "%zu later stage(s), and %s are checked before the plan on every pass: if %s while "
			 "it holds, the later stages are deferred and the StageSet reports Ready True "
			 "'Deployed; %s' with \"%s\" on the new revision, the later stages and status.version "
			 "on the old one",
			 ss->ns, ss->name, st->name, gates, sp.nstages - i - 1, by,
			 windows && budget ? "updates stop being allowed (a Deny window begins, an Allow "
					     "window ends) or the budget freezes"
			 : windows	    ? "updates stop being allowed (a Deny window begins, an Allow window "
					      "ends)"
					    : "the budget freezes",
			 windows ? "delivery held by update window …" : "error budget exhausted …", st->name);
		break; /* the first such stage tells it */
	}
	sst_spec_release(&sp);
}

/* -------------------------------------------------------------- MS237 */

/* The StageSets of the inputs and apply events, each identity once (the latest apply wins); @ix receives their positions by "ns/name". */
static size_t stagesets_of(const struct scenario *s, const struct obj ***out, struct strindex *ix)
{
	const struct obj **v = xcalloc(s->nobjs + s->nevents + 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < s->nobjs + s->nevents; i++) {
		const struct obj *o = i < s->nobjs ? s->objs[i]
				      : s->events[i - s->nobjs].type == SCN_EV_APPLY ? s->events[i - s->nobjs].obj
										      : NULL;
		char buf[256], *key;
		size_t k;

		if (!scn_is_stageset(o))
			continue;
		key = kb_join2(buf, sizeof(buf), o->ns, o->name);
		if (si_get(ix, key, &k)) {
			v[k] = o; /* a later apply of the same StageSet */
		} else {
			si_put(ix, key, n);
			v[n++] = o;
		}
		kb_drop(key, buf);
	}
	*out = v;
	return n;
}

/* One dependsOn edge: StageSet v[dep]'s spec.dependsOn names v[on]. */
struct dep_edge {
	size_t on, dep;
};

static int edge_cmp(const void *pa, const void *pb)
{
	const struct dep_edge *a = pa, *b = pb;

	if (a->on != b->on)
		return a->on < b->on ? -1 : 1;
	return a->dep < b->dep ? -1 : a->dep > b->dep;
}

/*
 * dep_edges() - every edge of the dependsOn lists of the @n StageSets @v
 * (@ix: their positions by "ns/name"; an entry's namespace defaults to the
 * dependent's), other than a StageSet naming itself, each once, sorted by
 * the StageSet depended on, then the dependent.  Found through @ix, so a
 * fleet of n members costs O(n log n), not a comparison of every pair.
 * Returns the count; *@out receives the new array.
 */
static size_t dep_edges(const struct obj **v, size_t n, const struct strindex *ix, struct dep_edge **out)
{
	struct dep_edge *e = NULL;
	size_t ne = 0, cap = 0, w = 0;

	for (size_t a = 0; a < n; a++) {
		const struct val *d = v[a]->spec ? val_map_get(v[a]->spec, "dependsOn") : NULL;

		for (size_t i = 0; d && d->type == VAL_LIST && i < d->u.list.n; i++) {
			const struct val *it = d->u.list.items[i];
			const char *ns = val_str(val_map_get(it, "namespace"), "");
			char buf[256], *key = kb_join2(buf, sizeof(buf), *ns ? ns : v[a]->ns,
						       val_str(val_map_get(it, "name"), ""));
			size_t b;

			if (si_get(ix, key, &b) && b != a) {
				if (ne == cap) {
					cap = cap ? 2 * cap : 16;
					e = xreallocarray(e, cap, sizeof(*e));
				}
				e[ne++] = (struct dep_edge){ .on = b, .dep = a };
			}
			kb_drop(key, buf);
		}
	}
	if (ne)
		qsort(e, ne, sizeof(*e), edge_cmp);
	for (size_t i = 0; i < ne; i++)
		if (!w || e[i].on != e[w - 1].on || e[i].dep != e[w - 1].dep)
			e[w++] = e[i];
	*out = e;
	return w;
}

/*
 * MS237: a budget hold of a deployed StageSet is Ready True with no
 * pendingUpdate, so dependsOn dependents proceed against its old revision
 * (R-7.4 reads only pendingUpdate.revisions; §5 Q-10).  Told when the
 * scenario's series make its budget read exhausted within the horizon.
 */
static void rule_budget_invisible(struct lint_report *r, const struct scenario *s)
{
	const struct obj **v;
	struct strindex ix = { 0 };
	size_t n = stagesets_of(s, &v, &ix);
	struct dep_edge *edges;
	size_t nedges = dep_edges(v, n, &ix, &edges), e = 0;

	for (size_t b = 0; b < n; b++) {
		struct lsh_budget bu;
		struct sst_spec sp;
		char err[256];
		int64_t step = SAMPLE_MS, t, first = -1;
		char at[GT_DURATION_BUFSZ];
		struct strbuf deps = { 0 };
		size_t ndeps = 0;

		/* The dependents of v[b], in the order of v: the edges sorted by on, then dep. */
		for (; e < nedges && edges[e].on == b; e++, ndeps++) {
			if (ndeps)
				strbuf_add(&deps, ", ");
			strbuf_add(&deps, v[edges[e].dep]->ns);
			strbuf_addc(&deps, '/');
			strbuf_add(&deps, v[edges[e].dep]->name);
		}
		if (ndeps && s->horizon_ms / step > MAX_SAMPLES)
			step = s->horizon_ms / MAX_SAMPLES + 1;
		if (ndeps && v[b]->spec && v[b]->spec->type == VAL_MAP &&
		    sst_spec_parse(v[b]->spec, &sp, err, sizeof(err)) == 0) {
			for (t = 0; t <= s->horizon_ms && first < 0; t += step)
				if (budget_read(&sp, s, t, &bu) && bu.frozen)
					first = t;
			sst_spec_release(&sp);
		}
		if (first >= 0) {
			gt_format_duration(first, at, sizeof(at));
			lint_add(r, "MS237", v[b]->src.file, value_mark(v[b]->spec, "errorBudget", v[b]->src.mark),
				 "StageSet %s/%s: its error budget reads exhausted at %s (remaining %g < "
				 "freezeThreshold %s), and a budget hold keeps a deployed StageSet Ready True with no "
				 "pendingUpdate: %s, which dependsOn it, proceed%s against its old revision while the "
				 "budget holds its new one",
				 v[b]->ns, v[b]->name, at, bu.remaining, bu.freeze_text, deps.s, ndeps == 1 ? "s" : "");
		}
		strbuf_release(&deps);
	}
	free(edges);
	si_release(&ix);
	free(v);
}

/* -------------------------------------------------------------- MS238 */

/* promotion.soak of stage mapping @st in ms, 0 when none (or not a positive Go duration). */
static int64_t soak_ms(const struct val *st)
{
	const char *t = val_str(val_path(st, "promotion.soak"), NULL);
	int64_t ms;

	return t && gt_parse_duration(t, &ms, NULL, 0) == 0 && ms > 0 ? ms : 0;
}

/* The stage named @name of the stages list @stages, or NULL. */
static const struct val *stage_named(const struct val *stages, const char *name)
{
	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++)
		if (!strcmp(val_str(val_map_get(stages->u.list.items[i], "name"), ""), name))
			return stages->u.list.items[i];
	return NULL;
}

size_t lsh_soak_edits(const struct scenario *s, struct lsh_soak_edit **out)
{
	struct lsh_soak_edit *v = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const struct val *spec = e->type == SCN_EV_PATCH && e->merge ? val_map_get(e->merge, "spec")
				       : e->type == SCN_EV_APPLY && e->obj ? e->obj->spec
									    : NULL;
		const struct val *now = spec ? val_map_get(spec, "stages") : NULL, *before;
		const struct obj *ss;
		int64_t created;

		if (!now || now->type != VAL_LIST || strcmp(e->target.kind, "StageSet") || !e->target.name)
			continue;
		ss = stageset_before(s, e->target.ns, e->target.name, e, &created);
		before = ss && ss->spec ? val_map_get(ss->spec, "stages") : NULL;
		for (size_t k = 0; before && before->type == VAL_LIST && k < before->u.list.n; k++) {
			const struct val *st = before->u.list.items[k], *after;
			const char *name = val_str(val_map_get(st, "name"), NULL);
			int64_t was = soak_ms(st), will;

			if (!name || !was || !(after = stage_named(now, name)) || (will = soak_ms(after)) == was)
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 4;
				v = xreallocarray(v, cap, sizeof(*v));
			}
			v[n++] = (struct lsh_soak_edit){ e, ss, name, was, will };
		}
	}
	*out = v;
	return n;
}

static int64_t median_ms(const struct dist *d)
{
	double q = d ? dist_quantile(d, 0.5) : 0;

	return isfinite(q) && q > 0 ? (int64_t)llround(q) : 0;
}

/*
 * When stage @stage of @ss starts soaking after a new revision reaches it
 * at @from_ms, at the median modelled durations: the pass's reconcile, then
 * per stage up to it the apply and the waits for readiness (and the ready
 * expressions), and the soaks of the stages before it.
 */
static int64_t soak_start(const struct scenario *s, const struct obj *ss, const char *stage, int64_t from_ms)
{
	const struct val *stages = val_map_get(ss->spec, "stages");
	int64_t t = from_ms + s->reconcile_ms;

	for (size_t k = 0; stages && stages->type == VAL_LIST && k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const char *name = val_str(val_map_get(st, "name"), "");
		const struct val *exprs = val_path(st, "readyChecks.exprs");
		struct scn_sw_resolved e;

		scn_sw_resolve(&s->models.world, &ss->labels, name, &e);
		t += median_ms(e.apply_duration) + median_ms(&e.ready_delay->delay);
		if (exprs && exprs->type == VAL_LIST && exprs->u.list.n > 0)
			t += median_ms(&e.exprs_delay->delay);
		if (!strcmp(name, stage))
			break;
		t += soak_ms(st);
	}
	return t;
}

/* MS238: a soak edited while it runs keeps its deadline (G-8: since = soakUntil − soak; §5 Q-21). */
static void rule_soak_edit(struct lint_report *r, const struct scenario *s)
{
	struct lsh_soak_edit *v;
	size_t n = lsh_soak_edits(s, &v);

	for (size_t i = 0; i < n; i++) {
		const struct scn_event *e = v[i].event;
		int64_t created = 0, from, start;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ];
		char f[GT_DURATION_BUFSZ], g[GT_DURATION_BUFSZ], h[GT_DURATION_BUFSZ];
		const char *what = "its creation";
		char *pub = NULL;

		stageset_before(s, e->target.ns, e->target.name, e, &created);
		from = created;
		for (size_t p = 0; p < s->nfevents; p++)
			if (s->fevents[p].at_ms <= e->at_ms && s->fevents[p].at_ms >= from &&
			    reaches(s, &s->fevents[p], v[i].ss)) {
				from = s->fevents[p].at_ms;
				free(pub);
				pub = xasprintf("the publish of %s at %s", s->fevents[p].version,
						(gt_format_duration(from, h, sizeof(h)), h));
				what = pub;
			}
		start = soak_start(s, v[i].ss, v[i].stage, from);
		if (e->at_ms >= start && e->at_ms < start + v[i].old_ms) {
			gt_format_duration(e->at_ms, a, sizeof(a));
			gt_format_duration(v[i].old_ms, b, sizeof(b));
			gt_format_duration(v[i].new_ms, c, sizeof(c));
			gt_format_duration(start, d, sizeof(d));
			gt_format_duration(start + v[i].old_ms, f, sizeof(f));
			gt_format_duration(start + v[i].new_ms, g, sizeof(g));
			lint_add(r, "MS238", e->file, e->mark,
				 "the %s event at %s changes the soak of stage \"%s\" of StageSet %s/%s from %s to "
				 "%s while, at the median modelled durations, that stage soaks the revision of %s "
				 "(from about %s): a running soak keeps the deadline it first got, so it ends at "
				 "about %s, not %s",
				 scn_event_type_name(e->type), a, v[i].stage, v[i].ss->ns, v[i].ss->name, b,
				 v[i].new_ms ? c : "none", what, d, f,
				 v[i].new_ms < v[i].old_ms && e->at_ms >= start + v[i].new_ms ? "at once" : g);
		}
		free(pub);
	}
	free(v);
}

/* -------------------------------------------------------------- MS239 */

/*
 * The value annotation @key of StageSet @ss has after the inputs and the
 * annotate events firing before (@at_ms, @index) (time, then file order),
 * NULL when none.
 */
static const char *annotation_upto(const struct scenario *s, const struct obj *ss, int64_t at_ms, size_t index,
				   const char *key)
{
	const char *v = obj_strmap_get(&ss->annotations, key);

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];

		if (e->type != SCN_EV_ANNOTATE || strcmp(e->target.kind, "StageSet") ||
		    strcmp(e->target.ns, ss->ns) || strcmp(e->target.name, ss->name))
			continue;
		if (e->at_ms > at_ms || (e->at_ms == at_ms && e->index >= index))
			continue;
		if (obj_strmap_get(&e->set, key))
			v = obj_strmap_get(&e->set, key);
		for (size_t k = 0; k < e->nremove; k++)
			if (!strcmp(e->remove[k], key))
				v = NULL;
	}
	return v;
}

/* The value annotation @key of StageSet @ss has just before event @before (inputs, then annotate events), NULL when none. */
static const char *annotation_before(const struct scenario *s, const struct obj *ss, const struct scn_event *before,
				     const char *key)
{
	return annotation_upto(s, ss, before->at_ms, before->index, key);
}

/* The version offered to @ss at @t_ms: the latest publish reaching it by then, else spec.version.value ("" none). */
static const char *offered_version(const struct scenario *s, const struct obj *ss, int64_t t_ms)
{
	const char *v = val_str(val_path(ss->spec, "version.value"), "");
	int64_t when = -1;

	for (size_t p = 0; p < s->nfevents; p++)
		if (s->fevents[p].at_ms <= t_ms && s->fevents[p].at_ms >= when && reaches(s, &s->fevents[p], ss)) {
			when = s->fevents[p].at_ms;
			v = s->fevents[p].version;
		}
	return v;
}

/*
 * MS239: a one-shot update-now (or budget-override) token is recorded as
 * handled by the pass that sees it even when a later gate of the same pass
 * holds it (R-9.1, R-10; §5 Q-11): the approval gate (approvalMode Always,
 * the offered version not approved then) or, for update-now, an exhausted
 * budget.  Told when the gate the token was meant to pass holds then.
 */
static void rule_token_burned(struct lint_report *r, const struct scenario *s, struct tzif_cache *tz)
{
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *un = obj_strmap_get(&e->set, UPDATE_NOW), *bo = obj_strmap_get(&e->set, BUDGET_OVERRIDE);
		const char *key = un ? UPDATE_NOW : BUDGET_OVERRIDE, *token = un ? un : bo;
		const struct obj *ss;
		struct lsh_windows w;
		struct lsh_budget bu;
		int64_t created;
		char at[GT_DURATION_BUFSZ], later[256] = "", why[400] = "";
		const char *offered, *approved;

		if (e->type != SCN_EV_ANNOTATE || (!un && !bo) || !*token || strcmp(e->target.kind, "StageSet"))
			continue;
		ss = stageset_before(s, e->target.ns, e->target.name, e, &created);
		if (!ss || (annotation_before(s, ss, e, key) && !strcmp(annotation_before(s, ss, e, key), token)))
			continue; /* the same token again is no fresh one */
		/* what the token was meant to pass holds now */
		if (un && (!lsh_windows_at(ss->spec, tz, s->start_unix_ms + e->at_ms, &w) || w.allowed))
			continue;
		if (!un && (!lsh_budget_at(ss->spec, s, e->at_ms, &bu) || !bu.frozen))
			continue;
		offered = offered_version(s, ss, e->at_ms);
		approved = obj_strmap_get(&e->set, APPROVED_VERSION);
		if (!approved)
			approved = annotation_before(s, ss, e, APPROVED_VERSION);
		if (!strcmp(val_str(val_path(ss->spec, "version.approvalMode"), ""), "Always") && *offered &&
		    strcmp(offered, val_str(val_path(ss->spec, "version.value"), "")) != 0 &&
		    (!approved || strcmp(approved, offered)))
			snprintf(later, sizeof(later), "the approval gate (approvalMode Always; %s is not approved "
				 "then: stages.metio.wtf/approved-version is %s%s%s)", offered, approved ? "\"" : "",
				 approved ? approved : "absent", approved ? "\"" : "");
		else if (un && lsh_budget_at(ss->spec, s, e->at_ms, &bu) && bu.frozen &&
			 !obj_strmap_get(&ss->annotations, BUDGET_OVERRIDE) && !obj_strmap_get(&e->set, BUDGET_OVERRIDE))
			snprintf(later, sizeof(later), "the error budget (remaining %g < freezeThreshold %s then)",
				 bu.remaining, bu.freeze_text);
		if (!*later)
			continue;
		if (un)
			snprintf(why, sizeof(why), "its update windows hold new revisions (%s)", w.what);
		else
			snprintf(why, sizeof(why), "its error budget is exhausted (remaining %g < freezeThreshold %s)",
				 bu.remaining, bu.freeze_text);
		gt_format_duration(e->at_ms, at, sizeof(at));
		lint_add(r, "MS239", e->file, e->mark,
			 "the annotate event at %s stamps %s \"%s\" on StageSet %s/%s, where %s, but %s holds the "
			 "pass that sees it: the token is recorded as handled all the same, and the next pass "
			 "meets the %s again",
			 at, key, token, ss->ns, ss->name, why, later, un ? "windows" : "budget");
	}
}

/* -------------------------------------------------------------- MS276 */

/* When StageSet @ss comes into being: 0 for an input, else its first apply event's time. */
static int64_t created_at(const struct scenario *s, const struct obj *ss)
{
	bool applied = false;

	/*
	 * Not a scan of the inputs' objects for @ss (a pass over all of them for
	 * each StageSet, O(n²) in a large fleet): what an apply event holds is
	 * no input object, so @ss is one exactly when no apply holds it.
	 */
	for (size_t i = 0; i < s->nevents && !applied; i++)
		applied = s->events[i].type == SCN_EV_APPLY && s->events[i].obj == ss;
	if (!applied)
		return 0;
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && scn_is_stageset(s->events[i].obj) &&
		    !strcmp(s->events[i].obj->ns, ss->ns) && !strcmp(s->events[i].obj->name, ss->name))
			return s->events[i].at_ms;
	return 0;
}

/*
 * Whether @ss's update windows or error budget defer a new revision at
 * @t_ms; @why receives which, in words.
 */
static bool defers_at(const struct scenario *s, const struct obj *ss, struct tzif_cache *tz, int64_t t_ms,
		      char *why, size_t len)
{
	struct lsh_windows w;
	struct lsh_budget b;

	if (lsh_windows_at(ss->spec, tz, s->start_unix_ms + t_ms, &w) && !w.allowed) {
		if (w.next_ms != INT64_MIN) {
			char open[GT_DURATION_BUFSZ];

			gt_format_duration(w.next_ms - s->start_unix_ms, open, sizeof(open));
			snprintf(why, len, "its update windows hold new revisions (%s) until %s", w.what, open);
		} else {
			snprintf(why, len, "its update windows hold new revisions (%s) for good", w.what);
		}
		return true;
	}
	if (lsh_budget_at(ss->spec, s, t_ms, &b) && b.frozen) {
		snprintf(why, len, "its error budget is exhausted (remaining %g < freezeThreshold %s)", b.remaining,
			 b.freeze_text);
		return true;
	}
	return false;
}

/*
 * MS276: windows and budgets are checked before the plan and the approval
 * gate (R-9, R-11, R-14; §5 Q-9), so a pass they defer leaves
 * status.pendingVersion as the last pass through the gate wrote it.  Told
 * for a publish that reaches a StageSet with approvalMode Always while
 * they defer, when the version published before it (after the StageSet's
 * first adoption, offered while they let it through, not approved by then)
 * was held for approval: pendingVersion keeps naming that one.
 */
static void rule_pending_stale(struct lint_report *r, const struct scenario *s, struct tzif_cache *tz)
{
	const struct obj **ss;
	struct strindex ix = { 0 };
	size_t n = stagesets_of(s, &ss, &ix);

	for (size_t i = 0; i < n; i++) {
		int64_t created = created_at(s, ss[i]);

		if (strcmp(val_str(val_path(ss[i]->spec, "version.approvalMode"), ""), "Always") != 0)
			continue;
		for (size_t p = 0; p < s->nfevents; p++) {
			const struct scn_fevent *pub = &s->fevents[p];
			const char *held, *approved;
			char why[400], scratch[8], t1s[GT_DURATION_BUFSZ], t2s[GT_DURATION_BUFSZ];
			int64_t t1;

			if (pub->at_ms <= created || !reaches(s, pub, ss[i]) ||
			    !defers_at(s, ss[i], tz, pub->at_ms, why, sizeof(why)))
				continue;
			t1 = latest_publish(s, ss[i], pub->at_ms - 1);
			held = offered_version(s, ss[i], pub->at_ms - 1);
			if (t1 <= created || !*held || !strcmp(held, pub->version ? pub->version : "") ||
			    defers_at(s, ss[i], tz, t1, scratch, sizeof(scratch)))
				continue; /* nothing held for approval then, or deferred itself */
			approved = annotation_upto(s, ss[i], pub->at_ms, 0, APPROVED_VERSION);
			if (approved && !strcmp(approved, held))
				continue; /* approved: it went ahead and cleared pendingVersion */
			gt_format_duration(t1, t1s, sizeof(t1s));
			gt_format_duration(pub->at_ms, t2s, sizeof(t2s));
			lint_add(r, "MS276", pub->file, pub->mark,
				 "the publish of %s at %s reaches StageSet %s/%s (approvalMode Always) while %s, and "
				 "%s, published at %s, is held for approval then: windows and budgets are checked "
				 "before the approval gate, so the passes they defer leave status.pendingVersion at "
				 "%s while the source offers %s; stagesetctl and a FleetRollout without "
				 "targetVersion (which stamps approved-version from pendingVersion) take %s for the "
				 "version waiting, and an approval of it approves a version no longer offered",
				 pub->version ? pub->version : "a version", t2s, ss[i]->ns, ss[i]->name, why, held, t1s,
				 held, pub->version ? pub->version : "the new one", held);
		}
	}
	si_release(&ix);
	free(ss);
}

/* -------------------------------------------------------------- MS240 */

/* Which gate of stage @st can abort with onFailure Rollback (AN:abortCapable), in words; NULL: none. */
static const char *aborting_gate(const struct sst_stage *st)
{
	const struct sst_promotion *p = &st->promotion;

	if (!st->has_promotion)
		return NULL;
	if (p->has_analysis && !p->analysis.dry_run && !strcmp(p->analysis.on_failure, "Rollback"))
		return "promotion analysis";
	if (p->has_restart_gate) {
		if (!strcmp(p->restart_gate.on_failure, "Rollback"))
			return "restart gate";
		for (size_t k = 0; k < p->restart_gate.nchecks; k++)
			if (!strcmp(p->restart_gate.checks[k].on_failure, "Rollback"))
				return "restart check";
	}
	if (p->has_event_gate) {
		if (!strcmp(p->event_gate.on_failure, "Rollback"))
			return "event gate";
		for (size_t k = 0; k < p->event_gate.nchecks; k++)
			if (!strcmp(p->event_gate.checks[k].on_failure, "Rollback"))
				return "event check";
	}
	return NULL;
}

/*
 * MS240: a gate's onFailure Rollback reverts the stage to the last-good
 * snapshot, which the controller records only with spec.rollbackOnFailure
 * without it the revert never happens, the stage keeps the failing
 * revision and every pass warns PromotionBlocked (S-14; §5 Q-18).
 */
static void rule_revert_impossible(struct lint_report *r, const struct obj *ss)
{
	struct sst_spec sp;
	char err[256];

	if (!ss->spec || ss->spec->type != VAL_MAP || sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t i = 0; !sp.rollback_on_failure && i < sp.nstages; i++) {
		const char *gate = aborting_gate(&sp.stages[i]);

		if (!gate)
			continue;
		lint_add(r, "MS240", ss->src.file, sp.stages[i].raw ? sp.stages[i].raw->mark : ss->src.mark,
			 "StageSet %s/%s: stage \"%s\"'s %s has onFailure Rollback, but the StageSet does not set "
			 "rollbackOnFailure, so no last-good snapshot is kept: when the gate fails, the stage "
			 "cannot be reverted, keeps the failing revision and holds PromotionBlocked, with a "
			 "Warning PromotionBlocked event on every pass",
			 ss->ns, ss->name, sp.stages[i].name, gate);
	}
	sst_spec_release(&sp);
}

/* -------------------------------------------------------------- MS241 */

/*
 * MS241: restart and event gates list pods (and events) on every pass, also
 * for a stage promoted long ago (S-13; §5 Q-16): a list error of the
 * StageSet world (spec.models.stagesets.podListErrors) within the horizon
 * turns a deployed StageSet Ready False RBACDenied (forbidden) or stalls
 * its passes in back-off (transient).
 */
static void rule_promoted_gate_reads(struct lint_report *r, const struct scenario *s, const struct obj *ss)
{
	const struct scn_sw_config *c = &s->models.world;
	struct sst_spec sp;
	char err[256];

	if (!c->nlist_errors || !ss->spec || ss->spec->type != VAL_MAP ||
	    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
		return;
	for (size_t i = 0; i < sp.nstages; i++) {
		const struct sst_stage *st = &sp.stages[i];
		bool restart = st->has_promotion && st->promotion.has_restart_gate && st->promotion.restart_gate.nchecks;
		bool events = st->has_promotion && st->promotion.has_event_gate && st->promotion.event_gate.nchecks;
		const struct scn_sw_list_error *le = NULL;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

		for (size_t k = 0; (restart || events) && k < c->nlist_errors && !le; k++) {
			const struct scn_sw_list_error *x = &c->list_errors[k];

			if ((x->ns && strcmp(x->ns, ss->ns)) || x->window.from_ms >= s->horizon_ms)
				continue;
			if ((restart && x->pods) || (events && (x->pods || x->events)))
				le = x;
		}
		if (!le)
			continue;
		gt_format_duration(le->window.from_ms, a, sizeof(a));
		if (le->window.until_ms != INT64_MAX)
			gt_format_duration(le->window.until_ms, b, sizeof(b));
		lint_add(r, "MS241", ss->src.file, st->raw ? st->raw->mark : ss->src.mark,
			 "StageSet %s/%s: stage \"%s\"'s %s lists %s on every pass, also once the stage is "
			 "promoted, and the StageSet world fails that list in namespace %s from %s%s%s (%s): %s",
			 ss->ns, ss->name, st->name, restart ? "restart gate" : "event gate",
			 restart ? "pods" : "pods and events", ss->ns, a, le->window.until_ms != INT64_MAX ? " to " : " on",
			 le->window.until_ms != INT64_MAX ? b : "", le->cls == SSC_ERR_FORBIDDEN ? "forbidden" : "transient",
			 le->cls == SSC_ERR_FORBIDDEN
				 ? "meanwhile every pass turns the StageSet Ready False RBACDenied although nothing rolls "
				   "out, which FleetRollouts read as a regression and dependsOn dependents as not ready"
				 : "meanwhile every pass ends in an error and back-off, with Ready left as it was and "
				   "nothing verified");
		break; /* the first such stage tells it */
	}
	sst_spec_release(&sp);
}

void lint_ss_holds(struct lint_report *r, const struct scenario *s)
{
	struct tzif_cache tz;

	tzif_cache_init(&tz, NULL);
	rule_edit_bypasses_freeze(r, s, &tz);
	rule_budget_invisible(r, s);
	rule_soak_edit(r, s);
	rule_token_burned(r, s, &tz);
	rule_pending_stale(r, s, &tz);
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i])) {
			rule_window_never_opens(r, s->objs[i], s->start_unix_ms, s->start_unix_ms + s->horizon_ms, &tz);
			rule_gate_before_plan(r, s->objs[i], &tz, s->start_unix_ms);
			rule_revert_impossible(r, s->objs[i]);
			rule_promoted_gate_reads(r, s, s->objs[i]);
		}
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && scn_is_stageset(s->events[i].obj)) {
			rule_window_never_opens(r, s->events[i].obj, s->start_unix_ms + s->events[i].at_ms,
						s->start_unix_ms + s->horizon_ms, &tz);
			rule_gate_before_plan(r, s->events[i].obj, &tz, s->start_unix_ms + s->events[i].at_ms);
			rule_revert_impossible(r, s->events[i].obj);
			rule_promoted_gate_reads(r, s, s->events[i].obj);
		}
	tzif_cache_release(&tz);
}
