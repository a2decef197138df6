// White-box tests of the advisor's zero chances (src/zero_chances.h): its
// walk over the turn model against a walk over every concrete roll, the
// policy's advice at each (a reference of this file's own), at every
// set-aside of a turn, for tables' win policies and solved turns' policies
// (the forward law checks both through the public advice in
// advisor_test.cpp).
#include "zero_chances.h"

#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "martiandice/context.h"
#include "martiandice/dice.h"
#include "martiandice/objective.h"
#include "martiandice/rules.h"
#include "martiandice/state_space.h"
#include "martiandice/table.h"
#include "martiandice/turn_solver.h"
#include "table_format.h"
#include "take_options.h"
#include "turn_model.h"
#include "win_values.h"

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

// The reference: from a set-aside, each concrete roll's share (RollLaw)
// goes to 0 points (the turn over at 0, a stop at 0) or to the chance of
// the set-aside the policy's pick rolls on from, each set-aside summed once.
class RollWalk {
 public:
  using Advise = std::function<internal::ApproxAdvice(const Dice& aside, const Dice& roll)>;
  RollWalk(const Rules& rules, Advise advise) : rules_(rules), advise_(std::move(advise)) {}

  double At(const Dice& aside) {
    const std::uint32_t key = internal::DiceKey(aside);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const int left = rules_.dice - aside.total();
    const double total = static_cast<double>(PowerOfSix(left));
    double zero = 0;
    for (const RollOutcome& outcome : internal::RollLaw(left)) {
      const internal::ApproxAdvice advice = advise_(aside, outcome.faces);
      const double share = static_cast<double>(outcome.weight) / total;
      if (advice.turn_over || !advice.best) {
        if (advice.turn_over_score == 0) zero += share;
        continue;
      }
      const internal::ApproxTake& take = advice.options[*advice.best];
      if (take.then == Then::kRoll) {
        zero += share * At(take.aside_after);
      } else if (TurnScore(rules_, take.aside_after) == 0) {
        zero += share;
      }
    }
    memo_.emplace(key, zero);
    return zero;
  }

 private:
  Rules rules_;
  Advise advise_;
  std::map<std::uint32_t, double> memo_;  // by DiceKey
};

// The walks agree at every set-aside; returns how many.
int Agree(const ZeroChances& classes, RollWalk& rolls, const Rules& rules) {
  int n = 0;
  for (const Dice& aside : SetAsides(rules)) {
    CAPTURE(FormatDice(aside));
    const absl::StatusOr<double> a = classes.At(aside);
    REQUIRE(a.ok());
    CHECK(*a >= 0);
    CHECK(*a <= 1 + 1e-15);
    CHECK(std::abs(*a - rolls.At(aside)) < 1e-14);
    ++n;
  }
  return n;
}

}  // namespace

TEST_CASE("zero chances: a table's walk is the roll walk, at every set-aside") {
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
      REQUIRE(classes.ok());
      const internal::TableData& data = internal::TableAccess::Data(*table);
      const internal::WinValues values(data, context);
      RollWalk rolls(table->rules(), [&](const Dice& aside, const Dice& roll) {
        return internal::AdviseWinTakes<internal::ApproxAdvice>(data, values, aside, roll);
      });
      CHECK(Agree(**classes, rolls, table->rules()) > 3000);
    }
  }
}

TEST_CASE("zero chances: a solved turn's walk is the roll walk, at every set-aside") {
  // Face order breaks AdviseRoll's ties: where takes of different counts tie
  // and lead to different zero chances (a capped utility's stops, most often
  // without the bonus), the walk splits the class by face order.
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
      RollWalk rolls(rules, [&](const Dice& aside, const Dice& roll) {
        return internal::AdviseRollApprox(*turn, aside, roll);
      });
      CHECK(Agree(*classes, rolls, rules) > (rules.dice == 13 ? 3000 : 100));
      split += classes->split_classes();
    }
  }
  CHECK(split > 0);
}

TEST_CASE("zero chances: a set-aside without dice to roll is refused") {
  const absl::StatusOr<TurnSolution> turn =
      TurnSolution::Solve(Rules{}, Objective::ExpectedScore(), Precision::kDouble);
  REQUIRE(turn.ok());
  const auto zero = ZeroChances::ForTurn(*turn);
  CHECK(zero->At(*ParseDice("3T 10R")).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(zero->At(Dice(0, 0, 14, 0, 0)).status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(zero->At(Dice()).ok());
}
