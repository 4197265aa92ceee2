"""Helpers of the python fact checks of tests/resume-report.sh (fed to
`pyfacts`, tests/lib.sh): a run resumed from a snapshot of the simulator
compared with the uninterrupted run, whose times are read on the original
clock."""
import json
import re
import subprocess

import yaml

# "at DURATION" in a notice: a Go duration, possibly negative.
AT = re.compile(r'\bat (-?(?:\d+h)?(?:\d+m(?!s))?(?:\d+(?:\.\d+)?(?:ms|s))?)(?=[\s,;:).]|$)')


def ms(d):
    """The Go duration d ("1h2m3.5s", "-4ms") in whole ms."""
    t = sum(float(v) * {'h': 3600000, 'm': 60000, 's': 1000, 'ms': 1}[u]
            for v, u in re.findall(r'(\d+(?:\.\d+)?)(h|ms|m|s)', d))
    return -round(t) if d.startswith('-') else round(t)


def on_original_clock(text, shift):
    """text with each "at DURATION" written "at <N ms>", N the duration
    plus shift (the ms from the original run's start to the resumed run's)."""
    return AT.sub(lambda m: 'at <%d ms>' % (ms(m.group(1)) + shift) if re.search(r'\d', m.group(1)) else m.group(0),
                  text)


def run_json(sim, path, args):
    """`sim run -q --until horizon --json path ARGS`: (the report parsed,
    None), or (None, "run failed: STDERR") when it exits other than 0 or 1
    (1: an expectation failed, which these runs may)."""
    p = subprocess.run([sim, 'run', '-q', '--until', 'horizon', '--json', path] + args,
                       capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return None, 'run failed: ' + p.stderr[:300]
    with open(path) as f:
        return json.load(f), None


def snapshot(sim, src, t, path):
    """Runs src with --snapshot at t ms into path (an exception when that
    fails); returns the snapshot's text and the --now it says to resume
    with."""
    subprocess.run([sim, 'run', '-q', '--until', 'horizon', '--snapshot', '%dms' % t, path, src],
                   capture_output=True, check=True)
    with open(path) as f:
        text = f.read()
    return text, text.split('run --now ')[1].split()[0]


def scenario_only(src, dst, drop_generate=False):
    """The Scenario documents of src into dst, without the objects (a
    snapshot holds them); without spec.generate too when drop_generate."""
    docs = [d for d in yaml.safe_load_all(open(src)) if d and d.get('kind') == 'Scenario']
    if drop_generate:
        for d in docs:
            d['spec'].pop('generate', None)
    with open(dst, 'w') as f:
        yaml.safe_dump_all(docs, f)


def _key(e):
    # a status write lists the keys it changed in the stored map's order,
    # which a snapshot (keys sorted, as kubectl prints them) does not keep
    detail = sorted(x.split(': ')[-1] for x in (e['detail'] or '').split(', '))
    return (e['kind'], e['namespace'], e['name'], e['change'], e['phase'], e['reason'], e['message'], detail)


def _told(d, shift, after):
    """d's notices but the horizon's, their times on the original clock;
    only those after `after` ms on that clock when it is not None."""
    return [on_original_clock(n['text'], shift) for n in d['notices']
            if not n['text'].startswith('horizon ') and (after is None or n['t_ms'] + shift > after)]


def resumed_differ(sim, tmp, src, times, notices=True, since=False, extra=None):
    """Where runs of src resumed at times (ms) part from the whole run: the
    rest of the timeline, and, when notices, the notices (those after the
    snapshot's time alone when since: a notice told before it is not told
    again); extra(t, whole, rest), when given, returns more differences.
    Scratch files go to tmp; [] when every resumed run agrees."""
    scenario_only(src, tmp + '/resume-sc.yaml')
    whole, err = run_json(sim, tmp + '/resume-whole.json', [src])
    differ = [err] if err else []
    for t in times:
        _, now = snapshot(sim, src, t, tmp + '/resume-snap.yaml')
        rest, err = run_json(sim, tmp + '/resume-rest.json', ['--now', now, tmp + '/resume-sc.yaml', tmp + '/resume-snap.yaml'])
        if err:
            differ.append((t, err))
            continue
        want = [(e['t_ms'], _key(e)) for e in whole['timeline'] if e['t_ms'] > t]
        got = [(e['t_ms'] + t, _key(e)) for e in rest['timeline'] if e['t_ms'] > 0]
        if want != got:
            first = next((i for i, (a, b) in enumerate(zip(want, got)) if a != b), min(len(want), len(got)))
            differ.append((t, want[first:first + 1], got[first:first + 1]))
        after = t if since else None
        if notices and _told(whole, 0, after) != _told(rest, t, after):
            differ.append((t, _told(whole, 0, after), _told(rest, t, after)))
        if extra:
            differ.extend(extra(t, whole, rest))
    return differ
