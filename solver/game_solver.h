// The game-level solve: every seat's win probability at every turn-start
// context under optimal play, and the policy table file that stores it
// (layout: docs/FORMAT.md). Used by `martiandice solve` and the tests.
#pragma once

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice::solver {

// Bound assumed on the rounding error of one turn solve's values (sums of a
// few thousand non-negative terms below 1): the largest seen against exact
// rational solves of the same utilities is 7.8e-16 (tests/game_solver_test.cpp
// checks 30 contexts of the official game, every roll value).
inline constexpr double kTurnSolveRounding = 1e-15;

struct GameSolveOptions {
  Rules rules;
  int players = 2;
  // Called now and then with the fraction of the work done (0..1).
  std::function<void(double)> progress;
};

// What the solve measured; printed by `martiandice solve`.
struct GameSolveReport {
  int contexts = 0;               // turn-start contexts in the table
  int blocks = 0;                 // distinct roll-value blocks stored
  int stored_states = 0;          // turn positions with a stored roll value
  long long turn_solves = 0;      // turn dynamic programs run
  int max_iterations = 0;         // most policy-iteration rounds one zero-score cycle needed
  double max_residual = 0;        // largest distance of a settled value to its cycle's fixed point
  double max_roll_deviation = 0;  // largest gap between parametric and direct roll values
  double error_bound = 0;         // bound on every value's error (stored in the table)
  double seconds = 0;             // wall time of the solve (not the writing)
  double first_seat_win = 0;      // seat 0's win probability at the start of the game
};

// Solves the game and returns the table file's bytes. Errors: InvalidArgument
// for rules or a player count out of range, or a combination too large to
// solve (the message says why).
absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report);

// Writes `bytes` to `path` atomically: a temporary file in the same
// directory, flushed and synced, then renamed over `path`. On error the old
// file (if any) is intact and the temporary is removed.
absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace martiandice::solver
