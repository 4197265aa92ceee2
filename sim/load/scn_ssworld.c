/*
 * The StageSet world's settings (sim/load/scn_ssworld.h): defaults and
 * release.
 */
#include "sim/load/scn_ssworld.h"

#include <stdlib.h>
#include <string.h>

static const char *const op_texts[SCN_SW_NOPS] = {
	"fetch artifact", "decrypt", "resolve postBuild variables", "build", "image verification",
	"conflict policy", "apply", "record inventory",
};

static const char *const op_keys[SCN_SW_NOPS] = {
	"fetch", "decrypt", "postBuild", "build", "imageVerification", "conflictPolicy", "apply",
	"recordInventory",
};

const char *scn_sw_op_text(enum scn_sw_op op)
{
	return (unsigned)op < SCN_SW_NOPS ? op_texts[op] : NULL;
}

const char *scn_sw_op_key(enum scn_sw_op op)
{
	return (unsigned)op < SCN_SW_NOPS ? op_keys[op] : NULL;
}

bool scn_sw_in_windows(const struct scn_sw_windows *w, int64_t t_ms)
{
	for (size_t i = 0; w && i < w->n; i++)
		if (w->items[i].from_ms <= t_ms && t_ms < w->items[i].until_ms)
			return true;
	return false;
}

void scn_sw_windows_release(struct scn_sw_windows *w)
{
	if (!w)
		return;
	free(w->items);
	w->items = NULL;
	w->n = 0;
}

static void failure_init(struct scn_sw_failure *f)
{
	memset(f, 0, sizeof(*f));
	f->op = SCN_SW_OP_APPLY;
	f->cls = SSC_ERR;
}

static void failure_release(struct scn_sw_failure *f)
{
	scn_sw_windows_release(&f->during);
	free(f->message);
	failure_init(f);
}

static void readiness_release(struct scn_sw_readiness *r)
{
	dist_release(&r->delay);
	memset(r, 0, sizeof(*r));
	dist_init_constant(&r->delay, 0);
}

void scn_sw_behaviour_release(struct scn_sw_behaviour *b)
{
	if (!b)
		return;
	dist_release(&b->apply.duration);
	failure_release(&b->apply.failure);
	readiness_release(&b->readiness);
	readiness_release(&b->exprs);
	dist_release(&b->regression.after);
	dist_release(&b->regression.duration);
	for (size_t i = 0; i < b->regression.nversions; i++)
		free(b->regression.versions[i]);
	free(b->regression.versions);
	for (size_t i = 0; i < b->nactions; i++) {
		struct scn_sw_action *a = &b->actions[i];

		free(a->name);
		free(a->stage);
		free(a->phase);
		dist_release(&a->duration);
		failure_release(&a->failure);
	}
	free(b->actions);
	dist_release(&b->restore.duration);
	free(b->restore.message);
	memset(b, 0, sizeof(*b));
	dist_init_constant(&b->apply.duration, 0);
	failure_init(&b->apply.failure);
	dist_init_constant(&b->readiness.delay, 0);
	dist_init_constant(&b->exprs.delay, 0);
	dist_init_constant(&b->regression.after, 0);
	dist_init_constant(&b->regression.duration, 0);
	dist_init_constant(&b->restore.duration, 0);
}

void scn_sw_config_init(struct scn_sw_config *c)
{
	struct scn_sw_behaviour *t = &c->top;

	memset(c, 0, sizeof(*c));
	scn_sw_behaviour_release(t); /* zeroed: fills the unset constants */
	t->apply.has_duration = true;
	dist_init_constant(&t->apply.duration, SCN_SW_DEFAULT_APPLY_MS);
	t->apply.has_failure = true;
	t->readiness.has_delay = t->readiness.has_failed = t->readiness.has_never = true;
	dist_init_constant(&t->readiness.delay, SCN_SW_DEFAULT_READY_MS);
	t->exprs.has_delay = t->exprs.has_failed = t->exprs.has_never = true;
	dist_init_constant(&t->exprs.delay, SCN_SW_DEFAULT_EXPRS_MS);
	t->regression.has_probability = t->regression.has_after = t->regression.has_duration = true;
	t->regression.has_effect = true;
	t->regression.effect = SCN_SW_EFFECT_FAILED;
	dist_init_constant(&t->regression.after, SCN_SW_DEFAULT_REGRESSION_AFTER_MS);
	dist_init_constant(&t->regression.duration, SCN_SW_DEFAULT_REGRESSION_MS);
	t->restore.has_duration = t->restore.has_outcome = true;
	t->restore.outcome = SCN_SW_RESTORED;
	dist_init_constant(&t->restore.duration, SCN_SW_DEFAULT_RESTORE_MS);
}

static void anchor_release(struct scn_sw_anchor *a)
{
	free(a->api_version);
	free(a->kind);
	free(a->name);
	free(a->ns);
	scn_sw_windows_release(&a->unreadable);
}

static void source_release(struct scn_sw_source *s)
{
	free(s->kind);
	free(s->ns);
	free(s->name);
	free(s->initial_version);
	dist_release(&s->fetch_duration);
	scn_sw_windows_release(&s->missing);
	scn_sw_windows_release(&s->not_ready);
	scn_sw_windows_release(&s->forbidden);
	scn_sw_windows_release(&s->fetch_errors);
	scn_sw_windows_release(&s->version_missing);
	scn_sw_windows_release(&s->version_empty);
	for (size_t i = 0; i < s->nfiles; i++) {
		free(s->paths[i]);
		free(s->texts[i]);
	}
	free(s->paths);
	free(s->texts);
}

static void pods_release(struct scn_sw_pods *p)
{
	free(p->ns);
	obj_strmap_release(&p->labels);
	free(p->restarts);
	for (size_t i = 0; i < p->nwarnings; i++)
		free(p->warnings[i].reason);
	free(p->warnings);
}

void scn_sw_config_release(struct scn_sw_config *c)
{
	if (!c)
		return;
	scn_sw_behaviour_release(&c->top);
	for (size_t i = 0; i < c->nrules; i++) {
		lbl_selector_release(&c->rules[i].selector);
		free(c->rules[i].selector_text);
		free(c->rules[i].stage);
		scn_sw_behaviour_release(&c->rules[i].b);
	}
	free(c->rules);
	for (size_t i = 0; i < c->nanchors; i++)
		anchor_release(&c->anchors[i]);
	free(c->anchors);
	for (size_t i = 0; i < c->nsources; i++)
		source_release(&c->sources[i]);
	free(c->sources);
	for (size_t i = 0; i < c->npods; i++)
		pods_release(&c->pods[i]);
	free(c->pods);
	for (size_t i = 0; i < c->nlist_errors; i++) {
		free(c->list_errors[i].ns);
		free(c->list_errors[i].message);
	}
	free(c->list_errors);
	memset(c, 0, sizeof(*c));
}
