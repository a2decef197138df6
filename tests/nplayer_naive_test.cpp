// Checks of the naive N-player reference solver (tests/nplayer_naive.h) that do not depend on
// the fast N-player solver: probabilities, agreement with the two-player table solver, vectors
// derived on paper, final rounds against a direct recursive enumeration with ordered dice,
// monotonicity in a seat's own total, and independence of the starting guess.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "game_solver.h"
#include "martiandice/game.h"
#include "martiandice/rules.h"
#include "nplayer_naive.h"

namespace {

namespace md = martiandice;
namespace nv = martiandice::naive;

std::string Describe(const md::Rules& r, int players) {
  std::ostringstream out;
  out << "dice=" << r.dice << " bonus=" << r.bonus << " target=" << r.target
      << " players=" << players;
  return out.str();
}

std::string Describe(int mover, const std::vector<int>& scores) {
  std::ostringstream out;
  out << "mover " << mover << ", totals";
  for (int s : scores) out << ' ' << s;
  return out.str();
}

std::string Show(const std::vector<double>& v) {
  std::ostringstream out;
  out.precision(17);
  out << '(';
  for (std::size_t j = 0; j < v.size(); ++j) out << (j ? ", " : "") << v[j];
  out << ')';
  return out.str();
}

// Collects failures so that thousands of comparisons do not each become an assertion; the
// first few are shown.
class Failures {
 public:
  void Check(bool ok, const std::string& what) {
    if (ok) return;
    if (count_ < 5) first_ += "\n  " + what;
    ++count_;
  }
  void Near(double got, double want, double tol, const std::string& what) {
    std::ostringstream out;
    out.precision(17);
    out << what << ": " << got << " vs " << want;
    Check(std::fabs(got - want) <= tol, out.str());
  }
  void Report(const std::string& title) const {
    INFO(title << ": " << count_ << " failures" << first_);
    CHECK(count_ == 0);
  }

 private:
  int count_ = 0;
  std::string first_;
};

// Solved once per run and shared by the test cases.
const nv::NaiveGameResult& Solved(const md::Rules& rules, int players) {
  static std::map<std::array<int, 4>, std::unique_ptr<nv::NaiveGameResult>> cache;
  auto& slot = cache[{rules.dice, rules.bonus, rules.target, players}];
  if (!slot) {
    absl::StatusOr<nv::NaiveGameResult> r = nv::NaiveGameValues(rules, players);
    REQUIRE_MESSAGE(r.ok(), r.status().ToString());
    slot = std::make_unique<nv::NaiveGameResult>(*std::move(r));
  }
  return *slot;
}

const std::vector<double>& At(const nv::NaiveGameResult& g, int mover,
                              const std::vector<int>& scores) {
  const std::int64_t i = nv::NaiveContextIndex(g.rules, g.players, mover, scores);
  REQUIRE_MESSAGE(i >= 0, Describe(mover, scores));
  REQUIRE(g.contexts[i].mover == mover);
  REQUIRE(g.contexts[i].scores == scores);
  return g.values[i];
}

struct Case {
  md::Rules rules;
  int players;
};

// The variants solved by several test cases (about 1 s together in Release).
const std::vector<Case>& SelfCheckCases() {
  static const std::vector<Case> cases = {
      {{1, 0, 1}, 3}, {{1, 0, 2}, 3}, {{2, 0, 1}, 3}, {{2, 0, 2}, 3}, {{2, 0, 3}, 3},
      {{3, 1, 4}, 3}, {{3, 3, 5}, 3}, {{4, 2, 6}, 3}, {{2, 0, 2}, 4}, {{3, 1, 3}, 4},
  };
  return cases;
}

// ---------------------------------------------------------------------------------------------
// A direct recursive enumeration of the final round's remaining turns, written separately from
// the reference solver: ordered dice (6^n outcomes, sides 1 and 2 Death Ray), recursion over
// the turn (memoised by set-aside within one turn), the tie convention of docs/PLAYERS.md applied
// through an explicit priority key. The final round has no cycle, so this is exact recursion.

using Vec = std::vector<double>;
// Faces of the six sides: 0 tank, 1 and 2 ray, 3 human, 4 cow, 5 chicken.
constexpr std::array<int, 6> kSide = {0, 1, 1, 2, 3, 4};

class FinalRound {
 public:
  FinalRound(const md::Rules& rules, int players) : rules_(rules), players_(players) {}

  // The remaining turns of the final round from `mover` on with totals `totals`.
  Vec Value(const std::vector<int>& totals, int mover) {
    if (mover == players_) {
      const int best = *std::max_element(totals.begin(), totals.end());
      const int n = static_cast<int>(std::count(totals.begin(), totals.end(), best));
      Vec out(players_, 0.0);
      for (int j = 0; j < players_; ++j)
        if (totals[j] == best) out[j] = 1.0 / n;
      return out;
    }
    Turn turn{this, totals, mover, {}};
    return turn.RollFrom({0, 0, 0, 0, 0});
  }

 private:
  using Aside = std::array<int, 5>;

  struct Turn {
    FinalRound* game;
    std::vector<int> totals;
    int mover;
    std::map<int, Vec> ends;       // the rest of the round after this turn scores x
    std::map<Aside, Vec> rolled;  // rolling from a set-aside (memo: positions recur)

    Vec End(const Aside& a) {
      int x = 0;
      if (a[0] <= a[1]) {
        x = a[2] + a[3] + a[4];
        if (a[2] && a[3] && a[4]) x += game->rules_.bonus;
      }
      auto it = ends.find(x);
      if (it != ends.end()) return it->second;
      std::vector<int> t = totals;
      t[mover] += x;
      return ends[x] = game->Value(t, mover + 1);
    }
    int Left(const Aside& a) const { return game->rules_.dice - a[0] - a[1] - a[2] - a[3] - a[4]; }

    Vec RollFrom(const Aside& a) {
      auto it = rolled.find(a);
      if (it != rolled.end()) return it->second;
      const int n = Left(a);
      int outcomes = 1;
      for (int i = 0; i < n; ++i) outcomes *= 6;
      Vec sum(game->players_, 0.0);
      for (int code = 0; code < outcomes; ++code) {
        Aside roll{};
        for (int i = 0, x = code; i < n; ++i, x /= 6) ++roll[kSide[x % 6]];
        const Vec v = AfterRoll(a, roll);
        for (int j = 0; j < game->players_; ++j) sum[j] += v[j];
      }
      for (double& s : sum) s /= outcomes;
      return rolled[a] = sum;
    }

    Vec AfterRoll(const Aside& a, const Aside& roll) {
      Aside base = a;
      base[0] += roll[0];
      // (priority key, value): lower key wins ties: rays (0), then earthlings by more dice,
      // then Human < Cow < Chicken.
      std::vector<std::pair<int, Vec>> options;
      for (int f = 1; f <= 4; ++f) {
        if (roll[f] == 0 || (f >= 2 && a[f] > 0)) continue;
        Aside next = base;
        next[f] += roll[f];
        const int key = f == 1 ? 0 : 100 * (100 - roll[f]) + f;
        options.push_back({key, AfterTake(next)});
      }
      if (options.empty()) return End(base);
      double best = -1;
      for (const auto& o : options) best = std::max(best, o.second[mover]);
      const std::pair<int, Vec>* chosen = nullptr;
      for (const auto& o : options)
        if (o.second[mover] >= best - 1e-12 && (!chosen || o.first < chosen->first)) chosen = &o;
      return chosen->second;
    }

    Vec AfterTake(const Aside& a) {
      Vec stop = End(a);
      if (Left(a) == 0) return stop;
      Vec roll = RollFrom(a);
      return roll[mover] > stop[mover] + 1e-12 ? roll : stop;
    }
  };

  md::Rules rules_;
  int players_;
};

bool IsFinal(const nv::NaiveContext& c, int target) {
  for (int j = 0; j < c.mover; ++j)
    if (c.scores[j] >= target) return true;
  return false;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("nplayer naive: converges to probability vectors") {
  for (const Case& c : SelfCheckCases()) {
    CAPTURE(Describe(c.rules, c.players));
    const nv::NaiveGameResult& g = Solved(c.rules, c.players);
    CHECK(g.converged);
    CHECK(g.residual < 1e-15);
    CHECK(g.max_turn == md::MaxTurnScore(c.rules));
    REQUIRE(g.values.size() == g.contexts.size());
    // The FORMAT.md context count.
    const std::int64_t span = c.rules.target + g.max_turn;
    std::int64_t count = 0;
    for (int i = 0; i < c.players; ++i) {
      std::int64_t size = 1;
      for (int j = 0; j < c.players; ++j) size *= j < i ? span : c.rules.target;
      count += size;
    }
    CHECK(static_cast<std::int64_t>(g.contexts.size()) == count);
    Failures f;
    for (std::size_t ci = 0; ci < g.contexts.size(); ++ci) {
      const nv::NaiveContext& ctx = g.contexts[ci];
      const std::string where = Describe(ctx.mover, ctx.scores);
      f.Check(nv::NaiveContextIndex(c.rules, c.players, ctx.mover, ctx.scores) ==
                  static_cast<std::int64_t>(ci),
              "index round trip at " + where);
      const std::vector<double>& v = g.values[ci];
      f.Check(static_cast<int>(v.size()) == c.players, "vector size at " + where);
      double sum = 0;
      for (double p : v) {
        f.Check(p >= 0 && p <= 1, "entry out of [0,1] at " + where + ": " + Show(v));
        sum += p;
      }
      f.Near(sum, 1.0, 1e-12, "sum at " + where + " " + Show(v));
    }
    f.Report(Describe(c.rules, c.players));
  }
}

TEST_CASE("nplayer naive: bad requests are refused") {
  CHECK(!nv::NaiveGameValues(md::Rules{2, 0, 2}, 1).ok());
  CHECK(!nv::NaiveGameValues(md::Rules{2, 0, 2}, 7).ok());
  CHECK(!nv::NaiveGameValues(md::Rules{0, 0, 2}, 3).ok());
  CHECK(!nv::NaiveGameValues(md::Rules{13, 3, 25}, 3).ok());  // far too big for a naive solve
  CHECK(nv::NaiveContextIndex(md::Rules{2, 0, 2}, 3, 0, {0, 0, 2}) == -1);  // seat 2 at target
  CHECK(nv::NaiveContextIndex(md::Rules{2, 0, 2}, 3, 3, {0, 0, 0}) == -1);
  CHECK(nv::NaiveContextIndex(md::Rules{2, 0, 2}, 3, 0, {0, 0}) == -1);
  // FORMAT.md: T = 2, M = 2, A = 4; mover 0 has 8 contexts, mover 1 has 16, then mover 2.
  CHECK(nv::NaiveContextIndex(md::Rules{2, 0, 2}, 3, 0, {1, 0, 1}) == 5);
  CHECK(nv::NaiveContextIndex(md::Rules{2, 0, 2}, 3, 1, {3, 1, 0}) == 8 + 3 * 4 + 1 * 2 + 0);
  CHECK(nv::NaiveContextIndex(md::Rules{2, 0, 2}, 3, 2, {3, 2, 1}) == 8 + 16 + (3 * 4 + 2) * 2 + 1);
}

TEST_CASE("nplayer naive: two players agree with the two-player table solver") {
  const std::vector<md::Rules> variants = {{2, 0, 3}, {3, 1, 4}, {3, 3, 7}, {4, 2, 6}};
  for (const md::Rules& rules : variants) {
    CAPTURE(Describe(rules, 2));
    const nv::NaiveGameResult& g = Solved(rules, 2);
    REQUIRE(g.converged);
    md::solver::GameSolveOptions options;
    options.rules = rules;
    options.players = 2;
    md::solver::GameSolveReport report;
    absl::StatusOr<std::string> bytes = md::solver::SolveGameTable(options, &report);
    REQUIRE_MESSAGE(bytes.ok(), bytes.status().ToString());
    absl::StatusOr<md::GameTable> table = md::GameTable::FromBytes(*std::move(bytes));
    REQUIRE_MESSAGE(table.ok(), table.status().ToString());
    REQUIRE(table->context_count() == static_cast<std::int64_t>(g.contexts.size()));
    Failures f;
    for (std::size_t ci = 0; ci < g.contexts.size(); ++ci) {
      const nv::NaiveContext& c = g.contexts[ci];
      const std::string where = Describe(c.mover, c.scores);
      // The table's record at the same index is the same context (FORMAT.md numbering) ...
      absl::StatusOr<md::GameTable::ContextRecord> rec = table->Context(ci);
      f.Check(rec.ok(), "table record at " + where);
      if (!rec.ok()) continue;
      f.Check(rec->context.seat == c.mover && rec->context.scores == c.scores,
              "record context at index " + std::to_string(ci) + " is not " + where);
      // ... and the query API gives the same vector.
      absl::StatusOr<std::vector<double>> w = table->WinProbabilities({c.scores, c.mover});
      f.Check(w.ok() && w->size() == 2, "WinProbabilities at " + where);
      if (!w.ok() || w->size() != 2) continue;
      for (int j = 0; j < 2; ++j) {
        f.Near(g.values[ci][j], (*w)[j], 1e-12, "seat " + std::to_string(j) + " at " + where);
        f.Near(g.values[ci][j], rec->win_probabilities[j], 1e-12,
               "record seat " + std::to_string(j) + " at " + where);
      }
    }
    f.Report(Describe(rules, 2));
    // Two players: zero-sum, so the tie convention never decides anything for the other seat.
    CHECK(g.takes.kingmaking == 0);
    CHECK(g.stop_roll.kingmaking == 0);
  }
}

// One die, target 1, three players. A turn rolls one die: Tank (1/6) cannot be taken and scores
// 0; a Ray (2/6) is taken and scores 0 (no earthlings); an earthling (3/6) is taken and scores 1.
// So every turn scores 1 with probability q = 1/2, independently, and there are no decisions.
// - (mover 0; 0,0,0): a round is played; if nobody scores it repeats; else the scorers of that
//   round split the win. The round is symmetric in the seats: 1/3 each.
// - (mover 1; 0,0,0): seats 1 and 2 roll; both score: (0, 1/2, 1/2); one scores: it wins; none
//   (1/4): back to (mover 0; 0,0,0) = 1/3 each. = (1/12, 1/8 + 1/4 + 1/12, same)
//   = (1/12, 11/24, 11/24).
// - (mover 1; 1,0,0), final: seat 0 keeps 1 and shares with each of seats 1, 2 that scores.
//   Seat 0: 1/4 (none) + 1/2 * 1/2 (one) + 1/4 * 1/3 (both) = 7/12; seat 1: 1/2 * (1/2 * 1/2
//   + 1/2 * 1/3) = 5/24; seat 2 likewise 5/24.
// - (mover 2; 0,0,0): seat 2 scores (1/2) and wins alone, or the round restarts:
//   (1/6, 1/6, 1/2 + 1/6).
// - (mover 2; 1,0,0): seat 2 ties seat 0 with 1/2: (3/4, 0, 1/4).
// - (mover 2; 1,1,0): (1/2 * 1/2 + 1/2 * 1/3, same, 1/2 * 1/3) = (5/12, 5/12, 1/6).
// - (mover 2; 0,1,0): (0, 3/4, 1/4).
TEST_CASE("nplayer naive: one die, target 1, three players, on paper") {
  const nv::NaiveGameResult& g = Solved(md::Rules{1, 0, 1}, 3);
  REQUIRE(g.converged);
  const std::vector<std::pair<std::pair<int, std::vector<int>>, std::vector<double>>> expect = {
      {{0, {0, 0, 0}}, {1.0 / 3, 1.0 / 3, 1.0 / 3}},
      {{1, {0, 0, 0}}, {1.0 / 12, 11.0 / 24, 11.0 / 24}},
      {{1, {1, 0, 0}}, {7.0 / 12, 5.0 / 24, 5.0 / 24}},
      {{2, {0, 0, 0}}, {1.0 / 6, 1.0 / 6, 2.0 / 3}},
      {{2, {1, 0, 0}}, {3.0 / 4, 0, 1.0 / 4}},
      {{2, {1, 1, 0}}, {5.0 / 12, 5.0 / 12, 1.0 / 6}},
      {{2, {0, 1, 0}}, {0, 3.0 / 4, 1.0 / 4}},
  };
  for (const auto& [context, want] : expect) {
    const std::vector<double>& got = At(g, context.first, context.second);
    INFO(Describe(context.first, context.second) << ": " << Show(got) << " vs " << Show(want));
    for (int j = 0; j < 3; ++j) CHECK(std::fabs(got[j] - want[j]) <= 1e-15);
  }
  // No decisions at all with one die.
  CHECK(g.takes.decisions == 0);
  CHECK(g.stop_roll.decisions == 0);
}

// One die, any target, any number of players: every turn scores 1 with probability 1/2,
// independently, with no decision, and the game always ends at the end of a round (the last
// seat's turn). So the winner is a symmetric function of the seats' independent, identically
// distributed per-round results: at the start every seat wins 1/P, whatever the seat order.
TEST_CASE("nplayer naive: one die, the start is fair") {
  for (const Case& c : {Case{{1, 0, 1}, 3}, Case{{1, 0, 2}, 3}, Case{{1, 0, 3}, 3},
                        Case{{1, 0, 2}, 4}, Case{{1, 0, 3}, 5}}) {
    CAPTURE(Describe(c.rules, c.players));
    const nv::NaiveGameResult& g = Solved(c.rules, c.players);
    REQUIRE(g.converged);
    const std::vector<double>& v = At(g, 0, std::vector<int>(c.players, 0));
    INFO(Show(v));
    for (int j = 0; j < c.players; ++j) CHECK(std::fabs(v[j] - 1.0 / c.players) <= 1e-14);
  }
}

// Two dice, target 1, three players: (mover 2; 1,0,0). Seat 2 plays the last turn; ending with
// 0 loses, 1 ties seat 0 (1/2), 2 wins. Of the 36 ordered rolls:
// - TT (1), T+R (4), T+earthling (6), RR (4): 15 rolls score 0 (tanks beat rays, or no
//   earthling and no die left).
// - a pair of one earthling type (3): taken, score 2.
// - R + earthling (12) or two different earthlings (6): 18 rolls where the mover keeps one
//   earthling E with one die left. Stop is worth 1/2; rolling it: T 1/6 -> 0 (cannot take, tanks
//   beat rays); R 2/6 -> 1; E again 1/6 -> cannot take, 1; another earthling 2/6 -> 2: worth
//   1/6 * 1/2 + 2/6 * 1/2 + 2/6 * 1 = 7/12 > 1/2, so roll. (Taking the ray instead of E is worth
//   only 3/6 * 1/2 = 1/4.)
// So the final score is 0 with 15/36 + 18/36 * 1/6 = 1/2, 1 with 18/36 * 3/6 = 1/4, 2 with
// 3/36 + 18/36 * 2/6 = 1/4: seat 2 wins 1/4 * 1/2 + 1/4 = 3/8, seat 0 1/2 + 1/8 = 5/8, seat 1 0.
// (mover 2; 0,0,0) is a non-final context: ending with 0 restarts the round at (mover 0; 0,0,0);
// its value is then pinned by the same turn's distribution only if seat 2 plays the same way,
// so it is not checked on paper.
TEST_CASE("nplayer naive: two dice, target 1, three players, last turn on paper") {
  const nv::NaiveGameResult& g = Solved(md::Rules{2, 0, 1}, 3);
  REQUIRE(g.converged);
  const std::vector<double>& v = At(g, 2, {1, 0, 0});
  INFO(Show(v));
  CHECK(std::fabs(v[0] - 5.0 / 8) <= 1e-15);
  CHECK(std::fabs(v[1] - 0.0) <= 1e-15);
  CHECK(std::fabs(v[2] - 3.0 / 8) <= 1e-15);
}

TEST_CASE("nplayer naive: final rounds against a direct enumeration of the remaining turns") {
  // Every final-round context of small variants; every stride-th one of the larger ones.
  const std::vector<std::pair<Case, int>> variants = {
      {{{1, 0, 2}, 3}, 1}, {{{2, 0, 1}, 3}, 1}, {{{2, 0, 2}, 3}, 1},
      {{{2, 0, 2}, 4}, 1}, {{{3, 1, 4}, 3}, 1}, {{{3, 3, 5}, 3}, 1}, {{{3, 1, 3}, 4}, 1},
      {{{4, 2, 6}, 3}, 6},
  };
  for (const auto& [c, stride] : variants) {
    CAPTURE(Describe(c.rules, c.players));
    const nv::NaiveGameResult& g = Solved(c.rules, c.players);
    REQUIRE(g.converged);
    FinalRound direct(c.rules, c.players);
    Failures f;
    int checked = 0, seen = 0;
    for (std::size_t ci = 0; ci < g.contexts.size(); ++ci) {
      const nv::NaiveContext& ctx = g.contexts[ci];
      if (!IsFinal(ctx, c.rules.target)) continue;
      if (seen++ % stride != 0) continue;
      const Vec want = direct.Value(ctx.scores, ctx.mover);
      ++checked;
      for (int j = 0; j < c.players; ++j)
        f.Near(g.values[ci][j], want[j], 1e-12,
               "seat " + std::to_string(j) + " at " + Describe(ctx.mover, ctx.scores));
    }
    CHECK(checked > 0);
    f.Report(Describe(c.rules, c.players));
  }
}

// More points for a seat never lower that seat's own chance (same mover, every other total
// unchanged), wherever the larger total is still a context.
TEST_CASE("nplayer naive: more points never lower a seat's own chance") {
  for (const Case& c : SelfCheckCases()) {
    CAPTURE(Describe(c.rules, c.players));
    const nv::NaiveGameResult& g = Solved(c.rules, c.players);
    Failures f;
    int compared = 0;
    for (std::size_t ci = 0; ci < g.contexts.size(); ++ci) {
      const nv::NaiveContext& ctx = g.contexts[ci];
      for (int j = 0; j < c.players; ++j) {
        std::vector<int> more = ctx.scores;
        ++more[j];
        const std::int64_t k = nv::NaiveContextIndex(c.rules, c.players, ctx.mover, more);
        if (k < 0) continue;
        ++compared;
        std::ostringstream what;
        what.precision(17);
        what << "seat " << j << ": " << Describe(ctx.mover, ctx.scores) << " -> "
             << g.values[ci][j] << ", one more point -> " << g.values[k][j];
        f.Check(g.values[k][j] >= g.values[ci][j] - 1e-12, what.str());
      }
    }
    CHECK(compared > 0);
    f.Report(Describe(c.rules, c.players));
  }
}

TEST_CASE("nplayer naive: the fixed point does not depend on the starting guess") {
  for (const Case& c : {Case{{2, 0, 3}, 3}, Case{{3, 3, 5}, 3}, Case{{2, 0, 2}, 4}}) {
    CAPTURE(Describe(c.rules, c.players));
    const nv::NaiveGameResult& from_zero = Solved(c.rules, c.players);
    nv::NaiveOptions options;
    options.initial_guess = 1.0;
    absl::StatusOr<nv::NaiveGameResult> from_one = nv::NaiveGameValues(c.rules, c.players, options);
    REQUIRE(from_one.ok());
    REQUIRE(from_one->converged);
    Failures f;
    for (std::size_t ci = 0; ci < from_zero.values.size(); ++ci)
      for (int j = 0; j < c.players; ++j)
        f.Near(from_one->values[ci][j], from_zero.values[ci][j], 1e-12,
               Describe(from_zero.contexts[ci].mover, from_zero.contexts[ci].scores));
    f.Report(Describe(c.rules, c.players));
    CHECK(from_one->takes.tied == from_zero.takes.tied);
    CHECK(from_one->stop_roll.kingmaking == from_zero.stop_roll.kingmaking);
  }
}
