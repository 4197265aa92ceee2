#ifndef MAGOS_SIM_CLI_H
#define MAGOS_SIM_CLI_H

/*
 * Command-line helpers shared by the commands of magos-sim: strict number and
 * duration parsing for option values, and the documented exit codes.
 */

#include <stdbool.h>
#include <stdint.h>

/* Exit codes, documented in `magos-sim help` and the README. */
enum cli_exit {
	CLI_OK = 0,          /* success */
	CLI_FAILED = 1,      /* an expectation or a check failed */
	CLI_USAGE = 2,       /* bad command line */
	CLI_INVALID = 3,     /* invalid input (scenario or manifest) */
	CLI_IO = 4,          /* reading or writing a file failed */
	CLI_OOM = 5,         /* out of memory (sim/cli/main.c says what was being built) */
	CLI_INTERNAL = 70,   /* a bug in magos-sim */
};

/*
 * cli_parse_u64() - @s as a decimal unsigned 64-bit integer: digits only, no
 * sign, no spaces, no suffix, no overflow.
 * Returns: 0 and *@out, or -1 when @s is not such a number.
 */
int cli_parse_u64(const char *s, uint64_t *out);

/*
 * cli_parse_count() - @s as a decimal integer in [@min, @max] (same strictness
 * as cli_parse_u64()).  Returns: 0 and *@out, or -1.
 */
int cli_parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/*
 * cli_color_wanted() - whether to colour output on file descriptor @fd given
 * the --color mode @mode ("auto", "always", "never"): auto means a TTY and no
 * NO_COLOR in the environment, and TERM not "dumb".
 */
bool cli_color_wanted(const char *mode, int fd);

#endif
