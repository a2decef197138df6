// Internal: what a TurnSolution holds, shared by the solver and the queries.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/turn_solver.h"
#include "turn_model.h"

namespace martiandice::internal {

struct SolvedTurn {
  Rules rules;
  Objective objective;
  Precision precision;
  std::shared_ptr<const TurnModel> model;
  TurnValues values;
  std::vector<double> utility;           // by score
  std::vector<Rational> exact_utility;   // by score (exact solutions only)
  std::optional<ExactTurnValues> exact;  // exact solutions only

  // Exact roll value at canonical position `id` (exact solutions, dice left).
  Rational ExactRoll(int id) const;
  // The double value at canonical position `id` (its roll value if `roll`),
  // within the utilities' range: an expectation of them cannot leave it,
  // but rounding can (reach:0's certain 1 solved as 1.0000000000000004).
  double Clamped(int id, bool roll) const;
};

// What the library's own code reads of a TurnSolution (solver.h keeps it private).
struct SolvedTurnAccess {
  static const SolvedTurn& Of(const TurnSolution& solution) { return *solution.impl_; }
};

}  // namespace martiandice::internal
