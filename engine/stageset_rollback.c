/*
 * Rollback decisions.  See engine/stageset_rollback.h.
 */
#include "engine/stageset_rollback.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
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

char *rb_key(const char *ns, const char *name, const char *stage, const char *digest)
{
	char *key = xasprintf("%s/%s/%s/%s", ns, name, stage, digest);

	/* only the digest's ':' become '-': the names hold none (Kubernetes names) */
	for (char *c = key + strlen(key) - strlen(digest); *c; c++)
		if (*c == ':')
			*c = '-';
	return key;
}

void rb_store_rendered(const struct ssc_rollback_store *store, struct ssc_events *ev, int64_t at_ms,
		       const char *ns, const char *name, const char *stage, const char *digest)
{
	char *key = rb_key(ns, name, stage, digest);
	struct ssc_err err;

	err.code = SSC_OK;
	err.msg[0] = '\0';
	if (store->put(store->ctx, key, at_ms, &err) != 0) {
		char *qs = gofmt_quote(stage);

		ssc_events_add(ev, at_ms, true, RB_REASON_STORE_FAILED,
			       "storing stage %s in the rollback store failed: %s", qs, err.msg);
		free(qs);
	}
	free(key);
}

/*
 * rollbackStageObjects' store read: whether the restore goes from the
 * store's copy (*@from_store), or -1 with @err for a Get error (evented,
 * the caller backs off without asking the producer).
 */
static int store_read(const struct ssc_env *env, struct ssc_clock *clk, struct ssc_events *ev,
		      const char *ns, const char *name, const struct sst_artifact_ref *ref,
		      bool *from_store, struct ssc_err *err)
{
	const struct ssc_rollback_store *store = env->rollback_store;
	char *key, *qs;
	struct ssc_err gerr;
	int rc = 0;

	*from_store = false;
	if (!store)
		return 0;
	key = rb_key(ns, name, ref->stage, ref->digest ? ref->digest : "");
	qs = gofmt_quote(ref->stage);
	gerr.code = SSC_OK;
	gerr.msg[0] = '\0';
	switch (store->get(store->ctx, key, clk->now_ms, &gerr)) {
	case SSC_STORE_FOUND:
		*from_store = true;
		break;
	case SSC_STORE_MISSING:
		break; /* a clean miss: the producer re-fetch */
	case SSC_STORE_CORRUPT:
		ssc_events_add(ev, clk->now_ms, true, RB_REASON_STORE_FAILED,
			       "decoding stage %s from the rollback store failed (corrupt snapshot); "
			       "falling back to producer re-fetch: %s",
			       qs, gerr.msg);
		break;
	case SSC_STORE_ERROR:
		ssc_events_add(ev, clk->now_ms, true, RB_REASON_STORE_FAILED,
			       "reading stage %s from the rollback store failed: %s", qs, gerr.msg);
		ssc_err_set(err, gerr.code == SSC_OK ? SSC_ERR : gerr.code, "rollback store get stage %s: %s", qs,
			    gerr.msg);
		rc = -1;
		break;
	}
	free(qs);
	free(key);
	return rc;
}

/*
 * One restore: the store first (when configured), then the world; the
 * clock advances by what the world reports.
 */
static int restore(const struct ssc_env *env, struct ssc_clock *clk, struct ssc_events *ev, const char *ns,
		   const char *name, size_t pos, const struct sst_artifact_ref *ref, char *reason,
		   size_t reasonlen, char *msg, size_t msglen, struct ssc_err *err)
{
	int64_t took = 0;
	bool from_store;

	reason[0] = '\0';
	msg[0] = '\0';
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (store_read(env, clk, ev, ns, name, ref, &from_store, err) != 0)
		return -1;
	int rc = env->restore_stage(env->ctx, pos, ref, from_store, clk->now_ms, &took, reason, reasonlen,
				    msg, msglen, err);
	if (took > 0)
		clk->now_ms += took;
	return rc;
}

enum rb_result rb_attempt_rollback(const struct ssc_env *env, struct ssc_clock *clk,
				   struct ssc_events *ev, const char *ns, const char *name,
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
		int rc = restore(env, clk, ev, ns, name, pos, ref, reason, reasonlen, msg, msglen, err);
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
				  struct ssc_events *ev, const char *ns, const char *name,
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
	int rc = restore(env, clk, ev, ns, name, position, ref, reason, sizeof(reason), why, whylen, err);
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
