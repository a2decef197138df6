#!/usr/bin/env python3
"""The memory model of the game solve on R ranks (docs/SCALING.md, "Memory per rank").

Counts, without solving, what each rank of `martiandice solve` under mpirun
holds at its peak, from the numbering of contexts (docs/FORMAT.md) and the
rules of the game alone (not the solver's code):

  own      its contexts' values: the contexts whose seat 0 total is the rank
           modulo R, 8 bytes per value of a record (every seat's chance, the
           error bound, with 2 players the slope);
  final    at the end, the rank's last checkpoint, streamed to its file: a
           chunk of 1 MiB;
  window   the other ranks' score vectors its turns read (seat 0 gains x
           points, 1 <= x <= reach = max(M, 2), from one of its own vectors),
           kept for the reach + 1 levels (sums of totals) a level can read:
           every mover's record where a cycle's first guess reads them (x <= 2),
           else seat 1's, and 17 bytes of index per vector;
  exchange a level's values in transit: the records the rank sends (to
           each other rank those it reads of the rank's vectors) and those
           it receives (those it reads of the others'), each held once;
  (received: the bytes of records the rank receives over the solve, and in
  its largest level: its traffic in)
  lists    the rank's own score vectors (alone: every one), 8 bytes each;
           the others' are made on the fly as a level's records arrive;
  laws     the settling passes' turn-score laws by policy, one per mover of
           each of its zero-score cycles (every seat below the target) at
           most, and at most the store's bound: one for every fourth pass of
           the whole game (P target^P), 2^17 to 2^22; about 336 bytes each.

peak = base + lists + laws + max(own + final + window at the end,
                                 max over levels of own + window + exchange)

`base` (the process, the turn model, the caches: not values) is measured, by
default from the smallest solve of the same dice (--base-bytes).

Usage: tools/cluster-memory.py --players P --target T [--dice D --bonus B]
       [--ranks R ...] [--base-bytes N] [--json]
       tools/cluster-memory.py --largest [--machines N ...] [--machine-gib G]
  --largest: for each count of machines (one rank each), the largest target
  each number of players (4 to 6) can be solved to with every rank's peak
  within 90 % of the machine's memory.
"""
import argparse
import json
import sys

CHECKPOINT_CHUNK = 1 << 20  # what a checkpoint's writer holds (solver/checkpoint.cpp)
MAX_SHARE = 64 << 30  # the table a rank makes at most (kMaxTableBytes)


def max_turn(dice, bonus):
    return dice + (bonus if dice >= 3 else 0)


def counts_by_s0(players, target, wide):
    """For each seat 0 total s0, {(sum, first mover): number of score vectors}
    over vectors with a context (the last seat below the target), by a
    dynamic program over seats 1.. (no enumeration: 6 players fit)."""
    out = []
    for s0 in range(wide):
        # state: (sum so far, last seat at or over the target, -1 if none)
        states = {(s0, 0 if s0 >= target else -1): 1}
        for j in range(1, players):
            nxt = {}
            top = target if j == players - 1 else wide  # the last seat stays below
            for (total, last), n in states.items():
                for t in range(top):
                    key = (total + t, j if t >= target else last)
                    nxt[key] = nxt.get(key, 0) + n
            states = nxt
        by = {}
        for (total, last), n in states.items():
            key = (total, last + 1)
            by[key] = by.get(key, 0) + n
        out.append(by)
    return out


def model(players, target, dice, bonus, ranks, base):
    m = max_turn(dice, bonus)
    wide = target + m
    guess = 2  # the first guesses' reach (guess order 1, the CLI's)
    reach = max(m, guess)
    width = players + 1 + (1 if players == 2 else 0)
    record = 8 * width
    sums = players * (wide - 1) + 1
    by_s0 = counts_by_s0(players, target, wide)
    # Contexts: mover major, seat 0 most significant: a run per (mover, s0).
    run = []
    for mover in range(players):
        size = 1
        for j in range(1, players):
            size *= wide if j < mover else target
        run.append(size)
    contexts = sum(run[mv] * (wide if mv > 0 else target) for mv in range(players))
    # Per sum: every rank's record bytes; per rank, per sum: the window's
    # bytes, and the records it sends and receives (those the others read).
    level = [0] * sums
    own_vectors = [0] * ranks
    own_cycles = [0] * ranks
    window = [[0] * sums for _ in range(ranks)]
    sent = [[0] * sums for _ in range(ranks)]
    got = [[0] * sums for _ in range(ranks)]
    for s0, by in enumerate(by_s0):
        owner = s0 % ranks
        for (total, first), n in by.items():
            b = n * (players - first) * record
            own_vectors[owner] += n
            if first == 0:  # every seat below the target: a cycle
                own_cycles[owner] += n
            level[total] += b
            for r in range(ranks):
                x = (s0 - r) % ranks
                if r == owner or x > reach or x > s0:
                    continue
                read = b if x <= guess else n * record if first <= 1 else 0
                if read:
                    window[r][total] += read + 17 * n
                    got[r][total] += read
                    sent[owner][total] += read
    law_bound = min(max(players * target ** players // 4, 1 << 17), 1 << 22)  # game_solver.cpp's
    out = []
    for r in range(ranks):
        own = record * sum(run[mv] for mv in range(players)
                           for s0 in range(wide if mv > 0 else target) if s0 % ranks == r)
        held = lambda lo, hi: sum(window[r][lo:min(hi, sums)])  # noqa: E731
        end = own + held(0, reach) + CHECKPOINT_CHUNK  # the last levels' window, the final checkpoint
        during = 0
        for total in range(sums):
            if ranks == 1:
                break  # alone: no exchange, no window
            # While the level's records travel: the window of the levels
            # above, the messages sent and those received (each straight into
            # its buffer); after: the window with this level, those received.
            before = held(total + 1, total + reach + 1) + sent[r][total] + got[r][total]
            after = held(total, total + reach + 1) + got[r][total]
            during = max(during, own + max(before, after))
        lists = 8 * own_vectors[r]
        laws = min(law_bound, players * own_cycles[r]) * 336
        out.append({"rank": r, "own": own, "lists": lists, "laws": laws,
                    "peak": base + lists + laws + max(end, during), "end": end,
                    "during": during, "received": sum(got[r]),
                    "received_level": max(got[r])})
    return {"players": players, "target": target, "dice": dice, "bonus": bonus,
            "ranks": ranks, "contexts": contexts, "reach": reach, "base": base,
            "largest_level": max(level), "table_values": contexts * record,
            "per_rank": out}


def largest(machines, machine_bytes, dice, bonus, base):
    """Per player count 4..6, the largest target whose every rank fits, and
    whose table's share a rank stays within the 64 GiB `solve` takes."""
    out = {}
    for players in (4, 5, 6):
        best = None
        for target in range(2, 41):
            res = model(players, target, dice, bonus, machines, base)
            if max(p["peak"] for p in res["per_rank"]) > 0.9 * machine_bytes:
                break
            contexts = res["contexts"]
            table = 128 + contexts * 8 * players + 4 * -(-contexts // 1024)  # docs/FORMAT.md
            if table > MAX_SHARE * machines:
                break
            best = (target, res)
        out[players] = best
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--players", type=int)
    ap.add_argument("--target", type=int)
    ap.add_argument("--largest", action="store_true")
    ap.add_argument("--machines", type=int, nargs="+", default=[1, 4, 16])
    ap.add_argument("--machine-gib", type=float, default=128)
    ap.add_argument("--dice", type=int, default=13)
    ap.add_argument("--bonus", type=int, default=3)
    ap.add_argument("--ranks", type=int, nargs="+", default=[1, 2, 3, 4])
    ap.add_argument("--base-bytes", type=float, default=0,
                    help="the process's memory besides the values (measured)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.largest:
        for n in a.machines:
            for players, best in largest(n, a.machine_gib * 2**30, a.dice, a.bonus,
                                         a.base_bytes).items():
                if best is None:
                    print("%d machine(s) of %g GiB, %d players: not even target 2" %
                          (n, a.machine_gib, players))
                    continue
                target, res = best
                print("%d machine(s) of %g GiB, %d players: up to target %s (%d contexts, "
                      "peak a rank %.1f GiB)" %
                      (n, a.machine_gib, players,
                       "%d" % target if target < 40 else "40 or more", res["contexts"],
                       max(p["peak"] for p in res["per_rank"]) / 2**30))
        return 0
    if a.players is None or a.target is None:
        print("cluster-memory: --players and --target, or --largest", file=sys.stderr)
        return 2
    if not (2 <= a.players <= 6) or a.target < 1 or any(r < 1 for r in a.ranks):
        print("cluster-memory: players 2..6, target >= 1, ranks >= 1", file=sys.stderr)
        return 2
    results = [model(a.players, a.target, a.dice, a.bonus, r, a.base_bytes) for r in a.ranks]
    if a.json:
        print(json.dumps(results, indent=1))
        return 0
    for res in results:
        peaks = [p["peak"] for p in res["per_rank"]]
        print("%d players, target %d, R = %d: %d contexts (%.1f MB of values); "
              "peak a rank %.1f MB at most (%s)" %
              (res["players"], res["target"], res["ranks"], res["contexts"],
               res["table_values"] / 1e6, max(peaks) / 1e6,
               ", ".join("%.1f" % (p / 1e6) for p in peaks)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
