#!/usr/bin/python3
"""A plain SimPy model of the scripts/gen-fleet.sh scenario, for the speed
comparison of BENCHMARKS.md only (it is not part of magos-sim and decides
nothing for it).

    scripts/simpy-fleet.py N NAMESPACES WAVES   (Debian: apt-get install python3-simpy3)

N StageSets spread over NAMESPACES namespaces; the namespaces fill the WAVES
waves in index order (namespace j is in wave j * WAVES // NAMESPACES, as
gen-fleet.sh's equal label mix shares them out).  The StageSet controller has
4 workers; a pass holds its worker for 0.1 s (the 100 ms apply gen-fleet.sh
sets; the reconcile duration defaults to 0 s) and requeues the member after its
interval, 10 min jittered by +-5 % (a seeded random.Random: runs repeat).  A
member adopts its spec's 1.0.0 at its first pass; 1.1.0 is published at P
(gen-fleet.sh's formula), after which a member's pass holds it for approval
(pendingVersion) until the FleetRollout has approved it for that version,
and the pass after the approval adopts it.  The FleetRollout is created at
P + 1 min; its one worker approves every member of the current wave, waits
until all of them are at the target version, soaks 5 min and moves on; the
gate of wave 0 always passes (the scenario's series does).  Every member
status change requeues the FleetRollout.

It keeps what a controller-runtime emulation needs and no more: work queues
that merge repeated requests for a key, the delaying queue's one pending
requeue per key (the earlier wins), per-wave counts kept as members change
(magos-sim's FleetRollout keeps them too, so neither is quadratic).  No API
server, admission, conditions, statuses, gates' queries or timeline.  Prints
one line: events (SimPy steps), simulated time to complete, CPU seconds,
events per CPU second.
"""
import random
import sys
import time

import simpy

WORKERS = 4
PASS = 0.1  # s: the 100 ms apply gen-fleet.sh sets (the reconcile duration defaults to 0 s)
INTERVAL = 600.0
SOAK = 300.0


class Queue:
    """A controller work queue with WORKERS workers and per-key delayed requeues."""

    def __init__(self, env, workers, reconcile):
        self.env, self.reconcile = env, reconcile
        self.pending, self.order, self.busy = set(), [], set()
        self.dirty = set()  # changed while its pass ran: queued again after it
        self.due = {}       # key -> (time, token) of its one pending requeue
        self.token = 0
        self.idle = []
        for _ in range(workers):
            env.process(self.worker())

    def add(self, key):
        if key in self.busy:
            self.dirty.add(key)
            return
        if key in self.pending:
            return
        self.pending.add(key)
        self.order.append(key)
        if self.idle:
            self.idle.pop().succeed()

    def add_after(self, key, delay):
        at = self.env.now + delay
        if key in self.due and self.due[key][0] <= at:
            return
        self.token += 1
        self.due[key] = (at, self.token)
        self.env.process(self.timer(key, delay, self.token))

    def timer(self, key, delay, token):
        yield self.env.timeout(delay)
        if self.due.get(key, (None, None))[1] == token:
            del self.due[key]
            self.add(key)

    def worker(self):
        while True:
            if not self.order:
                wake = self.env.event()
                self.idle.append(wake)
                yield wake
                continue
            key = self.order.pop(0)
            self.pending.discard(key)
            self.busy.add(key)
            yield from self.reconcile(key)
            self.busy.discard(key)
            if key in self.dirty:
                self.dirty.discard(key)
                self.add(key)


class Fleet:
    def __init__(self, env, n, ns, waves, publish):
        self.env, self.waves = env, waves
        self.rng = random.Random(1)
        self.wave_of = [(i % ns) * waves // ns for i in range(n)]
        self.size = [0] * waves
        self.members = [[] for _ in range(waves)]
        for i, w in enumerate(self.wave_of):
            self.size[w] += 1
            self.members[w].append(i)
        self.version = [None] * n       # status.version
        self.pending = [None] * n       # status.pendingVersion
        self.approved = [None] * n      # the approved-version annotation
        self.offered = "1.0.0"
        self.at_target = [0] * waves
        self.fr_exists, self.current, self.approved_wave = False, 0, -1
        self.soak_until, self.done_at = None, None
        self.ss_q = Queue(env, WORKERS, self.reconcile_ss)
        self.fr_q = Queue(env, 1, self.reconcile_fr)
        for i in range(n):
            self.ss_q.add(i)
        env.process(self.script(publish))

    def script(self, publish):
        yield self.env.timeout(publish)
        self.offered = "1.1.0"
        for i in range(len(self.version)):
            self.ss_q.add(i)
        yield self.env.timeout(60)
        self.fr_exists = True
        self.fr_q.add("fleet")

    def changed(self, i):
        if self.fr_exists:
            self.fr_q.add("fleet")

    def reconcile_ss(self, i):
        yield self.env.timeout(PASS)
        want = self.offered
        if self.version[i] != want:
            if self.version[i] is None or self.approved[i] == want:
                self.version[i], self.pending[i] = want, None
                if want == "1.1.0":
                    self.at_target[self.wave_of[i]] += 1
                self.changed(i)
            elif self.pending[i] != want:
                self.pending[i] = want
                self.changed(i)
        jitter = 1 + 0.05 * (2 * self.rng.random() - 1)
        self.ss_q.add_after(i, INTERVAL * jitter)

    def reconcile_fr(self, _key):
        yield self.env.timeout(0)  # one dispatch event per reconcile
        w = self.current
        if w == self.waves:
            return
        if self.approved_wave < w:
            self.approved_wave = w
            for i in self.members[w]:
                self.approved[i] = "1.1.0"
                self.ss_q.add(i)
            return
        if self.at_target[w] < self.size[w]:
            return
        if self.soak_until is None:
            self.soak_until = self.env.now + SOAK
            self.fr_q.add_after("fleet", SOAK)
            return
        if self.env.now < self.soak_until:
            return
        self.current, self.soak_until = w + 1, None
        if self.current == self.waves:
            self.done_at = self.env.now
            return
        self.fr_q.add("fleet")


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: simpy-fleet.py N NAMESPACES WAVES")
    n, ns, waves = (int(a) for a in sys.argv[1:])
    if not 1 <= waves <= ns <= n:
        sys.exit("simpy-fleet.py: need 1 <= WAVES <= NAMESPACES <= N")
    publish = max(10, (n * 125 + 400 * 60 - 1) // (400 * 60)) * 60  # gen-fleet.sh's P, s
    t0 = time.process_time()
    env = simpy.Environment()
    fleet = Fleet(env, n, ns, waves, publish)
    events = 0
    while fleet.done_at is None:
        env.step()
        events += 1
    cpu = time.process_time() - t0
    print(f"simpy fleet {n} stagesets in {ns} namespaces, {waves} waves: {events} events, "
          f"time to complete {fleet.done_at - publish - 60:.0f}s after the FleetRollout "
          f"({fleet.done_at:.0f}s simulated), {cpu:.3f} s CPU, "
          f"{events / cpu:,.0f} events per CPU second")


if __name__ == "__main__":
    main()
