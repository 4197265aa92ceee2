"""Helpers of tests/hazards-quirks.sh: what a run report (magos-sim/run/v1)
says of a Workspace and its Jobs, for checking the Workspace-surprise notices
(sim/run/magos_quirks.c) and lint's MS117/MS118 against the timeline."""
from facts import check  # noqa: F401  (re-exported for the checks)


def statuses(d, ws):
    """The status entries of Workspace WS, in timeline order."""
    return [e for e in d["timeline"]
            if e["kind"] == "Workspace" and e["name"] == ws and e["change"] == "status"]


def straight_resets(d, ws):
    """Times (ms) WS went from Applying straight to Pending (ScheduledReconcile or RetryApply)."""
    out, prev = [], None
    for e in statuses(d, ws):
        if prev == "Applying" and e["phase"] == "Pending" \
                and e["reason"] in ("ScheduledReconcile", "RetryApply"):
            out.append(e["t_ms"])
        prev = e["phase"]
    return out


def deadline_refusals(d, ws):
    """Times (ms) WS went Failed/ReconcileError for a refused activeDeadlineSeconds."""
    return [e["t_ms"] for e in statuses(d, ws)
            if e["phase"] == "Failed" and e["reason"] == "ReconcileError"
            and "spec.activeDeadlineSeconds: Invalid value" in (e["message"] or "")]


def new_revision_resets(d, ws, sha):
    """Times (ms) WS was reset (NewRevisionDetected) for revision SHA ("" for an empty one)."""
    return [e["t_ms"] for e in statuses(d, ws)
            if e["phase"] == "Pending" and e["reason"] == "NewRevisionDetected"
            and e["message"] == "RefWatcher detected new revision " + sha]


def job_spans(d, ws):
    """{job name: [created ms, ended ms or None]} of the Jobs of Workspace WS."""
    out = {}
    for e in d["timeline"]:
        if e["kind"] != "Job" or not e["name"].startswith(ws + "-"):
            continue
        if e["change"] == "created":
            out[e["name"]] = [e["t_ms"], None]
        elif e["name"] in out and out[e["name"]][1] is None and (
                e["change"] == "deleted" or (e["change"] == "status" and e["detail"]
                                             and ("succeeded" in e["detail"]
                                                  or "failed" in e["detail"]))):
            out[e["name"]][1] = e["t_ms"]
    return out


def notices_about(d, ws):
    """The texts of the notices about Workspace WS."""
    return [n["text"] for n in d["notices"]
            if any(o.get("kind") == "Workspace" and o.get("name") == ws
                   for o in n.get("objects", []))]
