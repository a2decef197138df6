// Internal: the chance that a turn scores 0 under a policy, from every
// set-aside of the turn (the advisor's zero chances, GameAdvice): summed
// backwards over the rolls, each position once on first use and kept, so
// that every later decision of the turn reads it. The policy is a game
// table's at one context (AdviseWin's picks) or a solved turn's (AdviseRoll's).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "martiandice/table.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "take_options.h"

namespace martiandice::internal {

class ZeroChances {
 public:
  // The win policy of `table` (kept alive) at `context`. Errors:
  // ValidateContext's; DataLoss for a corrupt record the turn reads.
  static absl::StatusOr<std::unique_ptr<const ZeroChances>> ForTable(const GameTable& table,
                                                                     const GameContext& context);
  // The policy of `turn` (kept alive), a double-precision solution.
  static std::unique_ptr<const ZeroChances> ForTurn(const TurnSolution& turn);

  // The policy's TurnScoreDistribution from `aside`, probability[0], equal
  // within rounding (another order of summation): the chance that rolling
  // from `aside` and following the policy's picks ends the turn with 0
  // points. Errors: TurnScoreDistribution's for `aside` (invalid, or no dice
  // left). Thread-safe.
  absl::StatusOr<double> At(const Dice& aside) const;

 private:
  // The policy's advice from a valid roll at a valid set-aside.
  using Advise = std::function<ApproxAdvice(const Dice& aside, const Dice& roll)>;
  ZeroChances(const Rules& rules, Advise advise) : rules_(rules), advise_(std::move(advise)) {}
  absl::StatusOr<double> Compute(const Dice& aside) const;  // mutex_ held

  Rules rules_;
  Advise advise_;
  mutable std::mutex mutex_;
  mutable absl::flat_hash_map<std::uint32_t, double> memo_;  // by set-aside
};

}  // namespace martiandice::internal
