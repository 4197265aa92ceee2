/*
 * Label selectors (engine/labels.h): the input is YAML; its first document
 * is a selector (or holds one under `selector`, with the labels to match
 * under `labels`).  Oracles: a selector that converts copies equal to
 * itself and prints the same; matching agrees with the printed requirements
 * evaluated by hand (every requirement must hold); the nil selector matches
 * nothing and the empty one everything.  Label keys and values as plain
 * text go through the validators too.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/objects.h"
#include "sim/base/diag.h"
#include "sim/load/yamlload.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Requirement @r over @labels, evaluated here from its definition. */
static bool holds(const struct lbl_req *r, const struct obj_strmap *labels)
{
	const char *v = obj_strmap_get(labels, r->key);
	bool listed = false;

	for (size_t i = 0; v && i < r->nvalues; i++)
		listed = listed || !strcmp(r->values[i], v);
	switch (r->op) {
	case LBL_OP_EQUALS:
	case LBL_OP_IN:
		return listed;
	case LBL_OP_NOT_IN:
		return !listed;
	case LBL_OP_EXISTS:
		return v != NULL;
	case LBL_OP_DOES_NOT_EXIST:
		return v == NULL;
	}
	return false;
}

static void check_selector(const struct val *sel, const struct obj_strmap *labels, size_t size)
{
	struct lbl_selector s, c;
	char err[LBL_ERRLEN];
	bool want = true;
	char *a, *b;

	if (lbl_selector_from_val(sel, &s, err, sizeof(err)) != LBL_OK) {
		if (!err[0])
			fuzz_fail("a refused selector without a message", size);
		lbl_selector_release(&s);
		return;
	}
	lbl_selector_copy(&c, &s);
	a = lbl_selector_string(&s);
	b = lbl_selector_string(&c);
	if (!lbl_selector_equal(&s, &c) || strcmp(a, b) != 0)
		fuzz_fail("a copied selector differs", size);
	if (lbl_selector_is_nothing(&s))
		want = false;
	for (size_t i = 0; want && i < s.n; i++)
		want = holds(&s.reqs[i], labels);
	if (lbl_matches(&s, labels) != want)
		fuzz_fail("lbl_matches() disagrees with the requirements", size);
	if (lbl_selector_is_empty(&s) && !lbl_matches(&s, labels))
		fuzz_fail("the empty selector does not match", size);
	free(a);
	free(b);
	lbl_selector_release(&s);
	lbl_selector_release(&c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct yl_stream st;
	struct diag d;
	struct obj_strmap labels;
	char *text = fuzz_string(data, size), err[512];

	lbl_validate_key(text, err, sizeof(err));
	lbl_validate_value(text, err, sizeof(err));
	free(lbl_go_quote(text));
	free(text);
	diag_init(&d);
	obj_strmap_init(&labels);
	yl_load_string("in.yaml", (const char *)data, size, &st, &d);
	if (st.n) {
		const struct val *root = st.docs[0].root;
		const struct val *sel = val_map_get(root, "selector");
		const struct val *lv = val_map_get(root, "labels");

		for (size_t i = 0; lv && lv->type == VAL_MAP && i < lv->u.map.n; i++)
			if (lv->u.map.items[i].v->type == VAL_STRING)
				obj_strmap_set(&labels, lv->u.map.items[i].key, lv->u.map.items[i].v->u.s);
		check_selector(sel ? sel : root, &labels, size);
	}
	obj_strmap_release(&labels);
	yl_stream_release(&st);
	diag_release(&d);
	return 0;
}
