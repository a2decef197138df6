// The naive N-player reference solver (tests/support/nplayer_naive.h): full concrete turn states, every
// roll as a multiset, plain Gauss-Seidel value iteration over every context. Deliberately simple;
// written from the rules documents only (no code from src/ or solver/).
#include "nplayer_naive.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace martiandice::naive {
namespace {

// Face indices of the reference's own counts.
constexpr int kTank = 0;
constexpr int kRay = 1;
constexpr int kHuman = 2;
constexpr int kChicken = 4;
constexpr double kTie = 1e-12;  // docs/PLAYERS.md: values this close are tied

using Counts = std::array<int, 5>;  // tanks, rays, humans, cows, chickens

int Total(const Counts& c) { return c[0] + c[1] + c[2] + c[3] + c[4]; }

// docs/RULES.md "Scoring a turn".
int Score(const Counts& aside, int bonus) {
  if (aside[kTank] > aside[kRay]) return 0;
  int points = aside[2] + aside[3] + aside[4];
  if (aside[2] > 0 && aside[3] > 0 && aside[4] > 0) points += bonus;
  return points;
}

// One legal take from a roll: the face, the set-aside it leads to, and its action class (takes
// of two earthling types showing the same number of dice are one action up to relabelling).
struct Take {
  int face = 0;
  int result = 0;  // index of the set-aside after the take
  int action = 0;  // 0 for rays, else 1 + number of dice taken
};

// One distinct roll (a multiset of faces) from a set-aside.
struct Roll {
  double weight = 0;        // multinomial count x 2^rays (out of 6^left ordered outcomes)
  int after_tanks = 0;      // index of the set-aside plus the roll's tanks
  std::vector<Take> takes;  // in tie-break order: rays, then earthlings more dice first, H<C<K
  bool counted = false;     // representative of its orbit under relabelling earthlings
};

struct Aside {
  Counts counts{};
  int score = 0;
  int left = 0;
  bool after_take = false;  // a take can leave it: something other than tanks set aside
  bool roll_from = false;   // the turn can roll from it: the start, or after a take with dice left
  bool counted = false;     // representative of its orbit (humans >= cows >= chickens)
  double outcomes = 1;      // 6^left
  std::vector<Roll> rolls;
};

double Factorial(int n) {
  double f = 1;
  for (int i = 2; i <= n; ++i) f *= i;
  return f;
}

// Every concrete set-aside of at most `dice` dice, more dice first (a roll only leads to
// set-asides with more dice, so one pass in this order solves a turn).
class TurnGraph {
 public:
  explicit TurnGraph(const Rules& rules) : dice_(rules.dice), side_(rules.dice + 1) {
    std::vector<Counts> all;
    for (int t = 0; t <= dice_; ++t)
      for (int r = 0; t + r <= dice_; ++r)
        for (int h = 0; t + r + h <= dice_; ++h)
          for (int c = 0; t + r + h + c <= dice_; ++c)
            for (int k = 0; t + r + h + c + k <= dice_; ++k) all.push_back({t, r, h, c, k});
    std::stable_sort(all.begin(), all.end(),
                     [](const Counts& a, const Counts& b) { return Total(a) > Total(b); });
    index_.assign(side_ * side_ * side_ * side_ * side_, -1);
    for (int i = 0; i < static_cast<int>(all.size()); ++i) index_[Key(all[i])] = i;

    for (const Counts& c : all) {
      Aside a;
      a.counts = c;
      a.score = Score(c, rules.bonus);
      a.left = dice_ - Total(c);
      a.after_take = c[1] + c[2] + c[3] + c[4] > 0;
      a.roll_from = a.left > 0 && (Total(c) == 0 || a.after_take);
      a.counted = c[2] >= c[3] && c[3] >= c[4];
      a.outcomes = std::pow(6.0, a.left);
      max_turn_ = std::max(max_turn_, a.score);
      asides_.push_back(a);
    }
    for (Aside& a : asides_) {
      if (!a.roll_from) continue;
      const int n = a.left;
      for (int t = 0; t <= n; ++t)
        for (int r = 0; t + r <= n; ++r)
          for (int h = 0; t + r + h <= n; ++h)
            for (int c = 0; t + r + h + c <= n; ++c) {
              const Counts roll = {t, r, h, c, n - t - r - h - c};
              a.rolls.push_back(MakeRoll(a.counts, roll));
            }
    }
  }

  int max_turn() const { return max_turn_; }
  const std::vector<Aside>& asides() const { return asides_; }
  int start() const { return Index(Counts{}); }
  std::int64_t visits_per_turn() const {
    std::int64_t v = 0;
    for (const Aside& a : asides_) {
      v += 1;
      for (const Roll& r : a.rolls) v += 1 + static_cast<std::int64_t>(r.takes.size());
    }
    return v;
  }

 private:
  int Key(const Counts& a) const {
    return (((a[0] * side_ + a[1]) * side_ + a[2]) * side_ + a[3]) * side_ + a[4];
  }
  int Index(const Counts& a) const { return index_[Key(a)]; }

  Roll MakeRoll(const Counts& aside, const Counts& roll) const {
    Roll out;
    out.weight = Factorial(Total(roll));
    for (int f = 0; f < 5; ++f) out.weight /= Factorial(roll[f]);
    out.weight *= std::pow(2.0, roll[kRay]);
    Counts after = aside;
    after[kTank] += roll[kTank];
    out.after_tanks = Index(after);
    // docs/RULES.md step 3: rays whenever shown; an earthling type if shown and not set aside yet.
    if (roll[kRay] > 0) {
      Counts next = after;
      next[kRay] += roll[kRay];
      out.takes.push_back({kRay, Index(next), 0});
    }
    std::vector<Take> earthlings;
    for (int f = kHuman; f <= kChicken; ++f) {
      if (roll[f] == 0 || aside[f] > 0) continue;
      Counts next = after;
      next[f] += roll[f];
      earthlings.push_back({f, Index(next), 1 + roll[f]});
    }
    // More dice first; equal counts keep Human, Cow, Chicken order (stable).
    std::stable_sort(earthlings.begin(), earthlings.end(),
                     [&](const Take& a, const Take& b) { return roll[a.face] > roll[b.face]; });
    out.takes.insert(out.takes.end(), earthlings.begin(), earthlings.end());
    // Orbit representative: the (set-aside, roll) pairs of H, C, K in non-increasing order.
    const auto pair = [&](int f) { return std::make_pair(aside[f], roll[f]); };
    out.counted = pair(2) >= pair(3) && pair(3) >= pair(4);
    return out;
  }

  int dice_;
  int side_;
  int max_turn_ = 0;
  std::vector<int> index_;
  std::vector<Aside> asides_;
};

struct Layout {
  int players = 0;
  int target = 0;
  int span = 0;                      // A = target + M
  std::vector<std::int64_t> offset;  // per mover
  std::int64_t count = 0;
};

Layout MakeLayout(const Rules& rules, int players, int max_turn) {
  Layout l;
  l.players = players;
  l.target = rules.target;
  l.span = rules.target + max_turn;
  for (int i = 0; i < players; ++i) {
    std::int64_t size = 1;
    for (int j = 0; j < players; ++j) size *= j < i ? l.span : l.target;
    l.offset.push_back(l.count);
    l.count += size;
  }
  return l;
}

std::int64_t IndexIn(const Layout& l, int mover, const std::vector<int>& scores) {
  if (mover < 0 || mover >= l.players || static_cast<int>(scores.size()) != l.players) return -1;
  std::int64_t index = 0;
  for (int j = 0; j < l.players; ++j) {
    const int radix = j < mover ? l.span : l.target;
    if (scores[j] < 0 || scores[j] >= radix) return -1;
    index = index * radix + scores[j];
  }
  return l.offset[mover] + index;
}

// The game is over with these totals: the leaders split the win (docs/RULES.md, the symmetric duel).
void GameOver(const std::vector<int>& totals, double* out) {
  const int best = *std::max_element(totals.begin(), totals.end());
  const int leaders = static_cast<int>(std::count(totals.begin(), totals.end(), best));
  for (std::size_t j = 0; j < totals.size(); ++j) out[j] = totals[j] == best ? 1.0 / leaders : 0;
}

}  // namespace

std::optional<double> NaiveGameResult::RollValue(std::int64_t context,
                                                 const std::array<int, 5>& aside) const {
  if (context < 0 || context >= static_cast<std::int64_t>(contexts.size())) return std::nullopt;
  const int side = rules.dice + 1;
  std::int64_t key = 0;
  for (int f = 0; f < 5; ++f) {
    if (aside[f] < 0 || aside[f] >= side) return std::nullopt;
    key = key * side + aside[f];
  }
  const double v = roll_values[context * aside_keys + key];
  if (std::isnan(v)) return std::nullopt;
  return v;
}

std::int64_t NaiveContextIndex(const Rules& rules, int players, int mover,
                               const std::vector<int>& scores) {
  if (!ValidateRules(rules).ok() || players < 2) return -1;
  return IndexIn(MakeLayout(rules, players, MaxTurnScore(rules)), mover, scores);
}

absl::StatusOr<NaiveGameResult> NaiveGameValues(const Rules& rules, int players,
                                                const NaiveOptions& options) {
  if (absl::Status s = ValidateRules(rules); !s.ok()) return s;
  if (players < 2 || players > 6)
    return absl::InvalidArgumentError(absl::StrCat("players must be 2..6, got ", players));
  if (rules.dice > 6)
    return absl::InvalidArgumentError(
        absl::StrCat("the naive solver takes at most 6 dice, got ", rules.dice));
  const TurnGraph graph(rules);
  const int P = players;
  const int M = graph.max_turn();
  const Layout layout = MakeLayout(rules, players, M);
  if (static_cast<double>(layout.count) * graph.visits_per_turn() > 2e8)
    return absl::InvalidArgumentError(absl::StrCat("too big for the naive solver: ", layout.count,
                                                   " contexts x ", graph.visits_per_turn(),
                                                   " turn-state visits"));

  NaiveGameResult result;
  result.rules = rules;
  result.players = P;
  result.max_turn = M;

  // Every context, in FORMAT.md order.
  const std::int64_t C = layout.count;
  result.contexts.reserve(C);
  for (int mover = 0; mover < P; ++mover) {
    std::vector<int> scores(P, 0);
    const auto radix = [&](int j) { return j < mover ? layout.span : layout.target; };
    for (;;) {
      result.contexts.push_back({mover, scores});
      int j = P - 1;
      while (j >= 0 && ++scores[j] == radix(j)) scores[j--] = 0;
      if (j < 0) break;
    }
  }
  if (static_cast<std::int64_t>(result.contexts.size()) != C)
    return absl::InternalError("context enumeration does not match the layout");

  // Where each context's turn leads with x points: another context, or a game-over vector.
  std::vector<double> value(C * P, options.initial_guess);
  std::vector<std::int64_t> next(C * (M + 1), -1);
  std::vector<double> over(C * (M + 1) * P, 0.0);
  for (std::int64_t ci = 0; ci < C; ++ci) {
    const NaiveContext& c = result.contexts[ci];
    const int i = c.mover;
    bool final_round = false;
    for (int j = 0; j < i; ++j) final_round = final_round || c.scores[j] >= rules.target;
    for (int x = 0; x <= M; ++x) {
      std::vector<int> s = c.scores;
      s[i] += x;
      if (i == P - 1 && (final_round || s[i] >= rules.target)) {
        GameOver(s, &over[(ci * (M + 1) + x) * P]);
      } else {
        const std::int64_t n = IndexIn(layout, (i + 1) % P, s);
        if (n < 0) return absl::InternalError("a turn leads outside the contexts");
        next[ci * (M + 1) + x] = n;
      }
    }
  }

  // Sweep order: later in the game first (higher sum of totals), then the later mover, so that
  // a sweep mostly reads values already updated in it.
  std::vector<std::int64_t> order(C);
  std::iota(order.begin(), order.end(), 0);
  const auto sum = [&](std::int64_t ci) {
    const std::vector<int>& s = result.contexts[ci].scores;
    return std::accumulate(s.begin(), s.end(), 0);
  };
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
    if (sum(a) != sum(b)) return sum(a) > sum(b);
    return result.contexts[a].mover > result.contexts[b].mover;
  });

  const std::vector<Aside>& asides = graph.asides();
  const int n_asides = static_cast<int>(asides.size());
  std::vector<double> roll_value(n_asides * P, 0.0);  // rolling (on) from a set-aside
  std::vector<double> take_value(n_asides * P, 0.0);  // just after a take: stop or roll, better
  std::vector<const double*> utility(M + 1);
  std::vector<double> acc(P);
  std::vector<int> tied_actions;

  // Solves one context's turn from the current values; counts decisions if asked.
  const auto solve_turn = [&](std::int64_t ci, bool count) {
    const int m = result.contexts[ci].mover;
    for (int x = 0; x <= M; ++x) {
      const std::int64_t n = next[ci * (M + 1) + x];
      utility[x] = n >= 0 ? &value[n * P] : &over[(ci * (M + 1) + x) * P];
    }
    for (int a = 0; a < n_asides; ++a) {
      const Aside& as = asides[a];
      const double* stop = utility[as.score];
      double* rv = &roll_value[a * P];
      if (as.roll_from) {
        std::fill(acc.begin(), acc.end(), 0.0);
        for (const Roll& roll : as.rolls) {
          const double* outcome;
          if (roll.takes.empty()) {
            outcome = utility[asides[roll.after_tanks].score];  // nothing to take: turn over
          } else {
            double best = -1;
            for (const Take& t : roll.takes) best = std::max(best, take_value[t.result * P + m]);
            const Take* chosen = nullptr;
            for (const Take& t : roll.takes) {
              if (take_value[t.result * P + m] >= best - kTie) {
                chosen = &t;
                break;
              }
            }
            outcome = &take_value[chosen->result * P];
            if (count && as.counted && roll.counted) {
              tied_actions.clear();
              bool king = false;
              for (const Take& t : roll.takes) {
                if (std::find(tied_actions.begin(), tied_actions.end(), t.action) ==
                    tied_actions.end())
                  tied_actions.push_back(t.action);
              }
              if (tied_actions.size() >= 2) {
                ++result.takes.decisions;
                tied_actions.clear();
                for (const Take& t : roll.takes) {
                  const double* v = &take_value[t.result * P];
                  if (v[m] < best - kTie) continue;
                  if (std::find(tied_actions.begin(), tied_actions.end(), t.action) ==
                      tied_actions.end())
                    tied_actions.push_back(t.action);
                  for (int j = 0; j < P; ++j)
                    if (j != m && std::fabs(v[j] - outcome[j]) > kTie) king = true;
                }
                if (tied_actions.size() >= 2) {
                  ++result.takes.tied;
                  if (best <= kTie || best >= 1 - kTie) ++result.takes.tied_decided;
                  if (king) ++result.takes.kingmaking;
                }
              }
            }
          }
          for (int j = 0; j < P; ++j) acc[j] += roll.weight * outcome[j];
        }
        for (int j = 0; j < P; ++j) rv[j] = acc[j] / as.outcomes;
      }
      if (as.after_take) {
        double* tv = &take_value[a * P];
        const bool roll_on = as.left > 0 && rv[m] > stop[m] + kTie;  // ties: stop
        for (int j = 0; j < P; ++j) tv[j] = roll_on ? rv[j] : stop[j];
        if (count && as.counted && as.left > 0) {
          ++result.stop_roll.decisions;
          if (std::fabs(rv[m] - stop[m]) <= kTie) {
            ++result.stop_roll.tied;
            const double best = std::max(rv[m], stop[m]);
            if (best <= kTie || best >= 1 - kTie) ++result.stop_roll.tied_decided;
            bool king = false;
            for (int j = 0; j < P; ++j)
              if (j != m && std::fabs(rv[j] - stop[j]) > kTie) king = true;
            if (king) ++result.stop_roll.kingmaking;
          }
        }
      }
    }
    return &roll_value[graph.start() * P];  // the turn starts with a roll
  };

  for (result.sweeps = 1; result.sweeps <= options.max_sweeps; ++result.sweeps) {
    double change = 0;
    for (std::int64_t ci : order) {
      const double* start = solve_turn(ci, false);
      for (int j = 0; j < P; ++j) {
        change = std::max(change, std::fabs(start[j] - value[ci * P + j]));
        value[ci * P + j] = start[j];
      }
    }
    result.residual = change;
    if (change < 1e-15) {
      result.converged = true;
      break;
    }
  }
  if (result.sweeps > options.max_sweeps) result.sweeps = options.max_sweeps;

  // The decision counts and the mover's roll values, from the converged values (one more pass
  // that changes nothing).
  const int side = rules.dice + 1;
  result.aside_keys = static_cast<std::int64_t>(side) * side * side * side * side;
  result.roll_values.assign(C * result.aside_keys, std::nan(""));
  for (std::int64_t ci : order) {
    solve_turn(ci, true);
    const int m = result.contexts[ci].mover;
    for (int a = 0; a < n_asides; ++a) {
      if (!asides[a].roll_from) continue;
      const Counts& c = asides[a].counts;
      const int key = (((c[0] * side + c[1]) * side + c[2]) * side + c[3]) * side + c[4];
      result.roll_values[ci * result.aside_keys + key] = roll_value[a * P + m];
    }
  }

  result.values.resize(C);
  for (std::int64_t ci = 0; ci < C; ++ci)
    result.values[ci].assign(value.begin() + ci * P, value.begin() + (ci + 1) * P);
  return result;
}

}  // namespace martiandice::naive
