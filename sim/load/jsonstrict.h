#ifndef MAGOS_SIM_LOAD_JSONSTRICT_H
#define MAGOS_SIM_LOAD_JSONSTRICT_H

/*
 * Strict JSON (RFC 8259) for the inputs named *.json.  The loader reads
 * every input with libyaml, and YAML is a superset of JSON that also takes
 * what JSON does not: a trailing comma (`{"a":1,}`), comments, single
 * quotes, bare words.  kubectl decodes a .json file as JSON and refuses
 * those, so a .json input is checked first and refused at the first byte
 * that is not JSON, with its line and column; only then does libyaml
 * read it.  A file may hold several values one after another (kubectl's
 * YAMLOrJSONDecoder reads a stream of them).
 */

#include <stddef.h>

#include "engine/value.h"

/*
 * js_strict_check() - whether the @len bytes of @text are one or more JSON
 * values separated by whitespace (a leading UTF-8 byte order mark is
 * skipped).  Columns count characters, as libyaml's marks do.  Nesting
 * depth is bounded by memory only (no recursion).
 * @at:     on failure, the line and column of the first byte that is not
 *          JSON (of the comma, for a trailing comma).
 * @msg:    on failure, what is wrong there and what JSON takes, truncated
 *          to @msglen.
 * Returns: 0 when @text is strict JSON; -1 otherwise.  The input is not
 *          decoded (libyaml does that) and is not changed.
 */
int js_strict_check(const char *text, size_t len, struct val_mark *at, char *msg, size_t msglen);

#endif
