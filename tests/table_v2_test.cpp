// Format version 2 ("values only") policy tables: tables written by the
// N-player solver (solver/nplayer_table.h) and read back with the public
// reader; their win queries (turns solved on demand, cached) against the
// independent naive reference (tests/nplayer_naive.h) and, for two players,
// against the version 1 table of the two-player solver; corrupt, truncated,
// mislabelled and mismatched tables refused; many threads on one table.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "game_solver.h"
#include "martiandice/game.h"
#include "martiandice/query.h"
#include "martiandice/state_space.h"
#include "nplayer_naive.h"
#include "nplayer_table.h"
#include "table_builder.h"
#include "checksum.h"
#include "table_turns.h"
#include "table_writer.h"
#include "test_util.h"

using namespace martiandice;
namespace tb = table_builder;

namespace {

using test_util::SolveTinyTable;

GameTable Load(std::string bytes) {
  auto table = GameTable::FromBytes(std::move(bytes));
  REQUIRE_MESSAGE(table.ok(), table.status());
  return *std::move(table);
}

// Every concrete set-aside the rules allow (ValidateAside), start included.
std::vector<Dice> Asides(const Rules& rules) {
  std::vector<Dice> asides;
  const int n = rules.dice;
  for (int t = 0; t <= n; ++t)
    for (int r = 0; t + r <= n; ++r)
      for (int h = 0; t + r + h <= n; ++h)
        for (int c = 0; t + r + h + c <= n; ++c)
          for (int k = 0; t + r + h + c + k <= n; ++k) {
            Dice d(t, r, h, c, k);
            if (ValidateAside(rules, d).ok()) asides.push_back(d);
          }
  return asides;
}

// Every roll of `left` dice.
std::vector<Dice> Rolls(int left) {
  std::vector<Dice> rolls;
  for (int t = 0; t <= left; ++t)
    for (int r = 0; t + r <= left; ++r)
      for (int h = 0; t + r + h <= left; ++h)
        for (int c = 0; t + r + h + c <= left; ++c)
          rolls.emplace_back(t, r, h, c, left - t - r - h - c);
  return rolls;
}

std::array<int, 5> Counts(const Dice& d) {
  return {d.count(Face::kTank), d.count(Face::kRay), d.count(Face::kHuman), d.count(Face::kCow),
          d.count(Face::kChicken)};
}

// The naive reference's utility of ending the turn with x points (docs/FORMAT.md step 1),
// computed here from the naive values.
double NaiveUtility(const naive::NaiveGameResult& g, const naive::NaiveContext& c, int x) {
  const int p = g.players;
  std::vector<int> s = c.scores;
  s[c.mover] += x;
  bool final_round = false;
  for (int j = 0; j < c.mover; ++j) final_round = final_round || c.scores[j] >= g.rules.target;
  if (c.mover == p - 1 && (final_round || s[c.mover] >= g.rules.target)) {
    const int top = *std::max_element(s.begin(), s.end());
    if (s[c.mover] != top) return 0;
    return 1.0 / static_cast<double>(std::count(s.begin(), s.end(), top));
  }
  const std::int64_t next = naive::NaiveContextIndex(g.rules, p, (c.mover + 1) % p, s);
  REQUIRE(next >= 0);
  return g.values[next][c.mover];
}

int Score(const Rules& rules, const Dice& d) { return TurnScore(rules, d); }

// Every context, position and roll of the v2 table against the naive reference.
void CheckAgainstNaive(const Rules& rules, int players) {
  CAPTURE(rules.dice);
  CAPTURE(rules.bonus);
  CAPTURE(rules.target);
  CAPTURE(players);
  auto g = naive::NaiveGameValues(rules, players);
  REQUIRE(g.ok());
  REQUIRE(g->converged);
  const GameTable table = Load(SolveTinyTable(rules, players));
  CHECK(table.format_version() == 2);
  CHECK(table.players() == players);
  CHECK(table.block_count() == 0);
  CHECK(table.StoredStates().empty());
  REQUIRE(table.context_count() == static_cast<std::int64_t>(g->contexts.size()));
  const std::vector<Dice> asides = Asides(rules);
  double worst = 0;
  long long positions = 0, rolls = 0;
  for (std::size_t ci = 0; ci < g->contexts.size(); ++ci) {
    const naive::NaiveContext& nc = g->contexts[ci];
    const GameContext context{nc.scores, nc.mover};
    if (!ValidateContext(rules, players, context).ok()) continue;  // unreachable records
    CAPTURE(ci);
    auto record = table.Context(static_cast<std::int64_t>(ci));
    REQUIRE(record.ok());
    CHECK(record->block == -1);
    auto win = table.WinProbabilities(context);
    REQUIRE(win.ok());
    for (int j = 0; j < players; ++j) CHECK(std::abs((*win)[j] - g->values[ci][j]) <= 1e-12);
    for (const Dice& aside : asides) {
      auto eval = EvaluateWin(table, context, aside);
      REQUIRE(eval.ok());
      CHECK(eval->win_probabilities == *win);
      const std::optional<double> naive_roll =
          g->RollValue(static_cast<std::int64_t>(ci), Counts(aside));
      const int left = rules.dice - aside.total();
      if (naive_roll && left > 0) {
        REQUIRE(eval->position.roll.has_value());
        worst = std::max(worst, std::abs(eval->position.roll->approx - *naive_roll));
        CHECK(std::abs(eval->position.roll->approx - *naive_roll) <= 1e-12);
        ++positions;
      }
      if (!aside.empty()) {
        REQUIRE(eval->position.stop.has_value());
        CHECK(std::abs(eval->position.stop->approx - NaiveUtility(*g, nc, Score(rules, aside))) <=
              1e-12);
      }
      if (left == 0) continue;
      // The takes from every roll: stop values from the naive utilities, roll values from the
      // naive reference, and the advice's value their best.
      for (const Dice& roll : Rolls(left)) {
        auto advice = AdviseWin(table, context, aside, roll);
        if (!advice.ok()) continue;  // e.g. a roll at a position that cannot roll
        ++rolls;
        const RollAdvice& a = advice->advice;
        double best = -1;
        for (const TakeOption& o : a.options) {
          CHECK(std::abs(o.stop.approx - NaiveUtility(*g, nc, Score(rules, o.aside_after))) <=
                1e-12);
          double value = o.stop.approx;
          if (o.roll) {
            const std::optional<double> r =
                g->RollValue(static_cast<std::int64_t>(ci), Counts(o.aside_after));
            REQUIRE(r.has_value());
            CHECK(std::abs(o.roll->approx - *r) <= 1e-12);
            value = std::max(value, *r);
          }
          CHECK(std::abs(o.value.approx - value) <= 1e-12);
          best = std::max(best, value);
        }
        if (a.turn_over) {
          CHECK(std::abs(a.value.approx - NaiveUtility(*g, nc, a.turn_over_score)) <= 1e-12);
        } else {
          CHECK(std::abs(a.value.approx - best) <= 1e-12);
          REQUIRE(a.best.has_value());
          CHECK(a.options[*a.best].optimal);
        }
      }
    }
  }
  MESSAGE(players << " players, " << rules.dice << " dice, target " << rules.target << ": "
                  << positions << " roll values and " << rolls
                  << " rolls checked, largest roll-value gap " << worst);
  CHECK(positions > 0);
  CHECK(rolls > 0);
}

}  // namespace

TEST_CASE("table v2: 3 and 4 players, every query agrees with the naive reference") {
  CheckAgainstNaive(Rules{3, 3, 5}, 3);
  CheckAgainstNaive(Rules{3, 1, 4}, 3);
  CheckAgainstNaive(Rules{3, 1, 3}, 4);
}

TEST_CASE("table v2: two players agree with the two-player solver's version 1 table") {
  const Rules rules{5, 2, 10};
  solver::GameSolveOptions options;
  options.rules = rules;
  solver::GameSolveReport report;
  auto v1_bytes = solver::SolveGameTable(options, &report);
  REQUIRE(v1_bytes.ok());
  const GameTable v1 = Load(*std::move(v1_bytes));
  const GameTable v2 = Load(SolveTinyTable(rules, 2));
  REQUIRE(v1.format_version() == 1);
  REQUIRE(v2.format_version() == 2);
  const std::vector<Dice> asides = Asides(rules);
  double worst = 0;
  for (const GameContext& context : {GameContext{{0, 0}, 0}, GameContext{{7, 3}, 1},
                                     GameContext{{12, 9}, 1}, GameContext{{9, 9}, 0}}) {
    for (const Dice& aside : asides) {
      auto a = EvaluateWin(v1, context, aside);
      auto b = EvaluateWin(v2, context, aside);
      REQUIRE(a.ok());
      REQUIRE(b.ok());
      CHECK(a->position.roll.has_value() == b->position.roll.has_value());
      if (a->position.roll) {
        worst = std::max(worst, std::abs(a->position.roll->approx - b->position.roll->approx));
      }
      CHECK(std::abs(a->position.value.approx - b->position.value.approx) <= 1e-12);
      for (int j = 0; j < 2; ++j) {
        CHECK(std::abs(a->win_probabilities[j] - b->win_probabilities[j]) <= 1e-12);
      }
      const int left = rules.dice - aside.total();
      if (left == 0 || aside.total() > 2) continue;  // rolls from the first positions only
      for (const Dice& roll : Rolls(left)) {
        auto x = AdviseWin(v1, context, aside, roll);
        auto y = AdviseWin(v2, context, aside, roll);
        REQUIRE(x.ok() == y.ok());
        if (!x.ok()) continue;
        CHECK(std::abs(x->advice.value.approx - y->advice.value.approx) <= 1e-12);
        REQUIRE(x->advice.options.size() == y->advice.options.size());
        for (std::size_t i = 0; i < x->advice.options.size(); ++i) {
          CHECK(x->advice.options[i].optimal == y->advice.options[i].optimal);
        }
      }
    }
  }
  MESSAGE("largest roll-value gap between v1 and v2: " << worst);
  CHECK(worst <= 1e-12);
}

TEST_CASE("table v2: the header, layout and rules hash") {
  const Rules rules{3, 3, 5};
  const std::string bytes = SolveTinyTable(rules, 3);
  const std::int64_t contexts = tb::ContextCount(rules, 3);
  CHECK(bytes.size() == static_cast<std::size_t>(128 + contexts * 24));
  CHECK(tb::GetU32(bytes, tb::offset::kVersion) == 2);
  CHECK(tb::GetU32(bytes, tb::offset::kStateCount) == 0);
  CHECK(tb::GetU32(bytes, tb::offset::kBlockCount) == 0);
  CHECK(tb::GetU64(bytes, tb::offset::kStatesOffset) == bytes.size());
  CHECK(tb::GetU64(bytes, tb::offset::kRollsOffset) == bytes.size());
  // The hash of the documented version 2 rules string, computed by the test helper.
  CHECK(tb::GetU64(bytes, tb::offset::kRulesHash) ==
        tb::Fnv1a64("martiandice-policy v2 dice=3 bonus=3 target=5 players=3 values-only "
                    "ties=stop,rays,most-dice,human-cow-chicken"));
  CHECK(tb::Crc32(bytes, 0, 124) == tb::GetU32(bytes, tb::offset::kHeaderCrc));
  CHECK(tb::Crc32(bytes, 128, bytes.size()) == tb::GetU32(bytes, tb::offset::kPayloadCrc));
}

TEST_CASE("table v2: corrupt, truncated and mislabelled tables are refused") {
  const Rules rules{3, 3, 5};
  const std::string good = SolveTinyTable(rules, 3);
  REQUIRE(GameTable::FromBytes(good).ok());
  auto refused = [](const std::string& bytes, absl::StatusCode code, const std::string& words) {
    auto table = GameTable::FromBytes(bytes);
    REQUIRE_FALSE(table.ok());
    CHECK(table.status().code() == code);
    CHECK_MESSAGE(table.status().message().find(words) != std::string::npos, table.status());
  };
  SUBCASE("a flipped payload byte") {
    std::string bad = good;
    bad[200] ^= 0x10;
    refused(bad, absl::StatusCode::kDataLoss, "payload checksum");
  }
  SUBCASE("every truncation") {
    for (std::size_t n = 0; n < good.size(); n += 1 + n / 7) {
      auto table = GameTable::FromBytes(good.substr(0, n));
      REQUIRE_FALSE(table.ok());
      CHECK(table.status().code() == absl::StatusCode::kDataLoss);
    }
    refused(good.substr(0, good.size() - 8), absl::StatusCode::kDataLoss, "truncated");
  }
  SUBCASE("trailing bytes") {
    refused(good + std::string(8, '\0'), absl::StatusCode::kDataLoss, "trailing");
  }
  SUBCASE("a newer version") {
    std::string bad = good;
    tb::PutU32(bad, tb::offset::kVersion, 3);
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kFailedPrecondition, "newer");
  }
  SUBCASE("a version 1 header over the version 2 body") {
    std::string bad = good;
    tb::PutU32(bad, tb::offset::kVersion, 1);
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kFailedPrecondition, "rules hash");
    // ... even with the version 1 hash: the counts and sizes do not fit.
    tb::PutU64(bad, tb::offset::kRulesHash, solver::TableRulesHash(rules, 3, 1));
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kDataLoss, "state_count");
  }
  SUBCASE("a version 2 header over a version 1 body") {
    solver::GameSolveOptions options;
    options.rules = rules;
    solver::GameSolveReport report;
    std::string bad = *solver::SolveGameTable(options, &report);
    tb::PutU32(bad, tb::offset::kVersion, 2);
    tb::PutU64(bad, tb::offset::kRulesHash, solver::TableRulesHash(rules, 2, 2));
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kDataLoss, "state_count");
  }
  SUBCASE("the version 1 hash on a version 2 table") {
    std::string bad = good;
    tb::PutU64(bad, tb::offset::kRulesHash, solver::TableRulesHash(rules, 3, 1));
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kFailedPrecondition, "rules hash");
  }
  SUBCASE("counts and sizes of a version 2 table") {
    for (int field : {tb::offset::kStateCount, tb::offset::kBlockCount}) {
      std::string bad = good;
      tb::PutU32(bad, field, 1);
      tb::RefreshChecksums(bad);
      refused(bad, absl::StatusCode::kDataLoss, "stores no");
    }
    std::string bad = good;
    tb::PutU64(bad, tb::offset::kContextsSize, std::uint64_t{1} << 40);
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kDataLoss, "contexts_size");
    bad = good;
    tb::PutU64(bad, tb::offset::kRollsSize, 8);
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kDataLoss, "rolls_size");
  }
  SUBCASE("a value that is not a probability, and vectors not summing to 1") {
    std::string bad = good;
    tb::PutF64(bad, 128 + 8, 1.5);
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kDataLoss, "not a probability");
    bad = good;
    tb::PutF64(bad, 128, 0.0);
    tb::PutF64(bad, 136, 0.0);
    tb::PutF64(bad, 144, 0.5);
    tb::RefreshChecksums(bad);
    refused(bad, absl::StatusCode::kDataLoss, "sum to");
  }
}

TEST_CASE("table v2: a table for another player count or rules is refused by the query check") {
  const GameTable table = Load(SolveTinyTable(Rules{3, 3, 5}, 3));
  CHECK(CheckTableMatches(table, Rules{3, 3, 5}, 3).ok());
  absl::Status s = CheckTableMatches(table, Rules{3, 3, 5}, 2);
  CHECK(s.code() == absl::StatusCode::kFailedPrecondition);
  CHECK(std::string(s.message()) == "the table is for 3 players, but the game has 2");
  CHECK_FALSE(CheckTableMatches(table, Rules{3, 3, 6}, 3).ok());
  // A context of the wrong size is refused by the query itself.
  CHECK_FALSE(EvaluateWin(table, GameContext{{0, 0}, 0}, Dice()).ok());
  CHECK_FALSE(table.WinProbabilities(GameContext{{0, 0, 0, 0}, 0}).ok());
}

TEST_CASE("table v2: the bounded cache; many threads get the single-thread answers") {
  const Rules rules{4, 2, 6};
  const GameTable table = Load(SolveTinyTable(rules, 3));
  const internal::TurnCache& cache = *table.data().turns;
  CHECK(cache.capacity() >= 16);
  const std::vector<Dice> asides = Asides(rules);
  // Every context's roll values from the first position with dice left, twice over: more
  // contexts than the cache holds, so entries are evicted and solved again.
  std::vector<GameContext> contexts;
  for (std::int64_t i = 0; i < table.context_count(); ++i) {
    GameContext c = table.Context(i)->context;
    if (ValidateContext(rules, 3, c).ok()) contexts.push_back(c);
  }
  REQUIRE(static_cast<int>(contexts.size()) > cache.capacity());
  const Dice aside(0, 1, 0, 0, 0);
  const Dice roll(1, 1, 1, 0, 0);
  std::vector<double> expected;
  for (const GameContext& c : contexts) {
    auto a = AdviseWin(table, c, aside, roll);
    REQUIRE(a.ok());
    expected.push_back(a->advice.value.approx);
  }
  const std::int64_t misses = cache.misses();
  CHECK(misses >= static_cast<std::int64_t>(contexts.size()));
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int round = 0; round < 2; ++round) {
        for (std::size_t k = 0; k < contexts.size(); ++k) {
          const std::size_t i = (k * 7 + t * 13) % contexts.size();
          auto a = AdviseWin(table, contexts[i], aside, roll);
          if (!a.ok() || a->advice.value.approx != expected[i]) ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int m : mismatches) CHECK(m == 0);
  CHECK(cache.hits() + cache.misses() >= static_cast<std::int64_t>(9 * contexts.size()));
  // Repeated queries at one context are served from the cache.
  const std::int64_t before = cache.misses();
  for (int i = 0; i < 10; ++i) REQUIRE(AdviseWin(table, contexts[0], aside, roll).ok());
  CHECK(cache.misses() - before <= 1);
}

TEST_CASE("table v2: the convention picks the best take among tied ones") {
  // Final round, seat 2 cannot reach the leader: every take is worth 0 (tied); the
  // convention picks rays, else the earthling type showing the most dice.
  const Rules rules{4, 2, 6};
  const GameTable table = Load(SolveTinyTable(rules, 3));
  const GameContext context{{9, 0, 0}, 2};
  auto a = AdviseWin(table, context, Dice(), Dice(0, 1, 1, 2, 0));
  REQUIRE(a.ok());
  REQUIRE(a->advice.best.has_value());
  CHECK(a->advice.options[*a->advice.best].take == Face::kRay);
  auto b = AdviseWin(table, context, Dice(), Dice(0, 0, 1, 3, 0));
  REQUIRE(b.ok());
  for (const TakeOption& o : b->advice.options) CHECK(o.optimal);
  REQUIRE(b->advice.best.has_value());
  CHECK(b->advice.options[*b->advice.best].take == Face::kCow);
}
