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
#include "sim/run/fleet_derived.h"

/* One member; strings borrow the store's and the timeline's. */
struct vmember {
	const char *ns, *name, *wave;
	bool ready, pending_update, pending_version;
	const char *message;  /* of its last status */
	int64_t from_ms, to_ms; /* the first stretch, -1 / -1 (to: -1 while it lasts) */
	const char *stretch_msg;
	bool in_stretch;
};

struct vfleet {
	const struct obj *fr;
	bool in_progress;
	struct keytab m;      /* its members (struct vmember), by "ns/name" */
};

/*
 * Whether the status-entry @detail ("status: a, -b, c") names field @f; *@removed says whether
 * as removed ("-f").
 */
static bool names_field(const char *detail, const char *f, bool *removed)
{
	const char *p = detail && !strncmp(detail, "status: ", 8) ? detail + 8 : NULL;
	size_t n = strlen(f);

	while (p && *p) {
		const char *end = strstr(p, ", ");
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool minus = *p == '-';

		if (len - minus == n && !strncmp(p + minus, f, n)) {
			*removed = minus;
			return true;
		}
		p = end ? end + 2 : NULL;
	}
	return false;
}

/* Whether the view prints @m "✓ … Ready" while the controller counts it not ready. */
static bool mismatch(const struct vfleet *f, const struct vmember *m)
{
	return f->in_progress && m->ready && m->pending_update && !m->pending_version;
}

static void settle(struct vfleet *f, int64_t t_ms)
{
	for (size_t i = 0; i < f->m.n; i++) {
		struct vmember *m = kt_item(&f->m, i);
		bool now = mismatch(f, m);

		if (now && !m->in_stretch && m->from_ms < 0) {
			m->in_stretch = true;
			m->from_ms = t_ms;
			m->stretch_msg = m->message;
		} else if (!now && m->in_stretch) {
			m->in_stretch = false;
			m->to_ms = t_ms;
		}
	}
}

static void member_status(struct vfleet *f, const struct tl_entry *e)
{
	struct vmember *m = kt_get(&f->m, e->ns, e->name);
	bool removed;

	if (!m)
		return;
	m->ready = e->reason && !strcmp(e->reason, "Succeeded");
	m->message = e->message;
	if (names_field(e->detail, "pendingUpdate", &removed))
		m->pending_update = !removed;
	if (names_field(e->detail, "pendingVersion", &removed))
		m->pending_version = !removed;
}

static void member_init(void *rec, const struct obj *ss, size_t wave, const char *wave_name)
{
	(void)wave;
	*(struct vmember *)rec =
		(struct vmember){ .ns = ss->ns, .name = ss->name, .wave = wave_name, .from_ms = -1, .to_ms = -1 };
}

static void tell(struct run_result *r, const struct vfleet *f, const struct vmember *m)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], len[GT_DURATION_BUFSZ];
	struct tl_objref refs[2] = { { "FleetRollout", "", f->fr->name, 0 }, { "StageSet", m->ns, m->name, 0 } };
	int64_t end = m->to_ms >= 0 ? m->to_ms : r->end_ms;
	char *text;

	gt_format_duration(m->from_ms, t1, sizeof(t1));
	gt_format_duration(end, t2, sizeof(t2));
	gt_format_duration(end - m->from_ms, len, sizeof(len));
	text = xasprintf("stagesetctl fleet %s shows StageSet %s/%s of wave \"%s\" as \"✓ … Ready\" from %s to "
			 "%s%s (%s), while FleetRollout %s counted it not ready, which keeps the wave from settling: its "
			 "status.pendingUpdate held revisions ('%s'), which the controller reads and the CLI "
			 "does not; read the member's status.pendingUpdate (kubectl get stageset -o yaml) before "
			 "trusting the view",
			 f->fr->name, m->ns, m->name, m->wave, t1, t2, m->to_ms >= 0 ? "" : ", the end of the run",
			 len, f->fr->name, m->stretch_msg ? m->stretch_msg : "");
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, refs, 2);
	free(text);
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

		if (!fd_followed(fr))
			continue;
		f[nf].fr = fr;
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
				member_status(&f[k], &e);
			else if (!strcmp(e.kind, "FleetRollout") && !strcmp(e.name, f[k].fr->name))
				f[k].in_progress = e.phase && !strcmp(e.phase, "InProgress");
			else
				continue;
			settle(&f[k], e.t_ms);
		}
	}
	for (size_t k = 0; k < nf; k++) {
		for (size_t i = 0; i < f[k].m.n; i++) {
			const struct vmember *m = kt_item(&f[k].m, i);

			if (m->from_ms >= 0)
				tell(r, &f[k], m);
		}
		kt_release(&f[k].m);
	}
	free(f);
	fd_list_release(&l);
}
