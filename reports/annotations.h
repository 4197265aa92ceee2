#ifndef MAGOS_REPORTS_ANNOTATIONS_H
#define MAGOS_REPORTS_ANNOTATIONS_H

/*
 * GitHub Actions workflow commands for `magos-sim check --github`: one line
 *
 *     ::error file=F,line=L,col=C,title=ID::message
 *
 * per failed check (::warning for a warning finding, ::notice for an info
 * finding; passed checks print nothing), so the pull request shows each at
 * its line.  Escaping is GitHub's: in the message %, CR and LF become %25,
 * %0D, %0A; in property values also : and , become %3A and %2C.  Every
 * other control character (ESC, BEL, DEL, C1) and invalid UTF-8 is first
 * written as qt_text() writes it ("\x1b"), so none reaches the log raw.
 *
 * GitHub places an annotation only by a path relative to the repository
 * checkout, so file= is relative to $GITHUB_WORKSPACE when it is set, else
 * to the current directory (gha_relative_path()).
 *
 * GitHub shows at most GHA_MAX_PER_KIND error, warning and notice
 * annotations per step and drops the rest without a word (and at most 50
 * per job).  So of more than GHA_MAX_PER_KIND of a kind, the first
 * GHA_MAX_PER_KIND - 1 are written in report order and the last place is a
 * note of that kind, without a file, saying how many more there are and
 * where they are (the log, --summary, --junit).
 */

#include <stddef.h>
#include <stdio.h>

#include "sim/plan/expect.h"

/* Annotations of one kind (error, warning, notice) GitHub shows per step. */
#define GHA_MAX_PER_KIND 10

/*
 * gha_relative_path() - @path as GitHub wants it in file=: a path under
 * @base (or, when @base is NULL or not absolute, under @cwd) relative to it,
 * a relative @path first taken relative to @cwd; "./" prefixes dropped.  A
 * path outside the base is returned as given.  No ".." resolution and no
 * file system access.  @cwd may be NULL or "" (unknown).  Returns new.
 */
char *gha_relative_path(const char *path, const char *base, const char *cwd);

/*
 * gha_write() - the annotations of the @n reports @r (borrowed) to @f, file=
 * relative to $GITHUB_WORKSPACE or the current directory (gha_relative_path()).
 * Returns: 0, or -1 when writing to @f failed.
 */
int gha_write(FILE *f, const struct exp_scenario_report *r, size_t n);

/*
 * gha_escape_data() - @s (NUL-terminated) escaped for the message part, as
 * above.  Returns new (free()); cannot fail (aborts on OOM).
 */
char *gha_escape_data(const char *s);

/* gha_escape_prop() - @s escaped for a property value, as above.  Returns new. */
char *gha_escape_prop(const char *s);

#endif
