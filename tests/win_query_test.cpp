// Win queries on hand-built tables (tests/table_builder.h): stop values as the
// utility u(x) of the next context or of the game's end, roll values stored or
// by rule, ranked takes with ties, turn over, errors; plus contexts and scores.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "martiandice/game.h"
#include "table_builder.h"

using namespace martiandice;
namespace tb = table_builder;

namespace {

// A value naming its context: (mover, scores) -> a distinct small number.
double Code(int mover, const std::vector<int>& scores) {
  int code = mover;
  for (int s : scores) code = code * 16 + s;
  return (code + 1) / 4194304.0;  // 2^-22 units: exact, and far below 1/P
}

// Seat j's win probability: Code + j units for every seat but the last, which
// takes the rest (exact, sums to 1).
std::vector<double> CodedWin(int mover, const std::vector<int>& scores) {
  std::vector<double> w;
  double rest = 1;
  for (size_t j = 0; j + 1 < scores.size(); ++j) {
    w.push_back(Code(mover, scores) + j / 4194304.0);
    rest -= w.back();
  }
  w.push_back(rest);
  return w;
}

double CodedRoll(int block, const tb::StateRecord& s) {
  return (1 + block + 3 * (s.tanks * 64 + s.rays * 16 + s.e0 * 4 + s.e1 * 2 + s.e2)) / 1024.0;
}

tb::TableSpec CodedSpec(const Rules& rules, int players) {
  tb::TableSpec spec;
  spec.rules = rules;
  spec.players = players;
  spec.blocks = 3;
  spec.win = CodedWin;
  spec.block = [](std::int64_t context) { return static_cast<std::uint32_t>(context % 3); };
  spec.roll = CodedRoll;
  return spec;
}

GameTable Load(const tb::TableSpec& spec) {
  auto table = GameTable::FromBytes(tb::WriteTable(spec));
  REQUIRE(table.ok());
  return *table;
}

Dice D(const char* text) { return *ParseDice(text); }

const Rules kRules{3, 0, 5};  // M = 3, A = 8

// Seat `seat`'s stop value at `aside` in context (scores, mover).
double StopValue(const GameTable& table, std::vector<int> scores, int mover, const char* aside) {
  auto eval = EvaluateWin(table, GameContext{scores, mover}, D(aside));
  REQUIRE(eval.ok());
  REQUIRE(eval->position.stop.has_value());
  return eval->position.stop->approx;
}

}  // namespace

TEST_CASE("win: a fresh turn rolls, valued at the mover's win probability") {
  GameTable table = Load(CodedSpec(kRules, 2));
  auto eval = EvaluateWin(table, GameContext{{2, 3}, 1}, Dice());
  REQUIRE(eval.ok());
  CHECK_FALSE(eval->position.stop.has_value());
  CHECK(eval->position.action == Then::kRoll);
  CHECK(eval->position.dice_left == 3);
  CHECK(eval->position.value.approx == CodedWin(1, {2, 3})[1]);
  CHECK_FALSE(eval->position.value.exact.has_value());
  CHECK(eval->win_probabilities == CodedWin(1, {2, 3}));
}

TEST_CASE("win: the stop value is the mover's chance at the next context") {
  GameTable table = Load(CodedSpec(kRules, 2));
  // Seat 0 at 2 v 3 stops with 1 point: seat 1 to move at 3 v 3.
  CHECK(StopValue(table, {2, 3}, 0, "1R 1H") == CodedWin(1, {3, 3})[0]);
  // Seat 0 reaches the target: the round goes on, seat 1 to move at 6 v 4.
  CHECK(StopValue(table, {3, 4}, 0, "1H 1C 1K") == CodedWin(1, {6, 4})[0]);
  // Tanks beat rays: 0 points, seat 1 to move at 3 v 4.
  CHECK(StopValue(table, {3, 4}, 0, "2T 1R") == CodedWin(1, {3, 4})[0]);
  // Seat 1 below the target: a new round, seat 0 to move at 3 v 3.
  CHECK(StopValue(table, {3, 2}, 1, "1R 1H") == CodedWin(0, {3, 3})[1]);
}

TEST_CASE("win: the last seat's turn can end the game") {
  GameTable table = Load(CodedSpec(kRules, 2));
  // Not a final round, the last seat reaches the target: it leads alone.
  CHECK(StopValue(table, {3, 2}, 1, "1H 1C 1K") == 1.0);
  // Final round (seat 0 has 6): the last seat needs to overtake; a tie is a duel.
  CHECK(StopValue(table, {6, 3}, 1, "1H 1C 1K") == 0.5);
  CHECK(StopValue(table, {6, 3}, 1, "1R 1H 1C") == 0.0);
  CHECK(StopValue(table, {6, 4}, 1, "1H 1C 1K") == 1.0);
  CHECK(StopValue(table, {5, 4}, 1, "1R 1H") == 0.5);
  CHECK(StopValue(table, {5, 4}, 1, "2T 1R") == 0.0);  // scores 0
}

TEST_CASE("win: three players, a final round and ties among several leaders") {
  GameTable table = Load(CodedSpec(kRules, 3));
  // Seat 1 in a final round is not last: seat 2 moves next, at 6, 2 + x, 1.
  CHECK(StopValue(table, {6, 2, 1}, 1, "1R 1H") == CodedWin(2, {6, 3, 1})[1]);
  CHECK(StopValue(table, {6, 2, 1}, 1, "1H 1C 1K") == CodedWin(2, {6, 5, 1})[1]);
  // Seat 1 reaching the target starts the final round.
  CHECK(StopValue(table, {4, 2, 1}, 1, "1H 1C 1K") == CodedWin(2, {4, 5, 1})[1]);
  // Seat 2 closes the game.
  CHECK(StopValue(table, {6, 7, 2}, 2, "1H 1C 1K") == 0.0);
  CHECK(StopValue(table, {6, 4, 4}, 2, "1R 1H 1C") == 0.5);
  CHECK(StopValue(table, {6, 6, 3}, 2, "1H 1C 1K") == 1.0 / 3);
  CHECK(StopValue(table, {2, 7, 3}, 2, "1H 1C 1K") == 0.0);
  // Seat 2 below the target, no one at it: a new round at seat 0.
  CHECK(StopValue(table, {2, 3, 1}, 2, "1R 1H") == CodedWin(0, {2, 3, 2})[2]);
  auto win = table.WinProbabilities(GameContext{{6, 2, 1}, 1});
  REQUIRE(win.ok());
  CHECK(*win == CodedWin(1, {6, 2, 1}));
}

TEST_CASE("win: roll values come from the context's block and the canonical slot") {
  tb::TableSpec spec = CodedSpec(kRules, 2);
  GameTable table = Load(spec);
  // Context (seat 0, 2 v 3) has index 5 * 2 + 3 = 13, block 13 % 3 = 1.
  const double expected = CodedRoll(1, {0, 1, 1, 0, 0, 1});
  for (const char* aside : {"1R 1H", "1R 1C", "1R 1K"}) {  // one canonical position
    auto eval = EvaluateWin(table, GameContext{{2, 3}, 0}, D(aside));
    REQUIRE(eval.ok());
    REQUIRE(eval->position.roll.has_value());
    CHECK(eval->position.roll->approx == expected);
    CHECK(eval->position.dice_left == 1);
    // Stop: seat 1 to move at 3 v 3.
    CHECK(eval->position.stop->approx == CodedWin(1, {3, 3})[0]);
    CHECK(eval->position.action == Then::kRoll);  // coded win values are tiny
    CHECK(eval->position.value.approx == expected);
  }
  // Seat 1 at 2 v 3: index 25 + 8 * 2 + 3 = 44, block 2; earthlings sorted.
  auto eval = EvaluateWin(table, GameContext{{2, 3}, 1}, D("1C"));
  REQUIRE(eval.ok());
  CHECK(eval->position.roll->approx == CodedRoll(2, {0, 0, 1, 0, 0, 2}));
}

TEST_CASE("win: positions valued by rule, not stored") {
  const Rules rules{4, 0, 5};
  GameTable table = Load(CodedSpec(rules, 2));
  // No dice left: only stopping.
  auto full = EvaluateWin(table, GameContext{{1, 1}, 0}, D("1R 1H 1C 1K"));
  REQUIRE(full.ok());
  CHECK_FALSE(full->position.roll.has_value());
  CHECK(full->position.action == Then::kStop);
  CHECK(full->position.value.approx == CodedWin(1, {4, 1})[0]);
  // 2 tanks, no ray, 1 die left: every end scores 0, so rolling is worth u(0).
  auto lost = EvaluateWin(table, GameContext{{1, 1}, 0}, D("2T 1H"));
  REQUIRE(lost.ok());
  CHECK(lost->position.roll->approx == CodedWin(1, {1, 1})[0]);
  CHECK(lost->position.stop->approx == CodedWin(1, {1, 1})[0]);
  CHECK(lost->position.action == Then::kEither);
}

TEST_CASE("win: takes are ranked, near-equal values tie, the first optimal is best") {
  const Rules rules{4, 0, 5};
  tb::TableSpec spec = CodedSpec(rules, 2);
  spec.win = [](int, const std::vector<int>&) { return std::vector<double>{0.25, 0.75}; };
  double ray = 0.5, one = 0.5, two = 0.5;
  spec.roll = [&](int, const tb::StateRecord& s) {
    if (s.tanks == 0 && s.rays == 1 && s.e0 == 0) return ray;
    if (s.tanks == 0 && s.rays == 0 && s.e0 == 1 && s.e1 == 0) return one;
    if (s.tanks == 0 && s.rays == 0 && s.e0 == 2 && s.e1 == 0) return two;
    return 0.125;
  };
  const GameContext context{{1, 1}, 0};
  auto advise = [&](double r, double h1, double h2) {
    ray = r, one = h1, two = h2;
    auto advice = AdviseWin(Load(spec), context, Dice(), D("1R 1C 2K"));
    REQUIRE(advice.ok());
    REQUIRE(advice->advice.options.size() == 3);
    return advice->advice;
  };
  RollAdvice a = advise(0.5 + 0.8e-12, 0.5, 0.5 + 1.6e-12);
  // The maximum is the chickens; rays are within 1e-12 of it, cows are not.
  CHECK(a.options[0].take == Face::kRay);
  CHECK(a.options[0].optimal);
  CHECK_FALSE(a.options[1].optimal);
  CHECK(a.options[2].take == Face::kChicken);
  CHECK(a.options[2].count == 2);
  CHECK(a.options[2].optimal);
  CHECK(*a.best == 0);
  CHECK(a.value.approx == 0.5 + 1.6e-12);
  CHECK(a.options[0].then == Then::kRoll);  // stop is u(0) = 0.25
  CHECK(a.options[0].stop.approx == 0.25);
  CHECK(a.options[1].aside_after == D("1C"));
  RollAdvice b = advise(0.5, 0.5 + 3e-12, 0.5);
  CHECK(*b.best == 1);
  CHECK_FALSE(b.options[0].optimal);
  CHECK(b.options[1].optimal);
  CHECK_FALSE(b.options[2].optimal);
  // Stop and roll tied within the tolerance: "either", valued at the larger.
  RollAdvice c = advise(0.25 + 0.5e-12, 0.25, 0.1);
  CHECK(c.options[0].then == Then::kEither);
  CHECK(c.options[0].value.approx == 0.25 + 0.5e-12);
  CHECK(c.options[1].then == Then::kEither);
  CHECK(c.options[2].then == Then::kStop);
  CHECK(c.options[0].optimal);
  CHECK(c.options[1].optimal);
  CHECK(c.options[2].optimal);  // its stop value is 0.25 too
}

TEST_CASE("win: a roll with no legal take ends the turn at u(score)") {
  GameTable table = Load(CodedSpec(kRules, 2));
  auto over = AdviseWin(table, GameContext{{2, 3}, 0}, D("1R 1H"), D("1H"));
  REQUIRE(over.ok());
  CHECK(over->advice.turn_over);
  CHECK_FALSE(over->advice.best.has_value());
  CHECK(over->advice.turn_over_score == 1);
  CHECK(over->advice.value.approx == CodedWin(1, {3, 3})[0]);
  auto tanks = AdviseWin(table, GameContext{{2, 3}, 0}, D("1R"), D("2T"));
  REQUIRE(tanks.ok());
  CHECK(tanks->advice.turn_over);
  CHECK(tanks->advice.aside_after_tanks == D("2T 1R"));
  CHECK(tanks->advice.turn_over_score == 0);
  CHECK(tanks->advice.value.approx == CodedWin(1, {2, 3})[0]);
  CHECK(tanks->win_probabilities == CodedWin(0, {2, 3}));
}

TEST_CASE("win: invalid contexts, positions and rolls are refused") {
  GameTable table = Load(CodedSpec(kRules, 2));
  auto code = [](const absl::Status& s) { return s.code(); };
  CHECK(code(EvaluateWin(table, GameContext{{1, 2, 3}, 0}, Dice()).status()) ==
        absl::StatusCode::kInvalidArgument);
  CHECK(code(EvaluateWin(table, GameContext{{5, 0}, 0}, Dice()).status()) ==
        absl::StatusCode::kInvalidArgument);
  CHECK(code(EvaluateWin(table, GameContext{{0, 0}, 2}, Dice()).status()) ==
        absl::StatusCode::kInvalidArgument);
  CHECK(code(EvaluateWin(table, GameContext{{0, 0}, 0}, D("2T")).status()) ==
        absl::StatusCode::kInvalidArgument);
  CHECK(code(AdviseWin(table, GameContext{{0, 0}, 0}, Dice(), D("1R")).status()) ==
        absl::StatusCode::kInvalidArgument);
  CHECK(code(table.WinProbabilities(GameContext{{8, 0}, 1}).status()) ==
        absl::StatusCode::kInvalidArgument);
}

TEST_CASE("win: contexts are validated with clear messages") {
  const Rules rules;  // target 25, M 16: totals below 41
  auto message = [&](std::vector<int> scores, int seat, int players = 2) {
    return std::string(ValidateContext(rules, players, GameContext{scores, seat}).message());
  };
  CHECK(ValidateContext(rules, 2, GameContext{{30, 24}, 1}).ok());
  CHECK(ValidateContext(rules, 3, GameContext{{40, 0, 24}, 1}).ok());
  CHECK(message({1, 2, 3}, 0) == "3 scores are given but the game has 2 players");
  CHECK(message({1, -2}, 0) == "seat 1's score -2 is negative");
  CHECK(message({41, 2}, 1).find("seat 0's score 41 is unreachable") == 0);
  CHECK(message({1, 2}, 2) == "seat 2 is out of range: seats are numbered 0..1");
  CHECK(message({1, 25}, 1).find("the game is already over: seat 1 has 25") == 0);
  CHECK(message({25, 1}, 0).find("the game is already over: seat 0 has 25") == 0);
  CHECK(message({1, 2}, 0, 7) == "7 players is out of the supported range 2..6");
}

TEST_CASE("win: scores are parsed with the bad field named") {
  CHECK(*ParseScores("10,12") == std::vector<int>{10, 12});
  CHECK(*ParseScores(" 0, 7 ,30") == std::vector<int>{0, 7, 30});
  for (const char* bad : {"", "10,", "10,x", "-1,2", "1,,2", "99999999999,1", "1.5,2"}) {
    auto scores = ParseScores(bad);
    CHECK_MESSAGE(scores.status().code() == absl::StatusCode::kInvalidArgument, bad);
  }
  CHECK(std::string(ParseScores("10,x").status().message()).find("field 2 (\"x\")") !=
        std::string::npos);
}

#ifdef MARTIANDICE_HAVE_GAME_SOLVER
#include "game_solver.h"
#include "martiandice/state_space.h"

namespace {

GameTable Solved(const Rules& rules, int players) {
  solver::GameSolveOptions options;
  options.rules = rules;
  options.players = players;
  solver::GameSolveReport report;
  auto bytes = solver::SolveGameTable(options, &report);
  REQUIRE(bytes.ok());
  auto table = GameTable::FromBytes(*std::move(bytes));
  REQUIRE(table.ok());
  return *table;
}

// Every valid context of `table`, every `step`-th one.
std::vector<GameContext> Contexts(const GameTable& table, int step) {
  std::vector<GameContext> out;
  tb::ForEachContext(
      table.rules(), table.players(),
      [&](std::int64_t index, int mover, const std::vector<int>& scores) {
        GameContext c{scores, mover};
        if (index % step == 0 && ValidateContext(table.rules(), table.players(), c).ok()) {
          out.push_back(c);
        }
      });
  return out;
}

// The mover's chance from rolling at `aside`: the average over the roll's
// outcomes of the best take's value (or the turn-over value).
double ExpectedRoll(const GameTable& table, const GameContext& context, const Dice& aside) {
  const int left = table.rules().dice - aside.total();
  double sum = 0;
  for (const RollOutcome& outcome : RollDistribution(left)) {
    auto advice = AdviseWin(table, context, aside, outcome.faces);
    REQUIRE(advice.ok());
    sum += static_cast<double>(outcome.weight) * advice->advice.value.approx;
  }
  return sum / static_cast<double>(PowerOfSix(left));
}

void CheckSolvedTable(const Rules& rules, int context_step, int position_step) {
  GameTable table = Solved(rules, 2);
  const double bound = table.error_bound();
  CHECK(bound > 0);
  CHECK(bound < 1e-9);
  auto positions = ReachablePositions(rules);
  REQUIRE(positions.ok());
  int checked = 0;
  for (const GameContext& context : Contexts(table, context_step)) {
    // Zero-sum: the two seats' chances add up to 1 within the bound.
    auto win = table.WinProbabilities(context);
    REQUIRE(win.ok());
    CHECK(std::abs((*win)[0] + (*win)[1] - 1) <= 2 * bound);
    // Bellman: every roll value read from the table is the average best value
    // one roll later, read from the table too.
    for (size_t k = 0; k < positions->size(); k += position_step) {
      const Dice& aside = (*positions)[k];
      if (aside.total() == rules.dice) continue;
      auto eval = EvaluateWin(table, context, aside);
      REQUIRE(eval.ok());
      const double expected = ExpectedRoll(table, context, aside);
      CHECK_MESSAGE(std::abs(eval->position.roll->approx - expected) <= 4 * bound + 1e-14,
                    FormatDice(aside), " at seat ", context.seat);
      ++checked;
    }
  }
  MESSAGE(checked, " roll values checked against one roll later");
}

}  // namespace

TEST_CASE("win: a solved 3-dice table is zero-sum and consistent roll by roll") {
  CheckSolvedTable(Rules{3, 0, 5}, 1, 1);
}

TEST_CASE("win: a solved 6-dice table is zero-sum and consistent roll by roll") {
  CheckSolvedTable(Rules{6, 3, 10}, 5, 7);
}
#endif  // MARTIANDICE_HAVE_GAME_SOLVER
