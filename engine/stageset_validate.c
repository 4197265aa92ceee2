/*
 * ValidateSpec.  See engine/stageset_validate.h.
 */
#include "engine/stageset_validate.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/stageset.h"
#include "engine/stageset_migrations.h"
#include "engine/stageset_resolve.h"
#include "engine/stageset_windows.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/* Go's %q of @s, in a ring of buffers so one message can quote several names. */
struct quotes {
	char *q[6];
	int n;
};

static const char *q(struct quotes *qs, const char *s)
{
	char *r = gofmt_quote(or_empty(s));

	if (qs->n == (int)(sizeof(qs->q) / sizeof(qs->q[0]))) {
		free(qs->q[0]);
		memmove(qs->q, qs->q + 1, sizeof(qs->q) - sizeof(qs->q[0]));
		qs->n--;
	}
	qs->q[qs->n++] = r;
	return r;
}

static void quotes_release(struct quotes *qs)
{
	for (int i = 0; i < qs->n; i++)
		free(qs->q[i]);
	qs->n = 0;
}

/* A new message from a printf format; frees the quotes it used. */
static char *msg(struct quotes *qs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *msg(struct quotes *qs, const char *fmt, ...)
{
	va_list ap;
	char *out;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	out = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(out, (size_t)n + 1, fmt, ap);
	va_end(ap);
	if (qs)
		quotes_release(qs);
	return out;
}

/*
 * A set of strings with a value each, for the "first duplicate in order"
 * checks (Go maps): open addressing, FNV-1a, grown at half full.
 */
struct strset {
	const char **keys;
	const char **vals;
	size_t cap, n;
};

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static size_t strset_slot(const struct strset *s, const char *key)
{
	size_t i = (size_t)fnv1a(key) & (s->cap - 1);

	while (s->keys[i] && strcmp(s->keys[i], key) != 0)
		i = (i + 1) & (s->cap - 1);
	return i;
}

/* The value of @key, or NULL when absent. */
static const char *strset_get(const struct strset *s, const char *key)
{
	size_t i;

	if (!s->cap)
		return NULL;
	i = strset_slot(s, key);
	return s->keys[i] ? s->vals[i] : NULL;
}

static void strset_put(struct strset *s, const char *key, const char *val)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct strset g = { NULL, NULL, s->cap ? 2 * s->cap : 16, 0 };

		g.keys = xcalloc(g.cap, sizeof(*g.keys));
		g.vals = xcalloc(g.cap, sizeof(*g.vals));
		for (size_t k = 0; k < s->cap; k++)
			if (s->keys[k])
				strset_put(&g, s->keys[k], s->vals[k]);
		free(s->keys);
		free(s->vals);
		*s = g;
	}
	i = strset_slot(s, key);
	if (!s->keys[i])
		s->n++;
	s->keys[i] = key;
	s->vals[i] = val;
}

static void strset_release(struct strset *s)
{
	free(s->keys);
	free(s->vals);
	memset(s, 0, sizeof(*s));
}

/* ---- ValidateStages --------------------------------------------------------- */

static bool is_on_failure_value(const char *v)
{
	return !*or_empty(v) || strcmp(v, "Hold") == 0 || strcmp(v, "Rollback") == 0;
}

char *ssv_validate_action_scope(const char *stage, const char *phase, const struct sst_action *a, bool versioned)
{
	struct quotes qs = { { 0 }, 0 };
	const char *scope = or_empty(a->scope);

	if (*scope && strcmp(scope, "Revision") != 0 && strcmp(scope, "Version") != 0 &&
	    strcmp(scope, "Lifetime") != 0)
		return msg(&qs, "stage %s action %s (%s): unknown scope %s; must be Revision, Version, or Lifetime",
			   q(&qs, stage), q(&qs, a->name), phase, q(&qs, scope));
	if (*scope && strcmp(phase, "onFailure") == 0)
		return msg(&qs,
			   "stage %s onFailure action %s sets scope; scope is valid only on pre/post actions, and "
			   "onFailure is ledger-exempt",
			   q(&qs, stage), q(&qs, a->name));
	if (strcmp(scope, "Version") == 0 && !versioned)
		return msg(&qs,
			   "stage %s action %s sets scope: Version but spec.version is unset; version-scoped actions "
			   "require a version to key on",
			   q(&qs, stage), q(&qs, a->name));
	if (a->has_anchor) {
		if (strcmp(scope, "Lifetime") != 0)
			return msg(&qs, "stage %s action %s (%s): completionAnchor is valid only on a scope: Lifetime action",
				   q(&qs, stage), q(&qs, a->name), phase);
		if (!*or_empty(a->anchor_api_version) || !*or_empty(a->anchor_kind) || !*or_empty(a->anchor_name))
			return msg(&qs, "stage %s action %s (%s): completionAnchor requires apiVersion, kind, and name",
				   q(&qs, stage), q(&qs, a->name), phase);
	}
	return NULL;
}

char *ssv_validate_stages(const struct sst_spec *spec)
{
	struct quotes qs = { { 0 }, 0 };
	struct strset seen = { 0 };
	char *err = NULL;

	/* Stage names are unique: each names an inventory shard and a stage label. */
	for (size_t i = 0; i < spec->nstages && !err; i++) {
		const char *name = or_empty(spec->stages[i].name);

		if (strset_get(&seen, name))
			err = msg(&qs, "stage name %s is not unique; stage names must be unique within the StageSet",
				  q(&qs, name));
		else
			strset_put(&seen, name, name);
	}
	strset_release(&seen);
	if (err)
		return err;

	for (size_t i = 0; i < spec->nstages; i++) {
		const struct sst_stage *stage = &spec->stages[i];
		const struct {
			const char *name;
			const struct sst_actions *actions;
		} phases[] = { { "pre", &stage->pre }, { "post", &stage->post }, { "onFailure", &stage->on_failure } };
		struct strset names = { 0 };

		if (res_is_producer_ref(&stage->source_ref) && !*or_empty(stage->source_ref.api_version))
			return msg(&qs,
				   "stage %s sourceRef: kind %s is a producer reference and requires apiVersion (the API "
				   "group identifies the producer's ExternalArtifact back-pointer)",
				   q(&qs, stage->name), q(&qs, stage->source_ref.kind));
		if (!stage->has_actions)
			continue;
		/* pre, post and onFailure share one ledger keyed by action name. */
		for (size_t p = 0; p < 3 && !err; p++) {
			for (size_t j = 0; j < phases[p].actions->n && !err; j++) {
				const struct sst_action *a = &phases[p].actions->items[j];
				const char *first;

				if (a->verb_count != 1) {
					err = msg(&qs,
						  "stage %s action %s (%s): exactly one of patch, http, wait, job, delete, "
						  "apply must be set, found %d",
						  q(&qs, stage->name), q(&qs, a->name), phases[p].name, a->verb_count);
				} else if (!*or_empty(a->name)) {
					err = msg(&qs,
						  "stage %s has an action with an empty name in %s; action names are the "
						  "idempotency-ledger key and must be set",
						  q(&qs, stage->name), phases[p].name);
				} else if ((first = strset_get(&names, a->name))) {
					err = msg(&qs,
						  "stage %s has duplicate action name %s (%s and %s); action names are the "
						  "idempotency-ledger key and must be unique across pre, post, and onFailure",
						  q(&qs, stage->name), q(&qs, a->name), first, phases[p].name);
				} else {
					strset_put(&names, a->name, phases[p].name);
					err = ssv_validate_action_scope(stage->name, phases[p].name, a, spec->has_version);
				}
			}
		}
		strset_release(&names);
		if (err)
			return err;
	}

	/* spec.onRollback: its own namespace of names, ledger-free. */
	{
		struct strset rb = { 0 };

		for (size_t i = 0; i < spec->on_rollback.n && !err; i++) {
			const struct sst_action *a = &spec->on_rollback.items[i];

			if (a->verb_count != 1)
				err = msg(&qs,
					  "onRollback action %s: exactly one of patch, http, wait, job, delete, apply must "
					  "be set, found %d",
					  q(&qs, a->name), a->verb_count);
			else if (!*or_empty(a->name))
				err = msg(NULL, "onRollback has an action with an empty name; action names identify the "
						"action in events and must be set");
			else if (strset_get(&rb, a->name))
				err = msg(&qs, "onRollback has duplicate action name %s; action names must be unique",
					  q(&qs, a->name));
			else if ((strset_put(&rb, a->name, a->name), *or_empty(a->scope)))
				err = msg(&qs,
					  "onRollback action %s sets scope; scope is valid only on a stage's pre/post "
					  "actions, and onRollback is ledger-exempt",
					  q(&qs, a->name));
			else if (a->has_anchor)
				err = msg(&qs,
					  "onRollback action %s sets completionAnchor; it is valid only on a scope: Lifetime "
					  "pre/post action",
					  q(&qs, a->name));
		}
		strset_release(&rb);
	}
	return err;
}

/* ---- validateMigrations ------------------------------------------------------ */

char *ssv_validate_migrations(const struct sst_spec *spec, const char *ns)
{
	struct quotes qs = { { 0 }, 0 };
	bool has_inline = spec->nmigrations > 0, has_source = spec->has_migrations_source;
	struct strset anchors = { 0 };
	char *err = NULL;

	if (has_inline && has_source)
		return msg(NULL, "spec.migrations and spec.migrationsSourceRef are mutually exclusive");
	if (!has_inline && !has_source)
		return NULL;
	if (!spec->has_version)
		return msg(NULL, "migrations require spec.version");
	if (has_source && *or_empty(spec->migrations_source_ref.ns) &&
	    strcmp(spec->migrations_source_ref.ns, or_empty(ns)) != 0)
		return msg(NULL, "spec.migrationsSourceRef must reference a source in the StageSet's own namespace; "
				 "cross-namespace migration sources are not allowed");

	/* Stage names and migrationAnchors are one set of keys a migration's stage resolves in. */
	for (size_t i = 0; i < spec->nstages && !err; i++) {
		const struct sst_stage *st = &spec->stages[i];
		const char *name = or_empty(st->name), *anchor = or_empty(st->migration_anchor);

		if (strset_get(&anchors, name)) {
			err = msg(&qs, "stage name %s collides with another stage name or migrationAnchor", q(&qs, name));
		} else {
			strset_put(&anchors, name, name);
			if (*anchor) {
				if (strset_get(&anchors, anchor))
					err = msg(&qs, "stage %s migrationAnchor %s collides with another stage name or "
						       "migrationAnchor",
						  q(&qs, name), q(&qs, anchor));
				else
					strset_put(&anchors, anchor, anchor);
			}
		}
	}
	/* A sourced ladder is fetched and validated at reconcile time. */
	if (!err && !has_source) {
		err = mig_validate_ladder(spec->migrations, spec->nmigrations);
		for (size_t i = 0; i < spec->nmigrations && !err; i++) {
			const struct sst_migration *m = &spec->migrations[i];

			if (*or_empty(m->stage) && !strset_get(&anchors, m->stage))
				err = msg(&qs, "migration %s anchors to unknown stage or anchor %s", q(&qs, m->name),
					  q(&qs, m->stage));
		}
	}
	strset_release(&anchors);
	return err;
}

/* ---- version, decryption, kubeConfig ------------------------------------------ */

char *ssv_validate_version(const struct sst_spec *spec)
{
	int n = 0;

	if (!spec->has_version)
		return NULL;
	n += *or_empty(spec->version.value) != '\0';
	n += spec->version.has_from_object;
	n += spec->version.has_from_artifact;
	if (n != 1)
		return msg(NULL, "spec.version must set exactly one of value, fromObject, or fromArtifact, found %d", n);
	return NULL;
}

/* A present, non-null field of map @m (a nil Go pointer reads absent). */
static const struct val *field(const struct val *m, const char *key)
{
	const struct val *v = val_map_get(m, key);

	return v && v->type != VAL_NULL ? v : NULL;
}

static const char *str_of(const struct val *m, const char *key)
{
	const struct val *v = field(m, key);

	return v && v->type == VAL_STRING ? v->u.s : "";
}

char *ssv_validate_decryption(const struct sst_spec *spec)
{
	struct quotes qs = { { 0 }, 0 };
	const struct val *d = spec->decryption, *sr;

	if (!d || d->type == VAL_NULL)
		return NULL;
	if (strcmp(str_of(d, "provider"), "sops") != 0)
		return msg(&qs, "spec.decryption.provider must be \"sops\", got %s", q(&qs, str_of(d, "provider")));
	sr = field(d, "secretRef");
	if (sr && !*str_of(sr, "name"))
		return msg(NULL, "spec.decryption.secretRef.name must be set when secretRef is given");
	return NULL;
}

char *ssv_validate_kube_config(const struct sst_spec *spec)
{
	const struct val *kc = spec->kube_config, *secret, *cm;

	if (!kc || kc->type == VAL_NULL)
		return NULL;
	secret = field(kc, "secretRef");
	cm = field(kc, "configMapRef");
	if (secret && cm)
		return msg(NULL, "spec.kubeConfig must set exactly one of secretRef or configMapRef, not both");
	if (!secret && !cm)
		return msg(NULL, "spec.kubeConfig must set one of secretRef or configMapRef");
	if (secret && !*str_of(secret, "name"))
		return msg(NULL, "spec.kubeConfig.secretRef.name must be set");
	if (cm && !*str_of(cm, "name"))
		return msg(NULL, "spec.kubeConfig.configMapRef.name must be set");
	return NULL;
}

/* ---- error budgets, metric sources, thresholds --------------------------------- */

char *ssv_parse_threshold_value(const char *where, const char *s, double *v)
{
	struct quotes qs = { { 0 }, 0 };
	double x = 0;

	if (thr_parse_float(or_empty(s), &x) != THR_OK)
		return msg(&qs, "%s %s is not a number", where, q(&qs, s));
	if (v)
		*v = x;
	return NULL;
}

char *ssv_validate_metric_source(const char *where, const struct sst_metric_source *src)
{
	int n = (int)src->has_prometheus + (int)src->has_webhook;

	if (n != 1)
		return msg(NULL, "%s must set exactly one of prometheus or webhook, found %d", where, n);
	if (src->has_prometheus) {
		if (!*or_empty(src->address))
			return msg(NULL, "%s.prometheus.address must be set", where);
		if (!*or_empty(src->query))
			return msg(NULL, "%s.prometheus.query must be set", where);
		if (src->secret_ref && !*src->secret_ref)
			return msg(NULL, "%s.prometheus.secretRef.name must be set when secretRef is given", where);
	}
	if (src->has_webhook) {
		if (!*or_empty(src->url))
			return msg(NULL, "%s.webhook.url must be set", where);
		if (!*or_empty(src->json_path))
			return msg(NULL, "%s.webhook.jsonPath must be set", where);
		if (src->secret_ref && !*src->secret_ref)
			return msg(NULL, "%s.webhook.secretRef.name must be set when secretRef is given", where);
	}
	return NULL;
}

char *ssv_validate_budget(const char *where, const struct sst_error_budget *eb)
{
	struct quotes qs = { { 0 }, 0 };
	char *w, *err;
	double freeze, resume;
	const char *ose;

	if (!eb)
		return NULL;
	w = msg(NULL, "%s.source", where);
	err = ssv_validate_metric_source(w, &eb->source);
	free(w);
	if (err)
		return err;
	w = msg(NULL, "%s.freezeThreshold", where);
	err = ssv_parse_threshold_value(w, eb->freeze_threshold, &freeze);
	free(w);
	if (err)
		return err;
	if (*or_empty(eb->resume_threshold)) {
		w = msg(NULL, "%s.resumeThreshold", where);
		err = ssv_parse_threshold_value(w, eb->resume_threshold, &resume);
		free(w);
		if (err)
			return err;
		if (resume < freeze)
			return msg(NULL, "%s.resumeThreshold (%s) must be >= freezeThreshold (%s)", where,
				   eb->resume_threshold, or_empty(eb->freeze_threshold));
	}
	ose = or_empty(eb->on_source_error);
	if (*ose && strcmp(ose, "Allow") != 0 && strcmp(ose, "Hold") != 0)
		return msg(&qs, "%s.onSourceError must be Allow or Hold, got %s", where, q(&qs, ose));
	return NULL;
}

char *ssv_validate_error_budget(const struct sst_spec *spec)
{
	char *err = ssv_validate_budget("spec.errorBudget", spec->has_error_budget ? &spec->error_budget : NULL);

	for (size_t i = 0; i < spec->nstages && !err; i++) {
		const struct sst_stage *st = &spec->stages[i];
		struct quotes qs = { { 0 }, 0 };
		char *where;

		if (!st->has_error_budget)
			continue;
		where = msg(&qs, "stage %s errorBudget", q(&qs, st->name));
		err = ssv_validate_budget(where, &st->error_budget);
		free(where);
	}
	return err;
}

/* ---- validatePromotion ---------------------------------------------------------- */

/*
 * LabelSelectorAsSelector of a check's selector and Empty(): 0 when it
 * selects something, 1 when it is empty (an absent selector is the zero
 * metav1.LabelSelector, which is empty), -1 with @why when it does not convert.
 */
static int check_selector(const struct val *raw, char *why, size_t len)
{
	struct lbl_selector sel;
	int r;

	if (!raw)
		return 1;
	memset(&sel, 0, sizeof(sel));
	if (lbl_selector_from_val(raw, &sel, why, len) != LBL_OK)
		return -1;
	r = lbl_selector_is_empty(&sel) ? 1 : 0;
	lbl_selector_release(&sel);
	return r;
}

static char *validate_threshold_bounds(struct quotes *qs, const char *stage, const struct sst_analysis_check *c)
{
	char *where, *err;

	if (!c->threshold.min && !c->threshold.max)
		return msg(qs, "stage %s promotion.analysis check %s must set at least one of threshold.min or "
			       "threshold.max",
			   q(qs, stage), q(qs, c->name));
	if (c->threshold.min) {
		where = msg(qs, "stage %s check %s threshold.min", q(qs, stage), q(qs, c->name));
		err = ssv_parse_threshold_value(where, c->threshold.min, NULL);
		free(where);
		if (err)
			return err;
	}
	if (c->threshold.max) {
		where = msg(qs, "stage %s check %s threshold.max", q(qs, stage), q(qs, c->name));
		err = ssv_parse_threshold_value(where, c->threshold.max, NULL);
		free(where);
		if (err)
			return err;
	}
	return NULL;
}

/* One gate's checks (restart or event): what the two loops of validatePromotion share. */
struct gate_check {
	const char *name;
	const struct val *selector_raw;
	const char *on_failure;
	bool is_event;
	size_t nreasons;
};

static char *validate_gate(struct quotes *qs, const char *stage, const char *gate, const char *on_failure,
			   const struct gate_check *checks, size_t n)
{
	struct strset names = { 0 };
	char *err = NULL;

	if (!is_on_failure_value(on_failure))
		return msg(qs, "stage %s promotion.%s.onFailure must be Hold or Rollback, got %s", q(qs, stage), gate,
			   q(qs, on_failure));
	if (n == 0)
		return msg(qs, "stage %s promotion.%s must declare at least one check", q(qs, stage), gate);
	for (size_t j = 0; j < n && !err; j++) {
		const struct gate_check *c = &checks[j];
		char why[LBL_ERRLEN];
		int sel;

		if (!*or_empty(c->name)) {
			err = msg(qs, "stage %s promotion.%s has a check with an empty name", q(qs, stage), gate);
			break;
		}
		if (strset_get(&names, c->name)) {
			err = msg(qs, "stage %s promotion.%s has duplicate check name %s", q(qs, stage), gate,
				  q(qs, c->name));
			break;
		}
		strset_put(&names, c->name, c->name);
		sel = check_selector(c->selector_raw, why, sizeof(why));
		if (sel < 0)
			err = msg(qs, "stage %s promotion.%s check %s has an invalid selector: %s", q(qs, stage), gate,
				  q(qs, c->name), why);
		else if (sel > 0)
			err = msg(qs, "stage %s promotion.%s check %s selector must match at least one label", q(qs, stage),
				  gate, q(qs, c->name));
		else if (c->is_event && c->nreasons == 0)
			err = msg(qs, "stage %s promotion.%s check %s must name at least one event reason", q(qs, stage),
				  gate, q(qs, c->name));
		else if (!is_on_failure_value(c->on_failure))
			err = msg(qs, "stage %s promotion.%s check %s onFailure must be Hold or Rollback, got %s",
				  q(qs, stage), gate, q(qs, c->name), q(qs, c->on_failure));
	}
	strset_release(&names);
	return err;
}

static char *validate_stage_promotion(const struct sst_stage *st)
{
	const struct sst_promotion *p = &st->promotion;
	struct quotes qs = { { 0 }, 0 };
	char *err = NULL, *where;

	if (p->has_fast_track) {
		if (!p->soak.set || p->soak.ms <= 0)
			return msg(&qs, "stage %s promotion.fastTrack requires a soak to shorten", q(&qs, st->name));
		where = msg(&qs, "stage %s promotion.fastTrack.source", q(&qs, st->name));
		err = ssv_validate_metric_source(where, &p->fast_track.source);
		free(where);
		if (err)
			return err;
		where = msg(&qs, "stage %s promotion.fastTrack.max", q(&qs, st->name));
		err = ssv_parse_threshold_value(where, p->fast_track.max, NULL);
		free(where);
		if (err)
			return err;
	}
	if (p->has_restart_gate) {
		size_t n = p->restart_gate.nchecks;
		struct gate_check *c = xcalloc(n ? n : 1, sizeof(*c));

		for (size_t j = 0; j < n; j++) {
			c[j].name = p->restart_gate.checks[j].name;
			c[j].selector_raw = p->restart_gate.checks[j].selector_raw;
			c[j].on_failure = p->restart_gate.checks[j].on_failure;
		}
		err = validate_gate(&qs, st->name, "restartGate", p->restart_gate.on_failure, c, n);
		free(c);
		quotes_release(&qs);
		if (err)
			return err;
	}
	if (p->has_event_gate) {
		size_t n = p->event_gate.nchecks;
		struct gate_check *c = xcalloc(n ? n : 1, sizeof(*c));

		for (size_t j = 0; j < n; j++) {
			c[j].name = p->event_gate.checks[j].name;
			c[j].selector_raw = p->event_gate.checks[j].selector_raw;
			c[j].on_failure = p->event_gate.checks[j].on_failure;
			c[j].is_event = true;
			c[j].nreasons = p->event_gate.checks[j].nreasons;
		}
		err = validate_gate(&qs, st->name, "eventGate", p->event_gate.on_failure, c, n);
		free(c);
		quotes_release(&qs);
		if (err)
			return err;
	}
	if (!p->has_analysis)
		return NULL;
	if (p->analysis.nchecks == 0)
		return msg(&qs, "stage %s promotion.analysis must declare at least one check", q(&qs, st->name));
	{
		struct strset names = { 0 };

		for (size_t j = 0; j < p->analysis.nchecks && !err; j++) {
			const struct sst_analysis_check *c = &p->analysis.checks[j];

			if (!*or_empty(c->name)) {
				err = msg(&qs, "stage %s promotion.analysis has a check with an empty name", q(&qs, st->name));
			} else if (strset_get(&names, c->name)) {
				err = msg(&qs, "stage %s promotion.analysis has duplicate check name %s", q(&qs, st->name),
					  q(&qs, c->name));
			} else {
				strset_put(&names, c->name, c->name);
				where = msg(&qs, "stage %s promotion.analysis check %s source", q(&qs, st->name),
					    q(&qs, c->name));
				err = ssv_validate_metric_source(where, &c->source);
				free(where);
				if (!err)
					err = validate_threshold_bounds(&qs, st->name, c);
			}
		}
		strset_release(&names);
		quotes_release(&qs);
		if (err)
			return err;
	}
	if (!is_on_failure_value(p->analysis.on_failure))
		return msg(&qs, "stage %s promotion.analysis.onFailure must be Hold or Rollback, got %s", q(&qs, st->name),
			   q(&qs, p->analysis.on_failure));
	{
		const char *ose = or_empty(p->analysis.on_source_error);

		if (*ose && strcmp(ose, "Hold") != 0 && strcmp(ose, "Allow") != 0)
			return msg(&qs, "stage %s promotion.analysis.onSourceError must be Hold or Allow, got %s",
				   q(&qs, st->name), q(&qs, ose));
	}
	return NULL;
}

char *ssv_validate_promotion(const struct sst_spec *spec)
{
	for (size_t i = 0; i < spec->nstages; i++) {
		char *err;

		if (!spec->stages[i].has_promotion)
			continue;
		err = validate_stage_promotion(&spec->stages[i]);
		if (err)
			return err;
	}
	return NULL;
}

/* ---- validateReadyChecks, validateOnTimeout, validateDependsOn -------------------- */

/* schema.ParseGroupVersion's error, or NULL: "" and "/" are the empty version, one '/' at most. */
static bool group_version_ok(const char *gv)
{
	const char *slash;

	if (!*gv || strcmp(gv, "/") == 0)
		return true;
	slash = strchr(gv, '/');
	return !slash || !strchr(slash + 1, '/');
}

char *ssv_validate_ready_checks(const struct sst_spec *spec)
{
	for (size_t i = 0; i < spec->nstages; i++) {
		const struct sst_stage *stage = &spec->stages[i];
		const struct sst_ready_checks *rc = &stage->ready_checks;
		struct quotes qs = { { 0 }, 0 };

		if (!stage->has_ready_checks)
			continue;
		for (size_t j = 0; rc->checks && rc->checks->type == VAL_LIST && j < rc->checks->u.list.n; j++) {
			const struct val *ref = rc->checks->u.list.items[j];

			if (!*str_of(ref, "kind") || !*str_of(ref, "name"))
				return msg(&qs, "stage %s readyChecks.checks[%zu]: kind and name are required", q(&qs, stage->name),
					   j);
		}
		/* compileReadyExprs: the apiVersion must parse; the CEL texts are taken as compiling. */
		for (size_t j = 0; rc->exprs && rc->exprs->type == VAL_LIST && j < rc->exprs->u.list.n; j++) {
			const char *gv = str_of(rc->exprs->u.list.items[j], "apiVersion");

			if (!group_version_ok(gv))
				return msg(&qs, "stage %s readyChecks.exprs[%zu] apiVersion %s: unexpected GroupVersion string: %s",
					   q(&qs, stage->name), j, q(&qs, gv), gv);
		}
	}
	return NULL;
}

char *ssv_validate_on_timeout(const struct sst_spec *spec)
{
	struct quotes qs = { { 0 }, 0 };

	if (!is_on_failure_value(spec->on_timeout))
		return msg(&qs, "spec.onTimeout must be Hold or Rollback, got %s", q(&qs, spec->on_timeout));
	for (size_t i = 0; i < spec->nstages; i++) {
		const struct sst_stage *st = &spec->stages[i];

		if (!is_on_failure_value(st->on_timeout))
			return msg(&qs, "stage %s onTimeout must be Hold or Rollback, got %s", q(&qs, st->name),
				   q(&qs, st->on_timeout));
	}
	return NULL;
}

char *ssv_validate_depends_on(const struct sst_spec *spec)
{
	for (size_t i = 0; i < spec->ndepends_on; i++) {
		const struct sst_dependency *dep = &spec->depends_on[i];
		struct quotes qs = { { 0 }, 0 };

		if (!*or_empty(dep->name))
			return msg(NULL, "spec.dependsOn[%zu]: name is required", i);
		if (*or_empty(dep->min_version)) {
			struct ss_semver v;
			char why[256];

			if (ss_semver_parse(dep->min_version, &v, why, sizeof(why)) != SS_OK)
				return msg(&qs, "spec.dependsOn[%zu] (%s): minVersion %s is not a valid semver: %s", i, dep->name,
					   q(&qs, dep->min_version), why);
		}
	}
	return NULL;
}

/* ---- ValidateSpec, ValidateUpdate ------------------------------------------------- */

int ssv_validate_spec(const struct obj *ss, const struct sst_spec *spec, const struct ssc_env *env,
		      int64_t now_ms, char **err)
{
	char werr[WIN_ERRLEN];
	int rc;

	*err = ssv_validate_stages(spec);
	if (!*err)
		*err = ssv_validate_migrations(spec, ss->ns);
	if (!*err)
		*err = ssv_validate_version(spec);
	if (!*err)
		*err = ssv_validate_decryption(spec);
	if (!*err)
		*err = ssv_validate_kube_config(spec);
	if (!*err)
		*err = ssv_validate_error_budget(spec);
	if (!*err)
		*err = ssv_validate_promotion(spec);
	if (!*err)
		*err = ssv_validate_ready_checks(spec);
	if (!*err)
		*err = ssv_validate_on_timeout(spec);
	if (!*err)
		*err = ssv_validate_depends_on(spec);
	if (*err)
		return SSV_EINVAL;
	rc = win_validate(spec->windows, spec->nwindows, env, now_ms, werr, sizeof(werr));
	if (rc == WIN_OK)
		return SSV_OK;
	*err = xstrdup(werr);
	return rc == WIN_EPANIC ? SSV_EPANIC : SSV_EINVAL;
}

/* Equality of two spec trees with the top-level `suspend` set aside; NULL reads as {}. */
bool ssv_validation_inputs_unchanged(const struct obj *a, const struct obj *b)
{
	const struct val *sa = a->spec, *sb = b->spec;
	size_t na = 0, nb = 0;

	if (sa && sa->type != VAL_MAP)
		return val_equal(sa, sb);
	if (sb && sb->type != VAL_MAP)
		return false;
	for (size_t i = 0; sa && i < sa->u.map.n; i++) {
		const struct val_kv *kv = &sa->u.map.items[i];

		if (strcmp(kv->key, "suspend") == 0)
			continue;
		na++;
		if (!val_equal(kv->v, val_map_get(sb, kv->key)))
			return false;
	}
	for (size_t i = 0; sb && i < sb->u.map.n; i++)
		nb += strcmp(sb->u.map.items[i].key, "suspend") != 0;
	return na == nb;
}

int ssv_validate_update(const struct obj *old_obj, const struct obj *new_obj, const struct sst_spec *new_spec,
			const struct ssc_env *env, int64_t now_ms, char **err)
{
	*err = NULL;
	if (new_obj->deletion_ms >= 0)
		return SSV_OK;
	if (old_obj && ssv_validation_inputs_unchanged(old_obj, new_obj))
		return SSV_OK;
	return ssv_validate_spec(new_obj, new_spec, env, now_ms, err);
}
