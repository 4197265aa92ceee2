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
