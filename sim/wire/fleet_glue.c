#include "sim/wire/fleet_glue.h"

#include <stdlib.h>
#include <string.h>

#include "engine/stageset_controller.h"
#include "engine/xalloc.h"
#include "sim/models/stageset_world.h"
#include "sim/models/stageset_world_gates.h"
#include "sim/wire/fleet_rc.h"
#include "sim/wire/stageset_rc.h"

struct fleet_glue {
	const struct scenario *s;
	struct frc *frc;
	struct sw_world *world;
	struct ssrc *ssrc;
};

/*
 * What a gate's query returns: the series of its exact query (and address
 * when entries name one) as one instant vector (several series of one query
 * are an error, as upstream's scalarFromResult has it).
 */
static int metric(void *ctx, const char *address, const char *query, int64_t t_ms, double *value,
		  char *err, size_t errlen)
{
	const struct fleet_glue *g = ctx;

	return swg_metric_prometheus(g->s->series, g->s->nseries, query, address, t_ms, value, err, errlen);
}

/* Whether the inputs hold a StageSet, loaded or created by an apply event. */
static bool has_stagesets(const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (strcmp(s->objs[i]->kind, "StageSet") == 0)
			return true;
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && s->events[i].obj &&
		    strcmp(s->events[i].obj->kind, "StageSet") == 0)
			return true;
	return false;
}

static void start_stagesets(struct fleet_glue *g, struct des *w, uint64_t trial, bool keep_pass_starts)
{
	const struct scenario *s = g->s;
	struct sw_setup ws = { 0 };
	struct ssrc_params p = { 0 };
	const char **keys = xcalloc(s->nevents ? s->nevents : 1, sizeof(*keys));
	int64_t *at = xcalloc(s->nevents ? s->nevents : 1, sizeof(*at));
	char **owned = xcalloc(s->nevents ? s->nevents : 1, sizeof(*owned));
	size_t nd = 0;

	ws.cfg = &s->models.world;
	ws.fevents = s->fevents;
	ws.nfevents = s->nfevents;
	ws.series = s->series;
	ws.nseries = s->nseries;
	ws.seed = des_params(w)->seed;
	ws.trial = trial;
	ws.start_unix_ms = s->start_unix_ms;
	ws.seeds = s->source_seeds;
	ws.nseeds = s->nsource_seeds;
	g->world = sw_new(&ws);

	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *ev = &s->events[i];

		if (ev->type != SCN_EV_DELETE || ev->done || strcmp(ev->target.kind, "StageSet") != 0)
			continue;
		owned[nd] = xasprintf("%s/%s", ev->target.ns, ev->target.name);
		keys[nd] = owned[nd];
		at[nd++] = ev->at_ms;
	}
	p.start_unix_ms = s->start_unix_ms;
	p.world = g->world;
	p.keep_pass_starts = keep_pass_starts;
	p.allowed_action_hosts = (const char *const *)s->fleet.allowed_action_hosts;
	p.nallowed_action_hosts = s->fleet.nallowed_action_hosts;
	p.opt = ssc_options_default();
	p.seed = des_params(w)->seed;
	p.trial = trial;
	p.deletion_keys = keys;
	p.deletion_ms = at;
	p.ndeletions = nd;
	p.fevents = s->fevents;
	p.nfevents = s->nfevents;
	p.requeue_draws = s->requeue_draws;
	p.nrequeue_draws = s->nrequeue_draws;
	p.shards = s->shards;
	p.nshards = s->nshards;
	g->ssrc = ssrc_register(w, &p);
	for (size_t i = 0; i < nd; i++)
		free(owned[i]);
	free(owned);
	free(keys);
	free(at);
}

struct fleet_glue *fleet_glue_start(struct des *w, const struct scenario *s, uint64_t trial, bool keep_pass_starts)
{
	struct fleet_glue *g = xcalloc(1, sizeof(*g));
	struct frc_params fp = { 0 };

	g->s = s;
	fp.start_unix_ms = s->start_unix_ms;
	fp.allowed_action_hosts = (const char *const *)s->fleet.allowed_action_hosts;
	fp.nallowed_action_hosts = s->fleet.nallowed_action_hosts;
	fp.metric = metric;
	fp.metric_ctx = g;
	g->frc = frc_register(w, &fp);
	if (has_stagesets(s))
		start_stagesets(g, w, trial, keep_pass_starts);
	return g;
}

void fleet_glue_free(struct fleet_glue *g)
{
	if (!g)
		return;
	ssrc_free(g->ssrc);
	sw_free(g->world);
	frc_free(g->frc);
	free(g);
}

const struct frc *fleet_glue_frc(const struct fleet_glue *g)
{
	return g ? g->frc : NULL;
}

const struct ssrc *fleet_glue_ssrc(const struct fleet_glue *g)
{
	return g ? g->ssrc : NULL;
}
