#!/bin/sh
# `magos-sim run --trace FILE --mermaid FILE` end to end:
#   - golden files: the trace and the Mermaid block of one Magos example
#     (three-environments) and one fleet example (fleet-gate-halt) at fixed
#     seeds are byte for byte tests/golden/NAME.trace.json and
#     tests/golden/NAME.mermaid.md, the build's version and commit written
#     as VERSION and COMMIT (UPDATE=1 rewrites them; review the diff);
#   - every trace written here passes a validator of the trace event format
#     (python3): the JSON Object Format without displayTimeUnit (older
#     trace processors take it for the unit of ts), no tid 0, the fields
#     each phase type requires, X events with dur >= 0 that nest on their
#     thread and start in time order there, B/E balanced, instants with a
#     scope, counters with numeric args, process_name for every pid and
#     thread_name for every thread that has events;
#   - every Mermaid block is a ```mermaid fence holding an init directive
#     (the section labels' margin), `gantt`, a comment naming the version and
#     the commit, dateFormat
#     YYYY-MM-DD HH:mm:ss.SSS, task lines `NAME :TAGS, ID, START, END` with
#     zone-free dates from 2023-01-01 00:00, names carrying none of what
#     Mermaid's gantt lexer stops at (`:`, `#`, `;`, `%`) nor `<`, `>`, `&`,
#     none starting with a gantt keyword, and unique ids;
#   - bad input renders: a run with no targets, one target, names with `<`,
#     `&`, quotes, `:` `#` `;` and very long names, and a fleet past the
#     per-target threshold (2 100 StageSets: the trace switches to per-wave
#     counters and stays small).  The 100 000-StageSet fleet of
#     scripts/gen-fleet.sh takes minutes to simulate, so it runs only with
#     TRACE_100K=1 (the unit test test_spans renders a synthetic 100 000-
#     target run every time);
#   - the member model: the canary of fleet-gate-halt adopts 4.6.0 from
#     10m to 11m in the trace and the Mermaid block, and the trace's peak of
#     "adopting" members is trial 0's peak_adopting of `-n 2 --json`;
#   - usage and I/O errors: --trace with -n 2 exits 2, an unwritable path
#     exits 4 and leaves no file, two outputs naming one file and an empty
#     output path exit 2, --shard with --html names --html.
# Run from the repository root; MAGOS_SIM names the binary (make check sets it).
. "$(dirname "$0")/lib.sh"
GOLDEN=tests/golden
require_sim
require_python "to validate the traces"

# validate_trace FILE: the trace event format checks above; prints problems.
validate_trace() {
	python3 - "$1" <<'PY'
import json, sys

path = sys.argv[1]
with open(path, encoding="utf-8") as f:
    doc = json.load(f)
errs = []
def err(msg):
    if len(errs) < 20:
        errs.append(msg)
if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
    print("not the JSON Object Format: no traceEvents array")
    sys.exit(1)
if "displayTimeUnit" in doc:
    err("displayTimeUnit present (older trace processors read it as the unit of ts)")
procs, threads = set(), set()
used_p, used_t = set(), set()
last_x = {}
stacks = {}
be = {}
for n, e in enumerate(doc["traceEvents"]):
    where = "event %d" % n
    if not isinstance(e, dict):
        err(where + ": not an object"); continue
    ph = e.get("ph")
    for k in ("name", "ph", "pid", "tid"):
        if k not in e:
            err("%s: no %s" % (where, k))
    if not isinstance(e.get("name"), str):
        err(where + ": name not a string")
    if not isinstance(e.get("pid"), int) or not isinstance(e.get("tid"), int):
        err(where + ": pid/tid not integers")
    if e.get("tid") == 0:
        err(where + ": tid 0 (Perfetto merged tids 0 and 1 until 2025)")
    key = (e.get("pid"), e.get("tid"))
    if ph == "M":
        a = e.get("args", {})
        if e["name"] in ("process_name", "thread_name"):
            if not isinstance(a.get("name"), str):
                err(where + ": %s without args.name" % e["name"])
            (procs if e["name"] == "process_name" else threads).add(
                e["pid"] if e["name"] == "process_name" else key)
        elif e["name"] in ("process_sort_index", "thread_sort_index"):
            if not isinstance(a.get("sort_index"), int):
                err(where + ": sort index not an integer")
        else:
            err(where + ": unknown metadata " + e["name"])
        continue
    ts = e.get("ts")
    if not isinstance(ts, (int, float)) or ts < 0:
        err(where + ": ts missing or negative")
        continue
    used_p.add(e["pid"])
    if ph == "X":
        d = e.get("dur")
        if not isinstance(d, (int, float)) or d < 0:
            err(where + ": X without dur >= 0"); continue
        if ts < last_x.get(key, 0):
            err(where + ": X ts goes back on thread %s" % (key,))
        last_x[key] = ts
        st = stacks.setdefault(key, [])
        while st and st[-1] <= ts:
            st.pop()
        if st and ts + d > st[-1]:
            err(where + ": X overlaps without nesting on thread %s" % (key,))
        st.append(ts + d)
        used_t.add(key)
    elif ph in ("B", "E"):
        be[key] = be.get(key, 0) + (1 if ph == "B" else -1)
        if be[key] < 0:
            err(where + ": E without B")
        used_t.add(key)
    elif ph == "i" or ph == "I":
        if e.get("s", "t") not in ("g", "p", "t"):
            err(where + ": instant scope not g/p/t")
        if e.get("s", "t") == "t":
            used_t.add(key)
    elif ph == "C":
        a = e.get("args")
        if not isinstance(a, dict) or not a or not all(
                isinstance(v, (int, float)) for v in a.values()):
            err(where + ": counter args not numbers")
    else:
        err(where + ": unexpected phase %r" % ph)
for k, v in be.items():
    if v:
        err("thread %s: %d B without E" % (k, v))
for p in sorted(used_p - procs):
    err("pid %d has events but no process_name" % p)
for t in sorted(used_t - threads):
    err("thread %s has events but no thread_name" % (t,))
for m in errs:
    print(m)
sys.exit(1 if errs else 0)
PY
}

# validate_mermaid FILE: the Mermaid checks above.
validate_mermaid() {
	python3 - "$1" <<'PY'
import re, sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
errs = []
# The fence, the init directive that widens the section labels' margin, gantt,
# then a comment naming the version and commit.
if lines[0] != "```mermaid" or lines[2] != "gantt" or \
        not re.fullmatch(r'%%\{init: \{"gantt": \{"leftPadding": \d+\}\}\}%%', lines[1]) or \
        not re.fullmatch(r"    %% magos-sim \S+ \(commit \S+\)", lines[3]):
    errs.append("does not open with ```mermaid, the init directive, gantt and the version comment")
lines = [lines[0]] + lines[2:3] + lines[4:]
if "```" not in lines[2:]:
    errs.append("no closing fence")
if "    dateFormat YYYY-MM-DD HH:mm:ss.SSS" not in lines:
    errs.append("no dateFormat YYYY-MM-DD HH:mm:ss.SSS")
# What Mermaid's gantt lexer ends a name at (:, #, ;), a comment (%), markup.
forbidden = r'[:#;%<>&]'
keyword = re.compile(r'(gantt|(dateFormat|axisFormat|tickInterval|includes|excludes|todayMarker|weekday|title|section|click|call|href)\s|\d\d\d\d-\d\d-\d\d)', re.I)
date = r"2023-\d\d-\d\d \d\d:\d\d:\d\d\.\d\d\d"
ids = set()
tasks = 0
for l in lines[2:]:
    if l in ("```", "") or l.startswith("    title ") or l.startswith("    dateFormat") \
            or l.startswith("    axisFormat") or l.startswith("    section "):
        body = l[len("    section "):] if l.startswith("    section ") else \
            (l[len("    title "):] if l.startswith("    title ") else "")
        if re.search(forbidden, body):
            errs.append("unescaped text: " + l)
        continue
    m = re.fullmatch(r"    (.+?) :((?:[a-z]+, )*)([A-Za-z0-9]+), (%s), (%s)" % (date, date), l)
    if not m:
        errs.append("not a task line: " + l); continue
    name, _, tid, s, e = m.groups()
    tasks += 1
    if re.search(forbidden, name):
        errs.append("unescaped name: " + name)
    if keyword.match(name):
        errs.append("name starts with a gantt keyword: " + name)
    if tid in ids:
        errs.append("duplicate id " + tid)
    ids.add(tid)
    if e <= s:
        errs.append("empty bar: " + l)
if not tasks:
    errs.append("no task")
for m in errs[:20]:
    print(m)
sys.exit(1 if errs else 0)
PY
}

# render NAME SCENARIO [ARGS...]: runs with --trace/--mermaid into $tmp and validates both.
render() {
	name=$1
	scn=$2
	shift 2
	if "$SIM" run -q --trace "$tmp/$name.trace.json" --mermaid "$tmp/$name.mermaid.md" "$@" \
		"$scn" >"$tmp/$name.out" 2>"$tmp/$name.err"; then
		ok "$name: run writes the trace and the Mermaid block"
	else
		bad "$name: run exits $?"
		show "$tmp/$name.err"
		return
	fi
	if validate_trace "$tmp/$name.trace.json" >"$tmp/$name.tv" 2>&1; then
		ok "$name: the trace validates"
	else
		bad "$name: the trace does not validate"
		show "$tmp/$name.tv" 10
	fi
	if validate_mermaid "$tmp/$name.mermaid.md" >"$tmp/$name.mv" 2>&1; then
		ok "$name: the Mermaid block validates"
	else
		bad "$name: the Mermaid block does not validate"
		show "$tmp/$name.mv" 10
	fi
}

# normalise FILE: the build's version and commit as VERSION and COMMIT, in place.
normalise() {
	sed -i -e 's/"tool":{"name":"magos-sim","version":"[^"]*","commit":"[^"]*"}/"tool":{"name":"magos-sim","version":"VERSION","commit":"COMMIT"}/' \
		-e 's/^    %% magos-sim .* (commit .*)$/    %% magos-sim VERSION (commit COMMIT)/' "$1"
}

# golden NAME SCENARIO SEED: render, then compare with (or, UPDATE=1, rewrite) the golden files.
golden() {
	render "$1" "$2" -s "$3"
	for kind in trace.json mermaid.md; do
		g="$GOLDEN/$1.$kind"
		normalise "$tmp/$1.$kind"
		if [ "${UPDATE:-0}" = 1 ]; then
			mkdir -p "$GOLDEN" && cp "$tmp/$1.$kind" "$g"
			ok "$1: $g rewritten"
		elif cmp -s "$tmp/$1.$kind" "$g"; then
			ok "$1: the $kind is $g byte for byte"
		else
			bad "$1: the $kind differs from $g (UPDATE=1 rewrites it)"
			diff "$g" "$tmp/$1.$kind" | head -10 | sed 's/^/     /'
		fi
	done
}

golden three-environments scenarios/three-environments.yaml 7
golden fleet-gate-halt scenarios/fleet-gate-halt.yaml 3

# The golden trace says what a reader looks for: the steps, the halt, the gate.
python3 - "$tmp/three-environments.trace.json" "$tmp/fleet-gate-halt.trace.json" <<'PY' >"$tmp/facts" 2>&1
import json, sys
m = json.load(open(sys.argv[1]))["traceEvents"]
f = json.load(open(sys.argv[2]))["traceEvents"]
def names(ev, ph):
    return [e["name"] for e in ev if e["ph"] == ph]
assert "Rollout default/shop" in [e["args"]["name"] for e in m if e["name"] == "process_name"]
assert names(m, "X")[:3] == ["planning", "applying", "applied"], names(m, "X")[:3]
steps = [e for e in m if e["ph"] == "X" and e["name"].startswith("step ")]
assert [s["name"] for s in steps] == ["step dev", "step staging", "step prod"]
assert steps[1]["ts"] == 344196000 and steps[1]["dur"] == 425954000, steps[1]
halts = [e for e in f if e["ph"] == "i" and e["name"] == "halt"]
assert len(halts) == 1 and halts[0]["ts"] == 1261000000 and halts[0]["s"] == "p", halts
gates = [e for e in f if e["ph"] == "i" and e["name"].startswith("gate ")]
assert gates[0]["name"] == "gate Failing" and gates[0]["args"]["max"] == "0.01", gates[0]
assert any(e["ph"] == "C" and e["name"] == "gate canary" for e in f)
assert any(e["ph"] == "C" and e["name"] == "adopting" and "members" in e["args"] for e in f)
PY
if [ $? -eq 0 ]; then ok "the golden traces hold the steps, the halt, the gate and the counters"; else
	bad "the golden traces lack what a reader looks for"; sed 's/^/     /' "$tmp/facts" | tail -3
fi

# ---- bad input -------------------------------------------------------------

cat >"$tmp/empty.yaml" <<'EOF'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: empty}
spec: {seed: 1, horizon: 1h}
---
# (a Scenario with no object at all is refused: nothing to simulate)
apiVersion: v1
kind: Namespace
metadata: {name: quiet}
EOF
render no-targets "$tmp/empty.yaml"
if grep -q '"targets":0' "$tmp/no-targets.trace.json" && grep -q ':r0, 2023-01-01 00:00:00.000, 2023-01-01 00:00:00.001$' "$tmp/no-targets.mermaid.md"; then
	ok "no-targets: an empty trace and a one-bar chart"
else bad "no-targets: unexpected output"; fi

workspace() { # NAME LABEL
	cat <<EOF
---
apiVersion: magosproject.io/v1alpha1
kind: Workspace
metadata: {name: $1, namespace: default, labels: {env: $2}}
spec:
  projectRef: {name: shop}
  source: {repoURL: https://git.example.com/shop/infra.git, targetRevision: main}
  terraform: {version: "1.14.8"}
EOF
}
long=shop-prod-with-a-very-long-name-$(printf 'abcdefghij%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22)
{
	cat <<'EOF'
apiVersion: magos-sim/v1alpha1
kind: Scenario
metadata: {name: 'odd <names> & "quotes": #1; 50% `x`'}
spec: {seed: 5, horizon: 2h}
---
apiVersion: magosproject.io/v1alpha1
kind: Project
metadata: {name: shop, namespace: default}
spec: {}
---
apiVersion: magosproject.io/v1alpha1
kind: Rollout
metadata: {name: shop, namespace: default}
spec:
  projectRef: shop
  strategy:
    steps:
      - name: 'dev <a> & "b": #c; 100% {x}'
        selector: {matchLabels: {env: dev}}
      - name: 'a-step-name-that-goes-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-é-ü-日本'
        selector: {matchLabels: {env: prod}}
EOF
	workspace shop-dev dev
	workspace "$long" prod
} >"$tmp/odd.yaml"
{
	sed -n '1,/^      - name: .dev/p' "$tmp/odd.yaml" | sed '$d' | sed 's/^metadata: {name: .odd.*/metadata: {name: one}/'
	cat <<'EOF'
      - name: dev
        selector: {matchLabels: {env: dev}}
EOF
	workspace shop-dev dev
} >"$tmp/one.yaml"
render one-target "$tmp/one.yaml"
if grep -q '"targets":1' "$tmp/one-target.trace.json" &&
	grep -q '^    default/shop-dev - planning :done, d0t0p0, ' "$tmp/one-target.mermaid.md" &&
	grep -q '^    default/shop-dev - applying :done, d0t0p1, ' "$tmp/one-target.mermaid.md"; then
	ok "one-target: one thread, one target bar per busy phase"
else bad "one-target: unexpected output"; fi

render odd-names "$tmp/odd.yaml"
python3 - "$tmp/odd-names.trace.json" "$long" <<'PY' >"$tmp/odd.facts" 2>&1
import json, sys
d = json.load(open(sys.argv[1]))
names = {e["args"]["name"] for e in d["traceEvents"] if e["name"] == "thread_name"}
assert 'step dev <a> & "b": #c; 100% {x}' in names, names
assert "default/" + sys.argv[2] in names, "the long name is kept whole in the trace"
assert any("日本" in n for n in names), names
assert d["otherData"]["scenario"] == 'odd <names> & "quotes": #1; 50% `x`'
PY
if [ $? -eq 0 ]; then ok "odd-names: the trace keeps every name exactly"; else
	bad "odd-names: names changed in the trace"; sed 's/^/     /' "$tmp/odd.facts" | tail -3; fi
if grep -q '^    step dev ‹a› ＆ "b"∶ ＃c； 100％ {x} (' "$tmp/odd-names.mermaid.md" &&
	grep -q '^    title odd ‹names› ＆ "quotes"∶ ＃1； 50％ `x`, seed 5' "$tmp/odd-names.mermaid.md" &&
	grep -q '^    default/shop-prod-with-a-very-long-name-abcdefghijabcdefghij\.\.\. - applying :done' "$tmp/odd-names.mermaid.md"; then
	ok "odd-names: Mermaid names escaped and long ones cut"
else bad "odd-names: Mermaid names not escaped or cut"; sed 's/^/     /' "$tmp/odd-names.mermaid.md"; fi

# Past the per-target threshold (REP_TRACE_MAX_TARGETS = 2000): per-wave counters.
sh scripts/gen-fleet.sh 2100 30 3 >"$tmp/fleet2100.yaml"
render fleet-2100 "$tmp/fleet2100.yaml"
python3 - "$tmp/fleet-2100.trace.json" <<'PY' >"$tmp/agg.facts" 2>&1
import json, os, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
assert d["otherData"]["aggregated"] is True and d["otherData"]["targets"] == 2100
assert not any(e["ph"] == "X" and e.get("cat") == "phase" for e in ev), "per-target bars"
members = [e for e in ev if e["ph"] == "C" and e["name"] == "wave-0 members"]
assert members and set(members[0]["args"]) >= {"ready", "adopting", "awaiting approval"}
assert max(sum(e["args"].values()) for e in members) == 700, "wave-0 counts its 700 members"
assert len(members) <= 401
assert os.path.getsize(sys.argv[1]) < 2000000, os.path.getsize(sys.argv[1])
PY
if [ $? -eq 0 ]; then ok "fleet-2100: per-wave member counters instead of 2100 threads"; else
	bad "fleet-2100: not aggregated as documented"; sed 's/^/     /' "$tmp/agg.facts" | tail -3; fi
if grep -q '^    wave-0 - 700 of 700 ran, 700 ready :d0s0, ' "$tmp/fleet-2100.mermaid.md" &&
	[ "$(grep -c ' :' "$tmp/fleet-2100.mermaid.md")" -le 12 ]; then
	ok "fleet-2100: the Mermaid block summarises per wave"
else bad "fleet-2100: the Mermaid block lists too much"; head -20 "$tmp/fleet-2100.mermaid.md"; fi

if [ "${TRACE_100K:-0}" = 1 ]; then
	sh scripts/gen-fleet.sh 100000 100 10 >"$tmp/fleet100k.yaml"
	render fleet-100k "$tmp/fleet100k.yaml"
	size=$(wc -c <"$tmp/fleet-100k.trace.json")
	if [ "$size" -lt 5000000 ]; then ok "fleet-100k: the trace is $size bytes"; else
		bad "fleet-100k: the trace is $size bytes"; fi
fi

# ---- usage and I/O errors --------------------------------------------------

"$SIM" run -q -n 2 --trace "$tmp/n2.json" scenarios/three-environments.yaml >/dev/null 2>"$tmp/n2.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q 'single run' "$tmp/n2.err" && [ ! -e "$tmp/n2.json" ]; then
	ok "--trace with -n 2 is a usage error"
else bad "--trace with -n 2 exits $rc"; fi
"$SIM" run -q --mermaid "$tmp/no/such/dir/m.md" scenarios/three-environments.yaml >/dev/null 2>"$tmp/io.err"
rc=$?
if [ "$rc" -eq 4 ] && grep -q "cannot write '$tmp/no/such/dir/m.md'" "$tmp/io.err"; then
	ok "an unwritable --mermaid path exits 4 and names the file"
else bad "an unwritable --mermaid path exits $rc"; cat "$tmp/io.err"; fi

# Two outputs on one file, an empty output path: usage errors, nothing written.
for args in "--html $tmp/same.out --trace $tmp/same.out" "--json $tmp/same.out --csv ./$tmp/same.out" \
	"--mermaid $tmp/same.out --json $tmp/same.out"; do
	# shellcheck disable=SC2086
	"$SIM" run -q $args scenarios/three-environments.yaml >/dev/null 2>"$tmp/same.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "both write to" "$tmp/same.err" && [ ! -e "$tmp/same.out" ]; then
		ok "two outputs on one file are a usage error ($args)"
	else bad "two outputs on one file exit $rc ($args)"; cat "$tmp/same.err"; fi
done
# "-" is a stream that replaces the terminal report (README): standard output
# holds the one document and nothing after it, for one run and for trials.
for args in "--html" "--trace" "--mermaid" "--json" "--csv" "--events" "-n 3 --html"; do
	# shellcheck disable=SC2086
	"$SIM" run -q $args "$tmp/dash.file" scenarios/three-environments.yaml >/dev/null 2>&1
	# shellcheck disable=SC2086
	"$SIM" run $args - scenarios/three-environments.yaml >"$tmp/dash.out" 2>/dev/null
	if cmp -s "$tmp/dash.file" "$tmp/dash.out"; then ok "run $args -: standard output holds the document alone"
	else bad "run $args -: standard output is not the document alone"; tail -n 3 "$tmp/dash.out"; fi
done
"$SIM" run --html - --trace - scenarios/three-environments.yaml >"$tmp/dash.out" 2>"$tmp/dash.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/dash.out" ] && grep -q -- "--html - and --trace - both write to stdout" "$tmp/dash.err"; then
	ok "two outputs on '-' are a usage error"
else bad "two outputs on '-' exit $rc"; cat "$tmp/dash.err"; fi
"$SIM" compare -n 2 --html - --json - scenarios/three-environments.yaml scenarios/three-environments.yaml \
	>"$tmp/dash.out" 2>"$tmp/dash.err"
rc=$?
if [ "$rc" -eq 2 ] && [ ! -s "$tmp/dash.out" ] && grep -q -- "--json - and --html - both write to stdout" "$tmp/dash.err"; then
	ok "compare: --json - with --html - is a usage error"
else bad "compare: --json - with --html - exits $rc"; cat "$tmp/dash.err"; fi
"$SIM" compare -n 2 --html - scenarios/three-environments.yaml scenarios/three-environments.yaml \
	>"$tmp/dash.out" 2>/dev/null
check "compare --html - ends with the page (no table after it)" test "$(tail -n 1 "$tmp/dash.out")" = "</html>"
for opt in --html --trace --mermaid --json --csv; do
	"$SIM" run -q "$opt" '' scenarios/three-environments.yaml >/dev/null 2>"$tmp/empty.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q -- "$opt needs a file name" "$tmp/empty.err"; then
		ok "$opt '' is a usage error"
	else bad "$opt '' exits $rc"; cat "$tmp/empty.err"; fi
done
"$SIM" run --shard 1/2 -n 10 --html "$tmp/x.html" scenarios/fleet-gate-halt.yaml >/dev/null 2>"$tmp/shard.err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q -- '--html draws the whole run, not a shard' "$tmp/shard.err"; then
	ok "--shard with --html names --html"
else bad "--shard with --html exits $rc"; cat "$tmp/shard.err"; fi

# ---- the StageSet controller's adoption attempts ------------------------------

"$SIM" run -q -n 2 -j 1 --json "$tmp/mc.json" scenarios/fleet-gate-halt.yaml >/dev/null 2>&1
python3 - "$GOLDEN/fleet-gate-halt.trace.json" "$tmp/mc.json" <<'PY' >"$tmp/members.facts" 2>&1
import json, sys
t = json.load(open(sys.argv[1]))["traceEvents"]
names = {(e["pid"], e["tid"]): e["args"]["name"] for e in t if e["name"] == "thread_name"}
canary = [(e["name"], e["ts"] // 1000, (e["ts"] + e["dur"]) // 1000) for e in t
          if e["ph"] == "X" and names.get((e["pid"], e["tid"])) == "tenant-00/moodle"]
assert canary == [("adopting", 5, 61005), ("ready", 61005, 600000),
                  ("adopting", 600000, 661000), ("ready", 661000, 3844000)], canary
peak = max(e["args"]["members"] for e in t if e["ph"] == "C" and e["name"] == "adopting")
trial0 = json.load(open(sys.argv[2]))["trials"][0]
assert trial0["peak_adopting"] == peak == 4, (trial0["peak_adopting"], peak)
PY
if [ $? -eq 0 ]; then ok "the canary adopts 4.6.0 at 10m; peak adopting 4 in the trace and trial 0"; else
	bad "the StageSet controller's adoption attempts"; sed 's/^/     /' "$tmp/members.facts" | tail -3; fi
if grep -q '^    tenant-00/moodle - adopting :done, d0t0p3, 2023-01-01 00:10:00.000, 2023-01-01 00:11:01.000$' \
	"$GOLDEN/fleet-gate-halt.mermaid.md"; then
	ok "the Mermaid block draws the canary's adoption of 4.6.0 at 10m"
else bad "the Mermaid block lacks the canary's adoption at 10m"; fi

finish
