// FinalRoundSolver (martiandice/final_round.h) against the shipped 2- and
// 3-player tables, a 4-player game with a hopeless seat, the naive reference
// solver (tests/support/nplayer_naive.h) and the game solver's own final
// rounds; its invariants, errors and work bound; the mover's turn primitive
// (SolveConventionRolls with a policy).
#include "martiandice/final_round.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "convention_turn.h"
#include "game_solver.h"
#include "martiandice/game_state.h"
#include "martiandice/table.h"
#include "nplayer_naive.h"
#include "test_util.h"
#include "turn_model.h"

namespace {

namespace md = martiandice;

// Every final-round context of a table's game: seat 1.. to move, a seat before
// it at or over the target, the others below it.
std::vector<md::GameContext> FinalRoundContexts(const md::Rules& rules, int players) {
  const int top = rules.target - 1 + md::MaxTurnScore(rules);
  std::vector<md::GameContext> out;
  std::vector<int> scores(players, 0);
  for (int seat = 1; seat < players; ++seat) {
    // Odometer over every seat's total, 0..top.
    std::fill(scores.begin(), scores.end(), 0);
    for (;;) {
      md::GameContext context{scores, seat};
      if (md::FinalRoundBegun(rules, scores, seat) &&
          md::ValidateContext(rules, players, context).ok()) {
        out.push_back(context);
      }
      int j = 0;
      while (j < players && ++scores[j] > top) scores[j++] = 0;
      if (j == players) break;
    }
  }
  return out;
}

double Sum(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return sum;
}

md::FinalRoundSolver Solver(const md::Rules& rules, int players,
                            const md::FinalRoundSolver::Options& options = {}) {
  auto solver = md::FinalRoundSolver::Create(rules, players, options);
  REQUIRE_MESSAGE(solver.ok(), solver.status().ToString());
  return *std::move(solver);
}

// The largest difference over every seat between the solver and `want`.
double Worst(const md::FinalRoundSolver& solver, const md::GameContext& context,
             const std::vector<double>& want) {
  auto got = solver.WinProbabilities(context);
  REQUIRE_MESSAGE(got.ok(), got.status().ToString());
  REQUIRE(got->size() == want.size());
  double worst = 0;
  for (std::size_t j = 0; j < want.size(); ++j)
    worst = std::max(worst, std::abs((*got)[j] - want[j]));
  return worst;
}

}  // namespace

TEST_CASE("final round: the mover's solve records the policy a one-lane solve records") {
  const md::Rules rules;
  auto model = md::internal::TurnModel::Get(rules);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int top = md::MaxTurnScore(rules);
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<double> utility(top + 1);
    for (double& u : utility) u = unit(rng);
    if (trial % 3 == 0) std::fill(utility.begin(), utility.begin() + 1 + trial % 7, 0.0);  // ties
    if (trial % 5 == 0) std::sort(utility.begin(), utility.end());
    std::vector<double> carried(top + 1, 0.0);
    carried[0] = 1;
    std::vector<std::vector<double>> lanes{carried};
    md::internal::ConventionTurn turn;
    md::internal::ConventionPolicy want, got;
    md::internal::SolveConvention(*model, utility, lanes, 0, md::internal::Arithmetic::kDouble,
                                  &turn, &want);
    std::vector<double> rolls, plain;
    got.zero_lane = 3;  // ignored: no lane to keep a range by
    md::internal::SolveConventionRolls(*model, utility, md::internal::Arithmetic::kDouble, &rolls,
                                       &got);
    md::internal::SolveConventionRolls(*model, utility, md::internal::Arithmetic::kDouble, &plain);
    CHECK(got.rolls == want.rolls);
    CHECK(got.take == want.take);
    CHECK(got.zero_lane == -1);
    REQUIRE(rolls.size() == plain.size());  // bit for bit: NaN where no dice are left
    CHECK(std::memcmp(rolls.data(), plain.data(), rolls.size() * sizeof(double)) == 0);
    // The law of the turn's score gives the solve's own value.
    std::vector<md::internal::Wide> law;
    md::internal::PolicyScoreLaw(*model, got, &law);
    double value = 0;
    for (int x = 0; x <= top; ++x) value += static_cast<double>(law[x]) * utility[x];
    CHECK(std::abs(value - turn.value) <= 1e-15);
  }
}

TEST_CASE("final round: every final-round context of the shipped 2- and 3-player tables") {
  for (int players : {2, 3}) {
    CAPTURE(players);
    const md::GameTable table = test_util::ShippedTable(players);
    const md::FinalRoundSolver solver = Solver(table.rules(), players);
    const std::vector<md::GameContext> contexts = FinalRoundContexts(table.rules(), players);
    CHECK(contexts.size() == (players == 2 ? 16 * 25u : 36'400u));
    double worst = 0;
    for (const md::GameContext& context : contexts) {
      auto want = table.WinProbabilities(context);
      REQUIRE(want.ok());
      worst = std::max(worst, Worst(solver, context, *want));
    }
    CHECK(worst <= 1e-14);
    // The official final round needs few turn solves: one per state.
    CHECK(solver.stats().turn_solves <= solver.stats().states);
  }
}

TEST_CASE("final round: a fourth seat that cannot catch up changes nothing") {
  const md::GameTable table = test_util::ShippedTable(3);
  const md::FinalRoundSolver solver = Solver(table.rules(), 4);
  const int top = md::MaxTurnScore(table.rules());
  double worst = 0;
  int hopeless = 0;
  for (int lead = 25; lead <= 40; lead += 3) {
    for (int a = 0; a < 25; a += 2) {
      for (int b = 0; b < 25; b += 3) {
        // The hopeless seat is more than a turn's best behind, before or after the mover.
        const int far = std::max(0, lead - top - 1 - (a % 5));
        if (lead - far <= top) continue;
        ++hopeless;
        auto want = table.WinProbabilities({{lead, a, b}, 1});
        REQUIRE(want.ok());
        auto after = solver.WinProbabilities({{lead, a, far, b}, 1});
        REQUIRE(after.ok());
        CHECK((*after)[2] == 0.0);
        worst = std::max({worst, std::abs((*after)[0] - (*want)[0]),
                          std::abs((*after)[1] - (*want)[1]), std::abs((*after)[3] - (*want)[2])});
        auto before = solver.WinProbabilities({{lead, far, a, b}, 2});
        REQUIRE(before.ok());
        CHECK((*before)[1] == 0.0);
        worst =
            std::max({worst, std::abs((*before)[0] - (*want)[0]),
                      std::abs((*before)[2] - (*want)[1]), std::abs((*before)[3] - (*want)[2])});
      }
    }
  }
  CHECK(hopeless > 100);
  CHECK(worst <= 1e-14);
}

TEST_CASE("final round: tiny games of 4 and 5 players against the naive reference") {
  struct Case {
    md::Rules rules;
    int players;
  };
  for (const Case& c : {Case{{3, 1, 3}, 4}, Case{{2, 0, 2}, 5}}) {
    CAPTURE(c.players);
    auto naive = md::naive::NaiveGameValues(c.rules, c.players);
    REQUIRE_MESSAGE(naive.ok(), naive.status().ToString());
    REQUIRE(naive->converged);
    const md::FinalRoundSolver solver = Solver(c.rules, c.players);
    int compared = 0;
    double worst = 0;
    for (std::size_t i = 0; i < naive->contexts.size(); ++i) {
      const md::GameContext context{naive->contexts[i].scores, naive->contexts[i].mover};
      if (!md::FinalRoundBegun(c.rules, context.scores, context.seat)) continue;
      ++compared;
      worst = std::max(worst, Worst(solver, context, naive->values[i]));
    }
    CHECK(compared > 100);
    CHECK(worst <= 1e-12);
  }
}

TEST_CASE("final round: the game solver's own 4-player final rounds") {
  const md::Rules rules{5, 2, 8};
  md::solver::GameSolveReport report;
  auto bytes = md::solver::SolveGameTable(test_util::TinyOptions(rules, 4), &report);
  REQUIRE(bytes.ok());
  auto table = md::GameTable::FromBytes(*std::move(bytes));
  REQUIRE(table.ok());
  const md::FinalRoundSolver solver = Solver(rules, 4);
  double worst = 0;
  const std::vector<md::GameContext> contexts = FinalRoundContexts(rules, 4);
  for (const md::GameContext& context : contexts) {
    auto want = table->WinProbabilities(context);
    REQUIRE(want.ok());
    worst = std::max(worst, Worst(solver, context, *want));
  }
  CHECK(contexts.size() > 1000);
  CHECK(worst <= 1e-13);
}

TEST_CASE("final round: chances sum to 1, and the answers do not depend on the cache") {
  const md::Rules rules;
  md::FinalRoundSolver::Options tiny;
  tiny.max_value_bytes = 1024;
  const md::FinalRoundSolver roomy = Solver(rules, 5), cramped = Solver(rules, 5, tiny);
  std::mt19937_64 rng(9);
  auto uniform = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  const int top = md::MaxTurnScore(rules);
  for (int trial = 0; trial < 40; ++trial) {
    const int seat = uniform(1, 4);
    std::vector<int> scores(5);
    for (int j = 0; j < 5; ++j) scores[j] = j < seat ? uniform(0, 40) : uniform(0, 24);
    scores[uniform(0, seat - 1)] = uniform(25, 40);
    const md::GameContext context{scores, seat};
    auto chances = roomy.WinProbabilities(context);
    REQUIRE_MESSAGE(chances.ok(), chances.status().ToString());
    CHECK(std::abs(Sum(*chances) - 1) <= 1e-14);
    const int leader = *std::max_element(scores.begin(), scores.begin() + seat);
    for (int j = 0; j < 5; ++j) {
      const bool behind = j < seat ? scores[j] < leader : leader - scores[j] > top;
      if (behind) CHECK((*chances)[j] == 0.0);
      if (!behind) CHECK((*chances)[j] > 0.0);
    }
    auto again = cramped.WinProbabilities(context);
    REQUIRE(again.ok());
    CHECK(*again == *chances);  // bit for bit
    // The mover's utility: 0 below the leader, its chance at the leader's
    // total or above, growing with its score.
    auto utility = roomy.MoverUtility(context);
    REQUIRE(utility.ok());
    REQUIRE(utility->size() == static_cast<std::size_t>(top + 1));
    for (int x = 0; x <= top; ++x) {
      if (scores[seat] + x < leader) CHECK((*utility)[x] == 0.0);
      if (x > 0 && scores[seat] + x > leader) CHECK((*utility)[x] >= (*utility)[x - 1]);
    }
  }
  CHECK(cramped.stats().states <= 16);
  CHECK(cramped.stats().value_bytes <= 16 * 128);
  CHECK(roomy.stats().value_bytes <= md::FinalRoundSolver::Options{}.max_value_bytes);
  CHECK(cramped.stats().turn_solves > roomy.stats().turn_solves);  // evicted states solved again
}

TEST_CASE("final round: bad requests and the work bound") {
  const md::Rules rules;
  CHECK(md::FinalRoundSolver::Create(md::Rules{0, 3, 25}, 3).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(md::FinalRoundSolver::Create(rules, 7).status().code() ==
        absl::StatusCode::kInvalidArgument);
  const md::FinalRoundSolver solver = Solver(rules, 4);
  auto early = solver.WinProbabilities({{20, 24, 3, 0}, 2});
  REQUIRE(early.status().code() == absl::StatusCode::kInvalidArgument);
  CHECK(early.status().message() ==
        "no final round at totals 20,24,3,0 with seat 2 to move: no seat before it has reached the "
        "target 25");
  CHECK(solver.WinProbabilities({{26, 24, 3}, 1}).status().code() ==
        absl::StatusCode::kInvalidArgument);  // three totals for four seats
  CHECK(solver.MoverUtility({{26, 3, 25, 0}, 2}).status().code() ==
        absl::StatusCode::kInvalidArgument);  // the mover at the target: the game is over
  md::FinalRoundSolver::Options little;
  little.max_work = 1;
  const md::FinalRoundSolver bounded = Solver(rules, 4, little);
  auto over = bounded.WinProbabilities({{26, 20, 22, 24}, 1});
  REQUIRE(over.status().code() == absl::StatusCode::kResourceExhausted);
  CHECK(over.status().message() ==
        "the final round at totals 26,20,22,24 with seat 1 to move may need 109 turn solves of "
        "2175 positions, more work than max_work 1 allows");
  CHECK(bounded.stats().turn_solves == 0);
  // The last seat's turn is always allowed: one solve.
  auto last = bounded.WinProbabilities({{26, 20, 22, 24}, 3});
  REQUIRE(last.ok());
  CHECK(bounded.stats().turn_solves == 1);
  auto same = solver.WinProbabilities({{26, 20, 22, 24}, 3});
  REQUIRE(same.ok());
  CHECK(*same == *last);
}

TEST_CASE("final round: stop, roll and take answers are the 3-player table's") {
  const md::GameTable table = test_util::ShippedTable(3);
  const md::Rules rules = table.rules();
  const md::FinalRoundSolver solver = Solver(rules, 3);
  std::mt19937_64 rng(13);
  auto uniform = [&](int a, int b) { return std::uniform_int_distribution<int>(a, b)(rng); };
  // Every position a turn can reach.
  std::vector<md::Dice> asides;
  for (int t = 0; t <= rules.dice; ++t)
    for (int r = 0; t + r <= rules.dice; ++r)
      for (int h = 0; t + r + h <= rules.dice; ++h)
        for (int c = 0; t + r + h + c <= rules.dice; ++c)
          for (int k = 0; t + r + h + c + k <= rules.dice; ++k) {
            const md::Dice aside(t, r, h, c, k);
            if (md::ValidateAside(rules, aside).ok()) asides.push_back(aside);
          }
  int positions = 0, rolls = 0, different = 0;
  double worst = 0;
  auto near = [&](const std::optional<md::Value>& a, const std::optional<md::Value>& b) {
    if (a.has_value() != b.has_value()) return false;
    if (a) worst = std::max(worst, std::abs(a->approx - b->approx));
    return true;
  };
  for (int trial = 0; trial < 8; ++trial) {
    const int seat = uniform(1, 2);
    std::vector<int> scores{uniform(25, 32), seat == 2 ? uniform(10, 30) : uniform(10, 24),
                            uniform(10, 24)};
    const md::GameContext context{scores, seat};
    for (const md::Dice& aside : asides) {
      auto want = md::EvaluateWin(table, context, aside);
      auto got = solver.Evaluate(context, aside);
      REQUIRE(want.ok());
      REQUIRE(got.ok());
      ++positions;
      different += got->position.action != want->position.action;
      different += !near(got->position.stop, want->position.stop);
      different += !near(got->position.roll, want->position.roll);
      worst = std::max(worst, std::abs(got->position.value.approx - want->position.value.approx));
      if (trial == 0) CHECK(got->win_probabilities == *solver.WinProbabilities(context));
      const int left = rules.dice - aside.total();
      if (left == 0 || uniform(0, 9) != 0) continue;
      md::Dice roll;
      for (int i = 0; i < left; ++i) {
        const md::Face face = md::kAllFaces[std::min(uniform(0, 5), 4)];
        roll.set(face, roll.count(face) + 1);
      }
      auto advice = md::AdviseWin(table, context, aside, roll);
      auto mine = solver.Advise(context, aside, roll);
      REQUIRE(advice.ok() == md::ValidateRoll(rules, aside, roll).ok());
      if (!advice.ok()) continue;
      REQUIRE(mine.ok());
      ++rolls;
      const md::RollAdvice &a = mine->advice, &b = advice->advice;
      different +=
          a.best != b.best || a.turn_over != b.turn_over || a.options.size() != b.options.size();
      for (std::size_t i = 0; i < std::min(a.options.size(), b.options.size()); ++i) {
        different += a.options[i].take != b.options[i].take ||
                     a.options[i].then != b.options[i].then ||
                     a.options[i].optimal != b.options[i].optimal;
        worst = std::max(worst, std::abs(a.options[i].value.approx - b.options[i].value.approx));
      }
    }
  }
  CHECK(positions > 10'000);
  CHECK(rolls > 500);
  CHECK(different == 0);
  CHECK(worst <= 1e-14);
  CHECK(solver.stats().mover_turns <= 8);  // each mover's turn solved once
  // Bad positions and rolls are refused.
  const md::GameContext context{{26, 20, 3}, 1};
  CHECK(solver.Evaluate(context, md::Dice(14, 0, 0, 0, 0)).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(solver.Advise(context, md::Dice(), md::Dice(1, 0, 0, 0, 0)).status().code() ==
        absl::StatusCode::kInvalidArgument);
  CHECK(solver.Evaluate({{20, 20, 3}, 1}, md::Dice()).status().code() ==
        absl::StatusCode::kInvalidArgument);
}

// Plays `rounds` final rounds from `context`, every seat still to move taking
// the solver's best take and stopping where it says (stop when tied), and
// compares each seat's share of the wins with the solver's chances.
static void SimulateFinalRounds(const md::GameContext& context, int rounds) {
  const md::Rules rules;
  const int players = static_cast<int>(context.scores.size());
  const md::FinalRoundSolver solver = Solver(rules, players);
  auto predicted = solver.WinProbabilities(context);
  REQUIRE(predicted.ok());
  std::vector<double> wins(players, 0.0);
  for (int round = 0; round < rounds; ++round) {
    md::DiceRng rng = md::SeededRng(17, round);
    auto start = md::GameState::AtTurnStart(rules, players, context);
    REQUIRE(start.ok());
    md::GameState state = *std::move(start);
    while (!state.over()) {
      absl::StatusOr<md::MoveResult> moved;
      if (state.phase() == md::Phase::kRoll) {
        moved = state.Roll(md::RollDice(state.dice_left(), rng));
      } else if (state.phase() == md::Phase::kTake) {
        auto advice = solver.Advise(state.context(), state.aside_before_roll(), state.roll());
        REQUIRE(advice.ok());
        REQUIRE(advice->advice.best.has_value());
        moved = state.Take(advice->advice.options[*advice->advice.best].take);
      } else {
        auto eval = solver.Evaluate(state.context(), state.aside());
        REQUIRE(eval.ok());
        moved = eval->position.action == md::Then::kRoll ? state.RollOn() : state.Stop();
      }
      REQUIRE(moved.ok());
    }
    const std::vector<int> winners = state.winners();
    for (int seat : winners) wins[seat] += 1.0 / static_cast<double>(winners.size());
  }
  for (int seat = 0; seat < players; ++seat) {
    const double p = (*predicted)[seat], share = wins[seat] / rounds;
    const double sigma = std::sqrt(std::max(p * (1 - p), 1.0 / rounds) / rounds);
    CAPTURE(seat);
    CAPTURE(p);
    CAPTURE(share);
    CHECK(std::abs(share - p) <= 4.5 * sigma);
  }
}

TEST_CASE("final round: simulated rounds win as often as the solver predicts") {
  SimulateFinalRounds({{25, 23, 24, 22}, 1}, 20'000);
  SimulateFinalRounds({{26, 12, 24, 24, 23}, 2}, 20'000);
}
