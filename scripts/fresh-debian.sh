#!/bin/sh
# Proves that a new user on a minimal Debian 12 can follow the README: builds
# a minimal root with debootstrap (--variant=minbase, from the Debian mirror
# this machine's apt is configured with), puts a clean clone of HEAD in it,
# and there, as root in a chroot with a clean environment:
#
#   1. runs the README's two commands exactly as the README writes them (read
#      from its first ```sh block, so they cannot drift apart);
#   2. builds the Debian package (make deb);
#   3. on a second, untouched minimal root: installs the .deb with apt (which
#      must find its libraries by itself), runs an example scenario from the
#      installed examples, renders `man magos-sim` and loads the bash
#      completion.
#
# Needs root (chroot, mount), and installs debootstrap when it is missing.
# Run from anywhere; exits non-zero at the first step that fails and says
# which.  .ci/run runs it.
#
# Cache (MAGOS_FRESH_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/magos-sim/
# fresh-debian): the pristine minimal root as a tar (debootstrap takes minutes,
# and each run starts from an untouched copy of it) and apt's downloaded
# packages (bind-mounted into the roots, so a package is fetched once; apt
# still installs every one of them).  Delete the folder to start from nothing;
# a root older than MAGOS_FRESH_MAX_DAYS (default 30) is rebuilt.  The roots
# themselves are made under build/fresh-debian/ and removed at the end
# (KEEP=1 keeps them).
set -eu

REPO=$(cd "$(dirname "$0")/.." && pwd)
SUITE=bookworm
CACHE=${MAGOS_FRESH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/magos-sim/fresh-debian}
MAX_DAYS=${MAGOS_FRESH_MAX_DAYS:-30}
WORK=$REPO/build/fresh-debian
T0=$(date +%s)

say() { echo "fresh-debian: $*"; }
die() { echo "fresh-debian: FAILED: $*" >&2; exit 1; }
phase_start() { PHASE=$1; P0=$(date +%s); say "$PHASE ..."; }
phase_end() { say "$PHASE: done in $(($(date +%s) - P0)) s"; }

[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and mount)"

# The Debian mirror apt uses here: the first URI serving $SUITE's main.
mirror() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk -v s="$SUITE" '$1 == "deb" && $3 == s && / main/ { print $2; exit }' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v s="$SUITE" '
			/^$/ { if (u != "" && suite && main) { print u; exit } u = ""; suite = 0; main = 0 }
			/^URIs:/ { u = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == s) suite = 1 }
			/^Components:/ { for (i = 2; i <= NF; i++) if ($i == "main") main = 1 }
			END { if (u != "" && suite && main) print u }' "$f"
	done
}
MIRROR=${MAGOS_FRESH_MIRROR:-$(mirror | head -n 1)}
[ -n "$MIRROR" ] || die "no Debian mirror for $SUITE main in /etc/apt/sources.list*"

# ---- mounts, undone on any exit ----------------------------------------------
MOUNTS=""
cleanup() {
	for m in $MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null || true; done
	# Never remove through a mount that is still there (the package cache, a
	# /proc): keep the roots and say so instead.
	if awk -v w="$WORK/" 'index($2 "/", w) == 1 { found = 1 } END { exit !found }' /proc/mounts; then
		say "mounts under $WORK remain (see /proc/mounts): not removing it"
	elif [ -z "${KEEP:-}" ]; then rm -rf --one-file-system "$WORK"; else say "kept $WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# enter ROOT: the mounts a chroot needs (apt's package cache shared, /proc,
# pseudo-terminals of its own as a booted system has: tests/progress.sh runs
# the commands on one).
enter() {
	mkdir -p "$CACHE/apt-archives/partial"
	mount --bind "$CACHE/apt-archives" "$1/var/cache/apt/archives"
	MOUNTS="$1/var/cache/apt/archives $MOUNTS"
	mount -t proc proc "$1/proc"
	MOUNTS="$1/proc $MOUNTS"
	mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$1/dev/pts"
	MOUNTS="$1/dev/pts $MOUNTS"
	mount --bind "$1/dev/pts/ptmx" "$1/dev/ptmx"
	MOUNTS="$1/dev/ptmx $MOUNTS"
	cp /etc/resolv.conf "$1/etc/resolv.conf" 2>/dev/null || true
}

# in ROOT SCRIPT: runs SCRIPT with sh in ROOT, as root, in a clean environment.
in_root() {
	chroot "$1" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root TERM=dumb LANG=C.UTF-8 /bin/sh -c "$2"
}

# ---- the pristine minimal root (cached) --------------------------------------
BASE=$CACHE/$SUITE-minbase.tar
if [ -f "$BASE" ] && [ -n "$(find "$BASE" -mtime +"$MAX_DAYS")" ]; then
	say "the cached root is older than $MAX_DAYS days: rebuilding it"
	rm -f "$BASE"
fi
if [ ! -f "$BASE" ]; then
	phase_start "debootstrap --variant=minbase $SUITE from $MIRROR"
	if ! command -v debootstrap >/dev/null 2>&1; then
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap \
			>/dev/null || die "cannot install debootstrap"
	fi
	mkdir -p "$CACHE" "$WORK"
	rm -rf "$WORK/bootstrap"
	debootstrap --variant=minbase "$SUITE" "$WORK/bootstrap" "$MIRROR" >"$WORK/debootstrap.log" 2>&1 ||
		{ tail -n 20 "$WORK/debootstrap.log" >&2; die "debootstrap"; }
	tar -C "$WORK/bootstrap" -cf "$BASE.tmp" . && mv "$BASE.tmp" "$BASE"
	rm -rf "$WORK/bootstrap"
	phase_end
else
	say "minimal root from the cache: $BASE"
fi

fresh_root() { # DIR: an untouched copy of the minimal root
	rm -rf "$1"
	mkdir -p "$1"
	tar -C "$1" -xf "$BASE"
}

# ---- 1. the README's commands on a clean clone -------------------------------
ROOT=$WORK/root
fresh_root "$ROOT"
enter "$ROOT"
HEAD=$(git -C "$REPO" rev-parse HEAD)
git clone --quiet --no-hardlinks "$REPO" "$ROOT/root/magos-sim"
git -C "$ROOT/root/magos-sim" checkout --quiet --detach "$HEAD"
say "clean clone of $HEAD in $ROOT/root/magos-sim"

# The first ```sh block of the README, comments dropped: the two commands.
CMDS=$(sed -n '/^```sh$/,/^```$/p' "$ROOT/root/magos-sim/README.md" | sed '1d;$d' |
	sed 's/[[:space:]]*#.*$//' | sed '/^$/d' | head -n 2)
[ "$(echo "$CMDS" | wc -l)" -eq 2 ] || die "the README's first sh block does not hold two commands"
n=0
while IFS= read -r cmd; do
	n=$((n + 1))
	phase_start "README command $n: $cmd"
	in_root "$ROOT" "cd /root/magos-sim && $cmd" >"$WORK/readme-$n.log" 2>&1 || {
		tail -n 30 "$WORK/readme-$n.log" >&2
		# (make check's failures, with the part they belong to, wherever they are)
		grep -E '^(== |FAIL|Suite .* had failures)|^ +[0-9]+\. ' "$WORK/readme-$n.log" |
			grep -B1 -E '^(FAIL|Suite|  )' >&2 || true
		die "README command $n: $cmd"
	}
	tail -n 3 "$WORK/readme-$n.log" | sed 's/^/    /'
	phase_end
done <<CMDS
$CMDS
CMDS

# ---- 2. the Debian package -----------------------------------------------------
phase_start "make deb"
in_root "$ROOT" "cd /root/magos-sim && make deb" >"$WORK/deb.log" 2>&1 ||
	{ tail -n 40 "$WORK/deb.log" >&2; die "make deb"; }
DEB=$(ls "$ROOT"/root/magos-sim/build/deb/magos-sim_*.deb)
say "built $(basename "$DEB")"
phase_end

# ---- 3. installed with apt on an untouched root --------------------------------
phase_start "apt install the .deb on a fresh root, run an example, man magos-sim"
ROOT2=$WORK/root2
fresh_root "$ROOT2"
enter "$ROOT2"
cp "$DEB" "$ROOT2/tmp/"
in_root "$ROOT2" "
	set -e
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends /tmp/$(basename "$DEB") man-db >/dev/null
	echo '\$ magos-sim version'; magos-sim version
	echo '\$ magos-sim run -q /usr/share/doc/magos-sim/examples/payments-platform.yaml'
	magos-sim run -q /usr/share/doc/magos-sim/examples/payments-platform.yaml
	echo '\$ magos-sim check /usr/share/doc/magos-sim/examples/ci/'
	magos-sim check /usr/share/doc/magos-sim/examples/ci/ >/tmp/check.out
	tail -n 1 /tmp/check.out
	echo '\$ man magos-sim | head'
	MANWIDTH=80 man magos-sim >/tmp/man.txt 2>/tmp/man.err
	[ ! -s /tmp/man.err ] || { cat /tmp/man.err; exit 1; }
	grep -q '^EXIT STATUS' /tmp/man.txt
	head -n 8 /tmp/man.txt
	echo '\$ bash: complete -p magos-sim'
	bash -c '. /usr/share/bash-completion/completions/magos-sim && complete -p magos-sim'
	test -f /usr/share/zsh/vendor-completions/_magos-sim
" >"$WORK/installed.log" 2>&1 || { tail -n 40 "$WORK/installed.log" >&2; die "the installed package"; }
sed 's/^/    /' "$WORK/installed.log"
phase_end

say "PASSED in $(($(date +%s) - T0)) s (commit $HEAD)"
