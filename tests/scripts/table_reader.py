#!/usr/bin/env python3
"""An independent reader of martiandice policy tables, written from docs/FORMAT.md alone.

It loads a table (format version 3), verifies everything the format
prescribes (magic, version, header, rules hash, layout, checksums, exact
length, probabilities; the header before reading more, and a table over 256 MiB
mapped, each block verified at its first use, as the C++ reader does), and
answers best-move queries by solving the mover's
turn from the stored vectors: its own memoised turn solve over canonical
positions, with the tie convention of docs/PLAYERS.md. Python 3 standard
library only.

    python3 tests/scripts/table_reader.py TABLE info
    python3 tests/scripts/table_reader.py TABLE best --scores 10,12 --seat 0 \
        --aside '2T 4H' --roll '1T 2R 3C 1K'
    python3 tests/scripts/table_reader.py TABLE eval --scores 10,12 --seat 0 --aside '2T 4H'

Answers are printed as JSON with the C++ CLI's field names (options with
take/count/aside_after/stop/roll/value/then/optimal, best, win_probabilities).
"""

import argparse
import json
import math
import mmap
import os
import re
import stat
import struct
import sys
import zlib

MAGIC = b"MDPOLICY"
VERSION = 3
BLOCK_CONTEXTS = 1024
HEADER_SIZE = 128
TIE_E = 12  # values within 10^-12 of each other are tied
FACES = "TRHCK"  # tank, ray, human, cow, chicken
FACE_NAMES = ["tank", "ray", "human", "cow", "chicken"]
# Tables larger than this are mapped, not read, and each block verified at its first use, as the
# C++ reader does above its own threshold (a 5-player table is 6.2 GiB).
EAGER_BYTES = 256 << 20
MAPPED_BLOCKS_KEPT = 256  # decoded blocks a mapped table keeps (5 players: about 230 KiB each)


class TableError(Exception):
    """A refused table. kind: 'corrupt' or 'incompatible' (other version or rules)."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind


class QueryError(Exception):
    """An invalid query (context, position or roll)."""


def corrupt(message):
    return TableError("corrupt", message)


def fnv1a64(data):
    h = 14695981039346656037
    for byte in data:
        h = ((h ^ byte) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return h


def rules_string(dice, bonus, target, players):
    return (f"martiandice-policy v2 dice={dice} bonus={bonus} target={target} "
            f"players={players} values-only ties=stop,rays,most-dice,human-cow-chicken")


def max_turn_score(dice, bonus):
    return dice + (bonus if dice >= 3 else 0)


HEADER = struct.Struct("<8sIIIIIIIIQQQQQQQQdIIII")
assert HEADER.size == HEADER_SIZE


class Table:
    """A verified policy table: `data` (bytes, or a read-only mmap) verified whole at once, or with
    `mapped`, everything but the context blocks at once and each block at its first use."""

    def __init__(self, data, mapped=False):
        self._check_preamble(data)
        (_, self.version, header_size, self.dice, self.bonus, self.target, self.players,
         self.max_turn_score, self.block_contexts, self.context_count, rules_hash,
         contexts_offset, contexts_size, checksums_offset, checksums_size, self.block_count,
         file_size, self.error_bound, self.tie_e, reserved, checksums_crc,
         header_crc) = HEADER.unpack_from(data, 0)
        if header_size != HEADER_SIZE:
            raise corrupt(f"header_size {header_size}, expected {HEADER_SIZE}")
        if reserved != 0:
            raise corrupt(f"header reserved field is {reserved}")
        self._check_rules(rules_hash)
        self._check_layout(data, contexts_offset, contexts_size, checksums_offset, checksums_size,
                           file_size)
        checksums = data[checksums_offset:checksums_offset + checksums_size]
        if zlib.crc32(checksums) != checksums_crc:
            raise corrupt("checksums section mismatch")
        self.tolerance = 10.0 ** -self.tie_e
        self.win = Records(self, data, checksums, mapped)
        self._turns = {}  # context -> its solved turn (TurnSolve)

    # ------------------------------------------------------------------ checks

    @staticmethod
    def _check_preamble(data):
        if len(data) < len(MAGIC) and MAGIC.startswith(data):
            raise corrupt("truncated before the magic")
        if data[:8] != MAGIC:
            raise corrupt("bad magic: not a martiandice policy table")
        if len(data) < 12:
            raise corrupt("truncated before the version")
        (version,) = struct.unpack_from("<I", data, 8)
        if version > 255:  # versions run 1 to 255: a larger field is damage
            raise corrupt(f"format version {version} is no version of the format")
        if version > VERSION:
            raise TableError("incompatible", f"format version {version} is newer than {VERSION}")
        if version in (1, 2):
            players = struct.unpack_from("<I", data, 28)[0] if len(data) >= 32 else 0
            count = str(players) if 2 <= players <= 6 else "P"
            raise TableError("incompatible",
                             f"format version {version} is not read; regenerate the "
                             f"table with `martiandice solve --players {count} --out FILE`")
        if version != VERSION:
            raise corrupt(f"format version {version} is invalid")
        if len(data) < HEADER_SIZE:
            raise corrupt("truncated inside the header")
        (stored,) = struct.unpack_from("<I", data, 124)
        if zlib.crc32(data[:124]) != stored:
            raise corrupt("header checksum mismatch")

    def _check_rules(self, rules_hash):
        for name, value, lo, hi in (("dice", self.dice, 1, 20), ("bonus", self.bonus, 0, 100),
                                    ("target", self.target, 1, 200),
                                    ("players", self.players, 2, 6)):
            if not lo <= value <= hi:
                raise corrupt(f"{name} {value} out of range {lo}..{hi}")
        if self.tie_e != TIE_E:
            raise corrupt(f"tie_tolerance_e {self.tie_e}, the format fixes {TIE_E}")
        self.m = max_turn_score(self.dice, self.bonus)
        if self.max_turn_score != self.m:
            raise corrupt(f"max_turn_score {self.max_turn_score}, rules give {self.m}")
        text = rules_string(self.dice, self.bonus, self.target, self.players)
        if fnv1a64(text.encode("ascii")) != rules_hash:
            raise TableError("incompatible", f"rules hash differs from that of '{text}'")
        if not (math.isfinite(self.error_bound) and 0 <= self.error_bound < 1):
            raise corrupt(f"error_bound {self.error_bound} is not a bound")

    def _sizes(self):
        """Per-mover context counts (mixed radix A for seats before the mover, T after)."""
        t, a, p = self.target, self.target + self.m, self.players
        return [a ** i * t ** (p - i) for i in range(p)]

    def _check_layout(self, data, c_off, c_size, k_off, k_size, file_size):
        sizes = self._sizes()
        self.mover_offset = [sum(sizes[:i]) for i in range(self.players)]
        if self.context_count != sum(sizes):
            raise corrupt(f"context_count {self.context_count}, expected {sum(sizes)}")
        blocks = -(-self.context_count // BLOCK_CONTEXTS)
        records_end = HEADER_SIZE + self.context_count * 8 * self.players
        end = records_end + 4 * blocks
        expected = {
            "block_contexts": (self.block_contexts, BLOCK_CONTEXTS),
            "contexts_offset": (c_off, HEADER_SIZE),
            "contexts_size": (c_size, records_end - HEADER_SIZE),
            "checksums_offset": (k_off, records_end),
            "checksums_size": (k_size, 4 * blocks),
            "block_count": (self.block_count, blocks),
            "file_size": (file_size, end),
        }
        for name, (got, want) in expected.items():
            if got != want:
                raise corrupt(f"{name} {got}, expected {want}")
        if len(data) < end:
            raise corrupt(f"truncated: {len(data)} bytes, the layout needs {end}")
        if len(data) > end:
            raise corrupt(f"{len(data) - end} trailing bytes")

    # ------------------------------------------------------------------ queries

    def context_index(self, scores, seat):
        t, a = self.target, self.target + self.m
        index = 0
        for j, s in enumerate(scores):
            index = index * (a if j < seat else t) + s
        return self.mover_offset[seat] + index

    def check_context(self, scores, seat):
        if len(scores) != self.players:
            raise QueryError(f"{len(scores)} scores for {self.players} players")
        if not 0 <= seat < self.players:
            raise QueryError(f"seat {seat} out of range")
        a = self.target + self.m
        for j, s in enumerate(scores):
            if not 0 <= s < a:
                raise QueryError(f"score {s} of seat {j} out of range")
            if j >= seat and s >= self.target:
                raise QueryError(f"seat {j} has reached the target: the game is over")

    def is_final(self, scores, seat):
        return any(s >= self.target for s in scores[:seat])

    def utility(self, scores, seat, x):
        """u(x): the mover's chance to win after ending the turn with x points."""
        after = list(scores)
        after[seat] += x
        if seat == self.players - 1 and (self.is_final(scores, seat) or after[seat] >= self.target):
            top = max(after)
            return 1.0 / after.count(top) if after[seat] == top else 0.0
        return self.win[self.context_index(after, (seat + 1) % self.players)][seat]

    @staticmethod
    def canonical(aside):
        t, r, h, c, k = aside
        e0, e1, e2 = sorted((h, c, k), reverse=True)
        return t, r, e0, e1, e2

    def score(self, aside):
        t, r, e0, e1, e2 = self.canonical(aside)
        if t > r:
            return 0
        return e0 + e1 + e2 + (self.bonus if e2 > 0 else 0)

    def roll_value(self, scores, seat, aside):
        """None when no dice are left."""
        t, r, e0, e1, e2 = self.canonical(aside)
        left = self.dice - sum(aside)
        context = self.context_index(scores, seat)
        if sum(aside) == 0:
            return self.win[context][seat]
        if left == 0:
            return None
        if t > r + left:
            return self.utility(scores, seat, 0)
        turn = self._turns.get(context)
        if turn is None:
            if len(self._turns) > 64:  # bounded memory
                self._turns.clear()
            turn = self._turns[context] = TurnSolve(self, scores, seat)
        return turn.roll((t, r, e0, e1, e2))

    def tied(self, a, b):
        return abs(a - b) <= self.tolerance

    def decide(self, stop, roll):
        """(then, value) after a take: value is max(stop, roll), ties within the tolerance."""
        if roll is None:
            return "stop", stop
        value = roll if roll > stop else stop
        if self.tied(stop, roll):
            return "either", value
        return ("stop" if stop > roll else "roll"), value

    def check_aside(self, aside):
        if any(n < 0 for n in aside) or sum(aside) > self.dice:
            raise QueryError(f"set-aside {format_dice(aside)} does not fit {self.dice} dice")
        if aside[0] > 0 and sum(aside) == aside[0]:
            raise QueryError("tanks are never set aside alone")

    def evaluate(self, scores, seat, aside):
        self.check_context(scores, seat)
        self.check_aside(aside)
        roll = self.roll_value(scores, seat, aside)
        result = {"dice_left": self.dice - sum(aside)}
        if sum(aside) == 0:
            result.update(value=roll, stop=None, roll=roll, action="roll")
        else:
            stop = self.utility(scores, seat, self.score(aside))
            action, value = self.decide(stop, roll)
            result.update(value=value, stop=stop, roll=roll, action=action)
        result["win_probabilities"] = self.win[self.context_index(scores, seat)]
        return result

    def best(self, scores, seat, aside, roll):
        self.check_context(scores, seat)
        self.check_aside(aside)
        left = self.dice - sum(aside)
        if left == 0 or sum(roll) != left:
            raise QueryError(f"the roll must show the {left} dice left")
        after = list(aside)
        after[0] += roll[0]
        options = []
        for face in range(1, 5):
            if roll[face] == 0 or (face >= 2 and aside[face] > 0):
                continue
            position = list(after)
            position[face] += roll[face]
            stop = self.utility(scores, seat, self.score(position))
            roll_value = self.roll_value(scores, seat, position)
            then, value = self.decide(stop, roll_value)
            options.append({"take": FACE_NAMES[face], "count": roll[face],
                            "aside_after": format_dice(position), "stop": stop,
                            "roll": roll_value, "value": value, "then": then})
        result = {"aside_after_tanks": format_dice(after), "turn_over": not options,
                  "turn_over_score": None, "best": None, "options": options}
        if not options:
            result["turn_over_score"] = self.score(after)
            result["value"] = self.utility(scores, seat, self.score(after))
        else:
            top = max(o["value"] for o in options)
            for o in options:
                o["optimal"] = self.tied(o["value"], top)
            first = next(o for o in options if o["optimal"])
            for o in options:  # the convention: rays, then the most dice, then H, C, K
                if o["optimal"] and first["take"] != "ray" and o["count"] > first["count"]:
                    first = o
            result["value"] = top
            result["best"] = {"take": first["take"], "count": first["count"],
                              "then": first["then"]}
        result["win_probabilities"] = self.win[self.context_index(scores, seat)]
        return result


class TurnSolve:
    """One turn of the mover solved for its utilities u(x) (docs/FORMAT.md, "Answering a
    query"), memoised over canonical positions."""

    def __init__(self, table, scores, seat):
        self.t = table
        self.u = [table.utility(scores, seat, x) for x in range(table.m + 1)]
        self.memo_value, self.memo_roll = {}, {}

    def score(self, pos):
        t, r, e0, e1, e2 = pos
        if t > r:
            return 0
        return e0 + e1 + e2 + (self.t.bonus if e2 > 0 else 0)

    def value(self, pos):
        """The mover's value at a position after a take: stop when tied."""
        v = self.memo_value.get(pos)
        if v is None:
            stop = self.u[self.score(pos)]
            v = stop
            if self.t.dice - sum(pos) > 0:
                roll = self.roll(pos)
                if roll > stop + self.t.tolerance:
                    v = roll
            self.memo_value[pos] = v
        return v

    def roll(self, pos):
        """Expected utility of rolling the dice left at `pos` (canonical), then playing on."""
        v = self.memo_roll.get(pos)
        if v is not None:
            return v
        t, r = pos[0], pos[1]
        earth = list(pos[2:])
        left = self.t.dice - sum(pos)
        fact = math.factorial
        total = 0.0
        for a in range(left + 1):  # tanks
            for b in range(left - a + 1):  # rays
                rest = left - a - b
                for x0 in range(rest + 1):
                    for x1 in range(rest - x0 + 1):
                        x2 = rest - x0 - x1
                        xs = (x0, x1, x2)
                        weight = (fact(left) // (fact(a) * fact(b) * fact(x0) * fact(x1) *
                                                 fact(x2))) * 2 ** b / 6.0 ** left
                        total += weight * self._outcome(t + a, r, earth, b, xs)
        self.memo_roll[pos] = total
        return total

    def _outcome(self, tanks, rays, earth, shown_rays, shown):
        """The value of an outcome: the convention's choice among the takes."""
        options = []  # (kind, count, value): kind 0 rays, 1 earthling
        if shown_rays:
            options.append((0, shown_rays,
                            self.value((tanks, rays + shown_rays) + tuple(earth))))
        for i in range(3):
            if shown[i] and earth[i] == 0:
                e = list(earth)
                e[i] = shown[i]
                e.sort(reverse=True)
                options.append((1, shown[i], self.value((tanks, rays) + tuple(e))))
        if not options:
            return self.u[self.score((tanks, rays) + tuple(earth))]
        best = max(v for _, _, v in options)
        tied = [o for o in options if o[2] >= best - self.t.tolerance]
        tied.sort(key=lambda o: (o[0], -o[1]))  # rays first, then the most dice
        return tied[0][2]


class Records:
    """Every context's win probabilities (table.win[c]: seat 0 first), verified by block: its
    checksum, then each vector (probabilities summing to 1 within the bound). Whole tables are
    verified at load, checksums first; mapped ones a block at its first use (TableError then)."""

    def __init__(self, table, data, checksums, mapped):
        self._t, self._data, self._checksums, self._mapped = table, data, checksums, mapped
        self._record = struct.Struct(f"<{table.players}d")
        self._blocks = {}  # block -> its vectors (a mapped table keeps the latest few)
        if not mapped:
            for b in range(table.block_count):
                self._check_block(b)
            for b in range(table.block_count):
                self._blocks[b] = self._decode(b)

    def __len__(self):
        return self._t.context_count

    def __getitem__(self, c):
        if not 0 <= c < self._t.context_count:
            raise IndexError(f"context {c} out of range")
        b = c // BLOCK_CONTEXTS
        vectors = self._blocks.get(b)
        if vectors is None:
            self._check_block(b)
            vectors = self._decode(b)
            if len(self._blocks) >= MAPPED_BLOCKS_KEPT:
                del self._blocks[next(iter(self._blocks))]  # the oldest
            self._blocks[b] = vectors
        return vectors[c % BLOCK_CONTEXTS]

    def __iter__(self):
        for c in range(self._t.context_count):
            yield self[c]

    def _span(self, b):
        first = BLOCK_CONTEXTS * b
        return first, min(self._t.context_count, first + BLOCK_CONTEXTS)

    def _check_block(self, b):
        first, end = self._span(b)
        size = self._record.size
        crc = zlib.crc32(self._data[HEADER_SIZE + size * first:HEADER_SIZE + size * end])
        if crc != struct.unpack_from("<I", self._checksums, 4 * b)[0]:
            raise corrupt(f"block {b} checksum mismatch")

    def _decode(self, b):
        p, bound = self._t.players, self._t.error_bound
        first, end = self._span(b)
        vectors = []
        for c in range(first, end):
            probs = list(self._record.unpack_from(self._data, HEADER_SIZE + c * self._record.size))
            if not all(math.isfinite(x) and 0.0 <= x <= 1.0 for x in probs):
                raise corrupt(f"context {c}: a win probability is not in [0, 1]")
            # Seat 0 first, in binary64, as docs/FORMAT.md prescribes (not fsum).
            total = 0.0
            for x in probs:
                total += x
            if abs(total - 1) > p * (bound + 8 * sys.float_info.epsilon):
                raise corrupt(f"context {c}: win probabilities do not sum to 1")
            vectors.append(probs)
        return vectors


def load(path, eager_bytes=EAGER_BYTES):
    """Opens a table, a regular file: its header checked first (a file that is no table is refused
    before more is read); read whole and verified if it has at most `eager_bytes`, else mapped
    (Records)."""
    # Before opening, as the C++ reader: opening a FIFO with no writer would block.
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(f"{path} is not a regular file")
    with open(path, "rb") as f:
        Table._check_preamble(f.read(HEADER_SIZE))
        if os.fstat(f.fileno()).st_size <= eager_bytes:
            f.seek(0)
            return Table(f.read())
        # The mapping outlives the file object (mmap keeps its own descriptor).
        return Table(mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ), mapped=True)


def parse_dice(text):
    """'2T 4H', 'TTRR', '2t3r4h', '-' or '' -> [tanks, rays, humans, cows, chickens]."""
    counts = [0] * 5
    text = text.strip()
    if text in ("", "-"):
        return counts
    pos = 0
    for match in re.finditer(r"\s*,?\s*(\d*)([A-Za-z])", text):
        if match.start() != pos:
            break
        letter = match.group(2).upper()
        if letter not in FACES:
            raise QueryError(f"unknown face letter {letter!r}")
        counts[FACES.index(letter)] += int(match.group(1) or 1)
        pos = match.end()
    if text[pos:].strip(" ,"):
        raise QueryError(f"cannot parse dice {text!r}")
    return counts


def format_dice(counts):
    parts = [f"{n}{FACES[i]}" for i, n in enumerate(counts) if n]
    return " ".join(parts) if parts else "-"


def parse_scores(text):
    try:
        return [int(s) for s in text.split(",")]
    except ValueError as error:
        raise QueryError(f"bad scores {text!r}") from error


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("table")
    parser.add_argument("command", choices=["info", "best", "eval"])
    parser.add_argument("--scores")
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--aside", default="")
    parser.add_argument("--roll", default="")
    args = parser.parse_args(argv)
    try:
        table = load(args.table)
        if args.command == "info":
            answer = {"dice": table.dice, "bonus": table.bonus, "target": table.target,
                      "players": table.players, "contexts": table.context_count,
                      "error_bound": table.error_bound}
        else:
            if args.scores is None:
                parser.error("--scores is required")
            scores = parse_scores(args.scores)
            aside = parse_dice(args.aside)
            if args.command == "eval":
                answer = table.evaluate(scores, args.seat, aside)
            else:
                answer = table.best(scores, args.seat, aside, parse_dice(args.roll))
    except (TableError, QueryError, OSError) as error:
        print(json.dumps({"error": str(error)}))
        return 1
    print(json.dumps(answer))
    return 0


if __name__ == "__main__":
    sys.exit(main())
