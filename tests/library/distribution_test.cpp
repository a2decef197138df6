// The score law of an optimally played turn (martiandice/distribution.h):
// a hand-computed tiny game, its mean against the solved value (exactly for
// ev), the expected win utility against the table's value for the win policy,
// and seeded simulations with independently rolled dice (within 4 sigma).
#include "martiandice/distribution.h"

#include <doctest/doctest.h>

#include <cmath>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"
#include "test_util.h"

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

using namespace martiandice;

namespace {

double Sum(const std::vector<double>& p) {
  double s = 0;
  for (double x : p) s += x;
  return s;
}

using test_util::ShippedTable;

// Rolls `n` dice one by one with the face law of docs/RULES.md (not RollDistribution).
Dice RollDice(int n, std::mt19937_64& rng) {
  static constexpr Face kSides[6] = {Face::kTank,  Face::kRay, Face::kRay,
                                     Face::kHuman, Face::kCow, Face::kChicken};
  std::uniform_int_distribution<int> side(0, 5);
  Dice roll;
  for (int i = 0; i < n; ++i) roll.add(kSides[side(rng)], 1);
  return roll;
}

// Plays `turns` turns with random dice following `advise`'s decisions; returns
// how many ended with each score.
template <typename Advise>
std::vector<long> SimulateTurns(const Rules& rules, long turns, std::uint64_t seed,
                                const Advise& advise) {
  std::mt19937_64 rng(seed);
  std::vector<long> counts(MaxTurnScore(rules) + 1, 0);
  for (long t = 0; t < turns; ++t) {
    Dice aside;
    int score = -1;
    while (score < 0) {
      const Dice roll = RollDice(rules.dice - aside.total(), rng);
      const RollAdvice advice = advise(aside, roll);
      if (advice.turn_over) {
        score = advice.turn_over_score;
        break;
      }
      const TakeOption& option = advice.options.at(*advice.best);
      aside = option.aside_after;
      if (option.then != Then::kRoll) score = TurnScore(rules, aside);
    }
    ++counts.at(score);
  }
  return counts;
}

// Every score's frequency within 4 standard deviations of its probability
// (impossible scores never occur).
void CheckAgainstSimulation(const std::vector<double>& p, const std::vector<long>& counts,
                            long turns) {
  REQUIRE(p.size() == counts.size());
  for (std::size_t s = 0; s < p.size(); ++s) {
    CAPTURE(s);
    CAPTURE(p[s]);
    CAPTURE(counts[s]);
    const double freq = static_cast<double>(counts[s]) / static_cast<double>(turns);
    const double sigma = std::sqrt(p[s] * (1 - p[s]) / static_cast<double>(turns));
    if (p[s] == 0) {
      CHECK(counts[s] == 0);
    } else {
      CHECK(std::abs(freq - p[s]) <= 4 * sigma + 1e-12);
    }
  }
}

}  // namespace

TEST_CASE("distribution: one die, no bonus, by hand") {
  // Tank (1/6): no take, scores 0. Ray (2/6): taken, no dice left, 0.
  // Earthling (3/6): taken, 1 point. Exactly 1/2 and 1/2.
  const Rules rules{1, 0, 25};
  auto solution = TurnSolution::Solve(rules, Objective::ExpectedScore(), Precision::kExact);
  REQUIRE(solution.ok());
  auto d = TurnScoreDistribution(*solution);
  REQUIRE(d.ok());
  REQUIRE(d->exact.size() == 2);
  CHECK(d->exact[0] == Rational(1, 2));
  CHECK(d->exact[1] == Rational(1, 2));
  CHECK(d->probability[1] == 0.5);
  CHECK(d->ExactMean() == Rational(1, 2));
}

TEST_CASE("distribution: ev mean equals the solved value exactly (official rules)") {
  auto solution = TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kExact);
  REQUIRE(solution.ok());
  auto d = TurnScoreDistribution(*solution);
  REQUIRE(d.ok());
  REQUIRE(d->exact.size() == 17);
  Rational total = 0;
  for (const Rational& p : d->exact) {
    CHECK(p >= 0);
    total += p;
  }
  CHECK(total == 1);
  auto start = EvaluatePosition(*solution, Dice());
  REQUIRE(start.ok());
  REQUIRE(start->value.exact);
  CHECK(d->ExactMean() == *start->value.exact);

  // The double solution's law agrees with the exact one.
  auto fast = TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kDouble);
  REQUIRE(fast.ok());
  auto df = TurnScoreDistribution(*fast);
  REQUIRE(df.ok());
  CHECK(df->exact.empty());
  for (int s = 0; s <= 16; ++s)
    CHECK(df->probability[s] == doctest::Approx(d->probability[s]).epsilon(1e-12));
  CHECK(df->Mean() == doctest::Approx(fast->StartValue()).epsilon(1e-12));
}

TEST_CASE("distribution: reach:K's law gives P(score >= K) = the solved value, rule variant") {
  const Rules rules{7, 2, 25};
  auto solution = TurnSolution::Solve(rules, Objective::ReachAtLeast(5), Precision::kExact);
  REQUIRE(solution.ok());
  auto d = TurnScoreDistribution(*solution);
  REQUIRE(d.ok());
  Rational reach = 0;
  for (std::size_t s = 5; s < d->exact.size(); ++s) reach += d->exact[s];
  auto start = EvaluatePosition(*solution, Dice());
  REQUIRE(start.ok());
  CHECK(reach == *start->value.exact);
}

TEST_CASE("distribution: ev law matches a seeded simulation within 4 sigma") {
  auto solution = TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kDouble);
  REQUIRE(solution.ok());
  auto d = TurnScoreDistribution(*solution);
  REQUIRE(d.ok());
  CHECK(Sum(d->probability) == doctest::Approx(1).epsilon(1e-12));
  constexpr long kTurns = 200000;
  const auto counts = SimulateTurns(Rules{}, kTurns, 20261121, [&](const Dice& a, const Dice& r) {
    auto advice = AdviseRoll(*solution, a, r);
    REQUIRE(advice.ok());
    return *advice;
  });
  CheckAgainstSimulation(d->probability, counts, kTurns);
}

TEST_CASE("distribution: win policy's expected utility is the table's win probability") {
  const GameTable table = ShippedTable();
  SUBCASE("start of the game, seat 0") {
    const GameContext context{{0, 0}, 0};
    auto d = TurnScoreDistribution(table, context);
    REQUIRE(d.ok());
    CHECK(Sum(d->probability) == doctest::Approx(1).epsilon(1e-12));
    // u(s): seat 0's chance once its turn ended with s points, seat 1 to move.
    double expected = 0;
    for (int s = 0; s <= 16; ++s) {
      auto w = table.WinProbabilities(GameContext{{s, 0}, 1});
      REQUIRE(w.ok());
      expected += d->probability[s] * (*w)[0];
    }
    auto start = table.WinProbabilities(context);
    REQUIRE(start.ok());
    CHECK(std::abs(expected - (*start)[0]) < 1e-12);
  }
  SUBCASE("final round, seat 1 must overtake 25 from 21") {
    const GameContext context{{25, 21}, 1};
    auto d = TurnScoreDistribution(table, context);
    REQUIRE(d.ok());
    double expected = 0;
    for (int s = 0; s <= 16; ++s) {
      const double u = 21 + s > 25 ? 1.0 : (21 + s == 25 ? 0.5 : 0.0);
      expected += d->probability[s] * u;
    }
    auto start = table.WinProbabilities(context);
    REQUIRE(start.ok());
    CHECK(std::abs(expected - (*start)[1]) < 1e-12);
  }
  SUBCASE("seeded simulation within 4 sigma, behind 10 to 20") {
    const GameContext context{{10, 20}, 0};
    auto d = TurnScoreDistribution(table, context);
    REQUIRE(d.ok());
    constexpr long kTurns = 100000;
    const auto counts = SimulateTurns(Rules{}, kTurns, 7, [&](const Dice& a, const Dice& r) {
      auto advice = AdviseWin(table, context, a, r);
      REQUIRE(advice.ok());
      return advice->advice;
    });
    CheckAgainstSimulation(d->probability, counts, kTurns);
  }
}

// The win policy's law by recursion backwards from the end of the turn,
// each position's law kept by its set-aside: another order of computation
// than the library's forward pass, with the public AdviseWin's pick at every
// roll (its stop when stopping and rolling on tie).
class WinLawByRecursion {
 public:
  WinLawByRecursion(const GameTable& table, const GameContext& context)
      : table_(table), context_(context) {}

  std::vector<double> Law(const Dice& aside) {
    const std::string key = FormatDice(aside);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const Rules& rules = table_.rules();
    const int left = rules.dice - aside.total();
    std::vector<double> law(MaxTurnScore(rules) + 1, 0.0);
    const double total = static_cast<double>(PowerOfSix(left));
    for (const RollOutcome& outcome : RollDistribution(left)) {
      absl::StatusOr<WinAdvice> advice = AdviseWin(table_, context_, aside, outcome.faces);
      REQUIRE(advice.ok());
      const RollAdvice& a = advice->advice;
      const double p = static_cast<double>(outcome.weight) / total;
      if (a.turn_over || !a.best) {
        law[a.turn_over_score] += p;
      } else if (const TakeOption& take = a.options[*a.best]; take.then == Then::kRoll) {
        const std::vector<double> after = Law(take.aside_after);
        for (std::size_t s = 0; s < law.size(); ++s) law[s] += p * after[s];
      } else {
        law[TurnScore(rules, take.aside_after)] += p;
      }
    }
    return memo_[key] = law;
  }

 private:
  const GameTable& table_;
  GameContext context_;
  std::map<std::string, std::vector<double>> memo_;
};

TEST_CASE("distribution: the win policy's law equals a recursion over AdviseWin's picks") {
  const GameTable table = ShippedTable();
  const struct {
    GameContext context;
    const char* aside;
  } cases[] = {{{{0, 0}, 0}, "-"},       {{{10, 20}, 0}, "-"},     {{{24, 24}, 1}, "-"},
               {{{20, 18}, 1}, "2T 4H"}, {{{25, 21}, 1}, "3T 2R"}, {{{3, 22}, 0}, "1T 5C"}};
  for (const auto& c : cases) {
    INFO(c.context.scores[0] << "," << c.context.scores[1] << " seat " << c.context.seat << " from "
                             << c.aside);
    const Dice aside = *ParseDice(c.aside);
    absl::StatusOr<ScoreDistribution> law = TurnScoreDistribution(table, c.context, aside);
    REQUIRE(law.ok());
    const std::vector<double> reference = WinLawByRecursion(table, c.context).Law(aside);
    REQUIRE(law->probability.size() == reference.size());
    for (std::size_t s = 0; s < reference.size(); ++s) {
      CHECK(std::abs(law->probability[s] - reference[s]) < 1e-12);
    }
  }
}

TEST_CASE("distribution: an invalid context is refused") {
  const GameTable table = ShippedTable();
  auto d = TurnScoreDistribution(table, GameContext{{0, 30}, 0});
  CHECK(d.status().code() == absl::StatusCode::kInvalidArgument);
  auto e = TurnScoreDistribution(table, GameContext{{0, 0, 0}, 0});
  CHECK(e.status().code() == absl::StatusCode::kInvalidArgument);
}

TEST_CASE("distribution: from a position, rolling on (the rulebook's last 2 dice, by hand)") {
  // 3T 3R 4H 1K set aside, 2 dice rolled (ev, optimal). A tank without a ray
  // leaves the tanks ahead: TT, TH, TK (no take), TC (the cow must be taken,
  // no die left): 1 + 2 + 2 + 2 = 7 of 36 ordered results score 0. TR takes
  // the ray (4T 4R: 5 points); every other roll keeps at least 5 points.
  auto exact = TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kExact);
  REQUIRE(exact.ok());
  const Dice start(3, 3, 4, 0, 1);
  auto law = TurnScoreDistribution(*exact, start);
  REQUIRE(law.ok());
  REQUIRE(law->exact.size() == law->probability.size());
  CHECK(law->exact[0] == Rational(7, 36));
  CHECK(law->ExactMean() == Rational(281, 54));  // the roll value of eval's README example
  Rational total = 0;
  for (const Rational& p : law->exact) total += p;
  CHECK(total == 1);
  for (int s = 1; s < 5; ++s) CHECK(law->exact[s] == 0);
  auto approx = TurnScoreDistribution(
      *TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kDouble), start);
  REQUIRE(approx.ok());
  CHECK(approx->probability[0] == doctest::Approx(7.0 / 36));
  CHECK(approx->exact.empty());
  // A fresh turn: the same as the one-argument form.
  auto fresh = TurnScoreDistribution(*exact, Dice());
  auto whole = TurnScoreDistribution(*exact);
  REQUIRE(fresh.ok());
  REQUIRE(whole.ok());
  CHECK(fresh->exact == whole->exact);
  // Errors: no dice left, not a position.
  CHECK(TurnScoreDistribution(*exact, Dice(0, 0, 13, 0, 0)).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(TurnScoreDistribution(*exact, Dice(3, 0, 0, 0, 0)).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

TEST_CASE("distribution: from a position, played to win (the README's final round)") {
  // Seat 1 at 21 against 25 in the final round wins with 5 points or more;
  // from 3T 3R 4H 1K rolling on scores 0 or at least 5, so its roll value
  // (0.805556 = 29/36) is 1 - P(0): P(0) = 7/36, as for ev.
  const GameTable& table = ShippedTable(2);
  const GameContext context{{25, 21}, 1};
  const Dice start(3, 3, 4, 0, 1);
  auto law = TurnScoreDistribution(table, context, start);
  REQUIRE(law.ok());
  CHECK(Sum(law->probability) == doctest::Approx(1.0));
  CHECK(law->probability[0] == doctest::Approx(7.0 / 36));
  auto eval = EvaluateWin(table, context, start);
  REQUIRE(eval.ok());
  CHECK(eval->position.roll->approx == doctest::Approx(1 - law->probability[0]));
  auto fresh = TurnScoreDistribution(table, context, Dice());
  auto whole = TurnScoreDistribution(table, context);
  REQUIRE(fresh.ok());
  REQUIRE(whole.ok());
  CHECK(fresh->probability == whole->probability);
  CHECK(TurnScoreDistribution(table, GameContext{{25, 21}, 0}, start).status().code() ==
        absl::StatusCode::kInvalidArgument);
}
