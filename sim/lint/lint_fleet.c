/*
 * The FleetRollout rules of lint (MS201..MS225): static hazards of
 * FleetRollout manifests and of the StageSets they select, each one a
 * consequence of a rule of ../shared/specs/fleetrollout-controller.md that
 * the rule's row in sim/lint/lint.c names.
 *
 * What is linted: every FleetRollout of the inputs and of `apply` events,
 * against the StageSets and Namespaces of the inputs and of `apply` events
 * (an object applied later replaces the input of the same kind, namespace
 * and name: lint looks at the cluster as the manifests describe it, not at
 * one instant of a run).
 *
 * Selection and wave assignment are the engine's: each FleetRollout is run
 * through one fr_reconcile() pass over those objects, with its gates taken
 * out (so a secretRef does not stop the pass before the assignment) and no
 * other FleetRollout (contests are worked out here from every rollout's own
 * selection, as contestedMembers does).  Thresholds, host allowlists and
 * versions go through engine/threshold.h and engine/stageset.h.  The
 * rules on a wave's timing (MS222..MS224) read the StageSet world the run
 * would use (spec.models.stagesets, resolved per StageSet and stage as the
 * world resolves it: scn_sw_resolve()) at the medians of its durations.
 *
 * Cost: O(FleetRollouts × StageSets × waves) selector matches plus sorting
 * the objects once; nothing compares members with members.
 */
#include "sim/lint/lint.h"

#include <arpa/inet.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet_rollout.h"
#include "engine/labels.h"
#include "engine/stageset.h"
#include "engine/stageset_env.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/load/dist.h"
#include "sim/lint/lint_ss_pace.h"

/* Names listed in full up to this many; beyond, the count and the first two. */
#define LIST_MAX 3

/* One FleetRollout and what its engine pass found. */
struct fleet {
	const struct obj *fr;   /* borrowed */
	struct obj *stripped;   /* copy without gates, what the pass ran on (owned) */
	struct fr_result r;     /* members and waves: indices into world.stagesets */
	bool selected;          /* the selectors convert, so S1 selected r.members */
	bool assigned;          /* the pass got through S4: r.waves is complete */
};

/* The objects lint looks at, each kind sorted by (namespace, name). */
struct world {
	const struct obj **stagesets;
	size_t nstagesets;
	const struct obj **namespaces;
	size_t nnamespaces;
	const struct obj **fleets; /* sorted by name (contest order, §2.3.2) */
	size_t nfleets;
	bool ss_refused; /* a StageSet manifest was refused: it may be what a selector missed */
};

/* ---------------------------------------------------------------- helpers */

/* A string field of a map, "" when absent or not a string. */
static const char *field_str(const struct val *m, const char *key)
{
	const struct val *v = m ? val_map_get(m, key) : NULL;

	return v && v->type == VAL_STRING ? v->u.s : "";
}

static bool present(const struct val *v)
{
	return v && v->type != VAL_NULL;
}

/* Where key @key of map @m sits; @fallback when the key is absent. */
static struct val_mark key_mark(const struct val *m, const char *key, struct val_mark fallback)
{
	const struct val_kv *kv = (m && m->type == VAL_MAP) ? val_map_get_kv(m, key) : NULL;

	if (kv && kv->key_mark.line)
		return kv->key_mark;
	if (kv && kv->v && kv->v->mark.line)
		return kv->v->mark;
	return fallback;
}

/* Where the value of key @key of map @m sits; @fallback when absent. */
static struct val_mark value_mark(const struct val *m, const char *key, struct val_mark fallback)
{
	const struct val *v = m ? val_map_get(m, key) : NULL;

	if (v && v->mark.line)
		return v->mark;
	return key_mark(m, key, fallback);
}

/* A *string bound as the engine reads it (FC:evalGate): NULL when absent. */
static char *bound_text(const struct val *v)
{
	if (!present(v))
		return NULL;
	if (v->type == VAL_STRING)
		return xstrdup(v->u.s);
	if (v->raw)
		return xstrdup(v->raw);
	if (v->type == VAL_INT)
		return xasprintf("%lld", (long long)v->u.i);
	if (v->type == VAL_FLOAT)
		return xasprintf("%.17g", v->u.f);
	return xstrdup("");
}

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

/*
 * Names the StageSets @idx (n of them, indices into w->stagesets):
 * "StageSet a/x", "3 StageSets (a/x, b/y, c/z)" or "12 StageSets (e.g. a/x,
 * b/y)".  Returns a new string.
 */
static char *stagesets_text(const struct world *w, const size_t *idx, size_t n)
{
	size_t show = n <= LIST_MAX ? n : 2, len = 64, at;
	char *s;

	for (size_t i = 0; i < show; i++)
		len += strlen(w->stagesets[idx[i]]->ns) + strlen(w->stagesets[idx[i]]->name) + 3;
	s = xmalloc(len);
	if (n == 1) {
		snprintf(s, len, "StageSet %s/%s", w->stagesets[idx[0]]->ns,
			 w->stagesets[idx[0]]->name);
		return s;
	}
	at = (size_t)snprintf(s, len, "%zu StageSets (%s", n, n > LIST_MAX ? "e.g. " : "");
	for (size_t i = 0; i < show; i++)
		at += (size_t)snprintf(s + at, len - at, "%s%s/%s", i ? ", " : "",
				       w->stagesets[idx[i]]->ns, w->stagesets[idx[i]]->name);
	snprintf(s + at, len - at, ")");
	return s;
}

/* An object and where it was listed, for a sort that keeps the last of a key. */
struct keyed {
	const struct obj *o;
	size_t pos;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = obj_cmp_key(a->o, b->o);

	if (c)
		return c;
	return a->pos < b->pos ? -1 : a->pos > b->pos;
}

/*
 * Sorts @n objects by key and keeps, of several with one key, the one
 * listed last (an `apply` event replaces the input).  qsort is not stable,
 * so the position is the last tie-break.  Returns the new count.
 */
static size_t sort_unique(const struct obj **objs, size_t n)
{
	struct keyed *k;
	size_t out = 0;

	if (n < 2)
		return n;
	k = xcalloc(n, sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		k[i].o = objs[i];
		k[i].pos = i;
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < n; i++) {
		if (i + 1 < n && obj_cmp_key(k[i].o, k[i + 1].o) == 0)
			continue; /* a later one of the same key follows */
		objs[out++] = k[i].o;
	}
	free(k);
	return out;
}

static void push_obj(const struct obj ***arr, size_t *n, const struct obj *o)
{
	if ((*n & (*n - 1)) == 0) /* 0, 1, 2, 4, ...: grow by doubling */
		*arr = xreallocarray(*arr, *n ? 2 * *n : 1, sizeof(**arr));
	(*arr)[(*n)++] = o;
}

static void world_add(struct world *w, const struct obj *o)
{
	if (!o || !o->kind)
		return;
	if (strcmp(o->kind, "StageSet") == 0)
		push_obj(&w->stagesets, &w->nstagesets, o);
	else if (strcmp(o->kind, "Namespace") == 0)
		push_obj(&w->namespaces, &w->nnamespaces, o);
	else if (strcmp(o->kind, "FleetRollout") == 0)
		push_obj(&w->fleets, &w->nfleets, o);
}

static void world_init(struct world *w, const struct scenario *s)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < s->nobjs; i++)
		world_add(w, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY)
			world_add(w, s->events[i].obj);
	w->nstagesets = sort_unique(w->stagesets, w->nstagesets);
	w->nnamespaces = sort_unique(w->namespaces, w->nnamespaces);
	w->nfleets = sort_unique(w->fleets, w->nfleets); /* cluster-scoped: by name */
	w->ss_refused = s->nrefused_ss > 0;
}

static void world_release(struct world *w)
{
	free(w->stagesets);
	free(w->namespaces);
	free(w->fleets);
}

/* The FleetRollout's waves list, or NULL. */
static const struct val *fr_waves(const struct obj *fr)
{
	const struct val *v = fr->spec ? val_map_get(fr->spec, "waves") : NULL;

	return v && v->type == VAL_LIST ? v : NULL;
}

static size_t fr_nwaves(const struct obj *fr)
{
	const struct val *v = fr_waves(fr);

	return v ? v->u.list.n : 0;
}

static const struct val *fr_wave(const struct obj *fr, size_t i)
{
	const struct val *wv = fr_waves(fr)->u.list.items[i];

	return wv && wv->type == VAL_MAP ? wv : NULL;
}

static const char *wave_name(const struct obj *fr, size_t i)
{
	return field_str(fr_wave(fr, i), "name");
}

/* ---------------------------------------------------------------- the engine pass */

/* Runs @f->fr, gates taken out, through one pass over the world. */
static void run_pass(struct fleet *f, const struct world *w)
{
	struct fr_input in;
	const struct val *waves;

	f->stripped = obj_copy(f->fr);
	waves = fr_waves(f->stripped);
	for (size_t i = 0; waves && i < waves->u.list.n; i++)
		if (waves->u.list.items[i] && waves->u.list.items[i]->type == VAL_MAP)
			val_map_del(waves->u.list.items[i], "gate");
	memset(&in, 0, sizeof(in));
	in.fr = f->stripped;
	in.stagesets = w->stagesets;
	in.nstagesets = w->nstagesets;
	in.namespaces = w->namespaces;
	in.nnamespaces = w->nnamespaces;
	in.now_ms = 0;
	in.now_text = "1970-01-01T00:00:00Z";
	fr_reconcile(&in, &f->r); /* no patch callback: nothing can fail */
	/* only S4 fills r.waves, and it runs once every selector has converted */
	f->assigned = f->r.waves != NULL && f->r.nwaves == fr_nwaves(f->fr);
}

/* ---------------------------------------------------------------- rules */

/*
 * MS213: selector, namespaceSelector and wave selectors convert (§2.3.1, S3).
 * Returns true when the two top-level ones do (S1 can select members).
 */
static bool rule_selectors(struct lint_report *r, const struct obj *fr)
{
	const char *file = fr->src.file;
	const struct val *spec = fr->spec;
	char e[LBL_ERRLEN];
	struct lbl_selector sel;
	const char *top[] = { "selector", "namespaceSelector" };
	bool ok = true;

	for (size_t k = 0; k < 2; k++) {
		const struct val *v = spec ? val_map_get(spec, top[k]) : NULL;

		if (!present(v))
			continue;
		if (lbl_selector_from_val(v, &sel, e, sizeof(e)) != LBL_OK) {
			lint_add(r, "MS213", file, value_mark(spec, top[k], fr->src.mark),
				 "FleetRollout %s %s: %s; the controller stops with InvalidSelector "
				 "and never retries",
				 fr->name, top[k], e);
			ok = false;
			continue;
		}
		lbl_selector_release(&sel);
	}
	for (size_t i = 0; i < fr_nwaves(fr); i++) {
		const struct val *wv = fr_wave(fr, i);
		const struct val *v = wv ? val_map_get(wv, "selector") : NULL;

		if (!present(v))
			continue;
		if (lbl_selector_from_val(v, &sel, e, sizeof(e)) != LBL_OK) {
			lint_add(r, "MS213", file, value_mark(wv, "selector", fr->src.mark),
				 "FleetRollout %s wave \"%s\" selector: %s; the controller stops with "
				 "InvalidSelector and never retries",
				 fr->name, wave_name(fr, i), e);
			continue;
		}
		lbl_selector_release(&sel);
	}
	return ok;
}

/* A wave's name and index, sorted to find repeated names. */
struct named {
	const char *name;
	size_t idx;
};

static int cmp_named(const void *pa, const void *pb)
{
	const struct named *a = pa, *b = pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* MS211: wave names are unique (status list-map key, §1.5, §6 #19). */
static void rule_duplicate_names(struct lint_report *r, const struct obj *fr)
{
	size_t n = fr_nwaves(fr);
	struct named *order;

	if (n < 2)
		return;
	/* sorted by (name, index): each name's waves in a run, its first wave leading */
	order = xcalloc(n, sizeof(*order));
	for (size_t i = 0; i < n; i++) {
		order[i].name = wave_name(fr, i);
		order[i].idx = i;
	}
	qsort(order, n, sizeof(*order), cmp_named);
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && strcmp(order[b].name, order[a].name) == 0; b++)
			lint_add(r, "MS211", fr->src.file,
				 value_mark(fr_wave(fr, order[b].idx), "name", fr->src.mark),
				 "FleetRollout %s waves[%zu] repeats the name \"%s\" of waves[%zu]; the "
				 "status list is keyed by wave name, so every status write is refused and "
				 "the controller retries forever",
				 fr->name, order[b].idx, order[b].name, order[a].idx);
	}
	free(order);
}

/* Go's net.IP checks the dialer applies (§2.3.7 step 4), on an IPv4 address. */
static const char *refused_v4(const unsigned char *a)
{
	if (a[0] == 127)
		return "is a loopback address";
	if (a[0] == 169 && a[1] == 254)
		return "is a link-local address";
	if (a[0] >= 224 && a[0] <= 239)
		return "is a multicast address";
	if (a[0] == 0 && a[1] == 0 && a[2] == 0 && a[3] == 0)
		return "is the unspecified address";
	return NULL;
}

/*
 * Why the fleet's dialer refuses @host, or NULL: only literal addresses (and
 * "localhost") can be judged without resolving names.
 */
static const char *refused_host(const char *host)
{
	static const unsigned char zero[16];
	unsigned char a[16];

	if (strcmp(host, "localhost") == 0)
		return "resolves to a loopback address";
	if (inet_pton(AF_INET, host, a) == 1)
		return refused_v4(a);
	if (inet_pton(AF_INET6, host, a) != 1)
		return NULL;
	if (memcmp(a, zero, 10) == 0 && a[10] == 0xff && a[11] == 0xff)
		return refused_v4(a + 12); /* ::ffff:a.b.c.d */
	if (memcmp(a, zero, 15) == 0 && a[15] == 1)
		return "is a loopback address";
	if (memcmp(a, zero, 16) == 0)
		return "is the unspecified address";
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
		return "is a link-local address";
	if (a[0] == 0xff)
		return "is a multicast address";
	return NULL;
}

/*
 * Whether a parsed bound @v (@text NULL: absent) can fail a finite value:
 * the comparisons value < min and value > max are false for a NaN bound, and
 * for min -Inf or max +Inf (the querier never returns NaN or ±Inf, §2.3.7).
 */
static bool bound_limits(const char *text, double v, bool is_max)
{
	if (!text || isnan(v))
		return false;
	return is_max ? !(isinf(v) && v > 0) : !(isinf(v) && v < 0);
}

/* MS205, MS215, MS221: the bounds parse as ParseFloat does, and leave room for a value (§1.4). */
static void rule_threshold(struct lint_report *r, const struct obj *fr, size_t i,
			   const struct val *gate)
{
	const struct val *th = val_map_get(gate, "threshold");
	const char *names[2] = { "min", "max" };
	char *text[2];
	double v[2] = { 0, 0 };
	int rc[2];

	if (!th || th->type != VAL_MAP)
		return;
	for (size_t k = 0; k < 2; k++) {
		text[k] = bound_text(val_map_get(th, names[k]));
		rc[k] = text[k] ? thr_parse_float(text[k], &v[k]) : THR_OK;
	}
	for (size_t k = 0; k < 2; k++) {
		char err[THR_ERRLEN];

		if (!text[k] || rc[k] == THR_OK)
			continue;
		thr_parse_float_error(text[k], rc[k], err, sizeof(err));
		lint_add(r, "MS205", fr->src.file, value_mark(th, names[k], fr->src.mark),
			 "FleetRollout %s wave \"%s\" gate threshold %s \"%s\" is not a number (%s); "
			 "the gate never passes: its verdict is Unknown%s, so the wave is held "
			 "forever",
			 fr->name, wave_name(fr, i), names[k], text[k], err,
			 k == 1 && text[0] && rc[0] == THR_OK ? " once a value reaches min" : "");
	}
	if (text[0] && text[1] && rc[0] == THR_OK && rc[1] == THR_OK && v[0] > v[1])
		lint_add(r, "MS215", fr->src.file, value_mark(gate, "threshold", fr->src.mark),
			 "FleetRollout %s wave \"%s\" gate threshold min %s is above max %s: every "
			 "value fails, so the fleet halts once the wave is settled and soaked",
			 fr->name, wave_name(fr, i), text[0], text[1]);
	if ((!text[0] || rc[0] == THR_OK) && (!text[1] || rc[1] == THR_OK) &&
	    !bound_limits(text[0], v[0], false) && !bound_limits(text[1], v[1], true)) {
		if (!text[0] && !text[1])
			lint_add(r, "MS221", fr->src.file, key_mark(gate, "threshold", fr->src.mark),
				 "FleetRollout %s wave \"%s\" gate threshold sets neither min nor max: "
				 "every value passes, so the gate never halts the fleet",
				 fr->name, wave_name(fr, i));
		else
			lint_add(r, "MS221", fr->src.file, value_mark(gate, "threshold", fr->src.mark),
				 "FleetRollout %s wave \"%s\" gate threshold%s%s%s%s admits every value "
				 "(a NaN bound never fails, min -Inf and max +Inf hold every number): the "
				 "gate never halts the fleet",
				 fr->name, wave_name(fr, i), text[0] ? " min " : "",
				 text[0] ? text[0] : "", text[1] ? " max " : "", text[1] ? text[1] : "");
	}
	free(text[0]);
	free(text[1]);
}

/* MS206, MS216: the address the querier would use (§2.3.7 steps 1, 2, 4). */
static void rule_address(struct lint_report *r, const struct scenario *s, const struct obj *fr,
			 size_t i, const struct val *src, const char *key)
{
	const struct val *av = val_map_get(src, key);
	const char *address = av && av->type == VAL_STRING ? av->u.s : NULL;
	struct val_mark m = value_mark(src, key, fr->src.mark);
	char host[512];
	const char *why;

	if (!address)
		return; /* admission requires it: nothing to add */
	if (thr_url_hostname(address, host, sizeof(host)) != THR_OK) {
		lint_add(r, "MS216", fr->src.file, m,
			 "FleetRollout %s wave \"%s\" gate %s \"%s\" is not an http(s) URL with a "
			 "host; every query fails, the verdict is Unknown and the wave is held "
			 "forever",
			 fr->name, wave_name(fr, i), key, address);
		return;
	}
	if ((why = refused_host(host)) != NULL) {
		lint_add(r, "MS216", fr->src.file, m,
			 "FleetRollout %s wave \"%s\" gate %s host %s %s, which the controller "
			 "refuses to dial; the verdict is Unknown and the wave is held forever",
			 fr->name, wave_name(fr, i), key, host, why);
		return;
	}
	if (s->fleet.nallowed_action_hosts > 0 &&
	    !thr_host_allowed((const char *const *)s->fleet.allowed_action_hosts,
			      s->fleet.nallowed_action_hosts, host)) {
		char list[256];
		size_t at = 0;

		list[0] = '\0';
		for (size_t k = 0; k < s->fleet.nallowed_action_hosts && at < sizeof(list); k++)
			at += (size_t)snprintf(list + at, sizeof(list) - at, "%s%s", k ? ", " : "",
					       s->fleet.allowed_action_hosts[k]);
		lint_add(r, "MS206", fr->src.file, m,
			 "FleetRollout %s wave \"%s\" gate %s host %s is not in the allowed action "
			 "hosts (%s); every query is refused, the verdict is Unknown and the wave is "
			 "held forever",
			 fr->name, wave_name(fr, i), key, host, list);
	}
}

/* MS204, MS214, MS220 and the address and threshold rules, per wave gate. */
static void rule_gates(struct lint_report *r, const struct scenario *s, const struct obj *fr)
{
	for (size_t i = 0; i < fr_nwaves(fr); i++) {
		const struct val *wv = fr_wave(fr, i);
		const struct val *gate = wv ? val_map_get(wv, "gate") : NULL;
		const struct val *src, *prom, *hook, *ref;
		struct val_mark gm;

		if (!gate || gate->type != VAL_MAP)
			continue;
		gm = key_mark(wv, "gate", fr->src.mark);
		src = val_map_get(gate, "source");
		prom = src && src->type == VAL_MAP ? val_map_get(src, "prometheus") : NULL;
		hook = src && src->type == VAL_MAP ? val_map_get(src, "webhook") : NULL;
		if (!present(prom))
			prom = NULL;
		if (!present(hook))
			hook = NULL;
		/* gateSecretRef: prometheus first */
		if (prom && present(ref = val_map_get(prom, "secretRef")))
			lint_add(r, "MS204", fr->src.file, key_mark(prom, "secretRef", gm),
				 "FleetRollout %s wave \"%s\" gate source.prometheus.secretRef: a "
				 "cluster-scoped FleetRollout has no namespace to read the Secret in; the "
				 "controller stops with GateUnsupported and approves nothing",
				 fr->name, wave_name(fr, i));
		else if (hook && present(ref = val_map_get(hook, "secretRef")))
			lint_add(r, "MS204", fr->src.file, key_mark(hook, "secretRef", gm),
				 "FleetRollout %s wave \"%s\" gate source.webhook.secretRef: a "
				 "cluster-scoped FleetRollout has no namespace to read the Secret in; the "
				 "controller stops with GateUnsupported and approves nothing",
				 fr->name, wave_name(fr, i));
		if (!prom && !hook)
			lint_add(r, "MS214", fr->src.file, key_mark(gate, "source", gm),
				 "FleetRollout %s wave \"%s\" gate source has neither prometheus nor "
				 "webhook; every verdict is Unknown and the wave is held forever",
				 fr->name, wave_name(fr, i));
		if (prom && hook)
			lint_add(r, "MS220", fr->src.file, key_mark(src, "webhook", gm),
				 "FleetRollout %s wave \"%s\" gate source sets both prometheus and "
				 "webhook; the controller queries prometheus and never the webhook",
				 fr->name, wave_name(fr, i));
		if (prom)
			rule_address(r, s, fr, i, prom, "address");
		else if (hook)
			rule_address(r, s, fr, i, hook, "url");
		rule_threshold(r, fr, i, gate);
	}
}

static bool is_rollback(const struct obj *fr)
{
	return strcmp(field_str(fr->spec, "onRegression"), "Rollback") == 0 &&
	       field_str(fr->spec, "previousVersion")[0] != '\0';
}

/* MS207, MS218, MS219: the versions of the spec (§2.6, §2.8, §3.2, §3.4, §6 #3-5). */
static void rule_versions(struct lint_report *r, const struct obj *fr)
{
	const struct val *spec = fr->spec;
	const char *target = field_str(spec, "targetVersion");
	const char *prev = field_str(spec, "previousVersion");
	struct ss_semver v;
	char err[256];
	bool target_ok = false;

	if (target[0]) {
		target_ok = ss_semver_parse(target, &v, err, sizeof(err)) == SS_OK;
		if (!target_ok)
			lint_add(r, "MS219", fr->src.file,
				 value_mark(spec, "targetVersion", fr->src.mark),
				 "FleetRollout %s targetVersion \"%s\" is not a semantic version (%s): "
				 "a StageSet only adopts semantic versions, so no member ever reaches "
				 "it and the first wave never settles",
				 fr->name, target, err);
	}
	if (!is_rollback(fr))
		return;
	if (!target[0])
		lint_add(r, "MS207", fr->src.file, value_mark(spec, "onRegression", fr->src.mark),
			 "FleetRollout %s: onRegression Rollback without targetVersion: each new "
			 "version after Completed trips a regression halt that stamps rollback-to "
			 "%s, which is never removed, and this fleet approves whatever members hold, "
			 "so they roll back, upgrade again and roll back again",
			 fr->name, prev);
	if (ss_semver_parse(prev, &v, err, sizeof(err)) != SS_OK)
		lint_add(r, "MS218", fr->src.file, value_mark(spec, "previousVersion", fr->src.mark),
			 "FleetRollout %s previousVersion \"%s\" is not a semantic version (%s): "
			 "members ignore the rollback-to annotation, so a halt rolls nothing back",
			 fr->name, prev, err);
	else if (target_ok && !ss_rollback_directive(prev, target))
		lint_add(r, "MS218", fr->src.file, value_mark(spec, "previousVersion", fr->src.mark),
			 "FleetRollout %s previousVersion %s is not below targetVersion %s: members "
			 "at the target ignore the rollback-to annotation, so a halt rolls nothing "
			 "back",
			 fr->name, prev, target);
}

/* ---------------------------------------------------------------- member rules */

static const struct val *ss_version(const struct obj *ss)
{
	const struct val *v = ss->spec ? val_map_get(ss->spec, "version") : NULL;

	return v && v->type == VAL_MAP ? v : NULL;
}

static bool ss_always(const struct obj *ss)
{
	return strcmp(field_str(ss_version(ss), "approvalMode"), "Always") == 0;
}

static bool ss_downgrade(const struct obj *ss)
{
	const struct val *v = ss_version(ss);

	return val_bool(v ? val_map_get(v, "allowDowngrade") : NULL, false);
}

/* Where @ss sets spec.version.@key, or the nearest thing that is there. */
static struct val_mark ss_mark(const struct obj *ss, const char *key)
{
	const struct val *v = ss_version(ss);

	if (v)
		return value_mark(v, key, key_mark(ss->spec, "version", ss->src.mark));
	return ss->src.mark;
}

/* A (wave or FleetRollout, member) pair, sorted to group members by the first. */
struct claim {
	size_t by; /* index into spec.waves or world.fleets */
	size_t ss; /* index into world.stagesets */
};

static int cmp_claim(const void *pa, const void *pb)
{
	const struct claim *a = pa, *b = pb;

	if (a->by != b->by)
		return a->by < b->by ? -1 : 1;
	return a->ss < b->ss ? -1 : a->ss > b->ss;
}

/*
 * Scratch arrays of one lint_fleet() call, indexed like world.stagesets and
 * reset after each FleetRollout by walking its members only.
 */
struct scratch {
	size_t *nwaves; /* waves the StageSet is in */
	size_t *first;  /* the first of them */
	size_t *list;   /* a list of StageSet indices being built */
	struct claim *pairs; /* (first wave, StageSet) pairs of one wave */
};

/*
 * How many StageSets match @fr's spec.selector when it also has a
 * namespaceSelector (0 without one): the ones its namespaces keep out.
 */
static size_t outside_namespaces(const struct world *w, const struct obj *fr)
{
	const struct val *ns = fr->spec ? val_map_get(fr->spec, "namespaceSelector") : NULL;
	const struct val *sv = fr->spec ? val_map_get(fr->spec, "selector") : NULL;
	struct lbl_selector sel;
	size_t n = 0;

	if (!present(ns))
		return 0;
	memset(&sel, 0, sizeof(sel)); /* absent or null: everything, as the engine reads it */
	if (present(sv) && lbl_selector_from_val(sv, &sel, NULL, 0) != LBL_OK)
		return 0;
	for (size_t i = 0; i < w->nstagesets; i++)
		n += lbl_matches(&sel, &w->stagesets[i]->labels);
	lbl_selector_release(&sel);
	return n;
}

/* MS209, MS210, MS208, MS217: what the selected members are (§2.3.1 #4, §2.8, §6 #3, #24). */
static void rule_member_specs(struct lint_report *r, const struct world *w, const struct fleet *f,
			      struct scratch *sc)
{
	const struct obj *fr = f->fr;
	const char *target = field_str(fr->spec, "targetVersion");
	const char *prev = field_str(fr->spec, "previousVersion");
	size_t n = 0;
	char *who;

	if (f->r.nmembers == 0 && w->nstagesets > 0 && !w->ss_refused) {
		size_t outside = outside_namespaces(w, fr);

		if (outside > 0)
			lint_add(r, "MS217", fr->src.file,
				 value_mark(fr->spec, "namespaceSelector", fr->src.mark),
				 "FleetRollout %s selects none of the %zu %s of the inputs: %zu %s "
				 "spec.selector but not namespaceSelector (a namespace without a "
				 "Namespace object in the inputs has no labels); every wave is empty, so "
				 "it completes without approving anything",
				 fr->name, w->nstagesets, plural(w->nstagesets, "StageSet", "StageSets"),
				 outside, plural(outside, "matches", "match"));
		else
			lint_add(r, "MS217", fr->src.file,
				 value_mark(fr->spec, "selector", fr->src.mark),
				 "FleetRollout %s selects none of the %zu %s of the inputs; every wave "
				 "is empty, so it completes without approving anything",
				 fr->name, w->nstagesets, plural(w->nstagesets, "StageSet", "StageSets"));
	}

	for (size_t k = 0; k < f->r.nmembers; k++)
		if (!ss_always(w->stagesets[f->r.members[k]]))
			sc->list[n++] = f->r.members[k];
	if (n > 0) {
		const struct obj *ss = w->stagesets[sc->list[0]];

		who = stagesets_text(w, sc->list, n);
		lint_add(r, "MS209", ss->src.file, ss_mark(ss, "approvalMode"),
			 "FleetRollout %s selects %s without spec.version.approvalMode Always; %s "
			 "new versions on %s own, so the waves do not pace %s%s%s",
			 fr->name, who, plural(n, "it takes", "they take"), plural(n, "its", "their"),
			 plural(n, "it", "them"),
			 target[0] ? "" : ", and this derived fleet counts ",
			 target[0] ? "" : plural(n, "it adopted as soon as it holds nothing",
						 "them adopted as soon as they hold nothing"));
		free(who);
	}
	if (!is_rollback(fr))
		return;
	n = 0;
	for (size_t k = 0; k < f->r.nmembers; k++)
		if (!ss_downgrade(w->stagesets[f->r.members[k]]))
			sc->list[n++] = f->r.members[k];
	if (n > 0) {
		const struct obj *ss = w->stagesets[sc->list[0]];

		who = stagesets_text(w, sc->list, n);
		lint_add(r, "MS210", ss->src.file, ss_mark(ss, "allowDowngrade"),
			 "FleetRollout %s rolls back to %s on a regression, but %s %s not set "
			 "spec.version.allowDowngrade; %s the rollback-to (DowngradeNotAllowed) "
			 "and the fleet does not notice",
			 fr->name, prev, who, plural(n, "does", "do"), plural(n, "it refuses", "they refuse"));
		free(who);
	}
	if (!target[0] || !ss_rollback_directive(prev, target))
		return;
	n = 0;
	for (size_t k = 0; k < f->r.nmembers; k++) {
		const struct obj *ss = w->stagesets[f->r.members[k]];

		if (ss_always(ss) && ss_downgrade(ss))
			sc->list[n++] = f->r.members[k];
	}
	if (f->r.nmembers > 0 && n == 0)
		return; /* no member would hold the downgrade for approval */
	who = n ? stagesets_text(w, sc->list, n) : NULL;
	lint_add(r, "MS208", fr->src.file, value_mark(fr->spec, "onRegression", fr->src.mark),
		 "FleetRollout %s: onRegression Rollback with targetVersion %s: the rollback to %s is "
		 "a version transition that members under approvalMode Always hold for approval, "
		 "and this fleet only ever approves %s, so rolled-back members stay "
		 "AwaitingApproval%s%s",
		 fr->name, target, prev, target, who ? "; affected: " : "", who ? who : "");
	free(who);
}

/* MS201, MS202, MS212: the wave assignment (S4, §2.3.3, §2.3.4, §6 #6, #11). */
static void rule_assignment(struct lint_report *r, const struct world *w, const struct fleet *f,
			    struct scratch *sc)
{
	const struct obj *fr = f->fr;
	size_t nwaves = f->r.nwaves, n = 0;

	for (size_t wv = 0; wv < nwaves; wv++)
		for (size_t k = 0; k < f->r.waves[wv].n; k++) {
			size_t i = f->r.waves[wv].idx[k];

			if (sc->nwaves[i]++ == 0)
				sc->first[i] = wv;
		}
	for (size_t k = 0; k < f->r.nmembers; k++)
		if (sc->nwaves[f->r.members[k]] == 0)
			sc->list[n++] = f->r.members[k];
	if (n > 0) {
		char *who = stagesets_text(w, sc->list, n);

		lint_add(r, "MS201", fr->src.file, key_mark(fr->spec, "waves", fr->src.mark),
			 "FleetRollout %s selects %s that no wave selector matches; the controller "
			 "stops with MembersUnassigned and approves nothing",
			 fr->name, who);
		free(who);
	}
	for (size_t wv = 1; wv < nwaves; wv++) {
		/* members of wv already in an earlier wave, grouped by that first wave */
		n = 0;
		for (size_t k = 0; k < f->r.waves[wv].n; k++) {
			size_t i = f->r.waves[wv].idx[k];

			if (sc->first[i] < wv) {
				sc->pairs[n].by = sc->first[i];
				sc->pairs[n].ss = i;
				n++;
			}
		}
		qsort(sc->pairs, n, sizeof(*sc->pairs), cmp_claim);
		for (size_t a = 0, b; a < n; a = b) {
			size_t m = 0;
			char *who;

			for (b = a; b < n && sc->pairs[b].by == sc->pairs[a].by; b++)
				sc->list[m++] = sc->pairs[b].ss;
			who = stagesets_text(w, sc->list, m);
			lint_add(r, "MS202", fr->src.file,
				 value_mark(fr_wave(fr, wv), "selector", fr->src.mark),
				 "FleetRollout %s wave \"%s\" also selects %s of wave \"%s\"; a member "
				 "is approved when the first of its waves opens and counted in every wave "
				 "that selects it",
				 fr->name, wave_name(fr, wv), who, wave_name(fr, sc->pairs[a].by));
			free(who);
		}
	}
	/* a refused StageSet (MS001 says why) may be the member a wave selects */
	for (size_t wv = 0; wv < nwaves && f->r.nmembers > 0 && !w->ss_refused; wv++) {
		const struct val *wave = fr_wave(fr, wv);

		if (f->r.waves[wv].n > 0)
			continue;
		if (wave && present(val_map_get(wave, "gate")))
			lint_add(r, "MS212", fr->src.file, value_mark(wave, "selector", fr->src.mark),
				 "FleetRollout %s wave \"%s\" selects none of its %zu %s: it is "
				 "settled from the start, so its gate is queried once its soak elapses, "
				 "before the wave opens, and a Failing verdict halts the fleet",
				 fr->name, wave_name(fr, wv), f->r.nmembers,
				 plural(f->r.nmembers, "member", "members"));
		else
			lint_add(r, "MS212", fr->src.file, value_mark(wave, "selector", fr->src.mark),
				 "FleetRollout %s wave \"%s\" selects none of its %zu %s: it passes "
				 "at once, and a StageSet that joins it after it settled trips a "
				 "regression halt",
				 fr->name, wave_name(fr, wv), f->r.nmembers,
				 plural(f->r.nmembers, "member", "members"));
	}
	for (size_t k = 0; k < f->r.nmembers; k++)
		sc->nwaves[f->r.members[k]] = 0;
}

/*
 * MS203: members another FleetRollout also selects (§2.3.2).  The first
 * two rollouts (in name order) selecting each StageSet are enough: the
 * claimer of a member is the first of them that is not the rollout itself.
 */
static void rule_contested(struct lint_report *r, const struct world *w, const struct fleet *fl,
			   struct scratch *sc)
{
	const size_t none = SIZE_MAX;
	size_t *first = xmalloc((w->nstagesets ? w->nstagesets : 1) * sizeof(*first));
	size_t *second = xmalloc((w->nstagesets ? w->nstagesets : 1) * sizeof(*second));
	struct claim *claims = NULL;

	for (size_t i = 0; i < w->nstagesets; i++)
		first[i] = second[i] = none;
	for (size_t f = 0; f < w->nfleets; f++) {
		if (!fl[f].selected)
			continue; /* an other rollout whose selectors fail is skipped */
		for (size_t k = 0; k < fl[f].r.nmembers; k++) {
			size_t i = fl[f].r.members[k];

			if (first[i] == none)
				first[i] = f;
			else if (second[i] == none)
				second[i] = f;
		}
	}
	for (size_t f = 0; f < w->nfleets; f++) {
		const struct obj *fr = fl[f].fr;
		size_t nc = 0;

		if (!fl[f].selected || fl[f].r.nmembers == 0)
			continue;
		claims = xreallocarray(claims, fl[f].r.nmembers, sizeof(*claims));
		for (size_t k = 0; k < fl[f].r.nmembers; k++) {
			size_t i = fl[f].r.members[k];
			size_t by = first[i] == f ? second[i] : first[i];

			if (by != none) {
				claims[nc].by = by;
				claims[nc].ss = i;
				nc++;
			}
		}
		qsort(claims, nc, sizeof(*claims), cmp_claim);
		for (size_t a = 0, b; a < nc; a = b) {
			size_t n = 0;
			char *who;

			for (b = a; b < nc && claims[b].by == claims[a].by; b++)
				sc->list[n++] = claims[b].ss;
			who = stagesets_text(w, sc->list, n);
			lint_add(r, "MS203", fr->src.file, value_mark(fr->spec, "selector", fr->src.mark),
				 "FleetRollout %s selects %s that FleetRollout %s also selects; both "
				 "rollouts stop with MembersContested and approve nothing",
				 fr->name, who, fl[claims[a].by].fr->name);
			free(who);
		}
	}
	free(claims);
	free(first);
	free(second);
}

/* ---------------------------------------------------------------- wave timing */

/* Rounded to whole seconds, as a Go duration, into @buf (GT_DURATION_BUFSZ). */
static const char *dur(int64_t ms, char *buf)
{
	gt_format_duration((ms + 500) / 1000 * 1000, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* A duration field's value in ms when it is a Go duration above zero, else -1. */
static int64_t positive_ms(const struct val *v)
{
	const char *t = val_str(v, NULL);
	int64_t ms;

	if (!t || gt_parse_duration(t, &ms, NULL, 0) != 0 || ms <= 0)
		return -1;
	return ms;
}

int64_t lint_stage_timeout_ms(const struct val *spec, const struct val *st)
{
	int64_t ms;

	if ((ms = positive_ms(val_path(st, "readyChecks.timeout"))) > 0 ||
	    (ms = positive_ms(val_map_get(st, "timeout"))) > 0 ||
	    (ms = positive_ms(val_map_get(spec, "timeout"))) > 0)
		return ms;
	return SSC_DEFAULT_STAGE_TIMEOUT_MS;
}

static int64_t median_ms(const struct dist *d)
{
	double q = dist_quantile(d, 0.5);

	return isfinite(q) && q > 0 ? (int64_t)llround(q) : 0;
}

/* What the StageSet world makes of one member's pass towards a new version. */
struct member_time {
	int64_t hold_ms;   /* the worker held: reconcile duration + Σ stages (apply + waits) */
	double fail_p;     /* some stage's objects never get ready (Failed or stuck) */
	double reg_p;      /* a stage's workload regresses once ready (the likeliest stage) */
	int64_t reg_after_ms, reg_for_ms; /* its onset after ready and its length, medians */
};

/*
 * @ss's pass towards @version (NULL: not known statically) at the medians
 * of the StageSet world: per stage the apply, the kstatus wait for
 * readiness and, with readyChecks.exprs, the expression poll, each wait
 * cut at the stage's timeout (a pass that times out holds its worker that
 * long, StageSet spec §3.9).
 */
static void member_time(const struct scenario *s, const struct obj *ss, const char *version,
			struct member_time *mt)
{
	const struct val *stages = ss->spec ? val_map_get(ss->spec, "stages") : NULL;
	double ok = 1;

	memset(mt, 0, sizeof(*mt));
	mt->hold_ms = s->reconcile_ms;
	for (size_t k = 0; stages && stages->type == VAL_LIST && k < stages->u.list.n; k++) {
		const struct val *st = stages->u.list.items[k];
		const struct val *exprs = val_path(st, "readyChecks.exprs");
		bool has_exprs = exprs && exprs->type == VAL_LIST && exprs->u.list.n > 0;
		int64_t t = lint_stage_timeout_ms(ss->spec, st), w;
		struct scn_sw_resolved e;

		scn_sw_resolve(&s->models.world, &ss->labels, field_str(st, "name"), &e);
		mt->hold_ms += median_ms(e.apply_duration);
		w = median_ms(&e.ready_delay->delay);
		mt->hold_ms += w < t ? w : t;
		ok *= (1 - e.ready_failed->failed_probability) * (1 - e.ready_never->never_probability);
		if (has_exprs) {
			w = median_ms(&e.exprs_delay->delay);
			mt->hold_ms += w < t ? w : t;
			ok *= (1 - e.exprs_failed->failed_probability) *
			      (1 - e.exprs_never->never_probability);
		}
		if (scn_sw_regresses(&e, version) && e.reg_p->probability > mt->reg_p) {
			mt->reg_p = e.reg_p->probability;
			mt->reg_after_ms = median_ms(&e.reg_after->after);
			mt->reg_for_ms = median_ms(&e.reg_duration->duration);
		}
	}
	mt->fail_p = 1 - ok;
}

/* At least this long, the worker bound is worth a warning (MS222). */
#define WORKER_BOUND_WARN_MS INT64_C(3600000)
/* The wave length MS222 proposes to split to. */
#define WORKER_BOUND_GOAL_MS INT64_C(1800000)

/*
 * MS222, MS223, MS224: what the StageSet world makes of each wave (StageSet
 * spec §5 Q-1, §2.4; fleet spec §2.3.3, §2.3.4, §2.5).
 */
static void rule_wave_timing(struct lint_report *r, const struct scenario *s, const struct world *w,
			     const struct fleet *f)
{
	const struct obj *fr = f->fr;
	const char *target = field_str(fr->spec, "targetVersion");
	const char *version = target[0] ? target : NULL;
	struct {
		const struct val *wave; /* the first wave with a member that may fail */
		const char *name;
		const struct obj *ss;   /* its first such member */
		struct member_time mt;
		size_t n, waves;        /* such members (each wave they are in), such waves */
		double none;            /* chance that none fails */
	} fail = { .none = 1 };

	for (size_t wv = 0; wv < f->r.nwaves; wv++) {
		const struct val *wave = fr_wave(fr, wv);
		const struct fr_wave_members *m = &f->r.waves[wv];
		int64_t total = 0, max = 0, soak = positive_ms(val_map_get(wave, "soak"));
		double none_fail = 1, none_flap = 1;
		size_t nfail = 0, nflap = 0;
		const struct obj *first_fail = NULL, *first_flap = NULL;
		struct member_time ff = { 0 }, fl = { 0 };
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];

		if (!wave)
			continue;
		for (size_t k = 0; k < m->n; k++) {
			const struct obj *ss = w->stagesets[m->idx[k]];
			struct member_time mt;

			member_time(s, ss, version, &mt);
			total += mt.hold_ms;
			if (mt.hold_ms > max)
				max = mt.hold_ms;
			if (mt.fail_p > 0) {
				if (!nfail++) {
					first_fail = ss;
					ff = mt;
				}
				none_fail *= 1 - mt.fail_p;
			}
			if (soak > 0 && mt.reg_p > 0 && mt.reg_after_ms < soak) {
				if (!nflap++) {
					first_flap = ss;
					fl = mt;
				}
				none_flap *= 1 - mt.reg_p;
			}
		}
		if (m->n > SSC_CONCURRENT_RECONCILES) {
			int64_t bound = total / SSC_CONCURRENT_RECONCILES;
			int64_t mean = total / (int64_t)m->n;
			size_t fit = mean > 0 ? (size_t)(WORKER_BOUND_GOAL_MS * SSC_CONCURRENT_RECONCILES /
							 mean) : 0;

			if (bound >= WORKER_BOUND_WARN_MS && bound >= 2 * max)
				lint_add(r, "MS222", fr->src.file, value_mark(wave, "selector", fr->src.mark),
					 "FleetRollout %s wave \"%s\" has %zu members, and the StageSet "
					 "controller reconciles %d StageSets at once, each pass holding its "
					 "worker through the apply and the wait for readiness (%s a member "
					 "on average at the median modelled durations): the wave cannot "
					 "settle in less than %s (%zu × %s / %d), its soak starts only "
					 "then, and every other StageSet's requeue waits behind these "
					 "passes; at these times a wave of at most %zu members settles "
					 "within %s",
					 fr->name, wave_name(fr, wv), m->n, SSC_CONCURRENT_RECONCILES,
					 dur(mean, a), dur(bound, b), m->n, a, SSC_CONCURRENT_RECONCILES,
					 fit, dur(WORKER_BOUND_GOAL_MS, c));
		}
		if (nfail > 0) {
			if (!fail.wave) {
				fail.wave = wave;
				fail.name = wave_name(fr, wv);
				fail.ss = first_fail;
				fail.mt = ff;
			}
			fail.n += nfail;
			fail.waves++;
			fail.none *= none_fail;
		}
		if (nflap > 0)
			lint_add(r, "MS224", fr->src.file, value_mark(wave, "soak", fr->src.mark),
				 "FleetRollout %s wave \"%s\" soaks %s, and %zu of its %zu members may "
				 "regress sooner once ready (e.g. %s/%s: %.3g per version, %s after it is "
				 "ready, for %s, at the medians), %.3g that one of them does: a member "
				 "no longer Ready during the soak halts the fleet for one pass%s and "
				 "the next pass starts the soak over once it is Ready again, so a wave "
				 "whose members flap more often than every %s never ends its soak",
				 fr->name, wave_name(fr, wv), dur(soak, a), nflap, m->n, first_flap->ns,
				 first_flap->name, fl.reg_p, dur(fl.reg_after_ms, b),
				 dur(fl.reg_for_ms, c), 1 - none_flap,
				 is_rollback(fr) ? " (a regression halt that stamps rollback-to on the wave)"
						 : " (a regression halt)",
				 a);
	}
	if (fail.n > 0) {
		lint_add(r, "MS223", fr->src.file, value_mark(fail.wave, "selector", fr->src.mark),
			 "FleetRollout %s: %zu %s in %zu %s (the first: wave \"%s\") may fail to "
			 "become ready on a new version (e.g. %s/%s: %.3g per rollout, from the "
			 "modelled readiness), %.3g that one of them does; a member that fails keeps "
			 "its wave unsettled, and the FleetRollout halts only a settled wave, so it "
			 "neither halts nor %s: it stays InProgress with the wave open, and the members "
			 "that adopted the version keep it",
			 fr->name, fail.n, plural(fail.n, "member", "members"), fail.waves,
			 plural(fail.waves, "wave", "waves"), fail.name, fail.ss->ns, fail.ss->name,
			 fail.mt.fail_p, 1 - fail.none,
			 is_rollback(fr) ? "stamps rollback-to (onRegression Rollback)"
					 : "tells anyone (Ready stays True)");
	}
}

/*
 * MS225: spec.retryInterval zero or negative turns the timed retry of every
 * hold off (StageSet spec §2.3 retryInterval: any value set is taken; §2.2,
 * §5 Q-19).  Every StageSet of the inputs, selected by a fleet or not.
 */
static void rule_retry_interval(struct lint_report *r, const struct world *w)
{
	for (size_t i = 0; i < w->nstagesets; i++) {
		const struct obj *ss = w->stagesets[i];
		const char *t = val_str(ss->spec ? val_map_get(ss->spec, "retryInterval") : NULL, NULL);
		int64_t ms;

		if (!t || gt_parse_duration(t, &ms, NULL, 0) != 0 || ms > 0)
			continue;
		lint_add(r, "MS225", ss->src.file, value_mark(ss->spec, "retryInterval", ss->src.mark),
			 "StageSet %s/%s sets retryInterval %s, which turns the timed retry off: a pass "
			 "that holds for SourceNotReady, ArtifactNotFound, DependencyNotReady or "
			 "StageProgressing, at a restart, event or manual promotion gate, or for a "
			 "budget or analysis without its own interval is not retried, and the StageSet "
			 "stays so until an event wakes it (a spec edit, an approval, a watched source "
			 "changing)",
			 ss->ns, ss->name, t);
	}
}

int64_t lint_ss_hold_ms(const struct scenario *s, const struct obj *ss, const char *version)
{
	struct member_time mt;

	member_time(s, ss, version, &mt);
	return mt.hold_ms;
}

/* ---------------------------------------------------------------- entry */

void lint_fleet(struct lint_report *r, const struct scenario *s)
{
	struct world w;
	struct fleet *fl;
	struct scratch sc;
	size_t nss;

	world_init(&w, s);
	rule_retry_interval(r, &w);
	lint_ss_pace(r, s, w.stagesets, w.nstagesets);
	if (w.nfleets == 0)
		goto out_release_world;
	nss = w.nstagesets ? w.nstagesets : 1;
	sc.nwaves = xcalloc(nss, sizeof(*sc.nwaves));
	sc.first = xcalloc(nss, sizeof(*sc.first));
	sc.list = xcalloc(nss, sizeof(*sc.list));
	sc.pairs = xcalloc(nss, sizeof(*sc.pairs));
	fl = xcalloc(w.nfleets, sizeof(*fl));
	for (size_t f = 0; f < w.nfleets; f++) {
		fl[f].fr = w.fleets[f];
		run_pass(&fl[f], &w);
		fl[f].selected = rule_selectors(r, fl[f].fr);
		rule_duplicate_names(r, fl[f].fr);
		rule_gates(r, s, fl[f].fr);
		rule_versions(r, fl[f].fr);
		if (fl[f].selected)
			rule_member_specs(r, &w, &fl[f], &sc);
		if (fl[f].assigned) {
			rule_assignment(r, &w, &fl[f], &sc);
			rule_wave_timing(r, s, &w, &fl[f]);
			lint_ss_pace_fleet(r, s, fl[f].fr, w.stagesets, w.nstagesets, &fl[f].r);
		}
	}
	rule_contested(r, &w, fl, &sc);
	for (size_t f = 0; f < w.nfleets; f++) {
		fr_result_release(&fl[f].r);
		obj_free(fl[f].stripped);
	}
	free(fl);
	free(sc.nwaves);
	free(sc.first);
	free(sc.list);
	free(sc.pairs);
out_release_world:
	world_release(&w);
}
