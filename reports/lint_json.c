/* lint findings and rules as JSON (jansson). */
#include "reports/lint_json.h"

#include <jansson.h>
#include <stdlib.h>

#include "reports/tool.h"

/* Writes @j (stolen) indented to @f with a newline.  Returns 0 or -1. */
static int dump(FILE *f, json_t *j)
{
	int rc;

	if (!j)
		return -1;
	rc = json_dumpf(j, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	json_decref(j);
	if (rc != 0 || fputc('\n', f) == EOF)
		return -1;
	return 0;
}

static json_t *str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

int lint_json_write(FILE *f, const struct lint_report *r, size_t nfiles, size_t nobjs)
{
	json_t *doc = json_object(), *items = json_array(), *sum = json_object();

	for (size_t i = 0; i < r->n; i++) {
		const struct lint_finding *x = &r->items[i];
		json_t *o = json_object();

		json_object_set_new(o, "rule", json_string(x->rule->id));
		json_object_set_new(o, "name", json_string(x->rule->name));
		json_object_set_new(o, "severity", json_string(lint_sev_name(x->sev)));
		json_object_set_new(o, "file", str_or_null(x->file));
		json_object_set_new(o, "line", json_integer(x->mark.line));
		json_object_set_new(o, "column", json_integer(x->mark.col));
		/* Messages are UTF-8 from our own files; json_string() refuses anything else. */
		json_object_set_new(o, "message", str_or_null(x->msg));
		json_object_set_new(o, "fix", json_string(x->rule->fix));
		json_array_append_new(items, o);
	}
	json_object_set_new(sum, "errors", json_integer((json_int_t)r->nerrors));
	json_object_set_new(sum, "warnings", json_integer((json_int_t)r->nwarnings));
	json_object_set_new(sum, "infos", json_integer((json_int_t)r->ninfos));
	json_object_set_new(sum, "files", json_integer((json_int_t)nfiles));
	json_object_set_new(sum, "objects", json_integer((json_int_t)nobjs));
	json_object_set_new(doc, "schema", json_string("magos-sim/lint/v1"));
	json_object_set_new(doc, "tool", json_pack("{s:s,s:s,s:s}", "name", tool_name(), "version", tool_version(), "commit", tool_commit()));
	json_object_set_new(doc, "findings", items);
	json_object_set_new(doc, "summary", sum);
	return dump(f, doc);
}

int lint_json_write_rules(FILE *f)
{
	size_t n;
	const struct lint_rule *rules = lint_rules(&n);
	json_t *arr = json_array();

	for (size_t i = 0; i < n; i++) {
		json_t *o = json_object();

		json_object_set_new(o, "id", json_string(rules[i].id));
		json_object_set_new(o, "name", json_string(rules[i].name));
		json_object_set_new(o, "severity", json_string(lint_sev_name(rules[i].sev)));
		json_object_set_new(o, "summary", json_string(rules[i].summary));
		json_object_set_new(o, "fix", json_string(rules[i].fix));
		json_array_append_new(arr, o);
	}
	return dump(f, arr);
}
