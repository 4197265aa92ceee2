#ifndef MAGOS_SIM_OUTFILE_H
#define MAGOS_SIM_OUTFILE_H

/*
 * The output files of one command, written all or nothing: every file goes
 * to a temporary file in its destination's directory first; only when every
 * one of them was written, flushed and synced are they renamed over their
 * destinations, one after the other.  A failure before that removes the
 * temporaries and replaces nothing; a rename that fails puts back the files
 * the earlier renames replaced (from hard links made just before) and
 * removes what they created, so either every destination is new or none
 * is.  SIGINT, SIGTERM and SIGHUP remove the temporaries (and put nothing
 * back half-way: the process dies with the signal, as it would have).
 *
 * Destinations that are not regular files are streams: "-" (standard
 * output), an existing device, FIFO or socket (/dev/null, /dev/stdout, a
 * process substitution's /dev/fd/N).  Replacing one by rename would destroy
 * it, so a stream is written in place, after every temporary is complete
 * and before the renames: a stream never gets a document whose files then
 * fail, but a stream once written cannot be taken back.
 */

#include <stdbool.h>
#include <stdio.h>

/* One output of a set (private to outfile.c). */
struct of_entry {
	char *path;   /* destination, owned (symlinks resolved) */
	char *tmp;    /* the temporary, owned; NULL for a stream */
	char *backup; /* a hard link to the old destination while renaming, owned, or NULL */
	/* a stream's writer, called at os_commit(): */
	int (*write)(FILE *f, const void *arg);
	const void *arg;
	bool stream;
	bool created; /* the rename (or the append) made a destination that did not exist */
	bool append;  /* a regular file added to in place at os_commit() (os_add_append()) */
	bool appended; /* os_commit() wrote to it: old_size is what to cut it back to */
	long long old_size; /* bytes the file held before (0: it did not exist) */
};

/* A set of outputs committed together.  A zeroed struct is an empty set. */
struct outset {
	struct of_entry *e; /* owned, n of them, in the order added */
	size_t n;
};

/*
 * of_check() - whether @path can be written, checked before any work (a
 * simulation of minutes must not end in "cannot write"): "-" can; an
 * existing directory cannot (EISDIR); an existing special file is a stream
 * and can; otherwise the directory that will hold it (of the symlink's
 * target, when @path is one) must exist, be a directory and be writable.
 * Returns: 0, or -1 with errno set (ENOENT, ENOTDIR, EACCES, EROFS, EISDIR).
 */
int of_check(const char *path);

/*
 * of_refused() - why @path is no output whatever the permissions, or NULL:
 * a file (or, for a new file, a directory) of a kernel pseudo filesystem
 * ("a file of procfs, a kernel pseudo filesystem": /proc/version is not a
 * place for a report, and its directory takes no temporary file).  Static.
 */
const char *of_refused(const char *path);

/*
 * of_same_file() - whether @a and @b are one existing file (the same
 * st_dev and st_ino, whatever symlinks or names lead there).
 */
int of_same_file(const char *a, const char *b);

/*
 * os_add() - adds @path to @s.  A file: @write(f, @arg) writes it to a new
 * temporary file now (flushed, synced and closed; the temporary is removed
 * again at once when anything fails).  A stream: @write and @arg are kept
 * and called at os_commit(), so @arg must stay valid until then.
 * Returns: 0, or -1 with errno set (nothing of @path is left on disk).
 * @write returns 0, or -1 with errno set.
 */
int os_add(struct outset *s, const char *path, int (*write)(FILE *f, const void *arg),
	   const void *arg);

/*
 * os_add_append() - adds @path to @s as a file that os_commit() appends
 * @write(f, @arg)'s output to, in place (created when it does not exist),
 * as GitHub's $GITHUB_STEP_SUMMARY is appended to by every step of a job:
 * replacing it would drop what the steps before wrote.  @arg must stay
 * valid until os_commit().  A stream ("-", a device, a FIFO) is written as
 * os_add() writes one.  The set stays all or nothing: an appended file is
 * cut back to its old size when its write, or anything of the set after
 * it, fails.
 * Returns: 0, or -1 with errno set (a directory: EISDIR).
 */
int os_add_append(struct outset *s, const char *path, int (*write)(FILE *f, const void *arg),
		  const void *arg);

/*
 * os_commit() - writes the streams and the appended files (in order), then renames every
 * temporary over its destination (in order), with SIGINT, SIGTERM and
 * SIGHUP held back meanwhile so that a signal cannot land between two
 * renames.
 * @bad, @badlen: on failure receives the destination that failed.
 * Returns: 0, or -1 with errno set; then no destination file is replaced
 *          and every appended file is cut back to its old size (the
 *          streams written before the failure stay written).  Either
 *          way @s is released and empty.
 */
int os_commit(struct outset *s, char *bad, size_t badlen);

/* os_abort() - removes every temporary of @s and releases it; nothing is replaced.  Accepts an empty set. */
void os_abort(struct outset *s);

#endif
