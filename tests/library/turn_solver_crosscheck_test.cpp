// Official-rules cross-checks of the solver: double against exact, relabelling symmetry of
// the earthling types, and order relations between the objectives' values.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "martiandice/dice.h"
#include "martiandice/exact.h"
#include "martiandice/objective.h"
#include "martiandice/turn_query.h"
#include "martiandice/rules.h"
#include "martiandice/turn_solver.h"
#include "martiandice/state_space.h"

namespace {

using martiandice::Dice;
using martiandice::Face;
using martiandice::Objective;
using martiandice::PositionEval;
using martiandice::Precision;
using martiandice::Rational;
using martiandice::RollAdvice;
using martiandice::Rules;
using martiandice::Then;
using martiandice::TurnSolution;

constexpr double kTolerance = 1e-12;
// Exact values closer than this (relative) may be reported either way by the double solver:
// its tie tolerance is 1e-12, and a little is left for its own rounding.
constexpr double kTieBand = 2e-12;

const std::vector<Dice>& Positions() {
  static const std::vector<Dice> positions = [] {
    auto p = martiandice::ReachablePositions(Rules());
    REQUIRE(p.ok());
    return *p;
  }();
  return positions;
}

struct Pair {
  TurnSolution exact;
  TurnSolution approx;
};

// Both solutions of the official turn for `objective`, solved once.
const Pair& Solutions(const Objective& objective) {
  static std::map<std::string, Pair> cache;
  auto it = cache.find(objective.name());
  if (it != cache.end()) return it->second;
  auto exact = TurnSolution::Solve(Rules(), objective, Precision::kExact);
  auto approx = TurnSolution::Solve(Rules(), objective, Precision::kDouble);
  REQUIRE(exact.ok());
  REQUIRE(approx.ok());
  return cache.emplace(objective.name(), Pair{*exact, *approx}).first->second;
}

std::vector<Objective> AllObjectives() {
  std::vector<Objective> out = {Objective::ExpectedScore()};
  for (int k = 1; k <= 16; ++k) out.push_back(Objective::ReachAtLeast(k));
  for (int m : {2, 5, 10, 16}) out.push_back(Objective::Capped(m));
  for (int m : {4, 12, 17}) out.push_back(Objective::FinalRound(m, m % 3 + 1));
  return out;
}

std::string Show(const Dice& d) { return martiandice::FormatDice(d); }

std::string Str(const Rational& r) {
  std::ostringstream out;
  out << r;
  return out.str();
}

double ToDouble(const Rational& r) { return r.convert_to<double>(); }

bool Near(double approx, const Rational& exact) {
  const double e = ToDouble(exact);
  return std::abs(approx - e) <= kTolerance * std::abs(e);
}

// True when two exact values are far enough apart that the double solver must order them
// as the exact one does.
bool Separated(const Rational& a, const Rational& b) {
  const double da = ToDouble(a);
  const double db = ToDouble(b);
  const double scale = std::max({1.0, std::abs(da), std::abs(db)});
  return std::abs(ToDouble(Rational(a - b))) >= kTieBand * scale;
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

PositionEval Eval(const TurnSolution& solution, const Dice& aside) {
  auto eval = martiandice::EvaluatePosition(solution, aside);
  REQUIRE_MESSAGE(eval.ok(), Show(aside));
  return *eval;
}

RollAdvice Advise(const TurnSolution& solution, const Dice& aside, const Dice& roll) {
  auto advice = martiandice::AdviseRoll(solution, aside, roll);
  REQUIRE_MESSAGE(advice.ok(), (Show(aside) + " / " + Show(roll)));
  return *advice;
}

Dice RandomRoll(int n, std::mt19937_64& rng) {
  static constexpr std::array<Face, 6> kSides = {Face::kTank,  Face::kRay, Face::kRay,
                                                 Face::kHuman, Face::kCow, Face::kChicken};
  Dice roll;
  for (int i = 0; i < n; ++i) roll.add(kSides[rng() % 6], 1);
  return roll;
}

// Compares the double advice for a roll with the exact one.
void CompareAdvice(const RollAdvice& exact, const RollAdvice& approx, const std::string& where,
                   Mismatches& mismatches) {
  mismatches.Expect(exact.options.size() == approx.options.size(), where + ": option count");
  mismatches.Expect(exact.turn_over == approx.turn_over, where + ": turn_over");
  mismatches.Expect(Near(approx.value.approx, *exact.value.exact), where + ": roll value");
  if (exact.options.size() != approx.options.size()) return;
  const Rational& best = *exact.value.exact;
  for (size_t i = 0; i < exact.options.size(); ++i) {
    const auto& e = exact.options[i];
    const auto& a = approx.options[i];
    const std::string opt = where + " take " + martiandice::FaceLetter(e.take);
    mismatches.Expect(e.take == a.take && e.aside_after == a.aside_after, opt + ": same take");
    mismatches.Expect(Near(a.value.approx, *e.value.exact), opt + ": value");
    mismatches.Expect(Near(a.stop.approx, *e.stop.exact), opt + ": stop");
    mismatches.Expect(e.roll.has_value() == a.roll.has_value(), opt + ": roll presence");
    if (e.roll && a.roll) mismatches.Expect(Near(a.roll->approx, *e.roll->exact), opt + ": roll");
    // Optimal sets agree unless the exact values are within the tie band.
    if (e.optimal) {
      mismatches.Expect(a.optimal, opt + ": exact-optimal take not optimal in double");
    } else if (Separated(*e.value.exact, best)) {
      mismatches.Expect(!a.optimal, opt + ": suboptimal take reported optimal in double");
    }
    if (e.roll) {
      const Rational& s = *e.stop.exact;
      const Rational& r = *e.roll->exact;
      if (s == r) {
        mismatches.Expect(a.then == Then::kEither, opt + ": exact tie not reported as either");
      } else if (Separated(s, r)) {
        mismatches.Expect(a.then == e.then, opt + ": then differs");
      }
    } else {
      mismatches.Expect(a.then == Then::kStop && e.then == Then::kStop, opt + ": then stop");
    }
  }
}

TEST_CASE("turn solver: a precision that is neither is refused") {
  const auto solved = martiandice::TurnSolution::Solve(
      Rules(), martiandice::Objective::ExpectedScore(), static_cast<Precision>(7));
  CHECK(solved.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(solved.status().message()) == "precision: 7 is neither kDouble nor kExact");
}

TEST_CASE("crosscheck: double values agree with exact values at every position") {
  const auto& positions = Positions();
  REQUIRE(positions.size() > 1000);
  Mismatches mismatches;
  for (const Objective& objective : AllObjectives()) {
    const Pair& pair = Solutions(objective);
    CHECK(pair.exact.precision() == Precision::kExact);
    CHECK(pair.approx.precision() == Precision::kDouble);
    for (const Dice& aside : positions) {
      const std::string where = objective.name() + " at " + Show(aside);
      const PositionEval e = Eval(pair.exact, aside);
      const PositionEval a = Eval(pair.approx, aside);
      mismatches.Expect(e.value.exact.has_value(), where + ": exact value missing");
      mismatches.Expect(!a.value.exact.has_value(), where + ": double solution has exact value");
      if (!e.value.exact) continue;
      mismatches.Expect(
          Near(a.value.approx, *e.value.exact),
          where + ": value " + std::to_string(a.value.approx) + " vs " + Str(*e.value.exact));
      mismatches.Expect(Near(e.value.approx, *e.value.exact), where + ": exact's approx");
      mismatches.Expect(e.stop.has_value() == a.stop.has_value(), where + ": stop presence");
      mismatches.Expect(e.roll.has_value() == a.roll.has_value(), where + ": roll presence");
      if (e.stop && a.stop)
        mismatches.Expect(Near(a.stop->approx, *e.stop->exact), where + ": stop");
      if (e.roll && a.roll)
        mismatches.Expect(Near(a.roll->approx, *e.roll->exact), where + ": roll");
      if (e.stop && e.roll && a.stop && a.roll) {
        const Rational& s = *e.stop->exact;
        const Rational& r = *e.roll->exact;
        if (s == r) {
          mismatches.Expect(a.action == Then::kEither, where + ": exact tie not either");
        } else if (Separated(s, r)) {
          mismatches.Expect(a.action == e.action, where + ": action differs");
        }
      } else {
        mismatches.Expect(a.action == e.action, where + ": forced action differs");
      }
    }
    CHECK(pair.approx.StartValue() == doctest::Approx(pair.exact.StartValue()).epsilon(1e-12));
  }
  MESSAGE("comparisons: " << mismatches.checked());
  CHECK(mismatches.failed() == 0);
}

TEST_CASE("crosscheck: double optimal takes agree with exact ones") {
  const auto& positions = Positions();
  Mismatches mismatches;
  std::mt19937_64 rng(20240611);
  int compared = 0;
  for (const Objective& objective : AllObjectives()) {
    const Pair& pair = Solutions(objective);
    const bool all_rolls = objective.name() == "ev" || objective.name() == "reach:10";
    for (const Dice& aside : positions) {
      const int left = Rules().dice - aside.total();
      if (left == 0) continue;
      if (all_rolls && left <= 6) {
        // Every distinct roll of the dice left.
        for (const auto& outcome : martiandice::RollDistribution(left)) {
          const std::string where =
              objective.name() + " at " + Show(aside) + " roll " + Show(outcome.faces);
          CompareAdvice(Advise(pair.exact, aside, outcome.faces),
                        Advise(pair.approx, aside, outcome.faces), where, mismatches);
          ++compared;
        }
      } else {
        // A couple of random rolls.
        for (int i = 0; i < 2; ++i) {
          const Dice roll = RandomRoll(left, rng);
          const std::string where = objective.name() + " at " + Show(aside) + " roll " + Show(roll);
          CompareAdvice(Advise(pair.exact, aside, roll), Advise(pair.approx, aside, roll), where,
                        mismatches);
          ++compared;
        }
      }
    }
  }
  MESSAGE("rolls compared: " << compared);
  CHECK(compared > 10000);
  CHECK(mismatches.failed() == 0);
}

// Relabels the earthling types: human -> kEarthlings[perm[0]], cow -> ..., chicken -> ...
Dice Relabel(const Dice& d, const std::array<int, 3>& perm) {
  Dice out(d.count(Face::kTank), d.count(Face::kRay), 0, 0, 0);
  for (int i = 0; i < 3; ++i) {
    out.set(martiandice::kEarthlings[perm[i]], d.count(martiandice::kEarthlings[i]));
  }
  return out;
}

Face RelabelFace(Face f, const std::array<int, 3>& perm) {
  if (!martiandice::IsEarthling(f)) return f;
  return martiandice::kEarthlings[perm[static_cast<int>(f) - static_cast<int>(Face::kHuman)]];
}

std::vector<std::array<int, 3>> Permutations() {
  std::vector<std::array<int, 3>> out;
  std::array<int, 3> p = {0, 1, 2};
  do out.push_back(p);
  while (std::next_permutation(p.begin(), p.end()));
  return out;
}

TEST_CASE("crosscheck: relabelling earthling types changes nothing") {
  const auto& positions = Positions();
  const auto perms = Permutations();
  REQUIRE(perms.size() == 6);
  Mismatches mismatches;
  std::mt19937_64 rng(77);
  for (const Objective& objective : {Objective::ExpectedScore(), Objective::ReachAtLeast(10)}) {
    const TurnSolution& exact = Solutions(objective).exact;
    for (const Dice& aside : positions) {
      const PositionEval base = Eval(exact, aside);
      for (const auto& perm : perms) {
        const Dice moved = Relabel(aside, perm);
        const std::string where = objective.name() + " at " + Show(aside) + " as " + Show(moved);
        const PositionEval other = Eval(exact, moved);
        mismatches.Expect(other.value.exact == base.value.exact, where + ": value");
        mismatches.Expect(other.stop.has_value() == base.stop.has_value() &&
                              (!base.stop || other.stop->exact == base.stop->exact),
                          where + ": stop");
        mismatches.Expect(other.roll.has_value() == base.roll.has_value() &&
                              (!base.roll || other.roll->exact == base.roll->exact),
                          where + ": roll");
        mismatches.Expect(other.action == base.action, where + ": action");
      }
      // A random roll at this position, relabelled the same way.
      const int left = Rules().dice - aside.total();
      if (left == 0) continue;
      const Dice roll = RandomRoll(left, rng);
      const RollAdvice advice = Advise(exact, aside, roll);
      for (const auto& perm : perms) {
        const std::string where =
            objective.name() + " at " + Show(aside) + " roll " + Show(roll) + " relabelled";
        const RollAdvice other = Advise(exact, Relabel(aside, perm), Relabel(roll, perm));
        mismatches.Expect(other.value.exact == advice.value.exact, where + ": roll value");
        mismatches.Expect(other.turn_over == advice.turn_over, where + ": turn_over");
        mismatches.Expect(other.options.size() == advice.options.size(), where + ": options");
        for (const auto& option : advice.options) {
          const Face target = RelabelFace(option.take, perm);
          const martiandice::TakeOption* match = nullptr;
          for (const auto& o : other.options) {
            if (o.take == target) match = &o;
          }
          mismatches.Expect(match != nullptr, where + ": relabelled take missing");
          if (match == nullptr) continue;
          mismatches.Expect(match->count == option.count, where + ": count");
          mismatches.Expect(match->aside_after == Relabel(option.aside_after, perm),
                            where + ": aside_after");
          mismatches.Expect(match->value.exact == option.value.exact, where + ": option value");
          mismatches.Expect(match->optimal == option.optimal, where + ": optimal flag");
          mismatches.Expect(match->then == option.then, where + ": then");
        }
      }
    }
  }
  CHECK(mismatches.checked() > 10000);
  CHECK(mismatches.failed() == 0);
}

std::vector<Rational> ExactValues(const Objective& objective) {
  const TurnSolution& exact = Solutions(objective).exact;
  std::vector<Rational> values;
  for (const Dice& aside : Positions()) {
    const PositionEval eval = Eval(exact, aside);
    REQUIRE(eval.value.exact.has_value());
    // The value is the better of the offered stop and roll.
    if (eval.stop) REQUIRE(*eval.value.exact >= *eval.stop->exact);
    if (eval.roll) REQUIRE(*eval.value.exact >= *eval.roll->exact);
    values.push_back(*eval.value.exact);
  }
  return values;
}

TEST_CASE("crosscheck: order relations between objectives at every position") {
  const auto& positions = Positions();
  const int max_score = martiandice::MaxTurnScore(Rules());
  REQUIRE(max_score == 16);
  const std::vector<Rational> ev = ExactValues(Objective::ExpectedScore());
  std::vector<std::vector<Rational>> reach;  // reach[k] for k = 0..17
  for (int k = 0; k <= max_score + 1; ++k) reach.push_back(ExactValues(Objective::ReachAtLeast(k)));
  std::map<int, std::vector<Rational>> capped;
  for (int m : {1, 2, 5, 10, 15, 16, 20}) capped[m] = ExactValues(Objective::Capped(m));

  Mismatches mismatches;
  for (size_t i = 0; i < positions.size(); ++i) {
    const std::string where = Show(positions[i]);
    mismatches.Expect(reach[0][i] == 1, where + ": reach:0 is certain");
    mismatches.Expect(reach[max_score + 1][i] == 0, where + ": reach past the maximum");
    Rational sum = 0;
    for (int k = 1; k <= max_score; ++k) {
      const std::string at = where + " k=" + std::to_string(k);
      mismatches.Expect(reach[k][i] >= 0 && reach[k][i] <= 1, at + ": probability in [0, 1]");
      // Any policy has P(>= k+1) <= P(>= k), so the optima are ordered the same way.
      mismatches.Expect(reach[k][i] <= reach[k - 1][i], at + ": reach non-increasing in k");
      // score >= k * [score >= k] under the reach:k-optimal policy, which ev can use.
      mismatches.Expect(ev[i] >= k * reach[k][i], at + ": ev >= k * reach:k");
      sum += reach[k][i];
    }
    // E[score] = sum_k P(score >= k) for the ev-optimal policy, each term <= reach:k.
    mismatches.Expect(ev[i] <= sum, where + ": ev <= sum of reach:k");
    // min(s, 1) = [s >= 1].
    mismatches.Expect(capped[1][i] == reach[1][i], where + ": capped:1 == reach:1");
    Rational previous = 0;
    for (const auto& [m, values] : capped) {
      const std::string at = where + " m=" + std::to_string(m);
      mismatches.Expect(values[i] >= previous, at + ": capped non-decreasing in m");
      mismatches.Expect(values[i] <= ev[i], at + ": capped <= ev");
      if (m >= max_score) mismatches.Expect(values[i] == ev[i], at + ": capped == ev past max");
      if (m <= max_score) {
        Rational partial = 0;
        for (int k = 1; k <= m; ++k) partial += reach[k][i];
        // min(s, m) = sum_{k<=m} [s >= k] and min(s, m) >= m [s >= m].
        mismatches.Expect(values[i] <= partial, at + ": capped <= partial reach sum");
        mismatches.Expect(values[i] >= m * reach[m][i], at + ": capped >= m * reach:m");
      }
      previous = values[i];
    }
  }
  // At the start: a fresh turn can reach every score from 1 to 16 with positive probability.
  for (int k = 1; k <= max_score; ++k) {
    CAPTURE(k);
    CHECK(reach[k][0] > 0);
    CHECK(reach[k][0] < 1);
  }
  CHECK(positions[0].empty());
  CHECK(ev[0] > 0);
  MESSAGE("ev start value " << ev[0].convert_to<double>() << " = " << Str(ev[0]));
  CHECK(mismatches.checked() > 10000);
  CHECK(mismatches.failed() == 0);
}

}  // namespace
