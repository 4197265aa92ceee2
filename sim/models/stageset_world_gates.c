/*
 * The StageSet world's gate sources: see sim/models/stageset_world_gates.h
 * for the behaviour.
 */
#include "sim/models/stageset_world_gates.h"

#include <assert.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/xalloc.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/core/rng.h"

#include "sim/models/stageset_world_rec.h"
#include "sim/models/stageset_world_sources.h"

#define UNAVAILABLE "metric source unavailable"

static void fmt_err(char *err, size_t errlen, const char *fmt,
		    ...) __attribute__((format(printf, 3, 4)));
static void fmt_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (errlen == 0)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* Go's %v of a NaN or infinite float64. */
static const char *go_special(double v)
{
	return isnan(v) ? "NaN" : (v > 0 ? "+Inf" : "-Inf");
}

/* Whether entry @x serves a query of @query at @address (NULL: an entry without address). */
static bool serves(const struct scn_series *x, const char *query, const char *address)
{
	if (!x->query || strcmp(x->query, query) != 0)
		return false;
	if (!address)
		return x->address == NULL;
	return x->address && strcmp(x->address, address) == 0;
}

int swg_metric_prometheus(const struct scn_series *series, size_t n, const char *query,
			 const char *address, int64_t t_ms, double *value, char *err, size_t errlen)
{
	size_t samples = 0, group = 0;
	double v = 0, x;
	const char *at = address;

	for (size_t i = 0; address && i < n && group == 0; i++)
		group += serves(&series[i], query, address);
	if (group == 0)
		at = NULL;
	for (size_t i = 0; i < n; i++)
		if (serves(&series[i], query, at) && scn_sw_in_windows(&series[i].unavailable, t_ms)) {
			fmt_err(err, errlen, UNAVAILABLE ": source returned HTTP 503");
			return -1;
		}
	for (size_t i = 0; i < n; i++) {
		if (!serves(&series[i], query, at))
			continue;
		if (ps_sample(&series[i].series, series[i].interval_ms, t_ms + series[i].offset_ms, &x) == 1) {
			if (samples++ == 0)
				v = x;
		}
	}
	if (samples != 1) {
		fmt_err(err, errlen,
			UNAVAILABLE ": query returned %zu samples, want exactly 1 (the query must reduce to a "
				    "single scalar)",
			samples);
		return -1;
	}
	if (isnan(v) || isinf(v)) {
		fmt_err(err, errlen,
			UNAVAILABLE ": sample value is %s (a misconfigured query returns NaN/Inf)",
			go_special(v));
		return -1;
	}
	*value = v;
	return 0;
}

/* The last field name of a jsonPath, for k8s's "<name> is not found". */

/* Whether entry @x serves a webhook source at @url with @json_path. */
static bool serves_hook(const struct scn_series *x, const char *url, const char *json_path)
{
	return x->url && strcmp(x->url, url) == 0 && (!x->json_path || strcmp(x->json_path, json_path) == 0);
}

int swg_metric_webhook(const struct scn_series *series, size_t n, const char *url,
		      const char *json_path, int64_t t_ms, double *value, char *err, size_t errlen)
{
	size_t values = 0;
	double v = 0, x;
	char *jq = gofmt_quote(json_path);
	int rc = -1;

	for (size_t i = 0; i < n; i++)
		if (serves_hook(&series[i], url, json_path) && scn_sw_in_windows(&series[i].unavailable, t_ms)) {
			fmt_err(err, errlen, UNAVAILABLE ": source returned HTTP 503");
			goto out_free_quote;
		}
	for (size_t i = 0; i < n; i++)
		if (serves_hook(&series[i], url, json_path) &&
		    ps_sample(&series[i].series, series[i].interval_ms, t_ms + series[i].offset_ms, &x) == 1 &&
		    values++ == 0)
			v = x;
	if (values == 0) {
		char field[128];

		sws_last_field(json_path, field, sizeof(field));
		fmt_err(err, errlen, UNAVAILABLE ": jsonPath %s matched nothing: %s is not found",
			jq, field);
	} else if (values > 1) {
		fmt_err(err, errlen,
			UNAVAILABLE ": jsonPath %s resolved to %zu values, want exactly 1 (it must select a single "
				    "scalar)",
			jq, values);
	} else if (isnan(v) || isinf(v)) {
		fmt_err(err, errlen, UNAVAILABLE ": value is %s", go_special(v));
	} else {
		*value = v;
		rc = 0;
	}
out_free_quote:
	free(jq);
	return rc;
}

int swg_query(const struct sw_world *w, const struct sst_metric_source *src, int64_t t_ms,
	     double *value, int64_t *duration_ms, struct ssc_err *err)
{
	*duration_ms = 0;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (src->has_prometheus) {
		if (swg_metric_prometheus(w->s.series, w->s.nseries, swr_nz(src->query), src->address, t_ms, value,
					 err->msg, sizeof(err->msg)) == 0)
			return 0;
		err->code = SSC_ERR;
		return -1;
	}
	if (src->has_webhook) {
		if (swg_metric_webhook(w->s.series, w->s.nseries, swr_nz(src->url), swr_nz(src->json_path), t_ms, value,
				      err->msg, sizeof(err->msg)) == 0)
			return 0;
		err->code = SSC_ERR;
		return -1;
	}
	swr_set_err(err, SSC_ERR, "metric source has no provider");
	return -1;
}

/* ---------------------------------------------------------------- gates: pods and events */

static bool list_fails(const struct sw_world *w, const char *ns, bool events, int64_t t_ms,
		       struct ssc_err *err, const char *what)
{
	for (size_t i = 0; i < w->s.cfg->nlist_errors; i++) {
		const struct scn_sw_list_error *le = &w->s.cfg->list_errors[i];
		char inner[400];

		if ((events ? !le->events : !le->pods) || (le->ns && strcmp(le->ns, ns) != 0) ||
		    t_ms < le->window.from_ms || t_ms >= le->window.until_ms)
			continue;
		if (le->message)
			snprintf(inner, sizeof(inner), "%s", le->message);
		else if (le->cls == SSC_ERR_FORBIDDEN)
			snprintf(inner, sizeof(inner),
				 "%s is forbidden: User \"system:serviceaccount:%s:default\" cannot list resource "
				 "\"%s\" in API group \"\" in the namespace \"%s\"",
				 what, ns, what, ns);
		else
			snprintf(inner, sizeof(inner),
				 "the server is currently unable to handle the request (get %s)",
				 what);
		err->code = le->cls;
		snprintf(err->msg, sizeof(err->msg), "list %s: %s", what, inner);
		return true;
	}
	return false;
}

bool swg_read_error(const struct sw_world *w, const char *ns, const char *name, bool inventory, int64_t t_ms,
		    struct ssc_err *err)
{
	const struct scn_sw_read_error *e = scn_sw_read_error_at(w->s.cfg, ns, name, inventory, t_ms);

	if (!e)
		return false;
	err->code = SSC_ERR;
	if (inventory && e->message)
		snprintf(err->msg, sizeof(err->msg), SWG_INVENTORY_LIST_ERROR "%s", e->message);
	else if (inventory)
		snprintf(err->msg, sizeof(err->msg),
			 SWG_INVENTORY_LIST_ERROR "the server is currently unable to handle the request (get "
			 "stageinventories.stages.metio.wtf)");
	else if (e->message)
		snprintf(err->msg, sizeof(err->msg), "%s", e->message);
	else
		snprintf(err->msg, sizeof(err->msg),
			 "the server is currently unable to handle the request (get stageledgers.stages.metio.wtf %s)",
			 name);
	return true;
}

int64_t swg_read_errors_from(const struct sw_world *w, const char *ns, const char *name, int64_t t_ms)
{
	int64_t from = scn_sw_read_errors_from(w->s.cfg, ns, name, t_ms);

	return from < SW_NEVER ? from : SW_NEVER;
}

static bool pods_selected(const struct scn_sw_pods *p, const char *ns,
			  const struct lbl_selector *sel)
{
	return (!p->ns || strcmp(p->ns, ns) == 0) && lbl_matches(sel, &p->labels);
}

static int32_t sat_add(int32_t a, int64_t b)
{
	int64_t s = (int64_t)a + b;

	return s > INT32_MAX ? INT32_MAX : (int32_t)s;
}

int swg_pod_restarts(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		    int64_t t_ms, int32_t *total, struct ssc_err *err)
{
	*total = 0;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (list_fails(w, ns, false, t_ms, err, "pods"))
		return -1;
	for (size_t i = 0; i < w->s.cfg->npods; i++) {
		const struct scn_sw_pods *p = &w->s.cfg->pods[i];
		int32_t got = 0;

		if (!pods_selected(p, ns, sel))
			continue;
		for (size_t k = 0; k < p->nrestarts && p->restarts[k].at_ms <= t_ms; k++)
			got = p->restarts[k].total;
		*total = sat_add(*total, got);
	}
	return 0;
}

int swg_warning_events(const struct sw_world *w, const char *ns, const struct lbl_selector *sel,
		      const char *const *reasons, size_t nreasons, int64_t t_ms, int32_t *total,
		      struct ssc_err *err)
{
	bool any = false;

	*total = 0;
	err->code = SSC_OK;
	err->msg[0] = '\0';
	if (list_fails(w, ns, false, t_ms, err, "pods"))
		return -1;
	for (size_t i = 0; i < w->s.cfg->npods && !any; i++)
		any = pods_selected(&w->s.cfg->pods[i], ns, sel);
	if (!any)
		return 0;
	if (list_fails(w, ns, true, t_ms, err, "events"))
		return -1;
	for (size_t i = 0; i < w->s.cfg->npods; i++) {
		const struct scn_sw_pods *p = &w->s.cfg->pods[i];

		if (!pods_selected(p, ns, sel))
			continue;
		for (size_t k = 0; k < p->nwarnings; k++) {
			const struct scn_sw_warning *e = &p->warnings[k];
			bool listed = false;

			if (t_ms < e->at_ms || t_ms >= e->until_ms)
				continue;
			for (size_t r = 0; r < nreasons && !listed; r++)
				listed = strcmp(reasons[r], e->reason) == 0;
			if (listed)
				*total = sat_add(*total, e->count > 1 ? e->count : 1);
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- anchors */

int swg_anchor_uid(const struct sw_world *w, const char *api_version, const char *kind,
		  const char *ns,
		  const char *name, int64_t t_ms, char *uid, size_t uidlen, struct ssc_err *err)
{
	const struct scn_sw_anchor *a = NULL;
	char buf[SWR_ID_STACK], u[40];
	char *k;
	uint64_t gen = 0;

	err->code = SSC_OK;
	err->msg[0] = '\0';
	for (size_t i = 0; i < w->s.cfg->nanchors && !a; i++) {
		const struct scn_sw_anchor *x = &w->s.cfg->anchors[i];

		if ((!x->api_version || strcmp(x->api_version, api_version) == 0) && strcmp(x->kind, kind) == 0 &&
		    strcmp(x->name, name) == 0 && (!x->ns || strcmp(x->ns, ns) == 0))
			a = x;
	}
	if (a && scn_sw_in_windows(&a->unreadable, t_ms)) {
		err->code = SSC_ERR_FORBIDDEN;
		snprintf(err->msg, sizeof(err->msg),
			 "%s \"%s\" is forbidden: User \"system:serviceaccount:%s:default\" cannot get this %s", kind,
			 name, ns, kind);
		return -1;
	}
	if (a && t_ms >= a->gone_ms) {
		if (t_ms < a->recreated_ms) {
			err->code = SSC_ERR_NOT_FOUND;
			snprintf(err->msg, sizeof(err->msg), "%s \"%s\" not found", kind, name);
			return -1;
		}
		gen = 1;
	}
	k = kb_join3(buf, sizeof(buf), kind, ns, name);
	swr_uidgen(k, "anchor", gen, u);
	kb_drop(k, buf);
	snprintf(uid, uidlen, "%s", u);
	return 0;
}
