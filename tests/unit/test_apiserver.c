#include <stdio.h>
/* Unit tests for sim/cluster/apiserver: store semantics, watch events, snapshots, timeline entries. */
#include <string.h>

#include "engine/objects.h"
#include "engine/value.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

#define MAXEV 64

struct seen {
	int n;
	enum api_event_type type[MAXEV];
	uint64_t old_rv[MAXEV]; /* 0 when no old */
	uint64_t new_rv[MAXEV];
	char name[MAXEV][32];
};

static void record_event(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new)
{
	struct seen *s = ctx;

	CU_ASSERT_FATAL(s->n < MAXEV);
	s->type[s->n] = type;
	s->old_rv[s->n] = old ? old->resource_version : 0;
	s->new_rv[s->n] = new->resource_version;
	strncpy(s->name[s->n], new->name, sizeof(s->name[0]) - 1);
	s->n++;
}

static struct val *status_phase(const char *phase)
{
	struct val *s = val_new_map();

	val_map_set(s, "phase", val_new_string(phase));
	return s;
}

static struct obj *copy_of(struct api *a, const char *ns, const char *name)
{
	const struct obj *c = api_get(a, "Workspace", ns, name);

	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	return obj_copy(c);
}

static void test_create_get(void)
{
	struct tl *tl = tl_new();
	struct api *a = api_new(tl);
	struct seen s = { 0 };
	const struct obj *o;
	struct tl_entry e;

	api_watch(a, "Workspace", record_event, &s);
	api_set_now(a, 2500);
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "a", "p")), 0);
	o = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_EQUAL(o->generation, 1);
	CU_ASSERT_EQUAL(o->resource_version, 1);
	CU_ASSERT_EQUAL(o->creation_ms, 2000); /* metav1.Time: whole seconds */
	CU_ASSERT_EQUAL(o->deletion_ms, -1);
	CU_ASSERT_STRING_EQUAL(o->uid, "00000000-0000-4000-8000-000000000001");
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "projectRef.name"), ""), "p");
	CU_ASSERT_PTR_NULL(api_get(a, "Workspace", "other", "a"));
	CU_ASSERT_PTR_NULL(api_get(a, "Rollout", "default", "a"));

	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "a", "q")), API_EALREADYEXISTS);
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "", "q")), API_EINVALID);
	CU_ASSERT_EQUAL(api_resource_version(a), 1);
	CU_ASSERT_EQUAL(s.n, 1);
	CU_ASSERT_EQUAL(s.type[0], API_ADDED);
	CU_ASSERT_EQUAL(tl_count(tl), 1);
	tl_get(tl, 0, &e);
	CU_ASSERT_EQUAL(e.change, TL_CREATED);
	CU_ASSERT_EQUAL(e.t_ms, 2500);
	CU_ASSERT_STRING_EQUAL(e.name, "a");
	CU_ASSERT_STRING_EQUAL(api_strerror(API_ECONFLICT), "Conflict");
	CU_ASSERT_STRING_EQUAL(api_strerror(API_ENOTFOUND), "NotFound");
	api_free(a);
	tl_free(tl);
}

static void test_noop_writes_emit_nothing(void)
{
	struct tl *tl = tl_new();
	struct api *a = api_new(tl);
	struct seen s = { 0 };
	struct obj *o;
	struct val *patch;

	api_watch(a, "Workspace", record_event, &s);
	o = fx_ws_ref("default", "a", "p");
	o->status = status_phase("Pending");
	obj_strmap_set(&o->annotations, "k", "v");
	CU_ASSERT_EQUAL(api_create(a, o), 0);
	s.n = 0;

	CU_ASSERT_EQUAL(api_update(a, copy_of(a, "default", "a")), 0);
	o = copy_of(a, "default", "a");
	val_free(o->status);
	o->status = status_phase("Pending");
	CU_ASSERT_EQUAL(api_update_status(a, o), 0);
	CU_ASSERT_EQUAL(api_set_annotation(a, "Workspace", "default", "a", "k", "v"), 0);
	CU_ASSERT_EQUAL(api_set_label(a, "Workspace", "default", "a", "absent", NULL), 0);
	patch = val_new_map();
	val_map_set(patch, "phase", val_new_string("Pending"));
	CU_ASSERT_EQUAL(api_patch_status(a, "Workspace", "default", "a", patch), 0);
	val_free(patch);
	patch = val_new_map();
	val_map_set(patch, "annotations", val_new_map());
	val_map_set(val_map_get(patch, "annotations"), "k", val_new_string("v"));
	CU_ASSERT_EQUAL(api_patch_meta(a, "Workspace", "default", "a", patch), 0);
	val_free(patch);

	CU_ASSERT_EQUAL(s.n, 0);
	CU_ASSERT_EQUAL(tl_count(tl), 1);
	CU_ASSERT_EQUAL(api_resource_version(a), 1);
	CU_ASSERT_EQUAL(api_get(a, "Workspace", "default", "a")->resource_version, 1);
	api_free(a);
	tl_free(tl);
}

static void test_generation_only_on_spec(void)
{
	struct tl *tl = tl_new();
	struct api *a = api_new(tl);
	struct obj *o;
	const struct obj *c;
	struct tl_entry e;

	api_create(a, fx_ws_ref("default", "a", "p"));
	/* labels: rv moves, generation does not */
	o = copy_of(a, "default", "a");
	obj_strmap_set(&o->labels, "env", "dev");
	CU_ASSERT_EQUAL(api_update(a, o), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_EQUAL(c->generation, 1);
	CU_ASSERT_EQUAL(c->resource_version, 2);
	/* status: same */
	o = copy_of(a, "default", "a");
	o->status = status_phase("Planning");
	CU_ASSERT_EQUAL(api_update_status(a, o), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_EQUAL(c->generation, 1);
	CU_ASSERT_EQUAL(c->resource_version, 3);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c->status, "phase"), ""), "Planning");
	/* annotation patch: same */
	CU_ASSERT_EQUAL(api_set_annotation(a, "Workspace", "default", "a", "x", "1"), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_EQUAL(c->generation, 1);
	CU_ASSERT_EQUAL(c->resource_version, 4);
	/* spec: generation 2; status kept */
	o = copy_of(a, "default", "a");
	val_map_set(o->spec, "autoApply", val_new_bool(true));
	obj_strmap_set(&o->labels, "env", "prod");
	CU_ASSERT_EQUAL(api_update(a, o), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_EQUAL(c->generation, 2);
	CU_ASSERT_EQUAL(c->resource_version, 5);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(c->status, "phase"), ""), "Planning");
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&c->labels, "env"), "prod");

	CU_ASSERT_EQUAL(tl_count(tl), 5);
	tl_get(tl, 1, &e);
	CU_ASSERT_EQUAL(e.change, TL_UPDATED);
	CU_ASSERT_STRING_EQUAL(e.detail, "labels: +env=dev");
	tl_get(tl, 2, &e);
	CU_ASSERT_EQUAL(e.change, TL_STATUS);
	CU_ASSERT_STRING_EQUAL(e.detail, "status: phase \xe2\x86\x92Planning");
	CU_ASSERT_STRING_EQUAL(e.phase, "Planning");
	tl_get(tl, 3, &e);
	CU_ASSERT_STRING_EQUAL(e.detail, "annotations: +x=1");
	tl_get(tl, 4, &e);
	CU_ASSERT_STRING_EQUAL(e.detail, "labels: env=dev\xe2\x86\x92prod; spec (generation 2)");
	CU_ASSERT_EQUAL(e.generation, 2);
	CU_ASSERT_EQUAL(e.resource_version, 5);
	api_free(a);
	tl_free(tl);
}

static void test_conflict_and_subresources(void)
{
	struct api *a = api_new(NULL);
	struct obj *o, *stale;
	const struct obj *c;

	api_create(a, fx_ws_ref("default", "a", "p"));
	stale = copy_of(a, "default", "a");
	CU_ASSERT_EQUAL(api_set_label(a, "Workspace", "default", "a", "l", "1"), 0);
	/* stale resourceVersion: Conflict, nothing written */
	val_map_set(stale->spec, "autoApply", val_new_bool(true));
	CU_ASSERT_EQUAL(api_update(a, stale), API_ECONFLICT);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_EQUAL(c->generation, 1);
	CU_ASSERT_EQUAL(c->resource_version, 2);
	stale = obj_copy(c);
	stale->resource_version = 1;
	stale->status = status_phase("X");
	CU_ASSERT_EQUAL(api_update_status(a, stale), API_ECONFLICT);
	/* resourceVersion 0: unconditional */
	o = copy_of(a, "default", "a");
	o->resource_version = 0;
	val_map_set(o->spec, "autoApply", val_new_bool(true));
	CU_ASSERT_EQUAL(api_update(a, o), 0);
	CU_ASSERT_EQUAL(api_get(a, "Workspace", "default", "a")->generation, 2);
	/* the main resource ignores status; /status ignores everything else */
	o = copy_of(a, "default", "a");
	o->status = status_phase("Ignored");
	CU_ASSERT_EQUAL(api_update(a, o), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_PTR_NULL(c->status);
	CU_ASSERT_EQUAL(c->resource_version, 3);
	o = copy_of(a, "default", "a");
	o->status = status_phase("Applied");
	obj_strmap_set(&o->labels, "ignored", "yes");
	val_map_set(o->spec, "ignored", val_new_bool(true));
	CU_ASSERT_EQUAL(api_update_status(a, o), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_PTR_NULL(obj_strmap_get(&c->labels, "ignored"));
	CU_ASSERT_PTR_NULL(val_map_get(c->spec, "ignored"));
	CU_ASSERT_EQUAL(c->generation, 2);
	CU_ASSERT_EQUAL(c->resource_version, 4);
	/* not found */
	CU_ASSERT_EQUAL(api_update(a, fx_ws_ref("default", "zz", "p")), API_ENOTFOUND);
	CU_ASSERT_EQUAL(api_set_annotation(a, "Workspace", "default", "zz", "k", "v"), API_ENOTFOUND);
	CU_ASSERT_EQUAL(api_delete(a, "Workspace", "default", "zz"), API_ENOTFOUND);
	api_free(a);
}

static void test_finalizer_deletion_flow(void)
{
	struct tl *tl = tl_new();
	struct api *a = api_new(tl);
	struct seen s = { 0 };
	struct obj *o;
	struct val *patch;
	const struct obj *c;
	struct tl_entry e;

	api_watch(a, "Workspace", record_event, &s);
	o = fx_ws_ref("default", "a", "p");
	obj_add_finalizer(o, "magosproject.io/cleanup");
	api_create(a, o);
	api_set_now(a, 7300);
	CU_ASSERT_EQUAL(api_delete(a, "Workspace", "default", "a"), 0);
	c = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->deletion_ms, 7000);
	CU_ASSERT_EQUAL(c->resource_version, 2);
	CU_ASSERT_EQUAL(c->generation, 2); /* BeforeDelete bumps it with the deletionTimestamp */
	CU_ASSERT_EQUAL(api_delete(a, "Workspace", "default", "a"), 0); /* again: no-op */
	CU_ASSERT_EQUAL(api_resource_version(a), 2);
	/* no new finalizer while deleting */
	o = copy_of(a, "default", "a");
	obj_add_finalizer(o, "other");
	CU_ASSERT_EQUAL(api_update(a, o), API_EINVALID);
	/* removing the last finalizer deletes it */
	patch = val_new_map();
	val_map_set(patch, "finalizers", val_new_null());
	api_set_now(a, 9000);
	CU_ASSERT_EQUAL(api_patch_meta(a, "Workspace", "default", "a", patch), 0);
	val_free(patch);
	CU_ASSERT_PTR_NULL(api_get(a, "Workspace", "default", "a"));
	CU_ASSERT_EQUAL(api_count(a, "Workspace"), 0);

	CU_ASSERT_EQUAL(s.n, 3);
	CU_ASSERT_EQUAL(s.type[0], API_ADDED);
	CU_ASSERT_EQUAL(s.type[1], API_MODIFIED);
	CU_ASSERT_EQUAL(s.old_rv[1], 1);
	CU_ASSERT_EQUAL(s.new_rv[1], 2);
	CU_ASSERT_EQUAL(s.type[2], API_DELETED);
	CU_ASSERT_EQUAL(s.new_rv[2], 3);
	CU_ASSERT_EQUAL(tl_count(tl), 3);
	tl_get(tl, 1, &e);
	CU_ASSERT_EQUAL(e.change, TL_DELETING);
	CU_ASSERT_EQUAL(e.t_ms, 7300);
	tl_get(tl, 2, &e);
	CU_ASSERT_EQUAL(e.change, TL_DELETED);
	CU_ASSERT_EQUAL(e.t_ms, 9000);

	/* without finalizers: gone at once; the key can be reused */
	api_create(a, fx_ws_ref("default", "b", "p"));
	CU_ASSERT_EQUAL(api_delete(a, "Workspace", "default", "b"), 0);
	CU_ASSERT_PTR_NULL(api_get(a, "Workspace", "default", "b"));
	CU_ASSERT_EQUAL(s.type[s.n - 1], API_DELETED);
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "b", "p")), 0);
	CU_ASSERT_EQUAL(api_count(a, NULL), 1);
	api_free(a);
	tl_free(tl);
}

static bool name_has_x(const struct obj *o, void *ctx)
{
	(void)ctx;
	return strchr(o->name, 'x') != NULL;
}

static void test_list_order(void)
{
	struct api *a = api_new(NULL);
	struct api_list l;
	static const char *keys[][2] = { { "prod", "b" }, { "dev", "zx" }, { "prod", "a" },
					 { "dev", "a" }, { "qa", "x" }, { "dev", "m" } };

	api_list_init(&l);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		api_create(a, fx_ws_ref(keys[i][0], keys[i][1], "p"));
	CU_ASSERT_EQUAL(api_list(a, "Workspace", NULL, NULL, NULL, &l), 6);
	CU_ASSERT_STRING_EQUAL(l.items[0]->ns, "dev");
	CU_ASSERT_STRING_EQUAL(l.items[0]->name, "a");
	CU_ASSERT_STRING_EQUAL(l.items[1]->name, "m");
	CU_ASSERT_STRING_EQUAL(l.items[2]->name, "zx");
	CU_ASSERT_STRING_EQUAL(l.items[3]->ns, "prod");
	CU_ASSERT_STRING_EQUAL(l.items[3]->name, "a");
	CU_ASSERT_STRING_EQUAL(l.items[4]->name, "b");
	CU_ASSERT_STRING_EQUAL(l.items[5]->ns, "qa");
	CU_ASSERT_EQUAL(api_list(a, "Workspace", "prod", NULL, NULL, &l), 2);
	CU_ASSERT_STRING_EQUAL(l.items[0]->name, "a");
	CU_ASSERT_STRING_EQUAL(l.items[1]->name, "b");
	CU_ASSERT_EQUAL(api_list(a, "Workspace", "nope", NULL, NULL, &l), 0);
	CU_ASSERT_EQUAL(api_list(a, "Workspace", NULL, name_has_x, NULL, &l), 2);
	CU_ASSERT_STRING_EQUAL(l.items[0]->name, "zx");
	CU_ASSERT_STRING_EQUAL(l.items[1]->name, "x");
	api_delete(a, "Workspace", "dev", "m");
	api_create(a, fx_ws_ref("dev", "c", "p"));
	CU_ASSERT_EQUAL(api_list(a, "Workspace", "dev", NULL, NULL, &l), 3);
	CU_ASSERT_STRING_EQUAL(l.items[0]->name, "a");
	CU_ASSERT_STRING_EQUAL(l.items[1]->name, "c");
	CU_ASSERT_STRING_EQUAL(l.items[2]->name, "zx");
	CU_ASSERT_EQUAL(api_list(a, "Rollout", NULL, NULL, NULL, &l), 0);
	api_list_release(&l);
	api_free(a);
}

/* Keeps objects whose name does not end in '7'. */
static bool not_seven(const struct obj *o, void *ctx)
{
	(void)ctx;
	return o->name[strlen(o->name) - 1] != '7';
}

/*
 * api_list_prefix() over a store that keeps changing: random creations,
 * deletions and recreations in two namespaces, with lists by prefix in
 * between (objects appended since the last full sort are scanned, not
 * merged in, until there are too many) and an occasional full list (which
 * sorts); each answer is compared with a model of the live names, in
 * name order.
 */
static void test_list_prefix_while_creating(void)
{
	enum { NAMES = 600 };
	static const char *const nss[] = { "a", "b" };
	struct api *a = api_new(NULL);
	struct api_list l;
	bool alive[2][NAMES] = { { false } };
	uint64_t x = 88172645463325252ULL;

	api_list_init(&l);
	for (int step = 0; step < 6000; step++) {
		int ns, k, op;
		char name[16], prefix[16];

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		ns = (int)(x % 2);
		k = (int)((x >> 8) % NAMES);
		op = (int)((x >> 24) % 100);
		snprintf(name, sizeof name, "w%03d", k);
		if (op < 55) {
			CU_ASSERT_EQUAL(api_create(a, fx_ws_ref(nss[ns], name, "p")),
					alive[ns][k] ? API_EALREADYEXISTS : 0);
			alive[ns][k] = true;
		} else if (op < 70) {
			CU_ASSERT_EQUAL(api_delete(a, "Workspace", nss[ns], name),
					alive[ns][k] ? 0 : API_ENOTFOUND);
			alive[ns][k] = false;
		} else if (op < 71) {
			api_list(a, "Workspace", NULL, NULL, NULL, &l);
		} else {
			size_t want = 0;
			bool ok = true;
			int lo = (k / 10) * 10, hi = lo + 10;

			snprintf(prefix, sizeof prefix, "w%02d", k / 10);
			if (op >= 95) { /* a wider prefix: "w0", "w1", ... */
				snprintf(prefix, sizeof prefix, "w%d", k / 100);
				lo = (k / 100) * 100;
				hi = lo + 100;
			}
			api_list_prefix(a, "Workspace", nss[ns], prefix, not_seven, NULL, &l);
			for (int i = lo; i < hi && ok; i++) {
				char w[16];

				if (!alive[ns][i] || i % 10 == 7)
					continue;
				snprintf(w, sizeof w, "w%03d", i);
				ok = want < l.n && strcmp(l.items[want]->name, w) == 0 &&
				     strcmp(l.items[want]->ns, nss[ns]) == 0;
				want++;
			}
			CU_ASSERT_TRUE(ok && want == l.n);
			if (!(ok && want == l.n))
				fprintf(stderr, "\n  step %d: prefix %s/%s: %zu listed, %zu expected\n",
					step, nss[ns], prefix, l.n, want);
		}
	}
	api_list_release(&l);
	api_free(a);
}

/* A sink that keeps events (with their references) to deliver later. */
struct held {
	struct api_event ev[MAXEV];
	int n;
};

static void hold(void *ctx, const struct api_event *ev)
{
	struct held *h = ctx;

	CU_ASSERT_FATAL(h->n < MAXEV);
	h->ev[h->n++] = *ev;
}

static void test_snapshots_outlive_writes(void)
{
	struct api *a = api_new(NULL);
	struct held h = { .n = 0 };
	struct seen s = { 0 };
	struct obj *o;

	api_set_sink(a, hold, &h);
	api_watch(a, "Workspace", record_event, &s);
	o = fx_ws_ref("default", "a", "p");
	o->status = status_phase("Pending");
	api_create(a, o);
	for (int i = 0; i < 3; i++) {
		static const char *phases[] = { "Planning", "Applying", "Applied" };
		struct val *p = val_new_map();

		val_map_set(p, "phase", val_new_string(phases[i]));
		api_patch_status(a, "Workspace", "default", "a", p);
		val_free(p);
	}
	api_delete(a, "Workspace", "default", "a");
	CU_ASSERT_EQUAL(h.n, 5);
	CU_ASSERT_EQUAL(s.n, 0); /* nothing delivered yet */
	/* every version is intact after the object is gone */
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(api_snap_obj(h.ev[1].old)->status, "phase"), ""),
			       "Pending");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(api_snap_obj(h.ev[1].new)->status, "phase"), ""),
			       "Planning");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(api_snap_obj(h.ev[3].new)->status, "phase"), ""),
			       "Applied");
	/* unchanged spec is shared between versions, not copied */
	CU_ASSERT_PTR_EQUAL(api_snap_obj(h.ev[1].old)->spec, api_snap_obj(h.ev[3].new)->spec);
	CU_ASSERT_PTR_EQUAL(api_snap_obj(h.ev[4].new)->status, api_snap_obj(h.ev[3].new)->status);
	/* a status write shares the metadata strings of the version it replaces */
	CU_ASSERT_PTR_EQUAL(api_snap_obj(h.ev[3].new)->name, api_snap_obj(h.ev[0].new)->name);
	CU_ASSERT_EQUAL(api_snap_obj(h.ev[3].new)->resource_version, 4);
	CU_ASSERT_EQUAL(api_snap_obj(h.ev[0].new)->resource_version, 1);
	CU_ASSERT_EQUAL(api_snap_obj(h.ev[4].new)->resource_version, 5);
	for (int i = 0; i < h.n; i++) {
		api_dispatch(a, &h.ev[i]);
		api_snap_release(h.ev[i].old);
		api_snap_release(h.ev[i].new);
	}
	CU_ASSERT_EQUAL(s.n, 5);
	CU_ASSERT_EQUAL(s.type[4], API_DELETED);
	CU_ASSERT_EQUAL(s.old_rv[2], 2);
	CU_ASSERT_EQUAL(s.new_rv[2], 3);
	api_free(a);
}

static void test_reason_message_sources(void)
{
	struct tl *tl = tl_new();
	struct api *a = api_new(tl);
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", "team", "svc");
	struct val *conds = val_new_list(), *ready = val_new_map();
	struct tl_entry e;

	o->status = val_new_map();
	val_map_set(o->status, "reason", val_new_string("NotThis"));
	val_map_set(ready, "type", val_new_string("Ready"));
	val_map_set(ready, "reason", val_new_string("Deployed"));
	val_map_set(ready, "message", val_new_string("version 1.2 deployed"));
	val_list_push(conds, ready);
	val_map_set(o->status, "conditions", conds);
	api_create(a, o);
	o = fx_ws_ref("default", "w", "p");
	o->status = status_phase("Failed");
	val_map_set(o->status, "reason", val_new_string("ApplyFailed"));
	val_map_set(o->status, "message", val_new_string("exit 1"));
	api_create(a, o);
	tl_get(tl, 0, &e);
	CU_ASSERT_STRING_EQUAL(e.reason, "Deployed");
	CU_ASSERT_STRING_EQUAL(e.message, "version 1.2 deployed");
	CU_ASSERT_PTR_NULL(e.phase);
	tl_get(tl, 1, &e);
	CU_ASSERT_STRING_EQUAL(e.phase, "Failed");
	CU_ASSERT_STRING_EQUAL(e.reason, "ApplyFailed");
	CU_ASSERT_STRING_EQUAL(e.message, "exit 1");
	api_free(a);
	tl_free(tl);
}

static void test_patch_meta_invalid_changes_nothing(void)
{
	struct api *a = api_new(NULL);
	struct val *patch = val_new_map(), *ann = val_new_map();

	api_create(a, fx_ws_ref("default", "a", "p"));
	val_map_set(ann, "ok", val_new_string("1"));
	val_map_set(ann, "bad", val_new_int(2));
	val_map_set(patch, "annotations", ann);
	CU_ASSERT_EQUAL(api_patch_meta(a, "Workspace", "default", "a", patch), API_EINVALID);
	CU_ASSERT_PTR_NULL(obj_strmap_get(&api_get(a, "Workspace", "default", "a")->annotations, "ok"));
	val_map_del(ann, "bad");
	val_map_set(patch, "spec", val_new_map());
	CU_ASSERT_EQUAL(api_patch_meta(a, "Workspace", "default", "a", patch), API_EINVALID);
	val_map_del(patch, "spec");
	CU_ASSERT_EQUAL(api_patch_meta(a, "Workspace", "default", "a", patch), 0);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&api_get(a, "Workspace", "default", "a")->annotations, "ok"),
			       "1");
	CU_ASSERT_EQUAL(api_resource_version(a), 2);
	val_free(patch);
	api_free(a);
}

/*
 * The change log: what changed since a resourceVersion, with List
 * positions; a creation or deletion (positions move) and a no-op write
 * behave as documented, and a log grown past 4 entries per object is
 * dropped (the reader lists again).
 */
static void test_changes_since(void)
{
	struct api *a = api_new(NULL);
	struct api_changes c;
	struct api_list l;
	uint64_t rv, shape;

	api_changes_init(&c);
	api_list_init(&l);
	CU_ASSERT_EQUAL(api_kind_shape(a, "Workspace"), 0);
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", 0, &c), 0);
	CU_ASSERT_EQUAL(c.n, 0);
	api_create(a, fx_ws_ref("prod", "b", "p"));
	api_create(a, fx_ws_ref("dev", "a", "p"));
	api_create(a, fx_ws_ref("prod", "a", "p"));
	shape = api_kind_shape(a, "Workspace");
	CU_ASSERT_EQUAL(shape, 3);
	rv = api_resource_version(a);
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), 0); /* after the last creation */
	CU_ASSERT_EQUAL(c.n, 0);
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv - 1, &c), -1); /* a creation since */
	CU_ASSERT_EQUAL(api_list(a, "Workspace", NULL, NULL, NULL, &l), 3);

	api_set_label(a, "Workspace", "prod", "b", "k", "v");
	api_set_label(a, "Workspace", "prod", "b", "k", "v"); /* no-op: not logged */
	api_set_annotation(a, "Workspace", "dev", "a", "k", "v");
	api_set_label(a, "Workspace", "prod", "b", "k", "w");
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), 0);
	CU_ASSERT_EQUAL_FATAL(c.n, 3);
	CU_ASSERT_STRING_EQUAL(c.items[0]->name, "b");
	CU_ASSERT_EQUAL(c.pos[0], 2); /* dev/a, prod/a, prod/b */
	CU_ASSERT_STRING_EQUAL(c.items[1]->ns, "dev");
	CU_ASSERT_EQUAL(c.pos[1], 0);
	/* the current version, not the one logged */
	CU_ASSERT_PTR_EQUAL(c.items[0], api_get(a, "Workspace", "prod", "b"));
	CU_ASSERT_PTR_EQUAL(c.items[2], c.items[0]);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&c.items[0]->labels, "k"), "w");
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv + 2, &c), 0);
	CU_ASSERT_EQUAL(c.n, 1);
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", api_resource_version(a), &c), 0);
	CU_ASSERT_EQUAL(c.n, 0);
	CU_ASSERT_EQUAL(api_kind_shape(a, "Workspace"), shape);

	/* another kind's writes are not in this log */
	rv = api_resource_version(a);
	api_create(a, obj_new("v1", "Namespace", NULL, "dev"));
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), 0);
	CU_ASSERT_EQUAL(c.n, 0);

	/* a deletion moves positions: the log cannot tell */
	api_delete(a, "Workspace", "dev", "a");
	CU_ASSERT_EQUAL(api_kind_shape(a, "Workspace"), shape + 1);
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), -1);
	rv = api_resource_version(a);
	api_set_label(a, "Workspace", "prod", "b", "k", "x");
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), 0);
	CU_ASSERT_EQUAL_FATAL(c.n, 1);
	CU_ASSERT_EQUAL(c.pos[0], 1); /* prod/a, prod/b */

	/* 4 096 changes of 2 objects: the log is dropped, old readers list again */
	for (int i = 0; i < 4200; i++) {
		char v[16];

		snprintf(v, sizeof(v), "%d", i);
		api_set_label(a, "Workspace", "prod", "a", "n", v);
	}
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), -1);
	rv = api_resource_version(a);
	api_set_label(a, "Workspace", "prod", "a", "n", "last");
	CU_ASSERT_EQUAL(api_changes_since(a, "Workspace", rv, &c), 0);
	CU_ASSERT_EQUAL(c.n, 1);
	api_changes_release(&c);
	api_list_release(&l);
	api_free(a);
}

/* api_get_ref() answers as api_get() through writes, deletions, re-creations and other kinds. */
static void test_get_ref(void)
{
	struct api *a = api_new(NULL);
	struct api *b = api_new(NULL);
	struct api_ref r = API_REF_INIT, none = API_REF_INIT, early = API_REF_INIT;
	const struct obj *o;
	struct obj *u;

	/* a kind not stored yet: NULL, and not remembered as absent */
	CU_ASSERT_PTR_NULL(api_get_ref(a, "Workspace", "default", "a", &early));
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "a", "p")), 0);
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "b", "p")), 0);
	CU_ASSERT_PTR_EQUAL(api_get_ref(a, "Workspace", "default", "a", &early),
			    api_get(a, "Workspace", "default", "a"));
	o = api_get_ref(a, "Workspace", "default", "a", &r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_EQUAL(o, api_get(a, "Workspace", "default", "a"));
	CU_ASSERT_PTR_NULL(api_get_ref(a, "Workspace", "default", "zz", &none));
	CU_ASSERT_PTR_NULL(api_get_ref(a, "Workspace", "default", "zz", &none));

	/* a status write makes a new version: the memo follows it */
	u = obj_new("v1", "Workspace", "default", "a");
	u->status = status_phase("Planning");
	CU_ASSERT_EQUAL(api_update_status(a, u), 0);
	o = api_get_ref(a, "Workspace", "default", "a", &r);
	CU_ASSERT_PTR_EQUAL(o, api_get(a, "Workspace", "default", "a"));
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(o->status, "phase"), ""), "Planning");
	CU_ASSERT_EQUAL(o->resource_version, 3);

	/* deleted (entries freed by the next list), then created again */
	CU_ASSERT_EQUAL(api_delete(a, "Workspace", "default", "a"), 0);
	CU_ASSERT_PTR_NULL(api_get_ref(a, "Workspace", "default", "a", &r));
	{
		struct api_list l;

		api_list_init(&l);
		CU_ASSERT_EQUAL(api_list(a, "Workspace", NULL, NULL, NULL, &l), 1);
		api_list_release(&l);
	}
	CU_ASSERT_PTR_NULL(api_get_ref(a, "Workspace", "default", "a", &r));
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "a", "q")), 0);
	o = api_get_ref(a, "Workspace", "default", "a", &r);
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_EQUAL(o, api_get(a, "Workspace", "default", "a"));
	CU_ASSERT_STRING_EQUAL(val_str(val_path(o->spec, "projectRef.name"), ""), "q");
	/* the absent key stays absent; a creation of it is seen */
	CU_ASSERT_PTR_NULL(api_get_ref(a, "Workspace", "default", "zz", &none));
	CU_ASSERT_EQUAL(api_create(a, fx_ws_ref("default", "zz", "p")), 0);
	CU_ASSERT_PTR_EQUAL(api_get_ref(a, "Workspace", "default", "zz", &none),
			    api_get(a, "Workspace", "default", "zz"));

	/* the same memo with another store looks up there */
	CU_ASSERT_PTR_NULL(api_get_ref(b, "Workspace", "default", "a", &r));
	CU_ASSERT_EQUAL(api_create(b, fx_ws_ref("default", "a", "b")), 0);
	CU_ASSERT_PTR_EQUAL(api_get_ref(b, "Workspace", "default", "a", &r),
			    api_get(b, "Workspace", "default", "a"));
	api_free(a);
	api_free(b);
}

/* api_create_shared(): as api_create(obj_copy()), and the borrowed trees outlive every write and api_free(). */
static void test_create_shared(void)
{
	struct api *a = api_new(NULL), *b = api_new(NULL);
	struct obj *src = fx_ws_ref("default", "a", "p");
	struct obj *before, *u;
	const struct obj *o, *c;

	src->status = status_phase("Pending");
	obj_strmap_set(&src->labels, "tier", "web");
	before = obj_copy(src);
	CU_ASSERT_EQUAL(api_create_shared(a, src), 0);
	CU_ASSERT_EQUAL(api_create(b, obj_copy(src)), 0);
	o = api_get(a, "Workspace", "default", "a");
	c = api_get(b, "Workspace", "default", "a");
	CU_ASSERT_PTR_NOT_NULL_FATAL(o);
	CU_ASSERT_PTR_EQUAL(o->spec, src->spec); /* shared, not copied */
	CU_ASSERT_PTR_EQUAL(o->status, src->status);
	CU_ASSERT_TRUE(val_equal(o->spec, c->spec));
	CU_ASSERT_STRING_EQUAL(o->uid, c->uid);
	CU_ASSERT_EQUAL(o->resource_version, c->resource_version);
	CU_ASSERT_STRING_EQUAL(obj_strmap_get(&o->labels, "tier"), "web");
	CU_ASSERT_PTR_NOT_EQUAL(o->labels.items, src->labels.items); /* metadata copied */
	CU_ASSERT_EQUAL(api_create_shared(a, src), API_EALREADYEXISTS);

	/* a status write and a spec write make new trees; the shared ones stay */
	u = obj_new("v1", "Workspace", "default", "a");
	u->status = status_phase("Planning");
	CU_ASSERT_EQUAL(api_update_status(a, u), 0);
	u = copy_of(a, "default", "a");
	val_map_set(u->spec, "extra", val_new_int(1));
	CU_ASSERT_EQUAL(api_update(a, u), 0);
	o = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(o->status, "phase"), ""), "Planning");
	CU_ASSERT_EQUAL(o->generation, 2);
	CU_ASSERT_EQUAL(api_delete(a, "Workspace", "default", "a"), 0);
	api_free(a);
	CU_ASSERT_TRUE(val_equal(src->spec, before->spec));
	CU_ASSERT_TRUE(val_equal(src->status, before->status));
	/* a second store on the same trees */
	a = api_new(NULL);
	CU_ASSERT_EQUAL(api_create_shared(a, src), 0);
	api_free(a);
	api_free(b);
	obj_free(src);
	obj_free(before);
}

/* Same nodes in the same order (val_equal() does not look at map key order). */
static bool same_tree(const struct val *x, const struct val *y)
{
	if (!x || !y)
		return x == y;
	if (x->type != y->type)
		return false;
	if (x->type == VAL_MAP) {
		if (x->u.map.n != y->u.map.n)
			return false;
		for (size_t i = 0; i < x->u.map.n; i++)
			if (strcmp(x->u.map.items[i].key, y->u.map.items[i].key) != 0 ||
			    !same_tree(x->u.map.items[i].v, y->u.map.items[i].v))
				return false;
		return true;
	}
	if (x->type == VAL_LIST) {
		if (x->u.list.n != y->u.list.n)
			return false;
		for (size_t i = 0; i < x->u.list.n; i++)
			if (!same_tree(x->u.list.items[i], y->u.list.items[i]))
				return false;
		return true;
	}
	return val_equal(x, y);
}

static void test_patch_status_is_merge_patch(void)
{
	struct api *a = api_new(NULL);
	struct obj *o = fx_ws_ref("default", "a", "p");
	struct val *st = val_new_map(), *b, *l, *p, *pb, *pe, *want;
	const struct obj *now;
	const struct val *got;
	struct api_snap *before;
	char keys[64] = "";

	/* status {a: 1, b: {x: "s", y: [1, 2], w: 5}, c: "keep", d: {q: 1}, n: 7} */
	val_map_set(st, "a", val_new_int(1));
	b = val_map_set(st, "b", val_new_map());
	val_map_set(b, "x", val_new_string("s"));
	l = val_map_set(b, "y", val_new_list());
	val_list_push(l, val_new_int(1));
	val_list_push(l, val_new_int(2));
	val_map_set(b, "w", val_new_int(5));
	val_map_set(st, "c", val_new_string("keep"));
	val_map_set(val_map_set(st, "d", val_new_map()), "q", val_new_int(1));
	val_map_set(st, "n", val_new_int(7));
	o->status = st;
	CU_ASSERT_EQUAL_FATAL(api_create(a, o), 0);

	/* {e: {f: null, g: 2}, b: {x: null, z: "new", w: {k: 1}}, c: null, a: "one", d: "flat", m: null} */
	p = val_new_map();
	pe = val_map_set(p, "e", val_new_map());
	val_map_set(pe, "f", val_new_null());
	val_map_set(pe, "g", val_new_int(2));
	pb = val_map_set(p, "b", val_new_map());
	val_map_set(pb, "x", val_new_null());
	val_map_set(pb, "z", val_new_string("new"));
	val_map_set(val_map_set(pb, "w", val_new_map()), "k", val_new_int(1));
	val_map_set(p, "c", val_new_null());
	val_map_set(p, "a", val_new_string("one"));
	val_map_set(p, "d", val_new_string("flat"));
	val_map_set(p, "m", val_new_null());

	want = val_copy(api_get(a, "Workspace", "default", "a")->status);
	val_merge_patch(&want, p);
	before = api_snap_retain(api_get_snap(a, "Workspace", "default", "a"));
	CU_ASSERT_EQUAL(api_patch_status(a, "Workspace", "default", "a", p), 0);
	now = api_get(a, "Workspace", "default", "a");
	CU_ASSERT_TRUE(same_tree(now->status, want));
	/* what the patch leaves is shared with the version before, its scalars with the patch */
	CU_ASSERT_PTR_EQUAL(val_path(now->status, "b.y"), val_path(api_snap_obj(before)->status, "b.y"));
	CU_ASSERT_PTR_EQUAL(val_map_get(now->status, "n"), val_map_get(api_snap_obj(before)->status, "n"));
	CU_ASSERT_PTR_EQUAL(val_map_get(now->status, "d"), val_map_get(p, "d"));
	api_snap_release(before); /* the shared parts stay with the version now */
	CU_ASSERT_EQUAL(val_int(val_map_get(now->status, "n"), 0), 7);
	for (size_t i = 0; i < now->status->u.map.n; i++) {
		strcat(keys, now->status->u.map.items[i].key);
		strcat(keys, " ");
	}
	CU_ASSERT_STRING_EQUAL(keys, "a b d n e ");
	got = val_map_get(now->status, "b");
	CU_ASSERT_EQUAL(got->u.map.n, 3); /* y, w, z */
	CU_ASSERT_STRING_EQUAL(got->u.map.items[0].key, "y");
	CU_ASSERT_EQUAL(val_int(val_map_get(val_map_get(got, "w"), "k"), 0), 1);
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(got, "z"), ""), "new");
	CU_ASSERT_EQUAL(val_map_get(now->status, "e")->u.map.n, 1); /* the null f is not stored */
	CU_ASSERT_STRING_EQUAL(val_str(val_map_get(now->status, "d"), ""), "flat");
	CU_ASSERT_EQUAL(now->resource_version, 2);
	/* the same patch again changes nothing */
	CU_ASSERT_EQUAL(api_patch_status(a, "Workspace", "default", "a", p), 0);
	CU_ASSERT_EQUAL(api_get(a, "Workspace", "default", "a")->resource_version, 2);
	val_free(want);
	val_free(p);
	api_free(a);
}

/*
 * api_update_spec() gives what api_update() of a copy with the spec replaced
 * gives: the same versions, status and metadata kept, the same watch events
 * and timeline entries; an equal spec is a no-op.
 */
static void test_update_spec_as_update(void)
{
	struct tl *tl = tl_new();
	struct api *a = api_new(tl);
	struct seen s = { 0 };
	const char *names[] = { "a", "b" };
	const struct obj *ca, *cb;
	struct obj *o;
	struct val *spec;
	struct tl_entry ea, eb;

	api_watch(a, "Workspace", record_event, &s);
	for (size_t i = 0; i < 2; i++) {
		o = fx_ws_ref("default", names[i], "p");
		o->status = status_phase("Planning");
		obj_strmap_set(&o->labels, "env", "dev");
		obj_strmap_set(&o->annotations, "k", "v");
		CU_ASSERT_EQUAL_FATAL(api_create(a, o), 0);
	}
	s.n = 0;
	o = copy_of(a, "default", "a");
	o->resource_version = 0;
	val_map_set(o->spec, "autoApply", val_new_bool(true));
	CU_ASSERT_EQUAL(api_update(a, o), 0);
	spec = val_copy(api_get(a, "Workspace", "default", "b")->spec);
	val_map_set(spec, "autoApply", val_new_bool(true));
	CU_ASSERT_EQUAL(api_update_spec(a, "Workspace", "default", "b", spec), 0);

	ca = api_get(a, "Workspace", "default", "a");
	cb = api_get(a, "Workspace", "default", "b");
	CU_ASSERT_EQUAL(cb->generation, ca->generation);
	CU_ASSERT_EQUAL(cb->generation, 2);
	CU_ASSERT_EQUAL(cb->resource_version, ca->resource_version + 1);
	CU_ASSERT_TRUE(val_equal(cb->spec, ca->spec));
	CU_ASSERT_TRUE(val_equal(cb->status, ca->status));
	CU_ASSERT_TRUE(obj_strmap_equal(&cb->labels, &ca->labels));
	CU_ASSERT_TRUE(obj_strmap_equal(&cb->annotations, &ca->annotations));
	CU_ASSERT_EQUAL(cb->creation_ms, ca->creation_ms);
	CU_ASSERT_EQUAL(cb->deletion_ms, -1);
	CU_ASSERT_EQUAL(s.n, 2);
	CU_ASSERT_EQUAL(s.type[1], API_MODIFIED);
	CU_ASSERT_EQUAL(s.old_rv[1], 2);
	CU_ASSERT_EQUAL(s.new_rv[1], cb->resource_version);
	CU_ASSERT_EQUAL(tl_count(tl), 4);
	tl_get(tl, 2, &ea);
	tl_get(tl, 3, &eb);
	CU_ASSERT_EQUAL(eb.change, ea.change);
	CU_ASSERT_STRING_EQUAL(eb.detail, ea.detail);
	CU_ASSERT_STRING_EQUAL(eb.detail, "spec (generation 2)");
	CU_ASSERT_EQUAL(eb.generation, 2);

	/* the same spec again: no event, no new version */
	CU_ASSERT_EQUAL(api_update_spec(a, "Workspace", "default", "b", val_copy(cb->spec)), 0);
	CU_ASSERT_EQUAL(s.n, 2);
	CU_ASSERT_EQUAL(api_get(a, "Workspace", "default", "b")->resource_version, 4);
	/* refused: no such object, a spec that is not a map */
	CU_ASSERT_EQUAL(api_update_spec(a, "Workspace", "default", "none", val_new_map()),
			API_ENOTFOUND);
	CU_ASSERT_EQUAL(api_update_spec(a, "Workspace", "default", "b", val_new_list()),
			API_EINVALID);
	CU_ASSERT_EQUAL(api_get(a, "Workspace", "default", "b")->resource_version, 4);
	api_free(a);
	tl_free(tl);
}

/*
 * A change detail longer than its bound is cut at a character boundary: an
 * annotation of two-byte characters that crosses the bound at every offset
 * leaves whole characters and the "..." mark, never half a character.
 */
static void test_detail_cut_keeps_utf8_whole(void)
{
	for (size_t pad = 0; pad < 4; pad++) {
		struct tl *tl = tl_new();
		struct api *a = api_new(tl);
		char value[1024];
		size_t n = 0;
		struct tl_entry e;
		const unsigned char *d;
		size_t len;

		for (size_t i = 0; i < pad; i++)
			value[n++] = 'x';
		while (n + 2 < sizeof(value) - 1) {
			value[n++] = (char)0xC3; /* é */
			value[n++] = (char)0xA9;
		}
		value[n] = '\0';
		api_create(a, fx_ws_ref("default", "a", "p"));
		CU_ASSERT_EQUAL(api_set_annotation(a, "Workspace", "default", "a", "note", value), 0);
		tl_get(tl, 1, &e);
		d = (const unsigned char *)e.detail;
		len = strlen(e.detail);
		CU_ASSERT(len > 3 && strcmp(e.detail + len - 3, "...") == 0);
		CU_ASSERT(strncmp(e.detail, "annotations: +note=", 19) == 0);
		/* before the mark: whole two-byte characters after the padding */
		for (size_t i = 19 + pad; i + 3 < len; i += 2) {
			CU_ASSERT_EQUAL(d[i], 0xC3);
			CU_ASSERT_EQUAL(d[i + 1], 0xA9);
		}
		CU_ASSERT_EQUAL((len - 3 - 19 - pad) % 2, 0);
		api_free(a);
		tl_free(tl);
	}
}

static CU_TestInfo tests[] = {
	{ "create, get, AlreadyExists, Invalid", test_create_get },
	{ "writes that change nothing emit nothing", test_noop_writes_emit_nothing },
	{ "generation only on spec, resourceVersion on every change", test_generation_only_on_spec },
	{ "Conflict on stale resourceVersion; status subresource", test_conflict_and_subresources },
	{ "finalizer deletion flow", test_finalizer_deletion_flow },
	{ "list order: namespace then name", test_list_order },
	{ "list by prefix while objects come and go", test_list_prefix_while_creating },
	{ "snapshots outlive later writes and deletion", test_snapshots_outlive_writes },
	{ "reason/message from Ready condition or status", test_reason_message_sources },
	{ "an invalid metadata patch changes nothing", test_patch_meta_invalid_changes_nothing },
	{ "change log: what changed since a resourceVersion, at which List position", test_changes_since },
	{ "api_get_ref answers as api_get through writes, deletion and re-creation", test_get_ref },
	{ "api_create_shared shares the trees, copies the metadata", test_create_shared },
	{ "api_patch_status stores what val_merge_patch gives, key order included",
	  test_patch_status_is_merge_patch },
	{ "api_update_spec gives what api_update of a copy with that spec gives",
	  test_update_spec_as_update },
	{ "a change detail is cut between UTF-8 characters, not inside one", test_detail_cut_keeps_utf8_whole },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("apiserver", tests);
}
