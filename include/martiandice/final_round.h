// The final round solved exactly, without a table: once a seat has reached
// the target, every seat's chance to win depends only on the seats still to
// move, each playing its turn to win (docs/PLAYERS.md's convention on ties).
// FinalRoundSolver answers what a GameTable answers there, for any number of
// players and any rules, by a small dynamic program over the gaps to the
// leader, solved on demand and kept in a bounded cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/win_query.h"

namespace martiandice {

class FinalRoundSolver {
 public:
  struct Options {
    // Most bytes the cache of solved states takes (128 bytes a state: the
    // default keeps about 65,000; 20,000 six-player games meet 33,000).
    std::size_t max_value_bytes = std::size_t{8} << 20;
    // Most bytes the movers' roll values take (Evaluate, Advise: 17 KB a
    // mover at 13 dice, at least one a shard).
    std::size_t max_turn_bytes = std::size_t{8} << 20;
    // Most work one query may start: its turn solves, at most
    // 1 + (R - 1) (MaxTurnScore + 2) (players - 1) with R seats still to
    // move, times the turn's positions (2,175 at 13 dice). The default, about
    // 0.7 s of one core, covers every official table and house rules up to
    // bonus 30 at 6 players; one turn solve is always allowed.
    std::int64_t max_work = 5'000'000;
  };

  // A solver for `players` seats under `rules`, its cache empty. Errors:
  // InvalidArgument from ValidateRules or ValidatePlayers.
  static absl::StatusOr<FinalRoundSolver> Create(const Rules& rules, int players,
                                                 const Options& options);
  static absl::StatusOr<FinalRoundSolver> Create(const Rules& rules, int players) {
    return Create(rules, players, Options{});
  }

  const Rules& rules() const;
  int players() const;

  // Every seat's chance to win at `context` (seat 0 first; sums to 1, tied
  // leaders splitting a win; 0 for a seat that can no longer catch up), with
  // the seats still to move playing to win. The same as
  // GameTable::WinProbabilities where a table covers the game (the tests
  // hold them within 1e-14). Errors: InvalidArgument from ValidateContext, or
  // naming a context outside the final round (no seat before the mover has
  // reached the target); ResourceExhausted where the query needs more work
  // than Options::max_work allows.
  absl::StatusOr<std::vector<double>> WinProbabilities(const GameContext& context) const;

  // The mover's chance to win if its turn scores x, for x = 0..MaxTurnScore:
  // the utility its turn maximises. Errors: as WinProbabilities'.
  absl::StatusOr<std::vector<double>> MoverUtility(const GameContext& context) const;

  // As EvaluateWin and AdviseWin (win_query.h) answer from a table: stop or
  // roll at `aside`, and every take from `roll` ranked, in the mover's
  // chance to win, with every seat's chance at the context; values within
  // 1e-12 tie and the convention picks (docs/PLAYERS.md). The mover's turn
  // is solved once and kept (Options::max_turn_bytes). Errors: as
  // WinProbabilities', and InvalidArgument from ValidateAside or
  // ValidateRoll.
  absl::StatusOr<WinEval> Evaluate(const GameContext& context, const Dice& aside) const;
  absl::StatusOr<WinAdvice> Advise(const GameContext& context, const Dice& aside,
                                   const Dice& roll) const;

  struct Stats {
    std::int64_t turn_solves = 0;  // turns solved since Create (the laws of the states' movers)
    std::int64_t mover_turns = 0;  // movers' roll values solved since Create (Evaluate, Advise)
    std::int64_t states = 0;       // states in the cache now
    std::size_t value_bytes = 0;   // their bytes, at most Options::max_value_bytes (or 16 states)
  };
  Stats stats() const;

  // Thread safety: const, and any number of threads may share one solver
  // (and its copies, which share its cache); the answers do not depend on
  // what the cache holds.

 private:
  struct Impl;
  explicit FinalRoundSolver(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}
  std::shared_ptr<const Impl> impl_;
};

}  // namespace martiandice
