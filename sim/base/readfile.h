#ifndef MAGOS_SIM_READFILE_H
#define MAGOS_SIM_READFILE_H

/*
 * Reading an input file whole, safely: only a regular file is read (a
 * device never ends, a FIFO may block forever: both are refused before the
 * first read, the file being opened with O_NONBLOCK so that even the open
 * cannot block), and never more than a bound.  A file of a kernel pseudo
 * filesystem (procfs, sysfs, debugfs, tracefs, cgroup, ...: statfs(2)
 * f_type, on Linux) is no regular file either, whatever st_mode says: it
 * may block (/proc/kmsg) or never end.  "-" reads standard input; so does
 * a path that opens it (/dev/stdin on a pipe).  The other streams an input
 * may be are those this process was handed open: /dev/fd/N or
 * /proc/self/fd/N of a descriptor it holds (the shell's `<(cmd)`), whose
 * writer exists (a named FIFO is still refused: its open would wait for
 * one).  A stream is read once: the process keeps its bytes, and a later
 * read of it (a command that loads its inputs twice) gets the same bytes
 * again.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
	RF_OK = 0,
	RF_ERRNO = -1,   /* open or read failed: errno says why */
	RF_NOTREG = -2,  /* not a regular file: rf_kind() of it says what it is */
	RF_TOOBIG = -3,  /* more than @max bytes */
};

/*
 * rf_read() - the contents of @path.
 * @max:  the most bytes accepted.
 * @buf:  receives a new buffer of *@len bytes (not NUL-terminated; caller
 *        frees) on RF_OK; untouched otherwise.
 * @kind: on RF_NOTREG receives "a FIFO", "a directory", "a character
 *        device", "a file of procfs, a kernel pseudo filesystem", ...
 *        (static); may be NULL.
 * Returns: RF_OK, RF_ERRNO (errno set), RF_NOTREG or RF_TOOBIG.  Standard
 * input past the @max of its first read is RF_TOOBIG on every read.
 * Not thread-safe for standard input (the loader reads inputs on one thread).
 */
int rf_read(const char *path, uint64_t max, char **buf, size_t *len, const char **kind);

/*
 * rf_is_stream_name() - whether @path names a stream by its form: "-",
 * /dev/stdin, /dev/fd/N or /proc/self/fd/N (bash's `<(cmd)` gives
 * /dev/fd/63).  Such an input has no directory of its own: what it names
 * relatively (a Scenario's spec.include) is under the working directory,
 * and its name is no scenario name.  Cannot fail.
 */
bool rf_is_stream_name(const char *path);

/*
 * rf_pseudo_fs() - the kernel pseudo filesystem @path is on ("a file of
 * procfs, a kernel pseudo filesystem"; static), or NULL when it is on none,
 * or cannot be asked (statfs(2) failed; not Linux).
 */
const char *rf_pseudo_fs(const char *path);

#endif
