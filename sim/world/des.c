#include "sim/world/des.h"
#include "sim/base/gotime.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/world/controllers.h"

/* Event types in the queue. */
enum {
	EV_CALL = 1,   /* a = index into the call pool */
	EV_DELIVER_ADDED = 2, /* a = old snap, b = new snap (as uintptr_t) */
	EV_DELIVER_MODIFIED = 3,
	EV_DELIVER_DELETED = 4,
	EV_DELIVER_INITIAL = 5, /* an ADDED written before the first des_run(): the informers' initial list */
};

struct call {
	des_fn fn;
	void *ctx;
	void *arg;
	uint32_t next_free; /* UINT32_MAX: none */
};

/* One (controller, key) counted while a bound is close. */
struct hot {
	const void *key;
	const char *controller, *kind, *ns, *name;
	uint64_t count;
	uint64_t first; /* order first seen, for a deterministic tie-break */
};

enum cause_mode { CAUSE_TEXT, CAUSE_RECONCILE };

struct des {
	struct des_params p;
	struct evq q;
	struct tl *tl;
	struct api *api;
	uint64_t events;

	struct call *calls;
	uint32_t ncalls, capcalls, free_call;

	struct ctl **ctls;
	size_t nctls;

	enum cause_mode cause_mode;
	tl_str cause;  /* CAUSE_TEXT, or the formatted reconcile cause once asked */
	bool cause_done;
	const char *cause_ctl, *cause_ns, *cause_name;

	bool tracking;
	struct hot *hot; /* in order first seen */
	size_t nhot, caphot;
	uint32_t *hot_index; /* open addressing on the key pointer: index + 1 into hot, 0 empty */
	size_t nhot_index;   /* power of two, > 2 * nhot */
	uint64_t hot_seq;

	bool stop_requested; /* des_request_stop(): end des_run() after the running event */
	bool started;        /* des_run() was called: ADDED events are no longer initial-list ones */
	bool initial;        /* an initial-list ADDED is being dispatched */
	int64_t end_ms;      /* des_set_end(): when the run ended; -1 until then */
};

struct des_params des_params_default(void)
{
	struct des_params p = { .api_latency_ms = 0, .reconcile_ms = 0, .seed = 0 };

	return p;
}

/* Appends @s to @buf (holding @n bytes, NUL-terminated) within @size; returns the new length. */
static size_t cat(char *buf, size_t size, size_t n, const char *s)
{
	size_t len = strlen(s);

	if (len > size - 1 - n)
		len = size - 1 - n;
	memcpy(buf + n, s, len);
	buf[n + len] = '\0';
	return n + len;
}

/* The cause of a store write: a reconcile's text, built once per pass (a pass may write often). */
static tl_str cause_of(void *ctx)
{
	struct des *w = ctx;
	char buf[512];
	size_t n;

	if (w->cause_mode == CAUSE_TEXT || w->cause_done)
		return w->cause;
	/* "reconcile CTL NS/NAME" (or "reconcile CTL NAME"), cut at 511 bytes as snprintf would */
	n = cat(buf, sizeof(buf), 0, "reconcile ");
	n = cat(buf, sizeof(buf), n, w->cause_ctl);
	n = cat(buf, sizeof(buf), n, " ");
	if (w->cause_ns[0]) {
		n = cat(buf, sizeof(buf), n, w->cause_ns);
		n = cat(buf, sizeof(buf), n, "/");
	}
	(void)cat(buf, sizeof(buf), n, w->cause_name);
	w->cause = tl_intern(w->tl, buf);
	w->cause_done = true;
	return w->cause;
}

static void sink(void *ctx, const struct api_event *ev)
{
	struct des *w = ctx;
	uint32_t type = ev->type == API_ADDED      ? (w->started ? EV_DELIVER_ADDED : EV_DELIVER_INITIAL)
			: ev->type == API_MODIFIED ? EV_DELIVER_MODIFIED
						   : EV_DELIVER_DELETED;

	/* the references in @ev move into the queued event */
	evq_push(&w->q, evq_now(&w->q) + w->p.api_latency_ms, DES_PRIO_DELIVERY, type,
		 (uint64_t)(uintptr_t)ev->old, (uint64_t)(uintptr_t)ev->new);
}

struct des *des_new(const struct des_params *p)
{
	struct des *w = xcalloc(1, sizeof(*w));

	w->p = p ? *p : des_params_default();
	w->end_ms = -1;
	assert(w->p.api_latency_ms >= 0 && w->p.reconcile_ms >= 0);
	evq_init(&w->q);
	w->tl = tl_new();
	w->api = api_new(w->tl);
	api_set_cause(w->api, cause_of, w);
	api_set_sink(w->api, sink, w);
	w->free_call = UINT32_MAX;
	return w;
}

void des_free(struct des *w)
{
	struct evq_event ev;

	if (!w)
		return;
	/* pending deliveries hold snapshot references */
	while (evq_pop(&w->q, &ev)) {
		if (ev.type != EV_CALL) {
			api_snap_release((struct api_snap *)(uintptr_t)ev.a);
			api_snap_release((struct api_snap *)(uintptr_t)ev.b);
		}
	}
	evq_release(&w->q);
	for (size_t i = 0; i < w->nctls; i++)
		ctl_free(w->ctls[i]);
	free(w->ctls);
	api_free(w->api);
	tl_free(w->tl);
	free(w->calls);
	free(w->hot);
	free(w->hot_index);
	free(w);
}

struct api *des_api(struct des *w)
{
	return w->api;
}

struct tl *des_timeline(struct des *w)
{
	return w->tl;
}

const struct des_params *des_params(const struct des *w)
{
	return &w->p;
}

int64_t des_now(const struct des *w)
{
	return evq_now(&w->q);
}

void des_set_end(struct des *w, int64_t end_ms)
{
	w->end_ms = end_ms > evq_now(&w->q) ? end_ms : evq_now(&w->q);
}

int64_t des_end(const struct des *w)
{
	return w->end_ms >= 0 ? w->end_ms : evq_now(&w->q);
}

uint64_t des_events(const struct des *w)
{
	return w->events;
}

void des_add_controller(struct des *w, struct ctl *c)
{
	w->ctls = xreallocarray(w->ctls, w->nctls + 1, sizeof(*w->ctls));
	w->ctls[w->nctls++] = c;
}

size_t des_controllers(const struct des *w, struct ctl *const **out)
{
	*out = w->ctls;
	return w->nctls;
}

evq_handle des_at(struct des *w, int64_t t_ms, int32_t prio, des_fn fn, void *ctx, void *arg)
{
	uint32_t i;

	if (w->free_call != UINT32_MAX) {
		i = w->free_call;
		w->free_call = w->calls[i].next_free;
	} else {
		if (w->ncalls == w->capcalls) {
			w->capcalls = w->capcalls ? w->capcalls * 2 : 256;
			w->calls = xreallocarray(w->calls, w->capcalls, sizeof(*w->calls));
		}
		i = w->ncalls++;
	}
	w->calls[i].fn = fn;
	w->calls[i].ctx = ctx;
	w->calls[i].arg = arg;
	w->calls[i].next_free = UINT32_MAX;
	return evq_push(&w->q, t_ms, prio, EV_CALL, i, 0);
}

static void free_call(struct des *w, uint32_t i)
{
	w->calls[i].fn = NULL;
	w->calls[i].next_free = w->free_call;
	w->free_call = i;
}

int des_cancel(struct des *w, evq_handle h)
{
	struct evq_event ev;

	if (!evq_get(&w->q, h, &ev) || ev.type != EV_CALL)
		return EVQ_ENOENT;
	evq_cancel(&w->q, h);
	free_call(w, (uint32_t)ev.a);
	return 0;
}

int des_reschedule(struct des *w, evq_handle h, int64_t t_ms, int32_t prio)
{
	return evq_reschedule(&w->q, h, t_ms, prio);
}

void des_set_cause(struct des *w, const char *cause)
{
	w->cause_mode = CAUSE_TEXT;
	w->cause = tl_intern(w->tl, cause);
}

void des_set_cause_reconcile(struct des *w, const char *controller, const char *ns,
			     const char *name)
{
	w->cause_mode = CAUSE_RECONCILE;
	w->cause_done = false;
	w->cause_ctl = controller;
	w->cause_ns = ns;
	w->cause_name = name;
}

static size_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

/* Forgets the counted keys (the index is cleared, kept allocated). */
static void hot_reset(struct des *w)
{
	w->nhot = 0;
	if (w->hot_index)
		memset(w->hot_index, 0, w->nhot_index * sizeof(*w->hot_index));
}

void des_note_reconcile(struct des *w, const void *key, const char *controller, const char *kind,
			const char *ns, const char *name)
{
	struct hot *h;
	size_t j;

	if (!w->tracking)
		return;
	if (2 * (w->nhot + 1) > w->nhot_index) {
		size_t n = w->nhot_index ? w->nhot_index * 2 : 64;

		free(w->hot_index);
		w->hot_index = xcalloc(n, sizeof(*w->hot_index));
		w->nhot_index = n;
		for (size_t i = 0; i < w->nhot; i++) {
			for (j = hash_ptr(w->hot[i].key) & (n - 1); w->hot_index[j]; j = (j + 1) & (n - 1))
				;
			w->hot_index[j] = (uint32_t)i + 1;
		}
	}
	for (j = hash_ptr(key) & (w->nhot_index - 1); w->hot_index[j];
	     j = (j + 1) & (w->nhot_index - 1)) {
		if (w->hot[w->hot_index[j] - 1].key == key) {
			w->hot[w->hot_index[j] - 1].count++;
			return;
		}
	}
	if (w->nhot == w->caphot) {
		w->caphot = w->caphot ? w->caphot * 2 : 16;
		w->hot = xreallocarray(w->hot, w->caphot, sizeof(*w->hot));
	}
	w->hot_index[j] = (uint32_t)w->nhot + 1;
	h = &w->hot[w->nhot++];
	h->key = key;
	h->controller = controller;
	h->kind = kind;
	h->ns = ns;
	h->name = name;
	h->count = 1;
	h->first = w->hot_seq++;
}

static int cmp_hot(const void *pa, const void *pb)
{
	const struct hot *a = pa, *b = pb;

	if (a->count != b->count)
		return a->count > b->count ? -1 : 1;
	return a->first < b->first ? -1 : a->first > b->first;
}

#define HOT_NAMED 5

/* Adds the notice of a stop by a bound, naming the hottest keys. */
static void bound_notice(struct des *w, enum tl_severity sev, const char *what)
{
	struct tl_objref rel[HOT_NAMED];
	size_t nrel = 0, len;
	char text[1024];

	if (w->nhot)
		qsort(w->hot, w->nhot, sizeof(*w->hot), cmp_hot);
	len = (size_t)snprintf(text, sizeof(text), "%s", what);
	for (size_t i = 0; i < w->nhot && nrel < HOT_NAMED; i++) {
		const struct hot *h = &w->hot[i];

		rel[nrel].kind = h->kind;
		rel[nrel].ns = h->ns;
		rel[nrel].name = h->name;
		rel[nrel].count = h->count;
		nrel++;
		if (len < sizeof(text))
			len += (size_t)snprintf(text + len, sizeof(text) - len,
						"%s %s %s%s%s x%" PRIu64, nrel == 1 ? "; most reconciled:" : ",",
						h->controller, h->ns, h->ns[0] ? "/" : "", h->name,
						h->count);
	}
	tl_notice_add(w->tl, evq_now(&w->q), sev, text, rel, nrel);
}

static void run_event(struct des *w, const struct evq_event *ev)
{
	struct api_event aev;

	w->cause_mode = CAUSE_TEXT;
	w->cause = 0;
	if (ev->type == EV_CALL) {
		struct call c = w->calls[ev->a];

		free_call(w, (uint32_t)ev->a);
		c.fn(w, c.ctx, c.arg);
		return;
	}
	aev.type = ev->type == EV_DELIVER_ADDED || ev->type == EV_DELIVER_INITIAL ? API_ADDED
		   : ev->type == EV_DELIVER_MODIFIED				   ? API_MODIFIED
										   : API_DELETED;
	aev.old = (struct api_snap *)(uintptr_t)ev->a;
	aev.new = (struct api_snap *)(uintptr_t)ev->b;
	w->initial = ev->type == EV_DELIVER_INITIAL;
	api_dispatch(w->api, &aev);
	w->initial = false;
	api_snap_release(aev.old);
	api_snap_release(aev.new);
}

enum des_stop des_run(struct des *w, int64_t horizon_ms, const struct des_limits *lim)
{
	uint64_t max_events = lim ? lim->max_events : 0;
	uint64_t per_ms = lim ? lim->max_events_per_ms : 0;
	void (*tick)(void *, int64_t, uint64_t) = lim ? lim->tick : NULL;
	uint64_t run = 0, at_now = 0;
	int64_t now = evq_now(&w->q);
	struct evq_event ev;
	char what[512];

	if (!per_ms) {
		size_t n = api_count(w->api, NULL);

		per_ms = n > 2000 ? 50 * (uint64_t)n : 100000;
	}
	w->started = true;
	w->tracking = false;
	hot_reset(w);
	for (;;) {
		int64_t t = evq_peek_time(&w->q);

		if (w->stop_requested) {
			w->stop_requested = false;
			return DES_STOPPED;
		}
		if (t == EVQ_NEVER)
			return DES_QUIESCENT;
		if (t > horizon_ms) {
			char hz[GT_DURATION_BUFSZ];
			size_t pending = evq_len(&w->q);

			gt_format_duration(horizon_ms, hz, sizeof(hz));
			snprintf(what, sizeof(what), "horizon %s reached with %zu event%s pending", hz,
				 pending, pending == 1 ? "" : "s");
			tl_notice_add(w->tl, horizon_ms, TL_INFO, what, NULL, 0);
			return DES_HORIZON;
		}
		if (max_events && run >= max_events) {
			char at[GT_DURATION_BUFSZ];

			gt_format_duration(now, at, sizeof(at));
			snprintf(what, sizeof(what),
				 "event budget of %" PRIu64 " event%s exhausted at %s; run stopped "
				 "(%s)",
				 max_events, max_events == 1 ? "" : "s", at,
				 lim->budget_from ? lim->budget_from : "spec.limits.eventBudget sets it");
			bound_notice(w, TL_WARNING, what);
			return DES_BUDGET;
		}
		if (t != now) {
			now = t;
			at_now = 0;
			/* the per-instant count starts over; keep counting for the budget's last tenth */
			if (w->tracking && !(max_events && run >= max_events - max_events / 10)) {
				w->tracking = false;
				hot_reset(w);
			}
		}
		if (at_now >= per_ms) {
			char at[GT_DURATION_BUFSZ];

			gt_format_duration(now, at, sizeof(at));
			snprintf(what, sizeof(what),
				 "zero-delay loop: %" PRIu64 " events at %s without the clock "
				 "advancing; run stopped (spec.limits.eventsPerInstant sets the bound; "
				 "on a cluster API latency spaces such writes out: spec.api.latency, "
				 "e.g. 10ms, shows them as they would happen)",
				 at_now, at);
			bound_notice(w, TL_ERROR, what);
			return DES_LOOP;
		}
		/* name the hot keys: count reconciles over the last half before a bound */
		if (!w->tracking && (at_now >= per_ms / 2 ||
				     (max_events && run >= max_events - max_events / 10)))
			w->tracking = true;

		evq_pop(&w->q, &ev);
		api_set_now(w->api, ev.at);
		run++;
		at_now++;
		w->events++;
		run_event(w, &ev);
		if (tick && (run & (DES_TICK_EVENTS - 1)) == 0)
			tick(lim->tick_ctx, ev.at, run);
	}
}

const char *des_stop_name(enum des_stop s)
{
	switch (s) {
	case DES_QUIESCENT:
		return "quiescent";
	case DES_HORIZON:
		return "horizon";
	case DES_BUDGET:
		return "budget";
	case DES_LOOP:
		return "loop";
	case DES_STOPPED:
		return "completed";
	}
	return "?";
}

bool des_initial_list(const struct des *w)
{
	return w->initial;
}

void des_request_stop(struct des *w)
{
	w->stop_requested = true;
}
