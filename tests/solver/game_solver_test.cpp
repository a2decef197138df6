// The game solver (solver/game_solver.h), every player count: the rounding
// bound it assumes for one turn solve, checked against exact rational solves;
// its error bounds, start values and refusals; the 2-player pair kernel
// against the convention kernel and against the values format version 1
// stored; properties of 3- and 4-player values; agreement with the naive
// reference solver (tests/support/nplayer_naive.h) on tiny games.
#include "game_solver.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_format.h"
#include "certify.h"
#include "convention_turn.h"
#include "martiandice/exact.h"
#include "martiandice/win_query.h"
#include "nplayer_naive.h"
#include "table_format.h"
#include "test_util.h"
#include "turn_model.h"

using namespace martiandice;

#ifndef MARTIANDICE_TEST_DATA_DIR
#error "MARTIANDICE_TEST_DATA_DIR must point at tests/data/"
#endif

namespace {

using test_util::SolveTinyValues;

// Calls fn(context, index) for every context of `players` seats, in the
// numbering order of docs/FORMAT.md.
template <class Fn>
void ForEachContext(const Rules& rules, int players, Fn&& fn) {
  const int target = rules.target, wide = rules.target + MaxTurnScore(rules);
  long long index = 0;
  for (int seat = 0; seat < players; ++seat) {
    std::vector<int> s(players, 0);
    for (;;) {
      fn(GameContext{s, seat}, index++);
      int j = players - 1;
      for (; j >= 0; --j) {
        if (++s[j] < (j < seat ? wide : target)) break;
        s[j] = 0;
      }
      if (j < 0) break;
    }
  }
}

// Every context's win probabilities for `players` seats, and the report.
struct Solve {
  solver::GameValues values;
  solver::GameSolveReport report;
};

Solve SolveWith(const Rules& rules, int players, solver::SolveArithmetic arithmetic,
                int threads = 2) {
  solver::GameSolveOptions options = test_util::TinyOptions(rules, players, threads);
  options.arithmetic = arithmetic;
  Solve out;
  auto values = solver::SolveGameValues(options, &out.report);
  REQUIRE_MESSAGE(values.ok(), values.status().ToString());
  out.values = *std::move(values);
  return out;
}

// The official 2-player game's solve with `arithmetic`, solved once per run.
const Solve& Official2(solver::SolveArithmetic arithmetic) {
  static std::map<solver::SolveArithmetic, std::unique_ptr<Solve>> cache;
  auto& slot = cache[arithmetic];
  if (!slot) slot = std::make_unique<Solve>(SolveWith(Rules{}, 2, arithmetic));
  return *slot;
}

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
  // The official 2-player table (pair kernel), read back with the reader.
  auto table = GameTable::FromBytes(test_util::SolveTinyTable(Rules{}, 2));
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
  CHECK(checked == 30);
  CHECK(worst <= solver::kTurnSolveRounding);
}

TEST_CASE("game solver: 2 players, small rules converge with a stated bound and start value") {
  const Rules rules{5, 2, 10};
  solver::GameSolveReport report;
  const std::string bytes = test_util::SolveTinyTable(rules, 2, &report);
  CHECK(report.contexts == 10 * 10 + 10 * (10 + MaxTurnScore(rules)));
  CHECK(report.cycles == 10 * 10);  // one zero-score cycle per open-round pair of totals
  CHECK(report.max_residual <= 1e-14);
  CHECK(report.error_bound <= 1e-13);
  CHECK(report.error_bound > 0);
  // The pair kernel counts no ties (with 2 players a tie changes no value).
  CHECK(report.tied_decisions == 0);
  CHECK(report.kingmaking == 0);
  CHECK(report.mixed_cycles == 0);
  // The start vector: both seats' chances at the start, as the table stores them.
  REQUIRE(report.start.size() == 2);
  CHECK(report.start[0] > 0.3);
  CHECK(report.start[0] < 0.7);
  CHECK(std::abs(report.start[0] + report.start[1] - 1) <= 2 * report.error_bound);
  auto table = GameTable::FromBytes(bytes);
  REQUIRE(table.ok());
  CHECK(table->format_version() == 3);
  CHECK(table->players() == 2);
  CHECK(table->context_count() == report.contexts);
  CHECK(table->error_bound() == report.error_bound);
  auto start = table->WinProbabilities(GameContext{{0, 0}, 0});
  REQUIRE(start.ok());
  CHECK(*start == report.start);
}

// With 1 die no turn has a decision. The values are checked against a hand
// computation: a turn scores 1 with probability 1/2 (an earthling), else 0.
// With target 1, seat 0 at 0-0 wins W = 1/2 * (1/2 * 1/2 + 1/2) + 1/2 * 1/2 * W,
// so W = 1/2.
TEST_CASE("game solver: 1 die, 2 players, solves to a table that opens, values by hand") {
  solver::GameSolveReport report;
  auto table = GameTable::FromBytes(test_util::SolveTinyTable(Rules{1, 0, 1}, 2, &report));
  REQUIRE(table.ok());
  CHECK(table->context_count() == report.contexts);
  CHECK(report.contexts == 1 + 2);
  const std::vector<std::pair<GameContext, double>> expected = {
      {{{0, 0}, 0}, 0.5},    // seat 0 to move
      {{{0, 0}, 1}, 0.25},   // seat 1 to move: wins at once with 1/2, else back to W
      {{{1, 0}, 1}, 0.75}};  // final round: seat 1 only ties with 1/2
  for (const auto& [context, seat0] : expected) {
    auto win = table->WinProbabilities(context);
    REQUIRE(win.ok());
    CHECK((*win)[0] == doctest::Approx(seat0).epsilon(1e-12));
    CHECK((*win)[1] == doctest::Approx(1 - seat0).epsilon(1e-12));
  }
  auto advice = AdviseWin(*table, GameContext{{0, 0}, 0}, Dice(), Dice(0, 0, 1, 0, 0));
  REQUIRE(advice.ok());
  CHECK(advice->advice.options.size() == 1);
  for (int target : {2, 7}) {
    CAPTURE(target);
    CHECK(GameTable::FromBytes(test_util::SolveTinyTable(Rules{1, 3, target}, 2)).ok());
  }
}

TEST_CASE(
    "game solver: the streamed table file is the table's bytes, a refused one is not written") {
  namespace fs = std::filesystem;
  // Tables of 1 block, and of several (3 players, target 10: 3,990 contexts, 4 blocks).
  for (const auto& row : {std::pair{Rules{3, 3, 5}, 2}, std::pair{Rules{3, 3, 5}, 3},
                          std::pair{Rules{3, 0, 10}, 3}}) {
    const auto& rules = row.first;  // named: clang 14 captures no binding
    const auto& players = row.second;
    CAPTURE(players);
    CAPTURE(rules.target);
    auto values = solver::SolveTableValues(test_util::TinyOptions(rules, players), nullptr);
    REQUIRE(values.ok());
    const std::string bytes =
        internal::SerializeTable(values->rules, values->players, values->error_bound, values->win);
    CHECK(bytes.size() == TableBytes(rules, players));
    const test_util::TempDir dir;
    const std::string path = dir.File("table.mdt");
    std::string seen;
    solver::GameValues consumed = *values;
    absl::Status written =
        solver::WriteGameTable(std::move(consumed), path, [&](const std::string& temp) {
          CHECK(temp != path);
          CHECK_FALSE(fs::exists(path));  // not yet published
          CHECK(consumed.win.empty());    // freed before the read-back
          seen = test_util::ReadFile(temp);
          return absl::OkStatus();
        });
    REQUIRE_MESSAGE(written.ok(), written);
    CHECK(seen == bytes);
    CHECK(test_util::ReadFile(path) == bytes);
    // Refused by the check: the old file stays, no temporary is left.
    test_util::WriteFile(path, "old");
    written = solver::WriteGameTable(solver::GameValues(*values), path, [](const std::string&) {
      return absl::DataLossError("refused");
    });
    CHECK(written.message() == "refused");
    CHECK(test_util::ReadFile(path) == "old");
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);
  }
}

TEST_CASE("game solver limits: a table over the limit is refused up front, fast, with the reason") {
  // Turn-start contexts (docs/FORMAT.md): for each mover i, (target + M)^i x target^(P - i).
  auto contexts = [](const Rules& rules, int players) {
    const long long t = rules.target, a = rules.target + MaxTurnScore(rules);
    long long count = 0;
    for (int i = 0; i < players; ++i) {
      long long size = 1;
      for (int j = 0; j < players; ++j) size *= j < i ? a : t;
      count += size;
    }
    return count;
  };
  const double limit = static_cast<double>(kMaxTableBytes);
  // 5 players under the official rules (6.2 GiB) are solved where memory allows: not run here.
  CHECK(128 + 8.0 * 5 * contexts(Rules{}, 5) < limit);
  // 6 players: 315 GiB, and 6 players at target 18: 76 GiB.
  for (const auto& row : {std::pair{Rules{}, 6}, std::pair{Rules{13, 3, 18}, 6}}) {
    const auto& rules = row.first;  // named: clang 14 captures no binding
    const auto& players = row.second;
    CAPTURE(rules.target);
    const long long n = contexts(rules, players);
    CHECK(128 + 8.0 * players * n > limit);
    solver::GameSolveOptions options = test_util::TinyOptions(rules, players);
    const auto begin = std::chrono::steady_clock::now();
    auto bytes = solver::SolveGameTable(options, nullptr);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    CHECK(ms < 100);
    REQUIRE(bytes.status().code() == absl::StatusCode::kInvalidArgument);
    const std::string message(bytes.status().message());
    MESSAGE(message);
    CHECK(message.find(std::to_string(players) + " players") != std::string::npos);
    CHECK(message.find(std::to_string(n) + " turn-start contexts") != std::string::npos);
    CHECK(message.find("more than the 64 GiB one machine solves") != std::string::npos);
    CHECK(message.find("lower the target or the number of players") != std::string::npos);
    const int processes = rules.target == 18 ? 2 : 5;  // ceil(76 GiB / 64), ceil(315 / 64)
    CHECK(TableSolveProcesses(rules, players) == processes);
    CHECK(message.find(absl::StrFormat("solve on %d ranks at least (mpirun -np %d)", processes,
                                       processes)) != std::string::npos);
  }
  // With 2 players every rule set fits: the largest (20 dice, bonus 100,
  // target 200) is a table of under 2 MB. Not refused: a stop flag set before
  // the solve cancels it before any work instead.
  const Rules largest{kMaxDice, kMaxBonus, kMaxTarget};
  CHECK(128 + 16.0 * contexts(largest, 2) < 2e6);
  for (const auto& row : {std::pair{largest, 2}, std::pair{Rules{}, 3}}) {
    const auto& rules = row.first;  // named: clang 14 captures no binding
    const auto& players = row.second;
    CAPTURE(players);
    std::atomic<bool> stop{true};
    solver::GameSolveOptions options = test_util::TinyOptions(rules, players);
    options.stop = &stop;
    CHECK(absl::IsCancelled(solver::SolveGameTable(options, nullptr).status()));
  }
  // Rules and the player count are checked first.
  solver::GameSolveOptions options = test_util::TinyOptions(Rules{}, kMaxPlayers + 1);
  auto refused = solver::SolveGameTable(options, nullptr);
  REQUIRE(refused.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(std::string(refused.status().message()).find("players must be") != std::string::npos);
  options = test_util::TinyOptions(Rules{0, 3, 25}, 5);
  CHECK(solver::SolveGameTable(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

// ---------------------------------------------------------------------------
// The 2-player pair kernel (players == 2, SolveArithmetic::kAuto).

namespace {

// The pair kernel's values against the convention kernel's at 2 players, in
// double and in extended precision: every value within the two bounds; the
// double convention solve, whose bound is the pair kernel's within a factor 2
// (the same rounding per turn solve), within 1e-15 of it; and all three
// certified.
void CheckKernelsAgree(const Solve& pair, const Solve& dbl, const Solve& ext) {
  CHECK(pair.report.tied_decisions == 0);  // not counted by the pair kernel
  CHECK(pair.report.error_bound > 0);
  CHECK(pair.report.error_bound <= 1e-13);
  for (const Solve* conv : {&dbl, &ext}) {
    const bool extended = conv == &ext;
    CAPTURE(extended);
    REQUIRE(conv->values.win.size() == pair.values.win.size());
    CHECK(conv->report.contexts == pair.report.contexts);
    CHECK(conv->report.kingmaking == 0);  // zero-sum: a tie decides nothing for the other seat
    double worst = 0;
    for (size_t i = 0; i < pair.values.win.size(); ++i) {
      worst = std::max(worst, std::abs(pair.values.win[i] - conv->values.win[i]));
    }
    const double bounds = pair.report.error_bound + conv->report.error_bound;
    MESSAGE("pair kernel vs convention kernel ("
            << (extended ? "extended" : "double") << "): largest gap " << worst << ", bounds "
            << pair.report.error_bound << " + " << conv->report.error_bound);
    CHECK(worst <= bounds);
    for (int seat = 0; seat < 2; ++seat) {
      CHECK(std::abs(pair.report.start[seat] - conv->report.start[seat]) <= bounds);
    }
    if (!extended) {
      CHECK(worst <= 1e-15);
      CHECK(conv->report.error_bound >= 0.5 * pair.report.error_bound);
      CHECK(conv->report.error_bound <= 2 * pair.report.error_bound);
    }
  }
  for (const Solve* solve : {&pair, &dbl, &ext}) {
    auto certification = solver::CertifyGameValues(solve->values);
    REQUIRE(certification.ok());
    CHECK(certification->contexts == pair.report.contexts);
    CHECK(certification->inexact_ties == 0);
    CHECK(certification->kingmaking_ties == 0);
    CHECK(certification->certified);
  }
}

}  // namespace

TEST_CASE("pair kernel: agrees with the convention kernel at 2 players, all certified") {
  for (const Rules& rules : {Rules{3, 0, 5}, Rules{5, 2, 10}, Rules{8, 3, 15}, Rules{1, 0, 3}}) {
    CAPTURE(rules.dice);
    CAPTURE(rules.target);
    CheckKernelsAgree(SolveWith(rules, 2, solver::SolveArithmetic::kAuto),
                      SolveWith(rules, 2, solver::SolveArithmetic::kDouble),
                      SolveWith(rules, 2, solver::SolveArithmetic::kExtended));
  }
}

TEST_CASE("pair kernel: official 2-player game agrees with the convention kernel, all certified") {
  CheckKernelsAgree(Official2(solver::SolveArithmetic::kAuto),
                    Official2(solver::SolveArithmetic::kDouble),
                    Official2(solver::SolveArithmetic::kExtended));
}

// tests/data/p2-format1-mover-win.txt: the official 2-player values as format
// version 1 stored them (the mover's chance at every context, docs/FORMAT.md
// order) and that table's error bound. The solve must give them within the
// two bounds, both seats.
TEST_CASE("pair kernel: the official 2-player values are format version 1's, within both bounds") {
  const std::string path = std::string(MARTIANDICE_TEST_DATA_DIR) + "/p2-format1-mover-win.txt";
  std::ifstream in(path);
  REQUIRE_MESSAGE(in.good(), "cannot read " << path);
  double old_bound = -1;
  std::vector<double> old;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    const char* text = line.c_str();
    const bool bound_line = line.rfind("error_bound ", 0) == 0;
    if (bound_line) text += std::string("error_bound ").size();
    char* end = nullptr;
    const double value = std::strtod(text, &end);
    REQUIRE_MESSAGE((end != text && *end == '\0'), "not a number: " << line);
    if (bound_line) {
      REQUIRE(old.empty());
      old_bound = value;
    } else {
      old.push_back(value);
    }
  }
  REQUIRE(old_bound > 0);
  CHECK(old_bound <= 1e-13);
  const Solve& fresh = Official2(solver::SolveArithmetic::kAuto);
  const double new_bound = fresh.report.error_bound;
  const Rules rules{};
  const long long t = rules.target, a = rules.target + MaxTurnScore(rules);
  REQUIRE(static_cast<long long>(old.size()) == t * t + a * t);
  REQUIRE(fresh.values.win.size() == 2 * old.size());
  double worst = 0;
  long long identical = 0;
  for (size_t i = 0; i < old.size(); ++i) {
    const int mover = static_cast<long long>(i) < t * t ? 0 : 1;  // seat 0's contexts first
    const double mover_new = fresh.values.win[2 * i + mover];
    const double other_new = fresh.values.win[2 * i + 1 - mover];
    worst = std::max({worst, std::abs(mover_new - old[i]), std::abs(other_new - (1 - old[i]))});
    identical += mover_new == old[i];
  }
  MESSAGE("largest gap to format version 1's values "
          << worst << " (bounds " << old_bound << " + " << new_bound << "); " << identical << " of "
          << old.size() << " mover values bit-identical");
  CHECK(worst <= old_bound + new_bound);
  CHECK(fresh.values.win[0] == old[0]);  // seat 0's chance at the start, bit for bit
}

TEST_CASE("pair kernel: deterministic, the number of threads changes no bit") {
  for (const Rules& rules : {Rules{5, 2, 10}, Rules{8, 3, 15}}) {
    CAPTURE(rules.dice);
    const Solve one = SolveWith(rules, 2, solver::SolveArithmetic::kAuto, 1);
    const Solve two = SolveWith(rules, 2, solver::SolveArithmetic::kAuto, 2);
    const Solve again = SolveWith(rules, 2, solver::SolveArithmetic::kAuto, 2);
    CHECK(one.values.win == two.values.win);
    CHECK(two.values.win == again.values.win);
    CHECK(one.values.error_bound == two.values.error_bound);
    // Every figure, turn_solves too (one reuse cache of final-round solves per run).
    CHECK(one.report.turn_solves == two.report.turn_solves);
    CHECK(one.report.cycles == two.report.cycles);
    CHECK(one.report.max_rounds == two.report.max_rounds);
    CHECK(one.report.max_residual == two.report.max_residual);
    CHECK(one.report.start == two.report.start);
  }
}

TEST_CASE("pair kernel: another guess order or a probe is refused") {
  const Rules rules{3, 1, 4};
  test_util::TempDir dir;
  auto refused = [&](const solver::GameSolveOptions& options, const char* what) {
    CAPTURE(what);
    for (bool table : {false, true}) {
      const absl::Status status = table ? solver::SolveGameTable(options, nullptr).status()
                                        : solver::SolveGameValues(options, nullptr).status();
      CHECK(status.code() == absl::StatusCode::kInvalidArgument);
      CHECK(std::string(status.message()).find("2-player solve takes no guess order or probe") !=
            std::string::npos);
    }
  };
  solver::GameSolveOptions options = test_util::TinyOptions(rules, 2);
  for (int order = 2; order <= solver::kMaxGuessOrder; ++order) {
    options = test_util::TinyOptions(rules, 2);
    options.guess_order = order;
    refused(options, "guess order");
  }
  for (int order = 1; order <= solver::kMaxGuessOrder; ++order) {
    options = test_util::TinyOptions(rules, 2);
    options.probe_guess_order = order;
    refused(options, "probe");
  }
  // The convention kernel at 2 players takes them all: the refusals are the pair kernel's.
  for (solver::SolveArithmetic arithmetic :
       {solver::SolveArithmetic::kDouble, solver::SolveArithmetic::kExtended}) {
    options = test_util::TinyOptions(rules, 2);
    options.arithmetic = arithmetic;
    options.checkpoint = dir.File("convention.checkpoint");
    CHECK(solver::SolveGameValues(options, nullptr).ok());
    CHECK(dir.Files().empty());  // removed after a finished solve
    options.checkpoint.clear();
    options.guess_order = 2;
    options.probe_guess_order = 3;
    CHECK(solver::SolveGameValues(options, nullptr).ok());
  }
}

// ---------------------------------------------------------------------------
// The turn solves behind the pair kernel.

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
// ---------------------------------------------------------------------------
// Three or more players (the convention kernel), and every player count against the
// naive reference.

TEST_CASE("game solver: 3 and 4 players, vectors are distributions, threads agree") {
  for (int players : {3, 4}) {
    const Rules rules{4, 2, 6};
    CAPTURE(players);
    solver::GameSolveReport report, report2;
    solver::GameValues one = SolveTinyValues(rules, players, &report, 1);
    solver::GameValues two = SolveTinyValues(rules, players, &report2, 2);
    CHECK(one.win == two.win);  // bit for bit: every context is computed the same way
    CHECK(report.error_bound <= 1e-13);
    CHECK(report.error_bound >= solver::kExtendedTurnRounding);  // at least one solve's rounding
    CHECK(report.max_rounds < 60);
    long long contexts = 0;
    ForEachContext(rules, players, [&](const GameContext&, long long index) {
      double sum = 0;
      for (int seat = 0; seat < players; ++seat) {
        const double w = one.win[index * players + seat];
        CHECK(w >= -1e-15);
        CHECK(w <= 1 + 1e-15);
        sum += w;
      }
      CHECK(std::abs(sum - 1) <= 1e-13);
      ++contexts;
    });
    CHECK(contexts == report.contexts);
  }
}

TEST_CASE("game solver: 3 players, symmetric seats and more points") {
  const Rules rules{5, 2, 8};
  const int players = 3, target = rules.target, wide = target + MaxTurnScore(rules);
  solver::GameSolveReport report;
  solver::GameValues v = SolveTinyValues(rules, players, &report, 2);
  auto win = [&](int seat, std::vector<int> s, int j) {
    const std::int64_t index = naive::NaiveContextIndex(rules, players, seat, s);
    REQUIRE(index >= 0);
    return v.win[index * players + j];
  };
  int symmetric = 0, monotone = 0;
  for (int a = 0; a < wide; ++a) {
    for (int b = 0; b < wide; ++b) {
      for (int c = 0; c < target; ++c) {
        // The last seat's turn: seats 0 and 1 have both played for good or
        // will move again in the same order, so swapping them swaps their
        // chances only in the final round (someone reached the target).
        if (std::max(a, b) >= target) {
          CHECK(win(2, {a, b, c}, 0) == doctest::Approx(win(2, {b, a, c}, 1)).epsilon(1e-13));
          CHECK(win(2, {a, b, c}, 2) == doctest::Approx(win(2, {b, a, c}, 2)).epsilon(1e-13));
          ++symmetric;
        }
        // More points never lower the mover's chance (open rounds).
        if (a < target && b < target && c + 1 < target) {
          CHECK(win(2, {a, b, c + 1}, 2) >= win(2, {a, b, c}, 2) - 1e-13);
          ++monotone;
        }
      }
    }
  }
  CHECK(symmetric > 0);
  CHECK(monotone > 0);
}

TEST_CASE("game solver: double values within their bound of extended precision") {
  // The double solve's bound is propagated as an expectation over each turn's
  // outcomes (game_solver.cpp); the extended solve rounds about 2,000
  // times less per solve, so the gap between the two must stay under the sum
  // of their bounds, and the double bound must not be vacuous.
  for (int players : {3, 4}) {
    CAPTURE(players);
    const Rules rules{5, 2, 8};
    solver::GameSolveOptions options;
    options.rules = rules;
    options.players = players;
    options.threads = 2;
    solver::GameSolveReport dbl_report, ext_report;
    options.arithmetic = solver::SolveArithmetic::kDouble;
    auto dbl = solver::SolveGameValues(options, &dbl_report);
    options.arithmetic = solver::SolveArithmetic::kExtended;
    auto ext = solver::SolveGameValues(options, &ext_report);
    REQUIRE(dbl.ok());
    REQUIRE(ext.ok());
    double worst = 0;
    for (size_t i = 0; i < dbl->win.size(); ++i) {
      worst = std::max(worst, std::abs(dbl->win[i] - ext->win[i]));
    }
    MESSAGE("double vs extended: largest gap " << worst << ", bounds " << dbl_report.error_bound
                                               << " and " << ext_report.error_bound);
    CHECK(worst <= dbl_report.error_bound + ext_report.error_bound);
    CHECK(dbl_report.error_bound <= 1e-13);
    CHECK(dbl_report.error_bound > ext_report.error_bound);
  }
}

TEST_CASE("game solver: bad options are refused") {
  solver::GameSolveOptions options;
  options.players = 1;
  CHECK(solver::SolveGameValues(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
  options.players = kMaxPlayers + 1;
  CHECK(solver::SolveGameValues(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
  options.players = 3;
  options.threads = 0;
  CHECK(solver::SolveGameValues(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
  options.threads = 1;
  for (int order : {0, solver::kMaxGuessOrder + 1}) {
    options.guess_order = order;
    auto refused = solver::SolveGameValues(options, nullptr);
    CHECK(refused.status().code() == absl::StatusCode::kInvalidArgument);
    CHECK(std::string(refused.status().message()).find("guess order") != std::string::npos);
  }
  // Another start selects another equilibrium: a checkpoint must not mix them.
  options.guess_order = 3;
  options.checkpoint = "unused.ckpt";
  CHECK(solver::SolveGameValues(options, nullptr).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

namespace {

// |approx - exact| for an exact value numerator / (den * 6^exponent).
double Gap(double approx, const BigInt& numerator, const BigInt& den, int exponent) {
  BigInt pow6 = 1;
  for (int i = 0; i < exponent; ++i) pow6 *= 6;
  Rational exact(numerator, den * pow6);
  return std::abs(static_cast<double>(Rational(approx) - exact));
}

// The same for an extended value, taken exactly (64-bit significand).
double WideGap(long double approx, const Rational& exact) {
  int e = 0;
  const long double m = std::frexp(std::abs(approx), &e);
  const auto significand = static_cast<unsigned long long>(std::ldexp(m, 64));
  Rational wide = Rational(BigInt(significand));
  wide *= e >= 64 ? Rational(BigInt(1) << (e - 64)) : Rational(BigInt(1), BigInt(1) << (64 - e));
  if (approx < 0) wide = -wide;
  return std::abs(static_cast<double>(wide - exact));
}

}  // namespace

TEST_CASE("game solver: one turn solve rounds within the bound it assumes") {
  auto model = internal::TurnModel::Get(Rules{});
  const int start = model->Id(0, 0, 0, 0, 0);
  const int exponent = internal::TurnModel::DenominatorExponent(Rules{}.dice);
  const int m = model->MaxScore();
  std::uint64_t state = 12345;
  auto uniform = [&] {  // a fixed LCG: the test needs varied, not random, utilities
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  double worst_extended = 0, worst_double = 0, worst_wide = 0, worst_law = 0, worst_mass = 0;
  int carried_checks = 0;
  internal::ConventionPolicy policy;
  std::vector<long double> law;
  for (int trial = 0; trial < 6; ++trial) {
    std::vector<double> u(m + 1), w(m + 1);
    for (int x = 0; x <= m; ++x) {
      u[x] = uniform();
      w[x] = uniform();
    }
    std::sort(u.begin() + 1, u.end());  // more points worth more, as in a game
    if (trial % 2 == 1) std::fill(u.begin() + 1, u.begin() + 6, u[6]);  // a plateau: ties
    std::vector<std::vector<double>> carried = {w};
    internal::ConventionTurn ext, dbl;
    internal::SolveConvention(*model, u, carried, 1u, internal::Arithmetic::kExtended, &ext);
    internal::SolveConvention(*model, u, carried, 1u, internal::Arithmetic::kDouble, &dbl, &policy);
    // The settling solve's way (game_solver.cpp SettleMover): the double
    // solve's policy, its turn score's law, expectations in extended.
    internal::PolicyScoreLaw(*model, policy, &law);
    REQUIRE(static_cast<int>(law.size()) == m + 1);
    long double law_u = 0, law_w = 0, mass = 0;
    for (int x = 0; x <= m; ++x) {
      CHECK(law[x] >= 0);
      law_u += law[x] * u[x];
      law_w += law[x] * w[x];
      mass += law[x];
    }
    worst_mass = std::max(worst_mass, static_cast<double>(std::abs(mass - 1)));
    // A plateau of the utility makes the mover indifferent between scores
    // that w tells apart: kingmaking, which the counter must see.
    CHECK((ext.kingmaking > 0) == (trial % 2 == 1));
    // Exact: V(u) and V(u + t w) = V(u) + t E[w] for a tiny rational t,
    // which only breaks exact ties: without kingmaking none changes E[w].
    const Rational t(1, BigInt(1) << 80);
    std::vector<Rational> eu(u.begin(), u.end()), euw(m + 1);
    for (int x = 0; x <= m; ++x) euw[x] = eu[x] + t * Rational(w[x]);
    auto exact_u = internal::SolveExact(*model, eu);
    auto exact_uw = internal::SolveExact(*model, euw);
    const Rational vu(exact_u.roll[start], exact_u.denominator * pow(BigInt(6), exponent));
    const Rational vuw(exact_uw.roll[start], exact_uw.denominator * pow(BigInt(6), exponent));
    const Rational ew = (vuw - vu) / t;
    for (auto [turn, worst] : {std::pair{&ext, &worst_extended}, std::pair{&dbl, &worst_double}}) {
      *worst =
          std::max(*worst, Gap(turn->value, exact_u.roll[start], exact_u.denominator, exponent));
      if (ext.kingmaking == 0) {
        *worst = std::max(*worst, std::abs(static_cast<double>(Rational(turn->carried[0]) - ew)));
        ++carried_checks;
      }
    }
    // Before rounding to double, the extended sums alone.
    worst_wide = std::max(worst_wide, WideGap(ext.wide_value, vu));
    if (ext.kingmaking == 0) worst_wide = std::max(worst_wide, WideGap(ext.wide_carried[0], ew));
    worst_law = std::max(worst_law, WideGap(law_u, vu));
    if (ext.kingmaking == 0) worst_law = std::max(worst_law, WideGap(law_w, ew));
    worst_extended = std::max(worst_extended, Gap(static_cast<double>(law_u), exact_u.roll[start],
                                                  exact_u.denominator, exponent));
    // The convention changes no value of the mover: the plain solve agrees.
    CHECK(std::abs(dbl.value - internal::SolveDouble(*model, u).value[start]) <= 1e-15);
  }
  MESSAGE("largest rounding: extended "
          << worst_extended << ", double " << worst_double << ", extended before storing "
          << worst_wide << ", the policy's score law " << worst_law << " (its mass off 1 by "
          << worst_mass << ")");
  CHECK(worst_wide <= solver::kWideTurnRounding);
  CHECK(worst_law <= solver::kWideTurnRounding);
  CHECK(worst_mass <= 1e-18);
  CHECK(carried_checks > 0);
  CHECK(worst_extended <= solver::kExtendedTurnRounding);
  CHECK(worst_double <= solver::kTurnSolveRounding);
}

// The policy-iteration rounds skip re-solving a mover whose utility[0] moved
// within the range its last solve reported (game_solver.cpp MarkStale):
// solving again anywhere in that range must record the same actions and
// count the same ties, which this checks by solving again.
TEST_CASE("game solver: a solve's range of utility[0] keeps its actions and ties") {
  auto model = internal::TurnModel::Get(Rules{});
  const int m = model->MaxScore();
  std::uint64_t state = 777;
  auto uniform = [&] {  // a fixed LCG, as above
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;
  };
  std::vector<double> indicator(m + 1, 0.0);
  indicator[0] = 1;
  int ranges = 0, closed = 0, resolves = 0;
  double widest = 0;
  for (int trial = 0; trial < 8; ++trial) {
    std::vector<double> u(m + 1), w(m + 1);
    for (int x = 0; x <= m; ++x) {
      u[x] = uniform();
      w[x] = uniform();
    }
    std::sort(u.begin() + 1, u.end());
    if (trial % 4 == 3) std::fill(u.begin() + 1, u.begin() + 6, u[6]);  // ties, kingmaking
    if (trial % 4 == 1) u[0] = u[2];  // a zero-score turn worth as much as 2 points
    const std::vector<std::vector<double>> carried = {indicator, w};
    internal::ConventionPolicy base;
    base.zero_lane = 0;
    internal::ConventionTurn turn;
    internal::SolveConvention(*model, u, carried, 2u, internal::Arithmetic::kDouble, &turn, &base);
    CHECK(base.below >= 0);
    CHECK(base.above >= 0);
    CHECK(base.below <= internal::kRangeCap);
    CHECK(base.above <= internal::kRangeCap);
    if (base.below == 0 && base.above == 0) {
      ++closed;
      continue;
    }
    ++ranges;
    widest = std::max({widest, base.below, base.above});
    const long long tied = turn.tied_decisions, kingmaking = turn.kingmaking;
    for (double f : {-1.0, -0.5, -1e-3, 1e-3, 0.5, 1.0}) {
      std::vector<double> moved = u;
      moved[0] += f < 0 ? f * base.below : f * base.above;
      internal::ConventionPolicy again;
      internal::SolveConvention(*model, moved, carried, 2u, internal::Arithmetic::kDouble, &turn,
                                &again);
      CHECK(again.rolls == base.rolls);
      CHECK(again.take == base.take);
      CHECK(turn.tied_decisions == tied);
      CHECK(turn.kingmaking == kingmaking);
      ++resolves;
    }
  }
  MESSAGE(ranges << " ranges (widest " << widest << "), " << closed << " closed, " << resolves
                 << " solves inside them");
  // Generic utilities have a range: a check that never ran would prove nothing.
  CHECK(ranges >= 4);
}

TEST_CASE("game solver: a recorded policy has each law's classes at its own entries") {
  // TurnModel::LawClassBegin numbers every law's outcome classes; a solve
  // records each class's action there (0: the rays, x: take x earthlings) and
  // PolicyScoreLaw reads them back. Each entry must be an action of its own
  // law's class: the rays (their child, or -1 without rays, when the class
  // shows no untaken type), or a take the class allows.
  for (const Rules& rules : {Rules{}, Rules{6, 3, 13}}) {
    auto model = internal::TurnModel::Get(rules);
    const int m = model->MaxScore();
    std::vector<double> u(m + 1), zero(m + 1, 0.0);
    for (int x = 0; x <= m; ++x) u[x] = (x * 7 % 11) / 10.0 + x;  // bumpy: varied picks
    zero[0] = 1;
    const std::vector<std::vector<double>> carried = {zero};
    internal::ConventionPolicy policy;
    internal::ConventionTurn turn;
    internal::SolveConvention(*model, u, carried, 0u, internal::Arithmetic::kDouble, &turn,
                              &policy);
    REQUIRE(static_cast<int>(policy.take.size()) == model->LawClassCount());
    int laws = 0, entries = 0, takes = 0;
    for (int group = 0; group < model->size(); ++group) {
      const internal::CanonState& g = model->state(group);
      for (int q = 0; q <= g.left; ++q, ++laws) {
        const int law = model->LawIndex(group, q);
        const auto& classes = model->Classes(g.untaken, q);
        REQUIRE(model->LawClassBegin(law + 1) - model->LawClassBegin(law) ==
                static_cast<int>(classes.size()));
        for (size_t c = 0; c < classes.size(); ++c, ++entries) {
          const int x = policy.take[model->LawClassBegin(law) + c];
          bool allowed = x == 0;
          for (int i = 0; i < classes[c].takes; ++i) {
            const bool take = x == classes[c].take[i];
            takes += take && !allowed;
            allowed = allowed || take;
          }
          CHECK(allowed);
        }
      }
    }
    CHECK(laws == model->LawCount());
    CHECK(entries == model->LawClassCount());
    CHECK(takes > 0);  // some classes took earthlings: not only rays recorded
  }
}

TEST_CASE("game solver: agrees with the naive full-state solver on tiny games") {
  struct Case {
    Rules rules;
    int players;
  };
  for (Case c : {Case{{2, 0, 3}, 2}, Case{{3, 3, 5}, 2}, Case{{4, 2, 6}, 2}, Case{{2, 0, 3}, 3},
                 Case{{3, 1, 4}, 3}, Case{{3, 3, 5}, 3}, Case{{4, 3, 6}, 3}, Case{{2, 1, 3}, 4}}) {
    CAPTURE(c.rules.dice);
    CAPTURE(c.rules.target);
    CAPTURE(c.players);
    auto naive = naive::NaiveGameValues(c.rules, c.players);
    REQUIRE(naive.ok());
    REQUIRE(naive->converged);
    solver::GameSolveReport report;
    solver::GameValues fast = SolveTinyValues(c.rules, c.players, &report, 2);
    REQUIRE(static_cast<long long>(naive->values.size()) == report.contexts);
    double worst = 0;
    for (size_t i = 0; i < naive->values.size(); ++i) {
      for (int seat = 0; seat < c.players; ++seat) {
        worst = std::max(worst, std::abs(naive->values[i][seat] - fast.win[i * c.players + seat]));
      }
    }
    MESSAGE("largest gap to the naive solver: " << worst);
    CHECK(worst <= 1e-12);
    // The same counts of kingmaking: none, or some on both sides (2 players:
    // none, and the pair kernel does not count ties).
    CHECK((naive->takes.kingmaking + naive->stop_roll.kingmaking > 0) == (report.kingmaking > 0));
    // The start vector the report gives is the reference's.
    REQUIRE(static_cast<int>(report.start.size()) == c.players);
    for (int seat = 0; seat < c.players; ++seat) {
      CHECK(std::abs(report.start[seat] - naive->values[0][seat]) <= 1e-12);
    }
  }
}
