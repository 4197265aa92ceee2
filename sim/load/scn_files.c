/*
 * The inputs of scn_load(): files and directories as given ("-" is standard
 * input), and the files spec.include names (paths or glob(3) patterns; a
 * relative one is resolved under the scenario file's directory, an absolute
 * one as written; read right after the scenario file).  Each file is parsed
 * into YAML documents; the Scenario document is processed as soon as it is
 * met (its includes say which files come next), the others wait for
 * admission.  A file reached twice, by any name, is read once.
 *
 * Bounds (sim/base/limits.h), over all the files of one load: the files
 * read, the bytes and documents (the YAML budget), and the directory entries
 * the include patterns examine (glob(3) walks directories for a pattern such
 * as /(*)/(*)/(*)/(*).yaml: the walk is counted as it goes and stopped at the
 * bound, so no pattern can scan the machine).  Only regular files are read.
 */
/* GLOB_ALTDIRFUNC and the gl_* hooks of glob_t are GNU (glibc's __USE_MISC). */
#define _DEFAULT_SOURCE

#include "sim/load/scn_parse.h"

#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "engine/xalloc.h"
#include "sim/base/readfile.h"
#include "sim/load/dirlist.h"

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

bool scn_is_manifest_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && ((n > 5 && strcmp(name + n - 5, ".yaml") == 0) ||
				  (n > 4 && strcmp(name + n - 4, ".yml") == 0) ||
				  (n > 5 && strcmp(name + n - 5, ".json") == 0));
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

	if (L->yb.exhausted || L->files_over)
		return; /* a bound was reached and reported: read nothing more */
	if (strcmp(path, "-") == 0) {
		for (size_t i = 0; i < s->nfiles; i++)
			if (strcmp(s->files[i], "-") == 0) {
				/* a file given twice is read once; standard input cannot be read twice */
				diag_error(L->d, path, (struct val_mark){ 0, 0 },
					   "standard input is given twice: it can be read once (give '-' once)");
				return;
			}
	} else if (stat(path, &sb) == 0) {
		id = (struct file_id){ sb.st_dev, sb.st_ino, true };
		for (size_t i = 0; i < s->nfiles; i++) {
			if (L->ids[i].known && L->ids[i].dev == id.dev && L->ids[i].ino == id.ino)
				return;
		}
	}
	if (s->nfiles >= L->lim->v[LIM_FILES]) {
		diag_fatal(L->d, path, (struct val_mark){ 0, 0 },
			   "the inputs name more than %llu files %s",
			   (unsigned long long)L->lim->v[LIM_FILES], lim_hint(LIM_FILES));
		L->files_over = true;
		return;
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
	rc = yl_load_file_in(file, &L->yb, st, L->d);
	if (rc != 0)
		L->yaml_failed = true;
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
			if (!L->said_one_scenario_each && strcmp(file, s->scenario_file) != 0)
				diag_note(L->d, file, st->docs[i].mark,
					  "a folder of separate scenarios is run one file at a time, "
					  "or checked together with `magos-sim check FOLDER`");
			L->said_one_scenario_each = true;
			continue;
		}
		L->scn = root;
		L->scn_mark = st->docs[i].mark;
		s->scenario_file = file;
		s->scenario_mark = st->docs[i].mark;
		s->has_scenario_doc = true;
		holds_scenario = true;
		scnp_process_scenario(L, root, file);
	}
	if (holds_scenario)
		load_includes(L, file);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* load_sorted() - reads the @n files named in @v (freed here) in byte order of the names. */
static void load_sorted(struct loader *L, char **v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_str);
	for (size_t i = 0; i < n; i++)
		load_file(L, v[i]);
	scnp_free_strv(v, n);
}

/*
 * load_dir() - reads the input files of @dir (sim/load/dirlist.h), sorted
 * by name.  A directory without any is an error; when it holds
 * subdirectories, a note names the first by name (the walk is not
 * recursive: a user who nested the files should hear why they were not read).
 */
static void load_dir(struct loader *L, const char *dir)
{
	struct dl_list l;
	char **paths;
	int rc = dl_list(dir, &l);

	if (rc != 0) {
		diag_error(L->d, dir, (struct val_mark){ 0, 0 }, "cannot read: %s", strerror(-rc));
		dl_release(&l);
		return;
	}
	if (l.n == 0) {
		diag_error(L->d, dir, (struct val_mark){ 0, 0 },
			   "no *.yaml, *.yml or *.json files in this directory");
		if (l.subdir) {
			char *p = join_path(dir, l.subdir);

			diag_note(L->d, dir, (struct val_mark){ 0, 0 },
				  "subdirectories are not read (the walk is not recursive): '%s' "
				  "is one; name it, or its files, as an input",
				  p);
			free(p);
		}
		dl_release(&l);
		return;
	}
	paths = xcalloc(l.n, sizeof(*paths));
	for (size_t i = 0; i < l.n; i++)
		paths[i] = join_path(dir, l.names[i]);
	load_sorted(L, paths, l.n);
	dl_release(&l);
}

void scnp_load_input(struct loader *L, const char *path)
{
	struct stat sb;

	if (strcmp(path, "-") == 0) {
		load_file(L, path);
		return;
	}
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

/*
 * The directory walk of one glob(3) call, counted: glob() takes no context,
 * so the count it charges is the calling thread's `scanning`.
 */
struct scan {
	uint64_t used, max; /* directory entries examined, and the bound */
	bool over;          /* the bound was reached: the walk was cut short */
};

static _Thread_local struct scan *scanning;

static void *scan_opendir(const char *name)
{
	return scanning->over ? NULL : opendir(name);
}

/* glibc declares the hooks with void * where they mean struct dirent * and struct stat *. */
static void *scan_readdir(void *dp)
{
	if (scanning->used >= scanning->max) {
		scanning->over = true;
		return NULL;
	}
	scanning->used++;
	return readdir(dp);
}

static void scan_closedir(void *dp)
{
	closedir(dp);
}

static int scan_stat(const char *restrict path, void *restrict st)
{
	return stat(path, st);
}

static int scan_lstat(const char *restrict path, void *restrict st)
{
	return lstat(path, st);
}

/*
 * glob_counted() - glob(3) of @pattern with its walk charged to the load's
 * include-scan budget.  Returns glob()'s code, or GLOB_ABORTED with *@over
 * set when the bound cut the walk short (@g is then released).
 */
static int glob_counted(struct loader *L, const char *pattern, glob_t *g, bool *over)
{
	struct scan sc = { L->include_scanned, L->lim->v[LIM_INCLUDE_SCAN], false };
	int rc;

	memset(g, 0, sizeof(*g));
	g->gl_opendir = scan_opendir;
	g->gl_readdir = scan_readdir;
	g->gl_closedir = scan_closedir;
	g->gl_stat = scan_stat;
	g->gl_lstat = scan_lstat;
	scanning = &sc;
	rc = glob(pattern, GLOB_ALTDIRFUNC, NULL, g);
	scanning = NULL;
	L->include_scanned = sc.used;
	*over = sc.over;
	if (sc.over) {
		if (rc == 0)
			globfree(g);
		return GLOB_ABORTED;
	}
	return rc;
}

/* Where the include path @pat of the Scenario in @scn_file was looked for, said for a note. */
static const char *include_base(const char *scn_file, const char *pat)
{
	if (pat[0] == '/')
		return "an absolute include path is used as written, not under the scenario file's "
		       "directory: check that it exists on this machine, or write it relative to "
		       "the scenario file";
	return !rf_is_stream_name(scn_file) ? "include paths are relative to the scenario file's directory"
					    : "include paths of a scenario read from a stream (standard "
					      "input, a pipe) are relative to the working directory";
}

/* include_failed() - records the first spec.include item that read nothing (struct loader). */
static void include_failed(struct loader *L, const char *scn_file, struct val_mark m)
{
	if (L->include_failed)
		return;
	L->include_failed = true;
	L->include_file = scn_file;
	L->include_mark = m;
}

/* load_includes() - the files named by spec.include of the Scenario in @scn_file. */
static void load_includes(struct loader *L, const char *scn_file)
{
	const struct val *inc = val_path(L->scn, "spec.include");
	char *dir;

	if (!inc || inc->type != VAL_LIST)
		return;
	/* a stream has no directory: the working directory stands for it */
	dir = rf_is_stream_name(scn_file) ? xstrdup(".") : dir_of(scn_file);
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
				include_failed(L, scn_file, item->mark);
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: cannot read \"%s\": %s", i, full,
					   strerror(errno));
				diag_note(L->d, scn_file, item->mark, "%s", include_base(scn_file, pat));
			} else if (S_ISDIR(sb.st_mode)) {
				include_failed(L, scn_file, item->mark);
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: \"%s\" is a directory", i, full);
				diag_note(L->d, scn_file, item->mark,
					  "include its files with a pattern such as \"%s/*.yaml\"",
					  pat);
			} else if (!S_ISREG(sb.st_mode)) {
				/* A device never ends, a FIFO blocks: only files are read. */
				include_failed(L, scn_file, item->mark);
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: \"%s\" is not a regular file (%s)", i,
					   full, S_ISFIFO(sb.st_mode) ? "a FIFO"
					   : S_ISSOCK(sb.st_mode) ? "a socket" : "a device");
			} else {
				load_file(L, full);
			}
		} else {
			glob_t g;
			size_t nfiles = 0;
			bool over = false;
			int rc = glob_counted(L, full, &g, &over);

			if (over) {
				include_failed(L, scn_file, item->mark);
				diag_fatal(L->d, scn_file, item->mark,
					   "spec.include[%zu]: pattern \"%s\" examines more than %llu "
					   "directory entries (with the patterns before it) %s",
					   i, full, (unsigned long long)L->lim->v[LIM_INCLUDE_SCAN],
					   lim_hint(LIM_INCLUDE_SCAN));
				diag_note(L->d, scn_file, item->mark,
					  "a relative pattern is resolved under %s; an absolute one walks "
					  "the directories it names",
					  !rf_is_stream_name(scn_file) ? "the scenario file's directory"
								       : "the working directory (the scenario is "
									 "a stream)");
				free(full);
				continue;
			}
			if (rc == 0) {
				char **v = xcalloc(g.gl_pathc ? g.gl_pathc : 1, sizeof(*v));

				for (size_t j = 0; j < g.gl_pathc; j++) {
					struct stat sb;

					if (stat(g.gl_pathv[j], &sb) == 0 && S_ISREG(sb.st_mode))
						v[nfiles++] = xstrdup(g.gl_pathv[j]);
				}
				globfree(&g);
				load_sorted(L, v, nfiles);
			}
			if (nfiles == 0) {
				include_failed(L, scn_file, item->mark);
				diag_error(L->d, scn_file, item->mark,
					   "spec.include[%zu]: pattern \"%s\" matches no file", i,
					   full);
				diag_note(L->d, scn_file, item->mark, "%s", include_base(scn_file, pat));
			}
		}
		free(full);
	}
	free(dir);
}
