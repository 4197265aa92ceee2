#ifndef MAGOS_ENGINE_STAGESET_WINDOWS_H
#define MAGOS_ENGINE_STAGESET_WINDOWS_H

/*
 * The StageSet's update windows: whether new revisions may roll out at an
 * instant and when that decision next changes (internal/window/window.go),
 * and the decision part of the controller's gate (internal/controller/
 * windows.go gateUpdateWindows): the one-shot update-now override,
 * status.pendingUpdate, the held Ready condition, the UpdateDeferred event
 * on entering a deferral, and the requeue at the next boundary.
 *
 * Deny windows take precedence; once any Allow window is declared, updates
 * need an active Allow and no active Deny.  A recurring window is a cron
 * schedule (engine/cron, robfig's ParseStandard) in its timeZone (engine/tz,
 * asked of the env's time_zone callback) held open for its duration; an
 * absolute window is [from, to).
 *
 * Times are Unix ms; SST_NO_TIME is Go's zero time ("no boundary").
 *
 * Source: metio/stageset-controller@f2c7604 internal/window/window.go
 *         (Decision, decisionAt, Validate, evalWindow, evalAbsolute,
 *         evalRecurring, maxCoveringStarts), internal/controller/windows.go
 *         (gateUpdateWindows, nextWindowSuffix, requeueForWindow).
 * Deviations: see engine/PROVENANCE.md, section engine/stageset_windows.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/objects.h"
#include "engine/stageset_env.h"
#include "engine/stageset_types.h"

/* Window types. */
#define WIN_TYPE_ALLOW "Allow"
#define WIN_TYPE_DENY "Deny"

/* maxCoveringStarts: the bound of the walk over schedule starts that cover "now". */
#define WIN_MAX_COVERING_STARTS 10000

/* Buffer size that holds every error text of this module for schedules and zones up to 200 bytes. */
#define WIN_ERRLEN 1024

/* Return codes of the window functions. */
enum {
	WIN_OK = 0,
	WIN_EINVAL = -1, /* a malformed window: the text is upstream's error */
	WIN_EPANIC = -2, /* upstream panics (robfig slicing a TZ= prefix without a space): the pass ends in an error */
};

/*
 * win_eval_window() - evalWindow: whether window @w is active at @now_ms and
 * its next boundary after it (the start when inactive, the end when active).
 * @env: its time_zone callback resolves a named timeZone and a TZ=/CRON_TZ=
 *       prefix (LoadLocation's own names "", "UTC", "Local" and the refusal
 *       of ".." are handled here, so the env is asked only for real names;
 *       its error text must be Go's, "unknown time zone X").  May be NULL:
 *       every named zone is unknown.
 * @active, @next_ms: results (@next_ms SST_NO_TIME when there is none:
 *       a wholly past absolute window, a schedule that never fires).
 * @err: on error, upstream's text: "update window is both recurring
 *       (schedule/duration) and absolute (from/to)", "update window sets
 *       neither a schedule+duration nor from+to", "absolute update window
 *       requires both from and to", "absolute update window to must be after
 *       from", "recurring update window requires both schedule and
 *       duration", `timeZone "X": unknown time zone X`,
 *       `schedule "X": <robfig's error>`, "recurring update window duration
 *       must be positive".
 * Returns: WIN_OK, WIN_EINVAL, or WIN_EPANIC (@err: the panic text).
 * Cost: a recurring window whose duration spans many schedule starts walks
 *       up to WIN_MAX_COVERING_STARTS of them.
 */
int win_eval_window(const struct sst_window *w, const struct ssc_env *env, int64_t now_ms, bool *active,
		    int64_t *next_ms, char *err, size_t errlen);

/*
 * win_decision() - window.Decision: whether updates are allowed at @now_ms
 * and the instant the aggregate decision next flips (found by walking the
 * windows' boundaries, at most 2n+2 of them; on that cap the earliest
 * boundary).  No windows: allowed, no next change.
 * Returns: as win_eval_window(), for the first window that fails.
 */
int win_decision(const struct sst_window *w, size_t n, const struct ssc_env *env, int64_t now_ms, bool *allowed,
		 int64_t *next_ms, char *err, size_t errlen);

/*
 * win_validate() - window.Validate (the admission webhook's check): the
 * first malformed window's error, each evaluated at @now_ms (time.Now()).
 * Returns: WIN_OK, WIN_EINVAL or WIN_EPANIC with @err.
 */
int win_validate(const struct sst_window *w, size_t n, const struct ssc_env *env, int64_t now_ms, char *err,
		 size_t errlen);

/*
 * win_requeue_for_window() - requeueForWindow: the time to the next
 * boundary clamped to [5 s, 1 h]; @fallback_ms (the retry interval) when
 * there is none (@next_ms SST_NO_TIME).  Returns ms.
 */
int64_t win_requeue_for_window(int64_t next_ms, int64_t now_ms, int64_t fallback_ms);

/*
 * win_next_window_suffix() - nextWindowSuffix: "" or
 * " (next window opens 2026-06-14T02:00:00Z)" (UTC, whole seconds), into
 * @buf of @len bytes (48 suffice).
 */
void win_next_window_suffix(int64_t next_ms, char *buf, size_t len);

/*
 * What gateUpdateWindows decided, for the controller to apply: the Ready
 * condition to set (through its setReady, which decorates the message),
 * the event to emit, the requeue.  The gate has already written the status
 * fields upstream writes directly (lastHandledUpdateOverride,
 * pendingUpdate, observedGeneration).
 */
struct win_gate {
	bool deferred;            /* the pass ends here (patchStatus, then return the requeue) */
	bool panicked;            /* upstream panics inside window.Decision: end the pass with @message as its error */
	int64_t requeue_ms;       /* RequeueAfter; 0 is Result{} (no requeue: the InvalidSpec fallback) */
	bool set_ready;           /* setReady(ready_status, ready_reason, ready_message) */
	const char *ready_status; /* "True" or "False" (static) */
	const char *ready_reason; /* "Succeeded", "UpdateDeferred" or "InvalidSpec" (static) */
	char ready_message[WIN_ERRLEN + 128];
	bool event;               /* r.event(Normal, UpdateDeferred, event_note): only on entering a deferral */
	char event_note[WIN_ERRLEN + 128];
};

/*
 * win_gate_update_windows() - gateUpdateWindows' decision for StageSet @ss
 * at the pass clock @now_ms (r.now()).
 * @spec, @st: the StageSet's spec and the status being built in the pass;
 *       @st is mutated as upstream mutates ss.Status: a fresh update-now
 *       token is recorded and clears pendingUpdate; no windows, an allowed
 *       window or a pass without a new revision (windowScope Updates) clear
 *       it; a deferral records the held revisions (only when new) and the
 *       next opening (floored to whole seconds, as stored) and stamps
 *       observedGeneration; so does the InvalidSpec fallback.
 * @resolved, @n: the pass's resolved stage artifacts (Key(), Revision).
 * @retry_ms: r.retryInterval(ss), the requeue when no boundary is known.
 * @out: filled.
 * Errors: cannot fail (a malformed window is the InvalidSpec outcome);
 *       aborts on out-of-memory.
 * Deviations: the UpdateDeferredTotal metric is not kept.
 */
void win_gate_update_windows(const struct obj *ss, const struct sst_spec *spec, struct sst_status *st,
			     const struct ssc_resolved *resolved, size_t n, const struct ssc_env *env, int64_t now_ms,
			     int64_t retry_ms, struct win_gate *out);

#endif
