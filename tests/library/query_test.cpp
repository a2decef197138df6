// Queries: stop/roll decisions, take rankings, ties and the turn-over case.
#include "martiandice/turn_query.h"

#include <doctest/doctest.h>

using namespace martiandice;

namespace {
TurnSolution SolveOrDie(Objective objective, Precision precision, Rules rules = Rules{}) {
  auto solution = TurnSolution::Solve(rules, objective, precision);
  REQUIRE(solution.ok());
  return *solution;
}
}  // namespace

TEST_CASE("query: a fresh turn can only roll") {
  for (Precision p : {Precision::kDouble, Precision::kExact}) {
    TurnSolution s = SolveOrDie(Objective::ExpectedScore(), p);
    auto eval = EvaluatePosition(s, Dice());
    REQUIRE(eval.ok());
    CHECK_FALSE(eval->stop.has_value());
    REQUIRE(eval->roll.has_value());
    CHECK(eval->action == Then::kRoll);
    CHECK(eval->dice_left == 13);
    CHECK(eval->value.approx == s.StartValue());
    CHECK(eval->value.exact.has_value() == (p == Precision::kExact));
  }
}

// A value is an expectation of utilities: rounding may not take it out of
// their range (reach:0 is certain: its double solve gives 1 + 4e-16 raw).
TEST_CASE("query: values stay within the utilities' range") {
  const TurnSolution certain = SolveOrDie(Objective::ReachAtLeast(0), Precision::kDouble);
  CHECK(certain.StartValue() == 1.0);
  auto eval = EvaluatePosition(certain, Dice());
  REQUIRE(eval.ok());
  CHECK(eval->value.approx == 1.0);
  CHECK(eval->roll->approx == 1.0);
  for (int k = 1; k <= 20; ++k) {
    const TurnSolution reach = SolveOrDie(Objective::ReachAtLeast(k), Precision::kDouble);
    CAPTURE(k);
    CHECK(reach.StartValue() >= 0.0);
    CHECK(reach.StartValue() <= 1.0);
  }
}

TEST_CASE("query: with no dice left the only action is to stop") {
  TurnSolution s = SolveOrDie(Objective::ExpectedScore(), Precision::kExact);
  auto eval = EvaluatePosition(s, Dice(3, 5, 5, 0, 0));
  REQUIRE(eval.ok());
  CHECK_FALSE(eval->roll.has_value());
  CHECK(eval->action == Then::kStop);
  CHECK(*eval->value.exact == 5);
}

TEST_CASE("query: symmetric earthling takes are reported as tied optima") {
  for (Precision p : {Precision::kDouble, Precision::kExact}) {
    TurnSolution s = SolveOrDie(Objective::ExpectedScore(), p);
    auto advice = AdviseRoll(s, Dice(), Dice(0, 0, 5, 5, 3));
    REQUIRE(advice.ok());
    REQUIRE(advice->options.size() == 3);
    CHECK(advice->options[0].take == Face::kHuman);
    CHECK(advice->options[0].optimal);
    CHECK(advice->options[1].optimal);
    CHECK_FALSE(advice->options[2].optimal);
    REQUIRE(advice->best.has_value());
    CHECK(*advice->best == 0);
  }
}

TEST_CASE("query: no legal take ends the turn and scores it") {
  TurnSolution s = SolveOrDie(Objective::ExpectedScore(), Precision::kExact);
  // Humans already taken, the roll shows tanks and humans only.
  auto advice = AdviseRoll(s, Dice(1, 2, 3, 0, 0), Dice(2, 0, 5, 0, 0));
  REQUIRE(advice.ok());
  CHECK(advice->turn_over);
  CHECK(advice->options.empty());
  CHECK_FALSE(advice->best.has_value());
  CHECK(advice->aside_after_tanks == Dice(3, 2, 3, 0, 0));
  CHECK(advice->turn_over_score == 0);  // 3 tanks beat 2 rays
  CHECK(*advice->value.exact == 0);
}

TEST_CASE("query: the stop value of a take is the utility of its score") {
  TurnSolution s = SolveOrDie(Objective::ExpectedScore(), Precision::kExact);
  auto advice = AdviseRoll(s, Dice(3, 2, 4, 0, 0), Dice(0, 0, 2, 1, 1));
  REQUIRE(advice.ok());
  REQUIRE(advice->options.size() == 2);  // humans already taken
  CHECK(advice->options[0].take == Face::kCow);
  CHECK(*advice->options[0].stop.exact == 0);  // 3 tanks, 2 rays: zero
  CHECK(advice->options[0].aside_after == Dice(3, 2, 4, 1, 0));
  for (const TakeOption& o : advice->options) {
    CHECK(o.value.approx >= o.stop.approx);
    if (o.roll) CHECK(o.value.approx >= o.roll->approx);
  }
}

TEST_CASE("query: invalid input is refused, not answered") {
  TurnSolution s = SolveOrDie(Objective::ExpectedScore(), Precision::kDouble);
  CHECK_FALSE(EvaluatePosition(s, Dice(2, 0, 0, 0, 0)).ok());
  CHECK_FALSE(EvaluatePosition(s, Dice(7, 7, 0, 0, 0)).ok());
  CHECK_FALSE(AdviseRoll(s, Dice(), Dice(1, 1, 1, 1, 1)).ok());
  CHECK_FALSE(AdviseRoll(s, Dice(3, 5, 5, 0, 0), Dice()).ok());
  CHECK_FALSE(TurnSolution::Solve(Rules{21, 3, 25}, Objective::ExpectedScore()).ok());
}

TEST_CASE("query: exact and double solutions agree on the fresh turn") {
  TurnSolution d = SolveOrDie(Objective::ExpectedScore(), Precision::kDouble);
  TurnSolution e = SolveOrDie(Objective::ExpectedScore(), Precision::kExact);
  auto exact = EvaluatePosition(e, Dice())->value.exact;
  REQUIRE(exact.has_value());
  CHECK(d.StartValue() == doctest::Approx(exact->convert_to<double>()).epsilon(1e-14));
}

TEST_CASE("query: a choice's review is its loss against the best choice") {
  // The rulebook's last roll: 3T 2R 4H 1K set aside, 1R 1H 1C rolled. The ray
  // then roll on is worth 281/54 (eval's README example), the ray then stop
  // 5; the cow then stop scores 0 (3 tanks, 2 rays), the cow then roll on
  // less than the best.
  TurnSolution s = SolveOrDie(Objective::ExpectedScore(), Precision::kExact);
  auto advice = AdviseRoll(s, Dice(3, 2, 4, 0, 1), Dice(0, 1, 1, 1, 0));
  REQUIRE(advice.ok());
  auto ray_roll = ReviewChoice(*advice, Face::kRay, Then::kRoll);
  REQUIRE(ray_roll.ok());
  CHECK(ray_roll->optimal);
  CHECK(*ray_roll->loss.exact == 0);
  CHECK(*ray_roll->value.exact == Rational(281, 54));
  auto ray_stop = ReviewChoice(*advice, Face::kRay, Then::kStop);
  REQUIRE(ray_stop.ok());
  CHECK_FALSE(ray_stop->optimal);
  CHECK(*ray_stop->value.exact == 5);
  CHECK(*ray_stop->best.exact == Rational(281, 54));
  CHECK(*ray_stop->loss.exact == Rational(11, 54));
  CHECK(ray_stop->loss.approx == doctest::Approx(11.0 / 54));
  auto cow_stop = ReviewChoice(*advice, Face::kCow, Then::kStop);
  REQUIRE(cow_stop.ok());
  CHECK(*cow_stop->value.exact == 0);
  CHECK(*cow_stop->loss.exact == Rational(281, 54));
  auto cow_roll = ReviewChoice(*advice, Face::kCow, Then::kRoll);
  REQUIRE(cow_roll.ok());
  CHECK(*cow_roll->loss.exact == Rational(281, 54) - *cow_roll->value.exact);
  CHECK(*cow_roll->value.exact < Rational(281, 54));

  // Errors: a take not offered, "either", rolling on with no dice left, a turn over.
  CHECK(ReviewChoice(*advice, Face::kHuman, Then::kRoll).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(ReviewChoice(*advice, Face::kTank, Then::kStop).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(ReviewChoice(*advice, Face::kRay, Then::kEither).status().code() ==
        absl::StatusCode::kInvalidArgument);
  // Numbers that are no face and no `then`, named.
  const absl::Status no_face = ReviewChoice(*advice, static_cast<Face>(100), Then::kStop).status();
  CHECK(no_face.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(no_face.message()) == "take: 100 is not a face (0 to 4)");
  const absl::Status no_then = ReviewChoice(*advice, Face::kRay, static_cast<Then>(9)).status();
  CHECK(no_then.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(no_then.message()) == "then: 9 is neither stop nor roll on");
  auto last = AdviseRoll(s, Dice(3, 3, 4, 0, 1), Dice(0, 0, 0, 2, 0));
  REQUIRE(last.ok());
  CHECK(ReviewChoice(*last, Face::kCow, Then::kStop)->optimal);
  CHECK(ReviewChoice(*last, Face::kCow, Then::kRoll).status().code() ==
        absl::StatusCode::kInvalidArgument);
  auto over = AdviseRoll(s, Dice(3, 3, 4, 0, 1), Dice(1, 0, 1, 0, 0));
  REQUIRE(over.ok());
  REQUIRE(over->turn_over);
  CHECK(ReviewChoice(*over, Face::kRay, Then::kStop).status().code() ==
        absl::StatusCode::kInvalidArgument);

  // Double precision: no exact values, the same losses.
  TurnSolution d = SolveOrDie(Objective::ExpectedScore(), Precision::kDouble);
  auto approx = AdviseRoll(d, Dice(3, 2, 4, 0, 1), Dice(0, 1, 1, 1, 0));
  REQUIRE(approx.ok());
  auto approx_stop = ReviewChoice(*approx, Face::kRay, Then::kStop);
  REQUIRE(approx_stop.ok());
  CHECK_FALSE(approx_stop->loss.exact.has_value());
  CHECK(approx_stop->loss.approx == doctest::Approx(11.0 / 54));
}
