#ifndef MAGOS_REPORTS_JUNIT_H
#define MAGOS_REPORTS_JUNIT_H

/*
 * JUnit XML of `magos-sim check`, valid against both schemas CI servers
 * read it with: the junit-10.xsd of Jenkins' xunit plugin and Apache Ant's
 * JUnit.xsd (tests/junit/ has both; tests/consumers.sh runs xmllint).
 *
 * <testsuites> has no attributes (Ant allows none).  One <testsuite> per
 * input: name and package = the input path, id = its index from 0,
 * timestamp = the scenario's spec.start in UTC without a zone (Ant's form;
 * the loader's default start when the input did not load: the output does
 * not depend on when check ran), hostname "localhost" and time "0" (check
 * records neither the machine nor the wall-clock time, so the document is
 * the same on every machine and run), tests/failures/errors/skipped; then
 * <properties> (magos-sim.version, magos-sim.commit, the scenario's name and
 * the trials run when known), the cases, a <system-out> with one line per
 * warning and info ("warning: file:line:col: message") and an empty
 * <system-err/>.
 *
 * One <testcase> per check (lint finding or expectation), time "0", with
 * classname = the file the check points at (the input when none) and name =
 * the check's id and file:line:col, "#2", "#3" ... appended to repeats so
 * that every name in a suite is unique.  A failed check has a <failure>
 * whose message holds the measured value and the limit; a problem of the
 * input itself (the loader's or expect's diagnostics of an invalid input)
 * has an <error type="invalid"> and counts in errors=, not failures=; an
 * input that did not load and has no diagnostic to show has one <testcase
 * name="load"> with an <error>.  An expectation never evaluated (invalid
 * input) has <skipped/> and counts in skipped=.  Warnings and infos pass
 * (their text is in the suite's <system-out>).  The document is XML 1.0 in
 * UTF-8: markup characters are escaped and control characters XML cannot
 * hold are dropped.
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
