#ifndef MAGOS_SIM_STAGESET_WORLD_GATES_H
#define MAGOS_SIM_STAGESET_WORLD_GATES_H

/*
 * The StageSet world's gate sources (see sim/models/stageset_world.h for the
 * model as a whole): metrics (Prometheus, webhooks), pods, events, the
 * anchors' uids, and the read errors of the StageLedger and StageInventory.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/models/stageset_world.h"

/* ---- gates --------------------------------------------------------------- */

/*
 * swg_query() - env query: what HTTPQuerier.Query returns for @src at @t_ms
 * from spec.metrics (swg_metric_prometheus() / swg_metric_webhook()).  The
 * address and host checks of the querier are the wire's.
 * Returns: 0 and *@value, or -1 with @err (SSC_ERR, upstream's text).
 */
int swg_query(const struct sw_world *w, const struct sst_metric_source *src, int64_t t_ms,
	     double *value, int64_t *duration_ms, struct ssc_err *err);

/*
 * swg_metric_prometheus() - an instant query of @query at @address, as the
 * Prometheus engine and the controllers' querier answer it: the series of
 * @series (@n entries) with this query and address (else with this query
 * and no address) form an instant vector of the samples each has at @t_ms
 * (5-minute lookback); exactly one sample is the value, otherwise
 * "metric source unavailable: query returned <n> samples, want exactly 1
 * (the query must reduce to a single scalar)"; NaN/Inf are refused as
 * upstream refuses them; in an entry's `unavailable` window "source
 * returned HTTP 503".  @address may be NULL.
 * Returns: 0 and *@value, or -1 with @err (size @errlen) filled.
 */
int swg_metric_prometheus(const struct scn_series *series, size_t n, const char *query,
			 const char *address,
			 int64_t t_ms, double *value, char *err, size_t errlen);

/*
 * swg_metric_webhook() - what the querier reads from a webhook source at
 * @url with @json_path: the spec.metrics entries with this url (and this
 * jsonPath, or none) are the values the path selects at @t_ms; exactly one
 * is the value, none "jsonPath \"<p>\" matched nothing: <field> is not
 * found", several "jsonPath \"<p>\" resolved to <n> values, want exactly 1
 * (it must select a single scalar)", NaN/Inf "value is NaN" (all prefixed
 * "metric source unavailable: ").  In an entry's `unavailable` window:
 * "source returned HTTP 503".
 * Returns: 0 and *@value, or -1 with @err.
 */
int swg_metric_webhook(const struct scn_series *series, size_t n, const char *url,
		      const char *json_path, int64_t t_ms, double *value, char *err, size_t errlen);

/* swg_pod_restarts() - env pod_restarts over spec.models.pods ("list pods: ..." on a list error). */
int swg_pod_restarts(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		    int64_t t_ms, int32_t *total, struct ssc_err *err);

/*
 * swg_warning_events() - env warning_events over spec.models.pods ("list
 * pods: ..." / "list events: ..." on a list error).
 */
int swg_warning_events(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		      const char *const *reasons, size_t nreasons, int64_t t_ms, int32_t *total,
		      struct ssc_err *err);

/* How a failed StageInventory List's error begins (recorder.StageRecords wraps the API error so). */
#define SWG_INVENTORY_LIST_ERROR "list StageInventory: "

/*
 * swg_read_error() - whether the read of StageSet @ns/@name's StageLedger
 * (@inventory false: the Get of R-17, loadLifetimeLedger) or of its
 * StageInventory shards (@inventory true: the List of R-18,
 * recorder.StageRecords) fails at @t_ms (spec.models.stagesets.ledgerErrors,
 * scn_sw_read_error_at()).
 * Returns: true with @err set to a transient error (SSC_ERR) in upstream's
 *          words ("list StageInventory: <cause>" for the inventory; the
 *          API server's text, or the entry's message, as the cause), false
 *          (and @err untouched) when the read succeeds.
 */
bool swg_read_error(const struct sw_world *w, const char *ns, const char *name, bool inventory, int64_t t_ms,
		    struct ssc_err *err);

/*
 * swg_read_errors_from() - when the next StageLedger or StageInventory read
 * error of StageSet @ns/@name begins, of those not ended by @t_ms
 * (scn_sw_read_errors_from()): until then its reads succeed as at @t_ms,
 * so a pass kept from then stands for a later one.  SW_NEVER when none.
 */
int64_t swg_read_errors_from(const struct sw_world *w, const char *ns, const char *name, int64_t t_ms);

/*
 * swg_anchor_uid() - env anchor_uid: the uid of the witness at @t_ms
 * (spec.models.stagesets.anchors; an unlisted witness exists throughout),
 * into @uid (@uidlen >= 37).  Returns 0, or -1 with @err NOT_FOUND (gone)
 * or FORBIDDEN (unreadable).
 */
int swg_anchor_uid(const struct sw_world *w, const char *api_version, const char *kind,
		  const char *ns,
		  const char *name, int64_t t_ms, char *uid, size_t uidlen, struct ssc_err *err);


#endif
