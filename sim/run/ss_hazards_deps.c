/*
 * Deployed StageSets that a dependency's rollout turned not ready
 * (ss_hazards_deps.h).
 */
#include "sim/run/ss_hazards_deps.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/keytab.h"
#include "sim/core/timeline.h"

#define NOT_READY_PREFIX "dependency "
#define NOT_READY_SUFFIX " is not ready"

/* One StageSet as the timeline went; strings borrow the timeline's. */
struct dependent {
	const char *ns, *name;
	bool deployed;        /* its last status said Succeeded */
	int64_t deployed_ms;  /* since when */
	int64_t spec_ms;      /* its last spec change, -1: none */
	/* the first stretch of DependencyNotReady after being deployed */
	size_t nflips;
	int64_t was_ms, flip_ms, back_ms; /* back_ms -1: not ready to the end */
	char dep[256];        /* "ns/name" of the dependency */
	bool open;            /* a stretch is under way */
};

/* The record of StageSet @ns/@name in @q (of struct dependent), a new one when it had none. */
static struct dependent *at_key(struct keytab *q, const char *ns, const char *name)
{
	bool added;
	struct dependent *d = kt_item(q, kt_at(q, ns, name, &added));

	if (added) {
		d->ns = ns;
		d->name = name;
		d->spec_ms = -1;
	}
	return d;
}

/* The "ns/name" of "dependency ns/name is not ready..." into @out; false for another message. */
static bool dependency_of(const char *msg, char *out, size_t len)
{
	const char *p, *q;

	if (!msg || strncmp(msg, NOT_READY_PREFIX, strlen(NOT_READY_PREFIX)) != 0)
		return false;
	p = msg + strlen(NOT_READY_PREFIX);
	if (!(q = strstr(p, NOT_READY_SUFFIX)) || (size_t)(q - p) >= len)
		return false;
	snprintf(out, len, "%.*s", (int)(q - p), p);
	return true;
}

static void status_entry(struct dependent *d, const struct tl_entry *e)
{
	char dep[256];
	bool ok = e->reason && !strcmp(e->reason, "Succeeded");

	if (d->open && ok) {
		d->open = false;
		d->back_ms = e->t_ms;
	}
	if (d->deployed && !ok && e->reason && !strcmp(e->reason, "DependencyNotReady") &&
	    d->spec_ms < d->deployed_ms && dependency_of(e->message, dep, sizeof(dep))) {
		if (!d->nflips++) {
			d->open = true;
			d->was_ms = d->deployed_ms;
			d->flip_ms = e->t_ms;
			d->back_ms = -1;
			snprintf(d->dep, sizeof(d->dep), "%s", dep);
		}
	}
	if (ok && !d->deployed)
		d->deployed_ms = e->t_ms;
	d->deployed = ok;
}

/* What the dependency's statuses said from @from_ms to @to_ms (-1: the end), in words (new). */
static char *dependency_story(const struct tl *tl, const char *dep, int64_t from_ms, int64_t to_ms)
{
	char *out = xstrdup(""), *next, t[GT_DURATION_BUFSZ];
	const char *last = NULL;
	size_t told = 0;

	for (size_t i = 0, n = tl_count(tl); i < n && told < 4; i++) {
		struct tl_entry e;
		char buf[256], *k;
		bool same;

		tl_get(tl, i, &e);
		if (strcmp(e.kind, "StageSet") || e.t_ms < from_ms || (to_ms >= 0 && e.t_ms > to_ms))
			continue;
		k = kb_join2(buf, sizeof(buf), e.ns, e.name);
		same = !strcmp(k, dep);
		kb_drop(k, buf);
		if (!same)
			continue;
		gt_format_duration(e.t_ms, t, sizeof(t));
		if (e.change == TL_UPDATED && e.detail && !strncmp(e.detail, "spec", 4))
			next = xasprintf("%s%sits spec changed at %s", out, told ? ", " : "", t);
		else if (e.change == TL_STATUS && e.reason && (!last || strcmp(last, e.reason)))
			next = xasprintf("%s%s%s at %s", out, told ? ", " : "",
					 !strcmp(e.reason, "Succeeded") ? "Ready again" : e.reason, t);
		else
			continue;
		if (e.change == TL_STATUS)
			last = e.reason;
		free(out);
		out = next;
		told++;
	}
	return out;
}

static void tell(struct run_result *r, const struct dependent *d)
{
	const struct tl *tl = des_timeline(r->world);
	struct tl_objref ref = { "StageSet", d->ns, d->name, 0 };
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ], t3[GT_DURATION_BUFSZ], len[GT_DURATION_BUFSZ];
	int64_t end = d->back_ms >= 0 ? d->back_ms : r->end_ms;
	char *story = dependency_story(tl, d->dep, d->flip_ms, d->back_ms);
	char *more = d->nflips > 1 ? xasprintf(" (%zu such stretches in the run)", d->nflips) : xstrdup("");
	char *text;

	gt_format_duration(d->was_ms, t1, sizeof(t1));
	gt_format_duration(d->flip_ms, t2, sizeof(t2));
	gt_format_duration(end, t3, sizeof(t3));
	gt_format_duration(end - d->flip_ms, len, sizeof(len));
	text = xasprintf("StageSet %s/%s, deployed (Ready True since %s) with no change of its own, was Ready "
			 "False DependencyNotReady from %s to %s%s (%s)%s while its dependency %s rolled out "
			 "(%s: %s): the controller checks dependencies on every pass and skips the dependent's "
			 "drift correction meanwhile; do not alert on DependencyNotReady alone, or publish to "
			 "both together",
			 d->ns, d->name, t1, t2, t3, d->back_ms >= 0 ? "" : ", the end of the run", len, more,
			 d->dep, d->dep, *story ? story : "its status did not change in that time");
	tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(more);
	free(story);
}

void ss_hazards_deps(struct run_result *r)
{
	const struct tl *tl = des_timeline(r->world);
	struct keytab q = KEYTAB_INIT(struct dependent);

	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (strcmp(e.kind, "StageSet") != 0)
			continue;
		if (e.change == TL_UPDATED && e.detail && !strncmp(e.detail, "spec", 4))
			at_key(&q, e.ns, e.name)->spec_ms = e.t_ms;
		else if (e.change == TL_STATUS)
			status_entry(at_key(&q, e.ns, e.name), &e);
	}
	for (size_t i = 0; i < q.n; i++) {
		const struct dependent *d = kt_item(&q, i);

		if (d->nflips)
			tell(r, d);
	}
	kt_release(&q);
}
