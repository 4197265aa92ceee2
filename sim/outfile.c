#include "sim/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/xalloc.h"

int of_open(struct outfile *of, const char *path)
{
	int fd;

	memset(of, 0, sizeof(*of));
	if (strcmp(path, "-") == 0) {
		of->f = stdout;
		return 0;
	}
	of->path = xstrdup(path);
	of->tmp = xasprintf("%s.tmp.XXXXXX", path);
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
		/* stdout: the caller may still print after us, so do not close it. */
		if (fflush(of->f) != 0 || ferror(of->f))
			e = errno ? errno : EIO;
		of->f = NULL;
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
	if (of->f && of->tmp)
		fclose(of->f);
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	free(of->path);
	memset(of, 0, sizeof(*of));
}
