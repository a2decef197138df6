// Independent brute-force reference for a turn: enumerates ordered die results, applies the
// rules and scoring itself, and checks the library's exact solution, state space and roll law.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"

namespace {

using martiandice::Dice;
using martiandice::Face;
using martiandice::Objective;
using martiandice::Precision;
using martiandice::Rational;
using martiandice::Rules;
using martiandice::Then;
using martiandice::TurnSolution;

// The reference's own face indices and die: side 0 tank, sides 1-2 ray, 3 human, 4 cow,
// 5 chicken.
constexpr int kTank = 0;
constexpr int kRay = 1;
constexpr int kHuman = 2;
constexpr int kCow = 3;
constexpr int kChicken = 4;
constexpr std::array<int, 6> kSideFace = {kTank, kRay, kRay, kHuman, kCow, kChicken};
constexpr std::array<int, 3> kEarthlingIndices = {kHuman, kCow, kChicken};

using Counts = std::array<int, 5>;  // tanks, rays, humans, cows, chickens

int Total(const Counts& c) { return c[0] + c[1] + c[2] + c[3] + c[4]; }

std::string Show(const Counts& c) {
  std::ostringstream out;
  out << c[0] << "T " << c[1] << "R " << c[2] << "H " << c[3] << "C " << c[4] << "K";
  return out.str();
}

// The reference's scoring: 0 if tanks outnumber rays, else earthlings plus the bonus when
// all three earthling types are present.
int ReferenceScore(const Counts& aside, int bonus) {
  if (aside[kTank] > aside[kRay]) return 0;
  int score = aside[kHuman] + aside[kCow] + aside[kChicken];
  if (aside[kHuman] > 0 && aside[kCow] > 0 && aside[kChicken] > 0) score += bonus;
  return score;
}

// Legal takes from `roll` at `aside`: rays whenever shown, an earthling type when shown and
// not set aside before.
std::vector<int> LegalTakes(const Counts& aside, const Counts& roll) {
  std::vector<int> takes;
  if (roll[kRay] > 0) takes.push_back(kRay);
  for (int e : kEarthlingIndices) {
    if (roll[e] > 0 && aside[e] == 0) takes.push_back(e);
  }
  return takes;
}

Counts WithTanks(Counts aside, const Counts& roll) {
  aside[kTank] += roll[kTank];
  return aside;
}

Counts AfterTake(const Counts& aside, const Counts& roll, int face) {
  Counts after = WithTanks(aside, roll);
  after[face] += roll[face];
  return after;
}

// Every ordered sequence of n die results (6^n of them), grouped by the faces shown.
const std::map<Counts, std::uint64_t>& OrderedOutcomes(int n) {
  static std::map<int, std::map<Counts, std::uint64_t>> cache;
  auto it = cache.find(n);
  if (it != cache.end()) return it->second;
  std::map<Counts, std::uint64_t> grouped;
  std::vector<int> sides(n, 0);
  while (true) {
    Counts c{};
    for (int s : sides) ++c[kSideFace[s]];
    ++grouped[c];
    int i = 0;
    while (i < n && ++sides[i] == 6) {
      sides[i] = 0;
      ++i;
    }
    if (i == n) break;
  }
  return cache.emplace(n, std::move(grouped)).first->second;
}

std::uint64_t Pow6(int n) {
  std::uint64_t p = 1;
  for (int i = 0; i < n; ++i) p *= 6;
  return p;
}

int Key(const Counts& c) { return (((c[0] * 32 + c[1]) * 32 + c[2]) * 32 + c[3]) * 32 + c[4]; }

Dice ToDice(const Counts& c) { return Dice(c[0], c[1], c[2], c[3], c[4]); }

Counts FromDice(const Dice& d) {
  return {d.count(Face::kTank), d.count(Face::kRay), d.count(Face::kHuman), d.count(Face::kCow),
          d.count(Face::kChicken)};
}

int FaceIndex(Face f) { return static_cast<int>(f); }

using Utility = std::function<Rational(int score)>;

// Optimal expected utility by memoized recursion over the reference's own states.
class BruteForce {
 public:
  BruteForce(int dice, int bonus, Utility utility)
      : dice_(dice), bonus_(bonus), utility_(std::move(utility)) {}

  int Left(const Counts& aside) const { return dice_ - Total(aside); }
  Rational Stop(const Counts& aside) const { return utility_(ReferenceScore(aside, bonus_)); }
  int Score(const Counts& aside) const { return ReferenceScore(aside, bonus_); }

  // Value right after a take that left `aside`: stop, or roll on if dice are left.
  Rational AfterTakeValue(const Counts& aside) {
    Rational stop = Stop(aside);
    if (Left(aside) == 0) return stop;
    Rational roll = Roll(aside);
    return roll > stop ? roll : stop;
  }

  // Value of a roll showing `roll` at `aside` under optimal play.
  Rational OutcomeValue(const Counts& aside, const Counts& roll) {
    std::vector<int> takes = LegalTakes(aside, roll);
    if (takes.empty()) return Stop(WithTanks(aside, roll));
    Rational best;
    bool first = true;
    for (int face : takes) {
      Rational v = AfterTakeValue(AfterTake(aside, roll, face));
      if (first || v > best) best = v;
      first = false;
    }
    return best;
  }

  // Expected value of rolling every die left at `aside` (which must have dice left).
  Rational Roll(const Counts& aside) {
    int key = Key(aside);
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second;
    int n = Left(aside);
    Rational sum = 0;
    for (const auto& [roll, ways] : OrderedOutcomes(n)) {
      sum += Rational(static_cast<long long>(ways)) * OutcomeValue(aside, roll);
    }
    sum /= Rational(static_cast<long long>(Pow6(n)));
    memo_.emplace(key, sum);
    return sum;
  }

 private:
  int dice_;
  int bonus_;
  Utility utility_;
  std::unordered_map<int, Rational> memo_;
};

// The reachable decision positions and scored set-asides, by the reference's own search.
struct ReferenceSpace {
  std::vector<Counts> positions;  // start first
  std::set<Counts> position_set;
  std::set<Counts> terminals;
  std::int64_t roll_pairs = 0;
};

ReferenceSpace ExploreReference(int dice) {
  ReferenceSpace space;
  Counts start{};
  space.positions.push_back(start);
  space.position_set.insert(start);
  for (size_t i = 0; i < space.positions.size(); ++i) {
    Counts aside = space.positions[i];
    int left = dice - Total(aside);
    if (left == 0) continue;
    const auto& outcomes = OrderedOutcomes(left);
    space.roll_pairs += static_cast<std::int64_t>(outcomes.size());
    for (const auto& [roll, ways] : outcomes) {
      std::vector<int> takes = LegalTakes(aside, roll);
      if (takes.empty()) {
        space.terminals.insert(WithTanks(aside, roll));
        continue;
      }
      for (int face : takes) {
        Counts after = AfterTake(aside, roll, face);
        space.terminals.insert(after);
        if (space.position_set.insert(after).second) space.positions.push_back(after);
      }
    }
  }
  return space;
}

Counts Canonical(Counts c) {
  std::sort(c.begin() + 2, c.end());
  return c;
}

// Reports at most a few failures of a long comparison, and counts all of them.
class Mismatches {
 public:
  void Expect(bool ok, const std::string& what) {
    ++checked_;
    if (ok) return;
    if (++failed_ <= 8) FAIL_CHECK(what);
  }
  int checked() const { return checked_; }
  int failed() const { return failed_; }

 private:
  int checked_ = 0;
  int failed_ = 0;
};

bool Near(double approx, const Rational& exact) {
  double e = exact.convert_to<double>();
  return std::abs(approx - e) <= 1e-12 * std::max(1.0, std::abs(e));
}

Then Decide(const Rational& stop, const Rational& roll) {
  if (stop > roll) return Then::kStop;
  if (roll > stop) return Then::kRoll;
  return Then::kEither;
}

std::string Str(const Rational& r) {
  std::ostringstream out;
  out << r;
  return out.str();
}

struct NamedObjective {
  Objective objective;
  Utility utility;
};

std::vector<NamedObjective> ObjectivesFor(int max_score) {
  std::vector<NamedObjective> out;
  out.push_back({Objective::ExpectedScore(), [](int s) { return Rational(s); }});
  for (int k : {0, 1, 2, 3, 5, 8}) {
    out.push_back({Objective::ReachAtLeast(k), [k](int s) { return Rational(s >= k ? 1 : 0); }});
  }
  for (int m : {0, 1, 3, 6}) {
    out.push_back({Objective::Capped(m), [m](int s) { return Rational(std::min(s, m)); }});
  }
  // The final round's: 1 past the leader, 1/(k+1) level with k leaders.
  for (auto [m, k] : {std::pair{1, 1}, std::pair{3, 2}, std::pair{5, 1}}) {
    out.push_back({Objective::FinalRound(m, k), [m, k](int s) {
                     return s >= m ? Rational(1) : s == m - 1 ? Rational(1, k + 1) : Rational(0);
                   }});
  }
  // Square of the score, table long enough for every score.
  std::vector<Rational> squares;
  for (int s = 0; s <= max_score; ++s) squares.push_back(Rational(s * s));
  auto square = Objective::Custom("square", squares);
  REQUIRE(square.ok());
  out.push_back({*square, [](int s) { return Rational(s * s); }});
  // Non-monotone, negative and fractional utilities; a short table so that higher scores
  // take the last entry.
  std::vector<Rational> odd = {Rational(3), Rational(-1), Rational(5, 2),
                               Rational(0), Rational(7),  Rational(-2, 3)};
  auto weird = Objective::Custom("weird", odd);
  REQUIRE(weird.ok());
  out.push_back(
      {*weird, [odd](int s) { return s < static_cast<int>(odd.size()) ? odd[s] : odd.back(); }});
  return out;
}

// Compares every reachable position's stop/roll values with the reference; optionally also
// every take from every roll outcome at every position.
void CompareSolution(const Rules& rules, const NamedObjective& named, bool check_rolls,
                     Mismatches& mismatches) {
  auto solution = TurnSolution::Solve(rules, named.objective, Precision::kExact);
  REQUIRE(solution.ok());
  BruteForce bf(rules.dice, rules.bonus, named.utility);
  ReferenceSpace space = ExploreReference(rules.dice);
  const std::string where_rules = "dice=" + std::to_string(rules.dice) +
                                  " bonus=" + std::to_string(rules.bonus) +
                                  " objective=" + named.objective.name();
  for (const Counts& aside : space.positions) {
    const std::string where = where_rules + " aside=" + Show(aside);
    auto eval = martiandice::EvaluatePosition(*solution, ToDice(aside));
    mismatches.Expect(eval.ok(), where + ": EvaluatePosition failed");
    if (!eval.ok()) continue;
    const bool start = Total(aside) == 0;
    const int left = bf.Left(aside);
    mismatches.Expect(eval->dice_left == left, where + ": dice_left");
    mismatches.Expect(FromDice(eval->aside) == aside, where + ": aside echoed");
    std::optional<Rational> stop;
    std::optional<Rational> roll;
    if (!start) stop = bf.Stop(aside);
    if (left > 0) roll = bf.Roll(aside);
    mismatches.Expect(eval->stop.has_value() == stop.has_value(), where + ": stop presence");
    mismatches.Expect(eval->roll.has_value() == roll.has_value(), where + ": roll presence");
    if (stop && eval->stop) {
      mismatches.Expect(eval->stop->exact.has_value() && *eval->stop->exact == *stop,
                        where + ": stop value, expected " + Str(*stop));
      mismatches.Expect(Near(eval->stop->approx, *stop), where + ": stop approx");
    }
    if (roll && eval->roll) {
      mismatches.Expect(eval->roll->exact.has_value() && *eval->roll->exact == *roll,
                        where + ": roll value, expected " + Str(*roll) + " got " +
                            (eval->roll->exact ? Str(*eval->roll->exact) : "none"));
      mismatches.Expect(Near(eval->roll->approx, *roll), where + ": roll approx");
    }
    Rational value;
    Then action;
    if (!stop) {
      value = *roll;
      action = Then::kRoll;
    } else if (!roll) {
      value = *stop;
      action = Then::kStop;
    } else {
      value = std::max(*stop, *roll);
      action = Decide(*stop, *roll);
    }
    mismatches.Expect(eval->value.exact.has_value() && *eval->value.exact == value,
                      where + ": value, expected " + Str(value));
    mismatches.Expect(Near(eval->value.approx, value), where + ": value approx");
    mismatches.Expect(eval->action == action, where + ": action");

    if (!check_rolls || left == 0) continue;
    for (const auto& [roll_counts, ways] : OrderedOutcomes(left)) {
      const std::string at = where + " roll=" + Show(roll_counts);
      auto advice = martiandice::AdviseRoll(*solution, ToDice(aside), ToDice(roll_counts));
      mismatches.Expect(advice.ok(), at + ": AdviseRoll failed");
      if (!advice.ok()) continue;
      const Counts with_tanks = WithTanks(aside, roll_counts);
      mismatches.Expect(FromDice(advice->aside_after_tanks) == with_tanks,
                        at + ": aside_after_tanks");
      std::vector<int> takes = LegalTakes(aside, roll_counts);
      mismatches.Expect(advice->options.size() == takes.size(), at + ": number of options");
      mismatches.Expect(advice->turn_over == takes.empty(), at + ": turn_over");
      const Rational outcome_value = bf.OutcomeValue(aside, roll_counts);
      mismatches.Expect(advice->value.exact.has_value() && *advice->value.exact == outcome_value,
                        at + ": roll outcome value, expected " + Str(outcome_value));
      mismatches.Expect(Near(advice->value.approx, outcome_value), at + ": outcome approx");
      if (takes.empty()) {
        mismatches.Expect(advice->turn_over_score == bf.Score(with_tanks),
                          at + ": turn_over_score");
        mismatches.Expect(!advice->best.has_value(), at + ": best set on turn over");
        continue;
      }
      if (advice->options.size() != takes.size()) continue;
      std::optional<int> first_optimal;
      for (size_t i = 0; i < takes.size(); ++i) {
        const auto& option = advice->options[i];
        const std::string opt = at + " option#" + std::to_string(i);
        const Counts after = AfterTake(aside, roll_counts, takes[i]);
        mismatches.Expect(FaceIndex(option.take) == takes[i], opt + ": take face / order");
        mismatches.Expect(option.count == roll_counts[takes[i]], opt + ": count");
        mismatches.Expect(FromDice(option.aside_after) == after, opt + ": aside_after");
        const Rational stop_value = bf.Stop(after);
        mismatches.Expect(option.stop.exact.has_value() && *option.stop.exact == stop_value,
                          opt + ": stop value");
        const bool can_roll = bf.Left(after) > 0;
        mismatches.Expect(option.roll.has_value() == can_roll, opt + ": roll presence");
        Rational option_value = stop_value;
        Then then = Then::kStop;
        if (can_roll) {
          const Rational roll_value = bf.Roll(after);
          if (option.roll) {
            mismatches.Expect(option.roll->exact.has_value() && *option.roll->exact == roll_value,
                              opt + ": roll value");
            mismatches.Expect(Near(option.roll->approx, roll_value), opt + ": roll approx");
          }
          option_value = std::max(stop_value, roll_value);
          then = Decide(stop_value, roll_value);
        }
        mismatches.Expect(option.value.exact.has_value() && *option.value.exact == option_value,
                          opt + ": option value");
        mismatches.Expect(option.then == then, opt + ": then");
        const bool optimal = option_value == outcome_value;
        mismatches.Expect(option.optimal == optimal, opt + ": optimal flag");
        if (optimal && !first_optimal) first_optimal = static_cast<int>(i);
      }
      mismatches.Expect(advice->best == first_optimal, at + ": best index");
    }
  }
}

TEST_CASE("brute force: RollDistribution groups the 6^m ordered outcomes") {
  for (int m = 0; m <= 6; ++m) {
    CAPTURE(m);
    CHECK(martiandice::PowerOfSix(m) == Pow6(m));
    const auto& reference = OrderedOutcomes(m);
    auto dist = martiandice::RollDistribution(m);
    std::map<Counts, std::uint64_t> got;
    std::uint64_t sum = 0;
    for (const auto& outcome : dist) {
      CHECK(outcome.faces.total() == m);
      CHECK(outcome.weight > 0);
      CHECK(got.count(FromDice(outcome.faces)) == 0);  // each outcome listed once
      got[FromDice(outcome.faces)] = outcome.weight;
      sum += outcome.weight;
    }
    CHECK(sum == martiandice::PowerOfSix(m));
    CHECK(got == reference);
  }
  // 6^m for larger m by the reference's own arithmetic.
  for (int m = 7; m <= 20; ++m) CHECK(martiandice::PowerOfSix(m) == Pow6(m));
  // Weights of a larger roll still sum to 6^m, and the count of outcomes is C(m+4, 4).
  auto thirteen = martiandice::RollDistribution(13);
  std::uint64_t sum = 0;
  for (const auto& o : thirteen) sum += o.weight;
  CHECK(sum == Pow6(13));
  CHECK(thirteen.size() == 2380u);  // C(17, 4)
}

TEST_CASE("brute force: TurnScore matches the reference scoring") {
  for (int bonus : {0, 3, 5}) {
    Rules rules;
    rules.bonus = bonus;
    for (int t = 0; t <= 4; ++t)
      for (int r = 0; r <= 4; ++r)
        for (int h = 0; h <= 3; ++h)
          for (int c = 0; c <= 3; ++c)
            for (int k = 0; k <= 3; ++k) {
              Counts aside = {t, r, h, c, k};
              CAPTURE(Show(aside));
              CHECK(martiandice::TurnScore(rules, ToDice(aside)) == ReferenceScore(aside, bonus));
            }
  }
}

TEST_CASE("brute force: reachable positions and state-space stats") {
  for (int dice = 1; dice <= 8; ++dice) {
    CAPTURE(dice);
    Rules rules;
    rules.dice = dice;
    ReferenceSpace space = ExploreReference(dice);
    auto positions = martiandice::ReachablePositions(rules);
    REQUIRE(positions.ok());
    REQUIRE(!positions->empty());
    CHECK(positions->front().empty());  // start first
    std::set<Counts> got;
    for (const Dice& d : *positions) {
      CHECK(got.insert(FromDice(d)).second);  // no duplicates
    }
    CHECK(got == space.position_set);

    auto stats = martiandice::ComputeStateSpaceStats(rules);
    REQUIRE(stats.ok());
    std::set<Counts> canonical;
    for (const Counts& c : space.positions) canonical.insert(Canonical(c));
    CHECK(stats->positions == static_cast<std::int64_t>(space.positions.size()));
    CHECK(stats->canonical_positions == static_cast<std::int64_t>(canonical.size()));
    CHECK(stats->terminal_positions == static_cast<std::int64_t>(space.terminals.size()));
    CHECK(stats->roll_pairs == space.roll_pairs);

    // ValidateAside accepts exactly the reachable positions (among set-asides that fit).
    int accepted = 0;
    for (int t = 0; t <= dice; ++t)
      for (int r = 0; t + r <= dice; ++r)
        for (int h = 0; t + r + h <= dice; ++h)
          for (int c = 0; t + r + h + c <= dice; ++c)
            for (int k = 0; t + r + h + c + k <= dice; ++k) {
              Counts aside = {t, r, h, c, k};
              CAPTURE(Show(aside));
              const bool reachable = space.position_set.count(aside) > 0;
              CHECK(martiandice::ValidateAside(rules, ToDice(aside)).ok() == reachable);
              accepted += reachable ? 1 : 0;
            }
    CHECK(accepted == static_cast<int>(space.positions.size()));
    // Too many dice.
    CHECK(!martiandice::ValidateAside(rules, Dice(0, dice + 1, 0, 0, 0)).ok());

    // The highest score over every set-aside a turn can end with.
    for (int bonus : {0, 3, 5}) {
      Rules with_bonus = rules;
      with_bonus.bonus = bonus;
      int best = 0;
      for (const Counts& c : space.terminals) best = std::max(best, ReferenceScore(c, bonus));
      CAPTURE(bonus);
      CHECK(martiandice::MaxTurnScore(with_bonus) == best);
    }
  }
}

TEST_CASE("brute force: ValidateRoll checks the number of dice rolled") {
  Rules rules;
  rules.dice = 4;
  ReferenceSpace space = ExploreReference(4);
  for (const Counts& aside : space.positions) {
    const int left = 4 - Total(aside);
    CAPTURE(Show(aside));
    for (int n = 0; n <= 5; ++n) {
      const Counts roll = {0, n, 0, 0, 0};  // n rays
      CHECK(martiandice::ValidateRoll(rules, ToDice(aside), ToDice(roll)).ok() ==
            (left > 0 && n == left));
    }
  }
}

TEST_CASE("brute force: exact values of every reachable position, dice 1..6") {
  Mismatches mismatches;
  for (int dice = 1; dice <= 6; ++dice) {
    for (int bonus : {0, 3, 5}) {
      Rules rules;
      rules.dice = dice;
      rules.bonus = bonus;
      for (const NamedObjective& named : ObjectivesFor(dice + bonus)) {
        CompareSolution(rules, named, /*check_rolls=*/false, mismatches);
      }
    }
  }
  MESSAGE("position comparisons: " << mismatches.checked());
  CHECK(mismatches.checked() > 10000);
  CHECK(mismatches.failed() == 0);
}

TEST_CASE("brute force: AdviseRoll on every roll outcome of every position") {
  Mismatches mismatches;
  for (int dice = 1; dice <= 6; ++dice) {
    for (int bonus : {0, 3}) {
      Rules rules;
      rules.dice = dice;
      rules.bonus = bonus;
      std::vector<NamedObjective> all = ObjectivesFor(dice + bonus);
      // ev, reach:3, capped:3, and the non-monotone custom utility.
      for (int index : {0, 4, 9, 12}) {
        CompareSolution(rules, all[index], /*check_rolls=*/true, mismatches);
      }
    }
  }
  MESSAGE("roll comparisons: " << mismatches.checked());
  CHECK(mismatches.checked() > 10000);
  CHECK(mismatches.failed() == 0);
}

TEST_CASE("brute force: start value with 7 and 8 dice, expected score") {
  for (int dice : {7, 8}) {
    Rules rules;
    rules.dice = dice;
    auto solution = TurnSolution::Solve(rules, Objective::ExpectedScore(), Precision::kExact);
    REQUIRE(solution.ok());
    BruteForce bf(dice, rules.bonus, [](int s) { return Rational(s); });
    auto eval = martiandice::EvaluatePosition(*solution, Dice());
    REQUIRE(eval.ok());
    REQUIRE(eval->value.exact.has_value());
    CAPTURE(dice);
    CHECK(*eval->value.exact == bf.Roll(Counts{}));
    CHECK(solution->StartValue() == doctest::Approx(bf.Roll(Counts{}).convert_to<double>()));
  }
}

}  // namespace
