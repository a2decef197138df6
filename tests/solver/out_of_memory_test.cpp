// Running out of memory (tests/support/allocation_failure.h: one chosen
// allocation fails) is an error, never a crash or a wrong answer: for
// allocations spread over a whole run, certification returns ResourceExhausted
// naming memory, or (the failure not reached) its full report. Run under ASan
// by CI, which catches a bad free or a use of freed memory after the failure.
// The final round's solver lets std::bad_alloc through and answers the same after.
#include <doctest/doctest.h>

#include <string>

#include "allocation_failure.h"
#include "certify.h"
#include "game_solver.h"
#include "martiandice/final_round.h"
#include "test_util.h"

using namespace martiandice;

TEST_CASE("out of memory: certification fails cleanly at any allocation, 1 and 2 threads") {
  // 3 players, 6 dice, target 5: small, with exact rational re-solves.
  const solver::GameValues values = test_util::SolveTinyValues(Rules{6, 3, 5}, 3);
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    solver::CertifyOptions options;
    options.threads = threads;
    allocation_failure::Count();
    const auto whole = solver::CertifyGameValues(values, options);
    const long long total = allocation_failure::Count();
    REQUIRE(whole.ok());
    REQUIRE(whole->certified);
    REQUIRE(whole->exact_solves + whole->partial_exact_solves > 0);
    REQUIRE(total < 5000);  // every one is tried
    int failures = 0;
    for (long long n = 1; n <= total; ++n) {
      CAPTURE(n);
      allocation_failure::FailAt(n);
      const auto report = solver::CertifyGameValues(values, options);
      const bool failed = allocation_failure::Disarm();
      if (!failed) {  // the run needed fewer allocations (threads vary the count)
        REQUIRE(report.ok());
        CHECK(report->decisions == whole->decisions);
        CHECK(report->certified);
        continue;
      }
      ++failures;
      REQUIRE_FALSE(report.ok());
      INFO(report.status());
      CHECK(report.status().code() == absl::StatusCode::kResourceExhausted);
      CHECK(std::string(report.status().message()).find("out of memory") != std::string::npos);
    }
    CHECK(failures >= total / 2);
  }
}

TEST_CASE("out of memory: a game solve fails cleanly at any allocation, 2 and 3 players") {
  for (int players : {2, 3})
    for (int threads : {1, 2}) {
      CAPTURE(players);
      CAPTURE(threads);
      const solver::GameSolveOptions options =
          test_util::TinyOptions(players == 2 ? Rules{6, 3, 5} : Rules{4, 3, 5}, players, threads);
      allocation_failure::Count();
      const auto whole = solver::SolveGameValues(options, nullptr);
      const long long total = allocation_failure::Count();
      REQUIRE(whole.ok());
      REQUIRE(total < 5000);  // every one is tried
      int failures = 0;
      for (long long n = 1; n <= total; ++n) {
        CAPTURE(n);
        bool threw = false;
        absl::StatusOr<solver::GameValues> values = absl::UnknownError("not run");
        allocation_failure::FailAt(n);
        try {
          values = solver::SolveGameValues(options, nullptr);
        } catch (const std::bad_alloc&) {
          threw = true;
        }
        const bool failed = allocation_failure::Disarm();
        if (!failed) {
          REQUIRE(values.ok());
          CHECK(values->win == whole->win);
          continue;
        }
        ++failures;
        CHECK_FALSE(threw);
        REQUIRE_FALSE(values.ok());
        INFO(values.status());
        CHECK(values.status().code() == absl::StatusCode::kResourceExhausted);
        CHECK(std::string(values.status().message()).find("out of memory") != std::string::npos);
      }
      CHECK(failures >= total / 2);
    }
}

TEST_CASE("out of memory: the final round's solver throws and keeps no broken state") {
  // 4 players, 6 dice, target 10, seat 1 to move: a few dozen states.
  const Rules rules{6, 3, 10};
  const GameContext context{{11, 5, 7, 9}, 1};
  const Dice aside(1, 1, 1, 0, 0), roll(1, 0, 1, 1, 0);
  auto fresh = [&] { return *FinalRoundSolver::Create(rules, 4); };
  const FinalRoundSolver reference = fresh();
  const auto want = reference.WinProbabilities(context);
  const auto want_advice = reference.Advise(context, aside, roll);
  REQUIRE(want.ok());
  REQUIRE(want_advice.ok());
  const FinalRoundSolver counted = fresh();
  allocation_failure::Count();
  REQUIRE(counted.WinProbabilities(context).ok());
  REQUIRE(counted.Advise(context, aside, roll).ok());
  const long long total = allocation_failure::Count();
  REQUIRE(total < 5000);  // every one is tried
  int failures = 0;
  for (long long n = 1; n <= total; ++n) {
    CAPTURE(n);
    const FinalRoundSolver solver = fresh();
    bool threw = false;
    allocation_failure::FailAt(n);
    try {
      (void)solver.WinProbabilities(context);
      (void)solver.Advise(context, aside, roll);
    } catch (const std::bad_alloc&) {
      threw = true;
    }
    const bool failed = allocation_failure::Disarm();
    CHECK(threw == failed);
    failures += failed;
    // Asked again, the same solver gives the reference's answers, bit for bit.
    const auto chances = solver.WinProbabilities(context);
    const auto advice = solver.Advise(context, aside, roll);
    REQUIRE(chances.ok());
    REQUIRE(advice.ok());
    CHECK(*chances == *want);
    CHECK(advice->advice.best == want_advice->advice.best);
    REQUIRE(advice->advice.options.size() == want_advice->advice.options.size());
    for (std::size_t i = 0; i < advice->advice.options.size(); ++i) {
      CHECK(advice->advice.options[i].value.approx == want_advice->advice.options[i].value.approx);
    }
  }
  CHECK(failures >= total / 2);
}
