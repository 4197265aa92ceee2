#include "sim/world/controllers.h"

#include <assert.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

#define BACKOFF_BASE_MS 5
#define BACKOFF_MAX_MS 1000000 /* 1000 s */

#define READY (-1)          /* item.ready_at of a ready entry */
#define NOPOS ((size_t)-1)  /* item.hpos of an item in neither heap */

/*
 * A key the controller has seen.  Items live until the controller is freed:
 * they carry the back-off count, and the strings are borrowed by notices and
 * causes.
 *
 * `queued` says the key has a queue entry (upstream's `items` map).  A
 * queued item is in exactly one place: the waiting heap (ready_at >= 0,
 * with a timer), the ready heap (ready_at == READY, not processing), or
 * parked (ready_at == READY and processing: re-added while its pass runs;
 * it enters the ready heap when the pass is done).
 */
struct item {
	struct item *hnext; /* hash chain */
	char *ns, *name;
	uint32_t hash;
	bool processing;    /* handed to a worker, not yet done (upstream: locked) */
	bool queued;        /* has an entry */
	int priority;       /* entry: priority */
	uint64_t counter;   /* entry: insertion counter (FIFO among equal priorities) */
	int64_t ready_at;   /* entry: ms its delay ends, READY when ready */
	size_t hpos;        /* index in the ready or waiting heap, NOPOS in neither */
	evq_handle timer;   /* a waiting entry's timer, 0 when none */
	int64_t timer_at;
	uint32_t failures;  /* rate limiter: rate-limited adds since the last Forget */
	/*
	 * ctl_resume_pass(): the next pass of the key is one a snapshot caught in
	 * flight: it runs as of resume_at (its start) and ends when it would
	 * have, with the priority it was dequeued with (resume_pass_priority);
	 * then (resume_entry) its entry is added as it was (resume_after from
	 * now, resume_priority).
	 */
	bool resume, resume_entry;
	int64_t resume_at, resume_after;
	int resume_pass_priority, resume_priority;
};

/*
 * An indexed binary heap of items (item.hpos is the index), ordered by
 * item_less(), a strict total order (counters are unique per controller).
 */
struct heap {
	struct item **a;
	size_t n, cap;
};

/* One of MaxConcurrentReconciles workers. */
struct worker {
	struct item *it;       /* the key of the running pass, NULL when idle */
	int priority;          /* the priority the key was dequeued with */
	int64_t started_ms;    /* the time the pass runs as of (its start) */
	struct ctl_result res; /* what the pass returned, handled at its end */
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
	ctl_end_fn end;
	ctl_drop_fn drop;
	ctl_state_fn state;
	int64_t duration_ms;

	struct item **buckets;
	size_t nbuckets, nitems;

	struct heap ready, waiting;
	size_t nparked;
	uint64_t counter; /* upstream addedCounter */

	struct worker *workers;
	int nworkers, nbusy;
	bool start_pending;
	bool skip_initial_list; /* ctl_restore_queue(): the initial list enqueues nothing */
	uint64_t reconciles;

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
	it->ready_at = READY;
	it->hpos = NOPOS;
	it->hnext = c->buckets[h & (c->nbuckets - 1)];
	c->buckets[h & (c->nbuckets - 1)] = it;
	c->nitems++;
	return it;
}

/* ---- heaps ---- */

/* lessReady: higher priority first, then the smaller counter */
static inline bool less_ready(const struct item *x, const struct item *y)
{
	if (x->priority != y->priority)
		return x->priority > y->priority;
	return x->counter < y->counter;
}

/*
 * lessWaiting: the earlier ready time first, then as lessReady.  Both heaps
 * use it: every entry of the ready heap has ready_at == READY (see struct
 * item), where it orders as lessReady.
 */
static inline bool item_less(const struct item *x, const struct item *y)
{
	if (x->ready_at != y->ready_at)
		return x->ready_at < y->ready_at;
	return less_ready(x, y);
}

static inline void heap_place(struct heap *h, size_t i, struct item *it)
{
	h->a[i] = it;
	it->hpos = i;
}

/* Moves @it up from the hole at @i to where it belongs. */
static void sift_up_from(struct heap *h, size_t i, struct item *it)
{
	while (i > 0) {
		size_t p = (i - 1) / 2;

		if (!item_less(it, h->a[p]))
			break;
		heap_place(h, i, h->a[p]);
		i = p;
	}
	heap_place(h, i, it);
}

/* The index of the smaller child of the entry at @i, or h->n when it has none. */
static inline size_t smaller_child(const struct heap *h, size_t i)
{
	size_t l = 2 * i + 1;

	if (l >= h->n)
		return h->n;
	return l + 1 < h->n && item_less(h->a[l + 1], h->a[l]) ? l + 1 : l;
}

static void sift_down(struct heap *h, size_t i)
{
	struct item *it = h->a[i];

	for (size_t m; (m = smaller_child(h, i)) < h->n && item_less(h->a[m], it); i = m)
		heap_place(h, i, h->a[m]);
	heap_place(h, i, it);
}

/* Restores the heap after the key of the entry at @i changed either way. */
static void heap_fix(struct heap *h, size_t i)
{
	struct item *it = h->a[i];

	sift_up_from(h, i, it);
	sift_down(h, it->hpos);
}

static void heap_push(struct heap *h, struct item *it)
{
	assert(it->hpos == NOPOS);
	if (h->n == h->cap) {
		h->cap = h->cap ? h->cap * 2 : 16;
		h->a = xreallocarray(h->a, h->cap, sizeof(*h->a));
	}
	sift_up_from(h, h->n++, it);
}

/*
 * Removes @it.  The top (every get() and due timer) goes bottom-up: the
 * hole sinks to a leaf along the smaller children, one comparison a level,
 * and the last entry rises from there, which seldom climbs far.
 */
static void heap_remove(struct heap *h, struct item *it)
{
	size_t i = it->hpos;
	struct item *last;

	assert(i < h->n && h->a[i] == it);
	it->hpos = NOPOS;
	last = h->a[--h->n];
	if (i == h->n)
		return;
	if (i == 0) {
		for (size_t m; (m = smaller_child(h, i)) < h->n; i = m)
			heap_place(h, i, h->a[m]);
		sift_up_from(h, i, last);
		return;
	}
	heap_place(h, i, last);
	heap_fix(h, i);
}

/* ---- the workers ---- */

static void worker_start(struct des *w, void *ctx, void *arg);

/*
 * Schedules a worker start when one is idle and there is work.  One pass
 * starts per event, so everything that arrives at the same instant first
 * (deliveries come before reconciles) is queued before the next key is
 * picked.
 */
static void kick(struct ctl *c)
{
	if (c->nbusy >= c->nworkers || c->start_pending || c->ready.n == 0)
		return;
	c->start_pending = true;
	des_at(c->w, des_now(c->w), DES_PRIO_RECONCILE, worker_start, c, NULL);
}

/* ---- the queue (controller-runtime pkg/controller/priorityqueue) ---- */

/* Puts a ready entry where it belongs: the ready heap, or parked while its key is locked. */
static void make_ready(struct ctl *c, struct item *it)
{
	it->ready_at = READY;
	if (it->processing) {
		c->nparked++;
		return;
	}
	heap_push(&c->ready, it);
	kick(c);
}

static void timer_fire(struct des *w, void *ctx, void *arg);

/* Arms, moves or keeps the timer of a waiting entry so it fires at its ready time. */
static void arm_timer(struct ctl *c, struct item *it)
{
	if (it->timer) {
		if (it->timer_at != it->ready_at) {
			des_reschedule(c->w, it->timer, it->ready_at, DES_PRIO_DELIVERY);
			it->timer_at = it->ready_at;
		}
		return;
	}
	it->timer = des_at(c->w, it->ready_at, DES_PRIO_DELIVERY, timer_fire, c, it);
	it->timer_at = it->ready_at;
}

/*
 * handleWaitingItems: every waiting entry whose time has come becomes ready,
 * in (ready time, priority, counter) order, each drawing a new counter so
 * entries are served in the order they became ready.
 */
static void move_due(struct ctl *c)
{
	int64_t now = des_now(c->w);

	while (c->waiting.n > 0 && c->waiting.a[0]->ready_at <= now) {
		struct item *it = c->waiting.a[0];

		heap_remove(&c->waiting, it);
		if (it->timer) {
			des_cancel(c->w, it->timer);
			it->timer = 0;
		}
		it->counter = c->counter++;
		make_ready(c, it);
	}
}

static void timer_fire(struct des *w, void *ctx, void *arg)
{
	struct item *it = arg;

	(void)w;
	it->timer = 0;
	move_due(ctx);
}

/*
 * ItemExponentialFailureRateLimiter(5ms, 1000s).When, the priority queue's
 * default limiter: 5 ms x 2^failures, capped; counts one more failure.
 */
static int64_t rate_limit_when(struct item *it)
{
	uint32_t exp = it->failures++;

	if (exp >= 20 || ((int64_t)BACKOFF_BASE_MS << exp) > BACKOFF_MAX_MS)
		return BACKOFF_MAX_MS;
	return (int64_t)BACKOFF_BASE_MS << exp;
}

/* AddWithOpts (lockedAddWithOpts) for one key; Add, AddAfter and AddRateLimited are its cases */
static void add(struct ctl *c, struct item *it, int64_t after_ms, bool rate_limited, int priority)
{
	int64_t ready_at = READY;

	if (rate_limited) {
		int64_t rl = rate_limit_when(it);

		if (after_ms == 0 || rl < after_ms)
			after_ms = rl;
	}
	if (after_ms > 0)
		ready_at = des_now(c->w) + after_ms;

	if (!it->queued) {
		it->queued = true;
		it->counter = c->counter++;
		it->priority = priority;
		it->ready_at = ready_at;
		if (ready_at != READY) {
			heap_push(&c->waiting, it);
			arm_timer(c, it);
		} else {
			make_ready(c, it);
		}
		return;
	}

	if (it->ready_at == READY) {
		/* the earliest ready time wins: a ready entry stays ready (in the heap, or parked) */
		if (priority > it->priority) {
			if (it->hpos != NOPOS)
				heap_remove(&c->ready, it);
			it->priority = priority;
			it->counter = c->counter++;
			if (!it->processing)
				heap_push(&c->ready, it);
		}
		return;
	}

	/* a waiting entry: the earliest ready time wins */
	if (ready_at != READY && it->ready_at < ready_at)
		ready_at = it->ready_at;
	if (priority > it->priority) {
		it->priority = priority;
		it->counter = c->counter++;
	}
	if (ready_at == READY) {
		/* an immediate add ends the delay; the entry keeps its counter */
		heap_remove(&c->waiting, it);
		if (it->timer) {
			des_cancel(c->w, it->timer);
			it->timer = 0;
		}
		make_ready(c, it);
		return;
	}
	/* the same or an earlier time, the same or a higher priority: it moves up in place */
	it->ready_at = ready_at;
	heap_fix(&c->waiting, it->hpos);
	arm_timer(c, it);
}

/* GetWithPriority: the best ready entry leaves the queue (the caller locks its key) */
static struct item *get(struct ctl *c)
{
	struct item *it = c->ready.a[0];

	heap_remove(&c->ready, it);
	it->queued = false;
	return it;
}

/* ---- a pass ---- */

/* reconcileHandler's result handling, then the queue's Done */
static void finish(struct ctl *c, struct worker *wk)
{
	struct item *it = wk->it;
	struct ctl_result r;

	if (c->end) {
		des_set_cause_reconcile(c->w, c->name, it->ns, it->name);
		c->end(c->ctx, c->w, it->ns, it->name, des_now(c->w), &wk->res);
	}
	r = wk->res;
	if (r.err)
		add(c, it, 0, true, wk->priority);
	else if (r.requeue_after_ms > 0) {
		it->failures = 0; /* Forget */
		add(c, it, r.requeue_after_ms, false, wk->priority);
	} else if (r.requeue)
		add(c, it, 0, true, wk->priority);
	else
		it->failures = 0; /* Forget */

	/* Done: a parked entry takes its place among the ready ones */
	it->processing = false;
	wk->it = NULL;
	memset(&wk->res, 0, sizeof(wk->res));
	c->nbusy--;
	if (it->queued && it->ready_at == READY) {
		c->nparked--;
		heap_push(&c->ready, it);
	}
	kick(c);
}

static void worker_finish(struct des *w, void *ctx, void *arg)
{
	(void)w;
	finish(ctx, arg);
}

static void worker_start(struct des *w, void *ctx, void *arg)
{
	struct ctl *c = ctx;
	struct worker *wk = NULL;
	struct item *it;
	int64_t hold;

	(void)arg;
	c->start_pending = false;
	if (c->nbusy >= c->nworkers || c->ready.n == 0)
		return;
	for (int i = 0; i < c->nworkers; i++)
		if (!c->workers[i].it) {
			wk = &c->workers[i];
			break;
		}
	assert(wk);
	/* GetWithPriority */
	it = get(c);
	wk->priority = it->priority;
	it->processing = true;
	wk->it = it;
	c->nbusy++;
	c->reconciles++;

	wk->started_ms = des_now(w);
	if (it->resume) {
		/* a pass a snapshot caught in flight: as of its start, to its end */
		wk->started_ms = it->resume_at;
		wk->priority = it->resume_pass_priority;
		it->resume = false;
	}
	if (it->resume_entry) {
		it->resume_entry = false;
		add(c, it, it->resume_after, false, it->resume_priority);
	}

	des_set_cause_reconcile(w, c->name, it->ns, it->name);
	des_note_reconcile(w, it, c->name, c->for_kind, it->ns, it->name);
	wk->res = c->fn(c->ctx, w, it->ns, it->name, wk->started_ms);
	assert(wk->res.busy_ms >= 0);
	hold = wk->started_ms + c->duration_ms + wk->res.busy_ms - des_now(w);
	if (hold > 0)
		des_at(w, des_now(w) + hold, DES_PRIO_RECONCILE, worker_finish, c, wk);
	else
		finish(c, wk);
	kick(c);
}

/* ---- watches ---- */

/*
 * The priority an event's keys are added with (handler.TypedFuncs,
 * enqueueRequestsFromMapFunc, addToQueueCreate/Update): low for the initial
 * list and for an update that kept the resourceVersion (a resync), 0 for
 * everything else, deletes included.
 */
static int event_priority(const struct ctl *c, enum api_event_type type, const struct obj *old,
			  const struct obj *new)
{
	if (type == API_ADDED && des_initial_list(c->w))
		return CTL_PRIORITY_LOW;
	if (type == API_MODIFIED && old->resource_version == new->resource_version)
		return CTL_PRIORITY_LOW;
	return 0;
}

static void enqueue_keys(struct ctl *c, const struct obj *o, const struct reg *r, int priority)
{
	c->keys.n = 0;
	r->map(r->map_ctx, c->w, o, &c->keys);
	for (size_t i = 0; i < c->keys.n; i++)
		add(c,
		       get_item(c, c->keys.items[i].ns ? c->keys.items[i].ns : "",
				c->keys.items[i].name),
		       0, false, priority);
}

static void on_event(void *ctx, enum api_event_type type, const struct obj *old,
		     const struct obj *new)
{
	struct reg *r = ctx;
	struct ctl *c = r->c;
	int priority;

	if (r->pred && !r->pred(r->pred_ctx, type, old, new))
		return;
	if (c->skip_initial_list && type == API_ADDED && des_initial_list(c->w))
		return;
	priority = event_priority(c, type, old, new);
	if (!r->map) {
		add(c, get_item(c, new->ns, new->name), 0, false, priority);
		return;
	}
	if (old)
		enqueue_keys(c, old, r, priority);
	enqueue_keys(c, new, r, priority);
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
	c->nworkers = 1;
	c->workers = xcalloc(1, sizeof(*c->workers));
	des_add_controller(w, c);
	return c;
}

void ctl_free(struct ctl *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->nworkers; i++)
		if (c->workers[i].it && c->workers[i].res.pass && c->drop)
			c->drop(c->ctx, c->workers[i].res.pass);
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
	free(c->ready.a);
	free(c->waiting.a);
	free(c->workers);
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

void ctl_set_workers(struct ctl *c, int n)
{
	assert(n >= 1 && c->nbusy == 0);
	free(c->workers);
	c->workers = xcalloc((size_t)n, sizeof(*c->workers));
	c->nworkers = n;
	kick(c);
}

void ctl_set_end(struct ctl *c, ctl_end_fn end, ctl_drop_fn drop)
{
	c->end = end;
	c->drop = drop;
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
	ctl_add(c, ns, name, 0, 0);
}

void ctl_enqueue_after(struct ctl *c, const char *ns, const char *name, int64_t delay_ms)
{
	ctl_add(c, ns, name, delay_ms, 0);
}

void ctl_add(struct ctl *c, const char *ns, const char *name, int64_t delay_ms, int priority)
{
	add(c, get_item(c, ns ? ns : "", name), delay_ms > 0 ? delay_ms : 0, false, priority);
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
	return c->ready.n + c->nparked;
}

int ctl_busy(const struct ctl *c)
{
	return c->nbusy;
}

void ctl_resume_pass(struct ctl *c, const char *ns, const char *name, int64_t started_ms,
		     int priority, bool entry, int64_t entry_after_ms, int entry_priority)
{
	struct item *it = get_item(c, ns ? ns : "", name);

	assert(!it->queued && !it->processing && started_ms <= des_now(c->w));
	/* served before every entry: it held its worker before any of them was served */
	add(c, it, 0, false, INT_MAX);
	it->resume_pass_priority = priority;
	it->resume = true;
	it->resume_at = started_ms;
	it->resume_entry = entry;
	it->resume_after = entry_after_ms > 0 ? entry_after_ms : 0;
	it->resume_priority = entry_priority;
}

void ctl_set_failures(struct ctl *c, const char *ns, const char *name, uint32_t failures)
{
	get_item(c, ns ? ns : "", name)->failures = failures;
}

const char *ctl_for_kind(const struct ctl *c)
{
	return c->for_kind;
}

void ctl_set_state(struct ctl *c, ctl_state_fn fn)
{
	c->state = fn;
}

char *ctl_state(const struct ctl *c, const char *ns, const char *name, int64_t anchor_unix_ms)
{
	return c->state ? c->state(c->ctx, c->w, ns, name, anchor_unix_ms) : NULL;
}

void ctl_restore_queue(struct ctl *c)
{
	c->skip_initial_list = true;
}

static int by_queue_order(const void *a, const void *b)
{
	const struct ctl_entry_info *x = a, *y = b;

	if (x->in_flight != y->in_flight)
		return x->in_flight ? -1 : 1;
	return x->counter < y->counter ? -1 : x->counter > y->counter;
}

size_t ctl_entries(const struct ctl *c, struct ctl_entry_info **out)
{
	struct ctl_entry_info *e = NULL;
	size_t n = 0;

	for (size_t b = 0; b < c->nbuckets; b++)
		for (const struct item *it = c->buckets[b]; it; it = it->hnext) {
			int prio = it->priority;

			if (!it->queued && !it->processing)
				continue;
			e = xreallocarray(e, n + 1, sizeof(*e));
			e[n] = (struct ctl_entry_info){
				.ns = it->ns,
				.name = it->name,
				.queued = it->queued,
				.priority = prio,
				.ready_at_ms = it->queued && it->ready_at != READY ? it->ready_at : -1,
				.counter = it->counter,
				.failures = it->failures,
			};
			for (int k = 0; it->processing && k < c->nworkers; k++)
				if (c->workers[k].it == it) {
					e[n].in_flight = true;
					e[n].pass_priority = c->workers[k].priority;
					e[n].started_ms = c->workers[k].started_ms;
				}
			n++;
		}
	if (n)
		qsort(e, n, sizeof(*e), by_queue_order);
	*out = e;
	return n;
}

uint32_t ctl_failures(const struct ctl *c, const char *ns, const char *name)
{
	const struct item *it = find_item(c, ns ? ns : "", name, hash_key(ns ? ns : "", name));

	return it ? it->failures : 0;
}

bool ctl_entry(const struct ctl *c, const char *ns, const char *name, int *priority,
	       int64_t *ready_at_ms)
{
	const struct item *it = find_item(c, ns ? ns : "", name, hash_key(ns ? ns : "", name));

	if (!it || !it->queued)
		return false;
	if (priority)
		*priority = it->priority;
	if (ready_at_ms)
		*ready_at_ms = it->ready_at;
	return true;
}
