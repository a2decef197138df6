// N-player solver: its two-player case against the two-player solver's table
// (read back with the table reader), and properties of 3- and 4-player values.
#include "game_solver.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "context_index.h"
#include "game_solver.h"
#include "nplayer_naive.h"
#include "convention_turn.h"
#include "martiandice/exact.h"
#include "martiandice/game.h"
#include "test_util.h"
#include "turn_model.h"

using namespace martiandice;

namespace {

// Calls fn(context) for every context of `players` seats (docs/FORMAT.md
// numbering order) and passes its index.
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

using test_util::SolveTinyValues;

// Largest gap between the N-player solve and the 2-player solver's table.
double GapToTwoPlayerSolver(const Rules& rules) {
  solver::GameSolveOptions options;
  options.rules = rules;
  solver::GameSolveReport two;
  auto bytes = solver::SolveGameTable(options, &two);
  REQUIRE(bytes.ok());
  auto table = GameTable::FromBytes(*std::move(bytes));
  REQUIRE(table.ok());
  solver::GameSolveReport report;
  solver::GameValues values = SolveTinyValues(rules, 2, &report, 2);
  CHECK(report.error_bound <= 1e-13);
  // The same bound formula and rounding as the two-player solver: close.
  CHECK(report.error_bound >= 0.5 * two.error_bound);
  CHECK(report.error_bound <= 2 * two.error_bound);
  double worst = 0;
  ForEachContext(rules, 2, [&](const GameContext& context, long long index) {
    auto w = table->WinProbabilities(context);
    REQUIRE(w.ok());
    for (int seat = 0; seat < 2; ++seat) {
      worst = std::max(worst, std::abs((*w)[seat] - values.win[index * 2 + seat]));
    }
  });
  return worst;
}

}  // namespace

TEST_CASE("n-player solver: two players agree with the two-player solver") {
  for (Rules rules : {Rules{3, 0, 5}, Rules{5, 2, 10}, Rules{8, 3, 15}}) {
    CAPTURE(rules.dice);
    const double gap = GapToTwoPlayerSolver(rules);
    MESSAGE("largest gap to the two-player solver: " << gap);
    CHECK(gap <= 1e-15);
  }
}

TEST_CASE("n-player solver: official two-player game agrees with the two-player solver") {
  const double gap = GapToTwoPlayerSolver(Rules{});
  MESSAGE("largest gap to the two-player solver: " << gap);
  CHECK(gap <= 1e-15);
}

TEST_CASE("n-player solver: 3 and 4 players, vectors are distributions, threads agree") {
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

TEST_CASE("n-player solver: 3 players, symmetric seats and more points") {
  const Rules rules{5, 2, 8};
  const int players = 3, target = rules.target, wide = target + MaxTurnScore(rules);
  solver::GameSolveReport report;
  solver::GameValues v = SolveTinyValues(rules, players, &report, 2);
  solver::ContextIndex index(rules, players);
  auto win = [&](int seat, std::vector<int> s, int j) {
    return v.win[index.Index(seat, s) * players + j];
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

TEST_CASE("n-player solver: double values within their bound of extended precision") {
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

TEST_CASE("n-player solver: bad options are refused") {
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

TEST_CASE("n-player solver: one turn solve rounds within the bound it assumes") {
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
      *worst = std::max(*worst, Gap(turn->value, exact_u.roll[start], exact_u.denominator,
                                    exponent));
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
  MESSAGE("largest rounding: extended " << worst_extended << ", double " << worst_double
                                        << ", extended before storing " << worst_wide
                                        << ", the policy's score law " << worst_law
                                        << " (its mass off 1 by " << worst_mass << ")");
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
TEST_CASE("n-player solver: a solve's range of utility[0] keeps its actions and ties") {
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
      CHECK(again.child == base.child);
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

TEST_CASE("n-player solver: a recorded policy has each law's classes at its own entries") {
  // TurnModel::LawClassBegin numbers every law's outcome classes; a solve
  // records each class's child there and PolicyScoreLaw reads them back. Each
  // entry must be an action of its own law's class: the rays' child (or -1
  // without rays, when the class shows no untaken type), or the child of a
  // take the class allows.
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
    REQUIRE(static_cast<int>(policy.child.size()) == model->LawClassCount());
    int laws = 0, entries = 0, takes = 0;
    for (int group = 0; group < model->size(); ++group) {
      const internal::CanonState& g = model->state(group);
      for (int q = 0; q <= g.left; ++q, ++laws) {
        const int law = model->LawIndex(group, q);
        const auto& classes = model->Classes(g.untaken, q);
        REQUIRE(model->LawClassBegin(law + 1) - model->LawClassBegin(law) ==
                static_cast<int>(classes.size()));
        for (size_t c = 0; c < classes.size(); ++c, ++entries) {
          const std::int32_t child = policy.child[model->LawClassBegin(law) + c];
          bool allowed = child == model->RayChild(group, q);
          for (int i = 0; i < classes[c].takes; ++i) {
            const bool take = child == model->EarthChild(group, classes[c].take[i]);
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

TEST_CASE("n-player solver: agrees with the naive full-state solver on tiny games") {
  struct Case {
    Rules rules;
    int players;
  };
  for (Case c : {Case{{2, 0, 3}, 3}, Case{{3, 1, 4}, 3}, Case{{3, 3, 5}, 3}, Case{{4, 3, 6}, 3}, Case{{2, 1, 3}, 4}}) {
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
    // The same counts of kingmaking: none, or some on both sides.
    CHECK((naive->takes.kingmaking + naive->stop_roll.kingmaking > 0) == (report.kingmaking > 0));
  }
}
