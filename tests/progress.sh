#!/bin/sh
# The progress line: on a terminal (a pseudo-terminal from script(1)) the
# long work of run, compare, check, lint and merge shows what it does with a
# rate and the time left; nothing when standard error is not a terminal,
# under CI, or with -q; and stdout carries the same bytes either way; and
# Ctrl-C erases the line before the command dies of it.
. "$(dirname "$0")/lib.sh"
require_sim
if ! command -v script >/dev/null 2>&1; then
	bad "script(1) is installed (bsdutils), to give the commands a terminal"
	finish
fi
# A machine without pseudo-terminals (a chroot without /dev/pts, some
# containers) skips these tests and says so; CI, which has them, requires them.
if ! script -qfec true /dev/null </dev/null >"$tmp/pty" 2>&1; then
	if [ "${MAGOS_REQUIRE_CONSUMERS:-0}" = 1 ]; then
		bad "a pseudo-terminal can be opened (devpts mounted on /dev/pts)"
		show "$tmp/pty"
	else
		echo "skip the progress line: no pseudo-terminal can be opened here (mount devpts on /dev/pts)"
	fi
	finish
fi
# on_tty NAME CMD: runs the shell command CMD with stdout to $tmp/NAME.out
# and stderr on a pseudo-terminal, whose text (each redraw a line) goes to
# $tmp/NAME.tty.
# MAGOS_PROGRESS_AFTER=0: drawn from the first report, however fast the
# machine; TERM as a terminal emulator sets it (make check may run with none,
# or with TERM=dumb, which turns the line off).
on_tty() {
	env -u CI TERM=xterm MAGOS_PROGRESS_AFTER=0 script -qfec "$2 >$tmp/$1.out" /dev/null \
		</dev/null | tr '\r' '\n' >"$tmp/$1.tty"
}
scripts/gen-fleet.sh 3000 30 5 >"$tmp/fleet.yaml"
trials="-n 500 -j 2 scenarios/three-environments.yaml"

on_tty trials "$SIM run $trials"
contains "run -n: the trials line" "$tmp/trials.tty" "trials ["
contains "run -n: with a count" "$tmp/trials.tty" "/500 trials"
contains "run -n: with a rate and an ETA" "$tmp/trials.tty" "/s  ETA "
"$SIM" run $trials >"$tmp/plain.out" 2>"$tmp/plain.err"
check "run -n: stdout is the same without a terminal" cmp -s "$tmp/trials.out" "$tmp/plain.out"
lacks "run -n: no progress when stderr is not a terminal" "$tmp/plain.err" "ETA"
env CI=true TERM=xterm MAGOS_PROGRESS_AFTER=0 script -qfec "$SIM run $trials >/dev/null" /dev/null \
	</dev/null | tr '\r' '\n' >"$tmp/ci.tty"
lacks "run -n: no progress under CI" "$tmp/ci.tty" "ETA"
env -u CI TERM=dumb MAGOS_PROGRESS_AFTER=0 script -qfec "$SIM run $trials >/dev/null" /dev/null \
	</dev/null | tr '\r' '\n' >"$tmp/dumb.tty"
lacks "run -n: no progress on a dumb terminal" "$tmp/dumb.tty" "ETA"
on_tty quiet "$SIM run -q $trials"
lacks "run -n -q: no progress" "$tmp/quiet.tty" "ETA"

on_tty one "$SIM run --timeline none $tmp/fleet.yaml"
contains "one big run: simulated time against the horizon" "$tmp/one.tty" "of 2h32m0s simulated"
contains "one big run: an upper bound of the time left" "$tmp/one.tty" "ETA <= "

on_tty cmp "$SIM compare -n 300 -j 2 scenarios/compare/base.yaml scenarios/compare/head.yaml"
contains "compare: the trials of both sides" "$tmp/cmp.tty" "trials of base and head ["
contains "compare: counted over both" "$tmp/cmp.tty" "/600 trials"

on_tty chk "$SIM check -n 300 -j 2 scenarios/ci/magos-staged.yaml"
contains "check: the scenario and its trials" "$tmp/chk.tty" "scenario 1/1: trials ["
lacks "check: stdout has no progress" "$tmp/chk.out" "ETA"
on_tty chkq "$SIM check -q -n 300 -j 2 scenarios/ci/magos-staged.yaml"
lacks "check -q: no progress" "$tmp/chkq.tty" "trials ["
check "check -q: the same report" cmp -s "$tmp/chk.out" "$tmp/chkq.out"
on_tty chkquiet "$SIM check --quiet -n 300 -j 2 scenarios/ci/magos-staged.yaml"
lacks "check --quiet: no progress" "$tmp/chkquiet.tty" "trials ["
check "check --quiet: the same report" cmp -s "$tmp/chk.out" "$tmp/chkquiet.out"

"$SIM" run -n 40 --shard 1/2 --json "$tmp/p1.json" scenarios/checkout/ 2>/dev/null
"$SIM" run -n 40 --shard 2/2 --json "$tmp/p2.json" scenarios/checkout/ 2>/dev/null
on_tty merge "$SIM merge $tmp/p1.json $tmp/p2.json"
contains "merge: the partial results it reads" "$tmp/merge.tty" "reading ["
on_tty shard "$SIM run -n 400 --shard 1/2 --json $tmp/p3.json scenarios/three-environments.yaml"
contains "run --shard: the trials of the shard" "$tmp/shard.tty" "trials of this shard ["

# A big file: its bytes as it loads.
awk 'BEGIN { for (i = 0; i < 20000; i++)
	printf "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d, namespace: default}\ndata: {a: \"1\", b: \"2\"}\n---\n", i }' >"$tmp/big.yaml"
on_tty lint "$SIM lint $tmp/big.yaml"
contains "lint: a big file's bytes as it loads" "$tmp/lint.tty" "file 1/1 ["
contains "lint: in MB" "$tmp/lint.tty" " MB/s  ETA "
on_tty lintq "$SIM lint -q $tmp/big.yaml"
lacks "lint -q: no progress" "$tmp/lintq.tty" "file 1/1 ["
check "lint -q: the same findings" cmp -s "$tmp/lint.out" "$tmp/lintq.out"
on_tty lintquiet "$SIM lint --quiet $tmp/big.yaml"
lacks "lint --quiet: no progress" "$tmp/lintquiet.tty" "file 1/1 ["
check "lint --quiet: the same findings" cmp -s "$tmp/lint.out" "$tmp/lintquiet.out"

# Ctrl-C during the trials: the signal erases the progress line before the
# process dies of it, so the shell's prompt starts on a clean line.  The
# command runs on a pseudo-terminal of python3's pty module; the ^C goes
# through the terminal (its line discipline sends SIGINT), as a user's does.
if command -v python3 >/dev/null 2>&1; then
	cat >"$tmp/ctrlc.py" <<'EOF'
import os, pty, signal, sys, time
argv = sys.argv[1:]
env = dict(os.environ, TERM="xterm", MAGOS_PROGRESS_AFTER="0")
env.pop("CI", None)
pid, fd = pty.fork()
if pid == 0:
    # A user's shell gives the command SIGINT's default action; a test run in
    # the background of a script inherits it ignored, which the command keeps.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    os.execve(argv[0], argv, env)
out, sent, deadline = b"", False, time.time() + 60
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
    out += chunk
    if not sent and out.count(b"ETA") >= 2:
        os.write(fd, b"\x03")
        sent = True
    if time.time() > deadline:
        os.kill(pid, signal.SIGKILL)
_, status = os.waitpid(pid, 0)
tail = out[out.rindex(b"ETA"):] if b"ETA" in out else b""
print("sent=%s signaled=%s sig=%s" % (sent, os.WIFSIGNALED(status),
      os.WTERMSIG(status) if os.WIFSIGNALED(status) else None))
print("tail=%r" % tail[-40:])
ok = sent and os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGINT and \
     tail.endswith(b"\r\x1b[K")
sys.exit(0 if ok else 1)
EOF
	if python3 "$tmp/ctrlc.py" "$SIM" run -n 1000000 -j 1 scenarios/three-environments.yaml \
		>"$tmp/ctrlc.out" 2>&1; then
		ok "Ctrl-C during run -n erases the progress line and dies of SIGINT"
	else
		bad "Ctrl-C during run -n erases the progress line and dies of SIGINT"
		show "$tmp/ctrlc.out"
	fi
else
	echo "skip Ctrl-C on the progress line: no python3"
fi
finish
