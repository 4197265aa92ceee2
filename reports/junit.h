#ifndef MAGOS_REPORTS_JUNIT_H
#define MAGOS_REPORTS_JUNIT_H

/*
 * JUnit XML of `magos-sim check`: one <testsuite> per input, one <testcase>
 * per check (lint finding or expectation) with classname = the file the
 * check points at (the input when none) and name = the check's id and
 * file:line:col, "#2", "#3" ... appended to repeats so that every name in a
 * suite is unique.  A failed check has a <failure> whose message holds the
 * measured value and the limit; a problem of the input itself (the loader's
 * or expect's diagnostics of an invalid input) has an <error type="invalid">
 * and counts in errors=, not failures=; an input that did not load and has
 * no diagnostic to show has one <testcase name="load"> with an <error>.  An
 * expectation never evaluated (invalid input) has <skipped/> and counts in
 * skipped=.  Warnings and infos pass, with their text in <system-out>.  The
 * document is XML 1.0 in UTF-8: markup characters are escaped and control
 * characters XML cannot hold are dropped.
 */

#include <stddef.h>
#include <stdio.h>

#include "sim/plan/expect.h"

/*
 * junit_write() - writes the JUnit document of the @n reports @r (borrowed)
 * to @f.
 * Returns: 0, or -1 when writing to @f failed (ferror).
 */
int junit_write(FILE *f, const struct exp_scenario_report *r, size_t n);

/*
 * junit_escape() - @s with &, <, >, " and ' as entities and the control
 * characters XML 1.0 forbids (all below 0x20 but tab, newline, carriage
 * return) removed.  Returns new (free()).
 */
char *junit_escape(const char *s);

#endif
