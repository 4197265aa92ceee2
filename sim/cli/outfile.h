#ifndef MAGOS_SIM_OUTFILE_H
#define MAGOS_SIM_OUTFILE_H

/*
 * Output files written atomically: the content goes to a temporary file in the
 * destination's directory, which replaces the destination only once every byte
 * was written and flushed.  A failed or abandoned output never leaves a
 * half-written file behind, and never clobbers an older good one.
 */

#include <stdio.h>

struct outfile {
	char *path; /* destination, owned */
	char *tmp;  /* temporary path, owned; NULL once committed or aborted */
	FILE *f;    /* open stream on tmp, or stdout when path is "-" */
};

/*
 * of_open() - starts writing @path ("-" means stdout, written directly; an
 * existing device, FIFO or socket is written in place, never replaced; a
 * symlink is followed and the file it names replaced atomically).
 * Returns: 0, or -1 with errno set (EISDIR for a directory; the message is
 * the caller's: name @path).
 */
int of_open(struct outfile *of, const char *path);

/*
 * of_commit() - flushes, syncs and renames the temporary file over the
 * destination; for stdout, flushes and checks the stream's error flag.
 * Returns: 0, or -1 with errno set; on failure the temporary file is removed.
 * Either way @of is released.
 */
int of_commit(struct outfile *of);

/* of_abort() - discards what was written (removes the temporary file). Accepts a released @of. */
void of_abort(struct outfile *of);

#endif
