// Rules: constants, ranges, scoring of finished turns.
#include "martiandice/rules.h"

#include <doctest/doctest.h>

#include "martiandice/dice.h"

using namespace martiandice;

TEST_CASE("rules: official constants and faces") {
  Rules rules;
  CHECK(rules.dice == 13);
  CHECK(rules.bonus == 3);
  CHECK(rules.target == 25);
  CHECK(MaxTurnScore(rules) == 16);
  int sides = 0;
  for (Face f : kAllFaces) sides += SidesShowing(f);
  CHECK(sides == kDieSides);
  CHECK(FaceLetter(Face::kChicken) == 'K');
  CHECK(FaceName(Face::kRay) == "ray");
  CHECK_FALSE(IsEarthling(Face::kTank));
  CHECK(IsEarthling(Face::kCow));
}

TEST_CASE("rules: ranges are enforced with a message naming the constant") {
  CHECK(ValidateRules(Rules{}).ok());
  CHECK(ValidateRules(Rules{1, 0, 1}).ok());
  CHECK(ValidateRules(Rules{20, 100, 200}).ok());
  auto bad_dice = ValidateRules(Rules{0, 3, 25});
  CHECK(bad_dice.message().find("dice count 0") != std::string::npos);
  CHECK_FALSE(ValidateRules(Rules{21, 3, 25}).ok());
  CHECK(ValidateRules(Rules{13, -1, 25}).message().find("bonus -1") != std::string::npos);
  CHECK(ValidateRules(Rules{13, 3, 0}).message().find("target 0") != std::string::npos);
}

TEST_CASE("rules: scoring a finished turn") {
  Rules rules;
  CHECK(TurnScore(rules, Dice(3, 3, 4, 0, 1)) == 5);  // the rulebook's sample turn
  CHECK(TurnScore(rules, Dice(4, 3, 4, 1, 1)) == 0);  // more tanks than rays
  CHECK(TurnScore(rules, Dice(3, 3, 1, 1, 1)) == 6);  // all three types: bonus
  CHECK(TurnScore(rules, Dice(0, 0, 5, 0, 0)) == 5);
  CHECK(TurnScore(Rules{13, 0, 25}, Dice(0, 1, 1, 1, 1)) == 3);
  CHECK(MaxTurnScore(Rules{2, 3, 25}) == 2);  // two dice cannot show three types
}
