#!/bin/sh
# The terminal report reads right at 80 columns: long object names keep
# their distinguishing end, the summary names each of its times, counts
# agree with the lines above them, and a count of one is singular.
. "$(dirname "$0")/lib.sh"
require_sim

"$SIM" run --no-color scenarios/payments-platform.yaml >"$tmp/pp.txt" 2>&1
check "the timeline fits 80 columns" fits "$tmp/pp.txt" 80
contains "a long name keeps its kind and its end" "$tmp/pp.txt" "Workspace …/payments-staging-eu"
lacks "no name is cut in the middle" "$tmp/pp.txt" "defaul…"
"$SIM" run --no-color --width 60 scenarios/payments-platform.yaml >"$tmp/pp60.txt" 2>&1
contains "at 60 columns the end of the name stays" "$tmp/pp60.txt" "…ts-staging-eu "

# The summary: when the simulation stopped, and when the change completed.
grep '^stopped ' "$tmp/pp.txt" | sed 's/after [0-9]* events/after N events/' >"$tmp/stop"
has_line "the stop names the simulation and why it ended there" "$tmp/stop" \
	"stopped   the simulation at 20m0s, after N events:"
has_line "... after the change completed: the scripted events ran on" "$tmp/pp.txt" \
	"          the change had completed and no scripted event was left"
has_line "the completion is the time to complete" "$tmp/pp.txt" "completed yes, time to complete 2m30s"
"$SIM" run -q --no-color scenarios/three-environments.yaml >"$tmp/te.txt" 2>&1
grep '^stopped ' "$tmp/te.txt" | sed 's/after [0-9]* events/after N events/' >"$tmp/stop"
has_line "a run that stops when the change completes says so on one line" "$tmp/stop" \
	"stopped   the simulation at 30m5.716s, after N events: the change completed"

# check: the total counts every result line.
"$SIM" check --no-color scenarios/ >"$tmp/chk.txt" 2>/dev/null
lines=$(grep -c '^\(PASS\|FAIL\|WARN\|INFO\|SKIP\) ' "$tmp/chk.txt")
total=$(tail -n 1 "$tmp/chk.txt" | sed -n 's/^\([0-9]*\) checks\{0,1\} in .*/\1/p')
if [ -n "$total" ] && [ "$lines" -eq "$total" ]; then ok "check: $total checks, $lines result lines"; else
	bad "check: the total ($total) counts the result lines ($lines)"; fi

# Plurals.
"$SIM" compare -n 1 scenarios/compare/base.yaml scenarios/compare/head.yaml >"$tmp/c1.txt" 2>&1
contains "compare -n 1: one trial" "$tmp/c1.txt" "1 trial each on common random numbers"
"$SIM" check --no-color scenarios/ci/magos-staged.yaml >"$tmp/one.txt" 2>&1
contains "check of one scenario: singular" "$tmp/one.txt" "in 1 scenario:"
# Input text never reaches the terminal or a CI log with its control
# characters: a raw newline would start a line GitHub Actions reads as a
# workflow command, an escape sequence would drive the terminal.  Every
# person-facing line escapes them as Go's %q does (the exact stderr of run:
# tests/badinput/16-control-chars-in-keys.err).
CC=tests/badinput/16-control-chars-in-keys.yaml
"$SIM" check --no-color "$CC" >"$tmp/cc.out" 2>"$tmp/cc.err"
contains "check: the FAIL line on stdout escapes a newline and a CR" "$tmp/cc.out" \
	'FAIL  tests/badinput/16-control-chars-in-keys.yaml:7:3: MS002: unknown field "spec.bogus\n::stop-commands::tok\r\n::set-env name=X::1"'
contains "... and ESC, BEL, C1 and DEL" "$tmp/cc.out" 'unknown field "spec.bogus\x1b[2J\x1b]0;owned\a\u0085\x7f"'
contains "check: stderr's diagnostics too" "$tmp/cc.err" 'error: unknown field "spec.bogus\n::stop-commands::tok\r\n::set-env name=X::1"'
"$SIM" lint --no-color "$CC" >"$tmp/cl.out" 2>"$tmp/cl.err"
contains "lint: its findings too" "$tmp/cl.out" 'unknown field "spec.bogus\x1b[2J\x1b]0;owned\a\u0085\x7f" [MS002]'
cat "$tmp/cc.out" "$tmp/cc.err" "$tmp/cl.out" "$tmp/cl.err" >"$tmp/cc.all"
check "no line starts with a workflow command" sh -c "! grep -q '^::' '$tmp/cc.all'"
check "no ESC, CR, BEL or DEL is printed" sh -c "! LC_ALL=C grep -q \"\$(printf '[\\033\\r\\a\\177]')\" '$tmp/cc.all'"
# --github: GitHub's own escapes for CR and LF (%0D, %0A: the annotation
# stays one workflow command), Go's %q for every other control character.
"$SIM" check --no-color --github "$CC" >"$tmp/cg.out" 2>/dev/null
contains "check --github: a newline and a CR are %0A and %0D within the annotation" "$tmp/cg.out" \
	'title=MS002::unknown field "spec.bogus%0A::stop-commands::tok%0D%0A::set-env name=X::1"'
contains "check --github: ESC, BEL, C1 and DEL are escaped in the annotation" "$tmp/cg.out" \
	'title=MS002::unknown field "spec.bogus\x1b[2J\x1b]0;owned\a\u0085\x7f"'
check "check --github: no line starts with a command of the input's" sh -c "! grep -q '^::stop-commands\|^::set-env' '$tmp/cg.out'"
check "check --github: no ESC, CR, BEL or DEL is printed" sh -c "! LC_ALL=C grep -q \"\$(printf '[\\033\\r\\a\\177]')\" '$tmp/cg.out'"
# --summary: Markdown's own rule for line breaks (a space: a table row is
# one line), Go's %q for every other control character, its backslashes
# escaped so that GFM renders them as written.
"$SIM" check --no-color --summary "$tmp/cs.md" "$CC" >/dev/null 2>&1
contains "check --summary: a newline and a CR are spaces within the row" "$tmp/cs.md" \
	'unknown field "spec.bogus ::stop-commands::tok  ::set-env name=X::1"'
contains "check --summary: ESC, BEL, C1 and DEL are escaped in the row" "$tmp/cs.md" \
	'unknown field "spec.bogus\\x1b\[2J\\x1b\]0;owned\\a\\u0085\\x7f"'
if LC_ALL=C grep -q -e "$(printf '[\033\r\a\177]')" -e "$(printf '\302\205')" "$tmp/cs.md"; then
	bad "check --summary: no ESC, CR, BEL, C1 or DEL is written"
else ok "check --summary: no ESC, CR, BEL, C1 or DEL is written"; fi
# The terminal report of run writes what it quotes of the input alike: an
# annotation's value holding C1's CSI (U+009B), an ESC and a tab.
sed 's|example.org/last-release: "4.7.0"|example.org/last-release: "4.7.0\\u009b2J\\x1b[31m\\ttab"|' \
	scenarios/fleet-standing-policy.yaml >"$tmp/c1.yaml"
"$SIM" run --no-color "$tmp/c1.yaml" >"$tmp/c1.out" 2>&1
contains "run: the timeline escapes C1, ESC and a tab in an annotation's value" "$tmp/c1.out" \
	'+example.org/last-release=4.7.0\u009b2J\x1b[31m\ttab'
if LC_ALL=C grep -q -e "$(printf '\033')" -e "$(printf '\302\233')" "$tmp/c1.out"; then
	bad "run: no ESC or C1 is printed"
else ok "run: no ESC or C1 is printed"; fi

finish
