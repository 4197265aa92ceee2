#ifndef MAGOS_SIM_QUOTE_H
#define MAGOS_SIM_QUOTE_H

/*
 * Text from the inputs made safe for a terminal or a CI log, in one place:
 * every line magos-sim prints for a person (diagnostics, check's lines,
 * lint's findings) passes what it quotes of the input through qt_text().
 * A raw newline in a key would start a line of its own, which GitHub
 * Actions reads as a workflow command ("::stop-commands::"), and an escape
 * sequence would drive the terminal; both are written as Go's %q writes
 * them, as kubectl shows such text.  The machine formats (JSON, SARIF,
 * JUnit) escape by their own rules.
 */

#include <stddef.h>

/*
 * qt_text() - @s with every control character escaped, ordinary UTF-8 kept:
 * C0 as \a \b \f \n \r \t \v or \x1b, DEL as \x7f, C1 (U+0080..U+009F) as
 * \u0085, and each byte of invalid UTF-8 (a lone surrogate, an overlong or
 * cut sequence, a stray continuation byte) as \xff; a backslash stays one
 * backslash (the text is not re-read).
 * @s: NUL-terminated; NULL gives NULL.
 * Returns: a new string (free()); never fails (out of memory ends the
 * program, engine/xalloc.h).
 */
char *qt_text(const char *s);

/*
 * qt_text_keep() - @s as qt_text() writes it, except that the control
 * characters listed in @keep pass through as they are: for a format that
 * has its own rule for them (a terminal report that breaks lines at "\n",
 * a GitHub workflow command that writes "\r" and "\n" as %0D and %0A).
 * @s:    NUL-terminated; NULL gives NULL.
 * @keep: NUL-terminated ASCII control characters ("" for none).
 * Returns: a new string (free()); never fails (out of memory ends the
 * program, engine/xalloc.h).
 */
char *qt_text_keep(const char *s, const char *keep);

/*
 * qt_needed() - whether qt_text() would change @s (NULL: false), so a
 * caller may print @s as it is otherwise.
 */
int qt_needed(const char *s);

#endif
