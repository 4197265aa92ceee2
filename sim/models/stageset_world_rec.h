#ifndef MAGOS_SIM_STAGESET_WORLD_REC_H
#define MAGOS_SIM_STAGESET_WORLD_REC_H

/*
 * The records of the StageSet world (sim/models/stageset_world.h) that its
 * modules share, and the helpers they all call; private to
 * sim/models/stageset_world*.c.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/base/strindex.h"
#include "sim/core/rng.h"
#include "sim/models/stageset_world.h"

#define SWR_NONE SIZE_MAX
#define SWR_SOURCE_API "source.toolkit.fluxcd.io/v1"
#define SWR_EA_KIND "ExternalArtifact"
#define SWR_WORKLOAD_KIND "Deployment"
#define SWR_ID_STACK 256
#define SWR_REV_LEN 128 /* a revision text */

/* ---------------------------------------------------------------- records */

/* A StageSet's labels (and its Namespace's) from from_ms on. */
struct swr_snap {
	int64_t from_ms;
	struct obj_strmap labels, ns_labels;
};

/* One stage of a StageSet, by name: the revision it last applied and its rollout. */
struct swr_mstage {
	char *name;
	char *revision;          /* NULL: never applied */
	char *version;           /* what that revision carries (regression.versions), may be NULL */
	uint32_t k;              /* revisions applied (k of rev#k) */
	uint32_t j;              /* applies of the current revision */
	char *try_rev;           /* the revision the last apply tried (written or not) */
	uint32_t try_j;          /* applies of try_rev so far (j of apply#j) */
	int64_t try_first_ms;    /* the first apply of try_rev (when a conflict's `during` is judged) */
	int64_t written_ms;      /* the last apply that wrote the workload (drift events after it count) */
	int64_t applied_ms;      /* the rollout's start */
	int64_t ready_ms;        /* objects Current from then on; SW_NEVER: never */
	int64_t failed_ms;       /* objects Failed from then on; SW_NEVER: never */
	int64_t exprs_ready_ms, exprs_failed_ms;
	size_t drawn;            /* the current revision's drawn fault (index into member.drawn), or SWR_NONE */
	uint32_t restores;       /* restore#n */
};

struct swr_member {
	char *ns, *name;
	int64_t first_ms;        /* first sighting */
	struct swr_snap *snaps;      /* by from_ms; >= 1 */
	size_t nsnaps;
	size_t *srcs;            /* referenced sources (indices), unique */
	size_t nsrcs;
	struct swr_mstage *st;
	size_t nst;
	struct sw_fault *drawn;  /* drawn faults in draw order (stage strings borrowed from st[].name) */
	size_t ndrawn, capdrawn;
	struct sw_fault *faults; /* swst_member_faults() buffer */
	size_t nfaults;
	struct strindex acts;    /* "<stage>/<phase>/<action>" → index into actn */
	uint32_t *actn;
	size_t nactn;
};

/*
 * A revision of a source from eff_ms on: a publish that reaches it, or one
 * of its own updates (spec.models.sources[].updates).
 */
struct swr_reach {
	int64_t eff_ms;
	size_t ev;               /* < nfevents: the publish; else update ev - nfevents */
	const char *version;     /* the version it carries (borrowed): an update keeps the one before */
	const struct scn_sw_source_update *files; /* the update whose files it holds, NULL: files */
	const struct scn_sw_objects *objects; /* the objects its stages render (borrowed), NULL: none named */
	char revision[SWR_REV_LEN];
};

/* An object a source handed out. */
struct swr_handed {
	size_t ev;               /* the revision's publish, SWR_NONE: the initial revision */
	bool ready;
	struct obj *o;
};

struct swr_source {
	char *kind, *ns, *name;
	char *back_api, *back_kind; /* a producer's ExternalArtifact: spec.sourceRef; else NULL */
	size_t *refs;            /* StageSets referencing it (indices), unique */
	size_t nrefs;
	bool reach_ok;           /* reach is up to date */
	struct swr_reach *reach;     /* sorted by (eff_ms, ev): publishes before an update of the same ms */
	size_t nreach;
	char initial_revision[SWR_REV_LEN];
	/*
	 * A resumed run's (sw_setup.seeds): the revision the snapshot showed,
	 * which stands for the initial one (initial_revision, its version,
	 * artifact and time); NULL otherwise.
	 */
	const struct scn_source_seed *seed;
	struct swr_handed *objs;
	size_t nobjs;
	uint32_t fetches;        /* fetch#n */
};

struct sw_world {
	struct sw_setup s;
	struct swr_member **mem;
	size_t nmem, capmem;
	struct strindex mem_ix;
	struct swr_source **src;
	size_t nsrc, capsrc;
	struct strindex src_ix;
	const struct obj **listed; /* sws_source_list() buffer */
	size_t caplisted;
	/* the rollback store's objects (sim/models/stageset_world_store.h): key → stored[i] */
	struct strindex stored_ix;
	bool *stored_corrupt;      /* whether what the last Put of a key stored decodes not */
	size_t nstored, capstored;
};

/* ---------------------------------------------------------------- helpers */

/* @nhex lower-case hex digits derived from (@a, @b, @salt) into @out (NUL-terminated). */
void swr_hexgen(const char *a, const char *b, uint64_t salt, size_t nhex, char *out);

/* A uid in the API server's form from (@a, @b, @salt). */
void swr_uidgen(const char *a, const char *b, uint64_t salt, char *out);

/* swr_nz() - @s, or "" for NULL. */
const char *swr_nz(const char *s);

/* swr_set_err() - sets @e to error class @code with text @msg (truncated to ssc_err.msg). */
void swr_set_err(struct ssc_err *e, enum ssc_errc code, const char *msg);

/* Decimal text of @n into @buf (>= 12 bytes).  Returns @buf. */
char *swr_u32_text(uint32_t n, char *buf);

/* A duration of @d, drawn from the stream of @parts unless @d is constant. */
int64_t swr_draw_ms(const struct sw_world *w, const struct dist *d, const char *const *parts,
		       size_t n);

/* True with probability @p, drawn from the stream of @parts unless @p is 0 or 1. */
bool swr_draw_p(const struct sw_world *w, double p, const char *const *parts, size_t n);

/* The empty label map: what a StageSet without labels (or Namespace labels) has. */
extern const struct obj_strmap swr_empty_map;

/*
 * swr_snap_at() - the label snapshot of @mb in force at @t_ms (the first one
 * for a time before its first sighting).  Returns: borrowed from @mb.
 */
const struct swr_snap *swr_snap_at(const struct swr_member *mb, int64_t t_ms);

/* swr_same_map() - whether label maps @a and @b are equal, NULL being the empty map. */
bool swr_same_map(const struct obj_strmap *a, const struct obj_strmap *b);

/* swr_member_find() - the record of StageSet @ns/@name, or NULL when never seen. */
struct swr_member *swr_member_find(const struct sw_world *w, const char *ns, const char *name);

/*
 * swr_stage_rec() - the record of stage @name of @mb, created (never applied,
 * never ready) on first use.  Returns: borrowed from @mb; valid until the next
 * stage is created.
 */
struct swr_mstage *swr_stage_rec(struct swr_member *mb, const char *name);

/* swr_stage_find() - the record of stage @name of @mb (NULL: none, or @mb NULL). */
const struct swr_mstage *swr_stage_find(const struct swr_member *mb, const char *name);

/* swr_stage_name() - the name of stage index @stage of @m's spec, "" when out of range. */
const char *swr_stage_name(const struct sw_member *m, size_t stage);

/* swr_member_free() - frees @mb and everything it owns. */
void swr_member_free(struct swr_member *mb);

/* swr_source_free() - frees @src and every object it handed out. */
void swr_source_free(struct swr_source *src);

#endif
