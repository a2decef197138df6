// Game simulation for `martiandice simulate`: complete games of Martian Dice
// played with real (pseudo-random, seeded) dice by a mix of the library's
// policies (martiandice/policy.h), and the win rates per seat and per policy
// with 95% confidence half-widths.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "martiandice/advisor.h"
#include "martiandice/policy.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "rating.h"

namespace martiandice {

inline constexpr std::uint64_t kDefaultSimulationSeed = 20240613;

struct SimulationOptions {
  Rules rules;
  std::vector<PolicySpec> policies;  // one per seat
  std::int64_t games = 0;
  std::uint64_t seed = kDefaultSimulationSeed;
  int threads = 1;  // worker threads; the result does not depend on it
  // Policies change seats from game to game (see Simulate); if false, policy
  // k sits in seat k in every game, to measure one seating alone.
  bool alternate_seats = true;
  // The policy table for `win` policies and rating: `table` if set, else the
  // advisor's (Advisor::Table) from `tables_path`. Not needed without either.
  std::optional<GameTable> table;
  std::optional<std::string> tables_path;
  // Rate every policy's decisions against the win table (app/rating.h):
  // each take and its stop or roll on reviewed as `play` reviews a human's.
  // Needs a table covering the game (above).
  bool rate = false;
  // Where the tables and the turn objectives' solved turns come from; null:
  // an advisor of the simulation's own.
  Advisor* advisor = nullptr;
  // Stops early once set (Ctrl-C): the games begun are finished and no other
  // is begun, so the games played are games 0..n-1 and the result is that of
  // games = n (SimulationResult::interrupted). Null: never stopped.
  const std::atomic<bool>* stop = nullptr;
  // Called now and then, on one thread, with the share of the games played.
  std::function<void(double)> progress;
};

struct SimulationResult {
  std::int64_t games = 0;        // games played: those asked, unless interrupted
  std::int64_t games_asked = 0;  // SimulationOptions::games
  bool interrupted = false;      // stopped before every game asked was played
  int players = 0;
  // Share of the games won (ties split equally) and 95% half-widths (normal
  // approximation; for a share of 0 or 1, the exact binomial bound
  // 1 - 0.025^(1/games) on the other side; NaN for one game), by seat and by
  // policy (in the order given).
  std::vector<double> seat_win_rate;
  std::vector<double> seat_ci95;
  std::vector<double> policy_win_rate;
  std::vector<double> policy_ci95;
  double mean_turns = 0;        // turns per game, all seats together
  std::int64_t tied_games = 0;  // games whose highest total was shared
  // rate: each policy's decisions, classed, and their loss (--policies order).
  std::vector<app::RatingTally> policy_rating;
  std::string table_path;  // the table used ("" if none, or given in memory)
  double seconds = 0;      // wall time of the games (not of solving or loading)
  int threads = 0;         // threads that played: at most one per game
};

// The policy (its index in the order given) in each of the `players` seats in
// game `game` (from 0) when seats alternate: the circular order c numbered
// floor(game / P) mod (P-1)! (policy 0, then one of the others' orders,
// numbered in lexicographic order), rotated by game mod P: policy c[i] sits in seat
// (i + game) mod P. So every P games each policy sits once in each seat, and
// every P! games each seating is played once; with 2 players policy k sits in
// seat (k + game) mod 2. (Rotation alone would keep each policy's neighbours,
// which biases the rates from 3 distinct policies on.) players: 2..kMaxPlayers.
std::vector<int> SeatedPolicies(int players, std::int64_t game);

// Plays `options.games` games. Game g (from 0) seats the policies as
// SeatedPolicies(P, g) (policy k in seat k if !alternate_seats) and uses its
// own random stream
// derived from (seed, g), so the result is reproducible and independent of the
// number of threads.
// Errors: InvalidArgument for bad options, a missing or mismatched table
// (message says how to generate it), or policies under which a game never ends;
// ResourceExhausted when the worker threads cannot be started; Cancelled when
// stopped before any game was played.
absl::StatusOr<SimulationResult> Simulate(const SimulationOptions& options);

}  // namespace martiandice
