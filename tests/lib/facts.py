"""Helpers of the python fact checks that tests/examples.sh and
tests/fleet-examples.sh feed to `pyfacts` (tests/lib.sh): each check prints
one "ok   WHAT" or "FAIL WHAT" line, which the shell counts."""
import json
import os


def load(folder, name):
    """The run report folder/NAME.json as parsed JSON, or None (and a FAIL
    line naming NAME) when it cannot be read or parsed."""
    path = os.path.join(folder, name + ".json")
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print("FAIL %s: no readable report (%s)" % (name, e))
        return None


def check(what, cond, got=None):
    """Prints "ok   WHAT" when cond is true, else "FAIL WHAT", followed by
    " (got GOT)" when got is given."""
    if cond:
        print("ok   " + what)
    else:
        print("FAIL " + what + ("" if got is None else " (got %r)" % (got,)))


def status_changes(d, kind, name):
    """(t_ms, phase, reason, message) of the status writes of the KIND named
    NAME in report d that changed its phase, reason or message."""
    out = []
    for e in d["timeline"]:
        if e["kind"] == kind and e["name"] == name and e["change"] == "status":
            row = (e["t_ms"], e["phase"], e["reason"], e["message"])
            if not out or out[-1][1:] != row[1:]:
                out.append(row)
    return out
