/*
 * MS284: a StageSet spec the controller refuses at its first pass
 * (InvalidSpec), told with the controller's own message.
 */
#include "sim/lint/lint_ss_spec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_env.h"
#include "engine/stageset_types.h"
#include "engine/stageset_validate.h"
#include "engine/xalloc.h"
#include "sim/lint/lint_ss_holds.h"
#include "sim/load/tzif.h"

/*
 * Where the stage @msg names sits: ValidateStages words its messages
 * `stage "name" …` (`stage name "name" is not unique`: the second stage of
 * that name).  The stage's name value, else a mark with line 0.
 */
static struct val_mark stage_mark(const struct obj *ss, const char *msg)
{
	const struct val *st = val_map_get(ss->spec, "stages");
	struct val_mark none = { 0 };
	size_t seen = 0, want = strncmp(msg, "stage name \"", 12) == 0 ? 2 : 1;

	for (size_t i = 0; st && st->type == VAL_LIST && i < st->u.list.n; i++) {
		const struct val *v = val_map_get(st->u.list.items[i], "name");
		char *quoted;
		bool named;

		if (!v || v->type != VAL_STRING || !v->mark.line)
			continue;
		quoted = xasprintf("stage %s\"%s\"", want == 2 ? "name " : "", v->u.s);
		named = strncmp(msg, quoted, strlen(quoted)) == 0;
		free(quoted);
		if (named && ++seen == want)
			return v->mark;
	}
	return none;
}

/*
 * Where @msg points in @ss's spec: the value of an update window's schedule
 * or timeZone that the message quotes (window.Validate words them
 * `schedule "…": …` and `timeZone "…": …`), the name of the stage it
 * starts with, else where @ss starts.
 */
static struct val_mark message_mark(const struct obj *ss, const char *msg)
{
	const struct val *ws = val_map_get(ss->spec, "updateWindows");
	static const char *const keys[] = { "schedule", "timeZone" };
	struct val_mark at = stage_mark(ss, msg);

	if (at.line)
		return at;

	for (size_t i = 0; ws && ws->type == VAL_LIST && i < ws->u.list.n; i++)
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
			const struct val *v = val_map_get(ws->u.list.items[i], keys[k]);
			char *quoted;
			bool named;

			if (!v || v->type != VAL_STRING || !v->mark.line)
				continue;
			quoted = xasprintf("%s \"%s\"", keys[k], v->u.s);
			named = strstr(msg, quoted) != NULL;
			free(quoted);
			if (named)
				return v->mark;
		}
	return ss->src.mark;
}

/* MS284 for StageSet @ss whose first pass runs at Unix ms @unix_ms. */
static void check(struct lint_report *r, const struct obj *ss, struct tzif_cache *tz, int64_t unix_ms)
{
	struct sst_spec sp;
	struct ssc_env env;
	char err[512];
	char *verr = NULL;
	int rc;

	if (!scn_is_stageset(ss) || !ss->spec || ss->spec->type != VAL_MAP)
		return;
	if (sst_spec_parse(ss->spec, &sp, err, sizeof(err)) != 0) {
		lint_add(r, "MS284", ss->src.file, ss->src.mark,
			 "StageSet %s/%s: the controller cannot decode its spec (%s); it never reconciles",
			 ss->ns, ss->name, err);
		return;
	}
	memset(&env, 0, sizeof(env));
	env.ctx = tz;
	env.time_zone = lsh_time_zone;
	rc = ssv_validate_spec(ss, &sp, &env, unix_ms, &verr);
	if (rc != SSV_OK)
		lint_add(r, "MS284", ss->src.file, message_mark(ss, verr ? verr : ""),
			 "StageSet %s/%s: %s; the controller %s from its first pass and never reconciles it",
			 ss->ns, ss->name, verr ? verr : "",
			 rc == SSV_EPANIC ? "panics validating the spec (a reconcile error)"
					  : "reports Ready False InvalidSpec");
	free(verr);
	sst_spec_release(&sp);
}

void lint_ss_spec(struct lint_report *r, const struct scenario *s)
{
	struct tzif_cache tz;

	tzif_cache_init(&tz, NULL);
	for (size_t i = 0; i < s->nobjs; i++)
		check(r, s->objs[i], &tz, s->start_unix_ms);
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && s->events[i].obj)
			check(r, s->events[i].obj, &tz, s->start_unix_ms + s->events[i].at_ms);
	tzif_cache_release(&tz);
}
