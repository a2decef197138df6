// Rules: constants, ranges, scoring of finished turns, the game's end.
#include "martiandice/rules.h"

#include <doctest/doctest.h>

#include <span>
#include <vector>

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

// The game's end, checked case by case against docs/RULES.md ("Winning"):
// the round in which a seat reaches the target is finished, then the game ends.
TEST_CASE("rules: a number that is no face is named '?'") {
  for (const Face face : kAllFaces) CHECK(IsFace(face));
  for (const int n : {5, 7, 255}) {
    CHECK_FALSE(IsFace(static_cast<Face>(n)));
    CHECK(FaceLetter(static_cast<Face>(n)) == '?');
    CHECK(FaceName(static_cast<Face>(n)) == "?");
  }
}

TEST_CASE("rules: the final round, the game's end and the leaders' shares") {
  const Rules rules{13, 3, 25};
  const std::vector<int> none_reached = {24, 10, 3};
  CHECK_FALSE(FinalRoundBegun(rules, none_reached, 0));
  CHECK_FALSE(FinalRoundBegun(rules, none_reached, 2));
  const std::vector<int> first_reached = {25, 10, 3};
  CHECK_FALSE(FinalRoundBegun(rules, first_reached, 0));  // its own total: not before it
  CHECK(FinalRoundBegun(rules, first_reached, 1));
  CHECK(FinalRoundBegun(rules, first_reached, 2));
  CHECK_FALSE(FinalRoundBegun(rules, first_reached, -1));  // no seat before
  CHECK(FinalRoundBegun(rules, first_reached, 7));          // past the end: every seat before

  CHECK(FirstSeatToMove(rules, none_reached) == 0);
  CHECK(FirstSeatToMove(rules, first_reached) == 1);
  CHECK(FirstSeatToMove(rules, std::vector<int>{30, 26, 3}) == 2);
  CHECK(FirstSeatToMove(rules, std::vector<int>{3, 4, 25}) == 3);

  // Only the last seat's turn ends the game, and only once some seat reached it.
  CHECK_FALSE(GameEndsAfterTurn(rules, std::vector<int>{26, 10, 3}, 0));
  CHECK_FALSE(GameEndsAfterTurn(rules, std::vector<int>{26, 10, 3}, 1));
  CHECK(GameEndsAfterTurn(rules, std::vector<int>{26, 10, 3}, 2));
  CHECK(GameEndsAfterTurn(rules, std::vector<int>{3, 10, 25}, 2));
  CHECK_FALSE(GameEndsAfterTurn(rules, std::vector<int>{24, 10, 24}, 2));
  CHECK_FALSE(GameEndsAfterTurn(rules, std::vector<int>{}, 0));

  const std::vector<int> tied = {27, 20, 27};
  CHECK(LeaderCount(tied) == 2);
  CHECK(WinShare(tied, 0) == 0.5);
  CHECK(WinShare(tied, 1) == 0.0);
  CHECK(WinShare(tied, 2) == 0.5);
  const std::vector<int> three = {30, 30, 30};
  CHECK(LeaderCount(three) == 3);
  CHECK(WinShare(three, 1) == 1.0 / 3);
  CHECK(WinShare(std::vector<int>{40, 39}, 0) == 1.0);
  // A seat that is not one of the totals has no share.
  CHECK(WinShare(std::vector<int>{40, 39}, 2) == 0.0);
  CHECK(WinShare(std::vector<int>{40, 39}, -1) == 0.0);
  CHECK(WinShare(std::span<const int>(), 0) == 0.0);
}
