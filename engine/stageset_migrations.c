/*
 * Versions and migrations of the StageSet controller.  See
 * engine/stageset_migrations.h.  Sections follow upstream's files:
 * Go's value formats (durations, floats, JSON strings) that the digest and
 * the ladder decoder need; the Migration types as a table; json.Marshal
 * (migrationDigest); the strict decoder (ParseLadder); validation and
 * selection (internal/migrations); the plan (migrations.go); approval
 * (migration_approval.go); running (migrations.go).
 */
#include "engine/stageset_migrations.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/gofmt.h"
#include "engine/goduration.h"
#include "engine/labels.h"
#include "engine/sha256.h"
#include "engine/strbuf.h"
#include "engine/xalloc.h"

/* ---- small helpers -------------------------------------------------------------- */

static bool empty(const char *s)
{
	return !s || !*s;
}

static const char *nz(const char *s)
{
	return s ? s : "";
}

/*
 * Go %q of the strings of one message: Q() returns a quoted copy that lives
 * until qpool_release().
 */
struct qpool {
	char *s[8];
	int n;
};

static const char *Q(struct qpool *p, const char *s)
{
	assert(p->n < 8);
	p->s[p->n] = gofmt_quote(nz(s));
	return p->s[p->n++];
}

static void qpool_release(struct qpool *p)
{
	for (int i = 0; i < p->n; i++)
		free(p->s[i]);
	p->n = 0;
}

static void set_err(struct ssc_err *e, enum ssc_errc code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void set_err(struct ssc_err *e, enum ssc_errc code, const char *fmt, ...)
{
	va_list ap;

	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
}

/* A refusal: @reason (static) and a new message @msg (stolen). */
static int refuse(struct mig_verdict *v, const char *reason, char *msg)
{
	v->reason = reason;
	free(v->message);
	v->message = msg;
	return MIG_REFUSED;
}

void mig_verdict_release(struct mig_verdict *v)
{
	if (!v)
		return;
	free(v->message);
	memset(v, 0, sizeof(*v));
}

/* Advances the pass clock by a duration the world reported. */
static void advance(struct ssc_clock *clk, int64_t ms)
{
	if (ms > 0)
		clk->now_ms += ms;
}

/*
 * One UTF-8 sequence at @s (at most @n bytes): its length, and the rune in
 * *r, or -1 in *r (length 1) for an invalid or overlong sequence, a
 * surrogate or a value beyond U+10FFFF (Go's utf8.DecodeRune).
 */
static size_t decode_utf8(const unsigned char *s, size_t n, int32_t *r)
{
	unsigned c = s[0];
	size_t len;
	int32_t v, min;

	if (c < 0x80) {
		*r = (int32_t)c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, v = c & 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, v = c & 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, v = c & 0x07, min = 0x10000;
	else {
		*r = -1;
		return 1;
	}
	if (len > n) {
		*r = -1;
		return 1;
	}
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*r = -1;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) {
		*r = -1;
		return 1;
	}
	*r = v;
	return len;
}

/* unicode.IsSpace */
static bool is_unicode_space(int32_t r)
{
	switch (r) {
	case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xa0:
	case 0x1680: case 0x2028: case 0x2029: case 0x202f: case 0x205f: case 0x3000:
		return true;
	default:
		return r >= 0x2000 && r <= 0x200a;
	}
}

/* strings.TrimSpace: a new copy of @s without leading and trailing Unicode white space. */
static char *trim_space(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t b = 0, e = strlen(s);
	int32_t r;

	while (b < e) {
		size_t k = decode_utf8(u + b, e - b, &r);
		if (r < 0 || !is_unicode_space(r))
			break;
		b += k;
	}
	while (e > b) {
		/* the last rune: the shortest valid sequence ending at e, else one byte */
		size_t k = 1;
		r = -1;
		for (size_t w = 1; w <= 4 && w <= e - b; w++) {
			int32_t rr;
			if (decode_utf8(u + e - w, w, &rr) == w && rr >= 0) {
				r = rr;
				k = w;
				break;
			}
		}
		if (r < 0 || !is_unicode_space(r))
			break;
		e -= k;
	}
	return xstrndup(s + b, e - b);
}

/* ---- Go value formats ------------------------------------------------------------ */

/*
 * time.ParseDuration of @s into *ns (engine/goduration).  Returns NULL, or a
 * new error text, Go's (`time: invalid duration "<s>"`, `time: missing unit
 * in duration "<s>"`, `time: unknown unit "<u>" in duration "<s>"`).
 */
static char *parse_go_duration(const char *s, int64_t *ns)
{
	/* two quotes of at most @s, each byte at most 4 ("\xNN"), and the words */
	size_t len = 8 * strlen(s) + 64;
	char *err = xmalloc(len);

	if (godur_parse(s, ns, err, len) == 0) {
		free(err);
		return NULL;
	}
	return err;
}

/* ---- the Migration types (api/v1, fluxcd meta, metav1) ---------------------------- */

enum tkind {
	TK_STRING,   /* string or a string type */
	TK_INT32,
	TK_BOOL,
	TK_DURATION, /* metav1.Duration: a Go duration text; a json.Unmarshaler */
	TK_STRUCT,
	TK_LIST,     /* a slice of `elem` */
	TK_STRMAP,   /* map[string]string */
};

struct tdesc;

/* One struct field: its JSON name, type, and tag options. */
struct fdesc {
	const char *name;
	const struct tdesc *type;
	bool ptr;       /* a pointer (nil when absent or null) */
	bool omitempty;
};

/* One Go type. */
struct tdesc {
	enum tkind kind;
	const char *go;             /* the type as decode errors print it */
	const struct tdesc *elem;   /* TK_LIST, TK_STRMAP */
	const char *struct_name;    /* TK_STRUCT: the struct's name (error context) */
	const struct fdesc *fields; /* TK_STRUCT, in declaration order */
	size_t nfields;
};

#define NFIELDS(a) (sizeof(a) / sizeof((a)[0]))

static const struct tdesc T_STRING = { TK_STRING, "string", NULL, NULL, NULL, 0 };
static const struct tdesc T_SCOPE = { TK_STRING, "v1.ActionScope", NULL, NULL, NULL, 0 };
static const struct tdesc T_LSOP = { TK_STRING, "v1.LabelSelectorOperator", NULL, NULL, NULL, 0 };
static const struct tdesc T_INT32 = { TK_INT32, "int32", NULL, NULL, NULL, 0 };
static const struct tdesc T_BOOL = { TK_BOOL, "bool", NULL, NULL, NULL, 0 };
static const struct tdesc T_DURATION = { TK_DURATION, "v1.Duration", NULL, NULL, NULL, 0 };
static const struct tdesc T_STRLIST = { TK_LIST, "[]string", &T_STRING, NULL, NULL, 0 };
static const struct tdesc T_INT32LIST = { TK_LIST, "[]int32", &T_INT32, NULL, NULL, 0 };
static const struct tdesc T_STRMAP = { TK_STRMAP, "map[string]string", &T_STRING, NULL, NULL, 0 };

/* metav1.LabelSelectorRequirement, metav1.LabelSelector */
static const struct fdesc F_LSREQ[] = {
	{ "key", &T_STRING, false, false },
	{ "operator", &T_LSOP, false, false },
	{ "values", &T_STRLIST, false, true },
};
static const struct tdesc T_LSREQ = { TK_STRUCT, "v1.LabelSelectorRequirement", NULL, "LabelSelectorRequirement",
				      F_LSREQ, NFIELDS(F_LSREQ) };
static const struct tdesc T_LSREQLIST = { TK_LIST, "[]v1.LabelSelectorRequirement", &T_LSREQ, NULL, NULL, 0 };
static const struct fdesc F_LS[] = {
	{ "matchLabels", &T_STRMAP, false, true },
	{ "matchExpressions", &T_LSREQLIST, false, true },
};
static const struct tdesc T_LS = { TK_STRUCT, "v1.LabelSelector", NULL, "LabelSelector", F_LS, NFIELDS(F_LS) };

/* PatchTarget, PatchAction */
static const struct fdesc F_PATCHTARGET[] = {
	{ "apiVersion", &T_STRING, false, true },
	{ "kind", &T_STRING, false, false },
	{ "namespace", &T_STRING, false, true },
	{ "name", &T_STRING, false, true },
	{ "selector", &T_LS, true, true },
};
static const struct tdesc T_PATCHTARGET = { TK_STRUCT, "v1.PatchTarget", NULL, "PatchTarget", F_PATCHTARGET,
					    NFIELDS(F_PATCHTARGET) };
static const struct fdesc F_PATCH[] = {
	{ "target", &T_PATCHTARGET, false, false },
	{ "type", &T_STRING, false, true },
	{ "patch", &T_STRING, false, false },
};
static const struct tdesc T_PATCH = { TK_STRUCT, "v1.PatchAction", NULL, "PatchAction", F_PATCH, NFIELDS(F_PATCH) };

/* meta.SecretKeyReference, HTTPAction */
static const struct fdesc F_SKR[] = {
	{ "name", &T_STRING, false, false },
	{ "key", &T_STRING, false, true },
};
static const struct tdesc T_SKR = { TK_STRUCT, "meta.SecretKeyReference", NULL, "SecretKeyReference", F_SKR,
				    NFIELDS(F_SKR) };
static const struct tdesc T_SKRLIST = { TK_LIST, "[]meta.SecretKeyReference", &T_SKR, NULL, NULL, 0 };
static const struct fdesc F_HTTP[] = {
	{ "url", &T_STRING, false, false },
	{ "method", &T_STRING, false, true },
	{ "body", &T_STRING, false, true },
	{ "bodyFrom", &T_SKR, true, true },
	{ "headersFrom", &T_SKRLIST, false, true },
	{ "expectedStatus", &T_INT32LIST, false, true },
};
static const struct tdesc T_HTTP = { TK_STRUCT, "v1.HTTPAction", NULL, "HTTPAction", F_HTTP, NFIELDS(F_HTTP) };

/* meta.NamespacedObjectKindReference, WaitAction */
static const struct fdesc F_NOKR[] = {
	{ "apiVersion", &T_STRING, false, true },
	{ "kind", &T_STRING, false, false },
	{ "name", &T_STRING, false, false },
	{ "namespace", &T_STRING, false, true },
};
static const struct tdesc T_NOKR = { TK_STRUCT, "meta.NamespacedObjectKindReference", NULL,
				     "NamespacedObjectKindReference", F_NOKR, NFIELDS(F_NOKR) };
static const struct fdesc F_WAIT[] = {
	{ "duration", &T_DURATION, true, true },
	{ "target", &T_NOKR, true, true },
	{ "expr", &T_STRING, false, true },
	{ "timeout", &T_DURATION, true, true },
};
static const struct tdesc T_WAIT = { TK_STRUCT, "v1.WaitAction", NULL, "WaitAction", F_WAIT, NFIELDS(F_WAIT) };

/* SourceReference, JobAction, DeleteAction, ApplyAction, CompletionAnchor */
static const struct fdesc F_SRCREF[] = {
	{ "apiVersion", &T_STRING, false, true },
	{ "kind", &T_STRING, false, true },
	{ "name", &T_STRING, false, false },
	{ "namespace", &T_STRING, false, true },
};
static const struct tdesc T_SRCREF = { TK_STRUCT, "v1.SourceReference", NULL, "SourceReference", F_SRCREF,
				       NFIELDS(F_SRCREF) };
static const struct fdesc F_JOB[] = {
	{ "sourceRef", &T_SRCREF, false, false },
	{ "path", &T_STRING, false, true },
};
static const struct tdesc T_JOB = { TK_STRUCT, "v1.JobAction", NULL, "JobAction", F_JOB, NFIELDS(F_JOB) };
static const struct fdesc F_DELETE[] = {
	{ "target", &T_NOKR, false, false },
	{ "cascade", &T_STRING, false, true },
};
static const struct tdesc T_DELETE = { TK_STRUCT, "v1.DeleteAction", NULL, "DeleteAction", F_DELETE,
				       NFIELDS(F_DELETE) };
static const struct fdesc F_APPLY[] = {
	{ "sourceRef", &T_SRCREF, false, false },
	{ "path", &T_STRING, false, true },
	{ "wait", &T_BOOL, false, true },
};
static const struct tdesc T_APPLY = { TK_STRUCT, "v1.ApplyAction", NULL, "ApplyAction", F_APPLY, NFIELDS(F_APPLY) };
static const struct fdesc F_ANCHOR[] = {
	{ "apiVersion", &T_STRING, false, false },
	{ "kind", &T_STRING, false, false },
	{ "name", &T_STRING, false, false },
};
static const struct tdesc T_ANCHOR = { TK_STRUCT, "v1.CompletionAnchor", NULL, "CompletionAnchor", F_ANCHOR,
				       NFIELDS(F_ANCHOR) };

/* Action, Migration */
static const struct fdesc F_ACTION[] = {
	{ "name", &T_STRING, false, false },
	{ "scope", &T_SCOPE, false, true },
	{ "timeout", &T_DURATION, true, true },
	{ "retries", &T_INT32, true, true },
	{ "patch", &T_PATCH, true, true },
	{ "http", &T_HTTP, true, true },
	{ "wait", &T_WAIT, true, true },
	{ "job", &T_JOB, true, true },
	{ "delete", &T_DELETE, true, true },
	{ "apply", &T_APPLY, true, true },
	{ "completionAnchor", &T_ANCHOR, true, true },
};
static const struct tdesc T_ACTION = { TK_STRUCT, "v1.Action", NULL, "Action", F_ACTION, NFIELDS(F_ACTION) };
static const struct tdesc T_ACTIONLIST = { TK_LIST, "[]v1.Action", &T_ACTION, NULL, NULL, 0 };
static const struct fdesc F_MIGRATION[] = {
	{ "name", &T_STRING, false, false },
	{ "to", &T_STRING, false, false },
	{ "from", &T_STRING, false, true },
	{ "stage", &T_STRING, false, true },
	{ "actions", &T_ACTIONLIST, false, true },
	{ "down", &T_ACTIONLIST, false, true },
};
static const struct tdesc T_MIGRATION = { TK_STRUCT, "v1.Migration", NULL, "Migration", F_MIGRATION,
					  NFIELDS(F_MIGRATION) };
static const struct tdesc T_MIGRATIONLIST = { TK_LIST, "[]v1.Migration", &T_MIGRATION, NULL, NULL, 0 };

/* The action verbs in Verb() order. */
static const char *const VERBS[] = { "patch", "http", "wait", "job", "delete", "apply" };

/* ---- json.Marshal (migrationDigest) ------------------------------------------------ */

/* An int32 held by @v: an integer, or a float with an integral value. */
static bool val_as_int(const struct val *v, int64_t *out)
{
	if (v && v->type == VAL_INT) {
		*out = v->u.i;
		return true;
	}
	if (v && v->type == VAL_FLOAT && v->u.f == (double)(int64_t)v->u.f) {
		*out = (int64_t)v->u.f;
		return true;
	}
	return false;
}

/* Whether a field holding @v is empty for `omitempty`. */
static bool is_empty_value(const struct val *v, const struct tdesc *t)
{
	int64_t i;

	switch (t->kind) {
	case TK_STRING:
		return !v || v->type != VAL_STRING || !*v->u.s;
	case TK_BOOL:
		return !v || v->type != VAL_BOOL || !v->u.b;
	case TK_INT32:
		return !val_as_int(v, &i) || i == 0;
	case TK_LIST:
		return !v || v->type != VAL_LIST || v->u.list.n == 0;
	case TK_STRMAP:
		return !v || v->type != VAL_MAP || v->u.map.n == 0;
	case TK_DURATION:
	case TK_STRUCT:
		return false; /* omitempty never drops a struct value (the pointers are nil-checked) */
	}
	return false;
}

static int cmp_kv_key(const void *a, const void *b)
{
	return strcmp((*(const struct val_kv *const *)a)->key, (*(const struct val_kv *const *)b)->key);
}

static void marshal(struct strbuf *b, const struct val *v, const struct tdesc *t)
{
	char tmp[32];
	int64_t i;

	switch (t->kind) {
	case TK_STRING:
		strbuf_add_free(b, gofmt_json_string(v && v->type == VAL_STRING ? v->u.s : ""));
		return;
	case TK_INT32:
		snprintf(tmp, sizeof(tmp), "%lld", val_as_int(v, &i) ? (long long)(int32_t)i : 0LL);
		strbuf_add(b, tmp);
		return;
	case TK_BOOL:
		strbuf_add(b, v && v->type == VAL_BOOL && v->u.b ? "true" : "false");
		return;
	case TK_DURATION: {
		int64_t ns = 0;
		if (v && v->type == VAL_STRING) {
			char *err = parse_go_duration(v->u.s, &ns);
			if (err) {
				/* not a duration: the controller could not have read the object; keep the text */
				free(err);
				strbuf_add_free(b, gofmt_json_string(v->u.s));
				return;
			}
		}
		strbuf_add_free(b, gofmt_json_string(gofmt_duration(ns, tmp)));
		return;
	}
	case TK_STRUCT: {
		bool first = true;
		strbuf_addc(b, '{');
		for (size_t k = 0; k < t->nfields; k++) {
			const struct fdesc *f = &t->fields[k];
			const struct val *fv = v && v->type == VAL_MAP ? val_map_get(v, f->name) : NULL;
			if (fv && fv->type == VAL_NULL)
				fv = NULL;
			if (f->ptr && (!fv || (f->type->kind == TK_STRUCT && fv->type != VAL_MAP)))
				continue;
			if (f->omitempty && !f->ptr && is_empty_value(fv, f->type))
				continue;
			if (!first)
				strbuf_addc(b, ',');
			first = false;
			strbuf_add_free(b, gofmt_json_string(f->name));
			strbuf_addc(b, ':');
			marshal(b, fv, f->type);
		}
		strbuf_addc(b, '}');
		return;
	}
	case TK_LIST:
		if (!v || v->type != VAL_LIST) {
			strbuf_add(b, "null");
			return;
		}
		strbuf_addc(b, '[');
		for (size_t k = 0; k < v->u.list.n; k++) {
			if (k)
				strbuf_addc(b, ',');
			marshal(b, v->u.list.items[k], t->elem);
		}
		strbuf_addc(b, ']');
		return;
	case TK_STRMAP: {
		if (!v || v->type != VAL_MAP) {
			strbuf_add(b, "null");
			return;
		}
		/* map keys in byte order */
		size_t n = v->u.map.n;
		const struct val_kv **kv = xcalloc(n ? n : 1, sizeof(*kv));
		for (size_t k = 0; k < n; k++)
			kv[k] = &v->u.map.items[k];
		qsort(kv, n, sizeof(*kv), cmp_kv_key);
		strbuf_addc(b, '{');
		for (size_t k = 0; k < n; k++) {
			if (k)
				strbuf_addc(b, ',');
			strbuf_add_free(b, gofmt_json_string(kv[k]->key));
			strbuf_addc(b, ':');
			marshal(b, kv[k]->v, t->elem);
		}
		strbuf_addc(b, '}');
		free(kv);
		return;
	}
	}
}

char *mig_migration_json(const struct sst_migration *m)
{
	struct strbuf b = { 0 };

	marshal(&b, m->raw, &T_MIGRATION);
	return strbuf_take(&b);
}

const char *mig_migration_digest(const struct sst_migration *m, char out[13])
{
	unsigned char d[SHA256_DIGEST_LEN];
	char hex[2 * SHA256_DIGEST_LEN + 1];
	char *json = mig_migration_json(m);

	sha256(json, strlen(json), d);
	sha256_hex(d, hex);
	memcpy(out, hex, 12);
	out[12] = '\0';
	free(json);
	return out;
}

char *mig_migration_key(const struct sst_migration *m)
{
	char dig[13];
	return xasprintf("%s@%s", nz(m->name), mig_migration_digest(m, dig));
}

/* ---- the strict decoder (ParseLadder's yaml.UnmarshalStrict) ----------------------- */

/*
 * Decoding state, as encoding/json keeps it: the first saved error (type
 * mismatches and unknown fields; decoding goes on), an error that ends
 * decoding at once (a duration that does not parse), and the error context
 * (the struct being filled and the path of field names from the root).
 */
struct dec {
	char *saved;
	char *fatal;
	const char *stack[32];
	size_t depth;
	const char *cur_struct;
};

static void dec_save(struct dec *d, char *err)
{
	if (!d->saved)
		d->saved = err;
	else
		free(err);
}

static void dec_release(struct dec *d)
{
	free(d->saved);
	free(d->fatal);
	memset(d, 0, sizeof(*d));
}

/* What JSON calls the kind of @v in a type error. */
static const char *json_kind(const struct val *v)
{
	switch (v->type) {
	case VAL_STRING: return "string";
	case VAL_BOOL: return "bool";
	case VAL_INT: case VAL_FLOAT: return "number";
	case VAL_MAP: return "object";
	case VAL_LIST: return "array";
	case VAL_NULL: return "null";
	}
	return "null";
}

/* UnmarshalTypeError.Error() with the decoder's error context. */
static char *type_error(const struct dec *d, const char *value, const char *go_type)
{
	struct strbuf b = { 0 };

	if (!d->cur_struct && d->depth == 0)
		return xasprintf("json: cannot unmarshal %s into Go value of type %s", value, go_type);
	strbuf_add(&b, "json: cannot unmarshal ");
	strbuf_add(&b, value);
	strbuf_add(&b, " into Go struct field ");
	strbuf_add(&b, nz(d->cur_struct));
	strbuf_addc(&b, '.');
	for (size_t i = 0; i < d->depth; i++) {
		if (i)
			strbuf_addc(&b, '.');
		strbuf_add(&b, d->stack[i]);
	}
	strbuf_add(&b, " of type ");
	strbuf_add(&b, go_type);
	return strbuf_take(&b);
}

/* strconv.ParseInt(s, 10, 64) restricted to what fits an int32. */
static bool parse_int32_text(const char *s, int32_t *out)
{
	const char *p = s + (*s == '-' || *s == '+');
	int64_t v = 0;

	if (!*p)
		return false;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return false;
		v = v * 10 + (*p - '0');
		if (v > (int64_t)INT32_MAX + 1)
			return false;
	}
	if (*s == '-')
		v = -v;
	if (v < INT32_MIN || v > INT32_MAX)
		return false;
	*out = (int32_t)v;
	return true;
}

/* The zero value of @t as the canonical tree holds it in a list. */
static struct val *zero_value(const struct tdesc *t)
{
	switch (t->kind) {
	case TK_STRING: return val_new_string("");
	case TK_INT32: return val_new_int(0);
	case TK_BOOL: return val_new_bool(false);
	case TK_DURATION: return val_new_string("0s");
	case TK_STRUCT: case TK_STRMAP: return val_new_map();
	case TK_LIST: return val_new_list();
	}
	return val_new_null();
}

/*
 * The next character of @s folded as encoding/json's foldName folds it
 * (upper(lower(r))), for comparing with an ASCII field name: ASCII letters
 * to upper case; the Kelvin sign to K, the long s to S, dotted and dotless
 * capital/small i to I; any other non-ASCII rune to -1 (it cannot equal an
 * ASCII letter).  Advances *s.
 */
static int fold_next(const char **s)
{
	const unsigned char *u = (const unsigned char *)*s;
	int32_t r;
	size_t k = decode_utf8(u, strlen(*s), &r);

	*s += k;
	if (r >= 'a' && r <= 'z')
		return r - ('a' - 'A');
	if (r >= 0 && r < 0x80)
		return r;
	switch (r) {
	case 0x212a: return 'K';
	case 0x017f: return 'S';
	case 0x0130: case 0x0131: return 'I';
	default: return -1;
	}
}

/* The field of @t the JSON key @key fills: an exact match, else the first equal under foldName. */
static const struct fdesc *find_field(const struct tdesc *t, const char *key)
{
	const struct fdesc *fold = NULL;

	for (size_t i = 0; i < t->nfields; i++) {
		const char *a = t->fields[i].name, *k = key;
		if (strcmp(a, k) == 0)
			return &t->fields[i];
		if (fold)
			continue;
		while (*a && *k) {
			int ca = fold_next(&a), ck = fold_next(&k);
			if (ca != ck || ck < 0)
				break;
			if (!*a && !*k)
				fold = &t->fields[i];
		}
	}
	return fold;
}

static int cmp_key_ptr(const void *a, const void *b)
{
	return strcmp(**(const char *const *const *)a, **(const char *const *const *)b);
}

static bool dec_value(struct dec *d, const struct val *in, const struct tdesc *t, const struct val *prev,
		      struct val **out);

/* An object into a struct; @prev (a map or NULL): what an earlier key put there, decoded into again. */
static bool dec_struct(struct dec *d, const struct val *in, const struct tdesc *t, const struct val *prev,
		       struct val **out)
{
	struct val *m = prev && prev->type == VAL_MAP ? val_copy(prev) : val_new_map();
	size_t n = in->u.map.n;
	/* json.Marshal wrote the converted YAML map with sorted keys; the decoder meets them in that order */
	const char **keys = xcalloc(n ? n : 1, sizeof(*keys));
	const char ***order = xcalloc(n ? n : 1, sizeof(*order));

	for (size_t i = 0; i < n; i++) {
		keys[i] = in->u.map.items[i].key;
		order[i] = &keys[i];
	}
	qsort(order, n, sizeof(*order), cmp_key_ptr);
	for (size_t i = 0; i < n; i++) {
		size_t idx = (size_t)(order[i] - keys);
		const char *key = in->u.map.items[idx].key;
		const struct val *v = in->u.map.items[idx].v;
		const struct fdesc *f = find_field(t, key);
		struct val *fv = NULL;

		if (!f) {
			char *q = gofmt_quote(key);
			dec_save(d, xasprintf("json: unknown field %s", q));
			free(q);
			continue;
		}
		assert(d->depth < sizeof(d->stack) / sizeof(d->stack[0]));
		const char *outer = d->cur_struct;
		d->stack[d->depth++] = f->name;
		d->cur_struct = t->struct_name;
		bool ok = dec_value(d, v, f->type, val_map_get(m, f->name), &fv);
		d->depth--;
		d->cur_struct = outer;
		if (!ok) {
			val_free(m);
			free(order);
			free(keys);
			return false;
		}
		if (fv)
			val_map_set(m, f->name, fv);
		else if ((!v || v->type == VAL_NULL) &&
			 (f->ptr || f->type->kind == TK_LIST || f->type->kind == TK_STRMAP))
			val_map_del(m, f->name); /* null sets a pointer, slice or map to nil */
	}
	free(order);
	free(keys);
	*out = m;
	return true;
}

/*
 * One JSON value into a field of type @t: *out the canonical value, NULL for
 * null (the zero value) or after a saved error.  @prev is the field's value
 * so far (a key seen before under another spelling): structs and maps are
 * decoded into it, as encoding/json decodes into the existing value; other
 * kinds replace it.  Returns false when an error ended decoding (d->fatal).
 */
static bool dec_value(struct dec *d, const struct val *in, const struct tdesc *t, const struct val *prev,
		      struct val **out)
{
	char tmp[32];

	*out = NULL;
	if (!in || in->type == VAL_NULL)
		return true;
	switch (t->kind) {
	case TK_STRING:
		/* sigs.k8s.io/yaml turns a YAML number or boolean into text where a string is expected */
		if (in->type == VAL_STRING) {
			*out = val_new_string(in->u.s);
		} else if (in->type == VAL_INT) {
			snprintf(tmp, sizeof(tmp), "%lld", (long long)in->u.i);
			*out = val_new_string(tmp);
		} else if (in->type == VAL_FLOAT) {
			char f[GOFMT_FLOAT_LEN];

			*out = val_new_string(gofmt_float(in->u.f, 'g', 32, f));
		} else if (in->type == VAL_BOOL) {
			*out = val_new_string(in->u.b ? "true" : "false");
		} else {
			dec_save(d, type_error(d, json_kind(in), t->go));
		}
		return true;
	case TK_INT32: {
		int32_t i;
		char *lit = NULL;
		if (in->type == VAL_INT) {
			lit = xasprintf("%lld", (long long)in->u.i);
		} else if (in->type == VAL_FLOAT) {
			char f[GOFMT_FLOAT_LEN];

			lit = xstrdup(gofmt_json_float(in->u.f, f));
		} else {
			dec_save(d, type_error(d, json_kind(in), t->go));
			return true;
		}
		if (parse_int32_text(lit, &i)) {
			*out = val_new_int(i);
		} else {
			char *value = xasprintf("number %s", lit);
			dec_save(d, type_error(d, value, t->go));
			free(value);
		}
		free(lit);
		return true;
	}
	case TK_BOOL:
		if (in->type == VAL_BOOL)
			*out = val_new_bool(in->u.b);
		else
			dec_save(d, type_error(d, json_kind(in), t->go));
		return true;
	case TK_DURATION: {
		/* metav1.Duration.UnmarshalJSON: a JSON string, then time.ParseDuration; errors end decoding */
		int64_t ns;
		if (in->type != VAL_STRING) {
			d->fatal = type_error(d, json_kind(in), "string");
			return false;
		}
		char *err = parse_go_duration(in->u.s, &ns);
		if (err) {
			d->fatal = err;
			return false;
		}
		*out = val_new_string(gofmt_duration(ns, tmp));
		return true;
	}
	case TK_STRUCT:
		if (in->type == VAL_MAP)
			return dec_struct(d, in, t, prev, out);
		dec_save(d, type_error(d, json_kind(in), t->go));
		return true;
	case TK_LIST: {
		if (in->type != VAL_LIST) {
			dec_save(d, type_error(d, json_kind(in), t->go));
			return true;
		}
		/* elements are decoded into the earlier ones, and the list cut to the new length */
		struct val *l = val_new_list();
		for (size_t i = 0; i < in->u.list.n; i++) {
			const struct val *item = in->u.list.items[i];
			const struct val *pe = prev && prev->type == VAL_LIST && i < prev->u.list.n ? prev->u.list.items[i] : NULL;
			struct val *ev = NULL;
			if (!dec_value(d, item, t->elem, pe, &ev)) {
				val_free(l);
				return false;
			}
			if (!ev && pe && item->type == VAL_NULL)
				ev = val_copy(pe); /* null leaves an element as it was */
			val_list_push(l, ev ? ev : zero_value(t->elem));
		}
		*out = l;
		return true;
	}
	case TK_STRMAP: {
		if (in->type != VAL_MAP) {
			dec_save(d, type_error(d, json_kind(in), t->go));
			return true;
		}
		struct val *m = prev && prev->type == VAL_MAP ? val_copy(prev) : val_new_map();
		for (size_t i = 0; i < in->u.map.n; i++) {
			struct val *ev = NULL;
			if (!dec_value(d, in->u.map.items[i].v, t->elem, NULL, &ev)) {
				val_free(m);
				return false;
			}
			val_map_set(m, in->u.map.items[i].key, ev ? ev : val_new_string(""));
		}
		*out = m;
		return true;
	}
	}
	return true;
}

/*
 * One parsed file into canonical Migration trees appended to @list:
 * UnmarshalStrict into []Migration, else into one Migration.  Returns NULL,
 * or the decode error of the second attempt (new).
 */
static char *decode_file(const struct val *doc, struct val *list)
{
	struct dec d = { 0 };
	struct val *out = NULL;
	char *err;

	if (!doc || doc->type == VAL_NULL)
		return NULL; /* null leaves the list nil */
	if (doc->type == VAL_LIST) {
		bool ok = dec_value(&d, doc, &T_MIGRATIONLIST, NULL, &out);
		if (ok && !d.saved && out) {
			for (size_t i = 0; i < out->u.list.n; i++) {
				val_list_push(list, out->u.list.items[i]);
				out->u.list.items[i] = NULL;
			}
			out->u.list.n = 0;
			val_free(out);
			dec_release(&d);
			return NULL;
		}
		val_free(out);
		out = NULL;
	}
	dec_release(&d);
	if (doc->type != VAL_MAP)
		return type_error(&d, json_kind(doc), T_MIGRATION.go);
	bool ok = dec_value(&d, doc, &T_MIGRATION, NULL, &out);
	if (ok && !d.saved && out) {
		val_list_push(list, out);
		dec_release(&d);
		return NULL;
	}
	val_free(out);
	err = d.fatal ? d.fatal : d.saved;
	if (err == d.fatal)
		d.fatal = NULL;
	else
		d.saved = NULL;
	dec_release(&d);
	return err;
}

/* A parsed ladder's storage. */
struct ladder_store {
	struct val *trees;           /* list of the canonical Migration trees */
	struct sst_migration *migs;
	struct sst_action *acts;
};

static void build_action(const struct val *a, struct sst_action *out)
{
	const struct val *v;

	memset(out, 0, sizeof(*out));
	out->raw = a;
	out->name = val_str(val_map_get(a, "name"), "");
	out->scope = val_str(val_map_get(a, "scope"), "");
	if ((v = val_map_get(a, "timeout")) && v->type == VAL_STRING) {
		int64_t ns = 0;
		free(parse_go_duration(v->u.s, &ns)); /* canonical: it parses */
		out->timeout.set = true;
		out->timeout.ms = ns / 1000000;
	}
	if ((v = val_map_get(a, "retries")) && v->type == VAL_INT) {
		out->has_retries = true;
		out->retries = (int32_t)v->u.i;
	}
	out->verb = "action";
	for (size_t i = 0; i < sizeof(VERBS) / sizeof(VERBS[0]); i++) {
		if ((v = val_map_get(a, VERBS[i])) == NULL)
			continue;
		if (out->verb_count++ == 0) {
			out->verb = VERBS[i];
			out->body = v;
		}
	}
	if ((v = val_map_get(a, "completionAnchor")) != NULL) {
		out->has_anchor = true;
		out->anchor_api_version = val_str(val_map_get(v, "apiVersion"), "");
		out->anchor_kind = val_str(val_map_get(v, "kind"), "");
		out->anchor_name = val_str(val_map_get(v, "name"), "");
	}
}

/* The ladder of canonical trees @trees (stolen). */
static void build_ladder(struct val *trees, struct mig_ladder *out)
{
	struct ladder_store *st = xcalloc(1, sizeof(*st));
	size_t n = trees->u.list.n, nacts = 0, k = 0;

	st->trees = trees;
	for (size_t i = 0; i < n; i++) {
		const struct val *m = trees->u.list.items[i];
		const struct val *a = val_map_get(m, "actions"), *dn = val_map_get(m, "down");
		nacts += (a ? a->u.list.n : 0) + (dn ? dn->u.list.n : 0);
	}
	st->migs = xcalloc(n ? n : 1, sizeof(*st->migs));
	st->acts = xcalloc(nacts ? nacts : 1, sizeof(*st->acts));
	for (size_t i = 0; i < n; i++) {
		const struct val *m = trees->u.list.items[i];
		struct sst_migration *mg = &st->migs[i];
		mg->raw = m;
		mg->name = val_str(val_map_get(m, "name"), "");
		mg->to = val_str(val_map_get(m, "to"), "");
		mg->from = val_str(val_map_get(m, "from"), "");
		mg->stage = val_str(val_map_get(m, "stage"), "");
		for (int dir = 0; dir < 2; dir++) {
			const struct val *l = val_map_get(m, dir ? "down" : "actions");
			struct sst_actions *acts = dir ? &mg->down : &mg->actions;
			acts->items = &st->acts[k];
			acts->n = l ? l->u.list.n : 0;
			for (size_t j = 0; j < acts->n; j++)
				build_action(l->u.list.items[j], &st->acts[k++]);
		}
	}
	out->items = st->migs;
	out->n = n;
	out->owned_ = st;
}

void mig_ladder_release(struct mig_ladder *l)
{
	if (!l)
		return;
	struct ladder_store *st = l->owned_;
	if (st) {
		val_free(st->trees);
		free(st->migs);
		free(st->acts);
		free(st);
	}
	memset(l, 0, sizeof(*l));
}

/* filepath.Ext lower-cased: whether @p ends in .yaml, .yml or .json after its last '/'. */
static bool ladder_file_ext(const char *p)
{
	const char *dot = NULL;

	for (const char *c = p; *c; c++) {
		if (*c == '/')
			dot = NULL;
		else if (*c == '.')
			dot = c;
	}
	if (!dot)
		return false;
	char ext[6];
	size_t n = strlen(dot);
	if (n > 5)
		return false;
	for (size_t i = 0; i <= n; i++)
		ext[i] = (char)(dot[i] >= 'A' && dot[i] <= 'Z' ? dot[i] + ('a' - 'A') : dot[i]);
	return strcmp(ext, ".yaml") == 0 || strcmp(ext, ".yml") == 0 || strcmp(ext, ".json") == 0;
}

static int cmp_str_ptr(const void *a, const void *b)
{
	return strcmp(**(char *const *const *)a, **(char *const *const *)b);
}

char *mig_parse_ladder(const struct ssc_env *env, char *const *paths, char *const *contents, size_t n,
		       struct mig_ladder *out)
{
	char *const **sel = xcalloc(n ? n : 1, sizeof(*sel));
	size_t nsel = 0;
	struct val *trees = NULL;
	char *err = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < n; i++)
		if (ladder_file_ext(paths[i]))
			sel[nsel++] = &paths[i];
	if (nsel == 0) {
		err = xstrdup("migrations artifact contains no .yaml, .yml, or .json files");
		goto out_free_sel;
	}
	qsort(sel, nsel, sizeof(*sel), cmp_str_ptr);
	trees = val_new_list();
	for (size_t i = 0; i < nsel; i++) {
		size_t idx = (size_t)(sel[i] - paths);
		struct val *doc = NULL;
		char perr[512] = "";
		struct qpool qp = { 0 };

		if (env->parse_ladder_file(env->ctx, paths[idx], contents[idx], &doc, perr, sizeof(perr)) != 0) {
			err = xasprintf("parsing migrations file %s: error converting YAML to JSON: %s",
					Q(&qp, paths[idx]), perr);
			qpool_release(&qp);
			goto out_free_trees;
		}
		char *derr = decode_file(doc, trees);
		val_free(doc);
		if (derr) {
			err = xasprintf("parsing migrations file %s: error unmarshaling JSON: while decoding JSON: %s",
					Q(&qp, paths[idx]), derr);
			free(derr);
			qpool_release(&qp);
			goto out_free_trees;
		}
	}
	if (trees->u.list.n == 0) {
		err = xstrdup("migrations artifact defined no migrations");
		goto out_free_trees;
	}
	build_ladder(trees, out);
	trees = NULL;
out_free_trees:
	val_free(trees);
out_free_sel:
	free(sel);
	return err;
}

/* ---- validation (internal/migrations) ---------------------------------------------- */

/* semverIsBare: a plain X.Y.Z (after one leading "v", then one "V"), which matches only itself. */
static bool semver_is_bare(const char *s)
{
	struct ss_semver v;

	if (*s == 'v')
		s++;
	if (*s == 'V')
		s++;
	return ss_semver_parse_strict(s, &v, NULL, 0) == SS_OK;
}

/* validateMigrationActions over one direction (@field: "actions" or "down"). */
static char *validate_migration_actions(const char *mig, const char *field, const struct sst_actions *acts)
{
	struct qpool qp = { 0 };
	char *err = NULL;

	if (acts->n > MIG_MAX_ACTIONS_PER_MIGRATION) {
		err = xasprintf("migration %s has %zu %s, exceeding the limit of %d", Q(&qp, mig), acts->n, field,
				MIG_MAX_ACTIONS_PER_MIGRATION);
		qpool_release(&qp);
		return err;
	}
	for (size_t j = 0; j < acts->n && !err; j++) {
		const struct sst_action *a = &acts->items[j];
		bool dup = false;

		for (size_t k = 0; k < j && !dup; k++)
			dup = strcmp(nz(acts->items[k].name), nz(a->name)) == 0;
		if (a->verb_count != 1)
			err = xasprintf("migration %s %s action %s: exactly one verb must be set, found %d", Q(&qp, mig),
					field, Q(&qp, a->name), a->verb_count);
		else if (empty(a->name))
			err = xasprintf("migration %s has a %s action with an empty name; action names are the "
					"idempotency-ledger key and must be set",
					Q(&qp, mig), field);
		else if (dup)
			err = xasprintf("migration %s has duplicate %s action name %s; action names are the "
					"idempotency-ledger key and must be unique",
					Q(&qp, mig), field, Q(&qp, a->name));
		else if (!empty(a->scope))
			err = xasprintf("migration %s %s action %s sets scope; scope is valid only on a stage's "
					"pre/post actions \xe2\x80\x94 a migration action is already keyed to its version "
					"transition by the migration ledger",
					Q(&qp, mig), field, Q(&qp, a->name));
		else if (a->has_anchor)
			err = xasprintf("migration %s %s action %s sets completionAnchor; it is valid only on a scope: "
					"Lifetime pre/post action",
					Q(&qp, mig), field, Q(&qp, a->name));
		else if (a->has_retries && (a->retries < 0 || a->retries > MIG_MAX_ACTION_RETRIES))
			err = xasprintf("migration %s %s action %s has retries %d; it must be between 0 and %d",
					Q(&qp, mig), field, Q(&qp, a->name), (int)a->retries, MIG_MAX_ACTION_RETRIES);
		qpool_release(&qp);
	}
	return err;
}

char *mig_validate_migration(const struct sst_migration *m)
{
	struct qpool qp = { 0 };
	struct ss_semver to;
	char serr[256] = "";
	char *err = NULL;

	if (empty(m->name))
		return xstrdup("a migration has an empty name");
	if (empty(m->to)) {
		err = xasprintf("migration %s has an empty to", Q(&qp, m->name));
		goto out_release_quotes;
	}
	if (ss_semver_parse(m->to, &to, serr, sizeof(serr)) != SS_OK) {
		err = xasprintf("migration %s has an invalid to %s: %s", Q(&qp, m->name), Q(&qp, m->to), serr);
		goto out_release_quotes;
	}
	if (!empty(m->from)) {
		struct ss_constraints cs;
		char cerr[1024] = "";
		if (ss_constraints_parse(m->from, &cs, cerr, sizeof(cerr)) != SS_OK) {
			err = xasprintf("migration %s has an invalid from constraint %s: %s", Q(&qp, m->name),
					Q(&qp, m->from), cerr);
			goto out_release_quotes;
		}
		ss_constraints_release(&cs);
		char *from = trim_space(m->from);
		if (semver_is_bare(from)) {
			char *ge = xasprintf(">=%s", from), *eq = xasprintf("=%s", from);
			err = xasprintf("migration %s from %s is a bare version, which matches only that exact version; "
					"write %s (from this version onward) or %s (exactly that version) to make the "
					"intent explicit",
					Q(&qp, m->name), Q(&qp, m->from), Q(&qp, ge), Q(&qp, eq));
			free(ge);
			free(eq);
		}
		free(from);
		if (err)
			goto out_release_quotes;
	}
	if ((err = validate_migration_actions(m->name, "actions", &m->actions)) == NULL)
		err = validate_migration_actions(m->name, "down", &m->down);
out_release_quotes:
	qpool_release(&qp);
	return err;
}

char *mig_validate_ladder(const struct sst_migration *ladder, size_t n)
{
	if (n > MIG_MAX_MIGRATIONS_PER_LADDER)
		return xasprintf("migration ladder has %zu migrations, exceeding the limit of %d", n,
				 MIG_MAX_MIGRATIONS_PER_LADDER);
	/* at most 200 names: the duplicate scan is bounded */
	for (size_t i = 0; i < n; i++) {
		char *err = mig_validate_migration(&ladder[i]);
		if (err)
			return err;
		for (size_t k = 0; k < i; k++) {
			if (strcmp(nz(ladder[k].name), nz(ladder[i].name)) == 0) {
				char *q = gofmt_quote(nz(ladder[i].name));
				err = xasprintf("duplicate migration name %s; names are the idempotency-ledger key and "
						"must be unique",
						q);
				free(q);
				return err;
			}
		}
	}
	return NULL;
}

/* ---- selection (Explain, Select, SelectDown) ---------------------------------------- */

/* A migration with its parsed target, for the stable sorts. */
struct scored {
	size_t idx;
	struct ss_semver to;
};

static int cmp_scored_up(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;
	int c = ss_semver_compare(&x->to, &y->to);
	if (c != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx; /* equal targets keep ladder order */
}

static int cmp_scored_down(const void *a, const void *b)
{
	const struct scored *x = a, *y = b;
	int c = ss_semver_compare(&y->to, &x->to);
	if (c != 0)
		return c;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* "migration %q has invalid to %q: <err>" for @m when its `to` does not parse. */
static char *parse_to(const struct sst_migration *m, struct ss_semver *to)
{
	char serr[256] = "";
	struct qpool qp = { 0 };

	if (ss_semver_parse(nz(m->to), to, serr, sizeof(serr)) == SS_OK)
		return NULL;
	char *err = xasprintf("migration %s has invalid to %s: %s", Q(&qp, m->name), Q(&qp, m->to), serr);
	qpool_release(&qp);
	return err;
}

void mig_outcomes_free(struct mig_outcome *o, size_t n)
{
	for (size_t i = 0; o && i < n; i++)
		free(o[i].reason);
	free(o);
}

char *mig_explain(const struct sst_migration *ladder, size_t n, const struct ss_semver *cur,
		  const struct ss_semver *des, struct mig_outcome **out, size_t *nout)
{
	struct scored *sc = xcalloc(n ? n : 1, sizeof(*sc));
	struct mig_outcome *o = xcalloc(n ? n : 1, sizeof(*o));
	char *cs = ss_semver_string(cur), *ds = ss_semver_string(des);
	char *err = NULL;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n && !err; i++) {
		const struct sst_migration *m = &ladder[i];
		sc[i].idx = i;
		if ((err = parse_to(m, &sc[i].to)) != NULL)
			break;
		o[i].m = m;
		if (ss_semver_compare(&sc[i].to, cur) <= 0 || ss_semver_compare(&sc[i].to, des) > 0) {
			o[i].reason = xasprintf("to %s is not in the crossed range (%s, %s]", nz(m->to), cs, ds);
		} else if (!empty(m->from)) {
			struct ss_constraints c;
			char cerr[1024] = "";
			struct qpool qp = { 0 };
			if (ss_constraints_parse(m->from, &c, cerr, sizeof(cerr)) != SS_OK) {
				err = xasprintf("migration %s has invalid from %s: %s", Q(&qp, m->name), Q(&qp, m->from),
						cerr);
			} else {
				if (!ss_constraints_check(&c, cur))
					o[i].reason = xasprintf("from %s does not match current %s", Q(&qp, m->from), cs);
				ss_constraints_release(&c);
			}
			qpool_release(&qp);
		}
		o[i].fires = o[i].reason == NULL;
	}
	if (err) {
		mig_outcomes_free(o, n);
		goto out_free;
	}
	qsort(sc, n, sizeof(*sc), cmp_scored_up);
	struct mig_outcome *sorted = xcalloc(n ? n : 1, sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		sorted[i] = o[sc[i].idx];
	free(o);
	*out = sorted;
	*nout = n;
out_free:
	free(sc);
	free(cs);
	free(ds);
	return err;
}

char *mig_select(const struct sst_migration *ladder, size_t n, const struct ss_semver *cur,
		 const struct ss_semver *des, const struct sst_migration ***out, size_t *nout)
{
	struct mig_outcome *o;
	size_t no;
	char *err = mig_explain(ladder, n, cur, des, &o, &no);

	*out = NULL;
	*nout = 0;
	if (err)
		return err;
	for (size_t i = 0; i < no; i++) {
		if (!o[i].fires)
			continue;
		*out = xreallocarray(*out, *nout + 1, sizeof(**out));
		(*out)[(*nout)++] = o[i].m;
	}
	mig_outcomes_free(o, no);
	return NULL;
}

char *mig_select_down(const struct sst_migration *ladder, size_t n, const struct ss_semver *cur,
		      const struct ss_semver *des, const struct sst_migration ***out, size_t *nout)
{
	struct scored *sc = xcalloc(n ? n : 1, sizeof(*sc));
	size_t k = 0;
	char *err = NULL;

	*out = NULL;
	*nout = 0;
	for (size_t i = 0; i < n; i++) {
		struct ss_semver to;
		if ((err = parse_to(&ladder[i], &to)) != NULL)
			goto out_free;
		/* the crossed-down range (des, cur] */
		if (ss_semver_compare(&to, des) > 0 && ss_semver_compare(&to, cur) <= 0) {
			sc[k].idx = i;
			sc[k++].to = to;
		}
	}
	qsort(sc, k, sizeof(*sc), cmp_scored_down);
	if (k) {
		*out = xcalloc(k, sizeof(**out));
		for (size_t i = 0; i < k; i++)
			(*out)[i] = &ladder[sc[i].idx];
		*nout = k;
	}
out_free:
	free(sc);
	return err;
}

bool mig_ladder_has_http(const struct sst_migration *ladder, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (int dir = 0; dir < 2; dir++) {
			const struct sst_actions *acts = dir ? &ladder[i].down : &ladder[i].actions;
			for (size_t j = 0; j < acts->n; j++) {
				const struct val *h = val_map_get(acts->items[j].raw, "http");
				if (h && h->type != VAL_NULL)
					return true;
			}
		}
	}
	return false;
}

/* ---- the plan (internal/controller/migrations.go) ------------------------------------ */

void mig_plan_release(struct mig_plan *p)
{
	if (!p)
		return;
	free(p->desired);
	free(p->pending);
	for (size_t i = 0; i < p->nby_stage; i++)
		free(p->by_stage[i].items);
	free(p->by_stage);
	free(p->source_revision);
	free(p->source_digest);
	mig_ladder_release(&p->ladder);
	memset(p, 0, sizeof(*p));
}

const char *mig_anchor_stage(const struct sst_spec *spec, const char *anchor)
{
	if (empty(anchor))
		return spec->nstages > 0 ? spec->stages[0].name : "";
	for (size_t i = 0; i < spec->nstages; i++)
		if (strcmp(nz(spec->stages[i].migration_anchor), anchor) == 0)
			return spec->stages[i].name;
	for (size_t i = 0; i < spec->nstages; i++)
		if (strcmp(nz(spec->stages[i].name), anchor) == 0)
			return spec->stages[i].name;
	return "";
}

static struct mig_stage_bucket *bucket_of(const struct mig_plan *plan, const char *stage)
{
	for (size_t i = 0; i < plan->nby_stage; i++)
		if (strcmp(plan->by_stage[i].stage, stage) == 0)
			return &plan->by_stage[i];
	return NULL;
}

int mig_resolve_anchors(const struct sst_spec *spec, struct mig_plan *plan, struct mig_verdict *v)
{
	for (size_t i = 0; i < plan->nby_stage; i++)
		free(plan->by_stage[i].items);
	free(plan->by_stage);
	plan->by_stage = NULL;
	plan->nby_stage = 0;
	for (size_t i = 0; i < plan->npending; i++) {
		const struct sst_migration *m = plan->pending[i];
		const char *stage = mig_anchor_stage(spec, m->stage);
		if (!*stage) {
			struct qpool qp = { 0 };
			char *msg = xasprintf("migration %s anchors to %s, which matches no stage name or migrationAnchor",
					      Q(&qp, m->name), Q(&qp, m->stage));
			qpool_release(&qp);
			return refuse(v, MIG_REASON_MIGRATION_STAGE_NOT_FOUND, msg);
		}
		struct mig_stage_bucket *b = bucket_of(plan, stage);
		if (!b) {
			plan->by_stage = xreallocarray(plan->by_stage, plan->nby_stage + 1, sizeof(*plan->by_stage));
			b = &plan->by_stage[plan->nby_stage++];
			memset(b, 0, sizeof(*b));
			b->stage = stage;
		}
		b->items = xreallocarray(b->items, b->n + 1, sizeof(*b->items));
		b->items[b->n++] = m;
	}
	return MIG_PROCEED;
}

const struct sst_migration *const *mig_plan_for_stage(const struct mig_plan *plan, const char *stage,
						       size_t *n)
{
	const struct mig_stage_bucket *b = plan ? bucket_of(plan, stage) : NULL;

	*n = b ? b->n : 0;
	return b ? b->items : NULL;
}

void mig_pending_migration_release(struct sst_pending_migration *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->to);
	free(p->from);
	free(p->stage);
	sst_string_list_release(&p->actions);
	free(p->digest);
	memset(p, 0, sizeof(*p));
}

void mig_pending_details(const struct mig_plan *plan, const struct sst_spec *spec,
			 struct sst_pending_migration **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	if (!plan || plan->npending == 0)
		return;
	*out = xcalloc(plan->npending, sizeof(**out));
	for (size_t i = 0; i < plan->npending; i++) {
		const struct sst_migration *m = plan->pending[i];
		const struct sst_actions *acts = plan->downgrade ? &m->down : &m->actions; /* a downgrade runs `down` */
		struct sst_pending_migration *d = &(*out)[i];
		char dig[13];

		for (size_t j = 0; j < acts->n; j++)
			sst_string_list_push(&d->actions, acts->items[j].verb ? acts->items[j].verb : "action");
		d->name = xstrdup(nz(m->name));
		d->to = xstrdup(nz(m->to));
		d->from = xstrdup(nz(m->from));
		d->stage = xstrdup(mig_anchor_stage(spec, m->stage));
		d->digest = xstrdup(mig_migration_digest(m, dig));
	}
	*n = plan->npending;
}

bool mig_coverage_gap(bool require, const struct ss_semver *cur, const struct ss_semver *des, size_t npending)
{
	return require && npending == 0 && des->major > cur->major;
}

static size_t stage_index(const struct sst_spec *spec, const char *name)
{
	for (size_t i = 0; i < spec->nstages; i++)
		if (strcmp(nz(spec->stages[i].name), nz(name)) == 0)
			return i;
	return SIZE_MAX;
}

/* The artifact of stage @idx (R-8 resolved every stage before the plan). */
static const struct ssc_resolved *resolved_of(const struct mig_ctx *cx, size_t idx)
{
	assert(idx < cx->nresolved);
	return &cx->resolved[idx];
}

/* versionFromArtifact */
static int version_from_artifact(const struct mig_ctx *cx, char **desired, struct mig_verdict *v)
{
	const struct sst_version *ver = &cx->spec->version;
	struct qpool qp = { 0 };
	size_t idx = stage_index(cx->spec, ver->fa_stage);
	char *content = NULL;
	int64_t dur = 0;
	struct ssc_err err = { 0 };
	int rc;

	if (idx == SIZE_MAX) {
		rc = refuse(v, MIG_REASON_INVALID_VERSION,
			    xasprintf("invalid version: spec.version.fromArtifact.stage %s is not a stage",
				      Q(&qp, ver->fa_stage)));
		goto out_release_quotes;
	}
	int got = cx->env->artifact_file(cx->env->ctx, resolved_of(cx, idx), nz(ver->fa_path), cx->clock->now_ms,
					 &content, &dur, &err);
	advance(cx->clock, dur);
	if (got != 0) {
		free(content);
		if (err.code == SSC_ERR_NOT_FOUND) {
			rc = refuse(v, MIG_REASON_INVALID_VERSION,
				    xasprintf("invalid version: version file %s not found in stage %s artifact",
					      Q(&qp, ver->fa_path), Q(&qp, ver->fa_stage)));
		} else {
			set_err(&v->err, err.code == SSC_OK ? SSC_ERR : err.code,
				"fetch version artifact for stage %s: %s", Q(&qp, ver->fa_stage), err.msg);
			rc = MIG_ERROR;
		}
		goto out_release_quotes;
	}
	char *t = trim_space(nz(content));
	free(content);
	if (!*t) {
		free(t);
		rc = refuse(v, MIG_REASON_INVALID_VERSION,
			    xasprintf("invalid version: version file %s is empty", Q(&qp, ver->fa_path)));
		goto out_release_quotes;
	}
	*desired = t;
	rc = MIG_PROCEED;
out_release_quotes:
	qpool_release(&qp);
	return rc;
}

/* versionFromObject (the build and the field read are the world's: env->object_version) */
static int version_from_object(const struct mig_ctx *cx, char **desired, struct mig_verdict *v)
{
	const struct sst_version *ver = &cx->spec->version;
	struct qpool qp = { 0 };
	size_t idx;
	char *text = NULL;
	bool transient = false;
	int64_t dur = 0;
	struct ssc_err err = { 0 };
	int rc;

	/* actionplan.VersionStageIndex */
	if (empty(ver->fo_stage)) {
		if (cx->spec->nstages == 0) {
			rc = refuse(v, MIG_REASON_INVALID_VERSION,
				    xstrdup("invalid version: spec.version.fromObject has no stage and the StageSet "
					    "declares none"));
			goto out_release_quotes;
		}
		idx = 0;
	} else if ((idx = stage_index(cx->spec, ver->fo_stage)) == SIZE_MAX) {
		rc = refuse(v, MIG_REASON_INVALID_VERSION,
			    xasprintf("invalid version: spec.version.fromObject.stage %s is not a stage",
				      Q(&qp, ver->fo_stage)));
		goto out_release_quotes;
	}
	const char *stage = cx->spec->stages[idx].name;
	int got = cx->env->object_version(cx->env->ctx, idx, resolved_of(cx, idx), nz(ver->fo_kind),
					  nz(ver->fo_name), nz(ver->fo_api_version), nz(ver->fo_field_path),
					  cx->clock->now_ms, &text, &transient, &dur, &err);
	advance(cx->clock, dur);
	if (got != 0) {
		free(text);
		if (transient) {
			v->err = err;
			if (v->err.code == SSC_OK)
				v->err.code = SSC_ERR;
			rc = MIG_ERROR;
		} else {
			rc = refuse(v, MIG_REASON_INVALID_VERSION, xasprintf("invalid version: %s", err.msg));
		}
		goto out_release_quotes;
	}
	char *t = trim_space(nz(text));
	free(text);
	if (!*t) {
		free(t);
		rc = refuse(v, MIG_REASON_INVALID_VERSION,
			    xasprintf("invalid version: version field on %s %s in stage %s resolved to empty",
				      nz(ver->fo_kind), Q(&qp, ver->fo_name), Q(&qp, stage)));
		goto out_release_quotes;
	}
	*desired = t;
	rc = MIG_PROCEED;
out_release_quotes:
	qpool_release(&qp);
	return rc;
}

int mig_resolve_desired_version(const struct mig_ctx *cx, char **desired, struct mig_verdict *v)
{
	const struct sst_version *ver = &cx->spec->version;

	*desired = NULL;
	if (!empty(ver->value)) {
		*desired = trim_space(ver->value);
		return MIG_PROCEED;
	}
	if (ver->has_from_object)
		return version_from_object(cx, desired, v);
	if (ver->has_from_artifact)
		return version_from_artifact(cx, desired, v);
	return refuse(v, MIG_REASON_INVALID_VERSION,
		      xstrdup("invalid version: spec.version sets none of value, fromObject, or fromArtifact"));
}

const char *mig_check_migration_source_verified(const struct ssc_options *opt, int verified)
{
	if (verified == 0)
		return "migrations source signature verification failed (SourceVerified=False); the source's "
		       "spec.verify did not pass";
	if (opt->require_verified_migration_sources && verified < 0)
		return "migrations source is not signature-verified and --require-verified-migration-sources is "
		       "set; configure spec.verify (cosign/notation) on the source";
	return NULL;
}

const char *mig_check_migration_source_pinned(const struct ssc_options *opt, int pinned,
					      const struct ssc_clock *clk, struct ssc_events *ev)
{
	if (pinned != 0)
		return NULL; /* pinned, or pinning does not apply (nil) */
	if (opt->require_pinned_migration_sources)
		return "migrations source is pinned to a mutable tag/branch, not an immutable digest/commit, and "
		       "--require-pinned-migration-sources is set";
	ssc_events_add(ev, clk->now_ms, true, MIG_EVENT_SOURCE_MUTABLE, "%s",
		       "migrations source is pinned to a mutable tag/branch; an upstream overwrite can auto-roll new "
		       "destructive content \xe2\x80\x94 pin to a digest/commit");
	return NULL;
}

/* errors.go rbacDenialMessage for a permanent API error of class @code with text @text. */
static char *rbac_denial_message(const char *context, enum ssc_errc code, const char *text)
{
	if (code == SSC_ERR_FORBIDDEN)
		return xasprintf("RBAC denied %s \xe2\x80\x94 grant the missing verb to the tenant ServiceAccount (see the "
				 "Tenancy and RBAC guide). %s",
				 context, text);
	if (code == SSC_ERR_NO_MATCH)
		return xasprintf("%s refers to a kind not registered with the apiserver \xe2\x80\x94 install the "
				 "corresponding CRD. %s",
				 context, text);
	return xasprintf("%s: %s", context, text);
}

static void free_files(char **paths, char **contents, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(paths ? paths[i] : NULL);
		free(contents ? contents[i] : NULL);
	}
	free(paths);
	free(contents);
}

int mig_resolve_migration_ladder(const struct mig_ctx *cx, struct mig_ladder *ladder, char **revision,
				 char **digest, struct mig_verdict *v)
{
	const struct sst_spec *spec = cx->spec;
	struct ssc_resolved ra;
	struct res_error rerr;
	const char *msg;
	char *err;

	memset(ladder, 0, sizeof(*ladder));
	*revision = *digest = NULL;
	if (!spec->has_migrations_source) {
		/* the reconciler's own check of the inline ladder (duplicate names would let pruning drop a sibling) */
		if ((err = mig_validate_ladder(spec->migrations, spec->nmigrations)) != NULL)
			return refuse(v, MIG_REASON_INVALID_SPEC, err);
		ladder->items = spec->migrations;
		ladder->n = spec->nmigrations;
		*revision = xstrdup("");
		*digest = xstrdup("");
		return MIG_PROCEED;
	}
	/* always same-namespace, whatever --no-cross-namespace-refs says */
	memset(&ra, 0, sizeof(ra));
	memset(&rerr, 0, sizeof(rerr));
	if (cx->resolve(cx->env, &spec->migrations_source_ref, cx->ss->ns, true, cx->clock->now_ms, &ra, &rerr) != 0) {
		switch (rerr.cls) {
		case RES_RBAC_DENIED:
			return refuse(v, MIG_REASON_RBAC_DENIED,
				      rbac_denial_message("resolving the migrations source CR", rerr.api.code, rerr.msg));
		case RES_SOURCE_NOT_READY:
		case RES_ARTIFACT_NOT_FOUND:
			set_err(&v->err, SSC_ERR, "migrations source not ready: %s", rerr.msg);
			return MIG_ERROR;
		case RES_RESOLVE_FAILED:
			return refuse(v, MIG_REASON_RESOLVE_FAILED, xasprintf("migrations source: %s", rerr.msg));
		default:
			/* any other failure (an API error, a producer ref without apiVersion) is transient */
			set_err(&v->err, rerr.api.code != SSC_OK ? rerr.api.code : SSC_ERR, "%s", rerr.msg);
			return MIG_ERROR;
		}
	}
	if ((msg = mig_check_migration_source_verified(cx->opt, ra.verified)) != NULL)
		return refuse(v, MIG_REASON_MIGRATION_SOURCE_NOT_VERIFIED, xstrdup(msg));
	if ((msg = mig_check_migration_source_pinned(cx->opt, ra.pinned, cx->clock, cx->events)) != NULL)
		return refuse(v, MIG_REASON_MIGRATION_SOURCE_NOT_PINNED, xstrdup(msg));

	char **paths = NULL, **contents = NULL;
	int64_t dur = 0;
	struct ssc_err ferr = { 0 };
	size_t n = cx->env->ladder_files(cx->env->ctx, &ra, nz(spec->migrations_source_path), cx->clock->now_ms,
					 &paths, &contents, &dur, &ferr);
	advance(cx->clock, dur);
	if (ferr.code != SSC_OK) {
		free_files(paths, contents, n);
		/* a digest, address or size problem fails the same way every time */
		if (ferr.code == SSC_ERR_TERMINAL_FETCH)
			return refuse(v, MIG_REASON_MIGRATION_ARTIFACT_INVALID,
				      xasprintf("fetch migrations artifact: %s", ferr.msg));
		set_err(&v->err, ferr.code, "fetch migrations artifact: %s", ferr.msg);
		return MIG_ERROR;
	}
	err = mig_parse_ladder(cx->env, paths, contents, n, ladder);
	free_files(paths, contents, n);
	if (err)
		return refuse(v, MIG_REASON_MIGRATION_ARTIFACT_INVALID, err);
	if ((err = mig_validate_ladder(ladder->items, ladder->n)) != NULL) {
		mig_ladder_release(ladder);
		return refuse(v, MIG_REASON_MIGRATION_ARTIFACT_INVALID, err);
	}
	if (!cx->opt->allowed_action_hosts_set && mig_ladder_has_http(ladder->items, ladder->n)) {
		mig_ladder_release(ladder);
		return refuse(v, MIG_REASON_INVALID_SPEC,
			      xstrdup("the migration ladder sourced from spec.migrationsSourceRef uses an http action, "
				      "but --allowed-action-hosts is not configured; remote-authored http actions "
				      "require a host allowlist"));
	}
	*revision = xstrdup(nz(ra.revision));
	*digest = xstrdup(nz(ra.digest));
	return MIG_PROCEED;
}

/* The loaded ladder into @plan (its storage moves to the plan), with the source's provenance. */
static void plan_take_ladder(struct mig_plan *plan, struct mig_ladder *ladder, char *revision, char *digest)
{
	free(plan->source_revision);
	free(plan->source_digest);
	plan->source_revision = revision;
	plan->source_digest = digest;
	if (ladder->owned_) {
		plan->ladder = *ladder;
		memset(ladder, 0, sizeof(*ladder));
	}
}

int mig_plan_downgrade(const struct mig_ctx *cx, const struct ss_semver *cur, const struct ss_semver *des,
		       const char *desired, struct mig_plan *plan, struct mig_verdict *v)
{
	const struct sst_spec *spec = cx->spec;
	struct mig_ladder ladder;
	char *revision, *digest, *err;
	const struct sst_migration **down = NULL;
	size_t ndown = 0;
	int rc;

	memset(plan, 0, sizeof(*plan));
	if (!spec->has_version || !spec->version.allow_downgrade) {
		char *cs = ss_semver_string(cur);
		rc = refuse(v, MIG_REASON_DOWNGRADE_NOT_ALLOWED,
			    xasprintf("desired version %s is below the deployed version %s and downgrades are not "
				      "enabled; set spec.version.allowDowngrade to enable reversible downgrades",
				      desired, cs));
		free(cs);
		goto out_release_plan;
	}
	plan->version_set = true;
	plan->desired = xstrdup(desired);
	plan->downgrade = true;

	if ((rc = mig_resolve_migration_ladder(cx, &ladder, &revision, &digest, v)) != MIG_PROCEED)
		goto out_release_plan;
	plan_take_ladder(plan, &ladder, revision, digest);
	const struct sst_migration *items = plan->ladder.owned_ ? plan->ladder.items : spec->migrations;
	size_t nitems = plan->ladder.owned_ ? plan->ladder.n : spec->nmigrations;

	if ((err = mig_select_down(items, nitems, cur, des, &down, &ndown)) != NULL) {
		rc = refuse(v, MIG_REASON_INVALID_VERSION, err);
		goto out_release_plan;
	}
	for (size_t i = 0; i < ndown; i++) {
		if (down[i]->down.n == 0) {
			char *cs = ss_semver_string(cur);
			char *q = gofmt_quote(nz(down[i]->name));
			rc = refuse(v, MIG_REASON_DOWNGRADE_REQUIRES_MIGRATION,
				    xasprintf("downgrade %s \xe2\x86\x92 %s crosses migration %s (to %s), which declares no "
					      "down actions; it is irreversible",
					      cs, desired, q, nz(down[i]->to)));
			free(q);
			free(cs);
			free(down);
			goto out_release_plan;
		}
	}
	plan->pending = down;
	plan->npending = ndown;
	if ((rc = mig_resolve_anchors(spec, plan, v)) != MIG_PROCEED)
		goto out_release_plan;
	return MIG_PROCEED;
out_release_plan:
	mig_plan_release(plan);
	return rc;
}

int mig_plan_version_migrations(const struct mig_ctx *cx, struct mig_plan *plan, struct mig_verdict *v)
{
	const struct sst_spec *spec = cx->spec;
	struct ss_semver des, cur;
	char serr[256] = "";
	char *desired = NULL, *revision, *digest, *err;
	struct mig_ladder ladder;
	struct qpool qp = { 0 };
	int rc;

	memset(plan, 0, sizeof(*plan));
	memset(v, 0, sizeof(*v));
	if (!spec->has_version)
		return MIG_PROCEED; /* unversioned */
	if ((rc = mig_resolve_desired_version(cx, &desired, v)) != MIG_PROCEED)
		return rc;
	/* a rollback-to directive overrides the source's version with a lower one */
	const char *rb = mig_rollback_directive(cx->ss, cx->status->version);
	if (rb) {
		free(desired);
		desired = xstrdup(rb);
	}
	if (ss_semver_parse(desired, &des, serr, sizeof(serr)) != SS_OK) {
		rc = refuse(v, MIG_REASON_INVALID_VERSION,
			    xasprintf("desired version %s is not a semver: %s", Q(&qp, desired), serr));
		goto out_free_desired;
	}
	plan->version_set = true;
	plan->desired = desired;
	/* source_revision and source_digest stay NULL ("") until a ladder is resolved: most passes need none */

	const char *current = nz(cx->status->version);
	if (!*current) {
		plan->baseline = true; /* first adoption: record the version, run nothing */
		return MIG_PROCEED;
	}
	if (ss_semver_parse(current, &cur, serr, sizeof(serr)) != SS_OK) {
		rc = refuse(v, MIG_REASON_INVALID_VERSION,
			    xasprintf("recorded status.version %s is not a semver: %s", Q(&qp, current), serr));
		goto out_release_plan;
	}
	int c = ss_semver_compare(&des, &cur);
	if (c < 0) {
		/* @des points into the desired text: keep it while the downgrade plan is built afresh */
		char *keep = plan->desired;
		plan->desired = NULL;
		mig_plan_release(plan);
		rc = mig_plan_downgrade(cx, &cur, &des, keep, plan, v);
		free(keep);
		return rc;
	}
	if (c == 0)
		return MIG_PROCEED; /* no transition */

	if ((rc = mig_resolve_migration_ladder(cx, &ladder, &revision, &digest, v)) != MIG_PROCEED)
		goto out_release_plan;
	plan_take_ladder(plan, &ladder, revision, digest);
	const struct sst_migration *items = plan->ladder.owned_ ? plan->ladder.items : spec->migrations;
	size_t nitems = plan->ladder.owned_ ? plan->ladder.n : spec->nmigrations;
	const struct sst_migration **pending = NULL;
	size_t npending = 0;

	if ((err = mig_select(items, nitems, &cur, &des, &pending, &npending)) != NULL) {
		rc = refuse(v, MIG_REASON_INVALID_VERSION, err);
		goto out_release_plan;
	}
	if (mig_coverage_gap(spec->version.require_migration_coverage, &cur, &des, npending)) {
		free(pending);
		rc = refuse(v, MIG_REASON_MIGRATION_COVERAGE_MISSING,
			    xasprintf("version crosses a major boundary %s \xe2\x86\x92 %s but no migration covers it, "
				      "and requireMigrationCoverage is set",
				      current, plan->desired));
		goto out_release_plan;
	}
	plan->pending = pending;
	plan->npending = npending;
	if ((rc = mig_resolve_anchors(spec, plan, v)) != MIG_PROCEED)
		goto out_release_plan;
	return MIG_PROCEED;
out_free_desired:
	qpool_release(&qp);
	free(desired);
	return rc;
out_release_plan:
	qpool_release(&qp);
	mig_plan_release(plan);
	return rc;
}

/* ---- approval (migration_approval.go) ------------------------------------------------- */

const char *mig_rollback_directive(const struct obj *ss, const char *status_version)
{
	const char *rb = obj_strmap_get(&ss->annotations, SSC_ANN_ROLLBACK_TO);
	struct ss_semver rbv, cur;

	if (empty(rb) || empty(status_version))
		return NULL;
	if (ss_semver_parse(rb, &rbv, NULL, 0) != SS_OK || ss_semver_parse(status_version, &cur, NULL, 0) != SS_OK)
		return NULL;
	return ss_semver_compare(&rbv, &cur) < 0 ? rb : NULL;
}

bool mig_version_approval_needed(const char *mode, const struct mig_plan *plan, const char *current_version)
{
	if (!plan || !plan->version_set || plan->baseline)
		return false;
	if (strcmp(nz(mode), "Always") == 0)
		return strcmp(nz(plan->desired), nz(current_version)) != 0;
	if (strcmp(nz(mode), "OnMigrations") == 0)
		return plan->npending > 0;
	return false; /* Never or unset */
}

bool mig_migration_approval_predicate_update(const struct obj *old, const struct obj *new)
{
	if (!old || !new)
		return false;
	return strcmp(nz(obj_strmap_get(&old->annotations, SSC_ANN_APPROVED_VERSION)),
		      nz(obj_strmap_get(&new->annotations, SSC_ANN_APPROVED_VERSION))) != 0 ||
	       strcmp(nz(obj_strmap_get(&old->annotations, SSC_ANN_ROLLBACK_TO)),
		      nz(obj_strmap_get(&new->annotations, SSC_ANN_ROLLBACK_TO))) != 0;
}

/* ---- running (runStageMigrations, runStageDowngrades) ------------------------------------ */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void mig_name_set_release(struct mig_name_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	memset(s, 0, sizeof(*s));
}

bool mig_name_set_has(const void *set, const char *name)
{
	const struct mig_name_set *s = set;

	return s->n && bsearch(&name, s->names, s->n, sizeof(*s->names), cmp_name) != NULL;
}

/* Adds a copy of @name (sorted insertion; a name already there is kept once). */
static void name_set_add(struct mig_name_set *s, const char *name)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->names[mid], name);
		if (c == 0)
			return;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	s->names = xreallocarray(s->names, s->n + 1, sizeof(*s->names));
	memmove(s->names + lo + 1, s->names + lo, (s->n - lo) * sizeof(*s->names));
	s->names[lo] = xstrdup(name);
	s->n++;
}

/* The set of @l's entries (sorted, duplicates once).  O(n log n). */
static void name_set_of(const struct sst_string_list *l, struct mig_name_set *out)
{
	memset(out, 0, sizeof(*out));
	if (!l->n)
		return;
	out->names = xcalloc(l->n, sizeof(*out->names));
	for (size_t i = 0; i < l->n; i++)
		out->names[i] = xstrdup(l->items[i]);
	qsort(out->names, l->n, sizeof(*out->names), cmp_name);
	size_t k = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (k && strcmp(out->names[k - 1], out->names[i]) == 0)
			free(out->names[i]);
		else
			out->names[k++] = out->names[i];
	}
	out->n = k;
}

void mig_actions_done_for(const struct sst_string_list *ledger, const char *mig_key, struct mig_name_set *out)
{
	size_t plen = strlen(mig_key);
	struct sst_string_list after = { 0 };

	for (size_t i = 0; i < ledger->n; i++) {
		const char *e = ledger->items[i];
		if (strncmp(e, mig_key, plen) == 0 && e[plen] == '/')
			sst_string_list_push(&after, e + plen + 1);
	}
	name_set_of(&after, out);
	sst_string_list_release(&after);
}

/* migEntryName: the name of a "name@digest" key (all of it without an '@'), compared with @name. */
static bool entry_name_is(const char *key, size_t keylen, const char *name)
{
	const char *at = memchr(key, '@', keylen);
	size_t n = at ? (size_t)(at - key) : keylen;

	return strlen(name) == n && memcmp(key, name, n) == 0;
}

/* dropSupersededLedger over @l (replaced); @action: entries are "<key>/<action>". */
static void drop_superseded(struct sst_string_list *l, const char *name, const char *keep, bool action)
{
	struct sst_string_list out = { 0 };

	for (size_t i = 0; i < l->n; i++) {
		const char *e = l->items[i];
		size_t keylen = strlen(e);
		if (action) {
			const char *slash = strchr(e, '/');
			if (slash)
				keylen = (size_t)(slash - e);
		}
		bool is_keep = strlen(keep) == keylen && memcmp(e, keep, keylen) == 0;
		if (entry_name_is(e, keylen, name) && !is_keep)
			continue;
		sst_string_list_push(&out, e);
	}
	sst_string_list_release(l);
	*l = out;
}

void mig_prune_superseded_ledger(struct sst_status *st, const char *name, const char *keep)
{
	drop_superseded(&st->executed_migrations, name, keep, false);
	drop_superseded(&st->executed_migration_actions, name, keep, true);
}

char *mig_migration_source_suffix(const struct mig_plan *plan)
{
	if (!plan || empty(plan->source_digest))
		return xstrdup("");
	return xasprintf(" from source revision %s (artifact %s)", nz(plan->source_revision), plan->source_digest);
}

/* The record callback: appends "<prefix>/<name>" to executedMigrationActions. */
struct recorder {
	struct sst_status *st;
	const char *prefix;
};

static int record_action(void *arg, const char *name, struct ssc_err *err)
{
	const struct recorder *r = arg;
	char *e = xasprintf("%s/%s", r->prefix, name);

	sst_string_list_push(&r->st->executed_migration_actions, e);
	free(e);
	return 0;
}

int mig_run_stage_migrations(struct sst_status *st, const char *stage, const struct mig_plan *plan,
			     const struct mig_executor *ex, const struct ssc_clock *clk, struct ssc_events *ev,
			     struct ssc_err *err)
{
	const struct sst_migration *const *ms;
	struct mig_name_set done_mig;
	size_t n;
	int rc = 0;

	if (!plan || plan->baseline)
		return 0;
	/* a downgrade runs `down` under "<key>/down/<action>" and prunes nothing (runStageDowngrades) */
	const bool down = plan->downgrade;
	const char *what = down ? "rollback of migration" : "migration";
	char *src = mig_migration_source_suffix(plan);

	name_set_of(&st->executed_migrations, &done_mig);
	ms = mig_plan_for_stage(plan, stage, &n);
	for (size_t i = 0; i < n && rc == 0; i++) {
		const struct sst_migration *m = ms[i];
		char *key = mig_migration_key(m);
		char *prefix = down ? xasprintf("%s/down", key) : xstrdup(key);
		struct mig_name_set actions_done;
		struct recorder rec = { st, prefix };
		struct ssc_err aerr = { 0 };
		struct qpool qp = { 0 };

		if (mig_name_set_has(&done_mig, key))
			goto next;
		mig_actions_done_for(&st->executed_migration_actions, prefix, &actions_done);
		ssc_events_add(ev, clk->now_ms, false, MIG_EVENT_STARTED, "%s %s (to %s) starting%s", what,
			       Q(&qp, m->name), nz(m->to), src);
		if (ex->run(ex->arg, down ? &m->down : &m->actions, mig_name_set_has, &actions_done, record_action,
			    &rec, &aerr) != 0) {
			ssc_events_add(ev, clk->now_ms, true, MIG_EVENT_FAILED, "%s %s failed: %s", what,
				       Q(&qp, m->name), aerr.msg);
			set_err(err, aerr.code == SSC_OK ? SSC_ERR : aerr.code, "%s %s: %s", what, Q(&qp, m->name),
				aerr.msg);
			rc = -1;
		} else {
			sst_string_list_push(&st->executed_migrations, key);
			/* a re-authored migration supersedes its earlier content's entries */
			if (!down)
				mig_prune_superseded_ledger(st, nz(m->name), key);
			name_set_add(&done_mig, key);
			ssc_events_add(ev, clk->now_ms, false, MIG_EVENT_COMPLETED, "%s %s (to %s) completed%s", what,
				       Q(&qp, m->name), nz(m->to), src);
		}
		mig_name_set_release(&actions_done);
next:
		qpool_release(&qp);
		free(prefix);
		free(key);
	}
	mig_name_set_release(&done_mig);
	free(src);
	return rc;
}
