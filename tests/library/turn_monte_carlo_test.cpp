// Monte Carlo check: the optimal policy, played with real random dice, scores what the
// solver predicts (expected score and reach probabilities) within statistical error.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <random>

#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/turn_query.h"
#include "martiandice/rules.h"
#include "martiandice/turn_solver.h"

namespace {

using martiandice::Dice;
using martiandice::Face;
using martiandice::Objective;
using martiandice::Precision;
using martiandice::Rules;
using martiandice::Then;
using martiandice::TurnSolution;

// The simulator's own die: one tank, two rays, one of each earthling.
Dice RollDice(int n, std::mt19937_64& rng) {
  static constexpr std::array<Face, 6> kSides = {Face::kTank,  Face::kRay, Face::kRay,
                                                 Face::kHuman, Face::kCow, Face::kChicken};
  Dice roll;
  for (int i = 0; i < n; ++i) roll.add(kSides[rng() % 6], 1);
  return roll;
}

// The simulator's own scoring.
int Score(const Rules& rules, const Dice& aside) {
  if (aside.count(Face::kTank) > aside.count(Face::kRay)) return 0;
  const int h = aside.count(Face::kHuman);
  const int c = aside.count(Face::kCow);
  const int k = aside.count(Face::kChicken);
  return h + c + k + (h > 0 && c > 0 && k > 0 ? rules.bonus : 0);
}

struct Welford {
  std::int64_t n = 0;
  double mean = 0;
  double m2 = 0;
  void Add(double x) {
    ++n;
    const double delta = x - mean;
    mean += delta / static_cast<double>(n);
    m2 += delta * (x - mean);
  }
  double StdError() const {
    return std::sqrt(m2 / static_cast<double>(n - 1) / static_cast<double>(n));
  }
};

struct Played {
  Welford score;               // final scores
  Welford utility;             // objective utility of the final scores
  Welford roll_residual;       // value of each roll's outcome minus the position's roll value
  std::int64_t bad_steps = 0;  // steps where the library's bookkeeping differed from ours
};

// Plays `turns` turns following the solution's advice; the table tracks the set-aside itself.
Played Play(const TurnSolution& solution, const Objective& objective, int turns,
            std::uint64_t seed) {
  const Rules& rules = solution.rules();
  std::mt19937_64 rng(seed);
  Played played;
  for (int t = 0; t < turns; ++t) {
    Dice aside;
    int score = -1;
    while (score < 0) {
      const int left = rules.dice - aside.total();
      auto eval = martiandice::EvaluatePosition(solution, aside);
      auto roll = RollDice(left, rng);
      auto advice = martiandice::AdviseRoll(solution, aside, roll);
      if (!eval.ok() || !advice.ok() || !eval->roll) {
        ++played.bad_steps;
        break;
      }
      played.roll_residual.Add(advice->value.approx - eval->roll->approx);
      Dice with_tanks = aside;
      with_tanks.add(Face::kTank, roll.count(Face::kTank));
      if (advice->aside_after_tanks != with_tanks) ++played.bad_steps;
      if (advice->turn_over) {
        score = Score(rules, with_tanks);
        if (advice->turn_over_score != score) ++played.bad_steps;
        break;
      }
      if (!advice->best || *advice->best >= static_cast<int>(advice->options.size())) {
        ++played.bad_steps;
        break;
      }
      const auto& option = advice->options[*advice->best];
      if (!option.optimal) ++played.bad_steps;
      // Our own move: the chosen face must be legal and is set aside with the tanks.
      const Face take = option.take;
      const bool legal = roll.count(take) > 0 && (take == Face::kRay || aside.count(take) == 0);
      if (!legal) ++played.bad_steps;
      Dice next = with_tanks;
      next.add(take, roll.count(take));
      if (option.aside_after != next) ++played.bad_steps;
      aside = next;
      const bool dice_left = aside.total() < rules.dice;
      if (!dice_left || option.then == Then::kStop || option.then == Then::kEither) {
        score = Score(rules, aside);
      }
    }
    if (score < 0) score = 0;
    played.score.Add(score);
    played.utility.Add(objective.Utility(score));
  }
  return played;
}

TEST_CASE("simulation: the ev policy scores its predicted expected value") {
  const Rules rules;
  const Objective objective = Objective::ExpectedScore();
  auto solution = TurnSolution::Solve(rules, objective, Precision::kDouble);
  REQUIRE(solution.ok());
  const double predicted = solution->StartValue();
  const Played played = Play(*solution, objective, 200000, 12345);
  CHECK(played.bad_steps == 0);
  const double error = played.score.StdError();
  MESSAGE("ev: predicted " << predicted << ", simulated " << played.score.mean << " +- " << error
                           << " over " << played.score.n << " turns");
  CHECK(error > 0);
  CHECK(std::abs(played.score.mean - predicted) <= 4 * error);
  // Each roll's outcome value averages to the position's roll value (a martingale).
  MESSAGE("roll residual " << played.roll_residual.mean << " +- " << played.roll_residual.StdError()
                           << " over " << played.roll_residual.n << " rolls");
  CHECK(std::abs(played.roll_residual.mean) <= 4 * played.roll_residual.StdError());
}

TEST_CASE("simulation: reach:k policies hit k with the predicted probability") {
  const Rules rules;
  for (int k : {8, 13}) {
    CAPTURE(k);
    const Objective objective = Objective::ReachAtLeast(k);
    auto solution = TurnSolution::Solve(rules, objective, Precision::kDouble);
    REQUIRE(solution.ok());
    const double p = solution->StartValue();
    const int turns = 150000;
    const Played played = Play(*solution, objective, turns, 999 + k);
    CHECK(played.bad_steps == 0);
    const double error = std::sqrt(p * (1 - p) / turns);
    MESSAGE("reach:" << k << ": predicted " << p << ", simulated " << played.utility.mean << " +- "
                     << error);
    CHECK(p > 0);
    CHECK(p < 1);
    CHECK(std::abs(played.utility.mean - p) <= 4 * error);
    CHECK(std::abs(played.roll_residual.mean) <= 4 * played.roll_residual.StdError());
  }
}

}  // namespace
