/*
 * engine/xalloc: the string helpers, and the out-of-memory hook (provoked
 * through a size overflow: a real out-of-memory cannot be portably).
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "engine/xalloc.h"
#include "tests/unit/cu_main.h"

static void check_join(const char *const *v, size_t n, const char *sep, const char *want)
{
	char *got = xstrjoin(v, n, sep);

	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

static void test_strjoin(void)
{
	static const char *const abc[] = { "a", "bb", "ccc" };
	static const char *const empties[] = { "", "x", "" };

	check_join(abc, 0, ", ", "");
	check_join(abc, 1, ", ", "a");
	check_join(abc, 3, ", ", "a, bb, ccc");
	check_join(abc, 3, "", "abbccc");
	check_join(abc, 2, " and ", "a and bb");
	check_join(empties, 3, ",", ",x,");
}

static void test_asprintf_strndup(void)
{
	char *s = xasprintf("%s-%03d", "w", 7);
	char *t = xstrndup("abcdef", 3);

	CU_ASSERT_STRING_EQUAL(s, "w-007");
	CU_ASSERT_STRING_EQUAL(t, "abc");
	CU_ASSERT_PTR_NULL(xstrdup(NULL));
	free(s);
	free(t);
}

/* A format of "%s" alone is joined without vsnprintf(); the text must be what snprintf() gives. */
static void check_concat(const char *got, const char *want)
{
	CU_ASSERT_STRING_EQUAL(got, want);
	free((void *)got);
}

static void test_asprintf_concat(void)
{
	char big[600], want[1300];
	const char *volatile none = NULL; /* unknown to the compiler's format checks */

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	check_concat(xasprintf("%s/%s", "ns", "name"), "ns/name");
	check_concat(xasprintf("plain"), "plain");
	check_concat(xasprintf("%s", ""), "");
	check_concat(xasprintf("100%% of %s%%", "it"), "100% of it%");
	check_concat(xasprintf("a %s b", none), "a (null) b");
	snprintf(want, sizeof(want), "[%s|%s]", big, big);
	check_concat(xasprintf("[%s|%s]", big, big), want);
	/* Any other conversion, flag or width goes to vsnprintf(). */
	check_concat(xasprintf("%s=%d", "n", 42), "n=42");
	check_concat(xasprintf("%s=%5d|%x|%hd", "n", 42, 255, (short)7), "n=   42|ff|7");
	check_concat(xasprintf("%-4s|%.2s", "ab", "xyz"), "ab  |xy");
	check_concat(xasprintf("%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s%s", "1", "2", "3", "4", "5", "6", "7",
			       "8", "9", "a", "b", "c", "d", "e", "f", "g", "h"),
		     "123456789abcdefgh");
}

/* xvasprintf() of a va_list, for the checks below. */
static char *via_va_list(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *via_va_list(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

/*
 * Plain integer conversions are formatted without vsnprintf(): every type
 * and every edge value gives what snprintf() gives, among strings.
 */
static void test_asprintf_integers(void)
{
	const int ints[] = { 0, 1, -1, 9, 10, -10, 42, INT_MAX, INT_MIN };
	const long long lls[] = { 0, -1, 1000000007LL, LLONG_MAX, LLONG_MIN };
	const unsigned long long ulls[] = { 0, 1, 10, 4294967296ULL, ULLONG_MAX };
	char want[256];

	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		snprintf(want, sizeof(want), "a%db%ic%u%%%s", ints[i], -ints[i] / 2, (unsigned)ints[i], "z");
		check_concat(xasprintf("a%db%ic%u%%%s", ints[i], -ints[i] / 2, (unsigned)ints[i], "z"), want);
		check_concat(via_va_list("a%db%ic%u%%%s", ints[i], -ints[i] / 2, (unsigned)ints[i], "z"), want);
	}
	for (size_t i = 0; i < sizeof(lls) / sizeof(lls[0]); i++) {
		snprintf(want, sizeof(want), "%lld %lli %ld %li %zd", lls[i], lls[i], (long)lls[i], (long)lls[i],
			 (ssize_t)lls[i]);
		check_concat(xasprintf("%lld %lli %ld %li %zd", lls[i], lls[i], (long)lls[i], (long)lls[i],
				       (ssize_t)lls[i]),
			     want);
	}
	for (size_t i = 0; i < sizeof(ulls) / sizeof(ulls[0]); i++) {
		snprintf(want, sizeof(want), "[%llu|%lu|%zu]", ulls[i], (unsigned long)ulls[i], (size_t)ulls[i]);
		check_concat(xasprintf("[%llu|%lu|%zu]", ulls[i], (unsigned long)ulls[i], (size_t)ulls[i]), want);
	}
	check_concat(xasprintf("Applied and verified %zu stage(s)", (size_t)3), "Applied and verified 3 stage(s)");
	check_concat(via_va_list("%s[%zu]", "spec.stages", (size_t)12), "spec.stages[12]");
	check_concat(via_va_list("%s %.2f", "x", 1.5), "x 1.50"); /* vsnprintf() through a va_list too */
}

static jmp_buf oom_jump;
static size_t oom_n;
static const char *oom_what;

/* The handler must not return: this one jumps back into the test. */
static void oom_handler(size_t n, const char *what)
{
	oom_n = n;
	oom_what = what;
	longjmp(oom_jump, 1);
}

static void test_oom_hook(void)
{
	const char *before;
	void *volatile p = NULL;

	CU_ASSERT_PTR_NULL(xalloc_what("building the test"));
	before = xalloc_what("building a huge array");
	CU_ASSERT_STRING_EQUAL(before, "building the test");
	xalloc_set_oom(oom_handler);
	if (setjmp(oom_jump) == 0) {
		p = xreallocarray(NULL, SIZE_MAX / 2, 4);
		CU_FAIL("xreallocarray() returned on an overflowing size");
	}
	xalloc_set_oom(NULL);
	CU_ASSERT_PTR_NULL(p);
	CU_ASSERT_EQUAL(oom_n, SIZE_MAX);
	CU_ASSERT_STRING_EQUAL(oom_what, "building a huge array");
	CU_ASSERT_STRING_EQUAL(xalloc_what(NULL), "building a huge array");
}

/*
 * xcalloc() zeroes what it returns, small blocks (malloc() and memset(),
 * often a block just freed with other bytes in it) and large ones
 * (calloc()) alike.
 */
static void test_calloc_zeroes(void)
{
	static const size_t sizes[] = { 1, 8, 24, 100, 512, 1024, 1025, 5000 };

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		for (int round = 0; round < 3; round++) {
			unsigned char *dirty = xmalloc(sizes[i]), *z;
			size_t nonzero = 0;

			memset(dirty, 0xa5, sizes[i]);
			free(dirty);
			z = round == 2 && sizes[i] % 4 == 0 ? xcalloc(sizes[i] / 4, 4) : xcalloc(1, sizes[i]);
			for (size_t j = 0; j < sizes[i]; j++)
				nonzero += z[j] != 0;
			CU_ASSERT_EQUAL(nonzero, 0);
			free(z);
		}
	}
}

static CU_TestInfo xalloc_tests[] = {
	{ "strjoin: Go's strings.Join", test_strjoin },
	{ "asprintf, strndup, strdup(NULL)", test_asprintf_strndup },
	{ "asprintf of %s alone: the text snprintf() gives", test_asprintf_concat },
	{ "asprintf of plain integers: the text snprintf() gives", test_asprintf_integers },
	{ "out of memory: the hook gets the size and what was built", test_oom_hook },
	{ "calloc: small and large blocks come zeroed", test_calloc_zeroes },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("xalloc", xalloc_tests);
}
