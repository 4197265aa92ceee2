/*
 * Members the fleet view prints Ready while the FleetRollout counts them not
 * ready (fleet_view_ready.h).
 */
#include "sim/run/fleet_view_ready.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keytab.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/observe/fleetobs.h"
#include "sim/run/fleet_derived.h"

/* A stretch of a member's status the view misreads: the first one, -1 / -1 none (to: -1 while it lasts). */
struct vstretch {
	int64_t from_ms, to_ms;
	const char *reason, *msg; /* the member's Ready reason and message at its start */
	bool open;
};

/* One member; strings borrow the store's, the timeline's and the fleet observer's. */
struct vmember {
	const char *ns, *name, *wave;
	char *key;              /* "ns/name" (owned) */
	bool seen;              /* a status of it was written in the run */
	bool ready, pending_update, pending_version;
	const char *reason, *message; /* of its last status */
	bool adopted;           /* as the CLI and the controller count it (pendingVersion, or version at target) */
	bool adoption_seen;     /* its adoption was a status write of the run (not its first) */
	int64_t adopted_ms;     /* when, meaningful with adoption_seen */
	bool ready_since;       /* Ready True since it was adopted */
	struct vstretch shown_ready;  /* "✓ … Ready" while the controller counts it not ready */
	struct vstretch regressed;    /* "not Ready (regressed)" though not Ready since its adoption */
	int64_t regressed_adopted_ms; /* the adoption the first regressed stretch followed */
};

struct vfleet {
	const struct obj *fr;
	const char *target;     /* spec.targetVersion, NULL when derived */
	bool in_progress;
	struct keytab m;      /* its members (struct vmember), by "ns/name" */
};

/* Whether the view prints @m "✓ … Ready" while the controller counts it not ready. */
static bool shown_ready(const struct vfleet *f, const struct vmember *m)
{
	return f->in_progress && m->seen && m->adopted && m->ready && m->pending_update;
}

/* Whether the view prints @m "not Ready (regressed)" while it has not been Ready since its adoption. */
static bool regressed_never_ready(const struct vfleet *f, const struct vmember *m)
{
	return f->in_progress && m->seen && m->adopted && m->adoption_seen && !m->ready && !m->ready_since;
}

/* Opens or closes @s at @t_ms as @now says; only the first stretch is kept. */
static bool track(struct vstretch *s, bool now, const struct vmember *m, int64_t t_ms)
{
	if (now && !s->open && s->from_ms < 0) {
		s->open = true;
		s->from_ms = t_ms;
		s->reason = m->reason;
		s->msg = m->message;
		return true;
	}
	if (!now && s->open) {
		s->open = false;
		s->to_ms = t_ms;
	}
	return false;
}

static void settle(struct vfleet *f, int64_t t_ms)
{
	for (size_t i = 0; i < f->m.n; i++) {
		struct vmember *m = kt_item(&f->m, i);

		track(&m->shown_ready, shown_ready(f, m), m, t_ms);
		if (track(&m->regressed, regressed_never_ready(f, m), m, t_ms))
			m->regressed_adopted_ms = m->adopted_ms;
	}
}

static void member_status(struct vfleet *f, const struct tl_entry *e, const struct fo *fobs)
{
	struct vmember *m = kt_get(&f->m, e->ns, e->name);
	bool removed, adopted;

	if (!m)
		return;
	m->ready = e->reason && !strcmp(e->reason, "Succeeded");
	m->reason = e->reason;
	m->message = e->message;
	if (tl_status_names(e->detail, "pendingUpdate", &removed))
		m->pending_update = !removed;
	if (tl_status_names(e->detail, "pendingVersion", &removed))
		m->pending_version = !removed;
	if (f->target) {
		const char *v = fo_member_version_at(fobs, m->key, e->t_ms);

		adopted = v && !strcmp(v, f->target);
	} else {
		adopted = !m->pending_version;
	}
	if (adopted && !m->adopted) {
		m->adoption_seen = m->seen;
		m->adopted_ms = e->t_ms;
		m->ready_since = false;
	}
	m->adopted = adopted;
	m->seen = true;
	if (adopted && m->ready)
		m->ready_since = true;
}

/* "from 25m0s to 2h15m0s (1h50m0s)" of @s, the end of the run when it lasted; a new string. */
static char *span(const struct run_result *r, const struct vstretch *s)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], len[GT_DURATION_BUFSZ];
	int64_t end = s->to_ms >= 0 ? s->to_ms : r->end_ms;

	gt_format_duration(s->from_ms, t1, sizeof(t1));
	gt_format_duration(end, t2, sizeof(t2));
	gt_format_duration(end - s->from_ms, len, sizeof(len));
	return xasprintf("from %s to %s%s (%s)", t1, t2, s->to_ms >= 0 ? "" : ", the end of the run", len);
}

static void tell(struct run_result *r, const struct vfleet *f, const struct vmember *m)
{
	struct tl_objref refs[2] = { { "FleetRollout", "", f->fr->name, 0 }, { "StageSet", m->ns, m->name, 0 } };
	char *when, *adopted, *text;

	if (m->shown_ready.from_ms >= 0) {
		when = span(r, &m->shown_ready);
		adopted = f->target ? xasprintf("at targetVersion %s", f->target) : xstrdup("with no pendingVersion");
		text = xasprintf("stagesetctl fleet %s shows StageSet %s/%s of wave \"%s\" as \"✓ … Ready\" %s, "
				 "while FleetRollout %s counted it not ready, which keeps the wave from settling: it was "
				 "adopted (%s) and Ready True, but its status.pendingUpdate held revisions ('%s'), which "
				 "the controller reads and the CLI does not; read the member's status.pendingUpdate "
				 "(kubectl get stageset -o yaml) before trusting the view",
				 f->fr->name, m->ns, m->name, m->wave, when, f->fr->name, adopted,
				 m->shown_ready.msg ? m->shown_ready.msg : "");
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, refs, 2);
		free(text);
		free(adopted);
		free(when);
	}
	if (m->regressed.from_ms >= 0) {
		char t0[GT_DURATION_BUFSZ];

		gt_format_duration(m->regressed_adopted_ms, t0, sizeof(t0));
		when = span(r, &m->regressed);
		adopted = f->target ? xasprintf("its status.version reached targetVersion %s", f->target)
				    : xstrdup("its pendingVersion was cleared as it passed the approval gate");
		text = xasprintf("stagesetctl fleet %s shows StageSet %s/%s of wave \"%s\" as \"⚠ … not Ready "
				 "(regressed)\" %s, though it had not been Ready since FleetRollout %s counted it adopted "
				 "at %s (%s): it was still rolling out (Ready %s: '%s'), not regressed; the CLI calls "
				 "every adopted member that is not Ready regressed, so read the member's Ready reason "
				 "before taking it for a regression",
				 f->fr->name, m->ns, m->name, m->wave, when, f->fr->name, t0, adopted,
				 m->regressed.reason ? m->regressed.reason : "", m->regressed.msg ? m->regressed.msg : "");
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO, text, refs, 2);
		free(text);
		free(adopted);
		free(when);
	}
}

static void member_init(void *rec, const struct obj *ss, size_t wave, const char *wave_name)
{
	(void)wave;
	*(struct vmember *)rec = (struct vmember){
		.ns = ss->ns, .name = ss->name, .wave = wave_name, .key = xasprintf("%s/%s", ss->ns, ss->name),
		.shown_ready = { -1, -1, NULL, NULL, false }, .regressed = { -1, -1, NULL, NULL, false } };
}

void fleet_view_ready_end_of_run(struct run_result *r)
{
	const struct tl *tl = des_timeline(r->world);
	struct fd_list l;
	struct vfleet *f;
	size_t nf = 0;

	fd_list_init(&l, des_api(r->world));
	f = xcalloc(l.frs.n + 1, sizeof(*f));
	for (size_t i = 0; i < l.frs.n; i++) {
		const struct obj *fr = l.frs.items[i];
		const char *target = val_str(val_map_get(fr->spec, "targetVersion"), "");

		/* pinned fleets too (the view misreads them as well); not those over namespaces */
		if (val_map_get(fr->spec, "namespaceSelector"))
			continue;
		f[nf].fr = fr;
		f[nf].target = *target ? target : NULL;
		kt_init(&f[nf].m, sizeof(struct vmember));
		fd_members(fr, &l.sss, &f[nf].m, member_init);
		nf++;
	}
	for (size_t i = 0, n = nf ? tl_count(tl) : 0; i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (e.change != TL_STATUS)
			continue;
		for (size_t k = 0; k < nf; k++) {
			if (!strcmp(e.kind, "StageSet"))
				member_status(&f[k], &e, r->fobs);
			else if (!strcmp(e.kind, "FleetRollout") && !strcmp(e.name, f[k].fr->name))
				f[k].in_progress = e.phase && !strcmp(e.phase, "InProgress");
			else
				continue;
			settle(&f[k], e.t_ms);
		}
	}
	for (size_t k = 0; k < nf; k++) {
		for (size_t i = 0; i < f[k].m.n; i++) {
			struct vmember *m = kt_item(&f[k].m, i);

			tell(r, &f[k], m);
			free(m->key);
		}
		kt_release(&f[k].m);
	}
	free(f);
	fd_list_release(&l);
}
