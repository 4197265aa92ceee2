#ifndef MAGOS_SIM_STAGESET_RC_REC_H
#define MAGOS_SIM_STAGESET_RC_REC_H

/*
 * The records of the StageSet controller adapter (sim/wire/stageset_rc.h)
 * that its modules share, and the member and index functions they all call;
 * private to sim/wire/stageset_rc*.c.
 *
 * StageSets are heap records (stable pointers) in the order first seen,
 * found by "ns/name" through a string index.  Each keeps the parsed spec of
 * its last (uid, generation) with a retained store snapshot (the parse
 * borrows the snapshot's spec tree), the parsed status of the last status
 * tree read (also retained), its inventory shards, its adoption attempts and
 * the index keys it is registered under.  Two indexes answer the watches'
 * map functions: dependents by dependency (W3) and StageSets by the sources
 * their stages name (W5, W6); both are supersets checked against the
 * candidate's current spec on look-up.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/strindex.h"
#include "sim/cluster/apiserver.h"
#include "sim/core/timeline.h"
#include "sim/load/tzif.h"
#include "sim/wire/stageset_rc.h"

#define SSRR_KIND_SS "StageSet"
#define SSRR_KIND_NS "Namespace"
#define SSRR_KIND_EA "ExternalArtifact"
#define SSRR_KIND_LEDGER "StageLedger"
#define SSRR_SS_API "stages.metio.wtf/v1"
#define SSRR_SS_GROUP "stages.metio.wtf"
#define SSRR_SOURCE_GROUP "source.toolkit.fluxcd.io"
#define SSRR_NONE SIZE_MAX
#define SSRR_KEY_STACK 256
#define SSRR_MS_PER_S INT64_C(1000)

/* ---------------------------------------------------------------- records */

/* One stage's StageInventory shard as the controller last wrote it. */
struct ssrr_inv {
	char *stage;
	int position;
	int64_t entries;
	char **ids;            /* its entry IDs (owned): the workload's first, then the objects named */
	size_t nids;
	bool orphaned;         /* its stage has left the spec (recorded in the member's orph) */
};

/*
 * What the last apply of a stage rendered when its source names objects
 * besides the workload (spec.models.sources[].objects): the entry IDs, the
 * workload's first, no two alike.  A stage without one renders its
 * workload alone (the member's ids).
 */
struct ssrr_render {
	char *stage;
	char **ids;
	size_t n;
};

/* An object applied by a stage besides its workload: in the cluster until a prune or teardown deletes it. */
struct ssrr_live {
	char *stage, *id;
};

struct ssrr_member {
	char *ns, *name, *key;
	size_t idx;
	struct api_ref ref;
	/* the parsed spec of (uid, generation), borrowing spec_snap's spec tree */
	struct api_snap *spec_snap;
	char *spec_uid;
	int64_t spec_gen;
	bool has_spec;
	bool spec_ok;
	struct sst_spec spec;
	/* the parsed status of st_snap's status tree */
	struct api_snap *st_snap;
	bool has_prior;
	struct sst_status prior;
	/* index keys this StageSet is registered under (owned) */
	char **deps;           /* "ns/name" of same-namespace dependencies (W3) */
	size_t ndeps;
	char **srcs;           /* "Kind/ns/name" of its stage refs, ns its own (W5, W6) */
	size_t nsrcs;
	/* the world */
	bool world_seen;
	uint64_t seen_rv;      /* the object version last told (labels cannot change without a new one) */
	struct obj_strmap seen_labels, seen_ns_labels;
	/* inventory shards, by stage name */
	struct ssrr_inv *inv;
	size_t ninv;
	/* the shards of stages that left the spec, as ssrc_member_stat tells them */
	struct ssrc_orphan *orph;
	size_t norph;
	/* the stages' renders that name objects, the objects besides workloads in the cluster, and those in no shard */
	struct ssrr_render *render;
	size_t nrender;
	struct ssrr_live *live;
	size_t nlive;
	struct ssrc_survivor *surv;
	size_t nsurv;
	/* objects besides workloads the pass in flight created (their live index) or deleted (IDs), told at its end */
	char **born, **deleted;
	size_t nborn, ndeleted;
	/* passes that ended in a plan error writing nothing: count, first and last start, first error */
	uint32_t silent_errors;
	int64_t silent_first_ms, silent_last_ms;
	char silent_error[512];  /* the size of ssc_result.error */
	/* the same for the StageLedger and StageInventory reads */
	uint32_t read_errors;
	int64_t read_first_ms, read_last_ms;
	char read_error[512];
	/* passes, requeues, attempts */
	uint32_t passes;
	int64_t last_pass_ms;  /* when the last pass started (meaningful when passes > 0) */
	bool last_no_requeue;  /* the last pass ended without error and asked for no requeue */
	/*
	 * Verifies of a stage (kstatus wait, then the ready-check expression
	 * poll, each with the stage's timeout) that took longer than that
	 * timeout, and the longest of them: its length, start (sim ms), timeout,
	 * stage name (DNS label, truncated to fit) and whether it ended ready.
	 */
	uint32_t long_verifies;
	int64_t long_verify_ms, long_verify_at_ms, long_verify_timeout_ms;
	char long_verify_stage[64];
	bool long_verify_ready;
	uint32_t requeues;
	/* passes that ended held for approval: count, worker ms, first and last start */
	uint32_t approval_passes;
	int64_t approval_busy_ms, approval_first_ms, approval_last_ms;
	struct ssrc_attempt *att;
	size_t natt, capatt;
	bool open;             /* the last attempt is in flight (StageProgressing) */
	size_t faults_told;    /* fault windows announced on the timeline */
	int64_t deletion_ms;   /* a scheduled deletion, -1 none */
	bool gone;
	/* per spec: each stage's StageInventory entry ID, and whether a held pass may be reused */
	char **ids;
	size_t nids;
	bool memo_spec;
	/*
	 * The last pass, when it stopped before the stages without writing or
	 * emitting anything (AwaitingApproval, a refused plan): the object
	 * version and time it read, its exit and requeue, and per stage the
	 * resourceVersion of its source in the store (0: modelled).  A pass of
	 * the same object version whose sources have not changed since gets
	 * the same result (memo_reuse()).
	 */
	bool memo_steady_spec; /* and a steady pass too: no actions, promotion, budgets or ready checks */
	int memo;              /* SSRR_MEMO_NONE, SSRR_MEMO_HELD, SSRR_MEMO_STEADY */
	uint64_t memo_rv;
	int64_t memo_t;
	enum ssc_exit memo_exit;
	enum ssc_requeue memo_requeue;
	int64_t memo_after;
	int64_t memo_elapsed;
	uint64_t *memo_src;
	struct api_ref *src_ref; /* per stage: where the store keeps its source (api_get_ref() memo) */
	int64_t memo_until;    /* the first change of a modelled source after memo_t, as of memo_epoch */
	uint64_t memo_epoch;
	/* its strings in the timeline's table, interned at its first event (record_event()) */
	struct tl *ev_tl;      /* the timeline they are of; NULL before the first event */
	tl_str ev_ns, ev_name, ev_cause;
	/* the pass in flight (one at a time per key), kept for the next */
	struct ssrr_pass *pe;
	/*
	 * With ssrc.keep_pass_starts: per spec stage, the revision and version
	 * (owned, NULL: none) the world ran when the last pass began, and
	 * whether that pass is in flight: a snapshot then says what it found,
	 * since the resumed run makes it again as of its start.
	 */
	char **start_rev, **start_ver;
	size_t nstart;
	bool in_pass;
};

/* A set of member indices under one index key. */
struct ssrr_bucket {
	size_t *m;
	size_t n, cap;
};

/* A modelled source's pending wake-up. */
struct ssrr_timer {
	char *kind, *ns, *name;
	char *back_kind;       /* a producer's kind when the source is its ExternalArtifact */
	evq_handle h;          /* 0: none pending */
	int64_t at_ms;         /* when the pending one fires (change + latency) */
};

/* What a member's last pass can stand for (struct ssrr_member, memo). */
enum { SSRR_MEMO_NONE, SSRR_MEMO_HELD, SSRR_MEMO_STEADY };

/* What one pass hands from its start to its end (ctl_result.pass); one per member, reused. */
struct ssrr_pass {
	struct ssrr_member *m;
	int64_t start_ms;      /* simulated ms */
	struct ssc_result res;
	struct ssc_keep keep;  /* the statuses the passes of this member reuse (ssc_input.keep) */
	bool memo;             /* the result is the last pass's (memo_reuse()), not a new ssc_reconcile() */
	struct api_snap *read; /* the object version the pass read (retained) */
	const char *prior_version; /* status.version as read (borrowed from the member's parse; valid
				    * only until pass_end_fn() replaces the parse with the status written) */
	bool stayed;               /* the pass ended on the version it read (res.desired == prior_version) */
	bool directed;         /* desired == rollback-to annotation */
};

struct ssrc {
	struct des *w;
	struct api *api;
	struct ctl *ctl;
	struct sw_world *world;
	int64_t start_unix_ms;
	const struct scn_inventory_shard *shards; /* a resumed run's (ssrc_params), borrowed */
	size_t nshards;
	/* "ns/name" → the first of that StageSet's items in shards (each object's are contiguous) */
	struct strindex shard_ix;
	bool keep_pass_starts;  /* ssrc_params.keep_pass_starts */
	int64_t latency_ms;
	int64_t reconcile_ms;  /* the controller's fixed duration of a pass (des_params) */
	uint64_t seed, trial;
	struct ssc_options opt;
	char **hosts;
	size_t nhosts;
	struct tzif_cache tz;

	struct ssrr_member **mem;
	size_t nmem, capmem;
	struct strindex mem_ix;
	/* the work queue's key strings (stable per key) → member, for the passes */
	const char **pkeys;
	struct ssrr_member **pvals;
	size_t pcap, pn;
	struct ssrc_member_stat *stats;
	size_t capstats;

	struct strindex dep_ix;   /* dependency "ns/name" → bucket */
	struct strindex src_ix;   /* "Kind/ns/name" → bucket */
	struct ssrr_bucket *buckets;
	size_t nbuckets, capbuckets;

	struct strindex timer_ix; /* world source "Kind/ns/name" → timer */
	struct ssrr_timer *timers;
	size_t ntimers, captimers;

	/* scheduled StageSet deletions ("ns/name" → ms) */
	struct strindex del_ix;
	int64_t *del_ms;

	uint32_t told_quirks[2]; /* bit q: quirk Q-q told */
	/*
	 * The texts of the fault notices scheduled (on_fault_notice()): kept
	 * here and freed with the adapter, as a notice due after the run's end
	 * never fires.
	 */
	char **fault_texts;
	size_t nfault_texts, capfault_texts;
	uint64_t world_epoch;    /* bumped whenever the world is told about a StageSet (reach may move) */
	int busy_peak;

	/* scratch of a pass */
	const struct obj **listed;
	size_t caplisted;
	struct api_list scratch;
	struct ssc_inventory_record *recs;
	size_t caprecs;
};

/* ssrr_nz() - @s, or "" for NULL. */
const char *ssrr_nz(const char *s);

/* ssrr_streq() - whether @a and @b are the same text, NULL being "". */
bool ssrr_streq(const char *a, const char *b);

/* ssrr_sim_ms() - wall time @unix_ms (ms) as ms since the scenario's start. */
int64_t ssrr_sim_ms(const struct ssrc *r, int64_t unix_ms);

/* ssrr_not_found() - sets @err to the API server's NotFound for @kind @name. */
void ssrr_not_found(struct ssc_err *err, const char *kind, const char *name);

/* ssrr_member_find() - the record of StageSet @ns/@name, or NULL when never seen. */
struct ssrr_member *ssrr_member_find(const struct ssrc *r, const char *ns, const char *name);

/*
 * The member of a work-queue key: the queue hands every pass of one key the
 * same name string, so its address finds the member without hashing text.
 */
struct ssrr_member *ssrr_member_of_key(struct ssrc *r, const char *ns, const char *name);

/*
 * ssrr_member_get() - the record of StageSet @ns/@name, created (no spec, no
 * status, no attempts) on first use.  Returns: borrowed from @r (stable).
 */
struct ssrr_member *ssrr_member_get(struct ssrc *r, const char *ns, const char *name);

/* The Deployment the world renders for @stage of @m: its StageInventory entry ID. */
char *ssrr_entry_id(const struct ssrr_member *m, const char *stage);

/*
 * The spec of @o (the current version, whose snapshot is @snap) parsed for
 * @m, once per (uid, generation).  Returns whether the parse changed (a new
 * spec), so the caller can re-register the indexes.
 */
bool ssrr_ensure_spec(struct ssrr_member *m, struct api_snap *snap);

/* The status of @snap parsed for @m, unless it is the tree parsed last. */
void ssrr_ensure_prior(struct ssrr_member *m, struct api_snap *snap);

/*
 * ssrr_bucket_of() - the bucket of @key in index @ix of @r; a new empty one
 * when @create, else NULL for a key never registered.  Returns: borrowed from
 * @r, valid until the next bucket is created.
 */
struct ssrr_bucket *ssrr_bucket_of(struct ssrc *r, struct strindex *ix, const char *key, bool create);

/* ssrr_strv_clear() - frees the @n strings of *@v and the array; leaves it empty. */
void ssrr_strv_clear(char ***v, size_t *n);

/* The index key of a stage ref as the watches map it: "<kind or ExternalArtifact>/<ss ns>/<name>". */
char *ssrr_ref_key(char *buf, size_t len, const struct sst_source_ref *ref, const char *ss_ns);

/* ssrr_unregister() - takes @m out of both indexes and forgets its keys. */
void ssrr_unregister(struct ssrc *r, struct ssrr_member *m);

/* @m's dependsOn (same namespace) and stage refs into the indexes, replacing the old keys. */
void ssrr_register_member(struct ssrc *r, struct ssrr_member *m);

#endif
