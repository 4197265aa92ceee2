/*
 * MS274: a downgrade refused for a migration skipped on the way up
 * (lint_ss_downgrade.h).
 */
#include "sim/lint/lint_ss_downgrade.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/stageset.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"

/* One version the scenario offers a StageSet: when, what, and where it is written. */
struct offer {
	int64_t t_ms;
	size_t order;         /* its place among offers of the same instant */
	const char *version;  /* borrowed from the scenario */
	bool rollback_to;     /* a rollback-to stamp: a downgrade only, read against the deployed version */
	const char *how;      /* "the publish", "the patch event", "the annotate event" */
	const char *file;
	struct val_mark mark;
};

/* What an upgrade did to one migration of the ladder. */
struct mstate {
	bool ran;             /* selected by an upgrade: it ran (approval taken as granted) */
	bool skipped;         /* crossed by an upgrade whose current version its from did not match */
	char *skipped_by;     /* the first such upgrade in words (owned) */
};

static int by_time(const void *a, const void *b)
{
	const struct offer *x = a, *y = b;

	if (x->t_ms != y->t_ms)
		return x->t_ms < y->t_ms ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool targets(const struct scn_event *e, const struct obj *ss)
{
	return e->target.kind && !strcmp(e->target.kind, "StageSet") && e->target.ns && !strcmp(e->target.ns, ss->ns) &&
	       e->target.name && !strcmp(e->target.name, ss->name);
}

/* The versions the scenario offers @ss after its manifest's, in time order (new array of *@n). */
static struct offer *offers_of(const struct scenario *s, const struct obj *ss, size_t *n)
{
	struct offer *out = xcalloc(s->nfevents + s->nevents + 1, sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		if (p->type == SCN_FEV_PUBLISH && !p->done && p->version && lbl_matches(&p->selector, &ss->labels))
			out[(*n)++] = (struct offer){ p->at_ms, p->index, p->version, false, "the publish", p->file,
						      p->mark };
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *v = NULL;
		bool rb = false;

		if (e->done || !targets(e, ss))
			continue;
		if (e->type == SCN_EV_PATCH)
			v = val_str(val_path(e->merge, "spec.version.value"), NULL);
		else if (e->type == SCN_EV_ANNOTATE && (v = obj_strmap_get(&e->set, SSC_ANN_ROLLBACK_TO)) != NULL)
			rb = true;
		if (v && *v)
			out[(*n)++] = (struct offer){ e->at_ms, e->index, v, rb,
						      rb ? "the annotate event" : "the patch event", e->file, e->mark };
	}
	qsort(out, *n, sizeof(*out), by_time);
	return out;
}

/* Whether migration @m's from constraint matches @cur (no from: it always does). */
static bool from_matches(const struct sst_migration *m, const struct ss_semver *cur)
{
	struct ss_constraints c;
	char err[256];
	bool ok;

	if (!m->from || !*m->from)
		return true;
	if (ss_constraints_parse(m->from, &c, err, sizeof(err)) != SS_OK)
		return true; /* ValidateLadder refuses it first (InvalidSpec) */
	ok = ss_constraints_check(&c, cur);
	ss_constraints_release(&c);
	return ok;
}

/* -1, 0, 1: where @m's to lies against the range (@lo, @hi]: below, in, above; 2 unparseable. */
static int to_in(const struct sst_migration *m, const struct ss_semver *lo, const struct ss_semver *hi)
{
	struct ss_semver to;
	char err[256];

	if (ss_semver_parse(m->to ? m->to : "", &to, err, sizeof(err)) != SS_OK)
		return 2;
	if (ss_semver_compare(&to, lo) <= 0)
		return -1;
	return ss_semver_compare(&to, hi) > 0 ? 1 : 0;
}

/* The migration a downgrade @cur → @des refuses: the highest to in (des, cur] with no down actions, or NULL. */
static const struct sst_migration *refusing(const struct sst_spec *sp, const struct ss_semver *cur,
					    const struct ss_semver *des, size_t *idx)
{
	const struct sst_migration *best = NULL;
	struct ss_semver bt, t;
	char err[256];

	for (size_t i = 0; i < sp->nmigrations; i++) {
		const struct sst_migration *m = &sp->migrations[i];

		if (to_in(m, des, cur) != 0 || m->down.n > 0)
			continue;
		ss_semver_parse(m->to, &t, err, sizeof(err));
		/* descending to, equal targets in ladder order: the first selected wins */
		if (!best || ss_semver_compare(&t, &bt) > 0) {
			best = m;
			bt = t;
			*idx = i;
		}
	}
	return best;
}

static void walk(struct lint_report *r, const struct scenario *s, const struct obj *ss, const struct sst_spec *sp)
{
	struct mstate *ms = xcalloc(sp->nmigrations + 1, sizeof(*ms));
	const char *cur_text = sp->version.value;
	struct ss_semver cur, next;
	struct offer *o;
	size_t n;
	char err[256], at[GT_DURATION_BUFSZ];

	if (ss_semver_parse(cur_text, &cur, err, sizeof(err)) != SS_OK) {
		free(ms);
		return;
	}
	o = offers_of(s, ss, &n);
	for (size_t k = 0; k < n; k++) {
		int c;

		if (ss_semver_parse(o[k].version, &next, err, sizeof(err)) != SS_OK)
			continue; /* InvalidVersion: nothing is planned */
		c = ss_semver_compare(&next, &cur);
		if (c > 0 && !o[k].rollback_to) {
			for (size_t i = 0; i < sp->nmigrations; i++) {
				const struct sst_migration *m = &sp->migrations[i];

				if (to_in(m, &cur, &next) != 0)
					continue;
				if (from_matches(m, &cur)) {
					ms[i].ran = true;
				} else if (!ms[i].skipped) {
					ms[i].skipped = true;
					gt_format_duration(o[k].t_ms, at, sizeof(at));
					ms[i].skipped_by = xasprintf("the upgrade %s \xe2\x86\x92 %s at %s skipped it (from "
								     "\"%s\" does not match %s)",
								     cur_text, o[k].version, at, m->from, cur_text);
				}
			}
			cur = next;
			cur_text = o[k].version;
		} else if (c < 0) {
			size_t i = 0;
			const struct sst_migration *m;

			if (!sp->version.allow_downgrade)
				continue; /* DowngradeNotAllowed: MS210's and the run's */
			m = refusing(sp, &cur, &next, &i);
			if (!m) {
				cur = next;
				cur_text = o[k].version;
				continue;
			}
			if (ms[i].skipped && !ms[i].ran) {
				gt_format_duration(o[k].t_ms, at, sizeof(at));
				lint_add(r, "MS274", o[k].file, o[k].mark,
					 "%s at %s asks StageSet %s/%s for %s, a downgrade from %s that crosses migration "
					 "\"%s\" (to %s), which declares no down actions; %s, so it never ran, yet the "
					 "controller picks a downgrade's migrations by their to alone, not by what ran: the "
					 "downgrade is refused DowngradeRequiresMigration and %s/%s stays on %s",
					 o[k].how, at, ss->ns, ss->name, o[k].version, cur_text, m->name, m->to,
					 ms[i].skipped_by, ss->ns, ss->name, cur_text);
			}
			/* refused: the deployed version stays */
		}
	}
	for (size_t i = 0; i < sp->nmigrations; i++)
		free(ms[i].skipped_by);
	free(ms);
	free(o);
}

void lint_ss_downgrade(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *ss = s->objs[i];
		struct sst_spec sp;
		char err[256];

		if (strcmp(ss->kind, "StageSet") != 0 || !ss->spec || ss->spec->type != VAL_MAP ||
		    sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0)
			continue;
		if (sp.has_version && sp.version.value && *sp.version.value && sp.nmigrations > 0 &&
		    !sp.has_migrations_source)
			walk(r, s, ss, &sp);
		sst_spec_release(&sp);
	}
}
