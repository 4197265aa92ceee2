#!/bin/sh
# The StageSet pacing hazards told twice, by `lint` before a run and by `run`
# at its end, each claim checked against the run of the same input, with a
# near miss where it must not fire (tests/hazards/pace-*.yaml).
#   MS242  new members baseline on the 4 workers; 1.1.0 published at 1h while
#          the canary soaks an hour: broad members whose first pass starts
#          after 1h take 1.1.0 as their first version before wave broad
#          opens.  Published at 2h40m, after every first pass: nothing.
#   MS243  200 members held AwaitingApproval for 30m, polled every minute at
#          2s a pass: the polls keep the 4 workers busy, and the run counts
#          them.  At 500ms a pass (42% of the workers): nothing.
#   MS244  a dependsOn across namespaces: the dependent moves on only at its
#          own retry, minutes after its dependency went Ready.  In one
#          namespace: woken at once, nothing told.
#   MS245  a stage source in another namespace, not ready until 5m: the
#          StageSet moves on only at its own retry.  In the source's
#          namespace: woken at once, nothing told.
. "$(dirname "$0")/lib.sh"
require_python
. "$(dirname "$0")/lib/hazards.sh"

# ---- MS242: a publish before the members have baselined ---------------------
lint_of pace-baseline
contains "baseline: MS242 is a warning with the scenario's numbers" "$tmp/pace-baseline.lint" \
	'MS242 warning FleetRollout shop: the publish of 1.1.0 at 1h0m0s reaches members that have not adopted a version yet: the StageSet controller gives each new StageSet a first pass on its 4 workers (3m1s a pass at the median modelled durations, the last first pass starting about 2h30m50s after the start)'
contains "baseline: ... how many, and when their wave can open" "$tmp/pace-baseline.lint" \
	'so about 80 members of 1 later wave (e.g. tenant-080/shop of wave "broad", which opens no sooner than 2h0m0s) take 1.1.0 as their first version before their wave opens'
contains "baseline: ... and what to change" "$tmp/pace-baseline.lint" \
	'publish after the members have baselined (from about 2h31m35s here), or give them a status.version'
"$SIM" lint --no-color "$H/pace-baseline.yaml" >"$tmp/pb.txt" 2>&1
contains "baseline: MS242 points at the publish event" "$tmp/pb.txt" \
	"$H/pace-baseline.yaml:33:7: warning: FleetRollout shop: the publish of 1.1.0"
run_of pace-baseline
facts_of pace-baseline <<'EOF'
def fmt_ms(ms):
    """A time of the run as Go prints a duration of an hour or more."""
    sec = ("%d.%03d" % (ms % 60000 // 1000, ms % 1000)).rstrip("0").rstrip(".")
    return "%dh%dm%ss" % (ms // 3600000, ms // 60000 % 60, sec)
# A pass of these members holds its worker 3m1s (1s apply, 3m readiness).
PASS = 181000
opened = wave_opened(d, "shop", "broad")
base = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["reason"] == "MigrationsBaselined"
        and e["message"].startswith("baselined at 1.1.0 ") and e["namespace"] != "tenant-000"]
early = sorted(e["t_ms"] - PASS for e in base if e["t_ms"] - PASS < opened)
check("baseline: broad members baselined at 1.1.0 before the wave opened (%d)" % len(early),
      opened is not None and len(early) > 60)
check("baseline: none before the publish", early and early[0] >= 3600000)
n = notice(d, 'members of wave "broad" (the first: ')
check("baseline: the run tells it as a warning", n is not None and n["severity"] == "warning")
m = re.search(r"^FleetRollout shop: (\d+) members of wave \"broad\" \(the first: (\S+)\) took 1\.1\.0, "
              r"published at 1h0m0s, as their first version, starting between (\S+) and (\S+), "
              r"before the wave opened at (\S+):", n["text"] if n else "")
check("baseline: the notice's count is the timeline's (%s)" % (m and m.group(1)),
      m is not None and int(m.group(1)) == len(early))
check("baseline: ... its first and last start are the timeline's",
      m is not None and m.group(3) == fmt_ms(early[0]) and m.group(4) == fmt_ms(early[-1]))
check("baseline: ... and the wave's opening", m is not None and m.group(5) == fmt_ms(opened))
EOF

lint_of pace-baseline-late
lacks "baseline late: no MS242" "$tmp/pace-baseline-late.lint" "MS242"
run_of pace-baseline-late
facts_of pace-baseline-late <<'EOF'
base = [e for e in d["timeline"] if e["kind"] == "StageSet" and e["reason"] == "MigrationsBaselined"]
check("baseline late: every member baselined at 1.0.0 (%d)" % len(base),
      len(base) == 201 and all(e["message"].startswith("baselined at 1.0.0 ") for e in base))
check("baseline late: no notice", notice(d, "as their first version") is None)
EOF

# ---- MS243: held members poll every minute ----------------------------------
lint_of pace-polls
contains "polls: MS243 is a warning with the scenario's numbers" "$tmp/pace-polls.lint" \
	'MS243 warning FleetRollout shop: the publish of 1.1.0 at 30m0s leaves 200 members of its later waves (e.g. tenant-001/shop) AwaitingApproval until their wave opens, and the StageSet controller requeues each held member every 1m, without jitter; each such pass holds a worker for spec.api.reconcileDuration 2s, so they ask 6m40s of worker time a minute of the 4 workers'"'"' 4m0s (167%): the held polls alone keep every worker busy: each comes round only every 1m40s'
contains "polls: ... and what to change" "$tmp/pace-polls.lint" \
	'hold fewer members at once (publish to a wave'"'"'s members when it opens, or split the fleet) or shorten the pass'
run_of pace-polls
facts_of pace-polls <<'EOF'
def ms(t):
    """A Go duration of the notice (h, m, s with a fraction) in ms."""
    m = re.fullmatch(r"(?:(\d+)h)?(?:(\d+)m)?(?:([\d.]+)s)?", t)
    return round(((int(m.group(1) or 0) * 60 + int(m.group(2) or 0)) * 60 + float(m.group(3) or 0)) * 1000)
opened = wave_opened(d, "shop", "broad")
held = {e["namespace"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
        and e["reason"] == "AwaitingApproval" and 1800000 <= e["t_ms"] < (opened or 0)}
check("polls: the 200 broad members were held from the publish until broad opened (%d)" % len(held),
      len(held) == 200 and "tenant-000" not in held)
n = notice(d, "members of its later waves, held AwaitingApproval, polled")
check("polls: the run tells it as a warning", n is not None and n["severity"] == "warning")
m = re.search(r"FleetRollout shop: (\d+) members of its later waves, held AwaitingApproval, polled (\d+) "
              r"times from (\S+) to (\S+), (\d+) a minute .* holding a worker (\S+) on average "
              r"\(spec.api.reconcileDuration 2s\): (\S+) of worker time, (\d+)% of the 4 workers",
              n["text"] if n else "")
check("polls: the notice has its numbers", m is not None)
if m:
    members, passes, t0, t1 = int(m.group(1)), int(m.group(2)), ms(m.group(3)), ms(m.group(4))
    check("polls: the held members are the timeline's", members == len(held))
    check("polls: the polls lie between the publish and broad opening (%s..%s)" % (t0, t1),
          1800000 <= t0 and t1 < opened)
    check("polls: 2s each, the worker time is theirs", ms(m.group(6)) == 2000 and ms(m.group(7)) == 2000 * passes)
    # Unhindered, 200 members would poll 200 times a minute; 4 workers at 2s a
    # pass run 120: the notice's count is what saturated workers allow.
    rate = passes * 60000.0 / (t1 - t0)
    check("polls: the workers were saturated (%.1f a minute, at most 120)" % rate, 110 <= rate <= 121)
    check("polls: the share is the whole of the workers", int(m.group(8)) == 100)
EOF

lint_of pace-polls-light
lacks "polls light: no MS243" "$tmp/pace-polls-light.lint" "MS243"
run_of pace-polls-light
facts_of pace-polls-light <<'EOF'
opened = wave_opened(d, "shop", "broad")
held = {e["namespace"] for e in d["timeline"] if e["kind"] == "StageSet" and e["change"] == "status"
        and e["reason"] == "AwaitingApproval" and 1800000 <= e["t_ms"] < (opened or 0)}
check("polls light: the same 200 members were held (%d)" % len(held), len(held) == 200)
check("polls light: no notice", notice(d, "held AwaitingApproval, polled") is None)
EOF

# ---- MS244: a dependency in another namespace -------------------------------
lint_of pace-dependency
contains "dependency: MS244 is info with the scenario's numbers" "$tmp/pace-dependency.lint" \
	'MS244 info StageSet web/shop depends on data/db in another namespace: the controller wakes a StageSet'"'"'s dependents only in its own namespace, so shop sees db become ready only at its next pass (its own retry after a DependencyNotReady pass, up to 10m0s ±5% later: the controller'"'"'s default interval, which retryInterval follows when unset; or an event of its own), and stays DependencyNotReady until then; keep the two in one namespace, or set a shorter spec.retryInterval on shop (e.g. 30s)'
run_of pace-dependency
facts_of pace-dependency <<'EOF'
db = member_ready(d, "data", "db")
shop = member_ready(d, "web", "shop")
ready = next((t for t, r in db if r == "Succeeded"), None)
held = next((t for t, r in shop if r == "DependencyNotReady"), None)
on = next((t for t, r in shop if r != "DependencyNotReady" and ready is not None and t >= ready), None)
check("dependency: shop was DependencyNotReady before db went Ready", held is not None and ready is not None and held < ready)
# its retry: 10m after its DependencyNotReady pass, jittered ±5%, then its own 11s pass
check("dependency: shop moved on at its retry, not when db went Ready (%s, %s)" % (ready, on),
      on is not None and 0.95 * 600000 + held <= on - 11000 <= 1.05 * 600000 + held + 1000)
n = notice(d, "StageSet web/shop waited ")
check("dependency: the run tells it (info)", n is not None and n["severity"] == "info")
def fmt(ms):
    sec = ("%d.%03d" % (ms % 60000 // 1000, ms % 1000)).rstrip("0").rstrip(".")
    return ("%dm%ss" % (ms // 60000, sec)) if ms >= 60000 else sec + "s"
check("dependency: the notice's times are the timeline's",
      n is not None and ("waited %s for its dependency data/db" % fmt(on - ready)) in n["text"]
      and ("data/db went Ready at %s" % fmt(ready)) in n["text"]
      and ("its status changed at %s" % fmt(on)) in n["text"])
EOF

lint_of pace-dependency-same
lacks "dependency same namespace: no MS244" "$tmp/pace-dependency-same.lint" "MS244"
run_of pace-dependency-same
facts_of pace-dependency-same <<'EOF'
ready = next((t for t, r in member_ready(d, "data", "db") if r == "Succeeded"), None)
on = next((t for t, r in member_ready(d, "data", "shop") if r != "DependencyNotReady"), None)
check("dependency same namespace: shop moved on one pass after db (%s, %s)" % (ready, on),
      ready is not None and on is not None and 0 <= on - ready <= 12000)
check("dependency same namespace: no notice", notice(d, "waited") is None)
EOF

# ---- MS245: a source in another namespace -----------------------------------
lint_of pace-source
contains "source: MS245 is info with the scenario's numbers" "$tmp/pace-source.lint" \
	'MS245 info StageSet web/shop stage "app" reads GitRepository infra/shop in another namespace: a source wakes only the StageSets of its own namespace, so shop sees a new revision of it, or the source ready again, only at its next pass: up to 10m0s ±5% later when steady (the controller'"'"'s default interval), the same (retryInterval follows it) after a SourceNotReady hold'
run_of pace-source
facts_of pace-source <<'EOF'
shop = member_ready(d, "web", "shop")
held = next((t for t, r in shop if r == "SourceNotReady"), None)
on = next((t for t, r in shop if r != "SourceNotReady"), None)
# the source is ready again at 5m (the scenario's notReady window)
check("source: shop was SourceNotReady before 5m", held is not None and held < 300000)
check("source: shop moved on at its retry, not at 5m (%s)" % on,
      on is not None and 0.95 * 600000 + held <= on - 11000 <= 1.05 * 600000 + held + 1000)
n = notice(d, "StageSet web/shop waited ")
def fmt(ms):
    sec = ("%d.%03d" % (ms % 60000 // 1000, ms % 1000)).rstrip("0").rstrip(".")
    return ("%dm%ss" % (ms // 60000, sec)) if ms >= 60000 else sec + "s"
check("source: the run tells it (info)", n is not None and n["severity"] == "info")
check("source: the notice's times are the timeline's",
      n is not None and ("waited %s for its source GitRepository infra/shop" % fmt(on - 300000)) in n["text"]
      and "the source was ready again at 5m0s" in n["text"] and ("its status changed at %s" % fmt(on)) in n["text"])
EOF

lint_of pace-source-same
lacks "source same namespace: no MS245" "$tmp/pace-source-same.lint" "MS245"
run_of pace-source-same
facts_of pace-source-same <<'EOF'
on = next((t for t, r in member_ready(d, "infra", "shop") if r != "SourceNotReady"), None)
check("source same namespace: shop moved on one pass after 5m (%s)" % on,
      on is not None and 300000 <= on <= 312000)
check("source same namespace: no notice", notice(d, "waited") is None)
EOF

finish
