#include "sim/observe/fleetobs.h"

#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "engine/stageset.h"
#include "engine/value.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/cluster/apiserver.h"
#include "sim/world/des.h"
#include "sim/base/strindex.h"
#include "sim/base/gotime.h"
#include "sim/load/scenario.h"
#include "sim/models/stageset_world.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/wire/stageset_rc.h"

/* Ready as the definitions read it. */
enum rd { RD_UNKNOWN, RD_READY, RD_HELD, RD_NOT_READY };

struct vchange {
	int64_t t_ms;
	char *version; /* NULL: no version (none yet, or the member is gone) */
};

struct rchange {
	int64_t t_ms;
	enum rd rd;
	bool refusal; /* not Ready because it refused a downgrade (a rollback's effect) */
};

struct refusal {
	int64_t t_ms;
	char *reason;
};

/* What was seen of one StageSet. */
struct member {
	char *key; /* "ns/name" */
	struct vchange *v;
	size_t nv;
	struct rchange *r;
	size_t nr;
	struct refusal *ref; /* every refusal stretch, time order */
	size_t nref;
	bool refusing;       /* the last status was a refusal */
	char *ready_reason;  /* the last Ready condition's reason, NULL none */
	/*
	 * Loaded not Ready (a snapshot's status): since when its Ready
	 * condition says (lastTransitionTime), ms < 0 before the run's start;
	 * FO_NEVER when it was not, or the condition does not say.
	 */
	int64_t not_ready_since_ms;
};

struct seen {
	int64_t soak; /* soakUntil, INT64_MIN none */
	bool settled;
	bool until_set; /* fo_wave.soak_until_ms holds a written soakUntil */
	bool carried;   /* the snapshot's soaks count the loaded soakUntil already */
};

struct fo {
	struct des *w;
	int64_t latency_ms;
	int64_t start_unix_ms;
	struct member *m;
	size_t nm, capm;
	struct strindex m_idx;
	struct fo_fleet *f;
	size_t nf, capf;
	struct strindex f_idx;
	/* Per fleet and wave (parallel to f[i].waves): what the last status showed. */
	struct seen **last_soak;
	/* fo_finish(): StageSet key -> index into mw (its first fleet and wave). */
	struct strindex mw_idx;
	struct { size_t fleet, wave; int64_t stamped_ms; } *mw;
	size_t nmw;
	/* fo_finish_run(): StageSet key -> index into att (its adoption attempts). */
	struct strindex att_idx;
	struct { struct fo_attempt *a; size_t n; } *att;
	size_t natt;
};

static bool is(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* ---- StageSets ------------------------------------------------------------ */

static struct member *member_get(struct fo *o, const char *key)
{
	size_t pos;
	struct member *m;

	if (si_get(&o->m_idx, key, &pos))
		return &o->m[pos];
	if (o->nm == o->capm) {
		o->capm = o->capm ? o->capm * 2 : 64;
		o->m = xreallocarray(o->m, o->capm, sizeof(*o->m));
	}
	m = &o->m[o->nm];
	memset(m, 0, sizeof(*m));
	m->key = xstrdup(key);
	m->not_ready_since_ms = FO_NEVER;
	si_put(&o->m_idx, key, o->nm++);
	return m;
}

static const struct member *member_find(const struct fo *o, const char *key)
{
	size_t pos;

	return si_get(&o->m_idx, key, &pos) ? &o->m[pos] : NULL;
}

static const char *cur_version(const struct member *m)
{
	return m->nv ? m->v[m->nv - 1].version : NULL;
}

static void set_version(struct member *m, int64_t t, const char *v)
{
	const char *cur = cur_version(m);

	if ((cur == NULL && v == NULL) || is(cur, v))
		return;
	m->v = xreallocarray(m->v, m->nv + 1, sizeof(*m->v));
	m->v[m->nv++] = (struct vchange){ t, dup_or_null(v) };
}

static void set_ready(struct member *m, int64_t t, enum rd rd, bool refusal)
{
	if (m->nr && m->r[m->nr - 1].rd == rd && m->r[m->nr - 1].refusal == refusal)
		return;
	m->r = xreallocarray(m->r, m->nr + 1, sizeof(*m->r));
	m->r[m->nr++] = (struct rchange){ t, rd, refusal };
}

static void on_stageset(void *ctx, enum api_event_type type, const struct obj *old,
			const struct obj *new)
{
	struct fo *o = ctx;
	int64_t t = des_now(o->w) - o->latency_ms;
	const struct obj *cur = new ? new : old;
	char buf[256];
	char *key = kb_join2(buf, sizeof(buf), cur->ns, cur->name);
	struct member *m = member_get(o, key);
	const struct val *rc;
	const char *v, *status, *reason;
	bool refusal;

	kb_drop(key, buf);
	if (type == API_DELETED) {
		set_version(m, t, NULL);
		set_ready(m, t, RD_UNKNOWN, false);
		return;
	}
	v = val_str(val_map_get(cur->status, "version"), NULL);
	set_version(m, t, v && v[0] ? v : NULL);
	rc = obj_ready_condition(cur);
	if (!rc)
		return;
	status = val_str(val_map_get(rc, "status"), "");
	reason = val_str(val_map_get(rc, "reason"), "");
	if (!is(m->ready_reason, reason)) {
		free(m->ready_reason);
		m->ready_reason = xstrdup(reason);
	}
	refusal = is(reason, "DowngradeNotAllowed") || is(reason, "DowngradeRequiresMigration");
	if (!m->nr && !is(status, "True")) {
		/* the first status seen: a snapshot's may say the member went not Ready before the run */
		int64_t since;

		if (gt_parse_rfc3339(val_str(val_map_get(rc, "lastTransitionTime"), ""), &since, NULL, 0) == 0 &&
		    since < o->start_unix_ms)
			m->not_ready_since_ms = since - o->start_unix_ms;
	}
	if (is(status, "True"))
		set_ready(m, t, RD_READY, false);
	else
		set_ready(m, t, is(reason, "AwaitingApproval") ? RD_HELD : RD_NOT_READY, refusal);
	if (refusal) {
		/* Each refusal stretch once; a new reason starts a new one. */
		if (!m->refusing || !is(m->ref[m->nref - 1].reason, reason)) {
			m->ref = xreallocarray(m->ref, m->nref + 1, sizeof(*m->ref));
			m->ref[m->nref++] = (struct refusal){ t, xstrdup(reason) };
		}
		m->refusing = true;
	} else {
		m->refusing = false;
	}
}

/* ---- FleetRollouts -------------------------------------------------------- */

static struct fo_fleet *fleet_get(struct fo *o, const char *name, size_t *idx)
{
	size_t pos;
	struct fo_fleet *f;

	if (si_get(&o->f_idx, name, &pos)) {
		*idx = pos;
		return &o->f[pos];
	}
	if (o->nf == o->capf) {
		o->capf = o->capf ? o->capf * 2 : 4;
		o->f = xreallocarray(o->f, o->capf, sizeof(*o->f));
		o->last_soak = xreallocarray(o->last_soak, o->capf, sizeof(*o->last_soak));
	}
	f = &o->f[o->nf];
	memset(f, 0, sizeof(*f));
	f->name = xstrdup(name);
	f->completed_ms = f->halt_ms = f->onset_ms = f->detection_latency_ms = f->noticed_ms = -1;
	f->exposure_member_ms = f->exposure_after_halt_member_ms = -1;
	f->past_completed_ms = FO_NEVER;
	o->last_soak[o->nf] = NULL;
	si_put(&o->f_idx, name, o->nf);
	*idx = o->nf++;
	return f;
}

static size_t wave_get(struct fo *o, size_t fi, const char *name)
{
	struct fo_fleet *f = &o->f[fi];
	struct fo_wave *w;

	for (size_t i = 0; i < f->nwaves; i++)
		if (strcmp(f->waves[i].name, name) == 0)
			return i;
	f->waves = xreallocarray(f->waves, f->nwaves + 1, sizeof(*f->waves));
	o->last_soak[fi] = xreallocarray(o->last_soak[fi], f->nwaves + 1, sizeof(struct seen));
	o->last_soak[fi][f->nwaves] = (struct seen){ INT64_MIN, false, false, false };
	w = &f->waves[f->nwaves];
	memset(w, 0, sizeof(*w));
	w->name = xstrdup(name);
	w->opened_ms = w->settled_ms = w->last_settled_ms = w->soak_until_ms = w->passed_ms = -1;
	w->past_opened_ms = w->past_settled_ms = w->past_last_settled_ms = w->past_passed_ms = FO_NEVER;
	return f->nwaves++;
}

static void add_target(struct fo_fleet *f, const char *v, size_t len)
{
	for (size_t i = 0; i < f->ntargets; i++)
		if (strlen(f->targets[i]) == len && !strncmp(f->targets[i], v, len))
			return;
	f->targets = xreallocarray(f->targets, f->ntargets + 1, sizeof(*f->targets));
	f->targets[f->ntargets++] = xstrndup(v, len);
}

/* The X of "rolling out version X" / "have adopted version X" in a Ready message. */
static void add_named_target(struct fo_fleet *f, const char *msg)
{
	static const char *const lead[] = { "rolling out version ", "have adopted version " };

	for (size_t i = 0; msg && i < 2; i++) {
		const char *p = strstr(msg, lead[i]);
		size_t len;

		if (!p)
			continue;
		p += strlen(lead[i]);
		len = strcspn(p, "; ");
		if (len)
			add_target(f, p, len);
	}
}

static void on_fleet(void *ctx, enum api_event_type type, const struct obj *old,
		     const struct obj *new)
{
	struct fo *o = ctx;
	int64_t t = des_now(o->w) - o->latency_ms;
	const struct obj *cur = new ? new : old;
	const struct val *waves = val_map_get(cur->status, "waves");
	const char *phase = val_str(val_map_get(cur->status, "phase"), "");
	const char *current = val_str(val_map_get(cur->status, "currentWave"), "");
	size_t n = waves && waves->type == VAL_LIST ? waves->u.list.n : 0;
	size_t fi, *idx;
	long ci = -1;
	struct fo_fleet *f;

	(void)fleet_get(o, cur->name, &fi);
	if (type == API_DELETED)
		return;
	if (type == API_ADDED && des_initial_list(o->w) && is(phase, "Halted"))
		o->f[fi].halted_before_start = true;
	{
		const struct val *rc = obj_ready_condition(cur);

		add_named_target(&o->f[fi], val_str(val_map_get(rc, "message"), NULL));
	}
	idx = xcalloc(n ? n : 1, sizeof(*idx));
	for (size_t i = 0; i < n; i++) {
		const struct val *e = waves->u.list.items[i];
		size_t k = wave_get(o, fi, val_str(val_map_get(e, "name"), ""));
		struct fo_wave *w = &o->f[fi].waves[k];
		const char *until = val_str(val_map_get(e, "soakUntil"), NULL);
		bool settled = val_bool(val_map_get(e, "settled"), false);
		int64_t u;

		idx[i] = k;
		/*
		 * Loaded settled, a resumed run's wave is in the stretch the snapshot
		 * carried the start of (or had passed before it): no new stretch.
		 */
		if (des_initial_list(o->w) && settled &&
		    (w->past_last_settled_ms != FO_NEVER || w->past_passed_ms != FO_NEVER))
			o->last_soak[fi][k].settled = true;
		if (w->settled_ms < 0 && settled)
			w->settled_ms = t;
		if (settled && !o->last_soak[fi][k].settled && w->passed_ms < 0)
			w->last_settled_ms = t;
		o->last_soak[fi][k].settled = settled;
		if (until && gt_parse_rfc3339(until, &u, NULL, 0) == 0) {
			u -= o->start_unix_ms;
			/* the loaded soakUntil is the last the snapshot's count holds */
			if (des_initial_list(o->w) && o->last_soak[fi][k].carried)
				o->last_soak[fi][k].soak = u;
			if (u != o->last_soak[fi][k].soak) {
				o->last_soak[fi][k].soak = u;
				w->soaks++;
			}
			/*
			 * The soak it passed on: the last written before it passed, or,
			 * for a wave that had passed before any was seen (a snapshot),
			 * the first one written at all.
			 */
			if (w->passed_ms < 0 || !o->last_soak[fi][k].until_set) {
				w->soak_until_ms = u;
				o->last_soak[fi][k].until_set = true;
			}
		}
		if (strcmp(val_str(val_map_get(e, "name"), ""), current) == 0)
			ci = (long)i;
	}
	f = &o->f[fi];
	if (is(phase, "Completed")) {
		for (size_t i = 0; i < n; i++) {
			struct fo_wave *w = &f->waves[idx[i]];

			if (w->opened_ms < 0)
				w->opened_ms = t;
			if (w->passed_ms < 0)
				w->passed_ms = t;
		}
		if (f->completed_ms < 0)
			f->completed_ms = t;
	} else if (is(phase, "InProgress") && ci >= 0) {
		for (size_t i = 0; i <= (size_t)ci; i++) {
			struct fo_wave *w = &f->waves[idx[i]];

			if (w->opened_ms < 0)
				w->opened_ms = t;
			if (i < (size_t)ci && w->passed_ms < 0)
				w->passed_ms = t;
		}
	}
	free(idx);
}

struct fo *fo_new(struct des *w, int64_t latency_ms, int64_t start_unix_ms)
{
	struct fo *o = xcalloc(1, sizeof(*o));

	o->w = w;
	o->latency_ms = latency_ms;
	o->start_unix_ms = start_unix_ms;
	api_watch(des_api(w), "FleetRollout", on_fleet, o);
	api_watch(des_api(w), "StageSet", on_stageset, o);
	return o;
}

/* ---- after the run -------------------------------------------------------- */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int cmp_fleet(const void *a, const void *b)
{
	return strcmp(((const struct fo_fleet *)a)->name, ((const struct fo_fleet *)b)->name);
}

/* The member's status.version at @t (the last change at or before it). */
static const char *version_at(const struct member *m, int64_t t)
{
	const char *v = NULL;

	for (size_t i = 0; i < m->nv && m->v[i].t_ms <= t; i++)
		v = m->v[i].version;
	return v;
}

static bool had_version_by(const struct member *m, const char *v, int64_t t)
{
	for (size_t i = 0; i < m->nv && m->v[i].t_ms <= t; i++)
		if (is(m->v[i].version, v))
			return true;
	return false;
}

/* The member-time on @v within [@from, @to): every stretch of status.version equal to it. */
static int64_t time_on(const struct member *m, const char *v, int64_t from, int64_t to)
{
	int64_t sum = 0;

	for (size_t i = 0; i < m->nv; i++) {
		int64_t a = m->v[i].t_ms, b = i + 1 < m->nv ? m->v[i + 1].t_ms : INT64_MAX;

		if (!is(m->v[i].version, v))
			continue;
		a = a > from ? a : from;
		b = b < to ? b : to;
		if (b > a)
			sum += b - a;
	}
	return sum;
}

/* When the member, on @v at @t, first left it after @t (remediation); -1 never. */
static int64_t left_after(const struct member *m, const char *v, int64_t t)
{
	for (size_t i = 0; i < m->nv; i++)
		if (m->v[i].t_ms > t && !is(m->v[i].version, v))
			return m->v[i].t_ms;
	return -1;
}

/* The first rollback-to stamp on @member of fleet @fleet, ms; INT64_MAX none. */
static int64_t first_stamp(const struct fo_inputs *in, const char *fleet, const char *member)
{
	int64_t t = INT64_MAX;

	for (size_t i = 0; i < in->nstamps; i++)
		if (is(in->stamps[i].fleet, fleet) && is(in->stamps[i].member, member) &&
		    in->stamps[i].t_ms < t)
			t = in->stamps[i].t_ms;
	return t;
}

/*
 * The onset candidate (@t, @member, @window) if it comes first: earlier time,
 * then a regression window before a not-Ready status, then member name.
 */
static void take_onset(struct fo_fleet *f, int64_t t, const char *member, bool window, bool undated)
{
	if (f->onset_member &&
	    (f->onset_ms < t ||
	     (f->onset_ms == t && (f->onset_window > window ||
				   (f->onset_window == window && strcmp(f->onset_member, member) <= 0)))))
		return;
	f->onset_ms = t;
	free(f->onset_member);
	f->onset_member = xstrdup(member);
	f->onset_window = window;
	f->onset_undated = undated;
}

/* The first halt's blast radius, onset, detection latency and exposure. */
static void first_halt_figures(struct fo *o, struct fo_fleet *f, const struct frc_halt_rec *h,
			       const struct fo_inputs *in)
{
	const char *v = h->version;
	char **all;
	size_t nall = 0, total = 0;

	f->halt_ms = h->t_ms;
	if (!v)
		return;
	f->has_blast = true;
	f->bad_version = xstrdup(v);
	for (size_t i = 0; i < h->nwaves; i++)
		total += h->waves[i].nmembers;
	all = xcalloc(total ? total : 1, sizeof(char *));
	f->nblast_waves = h->nwaves;
	f->blast_waves = xcalloc(h->nwaves ? h->nwaves : 1, sizeof(*f->blast_waves));
	for (size_t i = 0; i < h->nwaves; i++) {
		struct fo_blast_wave *bw = &f->blast_waves[i];

		bw->name = xstrdup(h->waves[i].name);
		bw->total = h->waves[i].nmembers;
		for (size_t k = 0; k < h->waves[i].nmembers; k++) {
			const struct member *m = member_find(o, h->waves[i].members[k]);

			bw->count += m && had_version_by(m, v, h->t_ms);
			all[nall++] = (char *)h->waves[i].members[k];
		}
	}
	/* Each member once. */
	if (nall)
		qsort(all, nall, sizeof(char *), cmp_str);
	total = 0;
	for (size_t i = 0; i < nall; i++)
		if (i == 0 || strcmp(all[i], all[i - 1]) != 0)
			all[total++] = all[i];
	nall = total;
	f->blast_total = nall;
	f->exposure_member_ms = f->exposure_after_halt_member_ms = 0;
	f->blast_members = xcalloc(nall ? nall : 1, sizeof(char *));
	for (size_t i = 0; i < nall; i++) {
		const struct member *m = member_find(o, all[i]);
		int64_t stamp;

		if (!m || !had_version_by(m, v, h->t_ms))
			continue;
		f->blast_members[f->blast_count++] = xstrdup(all[i]);
		f->exposure_member_ms += time_on(m, v, 0, h->t_ms);
		/* on it when loaded: its time on it before the start is not in the inputs */
		f->exposure_loaded += m->nv && m->v[0].t_ms <= 0 && is(m->v[0].version, v);
		if (is(version_at(m, h->t_ms), v)) {
			int64_t left = left_after(m, v, h->t_ms);

			if (left >= 0) {
				f->exposure_after_halt_member_ms += left - h->t_ms;
				f->remediated++;
			} else {
				f->unremediated++;
			}
		}
		/* A refusal, or any not-Ready once stamped, is the rollback's doing. */
		stamp = first_stamp(in, f->name, all[i]);
		for (size_t k = 0; k < m->nr && m->r[k].t_ms <= h->t_ms; k++)
			if (m->r[k].rd == RD_NOT_READY && !m->r[k].refusal && m->r[k].t_ms < stamp &&
			    is(version_at(m, m->r[k].t_ms), v)) {
				/* loaded not Ready: since when the snapshot's condition says */
				take_onset(f, k == 0 && m->not_ready_since_ms != FO_NEVER ? m->not_ready_since_ms
											   : m->r[k].t_ms,
					   all[i], false, false);
				break;
			}
	}
	for (size_t i = 0; i < in->nwindows; i++) {
		const struct fo_window *wn = &in->windows[i];
		const char *wv = wn->version;
		bool undated = false;

		if (!wv && wn->start_ms < 0) {
			/*
			 * A window open before the run (a snapshot's): what the member
			 * ran when it opened is not in the snapshot.  On the bad version
			 * at the start, the fault began before the snapshot, at no
			 * instant this run can date.
			 */
			const struct member *m = member_find(o, wn->member);

			wv = m ? version_at(m, 0) : NULL;
			undated = true;
		}
		if (wn->start_ms <= h->t_ms && is(wv, v) &&
		    bsearch(&wn->member, all, nall, sizeof(char *), cmp_str))
			take_onset(f, wn->start_ms, wn->member, true, undated);
	}
	if (f->onset_member) {
		const struct member *m = member_find(o, f->onset_member);

		/* an onset before the snapshot that it cannot date claims no latency */
		f->detection_latency_ms = f->onset_undated ? -1 : h->t_ms - f->onset_ms;
		/* the member's status showing the fault: its first not-Ready from the onset on */
		for (size_t k = 0; m && k < m->nr && m->r[k].t_ms <= h->t_ms; k++)
			if (m->r[k].t_ms >= f->onset_ms && m->r[k].rd == RD_NOT_READY && !m->r[k].refusal) {
				f->noticed_ms = m->r[k].t_ms;
				break;
			}
	}
	free(all);
}

static const struct obj *ns_of(const struct strindex *idx, const struct api_list *ns,
				const char *name)
{
	size_t pos;

	return si_get(idx, name, &pos) ? ns->items[pos] : NULL;
}

/* Every fleet's wave members from the final objects, and the member -> (fleet, wave) index. */
static void wave_members(struct fo *o)
{
	struct api *api = des_api(o->w);
	bool *selected; /* per StageSet of ss: the fleet's selector and namespaceSelector match */
	struct api_list ss, ns;
	struct strindex ns_idx = { 0 };
	size_t mw_cap = o->nmw; /* o->mw's room: grown by doubling, not an entry at a time */

	api_list_init(&ss);
	api_list_init(&ns);
	api_list(api, "StageSet", NULL, NULL, NULL, &ss);
	api_list(api, "Namespace", NULL, NULL, NULL, &ns);
	selected = xcalloc(ss.n ? ss.n : 1, sizeof(*selected));
	for (size_t i = 0; i < ns.n; i++)
		si_put(&ns_idx, ns.items[i]->name, i);
	for (size_t fi = 0; fi < o->nf; fi++) {
		struct fo_fleet *f = &o->f[fi];
		const struct obj *fr = api_get(api, "FleetRollout", "", f->name);
		const struct val *waves, *nssel_v;
		struct lbl_selector sel, nssel;
		char err[LBL_ERRLEN];
		const char *tv;

		if (!fr)
			continue;
		tv = val_str(val_map_get(fr->spec, "targetVersion"), "");
		if (tv[0]) {
			/* Pinned: the target first, before any version the messages named. */
			add_target(f, tv, strlen(tv));
			for (size_t i = f->ntargets - 1; i > 0; i--) {
				char *t = f->targets[i];

				f->targets[i] = f->targets[i - 1];
				f->targets[i - 1] = t;
			}
		}
		if (lbl_selector_from_val(val_map_get(fr->spec, "selector"), &sel, err,
					  sizeof(err)) != LBL_OK)
			continue;
		nssel_v = val_map_get(fr->spec, "namespaceSelector");
		if (nssel_v && nssel_v->type == VAL_NULL)
			nssel_v = NULL;
		if (nssel_v && lbl_selector_from_val(nssel_v, &nssel, err, sizeof(err)) != LBL_OK) {
			lbl_selector_release(&sel);
			continue;
		}
		/* The fleet's selection once per StageSet, not once per wave. */
		for (size_t i = 0; i < ss.n; i++) {
			const struct obj *m = ss.items[i];
			const struct obj *mns;

			selected[i] = lbl_matches(&sel, &m->labels);
			if (selected[i] && nssel_v) {
				mns = ns_of(&ns_idx, &ns, m->ns);
				selected[i] = lbl_matches(&nssel, mns ? &mns->labels : NULL);
			}
		}
		waves = val_map_get(fr->spec, "waves");
		for (size_t k = 0; waves && waves->type == VAL_LIST && k < waves->u.list.n; k++) {
			const struct val *wv = waves->u.list.items[k];
			struct lbl_selector ws;
			size_t wi, cap;
			struct fo_wave *w;

			if (lbl_selector_from_val(val_map_get(wv, "selector"), &ws, err,
						  sizeof(err)) != LBL_OK)
				continue;
			wi = wave_get(o, fi, val_str(val_map_get(wv, "name"), ""));
			f = &o->f[fi];
			w = &f->waves[wi];
			cap = w->nmembers;
			for (size_t i = 0; i < ss.n; i++) {
				const struct obj *m = ss.items[i];
				char *key;
				size_t pos;

				if (!selected[i] || !lbl_matches(&ws, &m->labels))
					continue;
				key = kb_join2(NULL, 0, m->ns, m->name);
				if (w->nmembers == cap) {
					cap = cap ? 2 * cap : 16;
					w->members = xreallocarray(w->members, cap, sizeof(*w->members));
				}
				w->members[w->nmembers++] = key;
				if (!si_get(&o->mw_idx, key, &pos)) {
					if (o->nmw == mw_cap) {
						mw_cap = mw_cap ? 2 * mw_cap : 16;
						o->mw = xreallocarray(o->mw, mw_cap, sizeof(*o->mw));
					}
					o->mw[o->nmw].fleet = fi;
					o->mw[o->nmw].wave = wi;
					o->mw[o->nmw].stamped_ms = -1;
					si_put(&o->mw_idx, key, o->nmw++);
				}
			}
			if (w->nmembers)
				qsort(w->members, w->nmembers, sizeof(char *), cmp_str);
			lbl_selector_release(&ws);
		}
		lbl_selector_release(&sel);
		if (nssel_v)
			lbl_selector_release(&nssel);
	}
	free(selected);
	si_release(&ns_idx);
	api_list_release(&ss);
	api_list_release(&ns);
}

/* The higher of two versions by semver; one that does not parse loses. */
static bool semver_above(const char *a, const char *b)
{
	struct ss_semver x, y;

	if (ss_semver_parse(a, &x, NULL, 0) != SS_OK)
		return false;
	if (!b || ss_semver_parse(b, &y, NULL, 0) != SS_OK)
		return true;
	return ss_semver_compare(&x, &y) > 0;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

struct mark {
	int64_t t_ms;
	bool ready;
};

static int cmp_mark(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	return x->t_ms < y->t_ms ? -1 : x->t_ms > y->t_ms;
}

/* Whether a count going from @before to @after reaches the first member or a quarter of @n. */
static bool crossed(size_t before, size_t after, size_t n)
{
	if (before < 1 && after >= 1)
		return true;
	for (size_t q = 1; q <= 4; q++) {
		size_t th = (q * n + 3) / 4;

		if (before < th && th <= after)
			return true;
	}
	return false;
}

/* The nth smallest of @t (1-based) when @count >= nth, else -1; @t sorted. */
static int64_t nth_time(const int64_t *t, size_t count, size_t nth)
{
	return nth && count >= nth ? t[nth - 1] : -1;
}

/* Insertion sort by time, stable (qsort is not); the points are few per wave. */
static void msort_progress(struct fo_progress *p, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct fo_progress x = p[i];
		size_t j = i;

		for (; j > 0 && p[j - 1].t_ms > x.t_ms; j--)
			p[j] = p[j - 1];
		p[j] = x;
	}
}

/* One wave's adoption of @target over time (the definitions in the header). */
static void wave_adoption(const struct fo *o, struct fo_wave *w, struct fo_adoption *ad,
			  const char *target)
{
	size_t n = w->nmembers, na = 0, nr = 0, nmk = 0, a = 0, r = 0;
	int64_t *at = xcalloc(n ? n : 1, sizeof(*at)), *rt = xcalloc(n ? n : 1, sizeof(*rt));
	struct mark *mk = xcalloc(2 * n + 1, sizeof(*mk));

	ad->version = target;
	for (size_t i = 0; i < n; i++) {
		const struct member *m = member_find(o, w->members[i]);
		int64_t t = -1, tr = -1;
		enum rd rd = RD_UNKNOWN;

		for (size_t k = 0; m && k < m->nv && t < 0; k++)
			if (is(m->v[k].version, target))
				t = m->v[k].t_ms;
		if (t < 0)
			continue;
		at[na++] = t;
		mk[nmk++] = (struct mark){ t, false };
		/* Ready on it: Ready already at the adoption, or the first Ready True after while on it. */
		for (size_t k = 0; k < m->nr && tr < 0; k++) {
			if (m->r[k].t_ms <= t) {
				rd = m->r[k].rd;
				continue;
			}
			if (rd == RD_READY)
				tr = t;
			else if (m->r[k].rd == RD_READY && is(version_at(m, m->r[k].t_ms), target))
				tr = m->r[k].t_ms;
		}
		if (tr < 0 && rd == RD_READY)
			tr = t;
		if (tr >= 0) {
			rt[nr++] = tr;
			mk[nmk++] = (struct mark){ tr, true };
		}
	}
	qsort(at, na, sizeof(*at), cmp_i64);
	qsort(rt, nr, sizeof(*rt), cmp_i64);
	ad->adopted = na;
	ad->ready = nr;
	ad->first_ms = nth_time(at, na, 1);
	ad->half_ms = nth_time(at, na, (n + 1) / 2);
	ad->all_ms = nth_time(at, na, n);
	ad->ready_half_ms = nth_time(rt, nr, (n + 1) / 2);
	ad->ready_all_ms = nth_time(rt, nr, n);
	if (nmk)
		qsort(mk, nmk, sizeof(*mk), cmp_mark);
	for (size_t i = 0; i < nmk;) {
		size_t j = i, a0 = a, r0 = r;

		for (; j < nmk && mk[j].t_ms == mk[i].t_ms; j++) {
			if (mk[j].ready)
				r++;
			else
				a++;
		}
		if (crossed(a0, a, n) || crossed(r0, r, n)) {
			w->progress = xreallocarray(w->progress, w->nprogress + 1,
						    sizeof(*w->progress));
			w->progress[w->nprogress++] = (struct fo_progress){ mk[i].t_ms, target, a, r };
		}
		i = j;
	}
	free(mk);
	free(at);
	free(rt);
}

/* The fleet's targets (named, else the highest version its members reached), each wave's adoption. */
static void adoption(const struct fo *o, struct fo_fleet *f)
{
	if (!f->ntargets) {
		const char *best = NULL;

		for (size_t k = 0; k < f->nwaves; k++)
			for (size_t i = 0; i < f->waves[k].nmembers; i++) {
				const struct member *m = member_find(o, f->waves[k].members[i]);

				for (size_t j = 0; m && j < m->nv; j++)
					if (m->v[j].version && semver_above(m->v[j].version, best))
						best = m->v[j].version;
			}
		if (best)
			add_target(f, best, strlen(best));
	}
	for (size_t k = 0; k < f->nwaves; k++) {
		struct fo_wave *w = &f->waves[k];

		w->adoption = xcalloc(f->ntargets ? f->ntargets : 1, sizeof(*w->adoption));
		for (size_t t = 0; t < f->ntargets; t++)
			wave_adoption(o, w, &w->adoption[t], f->targets[t]);
		/* Stable: at equal times the targets keep their order. */
		if (w->nprogress > 1)
			msort_progress(w->progress, w->nprogress);
	}
}

bool fo_member_wave(const struct fo *o, const char *key, size_t *fleet, size_t *wave,
		    int64_t *stamped_ms)
{
	size_t pos;

	if (!o || !si_get(&o->mw_idx, key, &pos))
		return false;
	*fleet = o->mw[pos].fleet;
	*wave = o->mw[pos].wave;
	if (stamped_ms)
		*stamped_ms = o->mw[pos].stamped_ms;
	return true;
}

/*
 * Whether the run's halt episode @h continues the last halt @f was seeded
 * with: the FleetRollout was loaded Halted, and its first halting pass of
 * the run halts the same wave with the same message.
 */
static bool continues_past(const struct fo_fleet *f, const struct frc_halt_rec *h, size_t nrun)
{
	const struct fo_halt *p;

	if (!f->npast_halts || !f->halted_before_start || nrun)
		return false;
	p = &f->past_halts[f->npast_halts - 1];
	return is(p->wave, h->wave_name) && is(p->message, h->message) && p->gate == h->gate;
}

/*
 * A carried first halt's exposure after it: the blast members still on the
 * bad version at the snapshot (o->on_bad) that left it in this run are
 * remediated then, the others unremediated.
 */
static void carried_remediation(struct fo *o, struct fo_fleet *f)
{
	for (size_t i = 0; i < f->non_bad; i++) {
		const struct member *m = member_find(o, f->on_bad[i]);
		int64_t left = m ? left_after(m, f->bad_version, f->halt_ms) : -1;

		if (left >= 0) {
			f->exposure_after_halt_member_ms += left - f->halt_ms;
			f->remediated++;
		} else {
			f->unremediated++;
		}
	}
}

void fo_finish(struct fo *o, const struct fo_inputs *in)
{
	size_t fi;

	for (size_t i = 0; i < in->ngates; i++) {
		const struct frc_gate_rec *g = &in->gates[i];
		struct fo_wave *w;

		(void)fleet_get(o, g->fleet, &fi);
		w = &o->f[fi].waves[wave_get(o, fi, g->wave_name)];
		w->gates = xreallocarray(w->gates, w->ngates + 1, sizeof(*w->gates));
		w->gates[w->ngates++] = *g;
		if (is(g->verdict, "Passing"))
			w->passing++;
		else if (is(g->verdict, "Failing"))
			w->failing++;
		else
			w->unknown++;
	}
	for (size_t i = 0; i < in->nhalts; i++) {
		const struct frc_halt_rec *h = &in->halts[i];
		struct fo_fleet *f = fleet_get(o, h->fleet, &fi);
		struct fo_halt *x;

		if (continues_past(f, h, f->nhalts)) {
			struct fo_halt *p = &f->past_halts[f->npast_halts - 1];

			p->last_ms = h->last_ms;
			p->passes += h->passes;
			continue;
		}
		f->halts = xreallocarray(f->halts, f->nhalts + 1, sizeof(*f->halts));
		x = &f->halts[f->nhalts++];
		x->t_ms = h->t_ms;
		x->last_ms = h->last_ms;
		x->passes = h->passes;
		x->wave = xstrdup(h->wave_name);
		x->gate = h->gate;
		x->reason = xstrdup("Halted");
		x->message = xstrdup(h->message);
		x->version = dup_or_null(h->version);
		if (f->nhalts == 1 && !f->halted_before_start && !f->npast_halts)
			first_halt_figures(o, f, h, in);
	}
	for (size_t i = 0; i < in->nstamps; i++) {
		const struct frc_stamp_rec *s = &in->stamps[i];
		struct fo_fleet *f = fleet_get(o, s->fleet, &fi);
		const struct member *m = member_find(o, s->member);
		struct fo_stamp *x;

		f->stamps = xreallocarray(f->stamps, f->nstamps + 1, sizeof(*f->stamps));
		x = &f->stamps[f->nstamps++];
		x->t_ms = s->t_ms;
		x->wave = xstrdup(s->wave_name);
		x->member = xstrdup(s->member);
		x->to = xstrdup(s->value);
		x->reverted_ms = x->refused_ms = -1;
		x->refused_reason = NULL;
		for (size_t k = 0; m && k < m->nv; k++)
			if (m->v[k].t_ms >= s->t_ms && is(m->v[k].version, s->value)) {
				x->reverted_ms = m->v[k].t_ms;
				break;
			}
		for (size_t k = 0; m && k < m->nref; k++)
			if (m->ref[k].t_ms >= s->t_ms) {
				x->refused_ms = m->ref[k].t_ms;
				x->refused_reason = xstrdup(m->ref[k].reason);
				break;
			}
	}
	for (size_t i = 0; i < o->nf; i++)
		if (o->f[i].blast_carried)
			carried_remediation(o, &o->f[i]);
	/* Name order; the per-fleet soak scratch is not needed past here. */
	for (size_t i = 0; i < o->nf; i++) {
		free(o->last_soak[i]);
		o->last_soak[i] = NULL;
	}
	if (o->nf)
		qsort(o->f, o->nf, sizeof(*o->f), cmp_fleet);
	si_release(&o->f_idx);
	for (size_t i = 0; i < o->nf; i++)
		si_put(&o->f_idx, o->f[i].name, i);
	wave_members(o);
	for (size_t i = 0; i < o->nf; i++) {
		adoption(o, &o->f[i]);
		for (size_t k = 0; k < o->f[i].nstamps; k++) {
			const struct fo_stamp *st = &o->f[i].stamps[k];
			size_t pos;

			if (si_get(&o->mw_idx, st->member, &pos) &&
			    (o->mw[pos].stamped_ms < 0 || st->t_ms < o->mw[pos].stamped_ms))
				o->mw[pos].stamped_ms = st->t_ms;
		}
	}
}

/* @m's status.version at @t_ms (the last change at or before it), NULL when none. */
static const char *version_at_ms(const struct member *m, int64_t t)
{
	const char *v = NULL;

	for (size_t i = 0; m && i < m->nv && m->v[i].t_ms <= t; i++)
		v = m->v[i].version;
	return v;
}

/*
 * The fault windows of @c's StageSet world so far, into *@wins (*@nw); returns
 * the member keys they borrow, one per ssrc_members() (free each and it).
 */
static char **fault_windows(const struct fo *o, const struct ssrc *c, struct fo_window **wins,
			    size_t *nw)
{
	const struct ssrc_member_stat *ms = NULL;
	size_t nms = c ? ssrc_members(c, &ms) : 0, capw = 0;
	char **keys = xcalloc(nms ? nms : 1, sizeof(*keys));

	*wins = NULL;
	*nw = 0;
	for (size_t i = 0; i < nms; i++) {
		const struct sw_fault *fl;
		size_t nf = swst_member_faults(ssrc_world(c), ms[i].ns, ms[i].name, &fl);
		const struct member *m;

		keys[i] = kb_join2(NULL, 0, ms[i].ns, ms[i].name);
		m = member_find(o, keys[i]);
		for (size_t k = 0; k < nf; k++) {
			if (*nw == capw) {
				capw = capw ? 2 * capw : 16;
				*wins = xreallocarray(*wins, capw, sizeof(**wins));
			}
			/* a drawn fault knows the version its stage ran; a scripted one hits what runs */
			(*wins)[(*nw)++] = (struct fo_window){ keys[i], fl[k].start_ms,
							       fl[k].version ? fl[k].version
									     : version_at_ms(m, fl[k].start_ms) };
		}
	}
	return keys;
}

void fo_finish_run(struct fo *o, const struct frc *f, const struct ssrc *c, int64_t end_ms)
{
	struct fo_inputs in = { 0 };
	const struct ssrc_member_stat *ms = NULL;
	size_t nms = c ? ssrc_members(c, &ms) : 0, nw = 0;
	struct fo_window *wins = NULL;
	char **keys;

	in.gates = frc_gate_log(f, &in.ngates);
	in.halts = frc_halt_log(f, &in.nhalts);
	in.stamps = frc_stamp_log(f, &in.nstamps);
	in.end_ms = end_ms;
	keys = fault_windows(o, c, &wins, &nw);
	in.windows = wins;
	in.nwindows = nw;
	fo_finish(o, &in);
	o->att = xcalloc(nms ? nms : 1, sizeof(*o->att));
	for (size_t i = 0; i < nms; i++) {
		if (!ms[i].nattempts)
			continue;
		o->att[o->natt].a = xcalloc(ms[i].nattempts, sizeof(*o->att[o->natt].a));
		for (size_t k = 0; k < ms[i].nattempts; k++) {
			const struct ssrc_attempt *ad = &ms[i].attempts[k];

			o->att[o->natt].a[k] = (struct fo_attempt){ ad->version, ad->start_ms,
								      ad->end_ms, ad->directed };
		}
		o->att[o->natt].n = ms[i].nattempts;
		si_put(&o->att_idx, keys[i], o->natt++);
	}
	for (size_t i = 0; i < nms; i++)
		free(keys[i]);
	free(keys);
	free(wins);
}

bool fo_member_recovered_at(const struct fo *o, const char *key, int64_t t_ms)
{
	const struct member *m = o ? member_find(o, key) : NULL;
	size_t lo = 0, hi = m ? m->nr : 0;

	/* The first Ready change at or after @t_ms (the changes are in time order). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->r[mid].t_ms < t_ms)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; m && lo < m->nr && m->r[lo].t_ms == t_ms; lo++)
		if (m->r[lo].rd == RD_READY)
			return lo > 0 && m->r[lo - 1].rd == RD_NOT_READY;
	return false;
}

const char *fo_member_version_at(const struct fo *o, const char *key, int64_t t_ms)
{
	const struct member *m = o ? member_find(o, key) : NULL;
	size_t lo = 0, hi = m ? m->nv : 0;

	/* The first version change after @t_ms (the changes are in time order); the one before it holds. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->v[mid].t_ms <= t_ms)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 ? m->v[lo - 1].version : NULL;
}

const struct fo_attempt *fo_member_attempts(const struct fo *o, const char *key, size_t *n)
{
	size_t pos;

	if (!o || !si_get(&o->att_idx, key, &pos)) {
		*n = 0;
		return NULL;
	}
	*n = o->att[pos].n;
	return o->att[pos].a;
}

const char *fo_member_ready_reason(const struct fo *o, const char *key)
{
	const struct member *m = o ? member_find(o, key) : NULL;

	return m && m->ready_reason && m->ready_reason[0] ? m->ready_reason : NULL;
}

const struct fo_fleet *fo_fleets(const struct fo *o, size_t *n)
{
	*n = o ? o->nf : 0;
	return o ? o->f : NULL;
}

/* ---- a snapshot's history (SCN_OBSERVER_STATE) ---------------------------- */

int64_t fo_first(int64_t past_ms, int64_t run_ms)
{
	if (past_ms != FO_NEVER)
		return past_ms;
	return run_ms >= 0 ? run_ms : FO_NEVER;
}

int64_t fo_last_settled(const struct fo_wave *w)
{
	/* a stretch of the run is later than any before it */
	return w->last_settled_ms >= 0 ? w->last_settled_ms : w->past_last_settled_ms;
}

/* Appends @v to @b, escaping what would end a field ("%XX"): blanks, '%', ',', '/', '='. */
static void field(char **b, const char *v)
{
	size_t n = strlen(*b), k = n;

	*b = xrealloc(*b, n + 3 * strlen(v) + 1);
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == ',' || *p == '/' || *p == '=' || *p >= 0x7f)
			k += (size_t)sprintf(*b + k, "%%%02X", *p);
		else
			(*b)[k++] = (char)*p;
	}
	(*b)[k] = '\0';
}

/* Appends @ms (of this run) as a field: its wall-clock time, or "-" when FO_NEVER. */
static void field_time(char **b, const struct fo *o, int64_t ms)
{
	char t[GT_RFC3339_BUFSZ];

	if (ms == FO_NEVER)
		snprintf(t, sizeof(t), "-");
	else
		gt_format_rfc3339_nano(o->start_unix_ms + ms, t, sizeof(t));
	field(b, t);
}

static void field_int(char **b, int64_t v)
{
	char t[32];

	snprintf(t, sizeof(t), "%lld", (long long)v);
	field(b, t);
}

static void append(char **b, const char *s)
{
	size_t n = strlen(*b);

	*b = xrealloc(*b, n + strlen(s) + 1);
	strcpy(*b + n, s);
}

/* Appends " KEY=VALUE" to @out, @v percent-encoded as SCN_OBSERVER_STATE's values. */
static void put(char **out, const char *key, const char *v)
{
	if (**out)
		append(out, " ");
	append(out, key);
	append(out, "=");
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		char c[4];

		if (*p <= ' ' || *p == '%' || *p >= 0x7f)
			snprintf(c, sizeof(c), "%%%02X", *p);
		else
			snprintf(c, sizeof(c), "%c", *p);
		append(out, c);
	}
}

static void put_time(char **out, const struct fo *o, const char *key, int64_t ms)
{
	char *b = xstrdup("");

	if (ms != FO_NEVER) {
		field_time(&b, o, ms);
		put(out, key, b);
	}
	free(b);
}

static void put_int(char **out, const char *key, int64_t v)
{
	char t[32];

	snprintf(t, sizeof(t), "%lld", (long long)v);
	put(out, key, t);
}

/* One halt as "T/LAST/PASSES/KIND/WAVE/VERSION/MESSAGE" after @b's ',' when not first. */
static void halt_entry(char **b, const struct fo *o, int64_t t, int64_t last, int64_t passes, bool gate,
		       const char *wave, const char *version, const char *message)
{
	if (**b)
		append(b, ",");
	field_time(b, o, t);
	append(b, "/");
	field_time(b, o, last);
	append(b, "/");
	field_int(b, passes);
	append(b, gate ? "/gate/" : "/regression/");
	field(b, wave);
	append(b, "/");
	field(b, version ? version : "-");
	append(b, "/");
	field(b, message);
}

/* The first halt's figures of @fl (carried or measured into a scratch fleet) as keys. */
static void put_blast(char **out, const struct fo *o, const struct fo_fleet *fl)
{
	char *b = xstrdup(""), *onbad = xstrdup("");
	int64_t after = fl->exposure_after_halt_member_ms;
	size_t remediated = fl->remediated;

	put(out, "badVersion", fl->bad_version);
	for (size_t i = 0; i < fl->blast_count; i++) {
		if (i)
			append(&b, ",");
		append(&b, fl->blast_members[i]);
	}
	put(out, "blast", b);
	put_int(out, "blastTotal", (int64_t)fl->blast_total);
	b[0] = '\0';
	for (size_t i = 0; i < fl->nblast_waves; i++) {
		if (i)
			append(&b, ",");
		field(&b, fl->blast_waves[i].name);
		append(&b, "/");
		field_int(&b, (int64_t)fl->blast_waves[i].count);
		append(&b, "/");
		field_int(&b, (int64_t)fl->blast_waves[i].total);
	}
	if (*b)
		put(out, "blastWaves", b);
	if (fl->onset_member) {
		put_time(out, o, "onset", fl->onset_ms);
		put(out, "onsetMember", fl->onset_member);
		put(out, "onsetWindow", fl->onset_window ? "yes" : "no");
		if (fl->onset_undated)
			put(out, "onsetUndated", "yes");
	}
	if (fl->blast_carried ? fl->noticed_ms != -1 : fl->noticed_ms >= 0)
		put_time(out, o, "noticed", fl->noticed_ms);
	put_int(out, "exposure", fl->exposure_member_ms);
	/*
	 * Those on the bad version at the halt and still on it now are followed
	 * on by the resumed run; those that left did so by now.
	 */
	for (size_t i = 0; i < fl->blast_count; i++) {
		const struct member *m = member_find(o, fl->blast_members[i]);
		bool carried_on = false;
		int64_t left;

		for (size_t k = 0; fl->blast_carried && k < fl->non_bad; k++)
			carried_on |= is(fl->on_bad[k], fl->blast_members[i]);
		if (fl->blast_carried ? !carried_on : !m || !is(version_at(m, fl->halt_ms), fl->bad_version))
			continue;
		left = m ? left_after(m, fl->bad_version, fl->halt_ms) : -1;
		if (left >= 0 && !fl->blast_carried)
			continue; /* counted by first_halt_figures() */
		if (left >= 0) {
			after += left - fl->halt_ms;
			remediated++;
			continue;
		}
		if (*onbad)
			append(&onbad, ",");
		append(&onbad, fl->blast_members[i]);
	}
	put_int(out, "afterHalt", after);
	put_int(out, "remediated", (int64_t)remediated);
	if (*onbad)
		put(out, "onBad", onbad);
	free(onbad);
	free(b);
}

static void scratch_release(struct fo_fleet *t)
{
	free(t->bad_version);
	for (size_t k = 0; k < t->blast_count; k++)
		free(t->blast_members[k]);
	free(t->blast_members);
	for (size_t k = 0; k < t->nblast_waves; k++)
		free(t->blast_waves[k].name);
	free(t->blast_waves);
	free(t->onset_member);
}

char *fo_state(const struct fo *o, const struct frc *f, const struct ssrc *c, const char *name)
{
	const struct frc_halt_rec *h = NULL;
	size_t pos, nh = 0, nrun = 0;
	const struct fo_fleet *fl;
	const struct frc_halt_rec *first = NULL;
	char *out, *b;

	if (!o || !si_get(&o->f_idx, name, &pos))
		return NULL;
	fl = &o->f[pos];
	out = xstrdup("");
	put_time(&out, o, "completed", fo_first(fl->past_completed_ms, fl->completed_ms));
	b = xstrdup("");
	for (size_t i = 0; i < fl->nwaves; i++) {
		const struct fo_wave *w = &fl->waves[i];

		if (i)
			append(&b, ",");
		field(&b, w->name);
		append(&b, "/");
		field_time(&b, o, fo_first(w->past_opened_ms, w->opened_ms));
		append(&b, "/");
		field_time(&b, o, fo_first(w->past_settled_ms, w->settled_ms));
		append(&b, "/");
		field_time(&b, o, fo_last_settled(w));
		append(&b, "/");
		field_int(&b, (int64_t)w->soaks);
		append(&b, "/");
		field_time(&b, o, fo_first(w->past_passed_ms, w->passed_ms));
	}
	if (*b)
		put(&out, "waves", b);
	/* the halts so far: those carried, then this run's, a continued one once */
	b[0] = '\0';
	if (f)
		h = frc_halt_log(f, &nh);
	for (size_t i = 0; i < fl->npast_halts; i++) {
		const struct fo_halt *p = &fl->past_halts[i];
		int64_t last = p->last_ms;
		uint32_t passes = p->passes;

		for (size_t k = 0; i + 1 == fl->npast_halts && k < nh; k++) {
			if (!is(h[k].fleet, name))
				continue;
			if (continues_past(fl, &h[k], 0)) {
				last = h[k].last_ms;
				passes += h[k].passes;
			}
			break;
		}
		halt_entry(&b, o, p->t_ms, last, passes, p->gate, p->wave, p->version, p->message);
	}
	for (size_t k = 0; k < nh; k++) {
		if (!is(h[k].fleet, name) || continues_past(fl, &h[k], nrun))
			continue;
		if (!nrun++)
			first = &h[k];
		halt_entry(&b, o, h[k].t_ms, h[k].last_ms, h[k].passes, h[k].gate, h[k].wave_name,
			   h[k].version, h[k].message);
	}
	if (*b)
		put(&out, "halts", b);
	free(b);
	if (fl->blast_carried) {
		put_blast(&out, o, fl);
	} else if (first && !fl->npast_halts && !fl->halted_before_start) {
		struct fo_fleet t = { 0 };
		struct fo_inputs in = { 0 };
		struct fo_window *wins;
		size_t nw, nms = 0;
		char **keys = fault_windows(o, c, &wins, &nw);
		const struct ssrc_member_stat *ms;

		if (c)
			nms = ssrc_members(c, &ms);
		t.name = fl->name;
		t.halt_ms = t.onset_ms = t.detection_latency_ms = t.noticed_ms = -1;
		in.stamps = f ? frc_stamp_log(f, &in.nstamps) : NULL;
		in.windows = wins;
		in.nwindows = nw;
		/* first_halt_figures() only reads the observer */
		first_halt_figures((struct fo *)o, &t, first, &in);
		if (t.has_blast)
			put_blast(&out, o, &t);
		scratch_release(&t);
		for (size_t i = 0; i < nms; i++)
			free(keys[i]);
		free(keys);
		free(wins);
	}
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

/* Field @i of entry @e ("A/B/..."), %XX-decoded; new, "" when there is none. */
static char *field_at(const char *e, size_t len, size_t i)
{
	const char *end = e + len, *p = e;
	char *out, *q;

	for (; i && p < end; p++)
		if (*p == '/')
			i--;
	out = q = xmalloc(len + 1);
	for (; p < end && *p != '/'; p++) {
		unsigned x;

		if (*p == '%' && end - p >= 3 && sscanf(p + 1, "%2x", &x) == 1) {
			*q++ = (char)x;
			p += 2;
		} else {
			*q++ = *p;
		}
	}
	*q = '\0';
	return out;
}

/* A carried TIME (or "-") as ms of this run, FO_NEVER when none. */
static int64_t past_time(const struct fo *o, const char *v)
{
	int64_t unix_ms;

	if (!v || !*v || !strcmp(v, "-") || gt_parse_rfc3339(v, &unix_ms, NULL, 0) != 0)
		return FO_NEVER;
	return unix_ms - o->start_unix_ms;
}

/* Calls @fn on each entry of comma list @v (the loader checked its shape). */
static void each_entry(const char *v, void (*fn)(void *ctx, const char *e, size_t len), void *ctx)
{
	while (v && *v) {
		const char *comma = strchr(v, ',');
		size_t len = comma ? (size_t)(comma - v) : strlen(v);

		fn(ctx, v, len);
		v += len + (comma ? 1 : 0);
	}
}

struct seed_ctx {
	struct fo *o;
	size_t fi;
};

static void seed_wave(void *ctx, const char *e, size_t len)
{
	struct seed_ctx *c = ctx;
	char *f[6];
	struct fo_wave *w;
	size_t k;

	for (size_t i = 0; i < 6; i++)
		f[i] = field_at(e, len, i);
	k = wave_get(c->o, c->fi, f[0]);
	w = &c->o->f[c->fi].waves[k];
	w->past_opened_ms = past_time(c->o, f[1]);
	w->past_settled_ms = past_time(c->o, f[2]);
	w->past_last_settled_ms = past_time(c->o, f[3]);
	w->soaks = (unsigned)strtoul(f[4], NULL, 10);
	w->past_passed_ms = past_time(c->o, f[5]);
	c->o->last_soak[c->fi][k].carried = w->soaks > 0;
	for (size_t i = 0; i < 6; i++)
		free(f[i]);
}

static void seed_halt(void *ctx, const char *e, size_t len)
{
	struct seed_ctx *c = ctx;
	struct fo_fleet *fl = &c->o->f[c->fi];
	struct fo_halt *x;
	char *f[7];

	for (size_t i = 0; i < 7; i++)
		f[i] = field_at(e, len, i);
	fl->past_halts = xreallocarray(fl->past_halts, fl->npast_halts + 1, sizeof(*fl->past_halts));
	x = &fl->past_halts[fl->npast_halts++];
	x->t_ms = past_time(c->o, f[0]);
	x->last_ms = past_time(c->o, f[1]);
	x->passes = (uint32_t)strtoul(f[2], NULL, 10);
	x->gate = is(f[3], "gate");
	x->wave = f[4];
	x->reason = xstrdup("Halted");
	x->version = is(f[5], "-") ? NULL : f[5];
	x->message = f[6];
	if (!x->version)
		free(f[5]);
	free(f[0]);
	free(f[1]);
	free(f[2]);
	free(f[3]);
}

static void seed_blast_wave(void *ctx, const char *e, size_t len)
{
	struct seed_ctx *c = ctx;
	struct fo_fleet *fl = &c->o->f[c->fi];
	struct fo_blast_wave *bw;
	char *f[3];

	for (size_t i = 0; i < 3; i++)
		f[i] = field_at(e, len, i);
	fl->blast_waves = xreallocarray(fl->blast_waves, fl->nblast_waves + 1, sizeof(*fl->blast_waves));
	bw = &fl->blast_waves[fl->nblast_waves++];
	bw->name = f[0];
	bw->count = (size_t)strtoull(f[1], NULL, 10);
	bw->total = (size_t)strtoull(f[2], NULL, 10);
	free(f[1]);
	free(f[2]);
}

/* "a,b,c" into a new array of new strings. */
static char **names_of(const char *v, size_t *n)
{
	char **out = NULL;

	*n = 0;
	while (v && *v) {
		const char *comma = strchr(v, ',');
		size_t len = comma ? (size_t)(comma - v) : strlen(v);

		out = xreallocarray(out, *n + 1, sizeof(*out));
		out[(*n)++] = xstrndup(v, len);
		v += len + (comma ? 1 : 0);
	}
	return out;
}

/* The carried figures of the first halt, when it was before the start. */
static void seed_blast(struct fo *o, struct fo_fleet *fl, const struct scenario *s)
{
#define GET(key) scn_observer_get(s, "FleetRollout", "", fl->name, key)
	const char *v = GET("badVersion"), *x;
	struct seed_ctx c;

	if (!v || !fl->npast_halts)
		return;
	c.o = o;
	(void)fleet_get(o, fl->name, &c.fi);
	fl->has_blast = fl->blast_carried = true;
	fl->bad_version = xstrdup(v);
	fl->halt_ms = fl->past_halts[0].t_ms;
	fl->blast_members = names_of(GET("blast"), &fl->blast_count);
	fl->blast_total = (size_t)strtoull(GET("blastTotal") ? GET("blastTotal") : "0", NULL, 10);
	each_entry(GET("blastWaves"), seed_blast_wave, &c);
	if ((x = GET("onsetMember")) != NULL) {
		fl->onset_member = xstrdup(x);
		fl->onset_ms = past_time(o, GET("onset"));
		fl->onset_window = is(GET("onsetWindow"), "yes");
		fl->onset_undated = is(GET("onsetUndated"), "yes");
		fl->detection_latency_ms = fl->onset_undated ? -1 : fl->halt_ms - fl->onset_ms;
	}
	if ((x = GET("noticed")) != NULL)
		fl->noticed_ms = past_time(o, x);
	fl->exposure_member_ms = strtoll(GET("exposure") ? GET("exposure") : "0", NULL, 10);
	fl->exposure_after_halt_member_ms = strtoll(GET("afterHalt") ? GET("afterHalt") : "0", NULL, 10);
	fl->remediated = (size_t)strtoull(GET("remediated") ? GET("remediated") : "0", NULL, 10);
	fl->on_bad = names_of(GET("onBad"), &fl->non_bad);
#undef GET
}

void fo_seed(struct fo *o, const struct scenario *s)
{
	for (size_t i = 0; o && s && i < s->nobserver; i++) {
		const struct scn_observer_state *e = &s->observer[i];
		struct seed_ctx c = { o, 0 };
		struct fo_fleet *fl;
		const char *v;

		if (strcmp(e->kind, "FleetRollout") != 0)
			continue;
		fl = fleet_get(o, e->name, &c.fi);
		fl->past_completed_ms = past_time(o, scn_observer_get(s, e->kind, e->ns, e->name, "completed"));
		each_entry(scn_observer_get(s, e->kind, e->ns, e->name, "waves"), seed_wave, &c);
		each_entry(scn_observer_get(s, e->kind, e->ns, e->name, "halts"), seed_halt, &c);
		fl = &o->f[c.fi];
		if ((v = scn_observer_get(s, e->kind, e->ns, e->name, "halts")) != NULL)
			seed_blast(o, fl, s);
	}
}

void fo_free(struct fo *o)
{
	if (!o)
		return;
	for (size_t i = 0; i < o->nm; i++) {
		struct member *m = &o->m[i];

		free(m->key);
		for (size_t k = 0; k < m->nv; k++)
			free(m->v[k].version);
		free(m->v);
		free(m->r);
		for (size_t k = 0; k < m->nref; k++)
			free(m->ref[k].reason);
		free(m->ref);
		free(m->ready_reason);
	}
	free(o->m);
	si_release(&o->m_idx);
	for (size_t i = 0; i < o->natt; i++)
		free(o->att[i].a);
	free(o->att);
	si_release(&o->att_idx);
	for (size_t i = 0; i < o->nf; i++) {
		struct fo_fleet *f = &o->f[i];

		free(f->name);
		for (size_t k = 0; k < f->nwaves; k++) {
			free(f->waves[k].name);
			free(f->waves[k].gates);
			for (size_t j = 0; j < f->waves[k].nmembers; j++)
				free(f->waves[k].members[j]);
			free(f->waves[k].members);
			free(f->waves[k].progress);
			free(f->waves[k].adoption);
		}
		for (size_t k = 0; k < f->ntargets; k++)
			free(f->targets[k]);
		free(f->targets);
		free(f->waves);
		for (size_t k = 0; k < f->nhalts; k++) {
			free(f->halts[k].wave);
			free(f->halts[k].reason);
			free(f->halts[k].message);
			free(f->halts[k].version);
		}
		free(f->halts);
		for (size_t k = 0; k < f->npast_halts; k++) {
			free(f->past_halts[k].wave);
			free(f->past_halts[k].reason);
			free(f->past_halts[k].message);
			free(f->past_halts[k].version);
		}
		free(f->past_halts);
		for (size_t k = 0; k < f->non_bad; k++)
			free(f->on_bad[k]);
		free(f->on_bad);
		for (size_t k = 0; k < f->nstamps; k++) {
			free(f->stamps[k].wave);
			free(f->stamps[k].member);
			free(f->stamps[k].to);
			free(f->stamps[k].refused_reason);
		}
		free(f->stamps);
		free(f->bad_version);
		for (size_t k = 0; k < f->blast_count; k++)
			free(f->blast_members[k]);
		free(f->blast_members);
		for (size_t k = 0; k < f->nblast_waves; k++)
			free(f->blast_waves[k].name);
		free(f->blast_waves);
		free(f->onset_member);
		free(o->last_soak ? o->last_soak[i] : NULL);
	}
	free(o->f);
	free(o->last_soak);
	si_release(&o->f_idx);
	si_release(&o->mw_idx);
	free(o->mw);
	free(o);
}
