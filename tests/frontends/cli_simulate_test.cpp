// Tests of the game simulator (tools/simulate.h): optimal self-play wins as
// often as the policy table predicts, seats alternate between games (each
// seating equally often; or stay fixed on request), a seed
// reproduces its result whatever the number of threads, `win` is not worse
// than `ev`, and the policies and errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "game_solver.h"
#include "martiandice/rules.h"
#include "martiandice/table.h"
#include "simulate.h"
#include "test_util.h"

namespace {

using martiandice::GameTable;
using martiandice::PolicySpec;
using martiandice::Rules;
using martiandice::SimulationOptions;
using martiandice::SimulationResult;

constexpr double kZ95 = 1.959963984540054;
constexpr double kZ999 = 3.2905267314919255;  // two-sided 99.9%

// A policy table solved here and every seat's chance at the start.
struct SolvedTable {
  GameTable table;
  std::vector<double> start;
};

SolvedTable Solve(const Rules& rules, int players = 2) {
  martiandice::solver::GameSolveReport report;
  auto table = GameTable::FromBytes(test_util::SolveTinyTable(rules, players, &report));
  REQUIRE(table.ok());
  REQUIRE(static_cast<int>(report.start.size()) == players);
  return {*std::move(table), report.start};
}

std::vector<PolicySpec> Policies(const std::string& list) {
  auto policies = martiandice::ParsePolicies(list);
  REQUIRE(policies.ok());
  return *policies;
}

SimulationOptions Options(const Rules& rules, const std::string& policies, std::int64_t games,
                          std::uint64_t seed = martiandice::kDefaultSimulationSeed) {
  SimulationOptions options;
  options.rules = rules;
  options.policies = Policies(policies);
  options.games = games;
  options.seed = seed;
  options.threads = 2;
  return options;
}

SimulationResult Play(const SimulationOptions& options) {
  auto result = martiandice::Simulate(options);
  REQUIRE_MESSAGE(result.ok(), result.status().message());
  return *result;
}

double Sum(const std::vector<double>& values) {
  return std::accumulate(values.begin(), values.end(), 0.0);
}

// The standard error behind a 95% half-width.
double StdError(double half_width) { return half_width / kZ95; }

}  // namespace

TEST_CASE("simulate: optimal self-play wins as often as the table predicts") {
  for (const Rules& rules : {Rules{4, 3, 8}, Rules{6, 0, 12}}) {
    CAPTURE(rules.dice);
    const SolvedTable solved = Solve(rules);
    const double predicted = solved.start[0];
    SimulationOptions options = Options(rules, "win,win", 60000);
    options.table = solved.table;
    const SimulationResult result = Play(options);
    const double se = StdError(result.seat_ci95[0]);
    MESSAGE("dice " << rules.dice << ": seat 0 predicted " << predicted << ", simulated "
                    << result.seat_win_rate[0] << " +- " << result.seat_ci95[0] << " (95%) in "
                    << result.seconds << " s");
    CHECK(se > 0);
    CHECK(std::fabs(result.seat_win_rate[0] - predicted) <= kZ999 * se);
    CHECK(std::fabs(Sum(result.seat_win_rate) - 1) <= 1e-12);
    CHECK(std::fabs(Sum(result.policy_win_rate) - 1) <= 1e-12);
    CHECK(result.games == 60000);
    CHECK(result.mean_turns >= 2);
  }
}

TEST_CASE("simulate: optimal self-play of 3 and 4 players wins as every seat's chance predicts") {
  struct Case {
    Rules rules;
    int players;
    std::string policies;
  };
  for (const Case& c :
       {Case{Rules{4, 3, 8}, 3, "win,win,win"}, Case{Rules{6, 0, 10}, 3, "win,win,win"},
        Case{Rules{3, 0, 5}, 4, "win,win,win,win"}}) {
    CAPTURE(c.rules.dice);
    CAPTURE(c.players);
    const SolvedTable solved = Solve(c.rules, c.players);
    const std::vector<double>& start = solved.start;
    SimulationOptions options = Options(c.rules, c.policies, 40000);
    options.table = solved.table;
    const SimulationResult result = Play(options);
    REQUIRE(result.seat_win_rate.size() == static_cast<size_t>(c.players));
    for (int seat = 0; seat < c.players; ++seat) {
      CAPTURE(seat);
      const double se = StdError(result.seat_ci95[seat]);
      MESSAGE(c.players << " players, dice " << c.rules.dice << ": seat " << seat << " predicted "
                        << start[seat] << ", simulated " << result.seat_win_rate[seat] << " +- "
                        << result.seat_ci95[seat] << " (95%)");
      CHECK(se > 0);
      // 99.9% per seat: the seats' checks together still fail rarely (< 0.4%).
      CHECK(std::fabs(result.seat_win_rate[seat] - start[seat]) <= kZ999 * se);
    }
    CHECK(std::fabs(Sum(result.seat_win_rate) - 1) <= 1e-12);
  }
}

TEST_CASE("simulate: 3 players with mixed policies play whole games, shares summing to 1") {
  const SolvedTable solved = Solve(Rules{4, 3, 8}, 3);
  SimulationOptions options = Options(Rules{4, 3, 8}, "win,ev,stop:4", 20000);
  options.table = solved.table;
  const SimulationResult result = Play(options);
  MESSAGE("win/ev/stop:4 policy shares " << result.policy_win_rate[0] << ", "
                                         << result.policy_win_rate[1] << ", "
                                         << result.policy_win_rate[2]);
  CHECK(result.policy_win_rate.size() == 3);
  CHECK(std::fabs(Sum(result.policy_win_rate) - 1) <= 1e-12);
  // Against two weaker policies, playing to win takes more than its even share.
  CHECK(result.policy_win_rate[0] - result.policy_ci95[0] > 1.0 / 3);
}

TEST_CASE("simulate: seats alternate between games") {
  const Rules small{4, 3, 8};
  // One game: policy k sits in seat k, so seat and policy rates coincide.
  const SimulationResult one = Play(Options(small, "ev,random", 1));
  CHECK(one.seat_win_rate == one.policy_win_rate);
  // A strong and a weak policy: the policy rates differ widely, the seat
  // rates hardly, as each policy sits in each seat half of the time.
  for (const std::string& policies : {std::string("ev,random"), std::string("random,ev,random")}) {
    CAPTURE(policies);
    const SimulationResult result = Play(Options(Rules{}, policies, 3000));
    const int players = result.players;
    const int strong = policies == "ev,random" ? 0 : 1;
    CHECK(result.policy_win_rate[strong] > 0.8);
    for (int seat = 0; seat < players; ++seat) {
      CHECK(std::fabs(result.seat_win_rate[seat] - 1.0 / players) <= 0.1);
    }
  }
}

TEST_CASE("simulate: seatings balance every P games (seats) and every P! games (orders)") {
  for (int players = 2; players <= 6; ++players) {
    CAPTURE(players);
    int seatings = 1;
    for (int k = 2; k <= players; ++k) seatings *= k;
    for (std::int64_t first : {std::int64_t{0}, std::int64_t{seatings} * 1000}) {
      std::set<std::vector<int>> seen;
      for (std::int64_t game = first; game < first + seatings; ++game) {
        const std::vector<int> seated = martiandice::SeatedPolicies(players, game);
        std::vector<int> sorted = seated;
        std::sort(sorted.begin(), sorted.end());
        std::vector<int> all(players);
        std::iota(all.begin(), all.end(), 0);
        REQUIRE(sorted == all);
        seen.insert(seated);
        // The first P games of each P! are the rotations of one order.
        if (game % seatings < players) {
          for (int seat = 0; seat < players; ++seat) {
            CHECK((seated[seat] + game) % players == seat);
          }
        }
      }
      CHECK(static_cast<int>(seen.size()) == seatings);
      for (std::int64_t block = first; block < first + seatings; block += players) {
        std::set<std::pair<int, int>> places;  // (policy, seat)
        for (std::int64_t game = block; game < block + players; ++game) {
          const std::vector<int> seated = martiandice::SeatedPolicies(players, game);
          for (int seat = 0; seat < players; ++seat) places.insert({seated[seat], seat});
        }
        CHECK(static_cast<int>(places.size()) == players * players);
      }
    }
  }
}

TEST_CASE("simulate: game g is played in the seating SeatedPolicies gives it") {
  // Game g's result is that of games g + 1 less that of games g. Played
  // seated by the simulation, and with the same policies seated by hand
  // (--no-alternate): the same dice, so the same game.
  const std::vector<std::string> names = {"ev", "random", "stop:4"};
  const auto game_result = [](const std::string& policies, bool alternate, std::int64_t game) {
    std::vector<double> result;
    SimulationOptions options = Options(Rules{}, policies, game + 1, 11);
    options.alternate_seats = alternate;
    const SimulationResult with = Play(options);
    options.games = game;
    const SimulationResult without = game == 0 ? SimulationResult{} : Play(options);
    for (int seat = 0; seat < 3; ++seat) {
      const double before = game == 0 ? 0 : without.seat_win_rate[seat] * game;
      result.push_back(std::round((with.seat_win_rate[seat] * (game + 1) - before) * 60));
    }
    const double turns_before = game == 0 ? 0 : without.mean_turns * game;
    result.push_back(std::round(with.mean_turns * (game + 1) - turns_before));
    return result;
  };
  for (std::int64_t game = 0; game < 6; ++game) {
    CAPTURE(game);
    const std::vector<int> seated = martiandice::SeatedPolicies(3, game);
    const std::string by_hand = names[seated[0]] + "," + names[seated[1]] + "," + names[seated[2]];
    CHECK(game_result("ev,random,stop:4", true, game) == game_result(by_hand, false, game));
  }
}

TEST_CASE("simulate: fixed seats keep policy k in seat k") {
  // ev against random: with alternation each seat wins about half the games;
  // fixed, seat 0 (ev) wins most and the seat and policy rates coincide.
  SimulationOptions options = Options(Rules{}, "ev,random", 3000);
  options.alternate_seats = false;
  const SimulationResult fixed = Play(options);
  CHECK(fixed.seat_win_rate == fixed.policy_win_rate);
  CHECK(fixed.seat_ci95 == fixed.policy_ci95);
  CHECK(fixed.seat_win_rate[0] > 0.8);
  options.policies = Policies("random,ev");
  const SimulationResult swapped = Play(options);
  CHECK(swapped.seat_win_rate[1] > 0.8);
  // Game 0 is seated alike either way, and plays the same dice.
  options.policies = Policies("ev,random");
  options.games = 1;
  const SimulationResult one_fixed = Play(options);
  options.alternate_seats = true;
  CHECK(Play(options).seat_win_rate == one_fixed.seat_win_rate);
}

TEST_CASE("simulate: a policy that never wins gets the exact binomial bound, not ±0") {
  // random never beats ev in these 200 games (seed 20240613): all shares 0.
  SimulationOptions options = Options(Rules{}, "ev,random", 200);
  options.alternate_seats = false;
  const SimulationResult result = Play(options);
  REQUIRE(result.policy_win_rate[1] == 0);
  const double bound = 1 - std::pow(0.025, 1.0 / 200);  // P(0 wins in 200) = 2.5% at this rate
  CHECK(result.policy_ci95[1] == doctest::Approx(bound).epsilon(1e-12));
  CHECK(result.policy_win_rate[0] == 1);
  CHECK(result.policy_ci95[0] == doctest::Approx(bound).epsilon(1e-12));
  // A rate strictly between keeps the normal approximation.
  options.policies = Policies("ev,ev");
  const SimulationResult even = Play(options);
  CHECK(even.policy_ci95[0] > 0.05);  // about 1.96 * 0.5 / sqrt(200)
  CHECK(even.policy_ci95[0] < 0.08);
}

TEST_CASE("simulate: the seed reproduces the result, whatever the threads") {
  const SolvedTable solved = Solve(Rules{4, 3, 8});
  SimulationOptions options = Options(Rules{4, 3, 8}, "win,stop:5", 5000, 42);
  options.table = solved.table;
  options.threads = 1;
  const SimulationResult first = Play(options);
  options.threads = 3;
  const SimulationResult threaded = Play(options);
  CHECK(first.seat_win_rate == threaded.seat_win_rate);
  CHECK(first.policy_win_rate == threaded.policy_win_rate);
  CHECK(first.seat_ci95 == threaded.seat_ci95);
  CHECK(first.mean_turns == threaded.mean_turns);
  CHECK(first.tied_games == threaded.tied_games);
  options.seed = 43;
  const SimulationResult other = Play(options);
  CHECK((other.seat_win_rate != first.seat_win_rate || other.mean_turns != first.mean_turns));
}

TEST_CASE("simulate: stopped, the games played are games 0..n-1: the result of games = n") {
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    SimulationOptions options = Options(Rules{6, 3, 12}, "ev,stop:5,capped", 200000, 7);
    options.threads = threads;
    std::atomic<bool> stop{false};
    options.stop = &stop;
    std::vector<double> seen;
    options.progress = [&](double fraction) {
      seen.push_back(fraction);
      if (seen.size() == 5) stop = true;  // as Ctrl-C would, mid-run
    };
    const SimulationResult stopped = Play(options);
    CHECK(stopped.interrupted);
    CHECK(stopped.games_asked == 200000);
    CHECK(stopped.games > 0);
    CHECK(stopped.games < 200000);
    REQUIRE(seen.size() >= 5);
    CHECK(std::is_sorted(seen.begin(), seen.end()));
    // The same games asked for outright: the same figures, bit for bit.
    SimulationOptions prefix = Options(Rules{6, 3, 12}, "ev,stop:5,capped", stopped.games, 7);
    const SimulationResult whole = Play(prefix);
    CHECK_FALSE(whole.interrupted);
    CHECK(whole.seat_win_rate == stopped.seat_win_rate);
    CHECK(whole.policy_win_rate == stopped.policy_win_rate);
    CHECK(whole.seat_ci95 == stopped.seat_ci95);
    CHECK(whole.mean_turns == stopped.mean_turns);
    CHECK(whole.tied_games == stopped.tied_games);
  }
  // Stopped before the first game: an error, no result.
  SimulationOptions options = Options(Rules{6, 3, 12}, "ev,ev", 1000, 7);
  std::atomic<bool> stop{true};
  options.stop = &stop;
  const auto none = martiandice::Simulate(options);
  CHECK(absl::IsCancelled(none.status()));
}

TEST_CASE("simulate: win is not worse than ev") {
  const Rules small{4, 3, 8};
  const SolvedTable solved = Solve(small);
  SimulationOptions options = Options(small, "win,ev", 60000);
  options.table = solved.table;
  const SimulationResult result = Play(options);
  const double se = StdError(result.policy_ci95[0]);
  MESSAGE("win vs ev: " << result.policy_win_rate[0] << " +- " << result.policy_ci95[0]
                        << " (95%), " << result.games / result.seconds << " games/s");
  CHECK(result.policy_win_rate[0] >= 0.5 - kZ999 * se);
}

TEST_CASE("simulate: heuristic and random policies play whole games") {
  const SimulationResult result = Play(Options(Rules{}, "ev,stop:8,stop:0,random", 2000));
  CHECK(result.players == 4);
  CHECK(std::fabs(Sum(result.seat_win_rate) - 1) <= 1e-12);
  CHECK(std::fabs(Sum(result.policy_win_rate) - 1) <= 1e-12);
  // Someone reaches 25 with turns of at most 16 points: at least two rounds.
  CHECK(result.mean_turns >= 8);
  CHECK(result.policy_win_rate[0] > result.policy_win_rate[3]);
  CHECK(result.policy_win_rate[1] > result.policy_win_rate[3]);
  CHECK(result.table_path.empty());
}

TEST_CASE("simulate: policies parse") {
  using Kind = PolicySpec::Kind;
  struct Case {
    const char* spec;
    Kind kind;
    int param;
  };
  for (const Case& c : {Case{"win", Kind::kWin, 0}, Case{"ev", Kind::kObjective, 0},
                        Case{"capped:10", Kind::kObjective, 0},
                        Case{"reach:12", Kind::kObjective, 0}, Case{"random", Kind::kRandom, 0},
                        Case{"stop:8", Kind::kStopAt, 8}, Case{"stop:0", Kind::kStopAt, 0}}) {
    CAPTURE(c.spec);
    auto policy = martiandice::ParsePolicy(c.spec);
    REQUIRE(policy.ok());
    CHECK(policy->kind == c.kind);
    CHECK(policy->param == c.param);
    CHECK(policy->name == c.spec);
  }
  for (const char* bad : {"", "bogus", "stop:", "stop:x", "stop:-1", "reach:abc", "Win"}) {
    CAPTURE(bad);
    CHECK(martiandice::ParsePolicy(bad).status().code() == absl::StatusCode::kInvalidArgument);
  }
  CHECK(martiandice::ParsePolicies("win,ev,random")->size() == 3);
  CHECK_FALSE(martiandice::ParsePolicies("win,,ev").ok());
}

TEST_CASE("simulate: bad options and missing tables are InvalidArgument") {
  const Rules small{4, 3, 8};
  auto code = [](const SimulationOptions& options) {
    return martiandice::Simulate(options).status().code();
  };
  CHECK(code(Options(small, "ev", 10)) == absl::StatusCode::kInvalidArgument);
  CHECK(code(Options(small, "ev,ev,ev,ev,ev,ev,ev", 10)) == absl::StatusCode::kInvalidArgument);
  CHECK(code(Options(small, "ev,ev", 0)) == absl::StatusCode::kInvalidArgument);
  SimulationOptions no_table = Options(small, "win,ev", 10);
  no_table.tables_path = "/nonexistent/martiandice-tables";
  const absl::Status missing = martiandice::Simulate(no_table).status();
  CHECK(missing.code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(missing.message()).find("martiandice solve") != std::string::npos);
  SimulationOptions other_rules = Options(Rules{4, 3, 9}, "win,ev", 10);
  other_rules.table = Solve(small).table;
  CHECK(code(other_rules) == absl::StatusCode::kInvalidArgument);
}
