#ifndef MAGOS_ENGINE_LABELS_H
#define MAGOS_ENGINE_LABELS_H

/*
 * Kubernetes label selectors, as k8s.io/apimachinery v0.36 implements them.
 *
 * Used by both engine ports (Magos Rollout steps, Project/Workspace policy
 * selectors, FleetRollout selector / namespaceSelector / wave selectors), by
 * admission of metadata.labels (lbl_validate_key / lbl_validate_value) and
 * by lint.
 *
 * Source: kubernetes/apimachinery@v0.36.0 (identical in v0.36.3, the version
 * both stageset-controller and Magos build against):
 *   pkg/apis/meta/v1/helpers.go       LabelSelectorAsSelector
 *   pkg/labels/selector.go            NewRequirement, Requirement.Matches,
 *                                     Requirement.String, internalSelector.Add,
 *                                     internalSelector.String, Nothing, Everything
 *   pkg/api/validate/content/kube.go  IsLabelKey (= IsQualifiedName), IsLabelValue
 *   pkg/api/validate/content/dns.go   IsDNS1123Subdomain
 *   pkg/util/validation/field         Error.Error, ErrorList.ToAggregate
 *   pkg/util/errors                   aggregate.Error
 *
 * Nil versus empty (the distinction the engines depend on):
 *  - a nil selector (the field is absent or null; pass NULL or a VAL_NULL node)
 *    becomes labels.Nothing(): it matches no label set and prints as "";
 *  - an empty selector `{}` (no matchLabels, no matchExpressions, or both
 *    empty) becomes labels.Everything(): it matches every label set and also
 *    prints as "".
 *  The two print alike, so a caller that needs the difference asks
 *  lbl_selector_is_nothing().
 *
 * Deviations (none of them changes which label sets match):
 *  - Go iterates matchLabels in random order, so when several matchLabels
 *    entries are invalid upstream reports any one of them; we report the first
 *    in byte order of the keys.
 *  - Go sorts requirements with sort.Sort (pdqsort: insertion sort, hence
 *    stable, up to 12 elements; unstable beyond).  We sort stably, so with
 *    more than 12 requirements two requirements on the same key may print in
 *    another order than upstream's.
 *  - Go's %q escapes every rune unicode.IsPrint rejects; we escape ASCII
 *    controls, invalid UTF-8, C1 controls and the common non-printing
 *    space/format runes, but print unassigned code points as they are.
 */

#include <stdbool.h>
#include <stddef.h>

#include "engine/objects.h"
#include "engine/value.h"

/* Return codes. */
enum {
	LBL_OK = 0,
	LBL_EINVALID = -1, /* the input is not a valid selector / key / value */
};

/*
 * A buffer of this many bytes holds every error text of a selector whose
 * keys and values are within the length limits; longer texts are truncated.
 */
#define LBL_ERRLEN 4096

/* Operators a metav1.LabelSelector can produce (selection.Operator). */
enum lbl_op {
	LBL_OP_EQUALS,         /* "="     from matchLabels */
	LBL_OP_IN,             /* "in"    from matchExpressions In */
	LBL_OP_NOT_IN,         /* "notin" from matchExpressions NotIn */
	LBL_OP_EXISTS,         /* "exists" */
	LBL_OP_DOES_NOT_EXIST, /* "!" */
};

/*
 * One requirement (labels.Requirement).
 * Invariants: key is a valid label key; every value is a valid label value;
 * Equals has exactly 1 value, In/NotIn at least 1, Exists/DoesNotExist none.
 * Values keep the order they were given in, duplicates included.
 */
struct lbl_req {
	char *key;       /* owned */
	enum lbl_op op;
	char **values;   /* owned array of owned strings; NULL when nvalues == 0 */
	size_t nvalues;  /* count */
};

/*
 * A selector: the AND of its requirements.
 * Invariants: reqs is sorted by key (byte order; requirements on the same key
 * keep the order matchLabels-then-matchExpressions gave them); when `nothing`
 * is true, n == 0 and the selector matches nothing.  A zeroed struct is a
 * valid empty selector that matches everything.
 */
struct lbl_selector {
	bool nothing;          /* labels.Nothing(): from a nil metav1.LabelSelector */
	struct lbl_req *reqs;  /* owned; NULL when n == 0 */
	size_t n;              /* count */
};

/*
 * lbl_selector_from_val() - convert a metav1.LabelSelector, as
 * LabelSelectorAsSelector does.
 * @sel:    borrowed; NULL or a VAL_NULL node for a nil selector; otherwise a
 *          map with optional `matchLabels` (map of string to string) and
 *          `matchExpressions` (list of maps {key, operator, values[]}).
 *          Other keys are ignored, as Go's decoder ignores them.
 * @out:    filled by this call (any previous content is not freed); on error
 *          it is left as an empty selector that owns nothing.
 * @err:    on error, receives the text err.Error() prints upstream (without
 *          a prefix: FleetRollout adds "selector: ", the Magos Rollout puts it
 *          as is in its ReconcileError message), truncated to @errlen bytes
 *          including the NUL.  May be NULL when @errlen is 0.  Examples:
 *            "Foo" is not a valid label selector operator
 *            values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty
 *            values: Invalid value: ["a"]: values set must be empty for exists and does not exist
 *            key: Invalid value: "bad key!": name part must consist of ...
 *            values[0][env]: Invalid value: "a b": a valid label must be ...
 *          and "[e1, e2]" when one requirement has several distinct errors.
 *          The first failing entry wins: matchLabels (in key order), then
 *          matchExpressions in list order; an unknown operator is reported
 *          before that expression's key and values are looked at.
 * @errlen: size of @err in bytes (LBL_ERRLEN is enough for sane input).
 * Returns: LBL_OK, or LBL_EINVALID with @err set.  A selector that is not a
 *          map, or a label value / expression field of a non-string type
 *          (which admission rejects upstream, so the controllers never see
 *          it), is also LBL_EINVALID, with a message naming the field.
 * Cost:    O(total size of the selector + r log r) for r requirements.
 */
int lbl_selector_from_val(const struct val *sel, struct lbl_selector *out, char *err, size_t errlen);

/*
 * lbl_selector_release() - free what @s owns and leave it an empty selector.
 * Accepts NULL.
 */
void lbl_selector_release(struct lbl_selector *s);

/* lbl_selector_copy() - deep copy of @src into @dst (filled by this call). Cannot fail. */
void lbl_selector_copy(struct lbl_selector *dst, const struct lbl_selector *src);

/*
 * lbl_selector_equal() - true when @a and @b are both nil-selectors, or both
 * not nil with the same requirements in the same order, each with the same key
 * and operator and the same values once sorted (duplicates count).  That is:
 * same nil-ness and the same lbl_selector_string().  Cost: O(total size).
 */
bool lbl_selector_equal(const struct lbl_selector *a, const struct lbl_selector *b);

/*
 * lbl_val_is_empty_selector() - whether the metav1.LabelSelector value @sel
 * (borrowed) converts without error (LabelSelectorAsSelector) to a selector
 * whose String() is "": `{}`, or requirement lists that are all empty.  This
 * is how a Magos controller turns a policySelector of `{}` into "no
 * validation".  A selector that fails to convert is not empty (false).
 * Errors: cannot fail.
 */
bool lbl_val_is_empty_selector(const struct val *sel);

/* lbl_selector_is_nothing() - true for the nil selector (labels.Nothing()). */
bool lbl_selector_is_nothing(const struct lbl_selector *s);

/*
 * lbl_selector_is_empty() - Selector.Empty(): true when @s restricts nothing
 * (matches everything).  False for the nil selector, as upstream.
 */
bool lbl_selector_is_empty(const struct lbl_selector *s);

/*
 * lbl_matches() - Selector.Matches(): the AND of all requirements over @labels
 * (borrowed; NULL counts as no labels).  Equals/In need the key present with
 * a listed value; NotIn matches when the key is absent or its value is not
 * listed; Exists/DoesNotExist test presence only.  The nil selector matches
 * nothing, the empty one everything.
 * Cost: O(sum over requirements of (log labels + values)).
 */
bool lbl_matches(const struct lbl_selector *s, const struct obj_strmap *labels);

/*
 * lbl_selector_string() - Selector.String(): requirements joined by ",", each
 * as `k=v`, `k in (a,b)`, `k notin (a,b)`, `k` or `!k`; the values of one
 * requirement are printed sorted in byte order (not de-duplicated, as
 * upstream).  The nil and the empty selector both print "".
 * Returns: a new string; caller frees.  Cannot fail.
 */
char *lbl_selector_string(const struct lbl_selector *s);

/*
 * lbl_op_string() - the selection.Operator spelling of @op: "=", "in",
 * "notin", "exists", "!".  Returns a static string.
 */
const char *lbl_op_string(enum lbl_op op);

/*
 * lbl_validate_key() - validation.IsQualifiedName (content.IsLabelKey): an
 * optional DNS-1123 subdomain prefix (<= 253 bytes) and '/', then a name of
 * 1..63 bytes of [-A-Za-z0-9_.] starting and ending alphanumeric.
 * @k:   borrowed, not NULL.
 * @err: on error receives the upstream error strings joined by "; " (the
 *       field-error detail, without field path or quoted value), truncated
 *       to @len bytes; may be NULL when @len is 0.
 * Returns: LBL_OK or LBL_EINVALID.
 */
int lbl_validate_key(const char *k, char *err, size_t len);

/*
 * lbl_validate_value() - validation.IsValidLabelValue (content.IsLabelValue):
 * empty, or up to 63 bytes of [-A-Za-z0-9_.] starting and ending alphanumeric.
 * @v, @err, @len and the return value as for lbl_validate_key().
 */
int lbl_validate_value(const char *v, char *err, size_t len);

/*
 * lbl_go_quote() - @s quoted as Go's %q / strconv.Quote prints it (field
 * errors quote bad values this way), e.g. `"a \"b\"\n"`.  See the deviation
 * note at the top for non-ASCII runes.  The same as gofmt_quote()
 * (engine/gofmt.h), which holds the code; kept for the label and fleet code.
 * Returns: a new string; caller frees.  Cannot fail.
 */
char *lbl_go_quote(const char *s);

#endif
