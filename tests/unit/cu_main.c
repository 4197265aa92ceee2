/*
 * Shared main() for the CUnit test programs: each tests/unit/test_*.c defines
 * register_tests(), which adds its suites to the registry, and links with this
 * file.  The exit status is computed before CU_cleanup_registry(), which resets
 * the failure counters, and is non-zero when any assertion or suite set-up
 * failed (CU_basic_run_tests() itself returns 0 even when tests fail).
 */
#include <stdio.h>
#include <stdlib.h>

#include <CUnit/Basic.h>

#include "tests/unit/cu_main.h"

int main(void)
{
	unsigned failed;

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
	CU_basic_set_mode(CU_BRM_NORMAL);
	CU_basic_run_tests();
	failed = CU_get_number_of_failures() + CU_get_number_of_suites_failed() +
		 CU_get_number_of_tests_failed();
	if (CU_get_number_of_tests_run() == 0) {
		fprintf(stderr, "cunit: no test ran\n");
		failed++;
	}
	printf("cunit-totals: %u run, %u failed\n", CU_get_number_of_tests_run(),
	       CU_get_number_of_tests_failed());
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
