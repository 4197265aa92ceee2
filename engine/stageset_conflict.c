/*
 * Conflict handling of a stage's apply: see engine/stageset_conflict.h.
 */
#include "engine/stageset_conflict.h"

#include <stdio.h>
#include <string.h>

static const char *const action_texts[] = { "Fail", "Recreate", "KeepExisting" };

const char *scf_action_text(enum scf_action a)
{
	return (unsigned)a < sizeof(action_texts) / sizeof(action_texts[0]) ? action_texts[a] : "Fail";
}

/* The enum value of @s; anything else is Fail (upstream's switch has no case for it). */
static enum scf_action action_of(const char *s)
{
	if (s && strcmp(s, "Recreate") == 0)
		return SCF_RECREATE;
	if (s && strcmp(s, "KeepExisting") == 0)
		return SCF_KEEP_EXISTING;
	return SCF_FAIL;
}

/* A target field that is set and not empty must equal @have. */
static bool field_ok(const struct val *target, const char *key, const char *have)
{
	const char *want = val_str(val_map_get(target, key), "");

	return want[0] == '\0' || strcmp(want, have ? have : "") == 0;
}

bool scf_matches_conflict_target(const struct scf_object *obj, const struct val *target)
{
	return field_ok(target, "apiVersion", obj->api_version) && field_ok(target, "kind", obj->kind) &&
	       field_ok(target, "name", obj->name) && field_ok(target, "namespace", obj->ns);
}

bool scf_is_stateful_data(const struct scf_object *obj)
{
	if (!obj->api_version || strcmp(obj->api_version, "v1") != 0 || !obj->kind)
		return false;
	return strcmp(obj->kind, "PersistentVolumeClaim") == 0 || strcmp(obj->kind, "PersistentVolume") == 0;
}

enum scf_action scf_conflict_action_for(const struct scf_object *obj, const struct val *policy,
					enum scf_action fallback, bool *allow_data_loss, bool *from_rule)
{
	const struct val *rules = val_map_get(policy, "rules");

	if (allow_data_loss)
		*allow_data_loss = false;
	if (from_rule)
		*from_rule = false;
	if (obj->force_annotation)
		return SCF_RECREATE;
	for (size_t i = 0; rules && rules->type == VAL_LIST && i < rules->u.list.n; i++) {
		const struct val *r = rules->u.list.items[i];

		if (!scf_matches_conflict_target(obj, val_map_get(r, "target")))
			continue;
		if (allow_data_loss)
			*allow_data_loss = val_bool(val_map_get(r, "allowDataLoss"), false);
		if (from_rule)
			*from_rule = true;
		return action_of(val_str(val_map_get(r, "action"), ""));
	}
	return fallback;
}

bool scf_stage_has_handling(const struct sst_stage *stage)
{
	return stage->force || stage->conflict_policy;
}

int scf_resolve_conflict_handling(const struct scf_object *objs, size_t n, const struct sst_stage *stage,
				  enum scf_action *actions, char *err, size_t errlen)
{
	enum scf_action effective = stage->force ? SCF_RECREATE : SCF_FAIL;
	const char *def = val_str(val_map_get(stage->conflict_policy, "default"), "");

	if (def[0])
		effective = action_of(def);
	for (size_t i = 0; i < n; i++) {
		bool allow = false, from_rule = false;

		actions[i] = scf_conflict_action_for(&objs[i], stage->conflict_policy, effective, &allow,
						     &from_rule);
		if (actions[i] == SCF_RECREATE && from_rule && !allow && scf_is_stateful_data(&objs[i])) {
			snprintf(err, errlen,
				 "conflictPolicy refuses to recreate %s \"%s\": that destroys data; set the "
				 "rule's allowDataLoss: true to permit it",
				 objs[i].kind, objs[i].name);
			return -1;
		}
	}
	return 0;
}
