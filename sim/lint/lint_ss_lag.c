/*
 * A migration ladder that lags its version (MS281); see lint_ss_lag.h.
 */
#include "sim/lint/lint_ss_lag.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/stageset_migrations.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/lint/lint_ss_deps.h"
#include "sim/lint/lint_ss_ledgers.h"
#include "sim/load/ladder_files.h"
#include "sim/load/scn_ssworld.h"

static bool direct_kind(const char *kind)
{
	return !strcmp(kind, "GitRepository") || !strcmp(kind, "OCIRepository") || !strcmp(kind, "Bucket");
}

void lss_source_key(const struct sst_source_ref *ref, const char *ns, const char **kind, const char **rns,
		    const char **name)
{
	*kind = ref->kind && *ref->kind && direct_kind(ref->kind) ? ref->kind : "ExternalArtifact";
	*rns = ref->ns && *ref->ns ? ref->ns : ns;
	*name = ref->name ? ref->name : "";
}

bool lss_migrations_source(const struct sst_spec *sp, const char *ns, const char **kind,
			   const char **rns, const char **name)
{
	if (!sp->has_migrations_source)
		return false;
	lss_source_key(&sp->migrations_source_ref, ns, kind, rns, name);
	return true;
}

/* Whether @l holds a migration named @name. */
static bool names(const struct mig_ladder *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->items[i].name, name))
			return true;
	return false;
}

char *lss_late_migration(const struct scenario *s, const struct sst_spec *sp, const char *ns,
			 const struct scn_sw_source *u, size_t k, int64_t read_ms, const char *from,
			 const char *to, char **to_out)
{
	const char *kind, *rns, *name, *dir = sp->migrations_source_path ? sp->migrations_source_path : "";
	char *const *paths, *const *texts;
	size_t n, nsel = 0;
	struct mig_ladder then = { 0 }, later = { 0 };
	struct ss_semver cur, des;
	const struct sst_migration **sel = NULL;
	char *msg, *found = NULL;

	*to_out = NULL;
	if (!lss_migrations_source(sp, ns, &kind, &rns, &name) || k >= u->nupdates || !u->updates[k].has_files ||
	    ss_semver_parse(from, &cur, NULL, 0) != SS_OK || ss_semver_parse(to, &des, NULL, 0) != SS_OK)
		return NULL;
	if ((msg = lf_parse_ladder(u->updates[k].paths, u->updates[k].texts, u->updates[k].nfiles, dir, &later)))
		goto free_msg;
	scn_sw_source_files_at(&s->models.world, kind, rns, name, read_ms, &paths, &texts, &n);
	/* a ladder the pass could not read (no files, or none that parse) names nothing */
	free(lf_parse_ladder(paths, texts, n, dir, &then));
	if ((msg = mig_select(later.items, later.n, &cur, &des, &sel, &nsel)))
		goto free_ladders;
	for (size_t i = 0; i < nsel && !found; i++)
		if (!names(&then, sel[i]->name)) {
			found = xstrdup(sel[i]->name);
			*to_out = xstrdup(sel[i]->to);
		}
	free(sel);
free_ladders:
	mig_ladder_release(&then);
	mig_ladder_release(&later);
free_msg:
	free(msg);
	return found;
}

/* Whether stage sources of @sp include the source @kind @ns/@name (then its updates wake the StageSet). */
static bool stage_source(const struct sst_spec *sp, const char *ns, const char *kind, const char *rns,
			 const char *name)
{
	for (size_t i = 0; i < sp->nstages; i++) {
		const char *k, *n, *x;

		lss_source_key(&sp->stages[i].source_ref, ns, &k, &n, &x);
		if (!strcmp(k, kind) && !strcmp(n, rns) && !strcmp(x, name))
			return true;
	}
	return false;
}

bool lss_in_inputs(const struct scenario *s, const char *kind, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i]->kind && !strcmp(s->objs[i]->kind, kind) && !strcmp(s->objs[i]->ns, ns) &&
		    !strcmp(s->objs[i]->name, name))
			return true;
	return false;
}

/* The version the StageSet @ss runs towards just before publish @p: the last publish before it, else @value. */
static const char *version_before(const struct scenario *s, const struct obj *ss, const struct scn_fevent *p,
				  const char *value)
{
	const struct scn_fevent *best = NULL;

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *q = &s->fevents[i];

		if (q != p && q->version && q->at_ms <= p->at_ms && (q->at_ms < p->at_ms || q < p) &&
		    lint_ss_publish_reaches(s, q, ss) && (!best || q->at_ms >= best->at_ms))
			best = q;
	}
	return best ? best->version : value;
}

/* MS281 for StageSet @ss with spec @sp. */
static void rule_late_migration(struct lint_report *r, const struct scenario *s, const struct obj *ss,
				const struct sst_spec *sp)
{
	const char *kind, *rns, *name;
	const struct scn_sw_source *u;
	int64_t born = lint_ss_created_ms(s, ss);

	if (!sp->has_version || !sp->version.value || !*sp->version.value || sp->version.require_migration_coverage ||
	    !lss_migrations_source(sp, ss->ns, &kind, &rns, &name) || lss_in_inputs(s, kind, rns, name) ||
	    !(u = scn_sw_source_updates(&s->models.world, kind, rns, name)))
		return;
	for (size_t k = 0; k < u->nupdates; k++) {
		int64_t t = u->updates[k].at_ms;

		if (t >= s->horizon_ms)
			break;
		for (size_t i = 0; i < s->nfevents; i++) {
			const struct scn_fevent *p = &s->fevents[i];
			const char *from;
			char *m, *mto = NULL;
			char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ];

			if (!p->version || p->at_ms >= t || p->at_ms < born || !lint_ss_publish_reaches(s, p, ss))
				continue;
			from = version_before(s, ss, p, sp->version.value);
			if (!(m = lss_late_migration(s, sp, ss->ns, u, k, p->at_ms, from, p->version, &mto)))
				continue;
			gt_format_duration(t, a, sizeof(a));
			gt_format_duration(p->at_ms, b, sizeof(b));
			lint_add(r, "MS281", u->file, u->mark,
				 "the sources model's update at %s gives %s %s/%s, which StageSet %s/%s reads its "
				 "migration ladder from (spec.migrationsSourceRef), migration \"%s\" (to %s), which "
				 "its ladder did not hold when %s, published at %s, reached the StageSet: a pass that "
				 "plans %s → %s before %s reads the ladder without it and adopts %s, and the "
				 "controller runs only migrations whose to lies above status.version, so once "
				 "status.version is %s no pass runs \"%s\"%s",
				 a, kind, rns, name, ss->ns, ss->name, m, mto, p->version, b, from, p->version, a,
				 p->version, p->version, m,
				 stage_source(sp, ss->ns, kind, rns, name)
					 ? ""
					 : "; nor does the update wake the StageSet: spec.migrationsSourceRef is not "
					   "watched, so the new ladder is read only at its next pass of another cause");
			free(m);
			free(mto);
			break; /* one finding per update: the first publish it comes after */
		}
	}
}

struct lag_ctx {
	struct lint_report *r;
	const struct scenario *s;
};

static void lag_stageset(const struct obj *ss, const struct sst_spec *sp, void *arg)
{
	struct lag_ctx *c = arg;

	rule_late_migration(c->r, c->s, ss, sp);
}

void lint_ss_lag(struct lint_report *r, const struct scenario *s)
{
	struct lag_ctx c = { r, s };

	lint_ss_each_spec(s, lag_stageset, &c);
}
