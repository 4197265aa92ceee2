/*
 * Workspaces run again by a RefWatcher seeded from a branch name
 * (magos_resume.h).
 */
#include "sim/run/magos_resume.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/core/timeline.h"
#include "sim/lint/lint_magos_resume.h"

#define DETECTED "+" MW_ANN_DETECTED_REVISION "="

/* What the timeline says of one such Workspace: -1 for what did not happen. */
struct seeded {
	int64_t poll_ms;   /* the first detected-revision a RefWatcher poll wrote */
	char *sha;         /* its value (owned) */
	int64_t reset_ms;  /* the first NewRevisionDetected status at or after it */
	int64_t applied_ms; /* the first apply after that which recorded observedRevision */
};

static bool ours(const struct tl_entry *e, const struct obj *ws)
{
	return e->kind && !strcmp(e->kind, "Workspace") && !strcmp(e->ns ? e->ns : "", ws->ns) &&
	       !strcmp(e->name, ws->name);
}

static void follow(const struct tl *tl, const struct obj *ws, struct seeded *g)
{
	*g = (struct seeded){ -1, NULL, -1, -1 };
	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;
		const char *d;

		tl_get(tl, i, &e);
		if (!ours(&e, ws))
			continue;
		if (g->poll_ms < 0) {
			if (e.change == TL_UPDATED && e.cause && !strncmp(e.cause, "refwatcher poll", 15) && e.detail &&
			    (d = strstr(e.detail, DETECTED)) != NULL) {
				d += strlen(DETECTED);
				g->poll_ms = e.t_ms;
				g->sha = xstrndup(d, strcspn(d, ", "));
			}
		} else if (g->reset_ms < 0) {
			if (e.change == TL_STATUS && e.reason && !strcmp(e.reason, "NewRevisionDetected"))
				g->reset_ms = e.t_ms;
		} else if (e.change == TL_STATUS && e.phase && !strcmp(e.phase, "Applied") && e.detail &&
			   strstr(e.detail, "observedRevision")) {
			g->applied_ms = e.t_ms;
			return;
		}
	}
}

/* Whether a commit event of @s lands on @repo at or before @t_ms. */
static bool committed(const struct scenario *s, const char *repo, int64_t t_ms)
{
	for (size_t i = 0; i < s->nmevents; i++) {
		const struct scn_mevent *m = &s->mevents[i];

		if (m->type == SCN_MEV_COMMIT && !m->done && m->repo_url && !strcmp(m->repo_url, repo) &&
		    m->at_ms <= t_ms)
			return true;
	}
	return false;
}

void mres_end_of_run(struct des *w, const struct scenario *s)
{
	struct tl *tl = des_timeline(w);

	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *ws = s->objs[i];
		const char *observed;
		struct seeded g;
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ];
		char *then, *text;
		struct tl_objref ref;

		if (!lmr_seeded_from_branch(s, ws, &observed))
			continue;
		follow(tl, ws, &g);
		if (g.poll_ms < 0 || committed(s, val_str(val_path(ws->spec, "source.repoURL"), ""), g.poll_ms)) {
			free(g.sha);
			continue;
		}
		gt_format_duration(g.poll_ms, a, sizeof(a));
		if (g.reset_ms < 0) {
			then = xstrdup("");
		} else {
			gt_format_duration(g.reset_ms, b, sizeof(b));
			if (g.applied_ms >= 0)
				gt_format_duration(g.applied_ms, c, sizeof(c));
			then = g.applied_ms >= 0
				       ? xasprintf(": it reset NewRevisionDetected at %s and ran again, Applied at %s", b, c)
				       : xasprintf(": it reset NewRevisionDetected at %s and ran again", b);
		}
		ref = (struct tl_objref){ "Workspace", ws->ns, ws->name, 0 };
		text = xasprintf("Workspace %s/%s: the RefWatcher, with no memory of it in the inputs, seeded the SHA it "
				 "last saw from status.observedRevision \"%s\" (a branch name), so its first poll at %s "
				 "took the head %s, which no commit of the run moved, for a new revision%s; resume "
				 "from a snapshot the simulator wrote (run --snapshot) to keep the RefWatcher's memory",
				 ws->ns, ws->name, observed, a, g.sha, then);
		tl_notice_add(tl, des_end(w), TL_WARNING, text, &ref, 1);
		free(text);
		free(then);
		free(g.sha);
	}
}
