#!/bin/sh
# The outputs checked by the tools that read them (the browser ones are in
# tests/browser.sh, the JSON Schemas in tests/schemas.sh):
#   - JUnit XML (check --junit) by xmllint against Jenkins' xunit junit-10.xsd
#     and Apache Ant's JUnit.xsd (tests/junit/);
#   - the Markdown of check --summary and compare --markdown rendered by a GFM
#     renderer (marked, tests/consumers/render-md.js) and compared as text;
#   - the Chrome trace checked strictly against the Trace Event Format
#     (tests/consumers/check-trace.js);
#   - the Kubernetes manifests the project ships (scripts/k8s-trials-job.yaml)
#     against the Kubernetes API schemas (kubernetes-models).
# Without xmllint or the npm tools it skips what needs them, unless
# MAGOS_REQUIRE_CONSUMERS=1 or MAGOS_REQUIRE_BROWSER=1 (CI).
. "$(dirname "$0")/lib.sh"
require_sim
required() { [ "${MAGOS_REQUIRE_CONSUMERS:-0}" = 1 ] || [ "${MAGOS_REQUIRE_BROWSER:-0}" = 1 ]; }

# ------------------------------------------------------------------ JUnit
if command -v xmllint >/dev/null 2>&1; then
	"$SIM" check --junit "$tmp/ci.xml" scenarios/ci/ >/dev/null 2>&1
	"$SIM" check --junit "$tmp/failing.xml" scenarios/ci-failing/ >/dev/null 2>&1
	"$SIM" check --junit "$tmp/bad.xml" tests/check-badinput/*.yaml >/dev/null 2>&1
	"$SIM" check --junit "$tmp/names.xml" tests/html/names.yaml tests/lint/ >/dev/null 2>&1
	for x in ci failing bad names; do
		check "check --junit wrote $x.xml" test -s "$tmp/$x.xml"
		for xsd in junit-10.xsd JUnit.xsd; do
			if xmllint --noout --schema "tests/junit/$xsd" "$tmp/$x.xml" >"$tmp/xl.out" 2>&1; then
				ok "JUnit of $x valid against $xsd"
			else
				bad "JUnit of $x valid against $xsd"
				show "$tmp/xl.out" 6
			fi
		done
	done
	# What the schemas refuse (what check wrote before): xmllint can fail.
	sed 's/<testsuites>/<testsuites skipped="0">/' "$tmp/ci.xml" >"$tmp/skipped.xml"
	sed 's/ time="0">/>/' "$tmp/ci.xml" >"$tmp/notime.xml"
	if xmllint --noout --schema tests/junit/junit-10.xsd "$tmp/skipped.xml" >/dev/null 2>&1; then
		bad "junit-10.xsd refuses testsuites@skipped"
	else ok "junit-10.xsd refuses testsuites@skipped"; fi
	if xmllint --noout --schema tests/junit/JUnit.xsd "$tmp/notime.xml" >/dev/null 2>&1; then
		bad "Ant's JUnit.xsd refuses a testsuite without time"
	else ok "Ant's JUnit.xsd refuses a testsuite without time"; fi
elif required; then
	bad "xmllint not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
else
	echo "skip JUnit schemas: xmllint not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
fi

# ------------------------------------------------------------------ Markdown
# Rendered as GitHub renders it, the text a reader sees is what magos-sim
# said: no emphasis, link, strikethrough or lost backslash from a name or a
# message (the JUnit report of the same check says what was said).
md_checks() {
	"$SIM" check --junit "$tmp/md.xml" --summary "$tmp/md.md" tests/consumers/md-names.yaml \
		>/dev/null 2>&1
	sed 's/^  name: three-environments$/  name: "base_*one* [l](u) \\\\ `t`"/' \
		scenarios/three-environments.yaml >"$tmp/cmp-base.yaml"
	sed 's/^  name: three-environments$/  name: "head_two_ www.example.com ~~x~~"/' \
		scenarios/three-environments.yaml >"$tmp/cmp-head.yaml"
	"$SIM" compare -q -n 4 --max-regression 'p95=10%' --markdown "$tmp/cmp.md" \
		"$tmp/cmp-base.yaml" "$tmp/cmp-head.yaml" >/dev/null 2>&1
	for m in md cmp; do
		if node "$CONSUMERS/render-md.js" "$tmp/$m.md" >"$tmp/$m.render.json" 2>"$tmp/$m.render.err"; then
			ok "marked renders $m.md"
		else
			bad "marked renders $m.md"
			show "$tmp/$m.render.err"
		fi
	done
	pyfacts "$tmp" <<'PY'
import json, sys, xml.etree.ElementTree as ET
tmp = sys.argv[1]
def say(good, what):
    print(("ok   " if good else "FAIL ") + what)
md = json.load(open(tmp + "/md.render.json"))
root = ET.parse(tmp + "/md.xml").getroot()
suite = root.find("testsuite")
name = [p.get("value") for p in suite.iter("property") if p.get("name") == "scenario"][0]
said = set()
for c in suite.iter("testcase"):
    for k in ("failure", "error"):
        e = c.find(k)
        if e is not None:
            said.add(e.text)
for line in (suite.find("system-out").text or "").splitlines():
    said.add(line.split(": ", 1)[1])
shown = {r[2] + ": " + r[3] for r in md["tables"][1]}
say(md["tables"][0][0][0] == name, "summary: the scenario's name reads as written: %r" % md["tables"][0][0][0])
say(shown == said, "summary: every check's place and message read as check said them")
for x in sorted(shown ^ said):
    print("     differs: %r" % x)
say(md["tags"]["em"] == 0 and md["tags"]["a"] == 0 and md["tags"]["del"] == 0 and md["tags"]["img"] == 0,
    "summary: no emphasis, link, strikethrough or image from the text: %r" % md["tags"])
say("\\h_*x*_" in md["text"], "summary: the backslash of 1\\h_*x*_ survives")
cmp = json.load(open(tmp + "/cmp.render.json"))
head = "magos-sim compare: base_*one* [l](u) \\ `t` → head_two_ www.example.com ~~x~~"
say(head in cmp["text"], "compare: the heading names both scenarios as written")
say(cmp["tags"]["em"] == 0 and cmp["tags"]["a"] == 0 and cmp["tags"]["del"] == 0,
    "compare: no emphasis, link or strikethrough from the names: %r" % cmp["tags"])
say("--max-regression p95=10%" in cmp["text"], "compare: the limit reads as given")
PY
}
if command -v node >/dev/null 2>&1 && [ -d "$CONSUMERS/node_modules/marked" ]; then
	md_checks
elif required; then
	bad "marked not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
else
	echo "skip Markdown rendering: marked not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
fi

# ------------------------------------------------------------------ Chrome trace
trace_checks() {
	for n in fleet-gate-halt staging-failure-halts fleet-rollback-pinned multi-region-prod default-parallel; do
		"$SIM" run -q --trace "$tmp/$n.trace.json" "scenarios/$n.yaml" >/dev/null 2>&1
		if node "$CONSUMERS/check-trace.js" "$tmp/$n.trace.json" >"$tmp/tr.out" 2>&1; then
			ok "trace of $n passes the strict Trace Event Format checks"
		else
			bad "trace of $n passes the strict Trace Event Format checks"
			grep -A1 '^FAIL' "$tmp/tr.out" | head -n 8
		fi
	done
	# The aggregated form of a large fleet too.
	sh scripts/gen-fleet.sh 2100 100 4 >"$tmp/fleet2k.yaml"
	"$SIM" run -q --trace "$tmp/agg.trace.json" "$tmp/fleet2k.yaml" >/dev/null 2>&1
	if node "$CONSUMERS/check-trace.js" "$tmp/agg.trace.json" >"$tmp/tr.out" 2>&1; then
		ok "trace of a 2 100-member fleet (aggregated) passes the strict checks"
	else
		bad "trace of a 2 100-member fleet (aggregated) passes the strict checks"
		grep -A1 '^FAIL' "$tmp/tr.out" | head -n 8
	fi
	# The checker fails what the trace used to be (tid 0, displayTimeUnit, "value" series).
	sed 's/"tid":1,/"tid":0,/' "$tmp/fleet-gate-halt.trace.json" >"$tmp/tid0.json"
	sed 's/^\],$/],"displayTimeUnit":"ms",/' "$tmp/fleet-gate-halt.trace.json" >"$tmp/dtu.json"
	sed 's/"args":{"jobs":/"args":{"value":/' "$tmp/staging-failure-halts.trace.json" >"$tmp/value.json"
	for b in tid0 dtu value; do
		if node "$CONSUMERS/check-trace.js" "$tmp/$b.json" >/dev/null 2>&1; then
			bad "the trace checker refuses the $b variant"
		else ok "the trace checker refuses the $b variant"; fi
	done
}
if command -v node >/dev/null 2>&1; then
	trace_checks
elif required; then
	bad "node not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
else
	echo "skip trace checks: node not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
fi

# ------------------------------------------------------------------ Kubernetes manifests
# The Indexed Job of docs/scale-out.md against the Kubernetes API schemas
# (kubernetes-models: types, required fields, enums).  The CRD kinds of the
# examples are checked against the pinned CRDs by scripts/check-manifests.sh
# (it reads ../shared, which make check does not).
if command -v node >/dev/null 2>&1 && [ -d "$CONSUMERS/node_modules/kubernetes-models" ]; then
	if node "$CONSUMERS/check-k8s.js" scripts/k8s-trials-job.yaml >"$tmp/k8s.out" 2>&1 &&
		grep -q '^ok   scripts/k8s-trials-job.yaml#1 Job/magos-trials$' "$tmp/k8s.out"; then
		ok "scripts/k8s-trials-job.yaml is a valid batch/v1 Job"
	else
		bad "scripts/k8s-trials-job.yaml is a valid batch/v1 Job"
		show "$tmp/k8s.out"
	fi
	sed 's/completionMode: Indexed/completionMode: Indexd/' scripts/k8s-trials-job.yaml >"$tmp/badjob.yaml"
	sed 's/parallelism: 8 /parallelism: "8" /' scripts/k8s-trials-job.yaml >"$tmp/badjob2.yaml"
	for b in badjob badjob2; do
		if node "$CONSUMERS/check-k8s.js" "$tmp/$b.yaml" >/dev/null 2>&1; then
			bad "the Kubernetes schema refuses $b"
		else ok "the Kubernetes schema refuses $b"; fi
	done
elif required; then
	bad "kubernetes-models not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
else
	echo "skip Kubernetes schemas: kubernetes-models not installed (MAGOS_CONSUMERS=1 scripts/install-deps.sh)"
fi

finish
