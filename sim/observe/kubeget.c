/* The cluster as kubectl and stagesetctl show it; see kubeget.h. */
#include "sim/observe/kubeget.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/fleet_view.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/strindex.h"
#include "sim/models/models.h"
#include "sim/models/stageset_world_sources.h"
#include "sim/wire/stageset_rc.h"
#include "sim/world/controllers.h"

/* ---------------------------------------------------------------- objects */

static int cmp_kv(const void *a, const void *b)
{
	return strcmp(((const struct val_kv *)a)->key, ((const struct val_kv *)b)->key);
}

/* sorted() - a deep copy of @v with every map's keys in byte order (Go's json and yaml sort them). */
static struct val *sorted(const struct val *v)
{
	struct val *c;

	if (!v)
		return val_new_null();
	if (v->type == VAL_LIST) {
		c = val_new_list();
		for (size_t i = 0; i < v->u.list.n; i++)
			val_list_push(c, sorted(v->u.list.items[i]));
		return c;
	}
	if (v->type != VAL_MAP)
		return val_copy(v);
	{
		struct val_kv *kv = xcalloc(v->u.map.n ? v->u.map.n : 1, sizeof(*kv));

		/* an empty map may have no items array: memcpy() wants one */
		if (v->u.map.n)
			memcpy(kv, v->u.map.items, v->u.map.n * sizeof(*kv));
		qsort(kv, v->u.map.n, sizeof(*kv), cmp_kv);
		c = val_new_map();
		for (size_t i = 0; i < v->u.map.n; i++)
			val_map_set(c, kv[i].key, sorted(kv[i].v));
		free(kv);
	}
	return c;
}

static struct val *strmap_val(const struct obj_strmap *m)
{
	struct val *v = val_new_map();

	/* obj_strmap keeps its keys sorted */
	for (size_t i = 0; i < m->n; i++)
		val_map_set(v, m->items[i].key, val_new_string(m->items[i].value));
	return v;
}

static struct val *time_val(int64_t anchor_unix_ms, int64_t t_ms)
{
	char buf[GT_RFC3339_BUFSZ];

	gt_format_rfc3339(anchor_unix_ms + t_ms, buf, sizeof(buf));
	return val_new_string(buf);
}

struct val *kg_object(const struct obj *o, int64_t anchor_unix_ms)
{
	struct val *v = val_new_map(), *md = val_new_map();
	char rv[32];
	const struct val *rest = o->rest;
	struct val *all;

	/* metadata, keys in sorted order */
	if (o->annotations.n)
		val_map_set(md, "annotations", strmap_val(&o->annotations));
	val_map_set(md, "creationTimestamp", time_val(anchor_unix_ms, o->creation_ms));
	if (o->deletion_ms >= 0)
		val_map_set(md, "deletionTimestamp", time_val(anchor_unix_ms, o->deletion_ms));
	if (o->nfinalizers) {
		struct val *f = val_new_list();

		for (size_t i = 0; i < o->nfinalizers; i++)
			val_list_push(f, val_new_string(o->finalizers[i]));
		val_map_set(md, "finalizers", f);
	}
	val_map_set(md, "generation", val_new_int(o->generation));
	if (o->labels.n)
		val_map_set(md, "labels", strmap_val(&o->labels));
	val_map_set(md, "name", val_new_string(o->name));
	if (o->ns[0])
		val_map_set(md, "namespace", val_new_string(o->ns));
	if (o->owner_refs)
		val_map_set(md, "ownerReferences", sorted(o->owner_refs));
	snprintf(rv, sizeof(rv), "%" PRIu64, o->resource_version);
	val_map_set(md, "resourceVersion", val_new_string(rv));
	val_map_set(md, "uid", val_new_string(o->uid ? o->uid : ""));

	/* the top level: the fixed keys and the kind's other fields, sorted together */
	all = val_new_map();
	val_map_set(all, "apiVersion", val_new_string(o->api_version));
	val_map_set(all, "kind", val_new_string(o->kind));
	val_map_set(all, "metadata", md);
	if (o->spec)
		val_map_set(all, "spec", val_copy(o->spec));
	if (o->status)
		val_map_set(all, "status", val_copy(o->status));
	for (size_t i = 0; rest && rest->type == VAL_MAP && i < rest->u.map.n; i++)
		val_map_set(all, rest->u.map.items[i].key, val_copy(rest->u.map.items[i].v));
	val_free(v);
	v = sorted(all);
	val_free(all);
	return v;
}

/* The order kinds are listed in: what others refer to first. */
static const char *const kind_order[] = {
	"Namespace",	 "Secret",	  "ValidatingPolicy", "Project",   "Rollout",
	"Workspace",	 "PersistentVolumeClaim", "Job",	      "GitRepository",
	"OCIRepository", "Bucket",	  "ExternalArtifact", "StageLedger", "StageSet",
	"FleetRollout",
};
#define NKIND_ORDER (sizeof(kind_order) / sizeof(kind_order[0]))

static size_t rank_of(const char *kind)
{
	for (size_t i = 0; i < NKIND_ORDER; i++)
		if (strcmp(kind_order[i], kind) == 0)
			return i;
	return NKIND_ORDER;
}

static int cmp_kind(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t rx = rank_of(x), ry = rank_of(y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x, y);
}

struct val *kg_list(struct api *api, int64_t anchor_unix_ms)
{
	struct val *l = val_new_map(), *md = val_new_map(), *items = val_new_list();
	const char **kinds;
	size_t nk = 0;
	struct api_list ol;

	while (api_kind_at(api, nk))
		nk++;
	kinds = xcalloc(nk ? nk : 1, sizeof(*kinds));
	for (size_t i = 0; i < nk; i++)
		kinds[i] = api_kind_at(api, i);
	qsort(kinds, nk, sizeof(*kinds), cmp_kind);
	api_list_init(&ol);
	for (size_t k = 0; k < nk; k++) {
		api_list(api, kinds[k], NULL, NULL, NULL, &ol);
		for (size_t i = 0; i < ol.n; i++)
			val_list_push(items, kg_object(ol.items[i], anchor_unix_ms));
	}
	api_list_release(&ol);
	free(kinds);
	val_map_set(l, "apiVersion", val_new_string("v1"));
	val_map_set(l, "items", items);
	val_map_set(l, "kind", val_new_string("List"));
	val_map_set(md, "resourceVersion", val_new_string(""));
	val_map_set(l, "metadata", md);
	return l;
}

/* ---------------------------------------------------------- work queues */

/* The queue annotations of the List's item @pos: a map of key → value, made on first use. */
static struct val *extra_of(struct val **extra, size_t pos)
{
	if (!extra[pos])
		extra[pos] = val_new_map();
	return extra[pos];
}

/*
 * Adds to @list's items the annotations SCN_QUEUE_PREFIX<controller> of every
 * controller of @w on the objects of its For() kind (see kubeget.h).
 */
static void annotate_queues(struct val *list, struct des *w, int64_t anchor_unix_ms,
			    int64_t now_ms)
{
	struct val *items = val_map_get(list, "items");
	size_t n = items->u.list.n, nctl;
	struct ctl *const *ctls;
	struct val **extra = xcalloc(n ? n : 1, sizeof(*extra));
	struct strindex idx = { 0 };

	for (size_t i = 0; i < n; i++) {
		const struct val *it = items->u.list.items[i];
		char *key = xasprintf("%s/%s/%s", val_str(val_map_get(it, "kind"), ""),
				      val_str(val_path(it, "metadata.namespace"), ""),
				      val_str(val_path(it, "metadata.name"), ""));

		si_put(&idx, key, i);
		free(key);
	}
	nctl = des_controllers(w, &ctls);
	for (size_t c = 0; c < nctl; c++) {
		const char *kind = ctl_for_kind(ctls[c]);
		char *ann = xasprintf("%s%s", SCN_QUEUE_PREFIX, ctl_name(ctls[c]));
		struct ctl_entry_info *e = NULL;
		size_t ne = ctl_entries(ctls[c], &e);

		/* every object of the kind: "none" unless it has an entry below */
		for (size_t i = 0; kind[0] && i < n; i++)
			if (strcmp(val_str(val_map_get(items->u.list.items[i], "kind"), ""), kind) == 0)
				val_map_set(extra_of(extra, i), ann, val_new_string("none"));
		/* what the controller keeps besides (ctl_state()) */
		for (size_t i = 0; kind[0] && i < n; i++) {
			const struct val *it = items->u.list.items[i];
			char *state;

			if (strcmp(val_str(val_map_get(it, "kind"), ""), kind) != 0)
				continue;
			state = ctl_state(ctls[c], val_str(val_path(it, "metadata.namespace"), ""),
					  val_str(val_path(it, "metadata.name"), ""), anchor_unix_ms);
			if (state) {
				char *sk = xasprintf("%s%s", SCN_STATE_PREFIX, ctl_name(ctls[c]));

				val_map_set(extra_of(extra, i), sk, val_new_string(state));
				free(sk);
				free(state);
			}
		}
		for (size_t k = 0; k < ne; k++) {
			char *key = xasprintf("%s/%s/%s", kind, e[k].ns, e[k].name);
			char when[GT_RFC3339_BUFSZ];
			size_t pos;

			if (si_get(&idx, key, &pos)) {
				char fails[32] = "", next[GT_RFC3339_BUFSZ + 48] = "";
				char *text;

				gt_format_rfc3339_nano(anchor_unix_ms + (e[k].ready_at_ms < 0 ?
									 now_ms : e[k].ready_at_ms),
						       when, sizeof(when));
				if (e[k].failures)
					snprintf(fails, sizeof(fails), " failures=%" PRIu32, e[k].failures);
				if (e[k].in_flight && e[k].queued)
					snprintf(next, sizeof(next), " next=%s nextPriority=%d", when,
						 e[k].priority);
				if (e[k].in_flight) {
					gt_format_rfc3339_nano(anchor_unix_ms + e[k].started_ms, when,
							       sizeof(when));
					text = xasprintf("started=%s priority=%d order=%zu%s%s", when,
							 e[k].pass_priority, k, fails, next);
				} else
					text = xasprintf("at=%s priority=%d order=%zu%s", when,
							 e[k].priority, k, fails);

				val_map_set(extra_of(extra, pos), ann, val_new_string(text));
				free(text);
			}
			free(key);
		}
		free(e);
		free(ann);
	}
	for (size_t i = 0; i < n; i++) {
		struct val *it = items->u.list.items[i], *md, *ann, *copy;

		if (!extra[i])
			continue;
		md = val_map_get(it, "metadata");
		ann = val_map_get(md, "annotations");
		if (!ann)
			ann = val_map_set(md, "annotations", val_new_map());
		for (size_t k = 0; k < extra[i]->u.map.n; k++)
			val_map_set(ann, extra[i]->u.map.items[k].key,
				    val_copy(extra[i]->u.map.items[k].v));
		val_free(extra[i]);
		/* keys sorted again, as kubectl prints them */
		copy = sorted(it);
		val_free(items->u.list.items[i]);
		items->u.list.items[i] = copy;
	}
	si_release(&idx);
	free(extra);
}

/* Sets annotation @key to @value on List item @pos of @items, its keys sorted again. */
static void annotate_item(struct val *items, size_t pos, const char *key, const char *value)
{
	struct val *it = items->u.list.items[pos], *md = val_map_get(it, "metadata");
	struct val *ann = val_map_get(md, "annotations");

	if (!ann)
		ann = val_map_set(md, "annotations", val_new_map());
	val_map_set(ann, key, val_new_string(value));
	items->u.list.items[pos] = sorted(it);
	val_free(it);
}

void kg_annotate(struct val *list, size_t pos, const char *key, const char *value)
{
	annotate_item(val_map_get(list, "items"), pos, key, value);
}

struct val *kg_snapshot(struct des *w, int64_t anchor_unix_ms, int64_t origin_unix_ms,
			const char *scenario, uint64_t seed, const struct mdl *models,
			const struct ssrc *ss)
{
	struct val *l = kg_list(des_api(w), anchor_unix_ms), *items;
	char origin[GT_RFC3339_BUFSZ], taken[GT_RFC3339_BUFSZ], seedtext[24];

	annotate_queues(l, w, anchor_unix_ms, des_now(w));
	items = val_map_get(l, "items");
	for (size_t i = 0; models && i < items->u.list.n; i++) {
		const struct val *it = items->u.list.items[i];
		char *armed, when[GT_RFC3339_BUFSZ];
		int64_t ms;

		if (strcmp(val_str(val_map_get(it, "kind"), ""), "Job") == 0 &&
		    mdl_job_start_time(models, val_str(val_path(it, "metadata.namespace"), ""),
				       val_str(val_path(it, "metadata.name"), ""), &ms)) {
			/* status.startTime holds whole seconds: the run counts from this instant */
			gt_format_rfc3339_nano(anchor_unix_ms + ms, when, sizeof(when));
			annotate_item(items, i, SCN_JOB_START_ANNOTATION, when);
			continue;
		}
		if (strcmp(val_str(val_map_get(it, "kind"), ""), "Workspace") != 0 ||
		    !(armed = mdl_armed_text(models, val_str(val_path(it, "metadata.namespace"), ""),
					     val_str(val_path(it, "metadata.name"), ""))))
			continue;
		annotate_item(items, i, SCN_ARMED_ANNOTATION, armed);
		free(armed);
	}
	if (ss) {
		const struct obj **objs;
		const char **versions;
		size_t n = sws_source_snapshot(ssrc_world(ss), des_now(w), &objs, &versions);
		size_t nstored = items->u.list.n;

		for (size_t i = 0; i < nstored; i++) {
			const struct val *it = items->u.list.items[i];
			const char *ns = val_str(val_path(it, "metadata.namespace"), "");
			const char *name = val_str(val_path(it, "metadata.name"), "");
			uint32_t k;
			char num[16], *inv;

			if (strcmp(val_str(val_map_get(it, "kind"), ""), "StageSet") != 0)
				continue;
			if ((k = ssrc_requeue_draws(ss, ns, name))) {
				snprintf(num, sizeof(num), "%" PRIu32, k);
				annotate_item(items, i, SCN_DRAWS_ANNOTATION, num);
			}
			/* (the item is replaced: ns and name are read again) */
			it = items->u.list.items[i];
			ns = val_str(val_path(it, "metadata.namespace"), "");
			name = val_str(val_path(it, "metadata.name"), "");
			if ((inv = ssrc_inventory_text(ss, ns, name))) {
				annotate_item(items, i, SCN_INVENTORY_ANNOTATION, inv);
				free(inv);
			}
		}
		for (size_t i = 0; i < n; i++) {
			val_list_push(items, kg_object(objs[i], anchor_unix_ms));
			annotate_item(items, items->u.list.n - 1, SCN_SOURCE_ANNOTATION, versions[i]);
		}
		free(objs);
		free(versions);
	}
	gt_format_rfc3339_nano(origin_unix_ms, origin, sizeof(origin));
	/* to the millisecond: a run of the snapshot starts at this instant */
	gt_format_rfc3339_nano(anchor_unix_ms + des_now(w), taken, sizeof(taken));
	snprintf(seedtext, sizeof(seedtext), "%" PRIu64, seed);
	for (size_t i = 0; i < items->u.list.n; i++) {
		annotate_item(items, i, SCN_ORIGIN_ANNOTATION, origin);
		annotate_item(items, i, SCN_TAKEN_ANNOTATION, taken);
		annotate_item(items, i, SCN_SEED_ANNOTATION, seedtext);
		if (scenario)
			annotate_item(items, i, SCN_SCENARIO_ANNOTATION, scenario);
	}
	return l;
}

/* ---------------------------------------------------------------- tables */

char *kg_human_duration(int64_t ms, char *buf, size_t len)
{
	int64_t seconds = ms / 1000, minutes = ms / 60000, hours = ms / 3600000;

	if (seconds < -1)
		snprintf(buf, len, "<invalid>");
	else if (seconds < 0 || ms < 0)
		snprintf(buf, len, "0s");
	else if (seconds < 60 * 2)
		snprintf(buf, len, "%" PRId64 "s", seconds);
	else if (minutes < 10 && seconds % 60)
		snprintf(buf, len, "%" PRId64 "m%" PRId64 "s", minutes, seconds % 60);
	else if (minutes < 60 * 3)
		snprintf(buf, len, "%" PRId64 "m", minutes);
	else if (hours < 8 && minutes % 60)
		snprintf(buf, len, "%" PRId64 "h%" PRId64 "m", hours, minutes % 60);
	else if (hours < 48)
		snprintf(buf, len, "%" PRId64 "h", hours);
	else if (hours < 24 * 8 && hours % 24)
		snprintf(buf, len, "%" PRId64 "d%" PRId64 "h", hours / 24, hours % 24);
	else if (hours < 24 * 365 * 2)
		snprintf(buf, len, "%" PRId64 "d", hours / 24);
	else if (hours < 24 * 365 * 8 && (hours / 24) % 365)
		snprintf(buf, len, "%" PRId64 "y%" PRId64 "d", hours / 24 / 365, (hours / 24) % 365);
	else
		snprintf(buf, len, "%" PRId64 "y", hours / 24 / 365);
	return buf;
}

/* A table being built: rows of cells, the first row the header. */
struct table {
	char ***rows; /* owned rows of ncols owned cells */
	size_t nrows, ncols;
};

static void row_add(struct table *t, char **cells)
{
	t->rows = xreallocarray(t->rows, t->nrows + 1, sizeof(*t->rows));
	t->rows[t->nrows++] = cells;
}

/* table_text() - appends @t to *@out as tabwriter(minwidth 10, padding 3) aligns it; frees @t. */
static void table_text(struct table *t, char **out, size_t *len)
{
	size_t *w = xcalloc(t->ncols, sizeof(*w));

	for (size_t c = 0; c + 1 < t->ncols; c++) {
		w[c] = 10;
		for (size_t r = 0; r < t->nrows; r++)
			if (strlen(t->rows[r][c]) + 3 > w[c])
				w[c] = strlen(t->rows[r][c]) + 3;
	}
	for (size_t r = 0; r < t->nrows; r++) {
		for (size_t c = 0; c < t->ncols; c++) {
			const char *cell = t->rows[r][c];
			size_t n = strlen(cell), pad = c + 1 < t->ncols ? w[c] - n : 0;

			*out = xrealloc(*out, *len + n + pad + 2);
			memcpy(*out + *len, cell, n);
			memset(*out + *len + n, ' ', pad);
			*len += n + pad;
			free(t->rows[r][c]);
		}
		/* tabwriter trims nothing: a trailing empty last cell leaves the padding before it */
		(*out)[(*len)++] = '\n';
		(*out)[*len] = '\0';
		free(t->rows[r]);
	}
	free(t->rows);
	free(w);
	t->rows = NULL;
	t->nrows = 0;
}

/* cell_of() - a CRD printer column's value: a string as is, a number as printed, else empty. */
static char *cell_of(const struct val *v)
{
	if (!v)
		return xstrdup("");
	switch (v->type) {
	case VAL_STRING:
		return xstrdup(v->u.s);
	case VAL_INT:
		return xasprintf("%" PRId64, v->u.i);
	case VAL_BOOL:
		return xstrdup(v->u.b ? "true" : "false");
	case VAL_FLOAT:
		return xasprintf("%g", v->u.f);
	case VAL_MAP: {
		/* fmt's %v of a map: map[k:v ...], keys sorted */
		char *s = xstrdup("map[");
		struct val *c = sorted(v);

		for (size_t i = 0; i < c->u.map.n; i++) {
			char *cv = cell_of(c->u.map.items[i].v);
			char *n = xasprintf("%s%s%s:%s", s, i ? " " : "", c->u.map.items[i].key, cv);

			free(cv);
			free(s);
			s = n;
		}
		val_free(c);
		{
			char *n = xasprintf("%s]", s);

			free(s);
			return n;
		}
	}
	default:
		return xstrdup("");
	}
}

/* The condition of @type in status.conditions, or NULL. */
static const struct val *condition(const struct obj *o, const char *type)
{
	const struct val *cs = val_map_get(o->status, "conditions");

	for (size_t i = 0; cs && cs->type == VAL_LIST && i < cs->u.list.n; i++)
		if (strcmp(val_str(val_map_get(cs->u.list.items[i], "type"), ""), type) == 0)
			return cs->u.list.items[i];
	return NULL;
}

static bool condition_true(const struct obj *o, const char *type)
{
	return strcmp(val_str(val_map_get(condition(o, type), "status"), ""), "True") == 0;
}

/* The wall time of @s in simulated ms, or false when it is no RFC 3339 time. */
static bool sim_time(const char *s, int64_t anchor_unix_ms, int64_t *ms)
{
	int64_t u;

	if (!s || gt_parse_rfc3339(s, &u, NULL, 0) != 0)
		return false;
	*ms = u - anchor_unix_ms;
	return true;
}

/* One kind's columns: the header and a function filling a row's middle cells. */
struct kind_cols {
	const char *kind, *resource; /* "Workspace", "workspaces.magosproject.io" */
	const char *const *headers;  /* the middle columns, NULL-terminated */
	void (*fill)(const struct obj *o, int64_t now_ms, int64_t anchor, char **cells);
};

static const char *const project_h[] = { "PHASE", NULL };
static void project_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	(void)now;
	(void)anchor;
	c[0] = cell_of(val_map_get(o->status, "phase"));
}

static const char *const rollout_h[] = { "PHASE", "PROJECT", "STEP", NULL };
static void rollout_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	(void)now;
	(void)anchor;
	c[0] = cell_of(val_map_get(o->status, "phase"));
	c[1] = cell_of(val_map_get(o->spec, "projectRef"));
	c[2] = cell_of(val_map_get(o->status, "currentStep"));
}

static const char *const workspace_h[] = { "PHASE", "PROJECT", "REVISION", NULL };
static void workspace_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	(void)now;
	(void)anchor;
	c[0] = cell_of(val_map_get(o->status, "phase"));
	c[1] = cell_of(val_path(o->spec, "projectRef.name"));
	c[2] = cell_of(val_map_get(o->status, "observedRevision"));
}

/* pkg/printers/internalversion printJob: STATUS, COMPLETIONS, DURATION. */
static const char *const job_h[] = { "STATUS", "COMPLETIONS", "DURATION", NULL };
static void job_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	int64_t start, end;
	char d[32];
	const struct val *comp = val_path(o->spec, "completions");

	if (condition_true(o, "Complete"))
		c[0] = xstrdup("Complete");
	else if (condition_true(o, "Failed"))
		c[0] = xstrdup("Failed");
	else if (o->deletion_ms >= 0)
		c[0] = xstrdup("Terminating");
	else if (condition_true(o, "Suspended"))
		c[0] = xstrdup("Suspended");
	else
		c[0] = xstrdup("Running");
	/* completions defaults to 1 when neither it nor parallelism is set */
	c[1] = xasprintf("%" PRId64 "/%" PRId64, val_int(val_map_get(o->status, "succeeded"), 0),
			 comp && comp->type == VAL_INT ? comp->u.i : 1);
	if (!sim_time(val_str(val_map_get(o->status, "startTime"), NULL), anchor, &start)) {
		c[2] = xstrdup("");
		return;
	}
	if (!sim_time(val_str(val_map_get(o->status, "completionTime"), NULL), anchor, &end))
		end = now;
	c[2] = xstrdup(kg_human_duration(end - start, d, sizeof(d)));
}

/*
 * pkg/printers/internalversion printPersistentVolumeClaim: STATUS (the
 * phase; Terminating while deleted), VOLUME (spec.volumeName), CAPACITY
 * (status.capacity.storage, only once a volume is named), ACCESS MODES
 * (status.accessModes as GetAccessModesAsString abbreviates them, in its
 * order), STORAGECLASS (spec.storageClassName).
 */
static const char *const pvc_h[] = { "STATUS", "VOLUME", "CAPACITY", "ACCESS MODES",
				     "STORAGECLASS", NULL };
static void pvc_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	static const char *const modes[][2] = { { "ReadWriteOnce", "RWO" },
						{ "ReadOnlyMany", "ROX" },
						{ "ReadWriteMany", "RWX" },
						{ "ReadWriteOncePod", "RWOP" } };
	const struct val *have = val_map_get(o->status, "accessModes");
	const char *volume = val_str(val_map_get(o->spec, "volumeName"), "");
	char *list = xstrdup(""), *next;

	(void)now;
	(void)anchor;
	c[0] = o->deletion_ms >= 0 ? xstrdup("Terminating") : cell_of(val_map_get(o->status, "phase"));
	c[1] = xstrdup(volume);
	c[2] = volume[0] ? cell_of(val_path(o->status, "capacity.storage")) : xstrdup("");
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++) {
		bool in = false;

		for (size_t i = 0; have && have->type == VAL_LIST && i < have->u.list.n && !in; i++)
			in = !strcmp(val_str(have->u.list.items[i], ""), modes[k][0]);
		if (!in)
			continue;
		next = xasprintf("%s%s%s", list, list[0] ? "," : "", modes[k][1]);
		free(list);
		list = next;
	}
	c[3] = list;
	c[4] = cell_of(val_map_get(o->spec, "storageClassName"));
}

static const char *const stageset_h[] = { "READY", "STATUS", NULL };
static void stageset_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	const struct val *ready = condition(o, "Ready");

	(void)now;
	(void)anchor;
	c[0] = cell_of(val_map_get(ready, "status"));
	c[1] = cell_of(val_map_get(ready, "message"));
}

static const char *const fleet_h[] = { "TARGET", "PHASE", "WAVE", NULL };
static void fleet_fill(const struct obj *o, int64_t now, int64_t anchor, char **c)
{
	(void)now;
	(void)anchor;
	c[0] = cell_of(val_map_get(o->spec, "targetVersion"));
	c[1] = cell_of(val_map_get(o->status, "phase"));
	c[2] = cell_of(val_map_get(o->status, "currentWave"));
}

static const struct kind_cols cols[] = {
	{ "Project", "projects.magosproject.io", project_h, project_fill },
	{ "Rollout", "rollouts.magosproject.io", rollout_h, rollout_fill },
	{ "Workspace", "workspaces.magosproject.io", workspace_h, workspace_fill },
	{ "Job", "jobs", job_h, job_fill },
	{ "PersistentVolumeClaim", "pvc", pvc_h, pvc_fill },
	{ "StageSet", "stagesets.stages.metio.wtf", stageset_h, stageset_fill },
	{ "FleetRollout", "fleetrollouts.stages.metio.wtf", fleet_h, fleet_fill },
};

static void append(char **out, size_t *len, const char *s)
{
	size_t n = strlen(s);

	*out = xrealloc(*out, *len + n + 1);
	memcpy(*out + *len, s, n + 1);
	*len += n;
}

char *kg_append_table(char *text, const char *title, const char *const *headers, char ***rows, size_t nrows)
{
	struct table t = { 0 };
	size_t len = strlen(text);
	char **h, *line;

	while (headers[t.ncols])
		t.ncols++;
	h = xcalloc(t.ncols, sizeof(*h));
	for (size_t c = 0; c < t.ncols; c++)
		h[c] = xstrdup(headers[c]);
	row_add(&t, h);
	for (size_t r = 0; r < nrows; r++)
		row_add(&t, rows[r]);
	free(rows);
	line = xasprintf("%s%s\n", len ? "\n" : "", title);
	append(&text, &len, line);
	free(line);
	table_text(&t, &text, &len);
	return text;
}

char *kg_tables(struct api *api, int64_t now_ms, int64_t anchor_unix_ms)
{
	char *out = xstrdup("");
	size_t len = 0;
	struct api_list l;
	bool any = false;

	api_list_init(&l);
	for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
		const struct kind_cols *kc = &cols[k];
		struct table t = { 0 };
		size_t nmid = 0, col;
		bool namespaced;
		char **h, line[128], age[32];

		if (!api_list(api, kc->kind, NULL, NULL, NULL, &l))
			continue;
		namespaced = l.items[0]->ns[0] != '\0';
		while (kc->headers[nmid])
			nmid++;
		t.ncols = (namespaced ? 1 : 0) + 1 + nmid + 1;
		h = xcalloc(t.ncols, sizeof(*h));
		col = 0;
		if (namespaced)
			h[col++] = xstrdup("NAMESPACE");
		h[col++] = xstrdup("NAME");
		for (size_t i = 0; i < nmid; i++)
			h[col++] = xstrdup(kc->headers[i]);
		h[col] = xstrdup("AGE");
		row_add(&t, h);
		for (size_t i = 0; i < l.n; i++) {
			const struct obj *o = l.items[i];
			char **r = xcalloc(t.ncols, sizeof(*r));

			col = 0;
			if (namespaced)
				r[col++] = xstrdup(o->ns);
			r[col++] = xstrdup(o->name);
			kc->fill(o, now_ms, anchor_unix_ms, r + col);
			r[t.ncols - 1] = xstrdup(kg_human_duration(now_ms - o->creation_ms, age, sizeof(age)));
			row_add(&t, r);
		}
		snprintf(line, sizeof(line), "%s$ kubectl get %s%s\n", any ? "\n" : "", kc->resource,
			 namespaced ? " -A" : "");
		append(&out, &len, line);
		table_text(&t, &out, &len);
		any = true;
	}
	/* the fleet view of each FleetRollout, over every StageSet and Namespace */
	if (api_list(api, "FleetRollout", NULL, NULL, NULL, &l)) {
		struct api_list ss, ns;
		const struct obj **frs = xcalloc(l.n, sizeof(*frs));
		size_t nfr = l.n;

		memcpy(frs, l.items, l.n * sizeof(*frs));
		api_list_init(&ss);
		api_list_init(&ns);
		api_list(api, "StageSet", NULL, NULL, NULL, &ss);
		api_list(api, "Namespace", NULL, NULL, NULL, &ns);
		for (size_t i = 0; i < nfr; i++) {
			char *view = fv_write_fleet_view(frs[i], ss.items, ss.n, ns.items, ns.n);
			char *head = xasprintf("\n$ stagesetctl fleet %s\n", frs[i]->name);

			append(&out, &len, head);
			append(&out, &len, view);
			if (len && out[len - 1] != '\n')
				append(&out, &len, "\n");
			free(head);
			free(view);
		}
		api_list_release(&ss);
		api_list_release(&ns);
		free(frs);
	}
	api_list_release(&l);
	if (!any)
		append(&out, &len, "No resources found\n");
	return out;
}
