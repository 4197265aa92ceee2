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
 * 0 when unknown.  Findings are written in the report's order.  The JSON
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

#endif
