#include "sim/cluster/schema.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"
#include "sim/base/gotime.h"
#include "sim/base/keybuf.h"
#include "sim/base/suggest.h"

const struct sch_node sch_any = { .type = SCH_ANY };
const struct sch_node sch_string = { .type = SCH_STRING };
const struct sch_node sch_string_nonempty = { .type = SCH_STRING, .min_length = 1 };
const struct sch_node sch_integer = { .type = SCH_INTEGER };
const struct sch_node sch_number = { .type = SCH_NUMBER };
const struct sch_node sch_boolean = { .type = SCH_BOOLEAN };
const struct sch_node sch_duration = { .type = SCH_DURATION };
const struct sch_node sch_string_map = { .type = SCH_MAP, .items = &sch_string };
const struct sch_node sch_string_list = { .type = SCH_ARRAY, .items = &sch_string };
const struct sch_node sch_any_object = { .type = SCH_OBJECT, .preserve_unknown = true };

/* ---- messages --------------------------------------------------------------- */

static void vreport(struct sch_ctx *c, struct val_mark mark, const char *path, const char *fmt,
		    va_list ap) __attribute__((format(printf, 4, 0)));

static void vreport(struct sch_ctx *c, struct val_mark mark, const char *path, const char *fmt,
		    va_list ap)
{
	char *body;
	int len;
	va_list ap2;

	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	body = xmalloc(len > 0 ? (size_t)len + 1 : 1);
	vsnprintf(body, len > 0 ? (size_t)len + 1 : 1, fmt, ap);
	diag_error(c->d, c->file, mark, "%s%s%s%s", c->prefix ? c->prefix : "",
		   path && *path ? path : "", path && *path ? ": " : "", body);
	free(body);
	c->nerrors++;
}

void sch_report(struct sch_ctx *c, struct val_mark mark, const char *path, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport(c, mark, path, fmt, ap);
	va_end(ap);
}

void sch_note(struct sch_ctx *c, struct val_mark mark, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vadd(c->d, DIAG_NOTE, c->file, mark, fmt, ap);
	va_end(ap);
}

/* Go's %q of a UTF-8 string, close enough: escapes quotes, backslashes and controls. */
static char *quote_string(const char *s)
{
	size_t n = strlen(s);
	char *out = xmalloc(n * 4 + 3);
	char *p = out;

	*p++ = '"';
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		switch (ch) {
		case '"':
			*p++ = '\\';
			*p++ = '"';
			break;
		case '\\':
			*p++ = '\\';
			*p++ = '\\';
			break;
		case '\n':
			*p++ = '\\';
			*p++ = 'n';
			break;
		case '\t':
			*p++ = '\\';
			*p++ = 't';
			break;
		case '\r':
			*p++ = '\\';
			*p++ = 'r';
			break;
		default:
			if (ch < 0x20 || ch == 0x7f) {
				sprintf(p, "\\x%02x", ch);
				p += 4;
			} else {
				*p++ = (char)ch;
			}
		}
	}
	*p++ = '"';
	*p = '\0';
	return out;
}

/* Byte length of the first @max UTF-8 code points of @s (all of it when shorter). */
static size_t prefix_bytes(const char *s, size_t max)
{
	size_t i = 0, chars = 0;

	while (s[i] && chars < max) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		chars++;
	}
	return i;
}

char *sch_abbrev(const char *s)
{
	size_t n = prefix_bytes(s, SCH_QUOTE_MAX);

	if (!s[n])
		return xstrdup(s);
	return xasprintf("%.*s...", (int)n, s);
}

char *sch_quote(const struct val *v)
{
	if (!v)
		return xstrdup("null");
	switch (v->type) {
	case VAL_NULL:
		return xstrdup("null");
	case VAL_BOOL:
		return xstrdup(v->raw ? v->raw : v->u.b ? "true" : "false");
	case VAL_INT:
		return v->raw ? xstrdup(v->raw) : xasprintf("%" PRId64, v->u.i);
	case VAL_FLOAT:
		return v->raw ? xstrdup(v->raw) : xasprintf("%.17g", v->u.f);
	case VAL_STRING: {
		size_t n = prefix_bytes(v->u.s, SCH_QUOTE_MAX);
		char *head, *q, *out;

		if (!v->u.s[n])
			return quote_string(v->u.s);
		head = xstrndup(v->u.s, n);
		q = quote_string(head);
		out = xasprintf("%s... (%zu bytes)", q, strlen(v->u.s));
		free(q);
		free(head);
		return out;
	}
	case VAL_MAP:
		return xstrdup("\"object\"");
	case VAL_LIST:
		return xstrdup("\"array\"");
	}
	return xstrdup("null");
}

char *sch_accepted_fields(const struct sch_node *s)
{
	size_t len = 1;
	char *out;

	if (!s->fields)
		return xstrdup("(none)");
	for (const struct sch_field *f = s->fields; f->name; f++)
		len += strlen(f->name) + 2;
	out = xmalloc(len);
	out[0] = '\0';
	for (const struct sch_field *f = s->fields; f->name; f++) {
		if (f != s->fields)
			strcat(out, ", ");
		strcat(out, f->name);
	}
	return out;
}

/* The OpenAPI type word a schema expects. */
static const char *expected_word(enum sch_type t)
{
	switch (t) {
	case SCH_STRING:
	case SCH_DURATION:
		return "string";
	case SCH_INTEGER:
		return "integer";
	case SCH_NUMBER:
		return "number";
	case SCH_BOOLEAN:
		return "boolean";
	case SCH_OBJECT:
	case SCH_MAP:
		return "object";
	case SCH_ARRAY:
		return "array";
	case SCH_ANY:
		break;
	}
	return "any";
}

static const char *shown_path(const char *path)
{
	return path && *path ? path : "<root>";
}

static void wrong_type(struct sch_ctx *c, const struct sch_node *s, const struct val *v,
		       const char *path)
{
	char *q = sch_quote(v);

	sch_report(c, v->mark, shown_path(path),
		   "Invalid value: \"%s\": %s in body must be of type %s: %s", val_type_name(v->type),
		   shown_path(path), expected_word(s->type), q);
	if ((s->type == SCH_STRING || s->type == SCH_DURATION) &&
	    (v->type == VAL_INT || v->type == VAL_FLOAT || v->type == VAL_BOOL)) {
		sch_note(c, v->mark, "YAML reads %s as a %s: quote it (\"%s\") if a string is meant; the cluster rejects the unquoted form too",
			 q, v->type == VAL_BOOL ? "boolean" : "number", q);
	}
	/* an integer past 64 bits reads as a float (as in Go's YAML): say why, and the range */
	if (s->type == SCH_INTEGER && v->type == VAL_FLOAT && v->raw && v->raw[0] &&
	    v->raw[strspn(v->raw, "+-0123456789")] == '\0') {
		char lo[32] = "-9223372036854775808", hi[32] = "9223372036854775807";

		if (s->has_minimum)
			snprintf(lo, sizeof(lo), "%.0f", s->minimum);
		if (s->has_maximum)
			snprintf(hi, sizeof(hi), "%.0f", s->maximum);
		sch_note(c, v->mark, "%s does not fit in 64 bits, so YAML reads it as a float; %s takes an "
			 "integer from %s to %s", v->raw, shown_path(path), lo, hi);
	}
	free(q);
}

/* ---- paths ------------------------------------------------------------------ */

static char *child_path(const char *path, const char *name)
{
	if (!path || !*path)
		return xstrdup(name);
	return xstrjoin((const char *const[]){ path, name }, 2, ".");
}

/*
 * child_path() into @buf (@len bytes) when it fits, else into a new string:
 * release it with kb_drop(result, buf).  validate() builds one per field of
 * every admitted object, and most are only passed down, never reported.
 */
static char *child_path_in(char *buf, size_t len, const char *path, const char *name)
{
	size_t n;
	char *k;

	if (path && *path)
		return kb_join_sep(buf, len, path, '.', name);
	n = strlen(name) + 1;
	k = n <= len ? buf : xmalloc(n);
	memcpy(k, name, n);
	return k;
}

static char *index_path(const char *path, size_t i)
{
	return xasprintf("%s[%zu]", path ? path : "", i);
}

/* ---- list-map keys (x-kubernetes-list-map-keys) ------------------------------ */

/* The key of list element @e: its field @key, NULL when absent or @e is no map. */
static const struct val *list_map_key_of(const struct val *e, const char *key)
{
	const struct val *k = e && e->type == VAL_MAP ? val_map_get(e, key) : NULL;

	return k;
}

/* Two keys are the same: both absent, or equal as JSON values. */
static bool same_key(const struct val *a, const struct val *b)
{
	if (!a || !b)
		return !a && !b;
	return val_equal(a, b);
}

/*
 * A hash of a key consistent with same_key(): equal keys hash alike (maps
 * as sets of entries, in any order; 0.0 and -0.0 alike, as == sees them).
 */
static uint64_t key_hash(const struct val *v)
{
	uint64_t h = 1469598103934665603ULL;

	if (!v)
		return 0x9e3779b97f4a7c15ULL;
	h = (h ^ (uint64_t)v->type) * 1099511628211ULL;
	switch (v->type) {
	case VAL_NULL:
		break;
	case VAL_BOOL:
		h = (h ^ (uint64_t)v->u.b) * 1099511628211ULL;
		break;
	case VAL_INT:
		h = (h ^ (uint64_t)v->u.i) * 1099511628211ULL;
		break;
	case VAL_FLOAT: {
		double f = v->u.f == 0 ? 0 : v->u.f;
		uint64_t bits;

		memcpy(&bits, &f, sizeof(bits));
		h = (h ^ bits) * 1099511628211ULL;
		break;
	}
	case VAL_STRING:
		for (const unsigned char *c = (const unsigned char *)v->u.s; *c; c++)
			h = (h ^ *c) * 1099511628211ULL;
		break;
	case VAL_MAP: {
		uint64_t sum = 0;

		for (size_t i = 0; i < v->u.map.n; i++) {
			uint64_t e = 1469598103934665603ULL;

			for (const unsigned char *c = (const unsigned char *)v->u.map.items[i].key; *c; c++)
				e = (e ^ *c) * 1099511628211ULL;
			e ^= key_hash(v->u.map.items[i].v) * 0xff51afd7ed558ccdULL;
			sum += e * 0xc4ceb9fe1a85ec53ULL;
		}
		h = (h ^ sum ^ v->u.map.n) * 1099511628211ULL;
		break;
	}
	case VAL_LIST:
		for (size_t i = 0; i < v->u.list.n; i++)
			h = (h ^ key_hash(v->u.list.items[i])) * 1099511628211ULL;
		break;
	}
	return h;
}

static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

struct keyed {
	uint64_t hash;
	size_t idx;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Lists up to this long are checked pair by pair, with no scratch memory. */
#define PAIRWISE_MAX 16

/*
 * The elements of list-map @list that are the second one with their key,
 * the element field.Duplicate names (a third or later one is not reported
 * again), in ascending order: each is passed to @fn(@ctx, index) until it
 * returns false.  Returns false when @fn stopped the walk.
 * Cost: O(n²) key comparisons up to PAIRWISE_MAX elements (no allocation);
 * beyond, O(n log n): the elements sorted by a key hash, each run of equal
 * hashes split into keys that are really equal.
 */
static bool each_second_with_key(const struct val *list, const char *key,
				 bool (*fn)(void *ctx, size_t i), void *ctx)
{
	size_t n = list->u.list.n, *second, nsecond = 0;
	struct keyed *k;
	bool go = true;

	if (n <= PAIRWISE_MAX) {
		for (size_t i = 0; i < n && go; i++) {
			const struct val *ki = list_map_key_of(list->u.list.items[i], key);
			size_t seen = 0;

			for (size_t j = 0; j < i; j++)
				if (same_key(ki, list_map_key_of(list->u.list.items[j], key)))
					seen++;
			if (seen == 1)
				go = fn(ctx, i);
		}
		return go;
	}
	k = xmalloc(n * sizeof(*k));
	for (size_t i = 0; i < n; i++) {
		k[i].hash = key_hash(list_map_key_of(list->u.list.items[i], key));
		k[i].idx = i;
	}
	qsort(k, n, sizeof(*k), cmp_keyed);
	second = xmalloc(n * sizeof(*second));
	for (size_t a = 0, b; a < n; a = b) {
		for (b = a + 1; b < n && k[b].hash == k[a].hash; b++)
			;
		if (b - a < 2)
			continue;
		/*
		 * One run of equal hashes, in index order: split it into classes
		 * of equal keys (nearly always one), each class's first element
		 * moved to the front as its representative; the second element
		 * of a class is the one named.
		 */
		for (size_t r = a, reps = a; r < b; r++) {
			const struct val *kr = list_map_key_of(list->u.list.items[k[r].idx], key);
			size_t c = a;

			for (; c < reps; c++)
				if (same_key(kr, list_map_key_of(list->u.list.items[k[c].idx], key)))
					break;
			if (c < reps) {
				/* k[c].hash counts the class's members past the first: 0 means r is the second */
				if (k[c].hash++ == 0)
					second[nsecond++] = k[r].idx;
			} else {
				struct keyed t = k[r];

				k[r] = k[reps];
				k[reps] = t;
				k[reps].hash = 0;
				reps++;
			}
		}
	}
	free(k);
	qsort(second, nsecond, sizeof(*second), cmp_index);
	for (size_t i = 0; i < nsecond && go; i++)
		go = fn(ctx, second[i]);
	free(second);
	return go;
}

/* The Go %#v of the map field.Duplicate prints: map[string]interface {}{"name":"canary"}. */
static char *duplicate_text(const char *key, const struct val *k)
{
	char *qk, *qv, *out;

	if (!k)
		return xstrdup("Duplicate value: map[string]interface {}{}");
	qk = quote_string(key);
	switch (k->type) {
	case VAL_STRING:
		qv = quote_string(k->u.s);
		break;
	case VAL_NULL:
		qv = xstrdup("interface {}(nil)");
		break;
	case VAL_INT:
		qv = xasprintf("%" PRId64, k->u.i);
		break;
	default:
		qv = sch_quote(k);
	}
	out = xasprintf("Duplicate value: map[string]interface {}{%s:%s}", qk, qv);
	free(qk);
	free(qv);
	return out;
}

static bool stop_at_first(void *ctx, size_t i)
{
	*(size_t *)ctx = i;
	return false;
}

/*
 * True when a list-map under @v (as @s describes it) has two elements with
 * one key.  Walks what sch_list_map_violation() walks, builds no path and
 * allocates nothing for lists up to PAIRWISE_MAX elements: this runs on
 * every status write a controller makes.
 */
static bool has_list_map_violation(const struct sch_node *s, const struct val *v)
{
	size_t first;

	if (!s || !v)
		return false;
	switch (s->type) {
	case SCH_OBJECT:
		if (v->type != VAL_MAP || !s->fields)
			return false;
		for (const struct sch_field *f = s->fields; f->name; f++) {
			if (f->schema->type != SCH_OBJECT && f->schema->type != SCH_ARRAY &&
			    f->schema->type != SCH_MAP)
				continue;
			if (has_list_map_violation(f->schema, val_map_get(v, f->name)))
				return true;
		}
		return false;
	case SCH_MAP:
		if (v->type != VAL_MAP || !s->items)
			return false;
		for (size_t i = 0; i < v->u.map.n; i++)
			if (has_list_map_violation(s->items, v->u.map.items[i].v))
				return true;
		return false;
	case SCH_ARRAY:
		if (v->type != VAL_LIST)
			return false;
		if (s->list_map_key &&
		    !each_second_with_key(v, s->list_map_key, stop_at_first, &first))
			return true;
		for (size_t i = 0; s->items && i < v->u.list.n; i++)
			if (has_list_map_violation(s->items, v->u.list.items[i]))
				return true;
		return false;
	default:
		return false;
	}
}

/* The message of the first violation under @v (there is one when called from the top). */
static char *violation_text(const struct sch_node *s, const struct val *v, const char *path)
{
	char *found = NULL;
	size_t first;

	if (!s || !v)
		return NULL;
	switch (s->type) {
	case SCH_OBJECT:
		if (v->type != VAL_MAP || !s->fields)
			return NULL;
		for (const struct sch_field *f = s->fields; f->name && !found; f++) {
			const struct val *child = val_map_get(v, f->name);
			char *cp;

			if (!child || (f->schema->type != SCH_OBJECT && f->schema->type != SCH_ARRAY &&
				       f->schema->type != SCH_MAP))
				continue;
			if (!has_list_map_violation(f->schema, child))
				continue;
			cp = child_path(path, f->name);
			found = violation_text(f->schema, child, cp);
			free(cp);
		}
		return found;
	case SCH_MAP:
		if (v->type != VAL_MAP || !s->items)
			return NULL;
		for (size_t i = 0; i < v->u.map.n && !found; i++) {
			char *cp;

			if (!has_list_map_violation(s->items, v->u.map.items[i].v))
				continue;
			cp = child_path(path, v->u.map.items[i].key);
			found = violation_text(s->items, v->u.map.items[i].v, cp);
			free(cp);
		}
		return found;
	case SCH_ARRAY:
		if (v->type != VAL_LIST)
			return NULL;
		if (s->list_map_key &&
		    !each_second_with_key(v, s->list_map_key, stop_at_first, &first)) {
			char *cp = index_path(path, first);
			char *t = duplicate_text(s->list_map_key,
						 list_map_key_of(v->u.list.items[first],
								 s->list_map_key));

			found = xasprintf("%s: %s", cp, t);
			free(t);
			free(cp);
			return found;
		}
		for (size_t i = 0; s->items && i < v->u.list.n && !found; i++) {
			char *cp;

			if (!has_list_map_violation(s->items, v->u.list.items[i]))
				continue;
			cp = index_path(path, i);
			found = violation_text(s->items, v->u.list.items[i], cp);
			free(cp);
		}
		return found;
	default:
		return NULL;
	}
}

char *sch_list_map_violation(const struct sch_node *s, const struct val *v, const char *path)
{
	if (!has_list_map_violation(s, v))
		return NULL;
	return violation_text(s, v, path ? path : "");
}

/* ---- defaults --------------------------------------------------------------- */

/* Builds the default of @f (text read per type); NULL when it cannot be read (a schema bug). */
static struct val *make_default(const struct sch_field *f)
{
	const char *t = f->dflt;
	char *end;

	switch (f->schema->type) {
	case SCH_STRING:
	case SCH_DURATION:
		return val_new_string(t);
	case SCH_BOOLEAN:
		if (strcmp(t, "true") == 0)
			return val_new_bool(true);
		if (strcmp(t, "false") == 0)
			return val_new_bool(false);
		return NULL;
	case SCH_INTEGER: {
		long long i = strtoll(t, &end, 10);

		return *t && !*end ? val_new_int((int64_t)i) : NULL;
	}
	case SCH_NUMBER: {
		long long i = strtoll(t, &end, 10);
		double d;

		if (*t && !*end)
			return val_new_int((int64_t)i);
		d = strtod(t, &end);
		return *t && !*end && isfinite(d) ? val_new_float(d) : NULL;
	}
	case SCH_OBJECT:
	case SCH_MAP:
		return strcmp(t, "{}") == 0 ? val_new_map() : NULL;
	case SCH_ARRAY:
		return strcmp(t, "[]") == 0 ? val_new_list() : NULL;
	case SCH_ANY:
		break;
	}
	return NULL;
}

/* ---- validation ------------------------------------------------------------- */

static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		if (((unsigned char)*s & 0xC0) != 0x80)
			n++;
	return n;
}

static void validate(const struct sch_node *s, struct val *v, const char *path, struct sch_ctx *c);

/* validate()'s report of one duplicate list-map key. */
struct dup_report {
	const struct sch_node *s;
	const struct val *list;
	const char *path;
	struct sch_ctx *c;
};

static bool report_duplicate(void *ctx, size_t i)
{
	const struct dup_report *r = ctx;
	const struct val *e = r->list->u.list.items[i];
	char *cp = index_path(r->path, i);
	char *t = duplicate_text(r->s->list_map_key, list_map_key_of(e, r->s->list_map_key));

	sch_report(r->c, e ? e->mark : r->list->mark, cp, "%s", t);
	free(t);
	free(cp);
	return true;
}

/*
 * The field @name of object schema @s, or NULL.  Most of a schema's fields
 * differ from @name in their first byte: that is tested before strcmp().
 */
static const struct sch_field *find_field(const struct sch_node *s, const char *name)
{
	if (!s->fields)
		return NULL;
	for (const struct sch_field *f = s->fields; f->name; f++)
		if (f->name[0] == name[0] && strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

static void validate_object(const struct sch_node *s, struct val *v, const char *path,
			    struct sch_ctx *c)
{
	/* (1) prune nulls of non-nullable known fields, as the API server does before defaulting. */
	for (size_t i = 0; i < v->u.map.n;) {
		const struct val_kv *kv = &v->u.map.items[i];
		const struct sch_field *f = kv->v && kv->v->type == VAL_NULL ? find_field(s, kv->key) : NULL;

		if (f && !f->schema->nullable) {
			char *key = xstrdup(kv->key);

			val_map_del(v, key);
			free(key);
			continue;
		}
		i++;
	}
	/* (2) defaults for absent fields. */
	if (s->fields) {
		for (const struct sch_field *f = s->fields; f->name; f++) {
			struct val *dv;

			if (!f->dflt || val_map_get_kv(v, f->name))
				continue;
			dv = make_default(f);
			if (!dv) {
				sch_report(c, v->mark, path, "internal error: bad default \"%s\" for field \"%s\"",
					   f->dflt, f->name);
				continue;
			}
			dv->mark = v->mark;
			val_map_set(v, f->name, dv);
			v->u.map.items[v->u.map.n - 1].key_mark = v->mark;
		}
	}
	/* (3) known fields validated, unknown ones reported. */
	for (size_t i = 0; i < v->u.map.n; i++) {
		struct val_kv *kv = &v->u.map.items[i];
		const struct sch_field *f = find_field(s, kv->key);
		char buf[128], *cp = child_path_in(buf, sizeof(buf), path, kv->key);

		if (f) {
			validate(f->schema, kv->v, cp, c);
		} else if (!s->preserve_unknown) {
			char *acc = sch_accepted_fields(s);
			struct sug sg;

			sug_init(&sg, kv->key);
			for (const struct sch_field *g = s->fields; g && g->name; g++)
				sug_offer(&sg, g->name);
			sch_report(c, kv->key_mark, NULL, "unknown field \"%s\"", cp);
			if (sug_best(&sg))
				sch_note(c, kv->key_mark, "did you mean \"%s\"?", sug_best(&sg));
			sch_note(c, kv->key_mark, "accepted fields: %s", acc);
			free(acc);
		}
		kb_drop(cp, buf);
	}
	/* (4) required fields. */
	if (s->fields) {
		for (const struct sch_field *f = s->fields; f->name; f++) {
			if (f->required && !val_map_get_kv(v, f->name)) {
				char *cp = child_path(path, f->name);

				sch_report(c, v->mark, cp, "Required value");
				free(cp);
			}
		}
	}
}

void sch_report_duration_error(struct sch_ctx *c, const struct val *v, const char *path,
			       const char *err)
{
	char *q = sch_quote(v);
	int64_t ns;

	if (gt_parse_duration_ns(val_str(v, ""), &ns, NULL, 0) == GT_ERANGE) {
		char lim[GT_DURATION_BUFSZ];
		bool neg = val_str(v, "")[0] == '-';

		gt_format_duration_ns(neg ? INT64_MIN : INT64_MAX, lim, sizeof(lim));
		sch_report(c, v->mark, path, "Invalid value: %s: %s: out of range, the %s is %s", q,
			   err, neg ? "minimum" : "maximum", lim);
	} else {
		sch_report(c, v->mark, path, "Invalid value: %s: %s", q, err);
		sch_note(c, v->mark, "durations use Go syntax, e.g. 90s, 5m, 1h30m");
	}
	free(q);
}

static int cmp_mark(struct val_mark a, struct val_mark b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return a.col < b.col ? -1 : a.col > b.col;
}

void sch_move_sorted(struct diag *dst, struct diag *src)
{
	size_t ngroups = 0, *start = xcalloc(src->n ? src->n : 1, sizeof(*start));

	/* A group is an error or warning and the notes after it. */
	for (size_t i = 0; i < src->n; i++)
		if (i == 0 || src->items[i].sev != DIAG_NOTE)
			start[ngroups++] = i;
	/* Insertion sort of the group starts by their lead's mark: stable, and n is small. */
	for (size_t i = 1; i < ngroups; i++) {
		size_t g = start[i], j = i;

		while (j > 0 && cmp_mark(src->items[start[j - 1]].mark, src->items[g].mark) > 0) {
			start[j] = start[j - 1];
			j--;
		}
		start[j] = g;
	}
	for (size_t k = 0; k < ngroups; k++) {
		size_t i = start[k];

		do {
			const struct diag_item *it = &src->items[i];

			diag_add(dst, it->sev, it->file, it->mark, "%s", it->msg);
			i++;
		} while (i < src->n && src->items[i].sev == DIAG_NOTE);
	}
	free(start);
	diag_release(src);
	diag_init(src);
}

/* ---- date-time -------------------------------------------------------------- */

static bool two_digits(const char *s, int *v)
{
	if (s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9')
		return false;
	*v = (s[0] - '0') * 10 + (s[1] - '0');
	return true;
}

static int days_in_month(int year, int month)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);

	return month == 2 && leap ? 29 : days[month - 1];
}

/* time.Parse("2006-01-02", @s) over @n bytes: four-digit year, two-digit month and day, the day in range. */
static bool full_date(const char *s, size_t n)
{
	int y1, y2, m, d;

	if (n != 10 || s[4] != '-' || s[7] != '-' || !two_digits(s, &y1) || !two_digits(s + 2, &y2) ||
	    !two_digits(s + 5, &m) || !two_digits(s + 8, &d))
		return false;
	return m >= 1 && m <= 12 && d >= 1 && d <= days_in_month(y1 * 100 + y2, m);
}

/* `z` or `[+-]HH:MM` and nothing after it (@upper: `Z` instead of `z`). */
static bool time_zone_part(const char *s, bool upper, bool ranged)
{
	int h, m;

	if (strcmp(s, upper ? "Z" : "z") == 0)
		return true;
	if ((s[0] != '+' && s[0] != '-') || !two_digits(s + 1, &h) || s[3] != ':' || !two_digits(s + 4, &m) || s[6])
		return false;
	return !ranged || (h <= 23 && m <= 59);
}

/* Bytes of the UTF-8 character at @s (1 for a stray byte). */
static size_t rune_len(const char *s)
{
	unsigned char c = (unsigned char)*s;
	size_t n = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;

	for (size_t i = 1; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

bool sch_is_date_time(const char *str)
{
	size_t n = strlen(str);
	char *low, *t1, *t2;
	const char *tp;
	int h, m, sec;
	bool ok = false;

	if (n < 4)
		return false;
	low = xstrdup(str);
	for (char *p = low; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			*p = (char)(*p - 'A' + 'a');
	t1 = strchr(low, 't');
	if (!t1 || !full_date(low, (size_t)(t1 - low)))
		goto out_free;
	t2 = strchr(t1 + 1, 't');
	if (t2)
		*t2 = '\0'; /* strings.Split: only the part between the first two "t" is read */
	tp = t1 + 1;
	if (!two_digits(tp, &h) || tp[2] != ':' || !two_digits(tp + 3, &m) || tp[5] != ':' ||
	    !two_digits(tp + 6, &sec) || h > 23 || m > 59 || sec > 59)
		goto out_free;
	tp += 8;
	if (time_zone_part(tp, false, false)) {
		ok = true;
	} else if (*tp && *tp != '\n') {
		/* the optional group `(.[0-9]+)`: one character, then digits */
		const char *d = tp + rune_len(tp), *e = d;

		while (*e >= '0' && *e <= '9')
			e++;
		ok = e > d && time_zone_part(e, false, false);
	}
out_free:
	free(low);
	return ok;
}

bool sch_is_rfc3339_time(const char *s)
{
	int y1, y2, mo, d, h, mi, se;

	if (strlen(s) < 20 || !two_digits(s, &y1) || !two_digits(s + 2, &y2) || s[4] != '-' ||
	    !two_digits(s + 5, &mo) || s[7] != '-' || !two_digits(s + 8, &d) || s[10] != 'T' ||
	    !two_digits(s + 11, &h) || s[13] != ':' || !two_digits(s + 14, &mi) || s[16] != ':' ||
	    !two_digits(s + 17, &se))
		return false;
	if (mo < 1 || mo > 12 || d < 1 || d > days_in_month(y1 * 100 + y2, mo) || h > 23 || mi > 59 || se > 59)
		return false;
	s += 19;
	if ((*s == '.' || *s == ',') && s[1] >= '0' && s[1] <= '9') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	return time_zone_part(s, true, true);
}

static void validate_string(const struct sch_node *s, struct val *v, const char *path,
			    struct sch_ctx *c)
{
	const char *str = v->u.s;

	if (s->enum_values) {
		const char *const *e;

		for (e = s->enum_values; *e; e++)
			if (strcmp(*e, str) == 0)
				break;
		if (!*e) {
			size_t len = 1;
			char *list, *q = sch_quote(v);

			for (e = s->enum_values; *e; e++)
				len += strlen(*e) + 4;
			list = xmalloc(len);
			list[0] = '\0';
			for (e = s->enum_values; *e; e++) {
				if (e != s->enum_values)
					strcat(list, ", ");
				strcat(list, "\"");
				strcat(list, *e);
				strcat(list, "\"");
			}
			sch_report(c, v->mark, shown_path(path), "Unsupported value: %s: supported values: %s",
				   q, list);
			free(list);
			free(q);
			return;
		}
	}
	if (s->min_length > 0 && (int64_t)utf8_chars(str) < s->min_length) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, shown_path(path),
			   "Invalid value: %s: %s in body should be at least %" PRId64 " chars long", q,
			   shown_path(path), s->min_length);
		free(q);
		return;
	}
	/* kube-openapi's string validators, in their order: maxLength, pattern, then the format. */
	if (s->max_length > 0 && (int64_t)utf8_chars(str) > s->max_length)
		sch_report(c, v->mark, shown_path(path), "Too long: may not be more than %" PRId64 " bytes",
			   s->max_length);
	if (s->pattern && s->pattern_match && !s->pattern_match(str)) {
		char *q = sch_quote(v);

		sch_report(c, v->mark, shown_path(path), "Invalid value: %s: %s in body should match '%s'", q,
			   shown_path(path), s->pattern);
		free(q);
	}
	if (s->format == SCH_FORMAT_DATE_TIME) {
		char *q = sch_quote(v);

		if (!sch_is_date_time(str)) {
			sch_report(c, v->mark, shown_path(path), "Invalid value: %s: %s in body must be of type date-time: %s",
				   q, shown_path(path), q);
		} else if (!sch_is_rfc3339_time(str)) {
			sch_report(c, v->mark, shown_path(path),
				   "Invalid value: %s: %s must be an RFC 3339 time the controller can read, such as "
				   "2026-01-01T09:00:00Z",
				   q, shown_path(path));
			sch_note(c, v->mark,
				 "the API server stores it, but metav1.Time needs an upper-case T and Z and a '.' "
				 "or ',' before a fraction");
		}
		free(q);
	}
	if (s->type == SCH_DURATION) {
		char err[160];
		int64_t ns;

		if (gt_parse_duration_ns(str, &ns, err, sizeof(err)) != 0)
			sch_report_duration_error(c, v, shown_path(path), err);
	}
}

/* A bound as the API server prints it: an integer without a fraction or an exponent. */
static void bound_text(double b, char *buf, size_t len)
{
	if (b == floor(b) && fabs(b) < 1e15)
		snprintf(buf, len, "%lld", (long long)b);
	else
		snprintf(buf, len, "%g", b);
}

static void validate(const struct sch_node *s, struct val *v, const char *path, struct sch_ctx *c)
{
	size_t before = c->nerrors;
	bool ok;

	if (!v) {
		sch_report(c, (struct val_mark){ 0, 0 }, shown_path(path), "Required value");
		return;
	}
	if (v->type == VAL_NULL && s->nullable)
		return;
	switch (s->type) {
	case SCH_ANY:
		ok = true;
		break;
	case SCH_STRING:
	case SCH_DURATION:
		ok = v->type == VAL_STRING;
		break;
	case SCH_INTEGER:
		ok = v->type == VAL_INT;
		break;
	case SCH_NUMBER:
		ok = v->type == VAL_INT || v->type == VAL_FLOAT;
		break;
	case SCH_BOOLEAN:
		ok = v->type == VAL_BOOL;
		break;
	case SCH_OBJECT:
	case SCH_MAP:
		ok = v->type == VAL_MAP;
		break;
	case SCH_ARRAY:
		ok = v->type == VAL_LIST;
		break;
	default:
		ok = false;
	}
	if (!ok) {
		wrong_type(c, s, v, path);
		return;
	}
	switch (s->type) {
	case SCH_STRING:
	case SCH_DURATION:
		validate_string(s, v, path, c);
		break;
	case SCH_INTEGER:
	case SCH_NUMBER: {
		size_t at = c->nerrors;
		char bound[40];

		if (s->has_minimum && val_num(v, 0) < s->minimum) {
			char *q = sch_quote(v);

			sch_report(c, v->mark, shown_path(path),
				   "Invalid value: %s: %s in body should be greater than or equal to %g", q,
				   shown_path(path), s->minimum);
			free(q);
		}
		if (s->has_maximum && val_num(v, 0) > s->maximum) {
			char *q = sch_quote(v);

			bound_text(s->maximum, bound, sizeof(bound));
			sch_report(c, v->mark, shown_path(path),
				   "Invalid value: %s: %s in body should be less than or equal to %s", q,
				   shown_path(path), bound);
			free(q);
		}
		if (s->format == SCH_FORMAT_INT32 && c->nerrors == at && v->type == VAL_INT &&
		    (v->u.i > INT32_MAX || v->u.i < INT32_MIN)) {
			char *q = sch_quote(v);
			bool high = v->u.i > INT32_MAX;

			sch_report(c, v->mark, shown_path(path), "Invalid value: %s: %s in body should be %s %" PRId32, q,
				   shown_path(path), high ? "less than or equal to" : "greater than or equal to",
				   high ? INT32_MAX : INT32_MIN);
			sch_note(c, v->mark,
				 "the CRD declares format int32: the API server stores the number, but the "
				 "controller cannot decode it");
			free(q);
		}
		break;
	}
	case SCH_OBJECT:
		validate_object(s, v, path, c);
		break;
	case SCH_MAP:
		for (size_t i = 0; i < v->u.map.n;) {
			struct val_kv *kv = &v->u.map.items[i];
			char *cp;

			if (kv->v && kv->v->type == VAL_NULL && s->items && !s->items->nullable &&
			    s->items->type != SCH_ANY) {
				/* Pruned like an object's null field. */
				char *key = xstrdup(kv->key);

				val_map_del(v, key);
				free(key);
				continue;
			}
			if (s->items) {
				char buf[128];

				cp = child_path_in(buf, sizeof(buf), path, kv->key);
				validate(s->items, kv->v, cp, c);
				kb_drop(cp, buf);
			}
			i++;
		}
		break;
	case SCH_ARRAY:
		if (s->min_items > 0 && (int64_t)v->u.list.n < s->min_items) {
			sch_report(c, v->mark, shown_path(path),
				   "Invalid value: %zu: %s in body should have at least %" PRId64 " items",
				   v->u.list.n, shown_path(path), s->min_items);
		}
		if (s->items) {
			for (size_t i = 0; i < v->u.list.n; i++) {
				char *cp = index_path(path, i);

				validate(s->items, v->u.list.items[i], cp, c);
				free(cp);
			}
		}
		/* after the items: their defaults may supply the key */
		if (s->list_map_key) {
			struct dup_report r = { s, v, path, c };

			each_second_with_key(v, s->list_map_key, report_duplicate, &r);
		}
		break;
	case SCH_BOOLEAN:
	case SCH_ANY:
		break;
	}
	if (s->check && c->nerrors == before)
		s->check(c, v, path ? path : "");
}

int sch_validate(const struct sch_node *s, struct val *v, const char *path, struct sch_ctx *c)
{
	size_t before = c->nerrors;

	validate(s, v, path ? path : "", c);
	return c->nerrors == before ? 0 : -1;
}
