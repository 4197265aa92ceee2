#include "sim/base/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

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

/*
 * The kernel's pseudo filesystems (statfs(2) f_type, as <linux/magic.h>
 * numbers them: kernel ABI).  Their files say "regular" in st_mode with a
 * size of 0 or 4096 whatever they hold, and reading one may block forever
 * (/proc/kmsg), never end, or act on the kernel: none is an input.
 */
#ifdef __linux__
static const struct {
	unsigned long type;
	const char *kind;
} pseudo_fs[] = {
	{ 0x9fa0, "a file of procfs, a kernel pseudo filesystem" },
	{ 0x62656572, "a file of sysfs, a kernel pseudo filesystem" },
	{ 0x64626720, "a file of debugfs, a kernel pseudo filesystem" },
	{ 0x74726163, "a file of tracefs, a kernel pseudo filesystem" },
	{ 0x27e0eb, "a file of cgroupfs, a kernel pseudo filesystem" },
	{ 0x63677270, "a file of cgroup2fs, a kernel pseudo filesystem" },
	{ 0x73636673, "a file of securityfs, a kernel pseudo filesystem" },
	{ 0xf97cff8c, "a file of selinuxfs, a kernel pseudo filesystem" },
	{ 0x6165676c, "a file of pstore, a kernel pseudo filesystem" },
	{ 0xde5e81e4, "a file of efivarfs, a kernel pseudo filesystem" },
	{ 0xcafe4a11, "a file of bpffs, a kernel pseudo filesystem" },
	{ 0x42494e4d, "a file of binfmt_misc, a kernel pseudo filesystem" },
	{ 0x62656570, "a file of configfs, a kernel pseudo filesystem" },
	{ 0x65735543, "a file of fusectl, a kernel pseudo filesystem" },
};
#endif

/* What pseudo filesystem @fd is on ("a file of procfs, ..."), or NULL for none (or unknown). */
static const char *pseudo_kind(int fd)
{
#ifdef __linux__
	struct statfs sf;

	if (fstatfs(fd, &sf) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)(unsigned int)sf.f_type == pseudo_fs[i].type)
			return pseudo_fs[i].kind;
#else
	(void)fd;
#endif
	return NULL;
}

const char *rf_pseudo_fs(const char *path)
{
#ifdef __linux__
	struct statfs sf;

	if (statfs(path, &sf) != 0)
		return NULL;
	for (size_t i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)(unsigned int)sf.f_type == pseudo_fs[i].type)
			return pseudo_fs[i].kind;
#else
	(void)path;
#endif
	return NULL;
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

/*
 * Streams as this process read them: standard input, and a pipe this
 * process was handed open (`<(cmd)` names one /dev/fd/63).  A stream ends
 * once read, and a command may load an input twice (lint loads each input
 * alone to find a Scenario, then the plain manifests together), so the
 * first read keeps the bytes and every later read of the same stream (by
 * device and inode) gets them again.  Inputs are read by the loader only,
 * before any thread of the trials starts: no lock.  The table grows with
 * the streams named on the command line, each at most once.
 */
struct kept_stream {
	dev_t dev;
	ino_t ino;
	bool toobig; /* it held more than the bound of the first read: nothing kept */
	char *bytes; /* owned; NULL when it was empty */
	size_t len;
};
static struct {
	struct kept_stream *s;
	size_t n;
} kept;

/*
 * Whether @path names descriptor *@fd of this process (/dev/fd/N,
 * /proc/self/fd/N, /dev/stdin) that is open on the same file as @st: a
 * stream the process holds already (a pipe of `<(cmd)`, standard input),
 * whose writer exists, not a named FIFO the open would wait on.
 */
static bool is_own_stream(const char *path, const struct stat *st, int *fd)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	struct stat in;
	long n = -1;

	if (!strcmp(path, "/dev/stdin"))
		n = STDIN_FILENO;
	for (size_t i = 0; n < 0 && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t k = strlen(dirs[i]);
		char *end;

		if (!strncmp(path, dirs[i], k) && path[k] >= '0' && path[k] <= '9') {
			errno = 0;
			n = strtol(path + k, &end, 10);
			if (*end || errno || n > 1000000)
				n = -1;
		}
	}
	/* standard input by another name (a symlink to /proc/self/fd/0, say) */
	if (n < 0 && fstat(STDIN_FILENO, &in) == 0 && in.st_dev == st->st_dev && in.st_ino == st->st_ino) {
		*fd = STDIN_FILENO;
		return true;
	}
	if (n < 0 || fstat((int)n, &in) != 0 || in.st_dev != st->st_dev || in.st_ino != st->st_ino)
		return false;
	*fd = (int)n;
	return true;
}

bool rf_is_stream_name(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdin"))
		return true;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t k = strlen(dirs[i]);

		if (!strncmp(path, dirs[i], k) && path[k] && path[k + strspn(path + k, "0123456789")] == '\0')
			return true;
	}
	return false;
}

/*
 * rf_read() of stream @fd (@st its fstat): read once to its end (at most
 * the first caller's @max bytes: /dev/zero never ends), then served from
 * the kept bytes.
 */
static int read_stream(int fd, const struct stat *st, uint64_t max, char **buf, size_t *len)
{
	struct kept_stream *k = NULL;

	for (size_t i = 0; i < kept.n && !k; i++)
		if (kept.s[i].dev == st->st_dev && kept.s[i].ino == st->st_ino)
			k = &kept.s[i];
	if (!k) {
		struct kept_stream got = { .dev = st->st_dev, .ino = st->st_ino };
		int rc = read_all(fd, max, &got.bytes, &got.len);

		if (rc == RF_ERRNO)
			return rc; /* nothing was kept: a later read tries again */
		got.toobig = rc == RF_TOOBIG;
		kept.s = xreallocarray(kept.s, kept.n + 1, sizeof(*kept.s));
		kept.s[kept.n] = got;
		k = &kept.s[kept.n++];
	}
	if (k->toobig || (uint64_t)k->len > max)
		return RF_TOOBIG;
	*buf = xmalloc(k->len);
	if (k->len)
		memcpy(*buf, k->bytes, k->len);
	*len = k->len;
	return RF_OK;
}

int rf_read(const char *path, uint64_t max, char **buf, size_t *len, const char **kind)
{
	bool is_stdin = strcmp(path, "-") == 0;
	const char *fs_kind = NULL, **kind_of_fs = &fs_kind;
	struct stat st;
	int fd, rc, e, own;

	if (is_stdin) {
		if (fstat(STDIN_FILENO, &st) != 0)
			return RF_ERRNO;
		return read_stream(STDIN_FILENO, &st, max, buf, len);
	}
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return RF_ERRNO;
	if (fstat(fd, &st) != 0) {
		rc = RF_ERRNO;
		goto out_close;
	}
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && is_own_stream(path, &st, &own)) {
		/* a pipe this process holds (/dev/stdin, `<(cmd)`): read once, from its own descriptor */
		close(fd);
		return read_stream(own, &st, max, buf, len);
	}
	if (!S_ISREG(st.st_mode)) {
		if (kind)
			*kind = file_kind(st.st_mode);
		rc = RF_NOTREG;
		goto out_close;
	}
	if (!is_stdin && (*kind_of_fs = pseudo_kind(fd)) != NULL) {
		if (kind)
			*kind = *kind_of_fs;
		rc = RF_NOTREG;
		goto out_close;
	}
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		rc = RF_TOOBIG;
		goto out_close;
	}
	{
		int fl = fcntl(fd, F_GETFL);

		if (fl >= 0)
			(void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	}
	rc = read_all(fd, max, buf, len);

out_close:
	e = errno;
	close(fd);
	errno = e;
	return rc;
}
