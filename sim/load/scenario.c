/*
 * Scenario loading: inputs → files → YAML documents → one Scenario document
 * plus admitted objects and scripted events.
 *
 * The work is done in passes so that every problem is reported in one run:
 *  1. collect the files (directories expanded, the Scenario's includes added
 *     right after the scenario file; scn_files.c) and parse each into
 *     documents; the Scenario document is validated as soon as it is met
 *     (scn_document.c: its includes are needed to know which files come
 *     next);
 *  2. admit every other document as the API server would
 *     (sim/load/manifest.h),
 *     then the objects spec.generate makes (scn_generate.c);
 *  3. turn the validated `spec.events` into event records (scn_events.c),
 *     admitting the `apply` payloads and checking each target against the
 *     objects known at that point of the script; check what spec.models
 *     names (scn_models.c) and every gate against spec.metrics
 *     (scn_metrics.c).
 *
 * This file holds the passes and the lifecycle; the document itself is
 * scn_document.c, and sim/load/scn_parse.h lists the section files.
 */
#include "sim/load/scenario.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/readfile.h"
#include "sim/cluster/admission.h"
#include "sim/load/scn_parse.h"

static void observer_state_release(struct scn_observer_state *e);

/* ---------------------------------------------------------------- lifecycle */

void scn_init(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->seed = SCN_DEFAULT_SEED;
	s->horizon_ms = SCN_DEFAULT_HORIZON_MS;
	s->start_unix_ms = SCN_DEFAULT_START_UNIX_MS;
	s->api_latency_ms = SCN_DEFAULT_API_LATENCY_MS;
	s->reconcile_ms = SCN_DEFAULT_RECONCILE_MS;
	s->event_budget = SCN_DEFAULT_EVENT_BUDGET;
	s->events_per_instant = SCN_DEFAULT_EVENTS_PER_INSTANT;
	scnp_models_init(&s->models);
}

/* The budget the scenario asks for, before the command line's limit. */
static uint64_t asked_budget(const struct scenario *s)
{
	uint64_t b = SCN_EVENTS_PER_OBJECT * (uint64_t)s->nobjs;

	if (s->event_budget)
		return s->event_budget;
	return b > SCN_MIN_EVENT_BUDGET ? b : SCN_MIN_EVENT_BUDGET;
}

bool scn_event_budget_capped(const struct scenario *s)
{
	return s->run_events_limit && asked_budget(s) > s->run_events_limit;
}

uint64_t scn_event_budget(const struct scenario *s)
{
	uint64_t b = asked_budget(s);

	return s->run_events_limit && b > s->run_events_limit ? s->run_events_limit : b;
}

void scn_release(struct scenario *s)
{
	if (!s)
		return;
	free(s->name);
	free(s->latest_what);
	free(s->run_scenario);
	for (size_t i = 0; i < s->nobjs; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	for (size_t i = 0; i < s->nevents; i++)
		scnp_event_release(&s->events[i]);
	free(s->events);
	for (size_t i = 0; i < s->nmevents; i++)
		scnp_mevent_release(&s->mevents[i]);
	free(s->mevents);
	for (size_t i = 0; i < s->nfevents; i++)
		scnp_fevent_release(&s->fevents[i]);
	free(s->fevents);
	for (size_t i = 0; i < s->nseries; i++)
		scnp_series_release(&s->series[i]);
	free(s->series);
	scnp_free_strv(s->fleet.allowed_action_hosts, s->fleet.nallowed_action_hosts);
	scn_models_release(&s->models);
	scnp_free_strv(s->ignored, s->nignored);
	man_rejected_release(s->refused_ws, s->nrefused_ws);
	scnp_free_strv(s->files, s->nfiles);
	for (size_t i = 0; i < s->nqueue; i++) {
		free(s->queue[i].ns);
		free(s->queue[i].name);
	}
	free(s->queue);
	for (size_t i = 0; i < s->nrefwatcher; i++) {
		struct scn_refwatcher_entry *e = &s->refwatcher[i];

		free(e->ns);
		free(e->name);
		free(e->url);
		free(e->ref);
		free(e->last_sha);
		free(e->polls);
	}
	free(s->refwatcher);
	for (size_t i = 0; i < s->nobserver; i++)
		observer_state_release(&s->observer[i]);
	free(s->observer);
	scnp_source_seeds_release(s);
	val_free(s->expect);
	val_free(s->variants);
	val_free(s->sweep);
	val_free(s->models_raw);
	memset(s, 0, sizeof(*s));
}

/* base_name() - @path's last component without its extension ("a/b.yaml" → "b").  New. */
static char *base_name(const char *path)
{
	char *copy = xstrdup(path), *b, *dot, *res;
	size_t n = strlen(copy);

	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	b = strrchr(copy, '/');
	b = b && b[1] ? b + 1 : copy;
	if (strcmp(b, ".") == 0 || strcmp(b, "..") == 0) {
		/* "." names the working directory; ".." is not worth resolving. */
		char cwd[4096];
		bool dot_dir = strcmp(b, ".") == 0;

		free(copy);
		if (dot_dir && getcwd(cwd, sizeof(cwd)) && strcmp(cwd, "/") != 0)
			return base_name(cwd);
		return xstrdup("scenario");
	}
	dot = strrchr(b, '.');
	if (dot && dot != b)
		*dot = '\0';
	res = xstrdup(b);
	free(copy);
	return res;
}

static const char *borrow_file(const struct scenario *s, const char *name)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		if (strcmp(s->files[i], name) == 0)
			return s->files[i];
	}
	return NULL;
}

/* --------------------------------------------------- work-queue annotations */

/* The controllers a snapshot's queue annotations may name (sim/wire), in the order of enum-like indexes. */
static const char *const queue_controllers[SCN_NQUEUE_CONTROLLERS] = {
	"rollout-controller",	  "project-controller",	 "workspace-controller",
	"refwatcher",		  "fleetrollout-controller", "stageset-controller",
};

const char *scn_queue_controller(size_t i)
{
	return i < SCN_NQUEUE_CONTROLLERS ? queue_controllers[i] : NULL;
}

/* int_of() - @v as an integer in [@lo, @hi], strictly; false when it is not one. */
static bool int_of(const char *v, long long lo, long long hi, long long *out)
{
	char *end;

	if (!(*v == '-' || (*v >= '0' && *v <= '9')))
		return false;
	errno = 0;
	*out = strtoll(v, &end, 10);
	return errno == 0 && *end == '\0' && *out >= lo && *out <= hi;
}

/*
 * parse_entry() - "at=TIME priority=P order=N[ failures=F]" or
 * "started=TIME priority=P order=N[ failures=F][ next=TIME nextPriority=P]"
 * (sim/observe/kubeget.h) into @e; false when it is not exactly one of them.
 */
static bool parse_entry(const char *v, struct scn_queue_entry *e)
{
	char tok[128];
	bool at = false, prio = false, order = false, next = false, next_prio = false;
	long long n = 0;

	while (*v) {
		const char *sp = strchr(v, ' ');
		size_t len = sp ? (size_t)(sp - v) : strlen(v);
		char *eq;
		bool ok;

		if (len == 0 || len >= sizeof(tok))
			return false;
		memcpy(tok, v, len);
		tok[len] = '\0';
		v += len + (sp ? 1 : 0);
		if (sp && !*v)
			return false; /* a trailing space */
		if (!(eq = strchr(tok, '=')))
			return false;
		*eq++ = '\0';
		if (strcmp(tok, "at") == 0 || strcmp(tok, "started") == 0) {
			ok = !at && gt_parse_rfc3339(eq, &e->ready_unix_ms, NULL, 0) == 0;
			at = true;
			e->in_flight = tok[0] == 's';
		} else if (strcmp(tok, "next") == 0) {
			ok = !next && gt_parse_rfc3339(eq, &e->next_unix_ms, NULL, 0) == 0;
			next = true;
		} else if (strcmp(tok, "priority") == 0 || strcmp(tok, "nextPriority") == 0) {
			bool *seen = tok[0] == 'p' ? &prio : &next_prio;

			ok = !*seen && int_of(eq, INT_MIN, INT_MAX, &n);
			*seen = true;
			*(tok[0] == 'p' ? &e->priority : &e->next_priority) = (int)n;
		} else if (strcmp(tok, "order") == 0) {
			ok = !order && int_of(eq, 0, LLONG_MAX, &n);
			order = true;
			e->order = (uint64_t)n;
		} else if (strcmp(tok, "failures") == 0) {
			ok = e->failures == 0 && int_of(eq, 1, UINT32_MAX, &n);
			e->failures = (uint32_t)n;
		} else
			ok = false;
		if (!ok)
			return false;
	}
	e->has_next = next;
	return at && prio && order && next == next_prio && (!next || e->in_flight);
}

static int by_order(const void *a, const void *b)
{
	const struct scn_queue_entry *x = a, *y = b;

	if (x->controller != y->controller)
		return x->controller < y->controller ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * take_queues() - reads and takes off every object's annotations
 * SCN_QUEUE_PREFIX<controller> (what a snapshot of the simulator says of
 * the controllers' work queues; sim/observe/kubeget.h), so that the objects
 * are stored as the cluster held them.  An unknown controller or a value
 * that does not parse is an error at the object.
 */
static void take_queues(struct scenario *out, struct diag *d)
{
	const size_t plen = strlen(SCN_QUEUE_PREFIX);

	for (size_t i = 0; i < out->nobjs; i++) {
		struct obj *o = out->objs[i];

		for (size_t k = 0; k < o->annotations.n;) {
			const char *key = o->annotations.items[k].key;
			const char *v = o->annotations.items[k].value;
			struct scn_queue_entry e = { 0 };
			size_t c = SCN_NQUEUE_CONTROLLERS;

			if (strncmp(key, SCN_QUEUE_PREFIX, plen) != 0) {
				k++;
				continue;
			}
			for (size_t j = 0; j < SCN_NQUEUE_CONTROLLERS; j++)
				if (strcmp(key + plen, queue_controllers[j]) == 0)
					c = j;
			if (c == SCN_NQUEUE_CONTROLLERS)
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation '%s' names no controller of the "
					   "simulator (rollout-controller, project-controller, "
					   "workspace-controller, refwatcher, fleetrollout-controller, "
					   "stageset-controller)",
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key);
			else if (strcmp(v, "none") != 0 && !parse_entry(v, &e))
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation %s='%s' is not a work-queue entry: "
					   "expected 'none', 'at=RFC3339 priority=INT order=INT[ failures=INT]' or "
					   "'started=RFC3339 priority=INT order=INT[ failures=INT][ next=RFC3339 "
					   "nextPriority=INT]'",
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key, v);
			else {
				out->queue_restored[c] = true;
				if (strcmp(v, "none") != 0) {
					e.controller = c;
					e.ns = xstrdup(o->ns);
					e.name = xstrdup(o->name);
					out->queue = xreallocarray(out->queue, out->nqueue + 1,
								   sizeof(*out->queue));
					out->queue[out->nqueue++] = e;
				}
			}
			/* taken off (the map closes up behind it) */
			obj_strmap_del(&o->annotations, key);
		}
	}
	if (out->nqueue)
		qsort(out->queue, out->nqueue, sizeof(*out->queue), by_order);
}

/* Decodes @v (percent-encoded, SCN_REFWATCHER_STATE_FORMAT) up to @len bytes into a new string; NULL when malformed. */
static char *decoded(const char *v, size_t len)
{
	char *out = xmalloc(len + 1), *o = out;

	for (size_t i = 0; i < len; i++) {
		unsigned hi, lo;

		if (v[i] != '%') {
			*o++ = v[i];
			continue;
		}
		if (i + 2 >= len)
			goto malformed;
		hi = (unsigned)(isdigit((unsigned char)v[i + 1]) ? v[i + 1] - '0'
							       : (v[i + 1] | 0x20) - 'a' + 10);
		lo = (unsigned)(isdigit((unsigned char)v[i + 2]) ? v[i + 2] - '0'
							       : (v[i + 2] | 0x20) - 'a' + 10);
		if (!isxdigit((unsigned char)v[i + 1]) || !isxdigit((unsigned char)v[i + 2]) ||
		    (hi << 4 | lo) == 0)
			goto malformed;
		*o++ = (char)(hi << 4 | lo);
		i += 2;
	}
	*o = '\0';
	return out;
malformed:
	free(out);
	return NULL;
}

/* The push list "RFC3339#INT[,RFC3339#INT...]" (or "") into @e. */
static bool parse_polls(const char *v, struct scn_refwatcher_entry *e)
{
	while (*v) {
		const char *comma = strchr(v, ','), *hash;
		size_t len = comma ? (size_t)(comma - v) : strlen(v);
		char when[GT_RFC3339_BUFSZ], num[24];
		long long n;
		struct scn_refwatcher_poll p;

		hash = memchr(v, '#', len);
		if (!hash || (size_t)(hash - v) >= sizeof(when) ||
		    len - (size_t)(hash - v) - 1 >= sizeof(num))
			return false;
		memcpy(when, v, (size_t)(hash - v));
		when[hash - v] = '\0';
		memcpy(num, hash + 1, len - (size_t)(hash - v) - 1);
		num[len - (size_t)(hash - v) - 1] = '\0';
		if (gt_parse_rfc3339(when, &p.at_unix_ms, NULL, 0) != 0 ||
		    !int_of(num, 0, LLONG_MAX, &n))
			return false;
		p.order = (uint64_t)n;
		e->polls = xreallocarray(e->polls, e->npolls + 1, sizeof(*e->polls));
		e->polls[e->npolls++] = p;
		v += len + (comma ? 1 : 0);
		if (comma && !*v)
			return false; /* a trailing comma */
	}
	return true;
}

/* SCN_REFWATCHER_STATE_FORMAT into @e (url, ref, last_sha, polls; the key is the caller's). */
static bool parse_refwatcher_state(const char *v, struct scn_refwatcher_entry *e)
{
	bool sha = false, url = false, ref = false, interval = false, polls = false;

	while (*v) {
		const char *sp = strchr(v, ' '), *eq;
		size_t len = sp ? (size_t)(sp - v) : strlen(v), klen;
		char *val;
		bool ok = true;

		eq = memchr(v, '=', len);
		if (!eq)
			return false;
		klen = (size_t)(eq - v);
		val = decoded(eq + 1, len - klen - 1);
		if (!val)
			return false;
#define KEY(k) (klen == strlen(k) && strncmp(v, k, klen) == 0)
		if (KEY("lastSHA") && !sha) {
			sha = true;
			e->last_sha = val;
		} else if (KEY("url") && !url) {
			url = true;
			e->url = val;
		} else if (KEY("ref") && !ref) {
			ref = true;
			e->ref = val;
		} else if (KEY("intervalMs") && !interval) {
			long long n;

			interval = true;
			ok = int_of(val, 1, LLONG_MAX, &n);
			e->interval_ms = n;
			free(val);
		} else if (KEY("polls") && !polls) {
			polls = true;
			ok = parse_polls(val, e);
			free(val);
		} else {
			ok = false;
			free(val);
		}
#undef KEY
		if (!ok)
			return false;
		v += len + (sp ? 1 : 0);
		if (sp && !*v)
			return false; /* a trailing space */
	}
	return sha && url && ref && interval && polls;
}

static void refwatcher_entry_release(struct scn_refwatcher_entry *e)
{
	free(e->url);
	free(e->ref);
	free(e->last_sha);
	free(e->polls);
}

/* ---------------------------------------------------------------- the observer */

enum ost_type { OST_TIME, OST_INT, OST_TEXT, OST_STEPS, OST_NAMES, OST_FIELDS };

struct ost_key {
	const char *kind, *key;
	enum ost_type type;
	/*
	 * OST_FIELDS: a comma list of entries "F/F/...", one field per letter,
	 * each %XX-escaped: s text, v text or "-", t TIME, T TIME or "-",
	 * I integer >= 0, k "gate" or "regression", b "yes" or "no".
	 */
	const char *fields;
};

/* The keys of SCN_OBSERVER_STATE by kind, and what their values are. */
static const struct ost_key ost_keys[] = {
	{ "Workspace", "granted", OST_TIME, NULL },	      { "Workspace", "planning", OST_TIME, NULL },
	{ "Workspace", "applying", OST_TIME, NULL },	      { "Workspace", "applied", OST_TIME, NULL },
	{ "Workspace", "failed", OST_TIME, NULL },	      { "Workspace", "planContainer", OST_TIME, NULL },
	{ "Workspace", "revision", OST_TEXT, NULL },	      { "Workspace", "revisionSeen", OST_TIME, NULL },
	{ "Workspace", "revisionPhase", OST_TEXT, NULL },   { "Workspace", "revisionContainer", OST_TIME, NULL },
	{ "Workspace", "absorbed", OST_TEXT, NULL },	      { "Workspace", "absorbedSeen", OST_TIME, NULL },
	{ "Workspace", "absorbedPhase", OST_TEXT, NULL },   { "Workspace", "absorbedContainer", OST_TIME, NULL },
	{ "Workspace", "absorbedApplied", OST_TIME, NULL }, { "Workspace", "absorbedNextPlan", OST_TIME, NULL },
	{ "Workspace", "lastPlanning", OST_TIME, NULL },    { "Workspace", "resets", OST_INT, NULL },
	{ "Workspace", "resetFirst", OST_TIME, NULL },      { "Workspace", "resetReason", OST_TEXT, NULL },
	{ "Workspace", "resetRunMs", OST_INT, NULL },	      { "Workspace", "runs", OST_INT, NULL },
	{ "Rollout", "created", OST_TIME, NULL },	      { "Rollout", "completed", OST_TIME, NULL },
	{ "Rollout", "steps", OST_STEPS, NULL },	      { "Rollout", "blast", OST_NAMES, NULL },
	{ "Rollout", "blastTotal", OST_INT, NULL },	      { "Rollout", "halted", OST_TIME, NULL },
	{ "Rollout", "haltStep", OST_INT, NULL },	      { "Rollout", "haltReason", OST_TEXT, NULL },
	{ "Rollout", "haltMessage", OST_TEXT, NULL },
	/* sim/observe/fleetobs.c fo_state() */
	{ "FleetRollout", "completed", OST_TIME, NULL },
	{ "FleetRollout", "waves", OST_FIELDS, "sTTTIT" },
	{ "FleetRollout", "halts", OST_FIELDS, "ttIkssv" },
	{ "FleetRollout", "badVersion", OST_TEXT, NULL },
	{ "FleetRollout", "blast", OST_NAMES, NULL },
	{ "FleetRollout", "blastTotal", OST_FIELDS, "I" },
	{ "FleetRollout", "blastWaves", OST_FIELDS, "sII" },
	{ "FleetRollout", "onset", OST_TIME, NULL },
	{ "FleetRollout", "onsetMember", OST_TEXT, NULL },
	{ "FleetRollout", "onsetWindow", OST_FIELDS, "b" },
	{ "FleetRollout", "onsetUndated", OST_FIELDS, "b" },
	{ "FleetRollout", "noticed", OST_TIME, NULL },
	{ "FleetRollout", "exposure", OST_FIELDS, "I" },
	{ "FleetRollout", "afterHalt", OST_FIELDS, "I" },
	{ "FleetRollout", "remediated", OST_FIELDS, "I" },
	{ "FleetRollout", "onBad", OST_NAMES, NULL },
};

#define NOST_KEYS (sizeof(ost_keys) / sizeof(ost_keys[0]))

static bool ost_has(const struct scn_observer_state *e, const char *key)
{
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->keys[i], key))
			return true;
	return false;
}

static bool time_of(const char *v)
{
	int64_t ms;

	return *v && gt_parse_rfc3339(v, &ms, NULL, 0) == 0;
}

/* "OPENED/COMPLETED[,...]", each TIME or "-"; "" (no steps) too. */
static bool steps_of(const char *v)
{
	while (*v) {
		const char *comma = strchr(v, ','), *end = comma ? comma : v + strlen(v);

		for (int half = 0; half < 2; half++) {
			const char *slash = half ? end : memchr(v, '/', (size_t)(end - v));
			char *t;
			bool ok;

			if (!slash)
				return false;
			t = xstrndup(v, (size_t)(slash - v));
			ok = strcmp(t, "-") == 0 || time_of(t);
			free(t);
			if (!ok)
				return false;
			v = slash + (half ? 0 : 1);
		}
		v = comma ? comma + 1 : end;
		if (comma && !*v)
			return false; /* a trailing comma */
	}
	return true;
}

/* One %XX-escaped field of @len chars is of kind @f (struct ost_key.fields). */
static bool field_ok(char f, const char *v, size_t len)
{
	char *x = decoded(v, len);
	bool ok = x != NULL;

	if (ok) {
		switch (f) {
		case 's':
			ok = *x != '\0';
			break;
		case 'v':
			ok = *x != '\0';
			break;
		case 't':
			ok = time_of(x);
			break;
		case 'T':
			ok = !strcmp(x, "-") || time_of(x);
			break;
		case 'I':
			ok = *x && strspn(x, "0123456789") == strlen(x) && strlen(x) <= 18;
			break;
		case 'k':
			ok = !strcmp(x, "gate") || !strcmp(x, "regression");
			break;
		case 'b':
			ok = !strcmp(x, "yes") || !strcmp(x, "no");
			break;
		default:
			ok = false;
		}
	}
	free(x);
	return ok;
}

/* A comma list of entries of the fields @fields ("sTT..."), none empty. */
static bool fields_of(const char *fields, const char *v)
{
	if (!*v)
		return false;
	while (*v) {
		const char *comma = strchr(v, ','), *end = comma ? comma : v + strlen(v);
		size_t nf = strlen(fields);

		for (size_t i = 0; i < nf; i++) {
			const char *slash = memchr(v, '/', (size_t)(end - v));
			const char *stop = i + 1 < nf ? slash : end;

			if (!stop || (i + 1 == nf && slash) || !field_ok(fields[i], v, (size_t)(stop - v)))
				return false;
			v = stop + (i + 1 < nf ? 1 : 0);
		}
		v = comma ? comma + 1 : end;
		if (comma && !*v)
			return false; /* a trailing comma */
	}
	return true;
}

static bool value_ok(const struct ost_key *k, const char *v)
{
	long long n;

	switch (k->type) {
	case OST_FIELDS:
		return fields_of(k->fields, v);
	case OST_TIME:
		return time_of(v);
	case OST_INT:
		return int_of(v, -1, INT32_MAX, &n);
	case OST_STEPS:
		return steps_of(v);
	case OST_NAMES:
		return !*v || (v[0] != ',' && v[strlen(v) - 1] != ',' && !strstr(v, ",,"));
	case OST_TEXT:
		return true;
	}
	return false;
}

/*
 * Whether a Rollout's carried steps are as many as its spec.strategy.steps,
 * and its haltStep one of them or -1 (@why when not).
 */
static bool steps_match(const struct obj *o, const struct scn_observer_state *e, char *why, size_t len)
{
	const struct val *steps = val_path(o->spec, "strategy.steps");
	size_t want = steps && steps->type == VAL_LIST ? steps->u.list.n : 0, got = 0;

	for (size_t i = 0; i < e->n; i++) {
		long long at;

		if (!strcmp(e->keys[i], "haltStep") && int_of(e->values[i], -1, INT32_MAX, &at) &&
		    at >= (long long)want) {
			snprintf(why, len, "'haltStep' is step %lld, spec.strategy.steps has %zu (-1: "
				 "not known)", at, want);
			return false;
		}
		if (strcmp(e->keys[i], "steps") != 0)
			continue;
		got = e->values[i][0] ? 1 : 0;
		for (const char *p = e->values[i]; *p; p++)
			got += *p == ',';
		if (got != want) {
			snprintf(why, len, "'steps' gives %zu step%s, spec.strategy.steps has %zu", got,
				 got == 1 ? "" : "s", want);
			return false;
		}
	}
	return true;
}

static void observer_state_release(struct scn_observer_state *e)
{
	free(e->kind);
	free(e->ns);
	free(e->name);
	for (size_t i = 0; i < e->n; i++) {
		free(e->keys[i]);
		free(e->values[i]);
	}
	free(e->keys);
	free(e->values);
}

/*
 * parse_observer_state() - SCN_OBSERVER_STATE @v of a @kind into @e (keys and
 * decoded values).  Returns NULL, or what is wrong (static text or @why).
 */
static const char *parse_observer_state(const char *kind, const char *v, struct scn_observer_state *e,
					char *why, size_t len)
{
	while (*v) {
		const char *sp = strchr(v, ' '), *eq;
		size_t n = sp ? (size_t)(sp - v) : strlen(v), k;
		char *key, *val;

		eq = memchr(v, '=', n);
		if (!eq)
			return "a pair without '='";
		key = xstrndup(v, (size_t)(eq - v));
		val = decoded(eq + 1, n - (size_t)(eq - v) - 1);
		for (k = 0; k < NOST_KEYS; k++)
			if (!strcmp(ost_keys[k].kind, kind) && !strcmp(ost_keys[k].key, key))
				break;
		if (k == NOST_KEYS)
			snprintf(why, len, "'%s' is no key of a %s's", key, kind);
		else if (ost_has(e, key))
			snprintf(why, len, "a second '%s'", key);
		else if (!val || !value_ok(&ost_keys[k], val))
			snprintf(why, len, "a bad value of '%s'", key);
		else
			why[0] = '\0';
		if (why[0]) {
			free(key);
			free(val);
			return why;
		}
		e->keys = xreallocarray(e->keys, e->n + 1, sizeof(*e->keys));
		e->values = xreallocarray(e->values, e->n + 1, sizeof(*e->values));
		e->keys[e->n] = key;
		e->values[e->n++] = val;
		v += n + (sp ? 1 : 0);
		if (sp && !*v)
			return "a trailing space";
	}
	return NULL;
}

const char *scn_observer_get(const struct scenario *s, const char *kind, const char *ns,
			     const char *name, const char *key)
{
	for (size_t i = 0; i < s->nobserver; i++) {
		const struct scn_observer_state *e = &s->observer[i];

		if (strcmp(e->kind, kind) != 0 || strcmp(e->ns, ns) != 0 || strcmp(e->name, name) != 0)
			continue;
		for (size_t k = 0; k < e->n; k++)
			if (!strcmp(e->keys[k], key))
				return e->values[k];
		return NULL;
	}
	return NULL;
}

/*
 * take_state() - reads and takes off every object's annotations
 * SCN_STATE_PREFIX<controller> (sim/observe/kubeget.h): the RefWatcher's
 * registry entry of a Workspace into @out->refwatcher, and the run's
 * observer's history of a Workspace or Rollout (SCN_OBSERVER_STATE) into
 * @out->observer.  Another controller,
 * another kind or a value that does not parse is an error at the object.
 */
static void take_state(struct scenario *out, struct diag *d)
{
	const size_t plen = strlen(SCN_STATE_PREFIX);

	for (size_t i = 0; i < out->nobjs; i++) {
		struct obj *o = out->objs[i];

		for (size_t k = 0; k < o->annotations.n;) {
			const char *key = o->annotations.items[k].key;
			const char *v = o->annotations.items[k].value;
			struct scn_refwatcher_entry e = { 0 };

			if (strncmp(key, SCN_STATE_PREFIX, plen) != 0) {
				k++;
				continue;
			}
			if (strcmp(key + plen, SCN_OBSERVER_STATE) == 0 &&
			    (strcmp(o->kind, "Workspace") == 0 || strcmp(o->kind, "Rollout") == 0 ||
			     strcmp(o->kind, "FleetRollout") == 0)) {
				struct scn_observer_state st = { 0 };
				char why[160];
				const char *bad = parse_observer_state(o->kind, v, &st, why, sizeof(why));

				if (!bad && !steps_match(o, &st, why, sizeof(why)))
					bad = why;

				if (bad) {
					diag_error(d, o->src.file, o->src.mark,
						   "%s \"%s%s%s\": annotation %s is not the observer's "
						   "state: %s (scenarios/README.md, `status` snapshots)",
						   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key, bad);
					observer_state_release(&st);
				} else {
					st.kind = xstrdup(o->kind);
					st.ns = xstrdup(o->ns);
					st.name = xstrdup(o->name);
					out->observer = xreallocarray(out->observer, out->nobserver + 1,
								      sizeof(*out->observer));
					out->observer[out->nobserver++] = st;
				}
			} else if (strcmp(key + plen, "refwatcher") != 0 || strcmp(o->kind, "Workspace") != 0)
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation '%s' is not one a snapshot of the "
					   "simulator writes: only '%srefwatcher', on Workspaces, and "
					   "'%s%s', on Workspaces, Rollouts and FleetRollouts",
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key,
					   SCN_STATE_PREFIX, SCN_STATE_PREFIX, SCN_OBSERVER_STATE);
			else if (!parse_refwatcher_state(v, &e)) {
				diag_error(d, o->src.file, o->src.mark,
					   "%s \"%s%s%s\": annotation %s='%s' is not a RefWatcher entry: "
					   "expected '%s' (values percent-encoded)",
					   o->kind, o->ns, o->ns[0] ? "/" : "", o->name, key, v,
					   SCN_REFWATCHER_STATE_FORMAT);
				refwatcher_entry_release(&e);
			} else {
				e.ns = xstrdup(o->ns);
				e.name = xstrdup(o->name);
				out->refwatcher = xreallocarray(out->refwatcher, out->nrefwatcher + 1,
								sizeof(*out->refwatcher));
				out->refwatcher[out->nrefwatcher++] = e;
			}
			obj_strmap_del(&o->annotations, key);
		}
	}
}

/* ---------------------------------------------------------------- the clock */

/* move_start() - simulated 0 of @s to @start_unix_ms; the snapshot's creation times stay where they are. */
static void move_start(struct scenario *s, int64_t start_unix_ms, enum scn_clock clock)
{
	for (size_t i = 0; i < s->nobjs; i++)
		if (s->objs[i]->src.creation_given)
			s->objs[i]->creation_ms += s->start_unix_ms - start_unix_ms;
	s->start_unix_ms = start_unix_ms;
	s->clock = clock;
}

void scn_set_clock(struct scenario *s, int64_t start_unix_ms, enum scn_clock clock)
{
	move_start(s, start_unix_ms, clock);
	scn_resume_clock(s);
}

const char *scn_clock_said(const struct scenario *s)
{
	switch (s->clock) {
	case SCN_CLOCK_SNAPSHOT:
		return "the latest timestamp in the inputs";
	case SCN_CLOCK_NOW:
		return "--now";
	case SCN_CLOCK_TAKEN:
		return "the time the snapshot was taken";
	case SCN_CLOCK_DEFAULT:
	case SCN_CLOCK_START:
		break;
	}
	return NULL;
}

/*
 * The latest time found so far in the inputs (latest_time()), and where:
 * the object (@obj, a manifest or a List item), the path of the field in
 * @path (written as the walk goes down), its value @v.  With @earliest,
 * the earliest time after @above (Unix ms) instead.
 */
struct latest {
	bool found;
	int64_t ms;
	const struct val *obj, *v;
	char where[160];
	const struct val *cur_obj;
	char path[160];
	bool earliest;
	int64_t above;
};

/* Whether @ms goes in @l: later than its latest, or with @l->earliest after @l->above and earlier. */
static bool takes_time(const struct latest *l, int64_t ms)
{
	if (l->earliest)
		return ms > l->above && (!l->found || ms < l->ms);
	return !l->found || ms > l->ms;
}

/* raise_time() - @l to the time of string @v (at @l->path) when it is an RFC 3339 time it takes. */
static void raise_time(const struct val *v, struct latest *l)
{
	int64_t ms;

	if (v && v->type == VAL_STRING && strlen(v->u.s) >= 20 && v->u.s[4] == '-' &&
	    v->u.s[10] == 'T' && gt_parse_rfc3339(v->u.s, &ms, NULL, 0) == 0 &&
	    takes_time(l, ms)) {
		l->ms = ms;
		l->found = true;
		l->obj = l->cur_obj;
		l->v = v;
		snprintf(l->where, sizeof(l->where), "%s", l->path);
	}
}

/*
 * scheduled() - whether status key @key names a time to come, not one that
 * has passed: a Workspace's nextReconcileTime, a StageSet's
 * pendingUpdate.nextWindowOpens, the soakUntil of a wave or a promotion.
 */
static bool scheduled(const char *key)
{
	size_t n = strlen(key);

	return strncmp(key, "next", 4) == 0 || (n >= 5 && strcmp(key + n - 5, "Until") == 0);
}

/*
 * status_times() - raise_time() over every string of @v, at any depth (the
 * loader bounds it), except under the keys of times to come; @l->path is
 * the path of @v and is the same again on return.
 */
static void status_times(const struct val *v, struct latest *l)
{
	size_t len = strlen(l->path);

	if (!v)
		return;
	switch (v->type) {
	case VAL_STRING:
		raise_time(v, l);
		break;
	case VAL_MAP:
		for (size_t i = 0; i < v->u.map.n; i++)
			if (!scheduled(v->u.map.items[i].key)) {
				snprintf(l->path + len, sizeof(l->path) - len, ".%s", v->u.map.items[i].key);
				status_times(v->u.map.items[i].v, l);
			}
		break;
	case VAL_LIST:
		for (size_t i = 0; i < v->u.list.n; i++) {
			snprintf(l->path + len, sizeof(l->path) - len, "[%zu]", i);
			status_times(v->u.list.items[i], l);
		}
		break;
	default:
		break;
	}
	l->path[len] = '\0';
}

/*
 * latest_time() - raises @l to the latest time the API server or a
 * controller wrote into object @obj, or into each item of a `kind: List`:
 * metadata.creationTimestamp, metadata.deletionTimestamp,
 * metadata.managedFields[].time, and every RFC 3339 string under status
 * (conditions' lastTransitionTime, lastReconcileTime, a Job's startTime, ...)
 * but the times to come there (scheduled()).  Times in spec (a schedule, a
 * window someone wrote) and in annotations are what users wrote, not when
 * the snapshot was taken, and are not read.
 */
static void latest_time(const struct val *obj, struct latest *l)
{
	const struct val *md = val_map_get(obj, "metadata");
	const struct val *mf = val_map_get(md, "managedFields");

	if (!obj || obj->type != VAL_MAP)
		return;
	if (strcmp(val_str(val_map_get(obj, "kind"), ""), "List") == 0) {
		const struct val *items = val_map_get(obj, "items");

		for (size_t i = 0; items && items->type == VAL_LIST && i < items->u.list.n; i++)
			latest_time(items->u.list.items[i], l);
		return;
	}
	l->cur_obj = obj;
	snprintf(l->path, sizeof(l->path), "metadata.creationTimestamp");
	raise_time(val_map_get(md, "creationTimestamp"), l);
	snprintf(l->path, sizeof(l->path), "metadata.deletionTimestamp");
	raise_time(val_map_get(md, "deletionTimestamp"), l);
	for (size_t i = 0; mf && mf->type == VAL_LIST && i < mf->u.list.n; i++) {
		snprintf(l->path, sizeof(l->path), "metadata.managedFields[%zu].time", i);
		raise_time(val_map_get(mf->u.list.items[i], "time"), l);
	}
	snprintf(l->path, sizeof(l->path), "status");
	status_times(val_map_get(obj, "status"), l);
}

/* Where the clock of @s starts, for a message: "--now", "spec.start", ... */
static const char *clock_whence(const struct scenario *s)
{
	switch (s->clock) {
	case SCN_CLOCK_NOW:
		return "--now";
	case SCN_CLOCK_START:
		return "spec.start";
	case SCN_CLOCK_SNAPSHOT:
		return "the latest timestamp in the inputs";
	case SCN_CLOCK_TAKEN:
		return "when the snapshot was taken";
	case SCN_CLOCK_DEFAULT:
		break;
	}
	return "the default start";
}

/*
 * The note under scn_warn_later_times()'s warning for a plain export (no
 * origin: nothing carries its history): the earliest time after the start
 * among what the run reads of its objects' history (creationTimestamp, the
 * times under status), from which on the objects' history is read as at
 * the start: the observer dates what they tell at 0 at the latest
 * (sim/observe/observe.c), the steps view shows it at 0s*.  None when only
 * other times (managedFields) are later.  @start: the start's text.
 */
static void note_read_at_start(const struct scenario *s, struct diag *d, const char *start)
{
	struct latest e = { .earliest = true, .above = s->start_unix_ms };
	const struct obj *at = NULL;
	struct val_mark mark = { 0, 0 };
	char when[GT_RFC3339_BUFSZ];

	for (size_t i = 0; i < s->nobjs; i++) {
		const struct obj *o = s->objs[i];
		const struct val *was = e.v;

		if (o->src.creation_given && takes_time(&e, o->creation_ms + s->start_unix_ms)) {
			e.found = true;
			e.ms = o->creation_ms + s->start_unix_ms;
			e.v = NULL;
			snprintf(e.where, sizeof(e.where), "metadata.creationTimestamp");
			at = o;
			mark = o->src.mark;
		}
		snprintf(e.path, sizeof(e.path), "status");
		status_times(o->status, &e);
		if (e.v && e.v != was) {
			at = o;
			mark = e.v->mark;
		}
	}
	if (!at)
		return;
	gt_format_rfc3339_nano(e.ms, when, sizeof(when));
	diag_note(d, at->src.file, mark,
		  "from %s on (the earliest, %s \"%s%s%s\": %s), the times the objects hold of "
		  "their history are after the start %s and are read as at it: what they "
		  "date is taken to have happened by 0s (the steps view shows it at 0s*), "
		  "not when they say",
		  when, at->kind, at->ns, at->ns[0] ? "/" : "", at->name, e.where, start);
}

void scn_warn_later_times(const struct scenario *s, struct diag *d)
{
	char when[GT_RFC3339_BUFSZ], start[GT_RFC3339_BUFSZ];

	if (!s->has_latest || s->latest_unix_ms <= s->start_unix_ms)
		return;
	gt_format_rfc3339_nano(s->latest_unix_ms, when, sizeof(when));
	gt_format_rfc3339_nano(s->start_unix_ms, start, sizeof(start));
	diag_warning(d, s->latest_file, s->latest_mark,
		     "%s %s is later than the clock's start %s (%s): the run starts before the "
		     "state it loads; start at or after %s",
		     s->latest_what, when, start, clock_whence(s), when);
	if (!s->has_origin)
		note_read_at_start(s, d, start);
}

/* Whether a wave of FleetRollout @spec is named @name. */
static bool spec_has_wave(const struct val *spec, const char *name)
{
	const struct val *waves = val_map_get(spec, "waves");

	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++)
		if (!strcmp(val_str(val_map_get(waves->u.list.items[i], "name"), ""), name))
			return true;
	return false;
}

/*
 * warn_fleet_status() - a FleetRollout's status (a snapshot's, perhaps
 * edited by hand) naming a wave its spec does not have.  Upstream's
 * Reconcile (fleetrollout_controller.go) never reads status.currentWave: it
 * recomputes it on every pass as the first wave not yet passed, from the
 * members' state and each wave's previous status entry, looked up by name
 * (`prior[ws.Name]`); an entry of no spec wave is dropped by the first pass
 * that rewrites status.waves.  Both are accepted, as the API server accepts
 * them, with a warning that says so.
 */
static void warn_fleet_status(const struct obj *o, struct diag *d)
{
	const struct val *cw, *waves;

	if (strcmp(o->kind, "FleetRollout") || !o->status)
		return;
	cw = val_map_get(o->status, "currentWave");
	if (cw && cw->type == VAL_STRING && cw->u.s[0] && !spec_has_wave(o->spec, cw->u.s)) {
		diag_warning(d, o->src.file, cw->mark,
			     "FleetRollout \"%s\": status.currentWave \"%s\" names no wave of spec.waves",
			     o->name, cw->u.s);
		diag_note(d, o->src.file, cw->mark,
			  "the controller does not read status.currentWave: its first pass sets it to "
			  "the first wave not yet passed, from the members' state and the waves' status");
	}
	waves = val_map_get(o->status, "waves");
	for (size_t i = 0; waves && waves->type == VAL_LIST && i < waves->u.list.n; i++) {
		const struct val *name = val_map_get(waves->u.list.items[i], "name");

		if (!name || name->type != VAL_STRING || spec_has_wave(o->spec, name->u.s))
			continue;
		diag_warning(d, o->src.file, name->mark,
			     "FleetRollout \"%s\": status.waves[%zu].name \"%s\" names no wave of "
			     "spec.waves",
			     o->name, i, name->u.s);
		diag_note(d, o->src.file, name->mark,
			  "the controller reads a wave's previous status by its name: its first pass "
			  "drops this entry, and its soakUntil and health with it");
	}
}

/* ---------------------------------------------------------------- scn_load */

static int load(const char *const *paths, size_t npaths, const struct limits *lim,
		struct scenario *out, struct diag *d, bool static_only)
{
	struct loader L = { .s = out, .d = d, .static_only = static_only };
	struct limits dflt;
	struct man_set set;
	size_t nerr0 = d->nerrors;

	if (!lim) {
		lim_init(&dflt);
		lim = &dflt;
	}
	L.lim = lim;
	yl_budget_init(&L.yb, lim);
	scn_init(out);
	out->run_events_limit = lim->v[LIM_RUN_EVENTS];
	for (size_t i = 0; i < npaths; i++)
		scnp_load_input(&L, paths[i]);
	if (npaths == 0)
		diag_error(d, NULL, (struct val_mark){ 0, 0 }, "no input files");

	/* Pass 2: admit the manifests, in input order. */
	man_set_init(&set);
	for (size_t i = 0; i < L.ndocs; i++)
		man_load_doc(L.docs[i].file, L.docs[i].root, &set, d);
	/*
	 * A snapshot given with the manifests it was taken of: each object is
	 * there twice.  Say once what to give instead (scenarios/README.md: the
	 * Scenario document, without what the snapshot already holds).
	 */
	if (set.snapdup_file && L.scn && !strcmp(set.snapdup_file, out->scenario_file))
		diag_note(d, out->scenario_file, L.scn_mark,
			  "the other inputs hold these objects with a status, as a snapshot "
			  "(run --snapshot, kubectl get -o yaml) does, and this file holds "
			  "them besides its Scenario document: to continue from a snapshot, "
			  "give it with a file that holds the Scenario document alone (a copy "
			  "of that document on its own)");
	else if (set.snapdup_file && L.scn && val_map_get_kv(val_map_get(L.scn, "spec"), "include"))
		diag_note(d, set.snapdup_file, set.snapdup_mark,
			  "the other inputs hold these objects with a status, as a snapshot "
			  "(run --snapshot, kubectl get -o yaml) does: to continue from a "
			  "snapshot, give it without the manifests it was taken of: with the "
			  "Scenario document alone, without the spec.include that reads them "
			  "(%s:%u)", out->scenario_file,
			  val_map_get_kv(val_map_get(L.scn, "spec"), "include")->key_mark.line);
	else if (set.snapdup_file)
		diag_note(d, set.snapdup_file, set.snapdup_mark,
			  "the other inputs hold these objects with a status, as a snapshot "
			  "(run --snapshot, kubectl get -o yaml) does: to continue from a "
			  "snapshot, give it without the manifests it was taken of (with the "
			  "Scenario document alone)");
	{
		/* A snapshot's times are read against the snapshot's own time. */
		struct latest lt = { 0 };

		for (size_t i = 0; i < L.ndocs; i++) {
			const struct val *was = lt.v;

			latest_time(L.docs[i].root, &lt);
			if (lt.v != was)
				out->latest_file = L.docs[i].file;
		}
		if (lt.found) {
			const struct val *md = val_map_get(lt.obj, "metadata");
			const char *ns = val_str(val_map_get(md, "namespace"), "");

			out->has_latest = true;
			out->latest_unix_ms = lt.ms;
			out->latest_mark = lt.v->mark;
			out->latest_what = xasprintf("%s \"%s%s%s\": %s",
						     val_str(val_map_get(lt.obj, "kind"), "object"), ns,
						     ns[0] ? "/" : "", val_str(val_map_get(md, "name"), ""),
						     lt.where);
			if (out->clock != SCN_CLOCK_START) {
				out->start_unix_ms = lt.ms;
				out->clock = SCN_CLOCK_SNAPSHOT;
			}
		}
	}
	if (L.scn)
		scnp_generate_objects(&L, &set);
	out->objs = man_take(&set, &out->nobjs);
	/* A snapshot's creationTimestamps, on the run's clock (before 0). */
	for (size_t i = 0; i < out->nobjs; i++)
		if (out->objs[i]->src.creation_given)
			out->objs[i]->creation_ms -= out->start_unix_ms;
	take_queues(out, d);
	take_state(out, d);
	scnp_take_run_marks(out, d);
	out->nrefused = set.nrefused;
	/*
	 * A snapshot of the simulator starts where it was taken: the Scenario
	 * document resumed with it (its spec.start too) is the original run's.
	 */
	if (out->has_taken)
		move_start(out, out->taken_unix_ms, SCN_CLOCK_TAKEN);
	for (size_t i = 0; i < set.nrejected; i++) {
		const struct man_rejected *r = &set.rejected[i];
		struct man_rejected *c;

		out->nrefused_ss += strcmp(r->kind, "StageSet") == 0;
		if (strcmp(r->kind, "Workspace") != 0)
			continue;
		out->refused_ws = xreallocarray(out->refused_ws, out->nrefused_ws + 1, sizeof(*c));
		c = &out->refused_ws[out->nrefused_ws++];
		c->kind = xstrdup(r->kind);
		c->ns = xstrdup(r->ns);
		c->name = xstrdup(r->name);
		obj_strmap_copy(&c->labels, &r->labels);
		c->labels_known = r->labels_known;
		c->project = r->project ? xstrdup(r->project) : NULL;
	}
	L.rejected = set.rejected;
	L.nrejected = set.nrejected;
	set.rejected = NULL;
	set.nrejected = 0;
	if (set.nignored) {
		char *list, *kinds;

		out->ignored = xcalloc(set.nignored, sizeof(*out->ignored));
		for (size_t i = 0; i < set.nignored; i++)
			out->ignored[out->nignored++] = xstrdup(set.ignored[i].text);
		list = xstrjoin((const char *const *)out->ignored, out->nignored, ", ");
		/*
		 * Nothing else to simulate, and no error that says why: say which
		 * kinds would be, in the same note (lint keeps it).
		 */
		kinds = out->nobjs || set.nrefused || diag_has_errors(d) ? NULL : adm_supported_kinds();
		diag_note_alone(d, set.ignored[0].file, set.ignored[0].mark,
			        "%zu object%s of kinds the simulated controllers do not read %s accepted "
			        "and ignored: %s%s%s",
			        set.nignored, set.nignored == 1 ? "" : "s", set.nignored == 1 ? "is" : "are",
			        list, kinds ? "; so the inputs hold no object to simulate: the kinds read are " : "",
			        kinds ? kinds : "");
		free(kinds);
		free(list);
	}
	for (size_t i = 0; i < out->nobjs; i++) {
		const char *f = out->objs[i]->src.file;

		/* The set names only files read here, so the lookup always succeeds. */
		out->objs[i]->src.file = f ? borrow_file(out, f) : NULL;
	}
	/* the armed events' places were taken from the objects before: the set's names too */
	for (size_t i = 0; i < out->narmed; i++)
		out->armed[i].file = out->armed[i].file ? borrow_file(out, out->armed[i].file) : NULL;
	out->run_file = out->run_file ? borrow_file(out, out->run_file) : NULL;
	man_set_release(&set);
	for (size_t i = 0; i < out->nobjs; i++)
		warn_fleet_status(out->objs[i], d);

	if (!out->name)
		/* (a stream has no name of its own: "stdin", not "-"; "pipe", not "63" of /dev/fd/63) */
		out->name = !npaths ? base_name("scenario")
			    : !rf_is_stream_name(paths[0])                                  ? base_name(paths[0])
			    : !strcmp(paths[0], "-") || !strcmp(paths[0], "/dev/stdin") ? base_name("stdin")
											    : base_name("pipe");

	/* Pass 3: events and what the models name. */
	if (L.include_failed) {
		/* they name objects the include would have defined: every one would be "not found" */
		if (L.scn && (val_path(L.scn, "spec.events") || val_path(L.scn, "spec.models")))
			diag_note(d, L.include_file, L.include_mark,
				  "spec.events and spec.models were not checked: they name objects "
				  "the include would define");
	} else {
		if (L.scn) {
			scnp_build_events(&L);
			scnp_check_models(&L);
			scnp_sw_note_sources(&L);
			scnp_sw_check_names(&L);
		}
		scnp_check_gates(&L);
	}
	scnp_resolve_armed(out, d);
	scnp_sw_refuse_unsimulated(&L);
	/* a snapshot of the simulator: the Scenario's times on its run's clock */
	if (!static_only)
		scn_resume_clock(out);

	for (size_t i = 0; i < L.nstreams; i++)
		yl_stream_release(&L.streams[i]);
	free(L.streams);
	free(L.ids);
	free(L.docs);
	free(L.ev_ok);
	free(L.gen_ok);
	free(L.claimed);
	man_rejected_release(L.rejected, L.nrejected);
	return d->nerrors > nerr0 ? -1 : 0;
}

int scn_load(const char *const *paths, size_t npaths, struct scenario *out, struct diag *d)
{
	return load(paths, npaths, NULL, out, d, false);
}

int scn_load_static(const char *const *paths, size_t npaths, struct scenario *out,
		    struct diag *d)
{
	return load(paths, npaths, NULL, out, d, true);
}

int scn_load_lim(const char *const *paths, size_t npaths, const struct limits *lim,
		 struct scenario *out, struct diag *d)
{
	return load(paths, npaths, lim, out, d, false);
}

int scn_load_static_lim(const char *const *paths, size_t npaths, const struct limits *lim,
			struct scenario *out, struct diag *d)
{
	return load(paths, npaths, lim, out, d, true);
}

bool scn_is_stageset(const struct obj *o)
{
	return o && o->kind && o->api_version && adm_in_group(o, ADM_GROUP_STAGES, "StageSet");
}

const struct obj **scn_stagesets(const struct scenario *s, size_t *n)
{
	const struct obj **out = xcalloc(s->nobjs + s->nevents + 1, sizeof(*out));

	*n = 0;
	for (size_t i = 0; i < s->nobjs; i++)
		if (scn_is_stageset(s->objs[i]))
			out[(*n)++] = s->objs[i];
	for (size_t i = 0; i < s->nevents; i++)
		if (s->events[i].type == SCN_EV_APPLY && scn_is_stageset(s->events[i].obj))
			out[(*n)++] = s->events[i].obj;
	return out;
}

/* Whether @o is an object a simulated controller reconciles (not one it only reads). */
static bool reconciled(const struct obj *o)
{
	static const char *const magos[] = { "Project", "Rollout", "Workspace" };
	static const char *const stages[] = { "FleetRollout", "StageSet" };

	if (!o || !o->kind || !o->api_version)
		return false;
	for (size_t i = 0; i < sizeof(magos) / sizeof(magos[0]); i++)
		if (adm_in_group(o, ADM_GROUP_MAGOS, magos[i]))
			return true;
	for (size_t i = 0; i < sizeof(stages) / sizeof(stages[0]); i++)
		if (adm_in_group(o, ADM_GROUP_STAGES, stages[i]))
			return true;
	return false;
}

int scn_refuse_nothing_to_simulate(const struct scenario *s, struct diag *d)
{
	const char *file = s->scenario_file ? s->scenario_file : s->nfiles ? s->files[0] : "-";
	struct val_mark at = s->scenario_file ? s->scenario_mark : (struct val_mark){ 1, 1 };
	size_t napply = 0;

	for (size_t i = 0; i < s->nobjs; i++)
		if (reconciled(s->objs[i]))
			return 0;
	for (size_t i = 0; i < s->nevents; i++) {
		if (s->events[i].type != SCN_EV_APPLY)
			continue;
		if (reconciled(s->events[i].obj))
			return 0;
		napply++;
	}
	if (!s->nobjs && !napply && s->scenario_file) {
		diag_error(d, file, at,
			   "nothing to simulate: the Scenario document holds no objects, includes "
			   "none and applies none; give its manifests with it (run SCENARIO "
			   "MANIFEST..., or a directory holding them and the Scenario: check takes "
			   "each Scenario file on its own), or name them in spec.include");
		return -1;
	}
	if (!s->nobjs && !napply) {
		diag_error(d, file, at,
			   "nothing to simulate: the inputs hold no objects; `kubectl get` prints an "
			   "empty List when it finds no resources: check its namespace (-n, -A) and "
			   "context");
		return -1;
	}
	diag_warning(d, file, at,
		     "nothing to simulate: the inputs hold no Rollout, Workspace or Project "
		     "(magosproject.io) and no FleetRollout or StageSet (stages.metio.wtf), only "
		     "%zu object%s the controllers read but do not reconcile",
		     s->nobjs + napply, s->nobjs + napply == 1 ? "" : "s");
	return 0;
}
