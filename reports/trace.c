/*
 * The Chrome trace (reports/trace.h), streamed one event per line: each
 * event is a small jansson object dumped on its own, so a run with a
 * hundred thousand targets never holds one big tree.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "engine/xalloc.h"
#include "reports/tool.h"
#include "reports/trace.h"

/*
 * The first thread of every process: a driver's status row, the "run"
 * process's counters row.  Not 0: Perfetto's JSON importer merged tids 0
 * and 1 until 2025, and Chrome's trace viewer treats 0 specially in places.
 */
#define STATUS_TID 1

struct writer {
	FILE *f;
	bool first;
	int err;
};

/* A JSON string of @s; NULL is null, invalid UTF-8 bytes become '?'. */
static json_t *jstr(const char *s)
{
	json_t *j;
	char *c;

	if (!s)
		return json_null();
	if ((j = json_string(s)) != NULL)
		return j;
	c = xstrdup(s);
	for (char *p = c; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(c);
	free(c);
	return j ? j : json_null();
}

static json_t *us(int64_t ms)
{
	return json_integer((json_int_t)ms * 1000);
}

/* Writes event @ev (stolen) as one line of the traceEvents array. */
static void emit(struct writer *w, json_t *ev)
{
	char *s;

	if (w->err) {
		json_decref(ev);
		return;
	}
	s = ev ? json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10))
	       : NULL;
	json_decref(ev);
	if (!s) {
		w->err = ENOMEM;
		return;
	}
	if (fputs(w->first ? "\n" : ",\n", w->f) < 0 || fputs(s, w->f) < 0)
		w->err = errno ? errno : EIO;
	w->first = false;
	free(s);
}

static json_t *base(const char *name, const char *ph, int64_t ts_ms, long pid, long tid)
{
	json_t *e = json_object();

	json_object_set_new(e, "name", jstr(name));
	json_object_set_new(e, "ph", json_string(ph));
	json_object_set_new(e, "ts", us(ts_ms));
	json_object_set_new(e, "pid", json_integer(pid));
	json_object_set_new(e, "tid", json_integer(tid));
	return e;
}

static void meta(struct writer *w, const char *what, long pid, long tid, const char *name,
		 long sort)
{
	json_t *e = base(what, "M", 0, pid, tid), *a = json_object();

	if (name)
		json_object_set_new(a, "name", jstr(name));
	else
		json_object_set_new(a, "sort_index", json_integer(sort));
	json_object_set_new(e, "args", a);
	emit(w, e);
}

static void thread(struct writer *w, long pid, long tid, const char *name, long sort)
{
	meta(w, "thread_name", pid, tid, name, 0);
	meta(w, "thread_sort_index", pid, tid, NULL, sort);
}

static void complete(struct writer *w, const char *name, const char *cat, int64_t start,
		     int64_t end, long pid, long tid, json_t *args)
{
	json_t *e = base(name, "X", start, pid, tid);

	json_object_set_new(e, "cat", json_string(cat));
	json_object_set_new(e, "dur", us(end - start));
	json_object_set_new(e, "args", args ? args : json_object());
	emit(w, e);
}

static void instant(struct writer *w, const char *name, const char *cat, int64_t t, long pid,
		    long tid, const char *scope, json_t *args)
{
	json_t *e = base(name, "i", t, pid, tid);

	json_object_set_new(e, "cat", json_string(cat));
	json_object_set_new(e, "s", json_string(scope));
	json_object_set_new(e, "args", args ? args : json_object());
	emit(w, e);
}

static json_t *real_or_null(double v)
{
	json_t *j = json_real(v);

	return j ? j : json_null();
}

/* Counters belong to the process; tid 1 is its first thread (no trace uses tid 0, see trace.h). */
static void counter(struct writer *w, const char *name, int64_t t, long pid, json_t *args)
{
	json_t *e = base(name, "C", t, pid, 1);

	json_object_set_new(e, "args", args);
	emit(w, e);
}

/*
 * One point of counter @c.  Viewers name the track "NAME KEY" (Perfetto) or
 * show KEY as the series (chrome://tracing), so the event is named @c's name
 * without its trailing series word and the value's key is the series:
 * "running" + "jobs" reads "running jobs", not "running jobs value".
 */
static void counter_point(struct writer *w, const struct sp_counter *c, int64_t t, long pid,
			  double v)
{
	json_t *a = json_object();
	size_t n = strlen(c->name), k = strlen(c->series);
	char *name = n > k + 1 && !strcmp(c->name + n - k, c->series) && c->name[n - k - 1] == ' '
			     ? xasprintf("%.*s", (int)(n - k - 1), c->name)
			     : xstrdup(c->name);

	json_object_set_new(a, c->series, real_or_null(v));
	counter(w, name, t, pid, a);
	free(name);
}

/*
 * The counters of @driver (-1: the run's).  A counter of more than
 * REP_TRACE_MAX_POINTS points is drawn as the peak of each of
 * REP_TRACE_BUCKETS equal intervals of the run, at the interval's start
 * (and a point only when it differs from the last drawn).
 */
static void counters_of(struct writer *w, const struct sp_set *sp, long driver, long pid)
{
	int64_t step = sp->end_ms / REP_TRACE_BUCKETS + 1;

	for (size_t i = 0; i < sp->ncounters; i++) {
		const struct sp_counter *c = &sp->counters[i];
		double last = 0, peak = 0, cur = 0;
		bool drawn = false;
		size_t k = 0;

		if (c->driver != driver)
			continue;
		if (c->npoints <= REP_TRACE_MAX_POINTS) {
			for (k = 0; k < c->npoints; k++)
				counter_point(w, c, c->points[k].t_ms, pid, c->points[k].value);
			continue;
		}
		for (int64_t b = c->points[0].t_ms / step; k < c->npoints; b++) {
			/* The bucket's peak: the value carried in, and every point within. */
			peak = cur;
			for (; k < c->npoints && c->points[k].t_ms < (b + 1) * step; k++) {
				cur = c->points[k].value;
				peak = cur > peak ? cur : peak;
			}
			if (!drawn || peak != last) {
				counter_point(w, c, b * step, pid, peak);
				last = peak;
				drawn = true;
			}
		}
		if (cur != last)
			counter_point(w, c, c->points[c->npoints - 1].t_ms, pid, cur);
	}
}

/* The end of a group's bar: passed, else its halt, else the end of the run. */
static int64_t group_end(const struct sp_group *g, int64_t end)
{
	if (g->passed_ms >= g->opened_ms)
		return g->passed_ms;
	if (g->halted_ms >= 0 && g->halted_ms > g->opened_ms)
		return g->halted_ms;
	return end > g->opened_ms ? end : g->opened_ms;
}

static void group_rows(struct writer *w, const struct sp_driver *d, long pid, int64_t end,
		       const long *group_tid)
{
	const char *what = d->kind && !strcmp(d->kind, "Rollout") ? "step" : "wave";

	for (size_t g = 0; g < d->ngroups; g++) {
		const struct sp_group *gr = &d->groups[g];
		long tid = group_tid[g];
		int64_t ge = group_end(gr, end);
		char *name;
		json_t *a;

		if (gr->opened_ms < 0)
			continue;
		name = xasprintf("%s %s", what, gr->name);
		a = json_object();
		json_object_set_new(a, "opened_ms", json_integer(gr->opened_ms));
		json_object_set_new(a, "settled_ms",
				    gr->settled_ms >= 0 ? json_integer(gr->settled_ms) : json_null());
		json_object_set_new(a, "soak_end_ms",
				    gr->soak_end_ms >= 0 ? json_integer(gr->soak_end_ms) : json_null());
		json_object_set_new(a, "passed_ms",
				    gr->passed_ms >= 0 ? json_integer(gr->passed_ms) : json_null());
		json_object_set_new(a, "halted_ms",
				    gr->halted_ms >= 0 ? json_integer(gr->halted_ms) : json_null());
		json_object_set_new(a, "targets", json_integer((json_int_t)gr->ntargets));
		complete(w, name, "group", gr->opened_ms, ge, pid, tid, a);
		free(name);
		/* The soak, inside the wave's bar. */
		if (gr->settled_ms >= 0 && gr->soak_end_ms >= 0) {
			int64_t s = gr->settled_ms < gr->opened_ms ? gr->opened_ms : gr->settled_ms;
			int64_t e = gr->soak_end_ms > ge ? ge : gr->soak_end_ms;

			if (e > s) {
				a = json_object();
				json_object_set_new(a, "soak_end_ms", json_integer(gr->soak_end_ms));
				complete(w, "soak", "soak", s, e, pid, tid, a);
			}
		}
	}
}

/* Instants of driver @di: statuses and halts on the status thread, gates on the group's, stamps on the target's. */
static void driver_instants(struct writer *w, const struct sp_set *sp, size_t di, long pid,
			    const long *group_tid, const long *target_tid)
{
	const struct sp_driver *d = &sp->drivers[di];
	const struct sp_instant **prev = xcalloc(d->ngroups + 1, sizeof(*prev));
	size_t ngates = 0;
	bool thin;

	for (size_t i = 0; i < sp->ninstants; i++)
		ngates += sp->instants[i].driver == di && sp->instants[i].kind == SP_I_GATE;
	thin = ngates > REP_TRACE_MAX_GATES;
	for (size_t i = 0; i < sp->ninstants; i++) {
		const struct sp_instant *in = &sp->instants[i];
		json_t *a;

		if (in->driver != di)
			continue;
		if (in->kind == SP_I_GATE && in->group >= 0) {
			const struct sp_instant *p = prev[in->group];

			prev[in->group] = in;
			/* Thinned: only evaluations whose verdict, value or error differ from the last. */
			if (thin && p && p->has_value == in->has_value && p->value == in->value &&
			    !strcmp(p->label ? p->label : "", in->label ? in->label : "") &&
			    !strcmp(p->message ? p->message : "", in->message ? in->message : ""))
				continue;
		}
		a = json_object();
		switch (in->kind) {
		case SP_I_STATUS:
			json_object_set_new(a, "phase", jstr(in->label));
			json_object_set_new(a, "reason", jstr(in->message));
			instant(w, in->label ? in->label : "status", "status", in->t_ms, pid,
				STATUS_TID, "t", a);
			break;
		case SP_I_HALT:
			json_object_set_new(a, "reason", jstr(in->label));
			json_object_set_new(a, "message", jstr(in->message));
			json_object_set_new(a, "group",
					    in->group >= 0 ? jstr(sp->drivers[di].groups[in->group].name)
							   : json_null());
			instant(w, "halt", "halt", in->t_ms, pid, STATUS_TID, "p", a);
			break;
		case SP_I_GATE:
			json_object_set_new(a, "verdict", jstr(in->label));
			json_object_set_new(a, "value", in->has_value ? real_or_null(in->value)
								      : json_null());
			json_object_set_new(a, "min", jstr(in->min));
			json_object_set_new(a, "max", jstr(in->max));
			json_object_set_new(a, "error", jstr(in->message));
			{
				char *name = xasprintf("gate %s", in->label ? in->label : "?");

				instant(w, name, "gate", in->t_ms, pid,
					in->group >= 0 ? group_tid[in->group] : STATUS_TID, "t", a);
				free(name);
			}
			break;
		case SP_I_STAMP:
			json_object_set_new(a, "rollback_to", jstr(in->label));
			json_object_set_new(a, "member", jstr(in->message));
			instant(w, "rollback-to", "rollback", in->t_ms, pid,
				in->target >= 0 && target_tid && target_tid[in->target] >= 0
					? target_tid[in->target]
					: (in->group >= 0 ? group_tid[in->group] : STATUS_TID),
				"t", a);
			break;
		}
	}
	free(prev);
}

/*
 * The thread ids of driver @d, in the order the rows are shown: the status
 * thread STATUS_TID, then each group followed by its targets (without
 * @targets, the aggregated form: the groups alone), then the targets of no
 * group.  Viewers that ignore thread_sort_index order threads by tid, so
 * tid order is the display order.  Fills @group_tid (d->ngroups) and, with
 * @targets, @target_tid (indexed like sp->targets).
 */
static void plan_tids(const struct sp_driver *d, bool targets, long *group_tid, long *target_tid)
{
	long next = STATUS_TID + 1;
	size_t done = 0;

	for (size_t g = 0; g <= d->ngroups; g++) {
		size_t first = g < d->ngroups ? d->groups[g].first : d->first + done;
		size_t n = g < d->ngroups ? d->groups[g].ntargets : d->ntargets - done;

		if (g < d->ngroups)
			group_tid[g] = next++;
		done += n;
		for (size_t i = first; targets && i < first + n; i++)
			target_tid[i] = next++;
	}
}

/* Per-target threads of driver @d, tids from plan_tids(). */
static void target_rows(struct writer *w, const struct sp_set *sp, const struct sp_driver *d,
			long pid, const long *group_tid, const long *target_tid)
{
	size_t done = 0;

	/* Group rows first in sort order, each followed by its targets. */
	for (size_t g = 0; g <= d->ngroups; g++) {
		size_t first = g < d->ngroups ? d->groups[g].first : 0;
		size_t n = g < d->ngroups ? d->groups[g].ntargets : 0;

		if (g < d->ngroups) {
			char *name = xasprintf("%s %s",
					       d->kind && !strcmp(d->kind, "Rollout") ? "step" : "wave",
					       d->groups[g].name);

			thread(w, pid, group_tid[g], name, group_tid[g]);
			free(name);
		} else {
			/* The targets of no group: after every group's. */
			first = d->first + done;
			n = d->ntargets - done;
		}
		done += n;
		for (size_t i = first; i < first + n; i++) {
			const struct sp_target *t = &sp->targets[i];
			long tid = target_tid[i];
			char *name = t->ns && *t->ns ? xasprintf("%s/%s", t->ns, t->name)
						     : xstrdup(t->name);

			thread(w, pid, tid, name, tid);
			free(name);
			for (size_t k = 0; k < t->nspans; k++) {
				const struct sp_span *s = &t->spans[k];
				json_t *a;

				if (s->phase == SP_PENDING)
					continue;
				a = json_object();
				json_object_set_new(a, "label", jstr(s->label));
				json_object_set_new(a, "open_end", json_boolean(s->open_end));
				complete(w, sp_phase_name(s->phase), "phase", s->start_ms, s->end_ms, pid,
					 tid, a);
			}
		}
	}
}

/*
 * Aggregated form: per group (and the ungrouped targets) one counter whose
 * series count the targets in each phase at REP_TRACE_BUCKETS sample times.
 */
static void aggregate_rows(struct writer *w, const struct sp_set *sp, const struct sp_driver *d,
			   long pid, const long *group_tid)
{
	size_t nb = REP_TRACE_BUCKETS;
	int64_t step = sp->end_ms / (int64_t)nb + 1;
	long *diff = xcalloc((nb + 2) * SP_NPHASES, sizeof(*diff));
	long *cur = xcalloc(SP_NPHASES, sizeof(*cur)), *last = xcalloc(SP_NPHASES, sizeof(*last));
	size_t done = 0;

	for (size_t g = 0; g <= d->ngroups; g++) {
		size_t first = g < d->ngroups ? d->groups[g].first : d->first + done;
		size_t n = g < d->ngroups ? d->groups[g].ntargets : d->ntargets - done;
		char *name;
		bool any = false;

		if (g < d->ngroups) {
			name = xasprintf("%s %s",
					 d->kind && !strcmp(d->kind, "Rollout") ? "step" : "wave",
					 d->groups[g].name);
			thread(w, pid, group_tid[g], name, group_tid[g]);
			free(name);
		}
		done += n;
		if (!n)
			continue;
		memset(diff, 0, (nb + 2) * SP_NPHASES * sizeof(*diff));
		for (size_t i = first; i < first + n; i++) {
			const struct sp_target *t = &sp->targets[i];

			for (size_t k = 0; k < t->nspans; k++) {
				const struct sp_span *s = &t->spans[k];
				/* Sample times b*step with start <= b*step < end. */
				size_t b0 = (size_t)((s->start_ms + step - 1) / step);
				size_t b1 = (size_t)((s->end_ms + step - 1) / step);

				if (b0 > nb + 1)
					b0 = nb + 1;
				if (b1 > nb + 1)
					b1 = nb + 1;
				diff[b0 * SP_NPHASES + s->phase]++;
				diff[b1 * SP_NPHASES + s->phase]--;
			}
		}
		name = g < d->ngroups ? xasprintf("%s members", d->groups[g].name)
				      : xstrdup("ungrouped members");
		memset(cur, 0, SP_NPHASES * sizeof(*cur));
		for (size_t b = 0; b <= nb; b++) {
			bool changed = !any;
			int64_t t = (int64_t)b * step;

			if (t > sp->end_ms)
				t = sp->end_ms;
			for (size_t p = 0; p < SP_NPHASES; p++) {
				cur[p] += diff[b * SP_NPHASES + p];
				changed |= cur[p] != last[p];
			}
			if (changed) {
				json_t *a = json_object();

				for (size_t p = 0; p < SP_NPHASES; p++)
					json_object_set_new(a, sp_phase_name((enum sp_phase)p),
							    json_integer(cur[p]));
				counter(w, name, t, pid, a);
				memcpy(last, cur, SP_NPHASES * sizeof(*cur));
				any = true;
			}
			if (t == sp->end_ms)
				break;
		}
		free(name);
	}
	free(diff);
	free(cur);
	free(last);
}

int rep_trace(FILE *f, const struct rep_run *run, const struct sp_set *sp,
	      const struct rep_trace_opts *o)
{
	size_t max = o && o->max_targets ? o->max_targets : REP_TRACE_MAX_TARGETS;
	bool agg = sp->ntargets > max;
	struct writer w = { f, true, 0 };
	long *target_tid = xcalloc(sp->ntargets ? sp->ntargets : 1, sizeof(*target_tid));
	long runpid = (long)sp->ndrivers + 1;
	json_t *other;
	char *s;

	for (size_t i = 0; i < sp->ntargets; i++)
		target_tid[i] = -1;
	if (fputs("{\"traceEvents\":[", f) < 0)
		goto out_io;
	for (size_t di = 0; di < sp->ndrivers; di++) {
		const struct sp_driver *d = &sp->drivers[di];
		long pid = (long)di + 1;
		long *group_tid = xcalloc(d->ngroups ? d->ngroups : 1, sizeof(*group_tid));
		char label[512];

		plan_tids(d, !agg, group_tid, target_tid);
		meta(&w, "process_name", pid, STATUS_TID, sp_driver_label(d, label, sizeof(label)), 0);
		meta(&w, "process_sort_index", pid, STATUS_TID, NULL, pid);
		thread(&w, pid, STATUS_TID, "status", STATUS_TID);
		if (agg)
			aggregate_rows(&w, sp, d, pid, group_tid);
		else
			target_rows(&w, sp, d, pid, group_tid, target_tid);
		group_rows(&w, d, pid, sp->end_ms, group_tid);
		driver_instants(&w, sp, di, pid, group_tid, agg ? NULL : target_tid);
		counters_of(&w, sp, (long)di, pid);
		free(group_tid);
	}
	meta(&w, "process_name", runpid, STATUS_TID, "run", 0);
	meta(&w, "process_sort_index", runpid, STATUS_TID, NULL, runpid);
	thread(&w, runpid, STATUS_TID, "counters", STATUS_TID);
	counters_of(&w, sp, -1, runpid);
	free(target_tid);
	target_tid = NULL;
	if (w.err) {
		errno = w.err;
		return -1;
	}

	other = json_object();
	json_object_set_new(other, "schema", json_string("magos-sim/trace/v1"));
	json_object_set_new(other, "scenario", jstr(run->name));
	if (run->seed <= INT64_MAX) {
		json_object_set_new(other, "seed", json_integer((json_int_t)run->seed));
	} else {
		char buf[32];

		snprintf(buf, sizeof(buf), "%" PRIu64, run->seed);
		json_object_set_new(other, "seed", json_string(buf));
	}
	json_object_set_new(other, "end_ms", json_integer(sp->end_ms));
	json_object_set_new(other, "stop", jstr(run->stop));
	json_object_set_new(other, "targets", json_integer((json_int_t)sp->ntargets));
	json_object_set_new(other, "aggregated", json_boolean(agg));
	json_object_set_new(other, "tool", json_pack("{s:s,s:s,s:s}", "name", tool_name(), "version",
						     tool_version(), "commit", tool_commit()));
	s = json_dumps(other, JSON_COMPACT | JSON_PRESERVE_ORDER);
	json_decref(other);
	if (!s) {
		errno = ENOMEM;
		return -1;
	}
	/* No displayTimeUnit: older trace processors read it as the unit of ts, not of the display. */
	if (fprintf(f, "\n],\n\"otherData\":%s}\n", s) < 0) {
		free(s);
		goto out_io;
	}
	free(s);
	return 0;

out_io:
	free(target_tid);
	if (!errno)
		errno = EIO;
	return -1;
}
