// Internal: canonical position index, roll terms and earthling classes, and the
// double and exact dynamic programs over them.
#include "turn_model.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <mutex>
#include <utility>

#include "martiandice/state_space.h"
#include "turn_lanes.h"

namespace martiandice::internal {
namespace {

// n! for n <= 20 (20! < 2^64).
constexpr std::array<std::uint64_t, kMaxDice + 1> kFactorial = [] {
  std::array<std::uint64_t, kMaxDice + 1> f{};
  f[0] = 1;
  for (int i = 1; i <= kMaxDice; ++i) f[i] = f[i - 1] * static_cast<std::uint64_t>(i);
  return f;
}();

// (sum of parts)! / (product of part!), parts summing to at most kMaxDice.
std::uint64_t Multinomial(std::initializer_list<int> parts) {
  int total = 0;
  std::uint64_t result = 1;
  for (int part : parts) {
    total += part;
    result *= kFactorial[part];
  }
  return kFactorial[total] / result;
}

std::uint64_t Power(std::uint64_t base, int exp) {
  std::uint64_t p = 1;
  for (int i = 0; i < exp; ++i) p *= base;
  return p;
}

}  // namespace

std::uint64_t EarthOutcomeWeight(int untaken, const int c[3], int q) {
  const int blanks = q - c[0] - c[1] - c[2];
  return Multinomial({c[0], c[1], c[2], blanks}) * Power(3 - untaken, blanks);
}

// ---------------------------------------------------------------- the model

std::shared_ptr<const TurnModel> TurnModel::Get(const Rules& rules) {
  using Key = std::pair<int, int>;  // the model depends on the dice and the bonus only
  static std::mutex mutex;
  static std::map<Key, std::weak_ptr<const TurnModel>> live;  // every model held anywhere
  static std::deque<std::shared_ptr<const TurnModel>> kept;   // the last asked, newest first
  std::lock_guard<std::mutex> lock(mutex);
  const Key key{rules.dice, rules.bonus};
  std::shared_ptr<const TurnModel> model;
  if (auto it = live.find(key); it != live.end()) model = it->second.lock();
  if (model == nullptr) {
    std::erase_if(live, [](const auto& entry) { return entry.second.expired(); });
    model = std::make_shared<const TurnModel>(rules);
    live[key] = model;
  }
  std::erase(kept, model);
  kept.push_front(model);
  if (kept.size() > kKeptModels) kept.pop_back();
  return model;
}

TurnModel::TurnModel(const Rules& rules) : rules_(rules) {
  BuildIndex();
  BuildChildren();
  BuildClasses();
  BuildTerms();
}

const std::vector<RollOutcome>& RollLaw(int dice) {
  static auto* const once = new std::array<std::once_flag, kMaxDice + 1>;
  static auto* const rolls = new std::array<std::vector<RollOutcome>, kMaxDice + 1>;
  std::call_once((*once)[dice], [&] { (*rolls)[dice] = RollDistribution(dice); });
  return (*rolls)[dice];
}

int TurnModel::IdOf(const Dice& aside) const {
  int e[3] = {aside.count(Face::kHuman), aside.count(Face::kCow), aside.count(Face::kChicken)};
  if (e[0] < e[1]) std::swap(e[0], e[1]);
  if (e[1] < e[2]) std::swap(e[1], e[2]);
  if (e[0] < e[1]) std::swap(e[0], e[1]);
  return Id(aside.count(Face::kTank), aside.count(Face::kRay), e[0], e[1], e[2]);
}

void TurnModel::BuildIndex() {
  const int n = rules_.dice;
  index_ = CanonicalIndex(n);
  states_.resize(index_.size());
  levels_.assign(n + 1, {});
  for (int t = 0; t <= n; ++t) {
    for (int r = 0; t + r <= n; ++r) {
      for (int e0 = 0; t + r + e0 <= n; ++e0) {
        for (int e1 = 0; e1 <= e0 && t + r + e0 + e1 <= n; ++e1) {
          for (int e2 = 0; e2 <= e1 && t + r + e0 + e1 + e2 <= n; ++e2) {
            const int id = Id(t, r, e0, e1, e2);
            CanonState& s = states_[id];
            s.tanks = t;
            s.rays = r;
            s.earth[0] = e0;
            s.earth[1] = e1;
            s.earth[2] = e2;
            s.left = n - t - r - e0 - e1 - e2;
            s.untaken = (e0 == 0) + (e1 == 0) + (e2 == 0);
            s.score = TurnScore(rules_, Dice(t, r, e0, e1, e2));
            levels_[s.left].push_back(id);
          }
        }
      }
    }
  }
}

void TurnModel::BuildChildren() {
  const int n = rules_.dice;
  earth_child_.assign(states_.size() * (n + 1), -1);
  for (int id = 0; id < size(); ++id) {
    const CanonState& s = states_[id];
    if (s.untaken == 0) continue;
    for (int x = 1; x <= s.left; ++x) {
      int e[3] = {s.earth[0], s.earth[1], s.earth[2]};
      // x goes in the first empty slot (zeros sort last), moved up to keep the order.
      int i = 3 - s.untaken;
      for (; i > 0 && e[i - 1] < x; --i) e[i] = e[i - 1];
      e[i] = x;
      earth_child_[id * (n + 1) + x] = Id(s.tanks, s.rays, e[0], e[1], e[2]);
    }
  }
}

void TurnModel::BuildClasses() {
  const int n = rules_.dice;
  classes_.assign(4 * (n + 1), {});
  for (int j = 0; j <= 3; ++j) {
    for (int q = 0; q <= n; ++q) {
      // (mask, weight) by mask: few distinct masks, so a linear search beats a map.
      std::vector<std::pair<std::uint32_t, std::uint64_t>> by_mask;
      ForEachEarthOutcome(j, q, [&](const int* c, std::uint64_t w) {
        std::uint32_t mask = 0;
        for (int i = 0; i < 3; ++i) {
          if (c[i] > 0) mask |= 1u << c[i];
        }
        auto it = std::find_if(by_mask.begin(), by_mask.end(),
                               [mask](const auto& entry) { return entry.first == mask; });
        if (it == by_mask.end()) {
          by_mask.emplace_back(mask, w);
        } else {
          it->second += w;
        }
      });
      std::sort(by_mask.begin(), by_mask.end());
      auto& out = classes_[j * (n + 1) + q];
      for (auto [mask, w] : by_mask) {
        EarthClass cls{mask, w, static_cast<double>(w)};
        for (std::uint32_t bits = mask; bits != 0 && cls.takes < 3; bits &= bits - 1) {
          cls.take[cls.takes++] = static_cast<std::uint8_t>(std::countr_zero(bits));
        }
        // Padded with the largest: a class then always has `untaken` entries.
        for (int i = cls.takes; cls.takes > 0 && i < 3; ++i) cls.take[i] = cls.take[cls.takes - 1];
        out.push_back(cls);
      }
    }
  }
  for (int u = 0; u <= 3; ++u) {
    for (int q = 0; q <= n; ++q) {
      class_begin_.push_back(static_cast<std::int32_t>(class_data_.size()));
      const auto& row = classes_[u * (n + 1) + q];
      class_data_.insert(class_data_.end(), row.begin(), row.end());
    }
    class_begin_.push_back(static_cast<std::int32_t>(class_data_.size()));
  }
}

void TurnModel::BuildTerms() {
  std::size_t laws = 0;
  for (const CanonState& g : states_) laws += g.left + 1;
  law_offset_.reserve(states_.size() + 1);
  law_class_begin_.reserve(laws + 1);
  law_ray_child_.reserve(laws);
  law_offset_.assign(1, 0);
  law_class_begin_.assign(1, 0);
  for (int id = 0; id < size(); ++id) {
    const CanonState& g = states_[id];
    law_offset_.push_back(law_offset_.back() + g.left + 1);
    const std::int32_t* const row = ClassRow(std::min<int>(g.untaken, 3));
    for (int q = 0; q <= g.left; ++q) {
      law_class_begin_.push_back(law_class_begin_.back() + row[q + 1] - row[q]);
      law_ray_child_.push_back(
          q == g.left ? -1 : Id(g.tanks, g.rays + g.left - q, g.earth[0], g.earth[1], g.earth[2]));
    }
  }
  // The weights of (a tanks, q others) from m dice, the rest b rays: every
  // position with m dice left shares them.
  const int n = rules_.dice;
  weight_begin_.assign(2, 0);  // m = 0: no terms
  for (int m = 1; m <= n; ++m)
    weight_begin_.push_back(weight_begin_.back() + (m + 1) * (m + 2) / 2);
  ForEachWeight(n, [&](int m, std::uint64_t weight) {
    weights_.push_back(static_cast<double>(weight) * (1.0 / static_cast<double>(PowerOfSix(m))));
  });
  size_t count = 0;
  for (const CanonState& s : states_) count += weight_begin_[s.left + 1] - weight_begin_[s.left];
  term_law_.resize(count);
  term_begin_.reserve(states_.size() + 1);
  term_begin_.assign(1, 0);
  std::int32_t* law = term_law_.data();
  for (int id = 0; id < size(); ++id) {
    const CanonState s = states_[id];
    const int m = s.left;
    for (int a = 0; m > 0 && a <= m; ++a) {
      const int group = Id(s.tanks + a, s.rays, s.earth[0], s.earth[1], s.earth[2]);
      for (int q = 0; a + q <= m; ++q) *law++ = LawIndex(group, q);
    }
    term_begin_.push_back(static_cast<std::int32_t>(law - term_law_.data()));
  }
}

std::uint64_t TurnModel::ExactWeight(int a, int b, int q) {
  return Multinomial({a, b, q}) << b;  // times 2^b: two ray sides
}

void TurnModel::BuildExactTerms() const {
  exact_terms_.reserve(weights_.size());
  ForEachWeight(rules_.dice, [&](int, std::uint64_t weight) { exact_terms_.push_back({weight}); });
}

void TurnModel::BuildWideWeights() const {
  wide_weights_.reserve(weights_.size());
  ForEachWeight(rules_.dice, [&](int m, std::uint64_t weight) {
    wide_weights_.push_back(static_cast<Wide>(weight) / static_cast<Wide>(PowerOfSix(m)));
  });
}

// --------------------------------------------------- earthling-take laws

namespace {

// Ranks the earthling take counts x = 1..left(group) best first into
// rank[x] (lower is better); `better(c1, c2)` says child position c1 beats c2.
template <class Better>
void RankTakes(const TurnModel& model, int group, Better better, int* rank) {
  const CanonState& g = model.state(group);
  if (g.untaken <= 1) {
    for (int x = 1; x <= g.left; ++x) rank[x] = x;  // one type: a single take per class
    return;
  }
  // Insertion sort: stable, allocation-free, and left <= 20.
  int order[kMaxDice + 1];
  int count = 0;
  for (int x = 1; x <= g.left; ++x) {
    const int child = model.EarthChild(group, x);
    int i = count++;
    for (; i > 0 && better(child, model.EarthChild(group, order[i - 1])); --i) {
      order[i] = order[i - 1];
    }
    order[i] = x;
  }
  for (int i = 0; i < count; ++i) rank[order[i]] = i;
}

// The take of a class of outcomes: its present count of best rank.
int BestTake(std::uint32_t present, const int* rank) {
  int best = std::countr_zero(present);
  for (std::uint32_t bits = present & (present - 1); bits != 0; bits &= bits - 1) {
    int x = std::countr_zero(bits);
    if (rank[x] < rank[best]) best = x;
  }
  return best;
}

// The law of the best earthling take from a group's q other dice: calls
// sink(q, none_weight, weight_of) for q = 0..left, where none_weight counts
// the outcomes (over 3^q) showing no untaken type and weight_of[x] those
// whose best take is x dice.
template <class Better, class Sink>
void ForEachEarthLaw(const TurnModel& model, int group, Better better, Sink&& sink) {
  const CanonState& g = model.state(group);
  int rank[kMaxDice + 1];
  RankTakes(model, group, better, rank);
  for (int q = 0; q <= g.left; ++q) {
    std::uint64_t weight_of[kMaxDice + 1] = {};
    std::uint64_t none_weight = 0;
    for (const EarthClass& cls : model.Classes(g.untaken, q)) {
      if (cls.present == 0) {
        none_weight += cls.weight;
      } else {
        weight_of[BestTake(cls.present, rank)] += cls.weight;
      }
    }
    sink(q, none_weight, weight_of);
  }
}

}  // namespace

// ------------------------------------------------------------ double DP

namespace {

// The range of a parameter t of the utility over which a solve's policy stays
// optimal (SolveDoubleParametric): every value is linear in t while it does.
struct PolicyRange {
  double lo = -HUGE_VAL, hi = HUGE_VAL;

  // The chosen option beats another by `gap` >= 0 now, and gains `dslope`
  // relative to it per unit of t: it stays chosen while gap + dslope * d >= 0.
  // Options equal up to rounding (the same function summed in another order)
  // would pin the range to one side of 0, so a loss of kSlack is accepted:
  // each decision then costs at most kSlack, a few per turn.
  static constexpr double kSlack = 1e-16;
  void Keep(double gap, double dslope) {
    // t is a probability: |d| <= 1, so a gap above |dslope| can never close.
    if (gap + kSlack >= std::abs(dslope)) return;
    if (dslope > 0) {
      lo = std::max(lo, -(gap + kSlack) / dslope);
    } else if (dslope < 0) {
      hi = std::min(hi, (gap + kSlack) / -dslope);
    }
  }
};

// The double DP on lanes V: double (one utility) or Pair (two, lane by lane,
// each lane bit for bit the single solve). It works on arrays it does not own:
// per position stop (filled in), roll, value, and with kSlope slope; per
// (group, q) law a record of S numbers (the value sum, then with kSlope the
// slope sum). kSlope: every value's slope in a parameter of the utility
// (slope_utility by score) under the policy chosen; the choices, and so the
// values, are exactly those without. kRange (double, with kSlope): also each
// roll value's slope and the parameter's range over which the policy stays.
template <class V, bool kSlope, bool kRange = false>
struct DoubleDP {
  static_assert(!kRange || (kSlope && std::is_same_v<V, double>));
  static constexpr int S = kSlope ? 2 : 1;

  const TurnModel& model;
  const V* stop;
  V* roll;
  V* value;
  V* slope;                      // kSlope
  V* laws;                       // S per law
  const V* slope_utility;        // kSlope: by score
  V* roll_slope = nullptr;       // kRange: per position
  PolicyRange* range = nullptr;  // kRange

  // Phases by level, from no dice left up: the roll outcome values, then stop or roll.
  void Run() {
    const int start = model.Id(0, 0, 0, 0, 0);
    for (int level = 0; level <= model.rules().dice; ++level) {
      OutcomeSums(level);
      for (int id : model.Level(level)) StopOrRoll(id, level, id == start);
    }
  }

  // Phase "roll outcome values": for each group at this level and each q, the
  // expected utility (times 3^q) of the q other dice under optimal takes. The
  // rays beside them number left(group) - q whichever position rolled, so this
  // sum is shared by every position whose roll leads to (group, q).
  void OutcomeSums(int level) {
    V take_value[kMaxDice + 1], take_slope[kMaxDice + 1];
    for (int group : model.Level(level)) {
      const CanonState& g = model.state(group);
      if (g.untaken > 0) {
        for (int x = 1; x <= g.left; ++x) {
          take_value[x] = value[model.EarthChild(group, x)];
          if constexpr (kSlope) take_slope[x] = slope[model.EarthChild(group, x)];
        }
      }
      if constexpr (kRange) KeepTakeRanking(group, take_value, take_slope);
      switch (g.untaken) {
        case 0:
          GroupSums<0>(group, g, take_value, take_slope);
          break;
        case 1:
          GroupSums<1>(group, g, take_value, take_slope);
          break;
        case 2:
          GroupSums<2>(group, g, take_value, take_slope);
          break;
        default:
          GroupSums<3>(group, g, take_value, take_slope);
          break;
      }
    }
  }

  // The sums of one group's laws, q = 0..left, for a group with J untaken types.
  template <int J>
  void GroupSums(int group, const CanonState& g, const V* take_value, const V* take_slope) {
    const EarthClass* const data = model.ClassData();
    const std::int32_t* const row = model.ClassRow(J);
    const std::int32_t* const ray_children = model.RayChildren(group);
    V* law = laws + static_cast<size_t>(model.LawIndex(group, 0)) * S;
    for (int q = 0; q <= g.left; ++q, law += S) {
      const int ray_child = ray_children[q];
      // Without rays an empty choice ends the turn; with rays they are taken.
      const V rays = ray_child < 0 ? Splat<V>(-HUGE_VAL) : value[ray_child];
      const V none = ray_child < 0 ? stop[group] : rays;
      V sum = Splat<V>(0), slope_sum = sum, rays_slope = sum, none_slope = sum;
      if constexpr (kSlope) {
        rays_slope = ray_child < 0 ? Splat<V>(0) : slope[ray_child];
        none_slope = ray_child < 0 ? slope_utility[g.score] : rays_slope;
      }
      const EarthClass* cls = data + row[q];
      const EarthClass* const end = data + row[q + 1];
      // No untaken type shown (classes are sorted by mask, so it comes first):
      // always possible with a taken type to show, else only with no dice.
      if (J < 3 || q == 0) {
        sum += Splat<V>(cls->weight_d) * none;
        if constexpr (kSlope) slope_sum += Splat<V>(cls->weight_d) * none_slope;
        ++cls;
      }
      for (; cls != end; ++cls) {
        V best, best_slope = Splat<V>(0);
        BestTake<J>(*cls, take_value, take_slope, &best, &best_slope);
        const V w = Splat<V>(cls->weight_d);
        // Max keeps the rays on a tie: so does the slope.
        sum += w * Max(rays, best);
        if constexpr (kSlope) slope_sum += w * SelectLess(rays, best, best_slope, rays_slope);
        if constexpr (kRange) {
          if (ray_child >= 0) {
            rays < best ? range->Keep(best - rays, best_slope - rays_slope)
                        : range->Keep(rays - best, rays_slope - best_slope);
          }
        }
      }
      law[0] = sum;
      if constexpr (kSlope) law[1] = slope_sum;
    }
  }

  // The best take of a class: the largest value, the fewest dice among
  // equals (take[] ascending, padded to J entries; a later one replaces the
  // best only when strictly greater), and its slope.
  template <int J>
  static void BestTake(const EarthClass& cls, const V* take_value, const V* take_slope, V* best,
                       V* best_slope) {
    if constexpr (std::is_same_v<V, double>) {
      // One lane: the take's index, then its numbers (fewer instructions).
      int x = cls.take[0];
      if constexpr (J >= 2) x = take_value[cls.take[1]] > take_value[x] ? cls.take[1] : x;
      if constexpr (J >= 3) x = take_value[cls.take[2]] > take_value[x] ? cls.take[2] : x;
      *best = take_value[x];
      if constexpr (kSlope) *best_slope = take_slope[x];
    } else {
      // Lanes choose apart: by value.
      *best = take_value[cls.take[0]];
      if constexpr (kSlope) *best_slope = take_slope[cls.take[0]];
      auto consider = [&](int x) {
        if constexpr (kSlope) {
          *best_slope = SelectLess(*best, take_value[x], take_slope[x], *best_slope);
        }
        *best = Max(*best, take_value[x]);
      };
      if constexpr (J >= 2) consider(cls.take[1]);
      if constexpr (J >= 3) consider(cls.take[2]);
    }
  }

  // kRange: the ranking of a group's takes (the order its classes choose
  // by) must hold: each take against the next one.
  void KeepTakeRanking(int group, const V* take_value, const V* take_slope) {
    const CanonState& g = model.state(group);
    if (g.untaken <= 1) return;  // one type: a single take per class
    int rank[kMaxDice + 1], order[kMaxDice + 1];
    RankTakes(
        model, group, [&](int a, int b) { return value[a] > value[b]; }, rank);
    for (int x = 1; x <= g.left; ++x) order[rank[x]] = x;
    for (int i = 0; i + 1 < g.left; ++i) {
      const int a = order[i], b = order[i + 1];
      range->Keep(take_value[a] - take_value[b], take_slope[a] - take_slope[b]);
    }
  }

  // Phase "roll value", then "stop or roll": stopping is not allowed before
  // the first roll (`start`).
  void StopOrRoll(int id, int level, bool start) {
    const int score = model.state(id).score;
    if (level == 0) {
      value[id] = stop[id];
      if constexpr (kSlope) slope[id] = slope_utility[score];
      return;
    }
    V r[S];
    RollSum<V, S>(model.Terms(id), laws, r);
    roll[id] = r[0];
    value[id] = start ? r[0] : Max(stop[id], r[0]);
    if constexpr (kSlope) {
      const V stop_slope = slope_utility[score];
      slope[id] = start ? r[1] : SelectLess(stop[id], r[0], r[1], stop_slope);
    }
    if constexpr (kRange) {
      roll_slope[id] = r[1];
      if (!start) {
        stop[id] < r[0] ? range->Keep(r[0] - stop[id], r[1] - slope_utility[score])
                        : range->Keep(stop[id] - r[0], slope_utility[score] - r[1]);
      }
    }
  }
};

// The double solve for one utility into v (storage reused: the game
// solver's many solves then allocate nothing); with kSlope the start
// position's slope in *start_slope, with kRange every slope and the range in
// *parametric. Roll values are NaN at positions with no dice left.
template <bool kSlope, bool kRange = false>
void SolveOne(const TurnModel& model, const std::vector<double>& utility,
              const std::vector<double>* slope_utility, double* start_slope, TurnValues& v,
              ParametricTurn* parametric = nullptr) {
  const int size = model.size();
  v.stop.resize(size);
  v.value.resize(size);
  v.roll.resize(size);
  for (int id = 0; id < size; ++id) v.stop[id] = utility[model.state(id).score];
  for (int id : model.Level(0)) v.roll[id] = std::numeric_limits<double>::quiet_NaN();
  // Reused across solves on this thread.
  thread_local std::vector<double> laws, slope;
  laws.resize(static_cast<size_t>(model.LawCount()) * DoubleDP<double, kSlope>::S);
  DoubleDP<double, kSlope, kRange> dp{model,   v.stop.data(), v.roll.data(), v.value.data(),
                                      nullptr, laws.data(),   nullptr};
  PolicyRange range;
  if constexpr (kRange) {
    parametric->slope.assign(size, 0.0);
    parametric->roll_slope.assign(size, 0.0);
    dp.slope = parametric->slope.data();
    dp.roll_slope = parametric->roll_slope.data();
    dp.range = &range;
  } else if constexpr (kSlope) {
    slope.resize(size);
    dp.slope = slope.data();
  }
  if constexpr (kSlope) dp.slope_utility = slope_utility->data();
  dp.Run();
  if constexpr (kSlope) *start_slope = dp.slope[model.Id(0, 0, 0, 0, 0)];
  if constexpr (kRange) {
    parametric->lo = range.lo;
    parametric->hi = range.hi;
  }
}

// Two utilities in one pass (Pair lanes), split into out[0] and out[1].
template <bool kSlope>
void SolvePair(const TurnModel& model, const std::vector<double>* const utility[2],
               const std::vector<double>* slope_utility, double start_slope[2], TurnValues out[2]) {
  const int size = model.size();
  // Reused across solves on this thread: repeated solves allocate nothing.
  thread_local std::vector<Pair> stop, roll, value, slope, laws;
  stop.resize(size);
  roll.resize(size);
  value.resize(size);
  laws.resize(static_cast<size_t>(model.LawCount()) * DoubleDP<Pair, kSlope>::S);
  Pair su[kMaxDice + kMaxBonus + 1];
  if constexpr (kSlope) {
    slope.resize(size);
    for (int s = 0; s <= model.MaxScore(); ++s) su[s] = Splat<Pair>((*slope_utility)[s]);
  }
  for (int id = 0; id < size; ++id) {
    const int score = model.state(id).score;
    stop[id] = Pair{(*utility[0])[score], (*utility[1])[score]};
  }
  DoubleDP<Pair, kSlope>{model,        stop.data(), roll.data(), value.data(),
                         slope.data(), laws.data(), su}
      .Run();
  const int start = model.Id(0, 0, 0, 0, 0);
  for (int lane = 0; lane < 2; ++lane) {
    TurnValues& o = out[lane];
    o.stop.resize(size);
    o.roll.resize(size);
    o.value.resize(size);
    for (int id = 0; id < size; ++id) {
      o.stop[id] = stop[id][lane];
      o.roll[id] = roll[id][lane];
      o.value[id] = value[id][lane];
    }
    for (int id : model.Level(0)) o.roll[id] = std::numeric_limits<double>::quiet_NaN();
    if constexpr (kSlope) start_slope[lane] = slope[start][lane];
  }
}

}  // namespace

TurnValues SolveDouble(const TurnModel& model, const std::vector<double>& utility) {
  TurnValues v;
  SolveOne<false>(model, utility, nullptr, nullptr, v);
  return v;
}

void SolveDouble(const TurnModel& model, const std::vector<double>& utility, TurnValues* out) {
  SolveOne<false>(model, utility, nullptr, nullptr, *out);
}

void SolveDoubleWithSlope(const TurnModel& model, const std::vector<double>& utility,
                          const std::vector<double>& slope_utility, double* start_slope,
                          TurnValues* out) {
  SolveOne<true>(model, utility, &slope_utility, start_slope, *out);
}

TurnValues SolveDoubleWithSlope(const TurnModel& model, const std::vector<double>& utility,
                                const std::vector<double>& slope_utility, double* start_slope) {
  TurnValues v;
  SolveOne<true>(model, utility, &slope_utility, start_slope, v);
  return v;
}

TurnValues SolveDoubleParametric(const TurnModel& model, const std::vector<double>& utility,
                                 const std::vector<double>& slope_utility, ParametricTurn* out) {
  TurnValues v;
  double start_slope = 0;
  SolveOne<true, true>(model, utility, &slope_utility, &start_slope, v, out);
  return v;
}

void SolveDoublePair(const TurnModel& model, const std::vector<double>* const utility[2],
                     const std::vector<double>* slope_utility, double start_slope[2],
                     TurnValues out[2]) {
  if (slope_utility != nullptr) {
    SolvePair<true>(model, utility, slope_utility, start_slope, out);
  } else {
    SolvePair<false>(model, utility, nullptr, nullptr, out);
  }
}

// ------------------------------------------------------------- exact DP

namespace {

double RatioToDouble(const BigInt& num, const BigInt& den) {
  if (num == 0) return 0;
  BigInt a = abs(num);
  int shift_a = std::max<int>(0, static_cast<int>(msb(a)) - 62);
  int shift_d = std::max<int>(0, static_cast<int>(msb(den)) - 62);
  double r = static_cast<double>((a >> shift_a).convert_to<std::uint64_t>()) /
             static_cast<double>((den >> shift_d).convert_to<std::uint64_t>());
  r = std::ldexp(r, shift_a - shift_d);
  return num < 0 ? -r : r;
}

// Exact solve state: numerators of every node's value. Nodes are positions
// (value over Q * 6^D(left)) and final scores (utility over Q). Not DoubleDP
// on big numbers: it sums each node's integer weights first and multiplies
// once per node, where a sum term by term takes a big-number product a term.
class ExactSolver {
 public:
  ExactSolver(const TurnModel& model, const std::vector<Rational>& utility)
      : model_(model), size_(model.size()), start_(model.Id(0, 0, 0, 0, 0)) {
    out_.denominator = 1;
    for (const Rational& u : utility) out_.denominator = lcm(out_.denominator, denominator(u));
    for (const Rational& u : utility) {
      out_.utility.push_back(numerator(u) * (out_.denominator / denominator(u)));
      utility_d_.push_back(RatioToDouble(out_.utility.back(), out_.denominator));
    }
    const int max_exp = TurnModel::DenominatorExponent(model.rules().dice);
    pow6_.resize(max_exp + 1);
    pow6_[0] = 1;
    for (int i = 1; i <= max_exp; ++i) pow6_[i] = pow6_[i - 1] * 6;
    value_.resize(size_);
    out_.roll.resize(size_);
    out_.approx.stop.resize(size_);
    out_.approx.roll.assign(size_, std::numeric_limits<double>::quiet_NaN());
    out_.approx.value.resize(size_);
    for (int id = 0; id < size_; ++id) out_.approx.stop[id] = utility_d_[model.state(id).score];
    acc_.assign(size_ + out_.utility.size(), 0);
    laws_.resize(model.LawCount());
  }

  ExactTurnValues Run() {
    for (int level = 0; level <= model_.rules().dice; ++level) {
      for (int group : model_.Level(level)) {
        ForEachEarthLaw(
            model_, group, [&](int a, int b) { return Compare(a, b) > 0; },
            [&](int q, std::uint64_t none_weight, const std::uint64_t* weight_of) {
              BuildOutcomeLaw(group, q, none_weight, weight_of);
            });
      }
      for (int id : model_.Level(level)) SolvePosition(id);
    }
    return std::move(out_);
  }

 private:
  int Exponent(int node) const {
    return node < size_ ? TurnModel::DenominatorExponent(model_.state(node).left) : 0;
  }
  const BigInt& Numerator(int node) const {
    return node < size_ ? value_[node] : out_.utility[node - size_];
  }
  double Approx(int node) const {
    return node < size_ ? out_.approx.value[node] : utility_d_[node - size_];
  }
  int ScoreNode(int id) const { return size_ + model_.state(id).score; }

  // Sign of value(a) - value(b); doubles decide only with a margin far above
  // their rounding error (a few ulps), else the numerators are compared.
  int Compare(int a, int b) const {
    double da = Approx(a), db = Approx(b);
    double margin = 1e-12 * std::max(std::abs(da), std::abs(db));
    if (da - db > margin) return 1;
    if (db - da > margin) return -1;
    int ea = Exponent(a), eb = Exponent(b), e = std::max(ea, eb);
    BigInt lhs = Numerator(a) * pow6_[e - ea];
    BigInt rhs = Numerator(b) * pow6_[e - eb];
    return lhs < rhs ? -1 : (lhs > rhs ? 1 : 0);
  }

  // Phase "roll outcome values", exactly: the node (position or final score)
  // each class of (group, q) outcomes leads to under optimal takes.
  void BuildOutcomeLaw(int group, int q, std::uint64_t none_weight,
                       const std::uint64_t* weight_of) {
    std::vector<std::pair<int, std::uint64_t>>& law = laws_[model_.LawIndex(group, q)];
    const int ray_child = model_.RayChild(group, q);
    if (none_weight > 0)
      law.emplace_back(ray_child < 0 ? ScoreNode(group) : ray_child, none_weight);
    for (int x = 1; x <= q; ++x) {
      if (weight_of[x] == 0) continue;
      int child = model_.EarthChild(group, x);
      if (ray_child >= 0 && Compare(ray_child, child) >= 0) child = ray_child;
      law.emplace_back(child, weight_of[x]);
    }
  }

  void Add(int node, std::uint64_t weight) {
    if (acc_[node] == 0) touched_.push_back(node);
    acc_[node] += weight;
  }

  // Phase "roll value", exactly: weights of the node each roll outcome leads to
  // under optimal takes, then one big-number sum per level of denominator.
  void SolvePosition(int id) {
    const CanonState& s = model_.state(id);
    const int exp = TurnModel::DenominatorExponent(s.left);
    const BigInt& qd = pow6_[exp];
    if (s.left == 0) {
      value_[id] = out_.utility[s.score];
      out_.approx.value[id] = out_.approx.stop[id];
      return;
    }
    const RollTerms terms = model_.Terms(id);
    std::span<const RollTermExact> exact_terms = model_.ExactTerms(id);
    for (size_t i = 0; i < terms.size(); ++i) {
      for (auto [node, w] : laws_[terms[i].law]) Add(node, exact_terms[i].weight * w);
    }
    const int child_exp = TurnModel::DenominatorExponent(s.left - 1);
    std::vector<BigInt> by_exp(child_exp + 1);
    for (int node : touched_) {
      by_exp[Exponent(node)] += Numerator(node) * acc_[node];
      acc_[node] = 0;
    }
    touched_.clear();
    BigInt roll = 0;
    for (int e = 0; e <= child_exp; ++e) {
      if (by_exp[e] != 0) roll += by_exp[e] * pow6_[child_exp - e];
    }
    out_.approx.roll[id] = RatioToDouble(roll, out_.denominator * qd);
    out_.roll[id] = roll;
    // Phase "stop or roll", decided exactly.
    BigInt stop = out_.utility[s.score] * qd;
    bool roll_better = id == start_ || stop < roll;
    value_[id] = roll_better ? roll : stop;
    out_.approx.value[id] = roll_better ? out_.approx.roll[id] : out_.approx.stop[id];
  }

  const TurnModel& model_;
  const int size_;
  const int start_;
  ExactTurnValues out_;
  std::vector<double> utility_d_;
  std::vector<BigInt> pow6_;
  std::vector<BigInt> value_;
  std::vector<std::uint64_t> acc_;
  std::vector<int> touched_;
  std::vector<std::vector<std::pair<int, std::uint64_t>>> laws_;  // (node, weight) per law
};

}  // namespace

ExactTurnValues SolveExact(const TurnModel& model, const std::vector<Rational>& utility) {
  return ExactSolver(model, utility).Run();
}

}  // namespace martiandice::internal
