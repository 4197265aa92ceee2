/*
 * Rollback decisions.  See engine/stageset_rollback.h.
 */
#include "engine/stageset_rollback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

void rb_snapshot_stages(const struct sst_spec *spec, const struct ssc_resolved *resolved,
			const char *const *sub_digests, struct sst_status *st)
{
	for (size_t i = 0; i < st->nlast_applied_snapshot; i++) {
		struct sst_artifact_ref *r = &st->last_applied_snapshot[i];
		free(r->stage);
		free(r->url);
		free(r->digest);
		free(r->revision);
		free(r->substitution_digest);
	}
	free(st->last_applied_snapshot);
	st->last_applied_snapshot = NULL;
	st->nlast_applied_snapshot = 0;
	if (spec->nstages == 0)
		return;
	st->last_applied_snapshot = xcalloc(spec->nstages, sizeof(*st->last_applied_snapshot));
	for (size_t i = 0; i < spec->nstages; i++) {
		const struct ssc_resolved *ra = &resolved[i];
		struct sst_artifact_ref *r = &st->last_applied_snapshot[i];
		r->stage = xstrdup(spec->stages[i].name);
		r->url = xstrdup(ra->url ? ra->url : "");
		r->digest = xstrdup(ra->digest ? ra->digest : "");
		r->revision = xstrdup(ra->revision ? ra->revision : "");
		r->substitution_digest = xstrdup(sub_digests && sub_digests[i] ? sub_digests[i] : "");
	}
	st->nlast_applied_snapshot = spec->nstages;
}

static bool stage_position(const struct sst_spec *spec, const char *name, size_t *pos)
{
	for (size_t i = 0; i < spec->nstages; i++)
		if (strcmp(spec->stages[i].name, name) == 0) {
			*pos = i;
			return true;
		}
	return false;
}

/* One restore through the world; the clock advances by what it reports. */
static int restore(const struct ssc_env *env, struct ssc_clock *clk, size_t pos,
		   const struct sst_artifact_ref *ref, char *reason, size_t reasonlen, char *msg,
		   size_t msglen, struct ssc_err *err)
{
	int64_t took = 0;
	reason[0] = '\0';
	msg[0] = '\0';
	err->code = SSC_OK;
	err->msg[0] = '\0';
	int rc = env->restore_stage(env->ctx, pos, ref, clk->now_ms, &took, reason, reasonlen, msg,
				    msglen, err);
	if (took > 0)
		clk->now_ms += took;
	return rc;
}

enum rb_result rb_attempt_rollback(const struct ssc_env *env, struct ssc_clock *clk,
				   const struct sst_spec *spec, const struct sst_status *snap,
				   char *reason, size_t reasonlen, char *msg, size_t msglen,
				   struct ssc_err *err, size_t *restored, size_t *nrestored)
{
	*nrestored = 0;
	reason[0] = '\0';
	msg[0] = '\0';
	err->code = SSC_OK;
	err->msg[0] = '\0';
	for (size_t i = 0; i < snap->nlast_applied_snapshot; i++) {
		const struct sst_artifact_ref *ref = &snap->last_applied_snapshot[i];
		size_t pos;
		if (!stage_position(spec, ref->stage, &pos))
			continue; /* removed from the spec: not restored, pruned normally */
		int rc = restore(env, clk, pos, ref, reason, reasonlen, msg, msglen, err);
		switch (rc) {
		case 0:
			restored[(*nrestored)++] = pos; /* recorder.Write of the restored set */
			break;
		case 1:
			return RB_TERMINAL;
		case 2:
			snprintf(reason, reasonlen, "%s", RB_REASON_PREVIOUS_REVISION_UNAVAILABLE);
			snprintf(msg, msglen,
				 "cannot roll back stage \"%s\": re-applying the previous revision failed (%s)",
				 ref->stage, err->msg);
			err->code = SSC_OK;
			err->msg[0] = '\0';
			return RB_TERMINAL;
		default:
			if (err->code == SSC_OK)
				err->code = SSC_ERR;
			return RB_TRANSIENT;
		}
	}
	return RB_RESTORED;
}

int rb_rollback_stage_to_snapshot(const struct ssc_env *env, struct ssc_clock *clk,
				  const struct sst_status *snap, const char *stage_name,
				  size_t position, char *revision, size_t revlen, bool *ok,
				  char *why, size_t whylen, struct ssc_err *err)
{
	const struct sst_artifact_ref *ref = NULL;
	char reason[128];

	revision[0] = '\0';
	why[0] = '\0';
	*ok = false;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	for (size_t i = 0; i < snap->nlast_applied_snapshot; i++)
		if (strcmp(snap->last_applied_snapshot[i].stage, stage_name) == 0) {
			ref = &snap->last_applied_snapshot[i];
			break;
		}
	if (!ref) {
		snprintf(why, whylen,
			 "no last-good revision is available to roll back to (enable spec.rollbackOnFailure)");
		return 0;
	}
	int rc = restore(env, clk, position, ref, reason, sizeof(reason), why, whylen, err);
	switch (rc) {
	case 0:
		snprintf(revision, revlen, "%s", ref->revision);
		*ok = true;
		return 0;
	case 1:
		return 0; /* the snapshot is unusable: why says so; the caller holds */
	default:
		why[0] = '\0';
		if (err->code == SSC_OK)
			err->code = SSC_ERR;
		return -1;
	}
}
