/*
 * The StageSet controller adapter's StageInventory shards, renders, live
 * objects and Q-28 survivors: see sim/wire/stageset_rc_inv.h.
 */
#include "sim/wire/stageset_rc_inv.h"

#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/core/timeline.h"
#include "sim/wire/stageset_rc.h"
#include "sim/wire/stageset_rc_env.h"

static bool has_id(char *const *ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(ids[i], id) == 0)
			return true;
	return false;
}

static struct ssrr_render *render_find(const struct ssrr_member *m, const char *stage)
{
	for (size_t i = 0; i < m->nrender; i++)
		if (strcmp(m->render[i].stage, stage) == 0)
			return &m->render[i];
	return NULL;
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static size_t live_find(const struct ssrr_member *m, const char *id)
{
	for (size_t i = 0; i < m->nlive; i++)
		if (strcmp(m->live[i].id, id) == 0)
			return i;
	return SIZE_MAX;
}

void ssri_add_shard(struct ssrr_member *m, const char *name, int64_t entries, char *const *ids, size_t nids)
{
	struct ssrr_inv *rec;
	int pos = -1;

	for (size_t k = 0; m->spec_ok && k < m->spec.nstages; k++)
		if (strcmp(m->spec.stages[k].name, name) == 0)
			pos = (int)k;
	if (entries <= 0 || pos < 0 || ssre_inv_find(m, name))
		return;
	m->inv = xreallocarray(m->inv, m->ninv + 1, sizeof(*m->inv));
	rec = &m->inv[m->ninv++];
	rec->stage = xstrdup(name);
	if (ids) { /* the IDs given, the workload's first */
		rec->ids = xcalloc(nids, sizeof(*rec->ids));
		for (rec->nids = 0; rec->nids < nids; rec->nids++)
			rec->ids[rec->nids] = xstrdup(ids[rec->nids]);
	} else {
		rec->ids = xcalloc(1, sizeof(*rec->ids));
		rec->ids[0] = ssrr_entry_id(m, name);
		rec->nids = 1;
	}
	rec->entries = entries;
	rec->position = pos;
	rec->orphaned = false;
}

void ssri_render(struct ssrr_member *m, const char *stage, const char *workload_id,
		 const struct scn_sw_stage_objects *objs, bool written)
{
	struct ssrr_render *rd;

	if (!objs && m->nrender == 0)
		return;
	rd = render_find(m, stage);
	if (!written)
		return; /* nothing applied: the objects and the last render stay as they were */
	if (!objs) {
		if (rd) { /* the workload alone again */
			free(rd->stage);
			strv_free(rd->ids, rd->n);
			*rd = m->render[--m->nrender];
		}
		return;
	}
	if (!rd) {
		m->render = xreallocarray(m->render, m->nrender + 1, sizeof(*m->render));
		rd = &m->render[m->nrender++];
		rd->stage = xstrdup(stage);
	} else {
		strv_free(rd->ids, rd->n);
	}
	rd->ids = xcalloc(objs->n + 1, sizeof(*rd->ids));
	rd->n = 0;
	rd->ids[rd->n++] = xstrdup(workload_id);
	for (size_t k = 0; k < objs->n; k++) {
		char *id = xasprintf("%s_%s_%s_%s", objs->groups[k], objs->kinds[k], m->ns, objs->names[k]);

		if (has_id(rd->ids, rd->n, id)) { /* the workload named again: one object */
			free(id);
			continue;
		}
		rd->ids[rd->n++] = id;
		if (live_find(m, id) == SIZE_MAX) {
			m->live = xreallocarray(m->live, m->nlive + 1, sizeof(*m->live));
			m->live[m->nlive].stage = xstrdup(stage);
			m->live[m->nlive++].id = xstrdup(id);
			m->born = xreallocarray(m->born, m->nborn + 1, sizeof(*m->born));
			m->born[m->nborn++] = xstrdup(id);
		}
	}
}

size_t ssri_rendered(const struct ssrr_member *m, size_t stage, const char *const **ids)
{
	const struct ssrr_render *rd;

	*ids = NULL;
	if (stage >= m->nids || !m->ids[stage])
		return 0;
	rd = m->nrender ? render_find(m, m->spec.stages[stage].name) : NULL;
	if (rd) {
		*ids = (const char *const *)rd->ids;
		return rd->n;
	}
	*ids = (const char *const *)&m->ids[stage];
	return 1;
}

void ssri_deleted(struct ssrr_member *m, const char *const *ids, size_t n, int64_t now_ms)
{
	for (size_t i = 0; i < n && m->nlive; i++) {
		size_t at = live_find(m, ids[i]);

		if (at == SIZE_MAX)
			continue;
		free(m->live[at].stage);
		m->deleted = xreallocarray(m->deleted, m->ndeleted + 1, sizeof(*m->deleted));
		m->deleted[m->ndeleted++] = m->live[at].id;
		m->live[at] = m->live[--m->nlive];
		for (size_t k = 0; k < m->nsurv; k++)
			if (m->surv[k].deleted_ms == SSRC_STILL_LIVE && strcmp(m->surv[k].id, ids[i]) == 0)
				m->surv[k].deleted_ms = now_ms;
	}
}

/* Whether the kind of entry ID @id ("<group>_<Kind>_...") is one of @ids's. */
static bool kind_rendered(char *const *ids, size_t n, const char *id)
{
	const char *u = strchr(id, '_');
	size_t len;

	u = u ? strchr(u + 1, '_') : NULL;
	if (!u)
		return false;
	len = (size_t)(u - id) + 1;
	for (size_t i = 0; i < n; i++)
		if (strncmp(ids[i], id, len) == 0)
			return true;
	return false;
}

/* Whether another stage's render than @stage's claims @id (an object moved: the prune keeps it). */
static bool claimed_elsewhere(const struct ssrr_member *m, const char *stage, const char *id)
{
	for (size_t i = 0; i < m->nrender; i++)
		if (strcmp(m->render[i].stage, stage) != 0 && has_id(m->render[i].ids, m->render[i].n, id))
			return true;
	return false;
}

static void survivor_add(struct ssrr_member *m, const char *stage, const char *id, enum ssc_exit exit,
			 int64_t now_ms)
{
	for (size_t k = 0; k < m->nsurv; k++)
		if (m->surv[k].deleted_ms == SSRC_STILL_LIVE && strcmp(m->surv[k].id, id) == 0)
			return;
	m->surv = xreallocarray(m->surv, m->nsurv + 1, sizeof(*m->surv));
	m->surv[m->nsurv++] = (struct ssrc_survivor){ xstrdup(stage), xstrdup(id), now_ms, ssc_exit_name(exit),
						      SSRC_STILL_LIVE };
}

/* A survivor that @ids lists again is in a shard again: no longer one. */
static void survivors_readopted(struct ssrr_member *m, char *const *ids, size_t n)
{
	for (size_t k = 0; k < m->nsurv;) {
		if (m->surv[k].deleted_ms == SSRC_STILL_LIVE && has_id(ids, n, m->surv[k].id)) {
			free((char *)m->surv[k].stage);
			free((char *)m->surv[k].id);
			memmove(&m->surv[k], &m->surv[k + 1], (m->nsurv - k - 1) * sizeof(*m->surv));
			m->nsurv--;
			continue;
		}
		k++;
	}
}

static bool same_ids(char *const *a, size_t na, char *const *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

bool ssri_write(struct ssrr_member *m, const char *stage, int pos, enum ssc_exit exit, int64_t now_ms)
{
	const struct ssrr_render *rd = m->nrender ? render_find(m, stage) : NULL;
	struct ssrr_inv *rec = NULL;
	char *const *want;
	char *workload = NULL;
	size_t nwant;
	char **ids;
	size_t n = 0;

	for (size_t i = 0; i < m->ninv && !rec; i++)
		if (strcmp(m->inv[i].stage, stage) == 0)
			rec = &m->inv[i];
	if (rd) {
		want = rd->ids;
		nwant = rd->n;
	} else if (pos >= 0 && (size_t)pos < m->nids && m->ids[pos]) {
		want = &m->ids[pos]; /* the workload's ID, kept per spec stage */
		nwant = 1;
	} else {
		workload = ssrr_entry_id(m, stage);
		want = &workload;
		nwant = 1;
	}
	if (rec && rec->position == pos && same_ids(rec->ids, rec->nids, want, nwant)) {
		free(workload);
		return false; /* CreateOrUpdate of the same shard: no write */
	}
	ids = xcalloc(nwant + m->nlive + 1, sizeof(*ids));
	for (size_t i = 0; i < nwant; i++)
		ids[n++] = xstrdup(want[i]);
	if (!rec) {
		/* a new shard, or a lost one rebuilt: the stage's live objects of the render's kinds */
		for (size_t i = 0; i < m->nlive; i++)
			if (strcmp(m->live[i].stage, stage) == 0 && !has_id(ids, n, m->live[i].id) &&
			    kind_rendered(want, nwant, m->live[i].id))
				ids[n++] = xstrdup(m->live[i].id);
		m->inv = xreallocarray(m->inv, m->ninv + 1, sizeof(*m->inv));
		rec = &m->inv[m->ninv++];
		memset(rec, 0, sizeof(*rec));
		rec->stage = xstrdup(stage);
	} else if (exit != SSC_EXIT_SUCCEEDED && exit != SSC_EXIT_PRUNE_ERROR &&
		   !(pos >= 0 && m->spec_ok && (size_t)pos < m->spec.nstages && m->spec.stages[pos].has_prune &&
		     !m->spec.stages[pos].prune)) {
		/* (a stage with prune: false orphans what it drops whatever the pass does) */
		for (size_t i = 0; i < rec->nids; i++)
			if (!has_id(ids, n, rec->ids[i]) && live_find(m, rec->ids[i]) != SIZE_MAX &&
			    !claimed_elsewhere(m, stage, rec->ids[i]))
				survivor_add(m, stage, rec->ids[i], exit, now_ms);
	}
	if (m->nsurv)
		survivors_readopted(m, ids, n);
	strv_free(rec->ids, rec->nids);
	rec->ids = ids;
	rec->nids = n;
	rec->entries = (int64_t)n;
	rec->position = pos;
	free(workload);
	return true;
}

/* The kind, namespace and name of entry ID @id ("<group>_<Kind>_<ns>_<name>") as pointers into @buf. */
static bool split_id(const char *id, char *buf, size_t len, const char **kind, const char **ns, const char **name)
{
	char *k, *n, *o;

	if (strlen(id) >= len)
		return false;
	strcpy(buf, id);
	k = strchr(buf, '_');
	n = k ? strchr(k + 1, '_') : NULL;
	o = n ? strchr(n + 1, '_') : NULL;
	if (!o)
		return false;
	*n = *o = '\0';
	*kind = k + 1;
	*ns = n + 1;
	*name = o + 1;
	return true;
}

static void tell(struct tl *tl, const char *id, enum tl_change change, const char *detail, int64_t now_ms,
		 const char *cause)
{
	struct tl_entry e;
	char buf[512];

	memset(&e, 0, sizeof(e));
	if (!split_id(id, buf, sizeof(buf), &e.kind, &e.ns, &e.name))
		return;
	e.t_ms = now_ms;
	e.change = change;
	e.detail = detail;
	e.cause = cause;
	tl_append(tl, &e);
}

void ssri_tell(struct ssrr_member *m, struct tl *tl, int64_t now_ms, const char *cause)
{
	for (size_t i = 0; i < m->ndeleted; i++) {
		tell(tl, m->deleted[i], TL_DELETED, "deleted by the prune (left every stage's render)", now_ms, cause);
		free(m->deleted[i]);
	}
	for (size_t i = 0; i < m->nborn; i++) {
		size_t at = live_find(m, m->born[i]);
		char detail[128];

		if (at != SIZE_MAX) {
			snprintf(detail, sizeof(detail), "applied by stage %s", m->live[at].stage);
			tell(tl, m->born[i], TL_CREATED, detail, now_ms, cause);
		}
		free(m->born[i]);
	}
	m->ndeleted = m->nborn = 0;
}

/* The stage whose shard of @m lists @id, or "<none>". */
static const char *listed_by(const struct ssrr_member *m, const char *id)
{
	for (size_t i = 0; i < m->ninv; i++)
		if (has_id(m->inv[i].ids, m->inv[i].nids, id))
			return m->inv[i].stage;
	return "<none>";
}

void ssri_restore(struct ssrr_member *m, const char *stage, char *const *ids, size_t n, bool live)
{
	struct ssrr_render *rd;

	if (live) {
		for (size_t i = 0; i < n; i++) {
			if (live_find(m, ids[i]) != SIZE_MAX)
				continue;
			m->live = xreallocarray(m->live, m->nlive + 1, sizeof(*m->live));
			m->live[m->nlive].stage = xstrdup(stage);
			m->live[m->nlive++].id = xstrdup(ids[i]);
		}
		return;
	}
	if (n == 0 || render_find(m, stage))
		return;
	m->render = xreallocarray(m->render, m->nrender + 1, sizeof(*m->render));
	rd = &m->render[m->nrender++];
	rd->stage = xstrdup(stage);
	rd->ids = xcalloc(n, sizeof(*rd->ids));
	for (rd->n = 0; rd->n < n; rd->n++)
		rd->ids[rd->n] = xstrdup(ids[rd->n]);
}

/* appends "<sep><prefix><stage>=<id>;<id>..." of @ids (@n) to *@text */
static void text_item(char **text, const char *prefix, const char *stage, char *const *ids, size_t n)
{
	char *next = xasprintf("%s%s%s%s=", *text ? *text : "", *text ? "," : "", prefix, stage);

	for (size_t i = 0; i < n; i++) {
		char *more = xasprintf("%s%s%s", next, i ? ";" : "", ids[i]);

		free(next);
		next = more;
	}
	free(*text);
	*text = next;
}

void ssri_restore_survivor(struct ssrr_member *m, const char *stage, const char *id, int64_t dropped_ms,
			   const char *reason, int64_t deleted_ms)
{
	m->surv = xreallocarray(m->surv, m->nsurv + 1, sizeof(*m->surv));
	m->surv[m->nsurv++] = (struct ssrc_survivor){ xstrdup(stage), xstrdup(id), dropped_ms, reason, deleted_ms };
}

void ssri_text(const struct ssrr_member *m, int64_t start_unix_ms, char **text)
{
	for (size_t i = 0; i < m->nrender; i++)
		text_item(text, "render:", m->render[i].stage, m->render[i].ids, m->render[i].n);
	/*
	 * The live objects as a pass in flight found them: it runs again from
	 * its start in the resumed run (the queue annotation), so what it
	 * created is not there yet and what it deleted still is (listed by the
	 * shard it will prune from, which it rewrites only at its end).
	 */
	size_t n = 0;
	const char **stages = xcalloc(m->nlive + m->ndeleted + 1, sizeof(*stages));
	char **ids = xcalloc(m->nlive + m->ndeleted + 1, sizeof(*ids));

	for (size_t i = 0; i < m->nlive; i++)
		if (!has_id(m->born, m->nborn, m->live[i].id)) {
			stages[n] = m->live[i].stage;
			ids[n++] = m->live[i].id;
		}
	for (size_t i = 0; i < m->ndeleted; i++)
		if (strcmp(listed_by(m, m->deleted[i]), "<none>") != 0) {
			stages[n] = listed_by(m, m->deleted[i]);
			ids[n++] = m->deleted[i];
		}
	for (size_t i = 0; i < n;) {
		size_t j = i;

		while (j < n && strcmp(stages[j], stages[i]) == 0)
			j++;
		text_item(text, "live:", stages[i], ids + i, j - i);
		i = j;
	}
	free(stages);
	free(ids);
	for (size_t i = 0; i < m->nsurv; i++) {
		const struct ssrc_survivor *o = &m->surv[i];
		char dropped[GT_RFC3339_BUFSZ], deleted[GT_RFC3339_BUFSZ], *next;

		gt_format_rfc3339_nano(start_unix_ms + o->dropped_ms, dropped, sizeof(dropped));
		if (o->deleted_ms != SSRC_STILL_LIVE)
			gt_format_rfc3339_nano(start_unix_ms + o->deleted_ms, deleted, sizeof(deleted));
		next = xasprintf("%s%ssurvivor:%s=%s;%s;%s%s%s", *text ? *text : "", *text ? "," : "", o->stage, o->id,
				 dropped, o->reason, o->deleted_ms != SSRC_STILL_LIVE ? ";" : "", o->deleted_ms != SSRC_STILL_LIVE ? deleted : "");
		free(*text);
		*text = next;
	}
}

void ssri_inv_clear(struct ssrr_inv *rec)
{
	free(rec->stage);
	strv_free(rec->ids, rec->nids);
	rec->stage = NULL;
	rec->ids = NULL;
	rec->nids = 0;
}

void ssri_member_release(struct ssrr_member *m)
{
	for (size_t i = 0; i < m->nrender; i++) {
		free(m->render[i].stage);
		strv_free(m->render[i].ids, m->render[i].n);
	}
	free(m->render);
	for (size_t i = 0; i < m->nlive; i++) {
		free(m->live[i].stage);
		free(m->live[i].id);
	}
	free(m->live);
	for (size_t i = 0; i < m->nsurv; i++) {
		free((char *)m->surv[i].stage);
		free((char *)m->surv[i].id);
	}
	free(m->surv);
	strv_free(m->born, m->nborn);
	strv_free(m->deleted, m->ndeleted);
	m->born = m->deleted = NULL;
	m->nborn = m->ndeleted = 0;
	m->render = NULL;
	m->live = NULL;
	m->surv = NULL;
	m->nrender = m->nlive = m->nsurv = 0;
}

void ssri_rows(const struct ssrr_member *m, char ****rows, size_t *n)
{
	for (size_t i = 0; i < m->nlive; i++) {
		const char *kind, *ns, *name;
		char buf[512], **row;

		if (!split_id(m->live[i].id, buf, sizeof(buf), &kind, &ns, &name))
			continue;
		row = xcalloc(SSRC_OBJECT_COLS, sizeof(*row));
		row[0] = xstrdup(ns);
		row[1] = xasprintf("%s/%s", kind, name);
		for (char *c = row[1]; *c && *c != '/'; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
		row[2] = xstrdup(m->name);
		row[3] = xstrdup(m->live[i].stage);
		row[4] = xstrdup(listed_by(m, m->live[i].id));
		*rows = xreallocarray(*rows, *n + 1, sizeof(**rows));
		(*rows)[(*n)++] = row;
	}
}
