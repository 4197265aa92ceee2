#ifndef MAGOS_REPORTS_COMPARE_JSON_H
#define MAGOS_REPORTS_COMPARE_JSON_H

/*
 * The JSON document of a change review, schema "magos-sim/compare/v1": one
 * object with, in this order:
 *
 *   schema     "magos-sim/compare/v1" (docs/schemas/compare-v1.schema.json)
 *   tool       {name, version, commit} of the program (reports/tool.h)
 *   base, head {name, files: [paths]}
 *   n          trials per side
 *   seed       base seed of both (a decimal string above 2^63-1)
 *   horizon_ms ms
 *   resamples  bootstrap resamples
 *   nbound     {base, head}: trials stopped by the loop or budget bound
 *   metrics    one object per metric, in table order: key ("p50", "p90",
 *              "p95", "p99", "mean", "completeProbability",
 *              "haltProbability", "blastRadius"), method ("bootstrap",
 *              "paired t-test", "McNemar exact"), unit ("ms", "ratio",
 *              "count"), base, head (">horizon" for a percentile among
 *              censored trials), delta, delta_pct, ci95 [lo, hi], p_value,
 *              npairs, significant, worse; a figure that does not apply is
 *              null; ms figures are rounded to integers, others are reals
 *              with 10 significant digits
 *   limits     [{limit: "p95=10%", metric, failed}] as given
 *   failed     true when a limit failed (the exit code is then 1)
 */

#include <stdio.h>

#include "reports/compare_text.h"

/*
 * rep_cmp_json() - writes @c as the document above to @f.
 * Returns: 0, or -1 when a write failed (errno set).
 */
int rep_cmp_json(FILE *f, const struct rep_cmp *c);

#endif
