/*
 * Scenario loading: inputs → files → YAML documents → one Scenario document
 * plus admitted objects and scripted events.
 *
 * The work is done in passes so that every problem is reported in one run:
 *  1. collect the files (directories expanded, the Scenario's includes added
 *     right after the scenario file) and parse each into documents; the
 *     Scenario document is validated as soon as it is met (its includes are
 *     needed to know which files come next);
 *  2. admit every other document as the API server would (sim/manifest.h);
 *  3. turn the validated `spec.events` into scn_event records, admitting the
 *     `apply` payloads and checking each target against the objects known at
 *     that point of the script.
 */
#include "sim/scenario.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/xalloc.h"
#include "sim/admission.h"
#include "sim/gotime.h"
#include "sim/manifest.h"
#include "sim/schema.h"
#include "sim/yamlload.h"

/* A manifest document waiting for admission. */
struct pending_doc {
	struct val *root;    /* borrowed from a stream in loader.streams */
	const char *file;    /* borrowed from scenario.files */
};

/* A file's identity, to read a file reached twice (by another name) only once. */
struct file_id {
	dev_t dev;
	ino_t ino;
	bool known; /* stat() succeeded */
};

struct loader {
	struct scenario *s;
	struct diag *d;
	struct yl_stream *streams; /* every stream read; released at the end */
	size_t nstreams, capstreams;
	struct file_id *ids;       /* identity of each entry of s->files */
	struct pending_doc *docs;
	size_t ndocs, capdocs;
	struct val *scn;           /* the Scenario document (borrowed from a stream) */
	struct val_mark scn_mark;
	bool *ev_ok;               /* per spec.events item: validated cleanly */
	size_t nev;
};

/* Keys of later versions of the Scenario format, refused with a clear message. */
static const char *const future_keys[] = { "models", "metrics", "variants", "expect", "generate",
					   NULL };

/* ---------------------------------------------------------------- schema */

static const char *const scenario_kinds[] = { SCN_KIND, NULL };

static void check_positive_duration(struct sch_ctx *c, const struct val *v, const char *path);
static void check_nonneg_duration(struct sch_ctx *c, const struct val *v, const char *path);
static void check_start(struct sch_ctx *c, const struct val *v, const char *path);
static void check_event(struct sch_ctx *c, const struct val *v, const char *path);
static void check_label_edit(struct sch_ctx *c, const struct val *v, const char *path);
static void check_merge_object(struct sch_ctx *c, const struct val *v, const char *path);
static void check_merge_spec(struct sch_ctx *c, const struct val *v, const char *path);

/* The seed is a uint64; YAML integers are int64, so 0 .. 2^63-1 can be written. */
static const struct sch_node seed_node = { .type = SCH_INTEGER, .has_minimum = true, .minimum = 0 };
/* Absent keys keep the defaults of scn_init() (read_params() reads what is there): no .dflt. */
static const struct sch_node horizon_node = { .type = SCH_ANY, .check = check_positive_duration };
static const struct sch_node nonneg_duration_node = { .type = SCH_ANY,
						      .check = check_nonneg_duration };
static const struct sch_node start_node = { .type = SCH_STRING, .check = check_start };
static const struct sch_node positive_int_node = { .type = SCH_INTEGER, .has_minimum = true,
						   .minimum = 1 };
static const struct sch_node include_item_node = { .type = SCH_STRING, .min_length = 1 };
static const struct sch_node include_node = { .type = SCH_ARRAY, .items = &include_item_node };

static const struct sch_field api_fields[] = {
	{ .name = "latency", .schema = &nonneg_duration_node },
	{ .name = "reconcileDuration", .schema = &nonneg_duration_node },
	{ .name = NULL },
};
static const struct sch_node api_node = { .type = SCH_OBJECT, .fields = api_fields };

static const struct sch_field limits_fields[] = {
	{ .name = "eventBudget", .schema = &positive_int_node },
	{ .name = "eventsPerInstant", .schema = &positive_int_node },
	{ .name = NULL },
};
static const struct sch_node limits_node = { .type = SCH_OBJECT, .fields = limits_fields };

/* Target identity shared by every action but apply. */
#define TARGET_FIELDS                                                         \
	{ .name = "apiVersion", .schema = &sch_string_nonempty },             \
	{ .name = "kind", .schema = &sch_string_nonempty, .required = true },  \
	{ .name = "namespace", .schema = &sch_string },                       \
	{ .name = "name", .schema = &sch_string_nonempty, .required = true }

static const struct sch_field delete_fields[] = { TARGET_FIELDS, { .name = NULL } };
static const struct sch_node delete_node = { .type = SCH_OBJECT, .fields = delete_fields };

static const struct sch_field label_fields[] = {
	TARGET_FIELDS,
	{ .name = "set", .schema = &sch_string_map },
	{ .name = "remove", .schema = &sch_string_list },
	{ .name = NULL },
};
static const struct sch_node label_node = { .type = SCH_OBJECT, .fields = label_fields,
					    .check = check_label_edit };

/* Merge patches keep their nulls (they delete keys), so they are SCH_ANY with a check. */
static const struct sch_node merge_object_node = { .type = SCH_ANY, .check = check_merge_object };
static const struct sch_node merge_status_node = { .type = SCH_ANY, .check = check_merge_spec };

static const struct sch_field patch_fields[] = {
	TARGET_FIELDS,
	{ .name = "merge", .schema = &merge_object_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node patch_node = { .type = SCH_OBJECT, .fields = patch_fields };

static const struct sch_field status_fields[] = {
	TARGET_FIELDS,
	{ .name = "merge", .schema = &merge_status_node, .required = true },
	{ .name = NULL },
};
static const struct sch_node status_node = { .type = SCH_OBJECT, .fields = status_fields };

/* Action keys of an event, in enum scn_event_type order. */
static const char *const action_names[] = { "apply", "delete", "annotate", "label", "patch",
					    "status", NULL };

static const struct sch_field event_fields[] = {
	{ .name = "at", .schema = &nonneg_duration_node, .required = true },
	{ .name = "apply", .schema = &sch_any_object },
	{ .name = "delete", .schema = &delete_node },
	{ .name = "annotate", .schema = &label_node },
	{ .name = "label", .schema = &label_node },
	{ .name = "patch", .schema = &patch_node },
	{ .name = "status", .schema = &status_node },
	{ .name = NULL },
};
static const struct sch_node event_node = { .type = SCH_OBJECT, .fields = event_fields,
					    .check = check_event };
/* Events are validated one by one (process_scenario()) to know which ones are usable. */
static const struct sch_node events_node = { .type = SCH_ARRAY };

static const struct sch_field spec_fields[] = {
	{ .name = "seed", .schema = &seed_node },
	{ .name = "horizon", .schema = &horizon_node },
	{ .name = "start", .schema = &start_node },
	{ .name = "include", .schema = &include_node },
	{ .name = "api", .schema = &api_node },
	{ .name = "limits", .schema = &limits_node },
	{ .name = "events", .schema = &events_node },
	{ .name = NULL },
};
static const struct sch_node spec_node = { .type = SCH_OBJECT, .fields = spec_fields };

static const struct sch_field metadata_fields[] = {
	{ .name = "name", .schema = &sch_string_nonempty, .required = true },
	{ .name = NULL },
};
static const struct sch_node metadata_node = { .type = SCH_OBJECT, .fields = metadata_fields };

static const struct sch_node kind_node = { .type = SCH_STRING, .enum_values = scenario_kinds };

static const struct sch_field scenario_fields[] = {
	{ .name = "apiVersion", .schema = &sch_string, .required = true },
	{ .name = "kind", .schema = &kind_node, .required = true },
	{ .name = "metadata", .schema = &metadata_node, .required = true },
	{ .name = "spec", .schema = &spec_node, .dflt = "{}" },
	{ .name = NULL },
};
static const struct sch_node scenario_node = { .type = SCH_OBJECT, .fields = scenario_fields };

static int64_t duration_ms(const struct val *v)
{
	int64_t ms = 0;

	gt_parse_duration(val_str(v, ""), &ms, NULL, 0);
	return ms;
}

/*
 * check_duration() - @v is a Go duration string, > 0 when @positive, else
 * >= 0.  Written here rather than with SCH_DURATION so that a bare number
 * (YAML's `90`) gets advice about units instead of about quoting.
 */
static void check_duration(struct sch_ctx *c, const struct val *v, const char *path, bool positive)
{
	char err[160];
	int64_t ns = 0;
	char *q = sch_quote(v);

	if (v->type != VAL_STRING) {
		sch_report(c, v->mark, path,
			   "Invalid value: %s: must be a duration such as \"90s\", \"5m\" or \"1h30m\"",
			   q);
		if (v->type == VAL_INT || v->type == VAL_FLOAT)
			sch_note(c, v->mark, "a duration needs a unit: ns, us, ms, s, m or h");
	} else if (gt_parse_duration_ns(v->u.s, &ns, err, sizeof(err)) != 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: %s", q, err);
		sch_note(c, v->mark, "durations use Go syntax, e.g. 90s, 5m, 1h30m");
	} else if (positive && ns <= 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be greater than 0", q);
	} else if (ns < 0) {
		sch_report(c, v->mark, path, "Invalid value: %s: must be greater than or equal to 0",
			   q);
	}
	free(q);
}

static void check_positive_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, true);
}

static void check_nonneg_duration(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_duration(c, v, path, false);
}

static void check_start(struct sch_ctx *c, const struct val *v, const char *path)
{
	char err[160];
	int64_t ms;

	if (gt_parse_rfc3339(val_str(v, ""), &ms, err, sizeof(err)) != 0) {
		sch_report(c, v->mark, path, "Invalid value: \"%s\": %s", val_str(v, ""), err);
		sch_note(c, v->mark, "expected an RFC 3339 time such as 2026-01-01T00:00:00Z");
	}
}

static void check_event(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val_kv *first = NULL;
	size_t n = 0;

	for (size_t i = 0; action_names[i]; i++) {
		const struct val_kv *kv = val_map_get_kv(v, action_names[i]);

		if (!kv)
			continue;
		if (n++ == 0) {
			first = kv;
			continue;
		}
		sch_report(c, kv->key_mark, path,
			   "more than one action: '%s' and '%s'; an event does exactly one thing",
			   first->key, kv->key);
		sch_note(c, kv->key_mark, "write a second event with the same 'at' instead");
		return;
	}
	if (n == 0) {
		sch_report(c, v->mark, path, "no action");
		sch_note(c, v->mark, "accepted actions: apply, delete, annotate, label, patch, status");
	}
}

static void check_label_edit(struct sch_ctx *c, const struct val *v, const char *path)
{
	const struct val *set = val_map_get(v, "set");
	const struct val *rm = val_map_get(v, "remove");
	size_t plen = strlen(path);
	bool labels = plen >= 5 && strcmp(path + plen - 5, "label") == 0;

	if ((!set || set->u.map.n == 0) && (!rm || rm->u.list.n == 0)) {
		sch_report(c, v->mark, path, "nothing to do: give 'set' or 'remove'");
		return;
	}
	for (size_t i = 0; set && i < set->u.map.n; i++) {
		const struct val_kv *kv = &set->u.map.items[i];
		char *sub = xasprintf("%s.set", path);

		if (!adm_is_qualified_name(kv->key)) {
			sch_report(c, kv->key_mark, sub, "Invalid value: \"%s\": not a valid %s key",
				   kv->key, labels ? "label" : "annotation");
			sch_note(c, kv->key_mark,
				 "a key is an optional DNS subdomain prefix and '/', then up to 63 "
				 "characters [A-Za-z0-9._-] starting and ending alphanumeric");
		} else if (labels && !adm_is_label_value(kv->v->u.s)) {
			sch_report(c, kv->v->mark, sub,
				   "Invalid value: \"%s\": not a valid value for label \"%s\"",
				   kv->v->u.s, kv->key);
			sch_note(c, kv->v->mark,
				 "a label value is empty or up to 63 characters [A-Za-z0-9._-] "
				 "starting and ending alphanumeric");
		}
		free(sub);
	}
}

static bool check_is_map(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (v->type == VAL_MAP)
		return true;
	char *q = sch_quote(v);
	sch_report(c, v->mark, path, "Invalid value: %s: must be an object (a JSON merge patch)",
		   q);
	free(q);
	return false;
}

static void check_merge_object(struct sch_ctx *c, const struct val *v, const char *path)
{
	if (!check_is_map(c, v, path))
		return;
	for (size_t i = 0; i < v->u.map.n; i++) {
		const struct val_kv *kv = &v->u.map.items[i];
		char *sub = xasprintf("%s.%s", path, kv->key);

		if (strcmp(kv->key, "spec") == 0) {
			check_is_map(c, kv->v, sub);
		} else if (strcmp(kv->key, "metadata") == 0) {
			if (check_is_map(c, kv->v, sub)) {
				for (size_t j = 0; j < kv->v->u.map.n; j++) {
					const struct val_kv *m = &kv->v->u.map.items[j];

					if (strcmp(m->key, "labels") != 0 &&
					    strcmp(m->key, "annotations") != 0) {
						sch_report(c, m->key_mark, sub,
							   "cannot patch '%s'", m->key);
						sch_note(c, m->key_mark,
							 "a patch may change metadata.labels, "
							 "metadata.annotations and spec");
					} else if (m->v->type != VAL_MAP && m->v->type != VAL_NULL) {
						char *q = sch_quote(m->v);
						sch_report(c, m->v->mark, sub,
							   "Invalid value: %s: '%s' must be an object",
							   q, m->key);
						free(q);
					}
				}
			}
		} else {
			sch_report(c, kv->key_mark, path, "cannot patch '%s'", kv->key);
			if (strcmp(kv->key, "status") == 0)
				sch_note(c, kv->key_mark, "use a 'status' event to change status");
			else
				sch_note(c, kv->key_mark,
					 "a patch may change metadata.labels, metadata.annotations "
					 "and spec");
		}
		free(sub);
	}
}

static void check_merge_spec(struct sch_ctx *c, const struct val *v, const char *path)
{
	check_is_map(c, v, path);
}

/* ---------------------------------------------------------------- files */

static char *join_path(const char *dir, const char *name)
{
	size_t n = strlen(dir);

	if (name[0] == '/' || n == 0 || strcmp(dir, ".") == 0)
		return xstrdup(name);
	return xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

/* dir_of() - the directory part of @path ("." when there is none).  Returns new. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool has_yaml_ext(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
	       (n > 4 && strcmp(name + n - 4, ".yml") == 0);
}

static void free_strv(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void load_file(struct loader *L, const char *path);
static void load_includes(struct loader *L, const char *scn_file);

static void push_doc(struct loader *L, struct val *root, const char *file)
{
	if (L->ndocs == L->capdocs) {
		L->capdocs = L->capdocs ? 2 * L->capdocs : 16;
		L->docs = xreallocarray(L->docs, L->capdocs, sizeof(*L->docs));
	}
	L->docs[L->ndocs++] = (struct pending_doc){ root, file };
}

static bool is_scenario_doc(const struct val *root)
{
	const char *av = val_str(val_map_get(root, "apiVersion"), NULL);
	const char *kind = val_str(val_map_get(root, "kind"), NULL);

	return (kind && strcmp(kind, SCN_KIND) == 0) ||
	       (av && strncmp(av, "magos-sim/", strlen("magos-sim/")) == 0);
}

static void process_scenario(struct loader *L, struct val *root, const char *file);

/* load_file() - reads @path (a regular file) unless it was read already. */
static void load_file(struct loader *L, const char *path)
{
	struct scenario *s = L->s;
	struct yl_stream *st;
	struct file_id id = { 0 };
	struct stat sb;
	const char *file;
	bool holds_scenario = false;
	int rc;

	if (stat(path, &sb) == 0) {
		id = (struct file_id){ sb.st_dev, sb.st_ino, true };
		for (size_t i = 0; i < s->nfiles; i++) {
			if (L->ids[i].known && L->ids[i].dev == id.dev && L->ids[i].ino == id.ino)
				return;
		}
	}
	s->files = xreallocarray(s->files, s->nfiles + 1, sizeof(*s->files));
	L->ids = xreallocarray(L->ids, s->nfiles + 1, sizeof(*L->ids));
	s->files[s->nfiles] = xstrdup(path);
	L->ids[s->nfiles] = id;
	file = s->files[s->nfiles++];

	if (L->nstreams == L->capstreams) {
		L->capstreams = L->capstreams ? 2 * L->capstreams : 8;
		L->streams = xreallocarray(L->streams, L->capstreams, sizeof(*L->streams));
	}
	st = &L->streams[L->nstreams++];
	rc = yl_load_file(file, st, L->d);
	if (rc == 0 && st->n == 0)
		diag_error(L->d, file, (struct val_mark){ 1, 1 },
			   "no documents: the file is empty or holds only comments");
	for (size_t i = 0; i < st->n; i++) {
		struct val *root = st->docs[i].root;

		if (root->type != VAL_MAP || !is_scenario_doc(root)) {
			push_doc(L, root, file);
			continue;
		}
		if (L->scn) {
			diag_error(L->d, file, st->docs[i].mark,
				   "a second Scenario document; the inputs may hold only one");
			diag_note(L->d, s->scenario_file, L->scn_mark,
				  "the first Scenario document is here");
			continue;
		}
		L->scn = root;
		L->scn_mark = st->docs[i].mark;
		s->scenario_file = file;
		s->has_scenario_doc = true;
		holds_scenario = true;
		process_scenario(L, root, file);
	}
	if (holds_scenario)
		load_includes(L, file);
}

/* load_dir() - reads the *.yaml / *.yml regular files of @dir, sorted by name. */
static void load_dir(struct loader *L, const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	if (!dp) {
		diag_error(L->d, dir, (struct val_mark){ 0, 0 }, "cannot read: %s", strerror(errno));
		return;
	}
	while ((de = readdir(dp)) != NULL) {
		struct stat sb;
		char *p;

		if (de->d_name[0] == '.' || !has_yaml_ext(de->d_name))
			continue;
		p = join_path(dir, de->d_name);
		if (stat(p, &sb) != 0 || !S_ISREG(sb.st_mode)) {
			free(p);
			continue;
		}
		names = xreallocarray(names, n + 1, sizeof(*names));
		names[n++] = p;
	}
	closedir(dp);
	if (n == 0) {
		diag_error(L->d, dir, (struct val_mark){ 0, 0 },
			   "no *.yaml or *.yml files in this directory");
		return;
	}
	qsort(names, n, sizeof(*names), cmp_str);
	for (size_t i = 0; i < n; i++)
		load_file(L, names[i]);
	free_strv(names, n);
}

/* load_input() - one command-line input: a file or a directory. */
static void load_input(struct loader *L, const char *path)
{
	struct stat sb;

	if (stat(path, &sb) != 0) {
		diag_error(L->d, path, (struct val_mark){ 0, 0 }, "cannot read: %s", strerror(errno));
		return;
	}
	if (S_ISDIR(sb.st_mode))
		load_dir(L, path);
	else
		load_file(L, path);
}

static bool has_glob_chars(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* load_includes() - the files named by spec.include of the Scenario in @scn_file. */
static void load_includes(struct loader *L, const char *scn_file)
{
	const struct val *inc = val_path(L->scn, "spec.include");
	char *dir;

	if (!inc || inc->type != VAL_LIST)
		return;
	dir = dir_of(scn_file);
	for (size_t i = 0; i < inc->u.list.n; i++) {
		const struct val *item = inc->u.list.items[i];
		const char *pat = val_str(item, NULL);
		char *full;

		if (!pat || !pat[0])
			continue; /* reported by the schema */
		full = join_path(dir, pat);
		if (!has_glob_chars(pat)) {
			struct stat sb;

			if (stat(full, &sb) != 0) {
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: cannot read \"%s\": %s", i, full,
					   strerror(errno));
				diag_note(L->d, scn_file, item->mark,
					  "include paths are relative to the scenario file's "
					  "directory");
			} else if (S_ISDIR(sb.st_mode)) {
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: \"%s\" is a directory", i, full);
				diag_note(L->d, scn_file, item->mark,
					  "include its files with a pattern such as \"%s/*.yaml\"",
					  pat);
			} else {
				load_file(L, full);
			}
		} else {
			glob_t g;
			size_t nfiles = 0;
			int rc = glob(full, 0, NULL, &g);

			if (rc == 0) {
				char **v = xcalloc(g.gl_pathc ? g.gl_pathc : 1, sizeof(*v));

				for (size_t j = 0; j < g.gl_pathc; j++) {
					struct stat sb;

					if (stat(g.gl_pathv[j], &sb) == 0 && S_ISREG(sb.st_mode))
						v[nfiles++] = xstrdup(g.gl_pathv[j]);
				}
				globfree(&g);
				qsort(v, nfiles, sizeof(*v), cmp_str);
				for (size_t j = 0; j < nfiles; j++)
					load_file(L, v[j]);
				free_strv(v, nfiles);
			}
			if (nfiles == 0) {
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: pattern \"%s\" matches no file", i,
					   full);
				diag_note(L->d, scn_file, item->mark,
					  "include paths are relative to the scenario file's "
					  "directory");
			}
		}
		free(full);
	}
	free(dir);
}

/* ---------------------------------------------------------------- the Scenario document */

static const char *const spec_key_list =
	"seed, horizon, start, include, api, limits, events";

/* read_params() - the run parameters of a validated (possibly faulty) Scenario @root. */
static void read_params(struct scenario *s, const struct val *root)
{
	const struct val *spec = val_map_get(root, "spec");
	const struct val *v;
	int64_t ms;

	v = val_path(root, "metadata.name");
	if (v && v->type == VAL_STRING && v->u.s[0]) {
		free(s->name);
		s->name = xstrdup(v->u.s);
	}
	v = val_map_get(spec, "seed");
	if (v && v->type == VAL_INT && v->u.i >= 0)
		s->seed = (uint64_t)v->u.i;
	v = val_map_get(spec, "horizon");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms > 0)
		s->horizon_ms = ms;
	v = val_map_get(spec, "start");
	if (v && v->type == VAL_STRING && gt_parse_rfc3339(v->u.s, &ms, NULL, 0) == 0)
		s->start_unix_ms = ms;
	v = val_path(spec, "api.latency");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms >= 0)
		s->api_latency_ms = ms;
	v = val_path(spec, "api.reconcileDuration");
	if (v && v->type == VAL_STRING && gt_parse_duration(v->u.s, &ms, NULL, 0) == 0 && ms >= 0)
		s->reconcile_ms = ms;
	v = val_path(spec, "limits.eventBudget");
	if (v && v->type == VAL_INT && v->u.i > 0)
		s->event_budget = (uint64_t)v->u.i;
	v = val_path(spec, "limits.eventsPerInstant");
	if (v && v->type == VAL_INT && v->u.i > 0)
		s->events_per_instant = (uint64_t)v->u.i;
}

/*
 * process_scenario() - validates the Scenario document @root (the keys of
 * later format versions are reported and removed first, so they are not also
 * reported as unknown), reads its parameters, and validates each event on its
 * own so that build_events() knows which ones are usable.
 */
static void process_scenario(struct loader *L, struct val *root, const char *file)
{
	struct sch_ctx c = { .d = L->d, .file = file, .root = root };
	const struct val_kv *av = val_map_get_kv(root, "apiVersion");
	struct val *spec = val_map_get(root, "spec");
	struct val *events;

	if (av && av->v->type == VAL_STRING && strcmp(av->v->u.s, SCN_API_VERSION) != 0) {
		diag_error(L->d, file, av->v->mark,
			   "apiVersion: Unsupported value: \"%s\": supported values: \"%s\"",
			   av->v->u.s, SCN_API_VERSION);
	}
	if (spec && spec->type == VAL_MAP) {
		for (size_t i = 0; future_keys[i]; i++) {
			const struct val_kv *kv = val_map_get_kv(spec, future_keys[i]);

			if (!kv)
				continue;
			diag_error(L->d, file, kv->key_mark,
				   "'%s' is not supported by this version of magos-sim",
				   future_keys[i]);
			diag_note(L->d, file, kv->key_mark, "accepted keys in spec: %s",
				  spec_key_list);
			val_map_del(spec, future_keys[i]);
		}
	}
	sch_validate(&scenario_node, root, "", &c);
	read_params(L->s, root);

	events = val_path(root, "spec.events");
	if (!events || events->type != VAL_LIST)
		return;
	L->nev = events->u.list.n;
	L->ev_ok = xcalloc(L->nev ? L->nev : 1, sizeof(*L->ev_ok));
	for (size_t i = 0; i < L->nev; i++) {
		char path[48];
		size_t before = c.nerrors;

		snprintf(path, sizeof(path), "spec.events[%zu]", i);
		sch_validate(&event_node, events->u.list.items[i], path, &c);
		L->ev_ok[i] = c.nerrors == before;
	}
}

/* ---------------------------------------------------------------- events */

/*
 * namespaced() - whether objects of @kind live in a namespace: from the
 * supported kind @av names, else from any object of that kind the inputs or
 * the apply events define, else true (such a target is not found anyway).
 */
static bool namespaced(const struct scenario *s, const char *kind, const char *av)
{
	const struct adm_kind *k = av ? adm_find_kind(av, kind) : NULL;

	if (k)
		return k->namespaced;
	for (size_t i = 0; i < s->nobjs; i++) {
		if (strcmp(s->objs[i]->kind, kind) == 0)
			return s->objs[i]->ns[0] != '\0';
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct obj *o = s->events[i].obj;

		if (o && strcmp(o->kind, kind) == 0)
			return o->ns[0] != '\0';
	}
	return true;
}

static bool target_is(const struct obj *o, const struct scn_target *t)
{
	return strcmp(o->kind, t->kind) == 0 && strcmp(o->ns, t->ns) == 0 &&
	       strcmp(o->name, t->name) == 0;
}

/* find_obj() - the last object with @t's identity in @objs, or NULL. */
static const struct obj *find_obj(struct obj *const *objs, size_t n, const struct scn_target *t)
{
	for (size_t i = n; i-- > 0;) {
		if (target_is(objs[i], t))
			return objs[i];
	}
	return NULL;
}

/* ref_text() - "Kind \"ns/name\"" or "Kind \"name\"" into @buf. */
static const char *ref_text(const struct scn_target *t, char *buf, size_t len)
{
	if (t->ns[0])
		snprintf(buf, len, "%s \"%s/%s\"", t->kind, t->ns, t->name);
	else
		snprintf(buf, len, "%s \"%s\"", t->kind, t->name);
	return buf;
}

static void target_release(struct scn_target *t)
{
	free(t->api_version);
	free(t->kind);
	free(t->ns);
	free(t->name);
}

static void event_release(struct scn_event *e)
{
	target_release(&e->target);
	obj_free(e->obj);
	obj_strmap_release(&e->set);
	free_strv(e->remove, e->nremove);
	val_free(e->merge);
}

const char *scn_event_type_name(enum scn_event_type t)
{
	if ((size_t)t < sizeof(action_names) / sizeof(action_names[0]) - 1)
		return action_names[t];
	return "?";
}

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
}

void scn_release(struct scenario *s)
{
	if (!s)
		return;
	free(s->name);
	for (size_t i = 0; i < s->nobjs; i++)
		obj_free(s->objs[i]);
	free(s->objs);
	for (size_t i = 0; i < s->nevents; i++)
		event_release(&s->events[i]);
	free(s->events);
	free_strv(s->files, s->nfiles);
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

/* ---------------------------------------------------------------- building events */

static const char *borrow_file(const struct scenario *s, const char *name)
{
	for (size_t i = 0; i < s->nfiles; i++) {
		if (strcmp(s->files[i], name) == 0)
			return s->files[i];
	}
	return NULL;
}

/* read_target() - the identity written in an action map @a (validated). */
static void read_target(const struct scenario *s, const struct val *a, struct scn_target *t)
{
	const char *av = val_str(val_map_get(a, "apiVersion"), NULL);
	const char *ns = val_str(val_map_get(a, "namespace"), "");

	t->api_version = av ? xstrdup(av) : NULL;
	t->kind = xstrdup(val_str(val_map_get(a, "kind"), ""));
	t->name = xstrdup(val_str(val_map_get(a, "name"), ""));
	if (!namespaced(s, t->kind, av))
		t->ns = xstrdup("");
	else
		t->ns = xstrdup(ns[0] ? ns : "default");
}

static void read_label_edit(const struct val *a, struct scn_event *e)
{
	const struct val *set = val_map_get(a, "set");
	const struct val *rm = val_map_get(a, "remove");

	for (size_t i = 0; set && set->type == VAL_MAP && i < set->u.map.n; i++)
		obj_strmap_set(&e->set, set->u.map.items[i].key,
			       val_str(set->u.map.items[i].v, ""));
	if (rm && rm->type == VAL_LIST && rm->u.list.n) {
		e->remove = xcalloc(rm->u.list.n, sizeof(*e->remove));
		for (size_t i = 0; i < rm->u.list.n; i++)
			e->remove[e->nremove++] = xstrdup(val_str(rm->u.list.items[i], ""));
	}
}

/*
 * Orders pointers into one array of events by (at, position in the array):
 * the order the runtime fires them in.
 */
static int cmp_event_firing(const void *a, const void *b)
{
	const struct scn_event *x = *(const struct scn_event *const *)a;
	const struct scn_event *y = *(const struct scn_event *const *)b;

	if (x->at_ms != y->at_ms)
		return x->at_ms < y->at_ms ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * check_targets() - every non-apply event must name an object that the
 * inputs define or that an apply event firing before it creates.  The
 * script is walked in firing order; problems are reported in file order.
 * @marks: per event, where its action sits; @evidx: its index in spec.events.
 */
static void check_targets(struct loader *L, const struct val_mark *marks, const size_t *evidx)
{
	struct scenario *s = L->s;
	size_t n = s->nevents ? s->nevents : 1;
	const struct scn_event **order = xcalloc(n, sizeof(*order));
	struct obj **created = xcalloc(n, sizeof(*created));
	const struct obj **found = xcalloc(n, sizeof(*found));
	size_t ncreated = 0;
	char ref[512];

	for (size_t i = 0; i < s->nevents; i++)
		order[i] = &s->events[i];
	qsort(order, s->nevents, sizeof(*order), cmp_event_firing);
	for (size_t k = 0; k < s->nevents; k++) {
		const struct scn_event *e = order[k];
		size_t i = (size_t)(e - s->events);

		if (e->type == SCN_EV_APPLY) {
			created[ncreated++] = e->obj;
			continue;
		}
		found[i] = find_obj(s->objs, s->nobjs, &e->target);
		if (!found[i])
			found[i] = find_obj(created, ncreated, &e->target);
	}
	for (size_t i = 0; i < s->nevents; i++) {
		const struct scn_event *e = &s->events[i];
		const char *action = scn_event_type_name(e->type);
		const struct obj *o = found[i];

		if (e->type == SCN_EV_APPLY)
			continue;
		if (!o) {
			diag_error(L->d, e->file, marks[i], "spec.events[%zu].%s: %s not found",
				   evidx[i], action, ref_text(&e->target, ref, sizeof(ref)));
			diag_note(L->d, e->file, marks[i],
				  "no input defines it and no 'apply' event creates it earlier");
		} else if (e->target.api_version &&
			   strcmp(e->target.api_version, o->api_version) != 0) {
			diag_error(L->d, e->file, marks[i],
				   "spec.events[%zu].%s.apiVersion: Invalid value: \"%s\": %s is "
				   "defined with apiVersion \"%s\"",
				   evidx[i], action, e->target.api_version,
				   ref_text(&e->target, ref, sizeof(ref)), o->api_version);
		}
	}
	free(found);
	free(created);
	free(order);
}

/*
 * build_events() - scn_event records from the events of the Scenario that
 * validated; apply payloads are admitted here.
 */
static void build_events(struct loader *L)
{
	struct scenario *s = L->s;
	const struct val *events = val_path(L->scn, "spec.events");
	const char *file = s->scenario_file;
	struct val_mark *marks;
	size_t *evidx;
	char hz[GT_DURATION_BUFSZ];

	if (!events || events->type != VAL_LIST || L->nev == 0)
		return;
	s->events = xcalloc(L->nev, sizeof(*s->events));
	marks = xcalloc(L->nev, sizeof(*marks));
	evidx = xcalloc(L->nev, sizeof(*evidx));
	gt_format_duration(s->horizon_ms, hz, sizeof(hz));
	for (size_t i = 0; i < L->nev; i++) {
		const struct val *ev = events->u.list.items[i];
		const struct val *at = val_map_get(ev, "at");
		struct scn_event *e = &s->events[s->nevents];
		const struct val_kv *act = NULL;
		size_t type = 0;

		if (!L->ev_ok[i])
			continue;
		for (; action_names[type]; type++) {
			act = val_map_get_kv(ev, action_names[type]);
			if (act)
				break;
		}
		memset(e, 0, sizeof(*e));
		e->type = (enum scn_event_type)type;
		e->at_ms = duration_ms(at);
		e->file = file;
		e->mark = at->mark;
		if (e->at_ms > s->horizon_ms) {
			diag_warning(L->d, file, at->mark,
				     "spec.events[%zu].at: \"%s\" is after the horizon (%s); the "
				     "event will not happen",
				     i, at->u.s, hz);
		}
		switch (e->type) {
		case SCN_EV_APPLY:
			if (adm_admit(file, act->v, &e->obj, L->d) != 0)
				continue; /* reported; the event is dropped */
			e->target.api_version = xstrdup(e->obj->api_version);
			e->target.kind = xstrdup(e->obj->kind);
			e->target.ns = xstrdup(e->obj->ns);
			e->target.name = xstrdup(e->obj->name);
			break;
		case SCN_EV_DELETE:
			read_target(s, act->v, &e->target);
			break;
		case SCN_EV_ANNOTATE:
		case SCN_EV_LABEL:
			read_target(s, act->v, &e->target);
			read_label_edit(act->v, e);
			break;
		case SCN_EV_PATCH:
		case SCN_EV_STATUS:
			read_target(s, act->v, &e->target);
			e->merge = val_copy(val_map_get(act->v, "merge"));
			break;
		}
		marks[s->nevents] = act->key_mark;
		evidx[s->nevents] = i;
		s->nevents++;
	}
	check_targets(L, marks, evidx);
	free(evidx);
	free(marks);
}

/* ---------------------------------------------------------------- scn_load */

int scn_load(const char *const *paths, size_t npaths, struct scenario *out, struct diag *d)
{
	struct loader L = { .s = out, .d = d };
	struct man_set set;
	size_t nerr0 = d->nerrors;

	scn_init(out);
	for (size_t i = 0; i < npaths; i++)
		load_input(&L, paths[i]);
	if (npaths == 0)
		diag_error(d, NULL, (struct val_mark){ 0, 0 }, "no input files");

	/* Pass 2: admit the manifests, in input order. */
	man_set_init(&set);
	for (size_t i = 0; i < L.ndocs; i++)
		man_load_doc(L.docs[i].file, L.docs[i].root, &set, d);
	out->objs = man_take(&set, &out->nobjs);
	for (size_t i = 0; i < out->nobjs; i++) {
		const char *f = out->objs[i]->src.file;

		/* The set names only files read here, so the lookup always succeeds. */
		out->objs[i]->src.file = f ? borrow_file(out, f) : NULL;
	}
	man_set_release(&set);

	if (!out->name)
		out->name = base_name(npaths ? paths[0] : "scenario");

	/* Pass 3: events. */
	if (L.scn)
		build_events(&L);

	for (size_t i = 0; i < L.nstreams; i++)
		yl_stream_release(&L.streams[i]);
	free(L.streams);
	free(L.ids);
	free(L.docs);
	free(L.ev_ok);
	return d->nerrors > nerr0 ? -1 : 0;
}
