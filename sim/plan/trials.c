/*
 * Monte Carlo trials: seeds, the reduction of a run to a row, and the thread
 * pool.  Threads share only the scenario (read-only), a counter of the next
 * trial to start and a counter of finished trials; every trial builds and
 * frees its own world, so nothing else is shared (run_scenario() and what it
 * calls keep no static or global mutable state; GSL's error handler is set
 * once, before any thread starts, by rng_gsl_init()).
 */
#include "sim/plan/trials.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/core/rng.h"
#include "sim/wire/stageset_rc.h"

/* SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection on 64 bits. */
static uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Index 0 keeps the base, so `run -n N` starts with the very run `run`
 * shows.  Otherwise the base is mixed first (nearby bases land far apart),
 * then the index is added as a multiple of the golden-ratio increment and the
 * sum mixed again: for one base, distinct indices give distinct sums (the
 * increment is odd, so index -> index * increment is a bijection mod 2^64),
 * and mix64 is a bijection, so two indices of one base never share a seed.
 */
uint64_t trials_seed(uint64_t base, uint32_t index)
{
	if (index == 0)
		return base;
	return mix64(mix64(base ^ 0x6a09e667f3bcc909ULL) + (uint64_t)index * 0x9e3779b97f4a7c15ULL);
}

/* "step NAME" (or "step N", 1-based, for a step without a name). New string. */
/*
 * The label of step @i of @ro: "step NAME", or "step N" (1-based) without a
 * name.  Upstream step names need not be unique (they are used in messages
 * only): a name two steps share is told apart by its position, "step NAME
 * (N)", so that the statistics keep one phase per step.
 */
static char *step_label(const struct obs_rollout *ro, size_t i)
{
	const struct obs_step *st = &ro->steps[i];

	if (!st->name || !st->name[0])
		return xasprintf("step %zu", i + 1);
	for (size_t k = 0; k < ro->nsteps; k++)
		if (k != i && ro->steps[k].name && strcmp(ro->steps[k].name, st->name) == 0)
			return xasprintf("step %s (%zu)", st->name, i + 1);
	return xasprintf("step %s", st->name);
}

static void push_phase(struct trial_row *row, size_t *cap, char *driver, char *name,
		       int64_t opened_ms, int64_t done_ms)
{
	if (row->nphases == *cap) {
		*cap = *cap ? *cap * 2 : 8;
		row->phases = xreallocarray(row->phases, *cap, sizeof(*row->phases));
	}
	row->phases[row->nphases++] = (struct trial_phase){ driver, name, opened_ms, done_ms };
}

struct edge {
	int64_t t;
	int delta; /* +1 start, -1 end */
};

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	if (a->t != b->t)
		return a->t < b->t ? -1 : 1;
	/* an end at t before a start at t: intervals are half-open [start, end) */
	return (a->delta > b->delta) - (a->delta < b->delta);
}

/*
 * The most StageSet members with an adoption in flight at once: a member
 * adopts over the union of its attempts, each holding [start, end) (an
 * attempt still in flight at the end holds to @end_ms).  The same count as
 * the "adopting members" counters of reports/spans.h built with the model
 * (sp_build_members()), summed over the FleetRollouts.
 */
static unsigned peak_adopting(const struct ssrc *m, int64_t end_ms)
{
	const struct ssrc_member_stat *ms;
	size_t n = m ? ssrc_members(m, &ms) : 0, ne = 0, cap = 0;
	struct edge *e = NULL;
	unsigned peak = 0;
	long cur = 0;

	for (size_t i = 0; i < n; i++) {
		int64_t lo = -1, hi = -1; /* the member's stretch being merged, none yet */

		for (size_t k = 0; k <= ms[i].nattempts; k++) {
			const struct ssrc_attempt *a = k < ms[i].nattempts ? &ms[i].attempts[k] : NULL;
			int64_t end = a ? (a->end_ms >= 0 ? a->end_ms : end_ms) : -1;

			if (a && (a->start_ms < 0 || end <= a->start_ms))
				continue;
			if (a && lo >= 0 && a->start_ms <= hi) { /* overlaps or touches: one stretch */
				hi = end > hi ? end : hi;
				continue;
			}
			if (lo >= 0) {
				if (ne + 2 > cap) {
					cap = cap ? cap * 2 : 64;
					e = xreallocarray(e, cap, sizeof(*e));
				}
				e[ne++] = (struct edge){ lo, +1 };
				e[ne++] = (struct edge){ hi, -1 };
			}
			if (a) {
				lo = a->start_ms;
				hi = end;
			}
		}
	}
	if (ne)
		qsort(e, ne, sizeof(*e), cmp_edge);
	for (size_t i = 0; i < ne; i++) {
		cur += e[i].delta;
		if (cur > (long)peak)
			peak = (unsigned)cur;
	}
	free(e);
	return peak;
}

/*
 * What the bound's notice says about the run it stopped: "hot objects: Kind
 * ns/name xN, ..." (reconciled most), or its first clause when it names none.
 * New, or NULL without such a notice.
 */
static char *bound_note(const struct tl *tl)
{
	size_t n = tl_notice_count(tl);

	for (size_t i = n; i-- > 0;) {
		struct tl_notice nt;
		char *out, *next;

		tl_notice_get(tl, i, &nt);
		if (strncmp(nt.text, "zero-delay loop", 15) != 0 &&
		    strncmp(nt.text, "event budget", 12) != 0)
			continue;
		if (!nt.nrelated)
			return xstrndup(nt.text, strcspn(nt.text, ";"));
		out = xstrdup("hot objects:");
		for (size_t k = 0; k < nt.nrelated; k++) {
			const struct tl_objref *r = &nt.related[k];

			next = xasprintf("%s%s %s %s%s%s x%llu", out, k ? "," : "", r->kind, r->ns,
					 r->ns[0] ? "/" : "", r->name, (unsigned long long)r->count);
			free(out);
			out = next;
		}
		return out;
	}
	return NULL;
}

/* The Rollout's first failed Workspace of its Project at or before @halt_ms, or -1. */
static int64_t rollout_onset(const struct obs *obs, const struct obs_rollout *ro, int64_t halt_ms)
{
	size_t n;
	const struct obs_workspace *ws = obs_workspaces(obs, &n);
	int64_t onset = -1;

	for (size_t i = 0; i < n; i++) {
		if (strcmp(ws[i].ns, ro->ns) != 0 || !ws[i].project ||
		    strcmp(ws[i].project, ro->project ? ro->project : "") != 0)
			continue;
		if (ws[i].failed_ms >= 0 && ws[i].failed_ms <= halt_ms &&
		    (onset < 0 || ws[i].failed_ms < onset))
			onset = ws[i].failed_ms;
	}
	return onset;
}

/* Targets in scope when nothing halted: existing Workspaces and StageSet members. */
static size_t targets_total(const struct run_result *r)
{
	const struct obs_workspace *ws = NULL;
	const struct ssrc_member_stat *ms;
	size_t n = 0, total = 0;
	const struct ssrc *m = fleet_glue_ssrc(r->fleet);

	if (r->obs)
		ws = obs_workspaces(r->obs, &n);
	for (size_t i = 0; i < n; i++)
		total += ws[i].exists;
	if (m)
		total += ssrc_members(m, &ms);
	return total;
}

static void notices_of(const struct tl *tl, struct trial_row *row);

void trial_row_from_run(const struct run_result *r, uint32_t index, struct trial_row *row)
{
	const struct oc_summary *sm = &r->summary;
	const struct obs_rollout *ro = NULL;
	const struct fo_fleet *fl = NULL;
	size_t nro = 0, nfl = 0;
	size_t cap = 0;
	bool halt_found = false;

	memset(row, 0, sizeof(*row));
	if (r->obs)
		ro = obs_rollouts(r->obs, &nro);
	if (r->fobs)
		fl = fo_fleets(r->fobs, &nfl);
	row->index = index;
	row->seed = r->seed;
	row->stop = r->stop;
	row->end_ms = r->end_ms;
	row->events = r->world ? des_events(r->world) : 0;
	row->completed = sm->completed;
	row->ttc_ms = sm->completed ? sm->time_to_complete_ms : -1;
	row->already_complete = sm->completed && sm->already_complete;
	row->nothing_to_complete = sm->completed && sm->nothing_to_complete;
	row->halted = sm->halted;
	/*
	 * A trial's halt counts from its start (trials/v1: halt_ms >= 0): one
	 * before the start that the snapshot dates (summary halt_ms < 0) is
	 * there when the trial starts, at 0, on either engine.
	 */
	row->halt_ms = !sm->halted ? -1 : sm->halt_ms < 0 ? 0 : sm->halt_ms;
	row->halt_before_start = sm->halted && sm->halt_before_start;
	row->detection_ms = -1;
	if (sm->halted && sm->halt_reason)
		row->halt_reason = xstrdup(sm->halt_reason);

	for (size_t i = 0; i < nro; i++) {
		char *driver = xasprintf("Rollout %s/%s", ro[i].ns, ro[i].name);

		for (size_t k = 0; k < ro[i].nsteps; k++)
			push_phase(row, &cap, xstrdup(driver), step_label(&ro[i], k),
				   ro[i].steps[k].opened_ms, ro[i].steps[k].completed_ms);
		free(driver);
		/* The first halt is the summary's: its object names the driver. */
		if (!halt_found && sm->halted && ro[i].halted && sm->halt_kind &&
		    !strcmp(sm->halt_kind, "Rollout") && sm->halt_ns && sm->halt_name &&
		    !strcmp(sm->halt_ns, ro[i].ns) && !strcmp(sm->halt_name, ro[i].name)) {
			int64_t onset = rollout_onset(r->obs, &ro[i], ro[i].halt_ms);

			halt_found = true;
			if (ro[i].halt_step >= 0 && (size_t)ro[i].halt_step < ro[i].nsteps)
				row->halt_where = step_label(&ro[i],
							     (size_t)ro[i].halt_step);
			else
				row->halt_where = xstrdup("step ?");
			row->blast_count = ro[i].nblast;
			row->blast_total = ro[i].blast_total;
			if (onset >= 0)
				row->detection_ms = ro[i].halt_ms - onset;
		}
	}
	for (size_t i = 0; i < nfl; i++) {
		char *driver = xasprintf("FleetRollout %s", fl[i].name);

		for (size_t k = 0; k < fl[i].nwaves; k++)
			push_phase(row, &cap, xstrdup(driver), xasprintf("wave %s", fl[i].waves[k].name),
				   fl[i].waves[k].opened_ms, fl[i].waves[k].passed_ms);
		free(driver);
		if (!halt_found && sm->halted && (fl[i].nhalts || fl[i].npast_halts) && sm->halt_kind &&
		    !strcmp(sm->halt_kind, "FleetRollout") && sm->halt_name &&
		    !strcmp(sm->halt_name, fl[i].name)) {
			/* a halt before the start a snapshot carried is the first */
			const struct fo_halt *h = fl[i].npast_halts ? &fl[i].past_halts[0] : &fl[i].halts[0];

			halt_found = true;
			row->halt_where = xasprintf("wave %s", h->wave ? h->wave : "?");
			/* "Halted" alone does not tell a gate from a regression. */
			free(row->halt_reason);
			row->halt_reason = xasprintf("%s (%s)", h->reason ? h->reason : "Halted",
						     h->gate ? "gate" : "regression");
			if (fl[i].has_blast) {
				row->blast_count = fl[i].blast_count;
				row->blast_total = fl[i].blast_total;
				if (fl[i].detection_latency_ms >= 0)
					row->detection_ms = fl[i].detection_latency_ms;
				if (fl[i].exposure_member_ms > 0)
					row->exposure_ms = fl[i].exposure_member_ms;
			}
		}
	}
	if (sm->halted && !halt_found) {
		/* A halt the observers did not place: still counted, by its object. */
		row->halt_where = xasprintf("%s %s%s%s", sm->halt_kind ? sm->halt_kind : "?",
					    sm->halt_ns ? sm->halt_ns : "",
					    sm->halt_ns && sm->halt_ns[0] ? "/" : "",
					    sm->halt_name ? sm->halt_name : "?");
	}
	if (!halt_found)
		row->blast_total = targets_total(r);

	if (r->models) {
		const struct mdl_job_stat *js;
		size_t n = mdl_jobs(r->models, &js);

		row->peak_jobs = mdl_capacity_peak(r->models);
		for (size_t i = 0; i < n; i++)
			if (!js[i].resumed && js[i].slot_ms >= 0 && js[i].seen_ms >= 0)
				row->job_wait_ms += js[i].slot_ms - js[i].seen_ms;
	}
	row->peak_adopting = peak_adopting(fleet_glue_ssrc(r->fleet), r->end_ms);
	if ((r->stop == DES_LOOP || r->stop == DES_BUDGET) && r->world)
		row->bound_note = bound_note(des_timeline(r->world));
	if (r->world)
		notices_of(des_timeline(r->world), row);
}

char *trials_notice_key(const char *text)
{
	size_t n = strlen(text), k = 0;
	char *out = xmalloc(n + 1);

	for (size_t i = 0; i < n; i++) {
		if (text[i] >= '0' && text[i] <= '9') {
			if (k == 0 || out[k - 1] != '#')
				out[k++] = '#';
			continue;
		}
		out[k++] = text[i];
	}
	out[k] = '\0';
	return out;
}

/* A notice of a run: its kind and its place among the notices. */
struct keyed {
	char *key;
	size_t index;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static int cmp_index(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	return a->index < b->index ? -1 : a->index > b->index;
}

/*
 * The notices of @tl into @row, the first of each kind, in the order told;
 * info notices too, since most of the engines' surprising behaviours are
 * told as info (a soak restarted, a worker backlog under an hour) and a
 * summary of trials that left them out would hide how often they happen.
 * Cost: O(n log n) in the notices.
 */
static void notices_of(const struct tl *tl, struct trial_row *row)
{
	size_t n = tl_notice_count(tl), m = 0, kept = 0;
	struct keyed *v = xcalloc(n ? n : 1, sizeof(*v));
	struct tl_notice no;

	for (size_t i = 0; i < n; i++) {
		tl_notice_get(tl, i, &no);
		v[m++] = (struct keyed){ trials_notice_key(no.text), i };
	}
	qsort(v, m, sizeof(*v), cmp_keyed);
	for (size_t i = 0; i < m; i++) {
		if (kept && strcmp(v[kept - 1].key, v[i].key) == 0) {
			free(v[i].key);
			continue;
		}
		v[kept++] = v[i];
	}
	qsort(v, kept, sizeof(*v), cmp_index);
	row->notices = kept ? xcalloc(kept, sizeof(*row->notices)) : NULL;
	for (size_t i = 0; i < kept; i++) {
		tl_notice_get(tl, v[i].index, &no);
		row->notices[i] = (struct trial_notice){ xstrdup(no.text), no.severity };
		free(v[i].key);
	}
	row->nnotices = kept;
	free(v);
}

void trial_row_release(struct trial_row *row)
{
	if (!row)
		return;
	free(row->halt_where);
	free(row->halt_reason);
	for (size_t i = 0; i < row->nphases; i++) {
		free(row->phases[i].driver);
		free(row->phases[i].name);
	}
	free(row->phases);
	for (size_t i = 0; i < row->nnotices; i++)
		free(row->notices[i].text);
	free(row->notices);
	free(row->bound_note);
	memset(row, 0, sizeof(*row));
}

/* ---- the pool ---------------------------------------------------------- */

/* Finished rows that may wait for the caller, per thread: bounds the memory of rows. */
#define WINDOW_PER_THREAD 16

/*
 * Trials are claimed in index order, and a thread claims trial i only once
 * i < taken + window, so at most @window rows wait in @ring (slot i % window)
 * for the caller, who takes them in index order.  The thread of the lowest
 * trial not yet finished never waits for the window (every trial before it
 * is finished, so the caller takes up to it), so the pool always moves on.
 */
struct pool {
	const struct scenario *s;
	const struct trials_opts *o;
	uint64_t base;
	struct trial_row *ring; /* window slots */
	bool *ready;            /* slot holds its finished row */
	uint32_t window;
	pthread_mutex_t lock;   /* guards next, taken, ring and ready */
	pthread_cond_t cond;    /* broadcast on each finished row and each row taken */
	uint32_t next;          /* next trial (0..n) to claim */
	uint32_t taken;         /* rows handed to the caller */
	bool halt;              /* the events passed opts.max_events: claim no more */
};

/*
 * Adds @row's events to @total; true when that passes @o->max_events, with
 * @o->over filled in.  Called in index order only, so the answer does not
 * depend on which thread finished first.
 */
static bool over_budget(const struct trials_opts *o, const struct trial_row *row, uint64_t *total)
{
	*total = row->events > UINT64_MAX - *total ? UINT64_MAX : *total + row->events;
	if (!o->max_events || *total <= o->max_events)
		return false;
	if (o->over) {
		o->over->index = row->index;
		o->over->events = *total;
	}
	return true;
}

static void run_one(const struct pool *p, uint32_t i, struct trial_row *row)
{
	/* What this thread builds, for the out-of-memory message (engine/xalloc.h). */
	static _Thread_local char what[48];
	struct run_opts ro = p->o->run;
	struct run_result r;
	uint32_t index = p->o->first + i;
	const char *before;

	snprintf(what, sizeof(what), "running trial %" PRIu32, index);
	before = xalloc_what(what);
	ro.seed_set = true;
	ro.seed = trials_seed(p->base, index);
	run_scenario(p->s, &ro, &r);
	trial_row_from_run(&r, index, row);
	run_result_release(&r);
	xalloc_what(before);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	struct trial_row row;
	uint32_t i;

	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->halt && p->next < p->o->n && p->next - p->taken >= p->window)
			pthread_cond_wait(&p->cond, &p->lock);
		if (p->halt || p->next >= p->o->n)
			break;
		i = p->next++;
		pthread_mutex_unlock(&p->lock);
		run_one(p, i, &row);
		pthread_mutex_lock(&p->lock);
		p->ring[i % p->window] = row;
		p->ready[i % p->window] = true;
		pthread_cond_broadcast(&p->cond);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int trials_each(const struct scenario *s, const struct trials_opts *o,
		void (*take)(void *ctx, struct trial_row *row), void *ctx)
{
	struct pool p;
	pthread_t *tid;
	unsigned jobs = o->jobs ? o->jobs : 1, started = 0;
	uint64_t total = 0;
	int err = 0;

	if (jobs > o->n)
		jobs = o->n ? o->n : 1;
	memset(&p, 0, sizeof(p));
	p.s = s;
	p.o = o;
	p.base = o->run.seed_set ? o->run.seed : s->seed;
	/* Before any thread: GSL's handler is process-wide. */
	rng_gsl_init();

	if (jobs == 1) {
		for (uint32_t i = 0; i < o->n; i++) {
			struct trial_row row;

			run_one(&p, i, &row);
			if (over_budget(o, &row, &total)) {
				trial_row_release(&row);
				return 1;
			}
			take(ctx, &row);
			if (o->progress)
				o->progress(o->progress_ctx, i + 1, o->n);
		}
		return 0;
	}

	p.window = jobs * WINDOW_PER_THREAD;
	p.ring = xcalloc(p.window, sizeof(*p.ring));
	p.ready = xcalloc(p.window, sizeof(*p.ready));
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.cond, NULL);
	tid = xcalloc(jobs, sizeof(*tid));
	for (; started < jobs; started++) {
		err = pthread_create(&tid[started], NULL, worker, &p);
		if (err)
			break;
	}
	if (started == 0)
		goto out_free_pool;
	/* With fewer threads than asked, the ones started still finish every trial. */
	pthread_mutex_lock(&p.lock);
	while (p.taken < o->n) {
		uint32_t at = p.taken % p.window;
		struct trial_row row;

		while (!p.ready[at])
			pthread_cond_wait(&p.cond, &p.lock);
		row = p.ring[at];
		p.ready[at] = false;
		p.taken++;
		if (over_budget(o, &row, &total)) {
			/* No more claims; the trials under way finish and are freed below. */
			p.halt = true;
			pthread_cond_broadcast(&p.cond);
			pthread_mutex_unlock(&p.lock);
			trial_row_release(&row);
			break;
		}
		pthread_cond_broadcast(&p.cond);
		pthread_mutex_unlock(&p.lock);
		take(ctx, &row);
		if (o->progress)
			o->progress(o->progress_ctx, p.taken, o->n);
		pthread_mutex_lock(&p.lock);
	}
	if (!p.halt)
		pthread_mutex_unlock(&p.lock);
	for (unsigned t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	/* After a halt: the rows finished past the one that passed the bound. */
	for (uint32_t k = 0; k < p.window; k++)
		if (p.ready[k])
			trial_row_release(&p.ring[k]);
	err = 0;

out_free_pool:
	free(tid);
	free(p.ring);
	free(p.ready);
	pthread_cond_destroy(&p.cond);
	pthread_mutex_destroy(&p.lock);
	if (started == 0) {
		errno = err;
		return -1;
	}
	return p.halt ? 1 : 0;
}

/* trials_run()'s taker: the row moved into the array at its place. */
struct into_array {
	struct trial_row *rows;
	uint32_t first;
};

static void take_into_array(void *ctx, struct trial_row *row)
{
	struct into_array *t = ctx;

	t->rows[row->index - t->first] = *row;
}

int trials_run(const struct scenario *s, const struct trials_opts *o, struct trial_row **rows)
{
	struct into_array t = { xcalloc(o->n ? o->n : 1, sizeof(*t.rows)), o->first };

	int rc;

	*rows = NULL;
	rc = trials_each(s, o, take_into_array, &t);
	if (rc != 0) {
		for (uint32_t i = 0; i < o->n; i++)
			trial_row_release(&t.rows[i]);
		free(t.rows);
		return rc;
	}
	*rows = t.rows;
	return 0;
}
