#!/usr/bin/env python3
"""Checks the independent Python reader (tests/scripts/table_reader.py) against the C++ API.

Writes policy tables with the test tool (hand-built ones with pseudo-random values
and near-ties, and the game solver's for small rules when the tool has it), then
asks both sides the same random queries (valid and invalid) and requires the same
answers: every option's take, count, stop, then and optimal flag, the best take
and the win probabilities bit for bit, and the values and roll values (each side
solves the turn) within SOLVE_TOLERANCE. The shipped 2- and 3-player tables
(data/) are checked the same way. Also checks that the Python reader refuses
damaged tables and other format versions, that a table it maps (as it does above
256 MiB) reads and answers as one read whole, refusing a damaged block when a query
reaches it, and, with --cli, that the `martiandice` CLI's --objective win --json
answers agree too.

    check_table_reader.py --tool martiandice_table_tool --workdir DIR [--cli martiandice]
"""

import argparse
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table_reader  # noqa: E402

# (dice, bonus, target, players, seed, jitter) of the hand-built tables.
SYNTHETIC = [
    (3, 0, 5, 2, 1, 1),
    (4, 2, 6, 3, 2, 1),
    (5, 3, 7, 2, 3, 0),
    (6, 3, 8, 4, 4, 1),
    (2, 3, 4, 2, 5, 0),
    (1, 0, 3, 2, 6, 0),
    (13, 3, 25, 2, 7, 1),
]
# (dice, bonus, target, players) of the solver's tables.
SOLVED = [(3, 0, 5, 2), (4, 3, 6, 3), (6, 3, 10, 2), (5, 2, 8, 3), (3, 2, 5, 4)]
QUERIES_PER_TABLE = 600
CLI_QUERIES_PER_TABLE = 15

BEST_KEYS = ["aside_after_tanks", "turn_over", "turn_over_score", "value", "best",
             "win_probabilities"]
OPTION_KEYS = ["take", "count", "aside_after", "stop", "roll", "value", "then", "optimal"]
EVAL_KEYS = ["dice_left", "value", "stop", "roll", "action", "win_probabilities"]


def random_context(rng, t):
    seat = rng.randrange(t.players)
    a = t.target + t.m
    near = rng.random() < 0.3  # near the end of the game
    scores = []
    for j in range(t.players):
        top = a if j < seat else t.target
        low = max(0, t.target - 3) if near else 0
        scores.append(rng.randrange(min(low, top - 1), top))
    return scores, seat


def random_split(rng, n, parts=5):
    counts = [0] * parts
    for _ in range(n):
        counts[rng.randrange(parts)] += 1
    return counts


def random_aside(rng, dice):
    while True:
        aside = random_split(rng, rng.randrange(dice + 1))
        if rng.random() < 0.5:  # favour the rays and earthlings of real turns
            aside[0] = min(aside[0], aside[1])
        if not (aside[0] > 0 and sum(aside) == aside[0]):
            return aside


def random_query(rng, t):
    scores, seat = random_context(rng, t)
    aside = random_aside(rng, t.dice)
    left = t.dice - sum(aside)
    if rng.random() < 0.03:  # an invalid context
        scores = scores + [0] if rng.random() < 0.5 else [t.target + t.m] * t.players
    if left == 0 or rng.random() < 0.25:
        return ("eval", scores, seat, aside, None)
    roll = random_split(rng, left)
    if rng.random() < 0.02:  # a roll that does not show the dice left
        roll[1] += 1
    return ("best", scores, seat, aside, roll)


def query_line(q):
    kind, scores, seat, aside, roll = q
    fields = [kind, ",".join(map(str, scores)), str(seat), table_reader.format_dice(aside)]
    if roll is not None:
        fields.append(table_reader.format_dice(roll))
    return "|".join(fields)


def python_answer(t, q):
    kind, scores, seat, aside, roll = q
    try:
        if kind == "eval":
            return t.evaluate(scores, seat, aside)
        return t.best(scores, seat, aside, roll)
    except table_reader.QueryError as error:
        return {"error": str(error)}


# Roll values come from two different turn solves (summation order): equal within this;
# every other field (stored values, decisions) must be identical.
SOLVE_TOLERANCE = 1e-13
SOLVED_KEYS = {"value", "roll"}


def is_number(x):
    # JSON writes an integral value such as 1 without a fraction: int or float.
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def differs(key, a, b):
    if key in SOLVED_KEYS and is_number(a) and is_number(b):
        return abs(a - b) > SOLVE_TOLERANCE
    return a != b


def same(kind, py, cpp):
    """None if the answers agree, else a description of the first difference."""
    if "error" in py or "error" in cpp:
        return None if ("error" in py) == ("error" in cpp) else "one side refused the query"
    for key in (EVAL_KEYS if kind == "eval" else BEST_KEYS):
        if differs(key, py[key], cpp[key]):
            return f"{key}: python {py[key]!r} c++ {cpp[key]!r}"
    if kind == "best":
        if len(py["options"]) != len(cpp["options"]):
            return "option counts differ"
        for po, co in zip(py["options"], cpp["options"]):
            for key in OPTION_KEYS:
                if differs(key, po[key], co[key]):
                    return f"option {po['take']} {key}: python {po[key]!r} c++ {co[key]!r}"
    return None


def compare(tool, path, t, rng, count):
    queries = [random_query(rng, t) for _ in range(count)]
    run = subprocess.run([tool, "answer", path], input="\n".join(map(query_line, queries)) + "\n",
                         capture_output=True, text=True, check=True)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(answers) == len(queries), "the tool answered a different number of queries"
    failures, ties = 0, 0
    for q, cpp in zip(queries, answers):
        py = python_answer(t, q)
        problem = same(q[0], py, cpp)
        if problem:
            failures += 1
            print(f"  MISMATCH {query_line(q)}: {problem}")
        if q[0] == "best" and "options" in py and sum(o["optimal"] for o in py["options"]) > 1:
            ties += 1
    print(f"  {len(queries)} queries ({ties} with tied best takes): {failures} mismatches")
    return failures


def cli_json(cli, path, t, q):
    kind, scores, seat, aside, roll = q
    command = [cli, kind, "--objective", "win", "--json", "--tables", path,
               "--dice", str(t.dice), "--bonus", str(t.bonus), "--target", str(t.target),
               "--scores", ",".join(map(str, scores)), "--seat", str(seat),
               "--aside", table_reader.format_dice(aside)]
    if roll is not None:
        command += ["--roll", table_reader.format_dice(roll)]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        return {"error": run.stderr.strip() or run.stdout.strip()}
    return json.loads(run.stdout)


def compare_cli(cli, path, t, rng, count):
    failures = 0
    done = 0
    while done < count:
        q = random_query(rng, t)
        py = python_answer(t, q)
        if "error" in py:
            continue
        done += 1
        problem = same(q[0], py, cli_json(cli, path, t, q))
        if problem:
            failures += 1
            print(f"  CLI MISMATCH {query_line(q)}: {problem}")
    print(f"  {count} CLI queries: {failures} mismatches")
    return failures


def with_header_field(data, at, value):
    """A copy of `data` with the u32 at `at` replaced and the header checksum refreshed."""
    edited = bytearray(data)
    struct.pack_into("<I", edited, at, value)
    struct.pack_into("<I", edited, 124, zlib.crc32(bytes(edited[:124])))
    return bytes(edited)


def refused(data, kind, words):
    """None if the Python reader refuses `data` as `kind` with `words` in its message."""
    try:
        table_reader.Table(data)
    except table_reader.TableError as error:
        if error.kind != kind or words not in str(error):
            return f"refused as {error.kind}: {error}"
        return None
    return "accepted"


def check_refusals(path, rng):
    """Damaged copies, other format versions and another tie tolerance must be refused by the
    Python reader."""
    with open(path, "rb") as f:
        data = f.read()
    failures = 0
    many = len(data) < 1 << 20  # fewer copies of big tables
    damages = [data[:n] for n in sorted(rng.sample(range(len(data)), min(40 if many else 5,
                                                                          len(data))))]
    damages.append(data + b"\0")
    for _ in range(60 if many else 8):
        i = rng.randrange(len(data))
        flipped = bytearray(data)
        flipped[i] ^= 1 << rng.randrange(8)
        damages.append(bytes(flipped))
    for damaged in damages:
        try:
            table_reader.Table(damaged)
            failures += 1
            print(f"  a damaged table of {len(damaged)} bytes was accepted")
        except table_reader.TableError:
            pass
    (players,) = struct.unpack_from("<I", data, 28)
    # The control: the header rewritten with the values it holds is accepted.
    if refused(with_header_field(data, 112, 12), "corrupt", "") != "accepted":
        failures += 1
        print("  the table with tie_tolerance_e 12 rewritten was refused")
    fields = [
        ("version 1", 8, 1, "incompatible", f"`martiandice solve --players {players} --out FILE`"),
        ("version 2", 8, 2, "incompatible", f"`martiandice solve --players {players} --out FILE`"),
        ("version 4", 8, 4, "incompatible", "newer"),
        ("version 0", 8, 0, "corrupt", "invalid"),
        ("tie_tolerance_e 11", 112, 11, "corrupt", "tie_tolerance_e 11"),
        ("tie_tolerance_e 13", 112, 13, "corrupt", "tie_tolerance_e 13"),
    ]
    for name, at, value, kind, words in fields:
        problem = refused(with_header_field(data, at, value), kind, words)
        if problem:
            failures += 1
            print(f"  {name}: {problem}")
    return failures


HEADER_BYTES = 128


def with_first_record(data, t, values):
    """A copy of `data` with context 0's record replaced, its block's CRC and the header's
    refreshed."""
    edited = bytearray(data)
    record = 8 * t.players
    struct.pack_into(f"<{t.players}d", edited, HEADER_BYTES, *values)
    block_end = HEADER_BYTES + record * min(t.context_count, 1024)
    checksums = HEADER_BYTES + record * t.context_count
    struct.pack_into("<I", edited, checksums, zlib.crc32(bytes(edited[HEADER_BYTES:block_end])))
    struct.pack_into("<I", edited, 120, zlib.crc32(bytes(edited[checksums:])))
    struct.pack_into("<I", edited, 124, zlib.crc32(bytes(edited[:124])))
    return bytes(edited)


def boundary_records(t, rng):
    """Two records of probabilities at the sum's tolerance: one whose sum, seat 0 first in
    binary64 (docs/FORMAT.md), is within it while the exact sum is not, and one the other
    way round; either may be None if not found."""
    tolerance = t.players * (t.error_bound + 8 * sys.float_info.epsilon)
    within = outside = None
    for _ in range(2000):
        head = [rng.uniform(0.1, 0.9) / t.players for _ in range(t.players - 1)]
        near = 1 + rng.choice((-1, 1)) * tolerance - math.fsum(head)
        for k in range(-8, 9):  # the last value a few ulps either side
            values = head + [near + k * math.ulp(near)]
            total = 0.0
            for x in values:
                total += x
            exact = abs(math.fsum(values) - 1) > tolerance
            rounded = abs(total - 1) > tolerance
            if exact and not rounded and within is None:
                within = values
            if rounded and not exact and outside is None:
                outside = values
        if within and outside:
            break
    return within, outside


def check_sum_rule(cli, path, t, rng):
    """Records at the sum's tolerance: the Python reader and the CLI accept and refuse the
    same ones, as the sum seat 0 first says. (Two values: one rounding, the same sum.)"""
    if t.players < 3:
        return 0
    with open(path, "rb") as f:
        data = f.read()
    failures = 0
    within, outside = boundary_records(t, rng)
    for name, values, accepted in (("within", within, True), ("outside", outside, False)):
        if values is None:
            failures += 1
            print(f"  sum rule: no record {name} the tolerance found")
            continue
        edited = with_first_record(data, t, values)
        problem = refused(edited, "corrupt", "do not sum to 1")
        if (problem == "accepted") != accepted:
            failures += 1
            print(f"  sum rule: the record {name} the tolerance was {problem or 'refused'}")
        if cli:
            with tempfile.TemporaryDirectory() as folder:
                crafted = os.path.join(folder, os.path.basename(path))
                with open(crafted, "wb") as f:
                    f.write(edited)
                scores = ",".join("0" * t.players)
                run = subprocess.run([cli, "eval", "--objective", "win", "--scores", scores,
                                      "--tables", crafted], capture_output=True, text=True)
            if (run.returncode == 0) != accepted or (
                    not accepted and "not 1 within the error bound" not in run.stderr):
                failures += 1
                print(f"  sum rule: the CLI on the record {name} the tolerance: exit "
                      f"{run.returncode}, {run.stderr.strip()}")
    print(f"  sum rule: records within and outside the tolerance "
          f"{'read alike' if failures == 0 else 'MISREAD'}")
    return failures


def zero_sum(t):
    """Every context's probabilities sum to 1 within the table's bound."""
    worst = max(abs(sum(w) - 1) for w in t.win)
    ok = worst <= t.players * t.error_bound + 1e-15
    print(f"  zero-sum: worst |sum - 1| = {worst:.3g} (error bound {t.error_bound:.3g})")
    return 0 if ok else 1


DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data")
# (players, contexts, bytes) of the shipped tables of the official rules.
SHIPPED = [(2, 1650, 26536), (3, 83275, 1999056)]


def check_shipped(tool, cli, rng, workdir):
    """The shipped tables: every stored vector a distribution within the bound, and queries
    (each a turn solved by both sides) against the tool and the CLI."""
    failures = 0
    for players, contexts, size in SHIPPED:
        path = os.path.join(DATA_DIR, f"martiandice-p{players}-d13-b3-t25.mdt")
        print(os.path.basename(path))
        if not os.path.exists(path):
            print("  missing")
            failures += 1
            continue
        t = table_reader.load(path)
        if (t.version, t.players, t.context_count, os.path.getsize(path)) != (3, players,
                                                                              contexts, size):
            print(f"  unexpected table: version {t.version}, {t.players} players, "
                  f"{t.context_count} contexts, {os.path.getsize(path)} bytes")
            failures += 1
        failures += zero_sum(t)
        failures += compare(tool, path, t, rng, 200 if players == 2 else 40)
        failures += check_refusals(path, rng)
        failures += check_sum_rule(cli, path, t, rng)
        failures += check_mapped(path, rng, workdir)
        if cli:
            failures += compare_cli(cli, path, t, rng, 20 if players == 2 else 8)
    return failures


def check_mapped(path, rng, workdir):
    """The table mapped (load's threshold set to 0): the same vectors and answers as read whole,
    decoded blocks evicted and read again; a damaged block refused at its first use, not at load,
    the others still answering; a file of zeros refused from its header, a device or FIFO
    unopened."""
    failures = 0
    whole = table_reader.load(path)
    mapped = table_reader.load(path, eager_bytes=0)
    kept = table_reader.MAPPED_BLOCKS_KEPT
    table_reader.MAPPED_BLOCKS_KEPT = 3  # evictions on every pass over the contexts
    try:
        sample = [rng.randrange(len(whole.win)) for _ in range(300)]
        if any(mapped.win[c] != whole.win[c] for c in sample) or list(mapped.win) != list(whole.win):
            failures += 1
            print("  mapped: the vectors differ from the whole table's")
        for _ in range(20):
            q = random_query(rng, whole)
            if python_answer(mapped, q) != python_answer(whole, q):
                failures += 1
                print(f"  mapped: answers differ for {query_line(q)}")
    finally:
        table_reader.MAPPED_BLOCKS_KEPT = kept
    with open(path, "rb") as f:
        data = bytearray(f.read())
    last = len(whole.win) - 1  # a byte of its vector, in the last block
    data[table_reader.HEADER_SIZE + 8 * whole.players * last] ^= 1
    damaged = os.path.join(workdir, "damaged-" + os.path.basename(path))
    with open(damaged, "wb") as f:
        f.write(data)
    block = last // table_reader.BLOCK_CONTEXTS
    words = f"block {block} checksum mismatch"
    mapped = table_reader.load(damaged, eager_bytes=0)  # accepted: no block read yet
    if mapped.win[0] != whole.win[0]:
        failures += 1
        print("  mapped: an undamaged block reads wrong")
    for name, read in (("mapped", lambda: mapped.win[last]),
                       ("whole", lambda: table_reader.load(damaged))):
        try:
            read()
            failures += 1
            print(f"  {name}: the damaged block was accepted")
        except table_reader.TableError as error:
            if words not in str(error):
                failures += 1
                print(f"  {name}: refused as {error}, expected {words!r}")
    # A 4 GiB file of zeros (sparse) refused from its header, never read whole.
    big = os.path.join(workdir, "zeros.mdt")
    with open(big, "wb") as f:
        f.truncate(4 << 30)
    try:
        table_reader.load(big)
        failures += 1
        print("  4 GiB of zeros was accepted")
    except table_reader.TableError as error:
        if "bad magic" not in str(error):
            failures += 1
            print(f"  4 GiB of zeros refused as {error}")
    finally:
        os.remove(big)
    # Neither an endless device nor a FIFO without a writer is opened: refused at once.
    fifo = os.path.join(workdir, "fifo.mdt")
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    for special in ("/dev/zero", fifo):
        try:
            table_reader.load(special)
            failures += 1
            print(f"  {special} was accepted")
        except OSError as error:
            if "not a regular file" not in str(error):
                failures += 1
                print(f"  {special} refused as {error}")
    return failures


def cli_has_win(cli):
    if not cli:
        return False
    run = subprocess.run([cli, "best", "--help"], capture_output=True, text=True)
    return "--scores" in run.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tool", required=True)
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--cli")
    args = parser.parse_args()
    os.makedirs(args.workdir, exist_ok=True)
    rng = random.Random(20240611)
    use_cli = cli_has_win(args.cli)
    if args.cli and not use_cli:
        print(f"{args.cli} answers no --objective win queries")
        return 1
    tables = []
    for dice, bonus, target, players, seed, jitter in SYNTHETIC:
        path = os.path.join(args.workdir, f"synth-p{players}-d{dice}-b{bonus}-t{target}.mdt")
        subprocess.run([args.tool, "synth", str(dice), str(bonus), str(target), str(players),
                        str(seed), str(jitter), path], check=True)
        tables.append((path, False))
    for dice, bonus, target, players in SOLVED:
        path = os.path.join(args.workdir, f"solved-p{players}-d{dice}-b{bonus}-t{target}.mdt")
        run = subprocess.run([args.tool, "solve", str(dice), str(bonus), str(target),
                              str(players), path])
        if run.returncode == 3:
            print(f"the tool cannot solve {os.path.basename(path)} (no solver for it): skipped")
            continue
        if run.returncode != 0:
            print(f"solving {path} failed")
            return 1
        tables.append((path, True))
    failures = 0
    for path, solved in tables:
        print(os.path.basename(path))
        t = table_reader.load(path)
        failures += compare(args.tool, path, t, rng, QUERIES_PER_TABLE)
        failures += check_refusals(path, rng)
        if solved:
            failures += zero_sum(t)
        if use_cli:
            failures += compare_cli(args.cli, path, t, rng, CLI_QUERIES_PER_TABLE)
    failures += check_shipped(args.tool, args.cli if use_cli else None, rng, args.workdir)
    if not use_cli:
        print("no --cli: CLI comparison skipped")
    print("OK" if failures == 0 else f"{failures} FAILURES")
    return 0 if failures == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
