#!/bin/sh
# End to end: what a StageSet pass asks outside the controller is answered by
# the store and the StageSet world (sim/wire/stageset_rc, sim/models/
# stageset_world), with upstream's error texts.
. "$(dirname "$0")/lib.sh"

# spec.kubeConfig.secretRef and spec.decryption.secretRef read Secrets of the
# StageSet's namespace: missing, the stage fails before it is applied; the
# kubeConfig Secret created at 10m lets the next retry connect.
IN=tests/scenarios/stageset-secrets.yaml
"$SIM" run --no-color --timeline all "$IN" >"$tmp/out" 2>"$tmp/err"
check "secrets: the run is accepted" [ $? -eq 0 ]
check "secrets: nothing on stderr" [ ! -s "$tmp/err" ]
contains "a missing kubeConfig Secret fails the connect, as kubeconfigBytes says it" "$tmp/out" \
	'│ stage "app" connect to target cluster: kubeConfig secret'
contains "... naming the Secret the API server did not find" "$tmp/out" '│ "remote": secrets "remote" not found (runbook:'
contains "a missing SOPS key Secret fails the decryptor (its text redacted, as upstream)" "$tmp/out" \
	'│ stage "app" configure decryption: decryption failed (runbook:'
contains "once the kubeConfig Secret exists, the retry applies" "$tmp/out" \
	"    12m56.355s  StageSet shop/remote     status   Succeeded"
check "the sealed StageSet never succeeds" sh -c "! grep -q 'StageSet shop/sealed     status   Succeeded' '$tmp/out'"

# scenarios/stageset-update-window.yaml: a Deny window holds a published
# revision with Ready True, and the pass requeued for its end delivers it.
EX=scenarios/stageset-update-window.yaml
"$SIM" run --json "$tmp/uw.json" "$EX" >"$tmp/uw.out" 2>"$tmp/uw.err"
check "update window: the example runs, nothing on stderr" sh -c "[ $? -eq 0 ] && [ ! -s '$tmp/uw.err' ]"
check "update window: deployed at 1m1.005s, held at 1h30m with Ready True, delivered at 4h1m1s" python3 - "$tmp/uw.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
st = [(e["t_ms"], e["reason"], e["message"], e["detail"]) for e in d["timeline"]
      if e["kind"] == "StageSet" and e["change"] == "status"]
held = "Deployed; delivery held by update window (next window opens 2026-03-06T18:00:00Z)"
assert [(t, r, m) for t, r, m, _ in st] == [
    (61005, "Succeeded", "Applied and verified 1 stage(s)"),
    (5400000, "Succeeded", held),
    (14461000, "Succeeded", "Applied and verified 1 stage(s)")], st
assert "pendingUpdate" in st[1][3] and "-pendingUpdate" in st[2][3], st
ev = [(e["t_ms"], e["phase"], e["message"]) for e in d["timeline"]
      if e["change"] == "event" and e["reason"] == "UpdateDeferred"]
assert ev == [(5400000, "Normal", "delivery held by update window (next window opens 2026-03-06T18:00:00Z)")], ev
PY
finish
