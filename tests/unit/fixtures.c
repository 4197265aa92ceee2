/*
 * The fixtures of fixtures.h: builders and helpers every CUnit program can
 * use.  Each one is what two or more tests had written for themselves.
 */
#define _XOPEN_SOURCE 700 /* nftw() */

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/CUnit.h>

#include "engine/magos_project.h"
#include "engine/magos_rollout.h"
#include "engine/magos_workspace.h"
#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/load/yamlload.h"
#include "tests/unit/fixtures.h"

/* ---- temporary directories and files ------------------------------------------ */

static char origin[4096]; /* the directory the program started in (the repository root) */
static char workdir[64];  /* the directory of the last fx_tmp_enter() */

static void die(const char *what, const char *name)
{
	fprintf(stderr, "fixtures: %s '%s'\n", what, name);
	abort();
}

const char *fx_origin(void)
{
	if (!origin[0] && !getcwd(origin, sizeof(origin)))
		die("cannot read the working directory", ".");
	return origin;
}

void fx_tmp_enter(const char *tag)
{
	fx_origin(); /* before leaving it */
	snprintf(workdir, sizeof(workdir), "/tmp/%s.XXXXXX", tag);
	if (!mkdtemp(workdir))
		die("cannot make a temporary directory", workdir);
	if (chdir(workdir) != 0)
		die("cannot enter", workdir);
}

static int remove_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

void fx_tmp_leave(void)
{
	if (chdir(origin) != 0)
		die("cannot go back to", origin);
	if (nftw(workdir, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0)
		fprintf(stderr, "fixtures: could not remove '%s'\n", workdir);
}

void fx_put(const char *name, const char *text)
{
	const char *slash = strrchr(name, '/');
	FILE *f;

	if (slash) {
		char *dir = xstrndup(name, (size_t)(slash - name));

		mkdir(dir, 0755); /* an existing one is fine; fopen() reports the rest */
		free(dir);
	}
	f = fopen(name, "w");
	if (!f)
		die("cannot write", name);
	fputs(text, f);
	if (fclose(f) != 0)
		die("cannot write", name);
}

/* ---- YAML, loading and diagnostics --------------------------------------------- */

struct val *fx_yaml(const char *text)
{
	struct yl_stream s;
	struct diag d;
	struct val *v;
	int rc;

	diag_init(&d);
	rc = yl_load_string("spec", text, strlen(text), &s, &d);
	if (rc != 0 || s.n != 1)
		diag_print(&d, stderr, false);
	CU_ASSERT_FATAL(rc == 0 && s.n == 1);
	v = val_copy(s.docs[0].root);
	yl_stream_release(&s);
	diag_release(&d);
	return v;
}

int fx_scn_load(const char *const *paths, size_t n, struct scenario *s, char **diags)
{
	struct diag d;
	int rc;

	diag_init(&d);
	rc = scn_load(paths, n, s, &d);
	if (diags)
		*diags = fx_diag_text(&d);
	diag_release(&d);
	return rc;
}

const char *fx_diag_item(const struct diag *d, size_t i)
{
	static char *last;

	free(last);
	last = NULL;
	if (i >= d->n)
		return "";
	last = diag_format_item(d, i);
	return last;
}

char *fx_diag_text(const struct diag *d)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < d->n; i++) {
		char *line = diag_format_item(d, i);
		char *next = xasprintf("%s%s%s", out, i ? "\n" : "", line);

		free(line);
		free(out);
		out = next;
	}
	return out;
}

void fx_same_text(const char *got, const char *want)
{
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n--- want\n%s\n--- got\n%s\n", want, got);
}

/* ---- Magos objects ------------------------------------------------------------- */

/* Calls @fn(@ctx, key, value) for each "k=v" (or bare "k", value NULL) of a comma list. */
static void each_pair(const char *list, void (*fn)(void *, const char *, const char *), void *ctx)
{
	char *copy, *save = NULL, *tok;

	if (!list || !*list)
		return;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');

		if (eq)
			*eq = '\0';
		fn(ctx, tok, eq ? eq + 1 : NULL);
	}
	free(copy);
}

static void set_label(void *ctx, const char *k, const char *v)
{
	obj_strmap_set(ctx, k, v ? v : "");
}

static void set_annotation(void *ctx, const char *k, const char *v)
{
	struct obj_strmap *m = ctx;

	if (strcmp(k, "allowed") == 0)
		obj_strmap_set(m, MR_ANN_EXECUTION_ALLOWED, v ? v : "true");
	else if (strcmp(k, "rev") == 0)
		obj_strmap_set(m, MR_ANN_DETECTED_REVISION, v ? v : "");
	else if (strcmp(k, "req") == 0)
		obj_strmap_set(m, MR_ANN_RECONCILE_REQUEST, v ? v : "");
	else
		obj_strmap_set(m, k, v ? v : "");
}

struct obj *fx_ws_ref(const char *ns, const char *name, const char *project)
{
	struct obj *o = obj_new(FX_API, "Workspace", ns, name);
	struct val *ref;

	o->spec = val_new_map();
	ref = val_map_set(o->spec, "projectRef", val_new_map());
	val_map_set(ref, "name", val_new_string(project));
	return o;
}

struct obj *fx_workspace(const char *ns, const char *name, const char *labels,
			 const char *project, const char *phase, const char *ann)
{
	struct obj *o = fx_ws_ref(ns, name, project);

	each_pair(labels, set_label, &o->labels);
	each_pair(ann, set_annotation, &o->annotations);
	val_map_set(o->spec, "autoApply", val_new_bool(true));
	if (phase) {
		o->status = val_new_map();
		val_map_set(o->status, "phase", val_new_string(phase));
	}
	return o;
}

struct obj *fx_tf_workspace(const char *name)
{
	struct obj *o = fx_ws_ref("default", name, "proj");
	struct val *src, *tf;

	val_map_set(o->spec, "autoApply", val_new_bool(true));
	src = val_map_set(o->spec, "source", val_new_map());
	val_map_set(src, "repoURL", val_new_string("https://example.invalid/repo.git"));
	val_map_set(src, "targetRevision", val_new_string("main"));
	val_map_set(src, "path", val_new_string("."));
	tf = val_map_set(o->spec, "terraform", val_new_map());
	val_map_set(tf, "version", val_new_string("1.14.8"));
	val_map_set(o->spec, "serviceAccountName", val_new_string("magos-job"));
	return o;
}

struct val *fx_selector(const char *sel)
{
	struct val *s, *ml, *e, *vals;
	char *copy, *key, *op, *values, *save = NULL, *tok;

	if (!sel)
		return NULL;
	s = val_new_map();
	if (strcmp(sel, "{}") == 0)
		return s;
	if (strncmp(sel, "expr:", 5) != 0) {
		ml = val_map_set(s, "matchLabels", val_new_map());
		copy = xstrdup(sel);
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			char *eq = strchr(tok, '=');

			*eq = '\0';
			val_map_set(ml, tok, val_new_string(eq + 1));
		}
		free(copy);
		return s;
	}
	copy = xstrdup(sel + 5);
	key = copy;
	op = strchr(key, ':');
	*op++ = '\0';
	values = strchr(op, ':');
	if (values)
		*values++ = '\0';
	e = val_list_push(val_map_set(s, "matchExpressions", val_new_list()), val_new_map());
	val_map_set(e, "key", val_new_string(key));
	val_map_set(e, "operator", val_new_string(op));
	if (values) {
		vals = val_map_set(e, "values", val_new_list());
		for (tok = strtok_r(values, "|", &save); tok; tok = strtok_r(NULL, "|", &save))
			val_list_push(vals, val_new_string(tok));
	}
	free(copy);
	return s;
}

struct obj *fx_rollout(const char *ns, const char *project, const struct fx_step *steps,
		       size_t nsteps, const char *status_phase, int64_t step)
{
	struct obj *o = obj_new(FX_API, "Rollout", ns, project);
	struct val *st, *list;

	o->spec = val_new_map();
	val_map_set(o->spec, "projectRef", val_new_string(project));
	st = val_map_set(o->spec, "strategy", val_new_map());
	list = val_map_set(st, "steps", val_new_list());
	for (size_t i = 0; i < nsteps; i++) {
		struct val *s = val_list_push(list, val_new_map());
		struct val *sel = fx_selector(steps[i].sel);

		val_map_set(s, "name", val_new_string(steps[i].name));
		if (sel)
			val_map_set(s, "selector", sel);
	}
	if (status_phase) {
		o->status = val_new_map();
		val_map_set(o->status, "phase", val_new_string(status_phase));
		val_map_set(o->status, "currentStep", val_new_int(step));
	}
	return o;
}

struct obj *fx_project(const char *ns, const char *name, int no_finalizer)
{
	struct obj *o = obj_new(FX_API, "Project", ns, name);

	o->spec = val_new_map();
	if (!no_finalizer)
		obj_add_finalizer(o, MP_FINALIZER);
	return o;
}

char *fx_join(char *const *names, size_t n)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += strlen(names[i]) + 1;
	s = xmalloc(len);
	s[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, names[i]);
	}
	return s;
}

/* ---- fleet objects ------------------------------------------------------------- */

struct val *fx_match_labels(const char *key, const char *value)
{
	struct val *sel = val_new_map();
	struct val *ml = val_map_set(sel, "matchLabels", val_new_map());

	val_map_set(ml, key, val_new_string(value));
	return sel;
}

struct obj *fx_fleet_rollout(const char *name, const char *spec)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "FleetRollout", NULL, name);

	o->spec = fx_yaml(spec);
	return o;
}

struct obj *fx_fleet_member(const char *ns, const char *name, const char *app,
			    const char *ring)
{
	struct obj *o = obj_new("stages.metio.wtf/v1", "StageSet", ns, name);
	struct val *v;

	obj_strmap_set(&o->labels, "app", app);
	if (ring)
		obj_strmap_set(&o->labels, "ring", ring);
	o->spec = val_new_map();
	v = val_map_set(o->spec, "version", val_new_map());
	val_map_set(v, "value", val_new_string("1.0.0"));
	val_map_set(v, "approvalMode", val_new_string("Always"));
	return o;
}

struct val *fx_ready_conditions(const char *status, const char *reason)
{
	struct val *conds = val_new_list();
	struct val *c = val_list_push(conds, val_new_map());

	val_map_set(c, "type", val_new_string("Ready"));
	val_map_set(c, "status", val_new_string(status));
	if (reason)
		val_map_set(c, "reason", val_new_string(reason));
	return conds;
}

struct obj *fx_namespace(const char *name, const char *key, const char *value)
{
	struct obj *o = obj_new("v1", "Namespace", NULL, name);

	if (key)
		obj_strmap_set(&o->labels, key, value);
	return o;
}

/* ---- worlds ---------------------------------------------------------------------- */

struct des *fx_des_new(uint64_t seed, int64_t api_latency_ms)
{
	struct des_params p = des_params_default();

	p.seed = seed;
	p.api_latency_ms = api_latency_ms;
	return des_new(&p);
}

void fx_create(struct des *w, struct obj *o)
{
	CU_ASSERT_EQUAL(api_create(des_api(w), o), 0);
}

void fx_create_copies(struct des *w, const struct scenario *s)
{
	for (size_t i = 0; i < s->nobjs; i++)
		fx_create(w, obj_copy(s->objs[i]));
}

static void patch_status(struct des *w, void *ctx, void *arg)
{
	const struct scn_event *ev = arg;

	(void)ctx;
	CU_ASSERT_EQUAL(api_patch_status(des_api(w), ev->target.kind, ev->target.ns,
					 ev->target.name, ev->merge), 0);
}

void fx_script_status(struct des *w, const struct scenario *s)
{
	for (size_t i = 0; i < s->nevents; i++) {
		CU_ASSERT_EQUAL(s->events[i].type, SCN_EV_STATUS);
		des_at(w, s->events[i].at_ms, DES_PRIO_SCRIPT, patch_status, NULL, &s->events[i]);
	}
}

void fx_rec_watch(struct fx_rec *r, struct des *w, const char *kind, api_watch_fn fn)
{
	r->lines = NULL;
	r->n = 0;
	r->w = w;
	api_watch(des_api(w), kind, fn, r);
}

void fx_rec_add(struct fx_rec *r, char *line)
{
	r->lines = xreallocarray(r->lines, r->n + 1, sizeof(*r->lines));
	r->lines[r->n++] = line;
}

void fx_rec_release(struct fx_rec *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->lines[i]);
	free(r->lines);
	r->lines = NULL;
	r->n = 0;
}

void fx_expect_lines(const struct fx_rec *r, const char *const *want, size_t n, const char *what)
{
	bool ok = r->n == n;

	for (size_t i = 0; ok && i < n; i++)
		ok = strcmp(r->lines[i], want[i]) == 0;
	if (!ok) {
		fprintf(stderr, "\n%s: got %zu lines:\n", what, r->n);
		for (size_t i = 0; i < r->n; i++)
			fprintf(stderr, "  %s\n", r->lines[i]);
		fprintf(stderr, " want %zu:\n", n);
		for (size_t i = 0; i < n; i++)
			fprintf(stderr, "  %s\n", want[i]);
	}
	CU_ASSERT_TRUE(ok);
}

static void annotate(struct des *w, void *ctx, void *arg)
{
	const struct fx_annotation *a = arg;

	(void)ctx;
	api_set_annotation(des_api(w), a->kind, a->ns, a->name, a->key, a->value);
}

void fx_annotate_at(struct des *w, int64_t t_ms, const struct fx_annotation *a)
{
	des_at(w, t_ms, DES_PRIO_SCRIPT, annotate, NULL, (void *)a);
}

/* ---- a fake Job runner ----------------------------------------------------------- */

static void finish_job(struct des *w, void *ctx, void *arg)
{
	struct fx_runner *r = ctx;
	const char *name = r->names[(size_t)(uintptr_t)arg];
	const struct obj *j = api_get(des_api(w), "Job", "default", name);
	struct val *st, *conds, *c;
	char t[GT_RFC3339_BUFSZ];
	bool fail;

	if (!j)
		return;
	fail = strcmp(obj_strmap_get(&j->labels, MW_LABEL_JOB_TYPE), "plan") == 0 &&
	       r->plan_failures > 0;
	if (fail)
		r->plan_failures--;
	gt_format_rfc3339(r->anchor_unix_ms + des_now(w), t, sizeof(t));
	st = val_new_map();
	conds = val_new_list();
	c = val_new_map();
	val_map_set(st, "active", val_new_null());
	val_map_set(st, fail ? "failed" : "succeeded", val_new_int(1));
	if (!fail)
		val_map_set(st, "completionTime", val_new_string(t));
	val_map_set(c, "type", val_new_string(fail ? "Failed" : "Complete"));
	val_map_set(c, "status", val_new_string("True"));
	if (fail)
		val_map_set(c, "reason", val_new_string("BackoffLimitExceeded"));
	val_list_push(conds, c);
	val_map_set(st, "conditions", conds);
	des_set_cause(w, "fake job runner");
	api_patch_status(des_api(w), "Job", "default", name, st);
	val_free(st);
}

static void runner_watch(void *ctx, enum api_event_type type, const struct obj *old,
			 const struct obj *new)
{
	struct fx_runner *r = ctx;

	(void)old;
	if (type != API_ADDED || r->n >= sizeof(r->names) / sizeof(r->names[0]))
		return;
	snprintf(r->names[r->n], sizeof(r->names[0]), "%s", new->name);
	des_at(r->w, des_now(r->w) + r->job_ms, DES_PRIO_SCRIPT, finish_job, r,
	       (void *)(uintptr_t)r->n);
	r->n++;
}

void fx_runner_start(struct fx_runner *r, struct des *w, int64_t anchor_unix_ms,
		     int64_t job_ms)
{
	memset(r, 0, sizeof(*r));
	r->w = w;
	r->anchor_unix_ms = anchor_unix_ms;
	r->job_ms = job_ms;
	api_watch(des_api(w), "Job", runner_watch, r);
}

/* ---- trial rows -------------------------------------------------------------------- */

struct trial_row fx_trial_row(uint32_t i, int64_t ttc_ms)
{
	struct trial_row r;

	memset(&r, 0, sizeof(r));
	r.index = i;
	r.seed = 100 + i;
	r.stop = ttc_ms >= 0 ? DES_STOPPED : DES_HORIZON;
	r.end_ms = ttc_ms >= 0 ? ttc_ms : 10000;
	r.completed = ttc_ms >= 0;
	r.ttc_ms = ttc_ms;
	r.halt_ms = -1;
	r.detection_ms = -1;
	return r;
}

void fx_rows_free(struct trial_row *rows, size_t n)
{
	for (size_t i = 0; rows && i < n; i++)
		trial_row_release(&rows[i]);
	free(rows);
}

/* ---- captured output --------------------------------------------------------------- */

FILE *fx_cap_open(struct fx_cap *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c->f);
	return c->f;
}

char *fx_cap_text(struct fx_cap *c)
{
	fclose(c->f);
	c->f = NULL;
	return c->buf;
}

size_t fx_count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

/* ---- lint ------------------------------------------------------------------------ */

char *fx_lint_text(const struct lint_report *r, bool with_file)
{
	char *out = xstrdup("");

	for (size_t i = 0; i < r->n; i++) {
		const struct lint_finding *f = &r->items[i];
		char *next = xasprintf("%s%s%s%s%u:%u: %s %s: %s", out, i ? "\n" : "",
				       with_file && f->file ? f->file : "", with_file ? ":" : "",
				       f->mark.line, f->mark.col, f->rule->id,
				       lint_sev_name(f->sev), f->msg);

		free(out);
		out = next;
	}
	return out;
}

char *fx_lint_yaml(const char *tag, const char *yaml,
		   void (*rules)(struct lint_report *r, const struct scenario *s))
{
	const char *path = "m.yaml";
	struct scenario s;
	struct diag d;
	struct lint_report r;
	char *text;

	fx_tmp_enter(tag);
	fx_put(path, yaml);
	diag_init(&d);
	scn_load(&path, 1, &s, &d);
	if (getenv("LINT_QUIRKS_DUMP"))
		diag_print(&d, stderr, false);
	lint_report_init(&r);
	rules(&r, &s);
	lint_report_sort(&r);
	text = fx_lint_text(&r, false);
	lint_report_release(&r);
	scn_release(&s);
	diag_release(&d);
	fx_tmp_leave();
	return text;
}
