/*
 * A main() for the fuzz harnesses without libFuzzer: runs
 * LLVMFuzzerTestOneInput() once on each file named on the command line.
 * `make check` builds every harness with it (build/VARIANT/fuzz-replay/)
 * and tests/fuzz-replay.sh replays the seed corpora tests/fuzz/NAME/, so
 * every regression input kept there runs on every build, with gcc and
 * under the sanitizer build too, without clang.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

int main(int argc, char **argv)
{
	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, got;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (cap - len < 4096) {
				cap = cap ? cap * 2 : 65536;
				buf = realloc(buf, cap);
				if (!buf)
					abort();
			}
			got = fread(buf + len, 1, cap - len, f);
			len += got;
		} while (got > 0);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
	}
	return 0;
}
