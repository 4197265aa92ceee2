#include "sim/run/ss_hazards_pace.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_env.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/cluster/apiserver.h"
#include "sim/observe/fleetobs.h"
#include "sim/wire/fleet_glue.h"
#include "sim/wire/stageset_rc.h"

/* Go duration of @ms as it is (times of the run), into @buf (GT_DURATION_BUFSZ). */
static const char *at(int64_t ms, char *buf)
{
	gt_format_duration(ms, buf, GT_DURATION_BUFSZ);
	return buf;
}

/* What one wave's unpaced baselines came to. */
struct unpaced {
	size_t n;
	const char *ns, *name;  /* the first member (earliest start), borrowed */
	const char *version;    /* borrowed */
	int64_t published_ms;   /* the publish that offered it */
	int64_t first_ms, last_ms; /* first-pass starts, earliest and latest */
};

/* The latest publish of @version at or before @t_ms (after 0), -1 none. */
static int64_t published_at(const struct scenario *s, const char *version, int64_t t_ms)
{
	int64_t best = -1;

	for (size_t i = 0; i < s->nfevents; i++) {
		const struct scn_fevent *p = &s->fevents[i];

		if (p->type == SCN_FEV_PUBLISH && p->at_ms > 0 && p->at_ms <= t_ms && p->version &&
		    strcmp(p->version, version) == 0 && p->at_ms > best)
			best = p->at_ms;
	}
	return best;
}

/* Whether @version is one the FleetRollout rolled out (its targets). */
static bool is_target(const struct fo_fleet *fl, const char *version)
{
	for (size_t i = 0; i < fl->ntargets; i++)
		if (strcmp(fl->targets[i], version) == 0)
			return true;
	return false;
}

/*
 * members whose first adoption was a published version, started
 * after the publish and before their wave opened.
 */
static void unpaced_baselines(struct run_result *r, const struct scenario *s)
{
	const struct ssrc *c = fleet_glue_ssrc(r->fleet);
	const struct ssrc_member_stat *m;
	size_t nm = c ? ssrc_members(c, &m) : 0, nf, nw = 0, *base;
	const struct fo_fleet *fl = fo_fleets(r->fobs, &nf);
	struct unpaced *u;

	if (nm == 0 || nf == 0)
		return;
	base = xcalloc(nf, sizeof(*base));
	for (size_t f = 0; f < nf; f++) {
		base[f] = nw;
		nw += fl[f].nwaves;
	}
	u = xcalloc(nw ? nw : 1, sizeof(*u));
	for (size_t i = 0; i < nm; i++) {
		const struct ssrc_attempt *a = m[i].nattempts ? &m[i].attempts[0] : NULL;
		char buf[256], *key;
		size_t f, w;
		int64_t pub;
		bool found;
		const struct fo_wave *wv;
		struct unpaced *x;

		if (!a || !a->baseline || a->start_ms < 0)
			continue;
		key = kb_join2(buf, sizeof(buf), m[i].ns, m[i].name);
		found = fo_member_wave(r->fobs, key, &f, &w, NULL);
		kb_drop(key, buf);
		if (!found)
			continue;
		wv = &fl[f].waves[w];
		if ((wv->opened_ms >= 0 && a->start_ms >= wv->opened_ms) ||
		    !is_target(&fl[f], a->version) ||
		    (pub = published_at(s, a->version, a->start_ms)) < 0)
			continue;
		x = &u[base[f] + w];
		if (!x->n || a->start_ms < x->first_ms) {
			x->ns = m[i].ns;
			x->name = m[i].name;
			x->first_ms = a->start_ms;
		}
		if (!x->n || a->start_ms > x->last_ms)
			x->last_ms = a->start_ms;
		if (!x->n || pub < x->published_ms)
			x->published_ms = pub;
		x->version = a->version;
		x->n++;
	}
	for (size_t f = 0; f < nf; f++)
		for (size_t w = 0; w < fl[f].nwaves; w++) {
			const struct unpaced *x = &u[base[f] + w];
			const struct fo_wave *wv = &fl[f].waves[w];
			struct tl_objref ref = { "FleetRollout", "", fl[f].name, 0 };
			char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ],
				e[GT_DURATION_BUFSZ];
			char *opened, *text;

			if (!x->n)
				continue;
			opened = wv->opened_ms >= 0 ? xasprintf("before the wave opened at %s",
								at(wv->opened_ms, e))
						    : xstrdup("and the wave never opened");
			text = xasprintf(
				"FleetRollout %s: %zu %s of wave \"%s\" (the first: %s/%s) took %s, "
				"published at %s, as their first version, starting between %s and %s, %s: "
				"they had not adopted a version when it was published (the StageSet "
				"controller's workers had not reached them yet), and a first version is "
				"never held for approval, whatever approvalMode, so the wave did not pace "
				"them; publish after the members have adopted their first version, or "
				"give them a status.version",
				fl[f].name, x->n, x->n == 1 ? "member" : "members", wv->name, x->ns,
				x->name, x->version, at(x->published_ms, a), at(x->first_ms, b),
				at(x->last_ms, d), opened);
			tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
			free(text);
			free(opened);
		}
	free(u);
	free(base);
}

/* Held polls worth telling take at least this share of the workers' time (lint's MS243). */
#define POLL_SHARE_TOLD 0.5
/* ... over at least this long a stretch. */
#define POLL_SPAN_MIN_MS INT64_C(300000)

/* What the held polls of one FleetRollout's later waves came to. */
struct polls {
	size_t members;
	uint64_t passes;
	int64_t busy_ms, first_ms, last_ms;
};

/*
 * the members of a FleetRollout's later waves held for approval polled
 * every minute, and those polls took a large share of the 4 workers.
 */
static void held_polls(struct run_result *r, const struct scenario *s)
{
	const struct ssrc *c = fleet_glue_ssrc(r->fleet);
	const struct ssrc_member_stat *m;
	size_t nm = c ? ssrc_members(c, &m) : 0, nf;
	const struct fo_fleet *fl = fo_fleets(r->fobs, &nf);
	struct polls *p;

	if (nm == 0 || nf == 0)
		return;
	p = xcalloc(nf, sizeof(*p));
	for (size_t i = 0; i < nm; i++) {
		char buf[256], *key;
		size_t f, w;
		bool found;
		struct polls *x;

		if (!m[i].approval_passes)
			continue;
		key = kb_join2(buf, sizeof(buf), m[i].ns, m[i].name);
		found = fo_member_wave(r->fobs, key, &f, &w, NULL);
		kb_drop(key, buf);
		if (!found || w == 0)
			continue;
		x = &p[f];
		if (!x->members || m[i].approval_first_ms < x->first_ms)
			x->first_ms = m[i].approval_first_ms;
		if (!x->members || m[i].approval_last_ms > x->last_ms)
			x->last_ms = m[i].approval_last_ms;
		x->members++;
		x->passes += m[i].approval_passes;
		x->busy_ms += m[i].approval_busy_ms;
	}
	for (size_t f = 0; f < nf; f++) {
		const struct polls *x = &p[f];
		int64_t span = x->last_ms - x->first_ms;
		struct tl_objref ref = { "FleetRollout", "", fl[f].name, 0 };
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], d[GT_DURATION_BUFSZ],
			e[GT_DURATION_BUFSZ], g[GT_DURATION_BUFSZ];
		double share;
		char *text;

		if (!x->members || span < POLL_SPAN_MIN_MS || x->busy_ms <= 0)
			continue;
		share = (double)x->busy_ms / ((double)SSC_CONCURRENT_RECONCILES * (double)span);
		if (share < POLL_SHARE_TOLD)
			continue;
		text = xasprintf(
			"FleetRollout %s: %zu members of its later waves, held AwaitingApproval, "
			"polled %" PRIu64 " times from %s to %s, %.0f a minute (the StageSet "
			"controller requeues a held member every 1m, without jitter), each poll "
			"holding a worker %s on average (spec.api.reconcileDuration %s): %s of worker "
			"time, %.0f%% of the %d workers over that stretch, so every other pass (the "
			"open wave's adoptions, retries, soak and window requeues) waited its turn "
			"behind them; hold fewer members at once (publish to a wave's members when it "
			"opens, or split the fleet) or shorten the pass",
			fl[f].name, x->members, x->passes, at(x->first_ms, a), at(x->last_ms, b),
			(double)x->passes * 60000.0 / (double)span,
			at(x->busy_ms / (int64_t)x->passes, d), at(s->reconcile_ms, e),
			at(x->busy_ms, g), share > 1 ? 100.0 : share * 100.0,
			SSC_CONCURRENT_RECONCILES);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_WARNING, text, &ref, 1);
		free(text);
	}
	free(p);
}

/* From this long a wait for a cross-namespace dependency is told (a W3 wake-up takes one pass). */
#define DEP_WAIT_TOLD_MS INT64_C(60000)

/* One dependsOn entry across namespaces, and what the run made of it. */
struct dep_pair {
	char *dependent, *dependency; /* "ns/name", owned */
	const char *dependent_name;   /* borrowed from the store's object (valid until the next write) */
	bool held;                    /* the dependent's last status: DependencyNotReady */
	int64_t held_since;           /* when it turned so, ms */
	int64_t ready_ms;             /* the dependency's first Succeeded while it was held, -1 none */
	/* the longest wait: dependency ready at @w_ready, the dependent moved on at @w_on */
	int64_t w_ready, w_on, w_held_since;
	uint32_t waits;               /* episodes of @DEP_WAIT_TOLD_MS or more */
};

/* A key of the lookup: "ns/name" and the pair it belongs to. */
struct dep_key {
	const char *key;
	size_t pair;
};

static int cmp_dep_key(const void *pa, const void *pb)
{
	const struct dep_key *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->pair > b->pair) - (a->pair < b->pair);
}

/* The first entry of @v (sorted, @n) with key @key, or @n. */
static size_t first_key(const struct dep_key *v, size_t n, const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(v[mid].key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && strcmp(v[lo].key, key) == 0 ? lo : n;
}

/*
 * a StageSet whose dependsOn names one of another namespace, held
 * DependencyNotReady, moved on a minute or more after the dependency went
 * Ready (Succeeded): W3 wakes only the dependency's own namespace, so it
 * waited for its own retry.  One pass over the timeline.
 */
static void cross_namespace_waits(struct run_result *r)
{
	struct api_list l;
	const struct tl *tl = des_timeline(r->world);
	struct dep_pair *p = NULL;
	struct dep_key *by_dep, *by_dependency;
	size_t np = 0, cap = 0, n = tl_count(tl);

	api_list_init(&l);
	api_list(des_api(r->world), "StageSet", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		const struct obj *o = l.items[i];
		const struct val *deps = o->spec ? val_map_get(o->spec, "dependsOn") : NULL;

		for (size_t k = 0; deps && deps->type == VAL_LIST && k < deps->u.list.n; k++) {
			const struct val *d = deps->u.list.items[k];
			const char *ns = val_str(val_map_get(d, "namespace"), "");

			if (!ns[0] || strcmp(ns, o->ns) == 0)
				continue;
			if (np == cap) {
				cap = cap ? 2 * cap : 8;
				p = xreallocarray(p, cap, sizeof(*p));
			}
			p[np++] = (struct dep_pair){
				.dependent = xasprintf("%s/%s", o->ns, o->name),
				.dependency = xasprintf("%s/%s", ns, val_str(val_map_get(d, "name"), "")),
				.dependent_name = o->name, .ready_ms = -1,
			};
		}
	}
	if (np == 0)
		goto out_release_list;
	by_dep = xcalloc(np, sizeof(*by_dep));
	by_dependency = xcalloc(np, sizeof(*by_dependency));
	for (size_t i = 0; i < np; i++) {
		by_dep[i] = (struct dep_key){ p[i].dependent, i };
		by_dependency[i] = (struct dep_key){ p[i].dependency, i };
	}
	qsort(by_dep, np, sizeof(*by_dep), cmp_dep_key);
	qsort(by_dependency, np, sizeof(*by_dependency), cmp_dep_key);
	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *e = tl_rec_at(tl, i);
		const char *kind = tl_str_get(tl, e->kind), *reason;
		char buf[256], *key;
		size_t j;

		if (e->change != TL_STATUS || !kind || strcmp(kind, "StageSet") != 0)
			continue;
		reason = tl_str_get(tl, e->reason);
		reason = reason ? reason : "";
		key = kb_join2(buf, sizeof(buf), tl_str_get(tl, e->ns), tl_str_get(tl, e->name));
		for (j = first_key(by_dependency, np, key);
		     j < np && strcmp(by_dependency[j].key, key) == 0; j++) {
			struct dep_pair *x = &p[by_dependency[j].pair];

			if (x->held && x->ready_ms < 0 && strcmp(reason, "Succeeded") == 0)
				x->ready_ms = e->t_ms;
		}
		for (j = first_key(by_dep, np, key); j < np && strcmp(by_dep[j].key, key) == 0; j++) {
			struct dep_pair *x = &p[by_dep[j].pair];
			bool now = strcmp(reason, "DependencyNotReady") == 0;

			if (x->held && !now && x->ready_ms >= 0 &&
			    e->t_ms - x->ready_ms >= DEP_WAIT_TOLD_MS) {
				if (!x->waits++ || e->t_ms - x->ready_ms > x->w_on - x->w_ready) {
					x->w_ready = x->ready_ms;
					x->w_on = e->t_ms;
					x->w_held_since = x->held_since;
				}
			}
			if (now && !x->held)
				x->held_since = e->t_ms;
			if (!now)
				x->ready_ms = -1;
			x->held = now;
		}
		kb_drop(key, buf);
	}
	for (size_t i = 0; i < np; i++) {
		const struct dep_pair *x = &p[i];
		struct tl_objref ref = { "StageSet", NULL, NULL, 0 };
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ],
			d[GT_DURATION_BUFSZ];
		char *ns, *text, more[64] = "";

		if (!x->waits)
			continue;
		if (x->waits > 1)
			snprintf(more, sizeof(more), " (the longest of %" PRIu32 " such waits)", x->waits);
		ns = xstrdup(x->dependent);
		*strchr(ns, '/') = '\0';
		ref.ns = ns;
		ref.name = x->dependent_name;
		text = xasprintf(
			"StageSet %s waited %s for its dependency %s in another namespace: %s went "
			"Ready at %s, and %s, DependencyNotReady since %s, moved on only at its next "
			"pass (its status changed at %s)%s: the controller wakes dependents only in the "
			"dependency's own namespace, so it waited for its own retry; keep the two in one "
			"namespace, or set a shorter spec.retryInterval on %s (e.g. 30s)",
			x->dependent, at(x->w_on - x->w_ready, a), x->dependency, x->dependency,
			at(x->w_ready, b), x->dependent, at(x->w_held_since, c), at(x->w_on, d),
			more, x->dependent_name);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO, text, &ref, 1);
		free(text);
		free(ns);
	}
	free(by_dependency);
	free(by_dep);
	for (size_t i = 0; i < np; i++) {
		free(p[i].dependent);
		free(p[i].dependency);
	}
	free(p);
out_release_list:
	api_list_release(&l);
}

/* One StageSet reading a source of another namespace that the scenario makes not ready. */
struct src_wait {
	char *key;                        /* "ns/name" of the StageSet, owned */
	const struct obj *ss;             /* borrowed from the store (until its next write) */
	char *source;                     /* "Kind ns/name", owned */
	const struct scn_sw_windows *nr;  /* the source's notReady windows, borrowed from @s */
	bool held;
	int64_t held_since, ready_ms;     /* the window's end that ended the hold, -1 none */
	int64_t w_ready, w_on, w_since;   /* the longest wait */
	uint32_t waits;
};

/* The notReady windows spec.models.sources gives source @kind @ns/@name, or NULL. */
static const struct scn_sw_windows *not_ready_of(const struct scenario *s, const char *kind,
						 const char *ns, const char *name)
{
	for (size_t i = 0; i < s->models.world.nsources; i++) {
		const struct scn_sw_source *e = &s->models.world.sources[i];

		if ((!e->kind || strcmp(e->kind, kind) == 0) && (!e->ns || strcmp(e->ns, ns) == 0) &&
		    (!e->name || strcmp(e->name, name) == 0) && e->has_not_ready)
			return &e->not_ready;
	}
	return NULL;
}

/* The end of the notReady window of @nr that holds @t_ms, -1 none (or open-ended). */
static int64_t window_end(const struct scn_sw_windows *nr, int64_t t_ms)
{
	int64_t end = -1;

	for (size_t i = 0; i < nr->n; i++)
		if (nr->items[i].from_ms <= t_ms && t_ms < nr->items[i].until_ms &&
		    nr->items[i].until_ms != INT64_MAX && nr->items[i].until_ms > end)
			end = nr->items[i].until_ms;
	return end;
}

/*
 * a StageSet held SourceNotReady by a source of another namespace
 * moved on a minute or more after the source's notReady window ended: W5
 * and W6 wake only the source's own namespace, so it waited for its retry.
 */
static void cross_namespace_sources(struct run_result *r, const struct scenario *s)
{
	struct api_list l;
	const struct tl *tl = des_timeline(r->world);
	struct src_wait *p = NULL;
	struct dep_key *by;
	size_t np = 0, cap = 0, n = tl_count(tl);

	api_list_init(&l);
	api_list(des_api(r->world), "StageSet", NULL, NULL, NULL, &l);
	for (size_t i = 0; i < l.n; i++) {
		const struct obj *o = l.items[i];
		const struct val *stages = o->spec ? val_map_get(o->spec, "stages") : NULL;

		for (size_t k = 0; stages && stages->type == VAL_LIST && k < stages->u.list.n; k++) {
			const struct val *ref = val_map_get(stages->u.list.items[k], "sourceRef");
			const char *ns = val_str(val_map_get(ref, "namespace"), "");
			const char *kind = val_str(val_map_get(ref, "kind"), "");
			const char *name = val_str(val_map_get(ref, "name"), "");
			const struct scn_sw_windows *nr;

			if (!ns[0] || strcmp(ns, o->ns) == 0)
				continue;
			kind = kind[0] ? kind : "ExternalArtifact";
			if (!(nr = not_ready_of(s, kind, ns, name)))
				continue;
			if (np == cap) {
				cap = cap ? 2 * cap : 8;
				p = xreallocarray(p, cap, sizeof(*p));
			}
			p[np++] = (struct src_wait){
				.key = xasprintf("%s/%s", o->ns, o->name), .ss = o,
				.source = xasprintf("%s %s/%s", kind, ns, name), .nr = nr, .ready_ms = -1,
			};
			break; /* one source a StageSet: the first that is told */
		}
	}
	if (np == 0)
		goto out_release_list;
	by = xcalloc(np, sizeof(*by));
	for (size_t i = 0; i < np; i++)
		by[i] = (struct dep_key){ p[i].key, i };
	qsort(by, np, sizeof(*by), cmp_dep_key);
	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *e = tl_rec_at(tl, i);
		const char *kind = tl_str_get(tl, e->kind), *reason;
		char buf[256], *key;

		if (e->change != TL_STATUS || !kind || strcmp(kind, "StageSet") != 0)
			continue;
		reason = tl_str_get(tl, e->reason);
		reason = reason ? reason : "";
		key = kb_join2(buf, sizeof(buf), tl_str_get(tl, e->ns), tl_str_get(tl, e->name));
		for (size_t j = first_key(by, np, key); j < np && strcmp(by[j].key, key) == 0; j++) {
			struct src_wait *x = &p[by[j].pair];
			bool now = strcmp(reason, "SourceNotReady") == 0;

			if (now && !x->held) {
				x->held_since = e->t_ms;
				x->ready_ms = window_end(x->nr, e->t_ms);
			}
			if (x->held && !now && x->ready_ms >= 0 &&
			    e->t_ms - x->ready_ms >= DEP_WAIT_TOLD_MS &&
			    (!x->waits++ || e->t_ms - x->ready_ms > x->w_on - x->w_ready)) {
				x->w_ready = x->ready_ms;
				x->w_on = e->t_ms;
				x->w_since = x->held_since;
			}
			x->held = now;
		}
		kb_drop(key, buf);
	}
	for (size_t i = 0; i < np; i++) {
		const struct src_wait *x = &p[i];
		struct tl_objref ref = { "StageSet", x->ss->ns, x->ss->name, 0 };
		char a[GT_DURATION_BUFSZ], b[GT_DURATION_BUFSZ], c[GT_DURATION_BUFSZ],
			d[GT_DURATION_BUFSZ];
		char *text, more[64] = "";

		if (!x->waits)
			continue;
		if (x->waits > 1)
			snprintf(more, sizeof(more), " (the longest of %" PRIu32 " such waits)", x->waits);
		text = xasprintf(
			"StageSet %s waited %s for its source %s in another namespace: the source was "
			"ready again at %s, and %s, SourceNotReady since %s, moved on only at its next "
			"pass (its status changed at %s)%s: a source wakes only the StageSets of its own "
			"namespace, so it waited for its own retry; keep the source in the StageSet's "
			"namespace, or shorten spec.retryInterval on %s (e.g. 30s)",
			x->key, at(x->w_on - x->w_ready, a), x->source, at(x->w_ready, b), x->key,
			at(x->w_since, c), at(x->w_on, d), more, x->ss->name);
		tl_notice_add(des_timeline(r->world), r->end_ms, TL_INFO, text, &ref, 1);
		free(text);
	}
	free(by);
out_release_list:
	for (size_t i = 0; i < np; i++) {
		free(p[i].key);
		free(p[i].source);
	}
	free(p);
	api_list_release(&l);
}

void ss_hazards_pace(struct run_result *r, const struct scenario *s)
{
	cross_namespace_waits(r);
	cross_namespace_sources(r, s);
	if (!r->fobs || !r->fleet)
		return;
	unpaced_baselines(r, s);
	held_polls(r, s);
}
