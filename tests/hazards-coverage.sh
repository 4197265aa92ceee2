#!/bin/sh
# docs/hazards.md keeps its promise: every item of the three engine specs'
# lists of surprising behaviours has a row (Magos §7: M1..M30, FleetRollout
# §6: F1..F24, StageSet §5: Q-1..Q-35), each row names a lint rule, a run
# notice or why neither (or says "not yet"), and every rule id it names is a
# rule of `lint --list-rules`.
. "$(dirname "$0")/lib.sh"
require_sim
require_python "to read the rule list"

D=docs/hazards.md
"$SIM" lint --list-rules --format json >"$tmp/rules.json"
pyfacts "$D" "$tmp/rules.json" <<'EOF2'
import json, re, sys
from hazards_facts import *
text = open(sys.argv[1]).read()
rules = {r["id"] for r in json.load(open(sys.argv[2]))}
rows = {}
for line in text.splitlines():
    m = re.match(r"\| (M\d+|F\d+|Q-\d+) \|(.*)\|\s*$", line)
    if m:
        cells = [c.strip() for c in m.group(2).split("|")]
        rows.setdefault(m.group(1), []).append(cells)
want = ["M%d" % i for i in range(1, 31)] + ["F%d" % i for i in range(1, 25)] + \
       ["Q-%d" % i for i in range(1, 36)]
missing = [k for k in want if k not in rows]
check("every item of the three lists has a row (%d of %d)" % (len(want) - len(missing), len(want)),
      not missing, missing)
extra = [k for k in rows if k not in want or len(rows[k]) > 1]
check("no row beyond the lists, none twice", not extra, extra)
empty = [k for k, v in rows.items() if len(v[0]) != 4 or not any(v[0][1:])]
check("each row names a rule, a notice or why neither", not empty, empty)
named = set(re.findall(r"\bMS\d{3}\b", text))
unknown = sorted(named - rules)
check("every rule the page names exists (%d named)" % len(named), named and not unknown, unknown)
EOF2
finish
