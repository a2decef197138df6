// Certification (solver/certify.h) of a game's values, every player count:
// solved tables and values are certified, the reader's turn solve is the
// convention solve, perturbed values (a decision nudged across, ties made
// inexact, a larger bound) are caught, the two 2-player kernels' values give
// the same figures, bad input is refused; and a driver for the official
// 3-player game (skipped unless asked for by name: -tc="*official 3-player*").
#include "certify.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "convention_turn.h"
#include "game_solver.h"
#include "martiandice/distribution.h"
#include "martiandice/table.h"
#include "nplayer_naive.h"
#include "table_builder.h"
#include "test_util.h"
#include "turn_model.h"

using namespace martiandice;

namespace {

using test_util::SolveTinyValues;

void CheckConsistent(const solver::CertificationReport& r) {
  CHECK(r.ties == r.symmetric_ties + r.exact_ties + r.inexact_ties);
  CHECK(r.structural_ties <= r.exact_ties);
  CHECK(r.kingmaking_ties <= r.ties);
  CHECK(r.tie_tolerance == 1e-12);
  CHECK(r.value_threshold == 2 * (r.error_bound + solver::kReaderTurnRounding));
  const double bound =
      std::isnan(r.derived_bound) ? r.error_bound : std::max(r.error_bound, r.derived_bound);
  CHECK(r.margin_threshold == 2 * (bound + solver::kReaderTurnRounding));
  // The derived bound covers at least each context's own distance to its solve.
  if (!std::isnan(r.derived_bound)) CHECK(r.derived_bound >= r.largest_value_gap);
}

// The index of the context where `seat` moves with totals `scores`
// (docs/FORMAT.md numbering, from the naive reference: not the solver's).
long long Index(const Rules& rules, int seat, const std::vector<int>& scores) {
  const std::int64_t index =
      naive::NaiveContextIndex(rules, static_cast<int>(scores.size()), seat, scores);
  REQUIRE(index >= 0);
  return index;
}

// The number of turn-start contexts (docs/FORMAT.md): for each mover i,
// (target + M)^i x target^(P - i).
long long ContextCount(const Rules& rules, int players) {
  const long long t = rules.target, a = rules.target + MaxTurnScore(rules);
  long long count = 0;
  for (int i = 0; i < players; ++i) {
    long long size = 1;
    for (int j = 0; j < players; ++j) size *= j < i ? a : t;
    count += size;
  }
  return count;
}

solver::GameValues SolveWith(const Rules& rules, int players, solver::SolveArithmetic arithmetic) {
  solver::GameSolveOptions options = test_util::TinyOptions(rules, players);
  options.arithmetic = arithmetic;
  auto values = solver::SolveGameValues(options, nullptr);
  REQUIRE_MESSAGE(values.ok(), values.status().ToString());
  return *std::move(values);
}

}  // namespace

TEST_CASE("certify: a small 2-player table, read back, is certified, ties exact") {
  const Rules rules{5, 3, 10};
  auto table = GameTable::FromBytes(test_util::SolveTinyTable(rules, 2));
  REQUIRE(table.ok());
  auto report = solver::CertifyTable(*table);
  REQUIRE(report.ok());
  CheckConsistent(*report);
  CHECK(report->contexts == 10 * 10 + 10 * (10 + MaxTurnScore(rules)));
  CHECK(report->decisions > 10000);
  CHECK(report->ties > 0);
  CHECK(report->symmetric_ties > 0);
  CHECK(report->inexact_ties == 0);
  CHECK(report->kingmaking_ties == 0);  // zero-sum: a tie decides nothing for the other seat
  CHECK(report->error_bound == table->error_bound());
  CHECK(report->smallest_margin > report->margin_threshold);
  CHECK(report->smallest_margin > report->tie_tolerance);
  CHECK(report->largest_value_gap < 1e-13);
  CHECK(report->certified);
}

TEST_CASE("certify: a table read back gives the figures of the values it was written from") {
  for (int players : {2, 3}) {
    CAPTURE(players);
    const Rules rules{4, 3, 8};
    const solver::GameValues values = SolveTinyValues(rules, players);
    auto table = GameTable::FromBytes(test_util::SolveTinyTable(rules, players));
    REQUIRE(table.ok());
    auto from_table = solver::CertifyTable(*table, {.threads = 1});
    auto from_values = solver::CertifyGameValues(values, {.threads = 1});
    REQUIRE(from_table.ok());
    REQUIRE(from_values.ok());
    CHECK(from_table->contexts == from_values->contexts);
    CHECK(from_table->decisions == from_values->decisions);
    CHECK(from_table->ties == from_values->ties);
    CHECK(from_table->symmetric_ties == from_values->symmetric_ties);
    CHECK(from_table->exact_ties == from_values->exact_ties);
    CHECK(from_table->smallest_margin == from_values->smallest_margin);
    CHECK(from_table->largest_value_gap == from_values->largest_value_gap);
    CHECK(from_table->error_bound == values.error_bound);
    CHECK(from_table->certified);
    CHECK(from_values->certified);
  }
}

TEST_CASE("certify: the two 2-player kernels' values give the same figures") {
  // The pair kernel (kAuto) and the convention kernel in double: their values
  // differ in the last bits at most, so every decision and tie is the same.
  const Rules rules{5, 3, 10};
  const solver::GameValues pair = SolveWith(rules, 2, solver::SolveArithmetic::kAuto);
  const solver::GameValues convention = SolveWith(rules, 2, solver::SolveArithmetic::kDouble);
  auto a = solver::CertifyGameValues(pair);
  auto b = solver::CertifyGameValues(convention);
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CheckConsistent(*a);
  CheckConsistent(*b);
  CHECK(a->contexts == b->contexts);
  CHECK(a->decisions == b->decisions);
  CHECK(a->ties == b->ties);
  // Which tie counts as symmetric depends on the order of options whose
  // doubles are equal or a few ulps apart (a tie between rays and two equal
  // earthling counts is "symmetric" only when the earthlings come out ahead):
  // the split between symmetric and exact may differ a little, their sum may not.
  CHECK(a->symmetric_ties + a->exact_ties == b->symmetric_ties + b->exact_ties);
  CHECK(std::abs(a->symmetric_ties - b->symmetric_ties) <= b->symmetric_ties / 100);
  CHECK(a->inexact_ties == 0);
  CHECK(b->inexact_ties == 0);
  CHECK(std::abs(a->smallest_margin - b->smallest_margin) < 1e-13);
  CHECK(a->kingmaking_ties == 0);
  CHECK(b->kingmaking_ties == 0);
  CHECK(a->certified);
  CHECK(b->certified);
}

// Seat 0 moving at totals (s0, s1), after setting aside 1 Ray, 1 Human and
// 1 Cow of 4 dice (2 points), stops with utility u[2] or rolls the last die:
// a Tank, a Ray, a Human or a Cow (5/6) ends the turn with 2 points, a
// Chicken (1/6) with 3 + bonus; so rolling is worth 5/6 u[2] + 1/6 u[3 + b].
// u[x] is seat 0's stored chance at (s0 + x, s1) with seat 1 to move. Setting
// u[3 + b] to u[2] - 6e-13 flips the decision to stopping, by 1e-13: within
// the tie tolerance, but not an exact tie. The context's own vector is set to
// its turn's value over the changed utilities (a plain double turn solve), so
// that it still solves its own turn. The values are crafted directly, not
// written and read back.
TEST_CASE("certify: 2 players, a decision nudged across is not certified") {
  const Rules rules{4, 3, 8};
  const int bonus = rules.bonus, top = MaxTurnScore(rules);
  auto model = internal::TurnModel::Get(rules);
  const solver::GameValues values = SolveTinyValues(rules, 2);
  auto clean = solver::CertifyGameValues(values, {.threads = 1});
  REQUIRE(clean.ok());
  REQUIRE(clean->certified);
  for (const auto& row : {std::pair{0, 0}, std::pair{1, 5}}) {
    const auto& s0 = row.first;  // named: clang 14 captures no binding
    const auto& s1 = row.second;
    CAPTURE(s0);
    CAPTURE(s1);
    solver::GameValues nudged = values;
    const double u2 = values.win[2 * Index(rules, 1, {s0 + 2, s1})];
    const long long high = Index(rules, 1, {s0 + 3 + bonus, s1});
    REQUIRE(values.win[2 * high] - u2 > 1e-3);  // rolling was clearly better
    const double after = u2 - 6e-13;
    nudged.win[2 * high] = after;
    nudged.win[2 * high + 1] = 1 - after;
    std::vector<double> utility(top + 1);
    for (int x = 0; x <= top; ++x) utility[x] = nudged.win[2 * Index(rules, 1, {s0 + x, s1})];
    const double turn = internal::SolveDouble(*model, utility).value[model->Id(0, 0, 0, 0, 0)];
    const long long context = Index(rules, 0, {s0, s1});
    nudged.win[2 * context] = turn;
    nudged.win[2 * context + 1] = 1 - turn;
    auto report = solver::CertifyGameValues(nudged, {.threads = 1});
    REQUIRE(report.ok());
    CheckConsistent(*report);
    CHECK(report->inexact_ties > 0);
    CHECK(report->largest_inexact_gap > 0);
    CHECK(report->largest_inexact_gap <= 1e-12);
    CHECK_FALSE(report->certified);
    // An example points at the flipped decision: seat 0's utility there
    // holds the nudged value.
    bool found = false;
    for (const solver::CertificationReport::InexactTie& e : report->inexact_examples) {
      REQUIRE(e.utility.size() == static_cast<size_t>(top + 1));
      if (e.seat == 0 && e.scores == std::vector<int>{s0, s1} && e.utility[3 + bonus] == after &&
          e.utility[2] == u2) {
        found = true;
        CHECK(e.gap > 0);
        CHECK(e.gap <= report->largest_inexact_gap);
      }
    }
    CHECK(found);
  }
}

TEST_CASE("certify: stored values that do not solve their own turns are not certified") {
  // Two players: two contexts' vectors swapped. Each is a valid probability
  // vector, but neither is its turn's value any more.
  const Rules rules{4, 3, 8};
  const solver::GameValues values = SolveTinyValues(rules, 2);
  auto clean = solver::CertifyGameValues(values, {.threads = 1});
  REQUIRE(clean.ok());
  REQUIRE(clean->certified);
  CHECK(clean->mixed_contexts == 0);
  CHECK(clean->largest_value_gap <= clean->margin_threshold);
  solver::GameValues swapped = values;
  const long long low = Index(rules, 1, {2, 0}), high = Index(rules, 1, {6, 0});
  REQUIRE(std::abs(values.win[2 * low] - values.win[2 * high]) > 0.1);
  std::swap(swapped.win[2 * low], swapped.win[2 * high]);
  std::swap(swapped.win[2 * low + 1], swapped.win[2 * high + 1]);
  auto report = solver::CertifyGameValues(swapped, {.threads = 1});
  REQUIRE(report.ok());
  CHECK(report->largest_value_gap > 0.1);
  CHECK_FALSE(report->certified);

  // Three players: one context's vector moved by 1e-9 between two seats (its
  // sum still 1): the gap to its own turn solve is far above the threshold,
  // and certification fails; moved by a tenth of the threshold, it passes.
  const Rules three{3, 0, 5};
  const solver::GameValues base = SolveTinyValues(three, 3);
  auto ok = solver::CertifyGameValues(base, {.threads = 1});
  REQUIRE(ok.ok());
  REQUIRE(ok->certified);
  const long long context = 3 * Index(three, 1, {2, 1, 3});
  for (const double move : {1e-9, ok->margin_threshold / 10}) {
    CAPTURE(move);
    solver::GameValues moved = base;
    REQUIRE(moved.win[context + 1] > move);
    moved.win[context + 1] -= move;  // the mover's own chance
    moved.win[context + 2] += move;
    auto r = solver::CertifyGameValues(moved, {.threads = 1});
    REQUIRE(r.ok());
    CHECK(r->largest_value_gap >= move * 0.99);
    CHECK(r->certified == (move < ok->margin_threshold));
  }
}

// With 4 players another seat's stored chance may differ from the pure turn
// solve: a mixed cycle's mixture. It must still be a mixture of what the
// mover's options within the threshold of its best give that seat. Moved
// between two other seats, a context is taken for mixed, and the move is
// caught as a gap past that range; the real mixed cycle passes
// (mixed_cycle_test.cpp).
TEST_CASE("certify: another seat's chance outside every mixture of the mover's options fails") {
  const Rules rules{3, 0, 5};
  const solver::GameValues base = SolveTinyValues(rules, 4);
  auto clean = solver::CertifyGameValues(base, {.threads = 1});
  REQUIRE(clean.ok());
  REQUIRE(clean->certified);
  CHECK(clean->mixed_contexts == 0);
  const long long context = 4 * Index(rules, 1, {2, 1, 3, 0});
  for (const double move : {1e-6, 1e-3}) {
    CAPTURE(move);
    solver::GameValues moved = base;
    REQUIRE(moved.win[context + 2] > move);
    moved.win[context + 2] -= move;  // seat 2's chance to seat 3: the mover's own unchanged
    moved.win[context + 3] += move;
    auto r = solver::CertifyGameValues(moved, {.threads = 1});
    REQUIRE(r.ok());
    CHECK(r->mixed_contexts >= 1);  // it, and contexts whose turns end there
    CHECK(r->largest_value_gap >= move * 0.99);
    CHECK_FALSE(r->certified);
  }
}

// A table someone gave you: the shipped 2-player table altered at
// one context, both checksums recomputed by the test's own writer from
// docs/FORMAT.md (tests/support/table_builder.h), and certified through the command
// line. The reader accepts it and `eval` answers from it; `certify --tables`
// refuses it (exit 3, NOT certified): two win probabilities swapped, or a
// value moved by 5e-13 between the seats. Moved by 5e-14 (below the margin
// threshold, 1.7e-13) it is certified, as the table unaltered is.
TEST_CASE("certify: altered tables with recomputed checksums are not certified (CLI)") {
  namespace tb = table_builder;
  const std::string name = "martiandice-p2-d13-b3-t25.mdt";
  const std::string shipped = test_util::ReadFile(std::string(MARTIANDICE_DATA_DIR) + "/" + name);
  REQUIRE(shipped.size() == 26536);
  const std::int64_t context = tb::ContextIndex(Rules{}, 2, 0, {10, 12});
  const std::size_t at =
      static_cast<std::size_t>(tb::GetU64(shipped, tb::offset::kContextsOffset) + 16 * context);
  const double seat0 = tb::GetF64(shipped, at), seat1 = tb::GetF64(shipped, at + 8);
  REQUIRE(std::abs(seat0 - seat1) > 0.1);
  const test_util::TempDir dir;
  const std::string file = dir.File(name);
  auto run = [&](const std::string& bytes, std::vector<std::string> args) {
    test_util::WriteFile(file, bytes);
    args.insert(args.end(), {"--tables", file});
    return cli_test::Run(args);
  };
  auto certify = [&](const std::string& bytes) { return run(bytes, {"certify", "--quiet"}); };

  const cli_test::CliRun clean = certify(shipped);
  INFO("stderr: " << clean.err);
  REQUIRE(clean.code == 0);
  CHECK(clean.out.find("every decision and value is certified") != std::string::npos);

  std::string swapped = shipped;
  tb::PutF64(swapped, at, seat1);
  tb::PutF64(swapped, at + 8, seat0);
  tb::RefreshChecksums(swapped);
  const cli_test::Json eval = cli_test::ParseJsonOrFail(
      run(swapped, {"eval", "--objective", "win", "--scores", "10,12", "--json"}).out);
  CHECK(eval["win_probabilities"].items[0].number == seat1);  // read as altered
  const cli_test::CliRun refused = certify(swapped);
  CHECK(refused.code == 3);
  CHECK(refused.err.empty());
  CHECK(refused.out.find("Certification: NOT certified") != std::string::npos);

  for (const double move : {5e-13, 5e-14}) {
    CAPTURE(move);
    std::string moved = shipped;
    tb::PutF64(moved, at, seat0 + move);
    tb::PutF64(moved, at + 8, seat1 - move);
    tb::RefreshChecksums(moved);
    REQUIRE(moved != shipped);
    const cli_test::CliRun checked = certify(moved);
    CHECK(checked.code == (move > 1.73e-13 ? 3 : 0));
  }
}

TEST_CASE("certify: tiny 3- and 4-player solves are certified, no kingmaking") {
  struct Case {
    Rules rules;
    int players;
  };
  for (const Case& c : {Case{Rules{3, 1, 4}, 3}, Case{Rules{4, 3, 8}, 3}, Case{Rules{5, 2, 10}, 3},
                        Case{Rules{3, 1, 5}, 4}}) {
    CAPTURE(c.rules.dice);
    CAPTURE(c.rules.target);
    CAPTURE(c.players);
    solver::GameSolveReport solve;
    const solver::GameValues values = SolveTinyValues(c.rules, c.players, &solve);
    auto report = solver::CertifyGameValues(values);
    REQUIRE(report.ok());
    CheckConsistent(*report);
    CHECK(report->contexts == ContextCount(c.rules, c.players));
    CHECK(report->decisions > 100);
    CHECK(report->ties > 0);
    CHECK(report->inexact_ties == 0);
    CHECK(report->smallest_margin > report->margin_threshold);
    CHECK(report->error_bound == values.error_bound);
    // The solver's own count (per decision point) is 0 too; ours is independent.
    CHECK(solve.kingmaking == 0);
    CHECK(report->kingmaking_ties == 0);
    CHECK(report->kingmaking_contexts == 0);
    // The reader's solve of each context reproduces its stored vector.
    CHECK(report->largest_value_gap < 1e-13);
    CHECK(report->certified);
  }
}

TEST_CASE("certify: the reader's solve is the convention turn solve, bit for bit") {
  // Every context's turn solved with internal::SolveConvention in double
  // over utilities built here from docs/PLAYERS.md (every other seat
  // carried): the largest gap to the stored vectors must be the report's,
  // exactly, if the certifier's own solve performs the same operations.
  const Rules rules{4, 3, 8};
  const int players = 3;
  const solver::GameValues values = SolveTinyValues(rules, players, nullptr);
  auto report = solver::CertifyGameValues(values);
  REQUIRE(report.ok());
  const int target = rules.target, wide = target + MaxTurnScore(rules), top = MaxTurnScore(rules);
  auto model = internal::TurnModel::Get(rules);
  double largest = 0;
  long long contexts = 0;
  for (int seat = 0; seat < players; ++seat) {
    std::vector<int> s(players, 0);
    for (;;) {
      const long long c = Index(rules, seat, s);
      std::vector<double> utility(top + 1);
      std::vector<std::vector<double>> carried(players - 1, std::vector<double>(top + 1));
      bool final_round = false;
      for (int j = 0; j < seat; ++j) final_round |= s[j] >= target;
      for (int x = 0; x <= top; ++x) {
        std::vector<int> next = s;
        next[seat] += x;
        std::vector<double> vec(players);
        if (seat == players - 1 && (final_round || next[seat] >= target)) {
          const int best = *std::max_element(next.begin(), next.end());
          const auto leaders = std::count(next.begin(), next.end(), best);
          for (int j = 0; j < players; ++j) vec[j] = next[j] == best ? 1.0 / leaders : 0.0;
        } else {
          const long long n = Index(rules, (seat + 1) % players, next);
          vec.assign(&values.win[n * players], &values.win[n * players] + players);
        }
        utility[x] = vec[seat];
        for (int j = 0, k = 0; j < players; ++j) {
          if (j != seat) carried[k++][x] = vec[j];
        }
      }
      internal::ConventionTurn turn;
      internal::SolveConvention(*model, utility, carried, 0, internal::Arithmetic::kDouble, &turn);
      largest = std::max(largest, std::abs(turn.value - values.win[c * players + seat]));
      for (int j = 0, k = 0; j < players; ++j) {
        if (j != seat) {
          largest = std::max(largest, std::abs(turn.carried[k++] - values.win[c * players + j]));
        }
      }
      ++contexts;
      int j = players - 1;
      for (; j >= 0; --j) {
        if (++s[j] < (j < seat ? wide : target)) break;
        s[j] = 0;
      }
      if (j < 0) break;
    }
  }
  CHECK(contexts == report->contexts);
  CHECK(largest > 0);
  CHECK(largest == report->largest_value_gap);
}

// Every context's expected number of turns left in the game, each turn played
// as the table advises (TurnScoreDistribution: the public queries' forward
// pass, not the certifier's solve), by plain value iteration.
std::vector<double> TurnsLeft(const GameTable& table) {
  const Rules rules = table.rules();
  const int n = table.players();
  const int wide = rules.target + MaxTurnScore(rules);
  struct Context {
    int seat;
    std::vector<int> scores;
    std::vector<double> law;
  };
  std::vector<Context> contexts(static_cast<size_t>(table.context_count()));
  std::vector<int> s(n, 0);
  for (bool more = true; more;) {
    for (int seat = 0; seat < n; ++seat) {
      const std::int64_t c = naive::NaiveContextIndex(rules, n, seat, s);
      if (c < 0) continue;
      auto law = TurnScoreDistribution(table, GameContext{s, seat});
      REQUIRE(law.ok());
      contexts[static_cast<size_t>(c)] = {seat, s, law->probability};
    }
    int j = n - 1;
    while (j >= 0 && ++s[j] == wide) s[j--] = 0;
    more = j >= 0;
  }
  std::vector<double> left(contexts.size(), 0.0);
  for (double moved = 1; moved > 1e-13;) {
    moved = 0;
    for (size_t c = 0; c < contexts.size(); ++c) {
      const Context& k = contexts[c];
      double sum = 1;
      for (int x = 0; x < static_cast<int>(k.law.size()); ++x) {
        std::vector<int> after = k.scores;
        after[k.seat] += x;
        if (GameEndsAfterTurn(rules, after, k.seat)) continue;
        sum += k.law[x] * left[naive::NaiveContextIndex(rules, n, (k.seat + 1) % n, after)];
      }
      moved = std::max(moved, std::abs(sum - left[c]));
      left[c] = sum;
    }
  }
  return left;
}

TEST_CASE("certify: the derived bound covers errors that each turn's own solve hides") {
  // Every value raised by eps times its context's expected number of turns
  // left: each context is then off its own turn solve by about eps (one turn
  // less to go), but off the game's values by eps times up to a whole game's
  // turns. The derived bound sees the sum; the distance to the own solve
  // (largest_value_gap) does not.
  for (const auto& [rules, players] : {std::pair{Rules{5, 3, 10}, 2}, {Rules{4, 3, 8}, 3}}) {
    CAPTURE(players);
    auto table = GameTable::FromBytes(test_util::SolveTinyTable(rules, players));
    REQUIRE(table.ok());
    auto clean = solver::CertifyTable(*table);
    REQUIRE(clean.ok());
    CHECK(clean->derived_bound >= clean->largest_value_gap);
    CHECK(clean->derived_bound < 1e-13);
    const std::vector<double> left = TurnsLeft(*table);
    const double most = *std::max_element(left.begin(), left.end());
    REQUIRE(most > 4);
    solver::GameValues values;
    values.rules = rules;
    values.players = players;
    values.error_bound = table->error_bound();
    const double eps = 1e-12;
    for (std::int64_t c = 0; c < table->context_count(); ++c) {
      auto record = table->Context(c);
      REQUIRE(record.ok());
      for (const double w : record->win_probabilities) {
        values.win.push_back(w + eps * left[static_cast<size_t>(c)]);
      }
    }
    auto drifted = solver::CertifyGameValues(values);
    REQUIRE(drifted.ok());
    CheckConsistent(*drifted);
    CAPTURE(drifted->derived_bound);
    CAPTURE(drifted->largest_value_gap);
    // The true error is eps * most, less the table's own error.
    CHECK(drifted->derived_bound >= eps * most - 2 * table->error_bound());
    CHECK(drifted->derived_bound <= 2 * eps * most);
    CHECK(drifted->largest_value_gap <= 2 * eps);
  }
}

TEST_CASE("certify: one thread and two give the same figures") {
  const solver::GameValues values = SolveTinyValues(Rules{4, 3, 8}, 3, nullptr);
  auto one = solver::CertifyGameValues(values, {.threads = 1});
  auto two = solver::CertifyGameValues(values, {.threads = 2});
  REQUIRE(one.ok());
  REQUIRE(two.ok());
  CHECK(one->decisions == two->decisions);
  CHECK(one->ties == two->ties);
  CHECK(one->symmetric_ties == two->symmetric_ties);
  CHECK(one->exact_ties == two->exact_ties);
  CHECK(one->structural_ties == two->structural_ties);
  CHECK(one->smallest_margin == two->smallest_margin);
  CHECK(one->largest_value_gap == two->largest_value_gap);
  CHECK(one->derived_bound == two->derived_bound);  // each context's the same, in any order
  CHECK(one->exact_solves == two->exact_solves);
  CHECK(one->partial_exact_solves == two->partial_exact_solves);
}

// Each worker caches its own exact verdicts, so a utility met by two workers
// is solved twice; the re-solves reported are the distinct utilities, the
// same for any threads (13 dice: over a thousand of them).
TEST_CASE("certify: the exact re-solves counted do not depend on the threads") {
  const solver::GameValues values = SolveTinyValues(Rules{13, 3, 8}, 3, nullptr);
  auto one = solver::CertifyGameValues(values, {.threads = 1});
  REQUIRE(one.ok());
  CHECK(one->exact_solves + one->partial_exact_solves > 1000);
  for (int threads : {2, 3, 4}) {
    auto many = solver::CertifyGameValues(values, {.threads = threads});
    REQUIRE(many.ok());
    CHECK(many->exact_solves == one->exact_solves);
    CHECK(many->partial_exact_solves == one->partial_exact_solves);
    CHECK(many->exact_ties == one->exact_ties);
  }
}

TEST_CASE("certify: a larger bound makes the smallest margin uncertain") {
  solver::GameValues values = SolveTinyValues(Rules{4, 3, 8}, 3, nullptr);
  auto report = solver::CertifyGameValues(values);
  REQUIRE(report.ok());
  REQUIRE(report->certified);
  values.error_bound = report->smallest_margin / 2;  // threshold now just above the margin
  auto loose = solver::CertifyGameValues(values);
  REQUIRE(loose.ok());
  CHECK(loose->smallest_margin == report->smallest_margin);
  CHECK(loose->inexact_ties == 0);
  CHECK_FALSE(loose->certified);
  values.error_bound = report->smallest_margin / 2 - 2 * solver::kReaderTurnRounding;
  auto tight = solver::CertifyGameValues(values);
  REQUIRE(tight.ok());
  CHECK(tight->certified);
}

TEST_CASE("certify: a value nudged below the tolerance makes ties inexact") {
  const Rules rules{4, 3, 8};
  const int players = 3;
  solver::GameValues values = SolveTinyValues(rules, players, nullptr);
  auto clean = solver::CertifyGameValues(values);
  REQUIRE(clean.ok());
  REQUIRE(clean->certified);
  REQUIRE(clean->structural_ties > 0);
  // Seat 0 at the target (final round), seat 1 far behind: seat 1's chance
  // is 0 after its turn, whatever it scores. Its chance at one of those
  // contexts (totals 1 after scoring 1 from 0), nudged to 1e-13, enters its
  // utility there: ties in doubles still, no longer exact.
  const int wide = rules.target + MaxTurnScore(rules);
  const long long c = Index(rules, 2, {wide - 1, 1, 0});
  double& w = values.win[static_cast<size_t>(c) * players + 1];
  REQUIRE(w == 0.0);
  w = 1e-13;
  auto report = solver::CertifyGameValues(values);
  REQUIRE(report.ok());
  CheckConsistent(*report);
  CHECK(report->inexact_ties > 0);
  CHECK(report->largest_inexact_gap > 0);
  CHECK(report->largest_inexact_gap <= 1e-12);
  CHECK(report->structural_ties < clean->structural_ties);
  CHECK_FALSE(report->certified);
  // Every inexact tie is judged once: what the stored values prove of the
  // convention's pick depends on the bound. A bound of 1e-12 leaves every
  // one undecided; a bound of 0 decides those whose gap exceeds twice the
  // reader's rounding.
  CHECK(report->inexact_undecided + report->inexact_pick_best + report->inexact_pick_worse ==
        report->inexact_ties);
  CHECK(report->largest_pick_loss <= report->largest_inexact_gap);
  if (report->inexact_pick_worse > 0) CHECK(report->largest_pick_loss > report->value_threshold);
  solver::GameValues loose_values = values;
  loose_values.error_bound = 1e-12;
  auto loose = solver::CertifyGameValues(loose_values);
  REQUIRE(loose.ok());
  CHECK(loose->inexact_ties == report->inexact_ties);
  CHECK(loose->inexact_undecided == loose->inexact_ties);
  solver::GameValues sharp_values = values;
  sharp_values.error_bound = 0;
  auto sharp = solver::CertifyGameValues(sharp_values);
  REQUIRE(sharp.ok());
  CHECK(sharp->inexact_ties == report->inexact_ties);
  CHECK(sharp->inexact_pick_best + sharp->inexact_pick_worse > 0);
  CHECK(sharp->inexact_undecided <= report->inexact_undecided);
  // The examples point at the nudged value: seat 1 moving with seat 0 at
  // wide - 1, its utility holding the 1e-13.
  CHECK(clean->inexact_examples.empty());
  REQUIRE_FALSE(report->inexact_examples.empty());
  CHECK(report->inexact_examples.size() <= solver::CertificationReport::kInexactExamples);
  for (const solver::CertificationReport::InexactTie& e : report->inexact_examples) {
    CHECK(e.seat == 1);
    REQUIRE(e.scores.size() == 3);
    CHECK(e.scores[0] == wide - 1);
    CHECK(e.gap > 0);
    CHECK(e.gap <= report->largest_inexact_gap);
    CHECK(std::count(e.utility.begin(), e.utility.end(), 1e-13) == 1);
    CHECK_FALSE(e.a.empty());
    CHECK_FALSE(e.b.empty());
  }
  // One example per mover and pair of options, in whichever context it came
  // up first (contexts with the same utility share a verdict).
  const auto& examples = report->inexact_examples;
  for (size_t i = 0; i < examples.size(); ++i) {
    for (size_t j = i + 1; j < examples.size(); ++j) {
      CHECK_FALSE(
          (examples[i].seat == examples[j].seat &&
           std::minmax(examples[i].a, examples[i].b) == std::minmax(examples[j].a, examples[j].b)));
    }
  }
}

TEST_CASE("certify: subtree and whole-turn exact re-solves agree") {
  // Two independent exact computations: a memoised rational recursion over
  // the tied positions' subtrees, and the whole-turn integer solve of
  // src/turn_model. On clean values and on nudged ones (inexact ties).
  const Rules rules{5, 2, 10};
  const int players = 3;
  solver::GameValues values = SolveTinyValues(rules, players, nullptr);
  for (int nudge = 0; nudge < 2; ++nudge) {
    CAPTURE(nudge);
    if (nudge == 1) {
      const int wide = rules.target + MaxTurnScore(rules);
      double& w = values.win[static_cast<size_t>(Index(rules, 2, {wide - 1, 2, 0})) * players + 1];
      REQUIRE(std::abs(w) < 1e-15);  // 0, up to the complement's rounding
      w = 3e-13;
    }
    // One thread: each utility re-solved once (the verdict cache is per thread).
    auto whole = solver::CertifyGameValues(values, {.threads = 1, .local_exact_max_left = -1});
    auto local =
        solver::CertifyGameValues(values, {.threads = 1, .local_exact_max_left = kMaxDice});
    REQUIRE(whole.ok());
    REQUIRE(local.ok());
    CHECK(whole->partial_exact_solves == 0);
    CHECK(whole->exact_solves > 0);
    CHECK(local->exact_solves == 0);
    CHECK(local->partial_exact_solves == whole->exact_solves);
    CHECK(local->ties == whole->ties);
    CHECK(local->exact_ties == whole->exact_ties);
    CHECK(local->inexact_ties == whole->inexact_ties);
    CHECK(local->largest_inexact_gap == whole->largest_inexact_gap);
    CHECK((whole->inexact_ties > 0) == (nudge == 1));
  }
}

TEST_CASE("certify: a stop request cancels, a floor and ceiling bound the contexts") {
  solver::GameValues values = SolveTinyValues(Rules{3, 1, 4}, 3, nullptr);
  std::atomic<bool> stop{true};
  solver::CertifyOptions options;
  options.stop = &stop;
  CHECK(absl::IsCancelled(solver::CertifyGameValues(values, options).status()));
  stop = false;
  auto all = solver::CertifyGameValues(values, options);
  REQUIRE(all.ok());
  options.floor = {2, 1, 0};
  options.ceiling = {3, 3, 3};
  auto box = solver::CertifyGameValues(values, options);
  REQUIRE(box.ok());
  CHECK(box->contexts > 0);
  CHECK(box->contexts < all->contexts);
  CHECK(box->mixed_contexts == 0);
  // Contexts above the ceiling are not checked: those below it that lead
  // there have no derived bound. A floor alone leaves every dependency in.
  CHECK(std::isnan(box->derived_bound));
  CHECK_FALSE(std::isnan(all->derived_bound));
  options.ceiling.clear();
  auto floor = solver::CertifyGameValues(values, options);
  REQUIRE(floor.ok());
  CHECK(floor->contexts < all->contexts);
  CHECK(floor->derived_bound <= all->derived_bound);
  CHECK(floor->derived_bound >= floor->largest_value_gap);
  options.ceiling = {1, 2};
  CHECK(absl::IsInvalidArgument(solver::CertifyGameValues(values, options).status()));
}

// Two earthling faces of equal count reach one position: the same choice, so
// the second best is the best distinct position (its margin is checked), and
// only a roll whose every option reaches one position is a symmetric tie.
TEST_CASE("certify: the second best option is another position") {
  const std::vector<double> values = {0.5, 0.3, 0.2};
  const int same_then_other[] = {0, 0, 1};
  solver::BestAndSecondOptions pick = solver::BestAndSecond(values, same_then_other, 3);
  CHECK(pick.best == 0);
  CHECK(pick.second == 2);
  const int other_first[] = {2, 0, 0};
  pick = solver::BestAndSecond(values, other_first, 3);
  CHECK(pick.best == 1);
  CHECK(pick.second == 0);
  const int all_same[] = {1, 1};
  pick = solver::BestAndSecond(values, all_same, 2);
  CHECK(pick.best == 0);
  CHECK(pick.second == 1);
}

TEST_CASE("certify: bad values are refused") {
  solver::GameValues values = SolveTinyValues(Rules{3, 1, 4}, 3, nullptr);
  CHECK(solver::CertifyGameValues(values).ok());
  CHECK_FALSE(solver::CertifyGameValues(values, {.threads = 0}).ok());
  solver::GameValues bad = values;
  bad.win.pop_back();
  CHECK(solver::CertifyGameValues(bad).status().message().find("expected") != std::string::npos);
  bad = values;
  bad.win[5] = NAN;
  CHECK_FALSE(solver::CertifyGameValues(bad).ok());
  bad = values;
  bad.players = kMaxPlayers + 1;
  CHECK_FALSE(solver::CertifyGameValues(bad).ok());
  bad = values;
  bad.error_bound = NAN;
  CHECK_FALSE(solver::CertifyGameValues(bad).ok());
  bad = values;
  bad.rules.dice = 0;
  CHECK_FALSE(solver::CertifyGameValues(bad).ok());
}

// Driver: the official 3-player solve certified.
// Run by name only: martiandice_tests -tc="*official 3-player*".
TEST_CASE("certify: official 3-player game" * doctest::skip()) {
  solver::GameSolveReport solve;
  const solver::GameValues values = SolveTinyValues(Rules{}, 3, &solve);
  std::printf("solve: %lld contexts, %.1f s, bound %.3g, kingmaking %lld\n", solve.contexts,
              solve.seconds, solve.error_bound, solve.kingmaking);
  auto r = solver::CertifyGameValues(values);
  REQUIRE(r.ok());
  std::printf(
      "certification: %s\n  contexts %lld, decisions %lld\n"
      "  smallest non-tie margin %.6g (threshold %.6g = 2 x (bound %.3g + rounding %.0e))\n"
      "  ties %lld: %lld symmetric, %lld exact (%lld structural, %lld by %lld whole-turn and "
      "%lld subtree rational re-solves), %lld not exact (largest gap %.3g)\n"
      "  kingmaking ties %lld in %lld contexts\n"
      "  largest stored value vs own turn solve %.3g\n  time %.1f s\n",
      r->certified ? "certified" : "NOT certified", r->contexts, r->decisions, r->smallest_margin,
      r->margin_threshold, r->error_bound, solver::kReaderTurnRounding, r->ties, r->symmetric_ties,
      r->exact_ties, r->structural_ties, r->exact_ties - r->structural_ties, r->exact_solves,
      r->partial_exact_solves, r->inexact_ties, r->largest_inexact_gap, r->kingmaking_ties,
      r->kingmaking_contexts, r->largest_value_gap, r->seconds);
  CheckConsistent(*r);
  CHECK(r->certified);
  CHECK(r->kingmaking_ties == 0);
}
