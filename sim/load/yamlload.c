#include "sim/load/yamlload.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "engine/xalloc.h"
#include "sim/base/readfile.h"
#include "sim/load/jsonstrict.h"
#include "sim/base/strindex.h"

/*
 * The tree is built from libyaml's event stream with an explicit stack of open
 * collections, so neither deep nesting nor aliases recurse in this file.
 *
 * Invariants while a document is open:
 *  - `count` is the number of nodes created for the document so far, alias
 *    copies included (it sizes anchors); budget->alias_nodes counts the nodes
 *    created by alias expansion and merges in every document loaded with the
 *    budget and never exceeds budget->max_alias_nodes (a copy that would
 *    push it past is refused before it is made);
 *  - budget->nodes counts every node of every document loaded with the
 *    budget, alias and merge-key copies included, and never exceeds budget->max_nodes:
 *    input bytes alone do not bound the tree (`[1,1,1,...]` is a node
 *    every two bytes, about 90 bytes of memory each);
 *  - `anchor_index` maps each anchor name to its entry of `anchors`;
 *  - no node sits deeper than YL_MAX_DEPTH collections, alias copies
 *    included (an alias is refused when its anchor's height would exceed it);
 *  - every anchor points at a finished node owned either by the document tree
 *    or by `keep` (scalars used as keys, merge sources), so its pointer stays
 *    valid until the document ends;
 *  - `bad` is set once any error was reported for the document; a bad document
 *    is still parsed to the end (to find more errors) but then discarded.
 */

struct anchor {
	char *name;
	const struct val *node; /* borrowed, see invariants */
	size_t size;            /* nodes in the anchored tree */
	size_t height;          /* collection levels in the anchored tree (0 for a scalar) */
};

struct frame {
	struct val *node;        /* the open map or list (owned until attached) */
	char *anchor;            /* anchor to register when the collection ends; owned */
	size_t count_at_start;   /* doc count before this collection was opened */
	size_t height;           /* collection levels below and including this one */
	/* maps only: */
	char *key;               /* pending key, owned; NULL when the next node is a key */
	struct val_mark key_mark;
	bool key_pending;        /* a key was read (possibly a bad one) and awaits its value */
	bool key_bad;            /* the pending key was rejected: discard its value */
	bool key_merge;          /* the pending key is the merge key `<<` */
	struct val **merges;     /* values of `<<` keys, owned, in order */
	size_t nmerges;
	/*
	 * The map's keys -> their index in the map, once it has more than
	 * KEY_INDEX_FROM keys (below, a scan is cheaper): the duplicate check
	 * and the merges stay O(1) per key however large the mapping.
	 */
	struct strindex keys;
};

#define KEY_INDEX_FROM 16

struct builder {
	const char *file;
	struct diag *d;
	struct yl_stream *out;
	struct yl_budget *budget;
	/* current document */
	struct val *root;
	struct val_mark doc_mark;
	struct frame *stack;
	size_t depth, cap;
	struct anchor *anchors;
	size_t nanchors, anchors_cap;
	struct strindex anchor_index; /* name -> index into anchors */
	struct val **keep; /* nodes that anchors may point into, outside the tree */
	size_t nkeep, keep_cap;
	size_t count;
	bool bad;
	bool exploded; /* the alias budget error was reported for this document */
	bool too_deep; /* the depth error was reported for this document */
	size_t skip;   /* collections opened while too deep, still to be closed */
	bool any_error;
};

static struct val_mark mk(yaml_mark_t m)
{
	struct val_mark r = { (uint32_t)m.line + 1, (uint32_t)m.column + 1 };

	return r;
}

static void err(struct builder *b, struct val_mark m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err(struct builder *b, struct val_mark m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(b->d, DIAG_ERROR, b->file, m, fmt, ap);
	va_end(ap);
	b->bad = true;
	b->any_error = true;
}

/* err() of a bound exceeded, which stops the reading: printed past the errors limit too. */
static void err_fatal(struct builder *b, struct val_mark m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void err_fatal(struct builder *b, struct val_mark m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vfatal(b->d, b->file, m, fmt, ap);
	va_end(ap);
	b->bad = true;
	b->any_error = true;
}

static void keep_node(struct builder *b, struct val *v)
{
	if (b->nkeep == b->keep_cap) {
		b->keep_cap = b->keep_cap ? b->keep_cap * 2 : 8;
		b->keep = xreallocarray(b->keep, b->keep_cap, sizeof(*b->keep));
	}
	b->keep[b->nkeep++] = v;
}

static void add_anchor(struct builder *b, char *name, const struct val *node, size_t size,
		       size_t height)
{
	size_t i;

	/* A later anchor of the same name shadows the earlier one (YAML 1.2 §3.2.2.2). */
	if (si_get(&b->anchor_index, name, &i)) {
		free(b->anchors[i].name);
		b->anchors[i].name = name;
		b->anchors[i].node = node;
		b->anchors[i].size = size;
		b->anchors[i].height = height;
		return;
	}
	si_put(&b->anchor_index, name, b->nanchors);
	if (b->nanchors == b->anchors_cap) {
		b->anchors_cap = b->anchors_cap ? b->anchors_cap * 2 : 8;
		b->anchors = xreallocarray(b->anchors, b->anchors_cap, sizeof(*b->anchors));
	}
	b->anchors[b->nanchors].name = name;
	b->anchors[b->nanchors].node = node;
	b->anchors[b->nanchors].size = size;
	b->anchors[b->nanchors].height = height;
	b->nanchors++;
}

static const struct anchor *find_anchor(const struct builder *b, const char *name)
{
	size_t i;

	return si_get(&b->anchor_index, name, &i) ? &b->anchors[i] : NULL;
}

static void keep_node(struct builder *b, struct val *v);

/* Frees what @f owns; merge sources go to b->keep, since anchors may point into them. */
static void frame_release(struct builder *b, struct frame *f)
{
	si_release(&f->keys);
	val_free(f->node);
	free(f->anchor);
	free(f->key);
	for (size_t i = 0; i < f->nmerges; i++)
		keep_node(b, f->merges[i]);
	free(f->merges);
	memset(f, 0, sizeof(*f));
}

/* Ends the current document: keeps it when it is clean and not empty. */
static void doc_end(struct builder *b)
{
	while (b->depth > 0)
		frame_release(b, &b->stack[--b->depth]);
	if (b->root && !b->bad && b->root->type != VAL_NULL) {
		struct yl_stream *s = b->out;

		s->docs = xreallocarray(s->docs, s->n + 1, sizeof(*s->docs));
		s->docs[s->n].root = b->root;
		s->docs[s->n].mark = b->doc_mark;
		s->n++;
	} else {
		val_free(b->root);
	}
	b->root = NULL;
	for (size_t i = 0; i < b->nanchors; i++)
		free(b->anchors[i].name);
	b->nanchors = 0;
	si_release(&b->anchor_index);
	for (size_t i = 0; i < b->nkeep; i++)
		val_free(b->keep[i]);
	b->nkeep = 0;
	b->count = 0;
	b->bad = false;
	b->exploded = false;
	b->too_deep = false;
	b->skip = 0;
}

/* ---- scalars ---------------------------------------------------------------- */

static bool is_one_of(const char *s, const char *const *set)
{
	for (; *set; set++)
		if (strcmp(s, *set) == 0)
			return true;
	return false;
}

static const char *const null_words[] = { "", "~", "null", "Null", "NULL", NULL };
/*
 * Booleans as go-yaml v2 resolves plain scalars (YAML 1.1), which is what
 * kubectl and the API machinery read through sigs.k8s.io/yaml: `yes`, `on`,
 * `y` are true and `no`, `off`, `n` false, in the three spellings each.
 */
static const char *const true_words[] = { "true", "True", "TRUE", "yes", "Yes", "YES",
					  "on",   "On",   "ON",   "y",   "Y",   NULL };
static const char *const false_words[] = { "false", "False", "FALSE", "no", "No", "NO",
					   "off",   "Off",   "OFF",   "n",  "N",  NULL };
static const char *const inf_nan_words[] = { ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
					     "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN",
					     NULL };

/* Matches [-+]?[0-9]+ ; 0o[0-7]+ ; 0x[0-9a-fA-F]+ (YAML 1.2 core schema ints). */
static int int_base(const char *s)
{
	const char *p = s;

	if (s[0] == '0' && s[1] == 'o') {
		p = s + 2;
		if (!*p)
			return 0;
		for (; *p; p++)
			if (*p < '0' || *p > '7')
				return 0;
		return 8;
	}
	if (s[0] == '0' && s[1] == 'x') {
		p = s + 2;
		if (!*p)
			return 0;
		for (; *p; p++)
			if (!((*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f') ||
			      (*p >= 'A' && *p <= 'F')))
				return 0;
		return 16;
	}
	if (*p == '-' || *p == '+')
		p++;
	if (!*p)
		return 0;
	for (; *p; p++)
		if (*p < '0' || *p > '9')
			return 0;
	return 10;
}

/* Matches [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? (core schema floats). */
static bool is_float(const char *s)
{
	const char *p = s;
	bool digits = false;

	if (*p == '-' || *p == '+')
		p++;
	while (*p >= '0' && *p <= '9') {
		p++;
		digits = true;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			p++;
			digits = true;
		}
	}
	if (!digits)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '-' || *p == '+')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

/*
 * Resolves a plain scalar's text.  Returns the new node, or NULL after
 * reporting an error.
 */
static struct val *resolve_plain(struct builder *b, const char *s, struct val_mark m)
{
	int base;

	if (is_one_of(s, null_words))
		return val_new_null();
	if (is_one_of(s, true_words))
		return val_new_bool(true);
	if (is_one_of(s, false_words))
		return val_new_bool(false);
	base = int_base(s);
	if (base) {
		const char *digits = base == 10 ? s : s + 2;
		char *end;
		long long v;

		errno = 0;
		if (base == 10) {
			v = strtoll(digits, &end, 10);
		} else {
			/* Hex and octal are unsigned in the core schema; above INT64_MAX is overflow. */
			unsigned long long u = strtoull(digits, &end, base);

			if (errno == 0 && u > (unsigned long long)INT64_MAX)
				errno = ERANGE;
			v = (long long)u;
		}
		if (errno == ERANGE && base == 10) {
			/*
			 * Go's YAML library falls back to a float here, so the API
			 * server reports the field ("must be of type integer") and
			 * the schema can say what range it takes.
			 */
			double f = strtod(s, NULL);

			if (isfinite(f))
				return val_new_float(f);
		}
		if (errno == ERANGE) {
			err(b, m, "integer %s does not fit in 64 bits; quote it to make it a string", s);
			return NULL;
		}
		return val_new_int((int64_t)v);
	}
	if (is_float(s)) {
		double f = strtod(s, NULL);

		if (!isfinite(f)) {
			err(b, m, "number %s is not representable in JSON (out of range); quote it to make it a string",
			    s);
			return NULL;
		}
		return val_new_float(f);
	}
	if (is_one_of(s, inf_nan_words)) {
		err(b, m, "%s is not representable in JSON; quote it to make it a string", s);
		return NULL;
	}
	return val_new_string(s);
}

#define TAG_PREFIX "tag:yaml.org,2002:"

/* Short form of a tag for messages: "!!str" for the core ones, else as written. */
static const char *tag_short(const char *tag, char *buf, size_t len)
{
	if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0) {
		snprintf(buf, len, "!!%s", tag + strlen(TAG_PREFIX));
		return buf;
	}
	return tag;
}

static struct val *scalar_node(struct builder *b, const yaml_event_t *ev)
{
	const char *text = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	const char *tag = (const char *)ev->data.scalar.tag;
	bool plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	struct val_mark m = mk(ev->start_mark);
	struct val *v = NULL;
	char tbuf[64];

	if (memchr(text, '\0', len)) {
		err(b, m, "string contains a NUL character, which is not supported");
		return NULL;
	}
	if (!tag || strcmp(tag, "!") == 0) {
		/* Untagged: only plain scalars resolve; `!` is the non-specific tag = string. */
		v = plain && !tag ? resolve_plain(b, text, m) : val_new_string(text);
	} else if (strcmp(tag, TAG_PREFIX "str") == 0) {
		v = val_new_string(text);
	} else if (strcmp(tag, TAG_PREFIX "int") == 0 || strcmp(tag, TAG_PREFIX "float") == 0 ||
		   strcmp(tag, TAG_PREFIX "bool") == 0 || strcmp(tag, TAG_PREFIX "null") == 0) {
		const char *want = tag + strlen(TAG_PREFIX);
		bool ok;

		v = resolve_plain(b, text, m);
		if (!v)
			return NULL;
		if (strcmp(want, "int") == 0)
			ok = v->type == VAL_INT;
		else if (strcmp(want, "float") == 0)
			ok = v->type == VAL_FLOAT || v->type == VAL_INT;
		else if (strcmp(want, "bool") == 0)
			ok = v->type == VAL_BOOL;
		else
			ok = v->type == VAL_NULL;
		if (!ok) {
			err(b, m, "\"%s\" is not a valid !!%s", text, want);
			val_free(v);
			return NULL;
		}
		if (strcmp(want, "float") == 0 && v->type == VAL_INT) {
			double f = (double)v->u.i;

			val_free(v);
			v = val_new_float(f);
		}
	} else {
		err(b, m, "unknown tag \"%s\" on a scalar; only !!str, !!int, !!float, !!bool and !!null are accepted",
		    tag_short(tag, tbuf, sizeof(tbuf)));
		return NULL;
	}
	if (!v)
		return NULL;
	v->mark = m;
	val_set_raw(v, text, len);
	return v;
}

/* ---- tree assembly ---------------------------------------------------------- */

/* Describes a non-string key for the error message. */
static const char *key_kind(const struct val *k)
{
	switch (k->type) {
	case VAL_NULL:
		return "null";
	case VAL_BOOL:
		return "a boolean";
	case VAL_INT:
		return "an integer";
	case VAL_FLOAT:
		return "a number";
	case VAL_MAP:
		return "a mapping";
	case VAL_LIST:
		return "a sequence";
	case VAL_STRING:
		break;
	}
	return "a string";
}

static size_t count_nodes(const struct val *v)
{
	size_t n = 1;

	if (v->type == VAL_MAP)
		for (size_t i = 0; i < v->u.map.n; i++)
			n += count_nodes(v->u.map.items[i].v);
	else if (v->type == VAL_LIST)
		for (size_t i = 0; i < v->u.list.n; i++)
			n += count_nodes(v->u.list.items[i]);
	return n;
}

/*
 * Charges @n expanded nodes to the stream's budget; false (reported once per
 * document) when that would exceed it.
 */
static bool charge(struct builder *b, size_t n, struct val_mark m, const char *what)
{
	struct yl_budget *bg = b->budget;

	if (b->exploded || n > bg->max_alias_nodes - bg->alias_nodes) {
		if (!b->exploded)
			err_fatal(b, m,
			    "aliases and merge keys would create more than %llu nodes in all the "
			    "inputs (%s); refusing to expand them %s",
			    (unsigned long long)bg->max_alias_nodes, what,
			    lim_hint(LIM_ALIAS_NODES));
		b->exploded = true;
		return false;
	}
	bg->alias_nodes += n;
	b->count += n;
	return true;
}

/*
 * Charges @n nodes to the stream's node budget; false when that would pass
 * it: reported at @m, the document dropped and nothing more read.
 */
static bool count_nodes_in(struct builder *b, uint64_t n, struct val_mark m)
{
	struct yl_budget *bg = b->budget;

	if (n <= bg->max_nodes - bg->nodes) {
		bg->nodes += n;
		return true;
	}
	err_fatal(b, m, "the inputs hold more than %llu YAML nodes in all %s",
	    (unsigned long long)bg->max_nodes, lim_hint(LIM_YAML_NODES));
	bg->exhausted = true;
	b->bad = true;
	return false;
}

/* Collects the mappings a `<<` value names; steals @v. */
static void add_merge(struct builder *b, struct frame *f, struct val *v)
{
	bool ok = v->type == VAL_MAP;

	if (v->type == VAL_LIST) {
		ok = true;
		for (size_t i = 0; i < v->u.list.n; i++)
			if (v->u.list.items[i]->type != VAL_MAP)
				ok = false;
	}
	if (!ok) {
		err(b, v->mark,
		    "the merge key \"<<\" takes a mapping or a sequence of mappings, not %s",
		    key_kind(v));
		keep_node(b, v);
		return;
	}
	f->merges = xreallocarray(f->merges, f->nmerges + 1, sizeof(*f->merges));
	f->merges[f->nmerges++] = v;
}

/* The entry of @key in the open map of @f, or NULL. */
static const struct val_kv *frame_key(const struct frame *f, const char *key)
{
	size_t i;

	if (f->node->u.map.n <= KEY_INDEX_FROM)
		return val_map_get_kv(f->node, key);
	return si_get(&f->keys, key, &i) ? &f->node->u.map.items[i] : NULL;
}

/* Appends @key (not in the map) with @v (stolen) to the open map of @f, at @m. */
static void frame_add(struct frame *f, const char *key, struct val *v, struct val_mark m)
{
	struct val *map = f->node;

	val_map_append(map, key, v);
	map->u.map.items[map->u.map.n - 1].key_mark = m;
	if (map->u.map.n == KEY_INDEX_FROM + 1) {
		for (size_t i = 0; i < map->u.map.n; i++)
			si_put(&f->keys, map->u.map.items[i].key, i);
	} else if (map->u.map.n > KEY_INDEX_FROM + 1) {
		si_put(&f->keys, key, map->u.map.n - 1);
	}
}

/* Copies the keys of @src that the map of @f lacks into it (sources stay intact: anchors may name them). */
static void merge_one(struct builder *b, struct frame *f, const struct val *src)
{
	for (size_t i = 0; i < src->u.map.n; i++) {
		const struct val_kv *kv = &src->u.map.items[i];
		size_t n;

		if (frame_key(f, kv->key))
			continue;
		/* A copy holds nodes as an alias's does: both budgets count them. */
		n = count_nodes(kv->v);
		if (!charge(b, n, kv->key_mark, "merge key \"<<\"") ||
		    !count_nodes_in(b, n, kv->key_mark))
			return;
		frame_add(f, kv->key, val_copy(kv->v), kv->key_mark);
	}
}

/* Applies the `<<` sources of @f to its map: explicit keys win, then earlier sources. */
static void apply_merges(struct builder *b, struct frame *f)
{
	for (size_t i = 0; i < f->nmerges; i++) {
		const struct val *src = f->merges[i];

		if (src->type == VAL_MAP) {
			merge_one(b, f, src);
		} else {
			for (size_t j = 0; j < src->u.list.n; j++)
				merge_one(b, f, src->u.list.items[j]);
		}
	}
}

/*
 * Attaches a finished node to the open collection (or makes it the root).
 * @v:         the node (stolen); NULL after an error: the slot is consumed and
 *             nothing attached.
 * @height:    collection levels in @v (0 for a scalar).
 * @merge_key: @v is the plain scalar `<<`.
 * @anchored:  an anchor points at @v, so a discarded @v must outlive the document.
 */
static void attach(struct builder *b, struct val *v, size_t height, bool merge_key, bool anchored)
{
	struct frame *f;

	if (b->depth == 0) {
		if (!b->root)
			b->root = v;
		else
			keep_node(b, v);
		return;
	}
	f = &b->stack[b->depth - 1];
	if (height + 1 > f->height)
		f->height = height + 1;
	if (f->node->type == VAL_LIST) {
		if (v)
			val_list_push(f->node, v);
		return;
	}
	if (!f->key_pending) {
		/* This node is a key. */
		f->key_pending = true;
		f->key_bad = false;
		f->key_merge = false;
		free(f->key);
		f->key = NULL;
		if (!v) {
			f->key_bad = true;
			return;
		}
		f->key_mark = v->mark;
		if (merge_key) {
			f->key_merge = true;
		} else if (v->type == VAL_MAP || v->type == VAL_LIST) {
			err(b, v->mark, "mapping keys must be scalars, not %s", key_kind(v));
			f->key_bad = true;
		} else if (v->type != VAL_STRING) {
			err(b, v->mark, "mapping key %s is %s; keys must be strings: quote it (\"%s\")",
			    v->raw ? v->raw : "", key_kind(v), v->raw ? v->raw : "");
			f->key_bad = true;
		} else {
			f->key = xstrdup(v->u.s);
		}
		/*
		 * A collection refused as a key may hold anchored nodes of its
		 * own, which later aliases of this document still copy.
		 */
		if (anchored || v->type == VAL_MAP || v->type == VAL_LIST)
			keep_node(b, v);
		else
			val_free(v);
		return;
	}
	/* This node is the value of the pending key. */
	f->key_pending = false;
	if (!v)
		return;
	if (f->key_bad) {
		keep_node(b, v);
		return;
	}
	if (f->key_merge) {
		add_merge(b, f, v);
		return;
	}
	{
		const struct val_kv *first = frame_key(f, f->key);

		if (first) {
			err(b, f->key_mark, "duplicate key \"%s\"", f->key);
			diag_note(b->d, b->file, first->key_mark, "\"%s\" first appears here",
				  f->key);
			keep_node(b, v);
			return;
		}
	}
	frame_add(f, f->key, v, f->key_mark);
}

static void open_collection(struct builder *b, bool is_map, const yaml_char_t *anchor,
			    const yaml_char_t *tag, yaml_mark_t start)
{
	struct val_mark m = mk(start);
	struct frame *f;
	const char *want = is_map ? TAG_PREFIX "map" : TAG_PREFIX "seq";
	char tbuf[64];

	if (b->skip || b->depth >= YL_MAX_DEPTH) {
		if (!b->too_deep)
			err(b, m, "nesting deeper than %d levels", YL_MAX_DEPTH);
		b->too_deep = true;
		b->skip++;
		return;
	}
	if (tag && strcmp((const char *)tag, want) != 0 && strcmp((const char *)tag, "!") != 0)
		err(b, m, "unknown tag \"%s\" on a %s; only %s is accepted there",
		    tag_short((const char *)tag, tbuf, sizeof(tbuf)), is_map ? "mapping" : "sequence",
		    is_map ? "!!map" : "!!seq");
	if (b->depth == b->cap) {
		b->cap = b->cap ? b->cap * 2 : 16;
		b->stack = xreallocarray(b->stack, b->cap, sizeof(*b->stack));
	}
	f = &b->stack[b->depth++];
	memset(f, 0, sizeof(*f));
	f->node = is_map ? val_new_map() : val_new_list();
	f->node->mark = m;
	f->anchor = anchor ? xstrdup((const char *)anchor) : NULL;
	f->count_at_start = b->count;
	f->height = 1;
	b->count++;
}

static void close_collection(struct builder *b)
{
	struct frame *f;
	struct val *node;
	size_t height;
	bool anchored = false;

	if (b->skip) {
		b->skip--;
		return;
	}
	f = &b->stack[b->depth - 1];
	if (f->node->type == VAL_MAP)
		apply_merges(b, f);
	node = f->node;
	f->node = NULL;
	height = f->height;
	if (f->anchor) {
		add_anchor(b, f->anchor, node, b->count - f->count_at_start, height);
		f->anchor = NULL;
		anchored = true;
	}
	frame_release(b, f);
	b->depth--;
	attach(b, node, height, false, anchored);
}

static void on_scalar(struct builder *b, const yaml_event_t *ev)
{
	struct val *v;
	bool merge_key, anchored = false;

	if (b->skip)
		return;
	v = scalar_node(b, ev);
	b->count++;
	merge_key = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && !ev->data.scalar.tag &&
		    strcmp((const char *)ev->data.scalar.value, "<<") == 0;
	if (v && ev->data.scalar.anchor) {
		add_anchor(b, xstrdup((const char *)ev->data.scalar.anchor), v, 1, 0);
		anchored = true;
	}
	attach(b, v, 0, merge_key, anchored);
}

static void on_alias(struct builder *b, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct val_mark m = mk(ev->start_mark);
	const struct anchor *a;
	struct val *copy;
	char what[96];

	if (b->skip)
		return;
	a = find_anchor(b, name);
	if (!a) {
		/* Also the case for an alias inside its own anchor (a cycle). */
		err(b, m, "unknown anchor \"%s\" (an alias must follow its anchor's complete node)",
		    name);
		attach(b, NULL, 0, false, false);
		return;
	}
	if (b->depth + a->height > YL_MAX_DEPTH) {
		if (!b->too_deep)
			err(b, m, "nesting deeper than %d levels (through alias \"%s\")",
			    YL_MAX_DEPTH, name);
		b->too_deep = true;
		b->bad = true;
		attach(b, NULL, 0, false, false);
		return;
	}
	snprintf(what, sizeof(what), "alias \"%.60s\"", name);
	if (!charge(b, a->size, m, what) || !count_nodes_in(b, a->size, m)) {
		attach(b, NULL, 0, false, false);
		return;
	}
	copy = val_copy(a->node);
	copy->mark = m;
	/* An alias of a plain `<<` scalar is not a merge key (YAML 1.1 merge is a plain key). */
	attach(b, copy, a->height, false, false);
}

/* ---- input checks ----------------------------------------------------------- */

/*
 * Rejects NUL bytes and invalid UTF-8 (overlong forms, surrogates, beyond
 * U+10FFFF) with the position of the first bad byte.  Columns count
 * characters, as libyaml's do.  Returns 0 or -1 (reported).
 */
static int check_text(struct builder *b, const unsigned char *s, size_t len)
{
	uint32_t line = 1, col = 1;
	size_t i = 0;

	while (i < len) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp, min;
		struct val_mark m = { line, col };

		if (c == 0) {
			err(b, m, "NUL byte in input: the file must be UTF-8 text");
			return -1;
		}
		if (c < 0x80) {
			n = 1;
			cp = c;
			min = 0;
		} else if ((c & 0xE0) == 0xC0) {
			n = 2;
			cp = c & 0x1F;
			min = 0x80;
		} else if ((c & 0xF0) == 0xE0) {
			n = 3;
			cp = c & 0x0F;
			min = 0x800;
		} else if ((c & 0xF8) == 0xF0) {
			n = 4;
			cp = c & 0x07;
			min = 0x10000;
		} else {
			goto bad;
		}
		if (n > len - i)
			goto bad;
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				goto bad;
			cp = (cp << 6) | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			goto bad;
		if (c == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
		i += n;
		continue;
bad:
		err(b, m, "invalid UTF-8 byte 0x%02x: the file must be UTF-8 text", c);
		return -1;
	}
	return 0;
}

/* ---- driver ----------------------------------------------------------------- */

static void syntax_error(struct builder *b, const yaml_parser_t *p, const char *text, size_t len)
{
	struct val_mark pm = mk(p->problem_mark);

	if (p->error == YAML_READER_ERROR) {
		/* Reader errors carry an offset, not a mark (encoding problems). */
		struct val_mark none = { 0, 0 };

		err(b, none, "%s at byte offset %zu", p->problem ? p->problem : "cannot read input",
		    p->problem_offset);
		return;
	}
	if (p->error == YAML_MEMORY_ERROR)
		xalloc_fail(0); /* out of memory inside libyaml, as xalloc reports it */
	err(b, pm, "%s", p->problem ? p->problem : "syntax error");
	if (p->context)
		diag_note(b->d, b->file, mk(p->context_mark), "%s", p->context);
	/* libyaml's wording does not say the culprit is a tab, the usual cause. */
	if (p->problem_mark.index < len && text[p->problem_mark.index] == '\t')
		diag_note(b->d, b->file, pm, "a tab character is here: YAML indents with spaces only");
}

/* yl_set_progress(): the hook, and its context (borrowed). */
static void (*progress_fn)(void *ctx, uint64_t done, uint64_t total);
static void *progress_ctx;

void yl_budget_init(struct yl_budget *b, const struct limits *lim)
{
	struct limits dflt;

	if (!lim) {
		lim_init(&dflt);
		lim = &dflt;
	}
	memset(b, 0, sizeof(*b));
	b->max_bytes = lim->v[LIM_INPUT_BYTES];
	b->max_documents = lim->v[LIM_DOCUMENTS];
	b->max_alias_nodes = lim->v[LIM_ALIAS_NODES];
	b->max_nodes = lim->v[LIM_YAML_NODES];
}

static const struct val_mark no_mark = { 0, 0 };

/* Reports that the stream holds more than the byte budget allows, and stops it. */
static void over_bytes(struct yl_budget *bg, const char *name, struct diag *d)
{
	diag_fatal(d, name, no_mark, "the inputs hold more than %llu bytes in all %s",
		   (unsigned long long)bg->max_bytes, lim_hint(LIM_INPUT_BYTES));
	bg->exhausted = true;
}

int yl_load_string_in(const char *name, const char *text, size_t len, struct yl_budget *bg,
		      struct yl_stream *out, struct diag *d)
{
	struct builder b;
	yaml_parser_t parser;
	bool done = false;
	uint64_t nevents = 0;

	memset(out, 0, sizeof(*out));
	out->file = xstrdup(name);
	if (bg->exhausted)
		return -1;
	if (len > bg->max_bytes - bg->bytes) {
		over_bytes(bg, name, d);
		return -1;
	}
	bg->bytes += len;
	memset(&b, 0, sizeof(b));
	b.file = name;
	b.d = d;
	b.out = out;
	b.budget = bg;

	if (check_text(&b, (const unsigned char *)text, len) < 0)
		return -1;
	/*
	 * A leading byte-order mark is dropped, as go-yaml drops it: with the
	 * encoding set, libyaml reads it as a character glued to the first key.
	 */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3;
		len -= 3;
	}
	if (!yaml_parser_initialize(&parser))
		xalloc_fail(sizeof(parser));
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);

	while (!done) {
		yaml_event_t ev;

		if (!yaml_parser_parse(&parser, &ev)) {
			syntax_error(&b, &parser, text, len);
			break;
		}
		switch (ev.type) {
		case YAML_STREAM_END_EVENT:
			done = true;
			break;
		case YAML_DOCUMENT_START_EVENT:
			b.doc_mark = mk(ev.start_mark);
			if (bg->documents == bg->max_documents) {
				err_fatal(&b, b.doc_mark, "the inputs hold more than %llu YAML documents in all %s",
				    (unsigned long long)bg->max_documents, lim_hint(LIM_DOCUMENTS));
				bg->exhausted = true;
			}
			bg->documents++;
			break;
		case YAML_DOCUMENT_END_EVENT:
			doc_end(&b);
			break;
		case YAML_SCALAR_EVENT:
			if (count_nodes_in(&b, 1, mk(ev.start_mark)))
				on_scalar(&b, &ev);
			break;
		case YAML_ALIAS_EVENT:
			on_alias(&b, &ev);
			break;
		case YAML_SEQUENCE_START_EVENT:
			if (!count_nodes_in(&b, 1, mk(ev.start_mark)))
				break;
			open_collection(&b, false, ev.data.sequence_start.anchor,
					ev.data.sequence_start.tag, ev.start_mark);
			break;
		case YAML_MAPPING_START_EVENT:
			if (!count_nodes_in(&b, 1, mk(ev.start_mark)))
				break;
			open_collection(&b, true, ev.data.mapping_start.anchor,
					ev.data.mapping_start.tag, ev.start_mark);
			break;
		case YAML_SEQUENCE_END_EVENT:
		case YAML_MAPPING_END_EVENT:
			close_collection(&b);
			break;
		case YAML_STREAM_START_EVENT:
		case YAML_NO_EVENT:
			break;
		}
		yaml_event_delete(&ev);
		if (progress_fn && ++nevents % YL_PROGRESS_EVENTS == 0)
			progress_fn(progress_ctx, parser.mark.index, len);
		/*
		 * Past the depth limit the rest of the file cannot load anyway, and
		 * libyaml's scanner slows down quadratically in deep flow nesting
		 * ([[[[...): stop reading now rather than after the whole file.
		 * Past the document budget nothing more is read either.
		 */
		if (b.too_deep || bg->exhausted)
			break;
	}
	/* After a syntax error (or a stop) the open document is incomplete: drop it. */
	b.bad = b.bad || !done;
	doc_end(&b);
	yaml_parser_delete(&parser);
	free(b.stack);
	free(b.anchors);
	free(b.keep);
	return b.any_error ? -1 : 0;
}

void yl_set_progress(void (*fn)(void *ctx, uint64_t done, uint64_t total), void *ctx)
{
	progress_fn = fn;
	progress_ctx = ctx;
}

int yl_load_string(const char *name, const char *text, size_t len, struct yl_stream *out,
		   struct diag *d)
{
	struct yl_budget bg;

	yl_budget_init(&bg, NULL);
	return yl_load_string_in(name, text, len, &bg, out, d);
}

/* Whether @path names a JSON file (*.json): kubectl decodes it as JSON, not YAML. */
static bool is_json_name(const char *path)
{
	size_t n = strlen(path);

	return n > 5 && strcmp(path + n - 5, ".json") == 0;
}

int yl_load_file_in(const char *path, struct yl_budget *bg, struct yl_stream *out,
		    struct diag *d)
{
	const char *kind = NULL;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->file = xstrdup(path);
	if (bg->exhausted)
		return -1;
	switch (rf_read(path, bg->max_bytes - bg->bytes, &buf, &len, &kind)) {
	case RF_OK:
		break;
	case RF_NOTREG:
		diag_error(d, path, no_mark, "cannot read: not a regular file (%s)", kind);
		return -1;
	case RF_TOOBIG:
		over_bytes(bg, path, d);
		return -1;
	default:
		diag_error(d, path, no_mark, "cannot read: %s", strerror(errno ? errno : EIO));
		return -1;
	}
	if (is_json_name(path)) {
		struct val_mark at;
		char msg[256];

		if (js_strict_check(buf, len, &at, msg, sizeof(msg)) != 0) {
			diag_error(d, path, at, "%s; a .json input must be strict JSON, as kubectl "
				   "reads it (or rename it .yaml)", msg);
			free(buf);
			return -1;
		}
	}
	free(out->file);
	rc = yl_load_string_in(path, buf, len, bg, out, d);
	free(buf);
	return rc;
}

int yl_load_file(const char *path, struct yl_stream *out, struct diag *d)
{
	struct yl_budget bg;

	yl_budget_init(&bg, NULL);
	return yl_load_file_in(path, &bg, out, d);
}

void yl_stream_release(struct yl_stream *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		val_free(s->docs[i].root);
	free(s->docs);
	free(s->file);
	memset(s, 0, sizeof(*s));
}

/* ---------------------------------------------------------------- emitting */

/* The text libyaml's emitter writes, grown as it writes. */
struct emit_buf {
	char *p;
	size_t n, cap;
};

static int emit_write(void *data, unsigned char *buffer, size_t size)
{
	struct emit_buf *b = data;

	if (b->n + size + 1 > b->cap) {
		b->cap = (b->n + size + 1) * 2;
		b->p = xrealloc(b->p, b->cap);
	}
	memcpy(b->p + b->n, buffer, size);
	b->n += size;
	b->p[b->n] = '\0';
	return 1;
}

/*
 * plain_safe() - whether string @s may be written plain: it reads back as
 * the same string (not null, a boolean of YAML 1.1, a number, a time that
 * go-yaml would type); else it is double-quoted, as go-yaml quotes it.  A
 * string that may be plain but holds what a plain scalar cannot (": ", a
 * leading "-") is single-quoted by libyaml's emitter, as by go-yaml's.
 */
static bool plain_safe(const char *s)
{
	static const char *const yn[] = { "y", "Y", "n", "N", "on", "On", "ON", "off", "Off", "OFF", NULL };

	if (!s[0] || is_one_of(s, null_words) || is_one_of(s, true_words) ||
	    is_one_of(s, false_words) || is_one_of(s, yn) || is_one_of(s, inf_nan_words) ||
	    int_base(s) || is_float(s))
		return false;
	/* go-yaml types YYYY-MM-DD... as a timestamp: kubectl quotes times */
	if (strlen(s) >= 10 && isdigit((unsigned char)s[0]) && s[4] == '-' && s[7] == '-')
		return false;
	return true;
}

static int emit_node(yaml_emitter_t *e, const struct val *v);

static int emit_scalar(yaml_emitter_t *e, const char *text, bool plain_ok)
{
	yaml_event_t ev;

	/* implicit either way: no tag is ever written; the style makes it a string */
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)text, (int)strlen(text),
					  plain_ok, 1,
					  plain_ok ? YAML_ANY_SCALAR_STYLE : YAML_DOUBLE_QUOTED_SCALAR_STYLE))
		return -1;
	return yaml_emitter_emit(e, &ev) ? 0 : -1;
}

/* The shortest %g form of @f that strtod reads back as @f (Go's 'g', -1 precision). */
static void shortest_float(double f, char *buf, size_t len)
{
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, f);
		if (strtod(buf, NULL) == f)
			break;
	}
	/* a float stays a float when read back */
	if (!strpbrk(buf, ".eEn"))
		strncat(buf, ".0", len - strlen(buf) - 1);
}

static int emit_node(yaml_emitter_t *e, const struct val *v)
{
	yaml_event_t ev;
	char num[40];

	switch (v ? v->type : VAL_NULL) {
	case VAL_NULL:
		return emit_scalar(e, "null", true);
	case VAL_BOOL:
		return emit_scalar(e, v->u.b ? "true" : "false", true);
	case VAL_INT:
		snprintf(num, sizeof(num), "%" PRId64, v->u.i);
		return emit_scalar(e, num, true);
	case VAL_FLOAT:
		shortest_float(v->u.f, num, sizeof(num));
		return emit_scalar(e, num, true);
	case VAL_STRING:
		return emit_scalar(e, v->u.s, plain_safe(v->u.s));
	case VAL_MAP:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, v->u.map.n ? YAML_BLOCK_MAPPING_STYLE : YAML_FLOW_MAPPING_STYLE) ||
		    !yaml_emitter_emit(e, &ev))
			return -1;
		for (size_t i = 0; i < v->u.map.n; i++)
			if (emit_scalar(e, v->u.map.items[i].key, plain_safe(v->u.map.items[i].key)) ||
			    emit_node(e, v->u.map.items[i].v))
				return -1;
		if (!yaml_mapping_end_event_initialize(&ev) || !yaml_emitter_emit(e, &ev))
			return -1;
		return 0;
	case VAL_LIST:
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, v->u.list.n ? YAML_BLOCK_SEQUENCE_STYLE : YAML_FLOW_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(e, &ev))
			return -1;
		for (size_t i = 0; i < v->u.list.n; i++)
			if (emit_node(e, v->u.list.items[i]))
				return -1;
		if (!yaml_sequence_end_event_initialize(&ev) || !yaml_emitter_emit(e, &ev))
			return -1;
		return 0;
	}
	return -1;
}

int yl_emit(const struct val *doc, const char *comment, char **out)
{
	struct emit_buf b = { 0 };
	yaml_emitter_t e;
	yaml_event_t ev;
	int rc = -1;

	*out = NULL;
	if (comment) {
		for (const char *line = comment; *line;) {
			const char *nl = strchr(line, '\n');
			size_t n = nl ? (size_t)(nl - line) : strlen(line);
			char *l = xasprintf("# %.*s\n", (int)n, line);

			emit_write(&b, (unsigned char *)l, strlen(l));
			free(l);
			line += n + (nl ? 1 : 0);
		}
	}
	if (!yaml_emitter_initialize(&e))
		goto out_free_buf;
	yaml_emitter_set_output(&e, emit_write, &b);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_indent(&e, 2);
	yaml_emitter_set_width(&e, -1);
	if (!yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) || !yaml_emitter_emit(&e, &ev) ||
	    !yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) ||
	    !yaml_emitter_emit(&e, &ev) || emit_node(&e, doc) ||
	    !yaml_document_end_event_initialize(&ev, 1) || !yaml_emitter_emit(&e, &ev) ||
	    !yaml_stream_end_event_initialize(&ev) || !yaml_emitter_emit(&e, &ev) ||
	    !yaml_emitter_flush(&e))
		goto out_delete_emitter;
	rc = 0;
out_delete_emitter:
	yaml_emitter_delete(&e);
out_free_buf:
	if (rc == 0 && b.p) {
		*out = b.p;
		return 0;
	}
	if (rc == 0) {
		*out = xstrdup("");
		return 0;
	}
	free(b.p);
	return -1;
}
