/*
 * Shared main() for the CUnit test programs: each tests/unit/test_*.c defines
 * register_tests(), which adds its suites to the registry, and links with this
 * file.  The exit status is computed before CU_cleanup_registry(), which resets
 * the failure counters, and is non-zero when any assertion or suite set-up
 * failed (CU_basic_run_tests() itself returns 0 even when tests fail).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "tests/unit/cu_main.h"

int cu_conformance;

const char *cu_shared(void)
{
	static char path[4096];

	if (!path[0]) {
		const char *root = getenv("MAGOS_SHARED");

		snprintf(path, sizeof(path), "%s/fixtures/upstream", root && *root ? root : "../shared");
	}
	return path;
}

int main(int argc, char **argv)
{
	unsigned failed;

	if (argc > 2 || (argc == 2 && strcmp(argv[1], "--conformance") != 0)) {
		fprintf(stderr, "usage: %s [--conformance]\n", argv[0]);
		return 2;
	}
	cu_conformance = argc == 2;

	if (CU_initialize_registry() != CUE_SUCCESS) {
		fprintf(stderr, "cunit: cannot initialise the registry: %s\n", CU_get_error_msg());
		return 70;
	}
	register_tests();
	if (CU_get_error() != CUE_SUCCESS) {
		fprintf(stderr, "cunit: cannot register tests: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 70;
	}
	if (cu_conformance && CU_get_registry()->uiNumberOfSuites == 0) {
		/* Nothing of this program compares against ../shared. */
		CU_cleanup_registry();
		printf("cunit-totals: 0 run, 0 failed\n");
		return 0;
	}
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed() +
		 CU_get_number_of_tests_failed();
	/* A program without conformance suites runs none under --conformance. */
	if (CU_get_number_of_tests_run() == 0 && !cu_conformance) {
		fprintf(stderr, "cunit: no test ran\n");
		failed++;
	}
	printf("cunit-totals: %u run, %u failed\n", CU_get_number_of_tests_run(),
	       CU_get_number_of_tests_failed());
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
