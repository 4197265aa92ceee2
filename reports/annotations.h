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
 * %0D, %0A; in property values also : and , become %3A and %2C.
 */

#include <stddef.h>
#include <stdio.h>

#include "plan/expect.h"

/*
 * gha_write() - the annotations of the @n reports @r (borrowed) to @f.
 * Returns: 0, or -1 when writing to @f failed.
 */
int gha_write(FILE *f, const struct exp_scenario_report *r, size_t n);

/* gha_escape_data() - @s escaped for the message part.  Returns new. */
char *gha_escape_data(const char *s);

/* gha_escape_prop() - @s escaped for a property value.  Returns new. */
char *gha_escape_prop(const char *s);

#endif
