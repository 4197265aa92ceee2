/*
 * The StageSet controller in the world: see sim/wire/stageset_rc.h.
 *
 * StageSets are heap records (stable pointers) in the order first seen,
 * found by "ns/name" through a string index.  Each keeps the parsed spec of
 * its last (uid, generation) with a retained store snapshot (the parse
 * borrows the snapshot's spec tree), the parsed status of the last status
 * tree read (also retained), its inventory shards, its adoption attempts and
 * the index keys it is registered under.  Two indexes answer the watches'
 * map functions: dependents by dependency (W3) and StageSets by the sources
 * their stages name (W5, W6); both are supersets checked against the
 * candidate's current spec on look-up.  Modelled sources (those the store
 * does not hold) have one pending timer each at their next change.
 *
 * env.c-style callbacks (struct ssc_env) live in the second half; a pass's
 * context (struct pass_env) is on the reconcile's stack, so nothing a pass
 * asks outlives it but the world's own objects.
 */
#include "sim/wire/stageset_rc.h"
#include <math.h>
#include <stdio.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/labels.h"
#include "engine/sha256.h"
#include "engine/stageset_types.h"
#include "engine/strbuf.h"
#include "engine/threshold.h"
#include "engine/xalloc.h"
#include "sim/base/diag.h"
#include "sim/base/keybuf.h"
#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/rng.h"
#include "sim/core/timeline.h"
#include "sim/load/tzif.h"
#include "sim/load/yamlload.h"
#include "sim/models/stageset_world_gates.h"
#include "sim/models/stageset_world_sources.h"
#include "sim/models/stageset_world_stages.h"
#include "sim/wire/fleet_rc.h"
#include "sim/wire/stageset_rc_env.h"
#include "sim/wire/stageset_rc_inv.h"
#include "sim/wire/stageset_rc_rec.h"
#include "sim/wire/stageset_rc_watch.h"

bool ssrc_reuse_passes = true;

/* ---------------------------------------------------------------- the end of a pass */

static void notice(struct ssrc *r, enum tl_severity sev, const struct ssrr_member *m, const char *text)
{
	struct tl_objref ref = { SSRR_KIND_SS, m->ns, m->name, 0 };

	tl_notice_add(des_timeline(r->w), des_now(r->w), sev, text, &ref, 1);
}

/*
 * A Kubernetes Event of the pass on the timeline, about the StageSet (or
 * its StageLedger), as `kubectl get events` lists it: type, reason, note.
 */
static void record_event(struct ssrc *r, struct ssrr_member *m, const struct ssc_event *e)
{
	struct tl *tl = des_timeline(r->w);
	struct tl_rec rec;
	bool first = m->ev_tl != tl;

	/*
	 * The member's own strings are interned at its first event and kept
	 * (the same string always has the same id); the first event interns in
	 * the order every event did, so the table is the same.
	 */
	memset(&rec, 0, sizeof(rec));
	rec.t_ms = des_now(r->w);
	rec.kind = tl_intern(tl, e->on_ledger ? SSRR_KIND_LEDGER : SSRR_KIND_SS);
	if (first) {
		m->ev_tl = tl;
		m->ev_ns = tl_intern(tl, m->ns);
		m->ev_name = tl_intern(tl, m->name);
	}
	rec.ns = m->ev_ns;
	rec.name = m->ev_name;
	rec.change = TL_EVENT;
	rec.phase = tl_intern(tl, e->warning ? "Warning" : "Normal");
	rec.reason = tl_intern(tl, e->reason);
	rec.message = tl_intern(tl, e->note);
	if (first) {
		char buf[SSRR_KEY_STACK + 64];

		snprintf(buf, sizeof(buf), "reconcile " SSRC_CONTROLLER " %s", m->key);
		m->ev_cause = tl_intern(tl, buf);
	}
	rec.cause = m->ev_cause;
	tl_append_rec(tl, &rec);
}

/* W2: a shard write reaches the StageSet after the API latency. */
static void on_shard_event(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	struct ssrr_member *m = arg;

	(void)w;
	ctl_add(r->ctl, m->ns, m->name, 0, 0);
}

/* Forgets the kept shard of removed stage @stage of @m: it is no longer one the controller holds. */
static void forget_orphan(struct ssrr_member *m, const char *stage)
{
	for (size_t k = 0; k < m->norph; k++)
		if (m->orph[k].pruned_ms < 0 && strcmp(m->orph[k].stage, stage) == 0) {
			free((char *)m->orph[k].stage);
			memmove(&m->orph[k], &m->orph[k + 1], (m->norph - k - 1) * sizeof(*m->orph));
			m->norph--;
			return;
		}
}

/*
 * Records the shards of @m whose stage is no longer in its spec as of the
 * pass that ended at @now_ms (and forgets those whose stage is back: kept,
 * not pruned), or the deletion of shard @deleted (NULL: none) at @now_ms.
 */
static void track_orphans(struct ssrr_member *m, const char *deleted, int64_t now_ms)
{
	if (deleted) {
		for (size_t k = 0; k < m->norph; k++)
			if (m->orph[k].pruned_ms < 0 && strcmp(m->orph[k].stage, deleted) == 0)
				m->orph[k].pruned_ms = now_ms;
		return;
	}
	for (size_t i = 0; m->spec_ok && i < m->ninv; i++) {
		bool in_spec = false;

		for (size_t k = 0; k < m->spec.nstages && !in_spec; k++)
			in_spec = strcmp(m->spec.stages[k].name, m->inv[i].stage) == 0;
		if (in_spec && m->inv[i].orphaned) {
			/* its stage is back in the spec: the shard was kept, not pruned */
			m->inv[i].orphaned = false;
			forget_orphan(m, m->inv[i].stage);
		}
		if (in_spec || m->inv[i].orphaned)
			continue;
		m->inv[i].orphaned = true;
		m->orph = xreallocarray(m->orph, m->norph + 1, sizeof(*m->orph));
		m->orph[m->norph++] = (struct ssrc_orphan){ xstrdup(m->inv[i].stage), now_ms, -1 };
	}
}

/* The shards this pass (ended at @now_ms) wrote or deleted; returns whether any changed. */
static bool write_shards(struct ssrr_member *m, const struct ssrr_pass *pe, int64_t now_ms)
{
	bool changed = false;

	for (size_t i = 0; i < pe->res.ninventory_written; i++) {
		const char *stage = pe->res.inventory_written[i];
		int pos = -1;

		for (size_t k = 0; m->spec_ok && k < m->spec.nstages; k++)
			if (strcmp(m->spec.stages[k].name, stage) == 0)
				pos = (int)k;
		if (ssri_write(m, stage, pos, pe->res.exit, now_ms))
			changed = true;
	}
	for (size_t i = 0; i < pe->res.ninventory_deleted; i++)
		for (size_t k = 0; k < m->ninv; k++)
			if (strcmp(m->inv[k].stage, pe->res.inventory_deleted[i]) == 0) {
				track_orphans(m, m->inv[k].stage, now_ms);
				ssri_inv_clear(&m->inv[k]);
				m->inv[k] = m->inv[--m->ninv];
				changed = true;
				break;
			}
	track_orphans(m, NULL, now_ms);
	return changed;
}

static void write_ledger(struct ssrc *r, const struct ssrr_member *m, const struct val *ledger)
{
	const struct obj *cur = api_get(r->api, SSRR_KIND_LEDGER, m->ns, m->name);
	struct obj *o;

	if (!cur) {
		o = obj_new(SSRR_SS_API, SSRR_KIND_LEDGER, m->ns, m->name);
		o->spec = val_copy(val_map_get(ledger, "spec"));
		if (!o->spec || o->spec->type != VAL_MAP) {
			val_free(o->spec);
			o->spec = val_new_map();
		}
		api_create(r->api, o);
	} else {
		o = obj_copy(cur);
		o->resource_version = 0;
		val_free(o->spec);
		o->spec = val_copy(val_map_get(ledger, "spec"));
		if (!o->spec || o->spec->type != VAL_MAP) {
			val_free(o->spec);
			o->spec = val_new_map();
		}
		api_update(r->api, o);
	}
	o = obj_new(SSRR_SS_API, SSRR_KIND_LEDGER, m->ns, m->name);
	o->status = val_copy(val_map_get(ledger, "status"));
	if (o->status && o->status->type != VAL_MAP) {
		val_free(o->status);
		o->status = NULL;
	}
	api_update_status(r->api, o);
}

/* The fault windows of @m not yet told, as info notices at their onset. */
static void on_fault_notice(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	char *text = arg;
	char *tab = strchr(text, '\t'), *tab2 = tab ? strchr(tab + 1, '\t') : NULL;
	struct tl_objref ref;

	if (!tab || !tab2)
		return;
	*tab = *tab2 = '\0';
	ref = (struct tl_objref){ SSRR_KIND_SS, text, tab + 1, 0 };
	tl_notice_add(des_timeline(w), des_now(w), TL_INFO, tab2 + 1, &ref, 1);
	(void)r; /* the text is the adapter's (fault_texts) */
}

static void tell_faults(struct ssrc *r, struct ssrr_member *m)
{
	const struct sw_fault *f;
	size_t n = swst_member_faults(r->world, m->ns, m->name, &f);
	char dur[GOFMT_DURATION_LEN];

	for (size_t i = m->faults_told; i < n; i++) {
		int64_t at = f[i].start_ms > des_now(r->w) ? f[i].start_ms : des_now(r->w);
		char *text;

		if (f[i].scripted && f[i].start_ms < 0)
			continue; /* a resumed run's past regress: told in the run it came from */
		if (f[i].end_ms == SW_NEVER)
			snprintf(dur, sizeof(dur), "for good");
		else
			gofmt_duration_ms(f[i].end_ms - f[i].start_ms, dur);
		text = xasprintf("%s\t%s\tfault: the workload of %s%s%s %s %s%s (%s); the controller notices "
				 "it at its next verify",
				 m->ns, m->name, f[i].stage ? "stage \"" : "every stage", f[i].stage ? f[i].stage : "",
				 f[i].stage ? "\"" : "", f[i].effect == SCN_SW_EFFECT_FAILED ? "is Failed" : "is not ready",
				 f[i].end_ms == SW_NEVER ? "" : "for ", dur,
				 f[i].scripted ? "regress event" : "drawn regression");
		if (r->nfault_texts == r->capfault_texts) {
			r->capfault_texts = r->capfault_texts ? 2 * r->capfault_texts : 8;
			r->fault_texts = xreallocarray(r->fault_texts, r->capfault_texts, sizeof(*r->fault_texts));
		}
		r->fault_texts[r->nfault_texts++] = text;
		des_at(r->w, at, DES_PRIO_SCRIPT, on_fault_notice, r, text);
	}
	m->faults_told = n;
}

/*
 * A drift event @arg (the scenario's, borrowed) at its time: an info notice
 * naming the StageSets whose workload it edits, so the edit is on the
 * timeline where it happens and not only through the DriftCorrected that
 * may follow; one that reaches none says so.
 */
static void on_drift(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	const struct scn_fevent *e = arg;
	size_t n = api_list(r->api, SSRR_KIND_SS, NULL, NULL, NULL, &r->scratch), nref = 0;
	struct tl_objref *refs = xcalloc(n ? n : 1, sizeof(*refs));
	char what[160];
	char *text;

	for (size_t i = 0; i < n; i++) {
		const struct obj *o = r->scratch.items[i];

		if (swst_drift_reaches(r->world, e, o->ns, o->name))
			refs[nref++] = (struct tl_objref){ SSRR_KIND_SS, o->ns, o->name, 0 };
	}
	if (e->stage)
		snprintf(what, sizeof(what), "the workload of stage \"%s\"", e->stage);
	else
		snprintf(what, sizeof(what), "the workload of every stage");
	if (nref)
		text = xasprintf("drift: %s is edited out of band (scenario event %zu (drift)); the next apply "
				 "of the same revision puts it back and reports DriftCorrected, unless the "
				 "stage keeps the existing object (KeepExisting)",
				 what, e->index + 1);
	else if (e->by_selector)
		text = xasprintf("drift: scenario event %zu (drift) edits nothing: no StageSet%s%s matches "
				 "selector \"%s\" now",
				 e->index + 1, e->target.ns ? " of namespace " : "",
				 e->target.ns ? e->target.ns : "", e->selector_text ? e->selector_text : "");
	else
		text = xasprintf("drift: scenario event %zu (drift) edits nothing: StageSet %s/%s does not "
				 "exist now",
				 e->index + 1, e->target.ns ? e->target.ns : "default",
				 e->target.name ? e->target.name : "");
	tl_notice_add(des_timeline(w), des_now(w), TL_INFO, text, refs, nref);
	free(text);
	free(refs);
}

/* Appends to @b the stages of @m's shards with their entry counts: "a (3 entries), b (1 entry)". */
static void shard_list(struct strbuf *b, const struct ssrr_member *m)
{
	for (size_t i = 0; i < m->ninv; i++)
		strbuf_add_free(b, xasprintf("%s%s (%lld entr%s)", i ? ", " : "", m->inv[i].stage,
					     (long long)m->inv[i].entries, m->inv[i].entries == 1 ? "y" : "ies"));
}

/*
 * An inventory event @arg (the scenario's, borrowed) at its time: as
 * `kubectl delete stageinventory -l stages.metio.wtf/stage-set=<name>` in
 * the StageSet's namespace, every StageInventory shard of the StageSet is
 * deleted, and for a restore the backup's shards are created in their
 * place (upstream disaster_recovery_test.go deleteInventory,
 * restoreInventory).  The StageSet owns its shards, so the change wakes it
 * after the API latency (W2); its next pass reads what is there now
 * (R-18): a stage with no shard and an applied revision is reconstructed
 * and its prune deferred (R-20), a restored shard is pruned against at
 * once.  A past pass's kept result no longer stands for the next one.  An
 * info notice says what changed (or that the StageSet is gone).
 */
static void on_inventory(struct des *w, void *ctx, void *arg)
{
	struct ssrc *r = ctx;
	const struct scn_fevent *e = arg;
	const char *ns = e->target.ns, *name = e->target.name;
	struct ssrr_member *m = ssrr_member_find(r, ns, name);
	struct tl_objref ref = { SSRR_KIND_SS, ns, name, 0 };
	struct strbuf b = { 0 };
	size_t ndel, nadd = 0;
	char *deleted, *text;

	if (!api_get(r->api, SSRR_KIND_SS, ns, name) || !m) {
		text = xasprintf("inventory: scenario event %zu (inventory) changes nothing: StageSet %s/%s does "
				 "not exist now",
				 e->index + 1, ns, name);
		tl_notice_add(des_timeline(w), des_now(w), TL_WARNING, text, &ref, 1);
		free(text);
		return;
	}
	shard_list(&b, m);
	deleted = strbuf_take(&b);
	ndel = m->ninv;
	for (size_t i = 0; i < m->ninv; i++) {
		if (m->inv[i].orphaned)
			forget_orphan(m, m->inv[i].stage);
		ssri_inv_clear(&m->inv[i]);
	}
	m->ninv = 0;
	for (size_t i = 0; i < e->ninv_restore; i++) {
		const struct scn_inventory_shard *sh = &e->inv_restore[i];
		size_t before = m->ninv;

		ssri_add_shard(m, sh->stage, sh->entries, sh->ids, sh->nids);
		nadd += m->ninv > before;
	}
	m->memo = SSRR_MEMO_NONE;
	if (e->ninv_restore) {
		strbuf_add_free(&b, xasprintf("inventory: StageInventory restored from a backup (scenario event %zu "
					      "(inventory)): ",
					      e->index + 1));
		if (nadd)
			shard_list(&b, m);
		else
			strbuf_add(&b, "no shard");
		strbuf_add(&b, ", in place of ");
		strbuf_add(&b, ndel ? deleted : "none");
		if (nadd < e->ninv_restore)
			strbuf_add(&b, "; a shard of a stage no longer in the spec is not restored");
	} else {
		strbuf_add_free(&b, xasprintf("inventory: StageInventory deleted (scenario event %zu (inventory)): %s; "
					      "a stage with an applied revision and no shard is reconstructed from "
					      "the live objects by the next pass, which defers its prune",
					      e->index + 1, ndel ? deleted : "there was none"));
	}
	text = strbuf_take(&b);
	tl_notice_add(des_timeline(w), des_now(w), TL_INFO, text, &ref, 1);
	free(text);
	free(deleted);
	if (ndel || nadd)
		des_at(w, des_now(w) + r->latency_ms, DES_PRIO_DELIVERY, on_shard_event, r, m);
}

static void pass_drop(void *ctx, void *pass);

/* The store's resourceVersion of stage @i's source, 0 when the store does not hold it (modelled). */
static uint64_t source_rv(const struct ssrc *r, struct ssrr_member *m, size_t i, const char **kind,
			  const char **ns)
{
	const struct sst_source_ref *ref = &m->spec.stages[i].source_ref;
	const struct obj *o;

	*kind = ref->kind && ref->kind[0] ? ref->kind : SSRR_KIND_EA;
	*ns = ref->ns && ref->ns[0] ? ref->ns : m->ns;
	o = api_get_ref(r->api, *kind, *ns, ssrr_nz(ref->name), &m->src_ref[i]);
	return o ? o->resource_version : 0;
}

/*
 * What the memo's sources were at its pass (memo_t): per stage the store's
 * version of it (or, when the store held none, the kind's shape), and the
 * first change of a modelled one after that, as the world knows it now; a
 * StageLedger or StageInventory read error to come ends the memo too.
 */
static void memo_sources(struct ssrc *r, struct ssrr_member *m)
{
	m->memo_until = swg_read_errors_from(r->world, m->ns, m->name, m->memo_t);
	for (size_t i = 0; i < m->spec.nstages; i++) {
		const char *kind, *ns;

		m->memo_src[i] = source_rv(r, m, i, &kind, &ns);
		if (!m->memo_src[i]) {
			int64_t c = sws_source_next_change(r->world, kind, ns,
							  ssrr_nz(m->spec.stages[i].source_ref.name), m->memo_t);

			if (c < m->memo_until)
				m->memo_until = c;
		}
	}
	m->memo_epoch = r->world_epoch;
}

/*
 * Keeps what the next pass of @m will be when it is bound to be quiet: the
 * pass that just ended wrote no ledger and deleted no shard, noted no quirk,
 * and either held before the stages (AwaitingApproval, a refused plan) or
 * applied and verified every stage (Succeeded) on a spec without actions,
 * promotion, budgets or ready checks, staying on the version it read (a pass
 * that moved status.version is not its own successor: the next one plans
 * from the new version, and the annotations may ask for another, as a
 * rollback-to below the old version does).  Such a pass, run again on its own
 * status (its write, when it wrote, being the object's only change since the
 * read: @own_rv, else 0) with the same sources, writes and emits nothing:
 * the hold and the success tail set the same fields to the same values.  A
 * pass that wrote nothing stands for the next one the same way.
 */
static void memo_record(struct ssrc *r, struct ssrr_member *m, const struct ssrr_pass *pe, bool shards_changed,
			uint64_t own_rv)
{
	const struct ssc_result *res = &pe->res;
	bool quiet = !res->ledger && res->ninventory_deleted == 0 && res->nquirks == 0 &&
		     !res->add_finalizer && !res->remove_finalizer && (!res->write_status || own_rv);

	m->memo = SSRR_MEMO_NONE;
	if (!quiet)
		return;
	if (m->memo_spec && (res->exit == SSC_EXIT_APPROVAL || res->exit == SSC_EXIT_PLAN) &&
	    res->requeue == SSC_REQUEUE_AFTER && res->elapsed_ms == 0 && !res->desired &&
	    res->ninventory_written == 0 && !shards_changed)
		m->memo = SSRR_MEMO_HELD;
	else if (m->memo_steady_spec && res->exit == SSC_EXIT_SUCCEEDED &&
		 res->requeue == SSC_REQUEUE_AFTER_JITTERED && !api_get(r->api, SSRR_KIND_LEDGER, m->ns, m->name) &&
		 pe->stayed)
		m->memo = SSRR_MEMO_STEADY;
	if (m->memo == SSRR_MEMO_NONE)
		return;
	m->memo_rv = res->write_status ? own_rv : api_snap_obj(pe->read)->resource_version;
	m->memo_t = pe->start_ms;
	m->memo_exit = res->exit;
	m->memo_requeue = res->requeue;
	m->memo_after = res->requeue_after_ms;
	m->memo_elapsed = res->elapsed_ms;
	memo_sources(r, m);
}

/*
 * Whether a pass of @o at @now_ms would give the result kept in @m: the
 * same object version, no stage source changed since (the store's at the
 * same version, a modelled one with no change in between), and for a
 * steady pass every stage's re-apply steady again (swst_stage_steady()) at
 * the times the pass would make them, for the same time in all; then the
 * applies are counted in the world as the pass would have counted them.
 */
static bool memo_reuse(struct ssrc *r, struct ssrr_member *m, const struct obj *o, const struct sw_member *sm,
		       int64_t now_ms)
{
	int64_t t = now_ms, d;

	if (!ssrc_reuse_passes || m->memo == SSRR_MEMO_NONE || o->resource_version != m->memo_rv)
		return false;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		const char *kind, *ns;

		if (source_rv(r, m, i, &kind, &ns) != m->memo_src[i])
			return false;
	}
	if (m->memo_epoch != r->world_epoch) {
		/* StageSets told to the world since can move a modelled source's revisions */
		int64_t until = m->memo_until;

		memo_sources(r, m);
		if (until < m->memo_until)
			m->memo_until = until;
	}
	if (m->memo_until <= now_ms)
		return false;
	if (m->memo == SSRR_MEMO_HELD)
		return true;
	if (api_get(r->api, SSRR_KIND_LEDGER, m->ns, m->name))
		return false;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		if (!swst_stage_steady(r->world, sm, i, t, false, &d))
			return false;
		t += d;
	}
	if (t - now_ms != m->memo_elapsed)
		return false;
	t = now_ms;
	for (size_t i = 0; i < m->spec.nstages; i++) {
		swst_stage_steady(r->world, sm, i, t, true, &d);
		t += d;
	}
	return true;
}

static void pass_end_fn(void *ctx, struct des *w, const char *ns, const char *name, int64_t now_ms,
			struct ctl_result *res)
{
	struct ssrc *r = ctx;
	struct ssrr_pass *pe = res->pass;
	struct ssrr_member *m;
	const struct obj *cur;
	bool shards_changed;
	uint64_t own_rv;
	int err = 0;

	/*
	 * No pass ran: the object is gone (R-1, a deleted StageSet's key still
	 * queued) or its spec cannot be decoded; nothing to write, no requeue.
	 */
	if (!pe)
		return;
	m = pe->m;
	m->in_pass = false;
	res->pass = NULL;
	/* what needs the status as read, before the write below replaces its parse */
	pe->stayed = pe->res.desired && strcmp(pe->res.desired, ssrr_nz(pe->prior_version)) == 0;
	ssrw_track_attempt(m, pe, now_ms);
	/* R-3 / R-2: the finalizer */
	if (pe->res.add_finalizer || pe->res.remove_finalizer) {
		cur = api_get(r->api, SSRR_KIND_SS, ns, name);
		if (cur) {
			/* the metadata alone changes: api_update() only compares and keeps the trees */
			struct obj *u = obj_copy_sharing(cur);

			u->resource_version = 0;
			if (pe->res.add_finalizer)
				obj_add_finalizer(u, SSC_FINALIZER);
			else
				obj_remove_finalizer(u, SSC_FINALIZER);
			if (api_update(r->api, u) != 0)
				err = -1;
		}
	}
	/* patchStatus: the difference to what the pass read */
	own_rv = 0;
	if (pe->res.write_status && (cur = api_get(r->api, SSRR_KIND_SS, ns, name))) {
		/* m->prior is the parse of the status the pass read (pe->read's) */
		struct val *patch = sst_status_patch(&m->prior, &pe->res.status);
		bool untouched = cur->resource_version == api_snap_obj(pe->read)->resource_version;

		if (patch && api_patch_status(r->api, SSRR_KIND_SS, ns, name, patch) != 0)
			err = -1;
		/* nobody wrote between the read and this write: the version now is the pass's own */
		cur = api_get(r->api, SSRR_KIND_SS, ns, name);
		if (!err && untouched && cur) {
			struct api_snap *now = api_get_snap(r->api, SSRR_KIND_SS, ns, name);

			own_rv = cur->resource_version;
			/*
			 * The stored status is the one the pass computed: it is the
			 * parse the next pass needs, so keep it instead of parsing it
			 * back (and hold the current version, not an older one).  The
			 * parse it replaces goes back to the keep with the result.
			 */
			struct sst_status old = m->prior;

			m->prior = pe->res.status;
			pe->res.status = old;
			api_snap_retain(now);
			api_snap_release(m->st_snap);
			m->st_snap = now;
			m->has_prior = true;
		}
		val_free(patch);
	}
	if (pe->res.ledger)
		write_ledger(r, m, pe->res.ledger);
	if (m->nborn || m->ndeleted) {
		char cause[SSRR_KEY_STACK + 64];

		snprintf(cause, sizeof(cause), "reconcile " SSRC_CONTROLLER " %s", m->key);
		ssri_tell(m, des_timeline(w), now_ms, cause);
	}
	shards_changed = write_shards(m, pe, now_ms);
	if (shards_changed)
		des_at(w, now_ms + r->latency_ms, DES_PRIO_DELIVERY, on_shard_event, r, m);
	for (size_t i = 0; i < pe->res.events.n; i++)
		record_event(r, m, &pe->res.events.items[i]);
	for (size_t i = 0; i < pe->res.nquirks; i++) {
		int q = pe->res.quirks[i].quirk;

		if (q >= 0 && q < 64) {
			uint32_t bit = UINT32_C(1) << (q % 32);

			if (r->told_quirks[q / 32] & bit)
				continue;
			r->told_quirks[q / 32] |= bit;
		}
		notice(r, TL_INFO, m, pe->res.quirks[i].text);
	}
	if (!pe->memo)
		tell_faults(r, m); /* a memo pass drew nothing new */
	if (!pe->memo)
		memo_record(r, m, pe, shards_changed, own_rv);

	res->err = 0;
	res->requeue = false;
	res->requeue_after_ms = 0;
	m->last_no_requeue = !err && pe->res.requeue == SSC_REQUEUE_NONE;
	if (err) {
		res->err = -1;
	} else {
		switch (pe->res.requeue) {
		case SSC_REQUEUE_NONE:
			break;
		case SSC_REQUEUE_AFTER:
			res->requeue_after_ms = pe->res.requeue_after_ms;
			break;
		case SSC_REQUEUE_AFTER_JITTERED: {
			struct rng g;
			char id[SSRR_KEY_STACK + 32];
			char *p = id;
			uint32_t k = ++m->requeues;
			char num[12];
			size_t nd = 0, lk = strlen(m->key);
			double u;

			if (lk + 32 > sizeof(id)) {
				char *long_id = xasprintf("stageset/%s/requeue#%u", m->key, k);

				rng_stream(&g, r->seed, r->trial, long_id);
				free(long_id);
			} else {
				memcpy(p, "stageset/", 9);
				p += 9;
				memcpy(p, m->key, lk);
				p += lk;
				memcpy(p, "/requeue#", 9);
				p += 9;
				do
					num[nd++] = (char)('0' + k % 10);
				while ((k /= 10) > 0);
				while (nd > 0)
					*p++ = num[--nd];
				*p = '\0';
				rng_stream(&g, r->seed, r->trial, id);
			}
			u = rng_uniform01(&g);
			res->requeue_after_ms =
				llround((double)pe->res.requeue_after_ms * (1.0 - SSC_JITTER_FRACTION +
									     2.0 * SSC_JITTER_FRACTION * u));
			break;
		}
		case SSC_REQUEUE_RATE_LIMITED:
			res->requeue = true;
			break;
		case SSC_REQUEUE_ERROR:
			res->err = -1;
			if (!pe->res.write_status && pe->res.exit == SSC_EXIT_PLAN) {
				/* R-13: a transient error that writes nothing (StageSet spec §5 Q-23) */
				if (m->silent_errors++ == 0) {
					m->silent_first_ms = pe->start_ms;
					snprintf(m->silent_error, sizeof(m->silent_error), "%s", pe->res.error);
				}
				m->silent_last_ms = pe->start_ms;
			} else if (!pe->res.write_status && pe->res.exit == SSC_EXIT_LEDGER_ERROR) {
				/* R-17, R-18: a StageLedger or StageInventory read error, the same */
				if (m->read_errors++ == 0) {
					m->read_first_ms = pe->start_ms;
					snprintf(m->read_error, sizeof(m->read_error), "%s", pe->res.error);
				}
				m->read_last_ms = pe->start_ms;
			}
			break;
		}
	}
	pass_drop(r, pe);
}

/* Releases what the pass in @pass holds; the struct stays with its member for the next pass. */
static void pass_drop(void *ctx, void *pass)
{
	struct ssrr_pass *pe = pass;

	(void)ctx;
	if (!pe)
		return;
	if (!pe->memo)
		ssc_result_keep(&pe->res, &pe->keep);
	api_snap_release(pe->read);
	pe->read = NULL;
}

/* ---------------------------------------------------------------- the reconcile */

/*
 * Counts @res when the pass ended held for approval (R-14, requeued after
 * 1m): Q-3's polls of held members, for the run's pacing notices.
 */
static void count_approval(const struct ssrc *r, struct ssrr_member *m, const struct ssc_result *res,
			   int64_t now_ms)
{
	if (res->exit != SSC_EXIT_APPROVAL)
		return;
	if (!m->approval_passes++)
		m->approval_first_ms = now_ms;
	m->approval_last_ms = now_ms;
	m->approval_busy_ms += r->reconcile_ms + res->elapsed_ms;
}

/* What each stage of @m runs in the world as its pass begins (ssrc_params.keep_pass_starts). */
static void keep_pass_start(struct ssrc *r, struct ssrr_member *m)
{
	for (size_t k = 0; k < m->nstart; k++) {
		free(m->start_rev[k]);
		free(m->start_ver[k]);
	}
	m->nstart = m->spec.nstages;
	m->start_rev = xreallocarray(m->start_rev, m->nstart ? m->nstart : 1, sizeof(*m->start_rev));
	m->start_ver = xreallocarray(m->start_ver, m->nstart ? m->nstart : 1, sizeof(*m->start_ver));
	for (size_t k = 0; k < m->nstart; k++) {
		const char *rev, *ver;
		bool runs = swst_running(r->world, m->ns, m->name, ssrr_nz(m->spec.stages[k].name), &rev, &ver);

		m->start_rev[k] = runs ? xstrdup(rev) : NULL;
		m->start_ver[k] = runs && ver ? xstrdup(ver) : NULL;
	}
	m->in_pass = true;
}

static struct ctl_result reconcile(void *ctx, struct des *w, const char *ns, const char *name, int64_t now_ms)
{
	struct ssrc *r = ctx;
	struct ctl_result res = { 0 };
	struct ssrr_member *m = ssrr_member_of_key(r, ns, name);
	struct api_snap *snap = api_get_snap_ref(r->api, SSRR_KIND_SS, ns, name, &m->ref);
	const struct obj *o;
	struct ssre_pass env_ctx;
	struct ssc_env env;
	struct ssc_cluster cl;
	struct ssc_input in;
	struct ssrr_pass *pe;
	const char *rb;
	bool changed;

	if (!snap)
		return res; /* R-1: not found */
	o = api_snap_obj(snap);
	m->gone = false;
	m->passes++;
	m->last_pass_ms = now_ms;
	if (ctl_busy(r->ctl) > r->busy_peak)
		r->busy_peak = ctl_busy(r->ctl);
	changed = ssrr_ensure_spec(m, snap);
	if (changed)
		ssrr_register_member(r, m);
	if (!m->spec_ok)
		return res; /* the API server refuses such objects: nothing a pass could decode */
	if (r->keep_pass_starts)
		keep_pass_start(r, m);
	ssrw_world_see(r, m, o, now_ms, changed);

	if (!m->pe)
		m->pe = xcalloc(1, sizeof(*m->pe));
	pe = m->pe;
	pe->m = m;
	pe->start_ms = now_ms;
	pe->read = api_snap_retain(snap);
	pe->prior_version = "";
	memset(&env_ctx, 0, sizeof(env_ctx));
	env_ctx.wait_stage = SIZE_MAX;
	ssrw_fill_sw_member(r, m, o, &env_ctx.sm);
	pe->memo = memo_reuse(r, m, o, &env_ctx.sm, now_ms);
	if (pe->memo) {
		/* the same inputs as the pass before: its result, without running it again */
		memset(&pe->res, 0, sizeof(pe->res));
		pe->res.exit = m->memo_exit;
		pe->res.stage = SIZE_MAX;
		pe->res.elapsed_ms = m->memo_elapsed;
		pe->res.requeue = m->memo_requeue;
		pe->res.requeue_after_ms = m->memo_after;
		pe->directed = false;
		res.busy_ms = pe->res.elapsed_ms;
		res.pass = pe;
		count_approval(r, m, &pe->res, now_ms);
		return res;
	}

	ssrr_ensure_prior(m, snap);
	pe->prior_version = m->prior.version;
	env_ctx.sm.ns_labels = ssrw_ns_labels(r, m->ns);
	env_ctx.r = r;
	env_ctx.m = m;
	env_ctx.ss = o;
	env_ctx.deletion_ms = o->deletion_ms < 0 && m->deletion_ms >= now_ms ? m->deletion_ms : -1;

	ssre_bind(&env_ctx, &env, &cl);

	memset(&in, 0, sizeof(in));
	in.ss = o;
	in.spec = &m->spec;
	in.prior = &m->prior;
	in.keep = &pe->keep;
	in.now_ms = r->start_unix_ms + now_ms;
	in.anchor_ms = r->start_unix_ms;
	in.opt = &r->opt;
	in.env = &env;
	in.cluster = &cl;
	ssc_reconcile(&in, &pe->res);

	rb = obj_strmap_get(&o->annotations, SSC_ANN_ROLLBACK_TO);
	pe->directed = pe->res.desired && rb && strcmp(rb, pe->res.desired) == 0;
	res.busy_ms = pe->res.elapsed_ms;
	res.pass = pe;
	count_approval(r, m, &pe->res, now_ms);
	(void)w;
	return res;
}

/* ---------------------------------------------------------------- public */

struct ssrc *ssrc_register(struct des *w, const struct ssrc_params *p)
{
	struct ssrc *r = xcalloc(1, sizeof(*r));
	size_t n;

	r->w = w;
	r->api = des_api(w);
	r->world = p->world;
	r->start_unix_ms = p->start_unix_ms;
	r->shards = p->shards;
	r->nshards = p->nshards;
	for (size_t i = 0; i < r->nshards; i++) {
		char buf[256], *key = kb_join2(buf, sizeof(buf), r->shards[i].ns, r->shards[i].name);
		size_t at;

		if (!si_get(&r->shard_ix, key, &at))
			si_put(&r->shard_ix, key, i);
		kb_drop(key, buf);
	}
	r->keep_pass_starts = p->keep_pass_starts;
	r->latency_ms = des_params(w)->api_latency_ms;
	r->reconcile_ms = des_params(w)->reconcile_ms;
	r->seed = p->seed;
	r->trial = p->trial;
	r->opt = p->opt;
	r->nhosts = p->nallowed_action_hosts;
	r->hosts = xcalloc(r->nhosts ? r->nhosts : 1, sizeof(*r->hosts));
	for (size_t i = 0; i < r->nhosts; i++)
		r->hosts[i] = xstrdup(p->allowed_action_hosts[i]);
	r->opt.allowed_action_hosts_set = r->nhosts > 0;
	tzif_cache_init(&r->tz, NULL);
	api_list_init(&r->scratch);
	r->del_ms = xcalloc(p->ndeletions ? p->ndeletions : 1, sizeof(*r->del_ms));
	for (size_t i = 0; i < p->ndeletions; i++) {
		size_t pos;

		if (si_get(&r->del_ix, p->deletion_keys[i], &pos)) {
			if (p->deletion_ms[i] < r->del_ms[pos])
				r->del_ms[pos] = p->deletion_ms[i];
			continue;
		}
		r->del_ms[i] = p->deletion_ms[i];
		si_put(&r->del_ix, p->deletion_keys[i], i);
	}

	/* the adapter's own watches first: the indexes are current when the map functions run */
	api_watch(r->api, SSRR_KIND_SS, ssrw_on_stageset, r);
	api_watch(r->api, SSRR_KIND_NS, ssrw_on_namespace, r);

	r->ctl = ctl_new(w, SSRC_CONTROLLER, reconcile, r);
	ctl_set_workers(r->ctl, SSC_CONCURRENT_RECONCILES);
	ctl_set_end(r->ctl, pass_end_fn, pass_drop);
	ctl_for(r->ctl, SSRR_KIND_SS, ssrw_pred_stageset, NULL);
	ctl_watches(r->ctl, SSRR_KIND_SS, ssrw_map_dependents, r, NULL, NULL);
	ctl_watches(r->ctl, SSRR_KIND_LEDGER, ssrw_map_same_name, r, NULL, NULL);
	ctl_watches(r->ctl, SSRR_KIND_EA, ssrw_map_external_artifact, r, NULL, NULL);
	ctl_watches(r->ctl, "GitRepository", ssrw_map_producer, r, NULL, NULL);
	ctl_watches(r->ctl, "OCIRepository", ssrw_map_producer, r, NULL, NULL);
	ctl_watches(r->ctl, "Bucket", ssrw_map_producer, r, NULL, NULL);

	/* the StageSets already stored: the world sees them at 0, their sources are armed */
	n = api_list(r->api, SSRR_KIND_SS, NULL, NULL, NULL, &r->scratch);
	{
		char **keys = xcalloc(n ? n : 1, sizeof(*keys));

		for (size_t i = 0; i < n; i++)
			keys[i] = xasprintf("%s\t%s", r->scratch.items[i]->ns, r->scratch.items[i]->name);
		for (size_t i = 0; i < n; i++) {
			char *tab = strchr(keys[i], '\t');
			struct api_snap *snap;
			struct ssrr_member *m;

			*tab = '\0';
			snap = api_get_snap(r->api, SSRR_KIND_SS, keys[i], tab + 1);
			m = ssrr_member_get(r, keys[i], tab + 1);
			if (ssrr_ensure_spec(m, snap))
				ssrr_register_member(r, m);
			ssrw_world_see(r, m, api_snap_obj(snap), 0, true);
			free(keys[i]);
		}
		free(keys);
	}
	/* a resumed run's StageSets draw their next jittered requeue where they left off */
	for (size_t i = 0; i < p->nrequeue_draws; i++)
		ssrr_member_get(r, p->requeue_draws[i].ns, p->requeue_draws[i].name)->requeues =
			p->requeue_draws[i].n;
	for (size_t i = 0; i < p->nfevents; i++)
		if (p->fevents[i].type == SCN_FEV_PUBLISH && !p->fevents[i].done)
			des_at(w, p->fevents[i].at_ms, DES_PRIO_SCRIPT, ssrw_on_publish, r, (void *)(uintptr_t)i);
		else if (p->fevents[i].type == SCN_FEV_DRIFT && !p->fevents[i].done)
			/* (a resumed run's past drift was told in the run it came from) */
			des_at(w, p->fevents[i].at_ms, DES_PRIO_SCRIPT, on_drift, r,
			       (void *)&p->fevents[i]);
		else if (p->fevents[i].type == SCN_FEV_INVENTORY && !p->fevents[i].done)
			/* (a resumed run's past one is in the snapshot's shards) */
			des_at(w, p->fevents[i].at_ms, DES_PRIO_SCRIPT, on_inventory, r,
			       (void *)&p->fevents[i]);
	return r;
}

static void member_free(struct ssrr_member *m)
{
	free(m->ns);
	free(m->name);
	free(m->key);
	if (m->has_spec) {
		if (m->spec_ok)
			sst_spec_release(&m->spec);
		api_snap_release(m->spec_snap);
		free(m->spec_uid);
	}
	if (m->has_prior) {
		sst_status_release(&m->prior);
		api_snap_release(m->st_snap);
	}
	ssrr_strv_clear(&m->deps, &m->ndeps);
	ssrr_strv_clear(&m->srcs, &m->nsrcs);
	obj_strmap_release(&m->seen_labels);
	obj_strmap_release(&m->seen_ns_labels);
	for (size_t i = 0; i < m->ninv; i++)
		ssri_inv_clear(&m->inv[i]);
	free(m->inv);
	ssri_member_release(m);
	for (size_t i = 0; i < m->norph; i++)
		free((char *)m->orph[i].stage);
	free(m->orph);
	for (size_t k = 0; k < m->nstart; k++) {
		free(m->start_rev[k]);
		free(m->start_ver[k]);
	}
	free(m->start_rev);
	free(m->start_ver);
	for (size_t i = 0; i < m->natt; i++) {
		free((char *)m->att[i].version);
		free((char *)m->att[i].from);
	}
	free(m->att);
	for (size_t i = 0; i < m->nids; i++)
		free(m->ids[i]);
	free(m->ids);
	free(m->memo_src);
	free(m->src_ref);
	if (m->pe)
		ssc_keep_release(&m->pe->keep);
	free(m->pe);
	free(m);
}

void ssrc_free(struct ssrc *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nfault_texts; i++)
		free(r->fault_texts[i]);
	free(r->fault_texts);
	for (size_t i = 0; i < r->nmem; i++)
		member_free(r->mem[i]);
	free(r->mem);
	si_release(&r->mem_ix);
	si_release(&r->shard_ix);
	free(r->stats);
	free(r->pkeys);
	free(r->pvals);
	for (size_t i = 0; i < r->nbuckets; i++)
		free(r->buckets[i].m);
	free(r->buckets);
	si_release(&r->dep_ix);
	si_release(&r->src_ix);
	for (size_t i = 0; i < r->ntimers; i++) {
		free(r->timers[i].kind);
		free(r->timers[i].ns);
		free(r->timers[i].name);
		free(r->timers[i].back_kind);
	}
	free(r->timers);
	si_release(&r->timer_ix);
	si_release(&r->del_ix);
	free(r->del_ms);
	for (size_t i = 0; i < r->nhosts; i++)
		free(r->hosts[i]);
	free(r->hosts);
	tzif_cache_release(&r->tz);
	free(r->listed);
	api_list_release(&r->scratch);
	free(r->recs);
	free(r);
}

struct ctl *ssrc_ctl(const struct ssrc *r)
{
	return r->ctl;
}

uint32_t ssrc_requeue_draws(const struct ssrc *r, const char *ns, const char *name)
{
	const struct ssrr_member *m = ssrr_member_find(r, ns, name);

	return m ? m->requeues : 0;
}

/* The status.stages[] entry of @status naming @stage, or NULL. */
static const struct val *status_stage(const struct val *status, const char *stage)
{
	const struct val *stages = val_map_get(status, "stages");

	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++)
		if (strcmp(val_str(val_map_get(stages->u.list.items[i], "name"), ""), stage) == 0)
			return stages->u.list.items[i];
	return NULL;
}

/*
 * "running:<stage>=<revision>[;<version>]" for each stage of @m whose
 * revision in the world differs from the one its status.stages[] entry
 * names (a whole-run rollback's, StageSet spec §5 Q-27), as the pass in
 * flight found it when one is: the resumed run seeds the world from it.
 */
static void running_text(const struct ssrc *r, const struct ssrr_member *m, char **text)
{
	const struct obj *cur = api_get(r->api, SSRR_KIND_SS, m->ns, m->name);

	for (size_t k = 0; cur && m->spec_ok && k < m->spec.nstages; k++) {
		const char *stage = ssrr_nz(m->spec.stages[k].name), *rev = NULL, *ver = NULL;
		const char *applied = val_str(val_map_get(status_stage(cur->status, stage), "appliedRevision"), "");
		char *next;

		if (m->in_pass && k < m->nstart) {
			rev = m->start_rev[k];
			ver = m->start_ver[k];
		} else if (!swst_running(r->world, m->ns, m->name, stage, &rev, &ver)) {
			rev = NULL;
		}
		if (!rev || !applied[0] || strcmp(rev, applied) == 0)
			continue;
		next = xasprintf("%s%srunning:%s=%s%s%s", *text ? *text : "", *text ? "," : "", stage, rev,
				 ver ? ";" : "", ver ? ver : "");
		free(*text);
		*text = next;
	}
}

/*
 * "<stage>=0" for each stage of @m's status.stages that counts entries
 * (entriesCount) and has no shard: an inventory event deleted it, and a
 * resumed run would otherwise take the status's count for a shard
 * (ssrw_world_see()), so that its next pass would not reconstruct.
 */
static void gone_text(const struct ssrc *r, const struct ssrr_member *m, char **text)
{
	const struct obj *cur = api_get(r->api, SSRR_KIND_SS, m->ns, m->name);
	const struct val *stages = cur ? val_map_get(cur->status, "stages") : NULL;

	for (size_t i = 0; stages && stages->type == VAL_LIST && i < stages->u.list.n; i++) {
		const char *stage = val_str(val_map_get(stages->u.list.items[i], "name"), "");
		char *next;

		if (!stage[0] || val_int(val_map_get(stages->u.list.items[i], "entriesCount"), 0) <= 0 ||
		    ssre_inv_find(m, stage))
			continue;
		next = xasprintf("%s%s%s=0", *text ? *text : "", *text ? "," : "", stage);
		free(*text);
		*text = next;
	}
}

char *ssrc_inventory_text(const struct ssrc *r, const char *ns, const char *name)
{
	const struct ssrr_member *m = ssrr_member_find(r, ns, name);
	char *text = NULL;

	for (size_t i = 0; m && i < m->ninv; i++) {
		const struct ssrr_inv *rec = &m->inv[i];
		char *next = xasprintf("%s%s%s=%" PRId64, text ? text : "", text ? "," : "", rec->stage,
				       rec->entries);

		/* the IDs when the shard lists more than the workload (a count alone says that) */
		for (size_t k = 0; rec->nids > 1 && (int64_t)rec->nids == rec->entries && k < rec->nids; k++) {
			char *more = xasprintf("%s%s%s", next, k ? ";" : ":", rec->ids[k]);

			free(next);
			next = more;
		}
		free(text);
		text = next;
	}
	if (m)
		gone_text(r, m, &text);
	if (m)
		ssri_text(m, r->start_unix_ms, &text);
	if (m)
		running_text(r, m, &text);
	return text;
}

struct sw_world *ssrc_world(const struct ssrc *r)
{
	return r->world;
}

const char *ssrc_outcome_name(enum ssrc_outcome o)
{
	switch (o) {
	case SSRC_IN_FLIGHT: return "in-flight";
	case SSRC_SUCCEEDED: return "succeeded";
	case SSRC_FAILED: return "failed";
	case SSRC_HELD: return "held";
	case SSRC_SUPERSEDED: return "superseded";
	case SSRC_ABANDONED: return "abandoned";
	}
	return "?";
}

size_t ssrc_members(const struct ssrc *r, const struct ssrc_member_stat **out)
{
	struct ssrc *rw = (struct ssrc *)r;

	if (!r) {
		*out = NULL;
		return 0;
	}
	if (rw->capstats < r->nmem) {
		rw->capstats = r->nmem;
		rw->stats = xreallocarray(rw->stats, rw->capstats, sizeof(*rw->stats));
	}
	for (size_t i = 0; i < r->nmem; i++) {
		const struct ssrr_member *m = r->mem[i];

		rw->stats[i] = (struct ssrc_member_stat){
			.ns = m->ns,
			.name = m->name,
			.attempts = m->att,
			.nattempts = m->natt,
			.passes = m->passes,
			.last_pass_ms = m->last_pass_ms,
			.last_no_requeue = m->last_no_requeue,
			.long_verifies = m->long_verifies,
			.long_verify_ms = m->long_verify_ms,
			.long_verify_at_ms = m->long_verify_at_ms,
			.long_verify_timeout_ms = m->long_verify_timeout_ms,
			.long_verify_stage = m->long_verify_stage,
			.long_verify_ready = m->long_verify_ready,
			.approval_passes = m->approval_passes,
			.approval_busy_ms = m->approval_busy_ms,
			.approval_first_ms = m->approval_passes ? m->approval_first_ms : -1,
			.approval_last_ms = m->approval_passes ? m->approval_last_ms : -1,
			.orphans = m->orph,
			.norphans = m->norph,
			.survivors = m->surv,
			.nsurvivors = m->nsurv,
			.silent_errors = m->silent_errors,
			.silent_first_ms = m->silent_errors ? m->silent_first_ms : -1,
			.silent_last_ms = m->silent_errors ? m->silent_last_ms : -1,
			.silent_error = m->silent_error,
			.read_errors = m->read_errors,
			.read_first_ms = m->read_errors ? m->read_first_ms : -1,
			.read_last_ms = m->read_errors ? m->read_last_ms : -1,
			.read_error = m->read_error,
		};
	}
	*out = rw->stats;
	return r->nmem;
}

char ***ssrc_object_rows(const struct ssrc *r, size_t *n)
{
	char ***rows = NULL;

	*n = 0;
	for (size_t i = 0; r && i < r->nmem; i++)
		if (r->mem[i]->nlive)
			ssri_rows(r->mem[i], &rows, n);
	return rows;
}

int ssrc_busy_peak(const struct ssrc *r)
{
	return r ? r->busy_peak : 0;
}
