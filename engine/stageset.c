/*
 * StageSet version planning and approval (spec §3.2-3.4) and the semantic
 * versions of Masterminds/semver v3.5.0.  See engine/stageset.h.
 */
#include "engine/stageset.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"

#define ERR_INVALID "invalid semantic version"
#define ERR_ZERO "version segment starts with 0"

static bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

/* [0-9A-Za-z-] */
static bool is_ident_char(int c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-';
}

static void set_err(char *err, size_t errlen, const char *text)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", text);
}

/*
 * Dot-separated non-empty identifiers of [0-9A-Za-z-] starting at s[*i];
 * advances *i past them.  Returns false when the first is empty.
 */
static bool scan_idents(const char *s, size_t *i)
{
	size_t p = *i;
	for (;;) {
		size_t start = p;
		while (is_ident_char((unsigned char)s[p]))
			p++;
		if (p == start)
			return false;
		if (s[p] != '.' || !is_ident_char((unsigned char)s[p + 1]))
			break;
		p++;
	}
	*i = p;
	return true;
}

/* strconv.ParseUint(s[0..n), 10, 64) for all-digit text; false on overflow. */
static bool parse_u64(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	*out = v;
	return true;
}

static bool all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_digit((unsigned char)s[i]))
			return false;
	return n > 0;
}

int ss_semver_parse(const char *s, struct ss_semver *out, char *err, size_t errlen)
{
	struct ss_semver v;
	size_t i = 0, seg[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };

	assert(s && out);
	memset(&v, 0, sizeof(v));
	/* looseSemVerRegex, anchored at both ends */
	if (s[i] == 'v')
		i++;
	for (int k = 0; k < 3; k++) {
		if (k > 0) {
			if (s[i] != '.' || !is_digit((unsigned char)s[i + 1]))
				break;
			i++;
		}
		seg[k][0] = i;
		if (!is_digit((unsigned char)s[i])) {
			set_err(err, errlen, ERR_INVALID);
			return SS_EINVAL;
		}
		while (is_digit((unsigned char)s[i]))
			i++;
		seg[k][1] = i - seg[k][0];
	}
	if (s[i] == '-') {
		size_t start = ++i;
		if (!scan_idents(s, &i)) {
			set_err(err, errlen, ERR_INVALID);
			return SS_EINVAL;
		}
		v.pre = s + start;
		v.npre = i - start;
	}
	if (s[i] == '+') {
		size_t start = ++i;
		if (!scan_idents(s, &i)) {
			set_err(err, errlen, ERR_INVALID);
			return SS_EINVAL;
		}
		v.meta = s + start;
		v.nmeta = i - start;
	}
	if (s[i] != '\0') {
		set_err(err, errlen, ERR_INVALID);
		return SS_EINVAL;
	}
	/* the numbers: ParseUint, leading zeros accepted (CoerceNewVersion) */
	uint64_t *dst[3] = { &v.major, &v.minor, &v.patch };
	for (int k = 0; k < 3; k++) {
		if (seg[k][1] == 0)
			continue;
		if (!parse_u64(s + seg[k][0], seg[k][1], dst[k])) {
			if (err && errlen)
				snprintf(err, errlen,
					 "error parsing version segment: strconv.ParseUint: parsing \"%.*s\": value out of range",
					 (int)seg[k][1], s + seg[k][0]);
			return SS_EINVAL;
		}
	}
	/* validatePrerelease: numeric identifiers without leading zeros */
	for (size_t p = 0; p < v.npre;) {
		size_t q = p;
		while (q < v.npre && v.pre[q] != '.')
			q++;
		if (all_digits(v.pre + p, q - p) && q - p > 1 && v.pre[p] == '0') {
			set_err(err, errlen, ERR_ZERO);
			return SS_EINVAL;
		}
		p = q + 1;
	}
	*out = v;
	return SS_OK;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b ? 1 : 0;
}

/* comparePrePart over s[0..ns) and o[0..no); length 0 is Go's "". */
static int compare_pre_part(const char *s, size_t ns, const char *o, size_t no)
{
	uint64_t si = 0, oi = 0;
	if (ns == no && memcmp(s, o, ns) == 0)
		return 0;
	if (ns == 0)
		return -1;
	if (no == 0)
		return 1;
	bool o_num = all_digits(o, no) && parse_u64(o, no, &oi);
	bool s_num = all_digits(s, ns) && parse_u64(s, ns, &si);
	if (!o_num && !s_num) {
		/* Go string comparison: bytewise, a prefix ranks lower */
		size_t n = ns < no ? ns : no;
		int c = memcmp(s, o, n);
		if (c != 0)
			return c > 0 ? 1 : -1;
		return ns > no ? 1 : -1;
	}
	if (!o_num)
		return -1;
	if (!s_num)
		return 1;
	return si > oi ? 1 : -1;
}

int ss_semver_compare(const struct ss_semver *a, const struct ss_semver *b)
{
	int d;
	if ((d = cmp_u64(a->major, b->major)) != 0)
		return d;
	if ((d = cmp_u64(a->minor, b->minor)) != 0)
		return d;
	if ((d = cmp_u64(a->patch, b->patch)) != 0)
		return d;
	if (a->npre == 0 && b->npre == 0)
		return 0;
	if (a->npre == 0)
		return 1;
	if (b->npre == 0)
		return -1;
	/* comparePrerelease: identifier by identifier, a missing one is "" */
	size_t pa = 0, pb = 0;
	bool ea = false, eb = false; /* past the last identifier */
	while (!ea || !eb) {
		size_t qa = pa, qb = pb;
		const char *sa = "", *sb = "";
		size_t na = 0, nb = 0;
		if (!ea) {
			while (qa < a->npre && a->pre[qa] != '.')
				qa++;
			sa = a->pre + pa;
			na = qa - pa;
		}
		if (!eb) {
			while (qb < b->npre && b->pre[qb] != '.')
				qb++;
			sb = b->pre + pb;
			nb = qb - pb;
		}
		if ((d = compare_pre_part(sa, na, sb, nb)) != 0)
			return d;
		if (!ea) {
			if (qa >= a->npre)
				ea = true;
			pa = qa + 1;
		}
		if (!eb) {
			if (qb >= b->npre)
				eb = true;
			pb = qb + 1;
		}
	}
	return 0;
}

char *ss_semver_string(const struct ss_semver *v)
{
	return xasprintf("%llu.%llu.%llu%s%.*s%s%.*s", (unsigned long long)v->major,
			 (unsigned long long)v->minor, (unsigned long long)v->patch, v->npre ? "-" : "",
			 (int)v->npre, v->npre ? v->pre : "", v->nmeta ? "+" : "", (int)v->nmeta,
			 v->nmeta ? v->meta : "");
}

static bool empty(const char *s)
{
	return !s || !*s;
}

const char *ss_rollback_directive(const char *rollback_to, const char *status_version)
{
	struct ss_semver rb, cur;
	if (empty(rollback_to) || empty(status_version))
		return NULL;
	if (ss_semver_parse(rollback_to, &rb, NULL, 0) != SS_OK)
		return NULL;
	if (ss_semver_parse(status_version, &cur, NULL, 0) != SS_OK)
		return NULL;
	return ss_semver_compare(&rb, &cur) < 0 ? rollback_to : NULL;
}

static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

char *ss_resolve_desired_version(const char *offered, const char *status_version, const char *rollback_to,
				 bool *directed)
{
	if (directed)
		*directed = false;
	/* resolveDesiredVersion: spec.version.value "" means no value at all */
	if (empty(offered))
		return NULL;
	const char *rb = ss_rollback_directive(rollback_to, status_version);
	if (rb) {
		if (directed)
			*directed = true;
		return xstrdup(rb);
	}
	size_t b = 0, e = strlen(offered);
	while (b < e && is_space((unsigned char)offered[b]))
		b++;
	while (e > b && is_space((unsigned char)offered[e - 1]))
		e--;
	return xstrndup(offered + b, e - b);
}

bool ss_version_approval_needed(enum ss_approval_mode mode, const struct ss_plan *plan, const char *current_version)
{
	if (!plan || !plan->versioned || plan->baseline)
		return false;
	switch (mode) {
	case SS_APPROVAL_ALWAYS:
		return strcmp(plan->desired ? plan->desired : "", current_version ? current_version : "") != 0;
	case SS_APPROVAL_ON_MIGRATIONS:
		return plan->npending > 0;
	case SS_APPROVAL_NEVER:
	default:
		return false;
	}
}

char *ss_decorate_message(const char *reason, const char *message)
{
	if (strcmp(reason, SS_REASON_SUCCEEDED) == 0 || strcmp(reason, SS_REASON_SUSPENDED) == 0)
		return xstrdup(message);
	char *lower = xstrdup(reason);
	for (char *p = lower; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	char *out = xasprintf("%s (runbook: %s%s/)", message, SS_RUNBOOK_BASE, lower);
	free(lower);
	return out;
}

char *ss_succeeded_message(size_t nstages)
{
	return xasprintf("Applied and verified %zu stage(s)", nstages);
}

const char *ss_outcome_name(enum ss_outcome o)
{
	switch (o) {
	case SS_OUT_UNVERSIONED: return "Unversioned";
	case SS_OUT_REFUSED: return "Refused";
	case SS_OUT_AWAITING_APPROVAL: return "AwaitingApproval";
	case SS_OUT_PROCEED_BASELINE: return "Baseline";
	case SS_OUT_PROCEED_NO_CHANGE: return "NoChange";
	case SS_OUT_PROCEED_UPGRADE: return "Upgrade";
	case SS_OUT_PROCEED_DOWNGRADE: return "Downgrade";
	}
	return "?";
}

/* A refused plan: Ready False @reason, pendingVersion untouched, no event. */
static void refuse(struct ss_plan *out, const struct ss_member *m, const char *reason, char *msg)
{
	out->outcome = SS_OUT_REFUSED;
	out->writes_ready = true;
	out->ready_status = "False";
	out->reason = reason;
	out->message = ss_decorate_message(reason, msg);
	free(msg);
	free(out->pending_version);
	out->pending_version = xstrdup(m->pending_version ? m->pending_version : "");
	out->requeue_after_ms = SS_PERMANENT_RETRY_MS;
	free(out->pending);
	out->pending = NULL;
	out->npending = 0;
}

/* ValidateLadder for the modelled fields: count cap, name, to, unique names. */
static char *validate_ladder(const struct ss_member *m)
{
	char err[200];
	if (m->nmigrations > 200)
		return xasprintf("migration ladder has %zu migrations, exceeding the limit of %d", m->nmigrations, 200);
	for (size_t i = 0; i < m->nmigrations; i++) {
		const struct ss_migration *g = &m->migrations[i];
		struct ss_semver v;
		if (empty(g->name))
			return xstrdup("a migration has an empty name");
		char *qn = lbl_go_quote(g->name);
		if (empty(g->to)) {
			char *r = xasprintf("migration %s has an empty to", qn);
			free(qn);
			return r;
		}
		if (ss_semver_parse(g->to, &v, err, sizeof(err)) != SS_OK) {
			char *qt = lbl_go_quote(g->to);
			char *r = xasprintf("migration %s has an invalid to %s: %s", qn, qt, err);
			free(qt);
			free(qn);
			return r;
		}
		for (size_t j = 0; j < i; j++) {
			if (strcmp(m->migrations[j].name, g->name) == 0) {
				char *r = xasprintf("duplicate migration name %s; names are the idempotency-ledger key and must be unique",
						    qn);
				free(qn);
				return r;
			}
		}
		free(qn);
	}
	return NULL;
}

/*
 * Select (@down false: current < to <= desired, ascending) or SelectDown
 * (@down true: desired < to <= current, descending); stable for equal to.
 * The ladder has been validated, so every `to` parses.
 */
static void select_migrations(const struct ss_member *m, const struct ss_semver *cur, const struct ss_semver *des,
			      bool down, struct ss_plan *out)
{
	struct ss_semver *to = xcalloc(m->nmigrations ? m->nmigrations : 1, sizeof(*to));
	size_t n = 0;
	out->pending = xcalloc(m->nmigrations ? m->nmigrations : 1, sizeof(size_t));
	for (size_t i = 0; i < m->nmigrations; i++) {
		int rc = ss_semver_parse(m->migrations[i].to, &to[i], NULL, 0);
		assert(rc == SS_OK);
		(void)rc;
		bool crossed = down ? ss_semver_compare(&to[i], des) > 0 && ss_semver_compare(&to[i], cur) <= 0
				    : ss_semver_compare(&to[i], cur) > 0 && ss_semver_compare(&to[i], des) <= 0;
		if (!crossed)
			continue;
		/* insertion sort keeps ladder order among equal targets */
		size_t k = n;
		while (k > 0) {
			int c = ss_semver_compare(&to[out->pending[k - 1]], &to[i]);
			if (down ? c >= 0 : c <= 0)
				break;
			out->pending[k] = out->pending[k - 1];
			k--;
		}
		out->pending[k] = i;
		n++;
	}
	out->npending = n;
	free(to);
}

void ss_plan_compute(const struct ss_member *m, struct ss_plan *out)
{
	struct ss_semver des, cur;
	char err[200];
	const char *current = m->status_version ? m->status_version : "";

	assert(m && out);
	memset(out, 0, sizeof(*out));
	out->pending_version = xstrdup(m->pending_version ? m->pending_version : "");

	if (!m->versioned) {
		out->outcome = SS_OUT_UNVERSIONED;
		goto out_gate;
	}
	out->desired = ss_resolve_desired_version(m->offered, current, m->rollback_to, &out->directed);
	if (!out->desired) {
		refuse(out, m, SS_REASON_INVALID_VERSION,
		       xstrdup("invalid version: spec.version sets none of value, fromObject, or fromArtifact"));
		return;
	}
	if (ss_semver_parse(out->desired, &des, err, sizeof(err)) != SS_OK) {
		char *q = lbl_go_quote(out->desired);
		refuse(out, m, SS_REASON_INVALID_VERSION, xasprintf("desired version %s is not a semver: %s", q, err));
		free(q);
		return;
	}
	out->versioned = true;
	if (*current == '\0') {
		out->baseline = true;
		out->outcome = SS_OUT_PROCEED_BASELINE;
		goto out_gate;
	}
	if (ss_semver_parse(current, &cur, err, sizeof(err)) != SS_OK) {
		char *q = lbl_go_quote(current);
		refuse(out, m, SS_REASON_INVALID_VERSION,
		       xasprintf("recorded status.version %s is not a semver: %s", q, err));
		free(q);
		return;
	}
	int c = ss_semver_compare(&des, &cur);
	if (c < 0) {
		/* planDowngrade */
		char *curs = ss_semver_string(&cur);
		if (!m->allow_downgrade) {
			refuse(out, m, SS_REASON_DOWNGRADE_NOT_ALLOWED,
			       xasprintf("desired version %s is below the deployed version %s and downgrades are not enabled; set spec.version.allowDowngrade to enable reversible downgrades",
					 out->desired, curs));
			free(curs);
			return;
		}
		out->downgrade = true;
		char *bad = validate_ladder(m);
		if (bad) {
			refuse(out, m, SS_REASON_INVALID_SPEC, bad);
			free(curs);
			return;
		}
		select_migrations(m, &cur, &des, true, out);
		for (size_t i = 0; i < out->npending; i++) {
			const struct ss_migration *g = &m->migrations[out->pending[i]];
			if (g->has_down)
				continue;
			char *qn = lbl_go_quote(g->name);
			refuse(out, m, SS_REASON_DOWNGRADE_REQUIRES_MIGRATION,
			       xasprintf("downgrade %s \xe2\x86\x92 %s crosses migration %s (to %s), which declares no down actions; it is irreversible",
					 curs, out->desired, qn, g->to));
			free(qn);
			free(curs);
			return;
		}
		free(curs);
		out->outcome = SS_OUT_PROCEED_DOWNGRADE;
		goto out_gate;
	}
	if (c == 0) {
		out->outcome = SS_OUT_PROCEED_NO_CHANGE;
		goto out_gate;
	}
	/* upgrade */
	char *bad = validate_ladder(m);
	if (bad) {
		refuse(out, m, SS_REASON_INVALID_SPEC, bad);
		return;
	}
	select_migrations(m, &cur, &des, false, out);
	if (m->require_migration_coverage && out->npending == 0 && des.major > cur.major) {
		refuse(out, m, SS_REASON_MIGRATION_COVERAGE_MISSING,
		       xasprintf("version crosses a major boundary %s \xe2\x86\x92 %s but no migration covers it, and requireMigrationCoverage is set",
				 current, out->desired));
		return;
	}
	out->outcome = SS_OUT_PROCEED_UPGRADE;

out_gate:
	/* the approval gate (SC:Reconcile) */
	if (m->versioned && ss_version_approval_needed(m->approval_mode, out, current) &&
	    strcmp(m->approved_version ? m->approved_version : "", out->desired) != 0) {
		char *detail = out->npending ? xasprintf(" (%zu pending migration(s))", out->npending) : xstrdup("");
		char *q = lbl_go_quote(out->desired);
		char *msg = xasprintf("version transition to %s is awaiting approval%s; set annotation %s=%s to proceed",
				      out->desired, detail, SS_ANN_APPROVED_VERSION, q);
		free(q);
		free(detail);
		out->outcome = SS_OUT_AWAITING_APPROVAL;
		out->writes_ready = true;
		out->ready_status = "False";
		out->reason = SS_REASON_AWAITING_APPROVAL;
		out->message = ss_decorate_message(SS_REASON_AWAITING_APPROVAL, msg);
		free(msg);
		free(out->pending_version);
		out->pending_version = xstrdup(out->desired);
		out->requeue_after_ms = SS_PERMANENT_RETRY_MS;
		/* emitReadyEvent: only when status or reason changes */
		if (!m->prev_ready_status || strcmp(m->prev_ready_status, "False") != 0 || !m->prev_ready_reason ||
		    strcmp(m->prev_ready_reason, SS_REASON_AWAITING_APPROVAL) != 0) {
			out->event = true;
			out->event_type = "Warning";
		}
		return;
	}
	free(out->pending_version);
	out->pending_version = xstrdup("");
}

void ss_plan_release(struct ss_plan *p)
{
	if (!p)
		return;
	free(p->desired);
	free(p->pending);
	free(p->message);
	free(p->pending_version);
	memset(p, 0, sizeof(*p));
}
