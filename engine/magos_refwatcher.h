#ifndef MAGOS_ENGINE_MAGOS_REFWATCHER_H
#define MAGOS_ENGINE_MAGOS_REFWATCHER_H

/*
 * The Magos RefWatcher (spec §4.11): a registry of Workspaces to poll, one
 * entry per Workspace {url, ref, interval, nextPollAt, lastSHA}, and the
 * decisions of one poll.  Pure: the adapter owns the registry, draws the
 * first-poll jitter, resolves refs against the modelled remotes, patches the
 * detected-revision annotation and schedules the poll timers.
 *
 * Timers: upstream keeps a heap of (key, nextPollAt) pushes and never removes
 * a push when an entry is rescheduled, changed or deleted; a popped push polls
 * whenever its key is still registered.  The adapter reproduces this by
 * scheduling one timer per push (mrw_upsert_entry() / mrw_poll_*() say when)
 * and never cancelling it; each firing timer calls mrw_find() and polls if the
 * entry exists.  So after a url/ref change, or a delete and re-create of the
 * Workspace before a stale push fires, an entry is polled by two timer chains,
 * as upstream does.
 *
 * Source: magosproject/magos@1afc8e6 internal/controller/refwatcher/refwatcher_controller.go
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* --default-poll-interval (30 s) and maxRetryBackoff (30 s). */
#define MRW_DEFAULT_POLL_INTERVAL_MS 30000
#define MRW_MAX_RETRY_BACKOFF_MS 30000

/* One registry entry.  Strings owned by the registry. */
struct mrw_entry {
	char *ns, *name;       /* the Workspace key */
	size_t id;             /* stable index, for timer arguments (mrw_by_id) */
	bool present;          /* false after removeEntry (the slot and id stay) */
	char *url, *ref;
	int64_t interval_ms;   /* > 0 */
	int64_t next_poll_at;  /* simulated ms */
	char *last_sha;        /* "" = not seeded */
};

/* The registry.  Invariant: `sorted` holds every slot in (ns, name) order. */
struct mrw_registry {
	struct mrw_entry **slots; /* by id */
	size_t n, cap;
	size_t *sorted;           /* ids */
	size_t npresent;          /* refwatcher_registry_size */
};

/* What mrw_upsert_entry() did. */
enum mrw_upsert {
	MRW_UPSERT_NOOP,     /* same url, ref and interval */
	MRW_UPSERT_NEW,      /* new entry: schedule a timer at next_poll_at */
	MRW_UPSERT_MOVED,    /* url or ref changed: schedule a timer now (lastSHA kept) */
	MRW_UPSERT_INTERVAL, /* interval-only change: schedule unchanged, no timer */
};

/* Outcome of one poll (refwatcher_poll_total result label, plus "patch"). */
enum mrw_poll {
	MRW_POLL_ERROR,     /* "error": retry in min(interval, 30 s) */
	MRW_POLL_UNCHANGED, /* "unchanged": next poll in interval */
	MRW_POLL_SEEDED,    /* "seeded": lastSHA was empty, remembered; no patch */
	MRW_POLL_CHANGED,   /* a new SHA: the caller patches, then calls mrw_patch_done() */
};

/* mrw_registry_init() / mrw_registry_release(): caller-owned registry; release accepts NULL. */
void mrw_registry_init(struct mrw_registry *r);
void mrw_registry_release(struct mrw_registry *r);

/* mrw_find() - the present entry of @ns/@name, or NULL.  Borrowed.  Cost: O(log n). */
struct mrw_entry *mrw_find(const struct mrw_registry *r, const char *ns, const char *name);

/* mrw_by_id() - the slot @id (present or not), or NULL when out of range.  Borrowed. */
struct mrw_entry *mrw_by_id(const struct mrw_registry *r, size_t id);

/*
 * mrw_parse_poll_interval() - @parsed_ok/@parsed_ms: the git-poll-interval
 * annotation as time.ParseDuration read it (absent: false); returns it when
 * ok and > 0, else @default_ms.
 * Source: RW parsePollInterval.
 */
int64_t mrw_parse_poll_interval(bool parsed_ok, int64_t parsed_ms, int64_t default_ms);

/*
 * mrw_upsert_entry() - register or update the Workspace @ns/@name.
 * @interval_ms: > 0 (asserted), from mrw_parse_poll_interval().
 * @observed_revision: status.observedRevision (seeds lastSHA of a new entry; NULL = "").
 * @jitter_ms: for a new entry, uniform in [0, interval) drawn by the caller
 *             (rand.Int63n(interval)); ignored otherwise.
 * @entry_out: receives the entry (may be NULL).
 * Returns: what changed.  Strings copied.
 * Source: RW Reconcile (the registry part), upsertEntry.
 */
enum mrw_upsert mrw_upsert_entry(struct mrw_registry *r, const char *ns, const char *name,
				 const char *url, const char *ref, int64_t interval_ms,
				 const char *observed_revision, int64_t now_ms, int64_t jitter_ms,
				 struct mrw_entry **entry_out);

/*
 * mrw_remove_entry() - forget @ns/@name (Workspace gone or terminating).
 * Returns: true when it was registered.  Source: RW removeEntry.
 */
bool mrw_remove_entry(struct mrw_registry *r, const char *ns, const char *name);

/*
 * mrw_poll_remote() - the decision of one poll of @e at @now_ms.
 * @resolve_rc: 0 when the remote resolved the ref to @sha (40 hex), else an
 *              error (ls-remote failure, ref not found).
 * @delay_ms:   receives the delay of the next poll (the caller schedules a
 *              timer at now + delay) except for MRW_POLL_CHANGED, where it
 *              comes from mrw_patch_done().
 * Returns: the outcome; SEEDED stores @sha as lastSHA.
 * Source: RW pollRemote (up to the patch), reschedule, minDuration.
 */
enum mrw_poll mrw_poll_remote(struct mrw_entry *e, int resolve_rc, const char *sha,
			      int64_t now_ms, int64_t *delay_ms);

/*
 * mrw_patch_done() - after MRW_POLL_CHANGED: @ok says whether the Get and the
 * merge patch of detected-revision=@sha succeeded.  On success lastSHA = @sha
 * and the delay is the interval ("changed"); on failure min(interval, 30 s)
 * ("error").  Sets @e->next_poll_at.  Returns the delay, ms.
 */
int64_t mrw_patch_done(struct mrw_entry *e, bool ok, const char *sha, int64_t now_ms);

/* mrw_poll_name() - "error", "unchanged", "seeded" or "changed". */
const char *mrw_poll_name(enum mrw_poll p);

#endif
