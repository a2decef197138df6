// Certification of values-only N-player solutions: tiny 3- and 4-player
// solves are certified, perturbed values are caught, the two-player case
// gives the two-player table certification's figures, bad input is refused;
// and a driver for the official 3-player game (skipped unless asked for by
// name: -tc="*official 3-player*").
#include "certify.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>

#include "certify.h"
#include "context_index.h"
#include "convention_turn.h"
#include "game_solver.h"
#include "martiandice/game.h"
#include "game_solver.h"
#include "test_util.h"

using namespace martiandice;

namespace {

using test_util::SolveTinyValues;

void CheckConsistent(const solver::CertificationReport& r) {
  CHECK(r.ties == r.symmetric_ties + r.exact_ties + r.inexact_ties);
  CHECK(r.structural_ties <= r.exact_ties);
  CHECK(r.kingmaking_ties <= r.ties);
  CHECK(r.tie_tolerance == 1e-12);
  CHECK(r.margin_threshold == 2 * (r.error_bound + solver::kReaderTurnRounding));
}

}  // namespace

TEST_CASE("certify n-player: tiny 3- and 4-player solves are certified, no kingmaking") {
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
    CHECK(report->contexts == solver::ContextIndex(c.rules, c.players).size());
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

TEST_CASE("certify n-player: the reader's solve is the convention turn solve, bit for bit") {
  // Every context's turn solved with internal::SolveConvention in double
  // over utilities built here from docs/PLAYERS.md (every other seat
  // carried): the largest gap to the stored vectors must be the report's,
  // exactly, if the certifier's own solve performs the same operations.
  const Rules rules{4, 3, 8};
  const int players = 3;
  const solver::GameValues values = SolveTinyValues(rules, players, nullptr);
  auto report = solver::CertifyGameValues(values);
  REQUIRE(report.ok());
  const solver::ContextIndex index(rules, players);
  const int target = rules.target, wide = target + MaxTurnScore(rules), top = MaxTurnScore(rules);
  auto model = internal::TurnModel::Get(rules);
  double largest = 0;
  long long contexts = 0;
  for (int seat = 0; seat < players; ++seat) {
    std::vector<int> s(players, 0);
    for (;;) {
      const long long c = index.Index(seat, s);
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
          const long long n = index.Index((seat + 1) % players, next);
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

TEST_CASE("certify n-player: one thread and two give the same figures") {
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
}

TEST_CASE("certify n-player: two players give the two-player table certification's figures") {
  const Rules rules{5, 3, 10};
  solver::GameSolveOptions options;
  options.rules = rules;
  auto bytes = solver::SolveGameTable(options, nullptr);
  REQUIRE(bytes.ok());
  auto table = solver::CertifyTable(*bytes);
  REQUIRE(table.ok());
  const solver::GameValues values = SolveTinyValues(rules, 2, nullptr);
  auto report = solver::CertifyGameValues(values);
  REQUIRE(report.ok());
  CheckConsistent(*report);
  CHECK(report->contexts == table->contexts);
  CHECK(report->decisions == table->decisions);
  CHECK(report->ties == table->ties);
  // Which tie counts as symmetric depends on the order of options whose
  // doubles are equal or a few ulps apart (a tie between rays and two equal
  // earthling counts is "symmetric" only when the earthlings come out ahead),
  // and the two readers' doubles differ in the last bits: the split between
  // symmetric and exact may differ a little, their sum may not.
  CHECK(report->symmetric_ties + report->exact_ties == table->symmetric_ties + table->exact_ties);
  CHECK(std::abs(report->symmetric_ties - table->symmetric_ties) <= table->symmetric_ties / 100);
  // The two-player certification proves every other tie by a re-solve; here
  // most are proven structurally first, the rest re-solved.
  CHECK(report->inexact_ties == 0);
  CHECK(table->inexact_ties == 0);
  CHECK(report->exact_solves <= table->exact_solves);
  CHECK(std::abs(report->smallest_margin - table->smallest_margin) < 1e-13);
  CHECK(report->kingmaking_ties == 0);
  CHECK(report->certified);
  CHECK(table->certified);
}

TEST_CASE("certify n-player: a larger bound makes the smallest margin uncertain") {
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

TEST_CASE("certify n-player: a value nudged below the tolerance makes ties inexact") {
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
  const solver::ContextIndex index(rules, players);
  const int wide = rules.target + MaxTurnScore(rules);
  const long long c = index.Index(2, std::vector<int>{wide - 1, 1, 0});
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
  if (report->inexact_pick_worse > 0) CHECK(report->largest_pick_loss > report->margin_threshold);
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
      CHECK_FALSE((examples[i].seat == examples[j].seat &&
                    std::minmax(examples[i].a, examples[i].b) ==
                        std::minmax(examples[j].a, examples[j].b)));
    }
  }
}

TEST_CASE("certify n-player: subtree and whole-turn exact re-solves agree") {
  // Two independent exact computations: a memoised rational recursion over
  // the tied positions' subtrees, and the whole-turn integer solve of
  // src/turn_model. On clean values and on nudged ones (inexact ties).
  const Rules rules{5, 2, 10};
  const int players = 3;
  solver::GameValues values = SolveTinyValues(rules, players, nullptr);
  for (int nudge = 0; nudge < 2; ++nudge) {
    CAPTURE(nudge);
    if (nudge == 1) {
      const solver::ContextIndex index(rules, players);
      const int wide = rules.target + MaxTurnScore(rules);
      double& w =
          values
              .win[static_cast<size_t>(index.Index(2, std::vector<int>{wide - 1, 2, 0})) * players +
                   1];
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

TEST_CASE("certify n-player: a stop request cancels, a floor and ceiling bound the contexts") {
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
  options.ceiling = {1, 2};
  CHECK(absl::IsInvalidArgument(solver::CertifyGameValues(values, options).status()));
}

TEST_CASE("certify n-player: bad values are refused") {
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

// Driver: the official 3-player solve (about 40 s on 2 threads) certified.
// Run by name only: martiandice_tests -tc="*official 3-player*".
TEST_CASE("certify n-player: official 3-player game" * doctest::skip()) {
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
