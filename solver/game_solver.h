// The game-level solve: every seat's win probability at every turn-start
// context under optimal play, and the policy table file that stores it
// (layout: docs/FORMAT.md). Used by `martiandice solve` and the tests.
#pragma once

#include <cstdint>
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

// Policy iteration on a zero-score cycle (both game solvers): at most
// kMaxCycleRounds rounds; a round is accepted once its residual r is at
// rounding level (the largest seen for the official game is about 1e-15), or
// once r stops halving below kCycleStallResidual (rounding noise, not a
// policy change).
inline constexpr int kMaxCycleRounds = 60;
inline constexpr double kCycleAcceptResidual = 2e-15;
inline constexpr double kCycleStallResidual = 1e-14;

struct GameSolveOptions {
  Rules rules;
  int players = 2;
  // Called now and then with the fraction of the work done (0..1).
  std::function<void(double)> progress;
};

// What the solve measured; printed by `martiandice solve`.
struct GameSolveReport {
  int contexts = 0;           // turn-start contexts in the table
  int blocks = 0;             // distinct roll-value blocks stored
  int stored_states = 0;      // turn positions with a stored roll value
  long long turn_solves = 0;  // turn dynamic programs run
  int max_iterations = 0;     // most policy-iteration rounds one zero-score cycle needed
  double max_residual = 0;    // largest |T(W) - W| of an accepted zero-score cycle guess W
  double error_bound = 0;     // bound on every value's error (stored in the table)
  double seconds = 0;         // wall time of the solve (not the writing)
  double first_seat_win = 0;  // seat 0's win probability at the start of the game
};

// Limits (README.md, "Limits"). Supported: 2 players; the rule ranges of
// ValidateRules (dice 1..20, bonus 0..100, target 1..200). Within them, a
// request is refused up front (before any work) when its estimate exceeds
// either limit below. The table grows as blocks x stored states x 8 bytes,
// blocks ~ 2 target^2 and stored states ~ dice^4 (76 at 6 dice, 1,316 at 13,
// 7,766 at 20), so the table limit is what bounds large requests: e.g. 13
// dice fit every target up to 200, 20 dice up to target 92. Peak memory while
// solving is about twice the table.
//
// Largest table SolveGameTable writes: the reader refuses bigger files
// (GameTable, kMaxTableFileSize), so a bigger one would be useless.
inline constexpr std::uint64_t kMaxSolveTableBytes = std::uint64_t{1} << 30;
// Longest estimated solve accepted (one thread, 2-core Xeon VM class).
inline constexpr double kMaxSolveSeconds = 600;

// Up-front estimate of a solve, from counts computed without solving. The
// table size is an upper bound (within 5% for targets of 10 and up, 2% for
// the official game); the time is a fit of measured solves (dice 3..20,
// target 10..100; within about a third, mostly above, on the machine class
// above): turn solves ~ 8.5 target^2, each ~ 0.0725 us x stored_states^1.1.
// The fit predates the 2026-11-21 speed-up (about 6.8 target^2 solves, most
// of them without slopes): it now overestimates (about 4x for the official
// game), so the time limit is conservative.
struct GameSolveEstimate {
  long long contexts = 0;         // turn-start contexts (exact)
  long long blocks = 0;           // roll-value blocks (upper bound)
  long long stored_states = 0;    // turn positions per block (exact)
  double turn_solves = 0;         // turn dynamic programs (fit)
  double seconds = 0;             // solve time (fit)
  std::uint64_t table_bytes = 0;  // table file size (upper bound)
};

// The estimate for valid rules and 2 players. Errors: as SolveGameTable's
// first checks (rules, player count); never refuses for size.
absl::StatusOr<GameSolveEstimate> EstimateGameSolve(const GameSolveOptions& options);

// Solves the game and returns the table file's bytes. Errors: InvalidArgument
// for rules out of range, or a combination whose estimate exceeds
// kMaxSolveTableBytes or kMaxSolveSeconds (refused before any work; the
// message gives the estimate, the limits and what to lower); Unimplemented
// for a player count other than 2.
absl::StatusOr<std::string> SolveGameTable(const GameSolveOptions& options,
                                           GameSolveReport* report);

// Writes `bytes` to `path` atomically: a temporary file in the same
// directory, flushed and synced, then renamed over `path`. On error the old
// file (if any) is intact and the temporary is removed.
absl::Status WriteFileAtomically(const std::string& path, const std::string& bytes);

}  // namespace martiandice::solver
