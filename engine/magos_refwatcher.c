/* The Magos RefWatcher registry and poll decisions; see magos_refwatcher.h. */
#include "engine/magos_refwatcher.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

void mrw_registry_init(struct mrw_registry *r)
{
	memset(r, 0, sizeof(*r));
}

static void entry_free(struct mrw_entry *e)
{
	if (!e)
		return;
	free(e->ns);
	free(e->name);
	free(e->url);
	free(e->ref);
	free(e->last_sha);
	free(e);
}

void mrw_registry_release(struct mrw_registry *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++)
		entry_free(r->slots[i]);
	free(r->slots);
	free(r->sorted);
	memset(r, 0, sizeof(*r));
}

static int cmp_key(const struct mrw_entry *e, const char *ns, const char *name)
{
	int c = strcmp(e->ns, ns);

	return c ? c : strcmp(e->name, name);
}

/* Position of @ns/@name in `sorted` (found or insertion point). */
static size_t lower_bound(const struct mrw_registry *r, const char *ns, const char *name)
{
	size_t lo = 0, hi = r->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(r->slots[r->sorted[mid]], ns, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static struct mrw_entry *slot_of(const struct mrw_registry *r, const char *ns, const char *name)
{
	size_t i = lower_bound(r, ns, name);

	if (i < r->n && cmp_key(r->slots[r->sorted[i]], ns, name) == 0)
		return r->slots[r->sorted[i]];
	return NULL;
}

struct mrw_entry *mrw_find(const struct mrw_registry *r, const char *ns, const char *name)
{
	struct mrw_entry *e = slot_of(r, ns, name);

	return e && e->present ? e : NULL;
}

struct mrw_entry *mrw_by_id(const struct mrw_registry *r, size_t id)
{
	return id < r->n ? r->slots[id] : NULL;
}

int64_t mrw_parse_poll_interval(bool parsed_ok, int64_t parsed_ms, int64_t default_ms)
{
	if (parsed_ok && parsed_ms > 0)
		return parsed_ms;
	return default_ms;
}

static void set_str(char **field, const char *v)
{
	free(*field);
	*field = xstrdup(v ? v : "");
}

enum mrw_upsert mrw_upsert_entry(struct mrw_registry *r, const char *ns, const char *name,
				 const char *url, const char *ref, int64_t interval_ms,
				 const char *observed_revision, int64_t now_ms, int64_t jitter_ms,
				 struct mrw_entry **entry_out)
{
	struct mrw_entry *e = slot_of(r, ns, name);

	assert(interval_ms > 0);
	if (e && e->present) {
		if (entry_out)
			*entry_out = e;
		if (strcmp(e->url, url) == 0 && strcmp(e->ref, ref) == 0 &&
		    e->interval_ms == interval_ms)
			return MRW_UPSERT_NOOP;
		if (strcmp(e->url, url) != 0 || strcmp(e->ref, ref) != 0) {
			set_str(&e->url, url);
			set_str(&e->ref, ref);
			e->interval_ms = interval_ms;
			e->next_poll_at = now_ms;
			return MRW_UPSERT_MOVED;
		}
		e->interval_ms = interval_ms;
		return MRW_UPSERT_INTERVAL;
	}
	if (!e) {
		size_t pos = lower_bound(r, ns, name);

		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 16;
			r->slots = xreallocarray(r->slots, r->cap, sizeof(*r->slots));
			r->sorted = xreallocarray(r->sorted, r->cap, sizeof(*r->sorted));
		}
		e = xcalloc(1, sizeof(*e));
		e->ns = xstrdup(ns);
		e->name = xstrdup(name);
		e->id = r->n;
		r->slots[r->n] = e;
		memmove(r->sorted + pos + 1, r->sorted + pos, (r->n - pos) * sizeof(*r->sorted));
		r->sorted[pos] = e->id;
		r->n++;
	}
	/* A fresh entry (new, or re-registered after removal): nothing of the old one survives. */
	e->present = true;
	set_str(&e->url, url);
	set_str(&e->ref, ref);
	e->interval_ms = interval_ms;
	assert(jitter_ms >= 0 && jitter_ms < interval_ms);
	e->next_poll_at = now_ms + jitter_ms;
	set_str(&e->last_sha, observed_revision);
	r->npresent++;
	if (entry_out)
		*entry_out = e;
	return MRW_UPSERT_NEW;
}

bool mrw_remove_entry(struct mrw_registry *r, const char *ns, const char *name)
{
	struct mrw_entry *e = mrw_find(r, ns, name);

	if (!e)
		return false;
	e->present = false;
	r->npresent--;
	return true;
}

static int64_t retry_delay(const struct mrw_entry *e)
{
	return e->interval_ms < MRW_MAX_RETRY_BACKOFF_MS ? e->interval_ms : MRW_MAX_RETRY_BACKOFF_MS;
}

enum mrw_poll mrw_poll_remote(struct mrw_entry *e, int resolve_rc, const char *sha,
			      int64_t now_ms, int64_t *delay_ms)
{
	if (resolve_rc != 0) {
		*delay_ms = retry_delay(e);
		e->next_poll_at = now_ms + *delay_ms;
		return MRW_POLL_ERROR;
	}
	if (strcmp(sha, e->last_sha) == 0) {
		*delay_ms = e->interval_ms;
		e->next_poll_at = now_ms + *delay_ms;
		return MRW_POLL_UNCHANGED;
	}
	if (!*e->last_sha) {
		set_str(&e->last_sha, sha);
		*delay_ms = e->interval_ms;
		e->next_poll_at = now_ms + *delay_ms;
		return MRW_POLL_SEEDED;
	}
	*delay_ms = 0;
	return MRW_POLL_CHANGED;
}

int64_t mrw_patch_done(struct mrw_entry *e, bool ok, const char *sha, int64_t now_ms)
{
	int64_t d;

	if (ok) {
		set_str(&e->last_sha, sha);
		d = e->interval_ms;
	} else {
		d = retry_delay(e);
	}
	e->next_poll_at = now_ms + d;
	return d;
}

const char *mrw_poll_name(enum mrw_poll p)
{
	switch (p) {
	case MRW_POLL_ERROR: return "error";
	case MRW_POLL_UNCHANGED: return "unchanged";
	case MRW_POLL_SEEDED: return "seeded";
	case MRW_POLL_CHANGED: return "changed";
	}
	return "unknown";
}
