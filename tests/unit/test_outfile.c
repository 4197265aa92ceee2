/*
 * sim/cli/outfile: output files all or nothing.  A failed write removes the
 * temporaries and replaces nothing; a failed rename puts back what the
 * renames before it replaced; a stream is written in place, and so is an
 * append (cut back when the set fails); a signal
 * removes the temporaries; of_check() refuses what cannot be written.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/cli/outfile.h"
#include "tests/unit/cu_main.h"

static char dir[64];

static int setup(void)
{
	snprintf(dir, sizeof(dir), "/tmp/test_outfile_XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* dir/@name, in a static buffer of its own per call site slot @k (0..3). */
static const char *at(int k, const char *name)
{
	static char buf[4][128];

	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	fputs(text, f);
	fclose(f);
}

/* The contents of @path ("" when missing), in a static buffer. */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return buf;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Files in dir whose name holds ".tmp." or ".old.": leftovers. */
static int leftovers(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strstr(e->d_name, ".tmp.") || strstr(e->d_name, ".old.");
	if (d)
		closedir(d);
	return n;
}

static int put_text(FILE *f, const void *arg)
{
	return fputs(arg, f) < 0 ? -1 : 0;
}

static int put_fail(FILE *f, const void *arg)
{
	fputs("partial", f);
	errno = ENOSPC;
	return -1;
}

static void test_commit_replaces_all(void)
{
	struct outset s = { 0 };
	char bad[256];

	put(at(0, "a.json"), "old a");
	CU_ASSERT_EQUAL(os_add(&s, at(0, "a.json"), put_text, "new a"), 0);
	CU_ASSERT_EQUAL(os_add(&s, at(1, "b.csv"), put_text, "new b"), 0);
	/* Before the commit nothing is replaced; the temporaries exist. */
	CU_ASSERT_STRING_EQUAL(get(at(0, "a.json")), "old a");
	CU_ASSERT_EQUAL(access(at(1, "b.csv"), F_OK), -1);
	CU_ASSERT_EQUAL(leftovers(), 2);
	CU_ASSERT_EQUAL(os_commit(&s, bad, sizeof(bad)), 0);
	CU_ASSERT_STRING_EQUAL(get(at(0, "a.json")), "new a");
	CU_ASSERT_STRING_EQUAL(get(at(1, "b.csv")), "new b");
	CU_ASSERT_EQUAL(leftovers(), 0);
	CU_ASSERT_EQUAL(s.n, 0);
}

static void test_failed_write_replaces_nothing(void)
{
	struct outset s = { 0 };

	put(at(0, "a.json"), "old a");
	put(at(1, "b.csv"), "old b");
	CU_ASSERT_EQUAL(os_add(&s, at(0, "a.json"), put_text, "new a"), 0);
	errno = 0;
	CU_ASSERT_EQUAL(os_add(&s, at(1, "b.csv"), put_fail, NULL), -1);
	CU_ASSERT_EQUAL(errno, ENOSPC);
	os_abort(&s);
	CU_ASSERT_STRING_EQUAL(get(at(0, "a.json")), "old a");
	CU_ASSERT_STRING_EQUAL(get(at(1, "b.csv")), "old b");
	CU_ASSERT_EQUAL(leftovers(), 0);
}

static void test_failed_rename_puts_back(void)
{
	struct outset s = { 0 };
	char bad[256], sub[128];

	put(at(0, "a.json"), "old a");
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	CU_ASSERT_EQUAL_FATAL(mkdir(sub, 0700), 0);
	CU_ASSERT_EQUAL(os_add(&s, at(0, "a.json"), put_text, "new a"), 0);
	CU_ASSERT_EQUAL(os_add(&s, at(1, "new.txt"), put_text, "new file"), 0);
	CU_ASSERT_EQUAL(os_add(&s, at(2, "sub/c.txt"), put_text, "new c"), 0);
	/* The third destination's directory goes away: its rename fails. */
	CU_ASSERT_EQUAL(unlink(s.e[2].tmp), 0);
	CU_ASSERT_EQUAL(rmdir(sub), 0);
	CU_ASSERT_EQUAL(os_commit(&s, bad, sizeof(bad)), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	CU_ASSERT_PTR_NOT_NULL(strstr(bad, "sub/c.txt"));
	/* a.json was replaced, then put back; new.txt was created, then removed. */
	CU_ASSERT_STRING_EQUAL(get(at(0, "a.json")), "old a");
	CU_ASSERT_EQUAL(access(at(1, "new.txt"), F_OK), -1);
	CU_ASSERT_EQUAL(leftovers(), 0);
}

static void test_append(void)
{
	struct outset s = { 0 };
	char bad[256];

	/* Appended in place at the commit: what the file held stays; a new one is made. */
	put(at(0, "summary.md"), "earlier\n");
	CU_ASSERT_EQUAL(os_add_append(&s, at(0, "summary.md"), put_text, "mine\n"), 0);
	CU_ASSERT_EQUAL(os_add_append(&s, at(1, "fresh.md"), put_text, "first\n"), 0);
	CU_ASSERT_STRING_EQUAL(get(at(0, "summary.md")), "earlier\n");
	CU_ASSERT_EQUAL(access(at(1, "fresh.md"), F_OK), -1);
	CU_ASSERT_EQUAL(os_commit(&s, bad, sizeof(bad)), 0);
	CU_ASSERT_STRING_EQUAL(get(at(0, "summary.md")), "earlier\nmine\n");
	CU_ASSERT_STRING_EQUAL(get(at(1, "fresh.md")), "first\n");
	CU_ASSERT_EQUAL(leftovers(), 0);

	/* A failed write cuts the file back, and takes back the appends before it. */
	CU_ASSERT_EQUAL(os_add_append(&s, at(0, "summary.md"), put_text, "again\n"), 0);
	CU_ASSERT_EQUAL(os_add_append(&s, at(1, "fresh.md"), put_fail, NULL), 0);
	CU_ASSERT_EQUAL(os_add_append(&s, at(2, "made.md"), put_text, "x"), 0);
	CU_ASSERT_EQUAL(os_commit(&s, bad, sizeof(bad)), -1);
	CU_ASSERT_EQUAL(errno, ENOSPC);
	CU_ASSERT_PTR_NOT_NULL(strstr(bad, "fresh.md"));
	CU_ASSERT_STRING_EQUAL(get(at(0, "summary.md")), "earlier\nmine\n");
	CU_ASSERT_STRING_EQUAL(get(at(1, "fresh.md")), "first\n");
	CU_ASSERT_EQUAL(access(at(2, "made.md"), F_OK), -1);
}

static void test_streams_and_checks(void)
{
	struct outset s = { 0 };
	char bad[256];

	/* /dev/null is a stream: written in place at the commit, never replaced. */
	CU_ASSERT_EQUAL(os_add(&s, "/dev/null", put_text, "x"), 0);
	CU_ASSERT_EQUAL(s.n, 1);
	CU_ASSERT_TRUE(s.e[0].stream);
	CU_ASSERT_EQUAL(os_commit(&s, bad, sizeof(bad)), 0);
	/* /dev/full: the stream's write fails at the commit, and the files are not replaced. */
	put(at(0, "a.json"), "old a");
	CU_ASSERT_EQUAL(os_add(&s, at(0, "a.json"), put_text, "new a"), 0);
	CU_ASSERT_EQUAL(os_add(&s, "/dev/full", put_text, "x"), 0);
	CU_ASSERT_EQUAL(os_commit(&s, bad, sizeof(bad)), -1);
	CU_ASSERT_STRING_EQUAL(bad, "/dev/full");
	CU_ASSERT_STRING_EQUAL(get(at(0, "a.json")), "old a");
	CU_ASSERT_EQUAL(leftovers(), 0);

	CU_ASSERT_EQUAL(of_check("-"), 0);
	CU_ASSERT_EQUAL(of_check("/dev/null"), 0);
	CU_ASSERT_EQUAL(of_check(at(0, "fresh.json")), 0);
	CU_ASSERT_EQUAL(of_check(at(0, "nodir/x.json")), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	CU_ASSERT_EQUAL(of_check(dir), -1);
	CU_ASSERT_EQUAL(errno, EISDIR);
	CU_ASSERT_EQUAL(of_check(at(0, "a.json/x")), -1);
	CU_ASSERT_EQUAL(errno, ENOTDIR);
	if (geteuid() != 0) {
		/* root writes anywhere: the permission check means nothing then. */
		CU_ASSERT_EQUAL(of_check("/proc/x.json"), -1);
	}
}

static void test_signal_removes_temporaries(void)
{
	pid_t pid;
	int status;

	pid = fork();
	CU_ASSERT_FATAL(pid >= 0);
	if (pid == 0) {
		struct outset s = { 0 };

		if (os_add(&s, at(0, "a.json"), put_text, "new a") != 0 ||
		    os_add(&s, at(1, "b.csv"), put_text, "new b") != 0)
			_exit(2);
		raise(SIGTERM);
		_exit(3); /* not reached: the handler re-raises with the default action */
	}
	CU_ASSERT_EQUAL(waitpid(pid, &status, 0), pid);
	CU_ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
	CU_ASSERT_EQUAL(leftovers(), 0);
	CU_ASSERT_STRING_EQUAL(get(at(0, "a.json")), "old a");
}

static CU_TestInfo outfile_tests[] = {
	{ "commit: every file replaced, no temporary left", test_commit_replaces_all },
	{ "a failed write: nothing replaced, no temporary left", test_failed_write_replaces_nothing },
	{ "a failed rename: the earlier renames are undone", test_failed_rename_puts_back },
	{ "appends: in place at the commit, taken back on a failure", test_append },
	{ "streams are written in place; of_check", test_streams_and_checks },
	{ "SIGTERM removes the temporaries", test_signal_removes_temporaries },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_SuiteInfo suites[] = { { "outfile", setup, teardown, NULL, NULL, outfile_tests },
				  CU_SUITE_INFO_NULL };

	CU_register_suites(suites);
}
