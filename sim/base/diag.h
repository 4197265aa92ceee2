#ifndef MAGOS_SIM_DIAG_H
#define MAGOS_SIM_DIAG_H

/*
 * Diagnostics about input, collected so that several problems are reported in
 * one pass and printed GNU style, which editors and CI annotations jump to:
 *
 *     scenario.yaml:12:7: error: unknown key 'soakk' in 'waves[0]'
 *     scenario.yaml:12:7: note: accepted keys: name, selector, soak, gate
 *
 * Invariants: items keep the order they were added in; a note belongs to the
 * error or warning added just before it, unless it was added alone
 * (diag_note_alone(): a fact about the input as a whole); lines and columns
 * are 1-based (0 = unknown, printed as just "file:" or "file:line:").
 */

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/value.h"

enum diag_sev { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE };

struct diag_item {
	enum diag_sev sev;
	char *file; /* owned copy; may be NULL for problems with no file */
	struct val_mark mark;
	char *msg; /* owned */
	bool alone; /* a note of no error or warning (diag_note_alone()); false for the others */
};

/*
 * At most `max_shown` errors and warnings are kept (the first ones, with
 * their notes), and every diag_fatal() one; later ones are only counted in
 * nhidden_errors and nhidden_warnings, so that a million bad documents cost
 * a counter, not a million lines.  nerrors and nwarnings count them all.
 */
struct diag {
	struct diag_item *items;
	size_t n, cap;
	size_t nerrors;
	size_t nwarnings;
	size_t max_shown;        /* errors and warnings kept; LIM_ERRORS' default after diag_init() */
	size_t nshown;           /* errors and warnings kept */
	size_t nhidden_errors;   /* errors beyond max_shown: counted, not kept */
	size_t nhidden_warnings; /* warnings beyond max_shown */
	bool hiding;             /* the last error or warning was not kept: neither are its notes */
};

/*
 * diag_init() - empty list in a caller-owned struct (a zeroed struct is one
 * too).  diag_release() frees the items and leaves the list empty, with
 * its bound; accepts NULL.
 */
void diag_init(struct diag *d);
void diag_release(struct diag *d);

/*
 * diag_set_max() - keeps at most @n errors and warnings (>= 1) from now on
 * (those kept already stay).  Cannot fail.
 */
void diag_set_max(struct diag *d, size_t n);

/*
 * diag_add() / diag_error() / diag_warning() / diag_note() - append one item.
 * @file:  input file name as the user gave it (copied); NULL when none.
 * @mark:  1-based position; {0,0} when unknown.
 * Errors: cannot fail (aborts on OOM).
 */
void diag_add(struct diag *d, enum diag_sev sev, const char *file, struct val_mark mark,
	      const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void diag_vadd(struct diag *d, enum diag_sev sev, const char *file, struct val_mark mark,
	       const char *fmt, va_list ap) __attribute__((format(printf, 5, 0)));
void diag_error(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_warning(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_note(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * diag_note_alone() - diag_note() of a note that belongs to no error or
 * warning (how the input was read, say): printed as the others are, kept
 * even when the item before it was past the bound, and marked `alone`, so
 * that what gathers an error with its notes (lint's findings, check's
 * results) leaves it out and ends the error's notes there.
 * Errors: cannot fail (aborts on OOM).
 */
void diag_note_alone(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * diag_fatal() / diag_vfatal() - diag_error() of an error that stops
 * the reading (a bound of sim/base/limits.h exceeded: no more files,
 * documents or nodes are read): kept and printed even past the errors
 * limit, since it says why the rest of the input was not read.  The notes
 * added after it are kept with it.  Cannot fail (aborts on OOM).
 */
void diag_fatal(struct diag *d, const char *file, struct val_mark mark, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void diag_vfatal(struct diag *d, const char *file, struct val_mark mark, const char *fmt,
		 va_list ap) __attribute__((format(printf, 4, 0)));

/* diag_has_errors() - true when at least one error was added. */
bool diag_has_errors(const struct diag *d);

/*
 * diag_print() - writes every item to @f, one line each, as
 * "file:line:col: severity: message", and when some were not kept a last
 * line "magos-sim: note: and N more errors (and M more warnings) not shown
 * (limit errors; ...)".  @color adds ANSI colour to the severity word
 * (callers pass true only for a TTY).
 * Returns: 0, or -1 when writing to @f failed.
 */
int diag_print(const struct diag *d, FILE *f, bool color);

/* diag_format_item() - the line diag_print() would print for item @i, without newline. Returns new. */
char *diag_format_item(const struct diag *d, size_t i);

/*
 * diag_hidden_text() - "and N more errors and M more warnings not shown
 * (limit errors; ...)", or NULL when nothing was hidden.  Returns new.
 */
char *diag_hidden_text(const struct diag *d);

#endif
