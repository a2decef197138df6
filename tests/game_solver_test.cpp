// Game solver: the rounding bound it assumes for one turn solve, checked
// against exact rational solves of the same utilities; convergence report.
#include "game_solver.h"

#include <doctest/doctest.h>

#include <chrono>
#include <cmath>

#include "martiandice/game.h"
#include "turn_model.h"

using namespace martiandice;

namespace {

// The mover's utility of each turn score at an open-round 2-player context,
// read from a table (the next context's win probability, or the game's end).
std::vector<double> MoverUtility(const GameTable& table, int s0, int s1, int seat) {
  const Rules& rules = table.rules();
  std::vector<double> utility;
  for (int x = 0; x <= MaxTurnScore(rules); ++x) {
    std::vector<int> scores = {s0, s1};
    scores[seat] += x;
    if (seat == 1 && scores[1] >= rules.target) {
      utility.push_back(1.0);  // seat 1 ends the round ahead of seat 0 (< target)
      continue;
    }
    auto w = table.WinProbabilities(GameContext{scores, 1 - seat});
    REQUIRE(w.ok());
    utility.push_back((*w)[seat]);
  }
  return utility;
}

}  // namespace

TEST_CASE("game solver: one turn solve rounds by far less than the bound it assumes") {
  solver::GameSolveOptions options;
  auto bytes = solver::SolveGameTable(options, nullptr);
  REQUIRE(bytes.ok());
  auto table = GameTable::FromBytes(*bytes);
  REQUIRE(table.ok());
  auto model = internal::TurnModel::Get(Rules{});
  const int start = model->Id(0, 0, 0, 0, 0);
  double worst = 0;
  int checked = 0;
  for (int s0 : {0, 7, 13, 20, 24}) {
    for (int s1 : {0, 11, 24}) {
      for (int seat = 0; seat < 2; ++seat) {
        std::vector<double> utility = MoverUtility(*table, s0, s1, seat);
        std::vector<Rational> exact_utility(utility.begin(),
                                            utility.end());  // doubles are rationals
        auto approx = internal::SolveDouble(*model, utility);
        auto exact = internal::SolveExact(*model, exact_utility);
        worst = std::max(worst, std::abs(approx.value[start] - exact.approx.value[start]));
        for (int id = 0; id < model->size(); ++id) {
          if (!std::isnan(approx.roll[id])) {
            worst = std::max(worst, std::abs(approx.roll[id] - exact.approx.roll[id]));
          }
        }
        ++checked;
      }
    }
  }
  MESSAGE("largest rounding of a turn solve over " << checked << " contexts: " << worst);
  CHECK(worst <= solver::kTurnSolveRounding);
}

TEST_CASE("game solver: small rules converge with a stated bound") {
  solver::GameSolveOptions options;
  options.rules = Rules{5, 2, 10};
  solver::GameSolveReport report;
  auto bytes = solver::SolveGameTable(options, &report);
  REQUIRE(bytes.ok());
  CHECK(report.contexts == 10 * 10 + 10 * (10 + MaxTurnScore(options.rules)));
  CHECK(report.max_residual <= 1e-14);
  CHECK(report.error_bound <= 1e-13);
  CHECK(report.error_bound > 0);
  CHECK(report.first_seat_win > 0.3);
  CHECK(report.first_seat_win < 0.7);
  options.players = 3;
  CHECK(solver::SolveGameTable(options, nullptr).status().code() ==
        absl::StatusCode::kUnimplemented);
  options.players = 2;
  options.rules.dice = 0;
  CHECK(solver::SolveGameTable(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

// Found while writing the fuzz seeds (tests/fuzz/): with 1 die no turn position has
// a stored roll value (STATES is empty), and the solve divided by zero
// (SIGFPE) counting blocks; the writer also wrote block_count 0, which no
// context can point into. The values are checked against a hand computation:
// a turn scores 1 with probability 1/2 (an earthling), else 0. With target 1,
// seat 0 at 0-0 wins W = 1/2 * (1/2 * 1/2 + 1/2) + 1/2 * 1/2 * W, so W = 1/2.
TEST_CASE("game solver: 1 die (no stored turn position) solves to a table that opens") {
  solver::GameSolveOptions options;
  options.rules = Rules{1, 0, 1};
  solver::GameSolveReport report;
  auto bytes = solver::SolveGameTable(options, &report);
  REQUIRE(bytes.ok());
  CHECK(report.stored_states == 0);
  CHECK(report.blocks >= 1);
  auto table = GameTable::FromBytes(*bytes);
  REQUIRE(table.ok());
  CHECK(table->StoredStates().empty());
  CHECK(table->block_count() == report.blocks);
  const std::vector<std::pair<GameContext, double>> expected = {
      {{{0, 0}, 0}, 0.5},    // seat 0 to move
      {{{0, 0}, 1}, 0.25},   // seat 1 to move: wins at once with 1/2, else back to W
      {{{1, 0}, 1}, 0.75}};  // final round: seat 1 only ties with 1/2
  for (const auto& [context, seat0] : expected) {
    auto win = table->WinProbabilities(context);
    REQUIRE(win.ok());
    CHECK((*win)[0] == doctest::Approx(seat0).epsilon(1e-12));
  }
  auto advice = AdviseWin(*table, GameContext{{0, 0}, 0}, Dice(), Dice(0, 0, 1, 0, 0));
  REQUIRE(advice.ok());
  CHECK(advice->advice.options.size() == 1);
  for (int target : {2, 7}) {
    options.rules = Rules{1, 3, target};
    auto other = solver::SolveGameTable(options, nullptr);
    REQUIRE(other.ok());
    CHECK(GameTable::FromBytes(*other).ok());
  }
}

TEST_CASE("game solver limits: a huge request is refused up front, fast, with the reason") {
  solver::GameSolveOptions options;
  options.rules = Rules{20, 3, 200};
  auto begin = std::chrono::steady_clock::now();
  auto bytes = solver::SolveGameTable(options, nullptr);
  double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
  CHECK(ms < 100);
  REQUIRE(bytes.status().code() == absl::StatusCode::kInvalidArgument);
  const std::string message(bytes.status().message());
  MESSAGE(message);
  CHECK(message.find("dice=20") != std::string::npos);
  CHECK(message.find("target=200") != std::string::npos);
  CHECK(message.find("MiB table") != std::string::npos);
  CHECK(message.find("limits:") != std::string::npos);
  CHECK(message.find("use fewer dice or a lower target") != std::string::npos);
  auto estimate = solver::EstimateGameSolve(options);
  REQUIRE(estimate.ok());
  CHECK(estimate->table_bytes > solver::kMaxSolveTableBytes);
  // The largest 20-dice target that fits the table limit, and the next one.
  options.rules.target = 92;
  CHECK(solver::EstimateGameSolve(options)->table_bytes <= solver::kMaxSolveTableBytes);
  options.rules.target = 93;
  CHECK(solver::EstimateGameSolve(options)->table_bytes > solver::kMaxSolveTableBytes);
  CHECK(solver::SolveGameTable(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
  // Rules and player count are still checked first.
  options.players = 3;
  CHECK(solver::EstimateGameSolve(options).status().code() == absl::StatusCode::kUnimplemented);
}

TEST_CASE("game solver limits: moderate requests are accepted and the estimate bounds the table") {
  // The official game (not solved here: the shipped table is 13,389,232 bytes).
  solver::GameSolveOptions options;
  auto official = solver::EstimateGameSolve(options);
  REQUIRE(official.ok());
  CHECK(official->stored_states == 1316);
  CHECK(official->contexts == 1650);
  CHECK(official->table_bytes >= 13389232u);
  CHECK(official->table_bytes <= 13389232u * 103 / 100);
  CHECK(official->seconds < solver::kMaxSolveSeconds);
  // 13 dice fit every supported target.
  options.rules.target = kMaxTarget;
  auto widest = solver::EstimateGameSolve(options);
  REQUIRE(widest.ok());
  CHECK(widest->table_bytes <= solver::kMaxSolveTableBytes);
  CHECK(widest->seconds <= solver::kMaxSolveSeconds);
  // A small solve: the estimate is an upper bound within 5% of the table.
  options.rules = Rules{5, 2, 10};
  solver::GameSolveReport report;
  auto bytes = solver::SolveGameTable(options, &report);
  REQUIRE(bytes.ok());
  auto small = solver::EstimateGameSolve(options);
  REQUIRE(small.ok());
  CHECK(small->contexts == report.contexts);
  CHECK(small->stored_states == report.stored_states);
  CHECK(small->blocks >= report.blocks);
  CHECK(small->table_bytes >= bytes->size());
  CHECK(small->table_bytes <= bytes->size() * 105 / 100);
}

TEST_CASE("turn solve with slope: the plain solve's values bit for bit, the parametric slope") {
  auto model = internal::TurnModel::Get(Rules{});
  const int start = model->Id(0, 0, 0, 0, 0);
  std::vector<double> zero(MaxTurnScore(Rules{}) + 1, 0.0);
  zero[0] = 1.0;
  // Win-like utilities (increasing in the score) with several zero-score values.
  for (double u0 : {0.05, 0.3, 0.61, 0.9}) {
    std::vector<double> utility(zero.size());
    for (size_t x = 0; x < utility.size(); ++x) utility[x] = 1.0 - 0.9 * std::exp(-0.2 * x);
    utility[0] = u0;
    double slope = -1;
    internal::TurnValues with = internal::SolveDoubleWithSlope(*model, utility, zero, &slope);
    internal::TurnValues plain = internal::SolveDouble(*model, utility);
    int differ = 0;
    for (int id = 0; id < model->size(); ++id) {
      differ += with.value[id] != plain.value[id];
      differ += !(with.roll[id] == plain.roll[id] ||
                  (std::isnan(with.roll[id]) && std::isnan(plain.roll[id])));
    }
    CHECK(differ == 0);
    internal::ParametricTurn parametric;
    internal::TurnValues p = internal::SolveDoubleParametric(*model, utility, zero, &parametric);
    CHECK(std::abs(p.value[start] - with.value[start]) <= 1e-15);
    CHECK(std::abs(parametric.slope[start] - slope) <= 1e-14);
    CHECK(slope > 0);
    CHECK(slope < 1);
  }
}

TEST_CASE("paired turn solve: each lane is the single solve, bit for bit") {
  for (Rules rules : {Rules{}, Rules{6, 2, 10}, Rules{1, 0, 5}}) {
    auto model = internal::TurnModel::Get(rules);
    const int m = MaxTurnScore(rules);
    std::vector<double> zero(m + 1, 0.0);
    zero[0] = 1.0;
    // Two different utilities per pass: one win-like, one with a plateau
    // and a dip (ties and choices that differ between the lanes).
    std::vector<double> a(m + 1), b(m + 1);
    for (int x = 0; x <= m; ++x) {
      a[x] = 1.0 - 0.9 * std::exp(-0.2 * x);
      b[x] = x < 4 ? 0.25 : (x == 6 ? 0.1 : 0.02 * x);
    }
    a[0] = 0.3;
    const std::vector<double>* pair[2] = {&a, &b};
    for (bool with_slope : {false, true}) {
      internal::TurnValues out[2];
      double slopes[2] = {-1, -1};
      internal::SolveDoublePair(*model, pair, with_slope ? &zero : nullptr, slopes, out);
      for (int lane = 0; lane < 2; ++lane) {
        double slope = -1;
        internal::TurnValues single =
            with_slope ? internal::SolveDoubleWithSlope(*model, *pair[lane], zero, &slope)
                       : internal::SolveDouble(*model, *pair[lane]);
        int differ = 0;
        for (int id = 0; id < model->size(); ++id) {
          differ += out[lane].value[id] != single.value[id];
          differ += out[lane].stop[id] != single.stop[id];
          differ += !(out[lane].roll[id] == single.roll[id] ||
                      (std::isnan(out[lane].roll[id]) && std::isnan(single.roll[id])));
        }
        CHECK(differ == 0);
        if (with_slope) CHECK(slopes[lane] == slope);
      }
    }
  }
}
