/*
 * Label selectors: conversion of metav1.LabelSelector, validation of keys and
 * values, matching and printing.  See labels.h for the upstream sources and
 * the deviations.
 */
#include "engine/labels.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

static void copy_out(char *dst, size_t len, const char *src)
{
	if (!dst || len == 0)
		return;
	snprintf(dst, len, "%s", src);
}

/* ---- Go quoting -------------------------------------------------------- */

char *lbl_go_quote(const char *s)
{
	return gofmt_quote(s);
}


/* ---- key and value syntax (content.IsLabelKey / IsLabelValue) ------------ */

#define LABEL_KEY_FMT "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]"
#define LABEL_KEY_ERR                                                                      \
	"must consist of alphanumeric characters, '-', '_' or '.', and must start and end " \
	"with an alphanumeric character"
/* RegexError(msg, fmt, "MyName", "my.name", "123-abc"): Go's loop leaves two spaces before "or". */
#define LABEL_KEY_REGEX_ERR                                                          \
	LABEL_KEY_ERR " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for " \
		      "validation is '" LABEL_KEY_FMT "')"
#define LABEL_VALUE_REGEX_ERR                                                                 \
	"a valid label must be an empty string or consist of alphanumeric characters, '-', " \
	"'_' or '.', and must start and end with an alphanumeric character (e.g. "           \
	"'MyValue',  or 'my_value',  or '12345', regex used for validation is '("            \
	LABEL_KEY_FMT ")?')"
#define DNS1123_LABEL_FMT "[a-z0-9]([-a-z0-9]*[a-z0-9])?"
#define DNS1123_SUBDOMAIN_REGEX_ERR                                                          \
	"a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, " \
	"'-' or '.', and must start and end with an alphanumeric character (e.g. "           \
	"'example.com', regex used for validation is '" DNS1123_LABEL_FMT "(\\."             \
	DNS1123_LABEL_FMT ")*')"

enum { LABEL_KEY_MAX = 63, LABEL_VALUE_MAX = 63, DNS1123_SUBDOMAIN_MAX = 253 };

static bool is_alnum(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* matches ^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$ over s[0..n) */
static bool match_label_name(const char *s, size_t n)
{
	if (n == 0 || !is_alnum((unsigned char)s[0]) || !is_alnum((unsigned char)s[n - 1]))
		return false;
	for (size_t i = 1; i + 1 < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (!is_alnum(c) && c != '-' && c != '_' && c != '.')
			return false;
	}
	return true;
}

/* matches ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$ over s[0..n) */
static bool match_dns1123_subdomain(const char *s, size_t n)
{
	size_t start = 0;

	for (size_t i = 0; i <= n; i++) {
		if (i < n && s[i] != '.')
			continue;
		/* one DNS label s[start..i) */
		if (i == start)
			return false;
		for (size_t j = start; j < i; j++) {
			unsigned char c = (unsigned char)s[j];
			bool lower_alnum = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');

			if (!lower_alnum && (c != '-' || j == start || j == i - 1))
				return false;
		}
		start = i + 1;
	}
	return true;
}

/* Appends @msg to the "; "-joined list in @b. */
static void add_msg(struct strbuf *b, const char *prefix, const char *msg)
{
	if (b->len)
		strbuf_add(b, "; ");
	strbuf_add(b, prefix);
	strbuf_add(b, msg);
}

/* label_key_errors() - IsLabelKey's messages joined by "; " into @b; true when valid. */
static bool label_key_errors(const char *k, struct strbuf *b)
{
	const char *slash = strchr(k, '/');
	const char *name = k;
	char tmp[64];

	if (slash && strchr(slash + 1, '/')) {
		add_msg(b, "a valid label key ",
			LABEL_KEY_REGEX_ERR " with an optional DNS subdomain prefix and '/' "
					    "(e.g. 'example.com/MyName')");
		return false;
	}
	if (slash) {
		size_t plen = (size_t)(slash - k);

		name = slash + 1;
		if (plen == 0) {
			add_msg(b, "prefix part ", "must be non-empty");
		} else {
			if (plen > DNS1123_SUBDOMAIN_MAX) {
				snprintf(tmp, sizeof tmp, "must be no more than %d bytes",
					 DNS1123_SUBDOMAIN_MAX);
				add_msg(b, "prefix part ", tmp);
			}
			if (!match_dns1123_subdomain(k, plen))
				add_msg(b, "prefix part ", DNS1123_SUBDOMAIN_REGEX_ERR);
		}
	}
	size_t nlen = strlen(name);

	if (nlen == 0) {
		add_msg(b, "name part ", "must be non-empty");
	} else if (nlen > LABEL_KEY_MAX) {
		snprintf(tmp, sizeof tmp, "must be no more than %d bytes", LABEL_KEY_MAX);
		add_msg(b, "name part ", tmp);
	}
	if (!match_label_name(name, nlen))
		add_msg(b, "name part ", LABEL_KEY_REGEX_ERR);
	return b->len == 0;
}

/* label_value_errors() - IsLabelValue's messages joined by "; " into @b; true when valid. */
static bool label_value_errors(const char *v, struct strbuf *b)
{
	size_t n = strlen(v);
	char tmp[64];

	if (n > LABEL_VALUE_MAX) {
		snprintf(tmp, sizeof tmp, "must be no more than %d bytes", LABEL_VALUE_MAX);
		add_msg(b, "", tmp);
	}
	if (n != 0 && !match_label_name(v, n))
		add_msg(b, "", LABEL_VALUE_REGEX_ERR);
	return b->len == 0;
}

int lbl_validate_key(const char *k, char *err, size_t len)
{
	struct strbuf b = { 0 };
	int rc = label_key_errors(k, &b) ? LBL_OK : LBL_EINVALID;

	if (rc != LBL_OK)
		copy_out(err, len, b.s);
	strbuf_release(&b);
	return rc;
}

int lbl_validate_value(const char *v, char *err, size_t len)
{
	struct strbuf b = { 0 };
	int rc = label_value_errors(v, &b) ? LBL_OK : LBL_EINVALID;

	if (rc != LBL_OK)
		copy_out(err, len, b.s);
	strbuf_release(&b);
	return rc;
}

/* ---- field errors (field.ErrorList.ToAggregate().Error()) ----------------- */

/* An error list: each entry is a complete "path: Invalid value: v: detail" text. */
struct errlist {
	char **msgs;
	size_t n;
};

/* errlist_add() - appends @msg (stolen) unless the same text is already there (ToAggregate dedup). */
static void errlist_add(struct errlist *l, char *msg)
{
	for (size_t i = 0; i < l->n; i++) {
		if (strcmp(l->msgs[i], msg) == 0) {
			free(msg);
			return;
		}
	}
	l->msgs = xreallocarray(l->msgs, l->n + 1, sizeof *l->msgs);
	l->msgs[l->n++] = msg;
}

/* errlist_text() - aggregate.Error(): the one text, or "[a, b]".  New string. */
static char *errlist_text(const struct errlist *l)
{
	struct strbuf b = { 0 };

	if (l->n == 1)
		return xstrdup(l->msgs[0]);
	strbuf_addc(&b, '[');
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strbuf_add(&b, ", ");
		strbuf_add(&b, l->msgs[i]);
	}
	strbuf_addc(&b, ']');
	return strbuf_take(&b);
}

static void errlist_release(struct errlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->msgs[i]);
	free(l->msgs);
	*l = (struct errlist){ 0 };
}

/* invalid_string() - field.Invalid(path, <string>, detail).Error().  New string. */
static char *invalid_string(const char *path, const char *bad, const char *detail)
{
	struct strbuf b = { 0 };

	strbuf_add(&b, path);
	strbuf_add(&b, ": Invalid value: ");
	strbuf_add_free(&b, gofmt_quote(bad));
	strbuf_add(&b, ": ");
	strbuf_add(&b, detail);
	return strbuf_take(&b);
}

/*
 * invalid_strings() - field.Invalid(path, <[]string>, detail).Error(): the
 * value printed by json.Marshal, "null" for a nil slice.  New string.
 */
static char *invalid_strings(const char *path, char *const *vals, size_t n, const char *detail)
{
	struct strbuf b = { 0 };

	strbuf_add(&b, path);
	strbuf_add(&b, ": Invalid value: ");
	if (n == 0) {
		strbuf_add(&b, "null");
	} else {
		strbuf_addc(&b, '[');
		for (size_t i = 0; i < n; i++) {
			if (i)
				strbuf_addc(&b, ',');
			strbuf_add_free(&b, gofmt_json_string(vals[i]));
		}
		strbuf_addc(&b, ']');
	}
	strbuf_add(&b, ": ");
	strbuf_add(&b, detail);
	return strbuf_take(&b);
}

/* ---- requirements ----------------------------------------------------- */

static void req_release(struct lbl_req *r)
{
	free(r->key);
	for (size_t i = 0; i < r->nvalues; i++)
		free(r->values[i]);
	free(r->values);
	*r = (struct lbl_req){ 0 };
}

/*
 * new_requirement() - labels.NewRequirement(key, op, vals) without path
 * options: validates and, when valid, fills @out with copies.  On error
 * returns LBL_EINVALID and a new error text in *@msg.
 */
static int new_requirement(const char *key, enum lbl_op op, const char *const *vals, size_t n,
			   struct lbl_req *out, char **msg)
{
	struct errlist errs = { 0 };
	struct strbuf detail = { 0 };

	if (!label_key_errors(key, &detail))
		errlist_add(&errs, invalid_string("key", key, detail.s));
	free(detail.s);
	detail = (struct strbuf){ 0 };

	switch (op) {
	case LBL_OP_IN:
	case LBL_OP_NOT_IN:
		if (n == 0)
			errlist_add(&errs, invalid_strings("values", NULL, 0,
							   "for 'in', 'notin' operators, values set can't be empty"));
		break;
	case LBL_OP_EQUALS:
		if (n != 1)
			errlist_add(&errs, invalid_strings("values", (char *const *)vals, n,
							   "exact-match compatibility requires one single value"));
		break;
	case LBL_OP_EXISTS:
	case LBL_OP_DOES_NOT_EXIST:
		if (n != 0)
			errlist_add(&errs, invalid_strings("values", (char *const *)vals, n,
							   "values set must be empty for exists and does not exist"));
		break;
	}

	for (size_t i = 0; i < n; i++) {
		if (!label_value_errors(vals[i], &detail)) {
			/* valuePath.Index(i).Key(key) */
			char *path = xasprintf("values[%zu][%s]", i, key);

			errlist_add(&errs, invalid_string(path, vals[i], detail.s));
			free(path);
		}
		free(detail.s);
		detail = (struct strbuf){ 0 };
	}

	if (errs.n) {
		*msg = errlist_text(&errs);
		errlist_release(&errs);
		return LBL_EINVALID;
	}
	out->key = xstrdup(key);
	out->op = op;
	out->nvalues = n;
	out->values = n ? xcalloc(n, sizeof *out->values) : NULL;
	for (size_t i = 0; i < n; i++)
		out->values[i] = xstrdup(vals[i]);
	return LBL_OK;
}

/* ---- conversion ------------------------------------------------------- */

/*
 * as_string() - the Go string a decoded JSON field holds: a string node's text,
 * "" for an absent or null node (Go leaves the zero value).  NULL for any other
 * type, which Go's decoder (and admission before it) rejects.
 */
static const char *as_string(const struct val *v)
{
	if (!v || v->type == VAL_NULL)
		return "";
	if (v->type == VAL_STRING)
		return v->u.s;
	return NULL;
}

static void append_req(struct lbl_selector *s, size_t *cap, struct lbl_req *r)
{
	if (s->n == *cap) {
		*cap = *cap ? *cap * 2 : 4;
		s->reqs = xreallocarray(s->reqs, *cap, sizeof *s->reqs);
	}
	s->reqs[s->n++] = *r;
}

static int cmp_kv_key(const void *a, const void *b)
{
	const struct val_kv *const *x = a, *const *y = b;

	return strcmp((*x)->key, (*y)->key);
}

/*
 * from_match_labels() - one Equals requirement per matchLabels entry, in key
 * order (Go: random map order; see the header).
 */
static int from_match_labels(const struct val *ml, struct lbl_selector *s, size_t *cap, char **msg)
{
	size_t n = ml->u.map.n;
	const struct val_kv **kvs = xcalloc(n ? n : 1, sizeof *kvs);
	int rc = LBL_OK;

	for (size_t i = 0; i < n; i++)
		kvs[i] = &ml->u.map.items[i];
	qsort(kvs, n, sizeof *kvs, cmp_kv_key);

	for (size_t i = 0; i < n && rc == LBL_OK; i++) {
		const char *v = as_string(kvs[i]->v);
		struct lbl_req r = { 0 };

		if (!v) {
			*msg = xasprintf("matchLabels[%s]: expected a string, not %s", kvs[i]->key,
					 val_type_name(kvs[i]->v->type));
			rc = LBL_EINVALID;
			break;
		}
		rc = new_requirement(kvs[i]->key, LBL_OP_EQUALS, &v, 1, &r, msg);
		if (rc == LBL_OK)
			append_req(s, cap, &r);
	}
	free(kvs);
	return rc;
}

/* operator_from_string() - LabelSelectorOperator to selection.Operator; false when unknown. */
static bool operator_from_string(const char *op, enum lbl_op *out)
{
	static const struct {
		const char *name;
		enum lbl_op op;
	} ops[] = {
		{ "In", LBL_OP_IN },
		{ "NotIn", LBL_OP_NOT_IN },
		{ "Exists", LBL_OP_EXISTS },
		{ "DoesNotExist", LBL_OP_DOES_NOT_EXIST },
	};

	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (strcmp(op, ops[i].name) == 0) {
			*out = ops[i].op;
			return true;
		}
	}
	return false;
}

/* from_expression() - one matchExpressions entry @e (index @idx) into a requirement. */
static int from_expression(const struct val *e, size_t idx, struct lbl_selector *s, size_t *cap,
			   char **msg)
{
	const struct val *vals = val_map_get(e, "values");
	const char *key, *opname;
	const char **strs = NULL;
	size_t n = 0;
	enum lbl_op op;
	struct lbl_req r = { 0 };
	int rc;

	if (e && e->type != VAL_NULL && e->type != VAL_MAP) {
		*msg = xasprintf("matchExpressions[%zu]: expected an object, not %s", idx,
				 val_type_name(e->type));
		return LBL_EINVALID;
	}
	key = as_string(val_map_get(e, "key"));
	opname = as_string(val_map_get(e, "operator"));
	if (!key || !opname) {
		*msg = xasprintf("matchExpressions[%zu].%s: expected a string, not %s", idx,
				 key ? "operator" : "key",
				 val_type_name(val_map_get(e, key ? "operator" : "key")->type));
		return LBL_EINVALID;
	}
	if (!operator_from_string(opname, &op)) {
		char *q = lbl_go_quote(opname);

		*msg = xasprintf("%s is not a valid label selector operator", q);
		free(q);
		return LBL_EINVALID;
	}
	if (vals && vals->type != VAL_NULL && vals->type != VAL_LIST) {
		*msg = xasprintf("matchExpressions[%zu].values: expected an array, not %s", idx,
				 val_type_name(vals->type));
		return LBL_EINVALID;
	}
	if (vals && vals->type == VAL_LIST && vals->u.list.n) {
		n = vals->u.list.n;
		strs = xcalloc(n, sizeof *strs);
		for (size_t i = 0; i < n; i++) {
			strs[i] = as_string(vals->u.list.items[i]);
			if (!strs[i]) {
				*msg = xasprintf("matchExpressions[%zu].values[%zu]: expected a string, not %s",
						 idx, i, val_type_name(vals->u.list.items[i]->type));
				free(strs);
				return LBL_EINVALID;
			}
		}
	}
	rc = new_requirement(key, op, strs, n, &r, msg);
	if (rc == LBL_OK)
		append_req(s, cap, &r);
	free(strs);
	return rc;
}

/*
 * sort_by_key() - internalSelector.Add's sort.Sort(ByKey), stably: Go's
 * pdqsort is an insertion sort (stable) up to 12 elements, which is what
 * this does there; beyond, a bottom-up merge sort, stable too and
 * O(n log n) (an insertion sort of 100 000 expressions took 38 s).
 */
static void sort_by_key(struct lbl_req *r, size_t n)
{
	struct lbl_req *tmp, *src = r, *dst;

	if (n <= 12) {
		for (size_t i = 1; i < n; i++) {
			struct lbl_req cur = r[i];
			size_t j = i;

			for (; j > 0 && strcmp(cur.key, r[j - 1].key) < 0; j--)
				r[j] = r[j - 1];
			r[j] = cur;
		}
		return;
	}
	tmp = xmalloc(n * sizeof(*tmp));
	dst = tmp;
	for (size_t width = 1; width < n; width *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
			size_t i = lo, j = mid, k = lo;

			/* ties take the left run first: stable */
			while (i < mid && j < hi)
				dst[k++] = strcmp(src[j].key, src[i].key) < 0 ? src[j++] : src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		struct lbl_req *t = src;

		src = dst;
		dst = t;
	}
	if (src != r)
		memcpy(r, src, n * sizeof(*r));
	free(tmp);
}

int lbl_selector_from_val(const struct val *sel, struct lbl_selector *out, char *err, size_t errlen)
{
	const struct val *ml, *me;
	char *msg = NULL;
	size_t cap = 0;
	int rc = LBL_OK;

	*out = (struct lbl_selector){ 0 };
	if (!sel || sel->type == VAL_NULL) {
		out->nothing = true;
		return LBL_OK;
	}
	if (sel->type != VAL_MAP) {
		msg = xasprintf("label selector: expected an object, not %s", val_type_name(sel->type));
		rc = LBL_EINVALID;
		goto out_report;
	}
	ml = val_map_get(sel, "matchLabels");
	me = val_map_get(sel, "matchExpressions");
	if (ml && ml->type != VAL_NULL && ml->type != VAL_MAP) {
		msg = xasprintf("matchLabels: expected an object, not %s", val_type_name(ml->type));
		rc = LBL_EINVALID;
		goto out_report;
	}
	if (me && me->type != VAL_NULL && me->type != VAL_LIST) {
		msg = xasprintf("matchExpressions: expected an array, not %s", val_type_name(me->type));
		rc = LBL_EINVALID;
		goto out_report;
	}
	/* Both empty: labels.Everything(), the zeroed selector. */
	if (ml && ml->type == VAL_MAP)
		rc = from_match_labels(ml, out, &cap, &msg);
	if (rc == LBL_OK && me && me->type == VAL_LIST) {
		for (size_t i = 0; i < me->u.list.n && rc == LBL_OK; i++)
			rc = from_expression(me->u.list.items[i], i, out, &cap, &msg);
	}
	if (rc == LBL_OK) {
		sort_by_key(out->reqs, out->n);
		return LBL_OK;
	}

out_report:
	lbl_selector_release(out);
	copy_out(err, errlen, msg);
	free(msg);
	return rc;
}

/* ---- lifecycle, comparison -------------------------------------------- */

void lbl_selector_release(struct lbl_selector *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		req_release(&s->reqs[i]);
	free(s->reqs);
	*s = (struct lbl_selector){ 0 };
}

void lbl_selector_copy(struct lbl_selector *dst, const struct lbl_selector *src)
{
	*dst = (struct lbl_selector){ .nothing = src->nothing, .n = src->n };
	if (!src->n)
		return;
	dst->reqs = xcalloc(src->n, sizeof *dst->reqs);
	for (size_t i = 0; i < src->n; i++) {
		const struct lbl_req *r = &src->reqs[i];
		struct lbl_req *d = &dst->reqs[i];

		d->key = xstrdup(r->key);
		d->op = r->op;
		d->nvalues = r->nvalues;
		d->values = r->nvalues ? xcalloc(r->nvalues, sizeof *d->values) : NULL;
		for (size_t j = 0; j < r->nvalues; j++)
			d->values[j] = xstrdup(r->values[j]);
	}
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * sorted_values() - safeSort: the values of @r in byte order, as a new array of
 * borrowed pointers (caller frees the array only).
 */
static const char **sorted_values(const struct lbl_req *r)
{
	const char **v = xcalloc(r->nvalues ? r->nvalues : 1, sizeof *v);

	for (size_t i = 0; i < r->nvalues; i++)
		v[i] = r->values[i];
	qsort(v, r->nvalues, sizeof *v, cmp_str);
	return v;
}

bool lbl_selector_equal(const struct lbl_selector *a, const struct lbl_selector *b)
{
	if (a->nothing != b->nothing || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		const struct lbl_req *x = &a->reqs[i], *y = &b->reqs[i];
		bool same;

		if (x->op != y->op || x->nvalues != y->nvalues || strcmp(x->key, y->key) != 0)
			return false;
		const char **xv = sorted_values(x), **yv = sorted_values(y);

		same = true;
		for (size_t j = 0; j < x->nvalues && same; j++)
			same = strcmp(xv[j], yv[j]) == 0;
		free(xv);
		free(yv);
		if (!same)
			return false;
	}
	return true;
}

bool lbl_selector_is_nothing(const struct lbl_selector *s)
{
	return s->nothing;
}

bool lbl_selector_is_empty(const struct lbl_selector *s)
{
	return !s->nothing && s->n == 0;
}

bool lbl_val_is_empty_selector(const struct val *sel)
{
	struct lbl_selector s;
	char *str;
	bool empty;

	if (lbl_selector_from_val(sel, &s, NULL, 0) != LBL_OK)
		return false;
	str = lbl_selector_string(&s);
	empty = !*str;
	free(str);
	lbl_selector_release(&s);
	return empty;
}

/* ---- matching ---------------------------------------------------------- */

static bool has_value(const struct lbl_req *r, const char *v)
{
	for (size_t i = 0; i < r->nvalues; i++)
		if (strcmp(r->values[i], v) == 0)
			return true;
	return false;
}

/* req_matches() - Requirement.Matches. */
static bool req_matches(const struct lbl_req *r, const struct obj_strmap *labels)
{
	const char *v = labels ? obj_strmap_get(labels, r->key) : NULL;

	switch (r->op) {
	case LBL_OP_EQUALS:
	case LBL_OP_IN:
		return v && has_value(r, v);
	case LBL_OP_NOT_IN:
		return !v || !has_value(r, v);
	case LBL_OP_EXISTS:
		return v != NULL;
	case LBL_OP_DOES_NOT_EXIST:
		return v == NULL;
	}
	return false;
}

bool lbl_matches(const struct lbl_selector *s, const struct obj_strmap *labels)
{
	if (s->nothing)
		return false;
	for (size_t i = 0; i < s->n; i++)
		if (!req_matches(&s->reqs[i], labels))
			return false;
	return true;
}

/* ---- printing ---------------------------------------------------------- */

const char *lbl_op_string(enum lbl_op op)
{
	switch (op) {
	case LBL_OP_EQUALS: return "=";
	case LBL_OP_IN: return "in";
	case LBL_OP_NOT_IN: return "notin";
	case LBL_OP_EXISTS: return "exists";
	case LBL_OP_DOES_NOT_EXIST: return "!";
	}
	return "?";
}

/* req_string_into() - Requirement.String. */
static void req_string_into(struct strbuf *b, const struct lbl_req *r)
{
	if (r->op == LBL_OP_DOES_NOT_EXIST)
		strbuf_addc(b, '!');
	strbuf_add(b, r->key);
	switch (r->op) {
	case LBL_OP_EXISTS:
	case LBL_OP_DOES_NOT_EXIST:
		return;
	case LBL_OP_EQUALS:
		strbuf_addc(b, '=');
		break;
	case LBL_OP_IN:
		strbuf_add(b, " in (");
		break;
	case LBL_OP_NOT_IN:
		strbuf_add(b, " notin (");
		break;
	}
	const char **v = sorted_values(r);

	for (size_t i = 0; i < r->nvalues; i++) {
		if (i)
			strbuf_addc(b, ',');
		strbuf_add(b, v[i]);
	}
	free(v);
	if (r->op == LBL_OP_IN || r->op == LBL_OP_NOT_IN)
		strbuf_addc(b, ')');
}

char *lbl_selector_string(const struct lbl_selector *s)
{
	struct strbuf b = { 0 };

	for (size_t i = 0; i < s->n; i++) {
		if (i)
			strbuf_addc(&b, ',');
		req_string_into(&b, &s->reqs[i]);
	}
	return strbuf_take(&b);
}
