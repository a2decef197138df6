// The score law of an optimally played turn: probability flows forward from the
// start of the turn, level by level (more dice left first), through every roll
// outcome and the advised decision, into the final scores. Exact mode keeps
// integer numerators over powers of six (no rational normalisation per step).
#include "martiandice/distribution.h"

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "martiandice/dice.h"
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"
#include "table_format.h"
#include "turn_model.h"
#include "win_values.h"
#include "zero_chances.h"

namespace martiandice {
namespace {

// D(m) = m + (m-1) + ... + 1: from a start with L dice left, a position with m
// dice left was reached by rolls of at most L + (L-1) + ... + (m+1) = D(L) -
// D(m) dice in all, so its probability is an integer over 6^(D(L) - D(m)); the
// final scores (level 0) are integers over 6^D(L).
int Triangle(int m) { return m * (m + 1) / 2; }

// Probability mass at the positions of one level (dice left), to be rolled.
struct Level {
  std::vector<Dice> positions;
  std::vector<double> mass;
  std::vector<BigInt> exact;  // numerators over 6^(D(N) - D(level)); exact mode only
  std::unordered_map<std::uint32_t, int> index;

  int Slot(const Dice& aside, bool exact_mode) {
    auto [it, inserted] =
        index.try_emplace(internal::DiceKey(aside), static_cast<int>(positions.size()));
    if (inserted) {
      positions.push_back(aside);
      mass.push_back(0);
      if (exact_mode) exact.emplace_back(0);
    }
    return it->second;
  }
};

// The flow from `start` (a valid set-aside with dice left), rolled at once.
// `advise(aside, roll)` returns the StatusOr<RollAdvice> of the policy followed.
template <typename Advise>
absl::StatusOr<ScoreDistribution> ForwardPass(const Rules& rules, const Dice& start_aside,
                                              bool exact_mode, const Advise& advise) {
  const int n = rules.dice;
  const int first = n - start_aside.total();
  const int max_score = MaxTurnScore(rules);
  std::vector<BigInt> six_power(Triangle(first) + 1);
  six_power[0] = 1;
  for (std::size_t i = 1; i < six_power.size(); ++i) six_power[i] = six_power[i - 1] * 6;

  std::vector<Level> levels(n + 1);
  {
    Level& start = levels[first];
    const int slot = start.Slot(start_aside, exact_mode);
    start.mass[slot] = 1;
    if (exact_mode) start.exact[slot] = 1;
  }
  std::vector<double> final_mass(max_score + 1, 0.0);
  std::vector<BigInt> final_exact(exact_mode ? max_score + 1 : 0);

  for (int left = first; left >= 1; --left) {
    Level& level = levels[left];
    const std::vector<RollOutcome>& outcomes = internal::RollLaw(left);
    const double total = static_cast<double>(PowerOfSix(left));
    for (std::size_t p = 0; p < level.positions.size(); ++p) {
      const Dice aside = level.positions[p];
      const double mass = level.mass[p];
      for (const RollOutcome& outcome : outcomes) {
        absl::StatusOr<RollAdvice> advice = advise(aside, outcome.faces);
        if (!advice.ok()) return advice.status();
        const double flow = mass * static_cast<double>(outcome.weight) / total;
        // Where the mass goes: a final score, or a position to roll from.
        int score = -1;
        Dice next;
        if (advice->turn_over || !advice->best) {
          score = advice->turn_over_score;
        } else {
          const TakeOption& option = advice->options[*advice->best];
          if (option.then == Then::kRoll) {
            next = option.aside_after;
          } else {
            score = TurnScore(rules, option.aside_after);
          }
        }
        const int next_left = score >= 0 ? 0 : n - next.total();
        BigInt numerator;
        if (exact_mode) {
          numerator = level.exact[p] * outcome.weight;
          numerator *= six_power[Triangle(left - 1) - Triangle(next_left)];
        }
        if (score >= 0) {
          final_mass[score] += flow;
          if (exact_mode) final_exact[score] += numerator;
        } else {
          Level& target = levels[next_left];
          const int slot = target.Slot(next, exact_mode);
          target.mass[slot] += flow;
          if (exact_mode) target.exact[slot] += numerator;
        }
      }
    }
    level = Level();  // release the level's memory once it has flowed on
  }

  ScoreDistribution result;
  result.probability = std::move(final_mass);
  if (exact_mode) {
    const BigInt& denominator = six_power[Triangle(first)];
    result.exact.reserve(final_exact.size());
    for (std::size_t s = 0; s < final_exact.size(); ++s) {
      result.exact.emplace_back(final_exact[s], denominator);
      // The exact law is the reference: report its rounding.
      result.probability[s] = static_cast<double>(result.exact.back());
    }
  }
  return result;
}

}  // namespace

double ScoreDistribution::Mean() const {
  double mean = 0;
  for (std::size_t s = 0; s < probability.size(); ++s)
    mean += static_cast<double>(s) * probability[s];
  return mean;
}

Rational ScoreDistribution::ExactMean() const {
  Rational mean = 0;
  for (std::size_t s = 0; s < exact.size(); ++s) mean += static_cast<int>(s) * exact[s];
  return mean;
}

namespace {

// True when the advice leaves nothing to a near-tie: every optimal take is
// the best one or its mirror image (the same number of another untaken
// earthling type: exactly equal values, and the first in face order wins
// either way), and the decision after it is strict.
bool Clear(const RollAdvice& advice) {
  if (advice.turn_over || !advice.best) return true;
  const TakeOption& best = advice.options[*advice.best];
  if (best.then == Then::kEither) return false;
  for (const TakeOption& option : advice.options) {
    if (!option.optimal || &option == &best) continue;
    if (!IsEarthling(option.take) || !IsEarthling(best.take) || option.count != best.count) {
      return false;
    }
  }
  return true;
}

}  // namespace

namespace internal {

absl::Status CheckStart(const Rules& rules, const Dice& aside) {
  if (absl::Status status = ValidateAside(rules, aside); !status.ok()) return status;
  if (aside.total() >= rules.dice) {
    return absl::InvalidArgumentError(
        absl::StrCat("set-aside ", FormatDice(aside), " leaves no dice to roll: the turn is over"));
  }
  return absl::OkStatus();
}

}  // namespace internal

absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const TurnSolution& solution) {
  return TurnScoreDistribution(solution, Dice());
}

absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const TurnSolution& solution,
                                                        const Dice& start) {
  if (absl::Status status = internal::CheckStart(solution.rules(), start); !status.ok()) {
    return status;
  }
  if (solution.precision() != Precision::kExact) {
    return ForwardPass(solution.rules(), start, false, [&](const Dice& aside, const Dice& roll) {
      return AdviseRoll(solution, aside, roll);
    });
  }
  // Exact decisions, fast: the double solution's advice decides wherever its
  // values are apart by more than its tie tolerance (1e-12 relative, far above
  // its rounding error, so the exact order is the same); near-ties go to the
  // exact solution.
  absl::StatusOr<TurnSolution> fast =
      TurnSolution::Solve(solution.rules(), solution.objective(), Precision::kDouble);
  if (!fast.ok()) return fast.status();
  return ForwardPass(solution.rules(), start, true,
                     [&](const Dice& aside, const Dice& roll) -> absl::StatusOr<RollAdvice> {
                       absl::StatusOr<RollAdvice> advice = AdviseRoll(*fast, aside, roll);
                       if (!advice.ok() || Clear(*advice)) return advice;
                       return AdviseRoll(solution, aside, roll);
                     });
}

absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const GameTable& table,
                                                        const GameContext& context) {
  return TurnScoreDistribution(table, context, Dice());
}

absl::StatusOr<ScoreDistribution> TurnScoreDistribution(const GameTable& table,
                                                        const GameContext& context,
                                                        const Dice& start) {
  if (absl::Status status = ValidateContext(table.rules(), table.players(), context);
      !status.ok()) {
    return status;
  }
  if (absl::Status status = internal::CheckStart(table.rules(), start); !status.ok()) return status;
  // AdviseWin's advice at every roll, the context's values read and checked once.
  const internal::TableData& data = internal::TableAccess::Data(table);
  const internal::WinValues values(data, context);
  if (absl::Status status = values.Verify(); !status.ok()) return status;
  return ForwardPass(table.rules(), start, false,
                     [&](const Dice& aside, const Dice& roll) -> absl::StatusOr<RollAdvice> {
                       return internal::AdviseWinTakes(data, values, aside, roll);
                     });
}

}  // namespace martiandice
