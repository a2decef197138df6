// Mixed cycles (solver/mixed_cycle.*, docs/PLAYERS.md "Mixed cycles"): the
// restricted equilibrium on real policies of the 4-player game, checked by
// brute force over the pure patterns and by the indifference conditions; and
// the solver on the 4-player endgame whose cycle has no pure equilibrium,
// checked against exact turn solves of the public solver.
#include "mixed_cycle.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "certify.h"
#include "doctest/doctest.h"
#include "game_solver.h"
#include "martiandice/objective.h"
#include "martiandice/turn_solver.h"
#include "nplayer_naive.h"

namespace martiandice {
namespace {

using solver::CyclePolicy;

// The two policies seats 0, 1 and 3 alternate between, and seat 2's one, at
// totals (23, 16, 5, 20) of the official 4-player game (policy iteration in
// double; c = E - p G from the solver's rounds).
std::vector<std::vector<CyclePolicy>> OfficialCycle() {
  return {
      {{0.223714506499945,
        {0.5975914511401677, 0.028109143250359216, 8.690710221625602e-05, 0.15049799200731204}},
       {0.2237145067208114,
        {0.5975914510726095, 0.02810914321921091, 8.690710221625608e-05, 0.15049799188515206}}},
      {{0.4153894132229546,
        {0.1523857549266894, 0.13102857406185286, 0.0009895558846965786, 0.3002067019038064}},
       {0.41589908259693,
        {0.1522166274359472, 0.13101299205992276, 0.0009885077253680079, 0.29988279018183206}}},
      {{0.48608613415072643,
        {0.1892266266632333, 0.015580095683427444, 0.0026059718233602492, 0.30650117167925256}}},
      {{0.3123716948119549,
        {0.16280945957076645, 0.012017662617151821, 6.904527587639603e-05, 0.5127321377242504}},
       {0.3135786638195593,
        {0.16200058578219365, 0.011949777752392154, 6.85228572377342e-05, 0.5124024497886172}}},
  };
}

// Seat i's own chance under policy `k` against the next context's vector.
long double Own(const std::vector<std::vector<CyclePolicy>>& options, int i, int k,
                long double next) {
  return options[i][k].c[i] + options[i][k].p * next;
}

TEST_CASE("mixed cycle: no pure pattern is an equilibrium, the mixture is one") {
  const auto options = OfficialCycle();
  const int n = 4;
  // Brute force: every pure choice, some mover strictly prefers its other policy.
  for (int code = 0; code < 8; ++code) {
    std::vector<long double> weight = {static_cast<long double>(code & 1),
                                       static_cast<long double>(code >> 1 & 1), 0,
                                       static_cast<long double>(code >> 2)};
    const auto v = solver::CloseMixedCycle(options, weight);
    bool someone_deviates = false;
    for (int i : {0, 1, 3}) {
      const long double next = v[(i + 1) % n][i];
      const int played = static_cast<int>(weight[i]);
      someone_deviates |=
          Own(options, i, 1 - played, next) > Own(options, i, played, next) + 1e-15L;
    }
    CHECK(someone_deviates);
  }
  solver::MixedCycle mix;
  REQUIRE(solver::FindMixedEquilibrium(options, &mix));
  CHECK(mix.mixing == std::vector<bool>{false, true, false, true});
  CHECK(mix.weight[1] > 0.01);
  CHECK(mix.weight[1] < 0.99);
  CHECK(mix.weight[3] > 0.01);
  CHECK(mix.weight[3] < 0.99);
  // Closing the cycle again gives the reported values; a mixing mover is
  // indifferent at its continuation, a pure one plays its best reply.
  const auto v = solver::CloseMixedCycle(options, mix.weight);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) CHECK(std::abs(v[i][j] - mix.values[i][j]) < 1e-18L);
  }
  for (int i : {1, 3}) {
    const long double next = v[(i + 1) % n][i];
    CHECK(std::abs(Own(options, i, 0, next) - Own(options, i, 1, next)) < 1e-18L);
    CHECK(mix.sensitivity[i] > 0);
    CHECK(std::isfinite(mix.sensitivity[i]));
  }
  const int zero_played = static_cast<int>(mix.weight[0]);
  CHECK(Own(options, 0, zero_played, v[1][0]) >= Own(options, 0, 1 - zero_played, v[1][0]));
  // Each seat's chances at a context sum to 1 (each policy's c does, less p).
  for (int i = 0; i < n; ++i) {
    long double sum = 0;
    for (long double x : v[i]) sum += x;
    CHECK(std::abs(sum - 1) < 1e-9L);
  }
}

TEST_CASE("mixed cycle: a pure equilibrium among the options is preferred") {
  // Two movers, each preferring the cautious policy whatever the other does.
  std::vector<std::vector<CyclePolicy>> options = {
      {{0.2, {0.5, 0.3}}, {0.4, {0.3, 0.3}}},
      {{0.2, {0.3, 0.5}}, {0.4, {0.3, 0.3}}},
  };
  solver::MixedCycle mix;
  REQUIRE(solver::FindMixedEquilibrium(options, &mix));
  CHECK(mix.mixing == std::vector<bool>{false, false});
  CHECK(mix.weight == std::vector<long double>{0, 0});
  // More than two policies for one mover: not handled, said so.
  options[0].push_back({0.5, {0.2, 0.3}});
  CHECK(!solver::FindMixedEquilibrium(options, &mix));
}

// The utility of `mover`'s turn at totals `s` in the solved values, built
// from docs/FORMAT.md's numbering by the naive reference's index (not the
// solver's): the next context's own chance, or the end of the game.
std::vector<Rational> Utility(const solver::GameValues& g, int mover, const std::vector<int>& s) {
  const int n = g.players;
  const int top = MaxTurnScore(g.rules);
  std::vector<Rational> u;
  for (int x = 0; x <= top; ++x) {
    std::vector<int> next = s;
    next[mover] += x;
    bool reached = false;
    for (int v : next) reached |= v >= g.rules.target;
    if (mover == n - 1 && reached) {
      int best = 0, leaders = 0;
      for (int v : next) best = std::max(best, v);
      for (int v : next) leaders += v == best;
      u.push_back(next[mover] == best ? Rational(1, leaders) : Rational(0));
      continue;
    }
    const std::int64_t index = naive::NaiveContextIndex(g.rules, n, (mover + 1) % n, next);
    REQUIRE(index >= 0);
    u.push_back(Rational(g.win[static_cast<size_t>(index) * n + mover]));
  }
  return u;
}

// Every mover of the cycle at `s` gets its best chance against the stored
// next vectors: the exact optimum of its turn (public rational turn
// solver), within `bound`.
void CheckMoversExact(const solver::GameValues& g, const std::vector<int>& s, double bound) {
  for (int mover = 0; mover < g.players; ++mover) {
    auto objective = Objective::Custom("own", Utility(g, mover, s));
    REQUIRE(objective.ok());
    auto exact = TurnSolution::Solve(g.rules, *objective, Precision::kExact);
    REQUIRE(exact.ok());
    const std::int64_t index = naive::NaiveContextIndex(g.rules, g.players, mover, s);
    const double stored = g.win[static_cast<size_t>(index) * g.players + mover];
    CHECK(std::abs(stored - exact->StartValue()) <= bound + 1e-15);
  }
}

// The official 4-player game's solve from `floor` on, on 2 threads.
solver::GameSolveOptions FourPlayerEndgame(std::vector<int> floor) {
  solver::GameSolveOptions options;
  options.rules = Rules{13, 3, 25};
  options.players = 4;
  options.threads = 2;
  options.floor = std::move(floor);
  return options;
}

TEST_CASE("mixed cycle: the 4-player endgame at (23, 16, 5, 20) converges by mixing" *
          doctest::test_suite("heavy")) {
  const solver::GameSolveOptions options = FourPlayerEndgame({23, 16, 5, 20});
  solver::GameSolveReport report;
  absl::StatusOr<solver::GameValues> g = solver::SolveGameValues(options, &report);
  REQUIRE(g.ok());
  CHECK(report.mixed_cycles == 1);
  REQUIRE(report.mixed.size() == 1);
  const solver::MixedCycleReport& m = report.mixed[0];
  CHECK(m.scores == std::vector<int>{23, 16, 5, 20});
  CHECK(m.weights[0] == -1);
  CHECK(m.weights[2] == -1);
  CHECK(m.weights[1] > 0.01);
  CHECK(m.weights[1] < 0.99);
  CHECK(m.weights[3] > 0.01);
  CHECK(m.weights[3] < 0.99);
  CHECK(m.error > 0);
  CHECK(report.mixing_error == m.error);
  // A finite bound, below what a table may carry; the mixture dominates it.
  CHECK(std::isfinite(report.error_bound));
  CHECK(report.error_bound < 1e-9);
  CHECK(report.error_bound >= m.error);
  CheckMoversExact(*g, {23, 16, 5, 20}, report.error_bound);
  // The certifier, reading the values as a reader does, finds the mixing
  // movers' contexts (1 and 3) mixed and every other decision of the
  // cycle's contexts certified.
  solver::CertifyOptions certify;
  certify.floor = certify.ceiling = options.floor;
  absl::StatusOr<solver::CertificationReport> c = solver::CertifyGameValues(*g, certify);
  REQUIRE(c.ok());
  CHECK(c->contexts == 4);
  CHECK(c->mixed_contexts == 2);
  CHECK(c->mixing_decisions > 0);
  CHECK(c->largest_value_gap <= report.error_bound + 1e-15);
  CHECK(c->certified);
  // A mixture is no fixed point of the pure turn solves: no bound derived
  // from them, the margins measured against the table's.
  CHECK(std::isnan(c->derived_bound));
  CHECK(c->margin_threshold == c->value_threshold);
  // The mixing mover 1's context with seat 0's chance moved to seat 2 by
  // 1e-6 (the mover's own unchanged): no mixture of its options gives that.
  solver::GameValues moved = *g;
  const std::size_t at =
      static_cast<std::size_t>(naive::NaiveContextIndex(g->rules, 4, 1, {23, 16, 5, 20})) * 4;
  moved.win[at] -= 1e-6;
  moved.win[at + 2] += 1e-6;
  absl::StatusOr<solver::CertificationReport> forged = solver::CertifyGameValues(moved, certify);
  REQUIRE(forged.ok());
  CHECK(forged->largest_value_gap > forged->value_threshold);
  CHECK_FALSE(forged->certified);
}

// The 4-player endgame at (11, 14, 19, 22) has two pure equilibria
// (docs/PLAYERS.md "Zero-score cycles"): policy iteration from the linear
// extrapolation (the tables') reaches one, from the cubic the other. Both
// are fixed points: every mover's stored chance is the exact optimum of its
// turn against the stored next vectors (the public rational solver), and the
// certifier finds the cycle's other seats consistent; they differ far beyond
// both bounds.
TEST_CASE("zero-score cycles: the 4-player endgame at (11, 14, 19, 22) has two equilibria" *
          doctest::test_suite("heavy")) {
  const std::vector<int> s = {11, 14, 19, 22};
  std::vector<double> start[2];
  double bound[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    solver::GameSolveOptions options = FourPlayerEndgame(s);
    options.guess_order = k == 0 ? 1 : 3;
    // The linear solve also probes every cycle from the cubic start: it
    // finds this one apart, and keeps its own values.
    if (k == 0) options.probe_guess_order = 3;
    solver::GameSolveReport report;
    absl::StatusOr<solver::GameValues> g = solver::SolveGameValues(options, &report);
    REQUIRE(g.ok());
    CHECK(report.mixed_cycles == 0);
    if (k == 0) {
      CHECK(report.probe_apart >= 1);
      CHECK(report.probe_unconverged == 0);  // the cubic start settles everywhere here
      CHECK(report.probe_largest > 1e-6);
      CHECK(std::find(report.probe_examples.begin(), report.probe_examples.end(), s) !=
            report.probe_examples.end());
    } else {
      CHECK(report.probe_apart == 0);  // not probing
    }
    REQUIRE(std::isfinite(report.error_bound));
    CHECK(report.error_bound < 1e-13);
    bound[k] = report.error_bound;
    start[k] = report.start;
    CheckMoversExact(*g, s, report.error_bound);
    solver::CertifyOptions certify;
    certify.floor = certify.ceiling = s;
    absl::StatusOr<solver::CertificationReport> c = solver::CertifyGameValues(*g, certify);
    REQUIRE(c.ok());
    CHECK(c->contexts == 4);
    CHECK(c->largest_value_gap <= report.error_bound + 1e-15);
    CHECK(c->certified);
  }
  // Seat 0's context (the floor's first mover): 0.011473140794541882 against
  // 0.011472496779824058 for seat 0, and so on (docs/PLAYERS.md).
  REQUIRE(start[0].size() == 4);
  REQUIRE(start[1].size() == 4);
  double apart = 0;
  for (int j = 0; j < 4; ++j) apart = std::max(apart, std::abs(start[0][j] - start[1][j]));
  MESSAGE("the two equilibria differ by " << apart << " at seat 0's context; bounds " << bound[0]
                                          << ", " << bound[1]);
  CHECK(apart > 1e-6);
  CHECK(apart > 1000 * (bound[0] + bound[1]));
  // From the quadratic start two movers' policies alternate at this cycle;
  // the pure equilibrium among them, where the solve goes on from, is the
  // cubic start's: the same values within both bounds.
  {
    solver::GameSolveOptions options = FourPlayerEndgame(s);
    options.guess_order = 2;
    solver::GameSolveReport report;
    absl::StatusOr<solver::GameValues> g = solver::SolveGameValues(options, &report);
    REQUIRE(g.ok());
    CHECK(report.unconverged_examples.empty());
    CHECK(report.mixed_cycles == 0);
    CHECK(report.max_rounds > 17);
    CHECK(report.error_bound < 1e-13);
    REQUIRE(report.start.size() == 4);
    for (int j = 0; j < 4; ++j) {
      CHECK(std::abs(report.start[j] - start[1][j]) <= report.error_bound + bound[1]);
    }
    CheckMoversExact(*g, s, report.error_bound);
  }
  // A probe from there finds it apart, and the values kept are the linear
  // start's, bit for bit.
  {
    solver::GameSolveOptions options = FourPlayerEndgame(s);
    options.probe_guess_order = 2;
    solver::GameSolveReport report;
    absl::StatusOr<solver::GameValues> g = solver::SolveGameValues(options, &report);
    REQUIRE(g.ok());
    CHECK(report.probe_unconverged == 0);
    CHECK(std::find(report.probe_examples.begin(), report.probe_examples.end(), s) !=
          report.probe_examples.end());
    CHECK(report.start == start[0]);
    CHECK(report.error_bound == bound[0]);
  }
  // The probing solve kept the linear start's values: those of a plain one.
  // A small endgame: probing leaves every bit as it was.
  solver::GameSolveOptions plain = FourPlayerEndgame({22, 23, 19, 22});
  solver::GameSolveReport a, b;
  absl::StatusOr<solver::GameValues> without = solver::SolveGameValues(plain, &a);
  plain.probe_guess_order = 2;
  absl::StatusOr<solver::GameValues> with = solver::SolveGameValues(plain, &b);
  REQUIRE(without.ok());
  REQUIRE(with.ok());
  CHECK(without->win == with->win);
  CHECK(a.error_bound == b.error_bound);
  CHECK(a.tied_decisions == b.tied_decisions);  // the probe's own counts are dropped
  CHECK(a.mean_rounds == b.mean_rounds);
}

// The two policies seats 0 and 4 alternate between at totals (1, 1, 1, 3, 3,
// 1) of 6 players to target 6, and the other seats' one (policy iteration in
// double, rounds 10 to 17; c = E - p G from the solver's rounds).
std::vector<std::vector<CyclePolicy>> SixPlayerCycle() {
  return {
      {{0.46392076939393933621L,
        {0.10243877280490559153L, 0.052295669136988661364L, 0.053860016304810614733L,
         0.12332065410578775027L, 0.13586509133352315403L, 0.068299026920044818223L}},
       {0.46847984057106872857L,
        {0.1024193756915051061L, 0.051746565953519461681L, 0.053292896247707891035L,
         0.12204540857557195495L, 0.13444903019072985365L, 0.067566882769897032239L}}},
      {{0.45190198885907506554L,
        {0.0013503782859146223667L, 0.11584529441175492525L, 0.060640860188739693744L,
         0.13845893251028850574L, 0.15356564583247539118L, 0.078236899911751821395L}}},
      {{0.42206018273218603998L,
        {0.0022543800161258129379L, 0.0022929766114979216881L, 0.13341013589381457175L,
         0.16320825138304168617L, 0.18241366195955362313L, 0.094360411403780257094L}}},
      {{0.32559100077218833258L,
        {0.0021777850130743890154L, 0.0022147886286958744863L, 0.0022579436435450658329L,
         0.33533499516868202448L, 0.21922214707427749463L, 0.11320133969953687904L}}},
      {{0.27740725283663902889L,
        {0.0064415554444194181529L, 0.0065591208645105472062L, 0.0066966197768929997617L,
         0.015138527987628957035L, 0.51379708959617140864L, 0.17395983349373768929L}},
       {0.27853917333663003042L,
        {0.00639635824351676939L, 0.0065130884673735290136L, 0.0066496105466822971151L,
         0.015032246204478918552L, 0.51361174943821606719L, 0.17325777376310244587L}}},
      {{0.33110776326303670292L,
        {0.02751737296179320952L, 0.028109629622990491186L, 0.028799824687101086546L,
         0.065284484442688223352L, 0.070744648758433282286L, 0.44843627626395708997L}}},
  };
}

TEST_CASE("mixed cycle: two pure equilibria that simultaneous best replies step around") {
  const auto options = SixPlayerCycle();
  // Seat i's best reply (0: its first policy, 1: its second) against the
  // cycle closed with seats 0 and 4 playing `w0` and `w4`.
  auto replies = [&](int w0, int w4) {
    std::vector<long double> weight(6, 0);
    weight[0] = w0;
    weight[4] = w4;
    const auto v = solver::CloseMixedCycle(options, weight);
    std::pair<int, int> best;
    for (int i : {0, 4}) {
      const long double next = v[(i + 1) % 6][i];
      const int reply = Own(options, i, 1, next) > Own(options, i, 0, next) ? 1 : 0;
      CHECK(std::abs(Own(options, i, 1, next) - Own(options, i, 0, next)) > 1e-11L);  // no tie
      (i == 0 ? best.first : best.second) = reply;
    }
    return best;
  };
  // Both careful and both bold are equilibria; each mixed pure pattern makes
  // both seats switch, into the other one: policy iteration swaps forever.
  CHECK(replies(0, 0) == std::pair{0, 0});
  CHECK(replies(1, 1) == std::pair{1, 1});
  CHECK(replies(0, 1) == std::pair{1, 0});
  CHECK(replies(1, 0) == std::pair{0, 1});
  // The first pure pattern in the search's order is taken: both careful.
  solver::MixedCycle mix;
  REQUIRE(solver::FindMixedEquilibrium(options, &mix));
  CHECK(mix.mixing == std::vector<bool>(6, false));
  CHECK(mix.weight[0] == 0);
  CHECK(mix.weight[4] == 0);
}

TEST_CASE("zero-score cycles: 6 players to 6, (1, 1, 1, 3, 3, 1) settles at a pure equilibrium" *
          doctest::test_suite("heavy")) {
  const std::vector<int> s = {1, 1, 1, 3, 3, 1};
  solver::GameSolveOptions options;
  options.rules = Rules{13, 3, 6};
  options.players = 6;
  options.threads = 2;
  options.floor = s;
  solver::GameSolveReport report;
  absl::StatusOr<solver::GameValues> g = solver::SolveGameValues(options, &report);
  REQUIRE(g.ok());
  CHECK(report.unconverged_examples.empty());
  CHECK(report.mixed_cycles == 0);
  CHECK(report.max_rounds > 17);  // settled after the watch, not by policy iteration alone
  CHECK(report.error_bound < 1e-12);
  // Every mover's stored chance is the exact optimum of its turn against
  // the stored next vectors, and every decision there is certified.
  CheckMoversExact(*g, s, report.error_bound);
  solver::CertifyOptions certify;
  certify.floor = certify.ceiling = s;
  absl::StatusOr<solver::CertificationReport> c = solver::CertifyGameValues(*g, certify);
  REQUIRE(c.ok());
  CHECK(c->contexts == 6);
  CHECK(c->largest_value_gap <= report.error_bound + 1e-15);
  CHECK(c->certified);
}

}  // namespace
}  // namespace martiandice
