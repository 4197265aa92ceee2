#!/bin/sh
# The README keeps its promises: the lint rule table is the rules' own
# (`lint --list-rules --format markdown`), and the documents it links exist.
# UPDATE=1 rewrites the table from the rules.
. "$(dirname "$0")/lib.sh"

"$SIM" lint --list-rules --format markdown | sed -n '/^| id |/,$p' >"$tmp/want"
sed -n '/^<!-- lint-rules:begin -->$/,/^<!-- lint-rules:end -->$/p' README.md |
	sed '1d;$d' >"$tmp/have"
if [ "${UPDATE:-}" = 1 ]; then
	awk -v table="$tmp/want" '
		/^<!-- lint-rules:begin -->$/ { print; while ((getline l < table) > 0) print l; skip = 1; next }
		/^<!-- lint-rules:end -->$/ { skip = 0 }
		!skip' README.md >"$tmp/README.md" && cp "$tmp/README.md" README.md
	cp "$tmp/want" "$tmp/have"
fi
if [ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/have"; then
	ok "README's lint rule table matches the rules"
else
	bad "README's lint rule table matches the rules (regenerate: UPDATE=1 MAGOS_SIM=... sh tests/readme.sh)"
	diff "$tmp/have" "$tmp/want" | head -10 | sed 's/^/     /'
fi
n=$("$SIM" lint --list-rules --format json | grep -c '"id"')
if [ "$(grep -c '^| MS[0-9]' "$tmp/have")" = "$n" ]; then ok "README lists every rule ($n)"; else bad "README lists every rule ($n)"; fi

missing=""
for f in $(grep -o '](\(docs\|scenarios\|engine\)/[^)#]*)' README.md | sed 's/^](//; s/)$//' | sort -u); do
	[ -e "$f" ] || missing="$missing $f"
done
if [ -z "$missing" ]; then ok "every document the README links exists"; else bad "README links missing documents:$missing"; fi
# The examples use only files of the repository, and the session is what the
# program prints (each line of it, in order; "   …" marks a cut).
if grep -E '^(\$ |    )magos-sim ' README.md | grep -q '\.\./shared'; then bad "the README's examples need nothing outside the repository"; else
	ok "the README's examples need nothing outside the repository"; fi
missing=""
for p in $(grep -E '^(\$ |    )magos-sim ' README.md | grep -o 'scenarios/[^ ]*' | sort -u); do
	[ -e "$p" ] || missing="$missing $p"
done
if [ -z "$missing" ]; then ok "every scenario the README's examples name exists"; else bad "README examples name missing inputs:$missing"; fi
"$SIM" run --no-color scenarios/checkout/ >"$tmp/session.out" 2>&1
sed -n '/^\$ magos-sim run scenarios\/checkout\/$/,/^```$/p' README.md | sed '1d;$d' >"$tmp/session.md"
if [ -s "$tmp/session.md" ] && awk -v out="$tmp/session.out" '
	BEGIN { while ((getline l < out) > 0) got[++n] = l; i = 1 }
	$0 == "   …" { next }
	{ while (i <= n && got[i] != $0) i++; if (i > n) { print "     not in the output (in order): " $0; bad = 1; exit } i++ }
	END { exit bad }' "$tmp/session.md"; then
	ok "the README's session is what magos-sim run scenarios/checkout/ prints"
else
	bad "the README's session is what magos-sim run scenarios/checkout/ prints"
fi
# The event-stream example is the first line fleet-gate-halt's run writes
# for its halt: each "key":value pair the README shows in full (the ones
# not elided with ...) is in that line.
"$SIM" run -q --events - scenarios/fleet-gate-halt.yaml 2>/dev/null |
	grep '"reason":"Halted"' | head -1 >"$tmp/halt.jsonl"
awk '/^\{"schema":"magos-sim\/event\/v1"/ { p = 1 } p { print } p && /"tool":/ { exit }' README.md >"$tmp/event.md"
if [ -s "$tmp/halt.jsonl" ] && grep -q '"schema":"magos-sim/event/v1"' "$tmp/event.md" && python3 - "$tmp/event.md" "$tmp/halt.jsonl" <<'PY'
import re, sys
shown = open(sys.argv[1]).read()
line = open(sys.argv[2]).read()
pairs = re.findall(r'"[a-z_]+":(?:"(?:[^"\\]|\\.)*"|-?[0-9]+)(?=[,}\s])', shown)
missing = [p for p in pairs if "..." not in p and p not in line]
for p in missing:
    print("     not in the run's event line: " + p)
sys.exit(1 if missing or len(pairs) < 8 else 0)
PY
then
	ok "the README's event-stream example is what fleet-gate-halt's halt writes"
else
	bad "the README's event-stream example is what fleet-gate-halt's halt writes"
fi
if head -6 README.md | grep -q '^scripts/install-deps.sh && make demo' &&
	head -6 README.md | grep -q '^make check'; then
	ok "README starts with the set-up and test commands"
else
	bad "README starts with the set-up and test commands"
fi
finish
