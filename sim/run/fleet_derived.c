/* The fleets the end-of-run fleet observers follow: see fleet_derived.h. */
#include "sim/run/fleet_derived.h"

#include <stdint.h>
#include <string.h>

#include "engine/labels.h"
#include "sim/cluster/admission.h"

static bool stages_object(const struct obj *o, void *ctx)
{
	(void)ctx;
	return adm_in_group(o, ADM_GROUP_STAGES, NULL);
}

void fd_list_init(struct fd_list *l, struct api *a)
{
	api_list_init(&l->frs);
	api_list_init(&l->sss);
	api_list(a, "FleetRollout", NULL, stages_object, NULL, &l->frs);
	if (l->frs.n)
		api_list(a, "StageSet", NULL, stages_object, NULL, &l->sss);
}

void fd_list_release(struct fd_list *l)
{
	if (!l)
		return;
	api_list_release(&l->sss);
	api_list_release(&l->frs);
}

bool fd_followed(const struct obj *fr)
{
	return !*val_str(val_map_get(fr->spec, "targetVersion"), "") && !val_map_get(fr->spec, "namespaceSelector");
}

/* Index of the first wave of @waves whose selector matches @labels, or SIZE_MAX. */
static size_t first_wave(const struct val *waves, const struct obj_strmap *labels)
{
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		struct lbl_selector sel;
		bool hit;

		if (lbl_selector_from_val(val_map_get(waves->u.list.items[i], "selector"), &sel, NULL, 0) != LBL_OK)
			continue;
		hit = lbl_matches(&sel, labels);
		lbl_selector_release(&sel);
		if (hit)
			return i;
	}
	return SIZE_MAX;
}

void fd_members(const struct obj *fr, const struct api_list *sss, struct keytab *m,
		void (*init)(void *rec, const struct obj *ss, size_t wave, const char *wave_name))
{
	const struct val *waves = val_map_get(fr->spec, "waves");
	struct lbl_selector sel;

	if (lbl_selector_from_val(val_map_get(fr->spec, "selector"), &sel, NULL, 0) != LBL_OK)
		return;
	for (size_t i = 0; i < sss->n; i++) {
		const struct obj *ss = sss->items[i];
		size_t w;

		if (!lbl_matches(&sel, &ss->labels) || (w = first_wave(waves, &ss->labels)) == SIZE_MAX)
			continue;
		init(kt_item(m, kt_at(m, ss->ns, ss->name, NULL)), ss, w,
		     val_str(val_map_get(waves->u.list.items[w], "name"), ""));
	}
	lbl_selector_release(&sel);
}
