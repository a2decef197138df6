// TurnSolution: runs the double or exact dynamic program for an objective.
#include "martiandice/turn_solver.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "solved_turn.h"

namespace martiandice {
namespace internal {

double SolvedTurn::Clamped(int id, bool roll) const {
  const double v = roll ? values.roll[id] : values.value[id];
  if (std::isnan(v) || utility.empty()) return v;
  const auto [lo, hi] = std::minmax_element(utility.begin(), utility.end());
  return std::clamp(v, *lo, *hi);
}

Rational SolvedTurn::ExactRoll(int id) const {
  BigInt den = exact->denominator;
  for (int i = TurnModel::DenominatorExponent(model->state(id).left); i > 0; --i) den *= 6;
  return Rational(exact->roll[id], den);
}

}  // namespace internal

absl::StatusOr<TurnSolution> TurnSolution::Solve(const Rules& rules, const Objective& objective,
                                                 Precision precision) {
  if (absl::Status s = ValidateRules(rules); !s.ok()) return s;
  if (precision != Precision::kDouble && precision != Precision::kExact) {
    return absl::InvalidArgumentError(
        absl::StrCat("precision: ", static_cast<int>(precision), " is neither kDouble nor kExact"));
  }
  auto solved = std::make_shared<internal::SolvedTurn>(internal::SolvedTurn{
      rules, objective, precision, internal::TurnModel::Get(rules), {}, {}, {}, {}});
  const int max_score = MaxTurnScore(rules);
  for (int score = 0; score <= max_score; ++score) {
    solved->utility.push_back(objective.Utility(score));
  }
  if (precision == Precision::kExact) {
    for (int score = 0; score <= max_score; ++score) {
      solved->exact_utility.push_back(objective.ExactUtility(score));
    }
    solved->exact = internal::SolveExact(*solved->model, solved->exact_utility);
    solved->values = solved->exact->approx;
  } else {
    solved->values = internal::SolveDouble(*solved->model, solved->utility);
  }
  return TurnSolution(std::move(solved));
}

const Rules& TurnSolution::rules() const { return impl_->rules; }
const Objective& TurnSolution::objective() const { return impl_->objective; }
Precision TurnSolution::precision() const { return impl_->precision; }
double TurnSolution::StartValue() const {
  return impl_->Clamped(impl_->model->Id(0, 0, 0, 0, 0), /*roll=*/false);
}

}  // namespace martiandice
