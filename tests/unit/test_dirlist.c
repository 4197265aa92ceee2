/*
 * sim/load/dirlist: the input files of a directory, as run, check and lint
 * read a directory: *.yaml, *.yml and *.json regular files (a link as what
 * it points to), not hidden, sorted by name, not recursive; the first
 * subdirectory by name only when there is no file; paths joined with one
 * '/'.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/load/dirlist.h"
#include "tests/unit/cu_main.h"
#include "tests/unit/fixtures.h"

static void test_list(void)
{
	struct dl_list l;

	fx_tmp_enter("test_dirlist");
	fx_put("m/b.yml", "x\n");
	fx_put("m/a.yaml", "x\n");
	fx_put("m/c.json", "x\n");
	fx_put("m/B.yaml", "x\n");
	fx_put("m/c.yaml.txt", "x\n");
	fx_put("m/.hidden.yaml", "x\n");
	fx_put("m/.yaml", "x\n");
	fx_put("m/README.md", "x\n");
	fx_put("m/sub.yaml/x.yaml", "x\n"); /* a directory with an input file's name */
	fx_put("m/a/x.yaml", "x\n");
	CU_ASSERT_EQUAL(symlink("a.yaml", "m/link.yaml"), 0);
	CU_ASSERT_EQUAL(symlink("nowhere.yaml", "m/dangling.yaml"), 0);
	CU_ASSERT_EQUAL(dl_list("m", &l), 0);
	CU_ASSERT_EQUAL_FATAL(l.n, 5);
	CU_ASSERT_STRING_EQUAL(l.names[0], "B.yaml"); /* byte order: upper case first */
	CU_ASSERT_STRING_EQUAL(l.names[1], "a.yaml");
	CU_ASSERT_STRING_EQUAL(l.names[2], "b.yml");
	CU_ASSERT_STRING_EQUAL(l.names[3], "c.json");
	CU_ASSERT_STRING_EQUAL(l.names[4], "link.yaml");
	CU_ASSERT_PTR_NULL(l.subdir); /* files were found: no subdirectory is named */
	dl_release(&l);

	/* Only subdirectories and other files: the first subdirectory by name, never a hidden one. */
	fx_put("nest/notes.txt", "x\n");
	fx_put("nest/b/x.yaml", "x\n");
	fx_put("nest/a/y.yaml", "x\n");
	fx_put("nest/.git/z.yaml", "x\n");
	CU_ASSERT_EQUAL(dl_list("nest", &l), 0);
	CU_ASSERT_EQUAL(l.n, 0);
	CU_ASSERT_STRING_EQUAL(l.subdir, "a");
	dl_release(&l);
	CU_ASSERT_EQUAL(dl_list("missing", &l), -ENOENT);
	CU_ASSERT_EQUAL(l.n, 0);
	CU_ASSERT_EQUAL(dl_list("m/a.yaml", &l), -ENOTDIR);
	dl_release(&l);
	dl_release(NULL);
	fx_tmp_leave();
}

static void test_paths(void)
{
	char **p;
	size_t n;

	fx_tmp_enter("test_dirlist");
	fx_put("m/b.yaml", "x\n");
	fx_put("m/a.yml", "x\n");
	fx_put("empty/notes.txt", "x\n");
	p = dl_paths("m", &n);
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(p[0], "m/a.yml");
	CU_ASSERT_STRING_EQUAL(p[1], "m/b.yaml");
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
	p = dl_paths("m/", &n); /* one '/' between the two */
	CU_ASSERT_EQUAL_FATAL(n, 2);
	CU_ASSERT_STRING_EQUAL(p[0], "m/a.yml");
	for (size_t i = 0; i < n; i++)
		free(p[i]);
	free(p);
	n = 9;
	CU_ASSERT_PTR_NULL(dl_paths("empty", &n));
	CU_ASSERT_EQUAL(n, 0);
	CU_ASSERT_PTR_NULL(dl_paths("m/a.yml", &n));
	CU_ASSERT_PTR_NULL(dl_paths("missing", &n));
	CU_ASSERT_EQUAL(n, 0);
	fx_tmp_leave();
}

static CU_TestInfo tests[] = {
	{ "input files: names, links, hidden, sorted, the first subdirectory", test_list },
	{ "input files as paths; none gives NULL", test_paths },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("dirlist", tests);
}
