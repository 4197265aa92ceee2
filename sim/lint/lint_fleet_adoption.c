/*
 * MS271: a derived FleetRollout that counts budget-frozen members adopted
 * (lint_fleet_adoption.h).
 */
#include "sim/lint/lint_fleet_adoption.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/cluster/admission.h"
#include "sim/lint/lint_ss_holds.h"

#define READ_EVERY_MS 60000 /* one budget reading a minute */
#define MAX_READINGS 20000

/* The first reading of @ss's error budget within the horizon that is exhausted, -1: none. */
static int64_t first_frozen(const struct scenario *s, const struct obj *ss, struct lsh_budget *bu)
{
	int64_t step = READ_EVERY_MS;

	if (!val_map_get(ss->spec, "errorBudget"))
		return -1;
	if (s->horizon_ms / step > MAX_READINGS)
		step = s->horizon_ms / MAX_READINGS + 1;
	for (int64_t t = 0; t <= s->horizon_ms; t += step)
		if (lsh_budget_at(ss->spec, s, t, bu) && bu->frozen)
			return t;
	return -1;
}

/* The name of the first wave of @fr whose selector matches @ss, or NULL. */
static const char *wave_of(const struct obj *fr, const struct obj *ss)
{
	const struct val *waves = val_map_get(fr->spec, "waves");

	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		const struct val *w = waves->u.list.items[i];
		struct lbl_selector sel;
		bool hit;

		if (lbl_selector_from_val(val_map_get(w, "selector"), &sel, NULL, 0) != LBL_OK)
			continue;
		hit = lbl_matches(&sel, &ss->labels);
		lbl_selector_release(&sel);
		if (hit)
			return val_str(val_map_get(w, "name"), "");
	}
	return NULL;
}

static void check_fleet(struct lint_report *r, const struct scenario *s, const struct obj *fr)
{
	struct lbl_selector sel;

	if (*val_str(val_map_get(fr->spec, "targetVersion"), "") || val_map_get(fr->spec, "namespaceSelector") ||
	    lbl_selector_from_val(val_map_get(fr->spec, "selector"), &sel, NULL, 0) != LBL_OK)
		return;
	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *ss = s->objs[i];
		const struct val *eb;
		struct lsh_budget bu;
		const char *wave;
		char at[GT_DURATION_BUFSZ];
		int64_t t;

		if (!adm_in_group(ss, ADM_GROUP_STAGES, "StageSet") || !lbl_matches(&sel, &ss->labels) ||
		    !(wave = wave_of(fr, ss)))
			continue;
		if ((t = first_frozen(s, ss, &bu)) < 0)
			continue;
		eb = val_map_get(ss->spec, "errorBudget");
		gt_format_duration(t, at, sizeof(at));
		lint_add(r, "MS271", ss->src.file, eb && eb->mark.line ? eb->mark : ss->src.mark,
			 "StageSet %s/%s, in wave \"%s\" of FleetRollout %s: its error budget reads exhausted "
			 "at %s (remaining %g < freezeThreshold %s), and a budget hold keeps a deployed "
			 "StageSet Ready True with no pendingVersion; the FleetRollout has no targetVersion, "
			 "so it counts a member without a pendingVersion as adopted: the wave can settle and "
			 "the fleet complete while this member still runs its old version",
			 ss->ns, ss->name, wave, fr->name, at, bu.remaining, bu.freeze_text);
	}
	lbl_selector_release(&sel);
}

void lint_fleet_adoption(struct lint_report *r, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (adm_in_group(s->objs[i], ADM_GROUP_STAGES, "FleetRollout"))
			check_fleet(r, s, s->objs[i]);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY &&
		    adm_in_group(s->events[i].obj, ADM_GROUP_STAGES, "FleetRollout"))
			check_fleet(r, s, s->events[i].obj);
}
