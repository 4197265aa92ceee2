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
if head -6 README.md | grep -q '^scripts/install-deps.sh && make demo' &&
	head -6 README.md | grep -q '^make check'; then
	ok "README starts with the set-up and test commands"
else
	bad "README starts with the set-up and test commands"
fi
finish
