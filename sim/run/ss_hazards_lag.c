/*
 * A migration ladder that lagged its version, read from the adapter's
 * attempts and the store at the end of a run (ss_hazards_lag.h).
 */
#include "sim/run/ss_hazards_lag.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/stageset_migrations.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/lint/lint_ss_lag.h"
#include "sim/load/scn_ssworld.h"
#include "sim/wire/fleet_glue.h"
#include "sim/wire/stageset_rc.h"

/*
 * Whether the timeline holds a MigrationStarted event of StageSet @ns/@name
 * for migration @mig (its message begins `migration "<mig>"`).
 * status.executedMigrations cannot say: a success that advances the version
 * clears it.
 */
static bool started(const struct tl *tl, const char *ns, const char *name, const char *mig)
{
	char *head = xasprintf("migration \"%s\"", mig);
	bool found = false;

	for (size_t i = 0, n = tl_count(tl); i < n && !found; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		found = e.change == TL_EVENT && e.kind && !strcmp(e.kind, "StageSet") && e.ns && !strcmp(e.ns, ns) &&
			e.name && !strcmp(e.name, name) && e.reason && !strcmp(e.reason, MIG_EVENT_STARTED) &&
			e.message && !strncmp(e.message, head, strlen(head));
	}
	free(head);
	return found;
}

/* Whether version @v parses and lies at or above @to. */
static bool at_or_above(const char *v, const char *to)
{
	struct ss_semver a, b;

	return v && ss_semver_parse(v, &a, NULL, 0) == SS_OK && ss_semver_parse(to, &b, NULL, 0) == SS_OK &&
	       ss_semver_compare(&a, &b) >= 0;
}

/* The notices of StageSet @m, whose object at the end of the run is @ss with spec @sp. */
static void member(struct run_result *r, const struct scenario *s, const struct ssrc_member_stat *m,
		   const struct obj *ss, const struct sst_spec *sp)
{
	struct tl_objref ref = { "StageSet", m->ns, m->name, 0 };
	const char *kind, *rns, *name, *version = ss->status ? val_str(val_map_get(ss->status, "version"), NULL) : NULL;
	const struct scn_sw_source *u;

	if (!lss_migrations_source(sp, m->ns, &kind, &rns, &name) ||
	    api_get(des_api(r->world), kind, rns, name) || /* the store's source: read as it is */
	    !(u = scn_sw_source_updates(&s->models.world, kind, rns, name)))
		return;
	for (size_t k = 0; k < u->nupdates; k++) {
		int64_t t = u->updates[k].at_ms;

		for (size_t i = 0; i < m->nattempts && t <= r->end_ms; i++) {
			const struct ssrc_attempt *a = &m->attempts[i];
			char *mig, *mto = NULL, *text;
			char t0[GT_DURATION_BUFSZ], t1[GT_DURATION_BUFSZ];

			if (a->outcome != SSRC_SUCCEEDED || a->baseline || a->downgrade || !a->from[0] || a->end_ms >= t)
				continue;
			if (!(mig = lss_late_migration(s, sp, m->ns, u, k, a->start_ms, a->from, a->version, &mto)))
				continue;
			if (!at_or_above(version, mto) || started(des_timeline(r->world), m->ns, m->name, mig)) {
				free(mig);
				free(mto);
				continue;
			}
			gt_format_duration(t, t0, sizeof(t0));
			gt_format_duration(a->end_ms, t1, sizeof(t1));
			text = xasprintf("StageSet %s/%s: migration \"%s\" (to %s) came with the update of %s %s/%s, its "
					 "spec.migrationsSourceRef, at %s, after the upgrade %s → %s had ended at %s with a "
					 "ladder that did not hold it; status.version (%s at the end of the run) lies at or "
					 "above its to, and the controller runs only migrations above status.version, so no "
					 "pass ran it (no MigrationStarted event names it); deliver a migration to "
					 "the migrations source before the version it belongs to, and run this one by hand",
					 m->ns, m->name, mig, mto, kind, rns, name, t0, a->from, a->version, t1, version);
			tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
			free(text);
			free(mig);
			free(mto);
			break; /* one notice per update: the first upgrade it came after */
		}
	}
}

void ss_hazards_lag(struct run_result *r, const struct scenario *s)
{
	const struct ssrc *rc = fleet_glue_ssrc(r->fleet);
	const struct ssrc_member_stat *ms;
	size_t n = rc ? ssrc_members(rc, &ms) : 0;

	for (size_t i = 0; i < n; i++) {
		const struct obj *ss = api_get(des_api(r->world), "StageSet", ms[i].ns, ms[i].name);
		struct sst_spec sp;
		char err[256];

		if (!ms[i].nattempts || !ss || !ss->spec || ss->spec->type != VAL_MAP ||
		    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
			continue;
		member(r, s, &ms[i], ss, &sp);
		sst_spec_release(&sp);
	}
}
