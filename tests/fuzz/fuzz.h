#ifndef MAGOS_TESTS_FUZZ_H
#define MAGOS_TESTS_FUZZ_H

/*
 * What the libFuzzer harnesses of tests/fuzz/ share (docs/fuzzing.md).  Each
 * harness fuzz_NAME.c defines LLVMFuzzerTestOneInput() over one parser or
 * entry point; `make fuzz` builds them into build/fuzz/, and
 * scripts/fuzz.sh runs each over its seed corpus tests/fuzz/NAME/.
 *
 * An oracle that finds a wrong answer calls fuzz_fail(), which aborts: the
 * fuzzer then keeps the input as a crash, like a sanitizer report.
 */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/base/limits.h"

/*
 * fuzz_file() - writes @size bytes of @data to this process's scratch file
 * (one per process, in a scratch directory of its own, named NAME: say
 * "in.yaml"), overwriting what the previous input left.
 * Returns: the path (static storage).  Aborts when the file cannot be written.
 */
const char *fuzz_file(const uint8_t *data, size_t size, const char *name);

/* fuzz_string() - @data as a new NUL-terminated string (embedded NULs kept); caller frees. */
char *fuzz_string(const uint8_t *data, size_t size);

/* fuzz_null() - a stream on /dev/null for the renderers (opened once, never closed). */
FILE *fuzz_null(void);

/*
 * fuzz_limits() - the bounds a harness loads under: the defaults lowered so
 * that one input costs milliseconds (alias nodes, documents, generated
 * objects, series samples, include scanning) and nothing leaves the
 * scratch directory for long.
 */
void fuzz_limits(struct limits *l);

/* fuzz_fail() - an oracle failed: prints @what and the input's size, then abort()s. */
_Noreturn void fuzz_fail(const char *what, size_t size);

#endif
