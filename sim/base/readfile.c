#include "sim/base/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/xalloc.h"

/* A word for the kind of file @mode is, for "not a regular file (a FIFO)". */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a file";
}

/* Reads @fd to its end, at most @max bytes.  Returns RF_OK, RF_ERRNO or RF_TOOBIG. */
static int read_all(int fd, uint64_t max, char **buf, size_t *len)
{
	size_t n = 0, cap = 0;
	char *p = NULL;

	for (;;) {
		ssize_t got;

		if (cap - n < 65536) {
			cap = cap ? cap * 2 : 65536;
			p = xrealloc(p, cap);
		}
		got = read(fd, p + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(p);
			errno = e;
			return RF_ERRNO;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (n > max) {
			free(p);
			return RF_TOOBIG;
		}
	}
	*buf = p;
	*len = n;
	return RF_OK;
}

int rf_read(const char *path, uint64_t max, char **buf, size_t *len, const char **kind)
{
	bool is_stdin = strcmp(path, "-") == 0;
	struct stat st;
	int fd, rc, e;

	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return RF_ERRNO;
	if (fstat(fd, &st) != 0) {
		rc = RF_ERRNO;
		goto out_close;
	}
	if (!is_stdin && !S_ISREG(st.st_mode)) {
		if (kind)
			*kind = file_kind(st.st_mode);
		rc = RF_NOTREG;
		goto out_close;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		rc = RF_TOOBIG;
		goto out_close;
	}
	if (!is_stdin) {
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	rc = read_all(fd, max, buf, len);

out_close:
	e = errno;
	if (!is_stdin)
		close(fd);
	errno = e;
	return rc;
}
