#include "sim/observe/outcome.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

/* Per-object state while scanning; keyed by the interned (kind, ns, name) ids. */
struct seen {
	tl_str kind, ns, name;
	bool exists;
	bool applied;       /* Workspace currently Applied */
	int64_t completed;  /* driver: first completion, -1 none */
	bool idle;          /* Rollout: its last status was Ready/NoSteps */
};

struct seen_set {
	struct seen *items;
	size_t n, cap;
};

static struct seen *lookup(struct seen_set *s, const struct tl_rec *r)
{
	/* Timelines of one run name few distinct objects compared to entries;
	 * a linear probe over a small open-addressed table keeps this O(1). */
	size_t mask, i;

	if (s->n * 2 >= s->cap) {
		struct seen *old = s->items;
		size_t oldcap = s->cap;

		s->cap = s->cap ? s->cap * 2 : 64;
		s->items = xcalloc(s->cap, sizeof(*s->items));
		s->n = 0;
		for (size_t j = 0; j < oldcap; j++) {
			if (!old[j].kind)
				continue;
			mask = s->cap - 1;
			i = ((size_t)old[j].kind * 31u + (size_t)old[j].ns * 131u +
			     (size_t)old[j].name * 524287u) & mask;
			while (s->items[i].kind)
				i = (i + 1) & mask;
			s->items[i] = old[j];
			s->n++;
		}
		free(old);
	}
	mask = s->cap - 1;
	i = ((size_t)r->kind * 31u + (size_t)r->ns * 131u + (size_t)r->name * 524287u) & mask;
	while (s->items[i].kind) {
		if (s->items[i].kind == r->kind && s->items[i].ns == r->ns &&
		    s->items[i].name == r->name)
			return &s->items[i];
		i = (i + 1) & mask;
	}
	s->items[i] = (struct seen){ r->kind, r->ns, r->name, false, false, -1, false };
	s->n++;
	return &s->items[i];
}

static bool str_is(const struct tl *tl, tl_str id, const char *want)
{
	const char *s = tl_str_get(tl, id);

	return s && strcmp(s, want) == 0;
}

void oc_summarize(const struct tl *tl, struct oc_summary *out)
{
	struct seen_set set = { 0 };
	tl_str k_rollout = 0, k_fleet = 0, k_ws = 0;
	size_t n = tl_count(tl);
	long workspaces = 0, applied = 0;
	int64_t all_applied_at = -1;

	memset(out, 0, sizeof(*out));
	out->time_to_complete_ms = -1;
	out->halt_ms = -1;

	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *r = tl_rec_at(tl, i);
		struct seen *o;
		bool is_rollout, is_fleet, is_ws;

		/* Interned ids of the kinds are learnt on first sight. */
		if (!k_rollout && str_is(tl, r->kind, "Rollout"))
			k_rollout = r->kind;
		if (!k_fleet && str_is(tl, r->kind, "FleetRollout"))
			k_fleet = r->kind;
		if (!k_ws && str_is(tl, r->kind, "Workspace"))
			k_ws = r->kind;
		is_rollout = k_rollout && r->kind == k_rollout;
		is_fleet = k_fleet && r->kind == k_fleet;
		is_ws = k_ws && r->kind == k_ws;
		if (!is_rollout && !is_fleet && !is_ws)
			continue;

		o = lookup(&set, r);
		if (r->change == TL_DELETED) {
			if (is_ws && o->exists) {
				workspaces--;
				applied -= o->applied;
			}
			/* A driver deleted before it completed no longer has anything to finish. */
			if (!is_ws && o->exists && o->completed < 0)
				out->drivers--;
			o->exists = false;
			o->applied = false;
		} else {
			if (!o->exists) {
				o->exists = true;
				if (is_ws)
					workspaces++;
				else if (o->completed < 0)
					out->drivers++;
			}
		}

		if (is_ws && o->exists) {
			bool now_applied = str_is(tl, r->phase, "Applied");

			applied += (long)now_applied - (long)o->applied;
			o->applied = now_applied;
			if (workspaces > 0 && applied == workspaces && all_applied_at < 0)
				all_applied_at = r->t_ms;
		}
		if ((is_rollout || is_fleet) && o->exists) {
			bool done = is_rollout ? str_is(tl, r->phase, "Applied") &&
							 str_is(tl, r->reason, "RolloutCompleted")
					       : str_is(tl, r->phase, "Completed");
			/* A Failed Rollout grants nothing more, whatever the reason. */
			bool halt = is_rollout ? str_is(tl, r->phase, "Failed")
					       : str_is(tl, r->phase, "Halted");

			if (is_rollout && r->change == TL_STATUS)
				o->idle = str_is(tl, r->phase, "Ready") && str_is(tl, r->reason, "NoSteps");
			if (done && o->completed < 0) {
				o->completed = r->t_ms;
				out->drivers_completed++;
				/* Loaded complete: a finished rollout takes no time now. */
				if (r->change == TL_CREATED && r->t_ms == 0)
					out->drivers_already++;
				else if (r->t_ms > out->time_to_complete_ms)
					out->time_to_complete_ms = r->t_ms;
			}
			if (halt && !out->halted) {
				out->halted = true;
				out->halt_ms = r->t_ms;
				out->halt_before_start = r->change == TL_CREATED && r->t_ms == 0;
				out->halt_kind = tl_str_get(tl, r->kind);
				out->halt_ns = tl_str_get(tl, r->ns);
				out->halt_name = tl_str_get(tl, r->name);
				out->halt_reason = tl_str_get(tl, r->reason);
				out->halt_message = tl_str_get(tl, r->message);
			}
		}
	}

	for (size_t i = 0; i < set.cap; i++) /* open addressing: every slot, empty ones have kind 0 */
		out->drivers_idle += set.items[i].kind && set.items[i].exists && set.items[i].completed < 0 &&
				     set.items[i].idle;
	if (out->drivers > 0) {
		/*
		 * A Rollout without steps is a valid no-op upstream (Ready/NoSteps,
		 * chainsaw rollout/empty-steps): nothing of it is left to wait for,
		 * so it does not hold the run's completion back, and adds no time.
		 */
		out->completed = out->drivers_completed + out->drivers_idle == out->drivers;
		out->nothing_to_complete = out->completed && out->drivers_idle > 0 &&
					   out->drivers_completed == out->drivers_already;
		out->already_complete = out->completed && out->drivers_already == out->drivers;
	} else if (all_applied_at >= 0) {
		out->completed = true;
		out->time_to_complete_ms = all_applied_at;
	}
	if (!out->completed)
		out->time_to_complete_ms = -1;
	out->censored = !out->completed;
	free(set.items);
}
