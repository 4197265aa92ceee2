/*
 * The FleetRollout surprises of spec §6 #13 and #15 as a run met them, read
 * from the store, the timeline and the fleet observer at its end
 * (fleet_quirks.h).
 */
#include "sim/run/fleet_quirks.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/observe/fleetobs.h"

/* Names listed in one notice before "…". */
#define MAX_NAMES 5

static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

static struct tl *tl_mut(struct run_result *r)
{
	return des_timeline(r->world);
}

/* Per FleetRollout of the observer: the members whose version is its target spelled otherwise. */
struct spelled {
	const char *other; /* the first such member's version (borrowed from the store) */
	char *names;       /* owned: "ns/name, …" */
	size_t n;
};

/*
 * The version @ss ended on or holds for approval that is @target's semantic
 * version in another spelling, or NULL: status.pendingVersion first (what it
 * waits to adopt), then status.version.
 */
static const char *spelled_otherwise(const struct obj *ss, const char *target,
				     const struct ss_semver *want)
{
	static const char *const fields[] = { "pendingVersion", "version" };

	for (size_t i = 0; i < 2; i++) {
		const struct val *v = val_map_get(ss->status, fields[i]);
		struct ss_semver got;

		if (v && v->type == VAL_STRING && *v->u.s && strcmp(v->u.s, target) != 0 &&
		    ss_semver_parse(v->u.s, &got, NULL, 0) == SS_OK &&
		    ss_semver_compare(want, &got) == 0)
			return v->u.s;
	}
	return NULL;
}

/* The reasons FC:reconcile writes on a pass that stops before the waves (spec §2.3 S1-S4). */
static bool early_exit(const char *reason)
{
	static const char *const early[] = { "InvalidSelector", "MembersUnassigned",
					     "MembersContested", "GateUnsupported" };

	for (size_t i = 0; i < sizeof(early) / sizeof(early[0]); i++)
		if (strcmp(reason, early[i]) == 0)
			return true;
	return false;
}

/* The Ready condition of @fr's status, or NULL. */
static const struct val *ready_of(const struct obj *fr)
{
	const struct val *c = val_map_get(fr->status, "conditions");

	for (size_t i = 0; c && c->type == VAL_LIST && i < c->u.list.n; i++)
		if (strcmp(val_str(val_map_get(c->u.list.items[i], "type"), ""), "Ready") == 0)
			return c->u.list.items[i];
	return NULL;
}

/*
 * §6 #15: FleetRollout @fr ended Ready False for an early exit while its
 * status still shows the progress of an earlier full pass (phase,
 * currentWave, a wave's soakUntil): an early exit writes only the
 * condition.  When the reason began and when the last full pass wrote the
 * status are read from the timeline.
 */
static void stale_status(struct run_result *r, const struct obj *fr)
{
	const struct tl *tl = des_timeline(r->world);
	const struct val *ready = ready_of(fr), *waves = val_map_get(fr->status, "waves");
	const char *reason = val_str(val_map_get(ready, "reason"), "");
	const char *phase = val_str(val_map_get(fr->status, "phase"), "");
	const char *wave = val_str(val_map_get(fr->status, "currentWave"), "");
	int64_t since = -1, full = -1;
	size_t soaks = 0;
	char t1[GT_DURATION_BUFSZ], t2[GT_DURATION_BUFSZ];
	char *cur, *soak, *text;
	struct tl_objref ref = { "FleetRollout", "", fr->name, 0 };

	if (!ready || strcmp(val_str(val_map_get(ready, "status"), ""), "False") != 0 ||
	    !early_exit(reason) || !*phase)
		return;
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++)
		if (*val_str(val_map_get(waves->u.list.items[i], "soakUntil"), ""))
			soaks++;
	for (size_t i = 0, n = tl_count(tl); i < n; i++) {
		struct tl_entry e;

		tl_get(tl, i, &e);
		if (e.change != TL_STATUS || strcmp(e.kind, "FleetRollout") != 0 ||
		    strcmp(e.name, fr->name) != 0)
			continue;
		if (e.reason && strcmp(e.reason, reason) == 0) {
			if (since < 0)
				since = e.t_ms;
		} else {
			since = -1;
			if (!e.reason || !early_exit(e.reason))
				full = e.t_ms;
		}
	}
	if (since < 0)
		return;
	cur = *wave ? xasprintf(", currentWave %s", wave) : xstrdup("");
	soak = soaks ? xasprintf(" and %zu wave soak deadline%s", soaks, soaks == 1 ? "" : "s")
		     : xstrdup("");
	text = xasprintf("FleetRollout %s ended Ready False (%s: %s) from %s, while its status still "
			 "says phase %s%s%s: a pass that stops early writes only the Ready condition, "
			 "so those are what the last full pass wrote%s%s, and a soak deadline left "
			 "there is used again once the cause is gone; read the Ready condition, not "
			 "the phase, and remove the cause",
			 fr->name, reason, val_str(val_map_get(ready, "message"), ""),
			 at(since, t1), phase, cur, soak, full >= 0 ? " at " : "",
			 full >= 0 ? at(full, t2) : "");
	tl_notice_add(tl_mut(r), r->end_ms, TL_WARNING, text, &ref, 1);
	free(text);
	free(soak);
	free(cur);
}

void fq_end_of_run(struct run_result *r)
{
	struct api *api = des_api(r->world);
	const struct fo_fleet *fl;
	struct spelled *sp;
	struct api_list ss;
	size_t nf = 0;

	{
		struct api_list frs;

		api_list_init(&frs);
		api_list(api, "FleetRollout", NULL, NULL, NULL, &frs);
		for (size_t i = 0; i < frs.n; i++)
			stale_status(r, frs.items[i]);
		api_list_release(&frs);
	}
	if (!r->fobs || !(fl = fo_fleets(r->fobs, &nf)) || nf == 0)
		return;
	sp = xcalloc(nf, sizeof(*sp));
	api_list_init(&ss);
	api_list(api, "StageSet", NULL, NULL, NULL, &ss);
	for (size_t i = 0; i < ss.n; i++) {
		const struct obj *o = ss.items[i];
		char buf[256], *key = kb_join2(buf, sizeof(buf), o->ns, o->name);
		const struct obj *fr;
		const char *target, *other;
		struct ss_semver want;
		size_t f, w;
		bool member = fo_member_wave(r->fobs, key, &f, &w, NULL);

		kb_drop(key, buf);
		if (!member || !(fr = api_get(api, "FleetRollout", "", fl[f].name)))
			continue;
		target = val_str(val_map_get(fr->spec, "targetVersion"), "");
		if (!*target || ss_semver_parse(target, &want, NULL, 0) != SS_OK ||
		    !(other = spelled_otherwise(o, target, &want)))
			continue;
		if (!sp[f].n)
			sp[f].other = other;
		if (sp[f].n < MAX_NAMES) {
			char *next = xasprintf("%s%s%s/%s", sp[f].names ? sp[f].names : "",
					       sp[f].n ? ", " : "", o->ns, o->name);

			free(sp[f].names);
			sp[f].names = next;
		} else if (sp[f].n == MAX_NAMES) {
			char *next = xasprintf("%s, …", sp[f].names);

			free(sp[f].names);
			sp[f].names = next;
		}
		sp[f].n++;
	}
	for (size_t f = 0; f < nf; f++) {
		const struct obj *fr;
		const char *target;
		struct tl_objref ref = { "FleetRollout", "", fl[f].name, 0 };
		char *text;

		if (!sp[f].n || !(fr = api_get(api, "FleetRollout", "", fl[f].name)))
			continue;
		target = val_str(val_map_get(fr->spec, "targetVersion"), "");
		text = xasprintf("FleetRollout %s: %zu member%s (%s) ended on or held for \"%s\", "
				 "which is targetVersion \"%s\" spelled differently: the fleet counts "
				 "a member adopted only when its status.version is exactly \"%s\", and "
				 "the approved-version it stamps is compared as text, so %s; write "
				 "targetVersion exactly as the source offers it (\"%s\"; lint's MS250)",
				 fl[f].name, sp[f].n, sp[f].n == 1 ? "" : "s", sp[f].names,
				 sp[f].other, target, target,
				 fl[f].completed_ms >= 0 ? "the fleet's waves counted them as not adopted"
							 : "no wave with them settled",
				 sp[f].other);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	}
	for (size_t f = 0; f < nf; f++)
		free(sp[f].names);
	free(sp);
	api_list_release(&ss);
}
