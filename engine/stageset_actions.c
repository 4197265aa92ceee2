/*
 * Actions and their ledgers.  See engine/stageset_actions.h.
 */
#include "engine/stageset_actions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

#define CONTEXT_DEADLINE "context deadline exceeded"

/* ---- the executor -------------------------------------------------------- */

int64_t act_backoff(int attempt)
{
	int64_t d = (int64_t)(attempt + 1) * 500;
	return d > 5000 ? 5000 : d;
}

int act_exec(const struct ssc_env *env, struct ssc_clock *clk, size_t stage, const char *phase,
	     const struct sst_action *a, struct ssc_err *err)
{
	bool bounded = a->timeout.set;
	int64_t deadline = bounded ? clk->now_ms + a->timeout.ms : 0;
	int retries = a->has_retries && a->retries > 0 ? a->retries : 0;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	for (int attempt = 0; attempt <= retries; attempt++) {
		int64_t took = 0;
		struct ssc_err e = { SSC_OK, "" };

		if (bounded && clk->now_ms >= deadline) {
			/* The context is already done: the verb fails at once. */
			ssc_err_set(&e, SSC_ERR, CONTEXT_DEADLINE);
		} else {
			env->run_action(env->ctx, stage, phase, a, attempt, clk->now_ms, &took, &e);
			if (took < 0)
				took = 0;
			if (bounded && clk->now_ms + took > deadline) {
				/* Cut by the deadline: whatever the attempt would have said later. */
				clk->now_ms = deadline;
				ssc_err_set(&e, SSC_ERR, CONTEXT_DEADLINE);
			} else {
				clk->now_ms += took;
			}
		}
		if (e.code == SSC_OK)
			return 0;
		*err = e;
		/* Config errors, forbidden hosts and deterministic 4xx do not improve on retry. */
		if (e.code == SSC_ERR_NO_RETRY)
			return -1;
		if (attempt == retries)
			break;
		int64_t wait = act_backoff(attempt);
		if (bounded && clk->now_ms + wait >= deadline) {
			/* select: ctx.Done() fires first. */
			if (clk->now_ms < deadline)
				clk->now_ms = deadline;
			return -1;
		}
		clk->now_ms += wait;
	}
	return -1;
}

int act_run(const struct ssc_env *env, struct ssc_clock *clk, size_t stage, const char *phase,
	    const struct sst_actions *acts, act_done_fn done, const void *done_arg,
	    act_record_fn record, void *record_arg, struct ssc_err *err)
{
	err->code = SSC_OK;
	err->msg[0] = '\0';
	for (size_t i = 0; i < acts->n; i++) {
		const struct sst_action *a = &acts->items[i];
		struct ssc_err e;
		if (done && done(done_arg, a->name))
			continue;
		if (act_exec(env, clk, stage, phase, a, &e) != 0) {
			ssc_err_set(err, e.code, "action \"%s\": %s", a->name, e.msg);
			return -1;
		}
		if (record && record(record_arg, a->name, err) != 0)
			return -1;
	}
	return 0;
}

/* ---- the per-stage action ledger ----------------------------------------- */

void act_ledger_init(struct act_ledger *l, const char *revision, const char *version)
{
	memset(l, 0, sizeof(*l));
	l->revision = revision ? revision : "";
	l->version = version ? version : "";
}

void act_ledger_release(struct act_ledger *l)
{
	if (!l)
		return;
	sst_string_list_release(&l->executed);
	sst_string_list_release(&l->versioned);
	sst_string_list_release(&l->lifetime_done);
	memset(l, 0, sizeof(*l));
}

bool act_ledger_done(const void *ledger, const char *name)
{
	const struct act_ledger *l = ledger;
	return sst_string_list_has(&l->executed, name) || sst_string_list_has(&l->versioned, name) ||
	       sst_string_list_has(&l->lifetime_done, name);
}

/* ActionScopes(stage)[name]: the scope of the last pre/post action so named; false when unlisted. */
static bool scope_of(const struct sst_stage *stage, const char *name, enum sst_scope *out)
{
	bool found = false;
	if (!stage || !stage->has_actions)
		return false;
	for (size_t i = 0; i < stage->pre.n; i++)
		if (strcmp(stage->pre.items[i].name, name) == 0) {
			*out = sst_action_scope(&stage->pre.items[i]);
			found = true;
		}
	for (size_t i = 0; i < stage->post.n; i++)
		if (strcmp(stage->post.items[i].name, name) == 0) {
			*out = sst_action_scope(&stage->post.items[i]);
			found = true;
		}
	return found;
}

void act_ledger_record(struct act_ledger *l, const struct sst_stage *stage, const char *name)
{
	enum sst_scope sc = SST_SCOPE_REVISION;
	if (scope_of(stage, name, &sc) && sc == SST_SCOPE_VERSION)
		sst_string_list_push(&l->versioned, name);
	else
		sst_string_list_push(&l->executed, name);
}

void act_ledger_stamp(const struct act_ledger *l, struct sst_stage_status *s)
{
	sst_string_list_assign(&s->executed_actions, &l->executed);
	sst_str_assign(&s->ledger_revision, l->revision);
	sst_string_list_assign(&s->executed_version_actions, &l->versioned);
	sst_str_assign(&s->ledger_version, l->version);
}

static void scoped_names(const struct sst_stage *stage, enum sst_scope want, struct sst_string_list *out)
{
	if (!stage->has_actions)
		return;
	for (size_t i = 0; i < stage->pre.n; i++)
		if (sst_action_scope(&stage->pre.items[i]) == want)
			sst_string_list_push(out, stage->pre.items[i].name);
	for (size_t i = 0; i < stage->post.n; i++)
		if (sst_action_scope(&stage->post.items[i]) == want)
			sst_string_list_push(out, stage->post.items[i].name);
}

void act_version_scoped_action_names(const struct sst_stage *stage, struct sst_string_list *out)
{
	scoped_names(stage, SST_SCOPE_VERSION, out);
}

void act_stage_lifetime_action_names(const struct sst_stage *stage, struct sst_string_list *out)
{
	scoped_names(stage, SST_SCOPE_LIFETIME, out);
}

bool act_spec_has_lifetime_actions(const struct sst_spec *spec)
{
	for (size_t i = 0; i < spec->nstages; i++) {
		struct sst_string_list l = { 0 };
		act_stage_lifetime_action_names(&spec->stages[i], &l);
		bool any = l.n > 0;
		sst_string_list_release(&l);
		if (any)
			return true;
	}
	return false;
}

bool act_is_lifetime_action(const struct sst_spec *spec, const char *stage, const char *action)
{
	for (size_t i = 0; i < spec->nstages; i++) {
		if (strcmp(spec->stages[i].name, stage) != 0)
			continue;
		struct sst_string_list l = { 0 };
		act_stage_lifetime_action_names(&spec->stages[i], &l);
		bool has = sst_string_list_has(&l, action);
		sst_string_list_release(&l);
		if (has)
			return true;
	}
	return false;
}

const struct sst_action *act_stage_anchor(const struct sst_stage *stage, const char *name)
{
	const struct sst_action *found = NULL;
	if (!stage->has_actions)
		return NULL;
	for (size_t i = 0; i < stage->pre.n; i++)
		if (stage->pre.items[i].has_anchor && strcmp(stage->pre.items[i].name, name) == 0)
			found = &stage->pre.items[i];
	for (size_t i = 0; i < stage->post.n; i++)
		if (stage->post.items[i].has_anchor && strcmp(stage->post.items[i].name, name) == 0)
			found = &stage->post.items[i];
	return found;
}

/* ---- the StageLedger ------------------------------------------------------ */

static char *rd(const struct val *m, const char *key)
{
	return xstrdup(val_str(val_map_get(m, key), ""));
}

static void completion_release(struct act_completion *c)
{
	free(c->stage);
	free(c->action);
	free(c->origin);
	free(c->digest);
	free(c->anchor_api_version);
	free(c->anchor_kind);
	free(c->anchor_name);
	free(c->anchor_uid);
}

void act_stage_ledger_parse(const struct obj *o, struct act_stage_ledger *out)
{
	memset(out, 0, sizeof(*out));
	if (!o)
		return;
	out->generation = o->generation;
	const struct val *bl = val_map_get(o->spec, "baseline");
	if (bl && bl->type == VAL_LIST) {
		out->baseline = xcalloc(bl->u.list.n + 1, sizeof(*out->baseline));
		for (size_t i = 0; i < bl->u.list.n; i++) {
			const struct val *m = bl->u.list.items[i];
			if (m->type != VAL_MAP)
				continue;
			out->baseline[out->nbaseline].stage = rd(m, "stage");
			out->baseline[out->nbaseline++].action = rd(m, "action");
		}
	}
	const struct val *cl = val_map_get(o->status, "completedActions");
	if (cl && cl->type == VAL_LIST) {
		out->completed = xcalloc(cl->u.list.n + 1, sizeof(*out->completed));
		for (size_t i = 0; i < cl->u.list.n; i++) {
			const struct val *m = cl->u.list.items[i];
			if (m->type != VAL_MAP)
				continue;
			struct act_completion *c = &out->completed[out->ncompleted++];
			c->stage = rd(m, "stage");
			c->action = rd(m, "action");
			c->origin = rd(m, "origin");
			c->digest = rd(m, "digest");
			const struct val *an = val_map_get(m, "anchor");
			c->has_anchor = an && an->type == VAL_MAP;
			c->anchor_api_version = rd(an, "apiVersion");
			c->anchor_kind = rd(an, "kind");
			c->anchor_name = rd(an, "name");
			c->anchor_uid = rd(an, "uid");
			const char *t = val_str(val_map_get(m, "completedAt"), NULL);
			if (!t || sst_parse_time(t, &c->completed_at_ms) != 0)
				c->completed_at_ms = SST_NO_TIME;
		}
	}
	const struct val *kl = val_map_get(o->status, "conditions");
	if (kl && kl->type == VAL_LIST) {
		out->conditions = xcalloc(kl->u.list.n + 1, sizeof(*out->conditions));
		for (size_t i = 0; i < kl->u.list.n; i++)
			if (kl->u.list.items[i]->type == VAL_MAP)
				sst_condition_parse(kl->u.list.items[i], &out->conditions[out->nconditions++]);
	}
}

void act_stage_ledger_release(struct act_stage_ledger *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nbaseline; i++) {
		free(l->baseline[i].stage);
		free(l->baseline[i].action);
	}
	free(l->baseline);
	for (size_t i = 0; i < l->ncompleted; i++)
		completion_release(&l->completed[i]);
	free(l->completed);
	for (size_t i = 0; i < l->nconditions; i++)
		sst_condition_release(&l->conditions[i]);
	free(l->conditions);
	memset(l, 0, sizeof(*l));
}

void act_stage_ledger_free(struct act_stage_ledger *l)
{
	act_stage_ledger_release(l);
	free(l);
}

struct val *act_stage_ledger_to_val(const struct act_stage_ledger *l)
{
	char buf[32];
	struct val *o = val_new_map();
	struct val *spec = val_map_set(o, "spec", val_new_map());
	struct val *status = val_map_set(o, "status", val_new_map());

	if (l->nbaseline) {
		struct val *bl = val_map_set(spec, "baseline", val_new_list());
		for (size_t i = 0; i < l->nbaseline; i++) {
			struct val *m = val_list_push(bl, val_new_map());
			val_map_set(m, "stage", val_new_string(l->baseline[i].stage));
			val_map_set(m, "action", val_new_string(l->baseline[i].action));
		}
	}
	if (l->ncompleted) {
		struct val *cl = val_map_set(status, "completedActions", val_new_list());
		for (size_t i = 0; i < l->ncompleted; i++) {
			const struct act_completion *c = &l->completed[i];
			struct val *m = val_list_push(cl, val_new_map());
			val_map_set(m, "stage", val_new_string(c->stage));
			val_map_set(m, "action", val_new_string(c->action));
			val_map_set(m, "origin", val_new_string(c->origin));
			if (c->digest[0])
				val_map_set(m, "digest", val_new_string(c->digest));
			if (c->has_anchor) {
				struct val *an = val_map_set(m, "anchor", val_new_map());
				val_map_set(an, "apiVersion", val_new_string(c->anchor_api_version));
				val_map_set(an, "kind", val_new_string(c->anchor_kind));
				val_map_set(an, "name", val_new_string(c->anchor_name));
				val_map_set(an, "uid", val_new_string(c->anchor_uid));
			}
			if (c->completed_at_ms == SST_NO_TIME)
				val_map_set(m, "completedAt", val_new_null());
			else
				val_map_set(m, "completedAt",
					    val_new_string(sst_format_time(c->completed_at_ms, buf, sizeof(buf))));
		}
	}
	if (l->nconditions) {
		struct val *kl = val_map_set(status, "conditions", val_new_list());
		for (size_t i = 0; i < l->nconditions; i++)
			val_list_push(kl, sst_condition_to_val(&l->conditions[i]));
	}
	return o;
}

bool act_stage_ledger_is_completed(const struct act_stage_ledger *l, const char *stage,
				   const char *action)
{
	for (size_t i = 0; i < l->ncompleted; i++)
		if (strcmp(l->completed[i].stage, stage) == 0 &&
		    strcmp(l->completed[i].action, action) == 0)
			return true;
	return false;
}

int act_load_lifetime_ledger(const struct ssc_env *env, const struct ssc_clock *clk,
			     const struct sst_spec *spec, struct act_stage_ledger **out,
			     struct ssc_err *err)
{
	struct ssc_err e = { SSC_OK, "" };
	const struct obj *o = env->ledger ? env->ledger(env->ctx, clk->now_ms, &e) : NULL;

	*out = NULL;
	if (o) {
		*out = xcalloc(1, sizeof(**out));
		act_stage_ledger_parse(o, *out);
		return 0;
	}
	if (e.code != SSC_OK && e.code != SSC_ERR_NOT_FOUND) {
		*err = e;
		return -1;
	}
	if (!act_spec_has_lifetime_actions(spec))
		return 0;
	/* Materialise an empty ledger, without an ownerReference (retain-always). */
	*out = xcalloc(1, sizeof(**out));
	(*out)->created = true;
	(*out)->dirty = true;
	(*out)->generation = 1;
	return 0;
}

static struct act_completion *append_completion(struct act_stage_ledger *l, const char *stage,
						const char *action, const char *origin, int64_t at_ms)
{
	l->completed = xreallocarray(l->completed, l->ncompleted + 1, sizeof(*l->completed));
	struct act_completion *c = &l->completed[l->ncompleted++];
	memset(c, 0, sizeof(*c));
	c->stage = xstrdup(stage);
	c->action = xstrdup(action);
	c->origin = xstrdup(origin);
	c->digest = xstrdup("");
	c->anchor_api_version = xstrdup("");
	c->anchor_kind = xstrdup("");
	c->anchor_name = xstrdup("");
	c->anchor_uid = xstrdup("");
	/* metav1.Time is stored in whole seconds. */
	c->completed_at_ms = at_ms - ((at_ms % 1000) + 1000) % 1000;
	return c;
}

static struct sst_condition *find_condition(struct act_stage_ledger *l, const char *type)
{
	for (size_t i = 0; i < l->nconditions; i++)
		if (strcmp(l->conditions[i].type, type) == 0)
			return &l->conditions[i];
	return NULL;
}

void act_promote_baseline(struct act_stage_ledger *l, const struct sst_spec *spec,
			  const char *ss_name, const struct ssc_clock *clk, struct ssc_events *ev)
{
	bool changed = false;
	struct sst_string_list unresolved = { 0 };

	if (!l)
		return;
	for (size_t i = 0; i < l->nbaseline; i++) {
		const struct act_ledger_ref *ref = &l->baseline[i];
		if (!act_is_lifetime_action(spec, ref->stage, ref->action)) {
			char *entry = xasprintf("%s/%s", ref->stage, ref->action);
			sst_string_list_push(&unresolved, entry);
			free(entry);
			continue;
		}
		if (act_stage_ledger_is_completed(l, ref->stage, ref->action))
			continue;
		append_completion(l, ref->stage, ref->action, ACT_ORIGIN_BASELINED, clk->now_ms);
		changed = true;
	}
	if (act_reconcile_baseline_condition(l, ss_name, &unresolved, clk, ev))
		changed = true;
	if (changed)
		l->dirty = true;
	sst_string_list_release(&unresolved);
}

bool act_reconcile_baseline_condition(struct act_stage_ledger *l, const char *ss_name,
				      const struct sst_string_list *unresolved,
				      const struct ssc_clock *clk, struct ssc_events *ev)
{
	struct sst_condition *prior = find_condition(l, ACT_CONDITION_BASELINE_VALID);
	const char *status, *reason;
	char *message;

	if (l->nbaseline == 0 && !prior)
		return false;
	if (unresolved->n == 0) {
		status = "True";
		reason = "AllResolved";
		message = xstrdup("every spec.baseline entry resolves to a scope: Lifetime action");
	} else {
		size_t len = 1;
		for (size_t i = 0; i < unresolved->n; i++)
			len += strlen(unresolved->items[i]) + 2;
		char *joined = xcalloc(1, len);
		for (size_t i = 0; i < unresolved->n; i++) {
			if (i)
				strcat(joined, ", ");
			strcat(joined, unresolved->items[i]);
		}
		status = "False";
		reason = "Unresolved";
		message = xasprintf("spec.baseline entries that resolve to no scope: Lifetime action in StageSet \"%s\": %s",
				    ss_name, joined);
		free(joined);
	}

	bool transitioned = !prior || strcmp(prior->status, status) != 0 ||
			    strcmp(prior->message, message) != 0;
	/* apimeta.SetStatusCondition: add, or update in place keeping the transition time unless status changed. */
	bool changed = false;
	int64_t now_s = clk->now_ms - ((clk->now_ms % 1000) + 1000) % 1000;
	if (!prior) {
		l->conditions = xreallocarray(l->conditions, l->nconditions + 1, sizeof(*l->conditions));
		struct sst_condition *c = &l->conditions[l->nconditions++];
		c->type = xstrdup(ACT_CONDITION_BASELINE_VALID);
		c->status = xstrdup(status);
		c->reason = xstrdup(reason);
		c->message = xstrdup(message);
		c->observed_generation = l->generation;
		c->last_transition_ms = now_s;
		changed = true;
	} else {
		if (strcmp(prior->status, status) != 0) {
			free(prior->status);
			prior->status = xstrdup(status);
			prior->last_transition_ms = now_s;
			changed = true;
		}
		if (strcmp(prior->reason, reason) != 0) {
			free(prior->reason);
			prior->reason = xstrdup(reason);
			changed = true;
		}
		if (strcmp(prior->message, message) != 0) {
			free(prior->message);
			prior->message = xstrdup(message);
			changed = true;
		}
		if (prior->observed_generation != l->generation) {
			prior->observed_generation = l->generation;
			changed = true;
		}
	}
	if (transitioned && strcmp(status, "False") == 0 && ev) {
		ssc_events_add(ev, clk->now_ms, true, ACT_EVENT_BASELINE_INVALID, "%s", message);
		ev->items[ev->n - 1].on_ledger = true;
	}
	free(message);
	return changed;
}

int act_record_lifetime_completion(const struct ssc_env *env, const struct ssc_clock *clk,
				   struct act_stage_ledger *l, const char *ns, const char *stage,
				   const char *action, const struct sst_action *anchor,
				   struct ssc_err *err)
{
	char uid[256];
	if (!l) {
		ssc_err_set(err, SSC_ERR,
			    "Internal error occurred: scope: Lifetime action has no StageLedger to record into");
		return -1;
	}
	if (act_stage_ledger_is_completed(l, stage, action))
		return 0;
	if (anchor) {
		struct ssc_err e = { SSC_OK, "" };
		uid[0] = '\0';
		if (env->anchor_uid(env->ctx, anchor->anchor_api_version, anchor->anchor_kind, ns,
				    anchor->anchor_name, clk->now_ms, uid, sizeof(uid), &e) != 0) {
			ssc_err_set(err, e.code,
				    "completionAnchor %s %s/%s for action \"%s\"/\"%s\" could not be read at completion (it must exist so its UID can be recorded): %s",
				    anchor->anchor_kind, ns, anchor->anchor_name, stage, action, e.msg);
			return -1;
		}
	}
	struct act_completion *c = append_completion(l, stage, action, ACT_ORIGIN_EXECUTED, clk->now_ms);
	if (anchor) {
		c->has_anchor = true;
		free(c->anchor_api_version);
		free(c->anchor_kind);
		free(c->anchor_name);
		free(c->anchor_uid);
		c->anchor_api_version = xstrdup(anchor->anchor_api_version);
		c->anchor_kind = xstrdup(anchor->anchor_kind);
		c->anchor_name = xstrdup(anchor->anchor_name);
		c->anchor_uid = xstrdup(uid);
	}
	l->dirty = true;
	return 0;
}

void act_lifetime_gate_release(struct act_lifetime_gate *g)
{
	if (!g)
		return;
	sst_string_list_release(&g->done);
	sst_string_list_release(&g->invalidated);
	sst_string_list_release(&g->unreadable);
}

void act_evaluate_lifetime_gate(const struct ssc_env *env, const struct ssc_clock *clk,
				const struct act_stage_ledger *l, const char *ns, const char *stage,
				struct act_lifetime_gate *out)
{
	memset(out, 0, sizeof(*out));
	if (!l)
		return;
	for (size_t i = 0; i < l->ncompleted; i++) {
		const struct act_completion *c = &l->completed[i];
		char uid[256];
		struct ssc_err e = { SSC_OK, "" };
		if (strcmp(c->stage, stage) != 0)
			continue;
		if (!c->has_anchor) {
			sst_string_list_push(&out->done, c->action);
			continue;
		}
		uid[0] = '\0';
		int rc = env->anchor_uid(env->ctx, c->anchor_api_version, c->anchor_kind, ns,
					 c->anchor_name, clk->now_ms, uid, sizeof(uid), &e);
		if (rc != 0 && e.code == SSC_ERR_NOT_FOUND) {
			sst_string_list_push(&out->invalidated, c->action); /* confirmed absent */
		} else if (rc != 0) {
			sst_string_list_push(&out->done, c->action); /* fail open: retain */
			sst_string_list_push(&out->unreadable, c->action);
		} else if (strcmp(uid, c->anchor_uid) != 0) {
			sst_string_list_push(&out->invalidated, c->action); /* same name, fresh object */
		} else {
			sst_string_list_push(&out->done, c->action);
		}
	}
}

bool act_drop_completions(struct act_stage_ledger *l, const char *stage,
			  const struct sst_string_list *actions)
{
	size_t kept = 0;
	bool changed = false;
	if (!l || actions->n == 0)
		return false;
	for (size_t i = 0; i < l->ncompleted; i++) {
		struct act_completion *c = &l->completed[i];
		if (strcmp(c->stage, stage) == 0 && sst_string_list_has(actions, c->action)) {
			completion_release(c);
			changed = true;
			continue;
		}
		l->completed[kept++] = *c;
	}
	l->ncompleted = kept;
	if (changed)
		l->dirty = true;
	return changed;
}

void act_gate_lifetime_stage(const struct ssc_env *env, const struct ssc_clock *clk,
			     struct act_stage_ledger *l, const char *ns, const char *stage,
			     struct act_ledger *led, struct act_lifetime_gate *gate,
			     struct ssc_events *ev)
{
	struct act_lifetime_gate g;
	act_evaluate_lifetime_gate(env, clk, l, ns, stage, &g);
	sst_string_list_release(&led->lifetime_done);
	for (size_t i = 0; i < g.done.n; i++)
		sst_string_list_push(&led->lifetime_done, g.done.items[i]);
	for (size_t i = 0; i < g.unreadable.n; i++)
		ssc_events_add(ev, clk->now_ms, true, ACT_EVENT_LEDGER_ANCHOR_UNREADABLE,
			       "stage \"%s\" action \"%s\": completionAnchor unreadable; retaining the completion (grant the stage's ServiceAccount read on the anchor kind)",
			       stage, g.unreadable.items[i]);
	if (act_drop_completions(l, stage, &g.invalidated)) {
		for (size_t i = 0; i < g.invalidated.n; i++)
			ssc_events_add(ev, clk->now_ms, false, ACT_EVENT_LEDGER_INVALIDATED,
				       "stage \"%s\" action \"%s\": completionAnchor witness is gone; the scope: Lifetime action will run again",
				       stage, g.invalidated.items[i]);
	}
	if (gate)
		*gate = g;
	else
		act_lifetime_gate_release(&g);
}
