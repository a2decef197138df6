// The rulebook's sample turn (docs/RULES.md) played through the API, and small positions whose
// exact values are worked out by hand in the comments.
#include <doctest/doctest.h>

#include <optional>
#include <string>

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
using martiandice::Precision;
using martiandice::Rational;
using martiandice::Rules;
using martiandice::Then;
using martiandice::TurnSolution;

Dice D(const char* text) {
  auto dice = martiandice::ParseDice(text);
  REQUIRE_MESSAGE(dice.ok(), text);
  return *dice;
}

TurnSolution SolveExact(const Rules& rules, const Objective& objective) {
  auto solution = TurnSolution::Solve(rules, objective, Precision::kExact);
  REQUIRE(solution.ok());
  return *solution;
}

// Exact stop and roll values at `aside` (unset when not offered).
struct Exact {
  std::optional<Rational> stop;
  std::optional<Rational> roll;
  Rational value;
  Then action;
};

Exact Evaluate(const TurnSolution& solution, const Dice& aside) {
  auto eval = martiandice::EvaluatePosition(solution, aside);
  REQUIRE(eval.ok());
  Exact out;
  if (eval->stop) {
    REQUIRE(eval->stop->exact.has_value());
    out.stop = *eval->stop->exact;
  }
  if (eval->roll) {
    REQUIRE(eval->roll->exact.has_value());
    out.roll = *eval->roll->exact;
  }
  REQUIRE(eval->value.exact.has_value());
  out.value = *eval->value.exact;
  out.action = eval->action;
  return out;
}

struct Step {
  const char* aside_before;
  const char* roll;
  Face take;
  const char* aside_after;
  int options;      // legal takes the roll offers
  bool then_rolls;  // the player rolled again after this take
};

TEST_CASE("sample turn: the rulebook's turn through the API") {
  const Rules rules;  // official
  const TurnSolution ev = SolveExact(rules, Objective::ExpectedScore());
  const Step steps[] = {
      // Roll 1: everything legal (R, H, C, K shown, nothing taken yet).
      {"-", "2T 3R 4H 3C 1K", Face::kHuman, "2T 4H", 4, true},
      // Roll 2: R, C, K shown; Humans were not rolled.
      {"2T 4H", "1T 2R 3C 1K", Face::kRay, "3T 2R 4H", 3, true},
      // Roll 3: no rays; Humans already taken, so only Cow or Chicken.
      {"3T 2R 4H", "2H 1C 1K", Face::kChicken, "3T 2R 4H 1K", 2, true},
      // Roll 4: Ray or Cow (Humans taken); the player takes the Ray and stops.
      {"3T 2R 4H 1K", "1R 1H 1C", Face::kRay, "3T 3R 4H 1K", 2, false},
  };
  const int rolled[] = {13, 7, 4, 3};
  int index = 0;
  for (const Step& step : steps) {
    CAPTURE(step.roll);
    const Dice aside = D(step.aside_before);
    const Dice roll = D(step.roll);
    CHECK(roll.total() == rolled[index]);
    CHECK(aside.total() + roll.total() == rules.dice);
    CHECK(martiandice::ValidateAside(rules, aside).ok());
    CHECK(martiandice::ValidateRoll(rules, aside, roll).ok());
    auto advice = martiandice::AdviseRoll(ev, aside, roll);
    REQUIRE(advice.ok());
    CHECK(!advice->turn_over);
    CHECK(advice->aside_after_tanks == aside + Dice(roll.count(Face::kTank), 0, 0, 0, 0));
    CHECK(static_cast<int>(advice->options.size()) == step.options);
    // Humans can never be taken after roll 1 in this turn.
    if (index > 0) {
      for (const auto& option : advice->options) CHECK(option.take != Face::kHuman);
    }
    const martiandice::TakeOption* chosen = nullptr;
    for (const auto& option : advice->options) {
      if (option.take == step.take) chosen = &option;
    }
    REQUIRE(chosen != nullptr);
    CHECK(chosen->aside_after == D(step.aside_after));
    CHECK(chosen->count == roll.count(step.take));
    // The player's follow-up (roll on / stop) compared with the optimal one.
    const bool then_ok =
        step.then_rolls ? chosen->then != Then::kStop : chosen->then != Then::kRoll;
    const std::string report =
        "roll " + std::to_string(index + 1) + " (" + std::string(step.roll) + "): take " +
        std::string(1, martiandice::FaceLetter(step.take)) + " is " +
        (chosen->optimal ? "optimal" : "NOT optimal") + " for ev (value " +
        std::to_string(chosen->value.approx) + ", best " + std::to_string(advice->value.approx) +
        "); then " + (step.then_rolls ? "roll" : "stop") + " is " +
        (then_ok ? "optimal" : "NOT optimal") + " (stop " + std::to_string(chosen->stop.approx) +
        ", roll " + (chosen->roll ? std::to_string(chosen->roll->approx) : "-") + ")";
    MESSAGE(report);
    ++index;
  }
  // The final set-aside: 3 tanks vs 3 rays, 4 humans + 1 chicken, no bonus: 5 points.
  const Dice final_aside = D("3T 3R 4H 1K");
  CHECK(martiandice::TurnScore(rules, final_aside) == 5);
  const Exact last = Evaluate(ev, final_aside);
  REQUIRE(last.stop.has_value());
  CHECK(*last.stop == Rational(5));
  REQUIRE(last.roll.has_value());  // 2 dice left
  // Was stopping right? By hand, with 3T 3R 4H 1K aside (5 points) and 2 dice left; only
  // Rays and Cows can still be taken.
  // One die left after taking a Ray (3T 4R 4H 1K): stop 5; roll T -> 4T vs 4R, no take: 5;
  //   R, H or K: 5; C (1/6) -> all three types: 6 + 3 = 9. Roll = (5*5 + 9)/6 = 17/3.
  // One die left after taking a Cow (3T 3R 4H 1C 1K): stop 9; roll T -> 4T > 3R: 0;
  //   anything else keeps 9: roll = 15/2, so value 9.
  // The 36 ordered rolls of 2 dice:
  //   TT (1) 0; TR (4) forced Ray, 4T 4R: 5; TH, TK (4) no take, 4T > 3R: 0;
  //   TC (2) forced Cow, 4T > 3R: 0; RR (4) 5; RH, RK (8) Ray then 17/3;
  //   RC (4) Cow: 9; HH, KK, HK (4) no take: 5; HC, KC (4) Cow: 9; CC (1) 7 + 3 = 10.
  //   Sum = 20 + 20 + 8*17/3 + 36 + 20 + 36 + 10 = 562/3; roll value = 562/108 = 281/54.
  CHECK(*last.roll == Rational(281, 54));
  CHECK(last.action == Then::kRoll);  // 281/54 > 5: the rulebook player's stop is not optimal
  const Exact after_ray = Evaluate(ev, D("3T 4R 4H 1K"));
  CHECK(*after_ray.stop == 5);
  CHECK(*after_ray.roll == Rational(17, 3));
  const Exact after_cow = Evaluate(ev, D("3T 3R 4H 1C 1K"));
  CHECK(*after_cow.stop == 9);
  CHECK(*after_cow.roll == Rational(15, 2));
  CHECK(after_cow.action == Then::kStop);
  auto eval = martiandice::EvaluatePosition(ev, final_aside);
  REQUIRE(eval.ok());
  CHECK(eval->dice_left == 2);
}

TEST_CASE("hand-worked: one die, fresh turn") {
  Rules rules;
  rules.dice = 1;
  // One die: Tank (1/6) -> no legal take, turn over with 1T set aside: 0.
  // Ray (2/6) -> forced take, 1R set aside, no dice left: 0 points.
  // Human, Cow or Chicken (3/6) -> take it, 1 point. EV = 3/6 = 1/2, P(score >= 1) = 1/2,
  // P(score >= 2) = 0. The bonus cannot matter with one die.
  for (int bonus : {0, 3}) {
    rules.bonus = bonus;
    const Exact ev = Evaluate(SolveExact(rules, Objective::ExpectedScore()), Dice());
    CHECK(!ev.stop.has_value());  // no stopping before the first roll
    REQUIRE(ev.roll.has_value());
    CHECK(*ev.roll == Rational(1, 2));
    CHECK(ev.value == Rational(1, 2));
    CHECK(ev.action == Then::kRoll);
    CHECK(Evaluate(SolveExact(rules, Objective::ReachAtLeast(1)), Dice()).value == Rational(1, 2));
    CHECK(Evaluate(SolveExact(rules, Objective::ReachAtLeast(2)), Dice()).value == 0);
  }
  // AdviseRoll on each face.
  const TurnSolution ev = SolveExact(rules, Objective::ExpectedScore());
  auto tank = martiandice::AdviseRoll(ev, Dice(), D("T"));
  REQUIRE(tank.ok());
  CHECK(tank->turn_over);
  CHECK(tank->turn_over_score == 0);
  CHECK(tank->options.empty());
  auto ray = martiandice::AdviseRoll(ev, Dice(), D("R"));
  REQUIRE(ray.ok());
  CHECK(!ray->turn_over);
  REQUIRE(ray->options.size() == 1);
  CHECK(ray->options[0].take == Face::kRay);
  CHECK(!ray->options[0].roll.has_value());  // no dice left
  CHECK(ray->options[0].stop.exact == Rational(0));
  auto cow = martiandice::AdviseRoll(ev, Dice(), D("C"));
  REQUIRE(cow.ok());
  REQUIRE(cow->options.size() == 1);
  CHECK(cow->value.exact == Rational(1));
}

TEST_CASE("hand-worked: two dice, bonus 0") {
  Rules rules;
  rules.dice = 2;
  rules.bonus = 0;
  const TurnSolution ev = SolveExact(rules, Objective::ExpectedScore());
  // Position 1H, one die left. Stop: 1. Roll: T (1/6) -> turn over, 1T > 0R: 0;
  // R (2/6) -> 1R 1H: 1; H (1/6) -> no legal take, scored 1H: 1;
  // C or K (2/6) -> two earthlings: 2. Roll = (2*1 + 1*1 + 2*2)/6 = 7/6 > 1.
  const Exact human = Evaluate(ev, D("1H"));
  CHECK(*human.stop == 1);
  CHECK(*human.roll == Rational(7, 6));
  CHECK(human.action == Then::kRoll);
  // Position 1R, one die left. Stop: 0 earthlings = 0. Roll: T -> 1T 1R scored 0;
  // R -> 2R: 0; earthling (3/6) -> 1 point. Roll = 1/2.
  const Exact ray = Evaluate(ev, D("1R"));
  CHECK(*ray.stop == 0);
  CHECK(*ray.roll == Rational(1, 2));
  CHECK(ray.value == Rational(1, 2));
  // Fresh turn, 36 ordered rolls: TT (1) -> 0; T+R (4) -> 1T 1R, 0; T+E (6) -> 1T 1E, 0
  // (tank beats no ray); RR (4) -> 0; R+E (12) -> take E (7/6) rather than R (1/2);
  // EE same type (3) -> 2; E+E' (6) -> take one, 7/6.
  // EV = (12*7/6 + 3*2 + 6*7/6)/36 = 27/36 = 3/4.
  CHECK(Evaluate(ev, Dice()).value == Rational(3, 4));
  // P(score >= 2): EE same (3/36) certain; R+E or E+E' (18/36) take the earthling and roll,
  // then a different earthling type (2/6) scores 2. Total 3/36 + 18/36 * 1/3 = 1/4.
  CHECK(Evaluate(SolveExact(rules, Objective::ReachAtLeast(2)), Dice()).value == Rational(1, 4));
  // With the official bonus nothing changes: two dice cannot show three earthling types.
  rules.bonus = 3;
  CHECK(Evaluate(SolveExact(rules, Objective::ExpectedScore()), Dice()).value == Rational(3, 4));
}

TEST_CASE("hand-worked: three dice, one die left") {
  Rules rules;
  rules.dice = 3;
  rules.bonus = 3;
  const TurnSolution ev = SolveExact(rules, Objective::ExpectedScore());
  // 1R 1H aside. Stop: 1. Roll: T -> 1T 1R 1H, no take, 1 (tanks do not outnumber rays);
  // R -> 2R 1H: 1; H -> no take: 1; C or K (2/6) -> 2 (no bonus without all three).
  // Roll = (1 + 2*1 + 1 + 2*2)/6 = 8/6 = 4/3.
  const Exact ray_human = Evaluate(ev, D("1R 1H"));
  CHECK(*ray_human.stop == 1);
  CHECK(*ray_human.roll == Rational(4, 3));
  CHECK(ray_human.action == Then::kRoll);
  // 1H 1C aside. Stop: 2. Roll: T -> 1T 1H 1C with no ray: 0; R (2/6) -> 2;
  // H or C (2/6) -> no take: 2; K (1/6) -> all three types: 3 + 3 = 6.
  // Roll = (0 + 2*2 + 2*2 + 6)/6 = 14/6 = 7/3.
  const Exact human_cow = Evaluate(ev, D("1H 1C"));
  CHECK(*human_cow.stop == 2);
  CHECK(*human_cow.roll == Rational(7, 3));
  CHECK(human_cow.value == Rational(7, 3));
  // Reach 3 from 1H 1C: only the Chicken (1/6) gets there; stopping gives 0.
  const Exact reach3 = Evaluate(SolveExact(rules, Objective::ReachAtLeast(3)), D("1H 1C"));
  CHECK(*reach3.stop == 0);
  CHECK(*reach3.roll == Rational(1, 6));
}

TEST_CASE("hand-worked: official rules, one die left") {
  const Rules rules;
  const TurnSolution ev = SolveExact(rules, Objective::ExpectedScore());
  // 3T 3R 2H 2C 2K aside. Stop: 6 earthlings + 3 bonus = 9. Roll the last die:
  // T (1/6) -> no take, 4T > 3R: 0; R (2/6) -> 4R: 9; H/C/K (3/6) -> no take: 9.
  // Roll = 5/6 * 9 = 15/2 < 9: stop.
  const Exact full = Evaluate(ev, D("3T 3R 2H 2C 2K"));
  CHECK(*full.stop == 9);
  CHECK(*full.roll == Rational(15, 2));
  CHECK(full.action == Then::kStop);
  CHECK(full.value == 9);
  // 5R 4H 3C aside. Stop: 7. Roll: T -> 1T vs 5R, no take: 7; R -> 7; H or C -> no take: 7;
  // K (1/6) -> 8 earthlings + 3 bonus = 11. Roll = (5*7 + 11)/6 = 46/6 = 23/3 > 7.
  const Exact missing_chicken = Evaluate(ev, D("5R 4H 3C"));
  CHECK(*missing_chicken.stop == 7);
  CHECK(*missing_chicken.roll == Rational(23, 3));
  CHECK(missing_chicken.action == Then::kRoll);
  // The same position under capped:7: rolling can only keep 7 or reach min(11, 7) = 7.
  const Exact capped = Evaluate(SolveExact(rules, Objective::Capped(7)), D("5R 4H 3C"));
  CHECK(*capped.stop == 7);
  CHECK(*capped.roll == 7);
  CHECK(capped.action == Then::kEither);
}

}  // namespace
