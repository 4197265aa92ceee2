/* lint findings and rules as JSON (jansson). */
#include "reports/lint_json.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "engine/xalloc.h"

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
		json_object_set_new(o, "fix", json_string(lint_finding_fix(x)));
		json_array_append_new(items, o);
	}
	json_object_set_new(sum, "errors", json_integer((json_int_t)r->nerrors));
	json_object_set_new(sum, "warnings", json_integer((json_int_t)r->nwarnings));
	json_object_set_new(sum, "infos", json_integer((json_int_t)r->ninfos));
	json_object_set_new(sum, "files", json_integer((json_int_t)nfiles));
	json_object_set_new(sum, "objects", json_integer((json_int_t)nobjs));
	if (r->nhidden_errors || r->nhidden_warnings)
		json_object_set_new(sum, "not_shown",
				    json_pack("{s:I,s:I}", "errors", (json_int_t)r->nhidden_errors,
					      "warnings", (json_int_t)r->nhidden_warnings));
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

static const char *sarif_level(enum lint_sev s)
{
	switch (s) {
	case LINT_ERROR: return "error";
	case LINT_WARNING: return "warning";
	default: return "note";
	}
}

/* @path as a relative URI reference (or a file: URI when absolute): bytes outside RFC 3986's unreserved set and '/' percent-encoded. */
static json_t *path_uri(const char *path)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(path);
	char *out = malloc(3 * n + 8), *p = out;
	json_t *j;

	if (!out)
		return NULL;
	if (path[0] == '/') {
		memcpy(p, "file://", 7);
		p += 7;
	}
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (isalnum(*c) || strchr("-._~/", *c)) {
			*p++ = (char)*c;
		} else {
			*p++ = '%';
			*p++ = hex[*c >> 4];
			*p++ = hex[*c & 15];
		}
	}
	*p = '\0';
	j = json_string(out);
	free(out);
	return j;
}

int lint_sarif_write(FILE *f, const struct lint_report *r)
{
	size_t n;
	const struct lint_rule *rules = lint_rules(&n);
	json_t *doc = json_object(), *run = json_object(), *driver = json_object();
	json_t *jr = json_array(), *results = json_array();
	char *help_uri = xstrjoin((const char *const[]){ tool_docs_url(), "lint-rules.md" }, 2, "");

	for (size_t i = 0; i < n; i++) {
		const struct lint_rule *u = &rules[i];
		char *md = xstrjoin((const char *const[]){ "**Fix:** ", u->fix, "\n\nSee [", u->id,
							   " in the lint rules](", help_uri, ")." },
				    7, "");

		json_array_append_new(
			jr, json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:{s:s,s:s},s:s,s:{s:s},s:{s:[s]}}",
				      "id", u->id, "name", u->name, "shortDescription", "text", u->summary,
				      "fullDescription", "text", u->summary, "help", "text", u->fix,
				      "markdown", md, "helpUri", help_uri, "defaultConfiguration",
				      "level", sarif_level(u->sev), "properties", "tags",
				      u->id[2] == '0' ? "input" : u->id[2] == '1' ? "magos" : "fleet"));
		free(md);
	}
	for (size_t i = 0; i < r->n; i++) {
		const struct lint_finding *x = &r->items[i];
		json_t *res = json_object(), *locs = json_array();
		size_t idx = 0;

		while (idx < n && rules[idx].id != x->rule->id && strcmp(rules[idx].id, x->rule->id))
			idx++;
		json_object_set_new(res, "ruleId", json_string(x->rule->id));
		if (idx < n)
			json_object_set_new(res, "ruleIndex", json_integer((json_int_t)idx));
		json_object_set_new(res, "level", json_string(sarif_level(x->sev)));
		if (x->fix && x->msg) {
			/* This finding's own fix (the rule's help holds the general one). */
			char *text = xasprintf("%s (%s)", x->msg, x->fix);

			json_object_set_new(res, "message", json_pack("{s:s}", "text", text));
			free(text);
		} else {
			json_object_set_new(res, "message", json_pack("{s:o}", "text", str_or_null(x->msg ? x->msg : x->rule->summary)));
		}
		if (x->file) {
			json_t *pl = json_pack("{s:{s:o}}", "artifactLocation", "uri", path_uri(x->file));

			if (x->mark.line) {
				json_t *reg = json_pack("{s:I}", "startLine", (json_int_t)x->mark.line);

				if (x->mark.col)
					json_object_set_new(reg, "startColumn", json_integer(x->mark.col));
				json_object_set_new(pl, "region", reg);
			}
			json_array_append_new(locs, json_pack("{s:o}", "physicalLocation", pl));
		}
		json_object_set_new(res, "locations", locs);
		json_array_append_new(results, res);
	}
	json_object_set_new(driver, "name", json_string(tool_name()));
	json_object_set_new(driver, "version", json_string(tool_version()));
	json_object_set_new(driver, "semanticVersion", json_string(tool_version()));
	json_object_set_new(driver, "informationUri", json_string(help_uri));
	json_object_set_new(driver, "rules", jr);
	json_object_set_new(driver, "properties", json_pack("{s:s}", "commit", tool_commit()));
	json_object_set_new(run, "tool", json_pack("{s:o}", "driver", driver));
	json_object_set_new(run, "columnKind", json_string("unicodeCodePoints"));
	json_object_set_new(run, "results", results);
	{
		/* Findings past the errors limit are no results: the invocation says how many. */
		char *more = lint_hidden_text(r);

		if (more)
			json_object_set_new(run, "invocations",
					    json_pack("[{s:b,s:[{s:s,s:{s:s}}]}]", "executionSuccessful", 1,
						      "toolExecutionNotifications", "level", "note",
						      "message", "text", more));
		free(more);
	}
	json_object_set_new(doc, "$schema", json_string("https://json.schemastore.org/sarif-2.1.0.json"));
	json_object_set_new(doc, "version", json_string("2.1.0"));
	json_object_set_new(doc, "runs", json_pack("[o]", run));
	free(help_uri);
	return dump(f, doc);
}
