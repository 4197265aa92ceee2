#ifndef MAGOS_TESTS_CU_MAIN_H
#define MAGOS_TESTS_CU_MAIN_H

#include <CUnit/CUnit.h>

/*
 * register_tests() - add this program's suites to the CUnit registry.
 * Defined once by every tests/unit/test_*.c; called by cu_main.c after
 * CU_initialize_registry().  Registration errors are read back with
 * CU_get_error().
 */
void register_tests(void);

/* Adds a suite of NULL-terminated CU_TestInfo; fails the registration on error. */
#define CU_ADD_SUITE(name, tests_arr)                                            \
	do {                                                                     \
		CU_SuiteInfo suites_[] = { { (name), NULL, NULL, NULL, NULL, (tests_arr) }, \
					   CU_SUITE_INFO_NULL };                 \
		CU_register_suites(suites_);                                     \
	} while (0)

#endif
