/*
 * A scenario load with everything a static check does (sim/cli/lint.c,
 * check.c): scn_load_static() and scn_load() of the bytes as a scenario
 * file, the lint rules, the variants (each parsed, applied and linted), the
 * expectations and spec.sweep with each of its values.  Oracle: a load
 * that reports no error holds a scenario the rest accepts without
 * crashing, and the two loads agree on the objects.
 */
#include <stdbool.h>
#include <stdlib.h>

#include "sim/base/diag.h"
#include "sim/lint/lint.h"
#include "sim/load/scenario.h"
#include "sim/plan/expect.h"
#include "sim/plan/sweep.h"
#include "sim/plan/variant.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void variants_and_sweep(const struct scenario *s)
{
	struct var_set vs;
	struct sweep sw;
	struct diag d;

	diag_init(&d);
	var_parse(s, &vs, &d);
	for (size_t i = 0; i < vs.n; i++) {
		struct var_scenario t;

		if (var_apply(s, &vs.v[i], &t, &d) == 0)
			var_scenario_release(&t);
	}
	var_set_release(&vs);
	if (sweep_from_scenario(s, &sw, &d) == 0) {
		for (size_t i = 0; i < sw.n; i++) {
			struct var_def def;
			struct var_scenario t;
			char err[512], text[64];

			sweep_value_text(&sw, i, text, sizeof(text));
			if (sweep_variant(s, &sw, i, &def, err, sizeof(err)) != 0)
				continue;
			if (var_apply(s, &def, &t, &d) == 0)
				var_scenario_release(&t);
			var_def_release(&def);
		}
	}
	sweep_release(&sw);
	diag_release(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file(data, size, "in.yaml");
	struct limits lim;
	struct scenario st, s;
	struct diag d;
	struct lint_report r;
	struct exp_set e;
	int rc;

	fuzz_limits(&lim);
	diag_init(&d);
	lint_report_init(&r);
	scn_load_static_lim(&path, 1, &lim, &st, &d);
	lint_from_diag(&r, &d);
	lint_scenario(&r, &st);
	if (st.has_scenario_doc) {
		struct diag vd;

		diag_init(&vd);
		exp_lint_variants(&r, &st, &vd);
		lint_from_diag(&r, &vd);
		diag_release(&vd);
	}
	lint_report_sort(&r);
	lint_report_release(&r);
	diag_release(&d);

	rc = scn_load_lim(&path, 1, &lim, &s, &d);
	if (rc == 0 && !diag_has_errors(&d)) {
		if (s.nobjs != st.nobjs)
			fuzz_fail("scn_load and scn_load_static admit different objects", size);
		exp_parse(&s, &e, &d);
		exp_set_release(&e);
		variants_and_sweep(&s);
	}
	scn_release(&s);
	scn_release(&st);
	diag_release(&d);
	return 0;
}
