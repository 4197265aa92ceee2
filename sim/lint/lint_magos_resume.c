/*
 * MS122: a Workspace resumed without the RefWatcher's memory, whose
 * observedRevision is a branch name (lint_magos_resume.h).
 */
#include "sim/lint/lint_magos_resume.h"

#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"

/* Whether @v is a full commit SHA (40 hex digits), what the RefWatcher reads from a remote. */
static bool is_sha(const char *v)
{
	size_t n = strspn(v, "0123456789abcdefABCDEF");

	return n == 40 && v[n] == '\0';
}

/* Whether the inputs restored a RefWatcher entry for Workspace @ns/@name. */
static bool remembered(const struct scenario *s, const char *ns, const char *name)
{
	for (size_t i = 0; i < s->nrefwatcher; i++)
		if (!strcmp(s->refwatcher[i].ns, ns) && !strcmp(s->refwatcher[i].name, name))
			return true;
	return false;
}

bool lmr_seeded_from_branch(const struct scenario *s, const struct obj *ws, const char **observed)
{
	const char *v;

	if (strcmp(ws->kind, "Workspace") != 0 || !ws->status || ws->deletion_ms >= 0)
		return false;
	v = val_str(val_map_get(ws->status, "observedRevision"), "");
	if (!*v || is_sha(v) || !*val_str(val_path(ws->spec, "source.repoURL"), "") ||
	    remembered(s, ws->ns, ws->name))
		return false; /* "" seeds quietly; a SHA is compared with the head as it should be */
	*observed = v;
	return true;
}

void lint_magos_resume(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *ws = s->objs[i];
		const struct val_kv *kv;
		const char *observed, *poll;
		char *every;

		if (!lmr_seeded_from_branch(s, ws, &observed))
			continue;
		kv = val_map_get_kv(ws->status, "observedRevision");
		poll = obj_strmap_get(&ws->annotations, MW_ANN_GIT_POLL_INTERVAL);
		every = poll ? xasprintf("its git-poll-interval %s", poll) : xstrdup("the RefWatcher's default 30s");
		lint_add(r, "MS122", ws->src.file, kv && kv->key_mark.line ? kv->key_mark : ws->src.mark,
			 "Workspace %s/%s comes with status.observedRevision \"%s\", not a commit SHA (every run but "
			 "a revision run records the branch name), and without the RefWatcher's memory "
			 "(state.magos-sim.io/refwatcher, which only a snapshot of the simulator carries): the "
			 "RefWatcher seeds the SHA it last saw from observedRevision, as after a restart, so its "
			 "first poll (within %s) reads the head of \"%s\" as a new revision and the Workspace "
			 "resets NewRevisionDetected for a new run with no new commit",
			 ws->ns, ws->name, observed, every, val_str(val_path(ws->spec, "source.targetRevision"), ""));
		free(every);
	}
}
