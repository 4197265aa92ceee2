#!/bin/sh
# A Workspace's plan-time policy validation against its field docs (spec
# magos-controllers.md §7 #21), told by `lint` before a run and by `run` at its
# end, each claim checked against the run of the same input
# (tests/hazards/policy-*.yaml, each saying what it shows).
#   MS120  the Project's policySelector {} ("every ValidatingPolicy"): the
#          plan checks none, a scripted violation is dropped, the Workspace is
#          Applied; a selector naming the policies' label: ValidationFailed,
#          nothing told.
#   MS121  validation: {} on the Workspace (documented to override the
#          Project's default): the Project's policies are checked and the plan
#          fails ValidationFailed; a selector of its own that no policy
#          matches: Applied, nothing told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

# ---- MS120: policySelector {} validates nothing ------------------------------
lint_of policy-empty
contains "empty selector: MS120 is a warning at the Project's selector" "$tmp/policy-empty.lintjson" \
	'"line": 26'
contains "empty selector: MS120 says why" "$tmp/policy-empty.lint" \
	'MS120 warning Workspace "default/shop-dev" falls back to Project "default/shop"'"'"'s validation.policySelector, which is {}: the field'"'"'s doc says {} matches every ValidatingPolicy, but the Workspace controller turns the empty selector into "", which means no validation: the Workspace'"'"'s plan Jobs get no MAGOS_POLICY_SELECTOR and its plans never end ValidationFailed, so ValidatingPolicy "require-tags" of the inputs is never checked'
run_of policy-empty
pyfacts "$tmp/policy-empty.json" <<'PY'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
ph = [e["phase"] for e in statuses(d, "shop-dev")]
check("empty selector: shop-dev is Applied", "Applied" in ph, ph)
check("empty selector: shop-dev never ends ValidationFailed", "ValidationFailed" not in ph, ph)
check("empty selector: its plan Job wrote no policy result",
      not any(e["kind"] == "Job" and "-plan-" in e["name"] and "podLog" in (e["detail"] or "")
              for e in d["timeline"]))
t = notices_about(d, "shop-dev")
check("empty selector: the run says the plan passed without policy validation",
      any("1 plan passed without policy validation, the first at 1m5s: Project default/shop's "
          "validation.policySelector, which it falls back to, is {}" in x
          and 'ValidatingPolicy "require-tags" was not checked' in x for x in t), t)
check("empty selector: the scripted violation was dropped",
      any("did not check ValidatingPolicy" in n["text"] for n in d["notices"]))
PY

lint_clean policy-labelled "labelled selector"
run_of policy-labelled
pyfacts "$tmp/policy-labelled.json" <<'PY'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
ph = [e["phase"] for e in statuses(d, "shop-dev")]
check("labelled selector: the plan fails ValidationFailed", "ValidationFailed" in ph, ph)
check("labelled selector: nothing told of shop-dev", notices_about(d, "shop-dev") == [],
      notices_about(d, "shop-dev"))
PY

# ---- MS121: validation: {} falls back to the Project -------------------------
lint_of policy-inherits
contains "validation {}: MS121 is a warning at the Workspace's validation" \
	"$tmp/policy-inherits.lintjson" '"line": 51'
contains "validation {}: MS121 says why" "$tmp/policy-inherits.lint" \
	'MS121 warning Workspace "default/shop-dev": spec.validation is set without a policySelector; the field'"'"'s doc says a non-nil validation overrides the Project'"'"'s default, but the Workspace controller falls back to Project "default/shop"'"'"'s policySelector whenever the Workspace'"'"'s own is nil, so its plans are checked against the Project'"'"'s policies (selector "policy.example.com/category=tagging")'
run_of policy-inherits
pyfacts "$tmp/policy-inherits.json" <<'PY'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
vf = [e["t_ms"] for e in statuses(d, "shop-dev") if e["phase"] == "ValidationFailed"]
check("validation {}: the plan fails ValidationFailed at 1m5s", vf[:1] == [65000], vf)
t = notices_about(d, "shop-dev")
check("validation {}: the run says its plans were checked against the Project's policies",
      any("of its plans were checked against Project default/shop's policies (selector "
          '"policy.example.com/category=tagging"), the first at 1m5s' in x for x in t), t)
PY

lint_clean policy-own-selector "own selector"
run_of policy-own-selector
pyfacts "$tmp/policy-own-selector.json" <<'PY'
import json, sys
from quirks_facts import *
d = json.load(open(sys.argv[1]))
ph = [e["phase"] for e in statuses(d, "shop-dev")]
check("own selector: shop-dev is Applied, never ValidationFailed",
      "Applied" in ph and "ValidationFailed" not in ph, ph)
check("own selector: no policy notice of shop-dev",
      not any("policies" in x or "policy validation" in x for x in notices_about(d, "shop-dev")),
      notices_about(d, "shop-dev"))
PY
finish
