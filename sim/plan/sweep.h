#ifndef MAGOS_PLAN_SWEEP_H
#define MAGOS_PLAN_SWEEP_H

/*
 * Sensitivity and capacity sweeps: one model parameter over a list or a
 * range of values, each value run as a variant of the base (sim/plan/variant.h)
 * on the base's trial seeds.
 *
 * Written `PARAM=v1,v2,...` or `PARAM=FROM..TO/STEPS` (STEPS values evenly
 * spaced from FROM to TO, both included) on the command line, or in the
 * scenario as
 *
 *     sweep: {parameter: capacity, values: [1, 2, 4, 8]}
 *     sweep: {parameter: models.apply.median, values: "2m..20m/5"}
 *
 * PARAM is one of the names sweep_param_names() lists: `capacity` (runner
 * slots, a whole number >= 1), durations (Go syntax: `90s`, `5m`) and
 * probabilities (ratios 0..1).  Each names a key of spec.models; a `median`
 * or `p95` parameter changes one figure of a lognormal duration and needs
 * that duration to be lognormal (median and p95) in the base.
 */

#include <stddef.h>
#include <stdint.h>

#include "sim/plan/variant.h"
#include "sim/base/diag.h"
#include "sim/load/scenario.h"

/* The most values a sweep has (a range's STEPS, a list's items): each is a variant run. */
#define SWEEP_MAX_VALUES 10000

/* What a parameter's values are. */
enum sweep_kind {
	SWEEP_COUNT,    /* whole number >= 1 */
	SWEEP_DURATION, /* ms, >= 0 */
	SWEEP_RATIO,    /* ratio 0..1 */
};

/* A parsed sweep.  Invariant: n >= 1; values distinct, in the order given. */
struct sweep {
	char *param;          /* owned: the parameter's name */
	enum sweep_kind kind;
	double *values;       /* owned: n counts, ms or ratios */
	size_t n;
};

/*
 * sweep_param_names() - the accepted parameters, comma-separated
 * ("capacity, models.podStartup, ...").  Borrowed, static.
 */
const char *sweep_param_names(void);

/*
 * sweep_parse() - @arg as `PARAM=VALUES` (the --sweep option) into @out.
 * Returns: 0; or -1 with @err (@len bytes) saying why: no '=', an unknown
 *          parameter (the message lists the accepted ones), an empty list
 *          or value, a value of the wrong kind, an empty range (TO below
 *          FROM, STEPS 0, or STEPS 1 with FROM != TO).  @out is then empty.
 */
int sweep_parse(const char *arg, struct sweep *out, char *err, size_t len);

/*
 * sweep_from_scenario() - spec.sweep of @s into @out.
 * Returns: 1 when the scenario has no sweep (@out empty); 0; or -1 with the
 *          problems in @d (file:line:col of the faulty key or value).
 */
int sweep_from_scenario(const struct scenario *s, struct sweep *out, struct diag *d);

/* sweep_release() - frees what @sw owns (not @sw); accepts NULL. */
void sweep_release(struct sweep *sw);

/*
 * sweep_value_text() - value @i as a user writes it: "4", "2m30s" (Go
 * duration syntax), "0.05".  Writes at most @len bytes with the NUL.
 */
void sweep_value_text(const struct sweep *sw, size_t i, char *buf, size_t len);

/*
 * sweep_variant() - the variant that sets the parameter to value @i over
 * @base: name "PARAM=VALUE", a merge patch over spec.models, no manifest
 * patch.  @out: filled; release with var_def_release().
 * Returns: 0; or -1 with @err when the base does not have what the
 *          parameter changes (a `median` of a duration that is not
 *          lognormal with median and p95).
 */
int sweep_variant(const struct scenario *base, const struct sweep *sw, size_t i,
		  struct var_def *out, char *err, size_t len);

#endif
