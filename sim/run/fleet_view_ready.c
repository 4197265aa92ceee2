/*
 * Members the fleet view prints Ready while the FleetRollout counts them not
 * ready (fleet_view_ready.h).
 */
#include "sim/run/fleet_view_ready.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keytab.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"

#define STAGES_GROUP "stages.metio.wtf/"

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

static bool stages_object(const struct obj *o, void *ctx)
{
	(void)ctx;
	return strncmp(o->api_version, STAGES_GROUP, strlen(STAGES_GROUP)) == 0;
}

static const char *first_wave(const struct val *waves, const struct obj_strmap *labels)
{
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		struct lbl_selector sel;
		bool hit;

		if (lbl_selector_from_val(val_map_get(waves->u.list.items[i], "selector"), &sel, NULL, 0) != LBL_OK)
			continue;
		hit = lbl_matches(&sel, labels);
		lbl_selector_release(&sel);
		if (hit)
			return val_str(val_map_get(waves->u.list.items[i], "name"), "");
	}
	return NULL;
}

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
	struct api *a = des_api(r->world);
	const struct tl *tl = des_timeline(r->world);
	struct api_list frs, sss;
	struct vfleet *f;
	size_t nf = 0;

	api_list_init(&frs);
	api_list_init(&sss);
	api_list(a, "FleetRollout", NULL, stages_object, NULL, &frs);
	if (frs.n)
		api_list(a, "StageSet", NULL, stages_object, NULL, &sss);
	f = xcalloc(frs.n + 1, sizeof(*f));
	for (size_t i = 0; i < frs.n; i++) {
		const struct obj *fr = frs.items[i];
		struct lbl_selector sel;

		if (*val_str(val_map_get(fr->spec, "targetVersion"), "") || val_map_get(fr->spec, "namespaceSelector") ||
		    lbl_selector_from_val(val_map_get(fr->spec, "selector"), &sel, NULL, 0) != LBL_OK)
			continue;
		f[nf].fr = fr;
		kt_init(&f[nf].m, sizeof(struct vmember));
		for (size_t k = 0; k < sss.n; k++) {
			const struct obj *ss = sss.items[k];
			const char *w;

			if (!lbl_matches(&sel, &ss->labels) || !(w = first_wave(val_map_get(fr->spec, "waves"), &ss->labels)))
				continue;
			*(struct vmember *)kt_item(&f[nf].m, kt_at(&f[nf].m, ss->ns, ss->name, NULL)) =
				(struct vmember){ .ns = ss->ns, .name = ss->name, .wave = w, .from_ms = -1, .to_ms = -1 };
		}
		lbl_selector_release(&sel);
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
	api_list_release(&sss);
	api_list_release(&frs);
}
