/*
 * Members a derived FleetRollout counted adopted while their error budget
 * held them (fleet_adoption.h).
 */
#include "sim/run/fleet_adoption.h"

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

/* What a budget hold writes into a deployed StageSet's Ready message (StageSet spec R-10). */
#define BUDGET_HELD "error budget exhausted"
/* A verified rollout's Ready message. */
#define VERIFIED "Applied and verified"

/* One member of a derived fleet; strings borrow the store's and the timeline's. */
struct member {
	const char *ns, *name;
	size_t wave;          /* index of its first wave */
	bool held;            /* its last status is a budget hold */
	int64_t held_ms;      /* since when */
	const char *held_msg;
	int64_t told_ms;      /* when the fleet passed its wave while held, -1: not */
	const char *fleet_msg;
	int64_t verified_ms;  /* its first verified rollout after @told_ms, -1: none */
	int64_t pending_ms;   /* its first hold for approval after @told_ms, -1: none */
	int64_t halt_ms;      /* the fleet's halt at @pending_ms, -1: none */
	const char *halt_msg;
};

struct fleet {
	const struct obj *fr;
	const struct val *waves;
	struct keytab m;      /* its members (struct member), by "ns/name" */
};

/* Index of the wave named in "... wave \"W\" open" of @msg, or SIZE_MAX. */
static size_t open_wave(const struct val *waves, const char *msg)
{
	const char *p = msg ? strstr(msg, "wave \"") : NULL, *q;

	if (!p)
		return SIZE_MAX;
	p += 6;
	if (!(q = strchr(p, '"')) || strcmp(q, "\" open") != 0)
		return SIZE_MAX;
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		const char *name = val_str(val_map_get(waves->u.list.items[i], "name"), "");

		if (strlen(name) == (size_t)(q - p) && !strncmp(name, p, (size_t)(q - p)))
			return i;
	}
	return SIZE_MAX;
}

static void member_init(void *rec, const struct obj *ss, size_t wave, const char *wave_name)
{
	(void)wave_name;
	*(struct member *)rec = (struct member){ ss->ns, ss->name, wave, false, -1, NULL, -1, NULL, -1, -1, -1, NULL };
}

static void stageset_status(struct fleet *f, const struct tl_entry *e)
{
	struct member *m = kt_get(&f->m, e->ns, e->name);
	bool held;

	if (!m)
		return;
	held = e->reason && !strcmp(e->reason, "Succeeded") && e->message && strstr(e->message, BUDGET_HELD);
	if (held && !m->held) {
		m->held_ms = e->t_ms;
		m->held_msg = e->message;
	}
	m->held = held;
	if (m->told_ms >= 0 && m->verified_ms < 0 && e->message && !strncmp(e->message, VERIFIED, strlen(VERIFIED)))
		m->verified_ms = e->t_ms;
	if (m->told_ms >= 0 && m->pending_ms < 0 && e->reason && !strcmp(e->reason, "AwaitingApproval"))
		m->pending_ms = e->t_ms;
}

static void fleet_status(struct fleet *f, const struct tl_entry *e)
{
	size_t passed = e->phase && !strcmp(e->phase, "Completed") ? SIZE_MAX : open_wave(f->waves, e->message);

	/* a member counted adopted that holds for approval later is "no longer adopted": a regression */
	if (e->phase && !strcmp(e->phase, "Halted"))
		for (size_t i = 0; i < f->m.n; i++) {
			struct member *m = kt_item(&f->m, i);

			if (m->pending_ms == e->t_ms && m->halt_ms < 0) {
				m->halt_ms = e->t_ms;
				m->halt_msg = e->message ? e->message : "";
			}
		}
	if (passed == SIZE_MAX && !(e->phase && !strcmp(e->phase, "Completed")))
		return;
	for (size_t i = 0; i < f->m.n; i++) {
		struct member *m = kt_item(&f->m, i);

		if (m->held && m->told_ms < 0 && m->wave < passed) {
			m->told_ms = e->t_ms;
			m->fleet_msg = e->message ? e->message : "";
		}
	}
}

static void tell(struct run_result *r, const struct fleet *f, const struct member *m)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ], t4[GT_DURATION_BUFSZ];
	struct tl_objref refs[2] = { { "FleetRollout", "", f->fr->name, 0 }, { "StageSet", m->ns, m->name, 0 } };
	char *after = m->verified_ms >= 0
			      ? xasprintf("it verified a rollout only at %s",
					  (gt_format_duration(m->verified_ms, t3, sizeof(t3)), t3))
			      : xstrdup("it verified no rollout after that to the end of the run");
	char *halt = m->halt_ms >= 0
			     ? xasprintf(", and when it held the new version for approval at %s the fleet took it "
					 "for a regression and halted ('%s')",
					 (gt_format_duration(m->halt_ms, t4, sizeof(t4)), t4), m->halt_msg)
			     : xstrdup("");
	char *text;

	gt_format_duration(m->told_ms, t1, sizeof(t1));
	gt_format_duration(m->held_ms, t2, sizeof(t2));
	text = xasprintf("FleetRollout %s counted StageSet %s/%s adopted at %s ('%s') while its error budget "
			 "held it on its old version: since %s its status read '%s', Ready True with no "
			 "pendingVersion, which a fleet without targetVersion counts as adopted; %s%s; pin the "
			 "fleet's targetVersion",
			 f->fr->name, m->ns, m->name, t1, m->fleet_msg, t2, m->held_msg, after, halt);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, refs, 2);
	free(text);
	free(halt);
	free(after);
}

void fleet_adoption_end_of_run(struct run_result *r)
{
	const struct tl *tl = des_timeline(r->world);
	struct fd_list l;
	struct fleet *f;
	size_t nf = 0;

	fd_list_init(&l, des_api(r->world));
	f = xcalloc(l.frs.n + 1, sizeof(*f));
	for (size_t i = 0; i < l.frs.n; i++) {
		const struct obj *fr = l.frs.items[i];

		if (!fd_followed(fr))
			continue;
		f[nf].fr = fr;
		f[nf].waves = val_map_get(fr->spec, "waves");
		kt_init(&f[nf].m, sizeof(struct member));
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
				stageset_status(&f[k], &e);
			else if (!strcmp(e.kind, "FleetRollout") && !strcmp(e.name, f[k].fr->name))
				fleet_status(&f[k], &e);
		}
	}
	for (size_t k = 0; k < nf; k++) {
		for (size_t i = 0; i < f[k].m.n; i++) {
			const struct member *m = kt_item(&f[k].m, i);

			if (m->told_ms >= 0)
				tell(r, &f[k], m);
		}
		kt_release(&f[k].m);
	}
	free(f);
	fd_list_release(&l);
}
