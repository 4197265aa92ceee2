# magos-sim — plain GNU make, no autotools.
#
#   make [VARIANT=debug|san|release]   build build/$(VARIANT)/magos-sim
#   make check                         every test (unit, end to end, bad input, layering)
#   make demo                          install what is missing, build, run the example scenario
#   make bench                         benchmarks (release build), see BENCHMARKS.md
#   make fuzz                          libFuzzer harnesses into build/fuzz/ (clang), see
#                                      docs/fuzzing.md; scripts/fuzz.sh runs them
#   make install PREFIX=/usr/local DESTDIR=   the release build and the docs
#
# Libraries come from pkg-config; a missing one makes `demo` and `check`
# run scripts/install-deps.sh first.

VARIANT ?= debug
BUILD   := build/$(VARIANT)
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DOCDIR  ?= $(PREFIX)/share/doc/magos-sim
DATADIR ?= $(PREFIX)/share/magos-sim

CC      ?= cc
PKGS    := yaml-0.1 jansson gsl cunit

# Stamped into every output (reports/tool.c).  The commit is the checkout's
# HEAD, "-dirty" appended when tracked files changed; a tree without .git (a
# tarball) builds with "unknown".  MAGOS_DOCS_URL is where the lint rules'
# help links point (SARIF): a fork sets its own.
MAGOS_VERSION  := 0.1.0
MAGOS_COMMIT   ?= $(shell if [ -e .git ] && command -v git >/dev/null 2>&1; then \
                    h=$$(git rev-parse HEAD 2>/dev/null) && \
                    if [ -n "$$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then \
                      echo "$$h-dirty"; else echo "$$h"; fi; fi)
ifeq ($(strip $(MAGOS_COMMIT)),)
MAGOS_COMMIT   := unknown
endif
MAGOS_DOCS_URL ?= https://github.com/magosproject/magos-sim/blob/main/docs/

ifeq ($(filter $(VARIANT),debug san release fuzz),)
$(error VARIANT must be debug, san, release or fuzz, not '$(VARIANT)')
endif
# The fuzz variant needs clang's libFuzzer (scripts/install-deps.sh with MAGOS_FUZZ=1).
FUZZ_CC ?= clang
ifeq ($(VARIANT),fuzz)
CC := $(FUZZ_CC)
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wpointer-arith -Wformat=2 -Wundef -Wcast-align -Wwrite-strings \
        -Wno-unused-parameter
STD  := -std=c11 -D_POSIX_C_SOURCE=200809L
OPT_debug   := -O0 -g3
OPT_san     := -O1 -g3 -fsanitize=address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=all
OPT_release := -O2 -g
LDOPT_san   := -fsanitize=address,undefined
# Every object is instrumented for libFuzzer; only the harnesses link its main.
OPT_fuzz    := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer \
               -fno-sanitize-recover=all
LDOPT_fuzz  := -fsanitize=fuzzer,address,undefined

# Recursive (=) so pkg-config runs when a recipe needs it, after `deps`.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

ALL_CFLAGS  = $(STD) $(WARN) $(OPT_$(VARIANT)) -I. $(PKG_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDFLAGS = $(OPT_$(VARIANT)) $(LDOPT_$(VARIANT)) $(LDFLAGS)
LIBS        = $(PKG_LIBS) -lpthread -lm

# The commands (sim/cli/) are linked into the program only; tests use the library.
LIB_SRC  := $(sort $(wildcard engine/*.c) \
                   $(filter-out sim/cli/%,$(wildcard sim/*/*.c)) \
                   $(wildcard reports/*.c))
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
LIB      := $(BUILD)/libmagos.a
BIN      := $(BUILD)/magos-sim
CLI_SRC  := $(sort $(wildcard sim/cli/*.c))
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/%.o)

TEST_SRC := $(sort $(wildcard tests/unit/test_*.c))
TEST_BIN := $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/%)
TEST_MAIN_OBJ := $(BUILD)/tests/unit/cu_main.o
TEST_FX_OBJ   := $(BUILD)/tests/unit/fixtures.o

BENCH_SRC := $(sort $(wildcard tests/bench/bench_*.c))
BENCH_BIN := $(BENCH_SRC:tests/bench/%.c=$(BUILD)/bench/%)

# One libFuzzer harness per parser and entry point (tests/fuzz/fuzz_NAME.c); each links the
# commands too (all but main.c), for the entry points only they hold.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/%)
FUZZ_OBJ := $(BUILD)/tests/fuzz/fuzz.o $(filter-out $(BUILD)/sim/cli/main.o,$(CLI_OBJ))
REPLAY_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/fuzz-replay/%)

.PHONY: all deps check demo bench install uninstall clean tests benches fuzz fuzzers
.DEFAULT_GOAL := all
# Keep object files of test and bench programs (make would delete them as intermediates).
.SECONDARY:

ifeq ($(VARIANT),fuzz)
all: fuzzers
else
all: $(BIN)
endif

# Installs the Debian packages when any library is missing; a no-op otherwise.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists $(PKGS); then \
	  echo "magos-sim: libraries missing, running scripts/install-deps.sh" >&2; \
	  scripts/install-deps.sh; \
	fi

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c $< -o $@

# reports/tool.o is rebuilt when the stamp changes: the stamp file is rewritten
# only then, so an unchanged commit rebuilds nothing.
STAMP_TEXT  := $(MAGOS_VERSION) $(MAGOS_COMMIT) $(MAGOS_DOCS_URL)
STAMP       := $(BUILD)/version.stamp
ifneq ($(STAMP_TEXT),$(shell cat $(STAMP) 2>/dev/null))
$(shell mkdir -p $(BUILD) && echo '$(STAMP_TEXT)' >$(STAMP))
endif
$(BUILD)/reports/tool.o: $(STAMP)
$(BUILD)/reports/tool.o: ALL_CFLAGS += -DMAGOS_VERSION='"$(MAGOS_VERSION)"' \
	-DMAGOS_COMMIT='"$(MAGOS_COMMIT)"' -DMAGOS_DOCS_URL='"$(MAGOS_DOCS_URL)"'

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# Every test program links the shared main and the shared fixtures (tests/unit/fixtures.h).
$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TEST_MAIN_OBJ) $(TEST_FX_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# Tests of a command-line module (not in the library) link its object too.
$(BUILD)/tests/test_outfile: $(BUILD)/sim/cli/outfile.o

$(BUILD)/bench/%: $(BUILD)/tests/bench/%.o $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The same harnesses with a plain main() (tests/fuzz/replay.c): `make check` replays the seed
# corpora with them in every variant, no clang needed.
$(BUILD)/fuzz-replay/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay.o $(FUZZ_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

tests: $(TEST_BIN) $(BIN) $(REPLAY_BIN)
benches: $(BENCH_BIN)
fuzzers: $(FUZZ_BIN)

# The harnesses, built with clang whatever VARIANT says (build/fuzz/fuzz_NAME).
fuzz:
	@$(MAKE) --no-print-directory VARIANT=fuzz fuzzers

check: tests
	@scripts/run-tests.sh $(BUILD)

demo: $(BIN)
	$(BIN) run scenarios/payments-platform.yaml

bench:
	@$(MAKE) --no-print-directory VARIANT=release benches build/release/magos-sim
	@scripts/bench.sh build/release

# Installs the optimised build whatever VARIANT says: an installed tool should be fast.
install:
	@$(MAKE) --no-print-directory VARIANT=release build/release/magos-sim
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR)
	install -m 0755 build/release/magos-sim $(DESTDIR)$(BINDIR)/magos-sim
	install -m 0644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -m 0644 scenarios/README.md $(DESTDIR)$(DOCDIR)/scenarios.md
	install -m 0644 BENCHMARKS.md $(DESTDIR)$(DOCDIR)/BENCHMARKS.md
	install -d $(DESTDIR)$(DATADIR)/schemas
	install -m 0644 docs/schemas/*.schema.json $(DESTDIR)$(DATADIR)/schemas/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/magos-sim
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.d) \
         $(TEST_MAIN_OBJ:.o=.d) $(TEST_FX_OBJ:.o=.d) $(BENCH_SRC:tests/bench/%.c=$(BUILD)/tests/bench/%.d) \
         $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/tests/fuzz/%.d) $(BUILD)/tests/fuzz/fuzz.d \
         $(BUILD)/tests/fuzz/replay.d
