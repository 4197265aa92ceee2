/*
 * The Workspace surprises of spec §7 #12, #13 and #24 as a run met them,
 * read from its timeline at the end (magos_quirks.h).
 */
#include "sim/run/magos_quirks.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/keytab.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/run/magos_jobname.h"

/* What the Job API says of a negative deadline (sim/wire/magos_wc.c, as Kubernetes words it). */
#define DEADLINE_REFUSED "spec.activeDeadlineSeconds: Invalid value"

/* One Job a Workspace created.  Strings borrow the timeline's. */
struct jobq {
	const char *name;
	int64_t created_ms;
	int64_t ended_ms; /* finished or deleted, -1 while it runs */
	bool deleted;     /* ended by deletion, not by finishing */
};

/* One Workspace, as the timeline went.  Strings borrow the timeline's. */
struct wsq {
	const char *ns, *name;
	const char *phase; /* of its last status entry, NULL before one */
	/* §7 #13: Pending straight from Applying */
	size_t nreset;
	int64_t reset_ms;
	const char *reset_reason;
	int64_t run_ms;      /* when its last run started Planning (< 0: before the run's
			      * start, a snapshot's state), NONE before one */
	int64_t reset_run_ms; /* how long the first such run had gone, from its plan */
	/* §7 #24: Job creations refused for a negative deadline */
	size_t nrefused;
	int64_t refused_ms;
	bool refused_plan;
	/* §7 #12: the last spec change, and Jobs of two spec hashes at once */
	int64_t spec_ms; /* -1: none yet */
	const char *spec_cause, *spec_phase;
	size_t *running; /* owned: indices of its Jobs that run */
	size_t nrunning, caprunning;
	size_t noverlap;
	int64_t overlap_spec_ms;
	const char *overlap_cause, *overlap_phase;
	size_t overlap_new, overlap_old; /* Job indices of the first overlap */
	/* §7 #16: the last revoke by the Rollout controller */
	int64_t revoked_ms; /* -1: none */
	const char *revoked_phase;
	/* §7 #25: approvals given before the plan they applied, autoApply changed while Planned */
	int64_t approved_ms; /* the last magosproject.io/approved: "true", -1 none */
	size_t nstale;
	int64_t stale_approved_ms, stale_plan_ms, stale_apply_ms;
	size_t nflip;
	int64_t flip_ms, flip_replan_ms; /* -1: not re-planned (yet) */
	const char *flip_cause;
	bool flip_open; /* a flip waits for its re-plan */
	/* §7 #14: ValidationFailed and the Project's grants on trigger annotations */
	int64_t request_ms;  /* the last reconcile-request set, -1 none */
	bool request_ran;    /* a run started after it */
	size_t nwasted;
	int64_t wasted_set_ms, wasted_ms;
	size_t nvf_grants;   /* grants by the Project while ValidationFailed */
	int64_t vf_first_ms, vf_instant_ms;
	size_t vf_instant, vf_max_instant; /* grants at one instant, the most */
	const char *vf_cause;
};

/* A time that did not happen (a snapshot's history is < 0). */
#define NONE INT64_MIN

/* A Rollout the run deleted (strings borrow the timeline's). */
struct gone {
	const char *ns, *name;
	int64_t t_ms;
};

struct quirks {
	const struct scenario *s;
	struct gone *gone; /* owned: Rollouts deleted, in time order */
	size_t ngone, capgone;
	struct keytab ws;        /* of struct wsq, by "ns/name" */
	struct strindex jobidx; /* "ns/name" → index in @jobs */
	struct jobq *jobs;
	size_t njobs, capjobs;
};

static size_t ws_at(struct quirks *q, const char *ns, const char *name)
{
	bool added;
	size_t pos = kt_at(&q->ws, ns, name, &added);
	struct wsq *w = kt_item(&q->ws, pos);

	if (added) {
		w->ns = ns;
		w->name = name;
		w->spec_ms = -1;
		w->run_ms = NONE;
		w->revoked_ms = -1;
		w->approved_ms = -1;
		w->request_ms = -1;
		w->vf_instant_ms = -1;
	}
	return pos;
}

/* The spec hash of a Job name mjn_workspace() accepts: its last 8 characters. */
static const char *job_hash(const char *job)
{
	return job + strlen(job) - 8;
}

static void job_created(struct quirks *q, const struct tl_entry *e)
{
	char wname[256], buf[256], *k;
	struct wsq *w;
	size_t ji;

	if (!mjn_workspace(e->name, NULL, wname, sizeof(wname)))
		return;
	if (q->njobs == q->capjobs) {
		q->capjobs = q->capjobs ? 2 * q->capjobs : 16;
		q->jobs = xreallocarray(q->jobs, q->capjobs, sizeof(*q->jobs));
	}
	ji = q->njobs++;
	q->jobs[ji] = (struct jobq){ e->name, e->t_ms, -1, false };
	k = kb_join2(buf, sizeof(buf), e->ns, e->name);
	si_put(&q->jobidx, k, ji);
	kb_drop(k, buf);
	/* the Workspace's strings must outlive @wname: take them from a Workspace entry */
	if (!(w = kt_get(&q->ws, e->ns, wname)))
		return; /* a Job before its Workspace: not one the controller made */
	for (size_t i = 0; i < w->nrunning; i++) {
		const struct jobq *old = &q->jobs[w->running[i]];

		if (w->spec_ms < 0 || strcmp(job_hash(old->name), job_hash(e->name)) == 0)
			continue;
		if (w->noverlap++ == 0) {
			w->overlap_new = ji;
			w->overlap_old = w->running[i];
			w->overlap_spec_ms = w->spec_ms;
			w->overlap_cause = w->spec_cause;
			w->overlap_phase = w->spec_phase;
		}
		break;
	}
	if (w->nrunning == w->caprunning) {
		w->caprunning = w->caprunning ? 2 * w->caprunning : 4;
		w->running = xreallocarray(w->running, w->caprunning, sizeof(*w->running));
	}
	w->running[w->nrunning++] = ji;
}

/* Job @e finished (a status with its outcome) or was deleted: it no longer runs. */
static void job_ended(struct quirks *q, const struct tl_entry *e, bool deleted)
{
	char wname[256], buf[256], *k;
	size_t ji;
	struct wsq *w;

	k = kb_join2(buf, sizeof(buf), e->ns, e->name);
	if (!si_get(&q->jobidx, k, &ji)) {
		kb_drop(k, buf);
		return;
	}
	kb_drop(k, buf);
	if (q->jobs[ji].ended_ms >= 0)
		return;
	q->jobs[ji].ended_ms = e->t_ms;
	q->jobs[ji].deleted = deleted;
	if (!mjn_workspace(e->name, NULL, wname, sizeof(wname)))
		return;
	if ((w = kt_get(&q->ws, e->ns, wname)) != NULL) {
		for (size_t i = 0; i < w->nrunning; i++)
			if (w->running[i] == ji) {
				w->running[i] = w->running[--w->nrunning];
				break;
			}
	}
}

/* Whether a Job status entry's change list says it finished (succeeded or failed). */
static bool job_outcome(const char *detail)
{
	return detail && (strstr(detail, "succeeded") || strstr(detail, "failed"));
}

/*
 * Whether @cause ("scenario event N (patch)" or "(apply)") names an event of
 * @s that writes a Workspace's spec.autoApply.
 */
static bool sets_auto_apply(const struct scenario *s, const char *cause)
{
	unsigned long n;
	char *end;

	if (!s || !cause || strncmp(cause, "scenario event ", 15) != 0)
		return false;
	n = strtoul(cause + 15, &end, 10);
	if (end == cause + 15 || n == 0)
		return false;
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];

		if (ev->index + 1 != n)
			continue;
		if (ev->type == SCN_EV_PATCH)
			return val_path(ev->merge, "spec.autoApply") != NULL;
		if (ev->type == SCN_EV_APPLY && ev->obj)
			return val_map_get(ev->obj->spec, "autoApply") != NULL;
		return false;
	}
	return false;
}

static void workspace_entry(struct quirks *q, const struct tl_entry *e)
{
	/* ws_at() may move q->ws: index it only after the call */
	size_t at = ws_at(q, e->ns, e->name);
	struct wsq *w = kt_item(&q->ws, at);

	if (e->change == TL_UPDATED && e->detail &&
	    strncmp(e->detail, "spec (generation", 16) == 0) {
		w->spec_ms = e->t_ms;
		w->spec_cause = e->cause;
		w->spec_phase = e->phase;
		if (e->phase && strcmp(e->phase, "Planned") == 0 && sets_auto_apply(q->s, e->cause)) {
			if (w->nflip++ == 0) {
				w->flip_ms = e->t_ms;
				w->flip_cause = e->cause;
				w->flip_replan_ms = -1;
			}
			w->flip_open = w->nflip == 1;
		}
		return;
	}
	if (e->change == TL_UPDATED && e->detail) {
		if (strstr(e->detail, "-" MW_ANN_EXECUTION_ALLOWED) && e->cause &&
		    strstr(e->cause, "rollout-controller")) {
			w->revoked_ms = e->t_ms;
			w->revoked_phase = e->phase;
		}
		if (strstr(e->detail, "+" MW_ANN_APPROVED "=true"))
			w->approved_ms = e->t_ms;
		if (strstr(e->detail, "+" MW_ANN_RECONCILE_REQUEST)) {
			w->request_ms = e->t_ms;
			w->request_ran = false;
		}
		if (strstr(e->detail, "-" MW_ANN_RECONCILE_REQUEST) && e->cause &&
		    strstr(e->cause, "workspace-controller") && e->phase &&
		    strcmp(e->phase, "ValidationFailed") == 0 && w->request_ms >= 0 &&
		    !w->request_ran && w->nwasted++ == 0) {
			w->wasted_set_ms = w->request_ms;
			w->wasted_ms = e->t_ms;
		}
		if (strstr(e->detail, "+" MW_ANN_EXECUTION_ALLOWED) && e->cause &&
		    strstr(e->cause, "project-controller") && e->phase &&
		    strcmp(e->phase, "ValidationFailed") == 0) {
			if (w->nvf_grants++ == 0) {
				w->vf_first_ms = e->t_ms;
				w->vf_cause = e->cause;
			}
			if (e->t_ms != w->vf_instant_ms) {
				w->vf_instant_ms = e->t_ms;
				w->vf_instant = 0;
			}
			if (++w->vf_instant > w->vf_max_instant)
				w->vf_max_instant = w->vf_instant;
		}
		if (strstr(e->detail, "-" MW_ANN_APPROVED) && e->cause &&
		    strstr(e->cause, "workspace-controller")) {
			/* consumed as the apply Job is created: was it given for this plan? */
			if (w->approved_ms >= 0 && w->run_ms > w->approved_ms && w->nstale++ == 0) {
				w->stale_approved_ms = w->approved_ms;
				w->stale_plan_ms = w->run_ms;
				w->stale_apply_ms = e->t_ms;
			}
			w->approved_ms = -1;
		}
		return;
	}
	/* a Workspace loaded in a phase (a snapshot's) is in it from its creation */
	if (e->change == TL_CREATED && e->phase && !w->phase) {
		w->phase = e->phase;
		return;
	}
	if (e->change != TL_STATUS || !e->phase)
		return;
	if (w->phase && strcmp(w->phase, "Applying") == 0 && strcmp(e->phase, "Pending") == 0 &&
	    e->reason &&
	    (strcmp(e->reason, "ScheduledReconcile") == 0 || strcmp(e->reason, "RetryApply") == 0)) {
		if (w->nreset++ == 0) {
			w->reset_ms = e->t_ms;
			w->reset_reason = e->reason;
			w->reset_run_ms = w->run_ms != NONE ? e->t_ms - w->run_ms : -1;
		}
	}
	if (strcmp(e->phase, "Planning") == 0 && !(w->phase && strcmp(w->phase, "Planning") == 0)) {
		w->run_ms = e->t_ms;
		w->request_ran = true;
		if (w->flip_open) {
			w->flip_replan_ms = e->t_ms;
			w->flip_open = false;
		}
	}
	if (strcmp(e->phase, "Failed") == 0 && e->reason && strcmp(e->reason, "ReconcileError") == 0 &&
	    e->message && strstr(e->message, DEADLINE_REFUSED)) {
		/* `Job.batch "<ws>-plan-<hash>" is invalid: ...` */
		const char *q1 = strchr(e->message, '"'), *q2 = q1 ? strchr(q1 + 1, '"') : NULL;

		if (w->nrefused++ == 0) {
			w->refused_ms = e->t_ms;
			w->refused_plan = q1 && q2 && q2 - q1 > 14 && memcmp(q2 - 14, "-plan-", 6) == 0;
		}
	}
	w->phase = e->phase;
}

static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

static void tell(struct des *w, const struct wsq *ws, char *text)
{
	struct tl_objref ref = { "Workspace", ws->ns, ws->name, 0 };

	tl_notice_add(des_timeline(w), des_end(w), TL_WARNING, text, &ref, 1);
	free(text);
}

static void tell_refused(struct des *w, const struct wsq *ws)
{
	const struct obj *o = api_get(des_api(w), "Workspace", ws->ns, ws->name);
	const char *phase = ws->refused_plan ? "plan" : "apply";
	const struct val *t = o ? val_map_get(val_map_get(o->spec, phase), "timeoutSeconds") : NULL;
	char value[32] = "below 0", t1[GT_DURATION_BUFSZ];

	if (t && t->type == VAL_INT)
		snprintf(value, sizeof(value), "%" PRId64, t->u.i);
	tell(w, ws,
	     xasprintf("Workspace %s/%s: the Job API refused its %s Job %zu time%s, first at %s: "
		       "spec.%s.timeoutSeconds %s becomes the Job's activeDeadlineSeconds, which must "
		       "be 0 or more, and each refusal left the Workspace Failed (ReconcileError)%s; "
		       "set spec.%s.timeoutSeconds above the time the %s takes, or remove it (lint's "
		       "MS118 says so before a run)",
		       ws->ns, ws->name, phase, ws->nrefused, ws->nrefused == 1 ? "" : "s",
		       at(ws->refused_ms, t1), phase, value,
		       ws->refused_plan ? ", which the next pass reset (ConfigurationChanged) to try "
					  "again, so it never planned"
					: " after its plan, so it never applied",
		       phase, phase));
}

static void tell_reset(struct des *w, const struct wsq *ws)
{
	const struct obj *o = api_get(des_api(w), "Workspace", ws->ns, ws->name);
	const char *iv = o ? obj_strmap_get(&o->annotations, MW_ANN_RECONCILE_INTERVAL) : NULL;
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];
	char *took = ws->reset_run_ms >= 0
			     ? xasprintf("that run had taken %s from its plan, ",
					 at(ws->reset_run_ms, t2))
			     : xstrdup("");
	char *times = ws->nreset == 1 ? xstrdup("once") : xasprintf("%zu times", ws->nreset);

	tell(w, ws,
	     xasprintf("Workspace %s/%s was reset to Pending (%s) straight from Applying %s, "
		       "first at %s: its apply had finished when its scheduled reconcile was due, "
		       "and the same pass reset it, so that run's %s was never recorded, nor its "
		       "observedRevision, and a detected-revision or reconcile-request annotation "
		       "stays for the next run; %sits reconcile interval is %s%s; an apply that "
		       "ends on or after a tick of the schedule no pass has met yet is reset so: "
		       "set magosproject.io/reconcile-interval well above the time its plan and "
		       "apply take (e.g. 30m) to make it rare",
		       ws->ns, ws->name, ws->reset_reason, times, at(ws->reset_ms, t1),
		       strcmp(ws->reset_reason, "RetryApply") == 0 ? "Failed" : "Applied", took,
		       iv ? iv : "3m", iv ? "" : " (the default)"));
	free(times);
	free(took);
}

static void tell_overlap(struct des *w, const struct quirks *q, const struct wsq *ws)
{
	const struct jobq *nj = &q->jobs[ws->overlap_new], *oj = &q->jobs[ws->overlap_old];
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
	char *end, *more;

	if (oj->ended_ms < 0)
		end = xstrdup("it still ran at the end");
	else if (oj->deleted)
		end = xasprintf("it was deleted at %s, still running", at(oj->ended_ms, t3));
	else
		end = xasprintf("it ended at %s", at(oj->ended_ms, t3));
	more = ws->noverlap > 1 ? xasprintf(" (in all, %zu of its Jobs started while a Job of an "
					    "older spec ran)",
					    ws->noverlap)
				: xstrdup("");
	tell(w, ws,
	     xasprintf("Workspace %s/%s: its spec changed at %s (%s) while it was %s, and it "
		       "started the new spec's Job %s at %s while %s of the old spec was still "
		       "running (%s)%s: the two ran at once on the Workspace's volume and Terraform "
		       "state, and the old Job is deleted only once the new run is over; change a "
		       "Workspace's spec only while it is not Planning or Applying",
		       ws->ns, ws->name, at(ws->overlap_spec_ms, t1),
		       ws->overlap_cause ? ws->overlap_cause : "no cause recorded",
		       ws->overlap_phase ? ws->overlap_phase : "running", nj->name,
		       at(nj->created_ms, t2), oj->name, end, more));
	free(more);
	free(end);
}

/* The last Rollout of namespace @ns the run deleted, or NULL. */
static const struct gone *gone_in(const struct quirks *q, const char *ns)
{
	for (size_t i = q->ngone; i-- > 0;)
		if (strcmp(q->gone[i].ns, ns) == 0)
			return &q->gone[i];
	return NULL;
}

/* Whether a Rollout of the store orchestrates project @project of namespace @ns. */
static bool has_rollout(struct api *api, const char *ns, const char *project)
{
	struct api_list l;
	bool found = false;

	api_list_init(&l);
	api_list(api, "Rollout", ns, NULL, NULL, &l);
	for (size_t i = 0; i < l.n && !found; i++)
		found = strcmp(val_str(val_map_get(l.items[i]->spec, "projectRef"), ""), project) == 0;
	api_list_release(&l);
	return found;
}

/*
 * §7 #16: @ws ended Planning or Planned without the permission, its
 * project has a Project and no Rollout, and a Rollout of its namespace was
 * deleted in the run: the Project grants only Workspaces that are Pending
 * (or never ran) or carry a detected-revision or reconcile-request
 * annotation, and no reset rule applies to those phases (Applying is reset
 * by its schedule once the apply ends, a failed plan by RetryPlan: those
 * are not told).
 */
static void tell_stuck(struct des *w, const struct quirks *q, const struct wsq *ws)
{
	struct api *api = des_api(w);
	const struct obj *o = api_get(api, "Workspace", ws->ns, ws->name);
	const char *phase, *project;
	const struct gone *g;
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];
	char *revoked;

	if (!o || o->deletion_ms >= 0)
		return;
	phase = val_str(val_map_get(o->status, "phase"), "");
	project = val_str(val_path(o->spec, "projectRef.name"), "");
	if ((strcmp(phase, "Planning") != 0 && strcmp(phase, "Planned") != 0) ||
	    obj_strmap_get(&o->annotations, MW_ANN_EXECUTION_ALLOWED) ||
	    obj_strmap_get(&o->annotations, MW_ANN_RECONCILE_REQUEST) ||
	    obj_strmap_get(&o->annotations, MW_ANN_DETECTED_REVISION) ||
	    !(g = gone_in(q, ws->ns)) || !api_get(api, "Project", ws->ns, project) ||
	    has_rollout(api, ws->ns, project))
		return;
	/* a failed plan is retried by the schedule (RetryPlan): not stuck */
	{
		struct api_list jobs;
		bool failed = false;

		api_list_init(&jobs);
		api_list(api, "Job", ws->ns, NULL, NULL, &jobs);
		for (size_t i = 0; i < jobs.n && !failed; i++) {
			char wname[256];

			failed = mjn_workspace(jobs.items[i]->name, NULL, wname, sizeof(wname)) &&
				 strcmp(wname, ws->name) == 0 &&
				 val_int(val_map_get(jobs.items[i]->status, "failed"), 0) > 0;
		}
		api_list_release(&jobs);
		if (failed)
			return;
	}
	revoked = ws->revoked_ms >= 0
			  ? xasprintf("the Rollout revoked its permission at %s while it was %s, ",
				      at(ws->revoked_ms, t1),
				      ws->revoked_phase ? ws->revoked_phase : phase)
			  : xstrdup("");
	tell(w, ws,
	     xasprintf("Workspace %s/%s ended %s without permission to run: %sRollout %s/%s was "
		       "deleted at %s, and Project %s, which took over (DefaultParallel), grants "
		       "only Workspaces that are Pending or carry a detected-revision or "
		       "reconcile-request annotation, while no reset applies to a %s Workspace, so "
		       "it stays %s; annotate it with magosproject.io/reconcile-request to let the "
		       "Project grant it, or let the Rollout's Workspaces finish before deleting it",
		       ws->ns, ws->name, phase, revoked, g->ns, g->name, at(g->t_ms, t2), project,
		       phase, phase));
	free(revoked);
}

/* §7 #25: an approval given before the plan it applied. */
static void tell_stale_approval(struct des *w, const struct wsq *ws)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ];
	char *more = ws->nstale > 1 ? xasprintf(" (%zu times in the run)", ws->nstale)
				     : xstrdup("");

	tell(w, ws,
	     xasprintf("Workspace %s/%s applied at %s a plan started at %s on the approval "
		       "(magosproject.io/approved: \"true\") given at %s, before that plan existed%s: "
		       "a reset does not remove the approval, only the apply it lets start does, so "
		       "an approval meant for one plan applies the next; approve only a Workspace "
		       "that is Planned, and remove an approval the run did not use",
		       ws->ns, ws->name, at(ws->stale_apply_ms, t1), at(ws->stale_plan_ms, t2),
		       at(ws->stale_approved_ms, t3), more));
	free(more);
}

/* §7 #25: autoApply written while the Workspace waited in Planned. */
static void tell_flip(struct des *w, const struct wsq *ws)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];
	char *then = ws->flip_replan_ms >= 0
			     ? xasprintf("it planned again at %s", at(ws->flip_replan_ms, t2))
			     : xstrdup("it was reset to plan again");

	tell(w, ws,
	     xasprintf("Workspace %s/%s: %s changed spec.autoApply at %s while it waited in "
		       "Planned, and %s instead of applying the plan it had: autoApply is part of "
		       "the spec hash, so the change is a new spec (ConfigurationChanged); approve "
		       "the waiting plan with magosproject.io/approved: \"true\" instead",
		       ws->ns, ws->name, ws->flip_cause ? ws->flip_cause : "a change",
		       at(ws->flip_ms, t1), then));
	free(then);
}

/* §7 #14: a reconcile-request consumed while ValidationFailed, without a run. */
static void tell_wasted_request(struct des *w, const struct wsq *ws)
{
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];
	char *more = ws->nwasted > 1 ? xasprintf(" (%zu requests so in the run)", ws->nwasted)
				      : xstrdup("");

	tell(w, ws,
	     xasprintf("Workspace %s/%s: the magosproject.io/reconcile-request set at %s was "
		       "consumed at %s while it was ValidationFailed, without a new run%s: "
		       "ValidationFailed ignores manual and new-revision triggers, but the Project "
		       "(DefaultParallel) grants on them, and the granted Workspace only repeats its "
		       "failure path, which removes the request; only the next tick of its schedule "
		       "(RetryPlan) or a spec change plans again",
		       ws->ns, ws->name, at(ws->wasted_set_ms, t1), at(ws->wasted_ms, t2), more));
	free(more);
}

/* §7 #14: the Project granting a ValidationFailed Workspace again and again. */
static void tell_grant_loop(struct des *w, const struct wsq *ws)
{
	char t1[GT_DURATION_BUFSZ];

	tell(w, ws,
	     xasprintf("Workspace %s/%s was granted execution %zu times while ValidationFailed, "
		       "first at %s, up to %zu times in one instant: the Project (DefaultParallel) "
		       "grants a Workspace that carries a detected-revision or reconcile-request "
		       "annotation, ValidationFailed ignores those triggers, and the granted "
		       "Workspace repeats its failure path, which revokes the grant but keeps a "
		       "detected-revision, so the two loop with no time passing until the next tick "
		       "of its schedule retries the plan (RetryPlan); push the fix that makes the "
		       "plan pass, or change the spec to plan again",
		       ws->ns, ws->name, ws->nvf_grants, at(ws->vf_first_ms, t1), ws->vf_max_instant));
}

/* A carried TIME (validated by the loader) as ms of the run, NONE when absent. */
static int64_t past_of(const struct scenario *s, const char *v)
{
	int64_t unix_ms;

	if (!v || gt_parse_rfc3339(v, &unix_ms, NULL, 0) != 0)
		return NONE;
	return unix_ms - s->start_unix_ms;
}

/*
 * What a snapshot carried (SCN_OBSERVER_STATE) of the resets from Applying
 * (§7 #13) before it, and when the last run started planning, into @q.
 */
static void quirks_seed(struct quirks *q, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobserver; i++) {
		const struct scn_observer_state *e = &s->observer[i];
		const char *v;
		struct wsq *w;
		size_t pos;

		if (strcmp(e->kind, "Workspace") != 0)
			continue;
#define GET(key) scn_observer_get(s, "Workspace", e->ns, e->name, key)
		if (!GET("resets") && !GET("lastPlanning"))
			continue;
		pos = ws_at(q, e->ns, e->name); /* may move q->ws */
		w = kt_item(&q->ws, pos);
		w->run_ms = past_of(s, GET("lastPlanning"));
		if ((v = GET("resets")) != NULL && GET("resetFirst") && GET("resetReason")) {
			w->nreset = (size_t)strtoull(v, NULL, 10);
			w->reset_ms = past_of(s, GET("resetFirst"));
			w->reset_reason = GET("resetReason");
			w->reset_run_ms = GET("resetRunMs") ? strtoll(GET("resetRunMs"), NULL, 10) : -1;
		}
#undef GET
	}
}

/* The timeline of @w after what @q was seeded with. */
static void quirks_pass(struct quirks *q, struct des *w)
{
	const struct tl *tl = des_timeline(w);

	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (strcmp(e.kind, "Workspace") == 0)
			workspace_entry(q, &e);
		else if (strcmp(e.kind, "Job") == 0 && e.change == TL_CREATED)
			job_created(q, &e);
		else if (strcmp(e.kind, "Job") == 0 && e.change == TL_STATUS && job_outcome(e.detail))
			job_ended(q, &e, false);
		else if (strcmp(e.kind, "Job") == 0 && e.change == TL_DELETED)
			job_ended(q, &e, true);
		else if (strcmp(e.kind, "Rollout") == 0 && e.change == TL_DELETED) {
			if (q->ngone == q->capgone) {
				q->capgone = q->capgone ? 2 * q->capgone : 4;
				q->gone = xreallocarray(q->gone, q->capgone, sizeof(*q->gone));
			}
			q->gone[q->ngone++] = (struct gone){ e.ns, e.name, e.t_ms };
		}
	}
}

static void quirks_release(struct quirks *q)
{
	free(q->gone);
	for (size_t k = 0; k < q->ws.n; k++)
		free(((struct wsq *)kt_item(&q->ws, k))->running);
	kt_release(&q->ws);
	free(q->jobs);
	si_release(&q->jobidx);
}

void mq_end_of_run(struct des *w, const struct scenario *s)
{
	struct quirks q;

	memset(&q, 0, sizeof(q));
	kt_init(&q.ws, sizeof(struct wsq));
	q.s = s;
	quirks_seed(&q, s);
	quirks_pass(&q, w);
	for (size_t k = 0; k < q.ws.n; k++) {
		const struct wsq *ws = kt_item(&q.ws, k);

		if (ws->nrefused)
			tell_refused(w, ws);
		if (ws->nreset)
			tell_reset(w, ws);
		if (ws->noverlap)
			tell_overlap(w, &q, ws);
		if (ws->nstale)
			tell_stale_approval(w, ws);
		if (ws->nflip)
			tell_flip(w, ws);
		if (ws->nwasted)
			tell_wasted_request(w, ws);
		if (ws->vf_max_instant >= 2)
			tell_grant_loop(w, ws);
		if (q.ngone)
			tell_stuck(w, &q, ws);
	}
	quirks_release(&q);
}

struct mq_snap {
	struct quirks q;
};

struct mq_snap *mq_snap_new(struct des *w, const struct scenario *s)
{
	struct mq_snap *m = xcalloc(1, sizeof(*m));

	kt_init(&m->q.ws, sizeof(struct wsq));
	m->q.s = s;
	quirks_seed(&m->q, s);
	quirks_pass(&m->q, w);
	return m;
}

void mq_snap_free(struct mq_snap *m)
{
	if (!m)
		return;
	quirks_release(&m->q);
	free(m);
}

char *mq_snap_state(const struct mq_snap *m, const char *ns, const char *name)
{
	const struct scenario *s = m->q.s;
	const struct wsq *w = kt_get(&m->q.ws, ns, name);
	char *b = NULL;

	if (w) {
		char t[2][GT_RFC3339_BUFSZ];

		if (w->run_ms != NONE)
			gt_format_rfc3339_nano(s->start_unix_ms + w->run_ms, t[0], sizeof(t[0]));
		if (w->nreset)
			gt_format_rfc3339_nano(s->start_unix_ms + w->reset_ms, t[1], sizeof(t[1]));
		/* the reasons are the Workspace controller's words, without spaces */
		if (w->nreset)
			b = xasprintf("%s%s%sresets=%zu resetFirst=%s resetReason=%s resetRunMs=%lld",
				      w->run_ms != NONE ? "lastPlanning=" : "",
				      w->run_ms != NONE ? t[0] : "", w->run_ms != NONE ? " " : "",
				      w->nreset, t[1], w->reset_reason, (long long)w->reset_run_ms);
		else if (w->run_ms != NONE)
			b = xasprintf("lastPlanning=%s", t[0]);
	}
	return b;
}
