// Concurrency: 8 threads at once query one loaded policy table (the shipped
// ones, their turns solved on demand into the table's shared cache) and one
// solved turn, and solve turns through the shared model cache; every answer
// must equal, bit for bit, the single-threaded answer computed beforehand.
// tools/test.sh also runs these cases under ThreadSanitizer.
#include <doctest/doctest.h>

#include <bit>
#include <cstdint>
#include <latch>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "martiandice/advisor.h"
#include "martiandice/dice.h"
#include "martiandice/game_state.h"
#include "martiandice/objective.h"
#include "martiandice/state_space.h"
#include "martiandice/turn_query.h"
#include "martiandice/turn_solver.h"
#include "martiandice/win_query.h"
#include "solved_turn.h"
#include "turn_model.h"
#ifdef MARTIANDICE_HAVE_GAME_SOLVER
#include "game_solver.h"
#include "turn_batch.h"
#endif

using namespace martiandice;

#ifndef MARTIANDICE_DATA_DIR
#error "MARTIANDICE_DATA_DIR must point at the source tree's data/"
#endif

namespace {

constexpr int kThreads = 8;

// ------------------------------------------------ exact equality of answers

bool Same(double a, double b) {
  return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}
bool Same(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!Same(a[i], b[i])) return false;
  }
  return true;
}
bool Same(const Value& a, const Value& b) { return Same(a.approx, b.approx) && a.exact == b.exact; }
bool Same(const std::optional<Value>& a, const std::optional<Value>& b) {
  return a.has_value() == b.has_value() && (!a || Same(*a, *b));
}
bool Same(const PositionEval& a, const PositionEval& b) {
  return a.aside == b.aside && a.dice_left == b.dice_left && Same(a.stop, b.stop) &&
         Same(a.roll, b.roll) && Same(a.value, b.value) && a.action == b.action;
}
bool Same(const TakeOption& a, const TakeOption& b) {
  return a.take == b.take && a.count == b.count && a.aside_after == b.aside_after &&
         Same(a.stop, b.stop) && Same(a.roll, b.roll) && Same(a.value, b.value) &&
         a.then == b.then && a.optimal == b.optimal;
}
bool Same(const RollAdvice& a, const RollAdvice& b) {
  if (a.options.size() != b.options.size()) return false;
  for (size_t i = 0; i < a.options.size(); ++i) {
    if (!Same(a.options[i], b.options[i])) return false;
  }
  return a.aside_after_tanks == b.aside_after_tanks && a.turn_over == b.turn_over &&
         a.turn_over_score == b.turn_over_score && Same(a.value, b.value) && a.best == b.best;
}
bool Same(const WinEval& a, const WinEval& b) {
  return Same(a.position, b.position) && Same(a.win_probabilities, b.win_probabilities);
}
bool Same(const WinAdvice& a, const WinAdvice& b) {
  return Same(a.advice, b.advice) && Same(a.win_probabilities, b.win_probabilities);
}
template <typename T>
bool Same(const absl::StatusOr<T>& a, const absl::StatusOr<T>& b) {
  if (a.ok() != b.ok()) return false;
  return a.ok() ? Same(*a, *b) : a.status() == b.status();
}

// ------------------------------------------------ running threads

// What one thread saw: answers compared, mismatches, the first one described.
struct ThreadReport {
  std::int64_t compared = 0;
  std::int64_t mismatches = 0;
  std::string first;

  void Compare(bool same, const std::string& what) {
    ++compared;
    if (!same && mismatches++ == 0) first = what;
  }
};

// Runs body(thread, report) on kThreads threads released together, then checks
// that every thread compared `expected_per_thread` answers and all matched.
template <typename Body>
void RunThreads(std::int64_t expected_per_thread, Body body) {
  std::vector<ThreadReport> reports(kThreads);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      body(t, reports[t]);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) {
    INFO("thread " << t);
    CHECK(reports[t].compared == expected_per_thread);
    CHECK_MESSAGE(reports[t].mismatches == 0, "first mismatch: " << reports[t].first);
  }
}

// ------------------------------------------------ random valid queries

// A position and, when dice are left, one outcome of rolling them.
struct PositionQuery {
  Dice aside;
  std::optional<Dice> roll;
};

std::vector<PositionQuery> RandomPositionQueries(const Rules& rules, int count,
                                                 std::mt19937_64& rng) {
  auto positions = ReachablePositions(rules);
  REQUIRE(positions.ok());
  std::vector<std::vector<RollOutcome>> laws;
  for (int n = 0; n <= rules.dice; ++n) laws.push_back(RollDistribution(n));
  std::vector<PositionQuery> queries;
  for (int i = 0; i < count; ++i) {
    PositionQuery q;
    q.aside = (*positions)[std::uniform_int_distribution<size_t>(0, positions->size() - 1)(rng)];
    const int left = rules.dice - q.aside.total();
    if (left > 0) {
      const auto& law = laws[left];
      q.roll = law[std::uniform_int_distribution<size_t>(0, law.size() - 1)(rng)].faces;
    }
    queries.push_back(q);
  }
  return queries;
}

std::string Describe(const PositionQuery& q) {
  return "aside " + FormatDice(q.aside) + (q.roll ? ", roll " + FormatDice(*q.roll) : "");
}

// ------------------------------------------------ a solved turn

struct TurnAnswers {
  absl::StatusOr<PositionEval> eval;
  std::optional<absl::StatusOr<RollAdvice>> advice;
};

TurnAnswers AskTurn(const TurnSolution& solution, const PositionQuery& q) {
  TurnAnswers a{EvaluatePosition(solution, q.aside), std::nullopt};
  if (q.roll) a.advice = AdviseRoll(solution, q.aside, *q.roll);
  return a;
}

void CheckTurnQueriesInThreads(const TurnSolution& solution, int count, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<PositionQuery> queries = RandomPositionQueries(solution.rules(), count, rng);
  std::vector<TurnAnswers> expected;
  for (const PositionQuery& q : queries) {
    expected.push_back(AskTurn(solution, q));
    REQUIRE(expected.back().eval.ok());
    if (expected.back().advice) REQUIRE(expected.back().advice->ok());
  }
  RunThreads(count, [&](int t, ThreadReport& report) {
    // Even threads share the object, odd ones query their own copy.
    std::optional<TurnSolution> copy;
    if (t % 2 == 1) copy = solution;
    const TurnSolution& s = copy ? *copy : solution;
    // Each thread starts elsewhere in the list, so threads ask different things at once.
    for (int i = 0; i < count; ++i) {
      const int k = (i + t * count / kThreads) % count;
      TurnAnswers got = AskTurn(s, queries[k]);
      bool same = Same(got.eval, expected[k].eval) &&
                  got.advice.has_value() == expected[k].advice.has_value() &&
                  (!got.advice || Same(*got.advice, *expected[k].advice));
      report.Compare(same, Describe(queries[k]));
    }
  });
}

// 8 threads query the shipped table for `players` through a table whose turn
// cache starts empty, so that threads race to solve, insert and (3 players:
// more contexts than the cache holds) evict the same turns.
void CheckShippedTableInThreads(int players, int queries, std::uint64_t seed) {
  CAPTURE(players);
  const Rules rules;
  auto path = LocateTable(rules, players, std::string(MARTIANDICE_DATA_DIR));
  REQUIRE_MESSAGE(path.ok(), path.status());
  auto table = GameTable::Open(*path);
  REQUIRE_MESSAGE(table.ok(), table.status());
  REQUIRE(CheckTableMatches(*table, rules, players).ok());

  // Random stored contexts (every one a valid turn start), positions and rolls.
  std::mt19937_64 rng(seed);
  const std::vector<PositionQuery> positions = RandomPositionQueries(rules, queries, rng);
  std::vector<GameContext> contexts;
  for (int i = 0; i < queries; ++i) {
    const std::int64_t index =
        std::uniform_int_distribution<std::int64_t>(0, table->context_count() - 1)(rng);
    auto record = table->Context(index);
    REQUIRE(record.ok());
    contexts.push_back(record->context);
  }
  struct WinAnswers {
    absl::StatusOr<std::vector<double>> win;
    absl::StatusOr<WinEval> eval;
    std::optional<absl::StatusOr<WinAdvice>> advice;
  };
  auto ask = [&](const GameTable& t, int i) {
    const PositionQuery& q = positions[i];
    WinAnswers a{t.WinProbabilities(contexts[i]), EvaluateWin(t, contexts[i], q.aside),
                 std::nullopt};
    if (q.roll) a.advice = AdviseWin(t, contexts[i], q.aside, *q.roll);
    return a;
  };
  std::vector<WinAnswers> expected;
  for (int i = 0; i < queries; ++i) {
    expected.push_back(ask(*table, i));
    REQUIRE(expected.back().win.ok());
    REQUIRE(expected.back().eval.ok());
    if (expected.back().advice) REQUIRE(expected.back().advice->ok());
  }

  auto cold = GameTable::Open(*path);  // its own, empty cache
  REQUIRE(cold.ok());
  RunThreads(queries, [&](int t, ThreadReport& report) {
    std::optional<GameTable> copy;
    if (t % 2 == 1) copy = *cold;
    const GameTable& mine = copy ? *copy : *cold;
    for (int i = 0; i < queries; ++i) {
      const int k = (i + t * queries / kThreads) % queries;
      WinAnswers got = ask(mine, k);
      const WinAnswers& want = expected[k];
      bool same = Same(got.win, want.win) && Same(got.eval, want.eval) &&
                  got.advice.has_value() == want.advice.has_value() &&
                  (!got.advice || Same(*got.advice, *want.advice));
      std::ostringstream what;
      what << "scores";
      for (int score : contexts[k].scores) what << " " << score;
      what << " seat " << contexts[k].seat << ", " << Describe(positions[k]);
      report.Compare(same, what.str());
    }
  });
}

}  // namespace

TEST_CASE("concurrency: 8 threads query one TurnSolution (double and exact)") {
  const Rules rules;
  auto ev = TurnSolution::Solve(rules, Objective::ExpectedScore(), Precision::kDouble);
  REQUIRE(ev.ok());
  CheckTurnQueriesInThreads(*ev, 4000, 1);
  auto reach = TurnSolution::Solve(rules, Objective::ReachAtLeast(10), Precision::kExact);
  REQUIRE(reach.ok());
  CheckTurnQueriesInThreads(*reach, 1000, 2);
}

TEST_CASE("concurrency: 8 threads query the shipped GameTables, their turn caches cold") {
  CheckShippedTableInThreads(2, 4000, 3);
  CheckShippedTableInThreads(3, 1000, 4);
}

TEST_CASE("concurrency: 8 threads ask one Advisor for games' advice, its zero chances kept") {
  // One decision, stop or roll on at 2T 4H (7 dice left), at 20 contexts:
  // more turns than the advisor keeps, so that threads fill, find and evict.
  const std::optional<std::string> data = std::string(MARTIANDICE_DATA_DIR);
  std::vector<GameState> states;
  for (int a = 0; a < 20; ++a) {
    absl::StatusOr<GameState> state =
        GameState::AtTurnStart(Rules{}, 2, GameContext{{a, (a * 7) % 24}, a % 2});
    REQUIRE(state.ok());
    REQUIRE(state->Apply(Move::Roll(*ParseDice("2T 3R 4H 3C 1K"))).ok());
    REQUIRE(state->Apply(Move::Take(Face::kHuman)).ok());
    states.push_back(*std::move(state));
  }
  std::vector<double> expected;  // each from an advisor of its own
  for (const GameState& state : states) {
    Advisor alone;
    absl::StatusOr<GameAdvice> advice = alone.Advise(state, data);
    REQUIRE(advice.ok());
    REQUIRE(advice->zero_chance.has_value());
    expected.push_back(*advice->zero_chance);
  }
  Advisor shared;
  constexpr int kRounds = 3;
  RunThreads(kRounds * static_cast<std::int64_t>(states.size()), [&](int t, ThreadReport& report) {
    for (int round = 0; round < kRounds; ++round) {
      for (std::size_t k = 0; k < states.size(); ++k) {
        const std::size_t i = (k * 7 + static_cast<std::size_t>(t) * 3) % states.size();
        absl::StatusOr<GameAdvice> advice = shared.Advise(states[i], data);
        report.Compare(advice.ok() && advice->zero_chance == expected[i],
                       "state " + std::to_string(i));
      }
    }
  });
}

TEST_CASE("concurrency: 8 threads solve turns through the shared model cache") {
  // Rule sets whose models no other test builds (the cache is keyed by dice
  // and bonus), so that threads race to build and insert them; each thread
  // solves them all in its own order.
  struct Job {
    Rules rules;
    Objective objective;
    Precision precision;
  };
  std::vector<Job> jobs;
  for (int dice = 1; dice <= 9; ++dice) {
    for (int bonus : {57, 58}) {
      const Rules rules{dice, bonus, 25};
      jobs.push_back({rules, Objective::ExpectedScore(), Precision::kDouble});
      jobs.push_back({rules, Objective::ReachAtLeast(dice), Precision::kDouble});
      jobs.push_back({rules, Objective::Capped(dice + bonus / 2), Precision::kDouble});
      if (dice <= 5) jobs.push_back({rules, Objective::ExpectedScore(), Precision::kExact});
    }
  }
  // The expected values, from models built here outside the cache.
  std::vector<std::vector<double>> expected;
  for (const Job& job : jobs) {
    const internal::TurnModel model(job.rules);
    std::vector<double> utility;
    std::vector<Rational> exact_utility;
    for (int score = 0; score <= MaxTurnScore(job.rules); ++score) {
      utility.push_back(job.objective.Utility(score));
      exact_utility.push_back(job.objective.ExactUtility(score));
    }
    expected.push_back(job.precision == Precision::kExact
                           ? internal::SolveExact(model, exact_utility).approx.value
                           : internal::SolveDouble(model, utility).value);
  }
  // The game solver's parametric solve (thread-local scratch too), on one shared model.
  const Rules official;
  const auto shared_model = internal::TurnModel::Get(official);
  std::vector<double> utility, slope;
  for (int score = 0; score <= MaxTurnScore(official); ++score) {
    utility.push_back(score / 20.0);
    slope.push_back(score % 3 == 0 ? 0.5 : -0.25);
  }
  internal::ParametricTurn parametric;
  const internal::TurnValues parametric_values =
      internal::SolveDoubleParametric(*shared_model, utility, slope, &parametric);

  const int n = static_cast<int>(jobs.size());
  // Held here: a model is shared while anyone holds it (TurnModel::Get).
  std::vector<std::vector<std::shared_ptr<const internal::TurnModel>>> models(
      kThreads, std::vector<std::shared_ptr<const internal::TurnModel>>(n));
  RunThreads(n + 1, [&](int t, ThreadReport& report) {
    for (int i = 0; i < n; ++i) {
      const int k = (t % 2 == 0) ? (i + t * n / kThreads) % n : n - 1 - i;
      const Job& job = jobs[k];
      auto solution = TurnSolution::Solve(job.rules, job.objective, job.precision);
      models[t][k] =
          solution.ok() ? internal::SolvedTurnAccess::Of(*solution).model : nullptr;
      report.Compare(solution.ok() &&
                         Same(internal::SolvedTurnAccess::Of(*solution).values.value, expected[k]),
                     "dice " + std::to_string(job.rules.dice) + ", bonus " +
                         std::to_string(job.rules.bonus) + ", " + job.objective.name());
    }
    internal::ParametricTurn p;
    internal::TurnValues v = internal::SolveDoubleParametric(*shared_model, utility, slope, &p);
    report.Compare(Same(v.value, parametric_values.value) && Same(v.roll, parametric_values.roll) &&
                       Same(p.slope, parametric.slope) &&
                       Same(p.roll_slope, parametric.roll_slope) && Same(p.lo, parametric.lo) &&
                       Same(p.hi, parametric.hi),
                   "parametric solve");
  });
  // One model per rule set, whichever thread built it.
  for (int k = 0; k < n; ++k) {
    INFO("job " << k);
    REQUIRE(models[0][k] != nullptr);
    for (int t = 1; t < kThreads; ++t) CHECK(models[t][k] == models[0][k]);
  }
}

// TurnModel::Get: a model is shared while held; of those no longer held, the
// kKeptModels last asked for are kept and the older ones freed.
TEST_CASE("turn models: shared while held, the last few kept, the others freed") {
  const int kept = internal::TurnModel::kKeptModels;
  const auto held = internal::TurnModel::Get(Rules{3, 61, 25});
  std::vector<std::weak_ptr<const internal::TurnModel>> asked;
  for (int bonus = 62; bonus < 62 + 2 * kept; ++bonus) {
    asked.push_back(internal::TurnModel::Get(Rules{3, bonus, 25}));
  }
  for (int i = 0; i < 2 * kept; ++i) {
    CAPTURE(i);
    CHECK(asked[i].expired() == (i < kept));  // the last kept asked are kept
  }
  CHECK(internal::TurnModel::Get(Rules{3, 61, 25}) == held);  // held all along
  const auto again = internal::TurnModel::Get(Rules{3, 62 + 2 * kept - 1, 25});
  CHECK(again == asked.back().lock());
}

#ifdef MARTIANDICE_HAVE_GAME_SOLVER
// The N-player solve's threads share the score vectors of a level and the
// settling passes' store of laws (solver/score_law_cache.h): two threads
// give the values of one, bit for bit.
TEST_CASE("concurrency: 2 threads of a 3-player solve share its laws' store") {
  solver::GameSolveOptions options;
  options.rules = Rules{7, 3, 12};
  options.players = 3;
  solver::GameSolveReport one, two, lockstep_report;
  options.threads = 1;
  auto alone = solver::SolveGameValues(options, &one);
  options.threads = 2;
  auto shared = solver::SolveGameValues(options, &two);
  // The other schedule: the cycles in lockstep rounds, the steps and the
  // batches on two threads.
  solver::ThreadedTurnBatch batch(2);
  options.turn_batch = &batch;
  auto lockstep = solver::SolveGameValues(options, &lockstep_report);
  REQUIRE(alone.ok());
  REQUIRE(shared.ok());
  REQUIRE(lockstep.ok());
  CHECK(alone->win == shared->win);
  CHECK(alone->win == lockstep->win);
  CHECK(one.error_bound == two.error_bound);
  CHECK(one.error_bound == lockstep_report.error_bound);
  CHECK(two.settle_reused > 0);
  CHECK(one.settle_passes == two.settle_passes);
  CHECK(one.settle_passes == lockstep_report.settle_passes);
  MESSAGE(two.settle_reused << " of " << two.settle_passes << " passes reused, " << two.seconds
                            << " s");
}
#endif
