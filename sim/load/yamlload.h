#ifndef MAGOS_SIM_YAMLLOAD_H
#define MAGOS_SIM_YAMLLOAD_H

/*
 * YAML streams → `struct val` trees, one per document, with 1-based positions.
 *
 * This is the only module that talks to libyaml; nothing of libyaml leaks out.
 * What the loader does with the text, and why:
 *
 *  - Plain scalars resolve as kubectl reads them (sigs.k8s.io/yaml on
 *    go-yaml v2): `null`, `Null`, `NULL`, `~` and the empty scalar are null;
 *    `true`/`false` and the YAML 1.1 words `yes`/`no`, `on`/`off`, `y`/`n`
 *    (each lower case, capitalised or upper case) are booleans, so
 *    `autoApply: yes` is true, and `canary: yes` under labels, where a string
 *    is required, is refused by the schema as the API server refuses what
 *    kubectl sends for it (quote it); a mapping key spelled so is a boolean
 *    key, refused below (kubectl would turn it into the key "true"); decimal,
 *    `0x` hex and `0o` octal integers are VAL_INT (int64); a decimal integer
 *    beyond int64 becomes a VAL_FLOAT keeping `raw`, as Go's YAML library
 *    reads it, so that the schema names the field and its accepted range
 *    (hex or octal overflow is an error); decimal floats are VAL_FLOAT (keeping `raw`, so `1.10` can be
 *    quoted back); `.inf` and `.nan` are errors ("not representable in
 *    JSON").
 *  - Quoted and block scalars are always strings.  The tag `!!str` forces a
 *    string; `!!int`, `!!float`, `!!bool`, `!!null` are accepted when the
 *    scalar resolves to that type; `!!map`/`!!seq` on the matching node; the
 *    non-specific `!` makes a string; any other tag is an error.
 *  - Every node gets its mark (libyaml's 0-based marks plus one); scalars
 *    keep their text in `raw` (after unescaping quoted styles).
 *  - Mapping keys must be scalars that resolve to strings; a key that is a
 *    number, boolean or null, or a non-scalar key, is an error ("quote it").
 *    A duplicate key is an error at the second key with a note at the first.
 *  - Merge keys `<<` are supported (YAML 1.1 merge, as kubectl's YAML
 *    library does): the value is a mapping or a sequence of mappings, usually
 *    aliases; keys written in the mapping itself win, and among the merged
 *    mappings the earlier one wins.  Anything else after `<<` is an error.
 *  - Aliases are expanded by copying the anchored tree.  Alias expansion and
 *    merges may create at most `alias_nodes` nodes in all the documents of
 *    all the files loaded with one struct yl_budget (the limit alias-nodes,
 *    sim/base/limits.h: a budget per input stream, so splitting a "billion
 *    laughs" into many documents does not get around it); the check is made
 *    on the anchor's known size before copying, so such a document costs
 *    linear time and fails with one clear error.  Nesting deeper than
 *    YL_MAX_DEPTH collections is an error, also when it comes from aliases
 *    of aliases (keeps recursive tree walks safe).
 *  - The same budget bounds the bytes read (input-bytes) and the documents
 *    (documents) of all the files; past either, loading stops with an error.
 *  - Only regular files are read: a directory, device, FIFO or socket is
 *    refused before the first read (a FIFO would block, /dev/zero never
 *    ends), except the process's standard input, named "-".
 *  - Empty documents (`---` with nothing, or only a null) are skipped.
 *  - The input must be UTF-8 without NUL bytes (checked before parsing; the
 *    error names the line and column).  A leading UTF-8 BOM is allowed.
 *  - A libyaml syntax error ends that file: it is reported at libyaml's
 *    problem mark, with a note at the context mark ("while parsing a block
 *    mapping"), since the problem mark often points past the culprit.
 *    Semantic errors (duplicate key, bad tag, overflow, ...) are reported and
 *    loading goes on, so one run lists them all; a document with such an
 *    error is dropped from the result.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/value.h"
#include "sim/base/diag.h"
#include "sim/base/limits.h"

/* Deepest nesting of collections accepted. */
#define YL_MAX_DEPTH 512

/*
 * What the files of one input stream may still use, shared by every
 * yl_load_*_in() call of one load.  Fill it with yl_budget_init().
 */
struct yl_budget {
	uint64_t max_bytes, max_documents, max_alias_nodes, max_nodes; /* the limits */
	uint64_t bytes, documents, alias_nodes, nodes;                 /* used so far */
	bool exhausted; /* bytes, documents or nodes ran out (reported): read nothing more */
};

/* yl_budget_init() - a fresh budget with the bounds of @lim (NULL: the defaults). */
void yl_budget_init(struct yl_budget *b, const struct limits *lim);

/* One non-empty document of a stream. */
struct yl_doc {
	struct val *root;     /* owned by the stream; never NULL */
	struct val_mark mark; /* where the document starts (its `---`, or its first node) */
};

/* The documents of one file, in file order. */
struct yl_stream {
	char *file;          /* owned copy of the name given to the loader */
	struct yl_doc *docs; /* owned array of n documents */
	size_t n;
};

/*
 * yl_load_file() - read and parse the YAML stream in file @path, with a
 * budget of its own (the default limits): yl_load_file_in().
 */
int yl_load_file(const char *path, struct yl_stream *out, struct diag *d);

/*
 * yl_load_file_in() - read and parse the YAML stream in file @path.
 * @path: file to read ("-": standard input); also the name used in diagnostics.
 * @b:    the stream's budget, charged with this file's bytes, documents and
 *        alias nodes; once exhausted, nothing more is read.
 * @out:  filled by this call (any previous content is ignored, not freed);
 *        release with yl_stream_release() whatever the return value.
 * @d:    diagnostics sink (errors and notes are appended).
 * Returns: 0 when the whole file loaded without error; -1 otherwise.  On -1
 *          *@out still holds the documents that loaded cleanly (possibly none),
 *          so a caller may go on validating them to report more problems.
 * Errors:  I/O errors are reported as `PATH: error: cannot read: <strerror>`
 *          (no line), a file that is not a regular one as `PATH: error:
 *          cannot read: not a regular file (a FIFO)`, an exhausted budget as
 *          `PATH: error: the inputs hold more than N bytes in all (limit
 *          input-bytes; ...)`; input problems as described above.  A
 *          file named *.json must be strict JSON (sim/load/jsonstrict.h):
 *          `PATH:LINE:COL: error: WHAT; a .json input must be strict JSON,
 *          ...` at the first byte that is not, and no document is read.
 */
int yl_load_file_in(const char *path, struct yl_budget *b, struct yl_stream *out,
		    struct diag *d);

/*
 * yl_load_string() - as yl_load_file() on @len bytes of @text (need not be
 * NUL-terminated), with a budget of its own.
 * @name: name used in diagnostics and copied into out->file.
 */
/*
 * yl_set_progress() - process-wide: while set, every yl_load_file() and
 * yl_load_string() calls @fn(@ctx, done, total) every YL_PROGRESS_EVENTS
 * parser events with the bytes of the text parsed so far and its length,
 * on the loading thread (a progress line while a big file loads).  NULL
 * unsets it.  Set and unset it around loading on one thread only.
 */
#define YL_PROGRESS_EVENTS 16384u
void yl_set_progress(void (*fn)(void *ctx, uint64_t done, uint64_t total), void *ctx);

int yl_load_string(const char *name, const char *text, size_t len, struct yl_stream *out,
		   struct diag *d);

/* yl_load_string_in() - yl_load_string() charged to the budget @b. */
int yl_load_string_in(const char *name, const char *text, size_t len, struct yl_budget *b,
		      struct yl_stream *out, struct diag *d);

/*
 * yl_emit() - @doc as one YAML document in block style, as kubectl's `-o
 * yaml` prints (sigs.k8s.io/yaml over go-yaml): map keys in the order of
 * @doc (sort them first for kubectl's order), two-space indentation, lists
 * of a map's key not indented, a string plain unless it would read back as
 * something else (a number, a boolean, null, y/n, a time, or text YAML
 * would misparse plain), then double-quoted; floats in the shortest form
 * that reads back the same.  @comment, when not NULL, is written before the
 * document as `# ` lines (one per line of @comment).
 * Returns: 0 and a new NUL-terminated text in *@out (caller frees); -1 when
 * libyaml's emitter failed (out of memory), *@out NULL.
 */
int yl_emit(const struct val *doc, const char *comment, char **out);

/* yl_stream_release() - frees what @s owns (not @s itself); accepts NULL. */
void yl_stream_release(struct yl_stream *s);

#endif
