// A naive, independent N-player reference solver for tiny Martian Dice variants (tests only).
//
// Written from docs/RULES.md, docs/PLAYERS.md (solution concept and tie convention) and the
// context numbering of docs/FORMAT.md alone; it shares no code with src/ or solver/ (only the
// public Rules struct). It models FULL concrete turn states (tanks, rays, humans, cows, chickens
// set aside, earthling types not merged), every roll as a multiset with its multinomial
// probability, every legal take, stop or roll, and solves every context jointly by plain
// Gauss-Seidel value iteration until no value moves by 1e-15. Meant to be compared with the
// fast N-player solver (solver/) on tiny rule sets.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice::naive {

// Counts over the decisions of one kind, every context, after convergence. A decision is counted
// once per orbit under relabelling of the three earthling types (the set-aside and the roll
// permuted together), so the counts do not depend on the concrete labels. Only decisions with at
// least two distinct actions count: a take choice with two or more legal takes leading to
// positions that are not mere relabellings of each other (equal-count earthling takes are one
// action), a stop-or-roll choice after a take with dice left.
struct DecisionCounts {
  std::int64_t decisions = 0;  // decisions with two or more distinct actions
  // Decisions where two or more distinct actions are within 1e-12 of the mover's best.
  std::int64_t tied = 0;
  // Tied decisions where the mover's best chance is within 1e-12 of 0 or of 1 (its fate is
  // sealed whatever it does: e.g. the last seat of a final round that cannot catch the leader).
  std::int64_t tied_decided = 0;
  // Tied decisions where some tied action gives another seat a chance more than 1e-12 away from
  // the chosen action's (the tie convention decides between other players: "kingmaking").
  std::int64_t kingmaking = 0;
};

// A turn-start context: the seat to move and every seat's total (seat 0 first).
struct NaiveContext {
  int mover = 0;
  std::vector<int> scores;
};

struct NaiveGameResult {
  Rules rules;
  int players = 0;
  int max_turn = 0;  // M, the highest score of one turn
  // Every context in docs/FORMAT.md order (mover-major, then mixed radix with seat 0 most
  // significant: radix A = target + M for seats before the mover, target for the others).
  std::vector<NaiveContext> contexts;
  // values[index][seat]: the seat's win probability at contexts[index].
  std::vector<std::vector<double>> values;
  DecisionCounts takes;      // which face to take
  DecisionCounts stop_roll;  // after a take: stop or roll on
  int sweeps = 0;            // Gauss-Seidel sweeps run (the last one measured the residual)
  // Largest change of any context's value (any seat) in the last sweep. Turn-internal values are
  // recomputed from the context values every sweep, so they are settled when these are.
  double residual = 0;
  bool converged = false;  // residual < 1e-15 within the sweep limit

  // The mover's win probability if it rolls (on) from the concrete set-aside `aside` (tanks,
  // rays, humans, cows, chickens) at context `context` and everyone plays as above: defined where
  // a turn can roll from (the start, or after a take with dice left), else nullopt (also for a
  // context or set-aside out of range). For comparison with a reader's roll values (EvaluateWin).
  std::optional<double> RollValue(std::int64_t context, const std::array<int, 5>& aside) const;

  // Storage behind RollValue: roll_values[context * aside_keys + key], key the set-aside in base
  // dice + 1 (tanks most significant); NaN where undefined.
  std::vector<double> roll_values;
  std::int64_t aside_keys = 0;
};

struct NaiveOptions {
  int max_sweeps = 20000;
  // Every seat's win probability guessed at every context before the first sweep. The fixed
  // point should not depend on it; tests solve from two guesses to check that.
  double initial_guess = 0.0;
};

// Index of context (mover, scores) in docs/FORMAT.md numbering, or -1 if it is not a context
// (wrong size, a total out of its range, mover out of range).
std::int64_t NaiveContextIndex(const Rules& rules, int players, int mover,
                               const std::vector<int>& scores);

// Every seat's win probability at every context under the solution concept of docs/PLAYERS.md
// (each mover maximises its own chance; ties within 1e-12 broken by: stop before roll; rays,
// then earthling types with more dice first, Human before Cow before Chicken), plus tie counts
// and the convergence figures. Tiny rules only. Errors: InvalidArgument for rules out of range
// (ValidateRules), players outside 2..6, or a problem too big for a naive solve (more than about
// 2e8 state visits per sweep: e.g. dice <= 4 and target <= 8 with 3 players are fine). A sweep
// limit reached is not an error: `converged` is false. Single-threaded; no shared state.
absl::StatusOr<NaiveGameResult> NaiveGameValues(const Rules& rules, int players,
                                                const NaiveOptions& options = {});

}  // namespace martiandice::naive
