/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "sim/cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/xalloc.h"
#include "sim/base/readfile.h"
#include "sim/cli/interrupt.h"

/* ---- what a signal removes ---------------------------------------------------- */

/*
 * The temporaries (and backups) that exist on disk right now, for the
 * signal handler: a slot holds a path while its file may exist.  A path is
 * registered before its file is created and unregistered after it is gone
 * or renamed, so the handler never misses one; unlink(2) of a name that is
 * not there is harmless.  Slots are atomic pointers: the handler may run on
 * any thread, at any point of the main thread's work.
 */
#define PENDING_MAX 64

static char *_Atomic pending[PENDING_MAX];
/* The signal cleanup: removes every temporary registered now (async-signal-safe). */
static void remove_pending(void)
{
	for (size_t i = 0; i < PENDING_MAX; i++) {
		char *p = atomic_load(&pending[i]);

		if (p)
			unlink(p);
	}
}

static void reg_add(char *path)
{
	intr_at_signal(remove_pending);
	for (size_t i = 0; i < PENDING_MAX; i++) {
		char *expected = NULL;

		if (atomic_compare_exchange_strong(&pending[i], &expected, path))
			return;
	}
	/* A command writes a handful of files: running out of slots is a bug. */
	abort();
}

static void reg_del(const char *path)
{
	for (size_t i = 0; i < PENDING_MAX; i++)
		if (atomic_load(&pending[i]) == path) {
			atomic_store(&pending[i], NULL);
			return;
		}
}

/* Removes the file @*p names and forgets it (unregistered first, then unlinked, then freed). */
static void drop_file(char **p)
{
	if (!*p)
		return;
	unlink(*p);
	reg_del(*p);
	free(*p);
	*p = NULL;
}

/* ---- checking and adding -------------------------------------------------------- */

/*
 * resolve() - where the bytes of @path go: *@stream true for "-" and
 * existing special files; else the file to replace, symlinks resolved so
 * that a link survives (a link to a file not there yet: that file).
 * Returns: a new path (caller frees), or NULL with errno (EISDIR for a directory).
 */
static char *resolve(const char *path, bool *stream)
{
	struct stat st;

	*stream = false;
	if (strcmp(path, "-") == 0) {
		*stream = true;
		return xstrdup(path);
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return NULL;
		}
		if (!S_ISREG(st.st_mode)) {
			*stream = true;
			return xstrdup(path);
		}
		return realpath(path, NULL);
	}
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		char buf[PATH_MAX];
		ssize_t n = readlink(path, buf, sizeof(buf) - 1);
		const char *slash = strrchr(path, '/');

		if (n < 0)
			return NULL;
		buf[n] = '\0';
		if (buf[0] == '/' || !slash)
			return xstrdup(buf);
		return xasprintf("%.*s/%s", (int)(slash - path), path, buf);
	}
	return xstrdup(path);
}

int of_check(const char *path)
{
	bool stream;
	char *target = resolve(path, &stream), *dir;
	const char *slash;
	struct stat st;
	int rc = 0;

	if (!target)
		return -1;
	if (stream) {
		free(target);
		return 0;
	}
	slash = strrchr(target, '/');
	dir = !slash ? xstrdup(".") : slash == target ? xstrdup("/")
				   : xstrndup(target, (size_t)(slash - target));
	if (stat(dir, &st) != 0) {
		rc = -1;
	} else if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		rc = -1;
	} else if (access(dir, W_OK | X_OK) != 0) {
		rc = -1;
	}
	{
		int e = errno;

		free(dir);
		free(target);
		errno = e;
	}
	return rc;
}

const char *of_refused(const char *path)
{
	const char *kind;
	char *dir;
	const char *slash;

	if (!strcmp(path, "-"))
		return NULL;
	if ((kind = rf_pseudo_fs(path)) != NULL)
		return kind;
	slash = strrchr(path, '/');
	dir = !slash ? xstrdup(".") : slash == path ? xstrdup("/")
				 : xstrndup(path, (size_t)(slash - path));
	kind = rf_pseudo_fs(dir);
	free(dir);
	return kind;
}

int of_same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return strcmp(a, "-") && strcmp(b, "-") && stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

static void push(struct outset *s, const struct of_entry *e)
{
	s->e = xreallocarray(s->e, s->n + 1, sizeof(*s->e));
	s->e[s->n++] = *e;
}

int os_add(struct outset *s, const char *path, int (*write)(FILE *f, const void *arg),
	   const void *arg)
{
	struct of_entry e = { 0 };
	FILE *f;
	int fd, err;

	e.path = resolve(path, &e.stream);
	if (!e.path)
		return -1;
	if (e.stream) {
		e.write = write;
		e.arg = arg;
		push(s, &e);
		return 0;
	}
	e.tmp = xasprintf("%s.tmp.XXXXXX", e.path);
	reg_add(e.tmp);
	fd = mkstemp(e.tmp);
	if (fd < 0)
		goto out_error;
	{
		/* mkstemp creates 0600; an output file gets the usual umask-based mode. */
		mode_t mask = umask(0);

		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		errno = err;
		goto out_error;
	}
	errno = 0;
	if (write(f, arg) != 0 || fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0) {
		err = errno ? errno : EIO;
		fclose(f);
		errno = err;
		goto out_error;
	}
	if (fclose(f) != 0)
		goto out_error;
	push(s, &e);
	return 0;

out_error:
	err = errno ? errno : EIO;
	drop_file(&e.tmp);
	free(e.path);
	errno = err;
	return -1;
}

int os_add_append(struct outset *s, const char *path, int (*write)(FILE *f, const void *arg),
		   const void *arg)
{
	struct of_entry e = { 0 };

	e.path = resolve(path, &e.stream);
	if (!e.path)
		return -1;
	e.append = !e.stream;
	e.write = write;
	e.arg = arg;
	push(s, &e);
	return 0;
}

/* ---- committing ------------------------------------------------------------------ */

static void release(struct outset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		drop_file(&s->e[i].tmp);
		drop_file(&s->e[i].backup);
		free(s->e[i].path);
	}
	free(s->e);
	s->e = NULL;
	s->n = 0;
}

void os_abort(struct outset *s)
{
	release(s);
}

/* Writes stream @e in place.  Returns 0, or -1 with errno. */
static int write_stream(const struct of_entry *e)
{
	FILE *f = stdout;
	int err = 0;

	if (strcmp(e->path, "-") != 0) {
		/*
		 * O_NONBLOCK: a FIFO no process reads fails at once (ENXIO) instead
		 * of waiting for a reader forever; the writes then block as usual.
		 */
		int fd = open(e->path, O_WRONLY | O_TRUNC | O_NONBLOCK | O_CLOEXEC), fl;

		if (fd < 0)
			return -1;
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "w"))) {
			err = errno;
			close(fd);
			errno = err;
			return -1;
		}
	}
	errno = 0;
	if (e->write(f, e->arg) != 0 || fflush(f) != 0 || ferror(f))
		err = errno ? errno : EIO;
	if (f != stdout && fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	errno = err;
	return err ? -1 : 0;
}

/*
 * Appends the output of @e to its file (created 0666 less the umask when
 * it is not there), flushed and synced; undo_appends() takes it back.
 * Returns 0, or -1 with errno.
 */
static int write_append(struct of_entry *e)
{
	struct stat st;
	int fd, err = 0;
	FILE *f;

	e->created = stat(e->path, &st) != 0;
	fd = open(e->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		err = errno ? errno : EINVAL;
		close(fd);
		errno = err;
		return -1;
	}
	e->old_size = (long long)st.st_size;
	e->appended = true;
	if (!(f = fdopen(fd, "a"))) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	errno = 0;
	if (e->write(f, e->arg) != 0 || fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
		err = errno ? errno : EIO;
	if (fclose(f) != 0 && !err)
		err = errno ? errno : EIO;
	errno = err;
	return err ? -1 : 0;
}

/* Cuts every file of @s that os_commit() appended to back to its old size (removes one it created). */
static void undo_appends(struct outset *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct of_entry *e = &s->e[i];

		if (!e->appended)
			continue;
		if (e->created ? unlink(e->path) == 0 : truncate(e->path, (off_t)e->old_size) == 0)
			e->appended = false;
	}
}

/*
 * A second name for the destination of @e while it is being replaced, so a
 * later failure can put it back.  No backup when there is nothing to keep,
 * or when the file system has no hard links (then that file cannot be put
 * back: the renames still go on, each atomic on its own).
 */
static void make_backup(struct of_entry *e)
{
	struct stat st;
	int fd;

	e->created = lstat(e->path, &st) != 0;
	if (e->created || !S_ISREG(st.st_mode))
		return;
	e->backup = xasprintf("%s.old.XXXXXX", e->path);
	reg_add(e->backup);
	fd = mkstemp(e->backup);
	if (fd >= 0) {
		close(fd);
		if (unlink(e->backup) == 0 && link(e->path, e->backup) == 0)
			return;
	}
	drop_file(&e->backup);
}

int os_commit(struct outset *s, char *bad, size_t badlen)
{
	sigset_t block, old;
	size_t i, done = 0;
	int err = 0;

	for (i = 0; i < s->n; i++)
		if ((s->e[i].stream && write_stream(&s->e[i]) != 0) ||
		    (s->e[i].append && write_append(&s->e[i]) != 0)) {
			err = errno;
			goto out_failed;
		}
	/* No signal between two renames: the set is replaced whole or not at all. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (i = 0; i < s->n; i++) {
		struct of_entry *e = &s->e[i];

		if (e->stream || e->append)
			continue;
		make_backup(e);
		if (rename(e->tmp, e->path) != 0) {
			err = errno;
			snprintf(bad, badlen, "%s", e->path);
			break;
		}
		reg_del(e->tmp);
		free(e->tmp);
		e->tmp = NULL;
		done = i + 1;
	}
	if (err) {
		/* Put back what the renames before the failure replaced. */
		for (size_t k = 0; k < done; k++) {
			struct of_entry *e = &s->e[k];

			if (e->stream || e->append)
				continue;
			if (e->backup && rename(e->backup, e->path) == 0) {
				reg_del(e->backup);
				free(e->backup);
				e->backup = NULL;
			} else if (e->created) {
				unlink(e->path);
			}
		}
		undo_appends(s);
	}
	release(s);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!err)
		return 0;
	errno = err;
	return -1;

out_failed:
	snprintf(bad, badlen, "%s", s->e[i].path);
	undo_appends(s);
	release(s);
	errno = err;
	return -1;
}
