/*
 * The FleetRollout reconcile (see fleet_rollout.h).  Functions keep the
 * upstream names in snake_case and the upstream statement order.
 */
#include "engine/fleet_rollout.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"

/* ---- small helpers ---- */

static char *xstr(const char *s)
{
	return xstrdup(s ? s : "");
}

static bool str_eq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Append @v; the capacity is implied by *@n (the next power of two), so the
 * array grows by doubling without a capacity field: a pass over 100 000
 * members would otherwise call realloc once per member.
 */
static void push_size(size_t **arr, size_t *n, size_t v)
{
	if (*n == 0 || (*n & (*n - 1)) == 0)
		*arr = xreallocarray(*arr, *n ? *n * 2 : 1, sizeof(**arr));
	(*arr)[(*n)++] = v;
}

static void push_str(char ***arr, size_t *n, char *s)
{
	*arr = xreallocarray(*arr, *n + 1, sizeof(**arr));
	(*arr)[(*n)++] = s;
}

static void free_strs(char **arr, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(arr[i]);
	free(arr);
}

/* Go's strings.Join(list, ", "). */
static char *join(char *const *list, size_t n)
{
	return xstrjoin((const char *const *)list, n, ", ");
}

/* Floor to a whole second (toward the past), as a stored metav1.Time. */
static int64_t floor_sec(int64_t ms)
{
	int64_t r = ms % 1000;

	return r < 0 ? ms - r - 1000 : ms - r;
}

char *fr_format_time(int64_t unix_ms)
{
	int64_t secs = floor_sec(unix_ms) / 1000;
	int64_t days = secs / 86400, rem = secs % 86400;
	int64_t z, era, doe, yoe, y, doy, mp, d, m;

	if (rem < 0) {
		rem += 86400;
		days--;
	}
	/* civil_from_days (proleptic Gregorian) */
	z = days + 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = z - era * 146097;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	y = yoe + era * 400;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	d = doy - (153 * mp + 2) / 5 + 1;
	m = mp < 10 ? mp + 3 : mp - 9;
	if (m <= 2)
		y++;
	if (y < 0 || y > 9999)
		return xasprintf("%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", (long long)y,
				 (long long)m, (long long)d, (long long)(rem / 3600),
				 (long long)(rem % 3600 / 60), (long long)(rem % 60));
	/* the same text without printf: one is formatted per soaking wave per pass */
	{
		char *t = xmalloc(sizeof("YYYY-MM-DDTHH:MM:SSZ"));
		int64_t f[6] = { y, m, d, rem / 3600, rem % 3600 / 60, rem % 60 };
		char *p = t;

		for (int i = 0; i < 6; i++) {
			if (i == 0) {
				*p++ = (char)('0' + f[0] / 1000);
				*p++ = (char)('0' + f[0] / 100 % 10);
			}
			*p++ = (char)('0' + f[i] / 10 % 10);
			*p++ = (char)('0' + f[i] % 10);
			*p++ = "--T::Z"[i];
		}
		*p = '\0';
		return t;
	}
}

/* ---- status lifecycle ---- */

static void wave_status_release(struct fr_wave_status *w)
{
	free(w->name);
	free(w->soak_until);
	free(w->health);
	memset(w, 0, sizeof(*w));
}

static void condition_release(struct fr_condition *c)
{
	free(c->status);
	free(c->reason);
	free(c->message);
	free(c->last_transition_time);
	memset(c, 0, sizeof(*c));
}

void fr_status_release(struct fr_status *s)
{
	if (!s)
		return;
	free(s->phase);
	free(s->current_wave);
	for (size_t i = 0; i < s->nwaves; i++)
		wave_status_release(&s->waves[i]);
	free(s->waves);
	condition_release(&s->ready);
	memset(s, 0, sizeof(*s));
}

static void wave_status_copy(struct fr_wave_status *d, const struct fr_wave_status *s)
{
	*d = *s;
	d->name = xstr(s->name);
	d->soak_until = s->soak_until ? xstrdup(s->soak_until) : NULL;
	d->health = xstr(s->health);
}

void fr_status_copy(struct fr_status *dst, const struct fr_status *src)
{
	memset(dst, 0, sizeof(*dst));
	dst->observed_generation = src->observed_generation;
	dst->phase = xstr(src->phase);
	dst->current_wave = xstr(src->current_wave);
	dst->nwaves = src->nwaves;
	dst->waves = xcalloc(src->nwaves ? src->nwaves : 1, sizeof(*dst->waves));
	for (size_t i = 0; i < src->nwaves; i++)
		wave_status_copy(&dst->waves[i], &src->waves[i]);
	dst->has_ready = src->has_ready;
	if (src->has_ready) {
		dst->ready.status = xstr(src->ready.status);
		dst->ready.reason = xstr(src->ready.reason);
		dst->ready.message = xstr(src->ready.message);
		dst->ready.last_transition_time = xstr(src->ready.last_transition_time);
		dst->ready.observed_generation = src->ready.observed_generation;
	}
}

bool fr_status_equal(const struct fr_status *a, const struct fr_status *b)
{
	if (a->observed_generation != b->observed_generation || !str_eq(a->phase, b->phase) ||
	    !str_eq(a->current_wave, b->current_wave) || a->nwaves != b->nwaves ||
	    a->has_ready != b->has_ready)
		return false;
	for (size_t i = 0; i < a->nwaves; i++) {
		const struct fr_wave_status *x = &a->waves[i], *y = &b->waves[i];

		if (!str_eq(x->name, y->name) || x->total != y->total || x->at_target != y->at_target ||
		    x->ready != y->ready || x->settled != y->settled ||
		    x->has_soak_until != y->has_soak_until ||
		    (x->has_soak_until && x->soak_until_ms != y->soak_until_ms) ||
		    !str_eq(x->health, y->health))
			return false;
	}
	if (a->has_ready &&
	    (!str_eq(a->ready.status, b->ready.status) || !str_eq(a->ready.reason, b->ready.reason) ||
	     !str_eq(a->ready.message, b->ready.message) ||
	     !str_eq(a->ready.last_transition_time, b->ready.last_transition_time) ||
	     a->ready.observed_generation != b->ready.observed_generation))
		return false;
	return true;
}

void fr_result_release(struct fr_result *r)
{
	if (!r)
		return;
	fr_status_release(&r->status);
	free(r->event_note);
	for (size_t i = 0; i < r->nactions; i++) {
		free(r->actions[i].value);
		free(r->actions[i].previous);
	}
	free(r->actions);
	free(r->patched);
	for (size_t i = 0; i < r->ngates; i++)
		free(r->gates[i].error);
	free(r->gates);
	for (size_t i = 0; i < r->nquirks; i++)
		free(r->quirks[i].text);
	free(r->quirks);
	if (!r->borrowed) {
		free(r->members);
		for (size_t i = 0; i < r->nwaves; i++)
			free(r->waves[i].idx);
	}
	free(r->waves);
	free(r->version_label);
	memset(r, 0, sizeof(*r));
}

const char *fr_outcome_name(enum fr_outcome o)
{
	switch (o) {
	case FR_OUT_INVALID_SELECTOR:
		return FR_REASON_INVALID_SELECTOR;
	case FR_OUT_MEMBERS_CONTESTED:
		return FR_REASON_MEMBERS_CONTESTED;
	case FR_OUT_GATE_UNSUPPORTED:
		return FR_REASON_GATE_UNSUPPORTED;
	case FR_OUT_MEMBERS_UNASSIGNED:
		return FR_REASON_MEMBERS_UNASSIGNED;
	case FR_OUT_HALTED:
		return FR_REASON_HALTED;
	case FR_OUT_COMPLETED:
		return FR_REASON_COMPLETED;
	case FR_OUT_PROGRESSING:
		return FR_REASON_PROGRESSING;
	case FR_OUT_PATCH_ERROR:
		return "PatchError";
	}
	return "?";
}

const char *fr_quirk_name(enum fr_quirk q)
{
	switch (q) {
	case FR_QUIRK_REGRESSION_ONE_PASS:
		return "regression-halt-one-pass";
	case FR_QUIRK_NEW_VERSION_AFTER_COMPLETED:
		return "new-version-after-completed-halts";
	case FR_QUIRK_GATE_BEFORE_OPEN:
		return "gate-queried-before-open";
	case FR_QUIRK_GATE_ON_PASSED_WAVE:
		return "gate-requeried-on-passed-wave";
	case FR_QUIRK_WAVE_REOPENED:
		return "current-wave-moved-back";
	case FR_QUIRK_ROLLBACK_NEVER_CLEARED:
		return "rollback-to-never-cleared";
	case FR_QUIRK_OVERLAPPING_WAVES:
		return "member-in-several-waves";
	case FR_QUIRK_EARLY_EXIT_FROZEN:
		return "early-exit-freezes-status";
	case FR_QUIRK_APPROVAL_OVERWRITTEN:
		return "approval-overwritten";
	case FR_QUIRK_PINNED_HOLD_MISMATCH:
		return "pinned-never-approves-held-version";
	case FR_QUIRK_HALT_EVERY_PASS:
		return "gate-halt-every-pass";
	}
	return "?";
}

static void quirk(struct fr_result *r, enum fr_quirk q, long wave, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void quirk(struct fr_result *r, enum fr_quirk q, long wave, const char *fmt, ...)
{
	va_list ap;
	struct fr_quirk_note *n;

	r->quirks = xreallocarray(r->quirks, r->nquirks + 1, sizeof(*r->quirks));
	n = &r->quirks[r->nquirks++];
	n->quirk = q;
	n->wave = wave;
	va_start(ap, fmt);
	n->text = xvasprintf(fmt, ap);
	va_end(ap);
}

/* ---- member predicates (FC:memberProgress and friends) ---- */

static const char *ss_status_str(const struct obj *ss, const char *key)
{
	return val_str(val_map_get(ss->status, key), "");
}

static const char *spec_str(const struct obj *fr, const char *key)
{
	return val_str(val_map_get(fr->spec, key), "");
}

/*
 * fleetAdopted: pinned ⇒ status.version == target; derived ⇒ no pendingVersion.
 * @target: spec.targetVersion ("" when absent), read once per pass.
 */
static bool fleet_adopted(const char *target, const struct fr_member_facts *m)
{
	if (target[0])
		return strcmp(m->version, target) == 0;
	return m->pending_version[0] == '\0';
}

/* isReady && observedGeneration == generation && no pendingUpdate.revisions. */
static bool member_ready(const struct obj *ss)
{
	const struct val *cond = obj_ready_condition(ss);
	const struct val *rev = val_map_get(val_map_get(ss->status, "pendingUpdate"), "revisions");
	size_t nrev = 0;

	if (!cond || strcmp(val_str(val_map_get(cond, "status"), ""), "True") != 0)
		return false;
	if (val_int(val_map_get(ss->status, "observedGeneration"), 0) != ss->generation)
		return false;
	if (rev && rev->type == VAL_MAP)
		nrev = rev->u.map.n;
	else if (rev && rev->type == VAL_LIST)
		nrev = rev->u.list.n;
	return nrev == 0;
}

void fr_member_facts_of(const struct obj *ss, struct fr_member_facts *out)
{
	out->version = ss_status_str(ss, "version");
	out->pending_version = ss_status_str(ss, "pendingVersion");
	out->ready = member_ready(ss);
	out->approved_version = obj_strmap_get(&ss->annotations, FR_ANN_APPROVED_VERSION);
}

/* The facts of stagesets[@i]: the caller's, else read now into @buf. */
static const struct fr_member_facts *facts_at(const struct fr_input *in, size_t i,
					      struct fr_member_facts *buf)
{
	if (in->facts)
		return &in->facts[i];
	fr_member_facts_of(in->stagesets[i], buf);
	return buf;
}

static const char *pending_at(const struct fr_input *in, size_t i)
{
	return in->facts ? in->facts[i].pending_version
			 : ss_status_str(in->stagesets[i], "pendingVersion");
}


/* fleetVersionLabel over the selected members. */
static char *fleet_version_label(const struct obj *fr, const struct fr_input *in,
				 const size_t *members, size_t n)
{
	const char *target = spec_str(fr, "targetVersion");
	const char *first = NULL;
	bool several = false;

	if (target[0])
		return xasprintf("version %s", target);
	for (size_t i = 0; i < n && !several; i++) {
		const char *v = pending_at(in, members[i]);

		if (!v[0])
			continue;
		if (!first)
			first = v;
		else if (strcmp(first, v) != 0)
			several = true;
	}
	if (several)
		return xstrdup("mixed versions");
	if (first)
		return xasprintf("version %s", first);
	return xstrdup("the current version");
}

/* ---- selection (FC:members, FC:contestedMembers) ---- */

/*
 * A value-typed LabelSelector: absent or null is Go's zero value, the empty
 * selector (matches everything); otherwise converted as apimachinery does.
 */
static int value_selector(const struct val *v, struct lbl_selector *out, char *err, size_t len)
{
	if (!v || v->type == VAL_NULL) {
		memset(out, 0, sizeof(*out));
		return LBL_OK;
	}
	return lbl_selector_from_val(v, out, err, len);
}

static int cmp_ns_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * members(): indices into in->stagesets of the StageSets @fr selects.
 * Returns 0, or -1 with *@err a new message ("selector: ...").
 */
static int members(const struct obj *fr, const struct fr_input *in,
		   const struct fr_assignment *cached, size_t **out, size_t *nout, char **err)
{
	struct lbl_selector sel, ns_sel;
	char e[LBL_ERRLEN];
	const struct val *ns_v = val_map_get(fr->spec, "namespaceSelector");
	const char **in_scope = NULL, *last_ns = NULL;
	size_t nscope = 0;
	bool last_in = false;

	*out = NULL;
	*nout = 0;
	if (value_selector(val_map_get(fr->spec, "selector"), &sel, e, sizeof(e)) != LBL_OK) {
		*err = xasprintf("selector: %s", e);
		return -1;
	}
	if (in->members_list_error) {
		lbl_selector_release(&sel);
		*err = xstrdup(in->members_list_error);
		return -1;
	}
	if (ns_v && ns_v->type != VAL_NULL) {
		if (lbl_selector_from_val(ns_v, &ns_sel, e, sizeof(e)) != LBL_OK) {
			lbl_selector_release(&sel);
			*err = xasprintf("namespaceSelector: %s", e);
			return -1;
		}
		if (cached)
			lbl_selector_release(&ns_sel);
	}
	if (cached) {
		/*
		 * the selectors parse (same errors as without it); the members are
		 * the cache's, borrowed (fr_result.borrowed)
		 */
		*out = (size_t *)cached->members;
		*nout = cached->nmembers;
		lbl_selector_release(&sel);
		return 0;
	}
	if (ns_v && ns_v->type != VAL_NULL) {
		in_scope = xcalloc(in->nnamespaces ? in->nnamespaces : 1, sizeof(*in_scope));
		for (size_t i = 0; i < in->nnamespaces; i++)
			if (lbl_matches(&ns_sel, &in->namespaces[i]->labels))
				in_scope[nscope++] = in->namespaces[i]->name;
		qsort(in_scope, nscope, sizeof(*in_scope), cmp_ns_name);
		lbl_selector_release(&ns_sel);
	}
	/*
	 * The list is in namespace order, so runs of members share a namespace:
	 * its scope is looked up once per run.  Sized for every StageSet once.
	 */
	*out = xmalloc((in->nstagesets ? in->nstagesets : 1) * sizeof(**out));
	for (size_t i = 0; i < in->nstagesets; i++) {
		const struct obj *ss = in->stagesets[i];

		if (!lbl_matches(&sel, &ss->labels))
			continue;
		if (in_scope) {
			if (!last_ns || strcmp(last_ns, ss->ns) != 0) {
				last_ns = ss->ns;
				last_in = bsearch(&ss->ns, in_scope, nscope, sizeof(*in_scope),
						  cmp_ns_name) != NULL;
			}
			if (!last_in)
				continue;
		}
		(*out)[(*nout)++] = i;
	}
	free(in_scope);
	lbl_selector_release(&sel);
	return 0;
}

/* Same keys and values: such maps match every selector alike. */
static bool same_labels(const struct obj_strmap *a, const struct obj_strmap *b)
{
	if (a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i].key, b->items[i].key) != 0 ||
		    strcmp(a->items[i].value, b->items[i].value) != 0)
			return false;
	return true;
}

static int cmp_obj_name(const void *a, const void *b)
{
	return strcmp((*(const struct obj *const *)a)->name, (*(const struct obj *const *)b)->name);
}

/* contestedMembers(): sorted "ns/name (also governed by FleetRollout <o>)" entries. */
static void contested_members(const struct fr_input *in, const size_t *mine, size_t nmine,
			      char ***out, size_t *nout)
{
	const char **claimed;
	const struct obj **others;
	bool any = false;

	*out = NULL;
	*nout = 0;
	/* the usual case, one FleetRollout: nothing to claim, no O(stagesets) table */
	for (size_t i = 0; i < in->nothers && !any; i++)
		any = strcmp(in->others[i]->name, in->fr->name) != 0;
	if (!any)
		return;
	claimed = xcalloc(in->nstagesets ? in->nstagesets : 1, sizeof(*claimed));
	others = xcalloc(in->nothers ? in->nothers : 1, sizeof(*others));
	if (in->nothers > 0)
		memcpy(others, in->others, in->nothers * sizeof(*others));
	qsort(others, in->nothers, sizeof(*others), cmp_obj_name);
	for (size_t i = 0; i < in->nothers; i++) {
		size_t *om, nom;
		char *err = NULL;

		if (strcmp(others[i]->name, in->fr->name) == 0)
			continue;
		if (members(others[i], in, NULL, &om, &nom, &err) != 0) {
			free(err); /* a malformed other rollout must not block this one */
			continue;
		}
		for (size_t j = 0; j < nom; j++)
			if (!claimed[om[j]])
				claimed[om[j]] = others[i]->name;
		free(om);
	}
	for (size_t i = 0; i < nmine; i++) {
		const struct obj *ss = in->stagesets[mine[i]];

		if (claimed[mine[i]])
			push_str(out, nout,
				 xasprintf("%s/%s (also governed by FleetRollout %s)", ss->ns, ss->name,
					   claimed[mine[i]]));
	}
	if (*nout > 1)
		qsort(*out, *nout, sizeof(**out), cmp_str_ptr);
	free(others);
	free(claimed);
}

/* gateSecretRef(): the credential a gate carries, or NULL. */
static const char *gate_secret_ref(const struct val *gate)
{
	const struct val *p, *w, *ref;

	if (!gate || gate->type == VAL_NULL)
		return NULL;
	p = val_path(gate, "source.prometheus");
	w = val_path(gate, "source.webhook");
	if (p && p->type != VAL_NULL && (ref = val_map_get(p, "secretRef")) && ref->type != VAL_NULL)
		return "source.prometheus.secretRef";
	if (w && w->type != VAL_NULL && (ref = val_map_get(w, "secretRef")) && ref->type != VAL_NULL)
		return "source.webhook.secretRef";
	return NULL;
}

/* ---- the condition (fluxcd conditions.Set) ---- */

static void set_fleet_ready(struct fr_status *st, const struct fr_status *prior, const struct obj *fr,
			    const char *status, const char *reason, const char *message,
			    const char *now_text)
{
	const struct fr_condition *old = (prior && prior->has_ready) ? &prior->ready : NULL;
	bool same = old && str_eq(old->status, status) && str_eq(old->reason, reason) &&
		    str_eq(old->message, message);

	condition_release(&st->ready);
	st->has_ready = true;
	st->ready.status = xstrdup(status);
	st->ready.reason = xstrdup(reason);
	st->ready.message = xstrdup(message);
	st->ready.last_transition_time = xstr(same ? old->last_transition_time : now_text);
	st->ready.observed_generation = fr->generation;
}

/* ---- gates (FC:evalGate) ---- */

/* A *string bound: absent or null is nil; non-strings are read by their text. */
static char *bound_text(const struct val *v)
{
	if (!v || v->type == VAL_NULL)
		return NULL;
	if (v->type == VAL_STRING)
		return xstrdup(v->u.s);
	if (v->raw)
		return xstrdup(v->raw);
	if (v->type == VAL_INT)
		return xasprintf("%lld", (long long)v->u.i);
	if (v->type == VAL_FLOAT)
		return xasprintf("%.17g", v->u.f);
	return xstrdup(""); /* a bool, map or list is no number */
}

static const char *eval_gate(const struct fr_input *in, size_t w, const struct val *gate,
			     struct fr_gate_eval *ev)
{
	char err[THR_ERRLEN] = "";
	char *min, *max;
	bool ok;
	int rc;

	ev->wave = w;
	ev->available = false;
	ev->value = 0;
	ev->error = NULL;
	if (in->gate) {
		double v = 0;

		if (in->gate(in->gate_ctx, w, gate, &v, err, sizeof(err)) != 0) {
			ev->error = xstrdup(err[0] ? err : "metric unavailable");
			return ev->verdict = FR_HEALTH_UNKNOWN;
		}
		ev->value = v;
	} else if (in->gate_values) {
		const struct fr_gate_value *gv = &in->gate_values[w];

		if (!gv->available) {
			ev->error = xstrdup(gv->error ? gv->error : "metric unavailable");
			return ev->verdict = FR_HEALTH_UNKNOWN;
		}
		ev->value = gv->value;
	} else {
		ev->error = xstrdup("no metric querier configured");
		return ev->verdict = FR_HEALTH_UNKNOWN;
	}
	ev->available = true;
	min = bound_text(val_path(gate, "threshold.min"));
	max = bound_text(val_path(gate, "threshold.max"));
	rc = thr_satisfied(min, max, ev->value, &ok, err, sizeof(err));
	free(min);
	free(max);
	if (rc != THR_OK) {
		ev->error = xstrdup(err);
		return ev->verdict = FR_HEALTH_UNKNOWN;
	}
	return ev->verdict = ok ? FR_HEALTH_PASSING : FR_HEALTH_FAILING;
}

/* ---- patches ---- */

/* The slot of (@m, @key) in the pass's patch index: its action + 1, or 0 where it would go. */
static size_t *patched_slot(const struct fr_result *r, size_t m, const char *key)
{
	size_t h = (m * 2 + (strcmp(key, FR_ANN_ROLLBACK_TO) == 0)) * 0x9e3779b97f4a7c15ULL;
	size_t at = h & (r->cappatched - 1);

	while (r->patched[at]) {
		const struct fr_action *a = &r->actions[r->patched[at] - 1];

		if (a->member == m && strcmp(a->annotation, key) == 0)
			break;
		at = (at + 1) & (r->cappatched - 1);
	}
	return &r->patched[at];
}

/*
 * Current value of @key on member @m, seeing this pass's earlier patches
 * (the latest one of the member and key, found through the patch index
 * rather than by scanning every patch of the pass: a wave of 100 000
 * approvals made that quadratic).
 */
static const char *member_ann(const struct fr_result *r, const struct fr_input *in, size_t m,
			      const char *key)
{
	if (r->nactions) {
		size_t at = *patched_slot(r, m, key);

		if (at)
			return r->actions[at - 1].value;
	}
	if (in->facts && strcmp(key, FR_ANN_APPROVED_VERSION) == 0)
		return in->facts[m].approved_version;
	return obj_strmap_get(&in->stagesets[m]->annotations, key);
}

/* Records action @i as the latest of its (member, annotation). */
static void patched_put(struct fr_result *r, size_t i)
{
	if ((r->nactions + 1) * 2 > r->cappatched) {
		r->cappatched = r->cappatched ? r->cappatched * 2 : 16;
		free(r->patched);
		r->patched = xcalloc(r->cappatched, sizeof(*r->patched));
		for (size_t k = 0; k < r->nactions; k++)
			if (k != i)
				*patched_slot(r, r->actions[k].member, r->actions[k].annotation) = k + 1;
	}
	*patched_slot(r, r->actions[i].member, r->actions[i].annotation) = i + 1;
}

/* Issue a patch; returns 0, or nonzero when the applier refused it. */
static int patch_member(struct fr_result *r, const struct fr_input *in, enum fr_action_kind kind,
			size_t m, size_t w, const char *key, const char *value)
{
	const char *prev = member_ann(r, in, m, key);
	struct fr_action *a;

	if (r->nactions == r->capactions) {
		r->capactions = r->capactions ? r->capactions * 2 : 8;
		r->actions = xreallocarray(r->actions, r->capactions, sizeof(*r->actions));
	}
	a = &r->actions[r->nactions++];
	a->kind = kind;
	a->member = m;
	a->wave = w;
	a->annotation = key;
	a->value = xstrdup(value);
	a->previous = prev ? xstrdup(prev) : NULL;
	patched_put(r, r->nactions - 1);
	if (in->patch && in->patch(in->patch_ctx, a) != 0) {
		r->patch_failed = true;
		return -1;
	}
	return 0;
}

/* ---- the tally (incremental S5, S6 counts and S8 candidates) ---- */

#define NO_SLOT SIZE_MAX

struct tally_wave {
	int32_t at_target; /* members of the wave adopted (fleetAdopted) */
	int32_t ready;     /* members of the wave ready (member_ready) */
	size_t *cand;      /* positions in the wave's member list an approval pass looks at */
	size_t ncand, capcand;
	bool sorted;       /* cand ascending (List order) */
	size_t *cand_at;   /* per position: its index in cand, NO_SLOT when not there */
	size_t n;          /* members of the wave */
};

/* What one StageSet contributes; as last told by fr_tally_update(). */
struct tally_member {
	uint32_t slot0, nslots; /* its (wave, position) pairs: tally.slots[slot0, slot0 + nslots) */
	int32_t ver;            /* index into tally.vers of its pendingVersion, -1 when "" */
	bool selected;          /* in the assignment's members (counted by the label) */
	bool adopted, ready, cand;
};

struct tally_slot {
	uint32_t wave;
	size_t pos;
};

struct tally_ver {
	char *v;
	size_t count; /* selected members holding it; 0: a free entry */
};

struct fr_tally {
	char *target; /* spec.targetVersion, "" when absent */
	struct tally_wave *waves;
	size_t nwaves;
	struct tally_member *m; /* one per StageSet */
	size_t nm;
	struct tally_slot *slots;
	struct tally_ver *vers;
	size_t nvers;
	size_t ndistinct; /* entries of vers with count > 0 */
};

/*
 * Whether the approval loop of S8 would do more for @m than skip it: a
 * pinned fleet notes a held version it will not approve, and any fleet
 * patches a member whose approved-version is not the version it wants.
 */
static bool approval_candidate(const char *target, const struct fr_member_facts *m)
{
	const char *want = target[0] ? target : m->pending_version;

	if (target[0] && m->pending_version[0] && strcmp(m->pending_version, target) != 0)
		return true;
	if (!want[0])
		return false;
	return !(m->approved_version && strcmp(m->approved_version, want) == 0);
}

static int32_t tally_ver_get(struct fr_tally *t, const char *v)
{
	size_t free_at = t->nvers;

	if (!v[0])
		return -1;
	for (size_t i = 0; i < t->nvers; i++) {
		if (t->vers[i].count > 0 && strcmp(t->vers[i].v, v) == 0)
			return (int32_t)i;
		if (t->vers[i].count == 0 && free_at == t->nvers)
			free_at = i;
	}
	if (free_at == t->nvers) {
		t->vers = xreallocarray(t->vers, t->nvers + 1, sizeof(*t->vers));
		t->vers[t->nvers].v = NULL;
		t->vers[t->nvers].count = 0;
		t->nvers++;
	}
	free(t->vers[free_at].v);
	t->vers[free_at].v = xstrdup(v);
	return (int32_t)free_at;
}

static void tally_ver_add(struct fr_tally *t, int32_t ver, bool add)
{
	struct tally_ver *e;

	if (ver < 0)
		return;
	e = &t->vers[ver];
	if (add) {
		if (e->count++ == 0)
			t->ndistinct++;
	} else if (--e->count == 0) {
		t->ndistinct--;
	}
}

static void tally_cand_set(struct tally_wave *tw, size_t pos, bool on)
{
	size_t at = tw->cand_at[pos];

	if (on == (at != NO_SLOT))
		return;
	if (on) {
		if (tw->ncand == tw->capcand) {
			tw->capcand = tw->capcand ? tw->capcand * 2 : 16;
			tw->cand = xreallocarray(tw->cand, tw->capcand, sizeof(*tw->cand));
		}
		tw->cand_at[pos] = tw->ncand;
		tw->cand[tw->ncand++] = pos;
		tw->sorted = tw->ncand == 1 || (tw->sorted && tw->cand[tw->ncand - 2] < pos);
		return;
	}
	/* swap-remove: the last one takes its place */
	tw->cand_at[pos] = NO_SLOT;
	if (at + 1 < tw->ncand) {
		size_t last = tw->cand[tw->ncand - 1];

		tw->cand[at] = last;
		tw->cand_at[last] = at;
		tw->sorted = false;
	}
	tw->ncand--;
}

/* Add (@sign 1) or remove (-1) what @mm contributes to the counts. */
static void tally_apply(struct fr_tally *t, const struct tally_member *mm, int sign)
{
	for (uint32_t s = 0; s < mm->nslots; s++) {
		struct tally_wave *tw = &t->waves[t->slots[mm->slot0 + s].wave];

		tw->at_target += sign * mm->adopted;
		tw->ready += sign * mm->ready;
	}
	if (mm->selected)
		tally_ver_add(t, mm->ver, sign > 0);
}

void fr_tally_update(struct fr_tally *t, size_t i, const struct fr_member_facts *m)
{
	struct tally_member *mm;
	int32_t ver;

	if (!t || i >= t->nm)
		return;
	mm = &t->m[i];
	if (!mm->selected && mm->nslots == 0)
		return;
	tally_apply(t, mm, -1);
	ver = tally_ver_get(t, m->pending_version);
	mm->ver = ver;
	mm->adopted = fleet_adopted(t->target, m);
	mm->ready = m->ready;
	mm->cand = approval_candidate(t->target, m);
	tally_apply(t, mm, +1);
	for (uint32_t s = 0; s < mm->nslots; s++) {
		const struct tally_slot *sl = &t->slots[mm->slot0 + s];

		tally_cand_set(&t->waves[sl->wave], sl->pos, mm->cand);
	}
}

struct fr_tally *fr_tally_new(const struct obj *fr, const struct fr_assignment *asg,
			      const struct fr_member_facts *facts, size_t nstagesets)
{
	struct fr_tally *t = xcalloc(1, sizeof(*t));
	uint32_t *fill;
	size_t nslots = 0;

	t->target = xstrdup(spec_str(fr, "targetVersion"));
	t->nwaves = asg->nwaves;
	t->waves = xcalloc(t->nwaves ? t->nwaves : 1, sizeof(*t->waves));
	t->nm = nstagesets;
	t->m = xcalloc(t->nm ? t->nm : 1, sizeof(*t->m));
	for (size_t i = 0; i < t->nm; i++)
		t->m[i].ver = -1;
	for (size_t k = 0; k < asg->nmembers; k++)
		t->m[asg->members[k]].selected = true;
	/* slots grouped per StageSet (counting sort), each group in wave order */
	for (size_t w = 0; w < asg->nwaves; w++) {
		for (size_t j = 0; j < asg->waves[w].n; j++)
			t->m[asg->waves[w].idx[j]].nslots++;
		nslots += asg->waves[w].n;
	}
	for (size_t i = 0, at = 0; i < t->nm; i++) {
		t->m[i].slot0 = (uint32_t)at;
		at += t->m[i].nslots;
	}
	t->slots = xcalloc(nslots ? nslots : 1, sizeof(*t->slots));
	fill = xcalloc(t->nm ? t->nm : 1, sizeof(*fill));
	for (size_t w = 0; w < asg->nwaves; w++) {
		struct tally_wave *tw = &t->waves[w];

		tw->n = asg->waves[w].n;
		tw->sorted = true;
		tw->cand_at = xmalloc((tw->n ? tw->n : 1) * sizeof(*tw->cand_at));
		for (size_t j = 0; j < tw->n; j++) {
			size_t i = asg->waves[w].idx[j];
			struct tally_slot *sl = &t->slots[t->m[i].slot0 + fill[i]++];

			tw->cand_at[j] = NO_SLOT;
			sl->wave = (uint32_t)w;
			sl->pos = j;
		}
	}
	free(fill);
	/* every member as if it had just changed (from nothing counted) */
	for (size_t i = 0; i < t->nm; i++) {
		struct tally_member *mm = &t->m[i];

		if (!mm->selected && mm->nslots == 0)
			continue;
		mm->ver = tally_ver_get(t, facts[i].pending_version);
		mm->adopted = fleet_adopted(t->target, &facts[i]);
		mm->ready = facts[i].ready;
		mm->cand = approval_candidate(t->target, &facts[i]);
		tally_apply(t, mm, +1);
		for (uint32_t s = 0; s < mm->nslots; s++) {
			const struct tally_slot *sl = &t->slots[mm->slot0 + s];

			tally_cand_set(&t->waves[sl->wave], sl->pos, mm->cand);
		}
	}
	return t;
}

void fr_tally_free(struct fr_tally *t)
{
	if (!t)
		return;
	for (size_t w = 0; w < t->nwaves; w++) {
		free(t->waves[w].cand);
		free(t->waves[w].cand_at);
	}
	free(t->waves);
	for (size_t i = 0; i < t->nvers; i++)
		free(t->vers[i].v);
	free(t->vers);
	free(t->slots);
	free(t->m);
	free(t->target);
	free(t);
}

static int cmp_size(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

/* The candidates of wave @w in List order (sorted here when they are not). */
static const size_t *tally_candidates(struct fr_tally *t, size_t w)
{
	struct tally_wave *tw = &t->waves[w];

	if (!tw->sorted) {
		qsort(tw->cand, tw->ncand, sizeof(*tw->cand), cmp_size);
		for (size_t k = 0; k < tw->ncand; k++)
			tw->cand_at[tw->cand[k]] = k;
		tw->sorted = true;
	}
	return tw->cand;
}

/*
 * fleetVersionLabel from the counts: the loop over the members stops at a
 * second distinct pendingVersion, so "mixed versions" is exactly two or
 * more distinct ones, and with one its text.
 */
static char *tally_version_label(const struct fr_tally *t)
{
	if (t->target[0])
		return xasprintf("version %s", t->target);
	if (t->ndistinct > 1)
		return xstrdup("mixed versions");
	for (size_t i = 0; i < t->nvers; i++)
		if (t->vers[i].count > 0)
			return xasprintf("version %s", t->vers[i].v);
	return xstrdup("the current version");
}

/* ---- the pass ---- */

static long wave_index(const struct val *waves, const char *name)
{
	if (!name || !name[0] || !waves || waves->type != VAL_LIST)
		return -1;
	for (size_t i = 0; i < waves->u.list.n; i++)
		if (strcmp(val_str(val_map_get(waves->u.list.items[i], "name"), ""), name) == 0)
			return (long)i;
	return -1;
}

/* The prior entry of wave @name: Go's map keeps the last entry of a name. */
static const struct fr_wave_status *prior_wave(const struct fr_status *prior, const char *name)
{
	if (!prior)
		return NULL;
	for (size_t i = prior->nwaves; i-- > 0;)
		if (str_eq(prior->waves[i].name, name))
			return &prior->waves[i];
	return NULL;
}

/* Early exit: Ready False with @msg (owned, freed), phase/currentWave/waves frozen. */
static void early_exit(struct fr_result *r, const struct fr_input *in, enum fr_outcome o,
		       const char *reason, char *msg, int64_t requeue)
{
	const char *prior_phase = in->prior ? in->prior->phase : "";

	r->outcome = o;
	set_fleet_ready(&r->status, in->prior, in->fr, "False", reason, msg, in->now_text);
	r->requeue_after_ms = requeue;
	if (prior_phase && prior_phase[0])
		quirk(r, FR_QUIRK_EARLY_EXIT_FROZEN, -1,
		      "%s leaves phase %s, currentWave and the wave counts of the last full pass in "
		      "place next to a False Ready condition; their soak deadlines are reused once the "
		      "cause clears",
		      reason, prior_phase);
	free(msg);
}

/* halt(): rollback stamps, Halted phase and condition, the Warning event, 30 s. */
static int halt(struct fr_result *r, const struct fr_input *in, size_t w, const char *wave_name,
		char *msg)
{
	const struct obj *fr = in->fr;
	const char *prev = spec_str(fr, "previousVersion");
	const struct fr_wave_members *wm = &r->waves[w];
	char *q = lbl_go_quote(wave_name);
	bool rollback = strcmp(spec_str(fr, "onRegression"), "Rollback") == 0 && prev[0];

	if (rollback) {
		for (size_t i = 0; i < wm->n; i++) {
			const char *cur = member_ann(r, in, wm->idx[i], FR_ANN_ROLLBACK_TO);

			if (cur && strcmp(cur, prev) == 0)
				continue;
			if (patch_member(r, in, FR_ACT_ROLLBACK, wm->idx[i], w, FR_ANN_ROLLBACK_TO, prev) != 0) {
				r->outcome = FR_OUT_PATCH_ERROR;
				free(q);
				free(msg);
				return FR_EPATCH;
			}
		}
		char *full = xasprintf("%s; rolling wave %s back to %s", msg, q, prev);

		free(msg);
		msg = full;
		quirk(r, FR_QUIRK_ROLLBACK_NEVER_CLEARED, (long)w,
		      "rollback-to=%s is on every member of wave %s; nothing ever removes it, the fleet "
		      "does not stay halted, members that refuse the downgrade are not reported, and in "
		      "derived mode members can oscillate between versions",
		      prev, q);
	}
	free(r->status.phase);
	r->status.phase = xstrdup(FR_PHASE_HALTED);
	free(r->status.current_wave);
	r->status.current_wave = xstrdup(wave_name);
	set_fleet_ready(&r->status, in->prior, fr, "False", FR_REASON_HALTED, msg, in->now_text);
	r->event_halted = true;
	r->event_note = msg;
	r->outcome = FR_OUT_HALTED;
	r->requeue_after_ms = FR_REQUEUE_MS;
	free(q);
	return FR_OK;
}

/* requeueAfter(): the remaining soak when under 30 s, else 30 s. */
static int64_t requeue_after(const struct fr_status *st, const int64_t *until, int64_t now)
{
	for (size_t w = 0; w < st->nwaves; w++) {
		const struct fr_wave_status *ws = &st->waves[w];

		if (ws->settled && ws->has_soak_until && until[w] > now && until[w] - now < FR_REQUEUE_MS)
			return until[w] - now;
	}
	return FR_REQUEUE_MS;
}

/* Fill soakUntil texts and floor the stored deadlines; compare with the prior status. */
static void finish_status(struct fr_result *r, const struct fr_input *in)
{
	struct fr_status empty = { 0 };

	for (size_t i = 0; i < r->status.nwaves; i++) {
		struct fr_wave_status *ws = &r->status.waves[i];

		free(ws->soak_until);
		ws->soak_until = NULL;
		if (ws->has_soak_until) {
			ws->soak_until_ms = floor_sec(ws->soak_until_ms);
			ws->soak_until = fr_format_time(ws->soak_until_ms);
		}
	}
	empty.phase = empty.current_wave = (char *)"";
	r->status_changed = !fr_status_equal(&r->status, in->prior ? in->prior : &empty);
}

static const struct val *spec_waves(const struct obj *fr)
{
	const struct val *w = val_map_get(fr->spec, "waves");

	return (w && w->type == VAL_LIST) ? w : NULL;
}

int fr_reconcile(const struct fr_input *in, struct fr_result *out)
{
	const struct obj *fr = in->fr;
	const struct val *waves = spec_waves(fr);
	size_t nwaves = waves ? waves->u.list.n : 0;
	struct lbl_selector *wave_sel = NULL;
	const struct obj_strmap *prev_labels = NULL;
	bool *hit = NULL;
	const char *target = spec_str(fr, "targetVersion");
	const char *prior_phase = in->prior && in->prior->phase ? in->prior->phase : "";
	long prior_cur = in->prior ? wave_index(waves, in->prior->current_wave) : -1;
	int64_t *until = NULL;
	char *err = NULL, **list = NULL;
	size_t nlist = 0, noverlap = 0, first_overlap = 0;
	long first_open = -1;
	int rc = FR_OK;
	struct fr_tally *tally = in->assignment && in->facts ? in->tally : NULL;

	memset(out, 0, sizeof(*out));
	out->first_open = -1;
	out->borrowed = in->assignment != NULL;
	/* S0: observedGeneration; phase, currentWave and waves start as before */
	if (in->prior) {
		fr_status_copy(&out->status, in->prior);
	} else {
		out->status.phase = xstrdup("");
		out->status.current_wave = xstrdup("");
		out->status.waves = xcalloc(1, sizeof(*out->status.waves));
	}
	out->status.observed_generation = fr->generation;

	/* S1 */
	if (members(fr, in, in->assignment, &out->members, &out->nmembers, &err) != 0) {
		early_exit(out, in, FR_OUT_INVALID_SELECTOR, FR_REASON_INVALID_SELECTOR, err, 0);
		goto out_finish;
	}
	/* S2 */
	contested_members(in, out->members, out->nmembers, &list, &nlist);
	if (nlist > 0) {
		char *joined = join(list, nlist);

		early_exit(out, in, FR_OUT_MEMBERS_CONTESTED, FR_REASON_MEMBERS_CONTESTED,
			   xasprintf("%zu selected StageSet(s) are governed by another FleetRollout: %s",
				     nlist, joined),
			   FR_REQUEUE_MS);
		free(joined);
		goto out_free_list;
	}
	/* S3 */
	wave_sel = xcalloc(nwaves ? nwaves : 1, sizeof(*wave_sel));
	for (size_t w = 0; w < nwaves; w++) {
		const struct val *wv = waves->u.list.items[w];
		char e[LBL_ERRLEN];
		char *q; /* the quoted wave name, made only for a message */
		const char *ref;

		/*
		 * a cached assignment was made by a pass over this spec that got
		 * past S4: the selectors parse (and are not needed)
		 */
		if (!in->assignment &&
		    value_selector(val_map_get(wv, "selector"), &wave_sel[w], e, sizeof(e)) != LBL_OK) {
			q = lbl_go_quote(val_str(val_map_get(wv, "name"), ""));
			early_exit(out, in, FR_OUT_INVALID_SELECTOR, FR_REASON_INVALID_SELECTOR,
				   xasprintf("wave %s selector: %s", q, e), 0);
			free(q);
			goto out_free_sel;
		}
		ref = gate_secret_ref(val_map_get(wv, "gate"));
		if (ref) {
			q = lbl_go_quote(val_str(val_map_get(wv, "name"), ""));
			early_exit(out, in, FR_OUT_GATE_UNSUPPORTED, FR_REASON_GATE_UNSUPPORTED,
				   xasprintf("wave %s gate %s: a FleetRollout is cluster-scoped, so it has "
					     "no namespace to resolve a bearer-token Secret in; expose the "
					     "metric without authentication, or gate the rollout on a "
					     "StageSet-level source that carries one",
					     q, ref),
				   0);
			free(q);
			goto out_free_sel;
		}
	}
	/* S4: a member goes into every wave that matches it */
	if (tally && tally->nwaves != nwaves)
		tally = NULL; /* not this spec's: cannot happen while the caller keeps it current */
	out->nwaves = nwaves;
	out->waves = xcalloc(nwaves ? nwaves : 1, sizeof(*out->waves));
	/*
	 * Neighbours in List order often carry the same labels (one namespace,
	 * one ring): their waves are the previous member's, without matching
	 * every wave selector again.
	 */
	if (in->assignment) {
		/* the cache was taken from a pass whose S4 assigned every member */
		for (size_t w = 0; w < nwaves && w < in->assignment->nwaves; w++) {
			const struct fr_wave_members *cw = &in->assignment->waves[w];

			out->waves[w].n = cw->n;
			out->waves[w].idx = cw->idx; /* borrowed (fr_result.borrowed) */
		}
		noverlap = in->assignment->noverlap;
		first_overlap = in->assignment->first_overlap;
	}
	hit = xcalloc(nwaves ? nwaves : 1, sizeof(*hit));
	for (size_t i = 0; !in->assignment && i < out->nmembers; i++) {
		const struct obj *ss = in->stagesets[out->members[i]];
		size_t matched = 0;

		if (!prev_labels || !same_labels(prev_labels, &ss->labels))
			for (size_t w = 0; w < nwaves; w++)
				hit[w] = lbl_matches(&wave_sel[w], &ss->labels);
		prev_labels = &ss->labels;
		for (size_t w = 0; w < nwaves; w++)
			if (hit[w]) {
				push_size(&out->waves[w].idx, &out->waves[w].n, out->members[i]);
				matched++;
			}
		if (matched == 0)
			push_str(&list, &nlist, xasprintf("%s/%s", ss->ns, ss->name));
		if (matched > 1 && noverlap++ == 0)
			first_overlap = out->members[i];
	}
	free(hit);
	out->noverlap = noverlap;
	out->first_overlap = first_overlap;
	if (nlist > 0) {
		char *joined;

		qsort(list, nlist, sizeof(*list), cmp_str_ptr);
		joined = join(list, nlist);
		early_exit(out, in, FR_OUT_MEMBERS_UNASSIGNED, FR_REASON_MEMBERS_UNASSIGNED,
			   xasprintf("%zu selected StageSet(s) match no wave: %s", nlist, joined),
			   FR_REQUEUE_MS);
		free(joined);
		goto out_free_sel;
	}
	if (noverlap > 0)
		quirk(out, FR_QUIRK_OVERLAPPING_WAVES, -1,
		      "%zu member(s) match several wave selectors (first: %s/%s); each is counted and "
		      "approved in every matching wave, and no error is reported",
		      noverlap, in->stagesets[first_overlap]->ns, in->stagesets[first_overlap]->name);

	/* S5 */
	out->version_label = tally ? tally_version_label(tally)
				   : fleet_version_label(fr, in, out->members, out->nmembers);

	/* S6 PASS 1: fresh entries; soakUntil carried while settled, else cleared; health carried */
	for (size_t i = 0; i < out->status.nwaves; i++)
		wave_status_release(&out->status.waves[i]);
	free(out->status.waves);
	out->status.waves = xcalloc(nwaves ? nwaves : 1, sizeof(*out->status.waves));
	out->status.nwaves = nwaves;
	until = xcalloc(nwaves ? nwaves : 1, sizeof(*until));
	for (size_t w = 0; w < nwaves; w++) {
		struct fr_wave_status *ws = &out->status.waves[w];
		const char *name = val_str(val_map_get(waves->u.list.items[w], "name"), "");
		const struct fr_wave_status *prev = prior_wave(in->prior, name);

		ws->name = xstrdup(name);
		ws->total = (int32_t)out->waves[w].n;
		if (tally) {
			ws->at_target = tally->waves[w].at_target;
			ws->ready = tally->waves[w].ready;
		}
		for (size_t i = 0; !tally && i < out->waves[w].n; i++) {
			struct fr_member_facts buf;
			const struct fr_member_facts *m = facts_at(in, out->waves[w].idx[i], &buf);

			ws->at_target += fleet_adopted(target, m);
			ws->ready += m->ready;
		}
		ws->settled = ws->at_target == ws->total && ws->ready == ws->total;
		ws->health = xstr(prev ? prev->health : "");
		if (ws->settled) {
			ws->has_soak_until = true;
			if (prev && prev->has_soak_until)
				until[w] = prev->soak_until_ms;
			else
				until[w] = in->now_ms + (in->wave_soak_ms ? in->wave_soak_ms[w] : 0);
			ws->soak_until_ms = until[w];
		}
	}

#define QUOTED() (q ? q : (q = lbl_go_quote(ws->name)))
	/* S7 PASS 2: regression, soak, gate — every wave, in order */
	for (size_t w = 0; w < nwaves; w++) {
		struct fr_wave_status *ws = &out->status.waves[w];
		const struct fr_wave_status *prev = prior_wave(in->prior, ws->name);
		const struct val *gate = val_map_get(waves->u.list.items[w], "gate");
		bool passed = false;
		char *q = NULL; /* lbl_go_quote(ws->name), made when a message needs it */

		if (prev && prev->has_soak_until && !ws->settled) {
			if (strcmp(prior_phase, FR_PHASE_COMPLETED) == 0)
				quirk(out, FR_QUIRK_NEW_VERSION_AFTER_COMPLETED, (long)w,
				      "the fleet had Completed; wave %s became unsettled (a new version, a "
				      "pinned re-target, a new member or a member no longer Ready), which "
				      "upstream treats as a regression: one Halted pass and a Warning event "
				      "before the rollout proceeds",
				      QUOTED());
			quirk(out, FR_QUIRK_REGRESSION_ONE_PASS, (long)w,
			      "wave %s regressed and the fleet halted, but this halt lasts one pass: the "
			      "halting pass cleared the wave's soak deadline, so the next pass reports "
			      "InProgress even if nothing recovered",
			      QUOTED());
			rc = halt(out, in, w, ws->name,
				  xasprintf("wave %s regressed: a member is no longer adopted and Ready", QUOTED()));
			free(q);
			goto out_free_until;
		}
		if (ws->settled && in->now_ms >= until[w]) {
			if (!gate || gate->type == VAL_NULL) {
				passed = true;
			} else {
				struct fr_gate_eval *ev;
				const char *verdict;

				out->gates = xreallocarray(out->gates, out->ngates + 1, sizeof(*out->gates));
				ev = &out->gates[out->ngates++];
				verdict = eval_gate(in, w, gate, ev);
				ev->wave_open = first_open == -1;
				if (first_open != -1)
					quirk(out, FR_QUIRK_GATE_BEFORE_OPEN, (long)w,
					      "the gate of wave %s was queried although the wave is not open "
					      "yet (an earlier wave has not passed); it can halt the fleet "
					      "before the wave opens",
					      QUOTED());
				else if (strcmp(prior_phase, FR_PHASE_COMPLETED) == 0 ||
					 (prior_cur >= 0 && (long)w < prior_cur &&
					  strcmp(prior_phase, FR_PHASE_IN_PROGRESS) == 0))
					quirk(out, FR_QUIRK_GATE_ON_PASSED_WAVE, (long)w,
					      "the gate of wave %s was queried again although the wave had "
					      "passed; gates of passed waves are re-queried on every pass",
					      QUOTED());
				free(ws->health);
				ws->health = xstrdup(verdict);
				if (strcmp(verdict, FR_HEALTH_PASSING) == 0) {
					passed = true;
				} else if (strcmp(verdict, FR_HEALTH_FAILING) == 0) {
					char g[THR_GBUFSZ];

					if (strcmp(prior_phase, FR_PHASE_HALTED) == 0 &&
					    prior_cur == (long)w)
						quirk(out, FR_QUIRK_HALT_EVERY_PASS, (long)w,
						      "the gate of wave %s still fails: a failing gate halts "
						      "the fleet and emits a Warning event on every pass",
						      QUOTED());
					thr_format_g(ev->value, 4, g, sizeof(g));
					rc = halt(out, in, w, ws->name,
						  xasprintf("wave %s failed its health gate: metric %s is "
							    "outside the threshold",
							    QUOTED(), g));
					free(q);
					goto out_free_until;
				}
				/* Unknown: a metric outage neither advances nor halts */
			}
		}
		if (first_open == -1 && !passed)
			first_open = (long)w;
		free(q);
	}
#undef QUOTED
	out->first_open = first_open;

	/* S8: approvals through openThrough */
	{
		long open_through = first_open == -1 ? (long)nwaves - 1 : first_open;

		for (long w = 0; w <= open_through; w++) {
			const struct fr_wave_members *wm = &out->waves[w];
			/*
			 * With a tally only the members that the loop below would not
			 * skip silently, in the same (List) order: the same patches and
			 * notes in the same order.
			 */
			const size_t *slots = tally ? tally_candidates(tally, (size_t)w) : NULL;
			size_t nslots = tally ? tally->waves[w].ncand : wm->n;

			for (size_t k = 0; k < nslots; k++) {
				size_t i = slots ? slots[k] : k;
				const struct obj *ss = in->stagesets[wm->idx[i]];
				const char *pending = pending_at(in, wm->idx[i]);
				/* fleetApprovalVersion: the pinned target, else pendingVersion */
				const char *want = target[0] ? target : pending;
				const char *cur = member_ann(out, in, wm->idx[i], FR_ANN_APPROVED_VERSION);

				if (target[0] && pending[0] && strcmp(pending, target) != 0)
					quirk(out, FR_QUIRK_PINNED_HOLD_MISMATCH, w,
					      "%s/%s holds version %s for approval, but a pinned fleet only "
					      "ever approves %s: the member stays held",
					      ss->ns, ss->name, pending, target);
				if (!want[0] || (cur && strcmp(cur, want) == 0))
					continue;
				if (cur && cur[0])
					quirk(out, FR_QUIRK_APPROVAL_OVERWRITTEN, w,
					      "the fleet overwrote approved-version=%s on %s/%s with %s",
					      cur, ss->ns, ss->name, want);
				if (patch_member(out, in, FR_ACT_APPROVE, wm->idx[i], (size_t)w,
						 FR_ANN_APPROVED_VERSION, want) != 0) {
					out->outcome = FR_OUT_PATCH_ERROR;
					rc = FR_EPATCH;
					goto out_free_until;
				}
			}
		}
	}

	/* S9 */
	free(out->status.phase);
	free(out->status.current_wave);
	if (first_open == -1) {
		char *msg = xasprintf("all %zu wave(s) have adopted %s", nwaves, out->version_label);

		out->status.phase = xstrdup(FR_PHASE_COMPLETED);
		out->status.current_wave = xstrdup("");
		set_fleet_ready(&out->status, in->prior, fr, "True", FR_REASON_COMPLETED, msg, in->now_text);
		free(msg);
		out->outcome = FR_OUT_COMPLETED;
		out->requeue_after_ms = 0;
	} else {
		const char *cw = out->status.waves[first_open].name;
		char *q = lbl_go_quote(cw);
		char *msg = xasprintf("rolling out %s; wave %s open", out->version_label, q);

		out->status.phase = xstrdup(FR_PHASE_IN_PROGRESS);
		out->status.current_wave = xstrdup(cw);
		set_fleet_ready(&out->status, in->prior, fr, "True", FR_REASON_PROGRESSING, msg,
				in->now_text);
		if (strcmp(prior_phase, FR_PHASE_COMPLETED) == 0 ||
		    (strcmp(prior_phase, FR_PHASE_IN_PROGRESS) == 0 && prior_cur >= 0 &&
		     first_open < prior_cur))
			quirk(out, FR_QUIRK_WAVE_REOPENED, first_open,
			      "currentWave moved back to %s: an earlier wave is un-passed again (its gate "
			      "is no longer Passing, or its members changed)",
			      q);
		free(msg);
		free(q);
		out->outcome = FR_OUT_PROGRESSING;
		out->requeue_after_ms = requeue_after(&out->status, until, in->now_ms);
	}

out_free_until:
	free(until);
out_free_sel:
	for (size_t w = 0; w < nwaves; w++)
		lbl_selector_release(&wave_sel[w]);
	free(wave_sel);
out_free_list:
	free_strs(list, nlist);
out_finish:
	finish_status(out, in);
	return rc;
}
