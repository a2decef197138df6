#!/usr/bin/env python3
"""The game solve under mpirun (docs/SCALING.md, "On a cluster"), checked
against the threaded solve of the same build:

  1. tables made by R = 1..4 ranks (6 where most pairs of ranks exchange no
     values) are byte for byte the threaded solve's;
  2. a rank killed (SIGKILL) at a random moment stops the whole job with no
     table, or with the right one, and the same command then resumes from the
     ranks' checkpoints to the same bytes;
  3. a rank that hangs (SIGSTOP) makes the others give up after --rank-wait
     with a message naming the wait, and mpirun ends (no hang);
  4. with --memory: each rank's peak memory within 20 % of the model's
     (tools/cluster-memory.py), its base (what is not values) measured by the
     same command on the game of target 1; --full prints the model's figures
     (for its small games the law store's bound, not the values, dominates).

Usage: check_mpi_solve.py MARTIANDICE [--mpirun PATH] [--full] [--six] [--memory]
                          [--kills N] [--kills-only] [--seed S]
  default: small games (a test of the suite, about a minute on 2 cores);
  --full: the sizes of issue 28 (3 players official, 4 players target 10,
  5 players target 8), each with its time, and --kills kill tries (default 10);
  --six: 6 players target 6, R = 1..4 (about an hour on 2 cores), no kills;
  --memory: the memory model's sizes (5 players, targets 6, 8 and 10).
Exits 1 on any failure; prints every figure with its command.
"""
import argparse
import importlib.util
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1")
failures = []


def fail(message):
    print("FAIL:", message, flush=True)
    failures.append(message)


def solve_args(cli, game, out, threads):
    players, target, dice = game
    return [cli, "solve", "--players", str(players), "--target", str(target), "--dice",
            str(dice), "--threads", str(threads), "--no-certify", "--quiet", "--out", out]


MPIRUN = "mpirun"
MEMORY = None  # compare each rank's peak with the model: "print" or "check"


_MODEL = []


def memory_model():
    """tools/cluster-memory.py as a module, loaded once."""
    if not _MODEL:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools",
                            "cluster-memory.py")
        spec = importlib.util.spec_from_file_location("cluster_memory", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _MODEL.append(module)
    return _MODEL[0]


BASES = {}


def base_bytes(cli, players, dice, ranks, folder):
    """Each rank's memory besides the model's values: the peak of the same
    command on the game of target 1, less the model's bytes for it."""
    key = (players, dice, ranks)
    if key not in BASES:
        out = os.path.join(folder, "base-%d-%d-r%d.mdt" % key)
        done, _ = run(mpirun(ranks, solve_args(cli, (players, 1, dice), out, 1) + ["--json"]))
        if done.returncode != 0:
            fail("base of %s: exit %d: %s" % (key, done.returncode, done.stderr[-2000:]))
            BASES[key] = None
        else:
            tiny = memory_model().model(players, 1, dice, 3, ranks, 0)["per_rank"]
            BASES[key] = [p - t["peak"] for p, t in
                          zip(json.loads(done.stdout)["peak_bytes"], tiny)]
    return BASES[key]


def check_memory(cli, game, ranks, peaks, folder):
    players, target, dice = game
    base = base_bytes(cli, players, dice, ranks, folder)
    if base is None:
        return
    model = memory_model().model(players, target, dice, 3, ranks, 0)["per_rank"]
    predicted = [m["peak"] + b for m, b in zip(model, base)]
    off = [(p - m) / m for p, m in zip(predicted, peaks)]
    print("          model: %s MB a rank (base %s MB): %s" %
          (", ".join("%.1f" % (p / 1e6) for p in predicted),
           ", ".join("%.1f" % (b / 1e6) for b in base),
           ", ".join("%+.0f%%" % (100 * o) for o in off)), flush=True)
    if MEMORY == "check" and any(abs(o) > 0.2 for o in off):
        fail("%s on %d ranks: the memory model is off by more than 20 %%" % (game, ranks))


def mpirun(ranks, args):
    return [MPIRUN, "--oversubscribe", "-np", str(ranks)] + args


def run(command, timeout=3600):
    begin = time.monotonic()
    done = subprocess.run(command, env=ENV, capture_output=True, text=True, timeout=timeout)
    return done, time.monotonic() - begin


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def reference(cli, game, folder):
    out = os.path.join(folder, "threaded-%d-%d-%d.mdt" % game)
    command = solve_args(cli, game, out, 2) + ["--json"]
    done, seconds = run(command)
    if done.returncode != 0:
        fail("threaded solve %s: exit %d: %s" % (game, done.returncode, done.stderr))
        return None
    print("%6.1f s  threaded, 2 threads: %s; peak %.1f MB" %
          (seconds, " ".join(command[1:]), json.loads(done.stdout)["peak_bytes"][0] / 1e6),
          flush=True)
    return out


def check_ranks(cli, game, ranks, folder, ref):
    for r in ranks:
        out = os.path.join(folder, "mpi-%d-%d-%d-r%d.mdt" % (game + (r,)))
        command = mpirun(r, solve_args(cli, game, out, 1) + ["--json"])
        done, seconds = run(command)
        if done.returncode != 0:
            fail("%s on %d ranks: exit %d: %s" % (game, r, done.returncode, done.stderr[-2000:]))
            continue
        same = same_bytes(out, ref)
        report = json.loads(done.stdout)
        print("%6.1f s  %d rank(s), 1 thread each: %s -> %s; peak %.1f MB a rank (%s)" %
              (seconds, r, " ".join(command), "identical" if same else "DIFFERENT",
               max(report["peak_bytes"]) / 1e6,
               ", ".join("%.1f" % (b / 1e6) for b in report["peak_bytes"])), flush=True)
        if not same:
            fail("%s on %d ranks: the table differs from the threaded solve's" % (game, r))
        if MEMORY:
            check_memory(cli, game, r, report["peak_bytes"], folder)
        leftovers = [f for f in os.listdir(folder) if ".checkpoint" in f]
        if leftovers:
            fail("%s on %d ranks: checkpoints left after the table was written: %s" %
                 (game, r, leftovers))


def rank_pids(mpirun_pid):
    """The ranks' process ids (children of mpirun named martiandice)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open("/proc/%s/comm" % entry) as f:
                name = f.read().strip()
        except OSError:
            continue
        if int(fields[1]) == mpirun_pid and name == "martiandice":
            pids.append(int(entry))
    return sorted(pids)


def check_kills(cli, game, ranks, tries, folder, ref, rng, job_seconds):
    """Each try: the job started, a random rank killed at a random moment of
    its run (a try whose job ended first is started again), then the same
    command run again (resumed) to the end."""
    for k in range(tries):
        out = os.path.join(folder, "kill%d.mdt" % k)
        command = mpirun(ranks, solve_args(cli, game, out, 1) + ["--checkpoint-every", "0"])
        for attempt in range(5):
            proc = subprocess.Popen(command, env=ENV, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            delay = rng.uniform(0.2, 0.95 * job_seconds)
            deadline = time.monotonic() + delay
            while time.monotonic() < deadline and proc.poll() is None:
                time.sleep(0.02)
            pids = rank_pids(proc.pid) if proc.poll() is None else []
            killed = rng.choice(pids) if pids else None
            if killed is not None:
                os.kill(killed, signal.SIGKILL)
            try:
                proc.communicate(timeout=900)
            except subprocess.TimeoutExpired:
                proc.kill()
                fail("kill try %d: mpirun did not end within 900 s after a rank was killed" % k)
                return
            if killed is None:
                print("          try %d: the job ended before %.1f s; again" % (k, delay), flush=True)
                continue
            if proc.returncode == 0:
                fail("kill try %d: the job exited 0 although a rank was killed" % k)
            if os.path.exists(out) and not same_bytes(out, ref):
                fail("kill try %d: a killed job left a table that differs" % k)
            saved = sorted(f[len("kill%d.mdt." % k):] for f in os.listdir(folder)
                           if f.startswith("kill%d.mdt.checkpoint" % k))
            print("          try %d: rank %d of %d killed after %.1f s: mpirun exit %d, %s; "
                  "files %s" % (k, pids.index(killed), ranks, delay, proc.returncode,
                                "a table (identical)" if os.path.exists(out) else "no table",
                                ", ".join(saved) or "none"), flush=True)
            break
        else:
            fail("kill try %d: no rank could be killed in 5 runs" % k)
            continue
        done, seconds = run(command)
        same = done.returncode == 0 and same_bytes(out, ref)
        print("          try %d: resumed to the end in %.1f s: %s" %
              (k, seconds, "identical" if same else "FAILED"), flush=True)
        if done.returncode != 0:
            fail("kill try %d: the resumed job failed: exit %d: %s" %
                 (k, done.returncode, done.stderr[-2000:]))
        elif not same:
            fail("kill try %d: the resumed table differs from the threaded solve's" % k)
        for f in os.listdir(folder):
            if f.startswith("kill%d." % k):
                os.remove(os.path.join(folder, f))


def check_hang(cli, game, folder):
    out = os.path.join(folder, "hang.mdt")
    command = mpirun(3, solve_args(cli, game, out, 1) + ["--rank-wait", "1"])
    begin = time.monotonic()
    proc = subprocess.Popen(command, env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    stopped = None
    while time.monotonic() - begin < 30 and stopped is None and proc.poll() is None:
        time.sleep(0.2)
        pids = rank_pids(proc.pid)
        if len(pids) == 3:
            time.sleep(0.5)
            stopped = pids[1]
            os.kill(stopped, signal.SIGSTOP)
    try:
        _, err = proc.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        proc.kill()
        if stopped:
            os.kill(stopped, signal.SIGKILL)
        fail("a stopped rank: mpirun still running 120 s later (a hang)")
        return
    seconds = time.monotonic() - begin
    if stopped is None:
        fail("a stopped rank: the job ended before a rank could be stopped")
        return
    try:
        os.kill(stopped, signal.SIGKILL)
    except ProcessLookupError:
        pass
    print("%6.1f s  a rank stopped (SIGSTOP), --rank-wait 1: mpirun exit %d" %
          (seconds, proc.returncode), flush=True)
    if proc.returncode == 0 or "did not join the exchange" not in err:
        fail("a stopped rank: expected a failed job naming the wait, got exit %d: %s" %
             (proc.returncode, err[-2000:]))
    if os.path.exists(out):
        fail("a stopped rank: a table was written")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("cli")
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--full", action="store_true")
    parser.add_argument("--six", action="store_true")
    parser.add_argument("--kills", type=int, default=None)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--kills-only", action="store_true")
    parser.add_argument("--memory", action="store_true")
    args = parser.parse_args()
    global MPIRUN, MEMORY
    MPIRUN = args.mpirun
    MEMORY = "check" if args.memory else "print" if args.full else None
    if shutil.which(MPIRUN) is None:
        print("check_mpi_solve: no %s" % MPIRUN, file=sys.stderr)
        return 1
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    print("seed %d; %d cores; %s" % (seed, os.cpu_count(), os.uname().nodename), flush=True)
    folder = tempfile.mkdtemp(prefix="mpi-solve-")
    try:
        if args.memory:
            games = [((5, t, 13), [1, 2, 3, 4]) for t in (6, 8, 10)]
            kill_game, kills = (4, 10, 13), 0 if args.kills is None else args.kills
        elif args.six:
            games = [((6, 6, 13), [1, 2, 3, 4])]
            kill_game, kills = (6, 6, 13), 0 if args.kills is None else args.kills
        elif args.full:
            games = [((3, 25, 13), [1, 2, 3, 4]), ((4, 10, 13), [1, 2, 3, 4]),
                     ((5, 8, 13), [1, 2, 3, 4])]
            kill_game, kills = (4, 10, 13), 10 if args.kills is None else args.kills
        else:
            # (3, 10, 2): a turn scores 2 at most, so of 6 ranks each reads
            # only 2 others' vectors (the rest send it their status alone).
            games = [((2, 25, 13), [2, 3]), ((3, 10, 13), [1, 2, 3, 4]), ((4, 6, 13), [3]),
                     ((5, 6, 6), [2, 4]), ((3, 10, 2), [6])]
            kill_game, kills = (4, 6, 13), 2 if args.kills is None else args.kills
        refs = {}
        for game, ranks in ([] if args.kills_only else games):
            refs[game] = reference(args.cli, game, folder)
            if refs[game]:
                check_ranks(args.cli, game, ranks, folder, refs[game])
        if kills > 0:
            ref = refs.get(kill_game) or reference(args.cli, kill_game, folder)
            timing = os.path.join(folder, "timing.mdt")
            _, job = run(mpirun(3, solve_args(args.cli, kill_game, timing, 1) +
                                ["--checkpoint-every", "0"]))
            print("%d kill tries on %s, 3 ranks (a rank killed within 0.95 x %.1f s, the "
                  "job's time):" % (kills, kill_game, job), flush=True)
            if ref:
                check_kills(args.cli, kill_game, 3, kills, folder, ref, rng, job)
        check_hang(args.cli, (3, 10, 13), folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print("check_mpi_solve: %d failure(s)" % len(failures))
        return 1
    print("check_mpi_solve: all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
