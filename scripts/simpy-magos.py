#!/usr/bin/python3
"""A plain SimPy model of the scripts/gen-magos-fleet.sh scenario, for the
speed comparison of BENCHMARKS.md only (it is not part of magos-sim and
decides nothing for it).

    scripts/simpy-magos.py N STEPS      (Debian: apt-get install python3-simpy3)

N Workspaces of one Project; STEPS = 0: the Project grants every Workspace at
once (DefaultParallel); STEPS > 0: a Rollout of STEPS steps, Workspace i in
step i mod STEPS, each step granted once the one before is Applied.  A
granted Workspace runs a plan Job and then an apply Job, each a pod start
(5s) then its work (plan 15s, apply 25s): the default models of magos-sim.

It keeps what a controller-runtime emulation needs and no more: a store of
objects with change notifications, one work queue per controller that
merges repeated requests for a key, one worker per controller, Jobs as
processes.  The Rollout and the Project controllers keep their per-step
counts (as magos-sim does since it keeps step membership), so the model is
not quadratic either.  Prints one line: events (SimPy steps), simulated time
to complete, CPU seconds, events per CPU second.
"""
import sys
import time

import simpy

POD_START, PLAN, APPLY = 5, 15, 25


class Queue:
    """A controller work queue: a key queued twice before its turn runs once."""

    def __init__(self, env, reconcile):
        self.env, self.reconcile = env, reconcile
        self.pending, self.order = set(), []
        self.wake = env.event()
        env.process(self.worker())

    def add(self, key):
        if key in self.pending:
            return
        self.pending.add(key)
        self.order.append(key)
        if not self.wake.triggered:
            self.wake.succeed()

    def worker(self):
        while True:
            if not self.order:
                self.wake = self.env.event()
                yield self.wake
                continue
            key = self.order.pop(0)
            self.pending.discard(key)
            yield self.env.timeout(0)  # one dispatch event per reconcile
            self.reconcile(key)


class World:
    def __init__(self, env, n, steps):
        self.env, self.n, self.steps = env, n, steps
        self.phase = ["Pending"] * n          # Pending, Granted, Planning, Applying, ApplyDone, Applied
        self.step_of = [i % steps if steps else 0 for i in range(n)]
        nsteps = max(steps, 1)
        self.applied = [0] * nsteps
        self.size = [0] * nsteps
        self.members = [[] for _ in range(nsteps)]
        for i, s in enumerate(self.step_of):
            self.size[s] += 1
            self.members[s].append(i)
        self.granted = -1
        self.current = 0
        self.done_at = None
        self.ws_q = Queue(env, self.reconcile_ws)
        self.driver_q = Queue(env, self.reconcile_driver)
        self.driver_q.add("driver")

    def changed(self, i):
        """A Workspace changed: its own controller and the driver are told."""
        self.ws_q.add(i)
        self.driver_q.add("driver")

    def reconcile_driver(self, _key):
        while self.current < len(self.size) and self.applied[self.current] == self.size[self.current]:
            self.current += 1
        if self.current == len(self.size):
            if self.done_at is None:
                self.done_at = self.env.now
            return
        if self.granted == self.current:
            return
        self.granted = self.current
        for i in self.members[self.current]:
            self.phase[i] = "Granted"
            self.changed(i)

    def reconcile_ws(self, i):
        if self.phase[i] == "Granted":
            self.phase[i] = "Planning"
            self.env.process(self.job(i, PLAN, "Applying"))
        elif self.phase[i] == "ApplyDone":  # the Job succeeded: status.phase Applied
            self.phase[i] = "Applied"
            self.applied[self.step_of[i]] += 1
            self.changed(i)

    def job(self, i, work, then):
        yield self.env.timeout(POD_START)
        yield self.env.timeout(work)
        if then == "Applying":
            self.phase[i] = "Applying"
            self.env.process(self.job(i, APPLY, "ApplyDone"))
        else:
            self.phase[i] = "ApplyDone"
        self.changed(i)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: simpy-magos.py N STEPS")
    n, steps = int(sys.argv[1]), int(sys.argv[2])
    t0 = time.process_time()
    env = simpy.Environment()
    world = World(env, n, steps)
    events = 0
    while world.done_at is None:
        env.step()
        events += 1
    cpu = time.process_time() - t0
    print(f"simpy magos {n} workspaces, {steps} steps: {events} events, "
          f"time to complete {world.done_at}s simulated, {cpu:.3f} s CPU, "
          f"{events / cpu:,.0f} events per CPU second")


if __name__ == "__main__":
    main()
