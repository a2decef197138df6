// The N-player game-level solve (docs/PLAYERS.md): every seat's probability
// of winning at every turn-start context when every seat maximises its own
// chance, ties broken by the fixed convention. Works for any player count
// 2..kMaxPlayers; for 2 players it agrees with the two-player solver.
#pragma once

#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/rules.h"

namespace martiandice::solver {

// Arithmetic of the turn solves: kAuto is double (for 2 players it then
// matches the two-player solver). kExtended (x87 long double) rounds about
// 2,000 times less per solve but is about 3 times slower; the double solve
// meets the 1e-13 bound for 3 and 4 players since the error bound is
// propagated as an expectation over each turn's outcomes (nplayer_solver.cpp).
enum class SolveArithmetic { kAuto, kDouble, kExtended };

// Bound assumed on the rounding of one extended-precision turn solve's values
// once stored as doubles: the conversion (half an ulp of 1, 1.1e-16) plus the
// extended sums (about 1e-18); checked against exact rational solves in
// tests/nplayer_solver_test.cpp.
inline constexpr double kExtendedTurnRounding = 2e-16;

struct NPlayerSolveOptions {
  Rules rules;
  int players = 3;
  SolveArithmetic arithmetic = SolveArithmetic::kAuto;
  // Worker threads (>= 1): score vectors of equal total are solved in parallel.
  int threads = 1;
  // Called now and then with the fraction of the work done (0..1), from the
  // calling thread.
  std::function<void(double)> progress;
};

// What the solve measured.
struct NPlayerReport {
  long long contexts = 0;        // turn-start contexts (docs/FORMAT.md numbering)
  long long turn_solves = 0;     // turn dynamic programs run
  long long cycles = 0;          // zero-score cycles solved (score vectors below the target)
  int max_rounds = 0;            // most policy-iteration rounds one cycle needed
  double mean_rounds = 0;        // average rounds per cycle
  double max_residual = 0;       // largest change of any value in the settling solve
  double error_bound = 0;        // bound on every value's error
  long long tied_decisions = 0;  // decision points (per context) where the mover was tied
  long long kingmaking = 0;      // ... where the tied actions differ for another seat
  long long kingmaking_contexts = 0;  // contexts with at least one such decision point
  double seconds = 0;                 // wall time
  std::vector<double> start;          // every seat's chance at the start of the game
};

// Every context's vector: win[index * players + seat].
struct GameValues {
  Rules rules;
  int players = 0;
  std::vector<double> win;
  double error_bound = 0;
};

// Solves the game. Errors: InvalidArgument for rules out of range, a player
// count outside 2..kMaxPlayers or threads < 1.
absl::StatusOr<GameValues> SolveGameValues(const NPlayerSolveOptions& options,
                                           NPlayerReport* report);

}  // namespace martiandice::solver
