/* realpath() is XSI. */
#define _XOPEN_SOURCE 700

#include "sim/cli/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/xalloc.h"

/*
 * Where the bytes go:
 *  - "-": stdout, written directly;
 *  - an existing path that is not a regular file (a device such as /dev/null,
 *    a FIFO, a socket, /dev/stdout, a process substitution's /dev/fd/N):
 *    opened and written directly — replacing it by rename would destroy it
 *    and the reader at its other end would never see the data;
 *  - an existing directory: refused with EISDIR;
 *  - anything else (a new path, or an existing regular file, also reached
 *    through symlinks): a temporary file beside the final target, renamed
 *    over it on commit; symlinks are resolved first so the link survives.
 */
int of_open(struct outfile *of, const char *path)
{
	struct stat st;
	char *target = NULL;
	int fd;

	memset(of, 0, sizeof(*of));
	if (strcmp(path, "-") == 0) {
		of->f = stdout;
		return 0;
	}
	if (stat(path, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			return -1;
		}
		if (!S_ISREG(st.st_mode)) {
			of->f = fopen(path, "w");
			if (!of->f)
				return -1;
			of->path = xstrdup(path);
			return 0;
		}
		target = realpath(path, NULL);
		if (!target)
			return -1;
	} else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* A link to a file not there yet: create that file, keep the link. */
		char buf[PATH_MAX];
		ssize_t n = readlink(path, buf, sizeof(buf) - 1);
		const char *slash = strrchr(path, '/');

		if (n < 0)
			return -1;
		buf[n] = '\0';
		if (buf[0] == '/' || !slash)
			target = xstrdup(buf);
		else
			target = xasprintf("%.*s/%s", (int)(slash - path), path, buf);
	}
	of->path = target ? target : xstrdup(path);
	of->tmp = xasprintf("%s.tmp.XXXXXX", of->path);
	fd = mkstemp(of->tmp);
	if (fd < 0)
		goto out_free_names;
	/* mkstemp creates 0600; an output file should get the usual umask-based mode. */
	{
		mode_t mask = umask(0);

		umask(mask);
		(void)fchmod(fd, 0666 & ~mask);
	}
	of->f = fdopen(fd, "w");
	if (!of->f) {
		int e = errno;

		close(fd);
		unlink(of->tmp);
		errno = e;
		goto out_free_names;
	}
	return 0;

out_free_names:
	{
		int e = errno;

		free(of->path);
		free(of->tmp);
		memset(of, 0, sizeof(*of));
		errno = e;
	}
	return -1;
}

int of_commit(struct outfile *of)
{
	int e = 0;

	if (!of->f)
		return 0;
	if (!of->tmp) {
		/* stdout, or a special file written in place. */
		if (fflush(of->f) != 0 || ferror(of->f))
			e = errno ? errno : EIO;
		if (of->f != stdout && fclose(of->f) != 0 && !e)
			e = errno ? errno : EIO;
		of->f = NULL;
		free(of->path);
		of->path = NULL;
		errno = e;
		return e ? -1 : 0;
	}
	if (fflush(of->f) != 0 || ferror(of->f) || fsync(fileno(of->f)) != 0)
		e = errno ? errno : EIO;
	if (fclose(of->f) != 0 && !e)
		e = errno ? errno : EIO;
	of->f = NULL;
	if (!e && rename(of->tmp, of->path) != 0)
		e = errno;
	if (e)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	of->tmp = of->path = NULL;
	errno = e;
	return e ? -1 : 0;
}

void of_abort(struct outfile *of)
{
	if (of->f && of->f != stdout)
		fclose(of->f);
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	memset(of, 0, sizeof(*of));
}
