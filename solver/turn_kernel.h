// The GPU turn solve's logic, one source for the device and the host: the
// convention solve (src/convention_turn.cpp) of one turn as a block of
// threads runs it, one work unit at a time. Per level of the turn (dice
// left, 0 first) two phases, each a set of independent units split over the
// block's threads: one lane (of the W numbers of a record) of each of the
// level's outcome laws (LawLane), then of each of its positions
// (PositionLane); a barrier after each. Then one warp replays the narrowing
// of the range of utility[0] (RangeReplay), where one is kept. The CUDA kernel
// (cuda_turn_batch.cu) and the host emulation of its schedule
// (kernel_batch.cpp, the CPU tests') call these very functions.
//
// Every item does the CPU solve's operations on the same numbers in the same
// order (each sum's terms, the roll sum's four partial sums, every
// comparison), compiled without fused multiply-adds (nvcc --fmad=false), so a
// GPU solve's values and tie counts equal the CPU's bit for bit: tables made
// on either are the same bytes. Internal to the solver.
#pragma once

#include <cstdint>
#include <type_traits>

#include "wide.h"

#if defined(__CUDACC__)
#define MD_HD __host__ __device__
#else
#define MD_HD
#endif

namespace martiandice::solver::kernel {

// The extended solves' numbers (x87's rounding, in integer arithmetic).
using Soft = internal::SoftX87;

// The tie distance of the convention (internal::kConventionTie, checked
// equal in kernel_batch.cpp; this header includes nothing of the library's).
inline constexpr double kTie = 1e-12;
// The range of utility[0] (internal::ConventionPolicy): kRangeCap,
// kRangeSlack, kRoundingSlope, checked equal likewise.
inline constexpr double kRangeCap = 1.0 / 64;
inline constexpr double kRangeSlack = 1e-13;
inline constexpr double kRoundingSlope = 1e-15;
// Widest record: the mover's value and internal::kMaxCarried carried ones.
inline constexpr int kMaxWidth = 9;

// One outcome class of q earthling dice (internal::EarthClass).
struct Class {
  double weight = 0;
  std::uint8_t takes = 0;
  std::uint8_t take[3] = {0, 0, 0};
};

// One (tanks, rays, other) split of a roll (internal::RollTerm).
struct Term {
  double weight = 0;
  std::int32_t law = 0;
};

// One outcome law (group, q): the position after the tanks and the q other
// dice; its classes are classes[class_begin, class_end).
struct Law {
  std::int32_t index = 0;  // TurnModel::LawIndex(group, q)
  std::int32_t group = 0;
  std::int32_t ray_child = -1;   // position after taking the rays; -1: none shown
  std::int32_t class_begin = 0;  // into ModelView::classes
  std::int32_t class_end = 0;
  std::int32_t pick_begin = 0;  // TurnModel::LawClassBegin(index): the policy's bytes
  std::uint8_t q = 0;
  std::uint8_t untaken = 0;  // earthling types not taken at the group, at most 3
  std::uint8_t score = 0;    // the group's turn score
};

// One decision among a class's options: class `cls` of law item `law`
// (ModelView::law_items); a level's in the CPU's order of visits.
struct ChoiceItem {
  std::int32_t law = 0;
  std::int32_t cls = 0;
};

// The turn model, flattened (host or device pointers alike).
struct ModelView {
  int positions = 0;
  int laws = 0;
  int dice = 0;
  int start = 0;                    // the turn's first position
  const std::int32_t* level_begin;  // [dice + 2]: level L's positions and laws
  const std::int32_t* level_ids;    // positions by level
  const std::int32_t* law_begin;    // [dice + 2]: level L's laws in `law_items`
  const Law* law_items;             // laws by level of their group
  const std::uint8_t* score;        // per position
  const std::int32_t* term_begin;   // per position, plus the end
  const Term* terms;
  const Soft* term_wide;  // per term: its weight as extended solves take it
                          // (TurnModel::WideWeights, exactly)
  const Class* classes;
  const std::int32_t* earth_child;   // [group * (dice + 1) + x]
  const std::int32_t* choice_begin;  // [dice + 2]: level L's in `choices`
  const ChoiceItem* choices;         // the classes with a choice, by level
};

// One turn to solve: the final scores' records (stop[s * W + k]: k = 0 the
// mover's utility of score s, k >= 1 carried utility k - 1's) and the
// carried lanes whose ties count as kingmaking (bit k - 1: lane k). Real:
// double (the solve's double arithmetic) or Soft (its extended one; no
// policy, no range).
template <class Real>
struct JobViewOf {
  const Real* stop;
  unsigned watched = 0;
  std::uint8_t* rolls = nullptr;  // per position, or null: no policy recorded
  std::uint8_t* picks = nullptr;  // per outcome class (TurnModel::LawClassBegin numbering)
  // With a range of utility[0] kept: its lane in the records (1 + the
  // policy's zero_lane), and where every position's roll record goes (for
  // RangeReplay); 0 and null without.
  int range_lane = 0;
  double* roll_records = nullptr;
};
using JobView = JobViewOf<double>;

// What one thread counted (summed over the block at the end).
struct Tally {
  long long tied = 0;
  long long kingmaking = 0;
};

// A tied action that a watched carried lane tells apart (kingmaking).
template <class Real, int W>
MD_HD inline bool TellsApart(unsigned watched, const Real* chosen, const Real* other) {
  for (int k = 1; k < W; ++k) {
    if ((watched >> (k - 1) & 1u) == 0) continue;
    const double gap = static_cast<double>(chosen[k] - other[k]);
    if ((gap < 0 ? -gap : gap) > kTie) return true;
  }
  return false;
}

// Phase 1 of a level, one work unit: lane k (0..W-1) of outcome law `law`
// of the solve whose position records are `node` (stride W): the weighted
// sum over its classes of the chosen action's lane k, into
// laws[law.index * W + k]. Each lane's unit makes the same choices (they
// read lane 0 only); the convention picks the rays, then more dice, among
// the actions tied with the best. Lane 0's unit also counts the ties and
// records the picks.
template <class Real, int W>
MD_HD inline void LawLane(const ModelView& m, const JobViewOf<Real>& job, const Law& law, int k,
                          const Real* node, Real* laws, Tally* tally) {
  const int J = law.untaken;
  const std::int32_t* const child = m.earth_child + law.group * (m.dice + 1);
  const Real* rays = law.ray_child >= 0 ? node + law.ray_child * W : nullptr;
  // Soft has no infinity: -HUGE_VAL becomes a finite number below every value.
  const Real rv = rays != nullptr ? rays[0] : Real(-__builtin_huge_val());
  // Without rays and without an earthling to take, the turn is over.
  const Real* none = rays != nullptr ? rays : job.stop + law.score * W;
  const Class* cls = m.classes + law.class_begin;
  const Class* const end = m.classes + law.class_end;
  const bool first = k == 0;
  std::uint8_t* pick = first && job.picks != nullptr ? job.picks + law.pick_begin : nullptr;
  Real sum;
  // No untaken type shown (classes sorted by mask: it comes first).
  if (J < 3 || law.q == 0) {
    sum = Real(cls->weight) * none[k];
    if (pick != nullptr) *pick++ = 0;
    ++cls;
  } else {
    sum = Real(0.0);
  }
  for (; J > 0 && cls != end; ++cls) {
    const int a = cls->take[0], b = J >= 2 ? cls->take[1] : a, c = J >= 3 ? cls->take[2] : b;
    const Real* ta = node + child[a] * W;
    const Real* tb = node + child[b] * W;
    const Real* tc = node + child[c] * W;
    const Real va = ta[0], vb = tb[0], vc = tc[0];
    Real best = rv < va ? va : rv;  // std::max(rv, va)
    if (J >= 2) best = best < vb ? vb : best;
    if (J >= 3) best = best < vc ? vc : best;
    const Real bar = best - Real(kTie);
    const bool rays_tied = rv >= bar;
    int x = a;
    const Real* tx = ta;
    if (J >= 2 && vb >= bar) x = b, tx = tb;
    if (J >= 3 && vc >= bar) x = c, tx = tc;
    const Real* chosen = rays_tied ? rays : tx;
    if (first) {
      if (pick != nullptr) *pick++ = static_cast<std::uint8_t>(rays_tied ? 0 : x);
      int tied = rays_tied + (va >= bar);
      if (J >= 2) tied += cls->takes >= 2 && vb >= bar;
      if (J >= 3) tied += cls->takes >= 3 && vc >= bar;
      if (tied > 1) {
        ++tally->tied;
        bool kingmaking = false;  // the rays, when tied, are the choice
        for (int i = 0; i < cls->takes; ++i) {
          const Real* t = node + child[cls->take[i]] * W;
          if (t != chosen && t[0] >= bar) {
            kingmaking = kingmaking || TellsApart<Real, W>(job.watched, chosen, t);
          }
        }
        tally->kingmaking += kingmaking;
      }
    }
    sum += Real(cls->weight) * chosen[k];
  }
  laws[static_cast<long long>(law.index) * W + k] = sum;
}

// The roll's lane k at position `id`: the terms' weighted law records; in
// double in four interleaved partial sums as internal::RollSum adds them, in
// Soft in one chain with the extended weights, as the CPU's extended solve.
template <class Real, int W>
MD_HD inline Real RollLane(const ModelView& m, int id, int k, const Real* laws) {
  const Term* const terms = m.terms + m.term_begin[id];
  const int n = m.term_begin[id + 1] - m.term_begin[id];
  if constexpr (std::is_same_v<Real, Soft>) {
    const Soft* const weights = m.term_wide + m.term_begin[id];
    Soft roll = Soft(0.0);
    for (int i = 0; i < n; ++i) {
      roll += weights[i] * laws[static_cast<long long>(terms[i].law) * W + k];
    }
    return roll;
  } else {
    double part[4] = {0.0, 0.0, 0.0, 0.0};
    int i = 0;
    for (; i + 4 <= n; i += 4) {
      for (int j = 0; j < 4; ++j) {
        part[j] += terms[i + j].weight * laws[static_cast<long long>(terms[i + j].law) * W + k];
      }
    }
    for (; i < n; ++i)
      part[0] += terms[i].weight * laws[static_cast<long long>(terms[i].law) * W + k];
    return (part[0] + part[1]) + (part[2] + part[3]);
  }
}

// Phase 2 of a level, one work unit: lane k of position `id`'s record, the
// roll's or the stop's by the convention (stop when tied, never before the
// first roll); every lane's unit sums lane 0 too, to choose alike. Lane 0's
// unit counts the tie (reading the roll's other lanes then) and records
// the choice.
template <class Real, int W>
MD_HD inline void PositionLane(const ModelView& m, const JobViewOf<Real>& job, int id, int k,
                               int level, Real* node, const Real* laws, Tally* tally) {
  const Real* const stop = job.stop + m.score[id] * W;
  if (level == 0) {
    node[id * W + k] = stop[k];
    if (k == 0 && job.rolls != nullptr) job.rolls[id] = 0;
    return;
  }
  const Real roll0 = RollLane<Real, W>(m, id, 0, laws);
  const Real roll = k == 0 ? roll0 : RollLane<Real, W>(m, id, k, laws);
  if constexpr (std::is_same_v<Real, double>) {
    if (job.roll_records != nullptr) job.roll_records[id * W + k] = roll;
  }
  const bool rolls = id == m.start || roll0 > stop[0] + Real(kTie);
  node[id * W + k] = rolls ? roll : stop[k];
  if (k != 0) return;
  if (job.rolls != nullptr) job.rolls[id] = rolls;
  const Real chosen0 = rolls ? roll0 : stop[0], other0 = rolls ? stop[0] : roll0;
  if (id != m.start && other0 >= chosen0 - Real(kTie)) {
    ++tally->tied;
    Real record[W];  // the roll's, whole: rare
    for (int lane = 0; lane < W; ++lane) record[lane] = RollLane<Real, W>(m, id, lane, laws);
    tally->kingmaking += rolls ? TellsApart<Real, W>(job.watched, record, stop)
                               : TellsApart<Real, W>(job.watched, stop, record);
  }
}

// The state of a range of utility[0] (ConventionSolver's tracking_, below_,
// above_, widen_): kept, narrowed, or closed (no range).
struct RangeState {
  bool tracking = true;
  double below = kRangeCap, above = kRangeCap;
  double widen = kRangeSlack + kRangeCap;  // how far below the tie bar an option still matters
};

MD_HD inline bool operator==(const RangeState& a, const RangeState& b) {
  return a.tracking == b.tracking && a.below == b.below && a.above == b.above && a.widen == b.widen;
}

// What a host replay did (the emulation's counts; the device keeps none).
struct ReplayCount {
  long long items = 0;   // items scanned: every one the replay passed
  long long visits = 0;  // items visited: the marked ones among them
};

// The range of utility[0] over which a solve's actions and tie counts stand
// (internal::ConventionPolicy::below/above). The CPU narrows it option pair
// by option pair as it visits them, each step's rounding depending on the
// last, so it is not a sum of independent parts. Once every record is
// final, one warp replays the CPU's visits in the CPU's order (levels up;
// each level's choices, then its positions), as ConventionSolver's
// ChooseTake, KeepNear, KeepPair and KeepSign do them: most visits change
// nothing, so each lane visits one of the next 32 items on a copy of the
// state, the first item that changes it (in the CPU's order) is applied,
// and the scan goes on after it. The items before it changed nothing, as
// they would have in turn: the result is the sequential one, bit for bit.
//
// Before the replay the whole block marks the items that could change any
// state the replay reaches (Mark, one unit per item), and the warp visits
// only those. The states only shrink: tracking ends and never resumes, and
// below, above and widen fall, except that a narrowing's rounding may lift
// below or above by 2 ulps at most, under 1e-9 relative over a solve's
// narrowings (fewer than 10^6). Every test of a visit is monotone in them
// (an option is near, a roll near its stop, a sign kept, for a smaller
// widen, below or above only if for a larger), so an item that leaves
// Widest() unchanged (the cap plus 2^-20 relative) changes no state of the
// replay and may be skipped.
template <int W>
class RangeReplay {
 public:
  // `marks`: one byte per item, the choices' then the positions' (Items()),
  // set by Mark before Run reads them.
  MD_HD RangeReplay(const ModelView& m, const JobView& job, const double* node, std::uint8_t* marks)
      : m_(m),
        job_(job),
        node_(node),
        marks_(marks),
        choices_(m.choice_begin[m.dice + 1]),
        lane_(job.range_lane) {}

  // The items: every choice, then every position.
  MD_HD static int Items(const ModelView& m) { return m.choice_begin[m.dice + 1] + m.positions; }

  // One unit of the marking phase: item `i` (0..Items() - 1) marked if it
  // changes the widest state. The positions without dice left (level 0,
  // never replayed: they have no roll record) are not.
  MD_HD void Mark(int i) const {
    const RangeState widest = Widest();
    RangeState st = widest;
    if (i < choices_) {
      Choice(m_.choices[i], st);
    } else if (i - choices_ >= m_.level_begin[1]) {
      Position(i - choices_, st);
    }
    marks_[i] = !(st == widest);
  }

  // `lane`: this thread's in the warp (0..31; on the host one call, lane 0,
  // visits the items of its lanes one after another). Every lane ends with
  // the same range.
  // With `count` (host only), adds what the replay scanned and visited.
  MD_HD void Run(int lane, double* below, double* above, ReplayCount* count = nullptr) {
    count_ = count;
    for (int level = 1; level <= m_.dice && state_.tracking; ++level) {
      Scan(lane, m_.choice_begin[level], m_.choice_begin[level + 1], /*positions=*/false);
      Scan(lane, m_.level_begin[level], m_.level_begin[level + 1], /*positions=*/true);
    }
    *below = state_.tracking ? state_.below : 0.0;
    *above = state_.tracking ? state_.above : 0.0;
  }

 private:
  // Wider than every state of a replay (see above): the cap plus 2^-20 relative.
  MD_HD static RangeState Widest() {
    RangeState st;
    st.below = st.above = kRangeCap + kRangeCap / (1 << 20);
    st.widen = kRangeSlack + st.below;
    return st;
  }

  // Item `i` (of the choices, or of the positions by level: level_ids) is marked.
  MD_HD bool Marked(int i, bool positions) const {
    return marks_[positions ? choices_ + i : i] != 0;
  }

  MD_HD void Visit(int i, bool positions, RangeState& st) const {
    if (positions) {
      Position(i, st);
    } else {
      Choice(m_.choices[i], st);
    }
  }

  // Items [begin, end) of one kind, in order; only the marked ones visited.
  MD_HD void Scan(int lane, int begin, int end, bool positions) {
    for (int next = begin; next < end && state_.tracking;) {
#if defined(__CUDA_ARCH__)
      const bool marked = next + lane < end && Marked(next + lane, positions);
      if (__ballot_sync(0xffffffffu, marked) == 0) {
        next += 32;
        continue;
      }
      RangeState trial = state_;
      if (marked) Visit(next + lane, positions, trial);
      const unsigned mask = __ballot_sync(0xffffffffu, !(trial == state_));
      if (mask == 0) {
        next += 32;
        continue;
      }
      const int first = __ffs(mask) - 1;
      state_.tracking = __shfl_sync(0xffffffffu, trial.tracking, first);
      state_.below = __shfl_sync(0xffffffffu, trial.below, first);
      state_.above = __shfl_sync(0xffffffffu, trial.above, first);
      state_.widen = __shfl_sync(0xffffffffu, trial.widen, first);
      next += first + 1;
#else
      (void)lane;
      int first = -1;
      RangeState found;
      for (int k = 0; k < 32 && next + k < end && first < 0; ++k) {
        if (count_ != nullptr) ++count_->items;
        if (!Marked(next + k, positions)) continue;
        if (count_ != nullptr) ++count_->visits;
        RangeState trial = state_;
        Visit(next + k, positions, trial);
        if (!(trial == state_)) first = k, found = trial;
      }
      if (first < 0) {
        next += 32;
        continue;
      }
      state_ = found;
      next += first + 1;
#endif
    }
  }

  // StopOrRoll's: the roll and the stop, when near each other. `i`: the
  // position's place in level_ids.
  MD_HD void Position(int i, RangeState& st) const {
    const int id = m_.level_ids[i];
    if (id == m_.start) return;
    const double* roll = job_.roll_records + id * W;
    const double* stop = job_.stop + m_.score[id] * W;
    const double gap = roll[0] - stop[0];
    if ((gap < 0 ? -gap : gap) < kTie + st.widen) KeepPair(roll, stop, st);
  }

  // ChooseTake's: every pair of a class's options near its best (KeepNear).
  MD_HD void Choice(const ChoiceItem& item, RangeState& st) const {
    const Law& law = m_.law_items[item.law];
    const Class& cls = m_.classes[item.cls];
    const std::int32_t* const child = m_.earth_child + law.group * (m_.dice + 1);
    const int J = law.untaken;
    const double* rays = law.ray_child >= 0 ? node_ + law.ray_child * W : nullptr;
    const double rv = rays != nullptr ? rays[0] : -__builtin_huge_val();
    const int a = cls.take[0], b = J >= 2 ? cls.take[1] : a, c = J >= 3 ? cls.take[2] : b;
    const double va = node_[child[a] * W], vb = node_[child[b] * W], vc = node_[child[c] * W];
    double best = rv < va ? va : rv;
    if (J >= 2) best = best < vb ? vb : best;
    if (J >= 3) best = best < vc ? vc : best;
    const double near = (best - kTie) - st.widen;
    int n = (rv >= near) + (va >= near);
    if (J >= 2) n += cls.takes >= 2 && vb >= near;
    if (J >= 3) n += cls.takes >= 3 && vc >= near;
    if (n <= 1) return;
    const double* option[4];
    int k = 0;
    if (rv >= near) option[k++] = rays;
    for (int i = 0; i < cls.takes; ++i) {  // the class's takes, ascending
      const double* t = node_ + child[cls.take[i]] * W;
      if (t[0] >= near) option[k++] = t;
    }
    for (int i = 0; i < k; ++i) {
      for (int j = i + 1; j < k; ++j) KeepPair(option[i], option[j], st);
    }
  }

  MD_HD static double Abs(double x) { return x < 0 ? -x : x; }

  MD_HD static void Close(RangeState& st) {
    st.below = st.above = st.widen = 0;
    st.tracking = false;
  }
  MD_HD static void Narrowed(RangeState& st) {
    st.widen = kRangeSlack + (st.below < st.above ? st.above : st.below);
  }

  MD_HD static void KeepSign(double m, double s, RangeState& st) {
    const double a = Abs(m) - kRangeSlack;
    if (m < 0) s = -s;
    if (a <= 0) {
      Close(st);
    } else if (s > 0 && a < s * st.below) {
      st.below = a / s;
      Narrowed(st);
    } else if (s < 0 && a < -s * st.above) {
      st.above = a / -s;
      Narrowed(st);
    }
  }

  MD_HD bool KingmakingStands(const double* x, const double* y, double s) const {
    if (Abs(s) > kRoundingSlope) return false;
    for (int k = 1; k < W; ++k) {
      if ((job_.watched >> (k - 1) & 1u) == 0) continue;
      const double gap = Abs(x[k] - y[k]);
      if (Abs(gap - kTie) <= kRangeSlack) return false;
    }
    return true;
  }

  MD_HD void KeepPair(const double* x, const double* y, RangeState& st) const {
    if (!st.tracking) return;  // closed by an earlier pair of the same class
    const double d = x[0] - y[0];
    const double s = x[lane_] - y[lane_];
    if (s == 0) return;
    if (job_.watched != 0 && Abs(d) <= kTie && !KingmakingStands(x, y, s)) {
      Close(st);
      return;
    }
    KeepSign(d - kTie, s, st);
    KeepSign(d + kTie, s, st);
  }

  const ModelView& m_;
  const JobView& job_;
  const double* const node_;
  std::uint8_t* const marks_;
  const int choices_;  // the items before the positions
  const int lane_;
  RangeState state_;
  ReplayCount* count_ = nullptr;
};

}  // namespace martiandice::solver::kernel
