#!/bin/sh
# A migration ladder that lags its version (StageSet spec §5 Q-25, §2.1 W5),
# told by `lint` before a run and by `run` at its end, each claim checked
# against the run of the same input (tests/hazards/sources-lag*.yaml, each
# saying what it shows).
#   MS281  shop/shop's ladder comes from GitRepository shop/ladder
#          (migrationsSourceRef); 2.0.0 is published at 1h and the source
#          gets the migration to 2.0.0 (to-2) only in its own update at
#          1h30m: 2.0.0 is adopted at 1h1m1.1s without it, the update wakes
#          nothing (no status until the 3.0.0 publish at 2h15m), that pass
#          runs to-3 from the new ladder and to-2 never runs.  With the
#          update at 30m, the pass at 1h runs to-2 and nothing is told.
. "$(dirname "$0")/lib.sh"
require_python "to read the run reports"
. "$(dirname "$0")/lib/hazards.sh"

lint_of sources-lag
contains "lag: MS281 is a warning at the sources entry" "$tmp/sources-lag.lintjson" '"line": 18'
contains "lag: MS281 says why" "$tmp/sources-lag.lint" \
	'MS281 warning the sources model'"'"'s update at 1h30m0s gives GitRepository shop/ladder, which StageSet shop/shop reads its migration ladder from (spec.migrationsSourceRef), migration "to-2" (to 2.0.0), which its ladder did not hold when 2.0.0, published at 1h0m0s, reached the StageSet: a pass that plans 1.5.0 → 2.0.0 before 1h30m0s reads the ladder without it and adopts 2.0.0, and the controller runs only migrations whose to lies above status.version, so once status.version is 2.0.0 no pass runs "to-2"; nor does the update wake the StageSet: spec.migrationsSourceRef is not watched, so the new ladder is read only at its next pass of another cause'
run_of sources-lag
"$SIM" run -q --snapshot 1h15m "$tmp/lag115.yaml" "$H/sources-lag.yaml" >/dev/null 2>&1 ||
	bad "lag: the snapshot at 1h15m is written"
"$SIM" run -q --snapshot 1h45m "$tmp/lag145.yaml" "$H/sources-lag.yaml" >/dev/null 2>&1 ||
	bad "lag: the snapshot at 1h45m is written"
facts_of sources-lag "$tmp/lag115.yaml" "$tmp/lag145.yaml" <<'PY'
def mine(kind):
    return [e for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == kind]
st = [(e["t_ms"], e["reason"]) for e in mine("status") if "version" in (e["detail"] or "")]
check("lag: 2.0.0 adopted at 1h1m1.1s, 3.0.0 at 2h15m after the publish", [t for t, _ in st][:2] == [61005, 3661100] and st[2][0] > 8100000, st)
check("lag: no status between the update (1h30m) and the 3.0.0 publish (2h15m)",
      [e["t_ms"] for e in mine("status") if 5400000 <= e["t_ms"] < 8100000] == [])
started = [(e["t_ms"], e["message"][:24]) for e in mine("event") if e["reason"] == "MigrationStarted"]
check("lag: the 3.0.0 pass runs to-3, and to-2 never starts", [m for _, m in started] == ['migration "to-3" (to 3.0'], started)
def ladder_rev(path):
    y = open(path).read()
    y = y[y.index("    name: ladder\n    namespace: shop\n"):]
    return re.search(r"\n      revision: (main@sha1:[0-9a-f]+)", y).group(1)
check("lag: the update gives the ladder source a new revision between 1h15m and 1h45m",
      ladder_rev(sys.argv[2]) != ladder_rev(sys.argv[3]))
n = notice(d, 'StageSet shop/shop: migration "to-2" (to 2.0.0) came with the update of GitRepository shop/ladder, its spec.migrationsSourceRef, at 1h30m0s, after the upgrade 1.5.0 → 2.0.0 had ended at 1h1m1.1s with a ladder that did not hold it')
check("lag: the run tells it", n is not None and n["severity"] == "warning", [x["text"] for x in d["notices"]])
check("lag: the run says no pass ran it", n is not None and "status.version (3.0.0 at the end of the run) lies at or above its to" in n["text"] and "no pass ran it" in n["text"], n and n["text"])
PY

lint_of sources-lag-early
lacks "early: no MS281" "$tmp/sources-lag-early.lint" 'MS281'
run_of sources-lag-early
facts_of sources-lag-early <<'PY'
started = [(e["t_ms"], e["message"][:24]) for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "event" and e["reason"] == "MigrationStarted"]
check("early: to-2 runs in the 2.0.0 pass, to-3 in the 3.0.0 one",
      [m for _, m in started] == ['migration "to-2" (to 2.0', 'migration "to-3" (to 3.0'] and started[0][0] < 3700000, started)
check("early: the run tells nothing", notice(d, "came with the update of") is None)
PY
finish
