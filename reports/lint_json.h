#ifndef MAGOS_REPORTS_LINT_JSON_H
#define MAGOS_REPORTS_LINT_JSON_H

/*
 * The JSON form of lint's output (`magos-sim lint --format json`), for CI
 * tools that read findings rather than lines.  One document:
 *
 *   {"schema": "magos-sim/lint/v1",
 *    "tool": {"name": "magos-sim", "version": "0.1.0", "commit": "..."},
 *    "findings": [{"rule": "MS101", "name": "step-matches-nothing",
 *                  "severity": "error", "file": "a.yaml", "line": 12,
 *                  "column": 9, "message": "...", "fix": "..."}, ...],
 *    "summary": {"errors": 1, "warnings": 0, "infos": 0,
 *                "files": 2, "objects": 7}}
 *
 * "file" is null when a finding has no file; "line"/"column" are 1-based,
 * 0 when unknown; "fix" is the finding's own (an unknown field's: the
 * nearest accepted one, those accepted there) or else its rule's
 * (lint_finding_fix()).  Findings are written in the report's order.  The JSON
 * Schema is docs/schemas/lint-v1.schema.json.
 */

#include <stddef.h>
#include <stdio.h>

#include "sim/lint/lint.h"

/*
 * lint_json_write() - writes @r (borrowed) as the document above to @f,
 * ending with a newline.
 * @nfiles, @nobjs: counts for the summary (files read, objects admitted).
 * Returns: 0, or -1 when writing to @f failed.
 */
int lint_json_write(FILE *f, const struct lint_report *r, size_t nfiles, size_t nobjs);

/*
 * lint_json_write_rules() - writes every rule of lint_rules() to @f as a
 * JSON array of {"id", "name", "severity", "summary", "fix"}, in id order,
 * ending with a newline.
 * Returns: 0, or -1 when writing to @f failed.
 */
int lint_json_write_rules(FILE *f);

/*
 * lint_sarif_write() - writes @r (borrowed) as a SARIF 2.1.0 log, for GitHub
 * code scanning (upload-sarif) and other SARIF viewers, ending with a
 * newline: one run whose tool.driver is magos-sim (version, semanticVersion,
 * properties.commit) with every rule of lint_rules() (id, name, the summary
 * as short and full description, the fix as help text and Markdown, helpUri
 * = docs/lint-rules.md under tool_docs_url(), the default level, a tag:
 * input, magos or fleet) and one result per finding in the report's order:
 * ruleId, ruleIndex, level (error, warning, note for info), the message
 * (followed by the finding's own fix in parentheses when it has one) and,
 * when the finding has a file, its location (a relative URI reference, a
 * file: URI for an absolute path; startLine and startColumn when known,
 * columns in Unicode code points).
 * Returns: 0, or -1 when writing to @f failed.
 */
int lint_sarif_write(FILE *f, const struct lint_report *r);

#endif
