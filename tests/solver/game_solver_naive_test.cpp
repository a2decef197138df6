// Independent cross-check of the game-level solve (solver/game_solver.h: its 2-player pair
// kernel) and the table reader (martiandice/win_query.h: its turn solves over the stored values) on
// tiny rule variants, two players.
//
// The reference here shares no code with the library: it applies docs/RULES.md itself to FULL game
// states (both seats' totals, the seat to move, the final-round flag, the turn's set-aside with
// concrete per-type counts -- earthling types are NOT merged -- and the phase: about to roll, or
// just took and may stop), enumerates every roll as 6^m ordered die results (faces 0..5, sides 1
// and 2 both Death Ray), and solves the cyclic game (zero-score turns loop) by plain Gauss-Seidel
// value iteration over all those states until no value moves by 1e-15. Each state stores BOTH
// seats' win probabilities; the mover maximises its own, so the zero-sum identity is a real check.
// The library is only called through its public API to obtain the values under test.
//
// Variants (dice, bonus, target): (2,0,3) (2,3,5) (3,1,4) (3,3,7) (4,0,5) (4,2,6) (4,3,8) (5,1,4);
// most of the test's time goes into the reference value iteration.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "game_solver.h"
#include "martiandice/dice.h"
#include "martiandice/rules.h"
#include "martiandice/turn_query.h"
#include "martiandice/win_query.h"

namespace {

namespace md = martiandice;

// ---------------------------------------------------------------------------------------------
// The reference's own rules.

// Face indices; a die's six sides: 0 tank, 1 and 2 ray, 3 human, 4 cow, 5 chicken.
constexpr int kTank = 0;
constexpr int kRay = 1;
constexpr int kHuman = 2;
constexpr int kCow = 3;
constexpr int kChicken = 4;
constexpr std::array<int, 6> kSideFace = {kTank, kRay, kRay, kHuman, kCow, kChicken};
// Takes in the order the reader lists them (ray, human, cow, chicken).
constexpr std::array<int, 4> kTakeOrder = {kRay, kHuman, kCow, kChicken};

using Counts = std::array<int, 5>;  // tanks, rays, humans, cows, chickens

int Total(const Counts& c) { return c[0] + c[1] + c[2] + c[3] + c[4]; }

std::string Show(const Counts& c) {
  static constexpr char kLetter[5] = {'T', 'R', 'H', 'C', 'K'};
  std::string out;
  for (int f = 0; f < 5; ++f) {
    if (c[f] == 0) continue;
    if (!out.empty()) out += ' ';
    out += std::to_string(c[f]);
    out += kLetter[f];
  }
  return out.empty() ? "-" : out;
}

// 0 if tanks outnumber rays, else one point per earthling plus the bonus with all three types.
int Score(const Counts& aside, int bonus) {
  if (aside[kTank] > aside[kRay]) return 0;
  int points = aside[kHuman] + aside[kCow] + aside[kChicken];
  if (aside[kHuman] > 0 && aside[kCow] > 0 && aside[kChicken] > 0) points += bonus;
  return points;
}

// Faces that may be taken from `roll` when `aside` was set aside before it: rays whenever
// shown, an earthling type when shown and not set aside earlier this turn.
std::vector<int> LegalTakes(const Counts& aside, const Counts& roll) {
  std::vector<int> takes;
  for (int face : kTakeOrder) {
    if (roll[face] == 0) continue;
    if (face != kRay && aside[face] > 0) continue;
    takes.push_back(face);
  }
  return takes;
}

Counts PlusTanks(Counts aside, const Counts& roll) {
  aside[kTank] += roll[kTank];
  return aside;
}

Counts PlusTake(Counts after_tanks, const Counts& roll, int face) {
  after_tanks[face] += roll[face];
  return after_tanks;
}

// All 6^m ordered results of rolling m dice, as face counts (with repetitions).
std::vector<Counts> OrderedRolls(int m) {
  int n = 1;
  for (int i = 0; i < m; ++i) n *= 6;
  std::vector<Counts> rolls;
  rolls.reserve(n);
  for (int code = 0; code < n; ++code) {
    Counts c{};
    int x = code;
    for (int i = 0; i < m; ++i) {
      ++c[kSideFace[x % 6]];
      x /= 6;
    }
    rolls.push_back(c);
  }
  return rolls;
}

// Every distinct roll of m dice (once each), for querying the reader.
std::vector<Counts> DistinctRolls(int m) {
  std::vector<Counts> rolls;
  for (int t = 0; t <= m; ++t)
    for (int r = 0; t + r <= m; ++r)
      for (int h = 0; t + r + h <= m; ++h)
        for (int c = 0; t + r + h + c <= m; ++c) rolls.push_back({t, r, h, c, m - t - r - h - c});
  return rolls;
}

struct Variant {
  int dice;
  int bonus;
  int target;
};

std::string Describe(const Variant& v) {
  std::ostringstream out;
  out << "dice=" << v.dice << " bonus=" << v.bonus << " target=" << v.target;
  return out.str();
}

constexpr std::array<Variant, 8> kVariants = {{
    {2, 0, 3},
    {2, 3, 5},
    {3, 1, 4},
    {3, 3, 7},
    {4, 0, 5},
    {4, 2, 6},
    {4, 3, 8},
    {5, 1, 4},
}};

// ---------------------------------------------------------------------------------------------
// The naive game solver.

struct Pair {
  double p[2] = {0, 0};  // win probability of seat 0 and of seat 1
};

// A turn start: the seat to move, both totals, and whether the round is final (seat 0 has
// reached the target, so seat 1's turn is the last of the game).
struct Context {
  int mover = 0;
  int s0 = 0;
  int s1 = 0;
  bool final_round = false;
};

std::string Describe(const Context& c) {
  std::ostringstream out;
  out << "mover " << c.mover << ", scores " << c.s0 << "," << c.s1
      << (c.final_round ? " (final round)" : "");
  return out.str();
}

class NaiveGame {
 public:
  explicit NaiveGame(const Variant& v) : v_(v), side_(v.dice + 1) {
    // Every concrete set-aside of at most `dice` dice, more dice first (the within-turn order
    // is then acyclic: a roll only ever leads to set-asides with more dice).
    for (int t = 0; t <= v.dice; ++t)
      for (int r = 0; t + r <= v.dice; ++r)
        for (int h = 0; t + r + h <= v.dice; ++h)
          for (int c = 0; t + r + h + c <= v.dice; ++c)
            for (int k = 0; t + r + h + c + k <= v.dice; ++k) asides_.push_back({t, r, h, c, k});
    std::stable_sort(asides_.begin(), asides_.end(),
                     [](const Counts& a, const Counts& b) { return Total(a) > Total(b); });
    aside_index_.assign(side_ * side_ * side_ * side_ * side_, -1);
    for (int i = 0; i < static_cast<int>(asides_.size()); ++i) aside_index_[Key(asides_[i])] = i;

    // The highest turn score, found by scoring every set-aside.
    max_turn_ = 0;
    for (const Counts& a : asides_) max_turn_ = std::max(max_turn_, Score(a, v.bonus));
    span_ = v.target + max_turn_;

    // Turn starts: seat 0 moves with both totals below target; seat 1 moves with its own total
    // below target and seat 0's anywhere it can be (at or above target = final round).
    for (int s0 = 0; s0 < v.target; ++s0)
      for (int s1 = 0; s1 < v.target; ++s1) contexts_.push_back({0, s0, s1, false});
    for (int s0 = 0; s0 < span_; ++s0)
      for (int s1 = 0; s1 < v.target; ++s1) contexts_.push_back({1, s0, s1, s0 >= v.target});

    for (int m = 0; m <= v.dice; ++m) rolls_.push_back(OrderedRolls(m));
    const std::size_t n = contexts_.size() * asides_.size();
    roll_value_.assign(n, Pair{});
    take_value_.assign(n, Pair{});
  }

  const Variant& variant() const { return v_; }
  int max_turn() const { return max_turn_; }
  int span() const { return span_; }
  const std::vector<Context>& contexts() const { return contexts_; }
  int sweeps() const { return sweeps_; }
  double last_change() const { return last_change_; }
  std::size_t state_count() const { return 2 * contexts_.size() * asides_.size(); }

  // Index of a turn start, or -1 if it is not one.
  int ContextIndex(int mover, int s0, int s1) const {
    if (s1 < 0 || s1 >= v_.target || s0 < 0) return -1;
    if (mover == 0) return s0 < v_.target ? s0 * v_.target + s1 : -1;
    if (mover == 1) return s0 < span_ ? v_.target * v_.target + s0 * v_.target + s1 : -1;
    return -1;
  }

  int Left(const Counts& aside) const { return v_.dice - Total(aside); }

  // Win probabilities at a turn start.
  Pair Start(int ci) const { return RollValue(ci, Counts{}); }
  // The mover rolls (on) from `aside`; needs dice left.
  Pair RollValue(int ci, const Counts& aside) const { return roll_value_[Slot(ci, aside)]; }
  // Just after a take that left `aside`: stop, or roll on if dice are left (the better one).
  Pair TakeValue(int ci, const Counts& aside) const { return take_value_[Slot(ci, aside)]; }

  // The mover ends the turn with `points`: the next turn start, or the end of the game.
  Pair Stop(int ci, int points) const {
    const Context& c = contexts_[ci];
    if (c.mover == 0) {
      // Seat 1 always plays after seat 0 (if seat 0 reached the target, as the last turn).
      return Start(ContextIndex(1, c.s0 + points, c.s1));
    }
    const int s1 = c.s1 + points;
    if (c.final_round || s1 >= v_.target) return GameOver(c.s0, s1);
    return Start(ContextIndex(0, c.s0, s1));
  }

  static Pair GameOver(int s0, int s1) {
    if (s0 > s1) return {{1.0, 0.0}};
    if (s1 > s0) return {{0.0, 1.0}};
    return {{0.5, 0.5}};
  }

  // Value of one roll result at `aside` (before the roll's tanks), the mover taking its best.
  Pair Outcome(int ci, const Counts& aside, const Counts& roll) const {
    const int mover = contexts_[ci].mover;
    const Counts after = PlusTanks(aside, roll);
    bool any = false;
    Pair best;
    for (int face : LegalTakes(aside, roll)) {
      const Pair p = TakeValue(ci, PlusTake(after, roll, face));
      if (!any || p.p[mover] > best.p[mover]) best = p;
      any = true;
    }
    if (!any) return Stop(ci, Score(after, v_.bonus));  // nothing to take: the turn is over
    return best;
  }

  // Gauss-Seidel value iteration over every full state until no value changes by 1e-15.
  // Returns false if it did not converge.
  bool Solve(int max_sweeps = 20000) {
    // Later-in-game contexts first (higher total score), seat 1 before seat 0.
    std::vector<int> order(contexts_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      const Context& x = contexts_[a];
      const Context& y = contexts_[b];
      if (x.s0 + x.s1 != y.s0 + y.s1) return x.s0 + x.s1 > y.s0 + y.s1;
      return x.mover > y.mover;
    });
    for (sweeps_ = 1; sweeps_ <= max_sweeps; ++sweeps_) {
      double change = 0;
      for (int ci : order) {
        const int mover = contexts_[ci].mover;
        for (const Counts& aside : asides_) {
          const std::size_t slot = Slot(ci, aside);
          const int left = Left(aside);
          const Pair stop = Stop(ci, Score(aside, v_.bonus));
          Pair roll = stop;  // unused when no dice are left
          if (left > 0) {
            const std::vector<Counts>& rolls = rolls_[left];
            // Compensated (Neumaier) sums: up to 6^5 terms, kept well inside the tolerances.
            double sum[2] = {0, 0}, carry[2] = {0, 0};
            for (const Counts& r : rolls) {
              const Pair p = Outcome(ci, aside, r);
              for (int s = 0; s < 2; ++s) {
                const double t = sum[s] + p.p[s];
                carry[s] += std::fabs(sum[s]) >= std::fabs(p.p[s]) ? (sum[s] - t) + p.p[s]
                                                                   : (p.p[s] - t) + sum[s];
                sum[s] = t;
              }
            }
            const double n = static_cast<double>(rolls.size());
            roll = {{(sum[0] + carry[0]) / n, (sum[1] + carry[1]) / n}};
            for (int s = 0; s < 2; ++s)
              change = std::max(change, std::fabs(roll.p[s] - roll_value_[slot].p[s]));
            roll_value_[slot] = roll;
          }
          const Pair take = (left > 0 && roll.p[mover] > stop.p[mover]) ? roll : stop;
          for (int s = 0; s < 2; ++s)
            change = std::max(change, std::fabs(take.p[s] - take_value_[slot].p[s]));
          take_value_[slot] = take;
        }
      }
      last_change_ = change;
      if (change < 1e-15) return true;
    }
    return false;
  }

 private:
  int Key(const Counts& a) const {
    return (((a[0] * side_ + a[1]) * side_ + a[2]) * side_ + a[3]) * side_ + a[4];
  }
  std::size_t Slot(int ci, const Counts& aside) const {
    return static_cast<std::size_t>(ci) * asides_.size() + aside_index_[Key(aside)];
  }

  Variant v_;
  int side_;
  int max_turn_ = 0;
  int span_ = 0;
  std::vector<Counts> asides_;
  std::vector<int> aside_index_;
  std::vector<Context> contexts_;
  std::vector<std::vector<Counts>> rolls_;
  std::vector<Pair> roll_value_;
  std::vector<Pair> take_value_;
  int sweeps_ = 0;
  double last_change_ = 0;
};

// ---------------------------------------------------------------------------------------------
// A separate single-turn brute force for the last turn of the game: seat 1 needs more than
// `deficit` points to win (exactly `deficit` ties, worth 1/2). Memoised recursion over concrete
// set-asides, rolls enumerated die by die.

class FinalTurn {
 public:
  FinalTurn(int dice, int bonus, int deficit) : dice_(dice), bonus_(bonus), deficit_(deficit) {}

  double Chance() { return Roll(Counts{}); }

 private:
  double Utility(const Counts& aside) const {
    const int points = Score(aside, bonus_);
    return points > deficit_ ? 1.0 : points == deficit_ ? 0.5 : 0.0;
  }

  double Roll(const Counts& aside) {
    auto it = memo_.find(aside);
    if (it != memo_.end()) return it->second;
    Counts roll{};
    const double value = Average(aside, roll, dice_ - Total(aside));
    memo_.emplace(aside, value);
    return value;
  }

  // Average over the remaining `dice` dice of the roll (each side equally likely).
  double Average(const Counts& aside, Counts& roll, int dice) {
    if (dice == 0) return Resolve(aside, roll);
    double sum = 0;
    for (int side = 0; side < 6; ++side) {
      ++roll[kSideFace[side]];
      sum += Average(aside, roll, dice - 1);
      --roll[kSideFace[side]];
    }
    return sum / 6;
  }

  double Resolve(const Counts& aside, const Counts& roll) {
    Counts after = aside;
    after[kTank] += roll[kTank];
    double best = -1;
    for (int face : {kRay, kHuman, kCow, kChicken}) {
      if (roll[face] == 0 || (face != kRay && aside[face] > 0)) continue;
      Counts next = after;
      next[face] += roll[face];
      double v = Utility(next);
      if (Total(next) < dice_) v = std::max(v, Roll(next));
      best = std::max(best, v);
    }
    return best < 0 ? Utility(after) : best;
  }

  int dice_;
  int bonus_;
  int deficit_;
  std::map<Counts, double> memo_;
};

// ---------------------------------------------------------------------------------------------
// Set-asides a turn can roll from (the start, and every take that leaves dice), and every
// set-aside a take can leave (the positions where the player decides stop or roll).

struct Reachable {
  std::vector<Counts> roll_from;
  std::vector<Counts> after_take;
};

Reachable ReachablePositions(int dice) {
  std::set<Counts> roll_from{Counts{}};
  std::set<Counts> after_take;
  std::vector<Counts> queue{Counts{}};
  for (std::size_t i = 0; i < queue.size(); ++i) {
    const Counts aside = queue[i];
    const int left = dice - Total(aside);
    for (const Counts& roll : DistinctRolls(left)) {
      const Counts after = PlusTanks(aside, roll);
      for (int face : LegalTakes(aside, roll)) {
        const Counts next = PlusTake(after, roll, face);
        after_take.insert(next);
        if (Total(next) < dice && roll_from.insert(next).second) queue.push_back(next);
      }
    }
  }
  return {{roll_from.begin(), roll_from.end()}, {after_take.begin(), after_take.end()}};
}

// ---------------------------------------------------------------------------------------------
// Solved variants, shared by the test cases (each variant is solved once per run).

struct Solved {
  std::unique_ptr<NaiveGame> naive;
  bool naive_converged = false;
  double naive_seconds = 0;
  std::string table_error;  // empty if the table was built and read
  std::unique_ptr<md::GameTable> table;
  md::solver::GameSolveReport report;
  double table_seconds = 0;
};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

const Solved& Get(const Variant& v) {
  static std::map<std::array<int, 3>, std::unique_ptr<Solved>> cache;
  auto& slot = cache[{v.dice, v.bonus, v.target}];
  if (slot) return *slot;
  slot = std::make_unique<Solved>();
  Solved& s = *slot;

  auto start = std::chrono::steady_clock::now();
  s.naive = std::make_unique<NaiveGame>(v);
  s.naive_converged = s.naive->Solve();
  s.naive_seconds = Seconds(start);

  start = std::chrono::steady_clock::now();
  md::solver::GameSolveOptions options;
  options.rules = md::Rules{v.dice, v.bonus, v.target};
  options.players = 2;
  absl::StatusOr<std::string> bytes = md::solver::SolveGameTable(options, &s.report);
  if (!bytes.ok()) {
    s.table_error = "SolveGameTable: " + std::string(bytes.status().ToString());
  } else {
    absl::StatusOr<md::GameTable> table = md::GameTable::FromBytes(*std::move(bytes));
    if (!table.ok()) {
      s.table_error = "GameTable::FromBytes: " + std::string(table.status().ToString());
    } else {
      s.table = std::make_unique<md::GameTable>(*std::move(table));
    }
  }
  s.table_seconds = Seconds(start);
  MESSAGE(Describe(v) << ": naive " << s.naive->contexts().size() << " contexts, "
                      << s.naive->state_count() << " full states, " << s.naive->sweeps()
                      << " sweeps (last change " << s.naive->last_change() << "), "
                      << s.naive_seconds << " s; table " << s.table_seconds << " s");
  return s;
}

// Collects mismatches (the first few are printed) so that a million comparisons do not each
// become a doctest assertion.
class Mismatches {
 public:
  void Check(bool ok, const std::string& what) {
    ++checks_;
    if (ok) return;
    ++failures_;
    if (shown_.size() < 25) shown_.push_back(what);
  }
  // |a - b| <= tol, with both values in the message.
  void Near(double mine, double theirs, double tol, const std::string& what) {
    const bool ok = std::fabs(mine - theirs) <= tol;
    if (std::fabs(mine - theirs) > max_diff_ || !(mine == mine && theirs == theirs)) {
      max_diff_ = std::fabs(mine - theirs);
    }
    if (ok) {
      ++checks_;
      return;
    }
    std::ostringstream out;
    out.precision(17);
    out << what << ": naive " << mine << " vs library " << theirs << " (diff " << (theirs - mine)
        << ")";
    Check(false, out.str());
  }
  void Report(const std::string& title) const {
    MESSAGE(title << ": " << checks_ << " checks, " << failures_ << " mismatches, largest value "
                  << "difference " << max_diff_);
    for (const std::string& s : shown_) MESSAGE("  " << s);
    CHECK(failures_ == 0);
  }
  long long failures() const { return failures_; }

 private:
  long long checks_ = 0;
  long long failures_ = 0;
  double max_diff_ = 0;
  std::vector<std::string> shown_;
};

md::Dice ToDice(const Counts& c) { return md::Dice(c[0], c[1], c[2], c[3], c[4]); }

Counts FromDice(const md::Dice& d) {
  return {d.count(md::Face::kTank), d.count(md::Face::kRay), d.count(md::Face::kHuman),
          d.count(md::Face::kCow), d.count(md::Face::kChicken)};
}

int FaceIndex(md::Face f) {
  switch (f) {
    case md::Face::kTank:
      return kTank;
    case md::Face::kRay:
      return kRay;
    case md::Face::kHuman:
      return kHuman;
    case md::Face::kCow:
      return kCow;
    case md::Face::kChicken:
      return kChicken;
  }
  return -1;
}

md::GameContext ToGameContext(const Context& c) { return md::GameContext{{c.s0, c.s1}, c.mover}; }

// Win probabilities of both seats at a turn start, from a source (naive or table).
using WinFn = std::function<Pair(const Context&)>;

// More points never lower the mover's chance at a turn start: its own total one higher
// (still below target), or the opponent's one lower.
void CheckMonotone(const NaiveGame& g, const WinFn& win, Mismatches& m, const std::string& who) {
  for (const Context& c : g.contexts()) {
    const double here = win(c).p[c.mover];
    auto compare = [&](int s0, int s1, const char* change) {
      const int ci = g.ContextIndex(c.mover, s0, s1);
      if (ci < 0) return;
      const Context& other = g.contexts()[ci];
      const double there = win(other).p[c.mover];
      std::ostringstream out;
      out.precision(17);
      out << who << " " << Describe(g.variant()) << ": " << change
          << " lowers the mover's chance: " << Describe(c) << " -> " << here << ", "
          << Describe(other) << " -> " << there;
      m.Check(there >= here - 1e-12, out.str());
    };
    if (c.mover == 0) {
      if (c.s0 + 1 < g.variant().target) compare(c.s0 + 1, c.s1, "own total +1");
      if (c.s1 > 0) compare(c.s0, c.s1 - 1, "opponent total -1");
    } else {
      if (c.s1 + 1 < g.variant().target) compare(c.s0, c.s1 + 1, "own total +1");
      if (c.s0 > 0) compare(c.s0 - 1, c.s1, "opponent total -1");
    }
  }
}

void CheckZeroSum(const NaiveGame& g, const WinFn& win, Mismatches& m, const std::string& who) {
  for (const Context& c : g.contexts()) {
    const Pair p = win(c);
    std::ostringstream out;
    out.precision(17);
    out << who << " " << Describe(g.variant()) << " " << Describe(c) << ": seats' chances "
        << p.p[0] << " + " << p.p[1] << " != 1";
    m.Check(std::fabs(p.p[0] + p.p[1] - 1) <= 1e-12, out.str());
  }
}

std::string Where(const Variant& v, const Context& c, const Counts& aside) {
  return Describe(v) + ", " + Describe(c) + ", set aside " + Show(aside);
}

}  // namespace

// ---------------------------------------------------------------------------------------------

TEST_CASE("game naive: the reference solver converges, is zero-sum and monotone") {
  for (const Variant& v : kVariants) {
    CAPTURE(Describe(v));
    const Solved& s = Get(v);
    REQUIRE(s.naive_converged);
    const NaiveGame& g = *s.naive;
    // The highest turn score matches the rules' arithmetic (all dice earthlings, bonus with 3+).
    CHECK(g.max_turn() == v.dice + (v.dice >= 3 ? v.bonus : 0));
    Mismatches m;
    const WinFn win = [&](const Context& c) {
      return g.Start(g.ContextIndex(c.mover, c.s0, c.s1));
    };
    CheckZeroSum(g, win, m, "naive");
    CheckMonotone(g, win, m, "naive");
    m.Report("naive self-checks " + Describe(v));
  }
}

TEST_CASE("game naive: final turns against a direct single-turn enumeration") {
  for (const Variant& v : kVariants) {
    CAPTURE(Describe(v));
    const Solved& s = Get(v);
    const NaiveGame& g = *s.naive;
    std::map<int, double> chance;  // by deficit s0 - s1 >= 1
    Mismatches m;
    for (const Context& c : g.contexts()) {
      if (!c.final_round) continue;
      const int deficit = c.s0 - c.s1;
      auto it = chance.find(deficit);
      if (it == chance.end()) {
        it = chance.emplace(deficit, FinalTurn(v.dice, v.bonus, deficit).Chance()).first;
      }
      const double direct = it->second;
      const std::string where = Describe(v) + ", " + Describe(c) + ", seat 1's chance";
      const Pair naive = g.Start(g.ContextIndex(1, c.s0, c.s1));
      m.Near(direct, naive.p[1], 1e-12, "direct vs naive game, " + where);
      if (s.table) {
        absl::StatusOr<std::vector<double>> w = s.table->WinProbabilities(ToGameContext(c));
        m.Check(w.ok() && w->size() == 2, "WinProbabilities failed at " + where);
        if (w.ok() && w->size() == 2) {
          m.Near(direct, (*w)[1], 1e-12, "direct vs table, " + where);
          m.Near(1 - direct, (*w)[0], 1e-12, "direct vs table (seat 0), " + where);
        }
      }
    }
    m.Report("final turns " + Describe(v));
    CHECK_MESSAGE(s.table, s.table_error);
  }
}

TEST_CASE("game naive: table win probabilities match, zero-sum and monotone" *
          doctest::test_suite("heavy")) {
  for (const Variant& v : kVariants) {
    CAPTURE(Describe(v));
    const Solved& s = Get(v);
    REQUIRE(s.naive_converged);
    REQUIRE_MESSAGE(s.table, s.table_error);
    const NaiveGame& g = *s.naive;
    const md::GameTable& table = *s.table;
    CHECK(table.players() == 2);
    CHECK(table.rules() == md::Rules{v.dice, v.bonus, v.target});
    Mismatches m;
    std::map<std::pair<int, std::pair<int, int>>, Pair> from_table;
    for (const Context& c : g.contexts()) {
      const std::string where = Describe(v) + ", " + Describe(c);
      absl::StatusOr<std::vector<double>> w = table.WinProbabilities(ToGameContext(c));
      m.Check(w.ok() && w->size() == 2,
              "WinProbabilities failed at " + where + ": " +
                  (w.ok() ? std::string("wrong size") : std::string(w.status().ToString())));
      if (!w.ok() || w->size() != 2) continue;
      const Pair mine = g.Start(g.ContextIndex(c.mover, c.s0, c.s1));
      m.Near(mine.p[0], (*w)[0], 1e-12, "seat 0 win probability, " + where);
      m.Near(mine.p[1], (*w)[1], 1e-12, "seat 1 win probability, " + where);
      from_table[{c.mover, {c.s0, c.s1}}] = Pair{{(*w)[0], (*w)[1]}};
    }
    const Pair first = g.Start(g.ContextIndex(0, 0, 0));
    m.Check(s.report.start.size() == 2, "report.start has 2 seats, " + Describe(v));
    if (s.report.start.size() == 2) {
      m.Near(first.p[0], s.report.start[0], 1e-12, "report.start[0] " + Describe(v));
      m.Near(first.p[1], s.report.start[1], 1e-12, "report.start[1] " + Describe(v));
    }
    if (m.failures() == 0) {
      const WinFn win = [&](const Context& c) { return from_table.at({c.mover, {c.s0, c.s1}}); };
      CheckZeroSum(g, win, m, "table");
      CheckMonotone(g, win, m, "table");
    }
    m.Report("table win probabilities " + Describe(v));
  }
}

TEST_CASE("game naive: AdviseWin and EvaluateWin at every reachable position and roll" *
          doctest::test_suite("heavy")) {
  for (const Variant& v : kVariants) {
    CAPTURE(Describe(v));
    const Solved& s = Get(v);
    REQUIRE(s.naive_converged);
    REQUIRE_MESSAGE(s.table, s.table_error);
    const NaiveGame& g = *s.naive;
    const md::GameTable& table = *s.table;
    const Reachable reach = ReachablePositions(v.dice);
    Mismatches m;
    long long advice_calls = 0;
    for (int ci = 0; ci < static_cast<int>(g.contexts().size()); ++ci) {
      const Context& c = g.contexts()[ci];
      const int mover = c.mover;
      const md::GameContext context = ToGameContext(c);
      const Pair at_start = g.Start(ci);

      // Stop-or-roll decisions: the start of the turn and after every reachable take.
      std::vector<Counts> decisions{Counts{}};
      decisions.insert(decisions.end(), reach.after_take.begin(), reach.after_take.end());
      for (const Counts& aside : decisions) {
        const std::string where = Where(v, c, aside);
        absl::StatusOr<md::WinEval> eval = md::EvaluateWin(table, context, ToDice(aside));
        m.Check(eval.ok(), "EvaluateWin failed at " + where + ": " +
                               (eval.ok() ? "" : std::string(eval.status().ToString())));
        if (!eval.ok()) continue;
        const md::PositionEval& pos = eval->position;
        const int left = g.Left(aside);
        const bool start = Total(aside) == 0;
        m.Check(pos.dice_left == left, "EvaluateWin dice_left at " + where);
        m.Check(eval->win_probabilities.size() == 2, "EvaluateWin win_probabilities at " + where);
        if (eval->win_probabilities.size() == 2) {
          m.Near(at_start.p[0], eval->win_probabilities[0], 1e-12, "EvaluateWin seat 0, " + where);
          m.Near(at_start.p[1], eval->win_probabilities[1], 1e-12, "EvaluateWin seat 1, " + where);
        }
        const double stop = g.Stop(ci, Score(aside, v.bonus)).p[mover];
        const double roll = left > 0 ? g.RollValue(ci, aside).p[mover] : 0;
        const double value = start ? roll : g.TakeValue(ci, aside).p[mover];
        m.Check(pos.stop.has_value() == !start, "EvaluateWin stop presence at " + where);
        if (pos.stop && !start) m.Near(stop, pos.stop->approx, 1e-12, "EvaluateWin stop, " + where);
        m.Check(pos.roll.has_value() == (left > 0), "EvaluateWin roll presence at " + where);
        if (pos.roll && left > 0)
          m.Near(roll, pos.roll->approx, 1e-12, "EvaluateWin roll, " + where);
        m.Near(value, pos.value.approx, 1e-12, "EvaluateWin value, " + where);
        if (start) {
          m.Check(pos.action == md::Then::kRoll, "EvaluateWin action at the start, " + where);
        } else if (left == 0) {
          m.Check(pos.action == md::Then::kStop, "EvaluateWin action with no dice left, " + where);
        } else if (std::fabs(stop - roll) > 1e-9) {
          m.Check(pos.action == (roll > stop ? md::Then::kRoll : md::Then::kStop),
                  "EvaluateWin action, " + where + " (naive stop " + std::to_string(stop) +
                      ", roll " + std::to_string(roll) + ")");
        } else if (std::fabs(stop - roll) < 1e-13) {
          m.Check(pos.action == md::Then::kEither, "EvaluateWin action (tie), " + where);
        }
      }

      // Every roll from every position a turn rolls from.
      for (const Counts& aside : reach.roll_from) {
        for (const Counts& roll : DistinctRolls(g.Left(aside))) {
          const std::string where = Where(v, c, aside) + ", roll " + Show(roll);
          ++advice_calls;
          absl::StatusOr<md::WinAdvice> got =
              md::AdviseWin(table, context, ToDice(aside), ToDice(roll));
          m.Check(got.ok(), "AdviseWin failed at " + where + ": " +
                                (got.ok() ? "" : std::string(got.status().ToString())));
          if (!got.ok()) continue;
          const md::RollAdvice& advice = got->advice;
          m.Check(got->win_probabilities.size() == 2, "AdviseWin win_probabilities at " + where);
          if (got->win_probabilities.size() == 2) {
            m.Near(at_start.p[0], got->win_probabilities[0], 1e-12, "AdviseWin seat 0, " + where);
            m.Near(at_start.p[1], got->win_probabilities[1], 1e-12, "AdviseWin seat 1, " + where);
          }
          const Counts after = PlusTanks(aside, roll);
          m.Check(FromDice(advice.aside_after_tanks) == after, "aside_after_tanks at " + where);
          const std::vector<int> takes = LegalTakes(aside, roll);
          const double outcome = g.Outcome(ci, aside, roll).p[mover];
          m.Near(outcome, advice.value.approx, 1e-12, "AdviseWin value of the roll, " + where);
          m.Check(advice.turn_over == takes.empty(), "turn_over at " + where);
          if (takes.empty()) {
            m.Check(advice.turn_over_score == Score(after, v.bonus), "turn_over_score at " + where);
            m.Check(advice.options.empty(), "options on a turn over at " + where);
            m.Check(!advice.best.has_value(), "best on a turn over at " + where);
            continue;
          }
          m.Check(advice.options.size() == takes.size(),
                  "AdviseWin has " + std::to_string(advice.options.size()) + " options, naive " +
                      std::to_string(takes.size()) + ", at " + where);
          if (advice.options.size() != takes.size()) continue;

          double best = -1;
          std::vector<double> values;
          for (int face : takes) {
            values.push_back(g.TakeValue(ci, PlusTake(after, roll, face)).p[mover]);
            best = std::max(best, values.back());
          }
          // The tie convention's pick among the optimal takes (docs/PLAYERS.md): rays, then
          // the earthling type showing the most dice, then Human, Cow, Chicken (the order of
          // kTakeOrder, so a later option replaces the pick only with strictly more dice).
          int convention_pick = -1;
          bool clear = true;  // every option is clearly tied with the best or clearly below it
          for (std::size_t i = 0; i < takes.size(); ++i) {
            const md::TakeOption& o = advice.options[i];
            const int face = takes[i];
            const Counts next = PlusTake(after, roll, face);
            const std::string at = where + ", take " + Show(PlusTake(Counts{}, roll, face));
            m.Check(FaceIndex(o.take) == face, "option " + std::to_string(i) + " face at " + at);
            m.Check(o.count == roll[face], "option count at " + at);
            m.Check(FromDice(o.aside_after) == next, "option aside_after at " + at);
            const int left = g.Left(next);
            const double stop = g.Stop(ci, Score(next, v.bonus)).p[mover];
            const double roll_on = left > 0 ? g.RollValue(ci, next).p[mover] : 0;
            m.Near(stop, o.stop.approx, 1e-12, "option stop value, " + at);
            m.Check(o.roll.has_value() == (left > 0), "option roll presence at " + at);
            if (o.roll && left > 0)
              m.Near(roll_on, o.roll->approx, 1e-12, "option roll value, " + at);
            m.Near(values[i], o.value.approx, 1e-12, "option value, " + at);
            if (left == 0) {
              m.Check(o.then == md::Then::kStop, "option then with no dice left, " + at);
            } else if (std::fabs(stop - roll_on) > 1e-9) {
              m.Check(o.then == (roll_on > stop ? md::Then::kRoll : md::Then::kStop),
                      "option then, " + at);
            } else if (std::fabs(stop - roll_on) < 1e-13) {
              m.Check(o.then == md::Then::kEither, "option then (tie), " + at);
            }
            const double gap = best - values[i];
            if (gap < 1e-13) {
              m.Check(o.optimal,
                      "option should be optimal (gap " + std::to_string(gap) + "), " + at);
              if (convention_pick < 0 ||
                  (takes[convention_pick] != kRay && roll[face] > roll[takes[convention_pick]])) {
                convention_pick = static_cast<int>(i);
              }
            } else if (gap > 1e-9) {
              m.Check(!o.optimal,
                      "option should not be optimal (gap " + std::to_string(gap) + "), " + at);
            } else {
              clear = false;
            }
          }
          if (clear) {
            m.Check(advice.best.has_value() && *advice.best == convention_pick,
                    "best index (the tie convention's pick) at " + where);
          }
        }
      }
    }
    MESSAGE(Describe(v) << ": " << advice_calls << " AdviseWin queries");
    m.Report("AdviseWin/EvaluateWin " + Describe(v));
  }
}
