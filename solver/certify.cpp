// Certification of a values-only N-player solution: per context, the mover's
// turn solved in double over the stored next-context vectors with the tie
// convention (every seat's chance carried along, every position's records
// kept), every decision's margin measured from it, ties proven exact
// structurally or by a rational re-solve (cached per utility).
#include "certify.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <new>
#include <numeric>
#include <span>
#include <string>
#include <unordered_map>

#include "absl/strings/str_format.h"
#include "convention_turn.h"
#include "martiandice/table.h"
#include "table_format.h"
#include "turn_model.h"
#include "workers.h"

namespace martiandice::solver {
namespace {

using internal::CanonState;
using internal::EarthClass;
using internal::RollTerm;
using internal::RollTerms;
using internal::TurnModel;

constexpr double kTie = internal::kConventionTie;
// Another seat's stored chance this far from the reader's pure solve: the
// context's vector is a mixture (a mixed cycle), not an error within bound.
constexpr double kMixedGap = 1e-9;

double MarginThreshold(double error_bound) { return 2 * (error_bound + kReaderTurnRounding); }

// The derived bound's two lanes, carried after the seats' chances in every
// record of the reader's turn solve (following its decisions): the chance of
// the next seat's turn at the same totals (0 points, the game not over), and
// the expected derived error of the contexts a score leads to.
constexpr int kZeroLane = 0, kDepsLane = 1, kErrorLanes = 2;
// The lanes' own rounding (weighted sums of at most a few thousand terms),
// far below these.
constexpr double kLaneRelative = 1e-9, kLaneAbsolute = 1e-12;

// Per context: its derived error bound (NaN until its level is closed, and
// for contexts not checked), its step (its distance to its own turn solve,
// the reader's rounding and its scores' expected error: kDepsLane) and its
// chance of the next seat's turn at the same totals (kZeroLane).
struct Bounds {
  std::vector<double> error, step, zero;
};
// A step's value for a context outside the floor or ceiling.
constexpr double kNotChecked = -1;
// Exact values tracked by rank: not (yet) known.
constexpr int kUnknown = -1, kUnset = -2;

// Adds an inexact tie to the report's examples unless it is full or has the
// same mover choosing between the same two options (in other contexts with
// the same utility, say): the examples then show different decisions.
void AddExample(CertificationReport::InexactTie e, CertificationReport* report) {
  auto& examples = report->inexact_examples;
  if (examples.size() >= CertificationReport::kInexactExamples) return;
  const bool seen = std::any_of(examples.begin(), examples.end(), [&](const auto& o) {
    return o.seat == e.seat && std::minmax(o.a, o.b) == std::minmax(e.a, e.b);
  });
  if (!seen) examples.push_back(std::move(e));
}

// A decision found tied in doubles that needs an exact look: two positions'
// values (max(stop, roll)), or a position's stop against its roll (b == -1).
// `pick`: the position the convention takes (a, b or a third tied one); for
// stop against roll, kPickStop.
struct NearTie {
  int a, b, pick;
};
constexpr int kPickStop = -1;

// An exact re-verification's verdict on a context's near ties (a function of
// the mover's utility alone, so shared by contexts with the same utility).
struct Verdict {
  long long exact = 0, inexact = 0;
  double largest_gap = 0;
  // The inexact ones, by what the table proves of the convention's pick.
  long long undecided = 0, pick_best = 0, pick_worse = 0;
  double largest_loss = 0;
  bool partial = false;  // the tied positions' subtrees re-solved, not the whole turn
  // The first inexact ties (for CertificationReport::inexact_examples).
  std::vector<std::pair<NearTie, double>> examples;
};

// Certifies contexts one at a time; one per thread.
class ContextCertifier {
 public:
  // `bounds.error`: the derived bound of each context checked so far (NaN
  // for the others); Certify(c) writes c's own step and zero chance.
  ContextCertifier(const GameValues& values, const internal::ContextNumbering& index,
                   const TurnModel& model, int local_max_left, const std::vector<int>& floor,
                   const std::vector<int>& ceiling, Bounds& bounds)
      : v_(values),
        index_(index),
        model_(model),
        bounds_(bounds),
        n_(values.players),
        w_(values.players + kErrorLanes),
        max_turn_(MaxTurnScore(values.rules)),
        start_(model.Id(0, 0, 0, 0, 0)),
        local_max_left_(local_max_left),
        floor_(floor),
        ceiling_(ceiling),
        threshold_(MarginThreshold(values.error_bound)) {
    const int size = model.size();
    law_group_.resize(model.LawCount());
    for (int id = 0; id < size; ++id) {
      for (int q = 0; q <= model.state(id).left; ++q) law_group_[model.LawIndex(id, q)] = id;
    }
    memo_value_.resize(size);
    memo_roll_.resize(size);
    memo_law_.resize(model.LawCount());
    stamp_value_.assign(size, 0);
    stamp_roll_.assign(size, 0);
    stamp_law_.assign(model.LawCount(), 0);
    node_.resize(static_cast<size_t>(size) * w_);
    roll_.resize(static_cast<size_t>(size) * w_);
    laws_.resize(static_cast<size_t>(model.LawCount()) * w_);
    stop_.resize(static_cast<size_t>(max_turn_ + 1) * w_);
    node_hi_.resize(size);
    roll_hi_.resize(size);
    law_hi_.resize(model.LawCount());
    value_.resize(size);
    split_.resize(max_turn_ + 1);
    rank_.resize(max_turn_ + 1);
    order_.resize(max_turn_ + 1);
    node_known_.resize(size);
    roll_known_.resize(size);
    law_known_.resize(model.LawCount());
    report.smallest_margin = HUGE_VAL;
  }

  void Certify(long long context) {
    ++report.contexts;
    std::vector<int>& s = scores_;
    s.assign(n_, 0);
    const int seat = index_.Decode(context, s.data());
    seat_ = seat;
    bool outside = false;
    for (int j = 0; j < static_cast<int>(floor_.size()); ++j) outside |= s[j] < floor_[j];
    for (int j = 0; j < static_cast<int>(ceiling_.size()); ++j) outside |= s[j] > ceiling_[j];
    if (outside) {
      --report.contexts;
      return;
    }
    BuildUtility(seat, s.data());
    // The record width is a compile-time constant: the inner sums unroll.
    static constexpr void (ContextCertifier::*kSolve[])() = {
        &ContextCertifier::SolveTurn<2 + kErrorLanes>,
        &ContextCertifier::SolveTurn<3 + kErrorLanes>,
        &ContextCertifier::SolveTurn<4 + kErrorLanes>,
        &ContextCertifier::SolveTurn<5 + kErrorLanes>,
        &ContextCertifier::SolveTurn<6 + kErrorLanes>};
    (this->*kSolve[n_ - 2])();
    const double* stored = &v_.win[static_cast<size_t>(context) * n_];
    const double* start = &roll_[static_cast<size_t>(start_) * w_];
    double own_gap = 0, other_gap = 0;
    for (int j = 0, k = 1; j < n_; ++j) {
      const double gap = std::abs(stored[j] - (j == seat ? start[0] : start[k++]));
      (j == seat ? own_gap : other_gap) = std::max(j == seat ? own_gap : other_gap, gap);
    }
    mixed_ = other_gap > kMixedGap;
    report.mixed_contexts += mixed_;
    report.largest_value_gap =
        std::max({report.largest_value_gap, own_gap, mixed_ ? MixtureGap(stored) : other_gap});
    // A mixture is no fixed point of the pure solve: no step to derive from.
    bounds_.step[context] =
        mixed_ ? NAN : std::max(own_gap, other_gap) + kReaderTurnRounding + start[n_ + kDepsLane];
    bounds_.zero[context] = start[n_ + kZeroLane];
    const int size = model_.size();
    for (int id = 0; id < size; ++id) {
      const double stop = stop_[static_cast<size_t>(model_.state(id).score) * w_];
      const double roll = roll_[static_cast<size_t>(id) * w_];
      value_[id] = id == start_ ? roll : std::isnan(roll) ? stop : std::max(stop, roll);
    }
    near_.clear();
    context_kingmaking_ = false;
    for (int id = 0; id < size; ++id) {
      const CanonState& st = model_.state(id);
      if (id != start_ && st.left > 0 && st.rays + st.earth[0] > 0) StopOrRollDecision(id);
      if (st.left > 0) TakeDecisions(id);
    }
    report.kingmaking_contexts += context_kingmaking_;
    if (!near_.empty()) VerifyExactly();
  }

  CertificationReport report;
  // The exact re-verifications made, by the utility's bytes (each worker
  // caches its own; CountExactSolves counts each utility once).
  const std::unordered_map<std::string, Verdict>& verdicts() const { return verdicts_; }

 private:
  // Every seat's chance after the mover ends with x points, as a reader takes
  // it: the next context's stored vector, or the end of the game (tied
  // leaders split the win). Records: the mover's component first, then the
  // other seats in seat order. split_[x] = k > 0: the mover's utility is
  // exactly 1/k, which a double does not hold (k = 3, 5, 6).
  void BuildUtility(int seat, const int* s) {
    int next[kMaxPlayers];
    double over[kMaxPlayers];
    key_.clear();
    for (int x = 0; x <= max_turn_; ++x) {
      std::copy(s, s + n_, next);
      next[seat] += x;
      const double* vec;
      split_[x] = 0;
      const std::span<const int> after(next, n_);
      const bool ends = GameEndsAfterTurn(v_.rules, after, seat);
      double* rec = &stop_[static_cast<size_t>(x) * w_];
      // The error lanes: to the same totals (the next seat's turn), or the
      // derived error of the context a score leads to; none at the end.
      rec[n_ + kZeroLane] = !ends && x == 0 ? 1.0 : 0.0;
      rec[n_ + kDepsLane] =
          ends || x == 0 ? 0.0 : bounds_.error[index_.Index((seat + 1) % n_, next)];
      if (ends) {
        for (int j = 0; j < n_; ++j) over[j] = WinShare(after, j);
        const int leaders = LeaderCount(after);
        if (over[seat] > 0 && (leaders & (leaders - 1)) != 0) split_[x] = leaders;
        vec = over;
      } else {
        vec = &v_.win[static_cast<size_t>(index_.Index((seat + 1) % n_, next)) * n_];
      }
      rec[0] = vec[seat];
      for (int j = 0, k = 1; j < n_; ++j) {
        if (j != seat) rec[k++] = vec[j];
      }
      key_.append(reinterpret_cast<const char*>(&rec[0]), sizeof(double));
      key_.push_back(static_cast<char>(split_[x]));
    }
    // Ranks: the utilities' order as exact rationals (equal rank iff equal).
    // Doubles that differ are ordered as their rationals (1/k rounds to its
    // nearest double); equal doubles differ exactly only beside a split win.
    for (int x = 0; x <= max_turn_; ++x) order_[x] = x;
    auto compare = [&](int x, int y) {
      const double dx = stop_[static_cast<size_t>(x) * w_], dy = stop_[static_cast<size_t>(y) * w_];
      if (dx != dy) return dx < dy ? -1 : 1;
      if (split_[x] == split_[y]) return 0;
      const Rational ex = ExactUtility(x), ey = ExactUtility(y);
      return ex < ey ? -1 : ex > ey ? 1 : 0;
    };
    std::sort(order_.begin(), order_.end(), [&](int x, int y) { return compare(x, y) < 0; });
    for (int i = 0, r = 0; i <= max_turn_; ++i) {
      if (i > 0 && compare(order_[i - 1], order_[i]) != 0) ++r;
      rank_[order_[i]] = r;
    }
  }

  // The mover's utility of ending with x points, exactly.
  Rational ExactUtility(int x) const {
    Rational u = stop_[static_cast<size_t>(x) * w_];
    if (split_[x] > 0) {
      u = 1;
      u /= split_[x];
    }
    return u;
  }

  // ---- The reader's turn solve (double, the convention of docs/PLAYERS.md),
  // with the same operations in the same order as internal::SolveConvention
  // for the mover's component, keeping every position's roll record. Its own
  // DP on purpose: a stored value is checked by code other than the code that
  // computed it. Shared with the solver: the rules (rules.h) and the turn
  // model (positions, children, roll laws: internal::TurnModel), which the
  // Python reader's own enumeration checks (tests/scripts/table_reader.py). The
  // highest utility rank each position's outcomes can reach, and the exact
  // values the utilities' order alone fixes.

  template <int W>
  void SolveTurn() {
    for (int level = 0; level <= model_.rules().dice; ++level) {
      OutcomeLaws<W>(level);
      StopOrRoll<W>(level);
    }
  }

  double* Node(int id) { return &node_[static_cast<size_t>(id) * w_]; }
  const double* StopRec(int score) const { return &stop_[static_cast<size_t>(score) * w_]; }

  template <int W>
  const double* ChooseTake(const double* const* take, const EarthClass& cls,
                           const double* rays) const {
    const int n = cls.takes;
    const double* t[3] = {take[cls.take[0]], take[cls.take[1]], take[cls.take[2]]};
    const double* best_take = t[0];
    for (int i = 1; i < n; ++i) best_take = t[i][0] > best_take[0] ? t[i] : best_take;
    const double best = rays != nullptr && rays[0] > best_take[0] ? rays[0] : best_take[0];
    const double bar = best - kTie;
    if (rays != nullptr && rays[0] >= bar) return rays;
    for (int i = n - 1; i >= 0; --i) {
      if (t[i][0] >= bar) return t[i];
    }
    return best_take;  // not reached
  }

  template <int W>
  void OutcomeLaws(int level) {
    const double* take[kMaxDice + 1];
    double sums[W];
    for (int group : model_.Level(level)) {
      const CanonState& g = model_.state(group);
      for (int x = 1; g.untaken > 0 && x <= g.left; ++x)
        take[x] = Node(model_.EarthChild(group, x));
      const double* turn_over = StopRec(g.score);
      for (int q = 0; q <= g.left; ++q) {
        const int ray_child = model_.RayChild(group, q);
        const double* rays = ray_child >= 0 ? Node(ray_child) : nullptr;
        std::fill(sums, sums + W, 0.0);
        unsigned present = 0;
        bool none = false;
        int known = kUnset;  // every class's exact value, if known and the same
        for (const EarthClass& cls : model_.Classes(g.untaken, q)) {
          const double* chosen = cls.present != 0  ? ChooseTake<W>(take, cls, rays)
                                 : rays != nullptr ? rays
                                                   : turn_over;
          present |= cls.present;
          none |= cls.present == 0;
          const double weight = cls.weight_d;
          for (int k = 0; k < W; ++k) sums[k] += weight * chosen[k];
          if (known != kUnknown) {
            const int v = ClassKnown(group, cls.present, ray_child, g.score);
            known = v < 0 || (known != kUnset && known != v) ? kUnknown : v;
          }
        }
        const int law = model_.LawIndex(group, q);
        law_known_[law] = known < 0 ? kUnknown : known;
        std::copy(sums, sums + W, &laws_[static_cast<size_t>(law) * W]);
        int hi = INT_MIN;
        auto include = [&](int b) { hi = std::max(hi, b); };
        if (rays != nullptr) include(node_hi_[ray_child]);
        if (none && rays == nullptr) include(rank_[g.score]);
        for (int x = 1; x < 32 && x <= g.left; ++x) {
          if (present & (1u << x)) {
            const int child = model_.EarthChild(group, x);
            include(node_hi_[child]);
          }
        }
        law_hi_[law] = hi;
      }
    }
  }

  // The exact value of a roll outcome class (the best of its options: rays
  // if shown, a take of each count present; the turn's end without either),
  // when the utilities' order fixes it: every option's value known, or one
  // known at or above whatever any option can reach. Else kUnknown.
  int ClassKnown(int group, unsigned present, int ray_child, int score) const {
    if (present == 0 && ray_child < 0) return rank_[score];
    int best = kUnknown, reach = INT_MIN;
    bool all = true;
    auto option = [&](int child) {
      all = all && node_known_[child] >= 0;
      best = std::max(best, node_known_[child]);
      reach = std::max(reach, node_hi_[child]);
    };
    if (ray_child >= 0) option(ray_child);
    for (int x = 1; x < 32 && present >> x != 0; ++x) {
      if (present & (1u << x)) option(model_.EarthChild(group, x));
    }
    return all || (best >= 0 && best >= reach) ? best : kUnknown;
  }

  template <int W>
  void RollSums(const RollTerms& terms, double* roll) const {
    double part[4][W] = {};
    const size_t n = terms.size();
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
      for (int j = 0; j < 4; ++j) {
        const double* law = &laws_[static_cast<size_t>(terms[i + j].law) * W];
        const double weight = terms[i + j].weight_d;
        for (int k = 0; k < W; ++k) part[j][k] += weight * law[k];
      }
    }
    for (; i < n; ++i) {
      const double* law = &laws_[static_cast<size_t>(terms[i].law) * W];
      const double weight = terms[i].weight_d;
      for (int k = 0; k < W; ++k) part[0][k] += weight * law[k];
    }
    for (int k = 0; k < W; ++k) roll[k] = (part[0][k] + part[1][k]) + (part[2][k] + part[3][k]);
  }

  template <int W>
  void StopOrRoll(int level) {
    for (int id : model_.Level(level)) {
      double* node = Node(id);
      double* roll = &roll_[static_cast<size_t>(id) * W];
      const int score = model_.state(id).score;
      const double* stop = StopRec(score);
      if (level == 0) {
        std::copy(stop, stop + W, node);
        std::fill(roll, roll + W, NAN);
        node_hi_[id] = node_known_[id] = rank_[score];
        roll_known_[id] = kUnknown;
        continue;
      }
      RollSums<W>(model_.Terms(id), roll);
      int hi = INT_MIN, known = kUnset;
      for (const RollTerm& term : model_.Terms(id)) {
        hi = std::max(hi, law_hi_[term.law]);
        const int v = law_known_[term.law];
        known = v < 0 || (known != kUnset && known != v) ? kUnknown : v;
      }
      roll_hi_[id] = hi;
      // The roll is an average (weights summing to 1): known if every law's
      // value is known and the same. The position's value is max(stop, roll):
      // known if the roll's is, or if stopping reaches whatever rolling can.
      roll_known_[id] = known < 0 ? kUnknown : known;
      const int stop_rank = rank_[score];
      node_known_[id] = id == start_           ? roll_known_[id]
                        : roll_known_[id] >= 0 ? std::max(stop_rank, roll_known_[id])
                        : stop_rank >= hi      ? stop_rank
                                               : kUnknown;
      const bool rolls = id == start_ || roll[0] > stop[0] + kTie;
      std::copy(rolls ? roll : stop, (rolls ? roll : stop) + W, node);
      node_hi_[id] = id == start_ ? hi : std::max(hi, rank_[score]);
    }
  }

  // ---- At a mixed context: every seat's chance under any mixture of the
  // mover's options within the margin threshold of its best (where a mixing
  // mover may randomise), as a range per position: the turn solve with the
  // least and the greatest in place of the convention's pick. A mixture of
  // best replies lies in the start's range; a stored vector outside it is no
  // mixture. Returns how far the other seats' stored chances lie outside.

  double MixtureGap(const double* stored) {
    if (range_lo_.empty()) {
      range_lo_.resize(static_cast<size_t>(model_.size()) * n_);
      range_hi_.resize(range_lo_.size());
      range_law_lo_.resize(static_cast<size_t>(model_.LawCount()) * n_);
      range_law_hi_.resize(range_law_lo_.size());
    }
    for (int level = 0; level <= model_.rules().dice; ++level) {
      RangeLaws(level);
      RangeNodes(level);
    }
    const double* lo = &range_lo_[static_cast<size_t>(start_) * n_];
    const double* hi = &range_hi_[static_cast<size_t>(start_) * n_];
    double gap = 0;
    for (int j = 0, k = 1; j < n_; ++j) {
      if (j == seat_) continue;
      gap = std::max({gap, lo[k] - stored[j], stored[j] - hi[k]});
      ++k;
    }
    return gap;
  }

  // Widens [lo, hi] (records of n_) to take in [from_lo, from_hi].
  void Widen(const double* from_lo, const double* from_hi, double* lo, double* hi) const {
    for (int k = 0; k < n_; ++k) {
      lo[k] = std::min(lo[k], from_lo[k]);
      hi[k] = std::max(hi[k], from_hi[k]);
    }
  }

  void RangeLaws(int level) {
    double lo[kMaxPlayers], hi[kMaxPlayers];
    for (int group : model_.Level(level)) {
      const CanonState& g = model_.state(group);
      const double* turn_over = StopRec(g.score);
      for (int q = 0; q <= g.left; ++q) {
        const int ray_child = model_.RayChild(group, q);
        double* sum_lo = &range_law_lo_[static_cast<size_t>(model_.LawIndex(group, q)) * n_];
        double* sum_hi = &range_law_hi_[static_cast<size_t>(model_.LawIndex(group, q)) * n_];
        std::fill(sum_lo, sum_lo + n_, 0.0);
        std::fill(sum_hi, sum_hi + n_, 0.0);
        for (const EarthClass& cls : model_.Classes(g.untaken, q)) {
          std::fill(lo, lo + n_, HUGE_VAL);
          std::fill(hi, hi + n_, -HUGE_VAL);
          if (cls.present == 0) {
            const double* end = ray_child >= 0 ? RangeLo(ray_child) : turn_over;
            Widen(end, ray_child >= 0 ? RangeHi(ray_child) : turn_over, lo, hi);
          } else {
            double best = ray_child >= 0 ? Node(ray_child)[0] : -HUGE_VAL;
            for (int i = 0; i < cls.takes; ++i) {
              best = std::max(best, Node(model_.EarthChild(group, cls.take[i]))[0]);
            }
            auto option = [&](int child) {
              if (Node(child)[0] >= best - threshold_)
                Widen(RangeLo(child), RangeHi(child), lo, hi);
            };
            if (ray_child >= 0) option(ray_child);
            for (int i = 0; i < cls.takes; ++i) option(model_.EarthChild(group, cls.take[i]));
          }
          for (int k = 0; k < n_; ++k) {
            sum_lo[k] += cls.weight_d * lo[k];
            sum_hi[k] += cls.weight_d * hi[k];
          }
        }
      }
    }
  }

  void RangeNodes(int level) {
    double roll_lo[kMaxPlayers], roll_hi[kMaxPlayers];
    for (int id : model_.Level(level)) {
      double* lo = RangeLo(id);
      double* hi = RangeHi(id);
      const double* stop = StopRec(model_.state(id).score);
      std::fill(lo, lo + n_, HUGE_VAL);
      std::fill(hi, hi + n_, -HUGE_VAL);
      if (level == 0) {
        Widen(stop, stop, lo, hi);
        continue;
      }
      std::fill(roll_lo, roll_lo + n_, 0.0);
      std::fill(roll_hi, roll_hi + n_, 0.0);
      for (const RollTerm& term : model_.Terms(id)) {
        for (int k = 0; k < n_; ++k) {
          roll_lo[k] += term.weight_d * range_law_lo_[static_cast<size_t>(term.law) * n_ + k];
          roll_hi[k] += term.weight_d * range_law_hi_[static_cast<size_t>(term.law) * n_ + k];
        }
      }
      const double roll = roll_[static_cast<size_t>(id) * w_];
      if (id == start_ || roll >= stop[0] - threshold_) Widen(roll_lo, roll_hi, lo, hi);
      if (id != start_ && stop[0] >= roll - threshold_) Widen(stop, stop, lo, hi);
    }
  }

  double* RangeLo(int id) { return &range_lo_[static_cast<size_t>(id) * n_]; }
  double* RangeHi(int id) { return &range_hi_[static_cast<size_t>(id) * n_]; }

  // ---- The decisions (as solver/certify.cpp enumerates them).

  // Two records differ for another seat by more than the tie tolerance.
  bool TellsApart(const double* a, const double* b) const {
    for (int k = 1; k < n_; ++k) {
      if (std::abs(a[k] - b[k]) > kTie) return true;
    }
    return false;
  }

  // A non-tie decision's margin; at a mixed context one within the
  // threshold is the mover's indifference, a mixing decision.
  void Margin(double gap) {
    if (mixed_ && gap <= threshold_) {
      ++report.mixing_decisions;
    } else {
      report.smallest_margin = std::min(report.smallest_margin, gap);
    }
  }
  // A tie not proven exact yet: re-verified exactly, unless the context is
  // mixed (its mover is indifferent only up to the bound there).
  void Unproven(const NearTie& tie) {
    if (mixed_) {
      --report.ties;
      ++report.mixing_decisions;
    } else {
      near_.push_back(tie);
    }
  }

  void StopOrRollDecision(int id) {
    const int score = model_.state(id).score;
    const double* stop = StopRec(score);
    const double* roll = &roll_[static_cast<size_t>(id) * w_];
    ++report.decisions;
    const double gap = std::abs(stop[0] - roll[0]);
    if (gap > kTie) {
      Margin(gap);
      return;
    }
    ++report.ties;
    if (TellsApart(stop, roll)) {
      ++report.kingmaking_ties;
      context_kingmaking_ = true;
    }
    if (roll_known_[id] >= 0 && roll_known_[id] == rank_[score]) {
      ++report.exact_ties;
      ++report.structural_ties;
    } else {
      Unproven(NearTie{id, -1, kPickStop});
    }
  }

  // Every roll outcome's take decision at group `g` (position after the
  // tanks): q other dice over the untaken types and blanks, rays for the rest.
  void TakeDecisions(int g) {
    const CanonState& s = model_.state(g);
    const int j = s.untaken;
    for (int q = 0; q <= s.left; ++q) {
      const int ray_child = model_.RayChild(g, q);
      for (int c0 = 0; c0 <= (j >= 1 ? q : 0); ++c0) {
        for (int c1 = 0; c1 <= (j >= 2 ? q - c0 : 0); ++c1) {
          for (int c2 = 0; c2 <= (j >= 3 ? q - c0 - c1 : 0); ++c2) {
            if (j == 3 && c0 + c1 + c2 < q) continue;  // no blanks without a taken type
            // dice[i]: the dice option i takes (0 for rays).
            int options[4], dice[4], count = 0;
            if (ray_child >= 0) options[count] = ray_child, dice[count++] = 0;
            for (int c : {c0, c1, c2}) {
              if (c > 0) options[count] = model_.EarthChild(g, c), dice[count++] = c;
            }
            if (count >= 2) CompareOptions(options, dice, count);
          }
        }
      }
    }
  }

  void CompareOptions(const int* options, const int* dice, int count) {
    const BestAndSecondOptions pick_ab = BestAndSecond(value_, options, count);
    const int a = options[pick_ab.best], b = options[pick_ab.second];
    ++report.decisions;
    const double gap = value_[a] - value_[b];
    if (gap > kTie) {
      Margin(gap);
      return;
    }
    ++report.ties;
    // Kingmaking: the convention's pick among the options tied with the best
    // (by the positions' records, as the solve compares them: rays first,
    // then the most dice) against the other tied ones.
    double top = -HUGE_VAL;
    for (int i = 0; i < count; ++i) top = std::max(top, Node(options[i])[0]);
    int pick = -1;
    for (int i = 0; i < count; ++i) {
      if (Node(options[i])[0] < top - kTie) continue;
      const bool first = dice[i] == 0 || (pick >= 0 && dice[pick] != 0 && dice[i] > dice[pick]);
      if (pick < 0 || first) pick = i;
    }
    bool kingmaking = false;
    for (int i = 0; i < count; ++i) {
      if (i != pick && Node(options[i])[0] >= top - kTie) {
        kingmaking = kingmaking || TellsApart(Node(options[pick]), Node(options[i]));
      }
    }
    if (kingmaking) {
      ++report.kingmaking_ties;
      context_kingmaking_ = true;
    }
    if (a == b) {
      ++report.symmetric_ties;
    } else if (node_known_[a] >= 0 && node_known_[a] == node_known_[b]) {
      ++report.exact_ties;
      ++report.structural_ties;
    } else {
      Unproven(NearTie{a, b, options[pick]});
    }
  }

  // ---- Exact re-verification: the context's turn solved with rationals from
  // the same utilities (stored doubles are rationals; a split win is 1/k); a
  // tie stands if the exact values are equal. The verdict depends on the
  // utility only: cached.
  void VerifyExactly() {
    auto it = verdicts_.find(key_);
    if (it == verdicts_.end()) {
      exact_u_.clear();
      for (int x = 0; x <= max_turn_; ++x) {
        exact_u_.push_back(ExactUtility(x));
      }
      int deepest = 0;
      for (const NearTie& t : near_) {
        deepest = std::max<int>(deepest, model_.state(t.a).left);
        if (t.b >= 0) deepest = std::max<int>(deepest, model_.state(t.b).left);
      }
      // Per tie: the two options' exact values, then the pick's.
      std::vector<std::array<Rational, 3>> pairs;
      Verdict verdict;
      if (deepest <= local_max_left_) {
        // Few dice left: the tied positions' subtrees alone, exactly.
        verdict.partial = true;
        ++stamp_;
        for (const NearTie& t : near_) {
          const Rational a = t.b < 0 ? exact_u_[model_.state(t.a).score] : ExactValue(t.a);
          const Rational b = t.b < 0 ? ExactRoll(t.a) : ExactValue(t.b);
          pairs.push_back({a, b, PickValue(t, a, b, [&](int id) { return ExactValue(id); })});
        }
      } else {
        const internal::ExactTurnValues e = internal::SolveExact(model_, exact_u_);
        for (const NearTie& t : near_) {
          const Rational a = t.b < 0 ? Stop(e, t.a) : Value(e, t.a);
          const Rational b = t.b < 0 ? Roll(e, t.a) : Value(e, t.b);
          pairs.push_back({a, b, PickValue(t, a, b, [&](int id) { return Value(e, id); })});
        }
      }
      for (size_t i = 0; i < pairs.size(); ++i) {
        const auto& [a, b, pick] = pairs[i];
        if (a == b) {
          ++verdict.exact;
          continue;
        }
        ++verdict.inexact;
        const double gap = std::abs((a - b).convert_to<double>());
        verdict.largest_gap = std::max(verdict.largest_gap, gap);
        JudgePick(a, b, pick, &verdict);
        const bool seen = std::any_of(verdict.examples.begin(), verdict.examples.end(),
                                      [&](const auto& e) {  // the same two options, in either order
                                        return std::minmax(e.first.a, e.first.b) ==
                                               std::minmax(near_[i].a, near_[i].b);
                                      });
        if (!seen && verdict.examples.size() < CertificationReport::kInexactExamples) {
          verdict.examples.emplace_back(near_[i], gap);
        }
      }
      it = verdicts_.emplace(key_, verdict).first;
    }
    report.exact_ties += it->second.exact;
    report.inexact_ties += it->second.inexact;
    report.largest_inexact_gap = std::max(report.largest_inexact_gap, it->second.largest_gap);
    report.inexact_undecided += it->second.undecided;
    report.inexact_pick_best += it->second.pick_best;
    report.inexact_pick_worse += it->second.pick_worse;
    report.largest_pick_loss = std::max(report.largest_pick_loss, it->second.largest_loss);
    for (const auto& [tie, gap] : it->second.examples) {
      if (report.inexact_examples.size() >= CertificationReport::kInexactExamples) break;
      CertificationReport::InexactTie e;
      e.scores = scores_;
      e.seat = seat_;
      e.a = PositionText(tie.a);
      e.b = tie.b < 0 ? "stop" : PositionText(tie.b);
      if (tie.b < 0) e.a += " roll";
      e.gap = gap;
      for (int x = 0; x <= max_turn_; ++x)
        e.utility.push_back(ExactUtility(x).convert_to<double>());
      AddExample(std::move(e), &report);
    }
  }

  // The exact value of the convention's pick at tie `t` whose options are
  // worth `a` and `b` (value(id): a position's exact value).
  template <class ValueOf>
  static Rational PickValue(const NearTie& t, const Rational& a, const Rational& b, ValueOf value) {
    if (t.pick == kPickStop || t.pick == t.a) return a;
    if (t.pick == t.b) return b;
    return value(t.pick);
  }

  // What the stored values prove of an inexact tie's pick: the true values
  // are within the bound of these exact ones, so an order by more than the
  // margin threshold is the truth's.
  void JudgePick(const Rational& a, const Rational& b, const Rational& pick,
                 Verdict* verdict) const {
    const Rational& larger = a > b ? a : b;  // the pick may be a third option
    const Rational& best = larger > pick ? larger : pick;
    const double loss = (best - pick).convert_to<double>();
    const Rational& other = pick == a ? b : a;
    if (loss > threshold_) {
      ++verdict->pick_worse;
      verdict->largest_loss = std::max(verdict->largest_loss, loss);
    } else if (loss == 0 && (pick - other).convert_to<double>() > threshold_) {
      ++verdict->pick_best;
    } else {
      ++verdict->undecided;
    }
  }

  // A position as text: what is set aside and the dice left.
  std::string PositionText(int id) const {
    const CanonState& s = model_.state(id);
    return absl::StrFormat("tanks %d rays %d earthlings %d,%d,%d left %d (score %d)", s.tanks,
                           s.rays, s.earth[0], s.earth[1], s.earth[2], s.left, s.score);
  }

  // The subtree solve, memoised for one verification (stamp_): a position's
  // exact value under optimal play (max of stop and roll; the roll alone at
  // the start, the stop alone with no dice left).
  const Rational& ExactValue(int id) {
    if (stamp_value_[id] == stamp_) return memo_value_[id];
    const CanonState& s = model_.state(id);
    Rational v = exact_u_[s.score];
    if (s.left > 0) {
      const Rational& roll = ExactRoll(id);
      if (id == start_ || roll > v) v = roll;
    }
    stamp_value_[id] = stamp_;
    return memo_value_[id] = v;
  }

  // The roll's exact value: each (tanks, rays, q) split's multinomial weight
  // (over 6^left) times its law.
  const Rational& ExactRoll(int id) {
    if (stamp_roll_[id] == stamp_) return memo_roll_[id];
    const auto terms = model_.Terms(id);
    const auto weights = model_.ExactTerms(id);
    Rational sum = 0;
    for (size_t i = 0; i < terms.size(); ++i) sum += ExactLaw(terms[i].law) * weights[i].weight;
    BigInt den = 1;
    for (int i = model_.state(id).left; i > 0; --i) den *= 6;
    stamp_roll_[id] = stamp_;
    return memo_roll_[id] = sum / den;
  }

  // A law's exact sum over its classes (class counts, not divided by 3^q:
  // the term weights hold the rest): each class's best option.
  const Rational& ExactLaw(int law) {
    if (stamp_law_[law] == stamp_) return memo_law_[law];
    const int group = law_group_[law];
    const CanonState& g = model_.state(group);
    const int q = law - model_.LawIndex(group, 0);
    const int ray_child = model_.RayChild(group, q);
    Rational sum = 0, best;
    for (const EarthClass& cls : model_.Classes(g.untaken, q)) {
      // Rays if shown, a take of each count present; else the turn is over.
      bool have = false;
      auto consider = [&](const Rational& v) {
        if (!have || v > best) best = v;
        have = true;
      };
      if (ray_child >= 0) consider(ExactValue(ray_child));
      for (int x = 1; x < 32 && cls.present >> x != 0; ++x) {
        if (cls.present & (1u << x)) consider(ExactValue(model_.EarthChild(group, x)));
      }
      if (!have) best = exact_u_[g.score];
      sum += best * cls.weight;
    }
    stamp_law_[law] = stamp_;
    return memo_law_[law] = sum;
  }

  Rational Stop(const internal::ExactTurnValues& e, int id) const {
    return Rational(e.utility[model_.state(id).score], e.denominator);
  }
  Rational Roll(const internal::ExactTurnValues& e, int id) const {
    BigInt den = e.denominator;
    for (int i = TurnModel::DenominatorExponent(model_.state(id).left); i > 0; --i) den *= 6;
    return Rational(e.roll[id], den);
  }
  Rational Value(const internal::ExactTurnValues& e, int id) const {
    Rational stop = Stop(e, id);
    if (model_.state(id).left == 0) return stop;
    Rational roll = Roll(e, id);
    return id == start_ || roll > stop ? roll : stop;
  }

  const GameValues& v_;
  const internal::ContextNumbering& index_;
  const TurnModel& model_;
  Bounds& bounds_;
  const int n_, w_, max_turn_, start_, local_max_left_;
  std::vector<int> scores_;
  int seat_ = 0;  // the context's mover
  // Records of w_ numbers: the mover's value, then the other seats' chances,
  // then the error lanes (kZeroLane, kDepsLane after the n_ chances).
  std::vector<double> node_, roll_, laws_, stop_;
  // The highest utility rank each position's (roll's, law's) outcomes can
  // reach under any play.
  std::vector<int> node_hi_, roll_hi_, law_hi_;
  std::vector<double> value_;  // the mover's max(stop, roll) per position
  std::vector<int> split_, rank_, order_;
  // The exact value's rank when the utilities' order alone fixes it, else -1.
  std::vector<int> node_known_, roll_known_, law_known_;
  std::string key_;  // the mover's exact utility, as bytes
  std::vector<NearTie> near_;
  bool context_kingmaking_ = false;
  bool mixed_ = false;  // the context's stored vector is a mixture
  // MixtureGap's ranges, by position and by roll law (sized at the first
  // mixed context).
  std::vector<double> range_lo_, range_hi_, range_law_lo_, range_law_hi_;
  const std::vector<int> floor_, ceiling_;
  // value_threshold (the table's bound): mixing decisions and inexact ties'
  // picks are judged against it.
  const double threshold_;
  // std's map, not absl's: absl's (20220623) is left broken by an allocation
  // that fails while it grows, and its destructor then frees a bad pointer;
  // std's keeps its state, so running out of memory is an error, not a crash.
  std::unordered_map<std::string, Verdict> verdicts_;
  // The subtree solve's state: utilities, memo and its validity stamps.
  std::vector<Rational> exact_u_;
  std::vector<int> law_group_;  // per law: its group (position after the tanks)
  std::vector<Rational> memo_value_, memo_roll_, memo_law_;
  std::vector<unsigned> stamp_value_, stamp_roll_, stamp_law_;
  unsigned stamp_ = 0;
};

absl::Status Validate(const GameValues& values, int threads) {
  // (threads: CertifyOptions::threads)
  if (absl::Status s = ValidateRules(values.rules); !s.ok()) return s;
  if (values.players < kMinPlayers || values.players > kMaxPlayers) {
    return absl::InvalidArgumentError(absl::StrFormat("players must be %d..%d, got %d", kMinPlayers,
                                                      kMaxPlayers, values.players));
  }
  if (threads < 1) {
    return absl::InvalidArgumentError(
        absl::StrFormat("threads must be at least 1, got %d", threads));
  }
  const internal::ContextNumbering index(values.rules, values.players);
  const auto expected = static_cast<unsigned long long>(index.size()) * values.players;
  if (values.win.size() != expected) {
    return absl::InvalidArgumentError(
        absl::StrFormat("game values hold %d numbers, expected %d (%d contexts x %d players)",
                        values.win.size(), expected, index.size(), values.players));
  }
  for (size_t i = 0; i < values.win.size(); ++i) {
    if (!std::isfinite(values.win[i])) {
      return absl::InvalidArgumentError(
          absl::StrFormat("game value %d (context %d, seat %d) is not a number", i,
                          i / values.players, i % values.players));
    }
  }
  if (std::isnan(values.error_bound) || values.error_bound < 0) {
    return absl::InvalidArgumentError(
        absl::StrFormat("error bound must be a non-negative number, got %g", values.error_bound));
  }
  return absl::OkStatus();
}

// The contexts by decreasing score sum: level k is order[starts[k] ..
// starts[k + 1]). A turn that scores leads to a higher sum; one that scores 0
// to the next seat at the same totals (the same level).
struct Levels {
  std::vector<long long> order;
  std::vector<long long> starts;
};

Levels ByDecreasingSum(const internal::ContextNumbering& index) {
  const long long contexts = index.size();
  std::vector<int> sum(contexts);
  int scores[kMaxPlayers];
  int top = 0;
  for (long long c = 0; c < contexts; ++c) {
    index.Decode(c, scores);
    sum[c] = std::accumulate(scores, scores + index.players(), 0);
    top = std::max(top, sum[c]);
  }
  Levels levels;
  levels.starts.assign(top + 2, 0);
  for (long long c = 0; c < contexts; ++c) ++levels.starts[top - sum[c] + 1];
  for (int k = 1; k <= top + 1; ++k) levels.starts[k] += levels.starts[k - 1];
  levels.order.resize(contexts);
  std::vector<long long> at(levels.starts.begin(), levels.starts.end() - 1);
  for (long long c = 0; c < contexts; ++c) levels.order[at[top - sum[c]]++] = c;
  return levels;
}

// Every checked context's derived error at one level, once its steps are in:
// e_c <= step_c + zero_c e_c' (c': the next seat's context at the same
// totals), walked around the zero-score cycle: the steps' sum weighted by the
// chances of getting there, over 1 - the cycle's chance (where it closes).
void CloseLevel(const internal::ContextNumbering& index, std::span<const long long> level,
                Bounds* b) {
  const int n = index.players();
  int scores[kMaxPlayers];
  for (const long long c : level) {
    if (b->step[c] == kNotChecked) continue;
    double sum = 0, chance = 1;
    long long at = c;
    for (int k = 0; k < n; ++k) {
      sum += chance * b->step[at] * (1 + kLaneRelative);  // NaN (not derivable) stays NaN
      if (b->zero[at] == 0) break;  // an exact 0: no turn at these totals follows
      chance *= std::min(1.0, b->zero[at] * (1 + kLaneRelative) + kLaneAbsolute);
      const int seat = index.Decode(at, scores);
      at = index.Index((seat + 1) % n, scores);
      if (at == c) {
        sum = chance < 1 ? sum / (1 - chance) : HUGE_VAL;
        break;
      }
    }
    b->error[c] = sum;
  }
}

// The largest derived error of a checked context; NaN if one is not derived.
double DerivedBound(const Bounds& b) {
  double bound = 0;
  for (size_t c = 0; c < b.error.size(); ++c) {
    if (b.step[c] == kNotChecked) continue;
    if (std::isnan(b.error[c])) return NAN;
    bound = std::max(bound, b.error[c]);
  }
  return bound;
}

// The rational re-solves, one per distinct utility: the same whatever the
// threads and their schedule (a utility met by two workers is solved twice).
void CountExactSolves(const std::vector<std::unique_ptr<ContextCertifier>>& certifiers,
                      CertificationReport* report) {
  std::unordered_map<std::string_view, bool> partial;
  for (const std::unique_ptr<ContextCertifier>& c : certifiers) {
    if (c == nullptr) continue;
    for (const auto& [key, verdict] : c->verdicts()) partial.emplace(key, verdict.partial);
  }
  for (const auto& [key, subtrees] : partial) {
    ++(subtrees ? report->partial_exact_solves : report->exact_solves);
  }
}

void Merge(const CertificationReport& r, CertificationReport* all) {
  all->contexts += r.contexts;
  all->decisions += r.decisions;
  all->smallest_margin = std::min(all->smallest_margin, r.smallest_margin);
  all->ties += r.ties;
  all->symmetric_ties += r.symmetric_ties;
  all->exact_ties += r.exact_ties;
  all->inexact_ties += r.inexact_ties;
  all->largest_inexact_gap = std::max(all->largest_inexact_gap, r.largest_inexact_gap);
  all->inexact_undecided += r.inexact_undecided;
  all->inexact_pick_best += r.inexact_pick_best;
  all->inexact_pick_worse += r.inexact_pick_worse;
  all->largest_pick_loss = std::max(all->largest_pick_loss, r.largest_pick_loss);
  all->structural_ties += r.structural_ties;
  all->kingmaking_ties += r.kingmaking_ties;
  all->kingmaking_contexts += r.kingmaking_contexts;
  all->largest_value_gap = std::max(all->largest_value_gap, r.largest_value_gap);
  all->mixed_contexts += r.mixed_contexts;
  all->mixing_decisions += r.mixing_decisions;
  for (const CertificationReport::InexactTie& e : r.inexact_examples) AddExample(e, all);
}

}  // namespace

namespace {

absl::StatusOr<CertificationReport> CertifyInMemory(const GameValues& values,
                                                    const CertifyOptions& options);

absl::Status OutOfMemory() {
  return absl::ResourceExhaustedError(
      "out of memory while certifying: the system refused an allocation; free memory or use "
      "fewer threads (--threads)");
}

}  // namespace

absl::StatusOr<CertificationReport> CertifyGameValues(const GameValues& values,
                                                      const CertifyOptions& options) {
  try {
    return CertifyInMemory(values, options);
  } catch (const std::bad_alloc&) {  // the calling thread's (each worker catches its own)
    return OutOfMemory();
  }
}

namespace {

// CertifyGameValues's work; std::bad_alloc from the calling thread escapes.
absl::StatusOr<CertificationReport> CertifyInMemory(const GameValues& values,
                                                    const CertifyOptions& options) {
  const int threads = options.threads;
  if (absl::Status s = Validate(values, threads); !s.ok()) return s;
  for (const std::vector<int>* box : {&options.floor, &options.ceiling}) {
    if (!box->empty() && static_cast<int>(box->size()) != values.players) {
      return absl::InvalidArgumentError(
          absl::StrFormat("a floor or ceiling needs one total per seat (%d, got %d)",
                          values.players, static_cast<int>(box->size())));
    }
  }
  const auto begin = std::chrono::steady_clock::now();
  const internal::ContextNumbering index(values.rules, values.players);
  const std::shared_ptr<const TurnModel> model = TurnModel::Get(values.rules);
  const long long contexts = index.size();
  Bounds bounds;
  bounds.error.assign(contexts, NAN);
  bounds.step.assign(contexts, kNotChecked);
  bounds.zero.assign(contexts, 0.0);
  const Levels levels = ByDecreasingSum(index);
  WorkerPool pool(threads);
  std::vector<std::unique_ptr<ContextCertifier>> certifiers(threads);
  std::atomic<long long> done{0};  // contexts certified, for the progress
  for (size_t level = 0; level + 1 < levels.starts.size(); ++level) {
    const long long first = levels.starts[level], end = levels.starts[level + 1];
    std::atomic<long long> next{first};
    // Chunks of at most 64, at least 8 a thread where the level has that many.
    const long long chunk = std::clamp<long long>((end - first) / (8LL * threads), 1, 64);
    // Worker 0 is the calling thread: it alone reports the progress.
    auto work = [&](int thread) {
      std::unique_ptr<ContextCertifier>& certifier = certifiers[thread];
      if (certifier == nullptr) {
        certifier =
            std::make_unique<ContextCertifier>(values, index, *model, options.local_exact_max_left,
                                               options.floor, options.ceiling, bounds);
      }
      for (long long c = next.fetch_add(chunk); c < end; c = next.fetch_add(chunk)) {
        if (options.stop != nullptr && options.stop->load(std::memory_order_relaxed)) break;
        const long long last = std::min(end, c + chunk);
        for (long long i = c; i < last; ++i) certifier->Certify(levels.order[i]);
        const long long finished = done.fetch_add(last - c) + (last - c);
        if (thread == 0 && options.progress) {
          options.progress(static_cast<double>(finished) / contexts);
        }
      }
    };
    // A worker's std::bad_alloc is rethrown here (CertifyGameValues: OutOfMemory).
    if (absl::Status s = pool.Run(threads, work); !s.ok()) return s;
    if (options.stop != nullptr && options.stop->load()) {
      return absl::CancelledError("certification interrupted");
    }
    CloseLevel(index, std::span(levels.order).subspan(first, end - first), &bounds);
  }
  if (options.progress) options.progress(1.0);
  CertificationReport report;
  report.smallest_margin = HUGE_VAL;
  for (const std::unique_ptr<ContextCertifier>& c : certifiers) {
    if (c != nullptr) Merge(c->report, &report);
  }
  CountExactSolves(certifiers, &report);
  report.tie_tolerance = kTie;
  report.error_bound = values.error_bound;
  report.derived_bound = DerivedBound(bounds);
  report.margin_threshold = MarginThreshold(
      std::isnan(report.derived_bound) ? values.error_bound
                                       : std::max(values.error_bound, report.derived_bound));
  report.value_threshold = MarginThreshold(values.error_bound);
  report.certified = report.smallest_margin > report.margin_threshold && report.inexact_ties == 0 &&
                     report.largest_value_gap <= report.value_threshold &&
                     (values.players > 3 || report.mixed_contexts == 0);
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  return report;
}

}  // namespace

BestAndSecondOptions BestAndSecond(const std::vector<double>& values, const int* options,
                                   int count) {
  int best = 0;
  for (int i = 1; i < count; ++i) {
    if (values[options[i]] > values[options[best]]) best = i;
  }
  // The next best distinct position: options reaching the best's position
  // (two earthling faces of equal count) are the same choice, not a second one.
  int second = -1;
  for (const bool distinct : {true, false}) {
    for (int i = 0; i < count; ++i) {
      if (i == best || (distinct && options[i] == options[best])) continue;
      if (second < 0 || values[options[i]] > values[options[second]]) second = i;
    }
    if (second >= 0) break;
  }
  return {best, second};
}

absl::StatusOr<CertificationReport> CertifyTable(const GameTable& table,
                                                 const CertifyOptions& options) try {
  GameValues values;
  values.rules = table.rules();
  values.players = table.players();
  values.error_bound = table.error_bound();
  values.win.reserve(static_cast<size_t>(table.context_count()) * values.players);
  for (std::int64_t c = 0; c < table.context_count(); ++c) {
    absl::StatusOr<GameTable::ContextRecord> record = table.Context(c);
    if (!record.ok()) return record.status();
    values.win.insert(values.win.end(), record->win_probabilities.begin(),
                      record->win_probabilities.end());
  }
  return CertifyGameValues(values, options);
} catch (const std::bad_alloc&) {  // the copy of the table's values
  return OutOfMemory();
}

}  // namespace martiandice::solver
