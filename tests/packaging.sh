#!/bin/sh
# What make install and make deb ship: make install puts the program, the
# manual page, both completions, the documents the README links and the
# example scenarios where Debian puts them (under DESTDIR, nothing built
# here but the release program); debian/changelog's version is the
# program's.  (scripts/fresh-debian.sh builds and installs the .deb itself.)
# It all comes from what is committed, not from the working tree: a copy of
# HEAD (git archive) is built and installed, so that a file left uncommitted
# or untracked cannot make it pass.  A tree without git (a release tarball)
# is copied as it is, without its builds.
. "$(dirname "$0")/lib.sh"
require_sim
src=$tmp/src
mkdir -p "$src"
if top=$(git rev-parse --show-toplevel 2>/dev/null) && [ "$top" = "$(pwd -P)" ] &&
	commit=$(git rev-parse --verify -q HEAD); then
	git archive --format=tar HEAD | tar -xf - -C "$src" || bad "git archive HEAD"
	from="HEAD"
else
	tar --exclude=./build --exclude=./.git -cf - . | tar -xf - -C "$src" || bad "copy of the tree"
	commit=unknown
	from="the tree (no git)"
fi
# The copy holds what the commit holds, and nothing else of this tree.
if [ "$from" = HEAD ]; then
	(cd "$src" && find . ! -type d | sed 's#^\./##' | LC_ALL=C sort) >"$tmp/copied"
	git ls-tree -r --name-only HEAD | LC_ALL=C sort >"$tmp/committed"
	if cmp -s "$tmp/copied" "$tmp/committed"; then ok "the copy holds HEAD's files only"; else
		bad "the copy holds HEAD's files only"; diff "$tmp/committed" "$tmp/copied" | head -n 5
	fi
fi

d=$tmp/dest
expect_rc "make install DESTDIR=... PREFIX=/usr from $from" 0 \
	make --no-print-directory -C "$src" install DESTDIR="$d" PREFIX=/usr MAGOS_COMMIT="$commit"
bin=$d/usr/bin/magos-sim
version=$("$bin" version | sed 's/^magos-sim \([^ ]*\).*/\1/')
cl=$(sed -n '1s/^magos-sim (\([^)]*\)).*/\1/p' "$src/debian/changelog")
if [ -n "$cl" ] && [ "$cl" = "$version" ]; then ok "debian/changelog has the program's version ($version)"; else
	bad "debian/changelog has the program's version (changelog '$cl', program '$version')"; fi
"$bin" version >"$tmp/version"
contains "the installed program is stamped with $commit" "$tmp/version" "(commit $commit)"
check "debian/rules is executable" test -x "$src/debian/rules"
for f in usr/bin/magos-sim usr/share/man/man1/magos-sim.1 \
	usr/share/bash-completion/completions/magos-sim usr/share/zsh/site-functions/_magos-sim \
	usr/share/doc/magos-sim/README.md usr/share/doc/magos-sim/docs/lint-rules.md \
	usr/share/doc/magos-sim/examples/README.md usr/share/doc/magos-sim/examples/payments-platform.yaml \
	usr/share/doc/magos-sim/examples/payments-platform/workspaces.yaml \
	usr/share/doc/magos-sim/examples/checkout/rollout.yaml; do
	check "installed: /$f" test -f "$d/$f"
done
cd "$src" || exit 1
# Every document the README links is installed beside it.
missing=""
for f in $(grep -o '](docs/[^)#]*)' README.md | sed 's/^](//; s/)$//' | sort -u); do
	[ -e "$d/usr/share/doc/magos-sim/$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "the README's links resolve in the installed docs"; else bad "not installed:$missing"; fi
# Every example scenario is installed, and runs from there.
n=0
for f in $(find scenarios -name '*.yaml' | sort); do
	[ -f "$d/usr/share/doc/magos-sim/examples/${f#scenarios/}" ] || { bad "not installed: $f"; n=$((n + 1)); }
done
[ "$n" -gt 0 ] || ok "every example scenario is installed"
expect_rc "an installed example runs" 0 "$d/usr/bin/magos-sim" run -q "$d/usr/share/doc/magos-sim/examples/payments-platform.yaml"
expect_rc "the installed plain manifests run" 0 "$d/usr/bin/magos-sim" run -q "$d/usr/share/doc/magos-sim/examples/checkout/"
expect_rc "make uninstall" 0 make --no-print-directory -C "$src" uninstall DESTDIR="$d" PREFIX=/usr
left=$(find "$d" -type f | wc -l)
expect_status "nothing left after uninstall" 0 "$left"
finish
