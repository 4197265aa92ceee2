#ifndef MAGOS_SIM_FLEET_RC_H
#define MAGOS_SIM_FLEET_RC_H

/*
 * The FleetRollout controller of stageset-controller wired into a simulated
 * world: controller-runtime set-up (spec ../shared/specs/fleetrollout-controller.md
 * §2.1) and a reconcile adapter (§2.2) around the pure pass fr_reconcile()
 * (engine/fleet_rollout.h).
 *
 *   fleetrollout-controller  For(FleetRollout), no predicate (its own status
 *                            writes re-enqueue it);
 *                            Watches(StageSet → every FleetRollout whose
 *                            top-level spec.selector matches the StageSet's
 *                            labels; old and new object on update), no
 *                            predicate.  The namespaceSelector is not applied
 *                            there, and a FleetRollout whose selector does not
 *                            parse is never enqueued by StageSet events.
 *                            Namespaces and other FleetRollouts are not
 *                            watched (§2.1 item 5).
 *
 * One reconcile (FC:Reconcile): Get the FleetRollout (cluster-scoped, "" ns;
 * absent: nothing); List every StageSet (namespace, then name), every
 * Namespace and every FleetRollout from the store; parse the stored status;
 * run fr_reconcile() at the wall clock (start_unix_ms + simulated ms); apply
 * its annotation patches in the order it lists them (approved-version during
 * approvals, rollback-to during a halt; each a JSON merge patch of one
 * metadata.annotations key); then always patch the status, which writes
 * only when the pass changed it (observedGeneration, phase, currentWave,
 * waves and the Ready condition; other status fields and other condition
 * types are kept, as fluxcd's patch helper with the owned Ready condition
 * does).  The result's requeue becomes the ctl_result's.
 *
 * Timeline notices: the Warning event `Halted` (reporting controller
 * "fleetrollout-controller") on every halting pass as a warning notice whose
 * text is the event note; each surprising behaviour the pass ran into
 * (enum fr_quirk) once per FleetRollout as an info notice with its
 * plain-words text.  Both name the FleetRollout as the related object.
 *
 * Gates (FC:evalGate through metricsource.HTTPQuerier.Query, §2.3.7): the
 * source's prometheus (address, query) wins over its webhook (url,
 * jsonPath); neither is `metric source has no provider`.  The address must
 * be an http(s) URL with a host (thr_url_hostname), the host must pass the
 * allowlist (thr_host_allowed) and must not be a literal loopback,
 * link-local, multicast or unspecified IPv4 address or `localhost` (the
 * production dial-time denylist); a refusal is an error (verdict Unknown)
 * and the metric lookup is not consulted.  The simulator has no network
 * code: the value comes from the params' metric lookup.
 *
 * Deviations (engine/PROVENANCE.md, sim/wire/fleet_rc): a query takes no
 * simulated time and HTTP is not modelled; DNS names are not resolved for
 * the denylist; member patches are applied after the pure pass (they cannot
 * fail mid-pass here); the Halted event is not aggregated into a series.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/world/controllers.h"
#include "sim/world/des.h"
#include "sim/load/promseries.h"

/* The upstream reporting controller name (mgr.GetEventRecorder). */
#define FRC_CONTROLLER "fleetrollout-controller"

/*
 * A metric lookup: the scalar a gate's query returns at simulated time @t_ms.
 * @ctx:      frc_params.metric_ctx.
 * @address:  the prometheus address (or the webhook url), already checked.
 * @query:    the PromQL query (or the webhook jsonPath).
 * @t_ms:     simulated ms since scenario start (the series' time base).
 * @value:    receives the scalar.
 * @err, @errlen: on failure receives the reason, e.g. the texts of
 *            frc_metric_from_series().
 * Returns: 0 with *@value set, or -1 (the gate's verdict is then Unknown).
 */
typedef int (*frc_metric_fn)(void *ctx, const char *address, const char *query, int64_t t_ms,
			     double *value, char *err, size_t errlen);

struct frc_params {
	int64_t start_unix_ms;                /* wall-clock ms since the epoch of simulated time 0 */
	const char *const *allowed_action_hosts; /* --allowed-action-hosts globs, copied; NULL when 0 */
	size_t nallowed_action_hosts;         /* count; 0: every host allowed */
	frc_metric_fn metric;                 /* NULL: no series anywhere (every query has 0 samples) */
	void *metric_ctx;                     /* borrowed, must outlive the world */
};

struct frc;

/*
 * frc_register() - create the FleetRollout controller in @w and register its
 * watches.  Call before des_run(): objects already stored then reach the
 * controller as ADDED events.
 * @w: the world (borrowed; the controller is owned by it).
 * @p: parameters (copied, the host patterns too).
 * Returns: a new handle holding the adapter's state; free it with frc_free()
 *          AFTER des_free(@w) (the controller uses it until then).
 * Errors:  cannot fail (aborts on OOM).
 */
struct frc *frc_register(struct des *w, const struct frc_params *p);

/* frc_free() - frees the adapter's state.  Accepts NULL. */
void frc_free(struct frc *f);

/*
 * What the passes did, for the per-wave fleet report (sim/observe/fleetobs).  Times
 * are simulated ms of the pass (the reconcile's now); strings owned by the
 * controller state; arrays in the order of the passes.
 */

/* One gate evaluation (fr_result.gates) of one pass. */
struct frc_gate_rec {
	const char *fleet;   /* FleetRollout name */
	int64_t t_ms;
	size_t wave;         /* spec index */
	const char *wave_name;
	bool available;      /* the query returned a value */
	double value;        /* when available (kept on a threshold error) */
	const char *verdict; /* static: "Passing", "Failing" or "Unknown" */
	const char *error;   /* query or threshold error, NULL when none */
	const char *min, *max; /* spec threshold bounds as written, NULL when absent */
	bool wave_open;      /* the wave was at or before the first open wave */
};

/* One member of one wave at a halt. */
struct frc_wave_list {
	const char *name;      /* wave name */
	const char **members;  /* "ns/name", List order */
	size_t nmembers;
};

/*
 * One halt episode: a halting pass whose previous pass of that FleetRollout
 * did not halt with the same wave and message; the repeats (a gate that
 * stays Failing halts again on every pass) are counted in @passes.
 */
struct frc_halt_rec {
	const char *fleet;
	int64_t t_ms;          /* first halting pass of the episode */
	int64_t last_ms;       /* last halting pass of it */
	uint32_t passes;       /* halting passes in the episode, >= 1 */
	size_t wave;           /* spec index of the halting wave */
	const char *wave_name;
	bool gate;             /* halted by its gate (Failing); false: a regression */
	const char *message;   /* the Halted message (= the event note) */
	const char *label;     /* fleetVersionLabel of the pass, e.g. "version 4.5.0" */
	const char *version;   /* the version of "version X" labels; NULL for the others */
	struct frc_wave_list *waves; /* the members of every wave as the pass assigned them */
	size_t nwaves;
};

/* One rollback-to stamp the controller applied. */
struct frc_stamp_rec {
	const char *fleet;
	int64_t t_ms;
	size_t wave;
	const char *wave_name;
	const char *member;    /* "ns/name" */
	const char *value;     /* the rollback-to value (spec.previousVersion) */
};

/* frc_gate_log() - every gate evaluation so far; borrowed until the next pass or frc_free(). */
const struct frc_gate_rec *frc_gate_log(const struct frc *f, size_t *n);

/* frc_halt_log() - every halt episode so far; borrowed as frc_gate_log(). */
const struct frc_halt_rec *frc_halt_log(const struct frc *f, size_t *n);

/* frc_stamp_log() - every rollback-to stamp applied so far; borrowed as frc_gate_log(). */
const struct frc_stamp_rec *frc_stamp_log(const struct frc *f, size_t *n);

/* frc_ctl() - the controller (borrowed, lives as long as the world). */
struct ctl *frc_ctl(const struct frc *f);

/*
 * frc_metric_from_series() - what an instant query of one series returns at
 * @t_ms, as the gate reads it (MS:scalarFromResult): ps_sample() with the
 * 5-minute lookback; no sample (and no series at all) is an empty vector,
 * and NaN, +Inf and -Inf are refused (§2.3.7 step 6).
 * @s:           the series (borrowed), or NULL for none.
 * @interval_ms: its sample spacing, ms, > 0.
 * @t_ms:        simulated ms since scenario start.
 * @value:       receives the value on success.
 * @err, @errlen: on failure receives upstream's text:
 *   `metric source unavailable: query returned 0 samples, want exactly 1 (the
 *   query must reduce to a single scalar)` or
 *   `metric source unavailable: sample value is NaN (a misconfigured query
 *   returns NaN/Inf)` (+Inf, -Inf likewise).
 * Returns: 0 with *@value set, or -1.
 */
int frc_metric_from_series(const struct ps_series *s, int64_t interval_ms, int64_t t_ms,
			   double *value, char *err, size_t errlen);

/*
 * frc_check_source() - the checks metricsource.HTTPQuerier makes before it
 * dials a metric source, shared by the FleetRollout gates and the StageSet
 * error budgets and analyses (one --allowed-action-hosts governs both): the
 * @address must be an http(s) URL with a host, the host (a trailing dot
 * dropped) must match one of @hosts (@nhosts 0: every host), and must not be
 * a literal loopback, link-local, multicast or unspecified IPv4 address or
 * `localhost` (the production dial-time denylist; names are not resolved).
 * @what: "prometheus address" or "webhook url", for the message.
 * Returns: 0, or -1 with upstream's text in @err (@errlen bytes):
 *   `metric source unavailable: invalid prometheus address "x"`,
 *   `metric source unavailable: h not in --allowed-action-hosts`,
 *   `metric source unavailable: 127.0.0.1`.
 */
int frc_check_source(const char *address, const char *what, const char *const *hosts, size_t nhosts,
		     char *err, size_t errlen);

#endif
