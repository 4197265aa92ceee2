#ifndef MAGOS_SIM_TIMELINE_H
#define MAGOS_SIM_TIMELINE_H

/*
 * The timeline: an append-only record of every object transition in one run,
 * plus "notices" (things the simulator itself observed, such as a zero-delay
 * loop or the horizon being reached).  Reporters iterate it; nothing here does
 * I/O.
 *
 * Invariants:
 *  - entries and notices keep the order they were appended in (the simulated
 *    clock never goes back, so t_ms is non-decreasing when the DES appends);
 *  - every string an entry or notice refers to is interned: stored once per
 *    timeline, NUL-terminated, never moved or freed before tl_free(); so the
 *    pointers tl_get() hands out stay valid for the timeline's life;
 *  - a stored entry costs 56 bytes whatever its strings (they are 32-bit ids
 *    into the intern table); repeated kinds, names, phases, reasons, messages
 *    and causes are stored once.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What happened to the object. */
enum tl_change {
	TL_CREATED,  /* "created" */
	TL_UPDATED,  /* "updated": metadata (labels, annotations, finalizers) and/or spec */
	TL_STATUS,   /* "status": the status subresource */
	TL_DELETING, /* "deleting": deletionTimestamp set, finalizers pending */
	TL_DELETED,  /* "deleted": gone from the store */
	/*
	 * "event": a Kubernetes Event a controller emitted about the object
	 * (what `kubectl get events` lists): phase holds its type (Normal,
	 * Warning), reason its reason, message its note; the object itself did
	 * not change (resource_version and generation 0).
	 */
	TL_EVENT,
};

/* An interned string: 0 is NULL, any other value a string of this timeline. */
typedef uint32_t tl_str;

/* One transition, strings resolved (what tl_get() fills and tl_append() reads). */
struct tl_entry {
	int64_t t_ms;              /* simulated ms since scenario start */
	const char *kind;          /* "Workspace" */
	const char *ns;            /* "" when cluster-scoped */
	const char *name;
	enum tl_change change;
	const char *detail;        /* "labels: env=dev→prod", "spec (generation 2)"; may be NULL */
	const char *phase;         /* status.phase, NULL when the object has none */
	const char *reason;        /* Ready condition reason (StageSet, FleetRollout) or status.reason; may be NULL */
	const char *message;       /* likewise the message; may be NULL */
	const char *cause;         /* "reconcile rollout-controller default/demo", "load", ...; may be NULL */
	uint64_t resource_version; /* after the change */
	int64_t generation;        /* after the change */
};

/* Same, strings as interned ids (cheaper to append from hot code). */
struct tl_rec {
	int64_t t_ms;
	uint64_t resource_version;
	uint32_t generation; /* saturates at UINT32_MAX */
	tl_str kind, ns, name, detail, phase, reason, message, cause;
	uint8_t change; /* enum tl_change */
};

enum tl_severity { TL_INFO, TL_WARNING, TL_ERROR };

/* An object a notice is about, with how often it was involved (0 when not counted). */
struct tl_objref {
	const char *kind;
	const char *ns;
	const char *name;
	uint64_t count;
};

/* A notice as tl_notice_get() returns it; every pointer borrowed from the timeline. */
struct tl_notice {
	int64_t t_ms;
	enum tl_severity severity;
	const char *text;
	const struct tl_objref *related; /* nrelated entries, most involved first */
	size_t nrelated;
};

struct tl;

/* tl_new() - an empty timeline.  Returns new; free with tl_free().  Cannot fail (aborts on OOM). */
struct tl *tl_new(void);

/* tl_free() - frees @tl, its entries, notices and interned strings.  Accepts NULL. */
void tl_free(struct tl *tl);

/*
 * tl_intern() - the id of @s in @tl's string table, adding a copy when new.
 * @s: NUL-terminated string, or NULL (gives 0).
 * Returns: the id; the same string always gives the same id.
 * Cost: O(length of @s) expected.
 */
tl_str tl_intern(struct tl *tl, const char *s);

/* tl_str_get() - the interned string of @id (borrowed, valid until tl_free), or NULL for 0. */
const char *tl_str_get(const struct tl *tl, tl_str id);

/*
 * tl_append() - append one transition; its strings are interned (copied).
 * Returns: the new entry's index.  Cannot fail (aborts on OOM).
 */
size_t tl_append(struct tl *tl, const struct tl_entry *e);

/* tl_append_rec() - append a transition whose strings are ids from tl_intern(). Returns its index. */
size_t tl_append_rec(struct tl *tl, const struct tl_rec *r);

/* tl_count() - number of entries. */
size_t tl_count(const struct tl *tl);

/* tl_get() - fills @out with entry @i (< tl_count(), asserted); strings borrowed from @tl. */
void tl_get(const struct tl *tl, size_t i, struct tl_entry *out);

/* tl_rec_at() - borrowed pointer to the compact record @i (< tl_count(), asserted). */
const struct tl_rec *tl_rec_at(const struct tl *tl, size_t i);

/*
 * tl_notice_add() - append a notice.
 * @t_ms:     simulated ms it refers to.
 * @text:     what happened (copied).
 * @related:  @nrelated objects involved (strings copied), most involved first; may be NULL when 0.
 * Returns: the notice's index.  Cannot fail (aborts on OOM).
 */
size_t tl_notice_add(struct tl *tl, int64_t t_ms, enum tl_severity sev, const char *text,
		     const struct tl_objref *related, size_t nrelated);

/* tl_notice_count() - number of notices. */
size_t tl_notice_count(const struct tl *tl);

/* tl_notice_get() - fills @out with notice @i (< tl_notice_count(), asserted); all borrowed. */
void tl_notice_get(const struct tl *tl, size_t i, struct tl_notice *out);

/*
 * tl_status_names() - whether the detail of a status write (@detail,
 * "status: conditions, -pendingUpdate, version"; NULL or another detail:
 * no) names top-level status field @field.  *@removed receives whether it
 * names it as removed ("-field"); untouched when it does not name it.
 */
bool tl_status_names(const char *detail, const char *field, bool *removed);

/* tl_change_name() - "created", "updated", "status", "deleting", "deleted" or "event". */
const char *tl_change_name(enum tl_change c);

/* tl_severity_name() - "info", "warning" or "error". */
const char *tl_severity_name(enum tl_severity s);

/* tl_memory() - bytes the timeline holds (entries, notices, strings, tables), for benchmarks. */
size_t tl_memory(const struct tl *tl);

#endif
