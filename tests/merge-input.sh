#!/bin/sh
# What `merge` reads is checked field by field (reports/partial.h): a
# partial edited by hand or corrupted is refused (exit 3) with the field, its
# value and its range, never printed as a figure; only regular files are
# read.
. "$(dirname "$0")/lib.sh"
require_sim
require_python

"$SIM" run -q -n 4 --shard 1/1 --json "$tmp/p.json" scenarios/three-environments.yaml >/dev/null 2>&1 ||
	bad "run --shard 1/1"
expect_rc "the partial as written merges" 0 "$SIM" merge -q "$tmp/p.json"

# edit NAME PYTHON: $tmp/NAME.json, the partial with d changed by PYTHON.
edit() {
	python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
row = d['inputs'][0]['rows'][0]
$2
json.dump(d, open(sys.argv[2], 'w'))" "$tmp/p.json" "$tmp/$1.json"
}

# refused NAME PYTHON MESSAGE: the edited partial exits 3 saying MESSAGE.
refused() {
	edit "$1" "$2"
	expect_rc "$1: refused" 3 "$SIM" merge "$tmp/$1.json"
	contains "... saying so" "$tmp/err" "$3"
	lacks "... printing no table" "$tmp/out" "Time to complete"
}

refused ttc-huge "row['ttc_ms'] = 2**63 - 1" \
	"field 'ttc_ms' is 9223372036854775807, out of its range -1..3600000"
refused end-past-horizon "row['end_ms'] = d['horizon_ms'] + 1" "field 'end_ms' is 3600001"
refused shard-zero "d['shard'] = [0, 0]" "field 'shard' is [0, 0]: K/N needs 1 <= K <= N"
refused shard-k-over-n "d['shard'] = [3, 2]" "field 'shard' is [3, 2]"
refused slice-not-shard "d['first'] = 1; d['n'] = 3" "slice 1+3 is not shard 1/1's of 4 trials (0+4)"
refused total-huge "d['total'] = 2**40" "field 'total' is 1099511627776, out of its range 1..10000000"
refused no-files "d['inputs'][0]['files'] = []" "field 'files' is empty"
refused empty-name "d['inputs'][0]['name'] = ''" "field 'name' is empty"
# The steps and waves of a row: counts, names, times and lengths as a run
# writes them, the same in every row; the error names the file, the row
# (its trial index as written) and the field.
refused phases-many "row['phases'] = row['phases'] * 4000" \
	"'$tmp/phases-many.json': row 0: field 'phases' holds 12000 phases, more than the 10000 steps and waves a row may list"
refused phase-extra-driver "row['phases'].append({'driver': 'Rollout default/evil', 'name': 'step x', 'opened_ms': 0, 'done_ms': 5})" \
	"row 1: field 'phases' lists 3 steps and waves, row 0's 4: the trials of one scenario list the same"
refused phase-renamed "d['inputs'][0]['rows'][2]['phases'][1]['name'] = 'step <script>alert(1)</script>'" \
	"row 2: phase 1 is Rollout default/shop step <script>alert(1)</script>, row 0's Rollout default/shop step staging: the trials of one scenario list the same"
refused phase-not-a-step "row['phases'][0]['name'] = 'dev'" \
	"row 0: phase 0: field 'name' of a Rollout is not \"step ...\""
refused phase-no-driver "row['phases'][0]['driver'] = 'Job default/x'" \
	"row 0: phase 0: field 'driver' is neither \"Rollout NS/NAME\" nor \"FleetRollout NS/NAME\""
refused phase-after-end "row['phases'][0]['done_ms'] = row['end_ms'] + 1" \
	"row 0: phase 0: field 'done_ms' is"
contains "... naming the trial's end" "$tmp/err" ", after the trial's end (end_ms"
refused phase-done-before-open "row['phases'][1]['done_ms'] = row['phases'][1]['opened_ms'] - 1" \
	"row 0: phase 1: field 'done_ms' is"
refused phase-name-huge "row['phases'][0]['name'] = 'step ' + 'x' * 2000" \
	"row 0: phase 0: field 'name' is 2005 bytes long, more than 1024"
refused phase-name-control "row['phases'][0]['name'] = 'step a\\n::error::x'" \
	"row 0: phase 0: field 'name' holds a control character or invalid UTF-8"
refused notices-many "row['notices'] = [{'severity': 'info', 'text': 'n%d' % i} for i in range(5000)]" \
	"row 0: field 'notices' holds 5000 notices, more than the 4096 kinds a row may list"
refused notice-huge "row['notices'] = [{'severity': 'info', 'text': 'x' * 20000}]" \
	"row 0: notice 0: field 'text' is 20000 bytes long, more than 16384"
refused bad-digest "d['inputs'][0]['digest'] = 'zzzzzzzzzzzzzzzz'" "field 'digest' is not 16 hex digits"
refused wrong-role "d['inputs'][0]['role'] = 'base'" "input role 'base' is not what a run partial has there"
refused wrong-seed "row['seed'] = '1'" "row 0: seed 1 is not trial 0's of base seed"
refused completed-without-time "row['completed'] = True; row['ttc_ms'] = -1" \
	"row 0: 'completed' is true but 'ttc_ms' is -1"
refused halted-without-time "row['halted'] = True; row['halt_ms'] = -1" "'halted' is true but 'halt_ms' is -1"
refused blast-over-total "row['blast_count'] = row['blast_total'] + 1" "is more than blast_total"
refused exposure-negative "row['exposure_ms'] = -5" "field 'exposure_ms' is -5, out of its range"
refused phase-past-horizon "row['phases'][0]['done_ms'] = 10**12" "field 'done_ms' is 1000000000000"

# Only regular files are read: a FIFO would block for ever, a device never end.
mkfifo "$tmp/fifo"
expect_rc "a FIFO as a partial: refused at once" 3 timeout 10 "$SIM" merge "$tmp/fifo"
contains "... saying what it is" "$tmp/err" "cannot read: not a regular file (a FIFO)"
expect_rc "/dev/zero as a partial: refused" 3 timeout 10 "$SIM" merge /dev/zero
contains "... saying what it is" "$tmp/err" "not a regular file (a character device)"
expect_rc "the partials' bytes are bounded (--limit input-bytes)" 3 \
	"$SIM" merge --limit input-bytes=1000 "$tmp/p.json"
contains "... naming the limit" "$tmp/err" "input-bytes"
# The bound is on all the partials together: the second file gets what the first left.
"$SIM" run -q -n 4 --shard 1/2 --json "$tmp/s1.json" scenarios/three-environments.yaml >/dev/null 2>&1
"$SIM" run -q -n 4 --shard 2/2 --json "$tmp/s2.json" scenarios/three-environments.yaml >/dev/null 2>&1
expect_rc "two partials past input-bytes together" 3 \
	"$SIM" merge --limit input-bytes=$(($(wc -c <"$tmp/s1.json") + 100)) "$tmp/s1.json" "$tmp/s2.json"
contains "... the second told what the first left it" "$tmp/err" \
	"s2.json': the partial results hold more bytes in all than the limit allows (100 were left for this file) (limit input-bytes; raise it with --limit input-bytes=N)"

finish
