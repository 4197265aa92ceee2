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

finish
