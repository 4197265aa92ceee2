/*
 * The YAML loader (sim/load/yamlload.h) on any bytes.  Oracle: loading is a
 * function of the input -- a second load gives equal documents and the same
 * diagnostics -- and every document kept is a non-null tree whose marks are
 * 1-based.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every node's mark is 1-based (or unknown, 0:0, for none of them). */
static void check_marks(const struct val *v, size_t size)
{
	if (v->mark.line == 0 || v->mark.col == 0)
		fuzz_fail("a node without a 1-based mark", size);
	if (v->type == VAL_MAP)
		for (size_t i = 0; i < v->u.map.n; i++) {
			if (v->u.map.items[i].key_mark.line == 0)
				fuzz_fail("a key without a mark", size);
			check_marks(v->u.map.items[i].v, size);
		}
	else if (v->type == VAL_LIST)
		for (size_t i = 0; i < v->u.list.n; i++)
			check_marks(v->u.list.items[i], size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct limits lim;
	struct yl_budget b1, b2;
	struct yl_stream s1, s2;
	struct diag d1, d2;
	int rc1, rc2;

	fuzz_limits(&lim);
	yl_budget_init(&b1, &lim);
	yl_budget_init(&b2, &lim);
	diag_init(&d1);
	diag_init(&d2);
	rc1 = yl_load_string_in("in.yaml", (const char *)data, size, &b1, &s1, &d1);
	rc2 = yl_load_string_in("in.yaml", (const char *)data, size, &b2, &s2, &d2);
	if (rc1 != rc2 || s1.n != s2.n || d1.nerrors != d2.nerrors || d1.n != d2.n)
		fuzz_fail("two loads of the same bytes differ", size);
	if (rc1 == 0 && d1.nerrors)
		fuzz_fail("success with errors", size);
	if (rc1 != 0 && !d1.nerrors)
		fuzz_fail("failure without an error", size);
	for (size_t i = 0; i < s1.n; i++) {
		struct val *copy = val_copy(s1.docs[i].root);

		if (!s1.docs[i].root || s1.docs[i].root->type == VAL_NULL)
			fuzz_fail("an empty document kept", size);
		if (!val_equal(s1.docs[i].root, s2.docs[i].root) || !val_equal(copy, s1.docs[i].root))
			fuzz_fail("documents differ", size);
		check_marks(s1.docs[i].root, size);
		val_free(copy);
	}
	for (size_t i = 0; i < d1.n; i++) {
		char *a = diag_format_item(&d1, i), *b = diag_format_item(&d2, i);

		if (strcmp(a, b) != 0)
			fuzz_fail("diagnostics differ", size);
		free(a);
		free(b);
	}
	yl_stream_release(&s1);
	yl_stream_release(&s2);
	diag_release(&d1);
	diag_release(&d2);
	return 0;
}
