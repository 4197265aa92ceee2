/*
 * Spans of one run (reports/spans.h): one pass over the timeline keeps, per
 * Workspace and StageSet, the phase category it is in and since when, per
 * Job whether it holds a runner, and per driver its last status; the
 * observers' results add steps, waves, halts, gate evaluations and rollback
 * stamps.  Objects seen on the timeline are found again by their interned
 * (namespace, name) ids, so the pass does no string work per entry beyond
 * comparing the kind.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/spans.h"
#include "sim/base/strindex.h"

/* ---- a (namespace id, name id) → index map, open addressing ---------- */

struct idmap {
	uint64_t *keys; /* 0 = empty slot; a key is never 0 (name ids are > 0) */
	size_t *vals;
	size_t cap, n;
};

static uint64_t id_key(tl_str ns, tl_str name)
{
	return ((uint64_t)ns << 32) | name;
}

static size_t id_slot(uint64_t k, size_t cap)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return (size_t)k & (cap - 1);
}

static void idmap_grow(struct idmap *m)
{
	size_t ncap = m->cap ? m->cap * 2 : 64;
	uint64_t *nk = xcalloc(ncap, sizeof(*nk));
	size_t *nv = xcalloc(ncap, sizeof(*nv));

	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->keys[i])
			continue;
		for (j = id_slot(m->keys[i], ncap); nk[j]; j = (j + 1) & (ncap - 1))
			;
		nk[j] = m->keys[i];
		nv[j] = m->vals[i];
	}
	free(m->keys);
	free(m->vals);
	m->keys = nk;
	m->vals = nv;
	m->cap = ncap;
}

/* Finds @k; when absent and @add, maps it to @add_val.  Returns the slot's value pointer or NULL. */
static size_t *idmap_find(struct idmap *m, uint64_t k, bool add, size_t add_val)
{
	size_t j;

	if (!m->cap) {
		if (!add)
			return NULL;
		idmap_grow(m);
	}
	for (j = id_slot(k, m->cap); m->keys[j]; j = (j + 1) & (m->cap - 1))
		if (m->keys[j] == k)
			return &m->vals[j];
	if (!add)
		return NULL;
	if (2 * (m->n + 1) > m->cap) {
		idmap_grow(m);
		for (j = id_slot(k, m->cap); m->keys[j]; j = (j + 1) & (m->cap - 1))
			;
	}
	m->keys[j] = k;
	m->vals[j] = add_val;
	m->n++;
	return &m->vals[j];
}

static void idmap_release(struct idmap *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}

/* ---- names ------------------------------------------------------------ */

static const char *const phase_names[SP_NPHASES] = {
	[SP_PENDING] = "pending",
	[SP_PLANNING] = "planning",
	[SP_AWAITING_APPROVAL] = "awaiting approval",
	[SP_APPLYING] = "applying",
	[SP_APPLIED] = "applied",
	[SP_FAILED] = "failed",
	[SP_ADOPTING] = "adopting",
	[SP_READY] = "ready",
	[SP_NOT_READY] = "not ready",
	[SP_ROLLING_BACK] = "rolling back",
	[SP_ROLLED_BACK] = "rolled back",
	[SP_OTHER] = "other",
};

const char *sp_phase_name(enum sp_phase p)
{
	return (unsigned)p < SP_NPHASES ? phase_names[p] : "other";
}

const char *sp_instant_kind_name(enum sp_instant_kind k)
{
	switch (k) {
	case SP_I_HALT:
		return "halt";
	case SP_I_GATE:
		return "gate";
	case SP_I_STAMP:
		return "rollback";
	case SP_I_STATUS:
		return "status";
	}
	return "?";
}

char *sp_driver_label(const struct sp_driver *d, char *buf, size_t size)
{
	if (!d->kind)
		snprintf(buf, size, "%s", d->name);
	else if (d->ns && *d->ns)
		snprintf(buf, size, "%s %s/%s", d->kind, d->ns, d->name);
	else
		snprintf(buf, size, "%s %s", d->kind, d->name);
	return buf;
}

/* ---- the pass's per-target state -------------------------------------- */

enum tkind { T_WORKSPACE, T_STAGESET };

struct tstate {
	struct sp_target t;
	size_t cap;
	bool open;            /* in a phase now */
	enum sp_phase cur;
	const char *cur_label;
	int64_t since;
	const char *reason;   /* StageSet: last Ready reason seen */
	const char *adopt_reason; /* StageSet: the reason when ADOPTING / ROLLING_BACK began */
	bool stamped;         /* StageSet: a rollback-to stamp seen */
	size_t counter;       /* adopting counter of its driver, SIZE_MAX none */
};

struct builder {
	const struct rep_run *run;
	bool attempts; /* StageSet adoptions from the attempts the fleet observer recorded */
	struct sp_set *s;
	struct tstate *ts;
	size_t nts, capts;
	struct idmap tmap, jmap, dmap;
	struct strindex tkeys;   /* "ns/name" → target state index (StageSets for stamps) */
	size_t nrollouts, nfleets;
	bool need_unassigned;
	size_t instcap, countcap;
	size_t jobs_counter;
	long running;
	/* Workspace → (rollout, step), from the steps' members; and "ns/project" → rollout. */
	struct strindex ws_step, proj_rollout;
	size_t *ws_step_val; /* pairs (rollout, step) by position */
	/* Per driver: the last status instant's phase and reason. */
	bool *dseen;
	const char **dphase, **dreason;
	size_t nws_step, capws_step;
};

static void push_span(struct tstate *st, int64_t end, bool open_end)
{
	struct sp_span *sp;

	if (!st->open || end <= st->since)
		return;
	if (st->t.nspans == st->cap) {
		st->cap = st->cap ? st->cap * 2 : 4;
		st->t.spans = xreallocarray(st->t.spans, st->cap, sizeof(*st->t.spans));
	}
	sp = &st->t.spans[st->t.nspans++];
	sp->start_ms = st->since;
	sp->end_ms = end;
	sp->phase = st->cur;
	sp->label = st->cur_label;
	sp->open_end = open_end;
}

static size_t add_counter(struct builder *b, const char *name, const char *series, long driver,
			  long group)
{
	struct sp_set *s = b->s;

	if (s->ncounters == b->countcap) {
		b->countcap = b->countcap ? b->countcap * 2 : 8;
		s->counters = xreallocarray(s->counters, b->countcap, sizeof(*s->counters));
	}
	s->counters[s->ncounters] = (struct sp_counter){ xstrdup(name), series, driver, group, NULL, 0 };
	return s->ncounters++;
}

/* Sets counter @c to @v at @t: the last value of an instant wins; one point per change. */
static void counter_set(struct sp_counter *c, int64_t t, double v)
{
	if (c->npoints && c->points[c->npoints - 1].t_ms == t) {
		c->points[c->npoints - 1].value = v;
		if (c->npoints >= 2 && c->points[c->npoints - 2].value == v)
			c->npoints--;
		return;
	}
	if (c->npoints && c->points[c->npoints - 1].value == v)
		return;
	/* Capacity doubles at powers of two (npoints is the only size kept). */
	if ((c->npoints & (c->npoints - 1)) == 0)
		c->points = xreallocarray(c->points, c->npoints ? c->npoints * 2 : 1,
					  sizeof(*c->points));
	c->points[c->npoints++] = (struct sp_point){ t, v };
}

static bool adopting(enum sp_phase p)
{
	return p == SP_ADOPTING || p == SP_ROLLING_BACK;
}

/* Moves @st into @p at @t (a new span unless it is in @p already). */
static void enter(struct tstate *st, int64_t t, enum sp_phase p, const char *label)
{
	if (st->open && st->cur == p)
		return;
	push_span(st, t, false);
	if (st->open && st->since == t && st->t.nspans && st->t.spans[st->t.nspans - 1].end_ms == t &&
	    st->t.spans[st->t.nspans - 1].phase == p) {
		/* Back to the phase it left this very instant: continue that span. */
		st->since = st->t.spans[--st->t.nspans].start_ms;
		st->cur_label = st->t.spans[st->t.nspans].label;
	} else {
		st->since = t;
		st->cur_label = label;
	}
	st->open = true;
	st->cur = p;
}

static void leave(struct tstate *st, int64_t t)
{
	if (!st->open)
		return;
	push_span(st, t, false);
	st->open = false;
}

static enum sp_phase ws_phase(const char *phase)
{
	if (!strcmp(phase, "Pending"))
		return SP_PENDING;
	if (!strcmp(phase, "Planning"))
		return SP_PLANNING;
	if (!strcmp(phase, "Planned"))
		return SP_AWAITING_APPROVAL;
	if (!strcmp(phase, "Applying"))
		return SP_APPLYING;
	if (!strcmp(phase, "Applied"))
		return SP_APPLIED;
	if (!strcmp(phase, "Failed") || !strcmp(phase, "ValidationFailed"))
		return SP_FAILED;
	return SP_OTHER;
}

static enum sp_phase ss_phase(const struct tstate *st, const char *reason)
{
	if (!strcmp(reason, "AwaitingApproval"))
		return SP_AWAITING_APPROVAL;
	if (!strcmp(reason, "Succeeded"))
		return st->stamped ? SP_ROLLED_BACK : SP_READY;
	return SP_NOT_READY;
}

/* Whether a detail "annotations: ..." sets or changes annotation @key (not removes it). */
static bool sets_annotation(const char *detail, const char *key)
{
	const char *p = detail;
	size_t kl = strlen(key);

	if (!detail || strncmp(detail, "annotations: ", 13) != 0)
		return false;
	while ((p = strstr(p, key)) != NULL) {
		if (p[kl] == '=' && !(p > detail && p[-1] == '-'))
			return true;
		p += kl;
	}
	return false;
}

/* Whether a status detail "status: a, b, c" lists field @field. */
static bool lists_field(const char *detail, const char *field)
{
	size_t fl = strlen(field);
	const char *p;

	if (!detail || strncmp(detail, "status: ", 8) != 0)
		return false;
	for (p = detail + 8; *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == fl && !strncmp(p, field, fl))
			return true;
		if (!e)
			break;
		p = e + 1;
		while (*p == ' ')
			p++;
	}
	return false;
}

/* ---- drivers and membership ------------------------------------------- */

static char *key2(const char *a, const char *b)
{
	return xasprintf("%s/%s", a ? a : "", b ? b : "");
}

static void setup_drivers(struct builder *b)
{
	const struct rep_run *run = b->run;
	struct sp_set *s = b->s;
	size_t nr = 0, nf = 0;
	const struct obs_rollout *ro = run->obs ? obs_rollouts(run->obs, &nr) : NULL;
	const struct fo_fleet *fl = run->fleets ? fo_fleets(run->fleets, &nf) : NULL;

	b->nrollouts = nr;
	b->nfleets = nf;
	/* One spare slot for "(no rollout)". */
	s->drivers = xcalloc(nr + nf + 1, sizeof(*s->drivers));
	for (size_t i = 0; i < nr; i++) {
		struct sp_driver *d = &s->drivers[i];
		char *k;

		d->kind = "Rollout";
		d->ns = ro[i].ns;
		d->name = ro[i].name;
		d->completed_ms = ro[i].completed_ms;
		d->halted_ms = ro[i].halted ? ro[i].halt_ms : -1;
		d->ngroups = ro[i].nsteps;
		d->groups = xcalloc(d->ngroups ? d->ngroups : 1, sizeof(*d->groups));
		for (size_t k2 = 0; k2 < ro[i].nsteps; k2++) {
			const struct obs_step *st = &ro[i].steps[k2];
			struct sp_group *g = &d->groups[k2];

			g->name = st->name;
			g->opened_ms = st->opened_ms;
			g->settled_ms = st->completed_ms;
			g->soak_end_ms = -1;
			g->passed_ms = st->completed_ms;
			g->halted_ms = ro[i].halted && ro[i].halt_step == (int)k2 ? ro[i].halt_ms : -1;
			for (size_t m = 0; m < st->nmembers; m++) {
				size_t pos;

				k = key2(ro[i].ns, st->members[m]);
				if (!si_get(&b->ws_step, k, &pos)) {
					if (b->nws_step == b->capws_step) {
						b->capws_step = b->capws_step ? 2 * b->capws_step : 16;
						b->ws_step_val = xreallocarray(b->ws_step_val,
									       2 * b->capws_step,
									       sizeof(size_t));
					}
					b->ws_step_val[2 * b->nws_step] = i;
					b->ws_step_val[2 * b->nws_step + 1] = k2;
					si_put(&b->ws_step, k, b->nws_step++);
				}
				free(k);
			}
		}
		k = key2(ro[i].ns, ro[i].project);
		if (!si_get(&b->proj_rollout, k, &(size_t){ 0 }))
			si_put(&b->proj_rollout, k, i);
		free(k);
	}
	for (size_t i = 0; i < nf; i++) {
		struct sp_driver *d = &s->drivers[nr + i];
		const struct fo_fleet *f = &fl[i];

		d->kind = "FleetRollout";
		d->ns = "";
		d->name = f->name;
		d->completed_ms = f->completed_ms;
		d->halted_ms = f->nhalts ? f->halts[0].t_ms : -1;
		d->ngroups = f->nwaves;
		d->groups = xcalloc(d->ngroups ? d->ngroups : 1, sizeof(*d->groups));
		for (size_t w = 0; w < f->nwaves; w++) {
			const struct fo_wave *fw = &f->waves[w];
			struct sp_group *g = &d->groups[w];

			g->name = fw->name;
			g->opened_ms = fw->opened_ms;
			g->settled_ms = fw->last_settled_ms >= 0 ? fw->last_settled_ms : fw->settled_ms;
			g->soak_end_ms = fw->soaks ? fw->soak_until_ms : -1;
			g->passed_ms = fw->passed_ms;
			g->halted_ms = -1;
			for (size_t h = 0; h < f->nhalts; h++)
				if (f->halts[h].wave && !strcmp(f->halts[h].wave, fw->name)) {
					g->halted_ms = f->halts[h].t_ms;
					break;
				}
		}
		add_counter(b, "adopting members", "members", (long)(nr + i), -1);
	}
	s->ndrivers = nr + nf;
	b->dseen = xcalloc(nr + nf + 1, sizeof(*b->dseen));
	b->dphase = xcalloc(nr + nf + 1, sizeof(*b->dphase));
	b->dreason = xcalloc(nr + nf + 1, sizeof(*b->dreason));
}

/* The driver and group of a new target. */
static void place(struct builder *b, struct tstate *st, enum tkind k)
{
	char *key = key2(st->t.ns, st->t.name);
	size_t pos;

	st->t.driver = SIZE_MAX;
	st->t.group = -1;
	st->counter = SIZE_MAX;
	if (k == T_WORKSPACE) {
		if (si_get(&b->ws_step, key, &pos)) {
			st->t.driver = b->ws_step_val[2 * pos];
			st->t.group = (long)b->ws_step_val[2 * pos + 1];
		} else if (b->run->obs) {
			const struct obs_workspace *w = obs_workspace(b->run->obs, st->t.ns, st->t.name);
			char *pk = w ? key2(st->t.ns, w->project) : NULL;

			if (pk && si_get(&b->proj_rollout, pk, &pos))
				st->t.driver = pos;
			free(pk);
		}
	} else {
		size_t fleet, wave;

		if (fo_member_wave(b->run->fleets, key, &fleet, &wave, NULL)) {
			st->t.driver = b->nrollouts + fleet;
			st->t.group = (long)wave;
			/* The fleets' adopting counters were added first, in fleet order. */
			st->counter = fleet;
		}
		si_put(&b->tkeys, key, (size_t)(st - b->ts));
	}
	if (st->t.driver == SIZE_MAX) {
		st->t.driver = b->nrollouts + b->nfleets;
		b->need_unassigned = true;
	}
	free(key);
}

static struct tstate *target_of(struct builder *b, const struct tl_rec *r, enum tkind k)
{
	size_t *v = idmap_find(&b->tmap, id_key(r->ns, r->name), true, b->nts);
	struct tstate *st;

	if (*v < b->nts)
		return &b->ts[*v];
	if (b->nts == b->capts) {
		b->capts = b->capts ? 2 * b->capts : 64;
		b->ts = xreallocarray(b->ts, b->capts, sizeof(*b->ts));
	}
	st = &b->ts[b->nts++];
	memset(st, 0, sizeof(*st));
	st->t.kind = tl_str_get(b->run->tl, r->kind);
	st->t.ns = tl_str_get(b->run->tl, r->ns);
	st->t.name = tl_str_get(b->run->tl, r->name);
	if (!st->t.ns)
		st->t.ns = "";
	place(b, st, k);
	return st;
}

/* ---- instants ---------------------------------------------------------- */

static struct sp_instant *add_instant(struct builder *b, int64_t t, enum sp_instant_kind k,
				      size_t driver, long group)
{
	struct sp_set *s = b->s;
	struct sp_instant *in;

	if (s->ninstants == b->instcap) {
		b->instcap = b->instcap ? 2 * b->instcap : 32;
		s->instants = xreallocarray(s->instants, b->instcap, sizeof(*s->instants));
	}
	in = &s->instants[s->ninstants++];
	memset(in, 0, sizeof(*in));
	in->t_ms = t;
	in->kind = k;
	in->driver = driver;
	in->group = group;
	in->target = -1;
	return in;
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* Driver status entries: one instant per change of phase or reason. */
static void driver_status(struct builder *b, const struct tl_rec *r, bool fleet)
{
	const struct tl *tl = b->run->tl;
	uint64_t key = id_key(r->ns, r->name) ^ (fleet ? 1ULL << 63 : 0);
	size_t *v = idmap_find(&b->dmap, key, false, 0);
	const char *phase, *reason;
	struct sp_instant *in;
	size_t d = SIZE_MAX;

	if (!v) {
		const char *ns = tl_str_get(tl, r->ns), *name = tl_str_get(tl, r->name);
		size_t lo = fleet ? b->nrollouts : 0;
		size_t hi = fleet ? b->nrollouts + b->nfleets : b->nrollouts;

		for (size_t i = lo; i < hi && d == SIZE_MAX; i++)
			if (same_str(b->s->drivers[i].name, name) &&
			    (fleet || same_str(b->s->drivers[i].ns, ns ? ns : "")))
				d = i;
		v = idmap_find(&b->dmap, key, true, d);
	}
	d = *v;
	if (d == SIZE_MAX || r->change != TL_STATUS)
		return;
	phase = tl_str_get(tl, r->phase);
	reason = tl_str_get(tl, r->reason);
	if (b->dseen[d] && same_str(b->dphase[d], phase) && same_str(b->dreason[d], reason))
		return;
	b->dseen[d] = true;
	b->dphase[d] = phase;
	b->dreason[d] = reason;
	in = add_instant(b, r->t_ms, SP_I_STATUS, d, -1);
	in->label = phase;
	in->message = reason;
}

static long group_named(const struct sp_driver *d, const char *name)
{
	for (size_t i = 0; name && i < d->ngroups; i++)
		if (same_str(d->groups[i].name, name))
			return (long)i;
	return -1;
}

static void observer_instants(struct builder *b)
{
	const struct rep_run *run = b->run;
	size_t nr = 0, nf = 0;
	const struct obs_rollout *ro = run->obs ? obs_rollouts(run->obs, &nr) : NULL;
	const struct fo_fleet *fl = run->fleets ? fo_fleets(run->fleets, &nf) : NULL;

	for (size_t i = 0; i < nr; i++) {
		struct sp_instant *in;

		if (!ro[i].halted)
			continue;
		in = add_instant(b, ro[i].halt_ms, SP_I_HALT, i, ro[i].halt_step);
		in->label = ro[i].halt_reason;
		in->message = ro[i].halt_message;
	}
	for (size_t i = 0; i < nf; i++) {
		const struct fo_fleet *f = &fl[i];
		const struct sp_driver *d = &b->s->drivers[nr + i];

		for (size_t h = 0; h < f->nhalts; h++) {
			struct sp_instant *in = add_instant(b, f->halts[h].t_ms, SP_I_HALT, nr + i,
							    group_named(d, f->halts[h].wave));

			in->label = f->halts[h].reason;
			in->message = f->halts[h].message;
		}
		for (size_t w = 0; w < f->nwaves; w++) {
			const struct fo_wave *fw = &f->waves[w];
			size_t c = SIZE_MAX;

			for (size_t g = 0; g < fw->ngates; g++) {
				const struct frc_gate_rec *gr = &fw->gates[g];
				struct sp_instant *in = add_instant(b, gr->t_ms, SP_I_GATE, nr + i, (long)w);

				in->label = gr->verdict;
				in->message = gr->error;
				in->value = gr->value;
				in->has_value = gr->available;
				in->min = gr->min;
				in->max = gr->max;
				if (!gr->available)
					continue;
				if (c == SIZE_MAX) {
					char *name = xasprintf("gate %s", fw->name);

					c = add_counter(b, name, "metric", (long)(nr + i), (long)w);
					free(name);
				}
				/* Gate values are samples, kept even when equal to the last. */
				{
					struct sp_counter *ct = &b->s->counters[c];

					if (ct->npoints && ct->points[ct->npoints - 1].t_ms == gr->t_ms) {
						ct->points[ct->npoints - 1].value = gr->value;
					} else {
						if ((ct->npoints & (ct->npoints - 1)) == 0)
							ct->points = xreallocarray(
								ct->points, ct->npoints ? ct->npoints * 2 : 1,
								sizeof(*ct->points));
						ct->points[ct->npoints++] =
							(struct sp_point){ gr->t_ms, gr->value };
					}
				}
			}
		}
		for (size_t k = 0; k < f->nstamps; k++) {
			const struct fo_stamp *st = &f->stamps[k];
			struct sp_instant *in = add_instant(b, st->t_ms, SP_I_STAMP, nr + i,
							    group_named(d, st->wave));
			size_t pos;

			in->label = st->to;
			in->message = st->member;
			if (si_get(&b->tkeys, st->member, &pos))
				in->target = (long)pos; /* state index; remapped after the sort */
		}
	}
}

/* ---- ordering ---------------------------------------------------------- */

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_target(const void *pa, const void *pb)
{
	const struct tstate *a = pa, *b = pb;
	unsigned long ga = a->t.group < 0 ? (unsigned long)-1 : (unsigned long)a->t.group;
	unsigned long gb = b->t.group < 0 ? (unsigned long)-1 : (unsigned long)b->t.group;
	int c;

	if (a->t.driver != b->t.driver)
		return a->t.driver < b->t.driver ? -1 : 1;
	if (ga != gb)
		return ga < gb ? -1 : 1;
	if ((c = cmp_str(a->t.ns, b->t.ns)) != 0)
		return c;
	if ((c = cmp_str(a->t.name, b->t.name)) != 0)
		return c;
	return cmp_str(a->t.kind, b->t.kind);
}

static int cmp_instant(const void *pa, const void *pb)
{
	const struct sp_instant *a = pa, *b = pb;

	if (a->t_ms != b->t_ms)
		return a->t_ms < b->t_ms ? -1 : 1;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	if (a->driver != b->driver)
		return a->driver < b->driver ? -1 : 1;
	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->target != b->target)
		return a->target < b->target ? -1 : 1;
	return 0;
}

/*
 * Sorts @n instants by cmp_instant(), keeping the order they were added in
 * among equals (the timeline's order of a driver's status writes within one
 * instant, say): a merge sort through @tmp (n slots).
 */
static void sort_instants(struct sp_instant *v, struct sp_instant *tmp, size_t n)
{
	size_t h = n / 2, i = 0, j = h, k = 0;

	if (n < 2)
		return;
	sort_instants(v, tmp, h);
	sort_instants(v + h, tmp, n - h);
	while (i < h && j < n)
		tmp[k++] = cmp_instant(&v[j], &v[i]) < 0 ? v[j++] : v[i++];
	while (i < h)
		tmp[k++] = v[i++];
	while (j < n)
		tmp[k++] = v[j++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* ---- the pass ---------------------------------------------------------- */

static void pass(struct builder *b)
{
	const struct tl *tl = b->run->tl;
	size_t n = tl ? tl_count(tl) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *r = tl_rec_at(tl, i);
		const char *kind = tl_str_get(tl, r->kind);
		struct tstate *st;

		if (!kind)
			continue;
		if (!strcmp(kind, "Job")) {
			const char *detail = tl_str_get(tl, r->detail);
			size_t *run = idmap_find(&b->jmap, id_key(r->ns, r->name), true, 0);

			if (r->change == TL_STATUS && !*run && lists_field(detail, "startTime")) {
				*run = 1;
				b->running++;
			} else if (*run && (r->change == TL_DELETED ||
					    (r->change == TL_STATUS && lists_field(detail, "-active")))) {
				*run = 0;
				b->running--;
			} else {
				continue;
			}
			counter_set(&b->s->counters[b->jobs_counter], r->t_ms, (double)b->running);
			continue;
		}
		if (!strcmp(kind, "Rollout") || !strcmp(kind, "FleetRollout")) {
			driver_status(b, r, kind[0] == 'F');
			continue;
		}
		if (!strcmp(kind, "Workspace")) {
			const char *phase = tl_str_get(tl, r->phase);

			st = target_of(b, r, T_WORKSPACE);
			if (r->change == TL_DELETED)
				leave(st, r->t_ms);
			else if (phase)
				enter(st, r->t_ms, ws_phase(phase), phase);
			else if (r->change == TL_CREATED)
				enter(st, r->t_ms, SP_PENDING, NULL);
			continue;
		}
		if (!strcmp(kind, "StageSet")) {
			const char *reason = tl_str_get(tl, r->reason);
			const char *detail = tl_str_get(tl, r->detail);

			st = target_of(b, r, T_STAGESET);
			if (r->change == TL_DELETED) {
				leave(st, r->t_ms);
			} else if (r->change == TL_CREATED) {
				st->reason = reason;
				enter(st, r->t_ms, reason ? ss_phase(st, reason) : SP_PENDING, reason);
			} else if (r->change == TL_UPDATED) {
				if (sets_annotation(detail, "stages.metio.wtf/rollback-to")) {
					st->stamped = true;
					st->adopt_reason = st->reason;
					/* With the model, its directed attempt is the rollback. */
					if (!b->attempts)
						enter(st, r->t_ms, SP_ROLLING_BACK, "rollback-to");
				} else if (!b->attempts &&
					   sets_annotation(detail, "stages.metio.wtf/approved-version") &&
					   !(st->open && st->cur == SP_ROLLING_BACK)) {
					st->adopt_reason = st->reason;
					enter(st, r->t_ms, SP_ADOPTING, "approved-version");
				}
			} else if (r->change == TL_STATUS && reason) {
				/*
				 * While adopting, a status that repeats the reason it had
				 * when the version was approved, without a new version,
				 * is the member not done yet.
				 */
				bool keep = st->open && adopting(st->cur) &&
					    same_str(reason, st->adopt_reason) &&
					    !lists_field(detail, "version");

				st->reason = reason;
				if (!keep)
					enter(st, r->t_ms, ss_phase(st, reason), reason);
			}
		}
	}
}

/* ---- the member model's adoptions ------------------------------------- */

/*
 * Lays [@a, @e) in @p (label @label) over the spans of @st: what the spans
 * said for that stretch is cut away.  @open: the stretch is still under way
 * at the end of the run.
 */
static void overlay_one(struct tstate *st, int64_t a, int64_t e, enum sp_phase p,
			const char *label, bool open)
{
	struct sp_span *in = st->t.spans, *out;
	size_t n = st->t.nspans, k = 0;
	bool placed = false;

	out = xcalloc(2 * n + 2, sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		struct sp_span sp = in[i];

		if (!placed && sp.start_ms >= a) {
			out[k++] = (struct sp_span){ a, e, p, label, open };
			placed = true;
		}
		if (sp.end_ms <= a || sp.start_ms >= e) {
			out[k++] = sp;
			continue;
		}
		if (sp.start_ms < a) { /* the part before */
			out[k] = sp;
			out[k].end_ms = a;
			out[k++].open_end = false;
		}
		if (!placed) {
			out[k++] = (struct sp_span){ a, e, p, label, open };
			placed = true;
		}
		if (sp.end_ms > e) { /* the part after */
			out[k] = sp;
			out[k++].start_ms = e;
		}
	}
	if (!placed)
		out[k++] = (struct sp_span){ a, e, p, label, open };
	/* Neighbours in the same phase are one span (the first one's label). */
	n = 0;
	for (size_t i = 0; i < k; i++) {
		if (n && out[n - 1].phase == out[i].phase && out[n - 1].end_ms == out[i].start_ms) {
			out[n - 1].end_ms = out[i].end_ms;
			out[n - 1].open_end = out[i].open_end;
			continue;
		}
		out[n++] = out[i];
	}
	free(st->t.spans);
	st->t.spans = out;
	st->t.nspans = n;
	st->cap = 2 * st->cap + 2 > n ? 2 * st->cap + 2 : n;
}

/*
 * A StageSet's adoption attempts as the member model ran them: ADOPTING
 * (ROLLING_BACK for one directed by a rollback-to stamp) from the pass that
 * started the attempt to its outcome's write, or to the end of the run.
 */
static void overlay_attempts(struct builder *b, struct tstate *st)
{
	char *key = xasprintf("%s/%s", st->t.ns, st->t.name);
	size_t n;
	const struct fo_attempt *att = fo_member_attempts(b->run->fleets, key, &n);
	int64_t end = b->s->end_ms;

	free(key);
	for (size_t k = 0; k < n; k++) {
		const struct fo_attempt *ad = &att[k];
		int64_t e = ad->end_ms >= 0 && ad->end_ms < end ? ad->end_ms : end;

		if (ad->start_ms < 0 || e <= ad->start_ms)
			continue;
		overlay_one(st, ad->start_ms, e, ad->directed ? SP_ROLLING_BACK : SP_ADOPTING,
			    ad->version, ad->end_ms < 0 || ad->end_ms > end);
	}
	if (st->t.nspans && st->t.spans[st->t.nspans - 1].open_end)
		st->t.final = st->t.spans[st->t.nspans - 1].phase;
}

struct edge {
	int64_t t;
	int delta;
};

static int cmp_edge(const void *pa, const void *pb)
{
	const struct edge *a = pa, *b = pb;

	return (a->t > b->t) - (a->t < b->t);
}

/*
 * The adopting counters from the finished spans: per FleetRollout, its
 * members in ADOPTING or ROLLING_BACK at each instant (one point per change,
 * all of an instant's changes applied); a span still open at the end stays
 * counted.
 */
static void adopting_counters(struct builder *b)
{
	for (size_t f = 0; f < b->nfleets; f++) {
		struct sp_counter *c = &b->s->counters[f];
		struct edge *e = NULL;
		size_t ne = 0, cap = 0;
		long cur = 0;

		for (size_t i = 0; i < b->nts; i++) {
			const struct tstate *st = &b->ts[i];

			if (st->counter != f)
				continue;
			for (size_t k = 0; k < st->t.nspans; k++) {
				const struct sp_span *sp = &st->t.spans[k];

				if (!adopting(sp->phase))
					continue;
				if (ne + 2 > cap) {
					cap = cap ? 2 * cap : 16;
					e = xreallocarray(e, cap, sizeof(*e));
				}
				e[ne++] = (struct edge){ sp->start_ms, +1 };
				if (!sp->open_end)
					e[ne++] = (struct edge){ sp->end_ms, -1 };
			}
		}
		if (ne)
			qsort(e, ne, sizeof(*e), cmp_edge);
		for (size_t i = 0; i < ne; i++) {
			cur += e[i].delta;
			if ((i + 1 == ne || e[i + 1].t != e[i].t) && (c->npoints || cur))
				counter_set(c, e[i].t, (double)cur);
		}
		free(e);
	}
}

void sp_build(struct sp_set *s, const struct rep_run *run)
{
	struct builder b;
	size_t *pos;

	memset(s, 0, sizeof(*s));
	memset(&b, 0, sizeof(b));
	b.run = run;
	b.attempts = run->member_attempts && run->fleets;
	b.s = s;
	s->end_ms = run->end_ms;
	setup_drivers(&b);
	b.jobs_counter = add_counter(&b, "running jobs", "jobs", -1, -1);
	pass(&b);
	for (size_t i = 0; i < b.nts; i++) {
		b.ts[i].t.final = b.ts[i].cur;
		b.ts[i].t.gone = !b.ts[i].open;
		push_span(&b.ts[i], run->end_ms, true);
		if (b.attempts && b.ts[i].t.kind && !strcmp(b.ts[i].t.kind, "StageSet"))
			overlay_attempts(&b, &b.ts[i]);
	}
	adopting_counters(&b);
	if (b.need_unassigned) {
		struct sp_driver *d = &s->drivers[s->ndrivers++];

		d->kind = NULL;
		d->ns = "";
		d->name = "(no rollout)";
		d->completed_ms = -1;
		d->halted_ms = -1;
		d->groups = NULL;
	}
	observer_instants(&b);

	/* Order the targets; remember where each state went for the stamps. */
	for (size_t i = 0; i < b.nts; i++)
		b.ts[i].cap = i; /* reuse as the original index */
	if (b.nts) /* qsort's array must not be NULL, even for 0 elements */
		qsort(b.ts, b.nts, sizeof(*b.ts), cmp_target);
	pos = xcalloc(b.nts ? b.nts : 1, sizeof(*pos));
	s->targets = xcalloc(b.nts ? b.nts : 1, sizeof(*s->targets));
	s->ntargets = b.nts;
	for (size_t i = 0; i < b.nts; i++) {
		pos[b.ts[i].cap] = i;
		s->targets[i] = b.ts[i].t;
		s->nspans += b.ts[i].t.nspans;
	}
	for (size_t i = 0; i < s->ninstants; i++)
		if (s->instants[i].target >= 0)
			s->instants[i].target = (long)pos[s->instants[i].target];
	free(pos);
	{
		struct sp_instant *tmp = xcalloc(s->ninstants ? s->ninstants : 1, sizeof(*tmp));

		sort_instants(s->instants, tmp, s->ninstants);
		free(tmp);
	}

	for (size_t i = 0; i < s->ntargets;) {
		const struct sp_target *t = &s->targets[i];
		struct sp_driver *d = &s->drivers[t->driver];
		size_t j = i;

		d->first = i;
		while (j < s->ntargets && s->targets[j].driver == t->driver) {
			size_t k = j;

			if (s->targets[j].group >= 0) {
				struct sp_group *g = &d->groups[s->targets[j].group];

				g->first = j;
				while (k < s->ntargets && s->targets[k].driver == t->driver &&
				       s->targets[k].group == s->targets[j].group)
					k++;
				g->ntargets = k - j;
				j = k;
			} else {
				j++;
			}
		}
		d->ntargets = j - i;
		i = j;
	}

	free(b.ts);
	idmap_release(&b.tmap);
	idmap_release(&b.jmap);
	idmap_release(&b.dmap);
	si_release(&b.tkeys);
	si_release(&b.ws_step);
	si_release(&b.proj_rollout);
	free(b.ws_step_val);
	free(b.dseen);
	free(b.dphase);
	free(b.dreason);
}

void sp_release(struct sp_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ndrivers; i++)
		free(s->drivers[i].groups);
	free(s->drivers);
	for (size_t i = 0; i < s->ntargets; i++)
		free(s->targets[i].spans);
	free(s->targets);
	free(s->instants);
	for (size_t i = 0; i < s->ncounters; i++) {
		free(s->counters[i].name);
		free(s->counters[i].points);
	}
	free(s->counters);
	memset(s, 0, sizeof(*s));
}
