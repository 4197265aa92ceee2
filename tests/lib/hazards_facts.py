"""Helpers of tests/hazards.sh: what a run report (magos-sim/run/v1) says of
the Magos objects, for checking the hazard notices and lint findings against
the timeline they summarise."""
from facts import check  # noqa: F401  (re-exported for the checks)


def completed(d, rollout):
    """Whether Rollout ROLLOUT reached Applied/RolloutCompleted in the run."""
    return any(e["kind"] == "Rollout" and e["name"] == rollout and e["change"] == "status"
               and e["reason"] == "RolloutCompleted" for e in d["timeline"])


def step_opened(d, rollout, step):
    """When the Rollout first said "Executing level [..step..]" (ms), or None."""
    for e in d["timeline"]:
        if e["kind"] == "Rollout" and e["name"] == rollout and e["change"] == "status" \
                and e["message"] and e["message"].startswith("Executing level [") \
                and step in e["message"][len("Executing level ["):-1].split(", "):
            return e["t_ms"]
    return None


def resets_of(d, ws):
    """The entries where Workspace WS entered Pending/ScheduledReconcile."""
    out, was = [], False
    for e in d["timeline"]:
        if e["kind"] != "Workspace" or e["name"] != ws:
            continue
        now = e["phase"] == "Pending" and e["reason"] == "ScheduledReconcile"
        if now and not was:
            out.append(e)
        was = now
    return out


def grant_times(d, ws):
    """(t_ms, cause) of each execution-allowed grant of Workspace WS."""
    return [(e["t_ms"], e["cause"]) for e in d["timeline"]
            if e["kind"] == "Workspace" and e["name"] == ws and e["change"] == "updated"
            and e["detail"] and "+magosproject.io/execution-allowed=true" in e["detail"]]


def phases(d, ws):
    """Every phase Workspace WS was seen in (None for none)."""
    return {e["phase"] for e in d["timeline"] if e["kind"] == "Workspace" and e["name"] == ws}


def first_phase(d, ws, phase):
    """When Workspace WS first entered PHASE (ms), or None."""
    for e in d["timeline"]:
        if e["kind"] == "Workspace" and e["name"] == ws and e["phase"] == phase:
            return e["t_ms"]
    return None


def created(d, kind, name):
    """When KIND NAME was created (ms), or None."""
    for e in d["timeline"]:
        if e["kind"] == kind and e["name"] == name and e["change"] == "created":
            return e["t_ms"]
    return None


def notice(d, text):
    """The first notice whose text contains TEXT, or None."""
    for n in d["notices"]:
        if text in n["text"]:
            return n
    return None


def resets_while_later_runs(d, steps):
    """Per Workspace, how often it entered Pending/ScheduledReconcile while a
    Workspace of a later step (STEPS: the member lists in step order) was
    Planning or Applying on its way forward: not while re-running after a
    scheduled reset of its own (from that reset until it is Applied again),
    which is not the Rollout's progress."""
    step = {}
    for j, members in enumerate(steps):
        for m in members:
            step.setdefault(m, j)
    phase, was, rerun, count = {}, {}, {}, {m: 0 for m in step}
    for e in d["timeline"]:
        if e["kind"] != "Workspace" or e["name"] not in step:
            continue
        ws = e["name"]
        phase[ws] = e["phase"]
        if e["phase"] == "Applied":
            rerun[ws] = False
        now = e["phase"] == "Pending" and e["reason"] == "ScheduledReconcile"
        if now and not was.get(ws):
            rerun[ws] = True
            if any(step[o] > step[ws] and not rerun.get(o) and
                   phase.get(o) in ("Planning", "Applying") for o in step):
                count[ws] += 1
        was[ws] = now
    return count


NEW_REVISION = "RefWatcher detected new revision "


def revision_seen(d, ws):
    """The first revision Workspace WS said it detected, or None."""
    for e in d["timeline"]:
        if e["kind"] == "Workspace" and e["name"] == ws and e["reason"] == "NewRevisionDetected" \
                and (e["message"] or "").startswith(NEW_REVISION):
            return e["message"][len(NEW_REVISION):]
    return None


def revision_seen_ms(d, ws, sha):
    """When Workspace WS first said it detected revision SHA (ms), or None."""
    for e in d["timeline"]:
        if e["kind"] == "Workspace" and e["name"] == ws and e["reason"] == "NewRevisionDetected" \
                and e["message"] == NEW_REVISION + (sha or ""):
            return e["t_ms"]
    return None


def planning_after(d, ws, sha):
    """When Workspace WS entered Planning after detecting revision SHA (ms), or None."""
    seen = revision_seen_ms(d, ws, sha)
    if seen is None:
        return None
    for e in d["timeline"]:
        if e["kind"] == "Workspace" and e["name"] == ws and e["phase"] == "Planning" \
                and e["t_ms"] >= seen:
            return e["t_ms"]
    return None


def fleet_status(d, fleet):
    """(t_ms, phase, message) of each status write of FleetRollout FLEET."""
    return [(e["t_ms"], e["phase"], e["message"]) for e in d["timeline"]
            if e["kind"] == "FleetRollout" and e["name"] == fleet and e["change"] == "status"]


def wave_opened(d, fleet, wave):
    """When FLEET first said wave WAVE is open (ms), or None."""
    for t, phase, msg in fleet_status(d, fleet):
        if phase == "InProgress" and msg and msg.endswith('wave "%s" open' % wave):
            return t
    return None


def fleet_wave(d, fleet, wave):
    """The run summary's record of wave WAVE of FleetRollout FLEET, or None."""
    for f in d["summary"].get("fleets") or []:
        if f["name"] == fleet:
            for w in f["waves"]:
                if w["name"] == wave:
                    return w
    return None


def told(d, what, text, severity="warning"):
    """The first notice whose text contains TEXT (notice()), or None, after
    one check "WHAT: the run tells it": there is one and it is a SEVERITY."""
    n = notice(d, text)
    check("%s: the run tells it" % what, n is not None and n["severity"] == severity,
          [x["text"] for x in d["notices"]])
    return n


def stageset_statuses(d):
    """(t_ms, reason, detail, message) of each status write of a StageSet,
    detail and message "" for none."""
    return [(e["t_ms"], e["reason"], e["detail"] or "", e["message"] or "") for e in d["timeline"]
            if e["kind"] == "StageSet" and e["change"] == "status"]


def member_ready(d, ns, name):
    """(t_ms, reason) of each status write of StageSet NS/NAME."""
    return [(e["t_ms"], e["reason"]) for e in d["timeline"]
            if e["kind"] == "StageSet" and e["namespace"] == ns and e["name"] == name
            and e["change"] == "status"]


def annotated(d, kind, key):
    """Timeline entries of KIND that set annotation KEY."""
    return [e for e in d["timeline"] if e["kind"] == kind and e["change"] == "updated"
            and e["detail"] and ("+" + key + "=") in e["detail"]]


def stageset_snapshot(path):
    """The text of the snapshot at PATH (run --snapshot) from its first
    StageSet on."""
    snap = open(path).read()
    return snap[snap.index("kind: StageSet"):]
