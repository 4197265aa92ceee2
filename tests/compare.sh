#!/bin/sh
# End-to-end checks of `magos-sim compare`, `--shard K/N` and `merge`: a head
# whose prod apply is slower fails --max-regression, the same head passes;
# JSON and Markdown outputs; shard + merge print exactly the unsharded output
# (run and compare, in any file order); bad shards, garbage and partials that
# do not belong together are refused with a clear message.
. "$(dirname "$0")/lib.sh"
SCN=scenarios/three-environments.yaml

# The head: prod applies take 15m on average instead of 10m.
sed 's/gamma: {mean: 10m, sd: 3m}/gamma: {mean: 15m, sd: 3m}/' "$SCN" >"$tmp/slow.yaml"
check "the slow head differs from the base" test -n "$(cmp "$SCN" "$tmp/slow.yaml" 2>&1)"
cp "$SCN" "$tmp/same.yaml"
sed 's/seed: 7/seed: 8/' "$SCN" >"$tmp/seed8.yaml"

# --- compare -------------------------------------------------------------
expect_rc "a slower head fails --max-regression p95=10%" 1 \
	"$SIM" compare -n 30 --max-regression p95=10% --json "$tmp/c.json" --markdown "$tmp/c.md" \
	"$SCN" "$tmp/slow.yaml"
cp "$tmp/out" "$tmp/slow.txt"
check "stderr says which limit failed" grep -q "breaks --max-regression p95=10%" "$tmp/err"
check "the table says FAILED with the figures" \
	grep -qE "^max-regression p95=10%: FAILED: head worse by \+[0-9.]+% \(limit 10%\), significant" "$tmp/slow.txt"
check "the p95 row is significant" grep -qE "^ttc p95 .* yes " "$tmp/slow.txt"
check "the table names the methods" grep -q "paired bootstrap resamples (PCG32, seed 7)" "$tmp/slow.txt"
check "every table line fits 80 columns" test "$(awk 'length($0) > 80' "$tmp/slow.txt" | wc -l)" -eq 0
check "the JSON names its schema" grep -q '"schema": "magos-sim/compare/v1"' "$tmp/c.json"
check "the JSON says failed" grep -q '^  "failed": true' "$tmp/c.json"
if command -v python3 >/dev/null 2>&1; then
	check "the JSON parses, p95 worse" python3 -c "
import json,sys
d=json.load(open(sys.argv[1]))
m={x['key']:x for x in d['metrics']}
assert d['n']==30 and m['p95']['worse'] and m['p95']['delta']>0 and m['p95']['method']=='bootstrap'
assert m['haltProbability']['method']=='McNemar exact' and d['limits'][0]=={'limit':'p95=10%','metric':'p95','failed':True}
" "$tmp/c.json"
fi
check "the Markdown is a table" grep -q '^| metric | base | head | delta | % | significant | 95% CI / p |$' "$tmp/c.md"
check "the Markdown marks the failed limit" grep -q '^- `--max-regression p95=10%`: \*\*failed\*\*' "$tmp/c.md"

expect_rc "the same head passes the same limits" 0 \
	"$SIM" compare -n 30 --max-regression p95=10%,p50=1m,mean=5%,haltProbability=0.05,blastRadius=1 \
	"$SCN" "$tmp/same.yaml"
check "nothing is significant against itself" test "$(grep -c ' yes ' "$tmp/out")" -eq 0
check "every limit is ok" test "$(grep -c '^max-regression .*: ok ' "$tmp/out")" -eq 5
expect_rc "a generous limit passes the slow head" 0 \
	"$SIM" compare -n 30 --max-regression p95=50% "$SCN" "$tmp/slow.yaml"
expect_rc "compare is deterministic (-j 1 vs -j 2)" 0 sh -c \
	"'$SIM' compare -n 30 -j 1 --json - '$SCN' '$tmp/slow.yaml' >'$tmp/j1.json'; \
	 '$SIM' compare -n 30 -j 2 --json - '$SCN' '$tmp/slow.yaml' >'$tmp/j2.json'; \
	 cmp '$tmp/j1.json' '$tmp/j2.json'"

# A head that runs out of its event budget: counted, said, and a completion regression.
sed 's/^  seed: 7$/  seed: 7\n  limits: {eventBudget: 150}/' "$SCN" >"$tmp/b150.yaml"
expect_rc "a head stopped by its budget fails p50=1%" 1 \
	"$SIM" compare -n 12 --max-regression haltProbability=0.5,p50=1% "$SCN" "$tmp/b150.yaml"
check "the table says how many head trials a bound stopped" \
	grep -q "^note: head: 12 trials stopped by a bound" "$tmp/out"
check "the completion probability fell significantly" grep -qE "^P\(complete\) +100.0% +0.0% +-100.0pp +yes +p=0.000488" "$tmp/out"

expect_rc "compare with one input is a usage error" 2 "$SIM" compare "$SCN"
# the worked pair of scenarios/compare/ (the README's session)
expect_rc "the worked pair fails p95=10%" 1 "$SIM" compare -n 30 --max-regression p95=10%,haltProbability=5% \
	scenarios/compare/base.yaml scenarios/compare/head.yaml
check "... names both scenarios" grep -q "^Compare: base 'shop-prod-apply-10m' vs head 'shop-prod-apply-15m'" "$tmp/out"
check "a probability limit written 5% is accepted and shown in pp, as its change" \
	grep -q "^max-regression haltProbability=5%: ok (+0.0pp, limit 5.0pp, not significant)" "$tmp/out"
expect_rc "haltProbability=0.05 reads the same" 0 "$SIM" compare -n 10 --max-regression haltProbability=0.05 "$SCN" "$SCN"
check "... in pp" grep -q "^max-regression haltProbability=0.05: ok (+0.0pp, limit 5.0pp" "$tmp/out"
expect_rc "a negative percentage is a usage error" 2 "$SIM" compare --max-regression p95=-5% "$SCN" "$SCN"
check "... that offers both forms" grep -q "invalid limit '-5%' for 'p95': expected a percentage like 10% or a duration like 5m" "$tmp/err"
expect_rc "a probability above 100% is a usage error" 2 "$SIM" compare --max-regression haltProbability=120% "$SCN" "$SCN"
check "... that offers both forms" grep -q "expected an absolute probability from 0 to 1, like 0.05 or 5%" "$tmp/err"
expect_rc "an empty compare shard" 0 "$SIM" compare -n 2 --shard 1/3 --json "$tmp/ce.json" "$SCN" "$SCN"
check "... says there are no trials in it" grep -q "compare: shard 1/3: no trials in this slice of 2 (0 written to" "$tmp/err"

expect_rc "an unknown metric is a usage error" 2 "$SIM" compare --max-regression p42=1% "$SCN" "$SCN"
check "it names the metric" grep -q "unknown metric 'p42'" "$tmp/err"
expect_rc "a ratio limit above 1 is a usage error" 2 "$SIM" compare --max-regression haltProbability=2 "$SCN" "$SCN"
expect_rc "a limit without = is a usage error" 2 "$SIM" compare --max-regression p95 "$SCN" "$SCN"
expect_rc "-n 0 is a usage error" 2 "$SIM" compare -n 0 "$SCN" "$SCN"
expect_rc "--json - with --markdown - is a usage error" 2 "$SIM" compare --json - --markdown - "$SCN" "$SCN"

# --- shards --------------------------------------------------------------
for bad_shard in 0/3 4/3 1/0 garbage 1/ /3 -1/3 1/3x; do
	expect_rc "run --shard $bad_shard is a usage error" 2 "$SIM" run -n 9 --shard "$bad_shard" --json "$tmp/x.json" "$SCN"
done
expect_rc "compare --shard 4/3 is a usage error" 2 "$SIM" compare -n 9 --shard 4/3 --json "$tmp/x.json" "$SCN" "$SCN"
expect_rc "run --shard without --json is a usage error" 2 "$SIM" run -n 9 --shard 1/3 "$SCN"
check "it asks for --json" grep -q -- "--shard writes its partial result to --json FILE" "$tmp/err"

"$SIM" run -n 30 "$SCN" >"$tmp/run.txt" 2>/dev/null
"$SIM" run -n 30 --json "$tmp/run.json" "$SCN" >/dev/null 2>&1
for k in 1 2 3; do
	expect_rc "run --shard $k/3 writes a partial" 0 "$SIM" run -n 30 --shard $k/3 --json "$tmp/r$k.json" "$SCN"
done
check "the shard names its slice on stderr" grep -q "shard 3/3: trials 20..29 of 30 written" "$tmp/err"
check "a partial names its schema" grep -q '"schema": "magos-sim/partial/v1"' "$tmp/r1.json"
expect_rc "merge of 3 run shards" 0 "$SIM" merge "$tmp/r3.json" "$tmp/r1.json" "$tmp/r2.json"
check "merge prints exactly the unsharded tables" cmp -s "$tmp/run.txt" "$tmp/out"
expect_rc "merge --json of 3 run shards" 0 "$SIM" merge --json "$tmp/merged.json" "$tmp/r1.json" "$tmp/r2.json" "$tmp/r3.json"
check "merge --json writes exactly the unsharded JSON" cmp -s "$tmp/run.json" "$tmp/merged.json"

"$SIM" compare -n 30 --max-regression p95=10% "$SCN" "$tmp/slow.yaml" >"$tmp/cmp.txt" 2>/dev/null
for k in 1 2 3; do
	"$SIM" compare -n 30 --shard $k/3 --json "$tmp/c$k.json" "$SCN" "$tmp/slow.yaml" 2>/dev/null
done
expect_rc "merge of 3 compare shards keeps the verdict" 1 "$SIM" merge --max-regression p95=10% \
	"$tmp/c2.json" "$tmp/c3.json" "$tmp/c1.json"
check "merge prints exactly the unsharded comparison" cmp -s "$tmp/cmp.txt" "$tmp/out"
"$SIM" compare -n 30 --json "$tmp/cmp.json" "$SCN" "$tmp/slow.yaml" >/dev/null 2>&1
"$SIM" merge --json "$tmp/cmpm.json" "$tmp/c1.json" "$tmp/c2.json" "$tmp/c3.json" >/dev/null 2>&1
check "merge --json writes exactly the unsharded comparison JSON" cmp -s "$tmp/cmp.json" "$tmp/cmpm.json"

# More shards than trials: the empty slices are allowed and merge all the same.
"$SIM" run -n 3 "$SCN" >"$tmp/n3.txt" 2>/dev/null
for k in 1 2 3 4 5; do
	"$SIM" run -q -n 3 --shard $k/5 --json "$tmp/e$k.json" "$SCN" 2>/dev/null
done
check "shard 1/5 of 3 trials is empty" grep -q '"n": 0,' "$tmp/e1.json"
expect_rc "merge of 5 shards of 3 trials" 0 "$SIM" merge "$tmp"/e[1-5].json
check "it prints exactly the unsharded tables" cmp -s "$tmp/n3.txt" "$tmp/out"

# --- merge: bad input ----------------------------------------------------
expect_rc "merge without files is a usage error" 2 "$SIM" merge
echo "garbage" >"$tmp/garbage.json"
expect_rc "merging garbage is invalid input" 3 "$SIM" merge "$tmp/garbage.json"
check "it names the file" grep -q "'$tmp/garbage.json': not JSON" "$tmp/err"
expect_rc "merging a trials document is invalid input" 3 "$SIM" merge "$tmp/run.json"
check "it names the schema" grep -q "not a magos-sim partial result" "$tmp/err"
expect_rc "a missing slice is refused" 3 "$SIM" merge "$tmp/r1.json" "$tmp/r3.json"
check "it names the missing trials" grep -q "trials 10..19 of 30 are missing" "$tmp/err"
cp "$tmp/r2.json" "$tmp/r2-copy.json"
expect_rc "an overlapping slice is refused" 3 "$SIM" merge "$tmp/r1.json" "$tmp/r2.json" "$tmp/r2-copy.json" "$tmp/r3.json"
check "it names the overlap" grep -q "overlaps" "$tmp/err"
expect_rc "a slice named twice is a usage error" 2 "$SIM" merge "$tmp/r1.json" "$tmp/r2.json" "$tmp/r2.json" "$tmp/r3.json"
check "it says so" grep -q "is given twice" "$tmp/err"
"$SIM" run -n 30 --shard 2/3 --seed 99 --json "$tmp/seed99.json" "$SCN" 2>/dev/null
expect_rc "partials with other seeds are refused" 3 "$SIM" merge "$tmp/r1.json" "$tmp/seed99.json" "$tmp/r3.json"
check "it says the seeds differ" grep -q "they have different seeds" "$tmp/err"
"$SIM" run -n 30 --shard 2/3 --json "$tmp/slow2.json" "$tmp/slow.yaml" 2>/dev/null
expect_rc "partials of another scenario file are refused" 3 "$SIM" merge "$tmp/r1.json" "$tmp/slow2.json" "$tmp/r3.json"
check "it says the digests differ" grep -q "digests differ" "$tmp/err"
"$SIM" run -n 30 --shard 2/3 --json "$tmp/other.json" scenarios/staging-failure-halts.yaml 2>/dev/null
expect_rc "partials of different scenarios are refused" 3 "$SIM" merge "$tmp/r1.json" "$tmp/other.json" "$tmp/r3.json"
check "it says the scenarios differ" grep -q "come from different scenarios" "$tmp/err"
"$SIM" run -n 31 --shard 2/3 --json "$tmp/n31.json" "$SCN" 2>/dev/null
expect_rc "partials of other trial counts are refused" 3 "$SIM" merge "$tmp/r1.json" "$tmp/n31.json" "$tmp/r3.json"
expect_rc "run and compare partials do not mix" 3 "$SIM" merge "$tmp/r1.json" "$tmp/c2.json"
expect_rc "--max-regression on run partials is a usage error" 2 "$SIM" merge --max-regression p95=1% "$tmp/r1.json" "$tmp/r2.json" "$tmp/r3.json"

# One pair of trials has no spread: no interval, nothing significant, and
# the table says so (a one-sample bootstrap used to mark every percentile).
"$SIM" compare -n 1 scenarios/compare/base.yaml scenarios/compare/head.yaml >"$tmp/one.txt" 2>&1
if grep -E '^ttc (p[0-9]+|mean) ' "$tmp/one.txt" | grep -qv ' no   - *$'; then
	bad "compare -n 1 marks nothing significant and shows no interval"; show "$tmp/one.txt"
else ok "compare -n 1 marks nothing significant and shows no interval"; fi
contains "compare -n 1 says why" "$tmp/one.txt" "nothing can be significant (-n 30 or more)"
expect_rc "compare -n 1 --max-regression passes: nothing significant" 0 "$SIM" compare -n 1 \
	--max-regression p95=1% scenarios/compare/base.yaml scenarios/compare/head.yaml

# HEAD's own seed and horizon are replaced by BASE's (common random
# numbers): said once, at run time; so is a comparison of the two engines.
expect_rc "compare of a Magos BASE and a fleet HEAD" 0 "$SIM" compare -n 2 scenarios/three-environments.yaml scenarios/fleet-gate-halt.yaml
has_line "... names HEAD's seed and horizon it does not use" "$tmp/err" "magos-sim compare: note: HEAD's seed 3 (BASE's: 7) and horizon 4h0m0s (BASE's: 1h0m0s) not used: both sides run with BASE's, for common random numbers (--seed and --horizon choose them)"
has_line "... and says the engines differ" "$tmp/err" "magos-sim compare: note: BASE drives the Magos engine and HEAD the fleet engine: their times compare different controllers"
expect_rc "compare with --seed and --horizon given" 0 "$SIM" compare -n 2 --seed 3 --horizon 1h scenarios/three-environments.yaml scenarios/fleet-gate-halt.yaml
lacks "... overrides nothing of HEAD's without saying so" "$tmp/err" "not used"
expect_rc "compare of a scenario with itself" 0 "$SIM" compare -n 2 scenarios/three-environments.yaml scenarios/three-environments.yaml
check "... notes nothing" test ! -s "$tmp/err"

finish
