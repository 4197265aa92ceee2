/*
 * A run resumed from a snapshot of the simulator: the annotations that say
 * which run it came from (SCN_ORIGIN_ANNOTATION) and which sources its
 * StageSet world modelled (SCN_SOURCE_ANNOTATION), and the Scenario's times
 * put back on that run's clock (scn_resume_clock()).  See scenario.h.
 */
#include "sim/load/scenario.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stageset_controller.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/load/scn_parse.h"

/* ---------------------------------------------------------------- annotations */

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static bool modelled_kind(const char *kind)
{
	return strcmp(kind, "GitRepository") == 0 || strcmp(kind, "OCIRepository") == 0 ||
	       strcmp(kind, "Bucket") == 0 || strcmp(kind, "ExternalArtifact") == 0;
}

/*
 * take_source() - @o, which carries SCN_SOURCE_ANNOTATION @version, as a
 * seed of the StageSet world.  Returns false (an error in @d) when @o is
 * not a source with a status.artifact.revision and lastUpdateTime.
 */
static bool take_source(struct scenario *s, const struct obj *o, const char *version, struct diag *d)
{
	const char *rev = val_str(val_path(o->status, "artifact.revision"), NULL);
	const char *since = val_str(val_path(o->status, "artifact.lastUpdateTime"), NULL);
	int64_t since_ms = 0;
	struct scn_source_seed *e;

	if (!modelled_kind(o->kind) || !rev || !rev[0] || !since ||
	    gt_parse_rfc3339(since, &since_ms, NULL, 0) != 0 || !version[0]) {
		diag_error(d, o->src.file, o->src.mark,
			   "%s \"%s%s%s\": annotation %s names a modelled source: it belongs on a "
			   "GitRepository, OCIRepository, Bucket or ExternalArtifact with "
			   "status.artifact.revision and lastUpdateTime, its value the version the "
			   "revision carries",
			   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, SCN_SOURCE_ANNOTATION);
		return false;
	}
	s->source_seeds = xreallocarray(s->source_seeds, s->nsource_seeds + 1, sizeof(*s->source_seeds));
	e = &s->source_seeds[s->nsource_seeds++];
	e->kind = xstrdup(o->kind);
	e->ns = xstrdup(o->ns);
	e->name = xstrdup(o->name);
	e->revision = xstrdup(rev);
	e->digest = xstrdup_or_null(val_str(val_path(o->status, "artifact.digest"), NULL));
	e->path = xstrdup_or_null(val_str(val_path(o->status, "artifact.path"), NULL));
	e->url = xstrdup_or_null(val_str(val_path(o->status, "artifact.url"), NULL));
	e->version = xstrdup(version);
	e->since_unix_ms = since_ms;
	return true;
}

void scnp_inventory_item_clear(struct scn_inventory_shard *e)
{
	free(e->ns);
	free(e->name);
	free(e->stage);
	for (size_t i = 0; i < e->nids; i++)
		free(e->ids[i]);
	free(e->ids);
}

/*
 * take_ids() - the entry IDs "<id>;<id>..." of @v up to @stop (a ',' or
 * the end) into @e.  Returns false when one is empty or holds a character
 * of the annotation's syntax (",;=:") or a space.
 */
static bool take_ids(struct scn_inventory_shard *e, const char *v, const char *stop)
{
	while (v < stop) {
		size_t len = strcspn(v, ";,=: \t\n");
		const char *next = v + len;

		if (len == 0 || (next < stop && *next != ';') || (*next == ';' && next + 1 >= stop))
			return false;
		e->ids = xreallocarray(e->ids, e->nids + 1, sizeof(*e->ids));
		e->ids[e->nids++] = xstrndup(v, len);
		v = next < stop ? next + 1 : next;
	}
	return e->nids > 0;
}

/* "<revision>[;<version>]" between @v and @stop into @e's ids (revision, then version). */
static bool take_running(struct scn_inventory_shard *e, const char *v, const char *stop)
{
	const char *semi = memchr(v, ';', (size_t)(stop - v));
	const char *end = semi ? semi : stop;

	if (end == v || memchr(v, ' ', (size_t)(stop - v)) || memchr(v, '=', (size_t)(stop - v)) ||
	    (semi && (semi + 1 >= stop || memchr(semi + 1, ';', (size_t)(stop - semi - 1)))))
		return false;
	e->ids = xcalloc(2, sizeof(*e->ids));
	e->ids[e->nids++] = xstrndup(v, (size_t)(end - v));
	if (semi)
		e->ids[e->nids++] = xstrndup(semi + 1, (size_t)(stop - semi - 1));
	return true;
}

/* the exit name @v (@n bytes) as ssc_exit_name() spells it, static; NULL for none */
static const char *exit_name(const char *v, size_t n)
{
	for (int e = SSC_EXIT_NOT_FOUND; e <= SSC_EXIT_SUCCEEDED; e++) {
		const char *name = ssc_exit_name((enum ssc_exit)e);

		if (strlen(name) == n && strncmp(name, v, n) == 0)
			return name;
	}
	return NULL;
}

/* the RFC 3339 time @v (@n bytes) into *@unix_ms; false when it is none */
static bool take_time(const char *v, size_t n, int64_t *unix_ms)
{
	char buf[GT_RFC3339_BUFSZ];

	if (n == 0 || n >= sizeof(buf))
		return false;
	memcpy(buf, v, n);
	buf[n] = '\0';
	return gt_parse_rfc3339(buf, unix_ms, NULL, 0) == 0;
}

/*
 * take_survivor() - "<id>;<dropped>;<reason>[;<deleted>]" of @v up to
 * @stop into @e.  Returns false when it is not that.
 */
static bool take_survivor(struct scn_inventory_shard *e, const char *v, const char *stop)
{
	const char *f[4];
	size_t len[4], n = 0;

	while (n < 4) {
		const char *semi = memchr(v, ';', (size_t)(stop - v));
		const char *end = semi ? semi : stop;

		f[n] = v;
		len[n++] = (size_t)(end - v);
		if (!semi)
			break;
		v = semi + 1;
	}
	if (n < 3 || f[n - 1] + len[n - 1] != stop || len[0] == 0 || strcspn(f[0], ";,=: \t\n") != len[0] ||
	    !take_time(f[1], len[1], &e->dropped_unix_ms) || !(e->reason = exit_name(f[2], len[2])) ||
	    (n == 4 && !take_time(f[3], len[3], &e->deleted_unix_ms)))
		return false;
	e->has_deleted = n == 4;
	e->ids = xcalloc(1, sizeof(*e->ids));
	e->ids[0] = xstrndup(f[0], len[0]);
	e->nids = 1;
	return true;
}

bool scnp_parse_inventory(const char *ns, const char *name, const char *v, struct scn_inventory_shard **items,
			  size_t *n)
{
	size_t n0 = *n;

	while (*v) {
		const char *comma = strchr(v, ','), *eq, *stop;
		enum scn_inv_item what = SCN_INV_SHARD;
		struct scn_inventory_shard *e;

		stop = comma ? comma : v + strlen(v);
		if (strncmp(v, "render:", 7) == 0) {
			what = SCN_INV_RENDER;
			v += 7;
		} else if (strncmp(v, "live:", 5) == 0) {
			what = SCN_INV_LIVE;
			v += 5;
		} else if (strncmp(v, "survivor:", 9) == 0) {
			what = SCN_INV_SURVIVOR;
			v += 9;
		} else if (strncmp(v, "running:", 8) == 0) {
			what = SCN_INV_RUNNING;
			v += 8;
		}
		eq = memchr(v, '=', (size_t)(stop - v));
		if (!eq || eq == v || memchr(v, ':', (size_t)(eq - v)))
			goto out_drop_added;
		*items = xreallocarray(*items, *n + 1, sizeof(**items));
		e = &(*items)[(*n)++];
		*e = (struct scn_inventory_shard){ .ns = xstrdup(ns), .name = xstrdup(name),
						   .stage = xstrndup(v, (size_t)(eq - v)), .what = what };
		if (what == SCN_INV_SHARD) {
			char *end;
			long long entries;

			if (eq[1] == '0' && eq + 2 == stop) { /* "<stage>=0": the stage's shard is gone */
				v = comma ? comma + 1 : stop;
				if (comma && !*v)
					goto out_drop_added;
				continue;
			}
			if (!(eq[1] >= '1' && eq[1] <= '9'))
				goto out_drop_added;
			errno = 0;
			entries = strtoll(eq + 1, &end, 10);
			if (errno || (end != stop && *end != ':'))
				goto out_drop_added;
			e->entries = entries;
			if (*end == ':' && (!take_ids(e, end + 1, stop) || (long long)e->nids != entries))
				goto out_drop_added;
		} else if (what == SCN_INV_SURVIVOR) {
			if (!take_survivor(e, eq + 1, stop))
				goto out_drop_added;
		} else if (what == SCN_INV_RUNNING) {
			if (!take_running(e, eq + 1, stop))
				goto out_drop_added;
		} else {
			if (!take_ids(e, eq + 1, stop))
				goto out_drop_added;
			e->entries = (int64_t)e->nids;
		}
		v = comma ? comma + 1 : stop;
		if (comma && !*v)
			goto out_drop_added; /* a trailing comma */
	}
	return *n > n0;

out_drop_added:
	while (*n > n0)
		scnp_inventory_item_clear(&(*items)[--*n]);
	return false;
}

/*
 * take_armed() - the positions "<pos>[,<pos>...]" of Workspace @o into
 * s->armed, resolved to events by scnp_resolve_armed().  Returns false,
 * adding none, when @v is not that list.
 */
static bool take_armed(struct scenario *s, const struct obj *o, const char *v)
{
	size_t n0 = s->narmed;

	while (*v) {
		char *end;
		unsigned long long pos;

		if (!(*v >= '1' && *v <= '9'))
			goto out_drop_added;
		errno = 0;
		pos = strtoull(v, &end, 10);
		if (errno || (*end && *end != ',') || (*end && !end[1]))
			goto out_drop_added;
		s->armed = xreallocarray(s->armed, s->narmed + 1, sizeof(*s->armed));
		s->armed[s->narmed++] = (struct scn_armed){ xstrdup(o->ns), xstrdup(o->name), (size_t)pos,
							    SIZE_MAX, o->src.file, o->src.mark };
		v = *end ? end + 1 : end;
	}
	return s->narmed > n0;

out_drop_added:
	while (s->narmed > n0) {
		s->narmed--;
		free(s->armed[s->narmed].ns);
		free(s->armed[s->narmed].name);
	}
	return false;
}

void scnp_resolve_armed(struct scenario *s, struct diag *d)
{
	for (size_t i = 0; i < s->narmed; i++) {
		struct scn_armed *a = &s->armed[i];
		size_t k = s->nmevents;

		for (size_t j = 0; j < s->nmevents; j++)
			if (s->mevents[j].index + 1 == a->pos)
				k = j;
		if (k == s->nmevents ||
		    !(s->mevents[k].type == SCN_MEV_FAIL_NEXT || s->mevents[k].type == SCN_MEV_SUCCEED_NEXT ||
		      s->mevents[k].type == SCN_MEV_VIOLATE) ||
		    strcmp(s->mevents[k].target.ns, a->ns) != 0 || strcmp(s->mevents[k].target.name, a->name) != 0)
			diag_error(d, a->file, a->mark,
				   "Workspace \"%s/%s\": annotation %s names spec.events[%zu], which is no "
				   "failNext, succeedNext or violate event of this Workspace in the Scenario "
				   "document given: resume a snapshot with the Scenario document of its run",
				   a->ns, a->name, SCN_ARMED_ANNOTATION, a->pos - 1);
		else
			a->mevent = k;
	}
}

/*
 * The value most objects of a snapshot give an annotation that all must
 * agree on (ties: the first read), so a hand-edited object is the one
 * blamed, not the others.  Values are equal as times for the clock marks.
 */
struct agreed {
	const char *value; /* borrowed from an object's annotations; NULL: none carries it */
	size_t votes, carriers;
};

static bool same_value(const char *a, const char *b, bool as_time)
{
	int64_t x, y;

	if (as_time && gt_parse_rfc3339(a, &x, NULL, 0) == 0 && gt_parse_rfc3339(b, &y, NULL, 0) == 0)
		return x == y;
	return strcmp(a, b) == 0;
}

/* agreed_value() - what the objects of @s carrying annotation @key mostly say. */
static struct agreed agreed_value(const struct scenario *s, const char *key, bool as_time)
{
	struct agreed best = { NULL, 0, 0 };
	const char **seen = NULL;
	size_t nseen = 0;

	for (size_t i = 0; i < s->nobjs; i++) {
		const char *v = obj_strmap_get(&s->objs[i]->annotations, key);
		size_t votes = 0;
		bool counted = false;

		if (!v)
			continue;
		best.carriers++;
		for (size_t k = 0; k < nseen && !counted; k++)
			counted = same_value(seen[k], v, as_time);
		if (counted)
			continue;
		seen = xreallocarray(seen, nseen + 1, sizeof(*seen));
		seen[nseen++] = v;
		for (size_t j = i; j < s->nobjs; j++) {
			const char *w = obj_strmap_get(&s->objs[j]->annotations, key);

			votes += w && same_value(v, w, as_time);
		}
		if (votes > best.votes) {
			best.value = v;
			best.votes = votes;
		}
	}
	free(seen);
	return best;
}

/*
 * Refuses annotation @key='@value' of @o: it names another run than @a, what
 * most of the snapshot's objects say.
 */
static void other_run(const struct obj *o, const char *key, const char *value,
		      const struct agreed *a, struct diag *d)
{
	diag_error(d, o->src.file, o->src.mark,
		   "%s \"%s%s%s\": annotation %s='%s' names another run than %zu of the %zu "
		   "objects that carry it, which say '%s': a snapshot comes from one run",
		   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key, value, a->votes, a->carriers,
		   a->value);
}

/*
 * take_clock_mark() - time annotation @key = @value of @o into *@has /
 * *@ms (Unix ms), taken off @o.  A value that is no RFC 3339 time, or
 * another than @a (what most objects say), is an error at @o in @d.
 */
static void take_clock_mark(struct obj *o, const char *key, const char *value,
			    const struct agreed *a, bool *has, int64_t *ms, struct diag *d)
{
	int64_t t;

	if (gt_parse_rfc3339(value, &t, NULL, 0) != 0)
		diag_error(d, o->src.file, o->src.mark,
			   "%s \"%s%s%s\": annotation %s='%s' is not an RFC 3339 time",
			   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key, value);
	else if (!same_value(value, a->value, true))
		other_run(o, key, value, a, d);
	else {
		*has = true;
		*ms = t;
	}
	obj_strmap_del(&o->annotations, key);
}

/*
 * take_run_names() - SCN_SCENARIO_ANNOTATION and SCN_SEED_ANNOTATION of @o
 * into s->run_scenario / run_seed (the first object saying either is
 * s->run_file / run_mark), taken off @o.  A malformed seed, or a value
 * other than what most objects say (@name_a, @seed_a), is an error at @o.
 */
static void take_run_names(struct scenario *s, struct obj *o, const struct agreed *name_a,
			   const struct agreed *seed_a, struct diag *d)
{
	const char *name = obj_strmap_get(&o->annotations, SCN_SCENARIO_ANNOTATION);
	const char *seed = obj_strmap_get(&o->annotations, SCN_SEED_ANNOTATION);

	if (!name && !seed)
		return;
	if (!s->run_file && !s->run_scenario && !s->has_run_seed) {
		s->run_file = o->src.file;
		s->run_mark = o->src.mark;
	}
	if (name) {
		if (strcmp(name_a->value, name) != 0)
			other_run(o, SCN_SCENARIO_ANNOTATION, name, name_a, d);
		else if (!s->run_scenario)
			s->run_scenario = xstrdup(name);
		obj_strmap_del(&o->annotations, SCN_SCENARIO_ANNOTATION);
	}
	if (seed) {
		char *end;
		unsigned long long n;

		errno = 0;
		n = strtoull(seed, &end, 10);
		if (!(*seed >= '0' && *seed <= '9') || *end || errno)
			diag_error(d, o->src.file, o->src.mark,
				   "%s \"%s%s%s\": annotation %s='%s' is not a seed: a whole number "
				   "from 0 to 18446744073709551615",
				   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, SCN_SEED_ANNOTATION, seed);
		else if (strcmp(seed_a->value, seed) != 0)
			other_run(o, SCN_SEED_ANNOTATION, seed, seed_a, d);
		else {
			s->has_run_seed = true;
			s->run_seed = (uint64_t)n;
		}
		obj_strmap_del(&o->annotations, SCN_SEED_ANNOTATION);
	}
}

void scn_warn_other_run(const struct scenario *s, uint64_t seed, bool seed_given, struct diag *d)
{
	char was[320] = "", now[320] = "";
	bool other_scenario;

	if (s->has_origin && !s->has_run_seed && !s->has_scenario_doc && !seed_given) {
		diag_warning(d, s->run_file, s->run_mark,
			     "the snapshot does not say the seed of its run (no %s annotation) and "
			     "neither a Scenario document nor --seed gives one: this run uses seed %" PRIu64
			     ", which need not be the original run's",
			     SCN_SEED_ANNOTATION, seed);
	}
	if (!s->run_scenario && !s->has_run_seed)
		return;
	/* a run without a Scenario document names none (and writes only its seed) */
	other_scenario = s->run_scenario ? !s->has_scenario_doc || strcmp(s->run_scenario, s->name) != 0
					 : s->has_scenario_doc;
	if (!other_scenario && (!s->has_run_seed || s->run_seed == seed))
		return;
	if (s->run_scenario)
		snprintf(was, sizeof(was), "Scenario \"%s\"", s->run_scenario);
	else
		snprintf(was, sizeof(was), "no Scenario document");
	if (s->has_run_seed)
		snprintf(was + strlen(was), sizeof(was) - strlen(was), " (seed %" PRIu64 ")", s->run_seed);
	if (other_scenario && s->has_scenario_doc)
		snprintf(now, sizeof(now), "Scenario \"%s\"", s->name);
	else if (other_scenario)
		snprintf(now, sizeof(now), "no Scenario document");
	if (s->has_run_seed && s->run_seed != seed)
		snprintf(now + strlen(now), sizeof(now) - strlen(now), "%sseed %" PRIu64,
			 now[0] ? ", " : "", seed);
	diag_warning(d, s->run_file, s->run_mark,
		     "the snapshot comes from a run with %s; this run has %s: what happens after "
		     "the snapshot follows this run's %s, not the original run's (a warning only: "
		     "resuming with other models or draws on purpose is fine)",
		     was, now,
		     other_scenario && s->has_run_seed && s->run_seed != seed ? "events, models and draws"
		     : other_scenario ? "events and models" : "draws");
}

/*
 * take_job_start() - SCN_JOB_START_ANNOTATION @v of @o into s->job_starts.
 * It belongs on a Job whose status.startTime is the same instant in whole
 * seconds; anything else is an error at @o in @d.
 */
static void take_job_start(struct scenario *s, const struct obj *o, const char *v, struct diag *d)
{
	const char *st = strcmp(o->kind, "Job") == 0 ? val_str(val_map_get(o->status, "startTime"), NULL) : NULL;
	int64_t ms, stored;
	struct scn_job_start *e;

	if (!st || gt_parse_rfc3339(st, &stored, NULL, 0) != 0 || gt_parse_rfc3339(v, &ms, NULL, 0) != 0 ||
	    ms - stored < 0 || ms - stored >= 1000) {
		diag_error(d, o->src.file, o->src.mark,
			   "%s \"%s%s%s\": annotation %s='%s' is not the Job's status.startTime to "
			   "the millisecond: it belongs on a Job with a status.startTime, an RFC 3339 "
			   "time whose whole seconds are that startTime",
			   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, SCN_JOB_START_ANNOTATION, v);
		return;
	}
	s->job_starts = xreallocarray(s->job_starts, s->njob_starts + 1, sizeof(*s->job_starts));
	e = &s->job_starts[s->njob_starts++];
	e->ns = xstrdup(o->ns);
	e->name = xstrdup(o->name);
	e->start_unix_ms = ms;
}

bool scn_job_start(const struct scenario *s, const char *ns, const char *name, int64_t *unix_ms)
{
	for (size_t i = 0; i < s->njob_starts; i++)
		if (strcmp(s->job_starts[i].ns, ns) == 0 && strcmp(s->job_starts[i].name, name) == 0) {
			*unix_ms = s->job_starts[i].start_unix_ms;
			return true;
		}
	return false;
}

void scnp_take_run_marks(struct scenario *s, struct diag *d)
{
	size_t kept = 0;
	struct agreed origin_a = agreed_value(s, SCN_ORIGIN_ANNOTATION, true);
	struct agreed taken_a = agreed_value(s, SCN_TAKEN_ANNOTATION, true);
	struct agreed name_a = agreed_value(s, SCN_SCENARIO_ANNOTATION, false);
	struct agreed seed_a = agreed_value(s, SCN_SEED_ANNOTATION, false);
	/* the agreed values are the objects' own strings: copies, as those go */
	char *agreed_text[4] = { xstrdup(origin_a.value ? origin_a.value : ""),
				 xstrdup(taken_a.value ? taken_a.value : ""),
				 xstrdup(name_a.value ? name_a.value : ""),
				 xstrdup(seed_a.value ? seed_a.value : "") };

	origin_a.value = agreed_text[0];
	taken_a.value = agreed_text[1];
	name_a.value = agreed_text[2];
	seed_a.value = agreed_text[3];

	for (size_t i = 0; i < s->nobjs; i++) {
		struct obj *o = s->objs[i];
		const char *origin = obj_strmap_get(&o->annotations, SCN_ORIGIN_ANNOTATION);
		const char *version = obj_strmap_get(&o->annotations, SCN_SOURCE_ANNOTATION);
		const char *v;

		if (origin && !s->run_file) {
			/* where a snapshot of the simulator says its run, also one that names no seed */
			s->run_file = o->src.file;
			s->run_mark = o->src.mark;
		}
		if (origin)
			take_clock_mark(o, SCN_ORIGIN_ANNOTATION, origin, &origin_a, &s->has_origin,
					&s->origin_unix_ms, d);
		if ((v = obj_strmap_get(&o->annotations, SCN_TAKEN_ANNOTATION)))
			take_clock_mark(o, SCN_TAKEN_ANNOTATION, v, &taken_a, &s->has_taken,
					&s->taken_unix_ms, d);
		take_run_names(s, o, &name_a, &seed_a, d);
		if ((v = obj_strmap_get(&o->annotations, SCN_JOB_START_ANNOTATION))) {
			take_job_start(s, o, v, d);
			obj_strmap_del(&o->annotations, SCN_JOB_START_ANNOTATION);
		}
		if ((v = obj_strmap_get(&o->annotations, SCN_DRAWS_ANNOTATION))) {
			char *end;
			unsigned long long n;

			errno = 0;
			n = strtoull(v, &end, 10);
			if (strcmp(o->kind, "StageSet") != 0 || !(*v >= '1' && *v <= '9') || *end ||
			    errno || n > UINT32_MAX)
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation %s='%s' is not a count of the "
					   "StageSet controller's jittered requeues: a StageSet's, a whole "
					   "number from 1 to %" PRIu32,
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name,
					   SCN_DRAWS_ANNOTATION, v, UINT32_MAX);
			else {
				struct scn_draw_count *c;

				s->requeue_draws = xreallocarray(s->requeue_draws, s->nrequeue_draws + 1,
								 sizeof(*s->requeue_draws));
				c = &s->requeue_draws[s->nrequeue_draws++];
				c->ns = xstrdup(o->ns);
				c->name = xstrdup(o->name);
				c->n = (uint32_t)n;
			}
			obj_strmap_del(&o->annotations, SCN_DRAWS_ANNOTATION);
		}
		if ((v = obj_strmap_get(&o->annotations, SCN_INVENTORY_ANNOTATION))) {
			if (strcmp(o->kind, "StageSet") != 0 || !scnp_parse_inventory(o->ns, o->name, v, &s->shards, &s->nshards))
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation %s='%s' is not a StageSet's list of "
					   "StageInventory shards: expected '<stage>=<entries>[:<id>;...]', "
					   "'render:<stage>=<id>;...', 'live:<stage>=<id>;...', "
					   "'survivor:<stage>=<id>;<RFC 3339 time>;<pass exit>[;<RFC 3339 time>]' or "
					   "'running:<stage>=<revision>[;<version>]' "
					   "joined by ',', entries a whole number from 1 and as many IDs when listed",
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name,
					   SCN_INVENTORY_ANNOTATION, v);
			obj_strmap_del(&o->annotations, SCN_INVENTORY_ANNOTATION);
		}
		if ((v = obj_strmap_get(&o->annotations, SCN_ARMED_ANNOTATION))) {
			if (strcmp(o->kind, "Workspace") != 0 || !take_armed(s, o, v))
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation %s='%s' is not a list of armed model "
					   "events: expected the positions in spec.events (1, 2, ...) of "
					   "failNext, succeedNext or violate events naming this Workspace, "
					   "joined by ','",
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name,
					   SCN_ARMED_ANNOTATION, v);
			obj_strmap_del(&o->annotations, SCN_ARMED_ANNOTATION);
		}
		if (version && i < s->nobjs - s->ngenerated) {
			/* the world's, not the store's: it leaves the inputs */
			if (take_source(s, o, version, d)) {
				obj_free(o);
				continue;
			}
			obj_strmap_del(&o->annotations, SCN_SOURCE_ANNOTATION);
		}
		s->objs[kept++] = o;
	}
	s->nobjs = kept;
	for (size_t i = 0; i < 4; i++)
		free(agreed_text[i]);
	/* without a Scenario document to say it, the seed is the run's the snapshot names */
	if (!s->has_scenario_doc && s->has_run_seed)
		s->seed = s->run_seed;
}

void scnp_source_seeds_release(struct scenario *s)
{
	for (size_t i = 0; i < s->nsource_seeds; i++) {
		struct scn_source_seed *e = &s->source_seeds[i];

		free(e->kind);
		free(e->ns);
		free(e->name);
		free(e->revision);
		free(e->digest);
		free(e->path);
		free(e->url);
		free(e->version);
	}
	free(s->source_seeds);
	s->source_seeds = NULL;
	s->nsource_seeds = 0;
	for (size_t i = 0; i < s->njob_starts; i++) {
		free(s->job_starts[i].ns);
		free(s->job_starts[i].name);
	}
	free(s->job_starts);
	s->job_starts = NULL;
	s->njob_starts = 0;
	for (size_t i = 0; i < s->nrequeue_draws; i++) {
		free(s->requeue_draws[i].ns);
		free(s->requeue_draws[i].name);
	}
	free(s->requeue_draws);
	s->requeue_draws = NULL;
	s->nrequeue_draws = 0;
	for (size_t i = 0; i < s->nshards; i++)
		scnp_inventory_item_clear(&s->shards[i]);
	free(s->shards);
	s->shards = NULL;
	s->nshards = 0;
	for (size_t i = 0; i < s->narmed; i++) {
		free(s->armed[i].ns);
		free(s->armed[i].name);
	}
	free(s->armed);
	s->armed = NULL;
	s->narmed = 0;
}

/* ---------------------------------------------------------------- moving times */

/* @t moved by @delta; INT64_MAX (never, open-ended) and INT64_MIN stay where they are. */
static int64_t moved(int64_t t, int64_t delta)
{
	if (t == INT64_MAX || t == INT64_MIN)
		return t;
	return t + delta;
}

static void shift_windows(struct scn_sw_windows *w, int64_t delta)
{
	for (size_t i = 0; i < w->n; i++) {
		w->items[i].from_ms = moved(w->items[i].from_ms, delta);
		w->items[i].until_ms = moved(w->items[i].until_ms, delta);
	}
}

static void shift_behaviour(struct scn_sw_behaviour *b, int64_t delta)
{
	shift_windows(&b->apply.failure.during, delta);
	for (size_t i = 0; i < b->nactions; i++)
		shift_windows(&b->actions[i].failure.during, delta);
}

void scn_models_shift(struct scn_models *m, int64_t delta)
{
	struct scn_sw_config *c = &m->world;

	if (delta == 0)
		return;
	for (size_t i = 0; i < m->nrepos; i++)
		for (size_t k = 0; k < m->repos[i].nunreachable; k++) {
			struct scn_git_window *g = &m->repos[i].unreachable[k];

			g->from_ms = moved(g->from_ms, delta);
			g->until_ms = moved(g->until_ms, delta);
		}
	shift_behaviour(&c->top, delta);
	for (size_t i = 0; i < c->nrules; i++)
		shift_behaviour(&c->rules[i].b, delta);
	for (size_t i = 0; i < c->nanchors; i++) {
		c->anchors[i].gone_ms = moved(c->anchors[i].gone_ms, delta);
		c->anchors[i].recreated_ms = moved(c->anchors[i].recreated_ms, delta);
		shift_windows(&c->anchors[i].unreadable, delta);
	}
	for (size_t i = 0; i < c->nsources; i++) {
		struct scn_sw_source *e = &c->sources[i];

		shift_windows(&e->missing, delta);
		shift_windows(&e->not_ready, delta);
		shift_windows(&e->forbidden, delta);
		shift_windows(&e->fetch_errors, delta);
		shift_windows(&e->version_missing, delta);
		shift_windows(&e->version_empty, delta);
		for (size_t k = 0; k < e->nupdates; k++)
			e->updates[k].at_ms = moved(e->updates[k].at_ms, delta);
		if (e->has_gc)
			e->gc_ms = moved(e->gc_ms, delta);
	}
	shift_windows(&c->store.put_errors, delta);
	shift_windows(&c->store.get_errors, delta);
	shift_windows(&c->store.corrupt, delta);
	for (size_t i = 0; i < c->npods; i++) {
		for (size_t k = 0; k < c->pods[i].nrestarts; k++)
			c->pods[i].restarts[k].at_ms = moved(c->pods[i].restarts[k].at_ms, delta);
		for (size_t k = 0; k < c->pods[i].nwarnings; k++) {
			c->pods[i].warnings[k].at_ms = moved(c->pods[i].warnings[k].at_ms, delta);
			c->pods[i].warnings[k].until_ms = moved(c->pods[i].warnings[k].until_ms, delta);
		}
	}
	for (size_t i = 0; i < c->nlist_errors; i++) {
		c->list_errors[i].window.from_ms = moved(c->list_errors[i].window.from_ms, delta);
		c->list_errors[i].window.until_ms = moved(c->list_errors[i].window.until_ms, delta);
	}
	for (size_t i = 0; i < c->nread_errors; i++) {
		c->read_errors[i].window.from_ms = moved(c->read_errors[i].window.from_ms, delta);
		c->read_errors[i].window.until_ms = moved(c->read_errors[i].window.until_ms, delta);
	}
}

void scn_set_horizon(struct scenario *s, int64_t horizon_ms)
{
	/* as the Scenario would have given it: scn_resume_clock() takes the part before this run off */
	s->horizon_ms = horizon_ms;
	s->horizon_cut_ms = 0;
	scn_resume_clock(s);
}

void scn_resume_clock(struct scenario *s)
{
	bool resumed = s->has_origin && s->origin_unix_ms <= s->start_unix_ms;
	int64_t want = resumed ? s->start_unix_ms - s->origin_unix_ms : 0;
	int64_t delta = s->resumed_ms - want;

	for (size_t i = 0; i < s->nevents; i++) {
		s->events[i].at_ms += delta;
		s->events[i].done = resumed && s->events[i].at_ms <= 0;
	}
	for (size_t i = 0; i < s->nmevents; i++) {
		s->mevents[i].at_ms += delta;
		s->mevents[i].done = resumed && s->mevents[i].at_ms <= 0;
	}
	for (size_t i = 0; i < s->nfevents; i++) {
		s->fevents[i].at_ms += delta;
		s->fevents[i].done = resumed && s->fevents[i].at_ms <= 0;
	}
	for (size_t i = 0; i < s->nseries; i++) {
		s->series[i].offset_ms = want;
		shift_windows(&s->series[i].unavailable, delta);
	}
	scn_models_shift(&s->models, delta);
	{
		int64_t h = s->horizon_ms + s->horizon_cut_ms; /* as the Scenario gave it */

		s->horizon_ms = h - want >= 1 ? h - want : 1;
		s->horizon_cut_ms = h - s->horizon_ms;
	}
	s->resumed = resumed;
	s->resumed_ms = want;
}
