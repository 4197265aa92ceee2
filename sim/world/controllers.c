#include "sim/world/controllers.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

#define BACKOFF_BASE_MS 5
#define BACKOFF_MAX_MS 1000000 /* 1000 s */
#define BUCKET_TOKEN_MS 100    /* 10 per second: one token every 100 ms */
#define BUCKET_BURST 100

/*
 * A key the controller has seen.  Items live until the controller is freed:
 * they carry the back-off count and the key's timer, and the strings are
 * borrowed by notices and causes.
 *
 * Queue states (client-go): queued ⇔ dirty && !processing (and then the item
 * is on the FIFO list exactly once).
 */
struct item {
	struct item *hnext; /* hash chain */
	struct item *qnext; /* FIFO queue link */
	char *ns, *name;
	uint32_t hash;
	bool dirty, processing;
	evq_handle timer; /* pending AddAfter, 0 when none */
	int64_t timer_at;
	uint32_t failures;
};

struct reg {
	struct ctl *c;
	ctl_map_fn map; /* NULL: For() (the object's own key) */
	void *map_ctx;
	ctl_pred_fn pred;
	void *pred_ctx;
};

struct ctl {
	struct des *w;
	char *name;
	char *for_kind; /* "" until ctl_for() */
	ctl_reconcile_fn fn;
	void *ctx;
	int64_t duration_ms;

	struct item **buckets;
	size_t nbuckets, nitems;
	struct item *head, *tail;
	size_t qlen;

	bool busy, start_pending;
	struct item *cur;
	struct ctl_result cur_res;
	uint64_t reconciles;

	int64_t bucket_tokens_ms; /* token bucket content in ms of refill (100 ms = 1 token) */
	int64_t bucket_last_ms;

	struct reg **regs;
	size_t nregs;
	struct ctl_keys keys; /* scratch for map functions */
};

static uint32_t hash_key(const char *ns, const char *name)
{
	uint32_t h = 2166136261u;

	for (const unsigned char *p = (const unsigned char *)ns; *p; p++)
		h = (h ^ *p) * 16777619u;
	h = (h ^ '/') * 16777619u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	return h;
}

static struct item *find_item(const struct ctl *c, const char *ns, const char *name, uint32_t h)
{
	for (struct item *it = c->buckets[h & (c->nbuckets - 1)]; it; it = it->hnext) {
		if (it->hash == h && strcmp(it->name, name) == 0 && strcmp(it->ns, ns) == 0)
			return it;
	}
	return NULL;
}

static struct item *get_item(struct ctl *c, const char *ns, const char *name)
{
	uint32_t h = hash_key(ns, name);
	struct item *it = find_item(c, ns, name, h);

	if (it)
		return it;
	if (c->nitems + 1 > c->nbuckets) {
		size_t nb = c->nbuckets * 2;
		struct item **b = xcalloc(nb, sizeof(*b));

		for (size_t i = 0; i < c->nbuckets; i++) {
			struct item *x = c->buckets[i], *next;

			for (; x; x = next) {
				next = x->hnext;
				x->hnext = b[x->hash & (nb - 1)];
				b[x->hash & (nb - 1)] = x;
			}
		}
		free(c->buckets);
		c->buckets = b;
		c->nbuckets = nb;
	}
	it = xcalloc(1, sizeof(*it));
	it->ns = xstrdup(ns);
	it->name = xstrdup(name);
	it->hash = h;
	it->hnext = c->buckets[h & (c->nbuckets - 1)];
	c->buckets[h & (c->nbuckets - 1)] = it;
	c->nitems++;
	return it;
}

/* ---- the worker ---- */

static void worker_start(struct des *w, void *ctx, void *arg);

/* Schedules the worker when it is idle and there is work. */
static void kick(struct ctl *c)
{
	if (c->busy || c->start_pending || !c->head)
		return;
	c->start_pending = true;
	des_at(c->w, des_now(c->w), DES_PRIO_RECONCILE, worker_start, c, NULL);
}

static void push(struct ctl *c, struct item *it)
{
	it->qnext = NULL;
	if (c->tail)
		c->tail->qnext = it;
	else
		c->head = it;
	c->tail = it;
	c->qlen++;
	kick(c);
}

/* workqueue Add */
static void add(struct ctl *c, struct item *it)
{
	if (it->dirty)
		return;
	it->dirty = true;
	if (it->processing)
		return;
	push(c, it);
}

static void timer_fire(struct des *w, void *ctx, void *arg)
{
	struct item *it = arg;

	(void)w;
	it->timer = 0;
	add(ctx, it);
}

/* delaying queue AddAfter: one timer per key, the earliest wins */
static void add_after(struct ctl *c, struct item *it, int64_t delay_ms)
{
	int64_t at;

	if (delay_ms <= 0) {
		add(c, it);
		return;
	}
	at = des_now(c->w) + delay_ms;
	if (it->timer) {
		if (at < it->timer_at) {
			des_reschedule(c->w, it->timer, at, DES_PRIO_DELIVERY);
			it->timer_at = at;
		}
		return;
	}
	it->timer = des_at(c->w, at, DES_PRIO_DELIVERY, timer_fire, c, it);
	it->timer_at = at;
}

/* DefaultTypedControllerRateLimiter.When: max of per-item back-off and the shared bucket */
static int64_t rate_limit_when(struct ctl *c, struct item *it)
{
	int64_t now = des_now(c->w);
	int64_t backoff, bucket = 0;
	uint32_t exp = it->failures++;

	if (exp >= 20 || ((int64_t)BACKOFF_BASE_MS << exp) > BACKOFF_MAX_MS)
		backoff = BACKOFF_MAX_MS;
	else
		backoff = (int64_t)BACKOFF_BASE_MS << exp;

	/* x/time/rate reserve: refill since the last reservation, take a token, wait for a deficit */
	c->bucket_tokens_ms += now - c->bucket_last_ms;
	if (c->bucket_tokens_ms > BUCKET_BURST * BUCKET_TOKEN_MS)
		c->bucket_tokens_ms = BUCKET_BURST * BUCKET_TOKEN_MS;
	c->bucket_last_ms = now;
	c->bucket_tokens_ms -= BUCKET_TOKEN_MS;
	if (c->bucket_tokens_ms < 0)
		bucket = -c->bucket_tokens_ms;
	return backoff > bucket ? backoff : bucket;
}

static void finish(struct ctl *c)
{
	struct item *it = c->cur;
	struct ctl_result r = c->cur_res;

	if (r.err)
		add_after(c, it, rate_limit_when(c, it));
	else if (r.requeue_after_ms > 0) {
		it->failures = 0;
		add_after(c, it, r.requeue_after_ms);
	} else if (r.requeue)
		add_after(c, it, rate_limit_when(c, it));
	else
		it->failures = 0;
	/* workqueue Done */
	it->processing = false;
	c->cur = NULL;
	c->busy = false;
	if (it->dirty)
		push(c, it);
	kick(c);
}

static void worker_finish(struct des *w, void *ctx, void *arg)
{
	(void)w;
	(void)arg;
	finish(ctx);
}

static void worker_start(struct des *w, void *ctx, void *arg)
{
	struct ctl *c = ctx;
	struct item *it = c->head;

	(void)arg;
	c->start_pending = false;
	if (c->busy || !it)
		return;
	/* workqueue Get */
	c->head = it->qnext;
	if (!c->head)
		c->tail = NULL;
	c->qlen--;
	it->qnext = NULL;
	it->dirty = false;
	it->processing = true;
	c->busy = true;
	c->cur = it;
	c->reconciles++;

	des_set_cause_reconcile(w, c->name, it->ns, it->name);
	des_note_reconcile(w, it, c->name, c->for_kind, it->ns, it->name);
	c->cur_res = c->fn(c->ctx, w, it->ns, it->name, des_now(w));
	if (c->duration_ms > 0)
		des_at(w, des_now(w) + c->duration_ms, DES_PRIO_RECONCILE, worker_finish, c, NULL);
	else
		finish(c);
}

/* ---- watches ---- */

static void enqueue_keys(struct ctl *c, const struct obj *o, const struct reg *r)
{
	c->keys.n = 0;
	r->map(r->map_ctx, c->w, o, &c->keys);
	for (size_t i = 0; i < c->keys.n; i++)
		add(c, get_item(c, c->keys.items[i].ns ? c->keys.items[i].ns : "",
				c->keys.items[i].name));
}

static void on_event(void *ctx, enum api_event_type type, const struct obj *old,
		     const struct obj *new)
{
	struct reg *r = ctx;
	struct ctl *c = r->c;

	if (r->pred && !r->pred(r->pred_ctx, type, old, new))
		return;
	if (!r->map) {
		add(c, get_item(c, new->ns, new->name));
		return;
	}
	if (old)
		enqueue_keys(c, old, r);
	enqueue_keys(c, new, r);
}

static void add_reg(struct ctl *c, const char *kind, ctl_map_fn map, void *map_ctx,
		    ctl_pred_fn pred, void *pred_ctx)
{
	struct reg *r = xcalloc(1, sizeof(*r));

	r->c = c;
	r->map = map;
	r->map_ctx = map_ctx;
	r->pred = pred;
	r->pred_ctx = pred_ctx;
	c->regs = xreallocarray(c->regs, c->nregs + 1, sizeof(*c->regs));
	c->regs[c->nregs++] = r;
	api_watch(des_api(c->w), kind, on_event, r);
}

/* ---- public ---- */

struct ctl *ctl_new(struct des *w, const char *name, ctl_reconcile_fn fn, void *ctx)
{
	struct ctl *c = xcalloc(1, sizeof(*c));

	c->w = w;
	c->name = xstrdup(name);
	c->for_kind = xstrdup("");
	c->fn = fn;
	c->ctx = ctx;
	c->duration_ms = des_params(w)->reconcile_ms;
	c->nbuckets = 64;
	c->buckets = xcalloc(c->nbuckets, sizeof(*c->buckets));
	c->bucket_tokens_ms = BUCKET_BURST * BUCKET_TOKEN_MS;
	c->bucket_last_ms = des_now(w);
	des_add_controller(w, c);
	return c;
}

void ctl_free(struct ctl *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nbuckets; i++) {
		struct item *it = c->buckets[i], *next;

		for (; it; it = next) {
			next = it->hnext;
			free(it->ns);
			free(it->name);
			free(it);
		}
	}
	for (size_t i = 0; i < c->nregs; i++)
		free(c->regs[i]);
	free(c->regs);
	free(c->buckets);
	free(c->keys.items);
	free(c->for_kind);
	free(c->name);
	free(c);
}

void ctl_set_duration(struct ctl *c, int64_t ms)
{
	assert(ms >= 0);
	c->duration_ms = ms;
}

void ctl_for(struct ctl *c, const char *kind, ctl_pred_fn pred, void *pred_ctx)
{
	if (!c->for_kind[0]) {
		free(c->for_kind);
		c->for_kind = xstrdup(kind);
	}
	add_reg(c, kind, NULL, NULL, pred, pred_ctx);
}

void ctl_watches(struct ctl *c, const char *kind, ctl_map_fn map, void *map_ctx, ctl_pred_fn pred,
		 void *pred_ctx)
{
	assert(map);
	add_reg(c, kind, map, map_ctx, pred, pred_ctx);
}

bool ctl_pred_rv_changed(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new)
{
	(void)ctx;
	return type != API_MODIFIED || old->resource_version != new->resource_version;
}

bool ctl_pred_generation_changed(void *ctx, enum api_event_type type, const struct obj *old,
				 const struct obj *new)
{
	(void)ctx;
	return type != API_MODIFIED || old->generation != new->generation;
}

void ctl_keys_add(struct ctl_keys *k, const char *ns, const char *name)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 8;
		k->items = xreallocarray(k->items, k->cap, sizeof(*k->items));
	}
	k->items[k->n].ns = ns;
	k->items[k->n].name = name;
	k->n++;
}

void ctl_enqueue(struct ctl *c, const char *ns, const char *name)
{
	add(c, get_item(c, ns ? ns : "", name));
}

void ctl_enqueue_after(struct ctl *c, const char *ns, const char *name, int64_t delay_ms)
{
	add_after(c, get_item(c, ns ? ns : "", name), delay_ms);
}

const char *ctl_name(const struct ctl *c)
{
	return c->name;
}

uint64_t ctl_reconciles(const struct ctl *c)
{
	return c->reconciles;
}

size_t ctl_queue_len(const struct ctl *c)
{
	return c->qlen;
}

uint32_t ctl_failures(const struct ctl *c, const char *ns, const char *name)
{
	const struct item *it = find_item(c, ns ? ns : "", name, hash_key(ns ? ns : "", name));

	return it ? it->failures : 0;
}
