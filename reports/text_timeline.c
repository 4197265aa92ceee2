/*
 * The terminal timeline.  Layout, within o->width columns (80 by default):
 *
 *       TIME  OBJECT                         CHANGE    PHASE · REASON
 *     1m30s  Rollout default/demo-project   status    Reconciling · LevelProgressing
 *            │ message, wrapped to the width
 *            │ detail of what changed
 *
 * Notices (loop detected, horizon reached, events that did not apply) are
 * interleaved at their time, marked "!!".  The default view (REP_TL_CHANGES)
 * shows what a reader follows: a fleet's members' routine writes are counted
 * per wave and instant, a repeated notice or fleet entry is folded into one
 * "repeated" line, and past a screenful of changes at one instant the rest
 * is counted.
 */
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "reports/text_int.h"
#include "sim/base/gotime.h"

#define TIME_W 12
#define OBJ_MIN_W 24
#define CHG_W 8

static void object_name(const struct tl_entry *e, char *buf, size_t len)
{
	if (e->ns && e->ns[0])
		snprintf(buf, len, "%s %s/%s", e->kind, e->ns, e->name);
	else
		snprintf(buf, len, "%s %s", e->kind, e->name);
}

static void entry_line_clean(struct out *o, const struct tl_entry *e);

/* Prints @raw with every string made terminal-safe first. */
static void entry_line(struct out *o, const struct tl_entry *raw)
{
	struct tl_entry e = *raw;
	char *f[8];

	e.kind = f[0] = txt_clean(raw->kind, false);
	e.ns = f[1] = txt_clean(raw->ns, false);
	e.name = f[2] = txt_clean(raw->name, false);
	e.phase = f[3] = txt_clean(raw->phase, false);
	e.reason = f[4] = txt_clean(raw->reason, false);
	e.message = f[5] = txt_clean(raw->message, true);
	e.detail = f[6] = txt_clean(raw->detail, true);
	e.cause = f[7] = NULL;
	entry_line_clean(o, &e);
	for (size_t i = 0; i < 8; i++)
		free(f[i]);
}

static void entry_line_clean(struct out *o, const struct tl_entry *e)
{
	char t[GT_DURATION_BUFSZ], obj[512], state[512];
	size_t fixed = 2 + TIME_W + 2 + o->obj_w + 1 + CHG_W + 1;
	size_t rest = o->width > fixed + 10 ? o->width - fixed : 10;

	gt_format_duration(e->t_ms, t, sizeof(t));
	object_name(e, obj, sizeof(obj));
	if (e->phase && e->reason)
		snprintf(state, sizeof(state), "%s · %s", e->phase, e->reason);
	else
		snprintf(state, sizeof(state), "%s", e->phase ? e->phase : e->reason ? e->reason : "");

	txt_emit(o, "  %s%*s%s  ", col(o, C_DIM), TIME_W, t, col(o, C_OFF));
	txt_cell_end(o, obj, o->obj_w);
	txt_emit(o, " ");
	if (!state[0]) {
		/* No phase to show: end the line at the change column, without padding. */
		txt_emit(o, "%s\n", tl_change_name(e->change));
	} else {
		txt_cell(o, tl_change_name(e->change), CHG_W);
		txt_emit(o, " %s", col(o, txt_phase_tone(e->phase, e->reason)));
		if (txt_u8_width(state, strlen(state)) <= rest) {
			txt_emit(o, "%s%s\n", state, col(o, C_OFF));
		} else {
			/* Too long for the row: the phase stays, the reason goes below. */
			const char *ph = e->phase ? e->phase : e->reason;

			if (txt_u8_width(ph, strlen(ph)) > rest)
				txt_emit(o, "%.*s…", (int)txt_u8_prefix(ph, rest - 1), ph);
			else
				txt_emit(o, "%s", ph);
			txt_emit(o, "%s\n", col(o, C_OFF));
			if (e->phase && e->reason)
				txt_wrapped(o, e->reason, 2 + TIME_W + 2,
					    txt_phase_tone(e->phase, e->reason));
		}
	}
	/* A metadata edit does not change the message: the compact view says it once. */
	if (e->message && e->message[0] && !(o->compact && e->change == TL_UPDATED))
		txt_wrapped(o, e->message, 2 + TIME_W + 2, "");
	if (e->detail && e->detail[0] && !(o->compact && e->change == TL_STATUS))
		txt_wrapped(o, e->detail, 2 + TIME_W + 2, C_DIM);
}

static void notice_line(struct out *o, const struct tl_notice *n)
{
	char t[GT_DURATION_BUFSZ];
	const char *tone = n->severity == TL_ERROR ? C_RED : n->severity == TL_WARNING ? C_YELLOW : C_CYAN;

	char *text = txt_clean(n->text, true);

	gt_format_duration(n->t_ms, t, sizeof(t));
	txt_emit(o, "  %s%*s%s  %s!! %s%s\n", col(o, C_DIM), TIME_W, t, col(o, C_OFF), col(o, tone),
		 tl_severity_name(n->severity), col(o, C_OFF));
	txt_wrapped(o, text, 2 + TIME_W + 2, "");
	free(text);
	for (size_t i = 0; i < n->nrelated && i < 5; i++) {
		char line[512];
		const struct tl_objref *r = &n->related[i];

		char *safe;

		if (r->count)
			snprintf(line, sizeof(line), "%s %s%s%s (%llu time%s)", r->kind, r->ns,
				 r->ns[0] ? "/" : "", r->name, (unsigned long long)r->count,
				 r->count == 1 ? "" : "s");
		else
			snprintf(line, sizeof(line), "%s %s%s%s", r->kind, r->ns, r->ns[0] ? "/" : "",
				 r->name);
		safe = txt_clean(line, false);
		txt_wrapped(o, safe, 2 + TIME_W + 2, "");
		free(safe);
	}
}

/* Changes shown at one instant in the default view before the rest is counted. */
#define MAX_PER_INSTANT 60

static void hidden_line(struct out *o, int64_t t_ms, size_t hidden)
{
	char t[GT_DURATION_BUFSZ];

	gt_format_duration(t_ms, t, sizeof(t));
	txt_emit(o, "  %*s  %s… %zu more change%s at %s (--timeline all shows them)%s\n", TIME_W,
		 "", col(o, C_DIM), hidden, hidden == 1 ? "" : "s", t, col(o, C_OFF));
}

/* Last (phase, reason, message) of one object, by interned ids. */
struct last {
	tl_str kind, ns, name;
	tl_str phase, reason, message;
};

static struct last *last_of(struct last **tab, size_t *cap, size_t *n, const struct tl_rec *r)
{
	size_t mask, i;

	if ((*n + 1) * 2 > *cap) {
		struct last *old = *tab;
		size_t oldcap = *cap;

		*cap = oldcap ? oldcap * 2 : 256;
		*tab = xcalloc(*cap, sizeof(**tab));
		for (size_t k = 0; k < oldcap; k++) {
			if (!old[k].kind)
				continue;
			i = ((size_t)old[k].kind * 31u + (size_t)old[k].ns * 131u +
			     (size_t)old[k].name * 8191u) & (*cap - 1);
			while ((*tab)[i].kind)
				i = (i + 1) & (*cap - 1);
			(*tab)[i] = old[k];
		}
		free(old);
	}
	mask = *cap - 1;
	i = ((size_t)r->kind * 31u + (size_t)r->ns * 131u + (size_t)r->name * 8191u) & mask;
	while ((*tab)[i].kind) {
		if ((*tab)[i].kind == r->kind && (*tab)[i].ns == r->ns && (*tab)[i].name == r->name)
			return &(*tab)[i];
		i = (i + 1) & mask;
	}
	(*tab)[i] = (struct last){ r->kind, r->ns, r->name, 0, 0, 0 };
	(*n)++;
	return &(*tab)[i];
}

/* Whether entry @r is one a reader follows (enum rep_timeline, REP_TL_CHANGES). */
static bool worth_showing(const struct tl *tl, const struct tl_rec *r, struct last *l)
{
	const char *kind = tl_str_get(tl, r->kind), *detail = tl_str_get(tl, r->detail);
	bool moved = r->phase != l->phase || r->reason != l->reason || r->message != l->message;

	l->phase = r->phase;
	l->reason = r->reason;
	l->message = r->message;
	if (!strcmp(kind, "Job") || !strcmp(kind, "PersistentVolumeClaim"))
		return false;
	switch ((enum tl_change)r->change) {
	case TL_CREATED:
	case TL_DELETING:
	case TL_DELETED:
		return true;
	case TL_STATUS:
		return moved;
	case TL_UPDATED:
		/* Finalizer bookkeeping alone is not news; labels, spec, annotations are. */
		return moved || !detail || strncmp(detail, "finalizers:", 11) != 0;
	case TL_EVENT:
		return true;
	}
	return true;
}

/* ---- fleet members in the default timeline ------------------------------- */

/* How the default timeline treats one entry. */
enum show {
	SH_HIDE,  /* not a change a reader follows */
	SH_SHOW,  /* printed as it is */
	SH_GROUP, /* a routine write of a fleet member: counted in its wave's line at that instant */
	SH_QUIET, /* a member reaching the target and Ready: the wave's adoption lines say it */
};

/*
 * Abnormal writes of one wave's members of one kind (a reason, a stamp)
 * printed at one instant before the rest is counted.
 */
#define MEMBER_LINES_PER_INSTANT 5

/* A repeated notice closer than this to its previous occurrence continues its run. */
#define REPEAT_GAP_MS (5 * 60 * 1000)

/* What a grouped entry's label is. */
enum grp_what {
	GW_REASON,   /* a Ready reason, or "created" */
	GW_APPROVAL, /* the approved-version value the fleet set */
	GW_STAMP,    /* "rollback-to=X", the stamp the fleet set */
	GW_EVENT,    /* a Kubernetes Event's reason */
	GW_SOURCE,   /* a spec edit by the source (a published version delivered) */
};

/* What a grouped entry is counted as. */
struct grp {
	size_t fleet, wave;
	const char *label; /* the reason, or an annotation's value; borrowed from the timeline */
	int what;          /* enum grp_what */
	bool abnormal;     /* over the per-instant cap of abnormal lines */
	bool counter;      /* not printed: how many abnormal lines of this kind were shown */
	size_t count;
};

struct grps {
	struct grp *g;
	size_t n, cap;
};

/* The group of (fleet, wave, label, what, abnormal, counter) at this instant, created at 0. */
static struct grp *grp_get(struct grps *gs, size_t fleet, size_t wave, const char *label, int what,
			   bool abnormal, bool counter)
{
	for (size_t i = 0; i < gs->n; i++) {
		struct grp *g = &gs->g[i];

		if (g->fleet == fleet && g->wave == wave && g->what == what &&
		    g->abnormal == abnormal && g->counter == counter && !strcmp(g->label, label))
			return g;
	}
	if (gs->n == gs->cap) {
		gs->cap = gs->cap ? gs->cap * 2 : 8;
		gs->g = xreallocarray(gs->g, gs->cap, sizeof(*gs->g));
	}
	gs->g[gs->n] = (struct grp){ fleet, wave, label, what, abnormal, counter, 0 };
	return &gs->g[gs->n++];
}

static void grp_add(struct grps *gs, size_t fleet, size_t wave, const char *label, int what,
		    bool abnormal)
{
	grp_get(gs, fleet, wave, label, what, abnormal, false)->count++;
}

/* "wave canary" (one fleet) or "wave moodle/canary" (several). */
static char *wave_label(const struct fo *fo, size_t fleet, size_t wave)
{
	size_t n;
	const struct fo_fleet *fl = fo_fleets(fo, &n);
	char *raw = n > 1 ? xasprintf("wave %s/%s", fl[fleet].name, fl[fleet].waves[wave].name)
			  : xasprintf("wave %s", fl[fleet].waves[wave].name);
	char *safe = txt_clean(raw, false);

	free(raw);
	return safe;
}

/* A timeline row about a wave: "  TIME  wave canary   CHANGE  text", the text wrapped below when long. */
static void wave_row(struct out *o, int64_t t_ms, const struct fo *fo, size_t fleet, size_t wave,
		     const char *change, const char *text, const char *tone)
{
	char t[GT_DURATION_BUFSZ];
	char *obj = wave_label(fo, fleet, wave), *safe = txt_clean(text, false);
	size_t fixed = 2 + TIME_W + 2 + o->obj_w + 1 + CHG_W + 1;
	size_t rest = o->width > fixed + 10 ? o->width - fixed : 10;

	gt_format_duration(t_ms, t, sizeof(t));
	txt_emit(o, "  %s%*s%s  ", col(o, C_DIM), TIME_W, t, col(o, C_OFF));
	txt_cell_end(o, obj, o->obj_w);
	txt_emit(o, " ");
	txt_cell(o, change, CHG_W);
	if (txt_u8_width(safe, strlen(safe)) <= rest) {
		txt_emit(o, " %s%s%s\n", col(o, tone), safe, col(o, C_OFF));
	} else {
		txt_emit(o, "\n");
		txt_wrapped(o, safe, 2 + TIME_W + 2, tone);
	}
	free(safe);
	free(obj);
}

/* The grouped member writes of one instant, one line per (wave, what). */
static void flush_groups(struct out *o, const struct fo *fo, int64_t t_ms, struct grps *gs)
{
	for (size_t i = 0; i < gs->n; i++) {
		const struct grp *g = &gs->g[i];
		char *text;

		if (g->counter || !g->count)
			continue;
		/* The change column says "members": "120 AwaitingApproval", "30 approved 4.6.0". */
		if (g->what == GW_APPROVAL)
			text = xasprintf("%zu approved %s", g->count, g->label);
		else if (g->what == GW_SOURCE)
			text = xasprintf("%zu new version (source)", g->count);
		else if (g->what == GW_STAMP)
			text = xasprintf("%zu %sstamped %s", g->count, g->abnormal ? "more " : "",
					 g->label);
		else if (g->abnormal)
			text = xasprintf("%zu more %s", g->count, g->label);
		else
			text = xasprintf("%zu %s", g->count, g->label);
		wave_row(o, t_ms, fo, g->fleet, g->wave, g->what == GW_EVENT ? "events" : "members",
			 text, g->abnormal ? C_RED : C_DIM);
		free(text);
	}
	gs->n = 0;
}

/* One point of a wave's adoption, to be merged into the timeline by time. */
struct prog {
	int64_t t_ms;
	size_t fleet, wave, k;
};

static int cmp_prog(const void *a, const void *b)
{
	const struct prog *x = a, *y = b;

	if (x->t_ms != y->t_ms)
		return x->t_ms < y->t_ms ? -1 : 1;
	if (x->fleet != y->fleet)
		return x->fleet < y->fleet ? -1 : 1;
	return x->wave < y->wave ? -1 : x->wave > y->wave;
}

static struct prog *collect_progress(const struct fo *fo, size_t *np)
{
	size_t n, total = 0, k = 0;
	const struct fo_fleet *fl = fo_fleets(fo, &n);
	struct prog *p;

	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < fl[i].nwaves; w++)
			total += fl[i].waves[w].nprogress;
	p = xcalloc(total ? total : 1, sizeof(*p));
	for (size_t i = 0; i < n; i++)
		for (size_t w = 0; w < fl[i].nwaves; w++)
			for (size_t j = 0; j < fl[i].waves[w].nprogress; j++)
				p[k++] = (struct prog){ fl[i].waves[w].progress[j].t_ms, i, w, j };
	if (total)
		qsort(p, total, sizeof(*p), cmp_prog);
	*np = total;
	return p;
}

static void progress_row(struct out *o, const struct fo *fo, const struct prog *p)
{
	size_t n;
	const struct fo_wave *w = &fo_fleets(fo, &n)[p->fleet].waves[p->wave];
	const struct fo_progress *x = &w->progress[p->k];
	char *text = xasprintf("%zu/%zu at %s, %zu ready", x->adopted, w->nmembers, x->version,
			       x->ready);

	wave_row(o, p->t_ms, fo, p->fleet, p->wave, "adopted", text,
		 x->ready == w->nmembers ? C_GREEN : "");
	free(text);
}

/*
 * Whether event @r repeats the Ready change its object's status write of
 * the same instant shows (emitReadyEvent follows that write): the records
 * just before it at that time.
 */
static bool ready_event(const struct tl *tl, const struct tl_rec *r, size_t i)
{
	for (size_t k = i, seen = 0; k-- > 0 && seen < 8; seen++) {
		const struct tl_rec *p = tl_rec_at(tl, k);

		if (p->t_ms != r->t_ms)
			return false;
		if (p->kind == r->kind && p->ns == r->ns && p->name == r->name &&
		    p->change == TL_STATUS)
			return p->reason == r->reason;
	}
	return false;
}

/*
 * How the default timeline shows entry @r of a fleet member (@fleet, @wave
 * set): routine writes — creation, Ready True, AwaitingApproval, the
 * approved-version annotation — are summarised; anything else (StageFailed, a regression,
 * the recovery from one, a refused downgrade, a rollback-to stamp, labels, deletion) and every
 * write of a member once the rollback stamped it stays visible.
 */
static enum show member_show(const struct tl *tl, const struct tl_rec *r, size_t i,
			     const struct fo *fo, size_t *fleet, size_t *wave, const char **label,
			     int *what)
{
	static const char approved[] = "annotations: +stages.metio.wtf/approved-version=";
	static const char reapproved[] = "annotations: stages.metio.wtf/approved-version=";
	static const char stamp[] = "annotations: +stages.metio.wtf/rollback-to=";
	const char *kind = tl_str_get(tl, r->kind), *reason, *detail;
	char *key;
	bool in, recovered;
	int64_t stamped;

	if (!fo || strcmp(kind, "StageSet") != 0)
		return SH_SHOW;
	key = xasprintf("%s/%s", tl_str_get(tl, r->ns), tl_str_get(tl, r->name));
	in = fo_member_wave(fo, key, fleet, wave, &stamped);
	recovered = in && fo_member_recovered_at(fo, key, r->t_ms);
	free(key);
	if (!in)
		return SH_SHOW;
	reason = tl_str_get(tl, r->reason);
	detail = tl_str_get(tl, r->detail);
	*what = GW_REASON;
	*label = reason && reason[0] ? reason : tl_change_name((enum tl_change)r->change);
	if (r->change == TL_UPDATED && detail && !strncmp(detail, stamp, sizeof(stamp) - 1) &&
	    !strchr(detail, '\n')) {
		/* One per member, capped like any abnormal write; the waves view lists all. */
		*label = detail + sizeof("annotations: +stages.metio.wtf/") - 1;
		*what = GW_STAMP;
		return SH_SHOW;
	}
	if (r->change == TL_EVENT) {
		/*
		 * The member's Ready change is its status line.  Normal events
		 * (a baseline, a migration run, an adoption's Succeeded) are
		 * routine, quiet like the Ready True they go with, until the
		 * fleet stamps the member for a rollback; Warnings, and every
		 * event of a stamped member, are counted per reason.
		 */
		if (ready_event(tl, r, i))
			return SH_QUIET;
		if (tl_str_get(tl, r->phase) && !strcmp(tl_str_get(tl, r->phase), "Normal") &&
		    !(stamped >= 0 && r->t_ms >= stamped))
			return SH_QUIET;
		*what = GW_EVENT;
		return SH_GROUP;
	}
	if (r->change == TL_UPDATED && r->cause && !strcmp(tl_str_get(tl, r->cause), "source")) {
		*label = "source";
		*what = GW_SOURCE;
		return SH_GROUP;
	}
	if (stamped >= 0 && r->t_ms >= stamped)
		return SH_SHOW;
	switch ((enum tl_change)r->change) {
	case TL_CREATED:
		*label = "created";
		return SH_GROUP;
	case TL_STATUS:
		/* Ready again after StageFailed or the like: a recovery, shown. */
		if (reason && !strcmp(reason, "Succeeded"))
			return recovered ? SH_SHOW : SH_QUIET;
		if (reason && !strcmp(reason, "AwaitingApproval")) {
			*label = reason;
			return SH_GROUP;
		}
		break;
	case TL_UPDATED:
		if (detail && !strncmp(detail, approved, sizeof(approved) - 1) &&
		    !strchr(detail, '\n')) {
			*label = detail + sizeof(approved) - 1;
			*what = GW_APPROVAL;
			return SH_GROUP;
		}
		if (detail && !strncmp(detail, reapproved, sizeof(reapproved) - 1) &&
		    strstr(detail, "→") && !strchr(detail, '\n')) {
			/* The next version approved over the last one: "4.6.0→4.7.0". */
			*label = strstr(detail, "→") + strlen("→");
			*what = GW_APPROVAL;
			return SH_GROUP;
		}
		break;
	default:
		break;
	}
	*label = reason && reason[0] ? reason : tl_change_name((enum tl_change)r->change);
	return SH_SHOW;
}

/* A notice's run of repeats (REP_TL_CHANGES): the first shows it, the others are hidden. */
struct rep {
	bool hidden;
	size_t count;    /* occurrences in the run (on its first) */
	int64_t last_ms; /* last occurrence */
	int64_t every_ms;/* the gap between distinct times when always the same, -1 not yet, -2 irregular */
};

static bool same_notice(const struct tl_notice *a, const struct tl_notice *b)
{
	if (a->severity != b->severity || strcmp(a->text, b->text) != 0 ||
	    a->nrelated != b->nrelated)
		return false;
	for (size_t i = 0; i < a->nrelated; i++)
		if (strcmp(a->related[i].kind, b->related[i].kind) ||
		    strcmp(a->related[i].ns, b->related[i].ns) ||
		    strcmp(a->related[i].name, b->related[i].name))
			return false;
	return true;
}

/* Runs of one notice repeated by successive passes: O(notices × distinct open runs). */
static struct rep *notice_runs(const struct tl *tl)
{
	size_t nn = tl_notice_count(tl), nh = 0;
	struct rep *rep = xcalloc(nn ? nn : 1, sizeof(*rep));
	size_t *heads = xcalloc(nn ? nn : 1, sizeof(*heads));

	for (size_t i = 0; i < nn; i++) {
		struct tl_notice n;
		bool joined = false;

		tl_notice_get(tl, i, &n);
		for (size_t h = 0; h < nh && !joined; h++) {
			struct tl_notice p;
			struct rep *r = &rep[heads[h]];
			int64_t gap;

			tl_notice_get(tl, heads[h], &p);
			if (!same_notice(&n, &p))
				continue;
			gap = n.t_ms - r->last_ms;
			if (gap > REPEAT_GAP_MS) {
				/* Too long ago: this one starts a new run in its place. */
				heads[h] = i;
				rep[i] = (struct rep){ false, 1, n.t_ms, -1 };
				joined = true;
				break;
			}
			if (gap > 0)
				r->every_ms = r->every_ms == -1 || r->every_ms == gap ? gap : -2;
			r->count++;
			r->last_ms = n.t_ms;
			rep[i].hidden = true;
			joined = true;
		}
		if (!joined) {
			heads[nh++] = i;
			rep[i] = (struct rep){ false, 1, n.t_ms, -1 };
		}
	}
	free(heads);
	return rep;
}

static void repeat_line(struct out *o, const struct rep *r, const struct tl_entry *e);

static void notice_with_runs(struct out *o, const struct tl_notice *n, const struct rep *r)
{
	notice_line(o, n);
	repeat_line(o, r, NULL);
}

/* The notices and adoption points the timeline prints between entries. */
struct side {
	const struct tl *tl;
	const struct rep *rep; /* NULL: every notice as it is */
	size_t j, nn;          /* next notice, count */
	const struct prog *prog;
	size_t pj, nprog;      /* next adoption point, count */
	const struct fo *fo;
};

/*
 * Prints the notices and adoption points before @limit_ms (exclusive), in
 * time order; at equal times an adoption point (the state just after that
 * instant's writes) comes before a notice.
 */
static void drain(struct out *o, struct side *sd, int64_t limit_ms)
{
	for (;;) {
		struct tl_notice no;
		bool have_n = sd->j < sd->nn, have_p = sd->pj < sd->nprog;

		if (have_n)
			tl_notice_get(sd->tl, sd->j, &no);
		if (have_n && no.t_ms >= limit_ms)
			have_n = false;
		if (have_p && sd->prog[sd->pj].t_ms >= limit_ms)
			have_p = false;
		if (!have_n && !have_p)
			return;
		if (have_p && (!have_n || sd->prog[sd->pj].t_ms <= no.t_ms)) {
			progress_row(o, sd->fo, &sd->prog[sd->pj++]);
			continue;
		}
		if (!sd->rep || !sd->rep[sd->j].hidden)
			notice_with_runs(o, &no, sd->rep ? &sd->rep[sd->j] : NULL);
		sd->j++;
	}
}

/* Whether two records show the same thing of the same object. */
static bool same_rec(const struct tl_rec *a, const struct tl_rec *b)
{
	return a->kind == b->kind && a->ns == b->ns && a->name == b->name &&
	       a->change == b->change && a->phase == b->phase && a->reason == b->reason &&
	       a->message == b->message && a->detail == b->detail;
}

static size_t rec_hash(const struct tl_rec *r)
{
	size_t h = r->change;

	h = h * 1000003u ^ r->kind;
	h = h * 1000003u ^ r->ns;
	h = h * 1000003u ^ r->name;
	h = h * 1000003u ^ r->phase;
	h = h * 1000003u ^ r->reason;
	h = h * 1000003u ^ r->message;
	h = h * 1000003u ^ r->detail;
	return h;
}

/*
 * Runs of one entry repeated within REPEAT_GAP_MS of its previous
 * occurrence, among the entries @pick marks (a fleet flapping between two
 * states, a member oscillating after a rollback): the first of a run is
 * printed with the count, the rest hidden.  O(entries) expected.
 */
static struct rep *entry_runs(const struct tl *tl, size_t n, const bool *pick)
{
	struct rep *rep = xcalloc(n ? n : 1, sizeof(*rep));
	size_t cap = 64, used = 0;
	size_t *tab; /* head index + 1, 0 empty */

	for (size_t i = 0; i < n; i++)
		used += pick[i];
	while (cap < used * 2 + 2)
		cap *= 2;
	tab = xcalloc(cap, sizeof(*tab));
	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *r;
		size_t k;

		if (!pick[i])
			continue;
		r = tl_rec_at(tl, i);
		k = rec_hash(r) & (cap - 1);
		while (tab[k] && !same_rec(tl_rec_at(tl, tab[k] - 1), r))
			k = (k + 1) & (cap - 1);
		if (tab[k]) {
			struct rep *h = &rep[tab[k] - 1];
			int64_t gap = r->t_ms - h->last_ms;

			if (gap <= REPEAT_GAP_MS) {
				if (gap > 0)
					h->every_ms = h->every_ms == -1 || h->every_ms == gap ? gap : -2;
				h->count++;
				h->last_ms = r->t_ms;
				rep[i].hidden = true;
				continue;
			}
		}
		tab[k] = i + 1;
		rep[i] = (struct rep){ false, 1, r->t_ms, -1 };
	}
	free(tab);
	return rep;
}

/*
 * "… repeated ×N every D until T" under the entry or notice it repeats ("…
 * twice at T", "… N times at T" when every repeat is at its instant); an
 * entry's names its object ("… tenant-01/moodle status repeated ×47 …")
 * so it cannot be read as covering the entries above it, unless that would
 * pass 80 columns.
 */
static void repeat_line(struct out *o, const struct rep *r, const struct tl_entry *e)
{
	char last[GT_DURATION_BUFSZ], every[GT_DURATION_BUFSZ];
	char *what = NULL, *tail;

	if (!r || r->count < 2)
		return;
	gt_format_duration(r->last_ms, last, sizeof(last));
	if (r->every_ms == -1) {
		/* Every repeat at the entry's own instant: no "until", which would read as a span. */
		tail = r->count == 2 ? xasprintf("twice at %s", last)
				     : xasprintf("%zu times at %s", r->count, last);
	} else if (r->every_ms > 0) {
		gt_format_duration(r->every_ms, every, sizeof(every));
		tail = xasprintf("repeated ×%zu every %s until %s", r->count - 1, every, last);
	} else {
		tail = xasprintf("repeated ×%zu until %s", r->count - 1, last);
	}
	if (e && e->name) {
		char *who = txt_clean(e->name, false);

		/* A namespaced object as "ns/name", a cluster-scoped one as "Kind name". */
		if (e->ns && e->ns[0])
			what = xasprintf("%s/%s %s ", e->ns, who,
					 e->change == TL_STATUS ? "status" : "update");
		else
			what = xasprintf("%s %s %s ", e->kind ? e->kind : "", who,
					 e->change == TL_STATUS ? "status" : "update");
		free(who);
		/* Indent TIME_W + 4, "… " two columns, the tail's "×" one column in two bytes. */
		if (TIME_W + 6 + strlen(what) + strlen(tail) - 1 > 80) {
			free(what);
			what = NULL;
		}
	}
	txt_emit(o, "  %*s  %s… %s%s%s\n", TIME_W, "", col(o, C_DIM), what ? what : "", tail,
		 col(o, C_OFF));
	free(what);
	free(tail);
}

/* Per entry of the default timeline: its fleet wave when it is a fleet member's. */
struct minfo {
	bool member;
	int what;
	size_t fleet, wave;
	const char *label;
};

void txt_timeline(struct out *o, const struct rep_run *run, enum rep_timeline which)
{
	uint8_t *show;
	struct minfo *mi;
	struct rep *rep = NULL, *erep = NULL;
	struct prog *prog = NULL;
	size_t nprog = 0;
	bool summarise = which == REP_TL_CHANGES && run->fleets;
	size_t n = tl_count(run->tl), nn = tl_notice_count(run->tl);
	size_t obj_max = OBJ_MIN_W;
	struct last *tab = NULL;
	size_t cap = 0, used = 0;
	struct grps gs = { 0 };
	struct side sd;
	int64_t inst = -1;
	size_t at_inst = 0, hidden = 0;

	o->compact = which == REP_TL_CHANGES;
	o->obj_w = OBJ_MIN_W;
	/* The object column fits the longest name, leaving the phase 20 columns. */
	if (o->width >= 2 + TIME_W + 2 + CHG_W + 2 + 20)
		obj_max = o->width - (2 + TIME_W + 2 + CHG_W + 2 + 20);
	show = xcalloc(n ? n : 1, sizeof(*show));
	mi = xcalloc(n ? n : 1, sizeof(*mi));
	for (size_t i = 0; i < n; i++) {
		const struct tl_rec *r = tl_rec_at(run->tl, i);
		struct minfo *m = &mi[i];

		show[i] = which == REP_TL_ALL ||
				  worth_showing(run->tl, r, last_of(&tab, &cap, &used, r))
			  ? SH_SHOW
			  : SH_HIDE;
		if (show[i] == SH_SHOW && summarise) {
			m->label = NULL;
			show[i] = (uint8_t)member_show(run->tl, r, i, run->fleets, &m->fleet,
						       &m->wave, &m->label, &m->what);
			m->member = m->label != NULL;
		}
	}
	free(tab);
	if (which == REP_TL_CHANGES)
		rep = notice_runs(run->tl);
	if (summarise) {
		/* Repeats of the fleets' and their members' entries collapse. */
		bool *pick = xcalloc(n ? n : 1, sizeof(*pick));

		for (size_t i = 0; i < n; i++)
			pick[i] = show[i] == SH_SHOW &&
				  (mi[i].member ||
				   !strcmp(tl_str_get(run->tl, tl_rec_at(run->tl, i)->kind),
					   "FleetRollout"));
		erep = entry_runs(run->tl, n, pick);
		free(pick);
		prog = collect_progress(run->fleets, &nprog);
	}
	for (size_t i = 0; i < n; i++) {
		struct tl_entry e;
		char obj[512];
		size_t w;

		if (show[i] != SH_SHOW)
			continue;
		tl_get(run->tl, i, &e);
		object_name(&e, obj, sizeof(obj));
		w = txt_u8_width(obj, strlen(obj));
		if (w > o->obj_w)
			o->obj_w = w < obj_max ? w : obj_max;
	}

	sd = (struct side){ run->tl, rep, 0, nn, prog, 0, nprog, run->fleets };
	txt_emit(o, "\n  %s%*s  ", col(o, C_DIM), TIME_W, "TIME");
	txt_cell(o, "OBJECT", o->obj_w);
	txt_emit(o, " ");
	txt_cell(o, "CHANGE", CHG_W);
	txt_emit(o, " PHASE · REASON%s\n", col(o, C_OFF));
	for (size_t i = 0; i < n; i++) {
		struct tl_entry e;
		const struct tl_rec *r;

		if (show[i] == SH_HIDE || show[i] == SH_QUIET || (erep && erep[i].hidden))
			continue;
		r = tl_rec_at(run->tl, i);
		/*
		 * A zero-delay loop (overlapping steps flapping a grant) writes
		 * thousands of changes at one instant: past a screenful, count them.
		 */
		if (r->t_ms != inst) {
			if (hidden)
				hidden_line(o, inst, hidden);
			flush_groups(o, run->fleets, inst, &gs);
			inst = r->t_ms;
			at_inst = hidden = 0;
		}
		drain(o, &sd, r->t_ms);
		if (show[i] == SH_GROUP) {
			grp_add(&gs, mi[i].fleet, mi[i].wave, mi[i].label, mi[i].what, false);
			continue;
		}
		if (mi[i].member) {
			struct grp *shown = grp_get(&gs, mi[i].fleet, mi[i].wave, mi[i].label,
						    mi[i].what, false, true);

			if (shown->count >= MEMBER_LINES_PER_INSTANT) {
				grp_add(&gs, mi[i].fleet, mi[i].wave, mi[i].label, mi[i].what, true);
				continue;
			}
			shown->count++;
		}
		if (which == REP_TL_CHANGES && ++at_inst > MAX_PER_INSTANT) {
			hidden++;
			continue;
		}
		tl_get(run->tl, i, &e);
		entry_line(o, &e);
		if (erep)
			repeat_line(o, &erep[i], &e);
	}
	if (hidden)
		hidden_line(o, inst, hidden);
	flush_groups(o, run->fleets, inst, &gs);
	drain(o, &sd, INT64_MAX);
	free(gs.g);
	free(show);
	free(mi);
	free(rep);
	free(erep);
	free(prog);
}
