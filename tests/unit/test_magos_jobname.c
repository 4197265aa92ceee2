/*
 * sim/run/magos_jobname: the Workspace of a Magos Job read back from the
 * Job's name, "<workspace>-plan-<8 hex>" or "<workspace>-apply-<8 hex>".
 */
#include <string.h>

#include "sim/run/magos_jobname.h"
#include "tests/unit/cu_main.h"

static void test_workspace(void)
{
	char ws[16];

	CU_ASSERT_TRUE(mjn_workspace("web-plan-0a1b2c3d", "plan", ws, sizeof(ws)));
	CU_ASSERT_STRING_EQUAL(ws, "web");
	CU_ASSERT_TRUE(mjn_workspace("web-apply-0a1b2c3d", NULL, ws, sizeof(ws)));
	CU_ASSERT_STRING_EQUAL(ws, "web");
	CU_ASSERT_TRUE(mjn_workspace("a-plan-ffffffff", NULL, ws, sizeof(ws)));
	CU_ASSERT_STRING_EQUAL(ws, "a");
	/* A workspace whose own name ends in "-plan" keeps it. */
	CU_ASSERT_TRUE(mjn_workspace("x-plan-apply-00000000", "apply", ws, sizeof(ws)));
	CU_ASSERT_STRING_EQUAL(ws, "x-plan");
	strcpy(ws, "kept");
	CU_ASSERT_FALSE(mjn_workspace("web-apply-0a1b2c3d", "plan", ws, sizeof(ws)));
	CU_ASSERT_FALSE(mjn_workspace("web-plan-0a1b2c3d", "apply", ws, sizeof(ws)));
	CU_ASSERT_FALSE(mjn_workspace("web-plan-0A1B2C3D", NULL, ws, sizeof(ws))); /* lower case only */
	CU_ASSERT_FALSE(mjn_workspace("web-plan-0a1b2c3", NULL, ws, sizeof(ws)));  /* 7 digits */
	CU_ASSERT_FALSE(mjn_workspace("-plan-0a1b2c3d", NULL, ws, sizeof(ws)));    /* no workspace */
	CU_ASSERT_FALSE(mjn_workspace("web-data", NULL, ws, sizeof(ws)));
	CU_ASSERT_FALSE(mjn_workspace("web-test-0a1b2c3d", NULL, ws, sizeof(ws)));
	/* A name that does not fit @out is refused, not cut. */
	CU_ASSERT_FALSE(mjn_workspace("a-very-long-name-plan-0a1b2c3d", NULL, ws, sizeof(ws)));
	CU_ASSERT_STRING_EQUAL(ws, "kept");
}

static CU_TestInfo tests[] = {
	{ "the Workspace of a plan or apply Job", test_workspace },
	CU_TEST_INFO_NULL,
};

void register_tests(void)
{
	CU_ADD_SUITE("magos_jobname", tests);
}
