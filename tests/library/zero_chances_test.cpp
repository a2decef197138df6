// White-box tests of the advisor's zero chances (src/zero_chances.h): the
// class walk over the turn model against the roll walk over every concrete
// roll, at every set-aside of a turn, for tables' win policies and solved
// turns' policies (the forward law checks both through the public advice in
// advisor_test.cpp).
#include "zero_chances.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "martiandice/table.h"
#include "martiandice/turn_solver.h"

using namespace martiandice;
using internal::ZeroChances;

namespace {

const std::string kData = MARTIANDICE_DATA_DIR;

// Every set-aside of a turn under `rules` with dice left to roll.
std::vector<Dice> SetAsides(const Rules& rules) {
  std::vector<Dice> asides;
  for (int t = 0; t < rules.dice; ++t)
    for (int r = 0; t + r < rules.dice; ++r)
      for (int h = 0; t + r + h < rules.dice; ++h)
        for (int c = 0; t + r + h + c < rules.dice; ++c)
          for (int k = 0; t + r + h + c + k < rules.dice; ++k) {
            const Dice aside(t, r, h, c, k);
            if (ValidateAside(rules, aside).ok()) asides.push_back(aside);
          }
  return asides;
}

// The two walks agree at every set-aside; returns how many.
int Agree(const ZeroChances& classes, const ZeroChances& rolls, const Rules& rules) {
  REQUIRE(classes.walk() == ZeroChances::Walk::kClasses);
  REQUIRE(rolls.walk() == ZeroChances::Walk::kRolls);
  int n = 0;
  for (const Dice& aside : SetAsides(rules)) {
    CAPTURE(FormatDice(aside));
    const absl::StatusOr<double> a = classes.At(aside);
    const absl::StatusOr<double> b = rolls.At(aside);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(*a >= 0);
    CHECK(*a <= 1 + 1e-15);
    CHECK(std::abs(*a - *b) < 1e-14);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("zero chances: a table's class walk is its roll walk, at every set-aside") {
  for (const char* name : {"martiandice-p2-d13-b3-t25.mdt", "martiandice-p3-d13-b3-t25.mdt"}) {
    const absl::StatusOr<GameTable> table = GameTable::Open(kData + "/" + name);
    REQUIRE_MESSAGE(table.ok(), table.status());
    const bool three = table->players() == 3;
    // The start, a close race, the last turns (the stops' utilities tie).
    for (const GameContext& context :
         {GameContext{three ? std::vector<int>{0, 0, 0} : std::vector<int>{0, 0}, 0},
          GameContext{three ? std::vector<int>{18, 22, 9} : std::vector<int>{18, 22}, 1},
          GameContext{three ? std::vector<int>{24, 24, 24} : std::vector<int>{24, 21}, 0}}) {
      CAPTURE(name);
      CAPTURE(context.seat);
      const auto classes = ZeroChances::ForTable(*table, context);
      const auto rolls = ZeroChances::ForTable(*table, context, ZeroChances::Walk::kRolls);
      REQUIRE(classes.ok());
      REQUIRE(rolls.ok());
      CHECK(Agree(**classes, **rolls, table->rules()) > 3000);
    }
  }
}

TEST_CASE("zero chances: a solved turn's class walk is its roll walk, at every set-aside") {
  // Face order breaks AdviseRoll's ties: where takes of different counts tie
  // and lead to different zero chances (a capped utility's stops, most often
  // without the bonus), the class walk splits the class by face order.
  int split = 0;
  for (const Rules& rules : {Rules{}, Rules{13, 0, 25}, Rules{8, 2, 25}}) {
    // The fallback's objectives (capped at the points needed) and others.
    std::vector<Objective> objectives = {Objective::ExpectedScore(), Objective::ReachAtLeast(6),
                                         Objective::ReachAtLeast(12)};
    for (int m = 1; m <= MaxTurnScore(rules); ++m) objectives.push_back(Objective::Capped(m));
    for (const Objective& objective : objectives) {
      CAPTURE(rules.dice);
      CAPTURE(rules.bonus);
      CAPTURE(objective.name());
      const absl::StatusOr<TurnSolution> turn =
          TurnSolution::Solve(rules, objective, Precision::kDouble);
      REQUIRE(turn.ok());
      const auto classes = ZeroChances::ForTurn(*turn);
      const auto rolls = ZeroChances::ForTurn(*turn, ZeroChances::Walk::kRolls);
      CHECK(Agree(*classes, *rolls, rules) > (rules.dice == 13 ? 3000 : 100));
      split += classes->split_classes();
    }
  }
  CHECK(split > 0);
}

TEST_CASE("zero chances: a set-aside without dice to roll is refused by either walk") {
  const absl::StatusOr<TurnSolution> turn =
      TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kDouble);
  REQUIRE(turn.ok());
  for (ZeroChances::Walk walk : {ZeroChances::Walk::kClasses, ZeroChances::Walk::kRolls}) {
    const auto zero = ZeroChances::ForTurn(*turn, walk);
    CHECK(zero->At(*ParseDice("3T 10R")).status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(zero->At(Dice(0, 0, 14, 0, 0)).status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(zero->At(Dice()).ok());
  }
}
