#ifndef MAGOS_REPORTS_TOOL_H
#define MAGOS_REPORTS_TOOL_H

/*
 * Which program wrote an output: its name, its version and the commit it was
 * built from, for every report that has a place to say so (the JSON
 * documents, the trace, the HTML page, the Mermaid block, JUnit, SARIF, the
 * Markdown summaries, the event stream).  The build stamps the version and
 * the commit (Makefile: MAGOS_VERSION, MAGOS_COMMIT); a build outside a git
 * checkout, from a tarball, says "unknown" for the commit, and a checkout
 * with uncommitted changes appends "-dirty" to it.
 */

/* tool_name() - "magos-sim".  Returns a static string.  Cannot fail. */
const char *tool_name(void);

/* tool_version() - the version, e.g. "0.1.0".  Returns a static string.  Cannot fail. */
const char *tool_version(void);

/*
 * tool_commit() - the full hash of the commit built, "unknown" without git,
 * with "-dirty" appended when the work tree had changes.  Returns a static
 * string.  Cannot fail.
 */
const char *tool_commit(void);

/*
 * tool_docs_url() - the absolute URL of the project's docs/ folder, ending
 * in '/', that links to the documentation start with (the lint rules' help
 * in SARIF); the build sets it (Makefile: MAGOS_DOCS_URL) so that a fork
 * can point at its own copy.  Returns a static string.  Cannot fail.
 */
const char *tool_docs_url(void);

#endif
