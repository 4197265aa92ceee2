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
finish
