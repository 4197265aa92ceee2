#!/bin/sh
# End-to-end checks of `run --shard K/N` on what-if runs and their `merge`:
# the shards of a scenario with spec.variants, of a --sweep, of spec.sweep
# with variants and of one --variant merge into exactly the tables, JSON and
# CSV of the unsharded run (any file order, empty slices too); partials of
# different set lists, of another --variant or of the base alone are refused
# (exit 3) with a message that names both lists.
. "$(dirname "$0")/lib.sh"
VAR=scenarios/what-if-canary-soak.yaml
CAP=scenarios/parallel-cohorts.yaml

# shards PREFIX N K... -- ARGS...: run --shard K/N --json PREFIX-K.json ARGS, for each K.
shards() {
	prefix=$1 n=$2
	shift 2
	ks=
	while [ "$1" != -- ]; do ks="$ks $1"; shift; done
	shift
	for k in $ks; do
		if ! "$SIM" run -q --shard "$k/$n" --json "$prefix-$k.json" "$@" 2>"$tmp/shard-err"; then
			bad "run --shard $k/$n $*"; show "$tmp/shard-err"
		fi
	done
}

# --- a scenario with spec.variants -------------------------------------------
expect_rc "unsharded variants" 0 "$SIM" run -n 30 --json "$tmp/v.json" --csv "$tmp/v.csv" "$VAR"
cp "$tmp/out" "$tmp/v.txt"
check "... print the variant table" grep -q "^soak 15m instead of 30m " "$tmp/v.txt"
expect_rc "run --shard 1/3 of a scenario with variants" 0 "$SIM" run -n 30 --shard 1/3 --json "$tmp/v-1.json" "$VAR"
check "... names its slice" grep -q "run: shard 1/3: trials 0..9 of 30 written to" "$tmp/err"
shards "$tmp/v" 3 2 3 -- -n 30 "$VAR"
check "the partial is schema v2" grep -q '"schema": "magos-sim/partial/v2"' "$tmp/v-1.json"
check "... lists the sets in order" sh -c "grep -o '\"kind\": \"[a-z]*\", \"name\": \"[^\"]*\"' '$tmp/v-2.json' | tr '\n' '|' | grep -qx '\"kind\": \"variant\", \"name\": \"soak 15m instead of 30m\"|\"kind\": \"variant\", \"name\": \"add a pilot wave\"|\"kind\": \"variant\", \"name\": \"failure rate 5%\"|'"
check "... each with the slice's 10 rows" test "$(grep -c '^      {"index":1[0-9],' "$tmp/v-2.json")" -eq 40
expect_rc "merge of 3 variant shards" 0 "$SIM" merge "$tmp/v-3.json" "$tmp/v-1.json" "$tmp/v-2.json"
check "merge prints exactly the unsharded variant tables" cmp -s "$tmp/v.txt" "$tmp/out"
expect_rc "merge --json --csv of 3 variant shards" 0 "$SIM" merge --json "$tmp/vm.json" --csv "$tmp/vm.csv" "$tmp/v-1.json" "$tmp/v-2.json" "$tmp/v-3.json"
check "merge --json writes exactly the unsharded JSON" cmp -s "$tmp/v.json" "$tmp/vm.json"
check "merge --csv writes exactly the unsharded CSV" cmp -s "$tmp/v.csv" "$tmp/vm.csv"
check "... and prints the tables too" cmp -s "$tmp/v.txt" "$tmp/out"
expect_rc "merge --json - of variant shards" 0 "$SIM" merge --json - "$tmp/v-1.json" "$tmp/v-2.json" "$tmp/v-3.json"
check "... writes the JSON to stdout instead of the tables" cmp -s "$tmp/v.json" "$tmp/out"
expect_rc "merge of a partial named twice is a usage error" 2 "$SIM" merge "$tmp/v-1.json" "$tmp/v-2.json" "$tmp/v-1.json"
has_line "... says it is given twice" "$tmp/err" "magos-sim merge: '$tmp/v-1.json' is given twice: name each partial result once"
expect_rc "merge of one partial by two names is a usage error" 2 "$SIM" merge "$tmp/v-1.json" "$tmp/../$(basename "$tmp")/v-1.json"
check "... says they are the same file" grep -q "are the same file: name each partial result once" "$tmp/err"

# --- --sweep capacity ---------------------------------------------------------
expect_rc "unsharded sweep" 0 "$SIM" run -n 30 --sweep capacity=1,2,4 --json "$tmp/s.json" --csv "$tmp/s.csv" "$CAP"
cp "$tmp/out" "$tmp/s.txt"
check "... prints the sweep table" grep -q "^Sweep of capacity: 30 trials per value" "$tmp/s.txt"
shards "$tmp/s" 3 1 2 3 -- -n 30 --sweep capacity=1,2,4 "$CAP"
check "the sweep partial names its parameter" grep -q '"sweep": "capacity",' "$tmp/s-1.json"
check "... and its values as written" grep -q '"kind": "sweep", "name": "capacity=4", "value": "4",' "$tmp/s-1.json"
expect_rc "merge of 3 sweep shards" 0 "$SIM" merge --json "$tmp/sm.json" --csv "$tmp/sm.csv" "$tmp/s-2.json" "$tmp/s-3.json" "$tmp/s-1.json"
check "merge prints exactly the unsharded sweep table" cmp -s "$tmp/s.txt" "$tmp/out"
check "merge --json writes exactly the unsharded sweep JSON" cmp -s "$tmp/s.json" "$tmp/sm.json"
check "merge --csv writes exactly the unsharded sweep CSV" cmp -s "$tmp/s.csv" "$tmp/sm.csv"

# More shards than trials: empty slices of every set merge all the same.
"$SIM" run -n 2 --sweep capacity=1,2 "$CAP" >"$tmp/s2.txt" 2>/dev/null
shards "$tmp/e" 3 1 2 3 -- -n 2 --sweep capacity=1,2 "$CAP"
check "an empty sweep shard has no rows" grep -q '"n": 0,' "$tmp/e-1.json"
expect_rc "merge of 3 shards of 2 sweep trials" 0 "$SIM" merge "$tmp"/e-[123].json
check "... prints exactly the unsharded table" cmp -s "$tmp/s2.txt" "$tmp/out"

# --- spec.sweep with spec.variants: both tables ------------------------------
sed 's/^  models:$/  sweep: {parameter: models.regression.probability, values: [0.02, 0.1]}\n  models:/' \
	"$VAR" >"$tmp/both.yaml"
expect_rc "unsharded variants and spec.sweep" 0 "$SIM" run -n 12 --json "$tmp/b.json" "$tmp/both.yaml"
cp "$tmp/out" "$tmp/b.txt"
check "... print both tables" grep -q "^Sweep of models.regression.probability" "$tmp/b.txt"
shards "$tmp/b" 2 1 2 -- -n 12 "$tmp/both.yaml"
check "the partial holds the variants, then the sweep values" sh -c "grep -o '\"kind\": \"[a-z]*\"' '$tmp/b-1.json' | uniq -c | tr -s ' ' | tr '\n' '|' | grep -qx ' 3 \"kind\": \"variant\"| 2 \"kind\": \"sweep\"|'"
expect_rc "merge of variants and spec.sweep" 0 "$SIM" merge --json "$tmp/bm.json" "$tmp/b-2.json" "$tmp/b-1.json"
check "merge prints exactly both unsharded tables" cmp -s "$tmp/b.txt" "$tmp/out"
check "merge --json writes exactly the unsharded JSON" cmp -s "$tmp/b.json" "$tmp/bm.json"

# --- one --variant ----------------------------------------------------------
expect_rc "unsharded --variant" 0 "$SIM" run -n 30 "--variant=add a pilot wave" "$VAR"
cp "$tmp/out" "$tmp/p.txt"
shards "$tmp/p" 3 1 2 3 -- -n 30 "--variant=add a pilot wave" "$VAR"
check "the partial names the variant" grep -q '"variant": "add a pilot wave",' "$tmp/p-1.json"
expect_rc "merge of 3 --variant shards" 0 "$SIM" merge "$tmp/p-1.json" "$tmp/p-2.json" "$tmp/p-3.json"
check "merge prints exactly the unsharded --variant tables" cmp -s "$tmp/p.txt" "$tmp/out"
expect_rc "--shard with an unknown --variant" 2 "$SIM" run -n 30 --variant nope --shard 1/3 --json "$tmp/x.json" "$VAR"
check "... lists the variants" grep -q "unknown variant 'nope'; the variants are 'soak 15m instead of 30m'" "$tmp/err"
check "... and writes no partial" test ! -e "$tmp/x.json"

# --- partials that do not belong together -------------------------------------
shards "$tmp/s8" 3 2 -- -n 30 --sweep capacity=1,2,8 "$CAP"
expect_rc "sweep partials of other values are refused" 3 "$SIM" merge "$tmp/s-1.json" "$tmp/s8-2.json" "$tmp/s-3.json"
check "... naming both lists" grep -q "merge: '$tmp/s-1.json' and '$tmp/s8-2.json' do not belong together: they run different sets of variants or sweep values ('capacity=1', 'capacity=2', 'capacity=4' against 'capacity=1', 'capacity=2', 'capacity=8')" "$tmp/err"
shards "$tmp/so" 3 2 -- -n 30 --sweep models.apply.failureProbability=0.1,0.2,0.3 "$CAP"
expect_rc "sweep partials of another parameter are refused" 3 "$SIM" merge "$tmp/s-1.json" "$tmp/so-2.json" "$tmp/s-3.json"
shards "$tmp/plain" 3 2 -- -n 30 "$CAP"
check "a partial without sets stays schema v1" grep -q '"schema": "magos-sim/partial/v1"' "$tmp/plain-2.json"
check "... without the v2 fields" sh -c "! grep -q '\"sets\"\\|\"variant\"' '$tmp/plain-2.json'"
expect_rc "a base-only partial among sweep partials is refused" 3 "$SIM" merge "$tmp/s-1.json" "$tmp/plain-2.json" "$tmp/s-3.json"
check "... saying the base only" grep -q "against the base only)" "$tmp/err"
expect_rc "a --variant partial among variant partials is refused" 3 "$SIM" merge "$tmp/v-1.json" "$tmp/p-2.json" "$tmp/v-3.json"
check "... saying which variant" grep -q "they hold different variants (no --variant against --variant 'add a pilot wave')" "$tmp/err"
sed 's/"kind": "variant"/"kind": "bogus"/' "$tmp/v-2.json" >"$tmp/bogus.json"
expect_rc "a set of an unknown kind is refused" 3 "$SIM" merge "$tmp/v-1.json" "$tmp/bogus.json" "$tmp/v-3.json"
check "... saying so" grep -q "a set's kind 'bogus' is neither" "$tmp/err"
sed '/"kind": "sweep", "name": "capacity=4"/,$d' "$tmp/s-2.json" >"$tmp/cut.json"
expect_rc "a truncated partial is refused" 3 "$SIM" merge "$tmp/s-1.json" "$tmp/cut.json" "$tmp/s-3.json"
expect_rc "merge --csv of compare partials is a usage error" 2 sh -c \
	"'$SIM' compare -q -n 4 --shard 1/1 --json '$tmp/c.json' '$CAP' '$CAP' 2>/dev/null && '$SIM' merge --csv '$tmp/c.csv' '$tmp/c.json'"
expect_rc "run --shard with --csv is a usage error" 2 "$SIM" run -n 30 --shard 1/3 --csv "$tmp/x.csv" --json "$tmp/x.json" "$VAR"
check "... pointing at merge" grep -q -- "--csv: give --csv to merge" "$tmp/err"

# A given start rides in the partials (the UTC lines of merge are run's); shards
# of other starts do not belong together.
SCN3=scenarios/three-environments.yaml
expect_rc "a shard with --now" 0 "$SIM" run -n 6 --shard 1/2 --now 2026-05-01T10:00:00Z --json "$tmp/n-1.json" "$SCN3"
check "... writes its start" grep -q '"start_unix_ms": 1777629600000,' "$tmp/n-1.json"
expect_rc "the other shard at another --now" 0 "$SIM" run -n 6 --shard 2/2 --now 2026-05-01T11:00:00Z --json "$tmp/n-2.json" "$SCN3"
expect_rc "shards of two starts are refused" 3 "$SIM" merge "$tmp/n-1.json" "$tmp/n-2.json"
check "... saying the starts differ" grep -q "start their clocks at different instants" "$tmp/err"
# compare takes --now as run does: its shards carry it and merge into the unsharded table.
SNAP=scenarios/snapshot-shop-network.yaml
expect_rc "unsharded compare --now" 0 "$SIM" compare -q -n 6 --now 2026-11-30T14:20:00Z --json "$tmp/cn.json" "$SNAP" "$SNAP"
cp "$tmp/out" "$tmp/cn.txt"
expect_rc "a compare shard with --now" 0 "$SIM" compare -q -n 6 --shard 1/2 --now 2026-11-30T14:20:00Z --json "$tmp/cn-1.json" "$SNAP" "$SNAP"
check "... writes its start" grep -q '"start_unix_ms": 1796048400000,' "$tmp/cn-1.json"
expect_rc "the other compare shard" 0 "$SIM" compare -q -n 6 --shard 2/2 --now 2026-11-30T14:20:00Z --json "$tmp/cn-2.json" "$SNAP" "$SNAP"
expect_rc "merge of the compare shards with --now" 0 "$SIM" merge --json "$tmp/cnm.json" "$tmp/cn-2.json" "$tmp/cn-1.json"
check "... prints exactly the unsharded compare table" cmp -s "$tmp/cn.txt" "$tmp/out"
check "... and writes exactly its JSON" cmp -s "$tmp/cn.json" "$tmp/cnm.json"
expect_rc "a compare shard at another --now" 0 "$SIM" compare -q -n 6 --shard 2/2 --now 2026-11-30T14:30:00Z --json "$tmp/cn-3.json" "$SNAP" "$SNAP"
expect_rc "compare shards of two starts are refused" 3 "$SIM" merge "$tmp/cn-1.json" "$tmp/cn-3.json"
check "... saying the starts differ" grep -q "start their clocks at different instants" "$tmp/err"

finish
