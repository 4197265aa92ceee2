# magos-sim — plain GNU make, no autotools.
#
#   make [VARIANT=debug|san|release]   build build/$(VARIANT)/magos-sim
#        [MALLOC=mimalloc|libc]        the allocator (debug, release: mimalloc)
#   make check                         every test (unit, end to end, bad input, layering)
#   make conformance                   the tests against the upstream fixtures in ../shared
#   make demo                          install what is missing, build, run the example scenario
#   make bench                         benchmarks (release build), see BENCHMARKS.md
#   make fuzz                          libFuzzer harnesses into build/fuzz/ (clang), see
#                                      docs/fuzzing.md; scripts/fuzz.sh runs them
#   make install PREFIX=/usr/local DESTDIR=   the release build, manual page,
#                                      completion, docs and example scenarios
#   make deb                           a Debian package (build/deb/magos-sim_*.deb)
#
# Libraries come from pkg-config; a missing one makes `demo` and `check`
# run scripts/install-deps.sh first.  The build prints one short line per
# file (V=1: the whole commands) and runs JOBS jobs at once (default: the
# online CPUs; make -jN or JOBS=N to choose).

VARIANT ?= debug
BUILD   := build/$(VARIANT)
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
DOCDIR  ?= $(PREFIX)/share/doc/magos-sim
DATADIR ?= $(PREFIX)/share/magos-sim
MANDIR  ?= $(PREFIX)/share/man
# bash-completion looks in $XDG_DATA_DIRS (/usr/local/share:/usr/share);
# zsh in site-functions for local installs (the package uses vendor-completions).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions

# Parallel unless the command line says how many jobs.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
# (only at the top: a sub-make shares its parent's jobs)
ifeq ($(MAKELEVEL)$(filter -j%,$(MAKEFLAGS))$(filter j%,$(firstword $(MAKEFLAGS))),0)
MAKEFLAGS += -j$(JOBS)
endif

# Quiet: "CC sim/base/diag.c"; V=1 prints the commands.
ifeq ($(V),1)
Q :=
say :=
else
Q := @
say = @printf '  %-4s %s\n' $(1) $(2);
endif

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

# The allocator.  mimalloc (Debian's libmimalloc, which replaces malloc()
# and free() for the whole process, the libraries' calls included) in the
# debug and release builds: a trial is mostly small short-lived blocks, and
# glibc's malloc and free took a quarter of its instructions (BENCHMARKS.md,
# "The allocator").  The san and fuzz builds keep glibc's, which the
# sanitizers replace with their own.  MALLOC=libc builds the debug or
# release variant with glibc's allocator.  Nothing the simulator writes
# depends on the allocator (no output reads an address).
MALLOC_debug   := mimalloc
MALLOC_release := mimalloc
MALLOC_san     := libc
MALLOC_fuzz    := libc
MALLOC ?= $(MALLOC_$(VARIANT))
ifeq ($(filter $(MALLOC),mimalloc libc),)
$(error MALLOC must be mimalloc or libc, not '$(MALLOC)')
endif
ifeq ($(MALLOC)$(filter $(VARIANT),san fuzz),mimalloc$(VARIANT))
$(error MALLOC=mimalloc cannot be used with VARIANT=$(VARIANT): its sanitizers bring their own allocator)
endif
MALLOC_LIBS_mimalloc := -lmimalloc
MALLOC_LIBS_libc     :=
# libmimalloc-dev ships no pkg-config file: the linker's search decides.
HAVE_MALLOC_mimalloc = $(filter /%,$(shell $(CC) -print-file-name=libmimalloc.so 2>/dev/null))
HAVE_MALLOC_libc     = yes

# Recursive (=) so pkg-config runs when a recipe needs it, after `deps`.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   = $(shell pkg-config --libs $(PKGS) 2>/dev/null)

ALL_CFLAGS  = $(STD) $(WARN) $(OPT_$(VARIANT)) -I. $(PKG_CFLAGS) -MMD -MP $(CPPFLAGS) $(CFLAGS)
ALL_LDFLAGS = $(OPT_$(VARIANT)) $(LDOPT_$(VARIANT)) $(LDFLAGS)
LIBS        = $(MALLOC_LIBS_$(MALLOC)) $(PKG_LIBS) -lpthread -lm

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

.PHONY: all deps check conformance demo bench install uninstall clean tests benches deb fuzz fuzzers
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
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists $(PKGS) || \
	    [ -z "$(HAVE_MALLOC_$(MALLOC))" ]; then \
	  echo "magos-sim: libraries missing, running scripts/install-deps.sh" >&2; \
	  scripts/install-deps.sh; \
	fi

$(BUILD)/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(call say,CC,$<)$(CC) $(ALL_CFLAGS) -c $< -o $@

# make -n and make -q leave the build directory as it is: neither stamp
# below is rewritten under them.
DRY_RUN := $(findstring n,$(firstword -$(MAKEFLAGS)))$(findstring q,$(firstword -$(MAKEFLAGS)))

# reports/tool.o is rebuilt when the stamp changes: the stamp file is rewritten
# only then, so an unchanged commit rebuilds nothing.
STAMP_TEXT  := $(MAGOS_VERSION) $(MAGOS_COMMIT) $(MAGOS_DOCS_URL)
STAMP       := $(BUILD)/version.stamp
ifeq ($(DRY_RUN),)
ifneq ($(STAMP_TEXT),$(shell cat $(STAMP) 2>/dev/null))
$(shell mkdir -p $(BUILD) && echo '$(STAMP_TEXT)' >$(STAMP))
endif
endif
$(BUILD)/reports/tool.o: $(STAMP)
# Made here only when the parse above did not write it (make -n or -q in a
# tree never built): then the command is shown, not run.
$(STAMP):
	@mkdir -p $(dir $@) && echo '$(STAMP_TEXT)' >$@
$(BUILD)/reports/tool.o: ALL_CFLAGS += -DMAGOS_VERSION='"$(MAGOS_VERSION)"' \
	-DMAGOS_COMMIT='"$(MAGOS_COMMIT)"' -DMAGOS_DOCS_URL='"$(MAGOS_DOCS_URL)"'

# Every program is linked again when the allocator changes (the same way:
# the stamp file is rewritten only when MALLOC differs from the last build's).
LINK_STAMP := $(BUILD)/link.stamp
ifeq ($(DRY_RUN),)
ifneq ($(MALLOC),$(shell cat $(LINK_STAMP) 2>/dev/null))
$(shell mkdir -p $(BUILD) && echo '$(MALLOC)' >$(LINK_STAMP))
endif
endif
$(LINK_STAMP):
	@mkdir -p $(dir $@) && echo '$(MALLOC)' >$@

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $^

$(BIN): $(CLI_OBJ) $(LIB) $(LINK_STAMP)
	$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out $(LINK_STAMP),$^) $(LIBS)

# Every test program links the shared main and the shared fixtures (tests/unit/fixtures.h).
$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(TEST_MAIN_OBJ) $(TEST_FX_OBJ) $(LIB) $(LINK_STAMP)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out $(LINK_STAMP),$^) $(LIBS)

# Tests of a command-line module (not in the library) link its object too.
$(BUILD)/tests/test_outfile: $(BUILD)/sim/cli/outfile.o $(BUILD)/sim/cli/interrupt.o

$(BUILD)/bench/%: $(BUILD)/tests/bench/%.o $(LIB) $(LINK_STAMP)
	@mkdir -p $(dir $@)
	$(call say,LINK,$@)$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out $(LINK_STAMP),$^) $(LIBS)

$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(FUZZ_OBJ) $(LIB)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

# The same harnesses with a plain main() (tests/fuzz/replay.c): `make check` replays the seed
# corpora with them in every variant, no clang needed.
$(BUILD)/fuzz-replay/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(BUILD)/tests/fuzz/replay.o $(FUZZ_OBJ) $(LIB) $(LINK_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $(filter-out $(LINK_STAMP),$^) $(LIBS)

tests: $(TEST_BIN) $(BIN) $(REPLAY_BIN)
benches: $(BENCH_BIN)
fuzzers: $(FUZZ_BIN)

# The harnesses, built with clang whatever VARIANT says (build/fuzz/fuzz_NAME).
fuzz:
	@$(MAKE) --no-print-directory VARIANT=fuzz fuzzers

check: tests
	@scripts/run-tests.sh $(BUILD)

# Apart from check: these read ../shared (MAGOS_SHARED=DIR for another place),
# which a clone alone does not have; without it they say so and fail.
conformance: tests
	@scripts/run-tests.sh $(BUILD) --conformance

# The build says only that it builds (its output is kept in build/demo.log and
# shown when it fails); then the example's timeline.
demo:
	@mkdir -p build
	@echo "magos-sim: building $(BIN) (the compiler's output: build/demo.log)"
	@$(MAKE) --no-print-directory $(BIN) V=1 >build/demo.log 2>&1 || \
	  { cat build/demo.log; echo "magos-sim: the build failed (above)" >&2; exit 1; }
	@echo "magos-sim: $(BIN) run scenarios/payments-platform.yaml"
	@echo
	@$(BIN) run scenarios/payments-platform.yaml

bench:
	@$(MAKE) --no-print-directory VARIANT=release benches build/release/magos-sim
	@scripts/bench.sh build/release

# Installs the optimised build whatever VARIANT says: an installed tool should be fast.
# Where Debian puts them: the manual page, bash and zsh completion, the
# documents beside README.md as the README links them (docs/...), and the
# example scenarios (with their reference, examples/README.md) in examples/.
EXAMPLES := $(shell find scenarios -type f \( -name '*.yaml' -o -name '*.md' -o -name '*.txt' \) | LC_ALL=C sort)
install:
	@$(MAKE) --no-print-directory VARIANT=release build/release/magos-sim
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR)/docs/img $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 0755 build/release/magos-sim $(DESTDIR)$(BINDIR)/magos-sim
	install -m 0644 dist/magos-sim.1 $(DESTDIR)$(MANDIR)/man1/magos-sim.1
	install -m 0644 dist/magos-sim.bash $(DESTDIR)$(BASHCOMPDIR)/magos-sim
	install -m 0644 dist/_magos-sim $(DESTDIR)$(ZSHCOMPDIR)/_magos-sim
	install -m 0644 README.md BENCHMARKS.md $(DESTDIR)$(DOCDIR)/
	install -m 0644 docs/*.md $(DESTDIR)$(DOCDIR)/docs/
	install -m 0644 docs/img/*.png $(DESTDIR)$(DOCDIR)/docs/img/
	install -d $(DESTDIR)$(DOCDIR)/docs/schemas
	install -m 0644 docs/schemas/* $(DESTDIR)$(DOCDIR)/docs/schemas/
	install -d $(DESTDIR)$(DATADIR)/schemas
	install -m 0644 docs/schemas/*.schema.json $(DESTDIR)$(DATADIR)/schemas/
	@echo "install the example scenarios in $(DESTDIR)$(DOCDIR)/examples/"
	@for f in $(EXAMPLES); do \
	  install -D -m 0644 "$$f" "$(DESTDIR)$(DOCDIR)/examples/$${f#scenarios/}" || exit 1; \
	done

# A Debian package built by Debian's own tooling (debian/: debhelper, so the
# library dependencies are computed from the program, not listed by hand),
# from a copy of the tree in build/deb/src so that the tree stays clean; the
# .deb lands in build/deb/.  Installs dpkg-dev and debhelper when missing.
DEB_BUILD_OPTIONS ?= nocheck
deb:
	@if ! command -v dpkg-buildpackage >/dev/null 2>&1 || ! command -v dh >/dev/null 2>&1; then \
	  echo "magos-sim: Debian packaging tools missing, running scripts/install-deps.sh" >&2; \
	  MAGOS_DEB=1 scripts/install-deps.sh; \
	fi
	rm -rf build/deb
	mkdir -p build/deb/src/magos-sim
	tar --exclude=./build --exclude=./.git --exclude=node_modules -cf - . | tar -x -C build/deb/src/magos-sim
	cd build/deb/src/magos-sim && DEB_BUILD_OPTIONS="$(DEB_BUILD_OPTIONS)" MAGOS_COMMIT="$(MAGOS_COMMIT)" \
	  dpkg-buildpackage -b -us -uc
	mv build/deb/src/*.deb build/deb/
	@ls build/deb/*.deb

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/magos-sim $(DESTDIR)$(MANDIR)/man1/magos-sim.1 \
	  $(DESTDIR)$(BASHCOMPDIR)/magos-sim $(DESTDIR)$(ZSHCOMPDIR)/_magos-sim
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(DATADIR)

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.d) \
         $(TEST_MAIN_OBJ:.o=.d) $(TEST_FX_OBJ:.o=.d) $(BENCH_SRC:tests/bench/%.c=$(BUILD)/tests/bench/%.d) \
         $(FUZZ_SRC:tests/fuzz/%.c=$(BUILD)/tests/fuzz/%.d) $(BUILD)/tests/fuzz/fuzz.d \
         $(BUILD)/tests/fuzz/replay.d
