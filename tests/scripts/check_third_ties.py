#!/usr/bin/env python3
"""The 1/3 family of the 4-player certification's inexact ties are true ties.

docs/PLAYERS.md ("Where the readings part: 4 players"): at totals (25, 25, 14, x) and
(25, 25, 18, x), seat 2 to move in the final round, scoring exactly the points that tie the lead
three ways is worth 1/3, which a table stores as the double nearest 1/3. The certifier found
pairs of the mover's options whose exact values on the stored numbers differ by a few 1e-18.
This brute force over individual dice (written from docs/RULES.md alone, in rationals)
checks that each pair is worth exactly the same with the true 1/3, and that the stored double
splits it by exactly the gap the certifier reported.
"""
import sys
from fractions import Fraction
from itertools import product


def score(tanks, rays, earth):
    return 0 if tanks > rays else sum(earth) + (3 if all(earth) else 0)


def roll_on(tanks, rays, earth, left, utility):
    """Expected utility of rolling the `left` dice, then playing on optimally."""
    if left == 0:
        return utility(score(tanks, rays, earth))
    total = Fraction(0)
    for roll in product(range(6), repeat=left):  # 0 tank, 1-2 death ray, 3-5 earthlings
        shown_tanks = roll.count(0)
        shown_rays = roll.count(1) + roll.count(2)
        options = []
        if shown_rays:
            options.append((tanks + shown_tanks, rays + shown_rays, earth,
                            left - shown_tanks - shown_rays))
        for k in range(3):
            shown = roll.count(3 + k)
            if shown and earth[k] == 0:
                taken = list(earth)
                taken[k] = shown
                options.append((tanks + shown_tanks, rays, tuple(taken), left - shown_tanks - shown))
        if options:
            total += max(after_take(*o, utility) for o in options)
        else:  # nothing to take: the turn ends, this roll's tanks counted
            total += utility(score(tanks + shown_tanks, rays, earth))
    return total / 6 ** left


def after_take(tanks, rays, earth, left, utility):
    """A position after a take: the better of stopping and rolling on."""
    stop = utility(score(tanks, rays, earth))
    return stop if left == 0 else max(stop, roll_on(tanks, rays, earth, left, utility))


# (points that tie the lead, option a, option b, the certifier's gap on the stored numbers, as
# `martiandice certify --players 4 --json` prints it for the official 4-player table)
CASES = [
    (11, (1, 0, (9, 1, 0), 2), (1, 0, (9, 2, 0), 1), 6.1679056923619804e-18),  # (25, 25, 14, x)
    (7, (2, 3, (6, 1, 0), 1), (2, 1, (6, 1, 1), 2), 1.5419764230904953e-17),  # (25, 25, 18, x)
    (7, (2, 3, (5, 2, 0), 1), (2, 1, (5, 2, 1), 2), 1.5419764230904953e-17),
    (7, (2, 3, (4, 3, 0), 1), (2, 1, (4, 3, 1), 2), 1.5419764230904953e-17),
    (7, (3, 1, (5, 1, 0), 3), (3, 3, (5, 0, 0), 2), 1.02798428206033e-18),
    (7, (3, 2, (5, 1, 0), 2), (3, 2, (5, 2, 0), 1), 6.1679056923619804e-18),
]


def main():
    failures = 0
    for need, a, b, reported in CASES:
        def utility_with(third):
            return lambda x: 0 if x < need else (third if x == need else 1)
        true_u, stored_u = utility_with(Fraction(1, 3)), utility_with(Fraction(1 / 3))
        equal = after_take(*a, true_u) == after_take(*b, true_u)
        gap = float(abs(after_take(*a, stored_u) - after_take(*b, stored_u)))
        matches = abs(gap - reported) <= 1e-12 * reported  # its rational gap, rounded to double
        print(f"{a} vs {b}: worth {after_take(*a, true_u)} and {after_take(*b, true_u)}; "
              f"stored gap {gap:.17g} (certifier {reported:.17g})")
        if not (equal and matches):
            print("  FAILED: " + ("not a true tie" if not equal else "gap differs"))
            failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
