#ifndef MAGOS_SIM_SCHEMA_H
#define MAGOS_SIM_SCHEMA_H

/*
 * A small declarative schema validator over `struct val` trees, modelled on
 * what the Kubernetes API server does with a CRD's structural OpenAPI schema:
 * prune nulls, apply defaults, check types, required fields, enums, lengths,
 * minimums and item counts, reject unknown fields (kubectl's strict field
 * validation), then run custom checks (the CRD's CEL rules).
 *
 * Schemas are static const tables written in C, for example:
 *
 *     static const struct sch_field source_fields[] = {
 *         SCH_REQUIRED("repoURL", &sch_string),
 *         SCH_REQUIRED("targetRevision", &sch_string),
 *         SCH_DEFAULT("path", &sch_string, "."),
 *         SCH_END,
 *     };
 *     static const struct sch_node source = { SCH_OBJECT, .fields = source_fields };
 *
 * Messages mirror the API server's field.Error wording, which is what users
 * see from kubectl (PATH is the dotted field path, e.g. "spec.source.path";
 * list elements are written "spec.waves[0]"; free map keys "spec.annotations.k"):
 *
 *     PATH: Required value
 *     PATH: Invalid value: "string": PATH in body must be of type boolean: "yes"
 *     PATH: Unsupported value: "Foo": supported values: "Halt", "Rollback"
 *     PATH: Invalid value: "": PATH in body should be at least 1 chars long
 *     PATH: Invalid value: 0: PATH in body should be greater than or equal to 1
 *     PATH: Invalid value: 101: PATH in body should be less than or equal to 100
 *     PATH: Too long: may not be more than 1024 bytes
 *     PATH: Invalid value: "A_b": PATH in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'
 *     PATH: Invalid value: "x": PATH in body must be of type date-time: "x"
 *     PATH: Invalid value: 0: PATH in body should have at least 1 items
 *     unknown field "PATH"            (+ note: accepted fields: a, b, c)
 *     PATH[1]: Duplicate value: map[string]interface {}{"name":"canary"}
 *     PATH: Invalid value: "5x": time: unknown unit "x" in duration "5x"
 *
 * Each message is prefixed with sch_ctx.prefix (e.g. `Workspace "ns/name": `)
 * and carries the file:line:col of the offending node (of the parent object
 * for a missing required field).  A number or boolean given where a string is
 * expected gets a note suggesting quotes, since YAML turned it into a number
 * and the cluster rejects it too:
 *     note: YAML reads 1.10 as a number: quote it ("1.10") if a string is
 *           meant; the cluster rejects the unquoted form too
 *
 * Order of work on an object node (as the API server: prune/default while
 * decoding, then validate): (1) fields whose value is null and whose schema is
 * not nullable are removed; (2) absent fields with a default get it; (3) every
 * present field is validated recursively, unknown fields are reported;
 * (4) absent required fields are reported; (5) the node's check callback runs,
 * only when the node and everything below it had no error (the API server
 * does not run CEL rules on values of the wrong shape either).
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/value.h"
#include "sim/base/diag.h"

/* String and integer formats a schema checks (OpenAPI `format`). */
enum sch_format {
	SCH_FORMAT_NONE = 0,
	/*
	 * SCH_STRING `format: date-time`: what the API server accepts
	 * (kube-openapi strfmt.IsDateTime), reported as
	 *     PATH: Invalid value: "x": PATH in body must be of type date-time: "x"
	 * and then what metav1.Time can decode (time.Parse with RFC 3339: an
	 * upper-case T and Z, a day within its month), whose refusal the API
	 * server does not make (a deviation, like SCH_DURATION: the controller
	 * could not read the object).
	 */
	SCH_FORMAT_DATE_TIME,
	/*
	 * SCH_INTEGER `format: int32`: the API server does not bound it, but a
	 * Go int32 field cannot decode a value outside [-2^31, 2^31-1]; refused
	 * with the minimum / maximum wording (a deviation, noted as such).
	 */
	SCH_FORMAT_INT32,
};

enum sch_type {
	SCH_ANY,      /* anything, kept as is (x-kubernetes-preserve-unknown-fields subtree) */
	SCH_STRING,   /* string */
	SCH_INTEGER,  /* int64 */
	SCH_NUMBER,   /* int or float */
	SCH_BOOLEAN,  /* true/false */
	SCH_OBJECT,   /* map with the listed fields (unknown ones rejected unless preserve_unknown) */
	SCH_MAP,      /* map with free string keys, each value of schema `items` (NULL = any) */
	SCH_ARRAY,    /* list, each element of schema `items` (NULL = any) */
	SCH_DURATION, /* string in Go time.ParseDuration syntax ("90s", "1h30m") */
};

struct sch_node;
struct sch_ctx;

/*
 * sch_check_fn - custom rule run on a node after its structural validation
 * succeeded (e.g. a CEL rule).  @v is the node (borrowed, defaults applied),
 * @path its dotted path ("" for the root).  Report problems with sch_report();
 * the callback must not modify the tree.
 */
typedef void (*sch_check_fn)(struct sch_ctx *c, const struct val *v, const char *path);

/*
 * One property of an SCH_OBJECT.  Arrays of fields end with an entry whose
 * name is NULL.
 */
struct sch_field {
	const char *name;             /* JSON field name */
	const struct sch_node *schema;/* borrowed, static */
	bool required;                /* absent ⇒ "PATH: Required value" */
	/*
	 * Default applied when the field is absent (or null and not nullable),
	 * written as text and read according to the schema's type:
	 * SCH_STRING/SCH_DURATION the text itself; SCH_BOOLEAN "true"/"false";
	 * SCH_INTEGER decimal; SCH_NUMBER decimal (integral text gives an int);
	 * SCH_OBJECT/SCH_MAP "{}"; SCH_ARRAY "[]".  NULL = no default.  A
	 * defaulted object is itself defaulted recursively.  A default never
	 * counts as a user error; defaulted nodes get the parent's mark.
	 */
	const char *dflt;
};

/*
 * Field table helpers.  They use designated initialisers, which keeps
 * -Wextra's missing-field-initializers quiet (a positional { "x", &n } entry
 * trips it under -Werror):
 *     SCH_FIELD("path", &sch_string), SCH_REQUIRED("repoURL", &sch_string),
 *     SCH_DEFAULT("path", &sch_string, "."), SCH_END
 */
#define SCH_FIELD(n, s) { .name = (n), .schema = (s) }
#define SCH_REQUIRED(n, s) { .name = (n), .schema = (s), .required = true }
#define SCH_DEFAULT(n, s, d) { .name = (n), .schema = (s), .dflt = (d) }
#define SCH_END { .name = NULL }

struct sch_node {
	enum sch_type type;
	const struct sch_field *fields; /* SCH_OBJECT: NULL-name-terminated; NULL = no fields */
	const struct sch_node *items;   /* SCH_ARRAY element / SCH_MAP value schema; NULL = any */
	const char *const *enum_values; /* SCH_STRING: NULL-terminated allowed values; NULL = any */
	int64_t min_length;             /* SCH_STRING/SCH_DURATION: minimum length in characters
					 * (UTF-8 code points, as the API server counts); 0 = none */
	bool has_minimum;               /* SCH_INTEGER/SCH_NUMBER: `minimum` applies */
	double minimum;                 /* inclusive lower bound */
	int64_t min_items;              /* SCH_ARRAY: minimum element count; 0 = none */
	/*
	 * SCH_ARRAY of objects with `x-kubernetes-list-type: map` and this one
	 * field as `x-kubernetes-list-map-keys`: no two elements may have the same
	 * value of it (a missing key is a value too).  NULL = not a list-map.
	 */
	const char *list_map_key;
	bool nullable;                  /* null is a valid value (kept); otherwise a null field is
					 * pruned and then defaulted / reported missing */
	bool preserve_unknown;          /* SCH_OBJECT: unknown fields are kept unvalidated
					 * instead of rejected */
	sch_check_fn check;             /* custom rule, NULL = none */
	bool has_maximum;               /* SCH_INTEGER/SCH_NUMBER: `maximum` applies */
	double maximum;                 /* inclusive upper bound */
	int64_t max_length;             /* SCH_STRING: maximum length in characters; 0 = none */
	/*
	 * SCH_STRING `pattern`: the regular expression as the CRD writes it (for
	 * the message) and the function that decides it (hand-written for each
	 * pattern, so no regex engine runs on the load path).  Both or neither.
	 */
	const char *pattern;
	bool (*pattern_match)(const char *s);
	enum sch_format format;         /* SCH_STRING / SCH_INTEGER format; SCH_FORMAT_NONE = none */
};

/*
 * Validation context, filled by the caller.  All pointers are borrowed and
 * must outlive the sch_validate() call.
 */
struct sch_ctx {
	struct diag *d;         /* where problems go */
	const char *file;       /* file name printed in diagnostics; may be NULL */
	const char *prefix;     /* prepended to every message, e.g. "Rollout \"default/x\": ";
				 * NULL = none */
	const struct val *root; /* the whole document, for checks that look outside their node
				 * (a CEL rule on `self` at the object root); may be NULL */
	void *user;             /* free for check callbacks */
	size_t nerrors;         /* errors reported through this context so far (sch_* adds) */
};

/* Ready-made leaf schemas (static, never freed). */
extern const struct sch_node sch_any;        /* SCH_ANY */
extern const struct sch_node sch_string;     /* SCH_STRING */
extern const struct sch_node sch_string_nonempty; /* SCH_STRING, min_length 1 */
extern const struct sch_node sch_integer;    /* SCH_INTEGER */
extern const struct sch_node sch_number;     /* SCH_NUMBER */
extern const struct sch_node sch_boolean;    /* SCH_BOOLEAN */
extern const struct sch_node sch_duration;   /* SCH_DURATION */
extern const struct sch_node sch_string_map; /* SCH_MAP of SCH_STRING (labels, annotations) */
extern const struct sch_node sch_string_list;/* SCH_ARRAY of SCH_STRING */
extern const struct sch_node sch_any_object; /* SCH_OBJECT with preserve_unknown and no fields */

/*
 * sch_validate() - validate @v against @s, pruning non-nullable nulls and
 * applying defaults in place, and report every problem found into c->d.
 * @s:    schema (borrowed).
 * @v:    value to check, modified in place (fields added or removed below it,
 *        never @v itself replaced).  NULL is reported as a missing value.
 * @path: dotted path of @v used in messages ("" or NULL for the document root;
 *        the root's own problems then name no path, e.g. "Invalid value: ...").
 * @c:    context; c->nerrors grows by the number of errors added.
 * Returns: 0 when no error was found, -1 otherwise (diagnostics in c->d).
 * Errors:  only input problems; aborts on out-of-memory.
 */
int sch_validate(const struct sch_node *s, struct val *v, const char *path, struct sch_ctx *c);

/*
 * sch_list_map_violation() - the first list-map key the API server would
 * refuse in @v, as its message: `PATH[i]: Duplicate value: map[string]interface
 * {}{"name":"canary"}` (i the second element with that key, as field.Duplicate
 * of the apiextensions list-type validation).  Only the structure of @v that
 * @s describes is walked (object fields, array items, map values); wrong
 * types are skipped, not reported; nothing is modified.  For writes the
 * loader did not see (a controller's status update).
 * @s: schema (borrowed); @v: value (borrowed, NULL allowed); @path: as in
 * sch_validate().
 * Returns: new message (caller frees), or NULL when every list-map key is unique.
 */
char *sch_list_map_violation(const struct sch_node *s, const struct val *v, const char *path);

/*
 * sch_is_date_time() - kube-openapi strfmt.IsDateTime, what the API server
 * accepts for `format: date-time`: at least 4 bytes; lower-cased and split
 * at "t", the first part a date time.Parse("2006-01-02") accepts (a day
 * within its month) and the second `HH:MM:SS` (HH <= 23, MM and SS <= 59),
 * an optional fraction (any one character, then digits) and `z` or
 * `+HH:MM` / `-HH:MM`.  Text after a second "t" is not looked at, as upstream.
 */
bool sch_is_date_time(const char *s);

/*
 * sch_is_rfc3339_time() - whether metav1.Time can decode @s: Go's
 * time.Parse(time.RFC3339, s): `YYYY-MM-DDTHH:MM:SS`, an optional fraction
 * after '.' or ',', then `Z` or a `+HH:MM` / `-HH:MM` offset; upper-case T
 * and Z; a day within its month.
 */
bool sch_is_rfc3339_time(const char *s);

/*
 * sch_report() - add an error from a check callback: the message is
 * c->prefix + "PATH: " + the formatted text ("" path gives just the text), at
 * @mark in c->file.  Increments c->nerrors.  Follow with sch_note() for notes.
 */
void sch_report(struct sch_ctx *c, struct val_mark mark, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* sch_note() - add a note (no prefix, no path) at @mark in c->file. */
void sch_note(struct sch_ctx *c, struct val_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Strings longer than this many characters are shortened in messages (sch_quote, sch_abbrev). */
#define SCH_QUOTE_MAX 64

/*
 * sch_quote() - @v as the API server quotes a value in a message: strings in
 * double quotes with Go %q escaping, numbers and booleans as written (the raw
 * source text when there is one), null as "null", maps and lists as "object"
 * and "array".  A string of more than SCH_QUOTE_MAX characters (UTF-8 code
 * points) is cut after that many and followed by `... (N bytes)`, N its whole
 * length, so that a huge value does not flood the terminal:
 * `"aaaa...a"... (254 bytes)`.  Returns new (caller frees).
 */
char *sch_quote(const struct val *v);

/*
 * sch_abbrev() - @s unquoted, cut after SCH_QUOTE_MAX characters and followed
 * by "..." when longer (for names inside an object's identity, e.g. the
 * `Workspace "ns/name": ` prefix).  Returns new (caller frees).
 */
char *sch_abbrev(const char *s);

/*
 * sch_report_duration_error() - report that string @v at @path is not a Go
 * duration; @err is the parser's text (gt_parse_duration_ns()).  A value out
 * of Go's range (int64 nanoseconds) is reported with the limit it passed
 * (`..., out of range, the maximum is 2562047h47m16.854775807s`); a syntax
 * error gets a note with examples.  Counts in c->nerrors.
 */
void sch_report_duration_error(struct sch_ctx *c, const struct val *v, const char *path,
			       const char *err);

/*
 * sch_move_sorted() - move every item of @src to the end of @dst, groups
 * (an error or warning with the notes that follow it) ordered by their lead
 * item's line and column; groups at the same position keep their order
 * (stable), notes stay after their error.  Meant for the diagnostics of one
 * file (the file name is not compared).  @src is left empty (initialised).
 * Errors: cannot fail.
 */
void sch_move_sorted(struct diag *dst, struct diag *src);

/*
 * sch_accepted_fields() - "a, b, c": the field names of object schema @s, in
 * declaration order (for "accepted fields" notes).  Returns new.
 */
char *sch_accepted_fields(const struct sch_node *s);

#endif
