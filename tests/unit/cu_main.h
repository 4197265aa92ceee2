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

/*
 * cu_conformance - true when the program was started with --conformance
 * (`make conformance`): then only the conformance suites run, those that read
 * the upstream fixtures in ../shared; otherwise (`make check`) only the
 * others, so that a clone with nothing beside it passes.
 */
extern int cu_conformance;

/*
 * cu_shared() - the directory of the upstream fixtures: $MAGOS_SHARED (default
 * "../shared", beside the repository) followed by "/fixtures/upstream".
 * Returns: a borrowed string, valid for the whole run.
 */
const char *cu_shared(void);

/* Adds a suite of NULL-terminated CU_TestInfo; fails the registration on error. */
#define CU_ADD_SUITE_IF(name, tests_arr, when)                                   \
	do {                                                                     \
		CU_SuiteInfo suites_[] = { { (name), NULL, NULL, NULL, NULL, (tests_arr) }, \
					   CU_SUITE_INFO_NULL };                 \
		if (when)                                                        \
			CU_register_suites(suites_);                             \
	} while (0)

/* A suite of `make check`: needs nothing outside the repository. */
#define CU_ADD_SUITE(name, tests_arr) CU_ADD_SUITE_IF(name, tests_arr, !cu_conformance)

/* A suite of `make conformance`: compares against the upstream fixtures (cu_shared()). */
#define CU_ADD_CONFORMANCE_SUITE(name, tests_arr) CU_ADD_SUITE_IF(name, tests_arr, cu_conformance)

#endif
