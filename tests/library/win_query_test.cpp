// Win queries on hand-built tables (tests/support/table_builder.h): stop values as the
// utility u(x) of the next context or of the game's end, roll values from the
// mover's turn solved over those utilities (against a hand calculation and a
// brute force over concrete dice written here) or by rule, ranked takes with
// near-ties and the tie convention, turn over, errors; plus contexts and
// scores; and solved tables consistent roll by roll.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "martiandice/state_space.h"
#include "martiandice/win_query.h"
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

tb::TableSpec CodedSpec(const Rules& rules, int players) {
  tb::TableSpec spec;
  spec.rules = rules;
  spec.players = players;
  spec.win = CodedWin;
  return spec;
}

GameTable Load(const tb::TableSpec& spec) {
  auto table = GameTable::FromBytes(tb::WriteTable(spec));
  REQUIRE_MESSAGE(table.ok(), table.status());
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

// An independent brute force of the mover's turn (docs/FORMAT.md, "Answering a
// query"), over concrete set-asides (earthling types not merged) and every roll
// of the dice left with its multinomial probability: the value of rolling on
// from `aside`, the mover's utility of ending with x points being u(x).
class BruteTurn {
 public:
  BruteTurn(const Rules& rules, std::function<double(int)> u) : rules_(rules), u_(std::move(u)) {}

  // Counts: tanks, rays, humans, cows, chickens.
  using Aside = std::array<int, 5>;

  int Score(const Aside& a) const {
    if (a[0] > a[1]) return 0;
    const bool all_three = a[2] > 0 && a[3] > 0 && a[4] > 0;
    return a[2] + a[3] + a[4] + (all_three ? rules_.bonus : 0);
  }
  int Left(const Aside& a) const { return rules_.dice - a[0] - a[1] - a[2] - a[3] - a[4]; }

  // After a take: stop, or roll on when that is better by more than 1e-12.
  double Value(const Aside& a) {
    const double stop = u_(Score(a));
    if (Left(a) == 0) return stop;
    const double roll = Roll(a);
    return roll > stop + 1e-12 ? roll : stop;
  }

  double Roll(const Aside& a) {
    if (auto it = memo_.find(a); it != memo_.end()) return it->second;
    const int n = Left(a);
    double sum = 0;
    for (int t = 0; t <= n; ++t)
      for (int r = 0; t + r <= n; ++r)
        for (int h = 0; t + r + h <= n; ++h)
          for (int c = 0; t + r + h + c <= n; ++c) {
            const int k = n - t - r - h - c;
            const double p =
                Factorial(n) /
                (Factorial(t) * Factorial(r) * Factorial(h) * Factorial(c) * Factorial(k)) *
                std::pow(2.0, r) / std::pow(6.0, n);
            sum += p * Outcome(a, {t, r, h, c, k});
          }
    return memo_[a] = sum;
  }

 private:
  static double Factorial(int n) { return n <= 1 ? 1 : n * Factorial(n - 1); }

  // The roll's value: the convention's take among those within 1e-12 of the
  // best (rays, else the type showing the most dice, else H, C, K), or the
  // turn over with the roll's tanks.
  double Outcome(Aside a, const Aside& roll) {
    a[0] += roll[0];
    struct Take {
      int face, count;
      double value;
    };
    std::vector<Take> takes;
    for (int face = 1; face < 5; ++face) {
      if (roll[face] == 0 || (face >= 2 && a[face] > 0)) continue;
      Aside after = a;
      after[face] += roll[face];
      takes.push_back({face, roll[face], Value(after)});
    }
    if (takes.empty()) return u_(Score(a));
    double best = takes[0].value;
    for (const Take& t : takes) best = std::max(best, t.value);
    const Take* pick = nullptr;
    for (const Take& t : takes) {
      if (t.value < best - 1e-12) continue;
      if (pick == nullptr || (pick->face != 1 && (t.face == 1 || t.count > pick->count))) pick = &t;
    }
    return pick->value;
  }

  Rules rules_;
  std::function<double(int)> u_;
  std::map<Aside, double> memo_;
};

// The mover's u(x) at `context` of a coded table, from docs/FORMAT.md step 1.
double CodedUtility(const Rules& rules, int players, const GameContext& context, int x) {
  std::vector<int> s = context.scores;
  s[context.seat] += x;
  bool final_round = false;
  for (int j = 0; j < context.seat; ++j) final_round |= context.scores[j] >= rules.target;
  if (context.seat == players - 1 && (final_round || s[context.seat] >= rules.target)) {
    const int top = *std::max_element(s.begin(), s.end());
    if (s[context.seat] != top) return 0;
    return 1.0 / static_cast<double>(std::count(s.begin(), s.end(), top));
  }
  return CodedWin((context.seat + 1) % players, s)[context.seat];
}

TEST_CASE("win: a roll value with one die left, by hand") {
  GameTable table = Load(CodedSpec(kRules, 2));
  // Seat 0 at 2 v 3 with 1R 1H aside rolls its last die: a tank or a human
  // ends the turn with 1 point, a ray is taken for 1 point, a cow or a
  // chicken is taken for 2; then no die is left.
  const double u1 = CodedWin(1, {3, 3})[0], u2 = CodedWin(1, {4, 3})[0];
  const double expected = 4.0 / 6 * u1 + 2.0 / 6 * u2;
  std::optional<double> first;
  for (const char* aside : {"1R 1H", "1R 1C", "1R 1K"}) {  // one canonical position
    auto eval = EvaluateWin(table, GameContext{{2, 3}, 0}, D(aside));
    REQUIRE(eval.ok());
    REQUIRE(eval->position.roll.has_value());
    CHECK(std::abs(eval->position.roll->approx - expected) <= 1e-15);
    if (!first) first = eval->position.roll->approx;
    CHECK(eval->position.roll->approx == *first);
    CHECK(eval->position.dice_left == 1);
    CHECK(eval->position.stop->approx == u1);
    // Coded values grow with the totals: rolling beats stopping.
    CHECK(expected > u1 + 1e-12);
    CHECK(eval->position.action == Then::kRoll);
    CHECK(eval->position.value.approx == eval->position.roll->approx);
  }
}

TEST_CASE("win: roll values are the turn solved over the next contexts' values") {
  struct Case {
    Rules rules;
    int players;
  };
  for (const Case& c : {Case{kRules, 2}, Case{Rules{4, 3, 6}, 2}, Case{kRules, 3}}) {
    CAPTURE(c.rules.dice);
    CAPTURE(c.players);
    GameTable table = Load(CodedSpec(c.rules, c.players));
    int checked = 0;
    tb::ForEachContext(
        c.rules, c.players, [&](std::int64_t index, int mover, const std::vector<int>& scores) {
          const GameContext context{scores, mover};
          if (index % 3 != 0 || !ValidateContext(c.rules, c.players, context).ok()) return;
          BruteTurn brute(c.rules,
                          [&](int x) { return CodedUtility(c.rules, c.players, context, x); });
          const int n = c.rules.dice;
          for (int t = 0; t <= n; ++t)
            for (int r = 0; t + r <= n; ++r)
              for (int h = 0; t + r + h <= n; ++h)
                for (int w = 0; t + r + h + w <= n; ++w)
                  for (int k = 0; t + r + h + w + k < n; ++k) {  // a die left
                    const Dice aside(t, r, h, w, k);
                    if (aside.empty() || !ValidateAside(c.rules, aside).ok()) continue;
                    auto eval = EvaluateWin(table, context, aside);
                    REQUIRE(eval.ok());
                    REQUIRE(eval->position.roll.has_value());
                    CHECK_MESSAGE(std::abs(eval->position.roll->approx -
                                           brute.Roll({t, r, h, w, k})) <= 1e-14,
                                  FormatDice(aside), " at context ", index);
                    ++checked;
                  }
        });
    MESSAGE(checked << " roll values checked against the brute force");
    CHECK(checked > 100);
  }
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

TEST_CASE("win: takes are ranked, near-equal values tie, the convention picks the best") {
  // Seat 0 at 0 v 0 with 4 dice, utilities u(0..2) near 1/2 and u(3) = u(4) =
  // 0. From the roll 1R 1C 2K: rays (1R, score 0), the cow (1C, score 1) or
  // the chickens (2K, score 2). Rolling on risks a roll that forces a score
  // of 3 or 4, so each option stops and is worth u(its score).
  const Rules rules{4, 0, 5};
  std::array<double, 5> u = {0.5, 0.5, 0.5, 0, 0};
  tb::TableSpec spec;
  spec.rules = rules;
  spec.win = [&](int mover, const std::vector<int>& scores) {
    if (mover == 1 && scores[1] == 0 && scores[0] <= 4) {
      return std::vector<double>{u[scores[0]], 1 - u[scores[0]]};
    }
    return std::vector<double>{0.25, 0.75};
  };
  const GameContext context{{0, 0}, 0};
  auto advise = [&](std::array<double, 3> near) {
    std::copy(near.begin(), near.end(), u.begin());
    auto advice = AdviseWin(Load(spec), context, Dice(), D("1R 1C 2K"));
    REQUIRE(advice.ok());
    REQUIRE(advice->advice.options.size() == 3);
    const RollAdvice& a = advice->advice;
    for (int i = 0; i < 3; ++i) {
      CHECK(a.options[i].then == Then::kStop);
      CHECK(a.options[i].stop.approx == near[i]);
      CHECK(a.options[i].roll->approx < near[i] - 1e-12);
      CHECK(a.options[i].value.approx == near[i]);
    }
    return advice->advice;
  };
  // The maximum is the chickens'; rays are within 1e-12 of it, the cow is not:
  // the convention picks rays.
  RollAdvice a = advise({0.5 + 0.8e-12, 0.5, 0.5 + 1.6e-12});
  CHECK(a.options[0].take == Face::kRay);
  CHECK(a.options[0].optimal);
  CHECK(a.options[1].take == Face::kCow);
  CHECK_FALSE(a.options[1].optimal);
  CHECK(a.options[1].aside_after == D("1C"));
  CHECK(a.options[2].take == Face::kChicken);
  CHECK(a.options[2].count == 2);
  CHECK(a.options[2].optimal);
  CHECK(*a.best == 0);
  CHECK(a.value.approx == 0.5 + 1.6e-12);
  // The cow alone, 3e-12 above the others.
  RollAdvice b = advise({0.5, 0.5 + 3e-12, 0.5});
  CHECK_FALSE(b.options[0].optimal);
  CHECK(b.options[1].optimal);
  CHECK_FALSE(b.options[2].optimal);
  CHECK(*b.best == 1);
  // The cow and the chickens tied, rays 5e-12 below: the type showing the
  // most dice, the chickens, although the cow comes first.
  RollAdvice c = advise({0.5 - 5e-12, 0.5, 0.5 + 0.5e-12});
  CHECK_FALSE(c.options[0].optimal);
  CHECK(c.options[1].optimal);
  CHECK(c.options[2].optimal);
  CHECK(*c.best == 2);
  CHECK(c.value.approx == 0.5 + 0.5e-12);
}

TEST_CASE("win: stop and roll within 1e-12 are tied: either, valued at the larger") {
  // u(0) = 1/4 and u(x) = 1/4 + 0.5e-12 for x >= 1: every end of the turn is
  // within 0.5e-12 of every other.
  const Rules rules{4, 0, 5};
  tb::TableSpec spec;
  spec.rules = rules;
  spec.win = [](int mover, const std::vector<int>& scores) {
    if (mover == 1 && scores[1] == 0 && scores[0] >= 1 && scores[0] <= 4) {
      return std::vector<double>{0.25 + 0.5e-12, 0.75 - 0.5e-12};
    }
    return std::vector<double>{0.25, 0.75};
  };
  auto advice = AdviseWin(Load(spec), GameContext{{0, 0}, 0}, Dice(), D("1R 1C 2K"));
  REQUIRE(advice.ok());
  const RollAdvice& a = advice->advice;
  REQUIRE(a.options.size() == 3);
  for (const TakeOption& o : a.options) {
    CAPTURE(FaceName(o.take));
    REQUIRE(o.roll.has_value());
    CHECK(std::abs(o.roll->approx - o.stop.approx) <= 1e-12);
    CHECK(o.then == Then::kEither);
    CHECK(o.value.approx == std::max(o.stop.approx, o.roll->approx));
    CHECK(o.optimal);
  }
  // Rays: stopping scores 0, rolling on may score: the roll is the larger.
  CHECK(a.options[0].stop.approx == 0.25);
  CHECK(a.options[0].roll->approx > 0.25);
  CHECK(a.options[0].value.approx == a.options[0].roll->approx);
  // The cow: stopping scores 1, rolling on may end at 0: the stop is the larger.
  CHECK(a.options[1].stop.approx == 0.25 + 0.5e-12);
  CHECK(a.options[1].value.approx == 0.25 + 0.5e-12);
  CHECK(*a.best == 0);
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
  CHECK(message({1, 2}, 0, 7) == "a game has 2 to 6 players, not 7");
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
  CHECK(std::string(ParseScores("1,99999999999").status().message())
            .find("field 2 (\"99999999999\") is too large for a game's total") !=
        std::string::npos);
}

#ifdef MARTIANDICE_HAVE_GAME_SOLVER
#include "game_solver.h"

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

void CheckSolvedTable(const Rules& rules, int players, int context_step, int position_step) {
  CAPTURE(players);
  GameTable table = Solved(rules, players);
  const double bound = table.error_bound();
  CHECK(bound > 0);
  CHECK(bound < 1e-9);
  auto positions = ReachablePositions(rules);
  REQUIRE(positions.ok());
  int checked = 0;
  for (const GameContext& context : Contexts(table, context_step)) {
    // Zero-sum: the seats' chances add up to 1 within the bound.
    auto win = table.WinProbabilities(context);
    REQUIRE(win.ok());
    double sum = 0;
    for (double w : *win) sum += w;
    CHECK(std::abs(sum - 1) <= players * bound);
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

TEST_CASE("win: solved 3-dice tables are zero-sum and consistent roll by roll") {
  CheckSolvedTable(Rules{3, 0, 5}, 2, 1, 1);
  CheckSolvedTable(Rules{3, 0, 5}, 3, 1, 1);
}

TEST_CASE("win: a solved 6-dice table is zero-sum and consistent roll by roll") {
  CheckSolvedTable(Rules{6, 3, 10}, 2, 5, 7);
}
#endif  // MARTIANDICE_HAVE_GAME_SOLVER
