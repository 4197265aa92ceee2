/*
 * The StageSet reconcile (metio/stageset-controller@f2c7604
 * internal/controller/stageset_controller.go Reconcile), one pass as a pure
 * function.  Written from ../shared/specs/stageset-controller.md (§2, §3,
 * §4, §5) and checked statement by statement against the Go source: the
 * functions below keep the upstream order and names in snake_case, the
 * messages are the upstream literals.  What the pass calls in the other
 * StageSet modules (resolver, actions and ledgers, verify, rollback,
 * migrations, windows, budgets, promotion, ValidateSpec) goes through their
 * headers; the world goes through struct ssc_env and struct ssc_cluster.
 *
 * The pass works on a copy of the status (ss.Status in memory); every
 * patchStatus call snapshots it into the result, so a pass that returns an
 * error after mutating the status in memory writes only what it last
 * patched, as the Flux patch helper does.  Deviations from upstream are
 * listed in engine/PROVENANCE.md, section engine/stageset_controller.
 */
#include "engine/stageset_controller.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/stageset.h"
#include "engine/stageset_actions.h"
#include "engine/stageset_budget.h"
#include "engine/stageset_migrations.h"
#include "engine/stageset_promotion.h"
#include "engine/stageset_resolve.h"
#include "engine/stageset_rollback.h"
#include "engine/stageset_validate.h"
#include "engine/stageset_verify.h"
#include "engine/stageset_windows.h"
#include "engine/xalloc.h"

#define MS_PER_SEC INT64_C(1000)
#define MINUTE_MS INT64_C(60000)
/* permanentRetryInterval */
#define PERMANENT_RETRY_MS SSC_PERMANENT_RETRY_MS
/* cycleSentinel: dependenciesReady's "why" for a dependsOn cycle. */
#define CYCLE_SENTINEL "\x01" "cycle"

static const char *const all_reasons[] = {
	SSC_REASON_SUSPENDED,
	SSC_REASON_INVALID_SPEC,
	SSC_REASON_SOURCE_NOT_READY,
	SSC_REASON_ARTIFACT_NOT_FOUND,
	SSC_REASON_RESOLVE_FAILED,
	SSC_REASON_DEPENDENCY_NOT_READY,
	SSC_REASON_STALLED,
	SSC_REASON_INVALID_VERSION,
	SSC_REASON_DOWNGRADE_NOT_ALLOWED,
	SSC_REASON_DOWNGRADE_REQUIRES_MIGRATION,
	SSC_REASON_MIGRATION_STAGE_NOT_FOUND,
	SSC_REASON_MIGRATION_ARTIFACT_INVALID,
	SSC_REASON_MIGRATION_SOURCE_NOT_VERIFIED,
	SSC_REASON_MIGRATION_SOURCE_NOT_PINNED,
	SSC_REASON_AWAITING_APPROVAL,
	SSC_REASON_MIGRATION_COVERAGE_MISSING,
	SSC_REASON_MIGRATION_FAILED,
	SSC_REASON_MIGRATION_DIRTY,
	SSC_REASON_ACTION_DIRTY,
	SSC_REASON_PREVIOUS_REVISION_UNAVAILABLE,
	SSC_REASON_UPDATE_DEFERRED,
	SSC_REASON_STAGE_FAILED,
	SSC_REASON_STAGE_PROGRESSING,
	SSC_REASON_IMAGE_UNVERIFIED,
	SSC_REASON_RBAC_DENIED,
	SSC_REASON_SOAKING,
	SSC_REASON_AWAITING_PROMOTION,
	SSC_REASON_BUDGET_EXHAUSTED,
	SSC_REASON_BUDGET_SOURCE_UNAVAILABLE,
	SSC_REASON_PROMOTION_BLOCKED,
	SSC_REASON_READY,
};

const char *const *ssc_all_reasons(size_t *n)
{
	*n = sizeof(all_reasons) / sizeof(all_reasons[0]);
	return all_reasons;
}

struct ssc_options ssc_options_default(void)
{
	struct ssc_options o;

	memset(&o, 0, sizeof(o));
	o.default_interval_ms = SSC_DEFAULT_INTERVAL_MS;
	o.max_teardown_wait_ms = SSC_MAX_TEARDOWN_WAIT_MS;
	return o;
}

/* ---- small helpers ------------------------------------------------------ */

static int64_t floor_sec(int64_t ms)
{
	int64_t r = ms % MS_PER_SEC;

	return r < 0 ? ms - r - MS_PER_SEC : ms - r;
}

/* Go's %q of @s (strconv.Quote). Returns new. */
static char *q(const char *s)
{
	return gofmt_quote(s ? s : "");
}

static const char *ann(const struct obj *o, const char *key)
{
	return obj_strmap_get(&o->annotations, key);
}

static const char *ann_or_empty(const struct obj *o, const char *key)
{
	const char *v = ann(o, key);

	return v ? v : "";
}

/* *@dst becomes a copy of @src (NULL as ""), reusing its buffer (sst_str_assign()). */
static void set_str(char **dst, const char *src)
{
	sst_str_assign(dst, src);
}

static bool streq(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "") == 0;
}

/* Appends a printf-formatted tail to a new string (consumed) and returns the result. */
static char *xappendf(char *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *xappendf(char *s, const char *fmt, ...)
{
	va_list ap;
	int n;
	size_t have = s ? strlen(s) : 0;
	char *out;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	out = xrealloc(s, have + (size_t)n + 1);
	if (!s)
		out[0] = '\0';
	va_start(ap, fmt);
	vsnprintf(out + have, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return out;
}

/* A stage status with every string "" and no ledgers (a zero stagesv1.StageStatus). */
static void stage_status_zero(struct sst_stage_status *s)
{
	memset(s, 0, sizeof(*s));
	s->name = xstrdup("");
	s->phase = xstrdup("");
	s->applied_revision = xstrdup("");
	s->message = xstrdup("");
	s->ledger_revision = xstrdup("");
	s->ledger_version = xstrdup("");
	s->last_handled_reconcile_at = xstrdup("");
	s->last_handled_promotion = xstrdup("");
}

static void stage_list_push(struct sst_stage_status **items, size_t *n, struct sst_stage_status *s)
{
	*items = xreallocarray(*items, *n + 1, sizeof(**items));
	(*items)[(*n)++] = *s; /* steals the contents */
	memset(s, 0, sizeof(*s));
}

static void stage_list_free(struct sst_stage_status *items, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sst_stage_status_release(&items[i]);
	free(items);
}

static void strv_push(char ***v, size_t *n, const char *s)
{
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void strv_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static const struct sst_condition *find_condition(const struct sst_status *st, const char *type)
{
	for (size_t i = 0; i < st->nconditions; i++)
		if (streq(st->conditions[i].type, type))
			return &st->conditions[i];
	return NULL;
}

/* ---- conditions.go, errors.go ------------------------------------------- */

/*
 * decorateMessage of @reason and @message: the text in @buf when it fits in
 * @len bytes, else in a new string left in *@heap (NULL otherwise; the
 * caller frees it).  The Ready condition is set on most passes with a text
 * it already holds, so the text is built without an allocation.
 */
static const char *decorate(const char *reason, const char *message, char *buf, size_t len, char **heap)
{
	static const char open[] = " (runbook: " SSC_RUNBOOK_BASE_URL;
	size_t nm, nr, need;
	char *out, *w;

	*heap = NULL;
	message = message ? message : "";
	if (streq(reason, SSC_REASON_READY) || streq(reason, SSC_REASON_SUSPENDED))
		return message;
	reason = reason ? reason : "";
	nm = strlen(message);
	nr = strlen(reason);
	need = nm + sizeof(open) - 1 + nr + 3; /* "/)" and the NUL */
	out = need <= len ? buf : (*heap = xmalloc(need));
	memcpy(out, message, nm);
	w = out + nm;
	memcpy(w, open, sizeof(open) - 1);
	w += sizeof(open) - 1;
	for (size_t i = 0; i < nr; i++) /* strings.ToLower of an ASCII reason */
		*w++ = reason[i] >= 'A' && reason[i] <= 'Z' ? (char)(reason[i] - 'A' + 'a') : reason[i];
	memcpy(w, "/)", 3);
	return out;
}

char *ssc_decorate_message(const char *reason, const char *message)
{
	char buf[256], *heap;
	const char *text = decorate(reason, message, buf, sizeof(buf), &heap);

	return heap ? heap : xstrdup(text);
}

bool ssc_is_permanent_api_error(const struct ssc_err *e)
{
	return e && (e->code == SSC_ERR_FORBIDDEN || e->code == SSC_ERR_NO_MATCH);
}

char *ssc_rbac_denial_message(const char *context, const struct ssc_err *e)
{
	switch (e->code) {
	case SSC_ERR_FORBIDDEN:
		return xasprintf("RBAC denied %s \xe2\x80\x94 grant the missing verb to the tenant ServiceAccount "
				 "(see the Tenancy and RBAC guide). %s",
				 context, e->msg);
	case SSC_ERR_NO_MATCH:
		return xasprintf("%s refers to a kind not registered with the apiserver \xe2\x80\x94 install the "
				 "corresponding CRD. %s",
				 context, e->msg);
	default:
		return xasprintf("%s: %s", context, e->msg);
	}
}

bool ssc_terminal_fetch_error(const struct ssc_err *e)
{
	return e && e->code == SSC_ERR_TERMINAL_FETCH;
}

bool ssc_is_cross_namespace_ref(const struct sst_source_ref *ref, const char *owner_ns)
{
	return ref->ns && *ref->ns && !streq(ref->ns, owner_ns);
}

char *ssc_scrubbed_cross_namespace_message(const struct sst_source_ref *ref, const char *ns)
{
	const char *kind = ref->kind && *ref->kind ? ref->kind : "ExternalArtifact";
	char *qn = q(ref->name), *qns = q(ns);
	char *out = xasprintf("cross-namespace %s %s is not reachable; check the source CR's status in %s", kind,
			      qn, qns);

	free(qn);
	free(qns);
	return out;
}

/* fluxcd conditions lexicographicLess: Stalled, Reconciling, Ready first (by weight), then by type. */
static int condition_weight(const char *type)
{
	if (streq(type, "Stalled"))
		return 0;
	if (streq(type, "Reconciling"))
		return 1;
	if (streq(type, "Ready"))
		return 2;
	return -1;
}

static bool condition_less(const struct sst_condition *i, const struct sst_condition *j)
{
	int w1 = condition_weight(i->type), w2 = condition_weight(j->type);

	if (w1 >= 0 && w2 >= 0)
		return w1 < w2;
	if (w1 >= 0 || w2 >= 0)
		return w2 < 0;
	return strcmp(i->type, j->type) < 0;
}

void ssc_set_ready(struct sst_status *st, int64_t generation, int64_t now_ms, const char *status,
		   const char *reason, const char *message)
{
	char buf[512], *heap;
	const char *msg = decorate(reason, message, buf, sizeof(buf), &heap);
	struct sst_condition *c = NULL;

	for (size_t i = 0; i < st->nconditions; i++)
		if (streq(st->conditions[i].type, SSC_CONDITION_READY))
			c = &st->conditions[i];
	if (c) {
		if (!streq(c->status, status) || !streq(c->reason, reason) || !streq(c->message, msg)) {
			set_str(&c->status, status);
			set_str(&c->reason, reason);
			set_str(&c->message, msg);
			c->last_transition_ms = floor_sec(now_ms);
		}
		c->observed_generation = generation;
		free(heap);
	} else {
		st->conditions = xreallocarray(st->conditions, st->nconditions + 1, sizeof(*st->conditions));
		c = &st->conditions[st->nconditions++];
		c->type = xstrdup(SSC_CONDITION_READY);
		c->status = xstrdup(status);
		c->reason = xstrdup(reason);
		c->message = heap ? heap : xstrdup(msg);
		c->observed_generation = generation;
		c->last_transition_ms = floor_sec(now_ms);
	}
	/* sort.Slice by lexicographicLess; condition types are unique, so any sort gives this order. */
	for (size_t i = 1; i < st->nconditions; i++)
		for (size_t k = i; k > 0 && condition_less(&st->conditions[k], &st->conditions[k - 1]); k--) {
			struct sst_condition t = st->conditions[k];

			st->conditions[k] = st->conditions[k - 1];
			st->conditions[k - 1] = t;
		}
}

void ssc_emit_ready_event(struct ssc_events *ev, int64_t at_ms, const struct sst_condition *prev,
			  const char *status, const char *reason, const char *message)
{
	if (prev && streq(prev->status, status) && streq(prev->reason, reason))
		return;
	ssc_events_take(ev, at_ms, !streq(status, "True"), reason, xstrdup(message ? message : ""));
}

/* ---- intervals ---------------------------------------------------------- */

int64_t ssc_effective_interval(const struct sst_spec *s, const struct ssc_options *o)
{
	if (s->interval.set && s->interval.ms > 0)
		return s->interval.ms;
	return o->default_interval_ms;
}

int64_t ssc_retry_interval(const struct sst_spec *s, const struct ssc_options *o)
{
	if (s->retry_interval.set)
		return s->retry_interval.ms;
	return ssc_effective_interval(s, o);
}

int64_t ssc_steady_interval(const struct sst_spec *s, const struct ssc_options *o)
{
	int64_t base = ssc_effective_interval(s, o);

	if (s->drift_detection_interval.set && s->drift_detection_interval.ms > 0 &&
	    s->drift_detection_interval.ms < base)
		return s->drift_detection_interval.ms;
	return base;
}

/* ---- failure classification --------------------------------------------- */

const char *ssc_fail_reason(const char *op, const struct ssc_err *cause, bool *terminal)
{
	*terminal = true;
	if (ssc_is_permanent_api_error(cause))
		return SSC_REASON_RBAC_DENIED;
	if (streq(op, "fetch artifact") && ssc_terminal_fetch_error(cause))
		return SSC_REASON_STAGE_FAILED;
	if (streq(op, SSC_OP_MIGRATION)) {
		*terminal = false;
		return SSC_REASON_MIGRATION_FAILED;
	}
	if (streq(op, SSC_OP_MIGRATION_DIRTY))
		return SSC_REASON_MIGRATION_DIRTY;
	if (streq(op, SSC_OP_IMAGE_VERIFICATION))
		return SSC_REASON_IMAGE_UNVERIFIED;
	if (streq(op, SSC_OP_ACTION_DIRTY))
		return SSC_REASON_ACTION_DIRTY;
	*terminal = false;
	return SSC_REASON_STAGE_FAILED;
}

/* ---- reconcile_stage.go ------------------------------------------------- */

void ssc_parse_reconcile_stage(const struct obj *ss, char **stage, char **token)
{
	const char *v = ann(ss, SSC_ANN_RECONCILE_STAGE);
	const char *at;

	*stage = NULL;
	*token = NULL;
	if (v && *v && (at = strchr(v, '@')) && at != v && at[1]) {
		*stage = xstrndup(v, (size_t)(at - v));
		*token = xstrdup(at + 1);
		return;
	}
	*stage = xstrdup("");
	*token = xstrdup("");
}

/* ---- status merging ----------------------------------------------------- */

/* indexStageStatuses: the last entry of @name (map assignment keeps the last). */
static const struct sst_stage_status *index_lookup(const struct sst_stage_status *items, size_t n,
						   const char *name)
{
	const struct sst_stage_status *hit = NULL;

	for (size_t i = 0; i < n; i++)
		if (streq(items[i].name, name))
			hit = &items[i];
	return hit;
}

void ssc_merge_stage_statuses(const struct sst_spec *spec, const struct sst_status *prior,
			      const struct sst_stage_status *processed, size_t nprocessed,
			      struct sst_stage_status **out, size_t *nout)
{
	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < spec->nstages; i++) {
		const char *name = spec->stages[i].name;
		const struct sst_stage_status *e = index_lookup(processed, nprocessed, name);
		struct sst_stage_status copy;

		if (!e)
			e = index_lookup(prior->stages, prior->nstages, name);
		if (!e)
			continue;
		sst_stage_status_copy(&copy, e);
		stage_list_push(out, nout, &copy);
	}
}

/* ---- dependsOn versions ------------------------------------------------- */

int ssc_version_at_least(const char *have, const char *min, bool *ok, char *err, size_t errlen)
{
	struct ss_semver minv, havev;

	*ok = false;
	if (ss_semver_parse(min, &minv, err, errlen) != SS_OK)
		return -1;
	if (ss_semver_parse(have ? have : "", &havev, NULL, 0) != SS_OK)
		return 0; /* not yet at a comparable version */
	*ok = ss_semver_compare(&havev, &minv) >= 0;
	return 0;
}

static const char *or_none_version(const char *v)
{
	return v && *v ? v : "(none)";
}

/* ---- stage timeouts ----------------------------------------------------- */

int64_t ssc_stage_timeout(const struct sst_spec *s, const struct sst_stage *st)
{
	if (st->has_ready_checks && st->ready_checks.timeout.set && st->ready_checks.timeout.ms > 0)
		return st->ready_checks.timeout.ms;
	if (st->timeout.set && st->timeout.ms > 0)
		return st->timeout.ms;
	if (s->timeout.set && s->timeout.ms > 0)
		return s->timeout.ms;
	return SSC_DEFAULT_STAGE_TIMEOUT_MS;
}

const char *ssc_stage_on_timeout(const struct sst_spec *s, const struct sst_stage *st)
{
	if (st->on_timeout && *st->on_timeout)
		return st->on_timeout;
	if (s->on_timeout && *s->on_timeout)
		return s->on_timeout;
	return "Hold";
}

/* ---- teardown ----------------------------------------------------------- */

bool ssc_teardown_drop_decision(int64_t deletion_ms, int64_t now_ms, int64_t max_wait_ms,
				const struct ssc_err *cause, const char **reason, int64_t *elapsed_ms)
{
	int64_t wait = max_wait_ms > 0 ? max_wait_ms : SSC_MAX_TEARDOWN_WAIT_MS;

	*reason = NULL;
	*elapsed_ms = 0;
	/* teardownTimedOut */
	if (deletion_ms != SST_NO_TIME && now_ms - deletion_ms >= wait) {
		*reason = "timed_out";
		*elapsed_ms = now_ms - deletion_ms;
		return true;
	}
	if (ssc_is_permanent_api_error(cause))
		*reason = "permanent";
	else if (cause && cause->code == SSC_ERR_UNAUTHORIZED)
		*reason = "unauthorized";
	else
		return false;
	if (deletion_ms != SST_NO_TIME)
		*elapsed_ms = now_ms - deletion_ms;
	return true;
}

const char *ssc_exit_name(enum ssc_exit e)
{
	switch (e) {
	case SSC_EXIT_NOT_FOUND: return "NotFound";
	case SSC_EXIT_DELETE: return "Delete";
	case SSC_EXIT_FINALIZER: return "FinalizerAdded";
	case SSC_EXIT_SUSPENDED: return "Suspended";
	case SSC_EXIT_INVALID_SPEC: return "InvalidSpec";
	case SSC_EXIT_DEPENDENCY: return "DependencyNotReady";
	case SSC_EXIT_RESOLUTION: return "Resolution";
	case SSC_EXIT_WINDOW: return "UpdateWindow";
	case SSC_EXIT_BUDGET: return "ErrorBudget";
	case SSC_EXIT_KUBECONFIG: return "KubeConfig";
	case SSC_EXIT_PLAN: return "VersionPlan";
	case SSC_EXIT_APPROVAL: return "AwaitingApproval";
	case SSC_EXIT_LEDGER_ERROR: return "LedgerError";
	case SSC_EXIT_PARK: return "Parked";
	case SSC_EXIT_PROMOTION_HOLD: return "PromotionHold";
	case SSC_EXIT_STAGE_BUDGET_HOLD: return "StageBudgetHold";
	case SSC_EXIT_PROGRESS_HOLD: return "StageProgressing";
	case SSC_EXIT_GATE_UNEVALUABLE: return "GateUnevaluable";
	case SSC_EXIT_GATE_DENIED: return "GateDenied";
	case SSC_EXIT_DELETED_MID_VERIFY: return "DeletedMidVerify";
	case SSC_EXIT_STAGE_FAILURE: return "StageFailure";
	case SSC_EXIT_DUPLICATE_CLAIMS: return "DuplicateClaims";
	case SSC_EXIT_PRUNE_ERROR: return "PruneError";
	case SSC_EXIT_SUCCEEDED: return "Succeeded";
	}
	return "?";
}

/* ---- predicates --------------------------------------------------------- */

static bool ann_changed(const struct obj *a, const struct obj *b, const char *key)
{
	return !streq(ann(a, key), ann(b, key));
}

bool ssc_watch_update(const struct obj *old, const struct obj *new)
{
	const char *req_new, *req_old;

	if (!old || !new)
		return false;
	/* GenerationChangedPredicate */
	if (old->generation != new->generation)
		return true;
	/* ReconcileRequestedPredicate: the key present on the new object, and absent on the old or different. */
	req_new = ann(new, SSC_ANN_REQUESTED_AT);
	if (req_new) {
		req_old = ann(old, SSC_ANN_REQUESTED_AT);
		if (!req_old || strcmp(req_old, req_new) != 0)
			return true;
	}
	/* reconcileStageRequestedPredicate, migrationApprovalPredicate, promoteRequestedPredicate */
	return ann_changed(old, new, SSC_ANN_RECONCILE_STAGE) || ann_changed(old, new, SSC_ANN_APPROVED_VERSION) ||
	       ann_changed(old, new, SSC_ANN_ROLLBACK_TO) || ann_changed(old, new, SSC_ANN_PROMOTE);
}

bool ssc_depends_on(const struct sst_spec *dependent, const char *dependent_ns, const char *ns,
		    const char *name)
{
	for (size_t i = 0; i < dependent->ndepends_on; i++) {
		const struct sst_dependency *d = &dependent->depends_on[i];
		const char *dns = d->ns && *d->ns ? d->ns : dependent_ns;

		if (streq(d->name, name) && streq(dns, ns))
			return true;
	}
	return false;
}

/* ---- one pass ----------------------------------------------------------- */

/* What a Go function of the pass returns: a ctrl.Result and an error. */
enum loop_err {
	LE_NONE,             /* nil */
	LE_PLAIN,            /* an error: back-off */
	LE_TERMINAL,         /* errTerminalStageFailure */
	LE_HOLD_PROMOTION,   /* errHoldForPromotion */
	LE_HOLD_BUDGET,      /* errHoldForBudget */
	LE_GATE_UNEVALUABLE, /* errGateUnevaluable */
	LE_HOLD_PROGRESS,    /* errHoldForProgress */
	LE_GATE_DENIED,      /* errGateDenied */
	LE_ABORT_DELETION,   /* errAbortForDeletion */
};

struct ret {
	int64_t requeue_after; /* RequeueAfter */
	bool requeue;          /* Requeue: true */
	bool jitter;           /* wrapped in jitter.JitteredRequeueInterval */
	enum loop_err err;
	char msg[512];         /* the error text */
};

struct pass {
	const struct ssc_input *in;
	const struct obj *ss;
	const struct sst_spec *spec;
	const struct ssc_env *env;
	const struct ssc_cluster *cl;
	const struct ssc_options *opt;
	struct ssc_clock clk;
	struct sst_status st; /* ss.Status as the pass mutates it */
	struct ssc_result *out;
	bool patched;
	/* ServiceAccounts with a resolved stageRuntime (the runtimes map): borrowed from the spec, the array the scratch's */
	const char **runtimes;
	size_t nruntimes;
	struct ssc_scratch *sc;
	struct sst_condition snap; /* ready_snapshot()'s copy; from and back to the keep */
};

static void ret_after(struct ret *r, int64_t after)
{
	memset(r, 0, sizeof(*r));
	r->requeue_after = after;
}

static void ret_error(struct ret *r, enum loop_err kind, const char *msg)
{
	size_t n = msg ? strlen(msg) : 0;

	/* Truncated to the buffer, as the result's error text is (logs and notices only). */
	r->err = kind;
	if (n >= sizeof(r->msg))
		n = sizeof(r->msg) - 1;
	memcpy(r->msg, msg ? msg : "", n);
	r->msg[n] = '\0';
}

static int64_t retry_interval(const struct pass *p)
{
	return ssc_retry_interval(p->spec, p->opt);
}

/* r.event: events.v1 with reason and action = @reason, at the pass clock. */
static void event(struct pass *p, bool warning, const char *reason, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void event(struct pass *p, bool warning, const char *reason, const char *fmt, ...)
{
	va_list ap;
	char *note;

	va_start(ap, fmt);
	note = xvasprintf(fmt, ap);
	va_end(ap);
	ssc_events_take(&p->out->events, p->clk.now_ms, warning, reason, note);
}

static void quirk(struct pass *p, int number, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void quirk(struct pass *p, int number, const char *fmt, ...)
{
	va_list ap;
	struct ssc_quirk_note *qn;

	p->out->quirks = xreallocarray(p->out->quirks, p->out->nquirks + 1, sizeof(*p->out->quirks));
	qn = &p->out->quirks[p->out->nquirks++];
	qn->quirk = number;
	va_start(ap, fmt);
	qn->text = xvasprintf(fmt, ap);
	va_end(ap);
}

static void set_ready(struct pass *p, const char *status, const char *reason, const char *message)
{
	ssc_set_ready(&p->st, p->ss->generation, p->clk.now_ms, status, reason, message);
}

/*
 * readyConditionSnapshot: a copy of the Ready condition before setReady, or
 * NULL.  The copy is the pass's one snapshot (p->snap, reusing its strings):
 * valid until the next ready_snapshot() of the pass, which no caller takes
 * before it has emitted the event of the one before.
 */
static const struct sst_condition *ready_snapshot(struct pass *p)
{
	const struct sst_condition *c = find_condition(&p->st, SSC_CONDITION_READY);

	if (!c)
		return NULL;
	sst_condition_assign(&p->snap, c);
	return &p->snap;
}

static void emit_ready_event(struct pass *p, const struct sst_condition *prev, const char *status,
			     const char *reason, const char *message)
{
	ssc_emit_ready_event(&p->out->events, p->clk.now_ms, prev, status, reason, message);
}

/* patchStatus: what the pass writes is the status as of its last patch. */
static void patch_status(struct pass *p)
{
	sst_status_assign(&p->out->status, &p->st);
	p->patched = true;
}

static void observe_generation(struct pass *p)
{
	p->st.observed_generation = p->ss->generation;
}

/*
 * stageRuntime: the target connection for @sa, resolved once per pass and
 * ServiceAccount (a failed resolution is not remembered, as upstream's map
 * keeps only successes).  0, 1 (malformed kubeConfig) or -1 with @err.
 */
static int stage_runtime(struct pass *p, const char *sa, struct ssc_err *err)
{
	int rc;

	memset(err, 0, sizeof(*err));
	for (size_t i = 0; i < p->nruntimes; i++)
		if (streq(p->runtimes[i], sa))
			return 0;
	if (p->cl && p->cl->connect) {
		rc = p->cl->connect(p->cl->ctx, sa ? sa : "", p->clk.now_ms, err);
		if (rc != 0)
			return rc;
	}
	if (p->nruntimes == p->sc->capruntimes) {
		p->sc->capruntimes = p->sc->capruntimes ? 2 * p->sc->capruntimes : 4;
		p->sc->runtimes = xreallocarray(p->sc->runtimes, p->sc->capruntimes, sizeof(*p->sc->runtimes));
		p->runtimes = p->sc->runtimes;
	}
	p->runtimes[p->nruntimes++] = sa ? sa : "";
	return 0;
}

/* effectiveServiceAccount */
static const char *effective_service_account(const struct sst_spec *spec, const struct sst_stage *stage)
{
	if (stage->service_account && *stage->service_account)
		return stage->service_account;
	return spec->service_account ? spec->service_account : "";
}

/* stagePrune */
static bool stage_prune(const struct sst_stage *st)
{
	return !st->has_prune || st->prune;
}

static const struct sst_stage *spec_stage(const struct sst_spec *spec, const char *name, size_t *index)
{
	for (size_t i = 0; i < spec->nstages; i++)
		if (streq(spec->stages[i].name, name)) {
			if (index)
				*index = i;
			return &spec->stages[i];
		}
	return NULL;
}

/* ---- reconcileDelete (R-2, §3.12) --------------------------------------- */

static int64_t deletion_time(const struct pass *p)
{
	if (p->ss->deletion_ms < 0)
		return SST_NO_TIME;
	return floor_sec(p->in->anchor_ms + p->ss->deletion_ms);
}

/* teardownFailure */
static void teardown_failure(struct pass *p, const char *op, const struct ssc_err *cause, struct ret *r)
{
	const char *reason;
	int64_t elapsed;
	char dur[GOFMT_DURATION_LEN];

	memset(r, 0, sizeof(*r));
	if (!ssc_teardown_drop_decision(deletion_time(p), p->clk.now_ms, p->opt->max_teardown_wait_ms, cause,
					&reason, &elapsed)) {
		ret_error(r, LE_PLAIN, cause->msg); /* retry; finalizer stays */
		return;
	}
	/* elapsed.Round(time.Second): half away from zero */
	elapsed = elapsed >= 0 ? (elapsed + 500) / 1000 * 1000 : -((-elapsed + 500) / 1000 * 1000);
	gofmt_duration_ms(elapsed, dur);
	p->out->remove_finalizer = true;
	if (streq(reason, "timed_out"))
		event(p, true, "TeardownForced",
		      "TeardownForced after %s of failing teardown (%s) \xe2\x80\x94 finalizer dropped; the target "
		      "cluster may carry orphaned objects an operator must remove by hand. Last error: %s",
		      dur, op, cause->msg);
	else
		event(p, true, "TeardownForced",
		      "TeardownForced after %s \xe2\x80\x94 teardown (%s) failed with a cause no retry can clear, so "
		      "the finalizer was dropped without waiting out --max-teardown-wait; the target cluster may "
		      "carry orphaned objects an operator must remove by hand. Last error: %s",
		      dur, op, cause->msg);
}

static int record_order(const void *a, const void *b)
{
	const struct ssc_inventory_record *x = *(const struct ssc_inventory_record *const *)a;
	const struct ssc_inventory_record *y = *(const struct ssc_inventory_record *const *)b;

	if (x->position != y->position)
		return x->position > y->position ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int record_name_order(const void *a, const void *b)
{
	const struct ssc_inventory_record *x = *(const struct ssc_inventory_record *const *)a;
	const struct ssc_inventory_record *y = *(const struct ssc_inventory_record *const *)b;

	return strcmp(x->name, y->name);
}

/* stagesByPositionDesc over the stored records: a new array of borrowed pointers. */
static const struct ssc_inventory_record **records_by_position_desc(const struct ssc_inventory_record *recs,
								     size_t n)
{
	const struct ssc_inventory_record **v = xcalloc(n ? n : 1, sizeof(*v));

	for (size_t i = 0; i < n; i++)
		v[i] = &recs[i];
	qsort(v, n, sizeof(*v), record_order);
	return v;
}

/* reconcileDelete */
static void reconcile_delete(struct pass *p, struct ret *r)
{
	const struct ssc_inventory_record *recs = NULL;
	const struct ssc_inventory_record **order;
	size_t nrecs = 0;
	struct ssc_err err;

	memset(r, 0, sizeof(*r));
	if (!obj_has_finalizer(p->ss, SSC_FINALIZER))
		return; /* forgetDeletedTenants: nothing to model */
	if (stage_runtime(p, p->spec->service_account, &err) != 0) {
		teardown_failure(p, "connect to target cluster", &err, r);
		return;
	}
	if (p->cl && p->cl->records && p->cl->records(p->cl->ctx, p->clk.now_ms, &recs, &nrecs, &err) != 0) {
		teardown_failure(p, "read stage inventory", &err, r);
		return;
	}
	order = records_by_position_desc(recs, nrecs);
	for (size_t k = 0; k < nrecs; k++) {
		const struct ssc_inventory_record *rec = order[k];
		const struct sst_stage *st = spec_stage(p->spec, rec->name, NULL);
		const char *sa = p->spec->service_account;
		int64_t dur = 0;

		if (st && !stage_prune(st))
			continue; /* prune:false: objects orphaned deliberately */
		if (rec->nids == 0)
			continue;
		if (st) {
			sa = effective_service_account(p->spec, st);
			if (stage_runtime(p, sa, &err) != 0) {
				char *qs = q(rec->name);
				char *op = xasprintf("connect for stage %s teardown", qs);

				free(qs);
				teardown_failure(p, op, &err, r);
				free(op);
				free(order);
				return;
			}
		}
		if (p->cl && p->cl->delete_objects) {
			memset(&err, 0, sizeof(err));
			if (p->cl->delete_objects(p->cl->ctx, sa, rec->ids, rec->nids, p->clk.now_ms, &dur, &err) != 0) {
				char *qs = q(rec->name);
				char *op = xasprintf("delete stage %s objects", qs);

				p->clk.now_ms += dur > 0 ? dur : 0;
				teardown_failure(p, op, &err, r);
				free(qs);
				free(op);
				free(order);
				return;
			}
			p->clk.now_ms += dur > 0 ? dur : 0;
		}
	}
	free(order);
	p->out->remove_finalizer = true;
}

/* ---- dependsOn (R-7) ---------------------------------------------------- */

#define STAGESET_API_VERSION "stages.metio.wtf/v1"

/* dependsOnKeys of a StageSet object read through the API reader (its spec tree). */
static void depends_on_keys_obj(const struct obj *o, char ***keys, size_t *n)
{
	const struct val *list = val_map_get(o->spec, "dependsOn");

	if (!list || list->type != VAL_LIST)
		return;
	for (size_t i = 0; i < list->u.list.n; i++) {
		const struct val *d = list->u.list.items[i];
		const char *ns = val_str(val_map_get(d, "namespace"), "");
		char *k = xasprintf("%s/%s", *ns ? ns : o->ns, val_str(val_map_get(d, "name"), ""));

		*keys = xreallocarray(*keys, *n + 1, sizeof(**keys));
		(*keys)[(*n)++] = k;
	}
}

static void depends_on_keys_spec(const struct sst_spec *spec, const char *own_ns, char ***keys, size_t *n)
{
	for (size_t i = 0; i < spec->ndepends_on; i++) {
		const struct sst_dependency *d = &spec->depends_on[i];

		*keys = xreallocarray(*keys, *n + 1, sizeof(**keys));
		(*keys)[(*n)++] = xasprintf("%s/%s", d->ns && *d->ns ? d->ns : own_ns, d->name);
	}
}

/* splitKey: strings.Cut at the first '/'. */
static bool split_key(const char *k, char **ns, char **name)
{
	const char *slash = strchr(k, '/');

	if (!slash)
		return false;
	*ns = xstrndup(k, (size_t)(slash - k));
	*name = xstrdup(slash + 1);
	return true;
}

/* hasDependencyCycle: breadth-first over dependsOn; 1 cycle, 0 none, -1 read error in @err. */
static int has_dependency_cycle(struct pass *p, struct ssc_err *err)
{
	char *start = xasprintf("%s/%s", p->ss->ns, p->ss->name);
	char **queue = NULL, **seen = NULL;
	size_t nq = 0, head = 0, nseen = 0;
	int rc = 0;

	depends_on_keys_spec(p->spec, p->ss->ns, &queue, &nq);
	while (head < nq) {
		const char *k = queue[head++];
		bool was_seen = false;
		char *ns, *name;
		const struct obj *d;

		if (streq(k, start)) {
			rc = 1;
			break;
		}
		for (size_t i = 0; i < nseen && !was_seen; i++)
			was_seen = streq(seen[i], k);
		if (was_seen)
			continue;
		strv_push(&seen, &nseen, k);
		if (!split_key(k, &ns, &name))
			continue;
		memset(err, 0, sizeof(*err));
		d = p->env->get(p->env->ctx, STAGESET_API_VERSION, "StageSet", ns, name, p->clk.now_ms, err);
		free(ns);
		free(name);
		if (!d) {
			if (err->code == SSC_ERR_NOT_FOUND)
				continue;
			rc = -1;
			break;
		}
		depends_on_keys_obj(d, &queue, &nq);
	}
	strv_free(queue, nq);
	strv_free(seen, nseen);
	free(start);
	return rc;
}

/* isReady of a dependency object. */
static bool obj_is_ready(const struct obj *d)
{
	const struct val *c = obj_ready_condition(d);

	return c && streq(val_str(val_map_get(c, "status"), ""), "True");
}

/*
 * dependenciesReady: 1 ready; 0 not ready with *@why (new; CYCLE_SENTINEL for
 * a cycle); -1 an API error in @err.
 */
static int dependencies_ready(struct pass *p, char **why, struct ssc_err *err)
{
	int cyc;

	*why = NULL;
	if (p->spec->ndepends_on == 0)
		return 1;
	cyc = has_dependency_cycle(p, err);
	if (cyc < 0)
		return -1;
	if (cyc > 0) {
		*why = xstrdup(CYCLE_SENTINEL);
		return 0;
	}
	for (size_t i = 0; i < p->spec->ndepends_on; i++) {
		const struct sst_dependency *dep = &p->spec->depends_on[i];
		const char *ns = dep->ns && *dep->ns ? dep->ns : p->ss->ns;
		const struct obj *d;
		const struct val *pu;

		if (!streq(ns, p->ss->ns) && p->opt->no_cross_namespace_refs) {
			*why = xasprintf("cross-namespace dependsOn %s/%s rejected", ns, dep->name);
			return 0;
		}
		memset(err, 0, sizeof(*err));
		d = p->env->get(p->env->ctx, STAGESET_API_VERSION, "StageSet", ns, dep->name, p->clk.now_ms, err);
		if (!d) {
			if (err->code == SSC_ERR_NOT_FOUND) {
				*why = xasprintf("dependency %s/%s not found", ns, dep->name);
				return 0;
			}
			return -1;
		}
		if (!obj_is_ready(d) || val_int(val_map_get(d->status, "observedGeneration"), 0) != d->generation) {
			*why = xasprintf("dependency %s/%s is not ready", ns, dep->name);
			return 0;
		}
		pu = val_map_get(val_map_get(d->status, "pendingUpdate"), "revisions");
		if (pu && pu->type == VAL_MAP && pu->u.map.n > 0) {
			*why = xasprintf("dependency %s/%s has a new revision held by an update window", ns, dep->name);
			return 0;
		}
		if (dep->min_version && *dep->min_version) {
			const char *have = val_str(val_map_get(d->status, "version"), "");
			char verr[256] = "";
			bool ok;

			if (ssc_version_at_least(have, dep->min_version, &ok, verr, sizeof(verr)) != 0) {
				char *qv = q(dep->min_version);

				*why = xasprintf("dependency %s/%s minVersion %s is not a valid semver: %s", ns, dep->name,
						 qv, verr);
				free(qv);
				return 0;
			}
			if (!ok) {
				*why = xasprintf("dependency %s/%s is at version %s, need >= %s", ns, dep->name,
						 or_none_version(have), dep->min_version);
				return 0;
			}
		}
	}
	return 1;
}

/* ---- failResolution (R-8) ----------------------------------------------- */

static void fail_resolution(struct pass *p, const struct sst_stage *stage, const struct res_error *rerr,
			    struct ret *r)
{
	const char *reason = SSC_REASON_RESOLVE_FAILED;
	bool transient = false, api_error = false;
	char *msg, *qs = q(stage->name);
	struct ssc_err chain;

	/* The whole error chain as errors.Is / err.Error() see it. */
	memset(&chain, 0, sizeof(chain));
	chain.code = rerr->api.code != SSC_OK ? rerr->api.code : SSC_ERR;
	snprintf(chain.msg, sizeof(chain.msg), "%.*s", (int)sizeof(chain.msg) - 1, rerr->msg);
	switch (rerr->cls) {
	case RES_RBAC_DENIED:
		reason = SSC_REASON_RBAC_DENIED;
		break;
	case RES_SOURCE_NOT_READY:
		reason = SSC_REASON_SOURCE_NOT_READY;
		transient = true;
		break;
	case RES_ARTIFACT_NOT_FOUND:
		reason = SSC_REASON_ARTIFACT_NOT_FOUND;
		transient = true;
		break;
	case RES_INVALID_SPEC:
		reason = SSC_REASON_INVALID_SPEC;
		break;
	case RES_RESOLVE_FAILED:
		reason = SSC_REASON_RESOLVE_FAILED;
		break;
	case RES_OK:
	case RES_API_ERROR:
	default:
		api_error = true;
		break;
	}

	if (ssc_is_cross_namespace_ref(&stage->source_ref, p->ss->ns)) {
		msg = ssc_scrubbed_cross_namespace_message(&stage->source_ref, stage->source_ref.ns);
	} else if (streq(reason, SSC_REASON_RBAC_DENIED)) {
		char *d = ssc_rbac_denial_message("resolving the source CR", &chain);

		msg = xasprintf("stage %s: %s", qs, d);
		free(d);
	} else {
		msg = xasprintf("stage %s: %s", qs, rerr->msg);
	}
	free(qs);

	set_ready(p, "False", reason, msg);
	free(msg);
	observe_generation(p);
	patch_status(p);
	memset(r, 0, sizeof(*r));
	if (api_error) {
		ret_error(r, LE_PLAIN, chain.msg);
	} else if (transient) {
		r->requeue_after = retry_interval(p);
		r->jitter = true;
	} else {
		r->requeue_after = PERMANENT_RETRY_MS;
	}
}

/* ---- the window and budget gates (R-9 ... R-11) ------------------------ */

/*
 * gateUpdateWindows as engine/stageset_windows decides it: the status
 * fields it touches are already written into p->st; the Ready condition,
 * the event and the patch are applied here.  Returns whether the pass ends.
 */
static bool gate_update_windows(struct pass *p, const struct ssc_resolved *resolved, size_t n, struct ret *r)
{
	struct win_gate g;

	memset(r, 0, sizeof(*r));
	win_gate_update_windows(p->ss, p->spec, &p->st, resolved, n, p->env, p->clk.now_ms, retry_interval(p), &g);
	if (g.panicked) {
		/* window.Decision panics upstream; controller-runtime recovers it as the pass's error */
		ret_error(r, LE_PLAIN, g.ready_message);
		return true;
	}
	if (g.set_ready)
		set_ready(p, g.ready_status, g.ready_reason, g.ready_message);
	if (g.event)
		event(p, false, SSC_REASON_UPDATE_DEFERRED, "%s", g.event_note);
	if (!g.deferred)
		return false;
	patch_status(p);
	ret_after(r, g.requeue_ms);
	return true;
}

/* gateErrorBudget (with deferBudget) as engine/stageset_budget decides it. */
static bool gate_error_budget(struct pass *p, const struct ssc_resolved *resolved, size_t n, bool override,
			      struct ret *r)
{
	struct eb_gate g;

	memset(r, 0, sizeof(*r));
	eb_gate_error_budget(p->env, &p->clk, p->ss, p->spec, &p->st, resolved, n, override, retry_interval(p), &g);
	if (g.set_ready)
		set_ready(p, g.ready_status, g.ready_reason, g.ready_message);
	if (g.event)
		event(p, g.event_warning, g.event_reason, "%s", g.event_note);
	if (!g.deferred)
		return false;
	patch_status(p);
	ret_after(r, g.requeue_ms);
	return true;
}

/* ---- the stage loop's state --------------------------------------------- */

struct loop {
	struct ssc_resolved *resolved; /* resolved[i] of spec stage i */
	char **sub_digests;            /* subDigests[i]: the substitution digest of this run */
	struct mig_plan plan;
	bool have_plan;
	/* priorStages: copies of the status entries, force/reset edits applied; to nprior_slots reusable. */
	struct sst_stage_status *prior;
	size_t nprior, nprior_slots;
	char *force_stage, *force_token;
	struct act_stage_ledger *lifetime;
	bool *needs_reconstruct;
	char **reconstructed;
	size_t nreconstructed;
	bool *desired;                 /* desiredRecords: stage i recorded this pass */
	struct sst_strmap applied;
	struct sst_stage_status *statuses; /* stageStatuses: [0, nstatuses) this pass's, to nslots reusable */
	size_t nstatuses, nslots;
	struct ssc_scratch *sc;            /* the per-stage arrays and slots, given back by loop_release() */
	char *promote_hold_stage;
	struct sst_promotion_state *promote_hold_state;
	const char *budget_hold_reason;
	char *budget_hold_msg;
	char *gate_denied_msg;
	char *progress_hold_msg;
	struct sst_budget_freeze **stage_budget_freeze;
	bool budget_override;
	bool desired_to_out; /* the plan's desired version goes to the result's desired */
};

/*
 * The zero StageStatus an absent name reads (stage_status_zero()'s content),
 * shared and only ever read: its strings are the one empty text.
 */
static char empty_text[1];
static const struct sst_stage_status empty_stage_status = {
	.name = empty_text, .phase = empty_text, .applied_revision = empty_text, .message = empty_text,
	.ledger_revision = empty_text, .ledger_version = empty_text, .last_handled_reconcile_at = empty_text,
	.last_handled_promotion = empty_text,
};

static const struct sst_stage_status *prior_of(const struct loop *L, const char *name)
{
	const struct sst_stage_status *e = index_lookup(L->prior, L->nprior, name);

	return e ? e : &empty_stage_status;
}

static bool prior_has(const struct loop *L, const char *name)
{
	return index_lookup(L->prior, L->nprior, name) != NULL;
}

/* lastHandledFor */
static const char *last_handled_for(const struct loop *L, const char *name)
{
	if (streq(name, L->force_stage))
		return L->force_token;
	return prior_of(L, name)->last_handled_reconcile_at;
}

/* ---- failStage and its helpers (§3.11) ---------------------------------- */

/* stageHasPendingLifetime: a Lifetime pre/post action of @stage not in @done. */
static bool stage_has_pending_lifetime(const struct sst_stage *stage, const struct sst_string_list *done)
{
	const struct sst_actions *lists[2] = { &stage->pre, &stage->post };

	if (!stage->has_actions)
		return false;
	for (int k = 0; k < 2; k++)
		for (size_t i = 0; i < lists[k]->n; i++) {
			const struct sst_action *a = &lists[k]->items[i];

			if (sst_action_scope(a) == SST_SCOPE_LIFETIME && !sst_string_list_has(done, a->name))
				return true;
		}
	return false;
}

/* actionFailureOp: increments actionFailureCount as a side effect, as upstream does. */
static const char *action_failure_op(struct pass *p, const struct sst_stage *stage,
				     const struct act_lifetime_gate *gate, const char *phase)
{
	if (!stage_has_pending_lifetime(stage, &gate->done))
		return phase;
	p->st.action_failure_count++;
	if (p->st.action_failure_count >= SSC_MAX_ACTION_FAILURES)
		return SSC_OP_ACTION_DIRTY;
	return phase;
}

static void fail_stage(struct pass *p, const struct sst_stage_status *processed, size_t nprocessed,
		       const char *stage, const char *op, const struct ssc_err *cause, const struct act_ledger *led,
		       struct ret *r)
{
	bool terminal;
	const char *reason = ssc_fail_reason(op, cause, &terminal);
	char *qs = q(stage), *stage_msg, *ready_msg;
	struct sst_stage_status *all, *merged = NULL;
	size_t nmerged = 0;
	const struct sst_condition *prev;

	if (streq(reason, SSC_REASON_RBAC_DENIED)) {
		char *d = ssc_rbac_denial_message(op, cause);

		stage_msg = xasprintf("%s: %s", op, d);
		ready_msg = xasprintf("stage %s %s: %s", qs, op, d);
		free(d);
	} else if (streq(op, "decrypt") || streq(op, "configure decryption")) {
		stage_msg = xasprintf("%s: decryption failed", op);
		ready_msg = xasprintf("stage %s %s: decryption failed", qs, op);
	} else {
		stage_msg = xasprintf("%s: %s", op, cause->msg);
		ready_msg = xasprintf("stage %s %s: %s", qs, op, cause->msg);
	}
	free(qs);

	/* append(prior, led.stamp(...)) merged over the persisted entries */
	all = xcalloc(nprocessed + 1, sizeof(*all));
	for (size_t i = 0; i < nprocessed; i++)
		all[i] = processed[i]; /* shallow: borrowed for the merge only */
	stage_status_zero(&all[nprocessed]);
	set_str(&all[nprocessed].name, stage);
	set_str(&all[nprocessed].phase, "Failed");
	set_str(&all[nprocessed].applied_revision, led->revision);
	set_str(&all[nprocessed].message, stage_msg);
	act_ledger_stamp(led, &all[nprocessed]);
	ssc_merge_stage_statuses(p->spec, &p->st, all, nprocessed + 1, &merged, &nmerged);
	sst_stage_status_release(&all[nprocessed]);
	free(all);
	stage_list_free(p->st.stages, p->st.nstages);
	p->st.stages = merged;
	p->st.nstages = nmerged;

	observe_generation(p);
	prev = ready_snapshot(p);
	set_ready(p, "False", reason, ready_msg);
	patch_status(p);
	emit_ready_event(p, prev, "False", reason, ready_msg);
	memset(r, 0, sizeof(*r));
	if (terminal) {
		char *m = xasprintf("terminal stage failure: %s", cause->msg);

		ret_error(r, LE_TERMINAL, m);
		free(m);
	} else {
		ret_error(r, LE_PLAIN, cause->msg);
	}
	free(stage_msg);
	free(ready_msg);
}

/* A failStage before the loop: stages[0] with an empty ledger (spec Q-13). */
static void fail_stage_preloop(struct pass *p, const char *op, const struct ssc_err *cause, struct ret *r)
{
	struct act_ledger empty;

	act_ledger_init(&empty, "", "");
	fail_stage(p, NULL, 0, p->spec->stages[0].name, op, cause, &empty, r);
	act_ledger_release(&empty);
	quirk(p, 13, "a failure before the stage loop (%s) wrote stage \"%s\" with empty ledgers", op,
	      p->spec->stages[0].name);
}

/* runOnFailure: best effort, once per revision through the ledger. */
static void run_on_failure(struct pass *p, size_t stage_index, const struct act_ledger *led,
			   act_record_fn record, void *rctx)
{
	const struct sst_stage *stage = &p->spec->stages[stage_index];
	struct ssc_err err;

	if (!stage->has_actions || stage->on_failure.n == 0)
		return;
	memset(&err, 0, sizeof(err));
	if (act_run(p->env, &p->clk, stage_index, "onFailure", &stage->on_failure, act_ledger_done, led, record,
		    rctx, &err) != 0) {
		char *qs = q(stage->name);

		event(p, true, "OnFailureAction", "stage %s onFailure: %s", qs, err.msg);
		free(qs);
	}
}

/* runOnRollback: spec.onRollback under the default identity, no ledger. */
static void run_on_rollback(struct pass *p)
{
	struct ssc_err err;

	if (p->spec->on_rollback.n == 0)
		return;
	if (stage_runtime(p, p->spec->service_account, &err) != 0) {
		event(p, true, "OnRollbackAction", "onRollback: connect to target cluster: %s", err.msg);
		return;
	}
	memset(&err, 0, sizeof(err));
	if (act_run(p->env, &p->clk, SIZE_MAX, "onRollback", &p->spec->on_rollback, NULL, NULL, NULL, NULL, &err) != 0)
		event(p, true, "OnRollbackAction", "onRollback: %s", err.msg);
}

/* emitVersionSkips */
static void emit_version_skips(struct pass *p, const struct sst_stage *stage, const struct act_ledger *led,
			       const char *prior_revision, const char *revision)
{
	struct sst_string_list names = { 0 };

	if (!*prior_revision || streq(prior_revision, revision))
		return;
	act_version_scoped_action_names(stage, &names);
	for (size_t i = 0; i < names.n; i++) {
			char *qs, *qa, *qv;

			if (!act_ledger_done(led, names.items[i]))
				continue;
			qs = q(stage->name);
			qa = q(names.items[i]);
			qv = q(led->version);
			event(p, false, "ActionSkipped",
			      "stage %s action %s (scope: Version) held at version %s despite the new revision; it "
			      "runs when the version changes",
			      qs, qa, qv);
			free(qs);
			free(qa);
			free(qv);
	}
	sst_string_list_release(&names);
}

/* reportDrift */
static void report_drift(struct pass *p, const struct sst_stage *stage, const struct ssc_apply_outcome *ao,
			 const char *prior_revision, const char *revision)
{
	char *qs;

	if (!*prior_revision || !streq(prior_revision, revision))
		return;
	if (ao->nchanged == 0)
		return;
	qs = q(stage->name);
	event(p, true, "DriftCorrected", "stage %s corrected out-of-band drift on %zu object(s): %s", qs,
	      ao->nchanged, ao->changed_names);
	free(qs);
}

/* The record closure of the stage loop (scope routing; Lifetime to the StageLedger at once). */
struct record_ctx {
	struct pass *p;
	struct loop *L;
	const struct sst_stage *stage;
	struct act_ledger *led;
};

/* scopeOf[name]: post overrides pre (map assignment order); NULL for onFailure names. */
static const struct sst_action *scoped_action(const struct sst_stage *stage, const char *name)
{
	const struct sst_action *hit = NULL;

	if (!stage->has_actions)
		return NULL;
	for (size_t i = 0; i < stage->pre.n; i++)
		if (streq(stage->pre.items[i].name, name))
			hit = &stage->pre.items[i];
	for (size_t i = 0; i < stage->post.n; i++)
		if (streq(stage->post.items[i].name, name))
			hit = &stage->post.items[i];
	return hit;
}

static int record_action(void *rctx, const char *name, struct ssc_err *err)
{
	struct record_ctx *rc = rctx;
	const struct sst_action *a = scoped_action(rc->stage, name);

	if (a && sst_action_scope(a) == SST_SCOPE_LIFETIME)
		return act_record_lifetime_completion(rc->p->env, &rc->p->clk, rc->L->lifetime, rc->p->ss->ns,
						      rc->stage->name, name, act_stage_anchor(rc->stage, name), err);
	act_ledger_record(rc->led, rc->stage, name);
	return 0;
}

/* The executor a stage's migrations run through: act_run() bound to the stage, phase "migration". */
struct migration_exec {
	struct pass *p;
	size_t stage;
};

static int run_migration_actions(void *arg, const struct sst_actions *acts, act_done_fn done, const void *done_arg,
				 act_record_fn record, void *record_arg, struct ssc_err *err)
{
	struct migration_exec *m = arg;

	return act_run(m->p->env, &m->p->clk, m->stage, "migration", acts, done, done_arg, record, record_arg, err);
}

/* ---- the stage loop (R-19, S-1 ... S-15) -------------------------------- */

/*
 * The next stageStatuses entry: a slot of an earlier pass (its content still
 * there, for the caller to overwrite or release) or a new zeroed one.
 */
static struct sst_stage_status *next_slot(struct loop *L)
{
	if (L->nstatuses == L->nslots) {
		L->statuses = xreallocarray(L->statuses, L->nslots + 1, sizeof(*L->statuses));
		memset(&L->statuses[L->nslots++], 0, sizeof(*L->statuses));
	}
	return &L->statuses[L->nstatuses++];
}

/* Appends @s (its content stolen; @s is zeroed) to stageStatuses. */
static void push_status(struct loop *L, struct sst_stage_status *s)
{
	struct sst_stage_status *e = next_slot(L);

	sst_stage_status_release(e);
	*e = *s;
	memset(s, 0, sizeof(*s));
}

/*
 * Appends a Ready entry of this pass to stageStatuses (recordGateInterrupted
 * and S-15 share its shape): stage_status_zero() and then the fields, built
 * in the next slot, whose strings of an earlier pass are reused
 * (sst_str_assign()).  No argument points into the slots.
 */
static void ready_entry(struct loop *L, const char *name, const char *revision, int64_t entries,
			const char *handled_reconcile, const struct sst_promotion_state *ps,
			const char *handled_promotion, const struct sst_budget_freeze *bf,
			const struct act_ledger *led)
{
	struct sst_stage_status *e = next_slot(L);

	sst_str_assign(&e->name, name);
	sst_str_assign(&e->phase, "Ready");
	sst_str_assign(&e->applied_revision, revision);
	e->entries_count = entries;
	e->shards = 0;
	sst_str_assign(&e->message, "");
	sst_str_assign(&e->last_handled_reconcile_at, handled_reconcile);
	sst_promotion_state_free(e->promotion_state);
	e->promotion_state = ps ? sst_promotion_state_dup(ps) : NULL;
	sst_str_assign(&e->last_handled_promotion, handled_promotion);
	sst_budget_freeze_free(e->budget_freeze);
	e->budget_freeze = bf ? sst_budget_freeze_dup(bf) : NULL;
	/* the ledger fields: executedActions, ledgerRevision, executedVersionActions, ledgerVersion */
	act_ledger_stamp(led, e);
}

/* recordGateInterrupted: the stage with its prior promotion fields and this pass's ledgers. */
static void record_gate_interrupted(struct loop *L, size_t i, const char *name, const char *revision,
				    int64_t entries, const struct act_ledger *led)
{
	const struct sst_stage_status *prior = prior_of(L, name);

	ready_entry(L, name, revision, entries, last_handled_for(L, name), prior->promotion_state,
		    prior->last_handled_promotion, L->stage_budget_freeze[i], led);
}

static void stage_loop(struct pass *p, struct loop *L, struct ret *r)
{
	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < p->spec->nstages; i++) {
		const struct sst_stage *stage = &p->spec->stages[i];
		const struct ssc_resolved *ra = &L->resolved[i];
		const struct sst_stage_status *prior = prior_of(L, stage->name);
		struct act_ledger led;
		struct act_lifetime_gate gate;
		struct record_ctx rc;
		struct migration_exec mex;
		struct mig_executor ex;
		struct ssc_err err;
		struct ssc_apply_outcome ao;
		struct vs_outcome v;
		struct pr_analysis_verdict verdict;
		bool has_verdict = false, fast_track_ok = false;
		struct pr_restart_observation restarts;
		bool has_restarts = false;
		struct pr_event_verdict *ev = NULL;
		struct pr_decision dec;
		const char *prior_revision = "";
		const char *sa;
		const char *applied_revision;  /* ra->revision, or rev after a revert */
		char rev[320];                  /* the revision a revert went back to */
		int64_t entries;
		int rb;

		memset(&verdict, 0, sizeof(verdict));
		memset(&restarts, 0, sizeof(restarts));
		memset(&dec, 0, sizeof(dec));
		memset(&gate, 0, sizeof(gate));
		p->out->stage = i;
		/* S-1: a stage parked on an aborted revision stays reverted. */
		if (prior_has(L, stage->name) && pr_rollback_aborted(p->ss, stage, prior, ra->revision)) {
			struct sst_stage_status copy;

			sst_stage_status_copy(&copy, prior);
			push_status(L, &copy);
			L->promote_hold_stage = xstrdup(stage->name);
			L->promote_hold_state = prior->promotion_state ? sst_promotion_state_dup(prior->promotion_state)
								       : NULL;
			ret_after(r, retry_interval(p));
			ret_error(r, LE_HOLD_PROMOTION, "hold for promotion");
			p->out->exit = SSC_EXIT_PARK;
			quirk(p, 18, "stage \"%s\" is parked on aborted revision %s: nothing applied, no gate evaluated",
			      stage->name, ra->revision);
			return;
		}

		/* S-2: the two ledgers, carried from the prior entry when their keys still match. */
		act_ledger_init(&led, ra->revision, L->plan.version_set ? L->plan.desired : "");
		if (prior_has(L, stage->name)) {
			prior_revision = prior->applied_revision;
			if (streq(prior->ledger_revision, ra->revision))
				for (size_t k = 0; k < prior->executed_actions.n; k++)
					sst_string_list_push(&led.executed, prior->executed_actions.items[k]);
			if (L->plan.version_set && streq(prior->ledger_version, L->plan.desired))
				for (size_t k = 0; k < prior->executed_version_actions.n; k++)
					sst_string_list_push(&led.versioned, prior->executed_version_actions.items[k]);
		}
		if (L->plan.baseline && stage->has_actions) {
			const struct sst_actions *lists[2] = { &stage->pre, &stage->post };

			for (int k = 0; k < 2; k++)
				for (size_t a = 0; a < lists[k]->n; a++)
					if (sst_action_scope(&lists[k]->items[a]) == SST_SCOPE_VERSION)
						sst_string_list_push(&led.versioned, lists[k]->items[a].name);
		}
		/* S-3 */
		emit_version_skips(p, stage, &led, prior_revision, ra->revision);

		/* S-4, S-5: the stage's own error budget gates entry of a new revision. */
		if (stage->has_error_budget && !L->budget_override && !streq(prior_revision, ra->revision)) {
			struct eb_stage_gate g;

			eb_gate_stage_budget(p->env, &p->clk, stage, prior_has(L, stage->name) ? prior : NULL,
					     retry_interval(p), &g);
			if (g.spec_err) {
				char *qs = q(stage->name);
				char *m = xasprintf("stage %s errorBudget: %s", qs, g.spec_msg);

				set_ready(p, "False", SSC_REASON_INVALID_SPEC, m);
				free(m);
				free(qs);
				observe_generation(p);
				patch_status(p);
				/* Result{RequeueAfter: 1m} with a nil error: the pass falls through (spec Q-30). */
				ret_after(r, PERMANENT_RETRY_MS);
				quirk(p, 30, "stage \"%s\" errorBudget thresholds are invalid: the loop ends without an "
					     "error and the pass continues to prune and success",
				      stage->name);
				eb_stage_gate_release(&g);
				act_ledger_release(&led);
				return;
			} else if (g.source_err) {
				const struct sst_condition *prev = find_condition(&p->st, SSC_CONDITION_READY);

				if (!prev || !streq(prev->reason, SSC_REASON_BUDGET_SOURCE_UNAVAILABLE)) {
					char *qs = q(stage->name);

					event(p, true, SSC_REASON_BUDGET_SOURCE_UNAVAILABLE,
					      "stage %s error-budget source unavailable; proceeding (onSourceError=Allow): %s",
					      qs, g.source_msg);
					free(qs);
				}
			} else if (g.hold) {
				struct sst_stage_status held;

				sst_stage_status_copy(&held, prior);
				set_str(&held.name, stage->name);
				sst_budget_freeze_free(held.budget_freeze);
				held.budget_freeze = g.freeze;
				g.freeze = NULL;
				push_status(L, &held);
				L->budget_hold_reason = g.reason;
				free(L->budget_hold_msg);
				L->budget_hold_msg = xstrdup(g.msg);
				ret_after(r, g.requeue_ms);
				ret_error(r, LE_HOLD_BUDGET, "hold for stage error budget");
				eb_stage_gate_release(&g);
				act_ledger_release(&led);
				return;
			} else if (g.freeze) {
				sst_budget_freeze_free(L->stage_budget_freeze[i]);
				L->stage_budget_freeze[i] = g.freeze; /* dryRun would-freeze */
				g.freeze = NULL;
			}
			eb_stage_gate_release(&g);
		}

		/* S-6: the stage's effective ServiceAccount. */
		sa = effective_service_account(p->spec, stage);
		if (stage_runtime(p, sa, &err) != 0) {
			fail_stage(p, L->statuses, L->nstatuses, stage->name, "connect to target cluster", &err, &led, r);
			act_ledger_release(&led);
			return;
		}

		/* S-7: Lifetime completions, with their completionAnchor witnesses. */
		act_gate_lifetime_stage(p->env, &p->clk, L->lifetime, p->ss->ns, stage->name, &led, &gate,
					&p->out->events);

		rc.p = p;
		rc.L = L;
		rc.stage = stage;
		rc.led = &led;

		/* S-8: migrations anchored to this stage. */
		memset(&err, 0, sizeof(err));
		mex.p = p;
		mex.stage = i;
		ex.run = run_migration_actions;
		ex.arg = &mex;
		if (mig_run_stage_migrations(&p->st, stage->name, &L->plan, &ex, &p->clk, &p->out->events, &err) != 0) {
			const char *op = SSC_OP_MIGRATION;

			p->st.migration_failure_count++;
			if (p->st.migration_failure_count >= SSC_MAX_MIGRATION_FAILURES)
				op = SSC_OP_MIGRATION_DIRTY;
			fail_stage(p, L->statuses, L->nstatuses, stage->name, op, &err, &led, r);
			goto stop;
		}

		/* S-9: pre actions; a failure leaves the stage untouched, no onFailure. */
		if (stage->has_actions) {
			memset(&err, 0, sizeof(err));
			if (act_run(p->env, &p->clk, i, "pre", &stage->pre, act_ledger_done, &led, record_action, &rc,
				    &err) != 0) {
				const char *op = action_failure_op(p, stage, &gate, "pre-action");

				fail_stage(p, L->statuses, L->nstatuses, stage->name, op, &err, &led, r);
				goto stop;
			}
		}

		/* S-10: fetch, decrypt, postBuild, build, image gate, conflict policy, apply, record. */
		memset(&ao, 0, sizeof(ao));
		p->env->apply_stage(p->env->ctx, i, ra, p->clk.now_ms, &ao);
		if (ao.image_skipped) {
			char *qs = q(stage->name);

			event(p, true, "ImageVerificationSkipped",
			      "image verification skipped for stage %s by break-glass annotation: %s", qs,
			      ann_or_empty(p->ss, SSC_ANN_SKIP_IMAGE_VERIFICATION));
			free(qs);
		}
		p->clk.now_ms += ao.duration_ms > 0 ? ao.duration_ms : 0;
		if (!ao.failed_op || (!streq(ao.failed_op, "fetch artifact") && !streq(ao.failed_op, "decrypt") &&
				      !streq(ao.failed_op, "resolve postBuild variables")))
			set_str(&L->sub_digests[i], ao.substitution_digest);
		if (ao.failed_op && streq(ao.failed_op, "apply")) {
			run_on_failure(p, i, &led, record_action, &rc);
			fail_stage(p, L->statuses, L->nstatuses, stage->name, "apply", &ao.err, &led, r);
			goto stop;
		}
		if (ao.failed_op && !streq(ao.failed_op, "record inventory")) {
			fail_stage(p, L->statuses, L->nstatuses, stage->name, ao.failed_op, &ao.err, &led, r);
			goto stop;
		}
		report_drift(p, stage, &ao, prior_revision, ra->revision);
		if (p->env->rollback_store && p->spec->rollback_on_failure)
			rb_store_rendered(p->env->rollback_store, &p->out->events, p->clk.now_ms, p->ss->ns,
					  p->ss->name, stage->name, ra->digest ? ra->digest : "");
		L->desired[i] = true;
		if (L->needs_reconstruct[i])
			strv_push(&L->reconstructed, &L->nreconstructed, stage->name);
		if (ao.failed_op) { /* record inventory */
			run_on_failure(p, i, &led, record_action, &rc);
			fail_stage(p, L->statuses, L->nstatuses, stage->name, "record inventory", &ao.err, &led, r);
			goto stop;
		}
		strv_push(&p->out->inventory_written, &p->out->ninventory_written, stage->name);
		entries = (int64_t)ao.nobjects;

		/* S-11: verify. */
		memset(&v, 0, sizeof(v));
		vs_verify_stage(p->env, &p->clk, i, stage, ao.nobjects, ssc_stage_timeout(p->spec, stage), &v);
		if (v.deleted) {
			r->requeue = true;
			ret_error(r, LE_ABORT_DELETION, "abort: StageSet is being deleted");
			goto stop;
		}
		if (!v.ready && v.progressing && !streq(ssc_stage_on_timeout(p->spec, stage), "Rollback")) {
			struct sst_stage_status e;
			char *qs = q(stage->name);

			stage_status_zero(&e);
			set_str(&e.name, stage->name);
			set_str(&e.phase, "Verifying");
			set_str(&e.applied_revision, ra->revision);
			free(e.message);
			e.message = xasprintf("verify: %s", v.cause);
			act_ledger_stamp(&led, &e);
			push_status(L, &e);
			free(L->progress_hold_msg);
			L->progress_hold_msg =
				xasprintf("stage %s is applied and still becoming ready: %s", qs, v.cause);
			free(qs);
			ret_after(r, retry_interval(p));
			ret_error(r, LE_HOLD_PROGRESS, "hold: stage still becoming ready");
			goto stop;
		}
		if (!v.ready) {
			run_on_failure(p, i, &led, record_action, &rc);
			ssc_err_set(&err, SSC_ERR, "%s", v.cause);
			fail_stage(p, L->statuses, L->nstatuses, stage->name, "verify", &err, &led, r);
			goto stop;
		}

		/* S-12: post actions. */
		if (stage->has_actions) {
			memset(&err, 0, sizeof(err));
			if (act_run(p->env, &p->clk, i, "post", &stage->post, act_ledger_done, &led, record_action, &rc,
				    &err) != 0) {
				const char *op;

				run_on_failure(p, i, &led, record_action, &rc);
				op = action_failure_op(p, stage, &gate, "post-action");
				fail_stage(p, L->statuses, L->nstatuses, stage->name, op, &err, &led, r);
				goto stop;
			}
		}

		/* S-13: promotion inputs, evaluated on every pass. */
		if (stage->has_promotion && stage->promotion.has_analysis) {
			pr_evaluate_promotion_analysis(p->env, &p->clk, stage, &verdict);
			has_verdict = true;
		}
		if (stage->has_promotion && stage->promotion.has_fast_track)
			fast_track_ok = pr_evaluate_fast_track(p->env, &p->clk, stage);
		if (stage->has_promotion && stage->promotion.has_restart_gate) {
			memset(&err, 0, sizeof(err));
			if (pr_evaluate_restart_checks(p->env, &p->clk, p->ss->ns, stage, prior, &restarts, &err) != 0) {
				record_gate_interrupted(L, i, stage->name, ra->revision, entries, &led);
				if (ssc_is_permanent_api_error(&err)) {
					char *qs = q(stage->name);
					char *ctx = xasprintf("reading pods for stage %s restart gate", qs);

					free(L->gate_denied_msg);
					L->gate_denied_msg = ssc_rbac_denial_message(ctx, &err);
					free(ctx);
					free(qs);
					ret_after(r, PERMANENT_RETRY_MS);
					ret_error(r, LE_GATE_DENIED, "promotion gate read permanently denied");
				} else {
					char *m = xasprintf("promotion gate unevaluable: %s", err.msg);

					ret_error(r, LE_GATE_UNEVALUABLE, m);
					free(m);
				}
				goto stop;
			}
			has_restarts = true;
		}
		if (stage->has_promotion && stage->promotion.has_event_gate) {
			memset(&err, 0, sizeof(err));
			if (pr_evaluate_event_checks(p->env, &p->clk, p->ss->ns, stage, &ev, &err) != 0) {
				record_gate_interrupted(L, i, stage->name, ra->revision, entries, &led);
				if (ssc_is_permanent_api_error(&err)) {
					char *qs = q(stage->name);
					char *ctx = xasprintf("reading events for stage %s event gate", qs);

					free(L->gate_denied_msg);
					L->gate_denied_msg = ssc_rbac_denial_message(ctx, &err);
					free(ctx);
					free(qs);
					ret_after(r, PERMANENT_RETRY_MS);
					ret_error(r, LE_GATE_DENIED, "promotion gate read permanently denied");
				} else {
					char *m = xasprintf("promotion gate unevaluable: %s", err.msg);

					ret_error(r, LE_GATE_UNEVALUABLE, m);
					free(m);
				}
				goto stop;
			}
		}

		/* S-14: the gate decision, the restart baseline, a gate-driven revert. */
		pr_gate_promotion(p->ss, stage, ra->revision, prior, p->clk.now_ms, has_verdict ? &verdict : NULL,
				  fast_track_ok, has_restarts ? restarts.verdict : NULL, ev, retry_interval(p), &dec);
		if (dec.state && has_restarts) {
			const struct sst_restart_baseline *b = dec.promoted ? restarts.totals : restarts.baseline;
			size_t nb = dec.promoted ? restarts.ntotals : restarts.nbaseline;

			for (size_t k = 0; k < dec.state->nrestart_baseline; k++)
				free(dec.state->restart_baseline[k].name);
			free(dec.state->restart_baseline);
			dec.state->restart_baseline = xcalloc(nb ? nb : 1, sizeof(*b));
			dec.state->nrestart_baseline = nb;
			for (size_t k = 0; k < nb; k++) {
				dec.state->restart_baseline[k].name = xstrdup(b[k].name);
				dec.state->restart_baseline[k].restarts = b[k].restarts;
			}
		}
		applied_revision = ra->revision; /* borrowed: the resolved source outlives the pass */
		if (dec.rollback) {
			char *cause, why[1024] = "", *qs = q(stage->name);
			bool reverted = false;

			if (dec.state && dec.state->restart_check && *dec.state->restart_check) {
				char *qc = q(dec.state->restart_check);

				cause = xasprintf("restart check %s", qc);
				free(qc);
			} else if (dec.state && dec.state->event_check && *dec.state->event_check) {
				char *qc = q(dec.state->event_check);

				cause = xasprintf("event check %s", qc);
				free(qc);
			} else {
				cause = xstrdup("promotion analysis");
			}
			memset(&err, 0, sizeof(err));
			rev[0] = '\0';
			rb = rb_rollback_stage_to_snapshot(p->env, &p->clk, &p->out->events, p->ss->ns, p->ss->name,
							   &p->st, stage->name, i, rev, sizeof(rev),
							   &reverted, why, sizeof(why), &err);
			if (rb < 0) {
				char *m = xasprintf("promotion gate unevaluable: %s", err.msg);

				record_gate_interrupted(L, i, stage->name, ra->revision, entries, &led);
				ret_error(r, LE_GATE_UNEVALUABLE, m);
				free(m);
				free(cause);
				free(qs);
				goto stop;
			}
			if (reverted) {
				applied_revision = rev;
				if (dec.state)
					set_str(&dec.state->aborted_revision, ra->revision);
				strv_push(&p->out->inventory_written, &p->out->ninventory_written, stage->name);
				event(p, true, SSC_REASON_PROMOTION_BLOCKED, "stage %s %s failed; rolled back to revision %s",
				      qs, cause, applied_revision);
				run_on_rollback(p);
			} else {
				event(p, true, SSC_REASON_PROMOTION_BLOCKED,
				      "stage %s %s failed and onFailure=Rollback, but the stage could not be reverted: %s; "
				      "holding",
				      qs, cause, why);
				quirk(p, 18, "stage \"%s\" could not be reverted; the revert is retried on every pass",
				      stage->name);
			}
			free(cause);
			free(qs);
		}
		sst_strmap_set(&L->applied, ra->key, ra->revision);

		/* S-15: the stage's entry. */
		ready_entry(L, stage->name, applied_revision, entries, last_handled_for(L, stage->name), dec.state,
			    dec.handled ? dec.handled : "", L->stage_budget_freeze[i], &led);
		if (!dec.promoted) {
			free(L->promote_hold_stage);
			L->promote_hold_stage = xstrdup(stage->name);
			sst_promotion_state_free(L->promote_hold_state);
			L->promote_hold_state = dec.state ? sst_promotion_state_dup(dec.state) : NULL;
			ret_after(r, dec.requeue_ms);
			ret_error(r, LE_HOLD_PROMOTION, "hold for promotion");
			goto stop;
		}
		pr_decision_release(&dec);
		pr_event_verdict_free(ev);
		pr_restart_observation_release(&restarts);
		pr_analysis_verdict_release(&verdict);
		act_lifetime_gate_release(&gate);
		act_ledger_release(&led);
		continue;
stop:
		pr_decision_release(&dec);
		pr_event_verdict_free(ev);
		pr_restart_observation_release(&restarts);
		pr_analysis_verdict_release(&verdict);
		act_lifetime_gate_release(&gate);
		act_ledger_release(&led);
		return;
	}
	p->out->stage = SIZE_MAX;
}

/* ---- the exit handlers after the loop (H-1 ... H-7, §3.3) --------------- */

static void write_merged_stages(struct pass *p, struct loop *L)
{
	struct sst_stage_status *merged;
	size_t n;

	ssc_merge_stage_statuses(p->spec, &p->st, L->statuses, L->nstatuses, &merged, &n);
	stage_list_free(p->st.stages, p->st.nstages);
	p->st.stages = merged;
	p->st.nstages = n;
}

/* 1 when the loop's outcome was handled (the pass ends with *@r), 0 to continue to R-20. */
/*
 * A stage loop that holds with Ready False (@reason, @msg): the merged stage
 * ledgers, observedGeneration, the Ready condition and its event, one status
 * patch; the pass ends without error as @exit.
 */
static void hold_not_ready(struct pass *p, struct loop *L, struct ret *r, const char *reason,
			   const char *msg, enum ssc_exit exit)
{
	const struct sst_condition *prev;

	write_merged_stages(p, L);
	observe_generation(p);
	prev = ready_snapshot(p);
	set_ready(p, "False", reason, msg);
	emit_ready_event(p, prev, "False", reason, msg);
	patch_status(p);
	r->err = LE_NONE;
	p->out->exit = exit;
}

static int loop_exit(struct pass *p, struct loop *L, struct ret *r)
{
	const struct sst_condition *prev;

	switch (r->err) {
	case LE_NONE:
		return 0;
	case LE_ABORT_DELETION:
		/* H-3: nothing written; Requeue: true. */
		memset(r, 0, sizeof(*r));
		r->requeue = true;
		p->out->exit = SSC_EXIT_DELETED_MID_VERIFY;
		return 1;
	case LE_HOLD_PROMOTION: {
		const char *reason;
		char *msg;

		write_merged_stages(p, L);
		observe_generation(p);
		pr_promotion_hold_condition(p->ss, L->promote_hold_stage, L->promote_hold_state, &reason, &msg);
		prev = ready_snapshot(p);
		set_ready(p, "False", reason, msg);
		emit_ready_event(p, prev, "False", reason, msg);
		free(msg);
		patch_status(p);
		r->err = LE_NONE;
		if (p->out->exit != SSC_EXIT_PARK)
			p->out->exit = SSC_EXIT_PROMOTION_HOLD;
		return 1;
	}
	case LE_HOLD_BUDGET:
		write_merged_stages(p, L);
		observe_generation(p);
		prev = ready_snapshot(p);
		if (p->st.last_applied_revisions.n > 0) {
			char *m = xasprintf("Deployed; %s", L->budget_hold_msg);

			set_ready(p, "True", SSC_REASON_READY, m);
			free(m);
			emit_ready_event(p, prev, "True", SSC_REASON_READY, L->budget_hold_msg);
		} else {
			set_ready(p, "False", L->budget_hold_reason, L->budget_hold_msg);
			emit_ready_event(p, prev, "False", L->budget_hold_reason, L->budget_hold_msg);
		}
		patch_status(p);
		r->err = LE_NONE;
		p->out->exit = SSC_EXIT_STAGE_BUDGET_HOLD;
		return 1;
	case LE_GATE_UNEVALUABLE:
		/* H-5: persist the ledgers and tokens, not Ready, not observedGeneration; back off. */
		write_merged_stages(p, L);
		patch_status(p);
		p->out->exit = SSC_EXIT_GATE_UNEVALUABLE;
		return 1;
	case LE_HOLD_PROGRESS:
		hold_not_ready(p, L, r, SSC_REASON_STAGE_PROGRESSING, L->progress_hold_msg,
			       SSC_EXIT_PROGRESS_HOLD);
		return 1;
	case LE_GATE_DENIED:
		hold_not_ready(p, L, r, SSC_REASON_RBAC_DENIED, L->gate_denied_msg,
			       SSC_EXIT_GATE_DENIED);
		return 1;
	case LE_PLAIN:
	case LE_TERMINAL:
		break;
	}

	/* H-7: a stage failed; failStage already wrote the status. */
	p->out->exit = SSC_EXIT_STAGE_FAILURE;
	if (p->spec->rollback_on_failure) {
		char reason[64] = "", msg[1024] = "";
		struct ssc_err err;
		size_t *restored = xcalloc(p->st.nlast_applied_snapshot + 1, sizeof(*restored)), nrestored = 0;
		int rc;

		memset(&err, 0, sizeof(err));
		rc = (int)rb_attempt_rollback(p->env, &p->clk, &p->out->events, p->ss->ns, p->ss->name,
					      p->spec, &p->st, reason, sizeof(reason), msg, sizeof(msg),
					      &err, restored, &nrestored);
		/*
		 * each stage restored, before a later one's terminal or transient
		 * failure too, had its StageInventory rewritten to the restored
		 * objects (rollback.go recorder.Write after each re-apply)
		 */
		for (size_t k = 0; k < nrestored; k++)
			strv_push(&p->out->inventory_written, &p->out->ninventory_written,
				  p->spec->stages[restored[k]].name);
		free(restored);
		if (rc == RB_TRANSIENT) {
			memset(r, 0, sizeof(*r));
			ret_error(r, LE_PLAIN, err.msg);
			return 1;
		}
		if (rc == RB_TERMINAL) {
			set_ready(p, "False", reason, msg);
			observe_generation(p);
			patch_status(p);
			memset(r, 0, sizeof(*r));
			return 1;
		}
		event(p, true, "RolledBack", "rolled back to the last-applied revisions after a failed run");
		if (p->st.nlast_applied_snapshot > 0) {
			run_on_rollback(p);
			quirk(p, 5, "a whole-run rollback restored the snapshot; the next pass applies the same revision "
				    "again");
		}
	}
	if (r->err == LE_TERMINAL) {
		memset(r, 0, sizeof(*r));
		return 1;
	}
	return 1;
}

/* ---- cross-stage prune (R-20) ------------------------------------------- */

static bool ids_has(const char *const *ids, size_t n, const char *id)
{
	for (size_t i = 0; i < n; i++)
		if (streq(ids[i], id))
			return true;
	return false;
}

struct desired_rec {
	const char *name;
	const char *const *ids;
	size_t nids;
};

/* DuplicateClaims: how many object IDs more than one desired stage claims. */
static size_t duplicate_claims(const struct desired_rec *d, size_t n)
{
	size_t dups = 0;

	for (size_t s = 0; s < n; s++)
		for (size_t k = 0; k < d[s].nids; k++) {
			const char *id = d[s].ids[k];
			bool counted = false, other = false;

			if (ids_has(d[s].ids, k, id))
				continue; /* a repeat within one stage */
			for (size_t t = 0; t < s && !counted; t++)
				counted = ids_has(d[t].ids, d[t].nids, id);
			if (counted)
				continue; /* counted at its first claiming stage */
			for (size_t t = s + 1; t < n && !other; t++)
				other = ids_has(d[t].ids, d[t].nids, id);
			if (other)
				dups++;
		}
	return dups;
}

static bool claimed(const struct desired_rec *d, size_t n, const char *id)
{
	for (size_t s = 0; s < n; s++)
		if (ids_has(d[s].ids, d[s].nids, id))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Deletes @ids (filtered by @keep) under @sa; 0, or -1 with @err. */
static int delete_ids(struct pass *p, const char *sa, const char **ids, size_t n, struct ssc_err *err)
{
	int64_t dur = 0;
	int rc;

	if (!p->cl || !p->cl->delete_objects || n == 0)
		return 0;
	qsort(ids, n, sizeof(*ids), cmp_str); /* filterRefs sorts by ID */
	memset(err, 0, sizeof(*err));
	rc = p->cl->delete_objects(p->cl->ctx, sa, (const char *const *)ids, n, p->clk.now_ms, &dur, err);
	p->clk.now_ms += dur > 0 ? dur : 0;
	return rc;
}

/* ComputePlan and its execution.  0 done, -1 an error in @r. */
static int prune(struct pass *p, struct loop *L, const struct ssc_inventory_record *prev, size_t nprev,
		 struct ret *r)
{
	struct desired_rec *d = xcalloc(p->spec->nstages + 1, sizeof(*d));
	size_t nd = 0, dups;
	struct ssc_err err;
	const struct ssc_inventory_record **order = NULL;
	int rc = 0;

	for (size_t i = 0; i < p->spec->nstages; i++) {
		if (!L->desired[i])
			continue;
		d[nd].name = p->spec->stages[i].name;
		if (p->cl && p->cl->rendered)
			d[nd].nids = p->cl->rendered(p->cl->ctx, i, &d[nd].ids);
		nd++;
	}
	dups = duplicate_claims(d, nd);
	if (dups > 0) {
		char *m = xasprintf("%zu object(s) are claimed by more than one stage", dups);

		set_ready(p, "False", SSC_REASON_INVALID_SPEC, m);
		free(m);
		observe_generation(p);
		patch_status(p);
		memset(r, 0, sizeof(*r));
		p->out->exit = SSC_EXIT_DUPLICATE_CLAIMS;
		free(d);
		return -1;
	}
	if (L->nreconstructed > 0) {
		char *names = NULL;

		for (size_t k = 0; k < L->nreconstructed; k++)
			names = xappendf(names, "%s%s", k ? ", " : "", L->reconstructed[k]);
		event(p, true, "InventoryReconstructed",
		      "rebuilt StageInventory for stage(s) %s from live cluster objects; prune deferred to the next "
		      "reconcile",
		      names);
		free(names);
		free(d);
		return 0;
	}
	if (!p->cl || !p->cl->records || !p->cl->rendered) {
		free(d);
		return 0; /* no inventory modelled: nothing to prune */
	}
	/* PrunePerStage, in stage-name order (upstream iterates a map). */
	order = xcalloc(nprev ? nprev : 1, sizeof(*order));
	for (size_t k = 0; k < nprev; k++)
		order[k] = &prev[k];
	qsort(order, nprev, sizeof(*order), record_name_order);
	for (size_t k = 0; k < nprev && rc == 0; k++) {
		const struct ssc_inventory_record *rec = order[k];
		const struct desired_rec *mine = NULL;
		const struct sst_stage *st;
		const char **ids;
		size_t n = 0;

		for (size_t s = 0; s < nd; s++)
			if (streq(d[s].name, rec->name))
				mine = &d[s];
		if (!mine)
			continue; /* removed: torn down below */
		st = spec_stage(p->spec, rec->name, NULL);
		if (st && !stage_prune(st))
			continue;
		ids = xcalloc(rec->nids ? rec->nids : 1, sizeof(*ids));
		for (size_t e = 0; e < rec->nids; e++)
			if (!ids_has(mine->ids, mine->nids, rec->ids[e]) && !claimed(d, nd, rec->ids[e]) &&
			    !ids_has((const char *const *)ids, n, rec->ids[e]))
				ids[n++] = rec->ids[e];
		if (n > 0) {
			const char *sa = st ? effective_service_account(p->spec, st) : p->spec->service_account;

			if (stage_runtime(p, sa, &err) != 0 || delete_ids(p, sa, ids, n, &err) != 0) {
				memset(r, 0, sizeof(*r));
				ret_error(r, LE_PLAIN, err.msg);
				rc = -1;
			}
		}
		free(ids);
	}
	/* RemovedStages: descending position, name as tie-break. */
	qsort(order, nprev, sizeof(*order), record_order);
	for (size_t k = 0; k < nprev && rc == 0; k++) {
		const struct ssc_inventory_record *rec = order[k];
		bool survives = false;
		const char **ids;
		size_t n = 0;

		for (size_t s = 0; s < nd && !survives; s++)
			survives = streq(d[s].name, rec->name);
		if (survives)
			continue;
		ids = xcalloc(rec->nids ? rec->nids : 1, sizeof(*ids));
		for (size_t e = 0; e < rec->nids; e++)
			if (!claimed(d, nd, rec->ids[e]) && !ids_has((const char *const *)ids, n, rec->ids[e]))
				ids[n++] = rec->ids[e];
		if (n > 0 && delete_ids(p, p->spec->service_account, ids, n, &err) != 0) {
			memset(r, 0, sizeof(*r));
			ret_error(r, LE_PLAIN, err.msg);
			rc = -1;
		} else if (p->cl->delete_shards) {
			memset(&err, 0, sizeof(err));
			if (p->cl->delete_shards(p->cl->ctx, rec->name, p->clk.now_ms, &err) != 0) {
				memset(r, 0, sizeof(*r));
				ret_error(r, LE_PLAIN, err.msg);
				rc = -1;
			}
		}
		if (rc == 0)
			strv_push(&p->out->inventory_deleted, &p->out->ninventory_deleted, rec->name);
		free(ids);
	}
	if (rc != 0)
		p->out->exit = SSC_EXIT_PRUNE_ERROR;
	free(order);
	free(d);
	return rc;
}

/* ---- Reconcile ---------------------------------------------------------- */

/*
 * Makes @sc's arrays hold @nstages + 1 entries, zeroed, with the digests of
 * the first @nstages stages "" (strings of the pass before are reused).
 */
static void scratch_start(struct ssc_scratch *sc, size_t nstages)
{
	if (!sc->resolved || nstages > sc->cap) {
		size_t cap = nstages, owned = sc->resolved ? sc->cap : 0;

		sc->resolved = xreallocarray(sc->resolved, cap + 1, sizeof(*sc->resolved));
		sc->sub_digests = xreallocarray(sc->sub_digests, cap + 1, sizeof(*sc->sub_digests));
		for (size_t i = owned; i <= cap; i++)
			sc->sub_digests[i] = NULL;
		sc->needs_reconstruct = xreallocarray(sc->needs_reconstruct, cap + 1, sizeof(*sc->needs_reconstruct));
		sc->desired = xreallocarray(sc->desired, cap + 1, sizeof(*sc->desired));
		sc->stage_budget_freeze =
			xreallocarray(sc->stage_budget_freeze, cap + 1, sizeof(*sc->stage_budget_freeze));
		sc->cap = cap;
	}
	memset(sc->resolved, 0, (nstages + 1) * sizeof(*sc->resolved));
	for (size_t i = 0; i < nstages; i++)
		sst_str_assign(&sc->sub_digests[i], "");
	memset(sc->needs_reconstruct, 0, (nstages + 1) * sizeof(*sc->needs_reconstruct));
	memset(sc->desired, 0, (nstages + 1) * sizeof(*sc->desired));
	memset(sc->stage_budget_freeze, 0, (nstages + 1) * sizeof(*sc->stage_budget_freeze));
}

static void scratch_release(struct ssc_scratch *sc)
{
	if (sc->sub_digests)
		for (size_t i = 0; i < sc->cap; i++)
			free(sc->sub_digests[i]);
	free(sc->resolved);
	free(sc->sub_digests);
	free(sc->needs_reconstruct);
	free(sc->desired);
	free(sc->stage_budget_freeze);
	free(sc->runtimes);
	stage_list_free(sc->statuses, sc->nslots);
	stage_list_free(sc->prior, sc->nprior);
	memset(sc, 0, sizeof(*sc));
}

/* The loop's state for a pass of @nstages stages, its per-stage arrays from @sc. */
static void loop_init(struct loop *L, size_t nstages, struct ssc_scratch *sc)
{
	memset(L, 0, sizeof(*L));
	scratch_start(sc, nstages);
	L->resolved = sc->resolved;
	L->sub_digests = sc->sub_digests;
	L->needs_reconstruct = sc->needs_reconstruct;
	L->desired = sc->desired;
	L->stage_budget_freeze = sc->stage_budget_freeze;
	L->statuses = sc->statuses;
	L->nslots = sc->nslots;
	sc->statuses = NULL;
	sc->nslots = 0;
	L->prior = sc->prior;
	L->nprior_slots = sc->nprior;
	sc->prior = NULL;
	sc->nprior = 0;
	L->sc = sc;
	/* force_stage and force_token stay NULL (read as "") until R-16 parses the annotation */
}

/* Frees what the pass's loop owns; the per-stage arrays stay with their scratch. */
static void loop_release(struct loop *L, size_t nstages)
{
	if (L->have_plan)
		mig_plan_release(&L->plan);
	L->sc->prior = L->prior; /* the index's entries stay for the next pass to assign over */
	L->sc->nprior = L->nprior_slots;
	free(L->force_stage);
	free(L->force_token);
	act_stage_ledger_free(L->lifetime);
	strv_free(L->reconstructed, L->nreconstructed);
	sst_strmap_release(&L->applied);
	L->sc->statuses = L->statuses; /* the slots, this pass's entries among them */
	L->sc->nslots = L->nslots;
	free(L->promote_hold_stage);
	sst_promotion_state_free(L->promote_hold_state);
	free(L->budget_hold_msg);
	free(L->gate_denied_msg);
	free(L->progress_hold_msg);
	for (size_t i = 0; i < nstages; i++) {
		sst_budget_freeze_free(L->stage_budget_freeze[i]);
		L->stage_budget_freeze[i] = NULL;
	}
}

/* the force-reconcile and reset-scope tokens over the priorStages index. */
static void one_shot_ledger_tokens(struct pass *p, struct loop *L)
{
	const struct sst_stage_status *hit;
	const char *token;

	/* without the annotation both tokens stay NULL, read as "" (what parsing an absent one gives) */
	if (ann(p->ss, SSC_ANN_RECONCILE_STAGE)) {
		free(L->force_stage);
		free(L->force_token);
		ssc_parse_reconcile_stage(p->ss, &L->force_stage, &L->force_token);
		hit = index_lookup(L->prior, L->nprior, L->force_stage);
		if (!*L->force_stage || !hit || streq(hit->last_handled_reconcile_at, L->force_token)) {
			set_str(&L->force_stage, "");
			set_str(&L->force_token, "");
		} else {
			struct sst_stage_status *cleared = (struct sst_stage_status *)hit;

			sst_string_list_release(&cleared->executed_actions);
			set_str(&cleared->ledger_revision, "");
		}
	}
	token = ann_or_empty(p->ss, SSC_ANN_RESET_SCOPE);
	if (*token && !streq(token, p->st.last_handled_reset_scope)) {
		for (size_t k = 0; k < L->nprior; k++) {
			sst_string_list_release(&L->prior[k].executed_version_actions);
			set_str(&L->prior[k].ledger_version, "");
		}
		set_str(&p->st.last_handled_reset_scope, token);
	}
}

/*
 * indexStageStatuses: one copy per name, the last entry of a repeated name
 * winning (in the place of the first).  The copies are assigned over the
 * index of an earlier pass (sst_stage_status_assign()), so an unchanged
 * status is indexed without allocating.
 */
static void index_stage_statuses(struct loop *L, const struct sst_status *st)
{
	for (size_t k = 0; k < st->nstages; k++) {
		const struct sst_stage_status *e = &st->stages[k];
		bool replaced = false;

		for (size_t m = 0; m < L->nprior && !replaced; m++)
			if (streq(L->prior[m].name, e->name)) {
				sst_stage_status_assign(&L->prior[m], e);
				replaced = true;
			}
		if (replaced)
			continue;
		if (L->nprior == L->nprior_slots) {
			L->prior = xreallocarray(L->prior, L->nprior_slots + 1, sizeof(*L->prior));
			memset(&L->prior[L->nprior_slots++], 0, sizeof(*L->prior));
		}
		sst_stage_status_assign(&L->prior[L->nprior++], e);
	}
}

static void replace_pending_migrations(struct sst_status *st, struct sst_pending_migration *pm, size_t n)
{
	for (size_t k = 0; k < st->npending_migrations; k++)
		mig_pending_migration_release(&st->pending_migrations[k]);
	free(st->pending_migrations);
	st->pending_migrations = pm;
	st->npending_migrations = n;
}

/* lastAttemptedRevisions' pairs: the artifact key and revision of resolved[i]. */
static const char *resolved_key(const void *resolved, size_t i)
{
	return ((const struct ssc_resolved *)resolved)[i].key;
}

static const char *resolved_revision(const void *resolved, size_t i)
{
	return ((const struct ssc_resolved *)resolved)[i].revision;
}

static void reconcile(struct pass *p, struct loop *L, struct ret *r)
{
	const struct sst_spec *spec = p->spec;
	const char *req, *budget_token;
	struct ssc_err err;
	char *why = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	/* */
	if (p->ss->deletion_ms >= 0) {
		p->out->exit = SSC_EXIT_DELETE;
		reconcile_delete(p, r);
		return;
	}
	/* */
	if (!obj_has_finalizer(p->ss, SSC_FINALIZER)) {
		p->out->add_finalizer = true;
		p->out->exit = SSC_EXIT_FINALIZER;
		r->requeue = true;
		return;
	}
	/* */
	if (spec->suspend) {
		set_ready(p, "False", SSC_REASON_SUSPENDED, "Reconciliation is suspended");
		patch_status(p);
		p->out->exit = SSC_EXIT_SUSPENDED;
		return;
	}
	/* */
	req = ann_or_empty(p->ss, SSC_ANN_REQUESTED_AT);
	if (*req && !streq(req, p->st.last_handled_reconcile_at)) {
		p->st.migration_failure_count = 0;
		p->st.action_failure_count = 0;
	}
	set_str(&p->st.last_handled_reconcile_at, req);

	/* */
	{
		char *verr = NULL;

		rc = ssv_validate_spec(p->ss, spec, p->env, p->clk.now_ms, &verr);
		if (rc == SSV_EPANIC) {
			/* upstream panics inside window.Validate; controller-runtime recovers it as the pass's error */
			ret_error(r, LE_PLAIN, verr ? verr : "");
			free(verr);
			p->out->exit = SSC_EXIT_INVALID_SPEC;
			return;
		}
		if (rc != SSV_OK) {
			set_ready(p, "False", SSC_REASON_INVALID_SPEC, verr ? verr : "");
			free(verr);
			observe_generation(p);
			patch_status(p);
			ret_after(r, PERMANENT_RETRY_MS);
			p->out->exit = SSC_EXIT_INVALID_SPEC;
			return;
		}
		free(verr);
	}

	/* */
	p->out->exit = SSC_EXIT_DEPENDENCY;
	rc = dependencies_ready(p, &why, &err);
	if (rc < 0) {
		ret_error(r, LE_PLAIN, err.msg);
		return;
	}
	if (rc == 0) {
		bool terminal = streq(why, CYCLE_SENTINEL);
		const char *reason = terminal ? SSC_REASON_STALLED : SSC_REASON_DEPENDENCY_NOT_READY;

		set_ready(p, "False", reason, terminal ? "spec.dependsOn forms a cycle" : why);
		free(why);
		observe_generation(p);
		patch_status(p);
		if (terminal) {
			ret_after(r, PERMANENT_RETRY_MS);
		} else {
			ret_after(r, retry_interval(p));
			r->jitter = true;
		}
		return;
	}

	/* resolve and pin every stage's source. */
	p->out->exit = SSC_EXIT_RESOLUTION;
	for (size_t i = 0; i < spec->nstages; i++) {
		struct res_error rerr;

		memset(&rerr, 0, sizeof(rerr));
		if (res_resolve(p->env, &spec->stages[i].source_ref, p->ss->ns, p->opt->no_cross_namespace_refs,
				p->clk.now_ms, &L->resolved[i], &rerr) != 0) {
			p->out->stage = i;
			fail_resolution(p, &spec->stages[i], &rerr, r);
			return;
		}
	}
	sst_strmap_assign_pairs(&p->st.last_attempted_revisions, spec->nstages, resolved_key, resolved_revision,
				L->resolved);

	/* */
	p->out->exit = SSC_EXIT_WINDOW;
	if (gate_update_windows(p, L->resolved, spec->nstages, r))
		return;

	/* */
	budget_token = NULL;
	if (eb_fresh_budget_override(p->ss, &p->st, &budget_token)) {
		set_str(&p->st.last_handled_budget_override, budget_token);
		L->budget_override = true;
	}
	/* */
	p->out->exit = SSC_EXIT_BUDGET;
	if (gate_error_budget(p, L->resolved, spec->nstages, L->budget_override, r))
		return;

	/* the default target runtime. */
	rc = stage_runtime(p, spec->service_account, &err);
	if (rc == 1) {
		const struct sst_condition *prev = ready_snapshot(p);

		set_ready(p, "False", SSC_REASON_INVALID_SPEC, err.msg);
		observe_generation(p);
		emit_ready_event(p, prev, "False", SSC_REASON_INVALID_SPEC, err.msg);
		patch_status(p);
		ret_after(r, PERMANENT_RETRY_MS);
		p->out->exit = SSC_EXIT_KUBECONFIG;
		return;
	}
	if (rc != 0) {
		p->out->exit = SSC_EXIT_STAGE_FAILURE;
		p->out->stage = 0;
		fail_stage_preloop(p, "connect to target cluster", &err, r);
		if (r->err == LE_TERMINAL)
			memset(r, 0, sizeof(*r));
		return;
	}

	/* the version plan. */
	{
		struct mig_ctx cx;
		struct mig_verdict v;
		struct sst_pending_migration *pm = NULL;
		size_t npm = 0;

		p->out->exit = SSC_EXIT_PLAN;
		memset(&cx, 0, sizeof(cx));
		memset(&v, 0, sizeof(v));
		cx.env = p->env;
		cx.clock = &p->clk;
		cx.events = &p->out->events;
		cx.ss = p->ss;
		cx.spec = spec;
		cx.status = &p->st;
		cx.opt = p->opt;
		cx.resolved = L->resolved;
		cx.nresolved = spec->nstages;
		cx.resolve = res_resolve;
		rc = mig_plan_version_migrations(&cx, &L->plan, &v);
		if (rc == MIG_ERROR) {
			ret_error(r, LE_PLAIN, v.err.msg); /* transient: nothing written */
			mig_verdict_release(&v);
			return;
		}
		if (rc == MIG_REFUSED) {
			set_ready(p, "False", v.reason, v.message ? v.message : "");
			observe_generation(p);
			patch_status(p);
			ret_after(r, PERMANENT_RETRY_MS);
			mig_verdict_release(&v);
			return;
		}
		mig_verdict_release(&v);
		L->have_plan = true;
		mig_pending_details(&L->plan, spec, &pm, &npm);
		replace_pending_migrations(&p->st, pm, npm);
	}

	/* the approval gate. */
	if (spec->has_version &&
	    mig_version_approval_needed(spec->version.approval_mode, &L->plan, p->st.version) &&
	    !streq(ann_or_empty(p->ss, SSC_ANN_APPROVED_VERSION), L->plan.desired)) {
		const struct sst_condition *prev = ready_snapshot(p);
		char *detail = L->plan.npending > 0 ? xasprintf(" (%zu pending migration(s))", L->plan.npending)
						    : xstrdup("");
		char *qd = q(L->plan.desired);
		char *msg = xasprintf("version transition to %s is awaiting approval%s; set annotation %s=%s to proceed",
				      L->plan.desired, detail, SSC_ANN_APPROVED_VERSION, qd);

		set_ready(p, "False", SSC_REASON_AWAITING_APPROVAL, msg);
		observe_generation(p);
		set_str(&p->st.pending_version, L->plan.desired);
		emit_ready_event(p, prev, "False", SSC_REASON_AWAITING_APPROVAL, msg);
		patch_status(p);
		free(detail);
		free(qd);
		free(msg);
		ret_after(r, PERMANENT_RETRY_MS);
		p->out->exit = SSC_EXIT_APPROVAL;
		return;
	}
	set_str(&p->st.pending_version, "");
	if (L->plan.version_set) {
		/* For observers: the version this pass goes on towards (not a decision). */
		L->desired_to_out = true; /* the plan's text moves to p->out->desired as the pass ends */
		p->out->baseline = L->plan.baseline;
		p->out->downgrade = L->plan.downgrade;
	}

	/* the decryptor. */
	if (p->cl && p->cl->decryptor) {
		memset(&err, 0, sizeof(err));
		if (p->cl->decryptor(p->cl->ctx, p->clk.now_ms, &err) != 0) {
			p->out->exit = SSC_EXIT_STAGE_FAILURE;
			p->out->stage = 0;
			fail_stage_preloop(p, "configure decryption", &err, r);
			if (r->err == LE_TERMINAL)
				memset(r, 0, sizeof(*r));
			return;
		}
	}

	/* */
	index_stage_statuses(L, &p->st);
	one_shot_ledger_tokens(p, L);

	/* the Lifetime ledger. */
	p->out->exit = SSC_EXIT_LEDGER_ERROR;
	memset(&err, 0, sizeof(err));
	if (act_load_lifetime_ledger(p->env, &p->clk, spec, &L->lifetime, &err) != 0) {
		ret_error(r, LE_PLAIN, err.msg);
		return;
	}
	if (p->st.nstages == 0 && L->lifetime && L->lifetime->ncompleted > 0)
		event(p, false, "LedgerAdopted",
		      "adopted an existing StageLedger with %zu recorded completion(s); a scope: Lifetime action "
		      "recorded complete will not run again (stagesetctl reset-ledger forgets one)",
		      L->lifetime->ncompleted);
	act_promote_baseline(L->lifetime, spec, p->ss->name, &p->clk, &p->out->events);

	/* the stored inventory; a lost one is rebuilt during the loop. */
	{
		const struct ssc_inventory_record *recs = NULL;
		size_t nrecs = 0;

		if (p->cl && p->cl->records) {
			memset(&err, 0, sizeof(err));
			if (p->cl->records(p->cl->ctx, p->clk.now_ms, &recs, &nrecs, &err) != 0) {
				ret_error(r, LE_PLAIN, err.msg);
				return;
			}
		}
		for (size_t i = 0; i < spec->nstages; i++) {
			const char *name = spec->stages[i].name;
			bool stored = false;

			if (p->cl && p->cl->records) {
				for (size_t k = 0; k < nrecs && !stored; k++)
					stored = streq(recs[k].name, name);
			} else {
				int64_t entries = 0;

				stored = p->env->inventory_has ? p->env->inventory_has(p->env->ctx, name, &entries) : true;
			}
			if (!stored && *prior_of(L, name)->applied_revision)
				L->needs_reconstruct[i] = true;
		}

		/* */
		stage_loop(p, L, r);
		if (loop_exit(p, L, r))
			return;

		/* */
		if (prune(p, L, recs, nrecs, r) != 0)
			return;
	}

	/* the success tail. */
	{
		const struct sst_condition *prev;
		char num[GOFMT_UINT_LEN], msg[sizeof("Applied and verified  stage(s)") + GOFMT_UINT_LEN];
		const char *digits;
		size_t nd;

		sst_strmap_release(&p->st.last_applied_revisions);
		p->st.last_applied_revisions = L->applied;
		memset(&L->applied, 0, sizeof(L->applied));
		/* the entries become the stages; the stages they replace become the next pass's slots */
		for (size_t k = L->nstatuses; k < L->nslots; k++)
			sst_stage_status_release(&L->statuses[k]);
		if (L->nstatuses == 0) {
			stage_list_free(p->st.stages, p->st.nstages);
			p->st.stages = NULL;
			p->st.nstages = 0;
			L->nslots = 0;
		} else {
			struct sst_stage_status *old = p->st.stages;
			size_t nold = p->st.nstages;

			p->st.stages = L->statuses;
			p->st.nstages = L->nstatuses;
			L->statuses = old;
			L->nslots = nold;
		}
		L->nstatuses = 0;
		observe_generation(p);
		if (L->plan.version_set) {
			if (L->plan.baseline)
				event(p, false, "MigrationsBaselined",
				      "baselined at %s on first adoption: no migrations were run; the deployment is assumed "
				      "already at this version",
				      L->plan.desired);
			set_str(&p->st.version, L->plan.desired);
			sst_string_list_release(&p->st.executed_migrations);
			sst_string_list_release(&p->st.executed_migration_actions);
			replace_pending_migrations(&p->st, NULL, 0);
			p->st.migration_failure_count = 0;
		}
		if (spec->rollback_on_failure)
			rb_snapshot_stages(spec, L->resolved, (const char *const *)L->sub_digests, &p->st);
		p->st.action_failure_count = 0;
		/* "Applied and verified %d stage(s)" without printf or a heap copy: every steady pass says it */
		digits = gofmt_uint(spec->nstages, num);
		nd = strlen(digits);
		memcpy(msg, "Applied and verified ", 21);
		memcpy(msg + 21, digits, nd);
		memcpy(msg + 21 + nd, " stage(s)", sizeof(" stage(s)"));
		prev = ready_snapshot(p);
		set_ready(p, "True", SSC_REASON_READY, msg);
		patch_status(p);
		emit_ready_event(p, prev, "True", SSC_REASON_READY, msg);
		memset(r, 0, sizeof(*r));
		ret_after(r, ssc_steady_interval(spec, p->opt));
		r->jitter = true;
		p->out->exit = SSC_EXIT_SUCCEEDED;
		p->out->stage = SIZE_MAX; /* also after the Q-30 fall-through */
	}
}

void ssc_reconcile(const struct ssc_input *in, struct ssc_result *out)
{
	struct pass p;
	struct loop L;
	struct ret r;
	struct ssc_scratch scratch; /* the per-stage arrays when no keep holds them */
	size_t nstages = in->spec ? in->spec->nstages : 0;

	memset(out, 0, sizeof(*out));
	memset(&scratch, 0, sizeof(scratch));
	out->stage = SIZE_MAX;
	if (in->keep) {
		/* the keep's status lends its allocations; it holds a status again with ssc_result_keep() */
		out->status = in->keep->result;
		memset(&in->keep->result, 0, sizeof(in->keep->result));
	} else {
		sst_status_init(&out->status);
	}
	if (!in->ss) { /* not found */
		if (in->keep) {
			sst_status_release(&out->status);
			sst_status_init(&out->status);
		}
		out->exit = SSC_EXIT_NOT_FOUND;
		return;
	}
	memset(&p, 0, sizeof(p));
	p.in = in;
	p.ss = in->ss;
	p.spec = in->spec;
	p.env = in->env;
	p.cl = in->cluster;
	p.opt = in->opt;
	p.out = out;
	p.clk.now_ms = in->now_ms;
	p.clk.start_ms = in->now_ms;
	if (in->keep) {
		p.st = in->keep->work;
		memset(&in->keep->work, 0, sizeof(in->keep->work));
		sst_status_assign(&p.st, in->prior);
		p.snap = in->keep->ready_snapshot;
		memset(&in->keep->ready_snapshot, 0, sizeof(in->keep->ready_snapshot));
	} else {
		sst_status_copy(&p.st, in->prior);
	}
	p.sc = in->keep ? &in->keep->scratch : &scratch;
	p.runtimes = p.sc->runtimes;
	loop_init(&L, nstages, p.sc);

	reconcile(&p, &L, &r);

	if (L.lifetime && L.lifetime->dirty) {
		out->ledger = act_stage_ledger_to_val(L.lifetime);
		out->ledger_create = L.lifetime->created;
	}
	if (L.desired_to_out) {
		out->desired = L.plan.desired;
		L.plan.desired = NULL;
	}
	loop_release(&L, nstages);

	out->elapsed_ms = p.clk.now_ms - p.clk.start_ms;
	if (p.patched)
		out->write_status = !sst_status_equal(&out->status, in->prior);
	else
		sst_status_assign(&out->status, in->prior);
	if (r.err != LE_NONE) {
		out->requeue = SSC_REQUEUE_ERROR;
		out->requeue_after_ms = 0;
		snprintf(out->error, sizeof(out->error), "%s", r.msg);
	} else if (r.requeue) {
		out->requeue = SSC_REQUEUE_RATE_LIMITED;
	} else if (r.requeue_after > 0) {
		out->requeue = r.jitter ? SSC_REQUEUE_AFTER_JITTERED : SSC_REQUEUE_AFTER;
		out->requeue_after_ms = r.requeue_after;
	} else {
		out->requeue = SSC_REQUEUE_NONE;
	}
	if (in->keep) {
		in->keep->work = p.st;
		in->keep->ready_snapshot = p.snap;
	} else {
		sst_status_release(&p.st);
		sst_condition_release(&p.snap);
		scratch_release(&scratch);
	}
}

void ssc_keep_init(struct ssc_keep *k)
{
	memset(k, 0, sizeof(*k));
}

void ssc_keep_release(struct ssc_keep *k)
{
	if (!k)
		return;
	sst_status_release(&k->work);
	sst_status_release(&k->result);
	scratch_release(&k->scratch);
	sst_condition_release(&k->ready_snapshot);
	memset(&k->ready_snapshot, 0, sizeof(k->ready_snapshot));
}

void ssc_result_keep(struct ssc_result *r, struct ssc_keep *k)
{
	if (!r)
		return;
	sst_status_release(&k->result);
	k->result = r->status;
	memset(&r->status, 0, sizeof(r->status));
	ssc_result_release(r);
}

void ssc_result_release(struct ssc_result *r)
{
	if (!r)
		return;
	sst_status_release(&r->status);
	ssc_events_release(&r->events);
	free(r->desired);
	val_free(r->ledger);
	strv_free(r->inventory_written, r->ninventory_written);
	strv_free(r->inventory_deleted, r->ninventory_deleted);
	for (size_t i = 0; i < r->nquirks; i++)
		free(r->quirks[i].text);
	free(r->quirks);
	memset(r, 0, sizeof(*r));
}
