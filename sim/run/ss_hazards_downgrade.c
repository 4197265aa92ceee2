/*
 * Downgrades refused for a migration that never ran (ss_hazards_downgrade.h).
 */
#include "sim/run/ss_hazards_downgrade.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_migrations.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"

/* The refusal's message: "downgrade A → B crosses migration \"NAME\" (to X), which declares no down actions; ..." */
#define CROSSES " crosses migration \""

/* One StageSet's refusals; strings borrow the timeline's. */
struct refusal {
	const char *ns, *name;
	const char *message; /* the first refusal's message */
	int64_t first_ms, last_ms;
	size_t n;            /* status writes of the reason */
};

/*
 * Whether StageSet @ns/@name emitted MigrationCompleted for migration @mig
 * in the run ("migration \"NAME\" (to X) completed").  The events are the
 * record: status.executedMigrations is emptied by every full success.
 */
static bool ran(const struct tl *tl, const char *ns, const char *name, const char *mig)
{
	char *head = xasprintf("migration \"%s\" (to ", mig);
	bool found = false;

	for (size_t i = 0, count = tl_count(tl); i < count && !found; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		found = e.change == TL_EVENT && e.kind && !strcmp(e.kind, "StageSet") && !strcmp(e.ns ? e.ns : "", ns) &&
			!strcmp(e.name, name) && e.reason && !strcmp(e.reason, MIG_EVENT_COMPLETED) && e.message &&
			!strncmp(e.message, head, strlen(head));
	}
	free(head);
	return found;
}

static void tell(struct run_result *r, const struct refusal *f)
{
	const char *m = strstr(f->message, CROSSES), *q, *semi;
	const struct obj *ss = api_get(des_api(r->world), "StageSet", f->ns, f->name);
	const struct val *st = ss ? ss->status : NULL;
	const char *version = st ? val_str(val_map_get(st, "version"), "") : "";
	char *mig, *what, *to, *text, a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];
	struct tl_objref ref = { "StageSet", f->ns, f->name, 0 };

	if (!m || strncmp(f->message, "downgrade ", 10) != 0 || !(q = strchr(m + strlen(CROSSES), '"')))
		return;
	mig = xstrndup(m + strlen(CROSSES), (size_t)(q - (m + strlen(CROSSES))));
	if (ran(des_timeline(r->world), f->ns, f->name, mig)) {
		free(mig);
		return; /* it ran: the refusal guards a real step */
	}
	semi = strstr(q, "), which declares no down actions");
	to = semi && strncmp(q, "\" (to ", 6) == 0 ? xstrndup(q + 2, (size_t)(semi + 1 - (q + 2))) : xstrdup("");
	what = xstrndup(f->message, (size_t)(m - f->message));
	gt_format_duration(f->first_ms, a, sizeof(a));
	gt_format_duration(f->last_ms, b, sizeof(b));
	text = xasprintf("StageSet %s/%s: the %s was refused DowngradeRequiresMigration at %s%s%s%s for migration "
			 "\"%s\"%s%s, which never ran here (no MigrationCompleted event of it in the run): the controller picks a "
			 "downgrade's migrations by their to alone, not by what ran on the way up; status.version "
			 "was %s at the end; declare down actions on \"%s\" (harmless where it never ran)",
			 f->ns, f->name, what, a, f->n > 1 ? " (and again, the last time at " : "", f->n > 1 ? b : "",
			 f->n > 1 ? ")" : "", mig, *to ? " " : "", to, *version ? version : "\"\"", mig);
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(what);
	free(to);
	free(mig);
}

/* Whether StageSet @ns/@name came in with a status.version: a past (a snapshot's) the run did not see. */
static bool has_past(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];

		if (!strcmp(o->kind, "StageSet") && !strcmp(o->ns, ns) && !strcmp(o->name, name))
			return o->status && *val_str(val_map_get(o->status, "version"), "");
	}
	return false;
}

void ss_hazards_downgrade(struct run_result *r, const struct scenario *s)
{
	const struct tl *tl = des_timeline(r->world);
	struct strindex idx;
	struct refusal *v = NULL;
	size_t n = 0;

	memset(&idx, 0, sizeof(idx));
	for (size_t i = 0, count = tl_count(tl); i < count; i++) {
		struct tl_entry e;
		char buf[256], *key;
		size_t k;

		tl_get(tl, i, &e);
		if (e.change != TL_STATUS || !e.kind || strcmp(e.kind, "StageSet") != 0 || !e.reason ||
		    strcmp(e.reason, MIG_REASON_DOWNGRADE_REQUIRES_MIGRATION) != 0 || !e.message)
			continue;
		key = kb_join2(buf, sizeof(buf), e.ns ? e.ns : "", e.name ? e.name : "");
		if (!si_get(&idx, key, &k)) {
			k = n;
			si_put(&idx, key, k);
			v = xreallocarray(v, ++n, sizeof(*v));
			v[k] = (struct refusal){ e.ns ? e.ns : "", e.name, e.message, e.t_ms, e.t_ms, 0 };
		}
		kb_drop(key, buf);
		v[k].last_ms = e.t_ms;
		v[k].n++;
	}
	for (size_t k = 0; k < n; k++)
		if (!has_past(s, v[k].ns, v[k].name))
			tell(r, &v[k]);
	free(v);
	si_release(&idx);
}
