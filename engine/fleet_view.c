#include "engine/fleet_view.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/labels.h"
#include "engine/xalloc.h"

/* The view's text, grown by doubling (one line per member: 100 000 lines at 100 000 members). */
struct buf {
	char *s;
	size_t n, cap;
};

static void put_mem(struct buf *b, const char *text, size_t len)
{
	if (b->n + len + 1 > b->cap) {
		while (b->n + len + 1 > b->cap)
			b->cap = b->cap ? 2 * b->cap : 256;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->n, text, len);
	b->n += len;
	b->s[b->n] = '\0';
}

static void put_str(struct buf *b, const char *text)
{
	put_mem(b, text, strlen(text));
}

/* Steals @text. */
static void put(struct buf *b, char *text)
{
	put_str(b, text);
	free(text);
}

static const char *status_str(const struct obj *o, const char *key)
{
	return val_str(val_map_get(o->status, key), "");
}

static const struct val *ready_cond(const struct obj *o)
{
	return obj_ready_condition(o);
}

/* CLI:stageSetReady — Ready True and observedGeneration current; pendingUpdate is not read. */
static bool member_ready(const struct obj *m)
{
	const struct val *c = ready_cond(m);

	return c && !strcmp(val_str(val_map_get(c, "status"), ""), "True") &&
	       val_int(val_map_get(m->status, "observedGeneration"), -1) == m->generation;
}

/* CLI:memberAdopted — pinned: version == target; derived: nothing pending. */
static bool member_adopted(const struct obj *m, const char *target)
{
	if (target[0])
		return !strcmp(status_str(m, "version"), target);
	return status_str(m, "pendingVersion")[0] == '\0';
}

static int cmp_ref(const void *a, const void *b)
{
	const struct obj *x = *(const struct obj *const *)a, *y = *(const struct obj *const *)b;
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->name, y->name);
}

/* fleetVersionLabel over the selected members. */
static char *version_label(const char *target, const struct obj *const *m, size_t n)
{
	const char *first = NULL;

	if (target[0])
		return xasprintf("version %s", target);
	for (size_t i = 0; i < n; i++) {
		const char *p = status_str(m[i], "pendingVersion");

		if (!p[0])
			continue;
		if (!first)
			first = p;
		else if (strcmp(first, p) != 0)
			return xstrdup("mixed versions");
	}
	return first ? xasprintf("version %s", first) : xstrdup("the current version");
}

/* A Namespace by name: @ns sorted by name (ties in the given order), binary search for the first. */
struct ns_ref {
	const struct obj *o;
	size_t pos;
};

static int cmp_ns_ref(const void *a, const void *b)
{
	const struct ns_ref *x = a, *y = b;
	int c = strcmp(x->o->name, y->o->name);

	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

static const struct obj *find_ns(const struct ns_ref *ns, size_t n, const char *name)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ns[mid].o->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(ns[lo].o->name, name) ? ns[lo].o : NULL;
}

/* One member line, "    MARK REF(padded to 28 bytes) STATE\n", without building it apart. */
static void put_member(struct buf *b, const struct obj *m, const char *target)
{
	static const char spaces[] = "                            "; /* 28 */
	const char *ver = status_str(m, "version");
	bool adopted = member_adopted(m, target), ready = member_ready(m);
	size_t reflen = strlen(m->ns) + 1 + strlen(m->name);

	put_str(b, "    ");
	put_str(b, adopted && ready ? "✓" : adopted ? "⚠" : "…");
	put_str(b, " ");
	put_str(b, m->ns);
	put_str(b, "/");
	put_str(b, m->name);
	if (reflen < sizeof(spaces) - 1)
		put_mem(b, spaces, sizeof(spaces) - 1 - reflen);
	put_str(b, " ");
	put_str(b, ver[0] ? ver : "(none)");
	if (adopted && ready) {
		put_str(b, "  Ready\n");
	} else if (adopted) {
		put_str(b, "  not Ready (regressed)\n");
	} else {
		const char *x = target[0] ? target : status_str(m, "pendingVersion");

		put_str(b, "  held → awaiting ");
		put_str(b, x[0] ? x : "(none)");
		put_str(b, "\n");
	}
}

char *fv_write_fleet_view(const struct obj *fr, const struct obj *const *stagesets,
			  size_t nstagesets, const struct obj *const *namespaces,
			  size_t nnamespaces)
{
	struct buf b = { NULL, 0, 0 };
	const char *target = val_str(val_map_get(fr->spec, "targetVersion"), "");
	const char *phase = status_str(fr, "phase");
	const char *wave = status_str(fr, "currentWave");
	const struct val *waves = val_map_get(fr->spec, "waves");
	const struct val *swaves = val_map_get(fr->status, "waves");
	const struct val *nssel_v = val_map_get(fr->spec, "namespaceSelector");
	struct lbl_selector sel, nssel;
	char err[LBL_ERRLEN];
	const struct obj **members;
	struct ns_ref *nsx = NULL;
	size_t nmembers = 0;
	bool sel_ok, nssel_ok = true;
	char *label;
	const struct val *c;

	members = xcalloc(nstagesets ? nstagesets : 1, sizeof(*members));
	sel_ok = lbl_selector_from_val(val_map_get(fr->spec, "selector"), &sel, err, sizeof(err)) ==
		 LBL_OK;
	if (nssel_v && nssel_v->type != VAL_NULL)
		nssel_ok = lbl_selector_from_val(nssel_v, &nssel, err, sizeof(err)) == LBL_OK;
	else
		nssel_v = NULL;
	if (nssel_v && nssel_ok && sel_ok && nnamespaces) {
		nsx = xcalloc(nnamespaces, sizeof(*nsx));
		for (size_t i = 0; i < nnamespaces; i++)
			nsx[i] = (struct ns_ref){ namespaces[i], i };
		qsort(nsx, nnamespaces, sizeof(*nsx), cmp_ns_ref);
	}
	for (size_t i = 0; sel_ok && nssel_ok && i < nstagesets; i++) {
		const struct obj *m = stagesets[i];

		if (!lbl_matches(&sel, &m->labels))
			continue;
		if (nssel_v) {
			const struct obj *ns = find_ns(nsx, nsx ? nnamespaces : 0, m->ns);

			if (!lbl_matches(&nssel, ns ? &ns->labels : NULL))
				continue;
		}
		members[nmembers++] = m;
	}
	if (nmembers)
		qsort(members, nmembers, sizeof(*members), cmp_ref);

	label = version_label(target, members, nmembers);
	put(&b, xasprintf("FleetRollout %s  →  %s\n", fr->name, label));
	free(label);
	put(&b, xasprintf("  phase: %s%s%s\n", phase[0] ? phase : "Pending", wave[0] ? "   wave: " : "",
			  wave));
	c = ready_cond(fr);
	if (c && strcmp(val_str(val_map_get(c, "status"), ""), "True") != 0)
		put(&b, xasprintf("  %s: %s\n", val_str(val_map_get(c, "reason"), ""),
				  val_str(val_map_get(c, "message"), "")));

	for (size_t w = 0; waves && waves->type == VAL_LIST && w < waves->u.list.n; w++) {
		const struct val *wv = waves->u.list.items[w];
		const char *name = val_str(val_map_get(wv, "name"), "");
		const struct val *st = NULL;
		struct lbl_selector ws;
		char *unit, *suffix;
		bool settled;
		const char *health;

		for (size_t k = 0; swaves && swaves->type == VAL_LIST && k < swaves->u.list.n; k++)
			if (!strcmp(val_str(val_map_get(swaves->u.list.items[k], "name"), ""), name))
				st = swaves->u.list.items[k];
		settled = val_bool(val_map_get(st, "settled"), false);
		health = val_str(val_map_get(st, "health"), "");
		unit = target[0] ? xasprintf("at %s", target) : xstrdup("adopted");
		if (!settled)
			suffix = xstrdup("");
		else if (!strcmp(health, "Failing"))
			suffix = xstrdup("   health: Failing");
		else
			suffix = xasprintf("   settled%s%s", health[0] ? ", health: " : "", health);
		put(&b, xasprintf("  wave %s   %lld/%lld %s, %lld ready%s\n", name,
				  (long long)val_int(val_map_get(st, "atTarget"), 0),
				  (long long)val_int(val_map_get(st, "total"), 0), unit,
				  (long long)val_int(val_map_get(st, "ready"), 0), suffix));
		free(unit);
		free(suffix);
		if (lbl_selector_from_val(val_map_get(wv, "selector"), &ws, err, sizeof(err)) != LBL_OK)
			continue;
		for (size_t i = 0; i < nmembers; i++)
			if (lbl_matches(&ws, &members[i]->labels))
				put_member(&b, members[i], target);
		lbl_selector_release(&ws);
	}
	if (sel_ok)
		lbl_selector_release(&sel);
	if (nssel_v && nssel_ok)
		lbl_selector_release(&nssel);
	free(nsx);
	free(members);
	return b.s;
}
