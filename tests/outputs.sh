#!/bin/sh
# Output files: every command checks its output paths before any work, and
# writes its files all or nothing (sim/cli/outfile.h): on a full disk, a
# failed stream or a signal, no old file is replaced and no temporary is
# left behind.
. "$(dirname "$0")/lib.sh"
require_sim
SCN=scenarios/fleet-moodle.yaml

# leftovers DIR: the temporaries and backups left in DIR (none expected).
leftovers() {
	find "$1" -name '*.tmp.*' -o -name '*.old.*' | wc -l
}

# ---- output paths are checked before the work (a long run must not end in "cannot write")
secs() { date +%s; }
t0=$(secs)
expect_rc "run -n 3000 --json into a missing directory: exit 4" 4 \
	"$SIM" run -n 3000 -j 2 --json "$tmp/nodir/x.json" "$SCN"
check "... at once, before the trials" test $(($(secs) - t0)) -le 5
contains "... naming the path" "$tmp/err" "magos-sim run: cannot write '$tmp/nodir/x.json': No such file or directory"
expect_rc "run --html onto a directory: exit 4" 4 "$SIM" run --html "$tmp" "$SCN"
contains "... saying so" "$tmp/err" "Is a directory"
expect_rc "run --csv under a file: exit 4" 4 "$SIM" run -n 5 --csv "$SCN/x.csv" "$SCN"
t0=$(secs)
expect_rc "check --junit into a missing directory: exit 4" 4 \
	"$SIM" check -n 2000 --junit "$tmp/nodir/j.xml" scenarios/ci/
check "... at once" test $(($(secs) - t0)) -le 5
contains "... naming the report" "$tmp/err" "magos-sim check: cannot write JUnit report '$tmp/nodir/j.xml'"
t0=$(secs)
expect_rc "compare --markdown into a missing directory: exit 4" 4 \
	"$SIM" compare -n 3000 --markdown "$tmp/nodir/c.md" scenarios/compare/base.yaml scenarios/compare/head.yaml
check "... at once" test $(($(secs) - t0)) -le 5
"$SIM" run -n 4 --shard 1/1 --json "$tmp/p.json" scenarios/three-environments.yaml 2>/dev/null
expect_rc "merge --csv into a missing directory: exit 4" 4 "$SIM" merge --csv "$tmp/nodir/m.csv" "$tmp/p.json"
contains "... naming the path" "$tmp/err" "magos-sim merge: cannot write '$tmp/nodir/m.csv'"

# ---- two outputs of one command on one file: refused before any work, as run
# refuses them (one implementation), nothing written; "./x" and "x" are one
# file, and so are a symlink and its target
mkdir "$tmp/same"
: >"$tmp/same/target.out"
ln -s target.out "$tmp/same/link.out"
sim_abs=$(cd "$(dirname "$SIM")" && pwd)/$(basename "$SIM")
t0=$(secs)
expect_rc "check --junit F --summary F: a usage error" 2 \
	"$SIM" check -n 2000 --junit "$tmp/same/j.xml" --summary "$tmp/same/j.xml" scenarios/ci/
check "... at once, before the trials" test $(($(secs) - t0)) -le 5
has_line "... naming both options and the file" "$tmp/err" \
	"magos-sim check: --junit and --summary both write to '$tmp/same/j.xml': give each its own file"
check "... writing nothing" test ! -e "$tmp/same/j.xml"
expect_rc "check --junit ./F --summary F: the same file" 2 \
	sh -c 'cd "$1" && "$2" check --junit ./j.xml --summary j.xml "$3/scenarios/ci/"' _ "$tmp/same" "$sim_abs" "$PWD"
contains "... named as given" "$tmp/err" "--junit and --summary both write to 'j.xml'"
expect_rc "check --junit TARGET --summary LINK-TO-TARGET: the same file" 2 \
	"$SIM" check --junit "$tmp/same/target.out" --summary "$tmp/same/link.out" scenarios/ci/
contains "... said so" "$tmp/err" "--junit and --summary both write to '$tmp/same/link.out'"
expect_rc "compare --json F --markdown F: a usage error" 2 \
	"$SIM" compare --json "$tmp/same/c.json" --markdown "$tmp/same/c.json" scenarios/compare/base.yaml scenarios/compare/head.yaml
has_line "... naming both options and the file" "$tmp/err" \
	"magos-sim compare: --json and --markdown both write to '$tmp/same/c.json': give each its own file"
check "... writing nothing" test ! -e "$tmp/same/c.json"
expect_rc "compare --html LINK --json TARGET: the same file" 2 \
	"$SIM" compare --html "$tmp/same/link.out" --json "$tmp/same/target.out" scenarios/compare/base.yaml scenarios/compare/head.yaml
contains "... said so" "$tmp/err" "--json and --html both write to '$tmp/same/link.out'"
expect_rc "merge --json F --csv ./F: a usage error" 2 \
	sh -c 'cd "$1" && "$2" merge --json m.out --csv ./m.out "$3"' _ "$tmp/same" "$sim_abs" "$tmp/p.json"
has_line "... naming both options and the file" "$tmp/err" \
	"magos-sim merge: --json and --csv both write to './m.out': give each its own file"
expect_rc "run --json F --html ./F: the same words" 2 \
	sh -c 'cd "$1" && "$2" run --json r.json --html ./r.json "$3/scenarios/three-environments.yaml"' _ "$tmp/same" "$sim_abs" "$PWD"
has_line "... as before" "$tmp/err" "magos-sim run: --json and --html both write to './r.json': give each its own file"
check "... no output of any of them was written" test "$(ls "$tmp/same")" = "$(printf 'link.out\ntarget.out')"
expect_rc "compare --json '' : an empty name is a usage error" 2 \
	"$SIM" compare --json '' scenarios/compare/base.yaml scenarios/compare/head.yaml
contains "... saying so" "$tmp/err" "magos-sim compare: --json needs a file name, not an empty one"

# ---- all or nothing
mkdir "$tmp/files"
for f in r.csv r.trace r.mmd r.json; do echo old >"$tmp/files/$f"; done
# A full disk for files over 8 KiB (ulimit -f, in 512- or 1024-byte blocks;
# SIGXFSZ ignored so that the write fails with EFBIG instead of killing):
# the CSV and the Mermaid block fit, the trace and the JSON do not.
(
	trap '' XFSZ
	ulimit -f 16
	exec "$SIM" run --csv "$tmp/files/r.csv" --trace "$tmp/files/r.trace" --mermaid "$tmp/files/r.mmd" \
		--json "$tmp/files/r.json" "$SCN"
) >"$tmp/out.txt" 2>"$tmp/err"
expect_status "a full disk under --json: exit 4" 4 $?
contains "... naming the file" "$tmp/err" "magos-sim run: cannot write '$tmp/files/r.trace': File too large"
check "... and no file replaced" sh -c "cat '$tmp'/files/r.* | grep -vx old | wc -l | grep -qx 0"
check "... and no temporary left" test "$(leftovers "$tmp/files")" -eq 0
check "... and no report printed" test ! -s "$tmp/out.txt"
expect_rc "a stream that fails (/dev/full) replaces no file" 4 \
	"$SIM" run --csv "$tmp/files/r.csv" --json /dev/full "$SCN"
check "... the CSV is the old one" grep -qx old "$tmp/files/r.csv"
check "... and no temporary left" test "$(leftovers "$tmp/files")" -eq 0
expect_rc "when everything can be written, everything is" 0 \
	"$SIM" run -q --csv "$tmp/files/r.csv" --trace "$tmp/files/r.trace" --mermaid "$tmp/files/r.mmd" \
	--json "$tmp/files/r.json" "$SCN"
check "... every file new" sh -c "! grep -qx old '$tmp'/files/r.*"
check "... and no temporary left" test "$(leftovers "$tmp/files")" -eq 0
echo old >"$tmp/files/j.xml"
(
	trap '' XFSZ
	ulimit -f 1
	exec "$SIM" check --junit "$tmp/files/j.xml" --summary "$tmp/files/s.md" scenarios/ci/
) >/dev/null 2>"$tmp/err"
expect_status "check: a report that does not fit: exit 4" 4 $?
check "... the JUnit report is the old one" grep -qx old "$tmp/files/j.xml"
check "... the summary was not created" test ! -e "$tmp/files/s.md"
check "... and no temporary left" test "$(leftovers "$tmp/files")" -eq 0

# ---- a signal while the files are written: no temporary left, no file replaced
sh scripts/gen-fleet.sh 3000 100 10 >"$tmp/fleet.yaml"
for try in 1 2; do
	echo old >"$tmp/files/big.json"
	echo old >"$tmp/files/big.html"
	"$SIM" run -q --json "$tmp/files/big.json" --html "$tmp/files/big.html" "$tmp/fleet.yaml" \
		>/dev/null 2>&1 &
	pid=$!
	seen=no
	# The moment a temporary exists, the files are being written: SIGTERM then.
	while kill -0 "$pid" 2>/dev/null; do
		if [ -n "$(find "$tmp/files" -name '*.tmp.*')" ]; then
			seen=yes
			kill -TERM "$pid"
			break
		fi
		sleep 0.01
	done
	wait "$pid"
	st=$?
	if [ "$seen" = yes ]; then
		expect_status "SIGTERM while writing (try $try): dies of the signal" 143 "$st"
		check "... no temporary left" test "$(leftovers "$tmp/files")" -eq 0
		check "... the JSON is the old one" grep -qx old "$tmp/files/big.json"
		check "... the HTML is the old one" grep -qx old "$tmp/files/big.html"
	else
		ok "SIGTERM while writing (try $try): the run ended before a temporary was seen"
	fi
done

finish
