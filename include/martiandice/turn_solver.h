// The turn solver: optimal value of every turn position for an objective, by
// memoized dynamic programming over the turn's positions, in double precision
// or exactly (rational arithmetic).
#pragma once

#include <memory>

#include "absl/status/statusor.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"

namespace martiandice {

enum class Precision {
  kDouble,  // IEEE doubles; options within 1e-12 (relative) are reported as tied
  kExact,   // exact rationals; every comparison and every tie decided exactly
};

namespace internal {
struct SolvedTurn;
struct SolvedTurnAccess;
}  // namespace internal

// The solved turn for one rule set and objective. Immutable once built: any
// number of threads may query it concurrently. Cheap to copy (shared data).
// Query it with the functions of martiandice/turn_query.h.
class TurnSolution {
 public:
  // Solves every position of the turn. Errors: InvalidArgument for rules out of
  // range (see ValidateRules) or a precision that is neither. Cost: one pass
  // backwards over the turn's canonical positions and their rolls; exact solves
  // carry big rationals.
  static absl::StatusOr<TurnSolution> Solve(const Rules& rules, const Objective& objective,
                                            Precision precision = Precision::kDouble);

  const Rules& rules() const;
  const Objective& objective() const;
  Precision precision() const;
  // Optimal value of a fresh turn (before the first roll).
  double StartValue() const;

 private:
  friend struct internal::SolvedTurnAccess;
  explicit TurnSolution(std::shared_ptr<const internal::SolvedTurn> impl)
      : impl_(std::move(impl)) {}
  std::shared_ptr<const internal::SolvedTurn> impl_;
};

}  // namespace martiandice
